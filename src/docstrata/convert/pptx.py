"""PPTX → :class:`~.document.ConvertedDocument`, read from the slides with python-pptx.

A deck states its structure: one slide after another, each with the title its title placeholder
holds (``<p:ph type="title"/>``, ``ctrTitle``: python-pptx's ``slide.shapes.title``). Each slide is
one ``markup`` heading block numbered ``Slide N`` (its position in the deck), titled by that
placeholder: ``# Agenda`` numbered ``Slide 3`` (id ``slide-3``, cited "Slide 3", the slide's page
label ``slide 3``), ``# Slide 4`` for a slide without a title. The headings are taken from the slides, never re-detected from Markdown:
markitdown's PPTX Markdown (which this replaces) wrote the title as ``# …`` only when a placeholder
held it and every text box's lines as they were, so a ``# TaskFlow API`` line of a code sample
became a heading and a deck of plain text boxes had no titles at all.

A slide of text boxes only (no placeholder holds text: a deck as generators write them) is titled
by its typography when that is unambiguous: the leading paragraphs of one text box set in a size
the deck states, larger than every other text on the slide (text without a size of its own is read
at PowerPoint's default 18 pt), at most :data:`_MAX_TITLE_WORDS` words. Otherwise the slide is
untitled.

Below the heading, each shape in reading order (top, then left; a group's shapes in turn): text
frames as paragraph blocks (``markup``: the deck states them as text, so a line in them opens no
section), a text frame set wholly in a monospaced typeface as fenced code, tables as Markdown
tables, charts as their title and a table of their series, pictures by their description (alt
text) when they have one, then the slide's notes. The document title is the first slide's title,
else the core property ``title`` when some slide shows it (never an application's default,
"PowerPoint Presentation"), else the file name.
"""

from __future__ import annotations

import io
import re
from pathlib import PurePosixPath
from typing import Any

from ..errors import ConversionError
from .document import BlockWriter, ConvertedDocument

_MAX_TITLE_WORDS = 15
_DEFAULT_SIZE_PT = 18.0  # a text box's run size when neither the run nor the paragraph states one
# typefaces with letters of one width: a text frame set wholly in one is a code sample
_MONOSPACED = re.compile(
    r"mono|consol|courier|menlo|monaco|lucida console|lucida sans typewriter|source code|fira code|"
    r"inconsolata|cascadia|andale|\bhack\b|fixedsys|letter gothic|ocr a|sf mono|\bcode\b",
    re.I,
)


def convert_pptx(data: bytes, doc_key: str) -> ConvertedDocument:
    """PPTX bytes → :class:`ConvertedDocument` (see module docstring): one ``Slide N`` heading per
    slide, ``page_offsets`` at each slide (``page_unit`` ``"slide"``). Raises
    :class:`ConversionError` when python-pptx cannot open the package."""
    import pptx

    try:
        deck = pptx.Presentation(io.BytesIO(data))
    except Exception as e:  # a damaged package: python-pptx's KeyError / XMLSyntaxError / ValueError
        raise ConversionError(doc_key, f"corrupt .pptx: {type(e).__name__}: {e}") from None
    out = BlockWriter()
    offsets: list[int] = []
    first_title: str | None = None
    for n, slide in enumerate(deck.slides, 1):
        shapes = _reading_order(slide.shapes)
        title, title_shape, title_paragraphs = _slide_title(slide, shapes)
        number = f"Slide {n}"
        out.heading(1, title or "", number, written=title or number)
        offsets.append(out.blocks[-1].start)
        if n == 1:
            first_title = title
        for shape in shapes:
            _write_shape(out, shape, title_shape, title_paragraphs)
        notes = _notes(slide)
        if notes:
            out.add(f"Notes:\n{notes}", "paragraph", provenance="markup")
    if not out.blocks:
        raise ConversionError(doc_key, "no text content in this .pptx file")
    core = " ".join((deck.core_properties.title or "").split())
    if core and core.casefold() not in " ".join(out.document().text.split()).casefold():
        core = ""  # "PowerPoint Presentation", "Slide 1": the application's default, shown on no slide
    title = first_title or core or PurePosixPath(doc_key).stem
    return out.document(title=title, page_offsets=offsets, page_unit="slide")


