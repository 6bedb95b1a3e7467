"""Line scanning for :mod:`docstrata.structure.parse`: one pass over the lines finds every section
marker (ATX / setext headings, numbered and keyword labels, enumerated and Markdown list items),
with the shape rules that keep prose, figures, tables and fenced code out."""

from __future__ import annotations

import functools
import re
from collections import Counter

from markdown_it import MarkdownIt

from ..definitions import numbered_term_entry, opens_definitions
from ..grammar import (
    CLAUSE_CLOSE,
    CLAUSE_NUMBER,
    PINPOINT,
    SUFFIX_WORDS,
    back_matter_label,
    back_matter_prefixes,
    contents_title_pattern,
    keywords,
    without_amendment_mark,
)
from .labels import (
    _components,
    _continues_numbering,
    _heading_label,
    _item_style,
    _label_path,
    _ordinal,
    _plain,
    _reads_as_sentence,
    _title_of,
)
from .resolve import ParseContext
from .signs import sign_marker, sign_series
from .patterns import (
    _ATX_RE,
    _CLAUSE_LABEL_RE,
    _KW_ANON,
    _NUM,
    _FENCE_RE,
    _FINITE_VERBS,
    _FIRST_ROMAN_OR_LETTER_RE,
    _FUNCTION_WORDS,
    _ITEM_RE,
    _KEYWORDS,
    _LABEL_RE,
    _MD_ITEM_RE,
    _REFERENCE_WORDS,
    _SETEXT_RE,
    _TOC_RE,
    _Marker,
)


# "ACTS INTERPRETATION ACT 1901 - SECT 2A": a provision headed by the document's running title,
# a dash and the provision's own label (AustLII and other legal portals print every section so).
# a list bullet written in front of an enumerator (grammar.PINPOINT): the enumerator is the item's number
_BULLETED_ENUMERATOR_RE = re.compile(rf"^[-*+•][ \t]+(?={PINPOINT}(?:[ \t]|$))")
# "**Art. 1.** La Belgique est …", "__Section 5.__ The …": a label set in bold at the start of a
# paragraph, its text running on (Belgian and Swiss statutes, contracts rendered to Markdown), also
# glued to it ("**Art. 7.**Tout …") or alone on its line ("**Art. 5.**" over its text)
_BOLD_RUN_IN_RE = re.compile(r"^(?P<mark>\*{2,3}|_{2,3})(?P<label>[^*_\n]{1,40}?)(?P=mark)(?P<gap>[ \t]*)(?P<rest>.*)$")
_RUNNING_LABEL_RE = re.compile(
    rf"^(?:#{{1,6}}\s+)?(?P<prefix>\S.{{2,150}}?)\s+[-–—]{{1,2}}\s+"
    rf"(?P<label>{_KW_ANON}\s?{_NUM})\s*$"
)
# "1.Definitions", "2.Scope of the rights granted by the Licence" (the EUPL's plain text): a number, its
# dot and the title with no space between. A decimal ("3.14 metres") has a digit after the dot, an
# abbreviation ("e.g.This") no number before it.
_TIGHT_LABEL_RE = re.compile(r"^(?P<label>\d{1,3}\.)(?P<rest>[A-ZÄÖÜ][a-zäöüß].*)$")


_SUFFIX_APART_RE = re.compile(rf"^({'|'.join(SUFFIX_WORDS)})\.?(\s+|$)")
_KEYWORD_LED_RE = re.compile(rf"^{_KW_ANON}\s?\d{{1,5}}\.?$")


def _running_titles(lines: list[str]) -> frozenset[str]:
    """Prefixes (case-folded) that head at least two ``<prefix> - <keyword> <number>`` lines: the
    document's running title, not part of the provision's label."""
    counts = Counter(m.group("prefix").casefold() for ln in lines if (m := _RUNNING_LABEL_RE.match(ln.strip())))
    return frozenset(p for p, n in counts.items() if n >= 2)


def _without_running_title(text: str, running_titles: frozenset[str]) -> str:
    """``SECT 2A`` for ``ACTS INTERPRETATION ACT 1901 - SECT 2A`` when that prefix is one of the
    document's ``running_titles`` (:func:`_running_titles`)."""
    m = _RUNNING_LABEL_RE.match(text)
    return m.group("label") if m and m.group("prefix").casefold() in running_titles else text


def _tight_label_series(lines: list[str]) -> frozenset[int]:
    """Lines ``N.Title`` (no space after the dot) that the document's own numbering shows to be
    headings: read in order, the lines whose number continues the series from 1 (1, 2, 3 …; any
    other number is skipped), kept when at least three do and every one of them has a title that
    reads as a heading, not a sentence. One stray ``2.The`` in prose makes no series."""
    series: list[int] = []
    for i, line in enumerate(lines):
        m = _TIGHT_LABEL_RE.match(line.strip())
        if m and int(m.group("label")[:-1]) == len(series) + 1 and len(line) - len(line.lstrip()) < 4:
            series.append(i)
    if len(series) < 3:
        return frozenset()
    if not all(_title_of(_TIGHT_LABEL_RE.match(lines[i].strip()).group("rest"))[1] for i in series):
        return frozenset()
    return frozenset(series)


_CLOSE_LETTER_RE = re.compile(r"^(?P<letter>[a-z])\)(?P<sep>[ \t]+)(?P<rest>\S.*)$")


def _letter_item_series(lines: list[str]) -> frozenset[int]:
    """Lines of plain text that open a lettered item closed by its bracket alone (``a) The
    modified work …``, as the GNU licences letter the conditions of a section) and belong to a
    series: each opens a paragraph (a blank line above it), their letters run on from ``a)``
    (``a)``, ``b)``, ``c)`` …, any other letter ends the series), at least two of them. Such a
    series is the items of the provision above it, ``(a)``, ``(b)`` …; a lone ``a)`` is text."""
    out: set[int] = set()
    run: list[int] = []
    prev_blank = True
    for i, line in enumerate(lines):
        m = _CLOSE_LETTER_RE.match(line.strip())
        if m and prev_blank:
            letter = m.group("letter")
            if letter == "a":
                if len(run) >= 2:
                    out.update(run)
                run = [i]
            elif run and ord(letter) == ord(lines[run[-1]].strip()[0]) + 1:
                run.append(i)
            else:
                if len(run) >= 2:
                    out.update(run)
                run = []
        prev_blank = not line.strip()
    if len(run) >= 2:
        out.update(run)
    return frozenset(out)


def _scan(
    lines: list[str], markdown_flavour: bool, veto: frozenset[int] = frozenset(), ctx: ParseContext | None = None
) -> list[_Marker]:
    """Find every section marker in document order; lines in ``veto`` (0-based) start none (the
    resolver rejected their candidates, :func:`.resolve.resolve_candidates`). The document's running titles
    and tight-label series are read first into ``ctx`` (a new context when ``None``)."""
    ctx = ctx or ParseContext(lines)
    ctx.running_titles = _running_titles(lines)
    ctx.tight_labels = _tight_label_series(lines)
    ctx.sign_series = sign_series(lines)
    ctx.bold_labels = _bold_label_series(lines)
    ctx.clause_items = _clause_items(lines) if markdown_flavour else {}
    ctx.letter_items = frozenset() if markdown_flavour else _letter_item_series(lines)
    ctx.list_columns = _markdown_lists(lines)[0] if markdown_flavour else {}
    return _lazy_list_numbers(_scan_lines(lines, markdown_flavour, veto, ctx), lines)


