"""Recitals for :mod:`docstrata.structure.parse`: the numbered paragraphs of an EU-style act's
preamble become sections of their own (``recital-26``, titled "Recital 26").

An EU Regulation, Directive or Decision opens with citations ("Having regard to …") and the
enacting formula's "Whereas:", then numbered recitals ``(1)`` … ``(173)`` (``1. | …`` in some
Markdown renderings), then "HAVE ADOPTED THIS REGULATION:" and the enacting terms (Chapters,
Articles). The evidence for a recital is positional: a paragraph numbered in sequence (1, 2, 3 …,
gaps of at most two) between the document's "Whereas" line and the line that closes the preamble
(the adopting formula, else the first keyword-numbered heading or label: ``CHAPTER I``,
``Article 1``). Nothing outside that zone is read this way, so the numbered paragraphs ``1.`` /
``(1)`` of an Article stay that Article's paragraphs. The numbers are the heaviest chain 1, 2, 3 …
in line order, so footnote numbers a PDF rendering prints between recitals do not break it. A
contract's "Recitals" heading opens the same reading, closed only by its operative formula
("NOW, THEREFORE …"). Headings between the recitals are a converter's artefacts and stay text.

The whereas line and the closing formula are written the same way in the Official Journal in
every language; English, French, German, Italian, Spanish, Dutch and Portuguese are recognised.
"""

from __future__ import annotations

import re

from .labels import _heading_label, _plain
from .patterns import _FENCE_RE, _Marker

# the line that opens the recitals: "Whereas:", "### Whereas:", "**Whereas**:", "considérant ce qui suit:"
_WHEREAS_RE = re.compile(
    r"^\s*(?:#{1,6}\s+)?[*_]*(?:whereas|considérant ce qui suit|in erwägung nachstehender gründe|"
    r"considerando quanto segue|considerando lo siguiente|overwegende hetgeen volgt|considerando o seguinte)"
    r"[*_]*\s*[:,]?[*_]*\s*$"
    r"|^\s*#{1,6}\s+[*_]*(?:whereas(?:\s+clauses)?|recitals)[*_]*\s*:?\s*$",
    re.IGNORECASE,
)  # "## Whereas Clauses"
# the line that closes them: "HAVE ADOPTED THIS REGULATION:", "HAS ADOPTED THIS DECISION:", the
# enacting formula of an act with a "WHEREAS" preamble ("BE it enacted by Parliament in the Fifty-first Year …")
_ADOPTED_RE = re.compile(
    r"^\s*(?:#{1,6}\s+)?[*_]*(?:ha(?:ve|s)\s+adopted\s+th(?:is|ese)\b|ont adopté|a adopté|"
    r"haben folgende|hat folgende|hanno adottato|ha adottato|han adoptado|ha adoptado|hebben de volgende|"
    r"heeft de volgende|adotaram|adotou|now,? therefore|it is (?:hereby )?agreed|the parties agree|"
    r"be it (?:therefore |further )?enacted|enacted by)",  # a Commonwealth act's "BE it enacted by Parliament …"
    re.IGNORECASE,
)
# a recital's number opening its line, after any list or table syntax: "(26)", "26.", "26. |", "[26]"
_NUMBER_RE = re.compile(
    r"^\s*(?:#{1,6}\s+|[-*+]\s+)?(?:\|\s*)?[*_]*(?:\((?P<p>\d{1,3})\)|(?P<d>\d{1,3})\.|\[(?P<b>\d{1,3})\])"
    r"[*_]*(?=\s|\||$)"
)
_CLOSING_KINDS = ("kw:",)  # a keyword label or heading (CHAPTER I, Article 1, TITLE I) ends the preamble


def recital_zone(lines: list[str], markers: list[_Marker]) -> tuple[int, int] | None:
    """(first, end) line span of the recitals: from the line after the first "Whereas" line to the
    adopting formula ("HAVE ADOPTED THIS REGULATION:", a contract's "NOW, THEREFORE"), else to the
    first marker that carries a keyword label (``CHAPTER I``, ``Article 1``) after it; after a
    "Recitals" heading, to a formula only. ``None`` when the document has no whereas line before
    its first keyword-numbered marker, or nothing closes the zone."""
    fence = False
    start = None
    for i, ln in enumerate(lines):
        if _FENCE_RE.match(ln):
            fence = not fence
        if not fence and _WHEREAS_RE.match(ln):
            start = i + 1
            break
    if start is None:
        return None
    # "## Recitals" alone (a contract's background) is weaker evidence than "Whereas": its numbered
    # paragraphs are recitals only up to a closing formula ("NOW, THEREFORE", "HAVE ADOPTED"), never
    # up to some later keyword heading with the contract's own numbered clauses in between
    formula_only = not re.search(r"whereas", lines[start - 1], re.IGNORECASE)

    def closes(m: _Marker) -> bool:  # a keyword heading or titled label: "## CHAPTER I", "Article 1"
        return (m.kind == "heading" or bool(m.heading)) and any(
            k.startswith(_CLOSING_KINDS) for k, _, _ in (_heading_label(m) or [])
        )

    first_keyword = next((m.line for m in markers if m.line < start and closes(m)), None)
    if first_keyword is not None:
        return None  # "whereas" after the enacting terms began is prose ("… whereas the …"), not a preamble
    end = next((i for i in range(start, len(lines)) if _ADOPTED_RE.match(lines[i])), None)
    closing = next((m.line for m in markers if m.line >= start and closes(m)), None)
    if end is None and not formula_only or end is not None and closing is not None and closing < end:
        end = closing
    return (start, end) if end is not None else None


