"""Weighted Reciprocal Rank Fusion (DESIGN §7).

    score(d) = Σ_i  w_i / (k + rank_i(d))

Ranks start at 1 (LangChain's convention; LlamaIndex uses 0, Anthropic's cookbook k = 0,
Qdrant k = 2). Source: Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms
Condorcet and individual rank learning methods", SIGIR 2009, with per-modality weights.
A modality with weight 0 contributes nothing, not even its candidates. Results are new
objects, deduplicated by chunk id, each keeping every modality's rank and raw score; ties
break by best single rank, then chunk id, so the order is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The defaults every tool and search uses (config, SearchSettings, Qdrant's server-side fusion).
# Chosen across five data sets: docs/benchmarks.md, "Fusion defaults"; the reasoning is at the
# tool config's fields (docstrata.config).
DEFAULT_SEMANTIC_WEIGHT, DEFAULT_KEYWORD_WEIGHT, DEFAULT_EXACT_WEIGHT = 0.375, 0.5, 0.125
DEFAULT_RRF_K = 5


@dataclass
class FusedHit:
    """A fused result: ``score`` is the weighted RRF sum; ``ranks`` / ``scores`` per modality (1-based ranks)."""

    chunk_id: str
    score: float
    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)


def weighted_rrf(
    rankings: dict[str, list[tuple[str, float]]], weights: dict[str, float], k: int = DEFAULT_RRF_K
) -> list[FusedHit]:
    """Fuse ranked lists ``{modality: [(chunk_id, raw_score), ...best first]}``.

    ``weights`` maps modality → weight ≥ 0 (missing = 0). A chunk repeated within one list
    keeps its first (best) rank. Raises ``ValueError`` for a negative weight or ``k < 0``.
    """
    if k < 0:
        raise ValueError(f"rrf k must be ≥ 0, got {k}")
    hits: dict[str, FusedHit] = {}
    for modality, ranked in rankings.items():
        w = weights.get(modality, 0.0)
        if w < 0:
            raise ValueError(f"weight of {modality!r} must be ≥ 0, got {w}")
        if w == 0:
            continue
        rank = 0
        for chunk_id, raw in ranked:
            hit = hits.get(chunk_id)
            if hit is not None and modality in hit.ranks:
                continue
            rank += 1
            if hit is None:
                hit = hits[chunk_id] = FusedHit(chunk_id, 0.0)
            hit.ranks[modality] = rank
            hit.scores[modality] = raw
            hit.score += w / (k + rank)
    return sorted(hits.values(), key=lambda h: (-h.score, min(h.ranks.values()), h.chunk_id))


def max_fused_score(total_weight: float, k: int) -> float:
    """The highest score :func:`weighted_rrf` can give: rank 1 in every modality searched, whose
    weights sum to ``total_weight`` (a single-mode search has weight 1)."""
    return total_weight / (k + 1)
