"""Contents pages as sections of their own (chunk_type "contents", ranked after what they list) and
glossary / acronym appendices as definitions: the two failures seen on NIST SP 800-150."""

from __future__ import annotations

from docstrata.chunking import chunk_tree
from docstrata.config import parse_config
from docstrata.models import Document
from docstrata.structure import build_tree


def _pdf_line(page: int, box: int, text: str, size: float, y0: float):
    from docstrata.convert.pdf_layout import _PdfLine

    return _PdfLine(page=page, box=box, text=text, size=size, font="Arial", x0=90.0, x1=300.0,
                    y0=y0, y1=y0 + size, chars=len(text))


def test_pdf_outline_contents_entry_opens_its_own_section_whatever_its_place_in_the_outline():
    """SP 800-150 bookmarks "Table of Contents" before "Executive Summary", though the contents
    page is printed after it: the entry is matched to the title atop the contents page (never to a
    dot-leader line), the executive summary still matches, and the contents page no longer trails
    the executive summary's text."""
    from docstrata.convert.pdf_headings import _apply_outline

    lines = [
        _pdf_line(1, 1, "Executive Summary", 14.0, 700.0), _pdf_line(1, 2, "Cyber attacks have increased.", 11.0, 650.0),
        _pdf_line(2, 3, "Table of Contents", 14.0, 720.0),
        _pdf_line(2, 4, "Executive Summary ........ iii", 11.0, 690.0),
        _pdf_line(2, 4, "1. Introduction ........ 1", 11.0, 680.0),
        _pdf_line(2, 4, "1.1 Purpose and Scope ........ 1", 11.0, 670.0),
        _pdf_line(2, 4, "2. Basics ........ 2", 11.0, 660.0),
        _pdf_line(3, 5, "1. Introduction", 14.0, 720.0), _pdf_line(3, 6, "1.1 Purpose and Scope", 12.0, 690.0),
        _pdf_line(3, 7, "This publication provides guidance.", 11.0, 660.0),
        _pdf_line(4, 8, "2. Basics", 14.0, 720.0), _pdf_line(4, 9, "Text.", 11.0, 690.0),
    ]
    outline = [(1, "Table of Contents"), (1, "Executive Summary"), (1, "1. Introduction"),
               (2, "1.1 Purpose and Scope"), (1, "2. Basics")]
    assert _apply_outline(lines, outline)
    assert [(i, line.level, line.text) for i, line in enumerate(lines) if line.level] == [
        (0, 1, "Executive Summary"), (2, 1, "Table of Contents"), (7, 1, "1. Introduction"),
        (8, 2, "1.1 Purpose and Scope"), (10, 1, "2. Basics")]


CONTENTS_DOC = """# Guide to Threat Sharing

## Executive Summary

Organizations should share cyber threat information to improve their security posture.

## Table of Contents

1. Introduction .... 1
3.4.1 Information Sensitivity and Privacy .... 11
3.4.2 Sharing Designations .... 14
3.4.3 Tracking Procedures .... 16

List of Tables

Table 3-3: Traffic Light Protocol, Version 1.0 .... 15

## 1. Introduction

This publication helps organizations exchange threat information.

### 3.4.1 Information Sensitivity and Privacy

Sensitive information such as personally identifiable information must be protected before sharing.

### 3.4.2 Sharing Designations

Sharing designations such as the Traffic Light Protocol mark how widely information may be shared.
A designation is agreed by the community before any exchange starts, and every member applies it to
what it publishes so that recipients know at once which partners may see the information, whether it
may leave the community, and who must be asked before it is passed on to anyone else.

The Traffic Light Protocol, Version 1.0, defines four colours: red, amber, green and white. Red
information stays with the named recipients, amber inside their organizations, green inside the
community, and white may be published. Recipients who are unsure ask the originator first.

### 3.4.3 Tracking Procedures

Organizations should track where shared information goes.
"""


