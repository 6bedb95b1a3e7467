"""The tools a user configures, and the only place that wires pipeline stages together.

Wiring only: each stage lives in its own module (:mod:`docstrata.pipeline` for convert → structure
→ chunks, :mod:`docstrata.results` for answers, :mod:`docstrata.scoping` for filters,
:mod:`docstrata.section_lookup` for sections, :mod:`docstrata.records.ingest` for records);
what both tools share is :class:`~docstrata.tool_base.BaseTool`.

``HierarchicalDocumentTool``: sources → convert → structure → chunking → context → embed → store,
and search with citations and definitions. ``VectorstoreTool``: records (CSV / JSON / JSONL)
upserted by id, or — without ``vector_field`` — documents, as in HoloDeck's unstructured mode.
Both are thread-safe for concurrent searches and ingest once under concurrent first use.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from . import scoping
from .config import AgentConfig, HierarchicalDocumentToolConfig, VectorstoreToolConfig
from .config.user_paths import at_user_path
from .docinfo import ingested_entry
from .errors import ConfigError, ConversionError
from .filter_syntax import parse_metadata_filters as parse_metadata_filters
from .index_settings import document_index_settings, record_index_settings
from .ingest_support import (
    Prefetch,
    failed_files,
    ingest_files,
    save_failed_files,
    skip_failed_unchanged,
    skip_unfinished,
)
from .models import Chunk, DefinitionEntry, IngestReport, RecordResult, SearchResults, SectionPage
from .paging import DEFAULT_MAX_CHARS, check_max_chars, cut_page
from .progress import IngestProgress
from .passage import SentenceMemo
from .passage_list import SentenceVectors, list_candidates, short_list_notice
from .results import as_passage_list, assemble_results, rerank_results, with_pages
from .search import QueryError, SearchTiming, run_search
from .section_lookup import check_window, neighbour_window, read_section, section_chunks
from .store.base import write_document_entry
from .structure.definition_conflicts import definition_conflicts
from .telemetry import span
from .tool_base import BaseTool as BaseTool
from .tool_base import ProgressFn as ProgressFn


class HierarchicalDocumentTool(BaseTool):
    """Search over a folder of documents along their structure."""

    cfg: HierarchicalDocumentToolConfig

    def __init__(self, cfg: HierarchicalDocumentToolConfig, base_dir: str | Path):
        super().__init__(cfg, base_dir)
        self._contextualizer = None
        self._reranker = None
        # Set for a vectorstore tool's unstructured mode: its config, whose record files (CSV /
        # JSON / JSONL) are read as documents too, one section per record (HoloDeck reads them as text).
        self.record_files: VectorstoreToolConfig | None = None
        self._ocr_settings = None
        self._on_ocr_page = None  # set while ingesting: per-page progress of OCR
        self._sentences = SentenceVectors()  # passage searches' sentence vectors, reused across searches

    def _index_settings(self) -> dict:
        return document_index_settings(self.cfg, self._holodeck_units)

    @property
    def _holodeck_units(self) -> bool:
        """A vectorstore tool's own ``chunk_size``: HoloDeck's unit (:func:`~docstrata.chunking.holodeck_tokens`)."""
        return self.record_files is not None and self.record_files.chunk_size is not None

    @property
    def contextualizer(self):
        """The tool's contextualizer, made on first use from its config (an LLM one caches its
        contexts beside an embedded index)."""
        if self._contextualizer is None:
            from .context import make_contextualizer

            cache_dir = None
            if self.cfg.database.provider == "embedded":
                cache_dir = self.base_dir / ".docstrata" / self.name
            self._contextualizer = make_contextualizer(self.cfg, cache_dir=cache_dir)
        return self._contextualizer

    @property
    def reranker(self):
        """The :class:`~docstrata.rerank.Reranker` when ``enable_reranking`` is on, else ``None``."""
        if self._reranker is None and self.cfg.enable_reranking:
            from .rerank import Reranker

            try:
                self._reranker = Reranker(self.cfg.reranker_model, base_dir=self.base_dir)
            except ConfigError as e:
                raise at_user_path(e, self.cfg, f"{self.cfg.yaml_path}.reranker_model") from None
        return self._reranker

    # ------------------------------------------------------------------ ingest
    def _ingest_locked(
        self, force: bool = False, progress: ProgressFn | None = None, verify: bool = False
    ) -> IngestReport:
        """Bring the index in line with the files under ``source`` (the caller holds the ingest lock).

        Only added and changed files are converted and embedded; removed files are purged.
        A file that fails to convert is reported in ``IngestReport.skipped`` and skipped.
        Raises :class:`~docstrata.errors.SourceError` if ``source`` does not exist.
        """
        from .config import RECORD_EXTENSIONS
        from .formats import SUPPORTED_EXTENSIONS

        t0 = time.perf_counter()
        report = IngestReport(tool=self.name)
        extensions = SUPPORTED_EXTENSIONS | (RECORD_EXTENSIONS if self.record_files is not None else frozenset())
        with self._lock, span("hierarchical_document.ingest", **{"tool.name": self.name}) as root:
            store = self.store
            changes = self._sync_file_states(report, extensions, force, verify)
            failed = failed_files(store, changes.to_process)
            todo = skip_failed_unchanged(failed, changes.to_process, force, report)
            todo, unfinished = skip_unfinished(store, todo, getattr(self, "_implicit", False))
            report.skipped += unfinished
            tracker = IngestProgress(progress, len(todo)) if progress else None
            self._on_pages = tracker.pages if tracker else None
            self._on_ocr_page = tracker.ocr_page if tracker else None
            parsed = Prefetch(
                self._parse_file, todo, overlap=len(todo) > 1 and getattr(self.embedder, "backend", "remote") != "torch"
            )

            def one(i: int, sf) -> tuple[int, int]:
                if tracker:
                    tracker.file(i, sf.doc_key, report.chunks)
                return self._ingest_file(sf, report, parsed.get(i), tracker.chunks if tracker else None)

            ingest_files(store, todo, changes.added, report, one, failed)
            self._on_pages = None
            self._on_ocr_page = None
            if progress:
                progress(len(todo), len(todo), "done")
            with span("store"):
                store.flush()
            self._finish_ingest(report)
            save_failed_files(store, failed)
            if todo:  # a no-op ingest does not repeat the warnings of the ingest that brought the files in
                from .index.exact import term_key

                report.warnings += definition_conflicts(self.store.definitions(), term_key, {sf.doc_key for sf in todo})
            if root is not None:
                root.set_attribute("ingest.chunk_count", report.chunks)
                root.set_attribute("ingest.file_count", len(todo))
                # the contextualizer exists once a file was processed; a no-op ingest never imports it
                root.set_attribute("ingest.context_model", getattr(self._contextualizer, "name", ""))
        report.elapsed_s = time.perf_counter() - t0
        self._ready = True
        return report

    def _parse_file(self, sf):
        """One file through :func:`~docstrata.pipeline.parse_file` with this tool's settings (runs
        one file ahead of the embedder on a worker thread, see :class:`Prefetch`)."""
        from .pipeline import parse_file

        return parse_file(sf, self.pipeline_settings())

    def pipeline_settings(self):
        """The :class:`~docstrata.pipeline.PipelineSettings` this tool's ingest parses a file with:
        its chunking, extraction and limits, its OCR and converters, its token count (the embedder's
        tokenizer, loaded here; HoloDeck's characters / 4 where the config asks for them)."""
        from .pipeline import PipelineSettings

        count_tokens = self.embedder.count_tokens  # loaded before the conversion timer starts
        if self._holodeck_units:
            from .chunking import holodeck_tokens

            count_tokens = holodeck_tokens
        return PipelineSettings.from_config(
            self.cfg, count_tokens, on_pages=getattr(self, "_on_pages", None), convert=self._convert
        )

    def _convert(self, sf):
        """The file as a :class:`~docstrata.models.Document`: :func:`~docstrata.convert.convert_file`,
        or, for a record file of a vectorstore tool in unstructured mode, its records as sections."""
        from .config import RECORD_EXTENSIONS
        from .convert import convert_file

        ext = Path(sf.doc_key).suffix.lower().lstrip(".")
        if self.record_files is None or ext not in RECORD_EXTENSIONS:
            return convert_file(sf, self._ocr())
        from .records import records_as_document

        return records_as_document(sf, self.record_files)

    def _ocr(self):
        """OCR settings for one file (:mod:`docstrata.convert.ocr`): the tool's ``ocr`` config, its
        cache beside the index, per-page progress, and the file's conversion deadline."""
        from dataclasses import replace

        from .convert.ocr import OcrSettings, ocr_cache_dir

        if self._ocr_settings is None:
            self._ocr_settings = OcrSettings.from_config(
                self.cfg.ocr, ocr_cache_dir(self.cfg.database.provider, self.base_dir / ".docstrata" / self.name)
            )
        return replace(
            self._ocr_settings, on_page=self._on_ocr_page, deadline=time.monotonic() + self.cfg.limits.max_conversion_s
        )

    def _ingest_file(self, sf, report: IngestReport, parsed=None, on_chunks=None) -> tuple[int, int]:
        from .context import contextualize_into
        from .index.exact import chunk_exact_keys, resolve_external_references
        from .store import StoredChunk
        from .structure.xrefs import document_kinds, kind_of_name, self_defined_names

        cfg = self.cfg
        parsed = parsed if parsed is not None else self._parse_file(sf)
        doc, tree, chunks, definitions = parsed.document, parsed.tree, parsed.chunks, parsed.definitions
        report.warnings += [f"{sf.doc_key}: {w}" for w in doc.warnings]
        if not chunks:
            raise ConversionError(sf.doc_key, "no text found after conversion")
        for c in chunks:
            if c.oversized:
                report.warnings.append(
                    f"{c.chunk_id}: one indivisible unit ({c.token_count} tokens) exceeds "
                    f"max_chunk_tokens={cfg.max_chunk_tokens}"
                )
        contextualize_into(self.contextualizer, doc, chunks, report)
        vectors = self._embed([(c.context, c.content) for c in chunks], report, on_chunks)
        resolve_external_references(self.store, chunks)  # against the documents indexed so far (search retries)
        kinds = document_kinds(tree)  # "the Agreement" of another document may name this one
        names = [n for n in self_defined_names(tree) if kind_of_name(n) is None]  # and "the Framework Terms"
        stored = [
            StoredChunk(c, v, chunk_exact_keys(c, doc.title, sf.doc_key, kinds, names)) for c, v in zip(chunks, vectors)
        ]
        with span("store", **{"ingest.chunk_count": len(stored)}):
            self.store.replace_document(sf.doc_key, sf.state, stored, definitions)
        entry, new_warnings = ingested_entry(tree, doc, len(chunks), cfg.embedding_model)
        report.warnings += [f"{sf.doc_key}: {w}" for w in new_warnings]
        write_document_entry(self.store, entry)
        return len(chunks), len(definitions)

    # ------------------------------------------------------------------ search
    def search(
        self,
        query: str,
        top_k: int | None = None,
        mode: str | None = None,
        *,
        document: str | list[str] | None = None,
        section: str | None = None,
        filters: dict | None = None,
        min_similarity_score: float | None = None,
        min_fused_score: float | None = None,
        min_score: float | None = None,
        timing: SearchTiming | None = None,
        min_relative_score: float | None = None,
        passages: bool = False,
    ) -> SearchResults:
        """Hybrid (or single-mode) search. Returns at most ``top_k`` results, best first, as
        :class:`~docstrata.models.SearchResults` (a list with ``confidence``, ``definitions``, ``notices``).

        Filters, applied inside the store before ranking: ``document`` (doc key, file name, stem or
        path suffix; a list = any of them), ``section`` (a section id prefix such as ``4.2`` or
        ``article-17``, or a cited form such as ``Section 4.2``), ``filters`` (record metadata; for a
        vectorstore tool). Thresholds: ``min_similarity_score`` (alias ``min_score``, HoloDeck's
        names) on the cosine of query and hit; ``min_fused_score`` on the fused RRF score;
        ``min_relative_score`` a share (0–1] of the best hit's fused score, the relevance cut-off
        (:func:`~docstrata.search.relevant_hits`); defaults from the tool's config; none drops a
        pinned hit. ``passages``: the results are the best passages of the candidate chunks rather
        than the chunks (:func:`~docstrata.results.as_passage_list`; a chunk may give several, each
        cited to its own section), searched among at least :data:`~docstrata.passage_list.LIST_CANDIDATES`
        chunks.

        Raises :class:`~docstrata.search.QueryError` for an empty query, ``top_k`` outside
        1–100, an unknown mode, an unknown document, a bad filter or threshold.
        """
        if filters:  # documents' chunks have no record fields: every hit would be filtered out, silently
            raise QueryError(
                f"filters apply to record fields; tool '{self.name}' holds documents (narrow with document and section)"
            )
        self.ensure_ready()
        cfg = self.cfg
        settings = self._settings(min_similarity_score, min_fused_score, min_score, min_relative_score)
        flt = self._make_filter(document, section, filters)
        k = cfg.top_k if top_k is None else top_k
        depth = k
        if self.reranker is not None and 1 <= k <= 100:  # rerank a deeper candidate list
            from .rerank import candidate_depth

            depth = candidate_depth(k)
        if passages:
            depth = max(depth, list_candidates())
        mode = mode or cfg.search_mode
        run = run_search(
            self.store, self.embed_query, query, mode=mode, top_k=depth, settings=settings, timing=timing, flt=flt
        )
        if not run.hits and flt is not None and flt.section is not None:  # a section no chunk is in?
            scoping.check_section(self.store, flt.section, section, flt.doc_keys, self.name)
        encode = lambda texts: self.embedder.encode(texts)  # noqa: E731 - loads the model only if called
        # a passage search splits each hit into sentences once, for its citation and for the passage list
        memo = SentenceMemo(run.asked or query) if passages else None
        results, used = assemble_results(self.store, run, query, encode, cfg.passage_semantic_weight, memo)
        if self.reranker is not None:
            results, used = rerank_results(self.reranker, query, results, depth if passages else k, run, used)
        if passages:
            results, used = as_passage_list(
                self.store, run, results, query, k, used, encode, vectors=self._sentences, memo=memo
            )
        self._ready &= not run.vectors_lost  # the next call's implicit ingest embeds them again
        notices = self._notices(run, settings, min_similarity_score, min_score, min_fused_score, min_relative_score)
        if passages and results and (short := short_list_notice(len(results), k)):
            notices.append(short)
        return SearchResults(
            results, self._confidence(results, run, query, mode), with_pages(self.store, list(used.values())), notices
        )

    async def asearch(self, query: str, **kw) -> SearchResults:
        """:meth:`search` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.search, query, **kw)

    def get_section(
        self,
        document: str,
        section_id: str | None = None,
        *,
        max_chars: int | None = DEFAULT_MAX_CHARS,
        cursor: str | None = None,
    ) -> SectionPage:
        """One page (at most ``max_chars`` characters; ``None`` = no limit) of section
        ``section_id`` of ``document``, its subsections included, in document order; without
        ``section_id``, of the whole document. ``cursor`` (from the previous page's
        ``next_cursor``) continues where that page stopped. ``document`` is a doc_key (a unique
        suffix, file name or stem also works); the id may be an alias as cited (``Section 4.2``)
        or a heading title only one section has (``Introduction``, case-insensitive, with or
        without its number). The page iterates as its chunks.

        Raises :class:`QueryError` if the document or section does not exist, a title names
        several sections (their ids are listed), ``max_chars`` is outside 200–1,000,000, or the
        cursor is not valid for this text.
        """
        check_max_chars(max_chars)
        self.ensure_ready()
        doc_key = self.resolve_document(document)
        return read_section(self.store.document_chunks(doc_key), doc_key, section_id, max_chars, cursor)

    async def aget_section(self, document: str, section_id: str | None = None, **kw) -> SectionPage:
        """:meth:`get_section` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.get_section, document, section_id, **kw)

    def cited_by(self, document: str, section_id: str, *, limit: int = 20, cursor: str | None = None):
        """One page of the sections that cite section ``section_id`` of ``document`` (or a part
        of it), within the document and across the documents this tool holds, as a
        :class:`~docstrata.citers.CitedByPage` (own document first; ``next_cursor`` reads on).
        ``document`` and ``section_id`` are read as :meth:`get_section` reads them (``Article 17``).
        Raises :class:`QueryError` for an unknown document or section, a ``limit`` outside 1–200
        or a cursor issued for another section."""
        from .citers import cited_by, citer_page

        self.ensure_ready()
        doc_key = self.resolve_document(document)
        _, sid, notice = section_chunks(self.store.document_chunks(doc_key), doc_key, section_id)
        return citer_page(cited_by(self.store, doc_key, sid), doc_key, sid, limit, cursor, notice)

    async def acited_by(self, document: str, section_id: str, **kw):
        """Async twin of :meth:`cited_by` (runs it in a worker thread)."""
        return await asyncio.to_thread(self.cited_by, document, section_id, **kw)

    def neighbours(self, chunk_id: str, before: int = 1, after: int = 1) -> list[Chunk]:
        """The chunk ``chunk_id`` with up to ``before`` chunks before it and ``after`` after it in
        its document, in document order. Raises :class:`QueryError` for an unknown chunk id or a
        count outside 0–20."""
        check_window(before, after)
        self.ensure_ready()
        found = self.store.get_chunks([chunk_id])
        if not found:
            raise QueryError(
                f"no chunk {chunk_id!r} in tool '{self.name}' (ids look like 'doc.md#12', as search results show them)"
            )
        return neighbour_window(self.store.document_chunks(found[0].doc_key), chunk_id, before, after)

    async def aneighbours(self, chunk_id: str, before: int = 1, after: int = 1) -> list[Chunk]:
        """:meth:`neighbours` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.neighbours, chunk_id, before, after)

    def get_definition(self, term: str, document: str | None = None) -> list[DefinitionEntry]:
        """Definitions of ``term`` (case-insensitive), each document's in document order: one per
        scope it is defined for (``DefinitionEntry.scope``: ``None`` for the whole document, else
        the section whose subtree it governs, "In this title" → that title). A plural or possessive
        finds the singular's ("Business Days" → "Business Day") when ``term`` itself is not defined
        (:func:`~docstrata.index.exact.singular_term_keys`)."""
        from .term_lookup import definitions_of

        self.ensure_ready()
        doc_key = self.resolve_document(document) if document else None
        return with_pages(self.store, definitions_of(self.store, term, doc_key))

    def similar_terms(self, term: str, document: str | None = None) -> list[str]:
        """Defined terms close to ``term`` (:func:`~docstrata.term_lookup.similar_terms`), for a
        :meth:`get_definition` that found nothing; within ``document`` when given."""
        from .term_lookup import similar_terms

        doc_key = self.resolve_document(document) if document else None
        return similar_terms(term, [d.term for d in self.store.definitions(doc_key=doc_key)])

    async def aget_definition(self, term: str, document: str | None = None) -> list[DefinitionEntry]:
        """:meth:`get_definition` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.get_definition, term, document)


