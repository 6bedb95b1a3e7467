"""Ingest throughput and search latency on ../shared/data/documents (issue 2).

    python bench/ingest_bench.py [--source DIR] [--queries 100] [--ingest-only]

``--ingest-only`` stops after the two ingests (no embedding-alone run, no search): the form used
to time this tree against an older commit's ``src`` in the same run (issue 18), e.g.
``PYTHONPATH=/tmp/old/src python bench/ingest_bench.py --ingest-only`` then this tree's.

Prints:
* first ingest: MB/s (bytes of the supported files) and chunks/s, and the time the same
  chunks take to embed with sentence-transformers alone (the floor any ingest pays), as a ratio;
* second ingest over the unchanged corpus: seconds and its share of the first run;
* hybrid search latency p50 / p95 over N queries, query embedding shown apart, against a peer
  in the same run: rank_bm25 + numpy cosine + RRF in Python over the same chunks and vectors
  (HoloDeck's approach), reported as a ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "documents"

QUERY_TEMPLATES = [
    "Section 4.2.1", "Article 17", "What is the right to erasure?", "Section 8 of Article I",
    "key share extension", "How long must personal data breaches be reported?", "Article 4",
    "definition of personal data", "supported_groups", "Section 2 of the Apache license",
    "What does the Customer owe if they terminate early?", "§ 4.2", "cipher suites in TLS 1.2",
    "audit committee independence requirements", "Conduct rules for senior managers",
    "Who can declare war?", "amendment ratification process", "warranty disclaimer",
    "conveying modified source versions", "HelloRetryRequest", "processor obligations",
    "What is a Derivative Work?", "data subject access request timeline", "USLM element hierarchy",
    "table of contents structure", "PSK binder computation",
]


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--ingest-only", action="store_true", help="time the first and second ingest only")
    args = ap.parse_args()
    if not args.source.exists():
        sys.exit(f"{args.source} is absent")

    import numpy as np

    from docstrata.config import parse_config
    from docstrata.convert import SUPPORTED_EXTENSIONS
    from docstrata.embed import Embedder
    from docstrata.tools import build_tool

    work = Path(tempfile.mkdtemp(prefix="docstrata-bench-"))
    cfg = parse_config({"tools": [{"name": "docs", "type": "hierarchical_document", "source": str(args.source)}]},
                       base_dir=work).tools[0]
    nbytes = sum(p.stat().st_size for p in args.source.rglob("*")
                 if p.is_file() and p.suffix.lower().lstrip(".") in SUPPORTED_EXTENSIONS)
    embedder = Embedder()  # loaded before timing: model load is not ingest work
    tool = build_tool(cfg, work)
    tool._embedder = embedder
    t = time.perf_counter()
    first = tool.ingest()
    t_first = time.perf_counter() - t
    print(f"first ingest: {first.added} files, {nbytes / 1e6:.2f} MB, {first.chunks} chunks, {t_first:.1f} s "
          f"-> {nbytes / 1e6 / t_first:.3f} MB/s, {first.chunks / t_first:.1f} chunks/s; skipped {len(first.skipped)}")

    import docstrata

    print(f"docstrata from {Path(docstrata.__file__).parent}; embedder {getattr(embedder, 'backend', 'torch')}; "
          f"load average {os.getloadavg()[0]:.1f}")
    if args.ingest_only:
        t = time.perf_counter()
        second = tool.ingest()
        print(f"second ingest (unchanged): {time.perf_counter() - t:.3f} s ({second.unchanged} unchanged)")
        tool.close()
        return
    chunks = [c for d in tool.store.documents() for c in tool.store.document_chunks(d)]
    t = time.perf_counter()
    embedder.embed_chunks([(c.context, c.content) for c in chunks])
    t_embed = time.perf_counter() - t
    print(f"embedding the same chunks alone: {t_embed:.1f} s; ingest / embedding = {t_first / t_embed:.2f}x")

    t = time.perf_counter()
    second = tool.ingest()
    t_second = time.perf_counter() - t
    print(f"second ingest (unchanged): {t_second:.3f} s = {100 * t_second / t_first:.2f}% of the first "
          f"({second.unchanged} unchanged, {second.embedded} embedded)")

    from docstrata.search import SearchTiming

    queries = [QUERY_TEMPLATES[i % len(QUERY_TEMPLATES)] + ("" if i < len(QUERY_TEMPLATES) else f" {i}")
               for i in range(args.queries)]
    tool.search("warm up", top_k=10)
    ours, embed_ms = [], []
    for q in queries:
        timing = SearchTiming()
        t = time.perf_counter()
        tool.search(q, top_k=10, timing=timing)
        ours.append((time.perf_counter() - t) * 1000 - timing.embed_s * 1000)
        embed_ms.append(timing.embed_s * 1000)

    from rank_bm25 import BM25Okapi

    texts = [c.contextualized_content for c in chunks]
    bm25 = BM25Okapi([x.lower().split() for x in texts])
    matrix = np.stack([v.mean(axis=0) for v in embedder.embed_chunks([(c.context, c.content) for c in chunks])])
    peer = []
    for q in queries:
        qv = embedder.embed_query(q)
        t = time.perf_counter()
        kw = np.argsort(-bm25.get_scores(q.lower().split()))[:100]
        dn = np.argsort(-(matrix @ qv))[:100]
        fused: dict[int, float] = {}
        for w, ranking in ((0.5, dn), (0.3, kw)):
            for r, i in enumerate(ranking, 1):
                fused[int(i)] = fused.get(int(i), 0.0) + w / (60 + r)
        sorted(fused.items(), key=lambda x: -x[1])[:10]
        peer.append((time.perf_counter() - t) * 1000)
    p50, p95 = percentile(ours, 50), percentile(ours, 95)
    q50, q95 = percentile(peer, 50), percentile(peer, 95)
    print(f"hybrid search over {len(chunks)} chunks, {len(queries)} queries (excluding query embedding, "
          f"p50 {statistics.median(embed_ms):.1f} ms): docstrata p50 {p50:.2f} ms / p95 {p95:.2f} ms (incl. "
          f"exact lookup, definitions and citations); peer rank_bm25+numpy p50 {q50:.2f} ms / p95 {q95:.2f} ms; "
          f"peer / docstrata = {q50 / p50:.1f}x at p50")
    tool.close()


if __name__ == "__main__":
    main()
