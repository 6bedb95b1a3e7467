"""The scope of a definition: the section subtree its lead-in says it governs.

Legislation and contracts state where a definition applies: ``In this subtitle:``, ``In this
section, the term …``, ``For the purposes of this Part``, ``In these Regulations``, ``the term X,
as used in this Article, means``. :func:`definition_scope` reads that lead-in (in the defining
passage before the term, between the term and its verb, or in the own text of an enclosing
provision: the chapeau ``In this title:`` of a definitions section whose items define) and
resolves it to the enclosing unit of that kind in the parent chain:

* a grouping (title, subtitle, part, subpart, chapter, subchapter, division, subdivision,
  schedule, annex, appendix, article, book) → the nearest ancestor numbered with that keyword
  (``TITLE III``, ``Subtitle D``, ``Part 2``, ``Article 4``);
* ``section`` (``regulation``, ``rule`` in lower case) → the nearest ancestor numbered ``SEC. 5``,
  ``Section 5``, ``§ 5`` (``Regulation 5``, ``Rule 5``), else the nearest one with a bare number
  (``5``, ``12A``: a UK or Australian section);
* a subdivision of a section (subsection, paragraph, subparagraph, clause, subclause) → the item
  that many levels below the section (subsection 1, paragraph 2, subparagraph 3, clause 4,
  subclause 5, as US and UK drafting both nest them), or the deepest item there is; a paragraph
  of a schedule is the schedule's numbered paragraph;
* the instrument itself (``this Act``, ``this Agreement``, ``these Regulations``, ``this
  Regulation`` of an EU act, ``this Code``, …) → the whole document (``None``).

A lead-in whose unit the parent chain lacks (``In this chapter`` in text inserted into another
law) leaves the definition with document scope, as a definition without a stated scope has.
"""

from __future__ import annotations

import re

from ..models import Section
from .grammar import keyword, keyword_words

_GROUPS = (
    "title",
    "subtitle",
    "part",
    "subpart",
    "chapter",
    "subchapter",
    "division",
    "subdivision",
    "schedule",
    "annex",
    "appendix",
    "article",
    "book",
)
_ITEMS = {"subsection": 1, "paragraph": 2, "subparagraph": 3, "clause": 4, "subclause": 5}
# the whole instrument: "this Act", "this Agreement", "these Regulations", "this Regulation" (EU)
_DOCUMENT = (
    "act",
    "agreement",
    "directive",
    "code",
    "order",
    "ordinance",
    "instrument",
    "contract",
    "policy",
    "licence",
    "license",
    "document",
    "convention",
    "treaty",
    "statute",
    "law",
    "specification",
    "standard",
    "constitution",
    "deed",
    "decision",
    "measure",
    "bylaw",
    "bylaws",
    "protocol",
    "charter",
    "guidelines",
    "terms",
)
_KIND_WORDS = "|".join(
    sorted(
        [
            *_GROUPS,
            *_ITEMS,
            "sub-section",
            "sub-paragraph",
            "sub-clause",
            "section",
            "regulations?",
            "rules?",
            *_DOCUMENT,
        ],
        key=len,
        reverse=True,
    )
)
# a lead-in opens a clause: after the start, a stop, a dash, a colon, a comma or an item label
# ("(1) In this section", "Definitions.— In this subsection", "The term X, as used in this Article,")
SCOPE_LEAD_RE = re.compile(
    rf"(?:(?:^|(?<=[.;:—–,(\n)*>\"“]))[ \t*_]*(?:unless the context otherwise requires,?\s*)?|\b(?:except\s+)?that\s+)"
    rf"(?P<lead>in|for\s+(?:the\s+)?purposes?\s+of|as\s+used\s+in|within\s+the\s+meaning\s+of|"
    # Canadian federal drafting: "The following definitions apply in this section.", "The definitions in
    # this subsection apply in this Part."
    rf"(?:the\s+)?(?:following\s+)?(?:definitions?|terms?|expressions?)(?:\s+in\s+this\s+[\w-]+)?\s+appl(?:y|ies)\s+in)\s+"
    rf"(?P<det>this|these)\s+(?P<kind>{_KIND_WORDS})\b",
    re.I,
)
# "In subsection (4)", "For the purpose of subsection (2)", "In sub-paragraph (2)(a)": a named item of the
# enclosing provision (UK and Commonwealth drafting)
NAMED_LEAD_RE = re.compile(
    r"(?:^|(?<=[.;:—–,(\n)*>\"“]))[ \t*_]*(?:in|for\s+(?:the\s+)?purposes?\s+of)\s+"
    r"(?P<kind>sub-?sections?|sub-?paragraphs?|paragraphs?|clauses?|sub-?clauses?)\s+"
    r"(?P<label>(?:\([0-9A-Za-z]{1,6}\))+)(?![\w(])"
    # the term follows ("In subsection (4), “relevant criteria” …"), not an amendment ("in subsection (1)— (c) after")
    r"(?=[ \t]*[,—–:-]?\s*(?:the\s+(?:terms?|expressions?|words?)\s+)?[*_]*[“\"‘'])",
    re.I,
)
_VERB_RE = re.compile(
    r"\b(?:means|mean|includes|shall\s+mean|has\s+the\s+(?:same\s+)?meaning|refers?\s+to|"
    r"is\s+defined\s+as)\b",
    re.I,
)
_UNIT_KEYWORD_RE = re.compile(
    rf"^\s*(?:\*\*)?(?P<kw>§|sec\b\.?|art\b\.?|{'|'.join(keyword_words('label', 'scope'))})", re.I
)
_BARE_NUMBER_RE = re.compile(r"^\s*\d+(?:\.\d+)*[A-Z]{0,3}\.?\s*$")  # "5", "12A", "24.1" (Canada), "3."
_ITEM_LABEL_RE = re.compile(r"^\s*(?:\([0-9A-Za-z]{1,6}\))+\s*$|^\s*[0-9a-z]{1,4}[.)]\s*$")
_CLIMB = 6  # enclosing provisions whose own text may hold the lead-in of a definition below them


