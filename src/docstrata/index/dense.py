"""Exact cosine search over one contiguous float32 matrix.

Rows are L2-normalised window vectors; several rows may belong to one chunk (a long chunk
embedded as windows, DESIGN §6), and a chunk scores as its best window. Search is one
matrix-vector product plus ``argpartition``: no Python loop over the corpus. Removals
mark rows dead; the matrix is compacted when more than a quarter of it is dead.

Speed (issue 18, docs/benchmarks.md "Speed against peers"):

* The scan runs on one thread. On a loaded 2-core machine a multi-threaded BLAS call waits for
  a second core to be scheduled: a 5,000-row product took 10 ms with two OpenBLAS threads and
  0.1 ms with one; at 100,000 rows one thread is as fast as two.
* From :data:`PREFILTER_MIN_ROWS` rows on, and when ``faiss`` is installed (the ``fast`` extra),
  the scan reads an int8 copy of the matrix (:class:`Int8Prefilter`: faiss
  ``IndexScalarQuantizer`` ``QT_8bit_direct_signed``, an integer dot product per row, SIMD, one
  byte per component). Its best candidates are **rescored exactly in float32** and the result is
  *certified* exact: every approximate score is within a bound ``eps`` computed from the query and
  from the largest quantisation residual measured over the rows, so when the ``m``-th rescored
  score beats the lowest candidate's approximate score by ``eps`` no row outside the candidates can
  enter the top ``m`` (else the depth grows; see :meth:`DenseIndex._certified_top`). Results are
  the exact float32 top-k, not an approximation. (Session 7 replaced a float16 copy with the same
  certificate: the int8 scan reads half the bytes and cost 1.9 against 4.5 ms of CPU at 100k × 384.)
* From :data:`PERSIST_MIN_ROWS` rows the int8 copy is written beside the memory-mapped vector
  file and mapped on open (faiss ``IO_FLAG_MMAP_IFC``), so a fresh process does not quantise 1M rows.
* A search restricted to a few chunks (the cosine of returned hits, a narrow filter) reads just
  their rows (found by bisection in the owner column) instead of scanning the matrix.
"""

from __future__ import annotations

import os

import numpy as np

# Rows from which the int8 prefilter (faiss) is used; below it one float32 scan costs < 1 ms.
PREFILTER_MIN_ROWS = 20_000
# Rows from which the int8 copy is also written to disk beside the vector file (and memory-mapped on
# open) rather than built at a process's first search: building it costs a few tenths of a second
# per 100k rows (seconds at 1M, against the ≤ 2 s open-and-answer target), storing it 1 byte × dim
# per row (+25 % of the raw vectors, against the ≤ 2× disk target). Below this the build is cheaper.
PERSIST_MIN_ROWS = 250_000
_SLICE = 16_384  # rows read at a time when a copy is built from a (memory-mapped) matrix
# An ``allowed`` set smaller than 1 / SUBSET_FRACTION of the chunks is scored row by row (gathered),
# a larger one by masking one scan of the whole matrix.
SUBSET_FRACTION = 8


# From this many rows the prefilter scan is split into row ranges searched on SCAN_THREADS threads
# (faiss releases the GIL). At 1M rows a one-thread scan took 37 ms of CPU and 260 ms wall at load
# average 10; two ranges 38 ms of CPU and 74–208 ms wall. At 100k (4 ms) the split gained nothing.
SPLIT_MIN_ROWS = 200_000
SCAN_THREADS = 2

_FAISS = None
_POOL = None


def _search(index, q: np.ndarray, depth: int, params=None):
    """``index.search`` on one OpenMP thread: ``omp_set_num_threads`` holds for the calling thread
    only, and a thread started by Python (the semantic leg's, the scan pool's) would otherwise run
    faiss with one OpenMP thread per core, which spin-wait (a 100k query took 15.8 ms of CPU instead
    of 6.7 when run on a worker thread)."""
    _faiss().omp_set_num_threads(1)
    return index.search(q, depth) if params is None else index.search(q, depth, params=params)


