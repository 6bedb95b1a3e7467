"""agent.yaml → validated pydantic models.

The file holds a ``tools:`` list (the shape HoloDeck uses). Tools of type
``hierarchical_document`` and ``vectorstore`` are ours; other tool types and other top-level
keys (``model``, ``instructions``, ``evaluations``, …) are ignored (one notice each in ``notices``, logged as one summary line), so
HoloDeck files load unchanged. ``${VAR}`` and ``${VAR:-default}`` are substituted from the
environment in string values. Every error is a :class:`~docstrata.errors.ConfigError` naming
the YAML path of the bad field.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (AliasChoices, BaseModel, ConfigDict, Field, PrivateAttr, SecretStr, ValidationError,
                      field_validator, model_validator)

from .errors import ConfigError
from .fusion import DEFAULT_EXACT_WEIGHT, DEFAULT_KEYWORD_WEIGHT, DEFAULT_RRF_K, DEFAULT_SEMANTIC_WEIGHT

log = logging.getLogger("docstrata")

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
OUR_TOOL_TYPES = ("hierarchical_document", "vectorstore")
RECORD_EXTENSIONS = frozenset({"csv", "tsv", "json", "jsonl", "ndjson"})
"""Extensions (lower case, no dot) of the files a vectorstore tool reads as records."""


def misspelling_pattern(words) -> str:
    """A regular expression (JSON Schema / ECMA-262 and Python alike) matching every string one edit
    from one of ``words`` — a letter left out, added, changed, or two neighbours swapped (Damerau's
    single-error classes, which cover most typing mistakes) — and the words themselves.

    The loader and ``docstrata schema`` share it, so a key or tool type is refused as a misspelling
    (with a "did you mean") by exactly the same rule in both."""
    def e(text: str) -> str:  # escapes valid in ECMA-262's unicode mode too (re.escape's "\\-" is not)
        return re.sub(r"([.^$*+?()\[\]{}|\\/])", r"\\\1", text)

    alts: set[str] = set()
    for w in words:
        for i in range(len(w) + 1):
            alts.add(e(w[:i]) + "." + e(w[i:]))  # a letter added
            if i < len(w):
                alts.add(e(w[:i] + w[i + 1:]))  # left out
                alts.add(e(w[:i]) + "." + e(w[i + 1:]))  # changed
            if i < len(w) - 1:
                alts.add(e(w[:i] + w[i + 1] + w[i] + w[i + 2:]))  # swapped
    return "^(?:" + "|".join(sorted(alts)) + ")$"


def _misspelling_of(word: str, known) -> str | None:
    """The known word ``word`` is one edit from (the closest when several), else None."""
    if word in known or not re.match(misspelling_pattern(known), word):
        return None
    near = [k for k in known if re.match(misspelling_pattern([k]), word)]
    return max(near, key=lambda k: difflib.SequenceMatcher(None, word, k).ratio())


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class LLMProviderConfig(_Strict):
    """A model provider, in HoloDeck's ``LLMProvider`` shape (``provider``, ``name``, ``endpoint``, …).

    Keys come from the environment: the variable ``api_key_env`` (default ``OPENAI_API_KEY``,
    ``AZURE_OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``; Ollama needs none), or HoloDeck's
    ``api_key: ${VAR}``. A key is never stored with the index, logged or put in an error.
    """

    provider: Literal["openai", "azure_openai", "ollama", "anthropic"] = Field(description=(
        "openai (also any OpenAI-compatible server given 'endpoint': vLLM, TEI, LM Studio, llama.cpp), "
        "azure_openai, ollama or anthropic"))
    name: str | None = Field(default=None, min_length=1, description="Model (Azure: deployment) name")
    base_url: str | None = Field(default=None, validation_alias=AliasChoices("base_url", "endpoint"), description=(
        "API endpoint; HoloDeck spells it 'endpoint'. Required for azure_openai; Ollama defaults to "
        "http://localhost:11434"))
    api_key_env: str | None = Field(default=None, description="Environment variable holding the API key")
    api_key: SecretStr | None = Field(default=None, description=(
        "HoloDeck's key field; write it as ${VAR} so the key stays in the environment"))
    api_version: str | None = Field(default=None, description="Azure OpenAI API version (default 2024-10-21)")

    @field_validator("api_version", mode="before")
    @classmethod
    def _date_as_string(cls, v: Any) -> Any:
        """YAML reads an unquoted ``api_version: 2024-06-01`` as a date: it is meant as that string."""
        import datetime

        return v.isoformat() if isinstance(v, (datetime.date, datetime.datetime)) else v
    temperature: float | None = Field(default=None, ge=0.0, le=2.0, description="Sampling temperature (LLM uses)")
    max_tokens: int | None = Field(default=None, ge=1, description="Most tokens to generate (LLM uses)")
    top_p: float | None = Field(default=None, ge=0.0, le=1.0, description="Nucleus sampling (LLM uses)")
    auth_provider: str | None = Field(default=None, description="HoloDeck's Anthropic auth method; not used")


class ContextModelConfig(LLMProviderConfig):
    """An LLM that writes per-chunk contexts (Anthropic's contextual retrieval).

    The API key is read from the environment variable ``api_key_env`` (default
    ``ANTHROPIC_API_KEY`` / ``OPENAI_API_KEY``); it is never stored in the YAML.
    """

    name: str = Field(min_length=1, description="Model name")
    context_window: int | None = Field(default=None, ge=512, description="Model context window in tokens; longer documents are cut keeping beginning and end (default: known models' window, else 8192)")


class EmbeddingProviderConfig(LLMProviderConfig):
    """Where a hosted or self-hosted embedding model runs (HoloDeck's ``embedding_provider``).

    The model is the tool's ``embedding_model`` when set, else ``name``, else the provider's
    default (``text-embedding-3-small``; Ollama ``nomic-embed-text``).
    """

    max_input_tokens: int | None = Field(default=None, ge=16, le=1_000_000, description=(
        "Most tokens the model reads per input; longer chunk text is split into windows "
        "(default: known models' limit, else 512)"))
    batch_size: int = Field(default=64, ge=1, le=2048, description="Inputs per embeddings request")
    native: bool = Field(default=False, description=(
        "Ollama only: use its native /api/embed (with truncate: false, so an over-long input is an "
        "error, not silently cut) instead of the OpenAI-compatible /v1/embeddings"))


class DatabaseConfig(_Strict):
    """Where a tool's index lives.

    ``embedded`` (default): SQLite + tantivy + vectors under ``.docstrata/<tool>/`` beside the
    config (or under ``path``). ``in-memory``: nothing on disk. ``postgres``: ``dsn`` required.
    ``qdrant``: ``url`` or ``path``. ``chromadb``: Chroma holds the dense leg, our BM25 and exact
    legs beside it: a Chroma server with ``url`` (or ``host`` / ``port``; HoloDeck's
    ``connection_string: http://…``), else Chroma's embedded client (under ``path``, default
    ``.docstrata/<tool>/chroma``; in memory with ``path: ":memory:"``). ``faiss``: a FAISS index for the dense leg (``index``).
    HoloDeck's ``connection_string`` is read as ``dsn`` (postgres), ``url`` (an http(s):// server:
    qdrant, chromadb) or ``path`` (anything else: qdrant's local mode, a folder, ``":memory:"``).
    """

    provider: Literal["embedded", "in-memory", "postgres", "qdrant", "chromadb", "faiss"] = Field(
        default="embedded", description=(
            "embedded (default: SQLite + tantivy + vectors on disk), in-memory, postgres (pgvector), qdrant, "
            "chromadb (Chroma embedded for vectors, our BM25 beside it) or faiss (FAISS ANN index for vectors)"))
    dsn: str | None = Field(default=None, description="postgres: a postgresql:// connection string")
    url: str | None = Field(default=None, description=(
        "qdrant: server URL; chromadb: a Chroma server's URL (http://host:port), read through chromadb.HttpClient"))
    host: str | None = Field(default=None, description="chromadb: Chroma server host (with port; same as url)")
    port: int | None = Field(default=None, ge=1, le=65535, description="chromadb: Chroma server port (default 8000)")
    path: str | None = Field(default=None, description=(
        "embedded / chromadb / faiss: index folder (relative to the config file); qdrant: local folder"))
    api_key_env: str | None = Field(default=None, description=(
        "qdrant / Chroma server: environment variable holding the API key (Chroma: sent as X-Chroma-Token)"))
    collection_name: str | None = Field(default=None, description=(
        "chromadb / qdrant: collection name (default: the tool name)"))
    index: Literal["auto", "flat", "hnsw", "ivf"] = Field(default="auto", description=(
        "faiss: index type; auto = exact (flat) below 50,000 vectors, HNSW (M 32, efSearch 128) above"))

    @model_validator(mode="after")
    def _check(self) -> "DatabaseConfig":
        if self.provider == "postgres" and not self.dsn:
            raise ValueError("provider 'postgres' needs 'dsn'")
        if self.provider == "qdrant" and not (self.url or self.path):
            raise ValueError("provider 'qdrant' needs 'url' or 'path'")
        if self.provider == "chromadb" and (self.url or self.host or self.port) and self.path:
            raise ValueError("give a Chroma server (url / host) or a local 'path', not both")
        if self.provider == "chromadb" and self.url and not self.url.startswith(("http://", "https://")):
            raise ValueError(f"a Chroma server url must start with http:// or https:// (got {self.url!r})")
        return self

    @property
    def chroma_server(self) -> str | None:
        """The Chroma server URL (``url``, or ``http://host:port``), or None for embedded Chroma."""
        if self.provider != "chromadb":
            return None
        if self.url:
            return self.url
        if self.host or self.port:
            return f"http://{self.host or 'localhost'}:{self.port or 8000}"
        return None


SUPPORTED_DATABASES = ("embedded", "in-memory", "postgres", "qdrant", "chromadb", "faiss")
_INSTEAD = ("use 'postgres' (pgvector) or 'qdrant' for a shared server, or 'embedded', 'chromadb' or 'faiss' "
            "on one machine")
# HoloDeck's providers that run only as a cloud service or a server we cannot test here.
UNSUPPORTED_DATABASES = {
    "azure-ai-search": "Azure AI Search", "weaviate": "Weaviate", "pinecone": "Pinecone",
    "azure-cosmos-mongo": "Azure Cosmos DB (MongoDB)", "azure-cosmos-nosql": "Azure Cosmos DB (NoSQL)",
    "mongodb": "MongoDB Atlas", "mongodb-atlas": "MongoDB Atlas", "sql-server": "SQL Server",
    "redis-hashset": "Redis", "redis-json": "Redis", "redis": "Redis", "opensearch": "OpenSearch",
    "elasticsearch": "Elasticsearch",
}


def _coerce_database(v: Any) -> Any:
    if v is None:
        return DatabaseConfig()
    if isinstance(v, str):
        if v in ("embedded", "in-memory", "memory", "inmemory"):
            return DatabaseConfig(provider="in-memory" if v != "embedded" else "embedded")
        if v in ("chromadb", "faiss"):
            return DatabaseConfig(provider=v)
        if v.startswith(("postgres://", "postgresql://")):
            return DatabaseConfig(provider="postgres", dsn=v)
        if v in UNSUPPORTED_DATABASES:
            v = {"provider": v}
        elif "://" in v:
            raise ValueError(f"unknown database URL {v.split('://', 1)[0]}://…: the only URL form is a postgresql:// "
                             "DSN; other stores take a mapping with 'provider' (e.g. {provider: qdrant, url: …})")
        else:
            raise ValueError(f"unknown database {v!r}: use 'embedded', 'in-memory', 'chromadb', 'faiss', a "
                             "postgresql:// DSN, a mapping with 'provider', or (vectorstore tools) the name of "
                             "a store in the vectorstores: of HoloDeck's config.yaml beside the file or in "
                             "~/.holodeck/config.yaml")
    if isinstance(v, dict) and v.get("provider") in UNSUPPORTED_DATABASES:
        raise ValueError(f"database provider {v['provider']!r} ({UNSUPPORTED_DATABASES[v['provider']]}) is not "
                         f"supported: it runs only as a hosted service, which docstrata cannot test; {_INSTEAD}")
    if isinstance(v, dict) and "connection_string" in v:  # HoloDeck's spelling
        v = dict(v)
        conn = v.pop("connection_string")
        provider = v.get("provider")
        if provider in ("chromadb", "qdrant") and str(conn).startswith(("http://", "https://")):
            v.setdefault("url", conn)  # a server
        elif provider == "qdrant":
            v.setdefault("path", conn)  # qdrant-client's local mode: a folder or ":memory:"
        else:
            key = {"chromadb": "path", "faiss": "path", "embedded": "path"}.get(provider, "dsn")
            v.setdefault(key, conn)
    if isinstance(v, dict) and v.get("provider") not in (None, *SUPPORTED_DATABASES):
        raise ValueError(f"database provider {v.get('provider')!r} is not supported; "
                         f"use one of: {', '.join(SUPPORTED_DATABASES)}")
    return v


class LimitsConfig(_Strict):
    """Bounds on the work one file may cause (issue 17). A file over a bound is skipped and
    reported with the bound it broke and the setting that raises it; the rest of the ingest goes on."""

    max_file_mb: float = Field(default=100.0, gt=0, description="Largest document file read, in MB on disk")
    max_expanded_mb: float = Field(default=500.0, gt=0, description=(
        "Largest total uncompressed size of a DOCX / PPTX / XLSX (zip) file's members, in MB (zip bombs)"))
    max_zip_ratio: float = Field(default=100.0, gt=1, description=(
        "Largest compression ratio (uncompressed / compressed size) of one zip member of a DOCX / PPTX / XLSX "
        "file, applied to members over max_zip_ratio_above_mb (zip bombs: ~1000x; real XML: 5-30x)"))
    max_zip_ratio_above_mb: float = Field(default=5.0, ge=0, description=(
        "Zip members expanding to at most this many MB are not held to max_zip_ratio"))
    max_text_mb: float = Field(default=20.0, gt=0, description="Largest converted text of one document, in MB")
    max_chunks_per_file: int = Field(default=20_000, ge=1, description="Most chunks one document may produce")
    max_conversion_s: float = Field(default=300.0, gt=0, description=(
        "Longest conversion + structure + chunking of one file, in seconds (enforced in the main thread "
        "by a timer; elsewhere checked between stages)"))
    lock_timeout_s: float = Field(default=600.0, ge=0, description=(
        "How long an ingest waits for another process's ingest of the same tool before giving up"))


# Fields of HoloDeck's tool configs that docstrata has no use for: dropped with one notice each.
HOLODECK_IGNORED_FIELDS = {
    "document_domain": "numbering is recognised in every document without a domain hint",
    "max_subsection_depth": "every level of numbering is kept",
    "keyword_index": "docstrata's own BM25 is used",
    "record_prefix": "record fields are used as named",
    "meta_prefix": "metadata fields are returned as named",
}


class _ToolBase(_Strict):
    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,63}$", description="Tool name; MCP tools are named '<name>_search' etc.")
    description: str = Field(default="", description="What the tool searches; shown to agents as the MCP tool description")
    source: str = Field(description="File, folder or glob, relative to the config file")
    embedding_model: str = Field(default=DEFAULT_EMBEDDING_MODEL, min_length=1, description=(
        "Embedding model: the bundled all-MiniLM-L6-v2 (default), a local sentence-transformers directory, "
        "or a hosted model (text-embedding-3-small, nomic-embed-text, …) served by embedding_provider"))
    embedding_provider: EmbeddingProviderConfig | None = Field(default=None, description=(
        "Where a hosted embedding model runs (HoloDeck's embedding_provider; a top-level one applies to "
        "every tool without its own). OpenAI's text-embedding-* models need none: they default to OpenAI"))
    embedding_dimensions: int | None = Field(default=None, ge=1, le=8192, description=(
        "Vector size; checked against the model (OpenAI text-embedding-3 models are asked for it)"))
    embedding_backend: str = Field(default="auto", pattern=r"^(auto|torch|openvino|onnx|onnx-int8)$", description=(
        "How the bundled model runs: auto (OpenVINO when installed, the `fast` extra; else PyTorch), "
        "torch, openvino, onnx or onnx-int8 (faster, approximate vectors)"))
    database: DatabaseConfig = Field(default_factory=DatabaseConfig, description=(
        "Where the index lives: a provider name (embedded, in-memory, chromadb, faiss), a postgresql:// DSN, "
        "or a mapping with provider and its settings"))
    defer_loading: bool = Field(default=True, description=(
        "HoloDeck's lazy tool loading; docstrata ingests a tool on its first use either way"))
    follow_symlinks: bool = Field(default=False, description=(
        "Follow symlinks that lead outside the source folder (off: they are reported and not read)"))
    limits: LimitsConfig = Field(default_factory=LimitsConfig, description=(
        "Per-file bounds (size, expanded zip size, text size, chunks, conversion time, lock wait); a file over one is skipped with its reason"))
    # Defaults chosen from five sets (SciFact, the Anthropic codebase, ObliQA as records and as
    # rulebooks, a COVID FAQ; docs/benchmarks.md, "Fusion defaults"). With k = 60 the spec's 0.5/0.3
    # weight ratio outweighs any rank difference in the top 20, so dense order dictates. With the
    # bundled model BM25 is the stronger retriever on four of the five sets, and 3 : 4 : 1 with
    # k = 5 kept hybrid within 0.01 nDCG@10 of the better single mode on all five while giving
    # the best mean gain over it (equal weights at k = 10 fell 0.028 below BM25 on the rulebooks).
    semantic_weight: float = Field(default=DEFAULT_SEMANTIC_WEIGHT, ge=0.0, description="Weight of the dense (embedding) ranking in weighted RRF; 0 turns it off")
    keyword_weight: float = Field(default=DEFAULT_KEYWORD_WEIGHT, ge=0.0, description="Weight of the BM25 ranking in weighted RRF; 0 turns it off")
    exact_weight: float = Field(default=DEFAULT_EXACT_WEIGHT, ge=0.0, description="Weight of the exact ranking (section references, defined terms, quoted phrases, ids) in weighted RRF")
    rrf_k: int = Field(default=DEFAULT_RRF_K, ge=1, le=10000, description="RRF constant k in w / (k + rank), ranks from 1")
    min_fused_score: float | None = Field(default=None, ge=0.0, description=(
        "Threshold on the fused weighted-RRF score (at most the sum of the weights / (rrf_k + 1)); "
        "a pinned hit is never dropped. For a cosine similarity use min_similarity_score / min_score"))

    _coerce_db = field_validator("database", mode="before")(classmethod(lambda cls, v: _coerce_database(v)))
    # Set by parse_config: where this tool sits in the file and where its embedding provider was
    # written, so errors met later (a missing key) name the YAML path the user wrote.
    _yaml_index: int = PrivateAttr(default=-1)
    _provider_origin: str = PrivateAttr(default="")

    @field_validator("source")
    @classmethod
    def _local_source(cls, v: str) -> str:
        """A URL is refused: HoloDeck caches remote files; docstrata reads local files only."""
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", v.strip()):
            raise ValueError("URL sources are not supported; download the file first and set source to its "
                             "local path (relative to the config file)")
        return v

    @property
    def yaml_path(self) -> str:
        """``tools[N]`` as the file numbers it (``tools`` when not loaded from a file)."""
        return f"tools[{self._yaml_index}]" if self._yaml_index >= 0 else "tools"

    def provider_path(self) -> str:
        """The YAML path where this tool's embedding provider was written: ``tools[N].embedding_provider``,
        the top-level ``embedding_provider``, the agent's ``model`` (HoloDeck embeds with it), or, with
        none, ``tools[N].embedding_model`` (an OpenAI model name)."""
        return self._provider_origin or f"{self.yaml_path}.{'embedding_provider' if self.embedding_provider else 'embedding_model'}"

    @model_validator(mode="after")
    def _resolve_embedding_model(self) -> "_ToolBase":
        """With an ``embedding_provider`` and no explicit ``embedding_model``, the provider's
        ``name`` or its default model is used (HoloDeck's behaviour), not the bundled model."""
        p = self.embedding_provider
        if p is not None and "embedding_model" not in self.model_fields_set:
            default = "nomic-embed-text" if p.provider == "ollama" else "text-embedding-3-small"
            self.embedding_model = p.name or default
        if p is not None and p.provider == "anthropic":
            raise ValueError("embedding_provider 'anthropic' has no embeddings API: use openai, azure_openai or ollama")
        return self

    def weight_warning(self) -> str | None:
        """A notice when the fusion weights do not sum to 1 (they are used as given)."""
        total = self.semantic_weight + self.keyword_weight + self.exact_weight
        if abs(total - 1.0) > 1e-6:
            return (f"tool '{self.name}': semantic/keyword/exact weights sum to {total:g}, not 1; "
                    "RRF uses them as given")
        return None

    def _check_fusion(self, threshold: float | None, threshold_field: str, mode: str = "hybrid") -> None:
        """Raises ``ValueError`` when every weight is 0, or when ``threshold`` (on the fused RRF
        score) is above the best score a result of the tool's default ``mode`` can reach, so that
        its searches would never return anything."""
        total = self.semantic_weight + self.keyword_weight + self.exact_weight
        if total == 0:
            raise ValueError("semantic_weight, keyword_weight and exact_weight are all 0: nothing would be searched")
        from .fusion import max_fused_score

        best = max_fused_score(total if mode == "hybrid" else 1.0, self.rrf_k)
        if threshold is not None and threshold > best:
            raise ValueError(
                f"{threshold_field} {threshold:g} can never be met: it filters the fused RRF score, which is at "
                f"most {best:.4f} with these weights and rrf_k {self.rrf_k} (a result found by one modality at "
                f"rank 10 scores {self.keyword_weight / (self.rrf_k + 10):.3f}); for a cosine similarity use "
                "min_similarity_score (vectorstore) or min_score (hierarchical_document)")


class HierarchicalDocumentToolConfig(_ToolBase):
    """A folder of documents searched along their structure (headings and numbered sections)."""

    type: Literal["hierarchical_document"] = Field(description="Tool type: documents searched along their structure")
    chunking_strategy: Literal["structure", "token"] = Field(default="structure", description=(
        "structure: chunks follow sections; token: fixed windows of max_chunk_tokens"))
    max_chunk_tokens: int = Field(default=800, ge=100, le=2000, description="Most tokens of body text per chunk (context not counted)")
    chunk_overlap: int = Field(default=50, ge=0, le=500, description="Tokens repeated between consecutive chunks of one long section")
    search_mode: Literal["hybrid", "semantic", "keyword", "exact"] = Field(default="hybrid", description=(
        "Default search mode: hybrid (weighted RRF of all three), semantic, keyword (BM25) or exact"))
    top_k: int = Field(default=10, ge=1, le=100, description="Default number of results")
    min_score: float | None = Field(default=None, ge=0.0, le=1.0,
                                    validation_alias=AliasChoices("min_score", "min_similarity_score"), description=(
        "HoloDeck's minimum similarity: the cosine similarity of the query and a hit (0-1), computed for "
        "every candidate whichever modality found it; a pinned hit is never dropped. min_similarity_score "
        "(the vectorstore spelling) is the same setting"))
    contextual_embeddings: bool = Field(default=True, description=(
        "Prefix each chunk with its context (document title and section chain, plus an LLM sentence "
        "with context_model) before embedding and BM25"))
    context_model: ContextModelConfig | None = Field(default=None, description=(
        "LLM that writes a per-chunk context (Anthropic's contextual retrieval); none = structural context"))
    context_max_tokens: int = Field(default=100, ge=10, le=1000, description="Token budget of one chunk's context")
    context_concurrency: int = Field(default=10, ge=1, le=100, description="LLM context requests in flight at once")
    extract_definitions: bool = Field(default=True, description="Find defined terms and attach their definitions to results")
    extract_cross_references: bool = Field(default=True, description="Resolve references such as 'see Section 4.2'")
    enable_reranking: bool = Field(default=False, description="Rerank the fused candidates with reranker_model")
    reranker_model: str | LLMProviderConfig | None = Field(default=None, description=(
        "A local cross-encoder directory, an http(s) rerank API URL (Cohere/TEI/Jina shape), or an LLM "
        "provider object (HoloDeck's form) that reranks listwise"))

    @model_validator(mode="after")
    def _check(self) -> "HierarchicalDocumentToolConfig":
        if self.enable_reranking and not self.reranker_model:
            raise ValueError("enable_reranking is true but reranker_model is not set (they are required together)")
        if self.chunk_overlap >= self.max_chunk_tokens:
            raise ValueError("chunk_overlap must be smaller than max_chunk_tokens")
        self._check_fusion(self.min_fused_score, "min_fused_score", self.search_mode)
        return self


class VectorstoreToolConfig(_ToolBase):
    """Structured records (CSV / JSON / JSONL) or, without ``vector_field``, documents (HoloDeck's unstructured mode)."""

    type: Literal["vectorstore"] = Field(description="Tool type: records (CSV / JSON / JSONL) or, without vector_field, documents")
    id_field: str | None = Field(default=None, description=(
        "Field holding each record's unique id (default: detected, as the first field named id / uuid / key "
        "/ sku / code or ending in _id / Id; else the row number, written file:line)"))
    vector_field: str | list[str] | None = Field(default=None, description=(
        "Field(s) whose text is embedded and searched (default for a CSV / JSON / JSONL source file: every "
        "field, one 'name: value' line each)"))
    vector_fields: list[str] | None = Field(default=None, description="Same as vector_field, as a list")
    meta_fields: list[str] | None = Field(default=None, description="Fields returned as metadata, filterable and matched exactly")
    document_field: str | None = Field(default=None, min_length=1, description=(
        "Field naming the document a record was cut from (e.g. doc_id, file path): consecutive records "
        "of one file sharing its value are that document's chunks, in order, and each gets the document's "
        "structural context (declared type names, enclosing scopes), recovered from the record's content"))
    field_separator: str = Field(default="\n", description="Joins several vector_field values into one text")
    delimiter: str | None = Field(default=None, min_length=1, max_length=1, description="CSV delimiter (default: sniffed)")
    record_path: str | None = Field(default=None, description="Dotted path to the list of records inside a JSON file")
    encoding: str | None = Field(default=None, description="File encoding (default: detected; BOMs honoured)")
    header_row: int | None = Field(default=None, ge=1, description="CSV line holding the column names (default: detected)")
    batch_size: int = Field(default=10_000, ge=1, le=1_000_000, description="Records loaded and embedded per batch")
    top_k: int = Field(default=5, ge=1, le=100, description="Default number of results")
    min_similarity_score: float | None = Field(default=None, ge=0.0, le=1.0, description=(
        "HoloDeck's minimum similarity: the cosine similarity of the query and a record (0-1), computed for "
        "every candidate whichever modality found it; a record the query names by id is never dropped"))
    chunk_size: int | None = Field(default=None, ge=100, le=2000, description=(
        "Unstructured mode: most tokens per chunk, counted as HoloDeck counts them (Semantic Kernel's "
        "chunker: 4 characters a token, so 200 = about 800 characters); unset: 512 tokens of the embedding model"))
    chunk_overlap: int | None = Field(default=None, ge=0, le=500, description=(
        "Unstructured mode: tokens shared by consecutive chunks (unit as chunk_size; default 50)"))

    @model_validator(mode="after")
    def _check(self) -> "VectorstoreToolConfig":
        if self.vector_field is not None and self.vector_fields is not None:
            raise ValueError("set 'vector_field' or 'vector_fields', not both")
        if self.document_field and not self.resolved_vector_fields:
            raise ValueError("'document_field' needs 'vector_field': without it files are documents already")
        self._check_fusion(self.min_fused_score, "min_fused_score")
        return self

    @property
    def resolved_vector_fields(self) -> list[str]:
        v = self.vector_fields if self.vector_fields is not None else self.vector_field
        if v is None:
            return []
        return [v] if isinstance(v, str) else list(v)

    @property
    def structured(self) -> bool:
        """Records mode: ``vector_field`` or ``id_field`` is set, or ``source`` names a CSV / TSV /
        JSON / JSONL file (or a glob of them). A folder without either holds documents (HoloDeck's
        unstructured mode), its record files included, each record one section."""
        if self.resolved_vector_fields or self.id_field:
            return True
        return Path(self.source.strip()).suffix.lower().lstrip(".") in RECORD_EXTENSIONS


ToolConfig = Annotated[Union[HierarchicalDocumentToolConfig, VectorstoreToolConfig], Field(discriminator="type")]


class AgentConfig(BaseModel):
    """The parsed agent.yaml: our tools, plus where the file lives (paths resolve against it)."""

    model_config = ConfigDict(extra="forbid")
    tools: list[ToolConfig] = Field(default_factory=list, description=(
        "Tools; docstrata serves those of type hierarchical_document and vectorstore and skips the others"))

    # Not from YAML: set by parse_config.
    base_dir: str = "."
    notices: list[str] = Field(default_factory=list)

    def tool(self, name: str) -> HierarchicalDocumentToolConfig | VectorstoreToolConfig:
        for t in self.tools:
            if t.name == name:
                return t
        raise ConfigError(f"no tool named {name!r}; configured: {', '.join(t.name for t in self.tools) or 'none'}",
                          path="tools")


_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def _substitute_env(value: Any, path: str, used: dict[str, str] | None = None) -> Any:
    """``value`` with ``${VAR}`` / ``${VAR:-default}`` replaced from the environment. ``used``
    collects YAML path → variable name, so errors can name the variable instead of echoing its value;
    values of secret-looking variables (and of DSN / URL fields) are registered with the redactor."""
    from .redact import register_secret, secret_env_name

    if isinstance(value, str):
        leaf = path.rsplit(".", 1)[-1]

        def repl(m: re.Match) -> str:
            name, default = m.group(1), m.group(2)
            if used is not None:
                used[path] = name
            if name in os.environ:
                if secret_env_name(name) or leaf in ("dsn", "url", "connection_string"):
                    register_secret(os.environ[name])
                return os.environ[name]
            if default is not None:
                return default
            raise ConfigError(f"environment variable {name} is not set", path=path)
        return _ENV.sub(repl, value)
    if isinstance(value, list):
        return [_substitute_env(v, f"{path}[{i}]", used) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: _substitute_env(v, f"{path}.{k}" if path else str(k), used) for k, v in value.items()}
    return value


def _yaml_path(loc: tuple, tool_index_map: list[int]) -> str:
    parts: list[str] = []
    items = list(loc)
    i = 0
    while i < len(items):
        p = items[i]
        if p == "tools" and i + 1 < len(items) and isinstance(items[i + 1], int):
            parts.append(f"tools[{tool_index_map[items[i + 1]]}]")
            i += 2
            # skip the discriminator tag pydantic inserts ("hierarchical_document")
            if i < len(items) and items[i] in OUR_TOOL_TYPES:
                i += 1
            continue
        if isinstance(p, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{p}]"]
        elif p in ("function-after[_check()]",) or str(p).startswith(("function-", "str", "list[")):
            pass
        else:
            parts.append(str(p))
        i += 1
    return ".".join(parts)


def parse_config(data: Any, base_dir: str | Path = ".", file: str | None = None) -> AgentConfig:
    """Validate an already-loaded YAML mapping. Raises :class:`ConfigError` naming the YAML path;
    every error found is reported in that one exception (``problems``: (path, message) pairs;
    the message lists up to :data:`MAX_REPORTED_ERRORS` of them, one line each)."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError("the top level must be a mapping with a 'tools:' list", file=file)
    notices: list[str] = []
    problems: list[tuple[str, str]] = []  # (YAML path, message), in file order
    tools_raw = data.get("tools") or []
    if not isinstance(tools_raw, list):
        raise ConfigError("must be a list of tools", path="tools", file=file)
    from_env: dict[str, str] = {}  # YAML path → ${VAR} name
    # HoloDeck's agent-level embedding provider, and the agent's model (HoloDeck embeds with its
    # provider): ${VAR}s read once, at the path the user wrote them, not once per tool.
    shared_embedding = _substituted(data.get("embedding_provider"), "embedding_provider", from_env, problems)
    model_provider = _model_as_embedding_provider(data.get("model"))
    model_used = model_provider is not None and shared_embedding is None and any(
        isinstance(t, dict) and t.get("type") in OUR_TOOL_TYPES and "embedding_provider" not in t
        and _names_hosted_model(t.get("embedding_model"), base_dir) for t in tools_raw)
    model_provider = _substituted(model_provider, "model", from_env, problems) if model_used else None
    for key in data:
        if key in ("tools", "embedding_provider") or (key == "model" and model_used):
            continue
        close = _misspelling_of(str(key), KNOWN_TOP_LEVEL)
        if close:
            problems.append((str(key), f"unknown top-level key '{key}'; did you mean '{close}'?"))
        elif key in HOLODECK_TOP_LEVEL:
            notices.append(f"ignoring top-level key '{key}' (not used by docstrata)")
        else:
            notices.append(f"ignoring top-level key '{key}' (neither docstrata's nor HoloDeck's)")
    ours: list[Any] = []
    index_map: list[int] = []
    origins: list[str] = []  # per tool kept: where its embedding provider was written ("" = its own)
    for i, t in enumerate(tools_raw):
        if not isinstance(t, dict):
            problems.append((f"tools[{i}]", "each tool must be a mapping"))
            continue
        ttype = t.get("type")
        if ttype is None:
            problems.append((f"tools[{i}].type", "missing 'type' (hierarchical_document or vectorstore)"))
            continue
        close = _misspelling_of(str(ttype), OUR_TOOL_TYPES)
        if close:
            problems.append((f"tools[{i}].type", f"unknown tool type {ttype!r}; did you mean {close!r}?"))
            continue
        if ttype not in OUR_TOOL_TYPES:
            notices.append(f"ignoring tool '{t.get('name', i)}' of type '{ttype}' (not a docstrata tool type)")
            continue
        t = dict(t)
        origin = ""
        if shared_embedding is not None and "embedding_provider" not in t:
            if shared_embedding is _UNSET:
                continue  # reported once at embedding_provider
            t["embedding_provider"], origin = dict(shared_embedding), "embedding_provider"
        elif model_provider and "embedding_provider" not in t and _names_hosted_model(t.get("embedding_model"), base_dir):
            if model_provider is _UNSET:
                continue  # reported once at model
            t["embedding_provider"], origin = dict(model_provider), "model"  # HoloDeck embeds with the agent's provider
        db = t.get("database")
        if isinstance(db, dict):
            extra = [k for k in db if (k not in DatabaseConfig.model_fields and k != "connection_string")
                     or (k in ("host", "port") and db.get("provider") != "chromadb")]
            if extra and db.get("provider") not in UNSUPPORTED_DATABASES:
                t["database"] = {k: v for k, v in db.items() if k not in extra}
                notices.append(f"tools[{i}].database: ignored {', '.join(map(repr, extra))} "
                               f"(not used by the {db.get('provider')} store)")
        for key, why in HOLODECK_IGNORED_FIELDS.items():
            if key in t:
                t.pop(key)
                notices.append(f"tools[{i}].{key}: ignored ({why})")
        try:
            provider = t.pop("embedding_provider", None) if origin else None
            t = _substitute_env(t, f"tools[{i}]", from_env)
            if provider is not None:
                t["embedding_provider"] = provider
            ours.append(t)
        except ConfigError as e:
            hint = _HOSTED_KEY_HINT.replace("drop embedding_model", f"remove tools[{i}].embedding_provider") \
                if ".embedding_provider." in e.path else ""
            problems.append((e.path, str(e).split(": ", 1)[-1] + hint))
            continue
        index_map.append(i)
        origins.append(origin)
    cfg = None
    try:
        cfg = AgentConfig(tools=ours)
    except ValidationError as e:
        problems += _validation_problems(e.errors(), index_map, from_env)
    if problems:
        raise _config_errors(sorted(problems, key=lambda p: _path_order(p[0])), file)
    from collections import Counter

    from .redact import register_secret

    dupes = {n for n, c in Counter(t.name for t in cfg.tools).items() if c > 1}
    if dupes:
        raise ConfigError(f"duplicate tool name(s): {', '.join(sorted(dupes))}", path="tools", file=file)
    for t, i, origin in zip(cfg.tools, index_map, origins):
        t._yaml_index, t._provider_origin = i, origin
        register_secret(t.database.dsn)
        register_secret(t.database.url if t.database.url and "@" in t.database.url else None)
        if w := t.weight_warning():
            notices.append(w)
        if t.database.provider == "chromadb" and not t.database.chroma_server and not t.database.path:
            notices.append(f"tool '{t.name}': database chromadb without url / host / connection_string runs Chroma "
                           f"embedded under .docstrata/{t.name}/chroma")
    cfg.base_dir = str(Path(base_dir).resolve())
    cfg.notices = notices
    return cfg


_UNSET = object()
"""Marks a shared provider whose ``${VAR}`` is not set (reported once where it was written)."""

_HOSTED_KEY_HINT = ("; set it (in the environment or in a .env file beside the config), or drop embedding_model "
                    "to embed with the bundled local model")


def _substituted(value: Any, path: str, from_env: dict[str, str], problems: list, hint: str = "") -> Any:
    """``value`` with ``${VAR}`` read (:func:`_substitute_env`), or :data:`_UNSET` with the problem
    recorded under ``path`` when a variable is missing."""
    if value is None:
        return None
    try:
        return _substitute_env(value, path, from_env)
    except ConfigError as e:
        hint = hint or (_HOSTED_KEY_HINT if path == "model" else _HOSTED_KEY_HINT.replace(
            "drop embedding_model", f"remove {path}"))
        problems.append((e.path, str(e).split(": ", 1)[-1] + hint))
        return _UNSET


MAX_REPORTED_ERRORS = 10
"""Most configuration errors listed in one :class:`ConfigError` message (all are in ``problems``)."""


def _validation_problems(errors: list[dict], index_map: list[int], from_env: dict[str, str]) -> list[tuple[str, str]]:
    """pydantic's errors as (YAML path, message) pairs. A field reported missing is left out when an
    unknown field of the same tool suggests it (the typo explains the "missing")."""
    out: list[tuple[str, str]] = []
    suggested: set[str] = set()
    for err in errors:
        if err["type"] != "extra_forbidden":
            continue
        path = _yaml_path(tuple(err["loc"]), index_map)
        hint = _did_you_mean(str(err["loc"][-1]), tuple(err["loc"]))
        out.append((path, f"unknown field '{err['loc'][-1]}'" + hint))
        if hint.startswith("; did you mean '"):
            suggested.add(path.rsplit(".", 1)[0] + "." + hint.split("'")[1])
    for err in errors:
        if err["type"] == "extra_forbidden":
            continue
        path = _yaml_path(tuple(err["loc"]), index_map)
        if err["type"] == "missing" and path in suggested:
            continue
        msg = err["msg"]
        if path in from_env or any(p.startswith(path + ".") for p in from_env if path):
            msg = f"{msg} (value from ${{{from_env.get(path, '…')}}}, not shown)"
        elif "input" in err and err["type"] not in ("missing",) and not isinstance(err["input"], dict):
            from .redact import short

            got = err["input"]
            msg = f"{msg} (got {got if isinstance(got, (int, float, bool)) else short(got)})"
        out.append((path, msg.removeprefix("Value error, ")))
    return out


def _path_order(path: str) -> tuple:
    """Sort key putting YAML paths in file order (tools[2] before tools[10])."""
    return tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"[\[\].]+", path) if x)


def _config_errors(problems: list[tuple[str, str]], file: str | None) -> ConfigError:
    """One :class:`ConfigError` for every problem: the first as its path and message, then one line
    per further problem (up to :data:`MAX_REPORTED_ERRORS` lines in all)."""
    (path, msg), rest = problems[0], problems[1:]
    if rest:
        shown = rest[:MAX_REPORTED_ERRORS - 1]
        lines = [f"  {p}: {m}" if p else f"  {m}" for p, m in shown]
        more = len(rest) - len(shown)
        msg = (f"{msg}\n{len(problems)} errors in all; also:\n" + "\n".join(lines)
               + (f"\n  … and {more} more" if more else ""))
    err = ConfigError(msg, path=path, file=file)
    err.problems = problems
    return err


MAX_YAML_NODES = 2_000_000
"""Most YAML nodes a config may expand to once aliases are followed (an anchor bomb of a few
hundred bytes expands to billions)."""


def load_yaml(text: str) -> Any:
    """Parse YAML ``text`` safely with libyaml's C loader where available, refusing a document
    whose aliases expand to more than :data:`MAX_YAML_NODES` nodes (``ValueError``)."""
    import yaml

    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_cls(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        expanded: dict[int, int] = {}
        open_nodes: set[int] = set()

        def size(n) -> int:  # nodes after alias expansion; each distinct node is measured once
            key = id(n)
            if key in expanded:
                return expanded[key]
            if key in open_nodes:
                raise ValueError("a YAML alias refers to a node that contains it (a recursive alias)")
            open_nodes.add(key)
            if isinstance(n, yaml.SequenceNode):
                total = 1 + sum(size(c) for c in n.value)
            elif isinstance(n, yaml.MappingNode):
                total = 1 + sum(size(k) + size(v) for k, v in n.value)
            else:
                total = 1
            if total > MAX_YAML_NODES:
                raise ValueError(f"YAML aliases expand to more than {MAX_YAML_NODES:,} nodes "
                                 "(an alias/anchor bomb?); write the values out or remove the aliases")
            open_nodes.discard(key)
            expanded[key] = total
            return total

        import sys

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            size(node)
        except RecursionError:
            raise ValueError("YAML nested too deeply") from None
        finally:
            sys.setrecursionlimit(old)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _model_as_embedding_provider(model: Any) -> dict | None:
    """HoloDeck embeds with the agent's ``model`` provider when it has embeddings (openai,
    azure_openai, ollama): its connection fields, as an embedding provider (never its chat model name)."""
    if not isinstance(model, dict) or model.get("provider") not in ("openai", "azure_openai", "ollama"):
        return None
    return {k: model[k] for k in ("provider", "endpoint", "api_key", "api_version") if model.get(k) is not None}


def _names_hosted_model(name: Any, base_dir: str | Path) -> bool:
    """True for an ``embedding_model`` that can only be a hosted one: not the bundled model, not a
    Hugging Face id (``org/name``) or a path, not a folder beside the config."""
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name.startswith((".", "~")):
        return False
    if name.lower() in ("all-minilm-l6-v2",):
        return False
    return not (Path(base_dir) / name).exists()


def _did_you_mean(field: str, loc: tuple) -> str:
    """``"; did you mean 'x'?"`` for a misspelled field, from the fields of the model it sits in."""
    models = {"hierarchical_document": HierarchicalDocumentToolConfig, "vectorstore": VectorstoreToolConfig}
    owner: type[BaseModel] = AgentConfig
    for part in loc[:-1]:
        if part in models:
            owner = models[part]
        elif isinstance(part, str) and owner is not None and part in owner.model_fields:
            ann = owner.model_fields[part].annotation
            owner = next((a for a in getattr(ann, "__args__", (ann,))
                          if isinstance(a, type) and issubclass(a, BaseModel)), None)
    if owner is HierarchicalDocumentToolConfig and field == "min_similarity_score":
        return "; it is the same setting as min_score here: give one of them"
    if owner is VectorstoreToolConfig and field in ("min_score", "min_similarity", "similarity_threshold"):
        return "; did you mean 'min_similarity_score'? (the cosine similarity; min_fused_score is the fused RRF scale)"
    names = list(owner.model_fields) if owner is not None else []
    if owner in models.values():
        names += list(HOLODECK_IGNORED_FIELDS)
    close = difflib.get_close_matches(field, names, n=1, cutoff=0.7)
    return f"; did you mean '{close[0]}'?" if close else ""


def summarize_notices(notices: list[str]) -> str | None:
    """One line for every notice of a config file: what was ignored, by name (details: ``-v``)."""
    if not notices:
        return None
    top = [re.search(r"'([^']+)'", n).group(1) for n in notices if n.startswith("ignoring top-level key")]
    tools = [re.sub(r"ignoring tool '([^']+)' of type '([^']+)'.*", r"\1 (\2)", n)
             for n in notices if n.startswith("ignoring tool ")]
    fields = [n.split(":", 1)[0].split(".", 1)[-1] for n in notices if re.match(r"tools\[\d+\]\.", n)]
    kw_index = "keyword_index" in fields
    fields = [f for f in fields if f != "keyword_index"]
    other = [n for n in notices if not n.startswith(("ignoring top-level key", "ignoring tool "))
             and not re.match(r"tools\[\d+\]\.", n)]
    parts = []
    if top:
        parts.append(f"top-level {', '.join(top)}")
    if tools:
        parts.append(f"tools {', '.join(tools)}")
    if fields:
        parts.append(f"fields {', '.join(dict.fromkeys(fields))}")
    if kw_index:
        parts.append("keyword_index: docstrata's own BM25 is used")
    line = f"ignored {len(notices) - len(other)} HoloDeck-only setting(s) docstrata does not use: {'; '.join(parts)}" \
        if parts else ""
    line = "; ".join(x for x in [line, *other] if x)
    return line + " (details: -v)"


def holodeck_global_config(agent_dir: str | Path) -> tuple[dict, list[str]]:
    """HoloDeck's shared settings for an agent: ``config.yaml`` (or ``.yml``) beside it over
    ``~/.holodeck/config.yaml``, merged as HoloDeck merges them (the project's keys win).
    Returns (the merged mapping, the files read). A file that cannot be read or parsed is skipped
    (it is HoloDeck's, not ours; HoloDeck reports it)."""
    import yaml

    merged: dict = {}
    files: list[str] = []
    for folder in (Path.home() / ".holodeck", Path(agent_dir)):
        for name in ("config.yaml", "config.yml"):
            f = folder / name
            if not f.is_file():
                continue
            try:
                data = load_yaml(f.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError):
                break
            if isinstance(data, dict):
                for key, value in data.items():
                    if isinstance(value, dict) and isinstance(merged.get(key), dict):
                        merged[key] = {**merged[key], **value}
                    else:
                        merged[key] = value
                files.append(str(f))
            break
    return merged, files


def apply_holodeck_config(data: Any, agent_dir: str | Path) -> list[str]:
    """Resolve what HoloDeck resolves from its ``config.yaml`` before validating ``data`` (in place):
    a vectorstore tool's ``database: <name>`` naming one of its ``vectorstores`` becomes that store
    (``provider``, ``connection_string``, ``options``; ``postgresql`` read as ``postgres``; a
    postgres store's libpq ``options`` such as ``sslmode`` join its DSN as URI parameters), and the
    agent's ``model`` takes the matching ``providers`` entry's keys it does not set itself (its
    endpoint and key, which a hosted ``embedding_model`` then uses). Returns what was resolved, one
    line each (logged at debug level: it is what HoloDeck itself does, nothing ignored)."""
    if not isinstance(data, dict):
        return []
    shared, files = holodeck_global_config(agent_dir)
    if not files:
        return []
    out: list[str] = []
    stores = shared.get("vectorstores") if isinstance(shared.get("vectorstores"), dict) else {}
    for i, tool in enumerate(data.get("tools") or []):
        if not isinstance(tool, dict) or tool.get("type") != "vectorstore" or not isinstance(tool.get("database"), str):
            continue
        named = stores.get(tool["database"])
        if not isinstance(named, dict) or not named.get("provider"):
            continue
        db = {"provider": {"postgresql": "postgres"}.get(str(named["provider"]).lower(), named["provider"])}
        conn = named.get("connection_string")
        options = dict(named.get("options") or {}) if isinstance(named.get("options"), dict) else {}
        if db["provider"] == "postgres" and conn and options:  # libpq settings (sslmode, …): URI parameters
            from urllib.parse import urlencode

            extra = {k: v for k, v in options.items() if k not in DatabaseConfig.model_fields}
            try:  # ${VAR} first: where the parameters go depends on the DSN it holds
                conn = _substitute_env(str(conn), f"tools[{i}].database.connection_string")
            except ConfigError:
                pass  # reported where the tool is validated
            conn = f"{conn}{'&' if '?' in str(conn) else '?'}{urlencode(extra)}" if extra else conn
            options = {k: v for k, v in options.items() if k in DatabaseConfig.model_fields}
        if conn:
            db["connection_string"] = conn
        db.update(options)
        out.append(f"tools[{i}].database: '{tool['database']}' is the vectorstore of that name in {files[-1]}")
        tool["database"] = db
    providers = shared.get("providers") if isinstance(shared.get("providers"), dict) else {}
    model = data.get("model")
    if isinstance(model, dict) and model.get("provider") and providers:
        entry = providers.get(model["provider"]) or next(
            (p for p in providers.values() if isinstance(p, dict) and p.get("provider") == model["provider"]), None)
        if isinstance(entry, dict):
            for key, value in entry.items():
                model.setdefault(key, value)
    return out


def yaml_line(text: str, path: str) -> int | None:
    """The 1-based line of the YAML path ``path`` (``tools[0].database.provider``, as
    :class:`ConfigError` names it) in the YAML ``text``: the line of its key, or of the closest
    enclosing key that exists (a missing field is reported at its tool). ``None`` if unparsable."""
    import yaml

    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return None
    line = None
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if getattr(k, "value", None) == part), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and part.startswith("["):
            i = int(part[1:-1])
            if i >= len(node.value):
                break
            node = node.value[i]
            line = node.start_mark.line + 1
        else:
            break
    return line


def check_file(path: str | Path) -> tuple[AgentConfig | None, list[tuple[int | None, str, str]]]:
    """Validate ``path`` exactly as :func:`load_config` does (the same code: the two cannot
    disagree). Returns (the config or ``None``, problems as (line, YAML path, message) in file order)."""
    try:
        return load_config(path), []
    except ConfigError as e:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        out = []
        for where, msg in e.problems:
            out.append((yaml_line(text, where) if where else None, where, msg))
        return None, sorted(out, key=lambda p: p[0] or 0)


def load_dotenv_beside(config_path: str | Path) -> list[str]:
    """Read the ``.env`` file in the config file's folder into the environment, as HoloDeck loads
    a project's ``.env``: variables already set win (it never overrides), ``${VAR}`` in the YAML
    and ``api_key_env`` then see its values. Returns the names it set (logged at debug level, never
    their values; secret-looking ones are registered with the redactor)."""
    env_file = Path(config_path).resolve().parent / ".env"
    if not env_file.is_file():
        return []
    from dotenv import dotenv_values

    from .redact import register_secret, secret_env_name

    try:
        values = dotenv_values(env_file)
    except (OSError, UnicodeDecodeError) as e:
        log.warning("%s: not read (%s)", env_file, type(e).__name__)
        return []
    added = []
    for name, value in values.items():
        if value is None or name in os.environ:
            continue
        os.environ[name] = value
        if secret_env_name(name):
            register_secret(value)
        added.append(name)
    if added:
        log.debug("%s: set %s", env_file, ", ".join(added))
    return added


def load_config(path: str | Path = "agent.yaml") -> AgentConfig:
    """Read and validate ``path``. Raises :class:`ConfigError` (file missing, bad YAML, bad field)."""
    import yaml

    p = Path(path)
    if not p.is_file():
        raise ConfigError("file not found", file=str(p))
    try:
        data = load_yaml(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise ConfigError(f"invalid YAML{where}: {getattr(e, 'problem', e)}", file=str(p)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read: {e}", file=str(p)) from None
    except ValueError as e:
        raise ConfigError(str(e), file=str(p)) from None
    load_dotenv_beside(p)
    resolved = apply_holodeck_config(data, p.resolve().parent)
    cfg = parse_config(data, base_dir=p.resolve().parent, file=str(p))
    for n in resolved:
        log.debug("%s: %s", p, n)
    summary = summarize_notices(cfg.notices)
    if summary:
        log.warning("%s: %s", p, summary)
    for n in cfg.notices:
        log.debug("%s: %s", p, n)
    return cfg


# HoloDeck's own top-level keys: accepted and skipped (docstrata reads tools and embedding_provider).
HOLODECK_TOP_LEVEL = {
    "name": "Agent name (HoloDeck)", "description": "Agent description (HoloDeck)", "author": "Agent author (HoloDeck)",
    "model": "The agent's LLM (HoloDeck)", "instructions": "System prompt, inline or file (HoloDeck)",
    "response_format": "Structured output schema (HoloDeck)", "evaluations": "Evaluation metrics (HoloDeck)",
    "test_cases": "Test scenarios (HoloDeck)", "test_cases_file": "Test scenarios in a file (HoloDeck)",
    "tool_filtering": "Per-request tool filtering (HoloDeck)", "execution": "Execution settings (HoloDeck)",
    "observability": "Tracing and metrics (HoloDeck)", "deployment": "Deployment settings (HoloDeck)",
    "claude": "Claude Agent SDK settings (HoloDeck)", "openai": "OpenAI Agents settings (HoloDeck)",
}
KNOWN_TOP_LEVEL = ("tools", "embedding_provider", *HOLODECK_TOP_LEVEL)
"""Top-level keys accepted silently-by-name: ours and HoloDeck's (its ``Agent`` model, extra="forbid",
plus ``test_cases_file`` and ``tool_filtering`` of earlier releases). A key one edit from one of them
is refused with a "did you mean"; any other key is ignored with a notice (schema and loader alike)."""
# Fields whose description lives outside this module's Field() calls (thresholds: search.py's meaning).
_FALLBACK_DESCRIPTIONS = {
    "min_score": "Minimum score a result needs (see docs: thresholds)",
    "min_similarity_score": "Minimum similarity a result needs (HoloDeck's meaning; see docs: thresholds)",
}


def json_schema() -> str:
    """The JSON Schema of agent.yaml, as indented JSON text.

    It accepts every file :func:`parse_config` accepts: HoloDeck's top-level keys, its other tool
    types (mcp, function, prompt, …), its tool fields docstrata ignores, ``connection_string`` and
    the string forms of ``database``. Every property carries a description.
    """
    schema = AgentConfig.model_json_schema()
    for internal in ("base_dir", "notices"):
        schema["properties"].pop(internal, None)
    schema["title"] = "docstrata agent.yaml"
    defs = schema.get("$defs", {})
    # Any other key is accepted (the loader ignores it with a notice) unless it is one edit from a
    # known key: that is a misspelling, refused by both (the loader says "did you mean").
    schema["additionalProperties"] = {"description": "Another key: accepted and ignored with a notice"}
    schema["propertyNames"] = {"anyOf": [{"enum": list(KNOWN_TOP_LEVEL)},
                                         {"not": {"pattern": misspelling_pattern(KNOWN_TOP_LEVEL)}}]}
    for key, text in HOLODECK_TOP_LEVEL.items():
        schema["properties"][key] = {"description": f"{text}; not used by docstrata"}
    schema["properties"]["embedding_provider"] = {
        "$ref": "#/$defs/EmbeddingProviderConfig",
        "description": "HoloDeck's agent-level embedding provider; applies to every tool without its own"}
    items = schema["properties"]["tools"]["items"]
    other = {"type": "object", "required": ["type"], "additionalProperties": True,
             "description": "A tool of another type (HoloDeck's mcp, function, prompt, …); skipped by docstrata",
             "properties": {"type": {"type": "string", "not": {"pattern": misspelling_pattern(OUR_TOOL_TYPES)},
                                     "description": "Tool type (not ours, nor one edit from ours: a misspelling)"}}}
    schema["properties"]["tools"]["items"] = {"anyOf": [items, other]}
    for name in ("HierarchicalDocumentToolConfig", "VectorstoreToolConfig"):
        props = defs[name]["properties"]
        for key, why in HOLODECK_IGNORED_FIELDS.items():
            props.setdefault(key, {"description": f"HoloDeck's; accepted and ignored: {why}"})
        if name == "HierarchicalDocumentToolConfig":
            props["min_similarity_score"] = {**props["min_score"],
                                             "description": "Same as min_score (HoloDeck's vectorstore spelling)"}
            defs[name]["not"] = {"required": ["min_score", "min_similarity_score"]}
        db = props["database"]
        names = {"type": "string", "enum": ["embedded", "in-memory", "memory", "inmemory", "chromadb", "faiss"],
                 "description": "A provider name"}
        if name == "VectorstoreToolConfig":  # any name config.yaml's vectorstores: may hold
            names = {"type": "string", "pattern": r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$",
                     "not": {"enum": sorted(UNSUPPORTED_DATABASES)}, "description": (
                "A provider name (embedded, in-memory, chromadb, faiss) or the name of a store in the "
                "vectorstores: of HoloDeck's config.yaml beside the file or in ~/.holodeck/config.yaml")}
        props["database"] = {"description": db.get("description", ""), "default": db.get("default"),
                             "anyOf": [{"$ref": "#/$defs/DatabaseConfig"}, names,
                                       {"type": "string", "pattern": "^postgres(ql)?://",
                                        "description": "A postgresql:// DSN"}]}
    dbdef = defs["DatabaseConfig"]
    dbdef["properties"]["connection_string"] = {
        "type": "string", "description": ("HoloDeck's spelling: read as dsn (postgres), url (qdrant; chromadb when "
                                          "http(s)://) or path")}
    dbdef["additionalProperties"] = True  # other keys are dropped with a notice, as the loader does
    dbdef["allOf"] = [
        {"if": {"properties": {"provider": {"const": "postgres"}}, "required": ["provider"]},
         "then": {"anyOf": [{"required": ["dsn"]}, {"required": ["connection_string"]}]}},
        {"if": {"properties": {"provider": {"const": "qdrant"}}, "required": ["provider"]},
         "then": {"anyOf": [{"required": ["url"]}, {"required": ["path"]}, {"required": ["connection_string"]}]}},
    ]
    for model in defs.values():  # pydantic's schema shows a field under its name, not its other spellings
        if "base_url" in model.get("properties", {}):
            model["properties"]["endpoint"] = {**model["properties"]["base_url"],
                                               "description": "HoloDeck's spelling of base_url"}
    for model in defs.values():
        for key, prop in model.get("properties", {}).items():
            if not prop.get("description"):
                prop["description"] = _FALLBACK_DESCRIPTIONS.get(key, key.replace("_", " "))
    return json.dumps(schema, indent=2)
