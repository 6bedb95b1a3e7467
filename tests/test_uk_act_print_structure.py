"""Sections of a UK Act as enacted, read from its legislation.gov.uk print PDF.

The print opens each section with its number run into its first subsection — ``1.—(1) A person is
guilty …`` (the grammar's provision opening, ``grammar.PROVISION_OPENS``) — and titles it by a
margin note set in 9 pt beside that line, a few points from the 11 pt body: pdfminer joined the
note's word on a body row to the body line (``… with intent to computer``, ``… if he commits
Unauthorised``) and the chapter numbers of the Acts cited, set in the same margin, made table rows
of sections 2–3 and 8. No section number was read: ``cited-by … 8`` found no section 8 (trial 19).

Fixture: pages 1–9 of the Computer Misuse Act 1990 (``tests/fixtures/uk-act-print``, see its
NOTICE.md). Truth is the Act's own arrangement of sections (page 1: each entry's number and title,
under its cross-heading) and its text, both as PDFium (pypdfium2, an engine independent of
pdfminer) reads them.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file

from .conftest import ingested

ACT = Path(__file__).parent / "fixtures" / "uk-act-print" / "computer-misuse-act-1990-pp1-9.pdf"
_ENTRY = re.compile(r"^(\d+)\.\s+(.*)$")


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())  # "oﬀence" (ligature glyph) = "offence"


@pytest.fixture(scope="module")
def pdfium_pages() -> list[str]:
    pdfium = pytest.importorskip("pypdfium2")
    pdf = pdfium.PdfDocument(ACT)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def contents(pdfium_pages) -> dict[str, tuple[str, str]]:
    """Number -> (title, cross-heading) of each entry of the arrangement of sections (page 1): an
    entry opens with its number, a line after an entry that has not closed with its full stop goes
    on with it, any other line is a cross-heading over the entries below it."""
    out: dict[str, tuple[str, str]] = {}
    heading, number = "", ""
    lines = [line.strip() for line in pdfium_pages[0].splitlines() if line.strip()]
    for line in lines[lines.index("ARRANGEMENT OF SECTIONS") + 1 :]:
        if line == "Section":
            continue
        if m := _ENTRY.match(line):
            number = m.group(1)
            out[number] = (m.group(2), heading)
        elif number and not out[number][0].endswith("."):
            out[number] = (f"{out[number][0]} {line}", heading)
        else:
            heading, number = line, ""
    return out


@pytest.fixture(scope="module")
def body(pdfium_pages) -> str:
    return _norm(" ".join(pdfium_pages[1:]))


@pytest.fixture(scope="module")
def printed(contents, body) -> list[str]:
    """The entries whose section the excerpt prints: its number opens a provision in the body."""
    return [n for n in contents if re.search(rf"(?<!\S){n}\.(?:—\(1\)| [A-Z])", body)]


@pytest.fixture(scope="module")
def tree():
    return parse_file(source_file(ACT), PipelineSettings(count_tokens=lambda t: len(t) // 4)).tree


def _by_id(tree) -> dict:
    return {s.section_id: s for s in tree.sections}


def test_the_excerpt_prints_ten_sections_or_more(printed):
    assert len(printed) >= 10, printed


def test_every_printed_section_is_numbered_and_titled_by_its_margin_note(tree, contents, printed):
    """Section N is a section with id ``N`` whose title is its margin note, the words the
    arrangement of sections gives for it (a marginal citation the print sets right under a note,
    ``1977 c. 45.`` under section 7's, may follow them), under the cross-heading the arrangement
    puts it under."""
    sections = _by_id(tree)
    for number in printed:
        title, heading = contents[number]
        assert number in sections, (number, sorted(sections)[:40])
        section = sections[number]
        assert _norm(section.title).startswith(f"{number}. {_norm(title)}"), (number, section.title)
        parent = sections[section.parent_id]
        assert _norm(parent.title) == _norm(heading), (number, parent.title)


def test_sections_opened_n_dash_1_hold_their_subsections_in_order(tree, body, printed):
    """A section printed ``N.—(1) …`` holds subsections ``N(1)``, ``N(2)`` … numbered on by one from
    (1), the first holding the body line that opens with ``N.—(1)``."""
    sections = _by_id(tree)
    dashed = [n for n in printed if f"{n}.—(1)" in body]
    assert len(dashed) >= 8, dashed
    for number in dashed:
        kids = [s for s in tree.sections if s.parent_id == number and re.fullmatch(rf"{number}\(\d+\)", s.section_id)]
        assert [s.section_id for s in kids] == [f"{number}({k})" for k in range(1, len(kids) + 1)], number
        assert len(kids) >= 2, number
        opening = body.split(f"{number}.—(1) ", 1)[1].split()[:5]
        assert _norm(sections[f"{number}(1)"].text).startswith(f"{number}.—(1) {' '.join(opening)}"), number


def test_no_margin_word_runs_into_the_body(tree, contents, printed):
    """No body line ends with a word of the margin note beside it, and no note is read as body
    text: the text of the sections and their subsections (the contents page aside) holds no note
    whole."""
    text = _norm("\n".join(s.text for s in tree.sections if re.match(r"\d+(?:\(|$)", s.section_id)))
    assert "with intent to secure access to any program or data held in any computer" in text
    assert "if he commits an offence under section 1 above" in text
    for number in printed:
        title, _ = contents[number]
        assert _norm(title) not in text, number


def test_marginal_citations_are_no_table_and_no_words_of_a_sentence(tree):
    """The chapter numbers set in the margin beside the Acts the text cites (``1971 c. 48.``) stand
    apart from the sentence they stand beside, and no section is read as a table cell."""
    markdown = "\n".join(f"{s.heading}\n{s.text}" for s in tree.sections)
    assert not re.search(r"(?m)^\|", markdown), "a table row"
    text = _norm(markdown)
    assert "Criminal Damage Act 1971 a modification of the contents of a computer" in text
    assert "1971 c. 48." in text


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("uk-act-print"), [ACT])
    yield ts["docs"]
    ts.close()


def test_cited_by_8_and_get_section_3_2(tool, body):
    """``cited-by 8`` lists the provisions that cite section 8 (``Subject to section 8 below`` in
    4(4) and 7(4)); ``get-section 3(2)`` prints that subsection's text."""
    page = tool.cited_by(ACT.name, "8")
    citers = {c.section_id for c in page.citers}
    assert page.section_id == "8"
    assert {"4(4)", "7(4)"} <= citers, citers
    got = tool.get_section(ACT.name, "3(2)")
    assert got.section_id == "3(2)"
    words = body.split("(2) For the purposes of subsection (1)(b) above the requisite intent is", 1)[1].split()[:12]
    assert " ".join(words) in _norm(got.content)
