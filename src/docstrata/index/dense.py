"""Exact cosine search over one contiguous float32 matrix.

Rows are L2-normalised window vectors; several rows may belong to one chunk (a long chunk
embedded as windows, DESIGN §6), and a chunk scores as its best window. Search is one
matrix-vector product plus ``argpartition``: no Python loop over the corpus. Removals
mark rows dead; the matrix is compacted when more than a quarter of it is dead.
"""

from __future__ import annotations

import numpy as np


class DenseIndex:
    """In-memory exact cosine index. ``dim`` is the vector size."""

    def __init__(self, dim: int):
        self.dim = dim
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._owner = np.zeros(0, dtype=np.int64)  # row → chunk slot
        self._alive = np.zeros(0, dtype=bool)
        self._pending: list[tuple[int, np.ndarray]] = []
        self._slot_of: dict[str, int] = {}
        self._ids: list[str | None] = []

    def __len__(self) -> int:
        return len(self._slot_of)

    def load(self, row_ids: list[str], matrix: np.ndarray) -> None:
        """Bulk-load an empty index: ``row_ids[i]`` owns row ``i`` of ``matrix`` (n_rows, dim);
        a chunk's rows must be consecutive."""
        slots = np.empty(len(row_ids), dtype=np.int64)
        prev = None
        for i, cid in enumerate(row_ids):
            if cid != prev:
                self._slot_of[cid] = len(self._ids)
                self._ids.append(cid)
                prev = cid
            slots[i] = self._slot_of[cid]
        self._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._owner = slots
        self._alive = np.ones(len(row_ids), dtype=bool)

    def add(self, chunk_id: str, vectors: np.ndarray) -> None:
        """Add (or replace) a chunk's vectors: shape (n_windows, dim), n_windows ≥ 1."""
        vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        if vectors.shape[0] == 0 or not np.isfinite(vectors).all() or not np.any(vectors):
            raise ValueError(f"refusing to index an empty, zero or non-finite vector for chunk {chunk_id}")
        self.remove(chunk_id)
        slot = len(self._ids)
        self._ids.append(chunk_id)
        self._slot_of[chunk_id] = slot
        self._pending.append((slot, vectors))

    def remove(self, chunk_id: str) -> None:
        slot = self._slot_of.pop(chunk_id, None)
        if slot is None:
            return
        self._ids[slot] = None
        self._flush()
        self._alive[self._owner == slot] = False

    def _flush(self) -> None:
        if not self._pending:
            return
        live = [(s, v) for s, v in self._pending if self._ids[s] is not None]
        self._pending = []
        if live:
            self._matrix = np.concatenate([self._matrix] + [v for _, v in live])
            self._owner = np.concatenate([self._owner] + [np.full(len(v), s, dtype=np.int64) for s, v in live])
            self._alive = np.concatenate([self._alive, np.ones(sum(len(v) for _, v in live), dtype=bool)])
        dead = (~self._alive).sum()
        if dead and dead * 4 > len(self._alive):
            self._matrix = np.ascontiguousarray(self._matrix[self._alive])
            self._owner = self._owner[self._alive]
            self._alive = np.ones(len(self._owner), dtype=bool)

    def search(self, query: np.ndarray, k: int, allowed=None) -> list[tuple[str, float]]:
        """Top ``k`` (chunk_id, cosine) for a normalised (dim,) query, best first.

        ``allowed``: a collection of chunk ids; only those are ranked (a row mask applied before
        the top-k, so a filtered search is exact). ``None`` = every chunk."""
        self._flush()
        n = len(self._owner)
        if n == 0 or k <= 0:
            return []
        q = np.asarray(query, dtype=np.float32)
        if allowed is None:
            rows = None
            scores = np.where(self._alive, self._matrix @ q, -np.inf)
        else:  # only the allowed chunks' rows are scored: a small subset costs little
            slots = np.fromiter((self._slot_of[c] for c in allowed if c in self._slot_of), dtype=np.int64)
            if slots.size == 0:
                return []
            rows = np.flatnonzero(self._alive & np.isin(self._owner, slots))
            scores = self._matrix[rows] @ q
        n = len(scores)
        # Oversample rows so that several windows of one chunk cannot crowd out k distinct chunks.
        m = min(n, k * 4 + 16)
        top = np.argpartition(-scores, m - 1)[:m] if m < n else np.arange(n)
        top = top[np.argsort(-scores[top], kind="stable")]
        out: list[tuple[str, float]] = []
        seen: set[int] = set()
        for i in top:
            if not np.isfinite(scores[i]):
                break
            slot = int(self._owner[i if rows is None else rows[i]])
            if slot in seen:
                continue
            seen.add(slot)
            out.append((self._ids[slot], float(scores[i])))
        # Ties break by chunk id (the Store convention), so every backend returns the same order.
        out.sort(key=lambda hit: (-hit[1], hit[0]))
        return out[:k]
