"""Run-in titles: a paragraph that opens with its number, then its title set apart, then its text.

Contracts and codes print a clause or section as one paragraph: ``1. What the Company owns. The
Company owns …``, ``72A.1010 Short title. This chapter may be cited …``. What sets the title apart
from the text is either its type (bold, underline, italic: the emphasis the text after it lacks) or,
in plain type, a short phrase closed by a full stop. Each converter states what its format knows —
Word its runs' ``w:b`` / ``w:i`` / ``w:u``, HTML its ``<b>`` elements, PDF the bold faces of its
characters — as character spans over the paragraph's text; the rules are here, one set for all
(``docs/architecture.md``, "The converter contract"):

* **set apart by emphasis** (:func:`emphasis_title`): the paragraph's opening runs (after its
  number, when it prints one) that share a mark the run after them lacks; a title has a letter, at
  most :data:`MAX_TITLE_WORDS` words (:data:`MAX_LABELLED_TITLE_WORDS` when the number stands in
  the emphasis with it: ``<b>72A.1010 Short title.</b>``, a code's whole label), and is closed by a
  full stop or colon of its own (:data:`TITLE_CLOSE`) — or, where a paragraph may show no such mark
  (a Word heading), by one right after the emphasis, or by text opening with a capital; at least
  :data:`MIN_TEXT_LETTERS` letters of text run on after it unless the caller's markup states the
  section already;
* **set apart by type** (:func:`typed_title`): 1–8 words in title case closed by a full stop, then
  a sentence opening with a capital (``Grant of Copyright License. Subject to …``);
* **a stated section's title** (:func:`lead_title`): after a number the markup states, its title is
  the whole text when short, else the phrase up to its first full stop or colon.

The number a paragraph opens with is read with the citation grammar's number forms
(:data:`docstrata.structure.grammar.NUMBER`: ``1.``, ``2.3``, ``4.1.2.``, ``IV.``, ``10A``):
:func:`opening_number`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ..structure.grammar import NUMBER

SET_APART = frozenset({"b", "i", "u"})  # the marks that set a title apart: bold, italic, underline
MAX_TITLE_WORDS = 12
MAX_LABELLED_TITLE_WORDS = 40  # a title set apart together with its number: a code's leadline
TYPED_TITLE_WORDS = 8  # a title in plain type: shorter, every word capitalised
TITLE_CLOSE = (".", ":")
MIN_TEXT_LETTERS = 3  # the text that must run on after a title (a PDF line holds only its start)
_OPENING_QUOTES = ('"', "“", "‘", "'", "(", "[")
_TITLE_SMALL_WORDS = frozenset("a an and as at by for from in nor of on or per the to with".split())

Span = tuple[int, int, str]  # (start, end, mark) over a paragraph's text: "b", "i" or "u"

# a number opening a paragraph, as the grammar writes one ("1.", "2.3", "4.1.2.", "IV.", "10A"; "1)", "2.1)"
# in a list of clauses), then a space
_OPENING_NUMBER = re.compile(rf"(?:{NUMBER})[.)]?(?=\s)")
_AFTER_NUMBER = ".:—–-"  # what may stand between a number and its title
# what may stand between an emphasised title and its text: a full stop or colon, a dash
_GAP = re.compile(r"\s*(?:[.:]|[—–]|-{1,2}(?=\s))?\s*")
# a leading phrase closed by a full stop or colon before a space or the end (at most 100 characters)
_LEAD_PHRASE = re.compile(r"\S.{0,99}?[.:](?=\s|$)")


@dataclass(frozen=True)
class RunIn:
    """What a paragraph opens with: ``number`` as printed (``""`` when none), ``title`` (its words,
    whitespace collapsed, without the full stop or colon closing it), ``heading`` (the title as
    printed up to the end of its emphasis, closing mark included when it is inside: ``What the
    Company owns.``), ``body`` (the text after the title and the mark closing it, collapsed),
    ``end``, the offset in the text where the title's emphasis ends, and ``labelled``: whether the
    number stands in the title's emphasis with it (``<b>72A.1010 Short title.</b>``)."""

    number: str
    title: str
    heading: str
    body: str
    end: int
    labelled: bool = False


def spans_of_runs(runs: Iterable[tuple[str, Collection[str]]]) -> tuple[str, list[Span]]:
    """``(text, spans)`` of a paragraph given as runs ``(text, marks)`` (a Word paragraph's
    ``w:r``, an HTML paragraph's strings): the runs joined, and one span per run and mark."""
    parts: list[str] = []
    spans: list[Span] = []
    pos = 0
    for text, marks in runs:
        parts.append(text)
        spans.extend((pos, pos + len(text), m) for m in marks)
        pos += len(text)
    return "".join(parts), spans


def opening_number(text: str) -> str:
    """The number ``text`` opens with, followed by a space (the grammar's number forms, with its
    closing full stop or bracket: ``1.``, ``2.3``, ``4.1.2.``, ``IV.``, ``1)``), or ``""``."""
    m = _OPENING_NUMBER.match(text)
    return m.group() if m else ""


