"""End to end on the shipped example: ingest, incremental re-ingest, search with citations, bad files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import docstrata
from docstrata.search import QueryError

from .conftest import EXAMPLES


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES / "docs", tmp_path / "docs")
    shutil.copy(EXAMPLES / "agent.yaml", tmp_path / "agent.yaml")
    return tmp_path


@pytest.fixture()
def policies(project):
    tools = docstrata.open(project / "agent.yaml")
    yield tools["policies"]
    tools.close()


@pytest.fixture(scope="module")
def ingested(tmp_path_factory):
    """The example's tool ingested once, for the tests that only search and read it (a test that
    changes files or checks an ingest's report has its own ``policies``); its folder is ``base_dir``."""
    root = tmp_path_factory.mktemp("pipeline")
    shutil.copytree(EXAMPLES / "docs", root / "docs")
    shutil.copy(EXAMPLES / "agent.yaml", root / "agent.yaml")
    tools = docstrata.open(root / "agent.yaml")
    tools["policies"].ingest()
    yield tools["policies"]
    tools.close()


def test_ingest_then_unchanged_reingest_embeds_nothing(policies):
    first = policies.ingest()
    assert (first.added, first.files_total, first.skipped) == (3, 3, [])
    assert first.chunks >= 15 and first.embedded == first.chunks and first.definitions >= 6
    second = policies.ingest()
    assert (second.added, second.updated, second.unchanged, second.embedded, second.chunks) == (0, 0, 3, 0, 0)
    assert second.chunks_total == first.chunks


def test_results_carry_citations_and_definitions(ingested):
    top = ingested.search("How much is the service credit when availability is missed?", top_k=3)[0]
    assert top.source_path == "master_services_agreement.md"
    assert top.section_id == "4.3"
    assert top.parent_chain[-1].startswith("4.3") and "Service Levels" in top.location
    assert "Service Level" in top.definitions_context  # the term is used in the chunk
    assert top.chunk_id.startswith("master_services_agreement.md#")
    assert not os.path.isabs(top.source_path)


def test_a_query_naming_a_section_puts_it_first(ingested):
    for query, doc, section in [("Section 4.2 availability", "master_services_agreement.md", "4.2"),
                                ("Section 3.3", "data_protection_policy.txt", "3.3"),
                                ("What does section 8.2 allow?", "master_services_agreement.md", "8.2")]:
        r = ingested.search(query, top_k=5)[0]
        assert (r.source_path, r.section_id, r.exact_match) == (doc, section, True), query


def test_modes_and_argument_errors(ingested):
    for mode in ("semantic", "keyword", "exact", "hybrid"):
        hits = ingested.search("Force Majeure Event", mode=mode, top_k=4)
        assert hits and len(hits) <= 4
        assert all(h.fused_score > 0 for h in hits)
    kw = ingested.search("Force Majeure Event", mode="keyword", top_k=4)
    assert all(h.semantic_rank is None and h.keyword_rank is not None for h in kw)
    with pytest.raises(QueryError):
        ingested.search("   ")
    with pytest.raises(QueryError):
        ingested.search("x", top_k=0)
    with pytest.raises(QueryError):
        ingested.search("x", mode="fuzzy")


def test_min_fused_score_filters_on_the_fused_score(ingested):
    hits = ingested.search("parental leave", top_k=10)
    cut = hits[2].fused_score
    kept = ingested.search("parental leave", top_k=10, min_fused_score=cut)
    assert kept and all(h.fused_score >= cut for h in kept) and len(kept) < len(hits)
    with pytest.raises(QueryError, match="can never be met"):
        ingested.search("parental leave", min_fused_score=0.5)
    for bad in (-1, float("nan")):
        with pytest.raises(QueryError, match="≥ 0"):
            ingested.search("parental leave", min_fused_score=bad)


