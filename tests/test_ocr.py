"""OCR of scanned PDF pages and image files (issue 30), with the bundled engine (RapidOCR).

One image-only PDF is made here: three pages of the US Constitution rendered from the
born-digital PDF in the shared data (pages 1, 4 and 5: Article I, Sections 7 and 8), when that
folder is present, plus one page this file draws itself with Pillow (a two-column contract page),
so the drawn-page tests never skip. The same drawn page, turned a quarter turn, is a PNG file.
The folder is ingested once (embedded index, real embedding model) and searched.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA, shared_data

pytest.importorskip("rapidocr_onnxruntime")
pypdfium2 = pytest.importorskip("pypdfium2")

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from docstrata.config import parse_config  # noqa: E402
from docstrata.errors import ConfigError  # noqa: E402
from docstrata.tools import build_tool  # noqa: E402

CONSTITUTION = SHARED_DATA / "documents" / "pdf" / "us_constitution.pdf"
DPI = 200  # the drawn page's resolution and the rendering resolution configured for the scans

LEFT = [("14. Payment Terms", True), ("The Customer shall pay each invoice", False),
        ("within thirty days of its date.", False), ("Late amounts bear interest.", False)]
RIGHT = [("15. Termination", True), ("Either party may end this Agreement", False),
         ("on ninety days written notice.", False), ("Sections 14 and 16 survive.", False)]


def drawn_page() -> Image.Image:
    """A letter-width page at 200 dpi: a title, then two columns (their lines not on common rows,
    as in a scan of two columns of prose) with a bold numbered heading and three body lines each,
    and a page number, drawn with Pillow's bundled font."""
    page = Image.new("L", (1700, 800), 255)
    draw = ImageDraw.Draw(page)
    # body type about the constitution's 10 pt at 200 dpi, so both are one document's body text
    body, head = ImageFont.load_default(size=23), ImageFont.load_default(size=32)
    draw.text((150, 90), "Services Agreement", font=ImageFont.load_default(size=44), fill=0, stroke_width=2,
              stroke_fill=0)
    for x, top, column in ((150, 260, LEFT), (900, 277, RIGHT)):  # rows half a line apart
        y = top
        for text, bold in column:
            draw.text((x, y), text, font=head if bold else body, fill=0, stroke_width=1 if bold else 0, stroke_fill=0)
            y += 60 if bold else 34
    draw.text((830, 700), "7", font=body, fill=0)
    return page


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """(folder, tool, ingest report, constitution pages included) — ingested once."""
    folder = tmp_path_factory.mktemp("scans")
    images = []
    with_constitution = CONSTITUTION.exists()
    if with_constitution:
        pdf = pypdfium2.PdfDocument(str(CONSTITUTION))
        images = [pdf[i].render(scale=DPI / 72, grayscale=True).to_pil() for i in (0, 3, 4)]
        pdf.close()
    images.append(drawn_page())
    images[0].save(folder / "scan.pdf", format="PDF", save_all=True, append_images=images[1:], resolution=DPI)
    drawn_page().rotate(90, expand=True).save(folder / "contract.png", dpi=(DPI, DPI))
    tool = _tool(folder, {"dpi": DPI})
    notes: list[str] = []
    report = tool.ingest(progress=lambda done, total, what: notes.append(what))
    report.progress_notes = notes
    yield folder, tool, report, with_constitution
    tool.close()


def _tool(folder: Path, ocr, name: str = "scans"):
    cfg = parse_config({"tools": [{"name": name, "type": "hierarchical_document", "source": str(folder), "ocr": ocr}]},
                       base_dir=folder.parent)
    return build_tool(cfg.tools[0], folder.parent)


def test_scanned_pdf_and_png_ingest_with_ocr_warnings(corpus):
    folder, tool, report, with_constitution = corpus
    assert not report.skipped, report.skipped
    assert report.added == 2 and report.chunks > 0
    docs = {d.doc_key: d for d in tool.list_documents()}
    assert set(docs) == {"scan.pdf", "contract.png"}
    pages = 4 if with_constitution else 1
    assert any(f"{pages} of {pages} pages read by OCR (rapidocr" in w for w in docs["scan.pdf"].warnings)
    # progress per page while the pages are read
    seen = [m.group(0) for n in report.progress_notes if (m := re.search(r"scan\.pdf: OCR page \d+/\d+", n))]
    assert list(dict.fromkeys(seen)) == [f"scan.pdf: OCR page {p}/{pages}" for p in range(1, pages + 1)]


