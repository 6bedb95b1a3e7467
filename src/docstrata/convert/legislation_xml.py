"""Legislation XML → Markdown: USLM (US Code, CFR, statute compilations), Akoma Ntoso (incl.
LegalDocML.de), UK CLML, Justice Canada (federal Acts and regulations, reshaped first by
:mod:`.legislation_ca`) and US Congress bills in the House/Senate bill DTD (``<bill>`` /
``<resolution>`` with a ``<legis-body>``, as congress.gov and GovInfo BILLS publish them),
recognised by the root element's namespace or name.

Every converter returns one :class:`~.document.ConvertedDocument` (``docs/architecture.md``): its
Markdown text is the single source of truth for chunk text, citations and line numbers, and its
blocks say what the markup states. Each container is a ``heading`` block with provenance
``markup``, its nesting depth as ``level`` and its printed number as ``number``, from which the
structure stage builds sections directly; the text is written in the form the section parser also
reads without guessing:

* containers (title, part, chapter, subchapter, division, section, article, CLML
  ``Part``/``Chapter``/``Pblock``/``P1group``, schedules) become ATX headings whose level is
  their nesting depth among containers (capped at 6), text ``"{num} {heading}"``
  (``### § 106a. Heading``, ``## Article 2 Definitions``, ``#### 1 Establishment of the Tribunals``);
* numbered provisions below them (subsection, paragraph, subparagraph, clause, item, point,
  CLML ``P2``–``P6``) become paragraphs that open with their printed number (``(a) …``,
  ``(1) …``, ``1. …``, ``a) …``), which the parser nests by numbering style;
* defined terms (USLM ``<term>``, Akoma Ntoso ``<def>``, CLML ``<Term>``) are written in curly
  quotes (``“vessel” means …``) unless the text already quotes them, so definition extraction
  sees them; a bill's ``<quote>`` (``The term <quote>inventory</quote> means``, ``cited as the
  <quote>… Act</quote>``) stands for the quotation marks its stylesheet prints, and is written in
  them (``The term “inventory” means``; ‘…’ inside a quotation);
* references (``<ref href>``, ``<Citation>``) keep their printed words only ("paragraph 1", never
  ``[paragraph 1](#art_9__para_1)`` in chunk text), which cross-reference extraction reads (the
  element ids stay in ``Document.anchors``); tables become Markdown tables;
* a number printed bare (UK ``<num>2</num>``, ``a``) is written ``(2)``, ``(a)``, so ids follow the
  markup's nesting (``1(2)``, ``1(2)(a)``), and an Akoma Ntoso ``<subsection>`` without a heading
  is such a numbered provision; heading levels are the markup's nesting (``Document.heading_levels``:
  a USLM ``<division>`` holds its ``<title>``s whatever the container ranks say);
* Akoma Ntoso ``<level>`` (UK Lawmaker's lettered paragraphs, ``<level eId="sec_1__subsec_2__para_a">``)
  is a numbered provision like ``<paragraph>`` (``1(2)(a)``); a UK ``<hcontainer name="definition">``
  whose definition goes on in limbs ("“aviation fuel” means fuel for— (a) …, or (b) …") is one
  paragraph, limbs inline, so the definitions after it stay in their provision;
* a schedule's paragraph — CLML ``P1``, Akoma Ntoso ``<paragraph>`` numbered bare (``4``) at the top
  of a ``<Schedule>`` / ``<hcontainer name="schedule">`` — is to the schedule what a section is to the
  body: a heading stating its number (``### 4``; ids ``schedule-2/4``, ``schedule-2/4(1)``);
* Akoma Ntoso ``<component>``/``<attachment>``/``<conclusions>`` open headings of their own (an
  explanatory memorandum, "Done at Brussels", a Legislative Financial Statement), so they are
  never the tail of the last article; USLM margin notes (``<sidenote>``) become a paragraph after
  the text they stand in, and ``<page>`` markers are dropped;
* a container's number is its printed ``<num>`` without footnote markers or brackets (a USLM
  compilation's ``Sec. (2)¹`` is section 2); a footnote marker in text is ``[^1]`` and the footnote
  one paragraph ``[^1]: …``; an editorial note of inline text (``[29 U.S.C. 675]``) is one paragraph,
  never a line that reads as a section number, and one between two provisions stays with the first;
  an inline quotation (``striking “<quotedText>title XIX</quotedText>” and inserting``) stays in its sentence;
* metadata, tables of contents and quoted amending text keep out of the structure (quoted text
  stays as one paragraph of body text; metadata and TOCs are dropped); a bill's ``<quoted-block>``
  (an amendment inserting "Sec. 5203. …" into the Act it amends) is one paragraph per quoted
  provision, its number and header first (``> (a) In general.— …``), all text of the provision
  quoting it, so its numbers never become the bill's own;
* a bill's ``<section>``/``<title>``/``<subtitle>`` … print their label word (``SEC. 5.``, ``TITLE
  I—``) where the markup gives only the ``<enum>``: headings ``Sec. 5. Header``, ``Title I—Header``;
  its numbered provisions (``<subsection>`` … ``<subclause>``) state their depth below the section,
  so they nest as the elements do (``5(a)(1)(A)``) without being re-read from their text;
* editorial matter that trails a provision's numbered items (USLM ``<sourceCredit>``/``<notes>``,
  CFR ``<source>``/``<authority>``, Akoma Ntoso ``<notes>``) is the provision's own: it opens with a
  heading one level below the provision (``#### Notes``, ``#### Source credit``), so it is filed
  as a notes block of the section, not as the tail of its last ``(a)(1)``.

Parsing is safe against hostile XML (lxml with entity resolution, DTD loading and network access
off; no billion-laughs expansion). Entry point: :func:`convert_legislation_xml`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ConversionError
from ..structure.grammar import keyword_words
from . import legislation_ca
from .document import BlockWriter, ConvertedDocument


@dataclass(frozen=True)
class Dialect:
    """Element names (local names) that carry structure in one legislation XML schema."""

    name: str
    containers: frozenset[str]  # headings
    items: frozenset[str]  # numbered provisions below containers
    num: frozenset[str]
    heading: frozenset[str]
    skip: frozenset[str]  # dropped with their content
    flat: frozenset[str]  # kept as plain text, never as structure (quoted amendments, notes)
    terms: frozenset[str]
    # numbered provisions state their depth (``list_item`` blocks with a ``level``), so the structure
    # stage nests them as the markup does instead of reading their numbers from the text
    stated_items: bool = False
    # a container's printed label word, where the markup gives only its number (``<enum>5.</enum>``
    # of a ``<section>`` prints "SEC. 5.", of a ``<title>`` "TITLE I—")
    label_words: tuple[tuple[str, str], ...] = ()
    # inline elements whose quotation marks the publisher's stylesheet prints, not the text: a bill's
    # ``The term <quote>inventory</quote> means`` reads ``The term “inventory” means`` (billres.xsl)
    quoted: frozenset[str] = frozenset()


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


USLM = Dialect(
    "USLM",
    containers=_names(
        "title subtitle chapter subchapter part subpart division subdivision article section "
        "appendix compiledAct courtRules reorganizationPlan legislativeHistory"
    ),
    items=_names("subsection paragraph subparagraph clause subclause item subitem subsubitem level"),
    num=_names("num"),
    heading=_names("heading"),
    skip=_names(
        "meta toc tocItem layout referenceItem headingItem groupItem leftRunningHead rightRunningHead "
        "index img figure page"
    ),
    flat=_names("quotedContent quotedText note notes sourceCredit editorialNote source authority footnote"),
    terms=_names("term"),
)
AKOMA_NTOSO = Dialect(
    "Akoma Ntoso",
    containers=_names(
        "book tome part subpart title subtitle chapter subchapter division subdivision section "
        "subsection article rule subrule tblock hcontainer"
    ),
    # ``level``: AKN's generic numbered unit (UK Lawmaker writes every lettered paragraph "(a)" so)
    items=_names("paragraph subparagraph point item indent alinea clause subclause list level"),
    num=_names("num"),
    heading=_names("heading subheading"),
    skip=_names("meta toc tocItem marker authorialNote noteRef"),
    flat=_names("quotedStructure quotedText mod embeddedStructure notes note"),
    terms=_names("def"),
)
CLML = Dialect(
    "CLML",
    containers=_names("Group Part Chapter Pblock PsubBlock P1group Schedule Appendix"),
    items=_names("P1 P2 P3 P4 P5 P6 P7"),
    num=_names("Number Pnumber"),
    heading=_names("Title Subtitle"),
    skip=_names(
        "Metadata Contents Commentaries CommentaryRef FootnoteRef Footnotes MarginNotes Resources Image Figure"
    ),
    flat=_names("BlockAmendment BlockExtract BlockText"),
    terms=_names("Term"),
)
JUSTICE_CA = Dialect(
    "Justice Canada",
    containers=_names("Group Section Schedule"),
    items=_names("Subsection Paragraph Subparagraph Clause Subclause Subsubclause Provision FormulaParagraph"),
    num=_names("Label"),
    heading=_names("TitleText MarginalNote"),
    skip=_names(
        "RunningHead BillHistory Chapter InstrumentNumber RegistrationDate ConsolidationDate "
        "RegulationMakerOrder ShortTitle FootnoteRef ImageGroup Image"
    ),
    flat=_names("AmendedText QuotedText HistoricalNote Footnote Note"),
    terms=_names("DefinedTermEn DefinedTermFr"),  # a French act's terms in guillemets, as printed
)
US_BILL = Dialect(
    "US bill",
    containers=_names("division subdivision title subtitle part subpart chapter subchapter section"),
    items=_names("subsection paragraph subparagraph clause subclause item subitem"),
    num=_names("enum"),
    heading=_names("header"),
    skip=_names("metadata toc distribution-code endorsement footnote-ref"),
    flat=_names("quoted-block after-quoted-block form attestation preamble"),
    terms=_names("term"),
    stated_items=True,
    quoted=_names("quote"),
    label_words=(
        ("section", "Sec."),
        ("title", "Title"),
        ("subtitle", "Subtitle"),
        ("division", "Division"),
        ("subdivision", "Subdivision"),
        ("part", "Part"),
        ("subpart", "Subpart"),
        ("chapter", "Chapter"),
        ("subchapter", "Subchapter"),
    ),
)
# the House and Senate bill DTDs (``bill.dtd``, ``res.dtd``): no namespace, a root
# ``<bill>``/``<resolution>`` holding a ``<form>`` and a ``<legis-body>`` (``<resolution-body>``)
_US_BILL_ROOTS = frozenset({"bill", "resolution"})
_US_BILL_PARTS = frozenset({"form", "legis-body", "resolution-body"})
_BY_NAMESPACE = (
    ("uslm", USLM),
    ("akn", AKOMA_NTOSO),
    ("akomantoso", AKOMA_NTOSO),
    ("legaldocml", AKOMA_NTOSO),
    ("legislation.gov.uk/namespaces/legislation", CLML),
)
_BY_ROOT = {
    "uscDoc": USLM,
    "lawDoc": USLM,
    "billDoc": USLM,
    "statuteCompilation": USLM,
    "cfrDoc": USLM,
    "resolutionDoc": USLM,
    "akomaNtoso": AKOMA_NTOSO,
    "Legislation": CLML,
    "Primary": CLML,
    "Secondary": CLML,
    "EURetained": CLML,
}
_TABLES = frozenset({"table", "Tabular"})
_MARGIN_NOTES = frozenset({"sidenote", "marginalNote"})
_AKN_PARTS = frozenset({"component", "attachment", "conclusions"})
_SUB_PROVISIONS = frozenset({"subsection", "subrule", "subarticle"})
# the numbered provision a schedule is made of, as a section is of the body: CLML ``P1``, Akoma Ntoso
# ``<paragraph>`` (UK ``schProv1``); a bare number ("2", "10A") at the top of a schedule
_SCHEDULE_PARAGRAPHS = frozenset({"P1", "paragraph"})
_SCHEDULE_PARAGRAPH_NUMBER = re.compile(r"^[0-9]{1,4}[A-Z]{0,3}$")
# a provision number printed bare ("2", "a", "iv": UK Akoma Ntoso): written "(2)", "(a)", "(iv)" so the
# section parser nests it by its numbering and qualifies its id ("1(2)", "1(2)(a)"); "1." and "a)" stay
# as printed (a German Absatz "(1)" holds its Nummern "1.", which hold "a)": the forms are the levels)
_BARE_ITEM_NUMBER = re.compile(r"^([0-9]{1,4}[A-Za-z]{0,3}|[A-Za-z]{1,6})$")
_BLOCKS = frozenset({"p", "P", "Text", "text", "Para", "chapeau", "continuation", "intro", "wrapUp", "blockContainer"})
_MARKER_START = re.compile(
    rf"^(?:[\"“‘]?\(?[0-9A-Za-z]{{1,6}}[).]|(?:sec|{'|'.join(keyword_words('label'))}|§)\.?\s*\d)", re.I
)
_QUOTES = "\"“”‘’'«»"
_CLML_DEFAULT_PUNCTUATION = {
    "P1": ("", ""),
    "P2": ("(", ")"),
    "P3": ("(", ")"),
    "P4": ("(", ")"),
    "P5": ("(", ")"),
    "P6": ("(", ")"),
    "P7": ("(", ")"),
}


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _namespace(tag: str) -> str:
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""


def detect_dialect(root) -> Dialect | None:
    """The dialect of a parsed root element: by namespace URI, else by root element name (a
    Justice Canada ``<Statute>``/``<Regulation>`` by its ``lims`` namespace declaration)."""
    if legislation_ca.is_justice_ca(root):
        return JUSTICE_CA
    if (
        _local(root.tag) in _US_BILL_ROOTS
        and not _namespace(root.tag)
        and any(_local(c.tag) in _US_BILL_PARTS for c in root)
    ):
        return US_BILL
    ns = _namespace(root.tag).lower()
    for marker, dialect in _BY_NAMESPACE:
        if ns and marker in ns:
            return dialect
    return _BY_ROOT.get(_local(root.tag))


def parse_xml(data: bytes, doc_key: str):
    """Parse XML bytes safely (no entities, DTDs or network). Raises :class:`ConversionError`."""
    from lxml import etree

    parser = etree.XMLParser(
        resolve_entities=False,
        load_dtd=False,
        no_network=True,
        huge_tree=True,
        remove_comments=True,
        remove_pis=True,
        recover=False,
    )
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        line = f" at line {e.lineno}" if getattr(e, "lineno", None) else ""
        raise ConversionError(doc_key, f"malformed XML{line}: {e.msg if hasattr(e, 'msg') else e}") from None


def convert_legislation_xml(data: bytes, ext: str, doc_key: str) -> ConvertedDocument:
    """USLM / Akoma Ntoso / CLML / Justice Canada bytes → :class:`ConvertedDocument` whose
    containers are ``markup`` heading blocks stating their level and number.

    Raises :class:`ConversionError` for malformed XML or an XML schema other than these three
    (the reason names the root element and namespace found).
    """
    root = parse_xml(data, doc_key)
    dialect = detect_dialect(root)
    if dialect is None:
        ns = _namespace(root.tag)
        raise ConversionError(
            doc_key,
            f"XML is not supported for this schema (root <{_local(root.tag)}>"
            f"{', namespace ' + ns if ns else ', no namespace'}): docstrata reads "
            "USLM, Akoma Ntoso, UK CLML, Justice Canada and US bill-DTD legislation XML; convert other XML to "
            "HTML or Markdown first",
        )
    if dialect is JUSTICE_CA:
        legislation_ca.nest_headings(root)
    writer = _Writer(dialect)
    writer.walk(root, depth=0)
    title = _document_title(root, dialect) or writer.first_heading
    out = BlockWriter()
    for n, text in enumerate(writer.blocks):
        if n in writer.headings:
            level, number, heading = writer.headings[n]
            out.heading(level, heading, number or None, written=text.lstrip("#").strip())
        elif n in writer.items:
            out.add(text, "list_item", provenance="markup", number=writer.items[n], level=writer.item_levels.get(n))
        elif n in writer.notes:  # the markup states it is a note or quotation: no section starts in it
            out.add(text, "paragraph", provenance="markup")
        else:  # a <p> may print a provision's number in its text ("(1) Frames"): read from its characters
            out.add(
                text,
                "table" if text.startswith("|") else "paragraph",
                provenance="markup" if text.startswith("|") else "plain_text",
            )
    return out.document(title=title, warnings=writer.warnings, anchors=writer.anchors)


_ID_ATTRS = ("eId", "{http://www.w3.org/XML/1998/namespace}id", "GUID", "id", "identifier", "IdURI")


class _Writer:
    def __init__(self, dialect: Dialect):
        self.d = dialect
        self.blocks: list[str] = []
        self.warnings: list[str] = []
        self.first_heading: str | None = None
        self.headings: dict[int, tuple[int, str, str]] = {}  # index in blocks → (level, number, title) of a heading
        self.items: dict[int, str] = {}  # index in blocks → printed number of a numbered provision
        self.item_levels: dict[int, int] = {}  # index in blocks → stated depth of that provision (``stated_items``)
        self.notes: set[int] = set()  # indices in blocks of notes, footnotes and quoted text: never structure
        self.anchors: dict[str, str] = {}  # element id → its heading, or its citation ("Article 3(2)")
        self.labels: list[tuple[str, str]] = []  # (kind, number) of the containers and items we are in
        self.margin: list[str] = []  # margin notes read inside the text being written (USLM <sidenote>)
        self.in_schedule = False  # inside a schedule (CLML <Schedule>, AKN <hcontainer name="schedule">)

    def _open_heading(self, level: int, number: str, title: str, text: str | None = None) -> None:
        """A container's heading: ``#``×min(level, 6) + its text, recorded with its stated level and number."""
        self.headings[len(self.blocks)] = (level, number, title)
        self.blocks.append("#" * min(level, 6) + " " + (text if text is not None else title))

    def _flush_margin(self) -> None:
        """Margin notes ("2 USC 900 note.") read inside a heading or sentence: one paragraph after it,
        never spliced into its words."""
        if self.margin:
            self.notes.add(len(self.blocks))
            self.blocks.append("*Margin note: " + "; ".join(self.margin) + "*")
            self.margin = []

    def _anchor(self, el, value: str) -> None:
        for a in _ID_ATTRS:
            v = el.get(a)
            if v:
                self.anchors.setdefault(v, value)

    def _citation(self, num: str) -> str:
        """``Article 3`` + items ``1.``, ``(a)`` → ``Article 3(1)(a)``; a bare container number reads as a section."""
        parts = [n for kind, n in self.labels if kind == "item"] + [num]
        base = next((n for kind, n in reversed(self.labels) if kind == "container" and re.search(r"\d", n)), "")
        if base and not re.match(r"^[^\d\s]", base):
            base = "Section " + base
        return base + "".join(p if p.startswith("(") else f"({p.strip('.)')})" for p in parts if p)

    # -- structure --------------------------------------------------------------------------
    def walk(self, el, depth: int) -> None:
        name = _local(el.tag)
        if not name or name in self.d.skip:
            return
        if self.d is USLM and name in _MARGIN_NOTES:
            self.margin.append(self.inline(el))
            self._flush_margin()
        elif self.d is AKOMA_NTOSO and name in _AKN_PARTS:
            self._part(el, depth)
        elif self.d is JUSTICE_CA and name == "Definition" and self._holds_numbered_limbs(el):
            # '“business transaction” includes (a) …; (b) …': one paragraph, so the limbs stay in the
            # definition and the definitions after it stay in the provision, not in its last limb
            self.blocks.append(self._limbs_text(el))
            self._flush_margin()
        elif self._definition_with_limbs(el):
            # '“aviation fuel” means fuel for— (a) use in aircraft, or (b) …': one paragraph, so the
            # definition keeps its limbs and the definitions after it are not read as its last limb's
            self.blocks.append(self._limbs_text(el))
            self._flush_margin()
        elif name in self.d.containers and self._labelled(el) and not self._sub_provision(el):
            self._container(el, depth)
        elif name in self.d.items or name in self.d.containers and self._labelled(el):
            self._item(el, depth)
        elif self.d is US_BILL and name == "quoted-block":
            self._quoted(el)
        elif self.d is US_BILL and name == "after-quoted-block" and _follows_quoted_block(el):
            return  # its closing words (".", "; and") were written on the quotation's last line
        elif name in self.d.flat:
            self._flat(el)
        elif name in _TABLES:
            self._table(el)
        elif self.d is AKOMA_NTOSO and name == "recital" and (num := self._recital_number(el)):
            self._children(
                el, depth, lead=[num], number=num
            )  # "(1) The registration …", as the Official Journal prints it
        elif self._has_structure(el):
            for c in el:  # the heading of an unnumbered block that is no container is text, not structure
                if _local(c.tag) in self.d.heading and (text := self.inline(c)):
                    self.blocks.append(f"**{text}**")
            self._children(el, depth)
        elif name in self.d.heading and self._loose_heading(el):
            if text := self.inline(el):
                self.blocks.append(f"**{text}**")
            self._flush_margin()
        elif name not in self.d.num and name not in self.d.heading:
            text = self.inline(el)
            if text:
                self.blocks.append(text)

    def _children(
        self, el, depth: int, lead: list[str] | None = None, number: str | None = None, level: int | None = None
    ) -> None:
        """Blocks for ``el``'s children: the leading text (joined to ``lead``) as one paragraph, the rest walked;
        ``number``: the printed number of the provision that paragraph opens (a ``list_item`` block),
        ``level`` its stated depth (dialects with ``stated_items``)."""
        own = [el.text] if el.text and el.text.strip() else []
        kids = [c for c in el if isinstance(c.tag, str)]
        # mixed content (``<content>Section 1400Z–1 <amendingAction>is amended</amendingAction> by adding …``):
        # the children's tails are words of the sentence, and its pieces join as printed
        mixed = any(c.tail and c.tail.strip() for c in kids)
        parts, rest = self._split(kids, in_text=mixed)
        if mixed:
            parts = ["".join(own + parts)]
            own = []
        text = _squash(" ".join((lead or []) + own + parts))
        if text:
            if number:  # a numbered provision ("(a) …", "1. …", a recital "(1) …"): the markup states its number
                self.items[len(self.blocks)] = number
                if level is not None:
                    self.item_levels[len(self.blocks)] = level
            self.blocks.append(text)
        self._flush_margin()
        for child in rest:
            self.walk(child, depth)

    def _split(self, children: list, in_text: bool = False) -> tuple[list[str], list]:
        """Leading text of a provision (up to its first text block) and the children after it.
        ``in_text``: the children are the mixed content of a text element (``<content>by striking
        “<quotedText>…</quotedText>” and …``), whose tails are words of the sentence and whose inline
        quotations stay in it."""
        lead: list[str] = []
        for i, c in enumerate(children):
            tail = [c.tail] if in_text and c.tail else []
            name = _local(c.tag)
            if name in self.d.heading and self._loose_heading(c):
                return lead, children[i:]  # a heading inside text (Federal Register "Need for Correction"): a block
            if name in self.d.num or name in self.d.heading or name in self.d.skip or name == "TitleBlock":
                lead.extend(tail)  # "<sidenote>…</sidenote> strike “…”": the words after it are the sentence's
                continue
            if self.d is USLM and name in _MARGIN_NOTES:  # written after the provision's opening words
                self.margin.append(self.inline(c))
                lead.extend(tail)
                continue
            if name in self.d.items and not lead and not self._num(c) and not self._heading(c):
                # an unnumbered first sub-item (EU <paragraph><num>1.</num><subparagraph>): the
                # provision's own opening words, on the line of its number
                own = [c.text] if c.text and c.text.strip() else []
                sub_lead, sub_rest = self._split([x for x in c if isinstance(x.tag, str)])
                return own + sub_lead, sub_rest + children[i + 1 :]
            inline_quote = in_text and name in self.d.flat and lead and not self._has_structure(c)
            if not inline_quote and (
                name in self.d.items
                or name in self.d.containers
                or name in self.d.flat
                or name in _TABLES
                or self.d is AKOMA_NTOSO
                and name in _AKN_PARTS
            ):
                return lead, children[i:]
            if self._has_structure(c):
                own = [c.text] if c.text and c.text.strip() else []
                mixed = bool(own) or any(x.tail and x.tail.strip() for x in c if isinstance(x.tag, str))
                sub_lead, sub_rest = self._split([x for x in c if isinstance(x.tag, str)], in_text=mixed)
                if not mixed:
                    return lead + own + sub_lead, sub_rest + children[i + 1 :]
                words = "".join(own + sub_lead)  # mixed content: its tails carry its spacing
                if sub_rest:
                    return lead + [words], sub_rest + children[i + 1 :]
                lead += [words] + tail  # a sentence whose quotations were all inline: it goes on
                continue
            text = self.inline(c)
            if text or tail:
                lead.extend([text] + tail if text else tail)
            if name in _BLOCKS:
                return lead, children[i + 1 :]
        return lead, []

    def _part(self, el, depth: int) -> None:
        """An Akoma Ntoso document part: a ``<component>`` or ``<attachment>`` holding a document of
        its own (explanatory memorandum, the act, a Legislative Financial Statement) or the act's
        ``<conclusions>`` ("Done at Brussels", signatures). It opens with a heading of its own, so
        what follows the act's last article is never filed under that article."""
        kids = [c for c in el if isinstance(c.tag, str) and _local(c.tag) not in self.d.skip]
        if not kids or all(_local(c.tag) in ("documentRef", "componentRef") for c in kids):
            return  # a collection's list of its components: no text of its own
        title = _part_title(el, self.d) if _local(el.tag) != "conclusions" else "Conclusions"
        self._open_heading(depth + 1, "", title)
        self.first_heading = self.first_heading or title
        self._anchor(el, title)
        saved, self.labels = self.labels, []
        self._children(el, depth + 1)
        self.labels = saved

    def _holds_numbered_limbs(self, el) -> bool:
        return any(
            _local(e.tag) in self.d.items and self._num(e) for e in el.iter() if e is not el and isinstance(e.tag, str)
        )

    def _limbs_text(self, el) -> str:
        """``el``'s text with its numbered limbs inline: ``… who— (a) controls …, or (b) provides …;``."""
        out = [el.text or ""]
        for c in el:
            if not isinstance(c.tag, str) or _local(c.tag) in self.d.skip or _local(c.tag) in self.d.num:
                continue
            if _local(c.tag) in self.d.items or self._has_structure(c):
                num = _item_number(self._num(c)) if _local(c.tag) in self.d.items else ""
                out.append(" " + (num + " " if num else "") + self._limbs_text(c) + " ")
            else:
                out.append(" " + self.inline(c) + " ")
        return _squash("".join(out))

    def _definition_with_limbs(self, el) -> bool:
        """An unnumbered Akoma Ntoso definition entry holding numbered limbs: UK Lawmaker's
        ``<hcontainer name="definition">`` (an ``<intro>`` with the ``<def>``, then ``<level>`` (a), (b))."""
        return (
            self.d is AKOMA_NTOSO
            and _local(el.tag) == "hcontainer"
            and el.get("name") == "definition"
            and not self._labelled(el)
            and self._holds_numbered_limbs(el)
        )

    def _sub_provision(self, el) -> bool:
        """An Akoma Ntoso ``<subsection>``/``<subrule>`` with a number and no heading (UK ``sec_1__subsec_2``,
        ``<num>2</num>``) is a numbered provision of its section, written ``(2) …``, not a container."""
        return (
            self.d is AKOMA_NTOSO
            and _local(el.tag) in _SUB_PROVISIONS
            and not self._heading(el)
            and bool(self._num(el))
        )

    def _loose_heading(self, el) -> bool:
        """A USLM heading that is no provision's or container's own (``<content><heading>Need for
        Correction</heading><p>…``, as Federal Register documents write their subheads): text of the
        document, written as a bold line, never dropped as a label already written."""
        parent = el.getparent()
        pname = _local(parent.tag) if parent is not None else ""
        return (
            self.d is USLM
            and pname not in self.d.items
            and pname not in self.d.containers
            and pname not in self.d.flat
            and pname not in _MARGIN_NOTES
            and pname != "legislativeHistory"
        )

    def _labelled(self, el) -> bool:
        return bool(self._num(el) or self._heading(el))

    def _has_structure(self, el) -> bool:
        """Whether ``el`` holds blocks or provisions (not counting those inside skipped elements or
        USLM margin notes: the ``<p>`` of an Akoma Ntoso ``<authorialNote>`` or of a USLM
        ``<sidenote>`` leaves its sentence inline)."""
        for e in el:
            if not isinstance(e.tag, str):
                continue
            n = _local(e.tag)
            if n in self.d.skip or self.d is USLM and n in _MARGIN_NOTES:
                continue
            if n in self.d.containers or n in self.d.items or n in _TABLES or n in _BLOCKS or self._has_structure(e):
                return True
        return False

    def _container(self, el, depth: int) -> None:
        num, heading = self._num(el), self._heading(el)
        name = _local(el.tag)
        if self.d is CLML and name == "P1group":
            p1s = [c for c in el if _local(c.tag) == "P1"]
            if len(p1s) == 1:  # "1 Establishment of the Tribunals": the section's number and its title
                num = self._num(p1s[0])
        text = " ".join(x for x in (num, heading) if x)
        if num and (word := dict(self.d.label_words).get(name)):
            num = f"{word} {num}"  # <section><enum>5.</enum> prints "SEC. 5.", <title><enum>I</enum> "TITLE I—"
            text = f"{num}. {heading}" if word.endswith(".") else f"{num}—{heading}" if heading else num
            text = text.rstrip(". ") if not heading else text
        self._open_heading(depth + 1, num, heading, text)
        self._flush_margin()
        self.first_heading = self.first_heading or text
        merged = num and self.d is CLML and name == "P1group"
        self._anchor(el, text)
        saved, self.labels = self.labels, [("container", num or "")]
        saved_schedule = self.in_schedule
        self.in_schedule = self.in_schedule or self._is_schedule(el)
        structured = notes_open = False  # an item or a sub-container came before (notes would trail it)
        kids = list(el)
        for i, child in enumerate(kids):
            cname = _local(child.tag)
            if cname in self.d.num or cname in self.d.heading or cname == "TitleBlock":
                continue
            if cname in _NOTES and structured and not notes_open and not self._provision_follows(kids[i + 1 :]):
                # the section's own notes block, not the tail of its last (a)(1): a heading one level down
                self._open_heading(depth + 2, "", _notes_title(el, child, self.d))
                notes_open = True
            if merged and cname == "P1":
                self._anchor(child, text)
                self._body(child, depth + 1)
            else:
                self.walk(child, depth + 1)
            if cname in self.d.items or cname in self.d.containers or (merged and cname == "P1"):
                structured, notes_open = True, False
        self.labels = saved
        self.in_schedule = saved_schedule

    def _is_schedule(self, el) -> bool:
        """A schedule the markup states: CLML ``<Schedule>``, Akoma Ntoso ``<hcontainer name="schedule">``
        (UK Lawmaker)."""
        name = _local(el.tag)
        return (self.d is CLML and name == "Schedule") or (
            self.d is AKOMA_NTOSO and name == "hcontainer" and el.get("name") == "schedule"
        )

    def _schedule_paragraph(self, el) -> bool:
        """A paragraph of a schedule (``docs/architecture.md``, "Numbers several parts hold"): a CLML
        ``P1`` or Akoma Ntoso ``<paragraph>`` numbered bare (``2``, ``10A``) inside a schedule and inside
        no other numbered provision. It is to the schedule what a section is to the body ("paragraph 4"
        of the Schedule), so it is a stated heading numbered as printed (id ``schedule-2/4``, its
        sub-paragraphs ``schedule-2/4(1)``), never an item ``(4)`` whose number the parser drops."""
        return (
            self.in_schedule
            and self.d in (CLML, AKOMA_NTOSO)
            and _local(el.tag) in _SCHEDULE_PARAGRAPHS
            and not any(kind == "item" for kind, _ in self.labels)
            and bool(_SCHEDULE_PARAGRAPH_NUMBER.match(self._num(el)))
        )

    def _provision_follows(self, siblings: list) -> bool:
        """A numbered item or container comes after: editorial matter between provisions (USLM
        compilations cite "[15 U.S.C. 1636]" after each subsection) stays with the provision before
        it, and only notes that trail the last provision open a notes block."""
        return any(
            _local(c.tag) in self.d.items or _local(c.tag) in self.d.containers and self._labelled(c)
            for c in siblings
            if isinstance(c.tag, str)
        )

    def _item(self, el, depth: int) -> None:
        if self.d is AKOMA_NTOSO and _local(el.tag) == "item" and not self._num(el) and self._holds_numbered_limbs(el):
            # an unnumbered list entry with lettered limbs (UK: '“public telecommunications operator”
            # means a person who— (a) … (b) …'): one paragraph, so the limbs stay in the definition
            # and the entries after it stay in the provision, not in its last limb
            self.blocks.append(self._limbs_text(el))
            self._flush_margin()
            return
        if self._schedule_paragraph(el):
            self._container(el, depth)
            return
        num, heading = self._num(el), self._heading(el)
        if self.d is AKOMA_NTOSO or self.d is US_BILL:  # CLML punctuates its own Pnumbers; USLM prints "(a)"
            num = _item_number(num)
        if heading and not heading.endswith((".", "—", ":")):
            heading += ".—"
        level = None
        if num:
            self._anchor(el, self._citation(num))
            self.labels.append(("item", num))
            if self.d.stated_items:  # below its container's heading (at ``depth``), one level per item it is in
                level = depth + sum(1 for kind, _ in self.labels if kind == "item")
        self._children(el, depth, lead=[x for x in (num, heading) if x], number=num or None, level=level)
        if num:
            self.labels.pop()

    def _body(self, el, depth: int) -> None:
        """A CLML P1 merged into its P1group heading: only its body."""
        self._children(el, depth)

    def _flat(self, el) -> None:
        """Notes and quoted amending text: paragraphs (headings in bold), never sections. A note of
        inline text only (USLM ``<editorialNote><b>[</b><ref>29 U.S.C. 675</ref><b>]</b>``) is one
        paragraph, so "29 U.S.C. 675" never stands on a line of its own where it reads as section 29;
        a footnote is one paragraph ``[^1]: So in original. …``."""
        if _local(el.tag) == "footnote":
            self._footnote(el)
            return
        if (
            len(el)
            and not self._has_structure(el)
            and not any(
                _local(c.tag) in self.d.flat or _local(c.tag) in _TABLES or _local(c.tag) in self.d.heading
                for c in el
                if isinstance(c.tag, str)
            )
        ):
            self._flat_text(self.inline(el))
            return
        # mixed content (``<content>The percentage shall be as follows:<table>…</table></content>``): the
        # element's own words and every child's tail are text of the note, in order, around its blocks
        mixed = bool((el.text or "").strip()) or any((c.tail or "").strip() for c in el)
        run: list[str] = [el.text or ""]
        for c in el:
            name = _local(c.tag)
            if not name or name in self.d.skip:
                run.append(c.tail or "")
                continue
            if self.d is USLM and name in _MARGIN_NOTES:
                self.margin.append(self.inline(c))
            elif mixed and not (
                name in _TABLES
                or name in self.d.flat
                or name in self.d.heading
                or name in self.d.num
                or name in _BLOCKS
                or name in self.d.items
                or name in self.d.containers
                or self._has_structure(c)
            ):
                run.append(self._inline(c))  # an inline element of the sentence (<ref>, <i>, <amendingAction>)
            else:
                self._flat_text("".join(run))
                run = []
                if name in _TABLES:
                    self._table(c)
                elif name in self.d.flat or (self._has_structure(c) and name not in _BLOCKS):
                    self._flat(c)
                elif name in self.d.heading or name in self.d.num:
                    text = self.inline(c)
                    if text:
                        self.blocks.append(f"**{text}**")
                else:
                    self._flat_text(self.inline(c))
            run.append(c.tail or "")
        self._flat_text("".join(run))

    def _quoted(self, el) -> None:
        """A bill's ``<quoted-block>``: the text an amendment inserts ("Sec. 5203. Grants …", "(a) In
        general.— …"), written as text of the provision quoting it — one paragraph per quoted provision,
        its printed number and header first — and never as this bill's own structure (no heading, no
        stated item: its numbers belong to the Act it amends). The words after it
        (``<after-quoted-block>``: ".", "; and") close its last line."""
        line: list[str] = []

        def flush() -> None:
            self._flat_text(" ".join(x for x in line if x))
            line.clear()

        def visit(e) -> None:
            for c in e:
                n = _local(c.tag)
                if not n or n in self.d.skip or n in self.d.num or n in self.d.heading:
                    continue
                if n in self.d.containers or n in self.d.items:
                    flush()
                    num, heading = self._num(c), self._heading(c)
                    word = dict(self.d.label_words).get(n)
                    if num and word:
                        num = f"{word} {num}."
                    if heading and n in self.d.items and not heading.endswith((".", "—", ":")):
                        heading += ".—"
                    elif heading and n not in self.d.items:
                        heading += "."
                    line.extend([num, heading])
                    visit(c)
                    flush()
                elif n in _TABLES:
                    flush()
                    self._table(c)
                elif n in self.d.flat or self._has_structure(c) and n not in _BLOCKS:
                    flush()
                    visit(c)
                    flush()
                else:
                    line.append(self.inline(c))

        visit(el)
        after = el.getnext()
        if after is not None and _local(after.tag) == "after-quoted-block":
            line.append(self.inline(after))
        flush()

    def _footnote(self, el) -> None:
        """``<footnote><sup>1</sup><p>So in original …</p></footnote>`` → ``[^1]: So in original …``
        (the marker is the footnote's leading ``<sup>``/``<num>``/``<marker>``, else its ``id``)."""
        kids = [c for c in el if isinstance(c.tag, str)]
        marker = ""
        if kids and _local(kids[0].tag) in ("sup", "num", "marker", "label") and not (el.text or "").strip():
            marker = _squash("".join(kids[0].itertext()))
            kids = kids[1:]
        body = _squash(" ".join([(el.text or "")] + [self.inline(c) + " " + (c.tail or "") for c in kids]))
        if marker:
            body = f"[^{marker}]: {body}"
        if body:
            self.notes.add(len(self.blocks))
            self.blocks.append(body)
        self._flush_margin()

    def _flat_text(self, text: str) -> None:
        text = _squash(text)
        if text:  # a quoted "(a) …" or "Sec. 3." line must not read as a provision of this document
            self.notes.add(len(self.blocks))
            self.blocks.append("> " + text if _MARKER_START.match(text) else text)
        self._flush_margin()

    def _table(self, el) -> None:
        rows = []
        for tr in el.iter():  # HTML rows (tr/td) or CALS rows (row/entry: Justice Canada, DocBook)
            if _local(tr.tag) not in ("tr", "row"):
                continue
            cells = [self.inline(c).replace("|", "\\|") for c in tr if _local(c.tag) in ("td", "th", "entry")]
            if cells:
                rows.append(cells)
        caption = next((self.inline(c) for c in el.iter() if _local(c.tag) == "caption"), "")
        if caption:  # "Schedule of Laws Repealed": the table's title is text of the document too
            self.blocks.append(f"**{caption}**")
        if not rows:
            return
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
        lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        self.blocks.append("\n".join(lines))

    # -- labels -----------------------------------------------------------------------------
    def _num(self, el) -> str:
        for c in el:
            if _local(c.tag) in self.d.num:
                text = _squash(self._inline(c, footnote_refs=False))
                if _local(el.tag) not in self.d.items:  # "Title 1—", "§ 1." → "Title 1", "§ 1"
                    text = _container_number(text)
                if self.d is CLML and _local(c.tag) == "Pnumber":
                    before, after = _CLML_DEFAULT_PUNCTUATION.get(_local(el.tag), ("", ""))
                    before = c.get("PuncBefore", before)
                    after = c.get("PuncAfter", after)
                    text = f"{before}{text}{after}" if text else ""
                return text
        return ""

    def _recital_number(self, el) -> str:
        """A recital's ``<num>`` as printed (``(1)``), or ``""``."""
        num = next((c for c in el if isinstance(c.tag, str) and _local(c.tag) in self.d.num), None)
        return _squash(self._inline(num, footnote_refs=False)) if num is not None else ""

    def _heading(self, el) -> str:
        for c in el:
            name = _local(c.tag)
            if name in self.d.heading:
                return _squash(self.inline(c))
            if name == "TitleBlock":
                return " ".join(_squash(self.inline(t)) for t in c if _local(t.tag) in self.d.heading)
        return ""

    # -- text -------------------------------------------------------------------------------
    def inline(self, el) -> str:
        """All text of ``el``, terms quoted, skipped elements left out, whitespace squashed."""
        return _squash(self._inline(el))

    def _inline(self, el, footnote_refs: bool = True) -> str:
        """Text of ``el`` (see :meth:`inline`); a USLM footnote marker (``<ref class="footnoteRef">1</ref>``)
        is written ``[^1]``, or left out with ``footnote_refs=False`` (in a
        number: "Sec. (2)¹" is section 2, not "(2)1")."""
        out = [el.text or ""]
        for c in el:
            name = _local(c.tag)
            if name in _MARGIN_NOTES and self.d is USLM:
                self.margin.append(_squash("".join(self._inline(c))))
            elif name not in self.d.skip and _is_footnote_ref(c):
                marker = _squash("".join(c.itertext()))
                if footnote_refs and marker:
                    out.append(f"[^{marker}]")
            elif name and name not in self.d.skip:
                inner = self._inline(c, footnote_refs)
                if name in self.d.terms and self.d is AKOMA_NTOSO and _defines_marked_term(el, c):
                    pass  # '‘<term>mixture</term>’ means <def>a mixture or …</def>': the def is the definition
                elif name in self.d.terms and inner.strip() and inner.strip()[0] not in _QUOTES:
                    prev = "".join(out).rstrip()[-1:]
                    quotes = ("« ", " »") if name == "DefinedTermFr" else ("“", "”")
                    inner = inner if prev and prev in _QUOTES else f"{quotes[0]}{inner.strip()}{quotes[1]}"
                elif name in self.d.quoted and inner.strip():
                    inner = _printed_quote(c, inner)
                out.append(inner)
                if name in _SPACED:  # Justice Canada: "DIVISION 1.2 Mobility …", not "1.2Mobility"
                    out.append(" ")
            out.append(c.tail or "")
        return "".join(out)


