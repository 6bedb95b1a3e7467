"""Tables a Word document uses as a layout for headed content, read as headings and their text.

A cover page or a statement of work often sets its terms as a two-column table: each row holds a
heading in the first cell (``Services``, ``Fees``, ``Payment Period``: bold, a heading style, or a
label the citation grammar reads, ``1.``, ``Section 2``) and that heading's text in the second.
mammoth (markitdown's DOCX engine) writes every table as a Markdown table, so the whole document is
one section with its headings inside table rows. :func:`unframe_headed_rows` returns the package
with each such table replaced by its rows' paragraphs in reading order, the heading cell's first
paragraph given an outline level (ECMA-376 Part 1 §17.3.1.20 ``w:outlineLvl``) so that
:mod:`.docx_numbering` states it as a heading, as it does a paragraph whose style carries one.

The evidence, all stated by the document (``docs/architecture.md``, "Word numbering"):

* a table outside any other table, whose rows are each a *headed row* (two cells with text or a
  heading cell and an empty one), a *full-width row* (one cell with text: a lead-in, a note, or a
  group title) or empty;
* a heading cell's first paragraph is 1–12 words that do not end like a sentence (``.``, ``;``,
  ``,``) and is set apart as a heading: every run bold (directly or through its paragraph or
  character style), a heading-styled paragraph, or a number label the grammar reads (``1.``,
  ``2.1``, ``Section 3``, ``(a)``) opening it;
* the shape repeats: three headed rows or more, and the headed rows' second cells carry text
  (eight words or more on average, half of them five words or more: a form's short values,
  ``Print Name`` / ``{name}``, stay a table);
* no header row: a first row of two or more cells that are all headings (``Term`` |
  ``Description``) or a row Word repeats as a header (``w:tblHeader``) marks a data table, and
  so does a table of more than two columns.

A full-width row whose first paragraph is such a heading with text after it or under it (``SOW`` /
``The key business terms of this SOW are as follows:``; ``Attachments and Supplements``) titles the
headed rows after it: it is a heading one level above them. Levels follow the document: the rows'
headings sit one level below the heading before the table (the level of its style or outline;
``Title`` counts as level 0), or two below it under a full-width title row.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from ..structure.grammar import NUMBER, PINPOINT, label_keyword_pattern
from .docx_frames import with_tables_replaced
from .docx_numbering import LAYOUT_MARK, _heading_level, _int, _read_styles, _val
from .run_in import MAX_TITLE_WORDS

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OFF = frozenset({"0", "false", "off", "none"})
_MIN_ROWS = 3  # headed rows a layout repeats
_MEAN_WORDS = 8  # mean words of a headed row's text cell
_SHORT_WORDS = 5  # at least half the text cells hold this many words


def _text(el) -> str:
    return " ".join("".join(t.text or "" for t in el.iter(f"{_W}t")).split())


def _label_re() -> re.Pattern:
    return re.compile(rf"^(?:{label_keyword_pattern()}\s*)?(?:{NUMBER}|{PINPOINT})[.:)]?(?:\s|$)")


@dataclass
class _Bold:
    """Bold set by styles: paragraph and character style ids whose ``basedOn`` chain sets ``w:b``."""

    styles: dict[str, tuple[str | None, bool | None]]  # style id → (basedOn, its own w:b or None)
    default: str | None

    def of(self, sid: str | None) -> bool:
        seen: set[str] = set()
        while sid and sid in self.styles and sid not in seen:
            seen.add(sid)
            based, bold = self.styles[sid]
            if bold is not None:
                return bold
            sid = based
        return False


def _read_bold(root) -> _Bold:
    out: dict[str, tuple[str | None, bool | None]] = {}
    default = None
    if root is not None:
        for st in root.iter(f"{_W}style"):
            sid = st.get(f"{_W}styleId")
            if not sid:
                continue
            b = st.find(f"{_W}rPr/{_W}b")
            out[sid] = (_val(st.find(f"{_W}basedOn")), None if b is None else (_val(b) or "true").lower() not in _OFF)
            if st.get(f"{_W}type") == "paragraph" and (st.get(f"{_W}default") or "").lower() in ("1", "true", "on"):
                default = sid
    return _Bold(out, default)


def _all_bold(p, bold: _Bold) -> bool:
    """Every run of paragraph ``p`` that shows text is bold: its own ``w:b``, else its character
    style's, else its paragraph style's (ECMA-376 Part 1 §17.7.2)."""
    para = bold.of(_val(p.find(f"{_W}pPr/{_W}pStyle")) or bold.default)
    shown = False
    for r in p.iter(f"{_W}r"):
        if not "".join(t.text or "" for t in r.iter(f"{_W}t")).strip():
            continue
        shown = True
        b = r.find(f"{_W}rPr/{_W}b")
        if b is not None:
            on = (_val(b) or "true").lower() not in _OFF
        else:
            rstyle = _val(r.find(f"{_W}rPr/{_W}rStyle"))
            on = bold.of(rstyle) if rstyle and bold.of(rstyle) else para
        if not on:
            return False
    return shown


class _Reader:
    """What the package's styles say about a paragraph: its heading level and whether it reads
    as a heading set apart (bold, heading-styled or opening with a number label)."""

    def __init__(self, styles_root):
        self.styles, self.default = _read_styles(styles_root)
        self.bold = _read_bold(styles_root)
        self.label = _label_re()

    def level(self, p) -> int | None:
        sid = _val(p.find(f"{_W}pPr/{_W}pStyle")) or self.default
        return _heading_level(self.styles, sid, _int(_val(p.find(f"{_W}pPr/{_W}outlineLvl"))))

    def heading(self, p) -> bool:
        text = _text(p)
        words = text.split()
        if not 0 < len(words) <= MAX_TITLE_WORDS or not any(c.isalnum() for c in text):
            return False
        if text.endswith((";", ",")) or (text.endswith(".") and not self.label.match(text)):
            return False
        return self.level(p) is not None or _all_bold(p, self.bold) or bool(self.label.match(text))


def _paragraphs(cell) -> list:
    return [el for el in cell if el.tag == f"{_W}p"]


def _layout_rows(tbl, reader: _Reader) -> list[tuple[str, list]] | None:
    """``[(kind, cells)]`` per row of ``tbl`` when it is a layout for headed content (module
    docstring), else ``None``. ``kind``: ``headed`` (a heading cell and its text cell), ``title``
    (one cell opening with a heading: the rows after it are under it), ``full`` (one cell, or a
    second cell under an empty first: text of the row above) or ``empty``."""
    rows = tbl.findall(f"{_W}tr")
    if any(len(r.findall(f"{_W}tc")) > 2 for r in rows):
        return None
    if any(r.find(f"{_W}trPr/{_W}tblHeader") is not None for r in rows):
        return None  # a header row Word repeats on each page: a data table
    out: list[tuple[str, list]] = []
    for r in rows:
        cells = r.findall(f"{_W}tc")
        if not any(_text(c) for c in cells):
            out.append(("empty", cells))
        elif len(cells) == 1:
            paras = [p for p in _paragraphs(cells[0]) if _text(p)]
            titled = bool(paras) and reader.heading(paras[0]) and (len(paras) > 1 or _all_bold(paras[0], reader.bold))
            out.append(("title" if titled else "full", cells))
        elif not _text(cells[0]):
            out.append(("full", cells))
        else:
            first = next((p for p in _paragraphs(cells[0]) if _text(p)), None)
            if first is None or not reader.heading(first):
                return None
            out.append(("headed", cells))
    headed = [cells for kind, cells in out if kind == "headed"]
    if len(headed) < _MIN_ROWS:
        return None
    first_row = next(((kind, cells) for kind, cells in out if kind != "empty"), None)
    if first_row is not None and first_row[0] == "headed":
        shown = [p for c in first_row[1] for p in _paragraphs(c)[:1] if _text(p)]
        if len(shown) >= 2 and all(reader.heading(p) for p in shown):
            return None  # a header row over columns of values
    words = [len(_text(cells[1]).split()) if len(cells) > 1 else 0 for cells in headed]
    if sum(words) < _MEAN_WORDS * len(words) or 2 * sum(w >= _SHORT_WORDS for w in words) < len(words):
        return None
    return out


def _with_outline(p, level: int):
    """Paragraph ``p`` with its own outline level set to heading ``level`` (1–9)."""
    ppr = p.find(f"{_W}pPr")
    if ppr is None:
        ppr = p.makeelement(f"{_W}pPr", {})
        p.insert(0, ppr)
    for old in ppr.findall(f"{_W}outlineLvl"):
        ppr.remove(old)
    el = ppr.makeelement(f"{_W}outlineLvl", {f"{_W}val": str(max(0, min(level, 9) - 1))})
    rpr = ppr.find(f"{_W}rPr")
    ppr.insert(ppr.index(rpr) if rpr is not None else len(ppr), el)
    return p


def _flow(rows: list[tuple[str, list]], base: int) -> list:
    """The elements a layout table's rows hold, in reading order, its headings given levels under
    ``base`` (the level of the heading before the table)."""
    out: list = []
    grouped = False
    for kind, cells in rows:
        if kind == "empty":
            continue
        content = [el for c in cells for el in c if el.tag != f"{_W}tcPr"]
        if kind == "title":
            grouped = True
            first = next(el for el in content if el.tag == f"{_W}p" and _text(el))
            _with_outline(first, base + 1)
        elif kind == "headed":
            first = next(el for el in content if el.tag == f"{_W}p" and _text(el))
            _with_outline(first, base + (2 if grouped else 1))
        out += content
    for el in out:  # marked: the row headings head what the table holds, not what follows it
        for p in el.iter(f"{_W}p"):
            p.set(LAYOUT_MARK, "1")
    return out


def unframe_headed_rows(data: bytes) -> bytes:
    """``data`` (a .docx package) with every table of ``word/document.xml`` that lays out headed
    content (module docstring) replaced by its rows' paragraphs, each row's heading given an
    outline level; ``data`` itself when there is none.

    Raises ``KeyError`` (no ``word/document.xml``), ``zipfile.BadZipFile`` or
    ``lxml.etree.XMLSyntaxError`` for a damaged package."""
    import zipfile

    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = etree.fromstring(z.read("word/document.xml"), parser)
        names = set(z.namelist())
        reader = _Reader(etree.fromstring(z.read("word/styles.xml"), parser) if "word/styles.xml" in names else None)
        body = root.find(f"{_W}body")
        if body is None:
            return data
        layouts = []
        base = 0
        for el in body.iter(f"{_W}p", f"{_W}tbl"):
            if any(a.tag == f"{_W}tbl" for a in el.iterancestors()):
                continue  # inside a table: its own table's business
            if el.tag == f"{_W}p":
                level = reader.level(el)
                if level is not None and _text(el):
                    base = level
            elif (rows := _layout_rows(el, reader)) is not None:
                layouts.append((el, rows, base))
        if not layouts:
            return data
        return with_tables_replaced(
            z, root, [(tbl, lambda r=rows, lv=level: _flow(r, lv)) for tbl, rows, level in layouts]
        )