_COMMONMARK = MarkdownIt("commonmark").disable(["inline", "text_join"])  # the block structure is all it reads


def _markdown_lists(lines: list[str]) -> tuple[dict[int, int], dict[int, int]]:
    """The Markdown list items of ``lines`` as markdown-it-py parses them (CommonMark): line → the
    column of its list level, and line → the list it is an item of (an id shared by the items of one
    list), for every line that opens a list item (tabs expanded to 4; the first item of a line that
    opens two, ``1. 1.``; none in a block quote).

    CommonMark lets a list marker stand up to three spaces in from the block that holds it: the
    charter's ``-\t(a) …`` and `` -\t(b) …`` are items of one list, ``(b)`` no deeper than ``(a)``
    for its incidental leading space. An item's column is the content column of the item holding it
    (the column its text starts at; 0 at the top level), so the siblings of a list share one column
    whichever of the permitted 0-3 spaces each was written with. What CommonMark does not read as an
    item (a marker four or more spaces past that column: indented code; a number other than 1
    breaking into a paragraph) has no column here: the scanner takes its own indentation. Read once
    per text (the scanner runs twice on a document whose proposals the resolver rejects some of).
    """
    return _lists_of_text("\n".join(lines))


@functools.lru_cache(maxsize=4)
def _lists_of_text(text: str) -> tuple[dict[int, int], dict[int, int]]:
    """:func:`_markdown_lists` of the lines ``text`` joins."""
    lines = text.split("\n")
    columns: dict[int, int] = {}
    lists: dict[int, int] = {}
    content: list[int] = []  # content columns of the open items, outermost first
    open_lists: list[int] = []  # the open lists (their opening token's position), outermost first
    quoted = 0
    for n, token in enumerate(_COMMONMARK.parse(text)):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            open_lists.append(n)
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            open_lists.pop()
        elif token.type in ("blockquote_open", "blockquote_close"):
            quoted += 1 if token.type == "blockquote_open" else -1
        elif token.type == "list_item_close":
            content.pop()
        elif token.type == "list_item_open":
            base = content[-1] if content else 0
            if not token.map:  # a block token always has its lines; kept balanced with list_item_close
                content.append(base)
                continue
            i = token.map[0]
            expanded, marker = lines[i].expandtabs(4), f"{token.info}{token.markup}"
            at = max(expanded.find(marker, base), 0)
            after = at + len(marker)
            gap = len(expanded[after:]) - len(expanded[after:].lstrip(" ")) if expanded[after:].strip() else 0
            content.append(after + (gap if 0 < gap <= 4 else 1))  # CommonMark: 1-4 spaces, else 1
            if not quoted and i not in columns:
                columns[i], lists[i] = base, open_lists[-1]
    return columns, lists


def _lazy_list_numbers(markers: list[_Marker], lines: list[str]) -> list[_Marker]:
    """Markdown list items written with one number each (``1.`` on every line: the lazy numbering
    CommonMark allows) carry the numbers the list is rendered with, the first one's and on by one
    (``1.`` … ``8.`` for the eight ``1.`` definitions of the GitHub Terms of Service), as a reader
    sees and cites them; before, every item was ``1`` and the repeats were told apart by ``-2``
    suffixes. Only a run of two or more items of one list (one list as CommonMark reads the lines,
    :func:`_markdown_lists`; same indentation and delimiter, no other marker between them) all
    written with the same number is renumbered; a list that writes its numbers keeps them."""
    runs: list[list[_Marker]] = []
    lists: dict[int, int] | None = None  # read when two items could be one list's
    for m in markers:
        digit = m.kind == "item" and m.components[0][0] == "mditem" and m.components[0][1].isdigit()
        last = runs[-1][-1] if runs and runs[-1] else None
        if not digit:
            runs.append([])
            continue
        if (
            last is not None
            and last.indent == m.indent
            and last.marker_text[-1:] == m.marker_text[-1:]
            and last.components[0][1] == m.components[0][1]
            and (lists := lists if lists is not None else _markdown_lists(lines)[1]).get(last.line, -1)
            == lists.get(m.line, -2)  # items of one Markdown list
        ):
            runs[-1].append(m)
        else:
            runs.append([m])
    for run in runs:
        if len(run) < 2:
            continue
        first = int(run[0].components[0][1])
        for k, m in enumerate(run[1:], start=1):
            number, delim = str(first + k), m.marker_text[-1:]
            written = f"{number}{delim}"
            m.title = written + m.title[len(m.marker_text) :] if m.title.startswith(m.marker_text) else m.title
            m.components = [("mditem", number, written)]
            m.value, m.marker_text = first + k, written
    return markers


def _scan_lines(lines: list[str], markdown_flavour: bool, veto: frozenset[int], ctx: ParseContext) -> list[_Marker]:
    markers: list[_Marker] = []
    # a memo laid out as RFCs are: a plain-text table of contents, body text indented below
    # unnumbered headings at the margin ("Abstract", "Status of This Memo", "Acknowledgments")
    memo = not markdown_flavour and any(
        _CONTENTS_HEAD_RE.match(ln) and _contents_marker(lines, n, True) for n, ln in enumerate(lines)
    )
    fence: str | None = None
    prev_blank = True
    i = 0
    while i < len(lines):
        line = lines[i]
        fm = _FENCE_RE.match(line)
        if fence is not None:
            if (
                fm
                and fm.group("fence")[0] == fence[0]
                and len(fm.group("fence")) >= len(fence)
                and not line.strip()[len(fm.group("fence")) :].strip()
            ):
                fence = None
            i += 1
            prev_blank = False
            continue
        if fm:
            fence = fm.group("fence")
            i += 1
            prev_blank = False
            continue
        stripped = line.strip()
        if not stripped:
            prev_blank = True
            i += 1
            continue
        if i in veto:
            prev_blank = False
            i += 1
            continue
        marker = (
            _heading_marker(lines, i, prev_blank, ctx)
            or _sign_marker(lines, i, prev_blank, ctx)
            or (None if markdown_flavour else _contents_marker(lines, i, prev_blank))
            or _label_marker(lines, i, markdown_flavour, prev_blank, markers, ctx)
            or (_margin_heading_marker(lines, i, prev_blank) if memo else None)
        )
        if marker is not None:
            if marker.kind == "label" and i in ctx.clause_items:
                marker.md_level = ctx.clause_items[i]  # nests as the numbered headings of its series do
            markers.append(marker)
            i = marker.end
            prev_blank = False
            continue
        prev_blank = False
        i += 1
    return markers


def _sign_marker(lines: list[str], i: int, prev_blank: bool, ctx: ParseContext) -> _Marker | None:
    """A clause headed ``§ N`` in a form the label grammar misses (:mod:`.signs`); one that continues
    a sentence broken off above it ("… according to" / "§ 3") is the resolver's to reject
    (:mod:`.resolve`, ``prev_mid_sentence``, ``wrapped_mention``)."""
    expanded = lines[i].expandtabs(4)
    return sign_marker(lines, i, len(expanded) - len(expanded.lstrip()), ctx.sign_series)


