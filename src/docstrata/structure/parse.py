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
normalises ids (DESIGN §5): ``4.2.1``, ``203(a)(1)``, ``article-17``, ``part-2``, a slug for
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
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..models import DocumentTree, Section
from .definitions import leading_defined_term

# Keyword labels: the written keyword → (id prefix or "" for bare numbers, container rank).
# Rank orders containers: a lower rank encloses a higher one (Title > Part > Chapter > …).
_KEYWORDS: dict[str, tuple[str, int]] = {
    "title": ("title", 0), "part": ("part", 1), "subpart": ("subpart", 2),
    "chapter": ("chapter", 2), "subchapter": ("subchapter", 3), "schedule": ("schedule", 1),
    "appendix": ("appendix", 1), "app": ("appendix", 1), "annex": ("annex", 1),
    "amendment": ("amendment", 1), "article": ("article", 4), "art": ("article", 4),
    "section": ("", 5), "sec": ("", 5), "§": ("", 5), "rule": ("", 5), "clause": ("", 5),
    "regulation": ("", 5),
}
_BARE_ALIAS_KEYWORDS = {"section", "sec", "§"}

_KW_RE = r"(?P<kw>(?i:title|part|subpart|chapter|subchapter|schedule|appendix|annex|amendment|article|section|clause|rule|regulation)\b|(?i:art|sec)\.|§{1,2}|APP(?=\s?\d))"
_NUM = r"(?:\d{1,4}[A-Z]{0,2}|[IVXLC]{1,7}|[A-Z](?![a-z]))"
_PAREN = r"\((?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})\)"
# A compound label: keyword components and bare components joined by dots.
_KW_ANON = _KW_RE.replace("(?P<kw>", "(?:")
_COMPONENT = rf"(?:{_KW_ANON}\s?{_NUM}|\d{{1,3}}[A-Z]{{0,2}}|[A-Z]\d{{1,3}}[A-Z]?)"
_LABEL_RE = re.compile(
    rf"(?P<label>{_COMPONENT}(?:\.\s?{_COMPONENT})*(?:\.?{_PAREN})*\.?)"
    rf"(?P<sep>\t+|\s{{2,}}|\s|$|(?=[A-Z]{{2}}))(?P<rest>.*)$"
)
_FIRST_ROMAN_OR_LETTER_RE = re.compile(r"^(?P<label>(?:[IVXLC]{1,7}|[A-Z])\.(?:\d{1,3}\.?)*)(?P<sep>\t+|\s{2,}|\s)(?P<rest>[A-Z].*)$")
_ITEM_RE = re.compile(r"^(?P<label>\((?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})\))(?P<sep>\t+|\s+|$)(?P<rest>.*)$")
_MD_ITEM_RE = re.compile(r"^(?P<marker>\d{1,3}|[a-z]|[A-Z]|[ivx]{1,5})(?P<delim>[.)])(?P<sep>[ \t]+)(?P<rest>\S.*)$")
_ATX_RE = re.compile(r"^ {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<text>.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_RE = re.compile(r"^ {0,3}(?P<ch>=+|-+)[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})")
_TOC_RE = re.compile(r"(?:\.\s?){4,}\s*\d*\s*$|\.{3,}\s*\d+\s*$")
_TAG_RE = re.compile(r"<[^>]+>")
_LINK_RE = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPH_RE = re.compile(r"[*_`]+")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
# "Access and Use. Customer may …", "In general.—The Secretary shall …": a leading phrase.
_LEAD_PHRASE_RE = re.compile(r"^(?!(?:e\.g|i\.e|Mr|Ms|Mrs|Dr|No|Nos|Art|Sec|St)\.)(.{2,80}?[.:])(?=\s|[—–]|--)")
# Words that make a line a sentence: modal and auxiliary verbs and the verbs of rule text.
_FINITE_VERBS = frozenset(
    "shall must may will should would can cannot could might is are was were has have had does do did "
    "means mean includes include applies apply constitutes refers requires survive survives agrees warrants represents "
    "acknowledges governs prevails remains continues".split())
_FUNCTION_WORDS = frozenset("a an the of in on at to for by with and or nor but as from that which".split())
_REFERENCE_WORDS = frozenset("sections clauses articles paragraph paragraphs rules see under per no".split())


