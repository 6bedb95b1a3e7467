"""What a vectorstore tool does with records beyond reading them: whether its source holds records
at all, records as chunks (their structural context and keyword text), records and document hits as
:class:`~docstrata.models.RecordResult` objects, and a record file's document entry.

The tool (:class:`docstrata.tools.VectorstoreTool`) wires these to its store and embedder.
"""

from __future__ import annotations

from pathlib import Path

from ..config import RECORD_EXTENSIONS, HierarchicalDocumentToolConfig, VectorstoreToolConfig
from ..models import Chunk, DocumentEntry, FileState, RecordResult


def documents_only(source: str, base_dir) -> bool:
    """Whether ``source`` (relative to ``base_dir``) is a folder with documents and no record file
    at all (HoloDeck reads such a folder as text whatever ``vector_field`` says). ``False`` for a
    source that cannot be listed: the ingest reports it."""
    from ..errors import SourceError
    from ..formats import SUPPORTED_EXTENSIONS
    from ..sources import list_source

    if Path(source.strip()).suffix.lower().lstrip(".") in RECORD_EXTENSIONS:
        return False
    try:
        files = list_source(source, base_dir).files
    except SourceError:
        return False  # reported by the ingest
    exts = {f.suffix.lower().lstrip(".") for f in files}
    return not (exts & RECORD_EXTENSIONS) and bool(exts & SUPPORTED_EXTENSIONS)


def document_config(c: VectorstoreToolConfig) -> HierarchicalDocumentToolConfig:
    """The document tool config of a vectorstore tool in HoloDeck's unstructured mode: its name,
    source, store, model, limits and fusion settings; ``chunk_size`` (default 512) and
    ``chunk_overlap`` (default 50) as the chunk bounds."""
    return HierarchicalDocumentToolConfig(
        name=c.name,
        type="hierarchical_document",
        description=c.description,
        source=c.source,
        max_chunk_tokens=c.chunk_size or 512,
        chunk_overlap=c.chunk_overlap if c.chunk_overlap is not None else 50,
        top_k=c.top_k,
        embedding_model=c.embedding_model,
        embedding_dimensions=c.embedding_dimensions,
        embedding_provider=c.embedding_provider,
        database=c.database,
        follow_symlinks=c.follow_symlinks,
        limits=c.limits,
        semantic_weight=c.semantic_weight,
        keyword_weight=c.keyword_weight,
        exact_weight=c.exact_weight,
        rrf_k=c.rrf_k,
    )


def record_chunks(batch: list, doc_key: str) -> tuple[list[Chunk], list[str]]:
    """A batch of :class:`~docstrata.models.Record` objects of file ``doc_key`` as chunks (id =
    record id, ordinal = its line, metadata ``{id, line, fields}``), and each chunk's structural
    context (``""`` without ``document_field``): it feeds BM25 and the embedding, while the
    metadata values join the chunk's ``context`` for BM25 only."""
    from ..context import structural_context

    chunks, structure = [], []
    for r in batch:
        c = Chunk(
            chunk_id=r.id,
            doc_key=doc_key,
            ordinal=r.line or 0,
            content=r.content,
            section_id="",
            parent_chain=r.parent_chain,
            heading_level=0,
            metadata={"id": r.id, "line": r.line, "fields": r.metadata},
            document_title=r.document_title,
        )
        structure.append(structural_context(c))  # "" without document_field
        c.context = " ".join(v for v in [structure[-1], *r.metadata.values()] if v)
        chunks.append(c)
    return chunks, structure


def record_result(
    c: Chunk,
    score: float | None,
    scores: dict,
    exact: bool,
    similarity: float | None = None,
    pinned: bool = False,
    fused: float | None = None,
) -> RecordResult:
    """A stored record chunk as a result: ``score`` (``None`` when fetched, not ranked), the
    per-modality ``scores`` (``keyword`` read), whether the exact modality found it, its cosine
    ``similarity`` and ``fused`` RRF score (default: ``score``)."""
    return RecordResult(
        id=c.chunk_id,
        content=c.content,
        score=score,
        source_file=c.doc_key,
        metadata=dict(c.metadata.get("fields", {})),
        semantic_score=similarity,
        keyword_score=scores.get("keyword"),
        exact_match=exact,
        fused_score=score if fused is None else fused,
        pinned=pinned,
    )


def document_hits_as_records(found) -> list[RecordResult]:
    """Document search results (unstructured mode) as record results: the chunk id as id, the
    source path as file, the location and a paged source's pages (``"pp. 12–13"``) as metadata."""
    return [
        RecordResult(
            id=r.chunk_id,
            content=r.content,
            score=r.score,
            source_file=r.source_path,
            metadata={
                **({"location": r.location} if r.parent_chain else {}),
                **({"pages": r.pages} if r.pages else {}),
            },
            semantic_score=r.semantic_score,
            keyword_score=r.keyword_score,
            exact_match=r.exact_match,
            fused_score=r.fused_score,
            pinned=r.pinned,
        )
        for r in found
    ]