def _heading_marker(lines: list[str], i: int, prev_blank: bool, ctx: ParseContext) -> _Marker | None:
    """An ATX heading at line ``i`` or a setext heading whose underline is line ``i + 1``."""
    line = lines[i]
    m = _ATX_RE.match(line)
    if m:
        text = _without_running_title(m.group("text") or "", ctx.running_titles)
        return _Marker(
            i,
            i + 1,
            "heading",
            line,
            _plain(text),
            md_level=len(m.group("hashes")),
            markup_numbers=ctx.heading_levels,
            # a "Contents" heading lists the sections and holds none (an index keeps its letter groups)
            flat=bool(_CONTENTS_HEAD_RE.match(_plain(text).strip())),
        )
    if i + 1 < len(lines) and prev_blank and not line.lstrip().startswith(("|", ">", "-", "*", "+")):
        u = _SETEXT_RE.match(lines[i + 1])
        if u and line.strip() and len(line) - len(line.lstrip()) < 4:
            level = 1 if u.group("ch")[0] == "=" else 2
            return _Marker(
                i,
                i + 2,
                "heading",
                line + "\n" + lines[i + 1],
                _plain(line),
                md_level=level,
                markup_numbers=ctx.heading_levels,
            )
    return None


_CONTENTS_LINE_RE = re.compile(r"^[ \t]+(?:Appendix[ \t]+)?(?:[A-Z]|\d{1,3})(?:\.\d{1,3})*\.?[ \t]+\S")
_CONTENTS_HEAD_RE = contents_title_pattern(("contents",))  # the citation grammar's contents titles


def _contents_marker(lines: list[str], i: int, prev_blank: bool) -> _Marker | None:
    """A plain-text document's own ``Table of Contents`` line (RFCs, plain-text manuals): at the
    left margin, set apart by blank lines, with indented numbered entries below it (three of the
    next five lines, dot leaders or none). It heads a section of its own, which ends at the next
    marker (:func:`.build._find_parent` nests nothing under it), so the contents rows are a
    contents section's text rather than the preamble's."""
    line = lines[i]
    if not prev_blank or line[:1].isspace() or not _CONTENTS_HEAD_RE.match(line.strip()):
        return None
    if i + 1 < len(lines) and lines[i + 1].strip():
        return None
    below = [ln for ln in lines[i + 1 : i + 12] if ln.strip()][:5]
    if sum(1 for ln in below if _CONTENTS_LINE_RE.match(ln)) < 3:
        return None
    return _Marker(i, i + 1, "heading", line, _plain(line), md_level=1, flat=True)


_MARGIN_HEADING_RE = re.compile(r"^[A-Z][\w'’()/-]*(?: [\w'’()/&-]+){0,5}$")


def _margin_heading_marker(lines: list[str], i: int, prev_blank: bool) -> _Marker | None:
    """An unnumbered heading of a memo (see :func:`_contents_marker`): a short line of words at the
    left margin, set apart by a blank line on each side, whose next paragraph is indented
    (``Abstract``, ``Status of This Memo``, ``Authors' Addresses``). Running headers and footers
    run in columns (``RFC 6749   OAuth 2.0   October 2012``) and are never one."""
    line = lines[i].rstrip()
    if not prev_blank or not _MARGIN_HEADING_RE.match(line) or i + 2 >= len(lines) or lines[i + 1].strip():
        return None
    nxt = next((ln for ln in lines[i + 2 : i + 6] if ln.strip()), "")
    if not nxt[:2].isspace() or nxt[:2] != "  ":
        return None
    return _Marker(i, i + 1, "heading", lines[i], _plain(line), md_level=1, flat=True)


def _label_marker(
    lines: list[str], i: int, markdown_flavour: bool, prev_blank: bool, markers: list[_Marker], ctx: ParseContext
) -> _Marker | None:
    """A numbered label, keyword label or enumerated item starting line ``i``.

    ``markers`` are the markers found before line ``i``: a numbered line directly under
    another line (no blank between) is a label only when it continues their numbering.
    """
    line = lines[i]
    expanded = line.expandtabs(4)
    indent = ctx.list_columns.get(i, len(expanded) - len(expanded.lstrip()))  # a list item: its list's column
    text = without_amendment_mark(_without_running_title(line.strip(), ctx.running_titles))  # "1[4. Penalty …"
    if text.startswith(("|", ">")) or _TOC_RE.search(text):
        return None
    if bullet := _BULLETED_ENUMERATOR_RE.match(text):  # "- (3) …": a bullet in front of the provision's own number
        text = text[bullet.end() :]
    if _in_definitions_list(lines, i, text):
        return None  # "1. profil ADN : un code …" under "… on entend par :": a definition, the article's text
    run_in = False  # a bold label whose paragraph's text runs on after it on the same line
    bold_title = ""  # the title a bold run states together with the label (:func:`_bold_numbered_title`)
    if (
        (bold := _BOLD_RUN_IN_RE.match(text))
        and _is_whole_label(bold.group("label"))
        # glued to its text or alone on its line, the label closes with its own full stop ("**Art. 5.**")
        # or a hard line break joins it to its text ("***Article 1***  " / "La Belgique …"); a lone
        # "**§ 613a**" paragraph is a bold mention
        and (
            bold.group("gap")
            and bold.group("rest").strip()
            or bold.group("label").rstrip().endswith(".")
            or _hard_break_before_text(lines, i)
            # or, alone on its line with no full stop, it is one of a running series of such labels
            # ("***Article 5***" / text, "***Article 6***" / text …)
            or i in ctx.bold_labels
        )
    ):
        text = f"{bold.group('label').strip()} {bold.group('rest')}".rstrip()  # the bold marks the label
        run_in = bool(bold.group("rest").strip())
    elif bold and (titled := _bold_numbered_title(bold)):
        # "**2.2 Lifetime Rate Lock.** As a …": the bold run holds the clause's number and its title
        text, bold_title, run_in = f"{titled[0]} {bold.group('rest')}", titled[1], True
    if markdown_flavour:
        mi = _MD_ITEM_RE.match(text)
        if (
            mi
            and not re.match(r"^\d{1,3}\.\d", text)
            and not _md_item_is_clause(mi, lines, i, _numbering_above(lines, i, markers, prev_blank, past_lists=False))
            and i not in ctx.clause_items
        ):
            return _md_item(mi, line, i, indent)
        if i in ctx.clause_items and (
            lead := re.match(rf"^\d{{1,3}}{CLAUSE_CLOSE}[ \t]+\*\*(?P<title>[^*]{{2,80}}?)[.:]?\*\*[.:]?[ \t]+\S", text)
        ):
            bold_title = lead.group("title")  # "1) **Background.** Assignor …": titled by its bold run
    if i in ctx.letter_items and (close := _CLOSE_LETTER_RE.match(text)):
        text = f"({close.group('letter')}){close.group('sep')}{close.group('rest')}"  # "a) …": item (a)
    m = _ITEM_RE.match(text)
    if m:
        if not prev_blank and i and _ends_with_citation_word(lines[i - 1]):
            return None  # "… an order under subsection" / "(1) shall take steps": a citation wrapped, no item
        readings = _item_style(m.group("label")[1:-1])
        if readings and (m.group("rest") == "" or m.group("sep")):
            title, is_heading = _title_of(m.group("rest"))
            style, value = readings[0]
            return _Marker(
                i,
                i + 1,
                "item",
                "",
                f"{m.group('label')} {title}".strip(),
                indent=indent,
                style=style,
                value=value,
                marker_text=m.group("label"),
                components=[("paren", m.group("label"), m.group("label"))],
            )
    if i in ctx.tight_labels:
        tm = _TIGHT_LABEL_RE.match(text)
        title, _ = _title_of(tm.group("rest"))
        return _Marker(
            i,
            i + 1,
            "label",
            line,
            f"{tm.group('label')[:-1]} {title}",
            indent=indent,
            components=_components(tm.group("label"), ctx.heading_levels),
        )
    if back := _back_matter_marker(lines, i, text, prev_blank, indent):
        return back
    # a clause of a series numbered "1)", "2)" (ctx.clause_items) closes its number with a bracket as others with a dot
    m = (_CLAUSE_LABEL_RE if i in ctx.clause_items else _LABEL_RE).match(text) or _FIRST_ROMAN_OR_LETTER_RE.match(text)
    if not m:
        return None
    label, sep, rest = m.group("label"), m.group("sep"), m.group("rest")
    bracket = m.groupdict().get("close") == ")"  # "3)" of a clause series, "2.1)": a number closed by a bracket
    if (apart := _SUFFIX_APART_RE.match(rest)) and re.search(r"\d\.?$", label) and _KEYWORD_LED_RE.match(label):
        # "§4. bis. (Les décrets …", "Art. 5 bis. …": a Latin suffix set apart from its keyword's number
        label, sep, rest = f"{label.rstrip('.')}{apart.group(1)}.", apart.group(2), rest[apart.end() :]
    closed = bracket or label.endswith(".")  # the number closed by a clause mark, as "3." is
    comps = _components(label, ctx.heading_levels)
    if comps is None or len(comps) == 1 and comps[0][0] == "num" and not comps[0][1][:1].isdigit():
        return None  # a lone letter or roman numeral names a section only as a heading ("## M. RECORD …")
    if _mentioned_back_matter(comps, rest, lines, i):
        return None  # "… attached hereto as" / "Exhibit C. As the result of …": a mention in running text
    nummer = _nummer_under_absatz(comps, label, closed, rest, markers, line, i, indent)
    if nummer is not None:
        return nummer
    prev_path = _numbering_above(lines, i, markers, prev_blank, past_lists=True)
    path = _label_path(comps)
    if prev_path is not None:
        follows = _continues_numbering(prev_path, path) and not (
            len(path) == 1 and _under_unnumbered_list_line(lines, i, markers)
        )
    else:
        follows = not prev_blank and _opens_numbering(lines, i, path, markers, ctx.heading_levels)
    if not _plausible_label(comps, label, closed, sep, rest, prev_blank or follows) and not (
        prev_blank and _continued_clause(comps, sep, rest, markers)
    ):
        sibling = _sibling_number(lines, i, comps, label, closed, sep, rest, markers)
        if sibling is None:
            return None
        return sibling
    end = i + 1
    if not rest.strip() and any(k.startswith("kw:") for k, _, _ in comps):
        rest, end = _title_below(lines, i)
    title, is_heading = _title_of(rest)
    if bold_title:
        title, is_heading = bold_title, False
    elif end > i + 1 and not is_heading:  # a long title below its label (:func:`_title_below`): all of it
        title, is_heading = _plain(rest), True
    elif any(k.startswith("kw:") for k, _, _ in comps) and (not is_heading or run_in):
        title, is_heading = _stated_title(rest, title, is_heading, run_in)
    number = label[:-1] if bracket else label if label.endswith(").") else label.rstrip(".")
    shown = f"{number} {title}".strip()
    heading = "\n".join(lines[i:end]) if is_heading else ""
    return _Marker(i, end, "label", heading, shown, indent=indent, components=comps)


