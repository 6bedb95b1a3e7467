"""Passage results: a search answered by its best passages rather than its best chunks.

A chunk search returns whole chunks, one per hit; an answer to "what data do you share with third
parties?" is often three sentences in three places of one policy, and the chunk around each
carries twenty more. :func:`rank_passages` re-ranks the sentences of the candidate chunks instead:

1. The answer regions of the hits the relevance cut-off keeps come first, in hit order: a hit's
   pinpointed item, else its :func:`~docstrata.passage.minimal_passage` located with the list's own
   settings (:func:`answer_regions`: ``first_keep``, ``first_bridge``, ``first_section_chars``; by
   words and, for the hits among the first ``semantic_chunks``, meaning with share
   ``first_weight``: the sentences step 2 embeds anyway, so no model call is added).
2. Every other sentence of the candidate chunks (:func:`~docstrata.passage.sentence_spans`) is
   scored by the query's tokens it holds, each weighted ``log(1 + N / (1 + n_t))`` over all ``N``
   candidate sentences (a BM25-style IDF over sentences, saturation left out: sentences are short),
   scaled so the best is 1; the sentences of the first ``semantic_chunks`` chunks by their cosine to
   the query as well (min..max scaled, share ``semantic_weight``); and the whole is multiplied by
   the chunk's prior, ``(fused score / best fused score) ** prior`` (a sentence of a weak chunk needs
   more to rank high).
3. In that order, each sentence not yet shown becomes a passage, widened by its better-scoring
   neighbour (same chunk, not yet shown) until it holds ``min_chars`` characters or
   ``max_sentences`` sentences: a short list item alone says little, a long clause needs nothing
   more. A label (:func:`~docstrata.passage.label_line`: ``5.2.``, ``Device Limit.``) answers
   nothing: it takes the text it opens and never ends a passage; a list item takes its lead-in
   (``Recipient will:``, ``… including—``: its parent in :func:`~docstrata.enumeration.enumeration`)
   when that is not shown yet; a contents line
   (:func:`~docstrata.passage.listing_line`, links to other places of the document or dot leaders
   and a page number) is never part of a passage, nor a passage that holds only a label. Sentences
   scoring below ``floor`` × the best end the list.
4. Lists stay whole (:mod:`docstrata.enumeration`): a lead-in whose items go on with its sentence
   (``… a report that includes— (1) …; (2) an assessment of— (A) …; … (8) ….``) takes all its
   items with their sub-items, so an item shown comes with its sub-items and a lead-in never ends a
   passage (one of clauses that are sentences of their own takes at least its first): a ranked
   passage up to :data:`LIST_PASSAGE_CHARS` characters, an answer region up to
   :data:`LIST_REGION_CHARS`; an answer region that ends inside such a list runs to the list's end
   when the lead-in is in it, or when every sentence left of the list scores at least ``floor`` ×
   its best (:func:`answer_regions`).

The settings are fitted on the LegalBench-RAG dev half (``python bench/legalbench_rag.py --fit``,
Pipitone & Houir Alami 2024, arXiv:2408.10343) into ``passage_fit.json``; the constants below are the
fallback. Each passage is a :class:`~docstrata.models.SearchResult` of its chunk whose ``passage`` and
``answer_passage`` are the passage, cited to the deepest section holding it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .enumeration import Enumeration, closed, of_sentences
from .models import Chunk, SearchResult
from .passage import (
    PASSAGE_BRIDGE,
    PASSAGE_KEEP,
    PASSAGE_SECTION_CHARS,
    SentenceMemo,
    fitted,
    fused_scores,
    label_line,
    listing_line,
    minimal_passage,
    opens_text,
    sentence_scores,
)
from .pinpoint import section_at
from .search import non_increasing

LIST_PRIOR = 2.0  # exponent of the chunk's fused score over the best one, multiplying a sentence's score
LIST_SEMANTIC_WEIGHT = 0.75  # the cosine's share of a sentence's score, for the first LIST_SEMANTIC_CHUNKS chunks
LIST_SEMANTIC_CHUNKS = 8  # chunks whose sentences are embedded (one batch a search)
LIST_MIN_CHARS = 120  # a passage is widened by neighbouring sentences until it is this long…
LIST_MAX_SENTENCES = 7  # …or holds this many sentences
LIST_FLOOR = 0.2  # sentences scoring below this share of the best end the list
LIST_CUT = 0.9  # hits whose answer regions come first: fused score at least this share of the best
LIST_CANDIDATES = 16  # a passage search ranks the sentences of at least this many chunk hits (8, 16, 32 or 64: the same figures on the dev half)
LIST_PASSAGE_CHARS = 1500  # a ranked passage takes the items and sub-items it opens up to this many characters…
LIST_REGION_CHARS = 4000  # …a first hit's answer region up to this many (a list it ends inside: to the list's end)


def list_candidates() -> int:
    """How many chunk hits a passage search ranks the sentences of, at least (fitted
    ``list_candidates``, else :data:`LIST_CANDIDATES`)."""
    return int(fitted("list_candidates", LIST_CANDIDATES))


@dataclass(frozen=True)
class PassageListSettings:
    """How :func:`rank_passages` ranks and shapes passages (see the module docstring); defaults
    from ``passage_fit.json`` (:func:`list_settings`)."""

    prior: float = LIST_PRIOR
    semantic_weight: float = LIST_SEMANTIC_WEIGHT
    semantic_chunks: int = LIST_SEMANTIC_CHUNKS
    min_chars: int = LIST_MIN_CHARS
    max_sentences: int = LIST_MAX_SENTENCES
    floor: float = LIST_FLOOR
    cut: float = LIST_CUT
    first_weight: float = 0.0
    first_keep: float = PASSAGE_KEEP
    first_bridge: bool = PASSAGE_BRIDGE
    first_section_chars: int = PASSAGE_SECTION_CHARS


def list_settings(**override) -> PassageListSettings:
    """The fitted :class:`PassageListSettings` (keys ``list_prior``, ``list_semantic_weight``,
    ``list_semantic_chunks``, ``list_min_chars``, ``list_floor``, ``list_first_weight``,
    ``list_first_keep``, ``list_first_bridge``, ``list_first_section_chars`` and
    ``min_relative_score`` of ``passage_fit.json``; the answer regions default to the chunk answers'
    own, ``passage_keep`` …, located by words), each replaced by an ``override`` given by field name."""
    base = PassageListSettings(
        prior=fitted("list_prior", LIST_PRIOR),
        semantic_weight=fitted("list_semantic_weight", LIST_SEMANTIC_WEIGHT),
        semantic_chunks=int(fitted("list_semantic_chunks", LIST_SEMANTIC_CHUNKS)),
        min_chars=int(fitted("list_min_chars", LIST_MIN_CHARS)),
        floor=fitted("list_floor", LIST_FLOOR),
        cut=fitted("min_relative_score", LIST_CUT),
        first_weight=fitted("list_first_weight", 0.0),
        first_keep=fitted("list_first_keep", fitted("passage_keep", PASSAGE_KEEP)),
        first_bridge=bool(fitted("list_first_bridge", fitted("passage_bridge", PASSAGE_BRIDGE))),
        first_section_chars=int(
            fitted("list_first_section_chars", fitted("passage_section_chars", PASSAGE_SECTION_CHARS))
        ),
    )
    return dataclasses.replace(base, **override)


@dataclass(frozen=True)
class Sentence:
    """One candidate sentence: ``hit``, the index of its chunk among the candidates; ``start`` /
    ``end``, its characters in that chunk's ``content``; ``tokens``, the query tokens it holds."""

    hit: int
    start: int
    end: int
    tokens: frozenset[str]


