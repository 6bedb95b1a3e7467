"""ASCII frames for :mod:`docstrata.structure.parse`: text boxed in a border character, as plain-text
licences print their warranty disclaimers::

    ************************************************************************
    *                                                                      *
    *  6. Disclaimer of Warranty                                           *
    *  -------------------------                                           *
    *                                                                      *
    *  Covered Software is provided under this License on an "as is"       *
    ************************************************************************

A box is a border row (one character, ``*`` ``=`` ``+``, repeated at least 10 times; not ``#`` or ``~``,
which frame Markdown headings and fences), then
lines that begin and end with that character, then a closing border row. Its lines are replaced by
their content (common indentation removed) and its border rows by blank lines before the document
is scanned, so the headings inside (``6. Disclaimer of Warranty``) are seen like any other.
"""

from __future__ import annotations

import re

_BORDER_RE = re.compile(r"^[ \t]*([*=+])\1{9,}[ \t]*$")


def unframe_boxes(lines: list[str]) -> list[str]:
    """``lines`` with every complete ASCII box unwrapped (same number of lines, in the same order).

    A candidate box whose inner lines do not all begin and end with the border character, or
    that is never closed, is left as it is."""
    out = list(lines)
    i = 0
    while i < len(lines):
        top = _BORDER_RE.match(lines[i])
        if not top:
            i += 1
            continue
        ch = top.group(1)
        j = i + 1
        while j < len(lines) and not _BORDER_RE.match(lines[j]):
            s = lines[j].strip()
            if len(s) < 2 or s[0] != ch or s[-1] != ch:
                break
            j += 1
        if j >= len(lines) or j == i + 1 or not _BORDER_RE.match(lines[j]) or _BORDER_RE.match(lines[j]).group(1) != ch:
            i += 1
            continue
        inner = [lines[k].strip()[1:-1].rstrip() for k in range(i + 1, j)]
        indent = min((len(t) - len(t.lstrip()) for t in inner if t.strip()), default=0)
        out[i] = out[j] = ""
        for k, t in enumerate(inner, start=i + 1):
            out[k] = t[indent:] if t.strip() else ""
        i = j + 1
    return out
