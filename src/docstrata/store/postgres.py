"""PostgreSQL + pgvector store: the multi-user / server deployment (``database: {provider: postgres}``).

Layout: one schema per tool (``docstrata_<tool>``), so several tools share a database without
seeing each other's rows. Tables: ``meta``, ``files``, ``chunks`` (JSONB chunk, ``tsvector`` of
the analysed text, token count), ``vectors`` (one row per window, ``vector(dim)``, HNSW index
with cosine distance), ``exact`` (key → chunk, B-tree), ``definitions``, ``embed_cache`` and a
one-row ``stats`` table kept by statement triggers (chunk count and total tokens for BM25).

Keyword search is Okapi BM25 (k1 = 1.2, b = 0.75, Lucene's idf ``ln(1 + (N - n + 0.5)/(n + 0.5))``;
Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) over the
weighted :func:`~docstrata.index.keyword.query_terms`, computed in SQL over the GIN-indexed
``tsvector``: the GIN index finds the chunks holding any query term, term frequencies come from
the tsvector's position lists and the document length from a stored column. The tsvector is
built from the analysed tokens and their term pairs (:func:`~docstrata.index.keyword.index_terms`) as a
literal (``'token':1,5``), never by Postgres' text parser, so a token such as ``203(a)(1)`` is
one lexeme here exactly as in tantivy. Why not ``ts_rank_cd``: it has no idf and no length
normalisation against the corpus mean, so its order differs from the embedded BM25 (see
``docs/stores.md``).

Each write is one transaction, so ``replace_document`` is atomic for every reader. An
unreachable server, a missing ``vector`` extension or a dimension mismatch raise
:class:`~docstrata.errors.StoreError` naming the backend and the reason.
"""

from __future__ import annotations

import hashlib
import re
import threading
from typing import Any, Iterable

import numpy as np

from ..errors import StoreError
from ..index.keyword import analyze, chunk_language, query_terms, term_pairs
from ..models import Chunk, DefinitionEntry, FileState, sha256_text
from .base import (
    ChunkFilter,
    StoredChunk,
    checked_vector_batch,
    keyword_languages,
    note_keyword_languages,
    prepare_chunk,
    record_or_check_dimension,
)

SCHEMA_VERSION = "1"
K1, B = 1.2, 0.75
MAX_POSITION = 16383  # tsvector positions saturate here (PostgreSQL limit)
MAX_LEXEME_BYTES = 2046  # longer lexemes are rejected by PostgreSQL; such tokens are not indexed
MAX_TSVECTOR_BYTES = 1_000_000  # PostgreSQL rejects a tsvector whose lexemes and positions pass 1048575 bytes
MAX_POSITIONS = 256  # per lexeme; PostgreSQL keeps the first 256
_CONNECT_TIMEOUT_S = 10

