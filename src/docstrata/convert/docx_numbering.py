"""The numbers and heading levels a Word document displays, read from the package itself.

mammoth (markitdown's DOCX engine) keeps neither: an automatically numbered clause comes out as a
Markdown ``1.`` whatever Word shows (``2.``, ``1.2``, ``(a)``, ``Article IV``), and a paragraph whose
style carries an outline level is a plain paragraph. :func:`word_paragraphs` reads
``word/document.xml``, ``word/numbering.xml`` and ``word/styles.xml`` (lxml, no entities, DTDs or
network) and returns every body paragraph in document order with the label Word displays in front
of it and its heading level; :func:`apply_word_numbers` writes those labels and levels into
markitdown's Markdown and says which Markdown line shows which paragraph, so the converter can
state them on its blocks (``docs/architecture.md``, "The converter contract").

Numbering follows ECMA-376 Part 1 §17.9:

* a paragraph's ``w:numPr`` names a numbering instance (``w:num``) and a level (``w:ilvl``); each
  of the two is its own (direct), else inherited from the nearest style of its ``basedOn`` chain
  that states it (a ``w:numId`` of ``0`` removes numbering); without a direct ``w:ilvl`` the level
  whose ``w:pStyle`` names the paragraph's style (else a style of its chain) wins over a style's
  ``w:ilvl`` (§17.9.23), else the style's ``w:ilvl``, else 0;
* an instance points at an abstract numbering (``w:abstractNumId``; an abstract numbering that only
  links a numbering style, ``w:numStyleLink``, is followed to the style's own instance); its
  ``w:lvlOverride`` may replace a level (``w:lvl``) or restart it (``w:startOverride``, applied the
  first time the instance is used);
* counters are kept per abstract numbering (instances of one abstract numbering continue one
  list, as Word shows them); using a level resets each deeper level whose ``w:lvlRestart`` allows
  it (default: any shallower level restarts it; ``0``: never), and a shallower level not used yet
  counts as its start value;
* ``w:lvlText`` placeholders ``%1`` … ``%9`` are filled with each level's counter in its own
  ``w:numFmt`` (``decimal``, ``decimalZero``, ``lowerLetter``, ``upperLetter``, ``lowerRoman``,
  ``upperRoman``; other formats as decimal), all in Arabic numerals under ``w:isLgl``; ``bullet``
  and ``none`` levels display no number;
* an empty paragraph that only carries a section break (``w:pPr/w:sectPr``) is the break, not a
  list entry: it neither shows nor uses a number.

Heading levels follow the paragraph: its own outline level (``w:outlineLvl``, ``val`` 0–8 → 1–9;
9 is body text), else the nearest style of its ``basedOn`` chain with an outline level or named
``Heading N`` (→ N) or ``Title`` (→ 0).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

from ..structure.grammar import PINPOINT, int_to_roman
from .run_in import SET_APART, MAX_TITLE_WORDS, emphasis_title, spans_of_runs, typed_title

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# set by :mod:`.docx_layout` on every paragraph it moves out of a table laid out as headed rows
LAYOUT_MARK = "{urn:docstrata:docx-layout}row"
_HEADING_NAME = re.compile(r"heading\s*([1-9])", re.I)


@dataclass(frozen=True)
class WordParagraph:
    """One body paragraph as Word displays it.

    Attributes:
        text: its text (runs joined, whitespace collapsed), without the number.
        label: the number Word displays in front of it (``"2."``, ``"1.2"``, ``"(a)"``,
            ``"Article IV."``); ``None`` when it is not numbered or its level is a bullet.
        ilvl: the numbering level (0 = outermost) when it is numbered, bullets included.
        heading_level: 1–9 for a ``Heading N`` style or an outline level, 0 for ``Title``, else ``None``.
        style: the paragraph style's name (``"heading 2"``, ``"List Paragraph"``), ``""`` when none.
        in_table: whether it sits in a table cell (numbered cells still count in their list).
        list_id: the abstract numbering it counts in (``None`` when unnumbered); paragraphs of one
            list share it across numbering instances.
        compound: whether its level's label shows more than one level (``%1.%2``).
        style_chain: the names and ids of its paragraph style and of every style that one is
            ``basedOn``, nearest first (``("Glossary Term", "GlossaryTerm", "Definition term",
            "Definitionterm", "Normal", "Normal")``); empty when it has no style.
        run_in_title: the bold phrase of at most 12 words closed by ``.`` or ``:`` (its own, or one
            right after it) it opens with,
            its text running on after it (``What the Company owns.`` of ``**What the Company
            owns.** The Company owns …``: the title a contract clause carries in its own
            paragraph); ``""`` when none.
        bold_heading: its whole text when every run of it is bold and it is at most 12 words
            (``LICENSE`` of ``1. **LICENSE**``: a clause head printed as a bold line); ``""`` else.
        run_in_heading: for a heading-styled paragraph that holds its clause's text, the title it
            opens with (``Damages Waiver`` of an underlined ``Damages Waiver`` then ``.  Except as
            provided in Section 9.3, …``: :func:`_run_in_heading`), ``""`` when it is running text
            with no title (``Except as provided in Section 9.3, each party's …`` styled
            ``Heading 3`` under its number ``(a)``); ``None`` when it reads as a heading.
        layout: whether it stood in a table laid out as headed rows (:mod:`.docx_layout`, which
            moved it into the flow): its row headings head nothing after the table.
    """

    text: str
    label: str | None
    ilvl: int | None
    heading_level: int | None
    style: str
    in_table: bool
    list_id: str | None = None
    compound: bool = False
    style_chain: tuple[str, ...] = ()
    run_in_title: str = ""
    bold_heading: str = ""
    run_in_heading: str | None = None
    layout: bool = False


@dataclass
class _Level:
    start: int = 1
    fmt: str = "decimal"
    text: str = ""
    style: str | None = None
    legal: bool = False
    restart: int | None = None  # w:lvlRestart: None = after any shallower level, 0 = never


@dataclass
class _Style:
    name: str
    based_on: str | None
    num_id: str | None
    ilvl: int | None
    outline: int | None


@dataclass
class _Numbering:
    abstract: dict[str, dict[int, _Level]] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)  # abstract id → numbering style id it links
    nums: dict[str, str] = field(default_factory=dict)  # num id → abstract id
    overrides: dict[str, dict[int, tuple[int | None, _Level | None]]] = field(default_factory=dict)


def _val(el, name: str = "val") -> str | None:
    return None if el is None else el.get(f"{_W}{name}")


def _int(text: str | None, default: int | None = None) -> int | None:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def _on(el) -> bool:
    return el is not None and (_val(el) or "true").lower() not in ("0", "false", "off")


def _level(lvl) -> _Level:
    restart = lvl.find(f"{_W}lvlRestart")
    return _Level(
        start=_int(_val(lvl.find(f"{_W}start")), 1) or 0,
        fmt=_val(lvl.find(f"{_W}numFmt")) or "decimal",
        text=_val(lvl.find(f"{_W}lvlText")) or "",
        style=_val(lvl.find(f"{_W}pStyle")),
        legal=_on(lvl.find(f"{_W}isLgl")),
        restart=_int(_val(restart)) if restart is not None else None,
    )


def _read_numbering(root) -> _Numbering:
    out = _Numbering()
    if root is None:
        return out
    for absn in root.iter(f"{_W}abstractNum"):
        aid = absn.get(f"{_W}abstractNumId")
        out.abstract[aid] = {_int(lvl.get(f"{_W}ilvl"), 0) or 0: _level(lvl) for lvl in absn.iter(f"{_W}lvl")}
        if (link := _val(absn.find(f"{_W}numStyleLink"))) is not None:
            out.links[aid] = link
    for num in root.iter(f"{_W}num"):
        nid = num.get(f"{_W}numId")
        out.nums[nid] = _val(num.find(f"{_W}abstractNumId")) or ""
        over: dict[int, tuple[int | None, _Level | None]] = {}
        for o in num.iter(f"{_W}lvlOverride"):
            lvl = o.find(f"{_W}lvl")
            over[_int(o.get(f"{_W}ilvl"), 0) or 0] = (
                _int(_val(o.find(f"{_W}startOverride"))),
                _level(lvl) if lvl is not None else None,
            )
        if over:
            out.overrides[nid] = over
    return out


def _read_styles(root) -> tuple[dict[str, _Style], str | None]:
    styles: dict[str, _Style] = {}
    default = None
    if root is None:
        return styles, None
    for st in root.iter(f"{_W}style"):
        sid = st.get(f"{_W}styleId")
        if not sid:
            continue
        num_pr = st.find(f"{_W}pPr/{_W}numPr")
        styles[sid] = _Style(
            name=(_val(st.find(f"{_W}name")) or "").strip(),
            based_on=_val(st.find(f"{_W}basedOn")),
            num_id=_val(num_pr.find(f"{_W}numId")) if num_pr is not None else None,
            ilvl=_int(_val(num_pr.find(f"{_W}ilvl"))) if num_pr is not None else None,
            outline=_int(_val(st.find(f"{_W}pPr/{_W}outlineLvl"))),
        )
        if st.get(f"{_W}type") == "paragraph" and (st.get(f"{_W}default") or "").lower() in ("1", "true", "on"):
            default = sid
    return styles, default


def _chain(styles: dict[str, _Style], sid: str | None):
    seen: set[str] = set()
    while sid and sid in styles and sid not in seen:
        seen.add(sid)
        yield sid, styles[sid]
        sid = styles[sid].based_on


def _heading_level(styles: dict[str, _Style], sid: str | None, direct_outline: int | None) -> int | None:
    """The paragraph's own outline level, else the nearest style of its ``basedOn`` chain that says
    one: by ``w:outlineLvl`` (9: body text, as ``TOC Heading`` sets over ``Heading 1``) or by name."""
    if direct_outline is not None:
        return direct_outline + 1 if 0 <= direct_outline < 9 else None
    for _, st in _chain(styles, sid):
        if st.outline is not None:
            return st.outline + 1 if 0 <= st.outline < 9 else None
        if m := _HEADING_NAME.fullmatch(st.name):
            return int(m.group(1))
        if st.name.lower() == "title":
            return 0
    return None


def _format(n: int, fmt: str) -> str:
    if fmt in ("upperLetter", "lowerLetter"):
        s = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1) if n > 0 else str(n)  # Word: Z, AA, BB
        return s.upper() if fmt == "upperLetter" else s.lower()
    if fmt in ("upperRoman", "lowerRoman"):
        return int_to_roman(n, upper=fmt == "upperRoman") if 0 < n < 4000 else str(n)
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


class _Counters:
    """The running counters of every abstract numbering (module docstring)."""

    def __init__(self, numbering: _Numbering, styles: dict[str, _Style]):
        self.numbering, self.styles = numbering, styles
        self.counts: dict[str, dict[int, int]] = {}
        self.used: set[str] = set()

    def abstract(self, num_id: str) -> str | None:
        """The abstract numbering an instance counts in (a ``numStyleLink`` followed), ``None`` if unknown."""
        aid = self.numbering.nums.get(num_id)
        seen: set[str] = set()
        while aid in self.numbering.links and aid not in seen:  # numStyleLink → the style's instance
            seen.add(aid)
            style = self.styles.get(self.numbering.links[aid])
            target = self.numbering.nums.get(style.num_id) if style and style.num_id else None
            if target is None:
                break
            aid = target
        return aid if aid in self.numbering.abstract else None

    def levels(self, num_id: str) -> dict[int, _Level]:
        aid = self.abstract(num_id)
        lvls = dict(self.numbering.abstract.get(aid, {})) if aid else {}
        for ilvl, (_, lvl) in self.numbering.overrides.get(num_id, {}).items():
            if lvl is not None:
                lvls[ilvl] = lvl
        return lvls

    def compound(self, num_id: str, ilvl: int) -> bool:
        """Whether the level's label shows more than one level's counter (``%1.%2``)."""
        lvl = self.levels(num_id).get(ilvl)
        return lvl is not None and len(set(re.findall(r"%[1-9]", lvl.text))) > 1

    def advance(self, num_id: str, ilvl: int) -> str | None:
        aid = self.abstract(num_id)
        lvls = self.levels(num_id)
        if aid is None or ilvl not in lvls:
            return None
        counter = self.counts.setdefault(aid, {})
        if num_id not in self.used:
            self.used.add(num_id)
            for k, (start, _) in self.numbering.overrides.get(num_id, {}).items():
                if start is not None:
                    counter[k] = start - 1
                    for deeper in [d for d in counter if d > k]:
                        del counter[deeper]
        for shallower in range(ilvl):
            if shallower in lvls and shallower not in counter:
                counter[shallower] = lvls[shallower].start
        counter[ilvl] = counter.get(ilvl, lvls[ilvl].start - 1) + 1
        for deeper in [k for k in counter if k > ilvl]:
            restart = lvls[deeper].restart if deeper in lvls else None
            if restart is None or (restart != 0 and ilvl < restart):
                del counter[deeper]
        level = lvls[ilvl]
        if level.fmt == "bullet":
            return None

        def fill(m: re.Match) -> str:
            k = int(m.group(1)) - 1
            fmt = lvls[k].fmt if k in lvls else "decimal"
            if fmt == "none":
                return ""
            if level.legal and fmt != "decimalZero":
                fmt = "decimal"
            return _format(counter.get(k, lvls[k].start if k in lvls else 1), fmt)

        label = " ".join(re.sub(r"%([1-9])", fill, level.text).split())
        return label or None


def _numbering_of(
    p, style_id: str | None, styles: dict[str, _Style], counters: _Counters
) -> tuple[str | None, int | None]:
    """The numbering instance and level of a paragraph (ECMA-376 Part 1 §17.3.1.19, §17.7.3, §17.9.23).

    ``w:numId`` and ``w:ilvl`` are inherited separately: each comes from the paragraph's own
    ``w:numPr``, else from the nearest style of its ``basedOn`` chain that states it (``GPS L3``
    based on ``GPS L2`` may state only ``ilvl 2`` and take ``numId`` from ``GPS L2``). Without a
    direct ``w:ilvl``, a level of the instance whose ``w:pStyle`` names the paragraph's style (or,
    failing that, the nearest style of its chain) is the level: §17.9.23 has it override a level
    a style states; else the style's ``w:ilvl``; else 0."""
    num_pr = p.find(f"{_W}pPr/{_W}numPr")
    num_id = _val(num_pr.find(f"{_W}numId")) if num_pr is not None else None
    ilvl = _int(_val(num_pr.find(f"{_W}ilvl"))) if num_pr is not None else None
    chain = list(_chain(styles, style_id))
    style_ilvl = next((st.ilvl for _, st in chain if st.ilvl is not None), None)
    if num_id is None:
        num_id = next((st.num_id for _, st in chain if st.num_id is not None), None)
    if num_id is None or num_id == "0":
        return None, None
    if ilvl is None:
        by_style = {lv.style: k for k, lv in sorted(counters.levels(num_id).items(), reverse=True) if lv.style}
        ilvl = next((by_style[sid] for sid, _ in chain if sid in by_style), style_ilvl)
    return num_id, ilvl or 0


