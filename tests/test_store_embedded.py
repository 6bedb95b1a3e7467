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


def _rec(cid: str, text: str, seed: int):
    import numpy as np

    from docstrata.models import Chunk
    from docstrata.store.base import StoredChunk

    v = np.random.default_rng(seed).standard_normal((1, 8)).astype(np.float32)
    return StoredChunk(Chunk(chunk_id=cid, doc_key="p.csv", ordinal=seed, content=text, section_id="",
                             parent_chain=[], heading_level=0), v / np.linalg.norm(v), [])


def test_upserts_keep_one_keyword_document_per_chunk(tmp_path):
    """Upserts delete from tantivy only chunks already stored (a queued delete per new chunk grew the
    writer's memory with the file); a chunk rewritten before the commit, or given twice in one call,
    still ends up once, with its last text, and the reopened index passes its health check."""
    root = tmp_path / "idx"
    store = EmbeddedStore(root, dim=8)
    store.upsert_chunks("p.csv", [_rec(f"r{i}", f"plain widget {i}", i) for i in range(6)])
    store.upsert_chunks("p.csv", [_rec("r2", "copper gadget", 20), _rec("r9", "tin kettle", 9),
                                  _rec("r9", "brass kettle", 10)])  # r2 not yet committed to tantivy
    store.flush()
    assert store.count() == store.keyword_size() == 7
    assert [c for c, _ in store.keyword_search("copper gadget", 10)] == ["r2"]
    assert [c for c, _ in store.keyword_search("kettle", 10)] == ["r9"]
    assert store.keyword_search("tin", 10) == [] and store.get_chunks(["r9"])[0].content == "brass kettle"
    assert {c for c, _ in store.keyword_search("widget", 10)} == {"r0", "r1", "r3", "r4", "r5"}
    store.close()
    again = EmbeddedStore(root, dim=8)
    assert again._keyword_healthy(again._keyword) and again.keyword_size() == 7
    again.close()


def test_int8_copy_streamed_from_the_vector_file_is_the_one_built_in_memory(tmp_path):
    """The int8 prefilter copy written at flush is quantised a block at a time from the float32 file
    (memory: one block, not the codes plus the mapped file); its codes file is byte for byte what
    faiss writes for the copy built in memory, its scale and bounds are the same, and it reads back
    with every row and scores within its bound."""
    pytest.importorskip("faiss")
    import numpy as np

    from docstrata.index import dense

    rng = np.random.default_rng(3)
    mat = rng.standard_normal((dense._SLICE + 123, 16)).astype(np.float32)
    mat[5] *= 3.0  # the largest norm
    np.save(tmp_path / "m.npy", mat)
    dense.Int8Prefilter.write_from_file(tmp_path / "m.npy", tmp_path / "streamed.faiss")
    built = dense.Int8Prefilter.build(mat)
    built.write(tmp_path / "built.faiss")
    assert (tmp_path / "streamed.faiss").read_bytes() == (tmp_path / "built.faiss").read_bytes()
    assert np.array_equal(np.load(tmp_path / "streamed.faiss.npy"), np.load(tmp_path / "built.faiss.npy"))
    pre = dense.Int8Prefilter.read(tmp_path / "streamed.faiss", len(mat), 16)
    assert pre is not None and pre.ntotal == len(mat)
    assert pre.row_norm == pytest.approx(float(np.linalg.norm(mat[5])), rel=1e-5)
    q = rng.standard_normal(16).astype(np.float32)
    approx, rows, eps = pre.scan(q, 50)
    exact = mat[rows] @ q
    assert np.all(np.abs(approx - exact) <= eps)


