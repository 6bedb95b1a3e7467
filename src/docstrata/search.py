"""Query → exact, keyword and dense searches → weighted RRF → citations and definitions.

Query analysis finds section references (``Section 4.2.1``, ``Art. 17``, ``§ 203(a)``),
defined terms asked about, quoted phrases and code identifiers (``getTarget``,
``TEST_VECTORS``, text in backticks). The exact modality ranks, in order: chunks that start a
named section, records whose id or a metadata value equals the whole query, definitions of
terms asked about, chunks containing a quoted phrase, chunks containing a named identifier.

Ordering rule on top of RRF (DESIGN §5): a chunk that starts a section the query names, or a
record whose id or metadata value equals the whole query, is placed before every other
result in every mode (hybrid, semantic, keyword, exact: :func:`pin_first`), even when the mode's
own modalities did not find it; among themselves such chunks keep their fused order. A
query "names" a section when it is essentially the reference ("Section 4.2.1", "What does
Article 17 say?"), or the reference and words all in the section's title ("Article 11
administrative cooperation between Member States"), or the reference with the section's own title
written right after it, however long the question ("What does Section 12.3 (Governing Law and
Chosen Courts), referred to in …, provide?"). The words of a document's name beside the reference
("HPKE Section 9.5") are none of the query's other words. A long question that mentions "Rule
6.2.1" in passing gets the section's exact-modality rank in the fusion but no pin, since its answer
is often elsewhere (ObliQA: pinning such a section, even the one its named or scoped document
holds, cost nDCG@10); when the citation names one section in the scope, that section heads the
``citing`` list that ranks the passages citing it by the question's other words, so a passage
that only mentions "Rule 6.2.1" does not outrank it on those words. Among sections cited alike (every RFC's
Section 1), those whose titles hold the most of the query's other words are ranked (and, when the
query names the section, pinned) first ("Section 3.1 password rotation"); a title written out
may choose a section its enclosing number names ("Section 3.3(c) Restrictions on Licensee": one
document's 3.3 so titled, whose (c) is no section, over another document's 3.3(c)), and the
citation then names both (ambiguous). Everything else is ordered by the fused score.

A citation is also judged (:func:`assess_confidence`): one that names several sections (GDPR's
Section 3 of Chapters III, IV and VII; every RFC's Section 1 over a corpus) pins each of them and
makes the answer ``medium``, listing them; one that names no section makes it at most ``medium``,
whatever exact hits a quoted "Section 9" in a passage gives.

Scores shown never increase down the list: a pinned hit placed above hits with a higher fused
score is lifted to the score of the hit after it (``RankedHit.score``; ``FusedHit.score`` keeps
the raw weighted RRF sum). Thresholds (DESIGN §7): ``min_similarity_score`` is the cosine
similarity of the query and a hit (HoloDeck's meaning), computed for every candidate whichever
modality found it; ``min_fused_score`` is on the weighted RRF scale. Neither ever drops a pinned
hit. Filters (:class:`~docstrata.store.base.ChunkFilter`) go to every modality's store search,
so they apply before ranking. A query without content words (``"the of and"``) matches nothing:
it returns no hits and says so (:attr:`SearchRun.content_words`), instead of ranking every chunk
by the embedding alone.
"""

from __future__ import annotations

import contextvars
from itertools import zip_longest
import os
import re
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from .errors import QueryError  # defined in the error tree; importable from here as before
from .fusion import (
    DEFAULT_EXACT_WEIGHT,
    DEFAULT_KEYWORD_WEIGHT,
    DEFAULT_RRF_K,
    DEFAULT_SEMANTIC_WEIGHT,
    FusedHit,
    max_fused_score,
    weighted_rrf,
)
from .index.exact import (
    query_document_keys,
    NAMES_SECTION_WORDS,
    QUERY_FILLER,
    query_citing_keys,
    query_identifiers,
    query_other_words,
    query_qualified_keys,
    query_section_keys,
    query_term_keys,
    quoted_phrases,
    term_pattern,
    title_words,
    value_key,
)
from .index.keyword import QUERY_STOPWORDS
from .query_scope import KIND_WORDS
from .respell import Respelling, respell
from .structure.grammar import contents_words_pattern
from .confidence import Signals, level_of, probability
from .models import LOW_SIMILARITY, Chunk, Confidence, DefinitionEntry, SearchMode
from .store.base import ChunkFilter
from .telemetry import is_recording, query_attributes, span


MODES = ("hybrid", "semantic", "keyword", "exact")


@dataclass
class SearchSettings:
    """Weights, ``rrf_k``, candidate depth per modality, and the thresholds:
    ``min_fused_score`` on the weighted RRF score, ``min_similarity_score`` on the cosine
    similarity of query and hit, ``min_relative_score`` a share (0–1] of the best hit's fused score
    (:func:`relevant_hits`: the answer stops padding itself with weak hits)."""

    semantic_weight: float = DEFAULT_SEMANTIC_WEIGHT
    keyword_weight: float = DEFAULT_KEYWORD_WEIGHT
    exact_weight: float = DEFAULT_EXACT_WEIGHT
    rrf_k: int = DEFAULT_RRF_K
    candidates: int = 100
    min_fused_score: float | None = None
    min_similarity_score: float | None = None
    min_relative_score: float | None = None
    # the cosine a query word no chunk holds needs with a spelling one edit away that chunks hold to
    # be searched so ("licence" → "license"; docstrata.respell); None: never respelled
    respell_cosine: float | None = None


@dataclass
class RankedHit:
    """A fused hit with its chunk, and whether it is pinned first.

    ``score`` is the score shown: the fused score, lifted for a pinned hit to the next hit's so
    scores never increase down the list. ``similarity`` is the cosine of query and chunk (``None``
    when the query was not embedded)."""

    chunk: Chunk
    fused: FusedHit
    pinned: bool = False  # starts a section the query names, or is the record the query names
    score: float = 0.0
    similarity: float | None = None


@dataclass
class CitedSection:
    """A section a query's citation names: its document, section id and title (without its number)."""

    document: str
    section_id: str
    title: str = ""


@dataclass
class Citation:
    """One section citation of a query (``Section 3``, ``Chapter IV, Section 3``) and the sections
    it names in the searched scope: one (it is answered), several (the same number in several
    chapters or documents: ambiguous) or none. ``kinded`` is false for a bare number ("4.2.1"),
    which may be a version or a figure rather than a citation. ``absent_from``: the documents the
    query names (:mod:`docstrata.query_scope`, or the citation's own "of the GPL") when none of them
    holds the section; ``sections`` are then other documents' sections so numbered, which the
    question did not ask for. ``wider``: the number of the section that answered when the citation
    names an item no section is (``paragraph 17(d)`` answered by ``17``, :func:`reference_keys`'
    enclosing keys)."""

    cited: str
    sections: list[CitedSection] = field(default_factory=list)
    kinded: bool = True
    absent_from: tuple[str, ...] = ()
    wider: str = ""


