"""Typed data passed between pipeline stages.

Flow: ``sources`` → :class:`SourceFile` → ``convert`` → :class:`Document` → ``structure`` →
:class:`DocumentTree` (:class:`Section` list, :class:`DefinitionEntry`, :class:`CrossReference`) →
``chunking`` → :class:`Chunk` → ``pages`` (a paged source's pages onto sections and chunks,
:class:`PageSpan`) → ``context`` / ``embed`` → ``store``. Structured data: ``records`` →
:class:`Record`. Search returns :class:`SearchResult` (documents) or :class:`RecordResult` (records).
Every stage takes and returns these; none reaches into another stage's helpers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import MISSING, asdict, dataclass, field, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .convert.document import Block

from .escaping import one_line

ChunkType = Literal["definition", "requirement", "content", "header", "contents"]  # contents: a contents page / index
SearchMode = Literal["hybrid", "semantic", "keyword", "exact"]


def sha256_text(text: str) -> str:
    """Hex sha256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class FileState:
    """What identifies one version of a file: size in bytes, mtime in ns, sha256 of its bytes."""

    size: int
    mtime_ns: int
    sha256: str


@dataclass(frozen=True)
class SourceFile:
    """A file found under a tool's ``source``.

    ``doc_key`` is the POSIX path relative to the source root (the document's identity);
    ``path`` the absolute path on this machine, never shown to an agent.
    """

    doc_key: str
    path: str
    state: FileState


@dataclass
class MarkedDefinition:
    """A term the source markup marks as defined (HTML ``<dfn>``, a ``<dl>`` entry under a
    definitions heading), found before conversion: ``term``, its ``definition`` text, and the text
    of the ``heading`` it stands under (which places it in the section tree)."""

    term: str
    definition: str
    heading: str = ""


@dataclass
class Document:
    """A converted file: Markdown text plus where it came from.

    ``markdown`` is the body as Markdown (headings recovered where possible);
    ``title`` the document title (first heading, PDF metadata, or the file stem).
    What the source markup says and the Markdown cannot: ``marked_definitions`` (terms the
    markup marks as defined) and ``anchors`` (element id → text of the heading it names, for
    in-page links ``[text](#id)``); both empty for formats without such markup. ``blocks``: the
    converter's cut of ``markdown`` into typed blocks (:class:`docstrata.convert.document.Block`:
    headings with the level and number the source states, paragraphs, list items, tables, code),
    offsets into ``markdown``; empty for a Document built by hand from Markdown. What the structure
    stage reads from them is derived, never a flag: :attr:`list_items` and :attr:`heading_levels`.
    Paged sources (PDF pages, PPTX slides; ``page_unit`` says which) keep their page boundaries
    beside the text, never in it (no marker pollutes chunks, BM25 or embeddings):
    ``page_offsets[i]`` is the character offset in ``markdown`` where physical page ``i`` (0-based)
    starts (non-decreasing; a page without text starts where the next one does), and
    ``page_labels[i]`` its printed label (PDF ``/PageLabels``, else the page number its header or
    footer prints: ``"iv"``, ``"12"``, ``"A-3"``; ``""`` for a page printing none), or the list is
    empty and pages are numbered by position.
    """

    doc_key: str
    title: str
    markdown: str
    format: str  # file extension without the dot: "md", "pdf", ...
    warnings: list[str] = field(default_factory=list)
    marked_definitions: list[MarkedDefinition] = field(default_factory=list)
    anchors: dict[str, str] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)  # the converter's typed blocks (convert/document.py)
    page_offsets: list[int] = field(default_factory=list)  # page i (0-based, physical) starts at this offset
    page_labels: list[str] = field(default_factory=list)  # printed label of each page (PDF /PageLabels), if any
    page_unit: str = ""  # "page" (PDF) or "slide" (PPTX); "" for an unpaged source

    @property
    def list_items(self) -> bool:
        """Whether Markdown ordered-list items may become sections: ``False`` when the source's
        markup states its lists without numbers of their own (HTML ``<ol>``, counted by the
        browser: its sections are its headings, its steps body text)."""
        from .convert.document import lists_are_numbered

        return lists_are_numbered(self.blocks)

    @property
    def heading_levels(self) -> bool:
        """Whether the source states its headings' nesting and numbers (legislation XML,
        gesetze-im-internet, kramdown-rfc): sections are then built from its heading blocks, nested
        by their stated level, not re-detected from the Markdown."""
        from .convert.document import states_structure

        return states_structure(self.blocks)


@dataclass
class Section:
    """One node of a document's section tree, in document order.

    ``section_id`` is the normalised id from the document's own numbering (``4.2.1``,
    ``203(a)(1)``, ``article-17``) or a slug of the title; unique within the document.
    ``number`` is the numbering as written (``"4.2.1"``, ``"Article 17"``) or ``None``.
    ``level`` is the depth (1 = top); ``parent_id`` the enclosing section (``None`` at the top).
    ``parent_chain`` holds the titles from the outermost ancestor down to this section, inclusive.
    ``text`` is the section's own body (without its subsections), Markdown;
    ``heading`` the heading line as it appears in the document (may be empty for the preamble).
    ``aliases`` are the exact-match keys that name this section (``Section 4.2``, ``§ 4.2``, ``4.2``).
    ``start_line`` is the 1-based line in the Markdown where the section starts.
    ``page_start`` / ``page_end`` / ``page_numbering``: the pages its text (heading and own body)
    starts and ends on, for a paged source (see :class:`PageSpan`); ``None`` otherwise.
    """

    section_id: str
    title: str
    level: int
    number: str | None = None
    parent_id: str | None = None
    parent_chain: list[str] = field(default_factory=list)
    heading: str = ""
    text: str = ""
    aliases: list[str] = field(default_factory=list)
    start_line: int = 1
    page_start: str | None = None
    page_end: str | None = None
    page_numbering: str | None = None


