"""COVID FAQ paraphrase retrieval through the vectorstore tool (issue 5).

    python bench/faq_bench.py [--rrf-k K ...]

The FAQ (`faq_covid/faq_covidbert.csv`, 213 English rows with quoted newlines) is ingested as
records (id = line, vector fields question + answer). Each pair of
`eval_question_similarity_en.csv` with similar = 1 is a query: `question_2` is asked, the gold
record is the FAQ row whose question is `question_1`. Prints Recall@1 and Recall@5 per mode.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "structured" / "faq_covid"


def faq_tool_and_queries():
    """(ingested in-memory vectorstore tool, docstrata.eval.QuerySet of the similar pairs)."""
    from docstrata.config import parse_config
    from docstrata.eval import EvalQuery, QuerySet
    from docstrata.tools import build_tool

    work = Path(tempfile.mkdtemp(prefix="docstrata-faq-"))
    cfg = parse_config({"tools": [{"name": "faq", "type": "vectorstore", "source": str(DATA / "faq_covidbert.csv"),
                                   "id_field": "__line__", "vector_field": ["question", "answer"],
                                   "meta_fields": ["question"], "database": "in-memory"}]}, base_dir=work)
    tool = build_tool(cfg.tools[0], work)
    report = tool.ingest()
    by_question: dict[str, set[str]] = {}
    for batch_id in tool.store.documents():
        for c in tool.store.document_chunks(batch_id):
            by_question.setdefault(" ".join(c.metadata["fields"]["question"].split()), set()).add(c.chunk_id)
    with (DATA / "eval_question_similarity_en.csv").open(encoding="utf-8") as f:
        pairs = [r for r in csv.DictReader(f) if r["similar"] == "1"]
    queries = [EvalQuery(str(i), r["question_2"], by_question[" ".join(r["question_1"].split())])
               for i, r in enumerate(pairs) if " ".join(r["question_1"].split()) in by_question]
    print(f"{report.records} FAQ records; {len(pairs)} similar pairs, {len(queries)} whose question_1 is in the FAQ")
    return tool, QuerySet("faq", queries, lambda q, hit: [hit.id] if hit.id in q.gold else [])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rrf-k", type=int, nargs="*", default=[], help="hybrid rows for these rrf_k values too")
    args = ap.parse_args()
    if not DATA.exists():
        sys.exit(f"{DATA} is absent")
    tool, qs = faq_tool_and_queries()
    default_k = tool.cfg.rrf_k
    for mode, k in [("semantic", None), ("keyword", None), ("hybrid", default_k)] + [("hybrid", k) for k in args.rrf_k]:
        tool.cfg.rrf_k = k or default_k
        r1 = r5 = 0
        for q in qs.queries:
            ids = [h.id for h in tool.search(q.text, top_k=5, mode=mode)]
            r1 += bool(set(ids[:1]) & q.gold)
            r5 += bool(set(ids) & q.gold)
        label = f"{mode} k={k}" if k else mode
        print(f"{label:14s} Recall@1 {r1 / len(qs.queries):.3f}  Recall@5 {r5 / len(qs.queries):.3f}")


if __name__ == "__main__":
    main()
