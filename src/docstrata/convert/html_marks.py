"""What HTML markup says about structure that Markdown conversion loses: defined terms and anchors.

markitdown keeps the text of ``<dfn>`` and ``<dl>`` but not the fact that they define terms, and
drops the ``id`` of headings and ``<section>`` wrappers that in-page links (``[§5.3](#user-mediated-selection)``)
point at. :func:`html_marks` reads both from the page (after site chrome is removed) so the
structure stage can use them:

* ``definitions`` — every ``<dfn>`` (W3C Bikeshed/ReSpec, WHATWG and HTML authors' own marking of
  a defining instance): the term is its text, the definition the text of its enclosing block
  (``<p>``, ``<li>``, ``<dd>``, ``<td>``, ``<div>``; for a ``<dfn>`` in a ``<dt>``, the next
  ``<dd>``); plus ``<dt>``/``<dd>`` pairs of a ``<dl>`` that stands under a heading titled like a
  definitions section (Definitions, Terminology, Glossary, …). Each carries the text of the heading
  it stands under, which places it in the section tree.
* ``anchors`` — ``id`` of every heading, and of every ``<section>`` whose first heading has one
  (ReSpec's ``<section id="status"><h2>``), mapped to that heading's text.

Definition-list markup of this kind is the document's own statement, so it counts whatever the
wording (``<dfn>fetch</dfn>`` needs no "means").
"""

from __future__ import annotations

import re

from ..models import MarkedDefinition

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BLOCKS = ("p", "li", "dd", "td", "div", "dt", "section", "blockquote")
_DEFS_HEADING = re.compile(
    r"\b(definitions?|terminology|glossary|defined terms|terms and definitions|"
    r"interpretation|dictionary)\b",
    re.I,
)


def _text(tag) -> str:
    return " ".join(tag.get_text(" ").split())


def html_marks(soup) -> tuple[dict[str, str], list[MarkedDefinition]]:
    """``(anchors, definitions)`` of a BeautifulSoup document (see the module docstring)."""
    anchors: dict[str, str] = {}
    last_heading = ""
    definitions: list[MarkedDefinition] = []
    seen_dl: set[int] = set()
    for tag in soup.find_all(True):
        name = tag.name
        if name in _HEADINGS:
            last_heading = _text(tag)
            if tag.get("id"):
                anchors.setdefault(str(tag["id"]), last_heading)
            continue
        if name == "section" and tag.get("id"):
            first = tag.find(_HEADINGS)
            if first is not None:
                anchors.setdefault(str(tag["id"]), _text(first))
        elif name == "dfn":
            if any("dfn-panel" in (p.get("class") or []) for p in tag.parents if getattr(p, "get", None)):
                continue
            term = _text(tag)
            if term:
                definitions.append(MarkedDefinition(term, _context(tag)[:1500], last_heading))
        elif name == "dl" and _DEFS_HEADING.search(last_heading) and id(tag) not in seen_dl:
            seen_dl.add(id(tag))
            for dt in tag.find_all("dt", recursive=False):
                if dt.find("dfn") is not None:
                    continue  # the dfn pass has it
                dd = dt.find_next_sibling(["dd", "dt"])
                term = _text(dt)
                if term and dd is not None and dd.name == "dd" and 0 < len(term.split()) <= 8:
                    definitions.append(MarkedDefinition(term.rstrip(":"), _text(dd)[:1500], last_heading))
    return anchors, definitions


def _context(dfn) -> str:
    block = next((p for p in dfn.parents if p.name in _BLOCKS), None)
    if block is None:
        return _text(dfn.parent) if dfn.parent is not None else ""
    if block.name == "dt":
        dd = block.find_next_sibling(["dd", "dt"])
        while dd is not None and dd.name == "dt":
            dd = dd.find_next_sibling(["dd", "dt"])
        if dd is not None:
            return _text(dd)
    return _text(block)