def unit_kind(s: Section) -> str | None:
    """The kind of unit ``s`` is, from its written number (else title): a keyword's kind
    (``section`` for ``SEC. 5``/``§ 5``, ``title``, ``part``, ``article`` …), ``numbered`` for a
    bare number (``5``, ``12A.``), ``item`` for a label (``(a)``, ``(1)(A)``, ``b.``), else
    ``None``."""
    label = s.number or ""
    m = _UNIT_KEYWORD_RE.match(label) or (None if label else _UNIT_KEYWORD_RE.match(s.title or ""))
    if m and (label or re.match(r"\s*\S+\s+[\dIVXLCA-Z]", s.title or "")):
        written = m.group("kw").lower().rstrip(".")
        kw = keyword(written)
        return kw.kind if kw is not None else written  # § / sec → section, art / Artikel → article
    if _BARE_NUMBER_RE.match(label):
        return "numbered"
    if _ITEM_LABEL_RE.match(label):
        return "item"
    return None


def find_lead_in(body: str, start: int) -> re.Match | None:
    """The lead-in governing a definition at offset ``start`` of ``body``: one between the term and
    its verb (``, as used in this Article,``), else the last one before ``start``
    (:data:`SCOPE_LEAD_RE` or :data:`NAMED_LEAD_RE`)."""
    head = body[start : start + 240]
    verb = _VERB_RE.search(head)
    if verb:
        inline = SCOPE_LEAD_RE.search(head[: verb.start()])
        if inline:
            return inline
    end = start + (verb.start() if verb else 0)
    found = [*SCOPE_LEAD_RE.finditer(body, 0, end), *NAMED_LEAD_RE.finditer(body, 0, end)]
    return max(found, key=lambda m: m.start(), default=None)


def definition_scope(
    s: Section, body: str, start: int, by_id: dict[str, Section], own_text
) -> tuple[str | None, str | None]:
    """``(scope section id, scope label)`` of a definition at offset ``start`` of section ``s``'s
    ``body``; ``(None, None)`` for document scope. ``own_text(section)`` gives an enclosing
    section's own text (where its chapeau ``In this title:`` stands)."""
    lead, holder = find_lead_in(body, start), s
    node, hops = s, 0
    while lead is None and hops < _CLIMB and node.parent_id and unit_kind(node) not in (*_GROUPS, "section"):
        if unit_kind(node) == "numbered" and hops:
            break  # past the numbered provision that holds the definition
        node = by_id.get(node.parent_id)
        hops += 1
        if node is None or unit_kind(node) in _GROUPS and node.number:
            break  # a title's or part's own text heads more than one provision
        text = own_text(node)
        found = [*SCOPE_LEAD_RE.finditer(text), *NAMED_LEAD_RE.finditer(text)]
        lead = max(found, key=lambda m: m.start(), default=None)
        holder = node
    if lead is None:
        return None, None
    if "label" in lead.groupdict():
        unit = resolve_named(lead.group("kind"), lead.group("label"), holder, by_id)
    else:
        unit = resolve_unit(lead.group("kind"), lead.group("det"), holder, by_id)
    if unit is None:
        return None, None
    return unit.section_id, scope_label(unit, by_id)


