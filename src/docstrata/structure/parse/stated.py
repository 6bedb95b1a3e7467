"""Headings the source states (:mod:`docstrata.structure.parse`): section markers built straight
from a converter's heading blocks (``docs/architecture.md``, "Stated structure").

A converter that reads structure from markup (legislation XML, gesetze-im-internet, kramdown-rfc,
xml2rfc) returns heading :class:`~docstrata.convert.document.Block`\\ s with provenance ``markup``,
their nesting depth as ``level`` and their printed number as ``number``. Those headings are not
re-detected from the Markdown: each becomes a heading marker whose nesting level is the stated
level and whose label components come from the stated number (``§ 13`` → ``13``, ``Abschnitt 2``
→ ``abschnitt-2``, ``A.1`` → ``A.1``, ``Appendix B`` → ``appendix-b``). A number the label grammar
does not know (``Buch 2``: a container word of one family) still names its container, ``buch-2``.
A Word document's clause outline is stated the same way by its list numbering (provenance
``numbering``, :mod:`docstrata.convert.docx_numbering`): each numbered clause, a heading or a body
paragraph (``1.2 The Supplier shall …``), is a marker at its numbering level with the number Word
displays (a lone ``a.`` below a clause is the pinpoint ``(a)``: section ``1.2(a)``), and a line so
stated is no other marker's.
Only the unmarked text between the headings (numbered provisions ``(1)``, ``1.``) goes through
detection; a paragraph the markup states as a paragraph holds no section start, nor does a keyword
label in body text (the source states every unit a keyword names).
"""

from __future__ import annotations

import re

from ..grammar import ROMAN_PATTERN, keyword
from .labels import _components, _plain, _title_of
from .patterns import _KEYWORDS, _Marker

STATED_PROVENANCES = ("markup", "numbering")  # as convert.document.STATED_PROVENANCES

_RANGE = re.compile(r"[–—,]|\d\s*-\s*\d|\bto\b")
# a section number printed after a code's abbreviation: "NRS 1.130", "ORS 90.100", "RCW 1.04.010", "C.R.S. 13-1-101"
_CODE_SECTION = re.compile(r"^(?P<abbr>[A-Z][A-Z.]{1,7})\s+(?P<num>\d{1,4}[A-Za-z]?(?:[.-]\d{1,5}[A-Za-z]{0,2}){1,3})$")
_WORD_NUMBER = re.compile(
    rf"^(?P<word>[^\W\d_]{{2,30}})\.?\s+(?P<num>[0-9]{{1,5}}[A-Za-z]{{0,3}}|{ROMAN_PATTERN}|[A-Z])$"
)


def stated_components(number: str) -> list[tuple[str, str, str]] | None:
    """Label components of a stated heading number: a code's section number after the code's
    abbreviation as one number (``NRS 1.130`` → ``1.130``), the label grammar's reading (``§ 13``,
    ``Article 2``, ``4.2.1``, ``Appendix A``) or, for ``<Word> <number>`` the grammar does not know
    (``Buch 2``, ``Titel 3``), one container component named by the word; ``None`` otherwise, and
    for a span (``PARTS 400–446``), whose heading text is then read as any heading's."""
    code = _CODE_SECTION.match(number.strip())
    if code and code.group("abbr").lower().rstrip(".") not in _KEYWORDS:
        # "NRS 1.130", "C.R.S. 13-1-101": a code's abbreviation before its section number, one number
        # (chapter 1's section 130, never section 130 inside a section 1), its id "1.130"
        return [("num", code.group("num"), number.strip())]
    if re.fullmatch(r"\d{1,4}[A-Za-z]{0,2}(?:\.\d{1,5}[A-Za-z]{0,2}){1,3}", number.strip()) and re.search(
        r"\d{4}", number.split(".", 1)[1]
    ):
        # "72A.1010", "1.4695": a code's section number (Oregon's, Nevada's inserted ones), no clause path:
        # the label grammar reads three digits a level, this is one number
        return [("num", number.strip(), number.strip())]
    if _RANGE.search(number):  # "PARTS 400–446 [RESERVED]", "§§ 3, 4": a span of units, not one number
        return None
    lone = keyword(number.strip())
    if lone is not None and "back" in lone.roles and lone.prefix:
        # "Schedule" of an Act with only one: the back-matter container unnumbered, id "schedule" (what
        # ids and xrefs know as an Act's only schedule), never a slug of its title
        return [(f"kw:{lone.kind}:{lone.prefix}", "", number.strip())]
    comps = _components(number.strip(), joined=True)
    m = _WORD_NUMBER.match(number.strip())
    if comps and not (m and not any(k.startswith("kw:") for k, _, _ in comps)):
        return comps  # the grammar read the whole label, not just the number after a word it does not know
    m = _WORD_NUMBER.match(number.strip())
    if m:
        word = m.group("word").lower()
        return [(f"kw:{word}:{word}", m.group("num"), number.strip())]
    return None