def test_a_contents_section_is_marked_contents_in_every_format():
    """A heading titled as a contents page or an index (whatever converter made it) makes its
    section, and its chunks, contents: ``chunk_type == "contents"``; other sections keep theirs."""
    from docstrata.structure.contents import is_contents_title

    for title in ("Table of Contents", "CONTENTS", "Contents:", "List of Figures", "List of Tables and Figures", "Index"):
        assert is_contents_title(title), title
    for title in ("Contents of the Notice", "Indexing", "Table 3-1", "Glossary", "Executive Summary"):
        assert not is_contents_title(title), title
    tree = build_tree(Document(doc_key="g.md", title="Guide", markdown=CONTENTS_DOC, format="md"))
    chunks = chunk_tree(tree, count_tokens=lambda text: len(text.split()), max_tokens=800)
    kinds = {c.section_id: c.chunk_type for c in chunks}
    assert kinds["table-of-contents"] == "contents"
    assert [sid for sid, kind in kinds.items() if kind == "contents"] == ["table-of-contents"]


def test_contents_hits_rank_after_the_passages_they_list(tmp_path):
    """A citation query ("Section 3.4.2") pins the section; the contents page, whose lines name
    3.4.2 and its title, comes after every passage that is not contents (before: second, ahead
    of the section's own second passage), and a topic question gets no contents hit above the
    passages; asking for the contents finds it first. Scores never increase down the list."""
    from docstrata.tools import build_tool

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(CONTENTS_DOC, encoding="utf-8")
    cfg = parse_config({"tools": [{"name": "g", "type": "hierarchical_document", "source": "docs",
                                   "max_chunk_tokens": 100}]}, base_dir=tmp_path)
    tool = build_tool(cfg.tools[0], tmp_path)
    tool.ingest()
    for query in ("Section 3.4.2", "Traffic Light Protocol sharing designations"):
        hits = tool.search(query, top_k=8)
        ids = [h.section_id for h in hits]
        assert ids[0] == "3.4.2" and ids.count("3.4.2") == 2, (query, ids)
        assert ids[-1] == "table-of-contents" and hits[-1].chunk_type == "contents", (query, ids)
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
    assert tool.search("table of contents", top_k=3)[0].section_id == "table-of-contents"


def test_demote_contents_keeps_pinned_hits_and_caps_scores():
    from docstrata.fusion import FusedHit
    from docstrata.models import Chunk
    from docstrata.search import _capped_scores, demote_contents, non_increasing

    def chunk(cid, kind):
        return Chunk(chunk_id=cid, doc_key="d", ordinal=0, content="x", section_id=cid, parent_chain=[],
                     heading_level=1, chunk_type=kind)

    chunks = {"toc": chunk("toc", "contents"), "a": chunk("a", "content"), "b": chunk("b", "content"),
              "p": chunk("p", "content")}
    fused = [FusedHit("p", 0.1), FusedHit("toc", 0.5), FusedHit("a", 0.3), FusedHit("b", 0.2)]
    order = demote_contents(fused, chunks, pinned={"p"})
    assert [h.chunk_id for h in order] == ["p", "a", "b", "toc"]
    assert non_increasing(_capped_scores(order, chunks, {"p"})) == [0.3, 0.3, 0.2, 0.2]


GLOSSARY_DOC = """# Guide to Cyber Threat Information Sharing

## 2. Basics

A threat actor may use a watering hole attack. Information technology (IT) staff share it with CSIRT teams.

## Appendix B—Glossary

Selected terms used in the publication are defined below.

| Actor | See threat actor. |
|---|---|
| Alert | A brief, usually human-readable, technical notification regarding current vulnerabilities. |
| Tactics, Techniques, and Procedures (TTPs) | The behavior of an actor. |
| Threat Actor | An individual or a group posing a threat. |
| Watering Hole Attack | A security exploit where the attacker infects websites that are frequently visited by members of |
|  | the group being attacked. |

## Appendix C—Acronyms

Selected acronyms used in the publication are defined below.

ACL
CSIRT
IT
PCI DSS

Access Control List
Computer Security Incident Response Team
Information Technology
Payment Card Industry Data Security Standard

## Appendix D—Terms and Definitions

Clearing

A method of sanitization that applies logical techniques to sanitize data in all user-addressable storage locations.

Degauss

To reduce the magnetic flux to virtual zero by applying a reverse magnetizing field.

Purge

A method of sanitization that applies physical or logical techniques that render target data recovery infeasible.
"""


