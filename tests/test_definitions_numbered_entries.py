"""Numbered definitions lists: ``1. profil ADN : un code …`` under "Pour l'application du présent Code,
on entend par :" (the Code d'instruction criminelle's Art. 44ter as be_laws_fr renders it,
tests/fixtures/be-laws-fr/NOTICE.md), ``1. Term: meaning`` under "In this Agreement:". Each entry is
a definition of its article, and no entry is a section of its own. Truth from the fixture's text:
the term before the colon of each numbered line under the lead-in."""

from __future__ import annotations

import re
from pathlib import Path

from docstrata.models import Document
from docstrata.structure import build_tree
from docstrata.structure.definitions import extract_definitions

CIC = Path(__file__).parent / "fixtures" / "be-laws-fr" / "code-instruction-criminelle-extrait.md"


def _tree(text: str, key: str = "doc.md"):
    return build_tree(Document(doc_key=key, title="t", markdown=text, format="md"))


def test_each_numbered_entry_of_an_on_entend_par_list_is_a_definition_not_a_section():
    text = CIC.read_text(encoding="utf-8")
    block = text[text.index("on entend par :") :]
    terms = re.findall(r"(?m)^ \d+\. ([^:\n]+?) : ", block)
    assert len(terms) == 8 and terms[0] == "profil ADN", terms
    tree = _tree(text, CIC.name)
    assert not [s.section_id for s in tree.sections if s.parent_id == "article-44ter"]
    found = {d.term: d for d in extract_definitions(tree)}
    missing = [t for t in terms if t not in found]
    assert not missing, (missing, sorted(found))
    assert all(found[t].section_id == "article-44ter" for t in terms)
    assert found["laboratoire"].definition.startswith("un laboratoire d'analyse ADN")
    assert "échantillon" not in found["profil ADN"].definition  # one entry's meaning, not the list's


def test_term_colon_entries_under_an_english_opener_and_a_plain_numbered_list():
    text = (
        "# Agreement\n\n## 1. Definitions and interpretation\n\nIn this Agreement:\n\n"
        "1. Affiliate: any entity that controls a party.\n"
        "2. Business Day: a day other than a Saturday or Sunday.\n\n"
        "## 2. Services\n\nThe Supplier shall:\n\n1. Delivery: deliver the goods on time.\n"
        "2. Notice: give notice of any delay.\n"
    )
    tree = _tree(text)
    terms = {d.term for d in extract_definitions(tree)}
    assert {"Affiliate", "Business Day"} <= terms
    assert "Delivery" not in terms  # no definitions opener above that list
