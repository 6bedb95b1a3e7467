"""OpenTelemetry spans for ingest and search; a no-op when the SDK is not installed."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator


@contextlib.contextmanager
def span(name: str, **attributes: Any) -> Iterator[Any]:
    """Start a span named ``name`` with ``attributes`` (None values dropped); yields the span or None."""
    try:
        from opentelemetry import trace
    except ImportError:
        yield None
        return
    tracer = trace.get_tracer("docstrata")
    with tracer.start_as_current_span(name) as s:
        for k, v in attributes.items():
            if v is not None:
                s.set_attribute(k, v)
        yield s
