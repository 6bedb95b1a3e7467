"""Document families added as profiles (issue 28, deliverable 4): German federal law as
gesetze-im-internet publishes it (``<dokumente>`` XML) and kramdown-rfc Markdown. Each family is a
profile (:mod:`docstrata.profiles`) plus a converter returning a typed ConvertedDocument whose
headings state their level and number; the structure stage takes those headings as stated.
Real documents: tests/fixtures/gesetze-im-internet and tests/fixtures/kramdown-rfc (NOTICE.md there)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

FIXTURES = Path(__file__).parent / "fixtures"
GII = FIXTURES / "gesetze-im-internet" / "milog-excerpt.xml"
CLIENT_HINTS = FIXTURES / "kramdown-rfc" / "draft-ietf-httpbis-client-hints.md"
INCREMENTAL = FIXTURES / "kramdown-rfc" / "draft-ietf-httpbis-incremental.md"


def _convert(path: Path, name: str | None = None):
    return convert_file(SourceFile(name or path.name, str(path), FileState(0, 0, "")))


@pytest.fixture(scope="module")
def milog():
    doc = _convert(GII)
    return doc, build_tree(doc)


@pytest.fixture(scope="module")
def client_hints():
    doc = _convert(CLIENT_HINTS)
    return doc, build_tree(doc)


# -- the converter contract ---------------------------------------------------------------------

@pytest.mark.parametrize("path", [GII, CLIENT_HINTS, INCREMENTAL])
def test_blocks_cover_the_text_they_name(path):
    doc = _convert(path)
    assert doc.blocks and all(doc.markdown[b.start:b.end] == b.text for b in doc.blocks)
    starts = [b.start for b in doc.blocks]
    assert starts == sorted(starts) and all(a.end <= b.start for a, b in zip(doc.blocks, doc.blocks[1:]))


def test_plain_markdown_with_front_matter_is_not_taken_by_a_family(tmp_path):
    p = tmp_path / "notes.md"
    p.write_text("---\ntitle: Notes\n---\n\n# Introduction\n\nText.\n\n## 1. Scope\n\nMore.\n")
    doc = _convert(p)
    assert not doc.heading_levels  # no profile recognised it: its headings are read as any Markdown's
    assert all(b.number is None for b in doc.blocks if b.kind == "heading")


# -- gesetze-im-internet ------------------------------------------------------------------------

def test_gii_headings_are_stated_blocks(milog):
    doc, _ = milog
    stated = {b.number: b for b in doc.blocks if b.kind == "heading" and b.provenance == "markup" and b.number}
    assert stated["Abschnitt 1"].level == 1 and stated["Unterabschnitt 2"].level == 2
    assert stated["§ 4"].level == 3 and stated["§ 13"].level == 2
    assert doc.title == "Gesetz zur Regelung eines allgemeinen Mindestlohns (MiLoG)"


def test_gii_sections_are_paragraph_numbers_under_their_outline_units(milog):
    _, tree = milog
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["unterabschnitt-1"].parent_id == "abschnitt-1"
    assert by_id["1"].parent_id == "unterabschnitt-1" and by_id["1"].number == "§ 1"
    assert by_id["4"].parent_id == "unterabschnitt-2" and by_id["6"].parent_id == "unterabschnitt-2"
    assert by_id["13"].parent_id == "abschnitt-2" and by_id["14"].parent_id == "abschnitt-3"
    assert [c for c in by_id if c.startswith("1(")] == ["1(1)", "1(2)", "1(3)"]  # Absätze pinpoint as 1(2)
    assert by_id["2(1)"].parent_id == "2" and by_id["2(3)"].parent_id == "2"
    assert "Mindestlohnkommission" in by_id["1(2)"].text


def test_gii_contents_and_citations_are_not_sections(milog):
    _, tree = milog
    ids = [s.section_id for s in tree.sections]
    assert len(ids) == len(set(ids))
    # the Inhaltsübersicht lists § 1 … § 24: none of its rows is a section, nor is "§ 14 des
    # Arbeitnehmer-Entsendegesetzes findet … Anwendung" (the text of § 13) a § 14
    stated = {"preamble", "inhaltsübersicht", "abschnitt-1", "unterabschnitt-1", "unterabschnitt-2",
              "abschnitt-2", "abschnitt-3", "1", "2", "3", "4", "6", "13", "14", "15"}
    for s in tree.sections:
        assert s.section_id in stated or re.fullmatch(r"\d+(\(\d+\))+|\d+\.\d+", s.section_id), s.section_id
    assert ids.count("14") == 1 and "24" not in ids and "12" not in ids
    assert "§ 14 des Arbeitnehmer-Entsendegesetzes" in next(s for s in tree.sections if s.section_id == "13").text


# -- kramdown-rfc -------------------------------------------------------------------------------

def test_kramdown_numbers_follow_heading_levels_and_order(client_hints):
    doc, tree = client_hints
    by_id = {s.section_id: s for s in tree.sections}
    assert doc.title == "HTTP Client Hints"
    assert [s.section_id for s in tree.sections if s.level == 1] == [
        "abstract", "note-to-readers", "1", "2", "3", "4", "5", "6", "appendix-a", "acknowledgements"]
    assert by_id["1.1"].parent_id == "1" and by_id["4.3"].parent_id == "4" and by_id["6.1"].parent_id == "6"
    assert by_id["A.15"].parent_id == "appendix-a" and by_id["appendix-a"].number == "Appendix A"
    assert by_id["acknowledgements"].number is None  # {:numbered="false"}


def test_kramdown_front_matter_and_anchors(client_hints):
    doc, tree = client_hints
    by_id = {s.section_id: s for s in tree.sections}
    assert not any("ipr:" in s.text or "docname" in s.text for s in tree.sections)  # front matter is no section
    assert by_id["3.1"].title.endswith("The Accept-CH Response Header Field")  # {#accept-ch} stripped
    assert "{#" not in doc.markdown and "{:numbered" not in doc.markdown
    assert doc.anchors["accept-ch"].startswith("3.1.") and "security-considerations" in doc.anchors
    # "{{accept-ch}} of this document" reads as xml2rfc prints it and resolves to section 3.1
    assert "Section 3.1 of this document" in by_id["6.1"].text
    refs = [r for r in tree.cross_references if r.source_section_id == "6.1"]
    assert any(r.section_id == "3.1" for r in refs)
    assert "[RFC7231]" in by_id["1"].text and "{{" not in doc.markdown


def test_kramdown_sections_match_the_rendered_draft():
    """Every numbered entry of the working group's own rendering (xml2rfc table of contents) is a
    section with that number and title; kramdown-rfc's generated References are not in the source."""
    rendered = INCREMENTAL.with_suffix(".txt").read_text(encoding="utf-8").split("\n")
    start = rendered.index("Table of Contents")
    toc = []
    for line in rendered[start + 2:]:
        if not line.strip():
            break
        m = re.match(r"^\s+(Appendix [A-Z]|[A-Z](?:\.\d+)+|\d+(?:\.\d+)*)\.\s+(.+?)\s*$", line)
        if m and "References" not in m.group(2):
            toc.append((m.group(1), m.group(2)))
    assert len(toc) >= 8
    tree = build_tree(_convert(INCREMENTAL))
    numbered = [(s.number, s.title) for s in tree.sections if s.number]
    assert [n for n, _ in numbered] == [n for n, _ in toc]
    for (number, title), (_, want) in zip(numbered, toc):
        assert title.endswith(want), (number, title, want)


def test_contract_rejects_blocks_that_do_not_match_the_text():
    from docstrata.convert.document import Block, ConvertedDocument

    ConvertedDocument(text="# 1 Scope\n", blocks=[Block("# 1 Scope", "heading", 0, 9, provenance="markup", level=1, number="1")])
    with pytest.raises(ValueError, match="does not match"):
        ConvertedDocument(text="# 1 Scope\n", blocks=[Block("# 2 Scope", "heading", 0, 9)])
    with pytest.raises(ValueError, match="not part of the contract"):
        ConvertedDocument(text="x", blocks=[Block("x", "sidebar", 0, 1)])
