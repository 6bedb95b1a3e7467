"""Cross-references ("Section 4.2", "§ 203(a)", "Article 6(1)", "Rule 3.3.31", "GEN 3.3.31").

Entry points: :func:`extract_cross_references` (a whole tree) and
:func:`find_cross_references` (one passage, e.g. a chunk). Each reference's ``target`` is
normalised like section ids (DESIGN §5: ``4.2``, ``203(a)``, ``article-6(1)``) and resolved to
the finest section of the same document that exists: the exact id, else, for an item, the nearest
enclosing one (``article-6(1)`` → ``article-6``; a dotted number that does not exist, ``4.3.7``,
never resolves to ``4.3``), else the first section inside it
(``2.1.1`` → ``2.1.1(1)``). Further forms:

* compound references resolve inside their container: ``Article II, Section 3`` and
  ``Section 3 of Article II`` → section 3 *of* Article II (``article-ii/3``), not the first
  section 3 of the document;
* item references: ``Section 2(b)`` → item (b) of section 2; relative ones (``subsection (1)``,
  ``paragraph (b)(2)``) → the nearest enclosing section of the passage that has that item;
* items written before the unit they are items of (:func:`.grammar.items_of`): ``subsection 1 of
  NRS 1.468`` → ``1.468(1)``, ``paragraph (a) of subsection 2`` → item ``(2)(a)`` of the nearest
  enclosing section that has it; a subsection cited bare (``subsection 2``, a code numbering its
  subsections ``2.``) is that item of the section it stands in when the section has it;
* a document whose opening says which document it amends or belongs to (:func:`declared_parent`:
  ``additions to or modifications of the Bonterms Professional Services Agreement``) cites that
  one with each bare reference its own sections do not hold (``Delete Section 11.2(b)``);
* references that name a document (``section 9 of the GPL``, ``RFC 5246 section 6.2``,
  ``Art. 12 GDPR``, ``section 196 of the FSMR``) carry that name in ``document``; they resolve
  here only when the name is this document's own (:func:`document_names`), otherwise the tool
  resolves them against the other documents it holds. A name after the number is a document when
  it holds a kind word of the grammar (:func:`.grammar.document_words`: ``Section 4.e of the Trust
  Legal Provisions``, ``Section 19 of the UK Addendum``, ``section 3 of the United Kingdom’s European
  Union (Withdrawal) Act of 2018``, ``section 406 of the Robert T. Stafford Disaster Relief and
  Emergency Assistance Act``), an acronym or an instrument number; the kind word alone (``of the
  Agreement``) is this document only when it calls itself so (``this Agreement``, its title's word);
  a code named before the number (``California Civil Code section 1798.83``) and a title of the
  United States Code (``1 U.S.C. 211``, ``15 U.S.C. § 45``: ``title 1``, this document when it is
  that title) name one too;
* a citation followed by the act it belongs to, as the document language's pack writes it
  (:func:`.grammar.external_document`: ``l'article 1er, 7°, de l'arrêté royal du 8 janvier 1992``,
  ``les articles 6 à 14 de la loi du 17 avril 1878``, ``§ 13 des Bürgerlichen Gesetzbuchs``,
  ``Artikel 88 Absatz 2 der Verordnung (EU) 2016/679``) or preceded by it (Justel's ``L
  2007-05-15/50, art. 3``) names that act, for every member of its list or chain (``Artikel 56 Absatz 1
  in Verbindung mit Artikel 4 …``); ``de la présente loi``, ``dieses Gesetzes`` name this one;
* a dotted number without a citation word that is a software version or a network address
  (:func:`.grammar.version_or_address`: ``version 3.2.1``, ``BIND 9.0.0``, ``127.0.0.1``,
  ``192.168.1/24``), or has more levels than the document numbers its sections with, is no
  reference unless the document has a section so numbered; a document's own name before such a
  number (``BIND 9.18.41`` in the BIND manual) makes it a reference only to a section it has, and
  the name of a product the document gives versions of (``BIND versions 4.9 and 4.9.1``) none
  (``patched versions of BIND 4.9.5``);
* a title in italics or quotes after ``of`` names another act like a plain one (``Article 6 of the
  *Copyright Act 1968*``);
* in-page links ``[§5.3 Credential Selection](#user-mediated-selection)``, ``[Section 4.2](#tls-version)``
  resolve through the link target: an HTML id the converter recorded (``DocumentTree.anchors``:
  id → heading text), a heading slug (Python-Markdown / GitHub style), or an id that spells a
  number (``#section-4.2``); links to other files (``[x](../guide/config.md#site_name)``) name that
  file as ``target_document`` (path relative to the source root) with the fragment as target;
* a relative reference inside an amendment instruction (``(A) by striking, in the matter preceding
  paragraph (1)``; ``… is amended``) names an item of the amended provision, not of this
  document: it stays unresolved, unless it cites this Act itself (``… of this section``,
  ``as redesignated by clause (ii)``);
* recitals of an EU act: ``recital 26``, ``recitals (1) and 3`` → ``recital-26`` …;
* text on a Markdown heading line is a label, never a reference (``### Section 8`` does not
  refer to some other section 8);
* a number several parts hold (Exhibit A's and Exhibit B's ``3``, an Act's ``4.1`` and its
  Schedule 1's) names the section nearest the citing text (:meth:`_Resolver.nearest`): the
  citing exhibit's or schedule's own, else the main body's; a reference made in the main body
  never names back matter over a main-body section so numbered;
* a contents line (``1.1.  Roles .... 6``) lists a section, and is marked ``listing``; so is every
  reference made in a contents block of a section's text (a front page's ``Table of Contents`` line
  and the entries under it, an Act's ``CONTENTS``) and on a line ending in dot leaders and a page
  number: listings are never citations (``docstrata.citers`` gives them no "cited by");
* another instrument named by a grammar pack's short name (``article 6.1.b RGPD``, ``l'article 9 du
  RGPD``, ``Art. 6 Abs. 1 lit. b DSGVO``: :func:`.grammar.instrument_names`), by a name with a bracketed
  part of several words (``Regulation 3(1) of the Medicinal Products (Control of Manufacture)
  Regulations 2007``, ``Schedule 4 to the Health Insurance Act 1994``) names that instrument; the year
  ending such a name (``Regulations 2007``, ``Rules 1998``) is no reference; a name stops before a
  blank line followed by a labelled line (the next contents entry's ``4.``); an Act whose opening names
  several Acts it amends declares no one parent;
* a citation word is read only as a whole word (``PARTY``, ``THIRD-PARTY`` are no ``Part Y``), and in
  a line set in capitals it cites only before a number (``ANY PART A …`` of a disclaimer cites nothing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from types import MappingProxyType

from ..models import CrossReference, DocumentTree
from .grammar import (
    CODE_NUMBER,
    canonical_number,
    chain_words,
    code_number,
    current_language,
    document_language,
    document_words,
    ROMAN_PATTERN,
    contents_title_pattern,
    expand_numbers,
    external_document,
    instrument_kinds,
    instrument_name_re,
    instrument_names,
    external_document_before,
    item_words,
    pinpoints_end,
    strip_determiner,
    keyword,
    keywords,
    list_members,
    list_opener_words,
    list_words,
    pinpoint_tail,
    provision_words,
    range_words,
    SLASH_NUMBER,
    SUFFIX_WORDS,
    back_matter_prefixes,
    amendment_re,
    citation_key,
    names_instrument,
    parse_citation,
    version_or_address,
    version_words,
    xref_keyword_pattern,
    glued_item,
    items_of,
    parent_document_re,
    relative_words,
    self_parent_re,
    self_words,
)

# a French code's article number first ("L. 121-4", "R*512-9-3": grammar.CODE_NUMBER), a slash-inserted article
# ("l'article 216/1": grammar.SLASH_NUMBER), then the other shapes
_NUMBER = (
    rf"(?:{CODE_NUMBER}|{SLASH_NUMBER}|"
    + r"(?:[A-Z](?:\.\d{1,4}[A-Z]{0,2})+(?![\w.]*\d)|1(?:er|re|ère)(?![\w-])|[A-Z]?\d{1,5}(?![\d°])(?:[A-Z]{1,3}|[a-z](?![a-z]))?"
    + rf"(?:\s?(?:{'|'.join(SUFFIX_WORDS)})\b(?!\s*\d))?"
    + r"(?:\.\d{1,4}[A-Z]{0,2})*(?:\s?\((?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})(?:\.\d{1,2})?\))*)"
    + ")"
)
_ROMAN = rf"(?:{ROMAN_PATTERN}\b)"
_ITEM = r"(?:\((?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})(?:\.\d{1,2})?\)(?:\s?\((?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})(?:\.\d{1,2})?\))*)"
# a lone capital letter after the keyword: "Appendix C", "Schedule A" (kept only for lettered containers),
# also ending a sentence ("… are in Appendix A."), but not "Appendix A.1" (a number) or "A.B"
_LETTER = r"(?:[A-Z](?![\w'’-])(?!\.\w))"
# the citation grammar's cross-reference words (structure/grammar.py: Section, Art., Artikel, s, §§ …)
_KEYWORD = xref_keyword_pattern()
# list and range joins of the citation grammar ("and", "or", "to", "through", "bis", "à" …)
_JOINS = "|".join(re.escape(w) for w in (*list_words(), *range_words()))
# a range's dash: hyphen, en dash, or an em dash between spaces ("Sections D.4 — D.7", as the grammar reads ranges)
_SEP = rf"(?:\s*,\s*(?:(?:{'|'.join(re.escape(w) for w in list_words())})\s+)?|\s+(?:{_JOINS})\s+|\s*[-–]\s*|\s+—\s+)"
# a bracketed item goes on a list after a member ending in a bracket ("Sections 5.1(a), (b) and (c)") or after a
# list word or dash; a comma alone after a bare number opens the sentence's own enumeration ("… set forth in
# Exhibit B, (i) each Purchaser shall …"), no member of the list
_ITEM_SEP = rf"(?:(?<=\)){_SEP}|\s*,?\s+(?:{_JOINS})\s+|\s*[-–]\s*)"
# a list member's title in brackets, between two members ("Sections 5.4 (Usage Data), 8.4 (Disclaimers) and 9"):
# words with no figure, a line break but no blank line among them, never an item ("(a)", "(iv)")
_MEMBER_TITLE = r"(?:\s*\((?=[^()]*[A-Za-z]{3})(?![^()]*\n[ \t]*\n)[^()\d]{3,60}\))"
_TITLED = rf"(?:{_MEMBER_TITLE}{{1,2}}(?={_SEP}(?:{_NUMBER})))?"  # "12.1 (Payment) (for amounts then due), 12.2"
_KW_REF_RE = re.compile(
    # a word ends where its letters do: "PARTY", "Parts" are no "Part Y"
    rf"(?<![\w.]){_KEYWORD}(?:(?<![^\W\d_])|(?![^\W\d_]))\s*(?P<nums>(?:{_NUMBER}{_TITLED}|{_ROMAN}|{_ITEM}|{_LETTER})"
    rf"(?:{_SEP}(?!0\d)(?:{_NUMBER}{_TITLED}|{_ROMAN})|{_ITEM_SEP}{_ITEM})*)"
    r"(?:(?<=\))|(?![A-Za-z0-9]))"  # a number ends at a word's end: "s3p" of a base64 "s3pPLMBiT…" cites nothing
)
# "Article II, Section 3" / "Article II Section 3": a section inside a container
_INNER_AFTER_RE = re.compile(rf"^,?\s+{xref_keyword_pattern('inner')}\s*(?P<num>{_NUMBER}|{_ITEM})")
# the further members of a list or range of numbers inside one container, after its first: "paragraphs 1–2",
# "paragraphs 1, 2 and 4", "Abs. 1 und 2", "(1)–(2)" (read by _continued_members)
_MORE_MEMBER_RE = re.compile(
    rf"(?P<sep>\s*[-–]\s*|\s+(?:{_JOINS})\s+|\s*,\s*)(?P<num>\d{{1,3}}[a-z]?(?![\w.]*\d)(?![\w(])|{_ITEM})"
)
# "Section 3 of Article II" / "section 3 of this Article": a section inside a container named after it
_OUTER_AFTER_RE = re.compile(
    rf"^\s*(?:of|in|under)\s+(?:the\s+|this\s+)?{xref_keyword_pattern('outer')}\s+(?P<num>{_NUMBER}|{_ROMAN})"
)
# "paragraph 13 of schedule 8", "paragraphs 2 to 4 of the Schedule", "paragraph 4 of this Schedule": units of a
# back-matter container named after them, numbered or not (an Act's only Schedule is "the Schedule")
_BACK_OUTER_AFTER_RE = re.compile(
    r"^(?P<items>(?:\([0-9A-Za-z]{1,5}\))*)"  # items the number pattern leaves: "paragraph 2(5A) of Schedule 2"
    rf"\s*(?:of|in)\s+(?P<det>the\s+|this\s+)?{xref_keyword_pattern('outer')}"
    rf"(?:\s+(?P<num>{_NUMBER}|{_ROMAN}))?(?![\w-])"
)
# "the Schedule, paragraph 4", "Schedule para 4": an unnumbered back-matter container named right before them
_BACK_BEFORE_RE = re.compile(
    rf"(?:^|(?<=[\s(]))(?P<det>the\s+|this\s+|The\s+|This\s+)?{xref_keyword_pattern('outer')}\s*,?\s*$"
)
# a unit's number written bare, maybe with its items ("4", "13(2)", "2A(1)(b)"): a paragraph of a schedule
_BARE_UNIT_RE = re.compile(r"^\d{1,4}[A-Z]{0,3}(?:\(|$)")
# "Part V Division 1AA", "Buch 2 Abschnitt 8": a container inside a container named right before it
_INNER_CONTAINER_RE = re.compile(rf"^\s+{xref_keyword_pattern('outer')}\s+(?P<num>{_NUMBER}|{_ROMAN})")
# the keywords whose provisions are inserted with a slash ("Art. 24/1", "l'article 216/1")
_PROVISION_SLASH = frozenset({"article", "artikel"})
_CONTAINER_PREFIXES = {k.prefix for k in keywords().values() if k.prefix and k.rank < 5}  # article, part, teil …
# a code's or rulebook's abbreviation before a dotted number: "GEN 3.3.31", "NRS 1.130", "NRS 1.4695(2)"
_QUALIFIED_RE = re.compile(
    r"(?<![\w.])(?P<doc>[A-Z]{2,6})\s+(?P<nums>\d{1,3}(?:\.\d{1,4}[A-Z]?){1,4}(?![\d.]\d)(?:\(\w{1,4}\))*)"
)
# a section number as the source prints it after its code's abbreviation ("NRS 1.130": convert/html_sections.py)
_CODE_LABEL_RE = re.compile(r"^(?P<abbr>[A-Z]{2,6})\s+\d")
# a section of the United States Code cited by its title: "1 U.S.C. 211", "42 U.S.C. 1395m(n)", "15 U.S.C. § 45"; the
# title names the document ("title 1", as "section 112 of title 1" does): this one when it is that title
_USC = r"(?<![\w.])(?P<title>\d{1,2})\s+U\.\s?S\.\s?C\.(?:\s+App\.)?"
_USC_RE = re.compile(
    _USC + r"\s+(?P<nums>\d{1,5}[a-z]{0,2}(?:-\d{1,3})?(?:\((?:\d{1,3}|[a-z]{1,4}|[A-Z]{1,3})\))*)(?![\w-])"
)
_USC_BEFORE_RE = re.compile(_USC + r"\s*,?\s*$")
# a name written before a version word ("BIND version 9", "BIND versions 4.9 and 4.9.1"): a product
_PRODUCT_RE = re.compile(
    rf"(?<![\w.-])((?-i:[A-Z])[A-Za-z0-9]{{1,11}})\s+(?:{'|'.join(re.escape(w) for w in version_words())})\s*\d",
    re.IGNORECASE,
)
_BARE_RE = re.compile(
    r"(?<![\w.(])(?P<nums>[A-Z]?\d{1,3}[A-Z]?(?:\.\d{1,3}[A-Z]{0,2}){2,5}(?:\((?:\d{1,3}|[a-z]{1,4})\))*)(?![\w.]*\d)"
)
_ONE_NUMBER = rf"{_NUMBER}|{_ROMAN}|{_ITEM}|{_LETTER}"  # one member of a list or range (grammar.list_members)
# in a French document a plain hyphenated number is one article ("l'article 16-14" of the Code civil), not a range
_ONE_NUMBER_FR = rf"\d{{1,5}}(?:-\d{{1,4}})+(?![\w-])|{_ONE_NUMBER}"
# an EU instrument's number: "(EU) 2016/679", "No 1025/2012", "95/46/EC"
_INSTRUMENT_NO = r"(?:\((?:EU|EC|EEC|Euratom|EURATOM)\)\s*)?(?:No\.?\s*)?\d{1,4}/\d{1,4}(?:/[A-Z]{2,8})?"
# a name after the cited number: "of the GNU General Public License", "of Regulation (EU) 2016/679", "of our
# [Terms of Service](…)", "of the Robert T. Stafford Disaster Relief and Emergency Assistance Act", "of the
# Medicare, Medicaid, and SCHIP Extension Act of 2007", "of the Vision 100—Century of Aviation Reauthorization
# Act", "of the United Kingdom’s European Union (Withdrawal) Act 2018"; a lettered pinpoint may stand between
# ("Section 4.e of the Trust Legal Provisions"); a bracketed part of the name may hold several words ("of the
# Health (Pricing and Supply of Medical Goods) Act 2013", "of the Medicinal Products (Control of Manufacture)
# Regulations 2007"); a schedule is one "to" its Act ("Schedule 4 to the Health Insurance Act 1994"); a short name
# may open with its year ("of the 1974 Act", "of the 1999 Regulations", as UK instruments define them)
_EXTERNAL_RE = re.compile(
    r"^(?:\.[a-z](?!\w))?\s*(?:of|in|under|to)\s+(?P<name>(?:the\s+|this\s+|these\s+|that\s+|those\s+|our\s+|its\s+|their\s+)?"
    r"[*_\"“\[]{0,3}(?:(?:1[5-9]|20)\d\d\s+(?=[A-Z]))?[A-Z][A-Za-z]*(?:\d{1,5}\b|['’]s)?"
    rf"(?:\s+(?:{_INSTRUMENT_NO}(?![\w/])|[A-Z]\.(?=\s+[A-Z][a-z])|[A-Z][A-Za-z]*(?:['’]s)?|of(?:\s+the)?|and|No\.|etc\.|"
    r"\d{1,5}(?![A-Za-z0-9/])|\([A-Z][\w.]*(?:\s+(?:[A-Z][\w.]*|of|and|the|for|on|in|to))*\))|[—–-][A-Z][A-Za-z]*|"
    r",\s+(?:and\s+)?[A-Z][A-Za-z]*)*)"
)
# a capitalised word that opens a sentence or a clause, never a word of a name ("Under California Civil Code …")
_NOT_NAME = r"(?!(?:The|This|These|That|Under|See|In|Of|Per|By|With|And|Or|If|As|For|To|Pursuant)\b)"
# the name of an instrument cited before the reference: "Regulation (EU) 2016/679 Article 6",
# "Directive 95/46/EC, Article 2", "Privacy Act 1988 section 5", "California Civil Code Section 1798.83"
_INSTRUMENT_BEFORE_RE = re.compile(
    rf"(?P<name>\b(?:Regulation|Directive|Decision)\s+{_INSTRUMENT_NO}|"
    r"\b[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+){0,5}\s+(?:Act|Law|Code|Ordinance)\s+\d{4}(?:\s+\([A-Z][\w.]*\))?|"
    # a code cited by its name without a year: "California Business and Professions Code Section 22581",
    # "Internal Revenue Code Section 409A" (not "the Code", a name the document may give itself)
    rf"\b{_NOT_NAME}[A-Z][A-Za-z]+(?:[ \t]+(?:{_NOT_NAME}[A-Z][A-Za-z]+|and|of)){{0,5}}[ \t]+Code)"
    r"\s*,?\s*$"
)
_INSTRUMENT_AFTER_RE = re.compile(r"\s*(?:No\.?\s*)?\d{1,4}/\d|/\d")
# a blank line before a line that opens with a label or markup (a numbered line, a heading, a table row, a list
# item): a name written before it ends there ("… of Act of 1970" / "" / "4. Menopause products …"); a name a
# page or heading break splits goes on ("section 43A of the Employment" / "" / "Rights Act 1996.")
_BLANK_LINE_RE = re.compile(r"\n[ \t]*\n(?=[ \t]*(?:[#|>*+-]|\(?\d|\(?[a-z]{1,4}\)|[A-Z]\.))")
# an instrument's short name of the grammar packs (grammar.instrument_names) right after the cited number and its
# pinpoints ("article 6.1.b RGPD", "Art. 6 Abs. 1 lit. b DSGVO", "Article 6(1)(b) of the GDPR", "art. 1240 du
# C. civ."), or right before it ("GDPR Article 6", "DSGVO Art. 6")
_SHORT_NAME_AFTER_RE = re.compile(
    r"^\s*,?\s*(?:(?:of|in|under|du|de\s+la|de\s+l['’]|des|der|dem)\s+)?(?:(?:the|le|la|die|der)\s+|l['’])?"
    + instrument_name_re().pattern
)
_SHORT_NAME_BEFORE_RE = re.compile(instrument_name_re().pattern + r"[ \t]+$")
# a kind word of the grammar (grammar.document_words: Act, Regulation, License, Agreement, Provisions, Terms …)
# in a name: it names a document
_INSTRUMENT_WORDS_RE = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(w[:1].upper() + w[1:-1]) + (r"(?:y|ies)" if w.endswith("y") else re.escape(w[-1]) + r"s?")
        for w in sorted(document_words(), key=len, reverse=True)
    )
    + r")\b"
)
# "this Regulation", "these Regulations", "the present Agreement": what a document calls itself
_SELF_NAME_RE = re.compile(r"\b(?:[Tt]his|[Tt]hese|the present)\s+([A-Z][a-z]+)")


def _provision_prefixes() -> set[str]:
    """Id prefixes of the words the document's language cites a bare-numbered provision by
    (French ``article``: :func:`.grammar.provision_words`)."""
    return {k.prefix for w in provision_words() if (k := keyword(w)) is not None and k.prefix}


def _kind_of(kw: str) -> str | None:
    """The canonical kind of the cross-reference word ``kw`` (``Subsection`` → ``subsection``)."""
    k = keyword(kw)
    return k.kind if k else None


def _keyword_prefix(kw: str) -> str | None:
    """``Articles`` → ``article``, ``Artikel`` → ``artikel`` (the id prefix of the citation grammar);
    ``Section``/``§``/``Rule``/``s`` → ``""``; relative kinds (``paragraph``, ``subsection``) → ``None``."""
    k = keyword(kw)
    if k is None:
        return ""
    return None if "relative" in k.roles else k.prefix


def _normalise(number: str, prefix: str) -> str:
    code = code_number(number)
    if code:
        return code  # "l'article L. 121-4" → L121-4, whatever the keyword
    n = re.sub(r"\s+", "", canonical_number(number)).rstrip(".")
    if prefix and current_language() == "fr" and re.fullmatch(r"\d{1,5}(?:-\d{1,4})+", n):
        return f"{prefix}-{n}"  # "l'article 16-14" of the Code civil: one article
    if prefix:
        head = re.match(r"^([^.(]+)(.*)$", n)
        return f"{prefix}-{head.group(1).lower()}{head.group(2)}"
    return n


# the grammar's kind words (grammar.document_words) and their plurals, and what any file may be called: a name
# of these alone is generic, every document of that kind calls itself so
_GENERIC_NAMES = frozenset(
    {w for k in document_words() for w in (k, k[:-1] + "ies" if k.endswith("y") else k + "s")}
    | {"document", "readme", "index"}
)
_SMALL_WORDS = frozenset("of and the for on in to a an".split())
_CAPS_STOP = frozenset(
    "MUST SHALL SHOULD MAY NOT REQUIRED RECOMMENDED OPTIONAL AND OR THE OF TO IN FOR ON AT BY IS ARE BE NO "
    "AS AN IF IT ANY ALL WITH FROM THIS THAT SEE ALSO NOTE".split()
)


def fold_document_name(name: str) -> str:
    """Canonical form of a document name: ``the  GPL`` → ``gpl``, ``RFC5246`` → ``rfc 5246``."""
    n = " ".join(name.replace(" ", " ").split()).strip(" ,.;:()[]\"'“”‘’")
    n = re.sub(r"^(?:the|this)\s+", "", n, flags=re.I)
    n = re.sub(r"\b(rfc)\s*-?\s*(\d{1,5})\b", r"\1 \2", n, flags=re.I)
    short = instrument_names().get(n) or instrument_names().get(n.upper())
    if short:  # "GDPR", "RGPD", "DSGVO": the instrument's own citation (the grammar packs' short names)
        n = short
    # "Regulation (EU) No 2016/679", "Règlement (UE) 2016/679", "Verordnung (EU) 2016/679" → "regulation
    # 2016/679": the number names the instrument, in any language (grammar.instrument_kinds)
    kinds = instrument_kinds()
    n = re.sub(
        rf"\b({'|'.join(map(re.escape, kinds))})\s+(?:\((?:eu|ec|eec|euratom|ue|ce|cee|eg|ewg)\)\s*)?"
        r"(?:no\.?\s*|n°\s*|nr\.\s*)?(\d{1,4}/\d{1,4}(?:/[a-z]{2,8})?)",
        lambda m: f"{kinds[m.group(1).lower()]} {m.group(2)}",
        n,
        flags=re.I,
    )
    return n.lower()


def document_names(title: str, doc_key: str) -> list[str]:
    """Names a document is cited by, folded (:func:`fold_document_name`), most specific first.

    From the title: the whole title, acronyms written in it (``GDPR``, ``(CCPA)``), the short form
    a title defines for the words before it with the words after it (``Cloud Native Computing
    Foundation ("CNCF") Charter`` → ``cncf charter``, and without the short form), initialisms of
    its capitalised words and of their tails (``General Data Protection Regulation`` → ``gdpr``;
    ``GNU General Public License`` → ``gpl`` too), ``RFC 5246``. From the doc key: ``RFC 5246``
    in ``rfc5246.txt``, the file stem's leading word (``gdpr.md``, ``gpl-3.0.txt`` → ``gpl``) and
    its words (``cncf-charter.md`` → ``cncf charter``).
    Generic words (``License``, ``Act``, ``Agreement``) alone are never names: every document of
    that kind calls itself that.
    """
    names: list[str] = []
    clean_title = re.sub(r"<[^>]+>|[*_`#]", " ", title or "")
    if clean_title.strip():
        names.append(fold_document_name(clean_title))
        names.append(fold_document_name(re.split(r"[,:;(–—]| - ", clean_title)[0]))  # "Apache License"
    short = re.search(r"\(\s*[\"“‘']?([A-Z][A-Za-z0-9&]{1,11})[\"”’']?\s*\)", clean_title)
    if short:  # 'Cloud Native Computing Foundation ("CNCF") Charter' is cited as "CNCF Charter"
        rest = clean_title[short.end() :].strip(" ,.;:")
        if rest and not re.search(r"[(,:;]", rest):
            names.append(fold_document_name(f"{short.group(1)} {rest}"))
            names.append(fold_document_name(f"{clean_title[: short.start()]} {rest}"))
    for m in re.finditer(r"\brfc\s*-?\s*(\d{1,5})\b", f"{clean_title} {doc_key}", re.I):
        names.append(f"rfc {int(m.group(1))}")
    for m in re.finditer(rf"\b(?:Regulation|Directive|Decision)\s+{_INSTRUMENT_NO}", clean_title):
        names.append(fold_document_name(m.group(0)))  # "Regulation (EU) 2016/679" → "regulation 2016/679"
    # "Règlement RGPD — Bertel", "GDPR Compliance Policy", "Plateforme RGPD-IA": a text about the instrument a pack names
    # ("RGPD", "GDPR"), not the instrument; neither its title nor its file name ("rgpd.md") names it so
    about = {
        fold_document_name(a)
        for a in instrument_names()
        if re.search(rf"(?<![^\W\d_]){re.escape(a)}(?![^\W\d_])", clean_title)  # "Plateforme RGPD-IA" too
        and fold_document_name(clean_title) != fold_document_name(a)
    }
    names += [
        a.lower()
        for a in re.findall(r"\b[A-Z][A-Z0-9]{1,7}\b", clean_title)
        if a not in _CAPS_STOP
        and not a.isdigit()
        and not re.fullmatch(r"[IVXLC]+", a)
        and fold_document_name(a) not in about
    ]
    words = [
        w
        for w in re.findall(r"[A-Za-z][\w'-]*", re.split(r"[,:;(–—]| - ", clean_title)[0])
        if w.lower() not in _SMALL_WORDS
    ]
    caps = [w for w in words if w[0].isupper()]
    if len(caps) == len(words) and len(caps) >= 3:
        names.append("".join(w[0] for w in caps).lower())
        if caps[0].isupper() and len(caps) >= 4:  # "GNU General Public License" → GPL
            names.append("".join(w[0] for w in caps[1:]).lower())
    stem = PurePosixPath(doc_key).name.split(".")[0]
    lead = re.split(r"[-_ ]", stem)[0]
    if (
        len(lead) >= 3
        and lead.isalpha()
        and lead.lower() not in _GENERIC_NAMES
        and fold_document_name(lead) not in about
    ):
        names.append(lead.lower())
    if stem and fold_document_name(stem) not in about:
        names.append(fold_document_name(stem.replace("_", " ")))
        names.append(fold_document_name(re.sub(r"[-_]+", " ", stem)))  # "cncf-charter.md": "the CNCF Charter"
    names.append(doc_key.lower())  # a link to the file itself: [x](../guide/config.md)
    return [n for n in dict.fromkeys(names) if n and n not in _GENERIC_NAMES]


def kind_of_name(name: str) -> str | None:
    """The kind a document name of kind words alone names (``the Agreement``, ``Agreements`` →
    ``agreement``), ``None`` for a name (``Professional Services Agreement``, ``GPL``): such a name
    is no document's own (:func:`document_names` leaves it out), it names the one document held of
    that kind, if one (:func:`document_kinds`)."""
    words = fold_document_name(name).split()
    if words and all(w in _GENERIC_NAMES | _SMALL_WORDS for w in words) and words[-1] in _GENERIC_NAMES:
        return _kind_word(words[-1])
    return None


def self_defined_names(tree: DocumentTree) -> list[str]:
    """The terms ``tree`` defines as itself, its defined names: a definition opening with a pack's words
    a document calls itself with (:func:`.grammar.self_words`) right after its verb (``"Framework Terms"
    means these Standard Terms, the Key Terms between Provider and Customer …``, ``"Agreement" means this
    Agreement …``), as written, in document order. A kind word alone among them (``Agreement``) is a
    kind it is (:func:`document_kinds`), any other a name it is cited by (``Framework Terms``)."""
    selves = "|".join(re.escape(w) for w in self_words())
    form = re.compile(rf"(?:shall\s+)?(?:means?|refers?\s+to)\s+(?:{selves})\s", re.I)
    return list(dict.fromkeys(d.term for d in getattr(tree, "definitions", None) or [] if form.match(d.definition)))


def document_kinds(tree: DocumentTree) -> list[str]:
    """The kinds of document ``tree`` is (``agreement``): the kind word its title ends with and those
    its text calls it by (``this Agreement``), save the kind of the document it declares it is under
    (:func:`declared_parent`) unless its text calls itself that too: a SOW's cover page headed
    "Professional Services Agreement" is no agreement. What ``the Agreement`` of another document
    may name (:func:`kind_of_name`)."""
    own = _resolver(tree)
    words = re.findall(r"[A-Za-z]+", tree.title or "")
    kinds = [_kind_word(words[-1])] if words else []
    kinds += sorted(own.text_kinds)
    kinds += [k for n in self_defined_names(tree) if (k := kind_of_name(n))]  # "Agreement" means these Standard Terms
    parent = _kind_word(own.parent_document.split()[-1]) if own.parent_document else None
    return [k for k in dict.fromkeys(kinds) if k in _GENERIC_NAMES and (k != parent or k in own.text_kinds)]


def own_instrument_numbers(title: str | None, doc_key: str) -> set[str]:
    """The instrument numbers (``2022/868``) that name this document: the first one its title
    writes — an EU act's title opens with its own number and goes on to the acts it amends or
    applies ("REGULATION (EU) 2022/868 … amending Regulation (EU) 2018/1724", "… for the application
    of Regulation (EU) No 910/2014"), which are other documents — and any in its key."""
    first = re.search(r"\d{1,4}/\d{1,4}", title or "")
    return ({first.group(0)} if first else set()) | set(re.findall(r"\d{1,4}/\d{1,4}", doc_key or ""))


class _Resolver:
    """Maps a normalised target to a section id of one tree."""

    def __init__(self, tree: DocumentTree):
        self.ids = {s.section_id for s in tree.sections}
        from .contents import is_contents_section

        # contents pages and indexes (structure.contents): they list sections, they cite none
        self.contents = {s.section_id for s in tree.sections if is_contents_section(s)}
        # provisions numbered bare ("7", "4.7": no keyword or sign before the number), what a French
        # act's "article" cites when it labels no article (grammar.provision_words)
        self.bare = {s.section_id for s in tree.sections if s.number and s.number[0].isdigit()}
        self.parent = {s.section_id: s.parent_id for s in tree.sections}
        self.children: dict[str | None, list[str]] = {}
        for s in tree.sections:
            self.children.setdefault(s.parent_id, []).append(s.section_id)
        self.local: dict[str, str] = {}
        self.by_tail: dict[str, list[str]] = {}
        for s in tree.sections:  # "article-ii/1" is also reachable as "1" when unambiguous
            tail = s.section_id.split("/")[-1]
            self.local.setdefault(tail, s.section_id)
            self.by_tail.setdefault(tail, []).append(s.section_id)
        self.sorted_ids = sorted(self.local)
        name = f"{tree.title} {tree.doc_key}"
        self.own_names = set(re.findall(r"[A-Z]{2,6}", name))
        # the abbreviation its own sections are numbered with ("NRS 1.130"): "NRS 1.140" in its text cites it
        self.own_names.update(
            m.group("abbr")
            for s in tree.sections
            if (m := _CODE_LABEL_RE.match(s.number or "")) and keyword(m.group("abbr")) is None
        )
        self.own_folded = set(document_names(tree.title, tree.doc_key))
        # the names it defines as itself ("Framework Terms" means these Standard Terms …): "of the Framework Terms"
        self.own_folded |= {fold_document_name(n) for n in self_defined_names(tree) if kind_of_name(n) is None}
        self.own_text = name
        self.own_numbers = own_instrument_numbers(tree.title, tree.doc_key)
        # the kinds of instrument this document calls itself ("this Regulation", its title's "Act")
        self.self_kinds = {_kind_word(w) for w in re.findall(r"[A-Za-z]+", tree.title or "")}
        # the kinds its text calls it ("this Agreement"), beside its title's words
        self.text_kinds = {_kind_word(w) for s in tree.sections for w in _SELF_NAME_RE.findall(s.text)}
        self.self_kinds |= self.text_kinds
        self.by_title: dict[str, str] = {}
        self.by_slug: dict[str, str] = {}
        for s in tree.sections:
            if not s.heading.lstrip().startswith("#") and s.number is not None:
                continue  # numbered list items are not link targets
            self.by_title.setdefault(_title_words(s.title), s.section_id)
            self.by_title.setdefault(_title_words(s.title, drop_number=True), s.section_id)
            heading_text = re.sub(r"^\s*#{1,6}\s+|\s+#+\s*$", "", s.heading or "")
            for slug in _slugs(s.title) | (_slugs(heading_text) if heading_text else set()):
                self.by_slug.setdefault(slug, s.section_id)
            m = re.search(r"\{#([\w:.-]+)[^}]*\}\s*$", heading_text)  # "## Title {#custom-id}"
            if m:
                self.by_slug.setdefault(m.group(1).lower(), s.section_id)
        self.anchors = dict(getattr(tree, "anchors", None) or {})
        self.titles = {s.section_id: s.title for s in tree.sections}
        # how many levels the document numbers its sections with ("4.2.1": 3): a dotted number with more
        # parts is none of its sections
        self.depth = max(
            (
                len(m.group(0).split("."))
                for s in tree.sections
                if (m := re.match(r"[A-Z]?\d+(?:\.\d+)*", s.number or ""))
            ),
            default=1,
        )
        # products the document gives releases of ("BIND versions 4.9 and 4.9.1", "BIND 9.0.0"): a number
        # after one is a release ("patched versions of BIND 4.9.5"), never a section of a document so named
        self.products: set[str] = set()
        for s in tree.sections:
            self.products.update(_PRODUCT_RE.findall(s.text))
            self.products.update(
                q.group("doc")
                for q in _QUALIFIED_RE.finditer(s.text)
                if version_or_address(s.text, q.start("nums"), q.end("nums")) in ("version", "zero")
            )
        # the sections inside back matter (a schedule, an appendix, an exhibit and all they hold)
        back = back_matter_prefixes()
        self.in_back: set[str] = set()
        for s in tree.sections:
            last = s.section_id.rsplit("/", 1)[-1]
            own = _CONTAINER_ID_RE.match(last) if s.number else None
            # "schedule": an Act's only schedule, unnumbered
            if s.parent_id in self.in_back or (own and own.group(1) in back) or (s.number and last in back):
                self.in_back.add(s.section_id)
        # back-matter containers that cite their own units as paragraphs ("paragraph 4" in an Act's
        # Schedule): there a "section" is the body's, never the container's paragraph so numbered
        self.paragraph_back: set[str] = set()
        for s in tree.sections:
            if s.section_id in self.in_back and _OWN_PARAGRAPH_RE.search(s.text):
                if (container := self.back_container(s.section_id)) is not None:
                    self.paragraph_back.add(container)
        self.by_number: dict[str, list[str]] = {}
        for s in tree.sections:
            if s.number:
                self.by_number.setdefault(s.number, []).append(s.section_id)
        # the document this one's opening says it amends, supplements or belongs to ("additions to or
        # modifications of the Bonterms Professional Services Agreement"): what its bare references cite
        # when none of its own sections is so numbered
        self.parent_document = declared_parent(tree, self)
        parent_kind = _kind_word(self.parent_document.split()[-1]) if self.parent_document else None
        if parent_kind in _GENERIC_NAMES and parent_kind not in self.text_kinds:
            # a cover page headed "Professional Services Agreement" whose text calls itself "this SOW" and
            # is under "the Agreement": an agreement is its parent, not what it is ("of the Agreement": that one)
            self.self_kinds.discard(parent_kind)
        # a bare alias the tree gives a section ("D.3" or "D(3)" of D/3: clause 3 of Part D), first one wins
        self.by_alias: dict[str, str] = {}
        for s in tree.sections:
            for a in s.aliases:
                if re.fullmatch(r"[A-Z](?:\.\d{1,3}|\(\d{1,3}\))", a):
                    self.by_alias.setdefault(a, s.section_id)
        # the Act (and the provision of it) each section's amendments apply to, under a provision that says
        # what it amends ("The Sentencing Code is amended as follows", "In section 264 (…)—")
        self.short_names: dict[str, str] = _short_names(tree)  # "the 2008 Act" → the Act the text defines it as
        self.amended: dict[str, tuple[str, str]] = _amendment_scopes(tree, self)

    def named_by_title(self, target: str, text: str, end: int) -> str | None:
        """The one section numbered ``target`` whose title the words after the reference repeat,
        when the document has several so numbered: a notice's items ``1. Name of Standard`` … and
        its body's ``1 PURPOSE`` … both hold a 1, and the contents line ``SECTION 1  PURPOSE .... 1``
        (or "Section 3, Minimum Security Requirements") names the one titled so. ``None`` when the
        number is unique, or no title or more than one matches (nothing is guessed)."""
        candidates = list(dict.fromkeys(self.by_number.get(target, []) + self.by_tail.get(target, [])))
        if len(candidates) < 2:
            return None
        line_end = text.find("\n", end)
        after = text[end : line_end if line_end >= 0 else len(text)]
        words = _title_words(re.sub(r"(?:[ \t]*[.…][ \t]?){3,}.*$", "", after))
        matching = [
            c
            for c in candidates
            if (title := _title_words(self.titles.get(c, ""), True))
            and (words == title or words.startswith(title + " "))
        ]
        return matching[0] if len(matching) == 1 else None

    def resolve_fragment(self, fragment: str) -> str | None:
        """The section an in-page link ``#fragment`` points at."""
        frag = fragment.lstrip("#")
        heading = self.anchors.get(frag)
        if heading is not None:
            found = self.by_title.get(_title_words(heading)) or self.by_title.get(_title_words(heading, True))
            if found:
                return found
            m = _KW_REF_RE.match(heading)  # an anchor that records a citation: "Article 3(2)", "Section 1(1)"
            if m and m.end() == len(heading.rstrip()):
                prefix = _keyword_prefix(m.group("kw")) or ""
                found = self.resolve(_normalise(m.group("nums"), prefix))
                if found:
                    return found
        if frag.lower() in self.by_slug:
            return self.by_slug[frag.lower()]
        m = re.fullmatch(
            r"(?:section|sec|s|appendix|article|art)[-.]?([A-Za-z]?\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)", frag, re.I
        )
        if m:
            kind = frag[:3].lower()
            prefix = "appendix" if kind == "app" else "article" if kind == "art" else ""
            return self.resolve(_normalise(m.group(1), prefix) if prefix else m.group(1))
        return None

    def resolve(self, target: str, source: str | None = None) -> str | None:
        """The section id ``target`` (normalised: ``4.2``, ``article-6(1)``) names, or ``None``. With
        ``source`` (the section the reference stands in), of several sections answering to that
        number (an exhibit and the agreement terms both numbering 1-4) the nearest one
        (:meth:`nearest`)."""
        found = self._resolve_target(target)
        if found is not None and self.by_alias.get(target) == found:
            return found  # "Section D.4" names its part: never the 4 of the part citing it (R/4)
        return self.nearest(found, source)

    def nearest(self, found: str | None, source: str | None) -> str | None:
        """Of the sections numbered as ``found`` is (the ids sharing its last part: ``3``,
        ``exhibit-a/3``, ``exhibit-b/3``), the one a reference made in ``source`` names: from the
        main body, a main-body section whenever one is so numbered (never an appendix's over it);
        from back matter (a schedule, an exhibit, an annex) the one sharing the deepest enclosing
        section with ``source`` (its own exhibit's), else the main body's. Ties keep ``found``.
        ``found`` unchanged when the number is unique or ``source`` is unknown."""
        if found is None or source is None or source not in self.parent:
            return found
        cands = self.by_tail.get(found.rsplit("/", 1)[-1], [])
        if len(cands) < 2 or found not in cands:
            return found
        chain = self.ancestors(source)  # innermost first
        depth = {sid: len(chain) - i for i, sid in enumerate(chain)}

        def shared(cand: str) -> int:  # depth of the deepest section enclosing both (0: none)
            return next((depth[a] for a in self.ancestors(cand) if a in depth), 0)

        if source not in self.in_back:
            body = [c for c in cands if c not in self.in_back]
            cands = body or cands
            return max(cands, key=lambda c: (shared(c), c == found))
        return max(cands, key=lambda c: (shared(c), c not in self.in_back, c == found))

    def _resolve_target(self, target: str) -> str | None:
        lettered = re.match(r"^(?:appendix|annex)-([a-z](?:\.\d+[a-z]{0,2})+)(.*)$", target)
        if lettered:  # "Appendix D.4" is section D.4 (RFC appendices number their sections so)
            bare = lettered.group(1).upper() + lettered.group(2)
            if bare in self.ids or bare in self.local:
                return self._resolve(bare)
        paragraph = re.match(r"^(article-[^()/]+)\((\d+[a-z]*)\)(.*)$", target)
        if (
            paragraph
            and target not in self.ids
            and (signed := f"{paragraph.group(1)}/{paragraph.group(2)}") in self.ids
        ):
            # "l'article 8, § 2" (article-8(2)) of a document whose articles number their paragraphs "§ 2":
            # the parser's id for that paragraph is article-8/2 (parse.build._is_article_sign_paragraph)
            return self._resolve(signed + paragraph.group(3))
        found = self._resolve(target)
        if found is None and re.match(r"^(chapter|part)-\d", target):
            found = self._resolve(target.split("-", 1)[1])  # chapters numbered "12." without the keyword
        if found is None and target.split("-", 1)[0] in _provision_prefixes():
            # "l'article 4.7" of an act numbering its articles bare (a Canadian act in French: ids "4.7",
            # "7(3)"): only a provision the document numbers bare at its own level, never a "§ 2" or a
            # repeat under each Titre ("titre-1/2"), and never where the document labels its articles
            bare = target.split("-", 1)[1]
            if re.sub(r"\(.*$", "", bare) in self.bare and not any(
                i.split("/")[-1].startswith(target.split("-", 1)[0] + "-") for i in self.ids
            ):
                found = self._resolve(bare)
        return found

    def ancestors(self, section_id: str | None) -> list[str]:
        """``section_id`` and its enclosing sections, innermost first."""
        out: list[str] = []
        while section_id and section_id not in out and len(out) < 32:
            out.append(section_id)
            section_id = self.parent.get(section_id)
        return out

    def resolve_within(self, container_id: str, target: str) -> str | None:
        """``target`` (``3``, ``2(b)``) among the sections inside ``container_id``."""
        direct = f"{container_id}/{target}"
        if direct in self.ids:
            return direct
        head = re.sub(r"\(.*$", "", target)
        for tail in (target, head):
            for cand in self.by_tail.get(tail, []):
                if container_id in self.ancestors(cand)[1:]:
                    if tail == target:
                        return cand
                    finer = f"{cand}{target[len(head) :]}"
                    return finer if finer in self.ids else cand
        return None

    def in_own_back_matter(self, number: str, source: str | None) -> str | None:
        """The unit ``number`` (``4``, ``2(2)(d)``: a bare number, maybe with items) of the back-matter
        container ``source`` stands in, or ``None``: "paragraph 4" written in an Act's Schedule is that
        Schedule's paragraph 4 (``schedule/4``), never the Act's section 4 nor sub-paragraph (4) of the
        paragraph citing it (``docs/architecture.md``, "Numbers several parts hold")."""
        if not source or source not in self.in_back or not re.match(r"^\d+[A-Z]{0,3}(?:\(|$)", number):
            return None
        container = self.back_container(source)
        return self.resolve_within(container, number) if container is not None else None

    def back_container(self, source: str | None) -> str | None:
        """The back-matter container (``schedule``, ``schedule-2``, ``exhibit-a``) ``source`` stands in."""
        if not source or source not in self.in_back:
            return None
        back = back_matter_prefixes()
        for a in self.ancestors(source):
            last = a.rsplit("/", 1)[-1]
            own = _CONTAINER_ID_RE.match(last)
            if last in back or (own and own.group(1) in back):
                return a
        return None

    def siblings_between(self, first: str, last: str) -> list[str]:
        """The sections between ``first`` and ``last`` (ids of one parent), in document order:
        what a range ``sections 10 to 12`` also names when the document inserted ``10A`` and
        ``11A`` between its ends (numbers alone cannot tell). Empty when the ends are not siblings
        or not in order."""
        parent = self.parent.get(first, "?")
        if parent == "?" or self.parent.get(last, "?") != parent:
            return []
        kids = self.children.get(parent, [])
        a, b = kids.index(first), kids.index(last)
        return kids[a + 1 : b] if a < b else []

    def resolve_item(self, item: str, source_section_id: str | None) -> str | None:
        """A relative item (``(1)``, ``(b)(2)``) in the nearest enclosing section that has it."""
        for scope in self.ancestors(source_section_id):
            if f"{scope}{item}" in self.ids:
                return f"{scope}{item}"
            tail = scope.split("/")[-1]  # "article-ii/3" may hold its item (a) as "3(a)"
            for cand in self.by_tail.get(f"{tail}{item}", []):
                if scope in self.ancestors(cand)[1:]:
                    return cand
        return None

    def is_own(self, name: str) -> bool:
        """Whether a document name a reference carries names this document.

        A generic name alone (``the Charter``, ``the Act``, ``the Agreement``) is this document
        when it calls itself that (``this Agreement`` in its text, ``Act`` in its title), else
        another instrument. A numbered instrument (``Regulation (EU) 2016/679``) is this document
        only when its title or key holds that number. Otherwise: the name, an acronym of it or
        one written in the title (``GDPR``)."""
        folded = fold_document_name(name)
        words = folded.split()
        if words and all(w in _GENERIC_NAMES | _SMALL_WORDS for w in words):
            return _kind_word(words[-1]) in self.self_kinds
        if instrument_name_re().fullmatch(" ".join(name.split())):
            # a short name of the grammar packs ("RGPD", "GDPR", "C. civ."): this document only when it is
            # that instrument (its own names fold to the same citation), never for writing it in its title
            return folded in {fold_document_name(n) for n in self.own_folded}
        number = re.search(r"\d{1,4}/\d{1,4}", name)
        if number:
            return number.group(0) in self.own_numbers
        if any(folded.startswith(own + " ") for own in self.own_folded if len(own.split()) >= 3):
            return True  # "code de la propriété intellectuelle sont fixés …": its own name, then the sentence
        if (
            len(words) >= 3
            and re.search(r"\d", folded)
            and any(own.startswith(folded + " ") for own in self.own_folded)
        ):
            return True  # "la loi du 3 juillet 1978" in the "Loi du 3 juillet 1978 relative aux contrats de travail"
        return folded in self.own_folded or bool(
            set(re.findall(r"[A-Z]{2,6}", name)) & self.own_names and not folded.startswith("rfc ")
        )

    def not_a_section(self, text: str, start: int, end: int) -> bool:
        """Whether the dotted number ``text[start:end]``, written without a citation word, is no
        section of this document: a software version or a network address
        (:func:`.grammar.version_or_address`), or a number of more levels than the document numbers
        its sections with (``8.8.8.8`` in a document numbered ``4.2.1``) that is not one of them."""
        kind = version_or_address(text, start, end)
        if kind in ("version", "address"):
            return True
        number = re.sub(r"\(.*$", "", text[start:end])
        return (kind in ("ipv4", "zero") or len(number.split(".")) > self.depth) and self._resolve(number) is None

    def _resolve(self, target: str) -> str | None:
        if target in self.ids:
            return target
        if target in self.local:
            return self.local[target]
        if target in self.by_alias:
            return self.by_alias[target]
        coarser = target
        while True:
            # only an item falls back to its enclosing section (its text is there); a dotted
            # number that does not exist ("4.3.7") is another section, never its parent "4.3"
            shorter = re.sub(r"\([^()]*\)$", "", coarser)
            if shorter == coarser or not shorter:
                break
            coarser = shorter
            if coarser in self.local:
                finer = self._first_inside(target)
                return finer or self.local[coarser]
        return self._first_inside(target)

    def _first_inside(self, target: str) -> str | None:
        import bisect

        pos = bisect.bisect_left(self.sorted_ids, target)
        for cand in self.sorted_ids[pos : pos + 50]:
            if not cand.startswith(target):
                break
            if cand[len(target) : len(target) + 1] in ("(", "."):
                return self.local[cand]
        return None


# "paragraph 4", "paragraphs 2 to 8" (a bare number after the grammar's paragraph word): a unit cited as a paragraph
_OWN_PARAGRAPH_RE = re.compile(
    rf"(?i)(?<![\w-])(?:{'|'.join(re.escape(w) for w, k in keywords().items() if k.kind == 'paragraph')})\s+\d"
)
# a container's id: its prefix (one word or hyphenated) and its number ("schedule-1", "exhibit-b")
_CONTAINER_ID_RE = re.compile(r"^([a-z]+(?:-[a-z]+)*)-([0-9a-z]+)$")


# ---------------------------------------------------------------- amendment scopes

# a short name an amending Act gives the Act it amends: "The Criminal Procedure (Scotland) Act 1995 (“the 1995 Act”)"
_SHORT_NAME_RE = re.compile(r"\(\s*[“\"‘](?P<short>[^”\"’()]{2,60})[”\"’]\s*\)")
# a trailing bracketed title after a citation or a name: "section 264 (suspended sentence order …)"
_TRAILING_TITLE_RE = re.compile(r"\s*\((?=[^()]*\s)[^()]*(?:\([^()]*\)[^()]*)*\)\s*$")
# where a citation and the Act it belongs to part: "section 5 of the X Act 2000", "Schedule 5ZB to the 1995 Act"
_OF_ACT_RE = re.compile(r"\s+(?:of|to)\s+(?=\S)")


def _amendment_scopes(tree: DocumentTree, resolver: "_Resolver") -> dict[str, tuple[str, str]]:
    """``{section id: (amended Act as written, provision)}`` for every section of ``tree`` whose
    references name the Act an amending provision amends, not ``tree`` itself.

    A provision saying what it amends (the grammar's ``amends`` wording, :func:`.grammar.amendment_re`:
    "The Sentencing Code is amended as follows", "Section 5 of the X Act 2000 (…) is amended in
    accordance with subsections (2) to (5)", "Schedule 5ZB to the 1995 Act is amended as follows—")
    scopes the provisions that carry the amendments out: those it names (``which``), else its own
    provisions (a lead-in ending in a dash) or the provisions after it in its section (a sentence), up
    to one that says it amends something else or speaks of this Act. Inside a scope, a lead-in
    (``lead_in``: "In section 264 (…)—", "(c) in subsection (3)—", "In paragraph 8—") narrows the
    provision for what it holds (``264``, ``264(3)``, ``schedule-5zb/8``); a provision naming an Act
    itself ("In the Sentencing Code, in Part 7 …, after Chapter 4 insert—", "In section 5 of the X Act
    2000—") opens a scope where none is. The provision is ``""`` for the Act as a whole. Short names
    the text gives the amended Act ("(“the 1995 Act”)") and its definitions of such names are read as
    that Act's name. Nothing is scoped in a document with no such wording."""
    amends, lead, cue = amendment_re("amends"), amendment_re("lead_in"), amendment_re("amends_cue")
    if amends is None or lead is None or cue is None:
        return {}
    if not any(cue.search(s.text) for s in tree.sections):
        return {}
    by_id = {s.section_id: s for s in tree.sections}

    def stating(text: str) -> re.Match | None:
        """The amending statement of ``text``: read back from its cue ("is amended as follows")."""
        for c in cue.finditer(text):
            found = amends.search(text, max(0, c.start() - 260), c.end() + 130)
            if found:
                return found
        return None

    short = resolver.short_names
    scope: dict[str, tuple[str, str]] = {}  # a section's own scope (its own references)
    below: dict[str, tuple[str, str]] = {}  # the scope of what a section holds
    for s in tree.sections:
        own = scope.get(s.section_id) or below.get(s.parent_id or "") or None
        if own is not None:
            scope[s.section_id] = own
        first = _LEADING_LABEL_RE.sub("", s.text).strip().split("\n\n", 1)[0]
        stated = stating(first)
        if stated is not None:
            act, provision = _amended_subject(stated.group("subject"), own, short, resolver)
            if act is None:
                if own is not None:
                    below.setdefault(s.section_id, own)
                continue
            target = (act, provision)
            if stated.group("which"):
                for sid in _carrying_out(stated.group("which"), s.section_id, resolver):
                    scope[sid] = target
                    below[sid] = target
            elif re.search(r"[—–:]\s*$", first) or resolver.children.get(s.section_id):
                below[s.section_id] = target
            if not stated.group("which") and not re.search(r"[—–:]\s*$", first):
                for sib in _later_siblings(s.section_id, resolver):
                    # its own words, not the text it inserts ("After that section insert— 3AB … under this section")
                    words = _LEADING_LABEL_RE.sub("", by_id[sib].text).strip().split("\n\n", 1)[0]
                    if stating(words) or _SPEAKS_OF_ITSELF_RE.search(words):
                        break
                    scope.setdefault(sib, target)
                    below.setdefault(sib, target)
            continue
        current, pos, dash = own, 0, False
        while led := lead.match(first[pos:]):  # "In Schedule 22 (…), in paragraph 54—": each lead-in narrows
            named = _amended_subject(led.group("where"), current, short, resolver)
            if named[0] is None:
                break
            current, pos = (named[0], named[1]), pos + led.end()
            if re.search(r"[—–:]\s*$", led.group(0)):
                dash = True
                break
        if current is None or current == own:
            if own is not None:
                below.setdefault(s.section_id, own)
            continue
        if not dash and (own is None or current[0] != own[0]):
            scope[s.section_id] = current  # "In the Sentencing Code, in Part 7 (…), after Chapter 4 insert—"
        below[s.section_id] = current
    return scope


# the label a provision's text opens with ("(1) ", "(b)\n\n", "**(2A)**")
_LEADING_LABEL_RE = re.compile(r"^\s*(?:\*\*)?\([A-Za-z0-9]{1,5}\)(?:\*\*)?\s*")


def _short_names(tree: DocumentTree) -> dict[str, str]:
    """``{folded short name: Act}`` of the Acts ``tree`` defines a short name for ("“the 1995 Act”
    means the Criminal Procedure (Scotland) Act 1995", "“the Children Order” means the Children
    (Northern Ireland) Order 1995"): what "Schedule 1 to the 2008 Act" or "The 1995 Act is amended as
    follows" name."""
    short: dict[str, str] = {}
    for d in tree.definitions:
        if len(d.term) > 40:
            continue
        name = _named_document(" of " + d.definition[:160], "") or _instrument_name(d.definition[:160])
        if name and (_INSTRUMENT_WORDS_RE.search(d.term) or names_instrument(f"{d.term} 2000")):
            short[fold_document_name(d.term)] = name  # a term named as an Act is ("the 2008 Act", "the Children Order")
    return short


# a provision that speaks of this Act or of the amendments made ("The amendments made by this section apply …")
_SPEAKS_OF_ITSELF_RE = re.compile(r"\b(?:this\s+(?:Act|section|Part|Schedule)|amendments\s+made\s+by)\b")


def _amended_subject(
    subject: str, outer: tuple[str, str] | None, short: dict[str, str], resolver: "_Resolver"
) -> tuple[str | None, str]:
    """(Act, provision) an amending provision's subject or lead-in names: ``Section 5 of the X Act
    2000 (…)`` → (``X Act 2000``, ``5``), ``the 1995 Act`` → its full name when the text gives it,
    ``section 264`` / ``subsection (3)`` inside ``outer`` → (``outer``'s Act, ``264`` / ``264(3)``);
    ``(None, "")`` when it names neither an Act nor, inside a scope, a provision."""
    text = " ".join(subject.split())
    text = re.split(r",\s+(?=(?:the|The)\s)", text)[-1]  # "In consequence of …, the Sentencing Act 2020"
    while (named := _SHORT_NAME_RE.search(text)) or _TRAILING_TITLE_RE.search(text):
        if named and named.end() == len(text.rstrip()):
            short_name = fold_document_name(named.group("short"))
            head = _TRAILING_TITLE_RE.sub("", text)
            full = _named_document(" of " + head, "")
            if full:
                short.setdefault(short_name, full)
        cut = _TRAILING_TITLE_RE.sub("", text)
        if cut == text:
            break
        text = cut
    text = re.sub(r"^(?:the|The)\s+", "", text).strip(" ,")
    if not text:
        return None, ""

    def act_named(words: str) -> str | None:
        folded = fold_document_name(words)
        if folded in short:
            return short[folded]
        name = _named_document(" of " + words, "") or _instrument_name(words)
        if name and not resolver.is_own(name):
            return name
        return None

    for part in _OF_ACT_RE.finditer(text):  # "Article 27 of the Children Order", "Schedule 5ZB to the 1995 Act"
        act = act_named(text[part.end() :])
        if act and (provision := _provision_of(text[: part.start()], "")) is not None:
            return act, provision
    whole = act_named(text)
    if whole and outer is not None and outer[0] and whole.split()[0].lower() in ("that", "those"):
        whole = outer[0]  # "that Act": the one the enclosing provision amends
    if whole and " ".join(whole.split()) == text:
        return whole, ""
    if whole:
        return whole, ""
    if outer is not None and (provision := _provision_of(text, outer[1])) is not None:
        return outer[0], provision
    return None, ""


def _instrument_name(text: str) -> str | None:
    """``text`` (a definition's words, an amending provision's subject) when it is, whole, the name of
    a legislative instrument with its year (:func:`.grammar.names_instrument`: ``the Children (Northern
    Ireland) Order 1995``, whose kind word is no document word of a reference); else ``None``."""
    words = re.sub(r"^(?:[a-z]+\s+)*(?:the\s+|The\s+)?", "", " ".join(text.split()))  # "means the …"
    words = re.split(r"[;:]|\.\s", words)[0].rstrip(" .;,")
    while (cut := _TRAILING_TITLE_RE.sub("", words).rstrip(" .;,")) != words:
        words = cut  # "… Act 2008 (see paragraph 12(4)(b) and (5))"
    if not words or len(words) > 140 or not words[0].isupper() or keyword(words.split()[0]) is not None:
        return None  # "Article 25 of the Children Order": a provision of one, not its name
    return words if names_instrument(words) else None


# a relative item cited alone: "subsection (3)", "sub-paragraph (3A)", "paragraph (a)(ii)"
_RELATIVE_ITEM_RE = re.compile(
    rf"^(?:[A-Za-z]+-)?(?P<kw>{'|'.join(sorted(map(re.escape, relative_words()), key=len, reverse=True))})\s*"
    r"(?P<item>(?:\([A-Za-z0-9]{1,5}\))+)$",
    re.IGNORECASE,
)


def _provision_of(citation: str, outer: str) -> str | None:
    """The provision of the amended Act ``citation`` names, relative to ``outer`` (the provision the
    enclosing lead-in named, ``""`` for the whole Act): ``section 22(1)(aa)`` → ``22(1)(aa)``,
    ``paragraph 15(2) of Schedule 27`` → ``schedule-27/15(2)``, ``paragraph 8`` inside ``schedule-5zb``
    → ``schedule-5zb/8``, ``subsection (3)`` inside ``264`` → ``264(3)``, ``paragraph (a)`` inside
    ``264(3)`` → ``264(3)(a)``; ``None`` when it is no citation."""
    citation = citation.strip()
    rel = _RELATIVE_ITEM_RE.match(citation)
    if rel:
        item = rel.group("item")
        kind = _kind_of(rel.group("kw"))
        if kind == "subsection" or not outer:  # a subsection is an item of the section, not of a subsection
            head, _, tail = outer.rpartition("/")
            base = (head + "/" if head else "") + re.sub(r"\(.*$", "", tail)
            return base + item if kind == "subsection" else outer + item
        return outer + item
    c = parse_citation(citation)
    if c is None or c.is_multiple:
        return None
    key = citation_key(c, qualified=True)
    container = outer.split("/", 1)[0]
    if (
        len(c.chain) == 1
        and c.unit.kind == "paragraph"
        and re.match(r"[a-z]+(?:-[a-z]+)*-[0-9a-z]+$", container)
        and container.split("-", 1)[0] in back_matter_prefixes()
    ):
        return f"{container}/{key}"  # "paragraph 8" inside Schedule 5ZB
    return key


def _carrying_out(which: str, source: str, resolver: "_Resolver") -> list[str]:
    """The provisions of this Act that "… is amended in accordance with ``which``" names, written in
    ``source``: ``subsections (2) to (5)`` of section 2 → ``2(2)`` … ``2(5)``, ``paragraphs 11 to 14``
    in a Schedule → that Schedule's paragraphs; the sections of this Act that exist, in order."""
    m = re.match(rf"\s*{_KEYWORD}\s*(?P<nums>.+)$", which)
    if not m:
        return []
    members = expand_numbers(list_members(m.group("nums"), _ONE_NUMBER))
    out: list[str] = []
    for n in members:
        n = re.sub(r"\s+", "", n)
        found = (
            resolver.resolve_item(n, source)
            if n.startswith("(")
            else resolver.in_own_back_matter(n, source) or resolver.resolve(n, source)
        )
        if found and found != source:
            out.append(found)
    return out


def _later_siblings(section_id: str, resolver: "_Resolver") -> list[str]:
    """The sections after ``section_id`` under its parent, in document order."""
    kids = resolver.children.get(resolver.parent.get(section_id), [])
    return kids[kids.index(section_id) + 1 :] if section_id in kids else []


# The chunker calls find_cross_references once per chunk; build each tree's index once.
_RESOLVERS: dict[int, tuple[DocumentTree, _Resolver, int]] = {}


def _resolver(tree: DocumentTree) -> _Resolver:
    cached = _RESOLVERS.get(id(tree))
    if cached is not None and cached[0] is tree and len(tree.sections) == cached[2]:
        return cached[1]
    r = _Resolver(tree)
    if len(_RESOLVERS) > 32:
        _RESOLVERS.clear()
    _RESOLVERS[id(tree)] = (tree, r, len(tree.sections))
    return r


# a statute's abbreviation in German, Austrian and Swiss citation: mixed case, capital first and last,
# two or more capitals ("KSchG", "BUrlG", "ArbZG", "TzBfG", "StGB", "GewO", "AÜG"), or capitals with one
# small letter last ("GRCh"); never a company form ("GmbH", "mbH")
_STATUTE_ABBR = (
    r"(?:(?=[A-ZÄÖÜ][a-zäöüß]{0,4}[A-ZÄÖÜ])[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]{0,6}[A-ZÄÖÜ](?<!mbH)|[A-ZÄÖÜ]{2,6}[a-z])(?![\w-])"
)
_STATUTE_ABBR_RE = re.compile(rf"(?<![\w-]){_STATUTE_ABBR}")
_NAMED_AFTER_RE = re.compile(
    rf"^\s+(?P<name>RFC\s?\d{{1,5}}|[A-Z][A-Z0-9]{{1,7}}\b(?![-.]?\d)|{_STATUTE_ABBR}(?!\s?\d))"
)
_NAMED_BEFORE_RE = re.compile(rf"(?<![\w-])(?P<name>RFC\s?\d{{1,5}}|[A-Z][A-Z]{{2,7}}|{_STATUTE_ABBR})\s*,?\s*$")
# the pinpoint of a German-style citation between the number and the act: "§ 7 Abs. 3 BUrlG",
# "Art. 6 Abs. 1 S. 1 lit. f DSGVO", "§ 87 para. 1 no. 2 BetrVG", "§§ 1 ff. KSchG"
_PINPOINT_RE = re.compile(
    r"^(?:\s*,?\s*(?:(?:Abs|Absatz|S|Satz|Nr|Nrn|Nummer|lit|Buchst|Buchstabe|UAbs|Unterabs|Unterabsatz|Hs|Halbsatz|"
    r"Alt|Alternative|Var|Ziff|Ziffer|Rn|para|paras|subpara|sentence|no|nos|item|point|letter|indent)\.?\s*"
    r"(?:\d{1,3}[a-z]?|[a-z]\)?|[IVX]{1,4})(?:\s*(?:,|und|bis|or|and|to|-|–)\s*(?:\d{1,3}[a-z]?|[a-z]\)?))*|"
    r"ff?\.|a\.\s?F\.|n\.\s?F\.))+"
)


def _kind_word(word: str) -> str:
    """``Regulations`` → ``regulation``: the kind of instrument a word names, for comparing."""
    w = word.lower()
    if w.endswith("ies") and w[:-3] + "y" in _GENERIC_NAMES:
        return w[:-3] + "y"  # "Policies" → "policy"
    return w[:-1] if w.endswith("s") and w[:-1] in _GENERIC_NAMES else w


# "Section 4.3.7 of [X962]", "[RFC5246], Section 7.4": a bracketed citation label names another document
_LABEL_AFTER_RE = re.compile(r"^\s*(?:of|in)\s+\[(?P<name>[A-Za-z][\w.+-]{0,30})\]")
_LABEL_BEFORE_RE = re.compile(r"\[(?P<name>[A-Za-z][\w.+-]{0,30})\],?\s*$")


# "Article 2 of the Annex to Commission Recommendation 2003/361/EC", "Article 5 of Chapter II of Directive …":
# a part of some instrument; whose part it is comes after it
_PART_OF_RE = re.compile(
    r"^\s*(?:of|in|under)\s+(?:the\s+)?(?:Annex(?:es)?|Appendix|Appendices|Schedules?|Protocol|"
    r"Parts?|Chapters?|Titles?|Articles?|Sections?)(?:\s+[A-Z0-9][\w.]*)?\s+(?=(?:to|of)\s)"
)
# "chapter 5 of title 5, United States Code", "chapter 5, title 5, …": a title of a code (compared with the document's own names)
_OF_TITLE_RE = re.compile(r"^\s*(?:of|,)\s+(?P<name>title\s+\d{1,3}[A-Za-z]?)\b")


# what EU acts write between an Article and the act it belongs to: "Article 5d(2), point (a), of …",
# "Article 6(1), first subparagraph, point (c), of …", "Article 4, points (1) and (2), of …"
_ORDINAL = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
_POINT = r"\((?:\d{1,3}|[a-z]{1,4})\)(?:\s?\((?:\d{1,3}|[ivx]{1,5})\))*"
_QUALIFIER_RE = re.compile(
    rf"(?:\s*,?\s*(?:{_ORDINAL}\s+(?:sub)?paragraph|points?\s+{_POINT}(?:\s*(?:,|and|or|to)\s*{_POINT})*))+\s*,?(?=\s)"
)


# what joins the references of a chain: a comma, a list word of the grammar ("and", "et", "und"), both, or
# a word reading two citations together ("in Verbindung mit": grammar.chain_words)
_LIST_JOIN = "|".join(re.escape(w) for w in list_words())
_CHAIN_JOIN = "|".join(r"\s+".join(re.escape(p) for p in w.split()) for w in chain_words())
_CHAIN_SEP_RE = re.compile(rf"\s*(?:,\s*(?:(?:{_LIST_JOIN})\s+)?|\s+(?:and/or|{_LIST_JOIN}|{_CHAIN_JOIN})\s+)")


def _after_chain(text: str, end: int) -> int:
    """Where the words after a reference go on once the references listed with it are skipped:
    in "Article 25(6) or Article 26(4) of Directive 95/46/EC" the document named after the last
    reference is the first one's too. ``end`` is where the first reference ends."""
    pos = end
    for _ in range(8):
        q = _QUALIFIER_RE.match(text, pos)  # "Article 5d(2), point (a), of Regulation …"
        if q:
            pos = q.end()
        pos = pinpoints_end(text, pos)  # "l'article 3, 2°, et l'article 4 de la loi …"
        m = _CHAIN_SEP_RE.match(text[pos : pos + 32])
        ref = None
        if m:  # "… et l'article 4": the next reference, its determiner read and left out
            rest = text[pos + m.end() : pos + m.end() + 80]
            ref = _KW_REF_RE.match(text, pos + m.end() + len(rest) - len(strip_determiner(rest)))
        if ref is None or _keyword_prefix(ref.group("kw")) is None:
            break
        pos = ref.end()
    return pos


def _named_after_chain(text: str, end: int, before: str) -> str | None:
    """The document a reference ending at ``end`` names (:func:`_named_document`, generic names
    kept): right after it or before it, else in an ``of …`` after the references listed with it
    (``Article 25(6) or Article 26(4) of Directive 95/46/EC``) or after the last of them (``§87, §98, §99 BetrVG``)."""
    name = _named_document(text[end : end + 120], before, generic=True)
    tail = _after_chain(text, end) if name is None else end
    if tail != end:  # "… of Directive 95/46/EC", "§87, §98, §99 BetrVG": what follows the last names them all
        name = _named_document(text[tail : tail + 120], "", generic=True)
    return name


def _named_document(after: str, before: str, generic: bool = False) -> str | None:
    """The document a reference names, as written, or ``None`` (this document or none named).

    ``… of the GPL`` / ``… of RFC 5246`` / ``… of the Data Protection Act 2018`` /
    ``… of Regulation (EU) 2016/679`` or ``… of [X962]`` (after the number; a bracketed citation
    label as RFCs write them, also before: ``[RFC5246], Section 7``), ``Art. 12 GDPR`` (an acronym right
    after), ``RFC 5246 section 6.2`` / ``Regulation (EU) 2016/679 Article 6`` /
    ``Privacy Act 1988 section 5`` (before). ``of this Act`` names this document; a generic word
    alone (``of the Charter``, ``of the Agreement``) is returned only when ``generic`` is set, for
    the caller to decide whether it is this document (:meth:`_Resolver.is_own`).
    """
    after = _BLANK_LINE_RE.split(after, 1)[0]  # a name ends before a labelled line ("… of Act of 1970" / "" / "4. …")
    m = _LABEL_AFTER_RE.match(after) or _LABEL_BEFORE_RE.search(before[-34:])
    if m:
        return m.group("name")
    pin = _PINPOINT_RE.match(after)
    points = after[pin.end() :] if pin else after
    short = _SHORT_NAME_AFTER_RE.match(re.sub(r"^\.[a-z](?![\w])", "", points)) or _SHORT_NAME_BEFORE_RE.search(
        before[-24:]
    )
    if short:  # "article 6.1.b RGPD", "Art. 6 Abs. 1 lit. b DSGVO", "art. 1240 C. civ.": the packs' short names
        return short.group("name")
    act = external_document(after)
    if act:  # "l'article 1er, 7°, de l'arrêté royal du …", "§ 13 des Bürgerlichen Gesetzbuchs" (the language pack's
        return act[1]  # designators; "de la présente loi", "dieses Gesetzes" name none)
    part = _PART_OF_RE.match(after)
    if part:  # "of the Annex to Commission Recommendation …": the instrument the part belongs to
        rest = after[part.end() :]
        return _named_document(" of " + rest.split(None, 1)[1] if " " in rest.strip() else "", "", generic)
    m = _OF_TITLE_RE.match(after)
    if m:  # the caller compares "title 5" with the document's own names
        return " ".join(m.group("name").split())
    m = _EXTERNAL_RE.match(after)
    if m:
        # a title in italics, quotes or a link's label: "of the *Copyright Act*", "of our [Terms of Service](…)"
        name = re.sub(r'[*_"“\[]', "", m.group("name"))
        if "," in name and not _INSTRUMENT_WORDS_RE.search(name.rsplit(",", 1)[-1]):
            name = name.split(",")[0]  # "of the Agreement, Licensee shall": a name's commas only inside one
        words = name.split()
        if words[0].lower() in ("this", "these"):
            return None
        anaphoric = words[0].lower() in ("that", "those")  # "of that Directive": one named before, never this one
        if words[0].lower() in ("the", "our", "its", "their"):
            words = words[1:]
        if not words:
            return None
        name = re.split(
            r"(?<!,)\s+(?:and|or)\s+(?=RFC|[A-Z]{2,}\b|(?:Sections?|Articles?|Parts?|Chapters?|Schedules?|"
            r"Rules?|Clauses?|Paragraphs?|Annex|Appendix|Regulation|Directive|Decision)\b)|"
            r"(?<=\d)\s+(?:and|or)\s+",
            " ".join(words),
        )[0]  # "the GPL and RFC 5246"
        name = re.sub(r"(?:\s+(?:of|the|and|No\.))+$", "", name)
        if anaphoric:
            return name if _INSTRUMENT_WORDS_RE.search(name) else None
        words = name.split()
        acronyms = (set(re.findall(r"\b[A-Z]{2,8}\b", name)) - _CAPS_STOP) | set(_STATUTE_ABBR_RE.findall(name))
        generic_only = all(w.lower() in _GENERIC_NAMES | _SMALL_WORDS for w in words)
        if (
            re.match(r"RFC\s?\d", name)
            or acronyms
            or re.search(r"\d{1,4}/\d{1,4}", name)
            or (not generic_only and _INSTRUMENT_WORDS_RE.search(name))
        ):
            return name
        if generic and generic_only and _INSTRUMENT_WORDS_RE.search(name):
            return name
        return None
    letters = [c for c in before[-30:] + after[:30] if c.isalpha()]
    shouting = len(letters) >= 12 and sum(c.isupper() for c in letters) > 0.6 * len(letters)
    pin = _PINPOINT_RE.match(after)
    if pin and pin.end() < len(after) and after[pin.end()].isspace():
        after = after[pin.end() :]  # "§ 7 Abs. 3 BUrlG": the act comes after the pinpoint
    after = re.sub(r"^\.[a-z](?=\s)", "", after)  # "article 6.1.b CNIL": a point glued to the number
    m = _NAMED_AFTER_RE.match(after)
    if m and m.group("name") not in _CAPS_STOP and (not shouting or m.group("name").startswith("RFC")):
        return m.group("name")
    m = _NAMED_BEFORE_RE.search(before[-24:])
    if m and m.group("name") not in _CAPS_STOP and (not shouting or m.group("name").startswith("RFC")):
        return m.group("name")
    m = _USC_BEFORE_RE.search(before[-24:])
    if m:  # "15 U.S.C. § 45": title 15 of the Code (compared with the document's own names by the caller)
        return f"title {m.group('title')}"
    m = _INSTRUMENT_BEFORE_RE.search(before[-60:])
    if m:
        return " ".join(m.group("name").split())
    return external_document_before(before[-60:])  # Justel's "Loi 2004-12-27/30, art. 2"


def referenced_document_names(text: str) -> list[str]:
    """Names of the documents that the section references in ``text`` name (``section 9 of the
    GPL`` → ``GPL``), as written, in text order; for reading a query."""
    out = []
    for m in _KW_REF_RE.finditer(text):
        name = _named_document(text[m.end() : m.end() + 120], text[max(0, m.start() - 30) : m.start()])
        if name:
            out.append(name)
    return list(dict.fromkeys(out))


_RESPEC_RE = re.compile(r"\[\[\[#(?P<frag>[\w.:-]{1,120})\]\]\]")  # ReSpec source: [[[#section-id]]]
_TOC_TITLE_RE = contents_title_pattern(("contents",))
_TOC_LINE_RE = re.compile(
    r"(?m)^[ \t*+-]*(?P<num>(?:[A-Z]|\d{1,3})(?:\.\d{1,3})*)\.?[ \t]+(?P<title>[^\n]*?\w[^\n]*?)"
    r"(?:[ \t]*(?:\.[ \t]?){3,}[ \t]*\d+)?[ \t]*$"
)
_LINK_RE = re.compile(r"(?<!!)\[(?P<label>[^\[\]\n]{1,200})\]\((?P<url>[^()\s]{1,300})(?:\s+\"[^\"]*\")?\)")


def _title_words(title: str, drop_number: bool = False) -> str:
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title or "")
    t = re.sub(r"<[^>]+>|[*_`]", " ", t).replace("§", " ")
    if drop_number:
        t = re.sub(r"^\s*(?:[A-Za-z]{1,10}\s+)?[A-Z]?\d+(?:\.\d+)*[A-Z]?\.?\s+|^\s*[A-Z]\.(?:\d+\.?)*\s+", "", t)
    return " ".join(re.findall(r"\w+", t.lower()))


