"""The Store conformance suite on ChromaDB (dense leg in Chroma's embedded client, BM25 and exact
legs beside it), persistent and in memory; plus Chroma being rebuilt when it lags SQLite."""

from __future__ import annotations

import socket

import numpy as np
import pytest

pytest.importorskip("chromadb", reason="needs the 'chroma' extra")

from docstrata.store.chroma import ChromaStore  # noqa: E402

pytest.register_assert_rewrite("tests.store_conformance")
from .store_conformance import DIM, StoreConformance, corpus, load  # noqa: E402
from . import test_store_embedded  # noqa: E402
from .chroma_server import chroma_server_url  # noqa: E402,F401 - session fixture


def _closer(opened):
    for store in opened:
        try:
            store.close()
        except Exception:  # noqa: BLE001 - already closed by the test
            pass


class TestChromaStore(StoreConformance):
    bm25_rel_tolerance = test_store_embedded.TestEmbeddedStore.bm25_rel_tolerance

    @pytest.fixture()
    def make_store(self, tmp_path):
        opened: list[ChromaStore] = []

        def make(tool: str = "conformance", dim: int = 384) -> ChromaStore:
            store = ChromaStore(tmp_path / ".docstrata" / tool, dim=dim, tool=tool)
            opened.append(store)
            return store

        yield make
        _closer(opened)


@pytest.mark.slow  # the same suite against a Chroma server (HoloDeck's connection_string: http://host:port)
class TestChromaServer(StoreConformance):
    bm25_rel_tolerance = test_store_embedded.TestEmbeddedStore.bm25_rel_tolerance

    @pytest.fixture()
    def make_store(self, tmp_path, chroma_server_url):
        opened: list[ChromaStore] = []

        def make(tool: str = "conformance", dim: int = 384) -> ChromaStore:
            store = ChromaStore(tmp_path / ".docstrata" / tool, dim=dim, tool=f"{tool}-{tmp_path.name}",
                                server_url=chroma_server_url)
            opened.append(store)
            return store

        yield make
        _closer(opened)


def test_chroma_server_unreachable_names_the_url(tmp_path):
    from docstrata.errors import StoreError

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StoreError) as err:
        ChromaStore(tmp_path / "t", dim=4, tool="t", server_url=f"http://127.0.0.1:{port}")
    assert f"http://127.0.0.1:{port}" in str(err.value) and "chroma run" in str(err.value)


@pytest.mark.slow  # the same suite again on another index kind; the default run covers one
class TestChromaInMemory(StoreConformance):
    persistent = False
    bm25_rel_tolerance = test_store_embedded.TestEmbeddedStore.bm25_rel_tolerance

    @pytest.fixture()
    def make_store(self, tmp_path):
        opened: list[ChromaStore] = []

        def make(tool: str = "conformance", dim: int = 384) -> ChromaStore:
            store = ChromaStore(None, dim=dim, tool=tool)
            opened.append(store)
            return store

        yield make
        _closer(opened)
        assert list(tmp_path.iterdir()) == []


def test_chroma_lagging_sqlite_is_rebuilt_on_open(tmp_path, embedder):
    docs = corpus(embedder)
    store = ChromaStore(tmp_path / "t", dim=DIM, tool="t")
    load(store, docs)
    q = embedder.embed_query("report a lost laptop")
    want = store.dense_search(q, 3)
    store.close()
    # A crash after SQLite committed and before Chroma caught up: the generation marker disagrees.
    (tmp_path / "t" / "chroma" / "docstrata_generation-t").write_text("0")
    again = ChromaStore(tmp_path / "t", dim=DIM, tool="t")
    assert [c for c, _ in again.dense_search(q, 3)] == [c for c, _ in want]
    assert again._dense.collection.count() == again._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
    np.testing.assert_allclose([s for _, s in again.dense_search(q, 3)], [s for _, s in want], atol=1e-5)
    again.close()
