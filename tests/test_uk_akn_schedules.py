"""UK legislation XML as the markup states it (trial 19): the lettered paragraphs of a Lawmaker
Akoma Ntoso bill (``<level>`` (a), (b)) are provisions ``1(2)(a)``; a Schedule's paragraphs (AKN
``<paragraph class="schProv1">``, CLML ``P1``) keep their numbers (``schedule/4``,
``schedule-2/4(1)``), and "paragraph 4" written in a Schedule cites that Schedule's paragraph 4,
"section 11" the Act's section; a definition whose text goes on in lettered limbs keeps them all.

Real input: an excerpt of the Sustainable Aviation Fuel Bill (HC Bill 286) as Lawmaker exports it
(``tests/fixtures/uk-akn``, NOTICE.md); the CLML case reads the Tribunals (Scotland) Act 2014 of the
shared corpus (skipped without it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.structure import build_tree

from .conftest import convert_path, ingested, shared_data

FIXTURE = Path(__file__).parent / "fixtures" / "uk-akn" / "sustainable-aviation-fuel-bill-excerpt.akn.xml"


@pytest.fixture(scope="module")
def tree():
    return build_tree(convert_path(FIXTURE))


def _refs(tree, source: str) -> list[tuple[str, str | None]]:
    return [(x.text, x.section_id) for x in tree.cross_references if x.source_section_id == source]


def test_lettered_paragraphs_are_provisions_and_are_cited(tree):
    """``<level eId="sec_1__subsec_2__para_a"><num>(a)</num>`` is provision 1(2)(a); the references
    that name such a paragraph resolve to it, not to the subsection holding it."""
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["1(2)(a)"].parent_id == "1(2)" and by_id["1(2)(c)"].parent_id == "1(2)"
    assert by_id["10(1)(b)"].parent_id == "10(1)"
    assert _refs(tree, "1(2)(c)") == [("paragraphs (a) and (b)", "1(2)(a)"), ("paragraphs (a) and (b)", "1(2)(b)")]
    assert ("subsection (1)(b)", "10(1)(b)") in _refs(tree, "10(3)")
    assert ("section 10(1)(b)", "10(1)(b)") in _refs(tree, "11(2)")


def test_schedule_paragraphs_keep_their_numbers(tree):
    """The Schedule (``<hcontainer name="schedule"><num>Schedule</num>``, the bill's only one) is
    ``schedule``; its paragraph 5 ``schedule/5`` under its cross-heading, its sub-paragraphs and their
    limbs ``schedule/5(1)``, ``schedule/2(2)(d)`` — never a bare ``(5)`` or ``2(2)(d)`` of section 2."""
    by_id = {s.section_id: s for s in tree.sections}
    paragraphs = [s.section_id for s in tree.sections if s.parent_id and by_id[s.parent_id].parent_id == "schedule"]
    assert paragraphs == ["schedule/2", "schedule/3", "schedule/4", "schedule/5", "schedule/7"]
    assert by_id["schedule/5(1)"].parent_id == "schedule/5"
    assert by_id["schedule/2(2)(d)"].parent_id == "schedule/2(2)"
    assert not any(s.section_id.startswith("(") for s in tree.sections)


def test_paragraph_n_in_a_schedule_cites_its_own_paragraph(tree):
    """'in accordance with paragraph 4' (Schedule paragraph 5(2)) is the Schedule's paragraph 4, not
    section 4 of the bill nor sub-paragraph (4) of paragraph 5; 'section 11' there is the bill's."""
    assert ("paragraph 4", "schedule/4") in _refs(tree, "schedule/5(2)")
    assert _refs(tree, "schedule/7") == [("paragraph 4", "schedule/4")]
    assert ("paragraph 2(2)(d)", "schedule/2(2)(d)") in _refs(tree, "schedule/3(2)")
    assert ("paragraph (2)(d)", "schedule/2(2)(d)") in _refs(tree, "schedule/2(3)")
    assert ("section 11", "11") in _refs(tree, "schedule/5(1)")
    citing_4 = {x.source_section_id for x in tree.cross_references if x.section_id == "4"}
    assert citing_4 == {"1(1)"}


def test_a_definition_keeps_its_limbs_and_the_definitions_after_it(tree):
    """'“aviation fuel” means fuel for— (a) use in aircraft, or (b) use in testing engines …': the
    whole list, and the entries after it stay definitions of section 16 (not of a limb (b))."""
    defs = {d.term: d for d in tree.definitions}
    fuel = defs["aviation fuel"]
    assert "(a) use in aircraft" in fuel.definition and "(b) use in testing engines" in fuel.definition
    assert fuel.section_id == defs["sustainable aviation fuel"].section_id == "16"
    contract = defs["revenue certainty contract"]
    assert contract.section_id == "1(2)" and "(c) the payments referred to" in contract.definition


def test_cited_by_finds_every_citer_of_a_lettered_paragraph(tmp_path):
    """``cited-by 10(1)(b)`` lists both provisions citing it (10(3) by "subsection (1)(b)", 11(2) by
    "section 10(1)(b)"); ``cited-by 4`` no longer lists the Schedule's "paragraph 4"."""
    ts = ingested(tmp_path, [FIXTURE])
    try:
        docs = ts["docs"]
        assert {c.section_id for c in docs.cited_by(FIXTURE.name, "10(1)(b)").citers} == {"10(3)", "11(2)"}
        # 16 cites "section 4(2)", a provision of 4; the Schedule's "paragraph 4" cites schedule/4
        assert {c.section_id for c in docs.cited_by(FIXTURE.name, "4").citers} == {"1(1)", "16"}
        assert {c.section_id for c in docs.cited_by(FIXTURE.name, "schedule/4").citers} == {
            "schedule/5(2)",
            "schedule/7",
        }
    finally:
        ts.close()


def test_clml_schedule_paragraphs_and_their_references():
    """CLML the same way: Schedule 2's ``P1`` 1 is ``schedule-2/1`` (was an item "1" the parser
    dropped, its sub-paragraphs ``schedule-2(1)``, ``schedule-2(1)-2`` …), "paragraph 4(1) or (2)"
    in it cites ``schedule-2/4(1)`` and ``(2)`` (was the Act's section 4), and "section 10" in
    Schedule 7, whose units are paragraphs, the Act's section 10."""
    path = shared_data("real", "legislation", "uk-asp-2014-10-tribunals-scotland-act.clml.xml")
    tree = build_tree(convert_path(path))
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["schedule-2/1"].parent_id == "schedule-2" and by_id["schedule-2/1(2)(a)"].parent_id == "schedule-2/1(2)"
    assert [t for x, t in _refs(tree, "schedule-2/1(1)")] == ["schedule-2/4(1)", "schedule-2/4(2)"]
    assert ("section 10", "10") in _refs(tree, "schedule-7/7")


SENTENCING = Path(__file__).parent / "fixtures" / "uk-akn" / "sentencing-bill-section-2-excerpt.akn.xml"


def test_amendment_instructions_cite_the_amended_act_not_the_bill():
    """Section 2 of the Sentencing Bill amends the Sentencing Code: "(1) The Sentencing Code is amended
    in accordance with subsections (2) to (5)" cites the bill's own 2(2)–2(5); "(a) in subsection (2),
    for “…” substitute “…”" and the text "after subsection (2) insert—" inserts ("(2A) … subsection (3)
    applies") cite subsections of the Code's section 264, never the bill's 2(2) or 2(3)."""
    tree = build_tree(convert_path(SENTENCING))
    assert [t for _, t in _refs(tree, "2(1)")] == ["2(2)", "2(3)", "2(4)", "2(5)"]
    assert _refs(tree, "2(2)(a)") == [("subsection (2)", None)]
    assert [t for x, t in _refs(tree, "2(2)(b)") if x.startswith("subsection")] == [None, None, None]
    assert [t for x, t in _refs(tree, "2(6)")] == ["2(7)", "2(8)"]
