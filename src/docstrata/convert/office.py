"""Office formats (DOCX, PPTX, XLSX) for ``convert`` via markitdown, and DOCX heading numbers.

Word keeps auto-numbered heading numbers in ``numbering.xml``, which mammoth (markitdown's DOCX
engine) ignores; :func:`docx_heading_numbers` recomputes them and :func:`number_docx_headings`
puts them back in front of the Markdown headings.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from ..errors import ConversionError
from .document import ConvertedDocument
from .text import normalize_heading

_DOCX_STYLE_MAP = "p[style-name='Title'] => h1:fresh"


def _markitdown_convert(data: bytes, ext: str, charset: str | None = None, **options) -> str:
    from markitdown import MarkItDown, StreamInfo  # lazy: importing markitdown costs ~0.5 s

    converter = MarkItDown(enable_plugins=False)
    info = StreamInfo(extension=f".{ext}", charset=charset)
    return converter.convert_stream(io.BytesIO(data), stream_info=info, **options).markdown


def _convert_office(data: bytes, ext: str, doc_key: str) -> ConvertedDocument:
    """DOCX / PPTX / XLSX bytes → :class:`ConvertedDocument` (markitdown's Markdown; Word headings
    are ``style`` blocks)."""
    import zipfile

    if not data.startswith(b"PK"):
        raise ConversionError(doc_key, f"corrupt .{ext}: not a ZIP-based Office Open XML file")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
    except zipfile.BadZipFile:
        raise ConversionError(doc_key, f"corrupt .{ext}: damaged ZIP container") from None
    if "[Content_Types].xml" not in names:
        raise ConversionError(doc_key, f"corrupt .{ext}: not an Office Open XML package")
    if ext == "pptx":
        starts: list[tuple[int, int]] = []
        markdown = tidy_slides(_markitdown_convert(data, ext), starts)
        return ConvertedDocument.from_markdown(markdown, provenance="markup", **slide_marks(starts))
    if ext != "docx":
        return ConvertedDocument.from_markdown(_markitdown_convert(data, ext), provenance="markup")
    markdown = _markitdown_convert(data, ext, style_map=_DOCX_STYLE_MAP)
    warnings: list[str] = []
    try:
        markdown = number_docx_headings(markdown, docx_heading_numbers(data))
    except Exception as e:  # numbering is a refinement; the text is already there
        warnings.append(f"heading numbers not recovered: {type(e).__name__}")
    try:  # clause titles marked only by size or bold, in a document without heading styles
        from .docx_headings import inferred_headings, mark_inferred_headings

        markdown = mark_inferred_headings(markdown, inferred_headings(data))
    except Exception as e:  # inferred headings are a refinement; the text is already there
        warnings.append(f"headings not inferred from font size and bold: {type(e).__name__}")
    anchors: dict[str, str] = {}
    try:  # REF fields and bookmark hyperlinks, which mammoth drops, become in-page links
        from .docx_marks import docx_links, link_references

        refs, anchors = docx_links(data)
        markdown = link_references(markdown, refs)
    except Exception as e:  # cross-references are a refinement too
        warnings.append(f"cross-references not recovered: {type(e).__name__}")
    return ConvertedDocument.from_markdown(markdown, provenance="style", warnings=warnings, anchors=anchors)


_SLIDE_RE = re.compile(r"^<!-- Slide number: (\d+) -->[ \t]*$", re.M)


def tidy_slides(markdown: str, slide_starts: list[tuple[int, int]] | None = None) -> str:
    """markitdown's PPTX Markdown, one section per slide: the ``<!-- Slide number: N -->``
    comments go; a slide's ``# title`` comes first even when markitdown emitted a shape (a
    table, a text box) before it, so that shape is cited under its own slide; a slide without a
    title gets the heading ``# Slide N``. ``slide_starts``, when given, receives ``(offset,
    slide number)`` of each slide in the returned text."""
    parts = _SLIDE_RE.split(markdown)
    out = [parts[0].strip("\n")] if parts[0].strip() else []
    offset = len(out[0]) + 2 if out else 0
    for n in range(1, len(parts), 2):
        number, body = parts[n], parts[n + 1].strip("\n")
        lines = body.split("\n")
        title = next((k for k, ln in enumerate(lines) if re.match(r"^# \S", ln)), None)
        head = lines.pop(title) if title is not None else f"# Slide {number}"
        out.append("\n".join([head, *lines]).rstrip())
        if slide_starts is not None:
            slide_starts.append((offset, int(number)))
        offset += len(out[-1]) + 2
    return "\n\n".join(out) + "\n"


def slide_marks(slide_starts: list[tuple[int, int]]) -> dict:
    """The ``Document`` page fields of a deck from :func:`tidy_slides`' ``slide_starts``: one
    "page" per slide (``page_unit`` ``"slide"``), the first starting at 0 (text before the first
    slide comment is the first slide's); labels only when the slide numbers are not 1, 2, 3, …."""
    if not slide_starts:
        return {}
    offsets = [0] + [o for o, _ in slide_starts[1:]]
    numbers = [str(n) for _, n in slide_starts]
    labels = [] if numbers == [str(i + 1) for i in range(len(numbers))] else numbers
    return {"page_offsets": offsets, "page_labels": labels, "page_unit": "slide"}


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@dataclass
class _NumLevel:
    start: int
    fmt: str
    text: str
    style: str | None
    legal: bool = False  # w:isLgl: the number shows every level in Arabic numerals ("Section 1.01")


def docx_heading_numbers(data: bytes) -> list[tuple[str, str]]:
    """``(heading text, number as Word shows it)`` for each auto-numbered heading of a .docx.

    Follows ECMA-376 Part 1 §17.9 (numbering): a paragraph's ``numPr`` (direct, or inherited
    through its style's ``basedOn`` chain; a level linked to the style by ``lvl/pStyle``) selects
    a level of an abstract numbering; counters are kept per abstract numbering, a level's counter
    resets every deeper level, and an unused shallower level counts as its start value (the
    rendering docling and Word show for skipped levels). ``lvlText`` ``%N`` placeholders are
    filled with decimal, letter or roman counters. Bullets and unnumbered headings are omitted.
    """
    import zipfile

    from lxml import etree

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        if "word/numbering.xml" not in names:
            return []
        document = etree.fromstring(z.read("word/document.xml"))
        numbering = etree.fromstring(z.read("word/numbering.xml"))
        styles = etree.fromstring(z.read("word/styles.xml")) if "word/styles.xml" in names else None
    levels, num_to_abstract = _read_numbering(numbering)
    style_info = _read_styles(styles)
    counters: dict[str, dict[int, int]] = {}
    result: list[tuple[str, str]] = []
    for para in document.iter(f"{_W}p"):
        style_id = _attr(para.find(f"{_W}pPr/{_W}pStyle"))
        num_id, ilvl = _paragraph_numbering(para, style_id, style_info)
        if num_id is None or num_id not in num_to_abstract:
            continue
        abstract = num_to_abstract[num_id]
        lvls = levels.get(abstract, {})
        if ilvl is None:
            ilvl = next((i for i, lv in lvls.items() if lv.style == style_id), 0)
        if ilvl not in lvls:
            continue
        label = _advance(counters.setdefault(abstract, {}), lvls, ilvl)
        name = style_info.get(style_id or "", ("", None, None, None))[0]
        if label and _is_heading_style(name):
            text = "".join(t.text or "" for t in para.iter(f"{_W}t")).strip()
            if text:
                result.append((text, label))
    return result


def _attr(el, name: str = "val") -> str | None:
    return None if el is None else el.get(f"{_W}{name}")


def _read_numbering(numbering) -> tuple[dict[str, dict[int, _NumLevel]], dict[str, str]]:
    levels: dict[str, dict[int, _NumLevel]] = {}
    for absn in numbering.iter(f"{_W}abstractNum"):
        lv: dict[int, _NumLevel] = {}
        for lvl in absn.iter(f"{_W}lvl"):
            start = _attr(lvl.find(f"{_W}start"))
            lv[int(lvl.get(f"{_W}ilvl", "0"))] = _NumLevel(
                start=int(start) if start else 1,
                fmt=_attr(lvl.find(f"{_W}numFmt")) or "decimal",
                text=_attr(lvl.find(f"{_W}lvlText")) or "",
                style=_attr(lvl.find(f"{_W}pStyle")),
                legal=lvl.find(f"{_W}isLgl") is not None and _attr(lvl.find(f"{_W}isLgl")) not in ("0", "false"),
            )
        levels[absn.get(f"{_W}abstractNumId")] = lv
    num_to_abstract = {
        num.get(f"{_W}numId"): _attr(num.find(f"{_W}abstractNumId")) for num in numbering.iter(f"{_W}num")
    }
    return levels, num_to_abstract


def _read_styles(styles) -> dict[str, tuple[str, str | None, str | None, str | None]]:
    """style id → (name, basedOn id, numId, ilvl)."""
    info: dict[str, tuple[str, str | None, str | None, str | None]] = {}
    if styles is None:
        return info
    for st in styles.iter(f"{_W}style"):
        num_pr = st.find(f"{_W}pPr/{_W}numPr")
        info[st.get(f"{_W}styleId")] = (
            _attr(st.find(f"{_W}name")) or "",
            _attr(st.find(f"{_W}basedOn")),
            _attr(num_pr.find(f"{_W}numId")) if num_pr is not None else None,
            _attr(num_pr.find(f"{_W}ilvl")) if num_pr is not None else None,
        )
    return info


def _paragraph_numbering(para, style_id: str | None, style_info) -> tuple[str | None, int | None]:
    num_pr = para.find(f"{_W}pPr/{_W}numPr")
    if num_pr is not None and num_pr.find(f"{_W}numId") is not None:
        ilvl = _attr(num_pr.find(f"{_W}ilvl"))
        return _attr(num_pr.find(f"{_W}numId")), int(ilvl) if ilvl else 0
    seen: set[str] = set()
    while style_id and style_id in style_info and style_id not in seen:
        seen.add(style_id)
        _, based_on, num_id, ilvl = style_info[style_id]
        if num_id is not None:
            return (None if num_id == "0" else num_id), (int(ilvl) if ilvl else None)
        style_id = based_on
    return None, None


def _advance(counter: dict[int, int], lvls: dict[int, _NumLevel], ilvl: int) -> str:
    for shallower in range(ilvl):
        if counter.get(shallower, 0) == 0 and shallower in lvls:
            counter[shallower] = lvls[shallower].start
    counter[ilvl] = counter.get(ilvl, lvls[ilvl].start - 1) + 1
    for deeper in [k for k in counter if k > ilvl]:
        del counter[deeper]
    if lvls[ilvl].fmt in ("bullet", "none"):
        return ""

    def fill(m: re.Match) -> str:
        k = int(m.group(1)) - 1
        fmt = lvls[k].fmt if k in lvls else "decimal"
        if lvls[ilvl].legal and fmt != "decimalZero":  # w:isLgl: every level shown in Arabic numerals
            fmt = "decimal"
        return _format_counter(counter.get(k, lvls[k].start if k in lvls else 1), fmt)

    return re.sub(r"%(\d)", fill, lvls[ilvl].text).strip()


def _format_counter(n: int, fmt: str) -> str:
    if fmt in ("upperLetter", "lowerLetter"):
        s = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return s if fmt == "upperLetter" else s.lower()
    if fmt in ("upperRoman", "lowerRoman"):
        s = _roman(n)
        return s if fmt == "upperRoman" else s.lower()
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


def _roman(n: int) -> str:
    out = ""
    for value, sym in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                       (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):  # fmt: skip
        while n >= value:
            out, n = out + sym, n - value
    return out


def _is_heading_style(name: str) -> bool:
    return bool(re.fullmatch(r"(heading\s*\d|title)", name.strip(), re.IGNORECASE))


def number_docx_headings(markdown: str, numbered: list[tuple[str, str]]) -> str:
    """Prefix each Markdown heading that matches the next numbered Word heading with its number.

    Headings are matched in document order on normalised text; a heading already starting with
    its number is left alone.
    """
    if not numbered:
        return markdown
    lines = markdown.split("\n")
    pending = 0
    for i, line in enumerate(lines):
        m = re.match(r"(#{1,6})\s+(.*)$", line)
        if not m or pending >= len(numbered):
            continue
        key = normalize_heading(m.group(2))
        for j in range(pending, min(pending + 5, len(numbered))):
            text, label = numbered[j]
            if normalize_heading(text) == key:
                if not key.startswith(normalize_heading(label)):
                    lines[i] = f"{m.group(1)} {label} {m.group(2)}"
                pending = j + 1
                break
    return "\n".join(lines)
