"""The names a document is called by, read at ingest from its title, text and file name.

A question often names the document it is about: "section 10 Contracts Act 1950", "Consider the
Non-Disclosure Agreement between CopAcc and ToP Mentors; …", "Consider "Fiverr"'s privacy
policy; …", "in the GDPR". :func:`document_names` collects, with no LLM, what such a question
can call the document, most specific first, for :mod:`docstrata.query_scope` to find in queries:

* the **title** (from the converter's section tree) and its head before a ``,`` ``:`` ``;`` ``(``
  or dash ("Apache License, Version 2.0" → "Apache License");
* **short titles** the text declares: "This Act may be cited as the Bank of Canada Act", "… shall
  be cited as …", "the short title of this Act is …" (the first two declarations in the text's
  first :data:`SHORT_TITLE_CHARS` characters: a statute that amends others cites their short titles later);
  a quoted one whole ("the 'Success and Opportunity through Quality Charter Schools Act'"), one a PDF
  wraps across lines whole ("… the Personal Data Protection\nAct 2010"), one followed by "and shall
  come into operation …" without that;
* **parties** of a contract preamble: "… by and between Bosch Automotive Service Solutions Inc.,
  a Delaware corporation, … and CopAcc, …" → "Bosch Automotive Service Solutions Inc.", "CopAcc"
  (the first "between" in the first :data:`PREAMBLE_CHARS` characters whose sentence says an
  agreement is made — "agreement", "entered", "made", "executed"…, not "between Member States" —;
  each party cut at its first comma, parenthesis, quote or description);
* the **file stem** as words ("Fiverr.txt" → "Fiverr", "EFCAConfidentialityAgreement.txt" → "EFCA
  Confidentiality Agreement", ``%20`` decoded), also without its numeric ids ("NATS-IO-Petition-for-
  Cancellation-6216925.pdf" → "NATS IO Petition for Cancellation": a title that is a caption, "IN THE
  UNITED STATES PATENT & TRADEMARK OFFICE", leaves the file name to say what the document is) and the names the cross-reference resolver knows the
  document by (:func:`~docstrata.structure.xrefs.document_names`) that are not single words of the
  title or stem: initialisms (``PIPEDA``), an acronym in parentheses ("… Regulation (GDPR)"),
  ``RFC 5246`` — not "FSRA" of "FSRA Guiding Principles" nor "UAE" of "UAE_CRS_Guidance_Notes";
* the file name's **abbreviations spelled out** where the document spells them
  (:func:`acronym_expansions`: "a Contributor License Agreement (CLA)" in its opening text, or a
  title whose words' initials give it — "Personal Data Protection Act 2010" for ``my-pdpa-2010.pdf``):
  the stem with the abbreviation written out ("simplitest corporate Contributor License Agreement")
  and, when it stands for a kind of document, the abbreviation alone ("CLA", "PDPA"; three letters
  or more; not "FSRA" of "FSRA Guiding Principles" nor "CRS" of "UAE_CRS_Guidance_Notes").

How much of a name a question must hold to name the document is decided at query time, against
every other document's names (:mod:`docstrata.query_scope`); here nothing is weighted or dropped
beyond empty and over-long candidates.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from .models import DocumentTree
from .structure.grammar import is_unit_label

SHORT_TITLE_CHARS = 60_000  # where a statute declares its own short title (its first sections)
PREAMBLE_CHARS = 4_000  # where a contract names its parties
MAX_NAME_CHARS = 160
MAX_NAME_WORDS = 16
MAX_NAMES = 24

_MARKUP = re.compile(r"<[^>]+>|[*_`#>|]+|\[([^\]]*)\]\([^)]*\)")
_SHORT_TITLE = re.compile(
    r"(?:(?:may|shall|is to)\s+be\s+cited\s+(?:for\s+all\s+purposes\s+)?as|short\s+title\s+of\s+th(?:is|e)\s+"
    r"(?:Act|Law|Ordinance|Regulations?|Rules?|Order|Code)\s+(?:is|shall\s+be))\s+(?:the\s+)?"
    # a quoted title is taken whole ("the 'Success and Opportunity through Quality Charter Schools Act'");
    # an unquoted one ends at a stop, a line end, or an " and " that goes on to say something else
    # ("… Act 2010 and shall come into operation …"), not at the "and" of its own words
    r"(?:[\"“‘'](?P<quoted>[^\n\"“”‘’]{3,160}?)[\"”’']|"
    r"[\"“‘']?(?P<name>[^\n\"“”‘’.;:]{3,160}?)\s*(?:[\"”’']|[.;:,]\s|\.?$|\s+and\s+(?=(?:shall|comes?|will|may|is|are|applies|"
    r"extends?|takes?|has|have|the\s+provisions)\b)|\n))",
    re.IGNORECASE | re.MULTILINE,
)
# a line break inside a paragraph (a PDF's wrapped line: "… the Personal Data Protection\nAct 2010.")
_SOFT_BREAK = re.compile(r"[ \t]*(?<!\n)\n(?![ \t]*\n)[ \t]*")
_BETWEEN = re.compile(r"\b(?:by\s+and\s+)?between\b\s*:?\s*", re.IGNORECASE)
# where a party's name ends: its description, address, defined-term parenthesis, or role
_PARTY_END = re.compile(
    r"\s*(?:[,(\[\"“”;:]|\n\s*\n|\s-\s|\b(?:a|an)\s+(?=[A-Z]?[a-z])|\bhaving\b|\bwith\s+(?:its|a|an|offices?)\b|"
    r"\bwhose\b|\blocated\b|\bincorporated\b|\borgani[sz]ed\b|\bhereinafter\b|\bof\s+the\s+(?:one|other|first|"
    r"second)\b|\bresiding\b|\b(?:on|dated|effective)\s+(?:this|the|as)\b|\bdated\b|\bwhich\b|\bwho\b)",
    re.IGNORECASE,
)
# the words of a preamble's sentence before "between": the parties of an agreement, not "between Member States"
_MADE = re.compile(
    r"\b(?:agreement|contract|deed|memorandum|lease|made|entered|concluded|executed|signed)\b", re.IGNORECASE
)
_PARTY_SPLIT = re.compile(r"\s*(?:,\s*)?\b(?:and|AND|And)\b\s*:?\s*|\n\s*\n")


def _clean(text: str) -> str:
    text = _MARKUP.sub(lambda m: m.group(1) or " ", text or "")
    return " ".join(text.replace("\u00a0", " ").split()).strip(" ,.;:-–—\"'“”‘’()[]")


def _usable(name: str) -> bool:
    words = name.split()
    return (
        2 <= len(name) <= MAX_NAME_CHARS
        and 0 < len(words) <= MAX_NAME_WORDS
        and sum(c.isalnum() for c in name) >= 2
        and not is_unit_label(name)
    )


def short_titles(text: str) -> list[str]:
    """The short titles ``text`` declares for itself ("This Act may be cited as the Bank of Canada
    Act." → "Bank of Canada Act"), at most two, from its first :data:`SHORT_TITLE_CHARS` characters."""
    out = []
    for m in _SHORT_TITLE.finditer(_SOFT_BREAK.sub(" ", text[:SHORT_TITLE_CHARS])):
        name = _clean(m.group("quoted") or m.group("name"))
        if _usable(name):
            out.append(name)
        if len(out) == 2:
            break
    return out


_ABBREVIATIONS = frozenset("inc ltd co corp llc bhd pty plc nv sa bv ag gmbh no st mr ms dr jr sr u.s l.l.c".split())


def _sentence_end(text: str) -> int:
    """Where the preamble sentence at the start of ``text`` ends: the first full stop followed by a
    capital that does not close an abbreviation ("Inc.", "Ltd."), a blank line before a recital, or
    "WHEREAS" / "NOW, THEREFORE"; else the whole text."""
    for m in re.finditer(
        r"\.\s+(?=[A-Z(])|\n\s*\n(?=\s*(?:WHEREAS|RECITALS|BACKGROUND|NOW|\d))|\bWHEREAS\b|"
        r"\bNOW,?\s+THEREFORE\b",
        text,
    ):
        if m.group(0).startswith("."):
            word = re.search(r"([\w.]+)$", text[: m.start()])
            if word and word.group(1).casefold().replace(".", "") in {a.replace(".", "") for a in _ABBREVIATIONS}:
                continue
            if word and len(word.group(1)) == 1:  # an initial: "John A. Smith"
                continue
        return m.start()
    return len(text)


def _top_level_parts(text: str) -> list[str]:
    """``text`` cut at each " and " (or blank line) outside parentheses and quotes."""
    parts, depth, start = [], 0, 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "([“":
            depth += 1
        elif ch in ")]”" and depth:
            depth -= 1
        elif depth == 0:
            m = _PARTY_SPLIT.match(text, i)
            if m and m.end() > i and (i == 0 or not text[i - 1].isalnum()):
                parts.append(text[start:i])
                start = i = m.end()
                continue
        i += 1
    parts.append(text[start:])
    return parts


def contract_parties(text: str) -> list[str]:
    """The parties a contract preamble names after its first "between" in the first
    :data:`PREAMBLE_CHARS` characters of ``text``, each cut at its first comma, parenthesis, quote
    or description ("a Delaware corporation", "with offices at", "hereinafter"); at most four."""
    head = text[:PREAMBLE_CHARS]
    m = next(
        (m for m in _BETWEEN.finditer(head) if _MADE.search(re.split(r"\.\s|\n\s*\n", head[: m.start()])[-1])), None
    )
    if not m:
        return []
    rest = head[m.end() : m.end() + 1200]
    rest = rest[: _sentence_end(rest)]
    out = []
    for part in _top_level_parts(rest)[:4]:
        part = re.sub(r"^\s*(?:\(?\d\)|\(?[ivx]+\)|\(?[a-d]\))\s*", "", part)  # "(1) Acme Ltd"
        part = re.sub(r"^(?:the\s+)?(?:party\s+)?", "", part.strip(), flags=re.IGNORECASE)
        cut = _PARTY_END.search(part)
        name = _clean(part[: cut.start()] if cut else part)
        if _usable(name) and any(ch.isupper() for ch in name):
            out.append(name)
    return out


def _acronym_in(word: str, title: str) -> bool:
    """``word`` is written in the title as its acronym, in parentheses ("General Data Protection
    Regulation (GDPR)"); a capitalised word elsewhere in a title names something else ("FSRA Guiding
    Principles": the regulator)."""
    return re.search(rf"\(\s*{re.escape(word)}\s*\)", title, re.IGNORECASE) is not None


def _stem_words(doc_key: str, split: bool = True) -> str:
    """The file name without its extension as words: URL escapes decoded, ``-`` ``_`` ``.`` as
    spaces, camelCase cut ("EFCAConfidentialityAgreement" → "EFCA Confidentiality Agreement",
    "Standard%20NDA%20by%20Axial" → "Standard NDA by Axial")."""
    from urllib.parse import unquote

    stem = unquote(PurePosixPath(doc_key).name)
    stem = stem.rsplit(".", 1)[0] if "." in stem else stem
    stem = re.sub(r"[-_.]+", " ", stem)
    if split:
        stem = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})", " ", stem)
    return _clean(stem)


