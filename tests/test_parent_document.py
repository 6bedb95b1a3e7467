"""A document whose opening says which other document it amends or belongs to cites that document
with the bare references its own sections do not hold (:func:`docstrata.structure.xrefs.declared_parent`).

Real input (``tests/fixtures/parent-documents``, NOTICE.md): the Bonterms playbook of additional
terms, "The following additions to or modifications of the Bonterms Professional Services
Agreement are agreed …", whose "***Delete*** Section 11.2(b) (Termination for Convenience)" was left
unresolved, so ``cited-by`` of the agreement's 11.2(b) found nothing and a question about 11.2(b)
ranked the playbook above the clause (trial 17, X04); the agreement is the Bonterms PSA excerpt of
``tests/fixtures/exact-rank``."""

from __future__ import annotations

from pathlib import Path

import pytest
from .conftest import ingested

from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file
from docstrata.structure.xrefs import declared_parent

PLAYBOOK = Path(__file__).parent / "fixtures" / "parent-documents" / "bonterms-psa-playbook.docx"
PSA = Path(__file__).parent / "fixtures" / "exact-rank" / "bonterms-psa-excerpt.md"
NRS = Path(__file__).parent / "fixtures" / "nrs-html" / "nrs-001-items-excerpt.html"


def _tree(path: Path):
    return parse_file(source_file(path), PipelineSettings(count_tokens=lambda t: len(t) // 4)).tree


def _tool(root: Path, files: list[Path]):
    return ingested(root, files)


def test_the_playbook_declares_the_agreement():
    tree = _tree(PLAYBOOK)
    assert declared_parent(tree) == "Bonterms Professional Services Agreement"
    refs = {x.text: x for x in tree.cross_references}
    assert refs["Section 11.2(b)"].document == "Bonterms Professional Services Agreement"
    assert refs["Section 11.2(b)"].target == "11.2(b)"


def test_documents_that_declare_none_keep_their_references():
    """The agreement itself ("… form the parties' agreement") and a statute declare no parent; their
    unresolved references name no document."""
    for path in (PSA, NRS):
        tree = _tree(path)
        assert declared_parent(tree) is None
        assert not [
            x
            for x in tree.cross_references
            if x.document
            and x.section_id is None
            and "§" not in x.text
            and not x.text.startswith(("NRS", "Section 101", "Section 365"))
        ]


@pytest.mark.parametrize("order", ["together", "agreement later"])
def test_cited_by_and_search_reach_the_agreement(tmp_path, order):
    """Cited-by of the agreement's 11.2(b) lists the playbook, whether the agreement was ingested with
    it or after it; a search result's reference resolves to the agreement's section."""
    ts = _tool(tmp_path, [PLAYBOOK] if order == "agreement later" else [PLAYBOOK, PSA])
    try:
        if order == "agreement later":
            ts.close()
            ts = _tool(tmp_path, [PSA])
        tool = ts["docs"]
        page = tool.cited_by(PSA.name, "11.2(b)")
        assert [(c.document, c.section_id) for c in page.citers] == [(PLAYBOOK.name, "preamble")]
        assert page.citers[0].cites == ["11.2(b)"]
        hits = tool.search("Delete Section 11.2(b) to remove Termination for Convenience", top_k=5)
        playbook = next(h for h in hits if h.source_path == PLAYBOOK.name)
        follow = [x for x in playbook.cross_references if x["text"] == "Section 11.2(b)"]
        assert follow and follow[0]["target_document"] == PSA.name and follow[0]["target_section_id"] == "11.2(b)"
    finally:
        ts.close()
