"""Sections an HTML page states by class names and anchors, not heading elements
(``convert/html_sections.py``): the Nevada Revised Statutes mark each section inside a paragraph —
``<a name="NRS001Sec130">`` + ``NRS`` + en space + ``<span class=Section>1.130</span>`` +
``<span class=Leadline>Title</span>`` + the text running on — and group them under ``DocHeading``
/ ``DocHeading2`` paragraphs. Truth is read from that markup (BeautifulSoup), never from our output.

Input: an excerpt of NRS chapter 1 (tests/fixtures/nrs-html, see its NOTICE). Before the change no
section was found: only the numbered paragraphs ``1.``, ``2.`` became top-level sections (``1-7``,
``2-7``), ``NRS 1.130`` was cited as nothing, and the contents list became a run of references.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from bs4 import BeautifulSoup

from docstrata.convert import convert_file
from docstrata.chunking import chunk_tree
from docstrata.index.exact import query_section_keys
from docstrata.models import SourceFile
from docstrata.section_lookup import cited_section
from docstrata.structure import build_tree
from docstrata.structure.parse.stated import stated_components
from docstrata.structure.xrefs import find_cross_references

from .helpers import sections_by_id

FIXTURE = Path(__file__).parent / "fixtures" / "nrs-html" / "nrs-001-excerpt.html"


def _text(tag) -> str:
    return " ".join(tag.get_text("").split())


def _markup_truth() -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """((section number, leadline, the DocHeading/DocHeading2 it stands under) in page order,
    the contents entries' linked numbers), from the page's own classes."""
    soup = BeautifulSoup(FIXTURE.read_bytes(), "lxml")
    sections, group = [], None
    for p in soup.find_all("p"):
        classes = p.get("class") or []
        if "DocHeading" in classes or "DocHeading2" in classes:
            group = _text(p)
        number = p.find("span", class_="Section")
        if number is not None:
            sections.append((_text(number), _text(p.find("span", class_="Leadline")), group))
    contents = [_text(a) for p in soup.find_all("p", class_="COLeadline") for a in p.find_all("a")]
    return sections, contents


def _tree(title: str | None = None):
    doc = convert_file(SourceFile(FIXTURE.name, str(FIXTURE), None))
    if title is not None:
        doc = dataclasses.replace(doc, title=title)
    return doc, build_tree(doc)


def test_every_section_the_markup_states_is_a_section_numbered_and_titled_as_printed():
    truth, _ = _markup_truth()
    assert len(truth) >= 5
    _, tree = _tree()
    by_id = sections_by_id(tree)
    for number, leadline, _group in truth:
        assert number in by_id, f"NRS {number} is no section: {sorted(by_id)[:20]}"
        section = by_id[number]
        assert section.number == f"NRS {number}"
        assert section.title == f"NRS {number} {leadline}"
        assert f"Section {number}" in section.aliases or number in section.aliases


def test_sections_stand_under_the_group_headings_the_classes_name():
    truth, _ = _markup_truth()
    _, tree = _tree()
    by_id = sections_by_id(tree)
    for number, _leadline, group in truth:
        parent = by_id[by_id[number].parent_id]
        assert " ".join(parent.title.split()) == group, (number, parent.title, group)
    chapter = by_id["chapter-1"]  # <p class="Chapter">CHAPTER 1 - …: a container the class and text name
    assert chapter.parent_id == "title-1"  # <p class="MsoTitle">TITLE 1 - …
    first_group = by_id[by_id[truth[0][0]].parent_id]
    assert first_group.parent_id == "chapter-1"


def test_numbered_paragraphs_are_subsections_of_their_section():
    """``1.``, ``2.`` under NRS 1.130 are its subsections, cited ``NRS 1.130(1)``; the ``(a)``–``(e)``
    under subsection 1 are ``1.130(1)(a)`` …: never top-level sections ``1-7``, ``2-7``."""
    soup = BeautifulSoup(FIXTURE.read_bytes(), "lxml")
    start = soup.find("a", attrs={"name": "NRS001Sec130"}).find_parent("p")
    subsections, points = [], []
    for p in start.find_next_siblings("p"):
        if p.find("span", class_="Section") is not None:
            break
        m = re.match(r"^(\d+)\.\s|^\((\w)\)\s", _text(p))
        if m and m.group(1):
            subsections.append(m.group(1))
        elif m and subsections:
            points.append(f"({subsections[-1]})({m.group(2)})")
    assert subsections == ["1", "2"] and len(points) >= 3
    _, tree = _tree()
    by_id = sections_by_id(tree)
    for n in subsections:
        assert by_id[f"1.130({n})"].parent_id == "1.130"
    for point in points:
        assert by_id[f"1.130{point}"].parent_id == f"1.130{point[:3]}"
    assert not any(re.fullmatch(r"\d+(-\d+)?", sid) for sid in by_id)


def test_code_citations_resolve_to_the_sections_they_name():
    """``NRS 1.130`` in NRS 1.120 (a link to ``#NRS001Sec130``) and plain-text ``NRS 1.140``,
    ``NRS 1.4653(2)`` cite this chapter's sections: the code's abbreviation the document numbers
    its own sections with is its citation prefix, whatever the page's title says."""
    _, tree = _tree()
    cited = [r for r in tree.cross_references if r.source_section_id == "1.120" and "1.130" in r.text]
    assert cited and all(r.section_id == "1.130" for r in cited)
    _, untitled = _tree(title="Judicial Department Generally")  # no "NRS" in the title
    refs = find_cross_references("as provided in NRS 1.140 and NRS 1.4653(2).", untitled, "1.150")
    assert [r.section_id for r in refs] == ["1.140", "1.4653(2)"]
    assert query_section_keys("NRS 1.130(1)(c)")[0][0] == "1.130(1)(c)"  # a query's citation
    chunks = chunk_tree(tree, count_tokens=lambda t: len(t.split()))
    assert cited_section(chunks, "NRS 1.130") == "1.130"  # get-section / cited-by "NRS 1.130"


def test_the_contents_paragraphs_go_and_cite_nothing():
    """The contents are paragraphs (``p.COLeadline``, each a link to a section and its leadline),
    not a list: they repeat every section and, left in, became a run of references from the chapter."""
    _, contents = _markup_truth()
    assert len(contents) >= 5
    doc, tree = _tree()
    markdown = doc.markdown.replace("\u2002", " ")
    for entry in contents:
        assert not re.search(rf"(?m)^\[{re.escape(entry)}\]\(#", markdown)  # a line opening with the entry's link
    assert not [r for r in tree.cross_references if r.source_section_id in ("preamble", "title-1", "chapter-1")]


def test_a_code_section_number_is_one_number():
    """``NRS 1.4695`` is chapter 1's section 4695 (inserted between 1.469 and 1.470), one number:
    not ``1.469.5``; a keyword's dotted number keeps the grammar's reading."""
    assert stated_components("NRS 1.4695") == [("num", "1.4695", "NRS 1.4695")]
    assert stated_components("72A.1010") == [("num", "72A.1010", "72A.1010")]
    assert stated_components("CHAPTER 1") == [("kw:chapter:chapter", "1", "CHAPTER 1")]
    assert [c[1] for c in stated_components("4.2.1") or []] == ["4", "2", "1"]
