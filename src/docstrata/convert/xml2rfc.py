"""xml2rfc source XML (IETF RFCs and Internet-Drafts, v3 RFC 7991 and v2 RFC 7749) → Markdown.

Recognised by the root element ``<rfc>`` holding ``<front>``/``<middle>``. The source has no
printed numbers: xml2rfc computes them when it renders, and this reader computes them the same
way, so the Markdown reads like the published RFC and "Section 4.2.1" finds its section:

* ``<middle>`` sections are numbered by position, 1, 1.1, 1.1.1 … (``numbered="false"``/``"no"``
  leaves a section and its subsections unnumbered); headings are ``## 4.2.1.  Supported Versions``,
  one Markdown level per nesting level (``Document.heading_levels``), capped at 6;
* ``<back>``: the ``<references>`` take the next top-level number — several top-level
  ``<references>`` (v2) get a synthesised ``N. References`` parent with N.1, N.2 …, a v3
  ``<references>`` holding ``<references>`` is that parent; then the back ``<section>``\\ s are
  appendices ``Appendix A.  Title``, ``A.1.  Title`` … (an unnumbered one uses no letter);
* the front's ``<abstract>`` and ``<note>``\\ s are unnumbered headings; the boilerplate xml2rfc
  adds (Status of This Memo, Copyright Notice, Table of Contents, authors' addresses) is left out;
* ``<xref target>`` is written as xml2rfc prints it: ``Section 4.2.1``, ``Appendix B``,
  ``Figure 3``, ``Table 1``, the reference's label ``[RFC8446]`` (``<displayreference>``; numeric
  ``[1]`` labels where ``symrefs`` is off), a section of another document ``Section 8.1 of
  [QUIC-TRANSPORT]`` (v3 ``section``/``sectionFormat``); ``format="counter"``/``"title"``/``"none"``
  as xml2rfc renders them; an xref with text keeps its text and adds the reference after it
  (``ABNF [RFC5234]``, ``the handshake (Section 4)``); a target inside a section (a paragraph,
  a list item) is cited as that section;
* each ``<reference>`` is one paragraph ``[RFC5246] Dierks, T. and E. Rescorla, "Title", RFC 5246,
  August 2008.`` under its references heading;
* ``<t>`` paragraphs; v2 ``<list style=…>`` and v3 ``<ul>``/``<ol>``/``<dl>`` Markdown lists
  (ordered lists with their printed labels, and ``Document.list_items`` off so a numbered step is
  never a section); a definition entry (v3 ``<dt>``/``<dd>``, v2 ``<t hangText>``) is
  ``- **term:** definition``; ``<artwork>``/``<sourcecode>`` fenced code with the figure's caption
  (``Figure 3: …``); ``<texttable>``/``<table>`` Markdown tables; ``<aside>``/``<blockquote>``
  quoted; ``<cref>`` editorial comments and ``<iref>`` index entries dropped; DTD character entities
  (``&nbsp;``, ``&nbhy;``, ``&wj;`` — the DTD is never loaded) become their characters;
* definition lists under a section titled like a definitions section (Terminology, Definitions,
  Glossary, Conventions and Terminology …) are marked definitions
  (:class:`~docstrata.models.MarkedDefinition`): the markup states them, whatever their wording.

Entry points: :func:`is_xml2rfc`, :func:`convert_xml2rfc`. References pulled in with
``xi:include`` (bib.ietf.org) are not fetched: the warning counts them.
"""

from __future__ import annotations

import html.entities
import re
from dataclasses import dataclass, field, replace

from ..models import MarkedDefinition
from ..structure.grammar import CLAUSE_NUMBER, int_to_letters, int_to_roman
from .document import ConvertedDocument
from .legislation_xml import _local, _squash

_DEFS_HEADING = re.compile(
    r"\b(definitions?|terminology|glossary|defined terms|terms and definitions|"
    r"terms used|interpretation|dictionary|abbreviations)\b",
    re.I,
)
_UNNUMBERED = ("false", "no")
_APPENDIX_NUMBER = re.compile(r"^[A-Z](?:\.|$)")
_ENTITIES = {"nbsp": " ", "nbhy": "-", "wj": "", "zwsp": "", "shy": "", "ndash": "–", "mdash": "—"}
_PRE = frozenset({"artwork", "sourcecode"})
_SKIP = frozenset(
    {
        "cref",
        "iref",
        "boilerplate",
        "toc",
        "displayreference",
        "seriesInfo",
        "author",
        "date",
        "keyword",
        "area",
        "workgroup",
        "link",
    }
)


