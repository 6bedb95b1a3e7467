"""Terms that several documents define differently (a warning at ingest).

Each document keeps its own definitions (they are looked up per document); a term that two
documents of one tool define in different words is still worth a warning, since an agent asking
``get-definition`` without naming a document gets one of them. A definition scoped to a part of
its document (``In this title``) conflicts with none: each passage gets the one in scope there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..models import DefinitionEntry


def definition_conflicts(
    definitions: Iterable[DefinitionEntry], key: Callable[[str], str], docs: set[str] | None = None
) -> list[str]:
    """One warning per term that several documents define differently for the whole document.

    Args:
        definitions: every stored definition of the tool (any order).
        key: the term's lookup key (``index.exact.term_key``: case- and accent-folded, ``term:``
            prefix); two terms with the same key are the same term.
        docs: when given, only terms one of these documents defines (those just ingested), so a
            no-op re-ingest warns of nothing.

    Returns:
        ``term 'x' is defined differently in: a.md, b.md (kept separate)`` per conflicting term,
        in the order the terms are first met; definitions compare with whitespace collapsed.
    """
    by_term: dict[str, dict[str, str]] = {}
    for d in definitions:
        if d.scope is not None:
            continue
        by_term.setdefault(key(d.term), {}).setdefault(d.doc_key, " ".join(d.definition.split()))
    out = []
    for term, per_doc in by_term.items():
        if len(set(per_doc.values())) > 1 and (docs is None or docs & per_doc.keys()):
            where = ", ".join(sorted(per_doc))
            out.append(f"term '{term.removeprefix('term:')}' is defined differently in: {where} (kept separate)")
    return out
