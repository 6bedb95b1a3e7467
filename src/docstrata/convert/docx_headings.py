"""Headings a Word document marks only by type: larger or bold paragraphs in a document without heading styles.

Many contracts and templates never use Word's ``Heading N`` styles: a clause title such as
``Survival`` is a paragraph in 16 pt against an 11 pt body, or a bold line. mammoth (markitdown's
DOCX engine) maps styles only, so such a document becomes one section. :func:`inferred_headings`
reads ``word/document.xml`` and ``word/styles.xml`` (lxml, no entities or network) and returns the
paragraphs whose own typography marks them as headings; :func:`mark_inferred_headings` turns the
matching Markdown lines into ATX headings.

The evidence, all from the document itself (ECMA-376 Part 1 §17.3.2 run properties, §17.7 style
inheritance: run → character style → paragraph style → its ``basedOn`` chain → document defaults):

* the document has no heading-styled paragraph (``Heading N`` or an outline level): where the
  author used heading styles, those are the headings and nothing is inferred;
* the body size is the font size carrying the most characters;
* a heading candidate is a paragraph outside tables whose every non-blank run is bold or larger
  than the body size; it is short (≤ 15 words, ≤ 120 characters), holds a letter, does not end
  like a sentence or a clause (``.``, ``;``, ``,``; a ``:`` only when larger than the body), is
  not a field (``Last Updated: 3/1/25``: :func:`~docstrata.structure.grammar.is_field_line`), and
  is not a bold list item at body size;
* it stands alone: neither the paragraph before nor the one after is a candidate of the same kind
  (a run of bold lines is a block, such as a signature or an address, not a heading), something
  follows it, and the document
  has at least two candidates which are at most half of its paragraphs;
* where bold is the body formatting (most characters of the body size are bold), bold marks
  nothing: a bold line at body size is a heading only when it heads the paragraph after it (a list
  item, or text of more words than it);
* the document's first line is its title line when it is set apart from the body by its type
  (larger, or centred over a body that is not) and no other line is set like it or larger: it is
  the level-1 heading and the document's title, and the line after it may be a heading (a policy
  set all in bold: its centred title, then ``Introduction`` over the first paragraph);
* levels follow size: the largest kind is level 1 (2 under a title line), the next one level
  lower, …; bold at body size is the lowest.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from ..structure.grammar import is_field_line
from .text import normalize_heading

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OFF = frozenset({"0", "false", "off", "none"})
_HEADING_STYLE_RE = re.compile(r"heading\s*\d", re.I)
_DEFAULT_SIZE = 20  # half-points: Word's size when no style or default sets one (10 pt)


@dataclass(frozen=True)
class InferredHeading:
    """A paragraph the document's typography marks as a heading.

    Attributes:
        text: the paragraph's text as Word shows it (runs joined, stripped).
        level: 1 for the largest kind of heading in the document, 2 for the next, … (≤ 6).
        size: the font size in half-points (``w:sz``) of its runs.
        bold: whether its runs are bold.
    """

    text: str
    level: int
    size: int
    bold: bool


@dataclass
class _Style:
    name: str
    based_on: str | None
    size: int | None
    bold: bool | None
    outline: bool
    numbered: bool  # the style carries list numbering (w:numPr)
    centred: bool | None = None  # the style's paragraph alignment is centred (w:jc), None when it sets none


def _flag(el) -> bool | None:
    """A toggle property (``w:b``): ``None`` when absent, else on unless ``w:val`` says off."""
    if el is None:
        return None
    return (el.get(f"{_W}val") or "true").lower() not in _OFF


def _centred(ppr) -> bool | None:
    """Whether paragraph properties ``ppr`` centre the paragraph (``w:jc`` ``center``/``centre``),
    ``None`` when they set no alignment."""
    jc = ppr.find(f"{_W}jc") if ppr is not None else None
    return None if jc is None else (jc.get(f"{_W}val") or "").lower() in ("center", "centre")


def _size(rpr) -> int | None:
    sz = rpr.find(f"{_W}sz") if rpr is not None else None
    val = sz.get(f"{_W}val") if sz is not None else None
    try:
        return int(float(val)) if val else None
    except ValueError:
        return None


def _read_styles(styles) -> tuple[dict[str, _Style], str | None, int | None, bool | None]:
    """style id → style; the default paragraph style id; the document default size and bold."""
    out: dict[str, _Style] = {}
    default_para = None
    doc_size = doc_bold = None
    if styles is None:
        return out, None, None, None
    rpr_default = styles.find(f"{_W}docDefaults/{_W}rPrDefault/{_W}rPr")
    if rpr_default is not None:
        doc_size, doc_bold = _size(rpr_default), _flag(rpr_default.find(f"{_W}b"))
    for st in styles.iter(f"{_W}style"):
        sid = st.get(f"{_W}styleId")
        if not sid:
            continue
        name_el, based_el = st.find(f"{_W}name"), st.find(f"{_W}basedOn")
        rpr, ppr = st.find(f"{_W}rPr"), st.find(f"{_W}pPr")
        outline = ppr is not None and ppr.find(f"{_W}outlineLvl") is not None
        numbered = ppr is not None and ppr.find(f"{_W}numPr") is not None
        out[sid] = _Style(
            name=name_el.get(f"{_W}val", "") if name_el is not None else "",
            based_on=based_el.get(f"{_W}val") if based_el is not None else None,
            size=_size(rpr),
            bold=_flag(rpr.find(f"{_W}b")) if rpr is not None else None,
            outline=outline,
            numbered=numbered,
            centred=_centred(ppr),
        )
        if st.get(f"{_W}type") == "paragraph" and (st.get(f"{_W}default") or "").lower() in ("1", "true", "on"):
            default_para = sid
    return out, default_para, doc_size, doc_bold


def _chain(styles: dict[str, _Style], sid: str | None):
    seen: set[str] = set()
    while sid and sid in styles and sid not in seen:
        seen.add(sid)
        yield styles[sid]
        sid = styles[sid].based_on


def _inherited(styles: dict[str, _Style], sids: list[str | None], attr: str):
    for sid in sids:
        for st in _chain(styles, sid):
            value = getattr(st, attr)
            if value is not None:
                return value
    return None


def _body_paragraphs(body):
    """Paragraphs of the body in order, outside tables (a table cell is never a heading); content
    controls (``w:sdt``) are entered."""
    for child in body:
        if child.tag == f"{_W}p":
            yield child
        elif child.tag == f"{_W}sdt":
            content = child.find(f"{_W}sdtContent")
            if content is not None:
                yield from _body_paragraphs(content)


def inferred_headings(data: bytes, *, honour_heading_styles: bool = True) -> list[InferredHeading]:
    """The headings a .docx marks only by font size or bold, in document order (rules in the
    module docstring); ``[]`` when the document uses heading styles or shows no such evidence.

    ``honour_heading_styles=False`` reads a styled document by its typography alone (a heading
    style's size and bold count like direct formatting): ``bench/docx_heading_inference.py``
    scores the rules that way against the styles as truth.

    Raises ``KeyError`` / ``zipfile.BadZipFile`` / ``lxml.etree.XMLSyntaxError`` for a damaged package.
    """
    read = _typography(data, honour_heading_styles)
    if read is None:
        return []
    paragraphs, body_size = read.paragraphs, read.body_size
    first_page = read.first_page
    cover = first_page if first_page is not None and _is_cover(paragraphs, first_page, body_size) else 0
    title = not cover and _title_line(paragraphs, body_size)
    kinds: list[tuple[int, bool] | None] = [
        None if p.titled or i < cover or (title and i == 0) else _kind(p.text, p.size, p.bold, p.numbered, body_size)
        for i, p in enumerate(paragraphs)
    ]  # Title: mapped already; a cover page's lines are its front matter, heading nothing after it
    picked = []
    for i, kind in enumerate(kinds):
        if kind is None:
            continue
        nxt = kinds[i + 1] if i + 1 < len(kinds) else "end"
        if nxt == "end" or nxt == kind or (i and kinds[i - 1] == kind):
            continue  # the last paragraph heads nothing; lines alike in a row are a block (an address), not headings
        if read.bold_body and kind == (body_size, True) and not _heads_text(paragraphs[i], paragraphs[i + 1]):
            continue  # where the body is bold, bold marks nothing: a bold line must head the text after it
        picked.append((i, kind))
    count = len(picked) + bool(title)  # the title line is one of the document's headings
    if count < 2 or count * 2 > len(paragraphs):
        return []
    order = sorted({k for _, k in picked}, key=lambda k: (-k[0], not k[1]))
    top = 2 if title else 1  # under the title line
    found = [
        InferredHeading(text=paragraphs[i].text, level=min(order.index(k) + top, 6), size=k[0], bold=k[1])
        for i, k in picked
    ]
    if title:
        found.insert(0, InferredHeading(paragraphs[0].text, 1, paragraphs[0].size, paragraphs[0].bold))
    return found


def _heads_text(line: _Para, after: _Para) -> bool:
    """Whether ``line`` heads the paragraph ``after`` it: a list item, or text of more words than it."""
    return after.numbered or len(after.text.split()) > len(line.text.split())


def _title_line(paragraphs: list[_Para], body_size: int) -> bool:
    """Whether the document's first paragraph is its title line: short (≤ 15 words), no sentence or
    clause end (``.``, ``;``, ``,``, ``:``), not numbered, something after it, and set apart from
    the body by its type — larger than the body size, or centred where the body is not — with no
    other line of the document larger or set like it and no sentence (a line set like it is one of
    its headings, a larger one outranks it). A title is a document's first line; a question or heading further
    down never is."""
    if len(paragraphs) < 2:
        return False
    first = paragraphs[0]
    text = first.text
    if first.titled or first.numbered or len(text.split()) > 15 or text.endswith((".", ";", ",", ":")):
        return False
    if not re.search(r"[^\W\d_]", text):
        return False
    centred_body = sum(len(p.text) for p in paragraphs if p.centred) * 2 > sum(len(p.text) for p in paragraphs)
    if not (first.size > body_size or first.centred and not centred_body):
        return False
    look = (first.size, first.bold, first.centred)
    return not any(
        p.size > first.size or (p.size, p.bold, p.centred) == look and not p.text.endswith((".", ";", ",", ":"))
        for p in paragraphs[1:]
    )


def _is_cover(paragraphs: list[_Para], first_page: int | None, body_size: int) -> bool:
    """Whether the first ``first_page`` paragraphs (those before the document's first page break)
    are a cover page: at most 40 lines, every one set larger than the body text and none of them
    running text (more than 20 words, or a sentence of 8 or more closing with ``.`` or ``;``), with
    the document's text after them. A cover page (title, parties, authors, date) is front matter:
    its large lines head nothing that follows the break; a first page that holds body text under
    its headings is no cover."""
    if not first_page or first_page > 40 or first_page >= len(paragraphs):
        return False
    for text, size, *_ in paragraphs[:first_page]:
        words = text.split()
        if size <= body_size or len(words) > 20 or len(words) >= 8 and text.endswith((".", ";")):
            return False
    return True


def _kind(text: str, size: int, bold: bool, numbered: bool, body_size: int) -> tuple[int, bool] | None:
    """``(size, bold)`` of a heading candidate, else ``None``."""
    larger = size > body_size
    if not (larger or bold) or not re.search(r"[^\W\d_]", text):
        return None
    if len(text) > 120 or len(text.split()) > 15 or text.endswith((".", ";", ",")):
        return None
    if not larger and (numbered or text.endswith(":")):
        return None  # a bold list item or lead-in at body size is body text
    if is_field_line(text):
        return None  # "Last Updated: 3/1/25": a field of the document, heading nothing
    return (size if larger else body_size, bold)


_EMPHASIS_RE = re.compile(r"(?<!\\)(?:\*{1,3}|_{2,3})")  # mammoth bolds run by run: "**Governing** **Law**"


def mark_inferred_headings(markdown: str, headings: list[InferredHeading]) -> str:
    """Each Markdown line that shows the next inferred heading (matched in document order on
    normalised text, emphasis marks dropped) becomes an ATX heading of its level; when the
    Markdown already has a level-1 heading (Word's ``Title`` style), inferred levels start at 2.
    Lines already marked as headings, list items and table rows are left alone."""
    if not headings:
        return markdown
    lines = markdown.split("\n")
    offset = 1 if any(re.match(r"# \S", ln) for ln in lines) else 0
    pending = 0
    for i, line in enumerate(lines):
        if pending >= len(headings):
            break
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "|", "- ", "* ", "+ ", ">")):
            continue
        shown = " ".join(_EMPHASIS_RE.sub("", stripped).split())
        key = normalize_heading(shown)
        for j in range(pending, min(pending + 3, len(headings))):
            if key and normalize_heading(headings[j].text) == key:
                lines[i] = f"{'#' * min(headings[j].level + offset, 6)} {shown}"
                pending = j + 1
                break
    return "\n".join(lines)


class _Para(NamedTuple):
    """One non-empty body paragraph outside tables as :func:`_typography` reads it."""

    text: str
    size: int  # its smallest run size, half-points
    bold: bool  # every run bold
    numbered: bool
    titled: bool  # Title-styled
    centred: bool  # centred (its own w:jc, else its style chain's)


@dataclass(frozen=True)
class _Read:
    paragraphs: list[_Para]
    sizes: Counter[int]  # characters set in each size
    bold_sizes: Counter[int]  # bold characters set in each size
    first_page: int | None  # paragraphs before the first page break, None when there is none

    @property
    def body_size(self) -> int:
        return self.sizes.most_common(1)[0][0]

    @property
    def bold_body(self) -> bool:
        """Bold is the body formatting: most characters of the body size are bold."""
        return self.bold_sizes[self.body_size] * 2 > self.sizes[self.body_size]


def _typography(data: bytes, honour_heading_styles: bool = True) -> _Read | None:
    """The typography of a .docx body: per non-empty paragraph outside tables its text, smallest
    run size (half-points), whether all runs are bold, whether it is numbered, whether it is
    ``Title``-styled, whether it is centred; the characters (and the bold characters) set in each
    size; and how many of those paragraphs stand before the first page break
    (:func:`_page_breaks`), ``None`` when there is none. ``None`` when ``honour_heading_styles``
    and the document uses heading styles, or when it has no body text."""
    import zipfile

    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        root = etree.fromstring(z.read("word/document.xml"), parser)
        styles_xml = etree.fromstring(z.read("word/styles.xml"), parser) if "word/styles.xml" in names else None
    styles, default_para, doc_size, doc_bold = _read_styles(styles_xml)
    body = root.find(f"{_W}body")
    if body is None:
        return None
    paragraphs: list[_Para] = []
    sizes: Counter[int] = Counter()
    bold_sizes: Counter[int] = Counter()
    first_page: int | None = None
    for p in root.iter(f"{_W}p") if honour_heading_styles else ():
        pstyle_el = p.find(f"{_W}pPr/{_W}pStyle")
        pstyle = pstyle_el.get(f"{_W}val") if pstyle_el is not None else default_para
        if p.find(f"{_W}pPr/{_W}outlineLvl") is not None or any(
            st.outline or _HEADING_STYLE_RE.fullmatch(st.name.strip()) for st in _chain(styles, pstyle)
        ):
            return None  # the author marks headings with styles: those are the evidence
    for p in _body_paragraphs(body):
        before, after = _page_breaks(p)
        if before and first_page is None:
            first_page = len(paragraphs)
        pstyle_el = p.find(f"{_W}pPr/{_W}pStyle")
        pstyle = pstyle_el.get(f"{_W}val") if pstyle_el is not None else default_para
        runs, pieces = [], []
        for r in p.iter(f"{_W}r"):
            text = "".join(t.text or "" if t.tag == f"{_W}t" else " " for t in r.iter(f"{_W}t", f"{_W}tab", f"{_W}br"))
            pieces.append(text)
            if not text.strip():
                continue  # a blank run (the space between two words) has no say in the typography
            rpr = r.find(f"{_W}rPr")
            rstyle_el = rpr.find(f"{_W}rStyle") if rpr is not None else None
            sids = [rstyle_el.get(f"{_W}val") if rstyle_el is not None else None, pstyle]
            size = _size(rpr) or _inherited(styles, sids, "size") or doc_size or _DEFAULT_SIZE
            bold = _flag(rpr.find(f"{_W}b")) if rpr is not None else None
            if bold is None:
                bold = _inherited(styles, sids, "bold")
            runs.append((text, size, bool(bold if bold is not None else doc_bold)))
        if not runs:
            if after and first_page is None:
                first_page = len(paragraphs)
            continue
        text = " ".join("".join(pieces).split())
        for t, size, b in runs:
            sizes[size] += len(t)
            if b:
                bold_sizes[size] += len(t)
        numbered = p.find(f"{_W}pPr/{_W}numPr") is not None or any(st.numbered for st in _chain(styles, pstyle))
        titled = any(st.name.strip().lower() == "title" for st in _chain(styles, pstyle))
        own = _centred(p.find(f"{_W}pPr"))
        centred = own if own is not None else bool(_inherited(styles, [pstyle], "centred"))
        paragraphs.append(
            _Para(text, min(s for _, s, _ in runs), all(b for _, _, b in runs), numbered, titled, centred)
        )
        if after and first_page is None:
            first_page = len(paragraphs)
    if not sizes:
        return None
    return _Read(paragraphs, sizes, bold_sizes, first_page)


def _page_breaks(p) -> tuple[bool, bool]:
    """``(before, after)``: whether paragraph ``p`` starts on a new page (``w:pageBreakBefore``, or
    a page break, ``w:br w:type="page"`` or Word's ``w:lastRenderedPageBreak``, ahead of its first
    text) and whether a page break ends it (a page break after its text, or a section break
    ``w:pPr/w:sectPr`` that is not continuous)."""
    ppr = p.find(f"{_W}pPr")
    before = ppr is not None and bool(_flag(ppr.find(f"{_W}pageBreakBefore")))
    after = False
    seen_text = False
    for el in p.iter(f"{_W}t", f"{_W}br", f"{_W}lastRenderedPageBreak"):
        if el.tag == f"{_W}t":
            seen_text = seen_text or bool((el.text or "").strip())
        elif el.tag == f"{_W}lastRenderedPageBreak" or el.get(f"{_W}type") == "page":
            if seen_text:
                after = True
            else:
                before = True
    sect = ppr.find(f"{_W}sectPr") if ppr is not None else None
    if sect is not None:
        kind = sect.find(f"{_W}type")
        after = after or kind is None or kind.get(f"{_W}val") != "continuous"
    return before, after


_CORE_TITLE_RE = re.compile(r"<dc:title>([^<]*)</dc:title>")


def plausible_title(title: str | None) -> str | None:
    """``title`` (whitespace folded) when it can name a document: not empty, not a generator's or
    template's placeholder (``Untitled``, ``Document1``, ``Microsoft Word - x.docx``, ``PowerPoint
    Presentation``, ``(anonymous)``), not a file name (``report_v2.pdf``, ``jadn_v1_0``, a PageMaker
    file ``PL 012913 Personal Data (Act) Cov.pmd``), at most 30
    words; else ``None``. Used for PDF ``/Title`` and Word ``dc:title`` alike."""
    text = " ".join((title or "").replace("\x00", "").split())
    if not text or len(text.split()) > 30 or not re.search(r"[^\W\d_]", text):
        return None
    if re.search(
        r"^\(?(?:untitled|anonymous|document\s?\d*|title|slide\s?\d*|powerpoint presentation)\)?$"
        r"|^microsoft (?:word|powerpoint|excel)\b|\.(?:docx?|pdf|tex|dvi|indd|qxd|qxp|pmd|p65|rtf|odt|wpd)$",
        text,
        re.IGNORECASE,
    ):
        return None
    if " " not in text and re.search(r"[_]|\d.*[-_.]", text):
        return None  # "jadn_v1_0_cs01", "draft-ietf-x-03": a file's name, not its title
    return text


def docx_title(data: bytes) -> str | None:
    """The title a .docx states: its core property ``dc:title`` (``docProps/core.xml``) when
    plausible (:func:`plausible_title`); else its first body paragraph when it is the document's
    title line (:func:`_title_line`: a bold line centred over a bold body) or when no paragraph of
    the document is set larger and it is larger than the body text, and reads as a title (≤ 15
    words, no closing full stop: the title of a template whose ``Title`` style is unused,
    ``Pilot Agreement`` in 22 pt over an 8 pt body); else ``None``. A ``Title``-styled paragraph is
    the Markdown's first heading already.

    Raises ``zipfile.BadZipFile`` / ``lxml.etree.XMLSyntaxError`` for a damaged package."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        core = z.read("docProps/core.xml").decode("utf-8", "replace") if "docProps/core.xml" in z.namelist() else ""
    m = _CORE_TITLE_RE.search(core)
    if m and (stated := plausible_title(_unescape(m.group(1)))):
        return stated
    read = _typography(data, honour_heading_styles=False)
    if read is None:
        return None
    paragraphs, body_size = read.paragraphs, read.body_size
    first = paragraphs[0]
    if first.titled or first.numbered:
        return None
    if _title_line(paragraphs, body_size):
        return plausible_title(first.text)
    if first.size <= body_size or any(other.size > first.size for other in paragraphs[1:]):
        return None
    if len(first.text.split()) > 15 or first.text.endswith((".", ";", ",", ":")):
        return None
    return plausible_title(first.text)


def _unescape(text: str) -> str:
    import html

    return html.unescape(text)
