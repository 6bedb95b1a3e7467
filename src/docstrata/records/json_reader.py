"""JSON and JSON Lines rows: an array of objects (or one reached by ``record_path``), one object
per line, field paths sampled from the first records (see :mod:`docstrata.records` for the rules)."""

from __future__ import annotations

import json
import logging
import re
from itertools import islice
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..config import VectorstoreToolConfig
from ..errors import RecordError
from .encoding import _NulStripper, _open_jsonl, detect_encoding
from .rows import RowLoad, _skip, _summarise_skipped
from .values import is_missing, resolve_field

_SAMPLE_RECORDS = 1000


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
    record_path = cfg.record_path
    if record_path is None and isinstance(data, dict) and not cfg.resolved_vector_fields:
        # Fields detected (HoloDeck's default): the file's only array of records is the one meant.
        arrays = list(_array_paths(data, "", 0))
        if len(arrays) == 1:
            record_path = arrays[0][0]
            logging.getLogger("docstrata").debug(
                "%s: records read from '%s', the file's only array of objects (record_path chooses another)",
                rel_path,
                record_path,
            )
    items = _records_at(data, record_path, rel_path)
    load = RowLoad(
        fields=_field_paths(items[:_SAMPLE_RECORDS]), rows=iter(()), format="json", warnings=warnings, encoding=encoding
    )
    load.rows = _json_items(items, rel_path, load, may_hold_surrogates=bool(_SURROGATE_ESCAPE.search(text)))
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
            raise RecordError(
                rel_path,
                f"record_path '{record_path}' not found; arrays of objects in the file: {_describe_arrays(data)}",
                field="record_path",
            )
        data = found
        if isinstance(data, list) and data and all(isinstance(item, list) for item in data):
            # The path crossed a list ("details" over an array of orders): one record per inner item.
            data = [item for inner in data for item in inner]
    if isinstance(data, list):
        return data
    where = f"record_path '{record_path}' leads to" if record_path else "the top level is"
    raise RecordError(
        rel_path,
        f"{where} a JSON {type(data).__name__ if not isinstance(data, dict) else 'object'}, "
        f"not an array of records; set 'record_path' to one of: {_describe_arrays(data)}",
        field="record_path",
    )


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


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_reason(obj: Any, prefix: str = "") -> str | None:
    """Why ``obj`` (a parsed JSON value) cannot be stored: the first key or string holding a lone
    surrogate (JSON may escape one, ``"\\ud800"``; UTF-8 cannot encode it), or ``None``."""
    if isinstance(obj, str):
        m = _SURROGATE.search(obj)
        return (
            None
            if m is None
            else (
                f"field '{prefix or '(value)'}' holds a lone surrogate "
                f"(\\u{ord(m.group(0)):04x}), which is not valid Unicode"
            )
        )
    if isinstance(obj, dict):
        for k, v in obj.items():
            path = f"{prefix}.{k}" if prefix else str(k)
            if _SURROGATE.search(str(k)):
                return f"a field name holds a lone surrogate (\\u{ord(_SURROGATE.search(k).group(0)):04x})"
            why = _surrogate_reason(v, path)
            if why:
                return why
    elif isinstance(obj, list):
        for v in obj:
            why = _surrogate_reason(v, prefix)
            if why:
                return why
    return None


def _json_items(
    items: list[Any], rel_path: str, load: RowLoad, may_hold_surrogates: bool = True
) -> Iterator[tuple[int, dict[str, Any]]]:
    for index, item in enumerate(items, start=1):
        why = _surrogate_reason(item) if may_hold_surrogates and isinstance(item, dict) else None
        if why:
            _skip(load, f"{rel_path}:{index}", f"record {index}: {why}")
        elif isinstance(item, dict):
            yield index, item
        else:
            _skip(load, f"{rel_path}:{index}", f"record {index} is a JSON {type(item).__name__}, not an object")
    _summarise_skipped(load, rel_path)


def _read_jsonl(
    path: Path, rel_path: str, cfg: VectorstoreToolConfig, fmt: str, warnings: list[str] | None = None
) -> RowLoad:
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
        if _SURROGATE_ESCAPE.search(line):
            why = _surrogate_reason(obj)
            if why:
                yield number, why
                continue
        if record_path:
            found = resolve_field(obj, record_path)
            items = [] if is_missing(found) else found if isinstance(found, list) else [found]
            for item in items:
                yield number, item if isinstance(item, dict) else f"not a JSON object at '{record_path}'"
        else:
            yield number, obj if isinstance(obj, dict) else f"a JSON {type(obj).__name__}, not an object"


def _stream_jsonl(
    path: Path, rel_path: str, record_path: str | None, load: RowLoad
) -> Iterator[tuple[int, dict[str, Any]]]:
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
