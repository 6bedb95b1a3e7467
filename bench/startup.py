"""Start-up costs (issue 18): ``import docstrata``, ``docstrata --help``, a CLI ``docstrata search``
on an existing index (fresh process, wall time to the printed result), and an MCP server's start
to its first search answer on that index.

    python bench/startup.py [--runs 3] [--backend auto|torch|openvino]

The corpus is the two licence texts of ../shared/data/documents/txt (Apache-2.0, GPL-3.0), copied
to a temporary folder and ingested once, untimed. Each figure is the median of ``--runs`` fresh
processes; the machine load is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("DOCSTRATA_DATA", ROOT.parent / "shared" / "data"))
ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")


def timed(cmd: list[str], cwd: Path) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=ENV, check=True, capture_output=True)
    return time.perf_counter() - t


async def mcp_first_answer(config: Path) -> float:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "docstrata.cli", "serve", "-c", str(config)],
                                   env=ENV, cwd=str(config.parent))
    t0 = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                r = await session.call_tool("licenses_search", {"query": "patent license termination", "top_k": 5})
                assert not r.is_error, r.content
                return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--backend", default="auto")
    args = ap.parse_args()
    src = DATA / "documents" / "txt"
    if not src.is_dir():
        sys.exit(f"{src} is absent: the shared documents are needed")
    root = Path(tempfile.mkdtemp(prefix="startup-"))
    try:
        (root / "docs").mkdir()
        for name in ("license_apache-2.0.txt", "license_gpl-3.0.txt"):
            shutil.copy(src / name, root / "docs" / name)
        config = root / "agent.yaml"
        config.write_text("tools:\n  - name: licenses\n    type: hierarchical_document\n    description: licences\n"
                          f"    source: docs/\n    embedding_backend: {args.backend}\n", encoding="utf-8")
        py = [sys.executable, "-m", "docstrata.cli"]
        subprocess.run(py + ["ingest", "-c", str(config)], cwd=root, env=ENV, check=True, capture_output=True)
        load0 = os.getloadavg()
        rows = {
            "import docstrata": [timed([sys.executable, "-c", "import docstrata"], root) for _ in range(args.runs)],
            "docstrata --help": [timed(py + ["--help"], root) for _ in range(args.runs)],
            "docstrata search (existing index)": [
                timed(py + ["search", "-c", str(config), "patent license termination"], root) for _ in range(args.runs)],
            "MCP serve → first search answer": [asyncio.run(mcp_first_answer(config)) for _ in range(args.runs)],
        }
        print(f"load avg before {'/'.join(f'{x:.2f}' for x in load0)}, after "
              f"{'/'.join(f'{x:.2f}' for x in os.getloadavg())}; embedding_backend {args.backend}")
        print("| step | median s | runs |")
        print("|---|---|---|")
        for name, values in rows.items():
            print(f"| {name} | {statistics.median(values):.2f} | {', '.join(f'{v:.2f}' for v in values)} |")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
