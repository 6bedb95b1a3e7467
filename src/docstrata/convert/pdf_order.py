"""Reading order of a PDF page's text for ``convert``: two repairs of pdfminer's box order made
from the layout alone.

* pdfminer orders a page's text boxes by grouping them (``LAParams.boxes_flow``), and a wide box
  can come out before a narrower one printed above it: a centred title set wider than the
  ``Article 12`` / ``Chapter III`` / ``SECTION II`` label above it is read first, and the title
  then stands before its label. :func:`restore_box_order` puts such neighbours back in order.
* A paragraph's label set in a box of its own at the left of the paragraph's first line (``(1)``
  beside ``Directive (EU) 2016/1148 …``) may be read before the whole column of paragraphs beside
  it. :func:`join_hanging_labels` moves each label to the front of the line it stands beside; a
  column of such labels read as one box (``(a)``, ``(b)`` in a hanging column) likewise, each label
  to its own item's first line, which then opens a paragraph.
"""

from __future__ import annotations

import re

from .pdf_layout import _PdfLine, _vertical_overlap

# a paragraph or point label alone on its line: "(1)", "(a)", "(iv)", "a)", "12)", "iv.", "b."
_ITEM_LABEL = re.compile(
    r"^\((?:\d{1,3}|[a-z]{1,2}|[ivxlc]{1,6})\)$|^(?:\d{1,3}|[a-z])\)$|^(?:[ivxlc]{1,6}|[a-z])\.$", re.IGNORECASE
)


def restore_box_order(lines: list[_PdfLine]) -> list[_PdfLine]:
    """``lines`` with neighbouring boxes of a page in top-to-bottom order where pdfminer put a box
    before the one printed directly above it: two consecutive boxes of at most three lines each,
    one horizontally over the other (their spans overlap by half the narrower one), the later one
    wholly above the earlier with a gap of less than three type sizes, swap places, repeatedly
    (a label read after its two title lines moves above both). Columns side by side never
    overlap horizontally, and boxes far apart keep pdfminer's order."""
    boxes: list[list[_PdfLine]] = []
    for line in lines:
        if boxes and boxes[-1][0].box == line.box:
            boxes[-1].append(line)
        else:
            boxes.append([line])
    for _ in range(3):  # a label under two title lines moves up twice; three passes are plenty
        swapped = False
        for k in range(len(boxes) - 1):
            if _printed_above(boxes[k + 1], boxes[k]):
                boxes[k], boxes[k + 1] = boxes[k + 1], boxes[k]
                swapped = True
        if not swapped:
            break
    return [line for box in boxes for line in box]


def _printed_above(upper: list[_PdfLine], lower: list[_PdfLine]) -> bool:
    """``upper`` (a box) stands directly above ``lower`` on the same page: see
    :func:`restore_box_order`."""
    if len(upper) > 3 or len(lower) > 3 or upper[0].page != lower[0].page:
        return False
    if any(line.turned for line in upper + lower):
        return False
    top_of_lower = max(line.y1 for line in lower)
    bottom_of_upper = min(line.y0 for line in upper)
    gap = bottom_of_upper - top_of_lower
    size = max(line.size for line in upper + lower)
    if gap < -1 or gap >= 3 * size:
        return False
    ux0, ux1 = min(line.x0 for line in upper), max(line.x1 for line in upper)
    lx0, lx1 = min(line.x0 for line in lower), max(line.x1 for line in lower)
    overlap = min(ux1, lx1) - max(ux0, lx0)
    return overlap >= 0.5 * min(ux1 - ux0, lx1 - lx0)


def join_hanging_labels(lines: list[_PdfLine]) -> list[_PdfLine]:
    """``lines`` with each paragraph label that stands alone in its box (``(1)``, ``(a)``, ``iv)``, ``iv.``;
    not a table cell) joined to the front of the line beside it to its right on its row (within
    60 pt), which opens its own box: the label then stands where its paragraph is read, however
    pdfminer ordered the two boxes. A label of a column of labels (:func:`_label_columns`) joins
    the line beside it wherever it stands in its box, and the box splits there: each item opens a
    paragraph. The joined line keeps its box (or the part from it on), style and place in the
    order, and starts where the label does."""
    box_sizes: dict[int, int] = {}
    first_of_box: dict[int, int] = {}
    for line in lines:
        box_sizes[line.box] = box_sizes.get(line.box, 0) + 1
        first_of_box.setdefault(line.box, id(line))
    by_page: dict[int, list[_PdfLine]] = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    column = _label_columns(lines)
    joined: dict[int, _PdfLine] = {}  # id of the line beside -> the label joined to it
    absorbed: set[int] = set()
    for line in lines:
        text = line.text.strip()
        if not (box_sizes[line.box] == 1 or line.box in column) or line.cell or line.turned or line.level:
            continue
        if not _ITEM_LABEL.match(text):
            continue
        beside = [
            other for other in by_page[line.page]
            if other is not line and (first_of_box[other.box] == id(other) or line.box in column)
            and other.box not in column and not other.cell and not other.turned
            and id(other) not in absorbed and id(other) not in joined
            and 0 <= other.x0 - line.x1 + 1 <= 61 and _vertical_overlap(line, other) > 0.5
            and re.search(r"[^\W\d_]", other.text)
        ]  # fmt: skip
        if beside:
            target = min(beside, key=lambda other: other.x0)
            joined[id(target)] = line
            absorbed.add(id(line))
    out = []
    fresh = max((line.box for line in lines), default=0) + 1
    previous_box: int | None = None
    renamed: int | None = None  # a label joined inside a box opens a paragraph: the box splits there
    for line in lines:
        if id(line) in absorbed:
            continue
        box = line.box
        if box != previous_box:
            renamed = None
        label = joined.get(id(line))
        if label is not None:
            line.text = f"{label.text.strip()} {line.text.strip()}"
            line.x0, line.chars = label.x0, line.chars + label.chars
            if first_of_box[box] != id(line):
                renamed, fresh = fresh, fresh + 1
        previous_box = box
        if renamed is not None:
            line.box = renamed
        out.append(line)
    return out


def _label_columns(lines: list[_PdfLine]) -> set[int]:
    """The boxes that are a column of paragraph labels: two lines or more, each a label alone
    (``(a)``, ``(b)`` set in a hanging column beside their items, which pdfminer reads as one box
    before the box of the items' text); not table cells, turned text or headings."""
    members: dict[int, list[_PdfLine]] = {}
    for line in lines:
        members.setdefault(line.box, []).append(line)
    return {
        box
        for box, ls in members.items()
        if len(ls) >= 2
        and all(_ITEM_LABEL.match(ln.text.strip()) and not (ln.cell or ln.turned or ln.level) for ln in ls)
    }
