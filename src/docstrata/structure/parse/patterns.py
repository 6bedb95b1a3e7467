"""The label grammar of :mod:`docstrata.structure.parse`: the keyword table (id prefix and container
rank per keyword), the line and label regular expressions, the word lists that tell prose from
titles, and the ``_Marker`` / ``_Open`` records passed between the parse steps."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..grammar import (
    CLAUSE_CLOSE,
    CLAUSE_NUMBER,
    CODE_NUMBER,
    SLASH_NUMBER,
    ORDINAL_ONE,
    ROMAN_PATTERN,
    SUFFIX_WORDS,
    LabelKeywords,
    canonical_label,
    finite_verbs,
    label_keyword_pattern,
)

# Keyword labels: the written keyword → (id prefix or "" for bare numbers, container rank), read from
# the citation grammar (structure/grammar.py and its language packs; docs/grammar.md). Rank orders
# containers: a lower rank encloses a higher one (Title > Part > Chapter > …). "recital" is read
# only by :mod:`.recitals` (never scanned as a label).
_KEYWORDS: LabelKeywords = LabelKeywords()  # read in the document's language (grammar.document_language)
_BARE_ALIAS_KEYWORDS = {form for form in _KEYWORDS if canonical_label(form) == "section"}  # section, sec, sect, §

_KW_RE = label_keyword_pattern()
# a number with a letter suffix: 12A, 19B, 314AAA, Part XXA; US Code style lower-case single letters: 106a, 112b
# after a keyword, also a French code's article number ("Article L. 111-1", "Article R*512-9-3"), a hyphenated
# one ("Article 16-14" of the Code civil), a slash-inserted one ("Art. 24/1", grammar.SLASH_NUMBER) and the ordinal of a first container ("LIVRE Ier", "Chapitre 1er")
_SUFFIXES = "|".join(SUFFIX_WORDS)
_NUM = (
    rf"(?:{CODE_NUMBER}|{SLASH_NUMBER}|\d{{1,5}}(?:-\d{{1,4}}){{1,4}}(?![\w-])|(?i:{ORDINAL_ONE})(?![\w-])|"
    + rf"\d{{1,5}}(?!\d)(?:[A-Z]{{1,3}}|(?:{_SUFFIXES})+(?![a-z])|[a-z](?![a-z]))?"
    + rf"|{ROMAN_PATTERN}(?:(?:{_SUFFIXES})+(?![a-z])|[A-Z](?![A-Za-z]))?|[A-Z](?![a-z]))"
)  # "Art. 3bis", "Article 107quinquies", "Art. 107terbis", "Titre Ibis", "Chapitre IIbis": a Latin
# suffix (or a run of them: inserted after 107ter) numbers an inserted provision or division
# an item number, with the ".1" of a provision inserted after it ("(c.1)", "(2.1)", "(b.01)": Canadian
# consolidations number inserted paragraphs and subsections so, between "(c)" and "(d)")
_ITEM_INNER = r"(?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})(?:\.\d{1,2})?"
_PAREN = rf"\({_ITEM_INNER}\)"
# A compound label: keyword components and bare components joined by dots. A keyword and its number
# may stand a few spaces apart on a line of their own ("Part  II": justified PDF text widens every gap
# of a line); in running text ("Section  3 provides …") they stay words.
_KW_ANON = _KW_RE.replace("(?P<kw>", "(?:")
_COMPONENT = rf"(?:{_KW_ANON}(?:\s?|[ \t]{{2,3}}(?={_NUM}\.?[ \t]*$)){_NUM}|\d{{1,3}}(?:[A-Z]{{1,3}}|[a-z](?![a-z]))?|[A-Z]\d{{1,3}}[A-Z]?|(?<=\d\.)[A-Z](?=\.\d))"
# "2.1)", "4.1.2)": a dotted clause number closed by a bracket, as agreements numbering their clauses
# "1)", "2)" number their sub-clauses (a bare "1)" is a list item's form, read as one)
_DOTTED_CLOSE = r"(?:(?<=\.\d)|(?<=\.\d\d)|(?<=\.\d\d\d))\)"


def _label_pattern(close: str) -> re.Pattern:
    """A compound label whose number may be closed by ``close`` (group ``close``), its separator and the rest."""
    return re.compile(
        rf"(?P<label>{_COMPONENT}(?:\.\s?{_COMPONENT})*(?:\.?{_PAREN})*(?P<close>{close})?)"
        rf"(?P<sep>\t+|\s{{2,}}|\s|$|(?=[A-Z]{{2}})|(?=[—–]|--)|(?<=\d)(?=[A-ZÄÖÜ][a-zäöüß]{{2}}))(?P<rest>.*)$"
    )


_LABEL_RE = _label_pattern(rf"\.|{_DOTTED_CLOSE}")
# a clause of a series whose numbers close with a bracket (scan._clause_items: "1) Background." …
# "3) Grant."): its number closes with either of the grammar's clause marks, "3)" being clause 3 as "3." is
_CLAUSE_LABEL_RE = _label_pattern(CLAUSE_CLOSE)
# a heading numbered as a clause whose number a bracket closes or a colon sets off from its title ("1) Background",
# "1: Scope", "2.1) Scope"), a title's word after it; a heading states no list item, so "1)" is clause 1 as "1."
# is. Read where the label grammar above reads none (a bare number's bracket closes a clause only in a series)
_HEADING_CLAUSE_RE = re.compile(rf"^(?P<label>{CLAUSE_NUMBER}(?:{CLAUSE_CLOSE}|:))(?P<sep>\s+)(?P<rest>[^\W\d_].*)$")
# "D.3.  0-RTT Backward Compatibility": a title may open with a digit after a wide gap (tab, 2+ spaces);
# 'A.1.  "client_id" Syntax' (RFC 6749): or with a quoted name, also after a wide gap only
_FIRST_ROMAN_OR_LETTER_RE = re.compile(
    rf"^(?P<label>(?:{ROMAN_PATTERN}|[A-Z])\.(?:\d{{1,3}}\.?)*)(?P<sep>\t+|\s{{2,}}|\s)"
    r"(?P<rest>(?:[A-Z]|(?:(?<=\s\s)|(?<=\t))(?:\d(?=[\w-]*[A-Za-z])|[\"“‘'][\w-]+[\"”’']\s)).*)$"
)
_ITEM_RE = re.compile(rf"^(?P<label>\({_ITEM_INNER}\))(?P<sep>\t+|\s+|$)(?P<rest>.*)$")
# "c.1) …": an inserted provision closed by its bracket alone (Canadian French consolidations)
_MD_ITEM_RE = re.compile(
    r"^(?P<marker>\d{1,3}|[a-z]|[A-Z]|[ivx]{1,5}|[a-z]{1,2}\.\d{1,2}(?=\)))(?P<delim>[.)])(?P<sep>[ \t]+)(?P<rest>\S.*)$"
)
_ATX_RE = re.compile(r"^ {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<text>.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_RE = re.compile(r"^ {0,3}(?P<ch>=+|-+)[ \t]*$")
_FENCE_RE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")  # indented too: fences inside admonitions
# a contents line's dot leader (dots or ellipsis characters "……") and page label: "2", "iii", "E-1" /
# "A.3" / "A.1-5" (an appendix's own page numbering)
_TOC_RE = re.compile(
    r"(?:[.…]\s?){4,}\s*(?:\d*|[ivxlc]{1,6}|[A-Z]{1,2}[-.]\d{1,3}(?:[-.]\d{1,3})?)\s*$|\.{3,}\s*\d+\s*$", re.I
)
_TAG_RE = re.compile(r"<[^>]+>")
_LINK_RE = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# emphasis marks; an underscore inside a word ("client_id") is part of it, and so is the star of a French
# code's article number ("R*512-9-3": a décret en Conseil d'État), a capital before it and a digit after
_EMPH_RE = re.compile(r"(?<![LRDA])[*`]+|[*`]+(?!\*?\s?\d)|(?<!\w)_+|_+(?!\w)")
# "Access and Use. Customer may …", "In general.—The Secretary shall …": a leading phrase.
_LEAD_PHRASE_RE = re.compile(r"^(?!(?:e\.g|i\.e|Mr|Ms|Mrs|Dr|No|Nos|Art|Sec|St)\.)(.{2,80}?[.:])(?=\s|[—–]|--)")
# Words that make a line a sentence: modal and auxiliary verbs and the verbs of rule text.
_FINITE_VERBS = (
    frozenset(
        "shall must may will should would can cannot could might is are was were has have had does do did "
        "means mean includes include applies apply constitutes refers requires survive survives agrees warrants represents "
        "acknowledges governs prevails remains continues".split()
    )
    | finite_verbs()
)  # and the other languages' (grammar packs: French "est", "sont", "peut" …)
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
    flat: bool = False  # a top-level section closed by the next marker: a plain-text "Table of Contents"
    # line, a memo's unnumbered margin heading ("Abstract", "Authors' Addresses")
    markup_numbers: bool = False  # a heading whose label the source markup wrote (ParseContext.heading_levels):
    # "PART 2.1" is one container number there (labels._components, ``joined``)
    title_stated: bool = False  # a stated heading whose title (or lack of one) the source states: the line
    # below it is never read as its title (an untitled slide's one line of text is the slide's text)


@dataclass
class _Open:
    """An open section on the nesting stack."""

    index: int  # position in the output list
    marker: _Marker | None
    path: list[str]
    rank: int  # container rank for keyword labels; 9 for numbered; -1 for markdown headings
