"""BM25 identity of the keyword build path (issue 18): tantivy indexes built the old way (whole-text
analysis ``_analyze_whole``, one indexing thread with a 64 MB writer: many segments; term queries
reading positions) and the current way (word-cache ``analyze``, two indexing threads sharing 1.5 ×
``WRITER_HEAP_BYTES`` — what ``writer_threads`` gives when a core is free; term queries with
``index_option="freq"``) must return the same top 100 — chunk ids and float scores — for every query.

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


def build(texts: list[str], heap: int, threads: int, analyse, where: Path) -> kw.KeywordIndex:
    # analyze and writer_threads are looked up at call time (analyze by queries too)
    kw.writer_threads, kw.analyze = (lambda: (threads, heap)), analyse
    ki = kw.KeywordIndex(where)
    for i, t in enumerate(texts):
        ki.add(f"c{i}", f"d{i // 100}", t)
    ki.commit()
    return ki


def positional_search(ki: kw.KeywordIndex, query: str, k: int) -> list[tuple[str, float]]:
    """``KeywordIndex.search`` as it was before term queries asked for frequencies only."""
    terms = kw.query_terms(query)
    if not terms:
        return []
    Q, Occur = ki._tantivy.Query, ki._tantivy.Occur
    clauses = [Q.term_query(ki.schema, "body", t) for t, _ in terms]
    clauses = [(Occur.Should, c if w == 1.0 else Q.boost_query(c, w)) for c, (_, w) in zip(clauses, terms)]
    return ki._top_k(Q.boolean_query(clauses), k)


def main() -> None:
    _, texts, _, qtexts, _ = peers.load_scifact()
    cache = Path(os.path.join(os.environ.get("TMPDIR", "/tmp"), "docstrata-peers"))
    _, syn_texts, _, syn_q, _ = peers.synthetic(cache, 20_000, 100)
    new_analyse, new_writer = kw.analyze, kw.writer_threads
    new_threads, new_heap = kw.WRITER_THREADS, kw.WRITER_HEAP_BYTES * 3 // 2
    work = Path(tempfile.mkdtemp(prefix="kwid-"))
    try:
        for name, docs, queries in (("scifact", texts, qtexts), ("synthetic 20k", syn_texts, syn_q)):
            old = build(docs, 64_000_000, 1, kw._analyze_whole, work / f"{name}-old")
            a = [positional_search(old, q, 100) for q in queries]
            new = build(docs, new_heap, new_threads, new_analyse, work / f"{name}-new")
            b = [new.search(q, 100) for q in queries]
            segs = [len(list(p.glob("*.idx"))) for p in (work / f"{name}-old", work / f"{name}-new")]
            print(f"{name}: {len(queries)} queries, {sum(map(len, a))} hits; identical ids and scores: {a == b} "
                  f"(segments old {segs[0]}, new {segs[1]})")
    finally:
        kw.analyze, kw.writer_threads = new_analyse, new_writer
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
