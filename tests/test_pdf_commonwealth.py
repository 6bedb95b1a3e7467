"""Commonwealth reprint-style act PDFs (Laws of Malaysia, Indian, Singapore and Kenyan prints):
sections ``6. (1) A data user …`` under a bold shoulder note, subsections ``(2)``, paragraphs
``(a)``, Part titles in capitals under ``Part II``, an "ARRANGEMENT OF SECTIONS" listing every
section before the body, the collection's name ("LAWS OF MALAYSIA") over the act's title on every
front page, and justified lines whose word spaces pdfminer doubles.

The PDF is built with ``pdf_writer`` after the layout of the Personal Data Protection Act 2010
(Act 709, 2023 reprint; Jin-0626/legal-rag-malaysia ``data/``, which this repository does not
hold): positions, sizes, the bold notes and the justified spacing as that print sets them, the
text shortened. It is read through pdfminer exactly as ingest reads it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.convert import first_heading
from docstrata.structure import build_tree
from docstrata.structure.contents import is_contents_section

from .conftest import convert_path

from .pdf_writer import FONTS, Run, pdf_bytes

PAGE = (595.0, 842.0)


def _width(text: str, size: float, font: str) -> float:
    from pdfminer.fontmetrics import FONT_METRICS

    widths = FONT_METRICS[FONTS[font]][1]
    return sum(widths.get(ch, 500) for ch in text) * size / 1000


def _line(x: float, y: float, text: str, size: float = 11.0, font: str = "F3", stretch: float = 0.0) -> list[Run]:
    """A line set word by word, each word with its own trailing space, ``stretch`` points more
    between words: a justified line, whose wide word spaces pdfminer reads as two spaces."""
    runs, at = [], x
    for word in text.split():
        runs.append(Run(at, y, word + " ", size, font))
        at += _width(word + " ", size, font) + stretch
    return runs


def _centred(y: float, text: str, size: float = 11.0, font: str = "F4") -> Run:
    return Run((PAGE[0] - _width(text, size, font)) / 2, y, text, size, font)


def _front(y: float = 780) -> list[Run]:
    return [_centred(y, "LAWS OF MALAYSIA", 14), _centred(y - 24, "Act 709", 11, "F3"),
            _centred(y - 48, "PERSONAL DATA PROTECTION ACT 2010", 12)]  # fmt: skip


def _body_page(folio: int, lines: list[tuple[str, str]]) -> list[Run]:
    """A body page: ``(kind, text)`` rows from the top; kinds ``note`` (a bold shoulder note),
    ``part`` (centred), ``text`` (a justified line at the margin), ``item`` (a paragraph indented)."""
    runs, y = [], 770.0
    for n, (kind, text) in enumerate(lines):
        if n and (kind == "note" or kind == "part" and lines[n - 1][0] != "part"):
            y -= 12  # a paragraph space above a note or a Part heading
        if kind == "note":  # "|" wraps a long note
            for k, part in enumerate(text.split("|")):
                runs += _line(90, y - 13 * k, part.strip(), 11, "F4")
            y -= 13 * text.count("|")
        elif kind == "part":
            runs += _line(90, y, text, 11, "F3")
        elif kind == "item":
            runs += _line(120, y, text, 11, "F3", 2.5)
        else:
            runs += _line(90, y, text, 11, "F3", 2.5)
        y -= 24 if kind == "note" else 16
    runs.append(Run(290, 60, str(folio), 10))
    return runs


CONTENTS = [
    ("Part I", "PRELIMINARY"),
    ("1.", "Short title and commencement"),
    ("2.", "Interpretation"),
    ("Part II", "PERSONAL DATA PROTECTION"),
    ("3.", "General Principle"),
    ("4.", "Security Principle"),
    ("5.", "Register of data users"),
    ("6.", "Offences by data users"),
    ("7.", "Power to require production of computer, book, account, etc."),
    ("8.", "Commissioner may carry out or continue investigation initiated by complaint"),
]


def _act_pdf(tmp_path: Path) -> Path:
    cover = [*_front(700), _centred(560, "As at 1 July 2023", 11, "F3")]
    contents = [*_front(), *_line(220, 690, "ARRANGEMENT OF SECTIONS", 11, "F3", 3.0), Run(90, 660, "Section", 10)]
    y = 636.0
    for label, title in CONTENTS:
        if label.startswith("Part"):
            contents += [Run(90, y, label, 11), Run(90, y - 14, title, 11)]
            y -= 38
        else:
            contents += [Run(90, y, label, 11), *_line(115, y, title, 11, "F3", 2.5)]
            y -= 20
    contents.append(Run(290, 60, "3", 10))
    first = _body_page(5, [
        ("text", "An Act to regulate the processing of personal data in commercial transactions and to"),
        ("text", "provide for matters connected therewith and incidental thereto."),
        ("text", "ENACTED by the Parliament of Malaysia as follows:"),
        ("part", "Part I"), ("part", "PRELIMINARY"),
        ("note", "Short title and commencement"),
        ("text", "1. (1) This Act may be cited as the Personal Data Protection Act 2010."),
        ("text", "(2) This Act comes into operation on a date to be appointed by the Minister by"),
        ("text", "notification in the Gazette."),
        ("note", "Interpretation"),
        ("text", "2. In this Act, unless the context otherwise requires-"),
        ("text", '"data user" means a person who either alone or jointly or in common with other'),
        ("text", "persons processes any personal data or has control over the processing of any"),
        ("text", "personal data, but does not include a data processor;"),
        ("text", '"processing", in relation to personal data, means collecting, recording, holding or'),
        ("text", "storing the personal data or carrying out any operation on the personal data."),
    ])  # fmt: skip
    second = _body_page(6, [
        ("part", "Part II"), ("part", "PERSONAL DATA PROTECTION"),
        ("note", "General Principle"),
        ("text", "3. (1) A data user shall not-"),
        ("item", "(a) in the case of personal data other than sensitive personal data, process"),
        ("item", "personal data about a data subject unless the data subject has given consent; or"),
        ("item", "(b) in the case of sensitive personal data, process it except in accordance with"),
        ("item", "the provisions of section 5."),
        ("text", "(2) Notwithstanding paragraph (1)(a), a data user may process personal data about a"),
        ("text", "data subject if the processing is necessary-"),
        ("item", "(a) for the performance of a contract to which the data subject is a party;"),
        ("item", "(b) for compliance with any legal obligation to which the data user is the subject."),
        ("note", "Security Principle"),
        ("text", "4. A data user shall, when processing personal data, take practical steps to protect"),
        ("text", "the personal data from any loss, misuse, modification or unauthorized access."),
        ("note", "Register of data users"),
        ("text", "5. (1) The Commissioner shall keep a register of the data users registered under"),
        ("text", "subsection 3(2) in such form as he may determine."),
        ("text", "(2) The register shall be open to public inspection on payment of the fee."),
        ("note", "Offences by data users"),
        ("text", "6. A data user who contravenes subsection 3(1) or section 4 commits an offence and"),
        ("text", "shall, on conviction, be liable to a fine not exceeding three hundred thousand ringgit."),
        ("note", "Power to require production of computer, book, account, etc."),
        ("text", "7. An authorized officer shall, for the purposes of the execution of this Act, have"),
        ("text", "the power to require the production of any computer, book or account."),
        ("note", "Commissioner may carry out or continue investigation initiated|by complaint notwithstanding withdrawal of complaint"),
        ("text", "8. Where the Commissioner is of the opinion that it is in the public interest so to do,"),
        ("text", "he may carry out an investigation notwithstanding that the complaint is withdrawn."),
    ])  # fmt: skip
    path = tmp_path / "act-709-excerpt.pdf"
    path.write_bytes(pdf_bytes([cover, contents, first, second], *PAGE))
    return path


@pytest.fixture(scope="module")
def act(tmp_path_factory):
    doc = convert_path(_act_pdf(tmp_path_factory.mktemp("act709")))
    return doc, build_tree(doc)


def test_justified_word_spaces_are_single(act):
    doc, tree = act
    assert "data  user" not in doc.markdown and "ARRANGEMENT  OF" not in doc.markdown
    assert "A data user shall not" in doc.markdown
    assert "data user" in {d.term for d in tree.definitions}


def test_title_is_the_act_not_the_collection(act):
    doc, _ = act
    assert doc.title == "PERSONAL DATA PROTECTION ACT 2010"


def test_subsections_are_sections_and_hold_their_paragraphs(act):
    _, tree = act
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["3"].title == "3. General Principle"
    assert by_id["3(1)"].parent_id == "3" and by_id["3(2)"].parent_id == "3"
    assert by_id["3(1)(a)"].parent_id == "3(1)" and by_id["3(2)(a)"].parent_id == "3(2)"
    assert by_id["3(2)(b)"].text.startswith("(b) for compliance with any legal obligation")
    assert by_id["1(2)"].text.startswith("(2) This Act comes into operation")
    assert "(1) A data user shall not" in by_id["3(1)"].text
    assert not [i for i in by_id if re.search(r"\(a\)-\d|^3\([a-z]\)", i)], sorted(by_id)


def test_arrangement_of_sections_is_no_second_copy(act):
    _, tree = act
    numbered = [s for s in tree.sections if s.number and re.fullmatch(r"\d+\.?", s.number)]
    assert sorted(s.section_id for s in numbered) == ["1", "2", "3", "4", "5", "6", "7", "8"]
    parts = [s for s in tree.sections if s.number and s.number.lower().startswith("part")]
    assert [s.title for s in parts] == ["Part I PRELIMINARY", "Part II PERSONAL DATA PROTECTION"]
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["3"].parent_id == "part-ii" and by_id["1"].parent_id == "part-i"
    # the contents lines name every section: they are a contents section, which cites nothing
    assert is_contents_section(by_id["arrangement-of-sections"])
    assert "5. Register of data users" in by_id["arrangement-of-sections"].text
    sources = {x.source_section_id for x in tree.cross_references}
    assert "arrangement-of-sections" not in sources and not [i for i in sources if i.startswith("part-")]


def test_long_shoulder_notes_title_their_sections(act):
    _, tree = act
    by_id = {s.section_id: s for s in tree.sections}
    # a note ending "etc." and one of 14 words on two lines are the titles of the provisions below them
    assert by_id["7"].title == "7. Power to require production of computer, book, account, etc."
    assert by_id["8"].title == (
        "8. Commissioner may carry out or continue investigation initiated by complaint notwithstanding withdrawal of complaint"
    )


def test_references_resolve_to_subsections(act):
    _, tree = act
    found = {(x.source_section_id, x.target) for x in tree.cross_references}
    assert ("6", "3(1)") in found and ("5(1)", "3(2)") in found


def test_first_heading_skips_the_collection_name():
    markdown = "# LAWS OF MALAYSIA\n\nREPRINT\n\n### Act 709\n\n## PERSONAL DATA PROTECTION ACT 2010\n\nText.\n"
    assert first_heading(markdown) == "PERSONAL DATA PROTECTION ACT 2010"
    assert first_heading("# Annual Report\n\n## The Companies Act 2016 explained\n") == "Annual Report"


def test_whereas_preamble_ends_at_the_enacting_formula():
    """An Indian Act (the Gazette print of the Information Technology Act, 2000) opens with a
    "WHEREAS" preamble and "BE it enacted by Parliament …": the numbered subsections of its
    sections are subsections, never recitals."""
    from docstrata.structure.parse import parse_sections

    markdown = "\n".join([
        "# THE INFORMATION TECHNOLOGY ACT, 2000", "",
        "An Act to provide legal recognition for transactions carried out by means of electronic data interchange.", "",
        "WHEREAS", "", "the General Assembly of the United Nations has adopted the Model Law on Electronic Commerce;", "",
        "BE it enacted by Parliament in the Fifty-first Year of the Republic of India as follows:—", "",
        "CHAPTER I", "PRELIMINARY", "",
        "# 1. Short title, extent, commencement and application", "",
        "(1) This Act may be called the Information Technology Act, 2000.", "",
        "(2) It shall extend to the whole of India.", "",
        "(3) Nothing in this Act shall apply to,—", "",
        "(a) a negotiable instrument as defined in section 13 of the Negotiable Instruments Act, 1881;", "",
        "(b) a power-of-attorney as defined in section 1A of the Powers-of-Attorney Act, 1882.", "",
        "# 2. Definitions", "",
        "(1) In this Act, unless the context otherwise requires,—", "",
        '(a) "access" means gaining entry into a computer, computer system or computer network;', "",
        '(b) "addressee" means a person who is intended by the originator to receive the electronic record.', "",
        "###### CHAPTER II", "", "# 3. Authentication of electronic records", "",
        "(1) Any subscriber may authenticate an electronic record by affixing his digital signature.", "",
    ])  # fmt: skip
    tree = parse_sections(markdown, "it-act.md", "THE INFORMATION TECHNOLOGY ACT, 2000")
    ids = [s.section_id for s in tree.sections]
    assert not [i for i in ids if i.startswith("recital")], ids
    assert {"1(1)", "1(2)", "1(3)", "1(3)(a)", "2(1)", "2(1)(b)", "3(1)"} <= set(ids), ids
