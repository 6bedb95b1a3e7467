"""Statute PDFs whose section titles are margin notes printed in a side column beside the section
numbers (Sri Lankan Acts, older Indian and Commonwealth prints): the note is the section's title,
the body text — never the two cells of a Markdown table row.

Fixtures: page excerpts of two Sri Lankan Acts (``tests/fixtures/lk-acts``, see its NOTICE.md),
read through pdfminer exactly as ingest reads them; and a Schedule table built with ``pdf_writer``
whose first column stands beside numbered cells (a table, not margin notes).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.convert import first_heading
from docstrata.structure import build_tree
from docstrata.structure.grammar import names_instrument

from .conftest import convert_path
from .pdf_writer import Run, pdf_bytes

FIXTURES = Path(__file__).parent / "fixtures" / "lk-acts"


@pytest.fixture(scope="module")
def small_claims():
    """Pages 1–3, 7 and 13 of the Small Claims Courts' Procedure Act, No. 33 of 2022."""
    doc = convert_path(FIXTURES / "small-claims-courts-procedure-2022-excerpt.pdf")
    return doc, build_tree(doc)


def _container(tree, section) -> str | None:
    by_id = {s.section_id: s for s in tree.sections}
    parent = by_id.get(section.parent_id) if section.parent_id else None
    while parent is not None and not parent.section_id.startswith("part-"):
        parent = by_id.get(parent.parent_id) if parent.parent_id else None
    return parent.section_id if parent else None


def test_margin_notes_are_no_table(small_claims):
    """The note column and the body column were read as the cells of table rows: the Act came out
    as Markdown tables ("| 2. Subject to … | Institution of actions |")."""
    doc, _ = small_claims
    assert not re.search(r"(?m)^\|", doc.markdown), doc.markdown[:1500]
    assert re.search(r"(?m)^#{1,6} Institution of actions\n\n2\. Subject to the provisions of section 3", doc.markdown)


def test_margin_notes_title_their_sections(small_claims):
    """Each section is numbered by its body line and titled by the note beside it, inside its
    Part; a note of eight lines ("Where a party to the action requests for …") is one title, and
    notes pdfminer reads before the page's running head still title their sections (page 13)."""
    _, tree = small_claims
    by_id = {s.section_id: s for s in tree.sections}
    expected = {
        "1": ("Short title and date of operation", None),
        "2": ("Institution of actions", "part-i"),
        "3": ("Cause of action in a Small Claims Court", "part-i"),
        "5": ("Where a plaint is presented to a wrong court", "part-i"),
        "6": ("Pleadings", "part-ii"),
        "17": ("Where a party to the action requests for commissions, reports, certified copies and "
               "discovery of documents", "part-iii"),
        "31": ("Casus omissus", None),
        "34": ("Interpretation", None),
    }  # fmt: skip
    for number, (title, part) in expected.items():
        section = by_id.get(number)
        assert section is not None, (number, sorted(by_id))
        assert section.title == f"{number}. {title}", section.title
        if part:
            assert _container(tree, section) == part, (number, section.parent_id)
    assert {"1(1)", "1(2)", "17(1)", "17(1)(e)", "17(2)", "31(2)"} <= set(by_id), sorted(by_id)
    # no slug section left behind by a note ("institution-of-actions")
    assert not [s.section_id for s in tree.sections if re.match(r"(institution|cause|pleadings|casus)", s.section_id)]


def test_wrapped_subsection_citation_starts_no_item(small_claims):
    """"(2) The party who has obtained an order under subsection" / "(1) shall take steps …": the
    "(1)" continues the citation; it made a second item 17(1)-2 under 17(2)."""
    _, tree = small_claims
    ids = [s.section_id for s in tree.sections]
    assert not [i for i in ids if i.startswith("17") and "-" in i], ids
    section = next(s for s in tree.sections if s.section_id == "17(2)")
    assert "subsection\n(1) shall take steps" in section.text
    refs = [(x.text, x.target) for x in tree.cross_references if x.source_section_id == "17(2)"]
    assert ("subsection (1)", "17(1)") in refs, refs


def test_the_title_is_the_acts_name_not_the_masthead(small_claims):
    doc, tree = small_claims
    assert doc.title == tree.title == "SMALL CLAIMS COURTS’ PROCEDURE ACT, No. 33 OF 2022"


def test_a_note_the_layout_cut_into_pieces_is_one_title():
    """Online Safety Act, No. 9 of 2024, pages 44–45: pdfminer boxes the note of section 36 as
    "Fund of" / "Commission" with "the" apart on the first row; the pieces are one title."""
    doc = convert_path(FIXTURES / "online-safety-2024-p44-45.pdf")
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["36"].title == "36. Fund of the Commission"
    assert by_id["37"].title == "37. Audit of accounts"
    assert by_id["38"].title == "38. Provisions of the Code of Criminal Procedure Act to apply"
    assert _container(tree, by_id["36"]) == "part-viii" and _container(tree, by_id["39"]) == "part-ix"
    assert not re.search(r"(?m)^#+ the$", doc.markdown)


