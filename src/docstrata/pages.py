"""Page spans: a paged source's page boundaries → the first and last page of each section and chunk.

A converter keeps the page boundaries of a PDF (or the slides of a PPTX) beside its Markdown
(:attr:`~docstrata.models.Document.page_offsets`: where each physical page starts), never as
markers in the text, so no page number pollutes chunks, BM25 or embeddings. This stage, run
after chunking, places every section (by its lines: the parser's sections cover every line of the
Markdown once, from ``start_line``) and every chunk (by finding its text in the Markdown, in
document order, whitespace-insensitively: chunking re-joins lines and words) in the Markdown, and
gives each the pages its first and last non-blank character stand on, as the five page fields of
:class:`~docstrata.models.PageSpan`. A chunk whose text cannot be found verbatim (a converter that
re-paired headings with bodies) takes its section's span.

Entry point: :func:`assign_pages`.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from .models import Chunk, Document, DocumentTree, PageSpan

_WORD = re.compile(r"\S+")
_PROBE = 80  # characters of a chunk's (normalised) text looked up when the whole is not found verbatim


class _Text:
    """The Markdown with each run of whitespace as one space, and the way back to offsets in it."""

    def __init__(self, markdown: str):
        self.starts: list[int] = []  # each word's offset in the markdown
        self.norm_starts: list[int] = []  # and in the normalised text
        words, pos = [], 0
        for m in _WORD.finditer(markdown):
            self.starts.append(m.start())
            self.norm_starts.append(pos)
            words.append(m.group())
            pos += len(m.group()) + 1
        self.text = " ".join(words)

    def original(self, norm_pos: int) -> int:
        """The Markdown offset of the character at ``norm_pos`` of the normalised text."""
        i = bisect_right(self.norm_starts, norm_pos) - 1
        if i < 0:
            return 0
        return self.starts[i] + min(norm_pos - self.norm_starts[i], len(self.text))


def _normalise(text: str) -> str:
    return " ".join(text.split())


class _Pages:
    """Offset in the Markdown → :class:`PageSpan` fields, from a document's page marks."""

    def __init__(self, document: Document):
        self.offsets = document.page_offsets
        self.labels = document.page_labels if len(document.page_labels) == len(self.offsets) else []
        self.slides = document.page_unit == "slide"

    def page_of(self, offset: int) -> int:
        """0-based physical page holding the character at ``offset`` (the last page starting at or
        before it: an empty page shares its offset with the next and never holds text)."""
        return max(0, bisect_right(self.offsets, offset) - 1)

    def span(self, start: int, end: int) -> PageSpan:
        """Pages of the text from offset ``start`` to the character before ``end``: by their
        printed labels when both its first and last page have one (a page that prints no number
        has ``""``), else by their positions (``physical``); slides by their numbers."""
        first, last = self.page_of(start), self.page_of(max(start, end - 1))
        if self.labels and self.labels[first] and self.labels[last]:
            numbering = "slide" if self.slides else "printed"
            return PageSpan(self.labels[first], self.labels[last], numbering, first + 1, last + 1)
        return PageSpan(str(first + 1), str(last + 1), "slide" if self.slides else "physical", first + 1, last + 1)


def _set(item, span: PageSpan | None) -> None:
    if span is None:
        return
    item.page_start, item.page_end, item.page_numbering = span.page_start, span.page_end, span.page_numbering
    if hasattr(item, "physical_page_start"):
        item.physical_page_start, item.physical_page_end = span.physical_page_start, span.physical_page_end


def section_spans(document: Document, tree: DocumentTree) -> dict[str, PageSpan]:
    """section id → pages of its heading and own body (its non-blank characters)."""
    pages = _Pages(document)
    markdown = document.markdown
    line_starts = [0] + [m.end() for m in re.finditer("\r\n|\r|\n", markdown)]  # the parser's line breaks
    order = sorted(tree.sections, key=lambda s: s.start_line)
    out: dict[str, PageSpan] = {}
    for n, s in enumerate(order):
        a = line_starts[min(s.start_line - 1, len(line_starts) - 1)]
        b = (
            line_starts[order[n + 1].start_line - 1]
            if n + 1 < len(order) and order[n + 1].start_line - 1 < len(line_starts)
            else len(markdown)
        )
        piece = markdown[a:b]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece.rstrip())
        if trail <= lead:  # no text of its own: where it stands
            out[s.section_id] = pages.span(a, a + 1)
        else:
            out[s.section_id] = pages.span(a + lead, a + trail)
    return out


def _chunk_body(chunk: Chunk) -> str:
    """The chunk's document text: ``content`` without the text chunking added (a repeated table
    header, a re-opened or closed fence)."""
    text = chunk.content
    prefix, suffix = chunk.metadata.get("added_prefix", ""), chunk.metadata.get("added_suffix", "")
    if prefix and text.startswith(prefix):
        text = text[len(prefix) :]
    if suffix and text.endswith(suffix):
        text = text[: len(text) - len(suffix)]
    return _normalise(text)


def _find(norm: str, body: str, cursor: int) -> tuple[int, int] | None:
    """``(start, end)`` of ``body`` in ``norm`` at or after ``cursor`` (else anywhere): the whole
    text, else its first :data:`_PROBE` characters up to the last ones after them."""
    for at in (cursor, 0):
        pos = norm.find(body, at)
        if pos >= 0:
            return pos, pos + len(body)
    head, tail = body[:_PROBE], body[-_PROBE:]
    for at in (cursor, 0):
        pos = norm.find(head, at)
        if pos < 0:
            continue
        end = norm.find(tail, pos)
        if 0 <= end <= pos + 2 * len(body) + 1000:
            return pos, end + len(tail)
        return pos, pos + len(body)
    return None


def assign_pages(document: Document, tree: DocumentTree, chunks: list[Chunk]) -> int:
    """Fill the page fields of ``tree.sections`` and ``chunks`` (in place) from the page marks of
    ``document``; a document without them (an unpaged format) is left untouched. Returns how many
    chunks were placed by their section (their text was not found in the Markdown)."""
    if not document.page_offsets:
        return 0
    pages = _Pages(document)
    spans = section_spans(document, tree)
    for s in tree.sections:
        _set(s, spans.get(s.section_id))
    text = _Text(document.markdown)
    cursor, fallbacks = 0, 0
    for c in chunks:
        body = _chunk_body(c)
        found = _find(text.text, body, cursor) if body else None
        if found is None:
            fallbacks += 1
            _set(c, spans.get(c.section_id))
            continue
        start, end = found
        cursor = start
        _set(c, pages.span(text.original(start), text.original(max(start, end - 1)) + 1))
    return fallbacks
