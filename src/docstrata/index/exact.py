"""Exact-match keys: section references, defined terms, record ids (DESIGN §5).

Every way of citing a section is normalised to one canonical key, at index time (from the
section's aliases) and at query time (from references found in the query):

    "Section 203(a)(1)", "Sec. 203 (a)(1)", "§203(a)(1)"  → "section 203(a)(1)" and "203(a)(1)"
    "Article 17", "Art. 17", "ARTICLE XVII"                → "article 17"
    "Rule 3.3.31", "GEN 3.3.31", "3.3.31"                  → "3.3.31"
    "subsection 2 of NRS 1.117", "NRS 1.117(2)"            → "1.117(2)" (grammar.fold_items_of)

A key with a kind ("article 17") is more specific than the bare number ("17"); bare
numbers are only used when they are dotted or parenthesised ("4.2.1", "203(a)"), since a
plain "17" names too many things. Defined terms use ``term:<folded term>``; records use
``id:<folded id>`` and ``value:<folded value>``.
"""

from __future__ import annotations

import functools
import itertools
import re

from ..structure.grammar import (
    CODE_NUMBER,
    SLASH_NUMBER,
    ORDINAL_ONE,
    SUFFIX_WORDS,
    back_matter_prefixes,
    canonical_number,
    citing_forms,
    citation_keyword_pattern,
    code_number,
    citation_kinds,
    document_language,
    expand,
    fold_glued_items,
    fold_items_of,
    fold_pinpoints,
    match_citation,
    roman_to_int,
    strip_determiner,
    transparent_kinds,
)
from .keyword import analyze, fold

# written citation word → canonical kind ("Art." and "Artikel" are both "article", "s" is "section"),
# and the kinds whose numbers are plain section numbers ("Rule 3.3.31" names the same thing as
# "3.3.31"; "reg. 5(1)(a)" of a statutory instrument is its section 5(1)(a)): the citation grammar's
KINDS = citation_kinds()
_TRANSPARENT = transparent_kinds()

_NUM = r"(?:\d+[A-Z]?(?:\.\d+[A-Z]?)*\.?|[IVXLCDM]+\b|[A-Z]\b)(?:\s?\([A-Za-z0-9]{1,5}(?:\.\d{1,2})?\))*"
_SUFFIXES = "|".join(SUFFIX_WORDS)  # "Art. 107quinquies", "article 24terbis": a Latin suffix of any length
_REF = re.compile(
    rf"(?P<kind>{citation_keyword_pattern()})?\s*"
    rf"(?P<num>(?<![\w.*-]){CODE_NUMBER}"  # L. 121-4, R*512-9-3: a French code's article number
    rf"|(?<=\s)(?:{ORDINAL_ONE})(?![\w-])"  # "Chapitre Ier", "Livre 1er"
    rf"|(?<=[\s.]){SLASH_NUMBER}"  # "Art. 24/1": an article a Belgian act inserted after article 24
    r"|(?<=[\s.])\d{1,5}(?:-\d{1,4}){1,4}(?![\w-])"  # "article 16-14" (one article of the Code civil, or a range)
    r"|\b(?:\d+[A-Za-z]?|[A-Z])(?:\.\d+[A-Za-z]?)+\b(?:\s?\([A-Za-z0-9]{1,5}(?:\.\d{1,2})?\))*"  # 4.2.1, 9.3.1B, A.6
    r"|\b\d+[A-Za-z]{0,3}(?:\s?\([A-Za-z0-9]{1,5}(?:\.\d{1,2})?\))+"  # 203(a)(1), 59A(1)(ba)
    rf"|(?<=[\s§¶])\d+(?:(?:{_SUFFIXES})+|[A-Za-z]{{0,3}})\b|\b[IVXLCDM]+\b|(?<=\s)[A-Z](?:\(\d{{1,3}}\)|\b)|^\d+[A-Za-z]{{0,3}}\b)",
    re.IGNORECASE,
)


def _norm_number(num: str, kind: str | None) -> str:
    code = code_number(num)
    if code:
        return code.lower()  # "L. 121-4" → "l121-4"
    num = re.sub(r"\s+", "", canonical_number(num)).rstrip(".").lower()
    if (
        kind
        and kind not in transparent_kinds()
        and not (len(num) == 1 and num not in "ivx")
        and (r := roman_to_int(num)) is not None
    ):
        return str(r)
    return num


def _roman_value(num: str, kind: str | None) -> str | None:
    """The arabic value of a roman container number (``IV`` of ``Article IV`` → ``4``), or None.
    A lone letter other than I, V, X is a letter (``Appendix C``, ``Part D``), not 100 or 500."""
    n = re.sub(r"\s+", "", num).rstrip(".").lower()
    if not kind or kind in transparent_kinds() or (len(n) == 1 and n not in "ivx"):
        return None
    r = roman_to_int(n)
    return str(r) if r is not None else None


