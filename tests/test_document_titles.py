"""A Word or PDF file's title is the one it states, not its file name: Word's core property
``dc:title`` or PDF ``/Title`` when plausible, else (Word) the first paragraph when the document sets
it larger than anything else, else the first heading. Truth from the packages' own parts."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.convert.docx_headings import docx_title, plausible_title
from docstrata.models import SourceFile

FIXTURES = Path(__file__).parent / "fixtures"
PILOT = FIXTURES / "common-paper" / "pilot-agreement.docx"
DSS = FIXTURES / "oasis-dss" / "dss-core-v2.0-cs02-excerpt.docx"


def _title(path: Path) -> str:
    return convert_file(SourceFile(path.name, str(path), None)).title


def test_a_word_template_without_core_title_is_titled_by_its_largest_first_paragraph():
    """Common Paper's Pilot Agreement states no ``dc:title`` and uses no Title style; its first
    paragraph, ``Pilot Agreement``, is set in 22 pt over an 8 pt body."""
    with zipfile.ZipFile(PILOT) as z:
        core = z.read("docProps/core.xml").decode()
        body = z.read("word/document.xml").decode()
    assert "<dc:title>" not in core or re.search(r"<dc:title>\s*</dc:title>", core)
    first = re.search(r"<w:body>.*?<w:t>([^<]+)</w:t>", body, re.S).group(1)
    assert first == "Pilot Agreement"
    assert _title(PILOT) == first != PILOT.stem


def test_a_word_core_title_is_the_documents_title():
    with zipfile.ZipFile(DSS) as z:
        stated = re.search(r"<dc:title>([^<]+)</dc:title>", z.read("docProps/core.xml").decode()).group(1)
    assert docx_title(DSS.read_bytes()) == stated
    assert _title(DSS) == stated


def test_placeholder_and_file_name_titles_are_not_plausible():
    for placeholder in ("Untitled", "(anonymous)", "Document1", "Microsoft Word - contract.docx", "jadn_v1_0_cs01",
                        "report.pdf", "PowerPoint Presentation", "  "):
        assert plausible_title(placeholder) is None, placeholder
    assert plausible_title("Specification for JSON Abstract Data Notation Version 1.0")
    assert plausible_title("Loi générale sur les pensions") == "Loi générale sur les pensions"


def test_a_pdf_metadata_title_not_printed_on_its_first_pages_is_not_its_title():
    """The Official Journal's PDF of Directive (EU) 2022/2555 carries /Title "Publications Office"
    (its producer); the words printed on its first page are the directive's. A /Title counts only
    when most of its words are printed on the first two pages."""
    from docstrata.convert.pdf import printed_early
    from docstrata.convert.pdf_layout import _PdfLine

    def line(page: int, text: str) -> _PdfLine:
        return _PdfLine(page, 0, text, 10.0, "Times", 0.0, 100.0, 0.0, 10.0, len(text))

    first = [line(0, "DIRECTIVE (EU) 2022/2555 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL"),
             line(0, "on measures for a high common level of cybersecurity across the Union")]
    assert not printed_early("Publications Office", first)
    assert printed_early("Directive on measures for a high common level of cybersecurity", first)
    assert not printed_early("Cybersecurity across the Union", [line(5, "cybersecurity across the Union"), *first[:1]])


def test_the_journals_rubric_is_not_the_title():
    """The Official Journal prints its rubric (``DIRECTIVES``, ``REGULATIONS``) above each act's
    title; as the first heading it would title NIS 2 "DIRECTIVES". A one-word capitals heading is
    skipped when the heading below names the same kind of act; other first headings stay."""
    from docstrata.convert import first_heading

    assert first_heading("# DIRECTIVES\n\n## DIRECTIVE (EU) 2022/2555 OF THE EUROPEAN PARLIAMENT\n") == (
        "DIRECTIVE (EU) 2022/2555 OF THE EUROPEAN PARLIAMENT"
    )
    assert first_heading("# REGULATIONS\n\n## **COMMISSION IMPLEMENTING REGULATION (EU) 2024/2981**\n") == (
        "COMMISSION IMPLEMENTING REGULATION (EU) 2024/2981"
    )
    assert first_heading("# INTRODUCTION\n\n## Scope\n") == "INTRODUCTION"
