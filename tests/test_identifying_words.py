"""Words that identify one document without being one of its names (trial 19: "ChatWiseV2",
"Salamat", written only in their documents' opening paragraphs, lifted those paragraphs over the
section that answers): :func:`docstrata.query_scope.identifying_words` decides from the index's own
statistics, the search is scoped to the document and ranked without them, unless the question is
about what they name.

Real documents (tests/fixtures/app-privacy, …/github-tos, …/exact-rank, …/passage-docs,
…/holodeck; their NOTICE files name the sources), ingested with the bundled model."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata import query_scope

from .conftest import ingested

FIX = Path(__file__).resolve().parent / "fixtures"
FILES = [
    FIX / "app-privacy" / "PRIVACY-POLICY.md",  # the Cadence Discord bot's: "Marius Begby" in its opening only
    FIX / "app-privacy" / "collector-privacy-policy.md",
    FIX / "app-privacy" / "PRIVACY_POLICY.txt",
    FIX / "github-tos" / "github-terms-of-service-excerpt.md",
    FIX / "exact-rank" / "hpke-excerpt.md",
    FIX / "passage-docs" / "contributor-covenant-2.1.md",
    FIX / "holodeck" / "shared" / "docs" / "employee-handbook.md",
]
BOT = "PRIVACY-POLICY.md"


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("identifying"), FILES)
    yield ts["docs"]
    ts.close()


def _marks(tool, query: str) -> list[tuple[str, str]]:
    cat = query_scope.catalogue(tool.store)
    return [(m.doc_key, m.name) for m in query_scope.identifying_words(cat, query, query_scope._words(query))]


def test_a_name_written_only_in_the_opening_scopes_the_search_and_leaves_the_ranking_text(docs):
    query = "Does Marius Begby's Discord bot use cookies?"
    assert _marks(docs, query) == [(BOT, "Marius Begby's")]
    scope = query_scope.scope_query(docs.store, query)
    assert scope is not None and scope.doc_keys == (BOT,) and scope.exclusive
    assert "Begby" not in scope.rest and "Discord bot use cookies" in scope.rest
    hits = docs.search(query, top_k=3)
    # the answer (2(b) "Use of Cookies"), not the opening paragraph that names the developer
    assert (hits[0].source_path, hits[0].section_id) == (BOT, "2(b)")
    assert "does not use cookies" in hits[0].content
    assert any('"Marius Begby\'s"' in n for n in hits.notices)


def test_the_name_stays_when_the_question_asks_about_it(docs):
    query = "Who is Marius Begby?"
    scope = query_scope.scope_query(docs.store, query)
    assert scope is not None and scope.doc_keys == (BOT,) and scope.rest == query
    hits = docs.search(query, top_k=3)
    assert hits[0].source_path == BOT and "Marius Begby" in hits[0].content  # the opening that introduces him


def test_a_word_other_documents_hold_or_the_opening_sections_heading_identifies_nothing(docs):
    # "Discord" is in the bot's sections too: not its opening's word; "Pledge" heads the covenant's opening section
    assert _marks(docs, "Does the Discord bot log commands?") == []
    assert _marks(docs, "What does the Pledge say about a harassment-free experience?") == []
    hits = docs.search("What does the Pledge say about a harassment-free experience?", top_k=1)
    assert hits[0].section_id == "our-pledge"
    # a word written in lower case names nothing, whatever its statistics
    assert _marks(docs, "does marius begby's bot use cookies?") == []


def test_a_word_of_one_documents_name_spread_over_it_leaves_the_ranking_text(docs):
    """"HPKE" is the hpke excerpt's title word and its text's alone: a name run already scopes the
    search to it; the word itself no longer ranks the sections that repeat it."""
    query = "Which primitives does HPKE use besides HKDF?"
    scope = query_scope.scope_query(docs.store, query)
    assert scope is not None and scope.doc_keys == ("hpke-excerpt.md",)
    assert "HPKE" not in scope.rest


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    examples = Path(__file__).resolve().parents[1] / "examples" / "docs"
    ts = ingested(tmp_path_factory.mktemp("example"), sorted(p for p in examples.iterdir() if p.is_file()))
    yield ts["docs"]
    ts.close()


@pytest.mark.parametrize("query", [
    "How much credit do we get if availability falls below 99.9%?",  # the README's quick-start question
    "How many days of annual leave do staff get?",
    "Under which law is the agreement governed?",
])
def test_a_word_capitalised_by_opening_the_question_identifies_nothing(example, query):
    # "How" is written in one example document only (the data protection policy's opening): it once
    # scoped the quick-start question to that policy, whose passages answered it with low confidence
    cat = query_scope.catalogue(example.store)
    assert query_scope.identifying_words(cat, query, query_scope._words(query)) == []
    assert not any("names it as" in n for n in example.search(query, top_k=3).notices)


def test_the_quick_start_question_finds_the_service_level_clauses(example):
    hits = example.search("How much credit do we get if availability falls below 99.9%?", top_k=3)
    assert {h.section_id for h in hits[:2]} == {"4.2", "4.3"}, [(h.source_path, h.section_id) for h in hits]
