"""agent.yaml → validated pydantic models.

The file holds a ``tools:`` list (the shape HoloDeck uses). Tools of type
``hierarchical_document`` and ``vectorstore`` are ours; other tool types and other top-level
keys (``model``, ``instructions``, ``evaluations``, …) are ignored (one notice each in ``notices``, logged as one summary line), so
HoloDeck files load unchanged. ``${VAR}`` and ``${VAR:-default}`` are substituted from the
environment in string values. Every error is a :class:`~docstrata.errors.ConfigError` naming
the YAML path of the bad field.

Modules: :mod:`.models` (the pydantic models), :mod:`.loading` (file → models, errors by YAML path
and line), :mod:`.env` (``${VAR}`` and ``.env``), :mod:`.holodeck` (HoloDeck's keys and
``config.yaml``), :mod:`.yaml_text` (bounded YAML load), :mod:`.schema` (``docstrata schema``).
"""

from .env import load_dotenv_beside
from .holodeck import (
    HOLODECK_TOP_LEVEL,
    KNOWN_TOP_LEVEL,
    apply_holodeck_config,
    holodeck_global_config,
    summarize_notices,
)
from .loading import MAX_REPORTED_ERRORS, check_file, load_config, parse_config
from .models import (
    DEFAULT_EMBEDDING_MODEL,
    HOLODECK_IGNORED_FIELDS,
    OUR_TOOL_TYPES,
    RECORD_EXTENSIONS,
    SUPPORTED_DATABASES,
    UNSUPPORTED_DATABASES,
    AgentConfig,
    ContextModelConfig,
    DatabaseConfig,
    EmbeddingProviderConfig,
    HierarchicalDocumentToolConfig,
    LimitsConfig,
    LLMProviderConfig,
    OcrConfig,
    ToolConfig,
    VectorstoreToolConfig,
    misspelling_pattern,
)
from .schema import json_schema
from .yaml_text import MAX_YAML_NODES, load_yaml, yaml_line

__all__ = [
    "AgentConfig",
    "ContextModelConfig",
    "DatabaseConfig",
    "EmbeddingProviderConfig",
    "HierarchicalDocumentToolConfig",
    "LLMProviderConfig",
    "LimitsConfig",
    "OcrConfig",
    "ToolConfig",
    "VectorstoreToolConfig",
    "DEFAULT_EMBEDDING_MODEL",
    "HOLODECK_IGNORED_FIELDS",
    "HOLODECK_TOP_LEVEL",
    "KNOWN_TOP_LEVEL",
    "MAX_REPORTED_ERRORS",
    "MAX_YAML_NODES",
    "OUR_TOOL_TYPES",
    "RECORD_EXTENSIONS",
    "SUPPORTED_DATABASES",
    "UNSUPPORTED_DATABASES",
    "apply_holodeck_config",
    "check_file",
    "holodeck_global_config",
    "json_schema",
    "load_config",
    "load_dotenv_beside",
    "load_yaml",
    "misspelling_pattern",
    "parse_config",
    "summarize_notices",
    "yaml_line",
]
