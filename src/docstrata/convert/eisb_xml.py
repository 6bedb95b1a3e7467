"""Irish Statute Book XML (eISB, namespace-free ``<act>``) → :class:`~.document.ConvertedDocument`.

The source states its containers and sections: ``<part>`` / ``<chapter>`` / ``<schedule>`` (their
label the first line of their ``<title>``: ``PART 1`` / ``Preliminary and General``) and ``<sect>``
(``<number>1.</number>``, ``<title>``). They become ``markup`` heading blocks at their nesting depth
with their number (``PART 1`` → id ``part-1``, ``SCHEDULE 2`` → ``schedule-2``, section ``1`` →
``1``), so the structure stage takes them as stated. Everything below a section is flat ``<p>``
paragraphs whose numbering is printed in the text (``(1)``, ``(a)``, ``(i)``): they stay paragraphs
opening with that number, which the parser nests (ids ``1(5)``, ``4(b)(ii)``). A section's first
paragraph repeats the section's number (``<b>1.</b> (1) This Act …``, ``15.—(1) …``); the heading
states it, so the paragraph opens at ``(1)`` — read with the number, ``1.`` would be a provision
``1.1`` inside section 1.

Quoted text: an amending section quotes what it inserts or substitutes over several paragraphs
(``<odq/>67F.</b> (1) Subject to …`` … ``Reimbursement List … Act of 2013.<cdq/>.``). As the other
legislation families do with quoted structure (``legislation_xml``: a bill's ``<quoted-block>``,
CLML ``<BlockAmendment>``), those paragraphs are the quoting section's text, stated as paragraphs
(no section starts in them; one opening with a number is written ``> (2) …``), so the inserted
section 67F's subsections never become subsections of section 4. A paragraph is quoted when a
double quotation is open at its start, or when it opens with one that is still open at its end;
a quotation never runs on past its section.

Characters: eISB writes typographic characters as empty elements (``<euro/>``, ``<odq/>``,
``<emdash/>``, ``<afada/>``, ``<unicode ch="00E8"/>``); they are written as the characters they
stand for (the profile's ``characters``), so "€35" and “quoted terms” (which definition extraction
reads) keep their characters. An empty element the profile does not know is named in a warning.
The table of contents (``<acttoc>``) is dropped; the rest of the front matter (number, long title,
date, enacting words, Acts referred to) is text before the first heading. The title is
``<metadata><title>``. Family facts come from :data:`docstrata.profiles.eisb.PROFILE`.
"""

from __future__ import annotations

import re

from .document import BlockWriter, ConvertedDocument

_CONTAINERS = frozenset({"part", "chapter", "schedule", "division", "subpart"})
_SKIP = frozenset({"acttoc", "graphic", "hr1", "hr2", "colgroup", "col", "metadata"})
_MARKER_START = re.compile(r"^[\"“‘]?\(?[0-9A-Za-z]{1,6}[).]")
_ORDINAL_LABEL = re.compile(r"^([A-Za-z]+)\s+(PART|Part|CHAPTER|Chapter|SCHEDULE|Schedule)$")
_LABEL = re.compile(
    r"^(PART|Part|CHAPTER|Chapter|SCHEDULE|Schedule|DIVISION|Division)\b(?:\s+[0-9A-Z]{1,6}[A-Za-z]?)?$"
)


# a paragraph that defines a term and goes on in limbs: "“company” means—", "“relevant period” means:"
_DEFINITION_WITH_LIMBS = re.compile(r"^“[^”]{1,120}”.*[—–:]$")


def _margin(el) -> int | None:
    """A paragraph's left margin as eISB's typesetting ``class`` states it (``class="-3 14 0 left 1 0"``:
    hanging indent, left margin, …), or ``None``."""
    parts = (el.get("class") or "").split()
    return int(parts[1]) if len(parts) > 1 and re.fullmatch(r"-?\d+", parts[1]) else None


def _local(el) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


def _squash(text: str) -> str:
    return " ".join(text.split())


