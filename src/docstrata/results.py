"""A search run's hits as the answers an agent reads: :class:`~docstrata.models.SearchResult`
objects with their citation (the cited sub-item when the query names one, else the deepest section
holding the best-matching passage), the definitions that apply inside that section, resolved
cross-references and "cited by" summaries; optionally reranked.

Functions over a store's read methods and a :class:`~docstrata.search.SearchRun`; the document
tool (:mod:`docstrata.tools`) calls them in order: :func:`assemble_results`, then
:func:`rerank_results` when a reranker is configured, then :func:`with_pages` on the definitions used.
"""

from __future__ import annotations

import dataclasses

from .models import DefinitionEntry, SearchResult, page_fields
from .passage import SentenceMemo
from .pinpoint import locate_pinpoint
from .search import SearchRun, definition_entries_used, non_increasing

UsedDefinitions = dict[tuple[str, str, str | None], DefinitionEntry]
"""Definitions the results drew on, by (doc key, term, scope), in first-use order."""


def assemble_results(
    store,
    run: SearchRun,
    query: str,
    encode=None,
    semantic_weight: float | None = None,
    memo: SentenceMemo | None = None,
) -> tuple[list[SearchResult], UsedDefinitions]:
    """The hits of ``run`` as results, in its order, and the definitions they used.

    Each result carries its scores and ranks per modality, the definitions of terms the query or
    its cited text uses that apply within its section (:func:`~docstrata.search.definition_entries_used`),
    its resolved cross-references, and a citation: the sub-item the query names
    (:func:`~docstrata.pinpoint.locate_pinpoint`; its own references only) or the passage that
    best matches (:func:`~docstrata.passage.cite_passage`; by the question without the part naming
    its document, ``run.asked``, when one does). With ``encode`` (the tool's embedder's
    ``encode``) and the run's query vector, the sentences of the first
    :data:`~docstrata.passage.PASSAGE_SEMANTIC_HITS` hits are scored by meaning as well
    (:func:`~docstrata.passage.fused_scores`, ``semantic_weight``: default the fitted one, 0 off).
    "Cited by" summaries are attached last (:func:`~docstrata.citers.attach_cited_by`). ``memo``:
    a :class:`~docstrata.passage.SentenceMemo` for ``run.asked or query`` that keeps each hit's
    sentences for :func:`as_passage_list` (given the same memo) rather than splitting them again."""
    from .citers import attach_cited_by
    from .index.exact import query_section_keys, resolve_cross_references
    from .passage import cite_passage, semantic_cosines, semantic_setting

    xrefs = resolve_cross_references(store, [h.chunk for h in run.hits])
    named_keys = query_section_keys(query)  # "section 5(a)(1)": cite the item, not the chunk's section 5
    weight, n_hits = semantic_setting(semantic_weight)
    cosines: dict[str, list[float]] = {}
    if encode is not None and run.query_vector is not None and weight > 0 and n_hits > 0:
        first = [h.chunk for h in run.hits[:n_hits] if not (named_keys and locate_pinpoint(h.chunk, named_keys))]
        cosines = {c.chunk_id: cs for c, cs in zip(first, semantic_cosines(first, run.query_vector, encode))}
    results = []
    defs_of: dict[str, list[DefinitionEntry]] = {}
    used: UsedDefinitions = {}
    for h in run.hits:
        c, f = h.chunk, h.fused
        # not cached across calls: another process may re-ingest
        doc_defs = defs_of.setdefault(c.doc_key, store.definitions(doc_key=c.doc_key))
        pin = locate_pinpoint(c, named_keys) if named_keys else None
        cited = c.content if pin is None else "\n".join([*pin.lead, pin.text])  # a pinpoint: its own terms
        # the passage's own section and its ancestors: a definition applies inside its scope only
        within = [
            *dict.fromkeys(
                [
                    pin.section_id if pin is not None else c.section_id,
                    c.section_id,
                    *c.metadata.get("sections", []),
                    *c.metadata.get("ancestors", []),
                ]
            )
        ]
        entries = definition_entries_used([query, cited], doc_defs, skip_chunk=c.chunk_id, within=within)
        defs = {term: d.definition for term, d in entries.items()}
        for term, entry in entries.items():
            used.setdefault((c.doc_key, term, entry.scope), entry)
        results.append(
            SearchResult(
                chunk_id=c.chunk_id,
                content=c.content,
                fused_score=f.score,
                source_path=c.doc_key,
                parent_chain=c.parent_chain,
                section_id=c.section_id,
                semantic_score=h.similarity,
                keyword_score=f.scores.get("keyword"),
                exact_match="exact" in f.ranks,
                semantic_rank=f.ranks.get("semantic"),
                keyword_rank=f.ranks.get("keyword"),
                exact_rank=f.ranks.get("exact"),
                chunk_type=c.chunk_type,
                document_title=c.document_title,
                definitions_context=defs,
                contextualized_content=c.contextualized_content,
                cross_references=xrefs.get(c.chunk_id, []),
                score=h.score,
                pinned=h.pinned,
                **page_fields(c),
            )
        )
        if pin is not None:  # cite the item, with the references it makes
            results[-1].cross_references = [
                x for x in results[-1].cross_references if x.get("text") and x["text"] in cited
            ]
            results[-1].section_id, results[-1].pinpoint = pin.section_id, pin
        else:  # cite the deepest section holding the best-matching sentence
            cite_passage(results[-1], c, run.asked or query, cosines.get(c.chunk_id), weight, memo)
    attach_cited_by(store, results)
    return results, used