def _is_specific(num: str) -> bool:
    return "." in num or "(" in num or code_number(num) is not None


def _kind(kind_text: str) -> str | None:
    """The canonical kind of a written citation word, accents kept or folded (``alinéa``, ``alinea``)."""
    kinds = citation_kinds()
    written = kind_text.lower().rstrip(".").strip()
    return kinds.get(written) or kinds.get(fold(kind_text).rstrip(".").strip())


def reference_keys(kind_text: str | None, num: str, enclosing: bool = False) -> list[str]:
    """Canonical keys for one reference, most specific first.

    A roman number keeps its own key first (``Article I`` → ``article i``, then ``article 1``),
    so a document that writes ``Article I`` answers ``Article I`` before another document's
    ``Article 1`` does; ``Article 1`` (key ``article 1``) still reaches ``Article I`` when no
    document has an ``Article 1``, since aliases index the arabic value as a second key.
    ``enclosing`` (a query's citation) adds the keys of the items enclosing a bracketed one after
    its own (``section 59A(1)(ba)`` → ``section 59a(1)``, ``section 59a``), so search answers as
    get-section does when the item is no section of its own; index keys never carry them (an item
    would collide with its parent)."""
    kind = _kind(kind_text) if kind_text else None
    roman = _roman_value(num, kind)
    if roman is not None:
        written = re.sub(r"[\s.]+", "", num).lower()
        return [f"{kind} {written}", f"{kind} {roman}"]
    n = _norm_number(num, kind)
    keys: list[str] = []
    if kind:
        keys.append(f"{kind} {n}")
    if code_number(num):  # a code's article number names one article alone ("L. 121-4")
        return [*keys, n]
    if kind in transparent_kinds() or kind is None:
        if _is_specific(n) or kind is not None:
            keys.append(n)
    elif kind in ("appendix", "annex") and re.fullmatch(r"[a-z]\.\d[\w.()]*", n):
        keys.append(n)  # "Appendix D.2" is section D.2 (RFC appendices number their sections so)
    if enclosing and n.endswith(")") and "(" in n and not num.strip().startswith("("):
        # "section 59A(1)(ba)" where no item (ba) is a section: the nearest enclosing item that is,
        # as get-section and cross-references resolve it ("section 59a(1)", then "section 59a")
        keys += [
            k for k in reference_keys(kind_text, re.sub(r"\s*\([^()]*\)$", "", num.strip()), True) if k not in keys
        ]
    return keys


# "recital (26)", "Rec. 26": how EU acts and commentaries cite recital 26
_RECITAL_FORMS = re.compile(r"\b(?:recitals?\s*\((?P<p>\d{1,3})\)|rec\.\s*(?P<d>\d{1,3})\b)", re.IGNORECASE)


def _recital_forms(query: str) -> str:
    """``recital (26)`` and ``Rec. 26`` written as ``recital 26``, the form the section aliases use."""
    return _RECITAL_FORMS.sub(lambda m: f"recital {m.group('p') or m.group('d')}", query)


def alias_keys(alias: str) -> list[str]:
    """Keys under which a section alias (``"Section 4.2"``, ``"Art. 17"``, ``"4.2"``) is indexed; a
    pinpoint word is read as its bracket (``"§ 7 Abs. 3"`` as ``"§ 7(3)"``: :func:`.grammar.fold_pinpoints`)."""
    a = _recital_forms(fold_pinpoints(fold_glued_items(fold_items_of(strip_determiner(alias.strip())))))
    cm = re.fullmatch(rf"(?:(?P<kind>[^\W\d]+)\.?\s+)?(?P<num>{CODE_NUMBER})", a)
    if cm and (not cm.group("kind") or _kind(cm.group("kind"))):
        return reference_keys(cm.group("kind"), cm.group("num"))
    m = re.fullmatch(
        r"(?P<kind>[^\d\s(]*?)\.?\s*(?P<num>(?:\d[\w.]*(?:-\d{1,4})*|[A-Za-z]\.\d[\w.]*|[IVXLCDMivxlcdm]+|[A-Za-z])(?:\s?\([A-Za-z0-9]{1,5}(?:\.\d{1,2})?\))*)\.?",
        a,
    )
    if not m or (not m.group("kind") and not (m.group("num")[0].isdigit() or _is_specific(m.group("num")))):
        return [f"alias:{fold(a)}"]
    kind_text = m.group("kind") or None
    if kind_text and _kind(kind_text) is None and re.fullmatch(r"[A-Z]{2,6}", kind_text) and "." in m.group("num"):
        kind_text = None  # a code's or rulebook's abbreviation before its dotted number: "NRS 1.130", "GEN 3.3.31"
    if kind_text and _kind(kind_text) is None:
        return [f"alias:{fold(a)}"]
    keys = reference_keys(kind_text, m.group("num"))
    n = _norm_number(m.group("num"), None)
    if not kind_text and n not in keys:
        keys.append(n)  # a bare alias such as "17" is indexed; bare queries only look it up when specific
    return keys


