"""The citation grammar: the one place that says how documents number and cite their parts.

Everything that reads a citation word, a numbering scheme or a contents-page title reads it here:
the structure parser (label keywords and their container ranks), cross-references, the exact
index and query analysis (citation kinds and keys), get-section, definition scopes and the
converters (contents titles, roman numerals). The vocabulary itself is data, one language pack per
language in :mod:`.grammar_packs` (English, German, French); ``docs/grammar.md`` says what a pack
holds and how to add one.

What the grammar holds:

* **keywords** (:class:`Keyword`): each written form (``Section``, ``s``, ``§§``, ``Art.``,
  ``Artikel``, ``Teil``, ``Chapitre`` …) with its canonical kind (``article``: ``Art. 17`` and
  ``Artikel 17`` are one citation), the section-id prefix the parser gives a unit so numbered
  (``artikel-17``; ``""`` for a plain section number), its container rank and its roles;
* **numbering**: one roman numeral parser (:func:`roman_to_int`, :func:`int_to_roman`), number
  shapes (arabic, roman, letters, dotted ``4.2.1``, letter suffixes ``10A`` / ``49AAA``, Latin
  suffixes ``5bis`` / ``12 ter``) and bracketed pinpoints ``(1)(a)(ii)``;
* **pinpoint words** that name a sub-item (``§ 7 Abs. 3`` is ``§ 7(3)``, ``Artikel 5 Absatz 1`` is
  ``Artikel 5(1)``, ``article 5, alinéa 2`` is ``article 5(2)``): :func:`fold_pinpoints`;
* **citation forms**: one unit or a chain of containers (``Part V Division 1AA``, ``Section 3 of
  Article II``), lists and ranges (``ss 10–12``, ``§§ 3, 4``, ``Articles 8, 11, 25 to 39 and 42``):
  :func:`parse_citation`, :func:`expand`, :func:`citation_key`;
* **contents titles** (``Contents``, ``Arrangement of Sections``, ``Inhaltsübersicht``,
  ``Table des matières`` …): :func:`is_contents_title`.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
from dataclasses import dataclass, field, replace
from collections.abc import Iterator, Mapping
from typing import Iterable

from .grammar_packs import PACKS

__all__ = [
    "document_language",
    "current_language",
    "language_pack",
    "provision_words",
    "definition_forms",
    "Keyword",
    "Unit",
    "Citation",
    "keyword",
    "keywords",
    "label_keywords",
    "label_keyword_pattern",
    "LabelKeywords",
    "citation_kinds",
    "transparent_kinds",
    "back_matter_prefixes",
    "container_prefixes",
    "relative_words",
    "citation_keyword_pattern",
    "xref_keyword_pattern",
    "fold_pinpoints",
    "glued_item",
    "fold_glued_items",
    "pinpoint_spans",
    "pinpoint_tail",
    "canonical_label",
    "roman_to_int",
    "int_to_roman",
    "is_roman",
    "split_number",
    "code_number",
    "ordinal_number",
    "canonical_number",
    "SLASH_NUMBER",
    "unnumbered_container",
    "back_matter_label",
    "without_amendment_mark",
    "CODE_NUMBER",
    "SECTION_NUMBER",
    "NUMBER",
    "inserted_base",
    "match_citation",
    "parse_citation",
    "expand",
    "citation_key",
    "is_contents_title",
    "contents_title_pattern",
    "SUFFIX_WORDS",
    "range_words",
    "list_words",
    "strip_determiner",
    "opens_with_pinpoint",
    "suffix_letters",
    "chain_words",
    "external_document",
    "external_document_before",
    "pinpoints_end",
    "item_words",
    "version_or_address",
    "version_words",
    "citing_forms",
    "names_instrument",
    "instrument_names",
    "instrument_name_re",
    "instrument_kinds",
    "document_words",
    "ItemsOf",
    "items_of",
    "fold_items_of",
    "CODE_SECTION",
    "parent_document_re",
    "amendment_re",
    "self_parent_re",
    "self_words",
    "drafting_note_re",
]

# Latin ordinals of an inserted provision ("Article 5bis", "12 ter"), in every language
SUFFIX_WORDS = ("bis", "ter", "quater", "quinquies", "sexies", "septies", "octies", "novies", "decies")
NUMBERED = 9  # the rank of a numbered unit that holds no container


_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("docstrata_document_language", default="")


@contextlib.contextmanager
def document_language(language: str | None):
    """Read the grammar as a document in ``language`` (ISO 639-1, ``"fr"``; ``""``/``None``: no
    language, the packs in their default order) does, inside the ``with`` block: that language's
    pack is read first, so a form it spells means what it means there (French ``Section`` is a group
    of articles, a container ranked under ``Chapitre``; English ``Section`` is the numbered
    provision). The parser, definitions, cross-references and the exact index run inside it."""
    token = _LANGUAGE.set((language or "").lower()[:2])
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def _per_language(fn):
    """Cache ``fn`` once per document language (:func:`current_language`) and arguments."""
    cached = functools.lru_cache(maxsize=32)(lambda lang, *args: fn(*args))

    @functools.wraps(fn)
    def wrapper(*args):
        return cached(current_language(), *args)

    wrapper.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    return wrapper


def current_language() -> str:
    """The language set by the innermost :func:`document_language` block, ``""`` outside one."""
    return _LANGUAGE.get()


def _packs(lang: str) -> tuple[dict, ...]:
    """The packs in reading order for a document in ``lang``: its own pack first, then the rest."""
    own = [p for p in PACKS if p["lang"] == lang]
    return (*own, *(p for p in PACKS if p["lang"] != lang))


def language_pack(lang: str | None = None) -> dict | None:
    """The pack of ``lang`` (default: :func:`current_language`), or ``None`` when none is written."""
    lang = current_language() if lang is None else lang
    return next((p for p in PACKS if p["lang"] == lang), None)


def provision_words() -> tuple[str, ...]:
    """The words the current document's language cites a plain-numbered provision by, besides the
    English ``Section``/``Sec.``/``§`` (French ``Article``/``Art.``: ``l'article 7(3)`` of a Canadian
    act in French is its section 7(3)); ``()`` outside a language block or for a language with none."""
    pack = language_pack()
    return tuple(pack.get("provision_words", ())) if pack else ()


def item_words() -> frozenset[str]:
    """The words the current document's language writes, after an article's number and a comma, for
    one of its paragraphs (French/Belgian ``§``: ``l'article 4, § 2`` is article 4's ``(2)``), besides
    the relative keywords of every pack (``paragraph``, ``alinéa``); empty outside a language block."""
    pack = language_pack()
    return frozenset(pack.get("item_words", ())) if pack else frozenset()


def finite_verbs() -> frozenset[str]:
    """Every pack's ``finite_verbs`` (lower case), merged: the verbs whose presence makes a line
    ending like a sentence prose rather than a heading's title, in the languages besides English
    whose verbs :mod:`.parse.patterns` lists (``est``, ``sont``, ``peut`` …)."""
    return frozenset(v.lower() for pack in PACKS for v in pack.get("finite_verbs", ()))


def definition_forms() -> dict[str, tuple[str, ...]]:
    """Every pack's definition forms (:mod:`.grammar_packs.fr`), merged: ``verbs`` (after a quoted
    term: ``s'entend de``, ``désigne``), ``lead_ins`` (before one: ``on entend par``) and
    ``entry_quotes`` (an opening and closing quote pair whose quoted term opening a line of a
    definitions section is followed by its meaning, no verb between: Justice Canada's French
    ``« renseignement personnel » Tout renseignement …``)."""
    out: dict[str, list[str]] = {"verbs": [], "lead_ins": [], "entry_quotes": []}
    for pack in PACKS:
        for key, values in pack.get("definitions", {}).items():
            out.setdefault(key, []).extend(values)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


@dataclass(frozen=True)
class Keyword:
    """One written form of a citation word.

    ``form``: as written, lower case (``art.``, ``§``, ``s``); ``word``: the row's full word
    (``article``); ``kind``: the canonical meaning exact keys use (``article``); ``prefix``: the
    section-id prefix of a unit so numbered (``artikel``; ``""`` for a plain section number);
    ``rank``: container rank (lower encloses higher; 9 a numbered unit); ``roles``: ``label``,
    ``cite``, ``xref``, ``transparent``, ``relative``, ``back`` (see :mod:`.grammar_packs.en`);
    ``lang``: the pack's language; ``case``: the only spellings that are this keyword (``s`` but
    not ``S``; ``APP`` and ``App`` but not ``app``), or ``()`` for any case."""

    form: str
    word: str
    kind: str
    prefix: str
    rank: float
    roles: frozenset[str]
    lang: str
    case: tuple[str, ...] = ()


def _forms(raw: tuple[str, ...]) -> list[str]:
    """Expand ``+s`` (the plural of each word form) in a pack row's forms."""
    out: list[str] = []
    for f in raw:
        if f == "+s":
            out += [
                w + ("es" if w.endswith(("x", "s")) else "s")
                for w in raw
                if w != "+s" and w[-1:].isalpha() and len(w) > 2
            ]
        else:
            out.append(f)
    return list(dict.fromkeys(out))


def keywords() -> dict[str, Keyword]:
    """Every written form (lower case, dot kept) → its :class:`Keyword`; the first pack that spells
    a form wins (English ``Art.`` is ``article``, German ``Art.`` reads the same), the current
    document's language pack first (:func:`document_language`)."""
    return _keywords(current_language())


@functools.lru_cache(maxsize=8)
def _keywords(lang: str) -> dict[str, Keyword]:
    out: dict[str, Keyword] = {}
    for pack in _packs(lang):
        for raw, kind, prefix, rank, roles in pack["keywords"]:
            forms = _forms(raw)
            for f in forms:
                if f not in out:
                    out[f] = Keyword(
                        f,
                        forms[0],
                        kind,
                        prefix,
                        float(rank),
                        frozenset(roles.split()),
                        pack["lang"],
                        _spellings(pack["case_sensitive"].get(f, ())),
                    )
    return out


def _spellings(case: str | tuple[str, ...]) -> tuple[str, ...]:
    """A pack's case-sensitive entry as a tuple: one spelling (``"APP"``) or several."""
    return (case,) if isinstance(case, str) else tuple(case)


def keyword(written: str) -> Keyword | None:
    """The keyword a written word is (``"Art."``, ``"ARTICLES"``, ``"§§"``, ``"s"``), or ``None``.
    A form with its dot is tried first, then without (``Art`` reads as ``Art.``); a case-sensitive
    form (``s``, ``APP``) only in its own spelling."""
    w = written.strip()
    table = keywords()
    for cand in (w.lower(), w.lower().rstrip("."), w.lower() + "."):
        k = table.get(cand)
        if k is not None and (not k.case or w.rstrip(".") in {c.rstrip(".") for c in k.case}):
            return k
    return None


@_per_language
def label_keywords() -> dict[str, tuple[str, float]]:
    """The structure parser's keyword table: written form (lower case, no dot) → (id prefix, rank),
    for every ``label`` row's word, each pack's extra label forms (``sec``, ``art``, ``§``, ``app``)
    and the recital (read by :mod:`.parse.recitals`)."""
    out: dict[str, tuple[str, float]] = {}
    table = keywords()
    for pack in _packs(current_language()):
        for raw, _, prefix, rank, roles in pack["keywords"]:
            if "label" in roles.split() or raw[0] == "recital":
                out.setdefault(raw[0], (prefix, rank))
        for f in pack.get("label_forms", ()):
            k = table[f]
            out.setdefault("§" if f.startswith("§") else f.rstrip("."), (k.prefix, k.rank))
    return out


class LabelKeywords(Mapping):
    """A live view of :func:`label_keywords` for the current document's language: the parser's
    module-level keyword table, read through :func:`document_language` at each lookup."""

    def __getitem__(self, form: str) -> tuple[str, float]:
        return label_keywords()[form]

    def __iter__(self) -> Iterator[str]:
        return iter(label_keywords())

    def __len__(self) -> int:
        return len(label_keywords())


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


