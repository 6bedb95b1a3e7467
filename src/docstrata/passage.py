"""Precise citations: the sentences of a hit that match its query best, and the deepest section
of the chunk that holds them (``2.2 Suspension`` inside the chunk of section 2).

A chunk often carries several sub-sections (``metadata["sections"]``); citing the chunk's first
section sends a reader to the wrong place. :func:`locate_passage` scores each sentence (or list
item / line) of the chunk by the query's BM25 tokens (:func:`~docstrata.index.keyword.analyze_query`),
each token weighted by how rare it is among the chunk's sentences (a word every sentence has —
the parties of a contract — tells no sentence apart), takes the best one and the deepest section
holding it (:func:`~docstrata.pinpoint.section_at`). Lexical on purpose: no model call per hit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .index.keyword import analyze, analyze_query
from .models import Chunk
from .pinpoint import section_at

# a sentence ends at ". ", "? ", "! ", "; " before a capital, digit or bracket, or at a line break
_SENTENCE_END = re.compile(r"(?<=[.?!;:])\s+(?=[\"“(\[A-Z0-9])|\n+")


_LABEL_ONLY = re.compile(r"[\s>*-]*(?:\(?[0-9]{1,3}[.)]|\(?[a-zA-Z]{1,4}[.)]|\([0-9a-zA-Z]{1,4}\))(?:\s*\|)?")


@dataclass(frozen=True)
class Passage:
    """The best-matching passage of a hit: ``section_id``, the deepest section of the chunk holding
    it; ``start`` / ``end``, its characters in the chunk's ``content`` (end exclusive); ``score``,
    the rarity-weighted count of query tokens it holds (> 0)."""

    section_id: str
    start: int
    end: int
    score: float


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence, list item or line of ``text``, blank ones left out."""
    spans, pos = [], 0
    for m in _SENTENCE_END.finditer(text):
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, len(text)))
    out: list[tuple[int, int]] = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b <= a:
            continue
        if out and _LABEL_ONLY.fullmatch(text[out[-1][0] : out[-1][1]]):
            out[-1] = (out[-1][0], b)  # "2." and its sentence are one: a list label is no sentence
        else:
            out.append((a, b))
    return out


def locate_passage(chunk: Chunk, query: str) -> Passage | None:
    """The sentence of ``chunk`` that holds the query's tokens best (each weighted by
    ``log(1 + n / (1 + n_t))`` over the chunk's ``n`` sentences, ``n_t`` of them holding token
    ``t``; ties: the earlier), with the deepest section holding it; ``None`` when no sentence holds
    any query token."""
    wanted = set(analyze_query(query))
    if not wanted:
        return None
    spans = sentence_spans(chunk.content)
    tokens = [set(analyze(chunk.content[a:b])) & wanted for a, b in spans]
    n = len(spans)
    df = {t: sum(t in ts for ts in tokens) for t in wanted}
    weight = {t: math.log(1 + n / (1 + df[t])) for t in wanted}
    best, best_score = None, 0.0
    for (a, b), ts in zip(spans, tokens):
        score = sum(weight[t] for t in ts)
        if score > best_score + 1e-9:
            best, best_score = (a, b), score
    if best is None:
        return None
    return Passage(section_at(chunk, best[0]), best[0], best[1], round(best_score, 4))


def cite_passage(result, chunk: Chunk, query: str) -> None:
    """Cite ``result`` (a :class:`~docstrata.models.SearchResult` of ``chunk``) by its best-matching
    sentence (:func:`locate_passage`), in place: ``section_id`` becomes the deepest section holding
    it and ``passage`` ``{"section_id", "start", "end"}``, characters of the stripped content (as
    answers and ``*_get_neighbours`` show it). Unchanged when no sentence holds a query token."""
    found = locate_passage(chunk, query)
    if found is None:
        return
    lead = len(chunk.content) - len(chunk.content.lstrip())
    result.section_id = found.section_id
    result.passage = {"section_id": found.section_id, "start": found.start - lead, "end": found.end - lead}
