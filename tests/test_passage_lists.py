"""Passage answers keep a list whole: a lead-in ("… a report that includes—") never stands alone or
last, an item's sub-items go with it, an answer region that ends inside a list runs to the list's
end, and a period after an abbreviation ("Mr. Ross", "119 Stat. 744") ends no sentence, so no
passage starts mid-sentence.

Real inputs: H.R. 1063 (113th Congress, reported in the House; bill DTD XML, public domain,
tests/fixtures/us-bill/NOTICE.md), whose section 4(a) asks for a report "that includes—" eight
paragraphs, (2) and (7) with subparagraphs (A)–(C), and whose 4(b)(2)(A) holds clauses (i)–(iii);
the Contributor Covenant 2.1 (tests/fixtures/passage-docs), whose bullet lists follow "… include:".
The truth is read from each file's own markup (the XML elements, the Markdown bullets)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.enumeration import enumeration, lead_in
from docstrata.models import FileState, SourceFile
from docstrata.passage import sentence_spans

FIXTURES = Path(__file__).parent / "fixtures"
HR1063 = FIXTURES / "us-bill" / "hr1063-113-excerpt.xml"
COVENANT = FIXTURES / "passage-docs" / "contributor-covenant-2.1.md"
_ITEMS = ("paragraph", "subparagraph", "clause")
REPORT_QUESTION = "What must the Secretary of the Interior's report on mineral development include?"


def _markdown(path: Path) -> str:
    return convert_file(SourceFile(path.name, str(path), FileState(0, 0, ""))).markdown


def _words(el) -> str:
    """An element's own text (its ``<enum>`` and ``<text>``), whitespace collapsed."""
    return " ".join(f"{el.findtext('enum') or ''} {''.join(el.find('text').itertext())}".split())


def _section_4(path: Path):
    return next(s for s in ET.parse(path).getroot().iter("section") if s.findtext("enum") == "4.")


def _provisions(path: Path):
    """``(element, parent element)`` of every paragraph, subparagraph and clause of the bill's
    section 4, in document order, the parent a subsection, paragraph or subparagraph."""
    out = []

    def walk(el):
        for c in el:
            if c.tag in _ITEMS:
                out.append((c, el))
            walk(c)

    walk(_section_4(path))
    return out


def test_a_period_after_an_abbreviation_ends_no_sentence():
    """The bill's cover names its sponsors "Mr. Cole, …, Mrs. Lummis, … and Mr. Ross": each name
    lies within one sentence (the trial's fifth passage began "Ross April 1, 2014 …"), and so do
    "H. R. 1063", "Report No. 113–390" and clause 4(b)(2)(A)(iii)'s "(119 Stat. 744, 1137)"."""
    text = _markdown(HR1063)
    spans = sentence_spans(text)
    root = ET.parse(HR1063).getroot()
    names = [el.text for el in root.iter() if el.tag in ("sponsor", "cosponsor")]
    wanted = [*names, root.findtext(".//legis-num"), "Report No. 113–390"]
    clause = next(c for c, _p in _provisions(HR1063) if c.findtext("enum") == "(iii)")
    wanted.append(_words(clause))
    assert len(names) == 10
    for phrase in wanted:
        at = text.index(phrase)
        assert any(a <= at and at + len(phrase) <= b for a, b in spans), phrase
    assert not any(text[a:b].startswith(("Ross", "Cole", "Lummis", "744")) for a, b in spans)


def test_a_real_sentence_end_after_an_abbreviation_still_ends():
    """An abbreviation that ends its sentence (sentencex reads the word after it): "… in the
    U.S. It …" ends, "… of the U.S. Economy" does not; a list label before a title keeps both
    apart ("(a) Term. This Agreement …"), a bracketed aside stays whole."""
    text = "It operates in the U.S. It also operates in Canada. See the U.S. Economy report."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "It operates in the U.S.",
        "It also operates in Canada.",
        "See the U.S. Economy report.",
    ]
    text = "(a) Term. This Agreement lasts two years (see Sec. 5. Renewal) unless ended."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "(a) Term.",
        "This Agreement lasts two years (see Sec. 5. Renewal) unless ended.",
    ]


