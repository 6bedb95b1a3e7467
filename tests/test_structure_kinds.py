"""Issue 14: one small input per kind of structure failure seen on real documents (kinds 1–5
and 8; kinds 6, 7 and 9 are tested with the definitions, cross-references and XML converter).
Each input is built here, in the shape a converter really emits for that kind of document."""

from __future__ import annotations

import io

from docstrata.chunking import chunk_tree
from docstrata.convert import convert_file
from docstrata.convert.html import clean_html
from docstrata.convert.text import strip_inline_html
from docstrata.index.exact import alias_keys
from docstrata.models import Document, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.parse import parse_sections

from .helpers import alias_owners, doc_project, sections_by_id


def _words(text: str) -> int:
    return len(text.split())


# --------------------------------------------------------------------------- kind 1

STATUTE_TEXT = """Summary Offences Act 1988

Part 2 Offences in public places

11 Begging

A person must not beg in a public place.

12 Loitering

(1) A person must not loiter in a public place.

(2) A person who loiters commits an offence.

12A Obstruction of a footpath

(1) A person must not obstruct a footpath.

12B

Throwing missiles

(1) A person must not throw a missile—

(a) at a person; or

(b) at a vehicle.

13 Offensive behaviour

A person must not behave in an offensive manner.
"""


def test_kind1_letter_suffixed_and_standalone_numbers_are_sections():
    tree = parse_sections(STATUTE_TEXT, "soa.txt", "Summary Offences Act 1988")
    by_id = sections_by_id(tree)
    for sid in ("11", "12", "12A", "12B", "13"):
        assert by_id[sid].parent_id == "part-2", sid
    assert by_id["12B"].title == "12B Throwing missiles"  # the title on the line after the number
    assert by_id["12A(1)"].parent_id == "12A" and by_id["12B(1)(b)"].parent_id == "12B(1)"
    assert not any(a.startswith("Section (") for s in tree.sections for a in s.aliases)  # no orphans
    assert all(len(v) == 1 for v in alias_owners(tree).values())


def test_kind1_a_number_in_prose_is_not_a_section():
    tree = parse_sections("Part 1 General\n\n11 Begging\n\nA person must not beg.\n\n"
                          "12 months later the rule lapsed.\n", "x.txt", "X")
    assert [s.section_id for s in tree.sections] == ["part-1", "11"]


# --------------------------------------------------------------------------- kind 2

def test_kind2_containers_nest_by_kind_not_by_markdown_level():
    md = ("# Licensing Act\n\n# 29 Fees\n\nThe fee is set by regulation.\n\n### Part 4 Licences\n\n"
          "# 30 Application for a licence\n\nA person may apply.\n\n# 31 Grant\n\nThe regulator may grant.\n")
    by_id = sections_by_id(parse_sections(md, "l.md", "Licensing Act"))
    assert by_id["part-4"].parent_id != "29"
    assert by_id["30"].parent_id == "part-4" and by_id["31"].parent_id == "part-4"


def test_kind2_gdpr_chapter_section_article():
    md = ("# Regulation\n\n## CHAPTER II\n\n## Article 5\n\nPrinciples.\n\n## CHAPTER III\n\n## Section 1\n\n"
          "## Article 12\n\nTransparent information.\n\n## Section 3\n\n## Article 16\n\nRectification.\n\n"
          "## Article 17\n\nErasure.\n\n## CHAPTER IV\n\n## Section 1\n\n## Article 24\n\nResponsibility.\n")
    tree = parse_sections(md, "gdpr.md", "Regulation")
    by_id = sections_by_id(tree)
    art17 = by_id["article-17"]
    assert by_id[art17.parent_id].title == "Section 3" and by_id[by_id[art17.parent_id].parent_id].section_id == "chapter-iii"
    assert by_id["article-24"].parent_id == "chapter-iv/section-1"
    # get_section("chapter-iii") is one section; "Section 1" of two chapters answers neither bare
    assert sum(1 for s in tree.sections if s.section_id == "chapter-iii") == 1
    owners = alias_owners(tree)
    assert all(len(v) == 1 for v in owners.values())
    assert any("Chapter IV, Section 1" in s.aliases for s in tree.sections)


def test_kind2_constitution_article_holds_sections():
    md = "ARTICLE I\n\nSection 1. Legislative power.\n\nARTICLE II\n\nSection 1. Executive power.\n"
    by_id = sections_by_id(parse_sections(md, "c.txt", "Constitution"))
    assert by_id["article-ii/1"].parent_id == "article-ii"
    assert "Article II, Section 1" in by_id["article-ii/1"].aliases


# --------------------------------------------------------------------------- kind 3

def test_kind3_headings_before_bodies_are_re_paired():
    md = ("# Example Act 2020\n\n# 1 Short title\n\n# 2 Commencement\n\n# 3 Definitions\n\n# 4 Notes\n\n"
          "This Act is the Example Act 2020.\n\nThis Act commences on assent.\n\n"
          "In this Act, vessel means a ship.\n\nThe notes are not part of this Act.\n")
    by_id = sections_by_id(parse_sections(md, "a.md", "Example Act 2020"))
    assert "commences" in by_id["2"].text and "vessel" in by_id["3"].text
    assert by_id["4"].text.strip() == "The notes are not part of this Act."


