"""Self-repair of a folder index whose SQLite database (the system of record) is damaged.

A truncated ``index.sqlite``, one whose header was overwritten, or a file of random bytes cannot
be read, but every document it indexed is still in the sources. :func:`set_aside` moves the
damaged database (with its ``-wal``/``-shm``) into ``damaged-<UTC timestamp>/`` beside it, so
nothing is deleted that could still be inspected, and removes the files derived from it (the
vector files, pending vectors and the keyword index, which would describe chunks the new
database does not hold); the store then opens a new, empty database and the next ingest (an
implicit one on the next search) rebuilds the index from the sources. One warning line says so.

:func:`truncation` finds a database cut short without reading it: SQLite itself opens such a
file and fails only when a query reaches a missing page (SQLite file format, §1.3.8 "In-header
database size": valid when the version-valid-for number at offset 92 equals the change counter
at offset 24, written at every checkpoint).
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from pathlib import Path

log = logging.getLogger("docstrata.store")

DB_NAME = "index.sqlite"
_KEEP = ("ingest.lock",)


def truncation(path: Path) -> str | None:
    """Why ``path`` (an SQLite file) is shorter than its header says, or ``None`` when it is not
    (or has no valid size in its header: a new or empty file). Reads the first 100 bytes only."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError:
        return None
    if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
        return None  # empty (a new index) or not SQLite at all: SQLite's own open says which
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    if pages and head[92:96] == head[24:28] and size < pages * page_size:
        return f"the file holds {size:,} bytes, its header says {pages * page_size:,}: it was cut short"
    return None


def set_aside(root: Path, reason: str) -> Path:
    """Move ``root``'s damaged ``index.sqlite`` (and its ``-wal``/``-shm``) into
    ``root/damaged-<YYYYmmddTHHMMSSZ>/``, delete the files derived from it (everything else in
    ``root`` but the ingest lock and earlier ``damaged-*`` folders), log one warning naming
    ``reason`` and the folder, and return the folder. Raises ``OSError`` when the files cannot
    be moved (the caller then reports the damage as before)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = root / f"damaged-{stamp}"
    n = 1
    while aside.exists():
        n += 1
        aside = root / f"damaged-{stamp}-{n}"
    aside.mkdir()
    for p in sorted(root.iterdir()):
        if p == aside or p.name in _KEEP or p.name.startswith("damaged-"):
            continue
        if p.name.startswith(DB_NAME):
            os.replace(p, aside / p.name)
        elif p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()
    log.warning(
        "the index database %s was damaged (%s): set aside in %s; a new index is being built from the "
        "sources by the next ingest (a search runs it)",
        root / DB_NAME,
        reason,
        aside,
    )
    return aside
