"""The default store: SQLite as system of record, a tantivy BM25 index and an in-memory
float32 matrix beside it, under ``.docstrata/<tool>/``. ``path=None`` keeps all in memory.

Crash safety: every document write is one SQLite transaction (WAL journal) that also marks
the document in ``keyword_dirty``; the tantivy index is derived data, committed in batches by
:meth:`flush`, after which the marks are cleared. On open, marked documents are re-synced
from SQLite, and a tantivy index that is missing, unreadable or out of step is rebuilt, so a
process killed at any moment leaves an index that opens, searches and completes on the next
ingest.

Vectors are stored once. In a folder, the record is one memory-mappable float32 file per flush
generation, ``vectors-<generation>.npy`` (with the row → chunk map), written completely (tmp,
fsync, rename) before the generation moves, plus ``pending-<generation>.sqlite``: the vectors
written since, committed before the SQLite transaction of their chunks and matched to them by
the chunk text's sha256 (so a write that never committed is ignored). A later process
memory-maps the file instead of rebuilding a matrix (1M rows: 8.8 s → well under a second); a
flush merges file and pending vectors into the next generation's file a block at a time. From
``dense.PERSIST_MIN_ROWS`` rows the int8 copy the prefilter scans (``vectors-<generation>.i8.faiss``
+ ``.i8.faiss.npy``, its scale and error bounds, derived from the file) is written beside it and
memory-mapped too. In
memory (``path=None``) and for stores whose dense index lives elsewhere (Chroma), the
``vectors`` table holds them.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import threading
import zlib
from pathlib import Path

import numpy as np

from ..errors import DocstrataError, StoreError
from ..index.dense import DenseIndex, Int8Prefilter, persists_prefilter, wants_prefilter
from ..index.keyword import KeywordIndex, analyze, chunk_language
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
from .repair import DB_NAME, set_aside, truncation


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
        w in text for w in ("disk i/o", "unable to open", "readonly", "read-only", "disk is full", "locking protocol")
    )


class DamagedIndex(StoreError):
    """``index.sqlite`` cannot be read: not an I/O failure but its content (truncated, a foreign
    or overwritten header, random bytes). ``cause`` says what SQLite (or the size check) found."""

    def __init__(self, root, cause: object):
        self.cause = str(cause)
        super().__init__(
            "embedded",
            f"the index database {root}/index.sqlite is damaged ({cause}); "
            "move it aside and run 'docstrata ingest' to rebuild it from the sources",
        )


def _corrupt(root, e: object) -> StoreError:
    return DamagedIndex(root, e)


_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (doc_key TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, sha256 TEXT);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY, doc_key TEXT NOT NULL, ordinal INTEGER NOT NULL,
    sha256 TEXT NOT NULL, data TEXT NOT NULL, body BLOB);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_key, ordinal);
CREATE TABLE IF NOT EXISTS vectors (chunk_id TEXT NOT NULL, window INTEGER NOT NULL, vec BLOB NOT NULL,
    PRIMARY KEY (chunk_id, window));
CREATE TABLE IF NOT EXISTS exact (key TEXT NOT NULL, chunk_id TEXT NOT NULL, priority INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS exact_key ON exact(key);
CREATE INDEX IF NOT EXISTS exact_chunk ON exact(chunk_id);
CREATE TABLE IF NOT EXISTS definitions (doc_key TEXT NOT NULL, term_key TEXT NOT NULL, term TEXT NOT NULL,
    definition TEXT NOT NULL, section_id TEXT, chunk_id TEXT, scope TEXT, scope_label TEXT);
CREATE INDEX IF NOT EXISTS definitions_term ON definitions(term_key);
CREATE INDEX IF NOT EXISTS definitions_doc ON definitions(doc_key);
CREATE TABLE IF NOT EXISTS embed_cache (model_id TEXT NOT NULL, sha256 TEXT NOT NULL, n INTEGER NOT NULL,
    vecs BLOB NOT NULL, PRIMARY KEY (model_id, sha256));
CREATE TABLE IF NOT EXISTS keyword_dirty (doc_key TEXT PRIMARY KEY);
"""


# Chunk texts of at least this many UTF-8 bytes are kept zlib-compressed in ``chunks.body`` (level 1:
# about half the size of prose); the JSON in ``data`` then has no ``content``.
_COMPRESS_FROM = 160

try:
    # ISA-L's deflate writes the same zlib format (read back by the standard zlib) 2.5-3x faster than
    # zlib level 1, at the same or a slightly better ratio: 10 instead of 27 µs a 1 KB chunk, ~2 s of
    # a 100k-chunk build's main thread (docs/benchmarks.md, "Session 9: the 100k build").
    from isal.isal_zlib import compress as _deflate
except ImportError:  # a platform without an isal wheel: the standard library's
    from zlib import compress as _deflate


def _chunk_columns(c: Chunk) -> tuple[str, bytes | None]:
    """``(data, body)`` of a chunk row: its compact JSON (:meth:`Chunk.to_row`) and, for a long
    text, the zlib-compressed content left out of that JSON."""
    row = c.to_row()
    raw = c.content.encode("utf-8")
    body = None
    if len(raw) >= _COMPRESS_FROM:
        packed = _deflate(raw, 1)
        if len(packed) < len(raw):
            body = packed
            del row["content"]
    return json.dumps(row, ensure_ascii=False), body


def _chunk(data: str, body: bytes | None) -> Chunk:
    """The :class:`Chunk` of a ``chunks`` row (``data`` JSON, optional compressed ``body``)."""
    d = json.loads(data)
    if body is not None:
        d["content"] = zlib.decompress(body).decode("utf-8")
    return Chunk.from_dict(d)


def _id_line(chunk_id: str) -> str:
    """``chunk_id`` as one line of a vector file's ``.ids`` file: as it is, or JSON-quoted when it
    holds a line break or starts with a quote (a file name may hold any character; a raw ``\n``
    would split one id into several and shift every later slot onto the wrong chunk)."""
    return json.dumps(chunk_id) if "\n" in chunk_id or "\r" in chunk_id or chunk_id.startswith('"') else chunk_id