def _slugs(title: str) -> set[str]:
    """Anchor slugs Markdown tools give a heading: Python-Markdown (toc), GitHub, pandoc."""
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title or "")
    t = re.sub(r"<[^>]+>|[*`]", "", t).strip().lower()
    out = set()
    py = re.sub(r"[^\w\s-]", "", t).strip()
    out.add(re.sub(r"[-\s]+", "-", py))  # Python-Markdown
    out.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", t)))  # GitHub: every space a dash
    out.add(re.sub(r"^[^a-z]+", "", re.sub(r"\s+", "-", re.sub(r"[^\w\s.-]", "", t))))  # pandoc
    return {x for x in out if x}


def _toc_references(
    text: str, resolver: "_Resolver", tree: DocumentTree, source_section_id: str | None
) -> list[tuple[int, CrossReference]]:
    """A table of contents points at every section it lists: ``1.1.  Specification of Requirements``
    is a reference to section 1.1 when that section has that title (nothing is guessed); each is a
    ``listing`` (it lists the section, it cites none)."""
    title = resolver.titles.get(source_section_id or "", "")
    in_toc = bool(_TOC_TITLE_RE.match(_title_words(title)) or _TOC_TITLE_RE.match(title))
    out = []
    for m in _TOC_LINE_RE.finditer(text):
        found = resolver.resolve(m.group("num"))
        if found and _title_words(resolver.titles.get(found, ""), True) == _title_words(m.group("title"), True):
            out.append(
                (
                    m.start(),
                    CrossReference(
                        text=m.group("num"),
                        target=m.group("num"),
                        section_id=found,
                        source_section_id=source_section_id,
                        target_document=tree.doc_key,
                        listing=True,
                    ),
                )
            )
    return out if in_toc or len(out) >= 3 else []  # three lines naming sections as titled: a contents list