def _mentioned_back_matter(comps: list[tuple[str, str, str]], rest: str, lines: list[str], i: int) -> bool:
    """A back-matter label (``Exhibit C``, ``Schedule 2``, ``Annex I``: a keyword of the grammar's
    ``back`` role) opening a line of running text that continues a sentence broken off above it
    ("… copy of the Order Summary attached hereto as" / "Exhibit C. As the result of that
    transfer, the Linux Foundation, through"): the paragraph cites its exhibit, it does not open
    one. A back-matter container stands as a heading: its label alone, or with a title
    (``Exhibit A. Form of Notice``), never with a sentence run on after it. PDF text sets every
    line apart by a blank line, so the line above is the last non-blank one."""
    if len(comps) != 1 or not comps[0][0].startswith("kw:"):
        return False
    if comps[0][0].split(":")[1] not in back_matter_prefixes() or not rest.strip():
        return False
    prev = next((lines[j] for j in range(i - 1, max(-1, i - 4), -1) if lines[j].strip()), "")
    if not prev or prev.lstrip().startswith("#") or not _ends_mid_sentence(prev):
        return False
    title, is_heading = _title_of(rest)
    if not is_heading:
        return True
    # a title is set in capitals or title case ("Form of Notice", "DATA PROCESSING TERMS"); a
    # sentence runs on in lower case ("As the result of that domain name transfer, the …")
    words = [w for w in re.findall(r"[^\W\d_][\w'’-]*", title) if w.lower() not in _FUNCTION_WORDS]
    return bool(words) and sum(w[:1].isupper() for w in words) * 2 < len(words)


def _back_matter_marker(lines: list[str], i: int, text: str, prev_blank: bool, indent: int) -> _Marker | None:
    """A back-matter unit's label alone on its line with no number of its own or an ordinal word for
    it (:func:`.grammar.back_matter_label`: ``SCHEDULE``, ``THE FIRST SCHEDULE [See section 2]``),
    set apart from the text above (a blank line or a sentence's end): a container ranked as its
    keyword, like ``Schedule 2`` (ids ``schedule``, ``schedule-1``), so the forms and tables after it
    are its text, not the last section's. Its title is the line below when it reads as one
    (:func:`_title_below`)."""
    if not (prev_blank or i and re.search(r"[.:;]$", lines[i - 1].strip())):
        return None
    back = back_matter_label(text)
    if back is None or back[0] not in _KEYWORDS:
        return None
    keyword, number = back
    prefix, _ = _KEYWORDS[keyword]
    rest, end = _title_below(lines, i)
    if back_matter_label(rest):
        rest, end = "", i + 1  # "FIRST SCHEDULE" / "SECOND SCHEDULE" listed in a contents: no title
    shown = f"{text} {_plain(rest)}".strip() if end > i + 1 else text
    return _Marker(
        i,
        end,
        "label",
        "\n".join(lines[i:end]),
        shown,
        indent=indent,
        components=[(f"kw:{prefix}:{keyword}", number, text)],
    )


def _stated_title(rest: str, title: str, is_heading: bool, run_in: bool) -> tuple[str, bool]:
    """(title, is_heading) of a keyword label (``Article 3.``, ``**Art. 3.**``) whose line runs on
    into ``rest`` (:func:`.labels._title_of` read it as ``title``, ``is_heading``): an untitled
    provision takes no words of its text as title. A bold label's text is its body, unless it reads
    as a heading and closes with no punctuation (``**4.2** Scope of work``); a plain label keeps a
    leading phrase that is no sentence (``Definitions.``, ``Access and Use.``) or a defined term,
    never its first sentence or first words."""
    text = _plain(rest).strip()
    if run_in:
        if is_heading and not re.search(r"[.:;,]$", text):
            return title, True
        return "", False
    if title.startswith('"') or (
        not title.endswith("…") and title != text and not _reads_as_sentence(title, title.split())
    ):
        return title, False
    return "", False