@dataclass
class SearchRun:
    """What :func:`run_search` found: ``hits`` best first; ``content_words`` false for a query of
    stopwords only; ``embedded`` whether the query was embedded (similarities are known);
    ``dropped`` how many candidates a threshold removed (``dropped_by``: per threshold, the count
    and the best score it removed); ``citations`` the sections each of the
    query's citations names (:class:`Citation`, for :func:`assess_confidence`)."""

    hits: list[RankedHit]
    content_words: bool = True
    embedded: bool = False
    dropped: int = 0
    citations: list[Citation] = field(default_factory=list)  # what the query's section citations name
    # per threshold ("min_similarity_score", "min_fused_score"): how many candidates it removed and the best
    # score among them (None when no dropped candidate's cosine was computed)
    dropped_by: dict[str, tuple[int, float | None]] = field(default_factory=dict)
    other_words: bool = True  # the query has words besides its citations and filler
    notices: list[str] = field(default_factory=list)  # what the agent must be told (a semantic leg missing vectors)
    vectors_lost: bool = False  # documents without vectors were found: the tool's next call ingests again
    # the question without the part that names its document (query_scope), "" when none does: what a
    # hit's passage is located by (a sentence naming the parties does not answer "…; may it be assigned?")
    asked: str = ""
    # the query's vector as the semantic leg embedded it (of ``asked`` when set), None when not embedded:
    # what a hit's sentences are compared with (passage.fused_scores)
    query_vector: np.ndarray | None = None
    # the query as the keyword leg read it when a word was respelled (docstrata.respell), else "":
    # what the answer's confidence counts the query's words in
    keyword_query: str = ""

    def __iter__(self):
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, i):
        return self.hits[i]


@dataclass
class SearchTiming:
    """Seconds spent embedding the query and in the searches + fusion."""

    embed_s: float = 0.0
    search_s: float = 0.0


@dataclass
class QueryAnalysis:
    """What the query names: section-reference key lists, defined-term keys, quoted phrases,
    code identifiers (``getTarget``, `` `issue92()` ``)."""

    section_keys: list[list[str]] = field(default_factory=list)
    term_keys: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    identifiers: list[str] = field(default_factory=list)
    value_key: str = ""
    names_section: bool = False  # the query is essentially a reference: pin the section first
    document_keys: list[str] = field(default_factory=list)  # documents its references name ("of the GPL")
    other_words: list[str] = field(default_factory=list)  # words besides references and filler, folded
    text: str = ""  # the query as written (a section title written right after its citation)
    citing_keys: list[list[str]] = field(default_factory=list)  # citations whose citers it asks for


def analyze_query(query: str) -> QueryAnalysis:
    """What the exact leg reads from ``query``, computed once per search: section, term and
    document keys, quoted phrases, identifiers, value key, whether it names a section, other words."""
    other = query_other_words(query)
    return QueryAnalysis(
        query_section_keys(query),
        query_term_keys(query),
        quoted_phrases(query),
        query_identifiers(query),
        value_key(query),
        len(other) <= NAMES_SECTION_WORDS,
        query_document_keys(query),
        other,
        query,
        query_citing_keys(query),
    )


def _titled(store, ids: list[str], words: list[str]) -> tuple[list[str], bool]:
    """Of the chunks ``ids`` (those starting a section a query cites), the ones whose section
    titles (parent chain, less the document's title) hold the most of the query's other
    ``words``, and whether they hold them all; ``([], False)`` when none holds any. "Section
    3.1.5 standard practice implementation" then picks the 3.1.5 titled so over another
    document's 3.1.5."""
    want = set(words)
    overlap = {
        c.chunk_id: len(want & title_words([t for t in [*c.parent_chain, c.section_title] if t != c.document_title]))
        for c in store.get_chunks(ids)
    }
    best = max(overlap.values(), default=0)
    if not best:
        return [], False
    return [cid for cid in ids if overlap.get(cid) == best], best == len(want)


def _title_lead(title: str) -> str:
    """A section title up to its first sentence end: the heading of a run-in title that goes on
    with the clause's text (``Restrictions on Licensee. Licensee will not …``), else the title."""
    return re.split(r"(?<=[^\W\d_]{2}[.:])\s+(?=\S)", title, maxsplit=1)[0]


def _written(store, ids: list[str], key: str, query: str) -> list[str]:
    """Of the chunks ``ids`` (starting sections cited under ``key``), those whose cited section's own
    title (:func:`_title_lead`) the ``query`` writes right after a citation, in ``ids`` order:
    "Section 12.3 (Governing Law and Chosen Courts)", "Section 9.5 Pre-Shared Key Recommendations".
    Title words spread over a question ("According to GEN 3.3, which entity … outsourcing …") do
    not write it; a title with no word of its own (``(b)``) is written by no query."""
    if not ids or not query:
        return []
    text = query.casefold()
    written = set()
    for c in store.get_chunks(ids):
        words = re.findall(r"[^\W\d_]+", _title_lead(_cited_section(c, key).title).casefold())
        if not set(title_words(words)) - _FILLER_FOLDED:
            continue
        phrase = r"[\W_]+".join(re.escape(w) for w in words)
        if re.search(rf"[\d)\]]\s*[(:,.\-–—]?\s*{phrase}(?![^\W\d_])", text):
            written.add(c.chunk_id)
    return [cid for cid in ids if cid in written]


def _corpus_order(chunk_id: str) -> tuple[str, int]:
    doc, _, ordinal = chunk_id.rpartition("#")
    return (doc, int(ordinal)) if ordinal.isdigit() else (chunk_id, 0)


def has_content_words(query: str) -> bool:
    """True when the query holds a word that is not a stopword or question word
    (:data:`~docstrata.index.keyword.QUERY_STOPWORDS`), or a number."""
    return any(w not in QUERY_STOPWORDS for w in re.findall(r"\w+", query.casefold()))


def non_increasing(scores: list[float]) -> list[float]:
    """``scores`` with each one raised to the largest score after it, so the list never increases
    (a pinned hit placed above higher-scored hits gets the next hit's score)."""
    out = list(scores)
    for i in range(len(out) - 2, -1, -1):
        out[i] = max(out[i], out[i + 1])
    return out


_KIND_FOLDED = frozenset(title_words(sorted(KIND_WORDS)))  # "agreement", "act", "policy": kinds of document
_FILLER_FOLDED = frozenset(title_words(sorted(QUERY_FILLER)))  # "and", "of", "the": no word of a title's own
MAX_LISTED = 20  # candidates of an ambiguous citation listed in Confidence.ambiguous (the reason gives the count)