def test_min_score_is_the_cosine_similarity_as_in_holodeck(ingested):
    hits = ingested.search("parental leave", top_k=10)
    sims = sorted(h.semantic_score for h in hits)
    cut = sims[len(sims) // 2]
    kept = ingested.search("parental leave", top_k=10, min_score=cut)
    assert kept and all(h.semantic_score >= cut for h in kept) and len(kept) < len(hits)
    assert [h.chunk_id for h in kept] == [h.chunk_id for h in hits if h.semantic_score >= cut]
    same = ingested.search("parental leave", top_k=10, min_similarity_score=cut)
    assert [h.chunk_id for h in same] == [h.chunk_id for h in kept]
    for bad in (1.5, float("nan")):
        with pytest.raises(QueryError, match="cosine"):
            ingested.search("parental leave", min_similarity_score=bad)


def test_a_query_that_is_not_unicode_text_is_a_query_error(ingested):
    with pytest.raises(QueryError, match="lone surrogate"):
        ingested.search("leave \ud800 policy")


def test_get_section_and_get_definition(ingested):
    chunks = ingested.get_section("master_services_agreement.md", "4.2")
    assert "99.9%" in chunks[0].content
    whole = ingested.get_section("master_services_agreement.md", "1")  # the heading is carried into 1.1's chunk
    assert [c.section_id for c in whole] == ["1.1", "1.2", "1.3", "1.4"]
    assert whole[0].content.startswith("## 1. Definitions")
    defs = ingested.get_definition("force majeure event")
    assert len(defs) == 1 and "beyond a party's reasonable control" in defs[0].definition
    assert defs[0].doc_key == "master_services_agreement.md"
    with pytest.raises(QueryError):
        ingested.get_section("master_services_agreement.md", "99.9")


def test_changed_and_deleted_files_are_processed_alone(project, policies):
    policies.ingest()
    policy = project / "docs" / "leave_policy.html"
    policy.write_text(policy.read_text().replace("twenty-six (26) weeks", "thirty (30) weeks"))
    report = policies.ingest()
    assert (report.updated, report.added, report.unchanged) == (1, 0, 2)
    assert "thirty (30) weeks" in policies.search("parental leave weeks", top_k=1)[0].content
    (project / "docs" / "data_protection_policy.txt").unlink()
    report = policies.ingest()
    assert report.removed == 1
    for mode in ("semantic", "keyword", "exact", "hybrid"):
        assert all(r.source_path != "data_protection_policy.txt"
                   for r in policies.search("Right to Erasure Section 4.2", mode=mode, top_k=20))


def test_bad_files_are_reported_and_skipped_with_exit_code_1(project):
    docs = project / "docs"
    (docs / "empty.md").write_text("")
    (docs / "binary.md").write_bytes(bytes(range(256)) * 40)
    (docs / "corrupt.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\nthis is not a pdf\n")
    os.symlink(docs / "missing-target.md", docs / "dangling.md")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-m", "docstrata.cli", "ingest", "--json"], cwd=project,
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)[0]
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert set(skipped) == {"empty.md", "binary.md", "corrupt.pdf", "dangling.md"}
    assert all(reason and "Traceback" not in reason for reason in skipped.values())
    assert report["added"] == 3  # the good files are indexed
    out = subprocess.run([sys.executable, "-m", "docstrata.cli", "search", "--json", "annual leave days"],
                         cwd=project, capture_output=True, text=True, env=env, check=True)
    assert json.loads(out.stdout)["results"][0]["source_path"] == "leave_policy.html"


def test_in_memory_database_keeps_nothing_on_disk(project):
    cfg = (project / "agent.yaml").read_text() + "    database: in-memory\n"
    (project / "agent.yaml").write_text(cfg)
    tools = docstrata.open(project / "agent.yaml")
    tools["policies"].ingest()
    assert tools["policies"].search("Article about confidentiality obligations")
    assert not (project / ".docstrata").exists()


def test_batch_search_json(ingested):
    project = ingested.base_dir
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    (project / "q.jsonl").write_text('{"query_id": "a", "query": "Section 4.2"}\n'
                                     '{"query_id": "b", "query": "sick leave certificate"}\n')
    out = subprocess.run([sys.executable, "-m", "docstrata.cli", "search", "--batch", "q.jsonl", "--json", "-k", "2"],
                         cwd=project, capture_output=True, text=True, env=env, check=True)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert [x["query_id"] for x in lines] == ["a", "b"]
    assert lines[0]["results"][0]["section_id"] == "4.2"
    # the MCP answer's schema: fields at their default (false, null, empty) are left out
    assert set(lines[1]["results"][0]) >= {"id", "chunk_id", "content", "score", "fused_score", "semantic_score",
                                           "source_path", "location", "section_id"}
    assert {"definitions", "confidence"} <= set(lines[1])


def test_a_long_running_reader_sees_another_process_ingest(project, policies):
    """An MCP server keeps its tool open while `docstrata ingest` runs elsewhere."""
    policies.ingest()
    assert policies.search("giraffe-proof warehouse", mode="semantic", top_k=1)[0].section_id != "8.3"
    msa = project / "docs" / "master_services_agreement.md"
    msa.write_text(msa.read_text() + "\n8.3 Provider shall keep a giraffe-proof warehouse for Customer's goods.\n")
    other = docstrata.open(project / "agent.yaml")
    assert other["policies"].ingest().updated == 1
    other.close()
    for mode in ("semantic", "keyword", "hybrid"):
        assert policies.search("giraffe-proof warehouse", mode=mode, top_k=1)[0].section_id == "8.3", mode


def test_get_section_returns_the_whole_section_with_subsections(ingested):
    ids = [c.section_id for c in ingested.get_section("master_services_agreement.md", "4")]
    assert ids == ["4.1", "4.2", "4.3"]
    assert [c.section_id for c in ingested.get_section("master_services_agreement.md", "Section 4.2")] == ["4.2"]
    # the page names the section asked for, not its first chunk's (4.1, which carries heading-only 4)
    for asked in ("4", "Section 4"):
        page = ingested.get_section("master_services_agreement.md", asked)
        assert (page.section_id, page.title, page.location) == (
            "4", "4. Service Levels", "Master Services Agreement > 4. Service Levels")
    page = ingested.get_section("master_services_agreement.md", "4.3")
    assert (page.section_id, page.location) == ("4.3", "Master Services Agreement > 4. Service Levels > 4.3 Service Credits")


def test_a_query_using_a_defined_term_is_not_answered_by_its_definition(ingested):
    top = ingested.search("Customer shall pay all Fees within thirty days", top_k=3)[0]
    assert top.section_id == "3.1"
    assert ingested.search("What does Fees mean?", top_k=1)[0].section_id == "1.4"
