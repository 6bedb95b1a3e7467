"""The converted text holds the document's characters, not Markdown escapes or raw HTML of them
(convert/office.py ``_markitdown_convert``: every format markitdown converts through markdownify).

markdownify escaped every ``_`` and ``*`` (``{sow\\_number}``, a blank ``\\_\\_\\_\\_``, ``reg\\_impl`` in a
link) and markitdown wrote Word's underline as ``<u>…</u>``: both reached chunk text, citations,
spans and definitions (trial 18 on Common Paper Word contracts: ``5.4 <u>Survival</u>.``). Bold
and italic stay Markdown (``**``), which the structure stage reads.

Truth comes from the documents' own markup, read here with lxml / the standard library: the
Professional Services Agreement's runs (tests/fixtures/common-paper/NOTICE.md), a Nevada Revised
Statutes page and an EUR-Lex act (their NOTICE.md files).
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree, html

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file

FIXTURES = Path(__file__).parent / "fixtures"
PSA = FIXTURES / "common-paper" / "professional-services-agreement.docx"
NRS = FIXTURES / "nrs-html" / "nrs-001-excerpt.html"
EURLEX = FIXTURES / "eurlex" / "32024R2979.html"
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_ESCAPE = re.compile(r"\\[\\`*_{}\[\]()#+\-.!|]")


def _convert(path: Path):
    data = path.read_bytes()
    return convert_file(SourceFile(path.name, str(path), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))


def _runs(path: Path) -> list:
    root = etree.fromstring(zipfile.ZipFile(path).read("word/document.xml"))
    return list(root.iter(f"{_W}r"))


def _run_text(r) -> str:
    return "".join(t.text or "" for t in r.iter(f"{_W}t"))


def _underlined(r) -> bool:
    u = r.find(f"{_W}rPr/{_W}u")
    return u is not None and u.get(f"{_W}val", "single") != "none"


@pytest.fixture(scope="module")
def psa():
    return parse_file(source_file(PSA), PipelineSettings(count_tokens=lambda t: len(t.split())))


def test_word_placeholders_keep_their_underscores():
    doc = _convert(PSA)
    with_underscore = {_run_text(r).strip() for r in _runs(PSA) if "_" in _run_text(r)}
    assert len(with_underscore) >= 10  # {sow_number}, {key_terms_effective_date}, …
    missing = sorted(t for t in with_underscore if t not in doc.markdown)
    assert missing == [], missing
    assert _ESCAPE.findall(doc.markdown) == []


def test_underlined_words_are_plain_text():
    doc = _convert(PSA)
    underlined = {_run_text(r).strip() for r in _runs(PSA) if _underlined(r) and _run_text(r).strip()}
    assert "Survival" in underlined  # the clause titles Word underlines
    assert "<u>" not in doc.markdown and "</u>" not in doc.markdown
    assert all(t in doc.markdown for t in underlined)


def test_chunks_citations_and_definitions_hold_the_documents_characters(psa):
    survival = next(s for s in psa.tree.sections if "Survival" in s.title)  # underlined in the document
    assert survival.number and survival.title.endswith(f"{survival.number} Survival.") and "<u>" not in survival.heading
    for chunk in psa.chunks:
        assert "<u>" not in chunk.content and not _ESCAPE.search(chunk.content), chunk.content[:200]
    for d in psa.definitions:
        assert not _ESCAPE.search(d.term + d.definition), d
    # a placeholder is found as the document writes it
    assert any("{sow_number}" in c.content for c in psa.chunks)


@pytest.mark.parametrize("path", [NRS, EURLEX], ids=["nrs", "eurlex"])
def test_html_text_keeps_its_underscores(path):
    tree = html.fromstring(path.read_bytes())
    texts = {" ".join(t.split()) for t in tree.xpath("//body//text()") if "_" in t and t.strip()}
    hrefs = {h for h in tree.xpath("//body//a/@href") if "_" in h}
    assert texts or hrefs
    doc = _convert(path)
    assert _ESCAPE.findall(doc.markdown) == []
    shown = " ".join(doc.markdown.split())
    assert all(t in shown for t in texts), sorted(t for t in texts if t not in shown)