def _title_below(lines: list[str], i: int) -> tuple[str, int]:
    """(title, end) for a keyword label alone on line ``i`` ("SECT 2A", "Article 5"): the line
    directly below is its title when it reads as one (short, capitalised, no label of its own;
    or, up to 25 words, in capitals or with no verb and no closing punctuation) and a blank line
    or the end follows it; otherwise a title in capitals (:func:`_capitals_below`), else no title."""
    if i + 1 >= len(lines) or not lines[i + 1].strip() or i + 2 < len(lines) and lines[i + 2].strip():
        return _capitals_below(lines, i)
    below = lines[i + 1].strip()
    if (
        _LABEL_RE.match(below)
        or _ITEM_RE.match(below)
        or _ATX_RE.match(below)
        or _SETEXT_RE.match(below)
        or not re.match(r"^[A-ZÄÖÜ“\"'‘]", below)
    ):
        return "", i + 1
    title, is_heading = _title_of(below)
    if is_heading and len(below.split()) <= 12:
        return below, i + 2
    words = below.split()
    if (
        len(words) <= 25
        and not re.search(r"[.;:,]$", below)
        and (
            below.upper() == below
            or not any(w in _FINITE_VERBS for w in re.findall(r"[a-zà-ÿ]+(?:['’][a-zà-ÿ]+)?", below))
        )
    ):
        # an EU Article's or Chapter's title may be long ("Reporting of wallet-relying parties to
        # supervisory authorities established under Article 51 of …"): a line in capitals, or one
        # with no finite verb and no closing punctuation, is a title, never prose
        return below, i + 2
    return "", i + 1


def _capitals_below(lines: list[str], i: int) -> tuple[str, int]:
    """(title, end) for a keyword label alone on line ``i`` ("Part II") whose title is set in
    capitals below it, as Commonwealth statutes print a Part's: one to three lines all in capitals
    (a long title wraps: "APPOINTMENT, FUNCTIONS AND POWERS OF" / "COMMISSIONER"), after at most one
    blank line, ending at a blank line, at the next keyword label ("Division 1" directly below) or
    at the end; at most 25 words. Otherwise no title: ``("", i + 1)``."""
    j = i + 1
    if j < len(lines) and not lines[j].strip():
        j += 1
    taken: list[str] = []
    while j < len(lines) and lines[j].strip() and len(taken) < 4:
        text = lines[j].strip()
        if _KEYWORD_LED_RE.match(text) or _ATX_RE.match(text) or _ITEM_RE.match(text) or _LABEL_RE.match(text):
            break
        taken.append(text)
        j += 1
    closed = j >= len(lines) or not lines[j].strip() or bool(_KEYWORD_LED_RE.match(lines[j].strip()))
    title = " ".join(taken)
    letters = [c for c in title if c.isalpha()]
    if (
        not taken
        or len(taken) > 3
        or not closed
        or len(title.split()) > 25
        or len(letters) < 4
        or any(c.islower() for c in letters)
    ):
        return "", i + 1
    return title, j


def _nummer_under_absatz(
    comps: list[tuple[str, str, str]],
    label: str,
    closed: bool,
    rest: str,
    markers: list[_Marker],
    line: str,
    i: int,
    indent: int,
) -> _Marker | None:
    """``1.`` right after an ``(1)`` item of a keyword-numbered section (``§ 3`` / ``(1)`` / ``1.``,
    as German statutes number Paragraph, Absatz, Nummer): in plain text it is an item of that
    ``(1)``, not section 1 of the document, unless it continues the section's own numbering."""
    if len(comps) != 1 or comps[0][0] != "num" or not closed or not comps[0][1].isdigit():
        return None
    prev = markers[-1] if markers else None
    if prev is None or prev.kind != "item":  # after "(1)", or after the Nummer "1." before it
        return None
    absatz = re.fullmatch(r"\(\d{1,3}\)", prev.marker_text)  # "(1)", not the "(a)" of an EU paragraph
    if not absatz and not (prev.components[0][0] == "mditem" and int(comps[0][1]) == prev.value + 1):
        return None
    section = next((m for m in reversed(markers) if m.kind in ("label", "heading") and _heading_label(m)), None)
    comps_s = _heading_label(section) if section else None
    path_s = _label_path(comps_s) if comps_s else []
    if (
        not comps_s
        or not any(k.startswith("kw:") for k, _, _ in comps_s)
        or all(_ordinal(p) for p in path_s)
        and _continues_numbering(path_s, [comps[0][1]])
    ):
        return None
    value = int(comps[0][1])
    title, _ = _title_of(rest)
    return _Marker(
        i,
        i + 1,
        "item",
        "",
        f"{label} {title}".strip(),
        indent=indent,
        style="digit",
        value=value,
        marker_text=label,
        components=[("mditem", comps[0][1], label)],
    )


def _sibling_number(
    lines: list[str],
    i: int,
    comps: list[tuple[str, str, str]],
    label: str,
    closed: bool,
    sep: str,
    rest: str,
    markers: list[_Marker],
) -> _Marker | None:
    """A bare, undotted number that the shape rules reject (``12A Obstruction of a footpath``:
    one space, no dot; ``12B`` alone, its title on the next line, as PDF text of statutes prints
    them) is a section when the numbering evidence supports it: it continues the number of the
    last numbered section (12 → 12A → 12B → 13, ignoring blank lines and items) or opens the
    document's numbering at 1, and its title reads like a heading."""
    if len(comps) != 1 or comps[0][0] != "num" or closed or sep.startswith("\t"):
        return None
    path = _label_path(comps)
    last = next((m for m in reversed(markers) if m.kind in ("label", "heading") and _heading_label(m)), None)
    last_path = _label_path(_heading_label(last)) if last else None
    container = last_path is not None and "-" in last_path[-1] and not last_path[-1].startswith("(")
    if container:  # the first section of a Part / Division: any number, set apart by a blank line
        if i and lines[i - 1].strip():
            return None
    elif last_path is not None:
        if not (all(_ordinal(p) for p in last_path) and len(last_path) == 1 and _continues_numbering(last_path, path)):
            return None
    elif path != ["1"]:
        return None
    end = i + 1
    rest_s = rest.strip()
    if not rest_s:  # "12B" alone: the title is the next non-blank line
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or j - i > 2 or _LABEL_RE.match(lines[j].strip()) or _ITEM_RE.match(lines[j].strip()):
            return None
        rest_s, end = lines[j].strip(), j + 1
    title, is_heading = _title_of(rest_s)
    if not is_heading or not re.match(r"^[A-Z“\"'‘]", rest_s) or _ends_mid_sentence(lines[i - 1] if i else ""):
        return None
    return _Marker(i, end, "label", "\n".join(lines[i:end]), f"{label} {title}", indent=0, components=comps)


def _continued_clause(comps: list[tuple[str, str, str]], sep: str, rest: str, markers: list[_Marker]) -> bool:
    """A dotted number opening a paragraph whose text does not start as a title does (``2.2.2 have
    sole responsibility …`` completing the lead-in "Customer shall:", ``2.3.4 37signals shall
    promptly notify …`` opening with a name spelled with a figure) is a clause when it continues the
    numbering of the last numbered section, looking past its items (2.2.1 → 2.2.2; 2.3.3, its
    ``i.`` … ``iii.``, then 2.3.4; 2.2.4 → 2.3 → 2.3.1): a figure in prose ("2.5 million") rarely
    follows the clause numbered just before it. Proposed so, it is the resolver's to weigh
    (``starts_lower``, ``step_next``). The text must open with a word (``have``, ``37signals``), not
    a figure, an amount or punctuation."""
    if len(comps) < 2 or any(k != "num" for k, _, _ in comps) or sep != " ":
        return False
    if not re.match(r"^(?:[^\W\d_]|\d+[^\W\d_]{2,})", rest.strip()):
        return False
    path = _label_path(comps)
    for m in reversed(markers):
        if m.kind == "item":
            continue
        last = _label_path(_heading_label(m) or []) if m.kind in ("label", "heading") else []
        return bool(last) and all(_ordinal(p) for p in last + path) and _continues_numbering(last, path)
    return False


