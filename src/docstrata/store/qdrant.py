"""Qdrant store: the horizontally scaled deployment (``database: {provider: qdrant, url: | path:}``).

The same code serves a Qdrant server (``url``, API key from the environment variable named by
``api_key_env``) and qdrant-client's local mode (``path`` on disk, or ``":memory:"``).

Two collections per tool, so tools never see each other's points:

* ``docstrata_<tool>``: one point per chunk (point id = uuid5 of the chunk id). A named
  multivector ``dense`` holds the chunk's window vectors with the ``MAX_SIM`` comparator, so a
  one-vector query scores a chunk by its best window's cosine (DESIGN §6) and a chunk stays
  one point. A named sparse vector ``bm25`` with ``modifier=IDF`` holds BM25 term weights;
  Qdrant multiplies in the idf ``ln(1 + (N - n + 0.5)/(n + 0.5))`` at query time. The payload
  holds the chunk (``data``), ``doc_key``, ``ordinal``, ``sha256``, the exact keys
  (``exact_keys``, keyword-indexed) and the analysed text (``body``, whitespace-tokenised text
  index with phrase matching, used to pre-filter phrase search).
* ``docstrata_<tool>__aux``: vector-less points for file states, definitions, meta values and
  the embedding cache (``kind`` keyword-indexed), because Qdrant has no tables. Keeping them in
  Qdrant rather than a SQLite side file makes ``url`` and ``path`` behave the same.

BM25 in a sparse vector: a token's value is ``tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))``
(k1 = 1.2, b = 0.75; Robertson & Zaragoza 2009) over :func:`~docstrata.index.keyword.index_terms`
(tokens and adjacent-token pairs), each hashed to a stable 32-bit index (blake2b); a query
vector holds each :func:`~docstrata.index.keyword.query_terms` weight. Stored values cannot follow a moving
corpus mean, so ``avgdl`` is fixed when the first chunks are written (their mean length, kept in
the meta under a key naming the analysis version, so the rebuild after an analysis change starts
a new mean) — the approach of fastembed's BM25, which fixes it at 256. Scores therefore differ
slightly from the embedded BM25 when the corpus drifts from that first mean.

Atomicity: Qdrant has no multi-point transactions. ``replace_document`` first deletes the
file's state, then sends one batch (upsert the new chunks tagged with a fresh generation,
delete the document's points of other generations), then writes definitions and the new
file state. A crash part-way leaves the file without a state, so the next ingest re-processes
it and the replace removes any leftovers.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import threading
import uuid
import warnings
from typing import Any

import numpy as np

from ..errors import StoreError
from ..index.keyword import ANALYSIS_VERSION, analyze, chunk_language, query_terms, term_pairs
from ..models import Chunk, DefinitionEntry, FileState, sha256_text
from .base import (
    ChunkFilter,
    StoredChunk,
    checked_vector_batch,
    keyword_languages,
    note_keyword_languages,
    prepare_chunk,
)

K1, B = 1.2, 0.75
_NS = uuid.UUID("5b0c8a6e-2f39-4a57-9d0e-6f1f3b7f2a10")
_PAGE = 1000
_DENSE, _SPARSE = "dense", "bm25"
# The mean length is of one analysis's terms: a new analysis (a rebuild) starts a new mean.
AVGDL_META = f"bm25_avgdl_v{ANALYSIS_VERSION}"


def token_index(token: str) -> int:
    """Stable sparse index of an analysed token: the first 4 bytes of its blake2b digest."""
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=4).digest(), "big")


def bm25_weights(tokens: list[str], avgdl: float) -> tuple[list[int], list[float]]:
    """Sparse BM25 document vector (indices, values) of a chunk's indexed terms (see module docstring)."""
    tf: dict[int, int] = {}
    for tok in tokens:
        idx = token_index(tok)
        tf[idx] = tf.get(idx, 0) + 1
    norm = K1 * (1 - B + B * len(tokens) / avgdl)
    indices = sorted(tf)
    return indices, [tf[i] * (K1 + 1) / (tf[i] + norm) for i in indices]


