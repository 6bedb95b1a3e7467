"""CLI time to first result on an existing index, against the batch path (issue 15, item 6).

Copies examples/ to a temporary folder, indexes it once, then times (wall clock, median of
``--repeat`` runs, each a fresh process as a user's shell would start it):

* ``docstrata --help`` (start-up: Python, typer, rich);
* ``docstrata search --mode keyword QUERY`` and ``--mode exact`` (no model: the lazy path);
* ``docstrata search QUERY`` (hybrid: loads the embedding model for the query);
* ``docstrata search --batch - --json`` with ``--queries`` queries on stdin: the time to its
  first output line and the time per query after it (the model is loaded once);
* the same query through the Python API with the model already loaded (the floor).

    python bench/cli_latency.py [--repeat 3] [--queries 20]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUERY = "How much credit do we get if availability falls below 99.9%?"
QUERIES = [QUERY, "Section 4.2", "sick leave certificate", "carry-over of annual leave", "data retention period",
           "force majeure", "who owns the intellectual property", "termination for convenience notice",
           "parental leave weeks", "personal data breach notification"]
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


def cli(*args: str, cwd: Path, stdin: str | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "docstrata.cli", *args], cwd=cwd, env=ENV, input=stdin, text=True,
                   check=True, capture_output=True)
    return time.perf_counter() - t0


def batch(cwd: Path, n: int) -> tuple[float, float, float]:
    """(seconds to the first result line, seconds per query after it, total seconds)."""
    lines = "".join(json.dumps({"query_id": str(i), "query": QUERIES[i % len(QUERIES)]}) + "\n" for i in range(n))
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "docstrata.cli", "search", "--batch", "-", "--json"], cwd=cwd,
                            env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, bufsize=1)
    proc.stdin.write(lines)
    proc.stdin.close()
    first = None
    for _ in proc.stdout:
        if first is None:
            first = time.perf_counter() - t0
    proc.wait()
    total = time.perf_counter() - t0
    return first, (total - first) / max(n - 1, 1), total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--queries", type=int, default=20)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proj = Path(tmp) / "examples"
        shutil.copytree(ROOT / "examples", proj, ignore=shutil.ignore_patterns(".docstrata", "holodeck"))
        cli("ingest", cwd=proj)
        rows = []
        for label, args in [("docstrata --help", ["--help"]),
                            ("search --mode keyword", ["search", "--mode", "keyword", QUERY]),
                            ("search --mode exact", ["search", "--mode", "exact", "Section 4.3"]),
                            ("search (hybrid)", ["search", QUERY])]:
            times = [cli(*args, cwd=proj) for _ in range(a.repeat)]
            rows.append((label, statistics.median(times)))
        runs = [batch(proj, a.queries) for _ in range(a.repeat)]
        first = statistics.median(r[0] for r in runs)
        per = statistics.median(r[1] for r in runs)
        total = statistics.median(r[2] for r in runs)

        sys.path.insert(0, str(ROOT / "src"))
        import docstrata

        tools = docstrata.open(proj / "agent.yaml")
        t = tools["policies"]
        t.search(QUERY)  # opens the index, loads the model
        api = []
        for _ in range(20):
            t0 = time.perf_counter()
            t.search(QUERY)
            api.append(time.perf_counter() - t0)
        tools.close()
    print(f"CLI time to first result on an existing index (examples/, {a.repeat} runs, median, wall clock; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print("| path | seconds |")
    print("|---|---|")
    for label, s in rows:
        print(f"| {label} | {s:.2f} |")
    print(f"| search --batch, first of {a.queries} results | {first:.2f} |")
    print(f"| search --batch, each later result | {per * 1000:.1f} ms |")
    print(f"| search --batch, all {a.queries} | {total:.2f} |")
    print(f"| Python API, warm (model loaded), p50 | {statistics.median(api) * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
