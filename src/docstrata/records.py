"""Structured records: CSV / TSV / JSON / JSONL files → batches of :class:`~docstrata.models.Record`.

Two entry points:

* :func:`read_rows` — the raw rows of one file as ``(line, {field: value})``: encoding, BOM,
  delimiter, header and ragged-row handling, ``record_path``. CSV values are strings; JSON
  values are whatever the JSON holds.
* :func:`load_records` — :func:`read_rows` plus the tool's field mapping (``id_field``,
  ``vector_field(s)``, ``meta_fields``) into lazy batches of at most ``batch_size`` records.

Reading rules (issue 5, item 4):

* **Encoding.** A BOM wins (UTF-8, UTF-16, UTF-32). Otherwise, when ``encoding`` is not set,
  the whole file is checked as UTF-8 in 1 MiB blocks; if it is not UTF-8, charset-normalizer
  is asked. It guesses small Western files badly (``£`` → cp1250 ``Ł``, ``é`` → cp932), so
  its answer is taken only when it confidently reads a non-Latin script (Cyrillic, Greek,
  CJK, ...); otherwise the file is read as cp1252 (or latin-1 when a byte is undefined in
  cp1252). The choice is reported in ``warnings`` (``"cp1252 detected ..."``).
* **NUL bytes** are removed and counted in a warning. **Line ends** ``\\n``, ``\\r\\n`` and a
  lone ``\\r`` are all accepted; line numbers count physical lines of any of these kinds.
* **Delimiter** (``delimiter`` unset): each of ``, ; \\t |`` parses the first lines; the one
  giving the most consistent field count (> 1) wins, and among those within 10 % consistency,
  the one with more fields (so ``;`` beats the decimal comma in ``"454 000,00"``). A single
  column falls back to ``,`` (``\\t`` first for ``.tsv``).
* **Header.** ``header_row`` is the 1-based physical line of the header; lines above it are
  skipped. Unset, the header is the first non-blank row, except that leading rows which fill
  at most half as many cells as the typical row (when rows have ≥ 3 filled cells) are taken
  as a preamble (report titles, "Reporting Period: 13") and skipped with a warning naming
  the lines. This is deliberately conservative: a header with a few empty names is kept.
  Header names are stripped of whitespace; an empty name becomes ``column_N`` (1-based);
  a repeated name ``name_2`` (warned).
* **Ragged rows.** A row with more cells than the header is accepted when the extra cells
  are empty; a shorter row when the missing cells are unnamed ``column_N`` ones. Any other
  row is skipped and reported as ``"file.csv:LINE"``. When most sampled rows share one other
  width the header (or delimiter) is wrong, and :class:`RecordError` says so before reading.
  Rows whose cells are all empty are skipped silently.
* **JSON** is an array of objects, or an object with ``record_path`` (dotted, e.g.
  ``data.items``) leading to such an array; ``line`` is the 1-based record index. A
  ``record_path`` that crosses an array collects the arrays it reaches (``details`` over the
  Northwind orders array → every order line). A ``.json``
  file that is really JSON Lines is read as such (warned). JSON is parsed whole (the stdlib
  has no streaming parser); CSV and JSONL stream with bounded memory.
* **JSONL / NDJSON**: one object per line; a bad line is reported with its number and skipped.
* **Dotted fields** (``details.description``) walk into objects; an exact key (even one that
  contains a dot) wins. Walking into a list maps over its elements (``details.productID`` of
  a Northwind order → ``[11, 42]``); a numeric segment indexes it (``details.0.productID``).
  A path that does not exist gives ``""``.

Mapping rules (issue 5, item 3): the id is the ``id_field`` value as a string (or the
``"{file}:{line}"`` with ``id_field: __line__``, for files without an id column);
``content`` joins the non-empty vector-field values with ``field_separator``; ``metadata``
holds ``meta_fields`` — or, when omitted, every field except the id and vector fields
(unnamed ``column_N`` cells only when non-empty). Values become strings: numbers via
``str``, booleans ``true``/``false``, lists and objects JSON, ``null`` and missing ``""``.
A record whose vector fields are all empty is not loaded; it is counted in
``empty_vector_rows`` (and summarised in one warning, not listed in ``skipped``, so an
FAQ with one blank answer does not fail the ingest).
"""