def _text(p) -> str:
    parts = []
    for el in p.iter(f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}noBreakHyphen"):
        if el.tag == f"{_W}t":
            parts.append(el.text or "")
        else:
            parts.append("-" if el.tag == f"{_W}noBreakHyphen" else " ")
    return " ".join("".join(parts).split())


def word_paragraphs(data: bytes) -> list[WordParagraph]:
    """Every paragraph of a .docx body in document order (table cells included, marked
    ``in_table``), with the number Word displays and its heading level (module docstring).

    Raises ``KeyError`` (no ``word/document.xml``), ``zipfile.BadZipFile`` or
    ``lxml.etree.XMLSyntaxError`` for a damaged package.
    """
    import zipfile

    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        document = etree.fromstring(z.read("word/document.xml"), parser)

        def part(name: str):
            return etree.fromstring(z.read(name), parser) if name in names else None

        numbering, styles_xml = part("word/numbering.xml"), part("word/styles.xml")
    styles, default_style = _read_styles(styles_xml)
    counters = _Counters(_read_numbering(numbering), styles)
    body = document.find(f"{_W}body")
    out: list[WordParagraph] = []
    for p in body.iter(f"{_W}p") if body is not None else ():
        if any(a.tag == f"{_W}txbxContent" for a in p.iterancestors()):
            continue  # a text box's paragraphs are drawn apart from the flow
        style_id = _val(p.find(f"{_W}pPr/{_W}pStyle")) or default_style
        text = _text(p)
        if not text and p.find(f"{_W}pPr/{_W}sectPr") is not None:
            continue  # an empty paragraph that only carries a section break shows, and counts, no number
        num_id, ilvl = _numbering_of(p, style_id, styles, counters)
        label, list_id, compound = None, None, False
        if num_id is not None and ilvl is not None:
            label, list_id = counters.advance(num_id, ilvl), counters.abstract(num_id)
            compound = counters.compound(num_id, ilvl)
        else:
            ilvl = None
        in_table = any(a.tag == f"{_W}tbl" for a in p.iterancestors())
        heading = _heading_level(styles, style_id, _int(_val(p.find(f"{_W}pPr/{_W}outlineLvl"))))
        name = styles[style_id].name if style_id and style_id in styles else ""
        runs = spans_of_runs(("".join(el.text or "" for el in r.iter(f"{_W}t")), _marks(r)) for r in p.iter(f"{_W}r"))
        out.append(
            WordParagraph(
                text=text,
                label=label,
                ilvl=ilvl,
                heading_level=heading,
                style=name,
                in_table=in_table,
                list_id=list_id,
                compound=compound,
                style_chain=tuple(x for sid, st in _chain(styles, style_id) for x in (st.name, sid)),
                run_in_title=_opens_with_bold_title(runs),
                bold_heading=_bold_heading(p, text),
                run_in_heading=_run_in_heading(runs, text) if heading else None,
                layout=p.get(LAYOUT_MARK) is not None,
            )
        )
    return out


