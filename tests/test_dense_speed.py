"""The fast dense paths give the exact float32 answer: the int8 prefilter with exact rescoring,
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


@pytest.mark.parametrize("split", [False, True])
def test_int8_prefilter_returns_the_exact_top_k(monkeypatch, split):
    pytest.importorskip("faiss")
    if split:  # the scan in row ranges on two threads gives the same answer
        monkeypatch.setattr(dense, "SPLIT_MIN_ROWS", 1000)
    rng = np.random.default_rng(7)
    mat = _unit(rng, 5000)
    ids = [f"c{i:05d}" for i in range(len(mat))]
    di = DenseIndex(384)
    di.load(ids, mat)
    monkeypatch.setattr(dense, "PREFILTER_MIN_ROWS", 1000)
    for q in _unit(rng, 20):
        hits = di.search(q, 10)
        assert di._pre is not None  # the prefilter ran
        assert [h[0] for h in hits] == [ids[i] for i in _exact(mat, q, 10)]
        # Scores are the exact float32 cosines, not int8 ones.
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


def _store_with(tmp_path, mats):
    store = EmbeddedStore(tmp_path / "s", dim=384)
    for n, mat in enumerate(mats):
        store.replace_document(f"d{n}.md", FileState(1, 1, str(n)), _doc(f"d{n}.md", mat), [])
    store.flush()
    return store


def _exact_ids(store, mat_ids, mat, q, k):
    return [mat_ids[i] for i in _exact(mat, q, k)]


def test_certified_prefilter_grows_its_depth_when_rows_nearly_tie(monkeypatch):
    """Near-duplicate rows put hundreds of int8 scores within the rounding margin of the k-th:
    the depth must grow until the top k is provably the float32 one."""
    pytest.importorskip("faiss")
    rng = np.random.default_rng(5)
    base = _unit(rng, 1)[0]
    mat = base + 2e-4 * rng.standard_normal((3000, 384)).astype(np.float32)  # cosines within ~1e-3
    mat = np.concatenate([mat, _unit(rng, 3000)]).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    ids = [f"c{i:05d}" for i in range(len(mat))]
    monkeypatch.setattr(dense, "PREFILTER_MIN_ROWS", 1000)
    di = DenseIndex(384)
    di.load(ids, mat)
    depths = []
    di.search(base, 1)
    scan = di._pre.scan
    di._pre.scan = lambda q, k: (depths.append(k), scan(q, k))[1]
    di._depth_ratio = 0.0  # forget the depth the warm-up query needed
    hits = di.search(base, 50)
    assert len(depths) > 1  # the first depth could not be certified
    # The exact top 50 (rows this close differ only by float32 rounding, so compare in float64).
    exact = mat.astype(np.float64) @ base.astype(np.float64)
    got = [int(h[0][1:]) for h in hits]
    assert len(set(got)) == 50 and exact[got].min() >= np.sort(exact)[-51] - 1e-6
    assert all(abs(s - exact[int(c[1:])]) < 1e-6 for c, s in hits)
    # Without the margin, the same depth would have missed rows of the exact top 50.
    _, first, _ = scan(base, depths[0])
    assert len(set(first.tolist()) & set(np.argsort(-exact)[:50].tolist())) < 50 or depths[0] >= len(mat)


def test_subset_search_reads_only_the_named_chunks_rows_and_is_exact():
    rng = np.random.default_rng(9)
    mat = _unit(rng, 4000)
    ids = [f"c{i // 2:04d}" for i in range(len(mat))]  # two windows per chunk
    di = DenseIndex(384)
    di.load(ids, mat)
    di.remove("c0003")
    q = _unit(rng, 1)[0]
    allow = {"c0001", "c0003", "c0700", "c1999", "missing"}
    hits = di.search(q, 10, allowed=allow)
    want = {}
    for i, cid in enumerate(ids):
        if cid in allow - {"c0003"}:
            want[cid] = max(want.get(cid, -2.0), float(mat[i] @ q))
    assert [h[0] for h in hits] == sorted(want, key=lambda c: -want[c])
    assert all(abs(s - want[c]) < 1e-6 for c, s in hits)
    # Rows not in chunk order (loaded from a foreign map) are found through a sorted view.
    di2 = DenseIndex(384)
    owner = np.array([1, 0, 1, 2, 0], dtype=np.int64)
    di2.load_slots(["a", "b", "c"], owner, mat[:5])
    got = dict(di2.search(q, 3, allowed={"a", "b"}))
    assert got == pytest.approx({"a": max(mat[1] @ q, mat[4] @ q), "b": max(mat[0] @ q, mat[2] @ q)}, abs=1e-6)


def test_int8_copy_is_written_at_flush_and_mapped_by_a_fresh_process(tmp_path, monkeypatch):
    """The prefilter's int8 copy is persisted beside the vector file; another process maps it
    (it never quantises the matrix) and answers exactly; a torn copy is ignored, never trusted."""
    pytest.importorskip("faiss")
    import subprocess
    import sys

    monkeypatch.setattr(dense, "PREFILTER_MIN_ROWS", 1000)
    monkeypatch.setattr(dense, "PERSIST_MIN_ROWS", 1000)
    rng = np.random.default_rng(21)
    mats = [_unit(rng, 700), _unit(rng, 700)]
    store = _store_with(tmp_path, mats)
    store.close()
    i8 = sorted((tmp_path / "s").glob("vectors-*.i8.faiss"))
    assert len(i8) == 1 and (tmp_path / "s" / (i8[0].name + ".npy")).exists()
    q = _unit(rng, 1)[0]
    np.save(tmp_path / "q.npy", q)
    allids = [f"d{n}.md#{i}" for n, m in enumerate(mats) for i in range(len(m))]
    want = _exact_ids(None, allids, np.concatenate(mats), q, 10)
    code = f"""