@dataclass
class _Marker:
    """A recognised section start at ``line`` (0-based); ``end`` is the first line after its heading."""

    line: int
    end: int
    kind: str  # "heading" (markdown), "label" (numbered/keyword), "item" ((a), list item)
    heading: str  # raw heading lines ("" when the marker line is body text: numbered paragraph)
    title: str
    md_level: int = 0
    indent: int = 0
    components: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, value, written)
    style: str = ""  # item style: digit / lower / upper / roman / roman-upper
    value: int = 0  # item ordinal, for sequence checks
    marker_text: str = ""  # item label as written: "(a)", "12."


@dataclass
class _Open:
    """An open section on the nesting stack."""

    index: int  # position in the output list
    marker: _Marker | None
    path: list[str]
    rank: int  # container rank for keyword labels; 9 for numbered; -1 for markdown headings


# --------------------------------------------------------------------------- line scanning

def _plain(text: str) -> str:
    """Heading or item text without HTML tags, emphasis markers and extra spaces."""
    text = _LINK_RE.sub(r"\1", text)
    return " ".join(_EMPH_RE.sub("", _TAG_RE.sub("", text)).split())


def _title_of(rest: str) -> tuple[str, bool]:
    """(title, is_heading) for the text after a label.

    A short, heading-like phrase ("Supported Versions", "Scope.") is the title and the line
    is a heading. A line that reads as prose (:func:`_reads_as_sentence`) is body text, and
    its title is short: the defined term of a definition paragraph (``"Fees"``), its leading
    phrase ("Access and Use.", "In general.—"), or its first words with an ellipsis.
    """
    text = _plain(rest).strip(" |")
    words = text.split()
    if not words:
        return "", True
    term = leading_defined_term(text)
    if term:
        return f'"{term}"', False
    if len(words) <= 12 and len(text) <= 100 and not re.search(r"[;,]$", text) \
            and not _reads_as_sentence(text, words):
        return text, True
    lead = _LEAD_PHRASE_RE.match(text)
    if lead and len(lead.group(1).split()) <= 8:
        return lead.group(1), False
    return _first_words(words, 8), False


def _reads_as_sentence(text: str, words: list[str]) -> bool:
    """A line is prose, not a heading title, when it ends like a sentence or a clause
    (``.``, ``:``, ``;``, ``—`` …, or a dangling "of"/"the" where a wrapped line breaks) and
    has a finite verb (``shall``, ``is``, ``means`` …) or, without one, is long.

    Headings are noun phrases, may hold a verb but do not end like a sentence
    ("Regulator may issue collateral notice", "Who can exercise our powers?"), and may
    end with a full stop ("Petition for establishment of an American viticultural area."
    is a CFR heading); all-capitals lines are headings whatever they say.
    """
    if text.upper() == text or len(words) < 3:
        return False
    lowercase = sum(1 for w in words if w[:1].islower())
    if words[-1].lower() in _FUNCTION_WORDS:  # a wrapped sentence, not a wrapped Title Case heading
        return len(words) >= 4 and lowercase >= 0.4 * len(words)
    if not re.search(r"[.!:;,—–-][\"”’')\]]*$", text):
        return False
    if any(w in _FINITE_VERBS for w in re.findall(r"[a-z]+", text)):
        return True
    return len(words) >= 10 and text.rstrip("\"”’')]")[-1:] in ".!" and lowercase >= len(words) / 2


def _first_words(words: list[str], n: int) -> str:
    """The first ``n`` words, without a dangling function word, and an ellipsis if cut."""
    if len(words) <= n:
        return " ".join(words)
    head = words[:n]
    while len(head) > 1 and head[-1].lower().strip(",;:") in _FUNCTION_WORDS:
        head.pop()
    return " ".join(head).rstrip(",;:") + " …"


def _roman_value(s: str) -> int:
    total, prev = 0, 0
    for ch in reversed(s.lower()):
        v = _ROMAN_VALUES.get(ch, 0)
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total


def _item_style(inner: str) -> list[tuple[str, int]]:
    """Possible (style, ordinal) readings of an item label's inner text, most likely first."""
    if inner.isdigit():
        return [("digit", int(inner))]
    readings: list[tuple[str, int]] = []
    if re.fullmatch(r"[ivxlc]+", inner):
        readings.append(("roman", _roman_value(inner)))
    if re.fullmatch(r"[IVXLC]+", inner):
        readings.append(("roman-upper", _roman_value(inner)))
    if len(inner) == 1 and inner.islower():
        readings.append(("lower", ord(inner) - 96))
    if len(inner) == 1 and inner.isupper():
        readings.append(("upper", ord(inner) - 64))
    if re.fullmatch(r"([a-z])\1+", inner):  # (aa) after (z)
        readings.append(("lower", 26 * (len(inner) - 1) + ord(inner[0]) - 96))
    return readings


