"""Questions asking which provisions cite the one they name ("Which sections refer to Section
5.3?", trial 19 R4/R8/U4: the search put 5.3 itself first while `cited-by` answered right): the
grammar packs' citing forms (:func:`docstrata.index.exact.query_citing_keys`) and the search putting
the citers `cited-by` lists first, the named section after them (:func:`docstrata.search.citers_first`).

Real documents: the App Manager privacy policy (its §2.3 is cited by 2.1 and 3), the HPKE excerpt
(its 9.5 by 5.1.2 and 5.1.4) and the GitHub terms excerpt (tests/fixtures/app-privacy, …/exact-rank,
…/github-tos; their NOTICE files name the sources)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.index.exact import query_citing_keys

from .conftest import ingested

FIX = Path(__file__).resolve().parent / "fixtures"
POLICY = "PRIVACY_POLICY.txt"


@pytest.mark.parametrize(
    ("query", "cited"),
    [
        ("Which sections of RFC 6455 refer to Section 5.3 on client-to-server masking?", "section 5.3"),
        ("What cites section 5.3?", "section 5.3"),
        ("Which provisions mention Article 17?", "article 17"),
        ("List the references to section 4", "section 4"),
        ("Which sections point to Section 7.4 for the Close frame status codes?", "section 7.4"),
        ("Where is Section 5.3 referred to?", "section 5.3"),
        ("Section 4 is cited by which provisions?", "section 4"),
        ("Welche Vorschriften verweisen auf § 5?", "section 5"),
        ("Wo wird auf § 5 verwiesen?", "section 5"),
        ("Quels articles renvoient à l'article 5 ?", "article 5"),
        ("Où l'article 5 est-il cité ?", "article 5"),
    ],
)
def test_citing_forms_of_the_grammar_packs_name_the_cited_provision(query, cited):
    assert [keys[0] for keys in query_citing_keys(query)] == [cited]


@pytest.mark.parametrize(
    "query",
    [
        "What does Section 5.3 refer to?",  # what 5.3 cites
        "Which sections does Section 5.3 cite?",
        "What sections are referenced in Section 5.3?",
        "Section 5.3 referenced in Section 7",  # what 7 cites
        "What does the Article 5 mentioned above require?",  # no auxiliary: a description, no question about citers
        "What does section 4 say?",
    ],
)
def test_questions_about_what_a_provision_cites_or_says_are_no_citing_intent(query):
    assert query_citing_keys(query) == []


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    ts = ingested(
        tmp_path_factory.mktemp("citing"),
        [
            FIX / "app-privacy" / POLICY,
            FIX / "exact-rank" / "hpke-excerpt.md",
            FIX / "github-tos" / "github-terms-of-service-excerpt.md",
        ],
    )
    yield ts["docs"]
    ts.close()


def test_the_citers_cited_by_lists_come_first_then_the_section_itself(docs):
    citers = {c.section_id for c in docs.cited_by(POLICY, "2.3").citers}
    assert citers == {"2.1", "3"}
    hits = docs.search("Which sections refer to section 2.3?", top_k=5)
    assert {(h.source_path, h.section_id) for h in hits[:2]} == {(POLICY, s) for s in citers}
    assert all(h.pinned for h in hits[:2])
    assert (hits[2].source_path, hits[2].section_id) == (POLICY, "2.3")  # still listed, right after them
    assert any("cites PRIVACY_POLICY.txt § 2.3" in n for n in hits.notices)
    # asking what 2.3 is, or what it cites, keeps 2.3 first
    assert docs.search("What does section 2.3 refer to?", top_k=1)[0].section_id == "2.3"


def test_a_spec_section_named_with_its_document_ranks_its_citers_first(docs):
    want = [c.section_id for c in docs.cited_by("hpke-excerpt.md", "9.5").citers]
    assert sorted(want) == ["5.1.2", "5.1.4"]
    hits = docs.search("Which sections of HPKE refer to Section 9.5?", top_k=4)
    assert sorted(h.section_id for h in hits[:2]) == want and hits[2].section_id == "9.5"
    assert {h.source_path for h in hits[:3]} == {"hpke-excerpt.md"}


def test_a_section_nothing_cites_keeps_its_place_and_says_so(docs):
    assert docs.cited_by(POLICY, "5").total == 0
    hits = docs.search("Which sections refer to section 5 of the App Manager privacy policy?", top_k=3)
    assert any("no section cites it" in n for n in hits.notices)
