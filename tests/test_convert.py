"""convert stage: every supported format, pagination cleanup, HTML chrome, DOCX/PDF headings, bad input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from .conftest import shared_data

from docstrata.convert import SUPPORTED_EXTENSIONS, convert_file, normalize_heading, strip_pagination
from docstrata.errors import ConversionError
from docstrata.models import FileState, SourceFile


def source(path: Path, root: Path) -> SourceFile:
    st = path.stat()
    return SourceFile(doc_key=path.relative_to(root).as_posix(), path=str(path), state=FileState(st.st_size, st.st_mtime_ns, ""))


def convert(path: Path, root: Path | None = None):
    return convert_file(source(path, root or path.parent))


def headings(markdown: str) -> list[str]:
    return [normalize_heading(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+)$", markdown, re.MULTILINE)]


def conversion_error(path: Path) -> ConversionError:
    with pytest.raises(ConversionError) as info:
        convert(path)
    error = info.value
    assert error.file == path.name
    assert str(path.parent) not in str(error), "an absolute path leaked into the error"
    return error


# --- plain text and Markdown --------------------------------------------------------------


def test_markdown_passes_through_with_bom_removed_and_title_from_first_heading(tmp_path):
    text = "Intro before any heading.\n\n# Master Agreement\n\n## 1. Definitions\n\n\"Fee\" means the fee.\n"
    path = tmp_path / "contract.md"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    doc = convert(path)
    assert doc.markdown == text
    assert doc.title == "Master Agreement"
    assert doc.format == "md"
    assert doc.doc_key == "contract.md"


def test_legacy_and_utf16_encodings_are_detected(tmp_path):
    latin = tmp_path / "notes.txt"
    latin.write_bytes("Résumé des clauses: la société s'engage à payer l'échéance.\n".encode("cp1252"))
    assert "Résumé" in convert(latin).markdown and "échéance" in convert(latin).markdown
    utf16 = tmp_path / "wide.txt"
    utf16.write_bytes("Ünïcödé text\r\nsecond line\r\n".encode("utf-16"))
    doc = convert(utf16)
    assert doc.markdown == "Ünïcödé text\nsecond line\n"
    assert doc.title == "wide"  # no heading: the file stem


def _rfc_page(number: int, body: list[str]) -> str:
    header = "RFC 9999                 Widget Protocol                   May 2031"
    footer = f"Author                       Standards Track                  [Page {number}]"
    return "\n".join([header, "", "", *body, "", "", footer, ""])


def test_paginated_text_loses_running_lines_and_form_feeds_and_rejoins_paragraphs():
    pages = [
        ["1.  Introduction", "", "   The widget protocol moves widgets between", "   hosts over a reliable"],
        ["   transport such as TCP.  It is simple.", "", "2.  Terminology", "", "   Widget: a thing."],
        ["3.  Operation", "", "   Hosts exchange widgets.  RFC 9999 is cited here once."],
        ["4.  Security", "", "   Widgets are safe."],
    ]
    text = "\f\n".join(_rfc_page(i + 1, body) for i, body in enumerate(pages))
    cleaned, removed = strip_pagination(text)
    assert "\f" not in cleaned
    assert "Standards Track" not in cleaned and "[Page" not in cleaned
    assert "Widget Protocol" not in cleaned  # the running header
    assert removed == 2 * len(pages)
    assert "hosts over a reliable\n   transport such as TCP." in cleaned  # page break inside a paragraph
    assert "It is simple.\n\n2.  Terminology" in cleaned
    assert "RFC 9999 is cited here once." in cleaned  # body text that merely resembles a header stays
    assert strip_pagination("no pages here\n") == ("no pages here\n", 0)


def test_rfc_text_from_shared_data_has_no_page_furniture(tmp_path):
    path = shared_data("documents", "txt", "rfc8446_tls13.txt")
    doc = convert(path)
    assert "\f" not in doc.markdown
    assert not re.search(r"\[Page \d+\]", doc.markdown)
    assert not re.search(r"^RFC 8446\s+TLS\s+August 2018$", doc.markdown, re.MULTILINE)
    assert re.search(r"^4\.2\.1\.  Supported Versions$", doc.markdown, re.MULTILINE)
    assert doc.warnings and "running page header/footer" in doc.warnings[0]


# --- HTML ---------------------------------------------------------------------------------

PAGE = """<!doctype html><html><head><title>Rulebook | Example Regulator</title>
<style>.x { color: red }</style><script>var tracking = "SCRIPT-TEXT";</script></head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header><div class="logo">Example Regulator</div><nav><a href="/">Home</a><a href="/rules">All rules</a></nav></header>
<div id="cookie-consent">We use cookies. Accept all cookies?</div>
<main id="main"><article>
<h1>Conduct Rules</h1>
<h2>1 Application</h2><p>1.1 This Part applies to every firm.</p>
<h2>2 Rules</h2><p>2.1 You must act with integrity.</p>
</article></main>
<footer><p>Copyright Example Regulator. Privacy policy.</p></footer>
</body></html>"""


def test_html_keeps_content_and_headings_and_drops_site_chrome(tmp_path):
    path = tmp_path / "conduct.html"
    path.write_text(PAGE, encoding="utf-8")
    doc = convert(path)
    assert doc.title == "Conduct Rules"
    assert headings(doc.markdown) == ["conduct rules", "1 application", "2 rules"]
    assert "You must act with integrity." in doc.markdown
    for chrome in ("SCRIPT-TEXT", "color: red", "Skip to main", "All rules", "cookies", "Privacy policy"):
        assert chrome not in doc.markdown, chrome


RESPEC = """<html><body>
<section id="abstract"><h2>Abstract</h2><p>A data model for credentials.</p></section>
<section id="intro"><h1>Introduction</h1><p>Why credentials matter.</p>
  <section id="goals"><h2>Design Goals</h2><p>Goals of the design.</p></section></section>
