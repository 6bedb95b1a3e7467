"""The int8 prefilter's error bound holds on real and adversarial vectors, so its top-k is the exact
float32 one; and the hybrid search that runs its semantic leg on a second thread returns what the
sequential one returns (issue 18, deliverable 2)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from docstrata import search as search_mod
from docstrata.index import dense
from docstrata.index.dense import DenseIndex, Int8Prefilter
from docstrata.models import Chunk, FileState
from docstrata.search import SearchSettings, run_search
from docstrata.store.base import ChunkFilter, StoredChunk
from docstrata.store.embedded import EmbeddedStore

faiss = pytest.importorskip("faiss")
ROOT = Path(__file__).resolve().parents[1]


def _paragraphs(limit: int) -> list[str]:
    """Real prose: the paragraphs of the repository's own documentation."""
    out = []
    for path in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for para in path.read_text(encoding="utf-8").split("\n\n"):
            para = " ".join(para.split())
            if len(para) > 60 and not para.startswith(("|", "```")):
                out.append(para[:600])
    return list(dict.fromkeys(out))[:limit]


@pytest.fixture(scope="module")
def paragraphs(embedder):
    """(texts, vectors): 160 documentation paragraphs and their all-MiniLM-L6-v2 vectors."""
    texts = _paragraphs(160)
    return texts, np.asarray(embedder.encode(texts), dtype=np.float32)


@pytest.fixture(scope="module")
def minilm(embedder, paragraphs):
    """(rows, queries): real all-MiniLM-L6-v2 vectors of documentation paragraphs, and 4,000 more
    rows mixed from pairs of them (normalised), as a corpus of real-embedding geometry."""
    vecs = paragraphs[1]
    rng = np.random.default_rng(0)
    i, j = rng.integers(0, len(vecs), (2, 4000))
    w = rng.uniform(0.2, 0.8, (4000, 1)).astype(np.float32)
    mixed = w * vecs[i] + (1 - w) * vecs[j]
    rows = np.concatenate([vecs, mixed / np.linalg.norm(mixed, axis=1, keepdims=True)]).astype(np.float32)
    queries = np.asarray(embedder.encode(["how is the float16 prefilter certified exact",
                                          "definitions of terms in legislation", "what does RRF fuse",
                                          "PDF outline headings", "ingest speed of the embedder"]), dtype=np.float32)
    return rows, queries


def _assert_bound_holds(rows: np.ndarray, queries: np.ndarray) -> None:
    """Every row's approximate score is within the prefilter's eps of its exact score (float64)."""
    pre = Int8Prefilter.build(rows)
    for q in queries:
        approx, order, eps = pre.scan(q, len(rows))
        assert sorted(order.tolist()) == list(range(len(rows)))
        exact = rows[order].astype(np.float64) @ q.astype(np.float64)
        err = np.abs(approx - exact)
        assert err.max() <= eps, (err.max(), eps)
        assert eps < 0.1 * max(1.0, float(np.linalg.norm(q)) * pre.row_norm)  # a useful bound, not a vacuous one


def _assert_exact_top(rows: np.ndarray, queries: np.ndarray, monkeypatch, k: int = 10) -> None:
    monkeypatch.setattr(dense, "PREFILTER_MIN_ROWS", 100)
    ids = [f"c{i:05d}" for i in range(len(rows))]
    di = DenseIndex(rows.shape[1])
    di.load(ids, rows)
    for q in queries:
        hits = di.search(q, k)
        assert di._pre is not None  # the prefilter ran
        exact = rows.astype(np.float64) @ q.astype(np.float64)
        got = [int(c[1:]) for c, _ in hits]
        assert len(set(got)) == k
        # the exact top-k scores (float64), up to float32 rounding of scores that tie in float32
        tol = 1e-5 * max(1.0, float(np.abs(exact).max()))
        assert np.allclose(np.sort(exact[got])[::-1], np.sort(exact)[::-1][:k], rtol=0, atol=tol)
        # float32 scores, not int8 ones
        assert all(abs(s - exact[int(c[1:])]) <= tol for c, s in hits)


