"""The Store protocol every backend implements, and the unit it stores.

A store holds, per tool: file states, chunks (documents' chunks or records), their window
vectors, a keyword (BM25) index, an exact-key index, definitions, an embedding cache and a
small key/value meta table. Keyword analysis is :func:`docstrata.index.keyword.analyze` on
every backend (in each chunk's language, :func:`~docstrata.index.keyword.chunk_language`; a query
in every language the store records, :func:`keyword_languages`), so the same query means the same
tokens everywhere.

Conventions shared by all backends (checked by ``tests/store_conformance.py``):

* ``replace_document`` is atomic: after a crash a document has either its old or its new chunks.
* Search results are ``(chunk_id, score)`` best first; ties break by chunk_id ascending.
* ``exact_lookup`` returns, per key, chunk ids ordered by (priority, chunk ordinal).
* Every search takes an optional :class:`ChunkFilter`, applied inside the store *before* ranking
  (SQL ``WHERE``, a Qdrant payload filter, a row mask), never by cutting a top-k afterwards: a
  filtered search returns the same order as the unfiltered one restricted to the matching chunks
  (BM25 statistics stay the collection's).
* Document entries (:class:`~docstrata.models.DocumentEntry`) live in the meta table under
  ``doc:<doc_key>`` (:func:`write_document_entry`), so every backend keeps them with no method of its own.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import StoreError
from ..models import Chunk, DefinitionEntry, DocumentEntry, FileState

_RANGE_OPS = ("gt", "gte", "lt", "lte")


@dataclass(frozen=True)
class MetaCondition:
    """One condition on a record's metadata field ``name``.

    ``values``: the field's string value must be one of them (equality / ``in``); ``numbers``:
    its numeric value (``Chunk.metadata["numbers"]``) must be one of them; ``gt`` / ``gte`` /
    ``lt`` / ``lte``: a numeric range (a value that is not a number never matches).
    """

    name: str
    values: tuple[str, ...] = ()
    numbers: tuple[float, ...] = ()
    gt: float | None = None
    gte: float | None = None
    lt: float | None = None
    lte: float | None = None

    def matches(self, chunk: Chunk) -> bool:
        """Reference semantics every backend implements in its own query language."""
        fields = chunk.metadata.get("fields", {})
        num = chunk.metadata.get("numbers", {}).get(self.name)
        if self.values and fields.get(self.name) not in self.values:
            return False
        if self.numbers and (num is None or float(num) not in self.numbers):
            return False
        for op in _RANGE_OPS:
            bound = getattr(self, op)
            if bound is None:
                continue
            if num is None:
                return False
            ok = {"gt": num > bound, "gte": num >= bound, "lt": num < bound, "lte": num <= bound}[op]
            if not ok:
                return False
        return True


@dataclass(frozen=True)
class ChunkFilter:
    """Which chunks a search may return; every part given must hold (AND).

    ``doc_keys``: the chunk's document is one of them. ``section``: the chunk lies in that section
    or below it (its ``metadata["section_path"]`` holds the id; see :func:`section_path`).
    ``metadata``: conditions on a record's fields. ``chunk_ids``: the chunk is one of them.
    """

    doc_keys: tuple[str, ...] | None = None
    section: str | None = None
    metadata: tuple[MetaCondition, ...] = ()
    chunk_ids: tuple[str, ...] | None = None

    def matches(self, chunk: Chunk) -> bool:
        """Reference semantics (tests and stores without a query language use it)."""
        if self.doc_keys is not None and chunk.doc_key not in self.doc_keys:
            return False
        if self.chunk_ids is not None and chunk.chunk_id not in self.chunk_ids:
            return False
        if self.section is not None and self.section not in chunk_section_path(chunk):
            return False
        return all(c.matches(chunk) for c in self.metadata)

    @property
    def empty(self) -> bool:
        """Whether the filter allows every chunk (no document, section, metadata or id condition)."""
        return self.doc_keys is None and self.section is None and not self.metadata and self.chunk_ids is None


_NUMERIC_PREFIX = re.compile(r"[.(]")


def section_path(section_id: str, ancestors: Sequence[str] = (), sections: Sequence[str] = ()) -> list[str]:
    """The section ids a chunk lies in, for the ``section`` filter: its own id, the other sections
    it holds text of, their ancestors, and the numeric prefixes of each id (``4.2.1`` → ``4``,
    ``4.2``; ``203(a)(1)`` → ``203``, ``203(a)``; ``article-17.2`` → ``article-17``), lower-cased."""
    out: list[str] = []
    for sid in [section_id, *sections, *ancestors]:
        if not sid:
            continue
        sid = sid.lower()
        out.append(sid)
        for m in _NUMERIC_PREFIX.finditer(sid):
            if m.start() > 0:
                out.append(sid[: m.start()].rstrip("."))
    return list(dict.fromkeys(out))


def chunk_section_path(chunk: Chunk) -> list[str]:
    """``chunk.metadata["section_path"]``, or computed from its section id and ancestors (chunks
    stored before the field existed)."""
    path = chunk.metadata.get("section_path")
    if path is not None:
        return path
    return section_path(chunk.section_id, chunk.metadata.get("ancestors", []), chunk.metadata.get("sections", []))


def parse_number(value: Any) -> float | None:
    """A field value as a finite number (``"18"``, ``"1,200.50"``, ``"-3e2"``), else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    text = str(value).strip().replace(",", "").replace("_", "")
    if not text or len(text) > 40:
        return None
    try:
        num = float(text)
    except ValueError:
        return None
    return num if math.isfinite(num) else None


