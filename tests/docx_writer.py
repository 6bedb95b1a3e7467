"""Minimal Word (.docx) packages for tests that need a layout no licensed document shows: the
package parts (content types, relationships) around the document, styles and numbering XML a test
writes (ECMA-376 Part 1, WordprocessingML)."""

from __future__ import annotations

import io
import zipfile

W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def docx_package(body: str, styles: str, numbering: str | None = None) -> bytes:
    """The bytes of a .docx whose ``word/document.xml`` holds ``body`` (the XML inside ``<w:body>``),
    ``word/styles.xml`` is ``styles`` (a whole ``<w:styles>`` element) and, when given,
    ``word/numbering.xml`` is ``numbering`` (a whole ``<w:numbering>`` element)."""
    parts = [("/word/document.xml", f"{_MAIN}.document.main+xml"), ("/word/styles.xml", f"{_MAIN}.styles+xml")]
    rels = [("styles", "styles.xml")]
    if numbering is not None:
        parts.append(("/word/numbering.xml", f"{_MAIN}.numbering+xml"))
        rels.append(("numbering", "numbering.xml"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            + "".join(f'<Override PartName="{name}" ContentType="{kind}"/>' for name, kind in parts)
            + "</Types>",
        )
        z.writestr(
            "_rels/.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="word/document.xml"/></Relationships>',
        )
        z.writestr(
            "word/_rels/document.xml.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(
                f'<Relationship Id="rId{i}" Type="{_REL}/{kind}" Target="{target}"/>'
                for i, (kind, target) in enumerate(rels, 1)
            )
            + "</Relationships>",
        )
        z.writestr("word/document.xml", f"<w:document {W_NS}><w:body>{body}</w:body></w:document>")
        z.writestr("word/styles.xml", styles)
        if numbering is not None:
            z.writestr("word/numbering.xml", numbering)
    return buf.getvalue()
