"""Marker clean-up for :mod:`docstrata.structure.parse`: a label heading and its subtitle heading
merged, labels off the document's label column and items that start no sensible sequence dropped."""

from __future__ import annotations

import re
from collections import Counter

from ..grammar import back_matter_prefixes, inserted_base, next_letter
from .labels import _heading_label, _item_style, _label_path, _plain, _title_of
from .patterns import _KEYWORDS, _TOC_RE, _Marker

_CONTAINER_PREFIXES = frozenset(prefix for prefix, rank in _KEYWORDS.values() if prefix and rank < 4)
_BACK_MATTER = back_matter_prefixes()  # schedule, appendix, annex, exhibit …: each opens a numbering of its own


def _label_indent(markers: list[_Marker]) -> int | None:
    """The indentation at which this document writes its numbered labels."""
    indents = [m.indent for m in markers if m.kind == "label" and m.heading]
    if not indents:
        indents = [m.indent for m in markers if m.kind == "label"]
    return Counter(indents).most_common(1)[0][0] if indents else None


def _filter_markers(
    markers: list[_Marker], markdown_flavour: bool, lines: list[str], heading_levels: bool = False
) -> list[_Marker]:
    """Drop labels off the document's label column and items that start no sensible sequence.
    ``heading_levels``: the converter's heading levels are the source markup's nesting
    (``ParseContext.heading_levels``)."""
    base = _label_indent(markers)
    dotted_headings = _numbers_subsections_in_headings(markers)
    heading_numbers = _heading_numbers(markers) if markdown_flavour else {}
    scopes = _numbering_scopes(markers)
    kept: list[_Marker] = []
    open_items: list[_Marker] = []  # recent items, for sequence checks
    for idx, m in enumerate(markers):
        if m.kind == "label":
            if base is not None and m.indent != base:
                continue
            if (
                all(k == "num" for k, _, _ in m.components)
                and heading_numbers.get(tuple(_label_path(m.components)), len(markers)) <= scopes[idx]
                and not m.md_level
            ):  # a marginal-note section (.notes) is a heading in print: the resolver weighs it
                # a plain line repeating a numbered heading's number: a contents or cover line. Still a
                # hand rule: the resolver's repeats_heading feature, fitted, kept NIST SP 800-171's
                # appendix lines "3.1 ACCESS CONTROL" and an amending Act's "1 After section 273A"
                continue
            open_items = []
        elif m.kind == "heading":
            open_items = []
        elif m.kind == "item":
            if m.components[0][0] == "mditem":
                # dotted headings ("## 1.1") make "1." lines lists, except where the converter wrote
                # the provisions itself (legislation XML: "1." is paragraph 1 of its Article)
                if dotted_headings and not heading_levels or not _md_item_is_section(m, markers, idx, kept, lines):
                    continue
            elif base is not None and m.indent > base and not _indented_limbs(markers, idx, lines, kept):
                continue
            first_md_item = m.components[0][0] == "mditem" and not any(o.indent == m.indent for o in open_items)
            # "18." after the limbs "a." … "d." of the numbered paragraph "17": the paragraph after it
            after_provision = (
                m.components[0][0] == "mditem"
                and (provision := next((k for k in reversed(kept) if k.kind != "item"), None)) is not None
                and _continues_label(m, provision)
            )
            if after_provision:
                open_items = [o for o in open_items if o.indent < m.indent]
            roman_next = _roman_follows(m, markers, idx)
            if (
                not after_provision
                and not _continues_sequence(m, open_items, roman_next)
                and not first_md_item
                and not _markup_item(m, open_items, lines, heading_levels)
            ):
                continue  # a Markdown list may start at any number; other items must start a sequence
            open_items = [o for o in open_items if o.indent <= m.indent]
            # continuing a list closes the lists opened under its previous item: after "(4)(a)…(h)",
            # "(6)" then "(a)", "(i)" is roman i under (a), not a letter continuing (h)
            step = 0 if _inserted(m) else 1
            prev = next(
                (
                    n
                    for n in range(len(open_items) - 1, -1, -1)
                    if open_items[n].indent == m.indent
                    and open_items[n].style == m.style
                    and open_items[n].value == m.value - step
                ),
                None,
            )
            if prev is not None:
                del open_items[prev + 1 :]
            open_items.append(m)
        kept.append(m)
    return kept