<section id="processing"><h2>Processing</h2><p>How a verifier processes a credential.</p>
  <section id="verify"><h2>Verification</h2><p>To verify a credential, run these steps:</p>
    <ol class="algorithm"><li>Let <var>proof</var> be the credential's proof.
      <ol><li>If <var>proof</var> is missing, return failure.</li><li>Check the signature.</li></ol></li>
    <li>Return success.</li></ol>
    <section id="errors"><h2>Errors</h2><p>Errors a verifier reports.</p></section></section></section>
</body></html>"""


def test_nested_sections_nest_whatever_their_heading_rank_and_algorithm_steps_are_body_text(tmp_path):
    """Finding 1: ReSpec writes <h2> (or <h1>) in every <section>; a <section> inside a <section>
    is one level deeper. The steps of an <ol> algorithm are body text of their section, never sections."""
    from docstrata.structure import build_tree

    path = tmp_path / "vc.html"
    path.write_text(RESPEC, encoding="utf-8")
    tree = build_tree(convert(path))
    parent = {s.title: tree.section(s.parent_id).title if s.parent_id else None for s in tree.sections}
    assert parent["Design Goals"] == "Introduction" and parent["Verification"] == "Processing"
    assert parent["Errors"] == "Verification" and parent["Processing"] is None and parent["Introduction"] is None
    verification = next(s for s in tree.sections if s.title == "Verification")
    assert "Let proof be" in verification.text and "Return success." in verification.text
    assert not [s for s in tree.sections if s.parent_id == verification.section_id and s.title != "Errors"]
    # a list that prints its own numbers (a legislation rendering) holds provisions, not steps
    statute = tmp_path / "statute.html"
    statute.write_text("<h2>§ 3 Zuschlag</h2><p>(2) Gezahlt werden:</p><ol><li><span>1.</span> bis zu 500 Euro,</li>"
                       "<li><span>2.</span> bis zu 800 Euro.</li></ol>", encoding="utf-8")
    assert convert(statute).list_items is True and convert(path).list_items is False


def test_section_headings_that_agree_with_their_nesting_are_left_alone():
    from bs4 import BeautifulSoup

    from docstrata.convert.html import nest_section_headings

    bikeshed = BeautifulSoup("<h1>Spec</h1><section><h2>1 A</h2><section><h4>1.1 B</h4></section></section>"
                             "<section><h2>2 C</h2></section>", "lxml")
    assert nest_section_headings(bikeshed) == 0 and bikeshed.find("h4") is not None
    deep = BeautifulSoup("<h1>Spec</h1>" + "<section><h2>x</h2>" * 7 + "</section>" * 7, "lxml")
    assert nest_section_headings(deep) > 0
    assert [h.name for h in deep.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])] == [
        "h1", "h2", "h3", "h4", "h5", "h6", "h6", "h6"]  # below the title, capped at Markdown's six


def test_wikipedia_html_headings_match_docling_groundtruth():
    original = shared_data("documents", "html", "docling_wiki_duck.html")
    reference = shared_data("documents", "groundtruth_md", "docling_wiki_duck.html.md").read_text(encoding="utf-8")
    ours = headings(convert(original).markdown)
    expected = headings(reference)
    assert sum(1 for h in expected if h in ours) >= 0.9 * len(expected)
    assert "jump to content" not in convert(original).markdown.lower()


# --- Office formats -----------------------------------------------------------------------


def test_docx_keeps_heading_styles_title_and_word_auto_numbers():
    doc = convert(shared_data("documents", "docx", "docling_unit_test_headers_numbered.docx"))
    found = [line for line in doc.markdown.splitlines() if line.startswith("#")]
    assert "# Test Document" in found  # Word "Title" style
    for heading in ("# 1. Section 1", "## 1.1. Section 1.1", "### 1.2.1. Section 1.2.3", "## 2.2. Section 2.1"):
        assert heading in found, (heading, found)
    sample = convert(shared_data("documents", "docx", "docling_word_sample.docx"))
    assert {"swimming in the lake", "let s swim", "let s eat"} <= set(headings(sample.markdown))


def test_pptx_and_xlsx_convert_through_markitdown(tmp_path):
    from openpyxl import Workbook
    from pptx import Presentation

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Quarterly Risk Review"
    slide.placeholders[1].text = "Liquidity coverage ratio above 130%"
    deck.save(tmp_path / "review.pptx")
    text = convert(tmp_path / "review.pptx").markdown
    assert "Quarterly Risk Review" in text and "Liquidity coverage ratio above 130%" in text

    book = Workbook()
    book.active.append(["Clause", "Obligation"])
    book.active.append(["4.2", "Notify the regulator within 5 days"])
    book.save(tmp_path / "obligations.xlsx")
    sheet = convert(tmp_path / "obligations.xlsx")
    assert "Notify the regulator within 5 days" in sheet.markdown and sheet.format == "xlsx"


# --- PDF ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pdf, twin",
    [("us_constitution.pdf", "us_constitution.md"), ("uslm_user_guide.pdf", "uslm_user_guide.md")],
)
def test_pdf_headings_recovered_from_outline_or_fonts(pdf, twin):
    """The constitution has an outline; the USLM guide has none (fonts + numbering)."""
    doc = convert(shared_data("documents", "pdf", pdf))
    expected = headings(shared_data("documents", "md", twin).read_text(encoding="utf-8"))
    ours = headings(doc.markdown)
    pool = list(ours)
    matched = 0
    for h in expected:
        if h in pool:
            pool.remove(h)
            matched += 1
    assert matched >= 0.9 * len(expected), (matched, len(expected))
    assert len(ours) <= 1.25 * len(expected), "too many false headings"


def test_pdf_running_headers_page_numbers_and_toc_are_not_headings():
    doc = convert(shared_data("documents", "pdf", "uslm_user_guide.pdf"))
    lines = doc.markdown.splitlines()
    assert not any(line.startswith("#") and "...." in line for line in lines), "TOC entries became headings"
    assert sum(1 for line in lines if line.strip() == "User Guide") == 0  # running header on every page
    assert "## 1.2 PRINCIPLES" in lines and "### 1.2.2 Leverage Existing Standards" in lines
    assert doc.format == "pdf" and doc.title


def test_pdf_text_keeps_word_spacing():
    doc = convert(shared_data("documents", "pdf", "us_constitution.pdf"))
    assert "All legislative Powers herein granted shall be vested" in doc.markdown
    assert "### Section 1" in doc.markdown.splitlines()


# --- bad input ----------------------------------------------------------------------------


def test_empty_and_whitespace_files_are_rejected(tmp_path):
    for name, data in (("empty.md", b""), ("blank.txt", b"  \n\n "), ("empty.pdf", b"")):
        (tmp_path / name).write_bytes(data)
        assert conversion_error(tmp_path / name).reason == "empty file"


def test_binary_file_named_md_is_rejected(tmp_path):
    path = tmp_path / "logo.md"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4)
    assert conversion_error(path).reason == "not text: binary content in a .md file"


def test_corrupt_pdf_and_office_files_are_rejected(tmp_path):
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\ngarbage\x00\xff" * 20)
    assert conversion_error(tmp_path / "broken.pdf").reason.startswith(("corrupt PDF", "no text layer"))
    (tmp_path / "fake.pdf").write_text("just some text pretending to be a PDF", encoding="utf-8")
    assert conversion_error(tmp_path / "fake.pdf").reason.startswith("corrupt PDF")
    (tmp_path / "fake.docx").write_bytes(b"PK\x03\x04 this zip is truncated")
    assert conversion_error(tmp_path / "fake.docx").reason.startswith("corrupt .docx")
    (tmp_path / "plain.xlsx").write_text("a,b\n1,2\n", encoding="utf-8")
    assert conversion_error(tmp_path / "plain.xlsx").reason.startswith("corrupt .xlsx")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file_is_rejected(tmp_path):
    path = tmp_path / "secret.md"
    path.write_text("# Secret\n", encoding="utf-8")
    path.chmod(0)
    try:
        assert conversion_error(path).reason == "permission denied"
    finally:
        path.chmod(0o600)


def test_unknown_types_are_rejected_with_a_reason(tmp_path):
    (tmp_path / "photo.gif").write_bytes(b"GIF89a")
    assert conversion_error(tmp_path / "photo.gif").reason == "unsupported file type '.gif'"
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0")  # images are read by OCR: a broken one says so
    assert conversion_error(tmp_path / "photo.jpg").reason.startswith("cannot read this .jpg image")
    assert SUPPORTED_EXTENSIONS >= {"md", "txt", "html", "pdf", "docx", "pptx", "xlsx", "xml"}


def test_importing_convert_does_not_load_converter_libraries():
    code = "import sys, docstrata.convert; print(sorted(m for m in ('markitdown', 'pdfminer', 'bs4') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_missing_file_and_directory_are_rejected(tmp_path):
    (tmp_path / "folder.md").mkdir()
    assert conversion_error(tmp_path / "folder.md").reason == "is a directory, not a file"
    gone = SourceFile(doc_key="gone.md", path=str(tmp_path / "gone.md"), state=FileState(1, 0, ""))
    with pytest.raises(ConversionError, match="file not found"):
        convert_file(gone)


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_reportlab_pdf_numbered_headings_and_consecutive_clauses():
    """tests/fixtures/warranty.pdf (reportlab): an 18 pt title directly above an 18 pt "1. Warranty
    Period", then 10 pt clauses "1.1 …", "1.2 …" on consecutive lines; metadata title "(anonymous)"."""
    from docstrata.structure.parse import parse_sections

    doc = convert(FIXTURES / "warranty.pdf")
    assert doc.title == "Product Warranty Terms"
    assert headings(doc.markdown) == ["product warranty terms", "1 warranty period", "2 exclusions", "3 claims"]
    tree = parse_sections(doc.markdown, doc.doc_key, doc.title)
    got = [s.section_id for s in tree.sections]
    for sid in ("1", "1.1", "1.2", "2", "2.1", "2.2", "3", "3.1"):
        assert sid in got, (sid, got)
    assert "Batteries" in tree.section("1.2").text and "Batteries" not in tree.section("1.1").text
    assert tree.section("1.2").parent_id == "1" and tree.section("2.2").parent_id == "2"


