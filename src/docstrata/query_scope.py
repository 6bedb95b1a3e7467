"""Questions that name their document: find the naming span, scope the search, rank by the rest.

"section 10 Contracts Act 1950", "Consider the Non-Disclosure Agreement between CopAcc and ToP
Mentors; Does the document …", "Consider "Fiverr"'s privacy policy; who can see …", "in the
GDPR": part of such a question says *which document* and the rest says *what in it*. Ranked as
one text, the naming part matches the document's preamble or cover page best (it is where the
title and the parties are written) and, over several documents, an exact citation ("section
10") resolves in whichever document has that number. This module separates the two parts.

**Names.** Each document carries the names it may be called by, collected at ingest
(:func:`docstrata.docnames.document_names`: title, short title, parties, file stem, acronyms),
stored in its :class:`~docstrata.models.DocumentEntry`. :func:`catalogue` reads them once per
state of the index (cached per store and per set of file versions).

**Matching** (:func:`match`). Query and names are cut into words and each word analysed as the
keyword index analyses it (case and accents folded, Snowball-stemmed, possessive dropped: "Acts"
and "Act's" are "act"). A word weighs its inverse document frequency ``ln(1 + N / df)``, ``df``
the documents whose names hold it or, when more, whose text does (the keyword index's hits):
"agreement", "act" or "UAE", in most documents of a corpus of contracts, statutes or rulebooks,
weigh little; "CopAcc", "PIPEDA" or "Kenway" weigh much, and a file name's "Form" or "Blank" does
not dilute its "Kenway". A *run* is a stretch of the query whose words are words of one name in
the name's order, with at most :data:`MAX_GLUE` stop words between two of them ("Bank **of**
Canada Act"), not crossing a ``;``, ``?`` or ``!`` and never taking part of a joined word ("REQ"
of ``REQ-0042``). Its **coverage** is
the weight of the name's words it holds over the weight of all the name's words (1.0: the whole
name is written). A run names its document when

* its coverage is at least :data:`MIN_COVERAGE`, fit on labelled questions (``bench/doc_scope.py
  fit``: the most questions scoped to their right document less three times those scoped to a
  wrong one, on LegalBench-RAG ContractNLI and PrivacyQA, ObliQA dev — which mostly names no
  rulebook — and "section N <Act>" citations over six real Acts), and
* the words it matched are not shared by the names of more than :data:`MAX_SHARING` documents: a
  stretch common to many names ("Non-Disclosure Agreement") names a kind of document, not one; and
* it holds a word that is not a number ("section 9" does not name "Title 9") and one that is no
  kind word (:data:`KIND_WORDS`: "the policy" does not name ``policy.md``), and
* a run of one word is written with a capital where the name has one: "do they keep my data"
  does not name the app "Keep" (a word and a name differ only there).

A run holding less of a name (at least :data:`FRAMED_COVERAGE`) names its document too when a
word for a kind of document (:data:`KIND_WORDS`) says it is a name — the word right after it
("the charter schools **bill**" for "Success and Opportunity through Quality Charter Schools Act",
"the SimpliTest **agreement**") or its own last word ("the Charter Schools **Act**"), "the" or
"this" right before it or a possessive first word ("Eskom's … Agreement") — and its words
are that document's alone: no other document's names hold them all and its rarest word is in the
text of at most :data:`MAX_SHARING` documents; and no run in the query holds :data:`MIN_COVERAGE`
of a name ("… under the Common Reporting Standard or the UAE CRS Guidance": "CRS" names the CRS
Regulations). The kind word then belongs to the naming span.

Of the runs that name documents, those whose words the fewest documents share win (a party's
name unique to one contract over a title three contracts share); of those that overlap in the
query, the one with the most matched weight ("Bank of Canada Act" over a "Bank Act" document's
"Bank"); runs of equal weight name every document they match (two editions of one Act).

**Scope** (:class:`QueryScope`). The search is filtered to the named documents and ranked by the
query with the naming runs (and a preposition/article right before them) removed, and a preface
clause that only names the document ("Consider X's privacy policy;") removed whole: "What does
section 10 of the Bank of Canada Act say?" ranks by "What does section 10 say?" inside that Act,
so "section 10" resolves there. When the rest has no content word ("GDPR"), the whole query
ranks inside the scope. The caller fills the places the scoped search leaves empty from the
unscoped search (:func:`docstrata.search.run_search`); when a name is used by other documents too
(its rarest word in more than :data:`MAX_SHARING` documents' text: "FSMR", cited by every ADGM
guidance) the named document's hits only alternate with the unscoped ones
(:attr:`QueryScope.exclusive`). The answer says which document it scoped to (:meth:`QueryScope.notice`).
"""

from __future__ import annotations

import dataclasses
import math
import re
import threading
import weakref
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .index.keyword import STOPWORDS, analyze

