"""One split of a passage search's chunks (passage.SentenceMemo): a hit's citation, the passage
list's candidate sentences and the kept hits' answer regions read each chunk's sentences and query
tokens from one memo instead of splitting and analysing the chunk three times. On the Common Paper
Pilot Agreement (tests/fixtures/common-paper), chunked as ingest chunks it."""

from __future__ import annotations

import pytest

from docstrata import passage
from docstrata.embed import Embedder
from docstrata.passage import SentenceMemo, sentence_scores
from docstrata.passage_list import candidate_sentences, candidates_of
from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file

from .conftest import PILOT_AGREEMENT

QUERIES = ["Can the Provider use Customer Content or feedback?",
           "What must the Customer do with Confidential Information when the pilot ends?",
           "of the and"]  # stopwords only: no query token


@pytest.fixture(scope="module")
def chunks():
    parsed = parse_file(source_file(PILOT_AGREEMENT), PipelineSettings(count_tokens=Embedder().count_tokens))
    assert len(parsed.chunks) >= 5
    return parsed.chunks


@pytest.mark.parametrize("query", QUERIES)
def test_the_memo_gives_what_splitting_each_chunk_again_gives(chunks, query):
    memo = SentenceMemo(query)
    for c in chunks:
        assert sentence_scores(c, query, memo) == sentence_scores(c, query)
    assert candidate_sentences(chunks, query, memo) == candidate_sentences(chunks, query)
    assert candidates_of(chunks, query, memo=memo) == candidates_of(chunks, query)
    other = "termination for convenience"  # a memo made for another query is not used for this one
    assert [sentence_scores(c, other, memo) for c in chunks] == [sentence_scores(c, other) for c in chunks]
    assert candidate_sentences(chunks, other, memo) == candidate_sentences(chunks, other)


def test_each_chunk_is_split_once_for_citations_and_the_passage_list(chunks, monkeypatch):
    calls: list[str] = []
    split = passage.sentence_spans
    monkeypatch.setattr(
        passage, "sentence_spans", lambda text, language=None: calls.append(text) or split(text, language)
    )
    query = QUERIES[0]
    memo = SentenceMemo(query)
    for c in chunks:  # the citations (cite_passage) and answer regions (answer_regions) score each hit
        sentence_scores(c, query, memo)
    candidate_sentences(chunks, query, memo)  # then the passage list ranks the same chunks' sentences
    assert sorted(calls) == sorted({c.content for c in chunks})
    calls.clear()
    for c in chunks:  # without the memo, each reader splits the chunk again
        sentence_scores(c, query)
    candidate_sentences(chunks, query)
    assert len(calls) == 2 * len(chunks)
