"""Sections an HTML page states by its markup without heading elements, for :mod:`.html`.

Statute pages exported from a word processor (the Nevada Revised Statutes, many state codes) mark
each section inside an ordinary paragraph: the section's number in an element whose class says
so, its title (the *leadline*, *catchline*) in another, an anchor that the page's own links
target, and the section's first sentence running on in the same paragraph::

    <p class="SectBody"><a name="NRS001Sec130"></a>NRS&#8194;<span class="Section">1.130</span>
    &#8194;&#8194;<span class="Leadline">Nonjudicial days; …</span>&#8194;&#8194;1. No court …</p>

Markdown made of that keeps one paragraph of text and no heading, so no section is found. Here each
such paragraph is split into a heading that states the section (``NRS 1.130 Nonjudicial days; …``,
its number ``1.130``, its anchor) and a paragraph with the text that runs on. A paragraph states a
section when its text opens with a label the citation grammar reads — a keyword (``Sec. 1.001``,
``§ 5``) or a code's abbreviation (``NRS``, ``ORS``) before a number, or a dotted or hyphenated
number alone (``1.130``, ``13-1-101``) — and the markup says so: the number stands in an element
whose class names a section (``Section``, ``secnum``), the words after it in one whose class names a
title (``Leadline``, ``catchline``, ``heading``), the label and a short title are set in bold
together with the text running on (``<b>72A.1010 Short title.</b> This chapter …``, as Oregon
prints its sections), or an anchor at its start is the target of an in-page link. Two such
paragraphs at least, or one marked two ways: one alone, marked once, may be a quotation.

Under a section so stated with a code's number (``NRS 1.130``: one number, chapter 1's section
130), its numbered paragraphs ``1.``, ``2.`` are its subsections ``1.130(1)``, ``1.130(2)``
(``structure/parse/build.py``, ``_is_code_subsection``).

On a page that has them, the short paragraphs whose class names a heading (``DocHeading``,
``DocHeading2``) and that stand over such sections are the headings of the groups they open
(``GENERAL PROVISIONS``), not the contents' own group titles over their entries; a paragraph whose class is a container word of the grammar and whose
text opens with that word and a number (``<p class="Chapter">CHAPTER 1 - …``) states that
container. Levels follow the order in which the classes first appear (outermost first), below any
heading element before the first section; the sections are one level below them all.

:func:`stated_sections` rewrites the page in place and marks each new heading with its stated
number and level (``data-stated-number``, ``data-stated-level``), which :func:`stated_blocks` puts on
the converted document's heading blocks (``docs/architecture.md``, "Stated structure").
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..structure.grammar import ROMAN_PATTERN, SECTION_NUMBER, keyword_words, label_keywords
from .document import Block
from .run_in import MAX_LABELLED_TITLE_WORDS, emphasis_title, lead_title, spans_of_runs

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BLOCK_TAGS = ("p", "div", "li", "td", "th", "table", "ul", "ol", "dl", "section", "article", "blockquote", *_HEADINGS)
# words of a class name (split at "-", "_", digits and lower-to-upper case changes) that say what it marks
_SECTION_CLASS_WORDS = frozenset({"section", "sect", "sec", "secnum", "sectnum", "sectno", "secno", "enbez"})
_TITLE_CLASS_WORDS = frozenset(
    {"leadline", "catchline", "catchword", "catchwords", "headnote", "heading", "head", "hdg", "title", "caption"}
)
_HEADING_CLASS_WORDS = frozenset({"heading", "head", "hdg", "title", "subtitle"})
_MAX_GROUP_HEADING_WORDS = 30


def _class_words(tag) -> set[str]:
    words: set[str] = set()
    for name in tag.get("class") or []:
        for piece in re.split(r"[-_\s\d]+", str(name)):
            words.update(w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", piece))
            words.add(piece.lower())
    return words - {""}


def _label_re() -> re.Pattern:
    keywords = sorted(
        {w for w in (*keyword_words("label"), *label_keywords()) if w[:1].isalpha()}, key=len, reverse=True
    )
    kw = "|".join(re.escape(w) for w in keywords)
    return re.compile(
        rf"^(?P<label>(?:(?P<kw>§{{1,2}}|(?:{kw})\.?)\s*|(?P<prefix>(?-i:[A-Z][A-Z.]{{1,7}}))\s+)?"
        rf"(?P<num>{SECTION_NUMBER}))(?P<dot>\.?)(?=\s|$)",
        re.IGNORECASE,
    )


def _text(tag) -> str:
    """The element's words, spaces collapsed (en and em spaces too), joined as the browser shows
    them: the pieces of ``NRS</span><span>1.130`` keep the space the source prints between them."""
    return " ".join(tag.get_text("").split())


def _leaf_blocks(soup) -> list:
    return [t for t in soup.find_all(["p", "div"]) if t.find(_BLOCK_TAGS) is None and _text(t)]


def _in_link(node, root) -> bool:
    for parent in node.parents:
        if parent is root:
            return False
        if parent.name == "a" and parent.get("href"):
            return True
    return False


def _first_strings(tag, chars: int) -> list:
    """The text nodes of ``tag`` that hold its first ``chars`` non-space characters."""
    out, seen = [], 0
    for s in tag.find_all(string=True):
        if seen >= chars:
            break
        n = len("".join(str(s).split()))
        if n:
            out.append(s)
            seen += n
    return out


def _section_mark(tag, label_re: re.Pattern, targets: set[str]) -> dict | None:
    """What the markup states about a paragraph that may open a section (module docstring), or
    ``None``: ``{"label", "number", "title", "title_el", "anchor", "evidence"}`` (how many kinds of
    mark it has: a number class, a title class or bold title, a link target)."""
    text = _text(tag)
    m = label_re.match(text)
    if not m:
        return None
    number, prefix, kw = m.group("num"), m.group("prefix"), m.group("kw")
    dotted = bool(re.search(r"\d[A-Za-z]{0,2}[.-]\d", number))
    if not (kw or prefix or dotted):
        return None  # "1. The Supreme Court": a numbered paragraph, not a section label
    if kw and label_keywords().get(kw.lower().rstrip("."), ("", 9))[1] < 4:
        return None  # "CHAPTER 1 - …": a container, a group heading (:func:`_group_headings`), no section
    label_chars = len("".join(m.group("label").split()))
    strings = _first_strings(tag, label_chars)
    if not strings or any(_in_link(s, tag) for s in strings):
        return None  # a contents entry or a citation: the number is a link
    number_el = None
    for s in strings:
        for parent in s.parents:
            if parent is tag:
                break
            if _class_words(parent) & _SECTION_CLASS_WORDS and number in _text(parent):
                number_el = parent
    title_el = None
    for child in tag.find_all(True):
        if child.find(string=True) is None or child in (number_el,) or child.find(_BLOCK_TAGS) is not None:
            continue
        if _class_words(child) & _TITLE_CLASS_WORDS and not _class_words(child) & _SECTION_CLASS_WORDS:
            words = _text(child)
            rest = text[m.end() :].lstrip(" .:—–-")
            if words and rest.startswith(words) and len(words.split()) <= MAX_LABELLED_TITLE_WORDS:
                title_el = child
                break
    bold_title = _bold_run_in(tag, m.group("label")) if title_el is None else None
    anchor = str(tag.get("id")) if tag.get("id") else None
    for node in tag.descendants:  # an anchor before the label: <a name="NRS001Sec130"></a>NRS 1.130
        if node is strings[0] or anchor:
            break
        if getattr(node, "name", None) and (ident := node.get("name") if node.name == "a" else node.get("id")):
            anchor = str(ident)
    evidence = sum(
        (number_el is not None, title_el is not None or bold_title is not None, bool(anchor and anchor in targets))
    )
    if not evidence:
        return None
    if title_el is not None:
        title = _text(title_el)
    elif bold_title is not None:
        title = bold_title
    else:
        title = lead_title(text[m.end() :])
    return {
        "label": m.group("label"),
        "number": f"{kw or prefix} {number}" if kw or prefix else number,  # as printed: "NRS 1.130", "Sec. 5"
        "title": title,
        "title_el": title_el,
        "anchor": anchor,
        "evidence": evidence,
    }


def _bold_run_in(tag, label: str) -> str | None:
    """The title of a label set in bold together with its title, the text running on after the
    bold (``<b>72A.1010 Short title.</b> This chapter may be cited …``, as Oregon prints its
    sections), or ``None``: :func:`.run_in.emphasis_title` on the paragraph's strings, each marked
    bold inside a ``<b>`` or ``<strong>``, the label in the bold with the title; the markup states
    the section, so no text need follow."""
    runs = []
    for string in tag.find_all(string=True):
        bold = False
        for parent in string.parents:
            if parent is tag:
                break
            bold = bold or parent.name in ("b", "strong")
        runs.append((str(string), ("b",) if bold else ()))
    found = emphasis_title(*spans_of_runs(runs), {"b"}, label=label, text_after=False)
    return found.heading if found is not None and found.labelled else None


def _drop_leading(tag, chars: int) -> None:
    """Remove the first ``chars`` non-space characters of ``tag``'s text (and elements left empty)."""
    for s in tag.find_all(string=True):
        if chars <= 0:
            break
        value = str(s)
        kept, taken = [], 0
        for k, ch in enumerate(value):
            if taken >= chars:
                kept.append(value[k:])
                break
            if not ch.isspace():
                taken += 1
        chars -= taken
        rest = "".join(kept).lstrip(" \t\n\u2002\u2003\u00a0.:—–-") if taken else value
        s.replace_with(rest)
    for el in reversed(tag.find_all(True)):
        if el.name not in ("br", "img") and not el.get_text().strip() and el.find(["img"]) is None:
            el.decompose()


