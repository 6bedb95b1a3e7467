"""Marginal-note headings (:mod:`docstrata.structure.parse`): a section whose title is printed as a
heading line *above* the body line that opens with the section number.

Statutes typeset in the Commonwealth reprint style (Laws of Malaysia, Indian and Kenyan Acts,
older Singapore reprints) set each section's marginal (shoulder) note as a bold line above the
provision, and the number starts the provision's first line::

    #### What agreements are contracts        <- a typographic heading (PDF font statistics)

    10. (1) All agreements are contracts if …  <- the section number opens the body

Read separately, the heading is an unnumbered section (a slug id) and ``10.`` a list item of it.
Here the pair becomes ONE numbered proposal: a label marker spanning the heading line, numbered by
the body line, titled by the heading. It is still only a proposal: :mod:`.resolve` scores it with
the other candidates (feature ``typography``: its title comes from a heading the converter read
from the page's typography, never from markup), so numbering continuity and the document's own
contents decide, not this rule. See ``docs/architecture.md`` ("Where structure knowledge lives").

Only headings whose block provenance is typographic (``font`` / ``layout``: the converter inferred
them) are paired; a heading the source's markup or outline states is structure as stated.
"""

from __future__ import annotations

import re

from ..grammar import PROVISION_OPENS, without_amendment_mark
from .labels import _heading_label, _ordinal, _plain, _title_of
from .patterns import _Marker

# "10. (1) All agreements …", "24A. Where …", "3. The principal Act …", "1.—(1) A person …": a section number
# opening a body line as statutes print it (grammar.PROVISION_OPENS; not "(1)", not a dotted "4.2" clause)
_NUMBER_OPENS_BODY = re.compile(rf"^{PROVISION_OPENS}(?P<rest>\S.*)$")
# "(1) A data user …" right after that number: the section's first subsection
_FIRST_SUBSECTION = re.compile(r"^\(1\)[\s\u00a0]+(?P<rest>\S.*)$")


def typographic_heading_lines(blocks: list | None, markdown: str) -> frozenset[int]:
    """0-based lines of ``markdown`` where a heading block the converter inferred from typography
    starts (provenance ``font`` or ``layout``: a PDF's bold or larger lines, OCR line heights).
    ``blocks``: :class:`~docstrata.convert.document.Block` list (offsets into ``markdown``) or
    ``None`` (no blocks: nothing is typographic)."""
    if not blocks:
        return frozenset()
    starts = sorted(b.start for b in blocks if b.kind == "heading" and b.provenance in ("font", "layout"))
    if not starts:
        return frozenset()
    out, line, pos, k = set(), 0, 0, 0
    for ch_line in markdown.split("\n"):
        end = pos + len(ch_line) + 1
        while k < len(starts) and starts[k] < end:
            if starts[k] >= pos:
                out.add(line)
            k += 1
        pos, line = end, line + 1
    return frozenset(out)