def _components(label: str) -> list[tuple[str, str, str]] | None:
    """Split a compound label into (kind, value, written) parts; ``None`` if not a label.

    kind is ``kw:<prefix>`` for keyword parts, ``num`` for bare numbers, ``paren`` for (a).
    """
    parts: list[tuple[str, str, str]] = []
    body, parens = re.match(rf"^(.*?)((?:\.?{_PAREN})*)\.?$", label).groups()
    lead = re.match(r"^([IVXLC]{1,7}|[A-Z])\.(?=\d|$)", body)
    if lead:  # "A.2", "IV." — a letter or roman first part
        parts.append(("num", lead.group(1), lead.group(1)))
        body = body[lead.end():]
    for piece in re.findall(rf"{_COMPONENT}", body):
        m = re.match(rf"^{_KW_RE}\s?({_NUM})$", piece)
        if m:
            kw = m.group("kw").rstrip(".").lower()
            kw = "§" if kw.startswith("§") else kw
            prefix, _ = _KEYWORDS[kw]
            parts.append((f"kw:{prefix}:{kw}", m.group(m.lastindex), piece))
        else:
            if re.search(r"\d{4}", piece) or int(re.match(r"\D*(\d+)", piece).group(1)) > 999:
                return None
            parts.append(("num", piece, piece))
    for p in re.findall(_PAREN, parens or ""):
        parts.append(("paren", p, p))
    return parts or None


def _scan(lines: list[str], markdown_flavour: bool) -> list[_Marker]:
    """Find every section marker in document order."""
    markers: list[_Marker] = []
    fence: str | None = None
    prev_blank = True
    i = 0
    while i < len(lines):
        line = lines[i]
        fm = _FENCE_RE.match(line)
        if fence is not None:
            if fm and fm.group("fence")[0] == fence[0] and len(fm.group("fence")) >= len(fence) \
                    and not line.strip()[len(fm.group("fence")):].strip():
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
        marker = _heading_marker(lines, i, prev_blank) or _label_marker(lines, i, markdown_flavour, prev_blank,
                                                                        markers)
        if marker is not None:
            markers.append(marker)
            i = marker.end
            prev_blank = False
            continue
        prev_blank = False
        i += 1
    return markers


def _heading_marker(lines: list[str], i: int, prev_blank: bool) -> _Marker | None:
    """An ATX heading at line ``i`` or a setext heading whose underline is line ``i + 1``."""
    line = lines[i]
    m = _ATX_RE.match(line)
    if m:
        text = m.group("text") or ""
        return _Marker(i, i + 1, "heading", line, _plain(text), md_level=len(m.group("hashes")))
    if i + 1 < len(lines) and prev_blank and not line.lstrip().startswith(("|", ">", "-", "*", "+")):
        u = _SETEXT_RE.match(lines[i + 1])
        if u and line.strip() and len(line) - len(line.lstrip()) < 4:
            level = 1 if u.group("ch")[0] == "=" else 2
            return _Marker(i, i + 2, "heading", line + "\n" + lines[i + 1], _plain(line), md_level=level)
    return None