def _marks(r) -> frozenset[str]:
    """The emphasis a run sets directly (``w:b``, ``w:i``, ``w:u`` other than ``none``)."""
    rpr = r.find(f"{_W}rPr")
    if rpr is None:
        return frozenset()
    out = set()
    for name in sorted(SET_APART):
        el = rpr.find(f"{_W}{name}")
        if el is None:
            continue
        val = (_val(el) or "true").lower()
        if val not in ("0", "false", "off", "none"):
            out.add(name)
    return frozenset(out)


def _running_text(text: str) -> bool:
    """Whether ``text`` reads as a clause's text rather than a heading: 8 words or more, closing
    like a sentence or a lead-in (``.``, ``;``, ``:``) or as an item of a list (``; or``,
    ``, and``), or 4 words or more opening in lower case (``if the other party fails …``)."""
    words = text.split()
    if len(words) >= 4 and words[0][:1].islower():
        return True
    return len(words) >= 8 and bool(re.search(r"(?:[.;:]|[;,]\s+(?:or|and))\s*$", text))


def _run_in_heading(runs: tuple[str, list], text: str) -> str | None:
    """What a heading-styled paragraph (its runs' text and emphasis ``runs``, its text ``text``)
    holds when it is its clause's text with the title run in (module-level contract:
    :attr:`WordParagraph.run_in_heading`).

    The title is the paragraph's opening runs set apart by an emphasis the runs after them do not
    carry (underline, bold or italic: Word's run-in heading, ``Damages Waiver`` underlined and the
    clause text plain or bold), closed by its own full stop or colon, one right after it or text
    opening with a capital (:func:`.run_in.emphasis_title`); else a plain-type title
    (:func:`.run_in.typed_title`: ``Governing Law. This Agreement …``) with at least three words
    after it. With neither, a paragraph that reads as running text (:func:`_running_text`) has no
    title (``""``); any other is a heading (``None``)."""
    found = emphasis_title(*runs, own_close=False)
    if found is not None:
        return found.title
    typed = typed_title(text)
    if typed is not None and len(typed.body.split()) >= 3:
        return typed.title
    return "" if _running_text(text) else None