def test_int8_bound_and_top_k_on_real_minilm_vectors(minilm, monkeypatch):
    rows, queries = minilm
    _assert_bound_holds(rows, queries)
    _assert_exact_top(rows, queries, monkeypatch)
    _assert_exact_top(rows, rows[[3, 250, 1000]], monkeypatch, k=50)  # a stored row as the query: it ranks first


def _adversarial(rng) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    n, d = 3000, 64
    base = rng.standard_normal((n, d)).astype(np.float32)
    spike = base.copy()
    spike[7, 5] = 400.0  # one component dwarfs its dimension: that dimension's codes are all ~0
    norms = base * np.exp(rng.uniform(-4, 4, (n, 1))).astype(np.float32)  # norms over 8 orders of magnitude
    half = np.round(base * 4) / 4 + 0.5 / 127  # values on rounding midpoints of the code grid
    ties = np.repeat(base[:30], 100, axis=0)  # 100 identical copies of each row
    sparse = np.zeros((n, d), dtype=np.float32)
    sparse[np.arange(n), rng.integers(0, d, n)] = rng.uniform(0.5, 1.0, n)  # one non-zero per row
    qs = rng.standard_normal((4, d)).astype(np.float32)
    onehot = np.zeros((1, d), dtype=np.float32)
    onehot[0, 5] = 1.0  # the query loads the spiked dimension only
    qs = np.concatenate([qs, onehot, 1e-3 * qs[:1]])  # a tiny query norm
    return {"spike": (spike, qs), "norms": (norms, qs), "midpoints": (half.astype(np.float32), qs),
            "ties": (ties, qs), "sparse": (sparse, qs)}


@pytest.mark.parametrize("case", ["spike", "norms", "midpoints", "ties", "sparse"])
def test_int8_bound_and_top_k_on_adversarial_rows(case, monkeypatch):
    rows, queries = _adversarial(np.random.default_rng(3))[case]
    _assert_bound_holds(rows, queries)
    _assert_exact_top(rows, queries, monkeypatch)


@pytest.mark.parametrize("dim", [384, 100, 768])
def test_faiss_direct_signed_scores_are_the_integer_dot_product(dim):
    """The prefilter relies on faiss computing ``a · c`` exactly for integer query and codes (SIMD
    and scalar code paths: a dimension that is not a multiple of the SIMD width too)."""
    rng = np.random.default_rng(1)
    codes = rng.integers(-127, 128, (500, dim)).astype(np.float32)
    a = rng.integers(-127, 128, (3, dim)).astype(np.float32)
    ix = faiss.IndexScalarQuantizer(dim, faiss.ScalarQuantizer.QT_8bit_direct_signed, faiss.METRIC_INNER_PRODUCT)
    ix.add(codes)
    scores, rows = ix.search(a, 500)
    for i in range(3):
        assert np.array_equal(scores[i].astype(np.int64), codes[rows[i]].astype(np.int64) @ a[i].astype(np.int64))


def _corpus_store(tmp_path, paragraphs) -> EmbeddedStore:
    texts, vecs = paragraphs
    store = EmbeddedStore(tmp_path / "s", dim=vecs.shape[1])
    for d in range(0, len(texts), 40):
        key = f"doc{d // 40}.md"
        chunks = [StoredChunk(Chunk(chunk_id=f"{key}#{i}", doc_key=key, ordinal=i, content=texts[d + i],
                                    section_id=str(i), parent_chain=[], heading_level=1), vecs[d + i:d + i + 1])
                  for i in range(min(40, len(texts) - d))]
        store.replace_document(key, FileState(1, 1, key), chunks, [])
    store.flush()
    return store


