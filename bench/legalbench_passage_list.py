"""Passage results on LegalBench-RAG: the product's :func:`docstrata.passage_list.rank_passages`
run over the hits :mod:`legalbench_rag` collected, and its settings fitted on the dev half.

Imported by ``bench/legalbench_rag.py`` (method ``docstrata-passages``; ``--fit`` and ``--fit-list`` fit
these settings: the list's ranking on the current answer regions, then the answer regions on that
ranking, then the ranking again on the chosen regions: coordinate ascent over the two grids, which
together would be 240 × 120 settings). The answer regions and the ranking are the product's own
functions; the bench supplies the cosines of the sentences the product embeds (collected once per
query with the tool's model).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

# the grid --fit searches (dev half): the prior's exponent, the passage's minimum length, the
# relevance floor, the cosine's share and how many hits' sentences are embedded; the candidate depth
# and the sentence cap stay as set
PRIORS = (1.0, 2.0, 3.0)
MIN_CHARS = (120, 160, 200, 250, 300)
FLOORS = (0.0, 0.1, 0.2, 0.3)
SEMANTIC_WEIGHTS = (0.5, 0.75)
SEMANTIC_CHUNKS = (4, 8)  # the model call per search grows with it: the collected cosines cover the largest


# the answer regions' grid (fit_first): the cosine's share, the run's keep, bridged or not, the
# section widening; the list's other settings stay as fitted
FIRST_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)
FIRST_KEEPS = (0.1, 0.25, 0.4, 0.55, 0.7, 0.85)
FIRST_BRIDGES = (False, True)
FIRST_SECTION_CHARS = (0, 1000)


def _pinned(hits) -> list[tuple[int, int] | None]:
    """Per hit: its cited sub-item's characters in the chunk's ``content`` when pinpointed, as answers show it."""
    out: list[tuple[int, int] | None] = []
    for h in hits:
        lead = len(h.chunk.content) - len(h.chunk.content.lstrip())
        out.append((h.sentence[0] + lead, h.sentence[1] + lead) if h.pinpointed and h.sentence is not None else None)
    return out


def _embedded_cosines(col, qi, chunks, sentences, wanted) -> dict[int, float]:
    """The collected cosines (``col.list_cosines``, one batch per query as the product embeds it) of
    the sentences of the chunk indexes ``wanted``, by index into ``sentences``."""
    wanted = set(wanted)
    pos: dict[int, int] = {}
    got = {}
    for j, s in enumerate(sentences):
        n = pos.get(s.hit, 0)
        pos[s.hit] = n + 1
        if s.hit not in wanted:
            continue
        cos = col.list_cosines.get((qi, chunks[s.hit].chunk_id))
        if cos is not None and n < len(cos):
            got[j] = cos[n]
    return got


def list_spans(col, settings, top_k: int = 64) -> list[list[tuple[str, int, int]]]:
    """Per query of ``col`` (a ``legalbench_rag.Collected``): the file spans of the product's passage
    list with ``settings``, best first: the answer regions of the hits the relevance cut-off keeps
    (:func:`docstrata.passage_list.answer_regions`), then :func:`docstrata.passage_list.rank_passages`,
    both as ``search(passages=True)`` calls them, with the cosines of the sentences the product embeds
    (collected once per query with the tool's model)."""
    from docstrata.passage_list import answer_regions, candidates_of, embedded_chunks, rank_passages
    from docstrata.search import relative_keep

    memo = col.__dict__.setdefault("_sentences", {})  # the sentences do not depend on the settings
    regions = col.__dict__.setdefault("_regions", {})  # nor the answer regions on the list's ranking settings
    first_key = (settings.cut, settings.semantic_chunks,
                 *(v for k, v in vars(settings).items() if k.startswith("first_")))
    out = []
    for qi, (query, _truth, hits) in enumerate(col.queries):
        chunks = [h.chunk for h in hits]
        if qi not in memo:
            memo[qi] = candidates_of(chunks, query)
        sentences = memo[qi].sentences
        embedded = embedded_chunks(settings, len(chunks))
        cosines = _embedded_cosines(col, qi, chunks, sentences, embedded)
        if (qi, first_key) not in regions:
            keep = relative_keep([h.fused for h in hits], [h.pinned for h in hits], settings.cut)
            regions[qi, first_key] = answer_regions(chunks, query, keep, _pinned(hits), sentences,
                                                    cosines if settings.first_weight > 0 else {}, settings)
        ranked = rank_passages(chunks, [h.fused for h in hits], regions[qi, first_key], query, top_k,
                               lambda _hits, _sentences, c=cosines: c, settings, memo[qi])
        row = []
        for p in ranked:
            c = chunks[p.hit]
            sm = col.maps.get(c.doc_key)
            lead = len(c.content) - len(c.content.lstrip())
            part = sm.span_of(c, p.start - lead, p.end - lead) if sm is not None else None
            if part is not None:
                row.append((c.doc_key, *part))
        out.append(row)
    return out


def fit_list(cols, objective, score, base=None) -> list[tuple]:
    """Every setting of the list's grid above (the answer regions as in ``base``, default the fitted
    settings) scored on ``cols`` (the dev half), best :func:`objective` first: ``(objective,
    settings, rows)``. ``score(col, lists)`` gives one sub-corpus's rows."""
    from docstrata.passage_list import list_settings

    base = base or list_settings()
    table = []
    grid = itertools.product(PRIORS, MIN_CHARS, FLOORS, SEMANTIC_WEIGHTS, SEMANTIC_CHUNKS)
    for prior, chars, floor, weight, n_sem in grid:
        s = replace(base, prior=prior, min_chars=chars, floor=floor, semantic_weight=weight, semantic_chunks=n_sem)
        rows = {c.sample.subset: score(c, list_spans(c, s)) for c in cols}
        table.append((objective(rows, "docstrata-passages"), s, rows))
    table.sort(key=lambda x: x[0], reverse=True)
    return table


def fit_first(cols, objective, score, base) -> list[tuple]:
    """Every answer-region setting of the grid above (``first_weight`` × ``first_keep`` ×
    ``first_bridge`` × ``first_section_chars``) with the list's other settings as in ``base``,
    scored on ``cols`` (the dev half), best :func:`objective` first: ``(objective, settings, rows)``.
    Locating by meaning costs nothing more when the list's own ranking embeds the same sentences
    (``base.semantic_weight`` above 0); otherwise a model call per search, so a setting by meaning
    must then win a place more than the best by words to come first."""
    table = []
    grid = itertools.product(FIRST_WEIGHTS, FIRST_KEEPS, FIRST_BRIDGES, FIRST_SECTION_CHARS)
    for weight, keep, bridge, chars in grid:
        s = replace(base, first_weight=weight, first_keep=keep, first_bridge=bridge, first_section_chars=chars)
        rows = {c.sample.subset: score(c, list_spans(c, s)) for c in cols}
        table.append((objective(rows, "docstrata-passages"), s, rows))
    table.sort(key=lambda x: x[0], reverse=True)
    if base.semantic_weight <= 0 and table[0][1].first_weight > 0:
        by_words = next(x for x in table if x[1].first_weight == 0)
        if table[0][0][0] <= by_words[0][0]:
            table.remove(by_words)
            table.insert(0, by_words)
    return table
