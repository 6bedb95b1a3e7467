"""Clauses headed ``§ N`` (German- and Swiss-style contracts and statutes) in any input format.

A contract converted from Word prints each clause as a bold ``§ N`` paragraph above its bold or
heading-styled title (``**§ 4**`` / ``## Remuneration``); plain text prints ``§ 4`` on a line of
its own, its title on the next line or after a blank line; others write ``**§ 4 Remuneration**``
or ``**§ 4.** Remuneration``. The generic label grammar (:mod:`.scan`) reads none of the emphasised
or blank-separated forms, so the ``§ N`` line became body text at the end of the clause before
it and the title a slug-named heading.

:func:`sign_series` finds the lines that start with ``§ N`` (emphasis and a trailing dot
allowed) and :func:`sign_marker` makes one a section marker, id ``N``, when the evidence says it
heads a clause: the line stands alone or carries a title-like text, and its number belongs to a
series of consecutive numbers on such lines (``§ 3`` next to ``§ 2`` or ``§ 4``), so a lone
``§ 613a BGB`` line of prose never becomes a section. A bare ``§ N`` takes as its title the
heading, emphasised line or short title-like paragraph right below it (at most one blank line
between); the marker spans both lines, so the ``§ N`` line is the heading of its own clause.
"""

from __future__ import annotations

import re

from ..grammar import SUFFIX_WORDS
from .labels import _components, _plain, _title_of
from .patterns import _ATX_RE, _ITEM_RE, _LABEL_RE, _Marker

# "§ 4", "§ 4a", "§4 bis.", "§4. bis." (a paragraph inserted after § 4, its Latin suffix set apart: grammar.SUFFIX_WORDS)
_SIGN_RE = re.compile(
    rf"^§\s?(?P<num>\d{{1,4}})(?P<suffix>\.?\s?(?:{'|'.join(SUFFIX_WORDS)})+(?![a-z])|[a-z]{{0,2}}(?![a-z]))\.?(?:\s+(?P<rest>\S.*))?$"
)
_WRAPPED_RE = re.compile(r"^(?P<mark>\*\*|__|\*|_)(?P<text>\S(?:.*\S)?)(?P=mark)$")


def _sign(line: str) -> re.Match | None:
    """The ``§ N`` reading of a line, emphasis and tags dropped; ``None`` for ``§§`` and prose."""
    text = line.strip()
    if not text.startswith(("§", "*", "_", "<")) or _ATX_RE.match(text):
        return None
    return _SIGN_RE.match(_plain(text))


def sign_series(lines: list[str]) -> frozenset[int]:
    """Line numbers (0-based) of the ``§ N`` lines whose number continues or is continued by the
    nearest ``§`` line before or after it (``N - 1`` before or ``N + 1`` after; ``§ 3a`` counts as
    3). A plain ``§ N Title`` line's title must read like one (a line of prose opening with a
    citation is left out); an emphasised ``**§ N.** The Employee …`` is a numbered clause."""
    found: list[tuple[int, int]] = []
    for i, line in enumerate(lines):
        m = _sign(line)
        if m and (not m.group("rest") or _title_of(m.group("rest"))[1] or line.strip()[:1] in "*_<"):
            found.append((i, int(m.group("num"))))
    out = set()
    for k, (i, n) in enumerate(found):
        before = next((v for _, v in reversed(found[:k]) if v != n), None)
        after = next((v for _, v in found[k + 1 :] if v != n), None)
        if before == n - 1 or after == n + 1:
            out.add(i)
    return frozenset(out)


def sign_marker(lines: list[str], i: int, indent: int, series: frozenset[int]) -> _Marker | None:
    """A section marker for the ``§ N`` line ``i`` of the document's ``series`` (:func:`sign_series`,
    held in ``ParseContext.sign_series``), else ``None``.

    Only the forms the generic grammar misses are taken: an emphasised line (``**§ 4**``,
    ``**§ 4.** Remuneration``) and a bare ``§ N`` whose title is below it. ``§ 4 Remuneration``
    in plain text is a label of :mod:`.scan` already."""
    if i not in series:
        return None
    line = lines[i].strip()
    m = _sign(line)
    if m is None:
        return None
    label = "§ " + m.group("num") + m.group("suffix").lstrip(". ")
    comps = _components(label)
    if comps is None:
        return None
    rest = m.group("rest") or ""
    if rest:
        if _LABEL_RE.match(line):
            return None  # "§ 4 Remuneration": the generic grammar reads it
        title, is_heading = _title_of(rest)
        return _Marker(
            i,
            i + 1,
            "label",
            lines[i] if is_heading else "",
            f"{label} {title}".strip(),
            indent=indent,
            components=comps,
        )
    title, end = _title_below(lines, i)
    return _Marker(
        i, end, "label", "\n".join(lines[i:end]), f"{label} {title}".strip(), indent=indent, components=comps
    )


def _title_below(lines: list[str], i: int) -> tuple[str, int]:
    """(title, end) for a bare ``§ N`` on line ``i``: the next non-blank line, at most one blank
    line below, when it is an unnumbered Markdown heading or a wholly emphasised line (≤ 20 words,
    not a sentence), or a short title-like line (:func:`.labels._title_of`, no closing full stop);
    the title line forms a paragraph of its own. Else no title."""
    j = i + 1
    if j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines) or not lines[j].strip():
        return "", i + 1
    below = lines[j].strip()
    if j + 1 < len(lines) and lines[j + 1].strip() and not _ATX_RE.match(below):
        return "", i + 1  # the line below runs on: a paragraph, not a title
    atx = _ATX_RE.match(below)
    text = _plain(atx.group("text") or "") if atx else _plain(below)
    if not text or _LABEL_RE.match(text) or _ITEM_RE.match(text) or _sign(below):
        return "", i + 1
    if atx or _WRAPPED_RE.match(below):  # the author's heading or bold: long titles too, not sentences
        if len(text.split()) > 20 or text.endswith((".", ";", ",", ":")) and not _title_of(text)[1]:
            return "", i + 1
        return text, j + 1
    if not _title_of(text)[1] or text.endswith(".") or not re.match(r"^[A-ZÄÖÜ“\"'‘„]", text):
        return "", i + 1
    return text, j + 1
