"""PDF for ``convert``: layout (``pdf_layout``), running headers/footers and page numbers dropped,
split section numbers rejoined, headings recovered (``pdf_headings``), then rendered as Markdown."""

from __future__ import annotations

import re
from collections import Counter

from ..errors import ConversionError
from .document import ConvertedDocument
from .pdf_headings import _BARE_NUMBER, _apply_outline, _classify_by_font
from .ocr import OcrSettings
from .pdf_layout import _body_style, _pdf_layout, _PdfLine, _vertical_overlap
from .pdf_ocr import ocr_pdf
from .pdf_margins import margin_line_numbers, margin_notes
from .pdf_notes import split_notes, with_notes
from .pdf_order import join_hanging_labels, restore_box_order
from .pdf_pages import pdf_page_marks
from .pdf_tables import _table_blocks, _table_cells
from .run_in import opening_number
from .text import _is_page_number, _running_key


def _convert_pdf(
    data: bytes, ext: str, doc_key: str, ocr: OcrSettings | None = None, file_sha256: str | None = None
) -> ConvertedDocument:
    """PDF bytes → :class:`ConvertedDocument`: headings from the outline (``outline`` blocks) or
    from font statistics (``font``), page boundaries beside the text. Pages without a usable text
    layer are read by OCR (``ocr``, default :class:`OcrSettings`; ``file_sha256`` keys its cache)."""
    if b"%PDF" not in data[:1024]:
        raise ConversionError(doc_key, "corrupt PDF: no %PDF header (not a PDF file?)")
    lines, outline, meta_title, n_pages, _ = _pdf_layout(data, doc_key)
    # pages without text that hold an image are OCR's, and it warns about those it could not read;
    # a page that draws nothing is blank, no scan (pdf_ocr)
    lines, warnings, not_read = ocr_pdf(data, doc_key, lines, n_pages, ocr or OcrSettings(), file_sha256)
    if not any(line.text.strip() for line in lines):
        found = not_read or "; ".join(warnings) or "OCR found no text"
        raise ConversionError(doc_key, f"no text layer in this PDF (scanned images?); {found}")
    markdown, marks, provenance = layout_markdown(lines, outline, n_pages, data)
    if meta_title and not printed_early(meta_title, lines):
        meta_title = None  # "Publications Office" of an Official Journal PDF: the producer, not the title
    return ConvertedDocument.from_markdown(
        markdown, provenance=provenance, title=meta_title, warnings=warnings, **marks
    )


def printed_early(title: str, lines: list[_PdfLine], pages: int = 2) -> bool:
    """Whether the metadata ``title`` is printed on the document's first ``pages`` pages: at least
    60 % of its words (three letters or more, case-folded) occur in their text. A /Title a
    producer filled with its own name or a template's is not the document's title."""
    words = _words(title)
    if not words:
        return True
    first = min((line.page for line in lines), default=0)
    early = set().union(*(_words(line.text) for line in lines if line.page < first + pages))
    return len(words & early) >= 0.6 * len(words)


def _words(text: str) -> set[str]:
    """The case-folded words of three letters or more in ``text``."""
    letters = "".join(c if c.isalpha() else " " for c in text)
    return {w.casefold() for w in letters.split() if len(w) >= 3}


