"""The playground's search path against the API's, on a 100,000-chunk index (issue 19, item 5).

Synthetic corpus of bench/store_bench.py (random 384-d vectors, Zipf-like 60-word texts) in the
embedded store. The query embedding is a fixed random unit vector on every path (the model is
the same cost everywhere and would only add noise). Measured, p50 / p95 over the same queries:

* ``api``:   ``HierarchicalDocumentTool.search(query)`` — hybrid, top 10;
* ``view``:  ``docstrata.ui.api.search_view`` — the same call plus what the page shows (pinned
  lookup, highlights, cross-references, per-modality contributions);
* ``http``:  ``POST /api/search`` to the playground server on 127.0.0.1 (JSON both ways).

    python bench/ui_latency.py [--chunks 100000] [--queries 100]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from store_bench import DIM, fill, queries, synthetic  # noqa: E402


def percentiles(fn, items) -> tuple[float, float]:
    times = []
    for x in items:
        t0 = time.perf_counter()
        fn(x)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), statistics.quantiles(times, n=20)[18]


def build_tool(workdir: Path, n: int, n_queries: int = 100):
    """A document tool over an embedded store filled with ``n`` synthetic chunks, and its query texts."""
    from docstrata.config import HierarchicalDocumentToolConfig
    from docstrata.store.embedded import EmbeddedStore
    from docstrata.tools import HierarchicalDocumentTool

    texts, vecs, vocab = synthetic(n)
    root = workdir / "store"
    store = EmbeddedStore(root, dim=DIM)
    build_s = fill(store, texts, vecs)
    cfg = HierarchicalDocumentToolConfig(name="bench", type="hierarchical_document", source=str(workdir))
    tool = HierarchicalDocumentTool(cfg, workdir)
    tool._store, tool._ready = store, True  # the synthetic index as it is: no ingest of `source`
    qv, qt = queries(vocab, n_queries)
    tool.embed_query = lambda _q, _v=qv[0]: _v
    return tool, qt, build_s


def measure(n: int = 100_000, n_queries: int = 100) -> dict:
    """p50 / p95 in ms of the three paths (see the module docstring), and the build time."""
    import docstrata.ui.api as api
    from docstrata.ui.server import serve_in_thread

    with tempfile.TemporaryDirectory() as tmp:
        tool, qt, build_s = build_tool(Path(tmp), n, n_queries)

        class _Toolset(list):
            def __getitem__(self, name):
                return next(t for t in self if t.name == name) if isinstance(name, str) else list.__getitem__(self, name)

        server, _ = serve_in_thread(_Toolset([tool]))
        conn = http.client.HTTPConnection(*server.server_address[:2])  # one kept-alive connection, as a browser

        def http_search(q: str) -> None:
            conn.request("POST", "/api/search", body=json.dumps({"tool": "bench", "query": q}),
                         headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            assert len(json.loads(r.read())["results"]) == 10

        qs = qt[:n_queries]
        for q in qs[:5]:  # warm the caches of every path
            tool.search(q), api.search_view(tool, q), http_search(q)
        out = {"chunks": n, "queries": len(qs), "build_s": build_s}
        # interleaved rounds so a load spike on the shared machine hits every path alike
        rounds = {"api": [], "view": [], "http": []}
        for _ in range(3):
            rounds["api"].append(percentiles(lambda q: tool.search(q), qs))
            rounds["view"].append(percentiles(lambda q: api.search_view(tool, q), qs))
            rounds["http"].append(percentiles(http_search, qs))
        for k, v in rounds.items():
            out[k] = (statistics.median(p[0] for p in v), statistics.median(p[1] for p in v))
        conn.close()
        server.shutdown()
        server.server_close()
        tool.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=100)
    a = ap.parse_args()
    r = measure(a.chunks, a.queries)
    print(f"playground search path at {r['chunks']} chunks, {r['queries']} queries x 3 rounds, hybrid top 10 "
          f"(index built in {r['build_s']:.0f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print("| path | p50 ms | p95 ms |")
    print("|---|---|---|")
    for k, label in (("api", "tool.search (API)"), ("view", "ui.api.search_view (what the page shows)"),
                     ("http", "POST /api/search (the page's request)")):
        print(f"| {label} | {r[k][0]:.2f} | {r[k][1]:.2f} |")
    print(f"| added by the page (http - api, p50) | {r['http'][0] - r['api'][0]:.2f} | |")


if __name__ == "__main__":
    main()
