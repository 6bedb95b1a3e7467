"""A document that says of itself that it is under "the Agreement" (a kind word alone) cites that
agreement with the bare references its own sections do not hold
(:func:`docstrata.structure.xrefs.declared_parent`, :func:`~docstrata.structure.xrefs.document_kinds`,
:func:`docstrata.index.exact.resolve_cross_references`).

Real input (``tests/fixtures/common-paper-sow``, NOTICE.md): Common Paper's Statement of Work, a cover
page headed "Professional Services Agreement" that says "This SOW … incorporates the Agreement" and
cites "the acceptance process in Section 1.4", and the Professional Services Agreement whose 1.4 is
Acceptance. Trial 18 found the SOW's reference unresolved (0 of 1) and ``cited-by`` of the agreement's
1.4 without it. The pilot agreement of ``tests/fixtures/common-paper`` is a second agreement held beside
them."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file
from docstrata.structure.xrefs import declared_parent, document_kinds

from .conftest import ingested

FIXTURES = Path(__file__).parent / "fixtures"
SOW = FIXTURES / "common-paper-sow" / "common-paper-statement-of-work.docx"
PSA = FIXTURES / "common-paper" / "professional-services-agreement.docx"
AI = FIXTURES / "common-paper-sow" / "common-paper-ai-addendum.docx"
PILOT = FIXTURES / "common-paper" / "pilot-agreement.docx"


def _tree(path: Path):
    return parse_file(source_file(path), PipelineSettings(count_tokens=lambda t: len(t) // 4)).tree


def test_the_sow_declares_the_agreement_its_title_names():
    """"This SOW … incorporates the Agreement": the SOW calls itself by another kind, so "the Agreement"
    is another document, the one its heading names; the SOW is no agreement itself."""
    tree = _tree(SOW)
    assert declared_parent(tree) == "Professional Services Agreement"
    assert "agreement" not in document_kinds(tree)
    refs = [x for x in tree.cross_references if x.text == "Section 1.4"]
    assert refs and refs[0].document == "Professional Services Agreement" and refs[0].section_id is None


def test_an_agreement_quoting_its_sow_form_declares_none():
    """The agreement quotes the SOW form ("This SOW … incorporates the Agreement") but calls itself "this
    Agreement": the Agreement is itself, it has no parent and its own 1.4 is cited inside it."""
    tree = _tree(PSA)
    assert declared_parent(tree) is None
    assert "agreement" in document_kinds(tree)
    own = [x for x in tree.cross_references if x.text == "Section 1.4"]
    assert own and all(x.document is None and x.section_id == "1.4" for x in own)


def test_a_kind_word_with_no_name_stays_a_kind():
    """The AI Addendum "amends and is incorporated into the following "Agreement"" and names none (a
    placeholder): its parent is the kind word, for the tool to resolve to the one agreement held."""
    tree = _tree(AI)
    assert declared_parent(tree) == "Agreement"
    assert document_kinds(tree) == ["addendum"]


def _sow_reaches_the_agreement(tool) -> None:
    """The SOW's "Section 1.4" resolves to the agreement's 1.4, and cited-by of that 1.4 lists the SOW
    and no other document."""
    page = tool.cited_by(PSA.name, "1.4")
    sow = [c for c in page.citers if c.document == SOW.name]
    assert sow and sow[0].references == ["Section 1.4"] and sow[0].cites == ["1.4"]
    assert not [c for c in page.citers if c.document not in (SOW.name, PSA.name)]
    hits = tool.search("Deliverables are subject to the acceptance process in Section 1.4", top_k=8)
    refs = [x for h in hits if h.source_path == SOW.name for x in h.cross_references if x["text"] == "Section 1.4"]
    assert refs and all(x["target_document"] == PSA.name and x["target_section_id"] == "1.4" for x in refs)


@pytest.mark.parametrize("order", ["agreement first", "agreement later"])
def test_the_sow_reference_reaches_the_agreement(tmp_path, order):
    """Whichever was ingested first (ingested together: the next test); a second agreement held (the
    pilot agreement) changes nothing."""
    batches = {"agreement first": [[PSA, PILOT], [SOW]], "agreement later": [[SOW, PILOT], [PSA]]}[order]
    ts = None
    try:
        for batch in batches:
            if ts is not None:
                ts.close()
            ts = ingested(tmp_path, batch)
        _sow_reaches_the_agreement(ts["docs"])
    finally:
        if ts is not None:
            ts.close()


def test_the_agreement_is_the_one_document_of_its_kind(tmp_path):
    """"the Agreement" alone names the one agreement held beside the citing document, and none when two
    are held (never a guess): the documents of each kind as the store keeps them."""
    from docstrata.index.exact import kind_document, kind_holders

    ts = ingested(tmp_path, [AI, PSA, SOW])
    try:
        store = ts["docs"].store
        held = kind_holders(store, ["agreement", "addendum"])
        assert held["agreement"] == [PSA.name]  # the SOW headed "Professional Services Agreement" is none
        assert kind_document(held["agreement"], AI.name) == PSA.name
        assert held["addendum"] == [AI.name]
        _sow_reaches_the_agreement(ts["docs"])  # ingested together
    finally:
        ts.close()
    ts = ingested(tmp_path, [PILOT])
    try:
        held = kind_holders(ts["docs"].store, ["agreement"])
        assert sorted(held["agreement"]) == sorted([PSA.name, PILOT.name])
        assert kind_document(held["agreement"], AI.name) is None
    finally:
        ts.close()


def test_two_documents_so_named_name_none(tmp_path):
    """Two copies of the agreement held (the same file under two names): the SOW's "Section 1.4" names
    no one of them, its resolution says why, and cited-by of either 1.4 leaves the SOW out."""
    import shutil

    copy = tmp_path / "src" / "psa-copy.docx"
    copy.parent.mkdir()
    shutil.copy(PSA, copy)
    ts = ingested(tmp_path, [SOW, PSA, copy])
    try:
        tool = ts["docs"]
        hits = tool.search("Deliverables are subject to the acceptance process in Section 1.4", top_k=8)
        refs = [x for h in hits if h.source_path == SOW.name for x in h.cross_references if x["text"] == "Section 1.4"]
        assert refs and not refs[0]["resolved"]
        assert PSA.name in refs[0]["note"] and copy.name in refs[0]["note"]
        for doc in (PSA.name, copy.name):
            assert not [c for c in tool.cited_by(doc, "1.4").citers if c.document == SOW.name]
    finally:
        ts.close()


def test_the_agreement_defines_itself():
    """"Agreement" means these Standard Terms, …: the agreement's defined name for itself is a kind it is."""
    from docstrata.structure.xrefs import self_defined_names

    tree = _tree(PSA)
    assert "Agreement" in self_defined_names(tree)
    assert "Affiliate" not in self_defined_names(tree)


def test_a_kind_word_the_document_defines_names_what_it_defines():
    """The agreement defines "Standard Terms" ("… the Common Paper Professional Services Standard Terms
    Version 1.1 posted at … ("Standard Terms")"): its "Section 12.7 of the Standard Terms" names those, not
    the one document of that kind another index may hold (trial 18's software licence agreement, which calls
    itself "these Standard Terms")."""
    tree = _tree(PSA)
    refs = [x for x in tree.cross_references if x.text == "Section 12.7"]
    assert refs and refs[0].document == "Common Paper Professional Services Standard Terms"
