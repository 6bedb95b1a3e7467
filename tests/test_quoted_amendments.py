"""Quoted amending text opens no provision of the amending act, and the amending act's limbs go on
past it (``structure/parse/quotes.py``, ``filtering._same_list``, ``build._item_form``).

Fixture: ``tests/fixtures/it-senato-amendments`` (see its NOTICE.md), Article 1 points a) to h) and
Article 3 of an Italian Senate bill in Akoma Ntoso, read through ``convert_file`` and ``build_tree`` as
ingest reads them. Point f) inserts an article 17-bis whose six paragraphs are six ``<p>`` of the
point, the first opening with « and the last closing with »: paragraphs 2. to 6. were read as
paragraphs 2 to 6 of Article 1, and the points g) and h) after them as their limbs. Points d) and g)
hold numbers ``1)``, ``2)`` (an Italian ``numero`` under its ``lettera``): they were read as
paragraphs of the Article beside ``1.``, and the letters after them were lost."""

from __future__ import annotations

from pathlib import Path

from docstrata.convert import convert_file
from docstrata.sources import source_file
from docstrata.structure import build_tree

BILL = Path(__file__).parent / "fixtures" / "it-senato-amendments" / "it-senato-ddl-2013-art1-excerpt.akn.xml"


def _sections() -> dict:
    return {s.section_id: s for s in build_tree(convert_file(source_file(BILL))).sections}


def test_quoted_paragraphs_open_no_provision() -> None:
    by_id = _sections()
    article_1 = [sid for sid in by_id if sid.startswith("article-1")]
    assert [sid for sid in article_1 if by_id[sid].parent_id == "article-1"] == ["article-1(1)"]
    # the inserted article 17-bis, paragraphs 1. to 6., is text of the point that quotes it
    f = by_id["article-1(1)(f)"].text
    assert "«Art. 17-bis. -- 1. La presentazione" in f
    assert "6. L'accettazione della candidatura" in f and "in altri collegi»;" in f


def test_letters_go_on_past_quotations_and_numbered_sublists() -> None:
    by_id = _sections()
    letters = [sid for sid in by_id if sid.startswith("article-1(1)(") and sid.count("(") == 2]
    assert letters == [f"article-1(1)({x})" for x in "abcdefgh"]
    assert all(by_id[sid].parent_id == "article-1(1)" for sid in letters)
    assert [sid for sid in by_id if by_id[sid].parent_id == "article-1(1)(d)"] == [
        "article-1(1)(d)(1)",
        "article-1(1)(d)(2)",
    ]
    assert [sid for sid in by_id if by_id[sid].parent_id == "article-1(1)(g)"] == [
        "article-1(1)(g)(1)",
        "article-1(1)(g)(2)",
    ]
    # the paragraphs "«3. Ogni lista …" and "3-bis. …" that g)2) inserts are its text
    assert "3-bis. Ogni lista nazionale" in by_id["article-1(1)(g)(2)"].text


def test_an_article_that_quotes_nothing_keeps_its_paragraphs() -> None:
    by_id = _sections()
    assert [(sid, by_id[sid].parent_id) for sid in by_id if sid.startswith("article-3")] == [
        ("article-3", None),
        ("article-3(1)", "article-3"),
        ("article-3(1)(a)", "article-3(1)"),
        ("article-3(1)(b)", "article-3(1)"),
        ("article-3(2)", "article-3"),
        ("article-3(3)", "article-3"),
        ("article-3(4)", "article-3"),
    ]