def assess_confidence(
    hits,
    content_words: bool,
    embedded: bool,
    citations: list[Citation] | None = None,
    other_words: bool = True,
    low_similarity: float = LOW_SIMILARITY,
    signals: Signals | None = None,
    fit: dict | None = None,
) -> Confidence:
    """The per-answer signal (see :class:`~docstrata.models.Confidence`) from hits that carry
    ``semantic_score``, ``keyword_score`` and ``exact_match``, and what the query's section
    ``citations`` name (:class:`Citation`, from :func:`exact_ranking`).

    A citation that names several sections makes it ``"medium"`` at most, the candidates listed in
    the reason and in ``Confidence.ambiguous``; one (with a kind: "Section 9", not a bare "4.2")
    that names none makes it ``"medium"`` at most, ``"low"`` when the query has no other words
    (``other_words`` false): its hits are then only passages near the words "Section 9". So does
    one the document the query names does not hold (``Citation.absent_from``: "paragraph 17(d) of
    the petition" where only the charter has a 17(d)), the reason saying it is not found there and
    naming the other documents' sections so numbered; it is listed in ``Confidence.unresolved``.
    ``low_similarity`` is the embedding model's floor (:func:`~docstrata.embed.similarity_floor`):
    a hit with no keyword or exact match is "close" from it up.

    With ``signals`` (:func:`~docstrata.confidence.answer_signals`) and the embedding model's
    ``fit`` (:func:`~docstrata.confidence.fitted_model`), the level is read from the fitted
    probability that the documents hold the answer (:func:`fitted_level`) instead of that rule; a
    first hit pinned because the query names it (one cited section, a record's id) is ``"high"``
    either way. The citation caps above apply to both."""
    level = _assess(hits, content_words, embedded, low_similarity)
    if signals is not None and level.level != "none":
        level.signals = signals.to_dict()
        level.missing_words = list(signals.missing)
        if fit is not None:
            fitted_level(level, signals, fit, bool(hits) and bool(hits[0].pinned))
    if level.level == "none" or not citations:
        return level
    absent = [c for c in citations if c.absent_from]
    ambiguous = [c for c in citations if len(c.sections) > 1 and not c.absent_from]
    unresolved = [c.cited for c in citations if not c.sections and c.kinded and not c.absent_from]
    first = (getattr(hits[0], "section_id", None) or "").lower() if hits else ""
    # an item answered by the section around it, where the first hit is not cited to the item itself
    wider = [c for c in citations if c.wider and c.sections and not first.endswith(c.cited.rpartition(" ")[2].lower())]
    if not ambiguous and not unresolved and not absent and not wider:
        return level
    why = []
    for c in wider:
        why.append(
            f"'{c.cited}' is no section here: the first hit is {c.wider}, the most specific section so "
            "numbered (the item may be in its text)"
        )
    for c in absent:  # the document the query names lacks it: another document's section is no answer
        docs = ", ".join(c.absent_from[:3]) + (f" and {len(c.absent_from) - 3} more" if len(c.absent_from) > 3 else "")
        elsewhere = ", ".join(f"{s.section_id} of {s.document}" for s in c.sections[:5])
        why.append(
            f"'{c.cited}' is not found in {docs}, the document the query names"
            + (f" (only {elsewhere} is so numbered, in a document the query does not name)" if elsewhere else "")
        )
    for c in ambiguous:
        listed = ", ".join(
            f"{s.section_id}"
            + (f" ({s.title})" if s.title else "")
            + (f" of {s.document}" if len({x.document for x in c.sections}) > 1 else "")
            for s in c.sections[:8]
        )
        more = f", … ({len(c.sections) - 8} more)" if len(c.sections) > 8 else ""
        what = "chapter or document" if len({x.document for x in c.sections}) == 1 else "document or chapter"
        why.append(f"'{c.cited}' names {len(c.sections)} sections: {listed}{more}; name the {what}")
    for cited in unresolved:
        why.append(f"no section here is cited as '{cited}': these hits only match the query's words")
    capped = (
        "low"
        if (unresolved or absent) and not ambiguous and not other_words
        else ("medium" if level.level == "high" else level.level)
    )
    level.level, level.reason = capped, "; ".join(why) + f"; {level.reason}"
    level.ambiguous = [
        {"cited": c.cited, "document": s.document, "section_id": s.section_id, "title": s.title}
        for c in ambiguous
        for s in c.sections[:MAX_LISTED]
    ]
    level.unresolved = unresolved + [c.cited for c in absent]
    return level


def fitted_level(conf: Confidence, signals: Signals, fit: dict, pinned: bool) -> Confidence:
    """``conf`` with its level, reason and ``probability`` read from the fitted model ``fit``
    (:mod:`docstrata.confidence`) at ``signals``; a ``pinned`` first hit (the query names its
    section or record: exact by construction) stays ``"high"``."""
    p = probability(signals, fit)
    conf.probability = round(p, 4)
    said = (
        f"best similarity {signals.similarity + fit['floor']:.2f}, " if signals.similarity is not None else ""
    ) + f"a hit holds {signals.coverage:.0%} of the query's keyword weight"
    if signals.absent:
        said += f", {signals.absent:.0%} is in words no document here holds" + (
            f": {', '.join(signals.missing)}" if signals.missing else ""
        )
    if pinned:
        conf.level = "high"
        conf.reason = f"the query names the first hit's section or record (fitted probability {p:.2f}: {said})"
        return conf
    conf.level = level_of(p, fit)
    conf.reason = f"fitted probability {p:.2f} that these documents hold the answer ({said})" + (
        ""
        if conf.level != "low"
        else ": these are only the nearest passages, probably not an answer; look elsewhere or rephrase"
    )
    return conf


def _assess(hits, content_words: bool, embedded: bool, floor: float = LOW_SIMILARITY) -> Confidence:
    if not content_words:
        return Confidence(
            "none",
            "the query has no content words (only stopwords or question words): nothing "
            "to match; add the words you are looking for",
            content_words=False,
        )
    if not hits:
        return Confidence("none", "nothing matched", best_similarity=None)
    sims = [h.semantic_score for h in hits if h.semantic_score is not None]
    best = max(sims) if sims else None
    kw = sum(h.keyword_score is not None for h in hits)
    ex = sum(bool(h.exact_match) for h in hits)
    close = best is not None and best >= floor
    if ex:
        level, why = "high", f"{ex} exact match(es) (a named section, id, defined term or quoted phrase)"
    elif close and kw:
        level, why = "high", f"best similarity {best:.2f} and {kw} keyword match(es)"
    elif close or kw:
        level = "medium"
        why = (
            f"best similarity {best:.2f} but no keyword match"
            if close
            else f"{kw} keyword match(es) but "
            + (f"best similarity only {best:.2f} (< {floor:.2f})" if best is not None else "the query was not embedded")
        )
    else:
        level = "low"
        why = (
            f"no keyword or exact match and best similarity {best:.2f} < {floor:.2f}: these are only "
            "the nearest passages, probably not an answer"
            if best is not None
            else "no keyword or exact match"
        )
    return Confidence(level, why, best_similarity=best, keyword_hits=kw, exact_hits=ex)


def _label_key(value_key: str) -> str | None:
    """The alias key (``alias:v6.2``) of a whole query that is one label with a digit (``V6.2``),
    else ``None``: a section indexed under that label is named by the query."""
    word = value_key.removeprefix("value:")
    return (
        f"alias:{word}"
        if re.fullmatch(r"\S{2,40}", word) and re.search(r"\d", word) and re.search(r"[^\W\d_]", word)
        else None
    )


def _cited_label(key: str) -> str:
    """A citation key as a reader writes it: ``section 3`` → ``Section 3``, ``chapter iv`` →
    ``Chapter IV``, ``in:chapter iv|section 3`` → ``Chapter IV, Section 3``."""
    if key.startswith("in:"):
        return ", ".join(_cited_label(k) for k in key[3:].split("|"))
    kind, _, num = key.partition(" ")
    if not num:
        return kind
    return f"{kind.capitalize()} {num.upper() if re.fullmatch(r'[ivxlcdm]+|[a-z]', num) else num}"


_NUMBERED_TITLE = re.compile(r"^(?:[^\W\d_]+\.?\s+)?(?:§\s*)?(?:\d[\w.()]*|[IVXLCDM]+\b|[A-Z]\b)[.:]?\s+")


def _cited_section(c: Chunk, key: str) -> CitedSection:
    """The section the chunk ``c``, found under citation ``key``, starts: of its sections the one
    the key's item cites (``chapter-iii/section-3`` for ``within:section 3``), else its own."""
    from .section_lookup import cited_keys

    item = key.split("|")[-1].removeprefix("within:").removeprefix("in:")
    want = {item, item.partition(" ")[2] or item}
    held = [*c.metadata.get("sections", ()), c.section_id]
    sid = next((s for s in held if want & cited_keys(s.rsplit("/", 1)[-1])), c.section_id)
    path = [*reversed(c.metadata.get("ancestors", ())), c.section_id]
    chain = list(c.parent_chain[-len(path) :]) if c.parent_chain else []
    title = dict(zip(path[-len(chain) :], chain)).get(sid, c.section_title if sid == c.section_id else "")
    return CitedSection(c.doc_key, sid, _NUMBERED_TITLE.sub("", title or "").strip())


