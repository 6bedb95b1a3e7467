"""Which document a reference cites, and what is no reference at all (trial 20, mechanism M6 c/e: a
French CGU's "article 6.1.b RGPD" read as its own 6.1, an Irish Act's "Regulation 3(1) of the …
Regulations 2007" as its own section 3, "THIRD PARTY RIGHTS" as Part Y, contents lines as citations,
"Appendix B" of a spec unaddressable).

Real inputs read through :func:`docstrata.pipeline.parse_file`, as ``docstrata inspect`` reads them:
two French legal pages of one platform (``tests/fixtures/bertel-legal``: each numbers its own sections
and cites the GDPR as ``RGPD``) and two licence texts whose disclaimers are set in capitals
(``tests/fixtures/choosealicense``). The mechanisms: the grammar packs' ``instrument_names`` (short
names of other instruments, folded to the instrument's own citation), a citation word read only as a
whole word, and contents lines listing sections rather than citing them."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.index.exact import document_key, document_name_keys
from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file

FIXTURES = Path(__file__).parent / "fixtures"


def _parse(*parts: str):
    # word counts as tokens: chunk sizes do not matter here, only what each reference resolves to
    return parse_file(source_file(FIXTURES.joinpath(*parts)), PipelineSettings(count_tokens=lambda s: len(s.split())))


@pytest.fixture(scope="module")
def policy():
    return _parse("bertel-legal", "rgpd.md")


@pytest.fixture(scope="module")
def terms():
    return _parse("bertel-legal", "cgu.md")


def _refs(parsed, source: str) -> list[tuple[str, str | None, str | None]]:
    return [(x.text, x.section_id, x.document) for x in parsed.tree.cross_references if x.source_section_id == source]


def test_the_gdpr_cited_by_its_short_name_is_never_the_policys_own_section(policy):
    # § 3 "Bases légales": "**Article 6.1.e du RGPD (Mission d'intérêt public)**", 6.1.f, 6.1.b, 6.1.c, 6.1.a —
    # and the policy has a section 6.1 of its own ("### 6.1 Sous-traitants (Art. 28 RGPD)")
    assert "6.1" in policy.section_ids
    legal_bases = [r for r in _refs(policy, "3") if r[0] == "Article 6.1"]
    assert len(legal_bases) == 5
    assert all(sid is None and doc == "RGPD" for _, sid, doc in legal_bases)
    # "Art. 9 RGPD" in 4.6 (the policy has a § 9 "Cookies et traceurs" too), "Art. 26 RGPD" in § 1
    assert ("Art. 9", None, "RGPD") in _refs(policy, "4.6")
    assert ("Art. 26", None, "RGPD") in _refs(policy, "1")
    # its own sections are still its own: "voir §6.1", "(cf. §2 — …)"
    assert ("§6.1", "6.1", None) in _refs(policy, "6")
    assert ("§2", "2", None) in _refs(policy, "11")
    # the chunks carry the same (what search results and cited-by read)
    chunk_refs = [x for c in policy.chunks for x in c.cross_references if x.text == "Article 6.1"]
    assert chunk_refs and all(x.section_id is None and x.document == "RGPD" for x in chunk_refs)


def test_a_title_naming_the_instrument_does_not_make_the_document_that_instrument(policy):
    # the policy is titled "Règlement RGPD — Bertel": a text about the GDPR, not the GDPR; the name "RGPD"
    # in its title neither makes "Art. 9 RGPD" its own § 9 nor names it as the GDPR for other documents
    assert "RGPD" in policy.tree.title
    gdpr = document_key("RGPD")
    assert gdpr not in document_name_keys(policy.tree.title, policy.tree.doc_key)


def test_the_short_names_of_one_instrument_fold_to_its_own_citation():
    # "RGPD" (French), "GDPR" (English), "DSGVO" (German) and the Regulation's number, in any language: one
    # key, so a held copy of the Regulation is what each of them cites
    keys = {
        document_key(n)
        for n in ("RGPD", "GDPR", "DSGVO", "Regulation (EU) 2016/679", "Règlement (UE) 2016/679", "the GDPR")
    }
    assert len(keys) == 1
    title = "Regulation (EU) 2016/679 of the European Parliament and of the Council of 27 April 2016"
    assert keys <= set(document_name_keys(title, "gdpr.html"))


def test_article_9_du_rgpd_in_the_terms_is_the_gdprs(terms):
    # § 5: "données sensibles au sens de l'article 9 du RGPD" — the terms have a § 9 ("Responsabilité &
    # limitation") of their own, which main resolved it to
    assert "9" in terms.section_ids
    assert ("article 9", None, "RGPD") in _refs(terms, "5")
    assert ("article 26", None, "RGPD") in _refs(terms, "6")
    # "(notamment §5)", "(voir §13)": its own sections
    assert ("§5", "5", None) in _refs(terms, "10")
    assert ("§13", "13", None) in _refs(terms, "3")
    assert not [x for x in terms.tree.cross_references if x.section_id == "9"]


@pytest.mark.parametrize("name", ["gpl-2.0.txt", "postgresql.txt"])
def test_party_in_a_disclaimer_set_in_capitals_is_no_part(name):
    # GPL 2.0 § 12: "… OR ANY OTHER PARTY WHO MAY MODIFY AND/OR REDISTRIBUTE …"; the PostgreSQL Licence:
    # "… BE LIABLE TO ANY PARTY FOR DIRECT …" — main read "PARTY" as a reference to a Part Y
    parsed = _parse("choosealicense", name)
    text = "\n".join(s.text for s in parsed.tree.sections)
    assert " PARTY " in text
    assert not [x for x in parsed.tree.cross_references if x.text.upper().startswith("PART")]


def test_the_licences_own_section_references_still_resolve():
    # GPL 2.0 § 3: "under the terms of Sections 1 and 2 above"
    parsed = _parse("choosealicense", "gpl-2.0.txt")
    refs = [(x.text, x.section_id) for x in parsed.tree.cross_references if x.source_section_id == "3"]
    assert ("Sections 1 and 2", "1") in refs and ("Sections 1 and 2", "2") in refs


def test_a_short_name_opening_with_its_year_names_another_act():
    """Final trial 20: regulation 14 of the Control of Noise at Work Regulations 2005 applies them to
    activities "to which sections 1 to 59 and 80 to 82 of the 1974 Act apply" — the Health and Safety
    at Work etc. Act 1974 (regulation 2 calls it "the 1974 Act"). The 61 references were the
    regulations' own 1-59 and 80-82, so ``cited-by 7`` listed regulation 14."""
    parsed = _parse("uk-si-clml", "uksi-2005-1643-noise-at-work.xml")
    refs = [r for r in parsed.tree.cross_references if r.source_section_id == "14"]
    assert refs and {r.target for r in refs} >= {"1", "59", "80", "82"}
    assert all(r.section_id is None and r.document for r in refs), [(r.target, r.section_id, r.document) for r in refs]
    assert {r.document for r in refs} == {refs[0].document} and "1974" in refs[0].document
    own = [r for r in parsed.tree.cross_references if r.section_id == "7" and r.source_section_id == "14"]
    assert not own
