"""The Store conformance suite on the embedded store (SQLite + tantivy + numpy) and in memory."""

from __future__ import annotations

import pytest

from docstrata.store.embedded import EmbeddedStore

pytest.register_assert_rewrite("tests.store_conformance")
from .store_conformance import StoreConformance  # noqa: E402


class TestEmbeddedStore(StoreConformance):
    # tantivy keeps each document's length in one byte, exact up to 40 terms and rounded above
    # (a chunk's tokens plus its term pairs pass 40 here), so its BM25 scores are within ~3 %.
    bm25_rel_tolerance = 0.03

    @pytest.fixture()
    def make_store(self, tmp_path):
        opened: list[EmbeddedStore] = []

        def make(tool: str = "conformance", dim: int = 384) -> EmbeddedStore:
            store = EmbeddedStore(tmp_path / ".docstrata" / tool, dim=dim)
            opened.append(store)
            return store

        yield make
        for store in opened:
            try:
                store.close()
            except Exception:  # noqa: BLE001 - already closed by the test
                pass


class TestInMemoryStore(StoreConformance):
    persistent = False
    bm25_rel_tolerance = TestEmbeddedStore.bm25_rel_tolerance

    @pytest.fixture()
    def make_store(self, tmp_path):
        def make(tool: str = "conformance", dim: int = 384) -> EmbeddedStore:
            return EmbeddedStore(None, dim=dim)

        yield make
        assert list(tmp_path.iterdir()) == []  # nothing written to disk
