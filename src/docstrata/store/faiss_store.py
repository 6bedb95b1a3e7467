"""``database: faiss`` — the embedded store with a FAISS index for the dense leg.

SQLite stays the system of record (chunks, vectors, exact keys, definitions, the embedding cache)
and tantivy the BM25 leg, exactly as in :mod:`docstrata.store.embedded`; only dense search goes
through :class:`~docstrata.index.ann.FaissDenseIndex` (exact below 50,000 vectors, HNSW above,
or the ``index`` the config names). The FAISS index is built from SQLite's vectors when the store
is first searched, so it can never disagree with the record.
"""

from __future__ import annotations

from pathlib import Path

from ..index.ann import FaissDenseIndex, _faiss
from .embedded import EmbeddedStore


class FaissStore(EmbeddedStore):
    """:class:`EmbeddedStore` whose dense leg is FAISS. ``root=None`` keeps everything in memory.
    Raises :class:`~docstrata.errors.ConfigError` if faiss-cpu is missing (checked when built)."""

    def __init__(self, root: str | Path | None, dim: int, index: str = "auto"):
        _faiss()
        self.index_kind = index
        super().__init__(root, dim)

    def _new_dense_index(self) -> FaissDenseIndex:
        return FaissDenseIndex(self.dim, self.index_kind)
