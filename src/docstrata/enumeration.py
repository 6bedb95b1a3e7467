"""Enumerations among a chunk's sentences: which sentence opens which list, and where each list
and each item ends.

A passage that shows a list's lead-in ("… a report that includes—") without its items, or an item
("(7) an assessment of the Federal workforce …, including—") without its sub-items (A)–(C), says
half of what it cites; an answer region that stops after item (6) of eight drops the rest of the
answer. :func:`enumeration` reads the nesting from the sentences themselves
(:func:`~docstrata.passage.sentence_spans`), as the document prints it, so it serves every
document kind alike (a bill's ``(a)`` / ``(1)`` / ``(A)`` / ``(i)``, a policy's nested bullets, a
contract's ``1.`` / ``a)``):

* a sentence opening with a list marker (:func:`~docstrata.passage.list_item`) is an item of the
  open list whose marker it continues: the same form (``(1)``, ``1.``, ``a)``, a bullet and its
  indent) and the next number of it (``(c)`` after ``(b)``, ``(iv)`` after ``(iii)``; ``(i)`` after
  ``(h)`` is a letter, after ``(A)`` a roman one); a marker no open list continues opens a new
  list, nested under the sentence before it when that is an item or a lead-in;
* a sentence running on the line of the one before it belongs to the item that one belongs to (an
  item of two sentences);
* a new line without a marker (many sources break lines only between paragraphs), a heading or a
  table row ends every open list.

A sentence's *extent* is the last sentence of what it opens: an item with its sub-items, a
lead-in (:func:`lead_in`) with its items; every other sentence is its own extent.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .structure.grammar import roman_to_int

_MARKER = re.compile(
    r"(?P<indent>[ \t]*)(?:[>*_“\"‘']\s*)*"  # a quotation's "> “(A)", emphasis "**(2)**"
    r"(?:(?P<bullet>[*+•‣◦▪–-])[ \t]|\((?P<paren>[0-9]{1,4}|[a-zA-Z]{1,4})\)[*_]*[ \t]"
    r"|(?P<open>\()?(?P<bare>[0-9]{1,4}|[a-zA-Z]{1,4})(?P<close>[.)])[*_]*[ \t])"
)


def lead_in(text: str) -> bool:
    """``text`` is a lead-in: a sentence that opens what follows it, ending with ``:``, an em or en
    dash, or a hyphen after a word standing for one (``… a report that includes—``, ``The
    following apply:``, ``including-``)."""
    end = text.rstrip().rstrip("*_").rstrip()  # emphasis closing after it: "**Definitions:**"
    if end.endswith((":", "—", "–")):
        return True
    bare = end.rstrip("-")
    return 1 <= len(end) - len(bare) <= 2 and bare[-1:].isalpha()


@dataclass(frozen=True)
class _Marker:
    """A list marker: ``form`` (its punctuation and letter case, or the bullet and its indent) and
    the readings of its label: ``(kind, value)`` with kind ``num``, ``alpha`` or ``roman``."""

    form: tuple[str, ...]
    readings: tuple[tuple[str, int], ...]


def _letters_value(label: str) -> int | None:
    """``a`` → 1 … ``z`` → 26, ``aa`` → 27, ``bb`` → 28 (a repeated letter, as US Code items run on)."""
    low = label.lower()
    if len(low) == 1:
        return ord(low) - 96
    if len(set(low)) == 1:
        return 26 * (len(low) - 1) + ord(low[0]) - 96
    return None


def _marker(text: str) -> _Marker | None:
    """The list marker ``text`` opens with, ``None`` when it opens with none."""
    m = _MARKER.match(text)
    if m is None:
        return None
    if m.group("bullet"):
        return _Marker(("bullet", m.group("bullet"), str(len(m.group("indent").expandtabs(4)))), (("bullet", 0),))
    label = m.group("paren") or m.group("bare")
    shape = "()" if m.group("paren") else ("(" if m.group("open") else "") + m.group("close")
    if label.isdigit():
        return _Marker((shape, "0"), (("num", int(label)),))
    case = "A" if label.isupper() else "a" if label.islower() else ""
    if not case:
        return None
    readings = []
    roman = roman_to_int(label, strict=True)
    if roman is not None:
        readings.append(("roman", roman))
    letters = _letters_value(label)
    if letters is not None:
        readings.append(("alpha", letters))
    return _Marker((shape, case), tuple(readings)) if readings else None


@dataclass
class _List:
    """An open list while reading: its marker ``form`` and ``kind``, the ``last`` value seen, the
    sentence that ``opener`` it (``None``: none) and its latest ``item``."""

    form: tuple[str, ...]
    kind: str
    last: int
    opener: int | None
    item: int


def _continued(stack: list[_List], marker: _Marker) -> tuple[int, str, int] | None:
    """``(depth, kind, value)``: the open list (index into ``stack``) ``marker`` continues, innermost
    first: one whose next number it is, else, for a marker that cannot open a list (no ``1``, ``a``,
    ``i``), one of its form and kind it comes later in (a list that skips a number); ``None`` when it
    continues none."""
    starts = any(value <= 1 for _kind, value in marker.readings)
    for strict in (True, False) if not starts else (True,):
        for depth in range(len(stack) - 1, -1, -1):
            lst = stack[depth]
            if lst.form != marker.form:
                continue
            for kind, value in marker.readings:
                if kind == lst.kind and (
                    kind == "bullet" or value == lst.last + 1 or (not strict and value > lst.last)
                ):
                    return depth, kind, value
    return None


def _fresh(marker: _Marker) -> tuple[str, int]:
    """The reading a marker opening a new list has: the one counting from 1 (``(i)`` roman, ``(a)``
    a letter), else its first (``(v)`` opening a list is roman)."""
    return next(((k, v) for k, v in marker.readings if v <= 1), marker.readings[0])


def enumeration(text: str, spans: list[tuple[int, int]]) -> list[int | None]:
    """The parent of each sentence ``spans`` of ``text`` (``(start, end)`` in document order, as
    :func:`~docstrata.passage.sentence_spans` gives them) in the lists they form (module docstring):
    the index of the lead-in or item it belongs to, ``None`` for a sentence outside any list or a
    list's opener."""
    parents: list[int | None] = []
    stack: list[_List] = []
    texts = [text[a:b] for a, b in spans]
    for i, (a, b) in enumerate(spans):
        line = text.rfind("\n", 0, a) + 1
        runs_on = i > 0 and "\n" not in text[spans[i - 1][1] : a]
        marker = _marker(text[line:b] if not text[line:a].strip() else texts[i])  # with the line's indent
        if marker is None:
            if runs_on:
                parents.append(i - 1 if _is_item(stack, i - 1) else parents[i - 1])
            else:
                stack.clear()  # a new line, a heading, a table row: the lists are over
                parents.append(None)
            continue
        found = _continued(stack, marker)
        if found is not None:
            depth, kind, value = found
            del stack[depth + 1 :]
            lst = stack[depth]
            lst.kind, lst.last, lst.item = kind, value, i
            parents.append(lst.opener)
            continue
        # a new list: under the sentence before when that is an item or a lead-in
        owner = i - 1 if i and (_is_item(stack, i - 1) or lead_in(texts[i - 1])) else None
        anchor = owner if owner is None or _is_item(stack, owner) else parents[owner]
        while stack and stack[-1].item != anchor:
            stack.pop()  # the lists the new one is not inside of are over
        kind, value = _fresh(marker)
        stack.append(_List(marker.form, kind, value, owner, i))
        parents.append(owner)
    return parents