_DDL = """
CREATE TABLE IF NOT EXISTS {s}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS {s}.files (doc_key TEXT PRIMARY KEY, size BIGINT, mtime_ns BIGINT, sha256 TEXT);
CREATE TABLE IF NOT EXISTS {s}.chunks (
    chunk_id TEXT PRIMARY KEY, doc_key TEXT NOT NULL, ordinal INTEGER NOT NULL, sha256 TEXT NOT NULL,
    data JSONB NOT NULL, tsv TSVECTOR NOT NULL, n_tokens INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_doc ON {s}.chunks (doc_key, ordinal);
CREATE INDEX IF NOT EXISTS chunks_tsv ON {s}.chunks USING GIN (tsv);
CREATE TABLE IF NOT EXISTS {s}.vectors (
    chunk_id TEXT NOT NULL REFERENCES {s}.chunks ON DELETE CASCADE, win INTEGER NOT NULL,
    vec VECTOR({dim}) NOT NULL, PRIMARY KEY (chunk_id, win));
CREATE INDEX IF NOT EXISTS vectors_hnsw ON {s}.vectors USING hnsw (vec vector_cosine_ops);
CREATE TABLE IF NOT EXISTS {s}.exact (
    key TEXT NOT NULL, chunk_id TEXT NOT NULL REFERENCES {s}.chunks ON DELETE CASCADE, priority INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS exact_key ON {s}.exact (key);
CREATE INDEX IF NOT EXISTS exact_chunk ON {s}.exact (chunk_id);
CREATE TABLE IF NOT EXISTS {s}.definitions (
    id BIGSERIAL PRIMARY KEY, doc_key TEXT NOT NULL, term_key TEXT NOT NULL, term TEXT NOT NULL,
    definition TEXT NOT NULL, section_id TEXT, chunk_id TEXT);
ALTER TABLE {s}.definitions ADD COLUMN IF NOT EXISTS scope TEXT;
ALTER TABLE {s}.definitions ADD COLUMN IF NOT EXISTS scope_label TEXT;
CREATE INDEX IF NOT EXISTS definitions_term ON {s}.definitions (term_key);
CREATE INDEX IF NOT EXISTS definitions_doc ON {s}.definitions (doc_key);
CREATE TABLE IF NOT EXISTS {s}.embed_cache (
    model_id TEXT NOT NULL, sha256 TEXT NOT NULL, n INTEGER NOT NULL, vecs BYTEA NOT NULL,
    PRIMARY KEY (model_id, sha256));
CREATE TABLE IF NOT EXISTS {s}.stats (id INTEGER PRIMARY KEY CHECK (id = 1), n_chunks BIGINT NOT NULL,
    n_tokens BIGINT NOT NULL);
INSERT INTO {s}.stats VALUES (1, 0, 0) ON CONFLICT DO NOTHING;
CREATE OR REPLACE FUNCTION {s}.stats_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE {s}.stats SET n_chunks = n_chunks + (SELECT count(*) FROM new_rows),
                       n_tokens = n_tokens + (SELECT coalesce(sum(n_tokens), 0) FROM new_rows);
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION {s}.stats_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE {s}.stats SET n_chunks = n_chunks - (SELECT count(*) FROM old_rows),
                       n_tokens = n_tokens - (SELECT coalesce(sum(n_tokens), 0) FROM old_rows);
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION {s}.stats_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE {s}.stats SET n_tokens = n_tokens + (SELECT coalesce(sum(n_tokens), 0) FROM new_rows)
                                           - (SELECT coalesce(sum(n_tokens), 0) FROM old_rows);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER chunks_stats_ins AFTER INSERT ON {s}.chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {s}.stats_add();
CREATE OR REPLACE TRIGGER chunks_stats_del AFTER DELETE ON {s}.chunks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION {s}.stats_remove();
CREATE OR REPLACE TRIGGER chunks_stats_upd AFTER UPDATE ON {s}.chunks
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION {s}.stats_change();
"""


def schema_name(tool: str) -> str:
    """Postgres schema of a tool: ``docstrata_`` + the name folded to ``[a-z0-9_]``; a short hash
    is appended when folding changed the name, so distinct tool names never share a schema."""
    safe = re.sub(r"[^a-z0-9_]", "_", tool.lower())
    if safe != tool:
        safe += "_" + hashlib.sha1(tool.encode("utf-8")).hexdigest()[:8]
    return ("docstrata_" + safe)[:63]


def tsvector_literal(tokens: list[str]) -> str:
    """``tokens`` (analysed, in text order) and their term pairs as tsvector input text:
    ``'tok':1,4 'other':2 'tok→other':1``.

    Positions are 1-based token indices, as tantivy's, so phrase queries agree; a pair takes its
    first token's position (positions saturate at 16383, so pairs placed after the tokens would
    lose their counts in a long text). PostgreSQL caps a tsvector's lexemes and positions at 1 MB:
    a text whose pairs would pass :data:`MAX_TSVECTOR_BYTES` (about 50,000 words of prose) is
    stored without them, and lexemes past the cap are left out rather than failing the write.
    """
    positions: dict[str, list[int]] = {}
    for i, term in enumerate(tokens, start=1):
        positions.setdefault(term, []).append(min(i, MAX_POSITION))
    pairs: dict[str, list[int]] = {}
    for i, term in enumerate(term_pairs(tokens), start=1):
        pairs.setdefault(term, []).append(min(i, MAX_POSITION))
    if _tsvector_bytes(positions) + _tsvector_bytes(pairs) <= MAX_TSVECTOR_BYTES:
        positions.update(pairs)
    out, size = [], 0
    for term, pos in positions.items():
        n = _tsvector_bytes({term: pos})
        if len(term.encode("utf-8")) > MAX_LEXEME_BYTES or size + n > MAX_TSVECTOR_BYTES:
            continue
        size += n
        out.append(f"{_quote(term)}:{','.join(map(str, dict.fromkeys(pos)))}")
    return " ".join(out)