def is_xml2rfc(root) -> bool:
    """Whether a parsed root is an xml2rfc source: ``<rfc>`` (no namespace) holding ``<front>``
    or ``<middle>``."""
    return _local(root.tag) == "rfc" and any(
        _local(c.tag) in ("front", "middle") for c in root if isinstance(c.tag, str)
    )


@dataclass
class _Target:
    """What an anchor names: its kind (section, appendix, references, reference, figure, table,
    unnumbered) and the words an xref prints for it."""

    kind: str
    number: str = ""
    title: str = ""
    label: str = ""  # a reference's citation label, "RFC8446"


@dataclass
class _Numbering:
    """Numbers xml2rfc computes, per element and per anchor (the dict keeps each lxml element proxy
    alive, so the same proxy — the same key — comes back on the next walk)."""

    by_element: dict[object, _Target] = field(default_factory=dict)
    by_anchor: dict[str, _Target] = field(default_factory=dict)
    synthetic_references: str = ""  # number of a synthesised "N. References" parent, else ""


def _kids(el, *names: str) -> list:
    return [c for c in el if isinstance(c.tag, str) and (not names or _local(c.tag) in names)]


def _title(el) -> str:
    """A section's title: v2 ``title`` attribute, else v3 ``<name>`` text."""
    if el.get("title"):
        return _squash(el.get("title"))
    name = next(iter(_kids(el, "name")), None)
    return _squash(_plain_text(name)) if name is not None else ""


def _plain_text(el) -> str:
    out = [el.text or ""]
    for c in el:
        out.append(
            _entity(c)
            if _is_entity(c)
            else (_plain_text(c) if isinstance(c.tag, str) and _local(c.tag) not in _SKIP else "")
        )
        out.append(c.tail or "")
    return "".join(out)


def _is_entity(node) -> bool:
    from lxml import etree

    return node.tag is etree.Entity


def _entity(node) -> str:
    name = (node.text or "").strip("&;")
    if name in _ENTITIES:
        return _ENTITIES[name]
    if name.startswith("#"):
        try:
            return chr(int(name[2:], 16) if name[1:2] in "xX" else int(name[1:]))
        except ValueError:
            return ""
    cp = html.entities.name2codepoint.get(name)
    return chr(cp) if cp else ""


_ENTITY_REF = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);)([A-Za-z][A-Za-z0-9]{1,30});")


def _entity_char_ref(m: re.Match) -> bytes:
    """``&nbsp;`` → ``&#32;`` (a plain space: what a reader searches for), ``&nbhy;`` → ``-``,
    ``&wj;`` → nothing, an HTML entity → its character reference; an unknown name is kept."""
    name = m.group(1).decode("ascii")
    text = _ENTITIES.get(name)
    if text is None:
        cp = html.entities.name2codepoint.get(name)
        return f"&#{cp};".encode() if cp else m.group(0)
    return "".join(f"&#{ord(c)};" for c in text).encode()


def _number(root, symrefs: bool = True) -> _Numbering:
    """xml2rfc's section, appendix, references, figure and table numbers (see module docstring)."""
    n = _Numbering()

    def sections(parent, prefix: str, kind: str, numbered: bool) -> None:
        count = 0
        for s in _kids(parent, "section"):
            title = _title(s)
            if numbered and s.get("numbered", "true").lower() not in _UNNUMBERED:
                count += 1
                label = int_to_letters(count) if kind == "appendix" and not prefix else str(count)
                num = f"{prefix}.{label}" if prefix else label
                target = _Target(kind, num, title)
                sections(s, num, kind, True)
            else:
                target = _Target("unnumbered", "", title)
                sections(s, "", kind, False)
            n.by_element[s] = target
            if s.get("anchor"):
                n.by_anchor[s.get("anchor")] = target

    middle = next(iter(_kids(root, "middle")), None)
    top = 0
    if middle is not None:
        sections(middle, "", "section", True)
        top = sum(1 for s in _kids(middle, "section") if s.get("numbered", "true").lower() not in _UNNUMBERED)
    back = next(iter(_kids(root, "back")), None)
    if back is not None:
        refs = _kids(back, "references")
        if len(refs) > 1:
            n.synthetic_references = str(top + 1)
        for i, r in enumerate(refs, 1):
            num = f"{top + 1}.{i}" if len(refs) > 1 else str(top + 1)
            _number_references(r, num, n)
        sections(back, "", "appendix", True)
    _number_references_labels(root, n, symrefs)
    figures = tables = 0
    v3 = root.get("version") == "3" or next(root.iter("name", "ul", "ol", "dl", "sourcecode"), None) is not None
    for el in root.iter("figure", "texttable", "table"):
        name = _local(el.tag)
        if name == "figure" and (v3 or el.get("title") or el.get("anchor")):  # v2 numbers titled/anchored ones
            figures += 1
            target = _Target("figure", str(figures), el.get("title") or _title(el))
        elif name in ("texttable", "table"):
            tables += 1
            target = _Target("table", str(tables), el.get("title") or _title(el))
        else:
            continue
        n.by_element[el] = target
        if el.get("anchor"):
            n.by_anchor.setdefault(el.get("anchor"), target)
    return n


