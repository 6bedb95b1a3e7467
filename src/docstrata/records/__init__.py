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
  are empty; a shorter row when the missing cells are unnamed ``column_N`` ones (so a file whose every row ends
  in a trailing delimiter, like MITRE's CWE export, is read; the dropped cells are counted at
  debug level). Any other
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

Modules: ``encoding`` (BOM, UTF-8 check, charset guess, NUL stripping), ``csv_reader`` and
``json_reader`` (the rows of one CSV/TSV or JSON/JSONL file), ``values`` (dotted fields, value
text), ``rows`` (:class:`RowLoad`, skipped-row bookkeeping), ``mapping`` (rows → records in batches),
``ids`` (the ids loaded so far, for duplicates, in bounded memory), ``documents`` (with
``document_field``: records regrouped into their documents, each given the structure recovered
from its document).
"""

from __future__ import annotations

from pathlib import Path

from ..config import RECORD_EXTENSIONS, VectorstoreToolConfig
from ..errors import RecordError
from .csv_reader import _read_csv
from .documents import with_document_structure
from .encoding import detect_encoding
from .json_reader import _read_json, _read_jsonl
from .mapping import detect_id_field as detect_id_field, LINE_ID_FIELD, RecordLoad, _batches, _RecordMapper
from .rows import RowLoad
from .values import is_missing, resolve_field, value_to_text

__all__ = [
    "LINE_ID_FIELD",
    "SUPPORTED_RECORD_EXTENSIONS",
    "RecordLoad",
    "RowLoad",
    "detect_encoding",
    "is_missing",
    "load_records",
    "read_rows",
    "resolve_field",
    "value_to_text",
]

SUPPORTED_RECORD_EXTENSIONS = RECORD_EXTENSIONS


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
        raise RecordError(
            rel_path,
            f"unsupported record file type '.{fmt}'; supported: "
            + ", ".join(f".{e}" for e in sorted(SUPPORTED_RECORD_EXTENSIONS)),
        )
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
    :class:`Record`; memory stays bounded by the batch for CSV and JSONL (the ids seen, kept to
    detect duplicates, move to a temporary SQLite database past 100,000: :mod:`.ids`). Without ``id_field`` the id field is detected (:func:`detect_id_field`:
    an id-like name, else the row's place); without ``vector_field`` a record's text is every
    field, one ``name: value`` line each (HoloDeck's default). Raises :class:`RecordError`, before any batch, when ``id_field``,
    a vector field or a meta field is not in the source (the message lists the available
    fields); while iterating, for a duplicate id (naming the id and both lines) and, at the
    end, when no record has a non-empty vector field.
    """
    rows = read_rows(path, rel_path, cfg)
    mapper = _RecordMapper(cfg, rows, rel_path)
    load = RecordLoad(batches=iter(()), fields=rows.fields, skipped=rows.skipped, warnings=rows.warnings)
    load.batches = _batches(rows, mapper, load, cfg.batch_size)
    if cfg.document_field:
        load.batches = with_document_structure(load.batches, cfg.batch_size, load.warnings)
    return load


def records_as_markdown(path: Path, rel_path: str, cfg: VectorstoreToolConfig) -> tuple[str, list[str]]:
    """One record file as a Markdown document, for a vectorstore tool over a folder in HoloDeck's
    unstructured mode: a ``#`` heading with the file name, then per record a ``##`` heading with
    its id (detected as for :func:`load_records`) and its fields, one ``name: value`` line each.
    Returns (markdown, warnings). Raises :class:`RecordError` as :func:`load_records` does."""
    plain = cfg.model_copy(update={"vector_field": None, "vector_fields": None, "document_field": None})
    load = load_records(path, rel_path, plain)
    out = [f"# {Path(rel_path).name}", ""]
    most, n = cfg.limits.max_chunks_per_file, 0
    for batch in load.batches:
        n += len(batch)
        if n > most:  # each record is a section, a chunk at least: refused before the file is held whole
            load.close()
            raise RecordError(
                rel_path,
                f"more than {most:,} records, each a section of one document: over "
                f"limits.max_chunks_per_file = {most:,} (name vector_field to index the "
                "records one by one, in bounded batches, or raise the limit)",
            )
        for r in batch:
            label = r.id if not r.id.startswith(f"{rel_path}:") else f"Record {r.line}"
            out += [f"## {label}", "", "  \n".join(r.content.splitlines()), ""]
    return "\n".join(out), [*load.warnings, *(f"{s.path}: {s.reason}" for s in load.skipped)]


def records_as_document(sf, cfg: VectorstoreToolConfig):
    """A record file (``sf``, a :class:`~docstrata.models.SourceFile`) as a
    :class:`~docstrata.models.Document` of :func:`records_as_markdown`, titled by its file name,
    for the document pipeline (:mod:`docstrata.pipeline`). Raises
    :class:`~docstrata.errors.ConversionError` naming the file where :func:`load_records` would
    raise :class:`RecordError`."""
    from ..errors import ConversionError
    from ..models import Document

    ext = Path(sf.doc_key).suffix.lower().lstrip(".")
    try:
        markdown, warnings = records_as_markdown(Path(sf.path), sf.doc_key, cfg)
    except RecordError as e:
        raise ConversionError(sf.doc_key, str(e).removeprefix(f"{sf.doc_key}: ")) from None
    return Document(doc_key=sf.doc_key, title=Path(sf.doc_key).name, markdown=markdown, format=ext, warnings=warnings)
