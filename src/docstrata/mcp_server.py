"""MCP server over the tools of one ``agent.yaml`` (issue 7), on the official ``mcp`` SDK (2.x ``MCPServer``).

Tools exposed, per configured tool ``<name>``:

- ``hierarchical_document``: ``<name>_search(query, top_k?, mode?, document?, section?,
  min_similarity_score?, min_fused_score?, min_relative_score?, max_chars?, span?, passage?)``, ``<name>_get_section(document,
  section_id?, max_chars?, cursor?)``, ``<name>_get_neighbours(chunk_id, before?, after?, max_chars?)``,
  ``<name>_get_definition(term, document?)``, ``<name>_list_documents(offset?, limit?)``;
- ``vectorstore``: ``<name>_search(query, top_k?, mode?, document?, filters?, min_similarity_score?,
  min_fused_score?, max_chars?)``, ``<name>_get_record(id, max_chars?, cursor?)``, ``<name>_list_documents``.

Each call answers with text *and* structured content that matches the tool's published
``outputSchema``, both within a size budget (:mod:`docstrata.answers`): a search's ``max_chars``
is the size of the answer, each form (it lists each definition once and cuts long passages to
fit); a page tool's (``get_section``, ``get_record``, ``get_neighbours``) is the characters of
text the page carries, its citation and cursor on top, at most :data:`PAGE_ENVELOPE_CHARS` more
per form (sections and records come in pages with a cursor). Bad arguments (``top_k`` outside 1–100, an
empty query, an unknown section or document) come back as tool errors (``isError: true``),
never as crashes. Paths the agent sees are ``doc_key``s, relative to the tool's source; error
text is scrubbed of absolute paths.

Loading: :func:`serve` opens every tool's index — and ingests it if missing or stale, with
progress lines on stderr — before it accepts a connection (:func:`preload`), whatever
``defer_loading`` says: a first call never waits silently on an ingest. A server built with
:func:`build_server` alone opens a tool on its first call, with ``notifications/progress`` sent to
the caller; concurrent first calls wait on the tool's lock and ingest once.

stdout carries protocol messages only: while serving stdio the SDK points fd 1 at stderr (so a
library's ``print`` lands in the log), and preloading runs with fd 1 and ``sys.stdout`` pointed
at stderr too. Logs go to stderr.
"""

import contextlib
import difflib
import hmac
import json
import logging
import os
import re
import sys
import uuid
from pathlib import Path
from typing import Annotated, Any

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer

from . import __version__
from .config import AgentConfig, load_config
from .errors import ConfigError, DocstrataError, StoreError
from .arg_limits import MAX_NAME_CHARS, MAX_QUERY_CHARS, MAX_TERM_CHARS
from .escaping import escape_terminal, one_line
from .redact import install_log_redaction, redact, register_secret, short
from . import answers
from .models import PAGE_FIELDS, SearchMode, page_fields
from .tools import HierarchicalDocumentTool, Toolset, VectorstoreTool

log = logging.getLogger("docstrata.mcp")

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_RESULT_SEPARATOR = "\n\n---\n\n"
MAX_ERROR_CHARS = 500  # an error never echoes more than this (arguments appear as short prefixes)


# --------------------------------------------------------------------------- output schemas
class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore")


class CrossReferenceHit(_Out):
    """A reference the passage makes; follow a resolved one with get_section(target_document, target_section_id)."""

    text: str
    target: str = ""
    target_document: str | None = None
    target_section_id: str | None = None
    resolved: bool = False
    enclosing: bool | None = Field(
        default=None,
        description="True when the pinpoint (25(6)) is no section of "
        "its own: target_section_id is the section holding it",
    )
    note: str | None = Field(
        default=None,
        description="Why an unresolved reference names no document: a kind word alone ('the Agreement') "
        "where several documents held are of that kind",
    )


class PassageOut(_Out):
    """Where the hit's best-matching sentence is (in the hit's section_id, the deepest section holding it)."""

    start: int = Field(description="Its first character in the whole chunk's text (as *_get_neighbours shows it)")
    end: int = Field(description="Where it ends (exclusive)")


class AnswerPassageOut(_Out):
    """The minimal passage answering the query: from its first to its last sentence that matches
    nearly as well as the best, or the section a matching heading opens."""

    section_id: str = Field(description="The deepest section holding its start")
    start: int = Field(description="Its first character in the whole chunk's text (as *_get_neighbours shows it)")
    end: int = Field(description="Where it ends (exclusive)")


class CitingSectionRef(_Out):
    """A section that cites the hit's section; read all of them with *_cited_by."""

    document: str
    section_id: str
    references: list[str] = Field(
        default_factory=list, description="The references as written there ('Articles 12 to 22')"
    )


class CiterOut(_Out):
    """A section citing the one asked about (or a part of it: see cites)."""

    document: str
    section_id: str = Field(description="The citing section (the deepest holding the reference)")
    chunk_id: str = Field(description="Read it with *_get_neighbours")
    location: str = ""
    references: list[str] = Field(default_factory=list)
    cites: list[str] = Field(default_factory=list, description="Which ids of the asked section it cites")
    excerpt: str = ""


class CitedByOutput(_Out):
    """Structured answer of ``<tool>_cited_by``: one page of the sections citing a section."""

    document: str
    section_id: str
    total: int = Field(description="How many sections cite it, in this and the other documents of the tool")
    offset: int = 0
    citers: list[CiterOut]
    next_cursor: str | None = Field(default=None, description="Pass back as 'cursor' for the next page")
    notice: str | None = None


_SCORE = "The score the list is ordered by; never increases down the list"
_SIM = "Cosine similarity of the query and this hit (-1..1), the scale of min_similarity_score"


class CitedSectionOut(_Out):
    """One of several sections a query's citation names."""

    cited: str = Field(description="The citation as the query made it, e.g. 'Section 3'")
    document: str
    section_id: str
    title: str = ""


