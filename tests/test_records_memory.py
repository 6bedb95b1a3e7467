"""A records ingest's memory is bounded by the batch, not the file (issue 18): the resident heap of
a vectorstore ingest stops growing once its bounded buffers are full. The full 1M-row figure is
``bench/records_memory.py``; this is the same measurement on a file small enough for a test."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest


def _rss_anon_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    pytest.skip("no RssAnon in /proc/self/status (not Linux)")


def _write_catalogue(path: Path, rows: int) -> None:
    """Unique ids; texts, categories and prices drawn from a few values, so that the embedding
    cache serves all but 50 texts and the analyser's (bounded) token cache is full at once: what
    grows with the file here is per-row bookkeeping only."""
    rng = random.Random(7)
    words = ["lamp", "desk", "oak", "brass", "chair", "steel", "cotton", "linen", "shelf", "drawer", "walnut",
             "mirror", "frame", "glass"]
    texts = [" ".join(rng.choices(words, k=rng.randint(8, 20))) for _ in range(50)]
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sku", "description", "category", "price"])
        for i in range(rows):
            w.writerow([f"SKU-{i:07d}", rng.choice(texts), rng.choice(("garden", "bath", "decor")),
                        rng.choice(("9.99", "19.50", "120.00"))])


@pytest.mark.slow
def test_records_ingest_heap_stops_growing_with_the_file(tmp_path, embedder, monkeypatch):
    """Before the fix an upsert queued one tantivy delete per new record (kept in the writer's
    memory until the commit) and the ids were kept in a dict and a set: the heap grew ~1.5 KB per
    row for the whole file. The bounded buffers are made small here (tantivy's minimum writer budget,
    the id registry moving to SQLite past 2,000 ids) so they are full early; over the second half
    of the file the heap must then grow less than 400 bytes a row (78 measured; 1,299 before)."""
    from docstrata.config import parse_config
    from docstrata.index import keyword
    from docstrata.records import ids
    from docstrata.tools import build_tool

    monkeypatch.setattr(keyword, "WRITER_HEAP_BYTES", 15_000_000)
    monkeypatch.setattr(ids, "MEMORY_IDS", 2_000)
    rows = 40_000
    src = tmp_path / "catalogue.csv"
    _write_catalogue(src, rows)
    cfg = parse_config({"tools": [{"name": "cat", "type": "vectorstore", "source": str(src), "id_field": "sku",
                                   "vector_field": "description", "meta_fields": ["category", "price"],
                                   "batch_size": 1_000}]}, base_dir=tmp_path).tools[0]
    tool = build_tool(cfg, tmp_path)
    tool._embedder = embedder
    store = tool.store
    samples: list[tuple[int, float]] = []
    upsert = store.upsert_chunks

    def sampled(doc_key, chunks):  # measures only: the store's own method does the work
        upsert(doc_key, chunks)
        samples.append(((samples[-1][0] if samples else 0) + len(chunks), _rss_anon_mb()))

    store.upsert_chunks = sampled
    report = tool.ingest()
    assert report.records == rows and report.embedded == 50 and store.count() == rows
    assert store.keyword_size() == rows  # one tantivy document per record, no duplicates
    half = next(s for s in samples if s[0] >= rows // 2)
    growth = (samples[-1][1] - half[1]) * 2**20 / (samples[-1][0] - half[0])
    assert growth < 400, f"resident heap grew {growth:.0f} B/row over the second half: {samples[::5]}"
    hit = tool.search("SKU-0039999", top_k=1)  # the last record is searchable by its id
    assert [r.id for r in hit] == ["SKU-0039999"]
