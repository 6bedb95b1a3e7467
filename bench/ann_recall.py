"""Recall@10 and latency of the FAISS dense leg (``database: faiss``) against exact search.

    python bench/ann_recall.py [--n 100000] [--queries 200] [--dim 384]

Two vector sets: (1) SciFact's real all-MiniLM-L6-v2 vectors, read from the embedded index the
retrieval benchmark builds (bench/.cache/scifact, skipped when absent), queried with its test
queries; (2) ``--n`` synthetic vectors (a mixture of 1,000 Gaussian clusters on the unit sphere,
like embeddings of a large corpus), queried with held-out points of the same mixture. Prints, per
index type, build seconds, p50 search ms and recall@10 of the top-10 chunk ids against
``IndexFlatIP``.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import time
from pathlib import Path

import numpy as np

from docstrata.index.ann import FaissDenseIndex

ROOT = Path(__file__).resolve().parents[1]


def _measure(ids, mat, queries, kinds=("flat", "hnsw", "ivf")) -> dict:
    out, truth = {}, None
    for kind in kinds:
        index = FaissDenseIndex(mat.shape[1], kind)
        t0 = time.perf_counter()
        index.load(ids, mat)
        index.search(queries[0], 10)  # builds the FAISS index
        build = time.perf_counter() - t0
        times, tops = [], []
        for q in queries:
            t = time.perf_counter()
            tops.append([c for c, _ in index.search(q, 10)])
            times.append((time.perf_counter() - t) * 1000)
        if truth is None:
            truth = tops
        recall = float(np.mean([len(set(a) & set(b)) / max(1, len(b)) for a, b in zip(tops, truth)]))
        out[kind] = {"build_s": round(build, 2), "p50_ms": round(statistics.median(times), 2),
                     "recall@10": round(recall, 4), "kind_used": index._index_kind}
    return out


def scifact(n_queries: int) -> dict | None:
    db = ROOT / "bench" / ".cache" / "scifact" / ".docstrata" / "scifact" / "index.sqlite"
    if not db.exists():
        return None
    con = sqlite3.connect(db)
    rows = con.execute("SELECT chunk_id, vec FROM vectors ORDER BY chunk_id, window").fetchall()
    if rows:  # an index from before the vector file became the record
        ids = [r[0] for r in rows]
        mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    else:  # the vectors are in vectors-<generation>.npy: one row per window, ids repeated per window
        from docstrata.store.embedded import EmbeddedStore

        store = EmbeddedStore(db.parent, dim=384)
        slot_ids, owner, mat = store._dense_index().arrays()
        ids = [slot_ids[o] for o in owner]
        store.close()
    from docstrata.embed import Embedder

    import os
    data = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or ROOT.parent / "shared" / "data")
    qs = [json.loads(line)["text"] for line in (data / "scifact" / "queries.jsonl").open()][:n_queries]
    queries = Embedder().encode(qs)
    return {"n": len(ids), "queries": len(qs), **_measure(ids, mat, queries)}


def synthetic(n: int, dim: int, n_queries: int) -> dict:
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((1000, dim)).astype(np.float32)
    labels = rng.integers(0, 1000, n + n_queries)
    pts = centres[labels] + 0.6 * rng.standard_normal((n + n_queries, dim)).astype(np.float32)
    pts /= np.linalg.norm(pts, axis=1, keepdims=True)
    ids = [f"c{i:07d}" for i in range(n)]
    return {"n": n, "queries": n_queries, **_measure(ids, pts[:n], pts[n:])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--dim", type=int, default=384)
    args = ap.parse_args()
    results = {"scifact": scifact(args.queries), "synthetic": synthetic(args.n, args.dim, args.queries)}
    for name, r in results.items():
        if r is None:
            print(f"{name}: skipped (run bench/retrieval_bench.py scifact first)")
            continue
        print(f"\n{name}: {r['n']} vectors, {r['queries']} queries")
        print("| index | build s | p50 ms | recall@10 vs flat |\n|---|---|---|---|")
        for kind in ("flat", "hnsw", "ivf"):
            m = r[kind]
            print(f"| {kind} | {m['build_s']} | {m['p50_ms']} | {m['recall@10']} |")


if __name__ == "__main__":
    main()