class VectorstoreTool(BaseTool):
    """Structured records upserted by id (or documents, without ``vector_field``)."""

    cfg: VectorstoreToolConfig

    def _index_settings(self) -> dict:
        return record_index_settings(self.cfg)

    @property
    def records_mode(self) -> bool:
        """Whether this tool holds records: ``cfg.structured``, unless ``source`` is a folder with
        documents and no record file at all (HoloDeck reads such a folder as text whatever
        ``vector_field`` says; the HoloDeck tools guide's ``search-docs`` example is one). Settled
        on first use."""
        if getattr(self, "_records_mode", None) is None:
            self._records_mode = self.cfg.structured and not self._documents_only()
        return self._records_mode

    def _documents_only(self) -> bool:
        from .records.ingest import documents_only

        return documents_only(self.cfg.source, self.base_dir)

    def _document_tool(self) -> HierarchicalDocumentTool:
        """HoloDeck's unstructured mode: the document pipeline on this tool's store."""
        from .records.ingest import document_config

        tool = HierarchicalDocumentTool(document_config(self.cfg), self.base_dir)
        tool._embedder, tool._store = self._embedder, self._store
        tool.record_files = self.cfg
        return tool

    def _ingest_locked(
        self, force: bool = False, progress: ProgressFn | None = None, verify: bool = False
    ) -> IngestReport:
        """Load records from every CSV / JSON / JSONL file under ``source`` and upsert them by id.

        Unchanged files are skipped; in a changed file, changed rows are re-embedded, unchanged
        rows come from the embedding cache, rows gone from the file are deleted. A file with a
        configuration error (missing field, duplicate ids) is reported and skipped.
        """
        if not self.records_mode:
            tool = self._document_tool()
            tool._embedder, tool._store = self.embedder, self.store
            tool._implicit = getattr(self, "_implicit", False)
            report = tool._ingest_locked(force=force, progress=progress, verify=verify)
            if self.cfg.structured and report.added + report.updated:
                given = [
                    k for k in ("id_field", "vector_field", "vector_fields", "meta_fields") if getattr(self.cfg, k)
                ]
                report.warnings.append(
                    f"{', '.join(given)} name record fields; source {self.cfg.source!r} holds "
                    "documents only, read as documents (as HoloDeck reads them)"
                )
            return report
        from .records import SUPPORTED_RECORD_EXTENSIONS
        from .records.ingest import ingest_record_file

        t0 = time.perf_counter()
        report = IngestReport(tool=self.name)
        with self._lock, span("vectorstore.ingest", **{"tool.name": self.name}):
            store = self.store
            changes = self._sync_file_states(report, SUPPORTED_RECORD_EXTENSIONS, force, verify)
            todo, report.skipped[len(report.skipped) :] = skip_unfinished(
                store, changes.to_process, getattr(self, "_implicit", False)
            )

            def one(i: int, sf) -> tuple[int, int] | None:
                if progress:
                    progress(i, len(todo), sf.doc_key)
                return (0, 0) if ingest_record_file(store, sf, self.cfg, self._embed, report) else None

            ingest_files(store, todo, changes.added, report, one)
            store.flush()
            self._finish_ingest(report)
        report.chunks = report.records
        report.elapsed_s = time.perf_counter() - t0
        self._ready = True
        return report

    def search(
        self,
        query: str,
        top_k: int | None = None,
        mode: str | None = None,
        *,
        document: str | list[str] | None = None,
        filters: dict | None = None,
        section: str | None = None,
        min_similarity_score: float | None = None,
        min_fused_score: float | None = None,
        min_score: float | None = None,
        timing: SearchTiming | None = None,
    ) -> SearchResults:
        """Search over records (hybrid by default; ``mode`` as for documents), best first.

        ``filters`` on the records' metadata fields (``{"category": "shoes", "price": {"lt": 50}}``;
        see :func:`~docstrata.filter_syntax.parse_metadata_filters`) and ``document`` (source file) apply inside the store
        before ranking. ``min_similarity_score`` (default: the config's; alias ``min_score``) is
        the cosine of query and record; ``min_fused_score`` the fused RRF score. A record whose id
        or a metadata value equals the whole query is pinned first and never dropped.
        """
        from .records.ingest import check_filter_fields, document_hits_as_records, record_result

        self.ensure_ready()
        cfg = self.cfg
        settings = self._settings(min_similarity_score, min_fused_score, min_score)
        if not self.records_mode:
            found = self._document_tool().search(
                query,
                top_k=top_k,
                mode=mode,
                document=document,
                section=section,
                filters=filters,
                min_similarity_score=settings.min_similarity_score,
                min_fused_score=settings.min_fused_score,
                timing=timing,
            )
            return SearchResults(document_hits_as_records(found), found.confidence, found.definitions, found.notices)
        if section:
            raise QueryError("section filters apply to documents; this tool holds records (use filters on fields)")
        check_filter_fields(cfg, self.name, filters)
        flt = self._make_filter(document, None, filters)
        run = run_search(
            self.store,
            self.embed_query,
            query,
            mode=mode or "hybrid",
            top_k=cfg.top_k if top_k is None else top_k,
            settings=settings,
            timing=timing,
            flt=flt,
        )
        results = [
            record_result(
                h.chunk, h.score, h.fused.scores, "exact" in h.fused.ranks, h.similarity, h.pinned, fused=h.fused.score
            )
            for h in run.hits
        ]
        self._ready &= not run.vectors_lost  # the next call's implicit ingest embeds them again
        notices = self._notices(run, settings, min_similarity_score, min_score, min_fused_score)
        return SearchResults(
            results,
            self._confidence(results, run, query, mode or "hybrid"),
            [],
            notices,
        )

    async def asearch(self, query: str, **kw) -> SearchResults:
        """:meth:`search` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.search, query, **kw)

    def get_record(
        self, record_id: str, *, max_chars: int | None = DEFAULT_MAX_CHARS, cursor: str | None = None
    ) -> RecordResult:
        """The record with id ``record_id`` (ids match case-insensitively when not exact), its
        content cut to ``max_chars`` (``None`` = no limit) with ``next_cursor`` to read on from
        ``cursor``. Its ``score`` is ``None``: it was fetched, not ranked.
        Raises :class:`QueryError` if there is none, or for a bad ``max_chars`` / cursor."""
        check_max_chars(max_chars)
        self.ensure_ready()
        from .records.ingest import find_record, record_result

        found = find_record(self.store, record_id)
        if found is None:
            raise QueryError(f"no record with id {record_id!r} in tool '{self.name}'")
        r = record_result(found, None, {}, True)
        text = r.content
        start, end, r.next_cursor = cut_page(text, f"record:{r.id}", max_chars, cursor)
        r.content, r.content_chars = text[start:end], len(text)
        r.truncated = start > 0 or end < len(text)
        return r

    async def aget_record(self, record_id: str, **kw) -> RecordResult:
        """:meth:`get_record` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.get_record, record_id, **kw)


Tool = HierarchicalDocumentTool | VectorstoreTool


def build_tool(cfg, base_dir: str | Path) -> Tool:
    """The tool object for one validated tool config."""
    if isinstance(cfg, HierarchicalDocumentToolConfig):
        return HierarchicalDocumentTool(cfg, base_dir)
    return VectorstoreTool(cfg, base_dir)


class Toolset:
    """The tools of one agent.yaml, by name: ``docstrata.open("agent.yaml")["policies"]``."""

    def __init__(self, config: AgentConfig):
        self.config = config
        self.tools: dict[str, Tool] = {t.name: build_tool(t, config.base_dir) for t in config.tools}

    def __getitem__(self, name: str) -> Tool:
        if name not in self.tools:
            raise KeyError(f"no tool {name!r}; configured: {', '.join(self.tools) or 'none'}")
        return self.tools[name]

    def __iter__(self):
        return iter(self.tools.values())

    def __len__(self) -> int:
        return len(self.tools)

    def close(self) -> None:
        """Close every tool's store."""
        for t in self.tools.values():
            t.close()

    def __enter__(self) -> "Toolset":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
