"""The default store: SQLite as system of record, a tantivy BM25 index and an in-memory
float32 matrix beside it, under ``.docstrata/<tool>/``. ``path=None`` keeps all in memory.

Crash safety: every document write is one SQLite transaction (WAL journal) that also marks
the document in ``keyword_dirty``; the tantivy index is derived data, committed in batches by
:meth:`flush`, after which the marks are cleared. On open, marked documents are re-synced
from SQLite, and a tantivy index that is missing, unreadable or out of step is rebuilt, so a
process killed at any moment leaves an index that opens, searches and completes on the next
ingest. Vectors live in SQLite (the record) and in one contiguous float32 matrix for search. The
matrix is also written beside the database as ``vectors-<generation>.npy`` (with the row → chunk
map), a derived cache keyed by the flush generation: a later process memory-maps it instead of
rebuilding the matrix from every SQLite row (1M rows: 8.8 s → well under a second). The file is
discarded when the generation moves on or unflushed writes are found at open.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import numpy as np

from ..errors import StoreError
from ..index.dense import DenseIndex
from ..index.keyword import KeywordIndex
from ..models import Chunk, DefinitionEntry, FileState, sha256_text
from .base import StoredChunk, checked_vectors, record_or_check_dimension

SCHEMA_VERSION = "1"

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (doc_key TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, sha256 TEXT);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY, doc_key TEXT NOT NULL, ordinal INTEGER NOT NULL,
    sha256 TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_key, ordinal);
CREATE TABLE IF NOT EXISTS vectors (chunk_id TEXT NOT NULL, window INTEGER NOT NULL, vec BLOB NOT NULL,
    PRIMARY KEY (chunk_id, window));
CREATE TABLE IF NOT EXISTS exact (key TEXT NOT NULL, chunk_id TEXT NOT NULL, priority INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS exact_key ON exact(key);
CREATE INDEX IF NOT EXISTS exact_chunk ON exact(chunk_id);
CREATE TABLE IF NOT EXISTS definitions (doc_key TEXT NOT NULL, term_key TEXT NOT NULL, term TEXT NOT NULL,
    definition TEXT NOT NULL, section_id TEXT, chunk_id TEXT);
CREATE INDEX IF NOT EXISTS definitions_term ON definitions(term_key);
CREATE INDEX IF NOT EXISTS definitions_doc ON definitions(doc_key);
CREATE TABLE IF NOT EXISTS embed_cache (model_id TEXT NOT NULL, sha256 TEXT NOT NULL, n INTEGER NOT NULL,
    vecs BLOB NOT NULL, PRIMARY KEY (model_id, sha256));
CREATE TABLE IF NOT EXISTS keyword_dirty (doc_key TEXT PRIMARY KEY);
"""


