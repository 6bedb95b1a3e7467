"""One writer, many readers: the per-tool ingest lock across processes (DESIGN §7c).

Ingest holds the tool's lock for its whole run; searches never take it. The lock is

* a ``flock`` on ``ingest.lock`` in the embedded store's folder (or
  ``.docstrata/<tool>.ingest.lock`` beside the config for other file-based stores); the kernel
  drops it when the holder dies, so a killed ingest never leaves a stale lock;
* a PostgreSQL session-level advisory lock (``pg_try_advisory_lock``) for the ``postgres``
  store, released by the server when the holder's connection ends.

A second writer polls, calls ``on_wait(message)`` once (and every ``report_every_s`` seconds)
so the user sees why it waits, and after ``timeout_s`` raises :class:`LockTimeout`, one line.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Callable, Iterator

from .errors import DocstrataError, LockTimeout

DEFAULT_TIMEOUT_S = 600.0
_POLL_S = 0.1


def _holder(path: Path) -> str:
    try:
        pid = path.read_text(encoding="ascii").strip()
    except OSError:
        return "another process"
    return f"process {pid}" if pid.isdigit() else "another process"


def _poll(
    acquire: Callable[[], bool],
    holder: Callable[[], str],
    what: str,
    timeout_s: float,
    on_wait: Callable[[str], None] | None,
    report_every_s: float,
) -> None:
    """Call ``acquire`` every ``_POLL_S`` seconds until it returns True. Meanwhile ``on_wait``
    hears why, once and then every ``report_every_s`` seconds; after ``timeout_s`` seconds raises
    :class:`LockTimeout`. ``holder()`` names who holds the lock ("process 4242", "another session")."""
    start = last = time.monotonic()
    reported = False
    while not acquire():
        now = time.monotonic()
        waited = now - start
        if waited >= timeout_s:
            raise LockTimeout(
                f"{what}: {holder()} is still ingesting after {waited:.0f} s of waiting; try again when it has finished"
            )
        if on_wait and (not reported or now - last >= report_every_s):
            on_wait(f"{what}: waiting for {holder()} to finish ingesting ({waited:.0f} s)")
            reported, last = True, now
        time.sleep(_POLL_S)


@contextlib.contextmanager
def file_lock(
    path: str | Path,
    what: str,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    on_wait: Callable[[str], None] | None = None,
    report_every_s: float = 5.0,
) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created if missing) for the ``with`` block.

    ``what`` names the lock in messages ("tool 'docs'"). Raises :class:`LockTimeout` after
    ``timeout_s`` seconds of waiting, and :class:`DocstrataError` if the lock file cannot be created.
    """
    import fcntl

    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise DocstrataError(
            f"{what}: cannot create the ingest lock {path.name}: {e.strerror or e}; "
            "ingest needs a writable index folder"
        ) from None

    def try_flock() -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    try:
        _poll(try_flock, lambda: _holder(path), what, timeout_s, on_wait, report_every_s)
        try:  # who holds it, for the waiting side's message; best effort (a full disk must not stop a reader)
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        except OSError:
            pass
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextlib.contextmanager
def postgres_advisory_lock(
    conn_lock,
    conn,
    key: str,
    what: str,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    on_wait: Callable[[str], None] | None = None,
    report_every_s: float = 5.0,
) -> Iterator[None]:
    """Hold PostgreSQL's session advisory lock ``hashtext(key)`` on ``conn`` for the block.

    Polls ``pg_try_advisory_lock`` so the shared connection (guarded by ``conn_lock``) is never
    blocked; raises :class:`LockTimeout` after ``timeout_s``.
    """

    def try_advisory_lock() -> bool:
        with conn_lock:
            return bool(conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (key,)).fetchone()[0])

    _poll(try_advisory_lock, lambda: "another session", what, timeout_s, on_wait, report_every_s)
    try:
        yield
    finally:
        with contextlib.suppress(Exception), conn_lock:  # a lost connection has released it already
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))


def tool_ingest_lock(
    store, tool_name: str, provider: str, base_dir: str | Path, timeout_s: float, on_wait: Callable[[str], None]
):
    """The cross-process ingest lock of tool ``tool_name`` (a context manager): the store's own
    (``store.ingest_lock``, e.g. PostgreSQL's advisory lock) when it has one, none for an
    ``in-memory`` store (``provider``), else :func:`file_lock` on
    ``<base_dir>/.docstrata/<tool>.ingest.lock``. Raises :class:`LockTimeout` after ``timeout_s``."""
    what = f"tool '{tool_name}'"
    store_lock = getattr(store, "ingest_lock", None)
    if store_lock is not None:
        return store_lock(what, timeout_s, on_wait)
    if provider == "in-memory":
        return contextlib.nullcontext()
    return file_lock(Path(base_dir) / ".docstrata" / f"{tool_name}.ingest.lock", what, timeout_s, on_wait)
