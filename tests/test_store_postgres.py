"""The Store conformance suite on PostgreSQL + pgvector, against a real server the suite starts
(``tests/pg_server.py``), plus what only a server store can get wrong: the connection."""

from __future__ import annotations

import uuid

import pytest

from docstrata.errors import StoreError

from .pg_server import pg_dsn  # noqa: F401 - session fixture
pytest.register_assert_rewrite("tests.store_conformance")
from .store_conformance import StoreConformance  # noqa: E402

pytestmark = pytest.mark.postgres


@pytest.fixture()
def make_pg_store(pg_dsn):  # noqa: F811
    from docstrata.store.postgres import PostgresStore

    prefix = "t" + uuid.uuid4().hex[:8]
    opened: list[PostgresStore] = []

    def make(tool: str = "conformance", dim: int = 384) -> PostgresStore:
        store = PostgresStore(pg_dsn, tool=f"{prefix}_{tool}", dim=dim)
        opened.append(store)
        return store

    yield make
    for store in opened:
        if not store._conn.closed:
            store.drop()
            store.close()


class TestPostgresStore(StoreConformance):
    @pytest.fixture()
    def make_store(self, make_pg_store):
        return make_pg_store


def test_unreachable_server_is_a_store_error_not_a_fallback():
    from docstrata.store.postgres import PostgresStore

    with pytest.raises(StoreError) as err:
        PostgresStore("postgresql://docstrata:s3cret@127.0.0.1:1/nowhere", tool="t", dim=384)
    assert err.value.backend == "postgres"
    assert "127.0.0.1" in str(err.value) and "refused" in str(err.value).lower()
    assert "s3cret" not in str(err.value)


def test_open_store_dispatches_to_postgres(pg_dsn, tmp_path):  # noqa: F811
    from docstrata.config import DatabaseConfig
    from docstrata.store import open_store

    store = open_store(DatabaseConfig(provider="postgres", dsn=pg_dsn), "dispatch-" + uuid.uuid4().hex[:6], tmp_path, 4)
    try:
        assert type(store).__name__ == "PostgresStore" and store.schema.startswith("docstrata_dispatch_")
        assert list(tmp_path.iterdir()) == []
    finally:
        store.drop()
        store.close()


def test_tool_names_that_fold_alike_get_separate_schemas():
    from docstrata.store.postgres import schema_name

    assert schema_name("policies") == "docstrata_policies"
    assert schema_name("Policies") != schema_name("policies") != schema_name("po-licies")


def test_the_tool_on_postgres_finds_what_the_embedded_tool_finds(pg_dsn, tmp_path):  # noqa: F811
    from .store_conformance import tool_search_results

    embedded, counts = tool_search_results(tmp_path, "")
    on_pg, pg_counts = tool_search_results(tmp_path, f'    database: {{provider: postgres, dsn: "{pg_dsn}"}}\n')
    try:
        assert counts[0] > 0 and pg_counts == counts and pg_counts[2] == pg_counts[1]
        assert on_pg == embedded
    finally:
        from docstrata.store.postgres import PostgresStore

        store = PostgresStore(pg_dsn, tool="policies", dim=384)
        store.drop()
        store.close()


def _record_chunk(cid: str, text: str):
    import numpy as np

    from docstrata.models import Chunk
    from docstrata.store.base import StoredChunk

    vec = np.random.default_rng(len(text)).standard_normal((1, 384)).astype(np.float32)
    chunk = Chunk(chunk_id=cid, doc_key="big.jsonl", ordinal=0, content=text, section_id="", parent_chain=[],
                  heading_level=0, metadata={})
    return StoredChunk(chunk, vec / np.linalg.norm(vec), [])


def test_term_pairs_take_their_first_tokens_position():
    from docstrata.store.postgres import tsvector_literal

    assert tsvector_literal(["a", "b", "a", "b"]) == "'a':1,3 'b':2,4 'a→b':1,3 'b→a':2"


def test_a_text_too_big_for_a_tsvector_with_its_pairs_is_stored_without_them(make_pg_store):
    from docstrata.models import FileState
    from docstrata.store.postgres import tsvector_literal

    import random

    rng = random.Random(0)
    words = [f"w{i}q" for i in range(6007)] + [f"w{rng.randrange(6007)}q" for _ in range(58_000)]
    # ~64k distinct pairs: under 1 MB of lexeme text, but with their positions past PostgreSQL's 1 MB
    literal = tsvector_literal(words)
    assert "→" not in literal and literal.count(":") == 6007  # every word kept, no pair
    store = make_pg_store()
    big, small = " ".join(words), "the quokka eats marmalade"
    store.replace_document("big.jsonl", FileState(1, 1, "x"),
                           [_record_chunk("big", big), _record_chunk("small", small)], [])
    store.flush()
    assert [c for c, _ in store.keyword_search("w5q", 5)] == ["big"]
    assert [c for c, _ in store.keyword_search("quokka marmalade", 5)] == ["small"]


def test_a_query_with_thousands_of_terms_is_answered(make_pg_store):
    from docstrata.models import FileState

    store = make_pg_store()
    store.replace_document("d.jsonl", FileState(1, 1, "x"), [_record_chunk("r1", "quokka marmalade")], [])
    store.flush()
    query = " ".join(f"term{i}" for i in range(1800)) + " quokka"  # ~3,600 weighted terms with pairs
    assert [c for c, _ in store.keyword_search(query, 5)] == ["r1"]
