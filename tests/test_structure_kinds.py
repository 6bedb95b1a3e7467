"""Issue 14: one small input per kind of structure failure seen on real documents (kinds 1–5
and 8; kinds 6, 7 and 9 are tested with the definitions, cross-references and XML converter).
Each input is built here, in the shape a converter really emits for that kind of document."""

from __future__ import annotations

import io

from docstrata.chunking import chunk_tree
from docstrata.convert import convert_file
from docstrata.convert.html import clean_html
from docstrata.convert.office import tidy_slides
from docstrata.convert.text import strip_inline_html
from docstrata.index.exact import alias_keys
from docstrata.models import Document, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.parse import parse_sections


def _ids(tree) -> dict[str, object]:
    return {s.section_id: s for s in tree.sections}


def _alias_owners(tree) -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {}
    for s in tree.sections:
        for a in s.aliases:
            for k in alias_keys(a):
                owners.setdefault(k, set()).add(s.section_id)
    return owners


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
    by_id = _ids(tree)
    for sid in ("11", "12", "12A", "12B", "13"):
        assert by_id[sid].parent_id == "part-2", sid
    assert by_id["12B"].title == "12B Throwing missiles"  # the title on the line after the number
    assert by_id["12A(1)"].parent_id == "12A" and by_id["12B(1)(b)"].parent_id == "12B(1)"
    assert not any(a.startswith("Section (") for s in tree.sections for a in s.aliases)  # no orphans
    assert all(len(v) == 1 for v in _alias_owners(tree).values())


def test_kind1_a_number_in_prose_is_not_a_section():
    tree = parse_sections("Part 1 General\n\n11 Begging\n\nA person must not beg.\n\n"
                          "12 months later the rule lapsed.\n", "x.txt", "X")
    assert [s.section_id for s in tree.sections] == ["part-1", "11"]


# --------------------------------------------------------------------------- kind 2

def test_kind2_containers_nest_by_kind_not_by_markdown_level():
    md = ("# Licensing Act\n\n# 29 Fees\n\nThe fee is set by regulation.\n\n### Part 4 Licences\n\n"
          "# 30 Application for a licence\n\nA person may apply.\n\n# 31 Grant\n\nThe regulator may grant.\n")
    by_id = _ids(parse_sections(md, "l.md", "Licensing Act"))
    assert by_id["part-4"].parent_id != "29"
    assert by_id["30"].parent_id == "part-4" and by_id["31"].parent_id == "part-4"


def test_kind2_gdpr_chapter_section_article():
    md = ("# Regulation\n\n## CHAPTER II\n\n## Article 5\n\nPrinciples.\n\n## CHAPTER III\n\n## Section 1\n\n"
          "## Article 12\n\nTransparent information.\n\n## Section 3\n\n## Article 16\n\nRectification.\n\n"
          "## Article 17\n\nErasure.\n\n## CHAPTER IV\n\n## Section 1\n\n## Article 24\n\nResponsibility.\n")
    tree = parse_sections(md, "gdpr.md", "Regulation")
    by_id = _ids(tree)
    art17 = by_id["article-17"]
    assert by_id[art17.parent_id].title == "Section 3" and by_id[by_id[art17.parent_id].parent_id].section_id == "chapter-iii"
    assert by_id["article-24"].parent_id == "chapter-iv/1"
    # get_section("chapter-iii") is one section; "Section 1" of two chapters answers neither bare
    assert sum(1 for s in tree.sections if s.section_id == "chapter-iii") == 1
    owners = _alias_owners(tree)
    assert all(len(v) == 1 for v in owners.values())
    assert any("Chapter IV, Section 1" in s.aliases for s in tree.sections)


def test_kind2_constitution_article_holds_sections():
    md = "ARTICLE I\n\nSection 1. Legislative power.\n\nARTICLE II\n\nSection 1. Executive power.\n"
    by_id = _ids(parse_sections(md, "c.txt", "Constitution"))
    assert by_id["article-ii/1"].parent_id == "article-ii"
    assert "Article II, Section 1" in by_id["article-ii/1"].aliases


# --------------------------------------------------------------------------- kind 3

def test_kind3_headings_before_bodies_are_re_paired():
    md = ("# Example Act 2020\n\n# 1 Short title\n\n# 2 Commencement\n\n# 3 Definitions\n\n# 4 Notes\n\n"
          "This Act is the Example Act 2020.\n\nThis Act commences on assent.\n\n"
          "In this Act, vessel means a ship.\n\nThe notes are not part of this Act.\n")
    by_id = _ids(parse_sections(md, "a.md", "Example Act 2020"))
    assert "commences" in by_id["2"].text and "vessel" in by_id["3"].text
    assert by_id["4"].text.strip() == "The notes are not part of this Act."


def test_kind3_without_evidence_the_bodies_stay_put():
    md = "# 1 Short title\n\n# 2 Commencement\n\n# 3 Notes\n\nOne paragraph only.\n"
    by_id = _ids(parse_sections(md, "a.md", "A"))
    assert not by_id["1"].text.strip() and "One paragraph" in by_id["3"].text


# --------------------------------------------------------------------------- kind 4

def test_kind4_list_items_never_take_a_headings_id():
    md = ("# Spec\n\n## 3. Processing Model\n\nSteps:\n\n1. Read the input.\n2. Tokenize it.\n\n"
          "### 3.1 Parsing\n\nParse the tokens.\n")
    tree = parse_sections(md, "s.md", "Spec")
    by_id = _ids(tree)
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
    by_id = _ids(tree)
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
    by_id = _ids(tree)
    assert "chapter-11" not in by_id and by_id["D"].parent_id == "chapter-7"
    m6 = [s for s in tree.sections if "RECORD RETENTION" in s.title][0]
    keys = {k for a in m6.aliases for k in alias_keys(a)}
    assert keys & set(alias_keys("Chapter 6, section M"))
    assert set(alias_keys("4.A.1")).isdisjoint(k for a in by_id["4.B.1"].aliases for k in alias_keys(a))
    assert all(len(v) == 1 for v in _alias_owners(tree).values())


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


def test_kind8_slides_cite_their_own_title():
    md = ("<!-- Slide number: 1 -->\n# Overview\nIntro\n\n<!-- Slide number: 2 -->\n| Quarter | Revenue |\n"
          "| --- | --- |\n| Q1 | 10 |\n# Revenue by quarter\n\n<!-- Slide number: 3 -->\nNo title here\n")
    tidy = tidy_slides(md)
    assert "Slide number" not in tidy
    tree = parse_sections(tidy, "deck.pptx", "Deck")
    chunks = chunk_tree(tree, count_tokens=_words, max_tokens=100)
    table = [c for c in chunks if "| Q1 |" in c.content][0]
    assert table.section_title == "Revenue by quarter"
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
    by_id = _ids(build_tree(doc, extract_definitions=False, extract_cross_references=False))
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
    by_id = _ids(parse_sections(md, "g.md", "Guide"))
    assert {"chapter-1", "chapter-2", "appendix-a"} <= set(by_id)
    assert by_id["chapter-1"].title.endswith("Introduction")
    assert by_id["1.1"].parent_id == "chapter-1" and by_id["2.1"].parent_id == "chapter-2"