_QUALIFIED = re.compile(r"(?P<container>[^\W\d_]+\.?\s+[\w.]+),\s+(?P<item>\S.*)")


def qualified_alias_keys(alias: str) -> list[str]:
    """Extra exact-index keys of a qualified alias ``"Chapter III, Section 3"`` (a section whose
    number repeats in other containers, id ``chapter-iii/section-3``):

    * ``within:<item key>`` (``within:section 3``): what a bare citation ("Section 3") finds, so a
      search knows that number names several sections and lists them;
    * ``in:<container key>|<item key>`` (``in:chapter iii|section 3``, ``in:chapter 3|section 3``):
      what a citation naming both finds, in either order ("Chapter III, Section 3", "Section 3 of
      Chapter III"; see :func:`query_qualified_keys`).

    ``[]`` for an alias that is not "<container citation>, <citation>"."""
    m = _QUALIFIED.fullmatch(alias.strip())
    if not m:
        return []
    outer = [k for k in alias_keys(m.group("container")) if not k.startswith("alias:") and " " in k]
    inner = [k for k in alias_keys(m.group("item")) if not k.startswith("alias:")]
    if not outer or not inner:
        return []
    return [f"within:{k}" for k in inner] + [f"in:{o}|{i}" for o in outer for i in inner]


def query_qualified_keys(section_keys: list[list[str]]) -> list[str]:
    """The ``in:`` keys (:func:`qualified_alias_keys`) of each two neighbouring references of a
    query, either being the container: ``[["chapter iv", "chapter 4"], ["section 3", "3"]]`` →
    ``in:chapter iv|section 3``, ``in:chapter iv|3``, …, ``in:section 3|chapter iv``, …"""
    out: list[str] = []
    for a, b in itertools.pairwise(section_keys):
        out += [f"in:{o}|{i}" for outer, inner in ((a, b), (b, a)) for o in outer if " " in o for i in inner]
    return list(dict.fromkeys(out))


def query_section_keys(query: str) -> list[list[str]]:
    """Section references in a query: one key list (most specific first) per reference."""
    out: list[list[str]] = []
    # "Subsection 2d": 2(d); "subsection 2 of NRS 1.117": NRS 1.117(2) (grammar.fold_items_of)
    query = _recital_forms(fold_pinpoints(fold_glued_items(fold_items_of(query))))
    listed_to = 0  # the end of the last list or range read ("ss 10–12", "§§ 3, 4"): its members are read
    for m in _REF.finditer(query):
        if m.start() < listed_to:
            continue
        kind, num = m.group("kind"), m.group("num")
        if not kind and not _is_specific(num.replace(" ", "")):
            continue
        if kind is None and num.isalpha():
            continue
        if num in ("a", "i"):  # "schedule a new event", "part i think": the English words, not Schedule A
            continue
        keys = reference_keys(kind, num, enclosing=True)
        if keys:
            out.append(keys)
        listed = match_citation(query, m.start()) if kind else None
        if listed and listed[0].is_multiple:  # one reference per member, ranges filled in (grammar.expand)
            # "article 16-14", "article 16-1-1": one article of a code numbering so (its key above), never
            # a range (no range runs down or has three ends); "sections 10-12" may be either: the key
            # above, then every member of the range, the first one too
            hyphen = [int(p) for p in num.split("-")] if re.fullmatch(r"\d+(?:-\d+)+", num) else []
            if not hyphen or len(hyphen) == 2 and hyphen[0] < hyphen[1]:
                first = 0 if hyphen else 1
                out += [ks for c in expand(listed[0])[first:] if (ks := reference_keys(kind, c.unit.number))]
            listed_to = listed[1]
    return out


def _form_pattern(forms: tuple[str, ...]) -> str:
    """Alternation of the written ``forms`` (spaces: any whitespace), as whole words."""
    return "|".join(r"\s+".join(re.escape(w) for w in f.split()) for f in forms)