# a contents entry: a line ending in dot leaders (or an ellipsis) and a page number ("4.2 Data Format ........ 5",
# "1.1.  Roles . . . . 6", "Annex A …… iv")
_LEADER_LINE_RE = re.compile(r"(?m)^[^\n]*?(?:(?:\.[ \t]?){4,}|…{2,}|_{4,})[ \t]*(?:\d{1,4}|[ivxlc]{1,6})[ \t|]*$")
_PAGE_END_RE = re.compile(r"(?:\s|\|)\d{1,4}[ \t|]*$")


def _contents_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that are contents lines, which list sections and cite none: every line
    ending in dot leaders and a page number, and the block a contents title opens on a line of its
    own (``Table of Contents``, ``CONTENTS``, ``Sommaire``: :func:`.grammar.contents_title_pattern`)
    inside a section's text — a front page's contents, an Act's arrangement of sections — up to the
    first line of prose (fourteen words or more, no page number after them), a Markdown heading or
    the end."""
    spans = [m.span() for m in _LEADER_LINE_RE.finditer(text)]
    pos = 0
    lines = text.split("\n")
    at = []
    for ln in lines:
        at.append(pos)
        pos += len(ln) + 1
    i = 0
    while i < len(lines):
        plain = re.sub(r"[#*_|>:\s]+", " ", lines[i]).strip() if len(lines[i]) < 60 else ""
        if not plain or not _TOC_TITLE_RE.match(plain):
            i += 1
            continue
        j = i + 1
        while j < len(lines):
            line = lines[j].strip()
            if line.startswith("#") or (len(line.split()) >= 14 and not _PAGE_END_RE.search(line)):
                break
            j += 1
        spans.append((at[i], at[j] if j < len(lines) else len(text)))
        i = j
    return spans


def _link_references(
    text: str, tree: DocumentTree, resolver: "_Resolver", source_section_id: str | None, taken: list[tuple[int, int]]
) -> list[tuple[int, CrossReference]]:
    """References made by Markdown links to a heading in this document or to another file."""
    import posixpath

    out: list[tuple[int, CrossReference]] = []
    for m in _RESPEC_RE.finditer(text):
        found = resolver.resolve_fragment(m.group("frag"))
        if found and found != source_section_id:
            out.append(
                (
                    m.start(),
                    CrossReference(
                        text=m.group(0),
                        target=m.group("frag"),
                        section_id=found,
                        source_section_id=source_section_id,
                        target_document=tree.doc_key,
                    ),
                )
            )
    for m in _LINK_RE.finditer(text):
        if _inside(m.span(), taken):
            continue
        label, url = m.group("label").strip(), m.group("url")
        if not label or label in ("¶", "#", "§", "↑", "▲") or re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I):
            continue  # paragraph self-links, external URLs (http:, mailto:)
        label_text = re.sub(r"^[*_`]+|[*_`]+$", "", label).strip()  # **documentation** → documentation
        path, _, frag = url.partition("#")
        if not path:
            found = resolver.resolve_fragment(frag)
            if found and found != source_section_id:
                out.append(
                    (
                        m.start(),
                        CrossReference(
                            text=label_text,
                            target=frag,
                            section_id=found,
                            source_section_id=source_section_id,
                            target_document=tree.doc_key,
                        ),
                    )
                )
            continue
        if not re.search(r"\.(?:md|markdown|html?|txt|pdf|docx|xml)/?$", path, re.I):
            continue
        base = posixpath.dirname(tree.doc_key)
        target_doc = (
            posixpath.normpath(posixpath.join(base, path.rstrip("/"))) if not path.startswith("/") else path.strip("/")
        )
        if target_doc.startswith(".."):
            continue
        out.append(
            (
                m.start(),
                CrossReference(
                    text=label_text,
                    target=frag,
                    section_id=None,
                    source_section_id=source_section_id,
                    document=target_doc,
                    target_document=target_doc if not frag else None,
                ),
            )
        )
    return out


def _heading_spans(text: str) -> list[tuple[int, int]]:
    """Spans of Markdown heading lines (labels, not references)."""
    return [m.span() for m in re.finditer(r"(?m)^ {0,3}#{1,6}\s.*$", text)]


def _relative_base(source_section_id: str | None) -> str | None:
    """``article-6(1)(a)`` → ``article-6``: what "paragraph 2" is relative to."""
    if not source_section_id:
        return None
    return re.sub(r"\(.*$", "", source_section_id.split("/")[-1]) or None


# how amending Acts word their instructions (grammar.amendment_re: the English pack's AMENDMENT table): an
# instruction ("(A) by striking, in the matter preceding paragraph (1), …", "Section 251A of the … Act is amended—",
# "(c) in subsection (3), for “…” substitute “…”") names items of the amended provision; "as redesignated by
# clause (ii)", "… of this section" cite this Act itself; a line ending "insert—" introduces the inserted text
_AMENDING_RE = amendment_re("instruction")
_BY_THIS_RE = amendment_re("by_this")
_OF_THIS_RE = amendment_re("of_this")
_QUOTATION_FOLLOWS_RE = amendment_re("quotation_follows")


def _of_this(text: str, end: int) -> bool:
    """The words right after a citation ending at ``end`` make it this Act's own (``of this section``)."""
    return _OF_THIS_RE is not None and bool(_OF_THIS_RE.match(text[end : end + 40]))