def _ordinal(chunk_id: str) -> int:
    tail = chunk_id.rsplit("#", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class EmbeddedStore:
    """SQLite + tantivy + numpy store of one tool. ``root=None`` → in-memory. ``dim`` = vector size.

    Raises :class:`StoreError` if the directory cannot be created or the database is not ours.
    """

    def __init__(self, root: str | Path | None, dim: int):
        self.dim = dim
        self.root = Path(root) if root is not None else None
        self._lock = threading.RLock()
        try:
            if self.root is not None:
                self.root.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.root / "index.sqlite", check_same_thread=False, isolation_level=None)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            else:
                self._db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            self._db.executescript(_DDL)
        except (OSError, sqlite3.Error) as e:
            raise StoreError("embedded", f"cannot open {self.root or 'memory'}: {e}") from None
        self._check_dim()
        if self.root is not None and self._db.execute("SELECT 1 FROM keyword_dirty LIMIT 1").fetchone():
            self._drop_vector_files()  # writes after the last flush: the cached matrix may not hold them
        self._keyword = self._open_keyword()
        self._dense: DenseIndex | None = None
        self._changed = False  # written since the last flush (the vector file must be renewed)
        self._generation = self._read_generation()

    # ---------------------------------------------------------------- setup
    def _check_dim(self) -> None:
        record_or_check_dimension(self, "embedded", f"index at {self.root}", SCHEMA_VERSION)

    def _open_keyword(self) -> KeywordIndex:
        if self.root is None:
            return KeywordIndex(None)
        kdir = self.root / "keyword"
        try:
            ki = KeywordIndex(kdir)
            consistent = ki.num_docs() == self.count()
        except Exception:  # noqa: BLE001 - a torn or foreign tantivy directory is rebuilt from SQLite
            consistent, ki = False, None
        if ki is not None and consistent:
            dirty = [r[0] for r in self._db.execute("SELECT doc_key FROM keyword_dirty")]
            if dirty:
                for doc_key in dirty:
                    ki.delete_document(doc_key)
                    for c in self.document_chunks(doc_key):
                        ki.add(c.chunk_id, c.doc_key, c.contextualized_content)
                ki.commit()
                self._db.execute("DELETE FROM keyword_dirty")
            if ki.num_docs() == self.count():
                return ki
        shutil.rmtree(kdir, ignore_errors=True)
        ki = KeywordIndex(kdir)
        for (data,) in self._db.execute("SELECT data FROM chunks ORDER BY doc_key, ordinal"):
            c = Chunk.from_dict(json.loads(data))
            ki.add(c.chunk_id, c.doc_key, c.contextualized_content)
        ki.commit()
        self._db.execute("DELETE FROM keyword_dirty")
        return ki

    def _dense_index(self) -> DenseIndex:
        if self._dense is None:
            with self._lock:
                if self._dense is None:
                    self._dense = self._load_dense()
        return self._dense

    def _load_dense(self) -> DenseIndex:
        di = DenseIndex(self.dim)
        if self._map_vector_file(di):
            return di
        rows = self._db.execute("SELECT chunk_id, vec FROM vectors ORDER BY chunk_id, window").fetchall()
        if rows:
            ids = [r[0] for r in rows]
            mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), self.dim)
            di.load(ids, mat)
            self._write_vector_file(di)
        return di

    # ------------------------------------------------------------ the memory-mappable vector file
    def _vector_paths(self, generation: int) -> tuple[Path, Path, Path]:
        base = self.root / f"vectors-{generation}"
        return base.with_suffix(".npy"), base.with_suffix(".owner.npy"), base.with_suffix(".ids")

    def _map_vector_file(self, di: DenseIndex) -> bool:
        """Load ``di`` from this generation's vector file (memory-mapped); False if absent or torn."""
        if self.root is None:
            return False
        mat_p, owner_p, ids_p = self._vector_paths(self._generation)
        try:
            ids = ids_p.read_text(encoding="utf-8").split("\n") if ids_p.exists() else None
            if ids is None:
                return False
            mat = np.load(mat_p, mmap_mode="r")
            owner = np.load(owner_p)
        except (OSError, ValueError):
            return False
        if mat.ndim != 2 or mat.shape[1] != self.dim or len(owner) != len(mat) or mat.dtype != np.float32 \
                or (len(owner) and int(owner.max()) >= len(ids)):
            return False
        di.load_slots(ids, owner, mat)
        return True

    def _write_vector_file(self, di: DenseIndex) -> None:
        """Write the matrix for this generation (tmp + rename; the ids file last marks it complete).
        A read-only directory only costs the next process the rebuild."""
        if self.root is None:
            return
        ids, owner, mat = di.arrays()
        mat_p, owner_p, ids_p = self._vector_paths(self._generation)
        tmp = f".tmp{os.getpid()}"
        try:
            self._drop_vector_files()
            for path, arr in ((mat_p, mat), (owner_p, owner)):
                with open(str(path) + tmp, "wb") as f:
                    np.save(f, arr)
                os.replace(str(path) + tmp, path)
            Path(str(ids_p) + tmp).write_text("\n".join(ids), encoding="utf-8")
            os.replace(str(ids_p) + tmp, ids_p)
        except OSError:
            pass

    def _drop_vector_files(self) -> None:
        for p in self.root.glob("vectors-*"):
            try:
                p.unlink()
            except OSError:
                pass  # mapped by another process on Windows; a stale generation is never read

    # ---------------------------------------------------------------- writes
    def _write_chunks(self, chunks: list[StoredChunk]) -> None:
        db = self._db
        for sc in chunks:
            c = sc.chunk
            vecs = checked_vectors(sc, self.dim, "embedded")
            db.execute("INSERT OR REPLACE INTO chunks VALUES (?,?,?,?,?)",
                       (c.chunk_id, c.doc_key, c.ordinal, sha256_text(c.contextualized_content), json.dumps(c.to_dict())))
            db.execute("DELETE FROM vectors WHERE chunk_id=?", (c.chunk_id,))
            db.executemany("INSERT INTO vectors VALUES (?,?,?)",
                           [(c.chunk_id, i, vecs[i].tobytes()) for i in range(vecs.shape[0])])
            db.execute("DELETE FROM exact WHERE chunk_id=?", (c.chunk_id,))
            db.executemany("INSERT INTO exact VALUES (?,?,?)", [(k, c.chunk_id, p) for k, p in sc.exact_keys])

    def _delete_doc_rows(self, doc_key: str) -> None:
        db = self._db
        db.execute("DELETE FROM vectors WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_key=?)", (doc_key,))
        db.execute("DELETE FROM exact WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_key=?)", (doc_key,))
        db.execute("DELETE FROM chunks WHERE doc_key=?", (doc_key,))
        db.execute("DELETE FROM definitions WHERE doc_key=?", (doc_key,))

    def _apply_memory(self, doc_key: str | None, removed: list[str], chunks: list[StoredChunk]) -> None:
        self._changed = True
        if doc_key is not None:
            self._keyword.delete_document(doc_key)
        for cid in removed:
            self._keyword.delete_chunk(cid)
        for sc in chunks:
            if doc_key is None:
                self._keyword.delete_chunk(sc.chunk.chunk_id)
            self._keyword.add(sc.chunk.chunk_id, sc.chunk.doc_key, sc.chunk.contextualized_content)
        if self._dense is not None:
            for cid in removed:
                self._dense.remove(cid)
            for sc in chunks:
                self._dense.add(sc.chunk.chunk_id, sc.vectors)

    def replace_document(self, doc_key: str, state: FileState, chunks: list[StoredChunk],
                         definitions: list[DefinitionEntry]) -> None:
        from ..index.exact import term_key

        with self._lock:
            old_ids = [r[0] for r in self._db.execute("SELECT chunk_id FROM chunks WHERE doc_key=?", (doc_key,))]
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._delete_doc_rows(doc_key)
                self._write_chunks(chunks)
                self._db.executemany(
                    "INSERT INTO definitions VALUES (?,?,?,?,?,?)",
                    [(doc_key, term_key(d.term), d.term, d.definition, d.section_id, d.chunk_id) for d in definitions])
                self._db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?)",
                                 (doc_key, state.size, state.mtime_ns, state.sha256))
                self._db.execute("INSERT OR IGNORE INTO keyword_dirty VALUES (?)", (doc_key,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._apply_memory(doc_key, old_ids, chunks)

    def upsert_chunks(self, doc_key: str, chunks: list[StoredChunk]) -> None:
        with self._lock:
            ids = [sc.chunk.chunk_id for sc in chunks]
            moved = set()
            for i in range(0, len(ids), 500):
                part = ids[i:i + 500]
                q = f"SELECT DISTINCT doc_key FROM chunks WHERE chunk_id IN ({','.join('?' * len(part))})"
                moved |= {r[0] for r in self._db.execute(q, part)}
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._write_chunks(chunks)
                for dk in moved | {doc_key}:
                    self._db.execute("INSERT OR IGNORE INTO keyword_dirty VALUES (?)", (dk,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._apply_memory(None, [], chunks)

    def delete_chunks(self, chunk_ids: list[str]) -> None:
        if not chunk_ids:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for cid in chunk_ids:
                    row = self._db.execute("SELECT doc_key FROM chunks WHERE chunk_id=?", (cid,)).fetchone()
                    if row:
                        self._db.execute("INSERT OR IGNORE INTO keyword_dirty VALUES (?)", (row[0],))
                    for table in ("vectors", "exact", "chunks"):
                        self._db.execute(f"DELETE FROM {table} WHERE chunk_id=?", (cid,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._apply_memory(None, list(chunk_ids), [])

    def delete_document(self, doc_key: str) -> None:
        with self._lock:
            old_ids = [r[0] for r in self._db.execute("SELECT chunk_id FROM chunks WHERE doc_key=?", (doc_key,))]
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._delete_doc_rows(doc_key)
                self._db.execute("DELETE FROM files WHERE doc_key=?", (doc_key,))
                self._db.execute("INSERT OR IGNORE INTO keyword_dirty VALUES (?)", (doc_key,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._apply_memory(doc_key, old_ids, [])

    def set_file_state(self, doc_key: str, state: FileState) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?)",
                             (doc_key, state.size, state.mtime_ns, state.sha256))

    def flush(self) -> None:
        with self._lock:
            self._keyword.commit()
            self._db.execute("DELETE FROM keyword_dirty")
            # Readers in other processes (a running MCP server) compare this to reload their copies.
            old = self._generation
            self._generation = self._read_generation() + 1
            self.set_meta("generation", str(self._generation))
            if self.root is not None:
                self._carry_vector_file(old)
            self._changed = False

    def _carry_vector_file(self, old: int) -> None:
        """Give the new generation its vector file: the old one renamed when nothing was written,
        else the matrix in memory (or rebuilt from SQLite once) written anew."""
        old_paths = self._vector_paths(old)
        if not self._changed and all(p.exists() for p in old_paths):
            try:
                for src, dst in zip(old_paths, self._vector_paths(self._generation)):
                    os.replace(src, dst)
                return
            except OSError:
                pass
        if self._changed or self._dense is not None:
            if self._dense is None:
                self._dense = self._load_dense()  # no file for the new generation: rebuilt and written
            else:
                self._write_vector_file(self._dense)

    def _read_generation(self) -> int:
        return int(self.get_meta("generation") or 0)

    def _refresh_if_changed(self) -> None:
        """Reload the keyword reader and drop the in-memory matrix if another process has
        flushed writes since we last looked (one indexed SQLite read per search)."""
        if self.root is None:
            return
        gen = self._read_generation()
        if gen != self._generation:
            with self._lock:
                self._keyword.index.reload()
                self._dense = None
                self._generation = gen

    # ---------------------------------------------------------------- reads
    def file_states(self) -> dict[str, FileState]:
        return {r[0]: FileState(r[1], r[2], r[3]) for r in self._db.execute("SELECT * FROM files")}

    def chunk_hashes(self, doc_key: str) -> dict[str, str]:
        return dict(self._db.execute("SELECT chunk_id, sha256 FROM chunks WHERE doc_key=?", (doc_key,)).fetchall())

    def get_chunks(self, chunk_ids: list[str]) -> list[Chunk]:
        found: dict[str, Chunk] = {}
        for i in range(0, len(chunk_ids), 500):
            part = chunk_ids[i:i + 500]
            q = f"SELECT chunk_id, data FROM chunks WHERE chunk_id IN ({','.join('?' * len(part))})"
            for cid, data in self._db.execute(q, part):
                found[cid] = Chunk.from_dict(json.loads(data))
        return [found[c] for c in chunk_ids if c in found]

    def document_chunks(self, doc_key: str) -> list[Chunk]:
        rows = self._db.execute("SELECT data FROM chunks WHERE doc_key=? ORDER BY ordinal", (doc_key,))
        return [Chunk.from_dict(json.loads(r[0])) for r in rows]

    def documents(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT DISTINCT doc_key FROM chunks ORDER BY doc_key")]

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def dense_search(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:  # noqa: D102
        self._refresh_if_changed()
        return self._dense_index().search(vector, k)

    def keyword_search(self, query: str, k: int) -> list[tuple[str, float]]:
        self._refresh_if_changed()
        return self._keyword.search(query, k)

    def phrase_search(self, phrase: str, k: int) -> list[str]:
        self._refresh_if_changed()
        return self._keyword.phrase_search(phrase, k)

    def exact_lookup(self, keys: list[str], limit: int = 100) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        if not keys:
            return out
        q = (f"SELECT e.key, e.chunk_id FROM exact e JOIN chunks c ON c.chunk_id = e.chunk_id "
             f"WHERE e.key IN ({','.join('?' * len(keys))}) ORDER BY e.priority, c.doc_key, c.ordinal, c.chunk_id")
        for key, cid in self._db.execute(q, keys):
            lst = out.setdefault(key, [])
            if len(lst) < limit:
                lst.append(cid)
        return out

    def definitions(self, term_key: str | None = None, doc_key: str | None = None) -> list[DefinitionEntry]:
        q, args = "SELECT doc_key, term, definition, section_id, chunk_id FROM definitions WHERE 1=1", []
        if term_key is not None:
            q += " AND term_key=?"
            args.append(term_key)
        if doc_key is not None:
            q += " AND doc_key=?"
            args.append(doc_key)
        q += " ORDER BY doc_key, rowid"
        return [DefinitionEntry(term=t, definition=d, doc_key=dk, section_id=s, chunk_id=c)
                for dk, t, d, s, c in self._db.execute(q, args)]

    # ---------------------------------------------------------------- caches and meta
    def cached_vectors(self, model_id: str, hashes: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(hashes), 500):
            part = hashes[i:i + 500]
            q = f"SELECT sha256, n, vecs FROM embed_cache WHERE model_id=? AND sha256 IN ({','.join('?' * len(part))})"
            for h, n, blob in self._db.execute(q, [model_id, *part]):
                out[h] = np.frombuffer(blob, dtype=np.float32).reshape(n, self.dim)
        return out

    def cache_vectors(self, model_id: str, items: dict[str, np.ndarray]) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO embed_cache VALUES (?,?,?,?)",
                                 [(model_id, h, v.shape[0], np.ascontiguousarray(v, dtype=np.float32).tobytes())
                                  for h, v in items.items()])
            self._db.execute("COMMIT")

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?,?)", (key, value))

    def keyword_size(self) -> int:
        return self._keyword.num_docs()

    def close(self) -> None:
        with self._lock:
            try:
                self._keyword.commit()
                self._db.execute("DELETE FROM keyword_dirty")
            finally:
                self._db.close()
