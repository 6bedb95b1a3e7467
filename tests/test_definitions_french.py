"""French definitions (structure/definitions.py reading the fr pack's definition forms) on the real
French PIPEDA (Justice Canada XML, tests/fixtures/justice-canada-fr/NOTICE.md): the Justice Canada
French form « terme » meaning, and the forms "« X » s'entend de …" and "on entend par « X » …"."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.models import Document, FileState, SourceFile
from docstrata.structure import build_tree

FR_ACT = Path(__file__).parent / "fixtures" / "justice-canada-fr" / "P-8.6-fra_extrait.xml"


@pytest.fixture(scope="module")
def fr_tree():
    sf = SourceFile(doc_key=FR_ACT.name, path=str(FR_ACT), state=FileState(FR_ACT.stat().st_size, 0, ""))
    return build_tree(convert_file(sf))


def test_justice_canada_french_definitions_are_read_with_their_meaning(fr_tree):
    defs = {d.term: d for d in fr_tree.definitions}
    d = defs["renseignement personnel"]
    assert d.section_id == "2(1)" and d.definition.startswith("Tout renseignement concernant un individu identifiable")
    assert defs["renseignement personnel sur la santé"].definition.startswith("En ce qui concerne un individu")
    assert defs["organisation"].definition.startswith("S’entend notamment des associations")
    # every French term of article 2(1): 13 in the act, the English equivalents (“personal information”) aside
    french = {t for t, x in defs.items() if x.section_id == "2(1)" and x.definition[:1].isupper() and "«" not in x.definition[:3]}
    assert len(french) >= 12, sorted(defs)


def _definitions(text: str) -> dict[str, str]:
    tree = build_tree(Document(doc_key="loi.md", title="Loi", markdown=text, format="md"))
    return {d.term: d.definition for d in tree.definitions}


def test_french_definition_verbs_and_lead_ins():
    # the wording of article 7.1(1) and 2(1) of the same act, as a Markdown paragraph
    text = (
        "# Loi\n\n## 7.1 Définitions\n\n"
        "Au présent article, « ordinateur » s’entend au sens du paragraphe 342.1(2) du Code criminel.\n\n"
        "Pour l’application de la présente partie, on entend par « organisation » les associations, "
        "sociétés de personnes et organisations syndicales.\n"
    )
    defs = _definitions(text)
    assert defs["ordinateur"].startswith("s’entend au sens du paragraphe 342.1(2)")
    assert "associations" in defs["organisation"]