def _by_this(text: str, start: int) -> bool:
    """The words right before a citation starting at ``start`` make it this Act's own (``made by``)."""
    return _BY_THIS_RE is not None and bool(_BY_THIS_RE.search(text[max(0, start - 40) : start]))


def _in_amendment(text: str, pos: int) -> bool:
    """The paragraph of ``text`` holding ``pos`` is an amendment instruction, or text that an instruction
    before it in ``text`` inserts ("after subsection (2) insert—" / "(2A) … subsection (3) applies")."""
    start = text.rfind("\n\n", 0, pos)
    end = text.find("\n\n", pos)
    if _AMENDING_RE is None:
        return False
    return bool(_AMENDING_RE.search(text, 0 if start < 0 else start, len(text) if end < 0 else end)) or bool(
        start > 0 and _QUOTATION_FOLLOWS_RE is not None and _QUOTATION_FOLLOWS_RE.search(text, 0, start)
    )


def amended_sections(tree: DocumentTree) -> Mapping[str, tuple[str, str]]:
    """``{section id: (amended Act as written, provision)}`` of the sections of ``tree`` whose
    references name the Act an amending provision amends (:func:`_amendment_scopes`), read-only;
    empty for a document that amends nothing. A passage holding several sections is read section by
    section where one of them is here (``chunking``), so each reference gets its own section's scope."""
    with document_language(tree.language):
        return MappingProxyType(_resolver(tree).amended)