@_per_language
def label_keyword_pattern() -> str:
    """The regex (one named group ``kw``) of a keyword opening a section label: a label row's word
    (any case, whole word), a dotted abbreviation with its dot (``Art.``, ``Sec.``), ``§``/``§§``,
    and a case-sensitive form before a number (``APP 1``)."""
    table = keywords()
    words: list[str] = []
    dotted: list[str] = []
    signs: list[str] = []
    cased: list[str] = []
    for pack in PACKS:
        words += [raw[0] for raw, _, _, _, roles in pack["keywords"] if "label" in roles.split()]
        for f in pack.get("label_forms", ()):
            k = table[f]
            if k.case:
                cased.extend(k.case)
            elif f.startswith("§"):
                signs.append(f)
            elif f.endswith("."):
                dotted.append(f[:-1])
            else:
                words.append(f)
    parts = [rf"(?i:{_alternation(words)})\b", rf"(?i:{_alternation(dotted)})\."]
    if signs:
        parts.append("§{1,2}")
    parts += [rf"{re.escape(c)}(?=\s?\d)" for c in sorted(set(cased))]
    return "(?P<kw>" + "|".join(parts) + ")"


@_per_language
def citation_kinds() -> dict[str, str]:
    """Written citation word (lower case, with and without its dot) → canonical kind, for every
    ``cite`` row (``"art."``/``"art"`` → ``article``, ``"artikel"`` → ``article``, ``"s"`` →
    ``section``)."""
    out: dict[str, str] = {}
    for f, k in keywords().items():
        if "cite" in k.roles:
            out.setdefault(f, k.kind)
            out.setdefault(f.rstrip("."), k.kind)
    return out


@_per_language
def transparent_kinds() -> frozenset[str]:
    """Kinds whose numbers are plain section numbers (``Rule 3.3.31`` names ``3.3.31``)."""
    return frozenset(k.kind for k in keywords().values() if "transparent" in k.roles)


@_per_language
def back_matter_prefixes() -> frozenset[str]:
    """Id prefixes of back-matter containers (``schedule``, ``appendix``, ``annex``, ``anlage`` …)."""
    return frozenset(k.prefix for k in keywords().values() if "back" in k.roles and k.prefix)


@_per_language
def container_prefixes() -> frozenset[str]:
    """Id prefixes of keyword units (``article``, ``part``, ``teil`` …): every row with a prefix."""
    return frozenset(k.prefix for k in keywords().values() if k.prefix)


@_per_language
def relative_words() -> frozenset[str]:
    """Written forms (no dot) that, in running text, name an item of the enclosing section
    (``paragraph (b)``, ``subsection (1)``)."""
    return frozenset(f.rstrip(".") for f, k in keywords().items() if "relative" in k.roles)


def _case_free(forms: list[str]) -> list[str]:
    return [f for f in forms if not keywords()[f].case]


@_per_language
def citation_keyword_pattern() -> str:
    """The regex (non-capturing) of a citation word in a query or an alias, for use with
    ``re.IGNORECASE``: signs (``§``, ``§§``, ``¶``), every ``cite`` form as a whole word with an
    optional dot, and the case-sensitive forms (``s``, ``ss``) in their own case and never after an
    apostrophe (``it's 5``)."""
    table = keywords()
    cite = [f for f, k in table.items() if "cite" in k.roles]
    signs = [f for f in cite if not f[0].isalnum()]
    words = sorted({f.rstrip(".") for f in _case_free([f for f in cite if f[0].isalnum()])})
    cased = sorted({c.rstrip(".") for f in cite if table[f].kind != "appendix" for c in table[f].case})
    alt = [_alternation(signs), rf"\b(?:{_alternation(words)})\b\.?"]
    if cased:
        alt.append(rf"(?<![\w'’])(?-i:{_alternation(cased)})\b\.?")
    return "(?:" + "|".join(alt) + ")"


@_per_language
def xref_keyword_pattern(units: str = "all") -> str:
    """The regex (named group ``kw``) of a cross-reference word in running text, case-sensitive:
    each row's words (singular and plural) capitalised, in capitals and in lower case, and the
    abbreviations each pack lists as read in running text (``Sec.``, ``Art.``, ``para.``, ``App``,
    ``§§``), the case-sensitive ones (``s 59A``, ``ss 10–12``) in their own case and never after an
    apostrophe (``it's 5``). ``units``: ``"all"`` — the ``xref`` rows; ``"inner"`` — units cited
    inside a container (``Article II, Section 3``: the transparent rows); ``"outer"`` — containers
    (``Section 3 of Article II``: every row with an id prefix ranked above a section)."""
    table = keywords()

    def wanted(k: Keyword) -> bool:
        if units == "inner":
            return "transparent" in k.roles and "xref" in k.roles
        if units == "outer":
            return bool(k.prefix) and k.rank < 5
        return "xref" in k.roles

    words: list[str] = []
    for f, k in table.items():
        if wanted(k) and f.isalpha() and len(f) > 3 and not k.case:
            words += [f, f.capitalize(), f.upper()]
    abbrevs: list[str] = []
    cased: list[str] = []
    for pack in PACKS:
        for f in pack.get("xref_forms", ()):
            found = table.get(f)
            if found is None or not wanted(found):
                continue
            if found.case:
                cased.extend(found.case)
            elif f[:1].isalpha():
                abbrevs += [f.capitalize(), f.upper(), f]
            else:
                abbrevs.append(f)
    alt = _alternation(words + abbrevs)
    if cased:
        alt += rf"|(?<!['’])(?:{_alternation(cased)})(?=\s?\d)"
    return "(?P<kw>" + alt + ")"


@functools.lru_cache(maxsize=1)
def _determiner_re() -> re.Pattern:
    words = [w for p in PACKS for w in p.get("determiners", ())]
    alt = "|".join(re.escape(w) + ("" if w[-1] in "'’" else r"\s+") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"^\s*(?:{alt})(?=\S)", re.IGNORECASE)


def strip_determiner(text: str) -> str:
    """``text`` without a leading determiner of any pack that names nothing before a citation word:
    ``l'article 7`` → ``article 7``, ``le sous-alinéa 7(3)c.1)(i)`` → ``sous-alinéa 7(3)c.1)(i)``,
    ``the Section 4.2`` → ``Section 4.2``; other text unchanged."""
    return _determiner_re().sub("", text, count=1)


def range_words() -> tuple[str, ...]:
    """Words joining the two ends of a range, every language (``to``, ``through``, ``bis``, ``à``)."""
    return tuple(dict.fromkeys(w for p in PACKS for w in p["range_words"]))


def chain_words() -> tuple[str, ...]:
    """Words joining two citations read together, every language (German ``in Verbindung mit``,
    ``i. V. m.``): the act named after the second is the first's too."""
    return tuple(dict.fromkeys(w for p in PACKS for w in p.get("chain_words", ())))


def list_words() -> tuple[str, ...]:
    """Words joining the members of a list, every language (``and``, ``or``, ``und``, ``et``)."""
    return tuple(dict.fromkeys(w for p in PACKS for w in p["list_words"]))


def citing_forms() -> dict[str, tuple[str, ...]]:
    """The words of a question asking which provisions cite the one it names, every language (a
    pack's ``citing`` table, see ``grammar_packs/en.py``): ``before`` (``refer to``, ``cites``,
    ``verweisen auf``, ``renvoient``), ``gap``, ``after`` (``referred to``, ``cited``), ``auxiliaries``
    and ``outgoing``; each a tuple of lower-case forms, longest first."""
    out: dict[str, tuple[str, ...]] = {}
    for part in ("before", "gap", "after", "auxiliaries", "outgoing"):
        forms = {w for p in PACKS for w in p.get("citing", {}).get(part, ())}
        out[part] = tuple(sorted(forms, key=lambda w: (-len(w), w)))
    return out


def list_opener_words() -> tuple[str, ...]:
    """Words before a citation keyword whose list follows a colon later in its sentence, every
    language (``the following Sections will survive …: 5.4, 8.4 …``)."""
    return tuple(dict.fromkeys(w for p in PACKS for w in p.get("list_opener_words", ())))


# ---------------------------------------------------------------- numbering


_ROMAN_DIGITS = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_CANONICAL_ROMAN = re.compile(r"m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")


def roman_to_int(text: str, strict: bool = False) -> int | None:
    """The value of a roman numeral (either case): ``"XIV"`` → 14, ``"iv"`` → 4; ``None`` when
    ``text`` is not one. A digit smaller than the next one is subtracted. ``strict`` accepts only
    the canonical spelling (``IIII``, ``IC`` are ``None``); otherwise any run of roman digits whose
    value is between 1 and 3999 reads."""
    s = text.strip().lower()
    if not s or any(c not in _ROMAN_DIGITS for c in s):
        return None
    if strict and not _CANONICAL_ROMAN.fullmatch(s):
        return None
    total = 0
    for i, c in enumerate(s):
        v = _ROMAN_DIGITS[c]
        total += -v if i + 1 < len(s) and _ROMAN_DIGITS[s[i + 1]] > v else v
    return total if 0 < total < 4000 else None


def is_roman(text: str) -> bool:
    """``text`` is a canonical roman numeral (``IV``, ``xii``)."""
    return roman_to_int(text, strict=True) is not None


def is_unit_label(text: str) -> bool:
    """``text`` is a unit's label alone: a citation keyword and its number ("SECTION 1.", "Part II",
    "Article 5a", emphasis markers aside), a code's "Title 9" excepted (a title of a code is a
    document). Such a line is no document's title or name."""
    words = text.strip().strip("*_").split()
    unit = keyword(words[0]) if len(words) == 2 else None
    number = words[1].rstrip(".:") if unit is not None else ""
    return (
        unit is not None
        and unit.kind != "title"
        and bool(number)
        and (number.isdigit() or (number[:-1].isdigit() and number[-1].isalpha()) or is_roman(number))
    )


# letters a lettered list may pass over: Italian drafting letters its lists in the Italian alphabet,
# a) … i) l) … v) z) aa), which has no j, k, w, x or y
LETTERS_PASSED_OVER = frozenset("jkwxy")


def next_letter(prev: int, following: int) -> bool:
    """Whether the letter of ordinal ``following`` (a = 1 … z = 26, either case) is the one after
    ``prev`` in a lettered list: the next letter of the alphabet, or the next after letters an
    alphabet lacks (:data:`LETTERS_PASSED_OVER`: ``l)`` after ``i)``, ``z)`` after ``v)``)."""
    if following <= prev or following > 26:
        return following == prev + 1
    return all(chr(96 + n) in LETTERS_PASSED_OVER for n in range(prev + 1, following))


def int_to_letters(n: int) -> str:
    """Letter numbering as RFC appendices and lettered lists count: 1 → ``A`` … 26 → ``Z``, then
    27 → ``AA``, ``AB`` … (bijective base 26, xml2rfc's scheme); ``""`` for 0."""
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def int_to_roman(n: int, upper: bool = True) -> str:
    """``14`` → ``"XIV"`` (``"xiv"`` when not ``upper``); ``ValueError`` outside 1–3999."""
    if not 0 < n < 4000:
        raise ValueError(f"no roman numeral for {n}: only 1-3999 have one")
    out = ""
    for v, sym in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= v:
            out, n = out + sym, n - v
    return out if upper else out.lower()


_SUFFIX_RE = "|".join(SUFFIX_WORDS)


def _code_prefix_pattern() -> str:
    prefixes = sorted({p for pack in PACKS for p in pack.get("code_number_prefixes", ())}, key=lambda p: (-len(p), p))
    return "|".join(re.escape(p) for p in prefixes)


# a French code's article number (grammar_packs/fr.py): a letter prefix, starred or not, written with a
# dot or a space or glued to a hyphenated number: L111-1, L. 121-4, R* 512-9-3, D. 321-14, LO 111-1.
# Case-sensitive wherever it is used ("l. 12-3" is no such number).
CODE_NUMBER = rf"(?-i:(?:{_code_prefix_pattern()})\*{{0,2}}(?:\.\s?|\s)?\d{{1,5}}(?:-\d{{1,4}}){{1,5}}(?![\w-]))"
_CODE_NUMBER_RE = re.compile(
    rf"(?P<prefix>{_code_prefix_pattern()})(?P<star>\*{{0,2}})(?:\.\s?|\s)?(?P<num>\d{{1,5}}(?:-\d{{1,4}}){{1,5}})"
)
# "Ier", "1er", "Ire", "Ière", "1re", "premier": the ordinal a French container's first number is written with
ORDINAL_ONE = "|".join(
    sorted({re.escape(w) for pack in PACKS for w in pack.get("ordinal_one", ())}, key=lambda w: (-len(w), w))
)