_CITING = citing_forms()
_WORDS_OF = r"(?:[\s-]*\b(?:{})\b['’]?)*\s*"  # "est-il", "l'article": hyphens and elisions join them
# a citing form right before a citation, only gap words between: "Which sections refer to (the) Section 5.3"
_CITING_BEFORE = re.compile(
    rf"(?<![\w-])(?:{_form_pattern(_CITING['before'])}){_WORDS_OF.format(_form_pattern(_CITING['gap']))}$",
    re.IGNORECASE,
)
# a participle right after a citation, only auxiliaries between: "Section 5.3 (is) referred to"
_CITED_AFTER = re.compile(
    rf"^(?P<aux>{_WORDS_OF.format(_form_pattern(_CITING['auxiliaries']))})(?:{_form_pattern(_CITING['after'])})(?![\w-])",
    re.IGNORECASE,
)
_AUXILIARY_BEFORE = re.compile(
    rf"(?<![\w-])(?:{_form_pattern(_CITING['auxiliaries'])})(?:\s+(?:the|la|le|l['’]|die|der|das))?\s*$", re.IGNORECASE
)
_OUTGOING = re.compile(rf"^\s*(?:{_form_pattern(_CITING['outgoing'])})\b", re.IGNORECASE)


def query_citing_keys(query: str) -> list[list[str]]:
    """The key lists (as :func:`query_section_keys` gives them) of the citations whose citers the
    query asks for: a citation right after a citing form of the grammar ("Which sections refer to
    Section 5.3?", "What cites Article 17?", "references to section 4") or right before a cited
    participle, with an auxiliary before the citation or between ("Where is Section 5.3 referred
    to?", "Section 4 is cited by which provisions?"), unless a word for the other direction and
    another citation follow it ("Section 5.3 referenced in Section 7" is what 7 cites). "What does
    Section 5.3 refer to?" asks what 5.3 cites, and names no citation here. ``[]`` when none."""
    if not _CITING["before"]:
        return []
    text = _recital_forms(fold_pinpoints(fold_glued_items(fold_items_of(query))))
    out: list[list[str]] = []
    for m in _REF.finditer(text):
        kind, num = m.group("kind"), m.group("num")
        if (not kind and not _is_specific(num.replace(" ", ""))) or (kind is None and num.isalpha()):
            continue
        if num in ("a", "i"):
            continue
        keys = reference_keys(kind, num, enclosing=True)
        if not keys:
            continue
        start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
        asks = bool(_CITING_BEFORE.search(text[:start]))
        after = _CITED_AFTER.match(text[m.end() :])
        if not asks and after:
            outgoing = _OUTGOING.match(text[m.end() + after.end() :])
            # "Section 5.3 referenced in Section 7": what Section 7 cites
            onward = outgoing is not None and bool(
                _REF.match(text[m.end() + after.end() + outgoing.end() :].lstrip() + " ")
            )
            auxiliary = bool(after.group("aux").strip()) or bool(_AUXILIARY_BEFORE.search(text[:start]))
            asks = not onward and auxiliary
        if asks:
            out.append(keys)
    return out


QUERY_FILLER = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these they "
    "this to was will with what which does do did say says said show shows tell me give text full read about see "
    "under per according where whole entire content contents".split()
)


# most words besides its citations a query may hold and still be "essentially the citation"
NAMES_SECTION_WORDS = 4


def query_names_section(query: str, max_other_words: int = NAMES_SECTION_WORDS) -> bool:
    """True when a query is essentially a section reference ("Section 4.2.1", "What does
    Article 17 say?", "Section 4.2 availability") rather than a question that mentions one in
    passing; only the former pins the named section first (a longer query that is a reference
    and the section's title pins it too: :func:`title_words`)."""
    return len(query_other_words(query)) <= max_other_words


def _fold_word(word: str) -> str:
    """A word as titles and queries are compared: case-folded, without a possessive or a plural -s."""
    w = word.casefold().removesuffix("'s").removesuffix("’s")
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def query_other_words(query: str) -> list[str]:
    """The query's words besides its section references, filler words and the names of the
    documents its references name, folded (:func:`_fold_word`): ``["administrative",
    "cooperation", "between", "member", "state"]`` for "Article 11 administrative cooperation
    between Member States". A document's name says where the section is, not what it is about:
    "HPKE Section 9.5 pre-shared key recommendations" has the other words of "Section 9.5
    pre-shared key recommendations" (the name is :func:`query_document_keys`'s)."""
    from ..structure.xrefs import referenced_document_names

    naming = {_fold_word(w) for name in referenced_document_names(query) for w in re.findall(r"[^\W\d_]+", name)}
    rest = _REF.sub(" ", _recital_forms(fold_pinpoints(fold_items_of(query))))
    return [
        w
        for w in (_fold_word(w) for w in re.findall(r"[^\W\d_]+", rest.lower()) if w not in QUERY_FILLER)
        if w not in naming
    ]


def title_words(titles: list[str]) -> set[str]:
    """The folded words of section titles (a chunk's parent chain), to compare with
    :func:`query_other_words`."""
    return {_fold_word(w) for t in titles for w in re.findall(r"[^\W\d_]+", t.lower())}


