"""The raw rows of one record file (:class:`RowLoad`), and the bookkeeping of skipped rows: at most
100 listed with their ``"file:line"``, the rest summarised, all counted."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..models import SkippedFile

_MAX_SKIPPED_LISTED = 100


@dataclass
class RowLoad:
    """The raw rows of one file, read lazily.

    ``fields`` are the header names (CSV) or the dotted paths seen in the first records (JSON);
    ``rows`` yields ``(line, values)`` — ``line`` the 1-based physical line where a CSV record
    starts, the JSONL line, or the JSON record index. ``skipped`` (rows not read: ragged,
    invalid JSON) and ``warnings`` are complete once ``rows`` is exhausted; ``skipped_rows``
    counts every skipped row even past the first 100 listed. ``encoding``, ``delimiter`` and
    ``header_line`` describe how the file was read (``None`` where not applicable).
    """

    fields: list[str]
    rows: Iterator[tuple[int, dict[str, Any]]]
    format: str
    skipped: list[SkippedFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped_rows: int = 0
    encoding: str | None = None
    delimiter: str | None = None
    header_line: int | None = None


def _skip(load: RowLoad, where: str, reason: str) -> None:
    load.skipped_rows += 1
    if len(load.skipped) < _MAX_SKIPPED_LISTED:
        load.skipped.append(SkippedFile(path=where, reason=reason))


def _summarise_skipped(load: RowLoad, rel_path: str) -> None:
    hidden = load.skipped_rows - len(load.skipped)
    if hidden > 0:
        load.skipped.append(
            SkippedFile(path=rel_path, reason=f"{hidden} more rows skipped (first {len(load.skipped)} listed)")
        )