def test_glossary_tables_acronym_columns_and_term_paragraphs_are_definitions():
    """A glossary laid out as a two-column table (a row carried on when its first cell is empty, a
    term cell "… (TTPs)" naming its abbreviation too), an acronym list whose two columns come as
    two paragraphs of as many lines, and terms set as one-line paragraphs over their definitions
    each give term → definition entries with the appendix as their section (before: none)."""
    tree = build_tree(Document(doc_key="g.pdf", title="Guide", markdown=GLOSSARY_DOC, format="pdf"))
    defs = {d.term: (d.section_id, d.definition) for d in tree.definitions}
    assert defs["Actor"] == ("appendix-b", "See threat actor.")
    assert defs["Threat Actor"] == ("appendix-b", "An individual or a group posing a threat.")
    assert defs["Watering Hole Attack"][1].endswith("members of the group being attacked.")
    assert defs["TTPs"] == defs["Tactics, Techniques, and Procedures"] == ("appendix-b", "The behavior of an actor.")
    assert defs["ACL"] == ("appendix-c", "Access Control List")
    assert defs["PCI DSS"] == ("appendix-c", "Payment Card Industry Data Security Standard")
    assert defs["IT"] == ("appendix-c", "Information Technology")
    assert defs["Degauss"][0] == "appendix-d" and defs["Degauss"][1].startswith("To reduce the magnetic flux")
    assert {"Clearing", "Purge"} <= set(defs)
    assert not [t for t in defs if t.startswith(("Selected", "Access Control", "A method"))]


def test_glossary_definitions_are_found_and_attached_to_results_that_use_them(tmp_path):
    """``get_definition`` finds a glossary-table term and an acronym; a result using "threat actor"
    carries its definition; "IT" (Information Technology) is attached where "IT" is written, never
    for the word "it"."""
    from docstrata.search import definitions_used
    from docstrata.tools import build_tool

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(GLOSSARY_DOC, encoding="utf-8")
    cfg = parse_config({"tools": [{"name": "g", "type": "hierarchical_document", "source": "docs"}]}, base_dir=tmp_path)
    tool = build_tool(cfg.tools[0], tmp_path)
    tool.ingest()
    assert tool.get_definition("threat actor")[0].definition == "An individual or a group posing a threat."
    assert tool.get_definition("CSIRT")[0].definition == "Computer Security Incident Response Team"
    hit = tool.search("Who may use a watering hole attack?", top_k=3)
    basics = next(h for h in hit if h.section_id == "2")
    assert "Threat Actor" in basics.definitions_context and "Watering Hole Attack" in basics.definitions_context
    entries = tool.get_definition("IT")
    assert "IT" in definitions_used(["Information technology (IT) staff"], entries)
    assert "IT" not in definitions_used(["They share it with partners."], entries)


def _cell_line(page: int, box: int, text: str, x0: float, y0: float, size: float = 10.0):
    from docstrata.convert.pdf_layout import _PdfLine

    return _PdfLine(page=page, box=box, text=text, size=size, font="Arial", x0=x0, x1=x0 + 6.0 * len(text),
                    y0=y0, y1=y0 + size, chars=len(text))