def _pdf_line(page: int, box: int, text: str, size: float, y0: float) -> "_PdfLine":
    from docstrata.convert.pdf_layout import _PdfLine

    return _PdfLine(page=page, box=box, text=text, size=size, font="Arial", x0=90.0, x1=300.0,
                    y0=y0, y1=y0 + size, chars=len(text))


def test_pdf_outline_matches_number_words_and_a_label_set_apart_from_its_title():
    """The bookmark "Chapter 1: Introduction" names the printed "CHAPTER ONE" over "INTRODUCTION"
    (two boxes, two styles); "1.1 Purpose" matches one line; body text stays body text."""
    from docstrata.convert.pdf_headings import _apply_outline

    lines = [
        _pdf_line(1, 1, "CHAPTER ONE", 13.0, 697.0), _pdf_line(1, 2, "INTRODUCTION", 14.5, 663.0),
        _pdf_line(1, 3, "The need to protect information.", 11.0, 600.0),
        _pdf_line(2, 4, "1.1 Purpose", 12.0, 700.0), _pdf_line(2, 5, "Body text.", 11.0, 650.0),
        _pdf_line(3, 6, "CHAPTER TWO", 13.0, 697.0), _pdf_line(3, 7, "THE FUNDAMENTALS", 14.5, 663.0),
    ]
    outline = [(1, "Chapter 1: Introduction"), (2, "1.1 Purpose"), (1, "Chapter 2: The Fundamentals")]
    assert _apply_outline(lines, outline)
    marked = [(line.level, line.text) for line in lines if line.level]
    assert marked == [(1, "Chapter 1: Introduction"), (2, "1.1 Purpose"), (1, "Chapter 2: The Fundamentals")]
    assert lines[1].text == "" and lines[2].level == 0 and lines[4].level == 0


