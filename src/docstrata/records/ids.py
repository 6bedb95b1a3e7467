"""The ids of the records loaded from one file, with the line of each (:class:`IdRegistry`): how a
duplicate id is found against every earlier row while memory stays bounded by the batch.

Up to :data:`MEMORY_IDS` ids are kept in a dict (small files pay nothing); past that they move to a
private temporary SQLite database (``sqlite3.connect("")``: in memory up to its page cache, then a
temporary file SQLite deletes on close), so a 1M-row file holds ~2 MB of ids in memory instead of
~140 bytes a row (a dict of 1M strings is ~140 MB). Looked up and written a batch at a time; about
5 µs of CPU a row once spilled (docs/benchmarks.md, "1M-row CSV ingest memory").
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

MEMORY_IDS = 100_000
"""Ids kept in a dict before the registry moves them to its temporary SQLite database."""

_PAGE_CACHE_KB = 4096


class IdRegistry:
    """Record id → the line it was first loaded from, for one file; ``memory_ids`` (default
    :data:`MEMORY_IDS`) ids are held in a dict before they move to SQLite. Not thread-safe."""

    def __init__(self, memory_ids: int | None = None):
        self._memory_ids = MEMORY_IDS if memory_ids is None else memory_ids
        self._dict: dict[str, int] | None = {}
        self._db: sqlite3.Connection | None = None
        self.count = 0

    def lines(self, ids: list[str]) -> dict[str, int]:
        """The first line of every id of ``ids`` already registered (ids not registered are absent)."""
        if self._dict is not None:
            d = self._dict
            return {i: d[i] for i in ids if i in d}
        assert self._db is not None  # the ids moved from the dict to SQLite: one of the two is set
        found: dict[str, int] = {}
        for start in range(0, len(ids), 20_000):
            found.update(
                self._db.execute(
                    "SELECT id, line FROM seen WHERE id IN (SELECT value FROM json_each(?))",
                    (json.dumps(ids[start : start + 20_000]),),
                )
            )
        return found

    def add(self, pairs: list[tuple[str, int]]) -> None:
        """Register ``(id, line)`` pairs whose ids are new (checked with :meth:`lines` first)."""
        self.count += len(pairs)
        if self._dict is not None:
            self._dict.update(pairs)
            if len(self._dict) <= self._memory_ids:
                return
            pairs, self._dict = list(self._dict.items()), None
            self._db = sqlite3.connect("", isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=OFF")
            self._db.execute("PRAGMA synchronous=OFF")
            self._db.execute(f"PRAGMA cache_size=-{_PAGE_CACHE_KB}")
            self._db.execute("CREATE TABLE seen (id TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID")
        assert self._db is not None  # set above, or when an earlier call moved the ids to SQLite
        self._db.execute("BEGIN")
        self._db.executemany("INSERT OR IGNORE INTO seen VALUES (?,?)", sorted(pairs))  # sorted: B-tree locality
        self._db.execute("COMMIT")

    def unseen(self, ids: Iterable[str]) -> list[str]:
        """The ids of ``ids`` that were never registered, in their order (looked up 20,000 at a time)."""
        out: list[str] = []
        part: list[str] = []
        for i in ids:
            part.append(i)
            if len(part) == 20_000:
                found = self.lines(part)
                out += [x for x in part if x not in found]
                part = []
        found = self.lines(part) if part else {}
        return out + [x for x in part if x not in found]

    def close(self) -> None:
        """Forget every id (the temporary database and its file go)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self._dict = {}
        self.count = 0
