"""OCR lines → PDF layout lines for ``convert``: :class:`~.ocr.OcrPage` s become
:class:`~.pdf_layout._PdfLine` s, so a scanned page goes through the same running-header,
page-number, table and heading stages as a born-digital PDF page.

What the layout stages read from a text layer is rebuilt from the image:

* coordinates in PDF points, origin bottom left (pixels × 72 / dpi, y flipped);
* the font size from the line's core band of ink (x-height ≈ 0.47 em; cap height 0.7 em in a
  line of capitals; :func:`.ocr._measure_strokes`), not its box, whose height depends on
  ascenders and descenders; snapped document-wide to size classes (mode seeking: the heaviest
  remaining size and every size within 10 % of it form one class), so measuring jitter does not
  split body text into many "styles";
* the weight: a line whose stroke width per pixel of core height is 1.25 times its page's
  (median over the page's characters) or more is bold (font ``OCR-Bold``, else ``OCR``);
* reading order by recursive XY-cut (Nagy & Seth, "Hierarchical representation of optically
  scanned documents", ICPR 1984): a region is split at its widest empty horizontal or vertical
  band — a vertical one only when at least one body-line height wide, a column gutter — and the
  parts read top to bottom, left to right, so two-column pages read column by column;
* text boxes (paragraphs): consecutive lines in reading order, overlapping horizontally, whose
  centres are at most 1.3 line pitches apart (the pitch: the document's median step between
  consecutive lines), since the engines' boxes differ in padding but not in pitch.
"""

from __future__ import annotations

from .ocr import OcrLine, OcrPage
from .pdf_layout import _PdfLine, _vertical_overlap

_HEIGHT_PER_EM = {"rapidocr": 1.08, "tesseract": 0.9}
_X_HEIGHT, _CAP_HEIGHT = 0.47, 0.7
_BOLD_RATIO = 1.25
_PARAGRAPH_GAP = 1.3  # line pitches: a wider step between two lines starts a paragraph
_GUTTER = 1.0  # of the body line height: the narrowest vertical gap taken for a column gutter


def ocr_pdf_lines(pages: dict[int, OcrPage], first_box: int = 0) -> list[_PdfLine]:
    """Layout lines of the OCR'd ``pages`` (0-based page number → page), page by page in reading
    order; box ids count on from ``first_box``. Sizes, weights and boxes are decided over all the
    given pages together (one document's body text is one style)."""
    placed: list[tuple[int, OcrLine, float, float]] = []  # (page, line, points per pixel, page height pt)
    for page_no in sorted(pages):
        page = pages[page_no]
        scale = 72.0 / (page.dpi or 300.0)
        for line in page.lines:
            if line.text.strip() and line.y1 > line.y0 and line.x1 > line.x0:
                placed.append((page_no, line, scale, page.height * scale))
    if not placed:
        return []
    sizes = _size_classes(
        [_em(line, pages[p].engine) * scale for p, line, scale, _ in placed],
        [_chars(line.text) for _, line, _, _ in placed],
    )
    body = max(set(sizes), key=lambda s: sum(_chars(line.text) for (_, line, _, _), z in zip(placed, sizes) if z == s))
    ratios = [
        line.stroke / (line.core if line.core >= 3 else line.y1 - line.y0) if line.stroke else 0.0
        for _, line, _, _ in placed
    ]
    weighed: dict[int, list[tuple[float, int]]] = {}  # per page: scans differ in darkness, pages in typeface
    for r, (page_no, line, _, _) in zip(ratios, placed):
        if r:
            weighed.setdefault(page_no, []).append((r, _chars(line.text)))
    regular = {page_no: _weighted_median(weighed.get(page_no, [])) for page_no in pages}
    out: list[_PdfLine] = []
    box = first_box
    by_page: dict[int, list[_PdfLine]] = {}
    for (page_no, line, scale, height_pt), size, ratio in zip(placed, sizes, ratios):
        bold = bool(regular[page_no] and ratio >= _BOLD_RATIO * regular[page_no])
        by_page.setdefault(page_no, []).append(
            _PdfLine(
                page_no,
                0,
                " ".join(line.text.split()),
                size,
                "OCR-Bold" if bold else "OCR",
                line.x0 * scale,
                line.x1 * scale,
                height_pt - line.y1 * scale,
                height_pt - line.y0 * scale,
                _chars(line.text),
            )
        )
    ordered = {page_no: xy_cut(by_page[page_no], gutter=_GUTTER * body) for page_no in sorted(by_page)}
    pitch = _line_pitch(ordered, body)
    for page_lines in ordered.values():
        previous: _PdfLine | None = None
        for laid in page_lines:
            if previous is None or not _same_paragraph(previous, laid, pitch):
                box += 1
            laid.box = box
            out.append(laid)
            previous = laid
    return out


def _centre(line: _PdfLine) -> float:
    return (line.y0 + line.y1) / 2