@dataclass(kw_only=True)
class Paged:
    """The page fields of an item that may stand on pages of a paged source (PDF, PPTX): the five
    fields of :class:`PageSpan` (:data:`PAGE_FIELDS`, meaning there), each ``None`` for an
    unpaged source. :class:`Chunk`, :class:`SearchResult`, :class:`SectionPage` and
    :class:`DefinitionEntry` inherit them; keyword-only, so each keeps its own positional fields.

    A dataclass lists a base's fields first; :meth:`_as_dict` and :func:`_chunk_defaults` put
    these last, so rows and JSON answers keep the field order they had when each class declared
    the page fields at its end (a store's stored row reads back the same either way)."""

    page_start: str | None = None
    page_end: str | None = None
    page_numbering: str | None = None
    physical_page_start: int | None = None
    physical_page_end: int | None = None

    @property
    def pages(self) -> str:
        """The pages as a citation names them (``"p. 14"``, ``"pp. iv–v"``, ``"slide 3"``; see
        :func:`page_citation`), or ``""`` without pages."""
        return page_citation(self.page_start, self.page_end, self.page_numbering)

    def _as_dict(self) -> dict[str, Any]:
        """:func:`dataclasses.asdict` of the item, its page fields last."""
        d = asdict(self)
        for name in PAGE_FIELDS:
            d[name] = d.pop(name)
        return d


PAGE_FIELDS = tuple(f.name for f in fields(Paged))


@dataclass
class DefinitionEntry(Paged):
    """A defined term: ``term`` as written, its ``definition`` text, where it is defined. The page
    fields (:data:`PAGE_FIELDS`, see :class:`PageSpan`) are those of the chunk defining it, filled
    when the tool answers (stores keep no pages for definitions); ``None`` for an unpaged source.

    ``scope`` is the id of the section whose subtree the definition governs, read from its lead-in
    (``In this subtitle:`` → the enclosing subtitle; ``In this section`` → the enclosing section);
    ``None`` when it governs the whole document (``In this Act``, no stated scope, or an index
    written before scopes were read). ``scope_label`` names that unit by its numbering from the top
    (``Title III, Subtitle D``), ``None`` with ``scope``."""

    term: str
    definition: str
    doc_key: str
    section_id: str | None = None
    chunk_id: str | None = None
    scope: str | None = None
    scope_label: str | None = None

    @property
    def applies_in(self) -> str:
        """Where the definition applies, as answers show it: ``Title III, Subtitle D
        (subtitle-d-aviation-security)`` or ``the whole document``."""
        if self.scope is None:
            return "the whole document"
        return f"{self.scope_label} ({self.scope})" if self.scope_label else self.scope


@dataclass
class CrossReference:
    """A reference from one passage to a section, e.g. ``Section 4.2`` or ``see Article 5``.

    ``text`` is the matched text; ``target`` the referenced number as normalised
    (``4.2``, ``article-5``); ``section_id`` the resolved section in the same document, or
    ``None`` when no such section exists; ``source_section_id`` where the reference stands.
    ``document`` is the other document the reference names, as written (``GPL``, ``RFC 5246``,
    ``GDPR``), ``None`` for a reference into its own document; ``target_document`` the doc_key
    it resolved to (its own document's key for an internal reference once resolved, the named
    document's when the tool holds it), ``None`` while unresolved. ``listing`` is set for a line of
    a contents list (``1.1.  Roles .... 6``) or any reference a contents section makes: it lists
    the section, it does not cite it, so it never counts as a citer (:mod:`docstrata.citers`).
    ``amended`` is set for a reference written inside an amendment (under "The Sentencing Code is
    amended as follows", "In section 264 (…)—"): ``document`` is the Act amended and ``target`` the
    provision of it, never a section of the amending document itself.
    """

    text: str
    target: str
    section_id: str | None = None
    source_section_id: str | None = None
    document: str | None = None
    target_document: str | None = None
    listing: bool = False
    amended: bool = False

    @property
    def resolved(self) -> bool:
        """Both the target document and the target section are known."""
        return bool(self.target_document and self.section_id)


@dataclass
class DocumentTree:
    """The parse of one document: sections in document order, plus definitions and references."""

    doc_key: str
    title: str
    sections: list[Section]
    definitions: list[DefinitionEntry] = field(default_factory=list)
    cross_references: list[CrossReference] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    anchors: dict[str, str] = field(default_factory=dict)  # from Document.anchors: link target id → heading text
    language: str = ""  # ISO 639-1 code the grammar was read in (``"fr"``), ``""`` when undetected

    def section(self, section_id: str) -> Section | None:
        """The section with ``section_id``, or ``None``."""
        for s in self.sections:
            if s.section_id == section_id:
                return s
        return None


