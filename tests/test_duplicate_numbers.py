"""Numbers that several parts of one document hold: an agreement whose Exhibit A (definitions,
numbered 1–4) and Exhibit B (the agreement terms, numbered 1–8 again) both have a Section 3
(tests/fixtures/series-seed, CC0), and an Act whose section 4.1 shares its number with clause 4.1
of its Schedule 1 (tests/fixtures/justice-canada-en, PIPEDA).

Truth: each fixture's ``truth.json``, written by hand from the document's text. A section is named
there by the part it stands in (the top-level heading above it, ``body`` for none that is back
matter) and its printed number, never by an id of ours.

* a reference resolves to the nearest section so numbered (Exhibit B's 8.11 citing "Section 3"
  names Exhibit B's 3, never Exhibit A's);
* a search naming a number several parts hold pins the main body's section when it has one and
  reports the others as ambiguous; a search naming the part too names that section alone;
* cited-by lists a section's real citers only: never a contents list, never a reference meant for
  another section of that number.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import docstrata
from docstrata.convert import convert_file
from docstrata.models import DocumentTree, SourceFile
from docstrata.search import QueryError
from docstrata.structure import build_tree

from .helpers import doc_project

FIXTURES = Path(__file__).parent / "fixtures"
SEED = FIXTURES / "series-seed" / "psia-excerpt.md"
PIPEDA = FIXTURES / "justice-canada-en" / "P-8.6_excerpt.xml"
RFC = FIXTURES / "rfc" / "rfc5234.txt"
BACK_MATTER = ("exhibit", "schedule", "appendix", "annex")  # the words a part of the truth opens with


def _truth(doc: Path) -> dict:
    return json.loads((doc.parent / "truth.json").read_text(encoding="utf-8"))


def _tree(doc: Path) -> DocumentTree:
    return build_tree(convert_file(SourceFile(doc.name, str(doc), None)))


@pytest.fixture(scope="module")
def seed_tree() -> DocumentTree:
    return _tree(SEED)


@pytest.fixture(scope="module")
def pipeda_tree() -> DocumentTree:
    return _tree(PIPEDA)


def _part(tree: DocumentTree, section_id: str) -> str:
    """The label of the top-level heading ``section_id`` stands in when that heading is back
    matter (an exhibit, a schedule: its first two words, ``EXHIBIT B``, ``SCHEDULE 1``), else
    ``body``."""
    by_id = {s.section_id: s for s in tree.sections}
    s = by_id[section_id]
    while s.parent_id:
        s = by_id[s.parent_id]
    words = s.title.split()
    return " ".join(words[:2]).upper() if words and words[0].lower() in BACK_MATTER else "body"


def _named(tree: DocumentTree, section_id: str) -> dict[str, str]:
    """How the truth names a section: its part and printed number."""
    number = next(s.number for s in tree.sections if s.section_id == section_id)
    return {"part": _part(tree, section_id), "number": (number or "").rstrip(".")}


def _section(tree: DocumentTree, named: dict[str, str]) -> str:
    """The id of the one section the truth names so (the test fails when there are none or two)."""
    ids = [s.section_id for s in tree.sections if s.number and _named(tree, s.section_id) == named]
    assert len(ids) == 1, (named, ids)
    return ids[0]


def _by_number(tree: DocumentTree, number: str) -> str:
    """The id of the one section printed with ``number`` (a unique one: ``8.11``)."""
    ids = [s.section_id for s in tree.sections if (s.number or "").rstrip(".") == number]
    assert len(ids) == 1, (number, ids)
    return ids[0]


# ------------------------------------------------------------------------------- the tree


@pytest.mark.parametrize("doc", [SEED, PIPEDA], ids=["series-seed", "pipeda"])
def test_each_part_keeps_its_own_section_of_a_repeated_number(doc):
    tree = _tree(doc)
    ids = [s.section_id for s in tree.sections]
    assert len(ids) == len(set(ids))
    for named in _truth(doc)["sections"]:
        _section(tree, {"part": named["part"], "number": named["number"]})  # exactly one each


@pytest.mark.parametrize("doc", [SEED, PIPEDA], ids=["series-seed", "pipeda"])
def test_references_name_the_nearest_section_of_their_number(doc):
    tree = _tree(doc)
    for ref in _truth(doc)["references"]:
        source = _by_number(tree, ref["in"])
        made = [x for x in tree.cross_references if x.source_section_id == source and x.text == ref["text"]]
        assert made, ref
        want = _section(tree, ref["target"])
        assert want in {x.section_id for x in made}, (ref, [x.section_id for x in made])


def test_no_reference_of_the_agreement_terms_lands_in_the_definitions_exhibit(seed_tree):
    """Exhibit B's sections cite "Section 1" … "Section 4" a dozen times; not one of them means
    Exhibit A's definition lists 1–4."""
    from_b = [x for x in seed_tree.cross_references if x.source_section_id and x.section_id]
    from_b = [x for x in from_b if _part(seed_tree, x.source_section_id) == "EXHIBIT B"]
    assert len(from_b) >= 12
    assert all(_part(seed_tree, x.section_id) != "EXHIBIT A" for x in from_b)


