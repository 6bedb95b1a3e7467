"""A unit keyword and a roman numeral alone on a line (``CHAPTER III`` / its title on the next line)
between the document's Markdown chapter headings (``# CHAPTER II: …``, ``# CHAPTER IV: …``) is a
chapter, and holds the Articles after it: the EU DORA regulation as Markdown converted from the
Official Journal writes six of its nine chapters as headings and three as such plain lines.

Input: an excerpt of that Markdown (tests/fixtures/eu-md, see its NOTICE). Before: CHAPTER III was
no section (Articles 17–18 stood under Chapter II) and the Articles after CHAPTER V and CHAPTER VI
had no parent. Truth is read from the text's own lines (the last ``CHAPTER`` line above each
``## Article``), never from our output.
"""

from __future__ import annotations

import re
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree

from .helpers import sections_by_id

FIXTURE = Path(__file__).parent / "fixtures" / "eu-md" / "dora-chapters-excerpt.md"


def _truth() -> tuple[list[str], dict[str, str], list[str]]:
    """(chapters in order, article id → its chapter id, the chapters written as plain lines)."""
    chapters, articles, plain, current = [], {}, [], None
    for line in FIXTURE.read_text(encoding="utf-8").split("\n"):
        if m := re.match(r"^(#+\s*)?CHAPTER ([IVXLC]+)\b", line):
            current = f"chapter-{m.group(2).lower()}"
            chapters.append(current)
            if not m.group(1):
                plain.append(current)
        elif (m := re.match(r"^#+\s*Article (\d+)\b", line)) and current:
            articles[f"article-{m.group(1)}"] = current
    return chapters, articles, plain


def _ancestors(by_id, sid: str) -> list[str]:
    out = []
    while (sid := by_id[sid].parent_id) is not None:
        out.append(sid)
    return out


def test_plain_chapter_lines_are_chapters_holding_their_articles():
    chapters, articles, plain = _truth()
    assert len(plain) >= 2 and len(articles) >= 6
    tree = build_tree(convert_file(SourceFile(FIXTURE.name, str(FIXTURE), None)))
    by_id = sections_by_id(tree)
    assert [s.section_id for s in tree.sections if s.section_id in chapters] == chapters
    for chapter in plain:
        assert by_id[chapter].parent_id is None  # a chapter of the act, beside the heading ones
    for article, chapter in articles.items():
        assert chapter in _ancestors(by_id, article), (article, chapter, by_id[article].parent_id)


def test_a_chapter_mentioned_at_a_line_start_is_no_chapter():
    """``Chapter V, Section II, of this Regulation, compliance …`` opens a line of Article 46: a
    citation of Chapter V, which comes before, not a chapter of its own."""
    text = FIXTURE.read_text(encoding="utf-8")
    assert re.search(r"(?m)^Chapter V, Section II, of this Regulation", text)
    tree = build_tree(convert_file(SourceFile(FIXTURE.name, str(FIXTURE), None)))
    numbered = [s.section_id for s in tree.sections if s.number and s.number.upper().startswith("CHAPTER V")]
    assert numbered.count("chapter-v") == 1 and not any(sid.startswith("chapter-v-") for sid in numbered)
    assert sections_by_id(tree)["article-46"].parent_id == "chapter-vii"
