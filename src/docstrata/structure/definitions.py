"""Defined terms: definitions sections, definitions blocks, inline patterns and marked-up terms.

Entry point: :func:`extract_definitions`. Recognised forms (straight and curly quotes,
optional ``**bold**``, HTML spans stripped):

* anywhere: ``"X" means …``, ``‘X’ means …``, ``**"X"** means …``, ``"X" shall mean …``,
  ``"X" (or "Y") shall mean …``, ``"Source" form shall mean …``, ``"X" refers to …``,
  ``"X" has the meaning …``, ``X is defined as …``, ``X: means …``; Markdown definition lists
  (``Term`` / ``: definition``, the term line maybe closed by a colon as kramdown-rfc writes it:
  ``Ack-eliciting frames:``); terms the source markup marks (HTML ``<dfn>``, ``<dl>`` entries
  under a definitions heading: :class:`~docstrata.models.MarkedDefinition`, found by the converter);
* inside a definitions section — titled Definitions / Dictionary / Glossary / Terms and Definitions / Terminology /
  Interpretation / Meaning of terms / Defined terms, or a subsection of one — or a definitions
  block — the text after ``In this Act —``, ``In this Part:``, ``For the purposes of this
  Regulation:`` — also ``A "covered work" means …``, ``To "modify" a work means …``, unquoted
  ``vessel means …`` / ``business day includes …`` opening a line or item, ``Term: definition`` /
  ``**Term** definition`` lines (``**Term** (ABBR) – definition`` also defines ``ABBR``), and sub-headings that name a term (``### 2.3 CVE`` under
  ``## 2 Terms and Definitions``), whose body is the definition; lines opening with an emphasised
  term (``**_term_**``, ``***term***``, ``__term__``, ``*term*``, a code span; one reader,
  :func:`_term_line_entries`) then a separator (``* **Action**: …``, ``- **Term** — …``,
  ``appoint: see section 33AA``) or a language pack's definition verb (``**_company_** means:``
  and its limbs, ``**_X_**, in relation to Y, has the meaning given by section N``); RFC hanging
  lists (``Option Type`` / its meaning indented below); a glossary of ``Term definition`` lines with
  no quotes or verb (``Incapacity any sickness …``, ``**Term** …``, ``AKEP2     An …``:
  :func:`_unmarked_glossary_entries`, only where the form repeats);
* anywhere: an abbreviation in brackets after its long form (``Protected Health Information (PHI)``:
  :func:`acronym_long_form`), defined as that long form.

Emphasis markers never stay in a term (:func:`_strip_emphasis`, applied to every reader's term). A
dictionary entry that only points elsewhere (``see section 2G``) gives way to the definition it
points at when the document holds it in the same scope.

Evidence, not a stop-list alone, decides what is a term: a term is a noun phrase (it does not
start with a pronoun, determiner, conjunction or auxiliary — ``it``, ``this``, ``such``, ``which``
— and is not only function words); unquoted forms count only inside definitions sections or
blocks. The definition text runs from the verb to the end of its paragraph. Each definition
carries its scope, the section subtree its lead-in says it governs (``In this subtitle:``,
``For the purposes of this Part``; :mod:`.definition_scope`), ``None`` for the whole document. A
term defined twice in one scope keeps its first definition; defined in different scopes (each
title its own "Secretary"), it keeps one per scope (conflicts across documents are reported
elsewhere).
"""

from __future__ import annotations

import re

from ..models import DefinitionEntry, DocumentTree, MarkedDefinition, Section
from .definition_scope import definition_scope
import functools
from dataclasses import dataclass, replace

from .grammar import definition_forms, drafting_note_re, is_enumerator, is_note_label, keyword_words

_DEF_SECTION_RE = re.compile(
    # not a bare "Terms": "Terms" / "General Terms" / "Terms of Service" title agreements, not glossaries
    r"\b(definitions?|glossary|defined terms|terms (?:and|&) definitions|terms used|interpretation|meaning of terms|"
    r"terminology|dictionary|acronyms|abbreviations)\b",
    re.I,
)
# "In this Act —", "In this Part:", "For the purposes of this Regulation:" open a definitions block
_BLOCK_OPENER_RE = re.compile(
    r"(?im)^[ \t>*-]*(?:\(\d+\)\s*|\d+\.?\s+)?(?:In|For the purposes of)\s+this\s+(?:Act|Part|Division|Chapter|"
    r"Agreement|Regulation|Directive|Schedule|section|subsection|Article|Code|Ordinance|Policy|Licen[cs]e|instrument|"
    r"Order|Rules?|Specification|Standard|Contract|document|Title|subchapter)\b[^.\n]{0,80}?(?:[—–:]|\s-\s|,?\s*—?$)"
)
# a numbered entry of a definitions list: "1. profil ADN : un code …", "2° « vendeur » : toute personne …",
# "3. Term: definition" (a Belgian or French act's "on entend par :" list, a contract's list of terms):
# the term (quoted or not, up to eight words, no punctuation) before a colon, its meaning after it
_NUMBERED_TERM_RE = re.compile(
    r"(?m)^[ \t>]*(?:\(?\d{1,3}(?:[.)°]|\s?°)|[a-z]\))[ \t]+(?:\*\*)?(?P<q>[\"«“][ \t\u00a0]?)?"
    r"(?P<term>[^\W\d_][^:;,.!?\"«»“”\n]{0,70}?)(?(q)[ \t\u00a0]?[\"»”])(?:\*\*)?[ \t\u00a0]?:[ \t]+(?P<def>\S[^\n]*)"
)
_UNQUOTED_BLOCK_RE = re.compile(
    r"(?m)^[ \t>*-]*(?:\(?[0-9a-zA-Z]{1,4}[.)]\s+)?(?:\*\*|__)?(?P<term>[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’()-]*){0,5}?)"
    r"(?:\*\*|__)?,?\s+(?P<verb>means|includes|has\s+the\s+(?:same\s+)?meaning|refers\s+to|shall\s+mean)\b"
)
_HANGING_RE = re.compile(
    r"(?m)^(?P<ind>[ \t]*)(?P<term>[A-Za-z][^\n.;]{0,60}?)[ \t]*\n(?P<ind2>[ \t]+)"
    r"(?P<def>\S[^\n]*(?:\n(?P=ind2)\S[^\n]*)*)"
)
# "Term" / ": definition" (kramdown, mmark, PHP Markdown Extra); kramdown-rfc writes the term line with a
# closing colon ("Ack-eliciting frames:"); the definition carries on over the lines indented under it
_DEFLIST_RE = re.compile(
    r"(?m)^(?P<term>[^\s#>|:*-][^\n:]{0,79}?)[ \t]*(?P<colon>:?)[ \t]*\n(?:[ \t]*\n)?:[ \t]+"
    r"(?P<def>\S[^\n]*(?:\n[ \t]+\S[^\n]*)*)"
)
_WORD_RE = re.compile(r"[^\W\d_]{2,}")
_DEMONSTRATIVES = frozenset("it its this that these those such which there here".split())
_FUNCTION_WORDS = frozenset(
    "it its this that these those such which who whom whose what whatever there they them their he she his her "
    "we our you your i me my each any all some every either neither both no none one other another a an and or "
    "but if unless when where while as of to in on at by for from with without is are was were be been being "
    "has have had do does did shall will would should may might can could must not also so then than thus "
    "here hereby herein thereof".split()
)
_TAG_RE = re.compile(r"<[^>]+>")
_NUMBER_PREFIX_RE = re.compile(
    rf"^(?:(?:{'|'.join(keyword_words('label'))}|§)\s*)?[\w.()]*\d[\w.()]*(?:\s*[:\-–—]\s*|\s+)", re.I
)
# quote marks that may open and close a term: straight, English curly, German low-high („…“, ‚…‘),
# French and Swiss guillemets («…») and their German reversal (»…«)
# and the backtick a plain-text or Markdown draft quotes a term with (`Business Day` means …)
_Q_OPEN, _Q_CLOSE = "\"“‘'«„‚»`", "\"”’'»“‘«`"
_BOLD = r"(?:\*\*|__)?"  # "**Term**" inside the quotes (Common Paper, markitdown's rendering of <b>)
_TERM = (
    rf"(?<![\w`'’])(?<!``)[{_Q_OPEN}]{_BOLD}(?P<term>(?=[\w(])[^{_Q_OPEN}{_Q_CLOSE}*\n]{{1,80}}?){_BOLD}[{_Q_CLOSE}]"
)
_VERB = r"(?P<verb>shall\s+mean|means|mean|refers?\s+to|shall\s+refer\s+to|(?:will\s+|shall\s+)?ha(?:s|ve)\s+the\s+(?:same\s+)?meaning|is\s+defined\s+as|shall\s+include|includes)\b"
# another spelling of the term: '"You" (or "Your") shall mean', '“You” or “Your” shall mean'
_PAREN = (
    r"(?:\s*\((?P<alt>[^()\n]{0,80})\)"
    rf"|(?P<alt2>\s+(?:or|and)\s+{_BOLD}[{_Q_OPEN}]{_BOLD}[^{_Q_OPEN}{_Q_CLOSE}*\n]{{1,80}}?{_BOLD}[{_Q_CLOSE}]{_BOLD}))?"
)
_STRICT_RE = re.compile(rf"(?:\*\*|__)?{_TERM}(?:\*\*|__)?{_PAREN}(?:\s+form)?\s*,?\s*{_VERB}")
# in a definitions section, words may qualify the term before the verb: "Patent Claims" of a Contributor means;
# or a phrase between commas: “alternative format”, with respect to personal information, means (Commonwealth drafting)
_LOOSE_RE = re.compile(
    rf"(?:\*\*|__)?{_TERM}(?:\*\*|__)?{_PAREN}(?:(?:\s+[A-Za-z][\w-]*){{0,4}}|(?:\s*,(?:\s+[\w’'-]+){{1,12}}){{1,2}}\s*,)"
    rf"\s*,?\s*{_VERB}"
)
# a term named after its description: 'the person making the proposal is called the "promisor"', 'he is
# said to make a proposal', 'such act is called a consideration for the promise', 'is referred to as the
# `Agent`'; an unquoted term (one to three words up to a preposition or a stop) only in a definitions block
_NAMING_RE = re.compile(
    rf"\b(?:is|are|be|been)\s+(?:called|termed|known\s+as|referred\s+to\s+as|said\s+to\s+(?:be|make|have|give))"
    rf"\s+(?:(?:an?|the)\s+)?(?:{_TERM.replace('?P<term>', '?P<qterm>')}"
    rf"|(?P<term>[A-Za-z][\w-]*(?:\s+(?!(?:for|of|to|by|in|on|at|and|or|with|when|if|which|that|who|as|from|under|"
    rf"upon|is|are|shall|will|may)\b)[A-Za-z][\w-]*){{0,2}})(?=\s*[;:,.]|\s+(?:for|of|to|by|in|on|and|or|with|when|"
    rf"if|which|that|who|as|from|under|upon)\b))"
)
_UNQUOTED_RE = re.compile(
    r"(?:^|(?<=[.\n|]\s)|(?<=\n))(?:\*\*)?(?P<term>[A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){0,5}?)(?:\*\*)?"
    r"(?::\s*(?P<verb>means)|\s+(?P<verb2>is\s+defined\s+as))\b"
)
# a parenthesis that names the term just introduced: (“**MNDA**”), (the "Agreement"), (each, a "Party"),
# (together with its Affiliates, "Customer"), (hereinafter "the Seller")
_PAREN_RE = re.compile(rf"\((?P<inner>[^()\n]{{0,80}}?[{_Q_OPEN}][^()\n]{{1,160}}?)\)")
_QUOTED_RE = re.compile(rf"[{_Q_OPEN}]{_BOLD}(?P<term>[^{_Q_OPEN}{_Q_CLOSE}*\n]{{1,80}}?){_BOLD}[{_Q_CLOSE}]")
_LEAD_IN = frozenset(
    "the a an each collectively together individually jointly severally hereinafter hereafter "
    "herein referred to as and or also known called".split()
)
_NAMING_LEAD = frozenset("the hereinafter hereafter referred as called known".split())
# a relative clause opening a naming parenthesis, before its naming verb: "(which date is referred to herein
# as the "Initial Closing")", "(such period being hereinafter called the "Term")": dropped, the rest must name
_RELATIVE_NAMING_RE = re.compile(
    r"^\s*(?:which|that|such|this|these|whose)\b(?:\s+[\w-]+){0,3}?\s+(?:is|are|was|being|shall\s+be|will\s+be)\s+"
    r"(?=(?:herein(?:after)?\s+|hereafter\s+)?(?:referred|called|known|hereinafter|hereafter)\b)",
    re.I,
)
_BCP14 = frozenset("MUST SHALL SHOULD MAY NOT REQUIRED RECOMMENDED OPTIONAL".split())
_GLOSSARY_LINE_RE = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\*\*(?P<bold>[^*\n]{1,60})\*\*|(?P<colon>[A-Z][\w ()/-]{0,60}?):)\s+(?P<def>\S.*)$"
)
# "   client:  The endpoint initiating the TLS connection." (RFC terminology lists): a term of up to
# four words, a colon, the definition, continued on the lines indented below it
_COLON_ENTRY_RE = re.compile(
    r"(?m)^(?P<ind>[ \t]*)(?:[-*][ \t]+)?(?P<term>[A-Za-z][\w()/'’-]*(?:[ ][A-Za-z0-9][\w()/'’-]*){0,3})"
    r":[ \t]+(?P<def>\S[^\n]*(?:\n(?P=ind)[ \t]+\S[^\n]*)*)"
)
# a definition whose paragraph ends by introducing its limbs: "means any of the following:", "means—"
_INTRO_END_RE = re.compile(
    r"(?:[:—–]|\s-|\b(?:means|includes|following|who|which|that|where|if|either|because))\s*$", re.I
)
# a footnote's own line ("[^eu8]: Directive 2000/31/EC … (‘Directive on electronic commerce’)"; mammoth's
# "1. … [↑](#footnote-ref-1)"): a parenthesis there gives the short title of the instrument it cites
_FOOTNOTE_LINE_RE = re.compile(r"^\s*\[\^[^\]\s]+\]:|\]\(#(?:footnote|endnote)-ref-", re.M)
# lone table-cell bars ("16. | ‘main establishment’ means: |") and a separator opening a glossary body
# ("**Allowlist** – A list …", "**Term** (ABBR) - …")
_CELL_BAR_RE = re.compile(r"(?:(?<=\s)|^)\|(?=\s|$)")
_LEAD_SEPARATOR_RE = re.compile(r"^(?:[–—-]+|:)\s+")


