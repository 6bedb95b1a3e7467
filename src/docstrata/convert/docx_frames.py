"""One-cell tables in a Word document: a frame drawn round paragraphs, not a table of data.

Authors box a passage (the terms of an agreement, a note, a form's instructions) by putting it in a
table of one row and one cell. mammoth (markitdown's DOCX engine) writes every table as a Markdown
table, so the boxed paragraphs, numbered lists included, become one table row: their numbers and
headings are lost to the structure stage. :func:`unframe_single_cells` returns the package with
each such table replaced by the content of its cell (ECMA-376 Part 1 §17.4: ``w:tbl`` / ``w:tr`` /
``w:tc``; the cell's properties ``w:tcPr`` go), so the paragraphs are read as the document's flow.
A table of more than one cell is data and stays.
"""

from __future__ import annotations

import io

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _single_cell(tbl):
    """The one ``w:tc`` of table ``tbl`` when it has exactly one row of exactly one cell, else ``None``."""
    rows = tbl.findall(f"{_W}tr")
    if len(rows) != 1:
        return None
    cells = rows[0].findall(f"{_W}tc")
    return cells[0] if len(cells) == 1 else None


def unframe_single_cells(data: bytes) -> bytes:
    """``data`` (a .docx package) with every one-row, one-cell table of ``word/document.xml``
    replaced by its cell's paragraphs and tables, in place; ``data`` itself when there is none.

    Raises ``KeyError`` (no ``word/document.xml``), ``zipfile.BadZipFile`` or
    ``lxml.etree.XMLSyntaxError`` for a damaged package."""
    import zipfile

    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = etree.fromstring(z.read("word/document.xml"), parser)
        frames = [(t, c) for t in root.iter(f"{_W}tbl") if (c := _single_cell(t)) is not None]
        if not frames:
            return data
        # innermost last in document order: unwrap from the inside out
        # (the cell's children are read when its table is replaced: an inner frame is already unwrapped)
        replacements = [
            (tbl, lambda c=cell: [el for el in c if el.tag != f"{_W}tcPr"]) for tbl, cell in reversed(frames)
        ]
        return with_tables_replaced(z, root, replacements)


def with_tables_replaced(z, root, replacements) -> bytes:
    """The package of open zip ``z`` with ``word/document.xml`` written from ``root`` (its parsed
    tree) after each ``(table, make)`` of ``replacements``, in order, has put the elements ``make()``
    returns where ``table`` stood (called then, so it sees the replacements before it; a table
    already taken out with an outer one is skipped); every other part is copied as it is."""
    import zipfile

    from lxml import etree

    for tbl, make in replacements:
        parent = tbl.getparent()
        if parent is None:
            continue
        content = make()
        at = parent.index(tbl)
        parent.remove(tbl)
        for k, el in enumerate(content):
            parent.insert(at + k, el)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in z.infolist():
            part = z.read(info.filename)
            if info.filename == "word/document.xml":
                part = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
            dst.writestr(info, part)
    return out.getvalue()