_NUMERIC_ID = re.compile(r"\s*\b\d{5,}\b")  # a registration, docket or file number: 6216925, 20230115


def _stem_without_ids(stem: str) -> list[str]:
    """The file name's words without its numeric ids (numbers of five digits or more: a
    registration, docket or record number, a date written 20230115): "NATS IO Petition for
    Cancellation 6216925" → "NATS IO Petition for Cancellation", a name whose words a question
    holds more of than of one with the number. Years and short numbers stay ("Act 2010", "vue
    tables 2"); nothing when no number goes, or when what is left is no name but one kind word
    ("terms 123456" → "terms": :data:`~docstrata.query_scope.KIND_WORDS`)."""
    from .query_scope import KIND_WORDS

    left = _clean(_NUMERIC_ID.sub("", stem))
    if left == stem or not left or (" " not in left and left.casefold() in KIND_WORDS):
        return []
    return [left]


_SMALL = frozenset("of and the for on in to a an &".split())
_ACRONYM_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
ACRONYM_CHARS = 8_000  # where a document spells out the abbreviations it is known by ("… Agreement (CLA)")


def _initials_match(words: list[tuple[str, int, int]], acronym: str) -> tuple[int, int] | None:
    """The (start, end) of the last stretch of ``words`` ((word, start, end), in text order) that
    ends with the last word and whose words' initials, small words ("of", "and") skipped inside,
    spell ``acronym`` (case-insensitive); ``None`` when none does."""
    want = acronym.casefold()
    got, i = "", len(words) - 1
    while i >= 0 and len(got) < len(want):
        w = words[i][0]
        if w.casefold() in _SMALL:
            if not got:
                return None
        else:
            got = w[0].casefold() + got
        i -= 1
    return (words[i + 1][1], words[-1][2]) if got == want and words[i + 1][0].casefold() not in _SMALL else None


