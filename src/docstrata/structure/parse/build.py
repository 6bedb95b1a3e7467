"""Nesting for :mod:`docstrata.structure.parse`: markers → sections with levels, parents and
normalised ids (``4.2.1``, ``203(a)(1)``, ``article-17``, a slug for unnumbered headings)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...models import Section
from ..grammar import ROMAN_PATTERN, roman_to_int, unnumbered_container
from .labels import _heading_label, _label_path, _plain
from .patterns import _KEYWORDS, _Marker, _Open
from .ranks import _CANON, _title_only, document_ranks

if TYPE_CHECKING:
    from .resolve import ParseContext


def _slug(text: str) -> str:
    s = re.sub(r"[^\w]+", "-", _plain(text).lower()).strip("-")
    return s[:60].rstrip("-") or "section"


def _id_from_path(path: list[str]) -> str:
    """``['part-1', 'chapter-1', '1', '(1)']`` → ``1(1)``; ``['part-1']`` → ``part-1``."""
    tail: list[str] = []
    for part in reversed(path):
        if "-" in part and not part.startswith("("):
            if not tail:
                return part
            if tail[0].startswith("("):  # article-6 + (1)(a) → article-6(1)(a)
                return part + "".join(tail)
            break
        tail.insert(0, part)
    out = ""
    for part in tail:
        out += part if part.startswith("(") or not out else "." + part
    return out


# Per-document facts nesting reads are in the ParseContext (resolve.ParseContext), set by _build:
# ``doc_ranks``, the document's own container ranks where its layout overrides the keyword table
# (:mod:`.ranks`: GDPR's "Section" holds its "Article"s); ``label_containers``, the containers it
# writes only as plain labels (an HTML statute whose "Abschnitt 1" is a paragraph above "## § 1"
# headings: such a label holds the headings after it; where containers are also headings, a plain
# container line is a running header or a wrapped reference, "… in Schedule 1.", and holds
# nothing); ``heading_levels``, the converter's heading levels are the source markup's nesting
# (legislation XML: a heading's parent is the nearest heading of a lower Markdown level, whatever
# container words it names).


def _label_only_containers(markers: list[_Marker], ctx: ParseContext) -> frozenset[str]:
    """Container keywords (``abschnitt``, ``part``) this document writes as plain labels and never
    as Markdown headings."""
    labels = {_keyword_of(m) for m in markers if m.kind == "label" and _rank(m, ctx) < 9}
    headings = {_keyword_of(m) for m in markers if m.kind == "heading"}
    return frozenset(k for k in labels - headings if k)


def _series_labels(markers: list[_Marker], ctx: ParseContext) -> frozenset[int]:
    """Lines of plain container labels that carry on their keyword's numbering between the
    document's headings of that keyword: ``CHAPTER III`` (a line of its own, its title below it)
    after ``# CHAPTER II: …`` and before ``# CHAPTER IV: …``, as a PDF-to-Markdown conversion leaves
    some chapters. Such a label is the next unit of the series (its number is the last one's + 1,
    the next heading's is higher) and holds the headings after it, like a label-only container; a
    running header or a wrapped mention repeats a number or breaks the count and holds nothing."""
    series: dict[str, list[tuple[int, int, bool]]] = {}  # keyword → (position, value, is heading)
    for n, m in enumerate(markers):
        if m.kind not in ("heading", "label") or not (kw := _keyword_of(m)):
            continue
        if ctx.doc_ranks.get(_CANON.get(kw, kw), _KEYWORDS.get(kw, ("", 9))[1]) >= 4:
            continue  # containers only (Part, Chapter, Division …), never the units they hold
        comps = _heading_label(m) or []
        value = _unit_value(comps[0][1]) if len(comps) == 1 else None
        if value is not None:
            series.setdefault(kw, []).append((n, value, m.kind == "heading"))
    lines: set[int] = set()
    for units in series.values():
        headings = [(n, v) for n, v, heading in units if heading]
        if not headings:
            continue
        for k, (n, value, heading) in enumerate(units):
            if heading or k == 0 or units[k - 1][1] + 1 != value:
                continue
            later = [v for p, v in headings if p > n]
            if value not in {v for _, v in headings} and (not later or later[0] > value):
                lines.add(markers[n].line)
    return frozenset(lines)


def _unit_value(number: str) -> int | None:
    """The value of a container's number: arabic, or roman in capitals (``III``); ``None`` else."""
    if number.isdigit():
        return int(number)
    return roman_to_int(number, strict=True) if re.fullmatch(ROMAN_PATTERN, number) else None


def _keyword_of(m: _Marker) -> str | None:
    comps = _heading_label(m)
    return comps[0][0].split(":")[2] if comps and comps[0][0].startswith("kw:") else None


def _rank(marker: _Marker, ctx: ParseContext) -> float:
    doc = ctx.doc_ranks
    ranks = [
        doc.get(_CANON.get(kw, kw), _KEYWORDS.get(kw, ("", 5))[1])
        for k, _, _ in marker.components
        if k.startswith("kw:") and (kw := k.split(":")[2])
    ]
    bare = any(k in ("num", "paren") for k, _, _ in marker.components) or any(
        k.startswith("kw::") for k, _, _ in marker.components
    )
    if bare:
        return 9
    return ranks[-1] if ranks else 9


def _build(markers: list[_Marker], lines: list[str], doc_title: str, ctx: ParseContext) -> list[Section]:
    """Nest markers into sections; each section's text runs to the next marker. Sets the
    document's ``ctx.doc_ranks`` and ``ctx.label_containers`` first (read by the nesting)."""
    ranks = document_ranks(markers, lines)
    _name_promoted_keywords(markers, ranks)
    ctx.doc_ranks = ranks
    ctx.label_containers = _label_only_containers(markers, ctx)
    ctx.series_labels = _series_labels(markers, ctx)
    ctx.grouping_ranks = {}
    ctx.grouping_ranks = _grouping_ranks(markers, lines, ctx)
    return _nest(markers, lines, doc_title, ctx)


def _lone_numeral_styles(markers: list[_Marker]) -> dict[int, str]:
    """Marker position → ``"letter"`` or ``"roman"`` for the headings numbered by a capital letter
    or a roman numeral alone (``A. General Assembly``, ``III. Organe``): the numbering of a grouping,
    apart from the keyword units' own. A single letter that is also a roman digit (``C``, ``I``,
    ``D``) is a letter where it follows the letter before it (``B.`` then ``C.``) or no roman
    numeral can read it, a roman numeral otherwise."""
    styles: dict[int, str] = {}
    last_letter = ""
    for n, m in enumerate(markers):
        comps = _heading_label(m) if m.kind == "heading" else None
        if not comps or len(comps) != 1 or comps[0][0] != "num":
            continue
        value = comps[0][1]
        roman = roman_to_int(value, strict=True) is not None
        if len(value) == 1 and value.isupper() and (not roman or (last_letter and ord(value) == ord(last_letter) + 1)):
            styles[n] = "letter"
            last_letter = value
        elif roman and value.isupper():
            styles[n] = "roman"
    return styles


def _grouping_ranks(markers: list[_Marker], lines: list[str], ctx: ParseContext) -> dict[int, float]:
    """Marker line → container rank for the lettered or roman groupings that stand at the level of
    the keyword units they group (``### A. General Assembly`` directly above ``### Article 10``,
    ``### Article 11``; a Swiss association's statutes, a code's ``A.`` / ``I.`` marginal groups).

    Markdown levels cannot nest them (all are ``###``), and a lone ``A.`` alone reads as a
    numbered unit, which the Article before it would hold. The document's layout says what it is:
    headings of one numbering style (letter or roman) at one Markdown level of which at least half
    directly open a keyword heading at their own level (nothing between but their title) are
    groupings, ranked just below every keyword container and above the units they open (the unit's
    rank minus ¼); a style of groupings that opens another (``A.`` above ``I.`` above
    ``Art. 1``) ranks just above it (minus ⅛). Each such heading holds the units after it up to the
    next grouping of its rank or above, as a container label does."""
    styles = _lone_numeral_styles(markers)
    heads: dict[tuple[str, int], list[int]] = {}
    opened: dict[tuple[str, int], list[tuple[str, int] | float]] = {}
    for n, style in styles.items():
        m = markers[n]
        key = (style, m.md_level)
        heads.setdefault(key, []).append(n)
        nxt = markers[n + 1] if n + 1 < len(markers) else None
        if nxt is None or nxt.kind != "heading" or nxt.md_level != m.md_level:
            continue
        if not _title_only(lines[m.end : nxt.line]):
            continue
        comps = _heading_label(nxt)
        if n + 1 in styles and styles[n + 1] != style:
            opened.setdefault(key, []).append((styles[n + 1], nxt.md_level))
        elif comps and comps[0][0].startswith("kw:") and (unit := _container_rank(nxt, ctx)) is not None:
            opened.setdefault(key, []).append(unit)
    groupings = {k for k, v in opened.items() if 2 * len(v) >= len(heads[k])}
    ranks: dict[tuple[str, int], float] = {}
    for _ in range(len(groupings) + 1):  # a style above a style above the units: settled in as many passes
        for key in groupings:
            held = [
                o - 0.25 if isinstance(o, float | int) else ranks[o] - 0.125
                for o in opened[key]
                if isinstance(o, float | int) or o in ranks
            ]
            if held:
                ranks[key] = min(held)
    return {markers[n].line: ranks[key] for key, ns in heads.items() if key in ranks for n in ns}


def _name_promoted_keywords(markers: list[_Marker], ranks: dict[str, float]) -> None:
    """A bare keyword (``Section``, whose numbers are plain section numbers) that this document
    ranks as a container (:func:`.ranks.document_ranks`: its Sections hold Articles) names its
    ids like any container: ``Section 3`` → ``section-3`` (in place, on the markers' components)."""
    promoted = {k for k, r in ranks.items() if r < 9 and not _KEYWORDS.get(k, ("x", 0))[0]}
    if not promoted:
        return
    for m in markers:
        comps = _heading_label(m)
        if not comps:
            continue
        m.components = [
            (f"kw:{_CANON.get(k.split(':')[2], k.split(':')[2])}:{k.split(':')[2]}", v, w)
            if k.startswith("kw::") and _CANON.get(k.split(":")[2], k.split(":")[2]) in promoted
            else (k, v, w)
            for k, v, w in comps
        ]


def _nest(markers: list[_Marker], lines: list[str], doc_title: str, ctx: ParseContext) -> list[Section]:
    sections: list[Section] = []
    stack: list[_Open] = []
    first = markers[0].line if markers else len(lines)
    pre = "\n".join(lines[:first])
    if pre.strip() or not markers:
        # text before the first heading belongs to the document, not to that heading: when the
        # document's title is only the first heading's text, the preamble is not titled by it
        named_by_heading = bool(markers) and _plain(doc_title or "") == _plain(markers[0].title)
        sections.append(
            Section(
                section_id="preamble",
                title="Preamble" if named_by_heading or not doc_title else doc_title,
                level=1,
                text=pre,
                start_line=1,
            )
        )
    for n, m in enumerate(markers):
        body_end = markers[n + 1].line if n + 1 < len(markers) else len(lines)
        parent = _find_parent(m, stack, ctx)
        path, local_id = _path_and_id(m, parent)
        level = (parent.marker and sections[parent.index].level or 0) + 1 if parent else 1
        if m.heading:
            text = "\n".join(lines[m.end : body_end])
        else:
            text = "\n".join(lines[m.line : body_end])
        number = _written_number(m)
        sec = Section(
            section_id=local_id,
            title=m.title or number or "",
            level=level,
            number=number,
            parent_id=sections[parent.index].section_id if parent else None,
            heading=m.heading,
            text=text,
            start_line=m.line + 1,
        )
        sections.append(sec)
        stack.append(_Open(len(sections) - 1, m, path, -1 if (m.kind == "heading") else _rank(m, ctx)))
    return sections


def _written_number(m: _Marker) -> str | None:
    comps = _heading_label(m)
    if not comps:
        return None
    if m.kind == "item":
        return m.marker_text
    return " ".join(w for _, _, w in comps) if len(comps) == 1 else ".".join(w for _, _, w in comps)


def _find_parent(m: _Marker, stack: list[_Open], ctx: ParseContext) -> _Open | None:
    """Pop ``stack`` to the new marker's parent and return it (``None`` = top level)."""
    if m.flat and not (m.kind == "heading" and (m.md_level or 1) > 1):
        stack.clear()  # a plain-text table of contents, a memo's margin heading: top level, containing nothing
        return None
    # (a "## Contents" heading nests by its level like any heading, and holds nothing: popped below)
    while stack and stack[-1].marker.flat:
        stack.pop()
    if m.kind == "heading":
        return _heading_parent(m, stack, ctx)
    if m.kind == "label":
        path = _label_path(m.components)
        rank = _rank(m, ctx)
        while stack:
            top = stack[-1]
            if top.marker.kind == "heading":
                if top.path and _is_prefix(top.path, path) or _is_code_subsection(m, top):
                    return top
                if (
                    top.path
                    and _label_path(_heading_label(top.marker) or [])
                    and _conflicts(top, path, rank, ctx, _keyword_of(m))
                ):
                    stack.pop()
                    continue
                if m.md_level and not top.path and top.marker.md_level >= m.md_level:
                    stack.pop()  # a marginal-note section (:mod:`.notes`) closes the unnumbered headings of its
                    continue  # type size and below ("ILLUSTRATIONS" of the section before): siblings in print
                return top
            if _is_prefix(top.path, path) and len(top.path) < len(path):
                return top
            if top.rank < rank and top.rank != 9 and not _shares_keyword_with(top.path, path):
                return top
            stack.pop()
        return None
    # item: nest by indentation, then by style
    while stack and stack[-1].marker.kind == "item" and stack[-1].marker.indent > m.indent:
        stack.pop()
    same = None
    for pos in range(len(stack) - 1, -1, -1):
        o = stack[pos]
        if o.marker.kind != "item" or o.marker.indent != m.indent:
            break
        if o.marker.style == m.style and _item_form(o.marker) == _item_form(m):
            same = pos
            break
    if same is not None:
        del stack[same:]
    return stack[-1] if stack else None


def _item_form(m: _Marker) -> str:
    """How an item writes its enumerator: ``(1)``, ``1.`` and ``1)`` are three levels (a German
    ``Absatz`` and its ``Nummer``; an Italian ``comma`` ``1.``, its ``lettera`` ``a)`` and that
    letter's ``numero`` ``1)``), whatever their ordinal style, as a change of delimiter starts
    another list in Markdown."""
    text = m.marker_text.strip()
    if text.startswith("("):
        return "paren"
    return "close" if text.endswith(")") else "dot"


def _container_rank(m: _Marker, ctx: ParseContext) -> int | None:
    """The container rank of a heading that names a container (``Part 4``, ``CHAPTER III``,
    ``Section 3`` of GDPR), 9 for a numbered section (``29 Fees``, ``§ 1``, ``4.2``), ``None``
    for an unnumbered heading."""
    if m.kind == "heading" and m.line in ctx.grouping_ranks:
        return ctx.grouping_ranks[m.line]  # "### A. General Assembly" above "### Article 10"
    comps = _heading_label(m)
    if not comps:
        # "Chapitre unique", "Section unique : Procédure": a container without a number ranks as its keyword
        kw = unnumbered_container(m.title) if m.kind == "heading" else None
        return None if kw is None else ctx.doc_ranks.get(_CANON.get(kw, kw), _KEYWORDS[kw][1])
    return _rank(m, ctx) if comps[0][0] != "paren" else 10


def _heading_parent(m: _Marker, stack: list[_Open], ctx: ParseContext) -> _Open | None:
    """The parent of a Markdown heading: by container kind where both headings name one (a
    ``### Part 4`` is never inside ``# 29 Fees``; ``## Section 3`` sits inside the ``## CHAPTER
    III`` before it), otherwise by Markdown level."""
    if ctx.heading_levels:  # a DIVISION holds the TITLEs the XML puts inside it
        while stack and (stack[-1].marker.kind != "heading" or stack[-1].marker.md_level >= m.md_level):
            stack.pop()
        return stack[-1] if stack else None
    rank = _container_rank(m, ctx)
    while stack:
        top = stack[-1]
        if top.marker.kind != "heading":
            # a container label in plain text ("Abschnitt 1Auslandszuschlag" above "## § 1 …")
            # holds the numbered headings and lower containers after it
            if (
                top.marker.kind == "label"
                and rank is not None
                and top.rank < 9
                and top.rank < rank
                and (_keyword_of(top.marker) in ctx.label_containers or top.marker.line in ctx.series_labels)
            ):
                return top
            stack.pop()
            continue
        top_rank = _container_rank(top.marker, ctx)
        if rank is not None and top_rank is not None:
            if top_rank < 9 <= rank and m.md_level < top.marker.md_level and _roman_heading(m):
                stack.pop()  # "# II. Der Bund und die Länder" after "## Artikel 19": the next division
                continue
            if top_rank < rank and (rank < 9 or top_rank < 9):
                return top  # a container holds lower containers and numbered sections
            if rank < 9 <= top_rank and top.marker.md_level < m.md_level and _roman_heading(top.marker):
                return top  # "# I. Die Grundrechte" over "## Artikel 1": a division numbered apart from its articles
            if rank < 9 or top_rank >= 9 and top.marker.md_level >= m.md_level:
                stack.pop()  # a container closes containers of its rank or below and numbered sections
                continue
        if top.marker.md_level >= m.md_level:
            stack.pop()
            continue
        return top
    return None


def _roman_heading(m: _Marker) -> bool:
    """A heading numbered by a roman numeral or a capital letter alone (``I. Die Grundrechte``,
    ``A. Allgemeines``): its numbering is not the arabic one of the keyword units under it, so
    Markdown's levels tell the nesting."""
    comps = _heading_label(m) or []
    if len(comps) != 1 or comps[0][0] != "num":
        return False
    value = comps[0][2].rstrip(".")
    return roman_to_int(value, strict=True) is not None or (len(value) == 1 and value.isupper())


def _conflicts(top: _Open, path: list[str], rank: float, ctx: ParseContext, label_kw: str | None = None) -> bool:
    """A numbered heading is closed by a label that is neither inside it nor a lower-rank item."""
    if _is_prefix(top.path, path):
        return False
    top_rank = _rank(top.marker, ctx) if top.marker.components else 9
    if top_rank == 9 and rank < 9 and top.marker.kind == "heading" and label_kw in ctx.label_containers:
        return True  # a container label ("Abschnitt 2") closes a numbered section heading ("§ 7")
    return (
        rank <= top_rank
        and top_rank != 9
        or (top_rank == 9 and rank == 9 and bool(top.path) and not top.path[-1].startswith("("))
    )


def _shares_keyword_with(top_path: list[str], path: list[str]) -> bool:
    """``chapter-2`` and ``chapter-3`` are siblings, whatever their rank."""
    kt = [p.split("-")[0] for p in top_path if "-" in p and not p.startswith("(")]
    kp = [p.split("-")[0] for p in path if "-" in p and not p.startswith("(")]
    return bool(kt and kp and kt[-1] == kp[-1] and top_path[-1] != path[-1] and len(path) <= len(top_path))


def _is_prefix(a: list[str], b: list[str]) -> bool:
    return len(a) <= len(b) and b[: len(a)] == a


def _path_and_id(m: _Marker, parent: _Open | None) -> tuple[list[str], str]:
    """The normalised path and local id of a marker given its parent."""
    comps = _heading_label(m)
    if m.kind == "item":
        ppath = parent.path if parent else []
        if m.components[0][0] == "mditem":
            local = m.components[0][1]
            if m.style == "digit" and ppath and not ppath[-1].startswith("(") and "-" not in ppath[-1]:
                part = local  # clause 12, item 12 → 12.12
            elif not ppath:
                part = local if m.style == "digit" else f"({local})"
            else:
                part = f"({local})"
        else:
            part = m.marker_text
        path = ppath + [part]
        return path, _id_from_path(path) if ppath else part
    if comps:
        path = _label_path(comps)
        if parent and len(path) == 1 and path[0].startswith("("):
            path = parent.path + path
        elif _is_article_paragraph(m, comps, parent) or _is_code_subsection(m, parent):
            assert parent is not None
            path = parent.path + [f"({path[0]})"]  # "1.   text" of Article 5 → article-5(1); of NRS 1.130 → 1.130(1)
        elif _is_article_sign_paragraph(comps, parent):
            assert parent is not None
            # "§ 2" of Article 8 (a Belgian or Luxembourg article's paragraph, cited "article 8, § 2"):
            # the article's sub-provision, qualified by it as a repeated number is (article-8/2), never
            # the document's section 2; its limbs are article-8/2(1)
            path = parent.path[:-1] + [f"{parent.path[-1]}/{comps[0][1]}"]
        return path, _id_from_path(path)
    return [], _slug(m.title)


# an article's id part: article-5, article-3bis, article-216-1 ("Art. 216/1", grammar.canonical_number)
_ARTICLE_PART = re.compile(r"article-[0-9]+[a-z]*(?:-[0-9]+)?")


def _is_article_paragraph(m: _Marker, comps: list[tuple[str, str, str]], parent: _Open | None) -> bool:
    """A bare number label (``1.   The Commission shall …``) directly under an Article is that
    Article's numbered paragraph, cited ``Article 5(1)`` as EU acts write it; its id is
    ``article-5(1)``, as the legislation-XML converters name Akoma Ntoso and CLML paragraphs."""
    return (
        m.kind == "label"
        and len(comps) == 1
        and comps[0][0] == "num"
        and parent is not None
        and bool(parent.path)
        and bool(_ARTICLE_PART.fullmatch(parent.path[-1]))
        and comps[0][1].isdigit()
    )


def _is_code_subsection(m: _Marker, parent: _Open | None) -> bool:
    """A bare number label (``1.  No court …``) directly under a section the markup states with a
    code's section number (``NRS 1.130``: one number, :func:`.stated.stated_components`) is that
    section's numbered subsection, cited ``NRS 1.130(1)``: id ``1.130(1)``, never a section ``1``
    of the document nor ``1.130.1``."""
    comps = m.components
    own = parent.marker.components if parent is not None and parent.marker is not None else []
    return (
        m.kind == "label"
        and len(comps) == 1
        and comps[0][0] == "num"
        and comps[0][1].isdigit()
        and parent is not None
        and parent.marker.kind == "heading"
        and parent.marker.markup_numbers
        and len(own) == 1
        and own[0][0] == "num"
        and bool(re.search(r"\d[.-]\d", own[0][1]))
    )


def _is_article_sign_paragraph(comps: list[tuple[str, str, str]], parent: _Open | None) -> bool:
    """A ``§ N`` label (the section sign, no keyword of its own) whose parent is an Article: in a
    document whose provisions are Articles, ``§ N`` numbers the Article's paragraphs (``article 8,
    § 2``), as ``(2)`` does in an EU act; in one whose provisions are ``§ N`` (German statutes) no
    ``§`` stands inside an Article."""
    return (
        len(comps) == 1
        and comps[0][0] == "kw::§"
        and parent is not None
        and bool(parent.path)
        and bool(_ARTICLE_PART.fullmatch(parent.path[-1]))
    )