class _Writer:
    def __init__(self, profile) -> None:
        self.chars: dict[str, str] = dict(profile.characters)
        self.ordinals: dict[str, int] = dict(profile.ordinals)
        self.out = BlockWriter()
        self.unknown: set[str] = set()
        self.anchors: dict[str, str] = {}
        self.definition: list[str] = []  # a definition whose limbs follow ("“company” means—"), and its limbs
        self.definition_margin = 0  # its left margin (eISB's ``class``): its limbs are indented further

    # -- text -------------------------------------------------------------------------------
    def text(self, el) -> str:
        """The words of ``el``: character elements as their characters, other markup (``<b>``,
        ``<i>``, ``<font>``, ``<xref>``) as its text, a graphic or rule as nothing."""
        out = [el.text or ""]
        for c in el:
            name = _local(c)
            if not name:
                pass
            elif name in self.chars:
                out.append(self.chars[name])
            elif name == "unicode" and (code := c.get("ch", "")):
                try:
                    out.append(chr(int(code, 16)))
                except ValueError:
                    self.unknown.add(f"unicode ch={code}")
            elif name in _SKIP:
                pass
            elif len(c) == 0 and not (c.text or "").strip():
                self.unknown.add(name)  # an empty element standing for something we cannot print
            else:
                inner = self.text(c)
                out.append(f" {inner} " if name == "p" else inner)  # <title><p>PART 1</p><p>…</p>
            out.append(c.tail or "")
        return "".join(out)

    # -- structure --------------------------------------------------------------------------
    def front(self, el) -> None:
        """Front matter: its paragraphs as text (no section starts), the contents list dropped."""
        for c in el:
            name = _local(c)
            if not name or name in _SKIP:
                continue
            if name == "p":
                self._note(_squash(self.text(c)))
            elif name == "table":
                self.table(c)
            else:  # <actnumber>, <actsreferredto> (its <title> and list), a cover page
                lines = [_squash(self.text(p)) for p in c.iter() if _local(p) == "p"]
                self._note("\n".join(x for x in lines if x) or _squash(self.text(c)))

    def walk(self, el, depth: int) -> None:
        """``el``'s children: containers and sections as headings, the rest as text."""
        quotes = 0  # double quotations open (they never run on past a section)
        for c in el:
            name = _local(c)
            if not name or name in _SKIP or name == "title":
                continue
            if name in _CONTAINERS:
                self.container(c, depth + 1)
            elif name == "sect":
                self.section(c, depth + 1)
            else:
                quotes = self.block(c, quotes)

    def container(self, el, depth: int) -> None:
        """A part, chapter or schedule: its ``<title>`` lines, the first its label when it reads as
        one (``PART 1``, ``SCHEDULE``), then its content one level down."""
        title_el = next((c for c in el if _local(c) == "title"), None)
        lines = [_squash(self.text(p)) for p in title_el if _local(p) in ("p", "pc")] if title_el is not None else []
        lines = [x for x in lines if x] or ([_squash(self.text(title_el))] if title_el is not None else [])
        number, label = None, None
        if lines and _LABEL.match(lines[0]):
            number = label = lines[0]
        elif lines and (m := _ORDINAL_LABEL.match(lines[0])) and (n := self.ordinals.get(m.group(1).lower())):
            number, label = f"{m.group(2).capitalize()} {n}", lines[0]  # "FIRST SCHEDULE": Schedule 1
        words = " ".join(lines[1:] if label else lines)
        if number is None and _local(el) == "schedule":
            number = label = "SCHEDULE"  # an Act's only schedule, titled without its label
        written = " ".join(x for x in (label, words) if x) or _local(el).capitalize()
        self._flush_definition()
        self.out.heading(depth, words, number, written=written, anchor=el.get("id"))
        if el.get("id"):
            self.anchors[el.get("id")] = written
        self.walk(el, depth)

    def section(self, el, depth: int) -> None:
        """A ``<sect>``: heading ``1. Short title …`` numbered ``1``, then its paragraphs, the first
        without the number it repeats."""
        number_el = next((c for c in el if _local(c) == "number"), None)
        number = _squash(self.text(number_el)).rstrip(".").strip() if number_el is not None else ""
        title_el = next((c for c in el if _local(c) == "title"), None)
        title = _squash(self.text(title_el)) if title_el is not None else ""
        written = " ".join(x for x in (f"{number}." if number else "", title) if x) or "Section"
        self._flush_definition()
        self.out.heading(depth, title, number or None, written=written, anchor=el.get("id"))
        if el.get("id"):
            self.anchors[el.get("id")] = written
        quotes = 0
        first = True
        for c in el:
            name = _local(c)
            if not name or name in _SKIP or name in ("number", "title"):
                continue
            if name in _CONTAINERS or name == "sect":  # a nested unit (never seen in enacted Acts): a heading
                self.walk_one(c, depth)
                continue
            quotes = self.block(c, quotes, strip_number=number if first and name == "p" else None)
            first = first and name != "p"
        self._flush_definition()

    def walk_one(self, el, depth: int) -> None:
        if _local(el) == "sect":
            self.section(el, depth + 1)
        else:
            self.container(el, depth + 1)

    def block(self, el, quotes: int, strip_number: str | None = None) -> int:
        """One paragraph, table or other block inside a container or section; returns the number of
        double quotations open after it (see module docstring)."""
        name = _local(el)
        if name == "table":
            self.table(el)
            return quotes
        if name not in ("p", "pc"):
            if name == "div" and "annotation" in (el.get("class") or ""):
                for p in (x for x in el.iter() if _local(x) == "p"):
                    self._note(_squash(self.text(p)))  # a revised Act's annotations: notes, never provisions
                return quotes
            kids = [c for c in el if _local(c)]
            if kids and any(_local(c) in ("p", "table", "div") for c in kids):
                for c in kids:
                    quotes = self.block(c, quotes)
                return quotes
            name = "p"
        text = _squash(self.text(el))
        if strip_number:  # "1. (1) This Act …", "15.—(1) Income tax …": the heading states the number
            text = re.sub(rf"^{re.escape(strip_number)}\.?\s*[—–-]?\s*", "", text, count=1) or text
        if not text:
            return quotes
        after = max(0, quotes + text.count("“") - text.count("”"))
        quoted = quotes > 0 or (text.startswith("“") and after > 0)
        margin = _margin(el)
        if self.definition:
            if not quoted and margin is not None and margin > self.definition_margin:
                self.definition.append(text)  # a limb of the definition above it: "(a) a company formed …"
                return after
            self._flush_definition()
        if quoted:
            self._note("> " + text if _MARKER_START.match(text) else text)
        elif margin is not None and _DEFINITION_WITH_LIMBS.match(text):
            self.definition, self.definition_margin = [text], margin
        else:
            self.out.add(text, "paragraph", provenance="plain_text")
        return after

    def _flush_definition(self) -> None:
        """The definition held open for its limbs, written as one paragraph, limbs inline (``“company”
        means— (a) a company formed …, or (b) an existing company …;``): the definitions after it stay
        text of their provision, never items ``(a)``, ``(b)`` repeated under it."""
        if self.definition:
            self.out.add(" ".join(self.definition), "paragraph", provenance="plain_text")
        self.definition = []

    def table(self, el) -> None:
        """An HTML-like ``<table>`` (``<tr>``/``<td>`` holding ``<p>``s) as a Markdown table."""
        self._flush_definition()
        rows = []
        for tr in (x for x in el.iter() if _local(x) == "tr"):
            cells = [_squash(self.text(td)).replace("|", "\\|") for td in tr if _local(td) in ("td", "th")]
            if cells:
                rows.append(cells)
        if not rows:
            return
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
        self.out.add("\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows[1:]]), "table", provenance="markup")

    def _note(self, text: str) -> None:
        self._flush_definition()
        if text.strip():
            self.out.add(text, "paragraph", provenance="markup")


def convert_eisb_xml(root, doc_key: str, profile) -> ConvertedDocument:
    """A parsed eISB ``<act>`` root → :class:`ConvertedDocument` (see module docstring).
    ``profile`` is :data:`docstrata.profiles.eisb.PROFILE`. Never raises for odd markup: an element
    it does not know is read as text."""
    w = _Writer(profile)
    meta = next((c for c in root if _local(c) == "metadata"), None)
    title_el = next((c for c in meta if _local(c) == "title"), None) if meta is not None else None
    title = _squash(w.text(title_el)) if title_el is not None else None
    for part in root:
        name = _local(part)
        if name == "frontmatter":
            w.front(part)
        elif name in ("body", "backmatter"):
            w.walk(part, 0)
    w._flush_definition()
    warnings = []
    if w.unknown:
        warnings.append(
            "eISB XML: empty elements with no known character left out: "
            + ", ".join(f"<{n}/>" for n in sorted(w.unknown))
        )
    if not w.out.blocks:
        warnings.append("eISB XML without any text")
    return w.out.document(title=title or None, warnings=warnings, anchors=w.anchors, profile=profile.name)
