"""Section starts as scored candidates, resolved once (issue 28, deliverable 3).

The line scanner (:mod:`.scan`) and the marker clean-up (:mod:`.filtering`) *propose* section
starts. This module turns every numbered proposal that is not a Markdown heading (a numbered or
keyword label, a ``12.`` list item read as a clause) into a :class:`Candidate` carrying
features, scores it with a linear model whose weights are data (``resolver_weights.json`` beside
this module, fitted by ``bench/fit_structure.py`` on the dev split of the truth corpora), and
chooses the kept candidates in ONE pass per numbering series (:func:`resolve_candidates`): a dynamic
programme over the candidates of a series, in document order, that maximises the summed
log-odds of the kept ones, where each kept candidate's log-odds also depend on the previous kept
one of its series (``29`` → ``30`` continues, ``1`` … ``3`` then ``1`` again without a
container between repeats). Markdown headings are the source's own structure and are never
candidates.

Features (all read from the lines, the marker and the other proposals; see :data:`UNARY` and
:data:`PAIR` for the full list):

* the line's shape after the label: words, sentence punctuation at its end, a lower-case or
  conjunction start (``or 34(3)(d) must be examined …``, ``CA; or``);
* what comes before it: a blank line, or a previous non-blank line breaking off mid-sentence or
  on a citation word (``… contravenes section`` / ``79B CA; or``: a number inside running text);
* a line that continues a citation broken off above it (``wrapped_mention``: ``… in Form DB of`` /
  ``Schedule 1.``, ``[OMB Circular A-130,`` / ``Appendix III]``): once vetoes of the scanner and
  the clean-up, now evidence;
* the document's own contents: inside a contents page (dot leaders, a ``Contents`` /
  ``Arrangement of Sections`` heading above a run of entries without text), an entry whose
  number and title come back later with text (the contents line, not the section), an entry that
  the contents list announced (evidence for the body section);
* date shape (``3 March``, a year after the number), a leading zero; a line that opens with a
  date written day first (``05 February 2026``, ``24. November 2019``, month names from the
  grammar's language packs) is no candidate at all: running text whatever else it shows;
* numbering continuity with the previous kept candidate of its series (pair features), and for
  a ``96.`` list item right under section ``95`` whose list would start at 96: the reading as
  the next *section* (a sibling of 95), not item 96 of 95.

The model is a logistic regression: ``P(section) = σ(w·x)``; the resolver keeps a subset of each
series maximising ``Σ (w·x_unary + w·x_pair(prev))`` over kept candidates, i.e. the most probable
reading under the (piecewise-trained) log-linear model. See ``docs/benchmarks.md`` for the fit.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..grammar import ROMAN_PATTERN, is_contents_title, is_date, is_month, opens_with_pinpoint
from .labels import (
    _continues_numbering,
    _heading_label,
    _label_path,
    _ordinal,
    _plain,
    _roman_value,
)
from .patterns import _FUNCTION_WORDS, _KEYWORDS, _REFERENCE_WORDS, _TOC_RE, _Marker
from .filtering import _numbering_scopes

WEIGHTS_FILE = Path(__file__).with_name("resolver_weights.json")

# Unary features: one value per candidate.
UNARY = (
    "bias",
    "is_list_item",  # a Markdown "12." item proposed as a clause
    "has_keyword",  # a container or section keyword in the label ("Part 2", "Section 3")
    "dotted",  # a compound number ("4.2.1")
    "heading_shape",  # the scanner read the text after the label as a title, not prose
    "title_words",  # words after the label / 10, capped at 2
    "ends_sentence",  # the line ends with . ! ? (a sentence, or a CFR-style heading)
    "ends_clause",  # the line ends with "," or a dangling "or"/"and" ("CA; or": running text)
    "starts_lower",  # the text after the label starts in lower case ("or 34(3)(d) …")
    "starts_conjunction",  # … with "or", "and", "nor", "but", "to", "of"
    "blank_before",  # a blank line (or the document start) above
    "prev_mid_sentence",  # the previous non-blank line breaks off mid-sentence (a function word, a comma)
    "prev_citation_word",  # … on a citation word ("section", "under", "of")
    "in_contents",  # inside the document's contents pages
    "contents_entry",  # its number and title come back later with text: a contents line
    "listed_in_contents",  # a contents entry earlier announced this number and title
    "no_body",  # no text between it and the next proposal (not at the end: an excerpt may stop at a label)
    "date_like",  # "05 February 2026", "3 March", a year after it
    "leading_zero",  # "05"
    "rule_contents_entry",  # the contents-list rule of filtering.py (a run of >= 3 entries that come back)
    "repeats_heading",  # a Markdown heading of the document has the same number (a running header, a cover line)
    "wide_gap",  # a tab or two or more spaces after the label (layout, as rulebooks and RFCs set labels)
    "opens_sections",  # the next proposal is one level down (Part 2 → 5 Title, 12. → an indented 1., 4 → 4.1)
    "typography",  # the converter read the line as a heading from the page's typography (a PDF's bold or
    # larger font, OCR line height), not from markup: a marginal note over "10. (1) …" (:mod:`.notes`)
    "running_text",  # the previous line breaks off on a citation word and this line does not read as a
    # heading (ends like a limb, starts lower-case or with a conjunction): a wrapped mention, "… section" / "79B CA; or"
    "wrapped_mention",  # the line continues a citation broken off above it: only its label after a line that
    # breaks off mid-sentence ("… in Form DB of" / "Schedule 1."), closing a bracket that line opened
    # ("[OMB Circular A-130," / "Appendix III]"), or closing a parenthesis right under such a line ("Title 5 Appendix).")
)
# Pair features: the candidate given the previous kept candidate of its series (or none).
PAIR = (
    "chain_start_at_one",  # first kept of its series, numbered 1 (or A, I); other starts are the reference (0)
    "step_next",  # previous + 1, or an inserted 12 → 12A → 12B
    "step_gap",  # increases by more than one
    "step_back",  # does not increase, no container between (a repeat, a contents line, a mention)
    "restart_in_container",  # does not increase after a container (a Part, a heading) opened between
    "continues_parent",  # a list item whose number continues its parent section's (95 → item 96)
)
FEATURES = UNARY + PAIR

_CONJUNCTIONS = frozenset("or and nor but to of".split())
_HEADING_LINE_RE = re.compile(r"^#{1,6}[ \t]")


@dataclass
class ParseContext:
    """Per-document facts the parse steps share, passed explicitly (not through ContextVars).

    Attributes:
        lines: the document's lines (after frame unwrapping), 0-based.
        markdown_flavour: the document has ATX headings (Markdown), so ``12.`` lines are list items.
        heading_levels: the converter's Markdown heading levels are the source markup's nesting
            (legislation XML; ``Document.heading_levels``).
        weights: the scorer's weights by feature name (defaults: ``resolver_weights.json``).
        resolve: whether :func:`resolve_candidates` runs (``False`` keeps every proposal: the fit reads them so).
        trace: when a list, :func:`resolve_candidates` appends its candidates to it (for the fit and for ``-v``).
        rejected: lines (0-based) of the label candidates :func:`resolve_candidates` rejected.
        running_titles: prefixes heading two or more ``<prefix> - SECT 2A`` lines (the scanner's,
            :func:`.scan._running_titles`).
        tight_labels: lines ``N.Title`` that the document's numbering shows to be headings
            (:func:`.scan._tight_label_series`).
        typographic: lines (0-based) where a heading block the converter inferred from typography
            starts (:func:`.notes.typographic_heading_lines`; empty for stated structure and text).
        sign_series: lines of ``§ N`` clauses whose numbers form a series (:func:`.signs.sign_series`).
        bold_labels: lines that are a bold keyword label and nothing else (``***Article 5***``) in a
            running series of such lines (:func:`.scan._bold_label_series`): article starts.
        clause_items: line → Markdown level, for the ``N.`` Markdown list items that continue the
            numbering of the document's numbered headings (:func:`.scan._clause_items`): clauses,
            not list items, nested at their headings' level.
        letter_items: lines of plain text opening a lettered item closed by its bracket alone
            (``a) …``) in a series from ``a)`` (:func:`.scan._letter_item_series`): items ``(a)`` ….
        list_columns: line → the column of its list level, for the Markdown list item lines
            (:func:`.scan._markdown_lists`, as markdown-it-py reads them): the indentation items nest
            by, CommonMark's 0-3 spaces of slack before a marker folded away.
        doc_ranks: this document's own container ranks where its layout overrides the grammar's
            (:func:`.ranks.document_ranks`: GDPR's "Section" holds its "Article"s), set by :func:`.build._build`.
        label_containers: container keywords this document writes only as plain labels, never as
            Markdown headings (an HTML statute's "Abschnitt 1" paragraph above "## § 1" headings):
            such a label holds the headings after it (:func:`.build._build`).
        series_labels: lines of plain container labels that carry on the numbering of their keyword's
            headings (``CHAPTER III`` between ``# CHAPTER II`` and ``# CHAPTER IV``): they hold the
            headings after them too (:func:`.build._series_labels`).
        grouping_ranks: heading line → container rank of the lettered or roman groupings written at
            the level of the keyword units they group (``### A. General Assembly`` above ``###
            Article 10``; :func:`.build._grouping_ranks`, set by :func:`.build._build`).
    """

    lines: list[str]
    markdown_flavour: bool = False
    heading_levels: bool = False
    weights: dict[str, float] | None = None
    resolve: bool = True
    trace: list | None = None
    rejected: set[int] = field(default_factory=set)
    running_titles: frozenset[str] = frozenset()
    tight_labels: frozenset[int] = frozenset()
    typographic: frozenset[int] = frozenset()
    sign_series: frozenset[int] = frozenset()
    bold_labels: frozenset[int] = frozenset()
    clause_items: dict[int, int] = field(default_factory=dict)
    letter_items: frozenset[int] = frozenset()
    list_columns: dict[int, int] = field(default_factory=dict)
    doc_ranks: dict[str, float] = field(default_factory=dict)
    label_containers: frozenset[str] = frozenset()
    series_labels: frozenset[int] = frozenset()
    grouping_ranks: dict[int, float] = field(default_factory=dict)


@dataclass
class Candidate:
    """One proposed section start.

    Attributes:
        position: index of its marker in the proposal list.
        marker: the scanner's marker (line, label components, title).
        series: the numbering family it continues: ``("num",)`` for bare numbers at any depth
            (``29``, ``4.2``), ``("part",)`` for ``Part 2``, ``("item", indent)`` for a ``12.`` list item.
        ordinal: its number as a tuple of ``(number, suffix rank)`` per level (``4.12B`` →
            ((4, 0), (12, 2)); ``Part IV`` → ((4, 0),)), ``None`` when a part is no number.
        path: its normalised label path (``['4', '12B']``).
        unary: unary feature values by name.
        pair: pair feature values given the previous kept candidate (filled by :func:`resolve_candidates`).
        score: log-odds ``w·x`` (unary + pair) of the final reading.
        accepted: the resolver's decision.
        sibling: a list item re-read as the next section after its parent (``95`` → ``96.``).
        dated: its line opens with a date (``24 November 2019 This version:``,
            :func:`~docstrata.structure.grammar.is_date`): running text, never a section, whatever
            the other features say.
        region: how many containers opened before it (:func:`_boundaries`); two members of a series
            in different regions have a container between them.
    """

    position: int
    marker: _Marker
    series: tuple
    ordinal: tuple[tuple[int, int], ...] | None
    path: list[str] = field(default_factory=list)
    unary: dict[str, float] = field(default_factory=dict)
    pair: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    accepted: bool = True
    sibling: bool = False
    dated: bool = False
    region: int = (
        0  # containers (headings, Parts, shallower labels) opened before it: a restart between regions is no repeat
    )


@lru_cache(maxsize=4)
def _load_weights(path: str) -> dict[str, float]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RuntimeError(f"{path}: cannot read the resolver weights ({e})") from e
    weights = data.get("weights")
    if not isinstance(weights, dict):
        raise RuntimeError(f"{path}: no 'weights' object")
    unknown = set(weights) - set(FEATURES)
    if unknown:
        raise RuntimeError(f"{path}: unknown feature(s) {sorted(unknown)}")
    return {k: float(v) for k, v in weights.items()}


def load_weights(path: Path | None = None) -> dict[str, float]:
    """The scorer's weights by feature name, read from ``path`` (default :data:`WEIGHTS_FILE`).

    Raises:
        RuntimeError: the file is unreadable, is not JSON, has no ``weights`` object or names a
            feature this module does not compute.
    """
    return dict(_load_weights(str(path or WEIGHTS_FILE)))


def logit(values: dict[str, float], weights: dict[str, float]) -> float:
    """``w·x`` over the features present in ``values``."""
    return sum(weights.get(k, 0.0) * v for k, v in values.items())


def probability(c: Candidate) -> float:
    """``σ(score)``: the model's probability that the candidate starts a section."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, c.score))))


# ---------------------------------------------------------------------------------------- features


def _ordinal_of(part: str, container: bool = False) -> tuple[int, int] | None:
    """``(number, suffix rank)`` of a path part; a container's ``I``, ``V``, ``X`` are roman. An
    article's number with one hyphenated part (``24-1``: Belgian ``Art. 24/1``, a French code's
    ``16-14``) is inserted after its first number as ``24bis`` is: ``(24, 1)``."""
    if container and re.fullmatch(ROMAN_PATTERN, part):
        return _roman_value(part), 0
    if container and (inserted := re.fullmatch(r"(\d{1,5})-(\d{1,3})", part)):
        return int(inserted.group(1)), int(inserted.group(2))
    o = _ordinal(part)
    if o is not None:
        n, suffix = o
        return n, sum((ord(ch) - 64) * 27**k for k, ch in enumerate(reversed(suffix)))
    if re.fullmatch(rf"{ROMAN_PATTERN}|{ROMAN_PATTERN.lower()}", part):  # "IV" or "iv", never "Iv"
        return _roman_value(part), 0
    if re.fullmatch(r"[a-z]", part):
        return ord(part) - 96, 0
    return None


def _kind_of(m: _Marker) -> tuple[tuple, list[str], tuple[int, int] | None] | None:
    """(series, path, ordinal) of a marker that may be a candidate; ``None`` otherwise."""
    if m.flat:
        return None
    if m.kind == "item":
        if not m.components or m.components[0][0] != "mditem" or m.style != "digit":
            return None
        return ("item", m.indent), [m.components[0][1]], ((m.value, 0),)
    if m.kind != "label":
        return None
    comps = _heading_label(m)
    if not comps or comps[-1][0] == "paren":
        return None
    path = _label_path(comps)
    kind = comps[-1][0]
    keyword = kind.split(":")[1] if kind.startswith("kw:") else ""
    if keyword == "recital":  # an act's recitals are read by :mod:`.recitals` from the act's own frame
        return None
    if keyword:
        last = path[-1].split("-", 1)[-1]
        return (keyword,), path, _ordinal_of(last.upper(), True)
    # bare numbers form one hierarchical series: 3.2A → 4 → 4.1 continue one another
    # (an appendix's lettered "B.4" is a scheme of its own)
    # keyword parts of a compound label ("Part 6.Chapter 1.64") are its place, not its number
    bare = [p for p in path if "-" not in p or p.startswith("(")] or path
    roman = any(k.startswith("kw:") for k, _, _ in comps)  # "SECTION III.C.5": a keyword's I, V, X are roman
    ords = [_ordinal_of(p, roman and n == 0) for n, p in enumerate(bare)]
    scheme = ("num",) if bare[0][:1].isdigit() else ("num", "letter")
    return scheme, bare, (tuple(ords) if all(ords) else None)


def _first_scopes(markers: list[_Marker], scopes: list[int]) -> dict[tuple[str, ...], int]:
    """Path → the first numbering scope (:func:`.filtering._numbering_scopes`) a Markdown heading of
    that number stands in; a container's label (``Exhibit A``) is in every scope (-1)."""
    first: dict[tuple[str, ...], int] = {}
    for m, scope in zip(markers, scopes):
        if m.kind == "heading" and (comps := _heading_label(m)):
            bare = all(k == "num" or k.startswith("kw::") for k, _, _ in comps)  # "6.2.1", "Section 6.2.1"
            path = tuple(_label_path(comps))
            first[path] = min(first.get(path, scope), scope if bare else -1)
    return first


def _rest_after_label(m: _Marker, line: str) -> str:
    """The text after the label on the marker's first line."""
    text = _plain(line.strip())
    if m.kind == "item":
        written = m.marker_text or ""
    else:
        comps = _heading_label(m) or []
        written = comps[-1][2] if comps else ""
    at = text.find(written) if written else -1
    rest = text[at + len(written) :] if at >= 0 else text
    return rest.lstrip(" .:\t)—–-")


def _plain_keep_gaps(line: str) -> str:
    """The line without emphasis marks and a list/quote lead, its whitespace kept."""
    return re.sub(r"[*`]+", "", line).lstrip(" >|")


def _prev_nonblank(lines: list[str], i: int) -> str:
    for j in range(i - 1, max(-1, i - 4), -1):
        if lines[j].strip():
            return lines[j].strip()
    return ""


def _mid_sentence(text: str) -> bool:
    t = text.lower()
    if not t:
        return False
    if t.endswith((",", "(", "—", "–", "-")):  # not ";": the end of a list's limb
        return True
    last = re.search(r"[\w§]+$", t)
    return bool(last) and (
        last.group() in _FUNCTION_WORDS or last.group() in _REFERENCE_WORDS or last.group() in _KEYWORDS
    )


def _wrapped_mention(m: _Marker, rest: str, prev: str, blank: bool) -> bool:
    """The marker's line continues a citation broken off on ``prev`` (the last non-blank line
    above): it is only its label after a line that breaks off mid-sentence (``… in Form DB of`` /
    ``Schedule 1.``); it closes a bracket ``prev`` opened (``[OMB Circular A-130,`` / ``Appendix
    III]``); or, right under a line breaking off mid-sentence, it closes a parenthesis it never
    opened (``… appendices (e.g.,`` / ``Title 5 Appendix).``); or, right under such a line, its label
    is followed by a pinpoint word, which no heading carries (``… die Verhandlungspartner`` /
    ``Artikel 88 Absatz 2 der Verordnung (EU)``: :func:`.grammar.opens_with_pinpoint`)."""
    title = _plain(m.title)
    closes = title.count("]") > title.count("[") or title.count(")") > title.count("(")
    if closes and (prev.count("[") > prev.count("]") or prev.count("(") > prev.count(")")):
        return True
    if not blank and opens_with_pinpoint(rest) and not re.search(r"[.:!?]\W*$", prev):
        return True  # "… die Verhandlungspartner" / "Artikel 88 Absatz 2 der Verordnung": a cited pinpoint
    broken = _mid_sentence(prev) or prev.endswith(";")
    if not broken:
        return False
    return not rest.strip(" .;,)") and bool(re.search(r"\w$", prev)) or closes and not blank


def _citation_word(text: str) -> bool:
    last = re.search(r"[\w§]+\.?$", text.lower())
    if not last:
        return False
    w = last.group().rstrip(".")
    return w in _KEYWORDS or w in _REFERENCE_WORDS or w in ("s", "ss", "subsection", "subsections")


def _title_words(m: _Marker, comps_written: str) -> list[str]:
    words = re.findall(r"[^\W\d_]+", _plain(m.title).replace(comps_written, " ", 1))
    return [w.lower() for w in words[:3]]


def _contents_spans(lines: list[str]) -> list[tuple[int, int]]:
    """Line spans of contents pages: dot-leader runs (:func:`.filtering._dot_leader_blocks`) and the
    lines after a contents title until the first line of prose (a line of 15+ words or one ending a
    sentence after 8+ words; 25+ words, and no sentence end, for a line opening with an entry number:
    "6. Powers to hold properties, etc.", a long entry wrapped by the page)."""
    from .filtering import _dot_leader_blocks

    spans = list(_dot_leader_blocks(lines))
    for n, ln in enumerate(lines):
        if not is_contents_title(ln.strip().lstrip("#").strip(" *:"), ("contents",)):
            continue
        end = n
        for k in range(n + 1, len(lines)):
            s = lines[k].strip()
            words = s.split()
            entry = bool(re.match(r"^\d{1,4}[A-Z]{0,3}\.\s+\S", s))  # "6.  Powers to hold properties, etc."
            if len(words) >= (25 if entry else 15) or (
                len(words) >= 8 and s.endswith(".") and not _TOC_RE.search(s) and not entry
            ):
                break
            if k > n + 1 and len(words) > 1 and any(lines[q].strip() == s for q in range(n + 1, k)):
                break  # the entries start over: the body repeats the contents' first lines (not a
                # one-word column head that each contents page repeats: "Section")
            end = k
        spans.append((n, end))
    return spans


def candidates(markers: list[_Marker], ctx: ParseContext, rule_contents: set[int] | None = None) -> list[Candidate]:
    """Candidates (with unary features) for the markers that may start a numbered section.

    ``rule_contents``: positions the contents-list rule (:func:`.filtering._drop_contents_entries`)
    names as contents entries; a feature, not a veto.
    """
    lines = ctx.lines
    spans = _contents_spans(lines)
    # a label repeats a heading of its number in its own numbering scope or an earlier one (a running
    # header, a cover line, an appendix's mention of a body section); a schedule's "## 2.1", in a
    # scope opened after it, numbers afresh and repeats none of the body's clauses
    scopes = _numbering_scopes(markers)
    headed = _first_scopes(markers, scopes)
    out: list[Candidate] = []
    for n, m in enumerate(markers):
        kind = _kind_of(m)
        if kind is None:
            continue
        series, path, ordinal = kind
        if ordinal is not None and not isinstance(ordinal[0], tuple):
            ordinal = (ordinal,)
        line = lines[m.line] if m.line < len(lines) else ""
        rest = _rest_after_label(m, line)
        words = rest.split()
        prev = _prev_nonblank(lines, m.line)
        if ctx.markdown_flavour and _HEADING_LINE_RE.match(prev):
            prev = ""  # a Markdown heading ("# 9. Usage Rules.") is no sentence broken off: nothing runs on from it
        blank = m.line == 0 or not lines[m.line - 1].strip()
        stop = markers[n + 1].line if n + 1 < len(markers) else len(lines)
        body = [ln for ln in lines[m.end : stop] if ln.strip() and not _TOC_RE.search(ln.strip())]
        first = rest.lstrip(" |*_")  # a quoted term ("‘personal data’ means") is no lower-case start
        f = {
            "bias": 1.0,
            "is_list_item": float(m.kind == "item"),
            "has_keyword": float(series[0] not in ("num", "item")),
            "dotted": float(len(path) > 1 and m.kind != "item"),
            "heading_shape": float(bool(m.heading)),
            "title_words": min(2.0, len(words) / 10),
            "ends_sentence": float(bool(re.search(r"[.!?][\"”’')\]]*$", rest))),
            "ends_clause": float(bool(re.search(r"(?:,|\b(?:or|and))$", rest))),  # "; or", "," (a bare ";" ends a limb)
            "starts_lower": float(first[:1].islower()),
            "starts_conjunction": float(bool(words) and words[0].lower().strip(",;") in _CONJUNCTIONS),
            "blank_before": float(blank),
            "prev_mid_sentence": float(_mid_sentence(prev)),
            "prev_citation_word": float(_citation_word(prev)),
            "in_contents": float(any(a <= m.line <= b for a, b in spans)),
            # another proposal follows at once, and it is no "(1)" paragraph of this one (a provision
            # whose body is its numbered paragraphs has a body: "Artikel 5 Inkrafttreten" then "(1) …")
            "no_body": float(
                not body
                and n + 1 < len(markers)
                and not (markers[n + 1].kind == "item" and markers[n + 1].marker_text.startswith("("))
            ),
            "date_like": float(
                bool(words)
                and (
                    is_month(words[0])
                    or bool(re.search(r"\b(?:1[89]|20)\d\d\b", " ".join(words[:3])))
                    and len(words) <= 4
                )
            ),
            "leading_zero": float(bool(ordinal) and bool(re.fullmatch(r"0\d+", path[-1]))),
            "rule_contents_entry": float(bool(rule_contents) and n in rule_contents),
            "repeats_heading": float(m.kind != "item" and headed.get(tuple(path), len(markers)) <= scopes[n]),
            "typography": float(m.line in ctx.typographic),
        }
        nxt = markers[n + 1] if n + 1 < len(markers) else None
        nk = _kind_of(nxt) if nxt is not None else None
        # a container label over a numbered heading ("Unterabschnitt 2" above "## § 10") holds it, and
        # so does one over a heading of a unit its keyword ranks above ("CHAPTER III" above "## Article 17")
        heads_section = (
            nxt is not None
            and nxt.kind == "heading"
            and m.kind == "label"
            and series[0] not in ("num", "item")
            and bool(_heading_label(nxt))
            and (
                not (_heading_label(nxt)[0][0].startswith("kw:") and _heading_label(nxt)[0][0].split(":")[1])
                or _ranks_above(m, nxt)
            )
        )
        f["opens_sections"] = float(
            heads_section
            or nxt is not None
            and nxt.kind != "heading"
            and (
                nxt.kind == "item"
                and nxt.indent > m.indent  # "12. General Terms" over its indented 1. … 12.
                or m.kind != "item"
                and nk is not None
                and nk[0][:1] != series[:1]  # "Part 2" over its "5 Title"
                or m.kind != "item"
                and nk is not None
                and len(nk[1]) > len(path)
                and nk[1][: len(path)] == path
            )
        )
        # a tab or a wide gap after the label is layout, which running text never has
        f["wide_gap"] = float(bool(re.match(r"^\s*\S+?(?:\t|\s{2,})\S", _plain_keep_gaps(line))))
        f["running_text"] = float(
            not f["wide_gap"]
            and bool(f["prev_citation_word"])
            and bool(f["ends_clause"] or f["starts_lower"] or f["starts_conjunction"])
        )
        f["wrapped_mention"] = float(_wrapped_mention(m, rest, prev, blank))
        c = Candidate(n, m, series, ordinal, path, f)
        c.dated = is_date(_plain(line.strip()).lstrip("#>|*_ "))
        out.append(c)
    _contents_features(out, markers, lines)
    return out


def _contents_features(cands: list[Candidate], markers: list[_Marker], lines: list[str]) -> None:
    """``contents_entry`` / ``listed_in_contents``: an entry with at most one short line of text
    whose series, number and first title words come back later on a candidate with text."""

    def words(c: Candidate) -> tuple:
        written = (
            (_heading_label(c.marker) or [("", "", c.marker.marker_text)])[-1][2]
            if c.marker.kind != "item"
            else c.marker.marker_text
        )
        return tuple(_title_words(c.marker, written))

    keys = [(c.series[0] if c.series[0] != "item" else "num", c.ordinal, words(c)) for c in cands]
    later: dict[tuple, list[int]] = {}
    for k, key in enumerate(keys):
        if key[1] is not None and key[2]:
            later.setdefault(key, []).append(k)
    for k, c in enumerate(cands):
        same = later.get(keys[k], [])
        if not same or len(same) < 2:
            continue
        if (c.unary["no_body"] or c.unary["in_contents"]) and any(
            j > k
            and not cands[j].unary["in_contents"]
            and (not cands[j].unary["no_body"] or cands[j].unary["has_keyword"])
            for j in same
        ):
            c.unary["contents_entry"] = 1.0
        if (
            any(j < k and (cands[j].unary["no_body"] or cands[j].unary["in_contents"]) for j in same)
            and not c.unary["no_body"]
        ):
            c.unary["listed_in_contents"] = 1.0
    for c in cands:
        c.unary.setdefault("contents_entry", 0.0)
        c.unary.setdefault("listed_in_contents", 0.0)


def _step(prev: Candidate, cur: Candidate) -> str:
    """How ``cur``'s number follows ``prev``'s: ``next`` (the next number at some level: 29 → 30,
    12 → 12A, 3.2A → 4, 1.2 → 1.2.1), ``gap`` (further on), ``back`` (not after it)."""
    p, c = prev.ordinal, cur.ordinal
    if c <= p:
        return "back"
    if all(_ordinal(x) for x in prev.path) and _continues_numbering(prev.path, cur.path):
        return "next"
    depth = len(c)
    if len(p) >= depth and p[: depth - 1] == c[: depth - 1]:
        (pn, ps), (cn, cs) = p[depth - 1], c[depth - 1]
        if (cn == pn + 1 and cs <= 1) or (cn == pn and cs > ps):
            return "next"  # Part IV → Part V, 12 → 13A; inserted numbers
    return "gap"


def pair_features(prev: Candidate | None, cur: Candidate, boundary: bool) -> dict[str, float]:
    """Pair features of ``cur`` given the previous kept candidate ``prev`` of its series
    (``None``: ``cur`` opens the series); ``boundary``: a container or a heading opened between."""
    if prev is None or prev.ordinal is None or cur.ordinal is None:
        one = cur.ordinal is not None and all(o == (1, 0) for o in cur.ordinal[-1:])
        return {"chain_start_at_one": float(one)}
    step = _step(prev, cur)
    if step == "next":
        return {"step_next": 1.0}
    if step == "gap":
        return {"step_gap": 1.0}
    if boundary:
        return {"restart_in_container": 1.0}
    return {"step_back": 1.0}


# ---------------------------------------------------------------------------------------- resolver


def _ranks_above(label: _Marker, heading: _Marker) -> bool:
    """Whether ``label``'s keyword is a container ranked above the unit ``heading`` names (Chapter
    over Article, Part over Section, in the grammar's ranks)."""
    own, under = _heading_label(label) or [], _heading_label(heading) or []
    if not (own and under and own[0][0].startswith("kw:") and under[0][0].startswith("kw:")):
        return False
    rank = _KEYWORDS.get(own[0][0].split(":")[2], ("", 9))[1]
    return rank < 9 and rank < _KEYWORDS.get(under[0][0].split(":")[2], ("", 9))[1]


def _depth(m: _Marker) -> tuple[int, float]:
    """How high a marker sits, for "a container opened between": headings and keyword containers
    above everything, then labels by path length."""
    if m.kind == "heading":
        return (0, 0)
    comps = _heading_label(m) or []
    if comps and comps[0][0].startswith("kw:") and comps[0][0].split(":")[1]:
        return (1, _KEYWORDS.get(comps[0][0].split(":")[2], ("", 9))[1])
    if m.kind == "label":
        return (2, len(_label_path(comps)) if comps else 9)
    return (3, m.indent)


def _boundaries(markers: list[_Marker], series_members: list[Candidate]) -> list[int]:
    """For each member, the number of higher markers (containers, headings, shallower labels) seen
    before it, so two members have a boundary between them when their counts differ."""
    first = series_members[0].marker
    own = _depth(first)
    count, out, k = 0, [], 0
    positions = [c.position for c in series_members]
    for n, m in enumerate(markers):
        if k < len(positions) and n == positions[k]:
            out.append(count)
            k += 1
            continue
        if _depth(m) < own and m.kind != "item":
            count += 1
    return out


def _parent_section(markers: list[_Marker], n: int) -> int | None:
    """Position of the nearest non-item marker before position ``n``."""
    for j in range(n - 1, -1, -1):
        if markers[j].kind != "item":
            return j
    return None


def _sibling_readings(cands: list[Candidate], markers: list[_Marker], weights: dict[str, float]) -> None:
    """A list item ``96.`` whose list starts at its own number (not 1) right under a bare-number
    section ``95`` (or after that section's lettered limbs, ``17`` / ``a.`` … ``d.`` / ``18.``): the item reading makes it ``95.96``; the sibling reading (the next section) is
    kept when the model scores the continuity above the item reading."""
    by_pos = {c.position: c for c in cands}
    for c in cands:
        if c.series[0] != "item" or c.ordinal is None:
            continue
        prior = markers[c.position - 1] if c.position else None
        if prior is None or prior.kind == "item" and prior.indent == c.marker.indent and prior.style == c.marker.style:
            continue  # not the first of its list (a "17." paragraph's limbs "a." … "d." are another list)
        parent = _parent_section(markers, c.position)
        pc = by_pos.get(parent) if parent is not None else None
        if (
            pc is None
            or pc.series != ("num",)
            or pc.ordinal is None
            or len(pc.ordinal) != 1
            or c.ordinal[0][0] == 1
            or c.ordinal[0][0] != pc.ordinal[0][0] + 1
        ):
            continue
        if logit({"continues_parent": 1.0}, weights) > 0:
            # the list's following items continue the re-read numbering: 96., 97. … are sections too
            run = [c]
            for j in range(c.position + 1, len(markers)):
                o = by_pos.get(j)
                if markers[j].kind != "item" or markers[j].indent < c.marker.indent:
                    break
                if o is None or markers[j].indent != c.marker.indent or o.series != ("item", c.marker.indent):
                    continue
                if o.ordinal is None or o.ordinal[0][0] != run[-1].ordinal[0][0] + 1:
                    break
                run.append(o)
            for o in run:
                o.sibling = True
                o.series = ("num",)
                o.path = [o.marker.components[0][1]]
            c.pair = {"continues_parent": 1.0}


def resolve_candidates(
    markers: list[_Marker], ctx: ParseContext, rule_contents: set[int] | None = None
) -> list[_Marker]:
    """Score the numbered proposals among ``markers`` and keep, per numbering series, the subset
    with the highest total log-odds (see the module docstring). Markers that are not candidates
    (Markdown headings, ``(a)`` items, bullet items) pass through. A list item re-read as its
    parent's next section becomes a label marker.

    Returns the kept markers in document order. With ``ctx.resolve`` false every proposal is kept
    (features are still computed and traced).
    """
    weights = ctx.weights if ctx.weights is not None else load_weights()
    if ctx.heading_levels:
        # the converter wrote these provisions from the source's markup (legislation XML): stated
        # structure, not proposals; the contents rule still names contents entries
        return [m for n, m in enumerate(markers) if not (rule_contents and n in rule_contents)]
    cands = candidates(markers, ctx, rule_contents)
    _sibling_readings(cands, markers, weights)
    for c in cands:
        c.score = logit(c.unary, weights)
    series: dict[tuple, list[Candidate]] = {}
    for c in cands:
        if c.dated:  # a date line ("05 February 2026") is running text: no member of any numbering
            c.accepted = False
            continue
        series.setdefault(c.series, []).append(c)
    for members in series.values():
        _viterbi(members, markers, weights)
    if ctx.trace is not None:
        ctx.trace.extend(cands)
    if not ctx.resolve:
        for c in cands:
            c.accepted = True
    out: list[_Marker] = []
    decided = {c.position: c for c in cands}
    for n, m in enumerate(markers):
        c = decided.get(n)
        if c is None:
            if not (rule_contents and n in rule_contents):  # a heading the contents rule names: its veto stands
                out.append(m)
            continue
        if not c.accepted:
            if m.kind == "label":  # the scanner's numbering checks read earlier labels (a list item's do not)
                ctx.rejected.add(m.line)
            continue
        if c.sibling:
            m.kind = "label"
            m.components = [("num", c.marker.components[0][1], c.marker.marker_text)]
            m.heading = m.heading or ""
        out.append(m)
    return out


def _pair_logit(prev: Candidate, cur: Candidate, boundary: bool, w: dict[str, float]) -> float:
    """``logit(pair_features(prev, cur, boundary), w)`` (the DP's inner loop)."""
    return logit(pair_features(prev, cur, boundary), w)


_WINDOW = 60  # predecessors looked at per candidate: a kept predecessor further back is a long gap


def _viterbi(members: list[Candidate], markers: list[_Marker], weights: dict[str, float]) -> None:
    """Choose the kept subset of one series: ``best[j] = unary(j) + max(start(j), max_i best[i] +
    pair(i, j))`` over earlier members ``i``; a member is kept when it lies on the best path."""
    bounds = _boundaries(markers, members)
    for c, b in zip(members, bounds):
        c.region = b
    n = len(members)
    best = [0.0] * n
    back: list[int | None] = [None] * n
    pairs: list[dict[str, float]] = [{}] * n
    for j, c in enumerate(members):
        extra = dict(c.pair)  # continues_parent of a sibling reading
        start = pair_features(None, c, False)
        top, arg, top_pair = logit(start, weights), None, start
        for i in range(max(0, j - _WINDOW), j):
            v = best[i] + _pair_logit(members[i], c, bounds[i] != bounds[j], weights)
            if v > top:
                top, arg = v, i
        if arg is not None:
            top_pair = pair_features(members[arg], c, bounds[arg] != bounds[j])
        best[j] = logit(c.unary, weights) + logit(extra, weights) + top
        back[j] = arg
        pairs[j] = {**top_pair, **extra}
    keep: set[int] = set()
    if n:
        j = max(range(n), key=lambda k: best[k])
        if best[j] > 0:
            while j is not None:
                keep.add(j)
                j = back[j]
    # the path's members, with their pair features given their kept predecessor
    prev = None
    for j, c in enumerate(members):
        c.accepted = j in keep
        if c.accepted:
            c.pair = pair_features(prev, c, prev is not None and prev.region != c.region)
            if c.sibling:
                c.pair["continues_parent"] = 1.0
            prev = c
        else:
            c.pair = pairs[j]
        c.score = logit(c.unary, weights) + logit(c.pair, weights)