# Least share of a name's weight a run must hold to name its document: fit by
# `python bench/doc_scope.py fit` (docs/benchmarks.md, "Questions that name their document").
MIN_COVERAGE = 0.5
# Most documents whose names may share a run's matched words (editions of one Act); more: a kind of document.
MAX_SHARING = 3
# Most stop words between two matched words of a run ("Bank of Canada", "Department of the Treasury").
MAX_GLUE = 2
# Coverage at which a run spells a name out whole (weights are floats): only such a run leaves the
# ranking text.
WHOLE_NAME = 0.999

_WORD = re.compile(r"[^\W_]+(?:['’][sS]\b)?")
_BREAK = re.compile(r"[;?!\n]")
_JOINED = re.compile(r"[^\W_]+(?:[-_./:][^\W_]+)*(?:['’][sS]\b)?")
_LEAD = re.compile(
    r"(?:\b(?:of|in|under|from|to|for|within|by|about|on)\s+)?(?:\b(?:the|this|that)\s+)?$", re.IGNORECASE
)


def _key(word: str) -> str | None:
    """A query or name word as the keyword index reads it, or ``None`` for a stop word."""
    word = re.sub(r"['’][sS]$", "", word)
    if word in ("s", "S"):  # the possessive of a quoted name: "Fiverr"'s
        return None
    terms = analyze(word)
    return terms[0] if terms and word.casefold() not in STOPWORDS else None


# Least share of a name's weight a run must hold when a kind word frames it ("the charter schools bill"):
# fit with MIN_COVERAGE by `python bench/doc_scope.py fit` (its false scopes, ObliQA's above all).
FRAMED_COVERAGE = 0.3
# Words for a kind of document: "the <part of a name> bill / act / agreement / policy …" names a document.
KIND_WORDS = frozenset(
    "act acts bill law statute code regulation regulations rule rules rulebook directive ordinance agreement "
    "contract licence license policy notice terms protocol standard specification rfc guideline guidelines "
    "guidance treaty convention handbook manual memorandum deed lease constitution decree petition complaint "
    "pleading motion affidavit judgment letter".split()
)
_KIND_KEYS = frozenset(k for k in map(_key, KIND_WORDS) if k)
_DETERMINERS = frozenset("the this that its their our your".split())  # "of **the** charter schools bill"


def _words(text: str) -> list[tuple[str | None, int, int, int]]:
    """(key, start, end, group) of each word of ``text``; a ``None`` key for a stop word and ``"|"``
    for a break (``;``, ``?``, ``!``, a new line) that no run crosses. Joined words
    (``Non-Disclosure``, ``M5-Systems``, ``REQ-0042``, ``2016/679``) are cut into their parts,
    which share a ``group`` number: a run never takes part of a group (:func:`_whole`)."""
    out: list[tuple[str | None, int, int, int]] = []
    pos = 0
    for g, m in enumerate(_JOINED.finditer(text)):
        if _BREAK.search(text, pos, m.start()):
            out.append(("|", pos, m.start(), -1))
        pos = m.end()
        for w in _WORD.finditer(m.group(0)):
            out.append((_key(w.group(0)), m.start() + w.start(), m.start() + w.end(), g))
    return out


def _whole(words, start: int, end: int) -> bool:
    """Whether words ``start``..``end`` begin and end at group bounds: "REQ" of ``REQ-0042`` is no run."""
    group = lambda i: words[i][3] if 0 <= i < len(words) else -2  # noqa: E731
    return group(start - 1) != group(start) and group(end + 1) != group(end)


@dataclass
class _Name:
    doc_key: str
    text: str
    keys: frozenset[str]
    order: tuple[str, ...]


