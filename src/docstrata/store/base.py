"""The Store protocol every backend implements, and the unit it stores.

A store holds, per tool: file states, chunks (documents' chunks or records), their window
vectors, a keyword (BM25) index, an exact-key index, definitions, an embedding cache and a
small key/value meta table. Keyword analysis is :func:`docstrata.index.keyword.analyze` on
every backend, so the same query means the same tokens everywhere.

Conventions shared by all backends (checked by ``tests/store_conformance.py``):

* ``replace_document`` is atomic: after a crash a document has either its old or its new chunks.
* Search results are ``(chunk_id, score)`` best first; ties break by chunk_id ascending.
* ``exact_lookup`` returns, per key, chunk ids ordered by (priority, chunk ordinal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from ..errors import StoreError
from ..models import Chunk, DefinitionEntry, FileState


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

    def replace_document(self, doc_key: str, state: FileState, chunks: list[StoredChunk],
                         definitions: list[DefinitionEntry]) -> None:
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

    def dense_search(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Top ``k`` by cosine similarity of the best window."""

    def keyword_search(self, query: str, k: int) -> list[tuple[str, float]]:
        """Top ``k`` by BM25 over analysed ``contextualized_content``."""

    def phrase_search(self, phrase: str, k: int) -> list[str]:
        """Chunks containing ``phrase`` (analysed tokens adjacent, in order)."""

    def exact_lookup(self, keys: list[str], limit: int = 100) -> dict[str, list[str]]:
        """key → chunk ids, for the keys that exist."""

    def definitions(self, term_key: str | None = None, doc_key: str | None = None) -> list[DefinitionEntry]:
        """Definitions, filtered by exact-index term key and/or document."""

    # --- caches and meta ---
    def cached_vectors(self, model_id: str, hashes: list[str]) -> dict[str, np.ndarray]:
        """Embedding cache: sha256 of the embedded text → (n_windows, dim) vectors."""

    def cache_vectors(self, model_id: str, items: dict[str, np.ndarray]) -> None:
        """Add entries to the embedding cache."""

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def flush(self) -> None:
        """Make every write durable and visible to searches."""

    def close(self) -> None: ...


def record_or_check_dimension(store: "Store", backend: str, where: str, schema_version: str) -> None:
    """On first use record the store's vector size (and schema version) in its meta table; later,
    raise :class:`StoreError` if the embedding model's size differs from what the index holds."""
    stored = store.get_meta("dim")
    if stored is None:
        store.set_meta("dim", str(store.dim))
        store.set_meta("schema_version", schema_version)
    elif int(stored) != store.dim:
        raise StoreError(backend, f"{where} holds {stored}-dimensional vectors but the model makes {store.dim}; "
                                  "re-ingest with --force to rebuild it")


def checked_vectors(sc: StoredChunk, dim: int, backend: str) -> np.ndarray:
    """A chunk's window vectors as a contiguous (n_windows, dim) float32 array.

    Raises :class:`StoreError` for no window, a zero vector or a non-finite value: a
    placeholder vector is never stored.
    """
    vecs = np.ascontiguousarray(sc.vectors, dtype=np.float32).reshape(-1, dim)
    if vecs.shape[0] == 0 or not np.isfinite(vecs).all() or not np.abs(vecs).sum(axis=1).all():
        raise StoreError(backend, f"refusing to store an empty, zero or non-finite vector for {sc.chunk.chunk_id}")
    return vecs
