"""docstrata: structure-aware hybrid search over documents and records for AI agents."""

from __future__ import annotations

__version__ = "0.1.0"
