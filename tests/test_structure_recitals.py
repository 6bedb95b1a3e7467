"""Trial 7 (GDPR): an EU act's numbered recitals are sections of their own (``recital-26``), and
division keywords nest by the document's own evidence of rank (GDPR's Chapter III > Section 3 >
Article 16, a constitution's Article II > Section 1), not by a fixed table. Inputs are built here
in the shapes the converters really emit (the GDPR Markdown of pienebbink/gdpr, EUR-Lex HTML as
markitdown renders it)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from lxml import etree

import docstrata
from docstrata.convert import convert_file
from docstrata.index.exact import alias_keys, query_section_keys
from docstrata.models import Document, SourceFile
from docstrata.search import QueryError
from docstrata.structure import build_tree
from docstrata.structure.parse import parse_sections

from .helpers import alias_owners, sections_by_id

# the shape of the GDPR Markdown (pienebbink/gdpr): recitals as "N. | text" after "### Whereas:",
# Sections at "##" like Chapters, each with its title on a line of its own
GDPR_MD = """\
# REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL

of 27 April 2016

> Having regard to the Treaty on the Functioning of the European Union, and in particular Article 16 thereof,

### Whereas:
<a name="rec1"></a>

1. | The protection of natural persons in relation to the processing of personal data is a fundamental right.
<a name="rec2"></a>

2. | The principles of the protection of natural persons should respect their fundamental rights and freedoms.
<a name="rec3"></a>

3. | Anonymous information is information which does not relate to an identified or identifiable natural person.

HAVE ADOPTED THIS REGULATION:

## CHAPTER I

General provisions

### Article 1

#### Subject-matter and objectives

1.   This Regulation lays down rules relating to the protection of natural persons.

2.   This Regulation protects fundamental rights and freedoms of natural persons, as recital 2 explains.

## CHAPTER III

Rights of the data subject

## Section 1

Transparency and modalities

### Article 12

#### Transparent information

1.   The controller shall take appropriate measures to provide any information, see recitals (1) and 3.

### Article 15

#### Right of access by the data subject

1.   The data subject shall have the right to obtain from the controller confirmation.

3.   The controller shall provide a copy of the personal data undergoing processing.

## Section 3

Rectification and erasure

### Article 16

#### Right to rectification

The data subject shall have the right to obtain the rectification of inaccurate personal data.

### Article 17

#### Right to erasure

The data subject shall have the right to obtain the erasure of personal data without undue delay.

## CHAPTER IV

Controller and processor

## Section 1

General obligations

### Article 24

#### Responsibility of the controller

1.   The controller shall implement appropriate technical and organisational measures.

## Section 3

Security of personal data

### Article 32

#### Security of processing

1.   The controller and the processor shall implement appropriate measures to ensure security.
"""

# EUR-Lex HTML as the HTML converter renders it: "Whereas:" is a paragraph, each recital number a
# paragraph of its own; the enacting terms are plain-text labels
EURLEX_MD = """\
REGULATION (EU) 2024/903 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL

Having regard to the Treaty on the Functioning of the European Union,

Whereas:

(1)

It is necessary to strengthen the development of the cross-border interoperability of network systems.

(2)

Cooperation with regard to cross-border interoperability can address common challenges.

(3)

The Union and Member States have been working for more than two decades on interoperability.

HAVE ADOPTED THIS REGULATION:

Chapter 1

General provisions

Article 1

Subject matter and scope

(1) This Regulation lays down measures that promote the cross-border interoperability.

(2) This Regulation applies to Union entities.

Article 2

Definitions

