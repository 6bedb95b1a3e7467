"""A query word no chunk holds is searched in the spelling the documents use when the bundled
model reads the two as one word ("licence" over Juniper's EULA, which writes "license"), and not
when they are two words ("affect" where the EULA writes "effect"); the answer says which words
were respelled, and its confidence no longer counts a respelled word as missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.respell import edits1, fitted_cosine, respell

from .conftest import ingested

EULA = Path(__file__).parent / "fixtures" / "juniper-eula" / "juniper-script-eula.docx"


@pytest.fixture(scope="module")
def eula(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("respell"), [EULA])
    yield ts["docs"]
    ts.close()


def test_a_british_spelling_is_searched_as_the_documents_spelling(eula):
    found = eula.search("Can the licence be assigned to another company?")
    assert any("'licence' as 'license'" in n for n in found.notices), found.notices
    assert "licence" not in found.confidence.missing_words
    assert found[0].section_id == "3"  # "No Sublicensing or Assignment"
    assert "Assignment" in found[0].content


def test_a_different_word_one_edit_away_is_not_respelled(eula):
    found = eula.search("Does termination affect the warranty?")
    assert not any("searched '" in n for n in found.notices), found.notices
    assert "affect" in found.confidence.missing_words  # the EULA writes "effect", another word


def test_respelling_keeps_the_written_case_and_leaves_held_words_alone(eula):
    store = eula.store
    from docstrata.index.keyword import query_terms

    def terms_of(word):
        return [t for t, w in query_terms(word) if w == 1.0]

    out = respell(
        "LICENCE terms and the Licence grant",
        store.term_document_frequencies,
        terms_of,
        eula.embedder.encode,
        fitted_cosine("all-MiniLM-L6-v2"),
    )
    assert out.query == "LICENSE terms and the License grant"
    assert out.replaced == {"LICENCE": "license", "Licence": "license"}
    held = respell("license grant", store.term_document_frequencies, terms_of, eula.embedder.encode, 0.0)
    assert held.query == "license grant" and not held.replaced


def test_a_model_without_a_fitted_cosine_is_never_respelled():
    assert fitted_cosine("sentence-transformers/all-MiniLM-L6-v2") == fitted_cosine("all-MiniLM-L6-v2")
    assert fitted_cosine("all-MiniLM-L6-v2") is not None
    assert fitted_cosine("some/unfitted-model") is None


def test_edits_one_letter_away():
    near = edits1("centre")
    assert {"center", "centr", "centres", "centra"} <= near  # swap, delete, insert, replace
    assert "centre" not in near and "cnetre" in near