def record_file_entry(cfg: VectorstoreToolConfig, doc_key: str, n_records: int, warnings: list[str]) -> DocumentEntry:
    """The document entry of one record file: its name, ``n_records`` and the fields indexed as
    summary, and at most 20 of its ``warnings``."""
    from ..docinfo import now_utc

    fields = cfg.meta_fields or []
    text = cfg.resolved_vector_fields or ["(every field)"]
    summary = f"{n_records} records; fields: {', '.join(dict.fromkeys(text + fields))}"
    return DocumentEntry(
        doc_key=doc_key,
        title=Path(doc_key).name,
        summary=summary,
        file_type=Path(doc_key).suffix.lstrip(".").lower(),
        total_chunks=n_records,
        ingested_at=now_utc(),
        warnings=list(warnings)[:20],
    )


PENDING = FileState(size=-1, mtime_ns=0, sha256="")
"""The state stored for a record file that failed to load: it matches no file, so the next ingest retries it."""


def ingest_record_file(store, sf, cfg: VectorstoreToolConfig, embed, report) -> bool:
    """Upsert the records of one file ``sf`` (a :class:`~docstrata.models.SourceFile`) into ``store``
    in bounded batches: each batch's chunks embedded by ``embed(pairs, report)`` (cached vectors
    reused), upserted with their exact keys; records gone from the file deleted; the file's state
    and entry written. Counts ``report.records``, adds the load's skipped rows and warnings.
    A :class:`~docstrata.errors.RecordError` (bad file or mapping) or
    :class:`~docstrata.errors.ProviderError` (embedding failed) is reported in ``report.skipped``
    and returns ``False``; the file's old records stay searchable and it stays :data:`PENDING`."""
    from ..errors import ProviderError, RecordError
    from ..index.exact import record_exact_keys
    from ..models import SkippedFile
    from ..store import StoredChunk
    from ..store.base import write_document_entry
    from . import load_records

    old_ids = set(store.chunk_hashes(sf.doc_key))
    load = None
    try:
        load = load_records(Path(sf.path), sf.doc_key, cfg)
        for batch in load.batches:
            chunks, structure = record_chunks(batch, sf.doc_key)
            vecs = embed([(ctx, c.content) for ctx, c in zip(structure, chunks)], report)
            store.upsert_chunks(sf.doc_key, [StoredChunk(c, v, record_exact_keys(c)) for c, v in zip(chunks, vecs)])
            report.records += len(chunks)
        # the ids loaded are kept by the load in bounded memory, not in a set here
        gone = sorted(load.unseen(old_ids)) if old_ids else []
    except (RecordError, ProviderError) as e:
        why = f"embedding failed: {e}" if isinstance(e, ProviderError) else str(e)
        report.skipped.append(SkippedFile(sf.doc_key, why))
        if old_ids:  # its old records stay searchable, and the file stays pending until it loads
            store.set_file_state(sf.doc_key, PENDING)
        return False
    finally:
        if load is not None:
            load.close()
    store.delete_chunks(gone)
    store.set_file_state(sf.doc_key, sf.state)
    write_document_entry(store, record_file_entry(cfg, sf.doc_key, load.records, load.warnings))
    report.skipped += load.skipped
    report.warnings += [f"{sf.doc_key}: {w}" for w in load.warnings]
    return True


def check_filter_fields(cfg: VectorstoreToolConfig, tool_name: str, filters) -> None:
    """Raise :class:`~docstrata.search.QueryError` naming a field of ``filters`` (a mapping) that is
    not one of the tool's ``meta_fields`` (any field passes when ``meta_fields`` is unset)."""
    from ..search import QueryError

    kept = cfg.meta_fields
    for name in (filters or {}) if isinstance(filters, dict) else ():
        if kept is not None and name not in kept:
            raise QueryError(
                f"filters.{name}: not a metadata field of tool '{tool_name}' (meta_fields: {', '.join(kept) or 'none'})"
            )


def find_record(store, record_id: str) -> Chunk | None:
    """The stored record with id ``record_id``: exactly, else the one whose id matches it
    case-insensitively (as searches match ids, through the exact index); ``None`` when none does."""
    from ..index.exact import value_key

    found = store.get_chunks([record_id])
    if not found:  # ids match case-insensitively, as searches do
        ids = store.exact_lookup([value_key(record_id)], limit=1).get(value_key(record_id), [])
        found = [c for c in store.get_chunks(ids) if value_key(c.chunk_id) == value_key(record_id)]
    return found[0] if found else None
