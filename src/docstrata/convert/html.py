"""HTML for ``convert``: site chrome removed with BeautifulSoup, then markitdown; page title."""

from __future__ import annotations

import functools
import re
import warnings

from ..structure.grammar import is_contents_title, keyword_words
from .document import ConvertedDocument
from .html_eurlex import eu_act_title, join_eu_titles
from .html_sections import stated_blocks, stated_sections
from .office import _markitdown_convert

# XHTML (EUR-Lex starts with ``<?xml``) parsed as HTML, here and inside markitdown, makes bs4 print
# a 12-line XMLParsedAsHTMLWarning per parse; lxml's HTML parser reads XHTML correctly, so this
# is library noise, not something the user can act on. Matched by message: bs4 loads lazily.
# The filter is set at import and again around each parse: a caller's `warnings.catch_warnings()`
# (pytest wraps every test in one) drops filters added while it is active.
_XML_AS_HTML = r"It looks like you're using an HTML parser to parse an XML document"
warnings.filterwarnings("ignore", message=_XML_AS_HTML)


def _quiet_xml_as_html(fn):
    """``fn`` run with bs4's XMLParsedAsHTMLWarning ignored (see above)."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=_XML_AS_HTML)
            return fn(*args, **kwargs)

    return run


_CHROME_TAGS = ("script", "style", "noscript", "template", "iframe", "nav", "button", "svg")
# page-level only: inside main/article these hold the article's own title, notes and call-outs
_PAGE_CHROME_TAGS = ("header", "footer", "aside")
_ALWAYS_CHROME_ROLES = {"navigation", "search"}
_CHROME_ROLES = {"banner", "contentinfo", "dialog", "alertdialog"}
_CHROME_WORDS = {
    "cookie", "cookies", "consent", "gdpr", "cookiebanner", "navbar", "nav", "navigation", "breadcrumb",
    "breadcrumbs", "skip", "skiplink", "sidebar", "menu", "topbar", "masthead", "share", "social",
}  # fmt: skip
_CLASS_SPLIT = re.compile(r"[-_\s]+")


@_quiet_xml_as_html
def _convert_html(data: bytes, ext: str, doc_key: str) -> ConvertedDocument:
    """HTML bytes → :class:`ConvertedDocument`: markitdown's Markdown of the cleaned page, its
    headings and lists ``markup`` blocks."""
    from bs4 import BeautifulSoup

    from .html_marks import html_marks

    cleaned, removed = clean_html(data)
    markdown = _markitdown_convert(cleaned.encode("utf-8"), "html", charset="utf-8")
    warnings = [f"removed {removed} navigation/banner/script elements"] if removed else []
    soup = BeautifulSoup(cleaned, "lxml")
    anchors, definitions = html_marks(soup)  # what markitdown drops: <dfn>, ids
    # HTML marks its sections with headings and <section>: a list the browser numbers (algorithm
    # steps, points) is body text, never sections; only lists that print their own numbers
    # ("1.", "a)": legislation renderings) hold numbered provisions
    printed = soup.find(attrs={"data-printed-numbers": True}) is not None
    converted = ConvertedDocument.from_markdown(
        markdown,
        provenance="markup",
        list_numbers=printed,
        title=_html_title(data),
        warnings=warnings,
        anchors=anchors,
        marked_definitions=definitions,
    )
    converted.blocks = stated_blocks(converted.blocks, soup)  # numbers of the sections the markup states
    return converted


@_quiet_xml_as_html
def _html_title(data: bytes) -> str | None:
    """An EUR-Lex act's own title (:func:`.html_eurlex.eu_act_title`), else the page's ``h1``
    text when it has exactly one (several mean h1 marks sections), else its
    ``<title>``; never a contents heading (``Contents``, ``Table of Contents``)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "lxml")
    act_title = eu_act_title(soup)
    if act_title:
        return act_title  # an EUR-Lex act: its <title> is a file name
    h1s = soup.find_all("h1", limit=2)
    for tag in (h1s[0] if len(h1s) == 1 else None, soup.title):
        text = " ".join(tag.get_text(" ").split()) if tag is not None else ""
        if text and not is_contents_title(text, ("contents",)) and not _id_like(text):
            return text  # a contents heading names no document, nor does a file id
    return None


