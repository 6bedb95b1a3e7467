"""PDF layout for ``convert``: pdfminer.six pages → :class:`_PdfLine` text lines with their style,
plus the PDF outline and metadata title, and the line geometry/style helpers the PDF stages share."""

from __future__ import annotations

import copy
import io
import math
import re
from collections import Counter
from dataclasses import dataclass, replace

from ..errors import ConversionError
from ..progress import page_done
from .run_in import TITLE_CLOSE, emphasis_title

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|[-,]bd\b", re.IGNORECASE)


@dataclass
class _PdfLine:
    """One text line of a PDF page as laid out by pdfminer (coordinates in PDF points)."""

    page: int
    box: int
    text: str
    size: float  # dominant font size, rounded to 0.5 pt
    font: str  # dominant font name without the subset prefix ("ABCDEE+")
    x0: float
    x1: float
    y0: float
    y1: float
    chars: int
    level: int = 0  # heading level once classified, 0 = body text
    turned: bool = False  # set at an angle (a margin note printed up the page): coordinates in its own frame
    cell: bool = False  # in a table cell (``pdf_tables``): never a heading
    under_rule: bool = False  # below a page's note rule (:func:`_note_rule`): a page footnote if set smaller
    note: bool = False  # a page footnote (``pdf_notes``): rendered as ``[^n]: …``, never structure
    margin: bool = False  # a margin note (``pdf_margins``): the title of the provision beside it, a heading
    aside: bool = False  # a side note titling nothing (``pdf_margins``: a marginal citation): text, never a cell
    run_in: str = ""  # a bold title run in after its clause number, letters only (:func:`_run_in_title`)
    # (the line's part in its own type, the run in smaller type set apart at its end or start) that
    # pdfminer joined across a column gap, as :func:`_side_runs` may cut them apart; None for most lines
    split: tuple[_PdfLine, _PdfLine] | None = None

    @property
    def style(self) -> tuple[float, str]:
        return (self.size, self.font)

    @property
    def bold(self) -> bool:
        return bool(_BOLD_FONT.search(self.font))