def _cited_sections(store, ids: list[str], key: str) -> list[CitedSection]:
    """The sections (one per document and id, in ``ids`` order) that the chunks ``ids``, found
    under citation ``key``, start (:func:`_cited_section`)."""
    out: dict[tuple[str, str], CitedSection] = {}
    for c in store.get_chunks(ids):
        cited = _cited_section(c, key)
        out.setdefault((cited.document, cited.section_id), cited)
    return list(out.values())


def exact_ranking(
    store,
    qa: QueryAnalysis,
    limit: int,
    flt: ChunkFilter | None = None,
    citations: list[Citation] | None = None,
    named: list[str] | None = None,
    sole: list[str] | None = None,
) -> tuple[list[tuple[str, float]], set[str]]:
    """Exact-modality ranking (chunk_id, 1.0) and the pinned chunk ids: those that start a named
    section, and records whose id or a metadata value equals the whole query.

    A whole query that is a section's own label (``V6.2``, no citation keyword) names it too.
    Ranked in order: named sections, the record the query names, definitions of terms asked
    about, chunks holding a quoted phrase, chunks holding a code identifier the query names.

    A citation finds the sections indexed under its key and those whose number repeats in other
    containers (``within:`` keys: GDPR's Section 3 of Chapters III, IV and VII); two neighbouring
    citations that name one section together ("Chapter IV, Section 3", "Section 3 of Chapter IV")
    are that section alone (``in:`` keys, :func:`~docstrata.index.exact.qualified_alias_keys`).
    When a section is cited so itself (the main body's "Section 3") and others only repeat its
    number in a container (an exhibit's or appendix's 3), the main body's is pinned and the others
    follow. When ``citations`` is a list, one :class:`Citation` per citation the query makes is
    appended: every section it names (when the query is essentially the citation), for
    :func:`assess_confidence`, which reports several as ambiguous. When ``named`` is a list, the chunks starting each named section
    (the citation's first, most specific, found) are appended to it; when ``sole`` is a list, those
    of them that are the one section their citation names in the scope (one chunk found, or the
    pinned one) are appended to it."""
    ranked: list[str] = []
    pinned: set[str] = set()
    # A whole query that is a section's own label ("V6.2", "A.1.b"): no citation keyword, but it names the section
    label = _label_key(qa.value_key) if not qa.section_keys else None
    refs = qa.section_keys
    joined = [query_qualified_keys(refs[i : i + 2]) for i in range(len(refs) - 1)]
    within = [f"within:{k}" for keys in refs for k in keys]
    all_keys = [k for keys in refs for k in keys] + qa.term_keys + [qa.value_key] + qa.document_keys
    found = store.exact_lookup(
        all_keys + ([label] if label else []) + [k for ks in joined for k in ks] + within, limit=limit, flt=flt
    )
    for i, keys in enumerate(joined):  # "Chapter IV, Section 3": one citation of one section
        pair = [k for k in keys if found.get(k)][:1]
        if pair and i + 1 < len(refs):
            refs = refs[:i] + [pair] + refs[i + 2 :]
            break
    if label and found.get(label):
        ranked += found[label]
        pinned.update(found[label])

    def under(key: str) -> list[str]:  # the chunks starting a section cited so, repeats in other containers too
        return list(dict.fromkeys(found.get(key, []) + found.get(f"within:{key}", [])))

    # the words that may be a cited section's title: not those saying what kind of document the
    # question is about ("section 6 of the agreement" names no section titled "… Agreement …")
    section_words = [w for w in qa.other_words if w not in _KIND_FOLDED]
    # "section 9 of the GPL": the named document's section comes first, and only it is pinned
    named_docs = {cid.rpartition("#")[0] for key in qa.document_keys for cid in found.get(key, [])}
    # a scoped search (the caller, or query_scope, filtered to documents): a citation naming one
    # section there is what the question is about, however many other words it has
    scoped = bool(flt is not None and flt.doc_keys)
    for keys in refs:
        in_named = [k for k in keys if any(c.rpartition("#")[0] in named_docs for c in under(k))]
        order = in_named[:1] or keys
        key = next((k for k in order if under(k)), None)  # the most specific key that matches wins
        if key is None:
            if citations is not None:
                citations.append(Citation(_cited_label(keys[0]), [], kinded=" " in keys[0] or "|" in keys[0]))
            continue
        hits, first = under(key), []
        if named_docs:
            first = [c for c in hits if c.rpartition("#")[0] in named_docs]
            hits = first + [c for c in hits if c not in first]
        # the query's other words in a cited section's title ("Article 11 administrative
        # cooperation"): that section first, and pinned when they are all in it however many
        titled, whole = _titled(store, first or hits, section_words) if section_words else ([], False)
        # a cited section whose own title the query writes out ("Section 12.3 (Governing Law and
        # Chosen Courts), referred to in …"): number and title name it, however long the question
        written = _written(store, first or hits, key, qa.text)
        if written:
            titled, whole = written, True
        enclosing: list[str] = []
        if qa.other_words and not written and not first:
            # the title names a section the citation's enclosing number cites, where the pinpoint is
            # no section of its own ("Section 3.3(c) Restrictions on Licensee": one document's 3.3
            # so titled, its (c) inline, over another's 3.3(c) "Change Orders"): that one first, and
            # the citation names both (the answer says it is ambiguous)
            for wider in order[order.index(key) + 1 :]:
                enclosing = _written(store, [c for c in under(wider) if c not in hits], wider, qa.text)
                if enclosing:
                    break
        # one section cited so in the documents the query names ("section 9 of the GPL …"), or in
        # the documents searched, never another document's when the named one lacks it: it heads the
        # list of its citers (sole); it is not pinned, since a long question's answer is often a
        # passage under it or citing it (ObliQA: pinning it cost nDCG@10 on the questions citing a rule)
        unique = len(first) == 1 if named_docs else scoped and len(hits) == 1
        if enclosing:
            hits = enclosing + hits
            pinned.update(enclosing)
            if citations is not None:
                cited = _cited_sections(store, enclosing, order[order.index(key) + 1])
                cited += _cited_sections(store, [c for c in hits if c not in enclosing], key)
                citations.append(Citation(_cited_label(keys[0]), cited))
        elif named_docs and not first:
            # "section 9 of the GPL" where the GPL has none: another document's section 9 is not what
            # was asked; ranked by its words, never pinned, and the answer says the GPL lacks it
            hits = titled + [c for c in hits if c not in titled]
            if citations is not None:
                absent = tuple(sorted(named_docs))
                citations.append(Citation(_cited_label(keys[0]), _cited_sections(store, hits, key), absent_from=absent))
        elif qa.names_section or whole:  # (a question that only mentions it keeps the exact order)
            if any(c in found.get(key, ()) for c in titled):  # a section cited so beats a repeat of its
                titled = [c for c in titled if c in found[key]]  # number in a container (Article 15's 3)
            hits = titled + [c for c in hits if c not in titled]
            named_all = titled or first or hits
            if not whole and not first and len({c.rpartition("#")[0] for c in hits}) > 1:
                # a word or two of one document's section title ("clause 6 of the … agreement")
                # does not choose among the documents holding that number: every one is named
                # (and the answer says the citation is ambiguous) unless the title holds all
                named_all = hits
            # the main body's section cited so ("Section 3") is pinned before the repeats of its
            # number in an exhibit or appendix ("Exhibit A, Section 3": within: keys only),
            # which the citation still lists: the query is ambiguous, and says so
            chosen = [c for c in named_all if c in found.get(key, ())] or named_all
            pinned.update(chosen)
            if citations is not None:
                asked, got = keys[0].rpartition(" ")[2], key.rpartition(" ")[2]
                wider = got if asked.startswith(got + "(") else ""  # "17(d)" answered by its section 17
                citations.append(Citation(_cited_label(keys[0]), _cited_sections(store, named_all, key), wider=wider))
        else:
            hits = titled + [c for c in hits if c not in titled]  # ranked by the title, not pinned
        ranked += hits
        if named is not None:
            named += [c for c in hits if c in pinned][:1] or found.get(key, [])[:1] or hits[:1]
        if sole is not None:
            chosen_here = [c for c in hits if c in pinned]
            one = (first or hits)[:1] if unique or len(hits) == 1 else []
            sole += chosen_here[:1] if len(chosen_here) == 1 else one
    # A whole query equal to a record id or metadata value ranks that record; it is pinned when the
    # query is identifier-like (a SKU, a barcode: digits or joiners, no spaces) or is the record's
    # id — not for a plain word that happens to be a category value ("shoes").
    named = found.get(qa.value_key, [])
    ranked += named
    word = qa.value_key.removeprefix("value:")
    if re.fullmatch(r"\S+", word) and re.search(r"[\d\-_./#:]", word):
        pinned.update(named)
    else:
        pinned.update(c for c in named if value_key(c) == qa.value_key)
    for key in qa.term_keys:
        ranked += found.get(key, [])
    for phrase in qa.phrases + qa.identifiers:
        # Containing the phrase is a yes/no fact: order the matches by position in the corpus, not by
        # each backend's own phrase scoring, so every store gives the same exact-modality ranks.
        ranked += sorted(store.phrase_search(phrase, limit, flt=flt), key=_corpus_order)
    ranked = list(dict.fromkeys(ranked))[:limit]
    return [(cid, 1.0) for cid in ranked], pinned


