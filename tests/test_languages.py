"""Language-aware keyword search: a document's detected language chooses its Snowball stemmer and
stop words; a query is analysed in every language the index holds. Fixture: BGB §§ 1-14 (German
federal law, public domain under § 5 UrhG; see tests/fixtures/bgb/NOTICE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import docstrata
from docstrata.index.keyword import analyze, analyze_query, query_terms

BGB = Path(__file__).parent / "fixtures" / "bgb" / "bgb_1-14.md"
ENGLISH = "# Lease\n\n## 1. Rent\n\nThe tenant pays the rent on the first day of each month.\n"


def test_german_text_is_stemmed_and_stop_listed_in_german_english_as_before():
    assert analyze("Die Volljährigkeit tritt mit der Vollendung des 18. Lebensjahres ein.", "de")[:1] == ["volljahr"]
    assert analyze_query("Ab welchem Alter ist man volljährig?", "de") == ["ab", "alt", "volljahr"]
    assert analyze("The tenant pays the rent") == analyze("The tenant pays the rent", "en") == ["tenant", "pay", "rent"]
    assert query_terms("What does the tenant pay?") == query_terms("What does the tenant pay?", ("en",))
    both = [t for t, _ in query_terms("Was ist ein Verbraucher?", ("en", "de"))]
    assert "verbrauch" in both and both == list(dict.fromkeys(both))


@pytest.fixture(scope="module")
def law(tmp_path_factory):
    root = tmp_path_factory.mktemp("bgb")
    (root / "docs").mkdir()
    (root / "docs" / "bgb.md").write_text(BGB.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "docs" / "lease.md").write_text(ENGLISH, encoding="utf-8")
    cfg = root / "agent.yaml"
    cfg.write_text("tools:\n  - name: law\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: embedded\n", encoding="utf-8")
    ts = docstrata.open(cfg)
    yield ts["law"]
    ts.close()


@pytest.mark.parametrize("query, section", [("Was ist ein Verbraucher?", "13"),
                                            ("Ab welchem Alter ist man volljährig?", "2")])
@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_german_questions_find_their_paragraph(law, query, section, mode):
    hits = law.search(query, top_k=3, mode=mode, document="bgb")
    assert hits[0].section_id == section


def test_an_english_document_beside_it_is_searched_as_before(law):
    hits = law.search("when is the rent due", top_k=1, mode="keyword")
    assert hits[0].source_path == "lease.md"
    entry = next(e for e in law.list_documents() if e.doc_key == "bgb.md")
    assert entry.language == "de" and not any("keyword search" in w for w in entry.warnings)
