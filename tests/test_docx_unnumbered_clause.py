"""A clause Word leaves unnumbered among titled, numbered clauses (tests/fixtures/simplitest-cla/NOTICE.md):
SimpliTest's corporate CLA numbers ``1. Definitions.``, ``2. Grant of Patent License. Subject to …``
and five untitled clauses in one Word list; the paragraph ``Grant of Copyright License. Subject to
…`` between the definitions and clause 2 has no numbering. It is a clause of its own, a sibling of
the numbered ones, not the tail of clause 1. Truth read from the package's own XML."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

CLA = Path(__file__).parent / "fixtures" / "simplitest-cla" / "Contributor_License_Agreement.docx"


def _paragraphs(data: bytes) -> list[tuple[bool, str]]:
    """(numbered, text) of every body paragraph with text, from word/document.xml."""
    xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode("utf-8")
    out = []
    for p in re.findall(r"<w:p[ >].*?</w:p>", xml, re.S):
        text = "".join(re.findall(r"<w:t(?: [^>]*)?>([^<]*)</w:t>", p)).strip()
        if text:
            out.append(("<w:numPr>" in p, text))
    return out


def _tree(tmp_path, data: bytes, name: str = "cla.docx"):
    path = tmp_path / name
    path.write_bytes(data)
    return build_tree(convert_file(SourceFile(name, str(path), FileState(len(data), 0, ""))))


def _rewrite(old: str, new: str) -> bytes:
    """The fixture with ``old`` replaced by ``new`` in word/document.xml (every other part as is)."""
    src = zipfile.ZipFile(CLA)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "word/document.xml":
                assert old.encode() in data
                data = data.replace(old.encode(), new.encode())
            out.writestr(item, data)
    return buf.getvalue()


def test_the_unnumbered_titled_paragraph_is_a_clause_beside_the_numbered_ones(tmp_path):
    paras = _paragraphs(CLA.read_bytes())
    numbered = [k for k, (n, _) in enumerate(paras) if n]
    assert len(numbered) == 7
    between = [t for n, t in paras[numbered[0] + 1 : numbered[-1]] if not n]
    lone = [t for t in between if t.startswith("Grant of Copyright License. ")]
    assert len(lone) == 1  # the truth: one unnumbered paragraph opening with a clause title
    tree = _tree(tmp_path, CLA.read_bytes())
    by_id = {s.section_id: s for s in tree.sections}
    assert [str(n) for n in range(1, 8)] == [s.number for s in tree.sections if s.number]
    clause = next(s for s in tree.sections if s.title == "Grant of Copyright License")
    assert clause.number is None and clause.parent_id is None and clause.level == by_id["1"].level
    order = [s.section_id for s in tree.sections]
    assert order.index("1") < order.index(clause.section_id) < order.index("2")
    assert "irrevocable copyright license" in clause.heading + clause.text
    assert "irrevocable copyright license" not in by_id["1"].text  # no longer the tail of clause 1
    assert '"You" (or "Your") shall mean' in by_id["1"].text  # the definitions stay in clause 1
    assert all(s.parent_id is None for s in tree.sections)


def test_an_unnumbered_paragraph_without_a_title_stays_in_its_clause(tmp_path):
    """The same package with the run-in title taken off the paragraph: it is clause 1's text."""
    tree = _tree(tmp_path, _rewrite("Grant of Copyright License. ", ""))
    assert not any("Copyright" in (s.title or "") for s in tree.sections)
    one = next(s for s in tree.sections if s.section_id == "1")
    assert "irrevocable copyright license" in one.text


def test_a_list_whose_items_are_not_titled_claims_no_unnumbered_clause(tmp_path):
    """With clause 2's title taken off, only ``Definitions.`` is titled: one title makes no titled
    list, and the unnumbered paragraph stays clause 1's text."""
    tree = _tree(tmp_path, _rewrite("Grant of Patent License. ", ""))
    assert not any("Copyright" in (s.title or "") for s in tree.sections)
    one = next(s for s in tree.sections if s.section_id == "1")
    assert "irrevocable copyright license" in one.text
