"""Quoted amending text: the lines inside a quotation that runs over several lines.

An amending act quotes the text it inserts into another act: "f) dopo l'articolo 17 è inserito il
seguente:" / "«Art. 17-bis. -- 1. La presentazione …" / "2. Per ogni candidato …" / … / "6. …»;",
"… is substituted—" / "“(2A) The Secretary of State may— (a) …”". The numbers in that text are the
other act's (its article 17-bis, paragraphs 2 to 6, its limbs (a), (b)): they open no section of the
amending act, and the amending act's own limbs after the quotation (``g)``) go on from the limb that
quotes it (``f)``). :func:`quoted_lines` finds the lines inside such quotations; the parser proposes
no section start on them (they are vetoed like the resolver's rejected lines).

A quotation is delimited by its marks, paired as drafting conventions pair them: ``«…»`` (Italian,
French), ``“…”`` (English), ``„…“`` (German). Straight quotes and single quotes are not read (the
right single quote is also the apostrophe). A line that opens with the mark of a quotation already
open goes on with it: French and UK drafting open every quoted paragraph with it and close only the
last. Only a quotation that closes counts: one still open at a heading, at a provision the source
markup states (``stops``), after :data:`MAX_LINES` lines or at the end of the text is a stray mark
(a typo, a mismatched pair), and vetoes nothing. The line that opens a quotation is not vetoed: it
is the quoting provision's own ("b) il comma 3 è sostituito dai seguenti: «3. …").
"""

from __future__ import annotations

from .patterns import _ATX_RE

__all__ = ["quoted_lines", "MAX_LINES"]

_OPENING = "«“„"
_CLOSING = {"«": "»", "“": "”", "„": "“"}
MAX_LINES = 400  # a quotation longer than this is a stray mark, not an inserted text


def quoted_lines(lines: list[str], stops: frozenset[int] = frozenset()) -> frozenset[int]:
    """Indices (0-based) of the lines after a quotation's opening line up to and including the line
    that closes it, for every quotation that spans lines and closes (see module docstring).
    ``stops``: lines where the source's markup states a provision or heading; no quotation runs on
    over one."""
    inside: set[int] = set()
    stack: list[str] = []
    pending: list[int] = []  # lines of the open quotation after its opening line
    opened = -1
    for i, line in enumerate(lines):
        if stack and (i in stops or _ATX_RE.match(line) or i - opened > MAX_LINES):
            stack, pending = [], []  # a stray mark: the quotation never closed before this line
        text = line.lstrip(" \t>")
        was_open = bool(stack)
        if was_open and text[:1] == stack[0]:
            text = text[1:]  # "« 4° De déclarer …": the open quotation goes on
        for ch in text:
            if stack and ch == _CLOSING[stack[-1]]:
                stack.pop()
            elif ch in _OPENING:
                stack.append(ch)
        if was_open:
            pending.append(i)
            if not stack:
                inside.update(pending)
                pending = []
        elif stack:
            opened, pending = i, []
    return frozenset(inside)