def acronym_expansions(acronym: str, text: str, names: list[str]) -> list[str]:
    """What the abbreviation ``acronym`` (a word of the file name or title: "CLA", "pdpa") stands
    for in this document: the words before a parenthesised ``(CLA)`` in the text's first
    :data:`ACRONYM_CHARS` characters ("a Contributor License Agreement (CLA)"), or consecutive words
    of one of its ``names`` whose initials spell it ("Personal Data Protection Act 2010" → PDPA);
    hyphenated words count each part ("Non-Disclosure Agreement" → NDA). Small words inside do not
    count ("Bank of Canada" → BC); a two-letter abbreviation is only read from a parenthesis."""
    out: list[str] = []
    for m in re.finditer(rf"\(\s*[\"“]?{re.escape(acronym)}[\"”]?\s*\)", text[:ACRONYM_CHARS], re.IGNORECASE):
        head = text[max(0, m.start() - 200) : m.start()]
        head = re.split(r"[.;:!?()\n\"“”]\s", head)[-1]
        words = [(w.group(0), w.start(), w.end()) for w in _ACRONYM_WORD.finditer(head)]
        span = _initials_match(words, acronym) if words else None
        if span:
            out.append(head[span[0] : span[1]])
    if len(acronym) >= 3:
        for name in names:
            words = [(w.group(0), w.start(), w.end()) for w in _ACRONYM_WORD.finditer(name)]
            for end in range(len(words), 0, -1):
                span = _initials_match(words[:end], acronym)
                if span:
                    out.append(name[span[0] : span[1]])
                    break
    return [
        e
        for e in dict.fromkeys(_clean(e) for e in out)
        if _usable(e) and sum(len(w) > 1 for w in _ACRONYM_WORD.findall(e)) >= 2  # not "U.S.C"
    ]