@dataclass
class Catalogue:
    """Every document's names, analysed: ``names`` (one entry per name), ``df`` (key → how many
    documents have it in one of their names), ``holders`` (key → those documents), ``by_key`` (key →
    the indexes in ``names`` of the names holding it), ``size`` (N, the documents with names) and
    ``text_df`` (analysed word → documents whose text holds it; looked up once per word)."""

    names: list[_Name] = field(default_factory=list)
    df: dict[str, int] = field(default_factory=dict)
    text_df: Callable[[str], int] | None = None  # analysed word → how many documents' text holds it
    _text_df: dict[str, int] = field(default_factory=dict)
    holders: dict[str, set[str]] = field(default_factory=dict)
    by_key: dict[str, list[int]] = field(default_factory=dict)
    size: int = 0
    # analysed word → {doc_key: ordinals of the chunks holding it} (the keyword index's hits); None: unknown
    where: Callable[[str], dict[str, frozenset[int]]] | None = None
    chunk_counts: dict[str, int] = field(default_factory=dict)  # doc_key → its chunks (0: not known)
    _where: dict[str, dict[str, frozenset[int]]] = field(default_factory=dict)
    # doc_key → ordinals of its opening chunks and the analysed words of their headings (:func:`_opening_chunks`)
    opening: Callable[[str], tuple[frozenset[int], frozenset[str]]] | None = None
    _opening: dict[str, tuple[frozenset[int], frozenset[str]]] = field(default_factory=dict)
    # words as written → the documents whose text holds them as a phrase (the keyword index's phrase search)
    phrase: Callable[[str], frozenset[str]] | None = None
    _phrase: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        names_of: dict[str, list[str]],
        text_df: Callable[[str], int] | None = None,
        where: Callable[[str], dict[str, frozenset[int]]] | None = None,
        opening: Callable[[str], tuple[frozenset[int], frozenset[str]]] | None = None,
    ) -> "Catalogue":
        """From ``{doc_key: [name, …]}`` (documents without names are left out); ``text_df(key)``
        counts the documents whose text holds the analysed word ``key`` (``None``: names alone weigh
        words); ``where(key)`` gives the chunks holding it per document (``{doc_key: ordinals}``) and
        ``opening(doc_key)`` the ordinals of a document's opening chunks and the analysed words of
        their headings: both ``None`` turn off the
        words that identify a document without naming it (:func:`identifying_words`)."""
        cat = cls(text_df=text_df, where=where, opening=opening)
        for doc_key, names in names_of.items():
            if not names:
                continue
            cat.size += 1
            for text in names:
                order = tuple(k for k, *_ in _words(text) if k and k != "|")
                keys = frozenset(order)
                if not keys:
                    continue
                for k in keys:
                    cat.by_key.setdefault(k, []).append(len(cat.names))
                    cat.holders.setdefault(k, set()).add(doc_key)
                cat.names.append(_Name(doc_key, text, keys, order))
        cat.df = {k: len(v) for k, v in cat.holders.items()}
        return cat

    def text_count(self, key: str) -> int:
        """How many documents' text holds ``key`` (:attr:`text_df`; the names' count without it)."""
        if self.text_df is None:
            return self.df.get(key, 0)
        if key not in self._text_df:
            self._text_df[key] = self.text_df(key)
        return max(self.df.get(key, 0), self._text_df[key])

    def chunks_holding(self, key: str) -> dict[str, frozenset[int]]:
        """``{doc_key: ordinals}`` of the chunks whose text holds ``key`` (:attr:`where`, looked up
        once per word; ``{}`` without it)."""
        if self.where is None:
            return {}
        if key not in self._where:
            self._where[key] = self.where(key)
        return self._where[key]

    def phrase_documents(self, text: str) -> frozenset[str]:
        """The documents whose text holds ``text`` as a phrase (:attr:`phrase`, looked up once per
        text; none without it)."""
        if self.phrase is None:
            return frozenset()
        if text not in self._phrase:
            self._phrase[text] = self.phrase(text)
        return self._phrase[text]

    def opening_chunks(self, doc_key: str) -> frozenset[int]:
        """Ordinals of ``doc_key``'s opening chunks (:attr:`opening`, read once per document)."""
        return self._opening_of(doc_key)[0]

    def opening_headings(self, doc_key: str) -> frozenset[str]:
        """The analysed words of the headings over ``doc_key``'s opening chunks ("Our Pledge")."""
        return self._opening_of(doc_key)[1]

    def _opening_of(self, doc_key: str) -> tuple[frozenset[int], frozenset[str]]:
        if self.opening is None:
            return frozenset(), frozenset()
        if doc_key not in self._opening:
            self._opening[doc_key] = self.opening(doc_key)
        return self._opening[doc_key]

    def weight(self, key: str) -> float:
        """Inverse document frequency of ``key``: ``ln(1 + N / df)``, ``df`` the documents whose
        names hold it or, when more, whose text does (:attr:`text_df`): a word every document
        uses ("Form", "UAE") is no name even when one file name holds it."""
        return math.log(1.0 + self.size / max(1, self.text_count(key)))


@dataclass
class NamedDocument:
    """A document the query names: its key, the name matched, the query span ``(start, end)``
    that names it, the run's coverage of the name and its matched weight."""

    doc_key: str
    name: str
    span: tuple[int, int]
    coverage: float
    weight: float
    own: bool = True  # the run's rarest word is in few documents' text: the name is this document's own


@dataclass
class QueryScope:
    """What :func:`match` found: the ``documents`` named (best first) and ``rest``, the query
    without the naming spans (the whole query when nothing else is left)."""

    query: str
    documents: list[NamedDocument]
    rest: str

    @property
    def exclusive(self) -> bool:
        """Whether the search keeps to the named documents (every name matched is the document's
        own: its words are in the text of at most :data:`MAX_SHARING` documents — "CopAcc",
        "Fiverr"), or only puts them first, every other place going to the other documents (a name
        other documents use and cite — "FSMR", "Venture Capital Fund" —, whose questions are often
        answered where it is cited: ObliQA's gold passages)."""
        return all(d.own for d in self.documents)

    @property
    def doc_keys(self) -> tuple[str, ...]:
        """The named documents' keys, without repeats."""
        return tuple(dict.fromkeys(d.doc_key for d in self.documents))

    def notice(self) -> str:
        """One line for the answer: which document(s) the search was scoped to and by which words."""
        spans = list(dict.fromkeys(self.query[d.span[0] : d.span[1]] for d in self.documents))
        docs = ", ".join(self.doc_keys[:5]) + (f" and {len(self.doc_keys) - 5} more" if len(self.doc_keys) > 5 else "")
        how = "" if self.exclusive else " first (every other hit from the other documents)"
        return (
            f"scoped to {docs}{how}: the query names it as "
            + " / ".join(f'"{s}"' for s in spans)
            + "; ranked by the rest of the question (pass document=… to choose another)"
        )


