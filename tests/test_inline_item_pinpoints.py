"""Items a Word clause runs into its own paragraph are pinpoints of that clause (``pinpoint.py``).

The Common Paper Independent Contractor Agreement (CC BY 4.0, tests/fixtures/common-paper/NOTICE.md)
writes clause 5.1 as one paragraph: ``Non-Use and Non-Disclosure. Unless otherwise authorized in the
Agreement, Contractor will (a) only use Confidential Information …; and (b) not disclose Confidential
Information to anyone else. In addition, …``. Its ``(a)`` and ``(b)`` are no paragraphs of their
own, so no section ``5.1(b)`` exists; before, "Section 5.1(b)" cited the whole of 5.1. Truth is the
paragraph's text as ``word/document.xml`` holds it (its ``w:t`` runs), never our output.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from docstrata.chunking import chunk_tree
from docstrata.convert import convert_file
from docstrata.index.exact import query_section_keys
from docstrata.models import FileState, SourceFile
from docstrata.pinpoint import inline_items, locate_pinpoint
from docstrata.structure import build_tree

CONTRACT = Path(__file__).parent / "fixtures" / "common-paper" / "independent-contractor-agreement.docx"
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _paragraph(opening: str) -> str:
    """The text of the document's paragraph that opens with ``opening``, from its XML runs."""
    with zipfile.ZipFile(CONTRACT) as z:
        body = etree.fromstring(z.read("word/document.xml"))
    for p in body.iter(f"{_W}p"):
        text = " ".join("".join(t.text or "" for t in p.iter(f"{_W}t")).split())
        if text.startswith(opening):
            return text
    raise AssertionError(opening)


@pytest.fixture(scope="module")
def chunks():
    data = CONTRACT.read_bytes()
    doc = convert_file(
        SourceFile(CONTRACT.name, str(CONTRACT), FileState(len(data), 0, hashlib.sha256(data).hexdigest()))
    )
    return chunk_tree(build_tree(doc), count_tokens=lambda t: len(t.split()))


def _pinpoint(chunks, query: str):
    keys = query_section_keys(query)
    return next((pin for c in chunks if (pin := locate_pinpoint(c, keys)) is not None), None)


def test_an_item_run_into_a_clause_paragraph_is_its_pinpoint(chunks):
    paragraph = _paragraph("Non-Use and Non-Disclosure.")
    start = paragraph.index("(b) not disclose")
    truth = paragraph[start : paragraph.index(".", start) + 1]  # to the end of its sentence
    pin = _pinpoint(chunks, "What does Section 5.1(b) require?")
    assert pin is not None and pin.section_id == "5.1(b)"
    assert " ".join(pin.text.split()) == truth
    assert "(a)" not in pin.text and "In addition" not in pin.text
    # its lead-in is the clause's words before its first item; the view shows it, then the item
    assert pin.lead and pin.lead[-1].endswith(paragraph[: paragraph.index("(a)")].strip().split(". ", 1)[1])
    chunk = next(c for c in chunks if c.section_id == "5.1" or "5.1" in c.metadata.get("sections", ()))
    view, _ = pin.view(chunk.content)
    assert view.index(pin.lead[-1]) < view.index("…") < view.index("(b) not disclose")


def test_each_item_ends_where_the_next_starts(chunks):
    paragraph = _paragraph("Insurance.")
    a, b = paragraph.index("(a) claims"), paragraph.index("(b) claims")
    pin = _pinpoint(chunks, "clause 1.4(a)")
    assert pin is not None and pin.section_id == "1.4(a)"
    assert " ".join(pin.text.split()) == paragraph[a:b].strip()


def test_an_item_the_paragraph_does_not_enumerate_is_no_pinpoint(chunks):
    assert "(c)" not in _paragraph("Non-Use and Non-Disclosure.")
    assert _pinpoint(chunks, "Section 5.1(c)") is None


def test_a_roman_series_runs_in_order_and_its_last_item_ends_with_its_sentence():
    """``… if the other party (i) fails to cure …; (ii) materially breaches …; (iii) …``: each item
    ends where the next starts, the last at the full stop closing the sentence."""
    text = _paragraph("Either party may terminate this Agreement")
    found = inline_items(text)
    labels = [label for label, _, _ in found]
    assert labels == [x for x in ("i", "ii", "iii", "iv", "v", "vi") if f"({x}) " in text]
    assert len(labels) >= 3
    for (first, _, end), (second, start, _) in zip(found, found[1:]):
        assert end == start == text.index(f"({second}) ")
    last_start, last_end = found[-1][1], found[-1][2]
    assert text[last_end - 1] == "." and "." not in text[last_start : last_end - 1].replace("e.g.", "")
