"""Questions that name their document (issue 29 item 3): fit the name-match threshold, and measure search.

    DOCSTRATA_LEGALBENCH=/work/legalbench DOCSTRATA_SHARED_DATA=/work/shared/data \\
        python bench/doc_scope.py fit                # name matching only (no embedding): the threshold
    DOCSTRATA_LEGALBENCH=/work/legalbench DOCSTRATA_SHARED_DATA=/work/shared/data \\
        python bench/doc_scope.py search [--n 100]   # search before / after scoping
    DOCSTRATA_SHARED_DATA=/work/shared/data python bench/doc_scope.py obliqa --n 600   # the cost where few name one

**fit** reads every document's names as ingest does (convert → section tree →
:func:`docstrata.docnames.document_names`; no embedding) and, for each ``MIN_COVERAGE`` in a
grid, runs :func:`docstrata.query_scope.match` on labelled questions, counting those scoped to
their right document(s), to a wrong one, or to none:

* LegalBench-RAG ContractNLI (977) and PrivacyQA (194) questions over their corpora (95 NDAs, 7
  privacy policies); truth = the files of the question's snippets;
* ObliQA dev (2,788 questions over 40 ADGM rulebooks; truth = the rulebooks of its gold passages):
  most name no rulebook, so a scope there is mostly a false one;
* statute citations "section N <short title>" over several real Acts (see ``ACTS``).

The threshold kept is the one with the most right scopes minus ``WRONG_COST`` (3) times the wrong
ones: a wrong scope fills the top-k from one wrong document, a right one gains only where the
unscoped search missed, and a miss leaves the old behaviour.

**search** ingests (once, cached in ``bench/.cache/doc_scope-*``) the ContractNLI and PrivacyQA
corpora and the Acts, and runs a fixed random sample (seed 29) of ``--n`` questions per part,
with query scoping off (``SearchSettings.scope_documents = False``: the old behaviour) and on.
Per part: share of questions whose top-1 is its document's first chunk (and of those, the ones
where that chunk does not hold the answer), document hit@1, top-1 overlapping a truth span (the
chunk located in the source text by its first long line); for the Acts, span@1 = top-1 is the
named Act's section N (or an item of it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

LB = Path(os.environ.get("DOCSTRATA_LEGALBENCH", "/work/legalbench"))
SHARED = Path(os.environ.get("DOCSTRATA_SHARED_DATA", ROOT.parent / "shared" / "data"))
CACHE = ROOT / "bench" / ".cache"

# Real Acts ingested together (each has a section 2 … 12 of its own), with the short title each declares.
ACTS = {
    "ca-bank-of-canada-act-b-2.justice-ca.xml": (ROOT / "bench/realdocs/legislation-xml", "Bank of Canada Act"),
    "ca-pipeda-p-8.6.justice-ca.xml": (ROOT / "bench/realdocs/legislation-xml",
                                       "Personal Information Protection and Electronic Documents Act"),
    "ca-radiation-protection-regulations-sor-2000-203.justice-ca.xml": (ROOT / "bench/realdocs/legislation-xml",
                                                                        "Radiation Protection Regulations"),
    "us-usc-title09-arbitration-113-31.uslm1.xml": (ROOT / "bench/realdocs/legislation-xml", "Title 9"),
    "uslm_COMPS-339_unfunded_mandates_reform_act_1995.xml": (SHARED / "documents/xml",
                                                             "Unfunded Mandates Reform Act of 1995"),
    "uslm_COMPS-9748_consumer_product_safety_improvement_act_2008.xml": (
        SHARED / "documents/xml", "Consumer Product Safety Improvement Act of 2008"),
}
ACT_SECTIONS = range(2, 13)
# What a wrong scope costs against a right one: it fills the whole top-k from one wrong document, while a
# right one gains only where the unscoped search missed (it already had the right document first for most).
WRONG_COST = 3
GRID = [round(0.20 + 0.05 * i, 2) for i in range(17)]


def _names_of(files: dict[str, Path]) -> dict:
    """{"names": doc_key → names, as ingest computes them (convert, section tree, document_names);
    "df": analysed word → documents whose text holds it (what the keyword index gives at query time)}."""
    from docstrata.convert import convert_file
    from docstrata.docnames import document_names
    from docstrata.index.keyword import analyze
    from docstrata.models import FileState, SourceFile
    from docstrata.structure import build_tree

    names, df = {}, {}
    for key, path in files.items():
        st = path.stat()
        doc = convert_file(SourceFile(doc_key=key, path=str(path), state=FileState(st.st_size, st.st_mtime_ns, "")))
        names[key] = document_names(build_tree(doc), key, doc.markdown)
        for w in set(analyze(doc.markdown)):
            df[w] = df.get(w, 0) + 1
    return {"names": names, "df": df}


def _cached_names(label: str, files: dict[str, Path]) -> dict:
    CACHE.mkdir(parents=True, exist_ok=True)
    f = CACHE / f"doc_scope_names-{label}.json"
    if f.exists() and not os.environ.get("DOC_SCOPE_RENAME"):
        return json.loads(f.read_text())
    names = _names_of(files)
    f.write_text(json.dumps(names))
    return names


def _catalogue(data: dict):
    from docstrata.query_scope import Catalogue

    def text_df(key: str) -> int:
        return data["df"].get(key, 0)

    return Catalogue.build(data["names"], text_df)


def _legalbench(part: str) -> tuple[dict[str, Path], list[tuple[str, set[str], list]]]:
    files = {p.name: p for p in sorted((LB / "corpus" / part).glob("*.txt"))}
    tests = json.loads((LB / "benchmarks" / f"{part}.json").read_text())["tests"]
    qs = [(t["query"], {Path(s["file_path"]).name for s in t["snippets"]},
           [(Path(s["file_path"]).name, tuple(s["span"])) for s in t["snippets"]]) for t in tests]
    return files, qs


def _obliqa() -> tuple[dict[str, Path], list[tuple[str, set[str], list]]]:
    d = SHARED / "obliqa"
    dmap = json.loads((d / "document_map.json").read_text())
    files = {v["file"]: d / "StandardizedRegulatoryDocumentsTXT" / v["file"] for v in dmap.values()}
    qs = [(q["Question"], {dmap[str(p["DocumentID"])]["file"] for p in q["Passages"]}, [])
          for q in json.loads((d / "ObliQA_dev.json").read_text())]
    return files, qs


def _acts() -> tuple[dict[str, Path], list[tuple[str, set[str], list]]]:
    files = {k: v[0] / k for k, v in ACTS.items()}
    qs = []
    for key, (_, title) in ACTS.items():
        for n in ACT_SECTIONS:
            qs.append((f"section {n} {title}", {key}, [(key, str(n))]))
            qs.append((f"What does section {n} of the {title} say?", {key}, [(key, str(n))]))
    return files, qs


def fit() -> None:
    from docstrata.query_scope import match

    parts = {}
    for part in ("contractnli", "privacy_qa"):
        files, qs = _legalbench(part)
        parts[part] = (_cached_names(part, files), qs)
    files, qs = _obliqa()
    parts["obliqa"] = (_cached_names("obliqa", files), qs)
    files, qs = _acts()
    parts["acts"] = (_cached_names("acts", files), qs)
    cats = {p: _catalogue(data) for p, (data, _) in parts.items()}
    print(f"{'theta':>6} " + " ".join(f"{p + ' right/wrong/none':>28}" for p in parts) + f" {'objective':>10}")
    best = None
    for theta in GRID:
        row, objective = [], 0
        for p, (_, qs) in parts.items():
            right = wrong = none = 0
            for q, truth, _ in qs:
                s = match(cats[p], q, min_coverage=theta)
                if s is None:
                    none += 1
                elif set(s.doc_keys) <= truth:
                    right += 1
                else:
                    wrong += 1
            row.append(f"{right:>10}/{wrong:>6}/{none:>6}    ")
            objective += right - WRONG_COST * wrong
        print(f"{theta:>6} " + " ".join(row) + f" {objective:>10}")
        if best is None or objective > best[1]:
            best = (theta, objective)
    print(f"best MIN_COVERAGE = {best[0]} (objective {best[1]}: right - {WRONG_COST} x wrong, summed over the parts)")


def _tool(label: str, files: dict[str, Path]):
    from docstrata.config import load_config
    from docstrata.tools import Toolset

    work = CACHE / f"doc_scope-{label}"
    docs = work / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for key, path in files.items():
        link = docs / key
        if not link.exists():
            link.symlink_to(path)
    (work / "agent.yaml").write_text("tools:\n  - name: docs\n    type: hierarchical_document\n    source: docs/\n"
                                     "    follow_symlinks: true\n")
    tool = Toolset(load_config(work / "agent.yaml"))["docs"]
    t = time.time()
    report = tool.ingest()
    print(f"[{label}] ingest {time.time() - t:.0f}s: {report.files_total} files, {len(report.skipped)} skipped",
          file=sys.stderr)
    return tool


def _run(tool, qs, scoped: bool, act_mode: bool) -> dict[str, float]:
    import docstrata.search as search_mod

    first = {}
    for key in tool.store.documents():
        chunks = tool.store.document_chunks(key)
        first[key] = chunks[0].chunk_id if chunks else None
    search_mod.SCOPE_DOCUMENTS = scoped
    n = first_chunk = first_miss = doc_hit = span_hit = scoped_n = 0
    for q, truth, spans in qs:
        res = tool.search(q, top_k=5)
        n += 1
        if not res:
            continue
        top = res[0]
        scoped_n += any(x.startswith("scoped to") for x in res.notices)
        is_first = top.chunk_id == first.get(top.source_path)
        first_chunk += is_first
        doc_hit += top.source_path in truth
        if act_mode:
            sid = top.section_id
            hit = top.source_path in truth and any(sid == s or sid.startswith(s + "(") for _, s in spans)
        else:
            lo, hi = _locate(tool, tool.store.get_chunks([top.chunk_id])[0])
            hit = any(f == top.source_path and lo < b and a < hi for f, (a, b) in spans)
        span_hit += hit
        first_miss += is_first and not hit
    search_mod.SCOPE_DOCUMENTS = True
    return {"n": n, "first_chunk": first_chunk / n, "first_chunk_without_answer": first_miss / n,
            "doc_hit@1": doc_hit / n, "span@1": span_hit / n, "scoped": scoped_n / n}


_TEXTS: dict[str, str] = {}


def _locate(tool, chunk) -> tuple[int, int]:
    """The character range of ``chunk`` in its LegalBench source file: where the first of its lines
    (over 20 characters) is found, to that plus the chunk's length (txt files convert line for
    line); (-1, -1) when none is found."""
    key = chunk.doc_key
    if key not in _TEXTS:
        src = next(p for p in (LB / "corpus" / part / key for part in ("contractnli", "privacy_qa")) if p.exists())
        _TEXTS[key] = src.read_text(encoding="utf-8", errors="replace")
    text = _TEXTS[key]
    for line in (ln.strip() for ln in chunk.content.splitlines()):
        at = text.find(line[:80]) if len(line) > 20 else -1
        if at >= 0:
            return at, at + len(chunk.content)
    return -1, -1


def search(n: int) -> None:
    rng = random.Random(29)
    out = {}
    for part in ("contractnli", "privacy_qa"):
        files, qs = _legalbench(part)
        tool = _tool(part, files)
        sample = rng.sample(qs, min(n, len(qs)))
        out[part] = {"before": _run(tool, sample, False, False), "after": _run(tool, sample, True, False)}
        print(part, json.dumps(out[part]), flush=True)
    files, qs = _acts()
    tool = _tool("acts", files)
    out["acts"] = {"before": _run(tool, qs, False, True), "after": _run(tool, qs, True, True)}
    print("acts", json.dumps(out["acts"]), flush=True)


def obliqa(limit: int) -> None:
    """ObliQA dev over the 40 rulebooks as documents (``retrieval_bench.py obliqa-docs``'s tool and
    index, ``bench/.cache/obliqa-docs``), the first ``limit`` questions, scoping off and on: what
    naming a document costs where questions mostly name none."""
    import retrieval_bench as rb
    from docstrata.config import parse_config
    from docstrata.eval import evaluate, format_table, load_query_set
    from docstrata.tools import build_tool
    import docstrata.search as search_mod

    base = CACHE / "obliqa-docs"
    base.mkdir(parents=True, exist_ok=True)
    tool_cfg, queries, qrels = rb._tool_config("obliqa-docs", base)
    tool = build_tool(parse_config({"tools": [tool_cfg]}, base_dir=base).tools[0], base)
    tool.ingest(force=True)  # an index from before document names: every entry gets its names
    qs = load_query_set(queries, qrels, limit)
    for scoped in (False, True):
        search_mod.SCOPE_DOCUMENTS = scoped
        print(f"scoping {'on' if scoped else 'off'}, {len(qs.queries)} questions", flush=True)
        print(format_table(evaluate(tool, qs, ["hybrid"])), flush=True)
    search_mod.SCOPE_DOCUMENTS = True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["fit", "search", "obliqa"])
    ap.add_argument("--n", type=int, default=100, help="search: questions sampled per LegalBench part; "
                                                       "obliqa: the first N dev questions")
    args = ap.parse_args()
    {"fit": fit, "search": lambda: search(args.n), "obliqa": lambda: obliqa(args.n)}[args.what]()


if __name__ == "__main__":
    main()
