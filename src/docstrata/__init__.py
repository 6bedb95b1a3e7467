"""docstrata: structure-aware hybrid search over documents and records for AI agents.

import docstrata
tools = docstrata.open("agent.yaml")
for r in tools["policies"].search("right to erasure"):
    print(r.format())
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .tools import Toolset


def open(path: str | Path = "agent.yaml") -> "Toolset":  # noqa: A001 - mirrors the builtin on purpose
    """Load ``agent.yaml`` and return its tools by name. Raises :class:`~docstrata.errors.ConfigError`."""
    from .config import load_config
    from .tools import Toolset

    return Toolset(load_config(path))


def __getattr__(name: str):
    lazy = {
        "ConfigError": "errors",
        "ConversionError": "errors",
        "RecordError": "errors",
        "SourceError": "errors",
        "StoreError": "errors",
        "ProviderError": "errors",
        "DocstrataError": "errors",
        "QueryError": "errors",
        "SearchResult": "models",
        "RecordResult": "models",
        "IngestReport": "models",
        "Toolset": "tools",
        "HierarchicalDocumentTool": "tools",
        "VectorstoreTool": "tools",
    }
    if name in lazy:
        import importlib

        return getattr(importlib.import_module(f".{lazy[name]}", __name__), name)
    raise AttributeError(f"module 'docstrata' has no attribute {name!r}")


__all__ = [
    "open",
    "__version__",
    "ConfigError",
    "ConversionError",
    "RecordError",
    "SourceError",
    "StoreError",
    "ProviderError",
    "DocstrataError",
    "QueryError",
    "SearchResult",
    "RecordResult",
    "IngestReport",
    "Toolset",
    "HierarchicalDocumentTool",
    "VectorstoreTool",
]
