"""The fast dense paths give the exact float32 answer: the float16 prefilter with exact rescoring,
the ``allow`` filter, and the memory-mapped vector file of the embedded store (issue 18)."""

from __future__ import annotations

import numpy as np
import pytest

from docstrata.index import dense
from docstrata.index.dense import DenseIndex
from docstrata.errors import StoreError
from docstrata.models import Chunk, FileState
from docstrata.store.base import StoredChunk
from docstrata.store.embedded import EmbeddedStore


def _unit(rng, n, dim=384):
    v = rng.standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _exact(mat, q, k):
    s = mat @ q
    return list(np.argsort(-s, kind="stable")[:k])


def test_float16_prefilter_returns_the_exact_top_k(monkeypatch):
    pytest.importorskip("faiss")
    rng = np.random.default_rng(7)
    mat = _unit(rng, 5000)
    ids = [f"c{i:05d}" for i in range(len(mat))]
    di = DenseIndex(384)
    di.load(ids, mat)
    monkeypatch.setattr(dense, "F16_MIN_ROWS", 1000)
    for q in _unit(rng, 20):
        hits = di.search(q, 10)
        assert di._f16 is not None  # the prefilter ran
        assert [h[0] for h in hits] == [ids[i] for i in _exact(mat, q, 10)]
        # Scores are the exact float32 cosines, not float16 ones.
        assert hits[0][1] == pytest.approx(float(mat[int(hits[0][0][1:])] @ q), abs=1e-6)
    di.remove(ids[_exact(mat, q, 1)[0]])  # a removed chunk is never returned
    assert ids[_exact(mat, q, 1)[0]] not in [h[0] for h in di.search(q, 10)]


def test_allow_keeps_only_the_given_chunks():
    rng = np.random.default_rng(3)
    mat = _unit(rng, 300)
    ids = [f"c{i:03d}" for i in range(300)]
    di = DenseIndex(384)
    di.load(ids, mat)
    allow = set(ids[100:120])
    hits = di.search(mat[5], 5, allowed=allow)
    sub = mat[100:120] @ mat[5]
    assert [h[0] for h in hits] == [ids[100 + i] for i in np.argsort(-sub)[:5]]


def _doc(doc_key, vecs):
    return [StoredChunk(Chunk(chunk_id=f"{doc_key}#{i}", doc_key=doc_key, ordinal=i, content=f"text {doc_key} {i}",
                              section_id=str(i), parent_chain=[], heading_level=1), vecs[i:i + 1])
            for i in range(len(vecs))]


def test_vector_file_is_mapped_on_open_and_follows_writes(tmp_path):
    rng = np.random.default_rng(11)
    a, b = _unit(rng, 50), _unit(rng, 30)
    store = EmbeddedStore(tmp_path / "s", dim=384)
    store.replace_document("a.md", FileState(1, 1, "a"), _doc("a.md", a), [])
    store.flush()
    store.close()
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert isinstance(store._dense_index()._matrix.base, np.memmap)  # mapped, not rebuilt from rows
    assert store.dense_search(a[7], 1)[0][0] == "a.md#7"
    store.replace_document("b.md", FileState(1, 1, "b"), _doc("b.md", b), [])
    store.delete_document("a.md")
    store.flush()
    store.close()
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert store.dense_search(b[3], 1)[0][0] == "b.md#3"
    assert all(not h[0].startswith("a.md") for h in store.dense_search(a[7], 80))
    assert not list((tmp_path / "s").glob("pending-*"))  # the flush merged the pending vectors
    assert store._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0] == 0  # stored once, in the file
    # Writes that were never flushed (a killed ingest): the file plus the pending vectors of the
    # chunks SQLite committed. b.md#3 is rewritten with a's vector, b.md#4.. deleted, c.md is new.
    store.replace_document("c.md", FileState(1, 1, "c"), _doc("c.md", a[:5]), [])
    changed = _doc("b.md", b)
    changed[3] = StoredChunk(Chunk(chunk_id="b.md#3", doc_key="b.md", ordinal=3, content="rewritten", section_id="3",
                                   parent_chain=[], heading_level=1), a[20:21])
    store.replace_document("b.md", FileState(2, 2, "b2"), changed[:4], [])
    store._db.close()
    store._pending_db.close()
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert store.dense_search(a[2], 1)[0][0] == "c.md#2"
    assert store.dense_search(a[20], 1)[0][0] == "b.md#3"
    assert store.dense_search(b[3], 1)[0][0] != "b.md#3"
    assert "b.md#4" not in {c for c, _ in store.dense_search(b[4], 80)}
    assert len(store._dense_index()) == store.count() == 9
    store.flush()
    store.close()
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert isinstance(store._dense_index()._matrix.base, np.memmap)
    assert store.dense_search(a[20], 1)[0][0] == "b.md#3" and len(store._dense_index()) == 9
    store.close()


def test_a_vector_write_that_never_committed_is_ignored(tmp_path):
    """Pending vectors are committed before their chunks' SQLite transaction; when that
    transaction fails, the chunk keeps its old text and its old vector."""
    rng = np.random.default_rng(5)
    a = _unit(rng, 3)
    store = EmbeddedStore(tmp_path / "s", dim=384)
    store.replace_document("a.md", FileState(1, 1, "a"), _doc("a.md", a), [])
    store.flush()
    new = [StoredChunk(Chunk(chunk_id="a.md#0", doc_key="a.md", ordinal=0, content="other text", section_id="0",
                             parent_chain=[], heading_level=1), a[2:3]),
           StoredChunk(Chunk(chunk_id="a.md#1", doc_key="a.md", ordinal=1, content="x", section_id="1",
                             parent_chain=[], heading_level=1), np.zeros((1, 384), dtype=np.float32))]
    with pytest.raises(StoreError):
        store.replace_document("a.md", FileState(2, 2, "a2"), new, [])  # the zero vector is refused
    store._db.close()
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert store.get_chunks(["a.md#0"])[0].content == "text a.md 0"
    assert store.dense_search(a[0], 1)[0][0] == "a.md#0" and len(store._dense_index()) == 3
    store.close()
