"""FAISS search over the dense index's matrix (``database: faiss``).

:class:`FaissDenseIndex` keeps :class:`~docstrata.index.dense.DenseIndex`'s bookkeeping (rows,
their owning chunk, dead rows, compaction) and answers :meth:`search` from a FAISS index over the
same rows, kept in step incrementally (new rows are added; a compaction rebuilds it).

Index types (``database.index``): ``flat`` — ``IndexFlatIP``, exact inner product (= cosine on
normalised rows); ``hnsw`` — ``IndexHNSWFlat`` (M = 32, efConstruction = 200, efSearch = 128;
Malkov & Yashunin, 2018); ``ivf`` — ``IndexIVFFlat`` with ``nlist = 4·√n`` lists trained on the rows
present when it is built, ``nprobe = 16``; ``auto`` — flat below :data:`ANN_THRESHOLD` rows, HNSW
above. Below that size exact search costs under a few milliseconds, so an approximate one buys
nothing; recall of HNSW against flat is measured by ``bench/store_bench.py --ann-recall``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .dense import DenseIndex

ANN_THRESHOLD = 50_000
HNSW_M, HNSW_EF_CONSTRUCTION, HNSW_EF_SEARCH = 32, 200, 128
IVF_NPROBE = 16


def _faiss():
    try:
        import faiss
    except ImportError:
        from ..errors import ConfigError

        raise ConfigError(
            "database provider 'faiss' needs faiss-cpu: pip install faiss-cpu", path="database.provider"
        ) from None
    return faiss


class FaissDenseIndex(DenseIndex):
    """Dense index searched through FAISS. ``kind`` is ``auto``, ``flat``, ``hnsw`` or ``ivf``.
    Raises :class:`~docstrata.errors.ConfigError` when faiss-cpu is not installed."""

    def __init__(self, dim: int, kind: str = "auto"):
        super().__init__(dim)
        self.faiss = _faiss()
        self.kind = kind
        self._index: Any = None  # the faiss index, built on first search
        self._rows_in_index = 0
        self._index_kind = ""
        self.on_built: Callable[[], None] | None = (
            None  # called after a (re)build: the FAISS store persists the index then
        )

    def _wanted_kind(self, n: int) -> str:
        return self.kind if self.kind != "auto" else ("hnsw" if n >= ANN_THRESHOLD else "flat")

    def _build(self) -> None:
        faiss, n = self.faiss, len(self._matrix)
        kind = self._wanted_kind(n)
        if kind == "hnsw":
            index = faiss.IndexHNSWFlat(self.dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
            index.hnsw.efSearch = HNSW_EF_SEARCH
        elif kind == "ivf" and n >= 64:
            nlist = max(1, min(int(4 * np.sqrt(n)), n // 39))  # FAISS wants ≥ 39 training points per list
            quantizer = faiss.IndexFlatIP(self.dim)
            index = faiss.IndexIVFFlat(quantizer, self.dim, nlist, faiss.METRIC_INNER_PRODUCT)
            index.train(self._matrix)
            index.nprobe = min(IVF_NPROBE, nlist)
            self._quantizer = quantizer  # the IVF index does not own its quantizer: keep it alive
        else:
            index, kind = faiss.IndexFlatIP(self.dim), "flat" if kind != "ivf" else "ivf-flat"
        if n:
            index.add(self._matrix)
        self._index, self._rows_in_index, self._index_kind = index, n, kind
        if self.on_built is not None:
            self.on_built()

    @property
    def built_kind(self) -> str:
        """The kind of the FAISS index in use (``""`` before the first search builds one)."""
        return self._index_kind

    def persistable(self) -> bool:
        """True when the FAISS index covers exactly the live rows in order (no pending, no dead
        rows), so it matches the vector file :meth:`arrays` writes and can be saved beside it."""
        return (
            self._index is not None
            and not self._pending
            and self._rows_in_index == len(self._matrix)
            and bool(self._alive.all())
        )

    def write_index(self, path) -> None:
        """Save the FAISS index to ``path`` (a temporary file renamed over it: readers never see half)."""
        import os

        tmp = f"{path}.tmp{os.getpid()}"
        self.faiss.write_index(self._index, tmp)
        os.replace(tmp, path)

    def read_index(self, path, kind: str) -> bool:
        """Adopt the index saved at ``path`` if it fits the rows loaded (same count and dimension,
        the kind this size wants); False (nothing changed) if absent, unreadable or stale."""
        n = len(self._matrix)
        if self._pending or self._wanted_kind(n) != kind:
            return False
        try:
            index = self.faiss.read_index(str(path))
        except (RuntimeError, OSError):
            return False
        if index.ntotal != n or index.d != self.dim:
            return False
        if kind == "hnsw":
            self.faiss.downcast_index(index).hnsw.efSearch = HNSW_EF_SEARCH
        elif kind == "ivf":
            self.faiss.extract_index_ivf(index).nprobe = min(IVF_NPROBE, self.faiss.extract_index_ivf(index).nlist)
        self._index, self._rows_in_index, self._index_kind = index, n, kind
        return True

    def _sync(self) -> None:
        before = len(self._alive)
        pending_rows = sum(len(v) for s, v in self._pending if self._ids[s] is not None)
        self._flush()
        n = len(self._matrix)
        compacted = n != before + pending_rows
        grew_past = self._index_kind == "flat" and self._wanted_kind(n) != "flat"
        if self._index is None or compacted or grew_past or self._rows_in_index > n:
            self._build()
        elif self._rows_in_index < n:
            self._index.add(self._matrix[self._rows_in_index :])
            self._rows_in_index = n

    def scan_threads(self, allowed=None) -> int:
        """1: the ANN search (and a filtered exact one) runs on the calling thread alone."""
        return 1

    def search(self, query: np.ndarray, k: int, allowed=None) -> list[tuple[str, float]]:
        """Top ``k`` (chunk_id, cosine) for a normalised (dim,) query, best first (ties by chunk id).

        ``allowed`` (a collection of chunk ids, from a filter) is scored exactly over just those
        rows, as :class:`DenseIndex` does: a filter narrows before ranking, never after an ANN top-k."""
        if allowed is not None:
            return super().search(query, k, allowed=allowed)
        self._sync()
        n = len(self._owner)
        if n == 0 or k <= 0:
            return []
        dead = int((~self._alive).sum())
        m = min(n, k * 4 + 16 + dead)  # windows of one chunk and dead rows must not crowd out k chunks
        scores, rows = self._index.search(np.asarray(query, dtype=np.float32).reshape(1, -1), m)
        out: list[tuple[str, float]] = []
        seen: set[int] = set()
        for score, row in zip(scores[0], rows[0]):
            if row < 0 or not self._alive[row]:
                continue
            slot = int(self._owner[row])
            if slot in seen:
                continue
            seen.add(slot)
            out.append((self._ids[slot], float(score)))
        out.sort(key=lambda hit: (-hit[1], hit[0]))
        return out[:k]