@dataclass(frozen=True)
class _PackForms:
    """The language packs' definition forms (:func:`.grammar.definition_forms`) as regexes:
    ``verb`` — a quoted term then a pack verb (``« X » s'entend de``); ``lead`` — a pack lead-in then
    a quoted term (``on entend par « X »``); ``entry`` — a line opening with a term in a pack's entry
    quotes and its meaning after it (``« renseignement personnel » Tout renseignement …``), read in a
    definitions section only; ``title`` — a pack's definitions-section title (``Définitions``)."""

    verb: re.Pattern
    lead: re.Pattern
    entry: re.Pattern
    title: re.Pattern
    block: re.Pattern = re.compile(r"(?!x)x")


_NEVER = re.compile(r"(?!x)x")


@functools.lru_cache(maxsize=1)
def _pack_forms() -> _PackForms:
    forms = definition_forms()
    quotes = forms.get("entry_quotes", ())
    pairs = [(quotes[i], quotes[i + 1]) for i in range(0, len(quotes) - 1, 2)]
    space = r"[\s\u00a0\u202f]"
    # a term in the packs' quotes (guillemets with their inner spaces) or in any quotes _TERM reads
    alt_terms = "|".join(
        rf"{re.escape(o)}{space}*(?P<g{i}>[^{re.escape(o + c)}\n]{{1,80}}?){space}*{re.escape(c)}"
        for i, (o, c) in enumerate(pairs)
    )
    term = rf"(?:{_TERM}{'|' + alt_terms if alt_terms else ''})"
    verbs, leads = "|".join(forms.get("verbs", ())), "|".join(forms.get("lead_ins", ()))
    entry = (
        rf"(?m)^[ \t>*-]*(?:\(?[0-9a-zA-Z]{{1,4}}[.)]\s+)?(?:{alt_terms}){_PAREN}{space}+(?P<def>[^\s(,;.:].*)"
        if alt_terms
        else _NEVER.pattern
    )
    titles = "|".join(forms.get("titles", ()))
    return _PackForms(
        verb=re.compile(rf"{term}{_PAREN}\s*,?\s*(?P<verb>{verbs})(?!\w)", re.I) if verbs else _NEVER,
        lead=re.compile(rf"\b(?:{leads}){space}+{term}", re.I) if leads else _NEVER,
        entry=re.compile(entry),
        title=re.compile(rf"(?i)\b(?:{titles})\b") if titles else _NEVER,
        # a lead-in closing its line with a colon: the definitions follow it as a list
        block=re.compile(rf"(?im)\b(?:{leads}){space}*:[ \t]*$") if leads else _NEVER,
    )


def _pack_term(m: re.Match) -> str:
    """The term a :class:`_PackForms` match read, in whichever quotes it was written."""
    return next((v for k, v in m.groupdict().items() if (k == "term" or re.fullmatch(r"g\d+", k)) and v), "")


def _pack_definitions(body: str, in_defs: bool) -> list[tuple[int, str, str]]:
    """``(offset, term, definition)`` of each definition ``body`` writes in a language pack's form."""
    forms, out = _pack_forms(), []
    for m in forms.verb.finditer(body):
        out.append((m.start(), _pack_term(m), _definition_after(body, m.start("verb"))))
    for m in forms.lead.finditer(body):
        out.append((m.start(), _pack_term(m), _definition_after(body, m.end())))
    if in_defs:
        for m in forms.entry.finditer(body):
            out.append((m.start(), _pack_term(m), _definition_after(body, m.start("def"))))
    return [(p, t.strip(" ,."), d) for p, t, d in out if _plausible_term(t.strip(" ,."), quoted=True)]


def _clean(text: str) -> str:
    return _TAG_RE.sub("", text)


def _is_definitions_section(s: Section, by_id: dict[str, Section]) -> bool:
    """This section or an ancestor (``by_id``: the tree's sections by id) is titled like a definitions section."""
    cur: Section | None = s
    hops = 0
    while cur is not None and hops < 8:
        words = _NUMBER_PREFIX_RE.sub("", cur.title)
        quoted = words[:1] in _Q_OPEN  # a definition paragraph titled by its term ("Terms"), not a heading
        if (
            not quoted
            and (_DEF_SECTION_RE.search(words) or _pack_forms().title.search(words))
            and len(words.split()) <= 5
        ):
            return True
        cur = by_id.get(cur.parent_id) if cur.parent_id else None
        hops += 1
    return False


# a registry and its registration template (RFC "IANA Considerations"): field names, not terms
_FORM_SECTION_RE = re.compile(r"\b(?:IANA\s+considerations|regist(?:ry|ries)|(?:registration\s+)?templates?)\b", re.I)


def _is_form_section(s: Section, by_id: dict[str, Section]) -> bool:
    """This section or an ancestor is titled as a registry or a registration template."""
    cur: Section | None = s
    for _ in range(8):
        if cur is None:
            return False
        if _FORM_SECTION_RE.search(cur.title):
            return True
        cur = by_id.get(cur.parent_id) if cur.parent_id else None
    return False


# A paragraph ending like this certainly continues in limbs (the next paragraph is taken even when it
# is only a limb's bare label); _INTRO_END_RE ("… means", "… who") only says limbs may follow.
_OPENS_LIMBS_RE = re.compile(r"(?:[—–:]|\bfollowing\W*)\s*$")
# A limb: "(a) …", "“(i) …", "> (A) …" (quoted amendment text), "a. …", "1) …".
_LIMB_RE = re.compile(r"^[>*\s“\"‘'-]*(?:\([0-9A-Za-z]{1,5}\)|[a-z0-9]{1,3}[.)]\s)")


_BULLET_RE = re.compile(r"^[ \t]*[-*+•][ \t]+\S")
_CLOSED_RE = re.compile(r"[.;!?][\s\"'”’)\]*_]*$")


def _definition_after(text: str, start: int) -> str:
    """The definition text from ``start`` to the end of its paragraph (≤ 1500 chars); a definition
    that opens limbs ("means any individual who—", "means any of the following:", a bare
    "means") keeps the paragraphs of its limbs (``(A) …``, ``“(i) …``, ``a. …``) and their
    continuations."""
    end = text.find("\n\n", start)
    end = len(text) if end < 0 else end
    parts = [text[start:end]]
    first = parts[0].strip().rstrip(" |")  # "‘main establishment’ means: |": a cell bar after the colon
    need_more, in_limbs = bool(_OPENS_LIMBS_RE.search(first)), False
    opens = need_more or bool(_INTRO_END_RE.search(first))  # "… means" / "… who": limbs may follow
    # a paragraph without a closing stop ("… and is either", "… including without limitation") runs
    # on into the bulleted list after it
    bullets_may_follow = opens or not _CLOSED_RE.search(first)
    while (need_more or in_limbs or opens or bullets_may_follow) and end < len(text) and sum(map(len, parts)) < 1500:
        opens = False
        nxt = text.find("\n\n", end + 2)
        nxt = len(text) if nxt < 0 else nxt
        following = text[end:nxt].strip()
        bullets = bullets_may_follow and bool(_BULLET_RE.match(following))
        bullets_may_follow = False
        limb = bool(_LIMB_RE.match(following)) or bullets
        if not following or not (limb or need_more):
            break
        if bullets:  # "* technical information …, or" / "* non-technical information …": the words, not the marks
            following = re.sub(r"(?m)^[ \t]*[-*+•][ \t]+", "", following)
        parts.append(re.sub(r"^(?:>\s*)+|\*\*", "", following))  # quoted limbs: their words, not Markdown
        end, in_limbs = nxt, True
        # after a limb's bare label ("**“(A)**") or a limb opening sub-limbs ("on December 31, 2013—")
        need_more = bool(_OPENS_LIMBS_RE.search(following)) or limb and len(following.split()) <= 2
    para = "\n\n".join(parts)
    return " ".join(para.split())[:1500].strip(" :,-|")