def code_number(text: str) -> str | None:
    """The canonical form of a French code article number (the id the parser gives it), or
    ``None`` when ``text`` is none: ``L. 121-4`` → ``L121-4``, ``R* 512-9-3`` → ``R*512-9-3``,
    ``D321-14`` → ``D321-14``; the prefixes are the packs' ``code_number_prefixes`` (L, LO, R, D,
    A), the number at least two hyphenated parts."""
    m = _CODE_NUMBER_RE.fullmatch(text.strip())
    return f"{m.group('prefix')}{m.group('star')}{m.group('num')}" if m else None


def ordinal_number(text: str) -> str | None:
    """The number an ordinal word writes (any case), or ``None``: ``Ier``/``Ire``/``Ière`` →
    ``I`` (the first of a roman series: ``LIVRE Ier``, ``Chapitre II``), ``1er``/``1re``/``1ère``
    and ``premier``/``première`` → ``1``."""
    t = text.strip().lower()
    if not re.fullmatch(rf"(?:{ORDINAL_ONE})", t):
        return None
    return "I" if t.startswith("i") else "1"


# an article inserted after another by a slash, as Belgian consolidated acts number them ("Art. 24/1",
# "l'article 216/1", "Art. 1675/2" of the Code judiciaire): one article; never a year's instrument number
# ("Regulation 2016/679", "1/2003": the part after the slash has at most three digits)
SLASH_NUMBER = r"(?!(?:19|20)\d\d/)\d{1,4}/\d{1,3}(?![\w/])"
_SLASH_NUMBER_RE = re.compile(r"(\d{1,4})/(\d{1,3})")


def canonical_number(number: str) -> str:
    """A written number as ids and keys write it: a code number canonical (:func:`code_number`), an
    ordinal as its number (:func:`ordinal_number`), a slash-inserted article's number with a hyphen
    (``24/1`` → ``24-1``: one article, as a French code's ``16-14``; the slash is the id's separator of
    an article's ``§`` paragraphs, ``article-24/2``), any other number as written."""
    if "/" in number and (m := _SLASH_NUMBER_RE.fullmatch(number.strip())):
        return f"{m.group(1)}-{m.group(2)}"
    return code_number(number) or ordinal_number(number) or number


@functools.lru_cache(maxsize=1)
def _unnumbered_re() -> re.Pattern:
    words = "|".join(re.escape(w) for p in PACKS for w in p.get("unnumbered_words", ()))
    return re.compile(rf"^(?P<kw>[^\W\d_][\w-]*)\s+(?:{words})(?![\w-])", re.IGNORECASE)


def unnumbered_container(title: str) -> str | None:
    """The label keyword (lower case) of a container a heading names without a number because it
    is the only one of its kind (a pack's ``unnumbered_words``: ``Chapitre unique``, ``Titre
    préliminaire``, ``Section unique : Procédure`` → ``chapitre``, ``titre``, ``section``), or
    ``None``. Such a heading is no numbered section, but it ranks as its keyword does."""
    m = _unnumbered_re().match(title.strip())
    if not m:
        return None
    kw = m.group("kw").lower()
    return kw if kw in label_keywords() and label_keywords()[kw][0] else None


@functools.lru_cache(maxsize=1)
def _back_matter_label_re() -> re.Pattern:
    words = "|".join(re.escape(w) for w in keyword_words("back"))
    ordinals = "|".join(
        sorted({re.escape(w) for p in PACKS for w in p.get("ordinal_words", {})}, key=len, reverse=True)
    )
    determiners = "|".join(
        sorted({re.escape(w) for p in PACKS for w in p.get("determiners", ())}, key=len, reverse=True)
    )
    return re.compile(
        rf"^\*{{0,3}}(?:(?:{determiners})\s+)?(?:(?P<ordinal>{ordinals})\s+)?(?P<kw>{words})"
        r"(?:\s*(?:\[[^\[\]]{1,60}\]|\((?:[^()]|\([^()]{1,6}\)){1,60}\)))?\.?$",
        re.IGNORECASE,
    )


def back_matter_label(line: str) -> tuple[str, str] | None:
    """``(keyword, number)`` of a line that is the label of a back-matter unit (a keyword of the
    ``back`` role: schedule, appendix, annex, exhibit …) printed with no number or with an ordinal
    word for it, or ``None``: ``SCHEDULE``, ``THE SCHEDULE`` (the only one) → ``("schedule", "")``;
    ``FIRST SCHEDULE``, ``The Second Schedule`` → ``("schedule", "1")``, ``("schedule", "2")`` (a
    pack's ``ordinal_words``). A bracketed mention of the provision it serves may follow (``THE FIRST
    SCHEDULE [See section 2]``, ``SCHEDULE (section 8)``), and a footnote's star may precede it
    (``*FIRST SCHEDULE``). The words are in capitals or each capitalised: a lower-case ``schedule``
    is a word of a sentence."""
    text = " ".join(line.split())
    m = _back_matter_label_re().match(text)
    if not m:
        return None
    words = re.findall(r"[^\W\d_]+", text[: m.end("kw")])
    if not all(w.isupper() or w[:1].isupper() for w in words):
        return None
    ordinal = m.group("ordinal")
    number = ""
    if ordinal:
        number = str(next(n for p in PACKS for w, n in p.get("ordinal_words", {}).items() if w == ordinal.lower()))
    return m.group("kw").lower(), number


# an amendment mark before a provision's number: the number of the footnote that records the amendment and
# the bracket that opens the text inserted or substituted ("1[4. Penalty for demanding dowry.—", "9[(2) Nothing
# in …", "2[(3)] Every rule …" of India Code compilations); the bracket closes where the amended text ends
_AMENDMENT_MARK_RE = re.compile(r"^\d{1,3}\[(?=\(?[\dA-Za-z§])")
_CLOSED_LABEL_RE = re.compile(r"^(\(\w{1,4}\)|\d{1,4}[A-Z]{0,3}\.)\]")


def without_amendment_mark(line: str) -> str:
    """``line`` without an amendment mark before the provision's number that opens it: ``1[4. Penalty
    …`` → ``4. Penalty …``, ``9[(2) Nothing …`` → ``(2) Nothing …``, and a bracket that closes right
    after the number (the number alone was amended: ``2[(3)] Every rule …`` → ``(3) Every rule …``).
    A compilation marks inserted and substituted text so (the footnote number, then ``[``); the mark
    hid the number from the parser. Any other line comes back as it is."""
    m = _AMENDMENT_MARK_RE.match(line)
    if not m:
        return line
    rest = line[m.end() :]
    return _CLOSED_LABEL_RE.sub(r"\1", rest, count=1)


# one number as written: 59, 59A, 49AAA, 106a, 4.2.1, A.6, V, XIV, C, 5bis, 12 ter, 107quinquies (a suffix before
# the letters: read case-blind, 'qui' of it is no letter suffix), 107terbis, L. 121-4, Ier, Ibis, IIbis
NUMBER = (
    rf"(?:{CODE_NUMBER}|{SLASH_NUMBER}|(?:{ORDINAL_ONE})(?![\w-])|\d{{1,5}}(?:\s?(?:{_SUFFIX_RE})+\b(?!\s*\d)|(?:[A-Z]{{1,3}}|[a-z](?![a-z]))"
    rf"(?:\s?(?:{_SUFFIX_RE})\b(?!\s*\d))?)?(?:\.\d{{1,4}}[A-Za-z]{{0,3}})*"
    rf"|[A-Z](?:\.\d{{1,4}}[A-Za-z]?)+|[IVXLCDM]{{1,7}}(?:(?:{_SUFFIX_RE})+(?![\w-]))?\b|[ivxlcdm]{{1,7}}\b|[A-Z]\b)"
)
# a section number as a code prints it after its keyword or abbreviation, chapter and section joined by a dot or
# a hyphen: 5, 5A, 1.130 (NRS), 72A.1010 (ORS), 1.04.010 (RCW), 13-1-101 (C.R.S.)
SECTION_NUMBER = r"\d{1,4}[A-Za-z]{0,2}(?:[.-]\d{1,5}[A-Za-z]{0,2}){0,3}"
# bracketed pinpoints: (1), (a), (ba), (ii), (A), (c.1)
PINPOINT = r"\((?:\d{1,3}[a-z]{0,2}|[a-z]{1,4}|[A-Z]{1,3})(?:\.\d{1,2})?\)"
# the mark that closes a numbered clause's number: a full stop ("3.", "2.1.") or a closing bracket ("3)",
# "2.1)": agreements numbering "1) Background." … "2.1) …"), one clause whichever is written. A bare
# number closed by a bracket is a list item's form ("1) …") unless the document numbers its clauses so: the
# structure parser reads it as a clause only in such a series (structure.parse.scan._clause_items) or in a
# heading ("## 1) Background": structure.parse.labels._heading_label).
CLAUSE_CLOSE = r"[.)]"
# a clause's number as agreements and specifications print it: 4, 4.2, 4.2.1 (arabic parts of up to three
# digits joined by dots; the close, CLAUSE_CLOSE, not included)
CLAUSE_NUMBER = r"\d{1,3}(?:\.\d{1,3})*"
# a provision's number as a statute prints it opening the provision's body line ("2. Subject to …", "24A. Where
# …", "287AA. …"): up to four digits, never starting with 0, and up to three capital letters of an inserted
# provision
PROVISION_NUMBER = r"[1-9]\d{0,3}[A-Z]{0,3}"
# a provision's number opening its body line as a statute prints it (group ``num``): the number and its full
# stop, then its text after a space ("2. Subject to …", "13. (1) When …", "24A. Where …"), or a dash that joins
# the number to its first subsection with no space ("1.—(1) A person is guilty …", "12.–(1)", "3.--(1)"): UK
# Acts as enacted set a section that has subsections so, and the Acts printed after their style. The dash is
# no title's ("4. Penalty for demanding dowry.—If …" has its space after the number) and no range ("1.—3.").
PROVISION_OPENS = r"(?P<num>" + PROVISION_NUMBER + r")\.(?:[\s\u00a0]+|(?:[—–]|--)(?=\(\d{1,3}[A-Z]{0,2}\)))"


def split_number(number: str) -> tuple[int, str] | None:
    """``"49AAA"`` → ``(49, "AAA")``, ``"59"`` → ``(59, "")``, ``"5bis"`` → ``(5, "bis")``, a roman
    ``"XIV"`` → ``(14, "")``; ``None`` for a dotted or other number."""
    n = number.strip()
    m = re.fullmatch(rf"(\d{{1,5}})\s?([A-Za-z]{{0,3}}|{_SUFFIX_RE})", n)
    if m:
        return int(m.group(1)), m.group(2)
    r = roman_to_int(n, strict=True)
    return (r, "") if r is not None else None


def suffix_letters(suffix: str) -> str | None:
    """A run of Latin ordinal suffixes as the letters of their places, so inserted provisions
    order as their suffixes count (``"bis"`` → ``"A"``, ``"quater"`` → ``"C"``, ``"terbis"`` →
    ``"BA"``: inserted after *ter*), any case; ``None`` when ``suffix`` is not such a run."""
    words = re.findall(_SUFFIX_RE, suffix.lower())
    if not words or "".join(words) != suffix.lower():
        return None
    return "".join(chr(65 + SUFFIX_WORDS.index(w)) for w in words)


def inserted_base(label: str) -> str | None:
    """The number an inserted provision's item label was inserted after, or ``None``: ``c.1`` →
    ``c``, ``2.1`` → ``2`` (Canadian consolidations), ``ba`` → ``b`` (an Australian paragraph
    inserted between ``(b)`` and ``(c)``). Two equal letters (``aa``: the letters after ``z``, or
    a level of their own) and roman numerals (``iv``, ``xi``) are not insertions."""
    m = re.fullmatch(r"(.+?)\.\d{1,2}", label)
    if m:
        return m.group(1)
    if re.fullmatch(r"[a-z]{2}", label) and label[0] != label[1] and roman_to_int(label, strict=True) is None:
        return label[0]
    return None


