"""HTML for ``convert``: site chrome removed with BeautifulSoup, then markitdown; page title."""

from __future__ import annotations

import re

from .office import _markitdown_convert

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
    from bs4 import BeautifulSoup

    from .html_marks import html_marks

    cleaned, removed = clean_html(data)
    markdown = _markitdown_convert(cleaned.encode("utf-8"), "html", charset="utf-8")
    warnings = [f"removed {removed} navigation/banner/script elements"] if removed else []
    anchors, definitions = html_marks(BeautifulSoup(cleaned, "lxml"))  # what markitdown drops: <dfn>, ids
    return markdown, _html_title(data), warnings, {"anchors": anchors, "marked_definitions": definitions}


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
    _print_numbering(soup)
    body = soup.body or soup
    main = soup.find("main") or soup.find(attrs={"role": "main"})
    if main is not None and len(main.get_text(" ", strip=True)) >= 0.5 * len(body.get_text(" ", strip=True)):
        title_h1 = soup.find("h1")
        prefix = str(title_h1) if title_h1 is not None and title_h1.find_parent(main.name) is None else ""
        return f"<html><body>{prefix}{main}</body></html>", removed
    return str(soup), removed


_ENUMERATOR_RE = re.compile(r"^(?:\(\s*[0-9A-Za-z]{1,4}\s*\)|[0-9]{1,3}[A-Z]?\.?|[a-zA-Z]\.|[ivxlc]{1,6}\.|[—–-])$")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _print_numbering(soup) -> None:
    """Numbers the markup carries, written into the text so the section tree can read them.

    * a link that wraps a heading is unwrapped (Markdown has no heading inside a link);
    * an ``li`` that holds a heading (``<li><h5>1. Establishment</h5>…``) is a section wrapper,
      not a list item: it is unwrapped, so its heading is not hidden inside a list;
    * an ``li`` whose markup carries its number (``data-number="a"``, as legislation renderings
      print "(a)" from CSS) becomes a block that starts with that number in parentheses;
    * a two-cell table row whose first cell is only an enumerator (``(1)``, ``(a)``, ``1.``, ``—``:
      how EUR-Lex lays out points) becomes a block "``(1) text``"; innermost tables first.
    """
    for a in soup.find_all("a"):
        if a.find(_HEADINGS) is not None:  # <a href><h2>§ 1 …</h2></a>: the link would hide the heading
            a.unwrap()
    for li in soup.find_all("li"):
        first = next((c for c in li.children if getattr(c, "name", None) or str(c).strip()), None)
        if getattr(first, "name", None) in _HEADINGS:
            li.name = "div"
            li.attrs = {}
    for li in soup.find_all("li", attrs={"data-number": True}):
        number = str(li.get("data-number") or "").strip()
        if re.fullmatch(r"[0-9A-Za-z]{1,4}", number):
            li.insert(0, f"({number}) ")
            li.name = "div"
    for lst in soup.find_all(["ol", "ul"]):
        if not lst.find("li", recursive=False):
            lst.name = "div"
    for table in reversed(soup.find_all("table")):
        rows = table.find_all("tr")
        cells = [r.find_all(["td", "th"], recursive=False) for r in rows]
        if not rows or any(len(c) != 2 for c in cells):
            continue
        if not all(_ENUMERATOR_RE.match(" ".join(c[0].get_text(" ").split())) for c in cells):
            continue
        blocks = []
        for c in cells:
            block = soup.new_tag("div")
            block.append(" ".join(c[0].get_text(" ").split()) + " ")
            for child in list(c[1].children):
                block.append(child.extract())
            blocks.append(block)
        for block in blocks:
            table.insert_before(block)
        table.decompose()


def _has_chrome_token(tag) -> bool:
    if tag.name in ("html", "body", "main", "article"):
        return False
    names = [str(tag.get("id") or "")] + [str(c) for c in (tag.get("class") or [])]
    return any(token.lower() in _CHROME_WORDS for name in names for token in _CLASS_SPLIT.split(name))
