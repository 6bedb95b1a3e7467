"""An index holding English and French documents analyses a question in both languages. A word is
missing only when no analysis of it is held: "license" is held through its English stem though the
French analysis finds nothing, and "the" or "can", which English drops as stop words, are no words
of the question at all (trial 20: "no document here holds: by, state, for, government").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.confidence import query_words

from .conftest import ingested

FIXTURES = Path(__file__).parent / "fixtures"
EULA = FIXTURES / "juniper-eula" / "juniper-script-eula.docx"
FRENCH = FIXTURES / "justice-canada-fr" / "P-8.6-fra_extrait.xml"


@pytest.fixture(scope="module")
def bilingual(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("bilingual"), [EULA, FRENCH])
    yield ts["docs"]
    ts.close()


def test_a_word_held_in_english_is_not_missing_in_a_bilingual_index(bilingual):
    from docstrata.store.base import keyword_languages

    assert "fr" in keyword_languages(bilingual.store)
    found = bilingual.search("Can the license be transferred to another company by the customer?")
    missing = [w.lower() for w in found.confidence.missing_words]
    assert "license" not in missing
    assert not {"can", "the", "be", "to", "by"} & set(missing), missing


def test_stop_words_of_any_language_are_no_content_words():
    words = query_words("What penalty applies to the pharmacy for les produits?", ("en", "fr"))
    assert "the" not in words and "to" not in words and "What" not in words
    assert "les" not in words  # French drops it
    assert len(words["pharmacy"]) == 2  # its English and its French analysis
