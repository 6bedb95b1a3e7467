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

from .models import Chunk, Pinpoint
from .section_lookup import cited_keys
from .structure.grammar import keyword, roman_to_int

_HEADING_LINE = re.compile(r"(?m)^#{1,6}\s")


def label_at(content: str, label: str, pos: int) -> int | None:
    """Where the line numbering item ``label`` ("3", "e", "iv") starts in ``content`` at or after
    ``pos`` ("3.   Paragraphs…", "\ta. | for…", "(3) The…", or a Markdown heading "### (b)" or
    "### b. …": a Word limb styled as a heading), or ``None``."""
    m = re.compile(rf"(?m)^[ \t>*-]*(?:#{{1,6}}[ \t]+)?\(?{re.escape(label)}[.)](?=[\s|]|$)").search(content, pos)
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
    Markdown heading that carries its number, or, for a dotted number under one found (``2.2``
    under ``2``), at the next list label of its last number (``    2. Suspension.``). An item whose
    parent was not found, or whose label is not found, is left out: callers fall back to the
    nearest ancestor that was found."""
    held = list(chunk.metadata.get("sections", ()))
    content = chunk.content
    starts: dict[str, int] = {chunk.section_id: 0}
    pos = 0  # where the last located section starts: later sections start after it
    before_own = set(held[: held.index(chunk.section_id)]) if chunk.section_id in held else set()
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
            head, dot, last = h.rpartition(".")
            if found is None and dot and head in starts and last.isdigit():
                # a numbered list item, not a heading: "2.2" written "    2. Suspension." under section 2
                found = label_at(content, last, max(pos, starts[head]) + 1)
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
    after = [starts[h] for h in held[held.index(sid) + 1 :] if h in starts and not h.startswith(sid + "(")]
    later = [a for a in after if a > start]
    if later:
        end = min(later)
    else:  # the next section was not found: stop at the next heading, if any
        m = _HEADING_LINE.search(chunk.content, start + 1)
        end = m.start() if m else end
    return start, end


def section_at(chunk: Chunk, pos: int) -> str:
    """The deepest section of ``chunk`` whose text holds character ``pos`` of its content: of the
    sections the chunk holds that can be found exactly (:func:`item_starts`), the one starting
    last at or before ``pos`` (a sub-item starts after its parent, so the last start is the
    deepest); the chunk's own section when none is found before ``pos``."""
    best, at = chunk.section_id, -1
    for sid, start in item_starts(chunk).items():
        if at < start <= pos or (start == at and len(sid) > len(best)):
            best, at = sid, start
    return best


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


_CHAPEAU_ENDS = (":", "—", "–", "-")  # a paragraph ending so introduces the items below it
_CHAPEAU_CHARS = 400


def _line_at(content: str, at: int, stop: int) -> str:
    end = content.find("\n", at)
    return content[at : stop if end < 0 else min(end, stop)].strip()


def _chapeau(content: str, first_item: int) -> str:
    """The paragraph just above the chunk's first item when it introduces a list ("For the
    purposes of this Act—", "… where one of the following applies:"): the last paragraph of body
    text before ``first_item``, at most 400 characters, ending in ``:`` or a dash; else ``""``."""
    paras = [p.strip() for p in re.split(r"\n\s*\n", content[:first_item])]
    body = [p for p in paras if p and not _HEADING_LINE.match(p)]
    last = body[-1] if body else ""
    return last if last.endswith(_CHAPEAU_ENDS) and len(last) <= _CHAPEAU_CHARS and "\n" not in last else ""


