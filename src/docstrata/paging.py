"""Pages of a long text with a cursor: what ``get_section``, ``get_record`` and the MCP tools
send back when a section or record is longer than the answer budget (DESIGN §7b).

A page ends at most ``max_chars`` characters after it starts, cut at the last paragraph break, line
break or sentence end in its last quarter (so a page carries at least three quarters of
``max_chars`` when one falls there), else at a word in its second half. A cursor, ``"<offset>:<8 hex of the text's sha256>@<scope>"``, says
where the next page starts, which text it was issued for (so a re-ingested text refuses it) and
what it was issued for (``doc_key § section_id``, a whole document, ``record:<id>``).
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from .models import sha256_text
from .search import QueryError

DEFAULT_MAX_CHARS = 8000  # get_section / get_record / get_neighbours page budget, in characters
_SCOPE_SAFE = "§:/()#-._,"  # characters a cursor's scope keeps unquoted


def check_max_chars(max_chars: int | None) -> None:
    """Raise :class:`~docstrata.search.QueryError` unless ``max_chars`` is ``None`` (no limit) or
    200–1,000,000 characters."""
    if max_chars is not None and not 200 <= max_chars <= 1_000_000:
        raise QueryError(f"max_chars must be between 200 and 1000000 (or None for no limit), got {max_chars}")


def page_end(text: str, start: int, max_chars: int | None) -> int:
    """Where a page of ``text`` starting at ``start`` ends: at most ``max_chars`` on; at the last
    paragraph break, else line break, else sentence end (``. ``, ``? ``, ``! ``, ``; ``) in the
    page's last quarter; else at the last space in its second half; else at ``max_chars``. Pages
    stay close to ``max_chars`` (a paragraph break halfway through no longer halves a page) and
    a cut never splits a word when a space is at hand."""
    if max_chars is None or len(text) - start <= max_chars:
        return len(text)
    limit = start + max_chars
    for seps, lo in (
        (("\n\n",), limit - max_chars // 4),
        (("\n",), limit - max_chars // 4),
        ((". ", "? ", "! ", "; "), limit - max_chars // 4),
        ((" ",), start + max_chars // 2),
    ):
        cut = max((i + len(sep) for sep in seps if (i := text.rfind(sep, lo, limit)) > start), default=-1)
        if cut > start:
            return cut
    return limit


def make_cursor(offset: int, text: str, scope: str = "") -> str:
    """``"<offset>:<8 hex of the text's sha256>"``, then ``"@<scope>"`` (what it was issued for:
    ``doc_key § section_id``, a whole document, or a record id)."""
    return f"{offset}:{sha256_text(text)[:8]}" + (f"@{quote(scope, safe=_SCOPE_SAFE)}" if scope else "")


def scope_name(scope: str) -> str:
    """A cursor's scope as an error message names it: ``doc.md § 4.2``, ``record 17``,
    ``doc.md (whole document)``."""
    doc, sep, sid = scope.partition("§")
    return (
        f"{doc} § {sid}" if sep else f"record {scope[7:]}" if scope.startswith("record:") else f"{doc} (whole document)"
    )


def read_cursor(cursor: str | None, text: str, scope: str = "") -> int:
    """The offset a cursor points at (0 without one). Raises :class:`~docstrata.search.QueryError`
    for a malformed cursor, one issued for another section, document or record (``scope``), or one
    issued for a text that has changed since (re-ingested)."""
    if not cursor:
        return 0
    head, _, issued_for = str(cursor).partition("@")
    off, _, digest = head.partition(":")
    if not off.isdigit() or len(digest) != 8:
        raise QueryError(f"cursor {cursor!r} is not one this tool issued (it looks like '8000:1a2b3c4d@doc.md § 4')")
    if issued_for and scope and issued_for != quote(scope, safe=_SCOPE_SAFE):
        raise QueryError(
            f"this cursor belongs to {scope_name(unquote(issued_for))}, not {scope_name(scope)}: pass "
            "it with the same document and section it came from, or read again without cursor"
        )
    if digest != sha256_text(text)[:8]:
        raise QueryError("the text changed since this cursor was issued (re-ingested); read again without cursor")
    if int(off) > len(text):
        raise QueryError(f"cursor {cursor!r} points past the end ({len(text)} characters)")
    return int(off)


def cut_page(text: str, scope: str, max_chars: int | None, cursor: str | None) -> tuple[int, int, str | None]:
    """The page of ``text`` a request reads: (start, end, next cursor or ``None`` at the end),
    from ``cursor`` (issued for ``scope``), at most ``max_chars`` characters. Raises
    :class:`QueryError` for a cursor not issued for this text and scope."""
    start = read_cursor(cursor, text, scope)
    end = page_end(text, start, max_chars)
    return start, end, make_cursor(end, text, scope) if end < len(text) else None
