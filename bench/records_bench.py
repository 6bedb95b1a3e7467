"""Benchmark: records.load_records on a generated 1,000,000-row CSV (loading only, no embeddings).

Usage::

    /work/venv/bin/python bench/records_bench.py [--rows 1000000] [--batch-size 10000] [--keep DIR]
    /work/venv/bin/python bench/records_bench.py --ingest --rows 150000 --distinct-texts 2000

``--distinct-texts K`` draws every row's title and description from K of them (ids, prices and the
other fields stay per row): the bundled model then embeds K texts and the embedding cache serves
the rest, so a whole ingest of many rows (``--ingest``) measures what grows with the file — reader,
store writes, vector record, keyword index — in minutes instead of hours of embedding.

Writes a product-catalogue-like CSV (id, sku, title, description with commas and some quoted
newlines, category, price, in_stock) to a temp dir, then loads it in a fresh child process so
that peak RSS (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) covers loading alone. Prints rows/s,
MB/s, peak RSS and the RSS right after import (the baseline the loader adds to), as text and
one JSON line. Issue 5 budget: peak RSS under 1 GB.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("lamp desk oak brass chair steel cotton linen shelf drawer walnut mirror frame glass "
         "ceramic vase candle rug wool storage outdoor garden kitchen bath soft bright compact").split()
CATEGORIES = ("furniture", "lighting", "kitchen", "garden", "bath", "decor", "textiles", "storage")


def generate(path: Path, rows: int, seed: int = 5, distinct: int | None = None) -> int:
    """Write ``rows`` records to ``path`` (titles and descriptions drawn from ``distinct`` texts
    when given); returns the file size in bytes."""
    rng = random.Random(seed)

    def text(i: int) -> tuple[str, str]:
        r = random.Random(seed * 1_000_003 + i) if distinct else rng
        words = r.choices(WORDS, k=r.randint(12, 30))
        description = " ".join(words[:8]) + ", " + " ".join(words[8:])
        if i % 50 == 0:
            description += "\nCare: wipe clean, keep dry."
        return " ".join(r.choices(WORDS, k=3)).title(), description

    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "sku", "title", "description", "category", "price", "in_stock"])
        for i in range(rows):
            title, description = text(rng.randrange(distinct) if distinct else i)
            w.writerow([i + 1, f"SKU-{i:07d}", title, description,
                        rng.choice(CATEGORIES), f"{rng.uniform(1, 500):.2f}", rng.choice(("true", "false"))])
    return path.stat().st_size


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def load(path: Path, batch_size: int) -> dict:
    """Child process: import, note the RSS, load every batch, report."""
    from docstrata.config import VectorstoreToolConfig
    from docstrata.records import load_records

    baseline = rss_mb()
    cfg = VectorstoreToolConfig(name="bench", type="vectorstore", source=str(path.parent), id_field="sku",
                                vector_field=["title", "description"], meta_fields=["category", "price", "in_stock"],
                                batch_size=batch_size)
    t0 = time.perf_counter()
    result = load_records(path, path.name, cfg)
    batches = largest = 0
    for batch in result.batches:
        batches += 1
        largest = max(largest, len(batch))
    elapsed = time.perf_counter() - t0
    size = path.stat().st_size
    return {"rows": result.records, "batches": batches, "largest_batch": largest, "seconds": round(elapsed, 2),
            "rows_per_s": round(result.records / elapsed), "mb_per_s": round(size / elapsed / 1e6, 1),
            "file_mb": round(size / 1e6, 1), "rss_after_import_mb": round(baseline), "peak_rss_mb": round(rss_mb()),
            "skipped": result.skipped_rows, "warnings": result.warnings}


def catalogue_tool(path: Path, work: Path, batch_size: int):
    """A vectorstore tool over the product-catalogue CSV at ``path`` (see :func:`generate`), its
    embedded index under ``work``, the bundled model loaded."""
    from docstrata.config import parse_config
    from docstrata.embed import Embedder
    from docstrata.tools import build_tool

    cfg = parse_config({"tools": [{"name": "bench", "type": "vectorstore", "source": str(path), "id_field": "sku",
                                   "vector_field": ["title", "description"],
                                   "meta_fields": ["category", "price", "in_stock"], "batch_size": batch_size}]},
                       base_dir=work).tools[0]
    tool = build_tool(cfg, work)
    tool._embedder = Embedder()
    return tool


def ingest(path: Path, batch_size: int) -> dict:
    """Child process: the whole vectorstore ingest (load, embed, store) into a temp embedded index."""
    work = Path(tempfile.mkdtemp(prefix="docstrata-records-"))
    tool = catalogue_tool(path, work, batch_size)
    baseline = rss_mb()  # the model is loaded: what follows is ingest's own memory
    t0 = time.perf_counter()
    report = tool.ingest()
    elapsed = time.perf_counter() - t0
    disk = sum(f.stat().st_size for f in work.rglob("*") if f.is_file()) / 2**20
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    anon, file_rss = (round(int(status.get(k, "0 kB").split()[0]) / 1024) for k in ("RssAnon", "RssFile"))
    return {"rows": report.records, "embedded": report.embedded, "seconds": round(elapsed, 1),
            "rows_per_s": round(report.records / elapsed, 1), "rss_with_model_mb": round(baseline),
            "peak_rss_mb": round(rss_mb()), "index_mb": round(disk), "end_rss_anon_mb": anon,
            "end_rss_file_mb": file_rss, "mode": "ingest"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--batch-size", type=int, default=10_000)
    ap.add_argument("--keep", type=Path, help="write the CSV here instead of a temp dir")
    ap.add_argument("--ingest", action="store_true",
                    help="measure the whole ingest (embedding and store) instead of loading alone; use with --rows")
    ap.add_argument("--distinct-texts", type=int, default=None,
                    help="draw titles and descriptions from this many texts (the embedding cache serves repeats)")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps((ingest if args.ingest else load)(args.child, args.batch_size)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = (args.keep or Path(tmp)) / "records_bench.csv"
        t0 = time.perf_counter()
        size = generate(path, args.rows, distinct=args.distinct_texts)
        print(f"generated {args.rows:,} rows, {size / 1e6:.1f} MB in {time.perf_counter() - t0:.1f} s")
        env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
        cmd = [sys.executable, __file__, "--child", str(path), "--batch-size", str(args.batch_size)]
        out = subprocess.run(cmd + (["--ingest"] if args.ingest else []), check=True, capture_output=True, text=True,
                             env=env).stdout
    r = json.loads(out.strip().splitlines()[-1])
    if args.ingest:
        print(f"ingest (load + embed + store): {r['rows']:,} records in {r['seconds']} s = {r['rows_per_s']} rows/s; "
              f"peak RSS {r['peak_rss_mb']} MB ({r['rss_with_model_mb']} MB once the model is loaded); "
              f"{r['embedded']:,} embedded, index {r['index_mb']} MB on disk")
        print(json.dumps(r))
        return
    print(f"load_records: {r['rows']:,} records in {r['seconds']} s = {r['rows_per_s']:,} rows/s "
          f"({r['mb_per_s']} MB/s); {r['batches']} batches (largest {r['largest_batch']:,})")
    print(f"peak RSS {r['peak_rss_mb']} MB (after import {r['rss_after_import_mb']} MB); budget 1024 MB")
    print(json.dumps(r))


if __name__ == "__main__":
    main()
