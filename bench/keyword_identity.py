"""BM25 identity of the keyword build path (issue 18): tantivy indexes built the old way (whole-text
analysis ``_analyze_whole``, one indexing thread with a 64 MB writer: many segments; term queries
reading positions) and the current way (word-cache ``analyze``, ``WRITER_THREADS`` threads sharing
``WRITER_HEAP_BYTES``; term queries with ``index_option="freq"``) must return the same top 100 —
chunk ids and float scores — for every query.

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
    # analyze is looked up at call time, queries too
    kw.WRITER_HEAP_BYTES, kw.WRITER_THREADS, kw.analyze = heap, threads, analyse
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
    new_analyse, new_heap, new_threads = kw.analyze, kw.WRITER_HEAP_BYTES, kw.WRITER_THREADS
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
        kw.analyze, kw.WRITER_HEAP_BYTES, kw.WRITER_THREADS = new_analyse, new_heap, new_threads
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