def _reading_order(shapes) -> list:
    """``shapes`` top to bottom, then left to right (a shape without a position first)."""
    return sorted(shapes, key=lambda s: (s.top if s.top is not None else -1, s.left if s.left is not None else -1))


def _paragraph_text(paragraph) -> str:
    """A paragraph's text, a line break (``<a:br/>``, python-pptx's vertical tab) as a new line."""
    return paragraph.text.replace("\x0b", "\n")


def _size(paragraph) -> float | None:
    """The point size a paragraph's text is set in: its first sized run's, else the paragraph's
    default run size (``<a:pPr><a:defRPr sz>``), else ``None`` (inherited from the layout)."""
    for run in paragraph.runs:
        if run.text.strip() and run.font.size is not None:
            return run.font.size.pt
    return paragraph.font.size.pt if paragraph.font.size is not None else None


def _typeface(paragraph) -> str | None:
    """The typeface a paragraph's text is set in (its runs', else its default run's), or ``None``."""
    for run in paragraph.runs:
        if run.text.strip() and run.font.name:
            return run.font.name
    return paragraph.font.name


def _slide_title(slide, shapes) -> tuple[str | None, object | None, int]:
    """``(title, shape holding it, how many of its leading paragraphs it is)``: the title
    placeholder's text (all of it), else the typographic title (see module docstring), else
    ``(None, None, 0)``."""
    placeholder = slide.shapes.title
    if placeholder is not None and placeholder.has_text_frame and placeholder.text_frame.text.strip():
        words = " ".join(placeholder.text_frame.text.split())
        return words, placeholder, len(placeholder.text_frame.paragraphs)
    texts = _text_shapes(shapes)
    if any(shape.is_placeholder for shape in texts):
        return None, None, 0  # the layout states the slide's parts (body, subtitle, footer) and no title
    sized: list[tuple[Any, int, float]] = []  # (shape, paragraph index, size) of every non-empty paragraph
    for shape in texts:
        for k, p in enumerate(shape.text_frame.paragraphs):
            if _paragraph_text(p).strip():
                size = _size(p)
                sized.append((shape, k, size if size is not None else _DEFAULT_SIZE_PT))
    if not sized:
        return None, None, 0
    top = max(size for _, _, size in sized)
    lead = [(s, k) for s, k, size in sized if size == top]
    shape = lead[0][0]
    if _size(shape.text_frame.paragraphs[lead[0][1]]) is None:
        return None, None, 0  # the deck states no size for it: nothing says it is set larger
    indices = [k for s, k in lead if s is shape]
    nonempty = [k for k, p in enumerate(shape.text_frame.paragraphs) if _paragraph_text(p).strip()]
    # the largest type opens one shape and is found nowhere else on the slide
    if any(s is not shape for s, _ in lead) or indices != nonempty[: len(indices)]:
        return None, None, 0
    if all(size == top for _, _, size in sized) and len(sized) > 1:
        return None, None, 0  # one size throughout: nothing stands out as the title
    paragraphs = shape.text_frame.paragraphs
    words = " ".join(" ".join(_paragraph_text(paragraphs[k]).split()) for k in indices)
    if len(words.split()) > _MAX_TITLE_WORDS:
        return None, None, 0
    return words, shape, indices[-1] + 1


def _text_shapes(shapes) -> list:
    """Shapes holding text, groups opened, in reading order."""
    out = []
    for shape in shapes:
        if _is_group(shape):
            out.extend(_text_shapes(_reading_order(shape.shapes)))
        elif getattr(shape, "has_text_frame", False) and shape.text_frame.text.strip():
            out.append(shape)
    return out


def _is_group(shape) -> bool:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    try:
        return shape.shape_type == MSO_SHAPE_TYPE.GROUP
    except NotImplementedError:  # a shape type python-pptx does not name
        return False