def _runs(words: list[tuple[str | None, int, int, int]], order: tuple[str, ...]):
    """Maximal runs of ``words`` whose keys are words of a name, in the name's order (``order``:
    its keys as written), with at most :data:`MAX_GLUE` stop words in a row between two of them:
    (first word index, last word index, matched keys)."""
    places: dict[str, list[int]] = {}
    for p, k in enumerate(order):
        places.setdefault(k, []).append(p)
    i, n = 0, len(words)
    while i < n:
        first = words[i][0]
        if first is None or first not in places:
            i += 1
            continue
        start = end = i
        at = places[first][0]
        matched = {first}
        j, glue = i + 1, 0
        while j < n and words[j][0] != "|":
            key = words[j][0]
            later = [p for p in places.get(key, ()) if p > at] if key is not None else []
            if later and key is not None:
                end, glue, at = j, 0, later[0]
                matched.add(key)
            elif key is None and glue < MAX_GLUE:
                glue += 1
            else:
                break
            j += 1
        yield start, end, matched
        i = end + 1


def _framed(query: str, words, start: int, end: int, matched: set[str]) -> int | None:
    """Whether the run ``start``..``end`` is said to be a document's name by a word for a kind of
    document (:data:`KIND_WORDS`): the word right after it ("the charter schools **bill**", "the
    SimpliTest **agreement**"), its own last word ("the Charter Schools **Act**") or its own first
    word, the name after it ("the **petition** for cancellation"), with a word of
    the name's own besides, and "the" (or "this", "its", …) right before it or a possessive first
    word ("Consider **Eskom's** Confidentiality and Non-Disclosure Agreement"). The index of the
    kind word, or ``None``."""
    kind = lambda i: query[words[i][1] : words[i][2]].casefold() in KIND_WORDS  # noqa: E731
    if not matched - _KIND_KEYS:
        return None
    before = query[words[start - 1][1] : words[start - 1][2]].casefold() if start else ""
    if before not in _DETERMINERS and not re.search(r"['’][sS]$", query[words[start][1] : words[start][2]]):
        return None  # "documents act on electronic information": a verb, no document
    if kind(end):
        return end
    if kind(start) and end > start:  # the kind first, its name after it: "the petition for cancellation"
        return end
    after = end + 1
    if after < len(words) and words[after][0] not in (None, "|") and words[after][3] != words[end][3] and kind(after):
        return after
    return None


def _named_runs(catalogue: Catalogue, query: str, words, min_coverage: float, docs: set[str] | None = None):
    """Every run of a name covering at least ``min_coverage`` of it, or at least
    :data:`FRAMED_COVERAGE` when a kind word frames it (:func:`_framed`) and its words are this
    document's alone (no other document's names hold them all, few documents' text holds its
    rarest): (weight, sharing, NamedDocument, (first, last word)); only names of ``docs`` when given."""
    present = {w[0] for w in words if w[0] and w[0] != "|"}
    for i in sorted({i for k in present for i in catalogue.by_key.get(k, ())}):
        name = catalogue.names[i]
        if docs is not None and name.doc_key not in docs:
            continue
        total = sum(catalogue.weight(k) for k in name.keys)
        for start, end, matched in _runs(words, name.order):
            if not _whole(words, start, end):
                continue
            got = sum(catalogue.weight(k) for k in matched)
            coverage = got / total if total else 0.0
            if coverage < min(min_coverage, FRAMED_COVERAGE):
                continue
            span = (words[start][1], words[end][2])
            if all(k.isdigit() for k in matched):
                continue  # a number alone is a citation ("section 9"), never a name ("Title 9")
            if matched <= _KIND_KEYS:
                continue  # a kind of document ("the policy", "the terms"), though a file is called "policy.md"
            if len(matched) == 1 and query[span[0] : span[1]].islower() and not name.text.islower():
                continue  # one word written in lower case where the name has capitals: "keep" is not the app Keep
            sharing = len(set.intersection(*(catalogue.holders[k] for k in matched)))
            own = min(catalogue.text_count(k) for k in matched) <= MAX_SHARING
            if coverage < min_coverage:  # a part of the name: only where a kind word says it is a name
                kind = _framed(query, words, start, end, matched)
                if kind is None or sharing != 1 or not own:
                    continue
                span = (span[0], words[kind][2])
            yield got, sharing, NamedDocument(name.doc_key, name.text, span, coverage, got, own), (start, end)


