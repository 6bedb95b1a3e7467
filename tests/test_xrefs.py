"""Cross-references: detection, normalisation, ranges, resolution, external references."""

from __future__ import annotations

import csv
import json
import re

import pytest

from docstrata.structure.parse import parse_sections
from docstrata.structure.xrefs import extract_cross_references, find_cross_references

from .conftest import shared_data

DOC = """### Article 5
#### Principles
1.   Personal data shall be processed lawfully.
2.   The controller shall comply with paragraph 1.

### Article 6
#### Lawfulness of processing
1.   Processing is lawful where Article 5(1) is met; see also Article 99.

8.1\tFirst rule.
8.2\tSecond rule, subject to Sections 8.1 and 8.2 and Rules 8.1 to 8.3.
8.3\tThird rule under § 8.2(a) and section 196 of the FSMR.
"""


@pytest.fixture(scope="module")
def tree():
    return parse_sections(DOC, "doc.md", "Doc")


def refs(tree, text, source=None):
    return [(r.target, r.section_id) for r in find_cross_references(text, tree, source)]


def test_styles_are_normalised_and_resolved(tree):
    assert refs(tree, "see Article 6(1)") == [("article-6(1)", "article-6(1)")]
    assert refs(tree, "as defined in Art. 5") == [("article-5", "article-5")]
    assert refs(tree, "pursuant to Rule 8.2") == [("8.2", "8.2")]
    assert refs(tree, "under § 8.2(a)") == [("8.2(a)", "8.2")]  # nearest enclosing section
    assert refs(tree, "Article 99") == [("article-99", None)]  # no such section


def test_lists_and_ranges_expand(tree):
    assert refs(tree, "Sections 8.1 and 8.2") == [("8.1", "8.1"), ("8.2", "8.2")]
    assert [t for t, _ in refs(tree, "Rules 8.1 to 8.3")] == ["8.1", "8.2", "8.3"]


def test_range_and_list_members_are_each_a_reference(tree):
    """Every member of a list or range is one reference: ``Articles 8, 11, 25 to 39 and 42`` cites
    Article 30 although the text never writes it; UK ``ss 10–12``, German ``§§ 1 bis 3``; an item
    range or list belongs to the provision written before it (``6(1)(a) to (c)``)."""
    got = [t for t, _ in refs(tree, "Articles 8, 11, 25 to 39 and 42")]
    assert got == ["article-8", "article-11", *[f"article-{n}" for n in range(25, 40)], "article-42"]
    assert [t for t, _ in refs(tree, "Articles 5 to 6")] == ["article-5", "article-6"]
    assert [t for t, _ in refs(tree, "under ss 10–12 of the Act")] == ["10", "11", "12"]
    assert [t for t, _ in refs(tree, "nach §§ 1 bis 3")] == ["1", "2", "3"]
    assert [t for t, _ in refs(tree, "Article 6(1)(a) to (c)")] == [
        "article-6(1)(a)",
        "article-6(1)(b)",
        "article-6(1)(c)",
    ]
    assert [t for t, _ in refs(tree, "Article 6(1)(a) and (c)")] == ["article-6(1)(a)", "article-6(1)(c)"]
    assert [t for t, _ in refs(tree, "Article 5(1)(i) to (iv)")][-2:] == ["article-5(1)(iii)", "article-5(1)(iv)"]
    assert [t for t, _ in refs(tree, "Chapters III to V")] == ["chapter-iii", "chapter-iv", "chapter-v"]


def test_paragraph_is_relative_to_the_source_article(tree):
    assert refs(tree, "comply with paragraph 1", "article-5(2)") == [("article-5(1)", "article-5(1)")]


def test_other_instrument_is_not_resolved(tree):
    got = refs(tree, "section 196 of the FSMR")
    assert got == [("196", None)]


def test_rulebook_qualified_reference_resolves_only_in_its_own_rulebook():
    t = parse_sections("3.3.31\tA rule.\n3.3.32\tAnother, see GEN 3.3.31.\n", "GEN_VER08.txt", "GEN rulebook")
    assert refs(t, "see GEN 3.3.31") == [("3.3.31", "3.3.31")]
    assert refs(t, "see COBS 3.3.31") == [("3.3.31", None)]