def test_pdf_glossary_rows_with_short_terms_are_table_rows_and_label_columns_split_by_line():
    """A glossary term of up to four letters ("ATA", "Bend") beside its definition is a table row,
    not a list label (before: "ATA" matched the hanging-label rule and its row was dropped, so
    terms and definitions came out apart); an acronym list boxed a few rows at a time ("ARP" /
    "ATA" beside their two expansions, line for line) is one row per line; a wrapped term
    ("Controlled Unclassified" / "Information" beside a longer definition) stays one row."""
    from docstrata.convert.pdf_tables import _table_blocks

    lines = [
        _cell_line(1, 1, "ATA", 77, 700), _cell_line(1, 2, "Magnetic media interface specification.", 229, 700),
        _cell_line(1, 3, "Bend", 77, 670), _cell_line(1, 4, "The use of a mechanical process to", 229, 670),
        _cell_line(1, 4, "transform the storage media.", 229, 658),
        _cell_line(1, 5, "Controlled Unclassified", 77, 640), _cell_line(1, 5, "Information", 77, 628),
        _cell_line(1, 6, "Information that law or policy requires", 229, 640),
        _cell_line(1, 6, "to have safeguarding controls,", 229, 628), _cell_line(1, 6, "excluding classified.", 229, 616),
        _cell_line(2, 7, "ARP", 77, 700), _cell_line(2, 7, "ATA", 77, 688),
        _cell_line(2, 8, "Address Resolution Protocol", 229, 700), _cell_line(2, 8, "Advanced Technology Attachment", 229, 688),
        _cell_line(2, 9, "DNS", 77, 660), _cell_line(2, 10, "Domain Name System", 229, 660),
    ]
    blocks, _ = _table_blocks(lines)
    text = "\n".join(md for placed in blocks.values() for _page, md in placed)  # {anchor: [(page, markdown)]}
    assert "| ATA | Magnetic media interface specification. |" in text
    assert "| Bend | The use of a mechanical process to transform the storage media. |" in text
    assert "| Controlled Unclassified Information | Information that law or policy requires to have" in text
    assert "| ARP | Address Resolution Protocol |" in text and "| ATA | Advanced Technology Attachment |" in text


def test_contents_lines_with_appendix_page_labels_are_not_sections():
    """A contents line whose page label is an appendix page ("Appendix F— Glossary .... F-1") or a
    roman one ("Executive Summary .... iii") is contents, not a section (SP 800-115 had Appendices
    E-G twice: first as contents lines, then as headings, which took the ids "appendix-e-2"...)."""
    md = ("# Guide\n\nTable of Contents\n\nExecutive Summary .... iii\n\n1. Introduction .... 1\n\n"
          "Appendix E— Resources .... E-1\n\nAppendix F— Glossary .... F-1\n\n## Executive Summary\n\nText.\n\n"
          "## 1. Introduction\n\nText.\n\n## Appendix E—Resources\n\nBooks.\n\n## Appendix F—Glossary\n\n"
          "| Alert | A brief technical notification. |\n|---|---|\n| Actor | See threat actor. |\n")
    tree = build_tree(Document(doc_key="g.pdf", title="Guide", markdown=md, format="pdf"))
    ids = [s.section_id for s in tree.sections]
    assert "appendix-e-2" not in ids and "appendix-f-2" not in ids
    assert {d.term: d.section_id for d in tree.definitions} == {"Alert": "appendix-f", "Actor": "appendix-f"}


def test_pdf_outline_heading_drops_an_underscore_rule_laid_out_before_it():
    """SP 800-171r1 draws a rule of underscores above each chapter title, which pdfminer puts on
    the title's line: the bookmark matches ("APPENDIX B GLOSSARY") and the heading is the title
    without the rule."""
    from docstrata.convert.pdf_headings import _apply_outline

    lines = [
        _pdf_line(1, 1, "_" * 40 + " CHAPTER ONE INTRODUCTION", 14.0, 700.0), _pdf_line(1, 2, "Text.", 11.0, 650.0),
        _pdf_line(2, 3, "_" * 40 + " APPENDIX A REFERENCES", 14.0, 700.0), _pdf_line(2, 4, "Text.", 11.0, 650.0),
        _pdf_line(3, 5, "_" * 40 + " APPENDIX B GLOSSARY", 14.0, 700.0), _pdf_line(3, 6, "Text.", 11.0, 650.0),
    ]
    assert _apply_outline(lines, [(1, "CHAPTER ONE INTRODUCTION"), (1, "APPENDIX A REFERENCES"), (1, "APPENDIX B GLOSSARY")])
    assert [line.text for line in lines if line.level] == ["CHAPTER ONE INTRODUCTION", "APPENDIX A REFERENCES",
                                                           "APPENDIX B GLOSSARY"]