def _is_item(stack: list[_List], j: int) -> bool:
    """Sentence ``j`` is the latest item of an open list."""
    return any(lst.item == j for lst in stack)


def extents(parents: list[int | None]) -> list[int]:
    """For each sentence, the index of the last sentence of what it opens (its items and theirs,
    :func:`enumeration`'s ``parents``); itself when it opens nothing."""
    out = list(range(len(parents)))
    for j in range(len(parents)):
        p = parents[j]
        seen = 0
        while p is not None and seen < len(parents):
            out[p] = max(out[p], j)
            p = parents[p]
            seen += 1
    return out


def children(parents: list[int | None], i: int) -> list[int]:
    """The sentences whose parent is ``i``, in order: a lead-in's items, an item's sub-items (and an
    item's further sentences)."""
    return [j for j in range(i + 1, len(parents)) if parents[j] == i]


_SENTENCE_STOP = re.compile(r"[.!?][\"'”’)\]*_]*\s*$")


@dataclass(frozen=True)
class Enumeration:
    """The lists among one chunk's sentences (:func:`of_sentences`): per sentence its ``parent``
    (:func:`enumeration`), its ``extent`` (:func:`extents`), whether it is an ``item`` (opens with a
    list marker) and a ``lead_in`` (:func:`lead_in`)."""

    parent: list[int | None]
    extent: list[int]
    item: list[bool]
    lead: list[bool]
    texts: list[str]

    def items_of(self, i: int) -> list[int]:
        """The items of the list sentence ``i`` opens (its children that open with a marker)."""
        return [k for k in children(self.parent, i) if self.item[k]]

    def _own_last(self, k: int) -> int:
        """The last of item ``k``'s own sentences (``k`` and those running on after it, before its
        first sub-item)."""
        j = k
        while j + 1 < len(self.parent) and self.parent[j + 1] == k and not self.item[j + 1]:
            j += 1
        return j

    def list_end(self, i: int) -> int:
        """The last sentence of the list lead-in ``i`` opens when its items go on with its sentence
        (:meth:`one_sentence`): where that sentence ends, in its last item (with the sub-items before
        its full stop; text running on after it is not the list's); ``i`` when it opens no such list."""
        if not self.one_sentence(i):
            return i
        last = self.items_of(i)[-1]
        for j in range(last, self.extent[last] + 1):
            if _SENTENCE_STOP.search(self.texts[j]):
                return j
        return self.extent[last]

    def one_sentence(self, i: int) -> bool:
        """Lead-in ``i``'s items (two or more) go on with its sentence: every item but the last ends
        without a full stop (``…; and``, ``…,``, ``… of—``, a bare phrase), as a bill's ``includes—
        (1) …; (2) …; … (8) ….`` or a policy's ``We collect: - your name - your email``; not a list
        of clauses that are sentences of their own (``agree as follows: 1. Term. This Agreement …``),
        which a passage shows as far as they answer."""
        kids = self.items_of(i)
        return (
            self.lead[i]
            and len(kids) >= 2
            and not any(_SENTENCE_STOP.search(self.texts[self._own_last(k)]) for k in kids[:-1])
        )


