"""A reference that names another document never resolves to the citing document's own section
(session 16: a new user's trial found RFC 6455's "Section 4.e of the Trust Legal Provisions"
resolved to the RFC's own Section 4).

Real inputs under ``tests/fixtures/extref-documents`` (see its NOTICE.md), read through
:func:`docstrata.pipeline.parse_file` as ``docstrata inspect`` reads them: an RFC whose copyright
notice cites the IETF Trust's provisions and which has its own Sections 2 to 4, a Common Paper data
processing agreement citing UK legislation and the UK Addendum next to its own Section 3, and GitHub's
privacy statement citing Californian codes by name before the section. The mechanism: the name after
(or before) a cited number is read by ``xrefs._named_document``; a name holding one of the grammar's
document kind words (``grammar.document_words``: Provisions, Act, Addendum, Code …) names a document,
which is this one only when it is its own name, its own kind alone (``of these Terms``), or the title of
one of its own parts."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file

FIXTURES = Path(__file__).parent / "fixtures" / "extref-documents"


def _parse(name: str):
    # word counts as tokens: chunk sizes do not matter here, only what each reference resolves to
    return parse_file(source_file(FIXTURES / name), PipelineSettings(count_tokens=lambda s: len(s.split())))


def _refs(parsed, source: str) -> list[tuple[str, str, str | None, str | None]]:
    """(text, target, section id, document) of each reference made in section ``source`` or inside it."""
    return [
        (x.text, x.target, x.section_id, x.document)
        for x in parsed.tree.cross_references
        if x.source_section_id == source or (x.source_section_id or "").startswith(source + "(")
    ]


@pytest.fixture(scope="module")
def rfc7366():
    return _parse("rfc7366-excerpt.txt")


@pytest.fixture(scope="module")
def dpa():
    return _parse("common-paper-dpa-excerpt.md")


def test_the_trust_legal_provisions_section_is_not_the_rfcs_own(rfc7366):
    # "Code Components … must include Simplified BSD License text as described in Section 4.e of
    # the Trust Legal Provisions": the RFC has a Section 4 of its own (Security Considerations)
    assert "4" in rfc7366.section_ids
    refs = _refs(rfc7366, "copyright-notice")
    assert [(t, sid, doc) for _, t, sid, doc in refs] == [("4", None, "Trust Legal Provisions")]
    # "Section 2 of RFC 5741" in the status memo: another RFC, though the RFC has its own Section 2
    assert "2" in rfc7366.section_ids
    assert [(t, sid, doc) for _, t, sid, doc in _refs(rfc7366, "status-of-this-memo")] == [("2", None, "RFC 5741")]


def test_the_rfcs_own_references_still_resolve_here(rfc7366):
    # §4: "provided that the instructions on MAC processing given in Section 3 are applied"
    assert ("Section 3", "3", "3", None) in _refs(rfc7366, "4")
    # every reference naming no document and citing a number the RFC holds resolves to it
    own = [x for x in rfc7366.tree.cross_references if not x.document and x.target in rfc7366.section_ids]
    assert own and all(x.section_id == x.target for x in own)


def test_an_act_named_with_a_possessive_is_another_document(dpa):
    # 11.19: '"UK GDPR" means European Union Regulation 2016/679 as implemented by section 3 of the
    # United Kingdom’s European Union (Withdrawal) Act of 2018' — the agreement has its own Section 3
    assert "3" in dpa.section_ids
    refs = [r for r in _refs(dpa, "11.19") if r[1] == "3"]
    assert len(refs) == 1
    _, _, sid, doc = refs[0]
    assert sid is None
    assert doc and doc.startswith("United Kingdom") and doc.endswith("(Withdrawal) Act of 2018")


def test_an_addendum_and_its_own_sections(dpa):
    # 3.3: "Section 3.2 of this DPA contains the information required in Table 2 of the UK Addendum"
    # and "Neither party may end the UK Addendum as set out in Section 19 of the UK Addendum"
    refs = _refs(dpa, "3.3")
    assert ("Section 3.2", "3.2", "3.2", None) in refs
    assert ("Section 19", "19", None, "UK Addendum") in refs
    # 11.14: "Section 17A of the United Kingdom Data Protection Act 2018"
    assert ("Section 17A", "17A", None, "United Kingdom Data Protection Act 2018") in _refs(dpa, "11.14")


def test_a_code_named_before_the_section():
    statement = _parse("github-privacy-statement-excerpt.md")
    refs = {(x.text, x.document) for x in statement.tree.cross_references}
    # "Under California Civil Code section 1798.83, also known as the “Shine the Light” law"
    assert ("section 1798.83", "California Civil Code") in refs
    # "… have a right under California Business and Professions Code Section 22581 to remove …"
    assert ("Section 22581", "California Business and Professions Code") in refs
    # after the number: "Under Section 5 of the Federal Trade Commission Act", "Chapter 603A of the Nevada Revised Statutes"
    assert ("Section 5", "Federal Trade Commission Act") in refs
    assert ("Chapter 603A", "Nevada Revised Statutes") in refs
    assert all(x.section_id is None for x in statement.tree.cross_references if x.document)


def test_a_united_states_code_citation_names_its_title():
    # the note to 1 U.S.C. 211 in Title 1 itself: "… under the authority of the Act of July 30, 1947
    # (1 U.S.C. 211) …" — title 1 is this document, so its own § 211
    title1 = _parse("usc-title01-chapter3-excerpt.htm")
    assert "211" in title1.section_ids
    refs = [(x.text, x.section_id, x.document) for x in title1.tree.cross_references if "U.S.C." in x.text]
    assert refs == [("1 U.S.C. 211", "211", None)]
    # "15 U.S.C. § 45" in a privacy statement: title 15, another document
    statement = _parse("github-privacy-statement-excerpt.md")
    assert ("§ 45", None, "title 15") in {(x.text, x.section_id, x.document) for x in statement.tree.cross_references}


def test_a_bills_united_states_code_citations_name_other_titles():
    # H.R. 10 (113th Congress) amends title 20: "(20 U.S.C. 7221b)", "(42 U.S.C. 12101 et seq.)"
    bill = parse_file(
        source_file(Path(__file__).parent / "fixtures" / "us-bill" / "hr10-113-excerpt.xml"),
        PipelineSettings(count_tokens=lambda s: len(s.split())),
    )
    refs = [(x.text, x.section_id, x.document) for x in bill.tree.cross_references if "U.S.C." in x.text]
    assert ("20 U.S.C. 7221b", None, "title 20") in refs
    assert ("42 U.S.C. 12101", None, "title 42") in refs
    assert all(sid is None and doc and doc.startswith("title ") for _, sid, doc in refs)