def test_pdf_running_footer_naming_the_current_chapter_is_dropped():
    """A footer that changes with the chapter ("CHAPTER 1" on pages 1-3, "APPENDIX B" on 4-6)
    (3 pages each of 24) never reaches a quarter of the pages, but recurs on consecutive pages, so it is dropped."""
    from docstrata.convert.pdf import _drop_running_lines

    words = [a + b for a in ("alpha", "bravo", "charlie") for b in ("dot", "echo", "fox", "golf", "hotel", "ink", "jet", "kilo")]
    lines = []
    for page, word in enumerate(words, start=1):
        footer = "CHAPTER 1" if page <= 3 else "APPENDIX B" if page <= 6 else f"Note on {word}"
        lines.append(_pdf_line(page, 10 * page, f"About {word}", 14.0, 700.0))
        lines += [_pdf_line(page, 10 * page + 1, f"{word} body line {row}", 11.0, 600.0 - 50 * n) for n, row in enumerate("abcd")]
        lines.append(_pdf_line(page, 10 * page + 2, footer, 8.0, 35.0))
    lines[6 * 9 + 5].text = "Only once at the bottom"
    kept = [line.text for line in _drop_running_lines(lines, len(words))]  # a quarter is 6 pages
    assert "CHAPTER 1" not in kept and "APPENDIX B" not in kept
    assert "Only once at the bottom" in kept and "Note on bravogolf" in kept and "alphaecho body line b" in kept