def _opens_with_bold_title(runs: tuple[str, list]) -> str:
    """The title a paragraph (its runs' text and emphasis ``runs``) opens with: directly bold runs
    closed by their own ``.`` or ``:`` or by one right after them in plain type (``**Introduction**.
    This NDA …``), with text after them (:func:`.run_in.emphasis_title`), as printed; ``""`` when
    none."""
    found = emphasis_title(*runs, {"b"}, close_after=True)
    return found.heading if found is not None else ""


def _bold_heading(p, text: str) -> str:
    """``text`` when every run of paragraph ``p`` that shows text is bold and it is 1–12 words,
    else ``""``."""
    words = text.split()
    if not 0 < len(words) <= MAX_TITLE_WORDS:
        return ""
    for r in p.iter(f"{_W}r"):
        if not "".join(el.text or "" for el in r.iter(f"{_W}t")).strip():
            continue
        b = r.find(f"{_W}rPr/{_W}b")
        if b is None or _val(b) in ("0", "false", "off"):
            return ""
    return " ".join(words)


def _typed_title(text: str) -> str:
    """The plain-type title ``text`` opens with, as printed (:func:`.run_in.typed_title`:
    ``Grant of Copyright License.``), or ``""``."""
    found = typed_title(text)
    return found.heading if found is not None else ""


def _untitled_clauses(paragraphs: list[WordParagraph], outline: set[str]) -> tuple[set[str], dict[int, str]]:
    """Clauses Word leaves unnumbered inside a list of titled clauses: ``(lists, clauses)``.

    A list (not the outline already) whose top-level items outside tables include two or more
    that open with a title (bold or typed: ``1. Definitions.``, ``2. Grant of Patent License.
    Subject to …``) holds, between its first and last top-level item, an unnumbered body
    paragraph that opens with a title of the same form and runs on (``Grant of Copyright License.
    Subject to …``, its number dropped by the author, as a contributor agreement copied from
    Apache's lost its clause 2): that paragraph is a clause of the list, unnumbered. ``lists``: the
    ids of such lists (they are the clause outline); ``clauses``: ``id(paragraph)`` → its title."""
    tops: dict[str, list[int]] = {}
    for k, p in enumerate(paragraphs):
        if p.label and p.list_id is not None and p.list_id not in outline and p.ilvl == 0:
            if not p.in_table and p.heading_level is None:
                tops.setdefault(p.list_id, []).append(k)
    lists: set[str] = set()
    clauses: dict[int, str] = {}
    for lid, ks in tops.items():
        titled = [
            k
            for k in ks
            if paragraphs[k].run_in_title or paragraphs[k].bold_heading or _typed_title(paragraphs[k].text)
        ]
        if len(titled) < 2:
            continue
        found = {}
        for p in paragraphs[ks[0] + 1 : ks[-1]]:
            if p.label is not None or p.ilvl is not None or p.in_table or p.heading_level is not None:
                continue
            typed = typed_title(p.text)
            if typed is not None and typed.body:
                found[id(p)] = typed.heading
        if found:
            lists.add(lid)
            clauses.update(found)
    return lists, clauses


