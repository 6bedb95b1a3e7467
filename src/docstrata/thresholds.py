"""Score thresholds explained and made portable.

A ``min_similarity_score`` (alias ``min_score``) is a cosine, and cosines depend on the embedding
model: a right answer scores 0.7–0.85 with OpenAI's text-embedding-3 models and 0.35–0.55 with
the bundled all-MiniLM-L6-v2. A HoloDeck file always embeds with a hosted model, so a threshold
written in one and served with the bundled model drops the right answers. This module

* says, when a threshold drops candidates, which threshold, its value, where it was set (the
  call, or the YAML path in the config file) and the best score it dropped
  (:func:`dropped_notice`);
* flags at load time a HoloDeck file whose tool has a similarity threshold but embeds with a
  local model (:func:`foreign_threshold_note`);
* measures a threshold on the user's own index (:func:`suggest_similarity_threshold`, which
  ``docstrata check --suggest-thresholds`` prints).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SUGGEST_PERCENTILE = 10
"""The percentile of top-1 cosines :func:`suggest_similarity_threshold` returns: 9 in 10 title
queries keep their best hit."""


def foreign_threshold_note(tool_cfg, holodeck_file: bool) -> str | None:
    """The notice for a tool of a HoloDeck file (``holodeck_file``: the file has HoloDeck's own
    top-level keys) whose ``min_similarity_score`` / ``min_score`` was set while it embeds with
    a local model (the bundled one, or a local folder): HoloDeck itself only embeds with hosted
    models, so the value was chosen on another model's scale. ``None`` otherwise."""
    sim = getattr(tool_cfg, "min_score", None) if hasattr(tool_cfg, "min_score") else tool_cfg.min_similarity_score
    if not holodeck_file or sim is None or tool_cfg.embedding_provider is not None:
        return None
    return (
        f"{tool_cfg.yaml_path}: min_similarity_score {sim:g} comes from a HoloDeck file, whose thresholds are set "
        f"for a hosted embedding model; this tool embeds with {tool_cfg.embedding_model}, whose cosines run "
        "lower (a right answer often scores 0.35-0.55): `docstrata check --suggest-thresholds` measures a value "
        "on this index"
    )


def dropped_notice(
    dropped_by: dict[str, tuple[int, float | None]],
    values: dict[str, float | None],
    origins: dict[str, str],
    foreign: str | None = None,
) -> list[str]:
    """One notice per threshold that left candidates out.

    Args:
        dropped_by: threshold name → (candidates it removed, best score among them or ``None``),
            as :class:`~docstrata.search.SearchRun` reports it.
        values: threshold name → the value applied.
        origins: threshold name → where the value was set (``"this call"``, ``"tools[0].min_score in
            /abs/agent.yaml"``).
        foreign: the :func:`foreign_threshold_note` of the tool, added to the similarity notice.

    Returns e.g. ``18 candidate(s) below min_similarity_score 0.75 (set by tools[0].min_similarity_score
    in /p/agent.yaml) were left out; the best of them scored 0.42``.
    """
    out = []
    for name in ("min_similarity_score", "min_fused_score", "min_relative_score"):
        if name not in dropped_by:
            continue
        n, best = dropped_by[name]
        what = f"{name} {values.get(name):g}"
        if name == "min_relative_score":
            what += " of the best hit's fused score"
        text = f"{n} candidate(s) below {what} (set by {origins.get(name, 'the configuration')}) were left out"
        if best is not None:
            text += f"; the best of them scored {best:.{2 if name == 'min_similarity_score' else 4}f}"
        if name == "min_similarity_score" and foreign:
            text += f". {foreign}"
        out.append(text)
    return out


@dataclass
class ThresholdSuggestion:
    """A ``min_similarity_score`` measured on an index: ``value`` (rounded down to 2 decimals), the
    ``percentile`` of the top-1 cosines it is, and the number of ``queries`` it was measured on."""

    value: float
    percentile: int
    queries: int