def recital_markers(markers: list[_Marker], lines: list[str]) -> list[_Marker]:
    """``markers`` with the recitals of the document's preamble as ``label`` markers numbered
    ``recital-N`` (components ``kw:recital:recital``), replacing whatever marker the scan found on
    those lines (a list item ``1.``, an item ``(1)``, a bare numbered label). The other markers of the
    zone stay (a heading, the points ``(a)`` of a recital). A recital's line is its body text.

    Returns ``markers`` unchanged when the document has no recital zone or no recital 1 in it."""
    zone = recital_zone(lines, markers)
    if zone is None:
        return markers
    start, end = zone
    found = _recital_sequence(lines, start, end)
    if not found:
        return markers
    taken = {i for i, _, _ in found}
    # between the first recital and the end of the zone nothing is a heading: a preamble has no
    # divisions, so a heading line there is a converter's artefact (a footnote's "### (4)" or the
    # title of a cited act set as a heading by a PDF rendering) and stays text of its recital
    kept = [m for m in markers if not (m.line in taken or m.kind == "heading" and found[0][0] < m.line < end)]
    for i, n, written in found:
        kept.append(
            _Marker(
                i,
                i + 1,
                "label",
                "",
                f"Recital {n}",
                indent=0,
                components=[("kw:recital:recital", str(n), f"Recital {n}")],
                marker_text=written,
            )
        )
    level = next((m.md_level for m in reversed(kept) if m.kind == "heading" and m.line < start), 0)
    after = next((m for m in kept if m.line > end), None)
    if (
        end < len(lines)
        and _ADOPTED_RE.match(lines[end])
        and not any(m.line == end for m in kept)
        and not (after is not None and after.kind == "label")
    ):
        # "HAVE ADOPTED THIS REGULATION:" closes the preamble: a section of its own, not the last
        # recital's final line (nor the holder of a contract's "1." clauses after "NOW, THEREFORE"),
        # at the level of the heading that opened the recitals or of the heading after it, whichever
        # is higher; not where plain-text labels ("Chapter 1") follow, which a heading would hold
        if after is not None and after.kind == "heading":
            level = min(level or after.md_level, after.md_level)
        kept.append(_Marker(end, end + 1, "heading", lines[end], _plain(lines[end].strip(" #*_")), md_level=level or 1))
    kept.sort(key=lambda m: m.line)
    return kept


def _recital_sequence(lines: list[str], start: int, end: int) -> list[tuple[int, int, str]]:
    """(line, number, as written) of the recitals between ``start`` and ``end``: the heaviest chain
    of numbered paragraphs 1, 2, 3 … in line order (a step may skip up to two numbers, at a cost of
    half a recital each). A paragraph weighs 1 plus a little for its length, so among chains of one
    length the one through full paragraphs wins over one through footnotes ("(4) OJ C 97, 28.2.2022,
    p. 60.") that a PDF rendering prints between the recitals with numbers of their own."""
    cands: list[tuple[int, int, str]] = []
    for i in range(start, end):
        m = _NUMBER_RE.match(lines[i])
        if m and _starts_paragraph(lines, i):
            cands.append((i, int(m.group("p") or m.group("d") or m.group("b")), m.group(0).strip(" |*_-+#")))
    weights = []
    for k, (i, _, _) in enumerate(cands):
        stop = cands[k + 1][0] if k + 1 < len(cands) else end
        words = sum(len(ln.split()) for ln in lines[i:stop])
        weights.append(1 + min(words, 200) / 1000)
    best: list[float] = []
    pred: list[int | None] = []
    last_of: dict[int, list[int]] = {}  # number → candidate positions so far
    for k, (_, n, _) in enumerate(cands):
        score, via = (weights[k], None) if n == 1 else (float("-inf"), None)
        for step in (1, 2, 3):
            for j in last_of.get(n - step, ()):
                if best[j] > float("-inf") and best[j] + weights[k] - 0.5 * (step - 1) > score:
                    score, via = best[j] + weights[k] - 0.5 * (step - 1), j
        best.append(score)
        pred.append(via)
        last_of.setdefault(n, []).append(k)
    if not best or max(best) == float("-inf"):
        return []
    k: int | None = max(range(len(best)), key=lambda x: best[x])
    chain = []
    while k is not None:
        chain.append(cands[k])
        k = pred[k]
    return chain[::-1]


def _starts_paragraph(lines: list[str], i: int) -> bool:
    """The numbered line opens a paragraph: a blank line, a heading, an HTML anchor
    (``<a name="rec2"></a>``) or another recital's end is above it, not a sentence going on."""
    if i == 0:
        return True
    above = lines[i - 1].strip()
    return not above or above.startswith(("#", "<")) or bool(re.search(r"[.;:]\s*(?:<[^>]+>\s*)*$", above))


def nest_recitals_in_preamble(sections: list) -> None:
    """Recitals standing at the top level (the "Whereas:" line was plain text of the preamble, no
    heading to hold them) and their points go one level down, under the ``preamble`` section that
    holds the citations and the whereas line. In place; parents follow from levels
    (:func:`.ids._fill_aliases_and_chains`)."""
    if not sections or sections[0].section_id != "preamble":
        return
    inside = False
    for s in sections[1:]:
        if s.level == 1:
            inside = s.section_id.startswith("recital-")
        if inside:
            s.level += 1