def extract_definitions(tree: DocumentTree, marked: list[MarkedDefinition] | None = None) -> list[DefinitionEntry]:
    """Defined terms of ``tree`` in document order, each with the section that defines it.

    Args:
        tree: the parsed document.
        marked: terms the source markup marks as defined (``Document.marked_definitions``); each
            is placed in the section titled like its heading (else the first section whose text
            holds the term) and kept after the text's own definitions of the same term.

    Returns:
        :class:`DefinitionEntry` items (``term`` as written, ``definition`` text,
        ``doc_key``, ``section_id``, ``scope``, ``scope_label``); ``chunk_id`` is filled later
        by the chunker's caller. A term (case-insensitive) appears once per scope: its first
        definition there wins; an abbreviation's long form read from brackets
        (``Protected Health Information (PHI)``) only where no other form defines it (a
        glossary's or acronym list's own entry wins, wherever it stands).
    """
    out: list[DefinitionEntry] = []
    seen: set[tuple[str, str | None]] = set()
    by_id = {x.section_id: x for x in tree.sections}

    def own_text(x: Section) -> str:
        return _clean(f"{x.heading}\n{x.text}" if x.heading else x.text)

    def add(term: str, definition: str, section: Section | None, body: str = "", at: int = 0) -> None:
        term = _strip_emphasis(term)  # whichever reader found it, "**_ABN_**" defines "ABN"
        scope, label = definition_scope(section, body, at, by_id, own_text) if section is not None else (None, None)
        key = (" ".join(term.lower().split()), scope)
        definition = _tidy(definition)
        if not definition:
            return
        if key in seen:
            # a dictionary entry that only points at the definition ("`month`: see section 2G") gives
            # way to the definition it points at, when the document holds that in the same scope
            at_ = next(i for i, d in enumerate(out) if (" ".join(d.term.lower().split()), d.scope) == key)
            if _REFERENCE_ONLY_RE.match(out[at_].definition) and not _REFERENCE_ONLY_RE.match(definition):
                out[at_] = replace(
                    out[at_], definition=definition, section_id=section.section_id if section is not None else None
                )
            return
        seen.add(key)
        out.append(
            DefinitionEntry(
                term=term,
                definition=definition,
                doc_key=tree.doc_key,
                section_id=section.section_id if section is not None else None,
                scope=scope,
                scope_label=label,
            )
        )

    doc_text = "\n".join(_clean(x.text) for x in tree.sections)  # where a lower-case short form must recur
    abbreviations: list[tuple[Section, str, tuple[int, str, str]]] = []  # read last: the weakest evidence
    headed_children: dict[str, int] = {}  # parent → sub-headings with a body whose title reads as a term
    for x in tree.sections:
        if x.parent_id and x.heading.lstrip().startswith("#") and x.text.strip() and _term_title(x):
            headed_children[x.parent_id] = headed_children.get(x.parent_id, 0) + 1
    for s in tree.sections:
        body = _without_notes(_clean(f"{s.heading}\n{s.text}" if s.heading else s.text))
        in_defs = _is_definitions_section(s, by_id)  # by_id built once: per section it was quadratic
        front = s.section_id == "preamble" and len(tree.sections) > 1  # the front page before the first heading
        found = _find_at(body, in_defs, _is_form_section(s, by_id), doc_text, front)
        opener = None if in_defs else _block_start(s, by_id)
        if opener is not None:  # "In this Act —": what follows defines, as in a definitions section
            pairs = {(t, d) for _, t, d in found}
            found += [
                (p + opener, t, d)
                for p, t, d in _find_at(body[opener:], True, doc_text=doc_text)
                if (t, d) not in pairs
            ]
        if in_defs and not found and _names_a_term(s, by_id, headed_children):
            found = [(0, _NUMBER_PREFIX_RE.sub("", s.title).strip(" :.-–—"), " ".join(s.text.split())[:1500])]
        if not _is_form_section(s, by_id):  # "Protected Health Information (PHI)" names its long form
            abbreviations += [(s, body, e) for e in _acronym_entries(body)]
        for at, term, definition in found:
            if _INTRO_END_RE.search(definition):  # "means a person who—" and its limbs are subsections
                definition = f"{definition} {_limb_text(tree, s)}".strip()
            add(term, definition, s, body, at)
    if abbreviations:  # after every other form: a glossary's own entry for the abbreviation wins
        for s, body, (at, term, long_form) in abbreviations:
            add(term, long_form, s, body, at)
        position = {x.section_id: i for i, x in enumerate(tree.sections)}
        out.sort(key=lambda d: position.get(d.section_id or "", len(position)))
    if marked:
        placed = _place_marked(marked, tree)
        for m, section_id in zip(marked, placed):
            if _plausible_term(m.term, marked=True):
                section = by_id.get(section_id) if section_id else None
                body = own_text(section) if section is not None else ""
                add(m.term, " ".join(m.definition.split()), section, body, max(body.find(m.term), 0))
        out.sort(key=lambda d: _order(d, tree))
    return out


# a definition that only sends the reader elsewhere: "see section 2G", "see subsections 16C(2) and (3)"
_REFERENCE_ONLY_RE = re.compile(r"^see\s+(?:also\s+)?\S+(?:\s+\S+){0,6}?\s*\.?$", re.I)


def _tidy(definition: str) -> str:
    """A definition body without lone table-cell bars (``a. | as regards …``) and a leading dash or
    colon separator (``– A list of permitted data``); anything else, such as a closing ``following:``
    or the bars of notation (``|name|``), stays."""
    text = " ".join(_CELL_BAR_RE.sub(" ", definition).split())
    return _LEAD_SEPARATOR_RE.sub("", text).strip()


def _limb_text(tree: DocumentTree, s: Section) -> str:
    """The text of the item subsections (``(a)``, ``(1)``, ``(A)`` and their own items) directly
    after ``s`` in document order, as one line (≤ 1500 chars): the limbs a definition that ends
    ``means—`` introduces."""
    at = next((i for i, x in enumerate(tree.sections) if x is s), None)
    if at is None:
        return ""
    inside, parts = {s.section_id}, []
    for x in tree.sections[at + 1 :]:
        if x.parent_id not in inside or not _ITEM_NUMBER_RE.fullmatch(x.number or ""):
            break
        inside.add(x.section_id)
        text = _clean(f"{x.heading}\n{x.text}" if x.heading else x.text)
        cut = _first_entry_at(text)
        parts.append(text if cut is None else text[:cut])
        if cut is not None:  # the next entry of the list: the limbs end here
            break
    return " ".join(" ".join(parts).split())[:1500]


# an item label: "(a)", "(1)", "(iv)", "a.", "1)", not a dotted section number ("4.2")
_ITEM_NUMBER_RE = re.compile(r"(?:\([0-9A-Za-z]{1,5}\))+|[0-9A-Za-z]{1,4}[.)]")


def _order(d: DefinitionEntry, tree: DocumentTree) -> int:
    for i, s in enumerate(tree.sections):
        if s.section_id == d.section_id:
            return i
    return len(tree.sections)


def _norm_title(t: str) -> str:
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
    words = re.findall(r"[^\W\d_]+", t.lower())
    return " ".join(words)


def _place_marked(marked: list[MarkedDefinition], tree: DocumentTree) -> list[str | None]:
    by_title: dict[str, str] = {}
    for s in tree.sections:
        by_title.setdefault(_norm_title(s.title), s.section_id)
    out: list[str | None] = []
    for m in marked:
        sid = by_title.get(_norm_title(m.heading)) if m.heading else None
        if sid is None:
            low = m.term.lower()
            sid = next((s.section_id for s in tree.sections if low in s.text.lower()), None)
        out.append(sid)
    return out


def _opener(text: str) -> re.Match | None:
    """The first definitions-block opener in ``text``: "In this Act —" (:data:`_BLOCK_OPENER_RE`) or a
    language pack's lead-in closing its line with a colon ("Pour l'application du présent Code, on
    entend par :")."""
    found = [m for m in (_BLOCK_OPENER_RE.search(text), _pack_forms().block.search(text)) if m]
    return min(found, key=lambda m: m.start()) if found else None


def opens_definitions(line: str) -> bool:
    """Whether ``line`` opens a definitions block whose entries follow it ("In this Act:",
    "For the purposes of this Regulation:", "Pour l'application de la présente loi, on entend par :")."""
    return _opener(line) is not None


def numbered_term_entry(text: str) -> str | None:
    """The term a numbered definitions-list entry defines (``1. profil ADN : un code …`` →
    ``profil ADN``, ``2. "vendeur" : toute personne …`` → ``vendeur``), else ``None``."""
    m = _NUMBERED_TERM_RE.match(text)
    if not m or len(m.group("def").split()) < 2:
        return None
    term = m.group("term").strip()
    return term if _plausible_term(term, quoted=bool(m.group("q"))) else None


def _block_start(s: Section, by_id: dict[str, Section]) -> int | None:
    """Offset in the section body after an "In this Act —" opener (in it or an enclosing section)."""
    body = _clean(f"{s.heading}\n{s.text}" if s.heading else s.text)
    m = _opener(body)
    if m:
        return m.end()
    parent = by_id.get(s.parent_id) if s.parent_id else None
    if parent is not None and _opener(_clean(parent.text)) and not s.heading.lstrip().startswith("#"):
        return 0  # an item of the block: "(a) vessel means …" under "(1) In this Act —"
    return None


def _names_a_term(s: Section, by_id: dict[str, Section], headed_children: dict[str, int]) -> bool:
    """A heading under a definitions heading that names a term (``### 2.3 CVE``) and has a body,
    one of a run of (at least two) such headings: a lone sub-heading, such as the ``Authority``
    notes of a CFR definitions subpart, is no glossary."""
    if not s.heading.lstrip().startswith("#") or not s.text.strip() or not s.parent_id:
        return False
    if headed_children.get(s.parent_id, 0) < 2:
        return False
    parent = by_id.get(s.parent_id)
    if parent is None or not _DEF_SECTION_RE.search(_NUMBER_PREFIX_RE.sub("", parent.title)):
        return False
    return _term_title(s) is not None


def _term_title(s: Section) -> str | None:
    """A section title that reads as a term: a noun phrase of 1–6 words, not itself a definitions
    title (``§ 478.11 Meaning of terms.`` heads definitions, it names none)."""
    title = _NUMBER_PREFIX_RE.sub("", s.title).strip(" :.-–—")
    if not (0 < len(title.split()) <= 6 and _plausible_term(title)) or _DEF_SECTION_RE.search(title):
        return None
    return title


def leading_defined_term(text: str) -> str | None:
    """The term a passage opens by defining (``"Fees" means …`` → ``Fees``), else ``None``.

    Only the strict quoted forms count (straight or curly quotes, optional bold, a
    parenthesis, then means / shall mean / refers to / has the meaning / is defined as /
    includes), so a numbered paragraph that merely starts with a quotation is not taken.
    """
    m = _STRICT_RE.match(text.lstrip())
    if not m:
        return None
    term = m.group("term").strip(" ,.")
    return term if _plausible_term(term, quoted=True) else None


