"""mmark Markdown (IETF RFCs and Internet-Drafts) → :class:`~.document.ConvertedDocument`.

An mmark source opens with a title block between ``%%%`` lines (TOML: ``title``, ``[seriesInfo]``,
``[[author]]`` …), then the front matter (``.# Abstract``, other ``.#`` notes), ``{mainmatter}``
(the numbered sections) and ``{backmatter}`` (appendices); the division switches stand alone on
their line. Section numbers are not written: xml2rfc implies them from heading levels and order,
and this converter computes them the same way: ``1``, ``1.1``, ``2`` … in the main matter, ``A``,
``A.1``, ``B`` … in the back matter. A heading takes no number (nor do its subsections, and it uses
none up) when it is a special section (``.# Abstract``, ``.# Acknowledgements``), when a block
attribute line above it says ``{numbered="false"}``, or when it stands before ``{mainmatter}``; an
unnumbered heading that prints its own label (``# Appendix A. Example Certificate``) states that
label. A document with no ``{mainmatter}`` is numbered from its first heading. Headings are
written as the rendered RFC prints them (``1.1.  Notational Conventions``, ``Appendix A.  Examples``)
and are ``markup`` heading blocks stating level and number, so the structure stage builds sections
``1.1`` and ``appendix-a`` from them directly. ``{#anchor}`` (after the title or on the attribute
line above) is stripped and kept as the heading's anchor (without one, mmark's id from the title).
Cross references ``(#anchor)`` / ``[](#anchor)`` become ``Section 3.1`` / ``Appendix A`` as xml2rfc
prints them (``[words](#anchor)``: the words); citations ``[@RFC2119]``, ``[@!RFC8174;@?RFC9110]``
become ``[RFC2119]``, ``[RFC8174], [RFC9110]``, one with a section suffix ``[@RFC4648, section 5]``
``Section 5 of [RFC4648]``, a suppressed one ``[@-RFC1000]`` nothing; index marks ``(!item)``,
block attribute lines, division switches and ``<reference>`` XML blocks (the bibliography mmark
hands to xml2rfc) are dropped; an include ``{{file}}`` cannot be followed and is reported in the
warnings. The title block gives the document's title, never a section. Family facts come from
:data:`docstrata.profiles.mmark.PROFILE`; see ``docs/architecture.md`` ("Adding a family").
"""

from __future__ import annotations

import re

from .document import ConvertedDocument
from .rfc_markdown import FENCE, next_number, rendered_heading, rewrite_lines, with_stated_headings

