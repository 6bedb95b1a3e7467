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


_SECOND_PROCESS = """
import sys
from pathlib import Path
import numpy as np
from docstrata.models import Chunk, FileState
from docstrata.store.base import StoredChunk
from docstrata.store.chroma import ChromaStore

root, action = Path(sys.argv[1]), sys.argv[2]
v = np.random.default_rng(3).standard_normal((40, 16)).astype(np.float32)
v /= np.linalg.norm(v, axis=1, keepdims=True)
store = ChromaStore(root, dim=16, tool="t")
if action == "add":
    chunks = [StoredChunk(Chunk(chunk_id=f"b#{i}", doc_key="b", ordinal=i, content=f"row {i}", section_id="",
                                parent_chain=[], heading_level=0), v[i:i + 1]) for i in range(20, 40)]
    store.replace_document("b", FileState(1, 1, "b"), chunks, [])
else:
    store.delete_document("a")
store.flush()
store.close()
"""


@pytest.mark.slow  # two child processes importing chromadb: ~20 s on the shared machine
def test_a_second_process_writes_are_seen_by_an_open_embedded_chroma_store(tmp_path, monkeypatch):
    """Two processes on one embedded Chroma folder (an MCP server searching while `docstrata ingest`
    runs): the open store sees the other's added and deleted chunks at its next search, through
    Chroma's own files (chromadb 1.x reads them per query), with no rebuild of the collection."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import docstrata.store.chroma as chroma_mod
    from docstrata.models import Chunk, FileState
    from docstrata.store.base import StoredChunk

    root = tmp_path / ".docstrata" / "t"
    v = np.random.default_rng(3).standard_normal((40, 16)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    store = ChromaStore(root, dim=16, tool="t")
    store.replace_document("a", FileState(1, 1, "a"), [
        StoredChunk(Chunk(chunk_id=f"a#{i}", doc_key="a", ordinal=i, content=f"row {i}", section_id="",
                          parent_chain=[], heading_level=0), v[i:i + 1]) for i in range(20)], [])
    store.flush()
    assert store.dense_search(v[3], 1)[0][0] == "a#3"
    rebuilds = []
    real_load = chroma_mod.ChromaDenseIndex.load
    monkeypatch.setattr(chroma_mod.ChromaDenseIndex, "load", lambda self, ids, m: rebuilds.append(len(ids))
                        or real_load(self, ids, m))
    env = {**os.environ, "PYTHONPATH": str(Path(chroma_mod.__file__).parents[2])}
    for action in ("add", "delete"):
        done = subprocess.run([sys.executable, "-c", _SECOND_PROCESS, str(root), action], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        if action == "add":
            hit = store.dense_search(v[30], 1)[0]
            assert hit[0] == "b#30" and hit[1] == pytest.approx(1.0, abs=1e-5)
        else:
            hits = store.dense_search(v[3], 40)
            assert hits and not [c for c, _ in hits if c.startswith("a#")]
            assert {c for c, _ in hits} == {f"b#{i}" for i in range(20, 40)}
    assert rebuilds == []  # Chroma's own files carried the other process's writes
    store.close()