# ---------------------------------------------------------------- pinpoint words


@_per_language
def _pinpoint_words() -> dict[str, str]:
    out: dict[str, str] = {}
    for pack in PACKS:
        for forms, what in pack["pinpoints"]:
            for f in forms:
                out.setdefault(f, what)
    return out


@_per_language
def _pinpoint_re() -> re.Pattern:
    words = _alternation(list(_pinpoint_words()))
    one = rf"(?:,\s*|\s+)(?:{words})(?![\w])\s*\(?(?:\d{{1,3}}[a-z]?|[a-z]{{1,3}})\)?(?![\w])"
    after_number = r"(?:(?<=[\d)])|(?<=\d[A-Za-z])|(?<=\d[A-Za-z]{2}))"  # "§ 7", "59A", "(1)": never after a word
    return re.compile(rf"{after_number}(?P<tail>(?:{one})+)", re.IGNORECASE)


@_per_language
def _pinpoint_one_re() -> re.Pattern:
    words = _alternation(list(_pinpoint_words()))
    return re.compile(rf"(?P<word>{words})(?![\w])\s*\(?(?P<num>\d{{1,3}}[a-z]?|[a-z]{{1,3}})\)?", re.IGNORECASE)


_GLUED_ITEM_RE = re.compile(r"(\d{1,3})([a-z])")


def glued_item(kind: str | None, number: str) -> tuple[str, str] | None:
    """``(number, item)`` when a unit of ``kind`` (a keyword's canonical kind) is cited with its
    item's letter glued to its number and the language packs say that kind is so cited
    (``glued_items``): ``Subsection 2d`` → ``("2", "d")``, item (d) of section 2, as the GNU
    licences cite their lettered items; ``None`` otherwise (``section 106a`` is section 106a)."""
    if not kind or kind not in {k for pack in PACKS for k in pack.get("glued_items", ())}:
        return None
    m = _GLUED_ITEM_RE.fullmatch(number.strip())
    return (m.group(1), m.group(2)) if m else None


@_per_language
def _glued_item_re() -> re.Pattern | None:
    kinds = {k for pack in PACKS for k in pack.get("glued_items", ())}
    forms = sorted((f for f, k in keywords().items() if k.kind in kinds), key=len, reverse=True)
    if not forms:
        return None
    words = "|".join(re.escape(f) for f in forms)
    return re.compile(rf"(?<![\w])({words})(\s+)(\d{{1,3}})((?-i:[a-z]))(?![\w(])", re.IGNORECASE)


def fold_glued_items(text: str) -> str:
    """``text`` with each glued item citation (:func:`glued_item`) written as its bracket:
    ``Subsection 6a`` → ``Subsection 6(a)``, the form section ids and exact keys use."""
    pattern = _glued_item_re()
    return pattern.sub(r"\1\2\3(\4)", text) if pattern else text


# an item letter written with its closing bracket only, right after a provision's number or bracket:
# Canadian French "alinéa 7(3)a)", "sous-alinéa 7(3)c.1)(i)", "l'alinéa 16a)" (= 7(3)(a), 7(3)(c.1)(i), 16(a))
_CLOSE_ONLY_ITEM = re.compile(r"(?<![\w(.])(\d{1,5}(?:\.\d{1,4})*(?:\([^()\s]{1,6}\))*)([a-z]{1,3}(?:\.\d{1,2})?)\)")


def fold_pinpoints(text: str, keep_length: bool = False) -> str:
    """``text`` with pinpoint words written as brackets, the form section ids use:
    ``§ 7 Abs. 3`` → ``§ 7(3)``, ``Artikel 5 Absatz 1 Satz 2`` → ``Artikel 5(1)`` (a sentence is no
    unit), ``§ 3 Abs. 2 Nr. 4`` → ``§ 3(2)(4)``, ``article 5, alinéa 2`` → ``article 5(2)``; an item
    letter closed by its bracket alone, as Canadian French cites it, gets both (``alinéa 7(3)a)`` →
    ``alinéa 7(3)(a)``, ``7(3)c.1)(i)`` → ``7(3)(c.1)(i)``; not with ``keep_length``). Only a
    pinpoint word right after a number or a bracket is read (``as mentioned in s. 59A`` keeps its ``s.``). ``keep_length`` pads each rewrite
    with spaces so offsets into ``text`` stay valid (cross-references report spans)."""
    if not keep_length and ")" in text:
        text = _CLOSE_ONLY_ITEM.sub(r"\1(\2)", text)
    if not any(c in text for c in ".AaNnSsBbLlUuPpHh"):
        return text
    words = _pinpoint_words()

    def sub(m: re.Match) -> str:
        tail = m.group("tail")
        out = "".join(
            f"({p.group('num')})"
            for p in _pinpoint_one_re().finditer(tail)
            if words.get(p.group("word").lower()) == "item"
        )
        return out.ljust(len(tail)) if keep_length else out

    return _pinpoint_re().sub(sub, text)


def pinpoint_tail(text: str, pos: int) -> tuple[int, str] | None:
    """The pinpoint words right at ``pos`` of ``text`` (just after a cited number), as ``(end,
    brackets)``: ``" Abs. 3 Satz 2"`` after ``§ 7`` → ``(pos + 13, "(3)")``; ``None`` when none
    follow."""
    m = _pinpoint_re().match(text, pos)
    return (m.end(), fold_pinpoints(text[max(0, pos - 1) : m.end()])[1:]) if m else None


def opens_with_pinpoint(text: str) -> bool:
    """Whether ``text`` opens with a pinpoint word of any pack and its number (``Absatz 2 der
    Verordnung``, ``Abs. 3``, ``alinéa 2``): the words after a cited number, which a heading's
    title never starts with."""
    m = _pinpoint_one_re().match(text.lstrip())
    return m is not None and _pinpoint_words().get(m.group("word").lower()) == "item"