def test_a_table_beside_numbered_cells_is_no_margin_note(tmp_path):
    """A Schedule table whose first column ("Person", "Body of persons" …) stands beside cells that
    open with a number ("1. A copy of …") has a third column on the far side of each row: a table,
    not margin notes titling sections 1, 1, 1."""
    rows = [("Person", "1. A copy of the latest audited", "That person himself"),
            ("Body of persons", "1. A copy of an agreement", "Any of the persons"),
            ("Company", "1. A copy of memorandum of", "Any director"),
            ("Society", "1. A copy of the rules of", "The secretary")]  # fmt: skip
    runs = [Run(72, 740, "(3) A copy of all regulations made under this section shall be published in", 11),
            Run(72, 726, "the Gazette and laid before each House of Parliament as soon as possible.", 11),
            Run(280, 690, "SCHEDULE", 10)]  # fmt: skip
    y = 650.0
    for left, middle, right in rows:
        runs += [Run(72, y, left, 10), Run(180, y, middle, 10), Run(390, y, right, 10),
                 Run(193, y - 12, "balance-sheet, if any, relating", 10)]  # fmt: skip
        y -= 50
    path = tmp_path / "schedule-table.pdf"
    path.write_bytes(pdf_bytes([runs]))
    doc = convert_path(path)
    assert not re.search(r"(?m)^#", doc.markdown), doc.markdown  # no cell became a heading
    assert "| Company | 1. A copy of memorandum of" in doc.markdown, doc.markdown  # the table's row
    tree = build_tree(doc, extract_definitions=False, extract_cross_references=False)
    assert not [s.title for s in tree.sections if re.search(r"Person|Company|Society", s.title)]


def test_an_acts_name_with_its_number_and_year_names_an_instrument():
    assert names_instrument("SMALL CLAIMS COURTS’ PROCEDURE ACT, No. 33 OF 2022")
    assert not names_instrument("PARLIAMENT OF THE DEMOCRATIC SOCIALIST REPUBLIC OF SRI LANKA")
    assert not names_instrument("ACT, No. 6 OF 2023")  # a number, no name
    masthead = "# PARLIAMENT OF THE DEMOCRATIC SOCIALIST REPUBLIC OF SRI LANKA\n\n"
    # the name set in two faces, two headings one under the other
    assert first_heading(masthead + "## PARLIAMENTARY BUDGET OFFICE\n\n## ACT, No. 6 OF 2023\n\nText.\n") == (
        "PARLIAMENTARY BUDGET OFFICE ACT, No. 6 OF 2023"
    )
    # a line of text between them: not one name
    assert first_heading(masthead + "## BUDGET OFFICE\n\nSee below.\n\n## ACT, No. 6 OF 2023\n") == (
        "PARLIAMENT OF THE DEMOCRATIC SOCIALIST REPUBLIC OF SRI LANKA"
    )


def test_a_cell_set_like_the_numbered_cell_beside_it_is_no_margin_note(tmp_path):
    """SP 800-63B's "Normative and Informative Sections" table: "2. Introduction" | "Informative",
    row after row, both cells in one face. A table's cells share their style; a margin note is set
    apart from its body (smaller, or another face)."""
    rows = [("1. Purpose", "Informative"), ("2. Introduction", "Informative"), ("3. Definitions", "Informative"),
            ("4. Authenticator Assurance Levels", "Normative"), ("5. Verifier Requirements", "Normative"),
            ("6. Lifecycle Management", "Normative"), ("7. Session Management", "Normative")]  # fmt: skip
    runs = [Run(72, 740, "The following table states which sections of the document are normative and which are", 12),
            Run(72, 726, "informative:", 12), Run(160, 700, "Section Name", 10, "F2"),
            Run(375, 700, "Normative/Informative", 10, "F2")]  # fmt: skip
    y = 674.0
    for left, right in rows:
        runs += [Run(97, y, left, 12), Run(400, y, right, 12)]
        y -= 26
    path = tmp_path / "sections-table.pdf"
    path.write_bytes(pdf_bytes([runs]))
    doc = convert_path(path)
    assert not re.search(r"(?m)^#+ (Informative|Normative)$", doc.markdown), doc.markdown


def test_a_schedule_set_as_small_as_the_notes_keeps_its_notes(tmp_path):
    """The Personal Data Protection Act, No. 9 of 2022 sets its Schedule VI in the notes' own 8 pt:
    "1. Every member of the Board …" beside "Term of office / of members". Once the Act's notes are
    known by their face (three or more set apart from the body), a note in that face titles the
    paragraph beside it even in text of the same face — it was a table row again."""

    def page(size: float, notes: list[tuple[str, str]], top: float) -> list[Run]:
        runs, y = [], top
        for n, (title, more) in enumerate(notes, start=1):
            runs += [Run(156, y, f"{n}. Every member of the Board shall hold office for a term", size),
                     Run(144, y - 12, "of three years from the date of his appointment and be", size),
                     Run(144, y - 24, "eligible for reappointment for one further term.", size),
                     Run(396, y + 0.5, title, 8), Run(396, y - 9.1, more, 8)]  # fmt: skip
            y -= 60
        return runs

    body = page(10, [("Short title", "and operation"), ("Establishment", "of the Board"),
                     ("Objects of", "the Authority")], 700)  # the Act: 10 pt text, 8 pt notes  # fmt: skip
    schedule = [Run(250, 760, "SCHEDULE", 6)] + page(8, [("Term of office", "of members"), ("Resignation", "of a member"),
                                                        ("Seal of", "the Board")], 640)  # fmt: skip
    path = tmp_path / "act-with-schedule.pdf"
    path.write_bytes(pdf_bytes([body, schedule]))
    doc = convert_path(path)
    assert not re.search(r"(?m)^\|", doc.markdown), doc.markdown
    for title in ("Objects of the Authority", "Term of office of members", "Seal of the Board"):
        assert re.search(rf"(?m)^#+ {title}\n\n\d\. Every member", doc.markdown), (title, doc.markdown)