def test_kind3_without_evidence_the_bodies_stay_put():
    md = "# 1 Short title\n\n# 2 Commencement\n\n# 3 Notes\n\nOne paragraph only.\n"
    by_id = sections_by_id(parse_sections(md, "a.md", "A"))
    assert not by_id["1"].text.strip() and "One paragraph" in by_id["3"].text


# --------------------------------------------------------------------------- kind 4

def test_kind4_list_items_never_take_a_headings_id():
    md = ("# Spec\n\n## 3. Processing Model\n\nSteps:\n\n1. Read the input.\n2. Tokenize it.\n\n"
          "### 3.1 Parsing\n\nParse the tokens.\n")
    tree = parse_sections(md, "s.md", "Spec")
    by_id = sections_by_id(tree)
    assert by_id["3.1"].title == "3.1 Parsing" and by_id["3.1"].parent_id == "3"
    assert "3.2" not in by_id and "Tokenize" in by_id["3"].text
    assert [s.section_id for s in tree.sections if "Section 3.1" in s.aliases] == ["3.1"]


def test_kind4_contents_entries_are_body_text():
    md = ("# CHAPTER 1—RULES OF CONSTRUCTION\n\nSec.\n\n1.\n\nWords denoting number, gender, etc.\n\n2.\n\n"
          "\"County\" as including \"parish\", etc.\n\n3.\n\n\"Vessel\" as including all means of water transportation.\n\n"
          "### §1. Words denoting number, gender, and so forth\n\nIn determining the meaning of any Act of Congress,\n"
          "unless the context indicates otherwise—\nwords importing the singular include the plural;\n\n"
          "### §2. \"County\" as including \"parish\", and so forth\n\nThe word \"county\" includes a parish.\nMore.\nMore.\n\n"
          "### §3. \"Vessel\" as including all means of water transportation\n\nThe word \"vessel\" includes every craft.\n"
          "More.\nMore.\n")
    tree = parse_sections(md, "usc.md", "Title 1")
    by_id = sections_by_id(tree)
    assert by_id["1"].title.startswith("§1. Words") and by_id["1"].parent_id == "chapter-1"
    assert "Words denoting number, gender, etc." in by_id["chapter-1"].text
    assert not any("-2" in s.section_id or "/" in s.section_id for s in tree.sections)


# --------------------------------------------------------------------------- kind 5

def test_kind5_a_word_in_a_title_does_not_take_the_number_and_letters_are_cited():
    md = ("# Procedures\n\n## CHAPTER 6 ADMINISTRATION\n\n## L. CLOSING OF CASES\n\nClosed.\n\n"
          "## M. RECORD RETENTION\n\nRecords are kept.\n\n## CHAPTER 7 CONVERSIONS\n\n"
          "## D. CHAPTER 11 CASES CONVERTED FROM CHAPTER 7\n\nA chapter 11 case is reopened.\n\n"
          "## M. OTHER MATTERS\n\nOther.\n\n## 4.A.1 Filing\n\nFile.\n\n## 4.B.1 Service\n\nServe.\n")
    tree = parse_sections(md, "p.md", "Procedures")
    by_id = sections_by_id(tree)
    assert "chapter-11" not in by_id and by_id["D"].parent_id == "chapter-7"
    m6 = [s for s in tree.sections if "RECORD RETENTION" in s.title][0]
    keys = {k for a in m6.aliases for k in alias_keys(a)}
    assert keys & set(alias_keys("Chapter 6, section M"))
    assert set(alias_keys("4.A.1")).isdisjoint(k for a in by_id["4.B.1"].aliases for k in alias_keys(a))
    assert all(len(v) == 1 for v in alias_owners(tree).values())


# --------------------------------------------------------------------------- kind 8

def test_kind8_text_before_the_first_heading_is_cited_under_the_document(tmp_path):
    p = tmp_path / "notes.md"
    p.write_text("Some introduction before any heading.\n\n## Installation\n\nRun pip.\n")
    doc = convert_file(SourceFile("notes.md", str(p), None))
    assert doc.title == "Installation"  # a page without H1 takes its first ## as title
    tree = build_tree(doc)
    chunks = chunk_tree(tree, count_tokens=_words, max_tokens=50, overlap=0)
    first = chunks[0]
    assert first.section_id == "preamble" and first.section_title != "Installation"
    assert chunks[1].section_id == "installation"