def emphasis_title(
    text: str,
    spans: Sequence[Span],
    marks: Collection[str] = SET_APART,
    *,
    numbered: bool = False,
    label: str = "",
    own_close: bool = True,
    close_after: bool = False,
    text_after: bool = True,
) -> RunIn | None:
    """The run-in title ``text`` opens with, set apart by emphasis (module docstring), or ``None``.

    ``spans``: the paragraph's emphasised character ranges; only ``marks`` among them count (what
    the caller's rule is about: a Word clause list's titles are bold). ``numbered``: a number may
    open the paragraph before the title (:func:`opening_number`; the PDF line ``1. What the Company
    owns. …``); a code's label may stand in the emphasis with its title. ``own_close``: the title
    closes with its own full stop or colon; else one right after the emphasis or a capital opening
    the text closes it too (a Word heading's underlined ``Damages Waiver`` then ``.  Except …``).
    ``close_after``: a full stop or colon right after the emphasis closes it too (a PDF's bold
    ``Background`` whose stop is set in the body face), a capital alone does not.
    ``label``: the label the caller read at the start of ``text`` (whitespace aside: ``NRS 1.130``),
    in place of a number. ``text_after``: text must run on after the title (false where the markup
    states the section)."""
    number = label or (opening_number(text) if numbered else "")
    start, seen, wanted = 0, 0, len("".join(number.split()))
    while start < len(text) and seen < wanted:  # past the number's characters, spaces aside
        seen += not text[start].isspace()
        start += 1
    if number and seen < wanted:
        return None
    labelled_end = start
    while start < len(text) and (text[start].isspace() or number and text[start] in _AFTER_NUMBER):
        start += 1
    cuts = sorted({start, len(text), *(p for s, e, m in spans if m in marks for p in (s, e) if start < p < len(text))})
    common: frozenset[str] | None = None
    end = title_start = start
    labelled = False
    for a, b in zip(cuts, cuts[1:]):
        piece = text[a:b]
        if not piece.strip():
            continue  # a space neither opens nor closes a title
        on = frozenset(m for s, e, m in spans if m in marks and s <= a and e >= b)
        shared = on if common is None else common & on
        if not shared:
            break
        if common is None and number:
            labelled = any(s < labelled_end and e > a for s, e, m in spans if m in shared)
        common, end = shared, b
    if common is None:
        return None
    heading = " ".join(text[title_start:end].split())
    after = " ".join(text[end:].split())
    gap = _GAP.match(after)
    body = after[gap.end() :] if gap else after
    words = heading.split()
    closed = heading.endswith(TITLE_CLOSE)
    if not own_close:
        closed = closed or bool(gap and gap.group().strip()) or body[:1].isupper()
    elif close_after:
        closed = closed or bool(gap and gap.group().strip() in TITLE_CLOSE)
    if (
        not words
        or not any(c.isalpha() for c in heading)
        or len(words) > (MAX_LABELLED_TITLE_WORDS if labelled else MAX_TITLE_WORDS)
        or not closed
        or text_after
        and sum(c.isalpha() for c in body) < MIN_TEXT_LETTERS
    ):
        return None
    return RunIn(number.strip(), heading.rstrip(".:—–- ").strip(), heading, body, end, labelled)


def typed_title(text: str) -> RunIn | None:
    """The title ``text`` opens with in plain type (module docstring: ``Grant of Copyright
    License.`` of ``Grant of Copyright License. Subject to …``, or the whole text ``Definitions.``),
    or ``None``; ``body`` is ``""`` when the title is the whole text. Not an abbreviation of three
    letters or fewer (``No.``, ``Inc.``)."""
    m = _LEAD_PHRASE.match(text)
    if not m or not m.group().endswith(".") or len(m.group()) > 81:
        return None
    rest = text[m.end() :]
    opening = rest.lstrip()
    opening = opening[1:] if opening[:1] in _OPENING_QUOTES else opening
    if rest and not ("A" <= opening[:1] <= "Z"):
        return None  # the text after it opens a sentence
    heading = m.group()
    words = heading.rstrip(".").split()
    if not 0 < len(words) <= TYPED_TITLE_WORDS or len(heading.rstrip(".")) < 3:
        return None
    for k, w in enumerate(words):
        letters = w.lstrip("".join(_OPENING_QUOTES))
        if not letters or not letters[0].isalpha():
            return None
        if not letters[0].isupper() and (k == 0 or letters.lower() not in _TITLE_SMALL_WORDS):
            return None
    if len(words) == 1 and len(words[0].rstrip(".")) <= 3:
        return None  # "No.", "Inc.", "Mr.": an abbreviation, not a title
    return RunIn("", heading.rstrip(".").strip(), heading, rest.strip(), m.end())


def lead_title(rest: str) -> str:
    """The title of a section whose number the markup states, read from the text after the number
    (``rest``) when nothing marks the title: the whole text when it is at most
    :data:`MAX_TITLE_WORDS` words and does not close like a lead-in (``Short title.``), else its
    leading phrase up to the first full stop or colon when that is at most as long (``SHORT TITLE.
    This code …``), else ``""``."""
    rest = rest.lstrip(" .:—–-")
    words = rest.split()
    if not words:
        return ""
    if len(words) <= MAX_TITLE_WORDS and not rest.endswith((";", ",", ":")):
        return rest
    lead = _LEAD_PHRASE.match(rest)
    return lead.group() if lead and len(lead.group()) >= 3 and len(lead.group().split()) <= MAX_TITLE_WORDS else ""
