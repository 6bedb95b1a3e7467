"""Plain progress lines for an ingest nobody watches in a terminal (piped stderr, an MCP server's log).

A rich bar redraws one line in place, which a pipe or a log file cannot show; :class:`ProgressLines`
is the ingest's ``progress(done, total, description)`` callback that writes whole lines instead:
the first report, then at most one every ``every_s`` seconds, and the last (``done == total``).
A line reads ``docs: 3 of 12 files done · reg.pdf · 120 chunks, 14.2 chunks/s, ETA 0m30s``: files
done of the files to index, then what the ingest says it is doing (the file it is on, the chunks
written so far, their rate and the time left at that rate, :func:`~docstrata.ingest_support.progress_note`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


class ProgressLines:
    """A ``progress(done, total, description)`` callback writing plain lines to ``stream``.

    Args:
        name: the tool's name, the prefix of every line.
        stream: where lines go (default: ``sys.stderr`` at the time of the call).
        every_s: the least number of seconds between two lines, other than the first and the last.
        clock: seconds, monotonic (``time.monotonic``).
    """

    def __init__(self, name: str, stream: TextIO | None = None, every_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic):
        self.name, self.stream, self.every_s, self.clock = name, stream, every_s, clock
        self._last: float | None = None
        self.lines = 0

    def __call__(self, done: int, total: int, what: str) -> None:
        now = self.clock()
        last = total > 0 and done >= total
        if not last and self._last is not None and now - self._last < self.every_s:
            return
        self._last = now
        if total <= 0:  # no count yet: waiting for a lock, scanning
            line = f"{self.name}: {what}"
        elif last:
            line = f"{self.name}: {total} of {total} files done"
        else:
            line = f"{self.name}: {done} of {total} files done · {what}"
        print(line, file=self.stream or sys.stderr, flush=True)
        self.lines += 1