def _write_shape(out: BlockWriter, shape, title_shape, title_paragraphs: int) -> None:
    """The blocks of one shape (see module docstring); the title's paragraphs are the heading's."""
    if _is_group(shape):
        for inner in _reading_order(shape.shapes):
            _write_shape(out, inner, title_shape, title_paragraphs)
        return
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = [[_cell(c.text) for c in row.cells] for row in shape.table.rows]
        if rows:
            out.add(_markdown_table(rows), "table", provenance="markup")
        return
    if getattr(shape, "has_chart", False) and shape.has_chart:
        _write_chart(out, shape.chart)
        return
    if _is_picture(shape):
        described = _description(shape)
        if described:
            name = re.sub(r"\W", "", shape.name) or "picture"
            out.add(f"![{described}]({name}.jpg)", "paragraph", provenance="markup")
        return
    if not getattr(shape, "has_text_frame", False):
        return
    paragraphs = list(shape.text_frame.paragraphs)
    if title_shape is not None and shape._element is title_shape._element:  # python-pptx proxies differ
        paragraphs = paragraphs[title_paragraphs:]
    lines = [_paragraph_text(p) for p in paragraphs]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return
    faces = [_typeface(p) for p in paragraphs if _paragraph_text(p).strip()]
    if faces and all(f and _MONOSPACED.search(f) for f in faces):
        text = "\n".join(lines)
        fence = "~~~" if "```" in text else "```"
        out.add(f"{fence}\n{text}\n{fence}", "code", provenance="font")
        return
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in lines))
    out.add(text, "paragraph", provenance="markup")


def _is_picture(shape) -> bool:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    try:
        return shape.shape_type == MSO_SHAPE_TYPE.PICTURE or (
            shape.shape_type == MSO_SHAPE_TYPE.PLACEHOLDER and hasattr(shape, "image")
        )
    except Exception:  # a shape type python-pptx does not name, a picture placeholder without its image
        return False


def _description(shape) -> str:
    """A picture's description (``<p:cNvPr descr>``: its alt text), one line, or ``""``."""
    try:
        text = shape._element._nvXxPr.cNvPr.get("descr", "") or ""
    except AttributeError:
        return ""
    return " ".join(re.sub(r"[\[\]]", " ", text).split())


def _cell(text: str) -> str:
    return " ".join(text.replace("\x0b", " ").split()).replace("|", "\\|")


def _markdown_table(rows: list[list[str]]) -> str:
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows[1:]])


def _write_chart(out: BlockWriter, chart) -> None:
    """A chart: ``Chart: <title>`` and a table of categories by series (as markitdown wrote it,
    the title a line of text rather than a heading)."""
    title = ""
    try:
        if chart.has_title and chart.chart_title.has_text_frame:
            title = " ".join(chart.chart_title.text_frame.text.split())
    except Exception:  # a chart part python-pptx cannot read: its data may still be there
        title = ""
    out.add(f"Chart: {title}" if title else "Chart", "paragraph", provenance="markup")
    try:
        categories = [str(c.label if hasattr(c, "label") else c) for c in chart.plots[0].categories]
        series = list(chart.series)
        values = [list(s.values) for s in series]
    except Exception:  # an unsupported plot type
        out.add("[unsupported chart]", "paragraph", provenance="markup")
        return
    rows = [["Category"] + [_cell(str(s.name)) for s in series]]
    for k, category in enumerate(categories):
        rows.append([_cell(category)] + [_cell(str(v[k])) if k < len(v) else "" for v in values])
    out.add(_markdown_table(rows), "table", provenance="markup")


def _notes(slide) -> str:
    """The text of a slide's notes page, or ``""`` (a notes page PowerPoint made when the notes pane
    was opened holds none)."""
    if not slide.has_notes_slide:
        return ""
    frame = slide.notes_slide.notes_text_frame
    text = (frame.text or "") if frame is not None else ""
    return text.replace("\x0b", "\n").strip()