class ConfidenceOut(_Out):
    """How well the answer matched: act on 'low' / 'none' (rephrase, widen filters, say you found nothing)."""

    level: str = Field(description="high | medium | low | none")
    reason: str
    best_similarity: float | None = None
    keyword_hits: int = 0
    exact_hits: int = 0
    content_words: bool = True
    ambiguous: list[CitedSectionOut] = Field(
        default_factory=list,
        description=(
            "When the query cites a number several sections carry (Section 3 of Chapters III, IV and VII): "
            "each of them; ask again naming the chapter or document, or get_section one of the ids"
        ),
    )
    unresolved: list[str] = Field(
        default_factory=list, description="Citations in the query that no section in the searched scope answers to"
    )
    probability: float | None = Field(
        default=None,
        description=(
            "Fitted chance (0-1) that the searched documents hold the answer, which the level is read from; "
            "null for an embedding model with no fit (the level is then a rule)"
        ),
    )
    signals: dict[str, float | bool | None] = Field(
        default_factory=dict,
        description=(
            "What the probability is computed from: similarity (best cosine less the model's floor), gap (to the "
            "5th), coverage (share of the query's keyword weight a first hit holds), absent (share in words no "
            "document holds), exact, agree (keyword and semantic rankings agree on the first hit)"
        ),
    )
    missing_words: list[str] = Field(
        default_factory=list,
        description=(
            "The query's words that no searched document holds ('UDP', 'QUIC'): a question on the documents' "
            "topic asking for something they never mention can still read high; check these before answering"
        ),
    )


_PAGE_START = (
    "Label of the page the passage starts on, for a paged source (PDF page, PPTX slide): the printed "
    "label the PDF defines ('iv', '14') or, with page_numbering 'physical', the page's position in "
    "the file; absent for an unpaged source"
)


class _Pages(_Out):
    """The pages a passage of a paged source stands on (see page_numbering); absent otherwise."""

    page_start: str | None = Field(default=None, description=_PAGE_START)
    page_end: str | None = Field(default=None, description="Label of the page it ends on (as page_start)")
    page_numbering: str | None = Field(
        default=None,
        description="'printed' (the PDF's own page labels), "
        "'physical' (no labels: 1-based position in the file) or 'slide'",
    )
    physical_page_start: int | None = Field(
        default=None, description="1-based position of the first page in the file (a viewer's 'go to page')"
    )
    physical_page_end: int | None = None

    @model_serializer(mode="wrap")
    def _without_absent_pages(self, handler):
        """An unpaged source's answers carry no null page fields."""
        data = handler(self)
        for key in PAGE_FIELDS:
            if data.get(key) is None:
                data.pop(key, None)
        return data


class DefinitionRef(_Pages):
    """A defined term the results use, with its definition and where it is defined."""

    term: str
    definition: str
    document: str
    section_id: str | None = None
    also_in: list[str] = Field(default_factory=list, description="Other documents defining the term the same way")
    scope: str | None = Field(
        default=None, description="Id of the section whose subtree the definition governs; null: the whole document"
    )
    applies_in: str | None = Field(
        default=None, description="Where a scoped definition applies, e.g. 'Title III, Subtitle D (subtitle-d)'"
    )


class PinpointOut(_Out):
    """The sub-item of the chunk the query cites; the hit's content shows it under the lead-in of its enclosing items."""

    section_id: str = Field(description="The cited item ('article-17(3)(b)'), as get_section takes it")
    start: int = Field(
        description="Where the item starts in the whole chunk (characters; the chunk is "
        "content_chars long, read it with *_get_neighbours)"
    )
    end: int = Field(description="Where the item ends in the whole chunk (exclusive)")
    text: str = Field(description="The item's text (cut like content to the answer's budget)")


class SearchHit(_Pages):
    """One passage: scores, citation (document, section, location, pages) and the defined terms it
    uses. Optional fields holding their default (null, false, empty) are left out of the answer."""

    id: str = Field(description="Chunk id ('doc.md#12'); pass it to *_get_neighbours")
    chunk_id: str
    content: str
    score: float = Field(description=_SCORE)
    fused_score: float = Field(
        description="Weighted reciprocal rank fusion score, a pinned hit's own (its score "
        "is lifted to the next hit's to keep the order)"
    )
    rerank_score: float | None = None
    semantic_score: float | None = Field(default=None, description=_SIM)
    keyword_score: float | None = Field(default=None, description="BM25 score; null when BM25 did not find it")
    exact_match: bool = False
    pinned: bool = Field(
        default=False,
        description="Placed first, in every mode, because the query names it (a section reference, a record id)",
    )
    source_path: str = Field(description="Document path relative to the tool's source")
    document_title: str = Field(
        default="",
        description="The document's title, the same on every hit of a "
        "document (left out of an answer cut to its tightest budget)",
    )
    section_id: str
    location: str = Field(description="Section titles from the outermost down, joined by ' > '")
    chunk_type: str = "content"
    definitions: list[str] = Field(
        default_factory=list,
        description="Defined terms this passage uses; their definitions are in the answer's 'definitions'",
    )
    cross_references: list[CrossReferenceHit] = Field(
        default_factory=list, description="Each once, resolved ones first, at most 5 (see cross_references_total)"
    )
    cross_references_total: int | None = Field(
        default=None, description="How many references the passage makes when more than those listed"
    )
    truncated: bool = Field(
        default=False,
        description="content is not the whole chunk: cut to the answer's size "
        "budget, or the pinpoint shown without the rest",
    )
    content_chars: int = 0
    pinpoint: PinpointOut | None = Field(
        default=None,
        description="Set when the query cites a sub-item of this chunk ('Art. 17(3)(b)'): section_id is that item",
    )
    passage: PassageOut | None = Field(
        default=None,
        description="The sentence matching the query best: its "
        "characters in the chunk; section_id is the deepest section holding it",
    )
    answer_passage: AnswerPassageOut | None = Field(
        default=None,
        description="The minimal passage answering the query (what passage=true shows instead of the chunk)",
    )
    cited_by: list[CitingSectionRef] = Field(
        default_factory=list,
        description="The first sections citing section_id (own document first); *_cited_by lists them all",
    )
    cited_by_total: int | None = Field(default=None, description="How many sections cite section_id")


class SearchOutput(_Out):
    """A search's hits, best first, with the definitions they use and how confident the match is."""

    results: list[SearchHit]
    definitions: list[DefinitionRef] = Field(default_factory=list)
    confidence: ConfidenceOut
    notices: list[str] = Field(default_factory=list)
    truncated: bool = False


class SectionOutput(_Pages):
    """One page of a section's text (or of the whole document); follow next_cursor for the next page."""

    document: str
    section_id: str = Field(description="'' when the whole document was read")
    title: str = ""
    location: str
    content: str
    chunk_ids: list[str]
    offset: int = Field(default=0, description="Where this page starts in the section's text (characters)")
    total_chars: int = 0
    next_cursor: str | None = Field(
        default=None, description="Pass back as 'cursor' to read the next page; null on the last page"
    )
    truncated: bool = False


