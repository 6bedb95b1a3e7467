"""OpenTelemetry spans for ingest and search; a no-op when OpenTelemetry is not installed.

Span tree (attribute names follow the spec; ``gen_ai.*`` the OpenTelemetry GenAI conventions)::

    hierarchical_document.ingest   tool.name, ingest.chunk_count, ingest.file_count, ingest.context_model
      parse                        document
      contextualize_batch          ingest.chunk_count, context.llm_calls, context.cache_hits, …
        llm.situate                gen_ai.system, gen_ai.request.model (one per LLM request)
      embed_batch                  embed.batch_size
      store                        ingest.chunk_count
    hierarchical_document.search   search.mode, search.top_k, search.result_count, search.exact_match_count
      exact_match                  search.exact_match_count
      keyword                      bm25.index_size
      semantic
      rrf_fusion

Spans go to whatever tracer provider the application installed (``opentelemetry.trace``'s
global one), or to the one given to :func:`use_tracer_provider` (the CLI's ``--trace console``
and tests use that). The raw query text is recorded (``search.query``) only when the
environment sets ``DOCSTRATA_TRACE_QUERY=1``; otherwise only its length. Without the
``opentelemetry-api`` package every function here returns at once: the import is tried once.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Iterator

_UNSET = object()
_trace_module: Any = _UNSET
_provider: Any = None
_tracer: Any = None
_tracer_owner: Any = None


def _trace():
    """The ``opentelemetry.trace`` module, or None when it is not installed (looked up once)."""
    global _trace_module
    if _trace_module is _UNSET:
        try:
            from opentelemetry import trace
        except ImportError:
            trace = None
        _trace_module = trace
    return _trace_module


def _get_tracer():
    global _tracer, _tracer_owner
    trace = _trace()
    if trace is None:
        return None
    owner = _provider or trace.get_tracer_provider()
    if _tracer is None or owner is not _tracer_owner:
        _tracer, _tracer_owner = owner.get_tracer("docstrata"), owner
    return _tracer


@contextlib.contextmanager
def span(name: str, **attributes: Any) -> Iterator[Any]:
    """Start a span named ``name`` with ``attributes`` (None values dropped); yields the span or None."""
    tracer = _get_tracer()
    if tracer is None:
        yield None
        return
    with tracer.start_as_current_span(name, record_exception=False, set_status_on_exception=False) as s:
        for k, v in attributes.items():
            if v is not None:
                s.set_attribute(k, v)
        try:
            yield s
        except BaseException as e:  # recorded here, redacted: a DSN in an exception never reaches a trace
            from opentelemetry.trace import Status, StatusCode

            from .redact import redact

            message = redact(e)
            s.add_event("exception", {"exception.type": type(e).__name__, "exception.message": message})
            s.set_status(Status(StatusCode.ERROR, f"{type(e).__name__}: {message}"))
            raise


def set_attributes(**attributes: Any) -> None:
    """Set ``attributes`` (None values dropped) on the current span, if one is recording."""
    trace = _trace()
    if trace is None:
        return
    s = trace.get_current_span()
    if s.is_recording():
        for k, v in attributes.items():
            if v is not None:
                s.set_attribute(k, v)


def is_recording(s: Any) -> bool:
    """True when ``s`` (a span from :func:`span`, or None) records attributes: worth computing costly ones."""
    return s is not None and s.is_recording()


def query_attributes(query: str) -> dict[str, Any]:
    """Span attributes describing a query: its length, and its text only if ``DOCSTRATA_TRACE_QUERY=1``."""
    attrs: dict[str, Any] = {"search.query_length": len(query)}
    if os.environ.get("DOCSTRATA_TRACE_QUERY", "").strip().lower() in ("1", "true", "yes"):
        attrs["search.query"] = query
    return attrs


def use_tracer_provider(provider: Any) -> None:
    """Send docstrata's spans to ``provider`` (an SDK ``TracerProvider``); None returns to the global one."""
    global _provider
    _provider = provider


def configure(exporter: str | None) -> Any:
    """Set up tracing for the CLI: ``"console"`` prints every span as JSON to stderr when it ends
    (stderr, so that ``--json`` output on stdout stays parseable).

    Returns the SDK ``TracerProvider`` (call ``shutdown()`` to flush), or None for ``exporter=None``.
    Raises :class:`~docstrata.errors.ConfigError` for another exporter name or when the
    OpenTelemetry SDK is not installed (``pip install 'docstrata[otel]'``).
    """
    from .errors import ConfigError

    if exporter is None:
        return None
    if exporter != "console":
        raise ConfigError(f"unknown trace exporter {exporter!r}: use 'console'", path="--trace")
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
    except ImportError:
        raise ConfigError(
            "--trace needs the OpenTelemetry SDK: pip install 'docstrata[otel]'", path="--trace"
        ) from None
    provider = TracerProvider(resource=Resource.create({"service.name": "docstrata"}))
    provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=sys.stderr)))
    use_tracer_provider(provider)
    return provider
