"""Structure of source code without a per-language parser: the type names a file declares (its
title) and the lines whose scopes enclose a given line (its parent chain).

Used to give chunks cut from a code file the structural context of DESIGN §6: a chunk from the
middle of a file otherwise names neither the class it belongs to nor the method it continues.
Both rules are lexical and language-agnostic (C-family, Rust, Java, Python, Go, ...):

* a **declaration** is a line starting (after at most 4 spaces and modifiers such as ``pub``,
  ``public``, ``export``, ``abstract``) with ``class``, ``struct``, ``enum``, ``interface``,
  ``trait``, ``union``, ``namespace``, ``module`` or ``object`` followed by a name, or Go's
  ``type Name struct`` / ``type Name interface``;
* a line **encloses** the lines after it that are indented deeper, up to the next line at its
  own depth or shallower. Blank lines, comments, attributes/decorators, lone brackets and
  continuation keywords (``where``, ``else``, ``except``, ``case``, ...) never enclose.
"""

from __future__ import annotations

import re
from typing import Sequence

_DECLARATION = re.compile(
    r"^[ \t]{0,4}(?:(?:pub(?:\([^)\n]*\))?|public|private|protected|internal|export|abstract|final|"
    r"static|sealed|default|partial|data|open)\s+)*"
    r"(?:(?:class|struct|enum|interface|trait|union|namespace|module|object)\s+([A-Za-z_]\w*)"
    r"|type\s+([A-Za-z_]\w*)\s+(?:struct|interface)\b)",  # Go
    re.MULTILINE)
_NEVER_ENCLOSES = re.compile(
    r"^\s*(?:[)\]}>;,{]|//|#|/\*|\*|@|--|"
    r"(?:where|else|elif|except|finally|catch|case|default)\b)")
_MAX_LINE = 160


def declared_names(text: str, limit: int = 6) -> list[str]:
    """The first ``limit`` distinct type/namespace names declared at the top of ``text``'s
    nesting (at most 4 spaces indented), in file order; ``[]`` for prose."""
    names: list[str] = []
    for m in _DECLARATION.finditer(text):
        name = m.group(1) or m.group(2)
        if name not in names:
            names.append(name)
            if len(names) == limit:
                break
    return names


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def enclosing_lines(lines_before: Sequence[str], first_line: str) -> list[str]:
    """The lines of ``lines_before`` (the text preceding a chunk, as lines) whose scope holds
    ``first_line`` (the chunk's first non-blank line), outermost first, each stripped and cut
    to 160 characters. A chunk starting at depth 0 has none."""
    depth = _indent(first_line) if first_line.strip() else 1 << 30
    chain: list[str] = []
    for line in reversed(lines_before):
        if depth == 0:
            break
        if not line.strip() or _NEVER_ENCLOSES.match(line):
            continue
        if (i := _indent(line)) < depth:
            chain.append(line.strip()[:_MAX_LINE])
            depth = i
    return chain[::-1]