(1) 'cross-border interoperability' means the ability of Union entities to interact.
"""


def test_recitals_after_a_whereas_heading_are_sections_and_article_paragraphs_stay():
    tree = parse_sections(GDPR_MD, "gdpr.md", "GDPR")
    by_id = sections_by_id(tree)
    assert [s.section_id for s in tree.sections if s.section_id.startswith("recital-")] == \
        ["recital-1", "recital-2", "recital-3"]
    rec2 = by_id["recital-2"]
    assert rec2.title == "Recital 2" and rec2.parent_id == "whereas"
    assert "fundamental rights and freedoms" in rec2.text and "Anonymous" not in rec2.text
    # the adopting formula closes the last recital
    assert "HAVE ADOPTED" not in by_id["recital-3"].text
    # "1." / "2." of an Article are still its paragraphs
    assert by_id["article-1(1)"].parent_id == "article-1" and by_id["article-1(2)"].parent_id == "article-1"
    assert by_id["article-15(3)"].parent_id == "article-15"
    owners = alias_owners(tree)
    for cited in ("Recital 2", "recital (2)", "Rec. 2"):
        assert owners[alias_keys(cited)[0]] == {"recital-2"}, cited
    assert all(len(v) == 1 for v in owners.values())


def test_recitals_in_eurlex_html_shape_sit_under_the_preamble():
    tree = parse_sections(EURLEX_MD, "reg.html", "Interoperable Europe Act", list_items=False)
    by_id = sections_by_id(tree)
    assert [s.section_id for s in tree.sections if s.section_id.startswith("recital-")] == \
        ["recital-1", "recital-2", "recital-3"]
    assert all(by_id[f"recital-{n}"].parent_id == "preamble" for n in (1, 2, 3))
    assert "two decades" in by_id["recital-3"].text
    # the articles' "(1)" paragraphs are not recitals and keep their article ids
    assert by_id["article-1(1)"].parent_id == "article-1" and by_id["article-2(1)"].parent_id == "article-2"
    assert not any(s.section_id in ("(1)", "(2)") for s in tree.sections)


def test_numbered_paragraphs_without_a_whereas_line_are_no_recitals():
    md = "Terms of Service\n\n(1)\n\nThe provider offers the service.\n\n(2)\n\nThe user accepts the terms.\n"
    tree = parse_sections(md, "t.md", "Terms")
    assert not any(s.section_id.startswith("recital-") for s in tree.sections)
    # and "whereas" in running prose after the enacting terms opens nothing
    md2 = ("Article 1\n\nScope\n\nThis applies to all members, whereas:\n\n(1) members of the board;\n\n"
           "(2) members of the staff.\n")
    assert not any(s.section_id.startswith("recital-") for s in parse_sections(md2, "a.md", "A").sections)


def test_a_contracts_recitals_end_at_its_operative_formula():
    contract = ("# Services Agreement\n\n## Recitals\n\n1. The Company provides cloud services.\n\n"
                "2. The Customer wishes to buy them.\n\n{close}\n\n1. Definitions. In this Agreement the "
                "following terms apply.\n\n2. Services. The Company shall provide the services.\n\n"
                "## Article 3 Fees\n\nThe Customer shall pay the fees.\n")
    tree = parse_sections(contract.format(close="NOW, THEREFORE, the parties agree as follows:"), "c.md", "C")
    by_id = sections_by_id(tree)
    assert by_id["recital-2"].parent_id == "recitals" and "Definitions" not in by_id["recital-2"].text
    assert not any(s.parent_id == "recital-2" for s in tree.sections)
    # without the formula, a "Recitals" heading's zone has no end: the clauses are never recitals
    tree = parse_sections(contract.format(close="## Agreement"), "c.md", "C")
    assert not any(s.section_id.startswith("recital-") for s in tree.sections)


def test_text_citing_recitals_resolves_to_them():
    tree = build_tree(Document(doc_key="gdpr.md", title="GDPR", markdown=GDPR_MD, format="md"))
    refs = [(r.text, r.section_id) for r in tree.cross_references if r.target.startswith("recital-")]
    assert ("recital 2", "recital-2") in refs
    assert ("recitals (1) and 3", "recital-1") in refs and ("recitals (1) and 3", "recital-3") in refs
    for q in ("Recital 26", "recital (26)", "Rec. 26", "What does recital 26 say?"):
        assert query_section_keys(q) == [["recital 26"]], q


def test_a_section_heading_that_opens_articles_ranks_above_article():
    tree = parse_sections(GDPR_MD, "gdpr.md", "GDPR")
    by_id = sections_by_id(tree)
    # "## Section 3" after the text of Article 15 is Chapter III's Section 3, not a part of Article 15
    assert "article-15/3" not in by_id
    sec3 = by_id["chapter-iii/section-3"]
    assert sec3.parent_id == "chapter-iii" and sec3.title.startswith("Section 3")
    assert by_id["article-16"].parent_id == "chapter-iii/section-3"
    assert by_id["article-15"].parent_id == "chapter-iii/section-1"
    assert by_id["article-24"].parent_id == "chapter-iv/section-1"
    assert by_id["article-32"].parent_id == "chapter-iv/section-3"
    # "Section 1" of two chapters: each answers only its qualified citation
    owners = alias_owners(tree)
    assert owners[alias_keys("Chapter IV, Section 1")[0]] == {"chapter-iv/section-1"}
    assert not any(k in owners for k in alias_keys("Section 1"))


def test_references_to_a_section_of_a_chapter_resolve_to_it():
    md = GDPR_MD + "\n### Article 99\n\n1.   The rights in Section 3 of Chapter III and in Chapter IV, Section 1 apply.\n"
    tree = build_tree(Document(doc_key="gdpr.md", title="GDPR", markdown=md, format="md"))
    refs = {r.text: r.section_id for r in tree.cross_references if "Section" in r.text}
    assert refs == {"Section 3 of Chapter III": "chapter-iii/section-3", "Chapter IV, Section 1": "chapter-iv/section-1"}


def test_where_section_is_the_lowest_unit_it_stays_a_numbered_section():
    us = ("TITLE I—GENERAL PROVISIONS\n\nSEC. 101. SHORT TITLE.\n\nThis Act may be cited as the Example Act.\n\n"
          "SEC. 102. DEFINITIONS.\n\nIn this Act the term 'agency' means an executive agency.\n\n"
          "TITLE II—ENFORCEMENT\n\nSEC. 201. PENALTIES.\n\nA person who violates this Act shall be fined.\n")
    by_id = sections_by_id(parse_sections(us, "act.txt", "Example Act"))
    assert by_id["101"].parent_id == "title-i" and by_id["201"].parent_id == "title-ii"
    constitution = "## Article I\n\n### Section 1\n\nLegislative power.\n\n## Article II\n\n### Section 1\n\nExecutive power.\n"
    by_id = sections_by_id(parse_sections(constitution, "c.md", "Constitution"))
    assert by_id["article-ii/1"].parent_id == "article-ii" and by_id["article-i/1"].parent_id == "article-i"


@pytest.fixture(scope="module")
def gdpr_tool(tmp_path_factory):
    root = tmp_path_factory.mktemp("recitals")
    (root / "gdpr.md").write_text(GDPR_MD, encoding="utf-8")
    (root / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: law
            type: hierarchical_document
            source: gdpr.md
            database: in-memory
        """), encoding="utf-8")
    ts = docstrata.open(root / "agent.yaml")
    ts["law"].ingest()
    yield ts["law"]
    ts.close()


