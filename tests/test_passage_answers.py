"""Passage answers and the relevance cut-off (issue 29): a hit's minimal passage (its best sentence
with the neighbours that answer too, or the short clause holding them), located by the question
without the part that names the document, and ``min_relative_score`` stopping an answer from
padding itself with weak hits. On the Common Paper Pilot Agreement (tests/fixtures/common-paper)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.answers import render_search
from docstrata.passage import locate_passage, minimal_passage, sentence_scores
from docstrata.search import QueryError, relative_keep


def _chunk(tool, section_id: str):
    doc = tool.store.documents()[0]
    return next(c for c in tool.store.document_chunks(doc) if c.section_id == section_id)


def test_the_passage_takes_the_neighbouring_sentences_that_answer_too(pilot):
    """7.6 Assignment: the rule and its exception are two sentences; one sentence answers half."""
    chunk = _chunk(pilot, "7.6")
    query = "May the Provider assign the Agreement after a merger?"
    one = locate_passage(chunk, query)
    wide = minimal_passage(chunk, query, keep=0.3, section_chars=0, bridge=False)
    sentence = chunk.content[one.start : one.end]
    passage = chunk.content[wide.start : wide.end]
    assert "merger" in sentence and "Neither party may assign" not in sentence
    assert "Neither party may assign" in passage and "merger" in passage
    assert len(passage) < len(chunk.content.strip())  # not the whole clause: the binding-effect sentence is out
    assert "inure to the benefit" not in passage


def test_the_answer_region_bridges_a_weaker_line_between_two_sentences_that_answer(pilot):
    """2.3 Effect of Termination: uninstalling the Software (a.) and deleting Customer Content (b.)
    are two sentences with the bare label ``b.`` between them. A consecutive run stops at the
    label; the answer region (``bridge``) holds both, and item c. (Confidential Information) stays
    out."""
    chunk = _chunk(pilot, "2.3")
    query = "Must the Customer uninstall the Software, and will the Provider delete Customer Content?"
    run = minimal_passage(chunk, query, keep=0.5, section_chars=0, bridge=False)
    region = minimal_passage(chunk, query, keep=0.5, section_chars=0, bridge=True)
    run_text, region_text = chunk.content[run.start : run.end], chunk.content[region.start : region.end]
    assert "uninstall" in run_text and "delete Customer Content" not in run_text
    assert "uninstall" in region_text and "delete Customer Content" in region_text
    assert "Confidential Information" not in region_text and "no longer have any right" not in region_text
    assert region.section_id == run.section_id and region.score == run.score


def test_the_passage_widens_to_its_section_only_when_that_section_is_short(pilot):
    """2.3(a) of Effect of Termination (about 330 characters): the uninstall sentence alone, or the
    whole item when the item is within ``section_chars``."""
    from docstrata.passage import section_span

    chunk = _chunk(pilot, "2.3")
    a, b = section_span(chunk, "2.3(a)")
    item = chunk.content[a:b].strip()
    assert item.startswith("### a.") and len(item) < len(chunk.content.strip())
    query = "Must the Customer uninstall the Software when the pilot ends?"
    alone = minimal_passage(chunk, query, keep=2.0, section_chars=b - a - 1)
    whole = minimal_passage(chunk, query, keep=2.0, section_chars=b - a)
    assert chunk.content[alone.start : alone.end].startswith("If the Product contains Software")
    assert chunk.content[whole.start : whole.end] == item and whole.section_id == "2.3(a)"


def test_passage_answers_show_the_passage_within_the_budget(pilot):
    """1.6 Restrictions is a 1,259-character list of ten prohibitions; the passage is the ones asked about."""
    query = "Can the Customer reverse engineer or decompile the Product?"
    results = pilot.search(query, top_k=3)
    top = results[0]
    assert top.answer_passage is not None and top.section_id == "1.6"
    text, data = render_search(results, query, "law", 4000, passage=True)
    hit = data["results"][0]
    want = top.content.strip()[top.answer_passage["start"] : top.answer_passage["end"]]
    assert hit["content"] == want and hit["section_id"] == top.answer_passage["section_id"]
    assert "reverse engineer" in want and "(x) upload" not in want
    assert "answer_passage" not in hit and len(text) <= 4000
    whole, whole_data = render_search(results, query, "law", 4000)
    assert len(text) < len(whole)
    assert whole_data["results"][0]["answer_passage"] == top.answer_passage  # where to cut, for an agent reading JSON


def test_a_question_naming_its_document_locates_the_passage_by_the_rest(pilot):
    """ "Consider the Pilot Agreement; …": the words naming the document do not choose the
    sentence (2.3's lead-in "… termination of this Agreement:" holds "Agreement" and nothing asked)."""
    rest = "can the Provider use feedback?"
    query = "Consider the Pilot Agreement; " + rest
    results = pilot.search(query, top_k=10)
    assert any("scoped to" in n for n in results.notices)
    lead_in = "If the parties do not have a Definitive Agreement"
    chunk = _chunk(pilot, "2.3")
    by_whole_query = locate_passage(chunk, query)
    assert chunk.content[by_whole_query.start : by_whole_query.end].startswith(lead_in)
    hit = next(r for r in results if r.chunk_id == chunk.chunk_id)
    p = hit.passage
    assert not hit.content.strip()[p["start"] : p["end"]].startswith(lead_in)
    mine = locate_passage(chunk, rest)
    lead = len(chunk.content) - len(chunk.content.lstrip())
    assert (p["start"], p["end"]) == (mine.start - lead, mine.end - lead)
    assert results[0].section_id == "1.5"  # Feedback and Usage Data


def test_the_relative_cut_off_leaves_out_weak_hits(pilot):
    query = "When may either party terminate the Agreement?"
    full = pilot.search(query, top_k=10)
    cut = pilot.search(query, top_k=10, min_relative_score=0.9)
    assert len(full) == 10 and 1 <= len(cut) < 10
    best = max(r.fused_score for r in full)
    assert all(r.fused_score >= 0.9 * best - 1e-12 for r in cut)
    assert [r.chunk_id for r in cut] == [r.chunk_id for r in full if r.fused_score >= 0.9 * best - 1e-12]
    assert any("min_relative_score 0.9 of the best hit's fused score" in n for n in cut.notices)
    with pytest.raises(QueryError, match="min_relative_score"):
        pilot.search(query, min_relative_score=0.0)


def test_relative_keep_never_drops_a_pinned_hit():
    assert relative_keep([0.05, 0.2, 0.1], [True, False, False], 0.6) == [True, True, False]
    assert relative_keep([0.2, 0.1], [False, False], None) == [True, True]
    with pytest.raises(QueryError):
        relative_keep([0.2], [False], 1.5)


def test_a_sentence_wrapped_over_lines_is_one_sentence():
    """RFC 6749 is hard-wrapped at 72 columns (tests/fixtures/rfc): the sentence asking to review
    the Trust's documents runs over two lines and is one sentence, not two fragments; a blank line
    and a list item still end one."""
    from docstrata.passage import sentence_spans

    text = (Path(__file__).parent / "fixtures" / "rfc" / "rfc6749-excerpt.txt").read_text(encoding="utf-8")
    at = text.index("Please review these documents")
    start = text.rindex("\n\n", 0, at) + 2
    paragraph = text[start : text.index("\n\n", at)]
    sentences = [" ".join(paragraph[a:b].split()) for a, b in sentence_spans(paragraph)]
    assert (
        "Please review these documents carefully, as they describe your rights and restrictions with respect to this document."
        in sentences
    ), sentences
    assert sentence_spans("One line.\n\nAnother one.\n* an item") == [(0, 9), (11, 23), (24, 33)]


def test_a_question_naming_a_section_is_answered_by_the_section_not_its_heading(pilot):
    """ "Section 1.2 License" matches the heading line ``### 1.2 License.`` best; a heading answers
    nothing: the cited sentence is the section's first that answers, the passage the section."""
    chunk = _chunk(pilot, "1.2")
    query = "Section 1.2 License"
    scored = sentence_scores(chunk, query)
    best = max(range(len(scored)), key=lambda j: scored[j][2])
    assert chunk.content[scored[best][0] : scored[best][1]].lstrip().startswith("### 1.2")  # the heading wins by words
    cited = locate_passage(chunk, query)
    region = minimal_passage(chunk, query, section_chars=0)
    assert chunk.content[cited.start : cited.end].startswith("If the Product contains Software")
    assert chunk.content[region.start : region.end].startswith("### 1.2") and region.end > cited.start
    assert region.section_id == cited.section_id == "1.2"
    top = pilot.search(query, top_k=3)[0]
    assert top.section_id == "1.2"
    assert top.content.strip()[top.passage["start"] : top.passage["end"]].startswith("If the Product contains Software")
