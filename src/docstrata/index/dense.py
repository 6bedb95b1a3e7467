"""Exact cosine search over one contiguous float32 matrix.

Rows are L2-normalised window vectors; several rows may belong to one chunk (a long chunk
embedded as windows, DESIGN §6), and a chunk scores as its best window. Search is one
matrix-vector product plus ``argpartition``: no Python loop over the corpus. Removals
mark rows dead; the matrix is compacted when more than a quarter of it is dead.

Speed (issue 18, docs/benchmarks.md "Speed against peers"):

* The scan runs on one thread. On a loaded 2-core machine a multi-threaded BLAS call waits for
  a second core to be scheduled: a 5,000-row product took 10 ms with two OpenBLAS threads and
  0.1 ms with one; at 100,000 rows one thread is as fast as two.
* From :data:`F16_MIN_ROWS` rows on, and when ``faiss`` is installed (the ``fast`` extra), the
  scan reads a float16 copy of the matrix (faiss ``IndexScalarQuantizer`` QT_fp16, SIMD, one
  thread: 4 ms at 100,000 × 384 against 12.5 ms for float32 numpy here) for the top
  :func:`_prefilter_depth` rows, which are then **rescored exactly in float32**. float16 keeps
  11 significant bits, so a score moves by at most ~1e-3 and the exact top ``k`` is among the
  candidates unless many rows tie within that margin; the benchmark measures recall@10 against
  the float32 scan (1.0 at 100k and 1M random vectors).
"""

from __future__ import annotations

import numpy as np

# Rows from which the float16 prefilter (faiss) is used; below it one float32 scan costs < 1 ms.
F16_MIN_ROWS = 20_000


def _prefilter_depth(k: int) -> int:
    """float16 candidates rescored in float32 for a top-``k`` request."""
    return max(8 * k + 64, 256)


_FAISS = None


def _faiss():
    """faiss with one OpenMP thread, or ``None`` when it is not installed."""
    global _FAISS
    if _FAISS is None:
        try:
            import faiss

            faiss.omp_set_num_threads(1)
            _FAISS = faiss
        except ImportError:
            _FAISS = False
    return _FAISS or None


_BLAS = None


def _one_blas_thread():
    """A context manager that holds BLAS to one thread (threadpoolctl), or a no-op without it."""
    global _BLAS
    if _BLAS is None:
        try:
            from threadpoolctl import ThreadpoolController

            _BLAS = ThreadpoolController()
        except ImportError:
            _BLAS = False
    if _BLAS:
        return _BLAS.limit(limits=1, user_api="blas")
    import contextlib

    return contextlib.nullcontext()


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
        self._f16 = None  # faiss float16 copy of _matrix, built on first large search

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
        self._f16 = None

    def load_slots(self, chunk_ids: list[str], owner: np.ndarray, matrix: np.ndarray) -> None:
        """Bulk-load an empty index without a Python loop over rows: row ``i`` of ``matrix``
        (n_rows, dim; may be a read-only memory map) belongs to ``chunk_ids[owner[i]]``."""
        self._ids = list(chunk_ids)
        self._slot_of = {cid: i for i, cid in enumerate(self._ids)}
        # A plain ndarray view of a memory map: np.memmap's __getitem__ wrapper cost 9 ms a query.
        self._matrix = np.asarray(matrix) if matrix.dtype == np.float32 and matrix.flags.c_contiguous else \
            np.ascontiguousarray(matrix, dtype=np.float32)
        self._owner = np.asarray(owner, dtype=np.int64)
        self._alive = np.ones(len(self._owner), dtype=bool)
        self._f16 = None

    def arrays(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """(chunk_ids, owner, matrix) of the live rows, as :meth:`load_slots` takes them."""
        self._flush()
        keep = self._alive
        slots, owner = np.unique(self._owner[keep], return_inverse=True)
        return [self._ids[s] for s in slots], owner.astype(np.int32), np.ascontiguousarray(self._matrix[keep])

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
        self._f16 = None
        if live:
            self._matrix = np.concatenate([self._matrix] + [v for _, v in live])
            self._owner = np.concatenate([self._owner] + [np.full(len(v), s, dtype=np.int64) for s, v in live])
            self._alive = np.concatenate([self._alive, np.ones(sum(len(v) for _, v in live), dtype=bool)])
        dead = (~self._alive).sum()
        if dead and dead * 4 > len(self._alive):
            self._f16 = None
            self._matrix = np.ascontiguousarray(self._matrix[self._alive])
            self._owner = self._owner[self._alive]
            self._alive = np.ones(len(self._owner), dtype=bool)

    def search(self, query: np.ndarray, k: int, allowed=None) -> list[tuple[str, float]]:
        """Top ``k`` (chunk_id, cosine) for a normalised (dim,) query, best first.

        ``allowed``: a collection of chunk ids; only those are ranked (a row mask applied before
        the top-k, then always one exact float32 scan, so a filtered search is exact). ``None`` =
        every chunk."""
        self._flush()
        n = len(self._owner)
        if n == 0 or k <= 0:
            return []
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(self.dim)
        # Oversample rows so that several windows of one chunk cannot crowd out k distinct chunks.
        m = min(n, k * 4 + 16)
        alive = self._alive
        if allowed is not None:
            alive = alive & np.isin(self._owner, [self._slot_of[c] for c in allowed if c in self._slot_of])
        if allowed is None and n >= F16_MIN_ROWS and _faiss() is not None:
            rows = self._f16_candidates(q, min(n, _prefilter_depth(m) + int(n - alive.sum())))
            rows = rows[alive[rows]]
            with _one_blas_thread():  # a 2-thread product of even 300 rows waits for a core under load
                exact = self._matrix[rows] @ q  # exact float32 rescoring of the candidates
            order = np.argsort(-exact, kind="stable")[:m]
            top, top_scores = rows[order], exact[order]
        else:
            with _one_blas_thread():
                scores = self._matrix @ q
            scores = np.where(alive, scores, -np.inf)
            top = np.argpartition(-scores, m - 1)[:m] if m < n else np.arange(n)
            top = top[np.argsort(-scores[top], kind="stable")]
            top_scores = scores[top]
        out: list[tuple[str, float]] = []
        seen: set[int] = set()
        for row, score in zip(top.tolist(), top_scores.tolist()):
            if not np.isfinite(score):
                break
            slot = int(self._owner[row])
            if slot in seen:
                continue
            seen.add(slot)
            out.append((self._ids[slot], score))
        # Ties break by chunk id (the Store convention), so every backend returns the same order;
        # scores equal to 1e-6 tie (a BLAS product can differ in the last bit with the row's place).
        out.sort(key=lambda hit: (-round(hit[1], 6), hit[0]))
        return out[:k]

    def _f16_candidates(self, q: np.ndarray, depth: int) -> np.ndarray:
        """Row numbers of the ``depth`` best float16 scores (faiss, one thread)."""
        faiss = _faiss()
        if self._f16 is None:
            ix = faiss.IndexScalarQuantizer(self.dim, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)
            for start in range(0, len(self._matrix), 65_536):  # bounded scratch memory for a memory map
                ix.add(np.ascontiguousarray(self._matrix[start:start + 65_536]))
            self._f16 = ix
        _, rows = self._f16.search(q.reshape(1, -1), depth)
        rows = rows[0]
        return rows[rows >= 0]
