"""The Store conformance suite: every backend must pass it unchanged (DESIGN §2 ``store/``).

A backend's test module subclasses :class:`StoreConformance` and supplies one fixture,
``make_store``: a factory ``make_store(tool="conformance", dim=384) -> Store`` that opens (or
reopens) the index of ``tool`` in one fresh database per test, and closes what it opened at
teardown. Class attributes say what the backend promises beyond the protocol:

* ``persistent``: a closed store reopens with its data (not for in-memory stores).
* ``bm25_avgdl_meta``: the meta key under which the store keeps BM25's mean document length
  fixed (Qdrant's stored sparse weights); the reference BM25 then uses it.

The corpus is small real text embedded by the real all-MiniLM-L6-v2 model. Searches are
checked against references computed here (cosine of the best window; Okapi BM25 with Lucene's
idf over :func:`~docstrata.index.keyword.index_terms`) and against the embedded store, so every
backend returns the same ids in the same order, ties broken by chunk id.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from docstrata.errors import StoreError
from docstrata.index.exact import alias_keys, term_key, value_key
from docstrata.index.keyword import index_terms, query_terms
from docstrata.models import Chunk, DefinitionEntry, DocumentEntry, FileState, sha256_text
from docstrata.store.base import (ChunkFilter, MetaCondition, StoredChunk, clear_document_entry, read_document_entry,
                                  write_document_entry)

DIM = 384
K1, B = 1.2, 0.75

# (doc_key, section_id, context, content, aliases, defined terms, extra exact keys (key, priority))
_DOCS = {
    "contracts/lease.md": [
        ("1", "Lease Agreement > 1 Definitions",
         '"Landlord" means the owner of the premises. "Tenant" means the person renting the premises.',
         ["Section 1"], ["Landlord", "Tenant"], []),
        ("4.2", "Lease Agreement > 4 Rent > 4.2 Payment",
         "The Tenant shall pay the rent on the first day of each month by bank transfer. "
         "Late payment incurs a fee of five percent.", ["Section 4.2"], [], []),
        ("203(a)(1)", "Lease Agreement > 203(a)(1) Notices",
         "Notices under Section 203(a)(1) must be given in writing to the Landlord at least thirty days "
         "before termination.", ["Section 203(a)(1)"], [], []),
    ],
    "handbook/security.md": [
        ("passwords", "Security Handbook > Passwords",
         "Passwords must be rotated every ninety days and must never be shared with colleagues.",
         [], [], [("term:password", 0)]),
        ("devices", "Security Handbook > Devices",
         "Laptops must use full disk encryption; report lost or stolen laptops to the security team at once.",
         [], [], []),
        ("visitors", "Security Handbook > Visitors",
         "Visitors sign in at reception and wear a visitor badge at all times.", [], [], []),
    ],
    # Two documents with identical text: every search must order them by chunk id.
    "faq/a.md": [("reset", "FAQ > Passwords", "How do I reset my password? Use the self-service portal.",
                  [], [], [("term:password", 1)])],
    "faq/b.md": [("reset", "FAQ > Passwords", "How do I reset my password? Use the self-service portal.",
                  [], [], [("term:password", 1)])],
}
# The devices chunk is stored as two windows; its second window is the one about laptops.
_FILLER_WINDOW = "The cafeteria serves lunch between noon and two o'clock."

DENSE_QUERIES = ["what happens if I lose my laptop", "when is the rent due", "how do I change my password",
                 "guests at the front desk"]
KEYWORD_QUERIES = ["rent payment", "password", "laptops encryption lost", "Section 203(a)(1) notices",
                   "landlord premises", "badge reception visitor", "nothing-matches-this zyzzyva"]
PHRASES = ["bank transfer", "transfer bank", "203(a)(1)", "must never be shared", "self-service portal"]

_corpus_cache: dict[str, list[tuple[StoredChunk, list[DefinitionEntry]]]] = {}
PAGES = [("i", "ii", "printed"), ("1", "2", "printed"), ("2", "3", "printed")]  # lease.md chunk pages


def corpus(embedder) -> dict[str, tuple[list[StoredChunk], list[DefinitionEntry]]]:
    """doc_key → (stored chunks, definitions) of the test corpus, embedded once per session."""
    if not _corpus_cache:
        for doc_key, rows in _DOCS.items():
            stored, defs = [], []
            for ordinal, (sid, ctx, content, aliases, terms, extra) in enumerate(rows):
                chunk = Chunk(chunk_id=f"{doc_key}#{ordinal}", doc_key=doc_key, ordinal=ordinal, content=content,
                              section_id=sid, parent_chain=ctx.split(" > ")[1:], heading_level=1, context=ctx,
                              document_title=ctx.split(" > ")[0], aliases=aliases, definitions=terms)
                if doc_key == "contracts/lease.md":  # as from a PDF: its pages round-trip (the others have none)
                    chunk.page_start, chunk.page_end, chunk.page_numbering = PAGES[ordinal]
                    chunk.physical_page_start, chunk.physical_page_end = ordinal + 3, ordinal + 4
                texts = [chunk.contextualized_content]
                if sid == "devices":
                    texts = [_FILLER_WINDOW, chunk.contextualized_content]
                keys = [(k, j) for a in aliases for j, k in enumerate(alias_keys(a))]
                keys += [(term_key(t), 1) for t in terms] + extra
                stored.append(StoredChunk(chunk, embedder.encode(texts), list(dict.fromkeys(keys))))
                scoped = doc_key == "contracts/lease.md"  # its definitions govern their section: the scope round-trips
                defs += [DefinitionEntry(t, f"definition of {t}", doc_key, sid, chunk.chunk_id, scope=sid if scoped else None,
                                         scope_label=f"Section {sid}" if scoped else None) for t in terms]
            _corpus_cache[doc_key] = (stored, defs)
    return _corpus_cache


def state_of(doc_key: str) -> FileState:
    return FileState(size=len(doc_key), mtime_ns=1_700_000_000_000_000_000, sha256=sha256_text(doc_key))


def load(store, docs) -> None:
    for doc_key, (chunks, defs) in docs.items():
        store.replace_document(doc_key, state_of(doc_key), chunks, defs)
    store.flush()


def _order(scored: dict[str, float], k: int) -> list[str]:
    return [cid for cid, s in sorted(scored.items(), key=lambda kv: (-round(kv[1], 5), kv[0]))][:k]


def reference_dense(docs, q: np.ndarray) -> dict[str, float]:
    """chunk_id → cosine of its best window (vectors are normalised)."""
    return {sc.chunk.chunk_id: float((sc.vectors @ q).max()) for chunks, _ in docs.values() for sc in chunks}


def reference_bm25(docs, query: str, avgdl: float | None = None) -> dict[str, float]:
    """Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5)/(n + 0.5))) over each chunk's
    analysed tokens and adjacent-token pairs, summed over the query's weighted terms."""
    toks = {sc.chunk.chunk_id: index_terms(sc.chunk.contextualized_content) for chunks, _ in docs.values() for sc in chunks}
    n = len(toks)
    avgdl = avgdl or sum(map(len, toks.values())) / n
    scores: dict[str, float] = {}
    for term, weight in query_terms(query):
        df = sum(term in t for t in toks.values())
        idf = weight * math.log(1 + (n - df + 0.5) / (df + 0.5))
        for cid, t in toks.items():
            tf = Counter(t)[term]
            if tf:
                scores[cid] = scores.get(cid, 0.0) + idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len(t) / avgdl))
    return scores