def stated_sections(soup) -> int:
    """Split every paragraph that states a section into a heading and its text, and make the
    group headings over them headings (see the module docstring); returns the number of sections.
    Each new heading carries ``data-stated-number`` (``""`` for an unnumbered group heading),
    ``data-stated-level`` and, where the source has one, the anchor as its ``id``."""
    label_re = _label_re()
    targets = {str(a["href"])[1:] for a in soup.find_all("a", href=True) if str(a["href"]).startswith("#")}
    leaves = _leaf_blocks(soup)
    marks = {}
    for tag in leaves:
        if tag.find_parent(_HEADINGS) is not None:
            continue
        mark = _section_mark(tag, label_re, targets)
        if mark is not None:
            marks[id(tag)] = mark
    if len(marks) < 2 and not any(mark["evidence"] >= 2 for mark in marks.values()):
        return 0  # one paragraph marked one way may be a quotation; a chapter of one section marks it twice
    groups = _group_headings(leaves, marks, label_re)
    first = next(t for t in leaves if id(t) in marks)
    above = [int(h.name[1]) for h in first.find_all_previous(_HEADINGS)]
    base = max(above, default=0)
    classes = list(dict.fromkeys(key for key, _ in groups.values()))
    for tag in leaves:
        if id(tag) in groups:
            key, number = groups[id(tag)]
            _heading(soup, tag, _text(tag), number, base + 1 + classes.index(key), None)
            tag.decompose()
    level = base + 1 + len(classes)
    for tag in leaves:
        mark = marks.get(id(tag))
        if mark is None:
            continue
        words = " ".join(x for x in (mark["label"], mark["title"]) if x)
        _heading(soup, tag, words, mark["number"], level, mark["anchor"])
        _drop_leading(tag, len("".join(words.split())))
        if not _text(tag):
            tag.decompose()
    return len(marks)