def test_article_i_section_8_cites_its_page(corpus):
    shared_data("documents", "pdf", "us_constitution.pdf")
    _, tool, _, _ = corpus
    for query in ("Section 8", "Article I, Section 8"):
        top = tool.search(query, mode="exact", top_k=1, document="scan.pdf")[0]
        assert top.parent_chain[-1] == "Section 8", (query, top.parent_chain)
        assert top.physical_page_start == 2, (query, top.physical_page_start)
        # the scan prints the constitution's own folio "4" at the foot of that page: read by OCR
        # (Section 8 runs on to the next page, folio 5)
        assert top.page_start == "4" and top.pages in ("p. 4", "pp. 4–5"), top.pages
    hit = tool.search("power to coin money and fix the standard of weights and measures", top_k=3,
                      document="scan.pdf")
    assert any(h.parent_chain[-1] == "Section 8" and h.physical_page_start in (2, 3) for h in hit)


def test_drawn_two_column_page_reads_column_by_column(corpus):
    _, tool, _, with_constitution = corpus
    page = 4 if with_constitution else 1
    top = tool.search("Section 15", mode="exact", top_k=1, document="scan.pdf")[0]
    assert top.parent_chain[-1] == "15. Termination" and top.physical_page_start == page
    assert "ninety days written notice" in top.content and "thirty days" not in top.content
    left = tool.search("Section 14", mode="exact", top_k=1, document="scan.pdf")[0]
    assert left.parent_chain[-1] == "14. Payment Terms"
    assert "within thirty days of its date" in left.content and "ninety" not in left.content


def test_png_turned_a_quarter_turn_is_read_upright(corpus):
    _, tool, _, _ = corpus
    top = tool.search("Section 15", mode="exact", top_k=1, document="contract.png")[0]
    assert top.parent_chain[-1] == "15. Termination" and top.physical_page_start == 1
    assert "Either party may end this Agreement" in top.content


def test_reingest_reads_ocr_from_the_cache(corpus):
    folder, tool, report, with_constitution = corpus
    cache_file = folder.parent / ".docstrata" / "scans" / "ocr.sqlite"
    assert cache_file.exists()
    again = _tool(folder, {"dpi": DPI})
    try:
        second = again.ingest(force=True)
        cache = again._ocr_settings.cache
        pages = (4 if with_constitution else 1) + 1
        assert cache.misses == 0 and cache.hits == pages, (cache.hits, cache.misses)
        assert second.chunks == report.chunks
    finally:
        again.close()


def test_ocr_turned_off_skips_with_the_reason(corpus, tmp_path):
    folder, _, _, _ = corpus
    off = tmp_path / "off"
    off.mkdir()
    for name in ("scan.pdf", "contract.png"):
        shutil.copy(folder / name, off / name)
    (off / "note.md").write_text("# Note\n\nText.\n")
    tool = _tool(off, False, name="off")
    try:
        report = tool.ingest()
    finally:
        tool.close()
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["scan.pdf"].startswith("no text layer in this PDF (scanned images?)")
    assert "OCR is turned off (ocr.enabled: false)" in reasons["scan.pdf"]
    assert "OCR is turned off" in reasons["contract.png"]


def test_ocr_config_errors_name_the_field(tmp_path):
    for ocr, words in (({"engine": "tesserract"}, "tools[0].ocr.engine"),
                       ({"engine": "rapidocr", "languages": ["de"]}, "English and Chinese only"),
                       ({"languages": ["english"]}, "not a language code"),
                       ({"dpi": 20}, "tools[0].ocr.dpi")):
        with pytest.raises(ConfigError) as e:
            parse_config({"tools": [{"name": "t", "type": "hierarchical_document", "source": ".", "ocr": ocr}]},
                         base_dir=tmp_path)
        assert words in str(e.value), str(e.value)


def test_tesseract_absence_is_named(monkeypatch, tmp_path):
    from docstrata.convert.ocr import OcrUnavailable, get_engine

    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no tesseract program on the PATH
    with pytest.raises(OcrUnavailable, match="tesseract is not installed .*apt-get install tesseract-ocr"):
        get_engine("tesseract", ("en", "nl"))


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed here")
def test_tesseract_engine_reads_the_drawn_page():
    from docstrata.convert.ocr import get_engine

    page = get_engine("tesseract", ("en",)).read(drawn_page())
    text = " ".join(line.text for line in page.lines)
    assert "Payment Terms" in text and "Termination" in text