def _plausible_label(
    comps: list[tuple[str, str, str]], label: str, closed: bool, sep: str, rest: str, set_apart: bool
) -> bool:
    """Shape rules that keep prose, dates, figures and table rows from becoming sections.

    ``closed``: the label's number is closed by a clause mark (``3.``, ``3)`` of a series numbered so,
    ``2.1)``: grammar.CLAUSE_CLOSE). ``set_apart``: the line follows a blank line, or continues the
    numbering of the labels above it (``1.2`` under ``1.1``), so a single space may separate label and title.
    """
    has_kw = any(k.startswith("kw:") for k, _, _ in comps)
    rest_s = rest.strip()
    if re.match(r"^\d[\d.,]*(?:\s|%|$)", rest_s) or rest_s.startswith(("%", "per cent", "percent")):
        return False  # "1.5 2.3" figures, "3.5 %" amounts
    if has_kw:
        if sep in ("\t",) or sep.startswith("\t") or len(sep) >= 2 or not rest_s:
            return True
        if rest_s[:1] in "-–—:.(" or closed:
            return True
        return bool(re.match(r"^[A-Z0-9“\"'‘]", rest_s)) and len(rest_s.split()) <= 12
    dotted = "." in label.rstrip(".") or "(" in label
    if not rest_s:
        return dotted or closed
    if sep.startswith("\t") or len(sep) >= 2:
        # "1<TAB>GENERAL PROVISIONS": a bare number needs a heading-like title after a tab
        return dotted or closed or (sep.startswith("\t") and _title_of(rest)[1] and rest_s[:1].isupper())
    if sep == "":  # "PART 1.INTRODUCTION" only with a keyword
        return False
    # single space: "4.2 Title" or "1. Definitions." — needs a capitalised start, set apart
    return set_apart and (dotted or closed) and bool(re.match(r"^[A-Z“\"'‘*\[<]", rest_s))


def _ends_with_citation_word(line: str) -> bool:
    """The line ends with a citation word of the grammar naming a provision or its item (rank 4 or
    more: ``subsection``, ``paragraph``, ``section``, ``clause``, ``Absatz`` …; not a container's
    ``Part``) and nothing after it: the bracketed label opening the next line of its paragraph is
    the number that word cites (``… an order under subsection`` / ``(1) shall take steps …``), never
    an item of its own — a list's items follow a colon, a dash or a semicolon. The word before it is
    running text in lower case ("under", "said"): a numbered heading's title ("1.1 Rule") cites nothing."""
    last = re.search(r"(?<![\w'’-])([^\W\d_][\w.-]*|[§¶]{1,2})$", line.strip())
    before = line.strip()[: last.start()].split() if last else []
    if not last or not before or not before[-1].isalpha() or not before[-1].islower():
        return False  # "… under subsection", not a heading's own word ("1.1 Rule", "Section")
    word = last.group(1)
    k = keywords().get(word.lower()) or keywords().get(word.lower().rstrip("."))
    return k is not None and k.rank >= 4 and (not k.case or word in k.case)  # a provision's word, not Part's


def _ends_mid_sentence(line: str) -> bool:
    """The line breaks off where a sentence goes on ("… extended by", "… see Section"), so a
    number opening the next line continues that sentence rather than labelling a clause."""
    text = line.strip().lower()
    if text.endswith((",", ";", "(", "—", "–", "-")):
        return True
    last = re.search(r"[\w§]+$", text)
    return bool(last) and (
        last.group() in _FUNCTION_WORDS or last.group() in _KEYWORDS or last.group() in _REFERENCE_WORDS
    )


def _numbering_above(
    lines: list[str], i: int, markers: list[_Marker], prev_blank: bool, past_lists: bool
) -> list[str] | None:
    """The numbering a label on line ``i``, directly under another line, would have to
    continue: the bare path (``['1', '2']``) of the last label or numbered heading, looking past
    ``(a)`` items (and Markdown list items when ``past_lists``). ``None`` after a blank line,
    and after a line that breaks off mid-sentence."""
    if prev_blank or i == 0 or _ends_mid_sentence(lines[i - 1]):
        return None
    for m in reversed(markers):
        if m.kind == "item" and (past_lists or m.components[0][0] == "paren"):
            continue
        comps = _heading_label(m) if m.kind in ("label", "heading") else None
        path = _label_path(comps) if comps else []
        if path and all(_ordinal(p) for p in path):
            return path
        return None
    return None


def _under_unnumbered_list_line(lines: list[str], i: int, markers: list[_Marker]) -> bool:
    """Line ``i - 1`` starts with an enumerator (``2.``, ``(b)``, ``b)``) that was not taken as
    a marker: a ``3.`` below it continues that list, not clause 2."""
    if markers and markers[-1].line <= i - 1 < markers[-1].end:
        return False
    return bool(re.match(r"^\s*(?:\d{1,3}[.)]|\(\w{1,4}\)|[a-zA-Z][.)])\s", lines[i - 1]))


def _opens_numbering(lines: list[str], i: int, path: list[str], markers: list[_Marker], joined: bool = False) -> bool:
    """A first clause (``1.``, ``1.1``) directly under a title line, confirmed by the next line
    continuing its numbering (``1.1 …`` under ``1. Warranty Period``). Not under a line ending in
    a colon ("Payment is due:" introduces a list) or breaking off mid-sentence."""
    if (
        any(p != "1" for p in path)
        or i + 1 >= len(lines)
        or _ends_mid_sentence(lines[i - 1])
        or lines[i - 1].rstrip().endswith(":")
        or _under_unnumbered_list_line(lines, i, markers)
    ):
        return False
    nxt = _LABEL_RE.match(lines[i + 1].strip())
    comps = _components(nxt.group("label"), joined) if nxt else None
    return bool(
        comps and re.match(r"^[A-Z“\"'‘]", nxt.group("rest").strip()) and _continues_numbering(path, _label_path(comps))
    )


def _md_item_is_clause(m: re.Match, lines: list[str], i: int, prev_path: list[str] | None) -> bool:
    """In Markdown, ``2. Exclusions`` is a numbered clause, not a list item, when the next line
    opens its sub-clauses (``2.1 …``) or it continues dotted clauses right above (``1.2 …``).
    Dotted labels are not Markdown list syntax, so documents that mix them with ``N.`` lines
    number clauses, not list items."""
    number = m.group("marker")
    if m.group("delim") != "." or not number.isdigit():
        return False
    nxt = next((ln.strip() for ln in lines[i + 1 :] if ln.strip()), "")
    if re.match(rf"^{number}\.1[.\s]", nxt):
        return True
    return bool(prev_path and len(prev_path) >= 2 and _continues_numbering(prev_path, [number]))


# "# 5. Permitted Disclosures.", "# 2) Grant": a Markdown heading numbered by a bare number (a converter's heading)
_NUMBERED_ATX_RE = re.compile(
    rf"^ {{0,3}}#{{1,6}}[ \t]+[*_]{{0,3}}(?P<number>\d{{1,3}})(?P<delim>{CLAUSE_CLOSE}?)[*_]{{0,3}}(?:[ \t]|$)"
)
# "2.1 **Roles of the Parties.**", "2.1) Scope.": a dotted clause number opening a paragraph at the margin
# (not "4.2.1.1) to verify …", a citation "(Section 4.2.1.1)" wrapped to a line start)
_DOTTED_CLAUSE_RE = re.compile(rf"^[*_]{{0,2}}(?P<number>\d{{1,3}})\.{CLAUSE_NUMBER}{CLAUSE_CLOSE}?[*_]{{0,2}}[ \t]+\S")