def match(catalogue: Catalogue, query: str, *, min_coverage: float = MIN_COVERAGE) -> QueryScope | None:
    """The documents ``query`` names and the query without the naming spans (see the module
    docstring), or ``None`` when it names none.

    Of the runs that name documents, those whose matched words fewest documents share win (a
    party's name unique to one contract over a title three contracts share); of overlapping runs,
    the heaviest. Words that other documents' names hold too name those documents as well: "my
    GitHub account" names GitHub's privacy statement (a name "GitHub") and its terms of service
    ("GitHub Terms of Service") alike, never one of them alone. The named documents' every name run (shared or not: "Non-Disclosure Agreement"
    once the contract is known) that spells the whole name out is then removed from the ranking
    text; a run holding only part of a name, or one lower-case word (a file called "leave.md"),
    scopes the search but stays in the ranking text, since its words may be the question's subject
    ("carry over unused leave days" names the leave policy and asks about leave).

    Words that identify one document without being a name it is given (:func:`identifying_words`:
    "ChatWiseV2", "Salamat", written only in that document's opening paragraph) scope the search
    to it as a name does and leave the ranking text, unless the question is about what they name:
    when the rest asks fewer than :data:`MIN_ASKED` words of one passage (:func:`_asked`: "What is
    ChatWiseV2?", "Is ChatWiseV2 a bot?", "Who provides the Salamat app?", whose "app" is on every
    page of its terms), they stay in it and find the opening that introduces it."""
    if catalogue.size == 0:
        return None
    words = _words(query)
    named = _named(catalogue, query, words, min_coverage)
    documents, spans, whole = named if named is not None else ([], [], [])
    marks = identifying_words(catalogue, query, words, spans)
    if documents:  # a word identifying a document the query does not name says nothing here
        marks = [m for m in marks if m.doc_key in {d.doc_key for d in documents}]
    if not documents and marks:
        documents = [marks[0]]
    if not documents:
        return None
    # a name run holding an identifying word is the document's name, whatever share of it is written
    # ("the Node.js TSC"): it leaves the ranking text whole, with the word
    held = [r for r in spans if any(r[0] <= m.span[0] and m.span[1] <= r[1] for m in marks)]
    rest = _rest(
        query, spans + [m.span for m in marks], whole + held + [m.span for m in marks], [m.span for m in marks]
    )
    if marks and _asked(catalogue, marks[0].doc_key, rest) < MIN_ASKED:  # it asks about the thing named
        rest = _rest(query, spans, whole)
    return QueryScope(query, documents, rest)


# Least share of an identifying word's chunks in its document that are the document's opening chunks.
OPENING_SHARE = 0.5
# A first chunk of fewer words is a title or heading line: the opening paragraph is the chunk after it.
OPENING_WORDS = 40


def _capital_by_position(query: str, start: int, text: str) -> bool:
    """``text`` (at ``start`` in ``query``) opens a sentence and has no capital or digit past its
    first letter: its capital says where it stands, not that it is a name ("Under which …", but
    not "ChatWiseV2 …" or "iOS")."""
    opens = not query[:start].strip() or query[:start].rstrip()[-1] in ".?!;:"
    return opens and not any(ch.isupper() or ch.isdigit() for ch in text[1:])


