"""What the two IETF Markdown dialects' converters share (:mod:`.kramdown_rfc`, :mod:`.mmark`):
one pass over the source lines that keeps code fences as written and writes each numbered heading
as the rendered RFC prints it, and the blocks of the result with those headings stated
(docs/architecture.md, "Adding a family")."""

from __future__ import annotations

from typing import Callable

from ..structure.grammar import int_to_letters
from .document import FENCE, Block, markdown_blocks


def rewrite_lines(
    lines: list[str], by_line: dict[int, dict], other: Callable[[int, str], str | dict | None]
) -> tuple[str, dict[int, dict]]:
    """``lines`` of a dialect's source as Markdown, and the stated headings by output line.

    Lines inside a code fence are kept as they are; line ``i`` in ``by_line`` (a heading the
    dialect numbers: ``{"level", "number", "title", "anchor", "written"}``) is written as an ATX
    heading of its ``written`` text; every other line goes through ``other(i, line)``, which
    returns the text to keep, ``None`` to drop the line, or a heading dict to state in its place
    (kramdown-rfc's ``--- abstract``)."""
    out: list[str] = []
    stated: dict[int, dict] = {}
    fence = None
    for i, line in enumerate(lines):
        if fence is not None:
            out.append(line)
            if (fm := FENCE.match(line)) and fm.group(1)[0] == fence:
                fence = None
            continue
        if fm := FENCE.match(line):
            fence = fm.group(1)[0]
            out.append(line)
            continue
        kept = by_line.get(i) or other(i, line)
        if isinstance(kept, dict):
            stated[len(out)] = kept
            out.append("#" * min(kept["level"], 6) + " " + kept["written"])
        elif kept is not None:
            out.append(kept)
    return "\n".join(out), stated


def with_stated_headings(markdown: str, stated: dict[int, dict]) -> list[Block]:
    """The blocks of ``markdown``, its headings at ``stated`` lines stating level, number and anchor."""
    starts, pos = {}, 0
    for n, ln in enumerate(markdown.split("\n")):
        starts[pos] = n
        pos += len(ln) + 1
    blocks = []
    # an RFC dialect states every section as a heading: its paragraphs are xml2rfc <t>s and its
    # ordered lists <ol>s that xml2rfc numbers itself, so neither holds a section start
    for b in markdown_blocks(markdown, provenance="markup", list_numbers=False, paragraph_provenance="markup"):
        h = stated.get(starts.get(b.start, -1)) if b.kind == "heading" else None
        if h is not None:
            b = Block(
                b.text,
                "heading",
                b.start,
                b.end,
                provenance="markup",
                level=h["level"],
                number=h["number"],
                title=h["title"],
                anchor=h.get("anchor"),
            )
        blocks.append(b)
    return blocks


def next_number(counters: list[int], level: int, back: bool) -> str:
    """The number xml2rfc gives the next numbered heading at ``level`` (1 = top), advancing
    ``counters`` (one per level, changed in place): ``1``, ``1.1`` … in the body, ``A``, ``A.1`` …
    in the back matter (``back``)."""
    del counters[level:]
    counters += [0] * (level - len(counters))
    counters[level - 1] += 1
    if not back:
        return ".".join(str(c) for c in counters)
    return ".".join([int_to_letters(counters[0])] + [str(c) for c in counters[1:]])


def rendered_heading(number: str | None, words: str, level: int, back: bool) -> tuple[str, str | None, str]:
    """A heading as the rendered RFC prints it, its stated number and how the text cites it:
    ``("1.2.  Scope", "1.2", "Section 1.2")``; a top-level back-matter heading is an appendix
    (``("Appendix A.  Examples", "Appendix A", "Appendix A")``); an unnumbered one is cited by its
    quoted title."""
    if number and back and level == 1:
        return f"Appendix {number}.  {words}", f"Appendix {number}", f"Appendix {number}"
    if number:
        return f"{number}.  {words}", number, ("Appendix " if back else "Section ") + number
    return words, None, f'"{words}"'
