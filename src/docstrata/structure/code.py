"""Structure of source code without a per-language parser: the type names a file declares (its
title) and the lines whose scopes enclose a given line (its parent chain).

Used to give chunks cut from a code file the structural context of DESIGN §6: a chunk from the
middle of a file otherwise names neither the class it belongs to nor the method it continues.
Both rules are lexical and language-agnostic (C-family, Rust, Java, C#, Python, Go, TypeScript, ...):

* a **declaration** is a line starting (after at most 4 spaces, ``template<...>``, modifiers
  such as ``pub``, ``public``, ``export``, ``abstract`` and all-caps export macros) with
  ``class``, ``struct``, ``enum`` (``enum class``), ``interface``, ``trait``, ``union``,
  ``namespace``, ``module``, ``object`` or ``record``, or Go's ``type Name struct`` /
  ``type Name interface``, followed by a name and then code (end of line, ``{ ( : < ; [ =``
  or ``extends`` / ``implements`` / ...), so "class action lawsuits" in prose is not one;
* a line **encloses** the lines after it that are indented deeper, up to the next line at its
  own depth or shallower. Blank lines, comments, attributes/decorators, lone brackets and
  continuation keywords (``where``, ``else``, ``except``, ``case``, ...) never enclose.
  A tab counts as 4 columns.
"""

from __future__ import annotations

import re
from typing import Iterable

_NAME = r"[^\W\d]\w*"
_DECLARATION = re.compile(
    r"^[ \t]{0,4}(?:template\s*<[^>\n]*>\s*)?"
    r"(?:(?:pub(?:\([^)\n]*\))?|public|private|protected|internal|export|declare|abstract|final|static|"
    r"sealed|default|partial|data|open|case|const|[A-Z][A-Z0-9_]{2,})\s+)*"
    rf"(?:(?:class|struct|enum(?:\s+(?:class|struct))?|interface|trait|union|namespace|module|object|record)"
    rf"\s+(?:alignas\([^)\n]*\)\s+|[A-Z][A-Z0-9_]{{2,}}\s+)?({_NAME}(?:\.{_NAME})*)"
    rf"|type\s+({_NAME})(?:\[[^\]\n]*\])?\s+(?:struct|interface)\b)"  # Go
    r"(?=\s*$|\s*[{(:<;\[=]|\s+(?:extends|implements|inherits|with|where|of|as|is|final|sealed|open)\b)",
    re.MULTILINE,
)
_NEVER_ENCLOSES = re.compile(
    r"^\s*(?:[)\]}>;,{]|//|#|/\*|\*|@|--|"
    r"(?:where|else|elif|except|finally|catch|case|default)\b)"
)
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
    stripped = line.lstrip(" \t")
    return len(line[: len(line) - len(stripped)].expandtabs(4))


class ScopeTracker:
    """Follows a document line by line and answers, for the next line, which earlier lines
    enclose it. Linear in the document's length: it keeps only the lines still open, one per
    depth (a line closes every open line at its own depth or deeper)."""

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []  # (depth, stripped line), depths strictly increasing

    def enclosing(self, first_line: str) -> list[str]:
        """The open lines whose scope holds ``first_line`` (a chunk's first non-blank line),
        outermost first, each stripped and cut to 160 characters; ``[]`` at depth 0."""
        depth = _indent(first_line) if first_line.strip() else 1 << 30
        return [line for d, line in self._open if d < depth]

    def feed(self, lines: Iterable[str]) -> None:
        """Advance past ``lines`` (the chunk just placed)."""
        for line in lines:
            if not line.strip() or _NEVER_ENCLOSES.match(line):
                continue
            depth = _indent(line)
            while self._open and self._open[-1][0] >= depth:
                self._open.pop()
            self._open.append((depth, line.strip()[:_MAX_LINE]))
