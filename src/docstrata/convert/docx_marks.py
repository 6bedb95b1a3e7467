"""Word cross-references that markitdown (mammoth) drops: REF fields and bookmark hyperlinks.

Word writes "see Specification versions" as a ``REF _Ref280708892 \\h`` field (or a
``w:hyperlink w:anchor``) whose bookmark sits on the heading it cites; mammoth keeps only the
displayed text. :func:`docx_links` reads ``word/document.xml`` (lxml, no entities or network) and
returns each reference as ``(displayed text, bookmark)`` plus ``bookmark → text of the paragraph
holding it``; :func:`link_references` writes the references back into the Markdown as in-page
links ``[Specification versions](#_Ref280708892)``, which the cross-reference stage follows through
``Document.anchors``.
"""

from __future__ import annotations

import io
import re

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_REF_INSTR = re.compile(r"^\s*(?:REF|PAGEREF)\s+(\S+)", re.I)


def docx_links(data: bytes) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """``([(displayed text, bookmark name)], {bookmark name: paragraph text})`` of a DOCX."""
    import zipfile

    from lxml import etree

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        xml = z.read("word/document.xml")
    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True)
    root = etree.fromstring(xml, parser)
    bookmarks: dict[str, str] = {}
    for p in root.iter(f"{_W}p"):
        names = [b.get(f"{_W}name") for b in p.iter(f"{_W}bookmarkStart")]
        if names:
            text = "".join(t.text or "" for t in p.iter(f"{_W}t")).strip()
            for n in names:
                if n and text:
                    bookmarks.setdefault(n, text)
    refs: list[tuple[str, str]] = []
    for h in root.iter(f"{_W}hyperlink"):
        anchor = h.get(f"{_W}anchor")
        text = "".join(t.text or "" for t in h.iter(f"{_W}t")).strip()
        if anchor and text:
            refs.append((text, anchor))
    for f in root.iter(f"{_W}fldSimple"):
        m = _REF_INSTR.match(f.get(f"{_W}instr") or "")
        text = "".join(t.text or "" for t in f.iter(f"{_W}t")).strip()
        if m and text and not (f.get(f"{_W}instr") or "").lstrip().upper().startswith("PAGEREF"):
            refs.append((text, m.group(1)))
    state, target, shown = None, None, []
    for r in root.iter(f"{_W}r"):  # complex fields: begin, instrText, separate, result runs, end
        fc = r.find(f"{_W}fldChar")
        kind = fc.get(f"{_W}fldCharType") if fc is not None else None
        if kind == "begin":
            state, target, shown = "instr", None, []
        elif kind == "separate" and state == "instr":
            state = "result"
        elif kind == "end":
            if target and shown and "".join(shown).strip():
                refs.append(("".join(shown).strip(), target))
            state, target = None, None
        elif state == "instr":
            instr = "".join(t.text or "" for t in r.iter(f"{_W}instrText"))
            m = _REF_INSTR.match(instr)
            if m and not instr.lstrip().upper().startswith("PAGEREF"):
                target = m.group(1)
        elif state == "result":
            shown += [t.text or "" for t in r.iter(f"{_W}t")]
    return refs, bookmarks


def link_references(markdown: str, refs: list[tuple[str, str]]) -> str:
    """Each reference's displayed text, in order, becomes ``[text](#bookmark)`` in body lines
    (headings, tables of contents and existing links are left alone)."""
    lines = markdown.split("\n")
    pos = 0  # line index where the previous reference was found: references come in order
    for text, bookmark in refs:
        pattern = re.compile(rf"(?<![\[\w]){re.escape(text)}(?![\w\]])")
        for i in list(range(pos, len(lines))) + list(range(0, pos)):
            line = lines[i]
            if line.lstrip().startswith("#") or re.search(r"(?:\.\s?){4,}\s*\d+\s*$|\t\d+\s*$", line):
                continue
            m = pattern.search(line)
            if m and "](" not in line[m.end() : m.end() + 2]:
                lines[i] = f"{line[: m.start()]}[{text}](#{bookmark}){line[m.end() :]}"
                pos = i
                break
    return "\n".join(lines)
