"""Office formats (DOCX, XLSX via markitdown; PPTX via :mod:`.pptx`) for ``convert``, and Word's displayed numbers.

Word keeps automatic clause and heading numbers in ``numbering.xml`` and heading levels in its
styles, which mammoth (markitdown's DOCX engine) flattens (every clause ``1.``, outline-level
paragraphs as body text): :mod:`.docx_numbering` reads them from the package, writes them into the
Markdown and states them on the blocks (provenance ``numbering``); :func:`docx_heading_numbers`
lists the numbered headings alone. A one-cell table is a frame round paragraphs, read as the
document's flow (:mod:`.docx_frames`); a table whose rows each hold a heading cell and its text is a
layout for headed content, read as headings and paragraphs (:mod:`.docx_layout`). Terms marked by
paragraph styles (``Definition term`` then ``Definition``, :mod:`.docx_definitions`) become the
document's marked definitions.
"""

from __future__ import annotations

import io
import re

from ..errors import ConversionError
from ..models import MarkedDefinition
from .document import ConvertedDocument
from .docx_definitions import word_definitions
from .docx_numbering import LineNumber, apply_word_numbers, stated_blocks, word_paragraphs
from .text import normalize_heading

_DOCX_STYLE_MAP = "p[style-name='Title'] => h1:fresh"


# What markitdown's HTML-to-Markdown step (markdownify) is told, for every format that goes through
# it (HTML, DOCX via mammoth's HTML, XLSX, PPTX): write the document's characters, not Markdown
# escapes of them (``{sow_number}``, a blank ``____``, ``reg_impl`` in a link, a literal ``*``:
# markdownify's default ``\_`` / ``\*`` reached chunks, citations and definitions), and drop
# underline (``<u>``), which Markdown cannot say: it would stay in the text as raw HTML. Bold and
# italic stay as Markdown ``**`` / ``*`` (the structure stage reads bold run-in titles). See
# ``docs/architecture.md``, "The converter contract".
_MARKDOWNIFY_OPTIONS = {"escape_underscores": False, "escape_asterisks": False, "strip": ["u"]}


def _markitdown_convert(data: bytes, ext: str, charset: str | None = None, **options) -> str:
    from markitdown import (  # lazy: importing markitdown costs ~0.5 s
        MarkItDown,
        StreamInfo,
    )

    converter = MarkItDown(enable_plugins=False)
    info = StreamInfo(extension=f".{ext}", charset=charset)
    options = {**_MARKDOWNIFY_OPTIONS, **options}
    return converter.convert_stream(io.BytesIO(data), stream_info=info, **options).markdown