def lead_lines(chunk: Chunk, sid: str, start: int) -> list[str]:
    """The lead-in of each unit enclosing ``sid`` inside ``chunk``, outermost first, up to where
    ``sid``'s own lines start (``start``): the label line of each enclosing item — for
    ``article-17(3)(b)`` paragraph 3's "3. Paragraphs 1 and 2 shall not apply to the extent that
    processing is necessary:" —, the chunk's own section included when it is an item itself
    (``article-83(5)`` in a chunk that begins with paragraph 5); when the chunk's own section is
    not an item, the paragraph above its first item if that introduces a list ("For the purposes
    of this Act—"). Only lines found exactly (:func:`item_starts`, the own item's label before
    every other item of the chunk) are given."""
    starts = item_starts(chunk)
    content = chunk.content
    first_item = min((at for h, at in starts.items() if h != chunk.section_id), default=start)
    out: list[str] = []
    cur = item_parent(sid)
    while cur and cur != chunk.section_id:
        at = starts.get(cur)
        if at is not None and at < start and (line := _line_at(content, at, start)):
            out.append(line)
        cur = item_parent(cur)
    if cur == chunk.section_id:
        own_parent = item_parent(cur)
        if own_parent is not None:  # the chunk's own section is an item: its label line, above its sub-items
            at = label_at(content, re.findall(r"\(([^()]+)\)", cur)[-1], 0)
            if at is not None and at < min(first_item, start) and (line := _line_at(content, at, start)):
                out.append(line)
        elif intro := _chapeau(content, min(first_item, start)):
            out.append(intro)
    return out[::-1]


# an item label run into a paragraph's text: "(a)", "(ii)", "(3)" after a space, colon, semicolon or dash
_INLINE_LABEL = re.compile(r"(?<=[\s:;—–])\(([a-z]{1,4}|\d{1,2})\)(?=\s)")
# where a run-in item list's last item ends: the end of its sentence (a full stop, then a capital)
_SENTENCE_END = re.compile(r"[.!?](?=\s+[\"“(]?[A-Z])")


_MIN_ITEM_WORDS = 3  # an item holds more words than its label and two more ("(a) and (b)" is a citation)


def _cites(before: str) -> bool:
    """``before`` ends with a citation word (``paragraph``, ``subsection``, ``Section 5``), so the
    label after it is cited, not an item."""
    words = before.split()[-2:]
    if len(words) == 2 and words[1][:1].isdigit():
        words = words[:1]  # "Section 5 (a)": the word before the number
    k = keyword(words[-1]) if words else None
    return k is not None and "cite" in k.roles


def _item_values(label: str) -> list[tuple[str, int]]:
    """The (style, ordinal) readings of an item label: ``b`` → letter 2, ``ii`` → roman 2, ``i`` →
    letter 9 or roman 1, ``3`` → digit 3."""
    if label.isdigit():
        return [("digit", int(label))]
    out = []
    if len(label) == 1:
        out.append(("letter", ord(label) - ord("a") + 1))
    elif len(set(label)) == 1:
        out.append(("letter", 26 * (len(label) - 1) + ord(label[0]) - ord("a") + 1))  # "aa": the 27th
    roman = roman_to_int(label, strict=True)
    if roman is not None:
        out.append(("roman", roman))
    return out


def inline_items(text: str) -> list[tuple[str, int, int]]:
    """The enumerated items a paragraph runs into its text, as ``(label, start, end)`` offsets into
    ``text`` (``… Contractor will (a) only use Confidential Information …; and (b) not disclose
    Confidential Information to anyone else. In addition, …`` → ``("a", …)``, ``("b", …)``). A
    series opens with its first label (``(a)``, ``(i)``, ``(1)``) and runs through the labels that
    follow it in order in the same style, two at least; an item ends where the next of its series
    starts, the last where its sentence ends (a full stop then a capital) or the paragraph does.
    Items of a series nested inside an item (``(c) … (i) … (ii)``) are listed too, after it."""
    labels = [(m.group(1), m.start()) for m in _INLINE_LABEL.finditer(text)]
    out: list[tuple[str, int, int, int]] = []  # label, start, end, where its series opens
    used: set[int] = set()
    for k, (label, at) in enumerate(labels):
        if k in used:
            continue
        for style, value in _item_values(label):
            if value != 1:
                continue
            chain, want = [k], 2
            for j in range(k + 1, len(labels)):
                if j not in used and (style, want) in _item_values(labels[j][0]):
                    chain.append(j)
                    want += 1
            if len(chain) < 2 or _cites(text[:at]):
                continue
            last = labels[chain[-1]][1]
            stop = _SENTENCE_END.search(text, last)
            ends = [labels[j][1] for j in chain[1:]] + [stop.start() + 1 if stop else len(text)]
            if any(len(text[labels[j][1] : end].split()) <= _MIN_ITEM_WORDS for j, end in zip(chain, ends)):
                continue  # "paragraphs (a) and (b)": labels a sentence cites, not items it enumerates
            for j, end in zip(chain, ends):
                out.append((labels[j][0], labels[j][1], end, at))
            used.update(chain)
            break
    items = []
    for label, start, end, opens in out:  # a nested item ends where the next item of a series around it starts
        around = [s for _, s, _, o in out if o < opens and s > start]
        items.append((label, start, min([end, *around])))
    return sorted(items, key=lambda item: item[1])


