"""A Bill PDF with margin line numbers and contents pages without dot leaders (trial 19): pages of
the Natural Environment (Scotland) Bill, SP Bill 59 (``tests/fixtures/scottish-bill``, NOTICE.md).

The Bill prints ``5``, ``10``, ``15`` … in the left margin beside every fifth line, afresh on each
page; its contents pages list ``27  Offence of shooting deer with a shotgun`` without dot leaders,
and its outline (bookmarks) names the same headings. Before: the line numbers were read into the
text (``37  15 Commencement``), the outline's entries were matched to the contents lines, so
every section was a 0-token contents entry and the body hung under the last one (section 37(1)'s
text cited as ``part-5/15(2)(b)-19``), and the blank page 4 was reported as a possible scan.

Truth is read from the PDF with PDFium (an engine docstrata does not convert with): the numbers
standing in the margin, left of every other character of their page, and the text on their rows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file

from .conftest import ingested

FIXTURE = Path(__file__).parent / "fixtures" / "scottish-bill" / "natural-environment-bill-excerpt.pdf"


def _margin_numbers(path: Path, stamp: bool = False, gap: float = 20, slack: float = 2) -> list[tuple[int, str, str]]:
    """``(page, number, text beside it)``: each bare number PDFium finds in the page's leftmost
    column (within ``slack`` pt of the leftmost run), ``gap`` pt or more left of every text run
    with letters (the margin), with the first three words of the text on its row. Text set off
    the page is left out (a Bill places a stray "1" far left of it), and with ``stamp`` the page's
    top row (a court's filing stamp runs across it)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path.read_bytes())
    found = []
    for n in range(len(pdf)):
        page = pdf[n]
        width, _ = page.get_size()
        textpage = page.get_textpage()
        runs = []
        for k in range(textpage.count_rects()):
            left, bottom, right, top = textpage.get_rect(k)
            if right > 0 and left < width:
                runs.append((left, bottom, right, top, textpage.get_text_bounded(left, bottom, right, top).strip()))
        if runs and stamp:
            highest = max(run[3] for run in runs)
            runs = [run for run in runs if run[3] < highest - 2]
        lettered = [run[0] for run in runs if re.search(r"[^\W\d_]", run[4])]
        if lettered:
            for left, bottom, right, top, text in runs:
                leftmost = left <= min(run[0] for run in runs) + slack
                if leftmost and re.fullmatch(r"\d{1,3}", text) and right < min(lettered) - gap:
                    beside = textpage.get_text_bounded(right + 1, bottom, width, top)
                    if beside.split():
                        found.append((n, text, " ".join(beside.split()[:3])))
        textpage.close()
    pdf.close()
    return found


@pytest.fixture(scope="module")
def margin_numbers() -> list[tuple[int, str, str]]:
    return _margin_numbers(FIXTURE)


@pytest.fixture(scope="module")
def parsed():
    return parse_file(source_file(FIXTURE), PipelineSettings(count_tokens=lambda t: len(t) // 4))


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("scottish-bill"), [FIXTURE])
    yield ts["docs"]
    ts.close()


def test_the_fixture_numbers_its_lines_in_the_margin(margin_numbers):
    """The premise, from PDFium: the body pages print margin numbers counting up by five."""
    numbers = [int(number) for _, number, _ in margin_numbers]
    assert len(numbers) >= 10 and set(numbers) <= {5 * k for k in range(1, 11)}, margin_numbers


def _joined(number: str, words: str, text: str) -> bool:
    """``text`` (spaces collapsed) holds ``number`` right before the first word of ``words``."""
    pattern = rf"(?<![\w(]){number}\s+{re.escape(words.split()[0])}"
    return bool(re.search(pattern, " ".join(text.split())))


def test_no_line_number_reaches_the_text_or_a_chunk(parsed, margin_numbers):
    """The text beside each margin number is converted, never with the number before it."""
    markdown = parsed.document.markdown
    chunks = "\n".join(chunk.content for chunk in parsed.chunks)
    for _, number, words in margin_numbers:
        assert words in " ".join(markdown.split()), words
        assert not _joined(number, words, markdown) and not _joined(number, words, chunks), (number, words)


def test_pleading_paper_line_numbers_are_no_text_and_no_sections():
    """A federal court's order on pleading paper (``tests/fixtures/pleading-paper``): 1 … 28 beside
    every line of each page, 9 set one figure in from 10 … 28, under a filing stamp that runs
    across the page top. Before, they were joined to their rows and named the sections
    (``10 UNITED STATES DISTRICT COURT``, ``5 IT IS SO ORDERED``)."""
    path = Path(__file__).parent / "fixtures" / "pleading-paper" / "gov.uscourts.cacd.652774.40.0.pdf"
    numbers = _margin_numbers(path, stamp=True, gap=10, slack=8)  # "9" stands one figure in from "10"
    by_page: dict[int, list[int]] = {}
    for page, number, _ in numbers:
        by_page.setdefault(page, []).append(int(number))
    # the premise, from PDFium: on each page the numbers beside text count up down the page, 28 at most
    assert len(by_page) >= 3, by_page
    assert all(len(v) >= 5 and v == sorted(set(v)) and v[-1] <= 28 for v in by_page.values()), by_page
    parsed = parse_file(source_file(path), PipelineSettings(count_tokens=lambda t: len(t) // 4))
    for _, number, words in numbers:
        assert not _joined(number, words, parsed.document.markdown), (number, words)
    margin = {number for _, number, _ in numbers}
    assert not [s.title for s in parsed.tree.sections if s.title.split()[:1] and s.title.split()[0] in margin]


def _ancestors(tree, section_id: str) -> list[str]:
    by_id = {s.section_id: s for s in tree.sections}
    out, sid = [], by_id[section_id].parent_id
    while sid:
        out.append(sid)
        sid = by_id[sid].parent_id
    return out


def test_sections_27_and_37_hold_their_own_text(parsed):
    """The body's headings are the sections (the outline matched there, not on the contents
    pages): 27 and 37 have their subsections' text under them, 37 in Part 5 (the excerpt leaves
    out the page that opens Part 4)."""
    tree = parsed.tree
    by_id = {s.section_id: s for s in tree.sections}
    for number, title, needle in (
        ("27", "Offence of shooting deer with a shotgun", "After section 17, insert"),
        ("37", "Commencement", "come into force on the day after Royal Assent"),
    ):
        assert by_id[number].title == f"{number} {title}", by_id[number].title
        subtree = [s for s in tree.sections if s.section_id == number or number in _ancestors(tree, s.section_id)]
        assert any(needle in " ".join(s.text.split()) for s in subtree), number
    assert "part-5" in _ancestors(tree, "37"), _ancestors(tree, "37")


def test_the_contents_lines_are_no_sections(parsed):
    """Each section the excerpt's body holds is one section, its body's: the contents line that
    lists it (pages ii and iii) is no second, empty one, and no body section hangs under it."""
    tree = parsed.tree
    ids = [s.section_id for s in tree.sections]
    for number in ("25", "26", "27", "28", "34", "35", "36", "37", "38"):
        same = [sid for sid in ids if sid.rsplit("/", 1)[-1].split("-")[0] == number]
        assert same == [number], (number, same)
        section = next(s for s in tree.sections if s.section_id == number)
        assert not section.page_start.isalpha(), (number, section.page_start)  # not a roman contents page


def test_get_section_37_1(tool):
    page = tool.get_section(FIXTURE.name, "37(1)")
    assert page.section_id == "37(1)"
    assert "This section and sections 35, 36 and 38 come into force on the day after Royal Assent" in " ".join(
        page.content.split()
    )


def test_a_blank_page_is_no_possible_scan(parsed):
    """Page 4 of the Bill (the third of the excerpt) is blank: PDFium finds no object on it. It is
    no possible scan, and no warning says so."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(FIXTURE.read_bytes())
    blank = [n for n in range(len(pdf)) if not list(pdf[n].get_objects())]
    pdf.close()
    assert len(blank) == 1, blank
    assert not any("scanned" in w or "text layer" in w for w in parsed.document.warnings), parsed.document.warnings