def _indented_limbs(markers: list[_Marker], idx: int, lines: list[str], kept: list[_Marker]) -> bool:
    """An ``(a)`` item indented deeper than the document's label column is a limb of the provision
    above it (the Apache License's ``4. Redistribution`` with its ``(a)`` … ``(d)`` set in under
    the text) when it belongs to a list of two or more at that indentation numbered from the first
    ordinal with no gap, with no label between them, each item opening a paragraph: a blank line
    above it, or a line ending a lead-in or a limb (``:``, ``;``, ``and``, ``or``). A lone ``(a)``
    or a parenthesis that wraps to a line start mid-sentence stays body text, and so do limbs whose
    provision is not a section (its label was dropped off the label column: the limbs would have
    nothing to be limbs of)."""
    m = markers[idx]
    if m.components[0][0] != "paren":
        return False
    provision = next((o for o in reversed(markers[:idx]) if o.kind != "item"), None)
    if (
        provision is None
        or provision.kind != "label"
        or provision.indent >= m.indent
        or not any(o is provision for o in kept)
    ):
        return False
    start = idx
    while start > 0 and markers[start - 1].kind == "item" and markers[start - 1].indent >= m.indent:
        start -= 1
    end = idx
    while end + 1 < len(markers) and markers[end + 1].kind == "item" and markers[end + 1].indent >= m.indent:
        end += 1
    run = [o for o in markers[start : end + 1] if o.indent == m.indent and o.components[0][0] == "paren"]
    if len(run) < 2:
        return False
    readings = [_item_style(o.marker_text[1:-1]) for o in run]
    styles = {style for style, value in readings[0] if value == 1}
    if not any(all((style, n + 1) in r for n, r in enumerate(readings)) for style in styles):
        return False

    def opens_paragraph(o: _Marker) -> bool:
        above = lines[o.line - 1].strip() if o.line else ""
        return not above or bool(re.search(r"(?:[:;]|\band|\bor)$", above))

    return all(opens_paragraph(o) for o in run)


def _numbering_scopes(markers: list[_Marker]) -> list[int]:
    """For each marker, the numbering scope it stands in: 0 for the main body, then one more after
    each back-matter container's heading, or label set as a heading (``SCHEDULE 1``, ``Annex II``,
    ``Exhibit A``; not ``Exhibit A. You acknowledge …`` wrapped to a line start): a schedule numbers
    its clauses afresh (``1.``, ``2.``, ``2.1`` …), so its numbers never repeat the body's own."""
    scopes, scope = [], 0
    for m in markers:
        comps = _heading_label(m) if m.kind == "heading" else m.components if m.kind == "label" and m.heading else None
        if comps and comps[0][0].startswith("kw:") and comps[0][0].split(":")[1] in _BACK_MATTER:
            scope += 1
        scopes.append(scope)
    return scopes


def _heading_numbers(markers: list[_Marker]) -> dict[tuple[str, ...], int]:
    """Bare section numbers (``("7",)``, ``("6", "2")``) the document's Markdown headings carry, each
    with the first numbering scope a heading of it stands in (:func:`_numbering_scopes`), when at
    least three of its headings are numbered so: such a document marks its sections with headings
    (a PDF outline, a converter's heading styles), and a plain line that repeats one of those
    numbers in that scope or a later one ("7 Feedback" on a cover page, above the real ``# 7
    Feedback``) is body text. A schedule's heading ``## 2.1`` repeats nothing of the body before
    it: the body's clause ``2.1``, set as a paragraph, stays a clause."""
    numbers: dict[tuple[str, ...], int] = {}
    for m, scope in zip(markers, _numbering_scopes(markers)):
        comps = _heading_label(m) if m.kind == "heading" else None
        if comps and all(k == "num" for k, _, _ in comps):
            path = tuple(_label_path(comps))
            numbers[path] = min(numbers.get(path, scope), scope)
    return numbers if sum(1 for m in markers if m.kind == "heading" and _bare_heading(m)) >= 3 else {}


