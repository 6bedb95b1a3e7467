"""Text a PDF draws inside form XObjects: a legislation.gov.uk print PDF draws each page's whole
body as a form, and pdfminer.six lays out only the characters drawn directly on the page — so the
Act read as pages "without a text layer" and all but the OCR'd pages were lost (trial 19).

Fixture: pages 1–9 of the Computer Misuse Act 1990 (``tests/fixtures/uk-act-print``, see its
NOTICE.md), converted as ingest converts it. Truth is each page's text as PDFium (pypdfium2, an
engine independent of pdfminer) reads it.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from .conftest import convert_path

ACT = Path(__file__).parent / "fixtures" / "uk-act-print" / "computer-misuse-act-1990-pp1-9.pdf"
_WORD = re.compile(r"\w+")
_PROVISION_START = re.compile(r"^\s*(\d+\.—\(1\)|\(\d+\))", re.M)  # "2.—(1)", "(3)" opening a line


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()  # "oﬀence" (ligature glyph) = "offence"


@pytest.fixture(scope="module")
def act():
    pdfium = pytest.importorskip("pypdfium2")
    pdf = pdfium.PdfDocument(ACT)
    try:
        truth = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()
    doc = convert_path(ACT)
    ends = [*doc.page_offsets[1:], len(doc.markdown)]
    pages = [doc.markdown[start:end] for start, end in zip(doc.page_offsets, ends)]
    return doc, truth, pages


def test_every_page_with_text_keeps_its_words(act):
    """Each page PDFium reads text from has its words in the converted page (running header
    lines aside, which the converter drops on purpose), at its own page number."""
    doc, truth, pages = act
    assert len(pages) == len(truth)
    with_text = [i for i, text in enumerate(truth) if text.strip()]
    assert len(with_text) >= 3
    for i in with_text:
        words = _WORD.findall(_norm(truth[i]))
        ours = set(_WORD.findall(_norm(pages[i])))
        share = sum(word in ours for word in words) / len(words)
        assert share >= 0.95, (i + 1, share)


def test_provisions_in_reading_order(act):
    """The provisions a page opens lines with ("3.—(1)", "(2)", …) come in the page's own order."""
    _, truth, pages = act
    for text, ours in zip(truth, pages):
        at = 0
        for m in _PROVISION_START.finditer(text):
            rest = text[m.start() :].strip()
            probe = _norm(" ".join(rest.split()[:4]))  # the label and the words after it
            found = _norm(" ".join(ours.split())).find(probe, at)
            assert found >= 0, probe
            at = found + 1


def test_sections_of_the_act_are_there(act):
    """Sections 1–4 of the Act (on pages 3–5 of the print) with their opening words."""
    doc, _, _ = act
    text = _norm(" ".join(doc.markdown.split()))
    for number, words in [
        ("1.—(1)", "a person is guilty of an offence if"),
        ("2.—(1)", "a person is guilty of an offence under this section if he commits"),
        ("3.—(1)", "a person is guilty of an offence if"),
        ("4.—(1)", "except as provided below in this section"),
    ]:
        assert f"{number} {words}" in text, number


def test_no_text_layer_warning_only_for_textless_pages(act):
    """No page with a text layer is reported as without one, and none is read by OCR."""
    doc, truth, _ = act
    for warning in doc.warnings:
        assert "read by OCR" not in warning
        if "no text layer" in warning:
            named = {int(n) for n in re.findall(r"\d+", warning.split("have")[0])}
            assert all(not truth[page - 1].strip() for page in named), warning