def prepare_chunk(chunk: Chunk) -> Chunk:
    """Fill the derived metadata filters read, before a store writes ``chunk`` (in place):
    ``section_path`` (:func:`section_path`) and, for a record, ``numbers`` — each field value
    that reads as a number (:func:`parse_number`). Returns the chunk."""
    meta = chunk.metadata
    if "section_path" not in meta:
        meta["section_path"] = chunk_section_path(chunk)
    if "fields" in meta and "numbers" not in meta:
        meta["numbers"] = {k: n for k, v in meta["fields"].items() if (n := parse_number(v)) is not None}
    return chunk


KEYWORD_LANGUAGES_META = "keyword_languages"  # analysis languages of the keyword index besides English


def keyword_languages(store: "Store") -> tuple[str, ...]:
    """The languages a query is analysed in for ``store``'s keyword search: ``"en"`` and every
    other language its chunks were analysed in (:func:`note_keyword_languages`)."""
    return ("en", *filter(None, (store.get_meta(KEYWORD_LANGUAGES_META) or "").split(",")))


def note_keyword_languages(store: "Store", chunks) -> None:
    """Record in ``store``'s meta table the analysis languages (:func:`~docstrata.index.keyword.chunk_language`)
    of ``chunks`` (Chunks or StoredChunks) that it does not hold yet; English is never recorded."""
    from ..index.keyword import chunk_language

    langs = {chunk_language(getattr(c, "chunk", c)) for c in chunks} - {"en"}
    if not langs:
        return
    held = set(keyword_languages(store))
    if langs - held:
        store.set_meta(KEYWORD_LANGUAGES_META, ",".join(sorted((held | langs) - {"en"})))


def document_entry_key(doc_key: str) -> str:
    """The meta-table key under which a document's :class:`DocumentEntry` is stored."""
    return f"doc:{doc_key}"


def write_document_entry(store: "Store", entry: DocumentEntry) -> None:
    """Store (or replace) a document's entry in the store's meta table."""
    store.set_meta(document_entry_key(entry.doc_key), json.dumps(entry.to_dict(), ensure_ascii=False))


def clear_document_entry(store: "Store", doc_key: str) -> None:
    """Forget a document's entry (an empty meta value reads as none)."""
    store.set_meta(document_entry_key(doc_key), "")


def read_document_entry(store: "Store", doc_key: str) -> DocumentEntry | None:
    """The stored entry of ``doc_key``, or ``None`` (never stored, cleared, or unreadable)."""
    raw = store.get_meta(document_entry_key(doc_key))
    if not raw:
        return None
    try:
        return DocumentEntry.from_dict(json.loads(raw))
    except (ValueError, TypeError):
        return None


@dataclass
class StoredChunk:
    """A chunk ready to store: the chunk, its window vectors (n_windows, dim) float32
    L2-normalised, and its exact-index keys as (key, priority) — priority 0 is strongest."""

    chunk: Chunk
    vectors: np.ndarray
    exact_keys: list[tuple[str, int]] = field(default_factory=list)