def test_extract_sets_source_and_skips_own_label(tree):
    out = extract_cross_references(tree)
    assert all(r.source_section_id for r in out)
    assert not any(r.section_id == r.source_section_id for r in out)
    assert ("8.2(a)", "8.3") in [(r.target, r.source_section_id) for r in out]


@pytest.mark.shared_data
def test_adgm_internal_cross_references_resolve():
    base = shared_data("obliqa")
    doc_map = json.loads((base / "document_map.json").read_text())
    rows = [
        r
        for r in csv.DictReader(open(base / "xref" / "ADGM_CrossReferenceData.csv", encoding="utf-8"))
        if r["ReferenceType"] == "Internal" and r["SourceDocumentID"] == "7"
    ]
    text = (base / "StandardizedRegulatoryDocumentsTXT" / doc_map["7"]["file"]).read_text(encoding="utf-8")
    t = parse_sections(text, doc_map["7"]["file"], "GEN")
    ok = 0
    for r in rows:
        want = re.sub(r"\.\(", "(", r["TargetPassageID"].rstrip("."))
        found = find_cross_references(r["SourcePassage"], t, None)
        ok += any(x.section_id and (x.section_id == want or x.section_id.startswith(want + "(")) for x in found)
    assert rows and ok / len(rows) >= 0.9


CONSTITUTION = """# Constitution

## Article I

### Section 1

All legislative Powers.

### Section 3

The Senate, see Article II, Section 3 and Section 1 of Article II.

## Article II

### Section 1

The executive Power.

### Section 3

He shall give Information, as subsection (a) says.

(a) State of the Union.

## Amendment VIII

### Section 8

Excessive bail shall not be required.

## 2. Grant of Licence

(a) You may copy.

(b) You may modify, subject to Section 2(a), paragraph (a) and Article I Section 3.
"""


@pytest.fixture(scope="module")
def constitution():
    return parse_sections(CONSTITUTION, "us/constitution.md", "Constitution of the United States")


def test_compound_reference_resolves_inside_its_container(constitution):
    """Kind 6: "Article II, Section 3" is section 3 *of* Article II, not the document's first section 3."""
    assert refs(constitution, "see Article II, Section 3", "article-i/3") == [("article-ii/3", "article-ii/3")]
    assert refs(constitution, "Section 1 of Article II", "article-i/3") == [("article-ii/1", "article-ii/1")]
    assert refs(constitution, "Article I Section 3", "2(b)") == [("article-i/3", "article-i/3")]
    # a plain "Section 3" still takes the first one
    assert refs(constitution, "Section 3")[0][1] == "article-i/3"


def test_item_references_find_the_item(constitution):
    """Kind 6: "Section 2(b)" is item (b) of section 2; "paragraph (a)" the nearest enclosing item (a)."""
    assert refs(constitution, "subject to Section 2(a)") == [("2(a)", "2(a)")]
    assert refs(constitution, "paragraph (a)", "2(b)") == [("2(a)", "2(a)")]
    ((target, found),) = refs(constitution, "as subsection (a) says", "article-ii/3")
    assert found == target and constitution.section(found).parent_id == "article-ii/3"


def test_references_naming_another_document_carry_its_name(constitution):
    got = [
        (r.target, r.section_id, r.document)
        for r in find_cross_references(
            "section 9 of the GPL, RFC 5246 section 6.2, Art. 12 GDPR and Section 4 of RFC 791", constitution, None
        )
    ]
    assert got == [("9", None, "GPL"), ("6.2", None, "RFC 5246"), ("article-12", None, "GDPR"), ("4", None, "RFC 791")]
    # naming this document (or only a generic word for it) keeps the reference internal
    own = find_cross_references(
        "Section 1 of Article II of the Constitution, Article I of this Constitution", constitution, None
    )
    assert [(r.section_id, r.document, r.target_document) for r in own] == [
        ("article-ii/1", None, "us/constitution.md"),
        ("article-i", None, "us/constitution.md"),
    ]
    # capitals in shouted licence text are not document names
    assert find_cross_references("AS SET FORTH UNDER SECTION 3 BELOW", constitution, None)[0].document is None


