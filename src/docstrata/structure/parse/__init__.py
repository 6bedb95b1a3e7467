"""Markdown (or plain text) → ordered section tree.

Entry point: :func:`parse_sections`. One pass over the lines finds section markers:

* ATX (``## Title ##``) and setext (``Title`` / ``=====``) headings; ``#`` lines inside
  ``` / ``~~~`` fences are code, not headings;
* numbered labels at the start of a line: ``4.2.1.  Title`` (RFC), ``1.1.2<TAB>text``
  (rulebooks), ``SEC. 203. TITLE``, ``Section 203(a)(1)``, ``§ 4.2``, ``Article 17``,
  ``ARTICLE IV``, ``PART 2``, ``Schedule 1``, ``Part 1.Chapter 1.1.(1)``, ``APP1.A1.1``;
* enumerated items ``(a)``, ``(1)``, ``(A)``, ``(i)`` (roman vs letter decided by the
  sequence they continue) and, in Markdown, ordered-list items under a numbered section
  (item 12 of a list under clause 12 is section ``12.12``).

A second pass nests the markers (heading levels, numbering prefixes, item styles) and
normalises ids (``docs/architecture.md``): ``4.2.1``, ``203(a)(1)``, ``article-17``, ``part-2``, a slug for
unnumbered headings, ``preamble`` for text before the first marker. Ids restart under
containers (``Section 1`` of each Article) are qualified by the container
(``article-ii/1``) so ids stay unique.

A numbered line is a heading only when the text after its label reads like a title
(``4.2.1.  Supported Versions``, ``1.2<TAB>Application``). A numbered *paragraph*
(``1.3 "Service Level" means …``, ``5.2 The obligations … survive termination.``,
``3.3.31 An Authorised Person must …``) keeps its line as body text, so the section is not
heading-only, and gets a short title: the defined term, a leading phrase ("Access and
Use.", "In general.—") or its first words with an ellipsis. ``parent_chain`` entries are
cut to about ten words.

False positives are kept out by shape rules: a label must stand at the document's label
indentation, be followed by a tab, two spaces, end of line, or a title-like text; numbers
with a 4-digit part (years), lines with dot leaders (tables of contents), table rows and
fenced code are never sections. A label with a single space before its title needs a blank
line above it, or must continue the numbering of the label right above it (``1.`` → ``1.1`` →
``1.2`` → ``2.``, as in PDF text and tight plain-text contracts), or open it (``1.`` directly
under a title line, confirmed by ``1.1`` on the next line); never under a line that breaks off
mid-sentence ("… extended by", "… see Section") or continues an unrecognised list. In Markdown,
an ``N.`` line that opens or continues dotted clauses (``2.`` then ``2.1``) is a clause, not a
list item; dotted labels are not Markdown list syntax.

An EU-style act's recitals (the numbered paragraphs between "Whereas:" and "HAVE ADOPTED THIS
REGULATION:") are sections ``recital-1`` … of the preamble (:mod:`.recitals`). Which division
keyword holds which is read from the document where its layout says so (GDPR's Chapter > Section >
Article, :mod:`.ranks`); otherwise the keyword table's order holds.

Text boxed in an ASCII frame (``*  6. Disclaimer of Warranty  *`` between rows of ``*``) is
unwrapped first (:mod:`.frames`), so headings inside a box are found like any other.

A paragraph after the last limb of a list, set back to the limbs' label indentation while the
limbs hang deeper (``(c) under …`` / ``    its Contributions.`` / ``This License does not …``),
is flush text of the provision holding the list: a section ``<parent>-flush`` of its own
(:mod:`.flush`), not more text of ``(c)``.

Modules, in pipeline order: ``frames`` (ASCII boxes unwrapped), ``patterns`` (label grammar, marker records), ``labels`` (label and
title reading, numbering arithmetic), ``scan`` (markers found line by line), ``stated`` (the
headings a converter's blocks state, taken as they are), ``recitals`` (an act's
numbered recitals), ``notes`` (a typographic heading above a body line opening with the section number: one numbered
proposal, the marginal-note layout of reprinted statutes), ``filtering`` (subtitles merged, stray labels and items dropped), ``resolve``
(numbered proposals scored as candidates with fitted weights and chosen once per numbering series;
a second proposal pass without the rejected labels), ``ranks``
(container ranks from the document's layout), ``build`` (markers nested into sections with
normalised ids), ``flush`` (flush text after a list), ``ids`` (ids made unique, parent chains and citation aliases).
"""

