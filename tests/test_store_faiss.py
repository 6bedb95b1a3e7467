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
