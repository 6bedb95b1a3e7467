"""The Store conformance suite on the FAISS store (dense leg in FAISS; exact flat index and the
HNSW one forced on the small corpus), plus the index switching from flat to HNSW as it grows."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("faiss", reason="needs the 'faiss' extra")

from docstrata.index.ann import FaissDenseIndex  # noqa: E402
from docstrata.store.faiss_store import FaissStore  # noqa: E402

pytest.register_assert_rewrite("tests.store_conformance")
from .store_conformance import StoreConformance  # noqa: E402
from . import test_store_embedded  # noqa: E402


class TestFaissStore(StoreConformance):
    bm25_rel_tolerance = test_store_embedded.TestEmbeddedStore.bm25_rel_tolerance
    index = "auto"

    @pytest.fixture()
    def make_store(self, tmp_path):
        opened: list[FaissStore] = []

        def make(tool: str = "conformance", dim: int = 384) -> FaissStore:
            store = FaissStore(tmp_path / ".docstrata" / tool, dim=dim, index=self.index)
            opened.append(store)
            return store

        yield make
        for store in opened:
            try:
                store.close()
            except Exception:  # noqa: BLE001 - already closed by the test
                pass


@pytest.mark.slow  # the same suite again on another index kind; the default run covers one
class TestFaissHnswStore(TestFaissStore):
    index = "hnsw"


def test_auto_index_is_flat_when_small_hnsw_when_large_and_keeps_up_with_changes(monkeypatch):
    import docstrata.index.ann as ann

    monkeypatch.setattr(ann, "ANN_THRESHOLD", 300)
    rng = np.random.default_rng(3)
    vecs = rng.standard_normal((400, 32)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    index = FaissDenseIndex(32)
    for i in range(200):
        index.add(f"c{i:03d}", vecs[i:i + 1])
    assert index.search(vecs[5], 1)[0][0] == "c005" and index._index_kind == "flat"
    for i in range(200, 400):
        index.add(f"c{i:03d}", vecs[i:i + 1])
    hits = index.search(vecs[350], 3)
    assert hits[0][0] == "c350" and hits[0][1] == pytest.approx(1.0, abs=1e-5) and index._index_kind == "hnsw"
    for i in range(0, 150):  # removing over a quarter compacts the rows: the FAISS index is rebuilt
        index.remove(f"c{i:03d}")
    assert index.search(vecs[10], 5)[0][0] != "c010"
    assert index.search(vecs[390], 1)[0][0] == "c390" and len(index) == 250


def test_ivf_index_finds_the_nearest_rows_and_survives_removals():
    rng = np.random.default_rng(5)
    vecs = rng.standard_normal((2000, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    index = FaissDenseIndex(16, "ivf")
    index.load([f"c{i:04d}" for i in range(2000)], vecs)
    hits = [index.search(vecs[i], 1)[0][0] for i in range(0, 2000, 50)]
    assert index._index_kind == "ivf" and hits == [f"c{i:04d}" for i in range(0, 2000, 50)]
    index.remove("c0000")
    assert index.search(vecs[0], 1)[0][0] != "c0000"


def _unit_rows(n: int, dim: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _write(store, doc_key: str, vecs: np.ndarray, start: int = 0) -> None:
    from docstrata.models import Chunk, FileState
    from docstrata.store.base import StoredChunk

    chunks = [StoredChunk(Chunk(chunk_id=f"{doc_key}#{start + i}", doc_key=doc_key, ordinal=start + i,
                                content=f"row {start + i}", section_id="", parent_chain=[], heading_level=0),
                          vecs[i:i + 1]) for i in range(len(vecs))]
    store.replace_document(doc_key, FileState(1, 1, doc_key), chunks, [])
    store.flush()


def test_hnsw_index_is_saved_beside_the_store_read_by_the_next_process_and_replaced_on_change(tmp_path,
                                                                                               monkeypatch):
    root = tmp_path / ".docstrata" / "t"
    vecs = _unit_rows(300, 32, 11)
    writer = FaissStore(root, dim=32, index="hnsw")
    _write(writer, "a", vecs[:200])
    assert writer.dense_search(vecs[7], 1)[0][0] == "a#7"  # the first search builds HNSW and saves it
    saved = writer.faiss_path("hnsw")
    assert saved.is_file() and saved.name == f"vectors-{writer._generation}.hnsw.faiss"
    writer.close()

    builds = []
    monkeypatch.setattr(FaissDenseIndex, "_build", lambda self: builds.append(1) or pytest.fail("rebuilt"))
    reader = FaissStore(root, dim=32, index="hnsw")  # another process: reads the file, builds nothing
    hits = reader.dense_search(vecs[42], 3)
    assert hits[0][0] == "a#42" and hits[0][1] == pytest.approx(1.0, abs=1e-5) and not builds
    assert reader._dense.built_kind == "hnsw"

    monkeypatch.undo()
    writer = FaissStore(root, dim=32, index="hnsw")  # a second process adds rows: a new generation
    writer.dense_search(vecs[0], 1)
    _write(writer, "b", vecs[200:], start=200)
    new = writer.faiss_path("hnsw")
    assert new != saved and new.is_file() and not saved.exists()  # the old generation's file is gone
    assert reader.dense_search(vecs[250], 1)[0][0] == "b#250"  # the reader sees the other process's rows
    writer.close()
    reader.close()


def test_a_saved_index_that_does_not_fit_the_rows_is_ignored(tmp_path):
    root = tmp_path / ".docstrata" / "t"
    vecs = _unit_rows(120, 16, 12)
    store = FaissStore(root, dim=16, index="hnsw")
    _write(store, "a", vecs[:100])
    store.dense_search(vecs[0], 1)
    path = store.faiss_path("hnsw")
    store.close()
    other = FaissDenseIndex(16, "hnsw")  # an index over other rows, under this generation's name
    other.load([f"x#{i}" for i in range(20)], vecs[100:])
    other.search(vecs[100], 1)
    other.write_index(path)
    reopened = FaissStore(root, dim=16, index="hnsw")
    assert reopened.dense_search(vecs[5], 1)[0][0] == "a#5"  # 20 rows in the file, 100 loaded: rebuilt
    reopened.close()
