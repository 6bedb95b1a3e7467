"""Passage results on real Markdown (tests/fixtures/passage-docs): a contents list of links into
the document answers nothing and is never a passage; a numbered heading (``### 3. Temporary Ban``)
keeps its number when a passage opens with it; a sentence the source breaks with a blank line
before a lowercase word stays one sentence."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docstrata.passage import label_line, listing_line, sentence_spans

DOCS = Path(__file__).parent / "fixtures" / "passage-docs"


@pytest.fixture(scope="module")
def guides(tmp_path_factory):
    """The OpenSSF guide excerpt and the Contributor Covenant, ingested by a default document tool."""
    import docstrata

    root = tmp_path_factory.mktemp("guides")
    shutil.copytree(DOCS, root / "docs", ignore=shutil.ignore_patterns("NOTICE.md"))
    (root / "agent.yaml").write_text(
        "tools:\n  - name: guides\n    type: hierarchical_document\n    source: docs/\n    database: embedded\n",
        encoding="utf-8",
    )
    with docstrata.open(root / "agent.yaml") as ts:
        tool = ts["guides"]
        tool.ingest()
        yield tool


def _text(r) -> str:
    return r.content.strip()[r.passage["start"] : r.passage["end"]]


def test_a_contents_list_is_never_a_passage(guides):
    """The guide's title chunk holds its contents list (links to its own sections); a passage search
    about the team it lists finds the team's section, and no passage is a contents line."""
    question = "How many people should be on the vulnerability management team and who should they be?"
    chunks = guides.search(question, top_k=16)
    lines = [line for r in chunks for line in r.content.splitlines()]
    assert sum(listing_line(line) for line in lines) >= 5  # the contents list is among the candidates
    passages = guides.search(question, top_k=8, passages=True)
    assert passages
    texts = [_text(r) for r in passages]
    assert not any(listing_line(t) for t in texts)
    assert not any(listing_line(line) for t in texts for line in t.splitlines() if line.strip())
    assert any("3-7 team members" in t for t in texts[:3])


def test_a_summary_table_row_linking_to_its_section_is_a_contents_line():
    """GitHub's Terms of Service open with a table: each row links to a section and says what it
    holds; the section answers, the row lists it (github/site-policy, CC0)."""
    row = "| [A. Definitions](#a-definitions) | Some basic terms, defined in a way that will help you understand this agreement."
    assert listing_line(row)
    assert not listing_line("| Account | You must be 13 or older; see [Section B](#b-account-terms). |")


def test_a_numbered_heading_keeps_its_number(guides):
    """``### 3. Temporary Ban``: the number and the title are one label, so a passage opening with
    the heading shows it whole, never ``Temporary Ban`` with ``### 3.`` cut off."""
    text = (DOCS / "contributor-covenant-2.1.md").read_text(encoding="utf-8")
    heading = text.index("### 3. Temporary Ban")
    spans = sentence_spans(text)
    assert any(a == heading and text[a:b].startswith("### 3. Temporary Ban") for a, b in spans)
    assert label_line("### 3. Temporary Ban")
    question = "What is the consequence of a temporary ban and what community impact leads to it?"
    passages = guides.search(question, top_k=6, passages=True)
    texts = [_text(r) for r in passages]
    assert any("A temporary ban from any sort of interaction" in t for t in texts)
    assert not any(t.startswith("Temporary Ban") for t in texts)