def _number_references(r, num: str, n: _Numbering) -> None:
    target = _Target("section", num, _title(r) or "References")
    n.by_element[r] = target
    if r.get("anchor"):
        n.by_anchor[r.get("anchor")] = target
    for i, inner in enumerate(_kids(r, "references"), 1):
        _number_references(inner, f"{num}.{i}", n)


def _number_references_labels(root, n: _Numbering, symrefs: bool) -> None:
    """Citation labels of every ``<reference>``/``<referencegroup>``: its anchor (symrefs, the
    default), a ``<displayreference to>``, or ``1``, ``2`` … in document order where symrefs is off."""
    numeric = root.get("symRefs", "true").lower() in _UNNUMBERED or not symrefs
    display = {d.get("target"): d.get("to") for d in root.iter("displayreference") if d.get("target")}
    count = 0
    for el in root.iter("reference", "referencegroup"):
        anchor = el.get("anchor")
        if not anchor or anchor in n.by_anchor:
            continue
        if _local(el.getparent().tag) == "referencegroup":
            continue
        count += 1
        label = display.get(anchor) or (str(count) if numeric else anchor)
        n.by_anchor[anchor] = _Target("reference", label=label, title=_reference_title(el))


def _reference_title(el) -> str:
    front = next(iter(_kids(el, "front")), None)
    title = next(iter(_kids(front, "title")), None) if front is not None else None
    return _squash(_plain_text(title)) if title is not None else ""


def _cite(t: _Target) -> str:
    """How xml2rfc prints a default xref to ``t``."""
    if t.kind == "reference":
        return f"[{t.label}]"
    if t.kind == "appendix":
        return f"Appendix {t.number}"
    if t.kind == "section":
        return f"Section {t.number}"
    if t.kind == "figure":
        return f"Figure {t.number}"
    if t.kind == "table":
        return f"Table {t.number}"
    return f'"{t.title}"' if t.title else ""