def _label_marker(lines: list[str], i: int, markdown_flavour: bool, prev_blank: bool,
                  markers: list[_Marker]) -> _Marker | None:
    """A numbered label, keyword label or enumerated item starting line ``i``.

    ``markers`` are the markers found before line ``i``: a numbered line directly under
    another line (no blank between) is a label only when it continues their numbering.
    """
    line = lines[i]
    expanded = line.expandtabs(4)
    indent = len(expanded) - len(expanded.lstrip())
    text = line.strip()
    if text.startswith(("|", ">")) or _TOC_RE.search(text):
        return None
    if markdown_flavour:
        mi = _MD_ITEM_RE.match(text)
        if mi and not re.match(r"^\d{1,3}\.\d", text) and not _md_item_is_clause(
                mi, lines, i, _numbering_above(lines, i, markers, prev_blank, past_lists=False)):
            return _md_item(mi, line, i, indent)
    m = _ITEM_RE.match(text)
    if m:
        readings = _item_style(m.group("label")[1:-1])
        if readings and (m.group("rest") == "" or m.group("sep")):
            title, is_heading = _title_of(m.group("rest"))
            style, value = readings[0]
            return _Marker(i, i + 1, "item", "", f"{m.group('label')} {title}".strip(), indent=indent,
                           style=style, value=value, marker_text=m.group("label"),
                           components=[("paren", m.group("label"), m.group("label"))])
    m = _LABEL_RE.match(text) or _FIRST_ROMAN_OR_LETTER_RE.match(text)
    if not m:
        return None
    label, sep, rest = m.group("label"), m.group("sep"), m.group("rest")
    comps = _components(label)
    if comps is None:
        return None
    prev_path = _numbering_above(lines, i, markers, prev_blank, past_lists=True)
    path = _label_path(comps)
    if prev_path is not None:
        follows = _continues_numbering(prev_path, path) \
            and not (len(path) == 1 and _under_unnumbered_list_line(lines, i, markers))
    else:
        follows = not prev_blank and _opens_numbering(lines, i, path, markers)
    if not _plausible_label(comps, label, sep, rest, prev_blank or follows):
        return None
    title, is_heading = _title_of(rest)
    shown = f"{label.rstrip('.') if not label.endswith(').') else label} {title}".strip()
    heading = line if is_heading else ""
    return _Marker(i, i + 1, "label", heading, shown, indent=indent, components=comps)


def _plausible_label(comps: list[tuple[str, str, str]], label: str, sep: str, rest: str, set_apart: bool) -> bool:
    """Shape rules that keep prose, dates, figures and table rows from becoming sections.

    ``set_apart``: the line follows a blank line, or continues the numbering of the labels
    above it (``1.2`` under ``1.1``), so a single space may separate label and title.
    """
    has_kw = any(k.startswith("kw:") for k, _, _ in comps)
    rest_s = rest.strip()
    if re.match(r"^\d[\d.,]*(?:\s|%|$)", rest_s) or rest_s.startswith(("%", "per cent", "percent")):
        return False  # "1.5 2.3" figures, "3.5 %" amounts
    if has_kw:
        if sep in ("\t",) or sep.startswith("\t") or len(sep) >= 2 or not rest_s:
            return True
        if rest_s[:1] in "-–—:.(" or label.endswith("."):
            return True
        return bool(re.match(r"^[A-Z0-9“\"'‘]", rest_s)) and len(rest_s.split()) <= 12
    dotted = "." in label.rstrip(".") or "(" in label
    if not rest_s:
        return dotted or label.endswith(".")
    if sep.startswith("\t") or len(sep) >= 2:
        # "1<TAB>GENERAL PROVISIONS": a bare number needs a heading-like title after a tab
        return dotted or label.endswith(".") or (sep.startswith("\t") and _title_of(rest)[1]
                                                 and rest_s[:1].isupper())
    if sep == "":  # "PART 1.INTRODUCTION" only with a keyword
        return False
    # single space: "4.2 Title" or "1. Definitions." — needs a capitalised start, set apart
    return set_apart and (dotted or label.endswith(".")) and bool(re.match(r"^[A-Z“\"'‘*\[<]", rest_s))


def _ends_mid_sentence(line: str) -> bool:
    """The line breaks off where a sentence goes on ("… extended by", "… see Section"), so a
    number opening the next line continues that sentence rather than labelling a clause."""
    text = line.strip().lower()
    if text.endswith((",", ";", "(", "—", "–", "-")):
        return True
    last = re.search(r"[\w§]+$", text)
    return bool(last) and (last.group() in _FUNCTION_WORDS or last.group() in _KEYWORDS
                           or last.group() in _REFERENCE_WORDS)


def _numbering_above(lines: list[str], i: int, markers: list[_Marker], prev_blank: bool,
                     past_lists: bool) -> list[str] | None:
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


def _opens_numbering(lines: list[str], i: int, path: list[str], markers: list[_Marker]) -> bool:
    """A first clause (``1.``, ``1.1``) directly under a title line, confirmed by the next line
    continuing its numbering (``1.1 …`` under ``1. Warranty Period``). Not under a line ending in
    a colon ("Payment is due:" introduces a list) or breaking off mid-sentence."""
    if any(p != "1" for p in path) or i + 1 >= len(lines) or _ends_mid_sentence(lines[i - 1]) \
            or lines[i - 1].rstrip().endswith(":") or _under_unnumbered_list_line(lines, i, markers):
        return False
    nxt = _LABEL_RE.match(lines[i + 1].strip())
    comps = _components(nxt.group("label")) if nxt else None
    return bool(comps and re.match(r"^[A-Z“\"'‘]", nxt.group("rest").strip())
                and _continues_numbering(path, _label_path(comps)))