def _bare_heading(m: _Marker) -> bool:
    comps = _heading_label(m) or []
    return bool(comps) and all(k == "num" for k, _, _ in comps)


def _numbers_subsections_in_headings(markers: list[_Marker]) -> bool:
    """The document writes its nested numbering into headings (``### 2.4.1 Keys``, as specs and
    RFCs do): its Markdown list items are steps and points of a section's body, never sections
    (otherwise step 1 under ``2.4`` would take the id of heading ``2.4.1``)."""
    dotted = 0
    for m in markers:
        if m.kind == "heading":
            comps = _heading_label(m)
            if comps and sum(1 for k, _, _ in comps if k == "num") >= 2:
                dotted += 1
                if dotted >= 2:
                    return True
    return False


def _md_item_is_section(m: _Marker, markers: list[_Marker], idx: int, kept: list[_Marker], lines: list[str]) -> bool:
    """A Markdown list item is a section under a numbered section, when it has an ordered sub-list,
    or when it and a neighbour of its list are titled clauses (``1. **Introduction**. This …``)."""
    if _titled_clause(m, lines) and any(
        o.kind == "item" and o.indent == m.indent and o.components[0][0] == "mditem" and _titled_clause(o, lines)
        for o in markers[max(0, idx - 1) : idx] + markers[idx + 1 : idx + 2]
    ):
        return True
    numbered_parent = False
    sibling: _Marker | None = None  # the last accepted item of m's column, when text interrupts them
    for k in reversed(kept):
        if k.kind in ("heading", "label"):
            numbered_parent = bool(k.components) or bool(_heading_label(k))
            if sibling is not None:
                # "17." then its limbs "a." … "d." with text between, then "18.": the numbered
                # paragraph after the provision whose limbs came between
                return numbered_parent and _continues_label(m, k)
            break
        if sibling is not None:
            if k.kind == "item" and k.indent == m.indent and _same_list(m, k):
                # "e)" after "d) all'articolo 14:" and d)'s own list "1) …", "2) …" with quoted text
                # between: the letter list goes on past the sub-list of another enumerator
                return _continues_item(m, k)
            continue
        if k.kind == "item" and (k.indent < m.indent or k.marker_text.startswith("(")):
            numbered_parent = True  # under a deeper-set item, or under an "(1)" of the same column
            break
        if k.kind == "item" and k.indent == m.indent:
            # sibling of an accepted item; after other text at the list's indentation, only when
            # it continues that item's numbering (a new list of steps is not a clause) in any
            # reading of its enumerator ("c." after "b." is the letter c, not roman 100) or the
            # numbering of the provision holding that item's list
            interrupted = any(
                lines[j].strip()
                and len(lines[j]) - len(lines[j].lstrip()) <= m.indent
                and not _MD_LIST_LINE_RE.match(lines[j])
                for j in range(k.line + 1, m.line)
            )
            if not interrupted or _continues_item(m, k):
                return True
            sibling = k
    if sibling is not None:
        return False
    if numbered_parent:
        return True
    nxt = markers[idx + 1] if idx + 1 < len(markers) else None
    return bool(
        nxt
        and nxt.kind == "item"
        and nxt.components[0][0] == "mditem"
        and nxt.indent > m.indent
        and all(
            not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > m.indent
            for j in range(m.line + 1, nxt.line)
        )
    )


_MD_LIST_LINE_RE = re.compile(r"^\s*(?:\d{1,3}|[a-zA-Z]|[ivx]{1,5})[.)]\s")


def _continues_item(m: _Marker, k: _Marker) -> bool:
    """``m``'s enumerator follows ``k``'s by one in a reading of the same style (``c.`` after
    ``b.``: letter c, though ``c`` alone reads first as roman 100; ``l)`` after ``i)`` in an Italian
    list, :func:`.grammar.next_letter`)."""
    readings_k = _item_style(k.marker_text.strip("().").rstrip(")"))
    readings_m = _item_style(m.marker_text.strip("().").rstrip(")"))
    return any(
        sk == sm and (vm == vk + 1 or sk in ("lower", "upper") and next_letter(vk, vm))
        for sk, vk in readings_k
        for sm, vm in readings_m
    )


