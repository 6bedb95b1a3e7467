"""Markdown forms of structure: provisions written as a bold run-in label at the start of their paragraph (``**Art. 3bis.** La
Belgique comprend …``): the Justel consolidations of Belgian law rendered to Markdown
(tests/fixtures/be-laws-fr/NOTICE.md), Swiss and other statutes, contracts. The bold marks the
label; the text runs on. Truth from the fixture's own markup: every bold ``Art. N.`` run."""

from __future__ import annotations

import re
from pathlib import Path

from docstrata.models import Document
from docstrata.structure import build_tree
from docstrata.structure.grammar import document_language

CONSTITUTION = Path(__file__).parent / "fixtures" / "be-laws-fr" / "constitution-1831-extrait.md"


def _tree(text: str, key: str = "doc.md"):
    return build_tree(Document(doc_key=key, title="t", markdown=text, format="md"))


def test_every_bold_article_label_of_the_constitution_is_a_section():
    text = CONSTITUTION.read_text(encoding="utf-8")
    printed = re.findall(r"(?m)^\*\*Art\. (\d+(?:bis|ter|quater)?)\.\*\*", text)
    assert len(printed) >= 10 and "3bis" in printed and "3ter" in printed
    tree = _tree(text, CONSTITUTION.name)
    numbers = {s.number for s in tree.sections if s.number}
    missing = [n for n in printed if not any(num.endswith(f" {n}") or num == n for num in numbers)]
    assert not missing, (missing, sorted(numbers))
    by_number = {s.number.split()[-1]: s for s in tree.sections if s.number}
    # each article hangs under the Titre heading above it, and holds its own text only
    assert by_number["2"].parent_id == by_number["1"].parent_id == "titre-i"
    assert by_number["4"].parent_id == "titre-ii"
    assert "quatre régions linguistiques" in by_number["3bis"].text
    assert "quatre régions linguistiques" not in by_number["3"].text


def test_a_bold_phrase_or_a_bold_word_number_is_no_label():
    text = (
        "# Terms\n\n**Access and Use.** Customer may use the service.\n\n"
        "**Fees 2024** are due monthly.\n\n**Section 2.** Payment is due within 30 days.\n"
    )
    ids = [s.section_id for s in _tree(text).sections]
    assert ids[-1].endswith("2") and len(ids) == 2, ids  # the heading and Section 2 only


def test_yaml_front_matter_is_metadata_not_text():
    """The Justel export opens with a YAML block (``title: CONSTITUTION DE LA BELGIQUE``, ``url:``,
    ``pubDate:``): its title is the document's title and none of its lines is text, a preamble or
    a definition."""
    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile

    sf = SourceFile(doc_key=CONSTITUTION.name, path=str(CONSTITUTION), state=FileState(CONSTITUTION.stat().st_size, 0, ""))
    doc = convert_file(sf)
    assert doc.title == "CONSTITUTION DE LA BELGIQUE"
    assert "pubDate" not in doc.markdown and "ejustice.just.fgov.be" not in doc.markdown
    tree = build_tree(doc)
    assert tree.sections[0].section_id == "titre-i", [s.section_id for s in tree.sections[:3]]
    assert not any("pubDate" in d.term or "dtype" in d.term for d in tree.definitions)


def test_a_leading_thematic_break_is_no_front_matter():
    from docstrata.convert.text import split_front_matter

    text = "---\nJust a rule, then a paragraph of prose.\n---\n\n# Title\n"
    assert split_front_matter("---\n\n# Title\n\nText.\n") == ({}, "---\n\n# Title\n\nText.\n")
    meta, rest = split_front_matter(text)
    assert meta == {} and rest == text


def test_a_contents_heading_holds_no_sections():
    """A PDF's 'Contents' page heading read from its typography at level 1, the Act's sections at
    level 2 below it (a new user's trial: every location in an Australian Act read 'Contents >
    Schedule 1 > …'): the contents lists the sections, it contains none of them; a '## Contents'
    under the title still nests under the title."""
    pdf_like = (
        "# Contents\n\n1 Short title ........ 1\n2 Commencement ........ 2\n\n"
        "## 1 Short title\n\nThis Act is the Example Act 2021.\n\n## 2 Commencement\n\nThis Act commences on the day after.\n"
    )
    tree = _tree(pdf_like)
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["1"].parent_id is None and by_id["2"].parent_id is None, [(s.section_id, s.parent_id) for s in tree.sections]
    md = "# My Act\n\n## Contents\n\n1 Short title\n\n## Part 1 Preliminary\n\n### 1 Short title\n\nText.\n"
    by_id = {s.section_id: s for s in _tree(md).sections}
    assert by_id["contents"].parent_id == by_id["part-1"].parent_id == "my-act" and by_id["1"].parent_id == "part-1"