def _tsvector_bytes(positions: dict[str, list[int]]) -> int:
    """Bytes PostgreSQL counts against a tsvector's limit: per lexeme its bytes rounded up to
    even, a 2-byte position count and 2 bytes per distinct position (at most 256)."""
    return sum(
        (len(t.encode("utf-8")) + 1) // 2 * 2 + 2 + 2 * min(len(set(p)), MAX_POSITIONS) for t, p in positions.items()
    )


def filter_sql(flt: ChunkFilter | None, alias: str = "c") -> tuple[str, dict]:
    """A ``WHERE`` condition over the ``chunks`` table (as ``alias``) for ``flt``, with named
    parameters (``f_*``). Section and metadata conditions read the chunk's JSONB ``data``."""
    if flt is None or flt.empty:
        return "TRUE", {}
    conds, args = [], {}
    if flt.doc_keys is not None:
        conds.append(f"{alias}.doc_key = ANY(%(f_docs)s)")
        args["f_docs"] = list(flt.doc_keys)
    if flt.chunk_ids is not None:
        conds.append(f"{alias}.chunk_id = ANY(%(f_ids)s)")
        args["f_ids"] = list(flt.chunk_ids)
    if flt.section is not None:
        conds.append(f"({alias}.data -> 'metadata' -> 'section_path') ? %(f_section)s")
        args["f_section"] = flt.section
    for i, mc in enumerate(flt.metadata):
        args[f"f_name{i}"] = mc.name
        num = f"({alias}.data -> 'metadata' -> 'numbers' ->> %(f_name{i})s)::float8"
        if mc.values:
            conds.append(f"({alias}.data -> 'metadata' -> 'fields' ->> %(f_name{i})s) = ANY(%(f_vals{i})s)")
            args[f"f_vals{i}"] = list(mc.values)
        if mc.numbers:
            conds.append(f"{num} = ANY(%(f_nums{i})s)")
            args[f"f_nums{i}"] = list(mc.numbers)
        for op, sym in (("gt", ">"), ("gte", ">="), ("lt", "<"), ("lte", "<=")):
            if getattr(mc, op) is not None:
                conds.append(f"{num} {sym} %(f_{op}{i})s")
                args[f"f_{op}{i}"] = getattr(mc, op)
    return " AND ".join(conds), args