def _ordinal(part: str) -> tuple[int, str] | None:
    """``'12'`` → (12, ''), ``'9B'`` → (9, 'B'), ``'A'`` → (1, ''); ``None`` for other parts."""
    m = re.fullmatch(r"(\d{1,3})([A-Z]{0,2})", part)
    if m:
        return int(m.group(1)), m.group(2)
    return (ord(part) - 64, "") if re.fullmatch(r"[A-Z]", part) else None


def _continues_numbering(prev: list[str], cur: list[str]) -> bool:
    """``cur`` is the next number after ``prev`` at some level: its first child (1.2 → 1.2.1),
    its next sibling (1.1 → 1.2, 9.3.1 → 9.3.1A) or the next number of an ancestor (1.2 → 2).
    Gaps of up to two numbers (deleted clauses) are allowed."""
    cur_ord = [_ordinal(p) for p in cur]
    if not cur or not all(cur_ord):
        return False
    if len(cur) == len(prev) + 1 and cur[:-1] == prev:
        return cur_ord[-1] == (1, "")
    if len(cur) > len(prev) or cur[:-1] != prev[: len(cur) - 1]:
        return False
    (pn, ps), (cn, cs) = _ordinal(prev[len(cur) - 1]), cur_ord[-1]
    return (1 <= cn - pn <= 3 and not cs) or (cn == pn and cs > ps)


def _md_item_is_clause(m: re.Match, lines: list[str], i: int, prev_path: list[str] | None) -> bool:
    """In Markdown, ``2. Exclusions`` is a numbered clause, not a list item, when the next line
    opens its sub-clauses (``2.1 …``) or it continues dotted clauses right above (``1.2 …``).
    Dotted labels are not Markdown list syntax, so documents that mix them with ``N.`` lines
    number clauses, not list items."""
    number = m.group("marker")
    if m.group("delim") != "." or not number.isdigit():
        return False
    nxt = next((ln.strip() for ln in lines[i + 1:] if ln.strip()), "")
    if re.match(rf"^{number}\.1[.\s]", nxt):
        return True
    return bool(prev_path and len(prev_path) >= 2 and _continues_numbering(prev_path, [number]))


def _md_item(m: re.Match, line: str, i: int, indent: int) -> _Marker:
    marker = m.group("marker")
    readings = _item_style(marker)
    style, value = readings[0]
    title, _ = _title_of(m.group("rest"))
    written = marker + m.group("delim")
    return _Marker(i, i + 1, "item", "", f"{written} {title}".strip(), indent=indent, style=style,
                   value=value, marker_text=written,
                   components=[("mditem", marker, written)])


# --------------------------------------------------------------------------- nesting and ids

def _slug(text: str) -> str:
    s = re.sub(r"[^\w]+", "-", _plain(text).lower()).strip("-")
    return s[:60].rstrip("-") or "section"


def _label_path(comps: list[tuple[str, str, str]]) -> list[str]:
    """Normalised path parts: ``article-17``, ``4``, ``2``, ``(a)``."""
    path: list[str] = []
    for kind, value, _ in comps:
        if kind.startswith("kw:"):
            prefix = kind.split(":")[1]
            if prefix:
                path.append(f"{prefix}-{value.lower()}")
            else:
                path.extend(value.split("."))
        elif kind == "paren":
            path.append(value)
        else:
            path.append(value)
    return path


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


def _rank(marker: _Marker) -> int:
    ranks = [_KEYWORDS[k.split(":")[2]][1] for k, _, _ in marker.components if k.startswith("kw:")]
    bare = any(k in ("num", "paren") for k, _, _ in marker.components) or any(
        k.startswith("kw::") for k, _, _ in marker.components)
    if bare:
        return 9
    return ranks[-1] if ranks else 9