def test_latin_suffixes_continue_the_numbering_in_their_order():
    """'24ter' → '24quater' continues (quater is the fourth, not a word after 'ter' in the
    alphabet); '107terbis' was inserted after '107ter' (the Belgian Constitution's numbering)."""
    from docstrata.structure.parse.labels import _ordinal

    assert _ordinal("24") < _ordinal("24bis") < _ordinal("24ter") < _ordinal("24quater") < _ordinal("24quinquies")
    assert _ordinal("107ter") < _ordinal("107terbis") < _ordinal("107quater")
    assert _ordinal("24QUATER") == _ordinal("24quater")  # keyword labels arrive upper-cased
    text = "# TITRE II\n\n" + "".join(
        f"**Art. {n}.** Texte de l'article {n}.\n\n" for n in ("24", "24bis", "24ter", "24quater", "25")
    )
    numbers = [s.number for s in _tree(text).sections if s.number and s.number.startswith("Art")]
    assert numbers == ["Art. 24", "Art. 24bis", "Art. 24ter", "Art. 24quater", "Art. 25"], numbers


def test_a_bold_label_glued_to_its_text_or_alone_on_its_line():
    """The Justel export of the 1844 pensions law writes '**Art. 7.**Tout magistrat …' (no space)
    and '**Art. 5.**' alone over its text: both are article starts."""
    text = (
        "# LIVRE II\n\n**Art. 4.** Le Roi définit la fonction principale.\n\n**Art. 5.** \n\n"
        "Les services rendus comptent pour la pension.\n\n**Art. 7.**Tout magistrat qui aura bien mérité.\n"
    )
    numbers = [s.number for s in _tree(text).sections if s.number and s.number.startswith("Art")]
    assert numbers == ["Art. 4", "Art. 5", "Art. 7"], numbers
    assert "Les services rendus" in next(s for s in _tree(text).sections if s.number == "Art. 5").text


def test_a_bold_italic_label_with_a_hard_line_break_before_its_text():
    """A Markdown Constitution (fresh-document check, geektortoise/La-Constitution-Belge) writes
    '***Article 1***  ' and the text on the next line of the same paragraph: each is an article,
    its § paragraphs under it. A lone bold paragraph ('**§ 613a**') still is not."""
    text = (
        "# Titre I. X\n\n***Article 1***  \nLa Belgique est divisée en provinces.\n\n"
        "***Article 2***  \n§1er. Premier alinéa.\n\n§2. Second alinéa.\n\n***Article 3***  \nTexte trois.\n"
    )
    by_id = {s.section_id: s for s in _tree(text).sections}
    assert {"article-1", "article-2", "article-3"} <= set(by_id), sorted(by_id)
    assert by_id["article-2/2"].parent_id == "article-2"  # the article's paragraph, qualified by it


LOI_PENSIONS = Path(__file__).parent / "fixtures" / "be-laws-fr" / "loi-pensions-1844-extrait.md"


def test_paragraphs_of_a_belgian_article_nest_under_it_with_qualified_ids():
    """In a law whose provisions are Articles, ``§2.``, ``§4.``, ``§5.`` opening a paragraph of Art. 8
    are that article's paragraphs (cited "article 8, § 2"), not the law's sections 2, 4, 5: each
    hangs under Art. 8 with an id qualified by it, and the bare ``4`` / ``5`` no longer stand beside
    ``article-4`` / ``article-5``. Truth from the fixture's text: every ``§N.`` paragraph start."""
    text = LOI_PENSIONS.read_text(encoding="utf-8")
    signs = re.findall(r"(?m)^§(\d+)\.", text)
    assert signs == ["2", "4", "5"], signs
    tree = _tree(text, LOI_PENSIONS.name)
    ids = [s.section_id for s in tree.sections]
    assert len(ids) == len(set(ids))
    by_id = {s.section_id: s for s in tree.sections}
    for n in signs:
        para = by_id.get(f"article-8/{n}")
        assert para is not None and para.number == f"§{n}" and para.parent_id == "article-8", (n, ids)
        assert n not in by_id  # no bare section N
        assert "Article 8, § " + n in para.aliases
    # the numbered limbs of § 2 are its items, under it, not sections 2.1, 2.2 …
    limbs = [s for s in tree.sections if s.parent_id == "article-8/2"]
    assert len(limbs) >= 30 and all(s.section_id.startswith("article-8/2(") for s in limbs)
    assert not any(re.fullmatch(r"\d+\.\d+", i) for i in ids), ids


