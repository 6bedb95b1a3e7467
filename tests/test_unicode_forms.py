"""Ligatures and presentation forms become plain letters at the conversion boundary (issue 27
item 8): a PDF's "Oﬃce" is indexed and shown as "Office"; page offsets stay right."""
from __future__ import annotations

import re

import docstrata
from docstrata.convert import convert_file
from docstrata.convert.unicode_forms import fold_presentation_forms, shift_offset
from docstrata.models import FileState, SourceFile

from .conftest import shared_data
from .helpers import doc_project

LIGATURES = re.compile("[\uFB00-\uFDFF\uFE70-\uFEFE]")


def test_a_real_pdf_with_ligatures_converts_to_plain_letters_with_pages_in_place():
    from pdfminer.high_level import extract_text

    path = shared_data("documents", "pdf", "us_constitution.pdf")
    raw = extract_text(str(path))
    assert len(LIGATURES.findall(raw)) > 10  # the PDF sets ligature glyphs ("oﬃce", "ﬁrst")
    doc = convert_file(SourceFile(doc_key="us_constitution.pdf", path=str(path), state=FileState(0, 0, "")))
    assert not LIGATURES.search(doc.markdown) and "Office" in doc.markdown
    # each page still starts on a line of its own: the offsets moved with the widened ligatures before them
    assert len(doc.page_offsets) > 10 and all(doc.markdown[at - 1] == "\n" for at in doc.page_offsets[1:])


def test_offsets_move_past_a_widened_ligature_and_other_characters_stay():
    text = "Oﬃce ½ x² … ﬁle"
    folded, ends, added = fold_presentation_forms(text)
    assert folded == "Office ½ x² … file"  # not full NFKC: fractions, superscripts, ellipses stay
    assert folded[shift_offset(text.index("½"), ends, added)] == "½"
    assert folded[shift_offset(text.index("ﬁ"), ends, added):].startswith("file")


def test_search_finds_and_shows_office_in_a_text_with_ligatures(tmp_path):
    cfg = doc_project(tmp_path, {"a.md": "# Terms\n\n## 1 Oﬃce\n\nThe Oﬃce of the Registrar keeps the ﬁles.\n"})
    with docstrata.open(cfg) as ts:
        hit = ts["docs"].search("office files", mode="keyword")[0]
        assert "The Office of the Registrar keeps the files." in hit.content
        assert hit.parent_chain[-1].endswith("Office")
