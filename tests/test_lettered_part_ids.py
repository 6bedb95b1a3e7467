"""Subsections numbered afresh under each part of a lettered series: the GitHub Terms of Service
(tests/fixtures/github-tos, CC0), whose parts ``A.`` … ``R.`` each number their subsections from 1
(``B. Account Terms`` holds ``1.`` … ``5.``, ``D.`` holds ``1.`` … ``8.``) and whose definitions
are a Markdown list written ``1.`` on every line (rendered 1–8).

Before, an id depended on whether its number had been seen before: B's were ``1`` … ``5``, D's
``D/1`` … ``D/5`` then ``6`` … ``8``, the definitions ``A.1``, ``A/A.1``, ``A/A.1-2`` …; so
``get-section B/3`` named nothing. Truth here is read from the fixture's own Markdown (its
``## X.`` parts, ``### N.`` headings and list lines), never from our output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import docstrata
from docstrata.convert import convert_file
from docstrata.models import DocumentTree, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.parse import parse_sections

from .helpers import doc_project

TOS = Path(__file__).parent / "fixtures" / "github-tos" / "github-terms-of-service-excerpt.md"


def _markup_subsections() -> list[tuple[str, int, str]]:
    """``(part letter, number as rendered, title or text)`` of every numbered subsection the
    fixture's Markdown writes under a ``## X.`` part: its ``### N. Title`` headings, and its
    ordered-list items counted as a renderer counts them (the first item's number, then on by one)."""
    out: list[tuple[str, int, str]] = []
    part, item = None, None
    for line in TOS.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^## ([A-Z])\. ", line):
            part, item = m.group(1), None
        elif re.match(r"^##? ", line):
            part = None
        elif part and (m := re.match(r"^### (\d+)\. (.+)$", line)):
            out.append((part, int(m.group(1)), m.group(2)))
        elif part and (m := re.match(r"^(\d+)\. (.+)$", line)):
            item = int(m.group(1)) if item is None else item + 1
            out.append((part, item, m.group(2)))
        elif line.strip() and not line.startswith(" "):
            item = None  # a paragraph ends the list
    return out


@pytest.fixture(scope="module")
def tree() -> DocumentTree:
    return build_tree(convert_file(SourceFile(TOS.name, str(TOS), None)))


def test_every_subsection_of_a_part_is_named_inside_it(tree):
    by_id = {s.section_id: s for s in tree.sections}
    expected = _markup_subsections()
    assert {p for p, _, _ in expected} == {"A", "B", "D", "R"} and len(expected) == 8 + 5 + 8 + 4
    for part, number, title in expected:
        s = by_id.get(f"{part}/{number}")
        assert s is not None, (part, number, title, sorted(by_id))
        assert s.parent_id == part and (s.number or "").rstrip(".") == str(number), (s.section_id, s.number)
        assert s.title.split(". ", 1)[-1][:20] in title or title[:20] in s.text, (s.section_id, s.title, title)
    # no other numbered section stands in a part: no bare "6" of D's, no "A/A.1-2" of the definitions
    in_parts = [s.section_id for s in tree.sections if s.parent_id in {"A", "B", "C", "D", "R"}]
    assert sorted(in_parts) == sorted(f"{p}/{n}" for p, n, _ in expected)


def test_a_list_that_writes_its_numbers_keeps_them():
    """Only one list written with one number on every line is counted as rendered: a list writing
    ``1.``, ``2.``, ``3.`` keeps them, one writing ``3.`` on every line counts from 3, and two lists
    a paragraph parts (``1.``, a paragraph set back to the margin, ``1.`` again) are two lists."""
    md = (
        "# Terms\n\n## A. First\n\n1. One item here.\n2. Two item here.\n3. Three item here.\n\n"
        "## B. Second\n\n3. Three item here.\n3. Four item here.\n\n"
        "## C. Third\n\n1. One item here.\n\nA paragraph between two lists.\n\n1. Another first item.\n"
    )
    ids = [s.section_id for s in parse_sections(md, "t.md", "Terms").sections]
    # (3 stands under A and B: the parts number their items afresh, each is named inside its part)
    assert [i for i in ids if i.startswith("A")][1:] == ["A/1", "A/2", "A/3"]
    assert [i for i in ids if i.startswith("B")][1:] == ["B/3", "B/4"]
    assert "C/2" not in ids and "C/1" in ids


def test_references_name_the_part_they_cite(tree):
    refs = [(x.source_section_id, x.text, x.section_id) for x in tree.cross_references]
    # "(See [Section B(5): Additional Terms](#5-additional-terms))" in definition 7
    assert ("A/7", "Section B(5)", "B/5") in refs or any(
        src == "A/7" and "B(5)" in text and sid == "B/5" for src, text, sid in refs
    ), refs
    # "listed in Sections D.4 — D.7": each of the four, an em dash between spaces as the range sign
    assert {sid for src, text, sid in refs if src == "D/3" and "D.7" in text} == {"D/4", "D/5", "D/6", "D/7"}
    # R.2's "the license grant in Section D.4" is D's 4, never the 4 of R that it stands beside
    assert {sid for src, text, sid in refs if src == "R/2" and "D.4" in text} == {"D/4"}
    assert {sid for src, text, sid in refs if src == "R/1" and "D.8" in text} == {"D/8"}


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("lettered_parts")
    cfg = doc_project(root, {}, max_chunk_tokens=800, chunk_overlap=0)
    (root / "docs" / TOS.name).write_bytes(TOS.read_bytes())
    ts = docstrata.open(cfg)
    t = ts["docs"]
    t.ingest()
    yield t
    ts.close()


@pytest.mark.parametrize("asked", ["B/3", "B.3", "Section B.3", "Section B(3)"])
def test_get_section_reads_a_subsection_of_a_part(tool, asked):
    page = tool.get_section(TOS.name, asked, max_chars=None)
    assert page.section_id == "B/3"
    assert "Account Requirements" in page.content and "You must be a human to create an Account" in page.content


@pytest.mark.parametrize("query, wanted", [("Section B(5)", "B/5"), ("Section B.3", "B/3"), ("Section D.8", "D/8")])
def test_a_citation_naming_the_part_pins_its_subsection(tool, query, wanted):
    res = tool.search(query, top_k=5)
    assert [h.section_id for h in res if h.pinned] == [wanted]
    assert res.confidence.level == "high" and not res.confidence.ambiguous


def test_a_bare_number_every_part_holds_is_ambiguous(tool):
    """``Section 5`` names the 5 of each part holding one (A's definition 5, B.5, D.5): the search
    lists them all and says the citation is ambiguous, rather than pinning the first part's."""
    holders = {f"{p}/{n}" for p, n, _ in _markup_subsections() if n == 5}
    res = tool.search("Section 5", top_k=5)
    assert {a["section_id"] for a in res.confidence.ambiguous} == holders
    assert res.confidence.level != "high"