class NeighbourChunk(_Pages):
    """A chunk of the document around the one asked for."""

    chunk_id: str
    section_id: str
    location: str
    content: str
    requested: bool = Field(default=False, description="The chunk asked for (the others are its neighbours)")


class NeighboursOutput(_Out):
    """The chunk asked for with its neighbours, in document order."""

    document: str
    chunks: list[NeighbourChunk]
    truncated: bool = False


class DocumentOut(_Out):
    """One indexed document: its key, title and what was detected at ingest."""

    doc_key: str = Field(description="Pass as 'document' to the other tools")
    title: str
    summary: str = ""
    language: str = Field(default="", description="ISO 639-1 code detected at ingest; '' if unknown")
    file_type: str = ""
    section_count: int = 0
    top_sections: list[dict[str, str]] = Field(default_factory=list)
    top_sections_total: int = 0
    total_chunks: int = 0
    ingested_at: str = ""
    warnings: list[str] = Field(default_factory=list)


class DocumentsOutput(_Out):
    """A page of the indexed documents; pass next_offset as offset for the next page."""

    documents: list[DocumentOut]
    total: int
    next_offset: int | None = None


class DefinitionHit(_Pages):
    """One definition of the term, with the section it is written in and the part of the document it governs."""

    term: str
    definition: str
    document: str
    section_id: str | None = None
    scope: str | None = Field(
        default=None,
        description="Id of the section whose subtree the definition governs "
        "('In this title' → that title); null: the whole document",
    )
    scope_label: str | None = Field(
        default=None, description="That section by its numbering, e.g. 'Title III, Subtitle D'"
    )
    applies_in: str = Field(default="the whole document", description="Where the definition applies, as shown")


class DefinitionOutput(_Out):
    """Every definition of the term, each document's in document order."""

    term: str
    definitions: list[DefinitionHit]


class RecordHit(_Out):
    """One structured record: its id, text, scores (when searched) and metadata fields."""

    id: str
    content: str
    score: float | None = Field(default=None, description=_SCORE + "; null for a record fetched by id")
    fused_score: float | None = None
    rerank_score: float | None = None
    semantic_score: float | None = Field(default=None, description=_SIM)
    keyword_score: float | None = None
    exact_match: bool = False
    pinned: bool = False
    source_path: str = Field(description="Source file relative to the tool's source")
    source_file: str = Field(description="Same as source_path (older name)")
    metadata: dict[str, str] = Field(default_factory=dict)
    truncated: bool = False
    content_chars: int = 0
    next_cursor: str | None = None


class RecordSearchOutput(_Out):
    """A record search's hits, best first, with how confident the match is."""

    results: list[RecordHit]
    definitions: list[DefinitionRef] = Field(default_factory=list)
    confidence: ConfidenceOut
    notices: list[str] = Field(default_factory=list)
    truncated: bool = False


# --------------------------------------------------------------------------- helpers
_ABS_PATH = re.compile(r"(?<![\w.:/~-])/(?:[\w.@+-]+/)+[\w.@+-]*")


def scrub_paths(message: str, roots: list[str]) -> str:
    """``message`` with absolute filesystem paths removed: known roots are stripped to relative
    paths, any other absolute path becomes ``<path>``. URLs (``http://host/x``) are left alone."""
    for root in sorted({r.rstrip("/") for r in roots if r and r != "/"}, key=len, reverse=True):
        message = message.replace(root + "/", "").replace(root, ".")
    return _ABS_PATH.sub("<path>", message)


class _Tools:
    """The MCP-facing wrappers around one :class:`Toolset`: readiness, errors, formatting."""

    def __init__(self, toolset: Toolset):
        self.toolset = toolset
        roots = [toolset.config.base_dir, str(Path.home())]
        for t in toolset:
            src = Path(t.cfg.source)
            roots.append(str(src if src.is_absolute() else Path(toolset.config.base_dir) / src))
        self.roots = roots

    def error(self, e: Exception) -> ToolError:
        """The tool error an agent sees for ``e``. A store failure or an unexpected error becomes a
        generic message with a correlation id (the detail, redacted, goes to the log under that id);
        any other error keeps its text, redacted, scrubbed of paths and cut to
        :data:`MAX_ERROR_CHARS`."""
        if isinstance(e, StoreError) or not isinstance(e, (DocstrataError, ValueError, KeyError)):
            ref = uuid.uuid4().hex[:12]
            log.error(
                "tool call failed [error id %s]: %s: %s",
                ref,
                type(e).__name__,
                redact(e),
                exc_info=not isinstance(e, DocstrataError),
            )
            what = "the index store" if isinstance(e, StoreError) else "the server"
            return ToolError(
                f"{what} failed to answer (error id {ref}); this is not caused by the arguments: "
                "retry later, or ask the operator to look up the error id in the server log"
            )
        text = redact(scrub_paths(str(e), self.roots))
        if len(text) > MAX_ERROR_CHARS:
            text = text[:MAX_ERROR_CHARS] + "…"
        return ToolError(text)

    async def run(self, tool, ctx: Context | None, fn, *args, **kwargs):
        """Ensure ``tool`` is ready (reporting progress to the caller), then run ``fn`` in a worker thread.

        ``DocstrataError`` and the search module's ``QueryError`` (a ``ValueError``) become tool errors.
        """
        try:
            progress = _ProgressReporter(tool.name, ctx) if ctx is not None else None
            report = await anyio.to_thread.run_sync(tool.ensure_ready, progress)
            if report is not None and progress is not None:
                await progress.finish(report)
            return await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs))
        except ToolError:
            raise
        except Exception as e:  # noqa: BLE001 - every failure reaches the agent as one tool error
            raise self.error(e) from None


