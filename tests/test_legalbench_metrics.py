"""LegalBench-RAG's character-level precision and recall (``bench/legalbench_rag.py``) on hand-made
spans, and the mapping of a chunk's passage back to characters of its source file (docstrata's
chunk text re-flows the file's whitespace)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from legalbench_rag import SourceMap, char_precision_recall, merge_spans, split_of  # noqa: E402


def test_precision_and_recall_count_shared_characters():
    truth = [("a.txt", 100, 200)]
    # 50 of the 100 retrieved characters are truth; 50 of the 100 truth characters are retrieved
    assert char_precision_recall([("a.txt", 150, 250)], truth) == (0.5, 0.5)
    # a span inside the truth: precise, a fifth of it
    assert char_precision_recall([("a.txt", 120, 140)], truth) == (1.0, 0.2)
    # the same characters in another file hit nothing
    assert char_precision_recall([("b.txt", 100, 200)], truth) == (0.0, 0.0)


def test_truth_split_over_spans_and_files():
    truth = [("a.txt", 0, 10), ("a.txt", 20, 30), ("b.txt", 5, 15)]
    retrieved = [("a.txt", 5, 25), ("b.txt", 0, 10)]
    # shared: a 5-10 (5) + a 20-25 (5) + b 5-10 (5) = 15; retrieved 20 + 10 = 30; truth 30
    assert char_precision_recall(retrieved, truth) == (0.5, 0.5)


def test_overlapping_hits_count_each_character_once():
    truth = [("a.txt", 0, 100)]
    once = char_precision_recall([("a.txt", 0, 50)], truth)
    twice = char_precision_recall([("a.txt", 0, 50), ("a.txt", 25, 50)], truth)
    assert once == twice == (1.0, 0.5)
    assert merge_spans([("a.txt", 40, 60), ("a.txt", 0, 50), ("a.txt", 60, 61), ("a.txt", 9, 9)]) == {"a.txt": [(0, 61)]}


def test_nothing_retrieved_or_no_truth():
    assert char_precision_recall([], [("a.txt", 0, 10)]) == (0.0, 0.0)
    assert char_precision_recall([("a.txt", 0, 10)], []) == (0.0, 0.0)


@dataclass
class _Chunk:
    ordinal: int
    content: str


def test_passage_offsets_map_to_the_source_file_across_reflowed_whitespace():
    source = "PREAMBLE\r\n\r\n1.  The Parties agree\r\nto keep secrets.   Each party may\n\tdisclose to advisers.\n"
    chunks = [_Chunk(0, "PREAMBLE"), _Chunk(1, "1. The Parties agree to keep secrets. Each party may disclose to advisers.")]
    sm = SourceMap.build(source, chunks)
    assert sm.place[0] == (0, 8, "exact")
    assert sm.place[1][2] == "normalised"
    a, b = sm.span_of(chunks[1])
    assert source[a:b] == "1.  The Parties agree\r\nto keep secrets.   Each party may\n\tdisclose to advisers."
    body = chunks[1].content
    s = body.index("Each party")
    a, b = sm.span_of(chunks[1], s, len(body))
    assert source[a:b] == "Each party may\n\tdisclose to advisers."


def test_a_ligature_the_conversion_spelt_out_maps_to_its_one_source_character():
    source = "4. Conﬁdentiality. The Recipient shall keep the Conﬁdential Information secret."
    chunk = _Chunk(0, "4. Confidentiality. The Recipient shall keep the Confidential Information secret.")
    sm = SourceMap.build(source, [chunk])
    assert sm.place[0] == (0, len(source), "normalised")
    s = chunk.content.index("Confidential Information")
    a, b = sm.span_of(chunk, s, s + len("Confidential Information"))
    assert source[a:b] == "Conﬁdential Information"


def test_a_chunk_whose_text_is_not_in_the_file_is_unmapped():
    sm = SourceMap.build("some text", [_Chunk(0, "other words")])
    assert sm.span_of(_Chunk(0, "other words")) is None


@pytest.mark.parametrize("query", ["Consider the NDA between A and B; may it be shared?", "who sees my data?"])
def test_split_halves_the_tunable_sets_and_keeps_the_others_out(query):
    assert split_of("privacy_qa", query) in ("dev", "holdout")
    assert split_of("privacy_qa", query) == split_of("contractnli", query)  # by the query text alone
    assert split_of("cuad", query) == split_of("maud", query) == "measure"