def _clause_series(paragraphs: list[WordParagraph]) -> dict[int, tuple[int, str]]:
    """A contract's clauses numbered as separate Word lists (each clause its own list, its
    number a start value, or a few lists each restarting where the last stopped: ``w:start`` /
    ``w:startOverride`` 11 after clause 10): ``id(paragraph)`` → (depth, title) for the longest
    run of top-level paragraphs outside tables labelled ``1.``, ``2.``, ``3.`` … in document order
    (three titled or more), depth 0. A clause opening a list — the run's first, or one whose
    number a new numbering instance continues — is titled by a bold run-in title or printed as a
    bold line (``1. **LICENSE**``); one that goes on in the list of the clause before it is a
    clause of the run whether titled or not (Word's own counter joins them: ``8. Any duty that …``
    between ``7. **Restrictions …**`` and ``9. **Commercial Cloud Services**``). The lettered
    top-level paragraphs between two of them (``a.``, ``(b)``) are depth 1 — the sub-clauses Word
    prints at the same indent. Empty when there is no such run."""
    top = [p for p in paragraphs if p.label and p.ilvl == 0 and not p.in_table and p.heading_level is None]
    best: list[WordParagraph] = []
    run: list[WordParagraph] = []
    last = 0  # the number of the run's last clause

    def titled(p: WordParagraph) -> bool:
        return bool(p.run_in_title or p.bold_heading)

    for p in top:
        digits = (p.label or "").strip().rstrip(".)")
        if not (digits.isdigit() and len(digits) <= 3):
            continue
        n = int(digits)
        if run and n == last + 1 and (titled(p) or p.list_id == run[-1].list_id):
            run.append(p)
        else:
            run = [p] if titled(p) and n == 1 else []
        last = n
        if sum(map(titled, run)) > sum(map(titled, best)) or (run and best and run[0] is best[0]):
            best = list(run)  # the run with most titled clauses, with the untitled ones it goes on to
    if sum(map(titled, best)) < 3:
        return {}
    out = {id(p): (0, (p.run_in_title or p.bold_heading).rstrip(".:").strip()) for p in best}
    inside = False
    for p in top:
        if id(p) in out:
            inside = True
        elif inside and (p.label or "").strip("().").isalpha() and section_number(p.label or "", 1).startswith("("):
            out[id(p)] = (1, p.run_in_title.rstrip(".:").strip())
    return out


_SENTENCE_END = (".", ";", "。", "；", "!", "?", "！", "？")


def _caption(p: WordParagraph) -> bool:
    """Whether ``p`` reads as a list's caption line: unnumbered body text of at most 6 words (20
    characters when it has no spaces, as Chinese or Japanese text) with no closing punctuation
    (``English Version``, ``中文版``)."""
    text = p.text.strip()
    if (
        p.label is not None
        or p.heading_level is not None
        or not text
        or text.endswith((*_SENTENCE_END, ",", ":", "：", "，"))
    ):
        return False
    return len(text.split()) <= 6 and len(text) <= (60 if " " in text else 20)


def _restarting_lists(paragraphs: list[WordParagraph]) -> tuple[dict[int, str], dict[int, str]]:
    """A document's provisions numbered as lists that restart under each heading or bold title:
    ``(heads, clauses)``. ``clauses`` maps ``id(paragraph)`` of each item of such a list to what its
    list follows: ``"heading"``, ``"title"`` (a bold title line: every run bold, at most 12 words)
    or ``"caption"`` (a caption line right above the list, :func:`_caption`: ``English Version``
    over the terms in English, ``中文版`` over the same terms in Chinese); ``heads`` maps ``id`` of
    each such bold title to ``"title"`` and of each caption to ``"caption/title"`` or
    ``"caption/heading"`` (what the caption itself stands under). A list qualifies when it is a run
    of top-level items outside tables of one list numbered ``1.``, ``2.``, ``3.`` … (three or more,
    decimal), each a sentence (closing with ``.``, ``;`` …), with a heading (``Heading N``, outline
    level) or a bold title somewhere above it; the document must hold two such lists or more (the
    numbering restarts: each list is the numbered body of what it follows, as a data-use agreement
    numbers its terms 1–10 under each version), and their items must be at least as many as its
    headings (where headings far outnumber them, as in a specification whose procedures number
    their steps, the lists are steps within sections). Both empty otherwise."""
    runs: list[tuple[list[WordParagraph], WordParagraph, WordParagraph | None]] = []
    anchor: WordParagraph | None = None
    run: list[WordParagraph] = []
    run_anchor: WordParagraph | None = None
    run_caption: WordParagraph | None = None
    prev: WordParagraph | None = None

    def close() -> None:
        if len(run) >= 3 and run_anchor is not None and all(q.text.rstrip().endswith(_SENTENCE_END) for q in run):
            runs.append((list(run), run_anchor, run_caption))
        run.clear()

    for p in paragraphs:
        if p.in_table or not _key(p.text):
            continue
        if p.label is not None and p.ilvl and run and p.list_id == run[0].list_id:
            continue  # a nested item of the run's list: an item of its clause
        digits = (p.label or "").strip().rstrip(".)")
        top = p.label is not None and p.ilvl == 0 and p.heading_level is None and digits.isdigit()
        if top and run and p.list_id == run[0].list_id and int(digits) == len(run) + 1:
            run.append(p)
            prev = p
            continue
        close()
        if top and int(digits) == 1 and anchor is not None:
            run.append(p)
            run_anchor = anchor
            run_caption = prev if prev is not None and prev is not anchor and _caption(prev) else None
        elif p.heading_level is not None or (p.label is None and p.bold_heading):
            anchor = p
        prev = p
    close()
    headings = sum(1 for p in paragraphs if p.heading_level is not None)
    if len(runs) < 2 or sum(len(items) for items, _, _ in runs) < headings:
        return {}, {}  # a specification's numbered steps among its many headings are steps, not its clauses
    heads: dict[int, str] = {}
    clauses: dict[int, str] = {}
    for items, a, caption in runs:
        under = "heading" if a.heading_level is not None else "title"
        if under == "title":
            heads[id(a)] = "title"
        if caption is not None:
            heads[id(caption)] = f"caption/{under}"
        for q in items:
            clauses[id(q)] = "caption" if caption is not None else under
    return heads, clauses


