"""Flush text for :mod:`docstrata.structure.parse`: a paragraph after the last limb of a list,
set back to the indentation of the list's labels, belongs to the provision that holds the list
(US drafting calls it "flush language", UK drafting "full-out words")::

    (c) under Patent Claims infringed by Covered Software in the absence of
        its Contributions.

    This License does not grant any rights in the trademarks, service marks,

Without this step the paragraph would run on as text of ``(c)``. It becomes a section of its own,
``<parent>-flush``, the last child of the provision (so the section order and every line stay as
written, ``get_section("2.3(c)")`` no longer returns it and a citation of it names ``2.3``).
The evidence is the hanging indent: the limb's own wrapped lines are indented deeper than its
label, and the paragraph is not; or, without one, the limbs are indented and the paragraph is set
back further than their labels (the GNU licences' ``a) …`` conditions, four spaces in, then
``These requirements apply …`` at the margin). A flush-left document gives no such evidence, and
its items keep their paragraphs.
"""

from __future__ import annotations

import re

from ...models import Section


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _label_indent(s: Section) -> int | None:
    """Indentation of an item section's label line (``(c) under …``), or ``None`` for a non-item."""
    number = s.number or ""
    if not number.startswith("(") or s.heading:
        return None
    first = next((ln for ln in s.text.split("\n") if ln.strip()), "")
    shown = first.lstrip()  # "(c) under …", or "c) under …" (a letter closed by its bracket alone)
    return _indent(first) if shown.startswith(number) or shown.startswith(number[1:]) else None


def split_flush_text(sections: list[Section]) -> list[Section]:
    """``sections`` with flush paragraphs after the last limb of a list moved into sections of
    their own (see the module docstring). Sections are returned in document order."""
    by_id = {s.section_id: s for s in sections}
    out: list[Section] = []
    for n, s in enumerate(sections):
        out.append(s)
        label = _label_indent(s)
        nxt = sections[n + 1] if n + 1 < len(sections) else None
        if (
            label is None
            or nxt is not None
            and (nxt.number or "").startswith("(")
            and nxt.parent_id in _ancestors(s, by_id)
        ):
            continue  # not an item, or not the last limb of its list
        lines = s.text.split("\n")
        first = next(i for i, ln in enumerate(lines) if ln.strip())
        hanging = first + 1 < len(lines) and lines[first + 1].strip() and _indent(lines[first + 1]) > label
        # with a hanging indent, a paragraph back at the label's indentation ends the limb; with none,
        # a paragraph set back further than the label (the limbs indented, the provision's text not)
        cut = next(
            (
                i
                for i in range(first + 1, len(lines))
                if lines[i].strip()
                and not lines[i - 1].strip()
                and (_indent(lines[i]) <= label if hanging else _indent(lines[i]) < label)
                and not re.match(r"\s*\(", lines[i])
            ),
            None,
        )
        if cut is None:
            continue
        owner = by_id.get(s.parent_id or "")
        while owner is not None and (ind := _label_indent(owner)) is not None and ind >= _indent(lines[cut]):
            owner = by_id.get(owner.parent_id or "")
        if owner is None:
            continue
        s.text = "\n".join(lines[:cut])
        flush = Section(
            section_id=f"{owner.section_id}-flush",
            title=f"{owner.title} (continued)",
            level=owner.level + 1,
            parent_id=owner.section_id,
            text="\n".join(lines[cut:]),
            start_line=s.start_line + cut,
        )
        out.append(flush)
        by_id[flush.section_id] = flush
    return out


def _ancestors(s: Section, by_id: dict[str, Section]) -> set[str]:
    out, cur = set(), s.parent_id
    while cur and cur not in out:
        out.add(cur)
        cur = by_id[cur].parent_id if cur in by_id else None
    return out