def test_a_heading_never_refers_to_another_section(constitution):
    """Kind 6/8: "### Section 8" under Amendment VIII is a label, not a reference to some section 8."""
    out = extract_cross_references(constitution)
    assert not [r for r in out if r.source_section_id and r.source_section_id.startswith("amendment-viii")]
    assert all(r.text != "Section 1" or r.source_section_id != "article-i/1" for r in out)


def test_document_names():
    from docstrata.structure.xrefs import document_names

    assert {"gpl", "gnu general public license"} <= set(document_names("GNU General Public License", "gpl-3.0.txt"))
    assert "gdpr" in document_names("General Data Protection Regulation", "eu/reg.md")
    assert "rfc 5246" in document_names("The TLS Protocol Version 1.2", "rfc5246.txt")
    assert "license" not in document_names("License", "LICENSE.txt")
    # the CNCF charter's own first line (cncf/foundation charter.md) and a file named after it: a filing
    # cites it as "Paragraph 11 of the CNCF Charter" (trial 18)
    charter = document_names("Cloud Native Computing Foundation (“CNCF”) Charter", "charter.md")
    assert {"cncf charter", "cloud native computing foundation charter", "cncf"} <= set(charter)
    assert "cncf charter" in document_names("", "cncf-charter.md")
    assert "gdpr" in document_names("General Data Protection Regulation (GDPR)", "reg.md")  # nothing after: the acronym
    # an EU instrument is cited by its number, with or without "(EU)" / "No"
    from docstrata.index.exact import document_key

    assert "regulation 2016/679" in document_names("Regulation (EU) 2016/679 of the European Parliament", "eu.md")
    assert (
        document_key("Regulation (EU) No 2016/679") == document_key("Regulation 2016/679") == "doc:regulation 2016/679"
    )


# ---------------------------------------------------------------- references reach search results
GPL = """# GNU General Public License

## 1. Source Code

The source code for a work means the preferred form of the work.

## 9. Acceptance Not Required for Having Copies

You are not required to accept this License in order to receive or run a copy of the Program.
"""
POLICY = """# Open Source Policy

## 1. Scope

This policy covers distribution.

## 2. Distribution

(a) Copies are distributed in source form.

(b) Copies follow section 9 of the GPL and Section 2(a) of this policy.

## 9. Exceptions

Exceptions need approval.
"""


@pytest.fixture(scope="module")
def two_documents(tmp_path_factory):
    import textwrap

    import docstrata

    root = tmp_path_factory.mktemp("xrefs")
    (root / "docs").mkdir()
    (root / "docs" / "gpl-3.0.md").write_text(GPL, encoding="utf-8")
    (root / "docs" / "policy.md").write_text(POLICY, encoding="utf-8")
    (root / "agent.yaml").write_text(
        textwrap.dedent("""\
        tools:
          - name: docs
            type: hierarchical_document
            description: policy and licence
            source: docs/
            database: in-memory
        """),
        encoding="utf-8",
    )
    with docstrata.open(root / "agent.yaml") as tools:
        tools["docs"].ingest()
        yield tools["docs"]


def test_results_carry_resolved_cross_references(two_documents):
    """Deliverable 4: a hit lists its references with target document and section, ready for get_section."""
    hit = next(
        h for h in two_documents.search("Copies follow", top_k=5, mode="keyword") if "Copies follow" in h.content
    )
    refs_by_text = {x["text"]: x for x in hit.cross_references}
    gpl = refs_by_text["section 9"]
    assert gpl == {
        "text": "section 9",
        "target": "9",
        "target_document": "gpl-3.0.md",
        "target_section_id": "9",
        "resolved": True,
    }
    own = refs_by_text["Section 2(a)"]
    assert (own["target_document"], own["target_section_id"], own["resolved"]) == ("policy.md", "2(a)", True)
    followed = two_documents.get_section(gpl["target_document"], gpl["target_section_id"])
    assert "not required to accept" in followed[0].content
    assert hit.to_dict()["cross_references"] == hit.cross_references
    assert "References: section 9 → gpl-3.0.md § 9" in hit.format()
    from docstrata.mcp_server import SearchHit  # the MCP search answer's structured hit keeps them

    dumped = SearchHit.model_validate(hit.to_dict()).model_dump()["cross_references"]
    for x in dumped:  # "enclosing" is only set for a pinpoint shown by its enclosing section, "note" for an
        for optional in ("enclosing", "note"):  # unresolved kind word (the server drops None)
            if x.get(optional) is None:
                x.pop(optional)
    assert dumped == hit.cross_references


