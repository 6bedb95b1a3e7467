"""Defined terms a Word document marks with paragraph styles, which markitdown (mammoth) drops.

A glossary in Word is often a run of ``Definition term`` paragraphs, each followed by a
``Definition`` paragraph: the Word counterpart of HTML's ``<dt>`` / ``<dd>`` (Word's own HTML
import names the two styles so, and specification templates such as OASIS's keep them). Other
templates call the term style ``Term``, ``Term(s)``, ``Glossary Term`` or ``Defined Term`` and the
definition style ``Glossary Definition`` or ``Term Definition``, or derive their own styles from
these through ``basedOn``. The markup is the author's statement that the paragraph is a defined
term, whatever the wording of its definition, so each pair becomes a
:class:`~docstrata.models.MarkedDefinition` (as :mod:`.html_marks` does for ``<dfn>`` and
``<dl>``).

:func:`word_definitions` reads them from :func:`.docx_numbering.word_paragraphs`: a paragraph's
role is that of the nearest style of its ``basedOn`` chain whose name or id (spaces, case and a
``(s)`` ignored: ``Definitionterm`` is the id Word gives ``Definition term``; a localised Word
keeps English names but writes its own ids) names a term or a definition style. Consecutive term
paragraphs share the definition after them (synonyms, as ``<dt>``\\ s before one ``<dd>``); the
definition is the run of definition paragraphs that follows, or — when the template has no
definition style — the one body paragraph right after the term.
"""

from __future__ import annotations

import re

from ..models import MarkedDefinition
from .docx_numbering import WordParagraph

_TERM = re.compile(r"(?:definition|glossary|defined|dictionary)?term")
_DEFINITION = re.compile(r"(?:glossary|term)?definition(?:text|body)?")


def style_role(chain: tuple[str, ...]) -> str | None:
    """``"term"``, ``"definition"`` or ``None`` for a paragraph whose style chain (names and ids,
    nearest first, :attr:`.docx_numbering.WordParagraph.style_chain`) is that: the nearest entry
    naming either role decides (a ``Glossary Entry`` style based on ``Definition term`` is a term
    style; a ``Body`` style based on ``Definition`` is a definition style)."""
    for name in chain:
        key = re.sub(r"[^a-z]", "", name.lower().replace("(s)", ""))
        if _TERM.fullmatch(key):
            return "term"
        if _DEFINITION.fullmatch(key):
            return "definition"
    return None


def word_definitions(paragraphs: list[WordParagraph]) -> list[MarkedDefinition]:
    """The term/definition pairs a document marks by paragraph style (module docstring), in
    document order, each with the text of the heading it stands under. Definitions are cut at
    1,500 characters; a term without a definition after it is left out."""
    out: list[MarkedDefinition] = []
    heading = ""
    n = 0
    while n < len(paragraphs):
        p = paragraphs[n]
        role = style_role(p.style_chain) if p.text else None
        if p.text and p.heading_level and role != "term":
            heading = " ".join(x for x in (p.label, p.text) if x)
        if role != "term":
            n += 1
            continue
        terms: list[str] = []
        while n < len(paragraphs) and (not paragraphs[n].text or style_role(paragraphs[n].style_chain) == "term"):
            if paragraphs[n].text:
                terms.append(paragraphs[n].text.strip().rstrip(":").strip())
            n += 1
        parts: list[str] = []
        while n < len(paragraphs) and (not paragraphs[n].text or style_role(paragraphs[n].style_chain) == "definition"):
            if paragraphs[n].text:
                parts.append(paragraphs[n].text)
            n += 1
        if not parts and n < len(paragraphs) and _body(paragraphs[n]):
            parts.append(paragraphs[n].text)  # a term style without a definition style: the next paragraph
            n += 1
        definition = " ".join(" ".join(parts).split())[:1500]
        if definition:
            out.extend(MarkedDefinition(t, definition, heading) for t in terms if t)
    return out


def _body(p: WordParagraph) -> bool:
    """A body paragraph: not a heading, not another term or definition, not a numbered clause."""
    return bool(p.text) and not p.heading_level and p.label is None and style_role(p.style_chain) is None