def pin_first(fused: list[FusedHit], pinned: set[str], exact: list[tuple[str, float]]) -> list[FusedHit]:
    """``fused`` with the ``pinned`` chunks first, in every mode.

    The pin is an exact-modality fact (the query names the chunk's section, or the record's id),
    so it holds whichever modalities the mode fuses: a pinned chunk carries its exact rank and
    score (``FusedHit.ranks["exact"]``) even when the exact weight is 0, and one the mode's own
    modalities did not find (a record id, which is no word of the record's text, in keyword mode)
    is added with a fused score of 0 (the score shown is lifted to the next hit's, see
    :func:`non_increasing`). Pinned chunks keep their fused order, then those added follow in
    exact-rank order; the rest keep their fused order."""
    if not pinned:
        return fused
    exact_rank = {cid: (i, raw) for i, (cid, raw) in enumerate(exact, 1)}
    present = {h.chunk_id for h in fused}
    added = [FusedHit(cid, 0.0) for cid, _ in exact if cid in pinned and cid not in present]
    first = [h for h in fused if h.chunk_id in pinned] + added
    for h in first:
        if "exact" not in h.ranks and h.chunk_id in exact_rank:
            h.ranks["exact"], h.scores["exact"] = exact_rank[h.chunk_id]
    return first + [h for h in fused if h.chunk_id not in pinned]


def citers_first(
    store,
    citing_keys: list[list[str]],
    named: list[str],
    fused: list[FusedHit],
    pinned: set[str],
    top_k: int,
    flt: ChunkFilter | None = None,
) -> tuple[list[FusedHit], set[str], str]:
    """``fused`` with the citers of the sections the query asks about first: a query asking which
    provisions cite the one it names (``citing_keys``, :func:`~docstrata.index.exact.query_citing_keys`:
    "Which sections refer to Section 5.3?", "What cites Article 17?") is answered by the sections
    that cite it, as ``cited-by`` lists them (:func:`~docstrata.citers.citing_chunks`, the same
    citation index), then by the named section itself, then by the rest in fused order. The
    citers keep their fused order among themselves (those the legs did not find follow in
    document order), at most ``top_k`` − 1 of them so the named section is still listed; they are
    pinned (kept first in every mode and through the relevance cut-off). The section a citation
    names is the one :func:`exact_ranking` chose (``named``) where it found several. Returns the new
    order, the pinned ids and a notice for the answer ("" when the named section has no citer or
    the citation names none)."""
    from .citers import citing_chunks

    found = store.exact_lookup([k for keys in citing_keys for k in keys], limit=50, flt=flt)
    sections: list[tuple[str, str]] = []
    targets: list[str] = []
    labels: list[str] = []
    for keys in citing_keys:
        key = next((k for k in keys if found.get(k)), None)
        if key is None:
            continue
        ids = [c for c in found[key] if c in named][:1] or found[key][:1]
        for c in store.get_chunks(ids):
            cited = _cited_section(c, key)
            sections.append((cited.document, cited.section_id))
            targets.append(c.chunk_id)
            labels.append(f"{cited.document} § {cited.section_id}")
    if not sections:
        return fused, pinned, ""
    citing = [c for c in citing_chunks(store, sections, flt) if c not in targets]
    what = ", ".join(dict.fromkeys(labels))
    if not citing:
        return fused, pinned, f"the query asks what cites {what}: no section cites it"
    present = {h.chunk_id: h for h in fused}
    ordered = [h.chunk_id for h in fused if h.chunk_id in set(citing)] + [c for c in citing if c not in present]
    lead = ordered[: max(1, top_k - len(set(targets)))]
    head = [present.get(c) or FusedHit(c, 0.0) for c in lead]
    then = [present.get(c) or FusedHit(c, 0.0) for c in dict.fromkeys(targets) if c not in lead]
    first = set(lead) | set(targets)
    notice = (
        f"the query asks what cites {what}: the {len(citing)} passage(s) citing it come first, then the section"
        " itself (cited-by lists every citing section)"
    )
    return head + then + [h for h in fused if h.chunk_id not in first], pinned | set(lead), notice


def _check_thresholds(settings: SearchSettings, best_fused: float) -> None:
    fused, sim = settings.min_fused_score, settings.min_similarity_score
    if fused is not None:
        if not fused >= 0:  # also NaN
            raise QueryError(f"min_fused_score must be a number ≥ 0, got {fused:g}")
        if fused > best_fused:
            raise QueryError(
                f"min_fused_score {fused:g} can never be met: fused RRF scores are at most "
                f"{best_fused:.4f} here (for a cosine similarity use min_similarity_score)"
            )
    if sim is not None and not -1 <= sim <= 1:  # also NaN
        raise QueryError(
            f"min_similarity_score is a cosine similarity between -1 and 1 (HoloDeck uses 0-1), got {sim:g}"
        )


def similarities(store, vec, chunk_ids: list[str], flt: ChunkFilter | None = None) -> dict[str, float]:
    """Cosine of the query vector and each chunk's best window, for ``chunk_ids`` (one filtered
    dense search over exactly those chunks, so every backend computes it as it ranks)."""
    if not chunk_ids:
        return {}
    ids = tuple(dict.fromkeys(chunk_ids))
    restricted = (
        ChunkFilter(chunk_ids=ids) if flt is None else ChunkFilter(flt.doc_keys, flt.section, flt.metadata, ids)
    )
    return dict(store.dense_search(np.asarray(vec), len(ids), flt=restricted))


def _semantic(embed_query, query: str, search) -> tuple[np.ndarray, float, float, list[tuple[str, float]]]:
    """The semantic leg: (query vector, embedding s, dense search s, ranking) with ``search(vector)``."""
    with span("semantic"):
        t = time.perf_counter()
        vec = np.asarray(embed_query(query))
        t1 = time.perf_counter()
        ranking = search(vec)
        return vec, t1 - t, time.perf_counter() - t1, ranking


_LEGS = None  # (pid, pool): the threads the semantic leg runs on (created at the first concurrent search)
_LEGS_LOCK = threading.Lock()


_LOAD: list = [0.0, True]  # (monotonic time of the last look, a core was free)