def of_sentences(text: str, spans: list[tuple[int, int]]) -> Enumeration:
    """The :class:`Enumeration` of sentences ``spans`` of ``text`` (one chunk's content)."""
    parents = enumeration(text, spans)
    texts = [text[a:b] for a, b in spans]
    items = []
    for a, b in spans:
        line = text.rfind("\n", 0, a) + 1
        items.append(_marker(text[line:b] if not text[line:a].strip() else text[a:b]) is not None)
    return Enumeration(parents, extents(parents), items, [lead_in(t) for t in texts], texts)


def closed(
    enum: Enumeration,
    lo: int,
    hi: int,
    fits: Callable[[int], bool],
    free: Callable[[int], bool] = lambda _j: True,
) -> int:
    """The last sentence of passage ``lo``..``hi`` once every lead-in in it whose items go on with
    its sentence (:meth:`Enumeration.one_sentence`: ``… including— (A) …; (B) …; and (C) ….``) takes
    all its items, with their sub-items: whole when ``fits(last)`` (the passage up to that sentence is
    within its budget) and every sentence added is ``free`` (shown in no other passage), else one item
    after another while they fit; and a lead-in ending the passage takes at least its first item, as
    a label takes the text it opens."""

    def takes(end: int) -> bool:
        return fits(end) and all(free(j) for j in range(hi + 1, end + 1))

    k = lo
    while k <= hi:
        end = enum.list_end(k)
        if end > hi:
            if takes(end):
                hi = end
            else:
                for c in enum.items_of(k):
                    if c > hi:
                        if not takes(min(enum.extent[c], end)):
                            break
                        hi = min(enum.extent[c], end)
        if hi == k and enum.lead[k]:
            first = next(iter(enum.items_of(k)), None)
            if first == k + 1 and free(first):
                hi = enum.extent[first] if takes(enum.extent[first]) else first
        k += 1
    return hi