def _same_list(m: _Marker, k: _Marker) -> bool:
    """``m`` and ``k`` could be items of one list: enumerators of one delimiter (``a)`` and ``d)``, not
    ``1)`` and ``d)`` nor ``d.``) with a reading of one style."""
    if _delimiter(m) != _delimiter(k):
        return False
    styles_k = {s for s, _ in _item_style(k.marker_text.strip("().").rstrip(")"))}
    return any(s in styles_k for s, _ in _item_style(m.marker_text.strip("().").rstrip(")")))


def _delimiter(m: _Marker) -> str:
    text = m.marker_text.strip()
    return "paren" if text.startswith("(") else "close" if text.endswith(")") else "dot"


def _continues_label(m: _Marker, k: _Marker) -> bool:
    """A numbered item ``m`` (``18.``) continues the bare number of label or heading ``k``
    (``17`` / ``17. THE BASES …``)."""
    comps = k.components or _heading_label(k) or []
    if len(comps) != 1 or comps[0][0] != "num" or not comps[0][1].isdigit():
        return False
    inner = m.marker_text.strip("().").rstrip(")")
    return inner.isdigit() and int(inner) == int(comps[0][1]) + 1


def _ordinal_of(m: _Marker) -> int:
    readings = _item_style(m.marker_text.strip("().").rstrip(")"))
    return readings[0][1] if readings else -1


_TITLED_CLAUSE_RE = re.compile(r"^\s*\S{1,4}[.)]\s+\*\*(?P<title>[^*\"“”]{2,80}?)(?:[.:]\*\*|\*\*[.:])(?:\s|$)")


def _titled_clause(m: _Marker, lines: list[str]) -> bool:
    """The item opens with a bold title (``2. **Use and Protection of Confidential Information**.``),
    as contracts write their numbered clauses; a bold quoted term (``**"Customer"** means``) is a
    definition, not a title."""
    return bool(_TITLED_CLAUSE_RE.match(lines[m.line]))


def _inserted(m: _Marker) -> bool:
    """An inserted provision's label (``(c.1)``, ``(2.1)``, ``(ba)``): it follows its base, at the
    base's ordinal (:func:`.grammar.inserted_base`)."""
    return (
        m.kind == "item"
        and m.marker_text.startswith("(")
        and m.marker_text.endswith(")")
        and inserted_base(m.marker_text[1:-1]) is not None
    )


def _roman_follows(m: _Marker, markers: list[_Marker], idx: int) -> bool:
    """``(i)`` (or ``(I)``) whose next item at its indentation is ``(ii)`` (``(II)``): roman one, even
    right after an ``(h)`` (``(H)``) it could continue as a letter — "(h) made after the earlier of
    (i) one hundred years … (ii) twenty years …"."""
    if m.marker_text not in ("(i)", "(I)"):
        return False
    nxt = next((o for o in markers[idx + 1 :] if o.kind == "item" and o.indent == m.indent), None)
    return nxt is not None and nxt.marker_text == ("(ii)" if m.marker_text == "(i)" else "(II)")


def _continues_sequence(m: _Marker, open_items: list[_Marker], roman_next: bool = False) -> bool:
    """An item starts a list (1, a, A, i) or continues one of the open lists; fixes roman vs letter.
    An inserted provision (``(c.1)``) continues the list of its base (``(c)``) at the base's ordinal;
    ``roman_next`` (the next item is ``(ii)``) reads an ``(i)`` as roman one."""
    inner = m.marker_text.strip("().")
    inner = inner[:-1] if inner.endswith(")") else inner
    readings = _item_style(inner)
    if roman_next:
        readings = [r for r in readings if r[0].startswith("roman")] or readings
    same_indent = [o for o in open_items if o.indent == m.indent]
    if _inserted(m):
        for style, value in readings:
            if any(o.style == style and o.value == value for o in same_indent):
                m.style, m.value = style, value
                return True
        return False
    for style, value in readings:
        for o in reversed(same_indent):
            if o.style == style and value == o.value + 1:
                m.style, m.value = style, value
                return True
    for style, value in readings:
        if value == 1:
            m.style, m.value = style, value
            return True
    # a list that started before an unrecognised line: accept small ordinals of a known style
    for style, value in readings:
        if any(o.style == style for o in same_indent) and value <= 40:
            m.style, m.value = style, value
            return True
    return False