def _heading(soup, before, words: str, number: str | None, level: int, anchor: str | None) -> None:
    h = soup.new_tag(f"h{max(1, min(level, 6))}")
    h.string = words
    h["data-stated-number"] = number or ""
    h["data-stated-level"] = str(level)
    if anchor:
        h["id"] = anchor
    before.insert_before(h)


def _group_headings(leaves: list, marks: dict, label_re: re.Pattern) -> dict[int, tuple[str, str | None]]:
    """Paragraphs that head groups of the stated sections: ``id(tag)`` → (class key, stated number
    or ``None``). A class qualifies when it names a heading and at least half its paragraphs stand
    right over a section or another such heading (``DocHeading`` over ``NRS 1.010``; not the
    contents' ``COHead2`` over its entries), or when it is a container word of the grammar that the
    paragraph's text opens with, numbered (``<p class="Chapter">CHAPTER 1 - …``)."""
    containers = {w for w, (prefix, rank) in label_keywords().items() if prefix and rank < 9}
    candidates: dict[int, str] = {}
    numbered: dict[int, str] = {}
    for tag in leaves:
        if id(tag) in marks or tag.find("a", href=True) is not None:
            continue
        text = _text(tag)
        words = _class_words(tag)
        if not words or len(text.split()) > _MAX_GROUP_HEADING_WORDS:
            continue
        key = " ".join(sorted(str(c) for c in tag.get("class") or []))
        opening = re.match(rf"^([^\W\d_]+)\.?\s+(\d{{1,4}}[A-Za-z]?|{ROMAN_PATTERN})\b", text)
        if opening and opening.group(1).lower() in containers and opening.group(1).lower() in words:
            numbered[id(tag)] = f"{opening.group(1)} {opening.group(2)}"
            candidates[id(tag)] = key
        elif words & _HEADING_CLASS_WORDS:
            candidates[id(tag)] = key
    over: dict[str, list[bool]] = {}
    for n, tag in enumerate(leaves):
        own = candidates.get(id(tag))
        if own is None:
            continue
        nxt = next((t for t in leaves[n + 1 :] if id(t) not in candidates or id(t) in numbered), None)
        over.setdefault(own, []).append(nxt is not None and id(nxt) in marks)
    qualified = {key for key, flags in over.items() if sum(flags) * 2 >= len(flags)}
    return {
        i: (key, numbered.get(i))
        for i, key in candidates.items()
        if key in qualified or (i in numbered and _before_sections(i, leaves, marks))
    }


