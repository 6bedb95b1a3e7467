"""Per-chunk context prepended before embedding and BM25 (DESIGN §6).

* ``StructuralContextualizer`` (default, offline): the document title and the chunk's parent
  chain, e.g. ``"GDPR > Chapter III > Article 17 Right to erasure"``.
* LLM contextualizers (Anthropic's contextual retrieval) are configured with ``context_model``.

A contextualizer sets ``chunk.context`` in place; the context is budgeted on its own
(``context_max_tokens``) and never shortens ``chunk.content``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

from .models import Chunk, Document

log = logging.getLogger("docstrata")


@dataclass
class ContextStats:
    """What contextualizing cost: LLM calls made, tokens in/out, cache-read tokens, cache hits."""

    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_hits: int = 0
    failures: int = 0
    warnings: list[str] = field(default_factory=list)


class Contextualizer(Protocol):
    name: str

    def contextualize(self, document: Document, chunks: list[Chunk]) -> ContextStats:
        """Set ``context`` (and ``context_truncated``) on each chunk of ``document``."""


def structural_context(chunk: Chunk, max_words: int = 60) -> str:
    """``"<document title> > <parent chain>"``, cut to ``max_words`` words keeping the innermost titles."""
    parts = [p for p in ([chunk.document_title] + list(chunk.parent_chain)) if p]
    deduped = [p for i, p in enumerate(parts) if i == 0 or p != parts[i - 1]]
    text = " > ".join(deduped)
    words = text.split()
    return text if len(words) <= max_words else "… " + " ".join(words[-max_words:])


class StructuralContextualizer:
    """Offline context from structure: document title and parent chain."""

    name = "structural"

    def __init__(self, max_tokens: int = 100):
        self.max_words = max(5, int(max_tokens * 0.75))  # ~1.3 word pieces per English word

    def contextualize(self, document: Document, chunks: list[Chunk]) -> ContextStats:
        for c in chunks:
            c.context = structural_context(c, self.max_words)
        return ContextStats()


class NoContextualizer:
    """No context: ``contextualized_content == content`` (used by ``eval --no-context``)."""

    name = "none"

    def contextualize(self, document: Document, chunks: list[Chunk]) -> ContextStats:
        for c in chunks:
            c.context = ""
        return ContextStats()


def make_contextualizer(tool_cfg, cache_dir=None) -> Contextualizer:
    """The contextualizer a ``hierarchical_document`` tool config asks for.

    ``contextual_embeddings: false`` → none; no ``context_model`` → structural (said once in the log).
    """
    if not getattr(tool_cfg, "contextual_embeddings", True):
        return NoContextualizer()
    if getattr(tool_cfg, "context_model", None) is None:
        return StructuralContextualizer(getattr(tool_cfg, "context_max_tokens", 100))
    raise NotImplementedError("LLM contextualizers are not available yet")
