"""Margin notes of a statute PDF for ``convert``: the section titles printed in a narrow side column
beside the section numbers (Sri Lankan Acts, older Indian and Commonwealth Acts)::

    2. Subject to the provisions of section 3 of this Act and    Institution of
    Chapter VA of the Judicature Act, and any pecuniary or …     actions

pdfminer lays the note out as a text box of its own beside the body's box, and the two read as the
cells of a table row (``pdf_tables``): the whole Act became Markdown tables. A note is the title of
the provision it stands beside, never a table cell, so :func:`margin_notes` takes each such note
out of the side column and sets it, as one line, right before the body line it is aligned with.
There it is a heading over a line that opens with the section number, the layout the shoulder
notes of the Commonwealth reprints (a bold note over ``10. (1) …``) already have, and the structure
stage reads the pair as one numbered section titled by the note
(:mod:`docstrata.structure.parse.notes`). See ``docs/architecture.md`` ("Where structure
knowledge lives").

The same side column may hold line numbers instead (:func:`margin_line_numbers`): Bills of the UK
and Scottish Parliaments print ``5``, ``10``, ``15`` … beside every fifth line, pleadings and US
Bills ``1`` … ``28`` beside every line, afresh on each page. They count the page's lines, not the
document's provisions, so they are dropped before anything reads the page: joined to the body line
beside them they made ``37  15 Commencement`` of a section heading and ``5 PART 1`` of a Part.

The evidence is the layout, not the notes' wording: a box of short lines lying wholly beside the
main text column, its first line on the row of a body line that opens with a section number
(``2. Subject …``, ``13. (1) When …``), in a document where at least three notes do so.
"""

from __future__ import annotations

import re
from collections import Counter

from ..structure.grammar import PROVISION_NUMBER, PROVISION_OPENS
from .pdf_layout import _PdfLine, _placed_after, _vertical_overlap

# "2. Subject to …", "13. (1) When …", "24A. Where …", "1.—(1) A person …" (grammar.PROVISION_OPENS), a bare
# "5." (its text in a box of its own): a section number opening a body line
_SECTION_OPENS = re.compile(rf"^(?:{PROVISION_OPENS}|{PROVISION_NUMBER}\.$)")
_MAX_NOTE_LINES = 12  # "Where a party to the action requests for commissions, reports, …": eight lines
_MAX_NOTE_WORDS = 40
_MIN_NOTES = 3  # a series of notes, not one side remark beside a numbered paragraph


def margin_notes(lines: list[_PdfLine]) -> list[_PdfLine]:
    """``lines`` with each margin note (see the module docstring) joined into one line (its top
    line, row by row, hyphenated words rejoined) flagged ``margin`` and moved right before the body
    line it stands beside; ``lines`` unchanged when the document has fewer than three such notes.
    The pieces pdfminer cut a note into join it (:func:`_pieces`).

    A note is a text box of at most twelve lines and forty words, none turned, a heading or a
    page footnote, whose first line shares its row (half its height) with a line of another box
    that opens with a section number, set in another style than that line (a smaller size or
    another face: a table's cells share one) — once three such notes are found, a note in their
    style beside text in that style too (a Schedule set as small as the notes); the note lies
    wholly to the left or right of that line's box
    (a side column, not an indented line of the body), is at most half as wide as the text on
    that side of it (the body's column), nothing
    stands on the row's far side of that box, and no longer line of the page reaches into the
    note's column beside it: a table's
    narrow first column ("Person" beside "1. A copy of …" and "That person himself") has cells
    beyond, or the table's other rows under it."""
    boxes: dict[int, list[_PdfLine]] = {}
    for line in lines:
        if line.text.strip():
            boxes.setdefault(line.box, []).append(line)
    by_page: dict[int, list[_PdfLine]] = {}
    for line in lines:
        if line.text.strip() and not line.turned:
            by_page.setdefault(line.page, []).append(line)
    found: dict[int, _PdfLine] = {}  # box id of a note -> the body line it is set before
    for box_id, box in boxes.items():
        target = _noted_line(box, boxes, by_page.get(box[0].page, []), frozenset())
        if target is not None:
            found[box_id] = target
    if len(found) < _MIN_NOTES:
        return lines
    # the notes' own face is the document's: a Schedule set as small as its notes has notes too
    faces = frozenset(boxes[box_id][0].style for box_id in found)
    for box_id, box in boxes.items():
        if box_id not in found and box[0].style in faces:
            target = _noted_line(box, boxes, by_page.get(box[0].page, []), faces)
            if target is not None:
                found[box_id] = target
    notes: dict[int, list[_PdfLine]] = {}  # id of the body line -> the lines of its note
    for box_id, target in found.items():
        notes.setdefault(id(target), []).extend(boxes[box_id])
    taken = set(found)
    for note in notes.values():
        note.extend(_pieces(note, boxes, taken))
    heads: dict[int, _PdfLine] = {}
    for target_id, note in notes.items():
        first = max(note, key=lambda line: (line.y1, -line.x0))
        first.text = _joined(note)
        first.x0, first.x1 = min(line.x0 for line in note), max(line.x1 for line in note)
        first.y0 = min(line.y0 for line in note)
        first.chars = sum(line.chars for line in note)
        first.margin = True
        heads[target_id] = first
    asides = _asides(boxes, found, taken, by_page)
    out: list[_PdfLine] = []
    for line in lines:
        if line.box in taken:
            continue
        if id(line) in heads:
            out.append(heads[id(line)])
        out.append(line)
    return _set_asides(out, asides, boxes)