def test_a_query_naming_a_document_puts_its_section_first(two_documents):
    """Kind 6: "section 9 of the GPL" is the GPL's section 9, not the policy's own section 9."""
    for mode in ("exact", "hybrid"):
        hits = two_documents.search("section 9 of the GPL", top_k=3, mode=mode)
        assert (hits[0].source_path, hits[0].section_id) == ("gpl-3.0.md", "9"), mode
    hits = two_documents.search("Section 9", top_k=3, mode="exact")
    assert {h.source_path for h in hits if h.section_id == "9"} == {"gpl-3.0.md", "policy.md"}


def test_links_contents_lines_and_respec_references_resolve():
    """In-page links resolve through heading slugs or recorded HTML ids; a contents list points at
    the sections it lists (a listing, no citation); a link to another file names that file."""
    md = (
        "# Guide\n\nTable of Contents\n\n   1.  Install\n   2.  Configure the site\n   3.  Deploy\n\n"
        "## 1. Install\n\nSee [the configuration section](#2-configure-the-site), [§3](#sec-deploy), "
        "[[[#deploy-id]]] and [site_name](../user-guide/configuration.md#site_name).\n\n"
        "## 2. Configure the site\n\ntext\n\n## 3. Deploy\n\ntext\n"
    )
    tree = parse_sections(md, "docs/guide.md", "Guide")
    tree.anchors = {"sec-deploy": "3. Deploy", "deploy-id": "3. Deploy"}
    out = extract_cross_references(tree)
    by_text = {(r.text, r.source_section_id): r for r in out}
    src = "1"
    assert by_text[("the configuration section", src)].section_id == "2"
    assert by_text[("§3", src)].section_id == "3"
    assert by_text[("[[[#deploy-id]]]", src)].section_id == "3"
    other = by_text[("site_name", src)]
    assert (other.document, other.target, other.section_id) == ("user-guide/configuration.md", "site_name", None)
    # the contents lines list the sections, they cite none: listings (trial 20: never a "cited by" entry)
    toc = [(r.text, r.section_id) for r in out if r.source_section_id != src]
    assert [("1", "1"), ("2", "2"), ("3", "3")] == [t for t in toc if t[0] in ("1", "2", "3")]
    assert all(r.listing for r in out if r.source_section_id != src)