@pytest.mark.parametrize("query", ["Recital 2", "recital (2)", "Rec. 2"])
def test_search_and_get_section_answer_a_recital(gdpr_tool, query):
    hits = gdpr_tool.search(query, top_k=3)
    assert hits[0].section_id == "recital-2" and hits[0].exact_match, [h.section_id for h in hits]
    page = gdpr_tool.get_section("gdpr.md", query)
    assert page.section_id == "recital-2" and "fundamental rights and freedoms" in page.content


def test_get_section_names_the_ambiguity_of_section_1(gdpr_tool):
    for n in (1, 3):
        with pytest.raises(QueryError, match=rf"chapter-iii/section-{n}.*chapter-iv/section-{n}"):
            gdpr_tool.get_section("gdpr.md", f"Section {n}")
    page = gdpr_tool.get_section("gdpr.md", "Chapter III, Section 3")
    assert page.section_id == "chapter-iii/section-3" and "Right to rectification" in page.content \
        and "Right to erasure" in page.content and "Security of processing" not in page.content


# --------------------------------------------------------------------------- real documents

@pytest.mark.shared_data
def test_gdpr_markdown_recitals_and_sections_follow_its_own_markup():
    """The GDPR Markdown (pienebbink/gdpr, ../shared/data) marks every recital with an anchor
    ``<a name="recN">`` right above it and prints Chapter > Section > Article as headings in order:
    the truth is read from that markup here, not from the parser."""
    from .conftest import shared_data

    md = shared_data("documents", "md", "gdpr_regulation_eu_2016_679.md").read_text(encoding="utf-8")
    lines = md.split("\n")
    anchors = {int(m.group(1)): n for n, ln in enumerate(lines, 1) for m in re.finditer(r'<a name="rec(\d+)">', ln)}
    tree = parse_sections(md, "gdpr.md", "GDPR")
    recitals = [s for s in tree.sections if re.fullmatch(r"recital-\d+", s.section_id)]
    assert [int(s.section_id.split("-")[1]) for s in recitals] == sorted(anchors)
    for s in recitals:  # each recital starts at the first "N. |" line after its anchor
        n = int(s.section_id.split("-")[1])
        assert anchors[n] <= s.start_line <= anchors[n] + 3 and lines[s.start_line - 1].startswith(f"{n}. |"), n
    # headings in document order: the current Chapter holds each Section, the current Section
    # (or Chapter, before a Chapter's first Section) holds each Article
    by_id = {s.section_id: s for s in tree.sections}
    by_line = {s.start_line: s for s in tree.sections}
    chapter = section = None
    checked = 0
    for n, ln in enumerate(lines, 1):
        if ln.startswith("## CHAPTER "):
            chapter, section = by_line[n], None
        elif ln.startswith("## Section "):
            section = by_line[n]
            assert section.parent_id == chapter.section_id and section.section_id.startswith(chapter.section_id + "/")
        elif ln.startswith("### Article "):
            art = by_line[n]
            assert art.parent_id == (section or chapter).section_id, (art.section_id, art.parent_id)
            checked += 1
    assert checked == 99 and "article-15/3" not in by_id
    assert sum(1 for s in tree.sections if s.section_id.endswith("/section-3")) == 3  # Chapters III, IV, VII


