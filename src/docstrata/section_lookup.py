"""Which section of a document a request names: a section id as given, a cited form
(``Section 4.2``, ``Art. 17(3)``, ``Article I``), or a heading title only one section has; and
what a ``get_section`` answer over several chunks is the section of.

Pure functions over stored :class:`~docstrata.models.Chunk` objects (their ``section_id``,
``parent_chain``, ``aliases`` and ``metadata["sections"]`` / ``metadata["ancestors"]``); the
citation keys are the exact index's (:func:`~docstrata.index.exact.alias_keys`).
"""

from __future__ import annotations

import re

from .models import Chunk, SectionPage


def near_ids(section: str, ids: list[str]) -> str:
    """ "; similar: a, b, ..." — section ids holding ``section`` or spelled closest to it
    (difflib ratio), at most 10; else how many sections there are and the top-level ids (those
    without a dot: ``1``, ``article-iv``; at most 12, in document order), so the caller can pick one."""
    import difflib

    low = section.strip().lower()
    near = [s for s in ids if low and low in s.lower()]
    near += [s for s in difflib.get_close_matches(low, ids, n=10, cutoff=0.5) if s not in near]
    if near:
        return f"; similar: {', '.join(near[:10])}"
    top = [s for s in ids if "." not in s] or ids
    more = f", … ({len(top) - 12} more)" if len(top) > 12 else ""
    return f"; {len(ids)} sections hold text; top-level: {', '.join(top[:12])}{more}"


def title_key(title: str) -> str:
    """A heading title as titles are compared: emphasis and quotes dropped, case-folded, runs of
    spaces as one, no trailing ``.`` or ``:``."""
    return " ".join(re.sub(r"[*_`\"“”]+", "", title).casefold().split()).strip(" .:")


def sections_titled(chunks: list[Chunk], asked: str) -> list[str]:
    """Ids of the sections whose heading title, with or without its number (``1.0 Framework
    Introduction``, ``Article 4 Definitions``), is ``asked`` (case-folded), in document order.
    Titles come from each chunk's own section and its parent chain (heading-only ancestors)."""
    want = title_key(asked)
    if not want:
        return []
    out: dict[str, None] = {}
    for c in chunks:
        ids = [*reversed(c.metadata.get("ancestors", [])), c.section_id]
        titles = list(c.parent_chain) if len(c.parent_chain) == len(ids) else [""] * len(ids)
        titles[-1] = c.section_title or titles[-1]
        for sid, title in zip(ids, titles):
            key = title_key(title)
            bare = re.sub(r"^(?:[^\W\d_]+\.?\s+)?[\w§.()]*\d[\w.()]*[.:]?\s+", "", key)
            if want in (key, bare):
                out[sid] = None
    return list(out)


def cited_keys(section_id: str) -> set[str]:
    """The exact-index keys of ``section_id`` as cited: ``article-i`` → ``{"article 1", ...}``
    (the id's words as a citation), so "Article I" names the container ``article-i``."""
    from .index.exact import alias_keys

    keys = set(alias_keys(section_id)) | set(alias_keys(section_id.replace("-", " ").replace("/", " ")))
    if "/" in section_id:  # "chapter-iii/section-3" as cited: "Chapter III, Section 3"
        keys |= set(alias_keys(section_id.replace("-", " ").replace("/", ", ")))
    return keys