@dataclass(frozen=True)
class PageSpan:
    """The pages a passage of a paged source (PDF, PPTX) stands on, as citations give them.

    ``page_start`` / ``page_end``: the labels of its first and last page as a reader cites them
    (``"iv"``, ``"14"``, ``"2-3"``); ``page_numbering`` says what they are: ``"printed"`` — the
    page labels the PDF defines (``/PageLabels``: roman front matter, restarts, prefixes such as
    ``"A-"``) or, for a PDF without labels of its own, the page numbers printed in its pages'
    headers and footers (trusted only where consecutive pages count on); ``"physical"`` — no
    printed number for its first or last page, so pages are numbered 1, 2, … by their position in
    the file; ``"slide"`` — PPTX slide numbers. ``physical_page_start`` / ``physical_page_end``:
    1-based positions of those pages in the file (what a viewer's "go to page" takes), equal to
    the labels when ``physical``.
    The same five fields (:data:`PAGE_FIELDS`), ``None`` where there are no pages, are those of
    :class:`Paged`, which :class:`Chunk`, :class:`SearchResult`, :class:`SectionPage` and
    :class:`DefinitionEntry` inherit.
    """

    page_start: str
    page_end: str
    page_numbering: str
    physical_page_start: int
    physical_page_end: int

    def citation(self) -> str:
        """``"p. 14"``, ``"pp. 12–13"``, ``"slide 3"``, ``"slides 3–4"``."""
        return page_citation(self.page_start, self.page_end, self.page_numbering)


def page_citation(page_start: str | None, page_end: str | None, page_numbering: str | None = None) -> str:
    """How a citation names pages: ``"p. 14"``, ``"pp. 12–13"`` (an en dash), ``"slide 3"``,
    ``"slides 3–4"``; ``""`` without pages. Physical numbering (the PDF defines no page labels,
    so the number is the page's position in the file, which may differ from the number printed on
    it) says so: ``"PDF p. 14"``."""
    if not page_start:
        return ""
    end = page_end or page_start
    if page_numbering == "slide":
        return f"slide {page_start}" if end == page_start else f"slides {page_start}–{end}"
    text = f"p. {page_start}" if end == page_start else f"pp. {page_start}–{end}"
    return f"PDF {text}" if page_numbering == "physical" else text


def page_fields(item: Any) -> dict[str, Any]:
    """The :data:`PAGE_FIELDS` of ``item`` (a chunk, hit, page or definition) as a dict."""
    return {name: getattr(item, name, None) for name in PAGE_FIELDS}


def page_range(items: list[Any]) -> dict[str, Any]:
    """The :data:`PAGE_FIELDS` spanning ``items`` in document order (each with page fields): from
    the first one with a page to the last one's (by position when one end has a printed number and
    the other not); all ``None`` when none has pages."""
    paged = [x for x in items if getattr(x, "page_start", None)]
    if not paged:
        return dict.fromkeys(PAGE_FIELDS)
    first, last = paged[0], paged[-1]
    out = {
        "page_start": first.page_start,
        "page_end": last.page_end,
        "page_numbering": first.page_numbering,
        "physical_page_start": first.physical_page_start,
        "physical_page_end": last.physical_page_end,
    }
    if first.page_numbering != last.page_numbering:  # printed at one end only: both by position
        out.update(
            page_start=str(first.physical_page_start), page_end=str(last.physical_page_end), page_numbering="physical"
        )
    return out


@dataclass
class Chunk(Paged):
    """A retrievable piece of a document.

    ``chunk_id`` is ``"{doc_key}#{ordinal}"``. ``content`` is the text shown to users;
    ``context`` the structural or LLM-written context; ``contextualized_content`` =
    ``context + "\\n\\n" + content`` is what BM25 and the embedder see (docs/architecture.md).
    ``token_count`` counts ``content`` with the embedding model's tokenizer.
    ``definitions`` lists terms defined in this chunk; ``cross_references`` the references
    it makes; ``aliases`` the exact-match keys of its section (first chunk of a section only
    carries them at rank 0 in the exact index).
    Page fields (:data:`PAGE_FIELDS`, meaning in :class:`PageSpan`): the pages of a paged source
    (PDF, PPTX) the chunk's text starts and ends on; all ``None`` for an unpaged source and for a
    chunk stored before pages were kept (a re-ingest with ``--force`` fills them).
    """

    chunk_id: str
    doc_key: str
    ordinal: int
    content: str
    section_id: str
    parent_chain: list[str]
    heading_level: int
    chunk_type: ChunkType = "content"
    token_count: int = 0
    context: str = ""
    context_truncated: bool = False
    document_title: str = ""
    section_title: str = ""
    aliases: list[str] = field(default_factory=list)
    definitions: list[str] = field(default_factory=list)
    cross_references: list[CrossReference] = field(default_factory=list)
    oversized: bool = False  # one indivisible unit (table row, code line) over the budget
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def contextualized_content(self) -> str:
        """The text the keyword and dense indices read: the situating ``context``, a blank line, the
        content (the content alone without a context)."""
        return f"{self.context}\n\n{self.content}" if self.context else self.content

    @property
    def content_sha256(self) -> str:
        """SHA-256 (hex) of ``content``, the change check of an ingest."""
        return sha256_text(self.content)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values, plus ``contextualized_content``; :meth:`from_dict` reads it back."""
        d = self._as_dict()
        d["contextualized_content"] = self.contextualized_content
        return d

    def to_row(self) -> dict[str, Any]:
        """The compact dict a store keeps: the required fields and ``metadata`` always, every other
        field only when it differs from its default, no derived ``contextualized_content``, and no
        :func:`dataclasses.asdict` deep copy (that was 18 s of a 31 s SQLite write of 20,000
        chunks). :meth:`from_dict` reads it back to an equal chunk."""
        d: dict[str, Any] = {}
        for name, default in _chunk_defaults():
            value = getattr(self, name)
            if default is _REQUIRED or value != default:
                d[name] = value
        if self.cross_references:
            d["cross_references"] = [dict(x.__dict__) for x in self.cross_references]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Chunk":
        """A :class:`Chunk` from :meth:`to_dict`'s output (``contextualized_content`` is derived, so ignored)."""
        d = dict(d)
        d.pop("contextualized_content", None)
        d["cross_references"] = [CrossReference(**x) for x in d.get("cross_references", [])]
        return cls(**d)