def _find_at(
    body: str, in_defs: bool, in_form: bool = False, doc_text: str = "", in_front: bool = False
) -> list[tuple[int, str, str]]:
    """``(offset, term, definition)`` of each definition in ``body``, in text order; the unquoted
    forms only ``in_defs`` (a definitions section or block); no hanging list or definition list
    ``in_form`` (a registry's registration template: its lines name a form's fields). ``doc_text``:
    the whole document's text, where a lower-case parenthesised short form must be used again.
    ``in_front``: the text before a document's first heading, whose ``Stream:`` / ``: IETF``
    lists are its front page's fields; a definition list whose terms end in a colon is read
    elsewhere, and only where each definition is a phrase of three words or more."""
    found: list[tuple[int, str, str]] = []
    pattern = _LOOSE_RE if in_defs else _STRICT_RE
    for m in pattern.finditer(body):
        term = m.group("term").strip(" ,.")
        if _plausible_term(term, quoted=True):
            definition = _definition_after(body, m.start("verb"))
            found.append((m.start(), term, definition))
            for alt in _alternative_terms(m.group("alt") or m.group("alt2")):  # "You" (or "Your") means …
                found.append((m.start() + 1, alt, definition))
    for pos, term, definition in _pack_definitions(body, in_defs):  # French and other packs' forms
        if not any(abs(p - pos) < 3 or (t.lower() == term.lower() and abs(p - pos) < 300) for p, t, _ in found):
            found.append((pos, term, definition))
    for m in _NAMING_RE.finditer(body):
        quoted = m.group("qterm") is not None
        term = (m.group("qterm") if quoted else m.group("term")).strip(" ,.")
        if (
            (quoted or in_defs)
            and _plausible_term(term, quoted=quoted)
            and term.lower() not in _FUNCTION_WORDS
            and not any(t.lower() == term.lower() and abs(p - m.start()) < 300 for p, t, _ in found)
        ):
            found.append((m.start(), term, _clause_around(body, m.start(), m.end())))
    for pos, term, sentence in _parenthetical_terms(body, doc_text):
        if not any(abs(p - pos) < 3 for p, _, _ in found):
            found.append((pos, term, sentence))
    for m in _UNQUOTED_RE.finditer(body):
        term = m.group("term").strip()
        if _plausible_term(term) and not any(abs(p - m.start()) < 3 for p, _, _ in found):
            verb_start = m.start("verb") if m.group("verb") else m.start("verb2")
            found.append((m.start(), term, _definition_after(body, verb_start)))
    for m in _DEFLIST_RE.finditer(body):  # Markdown definition list: "Term" / ": definition"
        term, definition = _strip_emphasis(m.group("term")), " ".join(m.group("def").split())[:1500]
        if m.group("colon") and (in_front or len(_WORD_RE.findall(definition)) < 3):
            continue  # "Published:" / ": May 2021", "client in:" / ": 00200f…": a field and its value
        if _plausible_term(term, marked=True) and not in_form:  # not a registration template's fields
            found.append((m.start(), term, definition))
    if not in_defs and not in_form:  # "OAuth defines four roles:" and term lines, each defined below
        found += [e for e in _hanging_list_entries(body) if not any(abs(p - e[0]) < 3 for p, _, _ in found)]
    if in_defs and not in_form:  # a terminology section's hanging list: "Option Type" / indented meaning
        found += [e for e in _hanging_list_entries(body, True) if not any(abs(p - e[0]) < 3 for p, _, _ in found)]
    if in_defs:
        for m in _HANGING_RE.finditer(body):  # RFC-style "Term" line, definition indented below it
            if len(m.group("ind2").expandtabs()) < len(m.group("ind").expandtabs()) + 4:
                continue
            term = m.group("term").strip()
            if _plausible_term(term) and len(term.split()) <= 6 and not term.endswith((":", ",")):
                found.append((m.start(), term, " ".join(m.group("def").split())[:1500]))
        for m in _UNQUOTED_BLOCK_RE.finditer(body):
            term = m.group("term").strip()
            if (
                _plausible_term(term)
                and not _inside_a_list_definition(body, m.start())
                and not any(abs(p - m.start()) < 12 or t.lower() == term.lower() for p, t, _ in found)
            ):
                found.append((m.start(), term, _definition_after(body, m.start("verb"))))
    if in_defs:
        for pos, term, definition in sorted(
            _table_entries(body) + _column_pair_entries(body)
        ) or _term_paragraph_entries(body):
            if not any(t.lower() == term.lower() for _, t, _ in found):
                found.append((pos, term, definition))
    else:  # a table that says it is a glossary, wherever it stands
        for pos, term, definition in _declared_table_entries(body):
            if not any(t.lower() == term.lower() for _, t, _ in found):
                found.append((pos, term, definition))
    if in_defs:
        entries = [
            m
            for m in _COLON_ENTRY_RE.finditer(body)
            if _plausible_term(m.group("term"))
            and len(m.group("def").split()) >= 2
            and not _continues_a_sentence(body, m.start())
        ]
        if len(entries) >= 2:  # a list of "term:  definition" lines, not one "Note: …"
            starts = {m.start() for m in entries}
            for m in entries:
                term = m.group("term")
                if not any(t.lower() == term.lower() and p < m.start() for p, t, _ in found):
                    definition = m.group("def") + _paragraph_rest(body, m.end(), starts)
                    found.append((m.start(), term, " ".join(definition.split())[:1500]))
    if in_defs:  # a numbered list of "1. term : meaning" entries (two or more)
        numbered = [m for m in _NUMBERED_TERM_RE.finditer(body) if numbered_term_entry(m.group(0).lstrip(" \t>"))]
        if len(numbered) >= 2:
            for m in numbered:
                term = m.group("term").strip()
                if not any(t.lower() == term.lower() for _, t, _ in found):
                    found.append((m.start(), term, " ".join(m.group("def").split())[:1500]))  # its own line
    if in_defs:  # lines opening with an emphasised term: "* **Action**: …", "**_company_** means:"
        term_lines = _term_line_entries(body)
        lines_at = {body.rfind("\n", 0, p) for p, _, _ in term_lines}
        ours = {t.lower() for _, t, _ in term_lines}
        found = [
            e for e in found if not (_strip_emphasis(e[1]).lower() in ours and body.rfind("\n", 0, e[0]) in lines_at)
        ] + term_lines
    if in_defs and not in_form:  # "Incapacity any sickness or injury …": a glossary without quotes or verbs
        known = {t.lower(): i for i, (_, t, _) in enumerate(found)}
        for pos, term, definition in _unmarked_glossary_entries(body, doc_text or body, len(found)):
            i = known.get(term.lower())
            if i is None:
                found.append((pos, term, definition))
            elif len(definition) > len(found[i][2]) and definition.startswith(found[i][2]):
                found[i] = (found[i][0], found[i][1], definition)  # its wrapped lines too ("… Act" / "1996.")
    if in_defs and not found:
        for line in body.splitlines():
            g = _GLOSSARY_LINE_RE.match(line)
            if g:
                term = _strip_emphasis(g.group("bold") or g.group("colon")).strip(' :"“”')
                if _plausible_term(term) and len(g.group("def").split()) >= 3:
                    definition, alternatives = _glossary_body(g.group("def"))
                    for t in [term, *alternatives]:
                        found.append((0, t, definition))
    found.sort(key=lambda x: x[0])
    return found


def _inside_a_list_definition(body: str, at: int) -> bool:
    """The line holding ``at`` carries on the definition of a list entry above it: a line indented
    under a Markdown definition (``: An input share …`` / ``  The report share also includes …``)
    or under a hanging entry's term (``Adj-RIB-Out`` / ``   The Adj-RIBs-Out contains … to specific``
    / ``   peers by means of …``), in the same paragraph. Words there that read like ``X means``
    or ``X includes`` belong to that definition; they open no entry of their own."""
    start = body.rfind("\n", 0, at) + 1
    line = body[start : body.find("\n", start) if "\n" in body[start:] else len(body)]
    indent = len(line) - len(line.lstrip(" \t"))
    if not indent:
        return False
    pos = start
    while pos > 0:  # up the paragraph, to a line indented less than this one
        prev_start = body.rfind("\n", 0, pos - 1) + 1
        prev = body[prev_start : pos - 1]
        if not prev.strip():
            return False
        prev_indent = len(prev) - len(prev.lstrip(" \t"))
        if prev.lstrip().startswith(": ") or prev_indent < indent and _HANGING_TERM_RE.match(prev):
            return True
        if prev_indent < indent:
            return False
        pos = prev_start
    return False


_HANGING_TERM_RE = re.compile(
    r"^(?P<ind>[ \t]*)(?P<term>[A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,4}"
    r"(?: \([A-Za-z][\w-]{0,14}\))?)[ \t]*$"
)