def test_kind8_slides_cite_their_own_title(tmp_path):
    """A table placed above its slide's title is cited under that slide's title; an untitled slide is
    "Slide 3" (``convert/pptx.py``: the heading of each slide comes first, from its title placeholder)."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[5])
    first.shapes.title.text = "Overview"
    first.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.text = "Intro"
    second = deck.slides.add_slide(deck.slide_layouts[5])
    second.shapes.title.text = "Revenue by quarter"
    table = second.shapes.add_table(2, 2, Inches(0.5), Inches(0.1), Inches(6), Inches(1)).table
    for (r, c), text in {(0, 0): "Quarter", (0, 1): "Revenue", (1, 0): "Q1", (1, 1): "10"}.items():
        table.cell(r, c).text = text
    third = deck.slides.add_slide(deck.slide_layouts[6])
    third.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.text = "No title here"
    deck.save(tmp_path / "deck.pptx")
    doc = convert_file(SourceFile("deck.pptx", str(tmp_path / "deck.pptx"), None))
    tree = build_tree(doc)
    chunks = chunk_tree(tree, count_tokens=_words, max_tokens=100)
    table_chunk = [c for c in chunks if "| Q1 |" in c.content][0]
    assert table_chunk.section_title == "Revenue by quarter"
    assert any(s.title == "Slide 3" for s in tree.sections)


def test_kind8_inline_html_and_admonition_fences():
    md = strip_inline_html('## <a name="cfg"></a>Config <span class="k">key</span>\n\n'
                           '!!! note\n    Example:\n\n    ```yaml\n    # a comment\n    1. not a clause\n'
                           '    key: <span>v</span>\n    ```\n\nAfter.\n')
    assert "<span" not in md.split("```")[0] and "<a name" not in md and '<span>v</span>' in md
    tree = parse_sections(md, "c.md", "C")
    assert [s.section_id for s in tree.sections] == ["config-key"]
    chunks = chunk_tree(tree, count_tokens=_words, max_tokens=8, overlap=0)
    for c in chunks:  # every piece of the fence opens and closes it
        if "# a comment" in c.content or "not a clause" in c.content:
            assert c.content.count("```") == 2


def test_kind8_html_markup_numbers_and_enumerator_tables():
    html = ("<html><body><h1>Act</h1><ol><li data-number='1'><h5>1. Establishment</h5><ol>"
            "<li data-number='1'>There are two tribunals— <ol><li data-number='a'>the First-tier,</li>"
            "<li data-number='b'>the Upper.</li></ol></li></ol></li></ol>"
            "<p>Article 2</p><p>Definitions</p><table><tr><td>(1)</td><td>‘data’ means data.</td></tr>"
            "<tr><td>(2)</td><td>‘body’ means a body.</td></tr></table></body></html>")
    cleaned, _ = clean_html(html)
    doc = Document("act.html", "Act", "", "html")
    from docstrata.convert.office import _markitdown_convert

    doc.markdown = _markitdown_convert(cleaned.encode(), "html", charset="utf-8")
    by_id = sections_by_id(build_tree(doc, extract_definitions=False, extract_cross_references=False))
    assert by_id["1(1)(b)"].parent_id == "1(1)"
    assert "article-2(2)" in by_id


_W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _legal_numbered_docx() -> bytes:
    """A Word package whose headings are auto-numbered "Article %1." (upper roman) and
    "Section %1.%2" with ``w:isLgl`` and ``decimalZero`` (as in docx4j's article-section-isLgl)."""
    import zipfile

    def lvl(ilvl: int, fmt: str, text: str, legal: bool) -> str:
        return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
                f'<w:lvlText w:val="{text}"/>{"<w:isLgl/>" if legal else ""}</w:lvl>')

    numbering = (f'<w:numbering {_W_NS}><w:abstractNum w:abstractNumId="7">'
                 + lvl(0, "upperRoman", "Article %1.", False) + lvl(1, "decimalZero", "Section %1.%2", True)
                 + '</w:abstractNum><w:num w:numId="7"><w:abstractNumId w:val="7"/></w:num></w:numbering>')
    styles = (f'<w:styles {_W_NS}>' + "".join(
        f'<w:style w:type="paragraph" w:styleId="Heading{n}"><w:name w:val="heading {n}"/></w:style>'
        for n in (1, 2)) + '</w:styles>')

    def para(text: str, style: str | None = None, ilvl: int | None = None) -> str:
        ppr = ""
        if style:
            num = f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="7"/></w:numPr>' if ilvl is not None else ""
            ppr = f'<w:pPr><w:pStyle w:val="{style}"/>{num}</w:pPr>'
        return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"

    body = (para("Name and Purpose", "Heading1", 0) + para("Body text.") + para("Offices", "Heading2", 1)
            + para("More text.") + para("Another article", "Heading1", 0) + para("Powers", "Heading2", 1))
    document = f'<w:document {_W_NS}><w:body>{body}</w:body></w:document>'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("word/document.xml", document)
        z.writestr("word/numbering.xml", numbering)
        z.writestr("word/styles.xml", styles)
    return buf.getvalue()


def test_kind8_docx_legal_numbering_is_not_concatenated():
    from docstrata.convert.office import docx_heading_numbers

    assert docx_heading_numbers(_legal_numbered_docx()) == [
        ("Name and Purpose", "Article I."), ("Offices", "Section 1.01"),
        ("Another article", "Article II."), ("Powers", "Section 2.01")]


def test_kind2_keyword_label_with_colon_is_a_container():
    md = ("# Guide\n\n## Chapter 1: Introduction\n\nWhy.\n\n### 1.1 Purpose\n\nText.\n\n"
          "## Chapter 2: The Fundamentals\n\nHow.\n\n### 2.1 Assumptions\n\nText.\n\n"
          "## Appendix A: References\n\nList.\n")
    by_id = sections_by_id(parse_sections(md, "g.md", "Guide"))
    assert {"chapter-1", "chapter-2", "appendix-a"} <= set(by_id)
    assert by_id["chapter-1"].title.endswith("Introduction")
    assert by_id["1.1"].parent_id == "chapter-1" and by_id["2.1"].parent_id == "chapter-2"


# --------------------------------------------------------------------------- session 6: new-user trial findings