def test_pdf_outline_entry_found_pages_ahead_before_the_entries_after_it_is_left_out():
    """SP 800-37r1 bookmarks figure labels ("subsystem") among its sections; the first line reading
    "Subsystem" is a glossary term 38 pages on, and taking it carried the search past chapters
    2.5-3 and Appendices A-B, which lost their headings. A match pages ahead while two of the next
    five entries come, in order, before it is out of place: the entry stays unmatched."""
    from docstrata.convert.pdf_headings import _apply_outline

    lines = [
        _pdf_line(1, 1, "1 Introduction", 14.0, 700.0), _pdf_line(1, 2, "Text.", 11.0, 650.0),
        _pdf_line(2, 3, "2 Basics", 14.0, 700.0), _pdf_line(2, 4, "A figure shows each subsystem.", 11.0, 650.0),
        _pdf_line(3, 5, "2.1 Types", 12.0, 700.0), _pdf_line(3, 6, "Text.", 11.0, 650.0),
        _pdf_line(4, 7, "2.2 Benefits", 12.0, 700.0), _pdf_line(4, 8, "Text.", 11.0, 650.0),
        _pdf_line(5, 9, "Glossary", 14.0, 700.0), _pdf_line(9, 10, "Subsystem", 11.0, 650.0),
        _pdf_line(9, 11, "A major subdivision of a system.", 11.0, 650.0),
    ]
    outline = [(1, "1 Introduction"), (1, "2 Basics"), (1, "subsystem"), (2, "2.1 Types"), (2, "2.2 Benefits"),
               (1, "Glossary")]
    assert _apply_outline(lines, outline)
    assert [line.text for line in lines if line.level] == ["1 Introduction", "2 Basics", "2.1 Types", "2.2 Benefits",
                                                           "Glossary"]


def test_sections_a_publisher_outline_nests_under_contents_are_not_contents():
    """The Senate Counting Act's bookmarks nest every section under "Contents": the contents
    section itself is contents, its sections are not (they would be ranked down in every search);
    an index's letter groups are."""
    md = ("# Contents\n\n1 Short title .... 1\n\n## 1 Short title\n\nThis Act is the Senate Counting Act.\n\n"
          "## 2 Commencement\n\nThis Act commences on the day after Royal Assent.\n\n# Index\n\n## A\n\naccess, 4\n")
    tree = build_tree(Document(doc_key="a.pdf", title="Act", markdown=md, format="pdf"))
    chunks = chunk_tree(tree, count_tokens=lambda text: len(text.split()), max_tokens=800)
    kinds = {c.section_title: c.chunk_type for c in chunks}
    assert kinds["Contents"] == "contents" and kinds["A"] == "contents"  # (the empty Index heading leads A's chunk)
    assert kinds["1 Short title"] != "contents" and kinds["2 Commencement"] != "contents"


def test_pdf_numbered_bookmarks_match_titles_printed_without_their_number_or_beside_their_label():
    """SP 800-88 bookmarks "1 Introduction" where the page shows the list number as a drawing and
    the text layer reads "Introduction" (bold): the heading is found and takes the bookmark's
    number; SP 800-34r1 sets "Chapter 1." and "Introduction" side by side in two boxes. Body text
    with the same words in the body font stays body text."""
    from dataclasses import replace

    from docstrata.convert.pdf_headings import _apply_outline

    body = [_pdf_line(p, 100 + p, "Body text of the page goes on here.", 11.0, 600.0) for p in range(1, 5)]
    lines = [
        _pdf_line(1, 1, "Introduction", 11.0, 700.0), body[0],
        replace(_pdf_line(2, 2, "Introduction", 12.0, 700.0), font="Arial-BoldMT"), body[1],
        _pdf_line(2, 3, "1.1 Purpose", 12.0, 650.0),
        replace(_pdf_line(3, 4, "Chapter 2.", 12.0, 700.0), x1=150.0),
        replace(_pdf_line(3, 5, "Background", 12.0, 700.0), x0=160.0, x1=300.0), body[2],
        _pdf_line(4, 6, "2.1 History", 12.0, 700.0), body[3],
    ]
    assert _apply_outline(lines, [(1, "1 Introduction"), (2, "1.1 Purpose"), (1, "Chapter 2. Background"),
                                  (2, "2.1 History")])
    assert [(line.page, line.text) for line in lines if line.level] == [
        (2, "1 Introduction"), (2, "1.1 Purpose"), (3, "Chapter 2. Background"), (4, "2.1 History")]
