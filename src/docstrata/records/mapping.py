"""Rows → :class:`~docstrata.models.Record` batches for a structured ``vectorstore`` tool: the id,
vector and meta field mapping, duplicate-id and empty-vector checks (:class:`RecordLoad`)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from ..config import VectorstoreToolConfig
from ..errors import RecordError
from ..models import Record, SkippedFile
from .ids import IdRegistry
from .csv_reader import _unnamed
from .rows import RowLoad, _skip
from .values import _MISSING, resolve_field, value_to_text

LINE_ID_FIELD = "__line__"
"""Pseudo ``id_field`` for files without an id column: the id is ``"{rel_path}:{line}"``
(line = 1-based CSV/JSONL line or JSON record index). Stable only while rows keep their places."""


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
    ids: IdRegistry = field(default_factory=IdRegistry, repr=False)

    def unseen(self, ids: Iterable[str]) -> list[str]:
        """The ids of ``ids`` (e.g. the file's records stored by an earlier ingest) that no record
        loaded so far has, in their order: the records gone from the file. Memory: bounded by the
        batch (see :class:`~docstrata.records.ids.IdRegistry`)."""
        return self.ids.unseen(ids)

    def close(self) -> None:
        """Forget the loaded ids (the registry's temporary database is removed)."""
        self.ids.close()


class _RecordMapper:
    """Turns one raw row into a :class:`Record` following the tool's field settings."""

    def __init__(self, cfg: VectorstoreToolConfig, rows: RowLoad, rel_path: str):
        self.rel_path = rel_path
        self.auto_id = not cfg.id_field
        self.id_field = cfg.id_field or detect_id_field(rows.fields)
        self.vector_fields = cfg.resolved_vector_fields
        self.all_fields = not self.vector_fields  # HoloDeck's default: the record's every field is its text
        self.separator = cfg.field_separator
        self.flat = rows.format in ("csv", "tsv")
        self.meta_fields = cfg.meta_fields
        self.limits = cfg.limits
        self.document_field = cfg.document_field
        configured = [
            self.id_field,
            *self.vector_fields,
            *(cfg.meta_fields or []),
            *([cfg.document_field] if cfg.document_field else []),
        ]
        self._check_present([f for f in configured if f != LINE_ID_FIELD], rows.fields, rows)
        self.used = {self.id_field, *self.vector_fields}
        self.fields = rows.fields
        # CSV: every other column. JSON: every other top-level key of each record (keys may differ per record).
        self.default_meta = [f for f in rows.fields if f not in self.used] if self.flat else None
        # CSV columns whose header cell was empty (named column_N at position N by the reader), not
        # a header that happens to start with "column_" (csvkit's bad.csv: column_a, column_b, ...)
        self.unnamed = {f for i, f in enumerate(rows.fields) if _unnamed(f, i)} if self.flat else set()

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
                f"field '{name}' is not in the source"
                + (f" (did you mean '{hint[0]}'?)" if hint else "")
                + f"; available fields: {shown or 'none'}",
                line=rows.header_line,
                field=name,
            )

    def record(self, line: int, row: dict[str, Any]) -> tuple[Record | None, str]:
        """``(record, "")``, or ``(None, why)`` with why = "empty" (vector fields) or "no id"."""
        if self.all_fields:
            items = row.items() if self.flat else ((f, self._get(row, f)) for f in _top_level(row, self.fields))
            parts = [f"{k}: {t}" for k, v in items if (t := value_to_text(v)).strip() and k not in self.unnamed]
            content = "\n".join(parts)
        else:
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
        document = value_to_text(self._get(row, self.document_field)) if self.document_field else ""
        return Record(
            id=record_id,
            content=content,
            metadata=self._metadata(row),
            source_file=self.rel_path,
            line=line,
            document=document,
        ), ""

    def _get(self, row: dict[str, Any], name: str) -> Any:
        return row.get(name, _MISSING) if self.flat else resolve_field(row, name)

    def _metadata(self, row: dict[str, Any]) -> dict[str, str]:
        if self.meta_fields is not None:
            return {f: value_to_text(self._get(row, f)) for f in self.meta_fields}
        if self.default_meta is not None:  # CSV: every other column; unnamed ones only when filled
            return {f: v for f in self.default_meta if (v := row.get(f, "")) or f not in self.unnamed}
        return {k: value_to_text(v) for k, v in row.items() if k not in self.used}


_ID_NAMES = ("id", "uuid", "guid", "key", "sku", "code")


def detect_id_field(fields: list[str]) -> str:
    """The id field of records configured without ``id_field``: the first field named (any case)
    id / uuid / guid / key / sku / code, else the first whose name ends in ``_id`` / ``-id`` / ``Id`` /
    ``ID`` (``faq_id``, ``productID``), else :data:`LINE_ID_FIELD` (the row's place, ``file:line``).
    Only top-level fields count (a dotted ``details.id`` is not the record's own)."""
    top = [f for f in fields if "." not in f]
    for f in top:
        if f.lower() in _ID_NAMES:
            return f
    for f in top:
        if re.search(r"(?:[_-]id|[a-z]Id|[a-z]ID)$", f) or f.lower().endswith(("_id", "-id")):
            return f
    return LINE_ID_FIELD


def _top_level(row: dict[str, Any], fields: list[str]) -> list[str]:
    """The top-level keys of a JSON record, in the file's order (sampled fields first, then any others)."""
    seen = [f for f in fields if "." not in f and f in row]
    return seen + [k for k in row if k not in seen]


def _duplicate(mapper: _RecordMapper, kind: str, record_id: str, first: int, line: int) -> RecordError:
    if mapper.auto_id:
        return RecordError(
            mapper.rel_path,
            f"the id field detected, '{mapper.id_field}', repeats '{record_id}' "
            f"({kind}s {first} and {line}); set id_field to the field holding unique ids, or "
            f"id_field: {LINE_ID_FIELD} to number the rows",
            line=line,
            field=mapper.id_field,
        )
    return RecordError(
        mapper.rel_path,
        f"duplicate id '{record_id}' in field '{mapper.id_field}' "
        f"({kind}s {first} and {line}); ids must be unique (or use id_field: {LINE_ID_FIELD})",
        line=line,
        field=mapper.id_field,
    )


def _batches(rows: RowLoad, mapper: _RecordMapper, load: RecordLoad, batch_size: int) -> Iterator[list[Record]]:
    """Map ``rows`` into batches. A duplicate id raises at the first row whose id an earlier row
    holds, as a row-by-row check would: ids within the batch are checked row by row, ids of earlier
    batches (in ``load.ids``, whose memory does not grow with the file) once per batch."""
    registry = load.ids
    empty_lines: list[int] = []
    batch: list[Record] = []
    in_batch: dict[str, int] = {}
    kind = "record" if rows.format == "json" else "line"

    def check_earlier() -> None:  # the first row of the batch whose id an earlier batch loaded
        earlier = registry.lines([r.id for r in batch]) if batch else {}
        for r in batch if earlier else ():
            if r.id in earlier:
                raise _duplicate(mapper, kind, r.id, earlier[r.id], r.line)

    it = iter(rows.rows)
    while True:
        try:
            line, row = next(it)
        except StopIteration:
            break
        except RecordError:
            check_earlier()  # a duplicate on an earlier line is reported first
            raise
        over = over_limits(row, mapper.limits)
        if over:
            _skip(rows, f"{mapper.rel_path}:{line}", over)
            continue
        record, why = mapper.record(line, row)
        if record is None:
            if why == "empty":
                load.empty_vector_rows += 1
                if len(empty_lines) < 10:
                    empty_lines.append(line)
            else:
                _skip(rows, f"{mapper.rel_path}:{line}", f"empty id field '{mapper.id_field}'")
            continue
        first = in_batch.setdefault(record.id, line)
        if first != line:
            check_earlier()
            raise _duplicate(mapper, kind, record.id, first, line)
        batch.append(record)
        load.records += 1
        if len(batch) >= batch_size:
            check_earlier()
            registry.add(list(in_batch.items()))
            yield batch
            batch, in_batch = [], {}
    if batch:
        check_earlier()
        registry.add(list(in_batch.items()))
        yield batch
    load.skipped_rows = rows.skipped_rows
    if load.empty_vector_rows:
        more = ", ..." if load.empty_vector_rows > len(empty_lines) else ""
        load.warnings.append(
            f"{load.empty_vector_rows} row(s) with empty vector field(s) "
            f"{', '.join(mapper.vector_fields)} not loaded ({kind}s {', '.join(map(str, empty_lines))}{more})"
        )
    if load.records == 0:
        raise RecordError(
            mapper.rel_path,
            _no_records_reason(load, mapper),
            field=mapper.vector_fields[0] if mapper.vector_fields else "",
        )


def over_limits(row: dict[str, Any], limits) -> str:
    """Why ``row`` (a CSV row or JSON record) breaks ``limits.max_columns`` (its top-level fields)
    or ``limits.max_field_chars`` (a text value's length), or ``""``."""
    if len(row) > limits.max_columns:
        return f"{len(row):,} fields, over limits.max_columns = {limits.max_columns:,} (raise it to index this record)"
    try:  # a CSV row: every value a string, measured in C
        if max(map(len, row.values()), default=0) <= limits.max_field_chars:
            return ""
    except TypeError:  # a JSON record: numbers, nulls, nested values
        pass
    for name, value in row.items():
        if isinstance(value, str) and len(value) > limits.max_field_chars:
            return (
                f"field '{name}' holds {len(value):,} characters, over limits.max_field_chars = "
                f"{limits.max_field_chars:,} (raise it to index this record)"
            )
    return ""


def _no_records_reason(load: RecordLoad, mapper: _RecordMapper) -> str:
    fields = ", ".join(f"'{f}'" for f in mapper.vector_fields) or "(all fields)"
    if load.empty_vector_rows:
        return f"no record has a non-empty value in vector field(s) {fields} ({load.empty_vector_rows} rows read)"
    if load.skipped_rows:
        return f"no record could be loaded ({load.skipped_rows} rows skipped; see the skipped rows)"
    return "no data rows after the header"
