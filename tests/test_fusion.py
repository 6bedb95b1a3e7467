"""Weighted RRF against hand-computed values (DESIGN §7)."""

import pytest

from docstrata.fusion import weighted_rrf


def test_scores_match_the_formula_with_one_based_ranks():
    fused = weighted_rrf({"semantic": [("a", 0.9), ("b", 0.8)], "keyword": [("b", 12.0), ("c", 3.0)]},
                         {"semantic": 0.5, "keyword": 0.3}, k=60)
    got = {h.chunk_id: h.score for h in fused}
    assert got["a"] == pytest.approx(0.5 / 61)
    assert got["b"] == pytest.approx(0.5 / 62 + 0.3 / 61)
    assert got["c"] == pytest.approx(0.3 / 62)
    assert [h.chunk_id for h in fused] == ["b", "a", "c"]


def test_weight_zero_contributes_nothing_not_even_candidates():
    fused = weighted_rrf({"semantic": [("a", 0.9)], "keyword": [("z", 5.0)]}, {"semantic": 1.0, "keyword": 0.0})
    assert [h.chunk_id for h in fused] == ["a"]
    assert "keyword" not in fused[0].ranks


def test_results_are_deduplicated_and_keep_every_modality_rank_and_raw_score():
    fused = weighted_rrf({"semantic": [("a", 0.7), ("a", 0.6), ("b", 0.5)], "keyword": [("a", 9.5)],
                          "exact": [("b", 1.0)]}, {"semantic": 0.5, "keyword": 0.3, "exact": 0.2})
    assert sorted(h.chunk_id for h in fused) == ["a", "b"]
    a = next(h for h in fused if h.chunk_id == "a")
    assert a.ranks == {"semantic": 1, "keyword": 1}
    assert a.scores == {"semantic": 0.7, "keyword": 9.5}
    b = next(h for h in fused if h.chunk_id == "b")
    assert b.ranks == {"semantic": 2, "exact": 1}  # the duplicate "a" did not take a rank


def test_rrf_k_changes_the_ranking_as_the_formula_says():
    # x: rank 1 in keyword only (w 0.4); y: rank 3 in semantic and rank 3 in keyword (w 0.6 + 0.4)
    rankings = {"semantic": [("s1", 1), ("s2", 1), ("y", 1)], "keyword": [("x", 1), ("k2", 1), ("y", 1)]}
    w = {"semantic": 0.6, "keyword": 0.4}
    small_k = [h.chunk_id for h in weighted_rrf(rankings, w, k=1)]
    large_k = [h.chunk_id for h in weighted_rrf(rankings, w, k=1000)]
    # k=1: s1 = 0.6/2 = 0.30, y = 0.6/4 + 0.4/4 = 0.25, x = 0.4/2 = 0.20
    assert small_k.index("s1") < small_k.index("y") < small_k.index("x")
    # k=1000: rank differences vanish, so the chunk found by both lists (y) leads
    assert large_k[0] == "y"


def test_negative_weight_is_rejected():
    with pytest.raises(ValueError):
        weighted_rrf({"semantic": [("a", 1.0)]}, {"semantic": -1.0})
