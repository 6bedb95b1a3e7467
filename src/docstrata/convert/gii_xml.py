"""gesetze-im-internet XML (German federal law, ``gii-norm.dtd``) → :class:`~.document.ConvertedDocument`.

The source states its structure: every ``<norm>`` is either an outline unit
(``<metadaten><gliederungseinheit>`` with ``<gliederungskennzahl>``, three digits per level,
``<gliederungsbez>`` such as ``Abschnitt 2`` or ``Erster Abschnitt`` and ``<gliederungstitel>``) or a
numbered unit (``<enbez>§ 13</enbez>``, ``Art 5``, ``Anlage 1``, or an unnumbered one such as
``Eingangsformel``, with ``<titel>``), its text in ``<textdaten><text><Content><P>`` paragraphs
(Absätze printed ``(1)``), lists as ``<DL><DT>1.</DT><DD>…</DD></DL>`` and footnotes in
``<fussnoten>``. Outline units become ``markup`` heading blocks at the stated depth with their
number (``Abschnitt 2``; an ordinal label is read through the profile: ``Erster Abschnitt`` →
``Abschnitt 1``), numbered units heading blocks one level below the outline unit they follow with
their number (``§ 13``, ``Artikel 5``), so the structure stage builds ``abschnitt-2`` and ``13``
from them directly; Absätze stay paragraphs opening with ``(1)`` (ids ``13(1)``), list entries
paragraphs ``1. …``. A table of contents (``<TOC>``, the Inhaltsübersicht) becomes a Markdown
table under its heading, never sections. The title is ``<langue>`` with ``(<jurabk>)``.

Family facts (container words, ordinals, how a unit's number is written) come from
:data:`docstrata.profiles.gesetze_im_internet.PROFILE`; see ``docs/architecture.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..structure.grammar import ROMAN_PATTERN
from .document import BlockWriter, ConvertedDocument


def _local(el) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


def _squash(text: str) -> str:
    return " ".join(text.split())


def _kid(el, name: str):
    if el is None:
        return None
    return next((c for c in el if _local(c) == name), None)


def _text_of(el) -> str:
    """The words of ``el``, a ``<BR/>`` read as a space ("Todeserklärung.<BR/>Lebens-" → two words)."""
    return _squash(_inline_text(el)) if el is not None else ""


def _inline_text(el) -> str:
    out = [el.text or ""]
    for c in el:
        out.append(" " if _local(c) == "BR" else _inline_text(c))
        out.append(c.tail or "")
    return "".join(out)


def convert_gii_xml(root, doc_key: str, profile) -> ConvertedDocument:
    """A parsed ``<dokumente>`` root → :class:`ConvertedDocument` (see module docstring).
    ``profile`` is the family's :class:`~docstrata.profiles.Profile`. Never raises for odd norms: a
    norm without metadata is read as text, an outline number it cannot read is kept as printed."""
    out = BlockWriter()
    warnings: list[str] = []
    title = jurabk = None
    depth = 0  # depth of the outline unit the next numbered unit belongs to
    for norm in (n for n in root if _local(n) == "norm"):
        meta = _kid(norm, "metadaten")
        jurabk = jurabk or _text_of(_kid(meta, "jurabk")) or None
        langue = _text_of(_kid(meta, "langue"))
        if title is None and langue:
            title = langue
        unit = _kid(meta, "gliederungseinheit")
        # juris writes "(XXXX)" before a repealed or future span ("(XXXX) §§ 3 bis 6"): no part of its name
        enbez = re.sub(r"^\(X+\)\s*", "", _text_of(_kid(meta, "enbez")))
        if unit is not None:
            code = _text_of(_kid(unit, "gliederungskennzahl"))
            bez = _text_of(_kid(unit, "gliederungsbez"))
            heading = _text_of(_kid(unit, "gliederungstitel"))
            depth = max(1, len(code) // 3) if code.isdigit() else depth + 1
            out.heading(
                depth,
                heading,
                _outline_number(bez, profile) or None,
                written=" ".join(x for x in (bez, heading) if x),
                anchor=norm.get("doknr"),
            )
        items_level = None  # the stated level of a back-matter unit's list entries
        if enbez:
            heading = _text_of(_kid(meta, "titel"))
            number = _unit_number(enbez, profile)
            # an Anlage belongs to the law, beside its outline units, not inside the last of them
            back = _back_matter(enbez)
            level = 1 if back else depth + 1
            out.heading(
                level, heading, number, written=" ".join(x for x in (enbez, heading) if x), anchor=norm.get("doknr")
            )
            items_level = level + 1 if back else None
        _body(norm, out, items_level)
        notes = _kid(_kid(norm, "textdaten"), "fussnoten")
        if notes is not None and _text_of(notes):
            for p in _paragraphs(notes):  # footnotes: the markup says so, no section starts in them
                out.add(p.text, "paragraph", provenance="markup")
    if title and jurabk:
        title = f"{title} ({jurabk})"
    if not out.blocks:
        warnings.append("gesetze-im-internet XML without any norm text")
    anchors = {b.anchor: b.text.lstrip("#").strip() for b in out.blocks if b.anchor}  # doknr → heading
    return out.document(title=title or jurabk, warnings=warnings, anchors=anchors, profile=profile.name)


def _outline_number(bez: str, profile) -> str:
    """``Abschnitt 2`` → ``Abschnitt 2``; ``Erster Abschnitt`` → ``Abschnitt 1`` (the profile's
    ordinals); ``Buch 1``, ``Titel 3`` as printed; ``""`` for a label without a number."""
    words = bez.replace(".", " ").split()
    if len(words) == 2 and words[0].lower() in profile.ordinals:
        return f"{words[1]} {profile.ordinals[words[0].lower()]}"
    if len(words) == 2 and re.fullmatch(rf"\d{{1,4}}[a-z]?|{ROMAN_PATTERN}", words[1]):
        # an amending act's articles are outline units too: "Art 2" is Artikel 2
        return f"{profile.section_words.get(words[0], words[0])} {words[1]}"
    if len(words) == 1 and re.fullmatch(rf"\d{{1,4}}[a-z]?|{ROMAN_PATTERN}", words[0]):
        return words[0]
    return ""


def _unit_number(enbez: str, profile) -> str | None:
    """``§ 13`` → ``§ 13``; ``Art 5`` → ``Artikel 5``; ``Anlage 1``, ``Anhang 2`` as printed; ``II.`` → ``II``; an unnumbered
    unit (``Eingangsformel``, ``Inhaltsübersicht``) or a span (``§§ 5 bis 7``) → ``None``."""
    m = re.fullmatch(
        r"(§|Art\.?|[A-ZÄÖÜ][a-zäöüß]{1,15})\s*(\d{1,4}[a-z]?(?:\.\d{1,3})*)(?:\s+\(.*\)|\s+[A-ZÄÖÜ].*)?", enbez
    )
    if m:  # "§ 13", "§ 1.2", "Art 5", "Anlage 1", "Anhang 2", "Muster 3"
        return f"{profile.section_words.get(m.group(1), m.group(1))} {m.group(2)}"
    m = re.fullmatch(rf"({ROMAN_PATTERN}|\d{{1,3}})\.", enbez)  # "II.", "3.": a numbered part of an administrative rule
    return m.group(1) if m else None


def _back_matter(enbez: str) -> bool:
    """Whether a unit's ``<enbez>`` names back matter (``Anlage 1``, ``Anlage``): a word the citation
    grammar marks ``back`` (:func:`~docstrata.structure.grammar.keyword`)."""
    from ..structure.grammar import keyword

    word = enbez.split()[0] if enbez.split() else ""
    kw = keyword(word)
    return kw is not None and "back" in kw.roles


def _body(norm, out: BlockWriter, items_level: int | None = None) -> None:
    """The text of a norm as blocks. ``items_level``: for a back-matter unit (an Anlage), the
    level its list entries are stated at (nested lists one deeper): the source numbers them
    (``<DT>1.1</DT>``, ``<DT>2.6.1</DT>``) inside the Anlage, and those numbers are items of the
    Anlage (``Anlage 2 Nummer 2.6.1``), never the law's own section numbers; elsewhere entries are
    ``list_item`` blocks read from their text."""
    text = _kid(_kid(norm, "textdaten"), "text")
    if text is None:
        return
    for part in text:
        name = _local(part)
        if name == "TOC":
            _toc(part, out)
        elif name == "Content":
            for p in _paragraphs(part):  # an Absatz prints its "(1)" in the <P>'s text: read from the characters
                if p.text.startswith("|"):
                    out.add(p.text, "table", provenance="markup")
                elif items_level is not None and p.depth and p.label:
                    out.add(p.text, "list_item", provenance="markup", number=p.label, level=items_level + p.depth - 1)
                elif m := _ENTRY.match(p.text):
                    out.add(p.text, "list_item", provenance="markup", number=m.group(1))
                else:
                    out.add(p.text, "paragraph", provenance="plain_text")


_ENTRY = re.compile(r"^(\d{1,3}[a-z]?\.|[a-z]{1,3}\)|[a-z]{2}\))\s")  # a <DT> label written before its entry


@dataclass(frozen=True)
class _Para:
    """One paragraph of a norm's text: ``text`` as written; for a list entry its ``<DT>`` ``label``
    (``"1."``, ``"2.6.1"``, ``"a)"``) and ``depth`` (1 for a list in the text, 2 for a list inside
    an entry …); ``depth`` 0 and ``label`` ``""`` for running text and tables."""

    text: str
    label: str = ""
    depth: int = 0


def _paragraphs(content) -> list[_Para]:
    """The paragraphs of a ``<Content>`` (or ``<fussnoten>``): each ``<P>`` one paragraph, a list
    inside it split into its entries (``1. …``, ``a) …``), the words after the list a paragraph of
    their own; tables as Markdown tables."""
    out: list[_Para] = []
    for el in content.iter():
        if _local(el) == "P" and not any(_local(a) in ("P", "DD", "entry") for a in el.iterancestors()):
            out.extend(_paragraph(el))
        elif _local(el) == "table" and not any(_local(a) == "P" for a in el.iterancestors()):
            out.append(_Para(_table(el)))
    return [p for p in out if p.text.strip()]


def _paragraph(el) -> list[_Para]:
    run = [el.text or ""]
    out: list[_Para] = []
    for c in el:
        if _local(c) == "DL":
            out.append(_Para(_squash("".join(run))))
            out.extend(_list_entries(c))
            run = []
        elif _local(c) == "BR":
            run.append(" ")
        elif _local(c) == "table":
            out.append(_Para(_squash("".join(run))))
            out.append(_Para(_table(c)))
            run = []
        else:
            run.append("".join(c.itertext()))
        run.append(c.tail or "")
    out.append(_Para(_squash("".join(run))))
    return out


def _list_entries(dl, depth: int = 1) -> list[_Para]:
    """``<DL><DT>1.</DT><DD><LA>text</LA></DD>…`` → ``[_Para("1. text", "1.", depth), …]`` (nested
    lists after their entry, one deeper)."""
    out: list[_Para] = []
    label = ""
    for c in dl:
        if _local(c) == "DT":
            label = _text_of(c)
        elif _local(c) == "DD":
            words, nested = [], []
            for d in c.iter():
                if d is not c and _local(d) == "DL" and _outermost_in(d, c):
                    nested.extend(_list_entries(d, depth + 1))  # a list inside a list of it reads its own
            for part in c:
                if _local(part) != "DL":
                    words.append(
                        _squash("".join(t for t in part.itertext()))
                        if not part.findall(".//DL")
                        else _squash(part.text or "")
                    )
            text = _squash((c.text or "") + " " + " ".join(words))
            if text or nested:  # an entry without text (a repealed "4a.") is no provision to cite
                out.append(_Para(f"{label} {text}".strip(), label, depth))
            out.extend(nested)
    return out


def _outermost_in(dl, dd) -> bool:
    """No other ``<DL>`` lies between ``dl`` and the ``<DD>`` holding it."""
    for a in dl.iterancestors():
        if a is dd:
            return True
        if _local(a) == "DL":
            return False
    return True


def _toc(toc, out: BlockWriter) -> None:
    """An Inhaltsübersicht: its rows (``§ 1 | Mindestlohn``) and unit labels as one Markdown table."""
    rows: list[list[str]] = []
    for el in toc.iter():
        name = _local(el)
        if name == "row":
            rows.append([_text_of(e).replace("|", "\\|") for e in el if _local(e) == "entry"])
        elif name in ("Ident", "Title") and _text_of(el):
            if name == "Title" and rows and len(rows[-1]) == 2 and rows[-1][1] == "":
                rows[-1][1] = _text_of(el)
            else:
                rows.append([_text_of(el), ""])
    if rows:
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(["Gliederung"] + [""] * (width - 1)) + " |", "|" + " --- |" * width]
        out.add("\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows]), "table", provenance="markup")


def _table(el) -> str:
    rows = [
        [_text_of(e).replace("|", "\\|") for e in row if _local(e) == "entry"]
        for row in el.iter()
        if _local(row) == "row"
    ]
    rows = [r for r in rows if r]
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width] + [
        "| " + " | ".join(r) + " |" for r in rows[1:]
    ]
    return "\n".join(lines)