def test_an_untitled_article_takes_no_words_of_its_text_as_title():
    """``**Art. 2.** `L 17-06-1971 …` Peuvent être admises …``: the bold label is all the source
    states; the article has no title (its number stands for it) and its first line stays its text."""
    tree = _tree(LOI_PENSIONS.read_text(encoding="utf-8"), LOI_PENSIONS.name)
    by_id = {s.section_id: s for s in tree.sections}
    for n in ("1", "2", "6", "7"):
        art = by_id[f"article-{n}"]
        assert art.title == f"Art. {n}", art.title
    assert "Sont susceptibles de conférer des droits" in by_id["article-6"].text
    plain = _tree("# Loi\n\nArticle 3. Le Roi nomme et révoque ses ministres.\n\nArticle 4. Definitions.\n")
    titles = {s.section_id: s.title for s in plain.sections}
    assert titles["article-3"] == "Article 3"
    assert titles["article-4"] == "Article 4 Definitions."  # a leading phrase that is no sentence


def test_a_division_numbered_with_a_latin_suffix_keeps_its_number():
    """``## Titre Ibis`` (a Titre inserted after Titre I) is numbered ``Titre Ibis`` and holds Art. 3ter."""
    tree = _tree(CONSTITUTION.read_text(encoding="utf-8"), CONSTITUTION.name)
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["titre-ibis"].number == "Titre Ibis"
    assert by_id["article-3ter"].parent_id == "titre-ibis"
    assert by_id["article-4"].parent_id == "titre-ii"


def test_lone_bold_article_labels_in_a_running_series_are_article_starts():
    """``***Article 5***`` alone in its paragraph, no full stop, its text in the next paragraph: an
    article start when the document sets its articles so (three or more, numbers running on); a
    lone bold label among prose, or a list of bold names with no text under them, is not."""
    series = (
        "# Titre I. X\n\n***Article 5***\n\nLa Belgique comprend trois communautés.\n\n"
        "***Article 6***\n\nLa Belgique comprend trois régions.\n\n"
        "***Article 7***\n\nLes limites de l'État ne peuvent être changées.\n\n"
        "***Article 7bis***\n\nDans l'exercice de leurs compétences.\n"
    )
    tree = _tree(series)
    by_id = {s.section_id: s for s in tree.sections}
    assert {"article-5", "article-6", "article-7", "article-7bis"} <= set(by_id), sorted(by_id)
    assert "trois régions" in by_id["article-6"].text and by_id["article-6"].title == "Article 6"
    lone = "# Vertrag\n\nDie Regeln gelten.\n\n**§ 613a**\n\nEs gilt das Gesetz.\n\n**Article 9**\n\nText.\n"
    assert [s.section_id for s in _tree(lone).sections] == ["vertrag"]
    cards = "# Articles\n\n**Article 1**\n\n**Article 2**\n\n**Article 3**\n\n**Article 4**\n\nDate: 10 août\n"
    assert [s.section_id for s in _tree(cards).sections] == ["articles"]


def test_a_citation_of_an_articles_paragraph_finds_its_sign_paragraph():
    """The citation grammar reads "l'article 8, § 2" as article 8's paragraph 2; in a law whose
    articles number their paragraphs ``§2.`` that paragraph is ``article-8/2``, not the limb ``2.``
    of its § 1 (``article-8(2)``). The law's own text cites "l'article 8, § 1er" (§ 1 runs on after
    the article's label: no section of its own, the article is found)."""
    from docstrata.structure.xrefs import find_cross_references

    tree = _tree(LOI_PENSIONS.read_text(encoding="utf-8"), LOI_PENSIONS.name)
    with document_language("fr"):
        refs = find_cross_references("Par dérogation à l'article 8, § 2, et à l'article 8, § 1er, …", tree, "article-9")
    targets = [(r.text, r.section_id) for r in refs]
    assert ("l'article 8, § 2" in targets[0][0] or "article 8, § 2" in targets[0][0]) and targets[0][1] == "article-8/2", targets
    assert targets[1][1] == "article-8", targets