def identifying_words(
    catalogue: Catalogue, query: str, words, naming: Sequence[tuple[int, int]] = ()
) -> list[NamedDocument]:
    """Words of ``query`` that identify one document without being one of the names it is given
    (:func:`match`), from the index's own statistics (:attr:`Catalogue.where`): a word written with a
    capital (a name, not "keep"), not a number or a kind word, whose every keyword hit is in one
    document of the several held, and there either

    * in its opening — its first chunk, or the one after a title line (:data:`OPENING_WORDS`) —
      for at least :data:`OPENING_SHARE` of the chunks holding it, and no word of the headings over
      it ("Our Pledge" is what the opening section is about): where a document introduces what it
      is about ("Welcome to ChatWiseV2", "… for use of the Salamat mobile application"), so the
      word lifts that paragraph over the section that answers; or
    * a word of one of its names, a file name's joined word read whole ("Node.js" for
      ``nodejs-tsc-charter.md``), where every capitalised word written beside it is one too, or a
      word of a name run (``naming``): "the Node.js TSC", never the "Protection" of "Data
      Protection Officer", whose next word is the document's term, not its name.

    Capitalised words written right beside such a word that the document writes with it are part
    of the name ("App Manager": its "App" is every app policy's word). One :class:`NamedDocument`
    per name (joined words whole: "Node.js"; such words written one after the other as one: "Marius
    Begby"), all of one document;
    ``[]`` when none, or when they point to different documents."""
    from .index.keyword import QUERY_STOPWORDS

    if catalogue.where is None or catalogue.size < 2:
        return []
    groups: dict[int, list[int]] = {}
    for i, (key, _s, _e, g) in enumerate(words):
        if key != "|" and g >= 0:
            groups.setdefault(g, []).append(i)
    spans = {g: (words[idx[0]][1], words[idx[-1]][2]) for g, idx in groups.items()}
    found: dict[int, tuple[str, str, float]] = {}  # group → (document, how, weight)
    for g, idx in groups.items():
        text = query[spans[g][0] : spans[g][1]]
        keys = [words[i][0] for i in idx if words[i][0]]
        if not keys or text.islower() or len(text) < 2 or all(k.isdigit() for k in keys) or set(keys) <= _KIND_KEYS:
            continue
        if text.casefold() in QUERY_STOPWORDS or _capital_by_position(query, spans[g][0], text):
            continue  # "How much credit …": a question word, or a word capitalised only as the sentence opens
        held = [catalogue.chunks_holding(k) for k in keys]
        docs = {d for h in held for d in h}
        if len(docs) != 1 or not all(held):
            continue
        (doc,) = docs
        weight = sum(catalogue.weight(k) for k in keys)
        opening = catalogue.opening_chunks(doc)
        headed = set(keys) & catalogue.opening_headings(doc)  # "Our Pledge": what the opening section is about
        if (
            opening
            and not headed
            and all(h[doc] & opening and len(h[doc] & opening) >= OPENING_SHARE * len(h[doc]) for h in held)
        ):
            found[g] = (doc, "opening", weight)
            continue
        whole = _key(re.sub(r"[\W_]+", "", text))
        if (whole and doc in catalogue.holders.get(whole, ())) or all(
            doc in catalogue.holders.get(k, ()) for k in keys
        ):
            found[g] = (doc, "name", weight)
    order = sorted(groups)
    lower = lambda h: query[spans[h][0] : spans[h][1]].islower()  # noqa: E731
    joined = lambda a, b: not query[spans[a][1] : spans[b][0]].strip()  # noqa: E731 - only spaces between
    # the capitalised words written beside an identifying word that the document writes with it ("App
    # Manager", whose "App" every app's policy has) are its name too: the span grows to the phrase
    span_of = dict(spans)
    beside: set[int] = set()
    for n, g in enumerate(order):
        if g not in found:
            continue
        lo = hi = n
        for step in (-1, 1):
            m = n + step
            while 0 <= m < len(order) and joined(*sorted((order[m], order[m - step]))) and not lower(order[m]):
                grown = query[spans[order[m]][0] : spans[order[m]][1]]
                if (
                    order[m] in found
                    or grown.casefold() in QUERY_STOPWORDS
                    or not any(words[i][0] for i in groups[order[m]])
                ):
                    break  # another identifying word, or a question word opening the sentence ("Is")
                a, b = (m, hi) if step < 0 else (lo, m)
                if found[g][0] not in catalogue.phrase_documents(query[spans[order[a]][0] : spans[order[b]][1]]):
                    break
                lo, hi = (m, hi) if step < 0 else (lo, m)
                beside.add(order[m])
                m += step
        span_of[g] = (spans[order[lo]][0], spans[order[hi]][1])
    # a name's word identifies the document where the capitalised words written with it do too: a
    # stretch of capitalised words (a term, "Data Protection Officer") holding another word is no name
    for n, g in enumerate(order):
        if g not in found or found[g][1] != "name":
            continue
        stretch, m = [g], n - 1
        while m >= 0 and joined(order[m], order[m + 1]) and not lower(order[m]):
            stretch.append(order[m])
            m -= 1
        m = n + 1
        while m < len(order) and joined(order[m - 1], order[m]) and not lower(order[m]):
            stretch.append(order[m])
            m += 1
        named = lambda h: any(s <= spans[h][0] and spans[h][1] <= e for s, e in naming)  # noqa: E731
        kinds = lambda h: {words[i][0] for i in groups[h] if words[i][0]} <= _KIND_KEYS  # noqa: E731
        if not all(h in found or h in beside or named(h) or kinds(h) for h in stretch):
            del found[g]
    if len({doc for doc, _, _ in found.values()}) != 1:
        return []
    merged: list[list] = []  # words written one after the other are one name: "Marius Begby"
    for g, (doc, _how, weight) in sorted(found.items()):
        start, end = span_of[g]
        if merged and not query[merged[-1][1] : start].strip():
            merged[-1][1], merged[-1][2] = end, merged[-1][2] + weight
        else:
            merged.append([start, end, weight, doc])
    return [NamedDocument(doc, query[a:b], (a, b), 1.0, w) for a, b, w, doc in merged]


# Fewest words a question must ask about the named document besides its identifying words for those to
# leave the ranking text: words neither question words nor kind words, each in fewer than half of the
# document's chunks (a word on every page of it, "app" of an app's terms, asks nothing of one passage).
MIN_ASKED = 2


def _asked(catalogue: Catalogue, doc_key: str, rest: str) -> int:
    """How many words of ``rest`` (a question without its identifying words) ask something of a
    passage of ``doc_key``: no question word (:data:`~docstrata.index.keyword.QUERY_STOPWORDS`) nor
    a word for a kind of document, and held by fewer than half of its chunks
    (:attr:`Catalogue.chunk_counts`; every word counts when that is not known)."""
    from .index.keyword import QUERY_STOPWORDS

    total = catalogue.chunk_counts.get(doc_key, 0)
    asked = {
        k
        for k, s, e, _g in _words(rest)
        if k and k != "|" and k not in _KIND_KEYS and rest[s:e].casefold() not in QUERY_STOPWORDS
    }
    return sum(1 for k in asked if not total or len(catalogue.chunks_holding(k).get(doc_key, ())) < total / 2)