def _core_free() -> bool:
    """True when a second thread can start at once: two cores or more, and a 1-minute load average
    below the core count (looked up at most once a second). The load counts this process too (up
    to two runnable threads while it searches back to back), so on an otherwise idle machine the
    worker stays in use, and it is left out once other processes keep a core busy. On a saturated
    machine a second thread waits for a core to be scheduled: at load 9 on two cores a 100k query
    took 12.9 ms wall with the legs on two threads against 9.8 ms on one (docs/benchmarks.md,
    "Query path, session 7")."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return False
    now = time.monotonic()
    if now - _LOAD[0] > 1.0:
        try:
            _LOAD[1] = os.getloadavg()[0] < cores
        except (OSError, AttributeError):  # no load average on this platform
            _LOAD[1] = True
        _LOAD[0] = now
    return _LOAD[1]


class _Deferred:
    """A leg run when its result is asked for, on the asking thread (a future's ``result()`` shape)."""

    def __init__(self, run):
        self._run = run

    def result(self):
        return self._run()


def _start_semantic(store, embed_query, query: str, depth: int, flt: ChunkFilter | None):
    """Start the semantic leg on a worker thread and return its future, or ``None`` when the store
    has no ``dense_searcher`` or it returns ``None`` (its dense search is a database call), or no
    core is free (:func:`_core_free`). When the returned search splits its scan over threads itself
    (its ``scan_threads`` attribute > 1, see ``DenseIndex.scan_threads``) the leg is deferred to the
    calling thread instead (:class:`_Deferred`).

    ``store.dense_searcher(k, flt)`` runs its SQL now, on this thread, and returns a function of the
    vector that only scans the matrix (faiss and numpy release the GIL), so the two threads never
    share a database statement. Measured at 100k chunks on two cores: the dense scan and the BM25 +
    exact legs overlap (docs/benchmarks.md, "Query path, session 7"). The OpenTelemetry context is
    carried over, so the ``semantic`` span stays a child of the search span. Results are the same
    as a sequential search: each leg computes the same ranking, only at the same time."""
    global _LEGS
    prepare = getattr(store, "dense_searcher", None)
    if prepare is None or not _core_free():
        return None
    search = prepare(depth, flt)
    if search is None:
        return None
    if getattr(search, "scan_threads", 1) > 1:
        # The scan splits over the cores itself (a large unrestricted search): a worker thread of
        # our own would only add a thread switch and contention (at 1M chunks 32.7 → 44–46 ms of CPU
        # a query). The leg runs on this thread after the keyword leg, with its SQL already done.
        return _Deferred(lambda: _semantic(embed_query, query, search))
    if _LEGS is None or _LEGS[0] != os.getpid():  # a forked child has none of its parent's threads
        with _LEGS_LOCK:
            if _LEGS is None or _LEGS[0] != os.getpid():
                from concurrent.futures import ThreadPoolExecutor

                # two workers: a second caller's search (an MCP server thread) does not queue behind the first
                _LEGS = (os.getpid(), ThreadPoolExecutor(max_workers=2, thread_name_prefix="docstrata-leg"))
    return _LEGS[1].submit(contextvars.copy_context().run, _semantic, embed_query, query, search)


SCOPE_DOCUMENTS = True  # scope a query that names its document (bench/doc_scope.py turns it off to compare)


def run_search(
    store,
    embed_query,
    query: str,
    *,
    mode: SearchMode,
    top_k: int,
    settings: SearchSettings,
    timing: SearchTiming | None = None,
    flt: ChunkFilter | None = None,
) -> SearchRun:
    """Search one store. ``embed_query(text) -> (dim,) float32``. Returns at most ``top_k`` hits
    among the chunks ``flt`` allows.

    A query that names a document ("section 10 Bank of Canada Act", "Consider the NDA between A
    and B; …": :mod:`docstrata.query_scope`) is searched inside the named document(s) by the rest
    of the question; places it leaves empty are filled from the unscoped search, and the first
    notice says which document it scoped to. ``flt`` naming documents turns this off.

    Raises :class:`QueryError` for an empty or non-Unicode query, ``top_k`` outside 1–100, an
    unknown mode, a ``min_fused_score`` below 0 or above the best fused score the mode can give,
    a ``min_similarity_score`` outside -1..1, or a ``min_relative_score`` outside (0, 1]. The
    relative cut-off (:func:`relevant_hits`) applies last, to the merged list.
    """
    return relevant_hits(
        _scoped_search(store, embed_query, query, mode=mode, top_k=top_k, settings=settings, timing=timing, flt=flt),
        settings.min_relative_score,
    )


def relative_keep(scores: list[float], pinned: list[bool], fraction: float | None) -> list[bool]:
    """Which hits a relevance cut-off keeps: those whose fused score is at least ``fraction`` × the
    best fused score among them, and every pinned hit (the query names it); all when ``fraction``
    is ``None``. Raises :class:`QueryError` for a ``fraction`` outside (0, 1]."""
    if fraction is None:
        return [True] * len(scores)
    if not 0 < fraction <= 1:  # also NaN
        raise QueryError(f"min_relative_score is a share of the best hit's fused score, in (0, 1]; got {fraction:g}")
    free = [s for s, p in zip(scores, pinned) if not p]
    best = max(free, default=0.0)
    return [p or s >= fraction * best - 1e-12 for s, p in zip(scores, pinned)]


def relevant_hits(run: SearchRun, fraction: float | None) -> SearchRun:
    """``run`` without the hits below ``fraction`` × the best hit's fused score
    (:func:`relative_keep`; ``min_relative_score``), which ``run.dropped_by["min_relative_score"]``
    then counts with the best score among them. Fused scores are rank-based (weighted RRF): a hit
    both the keyword and the dense ranking place near the top scores about twice one that only one
    of them found, so a share of the best keeps the hits the modalities agree on instead of every
    one of ``top_k`` however weak (on LegalBench-RAG's PrivacyQA an answer at k = 32 held 95 k
    characters for a truth of about 1 k; the share is fitted by ``python bench/legalbench_rag.py --fit``)."""
    if fraction is None or not run.hits:
        relative_keep([], [], fraction)  # checks the value
        return run
    keep = relative_keep([h.fused.score for h in run.hits], [h.pinned for h in run.hits], fraction)
    out = [h.fused.score for h, k in zip(run.hits, keep) if not k]
    if out:
        run.hits = [h for h, k in zip(run.hits, keep) if k]
        run.dropped += len(out)
        run.dropped_by["min_relative_score"] = (len(out), max(out))
    return run


def _scoped_search(
    store,
    embed_query,
    query: str,
    *,
    mode: SearchMode,
    top_k: int,
    settings: SearchSettings,
    timing: SearchTiming | None = None,
    flt: ChunkFilter | None = None,
) -> SearchRun:
    """:func:`run_search` without the relative cut-off."""
    scope = None
    if SCOPE_DOCUMENTS and query and query.strip():
        from .query_scope import scope_query

        scope = scope_query(store, query, flt)
    if scope is None:
        return _run_search(store, embed_query, query, mode=mode, top_k=top_k, settings=settings, timing=timing, flt=flt)
    inside = (
        ChunkFilter(scope.doc_keys)
        if flt is None
        else ChunkFilter(scope.doc_keys, flt.section, flt.metadata, flt.chunk_ids)
    )
    run = _run_search(
        store, embed_query, scope.rest, mode=mode, top_k=top_k, settings=settings, timing=timing, flt=inside
    )
    if not run.hits:  # nothing there: the question as if it named no document, but no other document's pin
        run = _run_search(store, embed_query, query, mode=mode, top_k=top_k, settings=settings, timing=timing, flt=flt)
        for h in run.hits:
            h.pinned = h.pinned and h.chunk.doc_key in scope.doc_keys
        _absent_from(run.citations, scope.doc_keys)
        run.notices.insert(0, scope.notice())
        return run
    _absent_from(run.citations, scope.doc_keys)
    if len(run.hits) < top_k or not scope.exclusive:  # the other documents' hits: after, or every other place
        more = _run_search(store, embed_query, query, mode=mode, top_k=top_k, settings=settings, timing=timing, flt=flt)
        run.hits = _merge(run.hits, more.hits, top_k, scope.exclusive)
    run.notices.insert(0, scope.notice())
    run.asked = scope.rest if scope.rest != query else ""
    return run


def _absent_from(citations: list[Citation], doc_keys: tuple[str, ...]) -> None:
    """Mark each of ``citations`` that no section of the named documents ``doc_keys`` answers
    (:attr:`Citation.absent_from`): the scoped search found none there, so "paragraph 17(d) of the
    petition" is not found in the petition, whatever another document numbers so."""
    for c in citations:
        if not c.absent_from and not any(s.document in doc_keys for s in c.sections) and (c.sections or c.kinded):
            c.sections = [s for s in c.sections if s.document not in doc_keys]
            c.absent_from = tuple(doc_keys)


def _merge(scoped: list[RankedHit], other: list[RankedHit], top_k: int, exclusive: bool) -> list[RankedHit]:
    """The scoped search's hits, then (``exclusive``) the other search's, or (not ``exclusive``)
    the scoped search's pinned hits, then both lists alternating, the scoped first; no hit twice,
    at most ``top_k``, shown scores made non-increasing. A hit of the other search is never shown
    as pinned: its citation matched in a document the query did not name."""
    for h in other:
        h.pinned = False
    if exclusive:
        order = scoped + other
    else:
        pinned = [h for h in scoped if h.pinned]
        rest = [h for h in scoped if not h.pinned]
        order = pinned + [h for pair in zip_longest(rest, other) for h in pair if h is not None]
    seen: set[str] = set()
    out = []
    for h in order:
        if h.chunk.chunk_id not in seen:
            seen.add(h.chunk.chunk_id)
            out.append(h)
    out = out[:top_k]
    for h, score in zip(out, non_increasing([h.score for h in out])):
        h.score = score
    return out


def _run_search(
    store,
    embed_query,
    query: str,
    *,
    mode: SearchMode,
    top_k: int,
    settings: SearchSettings,
    timing: SearchTiming | None = None,
    flt: ChunkFilter | None = None,
) -> SearchRun:
    """:func:`run_search` without document scoping."""
    if not query or not query.strip():
        raise QueryError("query is empty")
    if not 1 <= top_k <= 100:
        raise QueryError(f"top_k must be between 1 and 100, got {top_k}")
    if mode not in MODES:
        raise QueryError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as e:
        raise QueryError(f"query is not valid Unicode text (a lone surrogate at character {e.start})") from None
    timing = timing or SearchTiming()
    weights = {"semantic": settings.semantic_weight, "keyword": settings.keyword_weight, "exact": settings.exact_weight}
    if mode != "hybrid":
        weights = {m: (1.0 if m == mode else 0.0) for m in weights}
    _check_thresholds(settings, max_fused_score(sum(weights.values()), settings.rrf_k))
    min_sim, min_fused = settings.min_similarity_score, settings.min_fused_score
    depth = max(settings.candidates, top_k)
    rankings: dict[str, list[tuple[str, float]]] = {}
    vec = None
    semantic = weights["semantic"] > 0 or min_sim is not None
    with span(
        "hierarchical_document.search", **{"search.mode": mode, "search.top_k": top_k}, **query_attributes(query)
    ) as root:
        qa = analyze_query(query)
        respelled = (
            _respelled(store, embed_query, query, settings.respell_cosine)
            if weights["keyword"] > 0
            else Respelling(query)
        )
        # The semantic leg (query embedding + dense scan) runs on a second thread while this one runs
        # the exact and keyword legs, when the store can split off its dense work (see _start_semantic).
        semantic_leg = (
            _start_semantic(store, embed_query, query, depth, flt) if semantic and has_content_words(query) else None
        )
        with span("exact_match") as s:
            citations: list[Citation] = []
            named: list[str] = []
            sole: list[str] = []
            rankings["exact"], pinned = exact_ranking(store, qa, depth, flt, citations, named, sole)
            if named and qa.other_words and weights["keyword"] > 0:
                # a provision the query names, asked about in other words ("fined for infringing
                # Article 17"): the passages citing it, ranked by those words (Article 83(5))
                from .citers import citer_ranking

                citing = citer_ranking(store, named, qa.other_words, depth, flt)
                # the provision named heads the list of its citers when it is the one section its
                # citation names: a section whose own number the query cites answers it before one that
                # mentions the number ("See Section 9.5" in 5.1.2 does not outrank 9.5 on the words
                # around it); a citer still passes it on its other legs. A number several documents
                # hold (every rulebook's Rule 6.2.1) heads nothing: which one is meant is not known
                top = citing[0][1] if citing else 0.0
                rankings["citing"] = [(cid, top) for cid in dict.fromkeys(sole)] + citing if citing else []
                weights["citing"] = weights["keyword"]
            if s is not None:
                s.set_attribute("search.exact_match_count", len(rankings["exact"]))
        if not rankings["exact"] and not has_content_words(query):
            return SearchRun([], content_words=False)
        if weights["keyword"] > 0:
            with span("keyword") as s:
                if is_recording(s):  # COUNT(*) costs a few ms at 100k chunks: only when traced
                    s.set_attribute("bm25.index_size", store.count())
                t = time.perf_counter()
                rankings["keyword"] = store.keyword_search(respelled.query, depth, flt=flt)
                timing.search_s += time.perf_counter() - t
        if semantic_leg is not None:
            vec, embed_s, search_s, rankings["semantic"] = semantic_leg.result()
            timing.embed_s += embed_s
            timing.search_s += search_s
        elif semantic:
            vec, embed_s, search_s, rankings["semantic"] = _semantic(
                embed_query, query, lambda v: store.dense_search(v, depth, flt=flt)
            )
            timing.embed_s += embed_s
            timing.search_s += search_s
        with span("rrf_fusion"):
            t = time.perf_counter()
            fused = pin_first(weighted_rrf(rankings, weights, k=settings.rrf_k), pinned, rankings["exact"])
            citing_notice = ""
            if qa.citing_keys:  # "Which sections refer to Section 5.3?": its citers first, then 5.3
                fused, pinned, citing_notice = citers_first(store, qa.citing_keys, named, fused, pinned, top_k, flt)
            cosine = dict(rankings.get("semantic", []))
            before = len(fused)
            dropped_by: dict[str, tuple[int, float | None]] = {}
            if min_fused is not None:
                out = [h.score for h in fused if h.chunk_id not in pinned and h.score < min_fused]
                fused = [h for h in fused if h.chunk_id in pinned or h.score >= min_fused]
                if out:
                    dropped_by["min_fused_score"] = (len(out), max(out))
            if min_sim is not None:
                dense = rankings["semantic"]
                missing = [h.chunk_id for h in fused if h.chunk_id not in cosine]
                # A chunk outside a full dense list scores at most its last cosine: compute only when that passes.
                if missing and (len(dense) < depth or dense[-1][1] >= min_sim):
                    cosine.update(similarities(store, vec, missing, flt))
                out = [
                    cosine.get(h.chunk_id, -2.0)
                    for h in fused
                    if h.chunk_id not in pinned and cosine.get(h.chunk_id, -2.0) < min_sim
                ]
                fused = [h for h in fused if h.chunk_id in pinned or cosine.get(h.chunk_id, -2.0) >= min_sim]
                if out:
                    best = max(out)
                    dropped_by["min_similarity_score"] = (len(out), best if best > -2.0 else None)
            dropped = before - len(fused)
            candidates, fused = fused, fused[:top_k]
            timing.search_s += time.perf_counter() - t
        chunks = {c.chunk_id: c for c in store.get_chunks([h.chunk_id for h in fused])}
        if any(
            c.chunk_type == "contents" and c.chunk_id not in pinned for c in chunks.values()
        ) and not asks_for_contents(query):  # refill the places of contents hits from the candidates after
            more = candidates[top_k : 2 * top_k]
            chunks.update((c.chunk_id, c) for c in store.get_chunks([h.chunk_id for h in more]))
            fused = demote_contents(fused + more, chunks, pinned)[:top_k]
        fused = [h for h in fused if h.chunk_id in chunks]
        if vec is not None:  # the cosine of every returned hit, whichever modality found it
            missing = [h.chunk_id for h in fused if h.chunk_id not in cosine]
            cosine.update(similarities(store, vec, missing, flt))
        shown = non_increasing(_capped_scores(fused, chunks, pinned))
        hits = [
            RankedHit(chunks[h.chunk_id], h, h.chunk_id in pinned, score, cosine.get(h.chunk_id))
            for h, score in zip(fused, shown)
        ]
        if root is not None:
            root.set_attribute("search.result_count", len(hits))
            root.set_attribute("search.exact_match_count", len(rankings["exact"]))
    gap = store.semantic_gap() if semantic and hasattr(store, "semantic_gap") else ""
    return SearchRun(
        hits,
        embedded=vec is not None,
        dropped=dropped,
        citations=citations,
        dropped_by=dropped_by,
        other_words=bool(qa.other_words),
        notices=[n for n in (citing_notice, respelled.notice(), gap) if n],
        vectors_lost=bool(gap) and not getattr(store, "read_only", False),
        query_vector=vec,
        keyword_query=respelled.query if respelled.replaced else "",
    )


def _respelled(store, embed_query, query: str, min_cosine: float | None) -> Respelling:
    """``query`` with the words no chunk holds searched in the spelling chunks hold
    (:func:`~docstrata.respell.respell`; unchanged when ``min_cosine`` is ``None`` or the store
    keeps no term statistics). Words are embedded one by one with ``embed_query``, before the
    semantic leg starts, so the model is never run from two threads at once."""
    frequencies = getattr(store, "term_document_frequencies", None)
    if min_cosine is None or frequencies is None:
        return Respelling(query)
    from .index.keyword import analyze_uncached
    from .store.base import keyword_languages

    languages = keyword_languages(store)

    def terms_of(word: str) -> list[str]:  # candidates are made-up words: kept out of the analyser's word cache
        return list(dict.fromkeys(t for language in languages for t in analyze_uncached(word, language)))

    return respell(query, frequencies, terms_of, lambda words: np.stack([embed_query(w) for w in words]), min_cosine)


_ASKS_FOR_CONTENTS = contents_words_pattern()  # the citation grammar's contents titles, as words


def asks_for_contents(query: str) -> bool:
    """The query asks for a contents page or an index (``table of contents``, ``list of figures``,
    ``index``): contents hits then keep their fused rank."""
    return bool(_ASKS_FOR_CONTENTS.search(query))


def demote_contents(fused: list[FusedHit], chunks: dict[str, Chunk], pinned: set[str]) -> list[FusedHit]:
    """``fused`` with the hits whose chunk is a contents page or an index (``chunk_type ==
    "contents"``, see :mod:`docstrata.structure.contents`) moved after every other hit, each group
    in its fused order; pinned hits stay where they are (first).

    A contents line names a section's number and title, so for "Section 3.4.2" or a topic query
    the contents page matches on BM25 and the embedding almost as well as the section itself while
    answering nothing: it must never outrank the passages it lists (SP 800-150's contents page came
    second for "Section 3.4.2", ahead of the section's body)."""

    def listed(h: FusedHit) -> bool:
        chunk = chunks.get(h.chunk_id)
        return chunk is not None and chunk.chunk_type == "contents" and h.chunk_id not in pinned

    return [h for h in fused if not listed(h)] + [h for h in fused if listed(h)]


def _capped_scores(fused: list[FusedHit], chunks: dict[str, Chunk], pinned: set[str]) -> list[float]:
    """Fused scores in list order, a demoted contents hit's capped at the score above it (it is
    ranked down, so it must not lift the hits above it: :func:`non_increasing`)."""
    out: list[float] = []
    for h in fused:
        chunk = chunks.get(h.chunk_id)
        demoted = chunk is not None and chunk.chunk_type == "contents" and h.chunk_id not in pinned
        out.append(min(h.score, out[-1]) if demoted and out else h.score)
    return out


def _is_abbreviation(term: str) -> bool:
    """A term written in capitals (``IT``, ``SP``, ``PCI DSS``, ``US-CERT``): it is used only where
    it is written so; its lower-case twin is another word."""
    return any(ch.isupper() for ch in term) and not any(ch.islower() for ch in term)


def definitions_used(
    texts: list[str],
    definitions: list[DefinitionEntry],
    limit: int = 5,
    skip_chunk: str | None = None,
    within: list[str] | None = None,
) -> dict[str, str]:
    """Definitions whose term occurs (whole words, case-insensitive, or its English plural or
    possessive: "two Business Days" uses "Business Day", see :func:`~docstrata.index.exact.term_pattern`)
    in any of ``texts``, in the order of ``texts``; at most ``limit``. A term in capitals (an
    abbreviation: ``IT``) counts only where written in capitals. A definition stated in
    ``skip_chunk`` itself is left out. Term → definition text; see :func:`definition_entries_used`
    for ``within``."""
    return {t: d.definition for t, d in definition_entries_used(texts, definitions, limit, skip_chunk, within).items()}


def definition_entries_used(
    texts: list[str],
    definitions: list[DefinitionEntry],
    limit: int = 5,
    skip_chunk: str | None = None,
    within: list[str] | None = None,
) -> dict[str, DefinitionEntry]:
    """As :func:`definitions_used`, term → the :class:`~docstrata.models.DefinitionEntry` that
    applies. ``within``: the passage's section ids, its own first and then its ancestors, nearest
    first (``None``: scopes are not checked). A definition applies when its ``scope`` is ``None``
    (the whole document) or one of ``within``; of several that apply to one term, the innermost
    scope wins (the earliest in ``within``, document scope last); a term none applies to is left out."""
    rank = {sid: i for i, sid in enumerate(within or [])}
    applying: dict[str, list[tuple[int, DefinitionEntry]]] = {}
    for d in definitions:
        if within is not None and d.scope is not None and d.scope not in rank:
            continue  # defined for another part of the document
        depth = len(rank) if d.scope is None or within is None else rank[d.scope]
        applying.setdefault(d.term.casefold(), []).append((depth, d))
    ordered = [min(group, key=lambda x: x[0])[1] for group in applying.values()]
    out: dict[str, DefinitionEntry] = {}
    for text in texts:
        low = text.casefold()
        for d in ordered:
            if len(out) >= limit:
                return out
            if d.term in out or d.chunk_id == skip_chunk or len(d.term) < 2:
                continue
            t = d.term.casefold()
            if (t[:-1] if t.endswith("y") else t) in low and re.search(term_pattern(d.term), low):
                if _is_abbreviation(d.term) and not re.search(rf"(?<!\w){re.escape(d.term)}s?(?!\w)", text):
                    continue  # "IT" (Information Technology) is not used by every "it"
                out[d.term] = d
    return out
