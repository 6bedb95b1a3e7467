"""Output escaping: document-derived text can never forge a line or drive a terminal.

A file name, title, term, section id or record field comes from a document, so an attacker
chooses it. Wherever such a value is put into text that a person or an agent reads line by line
— the CLI, the MCP text content, the playground, the logs — it goes through :func:`one_line`:
every line break and every other control or separator character becomes a visible escape, so
``"x.md\\nConfidence: high"`` prints as ``x.md\\nConfidence: high`` on one line and can never
pose as a ``Confidence:`` line of its own.

Escaped (:data:`UNSAFE`): every Unicode ``Cc`` character (C0 and C1, so ``\\n``, ``\\r``, ``\\t``,
``\\x0b``, ``\\x0c``, ``\\x1c``–``\\x1e``, ``\\x85`` and ANSI ``ESC``), the line and paragraph
separators (``Zl`` U+2028, ``Zp`` U+2029), the bidirectional marks, embeddings, overrides and
isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069; "Trojan Source",
CVE-2021-42574) and lone surrogates. The playground's ``app.js`` applies the same class
(``ONE_LINE`` there; a test keeps the two equal).

Passages (a section's or chunk's own text) are multi-line by nature: :func:`escape_terminal`
keeps their ``\\n`` and ``\\t`` and escapes the rest of the same class.
"""

from __future__ import annotations

import re

# One character class for every boundary (tests/test_output_escaping.py checks it covers every
# Cc, Zl and Zp code point and the bidi controls).
UNSAFE_CLASS = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
UNSAFE = re.compile(f"[{UNSAFE_CLASS}]")
_BLOCK_UNSAFE = re.compile(f"(?![\n\t])[{UNSAFE_CLASS}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(m: re.Match) -> str:
    c = m.group(0)
    if c in _NAMED:
        return _NAMED[c]
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def one_line(value: object) -> str:
    """``str(value)`` as one safe line: every character of :data:`UNSAFE` (line breaks, all
    ``Cc``, ``Zl``/``Zp``, bidi controls, lone surrogates) replaced by a visible escape
    (``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\x85``, ``\\u2028``, ``\\u202e``). The one function every
    output boundary applies to a name, title, term, section id or field taken from a document."""
    return UNSAFE.sub(_visible, str(value))


def escape_terminal(text: str) -> str:
    """Multi-line ``text`` (a passage, or a whole answer whose fields went through
    :func:`one_line`) safe to print: as :func:`one_line` but ``\\n`` and ``\\t`` are kept."""
    return _BLOCK_UNSAFE.sub(_visible, text)


def escape_json_output(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) safe for a terminal and still
    valid JSON: every :data:`UNSAFE` character but the layout's ``\\n`` and ``\\t`` (inside JSON
    strings ``json.dumps`` already escaped those) becomes a ``\\uXXXX`` escape (so ``U+202E``
    reads back as the same string)."""
    return _BLOCK_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