def term_key(term: str) -> str:
    """Exact-index key of a defined term."""
    return "term:" + re.sub(r"\s+", " ", fold(term).strip(" \"'‘’“”*?!.:;,"))


_ES_PLURAL = ("s", "x", "z", "ch", "sh")  # the endings whose plural adds -es (Box → Boxes; Time → Times is -s)


def singular_term_keys(term: str) -> list[str]:
    """Keys of the singular forms a plural (or possessive) ``term`` may stand for, by the English
    plural rule on its last word: ``-ies`` → ``-y`` (Parties → Party), ``-es`` → ``""`` after
    s, x, z, ch, sh (Boxes → Box, Branches → Branch), ``-s`` → ``""`` (Business Days → Business
    Day; not ``-ss``: Business stays), ``'s`` → ``""``. Only a last word of 4+ letters is inflected, so short words and abbreviations
    ("Fees" → "Fee" yes, "IPs" no) are not guessed at. Each key is only ever looked up among the
    terms a document defines, so a wrong candidate ("Licens") matches nothing."""
    key = term_key(term)
    head, _, last = key.removeprefix("term:").rpartition(" ")
    prefix = f"term:{head} " if head else "term:"
    if last.endswith(("'s", "’s")):  # a possessive: the word itself
        return [prefix + last[:-2]] if len(last) > 3 else []
    out = []
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", "")):
        stem = last[: -len(suffix)]
        if not last.endswith(suffix) or len(last) < 4 or (suffix == "s" and last.endswith("ss")):
            continue
        if suffix == "es" and not stem.endswith(_ES_PLURAL):
            continue
        out.append(prefix + stem + repl)
    return [k for k in dict.fromkeys(out) if k != key and len(k) > len(prefix) + 1]


@functools.lru_cache(maxsize=4096)  # called per hit per defined term of every answer
def term_pattern(term: str) -> str:
    """A regex (for case-folded text) matching ``term`` and its English plural or possessive, as
    whole words: ``Business Day`` also matches ``business days`` and ``business day's``; ``Party``
    matches ``parties``; ``Box`` matches ``boxes`` (-es only after s, x, z, ch, sh: ``Tim`` does not
    match ``times``). The inverse of :func:`singular_term_keys`."""
    t = re.escape(term.casefold())
    low = term.casefold()
    if len(low) >= 3 and low[-1] == "y" and low[-2] not in "aeiou":
        body = rf"{t[:-1]}(?:y|ies)"
    elif low.endswith(_ES_PLURAL):
        body = rf"{t}(?:es)?"
    else:
        body = rf"{t}s?"
    return rf"(?<!\w){body}(?:['’]s)?(?!\w)"


_DEFINITION_REQUEST = re.compile(
    r"^\s*(?:(?:what|who)\s+(?:is|are|does|do)\s+|define\s+|definition\s+of\s+|meaning\s+of\s+|"
    r"what\s+is\s+meant\s+by\s+)?(?:an?\s+|the\s+)?[\"“‘']?(?P<term>[^\"”’'?]{1,80}?)[\"”’']?"
    r"(?:\s+(?:mean|means|stand\s+for))?\s*\??\s*$",
    re.IGNORECASE,
)


def query_term_keys(query: str) -> list[str]:
    """Defined-term keys a query asks about: the whole query as a term ("Force Majeure Event")
    or the term of a definition request ("What does 'Fees' mean?", "definition of personal data").
    A term merely used inside a longer query is not a request for its definition (results carry
    the definitions of the terms they use anyway). A plural asks for the singular's definition too
    ("Business Days" → "Business Day": :func:`singular_term_keys`)."""
    terms = [query]
    m = _DEFINITION_REQUEST.match(query)
    if m and len(m.group("term").split()) <= 8:
        terms.insert(0, m.group("term"))
    keys = [term_key(t) for t in terms] + [k for t in terms for k in singular_term_keys(t)]
    return list(dict.fromkeys(keys))


def quoted_phrases(query: str) -> list[str]:
    """Phrases in straight or curly double quotes."""
    return [p.strip() for p in re.findall(r"[\"“]([^\"”]{2,200})[\"”]", query) if p.strip()]


_BACKTICKED = re.compile(r"`([^`\n]{2,100})`")
# Ticket-style ids: a letter run and a number joined by hyphens (REQ-0042, CVE-2021-44228, BEA-ESS-001).
_TICKET_ID = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*-\d+[A-Za-z0-9]*(?![\w-])")
_BARE_NAME = re.compile(r"(?<![\w.:])[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*(?P<call>\(\))?")