def pinpoint_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of each run of pinpoint words :func:`fold_pinpoints` rewrites
    (`` Abs. 3 Satz 2`` of ``§ 7 Abs. 3 Satz 2``)."""
    return [m.span("tail") for m in _pinpoint_re().finditer(text)]


# ---------------------------------------------------------------- citations


@dataclass(frozen=True)
class Unit:
    """One numbered unit of a citation: ``kind`` (canonical, ``None`` for a bare number), its
    ``number`` as written (``59A``, ``V``, ``4.2``), the ``keyword`` as written (``s``, ``Artikel``)
    and the section-id ``prefix`` of that keyword (``artikel``; ``""`` for a plain section number)."""

    kind: str | None
    number: str
    keyword: str = ""
    prefix: str = ""


@dataclass(frozen=True)
class Citation:
    """A parsed citation: ``chain`` of units, outermost first (``Part V Division 1AA`` → part V,
    division 1AA); ``pinpoint`` the bracketed items after the last unit (``("1", "ba")``); and
    ``members``: the list or range the last unit's keyword governs, as ``(first, last)`` pairs
    (``last`` is ``None`` for a single member; ``Articles 8, 11, 25 to 39`` →
    ``(("8", None), ("11", None), ("25", "39"))``). ``text`` is what was parsed."""

    chain: tuple[Unit, ...]
    pinpoint: tuple[str, ...] = ()
    members: tuple[tuple[str, str | None], ...] = field(default_factory=tuple)
    text: str = ""

    @property
    def unit(self) -> Unit:
        """The cited unit: the last of the chain."""
        return self.chain[-1]

    @property
    def is_multiple(self) -> bool:
        """A list or a range (``ss 10–12``, ``§§ 3, 4``): :func:`expand` gives one citation each."""
        return len(self.members) > 1 or any(last for _, last in self.members)


def _number_id(unit: Unit) -> str:
    if not unit.number:  # "the Schedule": an Act's only, unnumbered back-matter container, id "schedule"
        return unit.prefix
    code = code_number(unit.number)
    if code:
        return code  # "Article L. 121-4" is L121-4: a code's article numbers are unique in it
    number = re.sub(r"\s+", "", canonical_number(unit.number)).rstrip(".")
    return f"{unit.prefix}-{number.lower()}" if unit.prefix else number


def citation_key(citation: Citation, qualified: bool = False) -> str:
    """The section id a citation names, as the structure parser writes ids: ``s 59A`` → ``59A``,
    ``section 59A(1)(ba)`` → ``59A(1)(ba)``, ``Art. 5(1)(a)`` → ``article-5(1)(a)``, ``Artikel 5
    Absatz 1`` → ``artikel-5(1)``, ``§ 7 Abs. 3`` → ``7(3)``, ``Part V Division 1AA`` →
    ``division-1aa`` (``part-v/division-1aa`` when ``qualified``: the id of a division whose number
    repeats in other Parts)."""
    own = _number_id(citation.unit) + "".join(f"({p})" for p in citation.pinpoint)
    if qualified and len(citation.chain) > 1:
        return "/".join([*(_number_id(u) for u in citation.chain[:-1]), own])
    return own


RANGE_LIMIT = 200  # the most members a range expands to; a wider one gives its two ends


def _sequence(first: str, last: str) -> list[str] | None:
    """The numbers from ``first`` to ``last`` inclusive when they are two ends of one sequence:
    ``10``–``12``; ``4.13.5``–``4.13.8`` (dotted siblings); ``II``–``IV``, ``V``–``X``, ``i``–``iv``
    (roman; two single letters are roman only when both are ``I``/``V``/``X``, or the first is
    ``i``/``I``); ``A``–``C``, ``a``–``c`` (letters). ``None`` otherwise or beyond
    :data:`RANGE_LIMIT` members. Slash-inserted articles count on after their slash: ``216/1``–``216/7``."""
    sep = "/" if "/" in first and "/" in last else "."
    fa, _, fl = first.rpartition(sep)
    la, _, ll = last.rpartition(sep)
    if sep == "/":
        if fa != la or not (fl.isdigit() and ll.isdigit()) or not 0 <= int(ll) - int(fl) <= RANGE_LIMIT:
            return None
        return [f"{fa}/{k}" for k in range(int(fl), int(ll) + 1)]
    if fa != la:
        return None
    head = fa + "." if fa else ""
    if fl.isdigit() and ll.isdigit():
        lo, hi = int(fl), int(ll)
        return [f"{head}{k}" for k in range(lo, hi + 1)] if 0 <= hi - lo <= RANGE_LIMIT else None
    if (
        not head
        and is_roman(fl)
        and is_roman(ll)
        and fl.isupper() == ll.isupper()
        and (len(fl) > 1 or len(ll) > 1 or fl in ("I", "i") or (fl + ll).upper() in ("VX", "IX", "XV", "XX"))
    ):
        rlo, rhi = roman_to_int(fl), roman_to_int(ll)
        if rlo is None or rhi is None:
            return None
        return [int_to_roman(k, fl.isupper()) for k in range(rlo, rhi + 1)] if 0 <= rhi - rlo <= RANGE_LIMIT else None
    if (
        len(fl) == 1
        and len(ll) == 1
        and fl.isalpha()
        and ll.isalpha()
        and fl.isupper() == ll.isupper()
        and ord(fl) <= ord(ll)
    ):
        return [head + chr(k) for k in range(ord(fl), ord(ll) + 1)]
    return None


_LAST_ITEM = re.compile(r"(.*)\(([^()]+)\)")


def _between(first: str, last: str) -> list[str] | None:
    """The members of the range ``first``–``last`` inclusive (:func:`_sequence`), also of items of
    one provision: ``83(4)(a)``–``83(4)(c)`` → ``83(4)(a)``, ``83(4)(b)``, ``83(4)(c)``;
    ``5(1)(i)``–``5(1)(iv)``. ``None`` when the ends are no two members of one sequence."""
    cf, cl = code_number(first), code_number(last)
    if cf and cl:  # "L. 311-1 à L. 311-3": the last hyphenated parts of one head
        hf, _, nf = cf.rpartition("-")
        hl, _, nl = cl.rpartition("-")
        if hf != hl or not 0 <= int(nl) - int(nf) <= RANGE_LIMIT:
            return None
        return [f"{hf}-{k}" for k in range(int(nf), int(nl) + 1)]
    fi, li = _LAST_ITEM.fullmatch(first), _LAST_ITEM.fullmatch(last)
    if fi or li:
        if not (fi and li) or fi.group(1) != li.group(1):
            return None
        inner = _item_sequence(fi.group(2), li.group(2))
        return None if inner is None else [f"{fi.group(1)}({x})" for x in inner]
    return _sequence(first, last)


def _item_sequence(first: str, last: str) -> list[str] | None:
    """Item labels from ``first`` to ``last``, where either end may be an inserted provision
    (:func:`inserted_base`): ``a``–``c.1`` → a, b, c, c.1; ``b.1``–``d`` → b.1, c, d. Insertions
    between the ends are not known from the labels alone (the document's own siblings tell them)."""
    direct = _sequence(first, last)
    if direct is not None or (inserted_base(first) is None and inserted_base(last) is None):
        return direct
    lo, hi = inserted_base(first) or first, inserted_base(last) or last
    base = _sequence(lo, hi)
    if base is None:
        return None
    out = ([first] if lo != first else []) + base[1 if lo != first else 0 :]
    return out + ([last] if hi != last else [])


def list_members(text: str, member: str = "") -> tuple[tuple[str, str | None], ...]:
    """The members of a written list or range, as ``(first, last)`` pairs (``last`` is ``None``
    for a single member): ``8, 11, 25 to 39 and 42`` → ``(("8", None), ("11", None), ("25",
    "39"), ("42", None))``. Members are matches of the regex ``member`` (default :data:`NUMBER`);
    two members joined by a dash or a range word of any pack (``to``, ``bis``, ``à``) are a range,
    anything else between them lists them. Members are kept as written (brackets included)."""
    range_re = _range_join_re()
    out: list[list] = []
    pos = 0
    for m in re.finditer(member or rf"(?<![\w.])(?:{_number_pattern()})", text):
        between = text[pos : m.start()]
        pos = m.end()
        if out and range_re.fullmatch(between) and out[-1][1] is None:
            out[-1][1] = m.group(0)
        else:
            out.append([m.group(0), None])
    return tuple((a, b) for a, b in out)


@functools.lru_cache(maxsize=1)
def _range_join_re() -> re.Pattern:
    return re.compile(r"\s*(?:[-–—]|" + "|".join(rf"\b{re.escape(w)}\b" for w in range_words()) + r")\s*", re.I)


def expand_numbers(members: Iterable[tuple[str, str | None]]) -> list[str]:
    """The written numbers a list or range names, in order, each once — the one expansion of
    ranges and lists (:func:`expand` and cross-references read it). Each ``(first, last)`` pair of
    :func:`list_members` gives its members (:func:`_between`; ends not of one sequence, ``10A to
    12`` or ``4.1 to 5.2``, give the two ends). A bracketed member written after a number with
    brackets is an item of that number: ``6(1)(a) and (c)`` → ``6(1)(a)``, ``6(1)(c)``;
    ``83(4)(a) to (c)`` → ``83(4)(a)``, ``83(4)(b)``, ``83(4)(c)``. Whitespace inside a member is
    dropped from such item members only; other members are returned as written."""
    out: list[str] = []
    prev: str | None = None  # the last member written as a number, for the items that follow it

    def full(member: str) -> str:
        nonlocal prev
        if not member.startswith("("):
            prev = member
        elif prev and "(" in prev:  # "(c)" after "6(1)(a)": that number's item (c)
            member = re.sub(r"\s*\([^()]*\)$", "", prev) + re.sub(r"\s+", "", member)
        return member

    for first, last in members:
        a = full(first)
        if last is None:
            out.append(a)
            continue
        b = full(last)
        squeeze = (re.sub(r"\s+", "", a), re.sub(r"\s+", "", b))
        numbers = _between(*squeeze)
        out.extend(numbers if numbers is not None else [a, b])
    return list(dict.fromkeys(out))


def expand(citation: Citation) -> list[Citation]:
    """One citation per member of a list or range, ranges filled in (:func:`expand_numbers`):
    ``ss 10–12`` → s 10, s 11, s 12; ``Articles 8, 11, 25 to 27 and 42`` → 8, 11, 25, 26, 27, 42;
    ``§§ 3, 4`` → § 3, § 4. A range whose ends are not one sequence (``10A to 12``) gives its two
    ends. A single citation gives itself."""
    if not citation.is_multiple:
        return [citation]
    out: list[Citation] = []
    single = len(citation.members) == 1 and citation.members[0][1] is None
    for n in expand_numbers(citation.members):
        unit = replace(citation.unit, number=n)
        out.append(
            replace(
                citation,
                chain=(*citation.chain[:-1], unit),
                members=((n, None),),
                pinpoint=citation.pinpoint if single else (),
            )
        )
    return out


def _number_pattern() -> str:
    """:data:`NUMBER`, and in a French document a plain hyphenated number first: ``l'article
    16-14`` of the Code civil is one article, not the range 16 to 14 an English text would mean."""
    return rf"\d{{1,5}}(?:-\d{{1,4}})+(?![\w-])|{NUMBER}" if current_language() == "fr" else NUMBER


@_per_language
def _unit_re() -> re.Pattern:
    joins = "|".join(re.escape(w) for w in (*range_words(), *list_words()))
    member = rf"(?:{_number_pattern()})"
    sep = rf"(?:\s*,\s*(?:(?:{joins})\s+)?|\s+(?:{joins})\s+|\s*[-–—]\s*)"
    return re.compile(
        rf"\s*(?P<kw>{citation_keyword_pattern()})?\s*(?P<num>{member})(?P<pins>(?:\s?{PINPOINT})*)"
        rf"(?P<more>(?:{sep}{member}(?!\s*\.\w))*)",
        re.IGNORECASE,
    )


def _members(first: str, more: str) -> tuple[tuple[str, str | None], ...]:
    """The list or range a unit's number opens: ``first`` then what :func:`list_members` reads in ``more``."""
    return list_members(first + more)


def match_citation(text: str, pos: int = 0) -> tuple[Citation, int] | None:
    """The one-unit citation with a keyword that starts at ``pos`` of ``text`` (its list or range
    included: ``ss 10–12`` of ``see ss 10–12 and …``) and where it ends, or ``None``. For reading
    citations inside running text or a query; :func:`parse_citation` reads a whole text."""
    m = _unit_re().match(text, pos)
    if not m or not m.group("kw"):
        return None
    k = keyword(m.group("kw"))
    if k is None or not {"cite", "label"} & k.roles:
        return None
    pins = tuple(re.findall(r"\(([^()]+)\)", m.group("pins")))
    number = m.group("num")
    glued = glued_item(k.kind, number) if not m.group("more") else None
    if glued:  # "Subsection 2d": item (d) of section 2
        number, pins = glued[0], (glued[1], *pins)
    unit = Unit(k.kind, number, m.group("kw").strip(), k.prefix)
    members = _members(number, "") if glued else _members(m.group("num"), m.group("more"))
    return Citation((unit,), pins, members, m.group(0).strip()), m.end()


_OUTER_WORDS = r"(?:of|in|under|von|des|der|du|de\s+la|de\s+l'|de)"


def parse_citation(text: str) -> Citation | None:
    """The citation ``text`` is, whole, or ``None``: ``s 59A``, ``s. 59A``, ``section 59A(1)(ba)``,
    ``Part V Division 1AA``, ``§ 7 Abs. 3``, ``Artikel 5 Absatz 1``, ``Art. 5(1)(a)``, ``ss 10–12``,
    ``§§ 3, 4``, ``Articles 8, 11, 25 to 39 and 42``, ``Section 3 of Article II``, a bare ``4.2.1``
    or ``59A(1)``. Units are read outermost first (``of``/``in`` reverses: ``Section 3 of Article
    II`` is article II, section 3); pinpoint words fold into brackets first
    (:func:`fold_pinpoints`), and items written before their unit into its pinpoint
    (:func:`fold_items_of`: ``paragraph (b) of subsection 1 of section 3`` is section 3(1)(b)). A bare number (no keyword) reads only when it is dotted, carries a
    bracket or a letter suffix (a lone ``17`` cites nothing)."""
    folded = fold_pinpoints(fold_items_of(strip_determiner(" ".join(text.split())))).rstrip(" .,;:")
    inner: list[Unit] = []  # the units before "of", the cited one last
    outer: list[Unit] = []  # the units after "of": its containers, innermost first
    pins: tuple[str, ...] = ()
    members: tuple[tuple[str, str | None], ...] = ()
    pos, of_seen, unnumbered = 0, False, False
    while pos < len(folded):
        m = _unit_re().match(folded, pos)
        if (not m or m.end() == pos or not m.group("kw")) and (bare := _bare_back_unit(folded, pos)):
            unit, pos = bare  # "paragraph 4 of the Schedule", "Schedule, paragraph 4": the only Schedule
            (outer if of_seen else inner).append(unit)
            unnumbered = True
        elif not m or m.end() == pos:
            return None
        else:
            end = _citation_unit(m, of_seen, inner, outer)
            if end is None:
                return None
            pos = end
            if not of_seen:
                pins, members = _unit_pins(m, inner[-1])
        of = re.match(
            rf"\s*,?\s*{_OUTER_WORDS}\s+(?:the\s+|this\s+|dieses\s+|der\s+|des\s+|la\s+|le\s+)?", folded[pos:], re.I
        )
        if of:
            of_seen = True
            pos += of.end()
            continue
        gap = re.match(r"\s*,?\s*", folded[pos:])  # always matches (possibly empty)
        pos += gap.end() if gap else 0
    if not inner or (unnumbered and (len(inner) + len(outer) < 2 or not inner[-1].number)):
        return None  # an unnumbered container alone, or as the unit cited, is no citation of a unit
    chain = (*outer[::-1], *inner)
    return Citation(tuple(chain), pins, members or ((chain[-1].number, None),), text)


def _bare_back_unit(folded: str, pos: int) -> tuple[Unit, int] | None:
    """An unnumbered back-matter container at ``pos`` of a citation (``Schedule`` of ``the Schedule,
    paragraph 4``; no number after it) as a :class:`Unit` with number ``""``, and where it ends."""
    m = re.match(rf"\s*(?:the\s+)?(?P<kw>{citation_keyword_pattern()})(?![\w-])(?!\s*\d)", folded[pos:], re.I)
    k = keyword(m.group("kw").strip()) if m else None
    if m is None or k is None or "back" not in k.roles or not k.prefix:
        return None
    return Unit(k.kind, "", m.group("kw").strip(), k.prefix), pos + m.end()


def _citation_unit(m: re.Match, of_seen: bool, inner: list[Unit], outer: list[Unit]) -> int | None:
    """Add the numbered unit :func:`_unit_re` matched to ``inner`` (before ``of``) or ``outer``;
    where it ends, or ``None`` when it is no unit of a citation (an unknown word, a bare number)."""
    kw = m.group("kw")
    k = keyword(kw) if kw else None
    if kw and (k is None or not {"cite", "label"} & k.roles):
        return None
    if (
        not k
        and not inner
        and not re.search(r"[.(]|\d[A-Za-z]", m.group("num") + m.group("pins"))
        and not code_number(m.group("num"))
    ):
        return None  # a bare "17" cites nothing
    number = m.group("num")
    glued = glued_item(k.kind if k else None, number) if not m.group("more") else None
    unit = Unit(k.kind if k else None, glued[0] if glued else number, kw.strip() if kw else "", k.prefix if k else "")
    if of_seen:
        if m.group("more") or m.group("pins").strip() or glued:
            return None
        outer.append(unit)
    else:
        inner.append(unit)
    return m.end()


def _unit_pins(m: re.Match, unit: Unit) -> tuple[tuple[str, ...], tuple[tuple[str, str | None], ...]]:
    """The pinpoint and the members of the cited unit ``unit`` that :func:`_unit_re` matched as ``m``."""
    k = keyword(m.group("kw")) if m.group("kw") else None
    glued = glued_item(k.kind if k else None, m.group("num")) if not m.group("more") else None
    pins = tuple(re.findall(r"\(([^()]+)\)", m.group("pins")))
    if glued:  # "Subsection 2d": item (d) of section 2
        pins = (glued[1], *pins)
    return pins, _members(unit.number, "" if glued else m.group("more"))


# ---------------------------------------------------------------- items of a cited unit


@dataclass(frozen=True)
class ItemsOf:
    """Items written before the unit they are items of: ``subsection 2 of NRS 1.117`` (the item
    ``(2)`` of NRS 1.117), ``paragraph (b) of subsection 1 of section 3`` (``(1)(b)`` of section 3),
    ``subsections 2 and 3 of NRS 1.235`` (two members), or, with no unit after them, items of the
    enclosing section: ``paragraph (a) of subsection 3`` (``(3)(a)``).

    ``start``: where the first item word stands; ``cited``: where the unit they are items of
    starts (the text after the last ``of``), ``None`` for enclosing-section items; ``end``: where
    the cited unit's number and brackets end (``NRS 1.117`` ends there), else where the items end;
    ``items``: per member, the pinpoints outermost first (``(("1", "b"),)``); ``outer``: the item
    word of the outermost item as written (``subsection``), for writing an enclosing-section one."""

    start: int
    cited: int | None
    end: int
    items: tuple[tuple[str, ...], ...]
    outer: str = ""


_ITEM_MEMBER = (
    r"(?:\((?:\d{1,3}[a-z]{0,2}|[a-zA-Z]{1,4})\)(?:\s?\((?:\d{1,3}[a-z]{0,2}|[a-zA-Z]{1,4})\))*|\d{1,3}(?![\w.]))"
)
# a code's or rulebook's abbreviation before a dotted section number: "NRS 1.117", "GEN 3.3.31", "ORS 72A.1010"
CODE_SECTION = r"(?-i:[A-Z]{2,6})\s+\d{1,3}[A-Z]?(?:\.\d{1,4}[A-Z]?){1,4}(?![\w.]*\d)(?:\s?\((?:\d{1,3}|[a-z]{1,4})\))*"


# a dotted section number cited bare ("subsection 2 of 1.117": what is left of "… of NRS 1.117" once a query's
# name of its document is read apart)
_DOTTED_SECTION = r"(?<![\w.])\d{1,3}[A-Z]?(?:\.\d{1,4}[A-Z]?){1,4}(?![\w.]*\d)(?:\s?\((?:\d{1,3}|[a-z]{1,4})\))*"


@_per_language
def _item_run_re() -> re.Pattern | None:
    """One item unit (a ``relative`` keyword and its number or list) and the word joining it to
    the unit it is an item of (a pack's ``item_of_words``: ``of``)."""
    joins = [w for p in PACKS for w in p.get("item_of_words", ())]
    forms = [f for f, k in keywords().items() if "relative" in k.roles and not k.case]
    if not joins or not forms:
        return None
    words = "|".join(
        re.escape(f.rstrip(".")) + (r"\.?" if f.endswith(".") else "") for f in sorted(forms, key=len, reverse=True)
    )
    lists = "|".join(re.escape(w) for w in (*list_words(), *range_words()))
    sep = rf"(?:\s*,\s*(?:(?:{lists})\s+)?|\s+(?:{lists})\s+|\s*[-–]\s*)"
    return re.compile(
        rf"(?<![\w.])(?P<kw>{words})(?![\w])\s*(?P<nums>{_ITEM_MEMBER}(?:{sep}{_ITEM_MEMBER})*)"
        rf"(?P<of>\s*,?\s+(?:{'|'.join(re.escape(w) for w in joins)})\s+(?:(?:the|this)\s+)?)?",
        re.IGNORECASE,
    )


def _item_pins(number: str) -> tuple[str, ...]:
    """``(1)(a)`` → ``("1", "a")``; ``2`` → ``("2",)``."""
    inner = re.findall(r"\(([^()]+)\)", number)
    return tuple(inner) if inner else (number.strip(),)


def items_of(text: str, pos: int = 0) -> ItemsOf | None:
    """The items written at ``pos`` of ``text`` before the unit they are items of (:class:`ItemsOf`),
    or ``None``. Read: one or more item units (the ``relative`` keywords of the packs: ``subsection``,
    ``paragraph``) joined by a pack's ``item_of_words`` (``of``), then either a cited unit — a citation
    word and one number (``section 3``, ``Article 5(1)``: not a list, not a container such as ``Schedule 2``, whose paragraphs
    are its sections) or a code's abbreviation and a
    dotted number (``NRS 1.117``: :data:`CODE_SECTION`) or a dotted number alone (``1.117``) — or, after two item units or more, nothing
    (``paragraph (a) of subsection 3``: items of the enclosing section). A list may stand in the
    first item only (``subsections 2 and 3 of NRS 1.235``: one member each). A single item unit
    followed by anything else (``subsection 2 of this section``, ``paragraph 1 of the Agreement``)
    is no such citation: ``None``, the item alone is read as before."""
    pattern = _item_run_re()
    if pattern is None:
        return None
    units: list[tuple[str, str]] = []
    at = pos
    while (m := pattern.match(text, at)) is not None:
        if units and not re.fullmatch(_ITEM_MEMBER, m.group("nums")):
            break  # only the first (innermost) item may be a list
        units.append((m.group("kw"), m.group("nums")))
        if not m.group("of"):
            at = m.end("nums")
            break
        at = m.end()
        last_of = m.start("of")
        if pattern.match(text, at):
            continue  # another item unit: "of subsection 1 of …"
        cited = match_citation(text, at)
        if cited is not None:
            k = keyword(cited[0].unit.keyword) if cited[0].unit.keyword else None
            if k is not None and "relative" not in k.roles:
                if cited[0].is_multiple or k.rank < 4:
                    return (
                        None  # a list of units; a container's paragraphs are its sections ("paragraph 4 of Schedule 2")
                    )
                end = cited[1]
                tail = re.match(r"\s?(?:" + PINPOINT + r")+", text[end:])
                return _items(units, pos, at, end + (tail.end() if tail else 0))
        code = re.compile(rf"{CODE_SECTION}|{_DOTTED_SECTION}").match(text, at)
        if code is not None:
            return _items(units, pos, at, code.end())
        at = last_of
        break
    if len(units) < 2:
        return None
    members = expand_numbers(list_members(units[0][1], _ITEM_MEMBER))
    outer = tuple(p for _, n in reversed(units[1:]) for p in _item_pins(n))
    return ItemsOf(pos, None, at, tuple(outer + _item_pins(m) for m in members), units[-1][0])


def _items(units: list[tuple[str, str]], start: int, cited: int, end: int) -> ItemsOf:
    """The :class:`ItemsOf` of ``units`` (item keyword, number(s) as written; innermost first) of the unit at ``cited``."""
    members = expand_numbers(list_members(units[0][1], _ITEM_MEMBER))
    outer = tuple(p for _, n in reversed(units[1:]) for p in _item_pins(n))
    return ItemsOf(start, cited, end, tuple(outer + _item_pins(m) for m in members))


@_per_language
def _item_word_re() -> re.Pattern | None:
    forms = [f for f, k in keywords().items() if "relative" in k.roles and not k.case]
    if not forms:
        return None
    return re.compile(rf"(?<![\w.])(?:{_alternation([f.rstrip('.') for f in forms])})(?![\w])", re.IGNORECASE)


def fold_items_of(text: str) -> str:
    """``text`` with each run of items written before their unit (:func:`items_of`) written as that
    unit's pinpoint, the form section ids and exact keys use: ``subsection 2 of NRS 1.117`` →
    ``NRS 1.117(2)``, ``paragraph (b) of subsection 1 of section 3`` → ``section 3(1)(b)``,
    ``subsections 2 and 3 of NRS 1.235`` → ``NRS 1.235(2), NRS 1.235(3)``, ``paragraph (a) of
    subsection 3`` → ``subsection 3(a)``; other text unchanged."""
    words = _item_word_re()
    if words is None or not words.search(text):
        return text
    out: list[str] = []
    pos = 0
    for w in words.finditer(text):
        if w.start() < pos:
            continue
        found = items_of(text, w.start())
        if found is None:
            continue
        if found.cited is not None:
            unit = re.sub(r"\s+", " ", text[found.cited : found.end])
            written = ", ".join(unit + "".join(f"({p})" for p in pins) for pins in found.items)
        else:
            written = ", ".join(
                f"{found.outer} {pins[0]}" + "".join(f"({p})" for p in pins[1:]) for pins in found.items
            )
        out.append(text[pos : found.start] + written)
        pos = found.end
    return "".join(out) + text[pos:]


@functools.lru_cache(maxsize=1)
def parent_document_re() -> re.Pattern | None:
    """The words with which a document's opening says which other document it amends, supplements
    or belongs to (every pack's ``parent_document_words``: ``additions to or modifications of``,
    ``supplements``, ``Schedule 2 to``), as a case-blind regex ending right before that document's
    name (``the Bonterms Professional Services Agreement``); ``None`` when no pack has any."""
    words = [w for p in PACKS for w in p.get("parent_document_words", ())]
    if not words:
        return None
    alt = "|".join(r"\s+".join(re.escape(p) for p in w.split()) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w])(?:{alt})(?=\s)", re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def amendment_re(part: str) -> re.Pattern | None:
    """The regex of one part of how amending Acts word their instructions, every pack's
    ``amendment[part]`` alternatives joined (see ``grammar_packs/en.py``, ``AMENDMENT``):
    ``instruction`` (a paragraph that is an amendment instruction: ``by striking``, ``is amended``,
    ``substitute “``, ``insert—``, ``omit``), ``by_this`` (ending right before a citation of this Act's
    own: ``as redesignated by``), ``of_this`` (right after one: ``of this section``),
    ``quotation_follows`` (a line ending so introduces inserted text, multi-line mode), ``amends``
    (the amended Act or provision as the subject, group ``subject``, the provisions carrying the
    amendments out, group ``which``; ``amends_cue``: the words every such form holds, found first) and
    ``lead_in`` (a provision narrowing where the amendments under it apply, group ``where``: ``In
    section 264 (…)—``). ``None`` when no pack has that part."""
    alts = [a for p in PACKS for a in p.get("amendment", {}).get(part, ())]
    if not alts:
        return None
    if part in ("amends", "lead_in"):  # named groups cannot repeat in one regex: the first pack's form
        return re.compile(alts[0])
    return re.compile("|".join(f"(?:{a})" for a in alts), re.M if part == "quotation_follows" else 0)