def layout_markdown(
    lines: list[_PdfLine], outline: list[tuple[int, str]], n_pages: int, pdf_data: bytes | None = None
) -> tuple[str, dict, str]:
    """Markdown, page marks (:func:`pdf_page_marks`) and heading provenance (``outline`` or
    ``font``, as :class:`~.document.Block` names it) of laid-out lines — a PDF's text layer, OCR
    of scanned pages or image files (:mod:`.ocr_layout`) — with running lines dropped, split
    numbers rejoined, margin notes set before the provisions they title (:mod:`.pdf_margins`), table
    cells marked and headings recovered (``outline`` first, else fonts); line numbers printed in
    the margin (:func:`.pdf_margins.margin_line_numbers`) are dropped first.
    ``pdf_data``: the PDF, whose own page labels win over the folios printed on its pages. Page
    footnotes (:mod:`.pdf_notes`) are set after their page's text as ``[^n]: …`` paragraphs."""
    lines = restore_box_order(margin_line_numbers(lines))  # a Bill's or pleading's line count: no text
    laid_out = list(lines)  # with the running lines, whose page numbers label the pages (pdf_pages)
    turned = _drop_repeated_turned(lines, n_pages)
    lines = _drop_running_lines([line for line in lines if not line.turned], n_pages)
    lines, notes = split_notes(lines, _body_style(lines)[0])  # page footnotes: never headings or sections
    lines = margin_notes(_merge_split_numbers(lines))  # side-column titles: headings, never table cells
    for line in (line for row in _table_cells(lines) for cell in row for line in cell):
        line.cell = True
    lines = join_hanging_labels(lines)
    provenance = "outline"
    if not _apply_outline(lines, outline):
        _classify_by_font(lines)
        provenance = "font"
    block_pages: list[tuple[int, int]] = []
    markdown = _pdf_markdown(with_notes(_with_turned(lines, turned), notes), block_pages)
    return markdown, pdf_page_marks(pdf_data, block_pages, n_pages, len(markdown), laid_out), provenance


