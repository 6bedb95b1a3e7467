"""kramdown-rfc Markdown (IETF RFCs and Internet-Drafts) → :class:`~.document.ConvertedDocument`.

A kramdown-rfc source opens with YAML front matter (``title:``, ``docname:``, authors, references)
between ``---`` lines, then ``--- abstract``, optional ``--- note_…`` blocks, ``--- middle`` (the
numbered sections) and ``--- back`` (appendices). Section numbers are not written: xml2rfc implies
them from heading levels and order, and this converter computes them the same way: ``1``, ``1.1``,
``2`` … in the middle, ``A``, ``A.1``, ``B`` … in the back; a heading followed by
``{:numbered="false"}`` takes no number (nor do its subsections) and uses none up. Headings are
written as the rendered RFC prints them (``1.1.  Notational Conventions``, ``Appendix A.  Changes``)
and are ``markup`` heading blocks stating level and number, so the structure stage builds sections
``1.1`` and ``appendix-a`` from them directly. ``{#anchor}`` is stripped from a title and kept as the
heading's anchor (without one, kramdown's id from the title); ``{{anchor}}`` references become
``Section 3.1`` / ``Appendix A`` as xml2rfc prints them and ``{{RFC7231}}``, ``{{!RFC2119}}``,
``{{?I-D.x}}`` become ``[RFC7231]``; attribute lists (``{: …}``) and ``{::boilerplate …}`` lines are
dropped. The front matter is the document's title, never a section; the abstract and notes are
unnumbered sections. Family facts come from :data:`docstrata.profiles.kramdown_rfc.PROFILE`; see
``docs/architecture.md``.
"""

from __future__ import annotations

import re

from .document import ConvertedDocument
from .rfc_markdown import FENCE, next_number, rendered_heading, rewrite_lines, with_stated_headings

# the front matter ends at a bare "---" line (dropped) or at the first "--- abstract" / "--- middle" (kept)
_FRONT = re.compile(r"\A(?:\ufeff)?---[ \t]*\n(.*?)\n(?:---[ \t]*\n|(?=---[ \t]+\S))", re.S)
_PART = re.compile(r"^---[ \t]+(abstract|middle|back|note_\S+|(?:informative|normative)\b.*)[ \t]*$")
_ATX = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_ANCHOR = re.compile(r"[ \t]*\{#([\w.:-]+)(?:[^}]*)\}[ \t]*$")
_IAL = re.compile(r"^[ \t]*\{:[^}]*\}[ \t]*$")
_UNNUMBERED = re.compile(r"""numbered\s*=\s*["']?false""")
_EXTENSION = re.compile(r"^[ \t]*\{::(?:boilerplate|include|comment)[^}]*\}[ \t]*$")
_REF = re.compile(r"\{\{([!?]?)([^{}\s]+?)\}\}")
_XREF = re.compile(r"<xref\s+target=[\"']([^\"']+)[\"'][^>]*?(?:/>|>(.*?)</xref>)", re.S)


def convert_kramdown_rfc(text: str, doc_key: str, warnings: list[str], profile) -> ConvertedDocument:
    """kramdown-rfc ``text`` (already decoded) → :class:`ConvertedDocument` (see module docstring).
    ``profile`` is the family's :class:`~docstrata.profiles.Profile`. Front matter that is not
    valid YAML is read for ``title:`` by line and reported in ``warnings``; never raises."""
    m = _FRONT.match(text)
    front, body = (m.group(1), text[m.end() :]) if m else ("", text)
    meta = _front_matter(front, warnings)
    title = _front_title(meta, front)
    entities = (
        {str(k): str(v) for k, v in (meta.get("entity") or {}).items()} if isinstance(meta.get("entity"), dict) else {}
    )
    lines = [_entities(ln, entities) for ln in body.split("\n")]
    headings = _number_headings(lines)
    cites = {h["anchor"]: h["cite"] for h in headings if h["anchor"]}

    def other(i: int, line: str) -> str | dict | None:
        part = _PART.match(line)
        if part:
            name = part.group(1)
            if name == "abstract" or name.startswith("note_"):
                words = "Abstract" if name == "abstract" else name[5:].replace("_", " ")
                return {"level": 1, "number": None, "title": words, "anchor": None, "written": words}
            return None
        if _IAL.match(line) or _EXTENSION.match(line):
            return None
        return _resolve(line, cites)

    markdown, stated = rewrite_lines(lines, {h["line"]: h for h in headings}, other)
    blocks = with_stated_headings(markdown, stated)
    anchors = {h["anchor"]: h["written"] for h in headings if h["anchor"]}
    return ConvertedDocument(
        text=markdown, blocks=blocks, title=title, warnings=warnings, anchors=anchors, profile=profile.name
    )


