"""PDF conversion of a standard laid out like NIST SP 800-63B (trial 7): a note printed up the
page margin on every page, level-2 numbers missing from the text layer, a printed table of
contents and a table whose cells hold section numbers. The PDF is built in the test
(``pdf_writer``) and read by pdfminer exactly as ingest reads a file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree

from .pdf_writer import Run, pdf_bytes

MARGIN_NOTE = "This publication is available free of charge from: https://doi.org/10.6028/NIST.SP.800-63b"
BODY = [
    "Verifiers SHALL require subscriber-chosen memorized secrets to be at least 8 characters in",
    "length. Verifiers SHOULD permit subscriber-chosen memorized secrets at least 64 characters",
    "in length. All printing ASCII characters as well as the space character SHOULD be",
    "acceptable in memorized secrets. Unicode characters SHOULD be accepted as well.",
]


SUBJECTS = ["Verifiers", "Authenticators", "Subscribers", "Claimants", "Agencies", "Providers", "Sessions",
            "Devices", "Secrets", "Channels", "Keys", "Tokens", "Records", "Policies", "Assertions", "Factors"]
_paragraphs = iter(())  # restarted by each _pages() call


def _body(y: float, lines: list[str] = BODY) -> list[Run]:
    """A paragraph; each call's lines open with other words (identical lines at the top or foot
    of many pages would be a running header)."""
    k = next(_paragraphs)
    return [Run(73, y - 14 * n, text if k == 0 else f"{SUBJECTS[(k + n) % len(SUBJECTS)]} {text.split(' ', 1)[1]}")
            for n, text in enumerate(lines)]


def _heading(y: float, number: str | None, title: str, size: float = 11.0) -> list[Run]:
    """A heading as a word processor sets it: the number, then the title at a tab stop; with
    ``number=None`` the number is drawn without text (only the title reaches the text layer)."""
    runs = [Run(73, y, number, size, "F2")] if number else []
    return runs + [Run(88 if len(number or "") <= 3 else 120, y, title, size, "F2")]


def _pages() -> list[list[Run]]:
    global _paragraphs
    _paragraphs = iter(range(1000))
    contents = [Run(256, 705, "Table of Contents", 12, "F2")] + [
        Run(x, 685 - 20 * n, text + " " + "." * 60 + f" {page}", 12, "F1")
        for n, (x, text, page) in enumerate([
            (73, "1   Purpose", 1), (73, "2   Requirements", 2), (117, "Requirements by Authenticator Type", 2),
            (127, "2.1.1   Memorized Secrets", 2), (127, "2.1.2   Look-Up Secrets", 3),
            (117, "General Authenticator Requirements", 3), (127, "2.2.1   Rate Limiting", 3),
            (73, "3   Threats", 4)])
    ]  # fmt: skip
    pages = [
        contents,
        _heading(700, "1", "Purpose", 12) + _body(670) + _body(600),
        _heading(700, "2", "Requirements", 12) + _body(670)
        + _heading(600, None, "Requirements by Authenticator Type") + _body(575)
        + _heading(505, "2.1.1", "Memorized Secrets") + _body(480) + _body(410),
        _heading(700, "2.1.2", "Look-Up Secrets") + _body(675)
        + _heading(600, None, "General Authenticator Requirements") + _body(575)
        + _heading(505, "2.2.1", "Rate Limiting") + _body(480),
        _heading(700, "3", "Threats", 12) + _body(670, BODY[:2])
        + [Run(73, 610, "Threat", 10, "F4"), Run(200, 610, "Mitigation", 10, "F4"), Run(430, 610, "Reference(s)", 10, "F4")]
        + [Run(73, 580, "Theft", 12, "F4"), Run(200, 580, "Use multi-factor authenticators.", 12), Run(430, 580, "2.1.1")]
        + [Run(73, 550, "Duplication", 12, "F4"), Run(200, 550, "Use keys that are hard to copy.", 12), Run(430, 550, "2.2.1")]
        + [Run(73, 520, "Eavesdropping", 12, "F4"), Run(200, 520, "Secure the endpoint first.", 12), Run(430, 520, "2.1.2")]
        + _body(470),
        _body(700) + _body(620),
    ]
    for n, page in enumerate(pages):
        page.append(Run(25, 200, MARGIN_NOTE, 9, "F1", angle=90))  # printed up the left margin
        page.append(Run(300, 50, str(n + 1), 12))
    return pages


def _convert(tmp_path):
    path = tmp_path / "sp800-63b-like.pdf"
    path.write_bytes(pdf_bytes(_pages()))
    return convert_file(SourceFile("sp800-63b-like.pdf", str(path), None))


def test_margin_note_printed_up_the_page_is_dropped_and_never_splits_the_text(tmp_path):
    """Before: every letter of the margin note became a line of its own ("T", "h", "s", …) and
    the digits of its DOI joined body lines; the note is set at 90° on every page, so it is page
    furniture and goes, the text around it stays whole."""
    doc = _convert(tmp_path)
    lines = [line.strip() for line in doc.markdown.splitlines() if line.strip()]
    assert not [line for line in lines if len(line) <= 2 and re.fullmatch(r"[A-Za-z.:/-]{1,2}", line)]
    assert "available free of charge" not in doc.markdown and "doi.org" not in doc.markdown
    assert BODY[0] in doc.markdown and BODY[1].split(" ", 1)[1] in doc.markdown


def test_turned_text_that_is_not_repeated_stays_as_body_text(tmp_path):
    """A rotated table header set once (not on most pages) is content: kept, read whole."""
    pages = _pages()
    pages[4].append(Run(540, 300, "Single Factor Cryptographic Device", 10, "F1", angle=90))
    path = tmp_path / "turned.pdf"
    path.write_bytes(pdf_bytes(pages))
    doc = convert_file(SourceFile("turned.pdf", str(path), None))
    assert "Single Factor Cryptographic Device" in doc.markdown


def test_section_numbers_missing_from_the_text_layer_are_restored_from_the_numbering(tmp_path):
    """"Requirements by Authenticator Type" (2.1 on the page, no number in the text layer) is
    followed by 2.1.1 whose parent 2.1 is printed nowhere: it is 2.1, so 2.1.1 and 2.1.2 are its
    children; "General Authenticator Requirements" in the same style and indent continues the
    numbering (2.2) and holds 2.2.1. Ids never take a stray digit ("0-2-1-1-…")."""
    tree = build_tree(_convert(tmp_path))
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["2.1"].title.endswith("Requirements by Authenticator Type") and by_id["2.1"].parent_id == "2"
    assert by_id["2.1.1"].parent_id == "2.1" and by_id["2.1.2"].parent_id == "2.1"
    assert by_id["2.2"].title.endswith("General Authenticator Requirements") and by_id["2.2.1"].parent_id == "2.2"
    assert by_id["3"].parent_id is None
    assert not [sid for sid in by_id if re.match(r"\d+-\d", sid)], sorted(by_id)


def test_contents_page_is_its_own_section_and_its_entries_are_no_headings(tmp_path):
    """The contents page opens with its title (a heading: "Table of" is no table caption), then
    lists the headings; those lines never become headings or sections of their own, and their
    dot leaders shrink to four dots (sixty made NIST SP 800-63B's contents 8,182 tokens)."""
    doc = _convert(tmp_path)
    tree = build_tree(doc)
    contents = next(s for s in tree.sections if s.title == "Table of Contents")
    assert "Memorized Secrets" in contents.text and "Look-Up Secrets" in contents.text
    assert "2.1.2 Look-Up Secrets .... 3" in " ".join(contents.text.split())  # leaders cut to four dots
    headings = [line for line in doc.markdown.splitlines() if line.startswith("#")]
    assert sum("Memorized Secrets" in line for line in headings) == 1
    assert sum(s.title.endswith("Memorized Secrets") for s in tree.sections) == 1


def test_table_cells_are_rows_never_headings_or_sections(tmp_path):
    """The bold row labels ("Theft", "Duplication") and the reference cells ("2.1.1") are read
    as table rows: no heading, no section 2.1.1 inside section 3, and "Section 2.2.1" has one
    section to name."""
    doc = _convert(tmp_path)
    assert "| Duplication | Use keys that are hard to copy. | 2.2.1 |" in doc.markdown
    assert not [line for line in doc.markdown.splitlines() if line.startswith("#") and "Duplication" in line]
    tree = build_tree(doc)
    assert [s.section_id for s in tree.sections if s.section_id.endswith("2.2.1")] == ["2.2.1"]
    assert [s.parent_id for s in tree.sections if s.section_id == "2.2.1"] == ["2.2"]


def test_a_heading_with_its_own_number_form_gets_no_number_restored():
    """"1: Scope" / "2: Terms" print their numbers ("N:"), so "2.1 …" under them is no evidence
    of an unprinted "2", and nothing is prefixed (before the guard: "2 2: Terms", "1 Introduction")."""
    from docstrata.convert.pdf_headings import _restore_unprinted_numbers
    from docstrata.convert.pdf_layout import _PdfLine

    def run(text: str, x0: float = 73.0) -> tuple[list[_PdfLine], str]:
        return [_PdfLine(1, 1, text, 14.0, "Arial-BoldMT", x0, 300.0, 700.0, 714.0, len(text))], text

    headings = [run("Introduction"), run("1: Scope"), run("2: Terms, Definitions and Examples"), run("2.1 Open source")]
    assert [text for _, text in _restore_unprinted_numbers(headings)] == [text for _, text in headings]
    unprinted = [run("1 Purpose"), run("Scope and applicability", 88.0), run("1.1.1 Audience"), run("Definitions", 88.0)]
    assert [text for _, text in _restore_unprinted_numbers(unprinted)] == [
        "1 Purpose", "1.1 Scope and applicability", "1.1.1 Audience", "1.2 Definitions"]


REALDOCS_PDF = Path(__file__).resolve().parents[1] / "bench" / "realdocs" / "pdf" / "nist-sp800-63b-digital-identity-authentication.pdf"


@pytest.mark.slow
def test_nist_sp800_63b_tree_as_printed():
    """The trial-7 file itself (bench/realdocs, public domain): the ids trial 7 found broken
    (``0-4-2-2-…``, 5.1.5 and 5.1.5.2 missing, 5.1.5.1 under 5.1.4, 5.1.8.2 under 5.1.9, a table
    cell as 4.2.2 in section 8, "Appendix A" a table cell in section 2) come out as printed."""
    doc = convert_file(SourceFile(REALDOCS_PDF.name, str(REALDOCS_PDF), None))
    by_id = {s.section_id: s for s in build_tree(doc).sections}
    assert by_id["4.2.2"].parent_id == "4.2" and by_id["4.2"].parent_id == "4"
    assert by_id["5.1.5"].parent_id == "5.1" and by_id["5.1.5.1"].parent_id == "5.1.5"
    assert by_id["5.1.5.2"].parent_id == "5.1.5" and by_id["5.1.8.2"].parent_id == "5.1.8"
    assert [sid for sid in by_id if sid.endswith("4.2.2")] == ["4.2.2"]
    assert by_id["appendix-a"].parent_id is None and "Memorized Secrets" in by_id["appendix-a"].title
    assert not [sid for sid in by_id if re.match(r"\d+-\d", sid)]
    assert "available free of charge" not in doc.markdown.split("# 1 Purpose", 1)[1]
