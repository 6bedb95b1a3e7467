"""A Word contract whose clauses are a plain numbered list, each item opening with a bold run-in
title (``1. **What the Company owns.** The Company owns …``): the list is the clause outline, each
clause a section titled by its bold phrase, one level under the heading above it
(tests/fixtures/beipa/NOTICE.md). Truth read from the package's own XML."""

from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

from .test_docx_style_numbering import _docx, _tree

BEIPA = Path(__file__).parent / "fixtures" / "beipa" / "Balanced_Employee_IP_Agreement.docx"


def _truth() -> list[str]:
    """The bold titles of the paragraphs numbered by the decimal list (numId 1001), in order."""
    xml = zipfile.ZipFile(BEIPA).read("word/document.xml").decode("utf-8")
    titles = []
    for p in re.findall(r"<w:p[ >].*?</w:p>", xml, re.S):
        if '<w:numId w:val="1001" />' in p:
            first = re.search(r"<w:r>(.*?)</w:r>", p, re.S).group(1)
            assert "<w:b />" in first
            titles.append("".join(re.findall(r"<w:t[^>]*>([^<]*)</w:t>", first)).strip().rstrip("."))
    return titles


def test_each_titled_clause_of_the_agreement_is_a_section_under_its_title():
    truth = _truth()
    assert len(truth) == 8 and truth[0] == "What the Company owns"
    data = BEIPA.read_bytes()
    doc = convert_file(SourceFile(BEIPA.name, str(BEIPA), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    root = tree.sections[0].section_id
    for n, title in enumerate(truth, 1):
        s = by_id[str(n)]
        assert s.title == f"{n}. {title}" and s.parent_id == root, (n, s.title, s.parent_id)
    exhibit = next(s for s in tree.sections if s.title.startswith("Exhibit A"))
    assert exhibit.parent_id == root  # a sibling of the clauses, not inside clause 8


def _numbered(text: str, bold_lead: str = "") -> str:
    run = f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{bold_lead}</w:t></w:r>' if bold_lead else ""
    return (
        '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        f'{run}<w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p>'
    )


_INTRO = '<w:p><w:r><w:t xml:space="preserve">To set the device up, follow these steps in order:</w:t></w:r></w:p>'


def _kinds(tmp_path, name: str, data: bytes) -> list[str]:
    """The block kinds the converter states for the numbered paragraphs (provenance numbering)."""
    doc, _ = _tree(tmp_path, name, data)
    return [b.kind for b in doc.blocks if b.provenance == "numbering"]


def test_only_a_list_whose_every_item_has_a_run_in_title_is_the_clause_outline(tmp_path):
    plain = _docx(_INTRO + "".join(_numbered(t) for t in ("Open the box.", "Remove the device.", "Charge it fully.")))
    assert _kinds(tmp_path, "steps.docx", plain) == ["list_item"] * 3
    # one bold lead among plain steps is emphasis, not a clause title
    mixed = _docx(_INTRO + _numbered("Open the box.", "Careful:") + _numbered("Remove the device.") + _numbered("Charge it."))
    assert _kinds(tmp_path, "mixed.docx", mixed) == ["list_item"] * 3
    titled = _docx(_INTRO + _numbered("The Supplier shall pay.", "Fees.") + _numbered("Either party may end it.", "Term."))
    assert _kinds(tmp_path, "titled.docx", titled) == ["heading"] * 2
    _, tree = _tree(tmp_path, "titled.docx", titled)
    assert [s.title for s in tree.sections if s.number] == ["1. Fees", "2. Term"]
