"""A citation query says what it names: one section (pinned first, confidence high), several
(the same number in several chapters or documents: each one first, confidence medium, the
candidates listed in ``Confidence.ambiguous``) or none (not high, ``Confidence.unresolved``).

Real embedding model, real embedded store and the MCP server driven by the official client, over
a small act built here: Chapters I and II each have a Section 1 (ids ``chapter-i/1``,
``chapter-ii/1``), Chapter III a Section 4 that a second document also has.
"""

from __future__ import annotations

import textwrap

import pytest

import docstrata

ACT = """\
# Data Act

## Chapter I General provisions

### Section 1 Scope

This Act applies to the processing of customer records by any operator established in the Union.

### Section 2 Definitions

"Operator" means a body which runs a data service.

## Chapter II Rights of the data subject

### Section 1 Transparency

The operator informs the data subject about each use of their records in clear language.

### Section 2 Erasure

The data subject may ask for erasure. The operator acts within one month. Section 9 of the repealed Act
no longer applies.

## Chapter III Supervision

### Section 4 Authorities

Each Member State designates an authority which monitors compliance with this Act.
"""

RULES = """\
# Tribunal Rules

## Section 4 Appeals

An appeal is lodged within twenty-eight days of the decision, in writing, with the reasons for it.
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("citations")
    (root / "docs").mkdir()
    (root / "docs" / "act.md").write_text(ACT, encoding="utf-8")
    (root / "docs" / "rules.md").write_text(RULES, encoding="utf-8")
    (root / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: acts
            type: hierarchical_document
            source: docs/
        """), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def acts(corpus):
    with docstrata.open(corpus / "agent.yaml") as ts:
        ts["acts"].ingest()
        yield ts["acts"]


def test_a_number_in_two_chapters_gives_each_section_first_and_medium_confidence(acts):
    hits = acts.search("Section 1", top_k=5)
    pinned = [h.section_id for h in hits if h.pinned]
    assert sorted(pinned) == ["chapter-i/1", "chapter-ii/1"], [(h.section_id, h.pinned) for h in hits]
    assert [h.section_id for h in hits[:2]] == pinned  # one hit per candidate, before the rest
    c = hits.confidence
    assert c.level == "medium", c
    assert [(a["section_id"], a["title"]) for a in c.ambiguous] == [("chapter-i/1", "Scope"),
                                                                    ("chapter-ii/1", "Transparency")]
    assert "'Section 1' names 2 sections" in c.reason and "chapter-ii/1 (Transparency)" in c.reason


@pytest.mark.parametrize("query", ["Chapter II, Section 1", "Section 1 of Chapter II", "Chapter II Section 2",
                                   "Section 1 transparency"])
def test_a_citation_naming_one_section_pins_it_with_high_confidence(acts, query):
    want = "chapter-ii/2" if "2" in query else "chapter-ii/1"
    hits = acts.search(query, top_k=5)
    assert hits[0].section_id == want and hits[0].pinned, [(h.section_id, h.pinned) for h in hits]
    assert not any(h.pinned for h in hits[1:])
    assert hits.confidence.level == "high" and not hits.confidence.ambiguous, hits.confidence


def test_the_same_number_in_two_documents_is_ambiguous_until_the_document_is_named(acts):
    corpus_wide = acts.search("Section 4", top_k=5)
    assert corpus_wide.confidence.level == "medium"
    assert {(a["document"], a["section_id"]) for a in corpus_wide.confidence.ambiguous} == {("act.md", "4"),
                                                                                             ("rules.md", "4")}
    assert {h.source_path for h in corpus_wide[:2]} == {"act.md", "rules.md"} and corpus_wide[1].pinned
    scoped = acts.search("Section 4", top_k=5, document="rules.md")
    assert scoped[0].section_id == "4" and scoped[0].pinned and scoped.confidence.level == "high"


@pytest.mark.parametrize("query", ["Section 9", '"Section 9"', "Chapter IV Section 1"])
def test_a_citation_naming_no_section_is_never_high(acts, query):
    # '"Section 9"': the phrase occurs in Chapter II, Section 2 (an exact match), yet no section is Section 9
    hits = acts.search(query, top_k=5)
    c = hits.confidence
    assert c.level in ("low", "medium"), c
    assert c.unresolved and "no section here is cited as" in c.reason, c
    if query == "Section 9":
        assert c.level == "low" and c.unresolved == ["Section 9"]


def test_mcp_search_carries_the_candidates_in_structured_confidence(corpus):
    pytest.importorskip("mcp", reason="the MCP server needs the 'mcp' extra")
    from anyio.from_thread import start_blocking_portal

    from .test_mcp import stdio_session, text_of

    with start_blocking_portal() as portal, portal.wrap_async_context_manager(
            stdio_session(corpus / "agent.yaml")) as session:
        found = portal.call(lambda: session.call_tool("acts_search", {"query": "Section 1"}))
        unique = portal.call(lambda: session.call_tool("acts_search", {"query": "Chapter I, Section 1"}))
    conf = found.structured_content["confidence"]
    assert conf["level"] == "medium" and text_of(found).startswith("Confidence: medium ('Section 1' names 2 sections")
    assert [(a["cited"], a["document"], a["section_id"], a["title"]) for a in conf["ambiguous"]] == [
        ("Section 1", "act.md", "chapter-i/1", "Scope"), ("Section 1", "act.md", "chapter-ii/1", "Transparency")]
    assert unique.structured_content["confidence"]["level"] == "high"
    assert unique.structured_content["confidence"]["ambiguous"] == []
    assert unique.structured_content["results"][0]["section_id"] == "chapter-i/1"