def test_the_lists_are_read_as_the_bill_nests_them():
    """Every paragraph, subparagraph and clause of section 4 is a sentence of the bill's Markdown
    whose parent (:func:`enumeration`) is the sentence of its parent element: (1)–(8) under
    subsection (a)'s "… includes—", (A)–(C) under (2) and under (7), (i)–(iii) under 4(b)(2)(A)
    (a roman (i) after an (A), never a letter after (h)), (B) and (C) back under (2)."""
    text = _markdown(HR1063)
    spans = sentence_spans(text)
    parents = enumeration(text, spans)

    def sentence_of(el) -> int:
        enum, words = el.findtext("enum"), _flat("".join(el.find("text").itertext()))
        found = [k for k, (a, b) in enumerate(spans) if text[a:b].startswith(enum) and words[:60] in _flat(text[a:b])]
        assert len(found) == 1, words
        return found[0]

    provisions = _provisions(HR1063)
    assert len(provisions) == 22
    for el, parent in provisions:
        assert parents[sentence_of(el)] == sentence_of(parent), _words(el)[:40]
    assert sum(lead_in(text[a:b]) for a, b in spans) >= 5  # (a), (2), (7), (b), 4(b)(2), (A) end with "—"


def test_bullets_after_a_lead_in_are_its_items():
    """The Contributor Covenant's "Examples of unacceptable behavior include:" opens the five
    bullets under it (two wrapped over two lines) and nothing after them."""
    text = COVENANT.read_text(encoding="utf-8")
    spans = sentence_spans(text)
    parents = enumeration(text, spans)
    lead = next(k for k, (a, b) in enumerate(spans) if text[a:b] == "Examples of unacceptable behavior include:")
    section = text[spans[lead][1] : text.index("## Enforcement Responsibilities")]
    bullets = [line for line in section.splitlines() if line.startswith("* ")]
    items = [k for k, p in enumerate(parents) if p == lead]
    assert len(bullets) == 5 and len(items) == len(bullets)
    assert [text[spans[k][0] : spans[k][1]].splitlines()[0] for k in items] == bullets


@pytest.fixture(scope="module")
def bill_tool(tmp_path_factory):
    import docstrata

    root = tmp_path_factory.mktemp("bill")
    (root / "docs").mkdir()
    shutil.copy(HR1063, root / "docs" / HR1063.name)
    (root / "agent.yaml").write_text(
        "tools:\n  - name: bill\n    type: hierarchical_document\n    source: docs/\n    database: embedded\n",
        encoding="utf-8",
    )
    with docstrata.open(root / "agent.yaml") as ts:
        tool = ts["bill"]
        tool.ingest()
        yield tool


def _passage_texts(results) -> list[str]:
    out = []
    for r in results:
        p = r.passage or {}
        content = r.content.strip()
        out.append(content[p["start"] : p["end"]] if p else content)
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_report_question_gets_the_whole_list_in_its_first_passage(bill_tool):
    """The trial's question: the first passage cites 4(a) and holds the lead-in and all eight
    paragraphs with (7)'s (A)–(C) (it stopped after (6), and (7)'s "including—" came alone)."""
    results = bill_tool.search(REPORT_QUESTION, top_k=5, passages=True)
    texts = [_flat(t) for t in _passage_texts(results)]
    assert results[0].section_id == "4(a)"
    subsection = next(el for el in _section_4(HR1063).iter("subsection") if el.findtext("enum") == "(a)")
    wanted = [_words(el) for el in subsection.iter() if el.tag in _ITEMS]
    assert len(wanted) == 14
    assert all(w in texts[0] for w in wanted)
    assert not any(t.startswith("Ross") for t in texts)


@pytest.mark.parametrize(
    "question",
    [
        REPORT_QUESTION,
        "What is the recommended dose of ibuprofen for a child with a fever?",
        "Which National Research Council reports must the progress reports cover?",
        "What must the assessment of the Federal workforce include?",
    ],
)
def test_no_passage_ends_with_a_lead_in_or_leaves_out_sub_items(bill_tool, question):
    """Whatever the question (the trial's off-topic one got "(2) implementation of recommendations
    contained in—" alone): no passage ends with a lead-in, and a provision whose words a passage
    shows comes with every provision under it, as the XML nests them."""
    texts = [_flat(t) for t in _passage_texts(bill_tool.search(question, top_k=10, passages=True))]
    assert texts
    for t in texts:
        assert not lead_in(t), t[-80:]
    for el, _parent in _provisions(HR1063):
        below = [_words(c) for c in el.iter() if c is not el and c.tag in _ITEMS]
        for t in texts:
            if below and _words(el) in t:
                assert all(b in t for b in below), (_words(el)[:40], t[:80])