@dataclass(frozen=True)
class RankedPassage:
    """One passage of the list: ``hit``, the index of its chunk among the candidates; ``start`` /
    ``end``, characters of that chunk's ``content``; ``score``, its relevance (0..1, the best
    sentence's; ``None`` for a first hit's answer region, ranked by the hit itself)."""

    hit: int
    start: int
    end: int
    score: float | None


def candidate_sentences(chunks: list[Chunk], query: str, memo: SentenceMemo | None = None) -> list[Sentence]:
    """The sentences of ``chunks`` in order (:func:`~docstrata.passage.sentence_spans`), each with
    the tokens of ``query`` (:func:`~docstrata.index.keyword.analyze_query`) it holds. ``memo``: the
    search's :class:`~docstrata.passage.SentenceMemo` (used when it is for ``query``): the chunks its
    hits' citations split and analysed are not split again."""
    if memo is None or memo.query != query:
        memo = SentenceMemo(query)
    out = []
    for i, c in enumerate(chunks):
        for a, b, tokens in memo.sentences(c):
            out.append(Sentence(i, a, b, frozenset(tokens)))
    return out


def sentence_lexical(sentences: list[Sentence]) -> list[float]:
    """Each of ``sentences``' score by the query's words (module docstring, step 2): its tokens,
    each weighted ``log(1 + N / (1 + n_t))`` over the ``N`` sentences, scaled so the best is 1."""
    n = len(sentences) or 1
    df: dict[str, int] = {}
    for s in sentences:
        for t in s.tokens:
            df[t] = df.get(t, 0) + 1
    lexical = [sum(math.log(1 + n / (1 + df[t])) for t in s.tokens) for s in sentences]
    top = max(lexical, default=0.0)
    return [v / top for v in lexical] if top > 0 else lexical


