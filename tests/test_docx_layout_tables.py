"""A Word table used as a layout for headed content is read as headings and their text
(convert/docx_layout.py); data tables and forms stay tables.

The Common Paper Professional Services Agreement (CC BY 4.0, tests/fixtures/common-paper/NOTICE.md)
opens with the Statement of Work's cover page and the Agreement's Key Terms, each a two-column
table: a full-width first row (``SOW`` / "The key business terms of this SOW are as follows:"),
then rows of a bold heading cell (``Services``, ``Fees``) and that term's text. Before, each table
was one Markdown table in the preamble (trial 18: the Statement of Work was one section). Its
signature blocks (four columns) and certification checklists stay tables; so do the Independent
Contractor Agreement's key-value form (bold labels over one-word placeholders) and the Colorado
notice's parties table (bold values: a form, not headings over text).

Truth is read from the documents' own table markup (``w:tbl`` / ``w:tr`` / ``w:tc``) with lxml.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

FIXTURES = Path(__file__).parent / "fixtures"
PSA = FIXTURES / "common-paper" / "professional-services-agreement.docx"
CONTRACTOR = FIXTURES / "common-paper" / "independent-contractor-agreement.docx"
NOTICE = FIXTURES / "open-agreements" / "colorado-restrictive-covenant-notice.docx"
ONE_WAY_NDA = FIXTURES / "common-paper" / "one-way-nda.docx"
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _text(el) -> str:
    return " ".join("".join(t.text or "" for t in el.iter(f"{_W}t")).split())


def _tables(path: Path) -> list[list[list[list[str]]]]:
    """The document's top-level tables: rows of cells of paragraph texts."""
    root = etree.fromstring(zipfile.ZipFile(path).read("word/document.xml"))
    out = []
    for tbl in root.iter(f"{_W}tbl"):
        if any(a.tag == f"{_W}tbl" for a in tbl.iterancestors()):
            continue
        rows = [[[_text(p) for p in tc.findall(f"{_W}p") if _text(p)] for tc in tr.findall(f"{_W}tc")] for tr in tbl.findall(f"{_W}tr")]
        out.append(rows)
    return out


def _plain(markdown: str) -> str:
    """Markdown text as words: bold and italic marks dropped, whitespace collapsed."""
    return " ".join(markdown.replace("*", "").split())


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _convert(path: Path):
    data = path.read_bytes()
    doc = convert_file(SourceFile(path.name, str(path), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
    return doc, build_tree(doc)


@pytest.fixture(scope="module")
def psa():
    return _convert(PSA)


def _headed_rows(rows):
    """``(heading, text)`` of each two-cell row whose cells both hold text."""
    return [(cells[0][0], " ".join(cells[1])) for cells in rows if len(cells) == 2 and cells[0] and cells[1]]


def test_each_headed_row_is_a_section_holding_its_text(psa):
    doc, tree = psa
    sow = _tables(PSA)[0]
    lead = sow[0][0]  # the full-width first row: the table's title over a lead-in
    rows = _headed_rows(sow)
    assert len(sow[0]) == 1 and len(rows) >= 10
    sections: dict = {}
    for s in tree.sections:  # the first of a title: the Key Terms repeat one of the SOW's
        sections.setdefault(s.title, s)
    group = sections[lead[0]]
    for heading, text in rows:
        s = sections[heading]
        assert s.parent_id == group.section_id, (heading, s.parent_id)
        assert _letters(text)[:30] in _letters(s.text), heading
    assert lead[1] in _plain(group.text)
    # the cover page is no longer a table in the preamble
    assert not any(b.kind == "table" and rows[0][0] in doc.markdown[b.start : b.end] for b in doc.blocks)


def test_the_key_terms_nest_under_their_title_and_the_clauses_keep_their_numbers(psa):
    doc, tree = psa
    terms = next(t for t in _tables(PSA)[1:] if len(_headed_rows(t)) >= 3)
    titles = [cells[0][0] for cells in terms if len(cells) == 1 and cells[0]]
    sections = {s.title: s for s in tree.sections}
    assert all(t in sections and sections[t].level == 1 for t in titles), titles
    for heading, _ in _headed_rows(terms):
        parent = sections[heading].parent_id
        assert parent in {sections[t].section_id for t in titles}, (heading, parent)
    # the numbered clause outline that follows is untouched: 1, 1.1, … at levels 1 and 2
    numbered = [s for s in tree.sections if s.number]
    assert numbered and numbered[0].section_id == "1" and numbered[0].level == 1
    assert all(s.level == 1 for s in numbered if "." not in s.section_id and "(" not in s.section_id)


def test_signature_blocks_and_checklists_stay_tables(psa):
    doc, _ = psa
    tables = [_plain(doc.markdown[b.start : b.end]) for b in doc.blocks if b.kind == "table"]
    for rows in _tables(PSA):
        if _headed_rows(rows) and all(len(cells) <= 2 for cells in rows):
            continue  # the layouts read above
        if sum(bool(c) for cells in rows for c in cells) < 2:
            continue  # a one-cell frame, read as the flow (docx_frames)
        first = next(c[0] for cells in rows for c in cells if c)
        assert any(first in t for t in tables), first


@pytest.mark.parametrize("path", [CONTRACTOR, NOTICE], ids=["key-value-form", "parties-form"])
def test_forms_of_short_values_stay_tables(path):
    doc, _ = _convert(path)
    tables = [_plain(doc.markdown[b.start : b.end]) for b in doc.blocks if b.kind == "table"]
    forms = [rows for rows in _tables(path) if len(_headed_rows(rows)) >= 3]
    assert forms
    for rows in forms:
        for heading, value in _headed_rows(rows):
            assert any(heading in t and value.split()[0] in t for t in tables), heading
    headings = {b.text.lstrip("#").strip(" *") for b in doc.blocks if b.kind == "heading"}
    assert not headings & {h for rows in forms for h, _ in _headed_rows(rows)}


def test_the_clauses_after_a_cover_table_are_not_under_its_last_row():
    """The One-Way NDA's cover table (bold terms, no title row) is followed straight by the
    Standard Terms, one numbered list whose clauses open with a bold title (``1. **Introduction**.
    This NDA …``, the stop in plain type): the clauses are the document's top level, beside the
    cover page's terms, never inside its last row (``Changes to Standard Terms``)."""
    doc, tree = _convert(ONE_WAY_NDA)
    cover = next(t for t in _tables(ONE_WAY_NDA) if len(_headed_rows(t)) >= 3)
    sections: dict = {}
    for s in tree.sections:
        sections.setdefault(s.title, s)
    terms = [sections[h] for h, _ in _headed_rows(cover)]
    assert all(s.level == 1 for s in terms)
    root = etree.fromstring(zipfile.ZipFile(ONE_WAY_NDA).read("word/document.xml"))
    numbered = [_text(p) for p in root.iter(f"{_W}p") if p.find(f"{_W}pPr/{_W}numPr") is not None and _text(p)]
    assert len(numbered) >= 5
    clauses = [s for s in tree.sections if s.number]
    assert len(clauses) >= len(numbered) - 1 and [s.section_id for s in clauses[:2]] == ["1", "2"]
    for s in clauses:
        if "." not in s.section_id and "(" not in s.section_id:
            assert s.level == 1 and s.parent_id is None, (s.section_id, s.parent_id)
    first = clauses[0]
    title = numbered[0].split(".")[0]  # "Introduction", bold, its stop in plain type
    assert first.title.rstrip(".").endswith(title)
