"""CSV / TSV rows: delimiter sniffing, header and preamble detection, header names, ragged-row
shaping, and the streaming reader (bounded memory; see :mod:`docstrata.records` for the rules)."""

from __future__ import annotations

import csv
import logging
from collections import Counter
from itertools import islice
from pathlib import Path
from typing import Any, Iterator

from ..config import VectorstoreToolConfig
from ..errors import RecordError
from .encoding import _SAMPLE_CHARS, _NulStripper, _open_text, detect_encoding
from .rows import RowLoad, _skip, _summarise_skipped

log = logging.getLogger(__name__)

_DELIMITERS = (",", ";", "\t", "|")
_SAMPLE_LINES = 500

# Python's default (128 KiB) rejects long FAQ answers and HTML cells; this is process-wide.
csv.field_size_limit(max(csv.field_size_limit(), 1 << 26))


def _sniff_delimiter(lines: list[str], prefer_tab: bool) -> str:
    candidates = ("\t", ",", ";", "|") if prefer_tab else _DELIMITERS
    scored: list[tuple[float, int, str]] = []
    for delimiter in candidates:
        widths = [len(r) for r in _parse_lines(lines, delimiter) if _filled(r)]
        if not widths:
            continue
        width, count = Counter(widths).most_common(1)[0]
        if width > 1:
            scored.append((count / len(widths), width, delimiter))
    if not scored:
        return candidates[0] if prefer_tab else ","
    best_consistency = max(s[0] for s in scored)
    close = [s for s in scored if s[0] >= best_consistency - 0.1]
    return max(close, key=lambda s: (s[1], s[0]))[2]  # more fields, then more consistent, then list order


def _parse_lines(lines: list[str], delimiter: str) -> list[list[str]]:
    try:
        return list(csv.reader(lines, delimiter=delimiter))
    except csv.Error:
        return []


def _filled(row: list[str]) -> int:
    return sum(1 for cell in row if cell.strip())


def _read_sample(path: Path, encoding: str, skip_lines: int) -> tuple[list[str], bool]:
    """Up to ``_SAMPLE_LINES`` lines after ``skip_lines``; second value: the file ended within them."""
    lines: list[str] = []
    chars = 0
    with _open_text(path, encoding) as f:
        stripped = _NulStripper(f)
        for _ in islice(stripped, skip_lines):
            pass
        for line in stripped:
            lines.append(line)
            chars += len(line)
            if len(lines) >= _SAMPLE_LINES or chars >= _SAMPLE_CHARS:
                return lines, False
    return lines, True


def _sample_records(
    lines: list[str], delimiter: str, complete: bool, rel_path: str, first_line: int
) -> list[tuple[int, list[str]]]:
    """Parsed records of the sample with their starting line; an unfinished last record is dropped.

    A malformed record is left out (the full pass reports it), unless it comes before any
    non-blank row: then it is the header, and :class:`RecordError` is raised.
    """
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    out: list[tuple[int, list[str]]] = []
    while True:
        start = first_line + reader.line_num
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            if complete and not any(_filled(r) for _, r in out):
                raise RecordError(rel_path, f"CSV syntax error in the header: {e}", line=start) from None
            continue
        out.append((start, row))
    if not complete and out:
        out.pop()
    return out


def _guess_header(records: list[tuple[int, list[str]]]) -> tuple[int, list[int]]:
    """Index of the header among ``records`` and the lines of the non-blank preamble rows above it."""
    filled = [(i, _filled(row)) for i, (_, row) in enumerate(records) if _filled(row)]
    if not filled:
        return 0, []
    typical = Counter(n for _, n in filled).most_common(1)[0][0]
    for i, n in filled:
        if typical < 3 or n > typical / 2:
            return i, [records[j][0] for j, m in filled if j < i]
    return filled[0][0], []


def _header_names(row: list[str], warnings: list[str]) -> list[str]:
    names: list[str] = []
    seen: Counter[str] = Counter()
    for i, cell in enumerate(row, start=1):
        name = cell.lstrip("\ufeff").strip() or f"column_{i}"
        seen[name] += 1
        if seen[name] > 1:
            renamed = f"{name}_{seen[name]}"
            warnings.append(f"header repeats '{name}'; column {i} is named '{renamed}'")
            name = renamed
        names.append(name)
    return names


def _unnamed(name: str, index: int) -> bool:
    return name == f"column_{index + 1}"


class _RowShaper:
    """Fits a parsed CSV row to the header: pads/truncates tolerated cells, else explains why not."""

    def __init__(self, fields: list[str]):
        self.fields = fields
        self.width = len(fields)
        unnamed_tail = 0
        for i in range(self.width - 1, -1, -1):
            if not _unnamed(fields[i], i):
                break
            unnamed_tail += 1
        self.min_width = self.width - unnamed_tail
        self.trimmed = 0  # rows whose extra trailing cells were empty and dropped

    def shape(self, row: list[str]) -> list[str] | str:
        """The row at header width, or the reason it is ragged."""
        n = len(row)
        if n == self.width:
            return row
        if n > self.width:
            if any(cell.strip() for cell in row[self.width :]):
                return f"ragged row: {n} fields, the header has {self.width} (the extra fields are not empty)"
            self.trimmed += 1
            return row[: self.width]
        if n >= self.min_width:
            return row + [""] * (self.width - n)
        return f"ragged row: {n} fields, the header has {self.width}"


