"""Documents named by an abbreviation of their file name or by part of their name (session 15
trial: "clause 6 of the SimpliTest contributor license agreement" for
``simplitest-corporate-cla.docx``, "section 4 of the charter schools bill" for the "Success and
Opportunity through Quality Charter Schools Act"), on real documents: names read as ingest reads
them (convert → section tree → :func:`~docstrata.docnames.document_names`), matched by
:func:`~docstrata.query_scope.match` against every other document's names, words weighed by how
many documents' text holds them (as the keyword index gives at query time).

Documents: bench/realdocs/legislation-xml (Canadian Acts and Regulations, US Code titles, a US
bill, a public law, a statute compilation) and tests/fixtures (an IETF draft, an OASIS Word
specification, a Word employee IP agreement); their NOTICE / LICENSES files name the sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.docnames import acronym_expansions, document_names, short_titles
from docstrata.index.keyword import analyze
from docstrata.models import FileState, SourceFile
from docstrata.query_scope import Catalogue, match
from docstrata.structure import build_tree

ROOT = Path(__file__).resolve().parents[1]
LEG = ROOT / "bench" / "realdocs" / "legislation-xml"
FIX = ROOT / "tests" / "fixtures"
FILES = {p.name: p for p in [
    LEG / "ca-pipeda-p-8.6.justice-ca.xml",
    LEG / "ca-bank-of-canada-act-b-2.justice-ca.xml",
    LEG / "ca-radiation-protection-regulations-sor-2000-203.justice-ca.xml",
    LEG / "us-statute-compilation-osh-act-1970-comps-1523.uslm.xml",
    LEG / "us-bill-118-s1325-rs.uslm.xml",
    LEG / "us-public-law-113-67-bipartisan-budget-act.uslm.xml",
    LEG / "us-usc-title09-arbitration-113-31.uslm1.xml",
    LEG / "us-usc-title13-census-113-31.uslm1.xml",
    FIX / "definition-forms" / "draft-ietf-ppm-dap-excerpt.md",
    FIX / "oasis-dss" / "dss-core-v2.0-cs02-excerpt.docx",
    FIX / "beipa" / "Balanced_Employee_IP_Agreement.docx",
]}
PIPEDA, BANK, OSH = "ca-pipeda-p-8.6.justice-ca.xml", "ca-bank-of-canada-act-b-2.justice-ca.xml", \
    "us-statute-compilation-osh-act-1970-comps-1523.uslm.xml"
BILL, TITLE9 = "us-bill-118-s1325-rs.uslm.xml", "us-usc-title09-arbitration-113-31.uslm1.xml"


def _convert(key: str, path: Path):
    st = path.stat()
    return convert_file(SourceFile(doc_key=key, path=str(path), state=FileState(st.st_size, st.st_mtime_ns, "")))


@pytest.fixture(scope="module")
def corpus():
    names, texts, df = {}, {}, {}
    for key, path in FILES.items():
        doc = _convert(key, path)
        names[key] = document_names(build_tree(doc), key, doc.markdown)
        texts[key] = doc.markdown
        for w in set(analyze(doc.markdown)):
            df[w] = df.get(w, 0) + 1
    return names, texts, Catalogue.build(names, lambda k: df.get(k, 0))


def test_file_name_abbreviations_are_named_with_their_spelling_out(corpus):
    names, texts, _ = corpus
    # spelled out by the title's (or short title's) initials, small words skipped: PIPEDA, OSH, DAP, DSS
    assert "PIPEDA" in names[PIPEDA]
    assert "Personal Information Protection and Electronic Documents Act" in acronym_expansions(
        "pipeda", texts[PIPEDA], names[PIPEDA])
    # "OSH" stands for "Occupational Safety and Health", not a kind of document: spelled out in the stem only
    assert "OSH" not in names[OSH]
    assert any("occupational safety and health act" in n.casefold() and n.startswith("us statute")
               for n in names[OSH])
    assert "draft ietf ppm Distributed Aggregation Protocol excerpt" in names["draft-ietf-ppm-dap-excerpt.md"]
    # "Digital Signature Service": written out in the stem, but no kind of document: "DSS" alone names the
    # service, not this specification (as "FSRA" names a regulator, not its guidance)
    assert "Digital Signature Service core v2 0 cs02 excerpt" in names["dss-core-v2.0-cs02-excerpt.docx"]
    assert "DSS" not in names["dss-core-v2.0-cs02-excerpt.docx"]
    assert "PIPEDA" in names[PIPEDA] and "DAP" in names["draft-ietf-ppm-dap-excerpt.md"]
    # spelled out in the text before a parenthesis: "intellectual property (IP)"; a two-letter
    # abbreviation is only written out in the stem, never a name alone
    assert [e.casefold() for e in acronym_expansions("IP", texts["Balanced_Employee_IP_Agreement.docx"], [])][:1] == [
        "intellectual property"]
    assert "IP" not in names["Balanced_Employee_IP_Agreement.docx"]
    # a word of the file name no text spells out stays as it is
    assert acronym_expansions("usc", texts[TITLE9], []) == []


@pytest.mark.parametrize("query, doc", [
    ("What does section 7 of PIPEDA say about consent?", PIPEDA),
    ("section 5 of the Occupational Safety and Health Act", OSH),
    ("How does the DAP define the collector?", "draft-ietf-ppm-dap-excerpt.md"),
    # part of a name, framed by a word for a kind of document
    ("section 3 of the Western Hemisphere bill", BILL),
    ("section 4 of the Hemisphere Partnership bill", BILL),  # 0.43 of "Western Hemisphere Partnership Act of 2023"
    ("section 10 of the Bank of Canada Act", BANK),  # a whole name, as before
])
def test_a_question_naming_a_document_by_abbreviation_or_part_of_its_name_is_scoped(corpus, query, doc):
    scope = match(corpus[2], query)
    assert scope is not None and scope.doc_keys == (doc,), (query, scope and scope.doc_keys)


@pytest.mark.parametrize("query", [
    "section 4 of the bill",  # a kind word alone names no document
    "section 6 of the agreement",
    "What does the act say about penalties?",
    "Which records must an employer keep about safety and health?",  # words of a name, no kind word, no capital
    "section 10 of the regulations",
    "How does the Hemisphere Partnership work?",  # the same part of a name, no kind word saying it is one
])
def test_kind_words_and_ordinary_words_name_no_document(corpus, query):
    assert match(corpus[2], query) is None, query


def test_short_titles_quoted_wrapped_or_followed_by_and(corpus):
    names, texts, _ = corpus
    # a quoted short title holding "and" is read whole (the bill's own declaration)
    assert "Western Hemisphere Partnership Act of 2023" in short_titles(texts[BILL])
    # the Personal Data Protection Act 2010 (Malaysia), section 1(1) as its PDF text reads: wrapped
    # across two lines, and a Commonwealth form that goes on with "and shall come into force"
    pdpa = "1.  (1)  This  Act  may  be  cited  as  the  Personal  Data  Protection\nAct  2010.\n\n(2)  This  Act"
    assert short_titles(pdpa) == ["Personal Data Protection Act 2010"]
    assert short_titles("This Act may be cited as the Penal Code Act, 2008 and shall come into force on the date")[
        0] == "Penal Code Act"
    assert short_titles("This Act may be cited as the Fair Work and Industrial Relations Act 2009 and shall come "
                        "into operation on a date") == ["Fair Work and Industrial Relations Act 2009"]


def test_a_first_heading_that_is_a_section_label_names_no_document(tmp_path):
    """The CPRA as Markdown opens with "# SECTION 1" (a new user's trial): read as its title it
    became a name, and "What does Section 7 of the NDA require?" scoped to the CPRA too. A unit's
    label alone names no document; a US Code title's "Title 9" still does (its name, above)."""
    path = tmp_path / "california-privacy-rights-act-2020.md"
    path.write_text("# SECTION 1\n\nTitle and findings.\n\n# SECTION 2\n\nThe people find.\n", encoding="utf-8")
    doc = _convert(path.name, path)
    names = document_names(build_tree(doc), path.name, doc.markdown)
    assert "SECTION 1" not in names and "california privacy rights act 2020" in names
    catalogue = Catalogue.build({path.name: names, "nda.md": ["Bonterms Mutual NDA", "NDA"]}, lambda k: 1)
    assert [d.doc_key for d in match(catalogue, "What does Section 7 of the NDA require?").documents] == ["nda.md"]