def _inline_pinpoint(chunk: Chunk, key: str, starts: dict[str, int]) -> Pinpoint | None:
    """The run-in item ``key`` names (``5.1(b)``) when it is no section of its own but an item of
    the text of a section ``chunk`` holds (``5.1``'s paragraph ``… will (a) …; and (b) …``:
    :func:`inline_items`), as a pinpoint whose id is the parent's with the item's label and whose
    lead is the paragraph's text before its first item; ``None`` otherwise."""
    key = key.strip().lower()
    wanted = item_parent(key)
    if wanted is None:
        return None
    label = key[len(wanted) + 1 : -1]
    parent = next((s for s in starts if wanted in cited_keys(s)), None)
    if parent is None:
        return None
    content = chunk.content
    begin = starts[parent]
    end = min((at for at in starts.values() if at > begin), default=len(content))
    for at, para in _paragraphs(content, begin, end):
        items = inline_items(para)
        hit = next((it for it in items if it[0] == label), None)
        if hit is None:
            continue
        start, stop = at + hit[1], at + hit[2]
        lead = para[: items[0][1]].strip()  # as the content holds it: a pinpoint's view finds it there
        return Pinpoint(f"{parent}({label})", start, stop, content[start:stop].strip(), [lead] if lead else [])
    return None


def _paragraphs(content: str, begin: int, end: int) -> list[tuple[int, str]]:
    """``(offset, text)`` of each paragraph (lines between blank lines) of ``content[begin:end]``."""
    out: list[tuple[int, str]] = []
    start = None
    pos = begin
    for line in content[begin:end].splitlines(keepends=True):
        if line.strip() and start is None:
            start = pos
        elif not line.strip() and start is not None:
            out.append((start, content[start:pos].rstrip("\n")))
            start = None
        pos += len(line)
    if start is not None:
        out.append((start, content[start:end].rstrip("\n")))
    return out


def locate_pinpoint(chunk: Chunk, key_lists: list[list[str]]) -> Pinpoint | None:
    """The sub-item of ``chunk`` a query's section references (``key_lists``, from
    :func:`~docstrata.index.exact.query_section_keys`) name, as a :class:`~docstrata.models.Pinpoint`
    (its id, its span in ``chunk.content``, the span's text and the lead-in lines of its enclosing
    items): ``5(a)(1)`` for "section 5(a)(1)" on the chunk of section 5. The most specific key of
    each reference first; an item whose lines cannot be told apart exactly gives the nearest
    enclosing item that can (:func:`certain_item`). ``None`` when the query names no section the
    chunk holds besides its own, or none can be located."""
    held = [s for s in chunk.metadata.get("sections", ()) if s != chunk.section_id]
    if not key_lists:
        return None
    cited = {s: cited_keys(s) for s in held}
    for keys in key_lists:
        for key in keys:
            named = [s for s in held if key in cited[s]]
            if named:
                sid, span = certain_item(chunk, named[0])
                if span is None:
                    return None
                start, end = span
                return Pinpoint(sid, start, end, chunk.content[start:end].strip(), lead_lines(chunk, sid, start))
            if "(" in key and (inline := _inline_pinpoint(chunk, key, item_starts(chunk))):
                return inline  # an item run into its section's paragraph, no section of its own
    return None
