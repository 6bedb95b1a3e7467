"""A Word clause styled as a heading whose title runs into its text (convert/docx_numbering.py).

The Common Paper Pilot Agreement (CC BY 4.0, tests/fixtures/common-paper/NOTICE.md) sets each
clause as one ``Heading 3`` paragraph: the title underlined (``Damages Waiver``), then ``.`` and
the clause text in plain or bold runs; a lettered limb (``a.``) is a heading-styled paragraph of
running text. Before, the whole paragraph was the heading's title and every clause body empty, so
no reference inside a clause was found (trial 17: a partnership agreement from the same template
family had 33 ``Section N`` references missed).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.convert.docx_numbering import word_paragraphs
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.xrefs import extract_cross_references

PILOT = Path(__file__).parent / "fixtures" / "common-paper" / "pilot-agreement.docx"


@pytest.fixture(scope="module")
def pilot():
    data = PILOT.read_bytes()
    doc = convert_file(
        SourceFile("pilot-agreement.docx", str(PILOT), FileState(len(data), 0, hashlib.sha256(data).hexdigest()))
    )
    return doc, build_tree(doc)


def test_the_underlined_title_is_read_as_the_run_in_title():
    paragraphs = word_paragraphs(PILOT.read_bytes())
    waiver = next(p for p in paragraphs if p.text.startswith("Damages Waiver."))
    assert waiver.heading_level is not None and waiver.run_in_heading == "Damages Waiver"
    # a heading that is only its title stays a heading
    survival = next(p for p in paragraphs if p.text.startswith("Survival"))
    assert survival.run_in_heading is None
    # a lettered limb styled as a heading is running text with no title
    limb = next(p for p in paragraphs if p.text.startswith("Upon Customer"))
    assert limb.label == "b." and limb.run_in_heading == ""


def test_the_clause_title_heads_and_its_text_is_its_body(pilot):
    doc, tree = pilot
    by_id = {s.section_id: s for s in tree.sections}
    waiver = by_id["5.2"]
    assert "Damages Waiver" in waiver.title and "circumstances" not in waiver.title
    assert "under no circumstances" in waiver.text
    limb = by_id["2.3(b)"]
    assert limb.parent_id == "2.3" and "delete Customer Content" in limb.text
    empty = [s.section_id for s in tree.sections if s.number and not s.text.strip() and not
             any(c.parent_id == s.section_id for c in tree.sections)]
    assert empty == [], empty  # every clause without sub-clauses holds its text


def test_references_inside_clause_bodies_are_found(pilot):
    _, tree = pilot
    refs = extract_cross_references(tree)
    pairs = {(r.source_section_id, r.section_id) for r in refs}
    # "Section 1.2 (License)" in 1.7, "Sections 5.1 …" in 5.3, "Section 7.3" in 7.4: the clause texts'
    assert ("1.7", "1.2") in pairs and ("5.3", "5.1") in pairs and ("7.4", "7.3") in pairs
    assert sum(1 for r in refs if r.source_section_id and r.source_section_id[0].isdigit()) >= 15


def test_a_query_for_a_limb_pinpoints_the_limb_inside_its_clause_chunk(pilot):
    """Trial 17 E05: the answer to "Section 6.2(b)" cited 6.2, because the limb's label line is a
    Markdown heading (``### b.``) that the pinpoint's label search never read."""
    from docstrata.chunking import chunk_tree
    from docstrata.pinpoint import locate_pinpoint

    _, tree = pilot
    chunks = chunk_tree(tree, count_tokens=lambda t: len(t.split()))
    chunk = next(c for c in chunks if "2.2(b)" in c.metadata.get("sections", ()))
    assert chunk.section_id == "2.2"  # the limb is held in its clause's chunk
    pin = locate_pinpoint(chunk, [["section 2.2(b)", "2.2(b)"]])
    assert pin is not None and pin.section_id == "2.2(b)"
    limb_c = next(s for s in tree.sections if s.section_id == "2.2(c)").text.split()[:6]
    assert "materially breaches" in pin.text and " ".join(limb_c) not in " ".join(pin.text.split())