def _is_identifier(name: str, called: bool) -> bool:
    if called or "::" in name:
        return True
    if "." in name:  # os.path.join, but not e.g / i.e
        return all(len(p) >= 2 for p in name.split("."))
    # camelCase needs two lowercase letters before a capital: getTarget, isValid; not iPhone, mRNA
    return "_" in name or re.search(r"[a-z]{2}[A-Z]", name) is not None or re.search(r"[A-Za-z]\d", name) is not None


def query_identifiers(query: str) -> list[str]:
    """Code identifiers and code spans a query names, to be matched verbatim: text in backticks
    (`` `issue92()` ``), and bare names that cannot be English words — camelCase
    (``getTarget``, ``HashBuilder``), snake_case (``TEST_VECTORS``), letters followed by digits
    (``sha256``, ``BRCA1``), qualified names (``os.path.join``, ``Foo::bar``), calls (``get_path()``)
    and ticket-style ids (``REQ-0042``, ``CVE-2021-44228``: letters and a number joined by hyphens), so a
    bare ``REQ-0042`` is matched verbatim as its quoted form is, and ranks above ``REQ-0043``.
    A trailing ``()`` is dropped, so a call matches the name wherever it appears. A lowercase
    name that analyses to one plain word (``run()``, `` `__init__` ``, `` `the` ``) is left out:
    the index cannot tell it from the English word, so BM25 and the dense search handle it."""
    out = [m.group(1).strip().removesuffix("()") for m in _BACKTICKED.finditer(query)]
    rest = _BACKTICKED.sub(" ", query)
    out += [m.group(0) for m in _TICKET_ID.finditer(rest) if re.search(r"[A-Z]", m.group(0))]
    rest = _TICKET_ID.sub(" ", rest)
    out += [
        m.group(0).removesuffix("()")
        for m in _BARE_NAME.finditer(rest)
        if _is_identifier(m.group(0).removesuffix("()"), bool(m.group("call")))
    ]
    return list(dict.fromkeys(x for x in out if _matchable(x)))


def _matchable(name: str) -> bool:
    tokens = analyze(name)
    if len(tokens) != 1:
        return len(tokens) > 1
    # One token: run(), `__init__` or `make` could be English words; toJSON, isNaN, sha256 cannot.
    return not (tokens[0].isalpha() and name.strip("_").isalpha() and name.strip("_").islower())


def value_key(value: str) -> str:
    """Exact-index key of a record id or metadata value."""
    return "value:" + re.sub(r"\s+", " ", fold(value).strip())


# ------------------------------------------------------------------ documents named by references
def document_key(name: str) -> str:
    """Exact-index key of a document name (``GPL``, ``RFC 5246``, a title): ``doc:<folded name>``.
    The first chunk of each document carries one per name :func:`document_name_keys` gives."""
    from ..structure.xrefs import fold_document_name

    return "doc:" + fold(fold_document_name(name))


def document_name_keys(title: str, doc_key: str) -> list[str]:
    """Exact-index keys of every name a document is cited by (title, acronyms, ``RFC 5246``, stem)."""
    from ..structure.xrefs import document_names

    return list(dict.fromkeys(document_key(n) for n in document_names(title, doc_key)))


def kind_key(kind: str) -> str:
    """Exact-index key of a kind of document (``agreement``): ``kind:agreement``. The first chunk of
    each document carries one per kind it is (:func:`~docstrata.structure.xrefs.document_kinds`)."""
    return "kind:" + fold(kind)


KIND_LIMIT = 3  # documents read per kind: with the citing one left out, two or more others name none


def kind_holders(store, kinds: list[str]) -> dict[str, list[str]]:
    """``{kind: [doc_key, …]}``: the documents ``store`` holds of each kind (at most
    :data:`KIND_LIMIT`, enough to tell one from several), one exact-index look-up."""
    kinds = list(dict.fromkeys(k for k in kinds if k))
    if not kinds:
        return {}
    found = store.exact_lookup([kind_key(k) for k in kinds], limit=KIND_LIMIT)
    return {k: list(dict.fromkeys(_doc_of(cid) for cid in found.get(kind_key(k), []))) for k in kinds}


def kind_document(holders: list[str], citing: str) -> str | None:
    """The one document of ``holders`` (the documents of a kind) other than ``citing``, or ``None``."""
    others = [d for d in holders if d != citing]
    return others[0] if len(others) == 1 else None


def query_document_keys(query: str) -> list[str]:
    """Keys of the documents a query's section references name: ``section 9 of the GPL`` →
    ``doc:gpl``, ``RFC 5246 section 6.2`` → ``doc:rfc 5246``, ``Art. 12 GDPR`` → ``doc:gdpr``."""
    from ..structure.xrefs import referenced_document_names

    return list(dict.fromkeys(document_key(n) for n in referenced_document_names(query)))


def _doc_of(chunk_id: str) -> str:
    return chunk_id.rpartition("#")[0]