class _ProgressReporter:
    """``progress(done, total, description)`` for the ingest's worker thread: sends
    ``notifications/progress`` to the caller (the SDK drops them when the caller sent no progress token)."""

    def __init__(self, tool_name: str, ctx: Context):
        self.tool_name, self.ctx = tool_name, ctx
        self.done, self.total = 0, 0

    def __call__(self, done: int, total: int, description: str) -> None:
        self.done, self.total = done, total
        try:
            anyio.from_thread.run(
                self.ctx.report_progress, done, total, f"indexing {self.tool_name}: {one_line(description)}"
            )
        except Exception as e:  # noqa: BLE001 - a lost progress message must not stop the ingest
            log.debug("progress notification not sent: %s", e)

    async def finish(self, report) -> None:
        """The closing notification (done == total), which not every ingest sends itself."""
        total = max(self.total, 1)
        if self.done < total:
            summary = f"{report.files_total} file(s), {report.chunks} chunk(s)"
            await self.ctx.report_progress(total, total, f"indexed {self.tool_name}: {summary}")


def _text_result(text: str, structured: BaseModel) -> CallToolResult:
    """The tool's answer: ``text`` (controls and separators other than its own line breaks escaped,
    :func:`~docstrata.escaping.escape_terminal`; names in it went through ``one_line``) and its JSON."""
    return CallToolResult(
        content=[TextContent(type="text", text=escape_terminal(text))],
        structured_content=structured.model_dump(mode="json"),
    )


def _describe(cfg, what: str) -> str:
    own = (cfg.description or "").strip()
    return f"{own}\n\n{what}" if own else what


# --------------------------------------------------------------------------- tool registration
_Document = Annotated[
    str | list[str] | None,
    Field(
        description="Only these documents: a path as shown in results "
        "('Source:'), a file name or stem, or a list of them"
    ),
]
_MinSim = Annotated[
    float | None,
    Field(
        ge=-1.0, le=1.0, description="Leave out hits whose cosine similarity to the query is below this (0-1; e.g. 0.3)"
    ),
]
_MinFused = Annotated[
    float | None,
    Field(ge=0.0, description="Leave out hits whose fused RRF score is below this (at most ~0.17 by default)"),
]
_MinRelative = Annotated[
    float | None,
    Field(
        gt=0.0,
        le=1.0,
        description="Relevance cut-off: leave out hits whose fused score is below this share of the best hit's "
        "(e.g. 0.6), so weak hits do not pad the answer up to top_k",
    ),
]
# 2,000: one hit's citation and metadata alone can take ~1,000 characters (GDPR's long title), so a
# smaller budget could hold no passage at all
_MaxSearch = Annotated[
    int,
    Field(
        ge=2000,
        le=200_000,
        description=(
            "Size budget of the answer in characters (at least 2,000), its text and its JSON each (the whole result is at "
            "most twice it): passages, citations, scores and definitions together; long passages are cut to fit, with how "
            "to read them whole"
        ),
    ),
]
# A page's max_chars counts its content (section or record text, the chunks around a passage), as
# in the Python API and the CLI; the citation, location, cursor and chunk ids come on top, bounded.
PAGE_ENVELOPE_CHARS = 2000
_MaxPage = Annotated[
    int,
    Field(
        ge=200,
        le=1_000_000,
        description=(
            "Characters of text per page (the section's, record's or passages' own text, at least 200). The "
            f"citation, location, page cursor and chunk ids come on top: each form of the answer (text, JSON) "
            f"is at most max_chars + {PAGE_ENVELOPE_CHARS:,} characters (typically + 300-900), the whole result "
            "(both forms) about twice that"
        ),
    ),
]
_Cursor = Annotated[str | None, Field(description="'next_cursor' of the previous page, to read on")]


def _json_size(data) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def _fit_page(read, render, max_chars: int):
    """``render(read(budget))`` for a page tool: ``budget`` is ``max_chars`` characters of content
    (what the page's text is; :func:`docstrata.paging.page_end` cuts it), and each form of the
    answer, text and compact JSON, must fit ``max_chars + PAGE_ENVELOPE_CHARS`` — the envelope
    (source, location, section, page range, cursor, chunk ids) is a few hundred characters, so
    the content shrinks only when long names, many chunk ids or JSON escapes overflow it, by the
    overflow (at least 200 characters of content are kept). A page's cursor is an offset, so
    any budget continues where the previous page stopped. Returns ``(text, data)``."""
    limit, budget = max_chars + PAGE_ENVELOPE_CHARS, max_chars
    while True:
        text, data = render(read(budget))
        over = max(len(escape_terminal(text)), _json_size(data)) - limit
        if over <= 0 or budget <= 200:
            return text, data
        budget = max(200, budget - over - 20)


def _search_text(results, query: str, name: str, max_chars: int, output, span: bool = False, passage: bool = False):
    def shape(data):  # what is sent: the output schema's dump, compacted; measured by render_search
        structured = output.model_validate(data).model_dump(mode="json")
        structured["results"] = [answers.compact(h) for h in structured["results"]]
        for h in structured["results"]:
            if not h.get("cross_references_total"):
                h.pop("cross_references_total", None)
            for x in h.get("cross_references", []):
                if x.get("enclosing") is None:
                    x.pop("enclosing", None)
                if x.get("note") is None:
                    x.pop("note", None)
        for d in structured.get("definitions", []):
            if not d.get("also_in"):
                d.pop("also_in", None)
        return structured

    text, structured = answers.render_search(results, query, name, max_chars, shape=shape, span=span, passage=passage)
    return CallToolResult(content=[TextContent(type="text", text=escape_terminal(text))], structured_content=structured)


