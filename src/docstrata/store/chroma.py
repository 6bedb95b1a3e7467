"""``database: chromadb`` — ChromaDB holds the dense leg; our BM25 and exact legs sit beside it.

HoloDeck's design for providers without native hybrid search: dense search in the provider,
keyword search in a separate BM25 index, fused by RRF. Here SQLite remains the system of record
(chunks, their vectors, exact keys, definitions, the embedding cache) and tantivy the BM25 leg,
as in :mod:`docstrata.store.embedded`; Chroma (a server through ``HttpClient``, or the embedded
``PersistentClient`` under ``.docstrata/<tool>/chroma``, or an in-memory ``EphemeralClient``)
answers dense queries with its HNSW index (cosine space, M 32, ef 200 / 128). With a server the
SQLite system of record stays local under ``.docstrata/<tool>`` and the generation marker beside it.

Chroma is derived data kept in step with SQLite: writes are queued and applied in batches before
the next search or flush; every flush writes the store's generation next to the collection, and on
open a collection whose generation or row count disagrees with SQLite is rebuilt from SQLite's
vectors, so a crash between the two never leaves a stale dense index. One row per chunk window
(``<chunk_id>#w<i>``, metadata ``chunk``); a chunk scores as its best window (DESIGN §6).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import numpy as np

from ..errors import ConfigError, StoreError
from .embedded import EmbeddedStore

_HNSW = {"hnsw:space": "cosine", "hnsw:M": 32, "hnsw:construction_ef": 200, "hnsw:search_ef": 128}
_MARKER = "docstrata_generation"


def _chromadb():
    try:
        import chromadb
    except ImportError:
        raise ConfigError(
            "database provider 'chromadb' needs chromadb: pip install 'docstrata[chroma]'", path="database.provider"
        ) from None
    return chromadb


def collection_name(tool: str) -> str:
    """A Chroma collection name for ``tool`` (3–512 of ``[A-Za-z0-9._-]``, alphanumeric at both ends)."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", tool).strip("._-") or "tool"
    return (name + "_docstrata")[:512] if len(name) < 3 else name[:512]


def _http_client(chromadb, url: str, settings, api_key_env: str | None):
    """``chromadb.HttpClient`` for ``url`` (``http(s)://host[:port][/path]``; port default 8000, 443 for https)."""
    import os
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    ssl = parts.scheme == "https"
    headers = {}
    if api_key_env:
        key = os.environ.get(api_key_env)
        if not key:
            raise ConfigError(
                f"environment variable {api_key_env} (the Chroma server's key) is not set", path="database.api_key_env"
            )
        headers["X-Chroma-Token"] = key
    return chromadb.HttpClient(
        host=parts.hostname or "localhost",
        port=parts.port or (443 if ssl else 8000),
        ssl=ssl,
        headers=headers or None,
        settings=settings,
    )