def find_cross_references(text: str, tree: DocumentTree, source_section_id: str | None) -> list[CrossReference]:
    """References made in ``text`` (a passage of ``tree``), resolved against ``tree``.

    Args:
        text: the passage (Markdown or plain text).
        tree: the document the passage belongs to; its section ids are the resolution space.
        source_section_id: the section the passage stands in; set on every reference and
            used to resolve relative references ("paragraph 2" of the same article,
            "subsection (1)" of the same section).

    Returns:
        One :class:`CrossReference` per referenced number, in text order (a list
        "Sections 8.1 and 8.2" gives two; a range "4.13.5 to 4.13.8" gives each number; a
        compound "Article II, Section 3" gives one). A reference naming another document has
        ``document`` set and ``section_id=None``. Nothing on a Markdown heading line is a reference.
    """
    with document_language(tree.language):  # the chunker calls this outside build_tree's block
        refs = _find_cross_references(text, tree, source_section_id)
    short = _resolver(tree).short_names
    for ref in refs:  # "of the 1974 Act" where the text defines "the 1974 Act": the Act's full name
        if ref.document and (full := short.get(fold_document_name(ref.document))):
            ref.document = full
    return refs


# "the following Sections will survive …: 5.4 (Usage Data), 8.4 …": the keyword names the list after the colon
# (the opener words are the grammar's, grammar.list_opener_words)
_OPENERS = list_opener_words()
_FOLLOWING_RE = (
    re.compile(rf"\b(?i:{'|'.join(re.escape(w) for w in _OPENERS)})\s+{_KEYWORD}(?P<gap>[^.:;\n]{{1,160}}:)(?=\s*\d)")
    if _OPENERS
    else None
)