def _record(cid: str, doc_key: str, text: str, embedder, line: int) -> StoredChunk:
    chunk = Chunk(chunk_id=cid, doc_key=doc_key, ordinal=line, content=text, section_id="", parent_chain=[],
                  heading_level=0, metadata={"id": cid, "line": line, "fields": {"name": text}})
    return StoredChunk(chunk, embedder.encode([text]), [(value_key(cid), 0), (value_key("catalogue"), 1)])


class StoreConformance:
    """Behaviour every Store must show. Subclasses supply the ``make_store`` fixture."""

    persistent = True
    bm25_avgdl_meta: str | None = None  # the meta key of a fixed BM25 mean length, if the store keeps one
    bm25_rel_tolerance = 1e-3  # of a BM25 score against the reference

    @pytest.fixture()
    def store(self, make_store):
        return make_store()

    @pytest.fixture()
    def docs(self, embedder):
        return corpus(embedder)

    @pytest.fixture()
    def loaded(self, store, docs):
        load(store, docs)
        return store

    def _avgdl(self, store) -> float | None:
        return float(store.get_meta(self.bm25_avgdl_meta)) if self.bm25_avgdl_meta else None

    # ------------------------------------------------------------------ empty store
    def test_empty_store_answers_empty(self, store):
        q = np.ones(DIM, dtype=np.float32) / math.sqrt(DIM)
        assert store.count() == 0 and store.documents() == [] and store.file_states() == {}
        assert store.dense_search(q, 5) == [] and store.keyword_search("rent", 5) == []
        assert store.phrase_search("bank transfer", 5) == [] and store.exact_lookup(["section 4.2"]) == {}
        assert store.get_chunks(["nope#0"]) == [] and store.definitions() == [] and store.get_meta("nope") is None
        assert store.keyword_search("", 5) == [] and store.keyword_search("the of and", 5) == []

    # ------------------------------------------------------------------ documents
    def test_replace_document_stores_everything(self, loaded, docs):
        store = loaded
        n = sum(len(c) for c, _ in docs.values())
        assert store.count() == n
        assert store.documents() == sorted(docs)
        assert store.file_states() == {k: state_of(k) for k in docs}
        chunks, defs = docs["contracts/lease.md"]
        got = store.document_chunks("contracts/lease.md")
        assert [c.to_dict() for c in got] == [sc.chunk.to_dict() for sc in chunks]
        assert [(c.page_start, c.page_end, c.page_numbering) for c in got] == PAGES
        assert [c.physical_page_start for c in store.get_chunks(["contracts/lease.md#2", "faq/a.md#0"])] == [5, None]
        assert store.chunk_hashes("contracts/lease.md") == {
            sc.chunk.chunk_id: sha256_text(sc.chunk.contextualized_content) for sc in chunks}
        ids = ["handbook/security.md#2", "missing#9", "contracts/lease.md#0"]
        assert [c.chunk_id for c in store.get_chunks(ids)] == ["handbook/security.md#2", "contracts/lease.md#0"]
        assert store.definitions(doc_key="contracts/lease.md") == defs
        assert [d.term for d in store.definitions(term_key=term_key("landlord"))] == ["Landlord"]
        assert store.definitions(term_key=term_key("landlord"), doc_key="faq/a.md") == []

    def test_replace_document_leaves_no_trace_of_old_chunks(self, loaded, docs, embedder):
        store = loaded
        new = Chunk(chunk_id="contracts/lease.md#0", doc_key="contracts/lease.md", ordinal=0, section_id="9",
                    content="Zebras graze on the savannah.", parent_chain=[], heading_level=1)
        vec = embedder.encode([new.content])
        store.replace_document("contracts/lease.md", FileState(1, 2, "new"), [StoredChunk(new, vec, [("9.9", 0)])], [])
        store.flush()
        assert store.count() == sum(len(c) for c, _ in docs.values()) - 2
        assert [c.content for c in store.document_chunks("contracts/lease.md")] == [new.content]
        assert store.get_chunks(["contracts/lease.md#1", "contracts/lease.md#2"]) == []
        assert store.file_states()["contracts/lease.md"] == FileState(1, 2, "new")
        assert store.definitions(doc_key="contracts/lease.md") == []
        assert not any(cid.startswith("contracts/") for cid, _ in store.keyword_search("rent landlord notices", 20))
        assert store.keyword_search("zebras", 5)[0][0] == "contracts/lease.md#0"
        assert store.phrase_search("bank transfer", 5) == []
        assert store.exact_lookup(["section 4.2", "4.2", "term:landlord", "9.9"]) == {"9.9": ["contracts/lease.md#0"]}
        dense = [cid for cid, _ in store.dense_search(embedder.embed_query("when is the rent due"), 20)]
        assert "contracts/lease.md#1" not in dense and len(dense) == store.count()

    def test_delete_document_leaves_no_trace(self, loaded, docs, embedder):
        store = loaded
        store.delete_document("handbook/security.md")
        store.flush()
        assert "handbook/security.md" not in store.file_states()
        assert store.documents() == sorted(set(docs) - {"handbook/security.md"})
        assert store.document_chunks("handbook/security.md") == [] and store.chunk_hashes("handbook/security.md") == {}
        assert store.count() == sum(len(c) for k, (c, _) in docs.items() if k != "handbook/security.md")
        hits = store.keyword_search("laptops encryption passwords rotated visitors badge", 20)
        assert not any(cid.startswith("handbook/") for cid, _ in hits)
        assert not any(cid.startswith("handbook/") for cid, _ in
                       store.dense_search(embedder.embed_query("what happens if I lose my laptop"), 20))
        assert store.phrase_search("must never be shared", 5) == []
        assert store.exact_lookup(["term:password"]) == {"term:password": ["faq/a.md#0", "faq/b.md#0"]}
        store.delete_document("never/stored.md")  # deleting an unknown document is a no-op

    # ------------------------------------------------------------------ records
    def test_upsert_replace_move_and_delete_chunks(self, store, embedder):
        recs = [_record(f"P-{i}", "products.csv", text, embedder, i)
                for i, text in enumerate(["blue widget", "red widget", "green widget"], start=1)]
        store.upsert_chunks("products.csv", recs)
        store.set_file_state("products.csv", FileState(10, 20, "abc"))
        store.flush()
        assert store.count() == 3 and store.file_states() == {"products.csv": FileState(10, 20, "abc")}
        assert store.exact_lookup([value_key("catalogue")], limit=2) == {value_key("catalogue"): ["P-1", "P-2"]}
        # Same id, new text: replaced in every index, not duplicated.
        store.upsert_chunks("products.csv", [_record("P-2", "products.csv", "yellow gadget", embedder, 2)])
        store.flush()
        assert store.count() == 3
        assert {cid for cid, _ in store.keyword_search("widget", 10)} == {"P-1", "P-3"}
        assert [cid for cid, _ in store.keyword_search("gadget", 10)] == ["P-2"]
        assert store.get_chunks(["P-2"])[0].content == "yellow gadget"
        assert store.chunk_hashes("products.csv")["P-2"] == sha256_text("yellow gadget")
        # A record that moves to another file belongs to that file afterwards.
        store.upsert_chunks("other.csv", [_record("P-1", "other.csv", "blue widget", embedder, 1)])
        store.flush()
        assert [c.chunk_id for c in store.document_chunks("products.csv")] == ["P-2", "P-3"]
        assert store.documents() == ["other.csv", "products.csv"]
        store.delete_chunks(["P-3", "P-404"])
        store.flush()
        assert store.count() == 2 and store.get_chunks(["P-3"]) == []
        assert [cid for cid, _ in store.keyword_search("widget", 10)] == ["P-1"]
        assert "P-3" not in [cid for cid, _ in store.dense_search(embedder.embed_query("green widget"), 10)]
        assert store.exact_lookup([value_key("P-3")]) == {}
        store.delete_chunks([])

    def test_refuses_zero_and_non_finite_vectors(self, store):
        chunk = Chunk(chunk_id="x#0", doc_key="x", ordinal=0, content="x", section_id="", parent_chain=[],
                      heading_level=0)
        for bad in (np.zeros((1, DIM), np.float32), np.full((1, DIM), np.nan, np.float32), np.zeros((0, DIM))):
            with pytest.raises(StoreError):
                store.replace_document("x", FileState(1, 1, "x"), [StoredChunk(chunk, bad)], [])
        # among good chunks, the error names the bad one and none of the document is stored
        good = np.ones((1, DIM), np.float32) / np.sqrt(DIM)
        second = Chunk(chunk_id="x#1", doc_key="x", ordinal=1, content="y", section_id="", parent_chain=[],
                       heading_level=0)
        with pytest.raises(StoreError, match="x#1"):
            store.replace_document("x", FileState(1, 1, "x"), [StoredChunk(chunk, good),
                                                               StoredChunk(second, np.zeros((1, DIM), np.float32))], [])
        assert store.count() == 0 and store.file_states() == {}

    # ------------------------------------------------------------------ searches
    @pytest.mark.parametrize("query", DENSE_QUERIES)
    def test_dense_search_scores_best_window(self, loaded, docs, embedder, query):
        q = embedder.embed_query(query)
        ref = reference_dense(docs, q)
        got = loaded.dense_search(q, 5)
        assert [cid for cid, _ in got] == _order(ref, 5)
        for cid, score in got:
            assert score == pytest.approx(ref[cid], abs=1e-4)

    def test_dense_search_uses_the_best_window(self, loaded, embedder):
        q = embedder.embed_query("report a lost or stolen laptop to security")
        cid, score = loaded.dense_search(q, 1)[0]
        assert cid == "handbook/security.md#1"
        assert score > float(embedder.encode([_FILLER_WINDOW])[0] @ q) + 0.2

    @pytest.mark.parametrize("query", KEYWORD_QUERIES)
    def test_keyword_search_is_bm25(self, loaded, docs, query):
        ref = reference_bm25(docs, query, self._avgdl(loaded))
        got = loaded.keyword_search(query, 5)
        assert [cid for cid, _ in got] == _order(ref, 5)
        for cid, score in got:
            assert score == pytest.approx(ref[cid], rel=self.bm25_rel_tolerance)

    def test_term_document_frequencies_count_the_chunks_holding_each_term(self, loaded, docs):
        # what the answer's confidence weighs a query's words by (docstrata.confidence); optional for a backend
        if not hasattr(loaded, "term_document_frequencies"):
            pytest.skip(f"{type(loaded).__name__} gives no document frequencies: confidence weighs words alike")
        toks = [set(index_terms(sc.chunk.contextualized_content)) for chunks, _ in docs.values() for sc in chunks]
        terms = [t for q in KEYWORD_QUERIES for t, w in query_terms(q) if w == 1.0]
        n, dfs = loaded.term_document_frequencies(terms)
        assert n == len(toks) and set(dfs) == set(terms)
        assert dfs == {t: sum(t in held for held in toks) for t in terms}
        assert dfs["zyzzyva"] == 0 and dfs["password"] >= 2

    def test_ties_break_by_chunk_id(self, loaded, embedder):
        dense = loaded.dense_search(embedder.embed_query("How do I reset my password? Use the self-service portal."), 2)
        assert [cid for cid, _ in dense] == ["faq/a.md#0", "faq/b.md#0"] and dense[0][1] == pytest.approx(dense[1][1])
        kw = loaded.keyword_search("self-service portal", 2)
        assert [cid for cid, _ in kw] == ["faq/a.md#0", "faq/b.md#0"] and kw[0][1] == pytest.approx(kw[1][1])

    def test_phrase_search_needs_adjacent_tokens(self, loaded):
        assert loaded.phrase_search("bank transfer", 5) == ["contracts/lease.md#1"]
        assert loaded.phrase_search("transfer bank", 5) == []
        assert loaded.phrase_search("203(a)(1)", 5) == ["contracts/lease.md#2"]
        assert loaded.phrase_search("must never be shared", 5) == ["handbook/security.md#0"]
        assert loaded.phrase_search("self-service portal", 5) == ["faq/a.md#0", "faq/b.md#0"]
        assert loaded.phrase_search("self-service portal", 1) == ["faq/a.md#0"]

    def test_exact_lookup_orders_by_priority_then_position(self, loaded):
        got = loaded.exact_lookup(["term:password", "section 4.2", "4.2", "term:landlord", "section 99"])
        assert got == {"term:password": ["handbook/security.md#0", "faq/a.md#0", "faq/b.md#0"],
                       "section 4.2": ["contracts/lease.md#1"], "4.2": ["contracts/lease.md#1"],
                       "term:landlord": ["contracts/lease.md#0"]}
        assert loaded.exact_lookup(["term:password"], limit=2) == {"term:password": ["handbook/security.md#0",
                                                                                      "faq/a.md#0"]}

    def test_same_results_as_the_embedded_store(self, loaded, docs, embedder):
        from docstrata.store.embedded import EmbeddedStore

        reference = EmbeddedStore(None, dim=DIM)
        try:
            load(reference, docs)
            for query in DENSE_QUERIES:
                q = embedder.embed_query(query)
                assert [c for c, _ in loaded.dense_search(q, 8)] == [c for c, _ in reference.dense_search(q, 8)]
            for query in KEYWORD_QUERIES:
                assert [c for c, _ in loaded.keyword_search(query, 8)] == [c for c, _ in reference.keyword_search(query, 8)]
            for phrase in PHRASES:
                assert loaded.phrase_search(phrase, 8) == reference.phrase_search(phrase, 8)
            keys = ["term:password", "section 203(a)(1)", "203(a)(1)", "term:tenant", "section 1"]
            assert loaded.exact_lookup(keys) == reference.exact_lookup(keys)
        finally:
            reference.close()

    # ------------------------------------------------------------------ caches, meta, lifecycle
    def test_embedding_cache_and_meta(self, store):
        rng = np.random.default_rng(7)
        items = {"h1": rng.standard_normal((1, DIM)).astype(np.float32),
                 "h2": rng.standard_normal((3, DIM)).astype(np.float32)}
        store.cache_vectors("st:model:384", items)
        got = store.cached_vectors("st:model:384", ["h2", "h1", "h3"])
        assert set(got) == {"h1", "h2"}
        for h, v in items.items():
            assert got[h].dtype == np.float32 and np.array_equal(got[h], v)
        assert store.cached_vectors("st:other:384", ["h1"]) == {}
        store.set_meta("index_settings", "{}")
        store.set_meta("index_settings", '{"a": 1}')
        assert store.get_meta("index_settings") == '{"a": 1}'

    def test_reopen_keeps_everything(self, make_store, docs, embedder):
        if not self.persistent:
            pytest.skip("this backend keeps nothing once closed")
        first = make_store("reopen")
        load(first, docs)
        q = embedder.embed_query("when is the rent due")
        before = (first.dense_search(q, 5), first.keyword_search("rent payment", 5), first.file_states())
        first.set_meta("k", "v")
        first.close()
        again = make_store("reopen")
        assert again.count() == sum(len(c) for c, _ in docs.values()) and again.get_meta("k") == "v"
        after = (again.dense_search(q, 5), again.keyword_search("rent payment", 5), again.file_states())
        assert [c for c, _ in after[0]] == [c for c, _ in before[0]]
        assert [c for c, _ in after[1]] == [c for c, _ in before[1]] and after[2] == before[2]

    def test_dimension_mismatch_is_an_error(self, make_store):
        if not self.persistent:
            pytest.skip("this backend keeps nothing once closed")
        first = make_store("dims")
        first.close()
        with pytest.raises(StoreError, match="384"):
            make_store("dims", dim=8)

    def test_tools_do_not_see_each_other(self, make_store, docs):
        alpha, beta = make_store("alpha"), make_store("beta")
        load(alpha, {"faq/a.md": docs["faq/a.md"]})
        beta.set_meta("only", "beta")
        assert beta.count() == 0 and beta.documents() == [] and beta.file_states() == {}
        assert beta.keyword_search("password", 5) == [] and beta.exact_lookup(["term:password"]) == {}
        assert alpha.get_meta("only") is None and alpha.count() == 1


    # ------------------------------------------------------------------ filters (issue 15)
    FILTERS = [
        ChunkFilter(doc_keys=("faq/b.md",)),
        ChunkFilter(doc_keys=("contracts/lease.md", "faq/a.md")),
        ChunkFilter(section="203"),  # numeric prefix of 203(a)(1)
        ChunkFilter(section="4"),  # 4.2 lies in 4
        ChunkFilter(section="devices"),
        ChunkFilter(doc_keys=("contracts/lease.md",), section="1"),
        ChunkFilter(chunk_ids=("handbook/security.md#2", "faq/b.md#0")),
        ChunkFilter(doc_keys=("nowhere.md",)),
    ]

    def _restricted(self, store, flt, ranked_ids):
        chunks = {c.chunk_id: c for c in store.get_chunks(list(ranked_ids))}
        return [cid for cid in ranked_ids if flt.matches(chunks[cid])]

    @pytest.mark.parametrize("i", range(len(FILTERS)))
    def test_filters_apply_before_ranking(self, loaded, embedder, i):
        """A filtered search returns exactly the unfiltered ranking restricted to the matching chunks
        (not a top-k cut afterwards: k = 1 and 2 here, and the matches rank low unfiltered)."""
        store, flt, n = loaded, self.FILTERS[i], loaded.count()
        for query in DENSE_QUERIES:
            q = embedder.embed_query(query)
            full = [c for c, _ in store.dense_search(q, n)]
            for k in (1, 2):
                assert [c for c, _ in store.dense_search(q, k, flt=flt)] == self._restricted(store, flt, full)[:k]
        for query in KEYWORD_QUERIES:
            full = [c for c, _ in store.keyword_search(query, n)]
            for k in (1, 2):
                got = store.keyword_search(query, k, flt=flt)
                assert [c for c, _ in got] == self._restricted(store, flt, full)[:k], query
                unfiltered = dict(store.keyword_search(query, n))
                for cid, score in got:  # BM25 statistics stay the collection's
                    assert score == pytest.approx(unfiltered[cid], rel=1e-6)
        for phrase in PHRASES:
            full = store.phrase_search(phrase, n)
            assert store.phrase_search(phrase, n, flt=flt) == self._restricted(store, flt, full)
        keys = ["term:password", "section 203(a)(1)", "203(a)(1)", "term:tenant", "section 1", "section 4.2"]
        full = store.exact_lookup(keys)
        got = store.exact_lookup(keys, flt=flt)
        want = {k: r for k, v in full.items() if (r := self._restricted(store, flt, v))}
        assert got == want

    def test_filtered_searches_match_the_embedded_store(self, loaded, docs, embedder):
        from docstrata.store.embedded import EmbeddedStore

        reference = EmbeddedStore(None, dim=DIM)
        try:
            load(reference, docs)
            for flt in self.FILTERS:
                for query in DENSE_QUERIES[:2]:
                    q = embedder.embed_query(query)
                    assert [c for c, _ in loaded.dense_search(q, 3, flt=flt)] == \
                        [c for c, _ in reference.dense_search(q, 3, flt=flt)]
                for query in KEYWORD_QUERIES[:4]:
                    assert [c for c, _ in loaded.keyword_search(query, 3, flt=flt)] == \
                        [c for c, _ in reference.keyword_search(query, 3, flt=flt)]
        finally:
            reference.close()

    def test_record_metadata_filters(self, store, embedder):
        rows = [("S-1", "trail running shoe", {"category": "shoes", "price": "120", "specs.colour": "red"}),
                ("S-2", "road running shoe", {"category": "shoes", "price": "89.5", "specs.colour": "blue"}),
                ("J-1", "running rain jacket", {"category": "jackets", "price": "210", "specs.colour": "red"}),
                ("X-1", "running socks", {"category": "socks", "price": "n/a", "specs.colour": ""})]
        recs = []
        for line, (rid, text, fields) in enumerate(rows, start=1):
            chunk = Chunk(chunk_id=rid, doc_key="catalogue.csv", ordinal=line, content=text, section_id="",
                          parent_chain=[], heading_level=0, metadata={"id": rid, "line": line, "fields": fields})
            recs.append(StoredChunk(chunk, embedder.encode([text]), [(value_key(rid), 0)]))
        store.upsert_chunks("catalogue.csv", recs)
        store.flush()
        q = embedder.embed_query("running")
        cases = {
            (MetaCondition("category", values=("shoes",)),): {"S-1", "S-2"},
            (MetaCondition("category", values=("shoes", "socks")),): {"S-1", "S-2", "X-1"},
            (MetaCondition("price", gte=100.0),): {"S-1", "J-1"},  # "n/a" is no number: never in a range
            (MetaCondition("price", gt=89.5, lt=200.0),): {"S-1"},
            (MetaCondition("price", numbers=(89.5,)),): {"S-2"},
            (MetaCondition("specs.colour", values=("red",)),): {"S-1", "J-1"},  # a dotted field name
            (MetaCondition("category", values=("shoes",)), MetaCondition("specs.colour", values=("red",))): {"S-1"},
            (MetaCondition("category", values=("boats",)),): set(),
            (MetaCondition("nosuchfield", values=("x",)),): set(),
        }
        for conds, want in cases.items():
            flt = ChunkFilter(metadata=conds)
            assert {c for c, _ in store.dense_search(q, 10, flt=flt)} == want, conds
            assert {c for c, _ in store.keyword_search("running", 10, flt=flt)} == want, conds
            assert {c.chunk_id for c in store.get_chunks(["S-1", "S-2", "J-1", "X-1"]) if flt.matches(c)} == want
        one = ChunkFilter(metadata=(MetaCondition("category", values=("socks",)),))
        assert [c for c, _ in store.dense_search(q, 1, flt=one)] == ["X-1"]
        assert store.exact_lookup([value_key("S-1")], flt=one) == {}

    # ------------------------------------------------------------------ document entries (issue 15)
    def test_document_entries_round_trip(self, make_store, docs):
        store = make_store("entries")
        load(store, docs)
        entry = DocumentEntry(doc_key="contracts/lease.md", title="Lease Agreement", summary="A lease.", language="en",
                              file_type="md", section_count=3, top_sections=[{"section_id": "1", "title": "Definitions"}],
                              total_chunks=3, ingested_at="2026-12-01T10:00:00Z", warnings=["w"])
        write_document_entry(store, entry)
        assert read_document_entry(store, "contracts/lease.md") == entry
        assert read_document_entry(store, "faq/a.md") is None
        if self.persistent:
            store.close()
            store = make_store("entries")
            assert read_document_entry(store, "contracts/lease.md") == entry
        clear_document_entry(store, "contracts/lease.md")
        assert read_document_entry(store, "contracts/lease.md") is None

    # ------------------------------------------------------------------ "cited by"
    def test_cited_by_reads_citation_keys_backwards(self, store, embedder):
        """Every backend answers "what cites this section" through its exact index: a range
        member inside the document (``Articles 1 to 3`` cites Article 2) and a reference naming the
        document from another one (``Article 2 EDR``), which no ingest had resolved."""
        from docstrata.citers import citation_keys, cited_by
        from docstrata.index.exact import document_name_keys
        from docstrata.models import CrossReference

        title = "Example Data Regulation (EDR)"
        rows = [("law/reg.md", "article-2", "Article 2. Controllers shall keep records.", []),
                ("law/reg.md", "article-5", "Article 5. Infringements of Articles 1 to 3 shall be fined.",
                 [CrossReference("Articles 1 to 3", f"article-{n}", f"article-{n}" if n == 2 else None, "article-5",
                                 None, "law/reg.md" if n == 2 else None) for n in (1, 2, 3)]),
                ("dpa.md", "7", "7. The processor assists the controller under Article 2 EDR.",
                 [CrossReference("Article 2 EDR", "article-2", None, "7", "EDR")])]
        stored: dict[str, list[StoredChunk]] = {}
        for i, (doc, sid, text, refs) in enumerate(rows):
            chunk = Chunk(chunk_id=f"{doc}#{i}", doc_key=doc, ordinal=i, content=text, section_id=sid,
                          parent_chain=[sid], heading_level=1, document_title=title if doc != "dpa.md" else "DPA",
                          cross_references=refs)
            keys = [(k, 3) for k in citation_keys(chunk)]
            if i == 0:  # the first chunk carries the document's names, as ingest writes them
                keys += [(k, 0) for k in document_name_keys(title, doc)]
            stored.setdefault(doc, []).append(StoredChunk(chunk, embedder.encode([text]), keys))
        for doc, chunks in stored.items():
            store.replace_document(doc, state_of(doc), chunks, [])
        write_document_entry(store, DocumentEntry("law/reg.md", title))
        store.flush()
        got = [(c.document, c.section_id, c.references) for c in cited_by(store, "law/reg.md", "article-2")]
        assert got == [("law/reg.md", "article-5", ["Articles 1 to 3"]), ("dpa.md", "7", ["Article 2 EDR"])]
        assert cited_by(store, "law/reg.md", "article-5") == []

    # ------------------------------------------------------------------ languages
    def test_keyword_search_analyses_each_chunk_in_its_language(self, store, embedder):
        """A chunk tagged German (``metadata["language"]``) is indexed with German stems and stop
        words, and a query is analysed in every language the store holds: "volljährig" finds
        "Volljährigkeit" (one German stem), which English stemming keeps apart."""
        de = "Die Volljährigkeit tritt mit der Vollendung des 18. Lebensjahres ein."
        en = "The tenant pays the rent on the first day of each month."
        chunks = [Chunk(chunk_id="bgb.md#0", doc_key="bgb.md", ordinal=0, content=de, section_id="2",
                        parent_chain=["§ 2"], heading_level=1, metadata={"language": "de"}),
                  Chunk(chunk_id="lease.md#0", doc_key="lease.md", ordinal=0, content=en, section_id="1",
                        parent_chain=["1"], heading_level=1)]
        for c in chunks:
            store.replace_document(c.doc_key, state_of(c.doc_key), [StoredChunk(c, embedder.encode([c.content]))], [])
        store.flush()
        assert [cid for cid, _ in store.keyword_search("Ab welchem Alter ist man volljährig?", 5)] == ["bgb.md#0"]
        assert [cid for cid, _ in store.keyword_search("when is the rent paid", 5)] == ["lease.md#0"]


E2E_QUERIES = ["Section 4.2", "annual leave carry over", '"personal data"', "termination for convenience"]


def tool_search_results(project, database_yaml: str) -> tuple[list[list[str]], tuple[int, int, int]]:
    """Ingest ``examples/docs`` through the real tool with ``database_yaml`` (a ``database:`` line or
    ""), twice; returns the ids of hybrid searches for E2E_QUERIES and (chunks, added, unchanged-on-rerun)."""
    import shutil

    import docstrata

    from .conftest import EXAMPLES

    if not (project / "docs").exists():
        shutil.copytree(EXAMPLES / "docs", project / "docs")
    name = f"agent_{len(list(project.glob('agent_*.yaml')))}.yaml"
    (project / name).write_text("tools:\n  - name: policies\n    type: hierarchical_document\n    description: d\n"
                                "    source: docs/\n" + database_yaml, encoding="utf-8")
    tool = docstrata.open(project / name)["policies"]
    try:
        first, again = tool.ingest(), tool.ingest()
        ids = [[h.chunk_id for h in tool.search(q, top_k=5)] for q in E2E_QUERIES]
        return ids, (first.chunks, first.added, again.unchanged)
    finally:
        tool.close()