def stated_heading_markers(markers: list[_Marker], lines: list[str], blocks: list, markdown: str) -> list[_Marker]:
    """``markers`` with every heading marker replaced by the markers of the stated heading blocks
    (see module docstring); other markers (items, labels in body text) are kept in line order.
    ``lines`` are the parser's lines of ``markdown`` (one per line of it), block offsets point into
    ``markdown``."""
    text_starts, pos = [], 0
    for ln in markdown.split("\n"):
        text_starts.append(pos)
        pos += len(ln) + 1
    stated: list[_Marker] = []
    line_of = _line_finder(text_starts)
    for b in blocks:
        if _stated_item(b):
            i = line_of(b.start)
            if i < len(lines):
                stated.append(_item_marker(b, i, lines[i]))
            continue
        if b.kind != "heading" or b.provenance not in STATED_PROVENANCES or b.level is None:
            continue
        i = line_of(b.start)
        # a Word clause numbered in its list (provenance "numbering") may be a body paragraph, no "#" line
        if i >= len(lines) or not (lines[i].lstrip().startswith("#") or b.provenance == "numbering"):
            continue
        words = lines[i].strip().lstrip("#").strip()
        body_clause = b.provenance == "numbering" and not lines[i].lstrip().startswith("#")
        if body_clause and b.title and (at := words.find(b.title)) >= 0:  # its run-in title, not its paragraph
            words = words[: at + len(b.title)]
        elif body_clause and b.number and len(parts := words.split(None, 1)) == 2:
            title, whole = _title_of(parts[1])  # an untitled clause: a short title, as detection gives one
            words = words if whole else f"{parts[0]} {title}"
        m = _Marker(i, i + 1, "heading", lines[i], _plain(words), md_level=b.level, markup_numbers=True)
        if b.number and (comps := stated_components(b.number)):
            m.components = comps
        m.title_stated = b.provenance == "markup" and b.title is not None
        stated.append(m)
    taken = {m.line for m in stated}
    # a paragraph the markup states as one (a kramdown-rfc / xml2rfc paragraph, a legislation note)
    # holds no section start: a numbered line in it is running text ("Section 5.2.1 (otherwise …")
    prose = [(line_of(b.start), line_of(b.end)) for b in blocks if b.kind == "paragraph" and b.provenance == "markup"]
    # and a source that states its units states every unit named by a keyword (§ 19, Section 5, Title
    # 27): such a label in body text is a citation or a note ("§ 19 Absatz 7 … findet Anwendung."),
    # while numbered provisions printed in the text ("(1)", "1.", "a)") are still read from it
    kept = [
        m
        for m in markers
        if m.line not in taken  # a stated line is no other marker's (a Word "4." item)
        # a "# …" line inside a paragraph the markup states (a slide's text box holding a code sample's
        # "# TaskFlow API") is that paragraph's text: only the stated headings are headings
        and not _inside(m.line, prose)
        and not (m.kind != "heading" and _keyword_label(m))
    ]
    return sorted(kept + stated, key=lambda m: m.line)


def _stated_item(b) -> bool:
    """A list entry the markup states with its printed label and its depth (``level``): an
    Anlage's ``<DT>2.6.1</DT>`` entry in gesetze-im-internet XML."""
    return b.kind == "list_item" and b.provenance == "markup" and b.level is not None and bool(b.number)


def _item_marker(b, i: int, line: str) -> _Marker:
    """The marker of a stated list entry (:func:`_stated_item`): nested at its stated level, numbered
    as an item of the unit it stands in (``2.6.1`` in Anlage 2 → ``anlage-2(2.6.1)``, ``a)`` below
    it → ``anlage-2(2.6.1)(a)``), never as a number of the document's own sections. Its line is the
    item's own text, as a detected item's is (``(1) Inventory.— The term “inventory” means …``): no
    heading line, so the section's ``text`` holds its words (token counts, a chunk's body, the
    definitions and references read there), never an empty body under a one-line heading."""
    label = b.number.strip()
    inner = label.strip("()").rstrip(".)").strip() or label
    words = line.strip()
    rest = words[len(label) :] if words.startswith(label) else words
    title, _ = _title_of(rest)
    m = _Marker(i, i + 1, "heading", "", " ".join(x for x in (label, title) if x), md_level=b.level)
    m.markup_numbers = True
    m.components = [("paren", f"({inner})", label)]
    return m


def _keyword_label(m: _Marker) -> bool:
    return m.kind == "label" and any(k.startswith("kw:") for k, _, _ in m.components)


def _inside(line: int, spans: list[tuple[int, int]]) -> bool:
    import bisect

    k = bisect.bisect_right(spans, (line, 1 << 30)) - 1
    return k >= 0 and spans[k][0] <= line <= spans[k][1]


def _line_finder(starts: list[int]):
    import bisect

    def line_of(offset: int) -> int:
        return bisect.bisect_right(starts, offset) - 1

    return line_of
