"""The answer's confidence, fitted on data: what a search's hits say, and how likely an answer is.

A question the documents cannot answer still finds hits: some word of almost any question is in
some chunk, and the nearest chunk always has a best cosine. The old rule ("high" = a keyword hit and
a best cosine above the model's floor) called "What is the refund policy?" over an NDA "high". So
the answer's level is read from a probability that the searched documents hold the answer, given
signals every search has at hand (:class:`Signals`):

* ``similarity``: the best cosine of query and hit, less the embedding model's floor
  (:func:`~docstrata.embed.similarity_floor`);
* ``gap``: the best cosine less the :data:`GAP_RANK`-th best (an answer stands out from its
  neighbours; an off-topic query's cosines are flat);
* ``coverage``: the share of the query's idf weight (BM25's idf, from the store's document
  frequencies) that the best-covering of the first :data:`COVERAGE_HITS` hits holds;
* ``absent``: the share of the query's idf weight in words no chunk holds at all ("refund" over an
  NDA);
* ``exact``: a hit matched the exact index (a defined term asked about, a quoted phrase, an
  identifier);
* ``agree``: the first hit is among the first :data:`AGREE_RANK` of both the keyword and the
  semantic ranking.

A logistic model over these is fitted by ``python bench/confidence_fit.py --write`` on questions
whose answer is known to be in the searched documents and the same questions asked of documents of
another field, and stored per embedding model in ``confidence_fit.json`` with the two probability
cut-offs between ``low``, ``medium`` and ``high`` (docs/benchmarks.md, "Confidence"). A model with no
fit there keeps the rule of :func:`docstrata.search.assess_confidence`.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import asdict, dataclass, field

GAP_RANK = 5  # the gap is the best cosine less the cosine of this rank (the last hit's when fewer)
COVERAGE_HITS = 3  # coverage is the best over this many first hits
AGREE_RANK = 3  # the first hit agrees when it is among this many first of keyword and semantic rankings
FEATURES = ("similarity", "gap", "coverage", "absent", "exact", "agree")


@dataclass
class Signals:
    """What a search's hits say about whether they answer (see the module docstring); ``None`` for a
    cosine when the query was not embedded."""

    similarity: float | None = None
    gap: float | None = None
    coverage: float = 0.0
    absent: float = 0.0
    exact: bool = False
    agree: bool | None = None  # None: one modality alone ran (semantic or keyword mode), nothing to agree
    # the query's words (as written) behind ``absent``: said to the reader, never a model input
    missing: tuple[str, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict[str, float | bool | None]:
        """Every model input (:data:`FEATURES`), rounded for display."""
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items() if k in FEATURES}


def query_words(query: str, languages) -> dict[str, list[tuple[str, ...]]]:
    """The content words of ``query``, as written and in order, each with its BM25 terms in each of
    ``languages`` (:func:`~docstrata.index.keyword.analyze_query`'s terms, so its stop-word rules):
    ``{"pharmacy": [("pharmaci",), ("pharmacy",)]}`` for English and French. A word some language
    drops as a stop word ("that" in English, "les" in French) is no content word: another language
    keeps it only because it does not know it."""
    from .index.keyword import analyze, analyze_query, stemmed_language

    langs = list(dict.fromkeys(stemmed_language(lang) for lang in (languages or ("en",))))
    asked = {lang: set(analyze_query(query, lang)) for lang in langs}
    out: dict[str, list[tuple[str, ...]]] = {}
    for word in re.findall(r"\w[\w'’-]*", query):
        if word in out:
            continue
        analyses = [tuple(t for t in analyze(word, lang) if t in asked[lang]) for lang in langs]
        if all(analyses):
            out[word] = analyses
    return out


def _idf(n: int, df: int) -> float:
    """BM25's idf (the one tantivy and the Postgres store score with)."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def answer_signals(hits, query: str, store, floor: float, fused: bool = True) -> Signals:
    """The :class:`Signals` of ``hits`` (:class:`~docstrata.search.RankedHit`, best first, as the search
    ranked them) for ``query`` over ``store``; ``floor`` is the embedding model's similarity floor;
    ``fused`` false when one modality alone ranked (``agree`` is then ``None``).

    Document frequencies come from the store's ``term_document_frequencies`` (the embedded and
    Postgres stores); a store without it weighs every query word alike."""
    from .index.keyword import analyze, chunk_language
    from .store.base import keyword_languages

    sims = sorted((h.similarity for h in hits if h.similarity is not None), reverse=True)
    best = sims[0] - floor if sims else None
    gap = sims[0] - sims[min(GAP_RANK, len(sims)) - 1] if sims else None
    words = query_words(query, keyword_languages(store))
    terms = list(dict.fromkeys(t for analyses in words.values() for ts in analyses for t in ts))
    frequencies = getattr(store, "term_document_frequencies", None)
    n, dfs = frequencies(terms) if terms and frequencies is not None else (0, {})
    known = bool(terms) and frequencies is not None
    weights: dict[str, float] = {}
    units: dict[str, frozenset[str]] = {}  # a word's terms in every language: any one found is the word found
    missing: list[str] = []
    absent = 0.0
    for word, analyses in words.items():
        # the analysis (language) whose terms the index holds most: "pharmacy" is held by its English
        # stem though a French document's analysis of the question finds nothing
        chosen = max(analyses, key=lambda ts: sum(1 for t in ts if dfs.get(t)))
        key = " ".join(chosen)
        if key in weights:
            continue
        held = [t for t in chosen if dfs.get(t)]
        weights[key] = max((_idf(n, dfs[t]) for t in held), default=_idf(n, 0)) if known else 1.0
        units[key] = frozenset(t for ts in analyses for t in ts)
        if known and not held:
            missing.append(word)
            absent += weights[key]
    total = sum(weights.values()) or 1.0
    absent /= total
    coverage = 0.0
    for h in hits[:COVERAGE_HITS]:
        found = set(analyze(h.chunk.contextualized_content, chunk_language(h.chunk)))
        coverage = max(coverage, sum(w for key, w in weights.items() if units[key] & found) / total)
    exact = any("exact" in h.fused.ranks for h in hits)
    ranks = hits[0].fused.ranks if hits else {}
    agree = all(ranks.get(m, AGREE_RANK + 1) <= AGREE_RANK for m in ("keyword", "semantic")) if fused else None
    return Signals(best, gap, coverage, absent, exact, agree, tuple(missing))


def feature_vector(signals: Signals) -> list[float | None]:
    """The model's inputs, in :data:`FEATURES` order; ``None`` for a signal the search could not give
    (:func:`probability` then counts it at its mean in the fitted data: it moves nothing)."""
    return [
        signals.similarity,
        signals.gap,
        signals.coverage,
        signals.absent,
        float(signals.exact),
        None if signals.agree is None else float(signals.agree),
    ]


def probability(signals: Signals, fit: dict) -> float:
    """The fitted probability that the searched documents hold the answer: the logistic model
    ``fit`` (``mean``, ``scale``, ``weights``, ``bias`` over :data:`FEATURES`) at ``signals``."""
    x = feature_vector(signals)
    z = fit["bias"] + sum(
        w * (v - m) / s
        for w, v, m, s in zip(fit["weights"], x, fit["mean"], fit["scale"], strict=True)
        if v is not None
    )
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def level_of(p: float, fit: dict) -> str:
    """``"high"``, ``"medium"`` or ``"low"`` for probability ``p`` by the fit's cut-offs."""
    return "high" if p >= fit["high"] else "medium" if p >= fit["medium"] else "low"


def model_key(model_name: str) -> str:
    """The key an embedding model's fit is stored under (the bundled model's aliases fold to one)."""
    from .embed import _BUNDLED_NAMES
    from .embed_multilingual import MODEL_NAMES

    name = (model_name or "").strip().lower()
    if name in _BUNDLED_NAMES:
        return "all-minilm-l6-v2"
    if name in MODEL_NAMES:
        return "multilingual-e5-small"
    return name


def fitted_model(model_name: str | None) -> dict | None:
    """The confidence model fitted for ``model_name`` in ``confidence_fit.json``, ``None`` when
    there is none (a hosted model, a local model not fitted, a missing file)."""
    if not model_name:
        return None
    return _fits().get(model_key(model_name))


@functools.lru_cache(maxsize=1)
def _fits() -> dict[str, dict]:
    from importlib import resources

    try:
        text = resources.files("docstrata").joinpath("confidence_fit.json").read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    return {k.lower(): v for k, v in data.get("models", {}).items()}