from __future__ import annotations

import bisect
import re

from ...models import DocumentTree
from .build import _build
from .flush import split_flush_text
from .frames import unframe_boxes
from .filtering import _contents_entries, _filter_markers, _merge_subtitles, _titled_clause
from .ids import _fill_aliases_and_chains, _make_unique
from .patterns import _ATX_RE
from .notes import marginal_note_markers, typographic_heading_lines
from .quotes import quoted_lines
from .recitals import nest_recitals_in_preamble, recital_markers
from .resolve import ParseContext, resolve_candidates
from .scan import _scan
from .stated import stated_heading_markers

__all__ = ["parse_sections"]


def _items_taking_heading_ids(markers: list, sections: list, lines: list[str]) -> set[int]:
    """Positions of list-item markers whose id is the id of a heading or numbered label of the
    document (``1.`` under ``## 3. Processing Model`` would be ``3.1``, the id of ``### 3.1
    Parsing``): the heading's claim is the stronger evidence, so the item, and the list it
    belongs to, stays body text. A list whose items all open with a bold title (``1. **What the
    Company owns.** …``, :func:`.filtering._titled_clause`) is a contract's clauses, evidence as
    strong: it yields only to a heading under the same parent, never to a number of another part
    (``Sec. 1`` of a statute quoted in an exhibit)."""
    offset = len(sections) - len(markers)  # 1 when a preamble section comes first
    claims: dict[str, set] = {}  # id -> the parents of the headings and labels holding it
    for n, m in enumerate(markers):
        if m.kind != "item":
            claims.setdefault(sections[n + offset].section_id, set()).add(sections[n + offset].parent_id)
    items = [n for n, m in enumerate(markers) if m.kind == "item" and m.components[0][0] == "mditem"]
    members: dict[tuple, list[int]] = {}
    for n in items:
        members.setdefault((sections[n + offset].parent_id, markers[n].indent), []).append(n)
    titled = {key for key, ns in members.items() if len(ns) >= 2 and all(_titled_clause(markers[n], lines) for n in ns)}
    lists = set()
    for n in items:
        section = sections[n + offset]
        key = (section.parent_id, markers[n].indent)
        holders = claims.get(section.section_id, set())
        if holders and (key not in titled or section.parent_id in holders):
            lists.add(key)
    return {n for n in items if (sections[n + offset].parent_id, markers[n].indent) in lists}  # the whole list


def _pair_headings_with_bodies(sections: list) -> None:
    """Headings printed before their bodies (a PDF converter emitting ``# 1 Short title``,
    ``# 2 Commencement``, ``# 3 Definitions``, ``# 4 Notes`` and then the four bodies): a run of
    three or more numbered sibling headings, numbered on by one, of which only the last has text,
    that text being exactly as many paragraphs as there are headings, is re-paired in order, one
    paragraph per heading. Any other count is no evidence of the pairing and is left as it is."""
    i = 0
    while i < len(sections):
        first = sections[i]
        j = i
        while (
            j < len(sections)
            and sections[j].heading
            and sections[j].number
            and not sections[j].text.strip()
            and sections[j].level == first.level
            and sections[j].parent_id == first.parent_id
        ):
            j += 1
        if j - i >= 2 and j < len(sections):
            last = sections[j]
            if (
                last.heading
                and last.number
                and last.level == first.level
                and last.parent_id == first.parent_id
                and _consecutive([s.number for s in sections[i : j + 1]])
            ):
                paragraphs = [p.strip("\n") for p in re.split(r"\n[ \t]*\n", last.text) if p.strip()]
                if len(paragraphs) == j - i + 1:
                    for s, text in zip(sections[i : j + 1], paragraphs):
                        s.text = "\n" + text + "\n"
        i = max(j, i + 1)


