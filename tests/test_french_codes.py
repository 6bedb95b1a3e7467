"""French codes as Archeo-Lex Markdown (Légifrance codes, one Markdown file per code): the code
numbering scheme of the citation grammar (``Article L111-1``, ``R. 211-3``, ``R*512-9-3``: one
number, id ``L111-1``), the ordinal ``Ier`` of a first container (``LIVRE Ier`` is Livre I), the
divisions ``Sous-section`` / ``Paragraphe`` under a ``Section``, and a provision nested in the
division before it by rank, whatever their Markdown levels.

The document is an excerpt of the Code de la propriété intellectuelle as Archeo-Lex renders it
(tests/fixtures/archeo-lex-cpi/NOTICE.md): its Partie législative and Partie réglementaire repeat
the same Livre, Titre and Chapitre headings. Truth is read from the excerpt's own ATX headings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import docstrata
from docstrata.convert import convert_file
from docstrata.index.exact import alias_keys, query_section_keys
from docstrata.models import Document, FileState, SourceFile
from docstrata.structure import build_tree, grammar

from .helpers import doc_project

CPI = Path(__file__).parent / "fixtures" / "archeo-lex-cpi" / "cpi_extrait.md"
CPI_DOC = CPI.name

# a heading the code numbers: a division word or "Article", then its number as printed
_NUMBERED_HEADING = re.compile(
    r"^(?P<hashes>#{1,9}) (?P<number>(?:Livre|Titre|Chapitre|Section|Sous-section|Paragraphe|Article) "
    r"(?:[LRDA]\*?\.? ?\d+(?:-\d+)+|\d+|[IVXLC]+(?:er)?))(?:\s|$)"
)
_DIVISION = re.compile(r"^(?P<hashes>#{1,9}) (?!Article )\S")


def _headings() -> list[tuple[int, int, str | None, bool]]:
    """The excerpt's headings: (line, level, printed number or None, is an article). Archeo-Lex
    writes the articles of a Section with seven '#' and more (deeper than Markdown's six levels):
    they are headings of the markup too."""
    out = []
    for n, line in enumerate(CPI.read_text(encoding="utf-8").splitlines(), 1):
        h = re.match(r"^(#{1,9}) (.*)$", line)
        if h:
            m = _NUMBERED_HEADING.match(line)
            out.append((n, len(h.group(1)), m.group("number") if m else None, h.group(2).startswith("Article ")))
    return out


@pytest.fixture(scope="module")
def cpi_tree():
    sf = SourceFile(doc_key=CPI_DOC, path=str(CPI), state=FileState(CPI.stat().st_size, 0, ""))
    return build_tree(convert_file(sf))


def _by_line(tree) -> dict[int, object]:
    return {s.start_line: s for s in tree.sections}


def test_every_numbered_heading_of_the_code_is_a_numbered_section(cpi_tree):
    by_line = _by_line(cpi_tree)
    numbered = [(n, num) for n, _, num, _ in _headings() if num]
    assert len(numbered) > 60
    wrong = [
        (n, num, by_line[n].number if n in by_line else None)
        for n, num in numbered
        if n not in by_line or by_line[n].number != num
    ]
    assert not wrong, wrong[:10]


def test_articles_written_deeper_than_six_levels_are_sections_of_their_section(cpi_tree):
    """Archeo-Lex's '####### Article L132-23' under '###### Section 3': a numbered section whose
    parent is the division heading right above it (Section or Sous-section), not text of it."""
    heads = _headings()
    deep = [(k, n, num) for k, (n, level, num, article) in enumerate(heads) if level > 6 and article]
    assert len(deep) >= 10
    by_line = _by_line(cpi_tree)
    for k, n, num in deep:
        assert n in by_line and by_line[n].number == num, (n, num)
        division_above = next(h[0] for h in reversed(heads[:k]) if not h[3])
        assert by_line[n].parent_id == by_line[division_above].section_id, (num, by_line[n].parent_id)


def test_code_article_numbers_are_one_number_and_the_id(cpi_tree):
    ids = {s.section_id: s for s in cpi_tree.sections}
    assert ids["L111-1"].number == "Article L111-1"
    assert ids["L122-2-1"].number == "Article L122-2-1"  # three parts: one number, not a range
    assert ids["R*512-9-3"].number == "Article R*512-9-3"  # a décret en Conseil d'État
    assert {"Article L121-4", "Art. L121-4", "L121-4"} <= set(ids["L121-4"].aliases)
    # the ordinal of a first container is number 1 of its series (Livre I, II …), printed as written
    firsts = [s for s in cpi_tree.sections if s.number in ("Livre Ier", "Titre Ier", "Chapitre Ier")]
    assert len(firsts) >= 8
    assert all(s.section_id.split("/")[-1].split("-2")[0].endswith("-i") for s in firsts), [
        s.section_id for s in firsts
    ]
    # sous-sections are numbered divisions of their Section
    subs = [s for s in cpi_tree.sections if s.number and s.number.startswith("Sous-section")]
    assert [s.section_id for s in subs] == ["sous-section-1", "sous-section-2", "sous-section-3"]
    assert {s.parent_id for s in subs} == {"titre-ii/section-3"}


def test_the_code_repeats_its_divisions_in_each_partie(cpi_tree):
    """The Partie réglementaire repeats 'Livre Ier : Le droit d'auteur', 'Titre Ier', 'Chapitre Ier'
    of the Partie législative: both runs are sections (a nested opening, not a table of contents)."""
    livres = [s for s in cpi_tree.sections if s.number == "Livre Ier"]
    assert len(livres) == 2 and all(s.title == "Livre Ier : Le droit d'auteur" for s in livres)


def test_each_article_hangs_under_the_division_heading_before_it(cpi_tree):
    """Truth from the markup: an article's parent is the nearest division heading above it of the
    same or a lower Markdown level; a division's, the nearest one of a lower level."""
    by_line = _by_line(cpi_tree)
    heads = _headings()
    wrong = []
    for k, (n, level, _, article) in enumerate(heads):
        above = [h for h in heads[:k] if not h[3] and (h[1] <= level if article else h[1] < level)]
        if not above or n not in by_line:
            continue
        # "Première partie" is printed between the Partie and its Livres: the Livre's real holder
        want = by_line[above[-1][0]].section_id
        if by_line[n].parent_id != want:
            wrong.append((by_line[n].section_id, by_line[n].parent_id, want))
    assert len(wrong) <= 2, wrong  # the Livres under "Première partie" only
    assert all(w[1].startswith("première-partie") for w in wrong), wrong


SAME_LEVEL = """# Partie législative
## LIVRE Ier : DISPOSITIONS GÉNÉRALES
### TITRE Ier : GÉNÉRALITÉS
#### Chapitre Ier : Droit au séjour
#### Article L111-1
Le présent code régit l'entrée.
#### Sous-section 1 : Visa
#### Article 5
Texte.
#### Article R. 211-3
Texte, selon l'article L. 111-1.
"""


def test_a_provision_at_the_level_of_the_division_before_it_belongs_to_it():
    """Archeo-Lex writes '#### Chapitre Ier' and its '#### Article L111-1' at one level: the
    article ranks below every division, so it nests in the chapter (and the next ones in the
    Sous-section), not beside them under the Titre."""
    tree = build_tree(Document(doc_key="fr.md", title="Code", markdown=SAME_LEVEL, format="md"))
    ids = {s.section_id: s for s in tree.sections}
    assert [ids[i].parent_id for i in ("livre-i", "titre-i", "chapitre-i")] == [
        "partie-législative",
        "livre-i",
        "titre-i",
    ]
    assert ids["L111-1"].parent_id == "chapitre-i"
    assert ids["sous-section-1"].parent_id == "chapitre-i" and ids["sous-section-1"].number == "Sous-section 1"
    assert ids["article-5"].parent_id == "sous-section-1" and ids["R211-3"].parent_id == "sous-section-1"
    assert [(x.target, x.section_id) for x in tree.cross_references if "L. 111-1" in x.text] == [("L111-1", "L111-1")]


def test_a_container_without_a_number_still_ranks_as_its_keyword():
    """'Chapitre unique', 'Section unique : Procédure' (the only one of their kind, so unnumbered)
    hold the articles written at their level, as a numbered Chapitre does."""
    text = (
        "# Partie législative\n## Livre VIII : Outre-mer\n### Titre unique\n#### Chapitre unique\n"
        "#### Article L811-1\nTexte.\n#### Article L811-2\nTexte.\n### Titre II : Suite\n"
        "#### Section unique : Procédure\n#### Article L821-1\nTexte.\n"
    )
    tree = build_tree(Document(doc_key="fr.md", title="Code", markdown=text, format="md"))
    ids = {s.section_id: s for s in tree.sections}
    assert ids["chapitre-unique"].number is None and ids["chapitre-unique"].parent_id == "titre-unique"
    assert ids["L811-1"].parent_id == ids["L811-2"].parent_id == "chapitre-unique"
    assert ids["titre-ii"].parent_id == "livre-viii"
    assert ids["L821-1"].parent_id == "section-unique-procédure"


def test_an_english_article_at_the_level_of_its_chapter_belongs_to_it():
    text = "# Act\n## Chapter 2 General\n## Article 7 Scope\nText.\n## Article 8 Terms\nText.\n## Chapter 3 Other\n"
    tree = build_tree(Document(doc_key="act.md", title="Act", markdown=text, format="md"))
    ids = {s.section_id: s for s in tree.sections}
    assert ids["article-7"].parent_id == ids["article-8"].parent_id == "chapter-2"
    assert ids["chapter-3"].parent_id == "act"


# ---------------------------------------------------------------- the grammar


@pytest.mark.parametrize(
    "written,canonical",
    [
        ("L111-1", "L111-1"),
        ("L. 121-4", "L121-4"),
        ("R. 211-3", "R211-3"),
        ("D. 321-14", "D321-14"),
        ("R* 512-9-3", "R*512-9-3"),
        ("LO 111-1", "LO111-1"),
        ("121-4", None),
        ("L. 121", None),
        ("l. 121-4", None),
    ],
)
def test_code_number(written, canonical):
    assert grammar.code_number(written) == canonical


def test_ordinals_of_a_first_container():
    assert [grammar.ordinal_number(w) for w in ("Ier", "IER", "1er", "Ire", "Ière", "1re", "premier", "Iers")] == [
        "I",
        "I",
        "1",
        "I",
        "I",
        "1",
        "1",
        None,
    ]


@pytest.mark.parametrize(
    "form,keys",
    [
        ("Article L. 121-4", [["article l121-4", "l121-4"]]),
        ("article L121-4", [["article l121-4", "l121-4"]]),
        ("L. 121-4", [["l121-4"]]),
        ("R. 211-3", [["r211-3"]]),
        (
            "articles L. 311-1 à L. 311-3",
            [["article l311-1", "l311-1"], ["article l311-2", "l311-2"], ["article l311-3", "l311-3"]],
        ),
    ],
)
def test_query_analysis_reads_a_code_article(form, keys):
    assert query_section_keys(form) == keys


def test_a_hyphenated_article_number_is_one_key_and_an_ascending_range_still_reads():
    """The Code civil's 'Article 16-14' (tests/fixtures/code-civil-fr) is cited 'article 16-14':
    one key, the one its alias gives; 'sections 10-12' may be a range, so its members follow."""
    assert query_section_keys("article 16-14") == [["article 16-14"]] and alias_keys("Article 16-14") == ["article 16-14"]
    assert query_section_keys("Article 16-1-1") == [["article 16-1-1"]]
    assert query_section_keys("sections 10-12")[1:] == [["section 10", "10"], ["section 11", "11"], ["section 12", "12"]]


def test_section_aliases_and_citations_meet_on_one_key():
    assert set(alias_keys("Article L121-4")) & set(query_section_keys("l'article L. 121-4")[0])
    with grammar.document_language("fr"):
        for form, ids in {
            "l'article L. 121-4": ["L121-4"],
            "articles L. 311-1 à L. 311-3": ["L311-1", "L311-2", "L311-3"],
            "Chapitre Ier": ["chapitre-i"],
            "l'article 16-14": ["article-16-14"],  # the Code civil's hyphenated numbers: one article
        }.items():
            c = grammar.parse_citation(form)
            assert c is not None and [grammar.citation_key(x) for x in grammar.expand(c)] == ids, form
    c = grammar.parse_citation("ss 10-12")  # English: a hyphen between plain numbers is a range
    assert [grammar.citation_key(x) for x in grammar.expand(c)] == ["10", "11", "12"]


# ---------------------------------------------------------------- search, get-section, cross-references


@pytest.fixture(scope="module")
def cpi_tool(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("french_code")
    cfg = doc_project(root, {}, max_chunk_tokens=800, chunk_overlap=0)
    (root / "docs" / CPI_DOC).write_bytes(CPI.read_bytes())
    ts = docstrata.open(cfg)
    t = ts["docs"]
    t.ingest()
    yield t
    ts.close()


CITED = [
    ("Article L. 121-4", "L121-4"),
    ("article L121-4", "L121-4"),
    ("L. 121-4", "L121-4"),
    ("Article L. 122-2-1", "L122-2-1"),
    ("R. 111-2", "R111-2"),
    ("Article R*512-9-3", "R*512-9-3"),
]


@pytest.mark.parametrize("form,expected", CITED, ids=[f for f, _ in CITED])
def test_search_pins_the_cited_code_article_first(cpi_tool, form, expected):
    top = cpi_tool.search(form, top_k=3)[0]
    assert top.exact_match and top.pinned and top.section_id == expected, (form, top.section_id)


def _article_opening(number: str) -> str:
    """The first words of an article's text in the excerpt (the line after its heading)."""
    lines = CPI.read_text(encoding="utf-8").splitlines()
    at = next(n for n, ln in enumerate(lines) if re.fullmatch(rf"#+ Article {re.escape(number)}", ln))
    return next(ln for ln in lines[at + 1 :] if ln.strip())[:40]


@pytest.mark.parametrize("form,expected", CITED, ids=[f for f, _ in CITED])
def test_get_section_reads_a_code_article_as_search_does(cpi_tool, form, expected):
    page = cpi_tool.get_section(CPI_DOC, form, max_chars=None)
    assert page.section_id == expected
    assert _article_opening(expected) in page.content


def test_code_cross_references_resolve_to_the_articles(cpi_tool):
    refs: dict[str, set[str | None]] = {}
    for c in cpi_tool.store.document_chunks(CPI_DOC):
        for x in c.cross_references:
            refs.setdefault(x.text, set()).add(x.section_id)
    assert refs["article L. 121-1"] == {"L121-1"}, sorted(refs)[:20]  # "l'article L. 121-1" of article L121-5
    assert refs["article L. 111-1"] == {"L111-1"}
    # "articles L. 111-3, L. 121-4, L. 121-5, L. 122-1 à L. 122-7, …" of article L132-24: each member
    listed = {
        x.target: x.section_id
        for c in cpi_tool.store.document_chunks(CPI_DOC)
        for x in c.cross_references
        if x.text.startswith("articles L. 111-3, L. 121-4")
    }
    assert listed.get("L121-4") == "L121-4" and listed.get("L111-3") == "L111-3", listed
    assert {f"L122-{k}" for k in range(1, 8)} <= set(listed), sorted(listed)  # the range filled in
    assert all(listed[f"L122-{k}"] == f"L122-{k}" for k in range(1, 5))  # the ones the excerpt holds


def test_a_reference_into_another_code_names_that_code(cpi_tree):
    """'article D. 314-128 du code de l'éducation' cites another code: its document, no section of
    this one (this code has no D314-128, but a number it has would be as wrong)."""
    refs = [x for x in cpi_tree.cross_references if x.target == "D314-128"]
    assert [(x.document, x.section_id) for x in refs] == [("code de l'éducation", None)]
    text = "# Code\n## Article L1-1\nVoir l'article L. 1-2 du code de commerce et l'article L. 1-2.\n## Article L1-2\nTexte.\n"
    tree = build_tree(Document(doc_key="code.md", title="Code", markdown=text, format="md"))
    assert [(x.document, x.section_id) for x in tree.cross_references] == [("code de commerce", None), (None, "L1-2")]
