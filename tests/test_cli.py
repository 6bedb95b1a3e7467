"""The ``docstrata`` command line as a user runs it: a real subprocess over a copy of examples/.

One module-scoped index (one model load); every later command runs on it. Checks: --version and
shell completion; argument errors before any index is opened or model loaded; keyword and exact
searches that never import the model; get-section, get-definition and list; implicit first
ingests that say what they do; exit 1 when a tool ends with nothing indexed; the README's Quick start.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "200"}
README_QUERY = "How much credit do we get if availability falls below 99.9%?"

# Runs the CLI in-process and reports which heavy modules it imported.
_PROBE = """
import sys
from docstrata.cli import app
try:
    app(sys.argv[1:], prog_name="docstrata")
except SystemExit as e:
    code = e.code
model = any(m in sys.modules for m in ("sentence_transformers", "openvino", "onnxruntime"))
print("MODULES", int(model), int("torch" in sys.modules), code, file=sys.stderr)
"""


def run(*args: str, cwd: Path, probe: bool = False, check: bool = False, stdin: str | None = None):
    cmd = [sys.executable, "-c", _PROBE, *args] if probe else [sys.executable, "-m", "docstrata.cli", *args]
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=ENV, input=stdin, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def loaded(proc) -> tuple[bool, bool]:
    """(an embedding runtime imported — sentence-transformers, OpenVINO or ONNX Runtime —, torch
    imported) from a probe run."""
    m = re.search(r"MODULES (\d) (\d) (\S+)", proc.stderr)
    assert m, proc.stderr
    return m.group(1) == "1", m.group(2) == "1"


def exit_code(proc) -> str:
    return re.search(r"MODULES \d \d (\S+)", proc.stderr).group(1)


_FIRST_RUN: dict = {}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of examples/, indexed once by the implicit first ingest of a keyword search (its
    output is kept for the test of that message)."""
    dest = tmp_path_factory.mktemp("cli") / "examples"
    shutil.copytree(EXAMPLES, dest, ignore=shutil.ignore_patterns(".docstrata", "holodeck"))
    _FIRST_RUN["proc"] = run("search", "--mode", "keyword", "sick leave", cwd=dest, check=True)
    return dest


def test_version_and_completion(tmp_path):
    from docstrata import __version__

    out = run("--version", cwd=tmp_path, check=True)
    assert out.stdout.strip() == f"docstrata {__version__}"
    # what `--show-completion` prints for bash (that flag detects the shell from the parent
    # process, which fails when the suite runs detached from a shell)
    script = subprocess.run([sys.executable, "-m", "docstrata.cli"], cwd=tmp_path, capture_output=True, text=True,
                            env={**ENV, "_DOCSTRATA_COMPLETE": "source_bash"}, timeout=60).stdout
    assert "_DOCSTRATA_COMPLETE" in script and "complete" in script
    help_ = run("--help", cwd=tmp_path, probe=True)
    assert "--install-completion" in help_.stdout and "get-section" in help_.stdout and "ui" in help_.stdout
    assert loaded(help_) == (False, False) and exit_code(help_) == "0"


@pytest.mark.parametrize("args, message", [
    (["--mode", "fuzzy"], "--mode must be one of hybrid, semantic, keyword, exact, got 'fuzzy'"),
    (["--min-score", "1.5"], "--min-score is a cosine similarity between 0 and 1, got 1.5"),
    (["--min-fused-score", "0.5"], "--min-fused-score 0.5 can never be met: fused RRF scores are at most 0.1667"),
    (["--min-fused-score", "-1"], "--min-fused-score must be a number >= 0"),
    (["--filter", "price<<5"], "--filter 'price<<5': < needs a number"),
    (["--filter", "category"], "--filter 'category': expected FIELD=VALUE"),
    (["--filter", "category=shoes"], "--filter applies to record fields; tool 'policies' holds documents"),
    (["--top-k", "500"], "less than or equal to 100"),
])
def test_argument_errors_come_before_any_index_or_model(tmp_path, args, message):
    shutil.copytree(EXAMPLES / "docs", tmp_path / "docs")
    shutil.copy(EXAMPLES / "agent.yaml", tmp_path)
    proc = run("search", *args, "anything", cwd=tmp_path, probe=True)
    assert exit_code(proc) == "2", proc.stderr
    assert message in " ".join(proc.stderr.split()), proc.stderr
    assert loaded(proc) == (False, False)
    assert not (tmp_path / ".docstrata").exists()  # no index was opened, nothing was ingested


