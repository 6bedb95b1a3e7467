"""The tools a user configures, and the only place that wires pipeline stages together.

``HierarchicalDocumentTool``: sources → convert → structure → chunking → context → embed → store,
and search with citations and definitions. ``VectorstoreTool``: records (CSV / JSON / JSONL)
upserted by id, or — without ``vector_field`` — documents, as in HoloDeck's unstructured mode.
Both are thread-safe for concurrent searches and ingest once under concurrent first use.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path
from typing import Callable

from .config import AgentConfig, HierarchicalDocumentToolConfig, VectorstoreToolConfig
from .errors import ConversionError, RecordError
from .index.keyword import ANALYSIS_VERSION
from .models import (Chunk, DefinitionEntry, FileState, IngestReport, RecordResult, SearchResult, SkippedFile,
                     sha256_text)
from .search import QueryError, SearchSettings, SearchTiming, definitions_used, run_search
from .telemetry import span

log = logging.getLogger("docstrata")

# Called as progress(done, total, description) while ingesting.
ProgressFn = Callable[[int, int, str], None]

_EMBED_BATCH = 64


def _ignored_notice(ignored: list[str]) -> list[str]:
    """One line naming the unsupported file types found under the source, if any."""
    if not ignored:
        return []
    by_ext: dict[str, int] = {}
    for key in ignored:
        ext = Path(key).suffix.lower() or "(no extension)"
        by_ext[ext] = by_ext.get(ext, 0) + 1
    kinds = ", ".join(f"{ext} ({n})" for ext, n in sorted(by_ext.items()))
    hint = ""
    if any(ext.lstrip(".") in ("csv", "tsv", "json", "jsonl", "ndjson") for ext in by_ext):
        hint = "; CSV / JSON / JSONL files are loaded as records by a vectorstore tool with id_field and vector_field"
    return [f"ignored {len(ignored)} file(s) of unsupported types: {kinds}{hint}"]


class _BaseTool:
    """What both tool types share: lazy embedder and store, embedding with a cache, ingest lock."""

    def __init__(self, cfg, base_dir: str | Path):
        self.cfg = cfg
        self.name = cfg.name
        self.base_dir = Path(base_dir)
        self._embedder = None
        self._store = None
        self._lock = threading.RLock()
        self._ready = False

    @property
    def embedder(self):
        if self._embedder is None:
            with self._lock:
                if self._embedder is None:
                    from .embed import Embedder

                    self._embedder = Embedder(self.cfg.embedding_model, self.cfg.embedding_dimensions,
                                              backend=getattr(self.cfg, "embedding_backend", "auto"))
        return self._embedder

    @property
    def store(self):
        if self._store is None:
            with self._lock:
                if self._store is None:
                    from .store import open_store

                    self._store = open_store(self.cfg.database, self.name, self.base_dir, self.dim)
        return self._store

    @property
    def dim(self) -> int:
        """Vector size, known without loading the model where possible (fast re-ingest and start-up)."""
        from .embed import model_dimension

        if self._embedder is not None:
            return self._embedder.dim
        return self.cfg.embedding_dimensions or model_dimension(self.cfg.embedding_model) or self.embedder.dim

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # ---- fingerprint of the settings an index was built with
    def _index_settings(self) -> dict:
        raise NotImplementedError

    def _settings_changed(self) -> bool:
        want = json.dumps(self._index_settings(), sort_keys=True)
        have = self.store.get_meta("index_settings")
        return have is not None and have != want

    def _save_settings(self) -> None:
        self.store.set_meta("index_settings", json.dumps(self._index_settings(), sort_keys=True))

    def _embed(self, items: list[tuple[str, str]], report: IngestReport):
        """Vectors for (context, content) pairs, from the cache where possible."""
        model_id = self.embedder.model_id
        keys = [sha256_text(f"{ctx}\n\n{content}") for ctx, content in items]
        cached = self.store.cached_vectors(model_id, list(dict.fromkeys(keys)))
        missing = [i for i, k in enumerate(keys) if k not in cached]
        fresh: dict[str, object] = {}
        for start in range(0, len(missing), _EMBED_BATCH):
            idx = [i for i in missing[start:start + _EMBED_BATCH] if keys[i] not in fresh]
            with span("embed_batch", **{"embed.batch_size": len(idx)}):
                vecs = self.embedder.embed_chunks([items[i] for i in idx])
            batch = {keys[i]: v for i, v in zip(idx, vecs)}
            # Cached per batch, so an interrupted ingest resumes without re-embedding what it had done.
            self.store.cache_vectors(model_id, batch)
            fresh.update(batch)
            report.embedded += len(batch)
        return [cached.get(k) if k in cached else fresh[k] for k in keys]

    def ensure_ready(self, progress: ProgressFn | None = None) -> IngestReport | None:
        """Open the index; ingest first if it is empty or stale. Concurrent callers ingest once."""
        if self._ready:
            return None
        with self._lock:
            if self._ready:
                return None
            report = self.ingest(progress=progress)
            self._ready = True
            return report

    def _sync_file_states(self, report: IngestReport, extensions: frozenset[str], force: bool):
        """Compare the source with the stored file states: purge removed files, record
        mtime-only changes, count everything in ``report``; returns the ChangeSet."""
        from .sources import scan

        store = self.store
        if not force and self._settings_changed():
            report.warnings.append("index settings changed since the last ingest: rebuilding every file")
            force = True
        changes = scan(self.cfg.source, self.base_dir, store.file_states(), extensions, force=force)
        for sf in changes.touched:  # bytes identical, only mtime moved
            store.set_file_state(sf.doc_key, sf.state)
        report.files_total = len(changes.added) + len(changes.changed) + len(changes.unchanged) + len(changes.touched)
        report.unchanged = len(changes.unchanged) + len(changes.touched)
        report.skipped += [SkippedFile(k, r) for k, r in changes.unreadable]
        report.warnings += _ignored_notice(changes.ignored)
        for doc_key in changes.removed:
            store.delete_document(doc_key)
            report.removed += 1
        return changes

    async def aingest(self, **kw) -> IngestReport:
        return await asyncio.to_thread(self.ingest, **kw)

    def ingest(self, force: bool = False, progress: ProgressFn | None = None) -> IngestReport:
        raise NotImplementedError


class HierarchicalDocumentTool(_BaseTool):
    """Search over a folder of documents along their structure."""

    cfg: HierarchicalDocumentToolConfig

    def __init__(self, cfg: HierarchicalDocumentToolConfig, base_dir: str | Path):
        super().__init__(cfg, base_dir)
        self._contextualizer = None
        self._reranker = None

    def _index_settings(self) -> dict:
        c = self.cfg
        return {"chunking_strategy": c.chunking_strategy, "max_chunk_tokens": c.max_chunk_tokens,
                "chunk_overlap": c.chunk_overlap, "embedding_model": c.embedding_model,
                "contextual_embeddings": c.contextual_embeddings,
                "context_model": c.context_model.model_dump() if c.context_model else None,
                "context_max_tokens": c.context_max_tokens, "extract_definitions": c.extract_definitions,
                "extract_cross_references": c.extract_cross_references, "pipeline": 4, "analysis": ANALYSIS_VERSION}

    @property
    def contextualizer(self):
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

            self._reranker = Reranker(self.cfg.reranker_model, base_dir=self.base_dir)
        return self._reranker

    # ------------------------------------------------------------------ ingest
    def ingest(self, force: bool = False, progress: ProgressFn | None = None) -> IngestReport:
        """Bring the index in line with the files under ``source``.

        Only added and changed files are converted and embedded; removed files are purged.
        A file that fails to convert is reported in ``IngestReport.skipped`` and skipped.
        Raises :class:`~docstrata.errors.SourceError` if ``source`` does not exist.
        """
        from .convert import SUPPORTED_EXTENSIONS

        t0 = time.perf_counter()
        report = IngestReport(tool=self.name)
        with self._lock, span("hierarchical_document.ingest", **{"tool.name": self.name}) as root:
            store = self.store
            changes = self._sync_file_states(report, SUPPORTED_EXTENSIONS, force)
            todo = changes.to_process
            parsed = _Prefetch(self._parse_file, todo, overlap=len(todo) > 1 and self.embedder.backend != "torch")
            t_start = time.perf_counter()
            for i, sf in enumerate(todo):
                if progress:
                    progress(i, len(todo), _progress_note(sf.doc_key, i, len(todo), report.chunks, t_start))
                try:
                    n_chunks, n_defs = self._ingest_file(sf, report, parsed.get(i))
                except ConversionError as e:
                    report.skipped.append(SkippedFile(sf.doc_key, e.reason))
                    if sf.doc_key in store.file_states():  # a file that became unreadable leaves the index
                        store.delete_document(sf.doc_key)
                    continue
                if sf in changes.added:
                    report.added += 1
                else:
                    report.updated += 1
                report.chunks += n_chunks
                report.definitions += n_defs
            if progress:
                progress(len(todo), len(todo), "done")
            with span("store"):
                store.flush()
            self._save_settings()
            report.chunks_total = store.count()
            report.warnings += self._definition_conflicts()
            if root is not None:
                root.set_attribute("ingest.chunk_count", report.chunks)
                root.set_attribute("ingest.file_count", len(todo))
                root.set_attribute("ingest.context_model", getattr(self.contextualizer, "name", ""))
        report.elapsed_s = time.perf_counter() - t0
        self._ready = True
        return report

    def _parse_file(self, sf):
        """Convert, parse and chunk one file: (document, tree, chunks). Runs one file ahead of the
        embedder on a worker thread (see :class:`_Prefetch`)."""
        from .chunking import chunk_tree
        from .convert import convert_file
        from .structure import build_tree

        cfg = self.cfg
        with span("parse", **{"document": sf.doc_key}):
            doc = convert_file(sf)
            tree = build_tree(doc, extract_definitions=cfg.extract_definitions,
                              extract_cross_references=cfg.extract_cross_references)
            chunks = chunk_tree(tree, count_tokens=self.embedder.count_tokens, max_tokens=cfg.max_chunk_tokens,
                                overlap=cfg.chunk_overlap, strategy=cfg.chunking_strategy)
        return doc, tree, chunks

    def _ingest_file(self, sf, report: IngestReport, parsed=None) -> tuple[int, int]:
        from .index.exact import alias_keys, term_key
        from .store import StoredChunk

        cfg = self.cfg
        doc, tree, chunks = parsed if parsed is not None else self._parse_file(sf)
        report.warnings += [f"{sf.doc_key}: {w}" for w in doc.warnings]
        if not chunks:
            raise ConversionError(sf.doc_key, "no text found after conversion")
        for c in chunks:
            if c.oversized:
                report.warnings.append(f"{c.chunk_id}: one indivisible unit ({c.token_count} tokens) exceeds "
                                       f"max_chunk_tokens={cfg.max_chunk_tokens}")
        with span("contextualize_batch", **{"ingest.chunk_count": len(chunks)}):
            stats = self.contextualizer.contextualize(doc, chunks)
            report.warnings += getattr(stats, "warnings", [])
            for key in ("llm_calls", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
                        "cache_hits", "failures", "estimated_cost_usd"):
                if hasattr(stats, key):
                    report.llm[key] = report.llm.get(key, 0) + getattr(stats, key)
        vectors = self._embed([(c.context, c.content) for c in chunks], report)
        defined_in = {}
        for c in chunks:
            for term in c.definitions:
                defined_in.setdefault(term_key(term), c.chunk_id)
        definitions = []
        for d in tree.definitions:
            d.doc_key = sf.doc_key
            d.chunk_id = d.chunk_id or defined_in.get(term_key(d.term))
            definitions.append(d)
        by_id = {s.section_id: s for s in tree.sections}
        for c in chunks:  # ancestors let get_section return a section with all its subsections
            ancestors, node = [], by_id.get(c.section_id)
            while node is not None and node.parent_id:
                ancestors.append(node.parent_id)
                node = by_id.get(node.parent_id)
            c.metadata["ancestors"] = ancestors
        stored = []
        for c, v in zip(chunks, vectors):
            keys: list[tuple[str, int]] = []
            for alias in c.aliases:
                for j, key in enumerate(alias_keys(alias)):
                    keys.append((key, j))
            keys += [(term_key(t), 1) for t in c.definitions]
            stored.append(StoredChunk(c, v, list(dict.fromkeys(keys))))
        with span("store", **{"ingest.chunk_count": len(stored)}):
            self.store.replace_document(sf.doc_key, sf.state, stored, definitions)
        return len(chunks), len(definitions)

    def _definition_conflicts(self) -> list[str]:
        from .index.exact import term_key

        by_term: dict[str, dict[str, str]] = {}
        for d in self.store.definitions():
            by_term.setdefault(term_key(d.term), {}).setdefault(d.doc_key, " ".join(d.definition.split()))
        out = []
        for key, per_doc in by_term.items():
            if len(set(per_doc.values())) > 1:
                docs = ", ".join(sorted(per_doc))
                out.append(f"term '{key.removeprefix('term:')}' is defined differently in: {docs} (kept separate)")
        return out

    # ------------------------------------------------------------------ search
    def search(self, query: str, top_k: int | None = None, mode: str | None = None,
               min_score: float | None = None, timing: SearchTiming | None = None) -> list[SearchResult]:
        """Hybrid (or single-mode) search. Returns at most ``top_k`` results, best first.

        Raises :class:`~docstrata.search.QueryError` for an empty query, ``top_k`` outside
        1–100 or an unknown mode.
        """
        self.ensure_ready()
        cfg = self.cfg
        settings = SearchSettings(cfg.semantic_weight, cfg.keyword_weight, cfg.exact_weight, cfg.rrf_k,
                                  min_score=cfg.min_score if min_score is None else min_score)
        k = cfg.top_k if top_k is None else top_k
        depth = k
        if self.reranker is not None and 1 <= k <= 100:  # rerank a deeper candidate list
            from .rerank import candidate_depth

            depth = candidate_depth(k)
        hits = run_search(self.store, self.embedder.embed_query, query, mode=mode or cfg.search_mode,
                          top_k=depth, settings=settings, timing=timing)
        results = []
        doc_defs: dict[str, list] = {}  # each document's definitions read once per answer
        for h in hits:
            c, f = h.chunk, h.fused
            if c.doc_key not in doc_defs:
                doc_defs[c.doc_key] = self._doc_definitions(c.doc_key)
            defs = definitions_used([query, c.content], doc_defs[c.doc_key], skip_chunk=c.chunk_id)
            results.append(SearchResult(
                chunk_id=c.chunk_id, content=c.content, fused_score=f.score, source_path=c.doc_key,
                parent_chain=c.parent_chain, section_id=c.section_id,
                semantic_score=f.scores.get("semantic"), keyword_score=f.scores.get("keyword"),
                exact_match="exact" in f.ranks, semantic_rank=f.ranks.get("semantic"),
                keyword_rank=f.ranks.get("keyword"), exact_rank=f.ranks.get("exact"),
                chunk_type=c.chunk_type, document_title=c.document_title, definitions_context=defs,
                contextualized_content=c.contextualized_content))
        if self.reranker is not None:
            results = self.reranker.rerank(query, results, k, pinned={h.chunk.chunk_id for h in hits if h.pinned})
        return results

    async def asearch(self, query: str, **kw) -> list[SearchResult]:
        return await asyncio.to_thread(self.search, query, **kw)

    def _doc_definitions(self, doc_key: str) -> list[DefinitionEntry]:
        return self.store.definitions(doc_key=doc_key)  # not cached: another process may re-ingest

    def get_section(self, document: str, section_id: str) -> list[Chunk]:
        """Every chunk of section ``section_id`` in ``document``, its subsections included, in
        document order. ``document`` is a doc_key (a unique suffix or stem also works); the id may
        also be an alias as cited (``Section 4.2``, ``Art. 17``).

        Raises :class:`QueryError` if the document or section does not exist.
        """
        from .index.exact import alias_keys

        self.ensure_ready()
        doc_key = self._resolve_document(document)
        chunks = self.store.document_chunks(doc_key)

        def holds(c: Chunk, sid: str) -> bool:
            meta = c.metadata
            return c.section_id == sid or sid in meta.get("sections", ()) or sid in meta.get("ancestors", ())

        found = [c for c in chunks if holds(c, section_id)]
        if not found:  # cited form: "Section 4.2", "Art. 17"
            keys = set(alias_keys(section_id))
            starts = [c for c in chunks if keys & {k for a in c.aliases for k in alias_keys(a)}]
            if starts:
                found = [c for c in chunks if holds(c, starts[0].section_id)]
        if not found:
            ids = list(dict.fromkeys(sid for c in chunks for sid in [c.section_id, *c.metadata.get("sections", ())]))
            near = [s for s in ids if section_id.lower() in s.lower()][:10]
            hint = f"; similar: {', '.join(near)}" if near else f"; {len(ids)} sections hold text"
            raise QueryError(f"no section {section_id!r} in {doc_key}{hint}")
        return found

    async def aget_section(self, document: str, section_id: str) -> list[Chunk]:
        return await asyncio.to_thread(self.get_section, document, section_id)

    def get_definition(self, term: str, document: str | None = None) -> list[DefinitionEntry]:
        """Definitions of ``term`` (case-insensitive), one per document that defines it."""
        from .index.exact import term_key

        self.ensure_ready()
        doc_key = self._resolve_document(document) if document else None
        return self.store.definitions(term_key=term_key(term), doc_key=doc_key)

    async def aget_definition(self, term: str, document: str | None = None) -> list[DefinitionEntry]:
        return await asyncio.to_thread(self.get_definition, term, document)

    def _resolve_document(self, document: str) -> str:
        docs = self.store.documents()
        if document in docs:
            return document
        cands = [d for d in docs if d.endswith("/" + document) or Path(d).stem == document or Path(d).name == document]
        if len(cands) == 1:
            return cands[0]
        if not cands:
            raise QueryError(f"no document {document!r} in tool '{self.name}'")
        raise QueryError(f"document {document!r} is ambiguous: {', '.join(cands[:10])}")


_PENDING = FileState(size=-1, mtime_ns=0, sha256="")
"""The state stored for a record file that failed to load: it matches no file, so the next ingest retries it."""


class VectorstoreTool(_BaseTool):
    """Structured records upserted by id (or documents, without ``vector_field``)."""

    cfg: VectorstoreToolConfig

    def _index_settings(self) -> dict:
        c = self.cfg
        return {"vector_fields": c.resolved_vector_fields, "id_field": c.id_field, "meta_fields": c.meta_fields,
                "document_field": c.document_field, "field_separator": c.field_separator, "record_path": c.record_path,
                "embedding_model": c.embedding_model, "chunk_size": c.chunk_size, "pipeline": 2, "analysis": ANALYSIS_VERSION}

    def _document_tool(self) -> HierarchicalDocumentTool:
        """HoloDeck's unstructured mode: the document pipeline on this tool's store."""
        c = self.cfg
        hcfg = HierarchicalDocumentToolConfig(
            name=c.name, type="hierarchical_document", description=c.description, source=c.source,
            max_chunk_tokens=c.chunk_size or 512, chunk_overlap=c.chunk_overlap if c.chunk_overlap is not None else 50,
            top_k=c.top_k, embedding_model=c.embedding_model, embedding_dimensions=c.embedding_dimensions,
            database=c.database, semantic_weight=c.semantic_weight, keyword_weight=c.keyword_weight,
            exact_weight=c.exact_weight, rrf_k=c.rrf_k)
        tool = HierarchicalDocumentTool(hcfg, self.base_dir)
        tool._embedder, tool._store = self._embedder, self._store
        return tool

    def ingest(self, force: bool = False, progress: ProgressFn | None = None) -> IngestReport:
        """Load records from every CSV / JSON / JSONL file under ``source`` and upsert them by id.

        Unchanged files are skipped; in a changed file, changed rows are re-embedded, unchanged
        rows come from the embedding cache, rows gone from the file are deleted. A file with a
        configuration error (missing field, duplicate ids) is reported and skipped.
        """
        if not self.cfg.structured:
            tool = self._document_tool()
            tool._embedder, tool._store = self.embedder, self.store
            return tool.ingest(force=force, progress=progress)
        from .context import structural_context
        from .records import SUPPORTED_RECORD_EXTENSIONS, load_records
        from .store import StoredChunk
        from .index.exact import value_key

        t0 = time.perf_counter()
        report = IngestReport(tool=self.name)
        with self._lock, span("vectorstore.ingest", **{"tool.name": self.name}):
            store = self.store
            changes = self._sync_file_states(report, SUPPORTED_RECORD_EXTENSIONS, force)
            todo = changes.to_process
            for i, sf in enumerate(todo):
                if progress:
                    progress(i, len(todo), sf.doc_key)
                old_ids = set(store.chunk_hashes(sf.doc_key))
                seen: set[str] = set()
                try:
                    load = load_records(Path(sf.path), sf.doc_key, self.cfg)
                    for batch in load.batches:
                        chunks, structure = [], []
                        for r in batch:
                            c = Chunk(chunk_id=r.id, doc_key=sf.doc_key, ordinal=r.line or 0, content=r.content,
                                      section_id="", parent_chain=r.parent_chain, heading_level=0,
                                      metadata={"id": r.id, "line": r.line, "fields": r.metadata},
                                      document_title=r.document_title)
                            # Structure (document_field) feeds BM25 and the embedding; metadata values BM25 only.
                            structure.append(structural_context(c))  # "" without document_field
                            c.context = " ".join(v for v in [structure[-1], *r.metadata.values()] if v)
                            chunks.append(c)
                        vecs = self._embed([(ctx, c.content) for ctx, c in zip(structure, chunks)], report)
                        stored = []
                        for c, v in zip(chunks, vecs):
                            keys = [(value_key(c.chunk_id), 0)]
                            keys += [(value_key(val), 1) for val in c.metadata["fields"].values()
                                     if val and len(val) <= 200]
                            stored.append(StoredChunk(c, v, list(dict.fromkeys(keys))))
                        store.upsert_chunks(sf.doc_key, stored)
                        seen.update(c.chunk_id for c in chunks)
                        report.records += len(chunks)
                except RecordError as e:
                    report.skipped.append(SkippedFile(sf.doc_key, str(e)))
                    if old_ids:  # its old records stay searchable, and the file stays pending until it loads
                        store.set_file_state(sf.doc_key, _PENDING)
                    continue
                store.delete_chunks(sorted(old_ids - seen))
                store.set_file_state(sf.doc_key, sf.state)
                report.skipped += load.skipped
                report.warnings += [f"{sf.doc_key}: {w}" for w in load.warnings]
                report.added += sf in changes.added
                report.updated += sf not in changes.added
            store.flush()
            self._save_settings()
            report.chunks_total = store.count()
        report.chunks = report.records
        report.elapsed_s = time.perf_counter() - t0
        self._ready = True
        return report

    def search(self, query: str, top_k: int | None = None, mode: str | None = None,
               min_score: float | None = None, timing: SearchTiming | None = None) -> list[RecordResult]:
        """Hybrid search over records; ``min_score`` (default ``min_similarity_score``) filters the fused score."""
        self.ensure_ready()
        cfg = self.cfg
        min_score = cfg.min_similarity_score if min_score is None else min_score
        if not cfg.structured:
            return [RecordResult(id=r.chunk_id, content=r.content, score=r.fused_score, source_file=r.source_path,
                                 metadata={"location": r.location} if r.parent_chain else {},
                                 semantic_score=r.semantic_score, keyword_score=r.keyword_score,
                                 exact_match=r.exact_match)
                    for r in self._document_tool().search(query, top_k=top_k, mode=mode, min_score=min_score,
                                                          timing=timing)]
        settings = SearchSettings(cfg.semantic_weight, cfg.keyword_weight, cfg.exact_weight, cfg.rrf_k,
                                  min_score=min_score)
        hits = run_search(self.store, self.embedder.embed_query, query, mode=mode or "hybrid",
                          top_k=cfg.top_k if top_k is None else top_k, settings=settings, timing=timing)
        return [self._record_result(h.chunk, h.fused.score, h.fused.scores, "exact" in h.fused.ranks) for h in hits]

    @staticmethod
    def _record_result(c: Chunk, score: float, scores: dict, exact: bool) -> RecordResult:
        return RecordResult(id=c.chunk_id, content=c.content, score=score, source_file=c.doc_key,
                            metadata=dict(c.metadata.get("fields", {})), semantic_score=scores.get("semantic"),
                            keyword_score=scores.get("keyword"), exact_match=exact)

    async def asearch(self, query: str, **kw) -> list[RecordResult]:
        return await asyncio.to_thread(self.search, query, **kw)

    def get_record(self, record_id: str) -> RecordResult:
        """The record with id ``record_id``. Raises :class:`QueryError` if there is none."""
        self.ensure_ready()
        from .index.exact import value_key

        found = self.store.get_chunks([record_id])
        if not found:  # ids match case-insensitively, as searches do
            ids = self.store.exact_lookup([value_key(record_id)], limit=1).get(value_key(record_id), [])
            found = [c for c in self.store.get_chunks(ids) if value_key(c.chunk_id) == value_key(record_id)]
        if not found:
            raise QueryError(f"no record with id {record_id!r} in tool '{self.name}'")
        return self._record_result(found[0], 1.0, {}, True)

    async def aget_record(self, record_id: str) -> RecordResult:
        return await asyncio.to_thread(self.get_record, record_id)


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
        for t in self.tools.values():
            t.close()

    def __enter__(self) -> "Toolset":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Prefetch:
    """``fn(items[i])`` for i = 0, 1, …, computed one item ahead on a worker thread when
    ``overlap`` (conversion and parsing of the next file overlap the embedding of this one;
    the OpenVINO / ONNX runtimes release the GIL while they run). ``get(i)`` returns the result
    or raises what ``fn`` raised. Without ``overlap`` (PyTorch's tokenizer is not safe to share
    across threads) each result is computed on demand."""

    def __init__(self, fn, items: list, overlap: bool):
        self._fn, self._items, self._overlap = fn, items, overlap and len(items) > 1
        self._pool = None
        self._next: dict[int, object] = {}

    def _submit(self, i: int) -> None:
        if i < len(self._items) and i not in self._next:
            if self._pool is None:
                from concurrent.futures import ThreadPoolExecutor

                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="docstrata-parse")
            self._next[i] = self._pool.submit(self._fn, self._items[i])

    def get(self, i: int):
        if not self._overlap:
            return self._fn(self._items[i])
        self._submit(i)
        future = self._next.pop(i)
        self._submit(i + 1)
        try:
            return future.result()
        finally:
            if i + 1 >= len(self._items) and self._pool is not None:
                self._pool.shutdown(wait=False)


def _progress_note(doc_key: str, done: int, total: int, chunks: int, t_start: float) -> str:
    """``doc_key · 120 chunks, 14.2 chunks/s, ETA 1m05s`` (ETA from the files still to do)."""
    elapsed = time.perf_counter() - t_start
    if done == 0 or elapsed <= 0:
        return doc_key
    eta = elapsed / done * (total - done)
    return f"{doc_key} · {chunks} chunks, {chunks / elapsed:.1f} chunks/s, ETA {int(eta // 60)}m{int(eta % 60):02d}s"
