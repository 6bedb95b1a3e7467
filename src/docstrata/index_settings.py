"""The fingerprint of the settings an index was built with: what, when changed, makes the next
ingest rebuild every file (``tool_base.BaseTool._settings_changed``). Plain JSON-ready dicts; the
version numbers (``pipeline``) change when the ingest pipeline produces different chunks or keys.
"""

from __future__ import annotations

from .index.keyword import ANALYSIS_VERSION


def model_settings(model_cfg) -> dict | None:
    """The parts of an LLM provider config that change what an index holds (never a key);
    ``None`` without a model."""
    if model_cfg is None:
        return None
    return {k: getattr(model_cfg, k) for k in ("provider", "name", "base_url", "api_key_env", "context_window")}


def embedder_settings(cfg) -> dict:
    """Where a hosted embedding model runs, when one does (absent for local models, so their
    existing indexes keep their fingerprint)."""
    p = cfg.embedding_provider
    return {} if p is None else {"embedding_provider": [p.provider, p.base_url, p.native]}


def document_index_settings(cfg, holodeck_units: bool = False) -> dict:
    """The fingerprint of a document index (a ``HierarchicalDocumentToolConfig``): chunking,
    models, extraction, OCR (when not the default), pipeline and keyword-analysis versions;
    ``holodeck_units`` when chunk sizes count HoloDeck's characters / 4."""
    from .config import OcrConfig

    c = cfg
    return {
        "chunking_strategy": c.chunking_strategy,
        "max_chunk_tokens": c.max_chunk_tokens,
        "chunk_overlap": c.chunk_overlap,
        "embedding_model": c.embedding_model,
        "contextual_embeddings": c.contextual_embeddings,
        "context_model": model_settings(c.context_model),
        "context_max_tokens": c.context_max_tokens,
        "extract_definitions": c.extract_definitions,
        "extract_cross_references": c.extract_cross_references,
        "pipeline": 15,
        "analysis": ANALYSIS_VERSION,
        **({"ocr": c.ocr.model_dump()} if c.ocr != OcrConfig() else {}),
        **embedder_settings(c),
        **({"chunk_unit": "chars/4"} if holodeck_units else {}),
    }


def record_index_settings(cfg) -> dict:
    """The fingerprint of a record index (a ``VectorstoreToolConfig``): field mapping, model,
    chunk size, pipeline and keyword-analysis versions."""
    c = cfg
    return {
        "vector_fields": c.resolved_vector_fields,
        "id_field": c.id_field,
        "meta_fields": c.meta_fields,
        "document_field": c.document_field,
        "field_separator": c.field_separator,
        "record_path": c.record_path,
        "embedding_model": c.embedding_model,
        "chunk_size": c.chunk_size,
        "pipeline": 4,
        "analysis": ANALYSIS_VERSION,
        **embedder_settings(c),
    }