class ChromaDenseIndex:
    """The dense-index contract (``load``, ``add``, ``remove``, ``search``, ``scan_threads``, ``len``) over one Chroma collection."""

    def __init__(self, collection, dim: int, batch: int):
        self.collection = collection
        self.dim = dim
        self.batch = batch
        self._pending: dict[str, np.ndarray | None] = {}  # chunk id → new vectors, or None = removed
        self._chunks: int | None = None

    def __len__(self) -> int:
        self._apply()
        return self.collection.count()

    def load(self, row_ids: list[str], matrix: np.ndarray) -> None:
        """Bulk-load rows into the (empty) collection: ``row_ids[i]`` owns ``matrix[i]``."""
        ids, window, prev = [], 0, None
        for cid in row_ids:
            window = window + 1 if cid == prev else 0
            ids.append(f"{cid}#w{window}")
            prev = cid
        for i in range(0, len(ids), self.batch):
            self.collection.add(
                ids=ids[i : i + self.batch],
                embeddings=matrix[i : i + self.batch],
                metadatas=[{"chunk": c} for c in row_ids[i : i + self.batch]],
            )

    def add(self, chunk_id: str, vectors: np.ndarray) -> None:
        """Queue ``vectors`` ((n_windows, dim) float32) for ``chunk_id``; written to Chroma at the next
        apply. Raises ``ValueError`` for an empty, zero or non-finite vector."""
        vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        if vectors.shape[0] == 0 or not np.isfinite(vectors).all() or not np.any(vectors):
            raise ValueError(f"refusing to index an empty, zero or non-finite vector for chunk {chunk_id}")
        self._pending[chunk_id] = vectors

    def remove(self, chunk_id: str) -> None:
        """Queue the removal of ``chunk_id``'s vectors; applied with the queued additions."""
        self._pending[chunk_id] = None

    def _apply(self) -> None:
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        touched = list(pending)
        for i in range(0, len(touched), 500):
            self.collection.delete(where={"chunk": {"$in": touched[i : i + 500]}})
        ids, vecs, metas = [], [], []
        for cid, v in pending.items():
            if v is None:
                continue
            for w in range(v.shape[0]):
                ids.append(f"{cid}#w{w}")
                vecs.append(v[w])
                metas.append({"chunk": cid})
        for i in range(0, len(ids), self.batch):
            self.collection.add(
                ids=ids[i : i + self.batch],
                embeddings=np.stack(vecs[i : i + self.batch]),
                metadatas=metas[i : i + self.batch],
            )

    def scan_threads(self, allowed=None) -> int:
        """1: Chroma answers on the calling thread (see ``search._start_semantic``)."""
        return 1

    def search(self, query: np.ndarray, k: int, allowed=None) -> list[tuple[str, float]]:
        """Top ``k`` (chunk_id, cosine) for a normalised (dim,) query, best first (ties by chunk id).

        ``allowed`` (chunk ids a filter kept) becomes a Chroma ``where`` clause, so Chroma filters
        before it ranks (never an unfiltered top-k cut afterwards)."""
        self._apply()
        n = self.collection.count()
        if n == 0 or k <= 0:
            return []
        where = None
        if allowed is not None:
            allowed = list(dict.fromkeys(allowed))
            if not allowed:
                return []
            where = {"chunk": {"$in": allowed}}
        m = min(n, k * 4 + 16)  # several windows of one chunk must not crowd out k chunks
        res = self.collection.query(
            query_embeddings=[np.asarray(query, dtype=np.float32)],
            n_results=m,
            where=where,
            include=["distances", "metadatas"],
        )
        best: dict[str, float] = {}
        for dist, meta in zip(res["distances"][0], res["metadatas"][0]):
            cid = meta["chunk"]
            score = 1.0 - float(dist)  # cosine distance = 1 - cosine
            if score > best.get(cid, -np.inf):
                best[cid] = score
        return sorted(best.items(), key=lambda hit: (-hit[1], hit[0]))[:k]