import json, numpy as np
from docstrata.index import dense
dense.PREFILTER_MIN_ROWS = dense.PERSIST_MIN_ROWS = 1000
def refuse(*a):
    raise AssertionError("the int8 copy was rebuilt instead of mapped")
dense.Int8Prefilter.build = refuse
from docstrata.store.embedded import EmbeddedStore
s = EmbeddedStore({str(tmp_path / 's')!r}, dim=384)
print(json.dumps([c for c, _ in s.dense_search(np.load({str(tmp_path / 'q.npy')!r}), 10)]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    import json

    assert json.loads(out.stdout) == want
    # A torn copy (a crash mid-write of a foreign tool, a full disk) is not used: the search rebuilds it.
    i8[0].write_bytes(i8[0].read_bytes()[:1000])
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert [c for c, _ in store.dense_search(q, 10)] == want
    store.close()


def test_int8_copy_below_the_persist_size_is_built_not_stored(tmp_path, monkeypatch):
    """Below ``PERSIST_MIN_ROWS`` the int8 copy is not written to disk (it would cost 1 byte × dim
    per row); the prefilter still runs, built at the first search, and stays exact."""
    pytest.importorskip("faiss")
    monkeypatch.setattr(dense, "PREFILTER_MIN_ROWS", 1000)
    monkeypatch.setattr(dense, "PERSIST_MIN_ROWS", 10_000)
    rng = np.random.default_rng(22)
    mats = [_unit(rng, 700), _unit(rng, 700)]
    store = _store_with(tmp_path, mats)
    store.close()
    assert not list((tmp_path / "s").glob("vectors-*.i8.faiss*"))
    q = _unit(rng, 1)[0]
    allids = [f"d{n}.md#{i}" for n, m in enumerate(mats) for i in range(len(m))]
    store = EmbeddedStore(tmp_path / "s", dim=384)
    assert [c for c, _ in store.dense_search(q, 10)] == _exact_ids(None, allids, np.concatenate(mats), q, 10)
    assert store._dense_index()._pre is not None  # the prefilter ran
    store.close()