@runtime_checkable
class Store(Protocol):
    """Persistence and the three indices of one tool."""

    dim: int

    # --- documents and file states ---
    def file_states(self) -> dict[str, FileState]:
        """doc_key → state of every stored file."""

    def replace_document(
        self, doc_key: str, state: FileState, chunks: list[StoredChunk], definitions: list[DefinitionEntry]
    ) -> None:
        """Atomically replace everything stored for ``doc_key``."""

    def delete_document(self, doc_key: str) -> None:
        """Remove a file and all its chunks from every index."""

    def upsert_chunks(self, doc_key: str, chunks: list[StoredChunk]) -> None:
        """Insert or replace chunks by chunk_id (records); one transaction per call."""

    def delete_chunks(self, chunk_ids: list[str]) -> None:
        """Remove chunks by id from every index."""

    def set_file_state(self, doc_key: str, state: FileState) -> None:
        """Record a file's state (after its records were upserted)."""

    def chunk_hashes(self, doc_key: str) -> dict[str, str]:
        """chunk_id → sha256 of the stored ``contextualized_content``, for one file."""

    # --- reads ---
    def get_chunks(self, chunk_ids: list[str]) -> list[Chunk]:
        """Chunks by id, in the order asked; unknown ids are left out."""

    def document_chunks(self, doc_key: str) -> list[Chunk]:
        """Every chunk of a document in ordinal order."""

    def documents(self) -> list[str]:
        """Every stored doc_key, sorted."""

    def count(self) -> int:
        """Number of stored chunks."""

    def dense_search(self, vector: np.ndarray, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        """Top ``k`` by cosine similarity of the best window, among the chunks ``flt`` allows."""

    def keyword_search(self, query: str, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        """Top ``k`` by BM25 over analysed ``contextualized_content``, among the chunks ``flt`` allows."""

    def phrase_search(self, phrase: str, k: int, flt: ChunkFilter | None = None) -> list[str]:
        """Chunks containing ``phrase`` (analysed tokens adjacent, in order) that ``flt`` allows."""

    def exact_lookup(self, keys: list[str], limit: int = 100, flt: ChunkFilter | None = None) -> dict[str, list[str]]:
        """key → chunk ids (those ``flt`` allows), for the keys that exist."""

    def definitions(self, term_key: str | None = None, doc_key: str | None = None) -> list[DefinitionEntry]:
        """Definitions, filtered by exact-index term key and/or document, in the order written;
        each with its ``scope`` and ``scope_label`` (``None`` from an index written before
        definitions had scopes: the whole document)."""

    # --- caches and meta ---
    def cached_vectors(self, model_id: str, hashes: list[str]) -> dict[str, np.ndarray]:
        """Embedding cache: sha256 of the embedded text → (n_windows, dim) vectors."""

    def cache_vectors(self, model_id: str, items: dict[str, np.ndarray]) -> None:
        """Add entries to the embedding cache."""

    def get_meta(self, key: str) -> str | None:
        """The value stored under ``key`` in the store's meta table, or None."""

    def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` in the meta table (dimension, schema version, document entries)."""

    def flush(self) -> None:
        """Make every write durable and visible to searches."""

    def close(self) -> None:
        """Release the connection or files; the store is not used afterwards."""


def record_or_check_dimension(store: "Store", backend: str, where: str, schema_version: str) -> None:
    """On first use record the store's vector size (and schema version) in its meta table; later,
    raise :class:`StoreError` if the embedding model's size differs from what the index holds."""
    stored = store.get_meta("dim")
    if stored is None:
        store.set_meta("dim", str(store.dim))
        store.set_meta("schema_version", schema_version)
    elif int(stored) != store.dim:
        raise StoreError(
            backend,
            f"{where} holds {stored}-dimensional vectors but the model makes {store.dim}; "
            "re-ingest with --force to rebuild it",
        )


def checked_vectors(sc: StoredChunk, dim: int, backend: str) -> np.ndarray:
    """A chunk's window vectors as a contiguous (n_windows, dim) float32 array.

    Raises :class:`StoreError` for no window, a zero vector or a non-finite value: a
    placeholder vector is never stored.
    """
    vecs = np.ascontiguousarray(sc.vectors, dtype=np.float32).reshape(-1, dim)
    if vecs.shape[0] == 0 or not np.isfinite(vecs).all() or not np.abs(vecs).sum(axis=1).all():
        raise StoreError(backend, f"refusing to store an empty, zero or non-finite vector for {sc.chunk.chunk_id}")
    return vecs


def checked_vector_batch(chunks: list[StoredChunk], dim: int, backend: str) -> list[np.ndarray]:
    """:func:`checked_vectors` of each of ``chunks``, in order: contiguous (n_windows, dim) float32
    views of one matrix, checked in one pass (three numpy reductions a chunk were a second of a
    100k-chunk build). Raises :class:`StoreError` naming the first chunk that fails the check."""
    blocks = [np.asarray(sc.vectors, dtype=np.float32).reshape(-1, dim) for sc in chunks]
    if not blocks:
        return []
    mat = np.concatenate(blocks) if len(blocks) > 1 else np.ascontiguousarray(blocks[0])
    if any(len(b) == 0 for b in blocks) or not np.isfinite(mat).all() or not np.abs(mat).sum(axis=1).all():
        for sc in chunks:
            checked_vectors(sc, dim, backend)  # raises, naming the chunk
    bounds = np.cumsum([0] + [len(b) for b in blocks]).tolist()
    return [mat[a:b] for a, b in itertools.pairwise(bounds)]