def cited_section(chunks: list[Chunk], cited: str) -> str | None:
    """The id of the section a cited form (``Section 4.2``, ``Art. 17(3)``, ``Appendix D.2``)
    names among ``chunks``: the section whose citation keys meet the form's most specific key,
    else the section a chain of units names (``Part V Division 1AA``, ``Exhibit B, Section 4``:
    :func:`_chained_section`), else the section of the first chunk whose aliases meet it (a chunk
    holds the aliases of every heading-only section it carries, so a chain is read first);
    ``None`` when none does."""
    from .index.exact import alias_keys
    from .structure.grammar import parse_citation

    keys = alias_keys(cited)
    ids = list(
        dict.fromkeys(
            sid
            for c in chunks
            for sid in [*reversed(c.metadata.get("ancestors", ())), c.section_id, *c.metadata.get("sections", ())]
        )
    )
    for key in keys:  # most specific key first: "section 2.1(b)", then "2.1(b)"
        named = [sid for sid in ids if key in cited_keys(sid)]
        if named:
            return named[0]
    # a chain of units ("Exhibit B, Section 4"): the section inside that container, never the first
    # section of the chunk whose aliases hold the qualified form (its heading-only section is the one cited)
    chained = _chained_section(chunks, ids, cited)
    if chained:
        return chained
    wanted = set(keys)
    starts = [c for c in chunks if wanted & {k for a in c.aliases for k in alias_keys(a)}]
    if not starts:
        return None
    held = [*starts[0].metadata.get("sections", ()), starts[0].section_id]
    found = next((sid for sid in held if wanted & cited_keys(sid)), None)
    if found is None and (c := parse_citation(cited)) is not None and not c.is_multiple:
        # "l'article 7" of an act numbering its articles bare: the chunk's aliases name it (grammar
        # provision_words), its id is the bare number ("7", not the "7(1)" the chunk opens with)
        bare = re.sub(r"\s+", "", c.unit.number) + "".join(f"({p})" for p in c.pinpoint)
        found = bare if bare in held else None
    return found or starts[0].section_id


def _chained_section(chunks: list[Chunk], ids: list[str], cited: str) -> str | None:
    """The section a chain of units names (``Part V Division 1AA``, ``Chapter II section 8``: the
    citation grammar's :func:`~docstrata.structure.grammar.parse_citation`): its qualified id
    (``part-v/division-1aa``) when the document has one, else the section cited by the last unit
    whose chunk's aliases cite it inside the container (``Part V, Division 1AA``); ``None`` for a
    single unit or a chain no section answers."""
    from .index.exact import alias_keys, qualified_alias_keys
    from .structure.grammar import citation_key, parse_citation

    c = parse_citation(cited)
    if c is None or len(c.chain) < 2:
        return None
    if (qualified := citation_key(c, qualified=True)) in ids:
        return qualified
    pins = "".join(f"({p})" for p in c.pinpoint)
    units = [f"{u.keyword} {u.number}".strip() for u in c.chain]
    inner = set(alias_keys(units[-1] + pins))
    wanted = {k for k in qualified_alias_keys(f"{units[-2]}, {units[-1]}{pins}") if k.startswith("in:")}
    for ch in chunks:
        if wanted & {k for a in ch.aliases for k in qualified_alias_keys(a)}:
            held = [*reversed(ch.metadata.get("ancestors", ())), *ch.metadata.get("sections", ()), ch.section_id]
            return next((sid for sid in held if inner & cited_keys(sid)), ch.section_id)
    return None


def common_section(chunks: list[Chunk]) -> tuple[str, list[str]]:
    """The section a ``get_section`` answer is, and its parent chain: the deepest section every
    chunk holds ("Section 4" gives chunks 4.1-4.3 that all hold 4, though the first chunk's own
    id is 4.1, whose chunk carries the heading-only section 4)."""

    def held(c: Chunk) -> list[str]:  # the chunk's sections, less sub-items of its own one ("article-17(3)")
        m = c.metadata
        own = [s for s in m.get("sections", []) if s == c.section_id or not s.startswith(c.section_id)]
        return list(dict.fromkeys([*reversed(m.get("ancestors", [])), *own, c.section_id]))

    first = chunks[0]
    common = set.intersection(*(set(held(c)) for c in chunks))
    sid = next((s for s in reversed(held(first)) if s in common), first.section_id)
    chain = list(first.parent_chain)
    path = [*reversed(first.metadata.get("ancestors", [])), first.section_id]
    if sid in path and len(path) == len(chain):
        chain = chain[: path.index(sid) + 1]
    return sid, chain


