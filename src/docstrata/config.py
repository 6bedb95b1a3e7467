"""agent.yaml → validated pydantic models.

The file holds a ``tools:`` list (the shape HoloDeck uses). Tools of type
``hierarchical_document`` and ``vectorstore`` are ours; other tool types and other top-level
keys (``model``, ``instructions``, ``evaluations``, …) are ignored with one notice each, so
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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import ConfigError
from .fusion import DEFAULT_EXACT_WEIGHT, DEFAULT_KEYWORD_WEIGHT, DEFAULT_RRF_K, DEFAULT_SEMANTIC_WEIGHT

log = logging.getLogger("docstrata")

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
OUR_TOOL_TYPES = ("hierarchical_document", "vectorstore")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ContextModelConfig(_Strict):
    """An LLM that writes per-chunk contexts (Anthropic's contextual retrieval).

    The API key is read from the environment variable ``api_key_env`` (default
    ``ANTHROPIC_API_KEY`` / ``OPENAI_API_KEY``); it is never stored in the YAML.
    """

    provider: Literal["anthropic", "openai"]
    name: str
    base_url: str | None = None
    api_key_env: str | None = None
    context_window: int | None = Field(default=None, ge=512, description="Model context window in tokens; longer documents are cut keeping beginning and end (default: known models' window, else 8192)")


class DatabaseConfig(_Strict):
    """Where a tool's index lives.

    ``embedded`` (default): SQLite + tantivy + vectors under ``.docstrata/<tool>/`` beside the
    config (or under ``path``). ``in-memory``: nothing on disk. ``postgres``: ``dsn`` required.
    ``qdrant``: ``url`` or ``path``.
    """

    provider: Literal["embedded", "in-memory", "postgres", "qdrant"] = "embedded"
    dsn: str | None = None
    url: str | None = None
    path: str | None = None
    api_key_env: str | None = None

    @model_validator(mode="after")
    def _check(self) -> "DatabaseConfig":
        if self.provider == "postgres" and not self.dsn:
            raise ValueError("provider 'postgres' needs 'dsn'")
        if self.provider == "qdrant" and not (self.url or self.path):
            raise ValueError("provider 'qdrant' needs 'url' or 'path'")
        return self


SUPPORTED_DATABASES = ("embedded", "in-memory", "postgres", "qdrant")


def _coerce_database(v: Any) -> Any:
    if v is None:
        return DatabaseConfig()
    if isinstance(v, str):
        if v in ("embedded", "in-memory", "memory", "inmemory"):
            return DatabaseConfig(provider="in-memory" if v != "embedded" else "embedded")
        if v.startswith(("postgres://", "postgresql://")):
            return DatabaseConfig(provider="postgres", dsn=v)
        raise ValueError(f"unknown database {v!r}: use 'embedded', 'in-memory', a postgresql:// DSN or a mapping "
                         "with 'provider' (named stores from HoloDeck's config.yaml are not read: inline them)")
    if isinstance(v, dict) and "connection_string" in v:  # HoloDeck's spelling
        v = dict(v)
        conn = v.pop("connection_string")
        v.setdefault("url" if v.get("provider") == "qdrant" else "dsn", conn)
    if isinstance(v, dict) and v.get("provider") not in (None, *SUPPORTED_DATABASES):
        raise ValueError(f"database provider {v.get('provider')!r} is not supported; "
                         f"use one of: {', '.join(SUPPORTED_DATABASES)}")
    return v


# Fields of HoloDeck's tool configs that docstrata has no use for: dropped with one notice each.
HOLODECK_IGNORED_FIELDS = {
    "document_domain": "numbering is recognised in every document without a domain hint",
    "max_subsection_depth": "every level of numbering is kept",
    "keyword_index": "BM25 always runs on the tool's own store",
    "record_prefix": "record fields are used as named",
    "meta_prefix": "metadata fields are returned as named",
}


class _ToolBase(_Strict):
    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,63}$", description="Tool name; MCP tools are named '<name>_search' etc.")
    description: str = ""
    source: str = Field(description="File, folder or glob, relative to the config file")
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_dimensions: int | None = Field(default=None, ge=1, le=8192)
    # auto: OpenVINO when installed (the `fast` extra), else PyTorch; or torch | openvino | onnx | onnx-int8
    embedding_backend: str = Field(default="auto", pattern=r"^(auto|torch|openvino|onnx|onnx-int8)$")
    database: DatabaseConfig = Field(default_factory=DatabaseConfig)
    defer_loading: bool = True
    # Defaults chosen from five sets (SciFact, the Anthropic codebase, ObliQA as records and as
    # rulebooks, a COVID FAQ; docs/benchmarks.md, "Fusion defaults"). With k = 60 the spec's 0.5/0.3
    # weight ratio outweighs any rank difference in the top 20, so dense order dictates. With the
    # bundled model BM25 is the stronger retriever on four of the five sets, and 3 : 4 : 1 with
    # k = 5 kept hybrid within 0.01 nDCG@10 of the better single mode on all five while giving
    # the best mean gain over it (equal weights at k = 10 fell 0.028 below BM25 on the rulebooks).
    semantic_weight: float = Field(default=DEFAULT_SEMANTIC_WEIGHT, ge=0.0)
    keyword_weight: float = Field(default=DEFAULT_KEYWORD_WEIGHT, ge=0.0)
    exact_weight: float = Field(default=DEFAULT_EXACT_WEIGHT, ge=0.0)
    rrf_k: int = Field(default=DEFAULT_RRF_K, ge=1, le=10000)

    _coerce_db = field_validator("database", mode="before")(classmethod(lambda cls, v: _coerce_database(v)))

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
                f"rank 10 scores {self.keyword_weight / (self.rrf_k + 10):.3f}); it is not a cosine similarity")


class HierarchicalDocumentToolConfig(_ToolBase):
    """A folder of documents searched along their structure (headings and numbered sections)."""

    type: Literal["hierarchical_document"]
    chunking_strategy: Literal["structure", "token"] = "structure"
    max_chunk_tokens: int = Field(default=800, ge=100, le=2000)
    chunk_overlap: int = Field(default=50, ge=0, le=500)
    search_mode: Literal["hybrid", "semantic", "keyword", "exact"] = "hybrid"
    top_k: int = Field(default=10, ge=1, le=100)
    min_score: float | None = Field(default=None, ge=0.0)
    contextual_embeddings: bool = True
    context_model: ContextModelConfig | None = None
    context_max_tokens: int = Field(default=100, ge=10, le=1000)
    context_concurrency: int = Field(default=10, ge=1, le=100)
    extract_definitions: bool = True
    extract_cross_references: bool = True
    enable_reranking: bool = False
    reranker_model: str | None = None

    @model_validator(mode="after")
    def _check(self) -> "HierarchicalDocumentToolConfig":
        if self.enable_reranking and not self.reranker_model:
            raise ValueError("enable_reranking is true but reranker_model is not set (they are required together)")
        if self.reranker_model and not self.enable_reranking:
            raise ValueError("reranker_model is set but enable_reranking is false (they are required together)")
        if self.chunk_overlap >= self.max_chunk_tokens:
            raise ValueError("chunk_overlap must be smaller than max_chunk_tokens")
        self._check_fusion(self.min_score, "min_score", self.search_mode)
        return self


class VectorstoreToolConfig(_ToolBase):
    """Structured records (CSV / JSON / JSONL) or, without ``vector_field``, documents (HoloDeck's unstructured mode)."""

    type: Literal["vectorstore"]
    id_field: str | None = None
    vector_field: str | list[str] | None = None
    vector_fields: list[str] | None = None
    meta_fields: list[str] | None = None
    document_field: str | None = Field(default=None, min_length=1, description=(
        "Field naming the document a record was cut from (e.g. doc_id, file path): consecutive records "
        "of one file sharing its value are that document's chunks, in order, and each gets the document's "
        "structural context (declared type names, enclosing scopes), recovered from the record's content"))
    field_separator: str = "\n"
    delimiter: str | None = Field(default=None, min_length=1, max_length=1)
    record_path: str | None = None
    encoding: str | None = None
    header_row: int | None = Field(default=None, ge=1)
    batch_size: int = Field(default=10_000, ge=1, le=1_000_000)
    top_k: int = Field(default=5, ge=1, le=100)
    min_similarity_score: float | None = Field(default=None, ge=0.0)
    chunk_size: int | None = Field(default=None, ge=100, le=2000)
    chunk_overlap: int | None = Field(default=None, ge=0, le=500)

    @model_validator(mode="after")
    def _check(self) -> "VectorstoreToolConfig":
        if self.vector_field is not None and self.vector_fields is not None:
            raise ValueError("set 'vector_field' or 'vector_fields', not both")
        if self.resolved_vector_fields and not self.id_field:
            raise ValueError("'id_field' is required once 'vector_field' is set")
        if self.document_field and not self.resolved_vector_fields:
            raise ValueError("'document_field' needs 'vector_field': without it files are documents already")
        self._check_fusion(self.min_similarity_score, "min_similarity_score")
        return self

    @property
    def resolved_vector_fields(self) -> list[str]:
        v = self.vector_fields if self.vector_fields is not None else self.vector_field
        if v is None:
            return []
        return [v] if isinstance(v, str) else list(v)

    @property
    def structured(self) -> bool:
        return bool(self.resolved_vector_fields)


ToolConfig = Annotated[Union[HierarchicalDocumentToolConfig, VectorstoreToolConfig], Field(discriminator="type")]


class AgentConfig(BaseModel):
    """The parsed agent.yaml: our tools, plus where the file lives (paths resolve against it)."""

    model_config = ConfigDict(extra="forbid")
    tools: list[ToolConfig] = Field(default_factory=list)

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


def _substitute_env(value: Any, path: str) -> Any:
    if isinstance(value, str):
        def repl(m: re.Match) -> str:
            name, default = m.group(1), m.group(2)
            if name in os.environ:
                return os.environ[name]
            if default is not None:
                return default
            raise ConfigError(f"environment variable {name} is not set", path=path)
        return _ENV.sub(repl, value)
    if isinstance(value, list):
        return [_substitute_env(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: _substitute_env(v, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
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
    """Validate an already-loaded YAML mapping. Raises :class:`ConfigError` naming the YAML path."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError("the top level must be a mapping with a 'tools:' list", file=file)
    notices: list[str] = []
    tools_raw = data.get("tools") or []
    if not isinstance(tools_raw, list):
        raise ConfigError("must be a list of tools", path="tools", file=file)
    for key in data:
        if key != "tools":
            notices.append(f"ignoring top-level key '{key}' (not used by docstrata)")
    ours: list[Any] = []
    index_map: list[int] = []
    for i, t in enumerate(tools_raw):
        if not isinstance(t, dict):
            raise ConfigError("each tool must be a mapping", path=f"tools[{i}]", file=file)
        ttype = t.get("type")
        if ttype is None:
            raise ConfigError("missing 'type' (hierarchical_document or vectorstore)", path=f"tools[{i}].type", file=file)
        close = difflib.get_close_matches(str(ttype), OUR_TOOL_TYPES, n=1, cutoff=0.75)
        if ttype not in OUR_TOOL_TYPES and close:
            raise ConfigError(f"unknown tool type {ttype!r}; did you mean {close[0]!r}?", path=f"tools[{i}].type",
                              file=file)
        if ttype not in OUR_TOOL_TYPES:
            notices.append(f"ignoring tool '{t.get('name', i)}' of type '{ttype}' (not a docstrata tool type)")
            continue
        t = dict(t)
        for key, why in HOLODECK_IGNORED_FIELDS.items():
            if key in t:
                t.pop(key)
                notices.append(f"tools[{i}].{key}: ignored ({why})")
        try:
            ours.append(_substitute_env(t, f"tools[{i}]"))
        except ConfigError as e:
            raise ConfigError(str(e).split(": ", 1)[-1], path=e.path, file=file) from None
        index_map.append(i)
    try:
        cfg = AgentConfig(tools=ours)
    except ValidationError as e:
        err = e.errors()[0]
        path = _yaml_path(tuple(err["loc"]), index_map)
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = f"unknown field '{err['loc'][-1]}'"
        elif "input" in err and err["type"] not in ("missing",) and not isinstance(err["input"], dict):
            msg = f"{msg} (got {err['input']!r})"
        raise ConfigError(msg.removeprefix("Value error, "), path=path, file=file) from None
    names = [t.name for t in cfg.tools]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise ConfigError(f"duplicate tool name(s): {', '.join(sorted(dupes))}", path="tools", file=file)
    for t in cfg.tools:
        if w := t.weight_warning():
            notices.append(w)
    cfg.base_dir = str(Path(base_dir).resolve())
    cfg.notices = notices
    return cfg


def load_config(path: str | Path = "agent.yaml") -> AgentConfig:
    """Read and validate ``path``. Raises :class:`ConfigError` (file missing, bad YAML, bad field)."""
    import yaml

    p = Path(path)
    if not p.is_file():
        raise ConfigError("file not found", file=str(p))
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise ConfigError(f"invalid YAML{where}: {getattr(e, 'problem', e)}", file=str(p)) from None
    cfg = parse_config(data, base_dir=p.resolve().parent, file=str(p))
    for n in cfg.notices:
        log.warning("%s: %s", p, n)
    return cfg


def json_schema() -> str:
    """The JSON Schema of agent.yaml, as indented JSON text."""
    schema = AgentConfig.model_json_schema()
    for internal in ("base_dir", "notices"):
        schema["properties"].pop(internal, None)
    schema["title"] = "docstrata agent.yaml"
    return json.dumps(schema, indent=2)
