"""A filing whose first heading is its caption (trial 18, fault 1): "What is alleged in paragraph
17(d) of the petition for cancellation?" pinned the CNCF charter's 17(d) with confidence ``high``,
since the petition's title was its caption ("IN THE UNITED STATES PATENT & TRADEMARK OFFICE") and
its file name ("NATS-IO-Petition-for-Cancellation-6216925.pdf") held the name diluted by the
registration number. Three mechanisms, each tested on the real filing (pages 1–2,
tests/fixtures/captioned-filings/NOTICE.md) and a real contract excerpt (tests/fixtures/exact-rank):

* a caption is not the title when a heading under it names the filing's kind
  (:func:`docstrata.convert.first_heading`, :func:`docstrata.structure.grammar.is_caption`);
* the file name without its numeric ids is a name (:func:`docstrata.docnames.document_names`);
* a citation the named document does not hold is never answered by another document's section,
  and never with confidence ``high`` (:func:`docstrata.search.assess_confidence`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.docnames import document_names
from docstrata.models import DocumentTree, FileState, SourceFile
from docstrata.query_scope import Catalogue, match
from docstrata.search import Citation, CitedSection, assess_confidence
from docstrata.structure import build_tree
from docstrata.structure.grammar import is_caption, names_filing

from .conftest import ingested

FIX = Path(__file__).parent / "fixtures"
PETITION = FIX / "captioned-filings" / "NATS-IO-Petition-for-Cancellation-6216925.pdf"
PSA = FIX / "exact-rank" / "bonterms-psa-excerpt.md"
CAPTION = "IN THE UNITED STATES PATENT & TRADEMARK OFFICE"


def _convert(path: Path):
    st = path.stat()
    return convert_file(SourceFile(path.name, str(path), FileState(st.st_size, st.st_mtime_ns, "")))


def test_a_caption_is_not_the_title_of_the_filing_under_it():
    doc = _convert(PETITION)
    headings = [line[2:].strip() for line in doc.markdown.splitlines() if line.startswith("# ")]
    # the filing prints its caption first, then (after the parties' table) its own name
    assert headings[:3] == [CAPTION, "BEFORE THE TRADEMARK TRIAL & APPEAL BOARD", "PETITION FOR CANCELLATION"]
    assert is_caption(headings[0]) and is_caption(headings[1]) and names_filing(headings[2])
    assert doc.title == "PETITION FOR CANCELLATION"
    assert "PETITION FOR CANCELLATION" in document_names(build_tree(doc), PETITION.name, doc.markdown)


@pytest.mark.parametrize("line", ["Code of Conduct for the Board", "Court Fees Act 1870", "In the event of default",
                                  "Audit Committee Charter", "Bonterms Professional Services Agreement (Version 1.2)"])
def test_titles_that_mention_a_forum_are_no_captions(line):
    assert not is_caption(line)


def test_a_heading_naming_a_kind_of_filing_replaces_only_a_caption():
    """A first heading that is no caption keeps the title, whatever heading follows."""
    from docstrata.convert import first_heading

    assert first_heading("# Cloud Terms\n\n# NOTICE OF TERMINATION\n") == "Cloud Terms"
    assert first_heading(f"# {CAPTION}\n\n# NOTICE OF OPPOSITION\n\nText.\n") == "NOTICE OF OPPOSITION"
    # the caption stays the title when prose comes before any name
    prose = "The petitioner, by its attorneys, states the following facts in support of the petition here."
    assert first_heading(f"# {CAPTION}\n\n{prose}\n\n# PETITION\n") == CAPTION


@pytest.fixture(scope="module")
def catalogue():
    """The names of the petition as if its title were still its caption (the file name must name it
    alone), the PSA excerpt's as ingest reads them, and two one-word file names."""
    psa = _convert(PSA)
    names = {
        PETITION.name: document_names(DocumentTree(PETITION.name, CAPTION, []), PETITION.name, ""),
        PSA.name: document_names(build_tree(psa), PSA.name, psa.markdown),
        "terms-20240101.md": document_names(DocumentTree("terms-20240101.md", "", []), "terms-20240101.md", ""),
        "letter.md": document_names(DocumentTree("letter.md", "", []), "letter.md", ""),
    }
    return names, Catalogue.build(names)