def self_words() -> tuple[str, ...]:
    """The words a document calls itself with before its name, every language (``this``, ``these``,
    ``the present``): a pack's ``self_words``."""
    return tuple(dict.fromkeys(w for p in PACKS for w in p.get("self_words", ())))


@functools.lru_cache(maxsize=1)
def self_parent_re() -> re.Pattern | None:
    """A document saying of itself which document it is under (every pack's ``self_words`` and
    ``self_parent_words``): ``This SOW {sow_number} ("SOW") incorporates the Agreement``, ``This
    Order Form is governed by the Agreement``, ``This AI Addendum amends and is incorporated into the
    following "Agreement"``. Group ``self``: the name it calls itself by (capitalised words after
    ``this``), ``rel``: the relation, ``name``: where the other document's name starts (after
    ``the`` and a list opener such as ``following``, quotes and bold marks). The subject and the
    relation stand in one sentence, at most 80 characters apart; ``None`` when no pack has the words."""
    words = [w for p in PACKS for w in p.get("self_parent_words", ())]
    selves = list(self_words())
    if not words or not selves:
        return None

    def alt(ws: list[str]) -> str:
        return "|".join(r"\s+".join(re.escape(p) for p in w.split()) for w in sorted(ws, key=len, reverse=True))

    openers = "|".join(re.escape(w) for w in list_opener_words()) or "(?!x)x"
    dets = "|".join(re.escape(w) for p in PACKS for w in p.get("determiners", ()))
    return re.compile(
        rf"(?<![\w])(?i:{alt(selves)})\s+(?P<self>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){{0,3}})(?![\w-])"
        rf"[^.;:\n]{{0,80}}?\s(?P<rel>(?i:{alt(words)})(?:\s+(?i:and|or)\s+(?i:{alt(words)}))?)\s+"
        rf"(?:(?i:{dets})\s+)?(?:(?i:{openers})\s+)?[*_\"“]{{0,3}}(?P<name>(?=[A-Z]))"
    )