def _printed_quote(el, inner: str) -> str:
    """The words of a bill's ``<quote>`` in the quotation marks billres.xsl prints round them: double
    (“…”) in the bill's own text, single (‘…’) inside a quotation — a ``<quoted-block>`` or another
    ``<quote>`` — as the printed bill nests them."""
    words = inner.strip()
    if words[0] in _QUOTES and words[-1] in _QUOTES:  # <quote><term>X</term></quote>: the term's quotes
        return words
    nested = any(_local(a.tag) in ("quote", "quoted-block") for a in el.iterancestors())
    opening, closing = ("‘", "’") if nested else ("“", "”")
    return f"{opening}{words}{closing}"


def _follows_quoted_block(el) -> bool:
    prev = el.getprevious()
    return prev is not None and _local(prev.tag) == "quoted-block"


# elements printed as blocks or lines of their own, so a space follows them when they are read as one
# line: Justice Canada labels and titles; a USLM preface "Public Law 113–67 113th Congress" (<dc:type>,
# <docNumber>, <congress> written with nothing between them), its long title "Joint Resolution Making …"
_SPACED = frozenset(
    "p P Text br td th Label TitleText MarginalNote BilingualItemEn type docNumber congress session "
    "docTitle officialTitle longTitle enactingFormula resolvingClause actionDescription "
    # a bill's cover ("113th CONGRESS 2d Session H. R. 10 IN THE HOUSE OF REPRESENTATIVES AN ACT To amend …")
    "legis-num current-chamber legis-type official-title action action-date action-desc attestation-date "
    "attestor role".split()
)