def test_the_file_name_without_its_numbers_names_a_document(catalogue):
    names, cat = catalogue
    assert "NATS IO Petition for Cancellation" in names[PETITION.name]
    # a number dropped leaves no name of one kind word ("terms"): the file name stays whole
    assert [n.casefold() for n in names["terms-20240101.md"]] == ["terms 20240101", "terms-20240101"]
    scope = match(cat, "What is alleged in paragraph 17(d) of the petition for cancellation?")
    assert scope is not None and scope.doc_keys == (PETITION.name,), scope
    scope = match(cat, "What does paragraph 2 of the NATS petition say?")  # part of it, framed by its kind
    assert scope is not None and scope.doc_keys == (PETITION.name,), scope


@pytest.mark.parametrize("query", ["What do the terms say about refunds?", "What does the letter say?",
                                   "Who may file a petition?", "section 3.2 of the agreement"])
def test_kind_words_alone_still_name_no_document(catalogue, query):
    assert match(catalogue[1], query) is None, query


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("filings"), [PETITION, PSA])
    yield ts["docs"]
    ts.close()


def test_a_citation_the_named_filing_lacks_is_not_pinned_from_another_document(tool):
    """Only the PSA has a 3.2 ("Customer Dependencies"); the query names the petition, which has none. Before, the
    petition was not named ("petition for cancellation" held 0.4 of its file name's weight, its
    title was the caption) and the PSA's 3.2 was pinned, confidence high."""
    hits = tool.search("What is alleged in paragraph 3.2 of the petition for cancellation?", top_k=5)
    assert any(n.startswith(f"scoped to {PETITION.name}") for n in hits.notices), hits.notices
    assert not any(h.pinned for h in hits), [(h.source_path, h.section_id, h.pinned) for h in hits]
    c = hits.confidence
    assert c.level != "high", c
    assert f"'Paragraph 3.2' is not found in {PETITION.name}" in c.reason, c.reason
    assert c.unresolved == ["Paragraph 3.2"]
    # named, the PSA's 3.2 is pinned and answered
    named = tool.search("What does section 3.2 of the Bonterms Professional Services Agreement say?", top_k=5)
    assert named[0].source_path == PSA.name and named[0].section_id == "3.2" and named[0].pinned
    assert named.confidence.level == "high", named.confidence


def test_a_section_of_a_document_the_query_does_not_name_caps_the_confidence():
    hit = type("Hit", (), {"semantic_score": 0.8, "keyword_score": 1.0, "exact_match": True, "pinned": False})()
    elsewhere = Citation("Paragraph 17(d)", [CitedSection("cncf-charter.md", "17(d)")], absent_from=(PETITION.name,))
    c = assess_confidence([hit], True, True, [elsewhere])
    assert c.level == "medium" and not c.ambiguous and c.unresolved == ["Paragraph 17(d)"], c
    assert f"not found in {PETITION.name}" in c.reason and "17(d) of cncf-charter.md" in c.reason
    alone = assess_confidence([hit], True, True, [elsewhere], other_words=False)
    assert alone.level == "low", alone


LEG = Path(__file__).resolve().parents[1] / "bench" / "realdocs" / "legislation-xml"
BANK, TITLE9 = LEG / "ca-bank-of-canada-act-b-2.justice-ca.xml", LEG / "us-usc-title09-arbitration-113-31.uslm1.xml"


@pytest.fixture(scope="module")
def acts(tmp_path_factory):
    ts = ingested(tmp_path_factory.mktemp("acts"), [BANK, TITLE9])
    yield ts["docs"]
    ts.close()


@pytest.mark.parametrize("scoping", [True, False])
def test_a_citation_of_the_named_act_is_never_answered_by_another_acts_pin(acts, monkeypatch, scoping):
    """Only Title 9 has a section 301; "of the Bank of Canada Act" names the other Act, by query
    scoping or (scoping off, the exact leg alone) by the citation's own document name. Before, the
    exact leg pinned Title 9's 301 with confidence high."""
    import docstrata.search as search

    monkeypatch.setattr(search, "SCOPE_DOCUMENTS", scoping)
    hits = acts.search("What does section 301 of the Bank of Canada Act say?", top_k=5)
    assert not any(h.pinned for h in hits), [(h.source_path, h.section_id, h.pinned) for h in hits]
    c = hits.confidence
    assert c.level != "high" and c.unresolved == ["Section 301"], c
    assert f"'Section 301' is not found in {BANK.name}" in c.reason, c.reason
    if not scoping:  # the other Act's 301 is named as such, not as the answer
        assert f"301 of {TITLE9.name}" in c.reason, c.reason