class _Writer:
    def __init__(self, root, numbering: _Numbering):
        self.root = root
        self.n = numbering
        self.blocks: list[str] = []
        self.anchors: dict[str, str] = {}
        self.definitions: list[MarkedDefinition] = []
        self.heading = ""  # text of the heading we are under
        self.containing: dict[str, _Target] = {}  # anchor of a paragraph/list item → its section

    # -- structure --------------------------------------------------------------------------
    def document(self) -> None:
        front = next(iter(_kids(self.root, "front")), None)
        if front is not None:
            for el in _kids(front, "abstract", "note"):
                title = "Abstract" if _local(el.tag) == "abstract" else (_title(el) or "Note")
                self._heading(1, title, el)
                self._blocks(_kids(el, *_BODY) if _local(el.tag) == "note" else list(_kids(el)), 0)
        middle = next(iter(_kids(self.root, "middle")), None)
        if middle is not None:
            self._index_containers(middle)
            for s in _kids(middle, "section"):
                self._section(s, 1)
        back = next(iter(_kids(self.root, "back")), None)
        if back is not None:
            self._index_containers(back)
            refs = _kids(back, "references")
            if self.n.synthetic_references:
                self._heading(1, f"{self.n.synthetic_references}.  References", None)
            for r in refs:
                self._references(r, 2 if self.n.synthetic_references else 1)
            for s in _kids(back, "section"):
                if s.get("anchor") != "authors-addresses":  # added by xml2rfc's prep step: boilerplate
                    self._section(s, 1)

    def _index_containers(self, part) -> None:
        """Anchors inside a section (``<t anchor>``, ``<li anchor>``, artwork) → that section."""
        for s in part.iter("section"):
            t = self.n.by_element.get(s)
            if t is None:
                continue
            for el in s.iter():
                if (
                    el is not s
                    and isinstance(el.tag, str)
                    and el.get("anchor")
                    and el.get("anchor") not in self.n.by_anchor
                ):
                    self.containing[el.get("anchor")] = t

    def _heading(self, level: int, text: str, el) -> None:
        self.blocks.append("#" * min(level, 6) + " " + text)
        self.heading = text
        if el is not None and el.get("anchor"):
            self.anchors.setdefault(el.get("anchor"), text)

    def _section(self, s, level: int) -> None:
        t = self.n.by_element.get(s) or _Target("unnumbered", "", _title(s))
        if t.kind == "appendix" and "." not in t.number:
            text = f"Appendix {t.number}.  {t.title}"
        elif t.number:  # two spaces, as xml2rfc prints: "D.3.  0-RTT …" keeps its title's digit
            text = f"{t.number}.  {t.title}"
        else:
            text = t.title or "Untitled"
        self._heading(level, text, s)
        self._blocks([c for c in _kids(s) if _local(c.tag) not in ("name", "section")], 0)
        for sub in _kids(s, "section"):
            self._section(sub, level + 1)

    def _references(self, r, level: int) -> None:
        t = self.n.by_element[r]
        self._heading(level, f"{t.number}.  {t.title}", r)
        for el in _kids(r):
            name = _local(el.tag)
            if name == "references":
                self._references(el, level + 1)
            elif name in ("reference", "referencegroup"):
                self.blocks.append(self._reference(el))

    def _reference(self, el) -> str:
        t = self.n.by_anchor.get(el.get("anchor") or "")
        label = f"[{t.label}]" if t is not None else ""
        if _local(el.tag) == "referencegroup":
            parts = [self._reference_body(x) for x in _kids(el, "reference")]
            return _squash(f"{label} " + " ".join(p for p in parts if p))
        return _squash(f"{label} {self._reference_body(el)}")

    def _reference_body(self, el) -> str:
        front = next(iter(_kids(el, "front")), None)
        words: list[str] = []
        if front is not None:
            authors = [_author(a) for a in _kids(front, "author")]
            authors = [a for a in authors if a]
            if authors:
                words.append(authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " and " + authors[-1])
            title = next(iter(_kids(front, "title")), None)
            if title is not None:
                words.append(f'"{_squash(_plain_text(title))}"')
        for si in list(_kids(el, "seriesInfo")) + (list(_kids(front, "seriesInfo")) if front is not None else []):
            if si.get("name") and si.get("value"):
                words.append(f"{si.get('name')} {si.get('value')}")
        for rc in _kids(el, "refcontent"):
            words.append(_squash(_plain_text(rc)))
        date = next(iter(_kids(front, "date")), None) if front is not None else None
        if date is not None and (date.get("year") or date.get("month")):
            words.append(" ".join(x for x in (date.get("month"), date.get("year")) if x))
        if el.get("target"):
            words.append(f"<{el.get('target')}>")
        return ", ".join(w for w in words if w) + "." if words else ""

    # -- blocks -----------------------------------------------------------------------------
    def _blocks(self, elements: list, indent: int) -> None:
        for el in elements:
            self._block(el, indent)

    def _block(self, el, indent: int) -> None:
        name = _local(el.tag)
        pad = " " * indent
        if name in _SKIP or name in ("name", "front"):
            return
        if name == "t":
            self._paragraph(el, indent)
        elif name in ("list", "ul", "ol", "dl"):
            self._list(el, indent)
        elif name == "figure":
            self._figure(el, indent)
        elif name in _PRE:
            self._pre(el, indent)
        elif name == "artset":
            art = next((a for a in _kids(el, "artwork") if a.get("type", "ascii-art") in ("ascii-art", "")), None)
            if art is not None:
                self._pre(art, indent)
        elif name in ("texttable", "table"):
            self._table(el, indent)
        elif name in ("aside", "blockquote"):
            start = len(self.blocks)
            self._blocks(_kids(el), indent) if _kids(el, *_BODY) else self._text_block(el, indent)
            self.blocks[start:] = [
                "\n".join(pad + "> " + line[indent:] for line in b.split("\n")) for b in self.blocks[start:]
            ]
        elif name in ("preamble", "postamble"):
            self._text_block(el, indent)
        elif _kids(el, *_BODY):
            self._blocks(_kids(el), indent)
        else:
            self._text_block(el, indent)

    def _text_block(self, el, indent: int, lead: str = "") -> None:
        text = _squash(self.inline(el))
        if text or lead:
            self.blocks.append(" " * indent + (lead + text).rstrip())

    def _paragraph(self, el, indent: int, lead: str = "") -> None:
        """A ``<t>``: its text, with the blocks v2 nests inside it (``<list>``, ``<figure>``) after
        the text before them."""
        pieces = [el.text or ""]
        for c in el:
            if isinstance(c.tag, str) and _local(c.tag) in ("list", "figure", "artwork", "texttable", "ul", "ol", "dl"):
                self._flush(pieces, indent, lead)
                lead = ""
                self._block(c, indent)
                pieces = [c.tail or ""]
            else:
                pieces.append(self._inline_child(c))
                pieces.append(c.tail or "")
        self._flush(pieces, indent, lead)

    def _flush(self, pieces: list[str], indent: int, lead: str) -> None:
        text = _squash("".join(pieces))
        if text or lead.strip():
            self.blocks.append(" " * indent + (lead + text).rstrip())

    def _list(self, el, indent: int) -> None:
        name = _local(el.tag)
        style = (
            el.get("style", "symbols") if name == "list" else {"ul": "symbols", "ol": "numbers", "dl": "hanging"}[name]
        )
        if name == "ol":
            style = {"a": "letters", "A": "upper", "i": "roman", "I": "upper-roman"}.get(el.get("type", "1"), "numbers")
            fmt = el.get("type", "")
            if "%" in fmt:
                style = "format " + fmt
        try:
            count = int(el.get("start", "1")) - 1
        except ValueError:
            count = 0
        in_defs = bool(_DEFS_HEADING.search(self.heading))
        items = _kids(el)
        i = 0
        while i < len(items):
            item = items[i]
            iname = _local(item.tag)
            pad = " " * indent
            if iname == "dt":  # v3: <dt> term, then its <dd>
                term = _squash(self.inline(item))
                dd = items[i + 1] if i + 1 < len(items) and _local(items[i + 1].tag) == "dd" else None
                i += 2 if dd is not None else 1
                self._entry(term, dd, indent, in_defs)
                continue
            i += 1
            if iname not in ("t", "li"):
                continue
            count += 1
            if style == "hanging" or item.get("hangText") is not None:
                self._entry(_squash(item.get("hangText") or ""), item, indent, in_defs)
                continue
            label = _list_label(style, count)
            lead = f"{pad}- " + (f"{label} " if label else "")
            if style == "numbers":
                lead = f"{pad}{count}. "
            if iname == "li" and _kids(item, *_BODY):
                start = len(self.blocks)
                self._blocks(_kids(item), indent + 2)
                if len(self.blocks) > start:
                    self.blocks[start] = lead + self.blocks[start].lstrip()
            else:
                self._paragraph(item, 0, lead)

    def _entry(self, term: str, body, indent: int, in_defs: bool) -> None:
        """One definition entry: ``- **term:** first paragraph``, further blocks indented under it;
        under a definitions heading also a :class:`MarkedDefinition`."""
        pad = " " * indent
        lead = f"{pad}- **{term}**" + (" " if term else "")
        start = len(self.blocks)
        if body is None:
            self.blocks.append(lead.rstrip())
        elif _kids(body) and all(_local(c.tag) == "t" and not _kids(c, *_BODY) for c in _kids(body)):
            # paragraphs only: one entry line, so the whole definition stays with its term
            self.blocks.append(lead + _squash(" ".join(self.inline(c) for c in _kids(body))))
        elif _kids(body, *_BODY) and not (body.text or "").strip():
            self._blocks(_kids(body), indent + 2)
            if len(self.blocks) > start:
                self.blocks[start] = lead + self.blocks[start].lstrip()
            else:
                self.blocks.append(lead.rstrip())
        else:
            self._paragraph(body, 0, lead) if _local(body.tag) == "t" else self._text_block(body, 0, lead)
        clean = term.strip().rstrip(":").strip()
        if in_defs and clean and 0 < len(clean.split()) <= 8 and body is not None:
            text = _squash(" ".join(b.strip() for b in self.blocks[start:]))
            text = text[len(lead.strip()) :].strip() if text.startswith(lead.strip()) else text
            if text:
                self.definitions.append(MarkedDefinition(clean, text[:1500], self.heading))

    def _figure(self, el, indent: int) -> None:
        for c in _kids(el):
            name = _local(c.tag)
            if name in ("preamble", "postamble"):
                self._text_block(c, indent)
            elif name in _PRE:
                self._pre(c, indent)
            elif name == "artset":
                self._block(c, indent)
        t = self.n.by_element.get(el)
        title = el.get("title") or _title(el)
        if t is not None and title:
            self.blocks.append(" " * indent + f"*Figure {t.number}: {title}*")

    def _pre(self, el, indent: int) -> None:
        if el.get("type") == "svg" or el.get("src") and not (el.text or "").strip():
            return
        text = "".join(el.itertext()).strip("\n")
        if not text.strip():
            return
        import textwrap

        text = textwrap.dedent(text)
        fence = "~~~~" if "```" in text else "```"
        pad = " " * indent
        self.blocks.append(
            "\n".join([pad + fence] + [pad + line if line else "" for line in text.split("\n")] + [pad + fence])
        )

    def _table(self, el, indent: int) -> None:
        rows: list[list[str]] = []
        if _local(el.tag) == "texttable":
            cols = _kids(el, "ttcol")
            cells = _kids(el, "c")
            width = max(len(cols), 1)
            rows.append([_squash(self.inline(c)) for c in cols])
            for i in range(0, len(cells), width):
                rows.append([_squash(self.inline(c)) for c in cells[i : i + width]])
            for c in _kids(el, "preamble"):
                self._text_block(c, indent)
        else:
            for tr in el.iter("tr"):
                rows.append([_squash(self.inline(c)) for c in _kids(tr, "td", "th")])
        rows = [r for r in rows if r]
        t = self.n.by_element.get(el)
        title = el.get("title") or _title(el)
        if rows:
            width = max(len(r) for r in rows)
            rows = [[c.replace("|", "\\|") for c in r] + [""] * (width - len(r)) for r in rows]
            lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
            lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
            self.blocks.append("\n".join(" " * indent + line for line in lines))
        if t is not None and title:
            self.blocks.append(" " * indent + f"*Table {t.number}: {title}*")
        for c in _kids(el, "postamble"):
            self._text_block(c, indent)

    # -- text -------------------------------------------------------------------------------
    def inline(self, el) -> str:
        out = [el.text or ""]
        for c in el:
            out.append(self._inline_child(c))
            out.append(c.tail or "")
        return "".join(out)

    def _inline_child(self, c) -> str:
        if _is_entity(c):
            return _entity(c)
        if not isinstance(c.tag, str):
            return ""
        name = _local(c.tag)
        if name in _SKIP:
            return ""
        if name == "xref":
            return self._xref(c)
        if name == "eref":
            text = _squash(self.inline(c))
            return text or f"<{c.get('target', '')}>"
        if name in ("vspace", "br"):
            return " "
        return self.inline(c)

    def _xref(self, x) -> str:
        target = x.get("target", "")
        text = _squash(self.inline(x))
        fmt = x.get("format", "default")
        t = self.n.by_anchor.get(target) or self.containing.get(target)
        if t is None:
            cite = f"[{target}]" if target else ""
        elif x.get("section"):  # v3: a section of another document
            where = x.get("section")
            words = ("Appendix " if _APPENDIX_NUMBER.match(where) else "Section ") + where
            ref = _cite(t)
            cite = {"comma": f"{ref}, {words}", "parens": f"{ref} ({words})", "bare": where}.get(
                x.get("sectionFormat", "of"), f"{words} of {ref}"
            )
            return f"{text} ({cite})" if text and x.get("sectionFormat") != "bare" else (text or cite)
        elif fmt == "none":
            return text
        elif fmt == "counter":
            cite = t.label if t.kind == "reference" else t.number or t.title
        elif fmt == "title":
            cite = f'"{t.title}"' if t.title else _cite(t)
        else:
            cite = _cite(t)
        if not text:
            return cite
        if cite and cite not in text and not (t is not None and t.number and t.number in text):
            return f"{text} ({cite})" if t is not None and t.kind != "reference" else f"{text} {cite}"
        return text