def parse_sections(markdown: str, doc_key: str, title: str) -> DocumentTree:
    """Parse ``markdown`` into a :class:`DocumentTree` with sections in document order.

    Args:
        markdown: the document body (Markdown, or plain text treated as Markdown).
        doc_key: the document's id (path relative to the source root).
        title: the document title, used as the preamble's title.

    Returns:
        A tree whose ``sections`` cover every line of ``markdown`` exactly once (heading
        lines in ``Section.heading``, the rest in ``Section.text``). A ``preamble`` section
        holds text before the first marker when there is any. Definitions and
        cross-references are left empty (see ``definitions.py`` and ``xrefs.py``).
    """
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    markdown_flavour = any(_ATX_RE.match(ln) for ln in lines)
    markers = _scan(lines, markdown_flavour)
    markers = _merge_subtitles(markers, lines)
    markers = _filter_markers(markers, markdown_flavour, lines)
    sections = _build(markers, lines, title)
    suffixed = _make_unique(sections)
    _fill_aliases_and_chains(sections, suffixed)
    return DocumentTree(doc_key=doc_key, title=title, sections=sections)


def _label_indent(markers: list[_Marker]) -> int | None:
    """The indentation at which this document writes its numbered labels."""
    indents = [m.indent for m in markers if m.kind == "label" and m.heading]
    if not indents:
        indents = [m.indent for m in markers if m.kind == "label"]
    return Counter(indents).most_common(1)[0][0] if indents else None


def _filter_markers(markers: list[_Marker], markdown_flavour: bool, lines: list[str]) -> list[_Marker]:
    """Drop labels off the document's label column and items that start no sensible sequence."""
    base = _label_indent(markers)
    kept: list[_Marker] = []
    open_items: list[_Marker] = []  # recent items, for sequence checks
    for idx, m in enumerate(markers):
        if m.kind == "label":
            if base is not None and m.indent != base:
                continue
            open_items = []
        elif m.kind == "heading":
            open_items = []
        elif m.kind == "item":
            if m.components[0][0] == "mditem":
                if not _md_item_is_section(m, markers, idx, kept, lines):
                    continue
            elif base is not None and m.indent > base:
                continue
            first_md_item = m.components[0][0] == "mditem" and not any(o.indent == m.indent for o in open_items)
            if not _continues_sequence(m, open_items) and not first_md_item:
                continue  # a Markdown list may start at any number; other items must start a sequence
            open_items = [o for o in open_items if o.indent <= m.indent] + [m]
        kept.append(m)
    return kept


def _md_item_is_section(m: _Marker, markers: list[_Marker], idx: int, kept: list[_Marker], lines: list[str]) -> bool:
    """A Markdown list item is a section under a numbered section, or when it has an ordered sub-list."""
    numbered_parent = False
    for k in reversed(kept):
        if k.kind in ("heading", "label"):
            numbered_parent = bool(k.components) or bool(_heading_label(k))
            break
        if k.kind == "item" and k.indent < m.indent:
            numbered_parent = True
            break
        if k.kind == "item" and k.indent == m.indent:
            return True  # sibling of an accepted item
    if numbered_parent:
        return True
    nxt = markers[idx + 1] if idx + 1 < len(markers) else None
    return bool(nxt and nxt.kind == "item" and nxt.components[0][0] == "mditem" and nxt.indent > m.indent
                and all(not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > m.indent
                        for j in range(m.line + 1, nxt.line)))


def _continues_sequence(m: _Marker, open_items: list[_Marker]) -> bool:
    """An item starts a list (1, a, A, i) or continues one of the open lists; fixes roman vs letter."""
    inner = m.marker_text.strip("().")
    inner = inner[:-1] if inner.endswith(")") else inner
    readings = _item_style(inner)
    same_indent = [o for o in open_items if o.indent == m.indent]
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


def _heading_label(m: _Marker) -> list[tuple[str, str, str]] | None:
    """Numbering written inside a Markdown heading ("Article 4", "4.2.1 Title"), as components."""
    if m.kind != "heading":
        return m.components or None
    if m.components:
        return m.components
    text = m.title
    lm = _LABEL_RE.match(text) or _FIRST_ROMAN_OR_LETTER_RE.match(text)
    if lm:
        comps = _components(lm.group("label"))
        rest = lm.group("rest").strip()
        inner = _LABEL_RE.match(rest) if rest else None
        inner_comps = _components(inner.group("label")) if inner else None
        if inner_comps and all(k.startswith("kw:") for k, _, _ in inner_comps):
            comps = inner_comps  # "1. Article I": the keyword label names the section
        if comps and (lm.group("sep") or not rest) and not rest[:1].isdigit():
            if any(k.startswith("kw:") for k, _, _ in comps) or "." in lm.group("label") or not rest \
                    or rest[:1].isupper():
                m.components = comps
                return comps
    im = _ITEM_RE.match(text)
    if im and _item_style(im.group("label")[1:-1]):
        m.components = [("paren", im.group("label"), im.group("label"))]
        return m.components
    return None