_REQUIRED = object()


@lru_cache(maxsize=1)
def _chunk_defaults() -> tuple[tuple[str, Any], ...]:
    """(field, default) of every :class:`Chunk` field but ``cross_references``; required fields
    and ``metadata`` get ``_REQUIRED`` (always written by :meth:`Chunk.to_row`)."""
    out = []
    own = [f for f in fields(Chunk) if f.name not in PAGE_FIELDS]
    for f in own + [f for f in fields(Chunk) if f.name in PAGE_FIELDS]:  # page fields last, as in Paged._as_dict
        if f.name == "cross_references":
            continue
        if f.name == "metadata" or (f.default is MISSING and f.default_factory is MISSING):
            out.append((f.name, _REQUIRED))
        else:
            out.append((f.name, f.default if f.default is not MISSING else f.default_factory()))
    return tuple(out)


@dataclass
class Record:
    """One structured record from CSV / JSON / JSONL.

    ``id`` is the ``id_field`` value as a string; ``content`` the vector fields joined by
    ``field_separator``; ``metadata`` the kept fields as strings; ``source_file`` the file's
    path relative to the source root; ``line`` its 1-based line (CSV/JSONL) or index (JSON).
    With ``document_field`` set: ``document`` is that field's value (records sharing it, one
    after another, are the chunks of one document), and ``document_title`` / ``parent_chain``
    the structure recovered from that document (docs/architecture.md), which feed the record's context.
    """

    id: str
    content: str
    metadata: dict[str, str]
    source_file: str
    line: int | None = None
    document: str = ""
    document_title: str = ""
    parent_chain: list[str] = field(default_factory=list)


# Scores, as every result reports them (docs/architecture.md; README "Scores"):
SCORE_DOC = {
    "score": "the score the list is ordered by; never increases down a list (the rerank score when a reranker "
    "ran, else fused_score)",
    "fused_score": "weighted Reciprocal Rank Fusion, sum of w / (k + rank) over the modalities that found the hit; "
    "a pinned hit keeps its own (its score is lifted to the next hit's to keep the order)",
    "semantic_score": "cosine similarity of the query and the hit's best window, -1..1 (filled for every returned "
    "hit whenever the query was embedded); the scale of min_similarity_score",
    "keyword_score": "BM25 score (k1 1.2, b 0.75) of the hit for the query; None when BM25 did not retrieve it",
    "rerank_score": "the reranker's score (cross-encoder logit, rerank API relevance)",
}


def reference_line(x: dict) -> str:
    """One followed cross-reference as shown: ``Article 25(6) → doc.md § article-25 (the section holding
    article-25(6), no section of its own)`` — the note when ``x["enclosing"]`` is set."""
    line = f"{one_line(x['text'])} → {one_line(x['target_document'])} § {one_line(x['target_section_id'])}"
    if x.get("enclosing"):
        line += f" (the section holding {one_line(x['target'].rsplit('/', 1)[-1])}, no section of its own)"
    return line


def reference_lines(refs: list[dict]) -> list[str]:
    """Followed cross-references as shown, one line per reference as written: the members of a
    list or range go on one line (``Articles 16, 17 and 18 → doc.md § article-16, article-17,
    article-18``), never the whole text once per member; otherwise :func:`reference_line`."""
    groups: list[list[dict]] = []
    for x in refs:
        if (
            groups
            and groups[-1][0]["text"] == x["text"]
            and groups[-1][0]["target_document"] == x["target_document"]
            and not x.get("enclosing")
            and not groups[-1][0].get("enclosing")
        ):
            groups[-1].append(x)
        else:
            groups.append([x])
    return [
        reference_line(g[0])
        if len(g) == 1
        else f"{g[0]['text']} → {g[0]['target_document']} § "
        + ", ".join(dict.fromkeys(x["target_section_id"] for x in g))
        for g in groups
    ]


def score_line(score: float, fused: float | None, pinned: bool, similarity: float | None, flags: list[str]) -> str:
    """The ``Score:`` line of a hit. A pinned hit placed above better-scored hits shows its own
    fused score and that it is pinned, not the next hit's score it is ordered by."""
    sim = f", similarity {similarity:.2f}" if similarity is not None else ""
    if pinned and fused is not None and fused < score - 1e-9:
        head = f"Score: pinned first (own fused score {fused:.4f}){sim}"
    else:
        head = f"Score: {score:.4f}{sim}"
    return head + (f" ({'; '.join(flags)})" if flags else "")


def pinpoint_line(pin: Pinpoint, content: str) -> str:
    """``Pinpoint: article-17(3)(b), characters 812-905 of the chunk's 2900 ...``: what part of
    the chunk (``content``, counted as answers show it: stripped) a pinpointed hit shows."""
    start, end = pin.offsets_in(content)
    lead = " under the lead-in of its enclosing item" + ("s" if len(pin.lead) > 1 else "") if pin.lead else ""
    return (
        f"Pinpoint: {one_line(pin.section_id)}, characters {start}-{end} of the chunk's {len(content.strip())}, "
        f"shown{lead}; the rest of the chunk is left out"
    )


def _cut_marker(result) -> str:
    if not result.truncated:
        return ""
    return f"\n[… passage cut to {len(result.content)} of {result.content_chars} characters]"