def _target_keys(target: str) -> list[str]:
    """Exact keys of a normalised reference target: ``article-12`` → ``article 12``; ``6.2`` → ``6.2``;
    a unit of a container (``schedule-27/15(2)``: paragraph 15(2) of Schedule 27) the container's
    qualified keys (``in:schedule 27|15(2)``, then ``in:schedule 27|15``), never the bare number (the
    body's section 15 is another provision)."""
    container, _, item = target.rpartition("/")
    outer = container.split("/")[-1]
    if container and re.sub(r"-[0-9a-z]+$", "", outer) in back_matter_prefixes():
        if outer in back_matter_prefixes():
            return []  # "schedule/4" of another Act: its only Schedule's paragraph, cited by no key of its own
        words = outer.replace("-", " ")
        head = re.sub(r"\(.*$", "", item)
        return list(
            dict.fromkeys(
                k
                for unit in dict.fromkeys([item, head])
                for k in qualified_alias_keys(f"{words}, Section {unit}")
                if k.startswith("in:")
            )
        )
    last = target.split("/")[-1]
    m = re.match(r"^([a-z]+)-(.+)$", last)
    if m and m.group(1) in citation_kinds():
        return reference_keys(m.group(1), m.group(2))
    return reference_keys("section", last)


def pinpoint_enclosed(target: str, section_id: str) -> bool:
    """Whether a reference to ``target`` (``article-25(6)``) resolved to ``section_id``, a section
    enclosing it (``article-25``), because the pinpoint is no section of its own there."""
    t, s = target.rsplit("/", 1)[-1], section_id.rsplit("/", 1)[-1]
    return t != s and t.startswith(s + "(")


def _held(chunk, target: str) -> str:
    """The section of ``chunk`` a reference to ``target`` (``11.2(b)``) names: the one so numbered
    when the chunk holds it (``metadata["sections"]``), else the chunk's own section."""
    tail = target.rsplit("/", 1)[-1]
    held = [chunk.section_id, *chunk.metadata.get("sections", ())]
    return next((sid for sid in held if sid.rsplit("/", 1)[-1] == tail), chunk.section_id)


def resolve_cross_references(store, chunks: list) -> dict[str, list[dict]]:
    """Each chunk's cross-references as an agent follows them: ``{chunk_id: [{text, target,
    target_document, target_section_id, resolved}]}``, plus ``"enclosing": True`` when the
    reference's pinpoint is no section of its own (``Article 25(6)`` where 25 has no numbered
    paragraphs) and ``target_section_id`` is the section that holds it.

    A reference resolved inside its own document (at ingest) gets that document's key; one that
    names another document (``section 9 of the GPL``) is resolved here against the documents
    ``store`` holds: the document whose name key (``doc:gpl``) matches, then the first chunk of
    that document under the reference's section key, whose ``section_id`` is the target. Two
    batched exact-index look-ups and one chunk fetch per call, whatever the number of chunks.
    """
    from ..structure.xrefs import kind_of_name

    # every reference naming a document, also one resolved at ingest: a second document so named held
    # since makes it name none (never a guess), the parent ingested since makes it name that one
    pending = [(c, x) for c in chunks for x in c.cross_references if x.document]
    docs_of_name: dict[str, list[str]] = {}
    holders: dict[str, list[str]] = {}
    section_of: dict[tuple[str, str], str] = {}

    def candidates(x, citing: str) -> list[str]:
        """The documents held that ``x.document`` may name, never the citing one (a cover page titled
        like its agreement): those of that name, or of that kind for a kind word alone (``Agreement``)."""
        kind = kind_of_name(x.document)
        held = holders.get(kind, []) if kind is not None else docs_of_name.get(document_key(x.document), [])
        return [d for d in held if d != citing]

    def named(x, citing: str) -> str | None:
        """The one document ``x.document`` names (:func:`candidates`), ``None`` when none or several are."""
        found = candidates(x, citing)
        return found[0] if len(found) == 1 else None

    if pending:
        names = list(dict.fromkeys(document_key(x.document) for _, x in pending))
        found = store.exact_lookup(names, limit=20)
        for key in names:
            docs_of_name[key] = list(dict.fromkeys(_doc_of(cid) for cid in found.get(key, [])))
        holders = kind_holders(store, [kind_of_name(x.document) or "" for _, x in pending])
        wanted = [(doc, x.target) for c, x in pending if (doc := named(x, c.doc_key))]
        keys = list(dict.fromkeys(k for _, t in wanted for k in _target_keys(t)))
        hits = store.exact_lookup(keys, limit=100) if keys else {}
        first: dict[tuple[str, str], str] = {}
        for doc, target in wanted:
            for k in _target_keys(target):
                in_doc = [cid for cid in hits.get(k, []) if _doc_of(cid) == doc]
                if in_doc:
                    first[(doc, target)] = min(in_doc, key=lambda cid: int(cid.rpartition("#")[2] or 0))
                    break
        got = {c.chunk_id: c for c in store.get_chunks(list(dict.fromkeys(first.values())))} if first else {}
        # the pinpoint itself when the chunk holds it as a section ("11.2(b)" in the chunk opening at 11.2)
        section_of = {dt: _held(got[cid], dt[1]) for dt, cid in first.items() if cid in got}
    out: dict[str, list[dict]] = {}
    for c in chunks:
        items = []
        for x in c.cross_references:
            doc, sid = x.target_document, x.section_id
            note = ""
            if x.document:
                doc = named(x, c.doc_key)
                sid = section_of.get((doc, x.target)) if doc else None
                others = candidates(x, c.doc_key)
                if len(others) > 1:  # never a guess among them
                    what = "of that kind" if kind_of_name(x.document) else "so named"
                    note = f"'{x.document}' names no one document: several held are {what} ({', '.join(others[:3])})"
                elif getattr(x, "amended", False) and not doc:
                    # "(c) in subsection (3)—" under "The Sentencing Code is amended as follows": the Code's, never ours
                    note = (
                        f"a provision ({x.target}) of {x.document}, which this text amends; "
                        f"{x.document} is not among the documents held"
                    )
            elif sid and not doc:
                doc = c.doc_key
            item = {
                "text": x.text,
                "target": x.target,
                "target_document": doc,
                "target_section_id": sid,
                "resolved": bool(doc and sid),
            }
            if note:
                item["note"] = note
            if sid and pinpoint_enclosed(x.target, sid):
                item["enclosing"] = True
            items.append(item)
        out[c.chunk_id] = items
    return out