def _named(
    catalogue: Catalogue, query: str, words, min_coverage: float
) -> tuple[list[NamedDocument], list[tuple[int, int]], list[tuple[int, int]]] | None:
    """The documents the query's name runs name (:func:`match`), the spans of every run of their
    names and the spans that spell a name out whole; ``None`` when no run names a document."""
    found = [f for f in _named_runs(catalogue, query, words, min_coverage) if f[1] <= MAX_SHARING]
    if not found:
        return None
    if any(f[2].coverage >= min_coverage for f in found):  # part of a name, framed, only where no name is written
        found = [f for f in found if f[2].coverage >= min_coverage]
    fewest = min(f[1] for f in found)
    found = sorted((f for f in found if f[1] == fewest), key=lambda f: (-f[0], -f[2].coverage))
    kept: list[tuple[float, NamedDocument, tuple[int, int]]] = []
    for got, _, named, (s, e) in found:  # of overlapping runs, the heaviest (and those as heavy) win
        if any(r[0] > got + 1e-9 for r in kept if r[2][0] <= e and s <= r[2][1]):
            continue
        if not any(r[1].doc_key == named.doc_key and r[2] == (s, e) for r in kept):
            kept.append((got, named, (s, e)))
    documents = [k[1] for k in kept]
    for _got, named, (s, e) in kept:  # words other documents' names hold as well name those too ("GitHub")
        matched = {k for k, *_ in words[s : e + 1] if k} & {k for k, *_ in _words(named.name) if k}
        holders = set.intersection(*(catalogue.holders.get(k, set()) for k in matched)) if matched else set()
        for doc_key in sorted(holders - {d.doc_key for d in documents}):
            documents.append(dataclasses.replace(named, doc_key=doc_key))
    chosen = {d.doc_key for d in documents}
    runs = documents + [f[2] for f in _named_runs(catalogue, query, words, min_coverage, chosen)]
    whole = [d.span for d in runs if d.coverage >= WHOLE_NAME and not _ordinary_word(query[d.span[0] : d.span[1]])]
    return documents, [d.span for d in runs], whole


def _ordinary_word(span: str) -> bool:
    """Whether a naming span is one lower-case word ("leave"): a word of the question as much as a name."""
    return " " not in span.strip() and span.islower()


_CONNECTORS = frozenset({"between", "&", "and", "of", "the", "s"})


_CLAUSE = re.compile(r"[^;:\n]+")