def _following_lists(text: str) -> str:
    """``text`` with the words between "the following Sections" and the colon that opens its list
    blanked (same length), so the keyword reads the numbers after the colon as its list."""
    if _FOLLOWING_RE is None or not any(w in text.lower() for w in _OPENERS):
        return text
    return _FOLLOWING_RE.sub(lambda m: m.group(0)[: m.start("gap") - m.start()] + " " * len(m.group("gap")), text)


def _find_cross_references(text: str, tree: DocumentTree, source_section_id: str | None) -> list[CrossReference]:
    resolver = _resolver(tree)
    taken: list[tuple[int, int]] = _heading_spans(text)
    links = _link_references(text, tree, resolver, source_section_id, taken) if "](" in text or "[[[#" in text else []
    toc = _toc_references(text, resolver, tree, source_section_id)
    for pos, _ in toc:  # a contents line is one reference, to the section it lists
        taken.append((pos, text.find("\n", pos) if "\n" in text[pos:] else len(text)))
    if links:  # "see [Section 4.2](#tls-version)": read the label as text, keep the link's resolution
        text = _LINK_RE.sub(lambda m: m.group("label") + " " * (len(m.group(0)) - len(m.group("label"))), text)
    refs: list[tuple[int, CrossReference]] = []
    # items written before the unit they are items of ("subsection 2 of NRS 1.117", "paragraph (a) of
    # subsection 2"): one reference each, read apart from the units after them (grammar.items_of)
    text, runs, item_refs = _items_of_runs(text, resolver, source_section_id, taken)
    refs += item_refs
    text = _following_lists(text)
    for m in _KW_REF_RE.finditer(text):
        if _inside(m.span(), taken):
            continue
        if _INSTRUMENT_AFTER_RE.match(text, m.end()):  # "Regulation (EU) 2016/679": a name, not a reference
            continue
        if _instrument_year(text, m):  # "the Medicinal Products (…) Regulations 2007": a name's year, no rule 2007
            taken.append(m.span())
            continue
        if _shouted_letter(text, m):  # "THIRD PARTY A" in a capitals disclaimer: a word, no Part A
            continue
        prefix = _keyword_prefix(m.group("kw"))
        if "/" in m.group("nums") and prefix not in _PROVISION_SLASH:
            continue  # "Regulation 17/62", "section 5/2": an instrument's number; only articles are inserted so
        listed = re.sub(_MEMBER_TITLE, "", m.group("nums"))  # the members' titles name no member
        members = list_members(listed, _ONE_NUMBER_FR if current_language() == "fr" else _ONE_NUMBER)
        numbers = expand_numbers(members)
        before = text[max(0, m.start() - 60) : m.start()]
        compound = _compound(m, prefix, numbers, text, resolver, source_section_id)
        if compound is not None:
            ref_text, targets, end, other_title = compound
            name = other_title or _named_after_chain(text, end, before)
            if not (name and (other_title or not resolver.is_own(name))):
                name = None
            scoped = None if name else _amendment_scope(resolver, text, m.start(), end, source_section_id)
            for target, section_id in targets:
                if scoped:  # "in paragraph 15(2) of Schedule 27" under "the Sentencing Act 2020 is amended as follows"
                    refs.append((m.start(), _ref(ref_text, target, None, source_section_id, scoped[0], amended=True)))
                    continue
                refs.append((m.start(), _ref(ref_text, target, None if name else section_id, source_section_id, name)))
            taken.append((m.start(), end))
            continue
        # an item of the enclosing provision ("Subject to subsection (3), and sections 20 and 23 of the Act of
        # 2013") takes no act named after the references listed with it: only one named right after it
        name = (
            _named_after_chain(text, m.end(), before)
            if prefix is not None
            else _named_document(text[m.end() : m.end() + 120], before, generic=True)
        )
        if name and resolver.is_own(name):
            name = None
        # "§ 7 Abs. 3", "Artikel 5 Absatz 1": the citation grammar's pinpoint words are its brackets
        tail = pinpoint_tail(text, m.end()) if len(numbers) == 1 and prefix is not None else None
        if tail:
            # "Art. 4 Abs. 1–2", "§ 7 Abs. 3 und 4": a list or range of the last pinpoint names each member
            numbers, stop = _continued_members(text, numbers[0] + tail[1], tail[0])
            tail = (stop, tail[1])
            taken.append((m.end(), tail[0]))
        scoped = None if name or tail else _amendment_scope(resolver, text, m.start(), m.end(), source_section_id)
        for number in numbers:
            if prefix == "recital" and re.fullmatch(r"\(\d{1,3}\)", number):
                number = number[1:-1]  # "recital (26)": the EU acts' way of writing recital 26
            if scoped is not None and (provision := _amended_target(scoped[1], m.group("kw"), prefix, number)):
                # under "X is amended as follows" / "In section 264 (…)—": the amended Act's provision
                refs.append((m.start(), _ref(m.group(0), provision, None, source_section_id, scoped[0], amended=True)))
                continue
            amending = (
                (number.startswith("(") or prefix is None)
                and _in_amendment(text, m.start())
                and not _of_this(text, m.end())
                and not _by_this(text, m.start())
            )
            if number.startswith("("):  # "subsection (1)", "paragraph (b)(2)": an item of an enclosing section
                number = re.sub(r"\s+", "", number)
                found = None if amending else resolver.resolve_item(number, source_section_id)
                target = found or number
            elif prefix is None and not amending and (unit := resolver.in_own_back_matter(number, source_section_id)):
                target = found = unit  # "paragraph 4" in a Schedule: the Schedule's own paragraph 4
            elif prefix is None and (glued := glued_item(_kind_of(m.group("kw")), number)):
                target = f"{glued[0]}({glued[1]})"  # "Subsection 2d": item (d) of section 2, not relative
                found = resolver.resolve(target, source_section_id)
            elif (
                prefix is None
                and number.isdigit()
                and not amending
                and (item := resolver.resolve_item(f"({number})", source_section_id))
            ):
                target = found = (
                    item  # "subsection 2" of a code numbering its subsections "2.": that item of this section
                )
            elif prefix is None:
                base = _relative_base(source_section_id)
                target = f"{base}({number})" if base and "-" in base and number.isdigit() else _normalise(number, "")
                found = None if amending else resolver.resolve(target)
            else:
                if re.fullmatch(_ROMAN, number) and not prefix:
                    continue
                lettered = _lettered_clause(text, m.end(), number, resolver) if len(numbers) == 1 else None
                if lettered:  # "Section B(5)": clause 5 of the part lettered B
                    target, tail = lettered[0], (lettered[1], "")
                    found = resolver.resolve(target, source_section_id)
                    written = text[m.start() : tail[0]]
                    refs.append((m.start(), _ref(written, target, None if name else found, source_section_id, name)))
                    continue
                if (
                    re.fullmatch(r"[A-Z]", number)
                    and not re.fullmatch(_ROMAN, number)
                    and prefix != "part"
                    and prefix not in back_matter_prefixes()
                ):
                    continue  # a lone letter names only a lettered container ("Appendix C", "Schedule A")  # "Section I" style is too ambiguous without a container keyword
                target = _normalise(number, prefix)
                # "section 10" in a Schedule whose units are paragraphs: the Act's section 10
                body_section = _kind_of(m.group("kw")) == "section" and (
                    resolver.back_container(source_section_id) in resolver.paragraph_back
                )
                found = resolver.resolve(target, None if body_section else source_section_id)
                if len(numbers) == 1:
                    found = resolver.named_by_title(target, text, m.end()) or found
            written = text[m.start() : tail[0]] if tail else m.group(0)
            refs.append((m.start(), _ref(written, target, None if name else found, source_section_id, name)))
        if prefix is not None and not name and any(last for _, last in members):
            refs += [
                (m.start(), r) for r in _inserted_in_ranges(members, prefix, resolver, m.group(0), source_section_id)
            ]
        taken.append((m.start(), pinpoints_end(text, tail[0] if tail else m.end())))  # "articles 3 et 5, § 2, de …"
    for m in _USC_RE.finditer(text):  # "(1 U.S.C. 211)": a section of title 1, this document's when it is title 1
        if _inside(m.span(), taken):
            continue
        title = f"title {m.group('title')}"
        own = resolver.is_own(title)
        target = _normalise(m.group("nums"), "")
        found = resolver.resolve(target, source_section_id) if own else None
        refs.append((m.start(), _ref(m.group(0), target, found, source_section_id, None if own else title)))
        taken.append(m.span())
    for m in _QUALIFIED_RE.finditer(text):
        if _inside(m.span(), taken) or m.group("doc") in ("RFC", "TLS", "ISO", "UTC"):
            continue
        own = m.group("doc") in resolver.own_names
        target = _normalise(m.group("nums"), "")
        kind = version_or_address(text, m.start("nums"), m.end("nums"))
        if (
            kind in ("version", "address")
            or (kind and not own)
            or (own and resolver.resolve(target) is None)
            or m.group("doc") in resolver.products
        ):
            taken.append(m.span())
            continue  # "BIND 9.18.0-dev", "BIND 9.0.0", "CNAME 1.0.0.0.192"; "BIND 9.18.41" in the BIND manual: a release, no section
        refs.append(
            (
                m.start(),
                _ref(
                    m.group(0),
                    target,
                    resolver.resolve(target, source_section_id) if own else None,
                    source_section_id,
                    None if own else m.group("doc"),
                ),
            )
        )
        taken.append(m.span())
    for m in _BARE_RE.finditer(text):
        if _inside(m.span(), taken) or _starts_line(text, m.start()):
            continue  # a number opening a line is a label, not a reference
        target = _normalise(m.group("nums"), "")
        name = _named_document(text[m.end() : m.end() + 120], "")
        if name and resolver.is_own(name):
            name = None
        if (name is None and resolver.not_a_section(text, m.start("nums"), m.end("nums"))) or version_or_address(
            text, m.start("nums"), m.end("nums")
        ) in ("version", "address"):
            continue  # "127.0.0.1", "version 3.2.1", "8.8.8.8" in a document numbered 4.2.1: no section
        refs.append(
            (
                m.start(),
                _ref(
                    m.group(0),
                    target,
                    None if name else resolver.resolve(target, source_section_id),
                    source_section_id,
                    name,
                ),
            )
        )
    refs = _pin_items(refs, runs, resolver, source_section_id, taken)
    if resolver.parent_document:
        _to_parent(refs, resolver.parent_document)
    _defined_kinds(refs, tree, resolver)
    refs = _merge_links(refs, links) + toc
    # contents lines in a section's text (a front page's table of contents, "4.2 Data Format ........ 5") list
    # the sections they name, they cite none: listings, never "cited by" (docstrata.citers)
    contents = _contents_spans(text) if source_section_id not in resolver.contents else [(0, len(text))]
    for pos, r in refs:
        if _inside((pos, pos + 1), contents):
            r.listing = True
    refs.sort(key=lambda x: x[0])
    for _, r in refs:
        if r.section_id and not r.document:
            r.target_document = tree.doc_key
    return [r for _, r in refs]


