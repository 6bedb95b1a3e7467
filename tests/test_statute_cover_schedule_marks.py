"""Three structure faults of statute PDFs, on the Acts themselves:

* a printer's line on an Act's cover (``Printed on the Order of Government``, set in its own face
  under the Act's name) was a heading holding the whole Act, and the Parliament's masthead above
  it another;
* a back-matter label printed with no number (``SCHEDULE``, the only one) or with an ordinal word
  (``FIRST SCHEDULE``) made no container, so the forms of the Schedule were the text of the last
  section;
* an India Code amendment mark (``1[4.``: the footnote's number and the bracket that opens the
  inserted or substituted text) hid the section's number from the parser.

Fixtures: page excerpts of the Small Claims Courts' Procedure Act, No. 33 of 2022 (Sri Lanka,
``tests/fixtures/lk-acts``, see its NOTICE.md), read through pdfminer exactly as ingest reads them.
The India Code PDF is read from ``$DOCSTRATA_STATUTE_PDFS`` as in ``test_statute_pdf_layout.py``
(a government work without an open licence, not in the repository) and the test skips without it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.structure import build_tree
from docstrata.structure.grammar import back_matter_label, without_amendment_mark

from .conftest import SHARED_DATA, convert_path, external_file

FIXTURES = Path(__file__).parent / "fixtures" / "lk-acts"


def _tree(path: Path):
    doc = convert_path(path)
    return doc, build_tree(doc, extract_definitions=False, extract_cross_references=False)


def _ancestors(tree, section) -> list:
    by_id = {s.section_id: s for s in tree.sections}
    out = []
    parent = by_id.get(section.parent_id) if section.parent_id else None
    while parent is not None:
        out.append(parent)
        parent = by_id.get(parent.parent_id) if parent.parent_id else None
    return out


def test_the_printers_line_on_an_acts_cover_heads_nothing():
    """Pages 1–3, 7 and 13 of the Act: the cover's masthead and ``Printed on the Order of Government``
    are front matter, the Act's name the one heading over its Parts and sections; section 1 and
    Part I sit right under it, and the title stays the Act's name."""
    doc, tree = _tree(FIXTURES / "small-claims-courts-procedure-2022-excerpt.pdf")
    assert tree.title == "SMALL CLAIMS COURTS’ PROCEDURE ACT, No. 33 OF 2022"
    titles = [s.title for s in tree.sections]
    assert not any(re.search(r"(?i)printed on the order|parliament of the democratic", t) for t in titles), titles[:6]
    assert "Printed on the Order of Government" in doc.markdown  # kept as text, not dropped
    by_id = {s.section_id: s for s in tree.sections}
    for sid in ("1", "part-i", "part-ii"):
        chain = _ancestors(tree, by_id[sid])
        assert [a.title for a in chain] in ([], [tree.title]), (sid, [a.title for a in chain])
    assert [a.section_id for a in _ancestors(tree, by_id["2"])][:1] == ["part-i"]


def test_a_schedule_printed_without_a_number_is_a_container():
    """Pages 13–15 of the Act: ``SCHEDULE`` alone on its line after section 35, then Form No. 1
    (a plaint). The Schedule is a section of its own beside the sections, id ``schedule``, holding
    the forms; section 35 ends with its own sentence (it held the forms, 200 words, before)."""
    _, tree = _tree(FIXTURES / "small-claims-courts-procedure-2022-p13-15.pdf")
    by_id = {s.section_id: s for s in tree.sections}
    schedule = by_id.get("schedule")
    assert schedule is not None, [s.section_id for s in tree.sections]
    assert schedule.parent_id is None and schedule.number
    assert "Form No. 1" in schedule.text and "PLAINT" in schedule.text
    s35 = by_id["35"]
    assert s35.text.rstrip().endswith("prevail."), s35.text[-200:]
    assert "Form No." not in s35.text and "PLAINT" not in s35.text
    assert {"31", "32", "33", "34", "35"} <= set(by_id)


@pytest.mark.parametrize(
    ("line", "label"),
    [
        ("SCHEDULE", ("schedule", "")),
        ("THE SCHEDULE", ("schedule", "")),
        ("THE FIRST SCHEDULE", ("schedule", "1")),
        ("The Second Schedule", ("schedule", "2")),
        ("SCHEDULE [section 8(1)]", ("schedule", "")),
        ("THE THIRD SCHEDULE (See section 2)", ("schedule", "3")),
        ("APPENDIX", ("appendix", "")),
        ("Schedule hereto.", None),  # the end of a sentence wrapped onto its own line
        ("schedule", None),
        ("First Schedule to the Act", None),
        ("Schedule 2", None),  # a numbered label: the label grammar reads it
    ],
)
def test_back_matter_labels_without_a_number(line, label):
    """The grammar's reading of a back-matter label printed with no number or an ordinal word."""
    assert back_matter_label(line) == label