def _stated_lines(blocks: list, markdown: str) -> frozenset[int]:
    """Lines where a converter's markup states a numbered heading or provision (a legislation XML
    ``<point>`` written ``f) …``): a quotation never runs on over one (:func:`.quotes.quoted_lines`)."""
    from ...convert.document import STATED_PROVENANCES

    starts = [0] + [n + 1 for n, ch in enumerate(markdown) if ch == "\n"]
    return frozenset(
        bisect.bisect_right(starts, b.start) - 1
        for b in blocks
        if b.kind in ("heading", "list_item") and b.provenance in STATED_PROVENANCES and b.number
    )


def _consecutive(numbers: list[str | None]) -> bool:
    """Whether written numbers count on by one in their last component (``1, 2, 3``; ``4.1, 4.2``):
    the run of a publisher's headings, not a heading repeated (``1.1, 1.1, 1.1``) or a jump."""
    parsed = [re.fullmatch(r"(.*?)(\d+)\.?", (n or "").strip()) for n in numbers]
    if not all(parsed):
        return False
    return all(
        b.group(1) == a.group(1) and int(b.group(2)) == int(a.group(2)) + 1  # type: ignore[union-attr]
        for a, b in zip(parsed, parsed[1:])
    )


_LETTERED_HEADING_RE = re.compile(r"^(?P<letter>[A-Z])[ \t]+(?=[A-Z0-9\"“])\S")


def _lettered_appendices(markers: list) -> None:
    """In place: headings lettered ``A``, ``B``, ``C`` … with no keyword (``# A A Worked Example``,
    ``# B Neo4j Serialisation``: LaTeX's ``\\appendix`` prints them so) are appendices when they
    follow, at the same heading level, headings numbered ``1``, ``2`` … and no numbered one comes after
    them: each gets the label ``Appendix A`` (id ``appendix-a``), as ``Appendix B`` cites it. Two at
    least, lettered in order from ``A``: one heading opening with a capital and a space (``A Note on
    Terms``) is a title."""
    by_level: dict[int, list] = {}
    for m in markers:
        if m.kind == "heading" and m.md_level:
            by_level.setdefault(m.md_level, []).append(m)
    for heads in by_level.values():
        lettered = [
            (n, found.group("letter"))
            for n, m in enumerate(heads)
            if not m.components and (found := _LETTERED_HEADING_RE.match(m.title.strip()))
        ]
        if len(lettered) < 2 or [ch for _, ch in lettered] != [chr(65 + k) for k in range(len(lettered))]:
            continue
        first = lettered[0][0]
        if [n for n, _ in lettered] != list(range(first, first + len(lettered))) or first + len(lettered) != len(heads):
            continue  # other headings between or after them: not a run of appendices closing the document
        if not any(re.match(r"\d{1,3}\.?\s", m.title.strip()) for m in heads[:first]):
            continue
        for n, letter in lettered:
            heads[n].components = [("kw:appendix:appendix", letter, f"Appendix {letter}")]


def _proposals(
    lines: list[str],
    markdown_flavour: bool,
    list_items: bool,
    ctx: ParseContext,
    veto: frozenset[int],
    stated_blocks: list | None = None,
    markdown: str = "",
) -> list:
    """Markers proposed by the scanner (never at a ``veto`` line), with the headings a converter's
    blocks state taken as they are (``stated_blocks``, :mod:`.stated`), cleaned up and resolved
    (:func:`.resolve.resolve_candidates`); the lines of the candidates the resolver rejects are added to
    ``ctx.rejected``."""
    markers = _scan(lines, markdown_flavour, veto, ctx)
    _lettered_appendices(markers)
    if not list_items:
        markers = [m for m in markers if not (m.kind == "item" and m.components[0][0] == "mditem")]
    if stated_blocks is not None:
        markers = stated_heading_markers(markers, lines, stated_blocks, markdown)
    markers = marginal_note_markers(markers, lines, ctx.typographic)
    markers = _merge_subtitles(markers, lines, ctx.heading_levels)
    markers = recital_markers(markers, lines)
    markers = _filter_markers(markers, markdown_flavour, lines, ctx.heading_levels)
    # the contents-list rule names entries; the resolver weighs that with the other evidence
    return resolve_candidates(markers, ctx, _contents_entries(markers, lines))


