"""Reading labels and titles for :mod:`docstrata.structure.parse`: plain heading text, the title
after a label (heading or prose), item styles, compound label components and their normalised
path, and numbering arithmetic (does ``1.2`` continue ``1.1``?)."""

from __future__ import annotations

import functools
import re

from ..definitions import leading_defined_term
from ..grammar import (
    ROMAN_PATTERN,
    canonical_number,
    code_number,
    inserted_base,
    is_date,
    roman_to_int,
    suffix_letters,
)
from .patterns import (
    _COMPONENT,
    _EMPH_RE,
    _FINITE_VERBS,
    _FIRST_ROMAN_OR_LETTER_RE,
    _FUNCTION_WORDS,
    _HEADING_CLAUSE_RE,
    _ITEM_RE,
    _KEYWORDS,
    _KW_ANON,
    _KW_RE,
    _LABEL_RE,
    _LEAD_PHRASE_RE,
    _LINK_RE,
    _NUM,
    _PAREN,
    _TAG_RE,
    _Marker,
)


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
    if len(words) <= 12 and len(text) <= 100 and not re.search(r"[;,]$", text) and not _reads_as_sentence(text, words):
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
    if any(w in _FINITE_VERBS for w in re.findall(r"[a-zà-ÿ]+(?:['’][a-zà-ÿ]+)?", text)):
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
    """The ordinal of a roman item label (``iv`` → 4), 0 when it is none (:func:`.grammar.roman_to_int`)."""
    return roman_to_int(s) or 0


def _item_style(inner: str) -> list[tuple[str, int]]:
    """Possible (style, ordinal) readings of an item label's inner text, most likely first. An
    inserted provision (``c.1``, ``2.1``, ``ba``) reads as its base (``c``, ``2``, ``b``): the same
    style and ordinal (:func:`.grammar.inserted_base`)."""
    base = inserted_base(inner)
    if base is not None:
        return _item_style(base)
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
    # a doubled letter is a level of its own (US drafting: subclause (I) > item (aa) > subitem (AA)),
    # or the letters after (z) of one list ((y), (z), (aa)): both readings, the list's context decides
    if re.fullmatch(r"([a-z])\1+", inner):
        readings += [("lower-double", ord(inner[0]) - 96), ("lower", 26 * (len(inner) - 1) + ord(inner[0]) - 96)]
    if re.fullmatch(r"([A-Z])\1+", inner):
        readings += [("upper-double", ord(inner[0]) - 64), ("upper", 26 * (len(inner) - 1) + ord(inner[0]) - 64)]
    return readings


def _components(label: str, joined: bool = False) -> list[tuple[str, str, str]] | None:
    """Split a compound label into (kind, value, written) parts; ``None`` if not a label.

    kind is ``kw:<prefix>`` for keyword parts, ``num`` for bare numbers, ``paren`` for (a).
    ``joined``: the label is the source markup's (``ParseContext.heading_levels``), so a container
    keyword's dotted number is one number (``DIVISION 1.1``), not a container and a section.
    """
    parts: list[tuple[str, str, str]] = []
    body, parens = re.match(rf"^(.*?)((?:\.?{_PAREN})*)\.?$", label).groups()
    lead = re.match(rf"^({ROMAN_PATTERN}|[A-Z])\.(?=\d|$)", body)
    if lead:  # "A.2", "IV." — a letter or roman first part
        parts.append(("num", lead.group(1), lead.group(1)))
        body = body[lead.end() :]
    elif re.fullmatch(rf"{ROMAN_PATTERN}|[A-Z]", body):  # "M." of "M. RECORD RETENTION"
        return [("num", body, body)]
    for piece in re.findall(rf"{_COMPONENT}", body):
        m = re.match(rf"^{_KW_RE}\s{{0,3}}({_NUM})$", piece)  # "Schedule\xa0A": a no-break space too
        if m:
            kw = m.group("kw").rstrip(".").lower()
            kw = "§" if kw.startswith("§") else kw
            prefix, _ = _KEYWORDS[kw]
            parts.append((f"kw:{prefix}:{kw}", m.group(m.lastindex), piece))
        else:
            if re.fullmatch(r"[A-Z]", piece):  # the letter of "4.A.1"
                parts.append(("num", piece, piece))
                continue
            if re.search(r"\d{4}", piece) or int(re.match(r"\D*(\d+)", piece).group(1)) > 999:
                return None
            parts.append(("num", piece, piece))
    if (
        len(parts) >= 2
        and not parens
        and parts[0][0].split(":")[1:2] != [""]
        and parts[0][0].startswith("kw:")
        and all(k == "num" and v.isdigit() for k, v, _ in parts[1:])
        and joined
    ):
        # "DIVISION 1.1", "PART 2.1" of legislation XML (the label is the markup's <Label>/<num>: an
        # inserted container of a Canadian or Australian act): one number of the container, not
        # Division 1's section 1. In text and PDF "PART 5.12.3.1" is rule 12.3.1 of Part 5 (ADGM).
        kind, value, written = parts[0]
        extra = ".".join(v for _, v, _ in parts[1:])
        parts = [(kind, f"{value}.{extra}", f"{written}.{extra}")]
    for p in re.findall(_PAREN, parens or ""):
        parts.append(("paren", p, p))
    return parts or None


_SUFFIXED_RE = re.compile(r"(\d{1,3})([A-Za-z]{3,})")  # keyword labels arrive upper-cased ("24QUATER")
_LETTERED_RE = re.compile(r"(\d{1,3})([A-Z]{0,3}|[a-z])")


