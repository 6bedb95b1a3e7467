"""BM25 identity of the keyword build path (issue 18): tantivy indexes built the old way (whole-text
analysis ``_analyze_whole``, 64 MB writer: many segments) and the current way (word-cache ``analyze``,
``WRITER_HEAP_BYTES``) must return the same top 100 — chunk ids and float scores — for every query.

    python bench/keyword_identity.py            # SciFact (300 queries) + 20k synthetic chunks (100 queries)

Uses bench/peers.py's data (SciFact from ``DOCSTRATA_DATA`` or ../shared/data; the synthetic corpus
cached in ``$TMPDIR/docstrata-peers``). Prints one line per data set.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402

from docstrata.index import keyword as kw  # noqa: E402


def build(texts: list[str], heap: int, analyse, where: Path) -> kw.KeywordIndex:
    kw.WRITER_HEAP_BYTES, kw.analyze = heap, analyse  # analyze is looked up at call time, queries too
    ki = kw.KeywordIndex(where)
    for i, t in enumerate(texts):
        ki.add(f"c{i}", f"d{i // 100}", t)
    ki.commit()
    return ki


def main() -> None:
    _, texts, _, qtexts, _ = peers.load_scifact()
    cache = Path(os.path.join(os.environ.get("TMPDIR", "/tmp"), "docstrata-peers"))
    _, syn_texts, _, syn_q, _ = peers.synthetic(cache, 20_000, 100)
    new_analyse, new_heap = kw.analyze, kw.WRITER_HEAP_BYTES
    work = Path(tempfile.mkdtemp(prefix="kwid-"))
    try:
        for name, docs, queries in (("scifact", texts, qtexts), ("synthetic 20k", syn_texts, syn_q)):
            old = build(docs, 64_000_000, kw._analyze_whole, work / f"{name}-old")
            a = [old.search(q, 100) for q in queries]
            new = build(docs, new_heap, new_analyse, work / f"{name}-new")
            b = [new.search(q, 100) for q in queries]
            print(f"{name}: {len(queries)} queries, {sum(map(len, a))} hits; identical ids and scores: {a == b}")
    finally:
        kw.analyze, kw.WRITER_HEAP_BYTES = new_analyse, new_heap
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