def test_bold_labels_with_hyphenated_code_numbers_do_not_break_the_parse():
    """Bold article labels numbered as a code numbers them (``**Art. 461-1.**`` then ``**Art. 465.**``,
    as the Luxembourg law of 7 August 2023 quotes the Code de commerce articles it inserts) have no
    ordinal to continue from: the series reader compares them as not continuing instead of failing
    the whole document (a TypeError once lost it from an ingest)."""
    md = "\n\n".join(
        f"**Art. {n}.** Le texte de l'article {n} est remplacé comme suit."
        for n in ("461-1", "465", "490-1", "490-2", "490-3", "2")
    )
    numbers = [s.number for s in _tree(md, "loi.md").sections if s.number]  # parsed, not raised
    assert any("461-1" in n for n in numbers) and any("465" in n for n in numbers)


def test_roman_numbered_divisions_hold_the_articles_under_them():
    """The Grundgesetz as Markdown (c3e/grundgesetz-dev; official text, § 5 UrhG): ``# I. Die
    Grundrechte`` over ``## Artikel 1`` — the roman division holds its articles, and the next
    division ``# II. …`` after ``## Artikel 19`` is its sibling, not a part of Artikel 19."""
    md = (
        "# I. Die Grundrechte\n\n## Artikel 1\n\n(1) Die Würde des Menschen ist unantastbar.\n\n"
        "## Artikel 19\n\n(1) Soweit nach diesem Grundgesetz ein Grundrecht eingeschränkt werden kann.\n\n"
        "# II. Der Bund und die Länder\n\n## Artikel 20\n\n(1) Die Bundesrepublik Deutschland ist ein Bundesstaat.\n"
    )
    by_id = {s.section_id: s for s in _tree(md, "gg.md").sections}
    assert by_id["artikel-1"].parent_id == "I" and by_id["artikel-19"].parent_id == "I"
    assert by_id["II"].parent_id is None and by_id["artikel-20"].parent_id == "II"


def test_an_article_label_and_its_title_in_one_size_are_one_heading():
    """The Official Journal's PDF of Directive (EU) 2022/2555 (NIS 2) prints ``Article 21`` and
    ``Cybersecurity risk-management measures`` in one type size, so both become ``##`` headings:
    they are one section, the article, holding its numbered paragraphs — not an empty article
    beside a title section that holds its text."""
    md = (
        "## Article 21\n\n## Cybersecurity risk-management measures\n\n"
        "1. Member States shall ensure that essential and important entities take appropriate measures.\n\n"
        "2. The measures referred to in paragraph 1 shall be based on an all-hazards approach.\n\n"
        "## Article 22\n\n## Union level coordinated security risk assessments\n\n"
        "1. The Cooperation Group may carry out coordinated security risk assessments.\n"
    )
    by_id = {s.section_id: s for s in _tree(md, "nis2.md").sections}
    assert by_id["article-21"].title == "Article 21 Cybersecurity risk-management measures"
    assert by_id["article-21(2)"].parent_id == "article-21"
    assert not any(sid.startswith("cybersecurity") for sid in by_id)


def test_hugo_toml_front_matter_is_metadata_and_gives_the_title(tmp_path):
    """Final trial 20: a Hugo page's ``+++`` TOML front matter was read as the preamble's text and
    the document titled by its file name."""
    from docstrata.convert.text import split_front_matter

    page = (
        '+++\ntitle = "Non-disclosure agreement"\ndate = "2017-10-30"\n[style]\n  center = false\n+++\n\n'
        "This Non-Disclosure Agreement (NDA) is between the parties below.\n\n## 1. Definitions\n\nText.\n"
    )
    meta, rest = split_front_matter(page)
    assert meta["title"] == "Non-disclosure agreement" and meta["style"] == {"center": False}
    assert rest.startswith("This Non-Disclosure Agreement")
    doc = tmp_path / "nda.md"
    doc.write_text(page, encoding="utf-8")
    from .conftest import convert_path

    converted = convert_path(doc)
    assert converted.title == "Non-disclosure agreement"
    assert "+++" not in converted.markdown and "center = false" not in converted.markdown
    broken = "+++\nnot = [toml\n+++\n\nText.\n"
    assert split_front_matter(broken) == ({}, broken)
