"""Passage results on LegalBench-RAG: the product's :func:`docstrata.passage_list.rank_passages`
run over the hits :mod:`legalbench_rag` collected, and its settings fitted on the dev half.

Imported by ``bench/legalbench_rag.py`` (method ``docstrata-passages``; ``--fit`` fits these settings
after the answer-region ones). The ranking is the product's own function: the bench supplies the
first hits' answer regions as ``--passage`` shows them (:func:`legalbench_rag.passage_offsets`) and the
cosines of the sentences the product embeds (collected once per query with the tool's model).
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


def list_spans(col, first_offsets, settings, top_k: int = 64) -> list[list[tuple[str, int, int]]]:
    """Per query of ``col`` (a ``legalbench_rag.Collected``): the file spans of the product's passage
    list (:func:`docstrata.passage_list.rank_passages`) with ``settings``, best first. ``first_offsets``:
    per query, per hit, the ``(start, end)`` of its answer region in the chunk's ``content`` (or
    ``None``), as ``--passage`` shows it; the fitted relevance cut-off decides which come first."""
    from docstrata.passage_list import candidate_sentences, rank_passages
    from docstrata.search import relative_keep

    memo = col.__dict__.setdefault("_sentences", {})  # the sentences do not depend on the settings
    out = []
    for qi, ((query, _truth, hits), offsets) in enumerate(zip(col.queries, first_offsets)):
        chunks = [h.chunk for h in hits]
        keep = relative_keep([h.fused for h in hits], [h.pinned for h in hits], settings.cut)
        first = [o if k else None for o, k in zip(offsets, keep)]

        def cosines_of(wanted, sentences, qi=qi, chunks=chunks):
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

        if qi not in memo:
            memo[qi] = candidate_sentences(chunks, query)
        ranked = rank_passages(chunks, [h.fused for h in hits], first, query, top_k, cosines_of, settings, memo[qi])
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


def fit_list(cols, first_by_col, objective, score) -> list[tuple]:
    """Every setting of the grid above scored on ``cols`` (the dev half), best :func:`objective`
    first: ``(objective, settings, rows)``. ``score(col, lists)`` gives one sub-corpus's rows."""
    from docstrata.passage_list import list_settings

    base = list_settings()
    table = []
    grid = itertools.product(PRIORS, MIN_CHARS, FLOORS, SEMANTIC_WEIGHTS, SEMANTIC_CHUNKS)
    for prior, chars, floor, weight, n_sem in grid:
        s = replace(base, prior=prior, min_chars=chars, floor=floor, semantic_weight=weight, semantic_chunks=n_sem)
        rows = {c.sample.subset: score(c, list_spans(c, first_by_col[i], s)) for i, c in enumerate(cols)}
        table.append((objective(rows, "docstrata-passages"), s, rows))
    table.sort(key=lambda x: x[0], reverse=True)
    return table
