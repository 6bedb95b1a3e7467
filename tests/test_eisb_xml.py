"""Irish Statute Book XML (``convert/eisb_xml.py``, profile ``profiles/eisb.py``): the Act's parts and
sections as stated headings, subsections read from the paragraph text, quoted inserted provisions
kept as the quoting section's text, character elements as characters. Fixture:
``tests/fixtures/eisb-act`` (see its NOTICE.md)."""

from __future__ import annotations

import re
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree

ACT = Path(__file__).resolve().parent / "fixtures" / "eisb-act" / "act-42-2024.eisb.xml"


def _act():
    doc = convert_file(SourceFile(ACT.name, str(ACT), None))
    return doc, build_tree(doc)


def test_parts_and_sections_are_the_acts_outline():
    doc, tree = _act()
    assert not doc.warnings  # read as the eISB family, not as generic XML
    assert doc.title.startswith("HEALTH INSURANCE (AMENDMENT) AND HEALTH (PROVISION OF MENOPAUSE PRODUCTS) ACT 2024")
    by_id = {s.section_id: s for s in tree.sections}
    sections = [s.section_id for s in tree.sections if s.section_id.isdigit()]
    assert sections == [str(n) for n in range(1, 11)]
    parents = {n: by_id[n].parent_id for n in sections}
    assert parents == {"1": "part-1", **{n: "part-2" for n in "2345"}, **{n: "part-3" for n in ("6", "7", "8", "9", "10")}}
    assert by_id["1"].title.endswith("Short title, collective citations, construction and commencement")
    # "1. (1) This Act …": section 1's subsections, never a provision 1.1 inside section 1
    assert [s.section_id for s in tree.sections if s.parent_id == "1"] == [f"1({n})" for n in range(1, 7)]
    assert "Sections 8 and 9 shall come into operation on 1 April 2025" in by_id["1(5)"].text
    assert {"5(a)(iii)", "5(b)", "7(1)(a)", "7(1)(b)", "7(2)"} <= set(by_id)
    assert not [s.section_id for s in tree.sections if re.search(r"\)-\d+$", s.section_id)]  # no "4(a)-2"


def test_quoted_inserted_section_stays_text_of_the_section_quoting_it():
    doc, tree = _act()
    by_id = {s.section_id: s for s in tree.sections}
    # section 4 inserts "67F. (1) … (a) … (b) … (i) … (ii) … (2) … (6)": its numbers are the Act of 1970's
    assert not [s.section_id for s in tree.sections if s.parent_id == "4"]
    inserted = by_id["4"].text
    assert "“67F. (1) Subject to subsection (3)" in inserted
    assert "(3) This section shall not apply to women with full eligibility" in inserted
    assert "shall be entitled to receive menopause products from a pharmacy provider" in inserted
    # section 10's substituted definition: its limbs (a), (b), (i)-(iv) are text of section 10
    assert not [s.section_id for s in tree.sections if s.parent_id == "10"]


def test_character_elements_and_definitions():
    doc, tree = _act()
    assert "(i) €35 in respect of an insured person aged less than 18 years" in doc.markdown
    assert "In this Part, “Act of 1970” means the Health Act 1970." in doc.markdown
    assert "Section 1 of the" not in doc.markdown  # nothing invented
    terms = {d.term for d in tree.definitions}
    assert {
        "Act of 1970", "Act of 1994", "Act of 2011", "Act of 2013", "enactment", "menopause", "menopause products",
        "pharmacy provider", "registered medical practitioner", "registered midwife", "registered nurse",
        "Reimbursement List", "high cost claim", "Health Service Executive approved drugs", "specified rate",
    } <= terms


def test_only_an_act_with_metadata_and_body_is_read_as_eisb(tmp_path):
    """New Zealand's PCO XML also has an ``<act>`` root (``<cover>``, ``<front>``, ``<body>``): it is not
    the eISB family and is read as generic XML, with the warning saying so."""
    other = tmp_path / "nz.xml"
    other.write_text("<act><cover><title>Sale Act</title></cover><body><part><label>1</label>"
                     "<prov><label>1</label><heading>Title</heading><text>This Act is the Sale Act.</text></prov>"
                     "</part></body></act>", encoding="utf-8")
    doc = convert_file(SourceFile(other.name, str(other), None))
    assert doc.warnings and "read as generic XML" in doc.warnings[0]


def test_definitions_that_go_on_in_limbs_keep_them():
    """“company” means— (a) … (b) …: one paragraph, so the definitions after it stay text of section 2
    and the limbs (a), (b) of each such definition are never items 2(a), 2(a)-2 of the section."""
    path = ACT.parent / "act-20-2024-part1-excerpt.eisb.xml"
    doc = convert_file(SourceFile(path.name, str(path), None))
    tree = build_tree(doc)
    assert [s.section_id for s in tree.sections] == ["part-1", "1", "1(1)", "1(2)", "2"]
    definitions = {d.term: d.definition for d in tree.definitions}
    assert "(a) a company formed and registered under the Companies Act 2014, or" in definitions["company"]
    assert "(b) an existing company within the meaning of that Act" in definitions["company"]
    assert "(b) an act or provision of an act adopted by an institution" in definitions["European Union act"]
    assert {"Authority", "contribution", "employer contribution", "financial year"} <= set(definitions)