AUSTLII_TEXT = """Commonwealth Consolidated Acts

[Index] [Search] [Download] [Help]

ACTS INTERPRETATION ACT 1901 - TABLE OF PROVISIONS

Long Title

PART 1--PRELIMINARY
1.      Short title
1A.     Simplified outline
2.      Application of Act
2A.     Binding the Crown

PART 2--INTERPRETATION
2B.     Definitions
3.      Meaning of commencement

ACTS INTERPRETATION ACT 1901 - SECT 1
Short title

This Act may be cited as the Acts Interpretation Act 1901.

ACTS INTERPRETATION ACT 1901 - SECT 1A
Simplified outline

The following is a simplified outline of this Act.

ACTS INTERPRETATION ACT 1901 - SECT 2
Application of Act

(1) This Act applies to all Acts.

(2) This Act also applies to instruments.

ACTS INTERPRETATION ACT 1901 - SECT 2A
Binding the Crown

This Act binds the Crown in each of its capacities.

ACTS INTERPRETATION ACT 1901 - SECT 2B
Definitions

In any Act: Australia means the Commonwealth of Australia.

ACTS INTERPRETATION ACT 1901 - SECT 3
Meaning of commencement

In every Act, commencement means the time at which the Act comes into operation.
"""


def test_austlii_table_of_provisions_is_contents_and_each_sect_is_a_section():
    """An AustLII page: a table of provisions (section and Part lines) before sections headed
    "<ACT TITLE> - SECT 2A" with the title on the next line. The table is body text; every section
    holds its own body (before: the table became the tree and every body landed in section 3)."""
    tree = parse_sections(AUSTLII_TEXT, "aia.txt", "Acts Interpretation Act 1901")
    numbered = [s for s in tree.sections if s.section_id != "preamble" and not s.section_id.startswith("2(")]
    assert [s.section_id for s in numbered] == ["1", "1A", "2", "2A", "2B", "3"]
    by_id = sections_by_id(tree)
    assert by_id["1"].title.endswith("Short title") and "may be cited" in by_id["1"].text
    assert "binds the Crown" in by_id["2A"].text and "binds the Crown" not in by_id["3"].text
    assert by_id["2(1)"].parent_id == "2"
    assert "Table of Provisions".lower() in by_id["preamble"].text.lower()  # the contents stay readable
    assert all(len(owners) == 1 for owners in alias_owners(tree).values())


# The contents page of an Australian compilation as the PDF converter writes it: Part and
# Division lines without leaders, section lines with dot leaders, page numbers on lines of their
# own; then the body with the PDF outline's headings.
STATUTE_CONTENTS_MD = """Contents

Part XX—Election funding and financial disclosure

1

Division 1—Preliminary

286A
287 Interpretation ..................................................................... 2
287AA

Simplified outline of this Part ............................................ 1
Meaning of foreign donor ............................................... 10

Division 1A—Registration of significant third parties

287D
287E

Simplified outline of this Division .................................. 14
Object of this Division .................................................... 14

Part XXA—Authorisation of electoral matter

314AAA Simplified outline ........................................ 20

# Part XX—Election funding and financial disclosure

## Division 1—Preliminary

### 286A Simplified outline of this Part

This Part deals with the funding of registered political parties.

### 287 Interpretation

(1) In this Part, unless the contrary intention appears: associated entity means an entity.

### 287AA Meaning of foreign donor

A foreign donor is a person who is not an Australian.

## Division 1A—Registration of significant third parties

### 287D Simplified outline of this Division

This Division requires registration.

### 287E Object of this Division

The object is transparency.

# Part XXA—Authorisation of electoral matter

### 314AAA Simplified outline of this Part

This Part requires authorisation.
"""


def test_statute_contents_page_without_leaders_on_its_part_lines_is_contents():
    """Kind 4 on a statute: the contents page repeats every Part and Division line (no dot leaders
    there, only on the section lines); its Part and Division lines stay body text, so the body's
    own Part XX and Division 1 hold their sections, and three-letter suffixes (314AAA) and
    lettered roman Parts (Part XXA) are numbers."""
    by_id = sections_by_id(parse_sections(STATUTE_CONTENTS_MD, "act.pdf", "Commonwealth Electoral Act 1918"))
    assert not [sid for sid in by_id if sid.endswith("-2")]
    assert by_id["286A"].parent_id == "division-1" and by_id["division-1"].parent_id == "part-xx"
    assert by_id["287E"].parent_id == "division-1a" and by_id["division-1a"].parent_id == "part-xx"
    assert by_id["314AAA"].parent_id == "part-xxa" and "authorisation" in by_id["314AAA"].text


def test_ids_differing_only_in_case_answer_one_citation():
    """Form item "6a." and section "6A." would both answer "section 6a": the second is a repeat."""
    md = "# Forms\n\n6A. Envelopes\n\nThe DRO is satisfied.\n\n6a. If no, explain\n\nWhy not.\n"
    tree = parse_sections(md, "f.md", "Forms")
    assert all(len(owners) == 1 for owners in alias_owners(tree).values())
    assert {s.section_id for s in tree.sections} >= {"6A", "6a-2"}