def _check_widths(
    shaper: _RowShaper, records: list[tuple[int, list[str]]], rel_path: str, header_line: int, delimiter: str
) -> None:
    """Raise :class:`RecordError` when most sampled rows cannot be fitted to the header and share
    one width (the header, not the rows, is then wrong).

    Rows are judged by their real cells (:meth:`_RowShaper.shape`), so a file whose every row
    ends with one empty extra field (a trailing comma, as MITRE's CWE export has) passes.
    """
    rows = [(line, row) for line, row in records if _filled(row)]
    if not rows:
        return
    bad = [(line, row) for line, row in rows if isinstance(shaper.shape(row), str)]
    if len(bad) * 2 <= len(rows):
        return
    width, count = Counter(len(r) for _, r in bad).most_common(1)[0]
    if count * 2 <= len(rows):
        return  # ragged rows of differing widths: each is skipped with its reason, the file is read
    first_line, first_row = next((line, row) for line, row in bad if len(row) == width)
    if width > shaper.width:
        cause = f"line {first_line} has {width} fields and its fields {shaper.width + 1}-{width} are not empty"
    else:
        cause = f"line {first_line} has {width} fields, {shaper.width - width} short"
    shown = {"\t": "tab"}.get(delimiter, repr(delimiter))
    raise RecordError(
        rel_path,
        f"the header (line {header_line}) has {shaper.width} fields but {count} of the first "
        f"{len(rows)} rows have {width} ({cause}; read with delimiter {shown}). If the header "
        "is on another line, set 'header_row' to that line; if the fields are separated by "
        "another character, set 'delimiter'; otherwise the header or the rows need fixing",
        line=header_line,
    )


def _read_csv(path: Path, rel_path: str, cfg: VectorstoreToolConfig, fmt: str) -> RowLoad:
    warnings: list[str] = []
    encoding, note = detect_encoding(path, rel_path, cfg.encoding)
    if note:
        warnings.append(note)
    skip = (cfg.header_row or 1) - 1
    lines, complete = _read_sample(path, encoding, skip)
    if cfg.header_row and not lines:
        raise RecordError(
            rel_path,
            f"header_row {cfg.header_row} is past the end of the file",
            line=cfg.header_row,
            field="header_row",
        )
    delimiter = cfg.delimiter or _sniff_delimiter(lines, prefer_tab=fmt == "tsv")
    records = _sample_records(lines, delimiter, complete, rel_path, skip + 1)
    if not any(_filled(row) for _, row in records):
        raise RecordError(
            rel_path,
            "no header row: the file has no non-blank line"
            + (f" from line {cfg.header_row} on" if cfg.header_row else ""),
        )
    header_index = 0
    if cfg.header_row is None:
        header_index, preamble = _guess_header(records)
        if preamble:
            lines_text = f"line {preamble[0]}" if len(preamble) == 1 else f"lines {preamble[0]}-{preamble[-1]}"
            verb = "looks" if len(preamble) == 1 else "look"
            warnings.append(
                f"{lines_text} {verb} like a preamble; header taken from line "
                f"{records[header_index][0]} (set 'header_row' to choose another)"
            )
    header_line, header = records[header_index]
    fields = _header_names(header, warnings)
    if len(fields) > cfg.limits.max_columns:  # before any row is read: 100,000 columns stalled an ingest
        raise RecordError(
            rel_path,
            f"the header has {len(fields):,} columns, over limits.max_columns = "
            f"{cfg.limits.max_columns:,} (raise it to index this file)",
            line=header_line,
        )
    shaper = _RowShaper(fields)
    _check_widths(shaper, records[header_index + 1 :], rel_path, header_line, delimiter)
    load = RowLoad(
        fields=fields,
        rows=iter(()),
        format=fmt,
        warnings=warnings,
        encoding=encoding,
        delimiter=delimiter,
        header_line=header_line,
    )
    load.rows = _stream_csv(path, rel_path, load, shaper)
    return load


def _stream_csv(path: Path, rel_path: str, load: RowLoad, shaper: _RowShaper) -> Iterator[tuple[int, dict[str, Any]]]:
    assert load.encoding and load.delimiter and load.header_line
    skip = load.header_line - 1
    fields = shaper.fields
    shaper.trimmed = 0  # count the full pass only, not the sample check
    with _open_text(path, load.encoding) as f:
        lines = _NulStripper(f)
        for _ in islice(lines, skip):
            pass
        # strict: a stray quote ("abc"def) or a quote left open to the end of the file is an
        # error for that record instead of silently swallowing the rows after it.
        reader = csv.reader(lines, delimiter=load.delimiter, strict=True)
        next(reader, None)  # the header, already parsed from the sample
        while True:
            start = skip + reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as e:
                _skip(
                    load,
                    f"{rel_path}:{start}",
                    f"CSV syntax error: {e} (record starting here, up to line {skip + reader.line_num})",
                )
                continue
            if not any(map(str.strip, row)):
                continue
            shaped = shaper.shape(row)
            if isinstance(shaped, str):
                _skip(load, f"{rel_path}:{start}", shaped)
                continue
            yield start, dict(zip(fields, shaped))
        nul_warning = lines.warning()
    if nul_warning:
        load.warnings.append(nul_warning)
    if shaper.trimmed:
        log.debug(
            "%s: dropped the empty extra trailing field(s) of %d rows (trailing delimiter)", rel_path, shaper.trimmed
        )
    _summarise_skipped(load, rel_path)