def _id_like(text: str) -> bool:
    """An internal id, not a title: one token with no spaces that ends in a file extension or mixes
    digits with ``.`` / ``_`` over eight characters or more (EUR-Lex's
    ``<title>L_2022152EN.01000101.xml</title>``); ``Python3`` or ``RFC5246`` stay titles."""
    if " " in text or len(text) <= 3:
        return False
    return bool(
        re.search(r"\.[A-Za-z]{2,4}$", text) or (len(text) >= 8 and re.search(r"\d", text) and re.search(r"[._]", text))
    )


@_quiet_xml_as_html
def clean_html(data: bytes | str) -> tuple[str, int]:
    """Strip site chrome from an HTML page; returns ``(html, number of elements removed)``.

    Removed: scripts, styles, ``nav``, buttons, page-level ``header``/``footer``/``aside`` (those
    not inside ``main``/``article``; forms are kept since some sites wrap the whole page in one), ARIA landmark roles navigation/banner/contentinfo/search/dialog,
    and elements whose id or class contains a chrome word (cookie, consent, breadcrumb, menu,
    sidebar, skip link, …) as a whole ``-``/``_`` separated token. A class/id word, a
    banner/contentinfo/dialog role or a page-level header/footer/aside is only a hint: such an
    element is kept when it holds the document's content (:func:`holds_content`: a numbered
    heading, two headings with body text, or a large share of the page's text) — RFC 6265's
    ``<section id="sane-set-cookie">`` is a section, not a cookie banner. The page's own table of
    contents (:func:`drop_contents_lists`) goes too. When the page has a ``main``
    element (or ``role="main"``) holding most of the text, only it is kept — plus the page's
    first ``h1`` if that lies outside it.
    """
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "lxml")
    doomed = list(soup(_CHROME_TAGS))
    guarded: set[int] = set()  # removed on a hint (class/id word, role): kept when it holds content
    for tag in soup.find_all(_PAGE_CHROME_TAGS):
        if tag.find_parent(["main", "article"]) is None:
            doomed.append(tag)
    for tag in soup.find_all(True):
        if tag.attrs is None:
            continue
        role = str(tag.get("role") or "").lower()
        if role in _ALWAYS_CHROME_ROLES:
            doomed.append(tag)
        elif role in _CHROME_ROLES or _has_chrome_token(tag):
            doomed.append(tag)
            guarded.add(id(tag))
    page_chars = len((soup.body or soup).get_text(" ", strip=True))
    removed = 0
    for tag in doomed:
        if tag.parent is None:  # already removed with an ancestor
            continue
        if (id(tag) in guarded or tag.name in _PAGE_CHROME_TAGS) and holds_content(tag, page_chars):
            continue  # a class/id word or landmark role is a hint; the document's own sections win
        tag.decompose()
        removed += 1
    _print_numbering(soup)
    join_eu_titles(soup)
    stated_sections(soup)  # sections marked by class names and anchors, not heading elements
    nest_section_headings(soup)
    removed += drop_contents_lists(soup)
    plain_headings_and_citations(soup)
    body = soup.body or soup
    main = soup.find("main") or soup.find(attrs={"role": "main"})
    if main is not None and len(main.get_text(" ", strip=True)) >= 0.5 * len(body.get_text(" ", strip=True)):
        title_h1 = soup.find("h1")
        prefix = str(title_h1) if title_h1 is not None and title_h1.find_parent(main.name) is None else ""
        return f"<html><body>{prefix}{main}</body></html>", removed
    return str(soup), removed


