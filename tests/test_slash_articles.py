"""Articles inserted with a slash number (``**Art. 216/1.**``), as Belgian consolidated acts number
the articles a later law inserts after an existing one, on the Justel Markdown of the Code
d'instruction criminelle (tests/fixtures/be-laws-fr/NOTICE.md). Truth from the fixture's own markup:
every bold ``Art. N/M.`` run-in label is an article, cited ``l'article 216/1``; Art. 216's own
paragraphs ``§2`` … stay its paragraphs, apart from the inserted Art. 216/2."""

from __future__ import annotations

import re
from pathlib import Path

from docstrata.index.exact import alias_keys, query_section_keys
from docstrata.models import Document
from docstrata.structure import build_tree
from docstrata.structure.grammar import document_language

CIC = Path(__file__).parent / "fixtures" / "be-laws-fr" / "code-instruction-criminelle-livre-ii-extrait.md"


def _tree():
    text = CIC.read_text(encoding="utf-8")
    return text, build_tree(Document(doc_key=CIC.name, title="", markdown=text, format="md"))


def test_every_slash_numbered_article_is_a_section_of_its_own():
    text, tree = _tree()
    printed = re.findall(r"(?m)^\*\*Art\. (\d+/\d+)\.\*\*", text)
    assert len(printed) >= 5
    by_number = {s.number: s for s in tree.sections if s.number}
    for n in printed:
        art = by_number[f"Art. {n}"]
        assert art.section_id == "article-" + n.replace("/", "-")
        assert art.parent_id and art.parent_id.startswith("section-")  # in the Section heading above it
    ids = [s.section_id for s in tree.sections]
    assert len(ids) == len(set(ids))
    # Art. 216's paragraph "§2" and the inserted Art. 216/2 are two sections
    assert {"article-216/2", "article-216-2"} <= set(ids)
    assert next(s for s in tree.sections if s.section_id == "article-216/2").parent_id == "article-216"
    # the inserted article's own "§2" paragraphs are its paragraphs
    assert next(s for s in tree.sections if s.section_id == "article-216-2/2").parent_id == "article-216-2"


def test_a_slash_numbered_citation_resolves_to_that_article():
    _, tree = _tree()
    refs = [(r.text, r.section_id) for r in tree.cross_references]
    assert ("article 216/1", "article-216-1") in refs
    assert ("article 216/3, § 1er", "article-216-3(1)") in refs  # its first numbered paragraph
    ranged = [s for t, s in refs if t == "articles 216/1 à 216/7"]
    assert ranged == [f"article-216-{k}" for k in range(1, 8)]


def test_a_query_naming_a_slash_article_finds_its_keys():
    _, tree = _tree()
    art = next(s for s in tree.sections if s.section_id == "article-216-1")
    indexed = {k for a in art.aliases for k in alias_keys(a)}
    with document_language("fr"):
        for query in ("Art. 216/1", "article 216/1"):
            keys = query_section_keys(query)
            assert keys and keys[0][0] in indexed, (query, keys, indexed)


def test_an_instrument_number_with_a_slash_is_no_article():
    with document_language("en"):
        keys = [k for ks in query_section_keys("Article 6 of Regulation 2016/679") for k in ks]
    assert "article 6" in keys and not any("679" in k for k in keys)
    _, tree = _tree()
    # the amendment notes ("L 2018-07-22/05, art. 4") cite the amending law's article 4, never an article "22/05"
    assert not [r for r in tree.cross_references if "/05" in r.target or "22-05" in r.target]
    assert any(r.text == "art. 4" and r.document == "L 2018-07-22/05" for r in tree.cross_references)


PENSIONS = Path(__file__).parent / "fixtures" / "be-laws-fr" / "pensions-1844-chapitre-ii-extrait.md"


def test_an_article_inserted_between_two_with_no_heading_between_is_kept():
    """``**Art. 24/1.**`` stands between Art. 24 and Art. 25 with no heading between: it continues
    their numbering as an inserted article (like ``24bis``), so the numbering series keeps it, and
    its ``§2`` is its own paragraph, not Art. 24's."""
    text = PENSIONS.read_text(encoding="utf-8")
    printed = re.findall(r"(?m)^\*\*Art\. (\d+(?:/\d+|bis)?)\.\*\*", text)
    assert "24/1" in printed
    tree = build_tree(Document(doc_key=PENSIONS.name, title="", markdown=text, format="md"))
    numbers = [s.number for s in tree.sections if s.number and s.number.startswith("Art.")]
    assert numbers == [f"Art. {n}" for n in printed]
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["article-24-1"].parent_id == by_id["article-24"].parent_id == "section-ii"
    assert "au 1er janvier 2012" in by_id["article-24-1"].text and "au 1er janvier 2012" not in by_id["article-24"].text
    assert by_id["article-24-1/2"].parent_id == "article-24-1"