def _markup_item(m: _Marker, open_items: list[_Marker], lines: list[str], heading_levels: bool) -> bool:
    """In legislation XML (the converter wrote each provision from its ``<num>``), the first item
    after a heading is a provision whatever its number: USLM ``Sec. 2`` opens with an undesignated
    subsection, so its first numbered one is ``(b)``. Not when the text since the heading opens a
    limb with the label before it (CFR "Defense services. (a) The furnishing …" then a "(b)" line:
    the limbs of a definition)."""
    if not heading_levels or any(o.indent == m.indent for o in open_items):
        return False
    inner = m.marker_text.strip("().")
    readings = _item_style(inner[:-1] if inner.endswith(")") else inner)
    if not readings:
        return False
    style, value = readings[0]
    before = {
        "digit": str(value - 1),
        "lower": chr(96 + value - 1) if value > 1 else "",
        "upper": chr(64 + value - 1) if value > 1 else "",
    }.get(style, "")
    for line in reversed(lines[: m.line]):
        if line.lstrip().startswith("#"):
            break
        if before and re.search(rf"\({before}\)\s+[A-Za-z]", line):  # "(a) The …", not a quoted "“(a)”"
            return False
    m.style, m.value = style, value
    return True


_LABEL_SUFFIX_WORDS = frozenset("bis ter quater quinquies sexies septies octies novies decies".split())


def _titled_beyond_label(m: _Marker) -> bool:
    """The heading has a title of its own after its label (``DIVISION 2 Remedies``): a heading
    below it (``Filing of Complaints``) is a subheading, not the rest of its title — unlike
    ``Article 4`` / ``Article 4 bis`` over ``Definitions``. Applied where heading levels are the
    markup's nesting (legislation XML); PDF headings keep the merge (an Australian amending Act's
    ``Part 2—Counting`` over the act name its items amend is one outline entry there)."""
    comps = _heading_label(m) or []
    rest = _plain(m.title)
    for _, _, written in comps:
        rest = rest.replace(written, " ", 1)
    return any(
        len(w) >= 3 and w.lower() not in _LABEL_SUFFIX_WORDS and not re.fullmatch(r"[IVXLC]+|\d+", w)
        for w in re.findall(r"[^\W\d_]+|\d+", rest)
    )


def _merge_subtitles(markers: list[_Marker], lines: list[str], heading_levels: bool = False) -> list[_Marker]:
    """``### Article 4`` directly followed by ``#### Definitions`` is one section titled by both; so
    is a keyword heading that is only its label (``## CHAPTER III``, ``## Section 3``) and the one
    title-like line that is its whole body ("Rights of the data subject", as the Official Journal
    prints a division's title under its number)."""
    out: list[_Marker] = []
    for n, m in enumerate(markers):
        _merge_title_line(m, markers[n + 1].line if n + 1 < len(markers) else len(lines), lines)
        prev = out[-1] if out else None
        if (
            prev is not None
            and m.kind == "heading"
            and prev.kind == "heading"
            and (
                m.md_level > prev.md_level
                # the Official Journal's PDF prints "Article 23" and "Reporting obligations" in one size
                or (m.md_level == prev.md_level and not _titled_beyond_label(prev))
            )
            and _heading_label(prev)
            and not _heading_label(m)
            and all(not lines[j].strip() for j in range(prev.end, m.line))
            and _plain(prev.title).split()[-1:]
            and len(prev.title.split()) <= 3
            and not (heading_levels and _titled_beyond_label(prev))
        ):
            prev.heading = "\n".join(lines[prev.line : m.end])
            prev.title = f"{prev.title} {m.title}"
            prev.end = m.end
            continue
        out.append(m)
    return out