def _line_pitch(pages: dict[int, list[_PdfLine]], body: float) -> float:
    """The documents' line pitch (points between the centres of consecutive lines of a paragraph):
    the median over consecutive lines, in reading order, that overlap horizontally and lie below
    each other by less than three body sizes; 1.2 body sizes when there are none."""
    steps = sorted(
        _centre(a) - _centre(b)
        for lines in pages.values()
        for a, b in zip(lines, lines[1:])
        if min(a.x1, b.x1) > max(a.x0, b.x0) and 0 < _centre(a) - _centre(b) < 3 * body
    )
    return steps[len(steps) // 2] if steps else 1.2 * body


def _chars(text: str) -> int:
    return sum(not ch.isspace() for ch in text)


def _em(line: OcrLine, engine: str) -> float:
    """The line's type size (em) in pixels: its core band over the x-height (0.47 em, the mean of
    Times, Helvetica, Computer Modern and DejaVu) or, in a line without lower-case letters, the
    cap height (0.7 em); without a core, its box height over the engine's box/em ratio."""
    if line.core >= 3:
        caps = not any(ch.islower() for ch in line.text)
        return line.core / (_CAP_HEIGHT if caps else _X_HEIGHT)
    factor = next((f for name, f in _HEIGHT_PER_EM.items() if engine.startswith(name)), 1.0)
    return (line.y1 - line.y0) / factor


def _weighted_median(values: list[tuple[float, int]]) -> float:
    values = sorted(values)
    total = sum(w for _, w in values)
    acc = 0
    for v, w in values:
        acc += w
        if acc * 2 >= total:
            return v
    return 0.0


def _size_classes(heights: list[float], weights: list[int]) -> list[float]:
    """Each height's size class (rounded to 0.5 pt): repeatedly the heaviest unassigned height
    (by character weight, in 0.25 pt bins) and every unassigned height within 10 % of it
    take their weighted median."""
    out: list[float | None] = [None] * len(heights)
    while any(v is None for v in out):
        bins: dict[float, int] = {}
        for h, w, v in zip(heights, weights, out):
            if v is None:
                bins[round(h * 4) / 4] = bins.get(round(h * 4) / 4, 0) + max(w, 1)
        # the heaviest neighbourhood, not the heaviest bin: jitter spreads one size over a few bins
        centre = max(bins, key=lambda b: sum(w for c, w in bins.items() if 0.9 * b <= c <= 1.1 * b))
        members = [i for i, (h, v) in enumerate(zip(heights, out)) if v is None and 0.9 * centre <= h <= 1.1 * centre]
        size = round(_weighted_median([(heights[i], max(weights[i], 1)) for i in members]) * 2) / 2
        for i in members:
            out[i] = size
    return [v or 0.0 for v in out]


def _same_paragraph(above: _PdfLine, below: _PdfLine, pitch: float) -> bool:
    """``below`` carries on ``above``'s paragraph: same page, overlapping horizontally, and its
    centre at most 1.3 line pitches lower (a paragraph break adds space; a heading above its text too)."""
    overlap = min(above.x1, below.x1) - max(above.x0, below.x0)
    step = _centre(above) - _centre(below)
    return above.page == below.page and overlap > 0 and 0 < step <= _PARAGRAPH_GAP * pitch


def xy_cut(lines: list[_PdfLine], gutter: float) -> list[_PdfLine]:
    """``lines`` of one page in reading order by recursive XY-cut (see the module docstring):
    the widest empty band across the region splits it — a horizontal band of any height, a
    vertical band only when at least ``gutter`` points wide — and the parts are read top to
    bottom (horizontal split) or left to right (vertical split); a region that no band splits is
    read row by row (lines overlapping by half their height form a row), left to right in a row.
    OCR boxes are padded and touch their neighbours above and below, so the bands are looked for
    between the middle 60 % of each line's height."""
    if len(lines) <= 1:
        return list(lines)
    trim = [0.2 * (ln.y1 - ln.y0) for ln in lines]
    h_gap, h_at = _widest_gap([(-ln.y1 + t, -ln.y0 - t) for ln, t in zip(lines, trim)])  # top-down
    v_gap, v_at = _widest_gap([(ln.x0, ln.x1) for ln in lines])
    if v_gap >= gutter and v_gap > h_gap:
        left = [ln for ln in lines if ln.x1 <= v_at]
        return xy_cut(left, gutter) + xy_cut([ln for ln in lines if ln.x1 > v_at], gutter)
    if h_gap > 0:
        top = [ln for ln, t in zip(lines, trim) if -ln.y0 - t <= h_at]
        return xy_cut(top, gutter) + xy_cut([ln for ln, t in zip(lines, trim) if -ln.y0 - t > h_at], gutter)
    rows: list[list[_PdfLine]] = []
    for line in sorted(lines, key=lambda ln: -ln.y1):
        if rows and _vertical_overlap(rows[-1][0], line) > 0.5:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda ln: ln.x0)]


def _widest_gap(spans: list[tuple[float, float]]) -> tuple[float, float]:
    """The widest gap between the union of 1-D ``spans`` (start, end): (width, position of its
    start); (0, 0) when the spans overlap into one run."""
    spans = sorted(spans)
    best = (0.0, 0.0)
    end = spans[0][1]
    for start, stop in spans[1:]:
        if start > end and start - end > best[0]:
            best = (start - end, end)
        end = max(end, stop)
    return best