GERMAN_STATUTE_MD = """# Verordnung über den Auslandszuschlag

Abschnitt 1Allgemeine Vorschriften

## § 1 Anwendungsbereich

Diese Verordnung regelt den Auslandszuschlag.

## § 2 Höhe des Zuschlags

(1)

Der Auslandszuschlag bemisst sich nach der Stufe:

1. 1.

   Stufe 1 bei geringer Belastung, insbesondere bei

   1. a)

      Knappheit von Gütern,
   2. b)

      Umweltbelastungen;
2. 2.

   Stufe 2 bei mittlerer Belastung.

(2)

Die Stufen werden festgelegt.

Abschnitt 2Schlussvorschriften

## § 3 Inkrafttreten

Diese Verordnung tritt in Kraft.
"""


def test_german_abschnitt_holds_paragraphs_and_absatz_holds_nummer():
    """``Abschnitt 1Allgemeine Vorschriften`` (number glued to the title, a plain line above ``## §``
    headings) is a container holding its §§; in § 2, the ``1.``/``2.`` items (Nummern, written by
    the converter as ``1. 1.``) belong to Absatz ``(1)`` and their ``a)``/``b)`` to them."""
    by_id = sections_by_id(parse_sections(GERMAN_STATUTE_MD, "v.md", "Verordnung"))
    assert by_id["abschnitt-1"].title == "Abschnitt 1 Allgemeine Vorschriften"
    assert by_id["1"].parent_id == "abschnitt-1" and by_id["2"].parent_id == "abschnitt-1"
    assert by_id["3"].parent_id == "abschnitt-2"
    nummern = [s for s in by_id.values() if s.number in ("1.", "2.")]
    assert [s.parent_id for s in nummern] == ["2(1)", "2(1)"]
    letters = [s for s in by_id.values() if s.number in ("a)", "b)")]
    assert {s.parent_id for s in letters} == {nummern[0].section_id}
    assert by_id["2(2)"].parent_id == "2"


NDA_MD = """# Standard Terms

1. **Introduction**. This Mutual Non-Disclosure Agreement allows each party to disclose information.

2. **Use and Protection of Confidential Information**. The Receiving Party shall: (a) use it solely for the Purpose; and (b) protect it.

3. **Exceptions**. The obligations do not apply to information that is publicly available.

4. **Term and Termination**. This MNDA commences on the Effective Date.

To sign:

1. Complete the cover page.
2. Send it to the other party.

Steps:

1. **Download** the cover page and fill it in.
2. **Sign** it where marked.
"""


def test_contract_clauses_with_bold_titles_are_sections_and_plain_lists_stay_lists():
    """Common Paper style: ``1. **Introduction**. text`` items are clauses 1-4 titled by their bold
    text; the numbered steps after them stay body text of clause 4."""
    tree = parse_sections(NDA_MD, "nda.md", "NDA")
    clauses = [s for s in tree.sections if s.number]
    assert [(s.section_id, s.title) for s in clauses] == [
        ("1", "1. Introduction"), ("2", "2. Use and Protection of Confidential Information"),
        ("3", "3. Exceptions"), ("4", "4. Term and Termination")]
    assert "Send it to the other party" in sections_by_id(tree)["4"].text
    assert "**Sign** it where marked" in sections_by_id(tree)["4"].text  # a bold word leading a step is no title


def test_pdf_contents_page_never_takes_an_outline_entry():
    """A statute's contents page prints "Part XX—…" without leaders (its page number on a line of
    its own) between dot-leader section lines: the outline entry is the body's heading, not that line."""
    from docstrata.convert.pdf_headings import _apply_outline

    def pdf_line(page, box, text, y0, size=11.0):
        from docstrata.convert.pdf_layout import _PdfLine

        return _PdfLine(page=page, box=box, text=text, size=size, font="Arial", x0=90.0, x1=300.0,
                        y0=y0, y1=y0 + size, chars=len(text))

    contents = [pdf_line(1, 1, "Part XX—Election funding", 700), pdf_line(1, 2, "1", 690),
                pdf_line(1, 3, "Division 1—Preliminary", 680)]
    contents += [pdf_line(1, 4 + n, f"{t} ........................ {n + 1}", 660 - 12 * n)
                 for n, t in enumerate(["286A Outline", "287 Interpretation", "287AA Foreign donor"])]
    body = [pdf_line(2, 10, "Part XX—Election funding", 700, 14.0), pdf_line(2, 11, "Division 1—Preliminary", 670, 13.0),
            pdf_line(2, 12, "286A Outline", 640, 12.0), pdf_line(2, 13, "Body.", 600)]
    lines = contents + body
    assert _apply_outline(lines, [(1, "Part XX—Election funding"), (2, "Division 1—Preliminary"), (3, "286A Outline")])
    assert [line.page for line in lines if line.level] == [2, 2, 2]