def _add_document_tools(server: MCPServer, tools: _Tools, tool: HierarchicalDocumentTool) -> None:
    cfg = tool.cfg
    name = tool.name

    async def search(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_QUERY_CHARS,
                description="What to look for: a question, keywords, a section "
                "reference ('Section 4.2', 'Article 17') or a defined term",
            ),
        ],
        top_k: Annotated[int, Field(ge=1, le=100, description="How many passages to return (1-100)")] = cfg.top_k,
        mode: Annotated[
            SearchMode,
            Field(description="hybrid (default) combines semantic, keyword and exact matching; or one of them alone"),
        ] = cfg.search_mode,
        document: _Document = None,
        section: Annotated[
            str | None,
            Field(
                description="Only this section and its subsections: a section id "
                "prefix ('4.2', 'article-17') or 'Section 4.2'"
            ),
        ] = None,
        min_similarity_score: _MinSim = None,
        min_fused_score: _MinFused = None,
        min_relative_score: _MinRelative = None,
        max_chars: _MaxSearch = answers.DEFAULT_SEARCH_CHARS,
        span: Annotated[
            bool,
            Field(
                description="Return each hit's best-matching sentence alone (cited to the "
                "deepest section holding it) instead of a passage of its chunk"
            ),
        ] = False,
        passage: Annotated[
            bool,
            Field(
                description="Return the best passages instead of chunks (top_k of them): each confident hit's minimal "
                "passage (from its first to its last sentence that matches nearly as well as the best, or the section a "
                "matching heading opens), then the best further sentences of the candidate chunks, each widened to a "
                "readable passage and cited to its own section; a chunk may give several (wins over span)"
            ),
        ] = False,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, SearchOutput]:
        results = await tools.run(
            tool,
            ctx,
            tool.search,
            query,
            top_k=top_k,
            mode=mode,
            document=document,
            section=section,
            min_similarity_score=min_similarity_score,
            min_fused_score=min_fused_score,
            min_relative_score=min_relative_score,
            passages=passage,
        )
        return _search_text(results, query, name, max_chars, SearchOutput, span=span, passage=passage)

    async def get_section(
        document: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_NAME_CHARS,
                description="Document path as shown in search results ('Source:'), or its file name or stem",
            ),
        ],
        section_id: Annotated[
            str | None,
            Field(
                max_length=MAX_NAME_CHARS,
                description="Section id as shown in search results ('Section:'), "
                "e.g. '4.2.1' or 'article-17', a citation ('Section 2.1(b)', "
                "'Appendix D.2'; a pinpoint that is no section of its "
                "own returns the section holding it, with a note), or a "
                "heading title one section has ('Definitions'); omit to "
                "read the whole document",
            ),
        ] = None,
        max_chars: _MaxPage = 8000,
        cursor: _Cursor = None,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, SectionOutput]:
        def read_page():
            return _fit_page(
                lambda budget: tool.get_section(document, section_id, max_chars=budget, cursor=cursor),
                lambda page: answers.render_section(page, name),
                max_chars,
            )

        text, data = await tools.run(tool, ctx, read_page)
        return _text_result(text, SectionOutput.model_validate(data))

    async def cited_by(
        document: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_NAME_CHARS,
                description="Document path as shown in search results ('Source:'), or its file name or stem",
            ),
        ],
        section_id: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_NAME_CHARS,
                description="Section id or citation, as get_section takes it ('article-17', 'Article 17', '4.2')",
            ),
        ],
        limit: Annotated[int, Field(ge=1, le=200, description="Citing sections per page")] = 20,
        cursor: _Cursor = None,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, CitedByOutput]:
        page = await tools.run(tool, ctx, tool.cited_by, document, section_id, limit=limit, cursor=cursor)
        return _text_result(page.format(), CitedByOutput.model_validate(page.to_dict()))

    async def get_neighbours(
        chunk_id: Annotated[
            str,
            Field(
                min_length=1, max_length=MAX_NAME_CHARS, description="A chunk id from search results ('Chunk:', 'id')"
            ),
        ],
        before: Annotated[int, Field(ge=0, le=20, description="Chunks before it to include")] = 1,
        after: Annotated[int, Field(ge=0, le=20, description="Chunks after it to include")] = 1,
        max_chars: _MaxPage = 8000,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, NeighboursOutput]:
        chunks = await tools.run(tool, ctx, tool.neighbours, chunk_id, before, after)
        text, data = _fit_page(
            lambda budget: budget, lambda budget: answers.render_neighbours(chunks, budget, chunk_id), max_chars
        )
        return _text_result(text, NeighboursOutput.model_validate(data))

    async def get_definition(
        term: Annotated[str, Field(min_length=1, max_length=MAX_TERM_CHARS, description="The defined term, any case")],
        document: Annotated[
            str | None, Field(max_length=MAX_NAME_CHARS, description="Only this document (path, file name or stem)")
        ] = None,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, DefinitionOutput]:
        found = await tools.run(tool, ctx, tool.get_definition, term, document)
        if not found:
            where = f" in {short(document)}" if document else ""
            near = await anyio.to_thread.run_sync(tool.similar_terms, term, document)
            raise ToolError(
                f"no definition of {short(term)}{where} in tool '{name}'"
                + (f"; similar: {', '.join(short(x) for x in near)}" if near else "")
            )
        hits = [
            DefinitionHit(
                term=d.term,
                definition=d.definition,
                document=d.doc_key,
                section_id=d.section_id,
                scope=d.scope,
                scope_label=d.scope_label,
                applies_in=d.applies_in,
                **page_fields(d),
            )
            for d in found
        ]
        text = _RESULT_SEPARATOR.join(
            f"Term: {one_line(h.term)}\nSource: {one_line(h.document)}"
            + (f", {d.pages}" if d.pages else "")
            + (f"\nSection: {one_line(h.section_id)}" if h.section_id else "")
            + f"\nApplies in: {one_line(h.applies_in)}"
            + f"\n\n{h.definition.strip()}"
            for h, d in zip(hits, found)
        )
        return _text_result(text, DefinitionOutput(term=term, definitions=hits))

    server.add_tool(
        search,
        name=f"{name}_search",
        title=f"Search {name}",
        annotations=_READ_ONLY,
        description=_describe(
            cfg,
            "Searches these documents along their structure and returns the "
            "best passages, each with its score, source document, section id, "
            "location (section titles), pages (PDF page, PPTX slide) and the "
            "defined terms it uses (their "
            "definitions once, at the end), plus a confidence signal. Narrow "
            "with 'document' and 'section'.",
        ),
    )
    server.add_tool(
        get_section,
        name=f"{name}_get_section",
        title=f"Read a section of {name}",
        annotations=_READ_ONLY,
        description=_describe(
            cfg,
            "Returns the text of one section (with its subsections), or of a "
            "whole document, by document and section id as shown in search "
            "results, in pages with a cursor to read on. max_chars is the characters of "
            "section text per page (pages end at a paragraph, line or "
            "sentence break near it); the source, location, section id, "
            "page numbers, cursor and chunk ids come on top, at most "
            f"{PAGE_ENVELOPE_CHARS:,} more characters in the text and in "
            "the JSON.",
        ),
    )
    server.add_tool(
        get_neighbours,
        name=f"{name}_get_neighbours",
        title=f"Read around a passage of {name}",
        annotations=_READ_ONLY,
        description=_describe(
            cfg,
            "Returns a passage (by chunk id from search results) with the "
            "passages just before and after it in its document; max_chars is the "
            "characters of passage text in all (neighbours are cut first), "
            "their citations on top.",
        ),
    )
    server.add_tool(
        get_definition,
        name=f"{name}_get_definition",
        title=f"Look up a defined term in {name}",
        annotations=_READ_ONLY,
        description=_describe(
            cfg,
            "Returns how the documents define a term: one entry per document "
            "and scope, each saying where it applies (a definition 'In this "
            "title' governs that title only).",
        ),
    )
    server.add_tool(
        cited_by,
        name=f"{name}_cited_by",
        title=f"What cites a section of {name}",
        annotations=_READ_ONLY,
        description=_describe(
            cfg,
            "Lists the sections that cite a section (or a part of it), in its "
            "own document and in the tool's other documents, with the "
            "references as written ('Articles 12 to 22' cites Article 17), "
            "in pages with a cursor.",
        ),
    )
    _add_list_documents(server, tools, tool)