def _asides(
    boxes: dict[int, list[_PdfLine]], found: dict[int, _PdfLine], taken: set[int], by_page: dict[int, list[_PdfLine]]
) -> dict[int, _PdfLine]:
    """The other boxes of the notes' side column (box id -> the body line on their row, or the
    nearest one), flagged ``aside``: a box not taken by a note, of at most twelve lines, all in a
    face of the document's notes, lying wholly beside the page's text in the style of the lines
    the notes stand beside, across from a note's column on the same side. A UK Act's print sets the
    chapter number of each Act it cites so, level with the citation (``1971 c. 48.`` beside ``… the
    Criminal Damage Act 1971 …``): it titles nothing, and read beside the body lines it made the
    cells of table rows, one of them holding section 8."""
    faces = {boxes[box_id][0].style for box_id in found}
    body_styles = {target.style for target in found.values()}
    columns = []  # (page side: the note right of its line, note x0, note x1)
    for box_id, target in found.items():
        x0, x1 = min(ln.x0 for ln in boxes[box_id]), max(ln.x1 for ln in boxes[box_id])
        columns.append((x0 >= target.x1 - 1, x0, x1))
    out: dict[int, _PdfLine] = {}
    for box_id, box in boxes.items():
        if box_id in taken or len(box) > _MAX_NOTE_LINES:
            continue
        if any(ln.style not in faces or ln.turned or ln.level or ln.note or ln.margin for ln in box):
            continue
        body = [ln for ln in by_page.get(box[0].page, []) if ln.style in body_styles and ln.box != box_id]
        if not body:
            continue
        x0, x1 = min(ln.x0 for ln in box), max(ln.x1 for ln in box)
        right = x0 >= max(ln.x1 for ln in body) - 1
        if not right and x1 > min(ln.x0 for ln in body) + 1:
            continue  # in the text's column, not beside it
        if not any(side == right and c0 < x1 and c1 > x0 for side, c0, c1 in columns):
            continue
        first = max(box, key=lambda ln: ln.y1)
        out[box_id] = min(body, key=lambda ln: abs((ln.y0 + ln.y1) / 2 - (first.y0 + first.y1) / 2))
    return out


def _set_asides(lines: list[_PdfLine], asides: dict[int, _PdfLine], boxes: dict[int, list[_PdfLine]]) -> list[_PdfLine]:
    """``lines`` with the boxes of ``asides`` (box id -> the body line beside them) flagged
    ``aside`` and moved after the last line of the box holding that body line: a paragraph of
    their own after the text they stand beside, never inside its sentence."""
    if not asides:
        return lines
    after: dict[int, list[_PdfLine]] = {}  # box of the body line -> the asides set after it
    for box_id, beside in asides.items():
        for line in boxes[box_id]:
            line.aside = True
        after.setdefault(beside.box, []).extend(boxes[box_id])
    return _placed_after([line for line in lines if line.box not in asides], after)


