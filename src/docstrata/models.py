"""Typed data passed between pipeline stages.

Flow: ``sources`` → :class:`SourceFile` → ``convert`` → :class:`Document` → ``structure`` →
:class:`DocumentTree` (:class:`Section` list, :class:`DefinitionEntry`, :class:`CrossReference`) →
``chunking`` → :class:`Chunk` → ``context`` / ``embed`` → ``store``. Structured data: ``records`` →
:class:`Record`. Search returns :class:`SearchResult` (documents) or :class:`RecordResult` (records).
Every stage takes and returns these; none reaches into another stage's helpers.
"""

from __future__ import annotations

import hashlib
from dataclasses import MISSING, asdict, dataclass, field, fields
from functools import lru_cache
from typing import Any, Literal

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
    in-page links ``[text](#id)``); both empty for formats without such markup. ``list_items``
    says whether Markdown ordered-list items may become sections: ``False`` for HTML whose lists
    the browser numbers (its sections are its headings; its ``<ol>`` steps are body text).
    ``heading_levels`` says the Markdown heading levels are the source markup's nesting (legislation
    XML): the parser nests headings by level alone, not by container ranks (Title > Division).
    """

    doc_key: str
    title: str
    markdown: str
    format: str  # file extension without the dot: "md", "pdf", ...
    warnings: list[str] = field(default_factory=list)
    marked_definitions: list[MarkedDefinition] = field(default_factory=list)
    anchors: dict[str, str] = field(default_factory=dict)
    list_items: bool = True  # Markdown ordered-list items may be sections (False: HTML whose lists are generated)
    heading_levels: bool = False  # heading levels are the markup's nesting (True: legislation XML)


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
    for f in fields(Chunk):
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


# Scores, as every result reports them (DESIGN §7; README "Scores"):
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
    line = f"{x['text']} → {x['target_document']} § {x['target_section_id']}"
    if x.get("enclosing"):
        line += f" (the section holding {x['target'].rsplit('/', 1)[-1]}, no section of its own)"
    return line


def score_line(score: float, fused: float | None, pinned: bool, similarity: float | None, flags: list[str]) -> str:
    """The ``Score:`` line of a hit. A pinned hit placed above better-scored hits shows its own
    fused score and that it is pinned, not the next hit's score it is ordered by."""
    sim = f", similarity {similarity:.2f}" if similarity is not None else ""
    if pinned and fused is not None and fused < score - 1e-9:
        head = f"Score: pinned first (own fused score {fused:.4f}){sim}"
    else:
        head = f"Score: {score:.4f}{sim}"
    return head + (f" ({'; '.join(flags)})" if flags else "")


def _cut_marker(result) -> str:
    if not result.truncated:
        return ""
    return f"\n[… passage cut to {len(result.content)} of {result.content_chars} characters]"


