"""XML of any other schema → Markdown: element text, with a notice (``convert`` stage, ``.xml``).

Legislation XML (USLM, Akoma Ntoso, UK CLML, Justice Canada, US Congress bill DTD) and xml2rfc sources (root ``<rfc>``) have their own
converters (``legislation_xml``, ``xml2rfc``). Any other XML — DocBook, JATS, TEI, DITA,
configuration and data files — is read as
text rather than refused, since a user who points docstrata at a folder expects every ``.xml``
in it to be searchable, and one file the tool cannot structure must not fail the ingest. What is
read, schema-free:

* an element whose first child element is a title (local name ``title``, ``name``, ``head``,
  ``heading``) or that carries a ``title`` attribute (xml2rfc v2 ``<section title=…>``), and that
  holds prose (an element inside it with a sentence of its own text), is a titled container: its
  title becomes an ATX heading whose level is its nesting depth among titled containers (capped
  at 6) — DocBook ``<section><title>``, JATS ``<sec><title>``, TEI ``<div><head>``, xml2rfc
  ``<section><name>``; a titled element without prose (a figure of artwork) has its title in bold;
* an element with text of its own (mixed content: ``<para>``, ``<p>``, ``<t>``) is one paragraph,
  its whole text inline (an empty reference element ``<xref target="x"/>`` as ``[x]``); preformatted elements (``xml:space="preserve"``, ``artwork``,
  ``sourcecode``, ``programlisting``, ``pre``, ``screen``, ``literallayout``) are fenced code;
* an element without text of its own whose children are short leaves of more than one name (a
  record: ``<dependency>`` with ``<groupId>``, ``<version>``) is one paragraph of ``name: value`` lines; a leaf without
  text but with attributes (``<setting name="x" value="y"/>``) is its name and attributes.

Nothing in the tags is taken as meaning (no numbering, definitions or references are guessed from
element names); the converter's warning says the file was read as generic XML, naming its root.
"""

from __future__ import annotations

from .document import ConvertedDocument
from .legislation_xml import _local, _namespace, _squash

_TITLE_NAMES = frozenset({"title", "name", "head", "heading"})
_PRE_NAMES = frozenset(
    {"artwork", "sourcecode", "programlisting", "pre", "screen", "literallayout", "code", "codeblock", "verbatim"}
)
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def _elements(el) -> list:
    return [c for c in el if isinstance(c.tag, str)]


def _own_text(el) -> bool:
    """``el`` has text of its own (mixed content), not only whitespace between child elements."""
    if el.text and el.text.strip():
        return True
    return any(c.tail and c.tail.strip() for c in el)


def _title_of(el) -> tuple[str, object | None]:
    """``(title text, title element or None)`` of a titled element, else ``("", None)``."""
    kids = _elements(el)
    attr = el.get("title")
    if attr and attr.strip() and kids:
        return _squash(attr), None
    if len(kids) >= 2 and _local(kids[0].tag).lower() in _TITLE_NAMES:
        text = _squash("".join(kids[0].itertext()))
        if text and len(text) <= 300:
            return text, kids[0]
    return "", None


def _holds_prose(el, title_el) -> bool:
    """Some element inside ``el`` (not its title, not preformatted) has a sentence of text of its
    own: a section, not a figure of artwork or a table of short cells with a caption."""
    for e in el.iter():
        if e is el or e is title_el or not isinstance(e.tag, str) or _is_pre(e):
            continue
        if any(a is title_el or (isinstance(a.tag, str) and _is_pre(a)) for a in e.iterancestors()):
            continue
        if _own_text(e) and len(_squash("".join(e.itertext()))) >= 40:
            return True
    return False


def _is_pre(el) -> bool:
    return _local(el.tag).lower() in _PRE_NAMES or el.get(_XML_SPACE) == "preserve"


def _inline(el) -> str:
    """The text of ``el`` with an empty cross-reference element (``<xref target="sec-4"/>``) shown
    as its target in brackets, so "as described in <xref/>" keeps what it points at."""
    out = [el.text or ""]
    for c in el:
        if isinstance(c.tag, str):
            inner = _inline(c)
            if not inner.strip():
                target = next((c.get(a) for a in ("target", "href", "ref", "linkend", "rid") if c.get(a)), None)
                inner = f"[{target.lstrip('#')}]" if target else ""
            out.append(inner)
        out.append(c.tail or "")
    return "".join(out)