def sentence_relevance(
    sentences: list[Sentence],
    fused: list[float],
    cosines: dict[int, float],
    settings: PassageListSettings,
    lexical: list[float] | None = None,
) -> list[float]:
    """Each of ``sentences``' score (module docstring, step 2): lexical over all of them
    (:func:`sentence_lexical`, or ``lexical`` when the caller has it), by meaning for those in
    ``cosines`` (sentence index → cosine to the query), times the prior of its chunk's ``fused``
    score (one per candidate chunk). 0 for a sentence holding no query token and no cosine."""
    if lexical is None:
        lexical = sentence_lexical(sentences)
    w = settings.semantic_weight if cosines else 0.0
    lo, hi = (min(cosines.values()), max(cosines.values())) if cosines else (0.0, 0.0)
    best = max(fused, default=0.0)
    priors = [(f / best) ** settings.prior if best > 0 and f > 0 else 0.0 for f in fused]
    out = []
    for i, s in enumerate(sentences):
        v = (1 - w) * lexical[i]
        if i in cosines:
            v += w * ((cosines[i] - lo) / (hi - lo) if hi - lo > 1e-12 else 1.0)
        out.append(v * priors[s.hit])
    return out


@dataclass(frozen=True)
class Candidates:
    """The candidate sentences of a passage search and what ranking them needs that no setting
    changes, worked out once (:func:`candidates_of`): ``sentences``; ``texts``, each one's text;
    ``opens``, whether it only opens what follows (:func:`~docstrata.passage.opens_text`: a label,
    ``5.2.``, or a lead-in, ``… will:``, ``… including—``);
    ``listing``, whether it is a contents line (:func:`~docstrata.passage.listing_line`);
    ``lexical``, :func:`sentence_lexical`; ``lists``, the lists among each chunk's sentences
    (:func:`~docstrata.enumeration.of_sentences`, indexed from the chunk's first sentence,
    ``offsets[hit]`` in ``sentences``)."""

    sentences: list[Sentence]
    texts: list[str]
    opens: list[bool]
    listing: list[bool]
    lexical: list[float]
    lists: list[Enumeration]
    offsets: list[int]


def candidates_of(
    chunks: list[Chunk], query: str, sentences: list[Sentence] | None = None, memo: SentenceMemo | None = None
) -> Candidates:
    """The :class:`Candidates` of ``chunks`` for ``query`` (``sentences``: their
    :func:`candidate_sentences` when the caller has them, else made through ``memo``, the search's
    :class:`~docstrata.passage.SentenceMemo`, when given)."""
    if sentences is None:
        sentences = candidate_sentences(chunks, query, memo)
    texts = [chunks[s.hit].content[s.start : s.end] for s in sentences]
    offsets: list[int] = []
    lists: list[Enumeration] = []
    for i, c in enumerate(chunks):
        offsets.append(next((j for j, s in enumerate(sentences) if s.hit == i), len(sentences)))
        lists.append(of_sentences(c.content, [(s.start, s.end) for s in sentences if s.hit == i]))
    return Candidates(
        sentences,
        texts,
        [opens_text(t) for t in texts],
        [listing_line(t) for t in texts],
        sentence_lexical(sentences),
        lists,
        offsets,
    )