def suggest_similarity_threshold(
    tool, sample: int = 200, percentile: int = SUGGEST_PERCENTILE
) -> ThresholdSuggestion | None:
    """A similarity threshold measured on ``tool``'s own index and embedding model.

    Method: take up to ``sample`` distinct section titles of the indexed chunks (a record's first
    twelve words when it has none), spread evenly over the documents; embed each as a query and
    take the cosine of its best dense hit (top-1). Such a title is a short, on-topic query whose
    answer is in the index, so its top-1 cosine is what a fair question scores with this model;
    the ``percentile``-th of those cosines (10th: 9 in 10 of them keep their best hit), rounded
    down to 2 decimals, is the suggested value. ``None`` when the index holds nothing to sample
    (fewer than 5 titles). Loads the embedding model.
    """
    titles: list[str] = []
    store = tool.store
    for doc_key in store.documents():
        for c in store.document_chunks(doc_key):
            title = (c.parent_chain[-1] if c.parent_chain else "") or " ".join(c.content.split()[:12])
            title = " ".join(title.lstrip("#").split())
            if len(title) >= 3:
                titles.append(title)
    titles = list(dict.fromkeys(titles))
    if len(titles) < 5:
        return None
    step = max(1, len(titles) / sample)
    picked = [titles[int(i * step)] for i in range(min(sample, len(titles)))]
    tops = []
    for q in picked:
        hits = store.dense_search(tool.embed_query(q), 1)
        if hits:
            tops.append(hits[0][1])
    if len(tops) < 5:
        return None
    tops.sort()
    at = tops[max(0, math.ceil(len(tops) * percentile / 100) - 1)]
    return ThresholdSuggestion(math.floor(at * 100) / 100, percentile, len(tops))


def threshold_origins(tool_cfg, given: dict[str, float | None]) -> dict[str, str]:
    """Where each threshold applied to a search was set: ``"this call"`` when ``given`` (the
    search's own arguments) holds it, else the tool's YAML path and field in its config file
    (``tools[0].min_score in /abs/agent.yaml``)."""
    where = f" in {tool_cfg._config_file}" if getattr(tool_cfg, "_config_file", "") else ""
    sim_field = "min_score" if hasattr(tool_cfg, "min_score") else "min_similarity_score"
    return {
        name: "this call" if given.get(name) is not None else f"{tool_cfg.yaml_path}.{field}{where}"
        for name, field in (
            ("min_similarity_score", sim_field),
            ("min_fused_score", "min_fused_score"),
            ("min_relative_score", "min_relative_score"),
        )
    }


def search_notices(run, settings, tool_cfg, given: dict[str, float | None]) -> list[str]:
    """The notices of a search whose thresholds left candidates out (:func:`dropped_notice`):
    ``run`` a :class:`~docstrata.search.SearchRun`, ``settings`` its
    :class:`~docstrata.search.SearchSettings`, ``given`` the thresholds the call passed."""
    if not run.dropped:
        return []
    values = {
        "min_similarity_score": settings.min_similarity_score,
        "min_fused_score": settings.min_fused_score,
        "min_relative_score": getattr(settings, "min_relative_score", None),
    }
    return dropped_notice(
        run.dropped_by, values, threshold_origins(tool_cfg, given), getattr(tool_cfg, "_threshold_note", None)
    )


def search_settings(
    tool_cfg,
    min_similarity_score: float | None,
    min_fused_score: float | None,
    min_score: float | None,
    min_relative_score: float | None = None,
):
    """The :class:`~docstrata.search.SearchSettings` of one search call: the tool's fusion weights
    and ``rrf_k``; the thresholds the call gives (``min_score`` is HoloDeck's name for
    ``min_similarity_score``; ``min_relative_score`` where the tool has one), else the config's.
    Raises :class:`~docstrata.search.QueryError` when both names are given with different values."""
    from .respell import fitted_cosine
    from .search import QueryError, SearchSettings

    cfg = tool_cfg
    if min_similarity_score is not None and min_score is not None and min_similarity_score != min_score:
        raise QueryError("min_score is another name for min_similarity_score: give one of them")
    sim = min_similarity_score if min_similarity_score is not None else min_score
    if sim is None:
        sim = cfg.min_score if hasattr(cfg, "min_score") else cfg.min_similarity_score
    fused = cfg.min_fused_score if min_fused_score is None else min_fused_score
    return SearchSettings(
        cfg.semantic_weight,
        cfg.keyword_weight,
        cfg.exact_weight,
        cfg.rrf_k,
        min_fused_score=fused,
        min_similarity_score=sim,
        min_relative_score=getattr(cfg, "min_relative_score", None)
        if min_relative_score is None
        else min_relative_score,
        # a local model's fitted cosine (bench/respell_fit.py); a hosted model's words are not respelled
        respell_cosine=None
        if getattr(cfg, "embedding_provider", None) is not None
        else fitted_cosine(getattr(cfg, "embedding_model", "")),
    )
