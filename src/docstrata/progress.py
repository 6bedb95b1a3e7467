"""Plain progress lines for an ingest nobody watches in a terminal (piped stderr, an MCP server's log).

A rich bar redraws one line in place, which a pipe or a log file cannot show; :class:`ProgressLines`
is the ingest's ``progress(done, total, description)`` callback that writes whole lines instead:
the first report, then at most one every ``every_s`` seconds, and the last (``done == total``).
A line reads ``docs: 3 of 12 files done · reg.pdf · 120 chunks, 14.2 chunks/s, ETA 0m30s``: files
done of the files to index, then what the ingest says it is doing (the file it is on, the chunks
written so far, their rate and the time left at that rate: :class:`IngestProgress`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import TextIO

from .escaping import one_line


class ProgressLines:
    """A ``progress(done, total, description)`` callback writing plain lines to ``stream``.

    Quiet for a quick ingest: the first line comes once ``every_s`` seconds have passed since the
    callback was made, then at most one line every ``every_s`` seconds, and the last (``done ==
    total``) only when an earlier line was written.

    Args:
        name: the tool's name, the prefix of every line.
        stream: where lines go (default: ``sys.stderr`` at the time of the call).
        every_s: seconds between lines; default: the environment variable ``DOCSTRATA_PROGRESS_S``,
            else 5; 0 writes a line for every report.
        clock: seconds, monotonic (``time.monotonic``).
    """

    def __init__(
        self,
        name: str,
        stream: TextIO | None = None,
        every_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        if every_s is None:
            try:
                every_s = max(0.0, float(os.environ.get("DOCSTRATA_PROGRESS_S", "5")))
            except ValueError:
                every_s = 5.0
        self.name, self.stream, self.every_s, self.clock = name, stream, every_s, clock
        self._last = clock()
        self.lines = 0

    def __call__(self, done: float, total: int, what: str) -> None:
        now = self.clock()
        last = total > 0 and done >= total
        if (last and not self.lines and self.every_s > 0) or (not last and now - self._last < self.every_s):
            return
        self._last = now
        what = one_line(what)  # it names files: a line break in a name never starts a line of its own
        if total <= 0:  # no count yet: waiting for a lock, scanning
            line = f"{self.name}: {what}"
        elif last:
            line = f"{self.name}: {total} of {total} files done"
        else:
            line = f"{self.name}: {int(done)} of {total} files done · {what}"
        print(line, file=self.stream or sys.stderr, flush=True)
        self.lines += 1


# ----------------------------------------------------------------------------- steps inside a file
_PAGE_HOOK: ContextVar[Callable[[int, int], None] | None] = ContextVar("docstrata_page_hook", default=None)


def page_done(done: int, total: int) -> None:
    """A converter's report that ``done`` of the ``total`` pages of the file it converts are laid
    out (``total`` 0 when unknown); goes to the hook :func:`reporting_pages` set in this thread,
    if any, else nowhere."""
    hook = _PAGE_HOOK.get()
    if hook is not None:
        hook(done, total)


@contextlib.contextmanager
def reporting_pages(hook: Callable[[int, int], None] | None):
    """Within the block, :func:`page_done` in this thread calls ``hook(done, total)``."""
    token = _PAGE_HOOK.set(hook)
    try:
        yield
    finally:
        _PAGE_HOOK.reset(token)


class IngestProgress:
    """The ingest's events as ``progress(done, total, description)`` calls, ``done`` in files as
    a float that moves within a file as its chunks are embedded (a bar moves per chunk batch),
    the description naming the file, the page being laid out (a PDF converts page by page, on a
    worker thread while the previous file embeds), the chunks so far, their rate and the time
    left: ``gdpr.pdf · page 12 of 88 · 412 chunks, 9.8 chunks/s, ETA 0m41s``.

    The rate is chunks embedded (or taken from the cache) per second since the first file; the
    ETA is the elapsed time per file-fraction done times the fraction left. Thread-safe.
    """

    def __init__(
        self, progress: Callable[[float, int, str], None], total: int, clock: Callable[[], float] = time.perf_counter
    ):
        self.progress, self.total, self.clock = progress, total, clock
        self.t_start = clock()
        self.done, self.chunks_before, self.chunks_now = 0.0, 0, 0
        self.doc_key, self.page = "", ""
        self._lock = threading.Lock()

    def file(self, i: int, doc_key: str, chunks_so_far: int) -> None:
        """File ``i`` (0-based) of the ingest starts embedding, after ``chunks_so_far`` chunks."""
        with self._lock:
            self.done, self.doc_key, self.page = float(i), doc_key, ""
            self.chunks_before, self.chunks_now = chunks_so_far, 0
        self._emit()

    def chunks(self, done: int, total: int) -> None:
        """``done`` of the current file's ``total`` chunks are embedded."""
        with self._lock:
            if total > 0:
                self.done = int(self.done) + min(done / total, 0.999)
            self.chunks_now = done
        self._emit()

    def pages(self, doc_key: str, done: int, total: int) -> None:
        """``done`` of the ``total`` pages of ``doc_key`` are laid out."""
        with self._lock:
            self.page = f"{doc_key}: page {done}" + (f" of {total}" if total else "")
        self._emit()

    def ocr_page(self, doc_key: str, page: int, total: int) -> None:
        """Page ``page`` (1-based) of ``doc_key``'s ``total`` is being read by OCR."""
        with self._lock:
            self.page = f"{doc_key}: OCR page {page}/{total}"
        self._emit()

    def _emit(self) -> None:
        with self._lock:
            done = self.done
            if self.page.startswith(f"{self.doc_key}: "):  # this file's pages
                parts = [self.page]
            else:  # the next file's pages, laid out while this one embeds
                parts = [x for x in (self.doc_key, self.page) if x]
            elapsed = self.clock() - self.t_start
            chunks = self.chunks_before + self.chunks_now
            if done > 0 and elapsed > 0:
                eta = elapsed / done * (self.total - done)
                parts.append(
                    f"{chunks} chunks, {chunks / elapsed:.1f} chunks/s, ETA {int(eta // 60)}m{int(eta % 60):02d}s"
                )
        try:
            self.progress(done, self.total, " · ".join(parts))
        except Exception:  # noqa: BLE001 - a lost progress message must not stop the ingest
            pass
