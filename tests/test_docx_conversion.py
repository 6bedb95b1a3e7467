"""Word files convert on the installed stack (issue 27 item 1).

A fresh install once resolved ``lxml`` 6.2.0, under which markitdown's DOCX converter raises
"Could not find the body element" for every Word file; these tests make such a break fail CI
instead of reaching users. One Word file is built here (so the check never skips); the shared
Word files are real documents from several producers.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from .conftest import SHARED_DATA
from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_PKG = "http://schemas.openxmlformats.org/package/2006"
_OFFICE_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"


def _word_file(paragraphs: list[tuple[str | None, str]]) -> bytes:
    """A minimal WordprocessingML package: (style id or None, text) per paragraph."""
    def para(style: str | None, text: str) -> str:
        ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
        return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"

    body = "".join(para(style, text) for style, text in paragraphs)
    styles = (f'<w:styles xmlns:w="{_W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal">'
              '<w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1">'
              '<w:name w:val="heading 1"/></w:style></w:styles>')
    parts = {
        "[Content_Types].xml": (
            f'<Types xmlns="{_PKG}/content-types"><Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
            '<Override PartName="/word/styles.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>'),
        "_rels/.rels": (f'<Relationships xmlns="{_PKG}/relationships"><Relationship Id="rId1" '
                        f'Type="{_OFFICE_DOC}" Target="word/document.xml"/></Relationships>'),
        "word/_rels/document.xml.rels": (
            f'<Relationships xmlns="{_PKG}/relationships"><Relationship Id="rId1" Type="http://schemas.'
            'openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>'),
        "word/document.xml": f'<w:document xmlns:w="{_W}"><w:body>{body}</w:body></w:document>',
        "word/styles.xml": styles,
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, xml in parts.items():
            z.writestr(name, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' + xml)
    return buf.getvalue()


def _source(path: Path, doc_key: str) -> SourceFile:
    data = path.read_bytes()
    return SourceFile(doc_key, str(path), FileState(len(data), path.stat().st_mtime_ns, hashlib.sha256(data).hexdigest()))


def test_word_file_made_here_converts_with_its_heading(tmp_path):
    path = tmp_path / "lease.docx"
    path.write_bytes(_word_file([(None, "Lease agreement"), ("Heading1", "Rent"),
                                 (None, "The tenant pays the rent monthly in advance.")]))
    doc = convert_file(_source(path, "lease.docx"))
    assert "# Rent" in doc.markdown
    assert "The tenant pays the rent monthly in advance." in doc.markdown


_SHARED_WORD = sorted(
    p for folder in ("documents/docx", "real/docx") for p in (SHARED_DATA / folder).glob("*.docx"))


@pytest.mark.skipif(not _SHARED_WORD, reason=f"no Word files under {SHARED_DATA}: the shared data is absent")
@pytest.mark.parametrize("path", _SHARED_WORD, ids=lambda p: p.name)
def test_every_shared_word_file_converts(path):
    doc = convert_file(_source(path, path.name))
    assert len(doc.markdown.split()) > 50, f"{path.name} converted to almost nothing"
