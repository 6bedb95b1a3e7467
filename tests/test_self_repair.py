"""A damaged index repairs itself, and a degraded search says so (issue 31, "Self-repair").

The examples' three documents are indexed in a folder; then ``index.sqlite`` is truncated, its
header overwritten or the whole file replaced by random bytes — each is set aside under
``damaged-<timestamp>/`` with one warning line, and the next search rebuilds the index from the
sources. A deleted or truncated vector file leaves the documents without vectors: every answer
then carries a notice that the semantic leg is unavailable, until the next ingest (the next
search runs it) embeds them again."""

from __future__ import annotations

import logging
import os
import shutil

import pytest

import docstrata

from .conftest import EXAMPLES

QUERY = "How much credit do we get if availability falls below 99.9%?"


@pytest.fixture
def cfg(tmp_path, embedder):
    shutil.copytree(EXAMPLES / "docs", tmp_path / "docs")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: embedded\n", encoding="utf-8")
    with docstrata.open(cfg) as ts:
        ts["policies"]._embedder = embedder
        assert ts["policies"].ingest().added == 3
    return cfg


def _search(cfg, embedder, **kw):
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        tool._embedder = embedder
        return tool.search(QUERY, **kw)


def _damage(path, kind: str) -> None:
    size = path.stat().st_size
    if kind == "truncated":
        with open(path, "r+b") as f:
            f.truncate(size * 3 // 4)
    elif kind == "overwritten header":
        with open(path, "r+b") as f:
            f.write(os.urandom(100))
    else:
        path.write_bytes(os.urandom(size))


@pytest.mark.parametrize("kind", ["truncated", "overwritten header", "random bytes"])
def test_a_damaged_index_database_is_set_aside_and_rebuilt_from_the_sources(cfg, embedder, kind, caplog):
    root = cfg.parent / ".docstrata" / "policies"
    before = _search(cfg, embedder)
    _damage(root / "index.sqlite", kind)
    with caplog.at_level(logging.WARNING, logger="docstrata.store"):
        after = _search(cfg, embedder)
    said = [r.getMessage() for r in caplog.records if "set aside" in r.getMessage()]
    assert len(said) == 1 and "damaged" in said[0] and "\n" not in said[0], said
    aside = [p for p in root.iterdir() if p.name.startswith("damaged-")]
    assert len(aside) == 1 and (aside[0] / "index.sqlite").exists()  # kept for inspection, not deleted
    assert [r.chunk_id for r in after] == [r.chunk_id for r in before]  # the same answer, rebuilt
    assert after[0].semantic_score is not None and not after.notices
    again = _search(cfg, embedder)  # repaired once: no second repair
    assert [r.chunk_id for r in again] == [r.chunk_id for r in before]
    assert len([p for p in root.iterdir() if p.name.startswith("damaged-")]) == 1


@pytest.mark.parametrize("kind", ["deleted", "truncated"])
def test_a_lost_vector_file_is_told_in_every_answer_until_it_is_embedded_again(cfg, embedder, kind):
    root = cfg.parent / ".docstrata" / "policies"
    (vec,) = [p for p in root.glob("vectors-*.npy") if not p.name.endswith((".owner.npy", ".i8.faiss.npy"))]
    if kind == "deleted":
        vec.unlink()
    else:
        with open(vec, "r+b") as f:
            f.truncate(vec.stat().st_size // 2)
    with docstrata.open(cfg) as ts:  # one process, as an MCP server
        tool = ts["policies"]
        tool._embedder = embedder
        first = tool.search(QUERY)  # hybrid: keyword and exact hits only
        assert first and all(r.semantic_score is None for r in first)
        assert any("semantic search is unavailable for 3 document(s)" in n for n in first.notices), first.notices
        second = tool.search(QUERY, mode="semantic")  # the next call's implicit ingest embedded them again
        assert second and not second.notices and second[0].semantic_score is not None
    again = _search(cfg, embedder, mode="semantic")  # and a later process finds the vectors stored
    assert not again.notices and [r.chunk_id for r in again] == [r.chunk_id for r in second]


def test_a_lost_vector_file_is_told_by_a_semantic_search_too(cfg, embedder):
    root = cfg.parent / ".docstrata" / "policies"
    for p in root.glob("vectors-*"):
        p.unlink()
    found = _search(cfg, embedder, mode="semantic")
    assert not found and any("semantic search is unavailable for 3 document(s)" in n for n in found.notices)


_KILL_AT = """
import os, signal, sys
import docstrata
tool = docstrata.open(sys.argv[1])["policies"]
def progress(done, total, note):
    if note.startswith(sys.argv[2]):  # the process dies while this file is being ingested
        os.kill(os.getpid(), signal.SIGKILL)
tool.ingest(progress=progress)
"""


def test_a_file_whose_ingest_never_finished_is_not_re_run_by_a_search(tmp_path, embedder):
    """An ingest killed while on a file (as the 100,000-column CSV stalled it) leaves a mark; the
    implicit ingest of the next search skips that file with the reason instead of stalling again,
    and an explicit ingest retries it."""
    import subprocess
    import sys

    from docstrata.ingest_support import UNFINISHED_REASON

    shutil.copytree(EXAMPLES / "docs", tmp_path / "docs")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: embedded\n", encoding="utf-8")
    files = sorted(p.name for p in (tmp_path / "docs").iterdir())
    victim = files[1]
    proc = subprocess.run([sys.executable, "-c", _KILL_AT, str(cfg), victim], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == -9, proc.stderr
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        tool._embedder = embedder
        report = tool.ensure_ready()  # what a search runs first
        assert [(s.path, s.reason) for s in report.skipped] == [(victim, UNFINISHED_REASON)]
        assert set(tool.store.file_states()) == set(files) - {victim}
        assert tool.search("annual leave")  # the rest is searchable
    with docstrata.open(cfg) as ts:
        tool = ts["policies"]
        tool._embedder = embedder
        report = tool.ingest()  # explicit: retried
        assert not report.skipped and report.added == 1 and set(tool.store.file_states()) == set(files)