def rerank_results(
    reranker, query: str, results: list[SearchResult], top_k: int, run: SearchRun, used: UsedDefinitions
) -> tuple[list[SearchResult], UsedDefinitions]:
    """``results`` reordered by ``reranker`` (:class:`~docstrata.rerank.Reranker`; pinned hits of
    ``run`` stay first), cut to ``top_k``, their shown ``score`` made non-increasing down the list;
    and the definitions still used by a result kept."""
    results = reranker.rerank(query, results, top_k, pinned={h.chunk.chunk_id for h in run.hits if h.pinned})
    shown = non_increasing([r.rerank_score if r.rerank_score is not None else r.fused_score for r in results])
    for r, score in zip(results, shown):
        r.score = score
    kept = {r.chunk_id for r in results}
    used = {
        key: d
        for key, d in used.items()
        if any(
            r.chunk_id in kept and r.definitions_context.get(key[1]) == d.definition and r.source_path == key[0]
            for r in results
        )
    }
    return results, used


def with_pages(store, entries: list[DefinitionEntry]) -> list[DefinitionEntry]:
    """``entries`` with the page fields of the chunks defining them (a paged source's); copies,
    in order, an entry whose chunk is gone unchanged."""
    ids = list(dict.fromkeys(d.chunk_id for d in entries if d.chunk_id))
    chunks = {c.chunk_id: c for c in store.get_chunks(ids)} if ids else {}
    return [dataclasses.replace(d, **page_fields(chunks[d.chunk_id])) if d.chunk_id in chunks else d for d in entries]


def as_passage_list(
    store,
    run: SearchRun,
    results: list[SearchResult],
    query: str,
    top_k: int,
    used: UsedDefinitions,
    encode=None,
    settings=None,
    vectors=None,
    memo: SentenceMemo | None = None,
) -> tuple[list[SearchResult], UsedDefinitions]:
    """``results`` (the hits of ``run``, assembled) answered by their best passages instead: at most
    ``top_k`` of them, best first (:func:`~docstrata.passage_list.rank_passages`; the answer regions
    of the hits the fitted relevance cut-off keeps first, :func:`~docstrata.passage_list.answer_regions`,
    then the candidate chunks' best sentences,
    each widened to a readable passage), each a copy of its chunk's result cited to the deepest
    section holding the passage, with its "cited by" summary. With ``encode`` and the run's query
    vector the sentences of the first chunks are scored by meaning as well. ``settings``: a
    :class:`~docstrata.passage_list.PassageListSettings` (default: the fitted one); ``vectors``: a
    :class:`~docstrata.passage_list.SentenceVectors` cache of the tool's sentence vectors; ``memo``:
    the :class:`~docstrata.passage.SentenceMemo` :func:`assemble_results` filled citing the same
    hits (their sentences are not split and analysed again). Returns the passages and the
    definitions of ``used`` that one of them still uses."""
    from .citers import attach_cited_by
    from .passage_list import (
        answer_regions,
        candidates_of,
        embedded_chunks,
        list_settings,
        passage_results,
        rank_passages,
        sentence_cosines,
    )
    from .search import relative_keep

    settings = settings or list_settings()
    by_id = {h.chunk.chunk_id: h.chunk for h in run.hits}
    pairs = [(r, by_id[r.chunk_id]) for r in results if r.chunk_id in by_id]
    if not pairs:
        return [], {}
    results, chunks = [r for r, _c in pairs], [c for _r, c in pairs]
    asked = run.asked or query
    candidates = candidates_of(chunks, asked, memo=memo)
    sentences = candidates.sentences
    cosines_of = sentence_cosines(chunks, run.query_vector, encode, vectors) if encode is not None else None
    cosines: dict[int, float] = {}

    def embedded_cosines(_hits=None, _sentences=None) -> dict[int, float]:  # one batch, only when needed
        if cosines_of is not None and not cosines and (embedded := embedded_chunks(settings, len(chunks))):
            cosines.update(cosines_of(embedded, sentences))
        return cosines

    kept = relative_keep([r.fused_score for r in results], [r.pinned for r in results], settings.cut)
    pinned = [(r.pinpoint.start, r.pinpoint.end) if r.pinpoint is not None else None for r in results]
    first = answer_regions(
        chunks,
        asked,
        kept,
        pinned,
        sentences,
        embedded_cosines() if settings.first_weight > 0 else {},
        settings,
        memo,
    )
    ranked = rank_passages(
        chunks,
        [r.fused_score for r in results],
        first,
        asked,
        top_k,
        embedded_cosines if cosines_of is not None else None,
        settings,
        candidates,
    )
    out = passage_results(results, chunks, ranked)
    attach_cited_by(store, out)
    kept_defs = {(r.source_path, term, d) for r in out for term, d in r.definitions_context.items()}
    return out, {key: d for key, d in used.items() if (key[0], key[1], d.definition) in kept_defs}
