"""References as a graph, read backwards: which passages cite a section ("cited by").

Every reference a chunk makes (:attr:`~docstrata.models.Chunk.cross_references`, ranges and lists
already expanded to their members by :mod:`~docstrata.structure.xrefs`) is written to the store's
exact index as a *citation key* of the citing chunk (:func:`citation_keys`), so the reverse look-up
is one :meth:`~docstrata.store.base.Store.exact_lookup` on any backend:

* ``cites:<doc_key>#<section id>`` for a reference resolved to a section (inside its own document,
  or in another document the tool already held when the citing one was ingested);
* ``cites:doc:<folded document name>|<target>`` for a reference that names another document
  (``Article 28 GDPR`` → ``cites:doc:gdpr|article-28``), whether or not that document is held:
  the cited document is matched by its names (:func:`~docstrata.index.exact.document_name_keys`)
  when asked, so a citation made before the cited document arrived is found once it is there.

A contents list cites nothing: its lines and the references a contents section makes are
``listing`` references (:attr:`~docstrata.models.CrossReference.listing`), which get no key.

Both carry the section's enclosing numbers as well (``article-17(3)`` → also ``article-17``;
:func:`~docstrata.store.base.section_path`): a passage citing ``Article 17(3)`` cites Article 17
in part, and is listed for it with ``cites`` saying which part.

:func:`cited_by` lists the citing sections of one section (the deepest section of the citing
chunk that holds the reference, :func:`~docstrata.pinpoint.section_at`), own document first;
:func:`citer_ranking` ranks the citers of the sections a query names by the rest of the query,
for the search's exact modality ("How much can a controller be fined for infringing Article 17?"
→ Article 83(5), which fines infringements of "Articles 12 to 22"); :func:`citing_chunks` gives
the search the citers :func:`cited_by` lists when the query asks for them ("Which sections refer to
Section 5.3?": :func:`docstrata.search.citers_first`).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from .models import Chunk, CrossReference
from .pinpoint import section_at
from .store.base import ChunkFilter, read_document_entry, section_path

PREFIX = "cites:"
LOOKUP_LIMIT = 5000  # citing chunks read per cited section (a definitions article may be cited everywhere)


@dataclass
class Citer:
    """One section that cites another.

    ``document`` / ``section_id``: the citing section (the deepest one of its chunk that holds the
    reference); ``location``: its chunk's heading chain; ``chunk_id``: the chunk to read it in;
    ``references``: the reference texts as written there (``Articles 12 to 22``), each once;
    ``cites``: the ids it cites of the section asked about (``article-17``, or a part of it such
    as ``article-17(3)``); ``excerpt``: the line of the citing text around the first reference
    (at most 300 characters)."""

    document: str
    section_id: str
    chunk_id: str
    location: str = ""
    references: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    excerpt: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of the fields (CLI ``--json``, MCP structured content)."""
        return asdict(self)