_TITLE_BLOCK = re.compile(r"\A(?:\ufeff)?%{3,}[ \t]*\n(.*?)(?:\n%{3,}[ \t]*(?:\n|\Z))", re.S)
_DIVISION = re.compile(r"^[ \t]*\{(frontmatter|mainmatter|backmatter)\}[ \t]*$")
_HEADING = re.compile(r"^(\.?)(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
_HEADING_ID = re.compile(r"[ \t]*\{#([^\s{}]+)[^{}]*\}[ \t]*$")
_ATTRIBUTES = re.compile(r"^[ \t]*\{(?!\{)([^{}]*)\}[ \t]*$")  # a block attribute line: {#id numbered="false"}
_UNNUMBERED = re.compile(r"""\bnumbered\s*=\s*["']?false""")
_ATTR_ID = re.compile(r"(?:^|\s)#([^\s{}\"']+)")
_INCLUDE = re.compile(r"^[ \t]*<?\{\{([^{}]+)\}\}(?:\[[^\]]*\])?[ \t]*$")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_CITATION = re.compile(r"\[((?:[-!?]?@|@[-!?])[^\[\]\n]*)\]")
_LINK_XREF = re.compile(r"\[([^\[\]\n]*)\]\(#([^()\s]+)\)")
_SHORT_XREF = re.compile(r"\(#([^()\s,]+)(?:,\s*(use counter|use title))?\)")
_INDEX = re.compile(r"\(!!?[^()\n]+\)")
_REFERENCE_OPEN = re.compile(r"^[ \t]*<reference[\s>]")
_REFERENCE_CLOSE = re.compile(r"</reference>[ \t]*$")
_LABELLED = re.compile(r"^(Appendix[ \t]+[A-Z]{1,2})[.:][ \t]+(\S.*)$")  # an unnumbered heading printing its label


def convert_mmark(text: str, doc_key: str, warnings: list[str], profile) -> ConvertedDocument:
    """mmark ``text`` (already decoded) → :class:`ConvertedDocument` (see module docstring).
    ``profile`` is the family's :class:`~docstrata.profiles.Profile`. A title block that is not
    valid TOML is read for ``title`` by line and reported in ``warnings``; never raises."""
    m = _TITLE_BLOCK.match(text)
    block, body = (m.group(1), text[m.end() :]) if m else ("", text)
    title = _title(block, warnings)
    lines = _without_references(body.split("\n"))
    headings = _number_headings(lines)
    cites = {h["anchor"]: h for h in headings if h["anchor"]}

    def other(i: int, line: str) -> str | None:
        if _DIVISION.match(line) or _ATTRIBUTES.match(line):
            return None
        if inc := _INCLUDE.match(line):
            warnings.append(
                f"mmark include {{{{{inc.group(1).strip()}}}}} not followed: its text is not in the document"
            )
            return None
        return _resolve(line, cites)

    markdown, stated = rewrite_lines(lines, {h["line"]: h for h in headings}, other)
    blocks = with_stated_headings(markdown, stated)
    anchors = {h["anchor"]: h["written"] for h in headings if h["anchor"]}
    return ConvertedDocument(
        text=markdown, blocks=blocks, title=title, warnings=warnings, anchors=anchors, profile=profile.name
    )


def _title(block: str, warnings: list[str]) -> str | None:
    """The ``title`` of the TOML title block (mmark reads the key in any case), ``None`` without one."""
    if not block:
        return None
    import tomllib

    try:
        meta = tomllib.loads(block)
    except tomllib.TOMLDecodeError as e:
        warnings.append(f"mmark title block is not valid TOML ({e}); title read by line")
        meta = {}
    value = next((v for k, v in meta.items() if k.lower() == "title" and isinstance(v, str)), None)
    if value is None:
        lm = re.search(r"(?mi)^title[ \t]*=[ \t]*(.+?)[ \t]*$", block)
        value = lm.group(1).strip().strip("\"'") if lm else None
    return " ".join(value.split()) if value else None


def _without_references(lines: list[str]) -> list[str]:
    """``lines`` with each ``<reference …> … </reference>`` XML block outside fenced code emptied
    (its lines kept blank, so line numbers stay): mmark passes them to xml2rfc's bibliography."""
    out, fence, inside = [], None, False
    for line in lines:
        if fence is None and not inside and (fm := FENCE.match(line)):
            fence = fm.group(1)[0]
        elif fence is not None and (fm := FENCE.match(line)) and fm.group(1)[0] == fence:
            fence = None
        elif fence is None and (inside or _REFERENCE_OPEN.match(line)):
            inside = not (_REFERENCE_CLOSE.search(line) or not inside and line.rstrip().endswith("/>"))
            out.append("")
            continue
        out.append(line)
    return out


def _number_headings(lines: list[str]) -> list[dict]:
    """Every ATX heading with its level, number (``None`` when unnumbered), title, anchor, written
    form and how a cross reference prints it (see module docstring)."""
    out: list[dict] = []
    part = "front" if any(_DIVISION.match(ln) and "mainmatter" in ln for ln in lines) else "main"
    counters: list[int] = []
    unnumbered_below: int | None = None  # level of an unnumbered heading whose subsections take no number
    attributes = ""  # the block attribute line(s) above the next block
    fence = None
    for i, line in enumerate(lines):
        if fence is not None:
            if (fm := FENCE.match(line)) and fm.group(1)[0] == fence:
                fence = None
            continue
        if fm := FENCE.match(line):
            fence, attributes = fm.group(1)[0], ""
            continue
        if d := _DIVISION.match(line):
            part, counters, unnumbered_below, attributes = d.group(1)[:-6], [], None, ""
            continue
        if a := _ATTRIBUTES.match(line):
            attributes += " " + a.group(1)
            continue
        if not line.strip():
            continue
        m = _HEADING.match(line)
        if not m or m.group(3) is None and not m.group(1):
            attributes = ""
            continue
        special, level, words = bool(m.group(1)), len(m.group(2)), m.group(3) or ""
        id_m = _HEADING_ID.search(words)
        attr_id = _ATTR_ID.search(attributes)
        anchor = id_m.group(1) if id_m else attr_id.group(1) if attr_id else None
        words = _HEADING_ID.sub("", words).strip()
        if unnumbered_below is not None and level <= unnumbered_below:
            unnumbered_below = None
        unnumbered = special or part == "front" or unnumbered_below is not None or bool(_UNNUMBERED.search(attributes))
        attributes = ""
        number = None
        if unnumbered:
            unnumbered_below = level if unnumbered_below is None else unnumbered_below
        else:
            number = next_number(counters, level, back=part == "back")
        auto = None if special else _auto_id(words)  # mmark's id is made from the whole title
        labelled = _LABELLED.match(words) if number is None and not special else None
        if labelled:  # "Appendix A. Example Certificate", unnumbered, prints its own label
            written = f"{labelled.group(1)}.  {labelled.group(2)}"
            stated_number, words, cite = labelled.group(1), labelled.group(2), labelled.group(1)
        else:
            written, stated_number, cite = rendered_heading(number, words, level, back=part == "back")
        out.append(
            {
                "line": i,
                "level": level,
                "number": stated_number,
                "title": words,
                "written": written,
                "anchor": anchor or auto,
                "cite": cite,
            }
        )
    return out


def _auto_id(title: str) -> str | None:
    """mmark's heading id (gomarkdown's sanitised anchor name): letters and digits lower-cased, each
    run of other characters between them one hyphen."""
    t = re.sub(r"[\W_]+", "-", title.lower()).strip("-")
    return t or None


def _resolve(line: str, cites: dict[str, dict]) -> str:
    """One body line as xml2rfc prints it: citations, cross references, index marks (see the
    module docstring); inline code spans are left as written."""
    pieces, last = [], 0
    for cm in _CODE_SPAN.finditer(line):
        pieces.append(_resolve_text(line[last : cm.start()], cites))
        pieces.append(cm.group())
        last = cm.end()
    pieces.append(_resolve_text(line[last:], cites))
    return "".join(pieces)


def _resolve_text(text: str, cites: dict[str, dict]) -> str:
    def link(m: re.Match) -> str:
        h = cites.get(m.group(2))
        return m.group(1).strip() or (h["cite"] if h else m.group(0))

    def short(m: re.Match) -> str:
        h = cites.get(m.group(1))
        if h is None:
            return m.group(0)
        if m.group(2) == "use counter":
            return h["number"].removeprefix("Appendix ") if h["number"] else h["title"]
        return h["title"] if m.group(2) == "use title" else h["cite"]

    text = _CITATION.sub(_citation, text)
    text = _LINK_XREF.sub(link, text)
    text = _SHORT_XREF.sub(short, text)
    return _INDEX.sub("", text)


def _citation(m: re.Match) -> str:
    """``[@!RFC4648, section 5; @RFC3339]`` → ``Section 5 of [RFC4648], [RFC3339]`` (the forms
    xml2rfc prints for mmark's ``sectionFormat`` of / comma / parens); suppressed ``@-`` ones go."""
    out = []
    for part in m.group(1).split(";"):
        c = re.match(r"\s*([-!?]?)@([-!?]?)([^\s,;]+)\s*(?:,\s*(.*?))?\s*$", part)
        if not c:
            return m.group(0)
        if "-" in (c.group(1), c.group(2)):
            continue
        target = re.sub(r"#\d+$", "", c.group(3)) if c.group(3).startswith("I-D.") else c.group(3)
        suffix = (c.group(4) or "").strip()
        if s := re.match(r"(?i)section\s+(\S+)$", suffix):
            out.append(f"Section {s.group(1)} of [{target}]")
        elif s := re.match(r"(?i)see,\s*section\s+(\S+)$", suffix):
            out.append(f"[{target}], Section {s.group(1)}")
        elif s := re.match(r"(?i)\(see\)\s*section\s+(\S+)$", suffix):
            out.append(f"[{target}] (Section {s.group(1)})")
        else:
            out.append(f"[{target}], {suffix}" if suffix else f"[{target}]")
    return ", ".join(out)
