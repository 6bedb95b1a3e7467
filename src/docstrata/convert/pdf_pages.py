"""Page boundaries of a converted PDF, kept beside its Markdown (never as markers inside it).

:func:`pdf_page_marks` turns the ``(offset, page)`` of each rendered block into the
:class:`~docstrata.models.Document` fields ``page_offsets`` (where each physical page starts in
the Markdown) and ``page_labels`` (the printed labels the PDF defines, ISO 32000-1 §12.4.2
"Page Labels": ``/PageLabels`` number tree of ``/S`` style, ``/P`` prefix, ``/St`` start, read by
pdfminer.six) or, for a PDF without labels of its own, the page numbers its pages print in their
headers and footers (:func:`printed_folios`), with ``page_unit`` ``"page"``.
"""

from __future__ import annotations

import io
import itertools
import re

from ..structure.grammar import int_to_roman, roman_to_int

_FOLIO_ARABIC = re.compile(r"(?:page\s+)?(\d{1,4})(?:\s+of\s+\d{1,4})?|[-–]\s*(\d{1,4})\s*[-–]", re.I)
_FOLIO_ROMAN = re.compile(r"(?:page\s+)?([ivxlcdm]{1,8}|[IVXLCDM]{1,8})", re.I)
_FOLIO_CHAPTER = re.compile(r"(?:page\s+)?([A-Z]{1,3}|\d{1,2})([-–])(\d{1,3})", re.I)  # "2-3", "ES-1", "A-12"
_FOLIO_REACH = 3  # pages within which two folios must agree (a page number and its neighbour's)


def pdf_page_marks(
    data: bytes | None, block_pages: list[tuple[int, int]], n_pages: int, text_length: int, lines: list | None = None
) -> dict:
    """``{"page_offsets", "page_labels", "page_unit"}`` for ``Document``.

    ``block_pages``: ``(offset, page)`` of each Markdown block in document order (page 0-based);
    ``n_pages``: the PDF's page count; ``text_length``: the Markdown's length.
    ``page_offsets[p]`` is the offset of the first block on page ``p`` or later (a page without
    text starts where the next one does; pages after the last text start at the end of the text);
    a block placed out of page order never moves a boundary back.
    ``data``: the PDF (None for page images without one).
    ``page_labels``: the labels the PDF defines (:func:`pdf_page_labels`); without them, the
    page numbers printed in the pages' headers and footers (:func:`printed_folios`, from the
    layout ``lines``, running lines included), ``""`` for a page without one; ``[]`` when neither.
    """
    offsets: list[int] = []
    end = text_length
    it = iter(block_pages)
    pending = next(it, None)
    for page in range(n_pages):
        while pending is not None and pending[1] < page:
            pending = next(it, None)
        offsets.append(pending[0] if pending is not None else end)
    for i in range(1, len(offsets)):  # never decreasing
        offsets[i] = max(offsets[i], offsets[i - 1])
    if offsets:
        offsets[0] = 0  # the text before the first block (none) belongs to the first page
    labels = (pdf_page_labels(data, n_pages) if data else []) or (printed_folios(lines, n_pages) if lines else [])
    return {"page_offsets": offsets, "page_labels": labels, "page_unit": "page"}


def _roman_value(text: str) -> int | None:
    """A folio's roman value (``iv`` → 4), canonical spellings only (:func:`.grammar.roman_to_int`)."""
    return roman_to_int(text, strict=True)


def _to_roman(value: int, upper: bool) -> str:
    return int_to_roman(value, upper) if 0 < value < 4000 else str(value)


def _folio(text: str) -> tuple[str, int, str] | None:
    """``(scheme, value, label)`` of a page-number line — ``"12"``, ``"Page 12 of 40"``, ``"- 12 -"``
    (arabic), ``"iv"`` / ``"Page IV"`` (roman, by case), ``"2-3"`` / ``"ES-1"`` / ``"Page F-1"``
    (page 3 of chapter 2: the scheme names the chapter) — else ``None``."""
    text = " ".join(text.split())
    if m := _FOLIO_ARABIC.fullmatch(text):
        value = int(m.group(1) or m.group(2))
        return ("arabic", value, str(value))
    if (m := _FOLIO_ROMAN.fullmatch(text)) and (value := _roman_value(m.group(1))):
        upper = m.group(1).isupper()
        return ("roman-upper" if upper else "roman", value, m.group(1))
    if m := _FOLIO_CHAPTER.fullmatch(text):
        return (f"chapter:{m.group(1)}{m.group(2)}", int(m.group(3)), f"{m.group(1)}{m.group(2)}{int(m.group(3))}")
    return None


