"""Page boundaries of a converted PDF, kept beside its Markdown (never as markers inside it).

:func:`pdf_page_marks` turns the ``(offset, page)`` of each rendered block into the
:class:`~docstrata.models.Document` fields ``page_offsets`` (where each physical page starts in
the Markdown) and ``page_labels`` (the printed labels the PDF defines, ISO 32000-1 §12.4.2
"Page Labels": ``/PageLabels`` number tree of ``/S`` style, ``/P`` prefix, ``/St`` start, read by
pdfminer.six), with ``page_unit`` ``"page"``.
"""

from __future__ import annotations

import io
import itertools


def pdf_page_marks(data: bytes, block_pages: list[tuple[int, int]], n_pages: int, text_length: int) -> dict:
    """``{"page_offsets", "page_labels", "page_unit"}`` for ``Document``.

    ``block_pages``: ``(offset, page)`` of each Markdown block in document order (page 0-based);
    ``n_pages``: the PDF's page count; ``text_length``: the Markdown's length. ``page_offsets[p]`` is the offset of the first block on page
    ``p`` or later (a page without text starts where the next one does; pages after the last text
    start at the end of the text); a block placed out of page order never moves a boundary back.
    ``page_labels`` is empty when the PDF defines no labels (or they cannot be read).
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
    return {"page_offsets": offsets, "page_labels": pdf_page_labels(data, n_pages), "page_unit": "page"}


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