def _before_sections(tag_id: int, leaves: list, marks: dict) -> bool:
    pos = next(n for n, t in enumerate(leaves) if id(t) == tag_id)
    return any(id(t) in marks for t in leaves[pos + 1 :])


def stated_blocks(blocks: list[Block], soup) -> list[Block]:
    """``blocks`` (of the Markdown made from the page :func:`stated_sections` rewrote) with the
    headings it made stating their number, title, level and anchor: the page's ``h1``–``h6`` that
    carry ``data-stated-level`` are matched to the heading blocks in order, by their words."""
    stated = [h for h in soup.find_all(_HEADINGS) if h.get("data-stated-level")]
    if not stated:
        return blocks
    out, k = list(blocks), 0
    for n, b in enumerate(out):
        if k >= len(stated):
            break
        if b.kind != "heading":
            continue
        h = stated[k]
        if _words(b.title or "") != _words(h.get_text(" ")):
            continue
        number = str(h.get("data-stated-number") or "") or None
        words = " ".join(h.get_text(" ").split())
        title = words
        if number:
            m = re.match(r"^.*?" + re.escape(number.split()[-1]) + r"\.?\s*", words)
            title = (words[m.end() :] if m else words).lstrip(" -–—:.")
        out[n] = replace(
            b, level=int(h["data-stated-level"]), number=number, title=title or None, anchor=h.get("id") or None
        )
        k += 1
    return out


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))