def _hanging_list_entries(body: str, in_defs: bool = False) -> list[tuple[int, str, str]]:
    """A hanging definition list, as RFCs write them (RFC 6749 §1.1: "OAuth defines four roles:",
    then ``resource owner`` on a line of its own and its definition indented below it): two or
    more entries in a row at one indentation, introduced by a paragraph ending in a colon. A term
    is a phrase of words alone (no ``client_id`` or other notation, no colon: a registration
    template's ``Parameter name:`` is a form field); its definition is a sentence, indented at
    least two columns deeper, opening with a capital letter and not with a status word in
    capitals (``REQUIRED.``: a protocol parameter's description). ``in_defs`` (a definitions or
    terminology section, which says itself what its entries are): no introducing colon is needed
    and a definition may open with a number (a field list: ``Option Type`` / ``8-bit identifier of
    the type of option.``)."""
    lines = body.split("\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    out: list[tuple[int, str, str]] = []
    run: list[tuple[int, str, str]] = []
    run_indent = None
    intro = False
    i = 0

    def close() -> None:
        if (intro or in_defs) and len(run) >= 2:
            out.extend(run)

    while i < len(lines):
        m = _HANGING_TERM_RE.match(lines[i])
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        ind = len(m.group("ind").expandtabs()) if m else -1
        nind = len(nxt.expandtabs()) - len(nxt.expandtabs().lstrip())
        if m and nxt.strip() and nind >= ind + 2 and (run_indent is None or ind == run_indent):
            para = []
            k = i + 1
            while (
                k < len(lines)
                and lines[k].strip()
                and len(lines[k].expandtabs()) - len(lines[k].expandtabs().lstrip()) >= ind + 2
            ):
                para.append(lines[k].strip())
                k += 1
            text = " ".join(para)
            first = text.split()[0].strip(".,;:")
            if (
                (text[:1].isupper() or in_defs and text[:1].isdigit())
                and not (first.isupper() and len(first) > 1)
                and _CLOSED_RE.search(text)
                and _plausible_term(m.group("term"))
            ):
                if run_indent is None:
                    prev = next((ln for ln in reversed(lines[:i]) if ln.strip()), "")
                    intro = prev.rstrip().endswith(":")
                run.append((offsets[i] + ind, m.group("term").strip(), text[:1500]))
                run_indent = ind
                i = k
                continue
        if lines[i].strip():
            close()
            run, run_indent, intro = [], None, False
        i += 1
    close()
    return out


# Emphasis an author marks a term with, as opening and closing markers (the closing ones mirror the
# opening ones: "**_ABN_**", "_**ABN**_"); longest first, so "***x***" is not read as "**" + "*x*"
_EMPHASIS = (
    ("***", "***"),
    ("**_", "_**"),
    ("_**", "**_"),
    ("__*", "*__"),
    ("*__", "__*"),
    ("**", "**"),
    ("__", "__"),
    ("*", "*"),
    ("_", "_"),
    ("`", "`"),
)


def _strip_emphasis(term: str) -> str:
    """A term without the emphasis around it: ``**_ABN (Australian Business Number)_**``,
    ``***term***``, ``__term__``, ``*term*``, ```term``` → the words alone; emphasis markers never
    stay in a term: a run of ``*`` or ``_`` left at either end by a reader that saw only one side
    of the emphasis (``business day__``) goes too. Markers inside a word (``client_id``) stay."""
    t = term.strip()
    changed = True
    while changed:
        changed = False
        for o, c in _EMPHASIS:
            if len(t) > len(o) + len(c) and t.startswith(o) and t.endswith(c):
                t, changed = t[len(o) : -len(c)].strip(), True
                break
    return t.strip("*_").strip() or t


def _emphasised_span(text: str, at: int) -> tuple[str, int] | None:
    """``(words, end)`` of the emphasised span opening ``text`` at ``at`` (``**Term**``,
    ``**_Term_**``, ``***Term***``, ``__Term__``, ``*Term*``, ```Term```), on one line, its words
    neither opening nor closing with a space; ``None`` when ``text[at:]`` opens no such span."""
    for o, c in _EMPHASIS:
        if not text.startswith(o, at):
            continue
        start = at + len(o)
        end = text.find(c, start)
        while end >= 0:
            after = text[end + len(c) : end + len(c) + 1]
            if after not in ("*", "_", "`") and not (c in ("_", "__") and (after.isalnum())):
                break
            end = text.find(c, end + 1)
        if end < 0:
            return None
        words = text[start:end]
        if not words or "\n" in words or words != words.strip() or words.strip("*_`") != words:
            return None
        return words, end + len(c)
    return None


# what may open a line before its term: a quotation mark, a bullet, an item label ("(a)", "1.")
_TERM_LINE_LEAD_RE = re.compile(r"[ \t>]*(?:(?:[-+•]|\*(?=[ \t]))[ \t]+|\(?[0-9a-zA-Z]{1,4}[.)][ \t]+)?")
_TERM_ABBREVIATION_RE = re.compile(r"[ \t]*\(([^()\n]{1,20})\)")
_BULLET_ITEM_RE = re.compile(r"([ \t]*)[-*+•][ \t]")
# between two terms of one entry: "`Minister` or `Minister of State` means", "`A`, `B` or `C` means"
_TERM_JOIN_RE = re.compile(r"[ \t]*(?:,[ \t]*(?:or|and)?|or|and)[ \t]+(?=[*_`])")
# after the term(s): a separator then the definition ("**Action**: The task …", "**Term** — …"), maybe
# after a qualifying phrase ("`authorised version`, of a registered law: see section 15Z", "`Governor` of
# a State: see section 16B"); a colon closing the line
# opens the limbs below it ("`Administrative Arrangements Order`:" / "(a) means …; and (b) includes …")
_TERM_SEPARATOR_RE = re.compile(
    r"(?:[ \t]*,[^:;.\n]{1,150}?[ \t]*:|(?:[ \t]+[^\s,.;:()]+){1,5}[ \t]*:|[ \t]*(?::|[—–]|-(?=[ \t])))"
    r"[ \t]*(?=\S|$)"
)


@functools.lru_cache(maxsize=1)
def _term_verb_re() -> re.Pattern:
    """A pack's definition verb after a term, maybe after a qualifying phrase between commas
    (``, in relation to a supply,``) or a few words (``for an * entity``): ``means``, ``includes``,
    ``has the meaning given by`` (:mod:`.grammar_packs.en`), ``désigne`` (:mod:`.grammar_packs.fr`)."""
    verbs = "|".join(definition_forms().get("verbs", ())) or _NEVER.pattern
    return re.compile(rf"(?:[ \t]*,[^\n]{{1,200}}?,|(?:[ \t]+[^\s,.;:]+){{0,5}}?)[ \t]*,?[ \t]+(?:{verbs})(?!\w)", re.I)


def _term_line_entries(body: str) -> list[tuple[int, str, str]]:
    """``(offset, term, definition)`` of each line of a definitions section or block that opens
    with an emphasised term (:func:`_emphasised_span`; after a bullet or an item label) followed
    by either a separator and its definition (``* **Action**: The task …``, ``* **Action:** …``,
    ``- **Term** — …``, ```appoint`: see section 33AA``) or a pack's definition verb
    (``**_company_** means:``, ``**_ABN_** for an * entity means …``, ``**_connected with
    Australia_**, in relation to a * supply, has the meaning given by section 9-25``). An entry
    naming several terms (```Minister` or `Minister of State` means``) defines each. The
    definition runs from after the term (a qualifying phrase stays, a separator does not) to the
    end of its paragraph or the next such line, whichever comes first, and keeps the limbs a
    lead-in ending ``means:`` opens. A run-in heading (``**Access and Use.** Customer may …``) ends
    its emphasis with a stop and defines nothing; a note label (``**Note**: …``) is no term."""
    lines = body.split("\n")
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    entries: list[tuple[int, int, list[str], int]] = []  # (line, term, definition offsets), terms
    for n_line, (line, at) in enumerate(zip(lines, starts)):
        i = _TERM_LINE_LEAD_RE.match(line).end()  # type: ignore[union-attr]
        span = _emphasised_span(line, i)
        if span is None:
            continue
        terms, end = [span[0]], span[1]
        while (j := _TERM_JOIN_RE.match(line, end)) and (more := _emphasised_span(line, j.end())):
            terms.append(more[0])
            end = more[1]
        # "**Cross-Site Scripting** (XSS) – …": an abbreviation in brackets names the term too
        while (abbr := _TERM_ABBREVIATION_RE.match(line, end)) and _ABBREVIATION_RE.fullmatch(abbr.group(1)):
            terms.append(abbr.group(1))
            end = abbr.end()
        sep = None
        if terms[-1].endswith(":") and line[end : end + 1] in (" ", "\t"):  # "**Action:** The task …"
            terms[-1], sep = terms[-1][:-1].rstrip(), end
        elif (m := _TERM_SEPARATOR_RE.match(line, end)) and (
            (direct := line[end : m.end()].strip() in (":", "—", "–", "-")) or not _term_verb_re().match(line, end)
        ):  # a separator right after the term, or after a qualifier holding no verb ("means:" is a verb's)
            sep = m.end() if direct else end  # a qualifier ("of a State: see …") stays in the definition
            if not line[m.end() :].strip():  # "`Administrative Arrangements Order`:" and its limbs below
                below = next((x for x in lines[n_line + 1 :] if x.strip()), "")
                if not line.rstrip().endswith(":") or below and not _LIMB_RE.match(below.lstrip(" \t-*+")):
                    continue
                sep = line.rindex(":") if direct else end
        elif not _term_verb_re().match(line, end):
            continue
        terms = [_strip_emphasis(t).strip(" ,") for t in terms]
        # '**"Business Day"** means': the quotes are the author's too, not the term's
        terms = [t[1:-1].strip() if len(t) > 2 and t[0] in _Q_OPEN and t[-1] in _Q_CLOSE else t for t in terms]
        if not all(_plausible_term(t) and not t.endswith((":", ",", "!", "?")) for t in terms):
            continue
        if sep is not None and len(line[sep:].split()) < 2 and not line[sep:].startswith(":"):
            continue
        start = sep if sep is not None else end + len(line[end:]) - len(line[end:].lstrip(" \t,"))
        entries.append((at, at + i, terms, at + start))
    out: list[tuple[int, str, str]] = []
    for n, (line_at, at, terms, start) in enumerate(entries):
        limit = entries[n + 1][0] if n + 1 < len(entries) else len(body)
        item = _BULLET_ITEM_RE.match(body, line_at)
        if item:  # a bulleted entry ends at the next item of its list
            nxt = re.compile(rf"\n[ \t]{{0,{len(item.group(1))}}}[-*+•][ \t]").search(body, start, limit)
            limit = nxt.start() + 1 if nxt else limit
        # a bare "Term:" keeps its colon: the limbs it opens are sections of their own, added by the caller
        definition = _definition_after(body[:limit], start) or body[start : start + 1].strip(" \t\n")
        out += [(at, t, definition) for t in terms if definition]
    return out


def _first_entry_at(text: str) -> int | None:
    """Offset of the first line of ``text`` that opens a definition of its own (an emphasised
    term line, :func:`_term_line_entries`, or a quoted term and its verb), else ``None``: where a
    limb's text stops belonging to the definition above it."""
    at = [p for p, _, _ in _term_line_entries(text)]
    at += [m.start() for m in _STRICT_RE.finditer(text) if m.start() == 0 or text[m.start() - 1] == "\n"]
    return min(at, default=None)


_TABLE_ROW_RE = re.compile(r"(?m)^[ \t]*\|(?P<cells>.*)\|[ \t]*$")
_SEPARATOR_CELL_RE = re.compile(r"^\s*:?-{3,}:?\s*$")
# a glossary table's own header row: "| Term | Definition |", "| Acronym | Meaning |"
_HEADER_CELL_RE = re.compile(
    r"^(?:terms?|acronyms?|abbreviations?|definitions?|meanings?|descriptions?|expansions?|"
    r"full (?:name|term)|sources?|references?|notes?|word|phrase|name)$",
    re.I,
)
# a term cell ending in its abbreviation: "Tactics, Techniques, and Procedures (TTPs)"
_TRAILING_ABBREVIATION_RE = re.compile(r"^(?P<term>.*\S)\s*\((?P<abbr>[^()\n]{1,20})\)$")


def _paragraph_rest(body: str, end: int, entry_starts: set[int]) -> str:
    """The lines after a ``TERM:  definition`` line's first line that carry its definition on, set
    flush with it (a PDF glossary's wrapped paragraph): up to a blank line or the next entry."""
    out = []
    pos = end
    while pos < len(body) and body[pos] == "\n":
        nxt = body.find("\n", pos + 1)
        line = body[pos + 1 : nxt if nxt >= 0 else len(body)]
        if not line.strip() or pos + 1 in entry_starts or line.lstrip().startswith(("#", "|")):
            break
        out.append(line)
        pos = nxt if nxt >= 0 else len(body)
    return "\n" + "\n".join(out) if out else ""


def _continues_a_sentence(body: str, start: int) -> bool:
    """The line starting at ``start`` carries on a sentence the line above broke off ("… used by a
    contractor under a contract with the" / "executive agency which: (i) requires …", FIPS 200's
    glossary): the line above has text and ends in neither a stop, a colon, a semicolon nor a
    closing bracket or quote, so a "words:" opening this line is the sentence's own colon, not a
    glossary term."""
    above = body[:start].rstrip(" \t").rsplit("\n", 2)
    if len(above) < 2:
        return False
    prev = above[-2].strip()
    return bool(prev) and not re.search(r"[.;:!?)\]\"”’'*]$", prev)


_TABLE_RUN_RE = re.compile(r"(?m)(?:^[ \t]*\|.*\|[ \t]*(?:\n|$))+")
# a header cell that names a glossary's columns ("Term", "Definition", "Meaning", "Abbreviation")
_GLOSSARY_HEADER_RE = re.compile(r"^(?:terms?|definitions?|meanings?|acronyms?|abbreviations?|defined terms?)$", re.I)
_QUOTED_PART_RE = re.compile(r"[\"“‘]([^\"“”‘’]{1,100})[\"”’]")
_QUOTED_CELL_RE = re.compile(r"^[*_]*[\"“‘'][^\"“”‘’]{1,100}[\"”’'][*_]*$")


def _declared_table_entries(body: str) -> list[tuple[int, str, str]]:
    """:func:`_table_entries` of each table in ``body`` (a run of ``| … |`` rows) that declares
    itself a glossary outside a definitions section: its header row (the first row with text)
    names its columns as a glossary's (``| DEFINITION | MEANING |``, ``| Term | Definition |``:
    every header cell a column name, one of them ``term``/``definition``/``meaning``/an acronym
    list's), or its rows read as term → meaning (at least three rows, four in five of them with a
    first cell opening with a quoted term: ``| "Auditor" | the Buyer's internal and external auditors … |``, a
    contract's definitions schedule)."""
    out: list[tuple[int, str, str]] = []
    for run in _TABLE_RUN_RE.finditer(body):
        rows = [
            [c.strip(" *_:") for c in re.split(r"(?<!\\)\|", m.group("cells"))]
            for m in _TABLE_ROW_RE.finditer(run.group(0))
        ]
        rows = [r for r in rows if any(c for c in r) and not all(_SEPARATOR_CELL_RE.match(c) or not c for c in r)]
        if not rows or len(rows[0]) < 2:
            continue
        header = [c for c in rows[0] if c]
        named = all(_HEADER_CELL_RE.match(c) for c in header) and any(_GLOSSARY_HEADER_RE.match(c) for c in header)
        body_rows = [r for r in rows[1:] if r[0]] if named else [r for r in rows if r[0]]
        quoted = sum(bool(_QUOTED_PART_RE.match(r[0].strip("*_"))) for r in body_rows)
        if named or (len(body_rows) >= 3 and quoted * 5 >= len(body_rows) * 4):
            out += [(run.start() + pos, term, d) for pos, term, d in _table_entries(run.group(0))]
    return out


def _column_header_rows(body: str) -> set[int]:
    """Offsets of the header rows of ``body``'s Markdown tables that name columns, not a term: the
    row a separator row (``| --- | --- |``) follows, whose other cells are labels (at most six words,
    no full stop: ``| Data Type | Description | Examples for Firefox users |``) while at least half
    of the rows below it give sentences (ending in a full stop). A converter writes a table's first
    row as its header whatever it holds, so a header row of the same form as the rows below
    (``| ACL | Access Control List |`` over more acronyms) stays an entry."""
    rows = [
        (m.start(), [c.strip(" *_") for c in re.split(r"(?<!\\)\|", m.group("cells"))])
        for m in _TABLE_ROW_RE.finditer(body)
    ]

    def separator(cells: list[str]) -> bool:
        return all(_SEPARATOR_CELL_RE.match(c) or not c for c in cells)

    out: set[int] = set()
    for i in range(len(rows) - 1):
        (start, cells), (_, below) = rows[i], rows[i + 1]
        if separator(cells) or not separator(below):
            continue
        labels = [c for c in cells[1:] if c]
        if not labels or any(len(c.split()) > 6 or c.endswith(".") for c in labels):
            continue
        body_rows = []
        for _, r in rows[i + 2 :]:
            if separator(r):
                break
            body_rows.append(r)
        sentences = sum(any(c.rstrip().endswith(".") for c in r[1:]) for r in body_rows)
        if body_rows and sentences * 2 >= len(body_rows):
            out.add(start)
    return out


def _table_entries(body: str) -> list[tuple[int, str, str]]:
    """``(offset, term, definition)`` of the rows of a glossary laid out as a table (the first
    cell the term, the other cells its definition and source: ``| Alert | A brief, usually
    human-readable, technical notification … |``, ``| ACL | Access Control List |``), the form NIST
    glossaries and acronym lists take. A row whose first cell is empty continues the definition
    above it (a definition broken over a page); header rows (``Term | Definition``) and separator
    rows are skipped; a term cell ending in a parenthesised abbreviation defines that abbreviation
    too, one ending in a bracketed source (``[FIPS 200, Adapted]``) is the term without it. At least two such rows, or none: one two-cell row is no glossary."""
    out: list[tuple[int, str, str]] = []
    headers = _column_header_rows(body)
    for m in _TABLE_ROW_RE.finditer(body):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", m.group("cells"))]
        if len(cells) < 2 or all(_SEPARATOR_CELL_RE.match(c) or not c for c in cells) or m.start() in headers:
            continue
        # the term without the source NIST cites beside it ("authentication [FIPS 200, Adapted]")
        term = re.sub(r"\s*\[[^\[\]]{1,80}\]$", "", cells[0].strip(" *_:")).replace("\\|", "|")
        if _QUOTED_CELL_RE.match(term):  # a contract's definitions table quotes its terms: “Auditor”
            term = term.strip(" *_").strip("\"“”‘’'").strip()
        definition = " ".join(" ".join(c for c in cells[1:] if c).split()).replace("\\|", "|")
        if not term and out and definition:  # the definition above, carried on
            pos, t, d = out[-1]
            out[-1] = (pos, t, f"{d} {definition}"[:1500])
            continue
        if _HEADER_CELL_RE.match(term) and all(_HEADER_CELL_RE.match(c.strip(" *_:")) for c in cells[1:] if c):
            continue
        if (
            not definition
            or not re.search(r"[^\W\d_]", definition)
            or len(term) > 100
            or not _plausible_term(term, marked=True)
            or not _looks_like_term(term, quoted=False)
            or len(term.split()) > 10
        ):
            continue
        names = [term]
        alternatives = _QUOTED_PART_RE.findall(term)
        if len(alternatives) >= 2 and re.fullmatch(r"(?:\s|,|\bor\b|\band\b|/)*", _QUOTED_PART_RE.sub("", term), re.I):
            names = [a.strip() for a in alternatives]  # "Intellectual Property Rights" or "IPR": two names
        abbreviated = _TRAILING_ABBREVIATION_RE.match(term)
        if abbreviated and _ABBREVIATION_RE.fullmatch(abbreviated.group("abbr").strip()):
            names = [abbreviated.group("term").strip(), abbreviated.group("abbr").strip()]
        for name in names:
            out.append((m.start(), name, definition[:1500]))
    return out if len({pos for pos, _, _ in out}) >= 2 else []


# an abbreviation as an acronym list prints it: "ACL", "PCI DSS", "US-CERT", "3DES", "IPsec", "I/O"
_ABBREVIATION_LINE_RE = re.compile(r"^[A-Za-z0-9][\w./&+-]{0,14}(?: [A-Za-z0-9][\w./&+-]{0,14}){0,2}$")


def _is_abbreviation_line(line: str) -> bool:
    """``ACL``, ``PCI DSS``, ``IPsec``, ``3DES``: at most three words, each with two capitals or a
    capital and a digit (``Access Control List`` has one capital a word: an expansion)."""
    return bool(_ABBREVIATION_LINE_RE.match(line)) and all(
        sum(ch.isupper() for ch in word) >= 2
        or (word[:1].isupper() or word[:1].isdigit())
        and any(ch.isdigit() for ch in word)
        for word in line.split()
    )


def _column_pair_entries(body: str) -> list[tuple[int, str, str]]:
    """``(offset, abbreviation, expansion)`` of an acronym list whose two columns the text layer
    gives as paragraphs, one line per row: a run of paragraphs of abbreviation lines (``ACL`` …
    ``UDP``: capitals, at most three words; a page or a gap in the column starts a new paragraph)
    directly followed by as many paragraphs of as many lines each that are not abbreviations
    (``Access Control List`` …), paired line by line. Paragraphs of unequal length (an expansion
    wrapped over two lines) are not paired: a shifted pairing would be wrong on every row after
    the wrap. Three pairs at least."""
    paragraphs = [
        (m.start(), [x.strip() for x in m.group(0).strip().splitlines()])
        for m in re.finditer(r"(?s)\S.*?(?=\n[ \t]*\n|\Z)", body)
    ]
    abbreviations = [all(map(_is_abbreviation_line, lines)) for _, lines in paragraphs]
    out: list[tuple[int, str, str]] = []
    n = 0
    while n < len(paragraphs):
        k = n
        while k < len(paragraphs) and abbreviations[k]:
            k += 1
        run = k - n
        right = paragraphs[k : k + run]
        if (
            run
            and len(right) == run
            and all(
                len(r) == len(left)
                and sum(map(_is_abbreviation_line, r)) * 2 <= len(r)
                and not any(x.startswith(("|", "#")) for x in r)
                for (_, left), (_, r) in zip(paragraphs[n:k], right)
            )
        ):
            for (pos, left), (_, r) in zip(paragraphs[n:k], right):
                out += [
                    (pos + i, abbreviation, expansion)
                    for i, (abbreviation, expansion) in enumerate(zip(left, r))
                    if _looks_like_term(abbreviation, quoted=False)
                ]  # not "2C" / "Note" of a contents column
            n = k + run
        else:
            n = k + 1 if run else n + 1
    return out if len(out) >= 3 else []


# a glossary entry laid out as a term on a line of its own (bold in the PDF) and its definition
# as the next paragraph: "Clearing\n\nA method of Sanitization that applies logical techniques …"
_TERM_LINE_RE = re.compile(r"^[A-Za-z0-9][\w'’()/,&.-]*(?: [\w'’()/,&.-]+){0,7}$")


def _term_paragraph_entries(body: str) -> list[tuple[int, str, str]]:
    """``(offset, term, definition)`` of a glossary whose terms stand as one-line paragraphs, each
    followed by its definition paragraph (a sentence of three or more words opening with a capital
    or a digit): what a two-column glossary whose definitions wrap over many lines becomes in the
    text layer. Three such pairs at least, making up most of the section's paragraphs (half of
    them or more), or none: a definitions section of prose with one short line is no such list."""
    paragraphs = [(m.start(), m.group(0).strip()) for m in re.finditer(r"(?s)\S.*?(?=\n[ \t]*\n|\Z)", body)]
    paragraphs = [(pos, text) for pos, text in paragraphs if not text.startswith("#")]
    out: list[tuple[int, str, str]] = []
    n = 0
    while n + 1 < len(paragraphs):
        (pos, term), (_, text) = paragraphs[n], paragraphs[n + 1]
        if (
            "\n" not in term
            and _TERM_LINE_RE.match(term)
            and not term.endswith((".", ":", ";", ","))
            and _plausible_term(term)
            and len(text.split()) >= 3
            and re.match(r"[A-Z0-9\"“(]", text)
            and not (_TERM_LINE_RE.match(text) and "\n" not in text and len(text.split()) <= 4)
        ):
            out.append((pos, term, " ".join(text.split())[:1500]))
            n += 2
            continue
        n += 1
    return out if len(out) >= 3 and 4 * len(out) >= len(paragraphs) else []


# A glossary laid out as "Term definition" lines: no quotes, no verb, maybe no separator ("Incapacity any
# sickness or injury which prevents …", "Business Day A day, other than …", "SSP statutory sick pay.", UK
# drafting's two-column definitions clause as a text layer or a Word file gives it). The term is the
# leading run of capitalised words, joined by connectors ("Subsidiary and Holding Company"); a bold span
# ("**Incapacity** any …"), a tab or a wide gap, or a spaced dash ("Business Day - a day …") ends it too.
_GLOSSARY_ENTRY_LEAD_RE = re.compile(r"^[ \t>]*(?:[-*+•][ \t]+)?")
_GLOSSARY_BOLD_TERM_RE = re.compile(r"(\*\*|__)(?P<term>[^*_\n]{1,80}?)\1(?P<rest>[ \t]+\S.*)$")
_GLOSSARY_GAP_RE = re.compile(r"(?P<term>[^\s\t][^\t]{0,79}?)(?P<gap>\t+| {2,}|[ \t]+[–—-][ \t]+)(?P<rest>\S.*)$")
_GLOSSARY_CONNECTORS = frozenset("of and or for the in to on & de".split())
_GLOSSARY_ACRONYM_RE = re.compile(r"\((?P<abbr>[A-Za-z][\w./&+-]{0,11})\)")
_CLOSED_ENTRY_RE = re.compile(r"[.;:][\s\"'”’)\]*_]*$|;\s+(?:and|or)\s*$")


@functools.lru_cache(maxsize=1)
def _entry_opener_re() -> re.Pattern:
    """What a definition may open with after a bare glossary term: a pack's ``entry_openers``
    (``the``, ``any``, ``in relation to``) or definition verbs (``has the meaning``)."""
    forms = definition_forms()
    words = "|".join([*forms.get("entry_openers", ()), *forms.get("verbs", ())]) or _NEVER.pattern
    return re.compile(rf"(?:{words})(?!\w)", re.I)


def _capitalised(word: str) -> bool:
    """``Incapacity``, ``IPRs``, ``Company’s``: opens with a capital letter."""
    return word[:1].isupper()


@dataclass
class _GlossaryEntry:
    at: int
    term: str
    names: list[str]
    parts: list[str]
    kind: str  # "marked" (bold, a gap, a dash) or "capitals"

    @property
    def closed(self) -> bool:
        return bool(_CLOSED_ENTRY_RE.search(self.parts[-1]))


class _TermCounter:
    """How often a phrase stands in the document's text as a whole phrase, case kept (cached)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.seen: dict[str, int] = {}

    def __call__(self, phrase: str) -> int:
        if phrase not in self.seen:
            pattern = rf"(?<![\w-]){re.escape(phrase)}(?![\w-])"
            self.seen[phrase] = len(re.findall(pattern, self.text))
        return self.seen[phrase]


def _split_capitalised(line: str, count: _TermCounter) -> tuple[str, list[str], str] | None:
    """``(term, other names, definition)`` of a glossary line whose term is its leading run of
    capitalised words, the definition opening with a lower-case word that is no function word
    (``statutory sick pay``), a determiner or qualifier (:func:`_entry_opener_re`: ``any``, ``A``,
    ``in relation to``), a definition verb, a number or a currency sign; ``None`` for a sentence
    (``References to a clause are …``: a preposition after the capitals, ``England, when …``: a comma
    inside them). Where the definition itself opens with capitalised words (``Employment IPRs
    Intellectual Property Rights created by …``) the run is cut where the document bears it out: the
    whole run stands nowhere else in the text, the shorter term and the words after it both do."""
    tokens = list(re.finditer(r"\S+", line))
    names: list[str] = []
    n = 0
    while n < len(tokens):
        word = tokens[n].group()
        acronym = _GLOSSARY_ACRONYM_RE.fullmatch(word)
        if n and acronym and sum(ch.isupper() for ch in word) >= 2:
            names.append(acronym.group("abbr"))
        elif n and _entry_opener_re().match(line, tokens[n].start()):
            break  # "Business Day A day …": a capitalised determiner opens the definition
        elif _capitalised(word):
            pass
        elif (
            n
            and word.lower() in _GLOSSARY_CONNECTORS
            and n + 1 < len(tokens)
            and _capitalised(tokens[n + 1].group())
            and not _entry_opener_re().match(line, tokens[n + 1].start())
        ):
            pass
        else:
            break
        if re.search(r"[,;:.!?]$", word):
            return None  # "England, when banks …", "Note: …": a sentence or a label, not a term
        n += 1
    if n == 0 or n == len(tokens):
        return None
    after = line[tokens[n].start() :]
    first = tokens[n].group()
    if not (
        first[:1].isdigit()
        or first[:1] in "£$€"
        or _entry_opener_re().match(after)
        or first[:1].islower()
        and re.sub(r"\W+$", "", first).lower() not in _FUNCTION_WORDS
        or first[:1] == "("
        and first[1:2].islower()
    ):
        return None
    if not _entry_opener_re().match(after) and _term_verb_re().match(" " + after):
        return None  # "Eligible overseas elector means …": the term runs on in lower case to its verb
    words = [t.group() for t in tokens[:n] if not _GLOSSARY_ACRONYM_RE.fullmatch(t.group())]
    while words and words[-1].lower() in _GLOSSARY_CONNECTORS:
        words.pop()
    if not words:
        return None
    k = len(words)
    whole = " ".join(words)
    for cut in range(len(words) - 1, 0, -1) if count(whole) < 2 else ():  # the whole run stands only here
        head, rest = " ".join(words[:cut]), " ".join(words[cut:])  # "Employment IPRs" + "Intellectual Property …"
        if count(head) >= 2 and count(rest) >= 2 and words[cut - 1].lower() not in _GLOSSARY_CONNECTORS:
            k = cut
            break
    term = " ".join(words[:k])
    if words[k - 1].lower() in keyword_words("label") and first[:1].isdigit():
        return None  # "Section 2 applies …": a citation, not a term
    definition = " ".join([*words[k:], after]) if k < len(words) else after
    return term, names, definition


def _glossary_line(line: str, count: _TermCounter) -> tuple[str, list[str], str, str] | None:
    """``(term, other names, definition, kind)`` of one line of an unmarked glossary, else ``None``:
    a bold term (``**Incapacity** any sickness …``), a term before a tab, a wide gap or a spaced dash
    (``Business Day - a day …``), else the leading capitalised words (:func:`_split_capitalised`)."""
    if (m := _GLOSSARY_BOLD_TERM_RE.match(line)) and not re.match(r"\s*[:–—-]", m.group("rest")):
        term, rest, kind = m.group("term").strip(), m.group("rest").strip(), "marked"
    elif (m := _GLOSSARY_GAP_RE.match(line)) and (
        m.group("gap").strip() or len(m.group("gap")) >= 3 or len(re.findall(r"\S {2,}\S", line)) == 1
    ):  # a tab, a dash, a gap of three spaces or more, or the line's only wide gap ("AKEP2     An …")
        term, rest, kind = m.group("term").strip(), m.group("rest").strip(), "marked"
        if not all(_capitalised(w) or w.lower() in _GLOSSARY_CONNECTORS for w in term.split()):
            return None
    else:
        split = _split_capitalised(line, count)
        if split is None:
            return None
        return (*split, "capitals")
    names = []
    if abbr := _TRAILING_ABBREVIATION_RE.match(term):  # "Intellectual Property Rights (IPRs)"
        if _ABBREVIATION_RE.fullmatch(abbr.group("abbr").strip()):
            term, names = abbr.group("term").strip(), [abbr.group("abbr").strip()]
    if term.endswith((".", ",", ";", ":")) or not rest[:1].isalnum() and rest[:1] not in '(£$€"“':
        return None
    return term, names, rest, kind


def _unmarked_glossary_entries(body: str, doc_text: str, others: int = 0) -> list[tuple[int, str, str]]:
    """``(offset, term, definition)`` of a glossary laid out as ``Term definition`` lines in a
    definitions section or block (:func:`_glossary_line`: no quotes, no verb, maybe no separator).

    A line that does not end an entry (no closing stop, semicolon or colon) runs on into the next
    lines, as a wrapped two-column layout gives them (``Appointment the employment of … on the terms of``
    / ``this agreement.``), and so do lines indented under it; a line indented deeper than the entries
    opens none (the definition of a hanging entry another reader takes). The form must repeat to
    count: a run of three entries or more, in alphabetical order (four pairs in five at least) or set
    apart by bold, a gap or a dash, with half of the terms or more standing elsewhere in the document
    (``doc_text``) too; a line of other form ends the run. Entries set apart by a gap or bold count in
    a shorter run too when other readers found ``others`` definitions in the same text (three
    together at least): a list mixing hanging entries with ``AKEP2     An …`` lines (RFC 4764).
    Returns nothing else: prose under a definitions heading is no glossary."""
    count = _TermCounter(doc_text)
    out: list[tuple[int, str, str]] = []
    run: list[_GlossaryEntry] = []

    def close() -> None:
        entries = list(run)
        if len(entries) < 3:  # entries set apart by a gap among those other readers found (RFC 4764's
            entries = [e for e in entries if e.kind == "marked"]  # "AKEP2     An …" between hanging ones)
            entries = entries if entries and len(entries) + others >= 3 else []
        if entries:
            terms = [e.term.lower() for e in entries]
            ordered = sum(a <= b for a, b in zip(terms, terms[1:]))
            marked = sum(e.kind == "marked" for e in entries)
            used = sum(count(e.term) >= 2 for e in entries)
            if (5 * ordered >= 4 * (len(entries) - 1) or 2 * marked >= len(entries)) and 2 * used >= len(entries):
                for e in entries:
                    definition = " ".join(" ".join(e.parts).split())[:1500]
                    out.extend((e.at, name, definition) for name in [e.term, *e.names] if _plausible_term(name))
        run.clear()

    pos, margin = 0, None
    for raw in body.split("\n"):
        at, pos = pos, pos + len(raw) + 1
        lead = _GLOSSARY_ENTRY_LEAD_RE.match(raw).end()  # type: ignore[union-attr]
        line = raw[lead:].rstrip()
        if not line:
            continue
        if line.startswith(("#", "|")):
            close()
            continue
        indent = len(raw.expandtabs()) - len(raw.expandtabs().lstrip())
        deeper = margin is not None and indent > margin + 2  # indented under a term: a definition's lines
        parsed = _glossary_line(line, count)
        if run and not run[-1].closed and (parsed is None or parsed[3] == "capitals" or deeper):
            run[-1].parts.append(line)  # the entry's definition carried over the line
            continue
        if deeper and (parsed is None or parsed[3] == "capitals"):
            continue  # a hanging entry's definition ("Please refer to [10] …"), another reader's
        margin = indent
        if parsed is None or not _plausible_term(parsed[0]) or len(parsed[0].split()) > 8:
            close()
            continue
        term, names, definition, kind = parsed
        run.append(_GlossaryEntry(at + lead, term, names, [definition], kind))
    close()
    return out


# an abbreviation in brackets after its long form: "Protected Health Information (PHI)", "Intellectual
# Property Rights (IPRs)", "the Data Protection Act 2018 (DPA)"; two capitals at least, so never an item
# label ("(a)", "(iv)"), a number or a naming parenthesis ("(the Company)")
_ACRONYM_RE = re.compile(r"(?<=\S)[ \t]*\((?P<abbr>[A-Za-z][A-Za-z0-9&./+-]{1,11})\)")


def acronym_long_form(abbreviation: str, before: str) -> str | None:
    """The long form an abbreviation stands for, read from the words ``before`` it, else ``None``.

    After Schwartz & Hearst (*A simple algorithm for identifying abbreviation definitions in
    biomedical text*, PSB 2003): the letters and digits of the abbreviation are found in order in the
    last ``min(len + 5, 2 × len)`` words before it, the first opening the long form's first word. Here
    every word of the long form must hold one of them (a function word such as ``and``/``of`` or a
    number may hold none: ``Data Protection Act 2018`` for ``DPA``), and of the readings the one putting
    the most letters on word initials wins (``Closed Circuit Television`` for ``CCTV``, not ``Circuit
    Television``; a function word's initial counts half), the shorter on a tie; half of the letters at least must fall on initials, so a letter
    run inside one word is no long form. ``("PHI", "… disclose Protected Health Information")`` →
    ``Protected Health Information``."""
    letters = [ch.lower() for ch in abbreviation if ch.isalnum()]
    if len(letters) < 2 or not letters[0].isalpha():
        return None
    words = re.findall(r"\S+", before)[-min(len(letters) + 5, 2 * len(letters)) :]
    keys = [re.sub(r"[^\w]", "", w).lower() for w in words]

    @functools.lru_cache(maxsize=None)
    def best(i: int, k: int) -> float:
        """Most letters from ``i`` on put on word initials, words ``k`` on (-inf: no reading)."""
        if k == len(keys):
            return 0 if i == len(letters) else float("-inf")
        key, out = keys[k], float("-inf")
        if not key or key.isdigit() or key in _FUNCTION_WORDS:
            out = best(i, k + 1)  # a function word or a number may hold no letter
        pos, score, j = 0, 0.0, i
        initial = 0.5 if key in _FUNCTION_WORDS else 1.0  # "Department of Defense (DoD)": "of" counts half
        while j < len(letters):  # letters i..j go in this word, in order
            at = key.find(letters[j], pos)
            if at < 0:
                break
            score += initial if at == 0 and j == i else 0.0
            pos, j = at + 1, j + 1
            out = max(out, score + best(j, k + 1))
        return out

    found = [(best(0, k), k) for k in range(len(keys)) if keys[k][:1] == letters[0] and keys[k] not in _FUNCTION_WORDS]
    found = [(score, k) for score, k in found if score > float("-inf")]
    if not found:
        return None
    score, k = max(found)
    long_form = re.sub(r"[’']s$", "", " ".join(words[k:]).strip(" ,;:"))  # "the Directorate’s (ASD) …"
    alpha = sum(ch.isalpha() for ch in letters)
    if 2 * score < alpha or re.search(r"[()\[\]{}\"“”]", long_form) or abbreviation in long_form.split():
        return None  # "PPPoE PPP over Ethernet (PPPoE)": a list line's label, not the long form
    return long_form


def _acronym_entries(body: str) -> list[tuple[int, str, str]]:
    """``(offset, abbreviation, long form)`` of each abbreviation ``body`` defines by putting it in
    brackets after its long form (:func:`acronym_long_form`): ``Protected Health Information (PHI)``
    defines ``PHI`` as ``Protected Health Information``. Only the sentence before the bracket is read;
    an abbreviation of fewer than two capitals, a roman numeral or an enumerator is none."""
    out = []
    for m in _ACRONYM_RE.finditer(body):
        abbreviation = m.group("abbr")
        if sum(ch.isupper() for ch in abbreviation) < 2 or is_enumerator(abbreviation):
            continue
        start = max(body.rfind("\n\n", 0, m.start()), m.start() - 300)
        before = re.split(r"[.;:!?](?=\s)|\n\n|[|*_`\"“”]", body[max(start, 0) : m.start()])[-1]
        long_form = acronym_long_form(abbreviation, before)
        if long_form and _plausible_term(abbreviation, marked=True):
            out.append((m.start("abbr"), abbreviation, long_form))
    return out


# "**Term** (ABBR) – definition", "**Term** or **Other name** – …", "**A** (X) and **B** (Y) – …": the
# names before the separator, then the definition
_GLOSSARY_HEAD_RE = re.compile(
    r"^(?P<head>(?:\s*(?:\([^()\n]{1,40}\)|or|and|\*\*[^*\n]{1,80}\*\*))*)\s*"
    r"(?:[–—]|-(?=\s)|:)\s*(?P<rest>\S.*)$"
)
_ABBREVIATION_RE = re.compile(r"(?=[^()\s]*[A-Z])[A-Za-z][\w./+-]{0,14}")


def _glossary_body(text: str) -> tuple[str, list[str]]:
    """``(definition, other names)`` of a glossary line's body: ``(CWE) – A community-developed
    list …`` → ``("A community-developed list …", ["CWE"])``; the abbreviations in parentheses and the
    bold names before the dash are other names of the term; a body without that head is kept whole."""
    m = _GLOSSARY_HEAD_RE.match(text)
    if not m:
        return " ".join(text.split())[:1500], []
    names = []
    for x in re.finditer(r"\(([^()\n]+)\)|\*\*([^*\n]+)\*\*", m.group("head")):
        abbreviation, bold = (x.group(1) or "").strip(), (x.group(2) or "").strip()
        if bold or _ABBREVIATION_RE.fullmatch(abbreviation):  # not "(see also X)"
            names.append(bold or abbreviation)
    return " ".join(m.group("rest").split())[:1500], [n for n in names if _plausible_term(n, marked=True)]


def _alternative_terms(alt: str | None) -> list[str]:
    """Quoted spellings in the parenthesis after a term: ``(or "Your")`` → ``["Your"]``; nothing
    when the parenthesis says anything else (``(as defined below)``)."""
    if not alt:
        return []
    quoted = list(_QUOTED_RE.finditer(alt))
    rest = _QUOTED_RE.sub(" ", alt)
    if not quoted or not set(_lead_words(rest)) <= {"or", "and", "also", "each", "together", "collectively"}:
        return []
    return [t for q in quoted if _plausible_term(t := q.group("term").strip(" ,."), quoted=True)]


def _lead_words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[^\W\d_]+", text)]


def _parenthetical_terms(body: str, doc_text: str = "") -> list[tuple[int, str, str]]:
    """Terms a parenthesis names for what it follows: ``This Agreement (the “**Agreement**”)``,
    ``each party (“**Disclosing Party**”)``, ``(each, a "Party" and together the "Parties")``.

    The parenthesis holds only the quoted term(s) and naming words (``the``, ``each``,
    ``collectively``, ``hereinafter``, ``referred to as``; anything else only before a comma:
    ``(together with its Affiliates, "Customer")``), nothing after the last term. A term is a
    capitalised noun phrase (lower case only after a naming word such as ``the``); never a lone
    pronoun or function word (``it``, ``this``, ``such``), nor a BCP 14 keyword (``"MUST"``).
    A lower-case term without a naming word counts when it stands alone right after a noun and
    the text uses it again (:func:`_lower_case_short_form`: GDPR's ``(‘data subject’)``).
    Returns ``(offset, term, sentence)``; the sentence that holds the parenthesis is its
    definition."""
    out = []
    for m in _PAREN_RE.finditer(body):
        line_start = body.rfind("\n", 0, m.start()) + 1
        line_end = body.find("\n", m.end())
        if _FOOTNOTE_LINE_RE.search(body[line_start : len(body) if line_end < 0 else line_end]):
            continue  # a footnote citing another instrument names that instrument, it defines nothing here
        inner = m.group("inner")
        quoted = list(_QUOTED_RE.finditer(inner))
        if not quoted or inner[quoted[-1].end() :].strip(" ,;.*_") or "\n" in inner:
            continue
        head = inner[: quoted[0].start()]
        if _EXAMPLE_LEAD_RE.match(head):  # '(e.g., "Request for parameter: example")' shows an example
            continue
        lead = head.rsplit(",", 1)[-1] if "," in head or ";" in head else head
        lead = _RELATIVE_NAMING_RE.sub("", lead.rsplit(";", 1)[-1])  # "(which date is referred to herein as …)"
        if not set(_lead_words(lead)) <= _LEAD_IN:
            continue
        if any(not set(_lead_words(inner[a.end() : b.start()])) <= _LEAD_IN for a, b in zip(quoted, quoted[1:])):
            continue
        for i, q in enumerate(quoted):
            term = q.group("term").strip(" ,.")
            before = set(_lead_words(head if i == 0 else inner[quoted[i - 1].end() : q.start()]))
            if not term or term in _BCP14 or not _plausible_term(term):
                continue
            if not (term[0].isupper() or term[0].isdigit() or before & _NAMING_LEAD) and not _lower_case_short_form(
                body, m, term, head if i == 0 else "x", doc_text
            ):
                continue
            named = _named_phrase(body, m.start(), term)
            definition = f"{named} {m.group(0)}" if named else _sentence_around(body, m.start(), m.end())
            out.append((m.start("inner") + q.start(), term, definition))
    return out


def _lower_case_short_form(body: str, m: re.Match, term: str, head: str, doc_text: str = "") -> bool:
    """A lower-case term alone in a parenthesis right after a noun names it when the text uses it
    again: GDPR's ``an identifiable natural person (‘data subject’)``, then ``the data subject``
    throughout. Without a naming word (``the``, ``hereinafter``) the reuse is the evidence: a
    quoted aside is not used again as a term. The reuse is looked for in ``body`` outside the
    parenthesis, and in ``doc_text`` (the whole document, the parenthesis included: twice)."""
    if head.strip() or not body[: m.start()].rstrip()[-1:].isalpha():
        return False
    word = re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", re.I)
    rest = body[: m.start()] + " " + body[m.end() :]
    return word.search(rest) is not None or len(word.findall(doc_text, 0)) >= 2


_EXAMPLE_LEAD_RE = re.compile(r"^\s*(?:e\.\s?g\.|for\s+example|for\s+instance|such\s+as)(?![\w])", re.I)
_NAME_CONNECTORS = frozenset("of the and for on in de du des der van von".split())


def _named_phrase(body: str, paren_start: int, term: str) -> str | None:
    """The proper name a short-form parenthesis abbreviates, when it stands inside a sentence:
    ``… the case-law of the Court of Justice of the European Union (the ‘Court of Justice’)`` →
    ``Court of Justice of the European Union``. The name is the run of capitalised words (joined
    by ``of``, ``the``, ``and`` …) just before the parenthesis and must hold the term's first
    word, or be what the term abbreviates (``the General Data Protection Regulation ("GDPR")`` →
    ``General Data Protection Regulation``: :func:`acronym_long_form`); ``None`` when there is no such run or it opens the sentence (``This Agreement (the
    "Agreement") is made …``: the sentence, which says who makes it, is the better definition)."""
    head = body[max(0, paren_start - 300) : paren_start]
    head = head[
        max(head.rfind("\n\n"), head.rfind("#")) + 1 :
    ]  # a name never runs back into a heading or an earlier paragraph
    words = list(re.finditer(r"\S+", head))
    start = None
    for w in reversed(words):
        token = w.group(0)
        if token[:1].isupper() and re.fullmatch(r"[\w’'/.-]+", token) and not token.endswith("."):
            start = w
        elif token.lower() in _NAME_CONNECTORS and start is not None:
            continue
        else:
            break
    if start is None:
        return None
    name = head[start.start() :].strip()
    first_word = term.split()[0].lower().strip("\"'“”‘’„‚«»*_")
    if first_word not in [t.lower() for t in re.findall(r"[\w’'-]+", name)]:
        # an abbreviation of the name: 'the General Data Protection Regulation ("GDPR")'
        abbreviated = " " not in term and sum(ch.isupper() for ch in term) >= 2
        name = (acronym_long_form(term, name) or "") if abbreviated else ""
        if not name:
            return None
    before = head[: start.start()].rstrip()
    if not before or re.search(r"[.!?;:]\W*$", before) or before.endswith("\n"):
        return None  # the name opens its sentence
    return name


def _without_notes(body: str) -> str:
    """``body`` with each note to the drafter blanked, same length (:func:`.grammar.drafting_note_re`:
    ``*[Drafting note: … define the Deliverables here. …]*``, ``[ Enter a description … ]``): its words
    define nothing, and a definition's sentence never runs back into one."""
    return drafting_note_re().sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)


# where a sentence in a table cell starts: after the cell's bar, or after a bold caption set over it in the
# cell ("| **USING THIS AGREEMENT**  This Agreement has 2 parts: …": the converter joins a cell's paragraphs
# with two spaces)
_CELL_START_RE = re.compile(r"(?:^|(?<=\s))\|[ \t]*|\*\*[^*\n|]{1,60}\*\*[ \t]{2,}(?=[A-Z“\"])")


def _sentence_around(body: str, start: int, end: int) -> str:
    """The sentence of ``body`` holding ``start``–``end`` (within its paragraph and its table cell,
    ≤ 1500 chars)."""
    para_start = body.rfind("\n\n", 0, start)
    para_start = 0 if para_start < 0 else para_start + 2
    para_end = body.find("\n\n", end)
    para_end = len(body) if para_end < 0 else para_end
    bar = re.search(r"\s\|(?=\s|$)", body[end:para_end])  # the cell ends at its bar
    para_end = end + bar.start() if bar else para_end
    head = body[para_start:start]
    cut = max((mm.end() for mm in re.finditer(r"[.!?;]\s+(?=[A-Z“\"*])", head)), default=0)
    cut = max([cut, *(mm.end() for mm in _CELL_START_RE.finditer(head))])
    tail = re.search(r"[.!?;](?=\s|$)", body[end:para_end])
    stop = end + tail.end() if tail else para_end
    return " ".join(body[para_start + cut : stop].split())[:1500].strip(" :,-|")


_CLAUSE_END_RE = re.compile(r"[;\n]|\.(?=\s|$)")  # "Rules 3.8.2 to 3.8.9 are …": a point inside a number ends nothing


def _clause_around(body: str, start: int, end: int) -> str:
    """The clause holding ``body[start:end]``: from the last ``;``, line break or ``.`` before a space
    before it to the next one after it (a naming definition: "the person accepting the proposal is called the
    "promisee";")."""
    before = [m.end() for m in _CLAUSE_END_RE.finditer(body, 0, start)]
    left = before[-1] if before else 0
    after = _CLAUSE_END_RE.search(body, end)
    right = after.end() if after else len(body)
    return " ".join(body[left:right].split())[:1500]


def _looks_like_term(term: str, quoted: bool) -> bool:
    """Not a bare enumerator or section number as the citation grammar writes one (``2C``, ``4.2``,
    ``(a)``, and unless quoted or marked ``iv.``, ``f``: a number beside a definition, never a term),
    nor, unless quoted or marked, the label of a note (``Note``, ``Example``:
    :func:`~.grammar.is_note_label`). A roman-looking word of two or
    more capitals (``CD``, ``MD``) stays a term: it is an abbreviation as often as a number."""
    t = term.strip(" *_")
    if is_enumerator(t) and (
        any(ch.isdigit() for ch in t)
        or "(" in t
        or not quoted
        and (t.endswith((".", ")")) or sum(ch.isalpha() for ch in t) == 1)
    ):
        return False
    return quoted or not is_note_label(t)


def _plausible_term(term: str, marked: bool = False, quoted: bool = False) -> bool:
    """A noun phrase of 1–8 words: not opened by a pronoun, determiner, conjunction or auxiliary
    (``it``, ``this``, ``such``, ``which``), not only function words. A term the markup marks
    (``<dfn>``, a definition list) only has to hold a letter and not be a lone function word; a
    quoted one (``"You" shall mean``: the quotes are the author's evidence) only must not be a
    lone demonstrative or ``it``."""
    words = term.split()
    if not (0 < len(words) <= 8 and any(ch.isalpha() for ch in term)):
        return False
    if not _looks_like_term(term, quoted or marked):
        return False
    lowered = [w.lower().strip("\"'“”‘’„‚«»*_()") for w in words]
    if not marked and re.search(r"[={}\[\]<>|]", term):
        return False  # notation ("K_{send,recv} = foo" means "set …"), not a noun phrase; markup may mark "[[state]]"
    if quoted:
        return not term.endswith((".", ";")) and not (len(lowered) == 1 and lowered[0] in _DEMONSTRATIVES)
    if all(w in _FUNCTION_WORDS for w in lowered):
        return False
    if marked:
        return True
    return not term.endswith((".", ";")) and lowered[0] not in _FUNCTION_WORDS - {"a", "an"}