def test_concurrent_legs_return_what_sequential_legs_return(tmp_path, embedder, paragraphs, monkeypatch):
    store = _corpus_store(tmp_path, paragraphs)
    queries = ["certified exact rescoring of candidates", "Section 4.2", "\"weighted RRF\"", "getTarget",
               "the of and", "what does the benchmark measure at 1M chunks", "PDF outline"]
    settings = [SearchSettings(), SearchSettings(min_similarity_score=0.2), SearchSettings(min_fused_score=0.01)]
    filters = [None, ChunkFilter(doc_keys=("doc1.md", "doc3.md"))]
    vectors = {q: embedder.embed_query(q) for q in queries}
    embed = vectors.__getitem__
    started = []
    real_start = search_mod._start_semantic

    def spy(*a, **kw):
        fut = real_start(*a, **kw)
        started.append(fut is not None)
        return fut

    def run_all():
        out = []
        for q in queries:
            for mode in ("hybrid", "semantic", "keyword"):
                for st in settings:
                    for flt in filters:
                        run = run_search(store, embed, q, mode=mode, top_k=8, settings=st, flt=flt)
                        out.append((run.content_words, run.embedded, run.dropped,
                                    [(h.chunk.chunk_id, round(h.score, 9), h.pinned,
                                      None if h.similarity is None else round(h.similarity, 6)) for h in run]))
        return out

    monkeypatch.setattr(search_mod, "_start_semantic", spy)
    monkeypatch.setattr(search_mod, "_core_free", lambda: True)  # whatever the machine's load
    concurrent = run_all()
    assert started and all(started)  # every search with a semantic leg ran it on the worker thread
    monkeypatch.setattr(search_mod, "_start_semantic", lambda *a, **kw: None)
    sequential = run_all()
    assert concurrent == sequential
    assert any(hits for *_, hits in concurrent)
    store.close()


def test_a_scan_that_splits_itself_runs_on_the_caller_thread(tmp_path, embedder, paragraphs, monkeypatch):
    # From SPLIT_MIN_ROWS rows the int8 scan splits over SCAN_THREADS threads itself; the semantic leg
    # then stays on the calling thread (no worker of its own), with the same hits. The thresholds are
    # lowered so a small real corpus takes that path (the 1M-row figures: docs/benchmarks.md).
    store = _corpus_store(tmp_path, paragraphs)
    monkeypatch.setattr(search_mod, "_core_free", lambda: True)
    queries = ["certified exact rescoring of candidates", "what does the benchmark measure at 1M chunks"]
    embed = {q: embedder.embed_query(q) for q in queries}.__getitem__

    def hits():
        return [[(h.chunk.chunk_id, round(h.score, 9)) for h in
                 run_search(store, embed, q, mode="hybrid", top_k=8, settings=SearchSettings())] for q in queries]

    before = hits()
    assert store._dense_index().scan_threads() == 1
    leg = search_mod._start_semantic(store, embed, queries[0], 20, None)
    assert leg is not None and not isinstance(leg, search_mod._Deferred)
    leg.result()
    monkeypatch.setattr(dense, "SPLIT_MIN_ROWS", 10)
    monkeypatch.setattr(dense, "PREFILTER_MIN_ROWS", 10)
    threads = []
    real_search = dense._search
    monkeypatch.setattr(dense, "_search", lambda *a, **kw: threads.append(__import__("threading").current_thread().name)
                        or real_search(*a, **kw))
    assert store._dense_index().scan_threads() == 2
    assert store._dense_index().scan_threads(allowed=["doc1.md#0"]) == 1  # a filtered search does not split
    assert isinstance(search_mod._start_semantic(store, embed, queries[0], 20, None), search_mod._Deferred)
    assert hits() == before
    assert "MainThread" in threads and any(t.startswith("docstrata-scan") for t in threads)
    assert not any(t.startswith("docstrata-leg") for t in threads)
    store.close()