def test_pdf_multi_row_page_header_is_peeled_row_by_row():
    """Every page of a compilation starts "Part XX …" / "Division 1 …" / "Section 287": the third
    row changes with the section; once the rows above are dropped it is the page's edge and goes too."""
    from docstrata.convert.pdf import _drop_running_lines
    from docstrata.convert.pdf_layout import _PdfLine

    def pdf_line(page, text, y0, size=9.0):
        return _PdfLine(page=page, box=page * 10 + int(y0), text=text, size=size, font="Arial", x0=90.0,
                        x1=300.0, y0=y0, y1=y0 + size, chars=len(text))

    lines = []
    for page in range(1, 13):
        lines += [pdf_line(page, "Part XX Election funding", 780), pdf_line(page, "Division 1 Preliminary", 768),
                  pdf_line(page, f"Section {286 + page // 3}{'A' if page % 2 else ''}", 756)]
        words = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima")
        lines += [pdf_line(page, f"The {words[page - 1]} rule {w} applies here.", 700 - 20 * n, 11.0)
                  for n, w in enumerate(("one", "two", "three", "four"))]
        lines.append(pdf_line(page, f"Compilation No. 73 page {page}", 40))
    kept = [line.text for line in _drop_running_lines(lines, 12)]
    assert not [t for t in kept if t.startswith(("Part XX", "Division 1", "Section 2"))]
    assert "The echo rule one applies here." in kept and len(kept) == 48


def test_pdf_outline_root_and_wrapped_annex_title():
    """ISO-style: the number alone above its title ("1" / "Scope"), an annex over three lines
    ("Annex A" / "(normative)" / "Test methods"), and an outline whose single root (the cover
    title, set over lines the outline does not match) holds every other entry: the root heads the
    document, the numbered and annex headings take the outline's titles."""
    from docstrata.convert.pdf_headings import _apply_outline
    from docstrata.convert.pdf_layout import _PdfLine

    def pdf_line(page, box, text, y0, size=12.0):
        return _PdfLine(page=page, box=box, text=text, size=size, font="Arial", x0=90.0, x1=300.0,
                        y0=y0, y1=y0 + size, chars=len(text))

    lines = [pdf_line(1, 1, "Widgets —", 700, 20.0), pdf_line(1, 2, "Test methods for widgets", 640, 20.0),
             pdf_line(2, 3, "1", 700), pdf_line(2, 4, "Scope", 684), pdf_line(2, 5, "This document specifies tests.", 650, 11.0),
             pdf_line(2, 6, "2", 600), pdf_line(2, 7, "Normative references", 584), pdf_line(2, 8, "None.", 550, 11.0),
             pdf_line(3, 9, "Annex A", 700), pdf_line(3, 9, "(normative)", 686), pdf_line(3, 10, "Test methods", 660),
             pdf_line(3, 11, "Tests are run.", 620, 11.0)]
    outline = [(1, "Widgets: Test methods"), (2, "1 Scope"), (2, "2 Normative references"),
               (2, "Annex A (normative) Test methods")]
    assert _apply_outline(lines, outline)
    assert [(line.level, line.text) for line in lines if line.level] == [
        (1, "Widgets: Test methods"), (2, "1 Scope"), (2, "2 Normative references"),
        (2, "Annex A (normative) Test methods")]
    tree = parse_sections("# Widgets: Test methods\n\n## 1 Scope\n\nText.\n\n## Annex A (normative) Test methods\n\nRun.\n",
                          "w.pdf", "Widgets")
    assert sections_by_id(tree)["annex-a"].parent_id == "widgets-test-methods"


def test_get_section_accepts_a_unique_heading_title(tmp_path):
    """``get_section("Introduction")``: a heading title (case-insensitive, with or without its
    number) names the one section that has it; a title two sections share is refused with their ids."""
    import pytest

    import docstrata
    from docstrata.search import QueryError

    spec = ("# Spec\n\n## 1 Introduction\n\nWhy this spec exists.\n\n## 2 Parsing\n\n### 2.1 Notes\n\nFirst notes.\n\n"
            "## 3 Serialising\n\n### 3.1 Notes\n\nSecond notes.\n")
    with docstrata.open(doc_project(tmp_path, {"spec.md": spec}, description="a spec")) as tools:
        docs = tools["docs"]
        docs.ingest()
        page = docs.get_section("spec.md", "introduction")
        assert "Why this spec exists" in page[0].content and page[0].section_id == "1"
        assert docs.get_section("spec.md", "1 Introduction")[0].section_id == "1"
        with pytest.raises(QueryError, match="2.1, 3.1"):
            docs.get_section("spec.md", "Notes")


def test_german_pdf_text_nummer_is_an_item_of_its_absatz():
    """The same statute as PDF text (no Markdown): ``1.`` and ``2.`` after ``(1)`` of ``§ 3`` are
    Nummern of that Absatz, not sections 1 and 2 of the document (which § 1 and § 2 are)."""
    text = ("Verordnung\n\nAbschnitt 1Allgemeines\n\n§ 1 Anwendungsbereich\n\nDiese Verordnung gilt.\n\n"
            "§ 2 Begriffe\n\nDienstort ist der Ort.\n\nAbschnitt 2Zuschlag\n\n§ 3 Höhe\n\n"
            "(1) Der Zuschlag bemisst sich nach der Stufe.\n\n1. Stufe 1 bei geringer Belastung,\n\n"
            "2. Stufe 2 bei mittlerer Belastung.\n\n(2) Die Stufen werden festgelegt.\n")
    tree = parse_sections(text, "v.txt", "Verordnung")
    by_id = sections_by_id(tree)
    assert by_id["1"].parent_id == "abschnitt-1" and by_id["3"].parent_id == "abschnitt-2"
    assert [s.parent_id for s in tree.sections if s.number in ("1.", "2.")] == ["3(1)", "3(1)"]
    assert by_id["3(2)"].parent_id == "3"
    assert all(len(owners) == 1 for owners in alias_owners(tree).values())