def test_ordinal_and_bare_schedules_nest_like_numbered_ones():
    """``FIRST SCHEDULE`` and ``SECOND SCHEDULE`` after an Act's last section are containers numbered
    by their ordinals (``schedule-1``, ``schedule-2``), beside the Part, their items qualified by them
    (``schedule-1/1``) while the Act keeps its bare section 1."""
    text = (
        "PART I\n\nPRELIMINARY\n\n1. This Act may be cited as the Example Act.\n\n"
        "2. The Minister may make regulations for the purposes of this Act.\n\n"
        "FIRST SCHEDULE\n\n1. Name of the applicant and the address at which notices are served.\n\n"
        "2. The particulars of the claim.\n\n"
        "SECOND SCHEDULE\n\n1. The fee payable on filing the plaint.\n"
    )
    from docstrata.structure.parse import parse_sections

    tree = parse_sections(text, "x.md", "Example Act")
    ids = {s.section_id: s.parent_id for s in tree.sections}
    assert ids.get("schedule-1") is None and "schedule-1" in ids, ids
    assert ids.get("schedule-2") is None and "schedule-2" in ids, ids
    assert ids.get("1") == "part-i" and ids.get("schedule-1/1") == "schedule-1", ids


@pytest.mark.parametrize(
    ("printed", "read"),
    [
        ("1[4. Penalty for demanding dowry.—If any person", "4. Penalty for demanding dowry.—If any person"),
        ("2[4A. Ban on advertisement.—If any person—", "4A. Ban on advertisement.—If any person—"),
        ("9[(2) Nothing in sub-section (1) shall apply", "(2) Nothing in sub-section (1) shall apply"),
        ("2[(3)] Every rule made under this section", "(3) Every rule made under this section"),
        ("7[Provided that where such woman dies", "Provided that where such woman dies"),
        ("4. Penalty for demanding dowry.", "4. Penalty for demanding dowry."),
        ("2019[ a year in brackets", "2019[ a year in brackets"),
    ],
)
def test_amendment_marks_before_a_number(printed, read):
    """India Code lines as printed (the Dowry Prohibition Act, 1961): the mark goes, the number stays."""
    assert without_amendment_mark(printed) == read


def _statute_pdf(name: str) -> Path:
    shared = SHARED_DATA / "statute-pdfs" / name
    if shared.exists():
        return shared
    return external_file("DOCSTRATA_STATUTE_PDFS", name, "an India Code PDF; see bench/statute_pdfs.py")


def test_sections_behind_amendment_marks_are_found():
    """The Dowry Prohibition Act, 1961 as India Code prints it (modified to 2018): sections 4, 4A, 7,
    8, 8A and 10 open with an amendment mark (``1[4. Penalty for demanding dowry.—``). Each is a
    section of its own with its text; before, each was read into the section above it (section 3
    held section 4, 6 held 7 and 8)."""
    doc, tree = _tree(_statute_pdf("in-Dowry_Prohibition_Act_1961.pdf"))
    marked = re.findall(r"(?m)^\d{1,3}\[(\d{1,3}[A-Z]?)\. ", doc.markdown)
    assert len(marked) >= 5, marked
    kids: dict[str | None, list] = {}
    for s in tree.sections:
        kids.setdefault(s.parent_id, []).append(s)

    def words(s) -> int:
        return len(s.text.split()) + sum(words(k) for k in kids.get(s.section_id, []) if "(" in k.section_id)

    numbered = {s.section_id: s for s in tree.sections if words(s) >= 10}
    assert set(marked) <= set(numbered), (marked, sorted(numbered))
    assert "Penalty for demanding dowry" in numbered["4"].title
    assert "Penalty for demanding dowry" not in numbered["3"].text


def test_a_reprints_schedules_and_what_follows_them():
    """The Industrial Relations Act 1967 (Laws of Malaysia reprint): its Arrangement lists ``FIRST
    SCHEDULE`` / ``SECOND SCHEDULE`` (contents entries, neither titling the other), the body prints
    ``*FIRST SCHEDULE`` (a footnote's star) and ``SECOND SCHEDULE``: two containers holding their
    items. The reprint's list of amendments after them (a row ``9 Act A1322``) is back matter and
    leaves section 9 of Part III its bare id."""
    _, tree = _tree(_statute_pdf("my-industrial-relations-act-1967.pdf"))
    by_id = {s.section_id: s for s in tree.sections}
    assert "Claim for recognition" in by_id["9"].title and by_id["9"].parent_id == "part-iii"
    schedules = [s for s in tree.sections if s.section_id.split("/")[-1] in ("schedule-1", "schedule-2")]
    assert [s.section_id.split("/")[-1] for s in schedules] == ["schedule-1", "schedule-2"], schedules
    assert all("SECOND SCHEDULE" not in s.title for s in schedules if s.section_id.endswith("schedule-1"))
    items = [s for s in tree.sections if s.parent_id == schedules[0].section_id]
    assert len(items) >= 10 and "Electricity services" in items[0].title