def parse_sections(
    markdown: str,
    doc_key: str,
    title: str,
    *,
    list_items: bool = True,
    heading_levels: bool = False,
    blocks: list | None = None,
    context: ParseContext | None = None,
) -> DocumentTree:
    """Parse ``markdown`` into a :class:`DocumentTree` with sections in document order.

    Args:
        markdown: the document body (Markdown, or plain text treated as Markdown).
        doc_key: the document's id (path relative to the source root).
        title: the document title, used as the preamble's title.
        list_items: whether Markdown ordered-list items may be sections (items of a numbered
            clause). ``False`` for sources whose markup marks sections itself (HTML headings and
            ``<section>``): there an ``<ol>`` is a list, its steps body text of their section.
        heading_levels: whether the Markdown heading levels are the source markup's nesting
            (legislation XML, whose ``<division>`` holds its ``<title>``s): a heading's parent is then
            the nearest heading of a lower level, and container ranks (Title > Division) do not
            re-nest it. ``False`` (text, PDF, HTML): ranks decide where levels are unreliable.
        blocks: the converter's blocks (:class:`~docstrata.convert.document.Block`, offsets into
            ``markdown``). When some heading block states its number from markup, the source states
            its structure: headings are taken from the blocks with their stated level and number
            (:mod:`.stated`), never re-detected, and nest by level (``heading_levels`` is implied).
        context: the resolver's settings (:class:`.resolve.ParseContext`: weights, whether it
            runs, a trace list for ``bench/fit_structure.py``); its ``lines``,
            ``markdown_flavour`` and ``heading_levels`` are filled here. Default: the shipped weights.

    Returns:
        A tree whose ``sections`` cover every line of ``markdown`` exactly once (heading
        lines in ``Section.heading``, the rest in ``Section.text``). A ``preamble`` section
        holds text before the first marker when there is any. Definitions and
        cross-references are left empty (see ``definitions.py`` and ``xrefs.py``).
    """
    lines = unframe_boxes(markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    markdown_flavour = any(_ATX_RE.match(ln) for ln in lines)
    stated = False
    if blocks:  # the converter contract (imported here: reading a tree needs no converter loaded)
        from ...convert.document import states_structure

        stated = states_structure(blocks)
    stated_blocks = blocks if stated else None
    ctx = context or ParseContext(lines)
    ctx.lines, ctx.markdown_flavour, ctx.heading_levels = lines, markdown_flavour, heading_levels or stated
    ctx.rejected = set()
    ctx.typographic = frozenset() if stated else typographic_heading_lines(blocks, markdown)
    # the text an amendment quotes over several lines ("… è inserito il seguente:" / "«Art. 17-bis. -- 1. …"
    # / "2. …" / "6. … »;") is the amended act's, never this document's provisions
    quoted = quoted_lines(lines, _stated_lines(blocks, markdown) if blocks else frozenset())
    markers = _proposals(lines, markdown_flavour, list_items, ctx, quoted, stated_blocks, markdown)
    if ctx.rejected:
        # the scanner's numbering checks read the proposals before each line: once the
        # resolver has rejected some ("05 February 2026"), propose again without them, so a
        # "1 Short title" after the false "05" is read against the numbering that holds
        if ctx.trace is not None:
            del ctx.trace[:]
        markers = _proposals(
            lines, markdown_flavour, list_items, ctx, frozenset(ctx.rejected) | quoted, stated_blocks, markdown
        )
    sections = _build(markers, lines, title, ctx)
    stealing = _items_taking_heading_ids(markers, sections, lines)
    if stealing:
        markers = [m for n, m in enumerate(markers) if n not in stealing]
        sections = _build(markers, lines, title, ctx)
    _pair_headings_with_bodies(sections)
    nest_recitals_in_preamble(sections)
    sections = split_flush_text(sections)
    suffixed = _make_unique(sections)
    _fill_aliases_and_chains(sections, suffixed)
    return DocumentTree(doc_key=doc_key, title=title, sections=sections)