def chunk_exact_keys(
    chunk,
    doc_title: str,
    doc_key: str,
    kinds: list[str] | tuple[str, ...] = (),
    names: list[str] | tuple[str, ...] = (),
) -> list[tuple[str, int]]:
    """The exact-index keys of one document chunk at ingest, as ``(key, rank)`` pairs, deduplicated
    in order: for the first chunk (ordinal 0) the document's name keys (:func:`document_name_keys`,
    rank 0: "section 9 of the GPL" finds it by any name it is cited by), the keys of the ``kinds``
    of document it is (:func:`kind_key`: "the Agreement" of a SOW finds the one agreement held) and
    of the ``names`` it defines as itself (``Framework Terms``:
    :func:`~docstrata.structure.xrefs.self_defined_names`); each alias's keys
    (:func:`alias_keys`, ranked by position) and qualified keys (:func:`qualified_alias_keys`,
    rank 2: "Section 3" of Chapter III); its defined terms (:func:`term_key`, rank 1); and the
    sections it cites (:func:`~docstrata.citers.citation_keys`, rank 3: "cited by" read backwards)."""
    from ..citers import citation_keys

    keys: list[tuple[str, int]] = []
    if chunk.ordinal == 0:
        keys += [(k, 0) for k in document_name_keys(doc_title, doc_key)]
        keys += [(kind_key(k), 0) for k in kinds]
        keys += [(document_key(n), 0) for n in names]
    # aliases read in the document's language: a French "Section 3" is a division, not section 3
    with document_language(chunk.metadata.get("language")):
        for alias in chunk.aliases:
            for j, key in enumerate(alias_keys(alias)):
                keys.append((key, j))
            keys += [(key, 2) for key in qualified_alias_keys(alias)]
        keys += [(term_key(t), 1) for t in chunk.definitions]
        keys += [(k, 3) for k in citation_keys(chunk)]
    return list(dict.fromkeys(keys))


def resolve_external_references(store, chunks: list) -> None:
    """In place, at ingest: the cross-references of ``chunks`` that name another document get the
    ``target_document`` and ``section_id`` :func:`resolve_cross_references` finds among the documents
    ``store`` holds so far (searches resolve again, so a document ingested later is found then)."""
    external = [c for c in chunks if any(x.document for x in c.cross_references)]
    resolved = resolve_cross_references(store, external) if external else {}
    for c in external:
        for x, r in zip(c.cross_references, resolved[c.chunk_id]):
            x.target_document, x.section_id = r["target_document"], r["target_section_id"]


def record_exact_keys(chunk) -> list[tuple[str, int]]:
    """The exact-index keys of one record chunk: its id (rank 0) and each metadata value of at most
    200 characters (rank 1), folded by :func:`value_key`, deduplicated in order."""
    keys = [(value_key(chunk.chunk_id), 0)]
    keys += [(value_key(val), 1) for val in chunk.metadata["fields"].values() if val and len(val) <= 200]
    return list(dict.fromkeys(keys))
