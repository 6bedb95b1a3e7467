"""PDF heading recovery for ``convert``: headings marked from the PDF outline where it matches the
text layer, otherwise from font size / weight / family statistics plus numbering patterns."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ..structure.grammar import (
    CLAUSE_NUMBER,
    PROVISION_NUMBER,
    contents_title_pattern,
    is_contents_title,
    keyword_words,
    names_instrument,
)
from .pdf_layout import _BOLD_FONT, _body_style, _PdfLine, _vertical_overlap
from .text import normalize_heading

_PDF_NUMBERING = re.compile(
    rf"^(\d+(\.\d+)*\.?|[A-Z]\.(\d+\.?)*|[IVXLC]+\.|({'|'.join(keyword_words('label'))})"
    r"\s+[\dIVXLC]+[A-Z]?\.?|§+\s*\d+)(\s|$)",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(r"^(\d+(\.\d+)*\.?|[A-Z]\.|[IVXLC]+\.)$")
# A heading line opening with a section number ("1.", "2.3", "Article 4"), not a wrapped title's
# next line that happens to start with a figure ("2020 Annual Report").
_NEW_NUMBER = re.compile(
    rf"^({CLAUSE_NUMBER}\.(\s|$)|\d{{1,3}}(\.\d{{1,3}})+\s)|^(?!\d)" + _PDF_NUMBERING.pattern[1:], re.IGNORECASE
)
# dot leaders (dots or ellipsis characters "……"), with the page number ("7", "iv", an appendix's "A.1-5") on
# the line or set in a column of its own (". . . . .")
_TOC_LINE = re.compile(
    r"([.…]\s?){4,}\s*([\divxlc]+|[A-Z]{1,2}[-.]\d{1,3}([-.]\d{1,3})?)\s*$|[.…]{3,}\s*$|(\.\s){4,}\.?\s*$",
    re.IGNORECASE,
)
# the section number a line prints before an outline entry's title ("6.2.1 Amendment Documents"
# for the bookmark "Amendment Documents")
_PRINTED_NUMBER_KEY = re.compile(rf"^(?:{CLAUSE_NUMBER}|[a-z](?:\.\d{{1,3}})*|[ivxlc]{{1,6}})\s+(?=\S)")
# "Figure 3", "Table 8-1", "Table A.2", "Table IV" — not the heading "Table of Contents"
_CAPTION = re.compile(r"^(figure|fig\.|table|listing|example)\s+(\d[\w.-]*|[a-z](\.\d+)*|[ivxlc]+)\b", re.IGNORECASE)
_MONO_FONT = re.compile(r"courier|mono|consol|menlo|inconsolata|code", re.IGNORECASE)
# an outline entry naming the document's own contents pages ("Table of Contents", "List of Figures")
# or its back-of-book index: found wherever its title line stands, not in outline order
_CONTENTS_ENTRY = contents_title_pattern()  # the citation grammar's contents, lists and index titles


_NUMBER_WORDS = {
    word: str(n) for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
        " sixteen seventeen eighteen nineteen twenty".split()
    )
}  # fmt: skip


def _outline_key(text: str) -> str:
    """Comparable form of an outline entry or a text line: ``normalize_heading`` with number words
    as digits, so the bookmark ``Chapter 1: Introduction`` matches the printed ``CHAPTER ONE``
    / ``INTRODUCTION``."""
    return " ".join(_NUMBER_WORDS.get(word, word) for word in normalize_heading(text).split())


def _after_stray_glyph(key: str, target: str) -> bool:
    """The line is the entry behind one stray token of at most two characters: a margin glyph
    (a rotated side note's letter or figure) that the layout merged into the heading's line."""
    head, _, rest = key.partition(" ")
    return rest == target and 0 < len(head) <= 2 and len(target) > 8


def _continues_line(first: _PdfLine, second: _PdfLine) -> bool:
    """``second`` can carry on ``first``'s heading: the same box, or on the same page directly
    below it or beside it on its row (a chapter label and its title set in two styles sit in two
    boxes)."""
    if second.box == first.box:
        return True
    if second.page == first.page and _vertical_overlap(first, second) > 0.5 and second.x0 >= first.x1 - 1:
        return True  # set beside it on the row ("Chapter 1." and "Introduction" in two boxes)
    return second.page == first.page and 0 <= first.y0 - second.y1 < 1.5 * max(first.size, second.size)


def _outline_search_order(lines: list[_PdfLine], position: int, page_start: int, limit: int | None = None):
    """Line indexes to try for the next outline entry: the rest of the previous match's page, then
    that page's earlier lines (a heading the layout put before the one above it, as when a margin
    glyph joins its line), then the following pages; only indexes below ``limit`` when given."""
    page = lines[position - 1].page if position else None
    end = position
    while end < len(lines) and lines[end].page == page:
        end += 1
    stop = len(lines) if limit is None else min(limit, len(lines))
    yield from range(position, min(end, stop))
    yield from range(page_start, min(position, stop))
    yield from range(end, stop)


def _contents_pages(lines: list[_PdfLine]) -> set[int]:
    """Pages of the document's own table of contents: at least three dot-leader lines making up
    at least a sixth of the page's lines. A contents page repeats every Part and Division title
    (statute contents print the page number on a line of its own, so the title line has no
    leader), and an outline entry found there is the contents line, not the heading."""
    per_page: Counter[int] = Counter()
    leaders: Counter[int] = Counter()
    for line in lines:
        if line.text.strip():
            per_page[line.page] += 1
            if _TOC_LINE.search(line.text) or re.search(r"[.…]{4,}", line.text):
                leaders[line.page] += 1
    return {page for page, n in leaders.items() if n >= 3 and n * 6 >= per_page[page]}


def _contents_entry_matches(
    lines: list[_PdfLine], keys: list[str], outline: list[tuple[int, str]], contents: set[int], taken: set[int]
) -> list[tuple[int, int, int, str]]:
    """Matches ``(line index, 1, level, title)`` for the outline entries that name a contents page
    or an index (``Table of Contents``, ``List of Tables``, ``Index``): the line whose text is the
    entry's title, on a contents page first (its title atop the page), else the first such line
    (an index: the last), never a dot-leader line. Outline order is no evidence for them (SP 800-150 bookmarks its contents
    before the executive summary printed ahead of them), so each is looked up on its own; a
    contents page then opens its own section instead of trailing the section before it."""
    out = []
    for level, title in outline:
        target = _outline_key(title)
        if not _CONTENTS_ENTRY.match(target):
            continue
        found = [
            i
            for i, key in enumerate(keys)
            if key == target
            and i not in taken
            and not _TOC_LINE.search(lines[i].text)
            and not re.search(r"[.…]{4,}", lines[i].text)
        ]
        if found:
            # a back-of-book index stands at the end (a lone "Index" line earlier is a table's column)
            i = next((k for k in found if lines[k].page in contents), found[-1] if target == "index" else found[0])
            out.append((i, 1, level, title))
            taken.add(i)
    return out


def _find_entry(
    lines: list[_PdfLine],
    keys: list[str],
    target: str,
    position: int,
    page_start: int,
    contents: set[int],
    taken: set[int],
    body_size: float,
    limit: int | None = None,
) -> tuple[int, int] | None:
    """``(line index, lines used)`` of the first line (in :func:`_outline_search_order` from
    ``position``, before line ``limit`` when given) that heads the outline entry whose key is
    ``target``, or ``None``; see :func:`_apply_outline` for the forms that match."""
    number = re.match(rf"{CLAUSE_NUMBER}\s+(?=[^\W\d])", target)
    unnumbered = target[number.end() :] if number else None
    for i in _outline_search_order(lines, position, page_start, limit):
        if (
            i in taken
            or lines[i].page in contents
            or _TOC_LINE.search(lines[i].text)
            or re.search(r"[.…]{4,}", lines[i].text)
        ):
            continue  # a contents line (dot leaders, a contents page) names a heading, it is not one
        used = 0
        numbered = _PRINTED_NUMBER_KEY.match(keys[i])
        if numbered and keys[i][numbered.end() :] == target and not target[:1].isdigit():
            used = 1  # the printed heading carries the number the bookmark leaves out
        elif unnumbered and keys[i] == unnumbered and (lines[i].bold or lines[i].size > body_size):
            used = 1  # a list number drawn without text ("1 Introduction" prints "Introduction" in bold)
        elif (
            keys[i] == target
            or _after_stray_glyph(keys[i], target)
            or keys[i].replace(" ", "") == target.replace(" ", "")
            and len(target) > 8
        ):
            used = 1  # spaced letters of a justified line ("Manageme nt") compare without spaces
        else:  # a title wrapped over two or three lines (a long Division title)
            joined = keys[i]
            for k in range(i + 1, min(i + 3, len(lines))):
                if not _continues_line(lines[k - 1], lines[k]) or not target.replace(" ", "").startswith(
                    joined.replace(" ", "")
                ):
                    break
                joined = f"{joined} {keys[k]}"
                if joined == target or joined.replace(" ", "") == target.replace(" ", ""):
                    used = k - i + 1
                    break
        if used:
            return i, used
    return None


def _skips_entries(
    lines: list[_PdfLine],
    keys: list[str],
    following: list[str],
    at: int,
    position: int,
    page_start: int,
    contents: set[int],
    taken: set[int],
    body_size: float,
) -> bool:
    """Two or more of the ``following`` entries (the next eight) are found, on two pages or more,
    between the current position and line ``at``: the entry matched there is out of place (entries found on one page
    only are a contents page's lines, which list what follows) — a match that jumps pages ahead would carry
    every entry between along with it (SP 800-37r1 bookmarks six figure labels such as
    "subsystem" between its sections, whose first matches are glossary terms 30 pages on, so
    chapter 3 and Appendices A-B were lost)."""
    pages: set[int] = set()
    for target in following:
        hit = _find_entry(lines, keys, target, position, page_start, contents, taken, body_size, limit=at)
        if hit is not None:
            pages.add(lines[hit[0]].page)
            if len(pages) >= 2:
                return True
    return False


def _apply_outline(lines: list[_PdfLine], outline: list[tuple[int, str]]) -> bool:
    """Mark the lines the PDF outline (bookmarks) names as headings at the outline's levels.

    Entries are matched in order (on the previous match's page in any order) against one line or
    two consecutive lines (same box, or the
    second directly below the first), on normalised text with number words as digits (a stray
    margin glyph merged before the title is ignored); a line whose text differs from the entry's
    takes the entry's own title (``Chapter 1: Introduction`` for ``CHAPTER ONE`` /
    ``INTRODUCTION``), so the heading carries the number the outline gives; a line that prints a
    section number before the entry's title (``6.2.1 Amendment Documents`` for the bookmark
    ``Amendment Documents``) matches and keeps its number.
    Pages that list the entries without dot leaders (:func:`_listing_pages`, a Bill's contents:
    number, then title) are contents pages too when the body restates at least half of the
    entries found there: the outline's entries then head the body, not the contents lines. An
    entry read after the entry the outline puts next, though printed above it on the same page
    (the lines read between them printed below it), moves up before that entry with the lines
    after it printed above that entry: the outline and the page agree on an order that
    pdfminer's reading order lost.
    Returns False (and marks nothing) when fewer than 60% of at least three entries match — such an
    outline does not describe this text layer, so font statistics are used instead.
    """
    if len(outline) < 3:
        return False
    keys = [_outline_key(line.text) for line in lines]
    contents = _contents_pages(lines)
    body_size = _body_style(lines)[0]
    entries = [(level, title, _outline_key(title)) for level, title in outline]
    found = _match_entries(lines, keys, entries, contents, body_size)
    listing = _listing_pages(lines, found) - contents
    if listing:  # contents pages without dot leaders: the body restates their entries
        again = _match_entries(lines, keys, entries, contents | listing, body_size)
        refound = {k for _, _, k in again}
        restated = {
            page
            for page in listing
            if 2 * sum(k in refound for i, _, k in found if lines[i].page == page)
            >= sum(lines[i].page == page for i, _, _ in found)
        }
        if restated:
            contents |= restated
            found = again if restated == listing else _match_entries(lines, keys, entries, contents, body_size)
    matches = [(i, used, entries[k][0], entries[k][1]) for i, used, k in found]
    taken = {j for i, used, _ in found for j in range(i, i + used)}
    # an entry read after the next one though printed above it (a centred cross-heading over a
    # heading at the margin: pdfminer reads "35 Regulations" before "General" above it), the lines
    # between them printed below it: it moves up before that entry, with the lines after it that
    # are printed above that entry too (its own text)
    raised = []
    for (i, used, _), (j, used_j, _) in zip(found, found[1:]):
        page = lines[i].page
        if not (j < i and lines[j].page == page and lines[i].y0 > lines[j].y1):
            continue
        if any(line.page != page or line.y1 > lines[i].y0 + 1 for line in lines[j + used_j : i]):
            continue  # text between them printed above the raised entry: no safe order
        top = max(line.y1 for line in lines[j : j + used_j])
        end = i + used
        while end < len(lines) and lines[end].page == page and lines[end].y0 >= top - 1 and end not in taken:
            end += 1
        raised.append((lines[i:end], lines[j]))
    matches += _contents_entry_matches(lines, keys, outline, contents, taken)
    if len(matches) < 0.6 * len(outline):
        return False
    root_level, root_title = outline[0]
    if all(level > root_level for level, _ in outline[1:]) and not any(t is root_title for *_, t in matches):
        # the outline's single root (the document title, set over several lines of a cover page)
        # holds every other entry: it heads the document
        lines.insert(0, replace(lines[0], text=" ".join(root_title.split()), level=min(root_level, 6)))
        matches = [(i + 1, used, level, title) for i, used, level, title in matches]
    for i, used, level, title in matches:
        printed = " ".join(line.text for line in lines[i : i + used])
        numbered = _PRINTED_NUMBER_KEY.match(_outline_key(printed))
        same = normalize_heading(printed) == normalize_heading(title) or (
            numbered is not None
            and _outline_key(printed)[numbered.end() :] == _outline_key(title)
            and not re.match(r"\d", title.strip())
        )  # (a bookmark with its own number names it)
        # a rule drawn with underscores before the title ("____ APPENDIX B GLOSSARY") is no part of it
        printed = re.sub(r"^[\s_=~]{3,}|[\s_=~]{3,}$", "", printed).strip() or printed
        lines[i].text = printed if same else " ".join(title.split())
        for k in range(i + 1, i + used):
            lines[k].text = ""
        lines[i].level = min(level, 6)
    for block, before in raised:
        moved = {id(line) for line in block}
        lines[:] = [line for line in lines if id(line) not in moved]
        at = next(k for k, line in enumerate(lines) if line is before)
        lines[at:at] = block
    _outline_style_twins(lines)
    return True


def _match_entries(
    lines: list[_PdfLine],
    keys: list[str],
    entries: list[tuple[int, str, str]],
    contents: set[int],
    body_size: float,
) -> list[tuple[int, int, int]]:
    """``(line index, lines used, entry index)`` of each outline entry (``entries``: level, title,
    key) found in outline order (see :func:`_apply_outline`), no line on a page of ``contents``;
    entries naming a contents page or an index are left to :func:`_contents_entry_matches`."""
    found: list[tuple[int, int, int]] = []
    taken: set[int] = set()
    position = page_start = 0
    # a "Table of Contents" bookmark may precede the pages printed before it: matched apart, in any order
    ordered = [k for k, (_, _, target) in enumerate(entries) if not _CONTENTS_ENTRY.match(target)]
    for n, k in enumerate(ordered):
        target = entries[k][2]
        hit = _find_entry(lines, keys, target, position, page_start, contents, taken, body_size)
        if hit is None:
            continue
        i, used = hit
        if (
            position
            and lines[i].page > lines[position - 1].page + 1
            and _skips_entries(
                lines,
                keys,
                [entries[j][2] for j in ordered[n + 1 : n + 9]],
                i,
                position,
                page_start,
                contents,
                taken,
                body_size,
            )
        ):
            continue  # a figure's label bookmarked as an entry ("subsystem") found pages ahead, in a glossary
        found.append((i, used, k))
        taken.update(range(i, i + used))
        position = max(position, i + used)
        page_start = next(j for j in range(i, -1, -1) if j == 0 or lines[j - 1].page != lines[i].page)
    return found


def _listing_pages(lines: list[_PdfLine], found: list[tuple[int, int, int]]) -> set[int]:
    """Pages that list outline entries rather than head text: three entries or more found there,
    their lines at least half of the page's lines with letters. A contents page set without dot
    leaders (a Bill's ``CONTENTS``: section number, then title) is such a page; a page of the body
    holds a few headings among its paragraphs. Whether the body restates the entries is for the
    caller to judge (:func:`_apply_outline`)."""
    used_on: Counter[int] = Counter()
    entries_on: Counter[int] = Counter()
    for i, used, _ in found:
        entries_on[lines[i].page] += 1
        used_on[lines[i].page] += used
    worded: Counter[int] = Counter(line.page for line in lines if re.search(r"[^\W\d_]", line.text))
    return {page for page, n in entries_on.items() if n >= 3 and 2 * used_on[page] >= worded[page]}


def _outline_style_twins(lines: list[_PdfLine]) -> None:
    """Headings the outline leaves out, set exactly as an outline heading is: a short line standing
    alone in its box (at most eight words, no sentence or clause punctuation at its end) in the
    bold face and size of a heading the outline names, that face not the body's, below the nearest
    such heading when that heading is followed straight by one of them (a container printing its
    parts in its own face: ``United States`` over ``California``, ``Delaware`` …): one level
    below it. A heading with body text after it has no such parts (a cover page's bold line is no
    sibling of the title)."""
    body = _body_style(lines)
    box_sizes = Counter((line.page, line.box) for line in lines if line.text.strip())
    styles = {line.style for line in lines if line.level and line.bold and line.style != body}
    if not styles:
        return

    def twin(line: _PdfLine) -> bool:
        text = line.text.strip()
        return (
            not line.level
            and line.style in styles
            and not (line.cell or line.note or line.margin)
            and box_sizes[(line.page, line.box)] == 1
            and 0 < len(text.split()) <= 8
            and not text.endswith((".", ",", ";", ":"))
            and not re.search(r"(?:\.\s?){4,}", text)  # a contents line's dot leader
            and re.search(r"[^\W\d_]", text) is not None
        )

    above: _PdfLine | None = None  # the nearest outline heading of a twin style
    container = False  # whether it is followed straight by a twin
    previous: _PdfLine | None = None
    twins: set[int] = set()
    for line in lines:
        if not line.text.strip():
            continue
        if line.level and line.style in styles and id(line) not in twins:
            above, container = line, False
        elif above is not None and line.style == above.style and twin(line):
            if previous is above:
                container = True
            if container:  # a lone line in a heading's face with body text since: no evidence
                line.level = min(above.level + 1, 6)
                twins.add(id(line))
        previous = line


def _classify_by_font(lines: list[_PdfLine]) -> None:
    """Mark heading lines from font statistics and numbering; set ``level`` on each heading line.

    A run (consecutive lines of one box in one style, at most three, vertically adjacent runs of
    one heading style merged) is a heading when its font is larger than the body font (≥ 1.15× and
    ≥ +1 pt), or — at about body size (≥ 0.9×) — it is set apart by weight (bold where the body is
    not) or by a rare font (< 5% of the characters), and it is numbered (``1.2``, ``Chapter 3``,
    ``Article IV``), or it opens a block (starts its box or follows a sentence end), looks like a
    title (capitalised, no final stop) and is followed by plainer text no larger than it or the
    body font, or it is in capitals.
    A margin note (``_PdfLine.margin``, :mod:`.pdf_margins`) is a heading whatever its face.
    Never headings: table cells (``_PdfLine.cell``) but larger-set titles, table-of-contents lines (dot leaders) and
    every line of a contents page but its topmost (the contents' own title), captions (``Figure 3``), monospace
    text, runs ending in , ; or :, runs over 20 words (12 at body size, 20 for a note over a line that
    opens with a section number: ``107. Where …``); a final ``etc.`` ends no sentence.
    Numbers a heading shows but the text layer lacks are restored first
    (:func:`_restore_unprinted_numbers`); levels: see :func:`_assign_levels`.
    """
    body_size, body_font = _body_style(lines)
    body_bold = bool(_BOLD_FONT.search(body_font))
    share = _style_shares(lines)
    runs = _merge_heading_runs(_style_runs(lines), body_size)
    page_lines: dict[int, list[_PdfLine]] = {}
    for line in lines:
        page_lines.setdefault(line.page, []).append(line)
    headings: list[tuple[list[_PdfLine], str]] = []
    contents = _contents_pages(lines)
    contents_titles = {id(max(page_lines[page], key=lambda line: line.y1)) for page in contents}
    for n, run in enumerate(runs):
        text = " ".join(line.text for line in run)
        first = run[0]
        if first.margin:
            headings.append((run, text))  # a margin note titles the provision beside it (pdf_margins)
            continue
        if first.page in contents and id(first) not in contents_titles:
            continue  # a contents page lists headings (its own title, atop the page, stays one)
        if len(run) == 1 and is_contents_title(text, ("contents",)):
            # "ARRANGEMENT OF SECTIONS" set in the body face over a statute's contents, which print
            # no dot leaders: the contents' own title heads them, so they are a contents section
            headings.append((run, text))
            continue
        # a label alone on its line above its title ("Article 23" / two lines of title) may be long
        label_above = len(run) > 1 and _label_alone(first.text) or n > 0 and _label_over(runs[n - 1], first)
        if (
            _TOC_LINE.search(text)
            or _CAPTION.match(text)
            or len(run) > 3
            or len(text.split()) > (30 if label_above else 20)
        ):
            continue
        if _MONO_FONT.search(first.font) or re.search(r"[,;:]$", text) or re.search(r"[<>={};]|\(\)", text):
            continue  # code and diagram labels are not titles
        has_letters = bool(re.search(r"[^\W\d_]", text))
        larger = first.size >= max(body_size * 1.15, body_size + 1)
        if first.cell and not larger:
            continue  # a table cell ("Duplication", "4.2.2"); a title set larger stays one (a sidebar's "Highlights")
        if larger and (has_letters or (_BARE_NUMBER.match(text) and first.size >= body_size * 1.5)):
            headings.append((run, text))
            continue
        following = runs[n + 1][0] if n + 1 < len(runs) else None
        # a statute's shoulder note over the provision it names ("Commissioner may carry out or
        # continue investigation initiated by complaint notwithstanding withdrawal of complaint" /
        # "107. Where …") may run to 20 words, as a label's title does
        noting = following is not None and bool(_PROVISION_OPENS.match(following.text))
        if (
            not has_letters
            or first.size < body_size * 0.9
            or len(text.split()) > (30 if label_above else 20 if noting else 12)
        ):
            continue
        distinct = (first.bold and not body_bold) or (first.font != body_font and share[first.style] < 0.05)
        if not distinct:
            continue
        if _has_row_twin(first, page_lines[first.page]):
            continue  # a table header cell, not a heading
        # a line of another face inside a paragraph (an italic title in a reference entry after
        # "…Publication 202, SHA-3 Standard:") goes on into the same box in lower case or digits
        mid_paragraph = (
            following is not None
            and n
            and runs[n - 1][-1].box == first.box
            and following.box == run[-1].box
            and re.match(r"[\da-z]", following.text)
        )
        leads_body = (
            following is not None and not mid_paragraph and _starts_block(runs, n)
            and not re.search(r"(?<!\betc)[.!?]$", text) and text[:1].isupper()  # "…, etc." ends no sentence
            and (following.size <= max(first.size, body_size) and not following.bold and following.style != first.style
                 or following.style == first.style and _HEADING_NUMBER.match(following.text))
        )  # fmt: skip
        shouting = text.isupper() and len(text) > 3
        if _PDF_NUMBERING.match(text) or leads_body or shouting:
            headings.append((run, text))
    headings = _instrument_cover(headings, page_lines, body_size)
    _assign_levels(_restore_unprinted_numbers(_with_labels_above(headings, runs)))


def _instrument_cover(
    headings: list[tuple[list[_PdfLine], str]], page_lines: dict[int, list[_PdfLine]], body_size: float
) -> list[tuple[list[_PdfLine], str]]:
    """``headings`` without the cover lines of a legislative instrument but its name.

    A cover page is the first page of a document of two pages or more that holds no paragraph of
    body text (no box of three lines or more at the body's type size) and no provision (no line
    opening with a section number, no margin
    note). When one of its headings names the instrument (:func:`.grammar.names_instrument`: ``SMALL
    CLAIMS COURTS’ PROCEDURE ACT, No. 33 OF 2022``, or a name set as two headings one under the other,
    ``PARLIAMENTARY BUDGET OFFICE`` / ``ACT, No. 6 OF 2023``), that name is the cover's only heading:
    the masthead over it (``PARLIAMENT OF THE DEMOCRATIC SOCIALIST REPUBLIC OF SRI LANKA``, ``LAWS OF
    MALAYSIA``), the printer's and publisher's lines (``Printed on the Order of Government``), a reprint
    notice and the like are front matter, set apart by their face but heading nothing: as headings
    they held the whole Act. A cover naming no instrument keeps its headings."""
    pages = sorted(page_lines)
    if len(pages) < 2:
        return headings
    first = pages[0]
    cover = [(run, text) for run, text in headings if run[0].page == first]
    if len(cover) < 2:
        return headings
    boxes = Counter(line.box for line in page_lines[first] if abs(line.size - body_size) <= 0.5)
    if any(n >= 3 for n in boxes.values()):
        return headings  # a paragraph of body text: the document starts on its first page
    if any(line.margin or _PROVISION_OPENS.match(line.text) for line in page_lines[first]):
        return headings  # the provisions start on it
    texts = [text for _, text in cover]
    keep: set[int] = set()
    for n, text in enumerate(texts):
        if names_instrument(text):
            keep = {n}
            break
        if n and names_instrument(f"{texts[n - 1]} {text}"):
            keep = {n - 1, n}
            break
    if not keep:
        return headings
    front = {id(run[0]) for n, (run, _) in enumerate(cover) if n not in keep}
    out = [(run, text) for run, text in headings if id(run[0]) not in front]
    if len(keep) == 2:  # the name set as two headings is one heading, the title
        (upper, upper_text), (lower, lower_text) = (cover[n] for n in sorted(keep))
        at = next(n for n, (run, _) in enumerate(out) if run is upper)
        out[at : at + 2] = [(upper + lower, f"{upper_text} {lower_text}")]
    return out


_HEADING_NUMBER = re.compile(rf"({CLAUSE_NUMBER})\.?\s")
# "107. Where the Commissioner …", "24A. (1) …": a section number opening a provision's first line
_PROVISION_OPENS = re.compile(rf"^{PROVISION_NUMBER}\.\s+\S")


def _label_over(label_run: list[_PdfLine], first: _PdfLine) -> bool:
    """``label_run`` is a heading's label alone (``CHAPTER I``, ``Article 12``) set directly above
    ``first`` (same page, a gap under 2.5 type sizes) and centred on the same axis (within 3 pt)."""
    last = label_run[-1]
    return (
        _label_alone(" ".join(line.text for line in label_run))
        and last.page == first.page
        and 0 <= last.y0 - first.y1 < 2.5 * max(last.size, first.size)
        and abs((last.x0 + last.x1) - (first.x0 + first.x1)) <= 6
        and not last.cell
    )


def _with_labels_above(
    headings: list[tuple[list[_PdfLine], str]], runs: list[list[_PdfLine]]
) -> list[tuple[list[_PdfLine], str]]:
    """``headings`` with each label that stands alone right above a heading, centred over it, and is
    no heading itself (set smaller: the Official Journal's ``CHAPTER I`` over its bold title) made the
    start of that heading: ``CHAPTER I General provisions``, one heading, not a label line and a
    title heading of its own."""
    taken = {id(run[0]) for run, _ in headings}
    previous = {id(run[0]): runs[n - 1] for n, run in enumerate(runs) if n}
    out = []
    for run, text in headings:
        label = previous.get(id(run[0]))
        if (
            label is not None
            and id(label[0]) not in taken
            and _label_over(label, run[0])
            and len(run) + len(label) <= 4
        ):
            label_text = " ".join(" ".join(line.text.split()) for line in label)
            out.append((run + label, f"{label_text} {text}"))  # the title line carries it: its style sets the level
            taken.add(id(label[0]))
        else:
            out.append((run, text))
    return out


def _label_alone(text: str) -> bool:
    """The line is a heading's number and nothing else (``Article 23``, ``4.2``, ``SECTION II``)."""
    m = _PDF_NUMBERING.match(text.strip())
    return m is not None and not text.strip()[m.end() :].strip()


def _heading_number(text: str) -> tuple[int, ...] | None:
    m = _HEADING_NUMBER.match(text + " ")
    return tuple(int(part) for part in m.group(1).split(".")) if m else None


def _restore_unprinted_numbers(headings: list[tuple[list[_PdfLine], str]]) -> list[tuple[list[_PdfLine], str]]:
    """Give back the section number a heading shows on the page but not in the text layer (a
    word processor's list number drawn without character codes: "4.2  Authenticator Assurance
    Level 2" reads "Authenticator Assurance Level 2", set in after the number's space).

    Evidence first: an unnumbered heading directly followed by a first subsection ``4.2.1``
    whose parent ``4.2`` is printed nowhere before it, under the last number ``4.1.5`` (whose
    ``4`` is ``4.2``'s parent), is ``4.2``. Then the unnumbered headings of exactly that style
    and indent (the number's gap) continue the numbering at that depth: after ``8`` comes
    ``8.1``, then ``8.2``, … — unless that number is printed elsewhere or runs past the next
    printed heading. Headings without such evidence are left as they are.
    """
    numbers = [_heading_number(text) for _, text in headings]
    printed = {n for n in numbers if n}
    # only a title that opens with a letter lacks its number ("1: Scope" has one, in its own form)
    bare = [not numbers[k] and bool(re.match(r"[^\W\d_]", text)) for k, (_, text) in enumerate(headings)]
    restored: dict[int, tuple[int, ...]] = {}
    for k, _ in enumerate(headings):
        if not bare[k]:
            continue
        prev = next((numbers[j] for j in range(k - 1, -1, -1) if numbers[j]), ())
        after = numbers[k + 1] if k + 1 < len(numbers) else None
        if not after or len(after) < 2 or after[-1] != 1:
            continue
        parent = after[:-1]
        if parent not in printed and prev[: len(parent) - 1] == parent[:-1] and prev[: len(parent)] != parent:
            restored[k] = parent
    if not restored:
        return headings
    shapes: dict[tuple[float, str, int], Counter[int]] = {}
    for k, number in restored.items():
        first = headings[k][0][0]
        shapes.setdefault((first.size, first.font, round(first.x0)), Counter())[len(number)] += 1
    last: tuple[int, ...] = ()
    out = []
    for k, (run, text) in enumerate(headings):
        first = run[0]
        depths = next(
            (
                c
                for (size, font, x0), c in shapes.items()
                if size == first.size and font == first.font and abs(x0 - first.x0) <= 2
            ),
            None,
        )
        if bare[k] and k not in restored and depths:
            depth = depths.most_common(1)[0][0]
            guess = (
                last[: depth - 1] + (last[depth - 1] + 1,)
                if len(last) >= depth
                else last + (1,)
                if len(last) == depth - 1
                else None
            )
            following = next((n for n in numbers[k + 1 :] if n), None)
            if guess and guess not in printed and not (following and following[:depth] < guess):
                restored[k] = guess
        if k in restored:
            printed.add(restored[k])
            text = ".".join(map(str, restored[k])) + " " + text
        last = restored.get(k) or numbers[k] or last
        out.append((run, text))
    return out


def _has_row_twin(line: _PdfLine, page_lines: list[_PdfLine]) -> bool:
    """Another line in the same style sits beside this one on its row (a table header row)."""
    return any(
        other is not line and other.text and other.style == line.style and _vertical_overlap(line, other) > 0.5
        and (other.x0 >= line.x1 or other.x1 <= line.x0)
        for other in page_lines
    )  # fmt: skip


def _style_shares(lines: list[_PdfLine]) -> dict[tuple[float, str], float]:
    weights: Counter[tuple[float, str]] = Counter()
    for line in lines:
        weights[line.style] += line.chars
    total = sum(weights.values()) or 1
    return {style: n / total for style, n in weights.items()}


def _starts_block(runs: list[list[_PdfLine]], n: int) -> bool:
    """The run starts its box, or the text before it in the box ends a sentence."""
    if n == 0 or runs[n - 1][-1].box != runs[n][0].box:
        return True
    return bool(re.search(r"[.!?:]$", runs[n - 1][-1].text))


def _merge_heading_runs(runs: list[list[_PdfLine]], body_size: float) -> list[list[_PdfLine]]:
    """Join a run with the next one when it continues the same heading in a new box (same style,
    same page, the next line directly below, three lines at most together): a large-font run, or
    a run of any size centred on the same axis as the one above when the heading opens with its
    label alone on a line (a centred ``Article 23`` and the two lines of its long title, each set
    in a box of its own) — unless the next run starts with
    its own section number ("1. Warranty Period" under a document title is the next heading)."""
    merged: list[list[_PdfLine]] = []
    for run in runs:
        if merged:
            last, first = merged[-1][-1], run[0]
            same = last.style == first.style and last.page == first.page
            centred = (
                _label_alone(merged[-1][0].text)
                and abs((last.x0 + last.x1) - (first.x0 + first.x1)) <= 6
                and not first.cell
                and not last.cell
            )
            below = 0 <= last.y0 - first.y1 < first.size and len(merged[-1]) + len(run) <= 3
            if same and (first.size > body_size * 1.15 or centred) and below and not _NEW_NUMBER.match(first.text):
                merged[-1].extend(run)
                continue
        merged.append(run)
    return merged


def _style_runs(lines: list[_PdfLine]) -> list[list[_PdfLine]]:
    runs: list[list[_PdfLine]] = []
    for line in lines:
        if not line.text:
            continue
        if runs and runs[-1][-1].box == line.box and runs[-1][-1].style == line.style:
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def _assign_levels(headings: list[tuple[list[_PdfLine], str]]) -> None:
    """Heading levels: the depth of a dotted number ("4.2.1" → 3); an unnumbered heading
    ("Appendix A—…", "Abstract") in the style of numbered headings takes their most common depth;
    any other the rank of its font size among the heading sizes (largest first)."""
    sizes = sorted({run[0].size for run, _ in headings}, reverse=True)
    depths: dict[tuple[float, str], Counter[int]] = {}
    for run, text in headings:
        number = _heading_number(text)
        if number:
            depths.setdefault(run[0].style, Counter())[len(number)] += 1
    for run, text in headings:
        number = _heading_number(text)
        if number:
            level = len(number)
        elif run[0].style in depths:
            level = depths[run[0].style].most_common(1)[0][0]
        else:
            level = sizes.index(run[0].size) + 1
        run[0].text, run[0].level = text, min(level, 6)
        for line in run[1:]:
            line.text = ""