def _pieces(note: list[_PdfLine], boxes: dict[int, list[_PdfLine]], taken: set[int]) -> list[_PdfLine]:
    """Lines of the boxes that carry on the margin note ``note`` (boxes ``taken`` by notes
    excluded; the ones returned are added to ``taken``): pdfminer may cut one note into several
    boxes, a word set apart on its row (``Fund of`` | ``the`` / ``Commission``) or the lines below
    a gap. A piece is a box of short lines on the note's page, beside the note on one of its rows
    (within two type sizes) or directly under it (within one and a half lines), in the note's
    column (overlapping its span across, or touching it)."""
    out: list[_PdfLine] = []
    grown = True
    while grown:
        grown = False
        every = note + out
        page, size = every[0].page, max(line.size for line in every)
        x0, x1 = min(line.x0 for line in every), max(line.x1 for line in every)
        bottom = min(line.y0 for line in every)
        for box_id, box in boxes.items():
            if box_id in taken or box[0].page != page or len(box) > _MAX_NOTE_LINES:
                continue
            if any(line.turned or line.level or line.note or line.size > size + 0.5 for line in box):
                continue
            bx0, bx1 = min(line.x0 for line in box), max(line.x1 for line in box)
            btop = max(line.y1 for line in box)
            across = bx0 < x1 + 2 * size and bx1 > x0 - 2 * size and bx1 - bx0 <= 1.5 * (x1 - x0)
            beside = any(_vertical_overlap(line, other) > 0.5 for line in box for other in every)
            under = bx0 < x1 and bx1 > x0 and 0 <= bottom - btop < 1.5 * size
            if across and (beside or under) and not _SECTION_OPENS.match(box[0].text.strip()):
                out.extend(box)
                taken.add(box_id)
                grown = True
                break
    return out


def _noted_line(
    box: list[_PdfLine], boxes: dict[int, list[_PdfLine]], page: list[_PdfLine], faces: frozenset
) -> _PdfLine | None:
    """The body line the box ``box`` is the margin note of, or ``None`` (see :func:`margin_notes`);
    ``faces``: the styles a note may share with the line it stands beside (the document's notes')."""
    first = box[0]
    if len(box) > _MAX_NOTE_LINES or any(line.turned or line.level or line.note for line in box):
        return None
    text = _joined(box)
    if not re.search(r"[^\W\d_]{2}", text) or len(text.split()) > _MAX_NOTE_WORDS or _SECTION_OPENS.match(text):
        return None
    x0, x1 = min(line.x0 for line in box), max(line.x1 for line in box)
    row = [
        line
        for line in page
        if line.box != first.box and _vertical_overlap(first, line) > 0.5 and _SECTION_OPENS.match(line.text.strip())
    ]
    for line in row:
        if line.style == first.style and first.style not in faces:
            continue  # set like the text beside it: a table's cell ("Informative" beside "2. Introduction")
        body = boxes[line.box]
        bx0, bx1 = min(ln.x0 for ln in body), max(ln.x1 for ln in body)
        if not (x1 <= bx0 + 1 or x0 >= bx1 - 1):
            continue  # not beside the body's box: a line of the same column
        right = x1 <= bx0 + 1  # the body stands right of the note
        column = [ln for ln in page if (ln.x0 >= x1 - 1 if right else ln.x1 <= x0 + 1)]
        if x1 - x0 > 0.5 * (max(ln.x1 for ln in column) - min(ln.x0 for ln in column)):
            continue  # as wide as the body's column: a second text column, not a note
        if any(
            other.box not in (first.box, line.box)
            and _vertical_overlap(line, other) > 0.5
            and (other.x0 >= bx1 - 1 if right else other.x1 <= bx0 + 1)
            and not _rest_of_line(line, other, right)
            for other in page
        ):
            continue  # a cell on the row's far side as well: a table's row ("Person" | "1. A copy …" | …)
        top, bottom = max(ln.y1 for ln in box), min(ln.y0 for ln in box)
        if any(
            other.box != first.box
            and other.x0 < x1 - 1
            and other.x1 > x0 + 1
            and other.x1 - other.x0 > 1.5 * (x1 - x0)
            and other.y1 > bottom - 2 * first.size
            and other.y0 < top + 2 * first.size
            for other in page
        ):
            continue  # a longer line reaches into the note's column next to it: no side column
        return line
    return None


