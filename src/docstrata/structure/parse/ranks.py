"""Container ranks read from the document itself, for :mod:`docstrata.structure.parse`.

The keyword table (:data:`.patterns._KEYWORDS`) gives a default order (Title > Part > Chapter >
Article > Section). Documents disagree with it: GDPR's Chapter III holds Sections 1–5, each of
which holds Articles; an Australian Act's Chapter 2 holds Parts; the US CFR's Chapter holds Parts;
a constitution's Article II holds Sections. The document's own layout says which keyword holds
which:

* **opening**: a division heading (or titled label) followed, with nothing between but its own
  title line(s), by a heading of another keyword opens a group of those (``## Section 3`` /
  "Rectification and erasure" / ``### Article 16``: Section holds Article);
* **Markdown levels**: a strict opposite separation (every ``Section`` heading deeper than every
  ``Article`` heading) vetoes two opening votes, not three or more: levels from a PDF heading
  recovery are often off (the AI Act's ``### SECTION 4`` under ``## Article 27``), and levels alone
  never override the table.

:func:`document_ranks` turns the net votes into a rank per keyword; where a vote contradicts the
table (or the keyword is a bare numbered unit, ``Section 203``), the holding keyword moves just
above the held one. A bare keyword (``Section``, ``§``, ``Rule``, whose numbers are plain section
numbers) that holds another keyword is a container in this document: its ids get the keyword
(``section-3``, qualified by its Chapter, ``chapter-iii/section-3``).
"""

from __future__ import annotations

from itertools import pairwise

from ..grammar import canonical_label
from .labels import _heading_label, _title_of
from .patterns import _KEYWORDS, _Marker

# written keyword → the keyword it means (ranks are per meaning, not per spelling): sec, sect, § →
# section; art → article; app → appendix (the citation grammar's label forms)
_CANON = {form: canonical_label(form) for form in _KEYWORDS if canonical_label(form) != form}
_NUMBERED = 9  # the rank of a numbered unit that holds no container (a bare "Section 203", "4.2")


def canonical_keyword(marker: _Marker) -> str | None:
    """The keyword a heading or label is numbered by (``section`` for ``Sec. 3``), or ``None``."""
    comps = _heading_label(marker)
    if not comps or not comps[0][0].startswith("kw:"):
        return None
    kw = comps[0][0].split(":")[2]
    return _CANON.get(kw, kw)


def default_rank(keyword: str) -> float:
    """The table's rank of ``keyword``; a keyword without an id prefix is a numbered unit (9)."""
    prefix, rank = _KEYWORDS.get(keyword, ("", _NUMBERED))
    return rank if prefix else _NUMBERED


def _title_only(lines: list[str]) -> bool:
    """The lines between two headings are at most the first one's title ("Rectification and
    erasure"): two short non-blank lines at most, none reading as a sentence."""
    text = [ln.strip() for ln in lines if ln.strip()]
    return len(text) <= 2 and all(
        len(t.split()) <= 14 and _title_of(t)[1] and not t.endswith((".", ";", ":", ",")) for t in text
    )


def _opening_votes(markers: list[_Marker], lines: list[str]) -> dict[tuple[str, str], int]:
    """Net votes ``(holder, held) → n``: how often a ``holder`` division directly opens a ``held``
    one, minus the reverse."""
    votes: dict[tuple[str, str], int] = {}
    for a, b in pairwise(markers):
        if not (a.kind == "heading" or a.heading) or not (b.kind == "heading" or b.heading):
            continue
        ka, kb = canonical_keyword(a), canonical_keyword(b)
        if not ka or not kb or ka == kb or not _title_only(lines[a.end : b.line]):
            continue
        votes[(ka, kb)] = votes.get((ka, kb), 0) + 1
        votes[(kb, ka)] = votes.get((kb, ka), 0) - 1
    return votes


def _level_order(markers: list[_Marker], holder: str, held: str) -> int:
    """+1 when every ``holder`` heading has fewer ``#`` than every ``held`` one, -1 for the strict
    reverse, 0 otherwise (or when either is never a Markdown heading)."""
    la = [m.md_level for m in markers if m.kind == "heading" and canonical_keyword(m) == holder]
    lb = [m.md_level for m in markers if m.kind == "heading" and canonical_keyword(m) == held]
    if not la or not lb:
        return 0
    return 1 if max(la) < min(lb) else -1 if min(la) > max(lb) else 0


def document_ranks(markers: list[_Marker], lines: list[str]) -> dict[str, float]:
    """Rank overrides for this document: keyword → rank, only for keywords the evidence moves.

    A holder whose divisions open divisions of a held keyword at least twice, net, and for at least
    half of the holder's divisions (a container opens with its first member; an Article followed by
    the next Chapter now and then is no evidence), not vetoed by the Markdown levels (two votes
    only), is placed just above the held keyword (its rank minus ½; halfway to the holder's own
    holder when that is closer) whenever the current ranks do not already put it above. Votes are applied strongest first, and a
    vote that would undo one already applied (a cycle) is dropped."""
    votes = _opening_votes(markers, lines)
    counts: dict[str, int] = {}  # divisions of each keyword: a holder opens most of its own
    for m in markers:
        if (m.kind == "heading" or m.heading) and (k := canonical_keyword(m)):
            counts[k] = counts.get(k, 0) + 1
    ranks: dict[str, float] = {}

    def rank(k: str) -> float:
        return ranks.get(k, default_rank(k))

    applied: set[tuple[str, str]] = set()
    for (holder, held), n in sorted(votes.items(), key=lambda kv: -kv[1]):
        if (
            n < 2
            or 2 * n < counts.get(holder, 0)
            or n < 3
            and _level_order(markers, holder, held) < 0
            or rank(holder) < rank(held)
        ):
            continue
        if any((held, holder) == e for e in applied):
            continue
        new = rank(held) - 0.5
        # stay below the containers that hold the holder by the same evidence
        above = [rank(h) for (h, k) in applied if k == holder]
        if above and new <= max(above):
            new = (max(above) + rank(held)) / 2
        ranks[holder] = new
        applied.add((holder, held))
    return ranks