# editorial matter that belongs to the provision it stands in (USLM notes and source credits, CFR
# source and authority notes, Akoma Ntoso notes), not to the provision's last numbered item
_NOTES = frozenset("notes note sourceCredit editorialNote source authority".split())
_NOTES_TITLES = {"sourceCredit": "Source credit", "source": "Source", "authority": "Authority"}


def _notes_title(container, first, d: Dialect) -> str:
    """Title of a provision's trailing notes block: ``Notes`` when it holds notes, else the kind of
    its first element (``Source credit``, ``Source``, ``Authority``)."""
    tail = [_local(c.tag) for c in container if isinstance(c.tag, str)]
    tail = tail[tail.index(_local(first.tag)) :]
    if any(n in ("notes", "note", "editorialNote") for n in tail if n in _NOTES):
        return "Notes"
    return _NOTES_TITLES.get(_local(first.tag), "Notes")


def _defines_marked_term(parent, def_el) -> bool:
    """An Akoma Ntoso ``<def>`` beside a ``<term>`` (EU: ``‘<term>mixture</term>’ means <def>a
    mixture …</def>``) marks the definition's text, the ``<term>`` the term; a ``<def>`` alone (UK:
    ``<def>“retention notice”</def> means …``) marks the term itself."""
    return any(_local(c.tag) == "term" for c in parent if c is not def_el and isinstance(c.tag, str))