@dataclass
class Pinpoint:
    """The part of a hit's chunk that the query cites: sub-item ``section_id``
    (``article-17(3)(b)`` in the chunk of Article 17, ``5(a)(1)`` in that of section 5) at
    characters ``start``–``end`` (end exclusive) of the hit's ``content``; ``text`` is that span,
    stripped. ``lead`` holds the lead-in of each enclosing unit the chunk holds, outermost first:
    for ``article-17(3)(b)`` paragraph 3's opening line, "3. Paragraphs 1 and 2 shall not apply
    to the extent that processing is necessary:"; for ``3(5)`` under a section that introduces
    its list, "For the purposes of this Act—" (see :func:`docstrata.pinpoint.lead_lines`; empty
    when there is none). Found by :func:`docstrata.pinpoint.locate_pinpoint`."""

    section_id: str
    start: int
    end: int
    text: str
    lead: list[str] = field(default_factory=list)

    def offsets_in(self, content: str) -> tuple[int, int]:
        """``(start, end)`` counted in ``content.strip()``, the chunk text as answers and
        ``*_get_neighbours`` show it (``start``/``end`` count in ``content`` itself)."""
        shift = len(content) - len(content.lstrip())
        return max(0, self.start - shift), max(0, self.end - shift)

    def view(self, content: str, cap: int | None = None) -> tuple[str, str]:
        """The hit as a reader should see it: the ``lead`` lines, then the pinned span, with a
        ``…`` line wherever body text of ``content`` is left out (before, between or after them;
        headings left out are not marked: the hit's location names them). With ``cap``
        (characters) each lead line keeps at most a quarter of it and all of them half (the
        outermost go first), and the span is cut at a word to fit the rest. Returns ``(view,
        span as shown)``."""
        kept = list(range(len(self.lead)))
        shown = list(self.lead)
        budget = cap
        if cap is not None:
            shown = [_cut_words(line, max(40, cap // 4)) for line in self.lead]
            while kept and sum(len(shown[i]) + 1 for i in kept) > cap // 2:
                kept.pop(0)
            budget = cap - sum(len(shown[i]) + 1 for i in kept) - 2 * (len(kept) + 2)  # and the '…' lines
        parts: list[str] = []
        pos = 0
        for i in kept:
            at = content.find(self.lead[i], pos, self.start)
            if at < 0:
                continue
            if _holds_body(content[pos:at]):
                parts.append("…")
            parts.append(shown[i])
            pos = at + len(self.lead[i])
        if _holds_body(content[pos : self.start]):
            parts.append("…")
        text = self.text if budget is None else _cut_words(self.text, max(budget, 40))
        parts.append(text)
        if _holds_body(content[self.end :]):
            parts.append("…")
        return "\n".join(parts), text


def _holds_body(text: str) -> bool:
    """Whether ``text`` has a line that is neither blank nor a Markdown heading."""
    return any(line.strip() and not _HEADING.match(line.strip()) for line in text.splitlines())


_HEADING = re.compile(r"#{1,6}\s")


def _cut_words(text: str, cap: int) -> str:
    """``text``, or its first ``cap`` characters cut at a word with `` …`` after them."""
    if len(text) <= cap or cap < 8:
        return text
    cut = text.rfind(" ", cap // 2, cap - 2)
    return text[: cut if cut > 0 else cap - 2].rstrip() + " …"


@dataclass
class SearchResult(Paged):
    """One document search hit with its citation.

    Scores (see :data:`SCORE_DOC`): ``score`` orders the list (never increases down it);
    ``fused_score`` is the weighted RRF score (docs/architecture.md), a ``pinned`` hit's own (its ``score``
    is lifted to the next hit's, and shown as pinned); ``semantic_score`` the cosine similarity of query and hit; ``keyword_score`` the
    BM25 score; ``*_rank`` the 1-based rank in that modality (``None`` = not retrieved by it).
    ``exact_match`` is true when the exact index matched (a named section, a defined term or a
    quoted phrase); ``pinned`` when the hit was placed first because the query names it.
    ``definitions_context`` maps each defined term used in the query or result to its definition.
    ``cross_references`` lists the references the chunk makes, each ``{"text", "target",
    "target_document", "target_section_id", "resolved"}``: ``target_document`` is a doc_key and
    ``target_section_id`` a section id, so ``get_section(target_document, target_section_id)``
    follows a resolved one; ``resolved`` is false when either is unknown (a document the tool
    does not hold, a section that does not exist).
    ``truncated`` / ``content_chars``: ``content`` was cut to an answer's size budget from
    ``content_chars`` characters. ``id`` is the chunk id (the field records share).
    When the query names a sub-item the chunk holds (``section 5(a)(1)``, ``Art. 17(3)(b)`` in the
    chunk of section 5 / Article 17), ``section_id`` is that item and ``pinpoint`` says where its
    lines are in ``content`` (a :class:`Pinpoint`; ``None`` otherwise): :meth:`format` and the
    answers show that span with the lead-in of its enclosing items, the rest of the chunk left out
    (``content`` stays the whole chunk); its ``definitions_context`` and ``cross_references`` are
    those of the item and its lead-in. ``pinpoint_start`` is ``pinpoint.start``.
    Without a pinpoint, ``passage`` is the sentence of ``content`` that matches the query best
    (:func:`~docstrata.passage.locate_passage`): ``{"section_id", "start", "end"}``, characters of
    ``content`` stripped (as answers and ``*_get_neighbours`` show it); ``section_id`` is then the
    deepest section holding it (``2.2`` inside the chunk of 2). ``answer_passage`` (same form) is
    the minimal passage that answers: from the first to the last sentence that matches nearly as
    well as the best, or the section a matching heading opens (:func:`~docstrata.passage.minimal_passage`),
    which passage answers (``--passage``) show instead of the chunk.
    ``cited_by`` lists the first few sections that cite ``section_id`` (or a part of it), each
    ``{"document", "section_id", "references"}`` (the reference texts as written there), and
    ``cited_by_total`` how many do in all (:mod:`docstrata.citers`; ``*_cited_by`` pages through them).
    ``page_start`` … ``physical_page_end``: the pages of a paged source the
    chunk stands on (:class:`PageSpan`), ``None`` otherwise; :attr:`pages` cites them ("pp. 12–13").
    """

    chunk_id: str
    content: str
    fused_score: float
    source_path: str
    parent_chain: list[str]
    section_id: str
    semantic_score: float | None = None
    keyword_score: float | None = None
    exact_match: bool = False
    semantic_rank: int | None = None
    keyword_rank: int | None = None
    exact_rank: int | None = None
    rerank_score: float | None = None
    chunk_type: str = "content"
    document_title: str = ""
    definitions_context: dict[str, str] = field(default_factory=dict)
    contextualized_content: str = ""
    cross_references: list[dict[str, Any]] = field(default_factory=list)
    score: float | None = None
    pinned: bool = False
    truncated: bool = False
    content_chars: int = 0
    pinpoint: Pinpoint | None = None  # the sub-item of the chunk the query cites, when it cites one
    passage: dict[str, Any] | None = None  # the best-matching sentence: {section_id, start, end} in content
    # the minimal passage answering the query (passage.minimal_passage): {section_id, start, end} in content
    answer_passage: dict[str, Any] | None = None
    is_passage: bool = False  # a passage search's result: format() shows its passage, content stays the chunk
    cited_by: list[dict[str, Any]] = field(default_factory=list)  # the first sections citing section_id
    cited_by_total: int | None = None  # how many sections cite section_id (None: none, or not looked up)

    def __post_init__(self) -> None:
        if self.score is None:
            self.score = self.fused_score
        if not self.content_chars:
            self.content_chars = len(self.content)

    @property
    def id(self) -> str:
        """The chunk id (``doc_key#ordinal``), the id the other tools take."""
        return self.chunk_id

    @property
    def location(self) -> str:
        """The section path as one line, outermost first: ``"Part II > 4. Fees > 4.2 Late payment"``."""
        return " > ".join(self.parent_chain)

    @property
    def pinpoint_start(self) -> int | None:
        """Where the lines of the sub-item the query cites start in ``content`` (``None`` without one)."""
        return self.pinpoint.start if self.pinpoint is not None else None

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values, plus ``id`` and ``location``."""
        d = self._as_dict()
        d["id"] = self.chunk_id
        d["location"] = self.location
        return d

    def format(self, definitions: bool = True, passage: str | None = None) -> str:
        """Human/agent-readable text: score, source, location, section, content, definitions
        (``definitions=False``: only the terms, when the answer lists the definitions once).
        ``passage`` is shown instead of the content (an answer's excerpt); without it a passage
        search's result (``is_passage``) shows its passage, a pinpointed hit :meth:`Pinpoint.view`,
        and a ``Pinpoint:`` line says which characters of the chunk that is."""
        flags = [f for f, on in (("pinned: the query names it", self.pinned), ("exact match", self.exact_match)) if on]
        pin = self.pinpoint
        if passage is None and self.is_passage and self.passage and pin is None:
            passage = self.content.strip()[self.passage["start"] : self.passage["end"]]
        if passage is None:
            passage = pin.view(self.content)[0] if pin is not None else self.content.strip()
        lines = [
            score_line(self.score, self.fused_score, self.pinned, self.semantic_score, flags),
            f"Source: {one_line(self.source_path)}" + (f", {self.pages}" if self.pages else ""),
            f"Location: {one_line(self.location)}",
            f"Section: {one_line(self.section_id)}",
            f"Chunk: {one_line(self.chunk_id)}",
            *([pinpoint_line(pin, self.content)] if pin is not None else []),
            "",
            passage + _cut_marker(self),
        ]
        if self.definitions_context and definitions:
            lines += ["", "Relevant definitions:"]
            lines += [f"- {one_line(t)}: {one_line(d)}" for t, d in self.definitions_context.items()]
        elif self.definitions_context:
            lines += [
                "",
                "Defined terms used (see Definitions below): " + ", ".join(map(one_line, self.definitions_context)),
            ]
        followed = [x for x in self.cross_references if x.get("resolved")]
        if followed:
            lines += ["", "References: " + "; ".join(reference_lines(followed[:8]))]
        noted = list(
            dict.fromkeys(
                f"{one_line(x['text'])}: {one_line(x['note'])}" for x in self.cross_references if x.get("note")
            )
        )
        if noted:
            lines += ["", "Unresolved: " + "; ".join(noted[:4])]
        if self.cited_by_total:
            lines += [
                "",
                f"Cited by ({self.cited_by_total}): "
                + "; ".join(
                    f"{c['document']} § {c['section_id']} ({', '.join(c['references'][:2])})" for c in self.cited_by
                )
                + (" …" if self.cited_by_total > len(self.cited_by) else ""),
            ]
        return "\n".join(lines)


@dataclass
class RecordResult:
    """One record hit: the record's ``id``, ``content``, ``score``, ``source_path``, ``metadata``.

    ``score`` orders a result list (never increases down it) and is ``None`` for a record fetched
    by id (:meth:`~docstrata.tools.VectorstoreTool.get_record`); the other scores mean what they
    mean on :class:`SearchResult`. ``source_file`` is the old name of ``source_path`` (kept).
    ``next_cursor`` is set when ``content`` was cut to a size budget (pass it back to read on).
    """

    id: str
    content: str
    score: float | None
    source_file: str
    metadata: dict[str, str]
    semantic_score: float | None = None
    keyword_score: float | None = None
    exact_match: bool = False
    fused_score: float | None = None
    rerank_score: float | None = None
    pinned: bool = False
    truncated: bool = False
    content_chars: int = 0
    next_cursor: str | None = None

    def __post_init__(self) -> None:
        if self.fused_score is None:
            self.fused_score = self.score
        if not self.content_chars:
            self.content_chars = len(self.content)

    @property
    def source_path(self) -> str:
        """The records file the record was read from (the name hierarchical results use)."""
        return self.source_file

    @property
    def chunk_id(self) -> str:
        """The record id (the name hierarchical results use)."""
        return self.id

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values, plus ``source_path``."""
        d = asdict(self)
        d["source_path"] = self.source_file
        return d

    def format(self) -> str:
        """Human/agent-readable text: the score line (when searched), id, source file, content and
        metadata fields."""
        lines = []
        if self.score is not None:
            flags = [
                f for f, on in (("pinned: the query names it", self.pinned), ("exact match", self.exact_match)) if on
            ]
            lines.append(score_line(self.score, self.fused_score, self.pinned, self.semantic_score, flags))
        lines += [
            f"Id: {one_line(self.id)}",
            f"Source: {one_line(self.source_file)}",
            "",
            self.content.strip() + _cut_marker(self),
        ]
        if self.metadata:
            lines += ["", "Metadata:"] + [f"- {one_line(k)}: {one_line(v)}" for k, v in self.metadata.items()]
        if self.next_cursor:
            lines += ["", f"[cut: call again with cursor='{self.next_cursor}' for the rest]"]
        return "\n".join(lines)


@dataclass
class Confidence:
    """How well an answer matched, for an agent to act on (README "Confidence").

    ``level``: ``"high"``, ``"medium"`` or ``"low"`` by ``probability``, the chance that the
    searched documents hold the answer as a model fitted on data reads it from the search's
    ``signals`` (:mod:`docstrata.confidence`: best cosine less the model's floor, its gap to the 5th,
    the share of the query's idf weight a first hit holds, the share in words no document holds,
    an exact match, keyword and semantic ranking agreeing on the first hit; fitted by
    ``bench/confidence_fit.py`` into ``confidence_fit.json``, cut-offs chosen so that ``"high"`` is
    rarely given to a question the documents cannot answer); ``"low"`` means: probably not an
    answer here, look elsewhere. ``"none"``: no hits, or a query without content words. For an
    embedding model with no fit (a hosted one) ``probability`` is ``None`` and the level is the
    rule: ``"high"`` for an exact match, or best similarity ≥ the model's floor
    (:data:`LOW_SIMILARITY` by default) with a keyword hit, ``"medium"`` for one of the two,
    ``"low"`` for neither. ``best_similarity`` is the best cosine among the hits (``None`` when
    the query was not embedded); ``keyword_hits`` / ``exact_hits`` count hits BM25 / the exact
    index retrieved; ``content_words`` is false for a query of stopwords only. ``reason`` says it
    in a sentence.

    A query that cites a section (``Section 3``, ``Article 17``) is judged by what the citation
    names in the searched scope: one section → its hit is pinned first and the level is
    ``"high"``; several (the same number in several chapters or documents) → ``"medium"``, and
    ``ambiguous`` lists them, one ``{cited, document, section_id, title}`` each (ask again naming
    the chapter or document, or call get_section with one of the ids); none → at most
    ``"medium"`` (``"low"`` for a query that is only the citation), and ``unresolved`` lists the
    citations no section answers to (``["Section 9"]``).

    ``missing_words``: the query's words, as written, that no searched document holds (``["UDP",
    "QUIC"]`` asked of the WebSocket RFC): the share of the query they weigh is the ``absent``
    signal, and the reason names them. A question on the documents' own topic that they do not
    answer can still read ``"high"`` (its best passages are close in meaning: the fit tells such
    questions from answerable ones poorly, docs/benchmarks-log.md "Same-field unanswerable
    questions"); these words are what to check.
    """

    level: str
    reason: str
    best_similarity: float | None = None
    keyword_hits: int = 0
    exact_hits: int = 0
    content_words: bool = True
    ambiguous: list[dict[str, str]] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    probability: float | None = None
    signals: dict[str, Any] = field(default_factory=dict)
    missing_words: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values."""
        return asdict(self)


# Below this cosine a hit is a nearest neighbour, not a match, for a model with no fitted floor of
# its own; the bundled models' floors are fitted by bench/similarity_floor.py into
# similarity_floors.json (embed.similarity_floor; docs/benchmarks.md, "Similarity floors").
LOW_SIMILARITY = 0.30


class SearchResults(list):
    """A list of :class:`SearchResult` or :class:`RecordResult`, best first, with what the whole
    answer says: ``confidence`` (:class:`Confidence`), ``definitions`` (each definition any hit
    uses, once) and ``notices`` (e.g. a threshold or filter that removed hits)."""

    def __init__(
        self,
        results=(),
        confidence: Confidence | None = None,
        definitions: list[DefinitionEntry] | None = None,
        notices: list[str] | None = None,
    ):
        super().__init__(results)
        self.confidence = confidence or Confidence("none", "no search was run")
        self.definitions = definitions or []
        self.notices = notices or []


@dataclass
class SectionPage(Paged):
    """One page of a section's (or a whole document's) text, within a size budget.

    ``content`` is this page; ``offset`` where it starts in the section's full text of
    ``total_chars`` characters; ``next_cursor`` (``None`` on the last page) is passed back to
    read the next page; ``chunk_ids`` the chunks this page draws from; ``chunks`` those chunks.
    Iterating a page yields its chunks (so code written for the old ``list[Chunk]`` still runs).
    ``notice`` is non-empty when the asked pinpoint (``Section 2.1(c)``) is no section of its own
    and the page shows the most specific section that holds it. ``page_start`` …
    ``physical_page_end``: the pages of a paged source this text stands on (of the chunks it draws
    from; :class:`PageSpan`), ``None`` otherwise.
    """

    document: str
    section_id: str
    title: str
    location: str
    content: str
    chunk_ids: list[str]
    offset: int = 0
    total_chars: int = 0
    next_cursor: str | None = None
    chunks: list[Chunk] = field(default_factory=list, repr=False, compare=False)
    notice: str = ""  # set when a cited pinpoint fell back to the section holding it (also atop ``content``)

    @property
    def truncated(self) -> bool:
        """Whether this page is part of a longer section: a next page exists or this one starts past 0."""
        return self.next_cursor is not None or self.offset > 0

    def __iter__(self):
        return iter(self.chunks)

    def __len__(self) -> int:
        return len(self.chunks)

    def __getitem__(self, i):
        return self.chunks[i]

    def to_dict(self) -> dict[str, Any]:
        """Every field but the chunks as JSON-ready values, plus ``truncated``."""
        d = self._as_dict()
        d.pop("chunks")
        d["truncated"] = self.truncated
        return d

    def format(self, cursor_hint: str = "") -> str:
        """Human/agent-readable text: source, location, section, the character range when paged, the
        text; ``cursor_hint`` says how to ask for the next page."""
        head = [
            f"Source: {one_line(self.document)}" + (f", {self.pages}" if self.pages else ""),
            f"Location: {one_line(self.location)}",
            f"Section: {one_line(self.section_id or '(whole document)')}",
        ]
        end = self.offset + len(self.content)
        if self.truncated:
            head.append(f"Characters {self.offset + 1}-{end} of {self.total_chars}")
        text = "\n".join(head) + "\n\n" + self.content
        if self.next_cursor:
            text += (
                f"\n\n[cut: {self.total_chars - end} more characters; call again with "
                f"cursor='{self.next_cursor}'{cursor_hint} to read on]"
            )
        return text


@dataclass
class DocumentEntry:
    """The spec's ``HierarchicalDocument`` entity: what ``*_list_documents`` returns per document.

    ``summary`` is the first paragraph of body text (or, without one, the top-level section
    titles), never LLM-written; ``language`` an ISO 639-1 code detected from the text ("" when
    unknown); ``file_type`` the extension without the dot; ``top_sections`` the
    ``{"section_id", "title"}`` of the top-level sections; ``total_chunks`` the chunks (records)
    indexed; ``ingested_at`` ISO 8601 UTC; ``warnings`` what ingest noted about the document;
    ``names`` what a question may call it (title, short title, parties, file stem, acronyms:
    :func:`~docstrata.docnames.document_names`; empty for record files and older indexes).
    """

    doc_key: str
    title: str
    summary: str = ""
    language: str = ""
    file_type: str = ""
    section_count: int = 0
    top_sections: list[dict[str, str]] = field(default_factory=list)
    total_chunks: int = 0
    ingested_at: str = ""
    warnings: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "DocumentEntry":
        """A :class:`DocumentEntry` from :meth:`to_dict`'s output; unknown keys (a newer index's) are ignored."""
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in known})

    def format(self) -> str:
        """Human/agent-readable text: document key, title, type, language, size and ingest time."""
        lines = [f"Document: {one_line(self.doc_key)}", f"Title: {one_line(self.title)}"]
        facts = [
            f"type {one_line(self.file_type)}" if self.file_type else "",
            f"language {one_line(self.language)}" if self.language else "",
            f"{self.section_count} sections" if self.section_count else "",
            f"{self.total_chunks} chunks",
            f"ingested {self.ingested_at}" if self.ingested_at else "",
        ]
        lines.append(", ".join(f for f in facts if f))
        if self.top_sections:
            lines.append(
                "Top-level sections: "
                + "; ".join(section_label(s["section_id"], s["title"]) for s in self.top_sections)
            )
        if self.summary:
            lines.append(f"Summary: {one_line(self.summary)}")
        return "\n".join(lines)


def section_label(section_id: str, title: str) -> str:
    """``section_id`` and ``title`` as one label, the number once: ``("1", "1 Safety")`` →
    ``"1 Safety"`` (a plain-text heading's title keeps its number), ``("2.1", "Section 2.1 Purchase
    Orders")`` → ``"2.1 Section 2.1 Purchase Orders"``, ``("4", "Scope")`` → ``"4 Scope"``."""
    title, section_id = one_line(title.strip()), one_line(section_id)
    if not title or title == section_id:
        return section_id
    head = title.split(maxsplit=1)[0].rstrip(".):")
    return title if head == section_id else f"{section_id} {title}"


@dataclass
class SkippedFile:
    """A file (or record line) that was not indexed, and why."""

    path: str
    reason: str


@dataclass
class IngestReport:
    """What one ingest did. Times in seconds."""

    tool: str
    files_total: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    chunks: int = 0  # chunks written by this run
    records: int = 0  # records written by this run
    definitions: int = 0  # definitions written by this run
    chunks_total: int = 0  # chunks (or records) in the index after this run
    embedded: int = 0  # texts actually sent to the embedding model (cache misses)
    elapsed_s: float = 0.0
    skipped: list[SkippedFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    llm: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Whether any file was skipped (``skipped`` names each with its reason)."""
        return bool(self.skipped)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values."""
        return asdict(self)