def _repeats_notice(chunks: list[Chunk], section_id: str) -> str:
    """A notice naming the sections of back matter (``exhibit-a/4``, ``schedule-1/4``: ids
    qualified by an appendix, schedule, annex or exhibit) that repeat the number of the main-body
    section ``section_id`` (``4``), which a bare number or citation names; ``""`` when none does."""
    from .structure.grammar import back_matter_prefixes

    if "/" in section_id:
        return ""
    back = back_matter_prefixes()
    repeats = list(
        dict.fromkeys(
            sid
            for c in chunks
            for sid in [*c.metadata.get("ancestors", ()), c.section_id, *c.metadata.get("sections", ())]
            if "/" in sid
            and sid.rsplit("/", 1)[1] == section_id
            and (m := re.match(r"^([a-z]+(?:-[a-z]+)*)-[0-9a-z]+/", sid))
            and m.group(1) in back
        )
    )
    if not repeats:
        return ""
    more = f", … ({len(repeats) - 8} more)" if len(repeats) > 8 else ""
    verb, which = ("repeats", "that id") if len(repeats) == 1 else ("repeat", "one of those ids")
    return (
        f"[{section_id} is the main body's; {', '.join(repeats[:8])}{more} {verb} its number in back matter "
        f"(an appendix, schedule or exhibit): ask for {which} to read it]"
    )


def section_chunks(chunks: list[Chunk], doc_key: str, section_id: str) -> tuple[list[Chunk], str, str]:
    """(chunks, section id, notice) of section ``section_id`` among ``chunks`` (those of ``doc_key``,
    in document order): the id as given, else the most specific section a cited form names
    (``Section 2.1(b)`` is ``2.1(b)``, not the ``2.1`` whose chunk holds it), else a unique
    heading title. A cited pinpoint that is not a section of its own (``Section 2.1(c)``) falls
    back to the nearest enclosing section that exists, one parenthesised part at a time, and
    ``notice`` says so (it is ``""`` when no fallback was needed); it also names the sections of an
    appendix, schedule or exhibit that repeat the number of a main-body section found
    (:func:`_repeats_notice`). A dotted number that does not
    exist (``Section 4.3.7``) never falls back to ``4.3``. Raises
    :class:`~docstrata.search.QueryError` when nothing matches, or when several sections are
    cited or titled alike (listing their ids)."""
    from .index.exact import alias_keys
    from .search import QueryError

    def holds(c: Chunk, sid: str) -> bool:
        meta = c.metadata
        return c.section_id == sid or sid in meta.get("sections", ()) or sid in meta.get("ancestors", ())

    asked = section_id.strip()
    found = [c for c in chunks if holds(c, asked)]
    if found:
        return found, asked, _repeats_notice(chunks, asked)
    if asked.lower() != asked and (found := [c for c in chunks if holds(c, asked.lower())]):
        return found, asked.lower(), _repeats_notice(chunks, asked.lower())
    ids = list(
        dict.fromkeys(
            sid
            for c in chunks
            for sid in [*reversed(c.metadata.get("ancestors", ())), c.section_id, *c.metadata.get("sections", ())]
        )
    )
    # Two containers cited alike ("Title I" of Division A and of Division B, ids qualified by their
    # container): ask, never pick the first — unless the main body has a section cited so itself
    # ("Section 4" of the body beside Exhibit A's and Exhibit B's 4): that one, with a notice.
    keys = set(alias_keys(asked))
    alike = [sid for sid in ids if "/" in sid and keys & cited_keys(sid.rsplit("/", 1)[1])]
    if len(alike) > 1 and not any("/" not in sid and keys & cited_keys(sid) for sid in ids):
        raise QueryError(
            f"{len(alike)} sections of {doc_key} are cited as {section_id!r}: "
            f"{', '.join(alike[:8])}; ask for one of these ids"
        )
    cited, notice = asked, ""
    while cited:
        target = cited_section(chunks, cited)
        if target:
            if cited != asked:
                notice = (
                    f"[no section {asked!r} in {doc_key}: showing {target}, the most specific "
                    f"section that exists; the pinpoint is inside its text]"
                )
            notice = " ".join(filter(None, [notice, _repeats_notice(chunks, target)]))
            return [c for c in chunks if holds(c, target)], target, notice
        shorter = re.sub(r"\s?\([A-Za-z0-9]{1,5}\)$", "", cited)  # "Section 2.1(c)" → "Section 2.1"
        cited = shorter if shorter != cited and re.search(r"\d|\b[A-Za-z]$", shorter) else ""
    titled = sections_titled(chunks, asked)  # a heading title ("Introduction"), when one section has it
    if len(titled) > 1:
        raise QueryError(
            f"{len(titled)} sections of {doc_key} are titled {section_id!r}: "
            f"{', '.join(titled[:8])}; ask for one of these ids"
        )
    found = [c for c in chunks if titled and holds(c, titled[0])]
    if not found:
        raise QueryError(f"no section {section_id!r} in {doc_key}{near_ids(section_id, ids)}")
    return found, titled[0], ""