@dataclass
class SearchResult:
    """One document search hit with its citation.

    Scores (see :data:`SCORE_DOC`): ``score`` orders the list (never increases down it);
    ``fused_score`` is the weighted RRF score (DESIGN §7), a ``pinned`` hit's own (its ``score``
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
    chunk of section 5 / Article 17), ``section_id`` is that item and ``pinpoint_start`` the
    character offset in ``content`` where its lines start (``None`` otherwise); an excerpt cut to a
    budget starts there.
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
    pinpoint_start: int | None = None  # where the lines of the item the query names start in content

    def __post_init__(self) -> None:
        if self.score is None:
            self.score = self.fused_score
        if not self.content_chars:
            self.content_chars = len(self.content)

    @property
    def id(self) -> str:
        return self.chunk_id

    @property
    def location(self) -> str:
        return " > ".join(self.parent_chain)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["id"] = self.chunk_id
        d["location"] = self.location
        return d

    def format(self, definitions: bool = True) -> str:
        """Human/agent-readable text: score, source, location, section, content, definitions
        (``definitions=False``: only the terms, when the answer lists the definitions once)."""
        flags = [f for f, on in (("pinned: the query names it", self.pinned), ("exact match", self.exact_match)) if on]
        lines = [
            score_line(self.score, self.fused_score, self.pinned, self.semantic_score, flags),
            f"Source: {self.source_path}",
            f"Location: {self.location}",
            f"Section: {self.section_id}",
            f"Chunk: {self.chunk_id}",
            "",
            self.content.strip() + _cut_marker(self),
        ]
        if self.definitions_context and definitions:
            lines += ["", "Relevant definitions:"]
            lines += [f"- {t}: {d}" for t, d in self.definitions_context.items()]
        elif self.definitions_context:
            lines += ["", "Defined terms used (see Definitions below): " + ", ".join(self.definitions_context)]
        followed = [x for x in self.cross_references if x.get("resolved")]
        if followed:
            lines += ["", "References: " + "; ".join(
                reference_line(x) for x in followed[:8])]
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
        return self.source_file

    @property
    def chunk_id(self) -> str:
        return self.id

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["source_path"] = self.source_file
        return d

    def format(self) -> str:
        lines = []
        if self.score is not None:
            flags = [f for f, on in (("pinned: the query names it", self.pinned), ("exact match", self.exact_match)) if on]
            lines.append(score_line(self.score, self.fused_score, self.pinned, self.semantic_score, flags))
        lines += [f"Id: {self.id}", f"Source: {self.source_file}", "", self.content.strip() + _cut_marker(self)]
        if self.metadata:
            lines += ["", "Metadata:"] + [f"- {k}: {v}" for k, v in self.metadata.items()]
        if self.next_cursor:
            lines += ["", f"[cut: call again with cursor='{self.next_cursor}' for the rest]"]
        return "\n".join(lines)


@dataclass
class Confidence:
    """How well an answer matched, for an agent to act on (README "Confidence").

    ``level``: ``"high"`` (an exact match, or best similarity ≥ :data:`LOW_SIMILARITY` with a
    keyword hit), ``"medium"`` (one of the two), ``"low"`` (neither: nearest neighbours only),
    ``"none"`` (no hits, or a query without content words). ``best_similarity`` is the best
    cosine among the hits (``None`` when the query was not embedded); ``keyword_hits`` /
    ``exact_hits`` count hits BM25 / the exact index retrieved; ``content_words`` is false for a
    query of stopwords only. ``reason`` says it in a sentence.
    """

    level: str
    reason: str
    best_similarity: float | None = None
    keyword_hits: int = 0
    exact_hits: int = 0
    content_words: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# Below this cosine a hit is a nearest neighbour, not a match, for all-MiniLM-L6-v2 (on the
# shared documents, relevant passages score 0.35-0.75 and unrelated ones 0.0-0.25); another
# embedding model may need another level (docs/benchmarks.md, "Answers").
LOW_SIMILARITY = 0.30


class SearchResults(list):
    """A list of :class:`SearchResult` or :class:`RecordResult`, best first, with what the whole
    answer says: ``confidence`` (:class:`Confidence`), ``definitions`` (each definition any hit
    uses, once) and ``notices`` (e.g. a threshold or filter that removed hits)."""

    def __init__(self, results=(), confidence: Confidence | None = None,
                 definitions: list[DefinitionEntry] | None = None, notices: list[str] | None = None):
        super().__init__(results)
        self.confidence = confidence or Confidence("none", "no search was run")
        self.definitions = definitions or []
        self.notices = notices or []


@dataclass
class SectionPage:
    """One page of a section's (or a whole document's) text, within a size budget.

    ``content`` is this page; ``offset`` where it starts in the section's full text of
    ``total_chars`` characters; ``next_cursor`` (``None`` on the last page) is passed back to
    read the next page; ``chunk_ids`` the chunks this page draws from; ``chunks`` those chunks.
    Iterating a page yields its chunks (so code written for the old ``list[Chunk]`` still runs).
    ``notice`` is non-empty when the asked pinpoint (``Section 2.1(c)``) is no section of its own
    and the page shows the most specific section that holds it.
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
        return self.next_cursor is not None or self.offset > 0

    def __iter__(self):
        return iter(self.chunks)

    def __len__(self) -> int:
        return len(self.chunks)

    def __getitem__(self, i):
        return self.chunks[i]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("chunks")
        d["truncated"] = self.truncated
        return d

    def format(self, cursor_hint: str = "") -> str:
        head = [f"Source: {self.document}", f"Location: {self.location}", f"Section: {self.section_id or '(whole document)'}"]
        end = self.offset + len(self.content)
        if self.truncated:
            head.append(f"Characters {self.offset + 1}-{end} of {self.total_chars}")
        text = "\n".join(head) + "\n\n" + self.content
        if self.next_cursor:
            text += (f"\n\n[cut: {self.total_chars - end} more characters; call again with "
                     f"cursor='{self.next_cursor}'{cursor_hint} to read on]")
        return text


@dataclass
class DocumentEntry:
    """The spec's ``HierarchicalDocument`` entity: what ``*_list_documents`` returns per document.

    ``summary`` is the first paragraph of body text (or, without one, the top-level section
    titles), never LLM-written; ``language`` an ISO 639-1 code detected from the text ("" when
    unknown); ``file_type`` the extension without the dot; ``top_sections`` the
    ``{"section_id", "title"}`` of the top-level sections; ``total_chunks`` the chunks (records)
    indexed; ``ingested_at`` ISO 8601 UTC; ``warnings`` what ingest noted about the document.
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "DocumentEntry":
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in known})

    def format(self) -> str:
        lines = [f"Document: {self.doc_key}", f"Title: {self.title}"]
        facts = [f"type {self.file_type}" if self.file_type else "", f"language {self.language}" if self.language else "",
                 f"{self.section_count} sections" if self.section_count else "", f"{self.total_chunks} chunks",
                 f"ingested {self.ingested_at}" if self.ingested_at else ""]
        lines.append(", ".join(f for f in facts if f))
        if self.top_sections:
            lines.append("Top-level sections: " + "; ".join(
                section_label(s["section_id"], s["title"]) for s in self.top_sections))
        if self.summary:
            lines.append(f"Summary: {self.summary}")
        return "\n".join(lines)


def section_label(section_id: str, title: str) -> str:
    """``section_id`` and ``title`` as one label, the number once: ``("1", "1 Safety")`` →
    ``"1 Safety"`` (a plain-text heading's title keeps its number), ``("2.1", "Section 2.1 Purchase
    Orders")`` → ``"2.1 Section 2.1 Purchase Orders"``, ``("4", "Scope")`` → ``"4 Scope"``."""
    title = title.strip()
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
        return bool(self.skipped)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
