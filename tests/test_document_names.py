"""A document named as a user types it: key, path suffix, file name or stem, and in another case
when nothing matches as typed (``-d agg`` for ``AGG.md``, a trial's complaint)."""

from __future__ import annotations

import pytest

import docstrata
from docstrata.scoping import matching_documents
from docstrata.search import QueryError

from .helpers import doc_project

DOCS = ["laws/AGG.md", "laws/agg-notes.md", "contracts/NDA.md", "contracts/nda.md"]


def test_exact_case_wins_and_other_case_is_the_fallback():
    assert matching_documents("AGG", DOCS) == ["laws/AGG.md"]
    assert matching_documents("agg", DOCS) == ["laws/AGG.md"]  # no stem "agg" as typed
    assert matching_documents("Agg.MD", DOCS) == ["laws/AGG.md"]
    # two files that differ only in case: the typed case picks one; another case names both
    assert matching_documents("nda", DOCS) == ["contracts/nda.md"]
    assert matching_documents("Nda", DOCS) == ["contracts/NDA.md", "contracts/nda.md"]
    assert matching_documents("LAWS/agg.md", DOCS) == ["laws/AGG.md"]
    assert matching_documents("gg", DOCS) == []


def test_search_scoped_by_a_name_in_another_case(tmp_path):
    cfg = doc_project(
        tmp_path,
        {
            "AGG.md": "# Gesetz\n\n## § 1 Ziel\n\nZiel des Gesetzes ist, Benachteiligungen zu verhindern.\n",
            "Other.md": "# Other\n\n## 1 Aim\n\nThe aim of this text is to prevent discrimination.\n",
        },
    )
    ts = docstrata.open(cfg)
    try:
        t = ts["docs"]
        t.ingest()
        hits = t.search("Benachteiligungen verhindern", top_k=5, document="agg")
        assert hits and {h.source_path for h in hits} == {"AGG.md"}
        with pytest.raises(QueryError, match="no document 'xyz'"):
            t.search("Ziel", document="xyz")
    finally:
        ts.close()
