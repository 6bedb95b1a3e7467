"""Plain text and Markdown for ``convert``: decoding, binary rejection, pagination cleanup.

Also :func:`normalize_heading`, the comparable form of a heading text that the DOCX numbering,
the PDF outline matching and the heading benchmark share.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections import Counter

from ..errors import ConversionError
from ..structure.grammar import is_unit_label
from .document import FENCE, ConvertedDocument


def _convert_text(data: bytes, ext: str, doc_key: str) -> ConvertedDocument:
    """Plain text or Markdown bytes → :class:`ConvertedDocument` (headings of a Markdown file are
    ``markup``; a document family whose Markdown states more, such as kramdown-rfc, is converted by
    its profile's converter: see :mod:`docstrata.profiles`)."""
    text = _decode_text(data, ext, doc_key)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    warnings: list[str] = []
    if "\f" in text:
        text, removed = strip_pagination(text)
        if removed:
            warnings.append(f"removed {removed} running page header/footer lines")
    if ext in ("md", "markdown"):
        from ..profiles import converter_for_markdown

        family = converter_for_markdown(text)
        if family is not None:
            return family(text, doc_key, warnings)
        meta, text = split_front_matter(text)
        text = strip_inline_html(text)
        text, deep = deep_headings_to_six(text)
        if deep:
            warnings.append(
                f"{deep} headings deeper than Markdown's six levels (7 or more '#') read as level-6 headings"
            )
        title = front_matter_title(meta)
        if title is None:
            title = setext_title(text) or (None if text.lstrip().startswith("#") else plain_text_title(text))
        return ConvertedDocument.from_markdown(text, title=title, provenance="markup", warnings=warnings)
    return ConvertedDocument.from_markdown(text, title=plain_text_title(text), warnings=warnings)


_DEEP_ATX = re.compile(r"^( {0,3})#{7,}([ \t]+\S.*)$")


def deep_headings_to_six(markdown: str) -> tuple[str, int]:
    """``markdown`` with each heading written with 7 or more ``#`` (outside code fences) as a level-6
    ATX heading, and how many there were. CommonMark stops at six levels, but generators of deep
    legal outlines write more (Archeo-Lex renders a French code's ``Article L132-23`` under
    Partie > Livre > Titre > Chapitre > Section as ``####### Article``); read as text, such an
    article would vanish into its division. At level 6 the structure stage nests it by its
    grammar rank (an article below a section), not by the lost depth."""
    if "#######" not in markdown:
        return markdown, 0
    out, fence, n = [], None, 0
    for line in markdown.split("\n"):
        fm = FENCE.match(line)
        if fence is not None:
            fence = None if fm and fm.group(1)[0] == fence else fence
        elif fm:
            fence = fm.group(1)[0]
        elif m := _DEEP_ATX.match(line):
            line, n = f"{m.group(1)}######{m.group(2)}", n + 1
        out.append(line)
    return "\n".join(out), n


_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_TOML_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?\+\+\+[ \t]*\n(.*?\n)\+\+\+[ \t]*(?:\n|\Z)", re.S)  # Hugo


def split_front_matter(markdown: str) -> tuple[dict, str]:
    """A leading YAML front matter block (``---`` … ``---`` or ``...``: Jekyll, Hugo, pandoc, the
    gesetze and Justel Markdown exports), or Hugo's TOML one (``+++`` … ``+++``), as a dict, and
    the Markdown after it. The block is the
    document's metadata, never its text: read as text its ``key: value`` lines became a preamble
    section and "definitions" (``Fundstelle: …``). A block that is not a YAML mapping is no front
    matter: ``({}, markdown)`` unchanged."""
    m = _FRONT_MATTER.match(markdown) or _TOML_FRONT_MATTER.match(markdown)
    if not m:
        return {}, markdown
    try:
        if m.re is _TOML_FRONT_MATTER:
            import tomllib

            meta = tomllib.loads(m.group(1))
        else:
            import yaml

            meta = yaml.safe_load(m.group(1))
    except Exception:  # noqa: BLE001 - not YAML (TOML): an opening thematic break, keep the text
        return {}, markdown
    if not isinstance(meta, dict) or not meta:
        return {}, markdown
    return meta, markdown[m.end() :].lstrip("\n")


def front_matter_title(meta: dict) -> str | None:
    """The document title a front matter states (``title``, ``Title``, ``Titel``, ``titre``), one
    line, or ``None``."""
    for key, value in meta.items():
        if str(key).strip().lower() in ("title", "titel", "titre") and isinstance(value, (str, int)):
            title = " ".join(str(value).split())
            if title:
                return title
    return None


def setext_title(text: str) -> str | None:
    """The text of a setext heading opening ``text`` ("Privacy Policy" over a line of ``-`` or ``=``),
    or ``None``: a Markdown file's title when it opens so (an ATX ``#`` one is found later)."""
    lines = text.lstrip("\n").split("\n", 2)
    if len(lines) < 2 or not lines[0].strip() or len(lines[1].strip()) < 3 or len(set(lines[1].strip())) != 1:
        return None
    return (
        " ".join(lines[0].split()) if lines[1].strip()[0] in "=-" and not lines[0].startswith((" " * 4, "\t")) else None
    )


def plain_text_title(text: str) -> str | None:
    """The title of a plain-text document (or of a Markdown one that states none): its first
    non-blank line when that line is written in capitals ("PUMP STATION FIELD MANUAL") or in title
    case (:func:`_title_case`: "The OMS License"), at most 120 characters with 2+ words or 6+
    letters, is not numbered ("1. SAFETY" is a heading) and is followed by a blank line or the
    end; else ``None`` (the caller falls back to the file stem). Capitals alone are not enough for
    a line that runs into the next one: that is a shouted sentence, not a title."""
    centred = memo_header_title(text)
    if centred:
        return centred
    lines = text.lstrip("\n").split("\n", 2)
    first = lines[0].strip()
    if not first or len(first) > 120 or (len(lines) > 1 and lines[1].strip()):
        return None
    letters = [ch for ch in first if ch.isalpha()]
    if (
        not letters
        or not (all(ch.isupper() for ch in letters) or _title_case(first))
        or re.match(r"(?:\d+(?:\.\d+)*[.)]?|[IVXLC]+[.)])\s", first)
    ):
        return None
    if (len(first.split()) < 2 and len(letters) < 6) or is_unit_label(first):  # "*SECTION 1.*" is no title
        return None
    return " ".join(first.split())


_MONTHS = frozenset(m[:3].casefold() for m in calendar.month_name if m)


def _dated(words: list[str]) -> bool:
    """A month name beside a number among ``words`` ("Effective Date March 1, 2024", "Last updated 3
    May 2023"): a date line, not a title."""
    for i, w in enumerate(words):
        if len(w.strip(".,")) >= 3 and w.strip(".,")[:3].casefold() in _MONTHS and w.strip(".,").isalpha():
            around = words[max(i - 1, 0) : i] + words[i + 1 : i + 2]
            if any(any(ch.isdigit() for ch in x) for x in around):
                return True
    return False


def _title_case(line: str) -> bool:
    """``line`` reads as a title in title case: 2 to 12 words, not opened by Markdown markup, not
    ended by a sentence's or a label's punctuation, and every word of four letters or more
    capitalised ("Terms of Service", "The OMS License"; not "This licence applies to you"), and no
    date in it ("Effective Date March 1, 2024")."""
    words = line.split()
    if not 2 <= len(words) <= 12 or line[0] in "#*->|[!<`_=+" or line[-1] in ".,;:!?" or _dated(words):
        return False
    if words[0].casefold() in ("copyright", "©", "(c)"):  # a copyright notice heads the file, not its title
        return False
    long = [w.strip("\"'“”‘’()") for w in words if sum(ch.isalpha() for ch in w) >= 4]
    return bool(long) and all(w[:1].isupper() for w in long)


_TWO_COLUMN_RE = re.compile(r"^\S.*?\S {3,}\S.*$")


def memo_header_title(text: str) -> str | None:
    """The title of a memo laid out as RFCs and Internet-Drafts are: a header block at the top
    whose lines mostly run in two columns (``Request for Comments: 6749          Microsoft``), then,
    after blank lines, the title centred on the page (one line or several, ``The OAuth 2.0
    Authorization Framework``); ``None`` when the text does not open so. The page width is the
    header block's widest line; two of its lines or more run in two columns and each other stands
    in one of them alone (``Category: Standards Track``; a further author, the date); a title line is indented and its middle lies within 6
    columns of the page's."""
    lines = text.replace("\f", "\n").lstrip("\n").split("\n")[:60]
    header: list[str] = []
    for ln in lines:
        if not ln.strip():
            break
        header.append(ln.rstrip())
    width = max((len(ln) for ln in header), default=0)
    # a right-column line alone (the third author, the date) ends at the page's right edge
    two = sum(1 for ln in header if _TWO_COLUMN_RE.match(ln))
    one_sided = sum(
        1
        for ln in header
        if not _TWO_COLUMN_RE.match(ln)
        and (
            not ln[:1].isspace()
            and len(ln) <= width * 0.6  # a left-column line alone ("Category: …")
            or len(ln) >= width - 2
            and len(ln) - len(ln.lstrip()) >= width // 3
        )
    )  # a right one
    if two < 2 or two + one_sided < len(header):
        return None
    k = len(header)
    while k < len(lines) and not lines[k].strip():
        k += 1
    title: list[str] = []
    while k < len(lines) and lines[k].strip():
        ln = lines[k].rstrip()
        indent = len(ln) - len(ln.lstrip())
        if indent < 1 or abs((indent + len(ln)) / 2 - width / 2) > 6:
            return None
        title.append(ln.strip())
        k += 1
    joined = " ".join(" ".join(title).split())
    return joined if title and len(title) <= 3 and len(joined) <= 200 else None


_INLINE_TAG_RE = re.compile(r"</?(?:span|font)\b[^>]*>|<a\s+(?:name|id)=[\"'][^\"']*[\"']\s*/?>(?:</a>)?", re.I)
_CODE_SPAN_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def strip_inline_html(markdown: str) -> str:
    """Markdown without presentational inline HTML: ``<span class=…>``/``</span>``, ``<font>``
    and bare anchors (``<a name="x"></a>``, ``<a id="x"></a>``) are removed, their text kept;
    fenced code and inline code spans are left exactly as written."""
    out: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        m = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append(line)
            continue
        if m:
            fence = m.group(1)
            out.append(line)
            continue
        if "<" in line:
            pieces, last = [], 0
            for cm in _CODE_SPAN_RE.finditer(line):
                pieces.append(_INLINE_TAG_RE.sub("", line[last : cm.start()]))
                pieces.append(cm.group())
                last = cm.end()
            pieces.append(_INLINE_TAG_RE.sub("", line[last:]))
            line = "".join(pieces)
        out.append(line)
    return "\n".join(out)


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


def normalize_heading(text: str) -> str:
    """Comparable form of a heading: link targets, escapes, entities and punctuation removed,
    whitespace collapsed, case folded. ``"1.2  Élément\\_X:"`` → ``"1.2 élément x"``."""
    import html

    text = html.unescape(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text))
    text = unicodedata.normalize("NFKC", text).replace("\\", "")
    text = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", text)  # keep dots only inside numbers like 1.2
    text = re.sub(r"[^\w.]+", " ", text)
    return " ".join(text.replace("_", " ").split()).casefold()