def test_numbered_headings_with_colon_or_dash_nest_their_subsections():
    """A Word specification's headings ``1: Scope``, ``# 3 - Requirements`` carry numbers 1 and 3:
    ``3.1 - Program Foundation`` sits inside 3 (before: 3 was an unnumbered slug and 3.1 lost it)."""
    md = ("# Specification\n\n## 1: Scope\n\nWhat it covers.\n\n## 2: Terms\n\n### 2.1 - Component Records\n\nText.\n\n"
          "# 3 - Requirements\n\n## 3.1 - Program Foundation\n\nText.\n\n## 3.2 - Tasks\n\nText.\n")
    by_id = sections_by_id(parse_sections(md, "spec.docx", "Specification"))
    assert {"1", "2", "2.1", "3", "3.1", "3.2"} <= set(by_id)
    assert by_id["2.1"].parent_id == "2" and by_id["3.1"].parent_id == "3" and by_id["3.2"].parent_id == "3"


def test_heading_numbers_closed_by_a_bracket_are_clauses_as_with_a_dot():
    """A Markdown heading's number closed by a bracket (``## 1) Mission and Scope``, as the OpenDSM
    technical charter numbers its clauses: the grammar's CLAUSE_CLOSE) is clause 1 as ``## 1. Mission
    and Scope`` is: the same ids, levels, numbers and parents, ``1.1`` inside 1; only the title keeps the
    bracket it is written with."""
    layout = "# Charter\n\n## 1{c} Mission and Scope\n\nText.\n\n### 1.1 Goals\n\nText.\n\n## 2{c} Voting\n\nText.\n"
    trees = [parse_sections(layout.format(c=close), "charter.md", "Charter") for close in ".)"]
    outlines = [[(s.section_id, s.parent_id, s.level, s.number) for s in tree.sections] for tree in trees]
    assert outlines[0] == outlines[1]
    by_id = sections_by_id(trees[1])
    assert {"1", "1.1", "2"} <= set(by_id)
    assert by_id["1.1"].parent_id == "1" and by_id["2"].parent_id == by_id["1"].parent_id
    assert by_id["1"].title == "1) Mission and Scope" and by_id["2"].number == "2"


def test_eu_paragraph_after_a_lettered_point_stays_a_paragraph():
    """``2.`` after point ``(b)`` of Article 3 is the article's paragraph 2 (only an Absatz ``(1)``
    holds Nummern ``1.``); an article keyword section never breaks the numbering check."""
    text = ("Article 3\n\n1. Member States shall register vehicles:\n\n(a) new vehicles;\n\n(b) used vehicles.\n\n"
            "2. A vehicle shall not be registered twice.\n\nArticle 4\n\n(1) The register is public.\n\n"
            "1. Its entries are listed.\n")
    by_id = sections_by_id(parse_sections(text, "d.txt", "Directive"))
    # its id is the article's paragraph, as EU acts cite it ("Article 3(2)")
    assert by_id["article-3(2)"].parent_id == "article-3" and by_id["article-3(2)"].number == "2"
    assert [s.parent_id for s in by_id.values() if s.number == "1." and s.start_line > 10] == ["article-4(1)"]


def test_plain_lines_repeating_numbered_headings_and_wrapped_keyword_lines_are_body_text():
    """A converted PDF marks its sections with headings (``# 7 Feedback``): a plain "7 Feedback"
    on its cover page is body text, not a second section 7 (the trial gave the real one ``7-2``).
    A wrapped line "Title 5 Appendix)." closing a sentence's parenthesis is no Title container
    (before, it re-parented sections 6–16 of the USLM User Guide)."""
    md = ("Contents page\n\n7 Feedback\n\nPrepared by: the Office\n\n# 1 Introduction\n\nText.\n\n# 2 Scope\n\n"
          "This technique is used for Code title appendices (e.g.,\nTitle 5 Appendix).\n\n"
          "# 3 Models\n\nText.\n\n# 7 Feedback\n\nSend comments.\n")
    tree = parse_sections(md, "guide.pdf", "Guide")
    assert [s.section_id for s in tree.sections] == ["preamble", "1", "2", "3", "7"]
    assert all(s.parent_id is None for s in tree.sections)
    assert "Title 5 Appendix)." in sections_by_id(tree)["2"].text


# --- session 6 (issue 14 trial): plain-text licence and RFC shapes ---------------------------------

BOXED = """5.3. In the event of termination, all end user license agreements survive.

************************************************************************
*                                                                      *
*  6. Disclaimer of Warranty                                           *
*  -------------------------                                           *
*                                                                      *
*  Covered Software is provided under this License on an "as is"       *
*  basis, without warranty of any kind.                                *
*                                                                      *
************************************************************************

************************************************************************
*                                                                      *
*  7. Limitation of Liability                                          *
*  --------------------------                                          *
*                                                                      *
*  Under no circumstances shall any Contributor be liable to You.      *
*                                                                      *
************************************************************************

8. Litigation
-------------

Any litigation relating to this License may be brought only in the courts.
"""