def _add_list_documents(server: MCPServer, tools: _Tools, tool) -> None:
    name = tool.name

    async def list_documents(
        offset: Annotated[int, Field(ge=0, description="Skip this many documents (for paging)")] = 0,
        limit: Annotated[int, Field(ge=1, le=200, description="At most this many documents")] = 25,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, DocumentsOutput]:
        entries = await tools.run(tool, ctx, tool.list_documents)
        text, data = answers.render_documents(entries, offset, limit)
        return _text_result(text, DocumentsOutput.model_validate(data))

    what = (
        "Lists the indexed documents: path (use it as 'document'), title, summary, language, file type, "
        "section count, top-level sections, chunks and when each was ingested."
    )
    if isinstance(tool, VectorstoreTool) and tool.records_mode:
        what = (
            "Lists the indexed source files: path (use it as 'document'), type, record count, fields and "
            "when each was ingested."
        )
    server.add_tool(
        list_documents,
        name=f"{name}_list_documents",
        title=f"List the documents of {name}",
        annotations=_READ_ONLY,
        description=_describe(tool.cfg, what),
    )


def _add_record_tools(server: MCPServer, tools: _Tools, tool: VectorstoreTool) -> None:
    cfg = tool.cfg
    name = tool.name
    fields = ", ".join(cfg.meta_fields or []) or "any kept field"

    async def search(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_QUERY_CHARS,
                description="What to look for: words, a question, or an exact id or value",
            ),
        ],
        top_k: Annotated[int, Field(ge=1, le=100, description="How many records to return (1-100)")] = cfg.top_k,
        mode: Annotated[
            SearchMode,
            Field(
                description="hybrid (default) combines semantic, keyword and exact "
                "id/value matching; or one of them alone"
            ),
        ] = "hybrid",
        document: _Document = None,
        filters: Annotated[
            dict[str, Any] | None,
            Field(
                description=(
                    f"Only records whose fields match ({fields}): {{'field': 'value'}}, {{'field': ['a', 'b']}}, "
                    "{'price': {'gte': 10, 'lt': 100}} (operators eq, in, gt, gte, lt, lte); several fields = all must "
                    "match"
                )
            ),
        ] = None,
        min_similarity_score: _MinSim = None,
        min_fused_score: _MinFused = None,
        max_chars: _MaxSearch = answers.DEFAULT_SEARCH_CHARS,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, RecordSearchOutput]:
        results = await tools.run(
            tool,
            ctx,
            tool.search,
            query,
            top_k=top_k,
            mode=mode,
            document=document,
            filters=filters,
            min_similarity_score=min_similarity_score,
            min_fused_score=min_fused_score,
        )
        return _search_text(results, query, name, max_chars, RecordSearchOutput)

    async def get_record(
        id: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_NAME_CHARS,
                description="The record's id, as shown in search results ('Id:')",
            ),
        ],  # noqa: A002
        max_chars: _MaxPage = 8000,
        cursor: _Cursor = None,
        ctx: Context = None,
    ) -> Annotated[CallToolResult, RecordHit]:
        def read_record():
            return _fit_page(
                lambda budget: tool.get_record(id, max_chars=budget, cursor=cursor), answers.render_record, max_chars
            )

        text, data = await tools.run(tool, ctx, read_record)
        return _text_result(text, RecordHit.model_validate(data))

    server.add_tool(
        search,
        name=f"{name}_search",
        title=f"Search {name}",
        annotations=_READ_ONLY,
        description=_describe(
            cfg,
            "Hybrid search (semantic + keyword + exact id/value match) over "
            "these records; returns each record's id, text, score and fields, "
            "plus a confidence signal. Narrow with 'filters' on fields.",
        ),
    )
    server.add_tool(
        get_record,
        name=f"{name}_get_record",
        title=f"Fetch a record of {name}",
        annotations=_READ_ONLY,
        description=_describe(
            cfg, "Returns one record by its id, its text in pages of max_chars characters with a cursor to read on."
        ),
    )
    _add_list_documents(server, tools, tool)


def build_server(toolset: Toolset, name: str = "docstrata") -> MCPServer:
    """An ``MCPServer`` exposing every tool of ``toolset`` (see the module docstring for the tool list)."""
    server = MCPServer(
        name=name,
        version=__version__,
        log_level="WARNING",
        instructions="Search tools over configured document collections and record sets. "
        "Use *_list_documents to see what is there; *_search (narrow it with "
        "'document', 'section' or record 'filters'; check its 'confidence'); "
        "*_get_section to read a section or document page by page (pass "
        "'next_cursor' back as 'cursor'), *_get_neighbours for the passages "
        "around a hit and *_get_definition for defined terms.",
    )
    tools = _Tools(toolset)
    for tool in toolset:
        if isinstance(tool, HierarchicalDocumentTool):
            _add_document_tools(server, tools, tool)
        else:
            _add_record_tools(server, tools, tool)
    for registered in server._tool_manager.list_tools():
        _plain_argument_errors(registered)
    return server


def argument_errors(exc: ValidationError) -> str:
    """One line per bad argument: ``top_k: Input should be less than or equal to 100 (got 500)``
    (pydantic's message without its documentation URL; the value shortened)."""
    lines = []
    for err in exc.errors(include_url=False):
        name = ".".join(str(p) for p in err.get("loc", ())) or "arguments"
        msg = err.get("msg", "invalid")
        if err.get("type") == "missing":
            msg = "required argument missing"
        elif "input" in err and not isinstance(err["input"], dict):
            got = repr(err["input"])
            msg += f" (got {got if len(got) <= 60 else got[:57] + '...'})"
        lines.append(f"{name}: {msg}")
    return "bad arguments:\n" + "\n".join(lines) if len(lines) > 1 else "bad argument: " + lines[0]