def test_pdf_outline_entry_laid_out_before_the_previous_one_on_its_page_is_found():
    """pdfminer can put a heading before the heading above it on the same page (a margin glyph
    joined its line: "8 3.4 CONFIGURATION"); the entry is found there, not in a later table row
    that repeats its title, and a contents line with dot leaders is never taken. Printed below
    3.3 and its body, it moves there (the outline and the page agree on the order)."""
    from docstrata.convert.pdf_headings import _apply_outline

    lines = [
        _pdf_line(1, 1, "3.3 AUDIT ........ 9", 10.0, 700.0), _pdf_line(1, 2, "3.4 CONFIGURATION ........ 12", 10.0, 690.0),
        _pdf_line(2, 3, "3.2 AWARENESS", 11.0, 700.0), _pdf_line(2, 4, "Body.", 11.0, 650.0),
        _pdf_line(3, 5, "8 3.4 CONFIGURATION", 11.0, 300.0), _pdf_line(3, 6, "3.3 AUDIT", 11.0, 700.0),
        _pdf_line(3, 7, "Audit body.", 11.0, 650.0),
        _pdf_line(9, 8, "3.4 CONFIGURATION", 9.0, 650.0), _pdf_line(9, 9, "Table row.", 9.0, 600.0),
    ]
    assert _apply_outline(lines, [(2, "3.2 Awareness"), (2, "3.3 Audit"), (2, "3.4 Configuration")])
    assert [i for i, line in enumerate(lines) if line.level] == [2, 4, 6]
    # 3.4, printed under 3.3 and its body, now stands there in the reading order too
    assert [line.text for line in lines[4:7]] == ["3.3 AUDIT", "Audit body.", "3.4 Configuration"]
    assert lines[7].level == 0 and lines[0].level == 0


