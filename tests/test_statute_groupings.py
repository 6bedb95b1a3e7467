"""Lettered groupings of a statute's articles and lists of paragraphs inside one article, on a Swiss
association's statutes in Markdown, English and German (tests/fixtures/factharbor-statutes/NOTICE.md).

The statutes write their divisions ``## III. Governing Bodies`` and, at the articles' own level,
lettered groups: ``### A. General Assembly`` directly above ``### Article 10``, ``### Article 11``,
``### Article 12``; ``### B. Board (Vorstand)`` above Articles 13–18; ``### C. Auditor`` above Article
19. Truth, read from the document: each letter groups the articles after it up to the next letter or
division, and sits in the division beside Article 9 (which precedes the first group). Article 27(5)
cites "Article 4 paragraphs 1–2" ("Art. 4 Abs. 1–2" in the German text): both paragraphs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.models import Document
from docstrata.structure import build_tree
from docstrata.structure.xrefs import find_cross_references

FIXTURES = Path(__file__).parent / "fixtures" / "factharbor-statutes"
# the groups as the document lays them out: letter → the articles it groups
GROUPS = {"A": (10, 11, 12), "B": (13, 14, 15, 16, 17, 18), "C": (19,)}


def _tree(name: str):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return build_tree(Document(doc_key=name, title="", markdown=text, format="md"))


@pytest.mark.parametrize(
    ("name", "prefix"), [("statutes-en-excerpt.md", "article"), ("statuten-de-excerpt.md", "artikel")]
)
def test_a_lettered_group_holds_the_articles_after_it(name, prefix):
    tree = _tree(name)
    by_id = {s.section_id: s for s in tree.sections}
    for letter, articles in GROUPS.items():
        group = by_id[letter]
        assert group.parent_id == "III", (letter, group.parent_id)
        for n in articles:
            assert by_id[f"{prefix}-{n}"].parent_id == letter, (n, by_id[f"{prefix}-{n}"].parent_id)
    # the article before the first group, and those of divisions without groups, stay in their division
    assert by_id[f"{prefix}-9"].parent_id == "III"
    assert by_id[f"{prefix}-4"].parent_id == "I"
    assert by_id[f"{prefix}-27"].parent_id == "VI"
    # an article's own numbered paragraphs are still its children, not the group's
    assert by_id[f"{prefix}-12(8)"].parent_id == f"{prefix}-12"


def test_a_lettered_heading_inside_an_article_stays_in_it():
    """The mechanism reads the layout, not the letter: ``A.``/``B.`` headings that open text of their
    own (parts of one article) and never open an article are that article's parts."""
    text = (
        "# Act\n\n### Article 5 Scope\n\nThis Article applies as follows.\n\n### A. Goods\n\n"
        "It applies to goods.\n\n### B. Services\n\nIt applies to services.\n\n### Article 6 Other\n\nText.\n"
    )
    tree = build_tree(Document(doc_key="act.md", title="", markdown=text, format="md"))
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["A"].parent_id == by_id["B"].parent_id == "article-5"
    assert by_id["article-6"].parent_id == by_id["article-5"].parent_id


@pytest.mark.parametrize(
    ("name", "source", "written", "article"),
    [
        ("statutes-en-excerpt.md", "article-27(5)", "Article 4 paragraphs 1–2", "article-4"),
        ("statuten-de-excerpt.md", "artikel-27(5)", "Art. 4 Abs. 1–2", "artikel-4"),
    ],
)
def test_a_range_of_paragraphs_inside_an_article_names_each(name, source, written, article):
    tree = _tree(name)
    refs = [r for r in tree.cross_references if r.source_section_id == source and r.text == written]
    assert [r.section_id for r in refs] == [f"{article}(1)", f"{article}(2)"]


@pytest.mark.parametrize(
    "text",
    [
        "Article 4 paragraphs 1–2",
        "Article 4(1)–(2)",
        "paragraphs 1 and 2 of Article 4",
        "Article 4, paragraphs 1 and 2",
    ],
)
def test_each_form_of_a_compound_list_names_both_paragraphs(text):
    tree = _tree("statutes-en-excerpt.md")
    refs = find_cross_references(f"The provisions of {text} may only be amended.", tree, "article-27(5)")
    assert [r.section_id for r in refs] == ["article-4(1)", "article-4(2)"]


def test_a_comma_and_a_later_number_is_no_list():
    tree = _tree("statutes-en-excerpt.md")
    refs = find_cross_references("as Article 4, paragraph 1, 2 months after notice", tree, "article-27(5)")
    assert [r.section_id for r in refs] == ["article-4(1)"]