@dataclass
class CitedByPage:
    """One page of the sections citing ``document`` § ``section_id``: ``citers`` (own document
    first, then other documents, each in document order), ``total`` citing sections in all,
    ``offset`` of the first one shown, ``next_cursor`` to read on (``None`` on the last page)."""

    document: str
    section_id: str
    citers: list[Citer]
    total: int
    offset: int = 0
    next_cursor: str | None = None
    notice: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of the fields (CLI ``--json``, MCP structured content)."""
        return {
            "document": self.document,
            "section_id": self.section_id,
            "total": self.total,
            "offset": self.offset,
            "citers": [c.to_dict() for c in self.citers],
            "next_cursor": self.next_cursor,
            **({"notice": self.notice} if self.notice else {}),
        }

    def format(self) -> str:
        """Plain text: a header line, then one block per citing section."""
        shown = f"{self.offset + 1}–{self.offset + len(self.citers)} of {self.total}" if self.citers else "none"
        lines = [f"Cited by: {self.document} § {self.section_id} ({shown})"]
        if self.notice:
            lines.append(self.notice)
        for c in self.citers:
            part = "" if c.cites == [self.section_id] else f" (cites {', '.join(c.cites)})"
            lines += [
                "",
                f"- {c.document} § {c.section_id}{part}: {'; '.join(c.references)}",
                f"  Location: {c.location}",
                f"  Chunk: {c.chunk_id}",
            ]
            if c.excerpt:
                lines.append(f"  {c.excerpt}")
        if self.next_cursor:
            lines += ["", f"[more: call again with cursor='{self.next_cursor}']"]
        return "\n".join(lines)


def _name_key(name: str) -> str:
    from .index.exact import document_key

    return document_key(name)


def _tail(section_id: str) -> str:
    return section_id.rsplit("/", 1)[-1].lower()


def citation_keys(chunk: Chunk) -> list[str]:
    """Exact-index keys under which ``chunk`` is found as a citer of each section it references
    (see the module docstring); ``[]`` for a chunk that makes no reference."""
    keys: list[str] = []
    for x in chunk.cross_references:
        if x.listing:
            continue  # a contents line lists the section, it does not cite it
        if x.section_id and (x.target_document or not x.document):
            doc = x.target_document or chunk.doc_key
            keys += [f"{PREFIX}{doc}#{sid}" for sid in section_path(x.section_id)]
        if x.document:
            keys += [f"{PREFIX}{_name_key(x.document)}|{t}" for t in section_path(_tail(x.target))]
    return list(dict.fromkeys(keys))


def _cited_keys(doc_key: str, section_id: str, names: list[str]) -> list[str]:
    sid = section_id.lower()
    return [f"{PREFIX}{doc_key}#{sid}", *(f"{PREFIX}{n}|{_tail(sid)}" for n in names)]


def document_names_of(store, doc_key: str, held: dict[str, list[str]] | None = None) -> list[str]:
    """The exact-index name keys (``doc:gdpr``) of a stored document, from its stored title; and the
    key of each kind word alone it may be cited by (``doc:agreement`` for "Section 1.4 of the
    Agreement" or a SOW's bare "Section 1.4" under "the Agreement": :func:`kinds_of`)."""
    from .index.exact import document_name_keys
    from .structure.xrefs import kind_of_name

    entry = read_document_entry(store, doc_key)
    title = entry.title if entry is not None else ""
    if not title:
        first = store.get_chunks([f"{doc_key}#0"])
        title = first[0].document_title if first else ""
    defined = [n for n in _defined_names(store, doc_key) if kind_of_name(n) is None]
    keys = [
        *document_name_keys(title, doc_key),
        *map(_name_key, defined),
        *map(_name_key, kinds_of(store, doc_key, held)),
    ]
    return list(dict.fromkeys(keys))


def _defined_names(store, doc_key: str) -> list[str]:
    """The names a stored document defines as itself (``Framework Terms``), from its stored definitions
    (:func:`~docstrata.structure.xrefs.self_defined_names`)."""
    from .models import DocumentTree
    from .structure.xrefs import self_defined_names

    definitions = store.definitions(doc_key=doc_key)
    return self_defined_names(DocumentTree(doc_key, "", [], definitions)) if definitions else []


def name_holders(store, names: list[str], held: dict[str, list[str]]) -> dict[str, list[str]]:
    """``{name key: documents held so named}`` for the name keys ``names`` (``doc:gpl``,
    ``doc:framework terms``; a kind's, ``doc:agreement``, from ``held``: :func:`kinds_held`), at most
    :data:`~docstrata.index.exact.KIND_LIMIT` each, enough to tell one from several; one look-up."""
    from .index.exact import KIND_LIMIT, _doc_of

    kinds = {_name_key(k): docs for k, docs in held.items()}
    rest = [n for n in names if n not in kinds]
    found = store.exact_lookup(rest, limit=KIND_LIMIT) if rest else {}
    out = {n: list(dict.fromkeys(_doc_of(cid) for cid in found.get(n, []))) for n in rest}
    return {**out, **{n: kinds[n] for n in names if n in kinds}}


def kinds_held(store) -> dict[str, list[str]]:
    """``{kind: documents held of it}`` for every kind word of the grammar, one look-up
    (:func:`~docstrata.index.exact.kind_holders`)."""
    from .index.exact import kind_holders
    from .structure.grammar import document_words

    return kind_holders(store, list(document_words()))


def kinds_of(store, doc_key: str, held: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """``{kind: documents held of it}`` for each kind of document ``doc_key`` is (``held``:
    :func:`kinds_held`, read when not given)."""
    held = kinds_held(store) if held is None else held
    return {k: docs for k, docs in held.items() if doc_key in docs}


def _cites(
    x: CrossReference, chunk: Chunk, doc_key: str, sid: str, names: set[str], holders: dict[str, list[str]]
) -> str | None:
    """The id ``x`` cites inside section ``sid`` of ``doc_key`` (``sid`` itself or a part of it), or ``None``.
    A name (``Framework Terms``) or a kind word alone (``Agreement``) cites ``doc_key`` when it is the one
    document so named or of that kind held besides the citing one (``holders``: :func:`name_holders`)."""
    from .index.exact import kind_document

    want = sid.lower()
    if x.listing:
        return None  # a contents line or a contents section's reference: a listing, no citation
    if x.section_id and not x.document and (x.target_document or chunk.doc_key) == doc_key:
        if want in section_path(x.section_id):
            return x.section_id
    key = _name_key(x.document) if x.document else ""
    if x.document and key in names and _tail(want) in section_path(_tail(x.target)):
        if kind_document(holders.get(key) or [doc_key], chunk.doc_key) != doc_key:
            return None  # "the Agreement" where several agreements are held (or only the citer): no one of them
        return x.section_id if x.section_id and x.target_document == doc_key else x.target
    return None


def _excerpt(content: str, pos: int, limit: int = 300) -> str:
    start = content.rfind("\n", 0, pos) + 1
    end = content.find("\n", pos)
    line = content[start : len(content) if end < 0 else end].strip()
    if len(line) > limit:
        at = pos - start
        lo = max(0, min(at - limit // 3, len(line) - limit))
        line = ("…" if lo else "") + line[lo : lo + limit].strip() + ("…" if lo + limit < len(line) else "")
    return line


def citers_of_chunks(
    chunks: list[Chunk],
    doc_key: str,
    section_id: str,
    names: list[str],
    holders: dict[str, list[str]] | None = None,
) -> list[Citer]:
    """The sections of ``chunks`` that cite ``section_id`` of ``doc_key`` (or a part of it), one
    :class:`Citer` per citing section, in the order of ``chunks`` and of the text. ``holders``: the
    documents held under each of ``names`` (:func:`name_holders`): a name or kind word several documents
    hold cites none of them (``None``: each name is ``doc_key``'s alone)."""
    out: dict[tuple[str, str], Citer] = {}
    name_set = set(names)
    for c in chunks:
        searched = 0
        for x in c.cross_references:
            cited = _cites(x, c, doc_key, section_id, name_set, holders or {})
            if cited is None:
                continue
            pos = c.content.find(x.text, searched) if x.text else -1
            if pos < 0:
                pos = c.content.find(x.text) if x.text else -1
            else:
                searched = pos + len(x.text)  # a second mention of the same text is further on
            where = section_at(c, pos) if pos >= 0 else (x.source_section_id or c.section_id)
            if c.doc_key == doc_key and (where == section_id or where.startswith(section_id + "(")):
                continue  # a section's own text naming itself or its parts is no citation of it
            citer = out.get((c.doc_key, where))
            if citer is None:
                citer = out[(c.doc_key, where)] = Citer(
                    c.doc_key,
                    where,
                    c.chunk_id,
                    " > ".join(c.parent_chain),
                    excerpt=_excerpt(c.content, pos) if pos >= 0 else "",
                )
            if x.text and x.text not in citer.references:
                citer.references.append(x.text)
            if cited not in citer.cites:
                citer.cites.append(cited)
    return list(out.values())


def citing_chunk_ids(
    store,
    doc_key: str,
    section_id: str,
    names: list[str] | None = None,
    limit: int = LOOKUP_LIMIT,
    flt: ChunkFilter | None = None,
) -> list[str]:
    """Ids of the chunks that cite ``section_id`` of ``doc_key`` (or a part of it), own document
    first, then by document and ordinal: one exact-index look-up (every backend)."""
    names = document_names_of(store, doc_key) if names is None else names
    found = store.exact_lookup(_cited_keys(doc_key, section_id, names), limit=limit, flt=flt)
    ids = list(dict.fromkeys(cid for ids in found.values() for cid in ids))

    def order(cid: str) -> tuple[bool, str, int]:
        doc, _, ordinal = cid.rpartition("#")
        return doc != doc_key, doc, int(ordinal) if ordinal.isdigit() else 0

    return sorted(ids, key=order)


def cited_by(store, doc_key: str, section_id: str) -> list[Citer]:
    """Every section that cites section ``section_id`` of document ``doc_key`` or a part of it,
    within the document and across the documents ``store`` holds (see the module docstring),
    own document first. ``doc_key`` and ``section_id`` are as stored (the caller resolves names)."""
    held = kinds_held(store)
    names = document_names_of(store, doc_key, held)
    ids = citing_chunk_ids(store, doc_key, section_id, names)
    return citers_of_chunks(store.get_chunks(ids), doc_key, section_id, names, name_holders(store, names, held))


def citing_chunks(store, sections: list[tuple[str, str]], flt: ChunkFilter | None = None) -> list[str]:
    """Ids of the chunks holding the sections that cite each ``(doc_key, section_id)`` of
    ``sections`` or a part of it, as :func:`cited_by` lists them (own document first, in document
    order; a section's own text naming itself or its parts is no citer), within ``flt``; each once."""
    out: list[str] = []
    for doc_key, section_id in sections:
        names = document_names_of(store, doc_key)
        ids = citing_chunk_ids(store, doc_key, section_id, names, flt=flt)
        out += [c.chunk_id for c in citers_of_chunks(store.get_chunks(ids), doc_key, section_id, names)]
    return list(dict.fromkeys(out))


def citer_ranking(
    store, named: list[str], words: list[str], limit: int, flt: ChunkFilter | None = None
) -> list[tuple[str, float]]:
    """The chunks citing the sections the chunks ``named`` start (a query's named provision),
    ranked by BM25 on the query's other ``words`` among themselves (the best match to "how much
    … fined" of Article 17's citers is Article 83(5)); those matching none of the words are left
    out. At most ``limit`` ``(chunk_id, BM25 score)`` pairs, best first."""
    if not named or not words:
        return []
    citing: list[str] = []
    names_of: dict[str, list[str]] = {}
    for c in store.get_chunks(named[:4]):
        # by name only: a kind word alone ("the Agreement") cites a document only when it is the one of its
        # kind besides the citer, which only cited_by checks
        names = names_of.setdefault(c.doc_key, document_names_of(store, c.doc_key, {}))
        citing += citing_chunk_ids(store, c.doc_key, c.section_id, names, limit=500, flt=flt)
    citing = [cid for cid in dict.fromkeys(citing) if cid not in named]
    if not citing:
        return []
    within = ChunkFilter(
        doc_keys=flt.doc_keys if flt else None,
        section=flt.section if flt else None,
        metadata=flt.metadata if flt else (),
        chunk_ids=tuple(citing),
    )
    query = " ".join(w for w in words if re.search(r"\w", w))
    return store.keyword_search(query, limit, flt=within) if query else []


def citer_page(
    citers: list[Citer], doc_key: str, section_id: str, limit: int = 20, cursor: str | None = None, notice: str = ""
) -> CitedByPage:
    """One page of ``citers`` (at most ``limit``, 1–200) from where ``cursor`` points (the
    previous page's ``next_cursor``; get_section's cursor format, :mod:`~docstrata.paging`,
    scoped to ``doc_key § section_id`` and bound to the list it was issued for). Raises
    :class:`~docstrata.search.QueryError` for a bad limit or a cursor of another section or list."""
    from .paging import make_cursor, read_cursor
    from .search import QueryError

    if not isinstance(limit, int) or not 1 <= limit <= 200:
        raise QueryError(f"limit must be between 1 and 200, got {limit!r}")
    listing = "\n".join(f"{c.document}#{c.section_id}" for c in citers)
    scope = f"{doc_key}§{section_id}"
    start = read_cursor(cursor, listing, scope)
    first = listing.count("\n", 0, start)  # the offset is where a line of the listing starts
    page = citers[first : first + limit]
    end = first + len(page)
    nxt = None
    if end < len(citers):
        nxt = make_cursor(sum(len(f"{c.document}#{c.section_id}") + 1 for c in citers[:end]), listing, scope)
    return CitedByPage(doc_key, section_id, page, len(citers), first, nxt, notice)


def citer_summaries(
    store, sections: list[tuple[str, str]], first: int = 3, per_section: int = 200
) -> dict[tuple[str, str], tuple[int, list[Citer]]]:
    """For each ``(doc_key, section_id)``: how many sections cite it and the first ``first`` of
    them (own document first), for search answers. One exact-index look-up and one chunk fetch
    for all of them; at most ``per_section`` citing chunks read per section."""
    sections = list(dict.fromkeys(sections))
    if not sections:
        return {}
    held = kinds_held(store)
    names = {doc: document_names_of(store, doc, held) for doc in dict.fromkeys(d for d, _ in sections)}
    holders = {doc: name_holders(store, names[doc], held) for doc in names}
    keys = {s: _cited_keys(s[0], s[1], names[s[0]]) for s in sections}
    found = store.exact_lookup(list(dict.fromkeys(k for ks in keys.values() for k in ks)), limit=per_section)
    ids_of = {s: list(dict.fromkeys(cid for k in ks for cid in found.get(k, []))) for s, ks in keys.items()}
    chunks = {c.chunk_id: c for c in store.get_chunks(list(dict.fromkeys(i for ids in ids_of.values() for i in ids)))}
    out: dict[tuple[str, str], tuple[int, list[Citer]]] = {}
    for (doc, sid), ids in ids_of.items():

        def order(c: Chunk, doc: str = doc) -> tuple[bool, str, int]:
            return (c.doc_key != doc, c.doc_key, c.ordinal)

        ordered = sorted((chunks[i] for i in ids if i in chunks), key=order)
        citers = citers_of_chunks(ordered, doc, sid, names[doc], holders[doc])
        out[(doc, sid)] = (len(citers), citers[:first])
    return out


def attach_cited_by(store, results: list, first: int = 3) -> None:
    """Set ``cited_by`` (the first ``first`` citing sections, each ``{"document", "section_id",
    "references"}``) and ``cited_by_total`` on each search result (in place), for the section
    it cites (``section_id``: the pinpointed item when there is one)."""
    summary = citer_summaries(store, [(r.source_path, r.section_id) for r in results], first)
    for r in results:
        total, citers = summary.get((r.source_path, r.section_id), (0, []))
        r.cited_by_total = total or None  # left out of compact answers when nothing cites it
        r.cited_by = [{"document": c.document, "section_id": c.section_id, "references": c.references} for c in citers]
