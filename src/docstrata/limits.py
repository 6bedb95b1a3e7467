"""Bounded work per file: size on disk, expanded size of zip-based formats, converted text,
chunk count and conversion time (issue 17). Each check raises :class:`ConversionError` with the
bound that was broken and the ``limits.*`` setting that raises it, so ingest reports the file as
skipped and goes on.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
import zipfile
from typing import Iterator

from .errors import ConversionError

ZIP_FORMATS = frozenset({"docx", "pptx", "xlsx", "docm", "pptm", "xlsm", "odt", "odp", "ods", "epub"})
_MB = 1_000_000


def _mb(n: float) -> str:
    return f"{n / _MB:,.1f} MB"


def check_file(doc_key: str, path: str, size: int, limits) -> None:
    """Before conversion: ``size`` (bytes) within ``limits.max_file_mb`` and, for a zip-based
    format, each member expanding over ``limits.max_zip_ratio_above_mb`` by at most
    ``limits.max_zip_ratio`` times its compressed size, and the members' declared uncompressed
    total within ``limits.max_expanded_mb``."""
    if size > limits.max_file_mb * _MB:
        raise ConversionError(
            doc_key,
            f"file is {_mb(size)}, over limits.max_file_mb = {limits.max_file_mb:g} (raise it to index this file)",
        )
    ext = doc_key.rsplit(".", 1)[-1].lower() if "." in doc_key else ""
    if ext not in ZIP_FORMATS:
        return
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not a zip after all: the converter reports it
    expanded = sum(i.file_size for i in infos)
    if expanded > limits.max_expanded_mb * _MB:
        raise ConversionError(
            doc_key,
            f"its zip members expand to {_mb(expanded)} (from {_mb(size)}), over "
            f"limits.max_expanded_mb = {limits.max_expanded_mb:g} (a zip bomb?)",
        )
    ratio_cap: float = getattr(limits, "max_zip_ratio", None) or 0  # 0 or unset: no ratio check
    floor = getattr(limits, "max_zip_ratio_above_mb", 5.0) * _MB
    for i in infos if ratio_cap else ():
        if i.file_size > floor and i.file_size > ratio_cap * max(i.compress_size, 1):
            ratio = i.file_size / max(i.compress_size, 1)
            raise ConversionError(
                doc_key,
                f"zip member {i.filename[:80]!r} expands {ratio:,.0f}x "
                f"(from {_mb(i.compress_size)} to {_mb(i.file_size)}), over "
                f"limits.max_zip_ratio = {ratio_cap:g} (a zip bomb?)",
            )


def check_text(doc_key: str, text: str, limits) -> None:
    """After conversion: the Markdown within ``limits.max_text_mb`` (counted in characters)."""
    if len(text) > limits.max_text_mb * _MB:
        raise ConversionError(
            doc_key,
            f"converted text is {len(text) / _MB:,.1f} M characters, over limits.max_text_mb = {limits.max_text_mb:g}",
        )


def check_chunks(doc_key: str, n_chunks: int, limits) -> None:
    """After chunking: at most ``limits.max_chunks_per_file`` chunks."""
    if n_chunks > limits.max_chunks_per_file:
        raise ConversionError(
            doc_key, f"{n_chunks:,} chunks, over limits.max_chunks_per_file = {limits.max_chunks_per_file:,}"
        )


class _Overtime(BaseException):
    """Raised by the timer; a BaseException, so a library's ``except Exception`` cannot swallow it."""


@contextlib.contextmanager
def time_limit(doc_key: str, seconds: float) -> Iterator[None]:
    """Stop the block after ``seconds`` with :class:`ConversionError`.

    In the main thread a ``SIGALRM`` timer interrupts the work (pure-Python loops at once, C code
    when it returns to Python); in other threads, where signals cannot be delivered, the time is
    checked when the block ends, so an overrun is still reported as a skipped file.
    """
    main = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    start = time.monotonic()
    reason = f"conversion took longer than limits.max_conversion_s = {seconds:g} s"
    if not main:
        yield
        if time.monotonic() - start > seconds:
            raise ConversionError(doc_key, reason)
        return

    def on_alarm(signum, frame):
        raise _Overtime()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Overtime:
        raise ConversionError(doc_key, reason) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
