"""The document formats :func:`docstrata.convert.convert_file` accepts, in a module of their own:
an ingest that finds every file unchanged (the check each CLI search runs) needs the list but none
of the converters, whose imports cost ~0.2 s of a search's start-up (issue 18)."""

from __future__ import annotations

SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(
    {
        "md",
        "markdown",
        "txt",
        "text",
        "html",
        "htm",
        "pdf",
        "docx",
        "pptx",
        "xlsx",
        "xml",
        "png",
        "jpg",
        "jpeg",
        "tif",
        "tiff",
    }  # images: read by OCR (convert/image.py)
)
"""File extensions (lower case, no dot) :func:`~docstrata.convert.convert_file` accepts."""