def _merge_subtitles(markers: list[_Marker], lines: list[str]) -> list[_Marker]:
    """``### Article 4`` directly followed by ``#### Definitions`` is one section titled by both."""
    out: list[_Marker] = []
    for m in markers:
        prev = out[-1] if out else None
        if (prev is not None and m.kind == "heading" and prev.kind == "heading" and m.md_level > prev.md_level
                and _heading_label(prev) and not _heading_label(m)
                and all(not lines[j].strip() for j in range(prev.end, m.line))
                and _plain(prev.title).split()[-1:] and len(prev.title.split()) <= 3):
            prev.heading = "\n".join(lines[prev.line:m.end])
            prev.title = f"{prev.title} {m.title}"
            prev.end = m.end
            continue
        out.append(m)
    return out


def _build(markers: list[_Marker], lines: list[str], doc_title: str) -> list[Section]:
    """Nest markers into sections; each section's text runs to the next marker."""
    sections: list[Section] = []
    stack: list[_Open] = []
    first = markers[0].line if markers else len(lines)
    pre = "\n".join(lines[:first])
    if pre.strip() or not markers:
        sections.append(Section(section_id="preamble", title=doc_title or "Preamble", level=1,
                                text=pre, start_line=1))
    for n, m in enumerate(markers):
        body_end = markers[n + 1].line if n + 1 < len(markers) else len(lines)
        parent = _find_parent(m, stack)
        path, local_id = _path_and_id(m, parent)
        level = (parent.marker and sections[parent.index].level or 0) + 1 if parent else 1
        if m.heading:
            text = "\n".join(lines[m.end:body_end])
        else:
            text = "\n".join(lines[m.line:body_end])
        number = _written_number(m)
        sec = Section(section_id=local_id, title=m.title or number or "", level=level, number=number,
                      parent_id=sections[parent.index].section_id if parent else None,
                      heading=m.heading, text=text, start_line=m.line + 1)
        sections.append(sec)
        stack.append(_Open(len(sections) - 1, m, path, -1 if (m.kind == "heading") else _rank(m)))
    return sections


def _written_number(m: _Marker) -> str | None:
    comps = _heading_label(m)
    if not comps:
        return None
    if m.kind == "item":
        return m.marker_text
    return " ".join(w for _, _, w in comps) if len(comps) == 1 else ".".join(w for _, _, w in comps)


def _find_parent(m: _Marker, stack: list[_Open]) -> _Open | None:
    """Pop ``stack`` to the new marker's parent and return it (``None`` = top level)."""
    if m.kind == "heading":
        while stack and (stack[-1].marker.kind != "heading" or stack[-1].marker.md_level >= m.md_level):
            stack.pop()
        return stack[-1] if stack else None
    if m.kind == "label":
        path = _label_path(m.components)
        rank = _rank(m)
        while stack:
            top = stack[-1]
            if top.marker.kind == "heading":
                if top.path and _is_prefix(top.path, path):
                    return top
                if top.path and _label_path(_heading_label(top.marker) or []) and _conflicts(top, path, rank):
                    stack.pop()
                    continue
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
        if o.marker.style == m.style:
            same = pos
            break
    if same is not None:
        del stack[same:]
    return stack[-1] if stack else None


def _conflicts(top: _Open, path: list[str], rank: int) -> bool:
    """A numbered heading is closed by a label that is neither inside it nor a lower-rank item."""
    if _is_prefix(top.path, path):
        return False
    top_rank = _rank(top.marker) if top.marker.components else 9
    return rank <= top_rank and top_rank != 9 or (top_rank == 9 and rank == 9 and bool(top.path) and
                                                  not top.path[-1].startswith("("))


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
        return path, _id_from_path(path)
    return [], _slug(m.title)


