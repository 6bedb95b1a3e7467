"""Which characters of a passage a query matched, for display (the playground marks them).

:func:`query_terms` reads a query once, as the search does: its quoted phrases, identifiers and
cited sections (:func:`~docstrata.search.analyze_query`) and its BM25 tokens
(:func:`~docstrata.index.keyword.analyze_query`); :func:`highlight_spans` finds them in a text.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_WORD = re.compile(r"\w(?:[\w'’.-]*\w)?")


@dataclass(frozen=True)
class QueryTerms:
    """What a query matches a text by: ``phrases`` (quoted) and ``identifiers`` as written,
    ``section_keys`` (exact-index keys of each section it cites) and ``tokens`` (its BM25 tokens)."""

    phrases: tuple[str, ...]
    identifiers: tuple[str, ...]
    section_keys: frozenset[str]
    tokens: frozenset[str]


def query_terms(query: str) -> QueryTerms:
    """The :class:`QueryTerms` of ``query`` (computed once per search, used for every hit)."""
    from .index.keyword import analyze_query as bm25_tokens
    from .search import analyze_query

    qa = analyze_query(query)
    return QueryTerms(
        tuple(qa.phrases),
        tuple(qa.identifiers),
        frozenset(k for keys in qa.section_keys for k in keys),
        frozenset(bm25_tokens(query)),
    )


@functools.lru_cache(maxsize=65536)
def _word_tokens(word: str) -> frozenset[str]:
    from .index.keyword import analyze

    return frozenset(analyze(word))


def highlight_spans(terms: QueryTerms, content: str, aliases: list[str]) -> list[list]:
    """Sorted, non-overlapping ``[start, end, kind]`` character spans of ``content``: ``"exact"``
    for quoted phrases, identifiers and, among ``aliases`` (the chunk's section aliases), those
    cited by the query, as written (case-insensitive, longest first); ``"term"`` for words whose
    BM25 token the query has."""
    from .index.exact import alias_keys

    spans: list[list] = []
    low = content.lower()
    needles = [p for p in terms.phrases + terms.identifiers if p.strip()]
    needles += [a for a in aliases if terms.section_keys & set(alias_keys(a))]
    for n in sorted(set(needles), key=len, reverse=True):
        for m in re.finditer(re.escape(n.lower()), low):
            if not any(a < m.end() and m.start() < b for a, b, _ in spans):
                spans.append([m.start(), m.end(), "exact"])
    for m in _WORD.finditer(content):
        if terms.tokens & _word_tokens(m.group(0)) and not any(a < m.end() and m.start() < b for a, b, _ in spans):
            spans.append([m.start(), m.end(), "term"])
    return sorted(spans)