def _front_matter(front: str, warnings: list[str]) -> dict:
    """The YAML front matter as a dict (``{}`` when absent or unreadable, with a warning)."""
    if not front:
        return {}
    try:
        import yaml

        meta = yaml.safe_load(front)
        return meta if isinstance(meta, dict) else {}
    except Exception as e:  # a draft's front matter may hold templating YAML cannot read
        warnings.append(f"kramdown-rfc front matter is not valid YAML ({type(e).__name__}); title read by line")
        return {}


def _front_title(meta: dict, front: str) -> str | None:
    if meta.get("title"):
        return " ".join(str(meta["title"]).split())
    m = re.search(r"(?m)^title:[ \t]*(.+)$", front)
    return m.group(1).strip().strip("\"'") if m else None


def _entities(line: str, entities: dict[str, str]) -> str:
    """``{{&CODE}}`` → the value the front matter's ``entity:`` table gives ``CODE``."""
    if not entities or "{{&" not in line:
        return line
    return re.sub(r"\{\{&([\w-]+)\}\}", lambda m: entities.get(m.group(1), m.group(0)), line)


def _number_headings(lines: list[str]) -> list[dict]:
    """Every ATX heading of the middle and back with its level, number (``None`` when unnumbered
    or outside them), title, anchor, written form and how a ``{{anchor}}`` cites it."""
    out: list[dict] = []
    part = "front"
    counters: list[int] = []
    unnumbered_below: int | None = None  # level of an unnumbered heading whose subsections take no number
    fence = None
    for i, line in enumerate(lines):
        if fence is not None:
            if (fm := FENCE.match(line)) and fm.group(1)[0] == fence:
                fence = None
            continue
        if fm := FENCE.match(line):
            fence = fm.group(1)[0]
            continue
        if p := _PART.match(line):
            name = p.group(1)
            if name in ("middle", "back"):
                part, counters, unnumbered_below = name, [], None
            continue
        m = _ATX.match(line)
        if not m or part == "front":
            continue
        level, words = len(m.group(1)), m.group(2)
        anchor_m = _ANCHOR.search(words)
        anchor = anchor_m.group(1) if anchor_m else None
        words = _ANCHOR.sub("", words).strip()
        nxt = next((ln for ln in lines[i + 1 :] if ln.strip()), "")
        if unnumbered_below is not None and level <= unnumbered_below:
            unnumbered_below = None
        unnumbered = (
            unnumbered_below is not None
            or bool(_IAL.match(nxt) and _UNNUMBERED.search(nxt))
            or bool(re.search(r"\{:[^}]*numbered\s*=\s*[\"']?false", line))
        )
        number = None
        if unnumbered:
            unnumbered_below = level if unnumbered_below is None else unnumbered_below
        else:
            number = next_number(counters, level, back=part == "back")
        written, stated_number, cite = rendered_heading(number, words, level, back=part == "back")
        out.append(
            {
                "line": i,
                "level": level,
                "number": stated_number,
                "title": words,
                "written": written,
                "anchor": anchor or _auto_id(words),
                "cite": cite,
            }
        )
    return out


def _auto_id(title: str) -> str:
    """kramdown's header id: lower case, characters other than letters, digits, spaces and hyphens
    dropped, spaces as hyphens, leading non-letters dropped."""
    t = re.sub(r"[^\w\s-]", "", title.lower().replace("_", ""))
    t = re.sub(r"\s+", "-", t.strip())
    return re.sub(r"^[^a-z]+", "", t) or "section"


def _resolve(line: str, cites: dict[str, str]) -> str:
    """``{{anchor}}`` → ``Section 3.1``; ``{{RFC7231}}`` / ``{{!RFC2119}}`` → ``[RFC7231]``;
    ``<xref target="x">words</xref>`` → its words (or the cited section)."""

    def ref(m: re.Match) -> str:
        target = m.group(2)
        return cites.get(target) or f"[{target}]"

    def xref(m: re.Match) -> str:
        return (m.group(2) or "").strip() or cites.get(m.group(1)) or f"[{m.group(1)}]"

    return _REF.sub(ref, _XREF.sub(xref, line))
