"""Ingest never loses the index by surprise, and a file that failed is not converted again
until it changes: real embedded store, real converters, real CLI."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import docstrata
from docstrata.cli import app


def _project(tmp_path: Path, n: int = 3) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(n):
        (docs / f"note{i}.md").write_text(f"# Note {i}\n\n## 1. Audit\n\nThe quarterly audit number {i} covers "
                                          "expense claims.\n", encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: notes\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: embedded\n", encoding="utf-8")
    return cfg


@pytest.fixture
def cfg(tmp_path, embedder):
    cfg = _project(tmp_path)
    with docstrata.open(cfg) as ts:
        ts["notes"]._embedder = embedder
        assert ts["notes"].ingest().added == 3
    return cfg


def test_empty_source_keeps_the_index_and_says_so(cfg):
    for f in (cfg.parent / "docs").iterdir():
        f.unlink()  # the share is unmounted: the folder is there, empty
    r = CliRunner().invoke(app, ["search", "quarterly audit", "-c", str(cfg), "--mode", "keyword"])
    assert r.exit_code == 0, r.output
    assert "source has no files; 3 indexed documents kept" in r.output and "ingest --force" in r.output
    assert "audit" in r.output  # the kept documents are still served
    r = CliRunner().invoke(app, ["ingest", "-c", str(cfg)])
    assert r.exit_code == 1 and "3 indexed documents kept" in r.output, r.output
    with docstrata.open(cfg) as ts:
        assert len(ts["notes"].store.documents()) == 3
    r = CliRunner().invoke(app, ["ingest", "--force", "-c", str(cfg)])
    with docstrata.open(cfg) as ts:
        assert ts["notes"].store.documents() == []


def test_implicit_ingest_reports_what_it_removed(cfg):
    (cfg.parent / "docs" / "note1.md").unlink()
    (cfg.parent / "docs" / "note2.md").unlink()
    r = CliRunner().invoke(app, ["search", "quarterly audit", "-c", str(cfg), "--mode", "keyword"])
    assert r.exit_code == 0, r.output
    assert "2 removed" in r.output


def test_lone_surrogate_in_a_json_record_skips_that_row_only(tmp_path, embedder):
    rows = tmp_path / "rows"
    rows.mkdir()
    (rows / "a.jsonl").write_text('{"id":"x1","text":"fine row"}\n{"id":"x3","text":"\\ud800 lone surrogate"}\n'
                                  '{"id":"x4","text":"another fine row"}\n', encoding="utf-8")
    (rows / "b.json").write_text('[{"id":"j1","text":"ok"},{"id":"j2","meta":{"k":"bad \\udc00"},"text":"x"}]',
                                 encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "n.md").write_text("# Note\n\n## 1. Audit\n\nThe audit covers claims.\n", encoding="utf-8")
    cfg = tmp_path / "agent.yaml"
    cfg.write_text("tools:\n  - name: faq\n    type: vectorstore\n    source: rows/\n    database: embedded\n"
                   "    id_field: id\n    vector_field: text\n"
                   "  - name: notes\n    type: hierarchical_document\n    source: docs/\n    database: embedded\n",
                   encoding="utf-8")
    with docstrata.open(cfg) as ts:
        for t in ts:
            t._embedder = embedder
        report = ts["faq"].ingest()
        skipped = {s.path: s.reason for s in report.skipped}
        assert "lone surrogate" in skipped["a.jsonl:2"] and "'text'" in skipped["a.jsonl:2"]
        assert "lone surrogate" in skipped["b.json:2"] and "meta.k" in skipped["b.json:2"]
        assert report.chunks_total == 3  # x1, x4, j1
        assert ts["notes"].ingest().added == 1  # the next tool is indexed too


def test_a_file_that_failed_is_not_converted_again_until_it_changes(tmp_path, embedder):
    import zipfile

    cfg = _project(tmp_path, n=1)
    bad = tmp_path / "docs" / "broken.docx"
    bad.write_bytes(b"PK\x03\x04 this is not a real zip archive")
    with docstrata.open(cfg) as ts:
        tool = ts["notes"]
        tool._embedder = embedder
        first = {s.path: s.reason for s in tool.ingest().skipped}
        assert "broken.docx" in first
        calls = []
        real = tool._parse_file
        tool._parse_file = lambda sf: calls.append(sf.doc_key) or real(sf)
        second = {s.path: s.reason for s in tool.ingest().skipped}
        assert calls == [] and second["broken.docx"].startswith("unchanged since it failed: " + first["broken.docx"])
        tool.ingest(force=True)  # --force retries it
        assert "broken.docx" in calls
        calls.clear()
        with zipfile.ZipFile(bad, "w") as z:  # the file changes: it is tried again
            z.writestr("[Content_Types].xml", "<Types/>")
        report = tool.ingest()
        assert "broken.docx" in calls and not report.skipped[0].reason.startswith("unchanged")


def _docx_with_member(path: Path, expanded_mb: int) -> None:
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"/>')
        with z.open("word/document.xml", "w") as f:
            f.write(b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/'
                    b'2006/main"><w:body><w:p><w:r><w:t>')
            for _ in range(expanded_mb):
                f.write(b"A" * (1 << 20))
            f.write(b"</w:t></w:r></w:p></w:body></w:document>")


@pytest.mark.timeout(120)
def test_zip_member_over_the_compression_ratio_is_skipped(tmp_path, embedder):
    from docstrata.config import LimitsConfig
    from docstrata.errors import ConversionError
    from docstrata.limits import check_file

    cfg = _project(tmp_path, n=1)
    bomb = tmp_path / "docs" / "bomb.docx"
    _docx_with_member(bomb, 40)  # 42 MB of XML, far under max_expanded_mb = 500, ~1000x compressed
    with docstrata.open(cfg) as ts:
        ts["notes"]._embedder = embedder
        report = ts["notes"].ingest()
    reason = {s.path: s.reason for s in report.skipped}["bomb.docx"]
    assert "limits.max_zip_ratio" in reason and "word/document.xml" in reason and report.added == 1
    size = bomb.stat().st_size
    check_file("bomb.docx", str(bomb), size, LimitsConfig(max_zip_ratio=100_000))  # configurable
    check_file("bomb.docx", str(bomb), size, LimitsConfig(max_zip_ratio_above_mb=100))
    with pytest.raises(ConversionError, match="max_zip_ratio = 50"):
        check_file("bomb.docx", str(bomb), size, LimitsConfig(max_zip_ratio=50))


def test_disk_full_sqlite_errors_get_disk_full_advice_not_move_the_index_aside():
    import errno
    import sqlite3

    from docstrata.cli import fault_message

    full = sqlite3.OperationalError("database or disk is full")
    assert "disk is full" in fault_message(full) and "aside" not in fault_message(full)
    try:  # what SQLite says when the rollback after a failed write fails too
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as e:
            raise sqlite3.OperationalError("cannot rollback - no transaction is active") from e
    except sqlite3.OperationalError as e:
        chained = e
    assert "disk is full" in fault_message(chained) and "aside" not in fault_message(chained)
    corrupt = sqlite3.DatabaseError("file is not a database")
    assert "aside" in fault_message(corrupt)  # a damaged file still gets the rebuild advice
