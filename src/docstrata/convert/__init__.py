"""File → Markdown: the ``convert`` stage.

Entry point :func:`convert_file` takes a :class:`~docstrata.models.SourceFile` and returns a
:class:`~docstrata.models.Document`. Every converter returns one
:class:`~.document.ConvertedDocument` (the contract: Markdown text cut into typed blocks, headings
stating level, number and provenance; ``docs/architecture.md``), which :func:`as_document` turns
into the Document. Any file it cannot turn into text raises
:class:`~docstrata.errors.ConversionError` with a human reason (never a traceback, never an
absolute path).

Per format:

* ``md`` / ``markdown`` / ``txt`` / ``text`` — passed through. Encoding detected (UTF-8 first,
  then charset-normalizer), BOM removed, NUL bytes or control characters reject the file as binary.
  Paginated plain text (form feeds, as in IETF RFCs) loses its running page headers/footers and
  form feeds; pages are joined so that a paragraph split by a page break reads as one. Markdown
  of a document family with a profile (kramdown-rfc: :mod:`docstrata.profiles`) is read by that
  family's converter (``kramdown_rfc``: section numbers implied by heading levels, appendices).
* ``html`` / ``htm`` — site chrome (nav, page header/footer, scripts, styles, cookie banners,
  skip links) removed with BeautifulSoup, then markitdown.
* ``docx`` — markitdown (mammoth keeps Word heading styles); Word's ``Title`` style becomes a
  heading and auto-numbered headings get their number back (Word keeps it in numbering.xml, which
  mammoth ignores); a document without heading styles gets its headings from its typography
  (larger or bold standalone lines: :mod:`.docx_headings`).
* ``pptx`` — python-pptx (``pptx``): one ``Slide N`` heading per slide, titled by its title
  placeholder (or, in a deck of text boxes, its largest type); other shapes are text, never headings.
* ``xlsx`` — markitdown.
* ``pdf`` — pdfminer.six layout analysis (the engine markitdown uses for prose PDFs), with the
  headings markitdown loses recovered: the PDF outline where it matches the text, otherwise font
  size / weight / family statistics plus numbering patterns; running headers, footers and page
  numbers dropped. markitdown's own PDF path is not used because its pdfplumber "form" detection
  turns prose pages into spurious tables and drops inter-word spaces (seen on a LaTeX-typeset
  constitution), which no heading recovery can undo.
* scanned PDF pages (no text layer, a stamp on a scan, or a garbage text layer) and ``png`` /
  ``jpg`` / ``jpeg`` / ``tif`` / ``tiff`` images — OCR (``ocr``: RapidOCR's bundled models or
  Tesseract; ``pdf_ocr`` picks and renders the pages, ``image`` reads image files), whose line
  boxes become layout lines (``ocr_layout``) that go through the PDF stages above.
* ``xml`` — a document family with a profile (gesetze-im-internet ``<dokumente>``: ``gii_xml``;
  the Irish Statute Book's ``<act>`` with ``<metadata>`` and ``<body>``: ``eisb_xml``) is read by its
  converter; legislation XML (USLM, Akoma Ntoso, UK CLML, Justice Canada, US Congress bill DTD; recognised by root namespace or name) becomes
  Markdown headings and numbered provisions (``legislation_xml``); xml2rfc sources (IETF RFCs and
  drafts, v3 and v2, root ``<rfc>``) get the section and appendix numbers xml2rfc computes, their
  ``<xref>`` elements printed as "Section 4.2.1" / "[RFC5246]" and their terminology lists as marked
  definitions (``xml2rfc``); any other XML is read as generic
  XML (``xml_generic``): element text as paragraphs, titled elements (``<section><title>``) as
  headings, with a warning naming its root — ingested, never refused, since tag semantics differ per
  schema and one unknown schema must not fail an ingest. Malformed XML is rejected with its line.

Modules: ``text`` (plain text, pagination, :func:`normalize_heading`), ``html``, ``office``
(markitdown, DOCX heading numbers), ``pdf`` (entry and rendering) with ``pdf_layout`` (pdfminer
lines), ``pdf_headings`` (outline and font-statistics heading recovery) and ``pdf_pages`` (page
boundaries and printed page labels, kept beside the Markdown for :mod:`docstrata.pages`).
Every format's text leaves :func:`convert_file` with ligatures and presentation forms as plain
letters (``unicode_forms``: "Oﬃce" → "Office"), so the index and the answers hold the same words.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath

from ..errors import ConversionError
from ..models import Document, SourceFile
from ..structure.grammar import CLAUSE_NUMBER, contents_title_pattern, is_caption, names_filing, names_instrument
from .document import Block, ConvertedDocument
from .html import _convert_html, clean_html
from .xml_generic import convert_xml
from .office import _convert_office, docx_heading_numbers, number_docx_headings
from .image import IMAGE_EXTENSIONS, convert_image
from .ocr import OcrSettings
from .pdf import _convert_pdf
from .text import _convert_text, normalize_heading, strip_pagination
from .unicode_forms import fold_presentation_forms, fold_text, shift_offset

__all__ = [
    "SUPPORTED_EXTENSIONS",
    "Block",
    "ConvertedDocument",
    "as_document",
    "clean_html",
    "convert_file",
    "docx_heading_numbers",
    "first_heading",
    "OcrSettings",
    "normalize_heading",
    "number_docx_headings",
    "strip_pagination",
]

from ..formats import SUPPORTED_EXTENSIONS  # noqa: E402 - defined apart so a search need not import converters

_TEXT_EXTENSIONS = frozenset({"md", "markdown", "txt", "text"})
_OFFICE_EXTENSIONS = frozenset({"docx", "pptx", "xlsx"})
_REJECTED_REASONS: dict[str, str] = {}


def convert_file(source: SourceFile, ocr: OcrSettings | None = None) -> Document:
    """Convert one file to Markdown.

    ``ocr``: how scanned PDF pages and image files are read (:class:`~.ocr.OcrSettings`; default:
    on, the bundled engine, English, an in-process cache keyed by ``source.state.sha256``).

    ``source.path`` is read once; the format comes from the extension of ``source.doc_key``
    (case-insensitive). Returns a :class:`Document` whose ``title`` is the PDF metadata title or
    the HTML page's first ``h1`` / ``<title>``, else the first Markdown heading, else the file stem,
    and whose ``warnings`` list non-fatal problems. A PDF's (and a PPTX's) page boundaries come in
    ``page_offsets`` / ``page_labels`` / ``page_unit`` (offsets into the returned ``markdown``).

    Raises :class:`ConversionError` (``.file`` = ``doc_key``) for an unsupported extension, a
    missing or unreadable file, an empty file, binary content in a text file, a corrupt or
    encrypted PDF / Office file, or a file without any text.
    """
    ext = _extension(source.doc_key)
    if ext not in SUPPORTED_EXTENSIONS:
        reason = _REJECTED_REASONS.get(ext, f"unsupported file type '.{ext}'" if ext else "file has no extension")
        raise ConversionError(source.doc_key, reason)
    data = _read_bytes(source)
    if not data.strip():
        raise ConversionError(source.doc_key, "empty file")
    try:
        converted: ConvertedDocument
        family = _family(ext)
        if family in ("pdf", "image"):
            converted = _CONVERTERS[family](data, ext, source.doc_key, ocr, getattr(source.state, "sha256", None))
        else:
            converted = _CONVERTERS[family](data, ext, source.doc_key)
    except ConversionError:
        raise
    except Exception as e:  # a converter library failed: report, never leak a traceback or a path
        raise ConversionError(source.doc_key, _library_failure(ext, e, source)) from None
    return as_document(converted, source.doc_key, ext)


def as_document(converted: ConvertedDocument, doc_key: str, ext: str) -> Document:
    """The :class:`Document` the later stages read from a converter's :class:`ConvertedDocument`:
    leading and trailing blank lines dropped (block and page offsets shifted to match), the title
    the source states, else the first Markdown heading, else the file stem. Raises
    :class:`ConversionError` when no text is left."""
    markdown, ends, added = fold_presentation_forms(converted.text)  # "Oﬃce" → "Office", once, for every format
    if ends:
        spans = [(shift_offset(b.start, ends, added), shift_offset(b.end, ends, added)) for b in converted.blocks]
        converted = replace(
            converted,
            text=markdown,
            title=fold_text(converted.title) if converted.title else converted.title,
            blocks=[replace(b, start=a, end=z, text=markdown[a:z]) for b, (a, z) in zip(converted.blocks, spans)],
            page_offsets=[shift_offset(o, ends, added) for o in converted.page_offsets],
            marked_definitions=[
                replace(d, term=fold_text(d.term), definition=fold_text(d.definition), heading=fold_text(d.heading))
                for d in converted.marked_definitions
            ],
        )
    lead = len(markdown) - len(markdown.lstrip("\n"))
    markdown = markdown.strip("\n") + "\n"
    if not markdown.strip():
        raise ConversionError(doc_key, f"no text content in this .{ext} file")
    blocks = (
        [replace(b, start=b.start - lead, end=b.end - lead) for b in converted.blocks] if lead else converted.blocks
    )
    pages = [max(0, o - lead) for o in converted.page_offsets]
    title = converted.title or first_heading(markdown) or PurePosixPath(doc_key).stem
    return Document(
        doc_key=doc_key,
        title=title,
        markdown=markdown,
        format=ext,
        warnings=list(converted.warnings),
        marked_definitions=list(converted.marked_definitions),
        anchors=dict(converted.anchors),
        blocks=blocks,
        page_offsets=pages,
        page_labels=list(converted.page_labels),
        page_unit=converted.page_unit,
    )


# ---------------------------------------------------------------------------------------------
# reading and dispatch


def _extension(doc_key: str) -> str:
    return PurePosixPath(doc_key).suffix.lower().lstrip(".")


def _family(ext: str) -> str:
    if ext in _TEXT_EXTENSIONS:
        return "text"
    if ext in ("html", "htm"):
        return "html"
    if ext == "pdf":
        return "pdf"
    if ext == "xml":
        return "xml"
    if ext in IMAGE_EXTENSIONS:
        return "image"
    return "office"


def _read_bytes(source: SourceFile) -> bytes:
    try:
        with open(source.path, "rb") as f:
            return f.read()
    except PermissionError:
        raise ConversionError(source.doc_key, "permission denied") from None
    except FileNotFoundError:
        raise ConversionError(source.doc_key, "file not found (deleted while ingesting?)") from None
    except IsADirectoryError:
        raise ConversionError(source.doc_key, "is a directory, not a file") from None
    except OSError as e:
        raise ConversionError(source.doc_key, f"cannot read file: {e.strerror or type(e).__name__}") from None


def _root_cause(error: BaseException) -> BaseException:
    """The exception that says why a converter library failed: a wrapper's own failed attempts
    (markitdown's ``FileConversionException.attempts``: "failed after 1 attempts:" with the reason
    on the next lines) or explicit ``__cause__`` are followed to the innermost one with a message."""
    seen = set()
    while id(error) not in seen:
        seen.add(id(error))
        attempts = [
            a.exc_info[1]
            for a in getattr(error, "attempts", None) or []
            if getattr(a, "exc_info", None) and a.exc_info[1] is not None
        ]
        inner = attempts[-1] if attempts else error.__cause__
        if inner is None or not str(inner).strip():
            break
        error = inner
    return error


def _library_failure(ext: str, error: Exception, source: SourceFile) -> str:
    """One line for a converter library's failure: what kind, the innermost exception's type and
    its message (every line of it, joined; the file's path replaced by its ``doc_key``)."""
    cause = _root_cause(error)
    detail = " ".join(str(cause).replace(source.path, source.doc_key).split())
    detail = detail if len(detail) <= 300 else detail[:299] + "…"
    kind = "corrupt PDF" if ext == "pdf" else f"could not convert .{ext}"
    return f"{kind}: {type(cause).__name__}" + (f": {detail}" if detail else "")


def first_heading(markdown: str) -> str | None:
    """Text of the first ATX heading outside fenced code in ``markdown``, or ``None``.

    Link markup ``[text](url)`` is reduced to its text and emphasis markers are removed. A
    document whose first heading is a contents heading (``Contents``, ``Table of Contents``) or a
    numbered section (``1 Introduction``) has no title heading: ``None`` (the heading after a
    contents list is its first section, not the title).
    """
    fence: str | None = None
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * 3
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is None and (m := re.match(r" {0,3}#{1,6}\s+(.+?)\s*#*\s*$", line)):
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))
            text = re.sub(r"[*_`]+", "", text).strip()
            if _CONTENTS_HEADING.match(text) or _SECTION_NUMBER.match(text):
                return None  # a contents list or "1 Introduction" comes first: no title heading
            below = next((x for x in lines[i + 1 :] if x.strip()), "")
            kinds = [w.strip("*_#()").casefold() for w in below.split()[:5]] if below.lstrip().startswith("#") else []
            if text.isupper() and " " not in text and any(text.casefold() in (k, k + "s") for k in kinds):
                continue  # the journal's rubric over the title ("# DIRECTIVES" / "## DIRECTIVE (EU) 2022/2555 …")
            if text:
                return _instrument_below(text, lines[i + 1 :]) or text
    return None