_BODY = (
    "t",
    "list",
    "ul",
    "ol",
    "dl",
    "figure",
    "artwork",
    "sourcecode",
    "texttable",
    "table",
    "aside",
    "blockquote",
    "artset",
)


def _list_label(style: str, i: int) -> str:
    if style == "letters":
        return f"{int_to_letters(i).lower()}."
    if style == "upper":
        return f"{int_to_letters(i)}."
    if style in ("roman", "upper-roman"):
        r = _roman(i)
        return (r if style == "upper-roman" else r.lower()) + "."
    if style.startswith("format "):
        fmt = style[len("format ") :]
        return (
            fmt.replace("%d", str(i))
            .replace("%c", int_to_letters(i).lower())
            .replace("%C", int_to_letters(i))
            .replace("%i", _roman(i).lower())
            .replace("%I", _roman(i))
        )
    return ""


def _roman(i: int) -> str:
    return int_to_roman(i) if 0 < i < 4000 else ""


def _author(a) -> str:
    """``Rescorla, E.`` (xml2rfc prints the first author surname first, the others ``E. Rescorla``;
    here every author as ``Surname, I.``), else the organisation."""
    surname, initials = a.get("surname"), a.get("initials")
    if surname:
        return f"{surname}, {initials}" if initials else surname
    if a.get("fullname"):
        return a.get("fullname")
    org = next(iter(_kids(a, "organization")), None)
    return _squash(_plain_text(org)) if org is not None else ""