def read_section(
    chunks: list[Chunk], doc_key: str, section_id: str | None, max_chars: int | None, cursor: str | None
) -> SectionPage:
    """One page (at most ``max_chars`` characters; ``None`` = no limit, from ``cursor``) of section
    ``section_id`` among ``chunks`` (all of ``doc_key``'s, in document order, non-empty), its
    subsections included; without ``section_id`` of the whole document. The section is found as
    :func:`section_chunks` finds it; a sub-item sharing its parent's chunk (``article-17(3)``)
    shows its own lines (:func:`~docstrata.pinpoint.certain_item`), with a notice when they cannot
    be told apart exactly. Raises :class:`~docstrata.search.QueryError` for an unknown section or a
    cursor not issued for this text."""
    from .models import page_range
    from .paging import make_cursor, page_end, read_cursor
    from .pinpoint import certain_item

    item, notice, item_notice = None, "", ""  # item: a sub-item sharing its parent's chunk ("article-17(3)")
    if section_id:
        chunks, sid_asked, notice = section_chunks(chunks, doc_key, section_id)
        if (
            len(chunks) == 1
            and sid_asked in chunks[0].metadata.get("sections", ())
            and sid_asked != chunks[0].section_id
        ):
            item = certain_item(chunks[0], sid_asked)
            if item[0] != sid_asked:
                item_notice = (
                    f"[the lines of {sid_asked} could not be told apart exactly in chunk "
                    f"{chunks[0].chunk_id}; showing {item[0]}, the smallest unit certain to hold it]"
                )
    starts, parts, pos = [], [], 0
    for c in chunks:
        part = c.content.strip()
        if item and item[1]:
            part = c.content[item[1][0] : item[1][1]].strip()
        starts.append(pos)
        parts.append(part)
        pos += len(part) + 2
    text = "\n\n".join(parts)
    notice = " ".join(filter(None, [notice, item_notice]))
    if notice:
        text = notice + "\n\n" + text
    scope = f"{doc_key}§{section_id.strip()}" if section_id else doc_key
    start = read_cursor(cursor, text, scope)
    end = page_end(text, start, max_chars)
    first = chunks[0]
    in_page = [c for c, a, part in zip(chunks, starts, parts) if a < end and a + len(part) > start] or [first]
    sid, chain = common_section(chunks) if section_id else ("", [])
    if item and item[1]:
        sid, chain = item[0], [*chain[: len(chain)], item[0]] if chain else [item[0]]
    title = (chain[-1] if chain else first.document_title) if section_id else (first.document_title or doc_key)
    location = " > ".join(chain) if section_id else title
    return SectionPage(
        document=doc_key,
        section_id=sid,
        title=title,
        location=location,
        content=text[start:end],
        chunk_ids=[c.chunk_id for c in in_page],
        offset=start,
        total_chars=len(text),
        next_cursor=make_cursor(end, text, scope) if end < len(text) else None,
        chunks=in_page,
        notice=notice,
        **page_range(in_page),
    )


def check_window(before: int, after: int) -> None:
    """Raise :class:`~docstrata.search.QueryError` unless ``before`` and ``after`` (chunks around a
    neighbours request) are both within 0–20."""
    from .search import QueryError

    for name, n in (("before", before), ("after", after)):
        if not 0 <= n <= 20:
            raise QueryError(f"{name} must be between 0 and 20, got {n}")


def neighbour_window(chunks: list[Chunk], chunk_id: str, before: int, after: int) -> list[Chunk]:
    """Chunk ``chunk_id`` of ``chunks`` (one document's, in order, holding it) with up to ``before``
    chunks before and ``after`` after it, in document order."""
    i = next(j for j, c in enumerate(chunks) if c.chunk_id == chunk_id)
    return chunks[max(0, i - before) : i + after + 1]