def test_a_loaded_index_answers_a_few_chunks_before_and_after_its_id_map_exists():
    """After ``load_slots`` (how a store opens its vector file) a search restricted to a few chunks
    finds their slots from the ids' hashes, without the id → slot dict (0.4 s at 1M chunks); the
    results equal those once the dict exists (after an add), and unknown ids are left out."""
    import numpy as np

    from docstrata.index.dense import DenseIndex

    rng = np.random.default_rng(5)
    mat = rng.standard_normal((2_000, 8)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    ids = [f"doc{i // 3}.md#{i % 3}" for i in range(1_000)]
    owner = np.repeat(np.arange(1_000, dtype=np.int32), 2)  # two windows a chunk
    q = mat[10]
    di = DenseIndex(8)
    di.load_slots(ids, owner, mat)
    want = ["doc0.md#2", "doc3.md#1", "doc300.md#0", "doc333.md#0"]
    got = di.search(q, 3, allowed=[*want, "not-there", "doc0.md#9"])
    assert di._slot_map is None and len(di) == 1_000  # answered without building the dict
    best = {c: max(float(mat[2 * ids.index(c)] @ q), float(mat[2 * ids.index(c) + 1] @ q)) for c in want}
    assert [c for c, _ in got] == sorted(best, key=lambda c: -best[c])[:3]
    assert dict(got) == pytest.approx({c: best[c] for c, _ in got}, abs=1e-6)
    di.add("new.md#0", rng.standard_normal((1, 8)).astype(np.float32))  # builds the dict
    assert di._slot_map is not None and len(di) == 1_001
    assert di.search(q, 3, allowed=[*want, "not-there", "doc0.md#9"]) == got
    di.remove("doc0.md#2")
    assert "doc0.md#2" not in [c for c, _ in di.search(q, 3, allowed=want)] and len(di) == 1_000


def test_a_lost_vector_file_makes_the_next_ingest_embed_its_documents_again(tmp_path, caplog):
    """With its vector file gone, an index answers keyword searches, has no semantic hits for the lost
    chunks, and forgets those documents' file states, so the next ingest embeds them again."""
    import numpy as np

    from docstrata.models import FileState

    root = tmp_path / "idx"
    store = EmbeddedStore(root, dim=8)
    store.replace_document("p.csv", FileState(1, 1, "p"), [_rec("r0", "copper gadget", 0), _rec("r1", "tin kettle", 1)], [])
    store.flush()
    assert store._dense_index().chunk_ids() == {"r0", "r1"}
    store.close()
    for f in root.glob("vectors-*.npy"):
        f.unlink()
    again = EmbeddedStore(root, dim=8)
    assert "p.csv" in again.file_states()
    with caplog.at_level("WARNING"):
        assert again.dense_search(np.ones(8, dtype=np.float32) / np.sqrt(8), 5) == []
    assert "missing or damaged" in caplog.text and "p.csv" not in again.file_states()
    assert [c for c, _ in again.keyword_search("kettle", 5)] == ["r1"]
    again.close()


def test_an_index_written_before_definition_scopes_reads_them_as_document_scope(tmp_path):
    """An index whose definitions table lacks the scope columns (written by an earlier release)
    opens (the columns are added): its definitions read scope None (the whole document), new ones
    keep theirs."""
    import sqlite3

    from docstrata.models import DefinitionEntry, FileState

    root = tmp_path / ".docstrata" / "docs"
    store = EmbeddedStore(root, dim=8)
    store.replace_document("a.md", FileState(1, 1, "a"), [_rec("a.md#0", "old text", 1)],
                           [DefinitionEntry("Secretary", "means the Secretary of Labor.", "a.md", "3", "a.md#0")])
    store.close()
    db = sqlite3.connect(root / "index.sqlite")
    db.execute("ALTER TABLE definitions DROP COLUMN scope_label")
    db.execute("ALTER TABLE definitions DROP COLUMN scope")
    db.commit()
    db.close()
    store = EmbeddedStore(root, dim=8)
    (old,) = store.definitions()
    assert (old.term, old.scope, old.scope_label) == ("Secretary", None, None)
    store.replace_document("b.md", FileState(1, 1, "b"), [_rec("b.md#0", "new text", 2)],
                           [DefinitionEntry("Secretary", "means the Secretary of Energy.", "b.md", "1", "b.md#0",
                                            scope="title-i", scope_label="Title I")])
    assert [(d.doc_key, d.scope, d.scope_label) for d in store.definitions()] == [("a.md", None, None),
                                                                               ("b.md", "title-i", "Title I")]
    store.close()


def test_long_chunk_texts_are_stored_as_standard_zlib_streams(tmp_path):
    """A long chunk's text is kept compressed in ``chunks.body`` in the zlib format, whichever deflate
    wrote it (ISA-L when installed), so the standard library reads it back, as earlier releases did."""
    import sqlite3
    import zlib

    from docstrata.models import FileState

    text = "The Tenant shall pay the rent on the first day of each month by bank transfer. " * 8
    store = EmbeddedStore(tmp_path / "idx", dim=8)
    store.replace_document("p.md", FileState(1, 1, "p"), [_rec("p.md#0", text, 0)], [])
    store.close()
    (body,) = sqlite3.connect(tmp_path / "idx" / "index.sqlite").execute("SELECT body FROM chunks").fetchone()
    assert body is not None and len(body) < len(text) and zlib.decompress(body).decode() == text
    again = EmbeddedStore(tmp_path / "idx", dim=8)
    assert again.get_chunks(["p.md#0"])[0].content == text
    again.close()
