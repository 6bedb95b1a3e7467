"""The Store conformance suite on Qdrant, with qdrant-client's local mode on disk and in memory."""

from __future__ import annotations

import pytest

from docstrata.errors import StoreError
from docstrata.store.qdrant import AVGDL_META

pytest.register_assert_rewrite("tests.store_conformance")
from .store_conformance import StoreConformance, load  # noqa: E402

pytest.importorskip("qdrant_client", reason="qdrant-client is not installed (pip install 'docstrata[qdrant]')")


class TestQdrantLocalStore(StoreConformance):
    bm25_avgdl_meta = AVGDL_META

    @pytest.fixture()
    def make_store(self, tmp_path):
        from docstrata.store.qdrant import QdrantStore

        opened: list[QdrantStore] = []

        def make(tool: str = "conformance", dim: int = 384) -> QdrantStore:
            store = QdrantStore(path=str(tmp_path / "qdrant"), tool=tool, dim=dim)
            opened.append(store)
            return store

        yield make
        for store in opened:
            store.close()

    def test_a_mean_length_kept_by_an_older_analysis_is_not_reused(self, make_store, docs):
        old = make_store("upgraded")
        old.set_meta("bm25_avgdl", "40.0")  # the key an index built before term pairs kept its mean under
        old.close()
        upgraded, fresh = make_store("upgraded"), make_store("fresh")
        load(upgraded, docs)
        load(fresh, docs)
        assert upgraded.keyword_search("rent payment", 5) == fresh.keyword_search("rent payment", 5)


class TestQdrantMemoryStore(StoreConformance):
    persistent = False
    bm25_avgdl_meta = AVGDL_META

    @pytest.fixture()
    def make_store(self):
        from docstrata.store.qdrant import QdrantStore

        opened: list[QdrantStore] = []

        def make(tool: str = "conformance", dim: int = 384) -> QdrantStore:
            store = QdrantStore(path=":memory:", tool=tool, dim=dim)
            opened.append(store)
            return store

        yield make
        for store in opened:
            store.close()


def test_unreachable_server_is_a_store_error():
    from docstrata.store.qdrant import QdrantStore

    with pytest.raises(StoreError) as err:
        QdrantStore(url="http://127.0.0.1:1", tool="t", dim=384)
    assert err.value.backend == "qdrant" and "127.0.0.1:1" in str(err.value)


def test_missing_api_key_variable_is_named(monkeypatch):
    from docstrata.store.qdrant import QdrantStore

    monkeypatch.delenv("DOCSTRATA_TEST_QDRANT_KEY", raising=False)
    with pytest.raises(StoreError, match="DOCSTRATA_TEST_QDRANT_KEY"):
        QdrantStore(url="http://127.0.0.1:1", tool="t", dim=384, api_key_env="DOCSTRATA_TEST_QDRANT_KEY")


def test_hybrid_search_fuses_dense_and_bm25_in_qdrant(embedder):
    from docstrata.store.qdrant import QdrantStore

    from .store_conformance import corpus, load

    store = QdrantStore(path=":memory:", tool="hybrid", dim=384)
    try:
        load(store, corpus(embedder))
        q = embedder.embed_query("lost laptop")
        hits = store.hybrid_search(q, "laptops encryption", 3)
        assert hits[0][0] == "handbook/security.md#1"
        assert len(hits) == 3 and hits == sorted(hits, key=lambda h: (-h[1], h[0]))
    finally:
        store.close()


def test_the_tool_on_qdrant_finds_what_the_embedded_tool_finds(tmp_path):
    from .store_conformance import tool_search_results

    embedded, counts = tool_search_results(tmp_path, "")
    on_qdrant, q_counts = tool_search_results(tmp_path, "    database: {provider: qdrant, path: .qdrant}\n")
    assert counts[0] > 0 and q_counts == counts and q_counts[2] == q_counts[1]
    assert on_qdrant == embedded
    assert (tmp_path / ".qdrant").is_dir()