class _GenericWriter:
    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.headings = 0

    def walk(self, el, depth: int) -> None:
        name = _local(el.tag)
        if not name:
            return
        title, title_el = _title_of(el)
        kids = _elements(el)
        if title:
            container = _holds_prose(el, title_el)
            self.blocks.append("#" * min(depth + 1, 6) + " " + title if container else f"**{title}**")
            self.headings += container
            for child in kids:
                if child is not title_el:
                    self.walk(child, depth + 1 if container else depth)
            return
        if _is_pre(el):
            text = "".join(el.itertext()).strip("\n")
            if text.strip():
                fence = "~~~~" if "```" in text else "```"
                self.blocks.append(f"{fence}\n{text}\n{fence}")
            return
        if _own_text(el) or not kids:
            text = _squash(_inline(el))
            if text:
                self.blocks.append(text)
            elif el.attrib:
                self.blocks.append(_with_attributes(el))
            return
        values = [_squash("".join(c.itertext())) for c in kids]
        if (
            len(kids) >= 2
            and all(not _elements(c) for c in kids)
            and len({_local(c.tag) for c in kids}) > 1
            and max(len(v) for v in values) <= 200
        ):  # a record of short leaf fields
            lines = [
                f"{_local(c.tag)}: {v}" if v else _with_attributes(c) for c, v in zip(kids, values) if v or c.attrib
            ]
            if lines:
                self.blocks.append("  \n".join(lines))
            return
        for child in kids:
            self.walk(child, depth)


def _with_attributes(el) -> str:
    attrs = " ".join(f'{_local(k)}="{_squash(v)}"' for k, v in el.attrib.items() if _squash(v))
    return f"{_local(el.tag)} {attrs}".strip()


def _first_title(root) -> str | None:
    """The document title: the first ``title`` element's text (DocBook ``<info><title>``, xml2rfc
    ``<front><title>``, JATS ``<article-title>``), else ``None``."""
    for e in root.iter():
        if isinstance(e.tag, str) and _local(e.tag).lower() in ("title", "article-title"):
            text = _squash("".join(e.itertext()))
            if text:
                return text[:300]
    return None


def convert_xml(data: bytes, ext: str, doc_key: str) -> ConvertedDocument:
    """``.xml`` bytes → :class:`ConvertedDocument`: a document family with a profile of its own
    (gesetze-im-internet ``<dokumente>``: :mod:`docstrata.profiles`), legislation XML (USLM, Akoma Ntoso,
    CLML, by root namespace or name) through :func:`~.legislation_xml.convert_legislation_xml`,
    xml2rfc sources (root ``<rfc>``) through :func:`~.xml2rfc.convert_xml2rfc`, any other XML
    through :func:`convert_generic_xml`. Raises
    :class:`~docstrata.errors.ConversionError` for malformed XML only."""
    from .legislation_xml import convert_legislation_xml, detect_dialect, parse_xml

    from .xml2rfc import convert_xml2rfc, is_xml2rfc

    from ..profiles import converter_for_xml

    root = parse_xml(data, doc_key)
    family = converter_for_xml(root)
    if family is not None:
        return family(root, doc_key)
    if detect_dialect(root) is not None:
        return convert_legislation_xml(data, ext, doc_key)
    if is_xml2rfc(root):
        return convert_xml2rfc(root, data, doc_key)
    return convert_generic_xml(root, doc_key)


def convert_generic_xml(root, doc_key: str) -> ConvertedDocument:
    """A parsed XML root of no legislation schema → :class:`ConvertedDocument` (see the module
    docstring). The warning names the root element and namespace and says how the file was read."""
    writer = _GenericWriter()
    writer.walk(root, 0)
    markdown = "\n\n".join(b for b in writer.blocks if b.strip()) + "\n"
    ns = _namespace(root.tag)
    where = f"root <{_local(root.tag)}>" + (f", namespace {ns}" if ns else "")
    shape = f"{writer.headings} titled elements as headings" if writer.headings else "no titled elements"
    warnings = [
        f"not a legislation XML schema ({where}): read as generic XML — element text as paragraphs, "
        f"{shape}; no numbering, definitions or references are read from its tags"
    ]
    return ConvertedDocument.from_markdown(markdown, provenance="markup", title=_first_title(root), warnings=warnings)
