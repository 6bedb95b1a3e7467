"""EUR-Lex XHTML (an Official Journal act as eur-lex.europa.eu serves it, ``oj-*`` classes): its
articles, paragraphs, chapters and titles come out as the act's own markup names them, and its
references resolve as a lawyer reads them. Truth is read from the markup (``id="art_5"``,
``id="005.001"``, ``p.oj-ti-art`` + ``p.oj-sti-art``), never from our output.

Inputs: Implementing Regulation (EU) 2024/2979 (tests/fixtures/eurlex, see its NOTICE) and, when
present, 2024/2981 (452 KB, in ``$DOCSTRATA_EURLEX_DIR``: too large to keep) and the Interoperable
Europe Act (shared data); each absent one skips its cases, saying why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, XMLParsedAsHTMLWarning

from docstrata.convert import convert_file
from docstrata.index.exact import query_section_keys
from docstrata.models import SourceFile
from docstrata.structure import build_tree

from .conftest import SHARED_DATA, external_file
from .helpers import alias_owners, sections_by_id

FIXTURE = Path(__file__).parent / "fixtures" / "eurlex" / "32024R2979.html"
LARGE = Path("32024R2981.html")  # in $DOCSTRATA_EURLEX_DIR: same source as the fixture (NOTICE); too large to keep


# a third act, from the shared evaluation data (bench/structure_real.py's dev split): its Chapter
# titles are bold spans, one Article title runs to 13 words, and footnote markers "(1)" follow
# its last Article's paragraph 1
SHARED_ACT = SHARED_DATA / "real" / "legislation" / "eu-reg-2024-903-interoperable-europe-act.html"


def _docs() -> list[Path]:
    return [FIXTURE, LARGE, SHARED_ACT]


def _present(path: Path) -> Path:
    """``path`` itself, or where it is on this machine; skips (saying why) when it is not."""
    if path == LARGE:
        return external_file("DOCSTRATA_EURLEX_DIR", LARGE.name, "Implementing Regulation (EU) 2024/2981 from EUR-Lex")
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared evaluation data is not on this machine")
    return path


def _tree(path: Path):
    return build_tree(convert_file(SourceFile(path.name, str(path), None)))


def _markup_truth(path: Path) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """From the act's markup: article id → "Article N Title"; paragraph id (``article-5(1)``) →
    its article id; chapter id → "CHAPTER II TITLE"."""
    soup = BeautifulSoup(path.read_bytes(), "lxml")
    text = lambda t: " ".join(t.get_text(" ").split())  # noqa: E731
    articles, paragraphs, chapters = {}, {}, {}
    for div in soup.find_all("div", id=re.compile(r"^art_\d+[a-z]*$")):
        num = div["id"][4:]
        label = div.find("p", class_="oj-ti-art")
        sub = div.find("p", class_="oj-sti-art")
        articles[f"article-{num}"] = " ".join(filter(None, [text(label), sub and text(sub)]))
    for div in soup.find_all("div", id=re.compile(r"^\d{3}\.\d{3}$")):
        art, par = (int(x) for x in div["id"].split("."))
        first = div.find("p")
        if first is not None and re.match(rf"{par}\.\s", text(first) + " "):  # "1.   text": a numbered paragraph
            paragraphs[f"article-{art}({par})"] = f"article-{art}"
    for div in soup.find_all("div", id=re.compile(r"^cpt_[IVXLC]+$")):
        label = div.find("p", class_="oj-ti-section-1", recursive=False)
        sub = div.find("p", class_="oj-ti-section-2")
        chapters[f"chapter-{div['id'][4:].lower()}"] = " ".join(filter(None, [text(label), sub and text(sub)]))
    return articles, paragraphs, chapters


@pytest.mark.filterwarnings("ignore", category=XMLParsedAsHTMLWarning)
@pytest.mark.parametrize("path", _docs(), ids=lambda p: p.name)
def test_articles_paragraphs_and_chapters_are_named_as_the_markup_names_them(path):
    """Paragraph ``1.`` of Article 5 is ``article-5(1)`` (before: ``article-5/1``, so "Article 5(1)"
    found nothing), a child of ``article-5``; points under it are ``article-5(1)(a)``. Each Article
    and Chapter carries its title (before: "Article 5" alone, the ``oj-sti-art`` line was lost)."""
    path = _present(path)
    articles, paragraphs, chapters = _markup_truth(path)
    assert articles and paragraphs
    by_id = sections_by_id(_tree(path))
    for sid, title in articles.items():
        assert " ".join(by_id[sid].title.split()) == title, sid
    for sid, article in paragraphs.items():
        assert sid in by_id and by_id[sid].parent_id == article, sid
    for sid, title in chapters.items():
        assert " ".join(by_id[sid].title.split()) == title, sid
    assert not [s for s in by_id if re.fullmatch(r"article-\d+/\d+", s)]
    points = [s for s in by_id.values() if s.parent_id in paragraphs and s.number and s.number.startswith("(")]
    assert points and all(p.section_id == p.parent_id + p.number for p in points)


def test_the_document_title_is_the_acts_title_not_its_file_name():
    doc = convert_file(SourceFile(FIXTURE.name, str(FIXTURE), None))
    assert doc.title.startswith("COMMISSION IMPLEMENTING REGULATION (EU) 2024/2979 of 28 November 2024 laying down")
    assert "fmx.xml" not in doc.title


def test_article_paragraph_citations_find_the_paragraph():
    """"Article 5(1)" and "Art. 9(2)" are exact keys of those paragraphs and of nothing else."""
    owners = alias_owners(_tree(FIXTURE))
    for query, sid in (("Article 5(1)", "article-5(1)"), ("Art. 9(2)", "article-9(2)"),
                       ("Article 5(1)(c)", "article-5(1)(c)")):
        keys = query_section_keys(query)[0]
        assert owners.get(keys[0]) == {sid}, (query, keys, owners.get(keys[0]))


@pytest.mark.parametrize("path", _docs(), ids=lambda p: p.name)
def test_relative_paragraph_references_stay_in_their_article(path):
    """"as referred to in paragraph 2" names paragraph 2 of the article it is written in."""
    path = _present(path)
    tree = _tree(path)
    relative = [x for x in tree.cross_references if re.match(r"paragraphs?\s+\d", x.text) and not x.document]
    assert relative
    for x in relative:
        article = re.match(r"article-\d+[a-z]*", x.source_section_id or "")
        if article is None:
            continue  # a recital's or annex's "paragraph 2" has no article to be relative to
        assert x.section_id and x.section_id.startswith(article.group(0) + "("), x


@pytest.mark.parametrize("path", _docs(), ids=lambda p: p.name)
def test_references_into_another_act_name_that_act(path):
    """"Article 5a(4) of Regulation (EU) No 910/2014", "Article 5d(2), point (a), of Regulation …":
    the Article of the other act, never this act's own Article 5 or 8 — also when this act's title
    names that act ("laying down rules for the application of Regulation (EU) No 910/2014")."""
    path = _present(path)
    doc = convert_file(SourceFile(path.name, str(path), None))
    tree = build_tree(doc)
    own = re.search(r"\d{1,4}/\d{1,4}", doc.title).group(0)
    bodies = {s.section_id: " ".join(s.text.split()) for s in tree.sections}
    external = 0
    for x in tree.cross_references:
        body = bodies.get(x.source_section_id, "")
        for m in re.finditer(re.escape(x.text), body):
            other = re.match(r"(?:,? points? \(\w+\),?)? of (?:Regulation|Directive|Decision) (?:\(E[UC]\) )?"
                             r"(?:No )?(\d{1,4}/\d{1,4})", body[m.end():m.end() + 60])
            if other and other.group(1) != own:
                assert x.document and other.group(1) in x.document and x.section_id is None, (x, other.group(0))
                external += 1
                break
    assert external >= 3
    assert not [x for x in tree.cross_references if x.document and own in x.document]  # its own number is itself


def test_a_section_sign_query_pins_no_eu_paragraph():
    """"§ 4" asks for a section 4; this act has none. Paragraph 4 of Articles 7 and 9 is cited
    "Article 7(4)", never by its bare number (before, both answered "§ 4")."""
    owners = alias_owners(_tree(FIXTURE))
    for query in ("§ 4", "section 4"):
        assert not [owners[k] for k in query_section_keys(query)[0] if k in owners], query
    assert owners[query_section_keys("Article 7(4)")[0][0]] == {"article-7(4)"}