class ChromaStore(EmbeddedStore):
    """:class:`EmbeddedStore` whose dense leg is a ChromaDB collection (module docstring).

    ``root`` is the tool's folder (SQLite and tantivy there, Chroma under ``chroma_path`` or
    ``root/chroma``); ``root=None`` keeps everything in memory. Raises
    :class:`~docstrata.errors.ConfigError` without the chromadb package, :class:`StoreError` when
    Chroma cannot open its folder.
    """

    _vector_file = False  # Chroma holds the vectors
    _threaded_dense = False  # Chroma's client is called on the caller's thread only

    def __init__(
        self,
        root: str | Path | None,
        dim: int,
        tool: str = "tool",
        chroma_path: str | Path | None = None,
        collection: str | None = None,
        server_url: str | None = None,
        api_key_env: str | None = None,
    ):
        chromadb = _chromadb()
        from chromadb.config import Settings

        super().__init__(root, dim)
        settings = Settings(anonymized_telemetry=False, allow_reset=False)
        self.chroma_path = None
        self.server_url = server_url
        self._marker_dir: Path | None = None
        try:
            if server_url:
                self._client = _http_client(chromadb, server_url, settings, api_key_env)
                self.collection_name = collection_name(collection or tool)
                if self.root is not None:  # which generation of SQLite the server's collection holds
                    self._marker_dir = self.root
                else:  # nothing local survives: a fresh collection of our own on the shared server
                    self.collection_name = f"{self.collection_name}-{uuid.uuid4().hex[:12]}"
            elif self.root is None or str(chroma_path) == ":memory:":
                self._client = chromadb.EphemeralClient(settings=settings)
                # Ephemeral clients share one in-process system: a unique name keeps stores apart.
                self.collection_name = f"{collection_name(collection or tool)}-{uuid.uuid4().hex[:12]}"
            else:
                self.chroma_path = Path(chroma_path) if chroma_path else self.root / "chroma"
                self.chroma_path.mkdir(parents=True, exist_ok=True)
                self._client = chromadb.PersistentClient(path=str(self.chroma_path), settings=settings)
                self.collection_name = collection_name(collection or tool)
                self._marker_dir = self.chroma_path
            self._batch = max(1, min(int(self._client.get_max_batch_size()), 4096))
        except Exception as e:  # noqa: BLE001 - chromadb raises many kinds; the store names the folder
            where = f"the Chroma server {server_url}" if server_url else f"Chroma at {self.chroma_path or 'memory'}"
            hint = (
                " (is the server running and reachable? start one with `chroma run --path DIR --port N`)"
                if server_url
                else ""
            )
            raise StoreError("chromadb", f"cannot open {where}: {type(e).__name__}: {e}{hint}") from None

    # ---- the dense index is Chroma's collection, loaded (or rebuilt) from SQLite when out of step
    def _collection(self, fresh: bool):
        if fresh:
            try:
                self._client.delete_collection(self.collection_name)
            except Exception:  # noqa: BLE001 - absent already
                pass
        return self._client.get_or_create_collection(
            self.collection_name, metadata=dict(_HNSW), embedding_function=None
        )

    def _synced_generation(self) -> int | None:
        if self._marker_dir is None:
            return None
        try:
            return int((self._marker_dir / f"{_MARKER}-{self.collection_name}").read_text())
        except (OSError, ValueError):
            return None

    def _load_dense(self) -> ChromaDenseIndex:
        rows = self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
        coll = self._collection(fresh=False)
        if self._synced_generation() == self._read_generation() and coll.count() == rows:
            return ChromaDenseIndex(coll, self.dim, self._batch)
        index = ChromaDenseIndex(self._collection(fresh=True), self.dim, self._batch)
        data = self._db.execute("SELECT chunk_id, vec FROM vectors ORDER BY chunk_id, window").fetchall()
        if data:
            mat = np.frombuffer(b"".join(r[1] for r in data), dtype=np.float32).reshape(len(data), self.dim)
            index.load([r[0] for r in data], mat)
        return index

    def _apply_memory(self, doc_key, removed, chunks) -> None:
        self._dense_index()  # writes always reach Chroma (a persistent collection must not lag SQLite)
        super()._apply_memory(doc_key, removed, chunks)

    def flush(self) -> None:
        """Apply the queued vector writes to Chroma, flush the SQLite side, then record the generation
        Chroma is in step with (a later open rebuilds Chroma when they differ)."""
        with self._lock:
            if self._dense is not None:
                self._dense._apply()
            super().flush()
            if self._marker_dir is not None:
                (self._marker_dir / f"{_MARKER}-{self.collection_name}").write_text(str(self._generation))

    def close(self) -> None:
        """Apply the queued vector writes (a failure only means the next open rebuilds Chroma) and close."""
        with self._lock:
            if self._dense is not None:
                try:
                    self._dense._apply()
                except Exception:  # noqa: BLE001 - the next open rebuilds Chroma from SQLite
                    pass
        super().close()