# --------------------------------------------------------------------------- Markdown

# a list marker; mammoth writes an ordered list nested straight in a bullet item as "* 1. text"
_LIST_MARK = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:[-*+]|\d{1,9}[.)])[ \t]+")
_ATX = re.compile(r"^(#{1,6})[ \t]+")
_MARKUP = re.compile(r"</?u>|\\(?=[\\`*_{}\[\]()#+\-.!|])|\[([^\]]*)\]\([^)]*\)|[*_]{1,3}")


def _key(text: str) -> str:
    """Text reduced to letters and digits, lower-cased (Markdown emphasis, links and escapes dropped)."""
    text = _MARKUP.sub(lambda m: m.group(1) or "", text)
    return re.sub(r"[^\w]+", "", text.lower())[:80]


def _same(paragraph: str, line: str) -> bool:
    """A line shows a paragraph: equal keys, or one opening the other when a line break inside
    the paragraph (``w:br``) cut the line short (at least 12 letters and digits in common)."""
    return (
        paragraph == line
        or min(len(paragraph), len(line)) >= 12
        and (paragraph.startswith(line) or line.startswith(paragraph))
    )


@dataclass(frozen=True)
class LineNumber:
    """What :func:`apply_word_numbers` states about one Markdown line: the paragraph's displayed
    ``label`` (or ``None``), its heading ``level`` (``None`` for body text) and numbering level
    ``ilvl`` (``None`` when unnumbered); ``outline``: whether the paragraph's list is the document's
    clause outline (a list some heading-styled paragraph or some multi-level label ``1.2`` uses),
    whose numbers are section numbers rather than the steps of a list; ``title``: the clause's
    bold run-in title where that is what makes its list the outline (``What the Company owns``);
    ``nested``: whether ``level`` counts from the heading or bold title above the clause (a clause
    of a list that restarts under each heading) rather than from its numbering level."""

    label: str | None
    level: int | None
    ilvl: int | None
    outline: bool = False
    title: str | None = None
    nested: bool = False