LEAD_IN_ITEMS = 3  # a list item's passage reaches back over at most this many items to their lead-in ("… will:")


def _free(sentences: list[Sentence], j: int, hit: int, shown: set[int]) -> bool:
    return 0 <= j < len(sentences) and sentences[j].hit == hit and j not in shown


def _widened(
    candidates: Candidates,
    scores: list[float],
    lo: int,
    hi: int,
    shown: set[int],
    settings: PassageListSettings,
) -> tuple[int, int]:
    """The first and last index of sentences ``lo``..``hi`` widened by their better neighbour (same
    chunk, not ``shown``; a label or lead-in never last: it opens what follows it) until ``settings.min_chars``
    characters or ``settings.max_sentences`` sentences; then, when it opens with a list item, back
    to the lead-in of its list (its parent, :func:`~docstrata.enumeration.enumeration`, with at most
    :data:`LEAD_IN_ITEMS` sentences between); then closed over its lists (:func:`_listed`)."""
    sentences, labels = candidates.sentences, candidates.opens
    hit = sentences[lo].hit
    while sentences[hi].end - sentences[lo].start < settings.min_chars and hi - lo + 1 < settings.max_sentences:
        options = [
            (scores[j], j) for j in (lo - 1, hi + 1) if _free(sentences, j, hit, shown) and not (j > hi and labels[j])
        ]
        if not options:
            break
        j = max(options)[1]
        lo, hi = min(lo, j), max(hi, j)
    enum, off = candidates.lists[hit], candidates.offsets[hit]
    parent = enum.parent[lo - off] if enum.item[lo - off] else None
    if (
        parent is not None
        and enum.lead[parent]
        and lo - (parent + off) - 1 <= LEAD_IN_ITEMS
        and all(_free(sentences, j, hit, shown) for j in range(parent + off, lo))
    ):
        lo = parent + off
    return lo, _listed(candidates, lo, hi, shown, LIST_PASSAGE_CHARS)


def _listed(candidates: Candidates, lo: int, hi: int, shown: set[int], budget: int) -> int:
    """The last index of passage ``lo``..``hi`` (indexes into ``candidates.sentences``, one chunk)
    once its items take their sub-items and a lead-in ending it its items
    (:func:`~docstrata.enumeration.closed`), the passage at most ``budget`` characters, no
    ``shown`` sentence taken."""
    sentences = candidates.sentences
    hit = sentences[lo].hit
    enum, off = candidates.lists[hit], candidates.offsets[hit]
    start = sentences[lo].start
    last = closed(
        enum,
        lo - off,
        hi - off,
        fits=lambda j: sentences[j + off].end - start <= budget,
        free=lambda j: _free(sentences, j + off, hit, shown),
    )
    return last + off


def embedded_chunks(settings: PassageListSettings, n_chunks: int) -> list[int]:
    """The candidate chunks (indexes) whose sentences a passage search embeds: the first
    ``semantic_chunks`` when the cosine has a share of the ranking or of the answer regions, else none."""
    if settings.semantic_chunks <= 0 or (settings.semantic_weight <= 0 and settings.first_weight <= 0):
        return []
    return list(range(min(settings.semantic_chunks, n_chunks)))