def _label(scheme: str, value: int) -> str:
    if scheme.startswith("roman"):
        return _to_roman(value, scheme == "roman-upper")
    if scheme.startswith("chapter:"):
        return f"{scheme.removeprefix('chapter:')}{value}"
    return str(value)


def printed_folios(lines: list, n_pages: int) -> list[str]:
    """The page number printed on each of ``n_pages`` pages, from the layout ``lines`` (objects
    with ``page``, ``text``, ``y1`` and ``turned``; running headers and footers included), ``""``
    where a page prints none that can be trusted; ``[]`` when no page does.

    A candidate is a line on one of the two outermost text rows at the top or bottom of its page
    that reads as a folio (:func:`_folio`). It is trusted only when a candidate of the same scheme
    within :data:`_FOLIO_REACH` pages agrees with it — their numbers differ by exactly their
    distance in pages ("iii" two pages before "v", "2-3" just after "2-2") — so a section number
    or a lone figure at a page's edge, which never counts with the pages, is not taken for a page
    number, while a book's own numbering (roman front matter, chapter-page folios "1-1", "ES-2",
    a number printed twice) is kept as printed. A page between two trusted folios of one scheme
    whose numbers count through it (a chapter opening without a folio) gets the number between.
    """
    by_page: dict[int, list] = {}
    for line in lines:
        if not getattr(line, "turned", False):
            by_page.setdefault(line.page, []).append(line)
    candidates: dict[int, list[tuple[str, int, str]]] = {}
    for page, page_lines in by_page.items():
        rows = sorted({round(line.y1) for line in page_lines}, reverse=True)
        edge = set(rows[:2] + rows[-2:])
        found = [f for line in page_lines if round(line.y1) in edge and (f := _folio(line.text))]
        if found:
            candidates[page] = found
    trusted: dict[int, tuple[str, int, str]] = {}
    for page, found in candidates.items():
        for scheme, value, label in found:
            if any(
                s == scheme and v - value == other - page
                for other in range(page - _FOLIO_REACH, page + _FOLIO_REACH + 1)
                if other != page
                for s, v, _ in candidates.get(other, ())
            ):
                trusted[page] = (scheme, value, label)
                break
    if not trusted:
        return []
    labels = [""] * n_pages
    for page, (_, _, label) in trusted.items():
        if 0 <= page < n_pages:
            labels[page] = label
    anchors = sorted(trusted)
    for a, b in zip(anchors, anchors[1:]):  # pages between two folios that count through them
        (sa, va, _), (sb, vb, _) = trusted[a], trusted[b]
        if sa == sb and vb - va == b - a and b - a > 1:
            for page in range(a + 1, b):
                labels[page] = _label(sa, va + page - a)
    return labels


def pdf_page_labels(data: bytes, n_pages: int) -> list[str]:
    """The printed label of each of the ``n_pages`` pages (``"i"``, ``"ii"``, ``"1"``, ``"A-1"``)
    when the PDF has a ``/PageLabels`` tree, else ``[]``. A label the tree leaves empty (a style
    without prefix or numbering) falls back to the page's 1-based position. A tree that numbers
    every page 1, 2, 3, … by position (as many generators write by default, whatever the pages
    print) gives ``[]`` too: its numbers are physical, and are reported as such."""
    from pdfminer.pdfdocument import PDFDocument, PDFNoPageLabels
    from pdfminer.pdfparser import PDFParser

    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)))
        labels = list(itertools.islice(document.get_page_labels(), n_pages))
    except PDFNoPageLabels:
        return []
    except Exception:  # noqa: BLE001 - a broken label tree: physical numbers, the text is what matters
        return []
    if len(labels) < n_pages:
        return []
    labels = [label if label else str(i + 1) for i, label in enumerate(labels)]
    if labels == [str(i + 1) for i in range(n_pages)]:
        return []  # a tree that only restates positions (1, 2, 3, …) is no evidence of printed numbers
    return labels