def _instrument_below(first: str, rest: list[str]) -> str | None:
    """The heading that names the instrument or filing (:func:`.grammar.names_instrument`: ``PERSONAL DATA
    PROTECTION ACT 2010``) among the headings after a first heading that does not (a collection's
    name over the title: ``LAWS OF MALAYSIA``, ``LAWS OF KENYA``, a Parliament's masthead
    ``PARLIAMENT OF THE DEMOCRATIC SOCIALIST REPUBLIC OF SRI LANKA``), before the first line of
    prose (12 words or more); a name set as two headings, nothing but blank lines between them
    (``PARLIAMENTARY BUDGET OFFICE`` / ``ACT, No. 6 OF 2023`` in two faces), is the two joined.
    Likewise a filing's name under its caption (:func:`.grammar.is_caption`: the forum, ``IN THE
    UNITED STATES PATENT & TRADEMARK OFFICE`` / ``BEFORE THE TRADEMARK TRIAL & APPEAL BOARD``, the
    parties' lines between): the first heading after it that names a filing's kind
    (:func:`.grammar.names_filing`: ``PETITION FOR CANCELLATION``).
    ``None`` when the first heading names it or none does."""
    if names_instrument(first):
        return None
    caption = is_caption(first)
    above: str | None = first  # the heading right above (only blank lines between)
    for line in rest:
        if m := re.match(r" {0,3}#{1,6}\s+(.+?)\s*#*\s*$", line):
            text = re.sub(r"[*_`]+", "", m.group(1)).strip()
            if names_instrument(text) or (caption and names_filing(text)):
                return text
            if above and names_instrument(joined := f"{above} {text}"):
                return joined  # "PARLIAMENTARY BUDGET OFFICE" / "ACT, No. 6 OF 2023" in two faces
            above = text
        elif line.strip():
            above = None
            if len(line.split()) >= 12:
                return None
    return None


_CONTENTS_HEADING = contents_title_pattern(("contents",))  # Contents, Table of Contents, Inhaltsverzeichnis …
_SECTION_NUMBER = re.compile(rf"^{CLAUSE_NUMBER}\.?\s+\S")


_CONVERTERS = {
    "text": _convert_text,
    "html": _convert_html,
    "office": _convert_office,
    "pdf": _convert_pdf,
    "xml": convert_xml,
    "image": convert_image,
}
