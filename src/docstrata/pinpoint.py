"""Pinpoints: where a sub-item a citation names (``article-17(3)(b)``, ``5(a)(1)``) starts and
ends inside the chunk of its section, found exactly or not at all.

A chunk holds its own section and, in ``metadata["sections"]`` (document order), every sub-item
and later section whose text it carries. These functions find each one's lines by its label
(``b. |``, ``(b)``, ``3.``) searched only inside its parent item, or by the next Markdown heading
carrying its number; an item that cannot be told apart exactly is never guessed, and callers fall
back to the nearest enclosing item that can (:func:`certain_item`).
"""

from __future__ import annotations

import re

from .models import Chunk
from .section_lookup import cited_keys

_HEADING_LINE = re.compile(r"(?m)^#{1,6}\s")


def label_at(content: str, label: str, pos: int) -> int | None:
    """Where the line numbering item ``label`` ("3", "e", "iv") starts in ``content`` at or after
    ``pos`` ("3.   Paragraphs…", "\ta. | for…", "(3) The…"), or ``None``."""
    m = re.compile(rf"(?m)^[ \t>*-]*\(?{re.escape(label)}[.)](?=[\s|])").search(content, pos)
    return m.start() if m else None


def item_parent(sid: str) -> str | None:
    """``article-17(3)`` for ``article-17(3)(b)``; ``None`` when ``sid`` ends in no ``(label)``."""
    m = re.fullmatch(r"(.+?)\(([^()]+)\)", sid)
    return m.group(1) if m else None


def heading_of(content: str, section_id: str, pos: int) -> int | None:
    """Where the first Markdown heading line at or after ``pos`` that carries ``section_id``'s
    number (``18`` of ``article-18``, ``4.2``) starts; ``None`` for an id without a number."""
    nums = re.findall(r"\d+(?:\.\d+)*[a-z]?", section_id.rsplit("/", 1)[-1])
    if not nums:
        return None
    number = re.compile(rf"(?<![\w.]){re.escape(nums[-1])}(?![\w])", re.IGNORECASE)
    for m in _HEADING_LINE.finditer(content, pos):
        line_end = content.find("\n", m.start())
        if number.search(content, m.start(), len(content) if line_end < 0 else line_end):
            return m.start()
    return None


def item_starts(chunk: Chunk) -> dict[str, int]:
    """Where each section ``chunk`` holds starts in its content, for those that can be found
    exactly. The chunk's own section starts at 0. A parenthesised sub-item (``article-17(3)(b)``)
    is found by its label line (``b. |``, ``(b)``), searched only after where its parent item
    starts and after every earlier section of the chunk (``metadata["sections"]`` is in document
    order), so "17(3)(b)" is the "b." of paragraph 3, never the first "b." of the chunk (an item
    whose parent is not held, as in a chunk that continues a paragraph, after the last found). Another
    section the chunk holds (``article-18`` after the end of ``article-17``) starts at the next
    Markdown heading that carries its number. An item whose parent was not found, or whose label
    is not found, is left out: callers fall back to the nearest ancestor that was found."""
    held = list(chunk.metadata.get("sections", ()))
    content = chunk.content
    starts: dict[str, int] = {chunk.section_id: 0}
    pos = 0  # where the last located section starts: later sections start after it
    before_own = set(held[:held.index(chunk.section_id)]) if chunk.section_id in held else set()
    for h in held:
        if h in starts:
            continue
        parent = item_parent(h)
        if parent is not None:
            if parent in held and parent not in starts:
                continue  # its paragraph was not found: neither is it, for certain
            after = max(pos, starts.get(parent, 0))  # a parent the chunk does not hold began before it
            label = re.findall(r"\(([^()]+)\)", h)[-1]
            found = label_at(content, label, after + (1 if after or h != held[0] else 0))
        elif h in before_own:
            continue  # a heading-only ancestor carried into the chunk, above its own heading
        else:
            found = heading_of(content, h, pos + 1)
        if found is not None:
            starts[h] = pos = found
    return starts


def item_span(chunk: Chunk, sid: str) -> tuple[int, int] | None:
    """The span of sub-item ``sid`` ("article-17(3)(b)") inside ``chunk``'s content, from its
    label line to where the next section the chunk holds that is not inside it starts (see
    :func:`item_starts`); ``None`` when ``sid`` is not a section the chunk holds besides its own,
    or its label line cannot be found exactly (inside the right parent items)."""
    held = list(chunk.metadata.get("sections", ()))
    if sid not in held or sid == chunk.section_id:
        return None
    starts = item_starts(chunk)
    if sid not in starts:
        return None
    start, end = starts[sid], len(chunk.content)
    after = [starts[h] for h in held[held.index(sid) + 1:] if h in starts and not h.startswith(sid + "(")]
    later = [a for a in after if a > start]
    if later:
        end = min(later)
    else:  # the next section was not found: stop at the next heading, if any
        m = _HEADING_LINE.search(chunk.content, start + 1)
        end = m.start() if m else end
    return start, end


def certain_item(chunk: Chunk, sid: str) -> tuple[str, tuple[int, int] | None]:
    """``sid`` and its span in ``chunk`` when it can be found exactly, else the nearest enclosing
    item that can (``article-17(3)`` for an unfound ``article-17(3)(b)``), else the chunk's own
    section with ``None``."""
    cur: str | None = sid
    while cur and cur != chunk.section_id:
        span = item_span(chunk, cur)
        if span is not None:
            return cur, span
        cur = item_parent(cur)
    return chunk.section_id, None


def pinpoint_item(chunk: Chunk, key_lists: list[list[str]]) -> tuple[str, int] | None:
    """The sub-item of ``chunk`` a query's section references (``key_lists``, from
    :func:`~docstrata.index.exact.query_section_keys`) name, and where its lines start in
    ``chunk.content``: ``("5(a)(1)", 812)`` for "section 5(a)(1)" on the chunk of section 5.
    The most specific key of each reference first; an item whose lines cannot be told apart
    exactly gives the nearest enclosing item that can (:func:`certain_item`). ``None`` when the
    query names no section the chunk holds besides its own, or none can be located."""
    held = [s for s in chunk.metadata.get("sections", ()) if s != chunk.section_id]
    if not held or not key_lists:
        return None
    cited = {s: cited_keys(s) for s in held}
    for keys in key_lists:
        for key in keys:
            named = [s for s in held if key in cited[s]]
            if named:
                sid, span = certain_item(chunk, named[0])
                return (sid, span[0]) if span is not None else None
    return None