def test_akoma_ntoso_recitals_are_sections_with_their_num():
    """bench/realdocs' AKN Directive proposal (EU document): its ``<recital><num>(N)</num>`` elements
    are the truth; each becomes ``recital-N`` under the preamble, holding that recital's text."""
    path = Path(__file__).resolve().parents[1] / "bench" / "realdocs" / "legislation-xml" / \
        "eu-directive-proposal-vehicle-registration.akn.xml"
    root = etree.parse(str(path)).getroot()
    truth = []
    for rec in root.iter("{*}recital"):
        num = next(rec.iter("{*}num")).text.strip()
        first = " ".join("".join(next(rec.iter("{*}p")).itertext()).split())
        truth.append((int(num.strip("()")), first[:40]))
    tree = build_tree(convert_file(SourceFile(path.name, str(path), None)))
    recitals = [s for s in tree.sections if re.fullmatch(r"recital-\d+", s.section_id)]
    assert [int(s.section_id.split("-")[1]) for s in recitals] == [n for n, _ in truth] and len(truth) == 24
    for s, (n, first) in zip(recitals, truth):
        assert s.parent_id == "preamble" and first[:25] in " ".join(s.text.split()), n
    by_id = {s.section_id: s for s in tree.sections}
    assert "HAVE ADOPTED" not in by_id["recital-24"].text and by_id["chapter-i"].parent_id is None
    assert by_id["article-1(1)"].parent_id == "article-1"