def apply_word_numbers(markdown: str, paragraphs: list[WordParagraph]) -> tuple[str, dict[int, LineNumber]]:
    """Write the numbers and heading levels Word displays into markitdown's Markdown.

    Lines are matched to paragraphs outside tables in document order on their letters and digits
    (:func:`_same`; a paragraph mammoth drops is skipped, at most 12 ahead). A matched numbered paragraph's line
    shows Word's label in place of mammoth's list marker (``1. Fees`` → ``2. Fees``, ``1. the
    Customer`` → ``(a) the Customer``; nested items start at the margin, the label carries their
    depth); a heading keeps its ``#`` marks with the label after them. A paragraph whose style has
    an outline level but which mammoth wrote as body text becomes an ATX heading of that level (at
    most 6 ``#``). Returns the new Markdown and, per matched line index (0-based) of it, the
    :class:`LineNumber` stated for it; the text of each line is otherwise unchanged.
    """
    lines = markdown.split("\n")
    flow = [p for p in paragraphs if not p.in_table and _key(p.text)]
    outline = {
        p.list_id
        for p in paragraphs
        if p.label and p.list_id is not None and (p.compound or (p.heading_level or 0) > 0)
    }
    # in a document with no such list, one whose every top-level item carries its own bold run-in
    # title is a contract's clause outline ("1. **What the Company owns.** The Company owns …"); its clauses sit one level below
    # the heading above them
    titled: dict[str, list[bool]] = {}
    for p in paragraphs:
        if p.label and p.list_id is not None and p.ilvl == 0 and not p.in_table and p.heading_level is None:
            titled.setdefault(p.list_id, []).append(bool(p.run_in_title))
    clause_lists = (
        {lid for lid, flags in titled.items() if len(flags) >= 2 and all(flags)} if not outline else set()
    )  # only where no list is the outline already (a compound or heading-styled one states the clauses)
    # a paragraph Word leaves unnumbered among titled clauses, opening with a title like theirs, is a clause too
    untitled_lists, unnumbered = _untitled_clauses(paragraphs, outline)
    clause_lists |= untitled_lists
    outline |= clause_lists
    # clauses numbered as one list per clause (each a start value): the run of titled 1., 2., 3. …
    series = _clause_series(paragraphs) if not outline else {}
    # else lists restarting at 1 under each heading or bold title: the numbered body of what they follow
    heads, restarting = _restarting_lists(paragraphs) if not outline and not series else ({}, {})
    heading_above = outer_above = 0
    in_layout = False
    head_levels = {"heading": 0, "title": 0, "caption": 0}  # what a restarting list's clauses nest under
    stated: dict[int, LineNumber] = {}
    bodies: dict[int, str] = {}  # line index → the clause text split off its run-in heading
    pos = 0
    cells = [p for p in paragraphs if p.in_table and p.ilvl is not None and _key(p.text)]
    cell_pos = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("|"):
            cell_pos = _number_cells(lines, i, cells, cell_pos)
            continue
        if not stripped or pos >= len(flow):
            continue
        heading = _ATX.match(line)
        body = line[heading.end() :] if heading else _LIST_MARK.sub("", line, count=1)
        key = _key(body)
        if not key:
            continue
        j = next((k for k in range(pos, min(pos + 12, len(flow))) if _same(_key(flow[k].text), key)), None)
        if j is None:
            continue
        pos = j + 1
        p = flow[j]
        if p.layout != in_layout:  # a table's row headings head what the table holds, not what follows it
            if p.layout:
                outer_above = heading_above
            else:
                heading_above = outer_above
            in_layout = p.layout
        level = p.heading_level if p.heading_level is not None else (len(heading.group(1)) if heading else None)
        in_series = id(p) in series
        if level and (p.label is None or p.list_id not in clause_lists) and not in_series:
            heading_above = level
        head_levels["heading"] = heading_above
        if id(p) in heads and level is None:  # the bold title or caption a restarting list follows: a heading
            kind = heads[id(p)]
            under = head_levels["title"] if kind == "caption/title" else heading_above
            level = head_levels["caption" if kind.startswith("caption") else "title"] = under + 1
            shown = _MARKUP.sub(lambda m: m.group(1) or "", stripped) if stripped.startswith("**") else stripped
            lines[i] = f"{'#' * max(1, min(level, 6))} {shown}"
            stated[i] = LineNumber(None, level, None)
            continue
        if id(p) in unnumbered and level is None:  # an unnumbered clause: a sibling of the numbered ones
            stated[i] = LineNumber(None, heading_above + 1, 0, True, unnumbered[id(p)].rstrip(".").strip(), True)
            continue
        if p.label is None and p.ilvl is None and level is None:
            continue
        if p.label is not None:
            shown = body.lstrip()
            typed = re.escape(p.label.rstrip(".").strip())
            if typed and re.match(rf"{typed}(?![\w.]*\w)", _MARKUP.sub(lambda m: m.group(1) or "", shown)):
                text = shown  # the label is typed in the text already ("2.", not "2024 revenue")
            else:
                text = f"{p.label} {shown}"
            lines[i] = (
                f"{heading.group(1)} {text}"
                if heading
                else (f"{'#' * max(1, min(level, 6))} {text}" if level else text)
            )
        elif level and not heading and not _LIST_MARK.match(line):
            lines[i] = f"{'#' * max(1, min(level, 6))} {stripped}"
        if p.label is not None and p.list_id in clause_lists and level is None:
            level = heading_above + (p.ilvl or 0) + 1  # the clause's depth under its heading
        title = (p.run_in_title or _typed_title(p.text)).rstrip(".:").strip() if p.list_id in clause_lists else None
        ilvl = p.ilvl
        if in_series and level is None:
            depth, title = series[id(p)]
            level, ilvl = heading_above + depth + 1, depth  # a sub-clause's "a." is a pinpoint of its clause
        in_restarting = id(p) in restarting
        if in_restarting and level is None:
            level, ilvl = head_levels[restarting[id(p)]] + 1, 0
        if p.heading_level and p.run_in_heading is not None and (p.run_in_heading or p.label):
            split = _split_run_in(lines[i], p.label, p.run_in_heading)
            if split is not None:  # a clause styled as a heading: its title heads, its text is its body
                lines[i], bodies[i] = split
        stated[i] = LineNumber(
            p.label,
            level,
            ilvl,
            p.list_id in outline or in_series or in_restarting,
            title or None,
            nested=in_series or in_restarting,
        )
    if bodies:  # each split heading's text follows it as a paragraph: later lines move down two
        out: list[str] = []
        moved: dict[int, LineNumber] = {}
        for i, line in enumerate(lines):
            if i in stated:
                moved[len(out)] = stated[i]
            out.append(line)
            if i in bodies:
                out += ["", bodies[i]]
        lines, stated = out, moved
    return "\n".join(lines), stated


_TITLE_GAP = re.compile(r"[\s.:—–-]+")
_INLINE_MARK = re.compile(r"</?u>|\*{1,3}|_{2,3}|\\(?=[\\`*_{}\[\]()#+\-.!|])")


def _split_run_in(line: str, label: str | None, title: str) -> tuple[str, str] | None:
    """``(heading line, body)`` of the ATX line ``line`` showing a heading-styled clause whose
    title is ``title`` (``""``: none) and whose text runs on after it: the heading keeps its ``#``
    marks, the label and the title; the body is the rest of the line with its emphasis balanced.
    ``None`` when the line does not show the title and text after it."""
    heading = _ATX.match(line)
    if heading is None:
        return None
    pos = heading.end()
    if label:
        shown = label.strip()
        if line.startswith(shown, pos):
            pos += len(shown)
    wanted = [c for c in title.lower() if c.isalnum()]
    k = 0
    while k < len(wanted) and pos < len(line):
        m = _INLINE_MARK.match(line, pos)
        if m:
            pos = m.end()
            continue
        c = line[pos].lower()
        if c.isalnum():
            if c != wanted[k]:
                return None
            k += 1
        pos += 1
    if k < len(wanted):
        return None
    while pos < len(line):  # the title's closing emphasis and the full stop, colon or dash after it
        m = _INLINE_MARK.match(line, pos)
        if m and m.group() != "</u>" and (m.group() == "<u>" or line[:pos].count(m.group()) % 2 == 0):
            break  # emphasis opening the text, not closing the title
        m = m or _TITLE_GAP.match(line, pos)
        if not m:
            break
        pos = m.end()
    body = line[pos:].strip()
    if len(body.split()) < 3:
        return None
    if body.count("**") % 2:
        body = "**" + body
    if body.find("</u>") != -1 and (body.find("<u>") == -1 or body.find("</u>") < body.find("<u>")):
        body = "<u>" + body
    head = " ".join(x for x in (heading.group(1), label.strip() if label else "", title) if x)
    return head, body