@functools.lru_cache(maxsize=8192)  # the resolver's numbering DP asks for the same parts again and again
def _ordinal(part: str) -> tuple[int, str] | None:
    """``'12'`` → (12, ''), ``'9B'`` → (9, 'B'), ``'A'`` → (1, ''); a Latin suffix counts as the
    letter of its place (``'24bis'`` → (24, 'A'), ``'24quater'`` → (24, 'C'), ``'107terbis'`` →
    (107, 'BA'): inserted after 107ter), so 24ter → 24quater continues; ``None`` for other parts."""
    m = _SUFFIXED_RE.fullmatch(part)
    if m and (letters := suffix_letters(m.group(2))) is not None:
        return int(m.group(1)), letters
    m = _LETTERED_RE.fullmatch(part)
    if m:
        return int(m.group(1)), m.group(2).upper()
    return (ord(part) - 64, "") if len(part) == 1 and "A" <= part <= "Z" else None


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
    before = _ordinal(prev[len(cur) - 1])
    if before is None:  # "I" or "1er" before "2": no ordinal to continue from
        return False
    (pn, ps), (cn, cs) = before, cur_ord[-1]
    return (1 <= cn - pn <= 3 and not cs) or (cn == pn and cs > ps)


def _label_path(comps: list[tuple[str, str, str]]) -> list[str]:
    """Normalised path parts: ``article-17``, ``4``, ``2``, ``(a)``."""
    path: list[str] = []
    for kind, value, _ in comps:
        if kind.startswith("kw:"):
            prefix = kind.split(":")[1]
            if code := code_number(value):
                path.append(code)  # "Article L. 111-1" → L111-1: a code's article numbers are unique in it
            elif prefix and not value:
                path.append(prefix)  # "SCHEDULE", the only one: schedule
            elif prefix:
                value = canonical_number(value)  # "LIVRE Ier" → livre-i
                path.append(f"{prefix}-{value.lower()}")
            else:
                path.extend(value.split("."))
        elif kind == "paren":
            path.append(value)
        else:
            path.append(value)
    return path


def _stands_alone(label: re.Match) -> bool:
    """A keyword label inside a heading ("1. Article I", "1. Article I. Purpose") names the
    section only when it stands apart from the words after it; in "D. CHAPTER 11 CASES
    CONVERTED FROM CHAPTER 7" the keyword is a word of the title."""
    rest = label.group("rest").strip()
    return (
        not rest
        or label.group("label").endswith(".")
        or label.group("sep").startswith("\t")
        or len(label.group("sep")) >= 2
        or rest[:1] in "-–—:"
    )


# A keyword label followed by a colon in a heading: "Chapter 1: Introduction", "Appendix A: References".
_KEYWORD_COLON_RE = re.compile(rf"^({_KW_ANON}\s?{_NUM}):(?=\s+\S)")


def _heading_label(m: _Marker) -> list[tuple[str, str, str]] | None:
    """Numbering written inside a Markdown heading ("Article 4", "4.2.1 Title"), as components."""
    if m.kind != "heading":
        return m.components or None
    if m.components:
        return m.components
    if is_date(_plain(m.title)):
        return None  # "## 24 November 2019" on a specification's front page: a date, not section 24
    text = _KEYWORD_COLON_RE.sub(r"\1", m.title)  # "Chapter 1: Introduction" as "Chapter 1 Introduction"
    # "4.6. 0-RTT", "D.3. 0-RTT Backward Compatibility", "4. 37SIGNALS PERSONNEL", "2.3 37signals's
    # Processing": a title opening with a word that starts with a figure (after a bare number, its dot)
    dm = re.match(r"((?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3})+|(?:[A-Z]\.)?\d{1,3}(?=\.))\.?\s+\d+-?[^\W\d_]", text)
    if dm and (comps := _components(dm.group(1), m.markup_numbers)):
        m.components = comps
        return comps
    # "1) Background", "1: Scope": a clause number a bracket closes (grammar.CLAUSE_CLOSE) or a colon sets off
    lm = _LABEL_RE.match(text) or _HEADING_CLAUSE_RE.match(text) or _FIRST_ROMAN_OR_LETTER_RE.match(text)
    if lm:
        comps = _components(lm.group("label"), m.markup_numbers)
        rest = lm.group("rest").strip()
        inner = _LABEL_RE.match(rest) if rest else None
        inner_comps = _components(inner.group("label"), m.markup_numbers) if inner else None
        if (
            inner_comps
            and all(k.startswith("kw:") for k, _, _ in inner_comps)
            and comps
            and all(k == "num" and v.isdigit() for k, v, _ in comps)
            and _stands_alone(inner)
        ):
            comps = inner_comps  # "1. Article I": the keyword label names the section
        keyword = any(k.startswith("kw:") for k, _, _ in comps or [])
        dash = rest[:1] in "—–" or rest.startswith("--")  # "TITLE 1—GENERAL", "PART 1--PRELIMINARY"
        glued = bool(re.match(r"[A-ZÄÖÜ][a-zäöüß]", rest))  # "Abschnitt 1Allgemeine Vorschriften" (PDF text)
        if comps and (lm.group("sep") or not rest or keyword and (dash or glued)) and not rest[:1].isdigit():
            if (
                any(k.startswith("kw:") for k, _, _ in comps)
                or "." in lm.group("label")
                or not rest
                or rest[:1].isupper()
                or re.match(r"[-–—]\s+[A-Z]", rest)
            ):  # "# 3 - Requirements"
                m.components = comps
                return comps
    im = _ITEM_RE.match(text)
    if im and _item_style(im.group("label")[1:-1]):
        m.components = [("paren", im.group("label"), im.group("label"))]
        return m.components
    return None