def convert_xml2rfc(root, data: bytes, doc_key: str) -> ConvertedDocument:
    """A parsed xml2rfc root → :class:`ConvertedDocument` (see the module docstring);
    ``data`` is the file's bytes: the ``<?rfc symrefs="no"?>`` processing instruction the parser
    drops is read from it, and a file using the DTD's character entities (``&nbsp;``) is parsed
    again with them replaced, since the parser keeps none of them in attribute values. Headings are
    ``markup`` blocks stating the number xml2rfc computes (so they nest by their stated level);
    lists are ``markup`` list items without numbers of their own (body text, never sections)."""
    if _ENTITY_REF.search(data):  # the DTD is never loaded: its entities, in text and attributes alike
        from .legislation_xml import parse_xml

        root = parse_xml(_ENTITY_REF.sub(_entity_char_ref, data), doc_key)
    symrefs = not re.search(rb"<\?rfc\s[^>]*symrefs\s*=\s*[\"']no[\"']", data[:20000])
    numbering = _number(root, symrefs)
    writer = _Writer(root, numbering)
    writer.document()
    front = next(iter(_kids(root, "front")), None)
    title_el = next(iter(_kids(front, "title")), None) if front is not None else None
    title = _squash(_plain_text(title_el)) if title_el is not None else None
    if root.get("number") and title:
        title = f"RFC {root.get('number')}: {title}"
    markdown = "\n\n".join(b for b in writer.blocks if b.strip()) + "\n"
    warnings = []
    includes = sum(1 for e in root.iter() if isinstance(e.tag, str) and _local(e.tag) == "include")
    if includes:
        warnings.append(f"{includes} xi:include element(s) not read (references kept on bib.ietf.org are not fetched)")
    converted = ConvertedDocument.from_markdown(
        markdown,
        provenance="markup",
        list_numbers=False,
        title=title,
        warnings=warnings,
        anchors=writer.anchors,
        marked_definitions=writer.definitions,
    )
    converted.blocks = [
        replace(b, number=m.group(1)) if b.kind == "heading" and (m := _HEADING_NUMBER.match(b.title or "")) else b
        for b in converted.blocks
    ]
    return converted


# the number _Writer prints before a section's title ("4.2.1.  Title", "Appendix A.  Title", "A.1.  Title")
_HEADING_NUMBER = re.compile(rf"^(Appendix [A-Z]{{1,2}}|[A-Z]{{1,2}}(?:\.\d{{1,3}})+|{CLAUSE_NUMBER})\.\s")