def test_word_ref_fields_and_bookmark_links_become_links():
    """A DOCX "see Adding a Part" REF field (which mammoth drops) is written back as a link to the
    bookmarked heading, and resolves to that section."""
    import io
    import zipfile

    from docstrata.convert.docx_marks import docx_links, link_references

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    body = (
        f"<w:document {w}><w:body>"
        '<w:p><w:r><w:t>See </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:instrText> REF _Ref27 \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        '<w:r><w:t>Adding a Part</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:r><w:t> and </w:t></w:r><w:hyperlink w:anchor="intro"><w:r><w:t>the introduction</w:t></w:r>'
        "</w:hyperlink></w:p>"
        '<w:p><w:bookmarkStart w:id="0" w:name="intro"/><w:r><w:t>Introduction</w:t></w:r></w:p>'
        '<w:p><w:bookmarkStart w:id="1" w:name="_Ref27"/><w:r><w:t>Adding a Part</w:t></w:r></w:p>'
        "</w:body></w:document>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("word/document.xml", body)
    refs, bookmarks = docx_links(buf.getvalue())
    assert sorted(refs) == [("Adding a Part", "_Ref27"), ("the introduction", "intro")]
    assert bookmarks == {"intro": "Introduction", "_Ref27": "Adding a Part"}
    md = link_references(
        "# Guide\n\nSee Adding a Part and the introduction.\n\n## Introduction\n\nx\n\n## Adding a Part\n\ny\n", refs
    )
    tree = parse_sections(md, "g.docx", "Guide")
    tree.anchors = bookmarks
    got = {(r.text, r.section_id) for r in extract_cross_references(tree)}
    assert {("Adding a Part", "adding-a-part"), ("the introduction", "introduction")} <= got


REGULATION = """# Regulation on data portability

## Article 5 Principles

Processing shall comply with this Regulation.

## Article 6 Lawfulness

Processing is lawful where Article 5 of this Regulation is met.

## Article 21 Objection

The data subject may object.
"""


def test_a_reference_naming_another_instrument_is_external():
    """Finding 3: "Article 21 of the Charter", "section 5 of the Privacy Act 1988",
    "Regulation (EU) 2016/679 Article 6" name another instrument: never this document's own
    same-numbered section; the reference carries the instrument as its document label."""
    tree = parse_sections(REGULATION, "eu/portability.md", "Regulation on data portability")
    text = (
        "Article 21 of the Charter applies, as do section 5 of the Privacy Act 1988 and Regulation (EU) "
        "2016/679 Article 6, Article 5 of Directive 95/46/EC and Article 6 of the Regulation."
    )
    got = [(r.text, r.target, r.section_id, r.document) for r in find_cross_references(text, tree, "article-6")]
    assert got == [
        ("Article 21", "article-21", None, "Charter"),
        ("section 5", "5", None, "Privacy Act 1988"),
        ("Article 6", "article-6", None, "Regulation (EU) 2016/679"),
        ("Article 5", "article-5", None, "Directive 95/46/EC"),
        ("Article 6", "article-6", "article-6", None),
    ]  # "the Regulation": it calls itself that
    # a document titled with the instrument's number is that instrument
    own = parse_sections(REGULATION, "eu/gdpr.md", "Regulation (EU) 2016/679 on data protection")
    (ref,) = find_cross_references("see Article 21 of Regulation (EU) 2016/679", own, None)
    assert (ref.section_id, ref.document) == ("article-21", None)
    # another title of a code: "section 552 of title 5" cited from title 1 is not title 1's § 552
    usc = parse_sections("# Title 1—GENERAL PROVISIONS\n\n## § 112 Statutes\n\nText.\n\n## § 552 Other\n\nx\n",
                         "usc01.htm", "Title 1—GENERAL PROVISIONS")
    assert [(r.section_id, r.document) for r in find_cross_references(
        "section 552 of title 5 and section 112 of this title", usc, None)] == [(None, "title 5"), ("112", None)]
    # a title in italics or quotes names another act as well (Markdown: "of the *Copyright Act*")
    got = [(r.section_id, r.document) for r in find_cross_references(
        'Article 6 of the *Copyright Act 1968* and Article 6 of the "Master Services Agreement" apply.', tree, None)]
    assert got == [(None, "Copyright Act 1968"), (None, "Master Services Agreement")]
    # "of this Agreement" always names the citing document
    nda = parse_sections(
        "# NDA\n\n## 1. Scope\n\nSee Section 2 of this Agreement.\n\n## 2. Term\n\nOne year.\n", "nda.md", "NDA"
    )
    assert [(r.section_id, r.document) for r in find_cross_references("Section 2 of this Agreement", nda, "1")] == [
        ("2", None)
    ]


PRIVACY_ACT = """# Privacy Act 1988

## 5 Application

This Act applies to agencies.
"""
GUIDE = """# Compliance guide

## 5 Local rules

Our own section 5.

## 6 Reporting

Report as section 5 of the Privacy Act 1988 requires, and Article 21 of the Charter.
"""


def test_a_named_instrument_in_the_same_index_resolves_there(tmp_path):
    """Finding 3: the named instrument resolves to that document when the tool holds it (its
    ``doc:<name>`` key); one it does not hold stays unresolved, never the citing document's own § 5."""
    import textwrap

    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "privacy-act.md").write_text(PRIVACY_ACT, encoding="utf-8")
    (tmp_path / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(
        textwrap.dedent("""\
        tools:
          - name: docs
            type: hierarchical_document
            description: act and guide
            source: docs/
            database: in-memory
        """),
        encoding="utf-8",
    )
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tools["docs"].ingest()
        hit = next(
            h for h in tools["docs"].search("Report as section 5", top_k=5, mode="keyword") if "Report as" in h.content
        )
    by_text = {x["text"]: x for x in hit.cross_references}
    assert (by_text["section 5"]["target_document"], by_text["section 5"]["target_section_id"]) == (
        "privacy-act.md",
        "5",
    )
    assert by_text["Article 21"]["resolved"] is False and by_text["Article 21"]["target_section_id"] is None


RFC_TEXT = """4.1.  Key Exchange

   See Appendix D.4 and Appendix B.4 for details, and Appendix C.

4.3.  Server Parameters

   The point is validated as in Section 4.3.7 of [X962] and Section 5.6.2.3 of
   [KEYAGREEMENT]; see also [RFC5246], Section 7.4.  Section 4.3.9 is cited here.

Appendix B.  Protocol Data Structures

B.4.  Cipher Suites

   Suites.

Appendix C.  Implementation Notes

   Notes.

Appendix D.  Backward Compatibility

D.4.  Middlebox Compatibility Mode

   Middleboxes.
"""


def test_lettered_appendix_references_and_bracketed_citations():
    """Trial 14 items 5 and 6 (RFC 8446): ``Appendix D.4`` names section D.4; ``Section 4.3.7 of
    [X962]`` cites another document; a dotted section that does not exist (4.3.9) never resolves
    to its parent 4.3."""
    tree = parse_sections(RFC_TEXT, "rfc8446.txt", "TLS 1.3")
    got = {r.text: r for r in extract_cross_references(tree)}
    assert (got["Appendix D.4"].section_id, got["Appendix B.4"].section_id, got["Appendix C"].section_id) == (
        "D.4",
        "B.4",
        "appendix-c",
    )
    assert got["Section 4.3.7"].document == "X962" and got["Section 4.3.7"].section_id is None
    assert got["Section 5.6.2.3"].document == "KEYAGREEMENT" and got["Section 5.6.2.3"].section_id is None
    assert got["Section 7.4"].document == "RFC5246"
    assert got["Section 4.3.9"].section_id is None and got["Section 4.3.9"].document is None


def test_a_missing_item_still_resolves_to_its_provision():
    """An item (``Section 4.3(b)``) is inside its provision's text even when not parsed as a section."""
    tree = parse_sections(RFC_TEXT, "rfc8446.txt", "TLS 1.3")
    refs = find_cross_references("as Section 4.3(b) says", tree, "4.1")
    assert [r.section_id for r in refs] == ["4.3"]


AMENDING = """SEC. 101. Revised discretionary spending limits.

(a) Amendments.—Section 251A of the Balanced Budget Act of 1985 is amended—

(1) in paragraph (1) (as redesignated by subsection (b)), by striking “2013” and inserting “2014”; and

(2) as redesignated by subsection (b) of this section, by adding at the end the following.

(b) Effect.—The limits of subsection (a) apply from 2014, as paragraph (1) of this subsection says.

(1) The first limb.
"""


def test_relative_references_in_an_amendment_name_the_amended_provision():
    """Trial 14 item 6 (USLM public law): ``(1) in paragraph (1), by striking …`` names paragraph
    (1) of the section amended, not this Act's 101(a)(1); outside the instruction it resolves."""
    tree = parse_sections(AMENDING, "pl.txt", "Public Law")
    ids = {s.section_id for s in tree.sections}
    assert {"101(a)(1)", "101(b)(1)"} <= ids
    refs = extract_cross_references(tree)
    amending = [r for r in refs if r.source_section_id == "101(a)(1)" and r.text == "paragraph (1)"]
    assert amending and all(r.section_id is None for r in amending)
    own = [r for r in refs if r.source_section_id == "101(a)(2)" and r.text == "subsection (b)"]
    assert own and own[0].section_id == "101(b)"  # "of this section": this Act's own
    by_this = [r for r in refs if r.source_section_id == "101(a)(1)" and r.text == "subsection (b)"]
    assert by_this and by_this[0].section_id == "101(b)"  # "as redesignated by subsection (b)"
    plain = [r for r in refs if r.source_section_id == "101(b)" and r.text == "paragraph (1)"]
    assert plain and plain[0].section_id == "101(b)(1)"


def test_statute_abbreviations_name_other_acts():
    """Session 10: "§ 1 KSchG", "§ 7 Abs. 3 BUrlG", "§87 para. 1 no. 2 BetrVG", "§87, §98, §99 BetrVG"
    cite other acts by their (mixed-case) abbreviations, never the citing document's own § 1 / § 7.
    Real input: the legalis-de labour-law guide (tests/fixtures/legalis-de, MIT)."""
    from pathlib import Path

    text = (Path(__file__).parent / "fixtures" / "legalis-de" / "ARBEITSRECHT.en.md").read_text(encoding="utf-8")
    guide = parse_sections(text, "ARBEITSRECHT.en.md", "Labor Law - Guide")
    paragraph_signs = [r for r in extract_cross_references(guide) if r.text.startswith("§")]
    assert paragraph_signs and all(r.document and r.section_id is None for r in paragraph_signs)
    named = {r.document for r in paragraph_signs}
    assert {"KSchG", "BUrlG", "ArbZG", "BetrVG", "TVG", "BGB"} <= named
    # the same real sentences cited from a contract with its own § 1 … § 11: never its own clauses
    contract = parse_sections(
        "# Arbeitsvertrag\n\n## § 1 Beginn\n\nText.\n\n## § 3 Probezeit\n\nText.\n\n"
        "## § 4 Laufzeit\n\nText.\n\n## § 9 Betriebsrat\n\nText.\n\n## § 87 Schluss\n\nText.\n",
        "arbeitsvertrag.md",
        "Arbeitsvertrag",
    )
    for line in text.splitlines():
        if "§" in line and not line.startswith("#"):
            for r in find_cross_references(line, contract, "1"):
                if r.text.startswith("§"):
                    assert r.section_id is None and r.document, (line, r)
    # the contract's own clauses still resolve; German pinpoints and the "of the" form name the act
    got = [
        (r.text, r.section_id, r.document)
        for r in find_cross_references(
            "§ 3 Abs. 2 dieses Vertrages, § 4 Abs. 1, section 3 of the BurlG, § 1 Abs. 2 S. 1 KSchG, "
            "Art. 6 Abs. 1 lit. f DSGVO",
            contract,
            "1",
        )
    ] + [(r.text, r.section_id, r.document) for r in find_cross_references("see § 9 GmbH", contract, "1")]
    # the pinpoint words are part of the reference (the citation grammar reads "Abs. 2" as "(2)")
    assert got == [
        ("§ 3 Abs. 2", "3", None),
        ("§ 4 Abs. 1", "4", None),
        ("section 3", None, "BurlG"),
        ("§ 1 Abs. 2 S. 1", None, "KSchG"),
        ("Art. 6 Abs. 1 lit. f", None, "DSGVO"),
        ("§ 9", "9", None),
    ]


ADGM_STYLE = """## CHAPTER 12 CUSTODY

12.1 Application

12.1.1 This Chapter applies to a Fund Manager.

## CHAPTER 15 QUALIFIED INVESTOR FUNDS

15.3 Custody

15.3.1 Requirements for custody.

## APP 11 INTERNAL RISK ASSESSMENT

A11.1 Matters an IRAP covers.
"""


def test_adgm_listed_container_and_glued_appendix():
    """Two forms of the ADGM rulebooks (sentences from the ObliQA cross-reference data): ``Chapter
    12, Rule 15.3`` lists two provisions when Chapter 12 holds no rule 15.3 but the document does
    (``Chapter 12, Rule 12.1`` stays the chapter's rule), and ``App11`` is Appendix 11 written as one
    word (``App`` / ``APP`` before a number; a lower-case ``app`` is a word of the text)."""
    tree = parse_sections(ADGM_STYLE, "fund.md", "Funds")
    text = "In addition to Chapter 12, Rule 15.3 sets out the requirements applicable to a Fund Manager"
    assert refs(tree, text) == [("chapter-12", "chapter-12"), ("15.3", "15.3")]
    assert refs(tree, "Chapter 12, Rule 12.1") == [("chapter-12/12.1", "12.1")]
    assert refs(tree, "is provided in App11.") == [("appendix-11", "appendix-11")]
    assert refs(tree, "as calculated in App 11 and APP11") == [("appendix-11", "appendix-11")] * 2
    assert refs(tree, "open the app 11 times") == []


def test_a_range_names_the_provisions_inserted_between_its_ends():
    """``sections 181A to 181C`` (as the Commonwealth Electoral Act 1918, compilation C2022C00074 in
    bench/realdocs, writes it) names 181B although the text never writes it, and ``Articles 10 to 12`` of a
    document that inserted ``10A`` and ``11A`` names them too: numbers alone cannot tell, the
    document's own siblings between the two resolved ends do. A heading between them (``Notes``)
    is no provision of the range; a list (``10 and 12``) names only its members."""
    md = "\n\n".join(
        f"## {h}\n\nText of {h}."
        for h in ("Article 10", "Article 10a", "Article 11", "Notes", "Article 11a", "Article 12")
    )
    tree = parse_sections(md, "x.md", "X")
    got = [s for _, s in refs(tree, "under Articles 10 to 12")]
    assert sorted(got) == ["article-10", "article-10a", "article-11", "article-11a", "article-12"]
    assert [s for _, s in refs(tree, "Articles 10 and 12")] == ["article-10", "article-12"]
    act = "\n\n".join(f"## {n} Heading of {n}\n\n(1) Text of section {n}." for n in ("181A", "181B", "181C"))
    tree = parse_sections(act, "act.txt", "Act")
    assert sorted(s for _, s in refs(tree, "sections 181A to 181C")) == ["181A", "181B", "181C"]


def test_clauses_of_lettered_parts_are_cited_letter_dot_number():
    """The GitHub Corporate Terms of Service (github/site-policy, CC0) number clauses 1, 2, 3 inside
    parts lettered A, B, C … and cite them "Sections D.3 through D.6", "Section O.1": each clause is
    cited so; its id is qualified by its part, the first part's too (``B/3``, ``D/3``)."""
    md = "\n\n".join(
        f"## {part}. Part {part}\n\n" + "\n\n".join(f"### {n}. Clause {part}{n}\n\nText {part}{n}." for n in range(1, 7))
        for part in ("B", "D", "O")
    )
    tree = parse_sections(md, "tos.md", "Terms")
    assert refs(tree, "Customer grants the rights set forth in Sections D.3 through D.6") == [
        (f"D.{n}", f"D/{n}") for n in range(3, 7)
    ]
    assert refs(tree, "under this Section O.1") == [("O.1", "O/1")]
    first = next(s for s in tree.sections if s.title.startswith("3. Clause B3"))
    assert "Section B.3" in first.aliases and refs(tree, "Section B.3") == [("B.3", first.section_id)]
    assert first.section_id == "B/3"


def test_a_citation_word_inside_a_longer_token_cites_nothing():
    """RFC 6455's handshake example ``Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`` held the
    abbreviation ``s`` and a number ``3p`` (a new user's trial found six unresolved references to
    's3p'); a citation ends where a word ends, so "s 59A" and "s. 3" still cite."""
    from docstrata.models import Document
    from docstrata.structure import build_tree

    text = (
        "# 1 Opening\n\nThe server sends Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo= as s 3 and s. 59A say.\n\n"
        "# 3 Handshake\n\nText.\n\n# 59A Keys\n\nText.\n"
    )
    tree = build_tree(Document(doc_key="rfc.md", title="RFC", markdown=text, format="md"))
    assert sorted((x.text, x.section_id) for x in tree.cross_references) == [("s 3", "3"), ("s. 59A", "59A")]


def test_a_survival_clause_lists_sections_with_their_titles():
    """Bonterms Cloud Terms 14.5(b) (fixture pages 1-3 of the PDF, CC BY 4.0): "The following Sections
    will survive …: 5.4 (Usage Data), 8.4 (Disclaimers), 9 (Usage Rules), 12.1 (Payment) (for amounts
    then due), … 22 (General Terms) and 23 (Definitions)." Each number is a reference, read from the
    PDF's own text; the bracketed titles and the words between "Sections" and the colon name none."""
    from pathlib import Path

    from docstrata.pipeline import PipelineSettings, parse_file
    from docstrata.sources import source_file

    pdf = Path(__file__).parent / "fixtures" / "contract-pdfs" / "bonterms-cloud-terms-v1-pages-1-3.pdf"
    parsed = parse_file(source_file(pdf), PipelineSettings(count_tokens=lambda s: len(s.split())))
    clause = next(s for s in parsed.tree.sections if s.section_id == "14.5(b)")
    listed = clause.text.split(":", 1)[1]
    written = re.findall(r"(?<![\w.(])(\d{1,2}(?:\.\d)?)\s*\(", listed)  # "5.4 (Usage Data)": each number before its title
    refs = [x.target for x in parsed.tree.cross_references if x.source_section_id == "14.5(b)"]
    assert len(written) >= 12 and refs == written
