"""Defined terms: definitions sections and inline definition patterns.

Entry point: :func:`extract_definitions`. Recognised forms (straight and curly quotes,
optional ``**bold**``, HTML spans stripped):

* ``"X" means …``, ``‘X’ means …``, ``**"X"** means …``, ``"X" shall mean …``,
  ``"X" (or "Y") shall mean …``, ``"Source" form shall mean …``, ``"X" refers to …``,
  ``"X" has the meaning …``, ``X is defined as …``, ``X: means …``;
* inside a section titled Definitions / Glossary / Terms / Interpretation / Meaning of
  terms / Defined terms (or a subsection of one) also ``A "covered work" means …``,
  ``To "modify" a work means …`` and ``Term: definition`` / ``**Term** definition`` lines.

The definition text runs from the verb to the end of its paragraph. One namespace per
document: a term defined twice keeps its first definition (conflicts across documents are
reported elsewhere).
"""

from __future__ import annotations

import re

from ..models import DefinitionEntry, DocumentTree, Section

_DEF_SECTION_RE = re.compile(
    r"\b(definitions?|glossary|defined terms|terms|interpretation|meaning of terms|terminology)\b", re.I)
_TAG_RE = re.compile(r"<[^>]+>")
_NUMBER_PREFIX_RE = re.compile(r"^(?:(?:article|section|part|chapter|rule|clause|schedule|§)\s*)?[\w.()]*\d[\w.()]*\s+", re.I)
_Q_OPEN, _Q_CLOSE = "\"“‘'«", "\"”’'»"
_TERM = rf"(?<![\w`'’])[{_Q_OPEN}](?P<term>(?=[\w(])[^{_Q_OPEN}{_Q_CLOSE}\n]{{1,80}}?)[{_Q_CLOSE}]"
_VERB = r"(?P<verb>shall\s+mean|means|mean|refers?\s+to|shall\s+refer\s+to|(?:will\s+|shall\s+)?ha(?:s|ve)\s+the\s+meaning|is\s+defined\s+as|shall\s+include|includes)\b"
_PAREN = r"(?:\s*\([^()\n]{0,80}\))?"
_STRICT_RE = re.compile(rf"(?:\*\*|__)?{_TERM}(?:\*\*|__)?{_PAREN}(?:\s+form)?\s*,?\s*{_VERB}")
_LOOSE_RE = re.compile(rf"(?:\*\*|__)?{_TERM}(?:\*\*|__)?{_PAREN}(?:\s+[a-z][\w-]*){{0,4}}\s*,?\s*{_VERB}")
_UNQUOTED_RE = re.compile(
    r"(?:^|(?<=[.\n|]\s)|(?<=\n))(?:\*\*)?(?P<term>[A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){0,5}?)(?:\*\*)?"
    r"(?::\s*(?P<verb>means)|\s+(?P<verb2>is\s+defined\s+as))\b")
_GLOSSARY_LINE_RE = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*(?P<bold>[^*\n]{1,60})\*\*|(?P<colon>[A-Z][\w ()/-]{0,60}?):)\s+(?P<def>\S.*)$")


def _clean(text: str) -> str:
    return _TAG_RE.sub("", text)


def _is_definitions_section(s: Section, tree: DocumentTree) -> bool:
    """This section or an ancestor is titled like a definitions section."""
    by_id = {x.section_id: x for x in tree.sections}
    cur: Section | None = s
    hops = 0
    while cur is not None and hops < 8:
        words = _NUMBER_PREFIX_RE.sub("", cur.title)
        quoted = words[:1] in _Q_OPEN  # a definition paragraph titled by its term ("Terms"), not a heading
        if not quoted and _DEF_SECTION_RE.search(words) and len(words.split()) <= 3:
            return True
        cur = by_id.get(cur.parent_id) if cur.parent_id else None
        hops += 1
    return False


def _definition_after(text: str, start: int) -> str:
    """The definition text from ``start`` to the end of its paragraph (≤ 1500 chars)."""
    end = text.find("\n\n", start)
    end = len(text) if end < 0 else end
    para = " ".join(text[start:end].split())
    return para[:1500].strip(" :,-|")


def extract_definitions(tree: DocumentTree) -> list[DefinitionEntry]:
    """Defined terms of ``tree`` in document order, each with the section that defines it.

    Returns:
        :class:`DefinitionEntry` items (``term`` as written, ``definition`` text,
        ``doc_key``, ``section_id``); ``chunk_id`` is filled later by the chunker's caller.
        A term (case-insensitive) appears once: its first definition wins.
    """
    out: list[DefinitionEntry] = []
    seen: set[str] = set()
    for s in tree.sections:
        body = _clean(f"{s.heading}\n{s.text}" if s.heading else s.text)
        in_defs = _is_definitions_section(s, tree)
        for term, definition in _find_in(body, in_defs):
            key = " ".join(term.lower().split())
            if key in seen or not definition:
                continue
            seen.add(key)
            out.append(DefinitionEntry(term=term, definition=definition, doc_key=tree.doc_key, section_id=s.section_id))
    return out


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
    return term if _plausible_term(term) else None


def _find_in(body: str, in_defs: bool) -> list[tuple[str, str]]:
    found: list[tuple[int, str, str]] = []
    pattern = _LOOSE_RE if in_defs else _STRICT_RE
    for m in pattern.finditer(body):
        term = m.group("term").strip(" ,.")
        if _plausible_term(term):
            found.append((m.start(), term, _definition_after(body, m.start("verb"))))
    for m in _UNQUOTED_RE.finditer(body):
        term = m.group("term").strip()
        if _plausible_term(term) and not any(abs(p - m.start()) < 3 for p, _, _ in found):
            verb_start = m.start("verb") if m.group("verb") else m.start("verb2")
            found.append((m.start(), term, _definition_after(body, verb_start)))
    if in_defs and not found:
        for line in body.splitlines():
            g = _GLOSSARY_LINE_RE.match(line)
            if g:
                term = (g.group("bold") or g.group("colon")).strip(" :\"“”")
                if _plausible_term(term) and len(g.group("def").split()) >= 3:
                    found.append((0, term, " ".join(g.group("def").split())[:1500]))
    found.sort(key=lambda x: x[0])
    return [(t, d) for _, t, d in found]


def _plausible_term(term: str) -> bool:
    words = term.split()
    return 0 < len(words) <= 8 and any(ch.isalpha() for ch in term) and not term.endswith((".", ";"))