# a year ending an instrument's name ("Regulations 2007", "Civil Procedure Rules 1998"), after its other words
_YEAR_RE = re.compile(r"(?:1[6-9]|20)\d\d")
_NAME_BEFORE_RE = re.compile(r"(?:[A-Z][\w'’-]*|\))[ \t]+$")


def _instrument_year(text: str, m: re.Match) -> bool:
    """The keyword match ``m`` is the end of another instrument's name, not a citation: a kind word
    documents are named by (:func:`.grammar.document_words`: ``Regulations``, ``Rules``) after a
    capitalised word or a bracket of the name, followed by a year alone (``the Medicinal Products
    (Control of Manufacture) Regulations 2007``, ``the Civil Procedure Rules 1998``)."""
    kind = _kind_word(m.group("kw").rstrip("."))
    if kind not in document_words() or not _YEAR_RE.fullmatch(m.group("nums").strip()):
        return False
    return bool(_NAME_BEFORE_RE.search(text, max(0, m.start() - 40), m.start()))


def _shouted_letter(text: str, m: re.Match) -> bool:
    """The keyword match ``m`` is a word of text set in capitals followed by a lone letter
    (``… ANY PART A …`` of a disclaimer, a heading in capitals): in capitals a citation word is read
    as one only before a number (``PART 2``, ``SECTION 4.1``, ``ARTICLE IV``)."""
    kw, nums = m.group("kw"), m.group("nums").strip()
    if not (kw.isupper() and len(kw) > 1 and re.fullmatch(r"[A-Z]", nums) and not re.fullmatch(_ROMAN, nums)):
        return False
    line_start = text.rfind("\n", 0, m.start()) + 1
    line_end = text.find("\n", m.end())
    letters = [c for c in text[line_start : line_end if line_end >= 0 else len(text)] if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) > 0.8 * len(letters)


def _lettered_clause(text: str, end: int, letter: str, resolver: _Resolver) -> tuple[str, int] | None:
    """``("B(5)", end of the bracket)`` when a lone letter after a citation word (``Section B``) is
    followed by a bracketed number (``Section B(5)``) and the document cites a clause of its part
    lettered so that way (:func:`.parse.ids._lettered_part_aliases`: clause 5 of ``B. Account
    Terms``); ``None`` otherwise (the letter stays unread, as a lone letter after ``Section`` is)."""
    clause = re.match(r"\((\d{1,3})\)", text[end : end + 6])
    if not (clause and re.fullmatch(r"[A-Z]", letter)):
        return None
    target = f"{letter}({clause.group(1)})"
    return (target, end + clause.end()) if target in resolver.by_alias else None


_RELATIVE_WORD_RE = re.compile(
    rf"(?<![\w.])(?:{'|'.join(re.escape(w) for w in sorted(relative_words(), key=len, reverse=True))})(?![\w])",
    re.IGNORECASE,
)


def _items_of_runs(
    text: str, resolver: _Resolver, source_section_id: str | None, taken: list[tuple[int, int]]
) -> tuple[str, list[tuple[int, int, str, tuple[tuple[str, ...], ...]]], list[tuple[int, CrossReference]]]:
    """The runs of items written before their unit (:func:`.grammar.items_of`) in ``text``.

    Returns ``text`` with each run's item words blanked (same length: the unit after them is read
    by the usual passes, its items are not read again as references of their own), the runs whose
    unit follows as ``(start, unit start, written items, members)`` for :func:`_pin_items`, and the
    references of the runs with no unit after them: ``paragraph (a) of subsection 2`` is item
    ``(2)(a)`` of the nearest enclosing section that has it (none inside an amendment instruction,
    whose items are the amended provision's)."""
    runs: list[tuple[int, int, str, tuple[tuple[str, ...], ...]]] = []
    refs: list[tuple[int, CrossReference]] = []
    if not _RELATIVE_WORD_RE.search(text):
        return text, runs, refs
    chars = list(text)
    pos = 0
    # a link's label is read as text ("subsection 7 of [NRS 33.020](../NRS/NRS-033.html#…)"), one character
    # left of where it stands (the unit's reference is looked up at both places)
    view = _LINK_RE.sub(lambda m: m.group("label") + " " * (len(m.group(0)) - len(m.group("label"))), text)
    for w in _RELATIVE_WORD_RE.finditer(view):
        if w.start() < pos or _inside(w.span(), taken):
            continue
        found = items_of(view, w.start())
        if found is None:
            continue
        pos = found.end
        if found.cited is not None:
            runs.append((found.start, found.cited, view[found.start : found.cited], found.items))
            chars[found.start : found.cited] = " " * (found.cited - found.start)
            continue
        written = " ".join(view[found.start : found.end].split())
        amending = _in_amendment(text, found.start) and not _of_this(text, found.end)
        for pins in found.items:
            item = "".join(f"({p})" for p in pins)
            hit = None if amending else resolver.resolve_item(item, source_section_id)
            refs.append((found.start, _ref(written, hit or item, hit, source_section_id)))
        chars[found.start : found.end] = " " * (found.end - found.start)
    return "".join(chars), runs, refs


def _pin_items(
    refs: list[tuple[int, CrossReference]],
    runs: list[tuple[int, int, str, tuple[tuple[str, ...], ...]]],
    resolver: _Resolver,
    source_section_id: str | None,
    taken: list[tuple[int, int]],
) -> list[tuple[int, CrossReference]]:
    """``refs`` with the reference each run's unit made (the one read where the unit starts)
    replaced by one reference per member of the run's items, pinned in it: ``subsection 2 of NRS
    1.117`` cites ``1.117(2)`` (resolved to the finest section holding it, as ``NRS 1.117(2)`` is),
    ``subsection 2 of section 9 of the GPL`` ``9(2)`` of the GPL (the unit's document). A unit no pass
    read as a reference (``NRS 33.020`` of a chapter this document is not) makes none for its items
    either; one no pass read at all (``1.117`` cited bare) leaves them items of the enclosing
    section, as they were read before."""
    if not runs:
        return refs
    at: dict[int, int] = {}
    for j, (p, _) in enumerate(refs):
        at.setdefault(p, j)
    out = list(refs)
    dropped: set[int] = set()
    for start, cited, written, members in runs:
        i = at.get(cited, at.get(cited + 1))
        if i is None and not _inside((cited, cited + 1), taken):
            item = "".join(f"({p})" for p in members[0][-1:])
            hit = resolver.resolve_item(item, source_section_id)
            out.append((start, _ref(written.split(" of ")[0], hit or item, hit, source_section_id)))
            continue
        if i is None or i in dropped:
            continue
        unit = refs[i][1]
        dropped.add(i)
        for pins in members:
            item = "".join(f"({p})" for p in pins)
            target = unit.target + item
            # resolved from the section the unit names ("section 112b of title 1": 112b, whose (a) is 112b(a))
            found = (
                resolver.resolve(unit.section_id + item, source_section_id)
                if unit.section_id and not unit.document
                else None
            )
            ref = _ref(written + unit.text, target, found, source_section_id, unit.document)
            out.append((start, ref))
    return [x for j, x in enumerate(out) if j not in dropped]


OPENING_CHARS = 3000  # where a document says which other document it amends, supplements or belongs to


def declared_parent(tree: DocumentTree, resolver: "_Resolver | None" = None) -> str | None:
    """The document ``tree``'s opening (its title and first :data:`OPENING_CHARS` characters) says
    it amends, supplements or belongs to, as written (``Bonterms Professional Services
    Agreement``), or ``None``: the citation grammar's words for that relation
    (:func:`.grammar.parent_document_re`: ``additions to or modifications of``, ``supplements``,
    ``Schedule 2 to``) right before a document's name as a reference names one
    (:func:`_named_document`: capitalised words holding a kind word, an acronym or an instrument
    number). A name that is this document's own (``this Agreement``, its title) names none."""
    pattern = parent_document_re()
    if pattern is None:
        return None
    opening = "\n".join([tree.title or "", *(f"{s.heading}\n{s.text}" for s in tree.sections[:12])])[:OPENING_CHARS]
    opening = _LINK_RE.sub(lambda m: m.group("label"), opening)
    opening = re.sub(r"[*_]+", "", opening)
    own = resolver or _resolver(tree)
    names: list[str] = []
    for m in pattern.finditer(opening):
        after = opening[m.end() : m.end() + 200].lstrip()
        name = _named_document(" of " + after, "")
        if not name or own.is_own(name):
            continue
        kinds = _INSTRUMENT_WORDS_RE.findall(name)
        rest = after[after.find(name) + len(name) :] if name in after else ""
        numbered_plural = re.search(r"\d{1,4}/\d", name) and any(_kind_word(k) != k.lower() for k in kinds)
        if numbered_plural or _ANOTHER_NAME_RE.match(rest):
            return (
                None  # "amending Regulations (EC) No 1060/2009, (EU) No 648/2012 …": several documents, no one parent
            )
        names.append(" ".join(name.split()))
    if len({fold_document_name(n) for n in names}) > 1:
        # an Act whose contents list "Amendment of Health (Pricing …) Act 2013", "Amendment of Health Insurance
        # Act 1994 …": it amends several, and its bare references cite none of them in particular
        return None
    return names[0] if names else _self_declared_parent(tree, opening, own)


def _self_declared_parent(tree: DocumentTree, opening: str, own: "_Resolver") -> str | None:
    """The document ``opening`` says this one is under, in the words it says so of itself
    (:func:`.grammar.self_parent_re`: ``This SOW … incorporates the Agreement``, ``This Order Form is
    governed by the Master Services Agreement``), or ``None``. The name must end in a kind word
    (``… Agreement``), never ``of`` something (``the Laws of the State of New York`` is no document), and
    be no kind this document's own text calls it (a Professional Services Agreement that quotes its SOW
    form, "this SOW incorporates the Agreement", also says "this Agreement": the Agreement is itself).

    A kind word alone (``the Agreement``) is named, best evidence first, by this document's definition
    of it (``"Agreement" means the Professional Services Agreement between …``: that name), by its title
    when the title is a name of that kind while the document calls itself by another (a cover page
    headed ``Professional Services Agreement`` that says "this SOW": the agreement it is under), else it
    stays the kind word, which the tool resolves to the one other document it holds of that kind
    (:func:`docstrata.index.exact.resolve_cross_references`), none when several are."""
    pattern = self_parent_re()
    if pattern is None:
        return None
    for m in pattern.finditer(opening):
        subject = m.group("self").split()
        if keyword(subject[0]) is not None:
            continue  # "This Section is subject to …", "This Schedule forms part of the Agreement": a part of it
        after = opening[m.start("name") : m.start("name") + 200]
        name = _named_document(" of " + after, "", generic=True)
        if not name:
            continue
        name = " ".join(name.split())
        kind = _kind_word(name.split()[-1])
        if (
            kind not in _GENERIC_NAMES
            or re.match(r"\s+of\b", after[after.find(name) + len(name) :] if name in after else "")
            or kind in own.text_kinds
            or kind == _kind_word(subject[-1])
            or _defined_as_itself(tree, name)
        ):
            continue
        if any(w.lower() not in _GENERIC_NAMES | _SMALL_WORDS for w in name.split()):
            return name  # "the Master Services Agreement": a name
        return _named_kind(tree, name, kind) or name
    return None


def _defined_as_itself(tree: DocumentTree, name: str) -> bool:
    """Whether this document defines ``name`` as itself (``"AI Addendum Standard Terms" means these Common
    Paper AI Addendum Standard Terms``: a cover page that "incorporates the AI Addendum Standard Terms"
    holds them), the definition opening with a pack's words a document calls itself with
    (:func:`.grammar.self_words`: ``this``, ``these``)."""
    folded = fold_document_name(name)
    selves = "|".join(re.escape(w) for w in self_words())
    return any(
        fold_document_name(d.term) == folded and re.match(rf"(?:\w+\s+){{0,2}}?(?:{selves})\s", d.definition, re.I)
        for d in tree.definitions
    )


def _defined_name(tree: DocumentTree, word: str, kind: str) -> str | None:
    """The document this document's definition of the kind word ``word`` (``Agreement``, ``Standard
    Terms``) names: capitalised words ending in a word of that kind, the first after the verb
    (``"Agreement" means the Professional Services Agreement between …``) or the last before the term's
    own quotes (``… the Common Paper Professional Services Standard Terms Version 1.1 posted at … ("Standard
    Terms")``); ``None`` when it defines the word naming none."""
    folded = " ".join(word.lower().split())
    stem = re.escape(word.strip().rstrip("s"))
    name_re = re.compile(rf"(?<![\w-])((?:[A-Z][\w&'’-]*\s+){{1,6}}{stem}\w*)")
    for d in getattr(tree, "definitions", None) or []:
        if " ".join(d.term.lower().split()) != folded:
            continue
        text = re.sub(r"[*_]+", "", d.definition)
        quoted = re.search(rf"[“\"‘']{stem}\w*[”\"’']", text)
        found = list(name_re.finditer(text[: quoted.start()] if quoted else text))
        found = found[-1:] if quoted else found[:1]
        if found and _kind_word(found[0].group(1).split()[-1]) == kind:
            return re.sub(r"^(?:The|This)\s+", "", " ".join(found[0].group(1).split()))
    return None


def _defined_kinds(refs: list[tuple[int, CrossReference]], tree: DocumentTree, own: "_Resolver") -> None:
    """In place: a reference naming a kind word alone that this document defines (``Section 12.7 of the
    Standard Terms`` where ``("Standard Terms")`` names the Common Paper Professional Services Standard
    Terms) names what the definition names (:func:`_defined_name`), not the one document of that kind
    held: the definition is the document's own word for it."""
    for _, r in refs:
        kind = kind_of_name(r.document) if r.document and not r.section_id else None
        if kind is None or r.document is None or r.document == own.parent_document:
            continue
        name = _defined_name(tree, r.document, kind)
        if name and not own.is_own(name):
            r.document = name


def _named_kind(tree: DocumentTree, word: str, kind: str) -> str | None:
    """The name this document gives the document it calls by the kind word ``word`` alone (``Agreement``):
    its definition of the word when that names a document of the kind (``"Agreement" means the
    Professional Services Agreement between Provider and Customer`` → ``Professional Services
    Agreement``), else its title when the title is a name of that kind (more than the word); ``None``."""
    defined = _defined_name(tree, word, kind)
    if defined:
        return defined
    title = " ".join(re.sub(r"[*_#]+", " ", tree.title or "").split())
    words = title.split()
    if len(words) >= 2 and _kind_word(words[-1]) == kind and words[0][:1].isupper():
        return title
    return None


# a list going on after a document's name: "…, (EU) No 648/2012", "… and Directive 2014/65/EU"
_ANOTHER_NAME_RE = re.compile(
    r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:\((?:EU|EC|EEC)\)|No\.?\s*\d|\d{1,4}/\d|(?:the\s+)?[A-Z][a-z]+\s+(?:[A-Z]|\())"
)


def _to_parent(refs: list[tuple[int, CrossReference]], parent: str) -> None:
    """In place: each reference of ``refs`` that names no document and that no section of its own
    document holds — a provision's citation (``Section 11.2(b)``, ``3.5``), never an item of the
    enclosing section (``subsection 2``, ``paragraph (b)``) or a link to a file — cites ``parent``,
    the document its own declares it amends or belongs to (:func:`declared_parent`). A reference naming
    the parent's kind alone (``Section 3 of the Agreement`` in a SOW under the Professional Services
    Agreement) names ``parent`` too."""
    kind = _kind_word(parent.split()[-1])
    for _, r in refs:
        if r.document and not r.section_id and r.document != parent:
            words = fold_document_name(r.document).split()
            if words and all(w in _GENERIC_NAMES | _SMALL_WORDS for w in words) and _kind_word(words[-1]) == kind:
                r.document = parent
            continue
        if r.section_id or r.document or r.listing or r.target_document or r.target.startswith("("):
            continue
        word = re.match(r"[^\W\d_]+\.?|§+", r.text)
        k = keyword(word.group(0)) if word else None
        if k is not None and "relative" in k.roles:
            continue
        r.document = parent