_ENUMERATOR_RE = re.compile(r"^(?:\(\s*[0-9A-Za-z]{1,4}\s*\)|[0-9]{1,3}[A-Z]?\.?|[a-zA-Z]\.|[ivxlc]{1,6}\.|[—–-])$")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _print_numbering(soup) -> int:
    """Numbers the markup carries, written into the text so the section tree can read them.

    * a link that wraps a heading is unwrapped (Markdown has no heading inside a link);
    * an ``li`` that holds a heading (``<li><h5>1. Establishment</h5>…``) is a section wrapper,
      not a list item: it is unwrapped, so its heading is not hidden inside a list;
    * an ``li`` whose markup carries its number (``data-number="a"``, as legislation renderings
      print "(a)" from CSS) becomes a block that starts with that number in parentheses;
    * a two-cell table row whose first cell is only an enumerator (``(1)``, ``(a)``, ``1.``, ``—``:
      how EUR-Lex lays out points) becomes a block "``(1) text``"; innermost tables first;
    * a list most of whose items print their own number (``<li><span class="akn-num">1.</span>…``,
      ``<li>a) …``: legislation renderings) is a run of numbered provisions, not a list the browser
      numbers: it is marked ``data-printed-numbers`` (the document's list items may be sections).

    Returns the number of lists that print their own numbers.
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
    printed = 0
    for lst in soup.find_all(["ol", "ul"]):
        items = lst.find_all("li", recursive=False)
        if items and sum(1 for li in items if _PRINTED_NUMBER_RE.match(_li_text(li))) * 2 > len(items):
            lst["data-printed-numbers"] = "1"  # prints its own numbers ("1.", "a)"): provisions, not steps
            printed += 1
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
    return printed


_PRINTED_NUMBER_RE = re.compile(r"^(?:\(?[0-9]{1,3}[a-z]?[.)]|\(?[a-z]{1,2}[.)]|\([ivxlc]{1,6}\)|\([A-Z]\))(?:\s|$)")


def _li_text(li) -> str:
    return " ".join(li.get_text(" ").split())[:40]


def _heading_level(tag) -> int:
    return int(tag.name[1])


def nest_section_headings(soup) -> int:
    """Heading levels from ``<section>`` nesting, where the page's ``<hN>`` disagree with it.

    ReSpec sources write ``<h2>`` in every ``<section>`` (ReSpec renumbers them in the browser)
    and some write ``<h1>`` in one top section and ``<h2>`` in the next; a ``<section>`` inside a
    ``<section>`` is one level deeper whatever its heading says (HTML's outline: the section
    element, not the heading rank, makes the level). When any section's first heading is not
    deeper than its enclosing section's, every sectioned heading is re-levelled: the first heading
    of a section at nesting depth ``d`` gets level ``offset + d`` (``offset`` keeps top sections
    where the page puts them, below a title heading outside every section), other headings of that
    section move by the same amount; levels stop at 6 (Markdown has no ``#######``). Pages whose
    headings already agree with their nesting (Bikeshed output) are left as they are.

    Returns the number of headings changed.
    """
    own: dict[int, object] = {}  # id(section) → its first heading, for sections that have one
    for section in soup.find_all("section"):
        heading = section.find(_HEADINGS)
        if heading is not None and heading.find_parent("section") is section:
            own[id(section)] = heading  # (else the first heading belongs to a nested section)
    firsts: list[tuple[object, object, int]] = []  # (section, its first heading, depth)
    for section in soup.find_all("section"):
        if id(section) in own:
            depth = 1 + sum(1 for p in section.find_parents("section") if id(p) in own)
            firsts.append((section, own[id(section)], depth))
    if not firsts:
        return 0
    level_of = {id(s): _heading_level(h) for s, h, _ in firsts}
    disagree = False
    for section, _heading, _depth in firsts:
        outer = next((p for p in section.find_parents("section") if id(p) in level_of), None)
        if outer is not None and level_of[id(section)] <= level_of[id(outer)]:
            disagree = True
            break
    if not disagree:
        return 0
    top = min(_heading_level(h) for _, h, d in firsts if d == 1) if any(d == 1 for *_, d in firsts) else 1
    outside = [_heading_level(h) for h in soup.find_all(_HEADINGS) if h.find_parent("section") is None]
    offset = max(top - 1, max(outside, default=0))
    changed = 0
    first_ids = {id(h) for _, h, _ in firsts}
    for section, heading, depth in firsts:
        shift = min(offset + depth, 6) - _heading_level(heading)
        if not shift:
            continue
        for h in section.find_all(_HEADINGS):
            if h.find_parent("section") is not section or (h is not heading and id(h) in first_ids):
                continue  # headings of nested sections move with their own section
            h.name = f"h{max(1, min(6, _heading_level(h) + shift))}"
            changed += 1
    return changed


def _has_chrome_token(tag) -> bool:
    if tag.name in ("html", "body", "main", "article"):
        return False
    names = [str(tag.get("id") or "")] + [str(c) for c in (tag.get("class") or [])]
    return any(token.lower() in _CHROME_WORDS for name in names for token in _CLASS_SPLIT.split(name))


_NUMBERED_HEADING_RE = re.compile(
    rf"^(?:§+\s*|(?:{'|'.join(keyword_words('label'))})\s+)?"
    r"(?:[0-9]{1,3}[A-Za-z]?|[A-Z]|[IVXLC]{1,6})(?:\.[0-9]{1,3})*[.:)]?(?:\s|$)",
    re.I,
)
_LARGE_SHARE = 0.15  # of the page's text: no banner, menu or share bar holds that much


def holds_content(tag, page_chars: int) -> bool:
    """Whether an element a chrome hint points at holds the document's own content.

    Evidence, any of: it holds at least ``_LARGE_SHARE`` of the page's text (and at least 2,000
    characters); it holds a heading that starts with a section number (``9.1. Cookie``,
    ``§ 3``, ``Appendix A``); it holds two or more headings and more body text than link text.
    Link-dense elements (menus, share bars, breadcrumbs: over half their text in links) and short
    banners ("We use cookies …", one unnumbered heading) hold none of these.
    """
    text = tag.get_text(" ", strip=True)
    if not text:
        return False
    link_chars = sum(len(a.get_text(" ", strip=True)) for a in tag.find_all("a"))
    if link_chars * 2 > len(text):
        return False
    if len(text) >= 2000 and len(text) >= _LARGE_SHARE * page_chars:
        return True
    headings = tag.find_all(_HEADINGS)
    if any(_NUMBERED_HEADING_RE.match(" ".join(h.get_text(" ").split())) for h in headings):
        return True
    heading_chars = sum(len(h.get_text(" ", strip=True)) for h in headings)
    return len(headings) >= 2 and len(text) - heading_chars - link_chars > 400


def _section_ids(soup) -> set[str]:
    ids = {str(h["id"]) for h in soup.find_all(_HEADINGS) if h.get("id")}
    for section in soup.find_all("section"):
        if section.get("id") and section.find(_HEADINGS) is not None:
            ids.add(str(section["id"]))
    return ids


def drop_contents_lists(soup) -> int:
    """Remove the page's own table of contents; returns how many lists were removed.

    A contents list is an outermost ``<ul>``/``<ol>`` of at least five items, four in five of
    which are (nearly) only links to headings or sections of this page, or short and opening with one
    (``<li><a href="#rfc.section.1">1.</a> <a href="#intro">Introduction</a>``,
    ``<li><a href="#s10">10.</a> References``). It repeats the headings, so left in it
    becomes a long block of the section above it and a run of false cross-references.
    """
    targets = _section_ids(soup)
    removed = 0
    for lst in soup.find_all(["ul", "ol"]):
        if lst.parent is None or lst.find_parent(["ul", "ol"]) is not None:
            continue
        items = lst.find_all("li")
        if len(items) < 5:
            continue
        entries = sum(1 for li in items if _contents_entry(li, targets))
        if entries * 5 >= 4 * len(items):
            lst.decompose()
            removed += 1
    return removed + _drop_contents_paragraphs(soup, targets)


def _contents_entry(item, targets: set[str], titles: dict[str, str] | None = None) -> bool:
    """Whether a list item or paragraph is (nearly) only a link to a section of this page, short
    and opening with one (``<a href="#s10">10.</a> References``), or opening with one and repeating
    the words of the heading it links to (``titles``: heading id → its words)."""
    if titles:
        first = item.find("a", href=True)
        frag = str(first["href"])[1:] if first is not None and str(first["href"]).startswith("#") else ""
        words = _plain_words(item.get_text(" "))
        if frag in titles and (words == titles[frag] or words.startswith(titles[frag] + " ")):
            return True  # "NRS 1.510 Regulations … [Effective until …]": the heading's words and a note
    own, linked = [], []  # the item's words outside its nested lists; those in links to sections
    for child in item.children:
        if getattr(child, "name", None) in ("ul", "ol"):
            continue
        own.extend(child.get_text(" ").split() if getattr(child, "name", None) else str(child).split())
        links = (
            [child]
            if getattr(child, "name", None) == "a"
            else (child.find_all("a", href=True) if getattr(child, "name", None) else [])
        )
        for a in links:
            if str(a.get("href") or "").startswith("#") and str(a["href"])[1:] in targets:
                linked.extend(a.get_text(" ").split())
    return bool(linked) and (len(linked) >= 0.7 * len(own) or own[:1] == linked[:1] and len(own) <= 12)


def _plain_words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _drop_contents_paragraphs(soup, targets: set[str]) -> int:
    """Remove contents set as paragraphs, not a list (a word processor's export: ``<p
    class="COLeadline"><a href="#NRS001Sec010">NRS 1.010</a> Courts of justice.</p>`` …): a run of
    five or more sibling paragraphs that are contents entries (:func:`_contents_entry`), with at most
    two short unlinked lines before or between entries (the contents' own group titles, ``COURT
    ADMINISTRATOR`` / ``General Provisions``), goes as a whole; returns how many runs were removed."""
    removed = 0
    titles = {str(h["id"]): _plain_words(h.get_text(" ")) for h in soup.find_all(_HEADINGS) if h.get("id")}
    for parent in {id(p.parent): p.parent for p in soup.find_all("p") if p.parent is not None}.values():
        run: list = []
        gap: list = []
        for child in list(parent.find_all(True, recursive=False)) + [None]:
            paragraph = child is not None and child.name in ("p", "div")
            entry = (
                paragraph
                and child.find(["p", "div", "ul", "ol", "table"]) is None
                and _contents_entry(child, targets, titles)
            )
            if entry:
                run += gap + [child]
                gap = []
                continue
            short = (
                paragraph and len(gap) < 2 and child.find("a") is None and 0 < len(child.get_text(" ").split()) <= 12
            )
            if short:
                gap.append(child)
                continue
            if sum(1 for p in run if _contents_entry(p, targets, titles)) >= 5:
                for p in run:
                    p.decompose()
                removed += 1
            run, gap = [], []
    return removed


_ENTRY_TAGS = ("dt", "dd", "dfn", "cite", "figure", "figcaption", "table", "li")
_SECTION_REF_RE = re.compile(
    rf"^(?:§|sec\.|{'|'.join(keyword_words('label'))}|\d)", re.I
)  # the citation grammar's words
_REFERENCES_HEADING_RE = re.compile(r"\b(references|bibliography|works cited|citations|sources)\s*$", re.I)


def plain_headings_and_citations(soup) -> int:
    """Links that Markdown would turn into noise, reduced to their words; returns how many.

    * every link inside a heading (``<h2><a href="#rfc.section.4">4.</a> <a href="#sane-profile">
      Server Requirements</a></h2>`` → ``## 4. Server Requirements``): a heading's number and
      title are plain text, its id is kept by :func:`html_marks`;
    * an in-page link to a reference entry, term or figure (``[<a href="#RFC1034">RFC1034</a>]``
      to a ``<dt>``, a ``<dfn>``): its words stay, the link goes; other in-page links — to
      sections (``<a href="#cookie">Section 5.4</a>``), to anchors before a section (xml2rfc's
      ``<span id="enable-0rtt">``), to ids the page does not hold (ReSpec's ``#data-model``) — and
      any link whose words cite a section stay, so the cross-reference pass resolves them;
    * a ``<dl>`` under a References/Bibliography heading is a list of entries, not of terms:
      each ``dt``/``dd`` pair becomes one paragraph "``[RFC1034] Mockapetris, P., …``".
    """
    section_ids = _section_ids(soup)
    changed = 0
    for h in soup.find_all(_HEADINGS):
        for a in h.find_all("a"):
            a.unwrap()
            changed += 1
    entry_ids = {str(t["id"]) for t in soup.find_all(_ENTRY_TAGS, id=True)} - section_ids
    for a in soup.find_all("a", href=True):
        href = str(a["href"])
        if href.startswith("#") and href[1:] in entry_ids and not _SECTION_REF_RE.match(a.get_text(" ").strip()):
            a.unwrap()
            changed += 1
    last_heading = ""
    for tag in soup.find_all([*_HEADINGS, "dl"]):
        if tag.name != "dl":
            last_heading = " ".join(tag.get_text(" ").split())
            continue
        if not _REFERENCES_HEADING_RE.search(last_heading) or tag.parent is None:
            continue
        entries = []
        for dt in tag.find_all("dt", recursive=False):
            p = soup.new_tag("p")
            for child in list(dt.children):
                p.append(child.extract())
            dd = dt.find_next_sibling(["dd", "dt"])
            if dd is not None and dd.name == "dd":
                p.append(" ")
                for child in list(dd.children):
                    p.append(child.extract())
            entries.append(p)
        if entries:
            for p in entries:
                tag.insert_before(p)
            tag.decompose()
            changed += 1
    return changed
