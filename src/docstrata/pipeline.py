"""The document pipeline, one function for every caller: file → converted document → structure →
chunks (with definitions, cross-references, pages, ancestors and language).

:func:`parse_file` is what ingest (``tools.HierarchicalDocumentTool``), ``docstrata inspect`` and,
through the index ingest builds, the playground all read a document with, so a section id is the
same wherever it is shown. Embedding, contextualizing and storing are the ingest's, not this
module's: the result here is pure data (:class:`ParsedDocument`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal

from .models import Chunk, DefinitionEntry, Document, DocumentTree, SourceFile
from .telemetry import span

if TYPE_CHECKING:
    from .convert.ocr import OcrSettings


@dataclass
class PipelineSettings:
    """How :func:`parse_file` reads one file.

    ``count_tokens(text) -> int`` measures chunk size (the embedder's tokenizer, or HoloDeck's
    characters / 4); ``max_chunk_tokens`` / ``chunk_overlap`` are in its tokens. ``limits`` (a
    ``LimitsConfig``; ``None`` = no bound) bounds file size, text size, chunk count and conversion
    time (:mod:`docstrata.limits`). ``ocr`` reads scanned pages (``None`` = the converter's
    default). ``on_pages(doc_key, done, total)`` hears each converted page of a paged source. ``convert``
    replaces :func:`~docstrata.convert.convert_file` (a vectorstore tool's record files read as
    documents: :func:`~docstrata.records.records_as_document`).
    """

    count_tokens: Callable[[str], int]
    max_chunk_tokens: int = 800
    chunk_overlap: int = 50
    chunking_strategy: Literal["structure", "token"] = "structure"
    extract_definitions: bool = True
    extract_cross_references: bool = True
    limits: Any = None
    ocr: OcrSettings | None = None
    on_pages: Callable[[str, int, int], None] | None = None
    convert: Callable[[SourceFile], Document] | None = None

    @classmethod
    def from_config(cls, cfg, count_tokens: Callable[[str], int], **kw) -> "PipelineSettings":
        """Settings from a ``HierarchicalDocumentToolConfig`` (chunking, extraction, limits);
        ``kw`` sets the rest (``ocr``, ``on_pages``, ``convert``)."""
        return cls(
            count_tokens=count_tokens,
            max_chunk_tokens=cfg.max_chunk_tokens,
            chunk_overlap=cfg.chunk_overlap,
            chunking_strategy=cfg.chunking_strategy,
            extract_definitions=cfg.extract_definitions,
            extract_cross_references=cfg.extract_cross_references,
            limits=cfg.limits,
            **kw,
        )


@dataclass
class ParsedDocument:
    """One file through the pipeline: the converted ``document``, its section ``tree`` and its
    ``chunks`` in document order; ``definitions`` are the tree's, each with ``doc_key`` and the
    ``chunk_id`` of the first chunk stating it (``None`` when no chunk does)."""

    document: Document
    tree: DocumentTree
    chunks: list[Chunk]
    definitions: list[DefinitionEntry] = field(default_factory=list)

    @property
    def section_ids(self) -> list[str]:
        """The tree's section ids in document order."""
        return [s.section_id for s in self.tree.sections]


def parse_file(sf: SourceFile, settings: PipelineSettings) -> ParsedDocument:
    """Convert, parse and chunk one file (the ingest's unit of work; it runs on a worker thread
    one file ahead of the embedder).

    Raises :class:`~docstrata.errors.ConversionError` naming the file when it cannot be converted
    or breaks a ``limits`` bound; nothing else is expected.
    """
    from .chunking import chunk_tree
    from .limits import check_chunks, check_file, check_text, time_limit
    from .progress import reporting_pages
    from .structure import build_tree

    limits = settings.limits
    if limits is not None:
        check_file(sf.doc_key, sf.path, sf.state.size, limits)
    on_pages = settings.on_pages
    timer = time_limit(sf.doc_key, limits.max_conversion_s) if limits is not None else contextlib.nullcontext()
    with (
        span("parse", **{"document": sf.doc_key}),
        timer,
        reporting_pages(on_pages and (lambda done, total: on_pages(sf.doc_key, done, total))),
    ):
        doc = settings.convert(sf) if settings.convert is not None else _convert(sf, settings.ocr)
        if limits is not None:
            check_text(sf.doc_key, doc.markdown, limits)
        tree = build_tree(
            doc,
            extract_definitions=settings.extract_definitions,
            extract_cross_references=settings.extract_cross_references,
        )
        chunks = chunk_tree(
            tree,
            count_tokens=settings.count_tokens,
            max_tokens=settings.max_chunk_tokens,
            overlap=settings.chunk_overlap,
            strategy=settings.chunking_strategy,
        )
        if doc.page_offsets:  # a PDF's pages, a PPTX's slides: each section's and chunk's first/last
            from .pages import assign_pages

            assign_pages(doc, tree, chunks)
    if limits is not None:
        check_chunks(sf.doc_key, len(chunks), limits)
    parsed = ParsedDocument(doc, tree, chunks)
    parsed.definitions = link_chunks(parsed, sf.doc_key)
    return parsed


def _convert(sf: SourceFile, ocr: OcrSettings | None) -> Document:
    from .convert import convert_file

    return convert_file(sf, ocr) if ocr is not None else convert_file(sf)


def link_chunks(parsed: ParsedDocument, doc_key: str) -> list[DefinitionEntry]:
    """Tie the tree to its chunks, in place: each definition gets ``doc_key`` and the first chunk
    stating it (in its defining section, else anywhere); each chunk gets ``metadata["ancestors"]``
    (its section's parent ids, nearest first, so get-section returns a section with all its
    subsections) and, for a document analysed in its own language, ``metadata["language"]``
    (:func:`~docstrata.docinfo.tag_language`). Returns the definitions."""
    from .docinfo import tag_language
    from .index.exact import term_key

    tree, chunks = parsed.tree, parsed.chunks
    defined_in: dict[tuple[str, str | None], str] = {}  # (term, defining section) → first chunk stating it
    for c in chunks:
        for term in c.definitions:
            for owner in [*c.metadata.get("sections", []), c.section_id]:
                defined_in.setdefault((term_key(term), owner), c.chunk_id)
            defined_in.setdefault((term_key(term), None), c.chunk_id)
    definitions = []
    for d in tree.definitions:
        d.doc_key = doc_key
        d.chunk_id = (
            d.chunk_id or defined_in.get((term_key(d.term), d.section_id)) or defined_in.get((term_key(d.term), None))
        )
        definitions.append(d)
    by_id = {s.section_id: s for s in tree.sections}
    for c in chunks:  # ancestors let get_section return a section with all its subsections
        ancestors, node = [], by_id.get(c.section_id)
        while node is not None and node.parent_id:
            ancestors.append(node.parent_id)
            node = by_id.get(node.parent_id)
        c.metadata["ancestors"] = ancestors
    tag_language(chunks, parsed.document.markdown)  # keyword text stemmed and stop-listed in the document's language
    return definitions
