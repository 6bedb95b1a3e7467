"""What a request is narrowed to: the documents a ``document`` name matches, the section a
``section`` filter names, and record-field conditions, as the store's
:class:`~docstrata.store.base.ChunkFilter`.

Functions over a store's read methods (``documents``, ``document_chunks``, ``exact_lookup``,
``get_chunks``); every bad name raises :class:`~docstrata.search.QueryError` naming it and what
the tool holds instead. The tools (:mod:`docstrata.tools`) call these with their store and name.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .filter_syntax import parse_metadata_filters
from .search import QueryError
from .section_lookup import cited_keys, near_ids
from .store.base import ChunkFilter, MetaCondition, chunk_section_path


def matching_documents(document: str, docs: list[str]) -> list[str]:
    """Doc keys of ``docs`` that ``document`` names: the key, a path suffix, the file name or stem —
    as stored, or as answers print it (control characters escaped, :func:`~docstrata.escaping.one_line`),
    so a name shown as ``new\\nline.md`` can be typed back. A name that matches nothing as typed
    is compared case-insensitively (``-d agg`` finds ``AGG.xml``; two files differing only in case
    are then both named). In ``docs`` order; empty when none."""
    from .escaping import one_line

    document = document.strip().removeprefix("./")

    def names(d: str, want: str) -> bool:
        return d == want or d.endswith("/" + want) or Path(d).stem == want or Path(d).name == want

    def matching(fold) -> list[str]:
        want = fold(document)
        return [d for d in docs if names(fold(d), want) or (one_line(d) != d and names(fold(one_line(d)), want))]

    return matching(lambda x: x) or matching(str.casefold)


def documents_hint(tool_name: str, docs: list[str]) -> str:
    """The tail of a "no document" error: the first documents the tool holds (or that it holds none)."""
    if not docs:
        return " (it holds no documents)"
    shown = ", ".join(docs[:8]) + (f", … ({len(docs)} in all; see {tool_name}_list_documents)" if len(docs) > 8 else "")
    return f"; documents: {shown}"


def resolve_document(store, document: str, tool_name: str) -> str:
    """The one doc key ``document`` names (a doc key, unique path suffix, file name or stem).
    Raises :class:`QueryError` when it names none (listing the documents) or several (listing them)."""
    docs = store.documents()
    if document in docs:
        return document
    cands = matching_documents(document, docs)
    if len(cands) == 1:
        return cands[0]
    if not cands:
        raise QueryError(f"no document {document!r} in tool '{tool_name}'{documents_hint(tool_name, docs)}")
    raise QueryError(f"document {document!r} is ambiguous: {', '.join(cands[:10])}")


def document_keys(store, document: str | list[str], tool_name: str) -> tuple[str, ...]:
    """The doc keys a ``document`` filter names: each entry a doc key, file name, stem or path
    suffix, matching every document it names (deduplicated, in order). Raises :class:`QueryError`
    for an entry that is not a non-empty string or matches none."""
    names = [document] if isinstance(document, str) else list(document)
    docs = store.documents()
    out: list[str] = []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise QueryError(f"document filter: {name!r} is not a document name")
        found = matching_documents(name, docs)
        if not found:
            raise QueryError(f"no document {name!r} in tool '{tool_name}'{documents_hint(tool_name, docs)}")
        out += found
    return tuple(dict.fromkeys(out))


def section_key(store, section: str, doc_keys: tuple[str, ...] | None) -> str:
    """A ``section`` filter as the section id prefix stores match: the id as given (``4.2``,
    ``article-17``, lower-cased), or the id of the section a cited form names (``Section 4.2``,
    ``Art. 17``) in ``doc_keys`` (``None`` = any document). Raises :class:`QueryError` when empty."""
    from .index.exact import alias_keys

    sid = section.strip()
    if not sid:
        raise QueryError("section filter is empty")
    keys = alias_keys(sid)
    found = store.exact_lookup(keys, limit=5, flt=ChunkFilter(doc_keys=doc_keys) if doc_keys else None)
    for key in keys:
        ids = found.get(key)
        chunks = store.get_chunks(ids[:1]) if ids else []
        if not chunks:
            continue
        path = chunk_section_path(chunks[0])
        if sid.lower() in path:
            return sid.lower()
        num = key.split(" ", 1)[-1]  # "section 4.2" → "4.2"; "article 17" → "17"
        for cand in path:  # the section of the chunk the key names: "4.2", "article-17"
            if cand == num or cand.endswith("-" + num):
                return cand
        for cand in path:  # a container cited in another numbering: "Article I" → "article-i"
            if set(keys) & cited_keys(cand):
                return cand
        return chunks[0].section_id.lower()
    return sid.lower()


def check_section(store, sec: str, section: str, doc_keys: tuple[str, ...] | None, tool_name: str) -> None:
    """Raise :class:`QueryError` naming ``section`` and the nearest section ids when no chunk
    (of ``doc_keys``, or of any document) is in section ``sec`` (a :func:`section_key`)."""
    ids: dict[str, None] = {}
    for doc_key in doc_keys or store.documents():
        for c in store.document_chunks(doc_key):
            path = chunk_section_path(c)
            if sec in path:
                return
            ids.update(dict.fromkeys(path))
    where = f" in {', '.join(doc_keys)}" if doc_keys else f" in tool '{tool_name}'"
    raise QueryError(f"section filter: no section {section!r}{where}{near_ids(section, list(ids))}")


def any_case(store, conditions: tuple[MetaCondition, ...]) -> tuple[MetaCondition, ...]:
    """String equality that ignores case (and runs of spaces): each value widened to the
    spellings the records hold ("Shoes", "SHOES" for "shoes"), found through the exact index's
    folded value keys, so every store filters with its own plain equality."""
    from .index.exact import value_key

    out = []
    for cond in conditions:
        if cond.values:
            wanted = {value_key(v) for v in cond.values}
            found = store.exact_lookup(sorted(wanted), limit=500)
            spellings = {
                str(c.metadata.get("fields", {}).get(cond.name))
                for c in store.get_chunks(list(dict.fromkeys(i for ids in found.values() for i in ids)))
            }
            extra = [v for v in sorted(spellings) if value_key(v) in wanted and v not in cond.values]
            cond = dataclasses.replace(cond, values=(*cond.values, *extra))
        out.append(cond)
    return tuple(out)


def make_filter(store, tool_name: str, document=None, section=None, filters=None) -> ChunkFilter | None:
    """The store filter of a request's ``document`` (name or list of names, :func:`document_keys`),
    ``section`` (:func:`section_key`) and record ``filters`` (:func:`parse_metadata_filters`,
    widened by :func:`any_case`); ``None`` when none is given. Raises :class:`QueryError` for a bad one."""
    doc_keys = document_keys(store, document, tool_name) if document else None
    sec = section_key(store, section, doc_keys) if section else None
    meta = any_case(store, parse_metadata_filters(filters))
    if doc_keys is None and sec is None and not meta:
        return None
    return ChunkFilter(doc_keys=doc_keys, section=sec, metadata=meta)