def _point_id(kind: str, key: str) -> str:
    return str(uuid.uuid5(_NS, f"{kind}:{key}"))


# Local mode locks its folder to one client, so tools sharing a path share the client.
_LOCAL_CLIENTS: dict[str, list] = {}  # realpath → [client, users]
_LOCAL_LOCK = threading.Lock()


def _open_local(client_cls, path: str):
    key = os.path.realpath(path)
    with _LOCAL_LOCK:
        entry = _LOCAL_CLIENTS.get(key)
        if entry is None:
            os.makedirs(key, exist_ok=True)
            entry = _LOCAL_CLIENTS[key] = [client_cls(path=key), 0]
        entry[1] += 1
        return entry[0]


def _release_local(path: str) -> None:
    key = os.path.realpath(path)
    with _LOCAL_LOCK:
        entry = _LOCAL_CLIENTS.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _LOCAL_CLIENTS[key]
            entry[0].close()


def collection_name(tool: str) -> str:
    """Collection of a tool: ``docstrata_`` + the name folded to ``[A-Za-z0-9_-]`` (+ a short hash
    when folding changed it, so distinct tools never share a collection)."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", tool)
    if safe != tool:
        safe += "_" + hashlib.sha1(tool.encode("utf-8")).hexdigest()[:8]
    return "docstrata_" + safe


class QdrantStore:
    """Store of one tool in Qdrant. Exactly one of ``url`` (server) or ``path`` (local mode;
    ``":memory:"`` keeps nothing) is used; ``dim`` is the vector size.

    Raises :class:`StoreError` (backend ``"qdrant"``) when the server is unreachable, the local
    path is locked by another process, the API key variable is unset, or the collection holds
    vectors of another size.
    """

    def __init__(
        self,
        url: str | None = None,
        path: str | None = None,
        tool: str = "default",
        dim: int = 384,
        api_key_env: str | None = None,
    ):
        try:
            from qdrant_client import QdrantClient, models
        except ImportError:
            raise StoreError("qdrant", "qdrant-client is not installed; pip install 'docstrata[qdrant]'") from None
        self.m = models
        self.dim, self.tool = dim, tool
        self.name = collection_name(tool)
        self.aux = self.name + "__aux"
        self.where = url or path or ""
        self._lock = threading.RLock()
        self._local_path: str | None = None
        self._closed = False
        self.client = self._connect(QdrantClient, url, path, api_key_env)
        try:
            self._ensure_collections()
        except BaseException:
            self.close()
            raise
        stored = self.get_meta(AVGDL_META)
        self._avgdl: float | None = float(stored) if stored else None

    # ---------------------------------------------------------------- setup
    def _connect(self, client_cls, url, path, api_key_env):
        if bool(url) == bool(path):
            raise StoreError("qdrant", "set exactly one of database.url or database.path")
        api_key = None
        if api_key_env:
            api_key = os.environ.get(api_key_env)
            if not api_key:
                raise StoreError("qdrant", f"environment variable {api_key_env} (database.api_key_env) is not set")
        try:
            if url:
                client = client_cls(url=url, api_key=api_key, timeout=10, check_compatibility=False)
                client.get_collections()  # fail now, not at the first search
            elif path == ":memory:":
                client = client_cls(location=":memory:")
            else:
                client = _open_local(client_cls, path)
                self._local_path = path
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - connection, lock and HTTP errors all mean "cannot use it"
            raise StoreError("qdrant", f"cannot open {self.where}: {type(e).__name__}: {e}") from None
        return client

    def _ensure_collections(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # local mode: "payload indexes have no effect"
            self._create_collections()

    def _create_collections(self) -> None:
        m, c = self.m, self.client
        if not c.collection_exists(self.name):
            c.create_collection(
                self.name,
                vectors_config={
                    _DENSE: m.VectorParams(
                        size=self.dim,
                        distance=m.Distance.COSINE,
                        multivector_config=m.MultiVectorConfig(comparator=m.MultiVectorComparator.MAX_SIM),
                    )
                },
                sparse_vectors_config={_SPARSE: m.SparseVectorParams(modifier=m.Modifier.IDF)},
            )
            for fld in ("chunk_id", "doc_key", "exact_keys", "gen", "section_path"):
                c.create_payload_index(self.name, fld, m.PayloadSchemaType.KEYWORD)
            c.create_payload_index(
                self.name,
                "body",
                m.TextIndexParams(
                    type=m.TextIndexType.TEXT,
                    tokenizer=m.TokenizerType.WHITESPACE,
                    lowercase=False,
                    phrase_matching=True,
                ),
            )
        else:
            size = c.get_collection(self.name).config.params.vectors[_DENSE].size
            if size != self.dim:
                raise StoreError(
                    "qdrant",
                    f"collection {self.name} at {self.where} holds {size}-dimensional "
                    f"vectors but the model makes {self.dim}; delete the collection to rebuild",
                )
        if not c.collection_exists(self.aux):
            c.create_collection(self.aux, vectors_config={})
            for fld in ("kind", "doc_key", "term_key", "gen"):
                c.create_payload_index(self.aux, fld, m.PayloadSchemaType.KEYWORD)

    def _match(self, **conds: Any):
        m = self.m
        must = []
        for key, value in conds.items():
            match = m.MatchAny(any=list(value)) if isinstance(value, list) else m.MatchValue(value=value)
            must.append(m.FieldCondition(key=key, match=match))
        return m.Filter(must=must)

    def _conditions(self, flt: ChunkFilter | None) -> list:
        """Qdrant payload conditions (all must hold) for ``flt``. Record metadata is matched on the
        ``mf`` payload, a list of ``{"k": field, "v": value, "n": number}`` objects, through
        nested conditions, so a field name may hold dots."""
        if flt is None or flt.empty:
            return []
        m, out = self.m, []
        if flt.doc_keys is not None:
            out.append(m.FieldCondition(key="doc_key", match=m.MatchAny(any=list(flt.doc_keys))))
        if flt.chunk_ids is not None:
            out.append(m.FieldCondition(key="chunk_id", match=m.MatchAny(any=list(flt.chunk_ids))))
        if flt.section is not None:
            out.append(m.FieldCondition(key="section_path", match=m.MatchValue(value=flt.section)))
        for mc in flt.metadata:
            must = [m.FieldCondition(key="k", match=m.MatchValue(value=mc.name))]
            if mc.values:
                must.append(m.FieldCondition(key="v", match=m.MatchAny(any=list(mc.values))))
            if any(getattr(mc, op) is not None for op in ("gt", "gte", "lt", "lte")):
                must.append(m.FieldCondition(key="n", range=m.Range(gt=mc.gt, gte=mc.gte, lt=mc.lt, lte=mc.lte)))
            nested = [m.NestedCondition(nested=m.Nested(key="mf", filter=m.Filter(must=must)))]
            if mc.numbers:  # numeric equality: any of the numbers
                nested.append(
                    m.Filter(
                        should=[
                            m.NestedCondition(
                                nested=m.Nested(
                                    key="mf",
                                    filter=m.Filter(
                                        must=[must[0], m.FieldCondition(key="n", range=m.Range(gte=x, lte=x))]
                                    ),
                                )
                            )
                            for x in mc.numbers
                        ]
                    )
                )
            out += nested
        return out

    def _filter(self, flt: ChunkFilter | None, *extra):
        must = [*extra, *self._conditions(flt)]
        return self.m.Filter(must=must) if must else None

    def _scroll(self, collection: str, flt, fields: list[str] | bool = True) -> list:
        points, offset = [], None
        while True:
            page, offset = self.client.scroll(
                collection, scroll_filter=flt, limit=_PAGE, offset=offset, with_payload=fields, with_vectors=False
            )
            points += page
            if offset is None:
                return points

    # ---------------------------------------------------------------- writes
    def _chunk_points(self, chunks: list[StoredChunk], gen: str) -> list:
        tokens_of = [analyze(sc.chunk.contextualized_content, chunk_language(sc.chunk)) for sc in chunks]
        note_keyword_languages(self, chunks)
        terms_of = [tokens + term_pairs(tokens) for tokens in tokens_of]  # index_terms, from the tokens at hand
        if self._avgdl is None and chunks:
            self._avgdl = max(1.0, float(np.mean([len(terms) for terms in terms_of])))
            self.set_meta(AVGDL_META, repr(self._avgdl))
        points = []
        for sc, tokens, terms, vecs in zip(
            chunks, tokens_of, terms_of, checked_vector_batch(chunks, self.dim, "qdrant")
        ):
            c = prepare_chunk(sc.chunk)
            text = c.contextualized_content
            indices, values = bm25_weights(terms, self._avgdl)
            vector: dict[str, Any] = {_DENSE: vecs.tolist()}
            if indices:
                vector[_SPARSE] = self.m.SparseVector(indices=indices, values=values)
            points.append(
                self.m.PointStruct(
                    id=_point_id("chunk", c.chunk_id),
                    vector=vector,
                    payload={
                        "chunk_id": c.chunk_id,
                        "doc_key": c.doc_key,
                        "ordinal": c.ordinal,
                        "sha256": sha256_text(text),
                        "data": c.to_dict(),
                        "exact_keys": [k for k, _ in sc.exact_keys],
                        "exact_priority": [[k, p] for k, p in sc.exact_keys],
                        "body": " ".join(tokens),
                        "gen": gen,
                        "section_path": c.metadata["section_path"],
                        "mf": [
                            {"k": k, "v": v, "n": c.metadata.get("numbers", {}).get(k)}
                            for k, v in c.metadata.get("fields", {}).items()
                        ],
                    },
                )
            )
        return points

    def _upsert(self, collection: str, points: list) -> None:
        for i in range(0, len(points), 256):
            self.client.upsert(collection, points[i : i + 256], wait=True)

    def replace_document(
        self, doc_key: str, state: FileState, chunks: list[StoredChunk], definitions: list[DefinitionEntry]
    ) -> None:
        """:meth:`Store.replace_document`: the file state is removed first and written last; between,
        the new points (under a fresh generation id) and the deletion of older ones go in one batch,
        so a search never sees the document missing and an interrupted replace is redone next ingest."""
        from ..index.exact import term_key

        m, gen = self.m, uuid.uuid4().hex
        stale = m.Filter(
            must=[m.FieldCondition(key="doc_key", match=m.MatchValue(value=doc_key))],
            must_not=[m.FieldCondition(key="gen", match=m.MatchValue(value=gen))],
        )
        with self._lock:
            self.client.delete(self.aux, m.PointIdsList(points=[_point_id("file", doc_key)]), wait=True)
            ops = [m.UpsertOperation(upsert=m.PointsList(points=self._chunk_points(chunks, gen)))] if chunks else []
            ops.append(m.DeleteOperation(delete=m.FilterSelector(filter=stale)))
            self.client.batch_update_points(self.name, ops, wait=True)
            defs = [
                m.PointStruct(
                    id=_point_id("def", f"{doc_key}\x00{i}"),
                    vector={},
                    payload={
                        "kind": "def",
                        "doc_key": doc_key,
                        "term_key": term_key(d.term),
                        "term": d.term,
                        "definition": d.definition,
                        "section_id": d.section_id,
                        "chunk_id": d.chunk_id,
                        "scope": d.scope,
                        "scope_label": d.scope_label,
                        "seq": i,
                        "gen": gen,
                    },
                )
                for i, d in enumerate(definitions)
            ]
            aux_ops = [m.UpsertOperation(upsert=m.PointsList(points=defs))] if defs else []
            aux_ops += [
                m.DeleteOperation(
                    delete=m.FilterSelector(
                        filter=m.Filter(
                            must=[
                                m.FieldCondition(key="kind", match=m.MatchValue(value="def")),
                                m.FieldCondition(key="doc_key", match=m.MatchValue(value=doc_key)),
                            ],
                            must_not=[m.FieldCondition(key="gen", match=m.MatchValue(value=gen))],
                        )
                    )
                ),
                m.UpsertOperation(upsert=m.PointsList(points=[self._state_point(doc_key, state)])),
            ]
            self.client.batch_update_points(self.aux, aux_ops, wait=True)

    def _state_point(self, doc_key: str, state: FileState):
        return self.m.PointStruct(
            id=_point_id("file", doc_key),
            vector={},
            payload={
                "kind": "file",
                "doc_key": doc_key,
                "size": state.size,
                "mtime_ns": state.mtime_ns,
                "sha256": state.sha256,
            },
        )

    def upsert_chunks(self, doc_key: str, chunks: list[StoredChunk]) -> None:
        """:meth:`Store.upsert_chunks`: insert or replace the chunks' points by id (waits for Qdrant)."""
        with self._lock:
            self._upsert(self.name, self._chunk_points(chunks, ""))

    def delete_chunks(self, chunk_ids: list[str]) -> None:
        """:meth:`Store.delete_chunks`: delete the chunks' points by id; unknown ids are ignored."""
        if chunk_ids:
            ids = [_point_id("chunk", c) for c in chunk_ids]
            with self._lock:
                self.client.delete(self.name, self.m.PointIdsList(points=ids), wait=True)

    def delete_document(self, doc_key: str) -> None:
        """:meth:`Store.delete_document`: delete the document's chunk points and its auxiliary
        points (file state, definitions)."""
        with self._lock:
            self.client.delete(self.aux, self.m.FilterSelector(filter=self._match(doc_key=doc_key)), wait=True)
            self.client.delete(self.name, self.m.FilterSelector(filter=self._match(doc_key=doc_key)), wait=True)

    def set_file_state(self, doc_key: str, state: FileState) -> None:
        """:meth:`Store.set_file_state`: size, mtime (ns) and sha256 of the file, as an auxiliary point."""
        with self._lock:
            self.client.upsert(self.aux, [self._state_point(doc_key, state)], wait=True)

    def flush(self) -> None:
        """Nothing to do: every write waits for Qdrant to apply it."""

    def drop(self) -> None:
        """Delete both collections of this tool."""
        with self._lock:
            self.client.delete_collection(self.name)
            self.client.delete_collection(self.aux)

    # ---------------------------------------------------------------- reads
    def file_states(self) -> dict[str, FileState]:
        """:meth:`Store.file_states`: doc_key → :class:`FileState` of every stored file."""
        return {
            p.payload["doc_key"]: FileState(p.payload["size"], p.payload["mtime_ns"], p.payload["sha256"])
            for p in self._scroll(self.aux, self._match(kind="file"))
        }

    def chunk_hashes(self, doc_key: str) -> dict[str, str]:
        """:meth:`Store.chunk_hashes`: chunk_id → sha256 of the stored text, for one document."""
        return {
            p.payload["chunk_id"]: p.payload["sha256"]
            for p in self._scroll(self.name, self._match(doc_key=doc_key), ["chunk_id", "sha256"])
        }

    def get_chunks(self, chunk_ids: list[str]) -> list[Chunk]:
        """:meth:`Store.get_chunks`: chunks by id in the order asked; unknown ids left out."""
        if not chunk_ids:
            return []
        points = self.client.retrieve(self.name, [_point_id("chunk", c) for c in chunk_ids], with_payload=["data"])
        found = {p.payload["data"]["chunk_id"]: Chunk.from_dict(p.payload["data"]) for p in points}
        return [found[c] for c in chunk_ids if c in found]

    def document_chunks(self, doc_key: str) -> list[Chunk]:
        """:meth:`Store.document_chunks`: every chunk of ``doc_key`` in ordinal order."""
        points = self._scroll(self.name, self._match(doc_key=doc_key), ["data"])
        return sorted((Chunk.from_dict(p.payload["data"]) for p in points), key=lambda c: (c.ordinal, c.chunk_id))

    def documents(self) -> list[str]:
        """:meth:`Store.documents`: every doc_key that has chunks, sorted (scrolls the collection)."""
        return sorted({p.payload["doc_key"] for p in self._scroll(self.name, None, ["doc_key"])})

    def count(self) -> int:
        """:meth:`Store.count`: the number of chunk points (an exact count)."""
        return self.client.count(self.name, exact=True).count

    @staticmethod
    def _ranked(points, k: int) -> list[tuple[str, float]]:
        hits = sorted(((p.payload["chunk_id"], float(p.score)) for p in points), key=lambda h: (-h[1], h[0]))
        return hits[:k]

    def dense_search(self, vector: np.ndarray, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        """Top ``k`` by best-window cosine (MAX_SIM of a one-vector query); ties by chunk id.
        ``flt`` is a payload filter Qdrant applies during the search."""
        if k <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32).reshape(1, self.dim).tolist()
        res = self.client.query_points(
            self.name, query=q, using=_DENSE, limit=k + 16, with_payload=["chunk_id"], query_filter=self._filter(flt)
        )
        return self._ranked(res.points, k)

    def _sparse_query(self, weighted: list[tuple[str, float]]):
        values = {token_index(t): w for t, w in weighted}
        indices = sorted(values)
        return self.m.SparseVector(indices=indices, values=[values[i] for i in indices])

    def keyword_search(self, query: str, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        """Top ``k`` (chunk_id, BM25) from the IDF-modified sparse vectors; ties by chunk id.
        ``flt`` is a payload filter; the idf stays the collection's."""
        terms = query_terms(query, keyword_languages(self))
        if not terms or k <= 0 or self._avgdl is None:
            return []
        res = self.client.query_points(
            self.name,
            query=self._sparse_query(terms),
            using=_SPARSE,
            limit=k + 16,
            with_payload=["chunk_id"],
            query_filter=self._filter(flt),
        )
        return self._ranked(res.points, k)

    def phrase_search(self, phrase: str, k: int, flt: ChunkFilter | None = None) -> list[str]:
        """Chunks whose analysed text holds the analysed phrase as adjacent tokens, best BM25 first.
        Qdrant's phrase filter narrows the candidates; adjacency is then checked on the analysed text."""
        tokens = analyze(phrase)
        if not tokens or k <= 0 or self._avgdl is None:
            return []
        m = self.m
        pf = self._filter(flt, m.FieldCondition(key="body", match=m.MatchPhrase(phrase=" ".join(tokens))))
        res = self.client.query_points(
            self.name,
            query=self._sparse_query([(t, 1.0) for t in tokens]),
            using=_SPARSE,
            query_filter=pf,
            limit=k * 4 + 16,
            with_payload=["chunk_id", "body"],
        )
        needle = f" {' '.join(tokens)} "
        hits = [p for p in res.points if needle in f" {p.payload['body']} "]
        return [cid for cid, _ in self._ranked(hits, k)]

    def hybrid_search(
        self,
        vector: np.ndarray,
        query: str,
        k: int,
        weights: tuple[float, float] | None = None,
        rrf_k: int | None = None,
    ) -> list[tuple[str, float]]:
        """Dense and BM25 candidates fused server-side by Qdrant's Query API (weighted RRF) in one
        round trip: the best ``k`` as (chunk id, fused score). ``weights`` (dense, BM25) and
        ``rrf_k`` come from the caller (its ranking settings, e.g. a tool config's
        ``semantic_weight``, ``keyword_weight``, ``rrf_k``); left ``None``, Qdrant's own RRF
        defaults apply (equal weights, its k) — the store knows no ranking policy. Qdrant weights
        ranks as ``1 / (rank / w + k - 1)``, not docstrata's ``w / (k + rank)``
        (docs/stores.md), so :mod:`docstrata.search` fuses per-modality results itself; this is
        for callers that want Qdrant to do the work."""
        m, depth = self.m, k * 4 + 16
        prefetch = [
            m.Prefetch(
                query=np.asarray(vector, dtype=np.float32).reshape(1, self.dim).tolist(), using=_DENSE, limit=depth
            )
        ]
        terms = query_terms(query)
        if terms and self._avgdl is not None:
            prefetch.append(m.Prefetch(query=self._sparse_query(terms), using=_SPARSE, limit=depth))
        rrf: dict = {} if rrf_k is None else {"k": rrf_k}
        if weights is not None:
            rrf["weights"] = list(weights[: len(prefetch)])
        res = self.client.query_points(
            self.name, prefetch=prefetch, limit=k, with_payload=["chunk_id"], query=m.RrfQuery(rrf=m.Rrf(**rrf))
        )
        return self._ranked(res.points, k)

    def exact_lookup(self, keys: list[str], limit: int = 100, flt: ChunkFilter | None = None) -> dict[str, list[str]]:
        """:meth:`Store.exact_lookup`: key → up to ``limit`` chunk ids, by key priority then document
        order, among the chunks ``flt`` allows."""
        if not keys:
            return {}
        wanted = set(keys)
        hits: dict[str, list[tuple]] = {}
        keyed = self.m.FieldCondition(key="exact_keys", match=self.m.MatchAny(any=list(wanted)))
        for p in self._scroll(
            self.name, self._filter(flt, keyed), ["chunk_id", "doc_key", "ordinal", "exact_priority"]
        ):
            pl = p.payload
            for key, prio in pl["exact_priority"]:
                if key in wanted:
                    hits.setdefault(key, []).append((prio, pl["doc_key"], pl["ordinal"], pl["chunk_id"]))
        return {key: [h[3] for h in sorted(rows)[:limit]] for key, rows in hits.items()}

    def definitions(self, term_key: str | None = None, doc_key: str | None = None) -> list[DefinitionEntry]:
        """:meth:`Store.definitions`: definitions by exact-index term key and/or document, in the order written."""
        conds: dict[str, Any] = {"kind": "def"}
        if term_key is not None:
            conds["term_key"] = term_key
        if doc_key is not None:
            conds["doc_key"] = doc_key
        rows = sorted(
            (p.payload for p in self._scroll(self.aux, self._match(**conds))), key=lambda pl: (pl["doc_key"], pl["seq"])
        )
        return [
            DefinitionEntry(
                term=pl["term"],
                definition=pl["definition"],
                doc_key=pl["doc_key"],
                section_id=pl["section_id"],
                chunk_id=pl["chunk_id"],
                scope=pl.get("scope"),
                scope_label=pl.get("scope_label"),
            )
            for pl in rows
        ]

    # ---------------------------------------------------------------- caches and meta
    def cached_vectors(self, model_id: str, hashes: list[str]) -> dict[str, np.ndarray]:
        """:meth:`Store.cached_vectors`: sha256 → (n_windows, dim) float32 vectors cached for ``model_id``."""
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(hashes), _PAGE):
            ids = [_point_id("cache", f"{model_id}\x00{h}") for h in hashes[i : i + _PAGE]]
            for p in self.client.retrieve(self.aux, ids, with_payload=True):
                pl = p.payload
                out[pl["sha256"]] = np.frombuffer(base64.b64decode(pl["vecs"]), dtype=np.float32).reshape(
                    pl["n"], self.dim
                )
        return out

    def cache_vectors(self, model_id: str, items: dict[str, np.ndarray]) -> None:
        """:meth:`Store.cache_vectors`: add or replace embedding-cache entries (base64 vectors in payloads)."""
        points = [
            self.m.PointStruct(
                id=_point_id("cache", f"{model_id}\x00{h}"),
                vector={},
                payload={
                    "kind": "cache",
                    "model_id": model_id,
                    "sha256": h,
                    "n": int(v.shape[0]),
                    "vecs": base64.b64encode(np.ascontiguousarray(v, dtype=np.float32).tobytes()).decode("ascii"),
                },
            )
            for h, v in items.items()
        ]
        with self._lock:
            self._upsert(self.aux, points)

    def get_meta(self, key: str) -> str | None:
        """:meth:`Store.get_meta`: the stored value of ``key``, or None."""
        points = self.client.retrieve(self.aux, [_point_id("meta", key)], with_payload=True)
        return points[0].payload["value"] if points else None

    def set_meta(self, key: str, value: str) -> None:
        """:meth:`Store.set_meta`: store ``value`` under ``key``."""
        point = self.m.PointStruct(
            id=_point_id("meta", key), vector={}, payload={"kind": "meta", "key": key, "value": value}
        )
        with self._lock:
            self.client.upsert(self.aux, [point], wait=True)

    def close(self) -> None:
        """Close the client (and a local on-disk Qdrant's lock); safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._local_path is not None:
                _release_local(self._local_path)
            else:
                self.client.close()