def _rest_of_line(line: _PdfLine, other: _PdfLine, right: bool) -> bool:
    """``other``, on the row of the body line ``line``, is the rest of that line which pdfminer set
    in a box of its own (``5.—(1) The following provisions of`` | ``this section apply for the``,
    a justified line's wide word space): in its style, on the side away from the note (``right``:
    the body stands right of the note), less than its type size after it."""
    gap = other.x0 - line.x1 if right else line.x0 - other.x1
    return other.style == line.style and -1 < gap < line.size


def _joined(lines: list[_PdfLine]) -> str:
    """A note's lines as one line, row by row from the top (the parts of one row left to right), a
    word hyphenated across a line break rejoined."""
    rows: list[list[_PdfLine]] = []
    for line in sorted(lines, key=lambda line: -line.y1):
        row = next((row for row in rows if _vertical_overlap(row[0], line) > 0.5), None)
        if row is None:
            rows.append([line])
        else:
            row.append(line)
    text = ""
    for row in rows:
        part = " ".join(" ".join(line.text.split()) for line in sorted(row, key=lambda line: line.x0))
        if re.search(r"[^\W\d_]-$", text) and part[:1].islower():
            text = text[:-1] + part
        else:
            text = f"{text} {part}" if text else part
    return text


_LINE_NUMBER = re.compile(r"^[1-9]\d{0,2}$")
_MIN_COLUMN = 3  # numbers on one page that make a column by themselves
_MIN_PAGES = 2  # pages with such a column: the document numbers its lines, not one list of a page