def answer_regions(
    chunks: list[Chunk],
    query: str,
    kept: list[bool],
    pinned: list[tuple[int, int] | None],
    sentences: list[Sentence],
    cosines: dict[int, float],
    settings: PassageListSettings | None = None,
    memo: SentenceMemo | None = None,
) -> list[tuple[int, int] | None]:
    """Per chunk of ``chunks``, the ``(start, end)`` in its ``content`` of the answer region
    :func:`rank_passages` shows first, ``None`` for a hit the relevance cut-off does not keep
    (``kept``) or without one: its pinpointed item when ``pinned`` has one, else its
    :func:`~docstrata.passage.minimal_passage` with the settings' ``first_keep``,
    ``first_section_chars`` and ``first_bridge``, its sentences scored by ``query``'s words and, with
    ``first_weight`` above 0, by their cosine too (:func:`~docstrata.passage.fused_scores`;
    ``cosines``: by index into ``sentences``, :func:`candidate_sentences` of ``chunks``; a chunk
    with a sentence missing is located by words). ``memo``: the search's
    :class:`~docstrata.passage.SentenceMemo`, so a hit already split is not split again."""
    settings = settings or list_settings()
    per_hit: dict[int, list[float | None]] = {}
    for j, s in enumerate(sentences):
        per_hit.setdefault(s.hit, []).append(cosines.get(j))
    out: list[tuple[int, int] | None] = []
    for i, c in enumerate(chunks):
        if not kept[i] or pinned[i] is not None:
            out.append(pinned[i] if kept[i] else None)
            continue
        scored = sentence_scores(c, query, memo)
        cos = per_hit.get(i, [])
        if settings.first_weight > 0 and cos and all(v is not None for v in cos):
            scored = fused_scores(
                c, query, [float(v) for v in cos if v is not None], settings.first_weight, lexical=scored
            )
        found = minimal_passage(
            c, query, settings.first_keep, settings.first_section_chars, scored, settings.first_bridge
        )
        out.append(_region_listed(c, scored, found.start, found.end, settings) if found is not None else None)
    return out


def _region_listed(
    chunk: Chunk, scored: list[tuple[int, int, float]], start: int, end: int, settings: PassageListSettings
) -> tuple[int, int]:
    """Answer region ``start``..``end`` of ``chunk`` (``scored``: its sentences and their scores)
    completed as a list answer, at most :data:`LIST_REGION_CHARS` characters: when it ends inside a
    list whose items go on with their lead-in's sentence (:meth:`~docstrata.enumeration.Enumeration.one_sentence`)
    and that lead-in is in the region, or every sentence left of that list scores at least
    ``settings.floor`` × the best, it runs to the list's end; then its items take their sub-items
    and a lead-in ending it its items (:func:`~docstrata.enumeration.closed`)."""
    spans = [(a, b) for a, b, _s in scored]
    inside = [k for k, (a, b) in enumerate(spans) if a < end and b > start]
    if not inside:
        return start, end
    lo, hi = inside[0], inside[-1]
    enum = of_sentences(chunk.content, spans)
    first = min(start, spans[lo][0])

    def fits(j: int) -> bool:
        return spans[j][1] - first <= LIST_REGION_CHARS

    chain: list[int] = []
    node: int | None = hi
    while node is not None and len(chain) <= len(spans):
        chain.append(node)
        node = enum.parent[node]
    lists = [n for n in chain if enum.list_end(n) > hi]
    best = max((sc for _a, _b, sc in scored), default=0.0)
    led = [n for n in lists if n >= lo]
    if led:  # the lead-in is in the region: all its items are the answer
        hi = _to_end(enum, led[-1], hi, fits)
    elif lists and all(scored[j][2] >= settings.floor * best for j in range(hi + 1, enum.list_end(lists[0]) + 1)):
        hi = _to_end(enum, lists[0], hi, fits)
    hi = closed(enum, lo, hi, fits)
    return start, max(end, spans[hi][1])


def _to_end(enum: Enumeration, opener: int, hi: int, fits: Callable[[int], bool]) -> int:
    """``hi`` moved to the end of the list ``opener`` opens (:meth:`~docstrata.enumeration.Enumeration.list_end`),
    item by item while ``fits``."""
    end = enum.list_end(opener)
    for c in enum.items_of(opener):
        last = min(enum.extent[c], end)
        if last > hi:
            if not fits(last):
                break
            hi = last
    return hi