def test_a_hub_name_reranker_fails_before_any_index_or_model(tmp_path):
    shutil.copytree(EXAMPLES / "docs", tmp_path / "docs")
    (tmp_path / "agent.yaml").write_text((EXAMPLES / "agent.yaml").read_text() + "    enable_reranking: true\n"
                                         "    reranker_model: cross-encoder/ms-marco-MiniLM-L-6-v2\n")
    proc = run("search", "anything", cwd=tmp_path, probe=True)
    assert "does not download models at run time" in " ".join(proc.stderr.split())
    assert loaded(proc) == (False, False)
    assert not (tmp_path / ".docstrata").exists()


def test_serve_without_the_mcp_package_says_how_to_install_it(tmp_path):
    """A trimmed environment (mcp missing, as after an old install) gets the install line, not a traceback."""
    shutil.copy(EXAMPLES / "agent.yaml", tmp_path)
    code = "import sys; sys.modules['mcp'] = None; from docstrata.cli import main; sys.argv[0] = 'docstrata'; main()"
    proc = subprocess.run([sys.executable, "-c", code, "serve", "-c", "agent.yaml"], cwd=tmp_path,
                          capture_output=True, text=True, env=ENV, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "pip install 'docstrata[mcp]'" in " ".join(proc.stderr.split())
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("mode, first", [("keyword", "4.2"), ("exact", "4.3")])
def test_keyword_and_exact_searches_never_load_the_model(project, mode, first):
    query = "Section 4.3" if mode == "exact" else README_QUERY
    proc = run("search", "--mode", mode, "--json", query, cwd=project, probe=True)
    answer = json.loads(proc.stdout)
    assert answer["query"] == query and answer["results"][0]["section_id"] == first
    assert answer["confidence"]["level"] in ("high", "medium") and answer["confidence"]["best_similarity"] is None
    assert loaded(proc) == (False, False)


@pytest.mark.slow  # loads the model (~10 s)
def test_hybrid_search_loads_the_model_and_ranks_the_readme_query(project):
    proc = run("search", "--json", README_QUERY, cwd=project, probe=True)
    ids = [r["section_id"] for r in json.loads(proc.stdout)["results"]]
    assert ids[:2] == ["4.2", "4.3"] or ids[:2] == ["4.3", "4.2"]
    assert loaded(proc)[0]


def test_passage_answers_and_the_relative_cut_off(project):
    """``--passage`` answers with passages (the first hit's minimal passage first, then the best
    further sentences of the candidate chunks); ``--min-relative-score`` leaves out hits below that
    share of the best fused score, so no passage comes from them, and says so (issue 29)."""
    full = json.loads(run("search", "--json", "-k", "8", README_QUERY, cwd=project, check=True).stdout)
    cut = json.loads(run("search", "--json", "--passage", "-k", "8", "--min-relative-score", "0.8", README_QUERY,
                         cwd=project, check=True).stdout)
    best = max(r["fused_score"] for r in full["results"])
    kept = [r["chunk_id"] for r in full["results"] if r["fused_score"] >= 0.8 * best - 1e-9]
    assert len(kept) < len(full["results"]) and cut["results"][0]["chunk_id"] == kept[0]
    assert {r["chunk_id"] for r in cut["results"]} <= set(kept) and len(cut["results"]) <= 8
    assert any("min_relative_score 0.8" in n for n in cut["notices"])
    for r in cut["results"]:  # the examples' clauses are short: a passage may be the whole clause
        assert r["passage"] and len(r["content"]) == r["passage"]["end"] - r["passage"]["start"] <= r["content_chars"]
    bad = run("search", "--min-relative-score", "0", README_QUERY, cwd=project)
    assert bad.returncode != 0 and "min-relative-score" in bad.stderr


def test_batch_from_stdin(project):
    lines = '{"query_id": "a", "query": "Section 4.2"}\n{"query_id": "b", "query": "carry-over"}\n'
    out = run("search", "--batch", "-", "--mode", "keyword", "-k", "1", cwd=project, check=True, stdin=lines)
    got = [json.loads(x) for x in out.stdout.splitlines()]
    assert [g["query_id"] for g in got] == ["a", "b"]
    assert [g["query"] for g in got] == ["Section 4.2", "carry-over"]  # the README's {query, results, ...}
    assert got[0]["results"][0]["section_id"] == "4.2"
    assert got[1]["results"][0]["section_id"] == "1.1"
    assert all(g["confidence"]["level"] and "notices" in g and "definitions" in g for g in got)
    narrowed = run("search", "--batch", "-", "--mode", "keyword", "--document", "leave_policy", cwd=project,
                   check=True, stdin='{"query_id": "a", "query": "carry-over"}\n')
    assert {r["source_path"] for r in json.loads(narrowed.stdout)["results"]} == {"leave_policy.html"}


def test_search_filters_by_document_and_section(project):
    def ids(*args):
        out = run("search", "--mode", "keyword", "--json", "-k", "20", *args, cwd=project, check=True)
        return [(r["source_path"], r["section_id"]) for r in json.loads(out.stdout)["results"]]

    everything = ids("service credits availability")
    msa = ids("service credits availability", "--document", "master_services_agreement")
    assert msa and {d for d, _ in msa} == {"master_services_agreement.md"}
    assert msa == [h for h in everything if h[0] == "master_services_agreement.md"]  # same order, inside the store
    four = ids("service credits availability", "-d", "master_services_agreement.md", "--section", "Section 4")
    assert four and all(sid == "4" or sid.startswith("4.") for _, sid in four)
    assert four == [h for h in msa if h[1] == "4" or h[1].startswith("4.")]
    two = ids("leave", "-d", "leave_policy.html", "-d", "data_protection_policy.txt")
    assert {d for d, _ in two} <= {"leave_policy.html", "data_protection_policy.txt"} and two
    bad = run("search", "--mode", "keyword", "-d", "nosuchfile", "x", cwd=project)
    assert bad.returncode == 2 and "no document 'nosuchfile'" in bad.stderr


def test_search_text_answer_confidence_definitions_once_and_references(project):
    text = run("search", "--mode", "keyword", "-k", "5", "Force Majeure Event", cwd=project, check=True).stdout
    assert text.startswith("Confidence: ")
    assert text.count("Definitions (each once") == 1
    assert text.count('means an event beyond a party\'s reasonable control') <= 1  # once, in its own passage
    assert "References: Section 8.2 → master_services_agreement.md § 8.2" in text
    fused = run("search", "--mode", "keyword", "--json", "--min-fused-score", "0.15", "service credits",
                cwd=project, check=True)
    answer = json.loads(fused.stdout)
    assert len(answer["results"]) == 1 and answer["results"][0]["score"] >= 0.15
    assert answer["notices"] and "below min_fused_score 0.15 (set by this call) were left out; the best of them " \
        "scored 0.1" in answer["notices"][0]
    nothing = json.loads(run("search", "--mode", "keyword", "--json", "the of and", cwd=project, check=True).stdout)
    assert nothing["results"] == [] and nothing["confidence"]["level"] == "none"
    assert nothing["confidence"]["content_words"] is False


def test_get_section(project):
    out = run("get-section", "master_services_agreement", "Section 4", "--json", cwd=project, check=True)
    answer = json.loads(out.stdout)
    assert answer["document"] == "master_services_agreement.md" and answer["section_id"] == "4"
    assert answer["location"] == "Master Services Agreement > 4. Service Levels"
    assert "4.2 Availability" in answer["content"] and "4.3 Service Credits" in answer["content"]
    assert answer["next_cursor"] is None and answer["truncated"] is False
    text = run("get-section", "master_services_agreement.md", "4.3", cwd=project, check=True).stdout
    assert text.startswith("Source: master_services_agreement.md\nLocation: Master Services Agreement > "
                           "4. Service Levels > 4.3 Service Credits\nSection: 4.3\n")
    bad = run("get-section", "master_services_agreement.md", "99.9", cwd=project)
    assert bad.returncode == 1 and "no section '99.9'" in bad.stderr


def test_get_section_of_a_whole_document_in_pages(project):
    whole = json.loads(run("get-section", "master_services_agreement", "--json", cwd=project, check=True).stdout)
    assert whole["section_id"] == "" and whole["next_cursor"] is None and len(whole["content"]) == whole["total_chars"]
    text = run("get-section", "master_services_agreement", "--max-chars", "400", cwd=project, check=True).stdout
    hint = re.search(r"\[cut: (\d+) more characters; continue with: docstrata get-section -c \S+/agent\.yaml master_services_agreement "
                     r"--max-chars 400 --cursor (\S+)\]$", text.strip())
    assert hint, text
    assert text.startswith("Source: master_services_agreement.md\nLocation: Master Services Agreement\n"
                           "Section: (whole document)\nCharacters 1-")
    pages, cursor = [], None
    while True:  # follow the cursors to the end: the pages make up the whole text
        args = ["--cursor", cursor] if cursor else []
        page = json.loads(run("get-section", "master_services_agreement", "--max-chars", "800", "--json", *args,
                              cwd=project, check=True).stdout)
        assert len(page["content"]) <= 800 and page["offset"] == sum(len(p) for p in pages)
        pages.append(page["content"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(pages) >= 3 and "".join(pages) == whole["content"]
    assert int(hint.group(1)) == whole["total_chars"] - int(hint.group(2).split(":")[0])  # the rest, from the cursor on
    bad = run("get-section", "master_services_agreement", "--cursor", "12:deadbeef", cwd=project)
    assert bad.returncode == 1 and "changed since this cursor" in bad.stderr


def test_neighbours(project):
    out = json.loads(run("neighbours", "master_services_agreement.md#11", "--before", "1", "--after", "0", "--json",
                         cwd=project, check=True).stdout)
    assert [c["chunk_id"] for c in out["chunks"]] == ["master_services_agreement.md#10", "master_services_agreement.md#11"]
    assert [c["section_id"] for c in out["chunks"]] == ["4.2", "4.3"]
    bad = run("neighbours", "nope#1", cwd=project)
    assert bad.returncode == 1 and "no chunk 'nope#1'" in bad.stderr


def test_get_definition(project):
    out = json.loads(run("get-definition", "force majeure event", "--json", cwd=project, check=True).stdout)
    assert out["definitions"][0]["document"] == "master_services_agreement.md"
    assert out["definitions"][0]["definition"].startswith("means an event beyond a party's reasonable control")
    missing = run("get-definition", "unicorn", cwd=project)
    assert missing.returncode == 1 and "no definition of 'unicorn'" in missing.stderr


def test_list_documents(project):
    listing = json.loads(run("list", "--json", cwd=project, check=True).stdout)
    assert [e["tool"] for e in listing] == ["policies"]
    docs = {d["doc_key"]: d for d in listing[0]["documents"]}
    assert set(docs) == {"data_protection_policy.txt", "leave_policy.html", "master_services_agreement.md"}
    msa = docs["master_services_agreement.md"]
    assert msa["title"] == "Master Services Agreement" and msa["file_type"] == "md" and msa["language"] == "en"
    tools = __import__("docstrata").open(project / "agent.yaml")
    assert msa == next(e.to_dict() for e in tools["policies"].list_documents()  # the API's own entry
                       if e.doc_key == "master_services_agreement.md")
    chunks = tools["policies"].store.document_chunks("master_services_agreement.md")
    assert msa["total_chunks"] == len(chunks) and msa["section_count"] >= len({c.section_id for c in chunks})
    tools.close()
    assert msa["summary"].startswith("This Master Services Agreement") and msa["ingested_at"].endswith(("Z", "+00:00"))
    plain = run("list", cwd=project, check=True).stdout  # piped: plain lines, not a table folded a word per line
    lines = plain.splitlines()
    assert lines[0] == "policies (hierarchical_document): 3 document(s)"
    at = lines.index(f"  master_services_agreement.md · md · en · {msa['section_count']} sections · "
                     f"{msa['total_chunks']} chunks · {msa['ingested_at'].replace('T', ' ')[:16]}")
    assert lines[at + 1] == "    Master Services Agreement"
    assert " ".join(x.strip() for x in lines[at + 2:at + 6]).startswith("This Master Services Agreement")
    assert all(len(x) <= 100 for x in lines) and len(lines) < 40


def test_implicit_first_ingest_says_what_it_does(project):
    proc = _FIRST_RUN["proc"]
    assert "policies: indexing 3 file(s) first" in proc.stderr
    assert re.search(r"policies: indexed 3 file\(s\), \d+ chunks in [\d.]+ s", proc.stderr)
    assert "Sick Leave" in proc.stdout
    again = run("search", "--mode", "keyword", "sick leave", cwd=project, check=True)
    assert "indexing" not in again.stderr  # nothing changed: no message
    assert again.stdout == proc.stdout


def test_a_tool_with_nothing_indexed_exits_1(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.xyz").write_text("not a supported type")
    shutil.copy(EXAMPLES / "agent.yaml", tmp_path)
    ingest = run("ingest", cwd=tmp_path)
    assert ingest.returncode == 1 and "policies: no indexed files" in " ".join(ingest.stderr.split())
    search = run("search", "--mode", "keyword", "anything", cwd=tmp_path)
    assert search.returncode == 1 and "policies: no indexed files" in " ".join(search.stderr.split())


def _quick_start_command() -> str:
    block = re.search(r"## Quick start.*?```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S).group(1)
    return block.strip()


@pytest.mark.slow  # ingests and loads the model (~15 s)
def test_readme_quick_start_runs_from_the_repository_root(tmp_path):
    """Each Quick start command works when pasted into a fresh shell at the repository root
    (the install step is already done here)."""
    cmd = _quick_start_command()
    assert cmd.startswith("pip install -e . && ")
    assert "cd examples &&" not in cmd  # it would leave the shell in examples/ for the next command
    shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns(".docstrata", "holodeck"))
    proc = subprocess.run(["bash", "-c", cmd.removeprefix("pip install -e . && ")], cwd=tmp_path,
                          capture_output=True, text=True, env=ENV, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Section: 4.2" in proc.stdout and "Section: 4.3" in proc.stdout


HOTELS = ("hotel_id,name,city,cap,notes\nH-LYS-01,Hotel Terreaux,Lyon,140,Near the old town\n"
          "H-LYS-02,Part-Dieu Hotel,Lyon,120,Next to the station\nH-BER-01,Spree Hotel,Berlin,150,Quiet rooms\n"
          "H-MAD-01,Retiro Hotel,Madrid,90,\"" + "Walking distance to the park. " * 30 + "\"\n")


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    """A record tool over a small CSV built here, indexed once."""
    dest = tmp_path_factory.mktemp("records")
    (dest / "hotels.csv").write_text(HOTELS)
    (dest / "agent.yaml").write_text("tools:\n  - name: hotels\n    type: vectorstore\n    description: hotels\n"
                                     "    source: hotels.csv\n    id_field: hotel_id\n    vector_field: [name, city, notes]\n"
                                     "    meta_fields: [city, cap]\n")
    run("ingest", cwd=dest, check=True)
    return dest


def test_record_search_with_field_filters(records):
    def hits(*args):
        out = run("search", "--mode", "keyword", "--json", "hotel", *args, cwd=records, check=True)
        return json.loads(out.stdout)["results"]

    everything = [r["id"] for r in hits()]
    lyon_cheap = hits("--filter", "city=Lyon,Berlin", "--filter", "cap<145")
    assert sorted(r["id"] for r in lyon_cheap) == ["H-LYS-01", "H-LYS-02"]
    assert [r["id"] for r in lyon_cheap] == [i for i in everything if i in ("H-LYS-01", "H-LYS-02")]
    assert all(r["metadata"]["city"] == "Lyon" and float(r["metadata"]["cap"]) < 145 for r in lyon_cheap)
    assert [r["id"] for r in hits("--filter", "cap>=140", "--filter", "cap<=140")] == ["H-LYS-01"]
    assert [r["id"] for r in hits("--filter", "cap=90")] == ["H-MAD-01"]
    bad = run("search", "--mode", "keyword", "--filter", "stars>3", "hotel", cwd=records, probe=True)
    assert exit_code(bad) == "2" and "--filter stars: not a metadata field of tool 'hotels' (meta_fields: city, cap)" \
        in " ".join(bad.stderr.split())
    assert loaded(bad) == (False, False)
    sec = run("search", "--section", "4", "hotel", cwd=records)
    assert sec.returncode == 2 and "--section applies to documents" in " ".join(sec.stderr.split())


def test_get_record_in_pages_and_list_files(records):
    r = json.loads(run("get-record", "h-lys-01", "--json", cwd=records, check=True).stdout)
    assert r["id"] == "H-LYS-01" and r["score"] is None and r["metadata"] == {"city": "Lyon", "cap": "140"}
    text = run("get-record", "H-MAD-01", "--max-chars", "300", cwd=records, check=True).stdout
    m = re.search(r"continue with: docstrata get-record -c \S+/agent\.yaml H-MAD-01 --max-chars 300 --cursor (\S+)\]", text)
    assert m and text.startswith("Id: H-MAD-01\nSource: hotels.csv\n"), text
    rest = json.loads(run("get-record", "H-MAD-01", "--max-chars", "300", "--cursor", m.group(1), "--json",
                          cwd=records, check=True).stdout)
    whole = json.loads(run("get-record", "H-MAD-01", "--json", cwd=records, check=True).stdout)["content"]
    first = json.loads(run("get-record", "H-MAD-01", "--max-chars", "300", "--json", cwd=records, check=True).stdout)
    assert whole.startswith(first["content"] + rest["content"]) and rest["content"]
    missing = run("get-record", "H-NONE", cwd=records)
    assert missing.returncode == 1 and "no record with id 'H-NONE'" in missing.stderr
    listing = json.loads(run("list", "--json", cwd=records, check=True).stdout)
    assert [(d["doc_key"], d["total_chunks"], d["file_type"]) for d in listing[0]["documents"]] == [("hotels.csv", 4, "csv")]
    assert listing[0]["documents"][0]["summary"] == "4 records; fields: name, city, notes, cap"


def test_inspect_of_xhtml_prints_no_parser_warning(tmp_path):
    # EUR-Lex serves XHTML with an XML declaration; bs4's 12-line XMLParsedAsHTMLWarning is
    # library noise (lxml's HTML parser reads it fine) and must not reach the user. bs4 guesses
    # from the start of the markup, so the file is cut as a browser would still read it.
    from docstrata.convert.html import clean_html

    head = ('<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML//EN" '
            '"xhtml-strict.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head>'
            '<meta http-equiv="content-type" content="text/html; charset=utf-8"/>')
    body = "".join(f"<h2>Article {i}</h2><p>The provider shall keep records of item {i} for ten years.</p>"
                   for i in range(1, 4))
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        clean_html(head.encode())
    assert not caught, [str(w.message)[:80] for w in caught]
    (tmp_path / "act.html").write_text(head + f"<title>Act</title></head><body>{body}</body></html>", encoding="utf-8")
    proc = run("inspect", "act.html", cwd=tmp_path, check=True)
    assert "Article 2" in proc.stdout
    assert "XMLParsedAsHTMLWarning" not in proc.stderr and "HTML parser" not in proc.stderr, proc.stderr


def test_every_configuration_error_prints_on_a_line_of_its_own(tmp_path):
    """A file with two mistakes gets both in one round, one per line: the lines are the loader's
    own, so they are not escaped into one line with literal ``\\n`` (new-user trial, session 11)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "agent.yaml").write_text(
        "tools:\n  - name: a\n    type: hierarchical_document\n    source: docs/\n    search_mode: hybird\n"
        "  - name: b\n    type: hierarchical_document\n    source: docs/\n    top_k: 500\n")
    proc = run("search", "-c", "agent.yaml", "x", cwd=tmp_path)
    assert proc.returncode == 2
    assert "\\n" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert any("search_mode" in ln for ln in lines) and any("top_k" in ln for ln in lines)
    assert not any("search_mode" in ln and "top_k" in ln for ln in lines), proc.stderr


def test_a_file_that_failed_is_told_by_its_ingest_not_by_every_later_search(tmp_path):
    """A corrupt PDF is reported by the ingest that failed on it; a later search that finds the
    index current does not print the skip again (new-user trial: every command repeated it)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "policy.md").write_text("# Leave\n\n## 1. Annual leave\n\nStaff take 25 days of leave.\n")
    (tmp_path / "docs" / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: hr\n    type: hierarchical_document\n    source: docs/\n")
    first = run("ingest", "-c", "agent.yaml", cwd=tmp_path)
    assert "broken.pdf" in first.stdout + first.stderr
    later = run("search", "-c", "agent.yaml", "annual leave", cwd=tmp_path)
    assert later.returncode == 0, later.stderr
    assert "broken.pdf" not in later.stderr, later.stderr
    again = run("ingest", "-c", "agent.yaml", cwd=tmp_path)  # an explicit ingest still lists it
    assert "broken.pdf" in again.stdout + again.stderr


def test_inspect_with_a_config_reads_the_document_as_its_tool_ingests_it(tmp_path):
    """Trial 20: ``inspect`` was the one command without ``-c``. With it, a document is named as
    under the tool's source and read with the tool's own settings (here: no definitions)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "terms.md").write_text(
        '# Terms\n\n## 1. Definitions\n\n"Service" means the hosted software.\n\n## 2. Use\n\nUse the Service lawfully.\n',
        encoding="utf-8",
    )
    (tmp_path / "agent.yaml").write_text(
        "tools:\n  - name: docs\n    type: hierarchical_document\n    source: docs/\n    extract_definitions: false\n",
        encoding="utf-8",
    )
    plain = json.loads(run("inspect", "docs/terms.md", "--json", cwd=tmp_path, check=True).stdout)
    assert [d["term"] for d in plain["definitions"]] == ["Service"]
    tool = json.loads(run("inspect", "-c", "agent.yaml", "terms.md", "--json", cwd=tmp_path, check=True).stdout)
    assert tool["definitions"] == [] and [s["section_id"] for s in tool["sections"]] == [
        s["section_id"] for s in plain["sections"]
    ]
    missing = run("inspect", "-c", "agent.yaml", "other.md", cwd=tmp_path)
    assert missing.returncode != 0 and "the source of tool 'docs'" in missing.stdout + missing.stderr