def _expanded_names(stem: str, text: str, names: list[str]) -> list[str]:
    """The abbreviations among the file name's words that the document spells out
    (:func:`acronym_expansions`): the file name with each spelled out ("simplitest corporate
    Contributor License Agreement"); and, of three letters or more, the abbreviation alone
    upper-cased when it stands for the document's own kind ("CLA", "PDPA": its spelling out ends
    with "Agreement", "Act", … — :data:`~docstrata.query_scope.KIND_WORDS` — and the file name puts
    no other kind after it). An abbreviation of something else the document is about (a regulator,
    "FSRA" of "FSRA Guiding Principles"; a working group, "SFWG Guidance"; the standard a guidance
    explains, "CRS" of "UAE_CRS_Guidance_Notes") is no name of it alone."""
    from .query_scope import KIND_WORDS

    out: list[str] = []
    words = stem.split()
    for i, word in enumerate(words):
        if not (2 <= len(word) <= 8 and word.isalpha()):
            continue
        for expansion in acronym_expansions(word, text, names)[:1]:
            out.append(" ".join(words[:i] + [expansion] + words[i + 1 :]))
            kind_after = i + 1 < len(words) and words[i + 1].casefold() in KIND_WORDS  # "UAE CRS Guidance Notes"
            if len(word) >= 3 and expansion.split()[-1].casefold() in KIND_WORDS and not kind_after:
                out.append(word.upper())
    return out


def document_names(tree: DocumentTree, doc_key: str, text: str) -> list[str]:
    """Names a question may call the document by (see the module docstring): title, title head,
    short titles, contract parties, file stem, acronyms; as written (not folded), most specific
    first, without repeats (case-insensitive), at most :data:`MAX_NAMES`. ``text`` is the
    converted document's Markdown (or plain text); nothing is raised for a document without any."""
    from .structure.xrefs import document_names as cited_names

    title = _clean(tree.title)
    names = [title, _clean(re.split(r"[,:;(–—]| - ", title)[0])] if title else []
    plain = _MARKUP.sub(lambda m: m.group(1) or " ", text or "")
    names += short_titles(plain)
    names += contract_parties(plain)
    stem = _stem_words(doc_key)
    names += [stem, _stem_words(doc_key, split=False)]  # "Green Storm NDCSC" and "GreenStorm NDCSC"
    names += _stem_without_ids(stem)  # "NATS IO Petition for Cancellation" of "…-6216925.pdf"
    names += _expanded_names(stem, plain, [n for n in names if n != stem])  # "CLA" ↔ "Contributor License Agreement"
    title_words = set(re.findall(r"\w+", title.casefold())) | set(re.findall(r"\w+", stem.casefold()))
    for n in cited_names(tree.title, doc_key):  # initialisms ("GDPR", "PIPEDA"), "RFC 5246"; not words of title or stem
        if "/" in n or "." in n or len(n) < 3 or (" " not in n and n in title_words and not _acronym_in(n, title)):
            continue
        names.append(n)
    out: dict[str, str] = {}
    for n in names:
        if _usable(n):
            out.setdefault(n.casefold(), n)
    return list(out.values())[:MAX_NAMES]