from __future__ import annotations

import codecs
import csv
import difflib
import io
import json
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Iterable, Iterator

from .config import VectorstoreToolConfig
from .errors import RecordError
from .models import Record, SkippedFile

SUPPORTED_RECORD_EXTENSIONS = frozenset({"csv", "tsv", "json", "jsonl", "ndjson"})
LINE_ID_FIELD = "__line__"
"""Pseudo ``id_field`` for files without an id column: the id is ``"{rel_path}:{line}"``
(line = 1-based CSV/JSONL line or JSON record index). Stable only while rows keep their places."""

_DELIMITERS = (",", ";", "\t", "|")
_SAMPLE_LINES = 500
_SAMPLE_CHARS = 1 << 20
_SAMPLE_RECORDS = 1000
_MAX_SKIPPED_LISTED = 100
_BLOCK = 1 << 20
_WESTERN_FALLBACK = "cp1252"
_MISSING: Any = object()

# Python's default (128 KiB) rejects long FAQ answers and HTML cells; this is process-wide.
csv.field_size_limit(max(csv.field_size_limit(), 1 << 26))


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


@dataclass
class RecordLoad:
    """The records of one file, in lazy batches of at most ``batch_size``.

    ``batches`` may raise :class:`RecordError` while being consumed (a duplicate id, or no
    record with a non-empty vector field), so a consumer should store a file's batches in one
    transaction. After it is exhausted: ``records`` loaded, ``empty_vector_rows`` not loaded
    because every vector field was empty, ``skipped`` rows with their ``"file:line"`` and
    reason (at most 100 listed; ``skipped_rows`` is the full count), ``warnings`` (encoding
    detected, NUL bytes stripped, preamble skipped, ...). ``fields`` as in :class:`RowLoad`.
    """

    batches: Iterator[list[Record]]
    fields: list[str]
    skipped: list[SkippedFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    records: int = 0
    empty_vector_rows: int = 0
    skipped_rows: int = 0


# --------------------------------------------------------------------------- values


def value_to_text(value: Any) -> str:
    """A JSON/CSV value as the string stored in a record.

    ``None`` or a missing path → ``""``; ``True``/``False`` → ``"true"``/``"false"``;
    numbers → ``str``; lists and objects → JSON (non-ASCII kept); strings unchanged.
    """
    if value is None or value is _MISSING:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def resolve_field(obj: Any, path: str) -> Any:
    """The value at dotted ``path`` in ``obj``, or a missing marker (see :func:`value_to_text`).

    An exact key wins over a dotted walk. Into a list, a numeric segment indexes and any other
    segment maps over the elements (elements lacking it are left out; none → missing).
    """
    if isinstance(obj, dict) and path in obj:
        return obj[path]
    current = obj
    for segment in path.split("."):
        current = _step(current, segment)
        if current is _MISSING:
            break
    return current


def _step(current: Any, segment: str) -> Any:
    if isinstance(current, dict):
        return current.get(segment, _MISSING)
    if isinstance(current, list):
        if segment.isdigit():
            index = int(segment)
            return current[index] if index < len(current) else _MISSING
        found = [v for v in (_step(item, segment) for item in current) if v is not _MISSING]
        return found if found else _MISSING
    return _MISSING


def is_missing(value: Any) -> bool:
    """True when :func:`resolve_field` found nothing at the path."""
    return value is _MISSING


# --------------------------------------------------------------------------- encoding


def detect_encoding(path: Path, rel_path: str, configured: str | None = None) -> tuple[str, str | None]:
    """``(codec, warning)`` for reading ``path``; ``warning`` is set when a non-UTF-8 codec was guessed.

    A BOM wins over everything (a BOM in a file configured as ``utf-8`` is still removed).
    Raises :class:`RecordError` for an unknown ``configured`` codec.
    """
    with open(path, "rb") as f:
        head = f.read(4)
    bom = _bom_codec(head)
    if configured:
        try:
            name = codecs.lookup(configured).name
        except LookupError:
            raise RecordError(rel_path, f"unknown encoding '{configured}'", field="encoding") from None
        return (bom if bom and _unicode_family(name) == _unicode_family(bom) else name), None
    if bom:
        return bom, None
    bad_at = _first_invalid_utf8(path)
    if bad_at is None:
        return "utf-8", None
    codec = _guess_non_utf8(path, bad_at)
    return codec, f"{codec} detected (not valid UTF-8 at byte {bad_at}); set 'encoding' to override"


def _unicode_family(codec: str) -> str:
    return codecs.lookup(codec).name.replace("-sig", "")[:6]  # "utf-8", "utf-16", "utf-32", or other


def _bom_codec(head: bytes) -> str | None:
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


def _first_invalid_utf8(path: Path) -> int | None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(_BLOCK)
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as e:
                return offset + e.start
            if not block:
                return None
            offset += len(block)


def _guess_non_utf8(path: Path, bad_at: int) -> str:
    from charset_normalizer import from_bytes

    with open(path, "rb") as f:
        sample = f.read(_SAMPLE_CHARS)
        if bad_at >= len(sample):
            f.seek(max(0, bad_at - 4096))
            sample += f.read(65536)
    best = from_bytes(sample).best()
    if best is not None and best.coherence >= 0.2 and _mostly_non_latin(str(best)):
        return best.encoding
    return _WESTERN_FALLBACK if _decodes_whole(path, _WESTERN_FALLBACK) else "latin-1"


def _mostly_non_latin(text: str) -> bool:
    letters = [ch for ch in text if ord(ch) > 127 and ch.isalpha()]
    if not letters:
        return False
    non_latin = sum(1 for ch in letters if "LATIN" not in unicodedata.name(ch, ""))
    return non_latin > len(letters) / 2


def _decodes_whole(path: Path, codec: str) -> bool:
    decoder = codecs.getincrementaldecoder(codec)()
    with open(path, "rb") as f:
        try:
            for block in iter(lambda: f.read(_BLOCK), b""):
                decoder.decode(block)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return False
    return True


class _NulStripper:
    """Iterates the lines of a text stream with NUL characters removed, counting them."""

    def __init__(self, lines: Iterable[str], first_line: int = 1):
        self._lines = iter(lines)
        self._line = first_line - 1
        self.removed = 0
        self.first_line: int | None = None

    def __iter__(self) -> "_NulStripper":
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self._line += 1
        if "\0" in line:
            self.removed += line.count("\0")
            self.first_line = self.first_line or self._line
            line = line.replace("\0", "")
        return line

    def warning(self) -> str | None:
        if not self.removed:
            return None
        return f"{self.removed} NUL byte(s) stripped (first on line {self.first_line})"


def _open_text(path: Path, encoding: str) -> io.TextIOWrapper:
    # newline="" keeps quoted line breaks intact and splits on \n, \r\n and a lone \r.
    return open(path, encoding=encoding, errors="replace", newline="")


def _open_jsonl(path: Path, encoding: str) -> io.TextIOWrapper:
    # JSON Lines break on \n only; a stray \r is whitespace to json.loads, never a record break.
    return open(path, encoding=encoding, errors="replace", newline="\n")


# --------------------------------------------------------------------------- CSV


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


def _sample_records(lines: list[str], delimiter: str, complete: bool, rel_path: str,
                    first_line: int) -> list[tuple[int, list[str]]]:
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

    def shape(self, row: list[str]) -> list[str] | str:
        """The row at header width, or the reason it is ragged."""
        n = len(row)
        if n == self.width:
            return row
        if n > self.width:
            if any(cell.strip() for cell in row[self.width:]):
                return f"ragged row: {n} fields, the header has {self.width}"
            return row[: self.width]
        if n >= self.min_width:
            return row + [""] * (self.width - n)
        return f"ragged row: {n} fields, the header has {self.width}"


def _check_widths(shaper: _RowShaper, records: list[tuple[int, list[str]]], rel_path: str,
                  header_line: int) -> None:
    rows = [row for _, row in records if _filled(row)]
    if not rows:
        return
    width, count = Counter(len(r) for r in rows).most_common(1)[0]
    if count * 2 > len(rows) and isinstance(shaper.shape(["x"] * width), str):
        raise RecordError(
            rel_path,
            f"the header has {shaper.width} fields but {count} of the first {len(rows)} rows have {width}; "
            "set 'header_row' or 'delimiter'",
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
        raise RecordError(rel_path, f"header_row {cfg.header_row} is past the end of the file",
                          line=cfg.header_row, field="header_row")
    delimiter = cfg.delimiter or _sniff_delimiter(lines, prefer_tab=fmt == "tsv")
    records = _sample_records(lines, delimiter, complete, rel_path, skip + 1)
    if not any(_filled(row) for _, row in records):
        raise RecordError(rel_path, "no header row: the file has no non-blank line"
                          + (f" from line {cfg.header_row} on" if cfg.header_row else ""))
    header_index = 0
    if cfg.header_row is None:
        header_index, preamble = _guess_header(records)
        if preamble:
            lines_text = f"line {preamble[0]}" if len(preamble) == 1 else f"lines {preamble[0]}-{preamble[-1]}"
            verb = "looks" if len(preamble) == 1 else "look"
            warnings.append(f"{lines_text} {verb} like a preamble; header taken from line "
                            f"{records[header_index][0]} (set 'header_row' to choose another)")
    header_line, header = records[header_index]
    fields = _header_names(header, warnings)
    shaper = _RowShaper(fields)
    _check_widths(shaper, records[header_index + 1:], rel_path, header_line)
    load = RowLoad(fields=fields, rows=iter(()), format=fmt, warnings=warnings, encoding=encoding,
                   delimiter=delimiter, header_line=header_line)
    load.rows = _stream_csv(path, rel_path, load, shaper)
    return load


def _stream_csv(path: Path, rel_path: str, load: RowLoad, shaper: _RowShaper) -> Iterator[tuple[int, dict[str, Any]]]:
    assert load.encoding and load.delimiter and load.header_line
    skip = load.header_line - 1
    fields = shaper.fields
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
                _skip(load, f"{rel_path}:{start}", f"CSV syntax error: {e} (record starting here, "
                      f"up to line {skip + reader.line_num})")
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
    _summarise_skipped(load, rel_path)


def _skip(load: RowLoad, where: str, reason: str) -> None:
    load.skipped_rows += 1
    if len(load.skipped) < _MAX_SKIPPED_LISTED:
        load.skipped.append(SkippedFile(path=where, reason=reason))


def _summarise_skipped(load: RowLoad, rel_path: str) -> None:
    hidden = load.skipped_rows - len(load.skipped)
    if hidden > 0:
        load.skipped.append(SkippedFile(path=rel_path, reason=f"{hidden} more rows skipped (first {len(load.skipped)} listed)"))


# --------------------------------------------------------------------------- JSON / JSONL


def _read_json(path: Path, rel_path: str, cfg: VectorstoreToolConfig) -> RowLoad:
    warnings: list[str] = []
    text, encoding = _read_json_text(path, rel_path, cfg, warnings)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        if e.msg == "Extra data" and _first_line_is_object(text):
            warnings.append("the file holds one JSON object per line; read as JSON Lines")
            return _read_jsonl(path, rel_path, cfg, "json", warnings)
        raise RecordError(rel_path, f"invalid JSON: {e.msg} (column {e.colno})", line=e.lineno) from None
    items = _records_at(data, cfg.record_path, rel_path)
    load = RowLoad(fields=_field_paths(items[:_SAMPLE_RECORDS]), rows=iter(()), format="json",
                   warnings=warnings, encoding=encoding)
    load.rows = _json_items(items, rel_path, load)
    return load


def _read_json_text(path: Path, rel_path: str, cfg: VectorstoreToolConfig, warnings: list[str]) -> tuple[str, str]:
    encoding, note = detect_encoding(path, rel_path, cfg.encoding)
    if note:
        warnings.append(note)
    with open(path, encoding=encoding, errors="replace") as f:
        text = f.read().lstrip("\ufeff")
    if "\0" in text:
        warnings.append(f"{text.count(chr(0))} NUL byte(s) stripped")
        text = text.replace("\0", "")
    return text, encoding


def _first_line_is_object(text: str) -> bool:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    try:
        return isinstance(json.loads(first), dict)
    except json.JSONDecodeError:
        return False


def _records_at(data: Any, record_path: str | None, rel_path: str) -> list[Any]:
    if record_path:
        found = resolve_field(data, record_path)
        if is_missing(found):
            raise RecordError(rel_path, f"record_path '{record_path}' not found; arrays of objects in the file: "
                              f"{_describe_arrays(data)}", field="record_path")
        data = found
        if isinstance(data, list) and data and all(isinstance(item, list) for item in data):
            # The path crossed a list ("details" over an array of orders): one record per inner item.
            data = [item for inner in data for item in inner]
    if isinstance(data, list):
        return data
    where = f"record_path '{record_path}' leads to" if record_path else "the top level is"
    raise RecordError(rel_path, f"{where} a JSON {type(data).__name__ if not isinstance(data, dict) else 'object'}, "
                      f"not an array of records; set 'record_path' to one of: {_describe_arrays(data)}",
                      field="record_path")


def _describe_arrays(data: Any, prefix: str = "", depth: int = 0) -> str:
    found = list(_array_paths(data, prefix, depth))
    return ", ".join(f"{p} ({n} records)" for p, n in found) or "none"


def _array_paths(data: Any, prefix: str, depth: int) -> Iterator[tuple[str, int]]:
    if not isinstance(data, dict) or depth > 3:
        return
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value[:10]):
            yield path, len(value)
        elif isinstance(value, dict):
            yield from _array_paths(value, f"{path}.", depth + 1)


def _json_items(items: list[Any], rel_path: str, load: RowLoad) -> Iterator[tuple[int, dict[str, Any]]]:
    for index, item in enumerate(items, start=1):
        if isinstance(item, dict):
            yield index, item
        else:
            _skip(load, f"{rel_path}:{index}", f"record {index} is a JSON {type(item).__name__}, not an object")
    _summarise_skipped(load, rel_path)


def _read_jsonl(path: Path, rel_path: str, cfg: VectorstoreToolConfig, fmt: str,
                warnings: list[str] | None = None) -> RowLoad:
    warnings = warnings if warnings is not None else []
    encoding, note = detect_encoding(path, rel_path, cfg.encoding)
    if note and note not in warnings:
        warnings.append(note)
    sample: list[dict[str, Any]] = []
    with _open_jsonl(path, encoding) as f:
        for _, obj in islice(_jsonl_objects(f, cfg.record_path), _SAMPLE_RECORDS):
            if isinstance(obj, dict):
                sample.append(obj)
    load = RowLoad(fields=_field_paths(sample), rows=iter(()), format=fmt, warnings=warnings, encoding=encoding)
    load.rows = _stream_jsonl(path, rel_path, cfg.record_path, load)
    return load


def _jsonl_objects(lines: Iterable[str], record_path: str | None) -> Iterator[tuple[int, Any]]:
    """``(line, object)`` per record; an unreadable line yields ``(line, reason)`` instead."""
    for number, line in enumerate(lines, start=1):
        line = line.strip().lstrip("\ufeff")
        if not line:
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            yield number, f"invalid JSON: {e.msg} (column {e.colno})"
            continue
        if record_path:
            found = resolve_field(obj, record_path)
            items = [] if is_missing(found) else found if isinstance(found, list) else [found]
            for item in items:
                yield number, item if isinstance(item, dict) else f"not a JSON object at '{record_path}'"
        else:
            yield number, obj if isinstance(obj, dict) else f"a JSON {type(obj).__name__}, not an object"


def _stream_jsonl(path: Path, rel_path: str, record_path: str | None, load: RowLoad) -> Iterator[tuple[int, dict[str, Any]]]:
    assert load.encoding
    with _open_jsonl(path, load.encoding) as f:
        lines = _NulStripper(f)
        for number, obj in _jsonl_objects(lines, record_path):
            if isinstance(obj, dict):
                yield number, obj
            else:
                _skip(load, f"{rel_path}:{number}", obj)
        nul_warning = lines.warning()
    if nul_warning:
        load.warnings.append(nul_warning)
    _summarise_skipped(load, rel_path)


def _field_paths(records: Iterable[Any]) -> list[str]:
    """Dotted paths present in ``records`` in first-seen order (objects and lists of objects walked, depth ≤ 8)."""
    seen: dict[str, None] = {}
    for record in records:
        if isinstance(record, dict):
            _collect_paths(record, "", 0, seen)
    return list(seen)


def _collect_paths(obj: dict[str, Any], prefix: str, depth: int, seen: dict[str, None]) -> None:
    for key, value in obj.items():
        path = f"{prefix}{key}"
        seen.setdefault(path, None)
        if depth >= 8:
            continue
        if isinstance(value, dict):
            _collect_paths(value, f"{path}.", depth + 1, seen)
        elif isinstance(value, list):
            for item in value[:20]:
                if isinstance(item, dict):
                    _collect_paths(item, f"{path}.", depth + 1, seen)


# --------------------------------------------------------------------------- public


def read_rows(path: Path, rel_path: str, cfg: VectorstoreToolConfig) -> RowLoad:
    """Open one CSV / TSV / JSON / JSONL / NDJSON file and return its rows, lazily.

    Uses ``cfg.encoding``, ``cfg.delimiter``, ``cfg.header_row`` and ``cfg.record_path``
    (see the module docstring for the rules). The header, encoding and delimiter are settled
    here, before any row is read. Raises :class:`RecordError` (``file`` = ``rel_path``, with
    line and field where known) for an unsupported extension, an empty file, a header that
    does not fit the rows, invalid JSON, or a ``record_path`` that leads to no array;
    iterating ``rows`` raises it for a CSV syntax error (the line where the record starts).
    """
    fmt = Path(rel_path).suffix.lower().lstrip(".") or Path(path).suffix.lower().lstrip(".")
    if fmt not in SUPPORTED_RECORD_EXTENSIONS:
        raise RecordError(rel_path, f"unsupported record file type '.{fmt}'; supported: "
                          + ", ".join(f".{e}" for e in sorted(SUPPORTED_RECORD_EXTENSIONS)))
    if fmt in ("csv", "tsv"):
        return _read_csv(Path(path), rel_path, cfg, fmt)
    if fmt == "json":
        return _read_json(Path(path), rel_path, cfg)
    return _read_jsonl(Path(path), rel_path, cfg, fmt)


def load_records(path: Path, rel_path: str, cfg: VectorstoreToolConfig) -> RecordLoad:
    """Load the records of one file for a structured ``vectorstore`` tool.

    ``path`` is the file on disk; ``rel_path`` its path relative to the source root, used in
    ``Record.source_file``, skipped-row locations (``"rel_path:LINE"``) and errors.
    Returns a :class:`RecordLoad` whose ``batches`` yield lists of at most ``cfg.batch_size``
    :class:`Record`; memory stays bounded for CSV and JSONL (a set of seen ids is kept to
    detect duplicates). Raises :class:`RecordError`, before any batch, when ``id_field``,
    a vector field or a meta field is not in the source (the message lists the available
    fields); while iterating, for a duplicate id (naming the id and both lines) and, at the
    end, when no record has a non-empty vector field.
    """
    vector_fields = cfg.resolved_vector_fields
    if not vector_fields or not cfg.id_field:
        raise RecordError(rel_path, "a structured vectorstore tool needs 'id_field' and 'vector_field'",
                          field="vector_field")
    rows = read_rows(path, rel_path, cfg)
    mapper = _RecordMapper(cfg, rows, rel_path)
    load = RecordLoad(batches=iter(()), fields=rows.fields, skipped=rows.skipped, warnings=rows.warnings)
    load.batches = _batches(rows, mapper, load, cfg.batch_size)
    return load


class _RecordMapper:
    """Turns one raw row into a :class:`Record` following the tool's field settings."""

    def __init__(self, cfg: VectorstoreToolConfig, rows: RowLoad, rel_path: str):
        self.rel_path = rel_path
        self.id_field = cfg.id_field or ""
        self.vector_fields = cfg.resolved_vector_fields
        self.separator = cfg.field_separator
        self.flat = rows.format in ("csv", "tsv")
        self.meta_fields = cfg.meta_fields
        configured = [self.id_field, *self.vector_fields, *(cfg.meta_fields or [])]
        self._check_present([f for f in configured if f != LINE_ID_FIELD], rows.fields, rows)
        self.used = {self.id_field, *self.vector_fields}
        # CSV: every other column. JSON: every other top-level key of each record (keys may differ per record).
        self.default_meta = [f for f in rows.fields if f not in self.used] if self.flat else None

    def _check_present(self, wanted: list[str], fields: list[str], rows: RowLoad) -> None:
        available = set(fields)
        for name in wanted:
            if name in available:
                continue
            if not self.flat and ".".join(p for p in name.split(".") if not p.isdigit()) in available:
                continue  # "details.0.productID": list indices are not part of the sampled paths
            hint = difflib.get_close_matches(name, fields, n=1)
            shown = ", ".join(fields[:60]) + (f", ... ({len(fields)} in all)" if len(fields) > 60 else "")
            raise RecordError(
                self.rel_path,
                f"field '{name}' is not in the source" + (f" (did you mean '{hint[0]}'?)" if hint else "")
                + f"; available fields: {shown or 'none'}",
                line=rows.header_line, field=name)

    def record(self, line: int, row: dict[str, Any]) -> tuple[Record | None, str]:
        """``(record, "")``, or ``(None, why)`` with why = "empty" (vector fields) or "no id"."""
        parts = [value_to_text(self._get(row, f)) for f in self.vector_fields]
        content = self.separator.join(p for p in parts if p.strip())
        if not content:
            return None, "empty"
        if self.id_field == LINE_ID_FIELD:
            record_id = f"{self.rel_path}:{line}"
        else:
            record_id = value_to_text(self._get(row, self.id_field)).strip()
        if not record_id:
            return None, "no id"
        return Record(id=record_id, content=content, metadata=self._metadata(row),
                      source_file=self.rel_path, line=line), ""

    def _get(self, row: dict[str, Any], name: str) -> Any:
        return row.get(name, _MISSING) if self.flat else resolve_field(row, name)

    def _metadata(self, row: dict[str, Any]) -> dict[str, str]:
        if self.meta_fields is not None:
            return {f: value_to_text(self._get(row, f)) for f in self.meta_fields}
        if self.default_meta is not None:  # CSV: every other column; unnamed ones only when filled
            return {f: v for f in self.default_meta if (v := row.get(f, "")) or not f.startswith("column_")}
        return {k: value_to_text(v) for k, v in row.items() if k not in self.used}


def _batches(rows: RowLoad, mapper: _RecordMapper, load: RecordLoad, batch_size: int) -> Iterator[list[Record]]:
    seen: dict[str, int] = {}
    empty_lines: list[int] = []
    batch: list[Record] = []
    kind = "record" if rows.format == "json" else "line"
    for line, row in rows.rows:
        record, why = mapper.record(line, row)
        if record is None:
            if why == "empty":
                load.empty_vector_rows += 1
                if len(empty_lines) < 10:
                    empty_lines.append(line)
            else:
                _skip(rows, f"{mapper.rel_path}:{line}", f"empty id field '{mapper.id_field}'")
            continue
        first = seen.setdefault(record.id, line)
        if first != line:
            raise RecordError(mapper.rel_path, f"duplicate id '{record.id}' in field '{mapper.id_field}' "
                              f"({kind}s {first} and {line}); ids must be unique (or use id_field: {LINE_ID_FIELD})",
                              line=line, field=mapper.id_field)
        batch.append(record)
        load.records += 1
        if len(batch) >= batch_size:
            yield batch
            batch = []
    if batch:
        yield batch
    load.skipped_rows = rows.skipped_rows
    if load.empty_vector_rows:
        more = ", ..." if load.empty_vector_rows > len(empty_lines) else ""
        load.warnings.append(f"{load.empty_vector_rows} row(s) with empty vector field(s) "
                             f"{', '.join(mapper.vector_fields)} not loaded ({kind}s {', '.join(map(str, empty_lines))}{more})")
    if load.records == 0:
        raise RecordError(mapper.rel_path, _no_records_reason(load, mapper), field=mapper.vector_fields[0])


def _no_records_reason(load: RecordLoad, mapper: _RecordMapper) -> str:
    fields = ", ".join(f"'{f}'" for f in mapper.vector_fields)
    if load.empty_vector_rows:
        return f"no record has a non-empty value in vector field(s) {fields} ({load.empty_vector_rows} rows read)"
    if load.skipped_rows:
        return f"no record could be loaded ({load.skipped_rows} rows skipped; see the skipped rows)"
    return "no data rows after the header"