def _inserted_in_ranges(
    members: tuple[tuple[str, str | None], ...],
    prefix: str,
    resolver: _Resolver,
    written: str,
    source_section_id: str | None,
) -> list[CrossReference]:
    """References to the sections a written range names beyond its arithmetic: ``sections 10 to 12``
    of a document that inserted ``10A`` and ``11A`` also cites them (its siblings between the two
    resolved ends, :meth:`_Resolver.siblings_between`). Ranges of items (``(a) to (c)``) are
    left to the grammar."""
    out: list[CrossReference] = []
    for first, last in members:
        if last is None or first.startswith("(") or last.startswith("("):
            continue
        a = resolver.resolve(_normalise(first, prefix), source_section_id)
        b = resolver.resolve(_normalise(last, prefix), source_section_id)
        if not a or not b:
            continue
        # the numbers the range writes out, and the sections they resolve to: a sibling so numbered is
        # named already, even where its number resolved to a nearer section elsewhere
        numbers = {_normalise(n, prefix) for n in expand_numbers(((first, last),))}
        named = {resolver.resolve(n, source_section_id) for n in numbers} | numbers
        lo, hi = _leading_number(a), _leading_number(b)
        for sibling in resolver.siblings_between(a, b):
            n = _leading_number(sibling)  # a numbered provision between the ends, not a "Notes" heading
            if (
                sibling not in named
                and sibling.rsplit("/", 1)[-1] not in named
                and lo is not None
                and hi is not None
                and n is not None
                and lo <= n <= hi
            ):
                out.append(_ref(written, sibling, sibling, source_section_id))
    return out


def _leading_number(section_id: str) -> int | None:
    """The number a section id's last part opens with: ``article-10a`` → 10, ``part-2/181B`` → 181."""
    m = re.match(r"(?:[a-zäöüéè]+-)?(\d{1,5})", section_id.rsplit("/", 1)[-1])
    return int(m.group(1)) if m else None


def _merge_links(
    refs: list[tuple[int, CrossReference]], links: list[tuple[int, CrossReference]]
) -> list[tuple[int, CrossReference]]:
    """A link whose label is also a textual reference ("[Section 4.2](#tls-version)") counts once:
    the textual one, resolved by the link target when the text alone did not resolve."""
    out = list(refs)
    for pos, link in links:
        same = [r for p, r in refs if pos <= p <= pos + 1 + len(link.text) or p <= pos <= p + len(r.text)]
        if same:
            for r in same:
                if r.section_id is None and link.section_id is not None and not r.document:
                    r.section_id = link.section_id
            continue
        out.append((pos, link))
    return out


def _continued_members(text: str, first: str, pos: int) -> tuple[list[str], int]:
    """The numbers a list or range names when it starts with ``first`` (a number just read, ending
    at ``pos`` of ``text``) and goes on with more numbers of the same unit: ``paragraphs 1–2`` →
    ``1``, ``2``; ``Abs. 1 und 2`` → ``(1)``, ``(2)`` when ``first`` is ``(1)``; ``4(1)`` +
    ``–(3)`` → ``4(1)``, ``4(2)``, ``4(3)`` (the citation grammar's :func:`.grammar.list_members` and
    :func:`.grammar.expand_numbers`). A member joined by a comma alone must be followed by one joined
    by a word or dash (``1, 2 and 4``): ``paragraph 5, 12 months`` lists nothing. Returns the
    numbers (``[first]`` when nothing follows) and the end of the last one read."""
    pairs: list[tuple[str, str, int]] = []
    at = pos
    while more := _MORE_MEMBER_RE.match(text, at):
        pairs.append((more.group("sep"), more.group("num"), more.end()))
        at = more.end()
    while pairs and pairs[-1][0].strip() == ",":
        pairs.pop()
    if not pairs:
        return [first], pos
    bracketed = first.endswith(")")
    written = first + "".join(
        sep + (num if num.startswith("(") or not bracketed else f"({num})") for sep, num, _ in pairs
    )
    return expand_numbers(list_members(written, _ONE_NUMBER)), pairs[-1][2]


def _back_container(
    text: str, m, after: str, resolver: _Resolver, source: str | None
) -> tuple[str, str | None, int, int, str] | None:
    """The back-matter container a unit cited as a paragraph belongs to, named right after it
    (``paragraph 13 of schedule 8``, ``paragraph 4 of the Schedule``, ``of this Schedule``) or right
    before it (``the Schedule, paragraph 4``, ``Schedule para 4``), as ``(container as cited,
    its section id or None, start, end of the written reference, the items written after the number
    that the number pattern left: ``(5A)``)``; ``None`` when no back-matter
    container is named there. ``the Schedule`` is the document's only, unnumbered one (id
    ``schedule``), ``this Schedule`` the one ``source`` stands in; a container the document does
    not have is cited all the same (another Act's, or a schedule an amendment names), unresolved."""
    back = back_matter_prefixes()
    start, end, det, kw, num, items = m.start(), m.end(), "", "", None, ""
    if (outer := _BACK_OUTER_AFTER_RE.match(after)) and (k := keyword(outer.group("kw"))) and k.prefix in back:
        det, kw, num, end = (
            (outer.group("det") or "").strip().lower(),
            k.prefix,
            outer.group("num"),
            m.end() + outer.end(),
        )
        items = outer.group("items")
    elif (
        (before := _BACK_BEFORE_RE.search(text[max(0, m.start() - 30) : m.start()]))
        and (k := keyword(before.group("kw")))
        and k.prefix in back
    ):
        det, kw, start = (before.group("det") or "").strip().lower(), k.prefix, m.start() - len(before.group(0))
    else:
        return None
    if num:
        container = _normalise(num, kw)
        found = resolver.resolve(container)
        return container, found if found and found.rsplit("/", 1)[-1] == container else None, start, end, items
    if det == "this":
        own = resolver.back_container(source)
        if own is not None and own.rsplit("/", 1)[-1].startswith(kw):
            return own.rsplit("/", 1)[-1], own, start, end, items
        return None
    return kw, kw if kw in resolver.ids else None, start, end, items


def _short_name_at(text: str, pos: int, resolver: _Resolver) -> str | None:
    """The Act a short name the document defines (:func:`_short_names`) names when one is written at
    ``pos`` (``the 2008 Act``), else ``None``."""
    head = text[pos : pos + 60]
    for short, act in resolver.short_names.items():
        spaced = r"\s+".join(map(re.escape, short.split()))
        m = re.match(rf"(?:the\s+)?{spaced}(?![\w-])", head, re.IGNORECASE)
        if m:
            return act
    return None


def _compound(
    m,
    prefix: str | None,
    numbers: list[str],
    text: str,
    resolver: _Resolver,
    source: str | None = None,
) -> tuple[str, list[tuple[str, str | None]], int, str | None] | None:
    """``Article II, Section 3`` / ``Section 3 of Article II``: (text, [(target, section id)],
    end, document) or None; ``document`` is set for ``section 552 of title 5`` in a document that
    is not title 5 (another title of a code). A list or range inside the container names each of
    its members (``Article 4 paragraphs 1–2``, ``paragraphs 1 and 2 of Article 4``: article-4(1)
    and article-4(2))."""
    after = text[m.end() : m.end() + 80]
    if prefix is None and numbers and all(_BARE_UNIT_RE.match(n) for n in numbers):
        back = _back_container(text, m, after, resolver, source)
        if back is not None:  # "paragraph 13 of schedule 8": that schedule's paragraph 13, never the body's section 13
            container, container_id, start, end, items = back
            members = [re.sub(r"\s+", "", n) for n in numbers]
            members[-1] += items
            targets = [
                (f"{container}/{n}", resolver.resolve_within(container_id, n) if container_id else None)
                for n in members
            ]
            # "paragraph 4 of Schedule 1 to the Energy Act 2004": that Act's schedule
            to = re.match(r"\s+to\s+(?=\S)", text[end : end + 8])
            name = _named_document(" of " + text[end + to.end() : end + 160], "", generic=True) if to else None
            if to and name is None and (short := _short_name_at(text, end + to.end(), resolver)):
                name = short  # "paragraph 3(1)(d) of schedule 1 to the 2008 Act"
            if name and resolver.is_own(name):
                name = None
            if name:
                targets = [(t, None) for t, _ in targets]
            return " ".join(text[start:end].split()), targets, end, name
    if (
        prefix is None
        and numbers
        and (outer := _OUTER_AFTER_RE.match(after))
        and _keyword_prefix(outer.group("kw")) == "article"
        and all(re.fullmatch(r"\d{1,3}", n) for n in numbers)
    ):  # "paragraphs 1 and 2 of Article 4": that article's paragraphs, not the citing article's
        container = _normalise(outer.group("num"), "article")
        end = m.end() + outer.end()
        targets = [(f"{container}({n})", resolver.resolve(f"{container}({n})")) for n in numbers]
        return " ".join(text[m.start() : end].split()), targets, end, None
    if len(numbers) != 1:
        return None
    inner = None
    inners: list[str] = []
    if prefix in _CONTAINER_PREFIXES and (inner := _INNER_AFTER_RE.match(after)):
        container = _normalise(numbers[0], prefix)
        number = re.sub(r"\s+", "", inner.group("num"))
        inners, stop = _continued_members(text, number, m.end() + inner.end())
        end = stop
    elif (
        prefix in _CONTAINER_PREFIXES
        and (nested := _INNER_CONTAINER_RE.match(after))
        and (outer_kw := keyword(m.group("kw")))
        and (inner_kw := keyword(nested.group("kw")))
        and inner_kw.prefix
        and inner_kw.rank > outer_kw.rank
    ):  # "Part V Division 1AA": a division of Part V
        container = _normalise(numbers[0], prefix)
        number = _normalise(nested.group("num"), inner_kw.prefix)
        end = m.end() + nested.end()
    elif prefix == "" and (outer := _OUTER_AFTER_RE.match(after)):
        outer_prefix = _keyword_prefix(outer.group("kw")) or "part"
        container = _normalise(outer.group("num"), outer_prefix)
        number = _normalise(numbers[0], "")
        end = m.end() + outer.end()
    else:
        return None
    if (
        prefix == "article"
        and inner is not None
        and (_keyword_prefix(inner.group("kw")) is None or inner.group("kw") in item_words())
        and re.fullmatch(rf"\d+(?:{'|'.join(SUFFIX_WORDS)})?", number := canonical_number(number))
        and all(re.fullmatch(rf"\d+(?:{'|'.join(SUFFIX_WORDS)})?", canonical_number(n)) for n in inners)
    ):  # "Article 3, paragraph 5", "l'article 4, § 2", "l'article 2, alinéa 1er": the article's paragraph, article-3(5)
        targets = []
        for member in [canonical_number(n) for n in inners]:
            target = f"{container}({member})"
            if inner.group("kw") in item_words() and any(i.startswith(f"{container}/") for i in resolver.ids):
                # an article whose paragraphs are "§ N" sections (parse.build._is_article_sign_paragraph): its
                # "§ 2" is article-8/2, not a limb "2." (article-8(2)); its "§ 1", run on after the label, the article
                signed = f"{container}/{member}"
                target = signed if signed in resolver.ids else container
            targets.append((target, resolver.resolve(target)))
        return " ".join(text[m.start() : end].split()), targets, end, None
    if len(inners) > 1:  # "Article II, Sections 3 and 4": each of the container's sections
        container_id = resolver.resolve(container)
        targets = [
            (f"{container}/{n}", resolver.resolve_within(container_id, n) if container_id else None) for n in inners
        ]
        return " ".join(text[m.start() : end].split()), targets, end, None
    container_id = resolver.resolve(container)
    if container_id is None and prefix == "":
        if outer_prefix == "title" and not resolver.is_own(f"title {outer.group('num')}"):
            # "section 552 of title 5" cited from another title: that title's section, never ours
            return " ".join(text[m.start() : end].split()), [(number, None)], end, f"title {outer.group('num')}"
        return None  # "section 112 of title 1" in title 1 (no title 1 section here): a plain section reference
    found = resolver.resolve_within(container_id, number) if container_id else None
    if found is None and container_id and inner is not None and after.startswith(",") and resolver.resolve(number):
        # "In addition to Chapter 12, Rule 15.3 sets out …": no rule 15.3 inside Chapter 12 but one
        # elsewhere — two references listed, not one compound
        return None
    if found is None and container_id and re.fullmatch(rf"[0-9]{{1,3}}[A-Za-z]?|{ROMAN_PATTERN}", number):
        # a Section that holds Articles is a container with its keyword in its id (GDPR's
        # "chapter-iii/section-3"): "Section 3 of Chapter III" names it
        named = resolver.resolve_within(container_id, f"section-{number.lower()}")
        if named:
            return " ".join(text[m.start() : end].split()), [(named, named)], end, None
    return " ".join(text[m.start() : end].split()), [(f"{container}/{number}", found)], end, None


def _starts_line(text: str, pos: int) -> bool:
    return not text[text.rfind("\n", 0, pos) + 1 : pos].strip(" \t#*>|")


def _inside(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(a <= span[0] < b or a < span[1] <= b for a, b in taken)


def _ref(
    text: str,
    target: str,
    section_id: str | None,
    source: str | None,
    document: str | None = None,
    amended: bool = False,
) -> CrossReference:
    return CrossReference(
        text=" ".join(text.split()),
        target=target,
        section_id=section_id,
        source_section_id=source,
        document=" ".join(document.split()) if document else None,
        amended=amended,
    )


def _amendment_scope(
    resolver: _Resolver, text: str, start: int, end: int, source: str | None
) -> tuple[str, str] | None:
    """The (amended Act, provision) a reference written at ``text[start:end]`` in ``source`` names
    a provision of (:func:`_amendment_scopes`), or ``None``: outside any scope, or cited as this Act's
    own (``… of this Act``, ``as inserted by section 3``, ``amended in accordance with …``)."""
    scoped = resolver.amended.get(source) if source else None
    if scoped is None or _of_this(text, end) or _by_this(text, start):
        return None
    return scoped


def _amended_target(provision: str, kw: str, prefix: str | None, number: str) -> str | None:
    """The provision of the amended Act a reference (keyword ``kw``, id ``prefix``, ``number``)
    names inside ``provision`` (:func:`_provision_of`): ``subsection (3)`` in ``264`` → ``264(3)``,
    ``paragraph 8`` in ``schedule-5zb`` → ``schedule-5zb/8``, ``section 19`` → ``19``, ``Schedule 13``
    → ``schedule-13``; ``None`` for a number no provision is cited by."""
    number = re.sub(r"\s+", "", number)
    if prefix is None:
        kind = _kind_of(kw) or "paragraph"
        return _provision_of(f"{kind} {number}", provision)
    if re.fullmatch(_ROMAN, number) and not prefix:
        return None
    return _normalise(number, prefix)


def extract_cross_references(tree: DocumentTree) -> list[CrossReference]:
    """Every reference made in ``tree``, per section (``source_section_id`` set), in document order.
    A contents section (:func:`.contents.is_contents_section`: the document's own table of contents
    or index) makes no references from its words: a plain-text contents line (``1.1.  Roles ....
    6``) lists a section, it does not cite it. Only its markup links remain (a Markdown contents
    list of ``[Title](#anchor)`` links), which the source itself writes as links, each a ``listing``;
    contents lines in other text (a front page's ``Table of Contents`` block) are listings too
    (:func:`find_cross_references`)."""
    from .contents import is_contents_section

    out: list[CrossReference] = []
    for s in tree.sections:
        if is_contents_section(s):
            body = f"{s.heading}\n{s.text}" if s.heading else s.text
            if "](" in body or "[[[#" in body:
                links = _link_references(body, tree, _resolver(tree), s.section_id, _heading_spans(body))
                for _, ref in links:
                    if ref.section_id != s.section_id:
                        ref.listing = True  # a contents entry lists its section, it cites none
                        out.append(ref)
            continue
        body = f"{s.heading}\n{s.text}" if s.heading else s.text
        for ref in find_cross_references(body, tree, s.section_id):
            if ref.section_id != s.section_id:  # a section's own label is not a reference
                out.append(ref)
    return out
