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
  thread: 4 ms at 100,000 × 384 against 12.5 ms for float32 numpy here); its best ``2m + 64``
  rows are **rescored exactly in float32** and the result is *certified* exact: a float16 score
  is within ``2^-11 · |q| · max|row|`` of the float32 one, so when the ``m``-th rescored score
  beats the lowest candidate's float16 score by that margin no row outside the candidates can
  enter the top ``m`` (else the depth grows; see :meth:`DenseIndex._certified_top`). Results are
  the exact float32 top-k, not an approximation.
* The float16 copy and the largest row norm are written beside the memory-mapped vector file and
  mapped on open (faiss ``IO_FLAG_MMAP_IFC``), so a fresh process does not convert 1M rows.
* A search restricted to a few chunks (the cosine of returned hits, a narrow filter) reads just
  their rows (found by bisection in the owner column) instead of scanning the matrix.
"""

from __future__ import annotations

import os

import numpy as np

# Rows from which the float16 prefilter (faiss) is used; below it one float32 scan costs < 1 ms.
F16_MIN_ROWS = 20_000
# Rows from which the float16 copy is also written to disk beside the vector file (and memory-mapped
# on open) rather than built at a process's first search: building it costs ~0.5 s per 100k rows
# (seconds at 1M, against the ≤ 2 s open-and-answer target), storing it 2 bytes × dim per row
# (+31 % of the raw vectors, against the ≤ 2× disk target). Below this the build is the cheaper side.
F16_PERSIST_MIN_ROWS = 250_000
# An ``allowed`` set smaller than 1 / SUBSET_FRACTION of the chunks is scored row by row (gathered),
# a larger one by masking one scan of the whole matrix.
SUBSET_FRACTION = 8


# From this many rows the float16 scan is split into row ranges searched on SCAN_THREADS threads
# (faiss releases the GIL). At 1M rows a one-thread scan took 37 ms of CPU and 260 ms wall at load
# average 10; two ranges 38 ms of CPU and 74–208 ms wall. At 100k (4 ms) the split gained nothing.
SPLIT_MIN_ROWS = 200_000
SCAN_THREADS = 2

_FAISS = None
_POOL = None


def _scan(index, q: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, rows) of the ``depth`` best rows of a faiss ``index`` for one query (1, dim), best
    first; in SCAN_THREADS row ranges at once from SPLIT_MIN_ROWS rows (same result: the ranges' top
    lists are merged)."""
    global _POOL
    n = index.ntotal
    parts = min(SCAN_THREADS, os.cpu_count() or 1)
    if n < SPLIT_MIN_ROWS or parts < 2:
        scores, rows = index.search(q, depth)
        return scores[0], rows[0]
    faiss = _faiss()
    if _POOL is None:
        from concurrent.futures import ThreadPoolExecutor

        _POOL = ThreadPoolExecutor(max_workers=SCAN_THREADS - 1, thread_name_prefix="docstrata-scan")
    bounds = [n * i // parts for i in range(parts + 1)]
    params = [faiss.SearchParameters(sel=faiss.IDSelectorRange(a, b)) for a, b in zip(bounds, bounds[1:])]
    futures = [_POOL.submit(index.search, q, depth, params=p) for p in params[1:]]
    results = [index.search(q, depth, params=params[0])] + [f.result() for f in futures]
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
        self._f16 = None  # faiss float16 copy of _matrix, built on first large search
        self._by_owner = None  # (row order sorted by owner, owner sorted): rows of a chunk by bisection
        self._max_norm: float | None = None  # largest row norm: bounds the float16 score error
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
        for cid, i in zip(chunk_ids, np.searchsorted(hashes, np.fromiter(map(hash, chunk_ids), dtype=np.int64,
                                                                          count=len(chunk_ids))).tolist()):
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
        self._f16 = self._by_owner = self._max_norm = None

    def load_slots(self, chunk_ids: list[str], owner: np.ndarray, matrix: np.ndarray) -> None:
        """Bulk-load an empty index without a Python loop over rows: row ``i`` of ``matrix``
        (n_rows, dim; may be a read-only memory map) belongs to ``chunk_ids[owner[i]]``."""
        self._ids = list(chunk_ids)
        self._slot_map = self._id_hashes = None  # built at first need (see _slot_of, _slots)
        # A plain ndarray view of a memory map: np.memmap's __getitem__ wrapper cost 9 ms a query.
        self._matrix = np.asarray(matrix) if matrix.dtype == np.float32 and matrix.flags.c_contiguous else \
            np.ascontiguousarray(matrix, dtype=np.float32)
        self._owner = np.asarray(owner, dtype=np.int64)
        self._alive = np.ones(len(self._owner), dtype=bool)
        self._f16 = self._by_owner = self._max_norm = None

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
        self._alive_count = None

    def _flush(self) -> None:
        if not self._pending:
            return
        live = [(s, v) for s, v in self._pending if self._ids[s] is not None]
        self._pending = []
        self._f16 = self._by_owner = self._max_norm = None
        if live:
            self._matrix = np.concatenate([self._matrix] + [v for _, v in live])
            self._owner = np.concatenate([self._owner] + [np.full(len(v), s, dtype=np.int64) for s, v in live])
            self._alive = np.concatenate([self._alive, np.ones(sum(len(v) for _, v in live), dtype=bool)])
        dead = (~self._alive).sum()
        if dead and dead * 4 > len(self._alive):
            self._f16 = self._by_owner = self._max_norm = None
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
        if allowed is None and n >= F16_MIN_ROWS and _faiss() is not None:
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

    def _certified_top(self, q: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
        """The exact float32 top ``m`` live rows (row numbers, scores; best first) via the float16 scan.

        The float16 scan ranks ``depth`` candidates, which are rescored in float32. A float16
        component is within 2^-11 (relative) of the float32 one, so a row's float16 score is within
        ``eps = 2^-11 · |q| · max|row|`` of its exact score (+ float32 summation slack). Every row
        outside the candidates scores at most ``t + eps`` exactly (``t``: the lowest candidate's
        float16 score); when the ``m``-th exact candidate score beats that, the top ``m`` is
        provably the exact one. Otherwise the depth grows fourfold (at worst to every row: a full scan)."""
        n = len(self._matrix)
        if self._f16 is None:
            self._f16 = float16_index(self._matrix)
        if self._max_norm is None:
            self._max_norm = max_row_norm(self._matrix)
        eps = (2.0 ** -10 + 2.0 ** -14) * float(np.linalg.norm(q)) * self._max_norm  # 2× the rounding bound
        dead = int(n - self._n_alive())
        depth = min(n, 2 * m + 64 + dead)
        while True:
            f16_scores, rows = _scan(self._f16, q.reshape(1, -1), depth)
            keep = rows >= 0
            f16_scores, rows = f16_scores[keep], rows[keep]
            live = self._alive[rows]
            cand = rows[live]
            exact = np.einsum("ij,j->i", self._matrix[cand], q)  # no BLAS threads: C loop over few rows
            order = np.argsort(-exact, kind="stable")[:m]
            if depth >= n or (len(order) == m and len(f16_scores) and exact[order[-1]] > f16_scores[-1] + eps):
                return cand[order], exact[order]
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

    def _f16_candidates(self, q: np.ndarray, depth: int) -> np.ndarray:
        """Row numbers of the ``depth`` best float16 scores (faiss, one thread)."""
        if self._f16 is None:
            self._f16 = float16_index(self._matrix)
        _, rows = self._f16.search(q.reshape(1, -1), depth)
        rows = rows[0]
        return rows[rows >= 0]

    def attach_float16(self, index, max_norm: float) -> bool:
        """Use ``index`` (a faiss float16 index of exactly this matrix's rows, e.g. memory-mapped by
        :func:`read_float16`) and ``max_norm`` (the largest row norm) for the prefilter instead of
        building them at the first search. False (and ignored) when the size or dimension differ."""
        self._flush()
        if index is None or index.ntotal != len(self._matrix) or index.d != self.dim or not max_norm > 0:
            return False
        self._f16, self._max_norm = index, float(max_norm)
        return True


def float16_index(matrix: np.ndarray):
    """A faiss ``IndexScalarQuantizer`` (QT_fp16, inner product) over the rows of ``matrix``
    (n, dim) float32, added in bounded slices so a memory-mapped matrix is never copied whole.
    Raises ``ImportError`` without faiss."""
    faiss = _faiss()
    if faiss is None:
        raise ImportError("faiss is not installed")
    ix = faiss.IndexScalarQuantizer(matrix.shape[1], faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)
    for start in range(0, len(matrix), 65_536):
        ix.add(np.ascontiguousarray(matrix[start:start + 65_536], dtype=np.float32))
    return ix


def max_row_norm(matrix: np.ndarray) -> float:
    """The largest L2 norm of a row of ``matrix`` (read in bounded slices)."""
    best = 0.0
    for start in range(0, len(matrix), 65_536):
        part = np.asarray(matrix[start:start + 65_536], dtype=np.float32)
        best = max(best, float(np.sqrt(np.einsum("ij,ij->i", part, part).max(initial=0.0))))
    return best


def wants_float16(n_rows: int) -> bool:
    """True when a matrix of ``n_rows`` is searched through the float16 prefilter (faiss installed)."""
    return n_rows >= F16_MIN_ROWS and _faiss() is not None


def persists_float16(n_rows: int) -> bool:
    """True when a matrix of ``n_rows`` keeps its float16 copy on disk (:data:`F16_PERSIST_MIN_ROWS`)."""
    return n_rows >= F16_PERSIST_MIN_ROWS and wants_float16(n_rows)


def write_float16(matrix: np.ndarray, path) -> float:
    """Write :func:`float16_index` of ``matrix`` to ``path`` (faiss format); returns
    :func:`max_row_norm` of ``matrix``. Raises ``OSError``."""
    try:
        _faiss().write_index(float16_index(matrix), str(path))
    except RuntimeError as e:  # faiss reports I/O failures as RuntimeError
        raise OSError(str(e)) from None
    return max_row_norm(matrix)


_STREAM_ROWS = 16_384  # rows per block when a vector file is read to write its float16 copy (25 MB at dim 384)


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
            part = buf[:min(rows, n - start)]
            if f.readinto(memoryview(part).cast("B")) != part.nbytes:
                raise OSError(f"{npy_path}: shorter than its header says")
            yield part


def write_float16_from_file(npy_path, path) -> float:
    """Write the :func:`float16_index` of the float32 matrix in the ``.npy`` file ``npy_path`` to
    ``path`` (faiss format, as :func:`read_float16` reads it), streaming: a block of rows is read,
    encoded by faiss (``sa_encode``) and appended, so memory stays one block whatever the number of
    rows (building the index in memory held 768 MB of codes plus 1.5 GB of mapped file pages at 1M
    rows: the peak of a 1M-row ingest). Returns :func:`max_row_norm`. Raises ``OSError``.

    The file is faiss's own serialisation of an empty index with the row count and codes spliced
    in; the layout (row count at byte 8, codes last, after their byte count) is checked against
    faiss's serialisation of a one-row index first, and the in-memory path is used if it differs."""
    faiss = _faiss()
    with open(npy_path, "rb") as f:
        (n, dim), _, _ = _npy_header(f)
    empty = faiss.IndexScalarQuantizer(dim, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)
    head = faiss.serialize_index(empty).tobytes()
    one = faiss.IndexScalarQuantizer(dim, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)
    probe = np.full((1, dim), 0.5, dtype=np.float32)
    one.add(probe)
    code = one.sa_encode(probe).tobytes()
    size = len(code)
    if faiss.serialize_index(one).tobytes() != _spliced(head, 1, size) + code:
        return write_float16(np.load(npy_path, mmap_mode="r"), path)
    best = 0.0
    try:
        with open(path, "wb") as out:
            out.write(_spliced(head, n, size))
            for part in _npy_blocks(npy_path, _STREAM_ROWS):
                out.write(empty.sa_encode(part).tobytes())
                best = max(best, float(np.sqrt(np.einsum("ij,ij->i", part, part).max(initial=0.0))))
            out.flush()
            os.fsync(out.fileno())
    except RuntimeError as e:  # faiss reports failures as RuntimeError
        raise OSError(str(e)) from None
    return best


def _spliced(head: bytes, n: int, code_size: int) -> bytes:
    """faiss's serialisation ``head`` of an empty scalar-quantizer index, saying ``n`` rows and
    ``n * code_size`` code bytes (the codes themselves follow it)."""
    return head[:8] + int(n).to_bytes(8, "little") + head[16:-8] + int(n * code_size).to_bytes(8, "little")


def read_float16(path):
    """The float16 index at ``path`` memory-mapped read-only (faiss ``IO_FLAG_MMAP_IFC``: opening
    a 1M-row file costs milliseconds, pages are read as the scan touches them), or ``None`` when
    faiss is missing or the file is absent or unreadable."""
    faiss = _faiss()
    if faiss is None:
        return None
    try:
        return faiss.read_index(str(path), faiss.IO_FLAG_MMAP_IFC | faiss.IO_FLAG_READ_ONLY)
    except RuntimeError:
        return None
