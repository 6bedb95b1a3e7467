"""Where a hybrid query's time goes, over an index kept by ``bench/peers.py --docstrata-index DIR``
(issue 18, deliverable 2).

    python bench/peers.py --scale 100000 --systems docstrata --docstrata-index /tmp/idx100k   # build once
    python bench/query_profile.py --scale 100000 --index /tmp/idx100k

Prints, for the harness's synthetic queries (precomputed vectors, so no query is embedded): the
median CPU and wall ms of each part of ``run_search`` timed on its own (query analysis, exact leg,
BM25 leg, dense leg, weighted RRF, cosine of the returned hits, SQLite hydration), then the whole
hybrid search with the semantic leg on its worker thread, with every leg on the calling thread, and
as ``run_search`` chooses by the machine's load, interleaved query by query so all see the same load; and the int8 prefilter's figures
(certified error bound ``eps``, rows rescored per query). CPU is the process's CPU time (every
thread): on a loaded machine wall time is mostly waiting for a core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=100_000, help="synthetic chunk count of the kept index")
    ap.add_argument("--index", required=True, help="folder given to bench/peers.py --docstrata-index")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "docstrata-peers"))
    args = ap.parse_args()

    from docstrata import search as S
    from docstrata.fusion import weighted_rrf

    ids, _texts, _X, qt, Q = peers.synthetic(Path(args.cache), args.scale, args.queries)
    d = peers.Docstrata(Path(args.index))
    d.ids = ids
    t, c = time.perf_counter(), time.process_time()
    d.open()
    d.search(qt[0], Q[0])
    print(f"open + first answer: {time.perf_counter() - t:.2f} s wall, {time.process_time() - c:.2f} s CPU")
    st = d.store
    for i in range(min(10, len(qt))):
        d.search(qt[i], Q[i])
    nq = len(qt)
    settings = S.SearchSettings()
    weights = {"semantic": settings.semantic_weight, "keyword": settings.keyword_weight,
               "exact": settings.exact_weight}
    rankings, fused = [], []
    for i in range(nq):
        qa = S.analyze_query(qt[i])
        r = {"exact": S.exact_ranking(st, qa, 100)[0], "keyword": st.keyword_search(qt[i], 100),
             "semantic": st.dense_search(Q[i], 100)}
        rankings.append(r)
        fused.append(weighted_rrf(r, weights, k=settings.rrf_k)[:10])

    def timed(fn) -> tuple[float, float]:
        cpu, wall = [], []
        for i in range(nq):
            t0, c0 = time.perf_counter(), time.process_time()
            fn(i)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        return float(np.median(cpu) * 1000), float(np.median(wall) * 1000)

    def missing_cosines(i):
        cos = dict(rankings[i]["semantic"])
        return S.similarities(st, Q[i], [h.chunk_id for h in fused[i] if h.chunk_id not in cos])

    parts = [("query analysis", lambda i: S.analyze_query(qt[i])),
             ("exact leg", lambda i: S.exact_ranking(st, S.analyze_query(qt[i]), 100)),
             ("BM25 leg (tantivy)", lambda i: st.keyword_search(qt[i], 100)),
             ("dense leg", lambda i: st.dense_search(Q[i], 100)),
             ("weighted RRF", lambda i: weighted_rrf(rankings[i], weights, k=settings.rrf_k)),
             ("cosine of returned hits", missing_cosines),
             ("SQLite hydration of 10 hits", lambda i: st.get_chunks([h.chunk_id for h in fused[i]]))]
    print(f"load average {os.getloadavg()[0]:.2f}; {nq} queries; median ms per query")
    print("| part | CPU ms | wall ms |\n|---|---|---|")
    for name, fn in parts:
        cpu, wall = timed(fn)
        print(f"| {name} | {cpu:.3f} | {wall:.3f} |")

    core_free = S._core_free
    both = {"on the worker thread": ([], [], lambda: True), "on the calling thread": ([], [], lambda: False),
            "as chosen by the load (search._core_free)": ([], [], core_free)}
    try:
        for _rep in range(2):
            for i in range(nq):
                for wall, cpu, rule in both.values():
                    S._core_free = rule
                    t0, c0 = time.perf_counter(), time.process_time()
                    d.search(qt[i], Q[i])
                    wall.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
    finally:
        S._core_free = core_free
    for mode, (wall, cpu, _) in both.items():
        print(f"| hybrid, semantic leg {mode} | {np.median(cpu) * 1000:.3f} | {np.median(wall) * 1000:.3f} "
              f"(p95 {np.percentile(wall, 95) * 1000:.2f}) |")

    di = st._dense_index()
    if di._pre is not None:
        eps = [di._pre.scan(Q[i], 1)[2] for i in range(nq)]
        print(f"int8 prefilter: eps median {np.median(eps):.4f}; scan depth / m after the last query "
              f"{di._depth_ratio:.2f} (m = 100 rows for the 100-candidate leg)")
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