def marginal_note_markers(markers: list[_Marker], lines: list[str], typographic: frozenset[int]) -> list[_Marker]:
    """``markers`` with each unnumbered typographic heading that stands right above a body line
    opening with a section number (only blank lines between), the numbers of such pairs running on
    through the document (:func:`_in_series`), replaced by one label marker: its
    lines are the heading's, its number the body line's, its title the heading's words. A marker
    the scanner proposed at that body line (a ``10.`` list item) is dropped: the pair is one
    proposal. The label keeps the heading's Markdown level (``md_level``), so in nesting it closes the
    unnumbered headings of its type size before it (an ``ILLUSTRATIONS`` line of the section above)
    as a printed sibling does. Headings of markup, outlines and Markdown files are never paired."""
    if not typographic:
        return markers
    at_line = {m.line: n for n, m in enumerate(markers)}
    pairs: dict[int, tuple[int, re.Match]] = {}  # heading position -> (body line, its number)
    for n, m in enumerate(markers):
        if m.kind != "heading" or m.line not in typographic or _heading_label(m):
            continue
        j = m.end
        while j < len(lines) and not lines[j].strip():
            j += 1
        # the number may follow an amendment mark ("1[33. Parliament may …": grammar.without_amendment_mark)
        hit = _NUMBER_OPENS_BODY.match(without_amendment_mark(_plain(lines[j].strip()))) if j < len(lines) else None
        other = at_line.get(j)
        if hit is not None and not (other is not None and markers[other].kind == "heading"):
            pairs[n] = (j, hit)
    pairs = _in_series(_without_contents_entries(pairs, markers))
    drop: set[int] = set()
    out: list[_Marker] = []
    for n, m in enumerate(markers):
        if n in drop:
            continue
        if n not in pairs:
            out.append(m)
            continue
        j, hit = pairs[n]
        other = at_line.get(j)
        if other is not None:
            drop.add(other)
        num = hit.group("num")
        written = f"{num}."
        title = _plain(m.title).strip()
        out.append(
            _Marker(
                m.line,
                m.end,
                "label",
                m.heading,
                f"{written} {title}".strip(),
                md_level=m.md_level,
                indent=len(lines[j]) - len(lines[j].lstrip()),
                components=[("num", num, written)],
            )
        )
        if first := _FIRST_SUBSECTION.match(hit.group("rest")):
            out.append(_first_subsection(j, lines[j], first))
    return out


def _without_contents_entries(
    pairs: dict[int, tuple[int, re.Match]], markers: list[_Marker]
) -> dict[int, tuple[int, re.Match]]:
    """The pairs less those whose body line is a contents entry: its text after the number is,
    word for word, the note of another pair of that number (an Act's arrangement of sections lists
    ``4. Territorial scope of offences under this Act.`` under its cross-heading ``Jurisdiction``,
    and the body prints that note beside ``4.—(1) …``). The cross-heading over the entry titles no
    section 4."""
    notes: dict[str, set[str]] = {}
    for n, (_, hit) in pairs.items():
        notes.setdefault(hit.group("num"), set()).add(_words(markers[n].title))
    return {
        n: (j, hit)
        for n, (j, hit) in pairs.items()
        if _words(hit.group("rest")) not in notes[hit.group("num")] - {_words(markers[n].title)}
    }


def _words(text: str) -> str:
    """``text``'s words, case-folded, without its punctuation and emphasis marks."""
    return " ".join(re.findall(r"[^\W_]+", _plain(text).casefold()))


def _first_subsection(j: int, line: str, first: re.Match) -> _Marker:
    """The item marker of subsection ``(1)`` that the body line ``j`` opens after the section
    number (``6. (1) A data user shall not—``): the section's own text is its subsections, so the
    ``(2)``, ``(3)`` lines below continue a list that starts here and the paragraphs ``(a)``, ``(b)``
    under it are ``6(1)(a)``, not paragraphs of the section beside those of ``6(2)``."""
    title, _ = _title_of(first.group("rest"))
    return _Marker(
        j,
        j + 1,
        "item",
        "",
        f"(1) {title}".strip(),
        indent=len(line) - len(line.lstrip()),
        style="digit",
        value=1,
        marker_text="(1)",
        components=[("paren", "(1)", "(1)")],
    )


def _in_series(pairs: dict[int, tuple[int, re.Match]]) -> dict[int, tuple[int, re.Match]]:
    """The pairs whose numbers run on through the document: each kept number is above the one of
    the pair before it or below the one after it (10, 11, 12A, 14 …), and at least three pairs do.
    Headings over lists that each start at ``1.`` (a playbook's "Challenge Definition" / "1. …",
    "Current situation" / "1. We have") make no series: they stay a heading and its list."""
    keys = sorted(pairs)
    ords = [_ordinal(pairs[k][1].group("num")) for k in keys]
    kept = {}
    for i, k in enumerate(keys):
        o = ords[i]
        if o is None:
            continue
        before = ords[i - 1] if i > 0 else None
        after = ords[i + 1] if i + 1 < len(keys) else None
        up = before is not None and before < o
        on = after is not None and o < after
        if up or on:
            kept[k] = pairs[k]
    return kept if len(kept) >= 3 else {}
