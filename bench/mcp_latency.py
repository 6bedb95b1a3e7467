"""Tool-call latency of the MCP server over stdio (issue 7): p50 / p95 of a hybrid search.

    HF_HUB_OFFLINE=1 /work/venv/bin/python bench/mcp_latency.py [--calls 100] [--top-k 10]

Corpus: the Markdown documents under 100 KB of ../shared/data/documents/md (US Constitution, Common
Paper agreements, USLM guides; GDPR is left out to keep the ingest short); without the shared data,
a synthetic corpus of numbered sections. The server is
spawned with `python -m docstrata.cli serve` and driven with the mcp SDK's client; the index is
embedded (SQLite + tantivy) in a temporary folder. Printed: time until tools/list answers, the
first call (ingest included), then p50/p95/mean of ``--calls`` sequential `<tool>_search` calls
(client wall time per call, query embedding included), and — for the overhead of the protocol —
the same searches run in process through ``HierarchicalDocumentTool.search``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
SHARED_MD = REPO.parent / "shared" / "data" / "documents" / "md"

QUERIES = [
    "right to erasure", "Article 17", "What is personal data?", "processing of special categories",
    "data protection officer tasks", "Section 8 of Article I", "powers of the President", "impeachment",
    "term of the agreement and termination", "confidential information exclusions", "limitation of liability",
    "\"supervisory authority\"", "transfers to third countries", "subprocessor obligations", "Amendment XIV",
    "notification of a personal data breach", "who can declare war", "governing law", "payment terms fees",
    "consent of the data subject",
]


def make_corpus(root: Path) -> str:
    docs = root / "docs"
    docs.mkdir(parents=True)
    if SHARED_MD.is_dir():
        files = [f for f in sorted(SHARED_MD.glob("*.md")) if f.stat().st_size < 100_000]
        for f in files:
            shutil.copy(f, docs / f.name)
        return f"{SHARED_MD}: {len(files)} files, {sum(f.stat().st_size for f in files) // 1024} KB"
    for d in range(5):
        parts = [f"# Synthetic document {d}"]
        for s in range(1, 41):
            parts.append(f"## {s}. Topic {d}-{s}\n\nThis section explains rule {s} of document {d}: "
                         f"records, retention, access and erasure duties number {s * d}.")
        (docs / f"doc{d}.md").write_text("\n\n".join(parts), encoding="utf-8")
    return "synthetic (5 files x 40 sections)"


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def summary(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (f"{name:<28} n={len(ms):<4} p50={percentile(ms, 0.5):7.1f} ms  p95={percentile(ms, 0.95):7.1f} ms  "
            f"mean={statistics.mean(ms):7.1f} ms")


async def drive_server(config: Path, calls: int, top_k: int) -> dict:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    params = StdioServerParameters(command=sys.executable, args=["-m", "docstrata.cli", "serve", "-c", str(config)],
                                   env=env, cwd=str(config.parent))
    out: dict = {}
    t0 = time.perf_counter()
    with open(config.parent / "server.stderr", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=900) as session:
                await session.initialize()
                tools = await session.list_tools()
                out["list_s"] = time.perf_counter() - t0
                out["tools"] = [t.name for t in tools.tools]
                t = time.perf_counter()
                first = await session.call_tool("corpus_search", {"query": "warm-up", "top_k": top_k})
                out["first_s"] = time.perf_counter() - t
                assert not first.is_error, first.content
                latencies = []
                for i in range(calls):
                    q = QUERIES[i % len(QUERIES)]
                    t = time.perf_counter()
                    r = await session.call_tool("corpus_search", {"query": q, "top_k": top_k, "mode": "hybrid"})
                    latencies.append(time.perf_counter() - t)
                    assert not r.is_error, r.content
                out["latencies"] = latencies
    return out


def in_process(config: Path, calls: int, top_k: int) -> list[float]:
    """The same searches through the Python API. As in the server, the index is opened on one thread
    and searched on another: on a busy 2-core machine the thread that first ran torch keeps a 2-thread
    intra-op pool, which makes its small query embeddings many times slower (see the report)."""
    from concurrent.futures import ThreadPoolExecutor

    import docstrata

    with docstrata.open(config) as tools:
        tool = tools["corpus"]
        tool.ensure_ready()
        tool.search("warm-up", top_k=top_k)

        def searches() -> list[float]:
            latencies = []
            for i in range(calls):
                t = time.perf_counter()
                tool.search(QUERIES[i % len(QUERIES)], top_k=top_k, mode="hybrid")
                latencies.append(time.perf_counter() - t)
            return latencies

        with ThreadPoolExecutor(1) as pool:
            return pool.submit(searches).result()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--top-k", type=int, default=10)
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="mcp_latency_") as tmp:
        root = Path(tmp)
        corpus = make_corpus(root)
        config = root / "agent.yaml"
        config.write_text("tools:\n  - name: corpus\n    type: hierarchical_document\n    source: docs/\n",
                          encoding="utf-8")
        print(f"corpus: {corpus}; embedded index; {args.calls} sequential hybrid searches, top_k={args.top_k}")
        res = anyio.run(drive_server, config, args.calls, args.top_k)
        print(f"server start -> tools/list answered: {res['list_s']:.2f} s  ({len(res['tools'])} tools)")
        print(f"first call (opens/ingests the index, loads the model): {res['first_s']:.2f} s")
        print(summary("MCP stdio tool call", res["latencies"]))
        direct = in_process(config, args.calls, args.top_k)
        print(summary("in-process tool.search", direct))
        overhead = percentile(res["latencies"], 0.5) - percentile(direct, 0.5)
        print(f"protocol + serialisation overhead at p50: {overhead * 1000:.1f} ms "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: figures are noisy when busy)")


if __name__ == "__main__":
    main()