def _clause_items(lines: list[str]) -> dict[int, int]:
    """Line (0-based) → Markdown heading level, for the ``N.`` / ``N)`` Markdown list items that are clauses of the numbering the document's
    numbered headings carry, not list items: a PDF or Word converter sets some clauses as headings
    (a clause whose title stands alone on its line, ``# 5. Permitted Disclosures.``) and the others
    as paragraphs opening with their number (``6. Term and Termination. This NDA …``), which
    Markdown reads as an ordered list. An item at the left margin is such a clause when its number
    continues that series: it follows a numbered heading or a clause of the series by one (``# 5.``,
    its ``a.`` / ``b.`` items, then ``6.``; ``# 9.`` then ``10.``), or it is one of a run of items
    ``1.`` … ``4.`` counting on by one that the next numbered heading continues (``# 5.``) with no
    other heading between, that heading being one of a series (a later numbered heading of its level
    goes on from it: ``# 9.``), or that a dotted number opening a line subdivides (``1)``, ``2)``,
    then ``2.1)``; ``1.``, ``2.``, then ``2.1``): the items are the clauses the dotted numbers are
    sub-clauses of, as agreements numbering ``1) Background.`` … write them. An item continuing a list of its own (``1.`` … ``5.`` under ``# 5.``,
    then ``6.``) stays an item of that list; so does a list under an unnumbered heading. An item
    closed by a bracket (``3)``) continues only a series written so (``# 2)``, ``2)``). Each clause
    takes the Markdown level of the series' headings, so it nests as they do (a sibling of ``# 5.``,
    never a child of the unnumbered title heading above ``1.``); a run that a dotted number makes
    clauses, with no numbered heading, nests one level under the last heading above it."""
    out: dict[int, int] = {}
    headings: list[tuple[int, int]] = []  # (Markdown level, number) of the numbered headings, in order
    leads: list[tuple[list[tuple[int, int]], int, int]] = []  # runs of items and the heading they lead into
    last: int | None = None  # the series' last number: a numbered heading's or a clause item's
    delim = ""  # how the series closes its numbers: "." or "" (either), or ")"
    level = 1  # the Markdown level of the series' last numbered heading
    plain_level = 0  # the Markdown level of the last heading with no number
    listed: int | None = None  # the last digit item since then that is no clause (a list of its own)
    run: list[tuple[int, int]] = []  # (line, number) of digit items that may lead into the next heading
    fence = False
    for i, line in enumerate(lines):
        if _FENCE_RE.match(line):
            fence = not fence
            continue
        if fence:
            continue
        heading = _NUMBERED_ATX_RE.match(line)
        if heading or _ATX_RE.match(line):
            number = int(heading.group("number")) if heading else None
            if number is not None:
                level = len(line.lstrip().split(None, 1)[0])
                headings.append((level, number))
                if run and run[-1][1] + 1 == number:
                    leads.append((run, level, number))
                delim = heading.group("delim")
            else:
                plain_level = len(line.lstrip().split(None, 1)[0])
            last, listed, run = number, None, []
            continue
        dotted = _DOTTED_CLAUSE_RE.match(line) if _opens_sentence(lines, i) else None
        if dotted and run and last is None and run[-1][1] == int(dotted.group("number")):
            level = min(plain_level + 1, 6)
            out.update((n, level) for n, _ in run)
            last, delim = run[-1][1], _item_delim(lines[run[-1][0]])
            listed, run = None, []
            continue
        item = _MD_ITEM_RE.match(line)
        if not item or not item.group("marker").isdigit():
            continue
        closed = item.group("delim") == ")"  # "3)": only in a series numbered so
        if closed and not (delim == ")" or last is None):
            continue
        value = int(item.group("marker"))
        if last is not None and value == last + 1 and listed != value - 1 and closed == (delim == ")"):
            out[i] = level
            last, listed, run = value, None, []
            continue
        listed = value
        if run and run[-1][1] + 1 == value and _item_delim(lines[run[-1][0]]) == item.group("delim"):
            run.append((i, value))
        else:  # only a run opening the document's numbering (no numbered heading above) leads into one
            run = [(i, value)] if last is None and value == 1 else []
    for items, level, number in leads:
        # the heading is one of a series (a later numbered heading of its level goes on from it): a
        # list "1." … "4." above a lone "# 5." a converter mistook for a heading stays a list
        if any(lv == level and n > number for lv, n in headings[headings.index((level, number)) + 1 :]):
            out.update((n, level) for n, _ in items)
    if not headings and not out:
        out.update(_titled_clause_run(lines))
    return out


# "1. Definitions." / "2. Grant of Copyright License. Subject to …": a clause number and a title in
# capitalised words closed by its full stop, alone on its line or with the clause's first sentence after it
_TITLE_LINE_RE = re.compile(
    r"^(?P<number>\d{1,3})\.[ \t]+(?P<title>[A-Z][\w'’-]*(?:[ \t]+[\w'’-]+){0,7})\.(?:[ \t]*$|[ \t]+[\"“A-Z])"
)


def _titled_line(lines: list[str], i: int) -> bool:
    """Line ``i`` opens a clause with its number and title (:data:`_TITLE_LINE_RE`, every word of
    four letters or more capitalised: ``2. Grant of Copyright License.``), alone on its line with
    the clause's text after it or running on into its first sentence: a contract's clause title,
    not a list item's sentence."""
    m = _TITLE_LINE_RE.match(lines[i].strip())
    if not m or not all(w[:1].isupper() for w in m.group("title").split() if len(w) >= 4):
        return False
    if m.group(0).rstrip().endswith("."):  # alone: the clause's text follows
        nxt = next((ln.strip() for ln in lines[i + 1 :] if ln.strip()), "")
        return bool(nxt) and not _MD_ITEM_RE.match(nxt) and not nxt.startswith("#")
    return True


def _wraps_at_margin(lines: list[str], i: int) -> bool:
    """The item at line ``i`` goes on at the left margin on the next line (a PDF's line wrap, which
    Markdown reads as a lazy continuation; an author writing a list indents it or keeps it whole)."""
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    return bool(nxt.strip()) and not nxt[:1].isspace() and not _MD_ITEM_RE.match(nxt) and not _ATX_RE.match(nxt)


def _titled_clause_run(lines: list[str]) -> dict[int, int]:
    """Line → Markdown level for the items of a document with no numbered heading whose numbered
    paragraphs at the margin count ``1.``, ``2.``, ``3.`` … on by one (three or more, one run, no
    heading between), open, two or more of them, with a title (:func:`_titled_line`: ``1.
    Definitions.`` over ``"You" shall mean …``, ``2. Grant of Copyright License. Subject to …``)
    and wrap at the margin (:func:`_wraps_at_margin`), as an Apache-style contributor agreement a
    PDF converter reads under its title heading: they are its clauses, titled or not (``4. You
    represent that …``), nested one level under the heading above them."""
    run: list[int] = []
    plain_level = run_level = 0
    best: tuple[list[int], int] = ([], 0)

    def close() -> None:
        nonlocal best
        if (
            len(run) >= 3
            and sum(_titled_line(lines, k) for k in run) >= 2
            and any(_wraps_at_margin(lines, k) for k in run)
            and len(run) > len(best[0])
        ):
            best = (list(run), run_level)

    for i, line in enumerate(lines):
        if _ATX_RE.match(line):
            close()
            run = []
            plain_level = len(line.lstrip().split(None, 1)[0])
            continue
        item = _MD_ITEM_RE.match(line)
        if not item or item.group("delim") != "." or not item.group("marker").isdigit() or line[:1].isspace():
            continue
        value = int(item.group("marker"))
        if run and value == len(run) + 1:
            run.append(i)
            continue
        close()
        run, run_level = ([i], plain_level) if value == 1 else ([], 0)
    close()
    return {k: min(best[1] + 1, 6) for k in best[0]}


