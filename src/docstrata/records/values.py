"""Field values of structured records: dotted-path lookup into JSON objects and lists, and the
text a value becomes in a :class:`~docstrata.models.Record` (see :mod:`docstrata.records`)."""

from __future__ import annotations

import json
from typing import Any

_MISSING: Any = object()


def value_to_text(value: Any) -> str:
    """A JSON/CSV value as the string stored in a record.

    ``None`` or a missing path → ``""``; ``True``/``False`` → ``"true"``/``"false"``;
    numbers → ``str``; lists and objects → JSON (non-ASCII kept); strings unchanged.
    """
    if value is None or value is _MISSING:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def resolve_field(obj: Any, path: str) -> Any:
    """The value at dotted ``path`` in ``obj``, or a missing marker (see :func:`value_to_text`).

    An exact key wins over a dotted walk. Into a list, a numeric segment indexes and any other
    segment maps over the elements (elements lacking it are left out; none → missing).
    """
    if isinstance(obj, dict) and path in obj:
        return obj[path]
    current = obj
    for segment in path.split("."):
        current = _step(current, segment)
        if current is _MISSING:
            break
    return current


def _step(current: Any, segment: str) -> Any:
    if isinstance(current, dict):
        return current.get(segment, _MISSING)
    if isinstance(current, list):
        if segment.isdigit():
            index = int(segment)
            return current[index] if index < len(current) else _MISSING
        found = [v for v in (_step(item, segment) for item in current) if v is not _MISSING]
        return found if found else _MISSING
    return _MISSING


def is_missing(value: Any) -> bool:
    """True when :func:`resolve_field` found nothing at the path."""
    return value is _MISSING