class SentenceVectors:
    """The vectors of sentences embedded by one embedder, most recently used kept (at most
    ``max_items``, float32): the first chunks of related questions are often the same, and
    embedding their sentences is most of a passage search's time (1.2 s of 1.4 s for 217 sentences
    on a loaded 2-core machine). Thread-safe; a vector depends on the text and the model only."""

    def __init__(self, max_items: int = 20_000) -> None:
        import threading
        from collections import OrderedDict

        self.max_items = max_items
        self._items: OrderedDict[str, Any] = OrderedDict()  # text -> float32 vector
        self._lock = threading.Lock()

    def encode(self, texts: list[str], encode):
        """``(len(texts), dim)`` vectors of ``texts``: cached ones reused, the others embedded by
        ``encode`` in one batch and kept."""
        import numpy as np

        with self._lock:
            known = {t: self._items[t] for t in texts if t in self._items}
            for t in known:
                self._items.move_to_end(t)
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            fresh = np.asarray(encode(missing), dtype=np.float32)
            with self._lock:
                for t, v in zip(missing, fresh):
                    self._items[t] = known[t] = v
                while len(self._items) > self.max_items:
                    self._items.popitem(last=False)
        return np.stack([known[t] for t in texts]) if texts else np.zeros((0, 0), dtype=np.float32)


def sentence_cosines(
    chunks: list[Chunk], query_vector, encode, cache: SentenceVectors | None = None
) -> Callable[[list[int], list[Sentence]], dict[int, float]] | None:
    """The ``cosines_of`` :func:`rank_passages` takes: the sentences of the chunks asked for,
    embedded in one batch by ``encode`` (``texts -> (n, dim)`` L2-normalised, the tool's embedder;
    through ``cache`` when given), each one's cosine to ``query_vector`` (L2-normalised, as the
    search embedded the query); ``None`` when the query was not embedded (a keyword search)."""
    if query_vector is None:
        return None
    import numpy as np

    qv = np.asarray(query_vector, dtype=np.float32)

    def cosines_of(hits: list[int], sentences: list[Sentence]) -> dict[int, float]:
        wanted = set(hits)
        idx = [j for j, s in enumerate(sentences) if s.hit in wanted]
        if not idx:
            return {}
        texts = [chunks[sentences[j].hit].content[sentences[j].start : sentences[j].end] for j in idx]
        vectors = cache.encode(texts, encode) if cache is not None else encode(texts)
        sims = np.asarray(vectors, dtype=np.float32) @ qv
        return {j: float(v) for j, v in zip(idx, sims)}

    return cosines_of


def rank_passages(
    chunks: list[Chunk],
    fused: list[float],
    first: list[tuple[int, int] | None],
    query: str,
    top_k: int,
    cosines_of: Callable[[list[int], list[Sentence]], dict[int, float]] | None = None,
    settings: PassageListSettings | None = None,
    candidates: Candidates | None = None,
) -> list[RankedPassage]:
    """At most ``top_k`` passages of the candidate ``chunks`` (best hit first; ``fused``, their
    fused scores), best first (module docstring). ``first``: per chunk, the ``(start, end)`` of its
    answer region in ``content`` to show first when the relevance cut-off keeps the hit, ``None``
    when it does not or the hit has none. ``cosines_of(hits, sentences)``: the cosine to the query
    of each sentence (by index) of those chunk indexes; ``None``: by words alone. ``candidates``: the
    :func:`candidates_of` ``chunks`` and ``query`` when the caller has them."""
    settings = settings or list_settings()
    if candidates is None:
        candidates = candidates_of(chunks, query)
    sentences, labels = candidates.sentences, candidates.opens
    out: list[RankedPassage] = []
    shown: set[int] = set()
    for hit, span in enumerate(first):
        if span is None or len(out) >= top_k:
            continue
        inside = [j for j, s in enumerate(sentences) if s.hit == hit and s.start < span[1] and s.end > span[0]]
        last = inside[-1] if inside else None
        # a region that only labels ("Sec. 3." of a pinned section) takes the text it opens, as below
        while (
            last is not None
            and labels[last]
            and _free(sentences, last + 1, hit, shown)
            and all(labels[j] for j in inside)
        ):
            last += 1
            inside.append(last)
            span = (span[0], max(span[1], sentences[last].end))
        out.append(RankedPassage(hit, span[0], span[1], None))
        shown.update(inside)
    if len(out) >= top_k:  # the confident hits fill the list: no sentence is ranked, nothing embedded
        return out
    cosines: dict[int, float] = {}
    if cosines_of is not None and settings.semantic_weight > 0 and settings.semantic_chunks > 0:
        cosines = cosines_of(embedded_chunks(settings, len(chunks)), sentences)
    listing = candidates.listing  # a contents line names a section, it answers nothing
    shown.update(j for j, flag in enumerate(listing) if flag)
    relevance = sentence_relevance(sentences, fused, cosines, settings, candidates.lexical)
    scores = [0.0 if flag else v for v, flag in zip(relevance, listing)]
    order = sorted(range(len(sentences)), key=lambda j: (-scores[j], j))
    best = scores[order[0]] if order else 0.0
    # a label ("5.2.") or a lead-in ("… include:") opens what follows it: never alone, never last
    for j in order:
        if len(out) >= top_k or scores[j] <= 0 or scores[j] < settings.floor * best:
            break
        if j in shown:
            continue
        lo = hi = j
        hit = sentences[j].hit
        while labels[hi] and _free(sentences, hi + 1, hit, shown):  # a label answers nothing: what it opens does
            hi += 1
        if labels[hi]:
            continue
        lo, hi = _widened(candidates, scores, lo, hi, shown, settings)
        if label_line(chunks[hit].content[sentences[lo].start : sentences[hi].end]):
            continue  # all it holds is a label ("(Source: P.A. 83-493.)"): it answers nothing either
        shown.update(range(lo, hi + 1))
        out.append(RankedPassage(sentences[j].hit, sentences[lo].start, sentences[hi].end, round(scores[j], 4)))
    return out


