"""The semantic passage locator (issue 29): a hit's cited sentence and passage located by meaning as
well as words, its sentences embedded with the tool's own model and compared with the query vector
the search made; only the first hits are embedded. On the Common Paper Pilot Agreement
(tests/fixtures/common-paper), with questions worded unlike the clause that answers them."""

from __future__ import annotations

from docstrata.passage import (
    fused_scores,
    locate_passage,
    minimal_passage,
    semantic_cosines,
    semantic_setting,
    sentence_scores,
    sentence_texts,
)

from .test_passage_answers import _chunk

# 1.5 Feedback and Usage Data: "give", "Provider" and "Customer" are in its first sentence (Feedback),
# the answer is its last ("Provider may only disclose Usage Data to others if ... aggregated"), worded
# otherwise (the clause's title "Usage Data" is a heading line of its own, no longer run into the text)
SHARING = "May the Provider give Customer's statistics to third parties?"
ANSWER = "However, **Provider** may only disclose Usage Data to others"


def _best_sentence(chunk, scored) -> str:
    found = minimal_passage(chunk, "", keep=2.0, section_chars=0, scored=scored)  # the best sentence alone
    return chunk.content[found.start : found.end]


def test_meaning_picks_the_sentence_the_words_miss(pilot):
    chunk = _chunk(pilot, "1.5")
    lexical = sentence_scores(chunk, SHARING)
    by_words = locate_passage(chunk, SHARING)
    assert "give **Provider** Feedback" in chunk.content[by_words.start : by_words.end]  # the wrong sentence
    cosines = semantic_cosines([chunk], pilot.embedder.embed_query(SHARING), pilot.embedder.encode)[0]
    assert len(cosines) == len(sentence_texts(chunk)) == len(lexical)
    for weight in (0.5, 1.0):
        fused = fused_scores(chunk, SHARING, cosines, weight, lexical=lexical)
        assert _best_sentence(chunk, fused).startswith(ANSWER)
    assert fused_scores(chunk, SHARING, cosines, 0.0, lexical=lexical) == lexical  # weight 0: by words only


def test_a_clause_sharing_no_word_with_the_question_is_located_by_meaning(pilot):
    """2.3 Effect of Termination holds no word of the question: by words there is no passage."""
    chunk = _chunk(pilot, "2.3")
    query = "Will our uploaded files be erased when the pilot ends?"
    assert locate_passage(chunk, query) is None
    cosines = semantic_cosines([chunk], pilot.embedder.embed_query(query), pilot.embedder.encode)[0]
    fused = fused_scores(chunk, query, cosines, 0.5)
    assert "will delete Customer Content within 60 days" in _best_sentence(chunk, fused)


def test_search_cites_the_first_hits_by_meaning_with_the_configured_weight(pilot, monkeypatch):
    calls: list[list[str]] = []
    encode = pilot.embedder.encode

    def recording(texts):
        if list(texts) != [SHARING]:  # the query's own embedding goes through encode too
            calls.append(list(texts))
        return encode(texts)

    monkeypatch.setattr(pilot.embedder, "encode", recording)
    monkeypatch.setattr(pilot.cfg, "passage_semantic_weight", 0.0)
    words = pilot.search(SHARING, top_k=8)
    assert calls == []  # weight 0: no sentence embedded
    monkeypatch.setattr(pilot.cfg, "passage_semantic_weight", 0.5)
    meaning = pilot.search(SHARING, top_k=8)
    assert [r.chunk_id for r in meaning] == [r.chunk_id for r in words]  # the ranking is not touched

    def cited(r) -> str:
        return r.content.strip()[r.passage["start"] : r.passage["end"]]

    assert words[0].section_id == meaning[0].section_id == "1.5"
    assert not cited(words[0]).startswith(ANSWER) and cited(meaning[0]).startswith(ANSWER)
    # one batch: the sentences of the first hits only
    _weight, n = semantic_setting()
    first = [c for r in meaning[:n] for c in pilot.store.get_chunks([r.chunk_id])]
    assert len(calls) == 1 and calls[0] == [t for c in first for t in sentence_texts(c)]
    assert n < len(meaning)
