"""Benchmark: resident memory of a whole vectorstore records ingest against the rows ingested
(issue 18: a 1M-row CSV ingest stays bounded by the batch, not the file).

Usage::

    python bench/records_memory.py                         # 1,000,000 rows, batches of 10,000
    python bench/records_memory.py --rows 200000 --batch-size 5000

Writes the product-catalogue CSV of ``bench/records_bench.py`` to a temporary folder under
``$TMPDIR`` (never the repository), its titles and descriptions drawn from ``--distinct-texts``
texts while ids, SKUs, prices and stock flags stay per row. The records path embeds each record's
text through the tool's embedding cache (keyed by the text's sha256), so the bundled model embeds
only those distinct texts and every other row gets its vector from the cache: each of the rows
still goes through reading, mapping, the duplicate-id check, the cache look-up, the SQLite rows,
the pending vectors, tantivy and the final vector file, in hours less than embedding 1M texts.
(There is no precomputed-vector column in the vectorstore tool: ``vector_field`` names the text
fields that are embedded.)

The ingest runs in a child process; after every stored batch it samples ``/proc/self/status``:
VmRSS, RssAnon (the process's own heap: Python objects, tantivy's writer, SQLite caches) and
RssFile (mapped file pages: shared libraries, the model, the memory-mapped vector file). Printed:
a table of rows → MB and CPU seconds, then the growth of RssAnon over the second half of the file
in bytes per row (a cost that grows with the file shows here; 0 means bounded), the peak RSS, and
one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records_bench import catalogue_tool, generate


def status_mb() -> dict[str, float]:
    """VmRSS, RssAnon, RssFile and VmHWM (peak) of this process, MB."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key = line.split(":", 1)[0]
        if key in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
            out[key] = round(int(line.split()[1]) / 1024, 1)
    return out


def ingest(path: Path, batch_size: int, work: Path) -> dict:
    """Child process: ingest ``path`` into an embedded index under ``work``, sampling memory per batch."""
    tool = catalogue_tool(path, work, batch_size)
    store = tool.store
    samples: list[dict] = []
    rows = [0]
    t0, c0 = time.perf_counter(), time.process_time()
    upsert = store.upsert_chunks

    def sampled_upsert(doc_key, chunks):  # instrumentation only: the store's own method does the work
        upsert(doc_key, chunks)
        rows[0] += len(chunks)
        samples.append({"rows": rows[0], "s": round(time.perf_counter() - t0, 1),
                        "cpu_s": round(time.process_time() - c0, 1), **status_mb()})

    store.upsert_chunks = sampled_upsert
    baseline = status_mb()  # the model loaded, nothing ingested
    report = tool.ingest()
    end = {"rows": rows[0], "s": round(time.perf_counter() - t0, 1), "cpu_s": round(time.process_time() - c0, 1),
           **status_mb()}
    disk = sum(f.stat().st_size for f in work.rglob("*") if f.is_file()) / 2**20
    return {"rows": report.records, "embedded": report.embedded, "batch_size": batch_size, "baseline": baseline,
            "samples": samples, "end": end, "index_mb": round(disk),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}


def growth_per_row(samples: list[dict], key: str = "RssAnon") -> float:
    """Bytes per row by which ``key`` grew between the sample at half the rows and the last one."""
    if len(samples) < 2:
        return float("nan")
    last = samples[-1]
    mid = min(samples, key=lambda s: abs(s["rows"] - last["rows"] / 2))
    if last["rows"] == mid["rows"]:
        return float("nan")
    return (last[key] - mid[key]) * 2**20 / (last["rows"] - mid["rows"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--batch-size", type=int, default=10_000)
    ap.add_argument("--distinct-texts", type=int, default=500,
                    help="titles and descriptions drawn from this many texts (the model embeds these only)")
    ap.add_argument("--every", type=int, default=0, help="print every Nth sample (default: about 20 lines)")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(ingest(Path(args.child[0]), args.batch_size, Path(args.child[1]))))
        return
    tmp = Path(tempfile.mkdtemp(prefix="docstrata-records-memory-"))
    try:
        path = tmp / "catalogue.csv"
        t = time.perf_counter()
        size = generate(path, args.rows, distinct=args.distinct_texts)
        print(f"generated {args.rows:,} rows ({size / 1e6:.1f} MB, {args.distinct_texts} distinct texts) in "
              f"{time.perf_counter() - t:.0f} s; load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())}")
        env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
        work = tmp / "index"
        work.mkdir()
        cmd = [sys.executable, __file__, "--child", str(path), str(work), "--batch-size", str(args.batch_size)]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode:
            sys.exit(p.stderr[-3000:])
        r = json.loads(p.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    b = r["baseline"]
    print(f"model loaded, nothing ingested: VmRSS {b['VmRSS']:.0f} MB, RssAnon {b['RssAnon']:.0f}, RssFile {b['RssFile']:.0f}")
    print("| rows | wall s | CPU s | VmRSS MB | RssAnon MB | RssFile MB |")
    print("|---|---|---|---|---|---|")
    samples = r["samples"]
    every = args.every or max(1, len(samples) // 20)
    for i, s in enumerate(samples):
        if i % every == 0 or i == len(samples) - 1:
            print(f"| {s['rows']:,} | {s['s']} | {s['cpu_s']} | {s['VmRSS']:.0f} | {s['RssAnon']:.0f} | {s['RssFile']:.0f} |")
    e = r["end"]
    print(f"| end (after the flush) | {e['s']} | {e['cpu_s']} | {e['VmRSS']:.0f} | {e['RssAnon']:.0f} | {e['RssFile']:.0f} |")
    r["anon_growth_b_per_row"] = round(growth_per_row(samples), 1)
    print(f"{r['rows']:,} records ({r['embedded']:,} embedded) at {r['rows'] / e['s']:.0f} rows/s; RssAnon growth over "
          f"the second half {r['anon_growth_b_per_row']:.0f} B/row; peak RSS {r['peak_rss_mb']} MB; "
          f"index {r['index_mb']} MB on disk")
    print(json.dumps({k: v for k, v in r.items() if k != "samples"}))


if __name__ == "__main__":
    main()