def test_legs_stay_on_one_thread_when_no_core_is_free(monkeypatch):
    monkeypatch.setattr(search_mod, "_LOAD", [0.0, True])
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (2.6, 1.0, 1.0))  # another process keeps a core busy
    assert not search_mod._core_free()
    monkeypatch.setattr(search_mod, "_LOAD", [0.0, True])
    monkeypatch.setattr(os, "getloadavg", lambda: (1.6, 1.0, 1.0))  # only this process's legs run
    assert search_mod._core_free()
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert not search_mod._core_free()


@pytest.mark.parametrize("threaded", [True, False])
def test_a_failing_embedder_fails_the_search_on_the_caller_thread(tmp_path, paragraphs, threaded, monkeypatch):
    monkeypatch.setattr(search_mod, "_core_free", lambda: threaded)
    store = _corpus_store(tmp_path, paragraphs)

    def broken(_q):
        raise RuntimeError("embedding backend down")

    with pytest.raises(RuntimeError, match="embedding backend down"):
        run_search(store, broken, "certified exact rescoring", mode="hybrid", top_k=5, settings=SearchSettings())
    assert run_search(store, broken, "certified exact rescoring", mode="keyword", top_k=5, settings=SearchSettings())
    store.close()


def test_an_index_without_its_int8_copy_gets_it_at_the_first_search(tmp_path, monkeypatch):
    """An index from before the int8 copy (or with a damaged one) is quantised once, at the first
    search of a process that may write, and the copy stored; later processes map it."""
    monkeypatch.setattr(dense, "PREFILTER_MIN_ROWS", 1000)
    monkeypatch.setattr(dense, "PERSIST_MIN_ROWS", 1000)
    rng = np.random.default_rng(4)
    rows = rng.standard_normal((1500, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    store = EmbeddedStore(tmp_path / "s", dim=384)
    chunks = [StoredChunk(Chunk(chunk_id=f"a.md#{i}", doc_key="a.md", ordinal=i, content=f"text {i}", section_id=str(i),
                                parent_chain=[], heading_level=1), rows[i:i + 1]) for i in range(len(rows))]
    store.replace_document("a.md", FileState(1, 1, "a"), chunks, [])
    store.flush()
    store.close()
    copies = sorted((tmp_path / "s").glob("vectors-*.i8.faiss*"))
    assert [p.suffix for p in copies] == [".faiss", ".npy"]
    for p in copies:
        p.unlink()
    q = rows[42]
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert store.dense_search(q, 1)[0][0] == "a.md#42"
    store.close()
    assert sorted((tmp_path / "s").glob("vectors-*.i8.faiss*")) == copies
    built = []
    monkeypatch.setattr(Int8Prefilter, "build", classmethod(lambda cls, m: built.append(1)))
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert store.dense_search(q, 1)[0][0] == "a.md#42" and not built  # mapped, not quantised again
    store.close()


def _search_in_child(root, vec, out):
    search_mod._core_free = lambda: True
    store = EmbeddedStore(root, dim=len(vec))
    run = run_search(store, lambda _q: vec, "certified exact rescoring", mode="hybrid", top_k=5,
                     settings=SearchSettings())
    out.put([h.chunk.chunk_id for h in run])
    store.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_gets_its_own_worker_thread(tmp_path, embedder, paragraphs, monkeypatch):
    """A process forked after a threaded search has none of its parent's worker threads: its own
    search must start a new one, not wait forever on the copied pool."""
    import multiprocessing

    monkeypatch.setattr(search_mod, "_core_free", lambda: True)
    store = _corpus_store(tmp_path, paragraphs)
    vec = embedder.embed_query("certified exact rescoring")
    want = [h.chunk.chunk_id for h in run_search(store, lambda _q: vec, "certified exact rescoring", mode="hybrid",
                                                 top_k=5, settings=SearchSettings())]
    assert search_mod._LEGS is not None  # the parent's pool exists
    store.close()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_search_in_child, args=(tmp_path / "s", vec, out))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert out.get(timeout=5) == want
