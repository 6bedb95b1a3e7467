"""Passage results (issue 29): a search answered by the best passages of its candidate chunks, not
by the chunks, on the Common Paper Pilot Agreement (tests/fixtures/common-paper) with the bundled
embedding model: the first hit's answer region first, then further sentences ranked by words and
meaning, each widened to a readable passage and cited to its own section."""

from __future__ import annotations

from dataclasses import replace

from docstrata.index.keyword import analyze_query
from docstrata.passage import heading_line, label_line, sentence_spans
from docstrata.passage_list import candidate_sentences, list_candidates, list_settings, rank_passages

FEEDBACK = "Can the Provider use Customer Content or feedback?"
CONFIDENTIAL = "What must the Customer do with Confidential Information when the pilot ends?"


def _text(r) -> str:
    return r.content.strip()[r.passage["start"] : r.passage["end"]]


def test_passages_answer_from_several_places_of_one_chunk_each_cited_to_its_section(pilot):
    """6.1 and 6.2 (Confidentiality) each hold several answers to what a Recipient must do with
    Confidential Information: a chunk search gives each clause once, a passage search gives their
    sentences as passages of their own; 1.5's usage-data sentence is cited to 1.5."""
    chunks = pilot.search(CONFIDENTIAL, top_k=8)
    spread = pilot.search(CONFIDENTIAL, top_k=8, passages=True)
    assert len({r.chunk_id for r in chunks}) == len(chunks)  # one result a chunk
    by_chunk: dict[str, list] = {}
    for r in spread:
        by_chunk.setdefault(r.chunk_id, []).append(r)
    assert max(len(v) for v in by_chunk.values()) >= 2  # a chunk gives several passages
    assert {r.section_id for r in spread} >= {"6.1", "6.2"}
    for rs in by_chunk.values():  # passages of one chunk never overlap
        spans = sorted((r.passage["start"], r.passage["end"]) for r in rs)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    feedback_chunks = pilot.search(FEEDBACK, top_k=8)
    passages = pilot.search(FEEDBACK, top_k=8, passages=True)
    assert 1 <= len(passages) <= 8
    texts = [_text(r) for r in passages]
    usage = next(r for r, t in zip(passages, texts) if "collect and analyze Usage Data" in t)
    assert usage.section_id == "1.5" and usage.chunk_id in {r.chunk_id for r in feedback_chunks}
    for r, t in zip([*spread, *passages], [*map(_text, spread), *texts]):
        assert t and len(t) <= len(r.content.strip())  # a short clause may be its chunk whole
        assert r.answer_passage == r.passage
        assert not heading_line(t) and not label_line(t)  # a heading or label alone answers nothing
    assert sum(len(_text(r)) < len(r.content.strip()) for r in spread) >= len(spread) // 2
    for rs in (spread, passages):
        scores = [r.score for r in rs]
        assert scores == sorted(scores, reverse=True)


def test_labels_and_list_items_come_with_what_they_open(pilot):
    """A label ("3.2 Fees.", "Device Limit.") is never a passage of its own nor the end of one; a
    list item comes with its lead-in ("… will:") when that is not shown already; ``format()`` of a
    passage result shows the passage, not the chunk."""
    from docstrata.passage import label_line as is_label

    for q in ("What happens to Customer Content and Software when the pilot ends?", FEEDBACK, CONFIDENTIAL):
        for r in pilot.search(q, top_k=8, passages=True):
            text = _text(r)
            assert not is_label(text)
            a, b = sentence_spans(text)[-1]
            last = text[a:b]
            # the confident hits' answer regions (score 1) are as --passage showed them before passage results
            opens = is_label(last) or last.rstrip().endswith(":")  # a label or a lead-in opens what follows
            assert r.score == 1.0 or not (opens and last != text.strip()), text
            shown = r.format()
            assert r.is_passage and text in shown and (text == r.content.strip() or r.content.strip() not in shown)


def test_the_first_passage_is_the_first_hits_answer_region(pilot):
    """What ``--passage`` showed before passage results: the first hit's minimal passage, first."""
    query = "Can the Customer reverse engineer or decompile the Product?"
    hit = pilot.search(query, top_k=3)[0]
    first = pilot.search(query, top_k=3, passages=True)[0]
    assert first.chunk_id == hit.chunk_id and first.passage == hit.answer_passage
    assert first.section_id == "1.6" and "reverse engineer" in _text(first)