def _scan(index, q: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, rows) of the ``depth`` best rows of a faiss ``index`` for one query (1, dim), best
    first; in SCAN_THREADS row ranges at once from SPLIT_MIN_ROWS rows (same result: the ranges' top
    lists are merged)."""
    global _POOL
    n = index.ntotal
    parts = min(SCAN_THREADS, os.cpu_count() or 1)
    if n < SPLIT_MIN_ROWS or parts < 2:
        scores, rows = _search(index, q, depth)
        return scores[0], rows[0]
    faiss = _faiss()
    if _POOL is None or _POOL[0] != os.getpid():  # a forked child has none of its parent's threads
        from concurrent.futures import ThreadPoolExecutor

        _POOL = (os.getpid(), ThreadPoolExecutor(max_workers=SCAN_THREADS - 1, thread_name_prefix="docstrata-scan"))
    bounds = [n * i // parts for i in range(parts + 1)]
    params = [faiss.SearchParameters(sel=faiss.IDSelectorRange(a, b)) for a, b in zip(bounds, bounds[1:])]
    futures = [_POOL[1].submit(_search, index, q, depth, p) for p in params[1:]]
    results = [_search(index, q, depth, params[0])] + [f.result() for f in futures]
    scores = np.concatenate([r[0][0] for r in results])
    rows = np.concatenate([r[1][0] for r in results])
    order = np.argsort(-scores, kind="stable")[:depth]
    return scores[order], rows[order]


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
        self._slot_map: dict[str, int] | None = {}  # chunk id → slot; None until first needed (_slot_of)
        self._id_hashes = None  # (sorted hash of each id, slot order): a few ids' slots without the dict
        self._ids: list[str | None] = []
        self._pre: Int8Prefilter | None = None  # int8 copy of _matrix, built on first large search
        self._depth_ratio = 0.0  # scan depth / m the last certified search needed
        self._by_owner = None  # (row order sorted by owner, owner sorted): rows of a chunk by bisection
        self._alive_count = None  # (the _alive array it counts, live rows)

    def __len__(self) -> int:
        return self._n_chunks()

    @property
    def _slot_of(self) -> dict[str, int]:
        """Chunk id → slot. After :meth:`load_slots` it is built at first need (an add, a removal, a
        search restricted to many chunks), not on open: at 1M chunks the dict took 0.41 s of a 0.9 s
        open + first answer, whose only look-up is the few hits' ids (see :meth:`_slots`)."""
        if self._slot_map is None:
            self._slot_map = dict(zip(self._ids, range(len(self._ids))))
            self._id_hashes = None
        return self._slot_map

    def chunk_ids(self) -> set[str]:
        """The ids of every chunk the index holds vectors for (added and not removed)."""
        if self._slot_map is None:
            return set(self._ids)
        return set(self._slot_map)

    def scan_threads(self, allowed=None) -> int:
        """Threads a :meth:`search` with this ``allowed`` uses for its scan: SCAN_THREADS when the
        int8 prefilter scan splits into row ranges (an unrestricted search over SPLIT_MIN_ROWS rows
        or more, faiss installed, two cores), else 1. A caller that would otherwise put the search on
        a thread of its own need not when this is above 1 (``search._start_semantic``)."""
        n = len(self._owner) + sum(len(v) for _, v in self._pending)
        if allowed is not None or _faiss() is None or n < max(SPLIT_MIN_ROWS, PREFILTER_MIN_ROWS):
            return 1
        return max(1, min(SCAN_THREADS, os.cpu_count() or 1))

    def _n_chunks(self) -> int:
        # Until the map is built no chunk was added or removed, so every slot holds a live chunk.
        return len(self._ids) if self._slot_map is None else len(self._slot_map)

    def _slots(self, chunk_ids) -> np.ndarray:
        """Slots of those of ``chunk_ids`` that are indexed. Before the id → slot dict exists, a few
        ids are found by bisection in a sorted array of the ids' hashes (built once: ~1/4 of the
        dict's time and memory), each match checked against the id itself."""
        chunk_ids = list(chunk_ids)
        if self._slot_map is not None or len(chunk_ids) > 4096:
            slot_of = self._slot_of
            return np.fromiter((slot_of[c] for c in chunk_ids if c in slot_of), dtype=np.int64)
        if self._id_hashes is None:
            h = np.fromiter(map(hash, self._ids), dtype=np.int64, count=len(self._ids))
            order = np.argsort(h)
            self._id_hashes = (h[order], order)
        hashes, order = self._id_hashes
        ids, out = self._ids, []
        for cid, i in zip(
            chunk_ids,
            np.searchsorted(hashes, np.fromiter(map(hash, chunk_ids), dtype=np.int64, count=len(chunk_ids))).tolist(),
        ):
            hc = hash(cid)
            while i < len(hashes) and hashes[i] == hc:  # equal hashes of different ids: checked one by one
                if ids[order[i]] == cid:
                    out.append(int(order[i]))
                    break
                i += 1
        return np.array(out, dtype=np.int64)

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
        self._pre = self._by_owner = None

    def load_slots(self, chunk_ids: list[str], owner: np.ndarray, matrix: np.ndarray) -> None:
        """Bulk-load an empty index without a Python loop over rows: row ``i`` of ``matrix``
        (n_rows, dim; may be a read-only memory map) belongs to ``chunk_ids[owner[i]]``."""
        self._ids = list(chunk_ids)
        self._slot_map = self._id_hashes = None  # built at first need (see _slot_of, _slots)
        # A plain ndarray view of a memory map: np.memmap's __getitem__ wrapper cost 9 ms a query.
        self._matrix = (
            np.asarray(matrix)
            if matrix.dtype == np.float32 and matrix.flags.c_contiguous
            else np.ascontiguousarray(matrix, dtype=np.float32)
        )
        self._owner = np.asarray(owner, dtype=np.int64)
        self._alive = np.ones(len(self._owner), dtype=bool)
        self._pre = self._by_owner = None

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
        """Drop ``chunk_id``'s rows from searches (a no-op for an unknown id)."""
        slot = self._slot_of.pop(chunk_id, None)
        if slot is None:
            return
        self._ids[slot] = None
        self._flush()
        self._alive[self._owner == slot] = False
        self._alive_count = None

    def _flush(self) -> None:
        if not self._pending:
            return
        live = [(s, v) for s, v in self._pending if self._ids[s] is not None]
        self._pending = []
        self._pre = self._by_owner = None
        if live:
            self._matrix = np.concatenate([self._matrix] + [v for _, v in live])
            self._owner = np.concatenate([self._owner] + [np.full(len(v), s, dtype=np.int64) for s, v in live])
            self._alive = np.concatenate([self._alive, np.ones(sum(len(v) for _, v in live), dtype=bool)])
        dead = (~self._alive).sum()
        if dead and dead * 4 > len(self._alive):
            self._pre = self._by_owner = None
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
        # Oversample rows so that several windows of one chunk cannot crowd out k distinct chunks: the
        # top m rows hold at least m - (live rows - chunks) distinct chunks, so one window per chunk needs no more.
        m = min(n, k * 4 + 16, k + max(0, self._n_alive() - self._n_chunks()))
        if allowed is not None:
            slots = self._slots(allowed)
            if len(slots) * SUBSET_FRACTION < self._n_chunks():
                # A few chunks (the cosine of returned hits, a narrow filter): score just their rows,
                # exactly, instead of masking a scan of the whole matrix (44 ms of a 90 ms query at 100k).
                rows = self._rows_of(slots)
                exact = np.einsum("ij,j->i", self._matrix[rows], q)  # as the prefilter's rescoring computes it
                order = np.argsort(-exact, kind="stable")[:m]
                top, top_scores = rows[order], exact[order]
                return self._distinct(top, top_scores, k)
            alive = self._alive & np.isin(self._owner, slots)
        else:
            alive = self._alive
        if allowed is None and n >= PREFILTER_MIN_ROWS and _faiss() is not None:
            top, top_scores = self._certified_top(q, m)
        else:
            with _one_blas_thread():
                scores = self._matrix @ q
            scores = np.where(alive, scores, -np.inf)
            top = np.argpartition(-scores, m - 1)[:m] if m < n else np.arange(n)
            top = top[np.argsort(-scores[top], kind="stable")]
            top_scores = scores[top]
        return self._distinct(top, top_scores, k)

    def _rows_of(self, slots: np.ndarray) -> np.ndarray:
        """Live row numbers of the chunk ``slots`` (bisection in the owner column, no full scan)."""
        if self._by_owner is None:
            owner = self._owner
            if len(owner) < 2 or bool((owner[1:] >= owner[:-1]).all()):  # rows in chunk order (the usual case)
                self._by_owner = (None, owner)
            else:
                order = np.argsort(owner, kind="stable")
                self._by_owner = (order, owner[order])
        order, sorted_owner = self._by_owner
        lo = np.searchsorted(sorted_owner, slots, "left")
        hi = np.searchsorted(sorted_owner, slots, "right")
        if len(slots) == 0 or not (hi > lo).any():
            return np.zeros(0, dtype=np.int64)
        pos = np.concatenate([np.arange(a, b) for a, b in zip(lo.tolist(), hi.tolist()) if b > a])
        rows = pos if order is None else order[pos]
        return rows[self._alive[rows]]

    def _prefilter(self) -> Int8Prefilter:
        if self._pre is None:
            self._pre = Int8Prefilter.build(self._matrix)
        return self._pre

    def _certified_top(self, q: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
        """The exact float32 top ``m`` live rows (row numbers, scores; best first) via the int8 scan.

        The scan ranks ``depth`` candidates by approximate score; every row's exact score is within
        ``eps`` of its approximate one (:class:`Int8Prefilter`). Candidates are rescored in float32
        best-approximate first, only as far as one can still reach the ``m``-th exact score found
        (approximate score ≥ that score − eps). A row outside the candidates scores at most
        ``t + eps`` exactly (``t``: the lowest candidate's approximate score), so when the ``m``-th
        exact score beats that, the top ``m`` is provably the exact one; otherwise the depth grows
        fourfold (at worst to every row: a full scan). The first depth follows the depth the last
        query needed, so one scan is the rule."""
        n = len(self._matrix)
        pre = self._prefilter()
        dead = int(n - self._n_alive())
        depth = min(n, max(2 * m + 64, min(int(self._depth_ratio * m), n // 4)) + dead)
        while True:
            approx, rows, eps = pre.scan(q, depth)
            keep = rows >= 0
            approx, rows = approx[keep], rows[keep]
            live = self._alive[rows]
            cand, cand_approx = rows[live], approx[live]
            j = min(len(cand), 2 * m + 64)
            exact = np.einsum("ij,j->i", self._matrix[cand[:j]], q)  # no BLAS threads: C loop over few rows
            if j >= m:
                kth = float(np.partition(exact, j - m)[j - m])
                # candidates that may still beat the m-th exact score: approximate score ≥ kth − eps
                reach = int(np.searchsorted(-cand_approx, -(kth - eps), side="right"))
                if reach > j:
                    exact = np.concatenate([exact, np.einsum("ij,j->i", self._matrix[cand[j:reach]], q)])
                    j = reach
            order = np.argsort(-exact, kind="stable")[:m]
            top = cand[:j][order]
            if depth >= n or (len(order) == m and len(approx) and exact[order[-1]] > approx[-1] + eps):
                self._depth_ratio = (j + j // 4 + 16) / m  # what this query needed, with a margin
                return top, exact[order]
            depth = min(n, depth * 4)

    def _n_alive(self) -> int:
        if self._alive_count is None or self._alive_count[0] is not self._alive:
            self._alive_count = (self._alive, int(self._alive.sum()))
        return self._alive_count[1]

    def _distinct(self, top: np.ndarray, top_scores: np.ndarray, k: int) -> list[tuple[str, float]]:
        """The first ``k`` distinct chunks of rows ``top`` (best first; a chunk scores as its best
        window), ties by chunk id."""
        finite = np.isfinite(top_scores)
        top, top_scores = top[finite], top_scores[finite]
        slots = self._owner[top]
        _, first = np.unique(slots, return_index=True)  # each chunk's best row
        first.sort()
        ids = self._ids
        out = [(ids[sl], sc) for sl, sc in zip(slots[first].tolist(), top_scores[first].tolist())]
        # Ties break by chunk id (the Store convention), so every backend returns the same order;
        # scores equal to 1e-6 tie (a BLAS product can differ in the last bit with the row's place).
        out.sort(key=lambda hit: (-round(hit[1], 6), hit[0]))
        return out[:k]

    def attach_prefilter(self, pre: Int8Prefilter | None) -> bool:
        """Use ``pre`` (an int8 copy of exactly this matrix's rows, e.g. memory-mapped by
        :meth:`Int8Prefilter.read`) instead of building one at the first search. False (and
        ignored) when the size or dimension differ."""
        self._flush()
        if pre is None or pre.ntotal != len(self._matrix) or len(pre.scale) != self.dim:
            return False
        self._pre = pre
        return True


def _quantise(blocks, dim: int, sink) -> tuple[np.ndarray, tuple[float, float, float]]:
    """Per-dimension int8 codes of the float32 rows that ``blocks()`` yields (called twice: the scale
    needs every row's magnitude first), each block's codes (float32 integers in -127..127) passed to
    ``sink``. Returns (the (dim,) scale ``s`` as float64, (``R``, ``C``, largest row norm)) as
    :class:`Int8Prefilter` defines them."""
    amax = np.zeros(dim, dtype=np.float64)
    for part in blocks():
        np.maximum(amax, np.abs(part).max(axis=0, initial=0.0), out=amax)
    scale32 = np.where(amax > 0, 127.0 / np.where(amax > 0, amax, 1.0), 1.0).astype(np.float32)
    inv32 = (1.0 / scale32.astype(np.float64)).astype(np.float32)
    r2 = c2 = x2 = 0.0
    for part in blocks():  # float32 arithmetic; its rounding is covered below
        codes = np.clip(np.rint(part * scale32), -127, 127)
        r = part - codes * inv32
        r2 = max(r2, float(np.einsum("ij,ij->i", r, r).max(initial=0.0)))
        c2 = max(c2, float(np.einsum("ij,ij->i", codes, codes).max(initial=0.0)))
        x2 = max(x2, float(np.einsum("ij,ij->i", part, part).max(initial=0.0)))
        sink(codes)
    # Rounding of the float32 arithmetic: each norm computed with a relative error below dim·2^-23,
    # each residual component within 4·2^-24·|x| of its exact value (c·(1/s) and the subtraction).
    grow = 1 + dim * 2.0**-23
    row_norm = np.sqrt(x2) * grow
    resid = np.sqrt(r2) * grow + 2.0**-21 * row_norm
    return scale32.astype(np.float64), (resid, np.sqrt(c2) * grow, row_norm)


class Int8Prefilter:
    """An int8 copy of a float32 matrix, scanned by faiss, whose scores carry a proven error bound.

    Rows are quantised per dimension: ``c[r, d] = rint(x[r, d] · s[d])`` with ``s[d] = 127 / max_r
    |x[r, d]|``, stored as a faiss ``IndexScalarQuantizer`` ``QT_8bit_direct_signed`` (one byte per
    component: a quarter of the float32 matrix, half of a float16 copy). A query ``q`` is folded into
    the same integer space: ``v = q / s``, ``a = rint(v · T)`` with ``T = 127 / max|v|``, so faiss
    computes the integer dot product ``a · c`` (exact: integers, partial sums below 2^24) and the
    approximate score is ``a · c / T``. Its distance to the exact ``q · x`` is at most

        ``eps = |q|·R + |v − a/T|·C``  (Cauchy–Schwarz on both rounding residuals)

    where ``R`` is the largest row residual norm ``|x − c/s|`` and ``C`` the largest code norm
    ``|c|``, both measured over every row when the copy is built, plus the float32 slack of the
    exact rescoring (``dim · 2^-23 · |q| · max|x|``). The bound holds for any data, whatever its
    distribution: :meth:`DenseIndex._certified_top` uses it to prove its top-k exact.

    ``index`` is the faiss index of the codes, ``scale`` the (dim,) ``s``; ``resid``, ``code_norm``
    and ``row_norm`` are ``R``, ``C`` and the largest row norm."""

    def __init__(self, index, scale: np.ndarray, resid: float, code_norm: float, row_norm: float):
        self.index = index
        self.scale = np.asarray(scale, dtype=np.float64)
        self.resid, self.code_norm, self.row_norm = float(resid), float(code_norm), float(row_norm)

    @property
    def ntotal(self) -> int:
        """The number of rows quantised into the prefilter."""
        return self.index.ntotal

    @classmethod
    def build(cls, matrix: np.ndarray) -> Int8Prefilter:
        """Quantise the rows of ``matrix`` (n, dim) float32, read in bounded slices (a memory-mapped
        matrix is never copied whole). Raises ``ImportError`` without faiss."""
        faiss = _faiss()
        if faiss is None:
            raise ImportError("faiss is not installed")
        n, dim = matrix.shape
        index = faiss.IndexScalarQuantizer(dim, faiss.ScalarQuantizer.QT_8bit_direct_signed, faiss.METRIC_INNER_PRODUCT)
        scale, bounds = _quantise(
            lambda: (np.asarray(matrix[s : s + _SLICE], dtype=np.float32) for s in range(0, n, _SLICE)), dim, index.add
        )
        return cls(index, scale, *bounds)

    @classmethod
    def write_from_file(cls, npy_path, path) -> None:
        """Write the copy :meth:`build` would make of the float32 matrix in the ``.npy`` file
        ``npy_path`` to ``path`` (as :meth:`write` does, read back by :meth:`read`), streaming: the
        file is read twice a block at a time with plain reads (no memory map), each block's codes
        appended as they are made, so memory stays one block whatever the number of rows (building in
        memory held the codes plus the file's mapped pages: ~1.9 GB at 1M rows, the peak of an ingest).
        Raises ``OSError``, ``ImportError`` without faiss.

        The codes file is faiss's own serialisation of an empty index with the row count and codes
        spliced in; that layout is checked against faiss's serialisation of a one-row index first, and
        the in-memory path is taken if it differs."""
        faiss = _faiss()
        if faiss is None:
            raise ImportError("faiss is not installed")
        with open(npy_path, "rb") as f:
            (n, dim), _, _ = _npy_header(f)
        qt, metric = faiss.ScalarQuantizer.QT_8bit_direct_signed, faiss.METRIC_INNER_PRODUCT
        empty, one = faiss.IndexScalarQuantizer(dim, qt, metric), faiss.IndexScalarQuantizer(dim, qt, metric)
        head = faiss.serialize_index(empty).tobytes()
        probe = np.full((1, dim), 3.0, dtype=np.float32)
        one.add(probe)
        code = one.sa_encode(probe).tobytes()
        if faiss.serialize_index(one).tobytes() != _spliced(head, 1, len(code)) + code:
            cls.build(np.load(npy_path, mmap_mode="r")).write(path)
            return
        path = str(path)
        try:
            with open(path, "wb") as out:
                out.write(_spliced(head, n, len(code)))
                scale, bounds = _quantise(
                    lambda: _npy_blocks(npy_path, _SLICE),
                    dim,
                    lambda codes: out.write(empty.sa_encode(codes).tobytes()),
                )
                out.flush()
                os.fsync(out.fileno())
        except RuntimeError as e:  # faiss reports failures as RuntimeError
            raise OSError(str(e)) from None
        with open(path + ".npy", "wb") as f:
            np.save(f, np.concatenate([scale, bounds]))

    def scan(self, q: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray, float]:
        """(approximate scores float64, row numbers, eps) of the ``depth`` best rows for the (dim,)
        query ``q``, best first; every row's exact float32 score is within ``eps`` of its
        approximate one (rows beyond ``depth`` score at most the last approximate score + eps)."""
        qn = float(np.linalg.norm(q))
        v = q.astype(np.float64) / self.scale
        vmax = float(np.abs(v).max())
        if not vmax > 0:  # a zero query: every score is 0
            t, a = 1.0, np.zeros_like(v)
        else:
            t = 127.0 / vmax
            a = np.rint(v * t)
        dim = len(v)
        eps = qn * self.resid + float(np.linalg.norm(v - a / t)) * self.code_norm
        eps += dim * 2.0**-23 * qn * self.row_norm  # float32 summation of the exact rescoring
        if float(np.linalg.norm(a)) * self.code_norm >= 2.0**24:  # the integer dot may round in float32
            eps += dim * 2.0**-23 * float(np.linalg.norm(a)) * self.code_norm / t
        scores, rows = _scan(self.index, a.astype(np.float32).reshape(1, -1), depth)
        return scores.astype(np.float64) / t, rows, eps * (1 + 2.0**-20)

    def write(self, path) -> None:
        """Write the codes to ``path`` (faiss format) and the scale and bounds to ``path.npy``.
        Raises ``OSError``."""
        path = str(path)
        params = np.concatenate([self.scale, [self.resid, self.code_norm, self.row_norm]])
        with open(path + ".npy", "wb") as f:
            np.save(f, params)
        try:
            _faiss().write_index(self.index, path)
        except RuntimeError as e:  # faiss reports I/O failures as RuntimeError
            raise OSError(str(e)) from None

    @classmethod
    def read(cls, path, n_rows: int, dim: int) -> Int8Prefilter | None:
        """The copy written by :meth:`write` at ``path``, its codes memory-mapped read-only (faiss
        ``IO_FLAG_MMAP_IFC``: opening 1M rows costs milliseconds; pages are read as the scan touches
        them), or ``None`` when faiss is missing, a file is absent, torn, or not of ``n_rows`` × ``dim``."""
        faiss = _faiss()
        if faiss is None:
            return None
        path = str(path)
        try:
            params = np.load(path + ".npy")
            index = faiss.read_index(path, faiss.IO_FLAG_MMAP_IFC | faiss.IO_FLAG_READ_ONLY)
        except (OSError, ValueError, RuntimeError):
            return None
        if (
            params.shape != (dim + 3,)
            or not np.isfinite(params).all()
            or index.ntotal != n_rows
            or index.d != dim
            or not isinstance(index, faiss.IndexScalarQuantizer)
            or index.sq.qtype != faiss.ScalarQuantizer.QT_8bit_direct_signed
            or not (params[:dim] > 0).all()
        ):
            return None
        return cls(index, params[:dim], *params[dim:])


def wants_prefilter(n_rows: int) -> bool:
    """True when a matrix of ``n_rows`` is searched through the int8 prefilter (faiss installed)."""
    return n_rows >= PREFILTER_MIN_ROWS and _faiss() is not None


def persists_prefilter(n_rows: int) -> bool:
    """True when a matrix of ``n_rows`` keeps its int8 copy on disk (:data:`PERSIST_MIN_ROWS`)."""
    return n_rows >= PERSIST_MIN_ROWS and wants_prefilter(n_rows)


def _npy_header(f) -> tuple[tuple, bool, np.dtype]:
    """(shape, fortran order, dtype) of the ``.npy`` file open as ``f``, which is left at its data."""
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(f)
    return np.lib.format.read_array_header_2_0(f)


def _npy_blocks(npy_path, rows: int):
    """Blocks of at most ``rows`` rows of a 2-D float32 ``.npy`` file, read with plain reads into one
    reused buffer: no memory map, so the file's pages never count in this process's resident memory."""
    with open(npy_path, "rb") as f:
        shape, fortran, dtype = _npy_header(f)
        if len(shape) != 2 or fortran or dtype != np.float32:
            raise ValueError(f"{npy_path}: not a C-order 2-D float32 array")
        n, dim = shape
        buf = np.empty((min(rows, n), dim), dtype=np.float32)
        for start in range(0, n, rows):
            part = buf[: min(rows, n - start)]
            if f.readinto(memoryview(part).cast("B")) != part.nbytes:
                raise OSError(f"{npy_path}: shorter than its header says")
            yield part


def _spliced(head: bytes, n: int, code_size: int) -> bytes:
    """faiss's serialisation ``head`` of an empty scalar-quantizer index, saying ``n`` rows and
    ``n * code_size`` code bytes (the codes themselves follow it)."""
    return head[:8] + int(n).to_bytes(8, "little") + head[16:-8] + int(n * code_size).to_bytes(8, "little")
