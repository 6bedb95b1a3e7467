"""PDF tables for ``convert``: text boxes laid out as the cells of table rows are found from their
geometry and rendered as Markdown table rows, so a cell ("4.2.2" in a "Normative Reference(s)"
column, a bold row label "Duplication") is read with its row and never as a section heading."""

from __future__ import annotations

import re

from .pdf_layout import _PdfLine

# a hanging label set in a box of its own left of its text ("(a)", "1.", "4.2", "•"): a list, not a table;
# letters (but one) only with their punctuation ("ab.", "(iv)"): a bare "ATA" or "Bend" is a glossary term beside its definition
_HANGING_LABEL = re.compile(
    r"^(\(?\d{1,4}[.)]?|\(?[A-Za-z][.)]?|\(?[A-Za-z]{2}[.)]|\([A-Za-z]{1,4}\)|\(?[ivxlc]{1,6}[.)]|\d+(\.\d+)+\.?"
    r"|[•·▪◦‣–—*-])$"
)


def _table_cells(lines: list[_PdfLine]) -> list[list[list[_PdfLine]]]:
    """The table rows of the page layout: lists of cells (each a text box's lines, left to right).

    A cell is a text box of at most eight lines holding a letter or digit. Cells that share at
    least half the height of the shorter one and do not overlap horizontally make up a row when
    there are two or more of them, at least one is narrower than a third of the page's text width
    (two text columns are each about half of it), and the leftmost is not a bare label (a list
    item's "(a)" or "1." set apart by a tab). Rows are only kept on a page with two or more of
    them (a table, not two side notes); there a row of wider cells counts too when each of its
    cells lies in a column of those rows (the row under a label cell that spans rows). Cells the
    grouping left out are placed by :func:`_place_leftovers`. Returns the rows in page order.
    """
    by_box: dict[int, list[_PdfLine]] = {}
    for line in lines:
        # a margin note is a title, a marginal citation beside the text no cell (pdf_margins)
        if line.text.strip() and not line.turned and not line.margin and not line.aside:
            by_box.setdefault(line.box, []).append(line)
    by_page: dict[int, list[list[_PdfLine]]] = {}
    for box in by_box.values():
        by_page.setdefault(box[0].page, []).append(box)
    rows_out: list[list[list[_PdfLine]]] = []
    for page in sorted(by_page):
        boxes = by_page[page]
        left, right = min(ln.x0 for b in boxes for ln in b), max(ln.x1 for b in boxes for ln in b)
        width = max(right - left, 1.0)
        cells = [b for b in boxes if len(b) <= 8 and any(re.search(r"[^\W_]", ln.text) for ln in b)
                 and not any(ln.level for ln in b)]  # fmt: skip
        cells.sort(key=lambda b: -max(ln.y1 for ln in b))
        rows: list[list[list[_PdfLine]]] = []
        wide: list[list[list[_PdfLine]]] = []  # rows of wide cells only: kept when they line up with a table's columns
        used: set[int] = set()
        for n, cell in enumerate(cells):
            if n in used:
                continue
            row = [cell]
            for k in range(n + 1, len(cells)):
                other = cells[k]
                if k not in used and all(_x_apart(other, mate) and _same_row(other, mate) for mate in row):
                    row.append(other)
                    used.add(k)
            row.sort(key=lambda b: min(ln.x0 for ln in b))
            narrow = any(max(ln.x1 for ln in b) - min(ln.x0 for ln in b) < width / 3 for b in row)
            hanging = len(row[0]) == 1 and _HANGING_LABEL.match(row[0][0].text.strip())
            if len(row) >= 2 and not hanging:
                (rows if narrow else wide).append(row)
        if len(rows) >= 2:
            columns = [cell for row in rows for cell in row]
            rows.extend(row for row in wide if all(any(not _x_apart(cell, c) for c in columns) for cell in row))
            rows.sort(key=lambda row: -max(ln.y1 for cell in row for ln in cell))
            in_rows = {id(cell) for row in rows for cell in row}
            for row in rows:
                _trim_lines_above(row)  # first, so a heading's style is not taken for a cell style
            _place_leftovers(rows, [cell for cell in cells if id(cell) not in in_rows])
            for row in rows:
                _trim_lines_above(row)
            rows_out.extend(split for row in rows if all(row) for split in _split_label_rows(row))
    return rows_out