def _plain_argument_errors(registered) -> None:
    """Make ``registered`` (an SDK tool) report argument validation errors as
    :func:`argument_errors` lines instead of pydantic's multi-line text with URLs."""
    run = registered.run
    known = list((registered.parameters or {}).get("properties", {}))

    async def plain_run(arguments, context, convert_result=False):
        # The SDK drops arguments the tool does not take: a misspelled optional one ("section" for
        # section_id) would silently answer another question (the whole document). Refuse it.
        unknown = [k for k in (arguments or {}) if k not in known]
        if unknown:
            lines = []
            for name in unknown:
                close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
                lines.append(f"{name}: unknown argument" + (f"; did you mean '{close[0]}'?" if close else ""))
            lines.append(f"arguments {registered.name} takes: {', '.join(known)}")
            raise ToolError(f"Error executing tool {registered.name}: bad argument: " + "\n".join(lines))
        try:
            return await run(arguments, context, convert_result=convert_result)
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                raise ToolError(f"Error executing tool {registered.name}: {argument_errors(e.__cause__)}") from None
            raise

    object.__setattr__(registered, "run", plain_run)


# --------------------------------------------------------------------------- serving
@contextlib.contextmanager
def stdout_to_stderr():
    """Point ``sys.stdout`` and file descriptor 1 at stderr for the duration (restored after)."""
    sys.stdout.flush()
    saved_fd = os.dup(1)
    saved = sys.stdout
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stderr.flush()
        sys.stdout = saved
        os.dup2(saved_fd, 1)
        os.close(saved_fd)


def _quiet_libraries() -> None:
    from .runtime import quiet_offline_environment

    quiet_offline_environment()


def preload(toolset: Toolset) -> None:
    """Before serving, open every tool's index and ingest what is missing or stale, with plain
    progress lines on stderr (:class:`~docstrata.progress.ProgressLines`): a client's first call
    then answers at once instead of waiting, with nothing to show, on an ingest (``defer_loading``
    makes no difference here). An index that is current costs a scan of file sizes and times. A
    tool that cannot be opened (its source is missing) is logged and left to report its error on
    each call."""
    from .errors import DocstrataError
    from .followup import with_config
    from .progress import ProgressLines

    for tool in toolset:
        lines = ProgressLines(tool.name)
        try:
            report = tool.ensure_ready(progress=lines)
        except DocstrataError as e:
            log.warning("tool '%s' is not ready: %s", tool.name, str(e).splitlines()[0][:300])
            continue
        if report is not None and (lines.lines or report.removed or report.skipped):
            print(
                f"{tool.name}: indexed {report.files_total} file(s), {report.chunks_total} chunk(s) in the index, "
                f"{report.elapsed_s:.1f} s",
                file=sys.stderr,
                flush=True,
            )
        if report is not None and report.skipped:  # the server's log (stderr): commands it names carry -c
            config = getattr(tool.cfg, "_config_file", "") or "agent.yaml"
            log.warning(
                "tool '%s': %d file(s) skipped: %s",
                tool.name,
                len(report.skipped),
                "; ".join(f"{s.path}: {with_config(s.reason, config)}" for s in report.skipped[:5]),
            )


class BearerTokenMiddleware:
    """ASGI middleware: every request must carry ``Authorization: Bearer <token>``, else 401."""

    def __init__(self, app, token: str):
        self.app = app
        self._expected = token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        given = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, credentials = given.strip().partition(b" ")  # the scheme is case-insensitive (RFC 9110 11.1)
        if scheme.lower() == b"bearer" and hmac.compare_digest(credentials.strip(), self._expected):
            return await self.app(scope, receive, send)
        body = json.dumps({"error": "unauthorized", "error_description": "missing or wrong bearer token"}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b"Bearer"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _bearer_token(token_env: str | None) -> str | None:
    if not token_env:
        return None
    token = os.environ.get(token_env, "")
    if not token:
        raise ConfigError(f"--token-env names the environment variable {token_env}, but it is not set or empty")
    return token


def _malformed_reply(exc: Exception):
    """A JSON-RPC error reply for a request line the SDK could not validate although it is JSON
    with an id (a lone surrogate such as ``\\ud800`` in an argument): without it the caller
    would wait for an answer that never comes. A line that is not JSON at all gets the JSON-RPC
    2.0 parse error (-32700, ``id: null``); JSON that is not an object, -32600 (invalid request).
    ``None`` when no reply is due (a malformed notification: no id)."""
    from mcp_types import ErrorData, JSONRPCError

    errors = getattr(exc, "errors", None)
    try:
        first = errors()[0] if callable(errors) else {}
        line = first.get("input")
    except (TypeError, IndexError, AttributeError):
        return None
    if not isinstance(line, (str, bytes)):
        if len(first.get("loc") or ()) > 1 or line is None:  # the input of a nested field, not the message
            return None
        line = json.dumps(line)  # the message itself, already parsed
    try:
        msg = json.loads(line)
    except ValueError:
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(
                code=-32700, message="parse error: the line is not JSON; send one JSON-RPC message per line"
            ),
        )
    if not isinstance(msg, dict):
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(
                code=-32600, message=f"invalid request: a JSON {type(msg).__name__}, not a JSON-RPC object"
            ),
        )
    if "method" not in msg or not isinstance(msg.get("id"), (str, int)):
        return None
    text = json.dumps(msg, ensure_ascii=True)
    bad = "malformed Unicode (a lone surrogate)" if re.search(r"\\ud[89a-f][0-9a-f]{2}", text) else "invalid fields"
    return JSONRPCError(
        jsonrpc="2.0",
        id=msg["id"],
        error=ErrorData(code=-32602, message=f"invalid request: it holds {bad}; send valid UTF-8 text"),
    )