# ---------------------------------------------------------------- contents titles


@functools.lru_cache(maxsize=8)
def contents_title_pattern(kinds: tuple[str, ...] = ("contents", "lists", "index")) -> re.Pattern:
    """The regex of a whole title naming a contents page, in any language, of the given ``kinds``
    (``contents``: the document's own table of contents — ``Contents``, ``Table of Contents``,
    ``Arrangement of Sections``, ``Inhaltsübersicht``, ``Inhaltsverzeichnis``, ``Sommaire``, ``Table
    des matières``; ``lists``: lists of figures, tables …; ``index``: a back-of-book index).
    Matched against the title case-folded with single spaces, punctuation around it allowed."""
    alts = [a for p in PACKS for kind in kinds for a in p["contents_titles"].get(kind, ())]
    return re.compile(rf"^\W*(?:{'|'.join(alts)})\W*$", re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def _months() -> frozenset[str]:
    return frozenset(w for p in PACKS for w in p.get("months", ()))


def is_month(word: str) -> bool:
    """``word`` (any case, a trailing ``.``/``,`` ignored) names a month in a language pack:
    ``February``, ``Feb.``, ``März``, ``décembre``."""
    return word.lower().strip(".,") in _months()


# a day of the month as a date opens with it: "5", "05", "24." (German), "1st", "1er" (French)
_DAY_MONTH_RE = re.compile(r"^[\W_]*(?:0?[1-9]|[12][0-9]|3[01])(?:\.|st|nd|rd|th|er)?\s+([^\W\d_]+)\.?,?(?:\s+(\S+))?")


def is_date(text: str) -> bool:
    """``text`` opens with a date written day first: a day of the month (``5``, ``05``, ``24.``,
    ``1st``, ``1er``), a month name of a language pack (:func:`is_month`), then a year, the end of
    the text or punctuation: ``24 November 2019 This version:``, ``05 February 2026``, ``1. Januar
    2020``, ``3 Sept.``; not ``2 May be used`` (the month word followed by other words), not
    ``32 March 2019`` (no such day)."""
    m = _DAY_MONTH_RE.match(text.strip())
    if not m or not is_month(m.group(1)):
        return False
    after = m.group(2)
    return after is None or bool(re.match(r"(?:\d{4}(?!\d)|[^\w\s])", after))


def is_field_line(text: str) -> bool:
    """``text`` is a label and a date or number after a colon, a document's field and not a heading:
    ``Last Updated: 3/1/25``, ``Effective Date: January 1, 2024``, ``Version: 2.1``. The label is
    one to four words; each word of the value holds a digit or names a month (:func:`is_month`).
    ``Article 5: Definitions`` and ``Chapter 2: Scope`` are headings (a value of words)."""
    label, colon, value = text.strip().strip("*_ ").partition(":")
    words = value.strip(" *_").split()
    if not colon or not words or not 1 <= len(label.split()) <= 4 or not re.search(r"[^\W\d_]", label):
        return False
    return all(re.search(r"\d", w) or is_month(w) for w in words)


@functools.lru_cache(maxsize=1)
def _note_labels() -> frozenset[str]:
    return frozenset(w for p in PACKS for w in p.get("note_labels", ()))


def is_note_label(text: str) -> bool:
    """``text`` (any case; a trailing number, ``.``, ``:`` or dash ignored) is the label of a note or
    annotation in a language pack: ``Note``, ``NOTES``, ``Example 2``, ``Explanation.—``, ``Hinweis``."""
    words = re.sub(rf"(?:\s+{NUMBER})?[\s.:;,—–-]*$", "", text.strip()).lower()
    return " ".join(words.split()) in _note_labels()


@functools.lru_cache(maxsize=1)
def drafting_note_re() -> re.Pattern:
    """Notes to whoever fills in a form (every pack's ``drafting_note_labels``, ``note_labels`` and
    ``instruction_verbs``), with the emphasis round them: a bracketed note opening with a note label
    and a colon (``*[Drafting note: Optional variable. … delete this entire row.]*``, ``[Note: …]``), a
    bracketed instruction opening with an instruction verb (``[ Enter a description of the Services
    … ]``), and a line or table cell opening with a drafting-note label and a colon (``Drafting note:
    …`` to the end of the line or cell). Brackets hold no bracket; a match stays within a paragraph."""
    labels = sorted(
        {w for p in PACKS for w in (*p.get("drafting_note_labels", ()), *p.get("note_labels", ()))},
        key=len,
        reverse=True,
    )
    drafting = sorted({w for p in PACKS for w in p.get("drafting_note_labels", ())}, key=len, reverse=True)
    verbs = sorted({w for p in PACKS for w in p.get("instruction_verbs", ())}, key=len, reverse=True)

    def alt(ws: list[str]) -> str:
        return "|".join(r"\s+".join(re.escape(x) for x in w.split()) for w in ws) or "(?!x)x"

    inside = r"[^\[\]]*?(?:\n(?![ \t]*\n)[^\[\]]*?)*?"  # no bracket, no blank line
    return re.compile(
        rf"(?P<em>[*_]{{0,3}})\[[ \t*_]*(?:(?i:{alt(labels)})[ \t*_]*:|(?:{alt([v.capitalize() for v in verbs])})\s)"
        rf"{inside}\](?P=em)"
        rf"|(?:(?<=\n)|^|(?<=\|)[ \t]*)[ \t>*_-]*(?i:{alt(drafting)})[ \t*_]*:[^\n|]*",
    )


def is_enumerator(text: str) -> bool:
    """``text`` is a bare number or enumerator as the grammar writes one, with at most a closing
    ``.``, ``)`` or ``:``: ``2C``, ``4.2.1``, ``(a)``, ``iv.``, ``A)``, ``§ 7``, never a word of two or
    more letters other than a roman numeral."""
    t = re.sub(r"^(?:§+\s*|[Ss]s?\.\s*|[Ss]s?\s+)", "", text.strip()).rstrip(".:")
    if t.endswith(")") and "(" not in t:
        t = t[:-1]  # "a)", "iv)"
    return bool(t) and bool(re.fullmatch(rf"(?:{NUMBER}|{PINPOINT}|\(?[A-Za-z]\)?)(?:{PINPOINT})*", t))


@functools.lru_cache(maxsize=4096)
def is_contents_title(title: str, kinds: tuple[str, ...] = ("contents", "lists", "index")) -> bool:
    """``title`` names a contents page (of ``kinds``, see :func:`contents_title_pattern`): ``Table of
    Contents``, ``CONTENTS:``, ``ARRANGEMENT OF SECTIONS``, ``Inhaltsübersicht``; not a section that
    merely mentions contents (``Contents of the Notice``)."""
    return bool(contents_title_pattern(kinds).match(" ".join(title.split())))


def canonical_label(form: str) -> str:
    """The label word a written label form stands for, as keyed in :func:`label_keywords`:
    ``sec``/``sect``/``§`` → ``section``, ``art`` → ``article``, ``app`` → ``appendix``; a word
    stands for itself."""
    k = keyword(form) or keyword(form.upper())
    if k is None:
        return form
    if k.word.isalpha():
        return k.word
    return next(
        (w.word for w in keywords().values() if w.kind == k.kind and w.prefix == k.prefix and w.word.isalpha()), form
    )


# a roman numeral as container numbers write it (Part XIV, CHAPTER iii): the shape, for regexes
ROMAN_PATTERN = r"[IVXLC]{1,7}"


def keyword_words(*roles: str) -> list[str]:
    """The full words (lower case, no abbreviations or plurals) of the rows having any of ``roles``
    (``label``: section, article, part, chapter, division, schedule, teil, kapitel, titre …), for
    building a regex with ``re.IGNORECASE`` where a converter needs "a keyword then a number"."""
    return sorted(
        {
            raw[0]
            for p in PACKS
            for raw, _, _, _, r in p["keywords"]
            if set(r.split()) & set(roles) and raw[0][0].isalpha()
        },
        key=lambda w: (-len(w), w),
    )


@functools.lru_cache(maxsize=1)
def contents_words_pattern() -> re.Pattern:
    """A contents-page title anywhere in a text (a query asking for one: ``show the table of
    contents``, ``list of figures``, ``index``): every pack's contents titles as whole words."""
    alts = [a for p in PACKS for kind in ("contents", "lists", "index") for a in p["contents_titles"].get(kind, ())]
    return re.compile(rf"\b(?:{'|'.join(alts)})\b", re.IGNORECASE)


# ---------------------------------------------------------------- citations of another act


@_per_language
def _external_res() -> tuple[re.Pattern, re.Pattern, re.Pattern | None, re.Pattern | None, frozenset[str]] | None:
    """The compiled ``external`` table of the current language's pack (:func:`external_document`):
    pinpoints between number and act, link + designator + name, where the sentence goes on after the
    name, small words a name does not end with, generic designators."""
    pack = language_pack()
    if pack is None or not pack.get("external"):
        return None
    table = pack["external"]
    words = _alternation([f for forms, _ in pack.get("pinpoints", ()) for f in forms])
    # the pack's own pinpoints, and its pinpoint words with their number ("Abs. 2", "alinéa 3")
    pin = "|".join(
        (
            *table.get("pinpoints", ()),
            *([rf"(?:{words})(?![\w])\s*\(?(?:\d{{1,3}}[a-z]?|[a-z]{{1,3}})\)?"] if words else []),
        )
    )
    joins = "|".join(re.escape(w) for w in (*pack.get("list_words", ()), *pack.get("range_words", ())))
    more = rf"(?:{pin}|\d{{1,3}}(?:er|re)?(?:{_SUFFIX_RE})?°?(?![\w]))"  # "§§ 2 à 4", "6° et 7°", "Abs. 1 und 2"
    # led by the other members of a pinpoint list begun before pos ("l'article 3, §§2 et 3 de la loi")
    pinpoints = re.compile(
        rf"(?:\s*(?:{joins})\s*{more})*(?:\s*,?\s*(?:{pin})(?:\s*(?:,|{joins})\s*{more})*)*(?:\s*,)?", re.IGNORECASE
    )
    links = "|".join(table["links"])
    designators = "|".join(table["designators"])
    adjectives = table.get("adjectives", "")
    name_words = table.get("name_words")
    if name_words:  # German: the act's number, then capitalised words, numbers and the small words of a title
        rest = (
            r"(?:\s*(?:\((?:EU|EG|EWG|Euratom)\)\s*)?(?:Nr\.\s*)?\d{1,4}/\d{1,4}(?:/[A-Z]{2,8})?)?"
            rf"(?:\s+(?:(?-i:[A-ZÄÖÜ])[\wäöüß-]*|\d[\w./]*|(?:{name_words})(?![\w])))*"
        )
    else:  # French: up to 8 words to the punctuation (the name end cuts it where the sentence goes on)
        rest = r"(?:[ \t]+[^\s,;:.()]+){0,8}"
    anaphoric = "|".join(table.get("anaphoric", ())) or r"(?!)"
    tail = re.compile(
        rf"\s*,?\s*(?:(?:{links})(?:(?<=['’])\s*|\s+)"
        rf"(?P<name>(?-i:{adjectives})(?:{designators})(?![\wäöüßàâçéèêëîïôûù]){rest})|"
        rf"(?P<back>(?:{anaphoric})\s+(?:{designators})(?![\wäöüßàâçéèêëîïôûù]){rest}))",
        re.IGNORECASE,
    )
    end = re.compile(table["name_end"]) if table.get("name_end") else None
    trailing = re.compile(rf"(?:\s+(?:{name_words}))+$", re.IGNORECASE) if name_words else None
    return pinpoints, tail, end, trailing, frozenset(table.get("generic", ()))


@_per_language
def _external_before_re() -> re.Pattern | None:
    pack = language_pack()
    before = (pack.get("external") or {}).get("before") if pack else None
    return re.compile(before) if before else None


def external_document_before(before: str) -> str | None:
    """The other act named right before a citation, as the current document language's pack writes
    it (``external["before"]``: Justel's ``Loi 2004-12-27/30, art. 2`` → ``Loi 2004-12-27/30``), or
    ``None``; ``before`` is the text up to the citation word."""
    pattern = _external_before_re()
    m = pattern.search(before) if pattern else None
    return " ".join(m.group("name").split()) if m else None


def pinpoints_end(text: str, pos: int) -> int:
    """Where the pinpoints written after a cited number at ``pos`` of ``text`` end, as the current
    document language's pack writes them between a citation and what follows it (``, 7°,``, ``, §§ 2
    à 4,``, ``, alinéa 1er,``, `` Abs. 2 Satz 1``); ``pos`` when none follow or the pack lists none."""
    res = _external_res()
    m = res[0].match(text, pos) if res else None
    return m.end() if m and m.group(0).strip(" ,") else pos


def external_document(text: str, pos: int = 0) -> tuple[int, str] | None:
    """The other act a citation ending at ``pos`` of ``text`` belongs to, as the current document
    language's pack (``external``: :mod:`.grammar_packs.fr`, :mod:`.grammar_packs.de`) writes it:
    ``(end, name)`` or ``None``. Pinpoints between the number and the act are read first (``l'article
    1er, 7°, de l'arrêté royal du 8 janvier 1992`` → ``arrêté royal du 8 janvier 1992``; ``, § 2,``,
    ``, alinéa 1er,``), then a link word and a designator (``de la loi du 15 juin 1935 concernant …``,
    ``du code du travail``, ``des Bürgerlichen Gesetzbuchs``, ``der Verordnung (EU) 2016/679``) or
    words pointing back at an act named before (``de cet arrêté``, ``du même arrêté royal``: the name
    is those words and what follows them); the
    name ends at the punctuation or where the sentence goes on. ``de la présente loi``, ``dieses
    Gesetzes`` and a generic designator alone (``des Gesetzes``) name no other act: ``None``."""
    res = _external_res()
    if res is None:
        return None
    pinpoints, tail, end, trailing, generic = res
    p = pinpoints.match(text, pos)
    m = tail.match(text, p.end() if p else pos)
    if m is None:
        return None
    name = " ".join((m.group("name") or m.group("back")).split())
    if end is not None:
        name = end.split(name)[0]
    if trailing is not None:
        name = trailing.sub("", name)
    if not name or name.lower() in generic:
        return None
    return m.end(), name


@functools.lru_cache(maxsize=1)
def _instrument_re() -> re.Pattern:
    words = sorted({w for p in PACKS for w in p.get("instrument_words", ())}, key=len, reverse=True)
    return re.compile(
        rf"^\S.*\b(?:{'|'.join(map(re.escape, words))}),?\s+"
        r"(?:(?:of\s+)?(?:1[6-9]|20)\d\d|no\.?\s*\d+(?:,?\s+of\s+(?:1[6-9]|20)\d\d)?)?"
        r"(?:\s*[(\[][^()\[\]]*[)\]])*\s*$",
        re.IGNORECASE,
    )


def names_instrument(title: str) -> bool:
    """``title`` names a legislative instrument: a name ending in one of a pack's ``instrument_words``
    and its year or number, which end the title (``PERSONAL DATA PROTECTION ACT 2010``, ``The
    Information Technology Act, 2000 (No. 21 of 2000)``, ``Employment Act (Cap. 226)``, ``SMALL
    CLAIMS COURTS’ PROCEDURE ACT, No. 33 OF 2022``: a number and its year); not a
    collection's name over it (``LAWS OF MALAYSIA``), a bare ``Act 709``, nor a heading that merely
    mentions one (``The Companies Act 2016 explained``)."""
    return bool(_instrument_re().search(" ".join(title.split())))


@functools.lru_cache(maxsize=1)
def _caption_re() -> re.Pattern:
    words = lambda key: "|".join(sorted({re.escape(w) for p in PACKS for w in p.get(key, ())}, key=len, reverse=True))  # noqa: E731
    openers = words("caption_openers").replace(r"\ ", r"\s+")
    return re.compile(
        rf"^(?:(?:{openers})\s+.*\b(?:{words('forum_words')})s?\b|[^,;:]*\b(?:{words('court_words')})s?\b"
        rf"(?:\s+(?:of|for)\s+.*)?)$",
        re.IGNORECASE,
    )


@functools.lru_cache(maxsize=1)
def _filing_re() -> re.Pattern:
    words = sorted({w for p in PACKS for w in p.get("filing_words", ())}, key=len, reverse=True)
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, words))})s?\b", re.IGNORECASE)


