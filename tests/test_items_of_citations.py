"""Items cited before the unit they belong to are one pinpoint citation: "subsection 2 of NRS
1.117" is NRS 1.117(2), "paragraph (a) of subsection 2" item (2)(a) of the section it stands in
(:func:`docstrata.structure.grammar.items_of`), in queries (exact keys, search, get-section) and in
the text (cross-references). Real input: an excerpt of Nevada Revised Statutes chapter 1 as the
Legislature publishes it (``tests/fixtures/nrs-html``, NOTICE.md), where a held-out probe's
"subsection 2 of NRS 1.117" found 1.117(1) first and 1.117(2) fourth (trial 17, E11): the query was
read as two citations, "subsection 2" and "NRS 1.117"."""

from __future__ import annotations

from pathlib import Path

import pytest
from .conftest import ingested

from docstrata.index.exact import query_section_keys
from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file
from docstrata.structure.grammar import fold_items_of, items_of, parse_citation, citation_key

FIXTURE = Path(__file__).parent / "fixtures" / "nrs-html" / "nrs-001-items-excerpt.html"


@pytest.fixture(scope="module")
def tree():
    return parse_file(source_file(FIXTURE), PipelineSettings(count_tokens=lambda t: len(t) // 4)).tree


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("nrs"), [FIXTURE])
    yield ts["docs"]
    ts.close()


def _refs(tree, source: str) -> list[tuple[str, str | None]]:
    return [(x.text, x.section_id) for x in tree.cross_references if x.source_section_id == source]


def test_the_grammar_reads_items_before_their_unit():
    """Forms as the statute writes them: a code section, a nested chain, a list, enclosing items."""
    assert fold_items_of("subsection 2 of NRS 1.117") == "NRS 1.117(2)"
    assert fold_items_of("paragraph (b) of subsection 1 of section 3") == "section 3(1)(b)"
    assert fold_items_of("subsections 2 and 3 of NRS 1.235") == "NRS 1.235(2), NRS 1.235(3)"
    assert fold_items_of("paragraph (a) of subsection 3") == "subsection 3(a)"
    assert citation_key(parse_citation("paragraph (b) of subsection 1 of section 3")) == "3(1)(b)"
    assert citation_key(parse_citation("paragraph 1 of Article 4")) == "article-4(1)"
    found = items_of("under subsection 1 of NRS 1.468 must", 6)
    assert found is not None and found.items == (("1",),) and found.cited == 22


def test_an_item_alone_or_of_no_unit_is_left_as_it_was():
    """One item word followed by something that is no unit, or by a container (whose paragraphs
    are its sections), is no such citation."""
    for text in ("subsection 2 of this section", "paragraph 1 of the Agreement", "paragraph 4 of Schedule 2"):
        assert items_of(text) is None
        assert fold_items_of(text) == text


def test_query_keys_are_one_citation():
    assert query_section_keys("subsection 2 of NRS 1.117") == [["1.117(2)", "1.117"]]


def test_cross_references_pin_the_items(tree):
    """1.469(6) "pursuant to subsection 1 of NRS 1.468" cites 1.468(1), not 1.469's own (1) nor
    NRS 1.468 whole; 1.235(3) "paragraph (a) of subsection 2" cites 1.235(2)(a)."""
    assert ("subsection 1 of NRS 1.468", "1.468(1)") in _refs(tree, "1.469(6)")
    assert ("paragraph (a) of subsection 2", "1.235(2)(a)") in _refs(tree, "1.235(3)")
    assert all(text != "subsection 2" for text, _ in _refs(tree, "1.235(3)"))


def test_a_subsection_cited_bare_is_an_item_of_its_section(tree):
    """ "subsection 1" in NRS 1.235(3) is 1.235(1) (the statute numbers its subsections "1.", "2."):
    before, it resolved to the first section whose number starts with 1."""
    assert ("subsection 1", "1.235(1)") in _refs(tree, "1.235(3)")
    assert [sid for _, sid in _refs(tree, "1.235(1)")] == ["1.235(2)", "1.235(3)"]


def test_search_pins_the_item(tool):
    """The probe's query: NRS 1.117(2) first, as "NRS 1.117(2)" finds it."""
    for query in ("subsection 2 of NRS 1.117", "NRS 1.117(2)"):
        hits = tool.search(query, top_k=3)
        assert hits[0].section_id == "1.117(2)", query
        assert "electronic filing" in hits[0].content


def test_get_section_and_cited_by_read_the_form(tool):
    page = tool.get_section(FIXTURE.name, "subsection 2 of NRS 1.117")
    assert page.section_id == "1.117(2)"
    citers = tool.cited_by(FIXTURE.name, "subsection 1 of NRS 1.468").citers
    assert "1.469(6)" in {c.section_id for c in citers}
