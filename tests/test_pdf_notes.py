"""Page footnotes and reading order in PDFs of EU acts (a Council PE-CONS print, the Official
Journal): notes under a short separator rule are Markdown footnotes, never recitals or sections;
a paragraph label at the top of a page is the paragraph's, not page furniture; a folio above the
footer's lowest rows is a page number; a centred title pdfminer reads before its ``Article 12``
label stays that Article's title, and a long one set on two lines is read whole; a smaller
``CHAPTER I`` over its bold title starts that heading; a letter-spaced ``Section 1`` reads whole.

The layout test builds a PE-CONS-like page set with ``pdf_writer`` (positions, sizes and the
separator rule as the Council prints them) and reads it through pdfminer exactly as ingest does.
The real-document test reads an excerpt of the Official Journal print of Regulation (EU) 2016/679
from ``$DOCSTRATA_EURLEX_DIR`` (source in ``tests/fixtures/eurlex/NOTICE.md``) and skips otherwise.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.structure import build_tree

from .conftest import convert_path, external_file
from .pdf_writer import Run, pdf_bytes

A4 = (595.0, 842.0)
BODY = [
    "In the digital age, information and communication technology supports complex systems",
    "used for everyday activities. It keeps our economies running in key sectors, including",
    "the financial sector, and enhances the functioning of the internal market.",
]


def _centred(y: float, text: str) -> Run:
    """``text`` in 12 pt Times-Italic centred on the page (widths from the font's AFM metrics)."""
    from pdfminer.fontmetrics import FONT_METRICS

    widths = FONT_METRICS["Times-Italic"][1]
    width = sum(widths.get(ch, 500) for ch in text) * 12.0 / 1000
    return Run((A4[0] - width) / 2, y, text, 12.0, "F5")


def _footer(folio: int) -> list[Run]:
    """The Council's footer: document number, unit, folio on one row, "EN" and the DG lower."""
    return [Run(57, 50, "PE-CONS 41/22"), Run(406, 50, "MCA"), Run(278, 34, "ECOFIN"), Run(533, 50, str(folio)),
            Run(516, 29, "EN", 18, "F4")]  # fmt: skip


def _recital_page(n: int, folio: int) -> list[Run]:
    """A page of 28 lines opening with recital ``(n)``: its label at the top row, in a box of its own
    (full pages of body text, as a real act has, keep the italic of the Article headings rare)."""
    words = ["Union", "Member", "financial", "digital", "market"]
    return (
        [Run(57, 761, f"({n})")]
        + [
            Run(99, 761 - 21 * k, f"{words[(n + k) % 5].capitalize()} {BODY[k % 3].split(' ', 1)[1]}")
            for k in range(28)
        ]
        + _footer(folio)
    )


def _pe_cons_pdf(tmp_path: Path) -> Path:
    first = [
        Run(57, 761, "Having regard to the opinion of the European Central Bank"), Run(360, 766, "1", 8), Run(364, 761, ","),
        Run(57, 728, "Acting in accordance with the ordinary legislative procedure"), Run(357, 733, "2", 8),
        Run(361, 728, ","), Run(57, 695, "Whereas:"), Run(57, 662, "(1)"),
        *[Run(99, 662 - 21 * k, line) for k, line in enumerate(BODY)],
        Run(57, 121, "1", 8), Run(93, 121, "OJ C 343, 26.8.2021, p. 1."),
        Run(57, 107, "2", 8), Run(93, 107, "Position of the European Parliament of 10 November 2022 (not yet published in the"),
        Run(93, 93, "Official Journal) and decision of the Council of 28 November 2022."),
        *_footer(1),
    ]  # fmt: skip
    last = [
        Run(57, 761, "(6)"), Run(99, 761, "The use of ICT has in the past decades gained a pivotal role in the provision of"),
        Run(99, 740, "financial services, to the point where it has acquired a critical importance."),
        Run(57, 700, "HAVE ADOPTED THIS REGULATION:"),
        _centred(655, "Article 12"),
        _centred(634, "Backup policies and procedures, restoration and recovery procedures and methods"),
        Run(57, 601, "1."), Run(99, 601, "For the purpose of ensuring the restoration of ICT systems and data with minimum"),
        Run(99, 580, "downtime, financial entities shall develop and document backup policies."),
        Run(57, 547, "2."), Run(99, 547, "Financial entities shall set up backup systems that can be activated."),
        _centred(500, "Article 13"),
        _centred(479, "Operational or security payment-related incidents concerning credit institutions, payment"),
        _centred(458, "institutions, account information service providers, and electronic money institutions"),
        Run(57, 425, "The requirements laid down in this Chapter shall also apply to payment-related incidents."),
        *_footer(6),
    ]  # fmt: skip
    pages = [first, _recital_page(2, 2), _recital_page(3, 3), _recital_page(4, 4), _recital_page(5, 5), last]
    footer_rule = (55, 66, 485, 1)
    rules = {0: [(57, 147, 144, 0.5), footer_rule], **{k: [footer_rule] for k in range(1, 6)}}
    path = tmp_path / "pe-cons.pdf"
    path.write_bytes(pdf_bytes(pages, *A4, rules=rules))
    return path


@pytest.fixture(scope="module")
def pe_cons(tmp_path_factory):
    doc = convert_path(_pe_cons_pdf(tmp_path_factory.mktemp("pe-cons")))
    return doc, build_tree(doc, extract_definitions=False, extract_cross_references=False)


def test_notes_under_the_rule_are_footnotes_not_sections(pe_cons):
    doc, tree = pe_cons
    assert "[^1]: OJ C 343, 26.8.2021, p. 1." in doc.markdown
    # a note's second line is part of it, not a paragraph of its own ("28 November 2022." is no section)
    assert re.search(
        r"^\[\^2\]: Position of the European Parliament .* Official Journal\) and decision", doc.markdown, re.M
    )
    ids = [s.section_id for s in tree.sections]
    assert not [i for i in ids if re.fullmatch(r"\d+", i)], ids  # no bare-numbered section from a marker or folio


def test_recitals_keep_their_labels_at_page_tops(pe_cons):
    _, tree = pe_cons
    by_id = {s.section_id: s for s in tree.sections}
    assert [i for i in by_id if i.startswith("recital-")] == [f"recital-{n}" for n in range(1, 7)]
    assert by_id["recital-1"].text.startswith("(1) In the digital age")
    assert by_id["recital-3"].text.startswith("(3) Digital the digital age")
    assert by_id["recital-6"].text.startswith("(6) The use of ICT")
    assert "PE-CONS" not in by_id["recital-3"].text and not re.search(r"^\d+$", by_id["recital-3"].text, re.M)


def test_title_read_before_its_label_and_a_title_on_two_lines(pe_cons):
    _, tree = pe_cons
    by_id = {s.section_id: s for s in tree.sections}
    assert (
        by_id["article-12"].title
        == "Article 12 Backup policies and procedures, restoration and recovery procedures and methods"
    )
    assert by_id["article-13"].title == (
        "Article 13 Operational or security payment-related incidents concerning credit institutions, payment "
        "institutions, account information service providers, and electronic money institutions"
    )
    assert by_id["article-12(1)"].parent_id == "article-12"
    assert by_id["article-13"].parent_id == by_id["article-12"].parent_id


# the first words of recitals 1-10 of Regulation (EU) 2016/679 as the Official Journal prints them
GDPR_RECITALS = [
    "The protection of natural persons", "The principles of, and rules on", "Directive 95/46/EC of the European",
    "The processing of personal data", "The economic and social integration", "Rapid technological developments",
    "Those developments require", "Where this Regulation provides", "The objectives and principles",
    "In order to ensure a consistent",
]  # fmt: skip


@pytest.fixture(scope="module")
def gdpr_excerpt(tmp_path_factory):
    """Pages 1, 2, 32, 39 and 40 of the Official Journal print of the GDPR (recitals 1-10 with the
    notes (1)-(4) under a rule, CHAPTER I with Articles 1-3, Articles 10-13 with CHAPTER III), cut
    with pypdfium2 keeping the text layer."""
    import pypdfium2 as pdfium

    src = external_file(
        "DOCSTRATA_EURLEX_DIR", "32016R0679.pdf", "the Official Journal PDF of Regulation (EU) 2016/679"
    )
    out = tmp_path_factory.mktemp("gdpr") / "gdpr-excerpt.pdf"
    dst = pdfium.PdfDocument.new()
    dst.import_pages(pdfium.PdfDocument(str(src)), [0, 1, 31, 38, 39])
    dst.save(str(out))
    doc = convert_path(out)
    return doc, build_tree(doc, extract_definitions=False, extract_cross_references=False)


def test_official_journal_notes_recitals_and_chapters(gdpr_excerpt):
    doc, tree = gdpr_excerpt
    notes = re.findall(r"^\[\^(\d+)\]: (.*)$", doc.markdown, re.M)
    assert [n for n, _ in notes] == ["1", "2", "3", "4"]
    assert notes[0][1] == "OJ C 229, 31.7.2012, p. 90."
    assert notes[3][1].startswith("Directive 95/46/EC of the European Parliament") and notes[3][1].endswith("p. 31).")
    by_id = {s.section_id: s for s in tree.sections}
    assert not [i for i in by_id if re.fullmatch(r"\d+", i) or re.fullmatch(r"recital-\d+\(\d+\)", i)]
    for n, words in enumerate(GDPR_RECITALS, start=1):
        text = " ".join(by_id[f"recital-{n}"].text.split())
        assert text.startswith(f"({n}) {words}"), (n, text[:60])

    def title(sid: str) -> str:
        return " ".join(by_id[sid].title.split())

    assert title("chapter-i") == "CHAPTER I General provisions"
    assert by_id["article-1"].parent_id == "chapter-i"
    assert title("chapter-iii") == "CHAPTER III Rights of the data subject"
    assert title("article-12") == (
        "Article 12 Transparent information, communication and modalities for the exercise of the rights of the data subject"
    )
    # the Section heading is set letter-spaced: pdfminer reads "S ect i on  1 / Transpa re n cy …"
    section = next(s for s in tree.sections if s.title.startswith("Section 1"))
    assert " ".join(section.title.split()) == "Section 1 Transparency and modalities"
    assert section.parent_id == "chapter-iii"
    assert by_id["article-12"].parent_id == section.section_id
