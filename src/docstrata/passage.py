"""Precise citations: the sentences of a hit that match its query best, and the deepest section
of the chunk that holds them (``2.2 Suspension`` inside the chunk of section 2).

A chunk often carries several sub-sections (``metadata["sections"]``); citing the chunk's first
section sends a reader to the wrong place. :func:`locate_passage` scores each sentence (or list
item / line) of the chunk by the query's BM25 tokens (:func:`~docstrata.index.keyword.analyze_query`),
each token weighted by how rare it is among the chunk's sentences (a word every sentence has —
the parties of a contract — tells no sentence apart), takes the best one and the deepest section
holding it (:func:`~docstrata.pinpoint.section_at`). A heading line answers nothing: when it
matches best, the sentence of its section that answers for it is cited instead. A label or lead-in
(:func:`opens_text`: ``14.3.``, ``Termination.``, ``… will:``) is never cited alone, here as in the
passage list: it takes the text it opens.

The answer passage (:func:`minimal_passage`) is the answer region: from the first to the last
sentence of the chunk scoring at least a share of the best (fitted, 0.4), the weaker sentences
between them included, so a rule, its exception and its condition stated in separate sentences
come as one passage; a heading that matches best gives the section it opens, and so does a region
of labels alone that begins its section (else it runs to the first sentence that says something).

By meaning as well (:func:`fused_scores`): a question is often worded unlike the clause that
answers it ("may I tell my colleagues about it?" against "... disclose Confidential Information to
its employees"), so the sentences of the first :data:`PASSAGE_SEMANTIC_HITS` hits are embedded with
the tool's own model and each sentence's score is a weighted sum of its lexical score and its cosine
to the query's vector (the one the search already made), both scaled within the chunk. One model
call per search (every sentence of those hits in one batch), about as costly as embedding those hits
again: off by default (``passage_semantic_weight`` 0 in ``passage_fit.json``: the fit turns it on
only when it wins a LegalBench-RAG place more on the dev half than words alone, and in session 16
both won 10), on with a tool's ``passage_semantic_weight`` above 0. Passage results
(:mod:`docstrata.passage_list`) score the first hits' sentences by meaning on their own settings.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from .enumeration import lead_in
from .index.keyword import analyze, analyze_query
from .models import Chunk
from .pinpoint import item_span, item_starts, section_at
from .structure.grammar import is_unit_label

# a sentence ends at ". ", "? ", "! ", "; " before a capital, digit or bracket, at a blank line (not one
# between a word and a lowercase word: a sentence the source broke across a page or column goes on; a
# lead-in's "…:" and an item's "…;" still end before a lowercase item), or at a line
# break before a list item, heading, table row or quote; a line break inside a paragraph is the
# source's wrapping (hard-wrapped Markdown, PDF text), not a sentence end. A period followed by a
# capital or digit ends a sentence only when the language's abbreviations say so (_period_ends)
_ITEM_START = r"(?:[*+-][ \t]|\(?[0-9a-zA-Z]{1,4}[.)][ \t]|\([0-9a-zA-Z]{1,4}\)[ \t])"  # "- ", "2. ", "(a) "
_SENTENCE_END = re.compile(
    r"(?<=[.?!;:])\s+(?=[\"“(\[A-Z0-9])|\n[ \t]*\n\s*(?=[^\sa-z])|(?<=[.?!;:])[ \t]*\n[ \t]*\n\s*"
    r"|\n(?=[ \t]*(?:[#|>][ \t]|" + _ITEM_START + r"))"
)
_LIST_ITEM = re.compile(r"\s*" + _ITEM_START)


def list_item(text: str) -> bool:
    """``text`` opens with a list item's marker (``- ``, ``2. ``, ``(a) ``), the one that also ends a
    sentence at a line break (:func:`sentence_spans`)."""
    return _LIST_ITEM.match(text) is not None


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


_HEAD_TOKENS = 2  # words before a period that the abbreviation check reads ("John A.", "the U.S.")
_TAIL_CHARS = 30  # characters after it (sentencex reads about as many: "U.S. It" ends, "U.S. Department" not)
_ASIDE_CHARS = 80  # a bracketed aside the period is inside is read whole when it is no longer than this
_OPENERS = "([{\"“‘'*_>"


def _open_bracket(text: str, start: int, dot: int) -> int | None:
    """Where the innermost bracket opened in ``text[start:dot]`` and not closed before ``dot`` is,
    looking back at most :data:`_ASIDE_CHARS` characters."""
    depth = 0
    for i in range(dot - 1, max(start, dot - _ASIDE_CHARS) - 1, -1):
        ch = text[i]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                return i
            depth -= 1
    return None


def _period_ends(text: str, dot: int, after: int, language: str | None) -> bool:
    """Whether the period at ``text[dot]`` ends a sentence when ``text[after:]`` follows it:
    not after an abbreviation, a title or a name initial of ``language`` (default English: "Mr.
    Ross", "Report No. 113", "42 U.S.C. 1234", "John A. Smith", but "… of the U.S. It …" ends),
    nor inside a bracketed aside ("(119 Stat. 744, 1137)"), as the sentencex segmenter (Wikimedia,
    its per-language abbreviation and sentence-starter lists) decides on the words around it. The
    segmenter is asked about those words alone (the aside, else two words before and a few after),
    never the whole paragraph: it keeps a list item (``(a) …``) whole, which this splitter does
    not, so a list label opening the line (``(a)``, ``1.``) is left out of what it reads too."""
    from sentencex import segment

    line = text.rfind("\n", 0, dot) + 1
    stop = text.find("\n", after)
    stop = len(text) if stop < 0 else stop
    opened = _open_bracket(text, line, dot)
    if opened is not None and dot - opened <= _ASIDE_CHARS:
        head = text[opened : dot + 1]
        close = min((i for i in (text.find(")", after, stop), text.find("]", after, stop)) if i >= 0), default=-1)
        tail = (
            text[after : close + 1]
            if 0 <= close - after < _ASIDE_CHARS
            else text[after : min(stop, after + _TAIL_CHARS)]
        )
    else:
        words = text[line : dot + 1].split()
        if words and len(words) <= _HEAD_TOKENS and _LABEL_ONLY.fullmatch(words[0]):
            words = words[1:]  # "(a) Term." / "A. Term.": the label is no word of the sentence
        head = " ".join(words[-_HEAD_TOKENS:]).lstrip(_OPENERS)
        tail = text[after : min(stop, after + _TAIL_CHARS)]
    if not head or head == ".":
        return True
    for sentence in segment(language or "en", f"{head} {tail}"):
        return len(sentence) <= len(head) + 1  # the first sentence the segmenter sees ends at this period
    return True


_NEW_LINE_STARTS = re.compile(r"[ \t]*(?:[#|>][ \t]|[0-9]+(?:\.[0-9]+)+\.?[ \t]|" + _ITEM_START + ")")  # … "1.2.9 "


def _joined(text: str, end: re.Match, language: str | None) -> bool:
    """Whether sentence end ``end`` (a match of ``_SENTENCE_END``) is a period inside a sentence:
    one within a paragraph, before no new list item, heading or table line, that
    :func:`_period_ends` reads as an abbreviation's."""
    gap = end.group()
    if end.start() == 0 or text[end.start() - 1] != "." or re.search(r"\n[ \t]*\n", gap):
        return False
    if "\n" in gap and _NEW_LINE_STARTS.match(text, end.start() + gap.rfind("\n") + 1):
        return False
    return not _period_ends(text, end.start() - 1, end.end(), language)


def sentence_spans(text: str, language: str | None = None) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence, list item, heading or table row of ``text``, blank ones
    left out; lines wrapped inside a paragraph are one sentence, and so are a heading's number and
    its title (``### 3. Temporary Ban``); a period after an abbreviation of ``language`` (ISO code,
    default English) ends none (:func:`_period_ends`: "Mr. Ross", "Sec. 4.", "42 U.S.C. 1234")."""
    spans, pos = [], 0
    for m in _SENTENCE_END.finditer(text):
        if _joined(text, m, language):
            continue
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
        before = text[out[-1][0] : out[-1][1]] if out else ""
        if out and _LABEL_ONLY.fullmatch(before):
            out[-1] = (out[-1][0], b)  # "2." and its sentence are one: a list label is no sentence
        elif out and _heading_title(text, out[-1], (a, b)):
            out[-1] = (out[-1][0], b)  # "### 3." and "Temporary Ban" are one heading; a clause run in stays apart
        else:
            out.append((a, b))
    return out


def chunk_sentences(chunk: Chunk) -> list[tuple[int, int]]:
    """:func:`sentence_spans` of ``chunk``'s content, in the language its document is analysed in
    (``metadata["language"]``, else English)."""
    language = chunk.metadata.get("language") if chunk.metadata else None
    return sentence_spans(chunk.content, language if isinstance(language, str) else None)


def _heading_title(text: str, number: tuple[int, int], title: tuple[int, int]) -> bool:
    """Sentence ``title`` is the title of heading line ``number`` (``### 3.``, ``# Sec. 4.``): on
    its line, a label (``Temporary Ban``) or the rest of the line with no full stop ending it
    (``Secretary of the Interior report on access …``); a clause run in after the number
    (``### 3. The Company shall pay.``) stays apart."""
    head, rest = text[number[0] : number[1]], text[title[0] : title[1]]
    if not head.startswith("#") or "\n" in text[number[1] : title[0]]:
        return False
    if not (_NUMBER_LABEL.fullmatch(head) or is_unit_label(head.lstrip("#").strip())):
        return False
    line_ends = title[1] == len(text) or text[title[1]] in "\r\n"
    return label_line(rest) or (line_ends and not rest.rstrip(" *_").endswith((".", "!", "?", ";", ":")))


def _analysed(chunk: Chunk, wanted: set[str]) -> list[tuple[int, int, set[str]]]:
    """``(start, end, tokens)`` of each sentence of ``chunk`` (:func:`chunk_sentences`): the tokens
    of ``wanted`` it holds (:func:`~docstrata.index.keyword.analyze`)."""
    spans = chunk_sentences(chunk)
    if not wanted:
        return [(a, b, set()) for a, b in spans]
    return [(a, b, set(analyze(chunk.content[a:b])) & wanted) for a, b in spans]


class SentenceMemo:
    """One search's split of its chunks into sentences and the query tokens each sentence holds
    (:func:`sentence_spans`, :func:`~docstrata.index.keyword.analyze`), worked out once per chunk
    for ``query``: a passage search cites every hit (:func:`cite_passage`), then ranks the same
    chunks' sentences (:func:`~docstrata.passage_list.candidate_sentences`) and finds the kept
    hits' answer regions (:func:`~docstrata.passage_list.answer_regions`), each of which split and
    analysed the chunks again. Keyed by the chunk's content and language (what the split depends
    on), so a chunk changed or re-read gives the same answer; a function given a memo for another query works
    without it. The token sets it hands out are shared: read them, never change them."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.wanted = set(analyze_query(query))
        self._of: dict[tuple[str, object], list[tuple[int, int, set[str]]]] = {}

    def sentences(self, chunk: Chunk) -> list[tuple[int, int, set[str]]]:
        """``(start, end, tokens)`` of each sentence of ``chunk``: the query tokens it holds."""
        key = (chunk.content, chunk.metadata.get("language") if chunk.metadata else None)
        got = self._of.get(key)
        if got is None:
            got = self._of[key] = _analysed(chunk, self.wanted)
        return got


def sentence_scores(chunk: Chunk, query: str, memo: SentenceMemo | None = None) -> list[tuple[int, int, float]]:
    """``(start, end, score)`` of each sentence of ``chunk`` (:func:`chunk_sentences`): the query's
    tokens it holds, each weighted by ``log(1 + n / (1 + n_t))`` over the chunk's ``n`` sentences,
    ``n_t`` of them holding token ``t``. Empty when the query has no token. ``memo``: the search's
    :class:`SentenceMemo` (used when it is for ``query``), so the chunk is split and analysed once."""
    if memo is not None and memo.query == query:
        wanted = memo.wanted
        if not wanted:
            return []
        analysed = memo.sentences(chunk)
    else:
        wanted = set(analyze_query(query))
        if not wanted:
            return []
        analysed = _analysed(chunk, wanted)
    spans = [(a, b) for a, b, _ts in analysed]
    tokens = [ts for _a, _b, ts in analysed]
    n = len(spans)
    df = {t: sum(t in ts for ts in tokens) for t in wanted}
    weight = {t: math.log(1 + n / (1 + df[t])) for t in wanted}
    return [(a, b, sum(weight[t] for t in ts)) for (a, b), ts in zip(spans, tokens)]


def _best(scored: list[tuple[int, int, float]]) -> int | None:
    best, best_score = None, 0.0
    for i, (_a, _b, score) in enumerate(scored):
        if score > best_score + 1e-9:
            best, best_score = i, score
    return best


HEADING_WORDS = 15  # a sentence opening with "#" of at most this many words is a heading alone, no run-in text


def heading_line(text: str) -> bool:
    """A heading line of a chunk's content (``#### 5.3 Drag Along Right.``): it names a section
    and answers nothing itself. A heading with its clause's text run in (``### 1.5 Feedback.
    **Customer** may, but is not required to, …`` read as one sentence) is longer, and answers."""
    return text.lstrip().startswith("#") and len(text.split()) <= HEADING_WORDS


_NUMBER_LABEL = re.compile(
    r"[\s>*#-]*(?:§\s*)?(?:\((?:\d+[A-Za-z]?|[A-Za-z]|[ivxlcIVXLC]+)\)|(?:\d+[A-Za-z]?|[A-Za-z])(?:\.\d+[A-Za-z]?)*[.):]?)(?=\s|$)"
)  # "5.2.", "(b)", "§ 4", "8." opening a line
LABEL_WORDS = 6  # a title-case line of at most this many words is a label ("Device Limit.", "8. Litigation")


def label_line(text: str) -> bool:
    """A sentence that only names what follows: a heading line (:func:`heading_line`), a bare
    number label (``5.2.``) or a short title-case label, numbered or not, that states nothing
    (``8. Litigation``, ``Device Limit.``, ``30-Day Refund Policy.``: every word of four letters or
    more capitalised, at most :data:`LABEL_WORDS` words) or a unit's label alone (``Sec. 3.``,
    :func:`~docstrata.structure.grammar.is_unit_label`); not a short sentence ("You may cancel.")."""
    if heading_line(text) or _NUMBER_LABEL.fullmatch(text.strip()) or is_unit_label(text):
        return True
    words = _NUMBER_LABEL.sub("", text.strip(), count=1).split() if _NUMBER_LABEL.match(text.strip()) else text.split()
    if not 0 < len(words) <= LABEL_WORDS:  # before counting letters: most sentences are longer
        return False
    long = [w.strip("\"'“”‘’()*_.,:;") for w in words if sum(ch.isalpha() for ch in w) >= 4]
    return bool(long) and all(w[:1].isupper() for w in long)


def opens_text(text: str) -> bool:
    """A sentence that only opens what follows and answers nothing itself: a label
    (:func:`label_line`: ``14.3.``, ``Termination.``) or a lead-in
    (:func:`~docstrata.enumeration.lead_in`: ``… will:``). The one rule of the passage list
    (:mod:`docstrata.passage_list`) and of the cited sentence and answer passage of a hit
    (:func:`cite_passage`, :func:`minimal_passage`): such a sentence is never a passage alone, it
    takes the text it opens."""
    return label_line(text) or lead_in(text)


def _opened(text: str, scored: list[tuple[int, int, float]], i: int) -> int:
    """The index of the last sentence of the passage sentence ``i`` of ``scored`` (sentences of
    ``text``) stands for: ``i`` when it says something itself; when it only opens what follows
    (:func:`opens_text`), the following sentences up to the first that does; ``i`` when none does."""
    k = i
    while k < len(scored) and opens_text(text[scored[k][0] : scored[k][1]]):
        k += 1
    return k if k < len(scored) else i


_IN_DOCUMENT_LINK = re.compile(r"\[[^\]\n]*\]\(#[^)\s]*\)")  # "[Before you begin](#before-you-begin)"
_PAGE_LEADER = re.compile(r"(?:\.\s?){3,}\s*[0-9ivxlcIVXLC]+\s*$|…+\s*[0-9ivxlcIVXLC]+\s*$")  # "Roles .... 6"


def listing_line(text: str) -> bool:
    """A sentence that lists sections rather than saying anything: every line of it a link to
    another place of the same document (a Markdown contents list, ``- **[Before you
    begin](#before-you-begin)**``), a table row whose first cell is such a link (a summary table:
    ``| [A. Definitions](#a-definitions) | Some basic terms … |``) or a contents entry ending in dot
    leaders and a page number (``1.1 Roles .... 6``)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    for line in lines:
        if _PAGE_LEADER.search(line):
            continue
        cells = line.strip().strip("|").split("|") if line.lstrip().startswith("|") else []
        if cells and _IN_DOCUMENT_LINK.fullmatch(cells[0].strip(" *_")):
            continue  # a summary table's row: the section it links to, and what that section holds
        rest, links = _IN_DOCUMENT_LINK.subn("", line)
        if not links or any(ch.isalnum() for ch in rest):
            return False
    return True


def _headed_span(chunk: Chunk, sentence: tuple[int, int, float]) -> tuple[int, int] | None:
    """Where the section that heading line ``sentence`` opens lies in ``chunk`` (:func:`section_span`
    of the deepest section holding it, whitespace trimmed); ``None`` when ``sentence`` is no heading
    line or its section holds nothing but it."""
    text = chunk.content
    a, b, _score = sentence
    if not heading_line(text[a:b]):
        return None
    span = section_span(chunk, section_at(chunk, a)) or (a, len(text))
    lo, hi = span
    while lo < hi and text[lo].isspace():
        lo += 1
    while hi > lo and text[hi - 1].isspace():
        hi -= 1
    return (lo, hi) if hi > b else None


def _answering(chunk: Chunk, scored: list[tuple[int, int, float]], i: int) -> int:
    """``i``, or, when sentence ``i`` is a heading line (a question naming a section or using its
    title matches the heading best), the sentence of the section it opens that answers for it:
    its best-scoring sentence that is no heading, else its first; ``i`` when it holds none."""
    span = _headed_span(chunk, scored[i])
    if span is None:
        return i
    text = chunk.content
    body = [
        j for j, (a, b, _s) in enumerate(scored)
        if span[0] <= a and b <= span[1] and j != i and not heading_line(text[a:b])
    ]  # fmt: skip
    if not body:
        return i
    best = max(body, key=lambda j: (scored[j][2], -j))
    return best if scored[best][2] > 0 else body[0]


def locate_passage(chunk: Chunk, query: str) -> Passage | None:
    """The sentence of ``chunk`` that holds the query's tokens best (:func:`sentence_scores`; ties:
    the earlier), with the deepest section holding it; for a heading line, the sentence of its
    section that answers for it (:func:`_answering`); ``None`` when no sentence holds any query
    token."""
    scored = sentence_scores(chunk, query)
    i = _best(scored)
    if i is None:
        return None
    j = _answering(chunk, scored, i)
    a, b = scored[j][0], scored[_opened(chunk.content, scored, j)][1]
    return Passage(section_at(chunk, a), a, b, round(scored[i][2], 4))


def section_span(chunk: Chunk, sid: str) -> tuple[int, int] | None:
    """Where section ``sid`` lies in ``chunk``'s content: a sub-item's span
    (:func:`~docstrata.pinpoint.item_span`); for the chunk's own section, from the start to where
    the next section the chunk holds begins (the whole chunk when none is found); ``None`` when
    ``sid`` cannot be found in the chunk."""
    if sid != chunk.section_id:
        return item_span(chunk, sid)
    later = [s for h, s in item_starts(chunk).items() if h != sid and s > 0]
    return 0, min(later, default=len(chunk.content))


# Fitted by ``python bench/legalbench_rag.py --fit`` on the LegalBench-RAG dev half (PrivacyQA +
# ContractNLI) into passage_fit.json; the values below are used when that file is missing.
PASSAGE_KEEP = 0.55  # a sentence joins the passage when it scores at least this share of the best
PASSAGE_BRIDGE = True  # the passage runs from the first to the last such sentence (False: only those next to the best)
PASSAGE_SECTION_CHARS = 0  # the passage widens to its deepest section when that section is no longer (0: never)
PASSAGE_SEMANTIC_WEIGHT = 0.25  # the cosine's share of a sentence's score (fused_scores); 0: lexical only
PASSAGE_SEMANTIC_HITS = 1  # only the first hits' sentences are embedded (the work per search stays small)


def fitted(name: str, default: float) -> float:
    """The value ``name`` fitted into ``passage_fit.json`` (see :data:`PASSAGE_KEEP`), else ``default``."""
    value = _passage_fit().get(name)
    return float(value) if isinstance(value, (int, float)) else default


@functools.lru_cache(maxsize=1)  # read once per process, not once per hit
def _passage_fit() -> dict:
    import json
    from importlib import resources

    try:
        data = json.loads(resources.files("docstrata").joinpath("passage_fit.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def minimal_passage(
    chunk: Chunk,
    query: str,
    keep: float | None = None,
    section_chars: int | None = None,
    scored: list[tuple[int, int, float]] | None = None,
    bridge: bool | None = None,
) -> Passage | None:
    """The minimal passage of ``chunk`` that answers ``query``: its best-matching sentence
    (:func:`locate_passage`) with the consecutive sentences on either side that score at least
    ``keep`` × the best (:func:`sentence_scores`; a sentence below ends the run on that side), or
    the deepest section holding that run when the section is at most ``section_chars`` characters
    (a short clause is cited whole rather than cut). With ``bridge`` the run is the answer region
    instead: from the first to the last sentence of the chunk scoring at least ``keep`` × the best,
    weaker sentences between them included (an answer that states a rule, an exception and its
    condition in three sentences with a definition between them is one passage, not its strongest
    sentence). When the best-matching line is a heading (the question names the section or uses its
    title), the passage is the section that heading opens. ``keep`` above 1 gives the best sentence
    alone. Defaults: the values fitted into ``passage_fit.json`` (:data:`PASSAGE_KEEP`,
    :data:`PASSAGE_SECTION_CHARS`, :data:`PASSAGE_BRIDGE`). ``scored``: :func:`sentence_scores` of ``chunk`` and ``query`` when
    the caller has them. ``score`` is the best sentence's; ``None`` when no sentence holds a query
    token."""
    keep = fitted("passage_keep", PASSAGE_KEEP) if keep is None else keep
    limit = int(fitted("passage_section_chars", PASSAGE_SECTION_CHARS)) if section_chars is None else section_chars
    bridge = bool(fitted("passage_bridge", PASSAGE_BRIDGE)) if bridge is None else bridge
    if scored is None:
        scored = sentence_scores(chunk, query)
    i = _best(scored)
    if i is None:
        return None
    headed = _headed_span(chunk, scored[i])
    if headed is not None:  # the question matched a heading best: the section under it answers
        return Passage(section_at(chunk, headed[0]), headed[0], headed[1], round(scored[i][2], 4))
    floor = keep * scored[i][2]
    if bridge:
        strong = [j for j, (_a, _b, score) in enumerate(scored) if score >= floor - 1e-9] or [i]  # keep > 1: i alone
        lo, hi = strong[0], strong[-1]
    else:
        lo = hi = i
        while lo > 0 and scored[lo - 1][2] >= floor - 1e-9:
            lo -= 1
        while hi + 1 < len(scored) and scored[hi + 1][2] >= floor - 1e-9:
            hi += 1
    text = chunk.content
    start, end = scored[lo][0], scored[hi][1]
    sid = section_at(chunk, start)
    if all(opens_text(text[a:b]) for a, b, _s in scored[lo : hi + 1]):
        # a region that only labels ("14.3." of a pinned clause) takes the text it opens: up to the
        # first sentence that says something, or the whole section when the label begins it
        end = scored[_opened(text, scored, hi)][1]
        span = section_span(chunk, sid)
        if span is not None and span[0] <= start and not text[span[0] : start].strip():
            b = span[1]
            while b > end and text[b - 1].isspace():
                b -= 1
            end = max(end, b)
    if limit > 0:
        span = section_span(chunk, sid)
        if span is not None and span[0] <= start and end <= span[1] and span[1] - span[0] <= limit:
            a, b = span
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            start, end = min(a, start), max(b, end)
    return Passage(sid, start, end, round(scored[i][2], 4))


def semantic_setting(weight: float | None = None) -> tuple[float, int]:
    """``(weight, hits)``: the cosine's share of a sentence's score (``weight``, else the fitted
    :data:`PASSAGE_SEMANTIC_WEIGHT`, clipped to 0..1) and how many of the first hits are embedded
    (the fitted :data:`PASSAGE_SEMANTIC_HITS`)."""
    w = fitted("passage_semantic_weight", PASSAGE_SEMANTIC_WEIGHT) if weight is None else weight
    return min(max(float(w), 0.0), 1.0), int(fitted("passage_semantic_hits", PASSAGE_SEMANTIC_HITS))


def sentence_texts(chunk: Chunk) -> list[str]:
    """The text of each sentence of ``chunk`` (:func:`sentence_spans`), what :func:`fused_scores` embeds."""
    return [chunk.content[a:b] for a, b in chunk_sentences(chunk)]


def _scaled(values: list[float]) -> list[float]:
    """``values`` mapped onto 0..1 within the list (min → 0, max → 1; all equal → 1 each when > 0)."""
    lo, hi = min(values), max(values)
    if hi - lo <= 1e-12:
        return [1.0 if hi > 0 else 0.0 for _ in values]
    return [(v - lo) / (hi - lo) for v in values]


def fused_scores(
    chunk: Chunk, query: str, cosines: list[float], weight: float, lexical: list[tuple[int, int, float]] | None = None
) -> list[tuple[int, int, float]]:
    """``(start, end, score)`` of each sentence of ``chunk`` by words and meaning: ``(1 - weight)``
    × its :func:`sentence_scores` score over the chunk's best + ``weight`` × its cosine to the query
    (``cosines``, one per :func:`sentence_spans` sentence, in order) scaled min..max within the chunk
    onto 0..1. ``weight`` 0 gives the lexical scores unchanged; ``cosines`` of another length (the
    chunk changed) too. ``lexical``: :func:`sentence_scores` of ``chunk`` and ``query`` when the
    caller has them."""
    if lexical is None:
        lexical = sentence_scores(chunk, query)
    spans = chunk_sentences(chunk) if not lexical else [(a, b) for a, b, _s in lexical]
    if weight <= 0 or not spans or len(cosines) != len(spans):
        return lexical
    lex = [s for _a, _b, s in lexical] if lexical else [0.0] * len(spans)
    top = max(lex)
    lex = [v / top for v in lex] if top > 0 else lex
    sem = _scaled([float(c) for c in cosines])
    return [(a, b, (1 - weight) * x + weight * y) for (a, b), x, y in zip(spans, lex, sem)]


def semantic_cosines(chunks: list[Chunk], query_vector, encode) -> list[list[float]]:
    """The cosine of each sentence of each of ``chunks`` (:func:`sentence_texts`) to
    ``query_vector`` (L2-normalised, as the search embedded the query), embedded by ``encode``
    (``texts -> (n, dim)`` L2-normalised, the tool's embedder) in one call."""
    import numpy as np

    texts = [sentence_texts(c) for c in chunks]
    flat = [t for ts in texts for t in ts]
    if not flat:
        return [[] for _ in chunks]
    sims = np.asarray(encode(flat), dtype=np.float32) @ np.asarray(query_vector, dtype=np.float32)
    out, i = [], 0
    for ts in texts:
        out.append([float(x) for x in sims[i : i + len(ts)]])
        i += len(ts)
    return out


def cite_passage(
    result,
    chunk: Chunk,
    query: str,
    cosines: list[float] | None = None,
    weight: float | None = None,
    memo: SentenceMemo | None = None,
) -> None:
    """Cite ``result`` (a :class:`~docstrata.models.SearchResult` of ``chunk``) by its best-matching
    sentence (:func:`locate_passage`), in place: ``section_id`` becomes the deepest section holding
    it and ``passage`` ``{"section_id", "start", "end"}``, characters of the stripped content (as
    answers and ``*_get_neighbours`` show it); ``answer_passage`` the same for its
    :func:`minimal_passage`. With ``cosines`` (:func:`semantic_cosines` of ``chunk``) the sentences
    are scored by words and meaning (:func:`fused_scores`, ``weight`` default
    :data:`PASSAGE_SEMANTIC_WEIGHT` as fitted). Unchanged when no sentence scores above 0. ``memo``:
    the search's :class:`SentenceMemo`, shared with the passage list built from the same hits."""
    scored = sentence_scores(chunk, query, memo)
    if cosines is not None:
        w = fitted("passage_semantic_weight", PASSAGE_SEMANTIC_WEIGHT) if weight is None else weight
        scored = fused_scores(chunk, query, cosines, w, lexical=scored)
    i = _best(scored)
    if i is None:
        return
    j = _answering(chunk, scored, i)
    a, b = scored[j][0], scored[_opened(chunk.content, scored, j)][1]
    found = Passage(section_at(chunk, a), a, b, round(scored[i][2], 4))
    lead = len(chunk.content) - len(chunk.content.lstrip())
    result.section_id = found.section_id
    result.passage = {"section_id": found.section_id, "start": found.start - lead, "end": found.end - lead}
    wide = minimal_passage(chunk, query, scored=scored)
    if wide is not None:
        result.answer_passage = {"section_id": wide.section_id, "start": wide.start - lead, "end": wide.end - lead}