def short_list_notice(found: int, top_k: int, settings: PassageListSettings | None = None) -> str | None:
    """What an answer of ``found`` passages says when ``top_k`` were asked for and fewer came (the
    floor of :func:`rank_passages` ended the list); ``None`` when the list is full."""
    if found >= top_k:
        return None
    floor = (settings or list_settings()).floor
    return (
        f"{found} passage(s) of the {top_k} asked for: the other sentences of the candidate chunks score below "
        f"{floor:g} x the best (search without passages for whole chunks)"
    )


def passage_results(
    results: list[SearchResult], chunks: list[Chunk], ranked: list[RankedPassage]
) -> list[SearchResult]:
    """Each of ``ranked`` as a :class:`~docstrata.models.SearchResult`: a copy of its chunk's result
    (``results`` and ``chunks`` parallel) whose ``passage`` and ``answer_passage`` are the passage,
    in characters of the stripped content, and ``section_id`` the deepest section holding it; a
    first hit's result (``score`` ``None``) keeps its pinpoint, or its answer region becomes its
    ``passage`` with the chunk's references and definitions (as
    :func:`~docstrata.answers.as_passages` shows it). References and
    definitions are those the passage's text holds; ``score`` is the passage's, made non-increasing
    down the list (a first hit's is the best)."""
    out = []
    for p in ranked:
        r, c = results[p.hit], chunks[p.hit]
        if p.score is None and r.pinpoint is not None:  # a first hit's pinpointed item, as answers cite it
            out.append(dataclasses.replace(r, score=1.0))
            continue
        lead = len(c.content) - len(c.content.lstrip())
        sid = section_at(c, p.start)
        text = c.content[p.start : p.end]
        span = {"section_id": sid, "start": p.start - lead, "end": p.end - lead}
        if p.score is None:  # a first hit's answer region, with the chunk's references and definitions
            out.append(
                dataclasses.replace(
                    r, score=1.0, passage=dict(span), answer_passage=dict(span), section_id=sid, is_passage=True
                )
            )
            continue
        out.append(
            dataclasses.replace(
                r,
                section_id=sid,
                passage=dict(span),
                answer_passage=dict(span),
                pinpoint=None,
                pinned=False,
                score=p.score,
                cross_references=[x for x in r.cross_references if x.get("text") and x["text"] in text],
                definitions_context={t: d for t, d in r.definitions_context.items() if t.lower() in text.lower()},
                cited_by=[],
                cited_by_total=None,
                is_passage=True,
            )
        )
    for r, score in zip(out, non_increasing([r.score or 0.0 for r in out])):
        r.score = score
    return out