def _quote(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def _register_dsn_secret(dsn: str) -> None:
    """Register the DSN and its password (as libpq parses it) with the redactor."""
    from ..redact import register_secret

    register_secret(dsn)
    try:
        from psycopg.conninfo import conninfo_to_dict

        register_secret(str(conninfo_to_dict(dsn).get("password") or ""))
    except Exception:  # noqa: BLE001 - an unparsable DSN is reported by connect()
        pass


def _redact(dsn: str) -> str:
    from ..redact import redact

    return redact(dsn)


class PostgresStore:
    """Store of one tool in PostgreSQL with pgvector. ``dsn``: libpq connection string or URI;
    ``dim``: vector size. One connection, serialised by a lock (thread-safe, not parallel).

    Raises :class:`StoreError` (backend ``"postgres"``) when the server is unreachable, the
    ``vector`` extension is missing, or the stored dimension differs from ``dim``.
    """

    def __init__(self, dsn: str | None, tool: str, dim: int):
        if not dsn:
            raise StoreError("postgres", "no dsn configured (database.dsn)")
        try:
            import psycopg
            from pgvector.psycopg import register_vector
        except ImportError as e:
            raise StoreError("postgres", f"{e.name} is not installed; pip install 'docstrata[postgres]'") from None
        _register_dsn_secret(dsn)
        self.dim, self.tool, self.schema = dim, tool, schema_name(tool)
        self._psycopg = psycopg
        self._lock = threading.RLock()
        self._ef_search = 0
        self._dsn, self._closed, self._locked = dsn, False, False
        try:
            self._conn = psycopg.connect(dsn, autocommit=True, connect_timeout=_CONNECT_TIMEOUT_S)
        except psycopg.Error as e:
            raise StoreError("postgres", f"cannot connect to {_redact(dsn)}: {str(e).strip()}") from None
        try:
            self._conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as e:
            self._conn.close()
            raise StoreError(
                "postgres", f"the pgvector extension ('vector') is not available on {_redact(dsn)}: {str(e).strip()}"
            ) from None
        try:
            register_vector(self._conn)
            self._create_schema()
            self._check_dim()
        except psycopg.Error as e:
            self._conn.close()
            raise StoreError("postgres", f"cannot set up schema {self.schema}: {str(e).strip()}") from None
        except BaseException:
            self._conn.close()
            raise

    # ---------------------------------------------------------------- connection
    @property
    def _conn(self):
        """The connection; a broken one (server restarted, network cut) is replaced on next use,
        except while the ingest lock is held on it (that session's lock died with it: the ingest fails)."""
        c = self._c
        if (c.broken or c.closed) and not self._closed and not self._locked:
            from pgvector.psycopg import register_vector

            try:
                c = self._psycopg.connect(self._dsn, autocommit=True, connect_timeout=_CONNECT_TIMEOUT_S)
                register_vector(c)
            except self._psycopg.Error as e:
                raise StoreError(
                    "postgres",
                    f"the connection was lost and cannot be re-opened: {str(e).strip()}; check that the server is up",
                ) from None
            self._c, self._ef_search = c, 0
        return self._c

    @_conn.setter
    def _conn(self, value) -> None:
        self._c = value

    def ingest_lock(self, what: str, timeout_s: float, on_wait=None):
        """Context manager holding this tool's session advisory lock (released by the server if we die)."""
        import contextlib

        from ..locking import postgres_advisory_lock

        @contextlib.contextmanager
        def held():
            with postgres_advisory_lock(
                self._lock, self._conn, f"docstrata-ingest:{self.schema}", what, timeout_s, on_wait
            ):
                self._locked = True
                try:
                    yield
                finally:
                    self._locked = False

        return held()

    def _create_schema(self) -> None:
        s = f'"{self.schema}"'
        with self._lock, self._conn.transaction():
            # One creator at a time: concurrent CREATE ... IF NOT EXISTS can still collide.
            self._conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.schema,))
            self._conn.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
            self._conn.execute(_DDL.format(s=s, dim=int(self.dim)))

    def _check_dim(self) -> None:
        record_or_check_dimension(self, "postgres", f"schema {self.schema}", SCHEMA_VERSION)

    def _t(self, table: str) -> str:
        return f'"{self.schema}".{table}'

    def _rows(self, query: str, params: Iterable[Any] | dict | None = None) -> list[tuple]:
        """Run a read; a connection the server dropped is re-opened and the read retried once."""
        with self._lock:
            try:
                return self._conn.execute(query, params).fetchall()
            except self._psycopg.OperationalError:
                if not self._c.broken or self._locked:
                    raise
            return self._conn.execute(query, params).fetchall()

    # ---------------------------------------------------------------- writes
    def _write_chunks(self, cur, chunks: list[StoredChunk]) -> None:
        from psycopg.types.json import Jsonb

        chunk_rows, vec_rows, exact_rows = [], [], []
        for sc, vecs in zip(chunks, checked_vector_batch(chunks, self.dim, "postgres")):
            c = prepare_chunk(sc.chunk)
            text = c.contextualized_content
            tokens = analyze(text, chunk_language(c))
            chunk_rows.append(
                (
                    c.chunk_id,
                    c.doc_key,
                    c.ordinal,
                    sha256_text(text),
                    Jsonb(c.to_dict()),
                    tsvector_literal(tokens),
                    len(tokens) + max(len(tokens) - 1, 0),
                )
            )  # = len(index_terms)
            vec_rows += [(c.chunk_id, i, vecs[i]) for i in range(vecs.shape[0])]
            exact_rows += [(k, c.chunk_id, p) for k, p in sc.exact_keys]
        ids = [r[0] for r in chunk_rows]
        # Deleting first (cascading to vectors and exact keys) makes an upsert a clean replace.
        cur.execute(f"DELETE FROM {self._t('chunks')} WHERE chunk_id = ANY(%s)", (ids,))
        cur.executemany(f"INSERT INTO {self._t('chunks')} VALUES (%s,%s,%s,%s,%s,%s::tsvector,%s)", chunk_rows)
        cur.executemany(f"INSERT INTO {self._t('vectors')} VALUES (%s,%s,%s)", vec_rows)
        cur.executemany(f"INSERT INTO {self._t('exact')} VALUES (%s,%s,%s)", exact_rows)

    def _write(self, fn) -> None:
        with self._lock:
            try:
                with self._conn.transaction(), self._conn.cursor() as cur:
                    fn(cur)
            except self._psycopg.OperationalError as e:
                raise StoreError("postgres", f"write failed: {str(e).strip()}") from None

    def replace_document(
        self, doc_key: str, state: FileState, chunks: list[StoredChunk], definitions: list[DefinitionEntry]
    ) -> None:
        """:meth:`Store.replace_document`: the document's chunks, exact keys, definitions and file
        state replaced in one PostgreSQL transaction."""
        from ..index.exact import term_key

        def run(cur) -> None:
            cur.execute(f"DELETE FROM {self._t('chunks')} WHERE doc_key = %s", (doc_key,))
            cur.execute(f"DELETE FROM {self._t('definitions')} WHERE doc_key = %s", (doc_key,))
            self._write_chunks(cur, chunks)
            cur.executemany(
                f"INSERT INTO {self._t('definitions')} (doc_key, term_key, term, definition, section_id, chunk_id, "
                f"scope, scope_label) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
                [
                    (doc_key, term_key(d.term), d.term, d.definition, d.section_id, d.chunk_id, d.scope, d.scope_label)
                    for d in definitions
                ],
            )
            self._upsert_state(cur, doc_key, state)

        self._write(run)
        note_keyword_languages(self, chunks)

    def _upsert_state(self, cur, doc_key: str, state: FileState) -> None:
        cur.execute(
            f"INSERT INTO {self._t('files')} VALUES (%s,%s,%s,%s) ON CONFLICT (doc_key) DO UPDATE "
            f"SET size = EXCLUDED.size, mtime_ns = EXCLUDED.mtime_ns, sha256 = EXCLUDED.sha256",
            (doc_key, state.size, state.mtime_ns, state.sha256),
        )

    def upsert_chunks(self, doc_key: str, chunks: list[StoredChunk]) -> None:
        """:meth:`Store.upsert_chunks`: insert or replace ``chunks`` by id, in one transaction."""
        if chunks:
            self._write(lambda cur: self._write_chunks(cur, chunks))
            note_keyword_languages(self, chunks)

    def delete_chunks(self, chunk_ids: list[str]) -> None:
        """:meth:`Store.delete_chunks`: delete by id in one statement; unknown ids are ignored."""
        if chunk_ids:
            self._write(
                lambda cur: cur.execute(f"DELETE FROM {self._t('chunks')} WHERE chunk_id = ANY(%s)", (list(chunk_ids),))
            )

    def delete_document(self, doc_key: str) -> None:
        """:meth:`Store.delete_document`: its chunks, definitions and file state, in one transaction."""

        def run(cur) -> None:
            for table in ("chunks", "definitions", "files"):
                cur.execute(f"DELETE FROM {self._t(table)} WHERE doc_key = %s", (doc_key,))

        self._write(run)

    def set_file_state(self, doc_key: str, state: FileState) -> None:
        """:meth:`Store.set_file_state`: size, mtime (ns) and sha256 of the file, replacing any earlier state."""
        self._write(lambda cur: self._upsert_state(cur, doc_key, state))

    def flush(self) -> None:
        """Nothing to do: every write commits its own transaction."""

    def drop(self) -> None:
        """Remove this tool's schema and everything in it (used by tests and full rebuilds)."""
        with self._lock:
            self._conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')

    # ---------------------------------------------------------------- reads
    def file_states(self) -> dict[str, FileState]:
        """:meth:`Store.file_states`: doc_key → :class:`FileState` of every stored file."""
        return {r[0]: FileState(r[1], r[2], r[3]) for r in self._rows(f"SELECT * FROM {self._t('files')}")}

    def chunk_hashes(self, doc_key: str) -> dict[str, str]:
        """:meth:`Store.chunk_hashes`: chunk_id → sha256 of the stored text, for one document."""
        return dict(self._rows(f"SELECT chunk_id, sha256 FROM {self._t('chunks')} WHERE doc_key = %s", (doc_key,)))

    def get_chunks(self, chunk_ids: list[str]) -> list[Chunk]:
        """:meth:`Store.get_chunks`: chunks by id in the order asked; unknown ids left out."""
        if not chunk_ids:
            return []
        rows = self._rows(
            f"SELECT chunk_id, data FROM {self._t('chunks')} WHERE chunk_id = ANY(%s)", (list(chunk_ids),)
        )
        found = {cid: Chunk.from_dict(data) for cid, data in rows}
        return [found[c] for c in chunk_ids if c in found]

    def document_chunks(self, doc_key: str) -> list[Chunk]:
        """:meth:`Store.document_chunks`: every chunk of ``doc_key`` in ordinal order."""
        rows = self._rows(f"SELECT data FROM {self._t('chunks')} WHERE doc_key = %s ORDER BY ordinal", (doc_key,))
        return [Chunk.from_dict(r[0]) for r in rows]

    def documents(self) -> list[str]:
        """:meth:`Store.documents`: every doc_key that has chunks, sorted."""
        return [r[0] for r in self._rows(f"SELECT DISTINCT doc_key FROM {self._t('chunks')} ORDER BY doc_key")]

    def count(self) -> int:
        """:meth:`Store.count`: the number of stored chunks, from the stats row the writes keep (no table scan)."""
        return self._rows(f"SELECT n_chunks FROM {self._t('stats')}")[0][0]

    def dense_search(self, vector: np.ndarray, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        """Top ``k`` chunks by the cosine of their best window. The HNSW index returns the
        nearest ``4k + 16`` windows (so several windows of one chunk cannot crowd out k distinct
        chunks); ``hnsw.ef_search`` is raised to at least that many candidates.

        With a filter the search is exact over the matching chunks' windows (the condition in the
        ``WHERE`` clause, the HNSW index not used): an HNSW scan filters after its candidate list,
        so it could return fewer than ``k`` matches."""
        if k <= 0:
            return []
        m = k * 4 + 16
        q = np.asarray(vector, dtype=np.float32).reshape(self.dim)
        if flt is not None and not flt.empty:
            where, args = filter_sql(flt)
            return [
                (cid, float(s))
                for cid, s in self._rows(
                    f"SELECT v.chunk_id, max(1 - (v.vec <=> %(q)s)) AS s FROM {self._t('vectors')} v "
                    f"JOIN {self._t('chunks')} c USING (chunk_id) WHERE {where} "
                    f"GROUP BY v.chunk_id ORDER BY s DESC, v.chunk_id LIMIT %(k)s",
                    {"q": q, "k": k, **args},
                )
            ]
        with self._lock:
            want = min(1000, max(40, m))
            if want != self._ef_search:
                self._conn.execute(f"SET hnsw.ef_search = {want}")
                self._ef_search = want
            rows = self._conn.execute(
                f"SELECT chunk_id, max(1 - d) AS s FROM ("
                f"  SELECT chunk_id, vec <=> %(q)s AS d FROM {self._t('vectors')} ORDER BY vec <=> %(q)s LIMIT %(m)s"
                f") w GROUP BY chunk_id ORDER BY s DESC, chunk_id LIMIT %(k)s",
                {"q": q, "m": m, "k": k},
            ).fetchall()
        return [(cid, float(s)) for cid, s in rows]

    def _bm25(
        self, weighted: list[tuple[str, float]], k: int, phrase: bool, flt: ChunkFilter | None = None
    ) -> list[tuple[str, float]]:
        """Top ``k`` (chunk_id, Σ weight × BM25) over (term, weight) pairs; with ``phrase``, only
        chunks holding the terms as adjacent lexemes, in the given order."""
        weights = dict(weighted)  # a phrase may repeat a term (all weights 1.0 there)
        terms = list(weights)
        if not terms or k <= 0:
            return []
        joiner = " <-> " if phrase else " | "
        tsq = joiner.join(_quote(t) for t, _ in weighted) if phrase else joiner.join(_quote(t) for t in terms)
        with self._lock:
            n_docs, n_tokens = self._conn.execute(f"SELECT n_chunks, n_tokens FROM {self._t('stats')}").fetchone()
            if n_docs == 0:
                return []
            # One row per term (not one column: a long query has more terms than a select list allows).
            dfs = [
                df
                for (df,) in self._conn.execute(
                    f"SELECT (SELECT count(*) FROM {self._t('chunks')} WHERE tsv @@ q.tsq::tsquery) "
                    f"FROM unnest(%s::text[]) WITH ORDINALITY AS q(tsq, i) ORDER BY q.i",
                    ([_quote(t) for t in terms],),
                ).fetchall()
            ]
            idfs = [weights[t] * float(np.log(1 + (n_docs - df + 0.5) / (df + 0.5))) for t, df in zip(terms, dfs)]
            where, fargs = filter_sql(flt)
            rows = self._conn.execute(
                f"SELECT c.chunk_id, sum(t.idf * (f.tf * %(k1p)s) / (f.tf + %(k1)s * (1 - %(b)s + %(b)s * c.n_tokens"
                f"       / %(avgdl)s))) AS score "
                f"FROM {self._t('chunks')} c "
                f"CROSS JOIN LATERAL (SELECT u.lexeme, cardinality(u.positions) AS tf FROM unnest(c.tsv) u "
                f"                    WHERE u.lexeme = ANY(%(terms)s)) f "
                f"JOIN unnest(%(terms)s::text[], %(idfs)s::float8[]) AS t(term, idf) ON t.term = f.lexeme "
                f"WHERE c.tsv @@ %(tsq)s::tsquery AND {where} "
                f"GROUP BY c.chunk_id ORDER BY score DESC, c.chunk_id LIMIT %(k)s",
                {
                    "k1p": K1 + 1,
                    "k1": K1,
                    "b": B,
                    "avgdl": n_tokens / n_docs,
                    "terms": terms,
                    "idfs": idfs,
                    "tsq": tsq,
                    "k": k,
                    **fargs,
                },
            ).fetchall()
        return [(cid, float(s)) for cid, s in rows]

    def keyword_search(self, query: str, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        """Top ``k`` (chunk_id, BM25) over analysed text; see the module docstring for the formula.
        ``flt`` restricts the chunks scored; document frequencies stay the collection's."""
        return self._bm25(query_terms(query, keyword_languages(self)), k, phrase=False, flt=flt)

    def term_document_frequencies(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        """(chunks stored, {analysed term: chunks holding it}): the statistics :meth:`_bm25` computes
        idf from, which the answer's confidence weighs the query's words by (:mod:`docstrata.confidence`)."""
        terms = list(dict.fromkeys(terms))
        with self._lock:
            (n_docs,) = self._conn.execute(f"SELECT n_chunks FROM {self._t('stats')}").fetchone()
            if not terms:
                return int(n_docs), {}
            dfs = self._conn.execute(
                f"SELECT (SELECT count(*) FROM {self._t('chunks')} WHERE tsv @@ q.tsq::tsquery) "
                f"FROM unnest(%s::text[]) WITH ORDINALITY AS q(tsq, i) ORDER BY q.i",
                ([_quote(t) for t in terms],),
            ).fetchall()
        return int(n_docs), {t: int(df) for t, (df,) in zip(terms, dfs)}

    def phrase_search(self, phrase: str, k: int, flt: ChunkFilter | None = None) -> list[str]:
        """Chunks whose analysed text holds the analysed phrase as adjacent tokens (tsquery ``<->``),
        best BM25 over the phrase's tokens first."""
        return [cid for cid, _ in self._bm25([(t, 1.0) for t in analyze(phrase)], k, phrase=True, flt=flt)]

    def exact_lookup(self, keys: list[str], limit: int = 100, flt: ChunkFilter | None = None) -> dict[str, list[str]]:
        """:meth:`Store.exact_lookup`: key → up to ``limit`` chunk ids, by key priority then document
        order, among the chunks ``flt`` allows."""
        out: dict[str, list[str]] = {}
        if not keys:
            return out
        where, args = filter_sql(flt)
        rows = self._rows(
            f"SELECT e.key, e.chunk_id FROM {self._t('exact')} e JOIN {self._t('chunks')} c "
            f"USING (chunk_id) WHERE e.key = ANY(%(f_keys)s) AND {where} ORDER BY e.priority, "
            f"c.doc_key, c.ordinal, c.chunk_id",
            {"f_keys": list(keys), **args},
        )
        for key, cid in rows:
            lst = out.setdefault(key, [])
            if len(lst) < limit:
                lst.append(cid)
        return out

    def definitions(self, term_key: str | None = None, doc_key: str | None = None) -> list[DefinitionEntry]:
        """:meth:`Store.definitions`: definitions by exact-index term key and/or document, in the order written."""
        q = (
            f"SELECT doc_key, term, definition, section_id, chunk_id, scope, scope_label FROM {self._t('definitions')} "
            f"WHERE (%(t)s::text IS NULL OR term_key = %(t)s) AND (%(d)s::text IS NULL OR doc_key = %(d)s) "
            f"ORDER BY doc_key, id"
        )
        return [
            DefinitionEntry(term=t, definition=d, doc_key=dk, section_id=s, chunk_id=c, scope=sc, scope_label=sl)
            for dk, t, d, s, c, sc, sl in self._rows(q, {"t": term_key, "d": doc_key})
        ]

    # ---------------------------------------------------------------- caches and meta
    def cached_vectors(self, model_id: str, hashes: list[str]) -> dict[str, np.ndarray]:
        """:meth:`Store.cached_vectors`: sha256 → (n_windows, dim) float32 vectors cached for ``model_id``."""
        if not hashes:
            return {}
        rows = self._rows(
            f"SELECT sha256, n, vecs FROM {self._t('embed_cache')} WHERE model_id = %s AND sha256 = ANY(%s)",
            (model_id, list(hashes)),
        )
        return {h: np.frombuffer(bytes(blob), dtype=np.float32).reshape(n, self.dim) for h, n, blob in rows}

    def cache_vectors(self, model_id: str, items: dict[str, np.ndarray]) -> None:
        """:meth:`Store.cache_vectors`: add or replace embedding-cache entries, in one transaction."""
        rows = [
            (model_id, h, v.shape[0], np.ascontiguousarray(v, dtype=np.float32).tobytes()) for h, v in items.items()
        ]
        if rows:
            self._write(
                lambda cur: cur.executemany(
                    f"INSERT INTO {self._t('embed_cache')} VALUES (%s,%s,%s,%s) ON CONFLICT (model_id, sha256) "
                    f"DO UPDATE SET n = EXCLUDED.n, vecs = EXCLUDED.vecs",
                    rows,
                )
            )

    def get_meta(self, key: str) -> str | None:
        """:meth:`Store.get_meta`: the stored value of ``key``, or None."""
        rows = self._rows(f"SELECT value FROM {self._t('meta')} WHERE key = %s", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        """:meth:`Store.set_meta`: store ``value`` under ``key`` (upsert)."""
        self._write(
            lambda cur: cur.execute(
                f"INSERT INTO {self._t('meta')} VALUES (%s,%s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (key, value),
            )
        )

    def close(self) -> None:
        """Close the connection and stop reconnecting; safe to call twice."""
        with self._lock:
            self._closed = True
            self._c.close()  # idempotent in psycopg
