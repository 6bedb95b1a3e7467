"""Exceptions raised by docstrata: one tree, so ``except DocstrataError`` catches every error
docstrata raises on purpose (anything else is a bug or an interrupted process).

Hierarchy, and what each means for a caller::

    DocstrataError         the base; its text is redacted (no password, token or registered secret)
    ├── ConfigError        a bad agent.yaml or argument value; ``.path`` is the YAML path
    │                      ("tools[0].top_k"), ``.problems`` every (path, message) found.
    │                      Fix the configuration; retrying will not help.
    ├── SourceError        a tool's source folder or file does not exist or cannot be listed.
    │                      Fix the path or its permissions.
    ├── ConversionError    one file could not be converted (corrupt, encrypted, over a limit); ``.file``,
    │                      ``.reason``. Ingest reports it per file in the ``IngestReport`` and goes on.
    ├── RecordError        a bad structured record or records file; ``.file``, ``.line``, ``.field``.
    │                      Ingest reports it per file and goes on.
    ├── StoreError         the index database is unreachable, corrupt or misconfigured; ``.backend``.
    │                      Never silently replaced by an in-memory store; retry once it is reachable.
    ├── ProviderError      an LLM / embedding / reranker service failed; ``.provider``, ``.retryable``
    │   │                  (a retry may succeed), ``.retry_after`` (seconds the service asked for).
    │   └── LLMRequestError  one failed LLM request: adds ``.status`` (HTTP code) and ``.rate_limited``.
    ├── QueryError         an unusable query or search argument (empty query, ``top_k`` out of range,
    │                      unknown mode, section or document, bad filter). Also a ``ValueError``, as it
    │                      was before the tree held it. Change the arguments; the index is fine.
    └── LockTimeout        another process held the tool's ingest lock past the timeout (an ingest
                           is running). Retry later; searches never take the lock.

Ingest catches ``ConversionError`` and ``RecordError`` per file, reports them in the
``IngestReport`` and carries on; everything else propagates. ``QueryError`` is importable from
:mod:`docstrata.search` too, ``LockTimeout`` from :mod:`docstrata.locking` and ``LLMRequestError``
from :mod:`docstrata.llm`, where they were first defined. ``tests/test_errors_tree.py`` fails
when a module defines an exception class outside this tree.
"""

from __future__ import annotations


class DocstrataError(Exception):
    """Base class of every error docstrata raises on purpose. Its text passes through
    :func:`docstrata.redact.redact`, so no password, token or registered secret is ever in it."""

    def __init__(self, *args):
        from .redact import redact

        super().__init__(*(redact(a) if isinstance(a, str) else a for a in args))


class ConfigError(DocstrataError):
    """A configuration value is missing or invalid.

    ``path`` is the YAML path of the offending field, e.g. ``tools[0].top_k``. ``problems`` holds
    every (path, message) found when a file has several errors (the first is ``path``).
    """

    def __init__(self, message: str, path: str = "", file: str | None = None):
        self.path = path
        self.file = file
        self.problems: list[tuple[str, str]] = [(path, message)]
        where = ": ".join(p for p in (file or "", path) if p)
        super().__init__(f"{where}: {message}" if where else message)


class SourceError(DocstrataError):
    """A tool's ``source`` does not exist or cannot be listed."""


class ConversionError(DocstrataError):
    """One file could not be converted to Markdown. ``file`` is its path relative to the source root."""

    def __init__(self, file: str, reason: str):
        self.file = file
        self.reason = reason
        super().__init__(f"{file}: {reason}")


class RecordError(DocstrataError):
    """A structured record (or the whole file) could not be loaded.

    ``file`` is the source file, ``line`` the 1-based line (CSV/JSONL) or record number (JSON)
    where known, ``field`` the offending field where known.
    """

    def __init__(self, file: str, reason: str, line: int | None = None, field: str | None = None):
        self.file = file
        self.reason = reason
        self.line = line
        self.field = field
        where = file + (f", line {line}" if line is not None else "") + (f", field '{field}'" if field else "")
        super().__init__(f"{where}: {reason}")


class StoreError(DocstrataError):
    """A storage backend is unreachable or misconfigured. Never silently replaced by memory."""

    def __init__(self, backend: str, reason: str):
        self.backend = backend
        super().__init__(f"{backend} store: {' '.join(str(reason).split())}")  # one line (libpq's text has several)


class ProviderError(DocstrataError):
    """An external model provider failed. ``retryable`` tells whether a retry may succeed."""

    def __init__(self, provider: str, reason: str, retryable: bool = False, retry_after: float | None = None):
        self.provider = provider
        self.retryable = retryable
        self.retry_after = retry_after
        super().__init__(f"{provider}: {reason}")


class LLMRequestError(ProviderError):
    """One failed LLM request: ``status`` (HTTP code or None), ``rate_limited`` (HTTP 429),
    ``retry_after`` (seconds the server asked us to wait, or None), ``retryable``."""

    def __init__(
        self, model: str, reason: str, *, retryable: bool, status: int | None = None, retry_after: float | None = None
    ):
        super().__init__(model, reason, retryable=retryable, retry_after=retry_after)
        self.status = status
        self.rate_limited = status == 429


class QueryError(DocstrataError, ValueError):
    """An unusable query or search argument (empty query, top_k out of range, unknown mode,
    section or document, malformed filter). A ``ValueError`` too, for callers that catch that."""


class LockTimeout(DocstrataError):
    """Another process held the tool's ingest lock for longer than the timeout."""