def _make_unique(sections: list[Section]) -> dict[int, str]:
    """Make ids unique: repeats under a container (``Section 1`` of every Article, an
    appendix restarting at ``1.1``) are qualified by it (``article-ii/1``); the main-body
    occurrence keeps the bare id; anything still repeated gets a ``-2``, ``-3`` suffix."""
    by_id: dict[str, list[int]] = {}
    for pos, s in enumerate(sections):
        by_id.setdefault(s.section_id, []).append(pos)
    for sid, group in by_id.items():
        if len(group) < 2:
            continue
        containers = [_container_of(pos, sections) for pos in group]
        bare_kept = False
        for pos, container in zip(group, containers):
            if container is None and not bare_kept:
                bare_kept = True
            elif container is not None:
                sections[pos].section_id = f"{container}/{sid}"
            elif sections[pos].parent_id:
                sections[pos].section_id = f"{sections[pos].parent_id}/{sid}"
    seen: set[str] = set()
    counts: dict[str, int] = {}
    suffixed: dict[int, str] = {}  # id(section) → its id before the "-N" suffix
    for s in sections:
        base = s.section_id
        if base in seen:
            counts[base] = counts.get(base, 1) + 1
            s.section_id = f"{base}-{counts[base]}"
            suffixed[id(s)] = base
        seen.add(s.section_id)
    return suffixed


def _container_of(pos: int, sections: list[Section]) -> str | None:
    """The nearest ancestor whose id names a container (``article-ii``, ``appendix-1``)."""
    level = sections[pos].level
    for x in reversed(sections[:pos]):
        if x.level < level:
            if x.number and re.match(r"^[a-z]+-[0-9a-z]+$", x.section_id):
                return x.section_id
            level = x.level
            if level == 1:
                break
    return None


def _fill_aliases_and_chains(sections: list[Section], suffixed: dict[int, str]) -> None:
    """Parent ids (after renaming), parent chains and raw citation aliases."""
    stack: list[Section] = []
    for s in sections:
        while stack and stack[-1].level >= s.level:
            stack.pop()
        parent = stack[-1] if stack else None
        s.parent_id = parent.section_id if parent else None
        s.parent_chain = (parent.parent_chain if parent else []) + [_chain_title(s.title)]
        s.aliases = _aliases(s, parent, suffixed.get(id(s)))
        stack.append(s)


def _chain_title(title: str) -> str:
    """A title as shown in a location line: at most ~10 words ("Article 89 Safeguards and
    derogations relating to processing for archiving purposes …")."""
    words = title.split()
    return title if len(words) <= 12 else _first_words(words, 10)


def _aliases(s: Section, parent: Section | None, undeduped: str | None = None) -> list[str]:
    """The raw ways a reader could cite ``s`` (for the exact index, normalised elsewhere)."""
    if not s.number:
        return []
    # A repeat's "-2" suffix only makes the id unique; nobody cites it that way.
    sid = (undeduped or s.section_id).split("/")[-1]
    m = re.match(r"^([a-z]+)-([0-9a-z]+)(.*)$", sid)
    out: list[str] = []
    if m:
        kw, num, tail = m.groups()
        num = num.upper() if re.fullmatch(r"[ivxlc]+|[a-z]", num) else num
        name = kw.capitalize()
        out += [f"{name} {num}{tail}"]
        if kw == "article":
            out.append(f"Art. {num}{tail}")
        if kw == "appendix":
            out.append(f"App. {num}{tail}")
    elif s.number and s.number.startswith("(") and parent is not None and parent.aliases:
        out += [a + s.number for a in parent.aliases if not a.endswith(")") or "(" in a]
    else:
        out += [f"Section {sid}", f"Sec. {sid}", f"§ {sid}", sid]
        written_kw = re.match(r"^([A-Za-z]+)\.?\s", s.number or "")
        if written_kw and written_kw.group(1).lower() not in _BARE_ALIAS_KEYWORDS:
            out.insert(0, f"{written_kw.group(1).capitalize()} {sid}")
    if "/" in s.section_id and parent is not None:
        container = s.section_id.split("/")[0]
        cm = re.match(r"^([a-z]+)-([0-9a-z]+)$", container)
        if cm:
            cname = f"{cm.group(1).capitalize()} {cm.group(2).upper() if re.fullmatch(r'[ivxlc]+', cm.group(2)) else cm.group(2)}"
            out = [f"{cname}, {a}" for a in out[:2]] + out
    if s.number and s.number not in out and not re.fullmatch(r"\(?\w{1,4}[.)]", s.number):
        out.append(s.number.rstrip("."))
    return list(dict.fromkeys(a for a in out if a))
