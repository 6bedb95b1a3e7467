"""PPTX slides as sections (``convert/pptx.py``): one section per slide, numbered ``Slide N`` and
titled by the slide's title placeholder, or — in a deck of text boxes only — by its largest-type
text box; text in other shapes is never a heading. Decks: ``tests/fixtures/pptx-decks`` (Apache POI
test data, see its NOTICE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree

DECKS = Path(__file__).resolve().parent / "fixtures" / "pptx-decks"


def _tree(path: Path):
    doc = convert_file(SourceFile(path.name, str(path), None))
    return doc, build_tree(doc)


def test_title_placeholders_title_the_slides_and_the_deck():
    doc, tree = _tree(DECKS / "sampleshow.pptx")
    assert [(s.section_id, s.title) for s in tree.sections] == [
        ("slide-1", "Title of the first slide"),
        ("slide-2", "This is the second slide"),
    ]
    assert all("Slide " + s.section_id.split("-")[1] in s.aliases for s in tree.sections)
    assert doc.title == "Title of the first slide"
    assert doc.page_unit == "slide" and len(doc.page_offsets) == 2


def test_a_deck_of_text_boxes_is_titled_by_its_largest_type():
    doc, tree = _tree(DECKS / "ececapstonespring2012.pptx")
    titles = [s.title for s in tree.sections]
    assert titles == [
        "Music Sound Interpreter", "The Rundown", "The Client", "Some Facts about Down Syndrome",
        "Effects of Down Syndrome", "The Problem", "The Solution: My Project", "Functions", "Bonus Purposes",
        "Designing for Everyone", "Physical Specifications", "Electrical Specifications", "Effect Specs",
        "Functional Diagram", "Block Diagram", "Creation Procedure", "Gantt Chart", "Time Analysis",
        "Market Research", "Main Competing Product", "Labor and Overhead", "Parts and Prices", "Total Cost",
        "Final Words",
    ]
    assert [s.section_id for s in tree.sections] == [f"slide-{n}" for n in range(1, 25)]
    assert doc.title == "Music Sound Interpreter"  # not the core property "PowerPoint Presentation"
    first = tree.sections[0]
    assert "Team #6" in first.text and "One Man Army" in first.text  # the subtitle box is the slide's text


def test_code_and_body_text_in_a_slide_are_never_headings(tmp_path):
    """A deck as generators write it: blank layouts, a 32 pt bold title box and a Consolas box whose
    lines are a CLAUDE.md sample (``# TaskFlow API``, ``## Build & Run``), a body box whose line opens
    with ``#``; a section slide set in 40 pt over 24 pt."""
    pptx = pytest.importorskip("pptx")
    from pptx.util import Inches, Pt

    deck = pptx.Presentation()
    blank = deck.slide_layouts[6]

    def box(slide, top, lines, size, face=None, bold=None):
        frame = slide.shapes.add_textbox(Inches(0.5), Inches(top), Inches(9), Inches(1)).text_frame
        for k, line in enumerate(lines):
            p = frame.paragraphs[0] if k == 0 else frame.add_paragraph()
            run = p.add_run()
            run.text = line
            run.font.size = Pt(size)
            if face:
                run.font.name = face
            if bold:
                run.font.bold = True

    s1 = deck.slides.add_slide(blank)
    box(s1, 0.4, ["Part 1", "Foundations"], 40, bold=True)
    s1.shapes[0].text_frame.paragraphs[1].runs[0].font.size = Pt(24)
    s2 = deck.slides.add_slide(blank)
    box(s2, 0.4, ["What to Put in CLAUDE.md"], 32, bold=True)
    box(s2, 1.3, ["# TaskFlow API", "", "## Build & Run", "- Install: `uv sync`"], 14, face="Consolas")
    box(s2, 4.5, ["# of sessions per day: three"], 18)
    path = tmp_path / "workshop.pptx"
    deck.save(path)
    doc, tree = _tree(path)
    assert [(s.section_id, s.title) for s in tree.sections] == [
        ("slide-1", "Part 1"),
        ("slide-2", "What to Put in CLAUDE.md"),
    ]
    assert doc.title == "Part 1"
    assert "Foundations" in tree.sections[0].text
    code = [b for b in doc.blocks if b.kind == "code"]
    assert len(code) == 1 and "# TaskFlow API" in code[0].text and code[0].text.startswith("```")
    assert "# of sessions per day: three" in tree.sections[1].text


def test_a_slide_without_a_title_keeps_its_number_as_title(tmp_path):
    """An untitled slide (its only text in a body placeholder) is "Slide 2"; its one short line is its
    text, never taken as its title."""
    pptx = pytest.importorskip("pptx")
    deck = pptx.Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[1])
    first.shapes.title.text = "Quarterly review"
    first.placeholders[1].text = "Revenue grew by nine percent."
    second = deck.slides.add_slide(deck.slide_layouts[1])
    second.placeholders[1].text = "Questions"
    path = tmp_path / "review.pptx"
    deck.save(path)
    _, tree = _tree(path)
    assert [(s.section_id, s.title) for s in tree.sections] == [("slide-1", "Quarterly review"), ("slide-2", "Slide 2")]
    assert "Questions" in tree.sections[1].text