def _part_title(el, d: Dialect) -> str:
    """A component's or attachment's title: its own heading, its document's long title or doc
    title ("LEGISLATIVE FINANCIAL STATEMENT"), else its document's ``name`` ("financialStatement" →
    "Financial statement"), else the element's kind."""
    for e in el.iter():
        if not isinstance(e.tag, str):
            continue
        name = _local(e.tag)
        if name in d.heading and e.getparent() is el or name in ("longTitle", "docTitle"):
            text = _squash("".join(e.itertext()))
            if text:
                return text[:120]
        if name in ("body", "mainBody", "mainContent"):
            break
    doc = next((c for c in el if isinstance(c.tag, str) and c.get("name")), None)
    if doc is not None:
        words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", doc.get("name")).replace("_", " ")
        return words[:1].upper() + words[1:].lower()
    return _local(el.tag).capitalize()


_NUMBER_BRACKETS = re.compile(r"[(\[]\s*([0-9]{1,5}[A-Za-z]{0,3}|[IVXLC]{1,6})\s*[)\]]")


def _container_number(printed: str) -> str:
    """A container's number as its heading shows it: the printed ``<num>`` without trailing
    punctuation (``Title 1—`` → ``Title 1``, ``§ 1.`` → ``§ 1``) and without brackets around the
    number (USLM compilations print ``Sec. (2)`` where the Act has "Sec. 2."; an editorial
    ``[Sec. 5`` bracket). The ``value`` attribute is not used: CFR writes ``§ 478.40a`` with
    ``value="478.40"``, so the printed number is the more precise one."""
    return _NUMBER_BRACKETS.sub(r"\1", printed.rstrip(" .—–-:")).strip(" [].—–-:")