SPEC_WITH_CHROME_WORDS = """<html><body>
<nav class="navbar"><a href="#a">Home</a> <a href="#b">Docs</a></nav>
<div id="cookie-banner"><p>We use cookies. <a href="/privacy">Learn more</a></p></div>
<ul class="share-links"><li><a href="https://x.example/share">Share</a></li></ul>
<h1>HTTP State Management Mechanism</h1>
<ul class="toc"><li><a href="#s1">1.</a> <a href="#intro">Introduction</a></li>
<li><a href="#s2">2.</a> <a href="#sane-set-cookie">Set-Cookie</a><ul><li><a href="#s2.1">2.1.</a> <a href="#cookie-date">Dates</a></li></ul></li>
<li><a href="#s3">3.</a> References<ul><li><a href="#s3.1">3.1.</a> Normative References</li></ul></li></ul>
<section id="intro"><h2 id="s1"><a href="#s1">1.</a> <a href="#intro">Introduction</a></h2>
<p>This document defines cookies; see <a href="#cookie-date">Section 2.1</a> and [<a href="#RFC1034">RFC1034</a>].</p></section>
<section id="sane-set-cookie"><h2 id="s2"><a href="#s2">2.</a> <a href="#sane-set-cookie">Set-Cookie</a></h2>
<p>The Set-Cookie header field sends a cookie from the server to the user agent.</p>
<section id="cookie-date"><h3 id="s2.1">2.1. Dates</h3><p>The user agent parses the cookie-date.</p></section>
</section>
<section id="refs"><h2 id="s3">3. References</h2><section><h3 id="s3.1">3.1. Normative References</h3>
<dl><dt id="RFC1034">[<a href="#RFC1034">RFC1034</a>]</dt><dd>Mockapetris, P., "Domain names", RFC 1034.</dd></dl>
</section></section>
</body></html>"""


def test_html_chrome_words_in_ids_never_remove_the_documents_sections(tmp_path):
    """RFC 6265's ``<section id="sane-set-cookie">`` and ``id="cookie-date"`` contain the chrome
    word "cookie": they hold numbered headings, so they stay (before: 20 of its 58 sections were
    silently dropped). A nav, a short cookie banner, a share bar and the page's own contents list
    still go. Headings are plain
    text (no link syntax), an in-page link to a reference entry becomes its words while a link to
    a section stays for the cross-reference pass, and a reference ``<dl>`` yields no definitions."""
    path = tmp_path / "rfc.html"
    path.write_text(SPEC_WITH_CHROME_WORDS, encoding="utf-8")
    doc = convert(path)
    assert re.findall(r"^#+ .*$", doc.markdown, re.M) == [
        "# HTTP State Management Mechanism", "## 1. Introduction", "## 2. Set-Cookie", "### 2.1. Dates",
        "## 3. References", "### 3.1. Normative References"]
    assert "The user agent parses the cookie-date." in doc.markdown
    for chrome in ("We use cookies", "Share", "Home", "(#s1)", "[Dates]"):  # (the page's own contents list too)
        assert chrome not in doc.markdown, chrome
    assert "[Section 2.1](#cookie-date)" in doc.markdown and "[RFC1034] Mockapetris" in doc.markdown
    assert "](#RFC1034)" not in doc.markdown
    from docstrata.structure import build_tree

    tree = build_tree(doc)
    assert not [d for d in tree.definitions if "RFC1034" in d.term or "Mockapetris" in d.definition]
    assert [s.section_id for s in tree.sections if s.number] == ["1", "2", "2.1", "3", "3.1"]


