"""Exceptions raised by docstrata.

Hierarchy::

    DocstrataError
    ├── ConfigError        a bad agent.yaml; ``.path`` is the YAML path ("tools[0].top_k")
    ├── SourceError        a source that cannot be listed or read
    ├── ConversionError    one file could not be converted; ``.file``
    ├── RecordError        a bad structured record; ``.file``, ``.line``, ``.field``
    ├── StoreError         a database that is unreachable or misconfigured; ``.backend``
    └── ProviderError      an LLM / embedding / reranker service failed; ``.retryable``

Ingest catches ``ConversionError`` and ``RecordError`` per file, reports them in the
``IngestReport`` and carries on; everything else propagates.
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