def test_a_sentence_broken_by_a_blank_line_before_a_lowercase_word_is_one():
    """A PDF's page or column break inside a sentence (the 37signals DPA, 11.8) is no sentence end;
    a blank line before a capital, a list item or a heading still is."""
    broken = (
        "11.8 Certification of Deletion. The parties agree that the certification of deletion of Personal "
        "Data that is\n\ndescribed in the UK Addendum and/or Standard Contractual Clauses shall be provided "
        "by 37signals to Customer only upon Customer's request.\n\nThis is the next paragraph."
    )
    texts = [broken[a:b] for a, b in sentence_spans(broken)]
    assert any(t.startswith("The parties agree") and t.endswith("only upon Customer's request.") for t in texts)
    assert texts[-1] == "This is the next paragraph."
    lowercase_items = "We may share your information:\n\nwith our affiliates;\n\nwith our vendors who serve us."
    assert [lowercase_items[a:b] for a, b in sentence_spans(lowercase_items)] == [
        "We may share your information:",
        "with our affiliates;",
        "with our vendors who serve us.",
    ]  # a lead-in's ":" and an item's ";" still end before a lowercase item
    listed = "Recipient will:\n\n(a) use it only for the Purpose;\n\nb) protect it."
    assert [listed[a:b] for a, b in sentence_spans(listed)] == [
        "Recipient will:",
        "(a) use it only for the Purpose;",
        "b) protect it.",
    ]


def test_a_pinned_section_s_label_takes_the_text_it_opens(tmp_path):
    """A new user's "clause 3" over the GitHub Balanced Employee IP Agreement (CC0, tests/fixtures/
    contract-pdfs) names clause 3 and the exhibit's Illinois "Sec. 3." alike: both are pinned first,
    and the exhibit's answer region, a unit's label alone, takes the sentence it opens."""
    import docstrata

    (tmp_path / "docs").mkdir()
    pdf = Path(__file__).parent / "fixtures" / "contract-pdfs" / "balanced-employee-ip-agreement.pdf"
    shutil.copy(pdf, tmp_path / "docs" / pdf.name)
    (tmp_path / "agent.yaml").write_text(
        "tools:\n  - name: ip\n    type: hierarchical_document\n    source: docs/\n    database: embedded\n",
        encoding="utf-8",
    )
    assert label_line("Sec. 3.") and not label_line("Sec. 3 applies to every employee.")
    with docstrata.open(tmp_path / "agent.yaml") as ts:
        tool = ts["ip"]
        tool.ingest()
        passages = tool.search("What does clause 3 of the Balanced Employee IP Agreement say?", top_k=4, passages=True)
    texts = [_text(r) for r in passages]
    assert passages[0].section_id == "3" and "Contribution of your IP" in texts[0]
    assert texts and not any(label_line(t) for t in texts)
    assert any(t.startswith("Sec. 3. This Act takes effect") for t in texts)


def test_a_cited_sentence_is_never_a_clause_number_alone(tmp_path):
    """A new user's "What does Section 14.3 of the Bonterms Cloud Terms say?" (pages 1-3 of the
    Bonterms Cloud Terms, CC BY 4.0, tests/fixtures/contract-pdfs): the pinned hit's best-matching
    sentence is the clause number "14.3." (the only sentence holding the query's "14.3"). Its
    cited sentence (``passage``, what span mode and the MCP ``span`` answer show) and its answer
    passage (``answer_passage``, passage mode) take the text that label opens, as the passage list
    does (:func:`~docstrata.passage.opens_text`)."""
    from docstrata import answers

    from .conftest import ingested

    pdf = Path(__file__).parent / "fixtures" / "contract-pdfs" / "bonterms-cloud-terms-v1-pages-1-3.pdf"
    ts = ingested(tmp_path, [pdf])
    try:
        query = "What does Section 14.3 of the Bonterms Cloud Terms say?"
        results = ts["docs"].search(query, top_k=2)
    finally:
        ts.close()
    first = results[0]
    assert first.section_id == "14.3"
    body = first.content.strip()
    cited = body[first.passage["start"] : first.passage["end"]]
    wide = body[first.answer_passage["start"] : first.answer_passage["end"]]
    for shown in (cited, wide):
        assert not label_line(shown)
        assert "Either party may terminate this Agreement" in shown
    span_text, _data = answers.render_search(results, query, "docs", span=True)
    assert "Either party may terminate this Agreement" in span_text