def _preface_clauses(query: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The clauses (cut at ``;``, ``:``, new lines) of ``query`` that hold a naming span and cite
    no section, when another clause holds content words and no naming span: a preface that only
    says which document ("Consider "Fiverr"'s privacy policy; who can see …") goes whole, with the
    words that say what kind of document it is."""
    from .index.exact import query_section_keys

    clauses = [(m.start(), m.end()) for m in _CLAUSE.finditer(query)]
    naming = [c for c in clauses if any(c[0] <= a and b <= c[1] for a, b in spans)]
    other = [c for c in clauses if c not in naming and any(k and k != "|" for k, *_ in _words(query[c[0] : c[1]]))]
    if not other:
        return []
    return [c for c in naming if not query_section_keys(query[c[0] : c[1]])]


def _rest(
    query: str, naming: list[tuple[int, int]], spans: list[tuple[int, int]], words: Sequence[tuple[int, int]] = ()
) -> str:
    """``query`` without ``spans`` (merged across connecting words: "CopAcc **and** ToP Mentors",
    "Agreement **between** CopAcc"), without a preface clause that only names the document
    (:func:`_preface_clauses` over every ``naming`` span), and without the preposition and article
    right before each span (kept before a span a number follows: the ``of`` of "subsection 2 of NRS
    1.117" joins the items to the section, and before identifying ``words`` a word follows: "about
    the Salamat app" is "about the app"); the whole query when no content word would be left."""
    spans = list(spans) + _preface_clauses(query, naming)
    merged: list[list[int]] = []
    for start, end in sorted(set(spans)):
        gap = query[merged[-1][1] : start] if merged else ""
        if merged and (
            start <= merged[-1][1]
            or (
                not _BREAK.search(gap)
                and all(w.casefold() in _CONNECTORS or w.casefold() in STOPWORDS for w in _WORD.findall(gap))
            )
        ):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, pos = [], 0
    for start, end in merged:
        head = query[pos:start]
        # "subsection 2 of NRS 1.117": a name that opens a citation (a code's abbreviation before its section
        # number) keeps the word joining the citation to the items before it (grammar.items_of)
        inside = [sp for sp in spans if start <= sp[0] and sp[1] <= end]
        modifier = bool(inside) and all(sp in words for sp in inside)
        if re.match(r"\s*\d", query[end:]) or (modifier and re.match(r"\s*[^\W\d_]", query[end:])):
            lead = None
        else:
            lead = _LEAD.search(head)
        out.append(head[: lead.start()] if lead else head)
        pos = end
    out.append(query[pos:])
    rest = " ".join(" ".join(out).split())
    rest = re.sub(r"\s+([;,.?!:])", r"\1", rest)
    rest = re.sub(r"^[\s;,:'\"“”]+|[\s;,:'\"“”]+$", "", rest)
    return rest if any(k and k != "|" for k, *_ in _words(rest)) else query


# ---- the catalogue of a store, cached per store and per state of its files
_CACHE: "weakref.WeakKeyDictionary[object, tuple[tuple, Catalogue]]" = weakref.WeakKeyDictionary()
_CACHE_LOCK = threading.Lock()


def catalogue(store) -> Catalogue:
    """The :class:`Catalogue` of the documents ``store`` holds, from their entries' ``names``;
    rebuilt when a file is added, removed or changed (its sha256 in ``store.file_states()``)."""
    from .store.base import read_document_entry

    states = store.file_states()
    stamp = tuple(sorted((k, s.sha256) for k, s in states.items()))
    try:
        cached = _CACHE.get(store)
    except TypeError:  # a store that cannot be weakly referenced: no cache
        cached = None
    if cached is not None and cached[0] == stamp:
        return cached[1]
    names_of, counts = {}, {}
    for doc_key in states:
        entry = read_document_entry(store, doc_key)
        names_of[doc_key] = list(entry.names) if entry is not None else []
        counts[doc_key] = entry.total_chunks if entry is not None else 0
    cat = Catalogue.build(
        names_of, where=lambda word: _chunks_using(store, word), opening=lambda doc: _opening_chunks(store, doc)
    )
    cat.phrase = lambda text: _documents_writing(store, text)
    cat.text_df = lambda word: len(cat.chunks_holding(word))
    cat.chunk_counts = counts
    with _CACHE_LOCK:
        try:
            _CACHE[store] = (stamp, cat)
        except TypeError:
            pass
    return cat


TEXT_DF_DEPTH = 400  # chunks read to count the documents whose text holds a word


def _chunks_using(store, word: str) -> dict[str, frozenset[int]]:
    """``{doc_key: ordinals}`` of the chunks holding the analysed word ``word`` (a stem, analysed
    again to itself: the surface form "ResConnect" would also search its parts "res" and "connect"):
    its best :data:`TEXT_DF_DEPTH` keyword hits (BM25 spreads a common word's hits over the
    documents; a rare word's are all of them). Their count of documents is the word's text
    document frequency."""
    try:
        hits = store.keyword_search(word, TEXT_DF_DEPTH)
    except Exception:  # noqa: BLE001 - a word the keyword index cannot read weighs as a name word
        return {}
    out: dict[str, set[int]] = {}
    for cid, _ in hits:
        doc, _, ordinal = cid.rpartition("#")
        out.setdefault(doc, set()).add(int(ordinal) if ordinal.isdigit() else -1)
    return {doc: frozenset(ords) for doc, ords in out.items()}


def _documents_writing(store, text: str) -> frozenset[str]:
    """The documents whose text holds the words ``text`` as a phrase (the keyword index's phrase
    search, its first :data:`TEXT_DF_DEPTH` chunks)."""
    try:
        return frozenset(cid.rpartition("#")[0] for cid in store.phrase_search(text, TEXT_DF_DEPTH))
    except Exception:  # noqa: BLE001 - a phrase the index cannot search is written nowhere
        return frozenset()


def _opening_chunks(store, doc_key: str) -> tuple[frozenset[int], frozenset[str]]:
    """Ordinals of ``doc_key``'s opening chunks — its first that is no contents page (a contents
    page lists every section's title: no introduction), and the next when that one is a title
    line of fewer than :data:`OPENING_WORDS` words (a heading over the opening paragraph) — and
    the analysed words of the headings over them (their sections' titles and parents')."""
    try:
        chunks = sorted(store.get_chunks([f"{doc_key}#{i}" for i in range(4)]), key=lambda c: c.ordinal)
    except Exception:  # noqa: BLE001 - no opening known: no word is found there
        return frozenset(), frozenset()
    body = [c for c in chunks if c.chunk_type != "contents"]
    if not body:
        return frozenset(), frozenset()
    opening = body[:2] if len(body[0].content.split()) < OPENING_WORDS else body[:1]
    titles = [t for c in opening for t in (*c.parent_chain, c.section_title) if t]
    heads = {k for t in titles for k, *_ in _words(t) if k and k != "|"}
    return frozenset(c.ordinal for c in opening), frozenset(heads)


def scope_query(store, query: str, flt=None) -> QueryScope | None:
    """The :class:`QueryScope` of ``query`` over ``store``'s documents, or ``None`` when it names
    none, or the caller already chose documents (``flt.doc_keys``), or the store keeps no names.
    A named document outside ``flt``'s other conditions is still named; the scoped search then
    finds nothing there and the caller falls back to the unscoped one."""
    if flt is not None and getattr(flt, "doc_keys", None) is not None:
        return None
    if not hasattr(store, "file_states"):
        return None
    return match(catalogue(store), query)
