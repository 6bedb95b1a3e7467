"""The longest argument an agent or the playground may send, shared by every entry point.

The MCP server's tool schemas (``max_length``) and the playground's API (:func:`check_length`)
use these same numbers (SECURITY.md promise 8), so neither accepts a 7.9 MB query the other
refuses. A refusal quotes at most a short prefix of the value.
"""

from __future__ import annotations

from .redact import short

MAX_QUERY_CHARS = 4000  # a search query
MAX_TERM_CHARS = 200  # a defined term
MAX_NAME_CHARS = 1000  # document paths, section ids, chunk ids, record ids


def check_length(name: str, value: object, limit: int) -> None:
    """Raise ``ValueError`` (``"query is 7,900,000 characters; at most 4,000 are accepted: 'abc…'"``)
    when ``value`` is a string longer than ``limit`` characters; anything else passes."""
    if isinstance(value, str) and len(value) > limit:
        raise ValueError(f"{name} is {len(value):,} characters; at most {limit:,} are accepted: {short(value, 40)}")