def _convert_office(data: bytes, ext: str, doc_key: str) -> ConvertedDocument:
    """DOCX / PPTX / XLSX bytes → :class:`ConvertedDocument` (markitdown's Markdown, Word headings
    ``style`` blocks; a PPTX's slides read by :func:`.pptx.convert_pptx`)."""
    import zipfile

    if not data.startswith(b"PK"):
        raise ConversionError(doc_key, f"corrupt .{ext}: not a ZIP-based Office Open XML file")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
    except zipfile.BadZipFile:
        raise ConversionError(doc_key, f"corrupt .{ext}: damaged ZIP container") from None
    if "[Content_Types].xml" not in names:
        raise ConversionError(doc_key, f"corrupt .{ext}: not an Office Open XML package")
    if ext == "pptx":  # the slides' titles and text shapes, read with python-pptx
        from .pptx import convert_pptx

        return convert_pptx(data, doc_key)
    if ext != "docx":
        return ConvertedDocument.from_markdown(_markitdown_convert(data, ext), provenance="markup")
    warnings: list[str] = []
    try:  # a one-cell table frames paragraphs (a boxed passage): they are the document's flow
        from .docx_frames import unframe_single_cells

        data = unframe_single_cells(data)
    except Exception as e:  # unframing is a refinement; the table keeps the text
        warnings.append(f"one-cell tables not unframed: {type(e).__name__}")
    typed = data  # the package as typeset: headings inferred from type and the title are read from it
    try:  # a table laying out headed rows (a heading cell, then its text): headings and their text
        from .docx_layout import unframe_headed_rows

        data = unframe_headed_rows(data)
    except Exception as e:  # a refinement too; the table keeps the text
        warnings.append(f"table-layout headings not recovered: {type(e).__name__}")
    markdown = _markitdown_convert(data, ext, style_map=_DOCX_STYLE_MAP)
    stated: dict[int, LineNumber] = {}
    definitions: list[MarkedDefinition] = []
    paragraphs = None
    try:  # the numbers and heading levels Word displays, which mammoth flattens to "1." and body text
        paragraphs = word_paragraphs(data)
        markdown, stated = apply_word_numbers(markdown, paragraphs)
    except Exception as e:  # numbering is a refinement; the text is already there
        warnings.append(f"list and heading numbers not recovered: {type(e).__name__}")
    try:  # "Definition term" / "Definition" paragraph pairs: Word's <dt>/<dd>
        definitions = word_definitions(paragraphs) if paragraphs is not None else []
    except Exception as e:  # marked definitions are a refinement too
        warnings.append(f"style-marked definitions not recovered: {type(e).__name__}")
    try:  # clause titles marked only by size or bold, in a document without heading styles
        from .docx_headings import inferred_headings, mark_inferred_headings

        markdown = mark_inferred_headings(markdown, inferred_headings(typed))
    except Exception as e:  # inferred headings are a refinement; the text is already there
        warnings.append(f"headings not inferred from font size and bold: {type(e).__name__}")
    anchors: dict[str, str] = {}
    try:  # REF fields and bookmark hyperlinks, which mammoth drops, become in-page links
        from .docx_marks import docx_links, link_references

        refs, anchors = docx_links(data)
        markdown = link_references(markdown, refs)
    except Exception as e:  # cross-references are a refinement too
        warnings.append(f"cross-references not recovered: {type(e).__name__}")
    title = None
    try:  # the title the package states (core property) or its first paragraph's type shows
        from .docx_headings import docx_title

        title = docx_title(typed)
    except Exception as e:  # a title is a refinement too: the first heading or the file name stands in
        warnings.append(f"document title not read: {type(e).__name__}")
    converted = ConvertedDocument.from_markdown(
        markdown, provenance="style", title=title, warnings=warnings, anchors=anchors, marked_definitions=definitions
    )
    converted.blocks = stated_blocks(markdown, converted.blocks, stated)
    return converted


def docx_heading_numbers(data: bytes) -> list[tuple[str, str]]:
    """``(heading text, number as Word shows it)`` for each auto-numbered heading (a ``Heading N`` or
    ``Title`` paragraph) of a .docx, numbered as :func:`.docx_numbering.word_paragraphs` reads
    ``numbering.xml`` (ECMA-376 Part 1 §17.9). Bullets and unnumbered headings are omitted."""
    return [
        (p.text, p.label)
        for p in word_paragraphs(data)
        if p.label and p.text and re.fullmatch(r"heading\s*\d|title", p.style, re.IGNORECASE)
    ]


def number_docx_headings(markdown: str, numbered: list[tuple[str, str]]) -> str:
    """Prefix each Markdown heading that matches the next numbered Word heading with its number.

    Headings are matched in document order on normalised text; a heading already starting with
    its number is left alone.
    """
    if not numbered:
        return markdown
    lines = markdown.split("\n")
    pending = 0
    for i, line in enumerate(lines):
        m = re.match(r"(#{1,6})\s+(.*)$", line)
        if not m or pending >= len(numbered):
            continue
        key = normalize_heading(m.group(2))
        for j in range(pending, min(pending + 5, len(numbered))):
            text, label = numbered[j]
            if normalize_heading(text) == key:
                if not key.startswith(normalize_heading(label)):
                    lines[i] = f"{m.group(1)} {label} {m.group(2)}"
                pending = j + 1
                break
    return "\n".join(lines)
