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
rebuilding the matrix from every SQLite row (1M rows: 8.8 s → well under a second); from
``dense.F16_MIN_ROWS`` rows its float16 copy (the prefilter's, ``vectors-<generation>.f16.faiss`` +
``.norm``) is written beside it and memory-mapped too. The files are discarded when the generation
moves on or unflushed writes are found at open.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import numpy as np

from ..errors import DocstrataError, StoreError
from ..index.dense import DenseIndex, read_float16, wants_float16, write_float16
from ..index.keyword import KeywordIndex, analyze
from ..models import Chunk, DefinitionEntry, FileState, sha256_text
from .base import ChunkFilter, StoredChunk, checked_vectors, prepare_chunk, record_or_check_dimension


def _json_key(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def filter_sql(flt: ChunkFilter, alias: str = "c") -> tuple[str, list]:
    """A SQLite ``WHERE`` condition (over the ``chunks`` table as ``alias``) for ``flt``, and its
    parameters. Section and metadata conditions read the stored chunk JSON with SQLite's JSON
    functions, so no Python runs per row."""
    conds, args = [], []
    if flt.doc_keys is not None:
        conds.append(f"{alias}.doc_key IN ({','.join('?' * len(flt.doc_keys))})" if flt.doc_keys else "0")
        args += list(flt.doc_keys)
    if flt.chunk_ids is not None:
        conds.append(f"{alias}.chunk_id IN ({','.join('?' * len(flt.chunk_ids))})" if flt.chunk_ids else "0")
        args += list(flt.chunk_ids)
    if flt.section is not None:
        conds.append(f"EXISTS (SELECT 1 FROM json_each({alias}.data, '$.metadata.section_path') WHERE value = ?)")
        args.append(flt.section)
    for mc in flt.metadata:
        if mc.values:
            conds.append(f"json_extract({alias}.data, '$.metadata.fields.' || ?) IN ({','.join('?' * len(mc.values))})")
            args += [_json_key(mc.name), *mc.values]
        num = f"json_extract({alias}.data, '$.metadata.numbers.' || ?)"
        if mc.numbers:
            conds.append(f"{num} IN ({','.join('?' * len(mc.numbers))})")
            args += [_json_key(mc.name), *mc.numbers]
        for op, sym in (("gt", ">"), ("gte", ">="), ("lt", "<"), ("lte", "<=")):
            bound = getattr(mc, op)
            if bound is not None:
                conds.append(f"{num} {sym} ?")
                args += [_json_key(mc.name), bound]
    return (" AND ".join(conds) or "1"), args

SCHEMA_VERSION = "1"

log = logging.getLogger("docstrata.store")


def _io_failure(e: Exception | None) -> bool:
    """True when SQLite failed to read or write the files (permissions, full disk), not on their content."""
    text = str(e).lower()
    return isinstance(e, sqlite3.OperationalError) and any(
        w in text for w in ("disk i/o", "unable to open", "readonly", "read-only", "disk is full", "locking protocol"))


def _corrupt(root, e: Exception) -> StoreError:
    return StoreError("embedded", f"the index database {root}/index.sqlite is damaged ({e}); "
                                  "move it aside and run 'docstrata ingest' to rebuild it from the sources")

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

    _vector_file = True  # the dense matrix is kept in a memory-mappable file per generation

    def __init__(self, root: str | Path | None, dim: int):
        self.dim = dim
        self.root = Path(root) if root is not None else None
        self._lock = threading.RLock()
        self.read_only = False
        self._wrote = False  # set by any write; close() and flush() write nothing otherwise
        try:
            self._db = self._connect()
        except (OSError, sqlite3.Error) as e:
            raise StoreError("embedded", f"cannot open {self.root or 'memory'}: {e}") from None
        try:
            self._check_dim()
        except sqlite3.DatabaseError as e:
            raise _corrupt(self.root, e) from None
        # writes after the last flush: the vector file may not hold them (dropped; never mapped)
        self._vectors_stale = self.root is not None and bool(
            self._db.execute("SELECT 1 FROM keyword_dirty LIMIT 1").fetchone())
        if self._vectors_stale and self._vector_file:
            self._drop_vector_files()
        self._keyword = self._open_keyword()
        self._dense: DenseIndex | None = None
        self._generation = self._read_generation()

    # ---------------------------------------------------------------- setup
    def _connect(self) -> sqlite3.Connection:
        """Open SQLite read-write where the folder and file are writable, else read-only (the
        search path needs no write: a read-only folder or one owned by another user still searches)."""
        if self.root is None:
            db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            db.executescript(_DDL)
            return db
        path = self.root / "index.sqlite"
        if not self.root.exists():
            self.root.mkdir(parents=True, exist_ok=True)
        writable = os.access(self.root, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))
        if writable:
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            try:
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                if db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('meta','files','chunks','vectors',"
                              "'exact','definitions','embed_cache','keyword_dirty')").fetchone()[0] < 8:
                    db.executescript(_DDL)
                return db
            except sqlite3.DatabaseError as e:
                db.close()
                if not path.exists() or not _io_failure(e):
                    raise _corrupt(self.root, e) from None
                log.info("index at %s cannot be written (%s): opening it read-only", self.root, e)
        if not path.exists():
            raise StoreError("embedded", f"no index at {self.root} and the folder is not writable: "
                                         "run 'docstrata ingest' as a user who may write there")
        self.read_only = True
        uri = path.resolve().as_uri()
        err: Exception | None = None
        # immutable: no -shm/-wal may be created (read-only folder, full disk); a writer cannot be at work then
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            db = sqlite3.connect(uri + query, uri=True, check_same_thread=False, isolation_level=None)
            try:
                db.execute("SELECT COUNT(*) FROM chunks").fetchone()
                return db
            except sqlite3.DatabaseError as e:
                db.close()
                err = e
                if not _io_failure(e):
                    break
        raise _corrupt(self.root, err) if not _io_failure(err) else StoreError(
            "embedded", f"cannot read the index at {self.root}: {err}")

    def _check_dim(self) -> None:
        record_or_check_dimension(self, "embedded", f"index at {self.root}", SCHEMA_VERSION)

    @property
    def lock_path(self) -> Path | None:
        """The file the ingest lock is taken on (``None`` in memory)."""
        return None if self.root is None else self.root / "ingest.lock"

    def ingest_lock(self, what: str, timeout_s: float, on_wait=None):
        """Context manager holding this index's cross-process ingest lock; on entry the keyword
        index is re-synced, verified and, if broken, rebuilt from SQLite (only a lock holder repairs)."""
        import contextlib

        from ..locking import file_lock

        if self.root is None:
            return contextlib.nullcontext()
        if self.read_only:
            raise StoreError("embedded", f"the index at {self.root} is read-only here (another user's files, "
                                         "a read-only folder or a full disk): ingest as its owner, free space, "
                                         "or point database.path at a writable folder")

        @contextlib.contextmanager
        def held():
            with file_lock(self.lock_path, what, timeout_s, on_wait):
                with self._lock:
                    self._keyword = self._repair_keyword()
                yield

        return held()

    def _open_keyword(self) -> KeywordIndex:
        """The keyword index as found, repaired first when no other process is writing."""
        from ..locking import LockTimeout, file_lock

        if self.root is None:
            return KeywordIndex(None)
        if not self.read_only:
            try:
                with file_lock(self.lock_path, "keyword index", timeout_s=0):
                    return self._repair_keyword()
            except LockTimeout:
                pass  # a writer holds the lock: it repairs; we read what is committed
            except DocstrataError:
                pass  # the lock file cannot be created (read-only folder): read as is
        return self._reader_keyword()

    def _reader_keyword(self) -> KeywordIndex:
        """Open tantivy for reading only; if it cannot be opened, a RAM index built from SQLite."""
        kdir = self.root / "keyword"
        try:
            if kdir.is_dir():
                ki = KeywordIndex(kdir)
                ki.num_docs()
                return ki
        except Exception as e:  # noqa: BLE001 - unreadable tantivy files: fall back below
            log.warning("keyword index at %s cannot be read (%s); searching a copy rebuilt in memory", kdir, e)
        ki = KeywordIndex(None)
        self._fill_keyword(ki)
        return ki

    def _fill_keyword(self, ki: KeywordIndex) -> None:
        for (data,) in self._db.execute("SELECT data FROM chunks ORDER BY doc_key, ordinal"):
            c = Chunk.from_dict(json.loads(data))
            ki.add(c.chunk_id, c.doc_key, c.contextualized_content)
        ki.commit()

    def _keyword_healthy(self, ki: KeywordIndex) -> bool:
        """Probe: tantivy's count matches SQLite's, and a query built from up to three stored
        chunks (first, middle, last) finds each of them. A torn or corrupted term dictionary fails here."""
        try:
            n = self.count()
            if ki.num_docs() != n:
                return False
            if n == 0:
                return True
            # The middle probe is found by a rowid seek: OFFSET n/2 walked half the table (0.95 s at 100k
            # chunks, seconds at 1M, on every open); the seek takes 0.2 ms.
            rows = self._db.execute(
                "SELECT chunk_id, data FROM chunks WHERE rowid IN ((SELECT MIN(rowid) FROM chunks), "
                "(SELECT MAX(rowid) FROM chunks), (SELECT rowid FROM chunks WHERE rowid >= "
                "((SELECT MIN(rowid) FROM chunks) + (SELECT MAX(rowid) FROM chunks)) / 2 ORDER BY rowid LIMIT 1))"
            ).fetchall()
            for cid, data in rows:
                c = Chunk.from_dict(json.loads(data))
                words = " ".join(c.contextualized_content.split()[:12])
                if not words or not analyze(words):
                    continue
                if not ki.search(words, 50):
                    return False
            return True
        except Exception as e:  # noqa: BLE001 - any tantivy failure means rebuild
            log.warning("keyword index at %s failed its check (%s): rebuilding it from SQLite", self.root, e)
            return False

    def _repair_keyword(self) -> KeywordIndex:
        """Re-sync marked documents, verify, and rebuild from SQLite if broken. Caller holds the ingest lock."""
        kdir = self.root / "keyword"
        old = getattr(self, "_keyword", None)
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
            if self._keyword_healthy(ki):
                return ki
        return self._rebuild_keyword(old)

    def _rebuild_keyword(self, old: KeywordIndex | None = None) -> KeywordIndex:
        kdir = self.root / "keyword"
        del old
        shutil.rmtree(kdir, ignore_errors=True)
        ki = KeywordIndex(kdir)
        self._fill_keyword(ki)
        self._db.execute("DELETE FROM keyword_dirty")
        return ki

    def rebuild_indexes(self) -> None:
        """Rebuild the derived indexes (tantivy, the vector matrix) from SQLite. Caller holds the ingest lock."""
        if self.root is None:
            return
        with self._lock:
            self._keyword = self._rebuild_keyword(self._keyword)
            self._dense = None
            self._wrote = True

    def _dense_index(self) -> DenseIndex:
        if self._dense is None:
            with self._lock:
                if self._dense is None:
                    self._dense = self._load_dense()
        return self._dense

    def _new_dense_index(self) -> DenseIndex:
        """An empty dense index for the vectors (the FAISS store supplies an ANN one)."""
        return DenseIndex(self.dim)

    def _load_dense(self) -> DenseIndex:
        di = self._new_dense_index()
        if self._vector_file and not self._vectors_stale and self._map_vector_file(di):
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

    def _float16_path(self, generation: int) -> Path:
        """The faiss float16 copy of the matrix (the prefilter's, from ``F16_MIN_ROWS`` rows), mapped on open."""
        return self.root / f"vectors-{generation}.f16.faiss"

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
        if wants_float16(len(mat)):  # the prefilter's float16 copy, mapped; a torn or odd file is ignored
            f16_p = self._float16_path(self._generation)
            try:
                norm = float(Path(str(f16_p) + ".norm").read_text())
            except (OSError, ValueError):
                norm = 0.0
            if norm > 0:
                di.attach_float16(read_float16(f16_p), norm)
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
            if wants_float16(len(mat)):  # so the next process maps it instead of converting 1M rows
                f16_p = self._float16_path(self._generation)
                norm = write_float16(mat, str(f16_p) + tmp)
                Path(str(f16_p) + ".norm" + tmp).write_text(repr(norm))
                os.replace(str(f16_p) + ".norm" + tmp, str(f16_p) + ".norm")
                os.replace(str(f16_p) + tmp, f16_p)
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
            c = prepare_chunk(sc.chunk)
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
        self._wrote = True
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
        """Commit the keyword index and announce the writes to readers; nothing when nothing was written."""
        with self._lock:
            if not self._wrote:
                return
            self._keyword.commit()
            self._db.execute("DELETE FROM keyword_dirty")
            # Readers in other processes (a running MCP server) compare this to reload their copies.
            old = self._generation
            self._generation = self._read_generation() + 1
            self.set_meta("generation", str(self._generation))
            if self.root is not None and self._vector_file:
                self._carry_vector_file(old)
            self._vectors_stale = False
            self._wrote = False

    def _carry_vector_file(self, old: int) -> None:
        """Give the new generation its vector file: the old one renamed when nothing was written,
        else the matrix in memory (or rebuilt from SQLite once) written anew."""
        old_paths = self._vector_paths(old)
        if not self._wrote and all(p.exists() for p in old_paths):
            try:
                for suffix in (".norm", ""):
                    if Path(str(self._float16_path(old)) + suffix).exists():
                        os.replace(str(self._float16_path(old)) + suffix, str(self._float16_path(self._generation)) + suffix)
                for src, dst in zip(old_paths, self._vector_paths(self._generation)):
                    os.replace(src, dst)
                return
            except OSError:
                pass
        if self._wrote or self._dense is not None:
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

    def _allowed(self, flt: ChunkFilter | None) -> tuple[tuple[str, ...] | None, list[str] | None]:
        """(doc_keys, chunk_ids) restricting a search: doc keys pass straight to tantivy; any other
        condition is resolved to the matching chunk ids by one SQL query."""
        if flt is None or flt.empty:
            return None, None
        if flt.section is None and not flt.metadata and flt.chunk_ids is None:
            return flt.doc_keys, None
        where, args = filter_sql(flt)
        return None, [r[0] for r in self._db.execute(f"SELECT c.chunk_id FROM chunks c WHERE {where}", args)]

    def dense_search(self, vector: np.ndarray, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        self._refresh_if_changed()
        if flt is not None and flt.chunk_ids is not None and flt.doc_keys is None and flt.section is None \
                and not flt.metadata:  # named chunks only (the cosine of returned hits): no SQL needed
            return self._dense_index().search(vector, k, allowed=flt.chunk_ids)
        doc_keys, ids = self._allowed(flt)
        if doc_keys is not None:
            ids = [r[0] for r in self._db.execute(
                f"SELECT chunk_id FROM chunks WHERE doc_key IN ({','.join('?' * len(doc_keys))})", list(doc_keys))]
        return self._dense_index().search(vector, k, allowed=ids)

    def keyword_search(self, query: str, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        self._refresh_if_changed()
        doc_keys, ids = self._allowed(flt)
        return self._keyword.search(query, k, doc_keys=doc_keys, chunk_ids=ids)

    def phrase_search(self, phrase: str, k: int, flt: ChunkFilter | None = None) -> list[str]:
        self._refresh_if_changed()
        doc_keys, ids = self._allowed(flt)
        return self._keyword.phrase_search(phrase, k, doc_keys=doc_keys, chunk_ids=ids)

    def exact_lookup(self, keys: list[str], limit: int = 100, flt: ChunkFilter | None = None) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        if not keys:
            return out
        where, args = filter_sql(flt) if flt is not None else ("1", [])
        q = (f"SELECT e.key, e.chunk_id FROM exact e JOIN chunks c ON c.chunk_id = e.chunk_id "
             f"WHERE e.key IN ({','.join('?' * len(keys))}) AND {where} "
             f"ORDER BY e.priority, c.doc_key, c.ordinal, c.chunk_id")
        for key, cid in self._db.execute(q, [*keys, *args]):
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
            if self.get_meta(key) != value:  # an unchanged value is not rewritten (read-only re-ingest)
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?,?)", (key, value))

    def keyword_size(self) -> int:
        return self._keyword.num_docs()

    def close(self) -> None:
        with self._lock:
            try:
                if self._wrote:
                    self._keyword.commit()
                    self._db.execute("DELETE FROM keyword_dirty")
            finally:
                self._db.close()