# a short label: one word or two ("ARP", "PCI DSS", "TCP/IP"), no longer than 16 characters
_SHORT_LABEL = re.compile(r"^\S{1,16}(?: \S{1,8})?$")


def _split_label_rows(row: list[list[_PdfLine]]) -> list[list[list[_PdfLine]]]:
    """A two-cell row whose first cell is a column of short labels, each on the baseline of one
    line of the second cell, line for line (an acronym list pdfminer boxed a few rows at a time:
    "ARP / ATA" beside "Address Resolution Protocol / Advanced Technology Attachment"), is one row
    per line; any other row is itself. A wrapped term ("Controlled Unclassified / Information"
    beside a longer definition) has fewer lines than its definition and stays one row."""
    if len(row) != 2 or len(row[0]) < 2 or len(row[0]) != len(row[1]):
        return [row]
    left, right = row
    if not all(_SHORT_LABEL.match(" ".join(line.text.split())) for line in left):
        return [row]
    if any(abs(a.y0 - b.y0) > 0.5 * min(a.size, b.size) for a, b in zip(left, right)):
        return [row]
    return [[[a], [b]] for a, b in zip(left, right)]


def _trim_lines_above(row: list[list[_PdfLine]]) -> None:
    """Leading lines of a cell's box set wholly above every other cell of its row, in another
    style than the line below them, are no part of the row: the heading or caption the layout
    put in one box with the header cell below it ("6.3 PROPERTIES" over "Element"). (A taller
    cell's first lines above a centred label cell share its style and stay.)"""
    if len(row) < 2:
        return
    for n, cell in enumerate(row):
        others_top = max(ln.y1 for k, other in enumerate(row) if k != n for ln in other)
        while len(cell) > 1 and cell[0].y0 >= others_top - 1 and cell[0].style != cell[1].style:
            del cell[0]


def _place_leftovers(rows: list[list[list[_PdfLine]]], leftovers: list[list[_PdfLine]]) -> None:
    """Cells of a table's span that the row grouping left out: a box beside a row (any shared
    height) joins it; a box just under a cell of its column (within 1.5 lines: the cell's text
    wrapped into a box of its own) joins that cell; a box between the rows within one column of
    the table (not across two, as a heading between two tables is) and in a style its cells use
    (not a heading's: "6.4 TITLES" between two tables) is a cell spanning rows and a row of its
    own.  Rows stay in page order."""
    top = max(ln.y1 for row in rows for cell in row for ln in cell)
    bottom = min(ln.y0 for row in rows for cell in row for ln in cell)
    for box in leftovers:
        box_top, box_bottom, size = max(ln.y1 for ln in box), min(ln.y0 for ln in box), box[0].size
        if box_top > top or box_bottom < bottom - 3 * size:
            continue
        beside = [
            row
            for row in rows
            if all(_x_apart(box, cell) for cell in row)
            and any(min(box_top, max(ln.y1 for ln in c)) > max(box_bottom, min(ln.y0 for ln in c)) for c in row)
        ]
        if beside:
            beside[0].append(box)
            beside[0].sort(key=lambda b: min(ln.x0 for ln in b))
            continue
        above = [
            cell
            for row in rows
            for cell in row
            if not _x_apart(box, cell) and 0 <= min(ln.y0 for ln in cell) - box_top < 1.5 * size
        ]
        if above:
            above[0].extend(box)
            continue
        column = [cell for row in rows for cell in row if not _x_apart(box, cell)]
        one_column = all(not _x_apart(a, b) for a in column for b in column)
        styled = box[0].style in {ln.style for row in rows for cell in row for ln in cell}
        if column and one_column and styled and bottom <= (box_top + box_bottom) / 2 <= top:
            rows.append([box])  # a cell spanning rows (a row label centred between them), in one column of the table
    rows.sort(key=lambda row: -max(ln.y1 for cell in row for ln in cell))


def _same_row(a: list[_PdfLine], b: list[_PdfLine]) -> bool:
    """The boxes share at least half the height of the shorter one (a row label centred beside a
    taller cell, or top-aligned cells)."""
    top_a, bottom_a = max(ln.y1 for ln in a), min(ln.y0 for ln in a)
    top_b, bottom_b = max(ln.y1 for ln in b), min(ln.y0 for ln in b)
    return min(top_a, top_b) - max(bottom_a, bottom_b) >= 0.5 * min(top_a - bottom_a, top_b - bottom_b)