def _opens_sentence(lines: list[str], i: int) -> bool:
    """Line ``i`` opens a paragraph that is no sentence carried on: the text above it (past blank
    lines, which a PDF converter may put between the lines of one item) ends a sentence or is a
    heading, and its own text after the number does not start in lower case (``4.2.1.1) to verify
    …`` under ``… Update Mechanism (Section``: a citation wrapped to a line start)."""
    prev = next((ln.strip() for ln in reversed(lines[:i]) if ln.strip()), "")
    words = lines[i].split(None, 1)
    if len(words) < 2 or words[1].lstrip("*_")[:1].islower():
        return False
    return not prev or prev.startswith("#") or bool(re.search(r"[.:;!?][\"”’')\]*_]*$", prev))


def _item_delim(line: str) -> str:
    """The delimiter (``.`` or ``)``) of the Markdown list item opening ``line``, or ``""``."""
    item = _MD_ITEM_RE.match(line.strip())
    return item.group("delim") if item else ""


def _lone_bold(line: str) -> re.Match | None:
    """The bold run-in match of ``line`` (:data:`_BOLD_RUN_IN_RE`) when the bold label is all of it."""
    m = _BOLD_RUN_IN_RE.match(line)
    return m if m and not m.group("gap") and not m.group("rest") else None


def _bold_label_series(lines: list[str]) -> frozenset[int]:
    """Lines (0-based) that are a bold keyword label and nothing else (``***Article 5***``,
    ``**Art. 6**``: no full stop, the text in the next paragraph) and belong to a running series:
    at least three such lines in the same typography (marks and keyword) whose numbers run on
    (5 → 6 → 7, 3 → 3bis, gaps of up to two: :func:`.labels._continues_numbering`), each with a
    paragraph of text below it (not another bold line or a heading). Such a series
    is how the document sets its articles; a lone bold ``**§ 613a**`` among prose is a mention."""
    found: list[tuple[int, str, str, str]] = []  # (line, marks, keyword, number)
    for i, line in enumerate(lines):
        m = _lone_bold(line.strip())
        if not m or not _is_whole_label(m.group("label")):
            continue
        comps = _components(m.group("label").strip().rstrip("."))
        below = next((ln.strip() for ln in lines[i + 1 : i + 4] if ln.strip()), "")
        if not below or _lone_bold(below) or _ATX_RE.match(below):
            continue  # a list of bold names ("**Article 1**" / "**Article 2**" …) heads no text
        if comps and len(comps) == 1 and comps[0][0].startswith("kw:"):
            found.append((i, m.group("mark"), comps[0][0], comps[0][1]))
    out: set[int] = set()
    runs: dict[tuple[str, str], list[tuple[int, str]]] = {}  # typography → its current run
    for i, mark, kw, number in found:
        run = runs.setdefault((mark, kw), [])
        if run and not _continues_numbering([run[-1][1].upper()], [number.upper()]):
            run.clear()
        run.append((i, number))
        if len(run) >= 3:
            out.update(j for j, _ in run)
    return frozenset(out)


_ENUMERATED_LINE_RE = re.compile(r"^\s*(?:\(?\d{1,3}(?:[.)°]|\s?°)|[a-z]\))\s")


def _in_definitions_list(lines: list[str], i: int, text: str) -> bool:
    """Line ``i`` (its ``text``) is an entry ``N. term : meaning`` of a list of definitions: the
    lines above it back to the list's start are entries too (numbered, or a continuation), and the
    line that introduces the list opens a definitions block ("Pour l'application du présent Code,
    on entend par :", "In this Act:": :func:`..definitions.opens_definitions`)."""
    if numbered_term_entry(text) is None:
        return False
    j, blanks = i - 1, 0
    while j >= 0 and i - j <= 80:
        line = lines[j].strip()
        if not line:
            blanks += 1
            if blanks > 1:
                return False
        elif _ENUMERATED_LINE_RE.match(line):
            blanks = 0
        else:
            return opens_definitions(_plain(line))
        j -= 1
    return False


def _hard_break_before_text(lines: list[str], i: int) -> bool:
    """Line ``i`` ends in a Markdown hard line break (two spaces or a backslash) and its paragraph
    goes on on the next line."""
    return lines[i].endswith(("  ", "\\")) and i + 1 < len(lines) and bool(lines[i + 1].strip())


def _bold_numbered_title(bold: re.Match) -> tuple[str, str] | None:
    """``(label, title)`` when a bold run at a paragraph's start (:data:`_BOLD_RUN_IN_RE`) holds a
    clause's number and its title together and the clause's text runs on after it
    (``**2.2 Lifetime Rate Lock.** As a …``, ``**6.1 Governing Law:** State of …``): a dotted number
    (or a keyword with its number) and a short title that closes with ``.`` or ``:``, as a contract
    typed without automatic numbering sets a clause; else ``None``."""
    m = _LABEL_RE.match(bold.group("label").strip())
    if not m or not bold.group("rest").strip() or not re.search(r"\d", m.group("label")):
        return None
    title = m.group("rest").strip()
    words = title.split()
    if not (1 <= len(words) <= 8) or title[-1] not in ".:" or not title[:1].isupper():
        return None
    if _reads_as_sentence(title, words):
        return None
    return m.group("label"), title.rstrip(".:").strip()


def _is_whole_label(text: str) -> bool:
    """Whether ``text`` (a bold run at a paragraph's start) is a numbered label and nothing more:
    a grammar keyword with its number (``Art. 1.``, ``Section 5``, ``§ 3``) or a dotted number
    (``4.2``); a bold phrase (``Access and Use.``) or a number in words is not."""
    m = _LABEL_RE.match(text.strip())
    return bool(m and not m.group("rest").strip() and re.search(r"\d", m.group("label")))


def _md_item(m: re.Match, line: str, i: int, indent: int) -> _Marker:
    """A Markdown list item. When its text opens with an enumerator of its own (``1. a)``,
    ``2. 2.``: a converter numbering an HTML ``<ol>`` whose items print their number), the printed
    enumerator is the item's label."""
    marker, delim, rest = m.group("marker"), m.group("delim"), m.group("rest")
    printed = re.match(r"^(\d{1,3}|[a-z]{1,2}|[A-Z])([.)])(?:\s+(.*))?$", rest.strip())
    if printed and _item_style(printed.group(1)):
        marker, delim, rest = printed.group(1), printed.group(2), printed.group(3) or ""
    readings = _item_style(marker)
    style, value = readings[0]
    bold = re.match(r"^\*\*(?P<title>[^*\"“”]{2,80}?)(?:[.:]\*\*|\*\*[.:])(?:\s|$)", rest.strip())
    title = bold.group("title").strip() if bold else _title_of(rest)[0]  # "1. **Introduction**. This …"
    written = marker + delim
    return _Marker(
        i,
        i + 1,
        "item",
        "",
        f"{written} {title}".strip(),
        indent=indent,
        style=style,
        value=value,
        marker_text=written,
        components=[("mditem", marker, written)],
    )
