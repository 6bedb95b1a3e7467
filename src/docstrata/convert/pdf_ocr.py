"""Scanned pages of a PDF for ``convert``: which pages need OCR, rendering them with PDFium
(pypdfium2, no poppler), reading them (:mod:`.ocr`) and turning the result into layout lines
(:mod:`.ocr_layout`) that replace the page's own text layer, page by page — so a PDF mixing
born-digital and scanned pages keeps the text layer where it is good.

A page without text that draws nothing at all is a blank page (a Bill's empty verso), neither
read nor reported as a possible scan. A page is read by OCR when its text layer is

* empty, or holds under 100 characters while images cover at least 30 % of the page (a scan
  with a stamped page number or Bates number), or
* garbage: at least a quarter of its characters are pdfminer's ``(cid:N)`` placeholders, the
  replacement character, private-use code points or control characters (a font without a
  usable ToUnicode map).
"""

from __future__ import annotations

import re
import time

from ..errors import ConversionError
from .ocr import OcrPage, OcrSettings, OcrUnavailable, read_page
from .ocr_layout import ocr_pdf_lines
from .pdf_layout import _PdfLine

_FEW_CHARS = 100
_IMAGE_COVER = 0.30
_GARBAGE_SHARE = 0.25
_MAX_PIXELS = 40_000_000  # a page rendered larger (a poster at 300 dpi) is rendered at a lower resolution
_CID = re.compile(r"\(cid:\d+\)")


def _garbage_share(text: str) -> float:
    cids = _CID.findall(text)
    rest = _CID.sub("", text)
    bad = sum(1 for ch in rest if ch == "\ufffd" or "\ue000" <= ch <= "\uf8ff" or (ord(ch) < 32 and ch not in "\t\n\r"))
    visible = sum(1 for ch in rest if not ch.isspace()) + len(cids)
    return (bad + len(cids)) / visible if visible else 0.0


def pages_needing_ocr(pdf, lines: list[_PdfLine], n_pages: int) -> list[int]:
    """0-based pages whose text layer is missing, a stamp on a scan, or garbage (module docstring).
    ``pdf`` is an open ``pypdfium2.PdfDocument``."""
    text_of: dict[int, list[str]] = {}
    for line in lines:
        text_of.setdefault(line.page, []).append(line.text)
    out = []
    for page in range(n_pages):
        text = "\n".join(text_of.get(page, []))
        chars = sum(not ch.isspace() for ch in text)
        if chars and _garbage_share(text) >= _GARBAGE_SHARE:
            out.append(page)
        elif chars < _FEW_CHARS and _image_cover(pdf, page) >= (_IMAGE_COVER if chars else 0.01):
            out.append(page)
    return out


def _image_cover(pdf, page_no: int) -> float:
    """Share of the page's area under its image objects (overlaps counted twice, capped at 1)."""
    import pypdfium2.raw as pdfium_c

    page = pdf[page_no]
    width, height = page.get_size()
    area = 0.0
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
        left, bottom, right, top = obj.get_bounds() if hasattr(obj, "get_bounds") else obj.get_pos()
        area += max(0.0, min(right, width) - max(left, 0)) * max(0.0, min(top, height) - max(bottom, 0))
    return min(1.0, area / max(width * height, 1.0))


def ocr_pdf(
    data: bytes, doc_key: str, lines: list[_PdfLine], n_pages: int, settings: OcrSettings, file_sha256: str | None
) -> tuple[list[_PdfLine], list[str], str | None]:
    """The layout ``lines`` with every page that needs OCR read from its image instead.

    Returns ``(lines, warnings, reason)``: lines in page order; warnings naming each page that
    could not be read and why; ``reason`` is set when pages needed OCR that was not run (turned
    off, or no engine), for the caller's message when no text is left at all. Raises
    :class:`ConversionError` when the conversion time limit (``settings.deadline``) runs out.
    """
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        todo = pages_needing_ocr(pdf, lines, n_pages)
        warnings: list[str] = _drawn_pages(pdf, lines, n_pages, todo)
        if not todo:
            return lines, warnings, None
        if not settings.enabled:
            reason = "OCR is turned off (ocr.enabled: false)"
            warnings.append(f"{len(todo)} of {n_pages} pages have no text layer (scanned images?); {reason}")
            return lines, warnings, reason
        read: dict[int, OcrPage] = {}
        for n, page_no in enumerate(todo):
            if settings.deadline is not None and time.monotonic() > settings.deadline:
                raise ConversionError(
                    doc_key,
                    f"OCR stopped before page {page_no + 1} of {n_pages}: conversion took "
                    "longer than limits.max_conversion_s",
                )
            if settings.on_page:
                settings.on_page(doc_key, n + 1, len(todo))
            try:
                read[page_no] = read_page(
                    lambda p=page_no: _render(pdf, p, settings.dpi),
                    settings,
                    file_sha256,
                    page_no,
                    _dpi(pdf, page_no, settings.dpi),
                )
            except OcrUnavailable as e:
                pages = ", ".join(str(p + 1) for p in todo)
                warnings.append(f"page(s) {pages} have no usable text layer and were not read: {e}")
                return lines, warnings, str(e)
            except ConversionError:
                raise
            except Exception as e:  # noqa: BLE001 - one unreadable page never stops the file
                warnings.append(f"page {page_no + 1}: OCR failed: {type(e).__name__}: {str(e)[:200]}")
    finally:
        pdf.close()
    if not read:
        return lines, warnings, None
    first_box = max((line.box for line in lines), default=0)
    ocr_lines = ocr_pdf_lines(read, first_box)
    kept = [line for line in lines if line.page not in read]
    merged = sorted(kept + ocr_lines, key=lambda line: line.page)  # stable: each page's own order kept
    empty = [p + 1 for p, page in read.items() if not page.lines]
    if empty:
        warnings.append(f"OCR found no text on page(s) {', '.join(map(str, empty))}")
    warnings.append(f"{len(read)} of {n_pages} pages read by OCR ({read[min(read)].engine})")
    return merged, warnings, None


def _drawn_pages(pdf, lines: list[_PdfLine], n_pages: int, todo: list[int]) -> list[str]:
    """A warning naming the pages without text that OCR will not read (no image on them) but that
    draw something (text set as outlines, a diagram), or ``[]``. A page that draws nothing is a
    blank page ("intentionally left blank" without the words, a Bill's empty verso): no scan, no
    warning. ``pdf`` is an open ``pypdfium2.PdfDocument``."""
    with_text = {line.page for line in lines if line.text.strip()}
    drawn = [
        page + 1
        for page in range(n_pages)
        if page not in with_text and page not in todo and next(iter(pdf[page].get_objects(max_depth=3)), None)
    ]
    if not drawn:
        return []
    return [f"page(s) {', '.join(map(str, drawn))} have no text layer but draw content (text set as outlines?)"]


def _dpi(pdf, page_no: int, dpi: int) -> float:
    """The resolution a page is rendered at: ``dpi``, lowered so the image stays under 40 M pixels."""
    width, height = pdf[page_no].get_size()
    pixels = width * height * (dpi / 72.0) ** 2
    return dpi if pixels <= _MAX_PIXELS else dpi * (_MAX_PIXELS / pixels) ** 0.5


def _render(pdf, page_no: int, dpi: int):
    """The page as a greyscale PIL image at :func:`_dpi` (PDFium applies the page's /Rotate)."""
    return pdf[page_no].render(scale=_dpi(pdf, page_no, dpi) / 72.0, grayscale=True).to_pil()