def test_pdf_outline_without_numbers_matches_numbered_headings_and_list_items_stay_body():
    """The USLM 2.1 Review Guide's bookmarks leave out the printed numbers ("Introduction" for
    "1 Introduction"): the outline still matches and decides the headings, so the numbered points
    "2. Support ongoing maintenance…" are body text and the headings keep their numbers; a contents
    page whose page numbers stand in a column of their own ("1.1 Scope . . . . .") is a contents
    page, its lines are not taken as the headings."""
    from docstrata.convert.pdf_headings import _apply_outline

    lines = [
        _pdf_line(1, 1, "Contents", 14.0, 750.0), _pdf_line(1, 2, "1 Introduction", 11.0, 720.0),
        _pdf_line(1, 3, "1.1 Scope . . . . . . . . . . . .", 11.0, 700.0),
        _pdf_line(1, 3, "1.2 Goals . . . . . . . . . . . .", 11.0, 690.0),
        _pdf_line(1, 3, "1.3 Terms . . . . . . . . . . . .", 11.0, 685.0), _pdf_line(1, 4, "2 Background", 11.0, 680.0),
        _pdf_line(2, 5, "1 Introduction", 16.0, 720.0), _pdf_line(2, 6, "This guide explains it.", 11.0, 690.0),
        _pdf_line(2, 7, "1.1 Scope", 13.0, 650.0), _pdf_line(2, 8, "The goals were:", 11.0, 620.0),
        _pdf_line(2, 9, "2. Support ongoing maintenance of the Code.", 11.0, 600.0),
        _pdf_line(3, 10, "2 Background", 16.0, 720.0), _pdf_line(3, 11, "History.", 11.0, 690.0),
    ]
    assert _apply_outline(lines, [(1, "Introduction"), (2, "Scope"), (1, "Background")])
    assert [(i, line.level, line.text) for i, line in enumerate(lines) if line.level] == [
        (6, 1, "1 Introduction"), (8, 2, "1.1 Scope"), (11, 1, "2 Background")]


def test_a_contents_heading_or_a_numbered_section_is_never_the_document_title(tmp_path):
    (tmp_path / "guide.md").write_text("# Contents\n\n1 Introduction\n\n# 1 Introduction\n\nText.\n", encoding="utf-8")
    assert convert(tmp_path / "guide.md").title == "guide"
    (tmp_path / "manual.md").write_text("# Table of Contents\n\n# Introduction\n\nText.\n", encoding="utf-8")
    assert convert(tmp_path / "manual.md").title == "manual"  # the heading after the contents is a section
    (tmp_path / "toc.html").write_text("<html><head><title>Widget Guide</title></head><body><h1>Table of Contents</h1>"
                                       "<p>Intro.</p><h2>Scope</h2><p>Text.</p></body></html>", encoding="utf-8")
    assert convert(tmp_path / "toc.html").title == "Widget Guide"
    (tmp_path / "widget.md").write_text("# Widget Manual\n\n## Contents\n\n## 1 Scope\n", encoding="utf-8")
    assert convert(tmp_path / "widget.md").title == "Widget Manual"


def test_an_id_like_html_title_is_not_the_document_title():
    from docstrata.convert.html import _html_title

    page = b"<html><head><title>L_2022152EN.01000101.xml</title></head><body><h1>Regulation on data governance</h1></body></html>"
    assert _html_title(page) == "Regulation on data governance"
    bare = b"<html><head><title>L_2022152EN.01000101.xml</title></head><body><p>text</p></body></html>"
    assert _html_title(bare) is None
    assert _html_title(b"<html><head><title>Data Governance Act</title></head><body></body></html>") == "Data Governance Act"


def test_pdf_running_header_mirrored_on_facing_pages_is_dropped():
    """An Act's Schedule pages print their running header mirrored on facing pages ("Schedule 2
    Amendments commencing 1 January 2023" on even pages, the parts the other way round on odd ones;
    a new user's trial, Australian Act C2021A00135): neither variant reaches a quarter of the pages
    nor recurs verbatim on three, but together they run over four consecutive pages: one header."""
    from docstrata.convert.pdf import _drop_running_lines

    lines = []
    for page in range(1, 13):
        word = ("alpha", "bravo", "charlie", "delta", "echo", "fox", "golf", "hotel", "ink", "jet", "kilo", "lima")[page - 1]
        if 5 <= page <= 8:
            header = "Schedule 2  Amendments commencing 1 January 2023" if page % 2 == 0 else "Amendments commencing 1 January 2023  Schedule 2"
        else:
            header = f"About {word}"
        lines.append(_pdf_line(page, 10 * page, header, 9.0, 760.0))
        lines += [_pdf_line(page, 10 * page + 1, f"{word} body line {row}", 11.0, 600.0 - 50 * n) for n, row in enumerate("abcd")]
    kept = [line.text for line in _drop_running_lines(lines, 12)]
    assert not any("Amendments commencing" in t for t in kept), [t for t in kept if "Amendments" in t]
    assert "fox body line a" in kept and "About bravo" in kept