def _pdf_layout(data: bytes, doc_key: str):
    """Lay out every page with pdfminer; return lines, outline, metadata title, page counts."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LAParams, LTChar, LTCurve, LTFigure, LTTextBox
    from pdfminer.pdfdocument import PDFDocument, PDFPasswordIncorrect
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser

    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)))
    except PDFPasswordIncorrect:
        raise ConversionError(doc_key, "encrypted PDF: a password is required") from None
    if not document.is_extractable:
        raise ConversionError(doc_key, "PDF forbids text extraction (permissions set by its author)")

    class _UprightAggregator(PDFPageAggregator):
        """Lays out upright characters as pdfminer does and characters set at an angle apart:
        pdfminer groups by page coordinates, so a margin note printed up the page would leave one
        box per letter and join its letters and digits to the body lines beside it."""

        turned_boxes: list | tuple = ()  # the last page's boxes of turned text

        def end_page(self, page) -> None:
            chars = self.cur_item._objs  # the page's items before layout analysis (pdfminer's own list)
            chars[:] = _with_figure_chars(chars, LTFigure, LTChar)
            turned = [obj for obj in chars if isinstance(obj, LTChar) and not obj.upright]
            if turned:
                self.cur_item._objs = [obj for obj in chars if not (isinstance(obj, LTChar) and not obj.upright)]
            self.turned_boxes = _turned_boxes(turned, self.laparams)
            super().end_page(page)

    resources = PDFResourceManager()
    device = _UprightAggregator(resources, laparams=LAParams())
    interpreter = PDFPageInterpreter(resources, device)
    lines: list[_PdfLine] = []
    box_id = n_pages = empty_pages = 0
    page_count = _page_count(document)
    for page_no, page in enumerate(PDFPage.create_pages(document)):
        n_pages += 1
        interpreter.process_page(page)
        page_done(n_pages, page_count)  # an ingest's progress moves per page
        result = device.get_result()
        boxes = [el for el in result if isinstance(el, LTTextBox)]
        if not boxes and not device.turned_boxes:
            empty_pages += 1
        page_lines = []
        for box in boxes:
            box_id += 1
            page_lines.extend(line for line in _box_lines(box, page_no, box_id) if _on_page(line, result))
        page_lines, box_id = _side_runs(page_lines, box_id)
        rule = _note_rule(_flat_rules(result, LTCurve, LTFigure), page_lines, result.height)
        for line in page_lines:
            line.under_rule = rule is not None and line.y1 <= rule[0] + 1 and line.y0 >= rule[1] - 1
        lines.extend(page_lines)
        for box in device.turned_boxes:
            box_id += 1
            lines.extend(replace(line, turned=True) for line in _box_lines(box, page_no, box_id))
    return lines, _pdf_outline(document), _pdf_meta_title(document), n_pages, empty_pages


def _with_figure_chars(items: list, figure_type, char_type) -> list:
    """The page's ``items`` with the characters drawn inside its figures (form XObjects, nested
    ones too) taken out of them and set right after their figure, in drawing order, so that layout
    analysis sets them in lines and boxes with the page's own text.

    pdfminer lays out only the characters drawn directly in a page's content stream; those in a
    form XObject stay loose inside an ``LTFigure`` (``LAParams.all_texts`` off) and were lost. A
    print PDF that draws each page's whole body as a form (legislation.gov.uk's Acts) then read as
    pages without text and went to OCR, or was dropped. The characters already carry page
    coordinates (pdfminer applies the form's matrix), so they join the page's layout as if drawn
    on it; the figure keeps its images and drawn shapes (note rules, :func:`_flat_rules`)."""

    def take(figure) -> list:
        taken, kept = [], []
        for obj in figure._objs:  # pdfminer's own list of the figure's items
            if isinstance(obj, char_type):
                taken.append(obj)
            else:
                kept.append(obj)
                if isinstance(obj, figure_type):
                    taken.extend(take(obj))
        figure._objs = kept
        return taken

    out = []
    for item in items:
        out.append(item)
        if isinstance(item, figure_type):
            out.extend(take(item))
    return out


def _on_page(line: _PdfLine, page) -> bool:
    """Whether the line reaches into the page's area (``page``: pdfminer's ``LTPage``, its box the
    media box in the page's own coordinates). Text set wholly off the page is never printed or
    shown: a Scottish Parliament Bill places a ``1`` thousands of points left of each page, and
    read as text it joined the body line on its row (``1 (3) After section 2A``)."""
    return line.x1 > page.x0 - 1 and line.x0 < page.x1 + 1 and line.y1 > page.y0 - 1 and line.y0 < page.y1 + 1


def _flat_rules(page, curve_type, figure_type) -> list[tuple[float, float, float, float]]:
    """The drawn shapes of a pdfminer page (lines, rectangles, curves; inside figures too) as
    ``(x0, x1, y0, y1)``, in PDF points."""
    out = []
    stack = list(page)
    while stack:
        item = stack.pop()
        if isinstance(item, figure_type):
            stack.extend(item)
        elif isinstance(item, curve_type):  # LTLine and LTRect are LTCurves
            out.append((item.x0, item.x1, item.y0, item.y1))
    return out


def _note_rule(
    shapes: list[tuple[float, float, float, float]], lines: list[_PdfLine], page_height: float
) -> tuple[float, float] | None:
    """``(y, floor)`` of the page's footnote separator, or ``None``: the lowest short horizontal rule
    (at most half as wide as the page's widest text line, 1.5 pt thick at most) drawn on the lower
    two thirds of the page, with text above it and text starting at its left end below it (the
    notes' left edge), standing alone (no other rule level with it or touching its ends: a table's
    border is drawn in segments that meet) and underlining nothing. ``floor`` is the next rule below
    it (a full-width footer rule), else 0: the notes stand between the two. Whether the text under
    it is set as notes is for the caller to judge (``pdf_notes``)."""
    if not lines:
        return None
    widest = max(line.x1 - line.x0 for line in lines)
    segments = [s for s in shapes if min(s[1] - s[0], s[3] - s[2]) <= 1.5]  # rules, not filled areas
    flat = [s for s in segments if s[3] - s[2] <= 1.5 and s[1] - s[0] >= 10]
    for rule in sorted(flat, key=lambda s: s[3]):  # the lowest first: an underline higher up is no separator
        x0, x1, y0, y1 = rule
        if x1 - x0 > 0.5 * widest or y1 > page_height * 2 / 3:
            continue
        if any(-1 < line.y0 - y1 < 3 and line.x0 < x1 and line.x1 > x0 for line in lines):
            continue  # it underlines the text right above it
        if any(
            other is not rule
            and other[2] - 3 <= y1
            and other[3] + 3 >= y0
            and other[0] <= x1 + 3
            and other[1] >= x0 - 3
            for other in segments
        ):
            continue  # a table's border, drawn in segments that meet
        floor = max((s[3] for s in flat if s[3] < y0 - 1), default=0.0)
        below = [line for line in lines if line.y1 <= y1 + 1 and line.y0 >= floor - 1]
        if any(line.y0 >= y1 for line in lines) and any(abs(line.x0 - x0) <= 3 for line in below):
            return y1, floor
    return None


def _page_count(document) -> int:
    """The page count the PDF's page tree states (``/Count``), 0 when it states none readable."""
    from pdfminer.pdftypes import resolve1

    try:
        count = resolve1(resolve1(document.catalog.get("Pages")).get("Count"))
        return count if isinstance(count, int) and count > 0 else 0
    except Exception:  # noqa: BLE001 - a damaged page tree: the count is only for progress
        return 0


def _turned_boxes(chars: list, laparams) -> list:
    """Text boxes of the characters set at an angle, laid out per writing direction in a frame
    turned with it (so the text reads left to right there): copies of the characters with their
    boxes rotated by minus the direction's angle (the advance vector of the text matrix, rounded
    to a degree), grouped by pdfminer's own line and box analysis."""
    from pdfminer.layout import LTPage, LTTextBox

    by_angle: dict[int, list] = {}
    for ch in chars:
        a, b, *_ = ch.matrix
        by_angle.setdefault(round(math.degrees(math.atan2(b, a))) % 360, []).append(ch)
    boxes = []
    for angle, group in sorted(by_angle.items()):
        cos, sin = math.cos(math.radians(-angle)), math.sin(math.radians(-angle))
        frame = LTPage(0, (-1e5, -1e5, 1e5, 1e5))
        for ch in group:
            corners = [(x * cos - y * sin, x * sin + y * cos) for x in (ch.x0, ch.x1) for y in (ch.y0, ch.y1)]
            turned = copy.copy(ch)
            turned.set_bbox((min(x for x, _ in corners), min(y for _, y in corners),
                             max(x for x, _ in corners), max(y for _, y in corners)))  # fmt: skip
            turned.size, turned.upright = turned.height, True
            frame.add(turned)
        frame.analyze(laparams)
        boxes.extend(obj for obj in frame if isinstance(obj, LTTextBox))
    return boxes


def _box_lines(box, page_no: int, box_id: int) -> list[_PdfLine]:
    """The text lines of the pdfminer text box ``box`` as :class:`_PdfLine` (style: the size and face
    of most of its letters), each line that joins a run of smaller type across a wide gap carrying
    its two parts in ``split`` (:func:`_cut`) for :func:`_side_runs` to judge."""
    from pdfminer.layout import LTChar, LTTextLine

    out = []
    for line in box:
        if not isinstance(line, LTTextLine):
            continue
        items = list(line)
        made = _made_line(items, page_no, box_id, LTChar, (line.x0, line.x1, line.y0, line.y1))
        if made is None:
            continue
        cut = _cut(items, LTChar)
        if cut is not None:
            first, second = (_made_line(part, page_no, box_id, LTChar) for part in (items[:cut], items[cut:]))
            if first is not None and second is not None:
                made.split = (first, second) if first.size > second.size else (second, first)
        out.append(made)
    return out


def _made_line(
    items: list, page_no: int, box_id: int, char_type, bbox: tuple[float, float, float, float] | None = None
) -> _PdfLine | None:
    """A :class:`_PdfLine` of ``items`` (a pdfminer line's characters and inserted spaces, or a
    run of them), ``None`` when they hold no text; ``bbox`` ``(x0, x1, y0, y1)`` or, if ``None``,
    the characters' own extent."""
    text = _line_text(items, char_type).strip()
    styles: Counter[tuple[float, str]] = Counter()
    chars = [ch for ch in items if isinstance(ch, char_type) and not ch.get_text().isspace()]
    for ch in chars:
        styles[(round(ch.size * 2) / 2, ch.fontname.split("+", 1)[-1])] += 1
    if not text or not styles:
        return None
    if bbox is None:
        bbox = (min(ch.x0 for ch in chars), max(ch.x1 for ch in chars),
                min(ch.y0 for ch in chars), max(ch.y1 for ch in chars))  # fmt: skip
    (size, font), _ = styles.most_common(1)[0]
    return _PdfLine(page_no, box_id, text, size, font, *bbox, sum(styles.values()),
                    run_in=_run_in_title(text, items, char_type))  # fmt: skip


def _cut(items: list, char_type) -> int | None:
    """Where the pdfminer line ``items`` joins two runs of type across a column gap, or ``None``:
    the index of the first item after the gap. Two letters in sizes 1 pt or more apart (the size
    as :func:`_box_lines` rounds it) stand half the larger size or more apart (a word space is
    about a quarter of it), and the run on the smaller side of that gap, at the line's end or
    start, is set all in that one size and holds a letter: the first word or words of a margin
    note set in 9 pt right of an 11 pt body line (``… with intent to computer``), or a marginal
    citation (``… a modification 1971 c. 48.``). pdfminer joins characters less than two of their
    widths apart into one line, and a note's column may stand that close to the body's."""
    chars = [(k, ch) for k, ch in enumerate(items) if isinstance(ch, char_type) and not ch.get_text().isspace()]

    def size(ch) -> float:
        return round(ch.size * 2) / 2

    for n in range(1, len(chars)):
        (_, a), (k, b) = chars[n - 1], chars[n]
        if abs(size(a) - size(b)) < 1 or b.x0 - a.x1 < 0.5 * max(size(a), size(b)):
            continue
        side = chars[n:] if size(b) < size(a) else chars[:n]
        if len({size(ch) for _, ch in side}) == 1 and any(ch.get_text().isalpha() for _, ch in side):
            return k
        return None
    return None


def _side_runs(lines: list[_PdfLine], box_id: int) -> tuple[list[_PdfLine], int]:
    """A page's ``lines`` (in pdfminer's box order) with the runs of smaller type that pdfminer
    joined to a body line across the gap of a side column (``split``, :func:`_cut`) cut off it, and
    the last box id used (``box_id``: the last before). A statute print sets its margin notes in
    9 pt a few points right of the 11 pt body (``Unauthorised`` / ``access to`` / ``computer`` /
    ``material.`` beside section 1) and pdfminer joined the note's word on a body line's row to that
    line (``… with intent to computer``) and the note's other lines to the body's box, so the note
    was lost among the body's lines and its word read as body text.

    The run is cut off when the rest of its line is set in the page's body type (the size and face
    of most of its letters: ``1.1`` in 12 pt bold before a heading's 11 pt capitals is a heading,
    not a body line), the run lies wholly beyond the page's text column in that type (right of the
    rightmost such line, or left of the leftmost: the other split lines counted without their
    runs) and the page has another line in the run's style in that side
    column, overlapping it across: a column of notes, not a word of the body set apart. The run,
    and the lines of its box that stand in that column in its style (the note's other lines),
    make a box of their own, set after the lines of the box it was cut from."""
    if not any(line.split for line in lines):
        return lines, box_id
    own = [line.split[0] if line.split else line for line in lines]  # the body lines without their runs
    body_style = _body_style(own)  # the page's text: a heading's number set larger than its title is no body line
    cut: dict[int, tuple[float, bool]] = {}  # id of a split line -> (the column's edge, right of it)
    for line in lines:
        if line.split is None or line.split[0].style != body_style:
            continue
        kept, run = line.split
        body = [other for other in own if other.style == kept.style]
        right = run.x0 > kept.x1
        edge = max(other.x1 for other in body) if right else min(other.x0 for other in body)
        if not (run.x0 >= edge - 1 if right else run.x1 <= edge + 1):
            continue
        beyond = [
            other
            for other in lines
            if other is not line
            and other.style == run.style
            and (other.x0 >= edge - 1 if right else other.x1 <= edge + 1)
            and other.x0 < run.x1
            and other.x1 > run.x0
        ]
        if beyond or any(o is not line and o.split and o.split[1].style == run.style for o in lines):
            cut[id(line)] = (edge, right)
    if not cut:
        return [replace(line, split=None) if line.split else line for line in lines], box_id
    side_box: dict[int, int] = {}  # box cut from -> the box of its side column
    columns: dict[int, tuple[float, bool, tuple[float, str]]] = {}
    for line in lines:
        if id(line) in cut and line.box not in side_box:
            box_id += 1
            side_box[line.box] = box_id
            edge, right = cut[id(line)]
            columns[line.box] = (edge, right, line.split[1].style)  # type: ignore[index]
    out: list[_PdfLine] = []
    moved: dict[int, list[_PdfLine]] = {}
    for line in lines:
        if id(line) in cut:
            kept, run = line.split  # type: ignore[misc]
            out.append(kept)
            moved.setdefault(line.box, []).append(replace(run, box=side_box[line.box]))
            continue
        line.split = None
        if line.box in columns:
            edge, right, style = columns[line.box]
            if line.style == style and (line.x0 >= edge - 1 if right else line.x1 <= edge + 1):
                moved.setdefault(line.box, []).append(replace(line, box=side_box[line.box]))
                continue
        out.append(line)
    out = _rejoin_paragraphs(out, {id(line.split[0]) for line in lines if id(line) in cut})  # type: ignore[index]
    return _placed_after(out, moved), box_id


def _placed_after(lines: list[_PdfLine], after: dict[int, list[_PdfLine]]) -> list[_PdfLine]:
    """``lines`` with each box's ``after`` lines (box id → lines) set after that box's last line,
    those of a box ``lines`` does not hold at the end; ``after`` is emptied."""
    out: list[_PdfLine] = []
    for n, line in enumerate(lines):
        out.append(line)
        if n + 1 == len(lines) or lines[n + 1].box != line.box:
            out.extend(after.pop(line.box, []))
    for rest in after.values():
        out.extend(rest)
    return out


def _rejoin_paragraphs(lines: list[_PdfLine], kept: set[int]) -> list[_PdfLine]:
    """``lines`` with each body line a run was cut from (ids in ``kept``) that is left alone in its
    box moved into the box whose first line stands directly under it (in its style, across from
    it, less than half a line below), right before that line: pdfminer boxed the line apart from
    its paragraph only because the note's word made it wider (``(6) For the purposes … a
    modification 1971 c. 48.`` over ``of the contents of a computer …``)."""
    sizes = Counter(line.box for line in lines)
    firsts: dict[int, _PdfLine] = {}
    for line in lines:
        firsts.setdefault(line.box, line)
    target: dict[int, _PdfLine] = {}  # id of a lone kept line -> the first line of the box under it
    for line in lines:
        if id(line) not in kept or sizes[line.box] != 1:
            continue
        under = [
            first
            for first in firsts.values()
            if first.box != line.box
            and first.style == line.style
            and first.x0 < line.x1
            and first.x1 > line.x0
            and -0.5 * line.size < line.y0 - first.y1 < 0.5 * line.size
        ]
        if under:
            target[id(line)] = max(under, key=lambda first: first.y1)
    if not target:
        return lines
    before: dict[int, list[_PdfLine]] = {}
    for line in lines:
        if id(line) in target:
            first = target[id(line)]
            while id(first) in target:  # the line under it moves on as well ("10. …" over a cut "(a) …")
                first = target[id(first)]
            before.setdefault(id(first), []).append(replace(line, box=first.box))
    out: list[_PdfLine] = []
    for line in lines:
        if id(line) in target:
            continue
        out.extend(before.get(id(line), []))
        out.append(line)
    return out


def _run_in_title(text: str, line, char_type) -> str:
    """The bold title a line runs into its text after an optional clause number, as contracts set
    their clauses (``1.`` in the body face, ``What the Company owns.`` in bold, then the clause
    text in the body face; ``1)`` **Background**``. Assignor …`` the same, its stop set plain): its
    letters without spaces, or ``""``. The line's characters in a bold
    face are its emphasis (:func:`.run_in.emphasis_title`: closed by a ``.`` or ``:`` of its own or
    right after it, at least three letters of text after it on the line — a long title may outweigh its text there,
    so the line's own face is no test); the number, when there is one, is left out."""
    flags = [
        (c, bool(_BOLD_FONT.search(ch.fontname)))
        for ch in line
        if isinstance(ch, char_type)
        for c in ch.get_text()
        if not c.isspace()
    ]
    if "".join(c for c, _ in flags) != "".join(text.split()):
        return ""  # letters the line's text does not spell in order: no safe alignment
    spans: list[tuple[int, int, str]] = []  # the bold runs, spaces between bold letters inside them
    bold = iter(b for _, b in flags)
    for pos, c in enumerate(text):
        if c.isspace() or not next(bold):
            continue
        if spans and not text[spans[-1][1] : pos].strip():
            spans[-1] = (spans[-1][0], pos + 1, "b")
        else:
            spans.append((pos, pos + 1, "b"))
    found = emphasis_title(text, spans, {"b"}, numbered=True, close_after=True)
    if found is None:
        return ""
    heading = found.heading
    if not heading.endswith(TITLE_CLOSE):  # "Background" in bold, its full stop in the body face
        heading += text[found.end :].lstrip()[:1]
    return "".join(heading.split())


def _line_text(items: list, char_type) -> str:
    """The text of a pdfminer text line (``items``: its characters and the spaces and newline
    pdfminer inserted), less the spaces pdfminer inserted inside words of a line set letter-spaced
    (``S ect i on  1`` for a tracked ``Section 1``): in a line whose usual gap between two letters
    (the median) is 0.25 pt or more but under a quarter of the type size, an inserted space whose gap
    is at most one and a half times that usual gap (kerning widens some: ``Rectif ication``) splits
    no words. The document's own space
    characters always stay; a space pdfminer inserts right after one of them is dropped when the
    gap it stands for is under the type size (a justified line widens its word spaces, ``data  user``
    would keep two), while a wider gap (a tab stop, a header's two parts) keeps it."""
    items = [
        obj
        for k, obj in enumerate(items)
        if not (0 < k < len(items) - 1 and _justified_space(items[k - 1], obj, items[k + 1], char_type))
    ]
    chars = [obj for obj in items if isinstance(obj, char_type)]
    gaps = sorted(
        b.x0 - a.x1 for a, b in zip(chars, chars[1:]) if not a.get_text().isspace() and not b.get_text().isspace()
    )
    tracking = gaps[len(gaps) // 2] if len(gaps) >= 4 else 0.0
    size = max((obj.size for obj in chars), default=0.0)
    if not 0.25 <= tracking < 0.25 * size:
        return "".join(obj.get_text() for obj in items)
    out = []
    for k, obj in enumerate(items):
        if not isinstance(obj, char_type) and obj.get_text() == " " and 0 < k < len(items) - 1:
            before, after = items[k - 1], items[k + 1]
            if (
                isinstance(before, char_type)
                and isinstance(after, char_type)
                and not before.get_text().isspace()
                and not after.get_text().isspace()
                and after.x0 - before.x1 <= 1.5 * tracking
            ):
                continue  # tracking, not a word space
        out.append(obj.get_text())
    return "".join(out)


def _justified_space(before, obj, after, char_type) -> bool:
    """``obj`` is a space pdfminer inserted between the document's own space character ``before``
    and a character ``after`` less than the type size away: the word space of a justified line."""
    return (
        not isinstance(obj, char_type)
        and obj.get_text() == " "
        and isinstance(before, char_type)
        and before.get_text() == " "
        and isinstance(after, char_type)
        and after.x0 - before.x1 < after.size
    )


def _pdf_outline(document) -> list[tuple[int, str]]:
    try:
        return [(level, title) for level, title, *_ in document.get_outlines() if title and title.strip()]
    except Exception:  # PDFNoOutlines, or a broken outline tree: fall back to fonts
        return []


def _pdf_meta_title(document) -> str | None:
    from pdfminer.pdftypes import resolve1
    from pdfminer.utils import decode_text

    from .docx_headings import plausible_title

    for info in document.info or []:
        raw = resolve1(info.get("Title")) if isinstance(info, dict) else None
        title = decode_text(raw) if isinstance(raw, bytes) else raw if isinstance(raw, str) else None
        stated = plausible_title(title)  # not a generator's placeholder (reportlab: "(anonymous)") or a file name
        if stated:
            return stated
    return None


def _vertical_overlap(a: _PdfLine, b: _PdfLine) -> float:
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap / max(min(a.y1 - a.y0, b.y1 - b.y0), 1e-6)


def _body_style(lines: list[_PdfLine]) -> tuple[float, str]:
    weights: Counter[tuple[float, str]] = Counter()
    for line in lines:
        weights[line.style] += line.chars
    return weights.most_common(1)[0][0] if weights else (10.0, "")