# mammoth's list marker inside a Markdown table cell: at the cell's start or after a space
_CELL_MARK = re.compile(r"(?:(?<=\|)|(?<=\s))[ \t]*(\d{1,3}\.|[*+-])[ \t]+(?=\S)")


def _number_cells(lines: list[str], i: int, numbered: list[WordParagraph], pos: int) -> int:
    """Rewrite, in the table row ``lines[i]``, each list marker mammoth wrote (``1.``, ``2.``: it
    counts every list in a cell from 1; ``*``) as the label Word displays for that paragraph
    (``a)``), or drop it when Word shows none (a numbered style whose level has no text) or the
    text types the label already. A marker is taken for
    a paragraph only when the words after it open that paragraph's text (``numbered``: the
    numbered table paragraphs in order, searched from ``pos``, at most 12 ahead); returns the new
    ``pos``."""
    line = lines[i]
    out, last = [], 0
    for m in _CELL_MARK.finditer(line):
        if pos >= len(numbered):
            break
        key = _key(line[m.end() : m.end() + 60].split("|")[0])[:16]
        if len(key) < 4:
            continue
        j = next((k for k in range(pos, min(pos + 12, len(numbered))) if _key(numbered[k].text).startswith(key)), None)
        if j is None:
            continue
        pos = j + 1
        label = numbered[j].label
        typed = label and _MARKUP.sub(lambda g: g.group(1) or "", line[m.end() :]).startswith(label)
        out.append(line[last : m.start(1)])
        out.append(f"{label} " if label and not typed else "")
        last = m.end()
    if out:
        lines[i] = "".join(out) + line[last:]
    return pos


def section_number(label: str, ilvl: int) -> str:
    """The section number a displayed label states: the closing ``.`` or ``)`` goes (``"2."`` →
    ``"2"``, ``"Article IV."`` → ``"Article IV"``); a lone enumerator below the outermost level is
    a pinpoint of the clause above it, written as the citation grammar writes one (``"a."``,
    ``"a)"``, ``"(a)"`` at level 2 → ``"(a)"``, so the section under ``1.2`` is ``1.2(a)``)."""
    shown = label.strip()
    inner = shown.strip("().").rstrip(")")
    if (
        ilvl > 0
        and "." not in inner
        and re.fullmatch(PINPOINT, f"({inner})")
        and re.fullmatch(r"\(?[^()\s]+[.)]?", shown)
    ):
        return f"({inner})"
    return shown[:-1] if shown.endswith((".", ")")) and not shown.startswith("(") else shown


def stated_blocks(markdown: str, blocks: list, stated: dict[int, LineNumber]) -> list:
    """``blocks`` (cut from ``markdown`` by :func:`~.document.markdown_blocks`) with what Word states
    about their first line (``stated``, from :func:`apply_word_numbers`), provenance ``numbering``:

    * a paragraph of the clause outline (:class:`LineNumber` ``outline``) is a ``heading`` block whose
      ``number`` is :func:`section_number` of its label and whose ``level`` is its numbering level + 1:
      the structure stage takes it as stated (``docs/architecture.md``, "Stated structure");
    * another numbered paragraph (the steps of a list) is a ``list_item`` whose ``number`` is the
      label as displayed, its ``level`` the numbering level + 1: detection reads it from the text;
    * an unnumbered heading takes its style's level.

    Other blocks are returned unchanged."""
    import bisect

    starts, pos = [], 0
    for ln in markdown.split("\n"):
        starts.append(pos)
        pos += len(ln) + 1
    out = []
    for whole in blocks:
        for b in _split_at_stated(markdown, whole, starts, stated):
            out.append(_stated_block(b, stated.get(bisect.bisect_right(starts, b.start) - 1)))
    return out


def _split_at_stated(markdown: str, b, starts: list[int], stated: dict[int, LineNumber]) -> list:
    """A block of several lines (a Markdown list: mammoth writes a whole numbered list as one) cut
    at each later line Word states a number for, so every numbered paragraph opens its own block;
    tables and code stay whole."""
    import bisect
    from dataclasses import replace

    if b.kind in ("table", "code"):
        return [b]
    first = bisect.bisect_right(starts, b.start) - 1
    last = bisect.bisect_right(starts, max(b.start, b.end - 1)) - 1
    cuts = [starts[i] for i in range(first + 1, last + 1) if i in stated and stated[i].label is not None]
    if not cuts:
        return [b]
    pieces, begin = [], b.start
    for cut in [*cuts, None]:
        end = b.end if cut is None else cut
        text = markdown[begin:end].rstrip()
        if text.strip():
            lead = len(text) - len(text.lstrip())
            s, e = begin + lead, begin + len(text)
            pieces.append(replace(b, text=markdown[s:e], start=s, end=e))
        begin = end if cut is not None else begin
    return pieces


def _stated_block(b, info: LineNumber | None):
    """``b`` with what Word states about its first line (:func:`stated_blocks`)."""
    from dataclasses import replace

    if info is None or b.kind in ("table", "code"):
        return b
    if info.label is not None and info.outline:
        return replace(
            b,
            kind="heading",
            provenance="numbering",
            level=info.level
            if (info.title or info.nested) and info.level
            else (info.ilvl or 0) + 1,  # a titled or nested clause: under its heading
            number=section_number(info.label, info.ilvl or 0),
            title=info.title or b.title,
        )
    if info.outline and info.level:  # a clause Word leaves unnumbered among numbered ones
        return replace(b, kind="heading", provenance="numbering", level=info.level, title=info.title or b.title)
    if info.label is not None:
        return replace(
            b,
            kind="list_item" if b.kind != "heading" else "heading",
            provenance="numbering",
            number=info.label,
            level=(info.ilvl or 0) + 1,
        )
    if b.kind == "heading" and info.level:
        return replace(b, level=info.level)
    return b