def _merge_title_line(m: _Marker, stop: int, lines: list[str]) -> None:
    """Take a keyword heading's title from the single line below it (see :func:`_merge_subtitles`),
    in place, when the heading is only ``<keyword> <number>`` and that line is all its text: short,
    not a sentence, no closing punctuation."""
    comps = _heading_label(m) if m.kind == "heading" else None
    if not comps or not comps[0][0].startswith("kw:") or len(m.title.split()) != 2 or m.title_stated:
        return
    body = [j for j in range(m.end, stop) if lines[j].strip()]
    if len(body) != 1:
        return
    text = _plain(lines[body[0]].strip())
    if (
        not text
        or len(text.split()) > 12
        or text.endswith((".", ";", ":", ","))
        or not text[:1].isupper()
        or text.startswith(("#", "|", ">", "<", "("))
        or not _title_of(text)[1]
    ):
        return
    m.title = f"{m.title} {text}"
    m.heading = "\n".join(lines[m.line : body[0] + 1])
    m.end = body[0] + 1


def _drop_contents_entries(markers: list[_Marker], lines: list[str]) -> list[_Marker]:
    """``markers`` without the contents entries :func:`_contents_entries` names."""
    drop = _contents_entries(markers, lines)
    return [m for n, m in enumerate(markers) if n not in drop]


def _sentence_line(line: str) -> bool:
    """A numbered line that is a whole sentence (more than 60 characters closing with ``.``, ``;``
    or ``。``): a clause with its text, never a contents entry, which names a title (a document in
    two languages may print its terms twice, the same words under the same numbers)."""
    text = line.strip()
    return len(text) > 60 and text.endswith((".", ";", "。", "；"))


def _contents_entries(markers: list[_Marker], lines: list[str]) -> set[int]:
    """Positions of the markers that are contents entries. The document's own table of contents is evidence, not structure: a run of three or more
    numbered markers with (almost) no text of their own, each of whose numbers comes back later
    in the document as a section with text, is a contents list (a US Code chapter "analysis",
    a PDF contents page without dot leaders, a German "Inhaltsübersicht"); its lines stay body
    text of the section that holds them, and the later sections keep their ids. An entry comes
    back when a later section has its number and its title starts with the entry's first three
    title words (numbered paragraphs that restart in every article do not). A numbered sentence
    (:func:`_sentence_line`) is no entry. Under a contents title (``ARRANGEMENT OF SECTIONS``, the
    span :func:`.resolve._contents_spans` gives) numbered list lines count as entries too: such a
    page prints its entries as ``5. Personal Data Protection Principles``, which elsewhere would be
    a list item, and every entry that comes back there is contents whatever its neighbours."""
    from .resolve import _contents_spans

    titled = [span for span in _contents_spans(lines) if span not in _dot_leader_blocks(lines)]

    def listed(m: _Marker) -> bool:
        return m.kind != "item" or any(a < m.line <= b for a, b in titled)

    keys = [tuple(_label_path(c)) if (c := _heading_label(m)) and listed(m) else None for m in markers]
    body = []
    for n, m in enumerate(markers):
        stop = markers[n + 1].line if n + 1 < len(markers) else len(lines)
        # lines with dot leaders are contents lines themselves, never a section's own text
        text = [ln for ln in lines[m.end : stop] if ln.strip() and not _TOC_RE.search(ln.strip())]
        body.append(text)
    words = [_entry_words(m, body[n]) for n, m in enumerate(markers)]
    positions: dict[tuple, list[int]] = {}
    for n, k in enumerate(keys):
        if k is not None:
            positions.setdefault(k, []).append(n)

    # a container (Part, Abschnitt, Anlage) has no text of its own: it comes back by number alone
    container = [k is not None and any(p.split("-")[0] in _CONTAINER_PREFIXES for p in k[:1]) for k in keys]

    def opens_items(n: int) -> bool:  # "SECT 2 Application" directly followed by its "(1)"
        return n + 1 < len(markers) and markers[n + 1].kind == "item"

    def comes_back(n: int) -> bool:
        return any(
            later > n
            and (
                len(body[later]) > 2
                or markers[later].kind == "heading"
                or container[later]
                or bool(markers[later].heading and (body[later] or opens_items(later)))
            )
            and words[later][: len(words[n])] == words[n]
            for later in positions[keys[n]]
        )

    candidate = [
        k is not None
        and len(body[n]) <= 2
        and all(len(t) <= 160 for t in body[n])
        and (bool(words[n]) or container[n])
        and not _sentence_line(lines[markers[n].line])
        and comes_back(n)
        for n, k in enumerate(keys)
    ]
    blocks = _dot_leader_blocks(lines)
    # inside a contents page (dot-leader lines all around), an entry that comes back is contents
    # whatever its neighbours: statute contents print section lines with leaders between Part lines
    drop: set[int] = {
        n
        for n, k in enumerate(keys)
        if k is not None and bool(words[n]) and comes_back(n) and any(a <= markers[n].line <= b for a, b in blocks)
    }
    # under a contents title, an entry that comes back is contents, a container by its number alone
    drop.update(
        n
        for n, k in enumerate(keys)
        if k is not None
        and (bool(words[n]) or container[n])
        and comes_back(n)
        and any(a < markers[n].line <= b for a, b in titled)
    )
    # a container entry with no text of its own ("PART 2--INTERPRETATION" of an AustLII table of
    # provisions, whose body never repeats the Part lines) bridges two runs of entries
    bridge = [
        container[n] and not candidate[n] and markers[n].kind == "label" and len(body[n]) <= 1
        for n in range(len(markers))
    ]
    n = 0
    while n < len(markers):
        if not candidate[n]:
            n += 1
            continue
        start = n
        while start > 0 and bridge[start - 1]:
            start -= 1  # the contents' first Part line, right before its first entry
        end = n
        while end + 1 < len(markers) and (candidate[end + 1] or bridge[end + 1]):
            end += 1
        while bridge[end]:
            end -= 1  # a Part line after the last entry opens the body
        if sum(candidate[start : end + 1]) >= 3 and not _nested_opening(markers[start : end + 1]):
            drop.update(range(start, end + 1))
        n = end + 1
    return drop


