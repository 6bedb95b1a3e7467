"""``database: faiss`` — the embedded store with a FAISS index for the dense leg.

SQLite stays the system of record (chunks, vectors, exact keys, definitions, the embedding cache)
and tantivy the BM25 leg, exactly as in :mod:`docstrata.store.embedded`; only dense search goes
through :class:`~docstrata.index.ann.FaissDenseIndex` (exact below 50,000 vectors, HNSW above,
or the ``index`` the config names).

The FAISS index is built from the vectors when the store is first searched and, for the kinds
whose build costs more than reading them (``hnsw``, ``ivf``), saved beside the store's vector file
as ``vectors-<generation>.<kind>.faiss``; the next process reads it instead of building. It is
derived data tied to one generation: every flush that wrote anything starts a new generation, whose
file is written from the index in memory when that covers exactly the flushed rows (else the next
search rebuilds and saves it), and the old generation's files are deleted with its vector file. A
file whose row count, dimension or kind disagrees with the rows loaded is ignored, so it can never
answer for vectors it does not hold. A flat index is not saved: building it is one copy of the
memory-mapped matrix, the same work as reading a file.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from ..index.ann import FaissDenseIndex, _faiss
from .embedded import EmbeddedStore

PERSISTED_KINDS = ("hnsw", "ivf")


class FaissStore(EmbeddedStore):
    """:class:`EmbeddedStore` whose dense leg is FAISS. ``root=None`` keeps everything in memory.
    Raises :class:`~docstrata.errors.ConfigError` if faiss-cpu is missing (checked when built)."""

    def __init__(self, root: str | Path | None, dim: int, index: str = "auto"):
        _faiss()
        self.index_kind = index
        super().__init__(root, dim)

    def _new_dense_index(self) -> FaissDenseIndex:
        return FaissDenseIndex(self.dim, self.index_kind)

    def faiss_path(self, kind: str) -> Path | None:
        """Where this generation's FAISS index of ``kind`` is saved (None in memory)."""
        return None if self.root is None else self.root / f"vectors-{self._generation}.{kind}.faiss"

    def _load_dense(self) -> FaissDenseIndex:
        di = cast(FaissDenseIndex, super()._load_dense())  # made by _new_dense_index above
        if self.root is not None:
            kind = di._wanted_kind(len(di._matrix))
            path = self.faiss_path(kind)
            if kind in PERSISTED_KINDS and path is not None and path.exists():
                di.read_index(path, kind)
            di.on_built = lambda: self._save_faiss(di)
        return di

    def _save_faiss(self, di: FaissDenseIndex) -> None:
        """Persist ``di``'s FAISS index for this generation when it matches the flushed rows exactly."""
        if self.root is None or self._wrote or di.built_kind not in PERSISTED_KINDS or not di.persistable():
            return
        try:
            di.write_index(self.faiss_path(di.built_kind))
        except (RuntimeError, OSError):
            pass  # a read-only folder only costs the next process the build

    def flush(self) -> None:
        """Flush as the embedded store does; when that wrote a new generation, bring the built FAISS
        index up to date and save it beside the vectors (a rebuild saves itself)."""
        with self._lock:
            before = self._generation
            super().flush()
            di = self._dense
            if self._generation != before and isinstance(di, FaissDenseIndex) and di.built_kind:
                built = di._index
                di._sync()  # the flushed rows into the FAISS index (a rebuild saves itself)
                if di._index is built:
                    self._save_faiss(di)
