"""Image files for ``convert``: ``.png`` / ``.jpg`` / ``.jpeg`` / ``.tif`` / ``.tiff`` read by OCR
(:mod:`.ocr`), each frame of a multi-page TIFF a page, then laid out and rendered exactly as a
PDF's pages (:func:`.pdf.layout_markdown`), so headings, numbered sections, page numbers and
running headers are found as in a PDF and every chunk cites its page."""

from __future__ import annotations

import io
import time

from ..errors import ConversionError
from .ocr import OcrPage, OcrSettings, OcrUnavailable, read_page
from .ocr_layout import ocr_pdf_lines
from .document import ConvertedDocument
from .pdf import layout_markdown

IMAGE_EXTENSIONS = frozenset({"png", "jpg", "jpeg", "tif", "tiff"})
_MAX_PIXELS = 60_000_000  # per frame; Pillow's own decompression-bomb guard sits near 179 M
_DEFAULT_DPI = 300.0  # an image that does not say its resolution


def convert_image(
    data: bytes, ext: str, doc_key: str, ocr: OcrSettings | None = None, file_sha256: str | None = None
) -> ConvertedDocument:
    """An image file read by OCR, as a :class:`ConvertedDocument` (no title; page marks per frame;
    headings from the text's sizes, provenance ``font``).

    Raises :class:`ConversionError` when OCR is turned off or no engine can run (naming what to
    install), the image cannot be decoded or is over 60 M pixels, the conversion time limit runs
    out, or no text is found."""
    from PIL import Image, UnidentifiedImageError

    settings = ocr or OcrSettings()
    if not settings.enabled:
        raise ConversionError(doc_key, f"an image (.{ext}) holds no text layer; OCR is turned off (ocr.enabled: false)")
    try:
        image = Image.open(io.BytesIO(data))
        n_frames = getattr(image, "n_frames", 1)
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as e:
        raise ConversionError(doc_key, f"cannot read this .{ext} image: {str(e)[:200] or type(e).__name__}") from None
    pages: dict[int, OcrPage] = {}
    warnings: list[str] = []
    for frame in range(n_frames):
        if settings.deadline is not None and time.monotonic() > settings.deadline:
            raise ConversionError(
                doc_key,
                f"OCR stopped before page {frame + 1} of {n_frames}: conversion took "
                "longer than limits.max_conversion_s",
            )
        if settings.on_page:
            settings.on_page(doc_key, frame + 1, n_frames)
        try:
            image.seek(frame)
            if image.width * image.height > _MAX_PIXELS:
                raise ConversionError(
                    doc_key,
                    f"page {frame + 1} is {image.width}x{image.height} pixels, over "
                    f"{_MAX_PIXELS // 1_000_000} M pixels",
                )
            dpi = _dpi(image)
            scale = _upscale(image, dpi, settings.dpi)
            pages[frame] = read_page(
                lambda scale=scale: _scaled(image, scale), settings, file_sha256, frame, dpi * scale
            )
        except OcrUnavailable as e:
            raise ConversionError(doc_key, f"page {frame + 1}: cannot OCR this image: {e}") from None
        except ConversionError:
            raise
        except Exception as e:  # noqa: BLE001 - one unreadable frame never stops the file
            warnings.append(f"page {frame + 1}: OCR failed: {type(e).__name__}: {str(e)[:200]}")
    lines = ocr_pdf_lines(pages)
    if not lines:
        detail = "; ".join(warnings) or f"OCR found no text in {n_frames} page(s)"
        raise ConversionError(doc_key, f"no text in this .{ext} image: {detail}")
    markdown, marks, provenance = layout_markdown(lines, [], n_frames)
    if pages:
        warnings.append(f"{len(pages)} page(s) read by OCR ({next(iter(pages.values())).engine})")
    return ConvertedDocument.from_markdown(markdown, provenance=provenance, warnings=warnings, **marks)


def _upscale(image, dpi: float, target: int) -> float:
    """How much OCR scales a frame up: an image scanned well under ``target`` dpi (150 dpi) is
    brought up to it (at most 60 M pixels), since the recogniser reads lines about 48 pixels high
    and small type at 150 dpi loses its word spaces; 1 otherwise."""
    if dpi * 1.2 >= target:
        return 1.0
    scale = min(target / dpi, (_MAX_PIXELS / max(image.width * image.height, 1)) ** 0.5)
    return scale if scale > 1.05 else 1.0


def _scaled(image, scale: float):
    """A copy of the current frame, scaled by ``scale`` (Lanczos) when not 1."""
    from PIL import Image

    frame = image.copy()
    if scale == 1.0:
        return frame
    frame = frame.convert("L") if frame.mode not in ("L", "RGB") else frame
    return frame.resize((round(frame.width * scale), round(frame.height * scale)), Image.Resampling.LANCZOS)


def _dpi(image) -> float:
    """The resolution the image states (JPEG/PNG/TIFF metadata), else 300 dpi."""
    dpi = image.info.get("dpi")
    try:
        value = float(dpi[0]) if dpi else 0.0
    except (TypeError, ValueError, IndexError):
        value = 0.0
    return value if 50 <= value <= 2400 else _DEFAULT_DPI