def _x_apart(a: list[_PdfLine], b: list[_PdfLine]) -> bool:
    return max(ln.x1 for ln in a) <= min(ln.x0 for ln in b) + 1 or max(ln.x1 for ln in b) <= min(ln.x0 for ln in a) + 1


def _table_blocks(lines: list[_PdfLine]) -> tuple[dict[int | None, list[tuple[int, str]]], set[int]]:
    """Markdown for the table rows of ``lines``, placed in reading order: ``({id(anchor line) or
    None: [(page, markdown), ...]}, {id of every line rendered in a table})``.

    A page's rows (top to bottom) make one table until a heading of the page lies between two of
    them (its middle below the upper row, above the lower one, and level with them across): the
    table is split there, so the rows under "4.5.2 Classification" are filed in that section, not
    in the one above it. Each table goes before its anchor: the first line in reading order, on
    its page, set below the table's top, level with it across (not a line of the other text
    column) and not in it — so a heading under the table comes after it, and the text above it
    before; a table at the foot of its column goes after the column's last line (``None``: after
    the last line of all), one alone in its column where its first line comes. A header separator goes under each table's first row."""
    rows = _table_cells(lines)
    by_page: dict[int, list[list[list[_PdfLine]]]] = {}
    for row in rows:
        by_page.setdefault(row[0][0].page, []).append(row)
    page_lines: dict[int, list[_PdfLine]] = {}
    for line in lines:
        if line.text.strip():
            page_lines.setdefault(line.page, []).append(line)
    consumed = {id(line) for row in rows for cell in row for line in cell}
    order = {id(line): n for n, line in enumerate(lines)}
    placed: dict[int | None, list[tuple[int, str]]] = {}
    for page, page_rows in by_page.items():
        page_rows = sorted(page_rows, key=lambda row: -_top(row))
        on_page = page_lines.get(page, [])
        headings = [ln for ln in on_page if ln.level and id(ln) not in consumed and not ln.turned]
        tables: list[list[list[list[_PdfLine]]]] = [[page_rows[0]]]
        for row in page_rows[1:]:
            upper_bottom, lower_top = min(ln.y0 for cell in tables[-1][-1] for ln in cell), _top(row)
            span = [ln for r in (tables[-1][-1], row) for cell in r for ln in cell]
            left, right = min(ln.x0 for ln in span), max(ln.x1 for ln in span)
            if any(lower_top < (h.y0 + h.y1) / 2 < upper_bottom and h.x0 < right and h.x1 > left for h in headings):
                tables.append([row])
            else:
                tables[-1].append(row)
        for table in tables:
            members = {id(line) for row in table for cell in row for line in cell}
            top = _top(table[0])
            left = min(ln.x0 for row in table for cell in row for ln in cell)
            right = max(ln.x1 for row in table for cell in row for ln in cell)
            column = [
                ln for ln in on_page if id(ln) not in members and not ln.turned and ln.x0 < right and ln.x1 > left
            ]  # in the table's column: not the other text column
            below = [ln for ln in column if ln.y1 <= top + 1]
            if below:
                anchor = id(below[0])
            elif column:  # at the foot of its column: after the column's last line
                after = order[id(column[-1])] + 1
                anchor = id(lines[after]) if after < len(lines) else None
            else:
                anchor = min((order[m], m) for m in members)[1]
            rendered = []
            for n, row in enumerate(table):
                rendered.append("| " + " | ".join(_cell_text(cell) for cell in row) + " |")
                if n == 0:
                    rendered.append("|" + "---|" * len(row))
            placed.setdefault(anchor, []).append((page, "\n".join(rendered)))
    return placed, consumed


def _top(row: list[list[_PdfLine]]) -> float:
    return max(ln.y1 for cell in row for ln in cell)


def _cell_text(cell: list[_PdfLine]) -> str:
    text = ""
    for line in cell:
        part = " ".join(line.text.split())
        if re.search(r"[^\W\d_]-$", text) and part[:1].islower():
            text = text[:-1] + part
        else:
            text = f"{text} {part}" if text else part
    return text.replace("|", "\\|")
