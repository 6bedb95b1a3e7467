"""What both tool types share (:mod:`docstrata.tools`): the lazily opened embedder and store, the
fingerprint of the settings an index was built with, the cross-process ingest lock, the ingest a
first search needs, documents and filters by name, and the end of an ingest run.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from pathlib import Path
from typing import Callable

from . import scoping
from .config.user_paths import at_user_path
from .docinfo import derived_entry
from .errors import ConfigError
from .ingest_support import clear_unfinished, embed_cached, ingest_or_serve, sync_file_states
from .models import LOW_SIMILARITY, DocumentEntry, IngestReport
from .search import SearchSettings
from .store.base import ChunkFilter, read_document_entry
from .thresholds import search_notices, search_settings

log = logging.getLogger("docstrata")

# Called as progress(done, total, description) while ingesting; done counts files, fractional while
# a file's chunks embed (progress.IngestProgress).
ProgressFn = Callable[[float, int, str], None]


class BaseTool:
    """What both tool types share: lazy embedder and store, embedding with a cache, ingest lock,
    readiness, documents and filters by name. Subclasses define ``_index_settings`` and ``_ingest_locked``."""

    def __init__(self, cfg, base_dir: str | Path):
        self.cfg = cfg
        self.name = cfg.name
        self.base_dir = Path(base_dir)
        self._embedder = None
        self._store = None
        self._lock = threading.RLock()
        self._ready = False
        self._implicit = False  # set while ensure_ready runs the ingest a search needs

    @property
    def embedder(self):
        """The tool's embedder (:func:`~docstrata.embed.make_embedder`), made on first use. Raises
        :class:`~docstrata.errors.ConfigError` at the YAML path the user wrote (a missing API key…)."""
        if self._embedder is None:
            with self._lock:
                if self._embedder is None:
                    from .embed import make_embedder

                    try:
                        self._embedder = make_embedder(
                            self.cfg.embedding_model,
                            self.cfg.embedding_dimensions,
                            self.cfg.embedding_provider,
                            backend=getattr(self.cfg, "embedding_backend", "auto"),
                        )
                    except ConfigError as e:
                        raise at_user_path(e, self.cfg) from None
        return self._embedder

    @property
    def similarity_floor(self) -> float:
        """The cosine below which a hit of this tool's embedding model is only a nearest neighbour
        (:func:`~docstrata.embed.similarity_floor`; a hosted model gets the default floor)."""
        from .embed import similarity_floor

        return LOW_SIMILARITY if self.cfg.embedding_provider is not None else similarity_floor(self.cfg.embedding_model)

    @property
    def confidence_fit(self) -> dict | None:
        """The confidence model fitted for this tool's embedding model
        (:func:`~docstrata.confidence.fitted_model`; ``None`` for a hosted or unfitted model)."""
        from .confidence import fitted_model

        return None if self.cfg.embedding_provider is not None else fitted_model(self.cfg.embedding_model)

    def _confidence(self, results, run, query: str, mode: str = "hybrid"):
        """The answer's :class:`~docstrata.models.Confidence` for ``results`` of the
        :class:`~docstrata.search.SearchRun` ``run`` of ``query`` in ``mode``: the fitted model's
        level at the run's signals (:mod:`docstrata.confidence`) when the query was embedded, else
        (keyword or exact mode, a model with no fit) the rule against this tool's similarity floor."""
        from .confidence import answer_signals
        from .search import assess_confidence

        fit = self.confidence_fit if run.embedded else None
        floor = self.similarity_floor
        signals = (
            answer_signals(
                run.hits,
                run.keyword_query or run.asked or query,
                self.store,
                fit["floor"] if fit else floor,
                mode == "hybrid",
            )
            if run.hits and run.content_words
            else None
        )
        return assess_confidence(
            results,
            run.content_words,
            run.embedded,
            run.citations,
            run.other_words,
            floor,
            signals,
            fit,
        )

    @property
    def store(self):
        """The tool's open store (:func:`~docstrata.store.open_store`), opened on first use."""
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
        if self.cfg.embedding_provider is None:
            local = model_dimension(self.cfg.embedding_model)
            if local:
                return self.cfg.embedding_dimensions or local
        return self.cfg.embedding_dimensions or self.embedder.dim

    def embed_query(self, text: str):
        """The query's (dim,) vector; the model is loaded here, on first use, so a keyword or
        exact search never loads it."""
        return self.embedder.embed_query(text)

    def variant(self, **update):
        """A twin of this tool with config fields ``update`` changed (fusion weights, ``rrf_k``,
        reranking off), over the same open store, query embedder and reranker, ready to search."""
        twin = type(self)(self.cfg.model_copy(update=update), self.base_dir)
        twin._store, twin._ready = self.store, True
        twin.embed_query = self.embed_query  # type: ignore[method-assign]  # one model, loaded once
        if "enable_reranking" not in update and getattr(self.cfg, "enable_reranking", False):
            twin._reranker = self.reranker  # type: ignore[attr-defined]
        return twin

    def close(self) -> None:
        """Close the tool's store (it reopens on next use)."""
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

    def _embed(self, items: list[tuple[str, str]], report: IngestReport, on_chunks=None):
        """Vectors for (context, content) pairs (:func:`~docstrata.ingest_support.embed_cached`)."""
        return embed_cached(self.store, self.embedder, items, report, on_chunks)

    def ensure_ready(self, progress: ProgressFn | None = None) -> IngestReport | None:
        """Open the index; ingest first if it is empty or stale. Concurrent callers ingest once;
        while another process ingests this tool, this waits for it (reporting through ``progress``)
        and then finds the work done — unless the index already holds data: then it is searched at
        once and the other process's writes appear when it commits. An index that cannot be written
        (read-only folder, full disk) but holds data is served as it is, with a warning in the log."""
        if self._ready:
            return None
        with self._lock:
            if self._ready:
                return None
            self._implicit = True  # a file the last run never finished is not retried here (skip_unfinished)
            try:
                report = ingest_or_serve(
                    lambda wait: self.ingest(progress=progress, lock_timeout_s=wait), self._has_data, self.name
                )
            finally:
                self._implicit = False
            self._ready = True
            return report

    def _has_data(self) -> bool:
        try:
            return self.store.count() > 0
        except Exception:  # noqa: BLE001 - a store that cannot even count has nothing to serve
            return False

    def _ingest_lock(self, progress: ProgressFn | None, timeout_s: float | None = None):
        """The tool's cross-process ingest lock (see :mod:`docstrata.locking`); ``timeout_s``
        defaults to ``limits.lock_timeout_s``."""
        from .locking import tool_ingest_lock

        def on_wait(message: str) -> None:
            log.warning("%s", message)
            if progress:
                progress(0, 0, message)

        timeout = self.cfg.limits.lock_timeout_s if timeout_s is None else timeout_s
        return tool_ingest_lock(self.store, self.name, self.cfg.database.provider, self.base_dir, timeout, on_wait)

    def ingest(
        self,
        force: bool = False,
        progress: ProgressFn | None = None,
        *,
        verify: bool = False,
        rebuild: bool = False,
        lock_timeout_s: float | None = None,
    ) -> IngestReport:
        """Bring the index in line with ``source`` under the tool's cross-process ingest lock.

        ``force`` re-processes every file; ``verify`` re-hashes every file (whatever its size,
        times and inode say); ``rebuild`` rebuilds the derived indexes (tantivy, vectors) from the
        store's system of record first. A second writer waits for the first (one message, then
        every few seconds) and raises :class:`~docstrata.locking.LockTimeout` after
        ``lock_timeout_s`` (default ``limits.lock_timeout_s``; 0 = do not wait).
        """
        with self._lock, self._ingest_lock(progress, lock_timeout_s):
            if rebuild and hasattr(self.store, "rebuild_indexes"):
                self.store.rebuild_indexes()
            return self._ingest_locked(force=force, progress=progress, verify=verify)

    def _sync_file_states(self, report: IngestReport, extensions: frozenset[str], force: bool, verify: bool = False):
        """Compare the source with the stored file states: purge removed files, record
        mtime-only changes, count everything in ``report``; returns the ChangeSet."""
        if not force and self._settings_changed():
            report.warnings.append("index settings changed since the last ingest: rebuilding every file")
            force = True
        changes = sync_file_states(
            self.store, self.cfg.source, self.base_dir, report, extensions, force, verify, self.cfg.follow_symlinks
        )
        self._pending_stamps = changes.stamps
        return changes

    async def aingest(self, **kw) -> IngestReport:
        """:meth:`ingest` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.ingest, **kw)

    def _settings(self, min_similarity_score, min_fused_score, min_score, min_relative_score=None) -> SearchSettings:
        return search_settings(self.cfg, min_similarity_score, min_fused_score, min_score, min_relative_score)

    # ---- documents, filters (docstrata.scoping)
    def resolve_document(self, document: str) -> str:
        """The one doc key ``document`` names (:func:`~docstrata.scoping.resolve_document`);
        raises :class:`QueryError` when it names none or several."""
        return scoping.resolve_document(self.store, document, self.name)

    _resolve_document = resolve_document

    def _document_keys(self, document: str | list[str]) -> tuple[str, ...]:
        return scoping.document_keys(self.store, document, self.name)

    def _make_filter(self, document=None, section=None, filters=None) -> ChunkFilter | None:
        return scoping.make_filter(self.store, self.name, document, section, filters)

    def list_documents(self) -> list[DocumentEntry]:
        """An entry per indexed document (file), sorted by doc key: title, summary, language, file
        type, section count, top-level sections, chunks, ingested at. Documents indexed before
        entries existed get one derived from their chunks (no summary, language or time)."""
        self.ensure_ready()
        out = []
        for doc_key in self.store.documents():
            entry = read_document_entry(self.store, doc_key)
            out.append(entry if entry is not None else derived_entry(doc_key, self.store.document_chunks(doc_key)))
        return out

    async def alist_documents(self) -> list[DocumentEntry]:
        """:meth:`list_documents` on a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.list_documents)

    def _ingest_locked(
        self, force: bool = False, progress: ProgressFn | None = None, verify: bool = False
    ) -> IngestReport:
        raise NotImplementedError

    def _finish_ingest(self, report: IngestReport) -> None:
        """After the files are committed: clear the unfinished mark, save settings and stamps, count."""
        clear_unfinished(self.store)
        self._save_settings()
        self._save_stamps()
        report.chunks_total = self.store.count()

    def _notices(
        self, run, settings: SearchSettings, min_similarity_score, min_score, min_fused_score, min_relative_score=None
    ) -> list[str]:
        given = {
            "min_similarity_score": min_similarity_score if min_similarity_score is not None else min_score,
            "min_fused_score": min_fused_score,
            "min_relative_score": min_relative_score,
        }
        return run.notices + search_notices(run, settings, self.cfg, given)

    def _save_stamps(self) -> None:
        """Record the ctime/inode stamps of the last scan (after the documents are committed, so a
        crash in between only costs a re-hash)."""
        stamps = getattr(self, "_pending_stamps", None)
        if stamps is not None:
            self.store.set_meta("file_stamps", json.dumps(stamps, sort_keys=True, separators=(",", ":")))