def _is_footnote_ref(el) -> bool:
    """A footnote marker in running text: USLM ``<ref class="footnoteRef">`` or ``<footnoteRef>``
    (Akoma Ntoso ``<noteRef>`` and CLML ``<FootnoteRef>`` are empty and skipped)."""
    name = _local(el.tag)
    return name == "footnoteRef" or (
        name == "ref" and "footnote" in (el.get("class", "") + el.get("style", "")).lower()
    )


def _item_number(num: str) -> str:
    """A numbered provision's number in a form the section parser nests: bare ``2`` → ``(2)``,
    ``a`` → ``(a)``; printed forms (``(a)``, ``1.``, ``a)``, ``“(10)``, ``—``) are kept."""
    m = _BARE_ITEM_NUMBER.match(num)
    return f"({m.group(1)})" if m else num


def _squash(text: str) -> str:
    return " ".join(text.split())


def _document_title(root, d: Dialect) -> str | None:
    wanted = {
        USLM: ("title", "docTitle", "shortTitle"),
        AKOMA_NTOSO: ("shortTitle", "docTitle", "longTitle"),
        CLML: ("Title",),
        JUSTICE_CA: ("ShortTitle", "LongTitle"),
        US_BILL: ("title", "short-title", "official-title"),  # <dc:title>, else what the bill says it is called
    }[d]
    for name in wanted:
        for e in root.iter():
            if not isinstance(e.tag, str) or _local(e.tag) != name:
                continue
            ns = _namespace(e.tag)
            if d in (USLM, US_BILL) and name == "title" and "purl.org/dc" not in ns:
                continue
            if d is CLML and _local(e.getparent().tag) not in ("PrimaryPrelims", "SecondaryPrelims"):
                continue
            text = _squash("".join(e.itertext()))
            if text:
                return text
    return None