def _drop_repeated_turned(lines: list[_PdfLine], n_pages: int) -> list[_PdfLine]:
    """The lines set at an angle (``_PdfLine.turned``) that are not page furniture: a text printed
    up the margin of at least a quarter of the pages (and three) — "This publication is available
    free of charge from: …", a "DRAFT" or licence note, numbers masked — is dropped; rotated table
    headers or a sideways table stay, as body text."""
    pages_of: dict[str, set[int]] = {}
    for line in lines:
        if line.turned:
            pages_of.setdefault(_running_key(line.text), set()).add(line.page)
    threshold = max(3, -(-n_pages // 4))
    return [line for line in lines if line.turned and len(pages_of[_running_key(line.text)]) < threshold]


def _with_turned(lines: list[_PdfLine], turned: list[_PdfLine]) -> list[_PdfLine]:
    """The upright lines in order, each page's turned lines after its last upright line (as body
    text: they never take part in heading recovery)."""
    if not turned:
        return lines
    by_page: dict[int, list[_PdfLine]] = {}
    for line in turned:
        by_page.setdefault(line.page, []).append(line)
    out: list[_PdfLine] = []
    for n, line in enumerate(lines):
        out.append(line)
        if n + 1 == len(lines) or lines[n + 1].page != line.page:
            out.extend(by_page.pop(line.page, []))
    out.extend(line for page in sorted(by_page) for line in by_page[page])  # pages with turned text only
    return sorted(out, key=lambda line: line.page) if by_page else out


def _drop_running_lines(lines: list[_PdfLine], n_pages: int) -> list[_PdfLine]:
    """Remove page headers/footers: lines on the two outermost text rows at the top or bottom of a
    page whose text (numbers masked, letter suffixes too: ``Section 287AA``) and size recur on at
    least a quarter of the pages (and three), or whose exact text (with letters) and size recur on
    a run of three consecutive pages (or three alternate ones) — a header naming the current
    chapter ("CHAPTER 1", then "APPENDIX B") changes with the chapter — or whose text (case and
    OCR noise folded, :func:`_same_place_pages`) stands at the same height on a quarter of the pages
    and at least two (a short scan), and page numbers there.
    A header block of more rows (a statute's "Part XX …" / "Division 1 …" / "Section 287") is
    peeled row by row: where a pass removed edge lines of a page, the next pass looks at the rows
    that became that page's edge (at most three passes)."""
    body_size = _body_style(lines)[0]
    threshold = max(3, -(-n_pages // 4))  # books alternate headers on odd and even pages
    # set at the same place on the page as well: a quarter of the pages suffices, and two (a 3-page
    # scan whose cover has no running head: "Laws of Malaysia / ACT 136" on pages 1 and 3)
    placed_threshold = max(2, -(-n_pages // 4))
    pages: set[int] | None = None  # pages whose edges the next pass looks at (None: all)
    for peel in range(3):
        by_page: dict[int, list[_PdfLine]] = {}
        for line in lines:
            by_page.setdefault(line.page, []).append(line)
        edges = {p: _edge_lines(ls) for p, ls in by_page.items() if pages is None or p in pages}
        if peel:  # below a header row only header text ("Section 287"), never a lone number or glyph;
            # a sentence ("© 2022 Bonterms, Inc. Free to use under CC BY 4.0.") only when it stands at
            # the same place on a quarter of the pages and three: a footer block's row, not body text
            everywhere = _edge_places(edges)
            edges = {
                p: [
                    ln
                    for ln in edge
                    if re.search(r"[^\W\d_]{2}", ln.text)
                    and (
                        (len(ln.text.split()) <= 8 and not re.search(r"[.;,:]$", ln.text.strip()))
                        or _same_place_pages(ln, p, everywhere) >= threshold
                    )
                ]
                for p, edge in edges.items()
            }
        counts: Counter[tuple[str, float]] = Counter()
        pages_of: dict[tuple[str, float], set[int]] = {}
        heights: dict[tuple[str, float], set[tuple[int, int]]] = {}  # verbatim edge text -> (page, y)
        for page, edge in edges.items():
            counts.update({(_edge_key(line.text), line.size) for line in edge})
            for line in edge:  # verbatim, with letters: not a section number atop successive pages
                if re.search(r"[^\W\d_]", line.text):
                    pages_of.setdefault((_facing_key(line.text), line.size), set()).add(page)
                    heights.setdefault((_facing_key(line.text), line.size), set()).add((page, round(line.y1)))
        placed = _edge_places(edges)
        folios = _counting_folios(edges)
        doomed = set()
        for page, edge in edges.items():
            for line in edge:
                # a bare number under a header row is a contents entry's section number, not a page's,
                # unless it counts with the pages at its height (a folio above a footer's lowest rows)
                page_number = (
                    (not peel or id(line) in folios) and _is_page_number(line.text) and line.size <= body_size + 1
                )
                verbatim = pages_of.get((_facing_key(line.text), line.size), set())
                if (
                    page_number
                    or counts[(_edge_key(line.text), line.size)] >= threshold
                    or _in_page_run(page, verbatim)
                    or _next_page_twin(line, page, heights)
                    or _same_place_pages(line, page, placed) >= placed_threshold
                ):
                    doomed.add(id(line))
        doomed -= _labels_beside_text(edges, doomed, folios)
        if not doomed:
            break
        pages = {line.page for line in lines if id(line) in doomed}
        lines = [line for line in lines if id(line) not in doomed]
    return lines


def _labels_beside_text(edges: dict[int, list[_PdfLine]], doomed: set[int], folios: set[int]) -> set[int]:
    """Ids of the edge lines without letters that have a kept line with letters beside them on
    their row, within 60 pt to the right: a paragraph's label ("(2)", "11.") at the top of a page
    is set in the same place on many pages, but it is the paragraph's, not the page's; a bare
    number so placed ("38" beside "Short title", a Bill's last section on the last row of its
    page) too, unless it counts with the pages (``folios``, :func:`_counting_folios`)."""
    kept = set()
    for edge in edges.values():
        for line in edge:
            if re.search(r"[^\W\d_]", line.text) or id(line) in folios:
                continue
            if any(
                id(other) not in doomed
                and re.search(r"[^\W\d_]", other.text)
                and 0 <= other.x0 - line.x1 + 1 <= 61
                and _vertical_overlap(line, other) > 0.5
                for other in edge
            ):
                kept.add(id(line))
    return kept


def _counting_folios(edges: dict[int, list[_PdfLine]]) -> set[int]:
    """Ids of the edge lines that are bare arabic numbers counting with the pages: another page
    within three has a bare number at the same height (within 2 pt) whose value differs by exactly
    the pages between them ("2" on page 3 and "4" on page 5)."""
    numbers = [
        (page, int(line.text), line)
        for page, edge in edges.items()
        for line in edge
        if re.fullmatch(r"[0-9]{1,4}", line.text.strip())
    ]
    by_page: dict[int, list[tuple[int, _PdfLine]]] = {}
    for page, value, line in numbers:
        by_page.setdefault(page, []).append((value, line))
    return {
        id(line)
        for page, value, line in numbers
        if any(
            v - value == other - page and abs(o.y1 - line.y1) <= 2
            for other in range(page - 3, page + 4)
            if other != page
            for v, o in by_page.get(other, ())
        )
    }


def _place_key(text: str) -> str:
    """An edge line's text as OCR and typesetting vary it: numbers masked, case folded, letters and
    digits only ("AcT 136" and "ACT 138" are one running head)."""
    return re.sub(r"[^\w#]+", "", _edge_key(text).casefold())


def _edge_places(edges: dict[int, list[_PdfLine]]) -> dict[str, list[tuple[int, float, float]]]:
    """Edge lines with letters by :func:`_place_key`: (page, baseline ``y1``, size) of each."""
    placed: dict[str, list[tuple[int, float, float]]] = {}
    for page, edge in edges.items():
        for line in edge:
            if re.search(r"[^\W\d_]{2}", line.text):
                placed.setdefault(_place_key(line.text), []).append((page, line.y1, line.size))
    return placed


def _same_place_pages(line: _PdfLine, page: int, placed: dict[str, list[tuple[int, float, float]]]) -> int:
    """On how many pages (this one included) an edge line with the same :func:`_place_key` stands
    at the same height (within 0.6 of its size, 2 pt at least) in a size within 1.5 pt: the
    repetition across pages that makes a line page furniture, for a text layer and OCR alike."""
    if not re.search(r"[^\W\d_]{2}", line.text):
        return 0
    tol = max(2.0, 0.6 * line.size)
    return 1 + len(
        {
            p
            for p, y, size in placed.get(_place_key(line.text), [])
            if p != page and abs(y - line.y1) <= tol and abs(size - line.size) <= 1.5
        }
    )


def _edge_key(text: str) -> str:
    """A page-edge line with its numbers masked, a number's letter suffix included (``Section
    287AA`` and ``Section 12`` are one running header), its gap-separated parts in one order
    (:func:`_facing_key`)."""
    return re.sub(r"#[A-Z]{1,3}\b", "#", _running_key(_facing_key(text)))


def _facing_key(text: str) -> str:
    """``text`` with its parts (runs split by a wide gap) in sorted order: facing pages mirror a
    running header (``Schedule 2  Amendments commencing 1 January 2023`` on an even page,
    ``Amendments commencing 1 January 2023  Schedule 2`` on the odd one), and the two are one
    header. Text without a wide gap is returned with its spaces collapsed."""
    parts = [" ".join(p.split()) for p in re.split(r"\s{2,}", text.strip()) if p.strip()]
    return "  ".join(sorted(parts)) if len(parts) > 1 else " ".join(text.split())


def _next_page_twin(line: _PdfLine, page: int, heights: dict[tuple[str, float], set[tuple[int, int]]]) -> bool:
    """An edge line of two words or more that the page before or after prints verbatim (its parts
    in either order, :func:`_facing_key`) at the same height (within 2 pt) and size: a running
    head naming the current Part, which a short Part repeats on two pages only ("Part 5—Miscellaneous
    and general" on the last two pages of a Bill), not a section heading, which is printed once."""
    if len(line.text.split()) < 2:
        return False
    twins = heights.get((_facing_key(line.text), line.size), set())
    return any((page + d, round(line.y1) + dy) in twins for d in (-1, 1) for dy in (-2, -1, 0, 1, 2))


def _in_page_run(page: int, pages: set[int]) -> bool:
    """``page`` is one of three consecutive pages, or of three alternate ones, in ``pages``."""
    return any(
        all(page + step * (k - offset) in pages for k in range(3))
        for step in (1, 2) for offset in range(3)
    )  # fmt: skip


def _edge_lines(page_lines: list[_PdfLine]) -> list[_PdfLine]:
    rows = sorted({round(line.y1) for line in page_lines}, reverse=True)
    edge_rows = set(rows[:2] + rows[-2:])
    return [line for line in page_lines if round(line.y1) in edge_rows]


def _merge_split_numbers(lines: list[_PdfLine]) -> list[_PdfLine]:
    """Join a bare section number ("1.2.2", "4.1") with the text laid out beside it on the same row,
    which pdfminer puts in a separate box when a tab or a hanging indent separates them.

    The number joins the front of that line, where the line is read: pdfminer may read a page's
    column of clause numbers (``5.``, ``5.1.``, ``5.2.``, ``6.`` …) before the headings and
    paragraphs beside them, so the text's place in the reading order, not the number's, is the
    clause's. A line that opens a clause starts a paragraph: when it stands inside a box, it and the
    box's lines after it become a box of their own."""
    absorbed: set[int] = set()
    joined: set[int] = set()  # the lines a number joined: where the box splits
    for line in lines:
        if not _BARE_NUMBER.match(line.text) or id(line) in absorbed:
            continue
        beside = [
            other for other in lines
            if other.page == line.page and other is not line and id(other) not in absorbed
            and id(other) not in joined
            and other.x0 > line.x1 - 1 and _vertical_overlap(line, other) > 0.5 and re.search(r"[^\W\d_]", other.text)
        ]  # fmt: skip
        if beside:
            title = min(beside, key=lambda other: other.x0)
            title.text = f"{line.text} {title.text}"
            title.x0, title.chars = line.x0, line.chars + title.chars
            absorbed.add(id(line))
            joined.add(id(title))
    out = [line for line in lines if id(line) not in absorbed]
    fresh = max((line.box for line in out), default=0) + 1
    previous_box: int | None = None
    renamed: int | None = None  # the new box of the current box's lines from a joined line on
    for line in out:
        box = line.box
        if box != previous_box:
            renamed = None
        elif id(line) in joined:
            renamed, fresh = fresh, fresh + 1
        if renamed is not None:
            line.box = renamed
        previous_box = box
    return out


def _centred_stack(lines: list[_PdfLine]) -> set[int]:
    """Ids of the body lines that continue the block of the line before them: each alone in its box,
    both shorter than the page's widest line (under 0.9 of it), centred on one axis (within 3 pt)
    and not starting at one margin (a paragraph's lines, set one per box), the second directly
    below the first (a gap under 2.5 type sizes) — a centred division label and its
    title ("CHAPTER I" / "GENERAL PROVISIONS") or a signature block, set line by line."""
    box_sizes: dict[int, int] = {}
    widest: dict[int, float] = {}
    for line in lines:
        box_sizes[line.box] = box_sizes.get(line.box, 0) + 1
        widest[line.page] = max(widest.get(line.page, 0.0), line.x1 - line.x0)
    out: set[int] = set()
    body = [line for line in lines if line.text and not line.level and not line.note and not line.cell]
    for above, line in zip(body, body[1:]):
        short = max(above.x1 - above.x0, line.x1 - line.x0) < 0.9 * widest[line.page]
        if (
            short
            and above.page == line.page
            and abs(above.x0 - line.x0) > 3  # not two lines of a left-aligned paragraph
            and box_sizes[above.box] == box_sizes[line.box] == 1
            and abs((above.x0 + above.x1) - (line.x0 + line.x1)) <= 6
            and 0 <= above.y0 - line.y1 < 2.5 * max(above.size, line.size)
            and not above.turned
            and not line.turned
        ):
            out.add(id(line))
    return out


def _mark_run_in_title(text: str, run_in: str) -> str:
    """A paragraph's first line with its bold run-in title marked as Markdown bold after the clause
    number (``1. **What the Company owns.** The Company owns …``), so the structure reads the
    paragraph as a titled clause; ``run_in`` is the title's letters without spaces
    (:func:`.pdf_layout._run_in_title`). Unchanged when the text after the number does not open
    with those letters (a number joined from another column, words rejoined differently)."""
    number = opening_number(text)
    if not number[:1].isdigit():
        return text  # a title without its clause number stays text: no clause to title
    head = len(text) - len(text[len(number) :].lstrip())
    seen = ""
    for end in range(head, len(text)):
        if not text[end].isspace():
            seen += text[end]
        if seen == run_in:
            rest = text[end + 1 :]
            if not rest.strip() or rest[:1] not in " \t":
                return text  # the title must end a word, with the clause text after it
            return f"{text[:head]}**{text[head : end + 1]}**{rest}"
        if not run_in.startswith(seen):
            return text
    return text


def _pdf_markdown(lines: list[_PdfLine], block_pages: list[tuple[int, int]] | None = None) -> str:
    """Render classified lines: headings as ATX lines, table rows (``pdf_tables``) as Markdown
    table rows, each box's other lines as one paragraph (line breaks kept, words hyphenated
    across a line break rejoined, dot leaders cut to four dots), blank lines between.
    ``block_pages``, when given, receives ``(offset, page)`` for each block: where it starts in
    the returned text and the 0-based page of its first line (a paragraph is one box, on one page;
    a short centred line continues the short centred line above it, :func:`_centred_stack`)."""
    tables, in_table = _table_blocks(lines)
    stacked = _centred_stack(lines)
    blocks: list[str] = []
    pages: list[int] = []  # page of each block
    paragraph: list[str] = []
    current_box = None
    current_page = 0

    def flush() -> None:
        if paragraph:
            blocks.append("\n".join(paragraph))
            pages.append(current_page)
            paragraph.clear()

    def place_tables(anchor: int | None) -> None:
        nonlocal current_box
        for page, table in tables.get(anchor, ()):
            flush()
            blocks.append(table)
            pages.append(page)
            current_box = None

    for line in lines:
        place_tables(id(line))
        if not line.text or id(line) in in_table:
            continue
        if line.note:  # a page footnote, one paragraph each (pdf_notes)
            flush()
            blocks.append(line.text)
            pages.append(line.page)
            current_box = None
            continue
        if line.level:
            flush()
            blocks.append("#" * line.level + " " + " ".join(line.text.split()))
            pages.append(line.page)
            current_box = None
            continue
        if line.box != current_box and id(line) in stacked and paragraph:
            current_box = line.box  # a centred line under a centred line: one block ("CHAPTER I" / its title)
        elif line.box != current_box:
            flush()
            current_box, current_page = line.box, line.page
        text = re.sub(r"^(\s*)([#>])", r"\1\\\2", line.text)  # body text must not become a heading/quote
        # a contents line's dot leader ("4.2.2 Authenticator … ....................... 7"): four
        # dots still mark it as contents, sixty made a contents page thousands of tokens
        text = re.sub(r"[ \t]*(?:\.[ \t]?){4,}[ \t]*", " .... ", text).rstrip()
        if not paragraph and line.run_in:
            text = _mark_run_in_title(text, line.run_in)
        if paragraph and re.search(r"[^\W\d_]-$", paragraph[-1]) and text[:1].islower():
            paragraph[-1] = paragraph[-1][:-1] + text
        else:
            paragraph.append(text)
    place_tables(None)
    flush()
    if block_pages is not None:
        offset = 0
        for block, page in zip(blocks, pages):
            block_pages.append((offset, page))
            offset += len(block) + 2
    return "\n\n".join(blocks)
