"""The converter contract: every converter returns one :class:`ConvertedDocument`.

A converted document is its text (Markdown, the single text that chunks, citations and line numbers
point into) cut into :class:`Block`\\ s that say what each stretch of that text is and how the
converter knows: a heading the markup states with its level and number (legislation XML,
gesetze-im-internet XML, kramdown-rfc Markdown), a heading recovered from a PDF outline or from font
statistics, a paragraph, a list item, a table, code, page furniture. The structure stage builds
sections straight from headings whose markup states their number (:func:`ConvertedDocument.states_structure`);
only unmarked text goes through detection. See ``docs/architecture.md`` ("The converter contract").

Converters that produce Markdown through a library (markitdown, pdfminer layout) wrap it with
:meth:`ConvertedDocument.from_markdown`, which cuts the Markdown into blocks without changing a
character of it; converters that read structure from markup build the blocks themselves with
:class:`BlockWriter`, which joins them into the text and records each block's offsets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..models import MarkedDefinition
from ..structure.grammar import PINPOINT

BLOCK_KINDS = ("heading", "paragraph", "list_item", "table", "code", "page_furniture")
PROVENANCES = ("markup", "outline", "style", "numbering", "font", "layout", "plain_text")


@dataclass(frozen=True)
class Block:
    """One stretch of a converted document's text.

    ``text`` is exactly ``document.text[start:end]`` (character offsets, end exclusive).
    ``kind`` is one of :data:`BLOCK_KINDS`; ``provenance`` (one of :data:`PROVENANCES`) says how
    the converter knows the kind: ``markup`` (the source's elements or syntax state it), ``outline``
    (a PDF outline), ``style`` (Word paragraph styles), ``numbering`` (a number the source's list
    numbering displays, such as Word's ``numbering.xml``, which the text alone would not give), ``font`` (typography statistics), ``layout``
    (position on the page) or ``plain_text`` (read from the characters alone).
    ``level`` is the nesting depth the source gives (1 = outermost; for stated structure the depth
    among all stated headings, not capped at Markdown's 6); ``number`` the number as the source
    prints it (``"§ 13"``, ``"Abschnitt 2"``, ``"1.1"``, ``"Appendix A"``), ``None`` when the source
    gives none; ``title`` a heading's words without its number; ``anchor`` the source's id for it
    (kramdown ``{#intro}``, an XML ``id``); ``page`` the 0-based physical page of a paged source.
    Raises nothing; :class:`ConvertedDocument` checks kinds and offsets.
    """

    text: str
    kind: str
    start: int
    end: int
    provenance: str = "plain_text"
    level: int | None = None
    number: str | None = None
    title: str | None = None
    anchor: str | None = None
    page: int | None = None


@dataclass
class ConvertedDocument:
    """What a converter returns (see module docstring).

    ``text``: the document as Markdown; ``blocks``: in document order, non-overlapping, each
    ``text[b.start:b.end] == b.text`` (the gaps are blank lines). ``title``: the title the source
    states (PDF metadata, HTML ``<title>``, an act's ``<langue>``, kramdown ``title:``) or ``None``.
    ``anchors``: element id → text of the heading it names (in-page links); ``marked_definitions``:
    terms the markup marks as defined; ``page_offsets`` / ``page_labels`` / ``page_unit``: page
    boundaries of a paged source (see :class:`~docstrata.models.Document`). ``profile``: the name
    of the document-family profile that recognised the source (``"gesetze-im-internet"``), if any.

    Raises :class:`ValueError` on construction when a block's kind or provenance is unknown or its
    text does not match its offsets (a converter bug, never bad input).
    """

    text: str
    blocks: list[Block] = field(default_factory=list)
    title: str | None = None
    warnings: list[str] = field(default_factory=list)
    anchors: dict[str, str] = field(default_factory=dict)
    marked_definitions: list[MarkedDefinition] = field(default_factory=list)
    page_offsets: list[int] = field(default_factory=list)
    page_labels: list[str] = field(default_factory=list)
    page_unit: str = ""
    profile: str | None = None

    def __post_init__(self) -> None:
        for b in self.blocks:
            if b.kind not in BLOCK_KINDS or b.provenance not in PROVENANCES:
                raise ValueError(f"block kind {b.kind!r} / provenance {b.provenance!r} is not part of the contract")
            if self.text[b.start : b.end] != b.text:
                raise ValueError(f"block at {b.start}-{b.end} does not match the document text")

    @classmethod
    def from_markdown(
        cls, markdown: str, *, provenance: str = "plain_text", list_numbers: bool = True, **fields
    ) -> ConvertedDocument:
        """Wrap Markdown a library produced: the text unchanged, cut into blocks (ATX/setext
        headings with their Markdown level, fenced code, tables, list items, paragraphs).

        ``provenance`` is what the library read the headings and list items from (``markup`` for
        HTML and xml2rfc, ``style`` for Word, ``font`` for a PDF's recovered headings, ``plain_text``
        for a text file). ``list_numbers=False`` says the source's ordered lists carry no numbers
        of their own (HTML ``<ol>``: the browser counts them), so list items get ``number=None``.
        Other keyword arguments are :class:`ConvertedDocument` fields.
        """
        return cls(text=markdown, blocks=markdown_blocks(markdown, provenance, list_numbers), **fields)

    def states_structure(self) -> bool:
        """Whether the source states its headings' nesting and numbers (legislation XML,
        gesetze-im-internet, kramdown-rfc, a Word clause outline): some heading block is ``markup``
        or ``numbering`` with a ``number``."""
        return states_structure(self.blocks)


STATED_PROVENANCES = ("markup", "numbering")  # a heading block of these states its level and number


def states_structure(blocks: list[Block]) -> bool:
    """``True`` when some heading block comes from markup, or from the source's list numbering (a
    Word clause outline), with a stated number (see :meth:`ConvertedDocument.states_structure`)."""
    return any(b.kind == "heading" and b.provenance in STATED_PROVENANCES and b.number for b in blocks)


def lists_are_numbered(blocks: list[Block]) -> bool:
    """``False`` when the source's ordered-list items are stated by markup without numbers of their
    own (HTML ``<ol>``), or when the source's list numbering states its clause outline (a Word
    document, provenance ``numbering``): such items, outside the outline, are list entries, never
    sections (the steps ``1.`` … ``5.`` of a list inside clause 3 are not clauses 3.1 … 3.5)."""
    return not any(
        b.kind == "list_item"
        and b.provenance == "markup"
        and b.number is None
        or b.kind == "heading"
        and b.provenance == "numbering"
        and b.number
        for b in blocks
    )


_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")  # a code fence line: its marker in group 1
_BULLETED_ENUMERATOR = re.compile(rf"^[ \t]*[-*+][ \t]+({PINPOINT})(?:[ \t]|$)")
_LIST = re.compile(r"^[ \t]*(?:(\d{1,9}|[a-z]|[A-Z]|[ivx]{1,5})[.)]|[-*+])[ \t]+\S")


def markdown_blocks(
    markdown: str, provenance: str = "plain_text", list_numbers: bool = True, paragraph_provenance: str = "plain_text"
) -> list[Block]:
    """Blocks of ``markdown`` (see :meth:`ConvertedDocument.from_markdown`), offsets into it.
    ``paragraph_provenance="markup"`` says the source's markup states its paragraphs (xml2rfc
    ``<t>``, a kramdown-rfc paragraph): a numbered line in one is never a section start."""
    lines = markdown.split("\n")
    starts, pos = [], 0
    for ln in lines:
        starts.append(pos)
        pos += len(ln) + 1
    blocks: list[Block] = []

    def add(i: int, j: int, kind: str, **kw) -> None:  # lines i..j-1
        start, end = starts[i], starts[j - 1] + len(lines[j - 1])
        blocks.append(Block(markdown[start:end], kind, start, end, **kw))

    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if fm := FENCE.match(line):
            j = i + 1
            while j < len(lines) and not (lines[j].strip().startswith(fm.group(1)[0] * len(fm.group(1)))):
                j += 1
            j = min(j + 1, len(lines))
            add(i, j, "code", provenance="markup")
            i = j
            continue
        if m := _ATX.match(line):
            add(i, i + 1, "heading", provenance=provenance, level=len(m.group(1)), title=(m.group(2) or "").strip())
            i += 1
            continue
        if (
            i + 1 < len(lines)
            and (u := _SETEXT.match(lines[i + 1]))
            and not _LIST.match(line)
            and not line.lstrip().startswith(("|", ">"))
        ):
            add(i, i + 2, "heading", provenance=provenance, level=1 if u.group(1)[0] == "=" else 2, title=line.strip())
            i += 2
            continue
        j = i + 1
        if line.lstrip().startswith("|"):
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            add(i, j, "table", provenance=provenance)
        elif lm := _LIST.match(line):
            while j < len(lines) and lines[j].strip() and not _LIST.match(lines[j]) and not _ATX.match(lines[j]):
                j += 1
            number = lm.group(1) if list_numbers else None
            if not lm.group(1) and (em := _BULLETED_ENUMERATOR.match(line)):
                number = em.group(1)  # "- (3) …": the bullet's text starts with its own number
            add(i, j, "list_item", provenance=provenance if lm.group(1) else "plain_text", number=number)
        else:
            while (
                j < len(lines)
                and lines[j].strip()
                and not _ATX.match(lines[j])
                and not FENCE.match(lines[j])
                and not _LIST.match(lines[j])
                and not (j + 1 < len(lines) and _SETEXT.match(lines[j + 1]))
            ):
                j += 1
            add(i, j, "paragraph", provenance=paragraph_provenance)
        i = j
    return blocks


class BlockWriter:
    """Builds a :class:`ConvertedDocument` from blocks a converter reads off markup: each
    :meth:`add` appends one block (its text ``"\\n\\n"``-separated from the one before) and records
    its offsets; :meth:`document` returns the result."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._pos = 0
        self.blocks: list[Block] = []

    def add(self, text: str, kind: str = "paragraph", **kw) -> None:
        """Append ``text`` as one block of ``kind``; keyword arguments are :class:`Block` fields."""
        text = text.strip("\n")
        if not text.strip():
            return
        if self._parts:
            self._parts.append("\n\n")
            self._pos += 2
        self._parts.append(text)
        self.blocks.append(Block(text, kind, self._pos, self._pos + len(text), **kw))
        self._pos += len(text)

    def heading(
        self,
        level: int,
        title: str,
        number: str | None = None,
        *,
        written: str | None = None,
        anchor: str | None = None,
    ) -> None:
        """Append a heading the markup states: ``#``×min(level, 6), then ``written`` (default
        ``"{number} {title}"``)."""
        words = written if written is not None else " ".join(x for x in (number, title) if x)
        self.add(
            f"{'#' * max(1, min(level, 6))} {words}",
            "heading",
            provenance="markup",
            level=level,
            number=number,
            title=title,
            anchor=anchor,
        )

    def document(self, **fields) -> ConvertedDocument:
        """The :class:`ConvertedDocument` of the blocks added so far (text ends with a newline)."""
        return ConvertedDocument(text="".join(self._parts) + "\n", blocks=list(self.blocks), **fields)