def _nested_opening(run: list[_Marker]) -> bool:
    """A run of Markdown headings each one level deeper than the one before (``### Livre Ier``,
    ``#### Titre Ier``, ``##### Chapitre Ier``) opens nested containers, whose numbers and titles a
    code repeats in its other Partie; a contents list is written flat or comes back up a level."""
    return all(m.kind == "heading" for m in run) and all(b.md_level > a.md_level for a, b in zip(run, run[1:]))


def _dot_leader_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """Line spans of contents pages: at least three dot-leader lines (``Interpretation ....... 2``),
    each within 12 non-blank lines of the next; a span runs from its first to its last leader
    line, widened by the 12 non-blank lines before its first (the page's first entries)."""
    leaders = [n for n, ln in enumerate(lines) if _TOC_RE.search(ln.strip())]
    nonblank = [n for n, ln in enumerate(lines) if ln.strip()]
    rank = {n: r for r, n in enumerate(nonblank)}
    blocks: list[tuple[int, int]] = []
    group: list[int] = []
    for n in leaders + [None]:
        if n is not None and group and rank[n] - rank[group[-1]] <= 12:
            group.append(n)
            continue
        if len(group) >= 3:
            blocks.append((nonblank[max(0, rank[group[0]] - 12)], group[-1]))
        group = [n] if n is not None else []
    return blocks


def _entry_words(m: _Marker, body: list[str]) -> list[str]:
    """The first three title words of a marker (or of its first body line when the number
    stands alone), case-folded, without the number."""
    comps = _heading_label(m) or []
    text = _plain(m.title)
    for _, _, written in comps:
        text = text.replace(written, " ", 1)
    found = [w.lower() for w in re.findall(r"[^\W\d_]+", text)]
    if not found and body:
        found = [w.lower() for w in re.findall(r"[^\W\d_]+", _plain(body[0]))]
    return found[:3]