def test_headings_inside_ascii_boxes_are_sections():
    """Trial 14 item 3: MPL 2.0 prints sections 6 and 7 inside ``*`` boxes; they were folded into
    5.3. A box is unwrapped before scanning (lines framed by the border character both ends)."""
    by_id = sections_by_id(parse_sections(BOXED, "MPL-2.0.txt", "Mozilla Public License"))
    assert {"5.3", "6", "7", "8"} <= set(by_id)
    assert "as is" in by_id["6"].text and "*" not in by_id["6"].text
    assert "liable to You" in by_id["7"].text and "as is" not in by_id["5.3"].text


def test_a_box_that_is_not_closed_is_left_as_written():
    text = "1. Scope\n\n**********\n*  2. Not a box  *\nplain line\n"
    tree = parse_sections(text, "x.txt", "X")
    assert "2" not in sections_by_id(tree) and "*  2. Not a box  *" in tree.sections[-1].text


RFC_APPENDIX = """Appendix D.  Backward Compatibility

D.1.  Negotiating with an Older Server

   A client that wishes to negotiate with servers.

D.2.  Negotiating with an Older Client

   A TLS server can also receive a ClientHello.

D.3.  0-RTT Backward Compatibility

   0-RTT data is not compatible with older servers.

D.4.  Middlebox Compatibility Mode

   Field measurements have found middleboxes.
"""


def test_lettered_appendix_section_whose_title_opens_with_a_digit():
    """Trial 14 item 3: RFC 8446 ``D.3.  0-RTT Backward Compatibility`` was folded into D.2 (a
    lettered label needed a capital after it); after a wide gap a digit may open the title."""
    by_id = sections_by_id(parse_sections(RFC_APPENDIX, "rfc8446.txt", "TLS 1.3"))
    assert {"D.1", "D.2", "D.3", "D.4"} <= set(by_id)
    assert by_id["D.3"].parent_id == "appendix-d" and "0-RTT data is not" in by_id["D.3"].text
    assert "0-RTT data" not in by_id["D.2"].text


LIMBS_THEN_FLUSH = """2.3. Limitations on Grant Scope

No patent license is granted by a Contributor:

(a) for any code that a Contributor has removed from Covered Software;
    or

(b) under Patent Claims infringed by Covered Software in the absence of
    its Contributions.

This License does not grant any rights in the trademarks of any
Contributor.

2.4. Subsequent Licenses

No Contributor makes additional grants.
"""


def test_flush_paragraph_after_the_last_limb_belongs_to_the_provision():
    """Trial 14 item 3: the paragraph after (b), set back to the labels' indentation while the
    limbs hang deeper, is the provision's own text, not more of (b)."""
    by_id = sections_by_id(parse_sections(LIMBS_THEN_FLUSH, "MPL-2.0.txt", "MPL"))
    assert "trademarks" not in by_id["2.3(b)"].text and "its Contributions." in by_id["2.3(b)"].text
    flush = [s for s in by_id.values() if "trademarks" in s.text]
    assert len(flush) == 1 and flush[0].parent_id == "2.3" and flush[0].section_id != "2.3(b)"
    assert "2.3 Limitations on Grant Scope" in flush[0].parent_chain


def test_flush_left_items_keep_their_paragraphs():
    """No hanging indent, no evidence where the limb ends: its second paragraph stays its own."""
    text = ("2.3. Limits\n\nIt applies:\n\n(a) to code removed;\n\n(b) to infringements caused\nby others.\n\n"
            "Such infringements are excluded.\n")
    by_id = sections_by_id(parse_sections(text, "x.txt", "X"))
    assert "Such infringements" in by_id["2.3(b)"].text
    assert not any(sid.endswith("-flush") for sid in by_id)


def test_a_wrapped_bracketed_citation_is_no_appendix_heading():
    """FIPS 200's glossary: "… [OMB Circular A-130," then a line "Appendix III]" became a section
    "Appendix I" titled "II]" that swallowed the rest of Appendix A (9 of 54 terms found). A label
    whose title closes a bracket it never opened continues the line before it."""
    text = ("APPENDIX A TERMS AND DEFINITIONS\n\n"
            "ADEQUATE SECURITY: Security commensurate with the risk and the magnitude of harm. [OMB Circular A-130,\n"
            "Appendix III]\n\n"
            "AGENCY: Any executive department or independent regulatory agency.\n\n"
            "APPENDIX B REFERENCES\n\n[1] Privacy Act of 1974.\n")
    tree = build_tree(Document("fips.txt", "FIPS", text, "txt"))
    ids = sections_by_id(tree)
    assert "appendix-a" in ids and "appendix-b" in ids
    assert not any(sid.startswith("appendix-i") for sid in ids), sorted(ids)
    assert "AGENCY: Any executive department" in ids["appendix-a"].text


def test_repeated_numbered_headings_keep_their_text_in_place():
    """Three identical numbered headings before three paragraphs are not a publisher's run of headings
    printed before their bodies (their numbers do not count on): the text stays where it is written
    (Hypothesis found ``1.1 A`` ×3 re-paired with a table and two paragraphs, reordering the text)."""
    md = "A.\n\n1.1\tA\n\n1.1\tA\n\n1.1\tA\n\n| a | b |\n|---|---|\n| a | a |\n\nA.\n\nA.\n"
    tree = build_tree(Document("doc.md", "Doc", md, "md"))
    assert "\n".join(s.heading + "\n" + s.text for s in tree.sections).split() == md.split()