def resolve_unit(kind_word: str, det: str, holder: Section, by_id: dict[str, Section]) -> Section | None:
    """The unit ``this <kind_word>`` names from ``holder`` (the section whose text holds the
    lead-in): see the module docstring; ``None`` for the whole document or a unit not found."""
    kind = kind_word.lower().replace("-", "")
    plural = det.lower() == "these" or kind.endswith("s") and kind not in ("bylaws", "terms")
    kind = kind.rstrip("s") if kind in ("regulations", "rules") else kind
    if kind in _DOCUMENT or plural:
        return None
    chain: list[Section] = []
    node: Section | None = holder
    while node is not None and len(chain) < 40:
        chain.append(node)
        node = by_id.get(node.parent_id) if node.parent_id else None
    kinds = [unit_kind(x) for x in chain]
    if kind in _GROUPS:
        return next((x for x, k in zip(chain, kinds) if k == kind), None)
    if kind in ("regulation", "rule"):
        if kind_word[0].isupper() and not any(k == kind for k in kinds):
            return None  # "this Regulation" of an EU act: the act itself
        return next((x for x, k in zip(chain, kinds) if k == kind), None) or next(
            (x for x, k in zip(chain, kinds) if k == "numbered"), None
        )
    if kind == "section":
        return next((x for x, k in zip(chain, kinds) if k == "section"), None) or next(
            (x for x, k in zip(chain, kinds) if k == "numbered"), None
        )
    if kind in _ITEMS:
        at = next(
            (i for i, k in enumerate(kinds) if k in ("section", "numbered", "article", "regulation", "rule")), None
        )
        if at is None:
            items = [x for x, k in zip(chain, kinds) if k == "item"][::-1]
            return items[min(_ITEMS[kind], len(items)) - 1] if items else holder
        if kind == "paragraph" and "schedule" in kinds[at + 1 :]:
            return chain[at]  # "In this paragraph" of a schedule: its numbered paragraph
        items = chain[:at][::-1]  # top down below the section
        return items[min(_ITEMS[kind], len(items)) - 1] if items else chain[at]
    return None


def resolve_named(kind_word: str, label: str, holder: Section, by_id: dict[str, Section]) -> Section | None:
    """The item ``subsection (4)`` / ``sub-paragraph (2)(a)`` names: below the provision holding
    ``holder`` (its section, article or numbered paragraph), the child numbered ``(4)``, then its
    child ``(a)`` …, as deep as the tree goes; ``None`` when no child bears the first label."""
    node: Section | None = holder
    while node is not None and unit_kind(node) in ("item", None) and node.parent_id:
        node = by_id.get(node.parent_id)
    if node is None:
        return None
    children: dict[str, list[Section]] = {}
    for x in by_id.values():
        if x.parent_id:
            children.setdefault(x.parent_id, []).append(x)
    found = None
    for part in re.findall(r"\([0-9A-Za-z]{1,6}\)", label):
        nxt = next((c for c in children.get(node.section_id, []) if (c.number or "").strip() == part), None)
        if nxt is None:
            break
        found = node = nxt
    return found


def scope_label(unit: Section, by_id: dict[str, Section]) -> str:
    """The unit named by its numbering from the top: ``Title III, Subtitle D``, ``Sec. 2110(d)``,
    ``Part 2, Division 3``; a unit without a number by its title. Enclosing headings without a
    number or unit keyword (the document's title) are left out; at most the last four units."""
    chain: list[Section] = []
    node: Section | None = unit
    while node is not None and len(chain) < 40:
        # not the preamble, nor an enclosing heading with neither number nor keyword (the document's title)
        if node.section_id != "preamble" and (node is unit or node.number or unit_kind(node) is not None):
            chain.append(node)
        node = by_id.get(node.parent_id) if node.parent_id else None
    parts: list[str] = []
    for x in reversed(chain):
        label = (x.number or "").strip()
        if not label:
            words = x.title.split()
            # "Subtitle A Safety": its keyword and designation; a title without them whole
            parts.append(" ".join(words[:2]) if unit_kind(x) in _GROUPS and len(words) > 2 else x.title.strip())
            continue
        first, _, rest = label.partition(" ")
        if first.isupper() and len(first) > 1 and first.rstrip(".").isalpha():
            label = f"{first.capitalize()} {rest}".strip()  # "TITLE III" → "Title III", "SEC. 5" → "Sec. 5"
        if unit_kind(x) == "item" and parts:
            parts[-1] += label  # "Sec. 2110" + "(d)"
        elif _BARE_NUMBER_RE.match(label) and unit_kind(x) == "numbered":  # "34", with its title when last
            title = x.title.removeprefix(label).strip() if x is unit else ""
            parts.append(f"{label.rstrip('.')} {title}".strip())
        else:
            parts.append(label)
    return ", ".join(parts[-4:])