def test_passages_are_widened_to_the_minimum_length_and_the_floor_ends_the_list(pilot):
    """``min_chars``: a sentence takes its better neighbours until the passage is that long;
    ``floor`` 1: only the first hits' answer regions and the single best sentence remain."""
    hits = pilot.search(FEEDBACK, top_k=list_candidates())
    store_chunks = {c.chunk_id: c for c in pilot.store.get_chunks([r.chunk_id for r in hits])}
    chunks = [store_chunks[r.chunk_id] for r in hits]
    fused = [r.fused_score for r in hits]
    sentences = candidate_sentences(chunks, FEEDBACK)
    wanted = set(analyze_query(FEEDBACK))
    assert all(s.tokens <= wanted for s in sentences) and any("feedback" in s.tokens for s in sentences)
    none_first = [None] * len(chunks)
    base = replace(list_settings(), semantic_weight=0.0)
    narrow = rank_passages(chunks, fused, none_first, FEEDBACK, 10, settings=replace(base, min_chars=0))
    wide = rank_passages(chunks, fused, none_first, FEEDBACK, 10, settings=replace(base, min_chars=600))
    narrow_lengths = [p.end - p.start for p in narrow]
    wide_lengths = [p.end - p.start for p in wide]
    assert sum(wide_lengths) / len(wide) > sum(narrow_lengths) / len(narrow)
    for p in narrow:  # one sentence each
        assert any(s.hit == p.hit and (s.start, s.end) == (p.start, p.end) for s in sentences)
    taken: set[int] = set()
    def text(j):
        return chunks[sentences[j].hit].content[sentences[j].start : sentences[j].end]

    for p in wide:  # below 600 only when the sentence cap is reached or no free neighbour is left
        inside = [j for j, s in enumerate(sentences) if s.hit == p.hit and p.start <= s.start and s.end <= p.end]
        lo, hi = inside[0], inside[-1]
        free = [
            j for j in (lo - 1, hi + 1)
            if 0 <= j < len(sentences) and sentences[j].hit == p.hit and j not in taken
            and not (j > hi and label_line(text(j)))  # a label opens the next passage, never ends one
        ]  # fmt: skip
        assert p.end - p.start >= 600 or len(inside) == base.max_sentences or not free
        taken.update(inside)
    alone = rank_passages(chunks, fused, none_first, FEEDBACK, 10, settings=replace(base, floor=1.0))
    assert len(alone) == 1 and alone[0].score == max(p.score for p in narrow)


def test_sentence_vectors_are_embedded_once_and_reused(pilot):
    """The sentences a passage search embeds are kept: the same texts again cost no model call, and
    the vectors are the model's own (cosine 1 with a fresh encoding)."""
    import numpy as np

    from docstrata.passage_list import SentenceVectors

    calls: list[int] = []

    def encode(texts):
        calls.append(len(texts))
        return pilot.embedder.encode(texts)

    cache = SentenceVectors(max_items=3)
    texts = ["Provider may collect Usage Data.", "Customer may give Feedback.", "Provider may collect Usage Data."]
    first = cache.encode(texts, encode)
    again = cache.encode(texts[:2], encode)
    assert calls == [2] and np.allclose(first[:2], again) and np.allclose(first[0], first[2])
    assert np.allclose(first[:2], pilot.embedder.encode(texts[:2]), atol=1e-5)
    cache.encode(["One more.", "And another."], encode)  # over max_items: the least recently used goes
    cache.encode(["Customer may give Feedback."], encode)  # kept
    assert calls == [2, 2]
    cache.encode(["Provider may collect Usage Data."], encode)  # the one that went
    assert calls == [2, 2, 1]


def test_passage_answers_show_each_passage_whole_in_text_and_json(pilot):
    """The answer an MCP client hands its model (the text) shows each passage as the JSON does,
    whole and not marked cut when the budget holds them all (a second trial found the text
    sliced twice: empty or starting mid-word)."""
    from docstrata.answers import render_search

    results = pilot.search(CONFIDENTIAL, top_k=8, passages=True)
    text, data = render_search(results, CONFIDENTIAL, "law", 12000, passage=True)
    few = pilot.search(FEEDBACK, top_k=20, passages=True)  # the floor ends the list: the answer says so
    assert len(few) < 20 and any(f"{len(few)} passage(s) of the 20 asked for" in n for n in few.notices)
    assert not any("passage(s) of the" in n for n in pilot.search(FEEDBACK, top_k=2, passages=True).notices)
    assert len(data["results"]) == len(results)
    for r, hit in zip(results, data["results"]):
        assert hit["content"] == _text(r).strip() and not hit.get("truncated")
        assert hit["content"] in text