def _id_from_line(line: str) -> str:
    """The chunk id an ``.ids`` line holds (see :func:`_id_line`); a line written before ids were
    quoted is taken as it is."""
    if line.startswith('"') and line.endswith('"') and len(line) > 1:
        try:
            return json.loads(line)
        except ValueError:
            pass
    return line


class _Background:
    """``fn()`` started on a new thread; :meth:`wait` joins it and re-raises what it raised."""

    def __init__(self, fn):
        self._error: BaseException | None = None

        def run():
            try:
                fn()
            except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                self._error = e

        self._thread = threading.Thread(target=run, name="docstrata-commit", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        self._thread.join()
        if self._error is not None:
            raise self._error


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
            self._open_database()
        except DamagedIndex as e:
            self._repair_database(e)
        # Vectors of a folder store live in the vector files (the record), not in SQLite rows;
        # in memory or when another engine holds the dense index, the ``vectors`` table keeps them.
        self._file_record = self.root is not None and self._vector_file
        self._pending_db: sqlite3.Connection | None = None
        self._lost_vectors: set[str] = set()  # documents whose vectors the vector file lost, until written again
        self._vectors_changed = False  # a vector written or removed since the last flush
        self._dense: DenseIndex | None = None
        self._generation = self._read_generation()
        self._keyword = self._open_keyword()
        self._merge_left_pending()

    # ---------------------------------------------------------------- setup
    def _open_database(self) -> None:
        """Connect and check the dimension; raises :class:`DamagedIndex` for a damaged database."""
        if self.root is not None and (why := truncation(self.root / DB_NAME)):
            raise _corrupt(self.root, why)
        try:
            self._db = self._connect()
        except (OSError, sqlite3.Error) as e:
            raise StoreError("embedded", f"cannot open {self.root or 'memory'}: {e}") from None
        try:
            self._check_dim()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise _corrupt(self.root, e) from None

    def _repair_database(self, damage: DamagedIndex) -> None:
        """A damaged ``index.sqlite`` in a writable folder is set aside (:func:`~.repair.set_aside`,
        under the ingest lock, after checking another process has not repaired it already) and a new
        empty index opened, for the next ingest to rebuild from the sources. Raises ``damage`` when
        the folder is read-only or the files cannot be moved."""
        from ..locking import file_lock

        if self.root is None or not os.access(self.root, os.W_OK):
            raise damage
        with file_lock(self.lock_path, "index repair"):
            try:
                self._open_database()  # another process may have repaired it while we waited
                return
            except DamagedIndex as again:
                try:
                    set_aside(self.root, again.cause)
                except OSError as e:
                    raise StoreError("embedded", f"{again} (setting it aside failed: {e})") from None
            self.read_only = False
            self._open_database()

    def _connect(self) -> sqlite3.Connection:
        """Open SQLite read-write where the folder and file are writable, else read-only (the
        search path needs no write: a read-only folder or one owned by another user still searches)."""
        if self.root is None:
            db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            db.executescript(_DDL)
            self._chunk_body = self._def_scope = True
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
                if (
                    db.execute(
                        "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('meta','files','chunks','vectors',"
                        "'exact','definitions','embed_cache','keyword_dirty')"
                    ).fetchone()[0]
                    < 8
                ):
                    db.executescript(_DDL)
                if not self._has_body_column(db):  # an index written before chunk texts were compressed
                    db.execute("ALTER TABLE chunks ADD COLUMN body BLOB")
                if not self._has_scope_columns(db):  # an index written before definitions had scopes
                    db.execute("ALTER TABLE definitions ADD COLUMN scope TEXT")
                    db.execute("ALTER TABLE definitions ADD COLUMN scope_label TEXT")
                self._chunk_body = self._def_scope = True
                return db
            except sqlite3.DatabaseError as e:
                db.close()
                if not path.exists() or not _io_failure(e):
                    raise _corrupt(self.root, e) from None
                log.info("index at %s cannot be written (%s): opening it read-only", self.root, e)
        if not path.exists():
            raise StoreError(
                "embedded",
                f"no index at {self.root} and the folder is not writable: "
                "run 'docstrata ingest' as a user who may write there",
            )
        self.read_only = True
        uri = path.resolve().as_uri()
        err: Exception | None = None
        # immutable: no -shm/-wal may be created (read-only folder, full disk); a writer cannot be at work then
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            db = sqlite3.connect(uri + query, uri=True, check_same_thread=False, isolation_level=None)
            try:
                db.execute("SELECT COUNT(*) FROM chunks").fetchone()
                self._chunk_body = self._has_body_column(db)
                self._def_scope = self._has_scope_columns(db)
                return db
            except sqlite3.DatabaseError as e:
                db.close()
                err = e
                if not _io_failure(e):
                    break
        raise (
            _corrupt(self.root, err)
            if not _io_failure(err)
            else StoreError("embedded", f"cannot read the index at {self.root}: {err}")
        )

    @staticmethod
    def _has_body_column(db: sqlite3.Connection) -> bool:
        return any(r[1] == "body" for r in db.execute("PRAGMA table_info(chunks)"))

    @staticmethod
    def _has_scope_columns(db: sqlite3.Connection) -> bool:
        return any(r[1] == "scope" for r in db.execute("PRAGMA table_info(definitions)"))

    @property
    def _body(self) -> str:
        """The SQL for the compressed-text column (``NULL`` in a read-only index from before it)."""
        return "body" if self._chunk_body else "NULL"

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
            raise StoreError(
                "embedded",
                f"the index at {self.root} is read-only here (another user's files, "
                "a read-only folder or a full disk): ingest as its owner, free space, "
                "or point database.path at a writable folder",
            )

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
        for data, body in self._db.execute(f"SELECT data, {self._body} FROM chunks ORDER BY doc_key, ordinal"):
            c = _chunk(data, body)
            ki.add(c.chunk_id, c.doc_key, c.contextualized_content, chunk_language(c))
            if chunk_language(c) != "en":
                note_keyword_languages(self, [c])
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
                f"SELECT data, {self._body} FROM chunks WHERE rowid IN ((SELECT MIN(rowid) FROM chunks), "
                "(SELECT MAX(rowid) FROM chunks), (SELECT rowid FROM chunks WHERE rowid >= "
                "((SELECT MIN(rowid) FROM chunks) + (SELECT MAX(rowid) FROM chunks)) / 2 ORDER BY rowid LIMIT 1))"
            ).fetchall()
            for data, body in rows:
                c = _chunk(data, body)
                words = " ".join(c.contextualized_content.split()[:12])
                if not words or not analyze(words, chunk_language(c)):
                    continue
                if not ki.search(words, 50, languages=(chunk_language(c),)):
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
                        ki.add(c.chunk_id, c.doc_key, c.contextualized_content, chunk_language(c))
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
        if not self._file_record:
            rows = self._db.execute("SELECT chunk_id, vec FROM vectors ORDER BY chunk_id, window").fetchall()
            if rows:
                mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), self.dim)
                di.load([r[0] for r in rows], mat)
            return di
        for _attempt in range(5):
            gen = self._read_generation()
            if self._load_record(di, gen):
                return di
            if self._read_generation() == gen:
                break
            di = self._new_dense_index()  # a writer flushed meanwhile and removed that generation's files
        self._recover_lost_vectors(di)
        return di

    # ------------------------------------------------------------ the vector record
    # A folder store's vectors are kept in one memory-mappable float32 file per flush generation,
    # ``vectors-<gen>.npy`` with ``.owner.npy`` (row → chunk slot) and ``.ids`` (slot → chunk id),
    # written to temporary names, fsynced and renamed, the ids file last, before the generation is
    # bumped in SQLite. The vectors written after that flush are in ``pending-<gen>.sqlite``, one row
    # per (chunk id, sha256 of the chunk text), committed before the chunk's own SQLite transaction:
    # after a kill, the chunks table says which of them count (a pending row whose hash the stored
    # chunk does not carry belongs to a write that never committed).
    def _vector_paths(self, generation: int) -> tuple[Path, Path, Path]:
        base = self.root / f"vectors-{generation}"
        return base.with_suffix(".npy"), base.with_suffix(".owner.npy"), base.with_suffix(".ids")

    def _prefilter_path(self, generation: int) -> Path:
        """The int8 copy of the generation's matrix (the prefilter's, from ``dense.PERSIST_MIN_ROWS``
        rows; its parameters in the same name + ``.npy``), derived from the vector file and
        memory-mapped on open."""
        return self.root / f"vectors-{generation}.i8.faiss"

    def _pending_path(self, generation: int) -> Path:
        return self.root / f"pending-{generation}.sqlite"

    def _save_prefilter(self, generation: int, pre: Int8Prefilter | Path, tmp: str) -> None:
        """Write ``pre`` as ``generation``'s int8 copy — a built :class:`Int8Prefilter`, or the path of
        the generation's ``.npy`` matrix to quantise as it is streamed (:meth:`Int8Prefilter.write_from_file`)
        — under temporary names, then renamed: parameters first, the codes last. Raises ``OSError``."""
        pre_p = self._prefilter_path(generation)
        try:
            if isinstance(pre, Int8Prefilter):
                pre.write(str(pre_p) + tmp)
            else:
                Int8Prefilter.write_from_file(pre, str(pre_p) + tmp)
            os.replace(str(pre_p) + tmp + ".npy", str(pre_p) + ".npy")
            os.replace(str(pre_p) + tmp, pre_p)
        except OSError:
            Path(str(pre_p) + tmp).unlink(missing_ok=True)
            Path(str(pre_p) + tmp + ".npy").unlink(missing_ok=True)
            raise

    def _read_vector_file(self, generation: int):
        """(chunk ids, owner, memory-mapped matrix) of a generation's vector file, ``None`` if
        absent (0 rows and no ids file) or ``False`` if present but unreadable or torn."""
        mat_p, owner_p, ids_p = self._vector_paths(generation)
        if not ids_p.exists():
            return None
        try:
            text = ids_p.read_text(encoding="utf-8")
            ids = [_id_from_line(x) for x in text.split("\n")] if text else []
            mat = np.load(mat_p, mmap_mode="r") if len(ids) else np.zeros((0, self.dim), dtype=np.float32)
            owner = np.load(owner_p) if len(ids) else np.zeros(0, dtype=np.int32)
        except (OSError, ValueError):
            return False
        if (
            mat.ndim != 2
            or mat.shape[1] != self.dim
            or len(owner) != len(mat)
            or mat.dtype != np.float32
            or (len(owner) and int(owner.max()) >= len(ids))
        ):
            return False
        return ids, owner, mat

    def _pending_rows(self, generation: int, with_vectors: bool = True):
        """Iterate (chunk id, sha256, windows[, float32 bytes]) written since ``generation``'s
        flush, in write order, one row at a time."""
        if self._pending_db is not None and generation == self._generation:
            db = self._pending_db
        else:
            path = self._pending_path(generation)
            if not path.exists():
                return
            try:
                db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
            except sqlite3.Error:
                return
        cols = "chunk_id, sha256, n, vecs" if with_vectors else "chunk_id, sha256, n"
        try:
            yield from db.execute(f"SELECT {cols} FROM pending ORDER BY rowid")
        except sqlite3.Error:
            return
        finally:
            if db is not self._pending_db:
                db.close()

    def _has_pending(self) -> bool:
        return bool(self._db.execute("SELECT 1 FROM keyword_dirty LIMIT 1").fetchone())

    def _load_record(self, di: DenseIndex, generation: int) -> bool:
        """Fill ``di`` from ``generation``'s vector file and, when writes followed that flush, the
        pending vectors whose chunk is stored with that text. False if the generation's file is
        gone or torn (a reader raced a flush, or the record was damaged)."""
        found = self._read_vector_file(generation)
        if found is False:
            return False
        if found is None:
            legacy = self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
            if legacy:  # an index written before the vector file became the record
                rows = self._db.execute("SELECT chunk_id, vec FROM vectors ORDER BY chunk_id, window").fetchall()
                di.load(
                    [r[0] for r in rows],
                    np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), self.dim),
                )
                self._vectors_changed = self._wrote = not self.read_only  # the next flush writes the file
                return True
            if generation and self.count():
                return False
            found = ([], np.zeros(0, dtype=np.int32), np.zeros((0, self.dim), dtype=np.float32))
        ids, owner, mat = found
        di.load_slots(ids, owner, mat)
        if wants_prefilter(len(mat)):  # the prefilter's int8 copy, mapped; a torn or odd file is ignored
            pre = Int8Prefilter.read(self._prefilter_path(generation), len(mat), self.dim)
            if pre is None and persists_prefilter(len(mat)) and not self.read_only:
                # an index written before the int8 copy (or whose copy is damaged): quantise once and
                # store it, so later processes map it instead of quantising again (seconds at 1M rows)
                pre = Int8Prefilter.build(mat)
                try:
                    self._save_prefilter(generation, pre, f".tmp{os.getpid()}")
                except OSError as e:
                    log.info("cannot store the int8 prefilter copy for %s (%s): kept in memory", self.root, e)
            di.attach_prefilter(pre)
        if self._has_pending() or self._pending_path(generation).exists():
            stored = dict(self._db.execute("SELECT chunk_id, sha256 FROM chunks"))
            for cid in [c for c in ids if c not in stored]:
                di.remove(cid)
            for cid, sha, n, blob in self._pending_rows(generation):
                if stored.get(cid) == sha:
                    di.add(cid, np.frombuffer(blob, dtype=np.float32).reshape(n, self.dim))
        return True

    def _recover_lost_vectors(self, di: DenseIndex) -> None:
        """The vector record is missing or torn: keep what ``di`` holds, and make the next ingest
        embed again (from the embedding cache) the documents whose vectors are gone."""
        have = di.chunk_ids()
        lost = sorted({dk for cid, dk in self._db.execute("SELECT chunk_id, doc_key FROM chunks") if cid not in have})
        if not lost:
            return
        self._lost_vectors.update(lost)
        log.warning(
            "the vector file of the index at %s is missing or damaged: %d document(s) have no vectors "
            "and are left out of semantic search until the next 'docstrata ingest' embeds them again",
            self.root,
            len(lost),
        )
        if not self.read_only:
            with self._lock:
                self._db.executemany("DELETE FROM files WHERE doc_key=?", [(dk,) for dk in lost])

    def semantic_gap(self) -> str:
        """A notice for every answer while documents have no vectors because the vector file was
        missing or damaged (``""`` when none): semantic search cannot find them until an ingest
        embeds them again (the next one does: their file state was cleared)."""
        n = len(self._lost_vectors)
        if not n:
            return ""
        fix = (
            "run 'docstrata ingest' as the index's owner"
            if self.read_only
            else "the next ingest (run by the next search) embeds them again (from the embedding cache when it holds them)"
        )
        return (
            f"semantic search is unavailable for {n} document(s): the index's vector file was missing or "
            f"damaged, so these hits come from keyword and exact matching only; {fix}"
        )

    def _merge_left_pending(self) -> None:
        """Pending vectors of a writer that never flushed (a killed ingest) go into a new
        generation's file at open, when no other process is writing; else the writer does it."""
        from ..locking import LockTimeout, file_lock

        if not self._file_record or self.read_only or not self._pending_path(self._generation).exists():
            return
        try:
            with file_lock(self.lock_path, "vector file", timeout_s=0):
                self._generation = self._read_generation()
                if self._pending_path(self._generation).exists():
                    self._wrote = self._vectors_changed = True
                    self.flush()
        except LockTimeout:
            pass  # a writer holds the lock: its flush merges them
        except DocstrataError:
            pass  # the lock file cannot be created (read-only folder): the overlay serves reads

    def _pending(self) -> sqlite3.Connection:
        """The current generation's pending-vector database, created on the first write."""
        if self._pending_db is None:
            db = sqlite3.connect(self._pending_path(self._generation), check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS pending (chunk_id TEXT NOT NULL, sha256 TEXT NOT NULL, "
                "n INTEGER NOT NULL, vecs BLOB NOT NULL, UNIQUE (chunk_id, sha256))"
            )
            self._pending_db = db
        return self._pending_db

    def _write_pending(self, rows: list[tuple[str, str, int, bytes]]) -> None:
        """Commit vectors before the chunk rows that need them (see the section comment)."""
        db = self._pending()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany("INSERT OR REPLACE INTO pending VALUES (?,?,?,?)", rows)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _write_vector_file(self, generation: int, di: DenseIndex | None) -> None:
        """Write ``generation``'s vector file: from ``di`` when it is loaded, else merged on disk
        from the previous generation's file and the pending vectors, a block at a time (neither the
        matrix nor the pending vectors are held in memory). tmp + fsync + rename, the ids file last.

        Raises :class:`StoreError` when it cannot be written (the generation is then not bumped)."""
        mat_p, owner_p, ids_p = self._vector_paths(generation)
        tmp = f".tmp{os.getpid()}"
        try:
            if di is not None:
                ids, owner, mat = di.arrays()
                n = len(ids)
                if n:
                    for path, arr in ((mat_p, mat), (owner_p, owner)):
                        with open(str(path) + tmp, "wb") as f:
                            np.save(f, arr)
                            f.flush()
                            os.fsync(f.fileno())
                with open(str(ids_p) + tmp, "w", encoding="utf-8") as f:
                    f.write("\n".join(map(_id_line, ids)))
                    f.flush()
                    os.fsync(f.fileno())
            else:
                n = self._merge_to_file(str(mat_p) + tmp, str(owner_p) + tmp, str(ids_p) + tmp)
            if n:
                os.replace(str(mat_p) + tmp, mat_p)
                os.replace(str(owner_p) + tmp, owner_p)
                mapped = np.load(mat_p, mmap_mode="r")
                if persists_prefilter(len(mapped)):
                    # so the next process maps it instead of quantising every row; written before the
                    # ids file, which marks the generation's files complete. Streamed from the file:
                    # memory stays one block (a 1M-row ingest peaked at 2.7 GB when it was built in memory).
                    self._save_prefilter(generation, mat_p, tmp)
                del mapped
            os.replace(str(ids_p) + tmp, ids_p)
        except (OSError, sqlite3.Error) as e:
            pre_p = self._prefilter_path(generation)
            for p in (mat_p, owner_p, ids_p, pre_p):
                Path(str(p) + tmp).unlink(missing_ok=True)
            Path(str(pre_p) + tmp + ".npy").unlink(missing_ok=True)
            raise StoreError("embedded", f"cannot write the vector file {mat_p}: {e}") from None

    def _merge_to_file(self, mat_path: str, owner_path: str, ids_path: str) -> int:
        """Write the live vectors — the previous file's rows whose chunk is still stored and not
        rewritten since, then the pending rows whose chunk is stored with that text (an SQL join,
        streamed) — to ``mat_path`` / ``owner_path`` and their chunk ids to ``ids_path``; returns
        how many chunks. Memory: the previous file's ids, never the vectors."""
        pend = self._pending_path(self._generation)
        db = self._db
        attached = pend.exists()
        if attached:
            db.execute("ATTACH DATABASE ? AS pend", (str(pend),))
        try:
            join = (
                "FROM pend.pending p JOIN chunks c ON c.chunk_id = p.chunk_id AND c.sha256 = p.sha256"
                if attached
                else None
            )
            n_new, rows_new = db.execute(f"SELECT COUNT(*), TOTAL(p.n) {join}").fetchone() if join else (0, 0)
            old_ids, old_owner, old_mat = self._read_vector_file(self._generation) or (
                [],
                np.zeros(0, dtype=np.int32),
                np.zeros((0, self.dim), dtype=np.float32),
            )
            if old_ids:
                live = {r[0] for r in db.execute("SELECT chunk_id FROM chunks")}
                if join:
                    live -= {r[0] for r in db.execute(f"SELECT p.chunk_id {join}")}
                keep_slot = np.fromiter((cid in live for cid in old_ids), dtype=bool, count=len(old_ids))
                del live
            else:
                keep_slot = np.zeros(0, dtype=bool)
            new_slot = np.cumsum(keep_slot) - 1
            row_keep = keep_slot[old_owner] if len(old_owner) else np.zeros(0, dtype=bool)
            n_kept = int(keep_slot.sum())
            total = int(row_keep.sum()) + int(rows_new)
            with open(ids_path, "w", encoding="utf-8") as ids_f:
                ids_f.write("\n".join(_id_line(cid) for cid, k in zip(old_ids, keep_slot) if k))
                if not n_kept + n_new:
                    return 0
                owner = np.empty(total, dtype=np.int32)
                pos, block = 0, 65_536
                # Plain writes, not a writable memory map: mapped pages would count in the
                # process's resident memory until written back (1.5 GB at 1M chunks).
                with open(mat_path, "wb") as out:
                    np.lib.format.write_array_header_1_0(
                        out,
                        {
                            "descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)),
                            "fortran_order": False,
                            "shape": (total, self.dim),
                        },
                    )
                    for start in range(0, len(old_owner), block):
                        keep = row_keep[start : start + block]
                        m = int(keep.sum())
                        if m:
                            out.write(np.ascontiguousarray(old_mat[start : start + block][keep]).tobytes())
                            owner[pos : pos + m] = new_slot[old_owner[start : start + block][keep]]
                            pos += m
                    slot = n_kept
                    if join:
                        # a batch of rows at a time: one write each for their vectors and ids (a row at
                        # a time was 4 s of a 100k-chunk flush, in Python)
                        rows = db.execute(f"SELECT p.chunk_id, p.n, p.vecs {join} ORDER BY p.rowid")
                        while batch := rows.fetchmany(4096):
                            cids, ns, blobs = zip(*batch)
                            out.write(b"".join(blobs))
                            m = sum(ns)
                            owner[pos : pos + m] = np.repeat(np.arange(slot, slot + len(batch), dtype=np.int32), ns)
                            ids_f.write(("\n" if slot else "") + "\n".join(map(_id_line, cids)))
                            pos += m
                            slot += len(batch)
                    out.flush()
                    os.fsync(out.fileno())
                if pos != total:
                    raise OSError(f"{total} vector rows expected, {pos} written")
                ids_f.flush()
                os.fsync(ids_f.fileno())
            with open(owner_path, "wb") as f:
                np.save(f, owner)
                f.flush()
                os.fsync(f.fileno())
            return n_kept + n_new
        finally:
            if attached:
                db.execute("DETACH DATABASE pend")

    def _generation_files(self, generation: int) -> list[Path]:
        """Every file of ``generation``'s vector record (and copies derived from it, e.g. the int8
        one), temporary files left out."""
        return [p for p in self.root.glob(f"vectors-{generation}.*") if ".tmp" not in p.name]

    def _drop_old_vector_files(self) -> None:
        """Remove every generation's vector and pending files but the current one's."""
        cur_v, cur_p = f"vectors-{self._generation}.", self._pending_path(self._generation).name
        for p in [*self.root.glob("vectors-*"), *self.root.glob("pending-*")]:
            if not p.name.startswith(cur_v) and not p.name.startswith(cur_p):
                try:
                    p.unlink()
                except OSError:
                    pass  # mapped by another process on Windows; a stale generation is never read

    # ---------------------------------------------------------------- writes
    def _write_chunks(self, chunks: list[StoredChunk]) -> None:
        """Write ``chunks`` inside the caller's open transaction. A folder store commits their
        vectors to the pending database first (before the caller's COMMIT), else to ``vectors``."""
        db = self._db
        rows, vec_rows, exact_rows = [], [], []
        for sc, vecs in zip(chunks, checked_vector_batch(chunks, self.dim, "embedded")):
            c = prepare_chunk(sc.chunk)
            sha = sha256_text(c.contextualized_content)
            rows.append((c.chunk_id, c.doc_key, c.ordinal, sha, *_chunk_columns(c)))
            vec_rows.append((c.chunk_id, sha, vecs.shape[0], vecs.tobytes()))
            exact_rows += [(k, c.chunk_id, p) for k, p in sc.exact_keys]
        if not rows:
            return
        ids = [(r[0],) for r in rows]
        if self._file_record:
            self._write_pending(vec_rows)
        else:
            db.executemany("DELETE FROM vectors WHERE chunk_id=?", ids)
            db.executemany(
                "INSERT INTO vectors VALUES (?,?,?)",
                [
                    (cid, i, blob[i * self.dim * 4 : (i + 1) * self.dim * 4])
                    for cid, _sha, n, blob in vec_rows
                    for i in range(n)
                ],
            )
        db.executemany(
            "INSERT OR REPLACE INTO chunks (chunk_id, doc_key, ordinal, sha256, data, body) VALUES (?,?,?,?,?,?)", rows
        )
        db.executemany("DELETE FROM exact WHERE chunk_id=?", ids)
        db.executemany("INSERT INTO exact VALUES (?,?,?)", exact_rows)

    def _delete_doc_rows(self, doc_key: str) -> None:
        db = self._db
        db.execute("DELETE FROM vectors WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_key=?)", (doc_key,))
        db.execute("DELETE FROM exact WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_key=?)", (doc_key,))
        db.execute("DELETE FROM chunks WHERE doc_key=?", (doc_key,))
        db.execute("DELETE FROM definitions WHERE doc_key=?", (doc_key,))

    def _apply_memory(self, doc_key: str | None, removed: list[str], chunks: list[StoredChunk]) -> None:
        self._wrote = True
        self._vectors_changed = True
        if doc_key is not None:
            self._keyword.delete_document(doc_key)
        # Only chunks that were stored are deleted from tantivy: every queued delete is held in the
        # writer's memory until the commit (~1 KB each), which made a 1M-row upsert grow with the file.
        for cid in removed:
            self._keyword.delete_chunk(cid)
        for sc in chunks:
            self._keyword.add(
                sc.chunk.chunk_id, sc.chunk.doc_key, sc.chunk.contextualized_content, chunk_language(sc.chunk)
            )
        note_keyword_languages(self, chunks)
        if self._dense is not None:
            for cid in removed:
                self._dense.remove(cid)
            for sc in chunks:
                self._dense.add(sc.chunk.chunk_id, sc.vectors)

    def replace_document(
        self, doc_key: str, state: FileState, chunks: list[StoredChunk], definitions: list[DefinitionEntry]
    ) -> None:
        """:meth:`Store.replace_document`: one ``BEGIN IMMEDIATE`` SQLite transaction over the
        chunk, exact-key, definition and file rows (the document marked for the keyword index);
        the in-memory indices are updated after the commit and made durable by :meth:`flush`."""
        from ..index.exact import term_key

        with self._lock:
            self._lost_vectors.discard(doc_key)  # written (or gone) again: its vectors are whole
            self._refresh_if_changed()
            old_ids = [r[0] for r in self._db.execute("SELECT chunk_id FROM chunks WHERE doc_key=?", (doc_key,))]
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._delete_doc_rows(doc_key)
                self._write_chunks(chunks)
                self._db.executemany(
                    "INSERT INTO definitions (doc_key, term_key, term, definition, section_id, chunk_id, scope, "
                    "scope_label) VALUES (?,?,?,?,?,?,?,?)",
                    [
                        (
                            doc_key,
                            term_key(d.term),
                            d.term,
                            d.definition,
                            d.section_id,
                            d.chunk_id,
                            d.scope,
                            d.scope_label,
                        )
                        for d in definitions
                    ],
                )
                self._db.execute(
                    "INSERT OR REPLACE INTO files VALUES (?,?,?,?)", (doc_key, state.size, state.mtime_ns, state.sha256)
                )
                self._db.execute("INSERT OR IGNORE INTO keyword_dirty VALUES (?)", (doc_key,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._apply_memory(doc_key, old_ids, chunks)

    def upsert_chunks(self, doc_key: str, chunks: list[StoredChunk]) -> None:
        """:meth:`Store.upsert_chunks`: one SQLite transaction; ``doc_key`` and every document that
        held one of these chunk ids before are marked for the keyword index."""
        with self._lock:
            self._lost_vectors.discard(doc_key)  # written (or gone) again: its vectors are whole
            self._refresh_if_changed()
            ids = [sc.chunk.chunk_id for sc in chunks]
            moved, stored = set(), []  # documents of the chunks already stored, and their ids
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                q = f"SELECT chunk_id, doc_key FROM chunks WHERE chunk_id IN ({','.join('?' * len(part))})"
                for cid, dk in self._db.execute(q, part):
                    stored.append(cid)
                    moved.add(dk)
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._write_chunks(chunks)
                for dk in moved | {doc_key}:
                    self._db.execute("INSERT OR IGNORE INTO keyword_dirty VALUES (?)", (dk,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            # a chunk given twice is kept once, its last version (as the SQLite row is)
            self._apply_memory(None, stored, list({sc.chunk.chunk_id: sc for sc in chunks}.values()))

    def delete_chunks(self, chunk_ids: list[str]) -> None:
        """:meth:`Store.delete_chunks`: one SQLite transaction; unknown ids are ignored."""
        if not chunk_ids:
            return
        with self._lock:
            self._refresh_if_changed()
            if self._file_record:
                self._pending()  # its file marks the vector file as needing the chunks table to filter it
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
        """:meth:`Store.delete_document`: its chunks, definitions and file state, in one transaction."""
        with self._lock:
            self._lost_vectors.discard(doc_key)  # written (or gone) again: its vectors are whole
            self._refresh_if_changed()
            if self._file_record:
                self._pending()  # its file marks the vector file as needing the chunks table to filter it
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
        """:meth:`Store.set_file_state`: size, mtime (ns) and sha256 of the file, replacing any earlier state."""
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO files VALUES (?,?,?,?)", (doc_key, state.size, state.mtime_ns, state.sha256)
            )

    def flush(self) -> None:
        """Commit the keyword index and announce the writes to readers; nothing when nothing was
        written. A folder store first writes the next generation's vector file (see
        :meth:`_write_vector_file`); the generation moves only once that file is complete."""
        with self._lock:
            if not self._wrote:
                return
            new = self._read_generation() + 1
            if self._file_record and (
                self._vectors_changed or self._dense is not None or not self._link_vector_file(new)
            ):
                # tantivy's commit (its last segment's serialisation: seconds at 100k chunks) runs on a
                # thread of its own, GIL released, while this one writes the vector file; both are
                # done before the generation moves, as when they ran one after the other.
                commit = _Background(self._keyword.commit)
                try:
                    self._write_vector_file(new, self._dense)
                finally:
                    commit.wait()
            else:
                self._keyword.commit()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM keyword_dirty")
                if self._file_record:
                    self._db.execute("DELETE FROM vectors")  # an older index's rows: the file holds them now
                # Readers in other processes (a running MCP server) compare this to reload their copies.
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (str(new),))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._generation = new
            if self._file_record:
                if self._pending_db is not None:
                    self._pending_db.close()
                    self._pending_db = None
                self._drop_old_vector_files()
            self._vectors_changed = False
            self._wrote = False

    def _link_vector_file(self, new: int) -> bool:
        """Give generation ``new`` the current vector files by hard links (no vector changed); False
        when that is not possible and the file must be written."""
        if self._has_pending_vectors() or not self._vector_paths(self._generation)[2].exists():
            return False
        try:
            for src in self._generation_files(self._generation):
                dst = self.root / ("vectors-" + str(new) + src.name[len(f"vectors-{self._generation}") :])
                dst.unlink(missing_ok=True)
                os.link(src, dst)
            return True
        except OSError:
            return False

    def _has_pending_vectors(self) -> bool:
        return next(self._pending_rows(self._generation, with_vectors=False), None) is not None

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
                if self._pending_db is not None:  # that flush merged the pending file we shared
                    self._pending_db.close()
                    self._pending_db = None

    # ---------------------------------------------------------------- reads
    def file_states(self) -> dict[str, FileState]:
        """:meth:`Store.file_states`: doc_key → :class:`FileState` of every stored file."""
        return {r[0]: FileState(r[1], r[2], r[3]) for r in self._db.execute("SELECT * FROM files")}

    def chunk_hashes(self, doc_key: str) -> dict[str, str]:
        """:meth:`Store.chunk_hashes`: chunk_id → sha256 of the stored text, for one document."""
        return dict(self._db.execute("SELECT chunk_id, sha256 FROM chunks WHERE doc_key=?", (doc_key,)).fetchall())

    def get_chunks(self, chunk_ids: list[str]) -> list[Chunk]:
        """:meth:`Store.get_chunks`: chunks by id in the order asked (500 ids a query); unknown ids left out."""
        found: dict[str, Chunk] = {}
        for i in range(0, len(chunk_ids), 500):
            part = chunk_ids[i : i + 500]
            q = f"SELECT chunk_id, data, {self._body} FROM chunks WHERE chunk_id IN ({','.join('?' * len(part))})"
            for cid, data, body in self._db.execute(q, part):
                found[cid] = _chunk(data, body)
        return [found[c] for c in chunk_ids if c in found]

    def document_chunks(self, doc_key: str) -> list[Chunk]:
        """:meth:`Store.document_chunks`: every chunk of ``doc_key`` in ordinal order."""
        rows = self._db.execute(f"SELECT data, {self._body} FROM chunks WHERE doc_key=? ORDER BY ordinal", (doc_key,))
        return [_chunk(data, body) for data, body in rows]

    def documents(self) -> list[str]:
        """:meth:`Store.documents`: every doc_key that has chunks, sorted."""
        return [r[0] for r in self._db.execute("SELECT DISTINCT doc_key FROM chunks ORDER BY doc_key")]

    def count(self) -> int:
        """:meth:`Store.count`: the number of stored chunks."""
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
        """:meth:`Store.dense_search`: top ``k`` (chunk_id, cosine) of the best window per chunk among
        the chunks ``flt`` allows (:mod:`docstrata.index.dense`); ``vector`` is a normalised (dim,) array."""
        return self._dense_job(k, flt)(vector)

    def dense_searcher(self, k: int, flt: ChunkFilter | None = None):
        """:meth:`dense_search` in two steps: the SQL it needs (the generation check, a filter's
        chunk ids, loading the vector record) runs now, on the calling thread, and the function
        returned, ``search(vector) -> [(chunk_id, cosine)]``, only scans the in-process matrix (no
        SQLite), so it may run on another thread while this one runs the keyword leg
        (``search.run_search``). ``None`` when the dense index is a client of another engine
        (:attr:`_threaded_dense` false: Chroma), whose calls stay on the caller's thread."""
        return self._dense_job(k, flt) if self._threaded_dense else None

    _threaded_dense = True  # the dense index is in-process numpy / faiss work (releases the GIL)

    def _dense_job(self, k: int, flt: ChunkFilter | None):
        self._refresh_if_changed()
        if (
            flt is not None
            and flt.chunk_ids is not None
            and flt.doc_keys is None
            and flt.section is None
            and not flt.metadata
        ):  # named chunks only (the cosine of returned hits): no SQL needed
            ids = flt.chunk_ids
        else:
            doc_keys, ids = self._allowed(flt)
            if doc_keys is not None:
                ids = [
                    r[0]
                    for r in self._db.execute(
                        f"SELECT chunk_id FROM chunks WHERE doc_key IN ({','.join('?' * len(doc_keys))})",
                        list(doc_keys),
                    )
                ]
        di = self._dense_index()

        def job(vector):
            return di.search(vector, k, allowed=ids)

        job.scan_threads = di.scan_threads(ids)  # the scan splits over threads itself (see search._start_semantic)
        return job

    def keyword_search(self, query: str, k: int, flt: ChunkFilter | None = None) -> list[tuple[str, float]]:
        """:meth:`Store.keyword_search`: top ``k`` (chunk_id, BM25 score) from the Tantivy index,
        restricted to the documents / chunks ``flt`` allows."""
        self._refresh_if_changed()
        doc_keys, ids = self._allowed(flt)
        return self._keyword.search(query, k, doc_keys=doc_keys, chunk_ids=ids, languages=keyword_languages(self))

    def term_document_frequencies(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        """(chunks indexed, {analysed term: chunks holding it}) from the Tantivy index: BM25's idf
        statistics, which the answer's confidence weighs the query's words by (:mod:`docstrata.confidence`)."""
        self._refresh_if_changed()
        return self._keyword.document_frequencies(terms)

    def phrase_search(self, phrase: str, k: int, flt: ChunkFilter | None = None) -> list[str]:
        """:meth:`Store.phrase_search`: up to ``k`` chunk ids whose analysed tokens hold ``phrase``
        adjacent and in order, among those ``flt`` allows."""
        self._refresh_if_changed()
        doc_keys, ids = self._allowed(flt)
        return self._keyword.phrase_search(
            phrase, k, doc_keys=doc_keys, chunk_ids=ids, languages=keyword_languages(self)
        )

    def exact_lookup(self, keys: list[str], limit: int = 100, flt: ChunkFilter | None = None) -> dict[str, list[str]]:
        """:meth:`Store.exact_lookup`: key → up to ``limit`` chunk ids, by key priority then document
        order, among the chunks ``flt`` allows; keys with no chunk are absent."""
        out: dict[str, list[str]] = {}
        if not keys:
            return out
        where, args = filter_sql(flt) if flt is not None else ("1", [])
        q = (
            f"SELECT e.key, e.chunk_id FROM exact e JOIN chunks c ON c.chunk_id = e.chunk_id "
            f"WHERE e.key IN ({','.join('?' * len(keys))}) AND {where} "
            f"ORDER BY e.priority, c.doc_key, c.ordinal, c.chunk_id"
        )
        for key, cid in self._db.execute(q, [*keys, *args]):
            lst = out.setdefault(key, [])
            if len(lst) < limit:
                lst.append(cid)
        return out

    def definitions(self, term_key: str | None = None, doc_key: str | None = None) -> list[DefinitionEntry]:
        """:meth:`Store.definitions`: definitions by exact-index term key and/or document, in the
        order written (``scope`` None from an index written before scopes)."""
        scope = "scope, scope_label" if getattr(self, "_def_scope", True) else "NULL, NULL"  # NULL: an older index
        q, args = f"SELECT doc_key, term, definition, section_id, chunk_id, {scope} FROM definitions WHERE 1=1", []
        if term_key is not None:
            q += " AND term_key=?"
            args.append(term_key)
        if doc_key is not None:
            q += " AND doc_key=?"
            args.append(doc_key)
        q += " ORDER BY doc_key, rowid"
        return [
            DefinitionEntry(term=t, definition=d, doc_key=dk, section_id=s, chunk_id=c, scope=sc, scope_label=sl)
            for dk, t, d, s, c, sc, sl in self._db.execute(q, args)
        ]

    # ---------------------------------------------------------------- caches and meta
    def cached_vectors(self, model_id: str, hashes: list[str]) -> dict[str, np.ndarray]:
        """:meth:`Store.cached_vectors`: sha256 → (n_windows, dim) float32 vectors cached for ``model_id``."""
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(hashes), 500):
            part = hashes[i : i + 500]
            q = f"SELECT sha256, n, vecs FROM embed_cache WHERE model_id=? AND sha256 IN ({','.join('?' * len(part))})"
            for h, n, blob in self._db.execute(q, [model_id, *part]):
                out[h] = np.frombuffer(blob, dtype=np.float32).reshape(n, self.dim)
        return out

    def cache_vectors(self, model_id: str, items: dict[str, np.ndarray]) -> None:
        """:meth:`Store.cache_vectors`: add or replace embedding-cache entries, in one transaction."""
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT OR REPLACE INTO embed_cache VALUES (?,?,?,?)",
                [
                    (model_id, h, v.shape[0], np.ascontiguousarray(v, dtype=np.float32).tobytes())
                    for h, v in items.items()
                ],
            )
            self._db.execute("COMMIT")

    def get_meta(self, key: str) -> str | None:
        """:meth:`Store.get_meta`: the stored value of ``key`` (dim, schema version, model), or None."""
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        """:meth:`Store.set_meta`: store ``value`` under ``key``; an unchanged value is not rewritten,
        so a read-only re-ingest writes nothing."""
        with self._lock:
            if self.get_meta(key) != value:  # an unchanged value is not rewritten (read-only re-ingest)
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?,?)", (key, value))

    def keyword_size(self) -> int:
        """The number of documents (chunks) the keyword (BM25) index holds."""
        return self._keyword.num_docs()

    def close(self) -> None:
        """Commit pending keyword writes and close the databases; the pending vectors stay in their
        file for the next open."""
        with self._lock:
            try:
                if self._wrote:
                    self._keyword.commit()
                    self._db.execute("DELETE FROM keyword_dirty")  # the pending vectors stay in their file
            finally:
                self._db.close()
                if self._pending_db is not None:
                    self._pending_db.close()
                    self._pending_db = None
