"""File → Markdown: the ``convert`` stage.

Entry point :func:`convert_file` takes a :class:`~docstrata.models.SourceFile` and returns a
:class:`~docstrata.models.Document`; any file it cannot turn into text raises
:class:`~docstrata.errors.ConversionError` with a human reason (never a traceback, never an
absolute path).

Per format:

* ``md`` / ``markdown`` / ``txt`` / ``text`` — passed through. Encoding detected (UTF-8 first,
  then charset-normalizer), BOM removed, NUL bytes or control characters reject the file as binary.
  Paginated plain text (form feeds, as in IETF RFCs) loses its running page headers/footers and
  form feeds; pages are joined so that a paragraph split by a page break reads as one.
* ``html`` / ``htm`` — site chrome (nav, page header/footer, scripts, styles, cookie banners,
  skip links) removed with BeautifulSoup, then markitdown.
* ``docx`` — markitdown (mammoth keeps Word heading styles); Word's ``Title`` style becomes a
  heading and auto-numbered headings get their number back (Word keeps it in numbering.xml, which
  mammoth ignores).
* ``pptx`` / ``xlsx`` — markitdown.
* ``pdf`` — pdfminer.six layout analysis (the engine markitdown uses for prose PDFs), with the
  headings markitdown loses recovered: the PDF outline where it matches the text, otherwise font
  size / weight / family statistics plus numbering patterns; running headers, footers and page
  numbers dropped. markitdown's own PDF path is not used because its pdfplumber "form" detection
  turns prose pages into spurious tables and drops inter-word spaces (seen on a LaTeX-typeset
  constitution), which no heading recovery can undo.
* ``xml`` — rejected: tag semantics differ per schema (USLM, RFC XML, …), and XML converted as
  plain text indexes markup as content. Convert it to HTML or Markdown first.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import PurePosixPath

from .errors import ConversionError
from .models import Document, SourceFile

SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(
    {"md", "markdown", "txt", "text", "html", "htm", "pdf", "docx", "pptx", "xlsx"}
)
"""File extensions (lower case, no dot) :func:`convert_file` accepts."""

_TEXT_EXTENSIONS = frozenset({"md", "markdown", "txt", "text"})
_OFFICE_EXTENSIONS = frozenset({"docx", "pptx", "xlsx"})
_REJECTED_REASONS = {
    "xml": "XML is not supported: its tag meaning depends on the schema; convert it to HTML or Markdown first",
}


def convert_file(source: SourceFile) -> Document:
    """Convert one file to Markdown.

    ``source.path`` is read once; the format comes from the extension of ``source.doc_key``
    (case-insensitive). Returns a :class:`Document` whose ``title`` is the PDF metadata title or
    the HTML page's first ``h1`` / ``<title>``, else the first Markdown heading, else the file stem,
    and whose ``warnings`` list non-fatal problems.

    Raises :class:`ConversionError` (``.file`` = ``doc_key``) for an unsupported extension, a
    missing or unreadable file, an empty file, binary content in a text file, a corrupt or
    encrypted PDF / Office file, or a file without any text.
    """
    ext = _extension(source.doc_key)
    if ext not in SUPPORTED_EXTENSIONS:
        reason = _REJECTED_REASONS.get(ext, f"unsupported file type '.{ext}'" if ext else "file has no extension")
        raise ConversionError(source.doc_key, reason)
    data = _read_bytes(source)
    if not data.strip():
        raise ConversionError(source.doc_key, "empty file")
    try:
        markdown, meta_title, warnings = _CONVERTERS[_family(ext)](data, ext, source.doc_key)
    except ConversionError:
        raise
    except Exception as e:  # a converter library failed: report, never leak a traceback or a path
        raise ConversionError(source.doc_key, _library_failure(ext, e, source)) from None
    markdown = markdown.strip("\n") + "\n"
    if not markdown.strip():
        raise ConversionError(source.doc_key, f"no text content in this .{ext} file")
    title = meta_title or first_heading(markdown) or PurePosixPath(source.doc_key).stem
    return Document(doc_key=source.doc_key, title=title, markdown=markdown, format=ext, warnings=warnings)


# ---------------------------------------------------------------------------------------------
# reading and dispatch


def _extension(doc_key: str) -> str:
    return PurePosixPath(doc_key).suffix.lower().lstrip(".")


def _family(ext: str) -> str:
    if ext in _TEXT_EXTENSIONS:
        return "text"
    if ext in ("html", "htm"):
        return "html"
    if ext == "pdf":
        return "pdf"
    return "office"


def _read_bytes(source: SourceFile) -> bytes:
    try:
        with open(source.path, "rb") as f:
            return f.read()
    except PermissionError:
        raise ConversionError(source.doc_key, "permission denied") from None
    except FileNotFoundError:
        raise ConversionError(source.doc_key, "file not found (deleted while ingesting?)") from None
    except IsADirectoryError:
        raise ConversionError(source.doc_key, "is a directory, not a file") from None
    except OSError as e:
        raise ConversionError(source.doc_key, f"cannot read file: {e.strerror or type(e).__name__}") from None


def _library_failure(ext: str, error: Exception, source: SourceFile) -> str:
    detail = str(error).replace(source.path, source.doc_key).strip().splitlines()
    first = detail[0][:200] if detail else ""
    kind = "corrupt PDF" if ext == "pdf" else f"could not convert .{ext}"
    return f"{kind}: {type(error).__name__}" + (f": {first}" if first else "")


def first_heading(markdown: str) -> str | None:
    """Text of the first ATX heading outside fenced code in ``markdown``, or ``None``.

    Link markup ``[text](url)`` is reduced to its text and emphasis markers are removed.
    """
    fence: str | None = None
    for line in markdown.splitlines():
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * 3
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is None and (m := re.match(r" {0,3}#{1,6}\s+(.+?)\s*#*\s*$", line)):
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))
            text = re.sub(r"[*_`]+", "", text).strip()
            if text:
                return text
    return None


# ---------------------------------------------------------------------------------------------
# plain text and Markdown


def _convert_text(data: bytes, ext: str, doc_key: str) -> tuple[str, str | None, list[str]]:
    text = _decode_text(data, ext, doc_key)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    warnings: list[str] = []
    if "\f" in text:
        text, removed = strip_pagination(text)
        if removed:
            warnings.append(f"removed {removed} running page header/footer lines")
    return text, None, warnings


def _decode_text(data: bytes, ext: str, doc_key: str) -> str:
    """Bytes of a text file → str. UTF-8 (BOM removed) first, then charset-normalizer."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            try:
                return _reject_control_chars(data.decode(codec).lstrip("\ufeff"), ext, doc_key)
            except UnicodeDecodeError:
                raise ConversionError(doc_key, f"not text: invalid {codec} after its byte-order mark") from None
    if b"\x00" in data:
        raise ConversionError(doc_key, f"not text: binary content in a .{ext} file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        if best is None:
            raise ConversionError(doc_key, f"not text: binary content in a .{ext} file") from None
        text = str(best)
    return _reject_control_chars(text, ext, doc_key)


def _reject_control_chars(text: str, ext: str, doc_key: str) -> str:
    controls = sum(1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\f\v")
    if controls > max(2, len(text) // 1000):
        raise ConversionError(doc_key, f"not text: binary content in a .{ext} file")
    return text


_DIGITS = re.compile(r"\d+")
_EDGE_LINES = 3  # how many non-blank lines at each end of a page may be running lines


def strip_pagination(text: str) -> tuple[str, int]:
    """Remove form feeds and running page headers/footers from paginated plain text.

    Pages are the form-feed separated parts. A running line is one of the first or last
    ``_EDGE_LINES`` non-blank lines of a page whose text, with whitespace collapsed and digit runs
    replaced by ``#`` (so ``[Page 12]`` and ``[Page 13]`` agree), occurs at the edge of at least
    half of the pages (and of at least two). Page-number-only edge lines are dropped too. Pages
    are then joined: a page break inside a paragraph (previous page not ending a sentence and the
    next starting in lower case or at the same indent) becomes a line break, otherwise a blank line.

    Returns ``(text, number of lines removed)``. Text without form feeds is returned unchanged.
    """
    pages = [page.split("\n") for page in text.split("\f")]
    if len(pages) < 2:
        return text, 0
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({_running_key(lines[i]) for i in _edge_indices(lines)})
    threshold = max(2, (len(pages) + 1) // 2)
    running = {key for key, n in counts.items() if n >= threshold and key}
    removed = 0
    kept_pages: list[list[str]] = []
    for lines in pages:
        drop = {i for i in _edge_indices(lines) if _running_key(lines[i]) in running or _is_page_number(lines[i])}
        removed += len(drop)
        kept = [line for i, line in enumerate(lines) if i not in drop]
        kept_pages.append(_trim_blank(kept))
    return _join_pages([p for p in kept_pages if p]), removed


def _edge_indices(lines: list[str]) -> list[int]:
    non_blank = [i for i, line in enumerate(lines) if line.strip()]
    return sorted(set(non_blank[:_EDGE_LINES] + non_blank[-_EDGE_LINES:]))


def _running_key(line: str) -> str:
    return _DIGITS.sub("#", " ".join(line.split()))


def _is_page_number(line: str) -> bool:
    return bool(re.fullmatch(r"\s*(?:page\s+)?(\d{1,4}|[ivxlc]{1,6})(\s+of\s+\d+)?\s*", line, re.IGNORECASE))


def _trim_blank(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _join_pages(pages: list[list[str]]) -> str:
    out: list[str] = list(pages[0]) if pages else []
    for lines in pages[1:]:
        prev, nxt = out[-1], lines[0]
        continues = not re.search(r"[.:;!?]\s*$", prev) and (
            nxt.lstrip()[:1].islower() or _indent(prev) == _indent(nxt)
        )
        if not continues:
            out.append("")
        out.extend(lines)
    return "\n".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


# ---------------------------------------------------------------------------------------------
# HTML

_CHROME_TAGS = ("script", "style", "noscript", "template", "iframe", "nav", "button", "svg")
# page-level only: inside main/article these hold the article's own title, notes and call-outs
_PAGE_CHROME_TAGS = ("header", "footer", "aside")
_CHROME_ROLES = {"navigation", "banner", "contentinfo", "search", "dialog", "alertdialog"}
_CHROME_WORDS = {
    "cookie", "cookies", "consent", "gdpr", "cookiebanner", "navbar", "nav", "navigation", "breadcrumb",
    "breadcrumbs", "skip", "skiplink", "sidebar", "menu", "topbar", "masthead", "share", "social",
}  # fmt: skip
_CLASS_SPLIT = re.compile(r"[-_\s]+")


def _convert_html(data: bytes, ext: str, doc_key: str) -> tuple[str, str | None, list[str]]:
    cleaned, removed = clean_html(data)
    markdown = _markitdown_convert(cleaned.encode("utf-8"), "html", charset="utf-8")
    warnings = [f"removed {removed} navigation/banner/script elements"] if removed else []
    return markdown, _html_title(data), warnings


def _html_title(data: bytes) -> str | None:
    """The page's ``h1`` text when it has exactly one (several mean h1 marks sections), else its ``<title>``."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "lxml")
    h1s = soup.find_all("h1", limit=2)
    for tag in (h1s[0] if len(h1s) == 1 else None, soup.title):
        text = " ".join(tag.get_text(" ").split()) if tag is not None else ""
        if text:
            return text
    return None


def clean_html(data: bytes | str) -> tuple[str, int]:
    """Strip site chrome from an HTML page; returns ``(html, number of elements removed)``.

    Removed: scripts, styles, ``nav``, buttons, page-level ``header``/``footer``/``aside`` (those
    not inside ``main``/``article``; forms are kept since some sites wrap the whole page in one), ARIA landmark roles navigation/banner/contentinfo/search/dialog,
    and elements whose id or class contains a chrome word (cookie, consent, breadcrumb, menu,
    sidebar, skip link, …) as a whole ``-``/``_`` separated token. When the page has a ``main``
    element (or ``role="main"``) holding most of the text, only it is kept — plus the page's
    first ``h1`` if that lies outside it.
    """
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "lxml")
    doomed = list(soup(_CHROME_TAGS))
    for tag in soup.find_all(_PAGE_CHROME_TAGS):
        if tag.find_parent(["main", "article"]) is None:
            doomed.append(tag)
    for tag in soup.find_all(True):
        if tag.attrs is None:
            continue
        role = str(tag.get("role") or "").lower()
        if role in _CHROME_ROLES or _has_chrome_token(tag):
            doomed.append(tag)
    removed = 0
    for tag in doomed:
        if tag.parent is not None:  # not already removed with an ancestor
            tag.decompose()
            removed += 1
    body = soup.body or soup
    main = soup.find("main") or soup.find(attrs={"role": "main"})
    if main is not None and len(main.get_text(" ", strip=True)) >= 0.5 * len(body.get_text(" ", strip=True)):
        title_h1 = soup.find("h1")
        prefix = str(title_h1) if title_h1 is not None and title_h1.find_parent(main.name) is None else ""
        return f"<html><body>{prefix}{main}</body></html>", removed
    return str(soup), removed


def _has_chrome_token(tag) -> bool:
    if tag.name in ("html", "body", "main", "article"):
        return False
    names = [str(tag.get("id") or "")] + [str(c) for c in (tag.get("class") or [])]
    return any(token.lower() in _CHROME_WORDS for name in names for token in _CLASS_SPLIT.split(name))


# ---------------------------------------------------------------------------------------------
# Office formats via markitdown

_DOCX_STYLE_MAP = "p[style-name='Title'] => h1:fresh"


def _markitdown_convert(data: bytes, ext: str, charset: str | None = None, **options) -> str:
    from markitdown import MarkItDown, StreamInfo  # lazy: importing markitdown costs ~0.5 s

    converter = MarkItDown(enable_plugins=False)
    info = StreamInfo(extension=f".{ext}", charset=charset)
    return converter.convert_stream(io.BytesIO(data), stream_info=info, **options).markdown


def _convert_office(data: bytes, ext: str, doc_key: str) -> tuple[str, str | None, list[str]]:
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
    if ext != "docx":
        return _markitdown_convert(data, ext), None, []
    markdown = _markitdown_convert(data, ext, style_map=_DOCX_STYLE_MAP)
    warnings: list[str] = []
    try:
        markdown = number_docx_headings(markdown, docx_heading_numbers(data))
    except Exception as e:  # numbering is a refinement; the text is already there
        warnings.append(f"heading numbers not recovered: {type(e).__name__}")
    return markdown, None, warnings


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@dataclass
class _NumLevel:
    start: int
    fmt: str
    text: str
    style: str | None


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
        return _format_counter(counter.get(k, lvls[k].start if k in lvls else 1), fmt)

    return re.sub(r"%(\d)", fill, lvls[ilvl].text).strip()


def _format_counter(n: int, fmt: str) -> str:
    if fmt in ("upperLetter", "lowerLetter"):
        s = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return s if fmt == "upperLetter" else s.lower()
    if fmt in ("upperRoman", "lowerRoman"):
        s = _roman(n)
        return s if fmt == "upperRoman" else s.lower()
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


def normalize_heading(text: str) -> str:
    """Comparable form of a heading: link targets, escapes, entities and punctuation removed,
    whitespace collapsed, case folded. ``"1.2  Élément\\_X:"`` → ``"1.2 élément x"``."""
    import html

    text = html.unescape(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text))
    text = unicodedata.normalize("NFKC", text).replace("\\", "")
    text = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", text)  # keep dots only inside numbers like 1.2
    text = re.sub(r"[^\w.]+", " ", text)
    return " ".join(text.replace("_", " ").split()).casefold()


# ---------------------------------------------------------------------------------------------
# PDF


_PDF_NUMBERING = re.compile(
    r"^(\d+(\.\d+)*\.?|[A-Z]\.(\d+\.?)*|[IVXLC]+\.|(chapter|section|article|part|annex|appendix|schedule|title)"
    r"\s+[\dIVXLC]+[A-Z]?\.?|§+\s*\d+)(\s|$)",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(r"^(\d+(\.\d+)*\.?|[A-Z]\.|[IVXLC]+\.)$")
# A heading line opening with a section number ("1.", "2.3", "Article 4"), not a wrapped title's
# next line that happens to start with a figure ("2020 Annual Report").
_NEW_NUMBER = re.compile(r"^(\d{1,3}(\.\d{1,3})*\.(\s|$)|\d{1,3}(\.\d{1,3})+\s)|^(?!\d)" + _PDF_NUMBERING.pattern[1:],
                         re.IGNORECASE)
_TOC_LINE = re.compile(r"(\.\s?){4,}\s*[\divxlc]+\s*$|\.{3,}\s*$", re.IGNORECASE)
_CAPTION = re.compile(r"^(figure|fig\.|table|listing|example)\s+[\w.-]+", re.IGNORECASE)
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|[-,]bd\b", re.IGNORECASE)
_MONO_FONT = re.compile(r"courier|mono|consol|menlo|inconsolata|code", re.IGNORECASE)


@dataclass
class _PdfLine:
    """One text line of a PDF page as laid out by pdfminer (coordinates in PDF points)."""

    page: int
    box: int
    text: str
    size: float  # dominant font size, rounded to 0.5 pt
    font: str  # dominant font name without the subset prefix ("ABCDEE+")
    x0: float
    x1: float
    y0: float
    y1: float
    chars: int
    level: int = 0  # heading level once classified, 0 = body text

    @property
    def style(self) -> tuple[float, str]:
        return (self.size, self.font)

    @property
    def bold(self) -> bool:
        return bool(_BOLD_FONT.search(self.font))


def _convert_pdf(data: bytes, ext: str, doc_key: str) -> tuple[str, str | None, list[str]]:
    if b"%PDF" not in data[:1024]:
        raise ConversionError(doc_key, "corrupt PDF: no %PDF header (not a PDF file?)")
    lines, outline, meta_title, n_pages, empty_pages = _pdf_layout(data, doc_key)
    if not any(line.text.strip() for line in lines):
        raise ConversionError(doc_key, "no text layer in this PDF (scanned images?); OCR is not supported")
    warnings = []
    if empty_pages:
        warnings.append(f"{empty_pages} of {n_pages} pages have no text layer (scanned images?)")
    lines = _drop_running_lines(lines, n_pages)
    lines = _merge_split_numbers(lines)
    if not _apply_outline(lines, outline):
        _classify_by_font(lines)
    return _pdf_markdown(lines), meta_title, warnings


def _pdf_layout(data: bytes, doc_key: str):
    """Lay out every page with pdfminer; return lines, outline, metadata title, page counts."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LAParams, LTTextBox
    from pdfminer.pdfdocument import PDFDocument, PDFPasswordIncorrect
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser

    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)))
    except PDFPasswordIncorrect:
        raise ConversionError(doc_key, "encrypted PDF: a password is required") from None
    if not document.is_extractable:
        raise ConversionError(doc_key, "PDF forbids text extraction (permissions set by its author)")
    resources = PDFResourceManager()
    device = PDFPageAggregator(resources, laparams=LAParams())
    interpreter = PDFPageInterpreter(resources, device)
    lines: list[_PdfLine] = []
    box_id = n_pages = empty_pages = 0
    for page_no, page in enumerate(PDFPage.create_pages(document)):
        n_pages += 1
        interpreter.process_page(page)
        boxes = [el for el in device.get_result() if isinstance(el, LTTextBox)]
        if not boxes:
            empty_pages += 1
        for box in boxes:
            box_id += 1
            lines.extend(_box_lines(box, page_no, box_id))
    return lines, _pdf_outline(document), _pdf_meta_title(document), n_pages, empty_pages


def _box_lines(box, page_no: int, box_id: int) -> list[_PdfLine]:
    from pdfminer.layout import LTChar, LTTextLine

    out = []
    for line in box:
        if not isinstance(line, LTTextLine):
            continue
        text = line.get_text().strip()
        styles: Counter[tuple[float, str]] = Counter()
        for ch in line:
            if isinstance(ch, LTChar) and not ch.get_text().isspace():
                styles[(round(ch.size * 2) / 2, ch.fontname.split("+", 1)[-1])] += 1
        if not text or not styles:
            continue
        (size, font), _ = styles.most_common(1)[0]
        out.append(_PdfLine(page_no, box_id, text, size, font, line.x0, line.x1, line.y0, line.y1,
                            sum(styles.values())))  # fmt: skip
    return out


def _pdf_outline(document) -> list[tuple[int, str]]:
    try:
        return [(level, title) for level, title, *_ in document.get_outlines() if title and title.strip()]
    except Exception:  # PDFNoOutlines, or a broken outline tree: fall back to fonts
        return []


def _pdf_meta_title(document) -> str | None:
    from pdfminer.pdftypes import resolve1
    from pdfminer.utils import decode_text

    for info in document.info or []:
        raw = resolve1(info.get("Title")) if isinstance(info, dict) else None
        title = decode_text(raw) if isinstance(raw, bytes) else raw if isinstance(raw, str) else None
        title = " ".join((title or "").replace("\x00", "").split())
        if title and not re.search(r"^\(?(untitled|anonymous)\)?$|^microsoft word\b|\.(docx?|pdf|tex|dvi)$", title,
                                   re.IGNORECASE):  # generator placeholders (reportlab: "(anonymous)")
            return title
    return None


def _drop_running_lines(lines: list[_PdfLine], n_pages: int) -> list[_PdfLine]:
    """Remove page headers/footers: lines on the two outermost text rows at the top or bottom of a
    page whose text (digits masked) and size recur on at least a quarter of the pages (and three),
    and page numbers there."""
    by_page: dict[int, list[_PdfLine]] = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    edges: dict[int, list[_PdfLine]] = {p: _edge_lines(ls) for p, ls in by_page.items()}
    counts: Counter[tuple[str, float]] = Counter()
    for edge in edges.values():
        counts.update({(_running_key(line.text), line.size) for line in edge})
    threshold = max(3, -(-n_pages // 4))  # books alternate headers on odd and even pages
    body_size = _body_style(lines)[0]
    doomed = set()
    for edge in edges.values():
        for line in edge:
            page_number = _is_page_number(line.text) and line.size <= body_size + 1
            if page_number or counts[(_running_key(line.text), line.size)] >= threshold:
                doomed.add(id(line))
    return [line for line in lines if id(line) not in doomed]


def _edge_lines(page_lines: list[_PdfLine]) -> list[_PdfLine]:
    rows = sorted({round(line.y1) for line in page_lines}, reverse=True)
    edge_rows = set(rows[:2] + rows[-2:])
    return [line for line in page_lines if round(line.y1) in edge_rows]


def _merge_split_numbers(lines: list[_PdfLine]) -> list[_PdfLine]:
    """Join a bare section number ("1.2.2") with the title laid out beside it on the same row,
    which pdfminer puts in a separate box when a tab separates them."""
    absorbed: set[int] = set()
    for line in lines:
        if not _BARE_NUMBER.match(line.text) or id(line) in absorbed:
            continue
        beside = [
            other for other in lines
            if other.page == line.page and other is not line and id(other) not in absorbed
            and other.x0 > line.x1 - 1 and _vertical_overlap(line, other) > 0.5 and re.search(r"[^\W\d_]", other.text)
        ]  # fmt: skip
        if beside:
            title = min(beside, key=lambda other: other.x0)
            line.text = f"{line.text} {title.text}"
            line.size, line.font, line.x1, line.chars = title.size, title.font, title.x1, line.chars + title.chars
            absorbed.add(id(title))
    return [line for line in lines if id(line) not in absorbed]


def _vertical_overlap(a: _PdfLine, b: _PdfLine) -> float:
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap / max(min(a.y1 - a.y0, b.y1 - b.y0), 1e-6)


def _body_style(lines: list[_PdfLine]) -> tuple[float, str]:
    weights: Counter[tuple[float, str]] = Counter()
    for line in lines:
        weights[line.style] += line.chars
    return weights.most_common(1)[0][0] if weights else (10.0, "")


def _apply_outline(lines: list[_PdfLine], outline: list[tuple[int, str]]) -> bool:
    """Mark the lines the PDF outline (bookmarks) names as headings at the outline's levels.

    Entries are matched in order against one line or two consecutive lines, on normalised text.
    Returns False (and marks nothing) when fewer than 60% of at least three entries match — such an
    outline does not describe this text layer, so font statistics are used instead.
    """
    if len(outline) < 3:
        return False
    keys = [normalize_heading(line.text) for line in lines]
    matches: list[tuple[int, int, int]] = []  # (line index, lines used, level)
    position = 0
    for level, title in outline:
        target = normalize_heading(title)
        for i in range(position, len(lines)):
            if keys[i] == target:
                matches.append((i, 1, level))
                position = i + 1
                break
            if i + 1 < len(lines) and lines[i + 1].box == lines[i].box and f"{keys[i]} {keys[i + 1]}" == target:
                matches.append((i, 2, level))
                position = i + 2
                break
    if len(matches) < 0.6 * len(outline):
        return False
    for i, used, level in matches:
        if used == 2:
            lines[i].text = f"{lines[i].text} {lines[i + 1].text}"
            lines[i + 1].text = ""
        lines[i].level = min(level, 6)
    return True


def _classify_by_font(lines: list[_PdfLine]) -> None:
    """Mark heading lines from font statistics and numbering; set ``level`` on each heading line.

    A run (consecutive lines of one box in one style, at most three, vertically adjacent runs of
    one heading style merged) is a heading when its font is larger than the body font (≥ 1.15× and
    ≥ +1 pt), or — at about body size (≥ 0.9×) — it is set apart by weight (bold where the body is
    not) or by a rare font (< 5% of the characters), and it is numbered (``1.2``, ``Chapter 3``,
    ``Article IV``), or it opens a block (starts its box or follows a sentence end), looks like a
    title (capitalised, no final stop) and is followed by plainer text no larger, or it is in
    capitals.
    Never headings: table-of-contents lines (dot leaders), captions (``Figure 3``), monospace
    text, runs ending in , ; or :, runs over 20 words (12 at body size).
    Levels: dotted numbering depth ("1.2.3" → 3) where present, else the rank of the font size
    among heading sizes (largest first).
    """
    body_size, body_font = _body_style(lines)
    body_bold = bool(_BOLD_FONT.search(body_font))
    share = _style_shares(lines)
    runs = _merge_heading_runs(_style_runs(lines), body_size)
    page_lines: dict[int, list[_PdfLine]] = {}
    for line in lines:
        page_lines.setdefault(line.page, []).append(line)
    headings: list[tuple[list[_PdfLine], str]] = []
    for n, run in enumerate(runs):
        text = " ".join(line.text for line in run)
        first = run[0]
        if _TOC_LINE.search(text) or _CAPTION.match(text) or len(run) > 3 or len(text.split()) > 20:
            continue
        if _MONO_FONT.search(first.font) or re.search(r"[,;:]$", text) or re.search(r"[<>={};]|\(\)", text):
            continue  # code and diagram labels are not titles
        has_letters = bool(re.search(r"[^\W\d_]", text))
        larger = first.size >= max(body_size * 1.15, body_size + 1)
        if larger and (has_letters or (_BARE_NUMBER.match(text) and first.size >= body_size * 1.5)):
            headings.append((run, text))
            continue
        if not has_letters or first.size < body_size * 0.9 or len(text.split()) > 12:
            continue
        distinct = (first.bold and not body_bold) or (first.font != body_font and share[first.style] < 0.05)
        if not distinct:
            continue
        if _has_row_twin(first, page_lines[first.page]):
            continue  # a table header cell, not a heading
        following = runs[n + 1][0] if n + 1 < len(runs) else None
        leads_body = (
            following is not None and following.size <= first.size and not following.bold
            and following.style != first.style and _starts_block(runs, n)
            and not re.search(r"[.!?]$", text) and text[:1].isupper()
        )  # fmt: skip
        shouting = text.isupper() and len(text) > 3
        if _PDF_NUMBERING.match(text) or leads_body or shouting:
            headings.append((run, text))
    _assign_levels(headings)


def _has_row_twin(line: _PdfLine, page_lines: list[_PdfLine]) -> bool:
    """Another line in the same style sits beside this one on its row (a table header row)."""
    return any(
        other is not line and other.text and other.style == line.style and _vertical_overlap(line, other) > 0.5
        and (other.x0 >= line.x1 or other.x1 <= line.x0)
        for other in page_lines
    )  # fmt: skip


def _style_shares(lines: list[_PdfLine]) -> dict[tuple[float, str], float]:
    weights: Counter[tuple[float, str]] = Counter()
    for line in lines:
        weights[line.style] += line.chars
    total = sum(weights.values()) or 1
    return {style: n / total for style, n in weights.items()}


def _starts_block(runs: list[list[_PdfLine]], n: int) -> bool:
    """The run starts its box, or the text before it in the box ends a sentence."""
    if n == 0 or runs[n - 1][-1].box != runs[n][0].box:
        return True
    return bool(re.search(r"[.!?:]$", runs[n - 1][-1].text))


def _merge_heading_runs(runs: list[list[_PdfLine]], body_size: float) -> list[list[_PdfLine]]:
    """Join a large-font run with the next one when it continues the same heading in a new box
    (same style, same page, the next line directly below) — unless the next run starts with its
    own section number ("1. Warranty Period" under a document title is the next heading)."""
    merged: list[list[_PdfLine]] = []
    for run in runs:
        if merged:
            last, first = merged[-1][-1], run[0]
            same = last.style == first.style and last.page == first.page and first.size > body_size * 1.15
            below = 0 <= last.y0 - first.y1 < first.size and len(merged[-1]) + len(run) <= 3
            if same and below and not _NEW_NUMBER.match(first.text):
                merged[-1].extend(run)
                continue
        merged.append(run)
    return merged


def _style_runs(lines: list[_PdfLine]) -> list[list[_PdfLine]]:
    runs: list[list[_PdfLine]] = []
    for line in lines:
        if not line.text:
            continue
        if runs and runs[-1][-1].box == line.box and runs[-1][-1].style == line.style:
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def _assign_levels(headings: list[tuple[list[_PdfLine], str]]) -> None:
    sizes = sorted({run[0].size for run, _ in headings}, reverse=True)
    for run, text in headings:
        number = re.match(r"(\d+(?:\.\d+)*)\.?\s", text + " ")
        level = number.group(1).count(".") + 1 if number else sizes.index(run[0].size) + 1
        run[0].text, run[0].level = text, min(level, 6)
        for line in run[1:]:
            line.text = ""


def _pdf_markdown(lines: list[_PdfLine]) -> str:
    """Render classified lines: headings as ATX lines, each box's other lines as one paragraph
    (line breaks kept, words hyphenated across a line break rejoined), blank lines between."""
    blocks: list[str] = []
    paragraph: list[str] = []
    current_box = None

    def flush() -> None:
        if paragraph:
            blocks.append("\n".join(paragraph))
            paragraph.clear()

    for line in lines:
        if not line.text:
            continue
        if line.level:
            flush()
            blocks.append("#" * line.level + " " + " ".join(line.text.split()))
            current_box = None
            continue
        if line.box != current_box:
            flush()
            current_box = line.box
        text = re.sub(r"^(\s*)([#>])", r"\1\\\2", line.text)  # body text must not become a heading/quote
        if paragraph and re.search(r"[^\W\d_]-$", paragraph[-1]) and text[:1].islower():
            paragraph[-1] = paragraph[-1][:-1] + text
        else:
            paragraph.append(text)
    flush()
    return "\n\n".join(blocks)


_CONVERTERS = {"text": _convert_text, "html": _convert_html, "office": _convert_office, "pdf": _convert_pdf}
