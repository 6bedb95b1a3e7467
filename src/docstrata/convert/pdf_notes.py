"""Page footnotes of a PDF for ``convert``: the notes a page sets under a short separator rule
(:func:`.pdf_layout._note_rule`) are taken out of the page's text before headings and numbered
sections are recovered, and rendered after the page's text as Markdown footnotes
(``[^1]: OJ C 343, 26.8.2021, p. 1.``), which no later stage reads as a section start.

The evidence is the layout pdfminer gives, not the notes' wording: the rule, and the notes' type
set smaller than the body on the first row under it (the text of the notes, or only their
markers, which the body repeats as superscripts). A note starts on a line at the notes' left edge
when the notes hang their continuation lines (an Official Journal's ``(1) Directive …`` /
indented ``level of security …``); a marker set apart in its own box (``1`` beside ``OJ C …``)
is joined to the line it stands beside.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .pdf_layout import _PdfLine, _vertical_overlap

# a note's marker opening its line: "1", "(1)", "12)", "*", "†", "+" (a reserved number)
_MARKER = re.compile(r"^(?:\(?(?P<n>\d{1,3})\)?|(?P<s>[*†‡§¶+]{1,3}))(?:\s+|$)")


def split_notes(lines: list[_PdfLine], body_size: float) -> tuple[list[_PdfLine], list[_PdfLine]]:
    """``(body lines, note lines)``: the lines under a page's note rule (``under_rule``) are notes
    when the first row under the rule holds type set smaller than the body (``body_size`` less
    half a point or more); otherwise they stay body text. Order is kept in both lists."""
    by_page: dict[int, list[_PdfLine]] = {}
    for line in lines:
        if line.under_rule and not line.turned:
            by_page.setdefault(line.page, []).append(line)
    noted: set[int] = set()
    for page_lines in by_page.values():
        top = max(line.y1 for line in page_lines)
        first_row = [line for line in page_lines if line.y1 >= top - 0.5 * line.size]
        if any(line.size <= body_size - 0.5 for line in first_row):
            noted.update(id(line) for line in page_lines)
    return [ln for ln in lines if id(ln) not in noted], [ln for ln in lines if id(ln) in noted]


def note_lines(notes: list[_PdfLine]) -> list[_PdfLine]:
    """One line per note of one page's note lines, its text ``[^n]: …`` (the marker without its
    brackets) or, for a note carried over from the page before (no marker), the text alone; in
    reading order, each with ``note`` set and its first line's geometry."""
    notes = _join_markers(notes)
    if not notes:
        return []
    notes.sort(key=lambda line: (-line.y1, line.x0))
    left = min(line.x0 for line in notes)
    hanging = any(line.x0 > left + 2 for line in notes)
    groups: list[list[_PdfLine]] = []
    for line in notes:
        opens = bool(_MARKER.match(line.text)) and (not hanging or line.x0 <= left + 2)
        if opens or not groups:
            groups.append([line])
        else:
            groups[-1].append(line)
    out = []
    for group in groups:
        text = ""
        for line in group:
            part = " ".join(line.text.split())
            text = text[:-1] + part if re.search(r"[^\W\d_]-$", text) and part[:1].islower() else f"{text} {part}"
        text = text.strip()
        m = _MARKER.match(text)
        if m:
            text = f"[^{m.group('n') or m.group('s')}]: {text[m.end() :]}".rstrip()
        out.append(replace(group[0], text=text, note=True, level=0))
    return out


def _join_markers(notes: list[_PdfLine]) -> list[_PdfLine]:
    """Note lines with each marker set apart (a short token alone on its line, with a note line
    beside it to the right on its row) joined to the front of that line."""
    out = [replace(line) for line in notes]
    absorbed: set[int] = set()
    for line in out:
        token = line.text.strip()
        if " " in token or len(token) > 4:
            continue
        beside = [
            other for other in out
            if other is not line and id(other) not in absorbed and other.x0 >= line.x1 - 1
            and _vertical_overlap(line, other) > 0.5
        ]  # fmt: skip
        if beside:
            target = min(beside, key=lambda other: other.x0)
            target.text = f"{token} {target.text.strip()}"
            target.x0 = line.x0
            absorbed.add(id(line))
    return [line for line in out if id(line) not in absorbed]


def with_notes(lines: list[_PdfLine], notes: list[_PdfLine]) -> list[_PdfLine]:
    """``lines`` with each page's notes (:func:`note_lines`) after that page's last line (pages
    with notes only keep their place by page number)."""
    if not notes:
        return lines
    by_page: dict[int, list[_PdfLine]] = {}
    for line in notes:
        by_page.setdefault(line.page, []).append(line)
    rendered = {page: note_lines(page_notes) for page, page_notes in by_page.items()}
    out: list[_PdfLine] = []
    for n, line in enumerate(lines):
        while rendered and min(rendered) < line.page:
            out.extend(rendered.pop(min(rendered)))
        out.append(line)
        if n + 1 == len(lines) or lines[n + 1].page != line.page:
            out.extend(rendered.pop(line.page, []))
    for page in sorted(rendered):
        out.extend(rendered[page])
    return out