def is_caption(heading: str) -> bool:
    """``heading`` is a caption: the forum a filing is made in (or a letter comes from), set over the
    document's own name (``IN THE UNITED STATES PATENT & TRADEMARK OFFICE``, ``BEFORE THE TRADEMARK
    TRIAL & APPEAL BOARD``, ``IN THE UNITED STATES DISTRICT COURT FOR THE DISTRICT OF OREGON``,
    ``SUPREME COURT OF THE UNITED STATES``): a pack's ``caption_openers`` and one of its
    ``forum_words``, or a court's name alone (``court_words``). It names where the document is,
    not the document; not ``Code of Conduct for the Board`` (no opener) nor ``Court Fees Act``."""
    text = " ".join(heading.split()).strip(" .:")
    return 0 < len(text.split()) <= 20 and bool(_caption_re().match(text)) and not names_instrument(text)


def names_filing(heading: str) -> bool:
    """``heading`` names a filing by its kind (a pack's ``filing_words``: ``PETITION FOR
    CANCELLATION``, ``NOTICE OF OPPOSITION``, ``DEFENDANT'S MOTION TO DISMISS``, ``MEMORANDUM OPINION
    AND ORDER``): what a document under a caption (:func:`is_caption`) calls itself; a caption or a
    line of twelve words or more is none."""
    text = " ".join(heading.split())
    return 0 < len(text.split()) < 12 and bool(_filing_re().search(text)) and not is_caption(text)


@functools.lru_cache(maxsize=1)
def instrument_names() -> dict[str, str]:
    """Short names of other instruments, every pack's (``instrument_names``), written form → the
    instrument's own citation: ``GDPR``, ``RGPD``, ``DSGVO`` → ``Regulation (EU) 2016/679``; ``C. civ.``
    → ``Code civil``. Every language's: a French text may cite the GDPR by its English name."""
    return {form: canonical for p in PACKS for forms, canonical in p.get("instrument_names", ()) for form in forms}


@functools.lru_cache(maxsize=1)
def instrument_name_re() -> re.Pattern:
    """The written short names of :func:`instrument_names` as whole words, case as written (group
    ``name``): ``RGPD`` in ``article 6.1.b RGPD``, ``C. civ.`` in ``art. 1240 C. civ.``."""
    forms = sorted(instrument_names(), key=len, reverse=True)
    alt = "|".join(re.escape(f).replace(r"\ ", r"\s?") for f in forms) or r"(?!)"
    return re.compile(rf"(?<![\w-])(?P<name>{alt})(?![\w-])")


@functools.lru_cache(maxsize=1)
def instrument_kinds() -> dict[str, str]:
    """The kind words of EU instruments in every pack's language, lower case, → the English kind
    (``règlement``, ``verordnung`` → ``regulation``; ``richtlinie`` → ``directive``): with its number
    the instrument is the same one in any language (``Règlement (UE) 2016/679``)."""
    return {w: k for p in PACKS for w, k in p.get("instrument_kinds", {}).items()}


def document_words() -> tuple[str, ...]:
    """The kind words documents are named by, every language, singular (``agreement``, ``license``,
    ``provision``, ``act``): a pack's ``document_words``. A citation's qualifier holding one names a
    document (``Section 4.e of the Trust Legal Provisions``); one alone is that kind of document
    (``of the Agreement``), this one when it calls itself so."""
    return tuple(dict.fromkeys(w for p in PACKS for w in p.get("document_words", ())))


def version_words() -> tuple[str, ...]:
    """Words that make the dotted number after them a software version, every language (``version``,
    ``versions``, ``release``, ``Version``): a pack's ``version_words``."""
    return tuple(dict.fromkeys(w for p in PACKS for w in p.get("version_words", ())))


@functools.lru_cache(maxsize=1)
def _version_word_re() -> re.Pattern:
    words = sorted({w for p in PACKS for w in p.get("version_words", ())}, key=len, reverse=True)
    alt = "|".join(re.escape(w) + (r"\s*" if w.endswith(".") else r"\s+") for w in words)
    joins = "|".join(re.escape(w) for w in (*list_words(), *range_words()))
    # "version 3.2.1", "versions 4.9 and 4.9.1", "versions from 4.9.3", "Versionen 2.1 bis 2.4"
    earlier = rf"(?:\d{{1,4}}(?:\.\d{{1,4}})*[\w+-]*\s*(?:,|{joins})\s+|(?:from|since|before|after|prior\s+to|ab|seit|vor|depuis|avant)\s+)*"
    return re.compile(rf"(?<![\w.])(?:{alt}){earlier}$", re.IGNORECASE)


# what follows a version number: a pre-release or patch tag ("9.18.0-dev", "9.16.44-S1", "3.0rc2", "1.2.3+"),
# a wildcard ("9.18.x"); what follows an address: a prefix length, a port or a domain name's next label
# ("10.0.0.0/24", "127.0.0.1:53", "0.0.127.in-addr.arpa", "2.1.10.in-addr.arpa")
_VERSION_AFTER_RE = re.compile(r"(?:-?(?:rc|RC|alpha|beta|dev|pre|[PSb])\d*(?![\w])|\.[xX*](?![\w])|\+(?![\w]))")
_ADDRESS_AFTER_RE = re.compile(r"(?:/\d{1,3}|:\d{1,5})(?![\w.])|\.[A-Za-z][\w-]*\.[A-Za-z]|\.\d")


def version_or_address(text: str, start: int, end: int) -> str | None:
    """What the dotted number ``text[start:end]`` is when it is no provision number: ``"version"`` (a
    pack's ``version_words`` before it — ``version 3.2.1``, ``release 9.18``, ``versions 4.9 and
    4.9.1``, ``versions from 4.9.3`` — or a release tag after it: ``9.18.0-dev``, ``9.16.44-S1``,
    ``9.18.x``), ``"address"`` (network address shapes, every part at most 255: a prefix length, a
    port, a domain label or more dotted parts after it — ``10.0.0.0/24``, ``192.168.1/24``,
    ``127.0.0.1:53``, ``0.0.127.in-addr.arpa``, ``0.6.8.1.1.0.2.0`` (a reverse name read in part) —, a part over 99 — ``127.0.0.1``, ``192.168.0.1`` —, or zeros after the
    first part in four parts or more — ``10.0.0.1``, ``1.0.0.0.192``), ``"ipv4"`` (four such parts
    and nothing else: ``10.1.2.3``), ``"zero"`` (a 0 after the first part: ``9.0.0``, a release, ``2.0``)
    — these two a provision only where the document numbers one so —, or ``None``. Section numbers
    are counters: they do not run past 99 below the top level, nor restart at 0."""
    number = re.sub(r"\(.*$", "", text[start:end])
    before = text[max(0, start - 48) : start]
    after = text[end : end + 24]
    if _version_word_re().search(before) or _VERSION_AFTER_RE.match(after):
        return "version"
    if not re.fullmatch(r"\d{1,3}(?:\.\d{1,3})+", number):
        return None
    parts = [int(p) for p in number.split(".")]
    if any(p > 255 for p in parts):
        return None
    if (
        _ADDRESS_AFTER_RE.match(after)
        or (len(parts) >= 3 and any(p > 99 for p in parts))
        or (len(parts) >= 4 and 0 in parts[1:])
    ):
        return "address"
    if len(parts) == 4:
        return "ipv4"
    return "zero" if 0 in parts[1:] else None
