"""Defined terms close to one that is not defined, for a ``get_definition`` that found nothing.

``get_section`` answers an unknown section id with the ids it has that look like it; a term
lookup does the same, so an agent asking for "data subjects' rights" or "Data-Subject" learns
which terms the index does define ("data subject") instead of guessing again.
"""

from __future__ import annotations

import difflib
import re


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[\"'“”‘’«»„‚*_-]+", " ", text).casefold().split())


def similar_terms(asked: str, terms: list[str], n: int = 8) -> list[str]:
    """Up to ``n`` of ``terms`` (as written, first spelling of each) close to ``asked``, best first:
    those holding all of its words or held in it as whole words (``subject`` → ``data subject``;
    ``data subjects' rights`` → ``data subject``), then those spelled closest to it (difflib ratio
    ≥ 0.6 on the case-folded forms, quotes and hyphens as spaces). Case-insensitive."""
    want = _fold(asked)
    if not want:
        return []
    by_fold: dict[str, str] = {}
    for t in terms:
        by_fold.setdefault(_fold(t), t)
    words = set(want.split())
    stems = {w.rstrip("s'") for w in words}
    out = []
    for f in by_fold:
        fw = f.split()
        if words <= set(fw) or (fw and {w.rstrip("s'") for w in fw} <= stems):
            out.append(f)
    out.sort(key=lambda f: (f != want, abs(len(f) - len(want)), f))
    out += [f for f in difflib.get_close_matches(want, list(by_fold), n=n, cutoff=0.6) if f not in out]
    same = " ".join(asked.casefold().split())  # the asked term itself (a hyphen spelled as a space is another)
    return [by_fold[f] for f in out if " ".join(by_fold[f].casefold().split()) != same][:n]


def definitions_of(store, term: str, doc_key: str | None = None) -> list:
    """The stored definitions of ``term`` (case-insensitive; of ``doc_key`` only when given), each
    document's in document order; when ``term`` itself is not defined, those of its singular
    ("Business Days" → "Business Day", :func:`~docstrata.index.exact.singular_term_keys`). Empty
    when none is found."""
    from .index.exact import singular_term_keys, term_key

    for key in [term_key(term), *singular_term_keys(term)]:
        found = store.definitions(term_key=key, doc_key=doc_key)
        if found:
            return found
    return []