def test_a_comma_after_a_container_opens_the_sentence_not_a_list(seed_tree):
    """ "… set forth in Exhibit B, (i) each Purchaser shall …": Exhibit B is cited; "(i)" is the
    sentence's own enumeration, no member of a list."""
    opening = [x for x in seed_tree.cross_references if "Exhibit B" in x.text]
    assert [x.text for x in opening] == ["Exhibit B"]
    cited = next(s for s in seed_tree.sections if s.section_id == opening[0].section_id)
    assert cited.title == "EXHIBIT B" and cited.parent_id is None


# ------------------------------------------------------------------------------- the tool


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("duplicate_numbers")
    cfg = doc_project(root, {}, max_chunk_tokens=800, chunk_overlap=0)
    for doc in (SEED, PIPEDA, RFC):
        (root / "docs" / doc.name).write_bytes(doc.read_bytes())
    ts = docstrata.open(cfg)
    t = ts["docs"]
    t.ingest()
    yield t
    ts.close()


def _holds(tree: DocumentTree, hit_section: str, wanted: str) -> bool:
    """A hit on ``hit_section`` shows ``wanted``: it is that section or inside it (a chunk carries
    the heading-only sections above its first one: Exhibit B's "4." above 4.1.1)."""
    by_id = {s.section_id: s for s in tree.sections}
    sid: str | None = hit_section
    while sid:
        if sid == wanted:
            return True
        sid = by_id[sid].parent_id
    return False


@pytest.mark.parametrize("doc", [SEED, PIPEDA], ids=["series-seed", "pipeda"])
def test_search_names_every_section_of_a_repeated_number_and_says_it_is_ambiguous(tool, doc):
    tree = _tree(doc)
    for q in _truth(doc)["queries"]:
        res = tool.search(q["query"], top_k=5, document=doc.name)
        named = {_section(tree, n) for n in q["names"]}
        pinned = [h.section_id for h in res if h.pinned]
        assert pinned, q
        assert all(any(_holds(tree, p, n) for n in named) for p in pinned), (q, pinned)
        listed = {a["section_id"] for a in res.confidence.ambiguous}
        if q["ambiguous"]:
            assert res.confidence.level != "high", q
            assert listed == named, (q, listed)
        else:
            assert not listed and res.confidence.level == "high", (q, res.confidence)
        if "first" in q:  # the main body's section is pinned alone, the schedule's listed beside it
            first = _section(tree, q["first"])
            assert _holds(tree, res[0].section_id, first), (q, res[0].section_id)
            assert all(_holds(tree, p, first) for p in pinned), (q, pinned)


def test_get_section_reads_the_main_body_and_names_the_repeats(tool, pipeda_tree):
    for case in _truth(PIPEDA)["get_section"]:
        page = tool.get_section(PIPEDA.name, case["asked"], max_chars=None)
        assert page.section_id == _section(pipeda_tree, case["section"]), case
        for other in case["notice_names"]:
            assert _section(pipeda_tree, other) in page.notice, (case, page.notice)
        if not case["notice_names"]:
            assert "back matter" not in (page.notice or ""), (case, page.notice)


def test_a_number_only_exhibits_hold_is_asked_back_naming_each(tool, seed_tree):
    """Exhibit A and Exhibit B both have a 4 and the agreement's opening has none: "4" names no
    one section, so the answer lists both ids instead of picking the first."""
    with pytest.raises(QueryError) as err:
        tool.cited_by(SEED.name, "4")
    for part in ("EXHIBIT A", "EXHIBIT B"):
        assert _section(seed_tree, {"part": part, "number": "4"}) in str(err.value)


@pytest.mark.parametrize("doc", [SEED, PIPEDA], ids=["series-seed", "pipeda"])
def test_cited_by_lists_the_sections_that_cite_that_section(tool, doc):
    tree = _tree(doc)
    for case in _truth(doc)["cited_by"]:
        sid = _section(tree, case["section"])
        page = tool.cited_by(doc.name, sid)
        got = sorted(_named(tree, c.section_id)["number"] for c in page.citers if c.document == doc.name)
        assert got == sorted(case["citers"]), (case, got)


def test_a_table_of_contents_cites_no_section(tool):
    """RFC 5234's "Table of Contents" lists "2.3.  Terminal Values . . . 4": a listing, never a
    citation, however many sections it names."""
    tree = _tree(RFC)
    contents = next(s.section_id for s in tree.sections if s.title.lower() == "table of contents")
    listed = [s.section_id for s in tree.sections if s.number and s.number[0].isdigit() and s.level <= 2]
    assert len(listed) >= 5
    for sid in listed:
        citers = tool.cited_by(RFC.name, sid).citers
        assert contents not in {c.section_id for c in citers}, sid
