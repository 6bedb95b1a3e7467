"""Every CLI command that prints document-derived text (titles, passages, terms, file names,
record fields) escapes terminal controls, bidi overrides and rich markup — on a real index."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from docstrata.cli import app

BAD = ("\x1b", "\u202e", "\x07")
EVIL_MD = ('# \x1b[31mRefund\u202e Notice\n\n## 1. Definitions\n\n"Deadline" means thirty days \u202e after '
           'purchase.\n\n## 2. Refunds\n\nThe refund [bold]deadline[/bold] applies to every order.\n')


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("esc")
    (root / "docs").mkdir()
    (root / "docs" / "evil[red]x\u202e.md").write_text(EVIL_MD, encoding="utf-8")
    (root / "rows").mkdir()
    (root / "rows" / "faq.csv").write_text('id,question\nr1,"How do refunds \x1b[31mwork\u202e?"\n', encoding="utf-8")
    cfg = root / "agent.yaml"
    cfg.write_text("tools:\n  - name: notes\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: embedded\n"
                   "  - name: faq\n    type: vectorstore\n    source: rows/\n    database: embedded\n"
                   "    id_field: id\n    vector_field: question\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["ingest", "-c", str(cfg)])
    assert r.exit_code == 0, r.output
    return cfg


def _run(*args: str) -> str:
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, r.output
    for bad in BAD:
        assert bad not in r.output, (args, r.output)
    return r.output


def test_list_escapes_titles_and_file_names(project):
    out = _run("list", "-c", str(project))
    assert "\\u202e" in out and "[red]" in out  # the file name's markup is shown, not rendered


def test_get_section_get_definition_and_neighbours_escape_document_text(project):
    doc = "evil[red]x\u202e.md"
    out = _run("get-section", doc, "-c", str(project), "-t", "notes")
    assert "\\x1b[31m" in out and "\\u202e" in out and "[bold]deadline[/bold]" in out
    out = _run("get-definition", "deadline", "-c", str(project), "-t", "notes")
    assert "thirty days \\u202e" in out
    hits = json.loads(_run("search", "refund deadline", "-c", str(project), "-t", "notes", "--json",
                           "--mode", "keyword"))
    assert "\u202e" in hits["results"][0]["source_path"]  # --json: escaped for the terminal, same string parsed
    chunk = hits["results"][0]["chunk_id"]
    out = _run("neighbours", chunk, "-c", str(project), "-t", "notes")
    assert "\\u202e" in out or "\\x1b" in out


def test_get_record_escapes_record_fields(project):
    out = _run("get-record", "r1", "-c", str(project), "-t", "faq")
    assert "\\x1b[31mwork\\u202e" in out


def test_inspect_escapes_the_tree_and_markup(project):
    doc = next((project.parent / "docs").glob("*.md"))
    out = _run("inspect", str(doc))
    assert "\\x1b[31mRefund\\u202e" in out and "Deadline" in out