async def _run_stdio(server: MCPServer) -> None:
    """``server.run_stdio_async()`` with one addition: a request line that fails validation but
    carries an id gets a JSON-RPC error reply (:func:`_malformed_reply`) instead of silence."""
    from mcp.server.stdio import stdio_server
    from mcp.shared._context_streams import create_context_streams  # the SDK's own stream type
    from mcp.shared.message import SessionMessage

    low = server._lowlevel_server  # noqa: SLF001 - the SDK offers no hook on the stdio read loop
    async with stdio_server() as (read_stream, write_stream):
        inner_writer, inner_reader = create_context_streams[SessionMessage | Exception](0)

        async def pump() -> None:
            async with inner_writer:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        reply = _malformed_reply(item)
                        if reply is not None:
                            await write_stream.send(SessionMessage(reply))
                            continue
                    await inner_writer.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(pump)
            await low.run(inner_reader, write_stream, low.create_initialization_options())
            tg.cancel_scope.cancel()


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def transport_security(host: str, allowed_hosts: list[str] | None = None):
    """The SDK's DNS-rebinding protection for a server bound to ``host``: always on. Allowed
    ``Host`` headers are the loopback names, ``host`` itself (unless a wildcard bind), this
    machine's host name (off loopback) and every entry of ``allowed_hosts`` (``name`` or ``name:port``), each
    with any port; ``Origin`` must be ``http(s)://`` one of them. ``allowed_hosts == ["*"]``
    turns the check off (the operator's explicit choice)."""
    import socket

    from mcp.server.transport_security import TransportSecuritySettings

    extra = list(allowed_hosts or [])
    if extra == ["*"]:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    names = ["127.0.0.1", "localhost", "[::1]"]
    if host not in ("0.0.0.0", "::", "") and host not in LOOPBACK_HOSTS:
        names.append(f"[{host}]" if ":" in host else host)
    if host not in LOOPBACK_HOSTS:
        names.append(socket.gethostname())  # not getfqdn(): no DNS lookup at start-up
    hosts, origins = [], []
    for name in dict.fromkeys(names + extra):
        if re.fullmatch(r"(?:\[[^\]]*\]|[^:\[\]]+):(?:\d+|\*)", name):  # carries a port or a port wildcard
            hosts.append(name)
            origins += [f"http://{name}", f"https://{name}"]
            continue
        hosts += [name, f"{name}:*"]
        origins += [f"http://{name}", f"http://{name}:*", f"https://{name}", f"https://{name}:*"]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


def check_http_exposure(host: str, token: str | None, insecure_no_token: bool) -> None:
    """Refuse to serve HTTP off loopback without a bearer token unless the operator opted out
    by name. Raises :class:`ConfigError`."""
    if token or host in LOOPBACK_HOSTS:
        return
    if not insecure_no_token:
        raise ConfigError(
            f"refusing to serve HTTP on {host} without a bearer token: anyone who can reach the "
            "port could query the tools. Set one with --token-env VAR, bind to 127.0.0.1, or pass "
            "--insecure-no-token to serve without one"
        )
    log.warning(
        "INSECURE: serving on %s WITHOUT A BEARER TOKEN (--insecure-no-token): anyone who can reach "
        "this port can query the tools",
        host,
    )


async def _serve_http(
    server: MCPServer, host: str, port: int, token: str | None, allowed_hosts: list[str] | None = None
) -> None:
    import uvicorn

    app: Any = server.streamable_http_app(host=host, transport_security=transport_security(host, allowed_hosts))
    if token:
        app = BearerTokenMiddleware(app, token)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    shown = f"[{host}]" if ":" in host else host
    print(
        f"docstrata MCP server (streamable HTTP) at http://{shown}:{port}/mcp"
        + (" (bearer token required)" if token else ""),
        file=sys.stderr,
        flush=True,
    )
    await uvicorn.Server(config).serve()


def serve(
    config_path: str,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    token_env: str | None = None,
    allowed_hosts: list[str] | None = None,
    insecure_no_token: bool = False,
) -> None:
    """Serve the tools of ``config_path`` over MCP until the client disconnects (stdio) or the process stops.

    ``transport``: ``"stdio"`` or ``"http"`` (streamable HTTP at ``http://host:port/mcp``).
    ``token_env``: name of an environment variable holding a bearer token every HTTP request
    must present (401 otherwise); required when ``host`` is not a loopback address, unless
    ``insecure_no_token``. ``allowed_hosts``: extra ``Host`` names accepted by the DNS-rebinding
    check (see :func:`transport_security`). Raises :class:`ConfigError` for a bad config, an
    unknown transport, a ``token_env`` that is not set, or a non-loopback bind without a token.
    """
    if transport not in ("stdio", "http", "streamable-http"):
        raise ConfigError(f"unknown transport {transport!r}: use 'stdio' or 'http'")
    _quiet_libraries()
    install_log_redaction()
    token = _bearer_token(token_env) if transport != "stdio" else None
    register_secret(token)
    if transport == "stdio" and token_env:
        log.warning("--token-env applies to the http transport only; ignored for stdio")
    if transport != "stdio":
        check_http_exposure(host, token, insecure_no_token)
        from .ports import check_port_free

        check_port_free(host, port)  # before the index is opened and the model loaded
    with stdout_to_stderr():
        config: AgentConfig = load_config(config_path)
        toolset = Toolset(config)
        preload(toolset)
    server = build_server(toolset)
    try:
        if transport == "stdio":
            anyio.run(_run_stdio, server)
        else:
            anyio.run(_serve_http, server, host, port, token, allowed_hosts)
    finally:
        toolset.close()


def main(argv: list[str] | None = None) -> None:
    """``python -m docstrata.mcp_server -c agent.yaml [--transport http]``: the same as ``docstrata serve``."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m docstrata.mcp_server", description=main.__doc__)
    p.add_argument("-c", "--config", default="agent.yaml")
    p.add_argument("--transport", default="stdio", choices=["stdio", "http"])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--token-env", default=None)
    p.add_argument("--allowed-host", action="append", default=None)
    p.add_argument("--insecure-no-token", action="store_true")
    a = p.parse_args(argv)
    try:
        serve(
            a.config,
            transport=a.transport,
            host=a.host,
            port=a.port,
            token_env=a.token_env,
            allowed_hosts=a.allowed_host,
            insecure_no_token=a.insecure_no_token,
        )
    except ConfigError as e:
        print(f"Configuration error: {e}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()


__all__ = [
    "build_server",
    "serve",
    "preload",
    "scrub_paths",
    "BearerTokenMiddleware",
    "SearchOutput",
    "SectionOutput",
    "DefinitionOutput",
    "RecordSearchOutput",
    "RecordHit",
    "DocumentsOutput",
    "NeighboursOutput",
]