def margin_line_numbers(lines: list[_PdfLine]) -> list[_PdfLine]:
    """``lines`` less the line numbers printed in a page margin (module docstring).

    A page's line numbers are bare integers (up to three digits), upright, in one style (size and
    face), aligned on their left or their right edges (within 3 pt: ``9`` over ``10``), lying
    wholly outside the page's other text, half their size or more (left of its leftmost line or
    right of its rightmost, the outermost rows at the top and bottom aside: a court's filing stamp
    runs across the page top), at least three of them, counting up down the page by a fixed
    step — every difference a multiple of the step, the smallest difference between neighbours —
    and starting afresh: the first is at most twice the step. A column of clause or contents
    numbers beside their titles stands at the text's own left edge, or counts on from the page
    before, and is kept. The document must show such a column on two pages or more, with one step,
    style, side and alignment; then on every page the numbers in that style at that edge, outside
    the text, counting up in that step from at most twice it (a short last page's lone ``5``) are
    dropped too.
    """
    by_page: dict[int, list[_PdfLine]] = {}
    for line in lines:
        if line.text.strip() and not line.turned:
            by_page.setdefault(line.page, []).append(line)
    columns = {}  # page -> (step, style, side, aligned edge, edge x)
    for page, page_lines in by_page.items():
        found = _page_column(page_lines)
        if found is not None:
            columns[page] = found
    if len(columns) < _MIN_PAGES:
        return lines
    kinds = Counter(found[:4] for found in columns.values())
    kind, pages = kinds.most_common(1)[0]
    if pages < _MIN_PAGES:
        return lines
    step, style, side, align = kind
    edges = sorted(found[4] for found in columns.values() if found[:4] == kind)
    edge = edges[len(edges) // 2]
    doomed: set[int] = set()
    for page_lines in by_page.values():
        candidates = [
            line
            for line in page_lines
            if _LINE_NUMBER.match(line.text.strip())
            and line.style == style
            and abs((line.x0 if align == "x0" else line.x1) - edge) <= 3
        ]
        column = _outside(candidates, page_lines, side)
        if column and _counts(column, step):
            doomed.update(id(line) for line in column)
    return [line for line in lines if id(line) not in doomed] if doomed else lines


def _page_column(page_lines: list[_PdfLine]):
    """``(step, style, side, aligned edge, edge x)`` of the page's column of line numbers, or
    ``None`` (see :func:`margin_line_numbers`): ``side`` ``left`` or ``right`` of the text, the
    numbers aligned on their ``x0`` or ``x1`` edge at ``edge x`` (the median)."""
    numbers = [line for line in page_lines if _LINE_NUMBER.match(line.text.strip())]
    if len(numbers) < _MIN_COLUMN:
        return None
    by_style: dict[tuple[float, str], list[_PdfLine]] = {}
    for line in numbers:
        by_style.setdefault(line.style, []).append(line)
    found = []  # (numbers, the column's description)
    for style, group in by_style.items():
        for align in ("x0", "x1"):
            for column in _aligned(group, align):
                values = [int(line.text) for line in sorted(column, key=lambda line: -line.y1)]
                diffs = [b - a for a, b in zip(values, values[1:])]
                if any(d <= 0 for d in diffs) or not _counts(column, min(diffs)):
                    continue
                for side in ("left", "right"):
                    if _outside(column, page_lines, side):
                        xs = sorted(getattr(line, align) for line in column)
                        found.append((len(column), (min(diffs), style, side, align, xs[len(xs) // 2])))
    # the longest column: "1" … "28" set flush right, not "1" … "9" that share their left edge
    return max(found, key=lambda item: item[0])[1] if found else None


def _aligned(numbers: list[_PdfLine], align: str) -> list[list[_PdfLine]]:
    """The ``numbers`` in groups of at least three whose ``align`` edge (``x0`` or ``x1``) lies
    within 3 pt of the group's first: the columns they may form (a folio or a clause number
    elsewhere on the page stands apart)."""
    groups: list[list[_PdfLine]] = []
    for line in sorted(numbers, key=lambda line: getattr(line, align)):
        if groups and getattr(line, align) - getattr(groups[-1][0], align) <= 3:
            groups[-1].append(line)
        else:
            groups.append([line])
    return [group for group in groups if len(group) >= _MIN_COLUMN]


def _outside(candidates: list[_PdfLine], page_lines: list[_PdfLine], side: str) -> list[_PdfLine]:
    """The ``candidates`` when they lie wholly outside the page's other text on ``side``: every one
    ends (``left``) half its type size or more before the leftmost other line starts, or starts
    (``right``) as far after the rightmost other line ends; ``[]`` when some candidate does not
    (the numbers then stand in the text: a table's row numbers, a contents page's chapter
    numbers). The page's outermost row at the top and at the bottom is left out of the other
    text: a court's filing stamp runs across the top of the page, over the margin too."""
    if not candidates:
        return []
    own = {id(line) for line in candidates}
    rest = [line for line in page_lines if id(line) not in own]
    rows = sorted({round(line.y1) for line in rest})
    edge = {rows[0], rows[-1]} if len(rows) > 2 else set()
    others = [line for line in rest if round(line.y1) not in edge]
    if not others:
        return []
    gap = max(line.size for line in candidates) / 2  # a margin apart, not the next word of a line
    if side == "left":
        inside = min(line.x0 for line in others)
        return candidates if all(line.x1 < inside - gap for line in candidates) else []
    inside = max(line.x1 for line in others)
    return candidates if all(line.x0 > inside + gap for line in candidates) else []


def _counts(column: list[_PdfLine], step: int) -> bool:
    """The column's numbers, top to bottom, count up in multiples of ``step`` starting at most
    twice ``step`` (a page's own count, not a list running on from the page before)."""
    values = [int(line.text) for line in sorted(column, key=lambda line: -line.y1)]
    if step < 1 or values[0] > 2 * step:
        return False
    return all(b > a and (b - a) % step == 0 for a, b in zip(values, values[1:]))
