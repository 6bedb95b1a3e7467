"""Typed data passed between pipeline stages.

Flow: ``sources`` → :class:`SourceFile` → ``convert`` → :class:`Document` → ``structure`` →
:class:`DocumentTree` (:class:`Section` list, :class:`DefinitionEntry`, :class:`CrossReference`) →
``chunking`` → :class:`Chunk` → ``context`` / ``embed`` → ``store``. Structured data: ``records`` →
:class:`Record`. Search returns :class:`SearchResult` (documents) or :class:`RecordResult` (records).
Every stage takes and returns these; none reaches into another stage's helpers.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ChunkType = Literal["definition", "requirement", "content", "header"]
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
    in-page links ``[text](#id)``); both empty for formats without such markup.
    """

    doc_key: str
    title: str
    markdown: str
    format: str  # file extension without the dot: "md", "pdf", ...
    warnings: list[str] = field(default_factory=list)
    marked_definitions: list[MarkedDefinition] = field(default_factory=list)
    anchors: dict[str, str] = field(default_factory=dict)


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


@dataclass
class DefinitionEntry:
    """A defined term: ``term`` as written, its ``definition`` text, where it is defined."""

    term: str
    definition: str
    doc_key: str
    section_id: str | None = None
    chunk_id: str | None = None


@dataclass
class CrossReference:
    """A reference from one passage to a section, e.g. ``Section 4.2`` or ``see Article 5``.

    ``text`` is the matched text; ``target`` the referenced number as normalised
    (``4.2``, ``article-5``); ``section_id`` the resolved section in the same document, or
    ``None`` when no such section exists; ``source_section_id`` where the reference stands.
    ``document`` is the other document the reference names, as written (``GPL``, ``RFC 5246``,
    ``GDPR``), ``None`` for a reference into its own document; ``target_document`` the doc_key
    it resolved to (its own document's key for an internal reference once resolved, the named
    document's when the tool holds it), ``None`` while unresolved.
    """

    text: str
    target: str
    section_id: str | None = None
    source_section_id: str | None = None
    document: str | None = None
    target_document: str | None = None

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

    def section(self, section_id: str) -> Section | None:
        """The section with ``section_id``, or ``None``."""
        for s in self.sections:
            if s.section_id == section_id:
                return s
        return None


@dataclass
class Chunk:
    """A retrievable piece of a document.

    ``chunk_id`` is ``"{doc_key}#{ordinal}"``. ``content`` is the text shown to users;
    ``context`` the structural or LLM-written context; ``contextualized_content`` =
    ``context + "\\n\\n" + content`` is what BM25 and the embedder see (DESIGN §6).
    ``token_count`` counts ``content`` with the embedding model's tokenizer.
    ``definitions`` lists terms defined in this chunk; ``cross_references`` the references
    it makes; ``aliases`` the exact-match keys of its section (first chunk of a section only
    carries them at rank 0 in the exact index).
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
        return f"{self.context}\n\n{self.content}" if self.context else self.content

    @property
    def content_sha256(self) -> str:
        return sha256_text(self.content)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["contextualized_content"] = self.contextualized_content
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Chunk":
        d = dict(d)
        d.pop("contextualized_content", None)
        d["cross_references"] = [CrossReference(**x) for x in d.get("cross_references", [])]
        return cls(**d)


@dataclass
class Record:
    """One structured record from CSV / JSON / JSONL.

    ``id`` is the ``id_field`` value as a string; ``content`` the vector fields joined by
    ``field_separator``; ``metadata`` the kept fields as strings; ``source_file`` the file's
    path relative to the source root; ``line`` its 1-based line (CSV/JSONL) or index (JSON).
    With ``document_field`` set: ``document`` is that field's value (records sharing it, one
    after another, are the chunks of one document), and ``document_title`` / ``parent_chain``
    the structure recovered from that document (DESIGN §6), which feed the record's context.
    """

    id: str
    content: str
    metadata: dict[str, str]
    source_file: str
    line: int | None = None
    document: str = ""
    document_title: str = ""
    parent_chain: list[str] = field(default_factory=list)


@dataclass
class SearchResult:
    """One document search hit with its citation.

    Scores: ``fused_score`` is the weighted RRF score (DESIGN §7); ``semantic_score`` the
    cosine similarity, ``keyword_score`` the BM25 score; ``*_rank`` the 1-based rank in
    that modality (``None`` = not retrieved by it). ``exact_match`` is true when the exact
    index matched (a named section, a defined term or a quoted phrase).
    ``definitions_context`` maps each defined term used in the query or result to its definition.
    ``cross_references`` lists the references the chunk makes, each ``{"text", "target",
    "target_document", "target_section_id", "resolved"}``: ``target_document`` is a doc_key and
    ``target_section_id`` a section id, so ``get_section(target_document, target_section_id)``
    follows a resolved one; ``resolved`` is false when either is unknown (a document the tool
    does not hold, a section that does not exist).
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

    @property
    def location(self) -> str:
        return " > ".join(self.parent_chain)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["location"] = self.location
        return d

    def format(self) -> str:
        """Human/agent-readable text: score, source, location, section, content, definitions."""
        lines = [
            f"Score: {self.fused_score:.4f}" + (" (exact match)" if self.exact_match else ""),
            f"Source: {self.source_path}",
            f"Location: {self.location}",
            f"Section: {self.section_id}",
            "",
            self.content.strip(),
        ]
        if self.definitions_context:
            lines += ["", "Relevant definitions:"]
            lines += [f"- {t}: {d}" for t, d in self.definitions_context.items()]
        followed = [x for x in self.cross_references if x.get("resolved")]
        if followed:
            lines += ["", "References: " + "; ".join(
                f"{x['text']} → {x['target_document']} § {x['target_section_id']}" for x in followed[:8])]
        return "\n".join(lines)


@dataclass
class RecordResult:
    """One record search hit: the record's ``id``, ``content``, fused ``score``, ``source_file``, ``metadata``."""

    id: str
    content: str
    score: float
    source_file: str
    metadata: dict[str, str]
    semantic_score: float | None = None
    keyword_score: float | None = None
    exact_match: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def format(self) -> str:
        lines = [f"Score: {self.score:.4f}" + (" (exact match)" if self.exact_match else ""),
                 f"Id: {self.id}", f"Source: {self.source_file}", "", self.content.strip()]
        if self.metadata:
            lines += ["", "Metadata:"] + [f"- {k}: {v}" for k, v in self.metadata.items()]
        return "\n".join(lines)


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
        return bool(self.skipped)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
