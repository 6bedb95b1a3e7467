"""OCR of scanned pages, measured against the text layer the scan was made from.

Run: ``python bench/ocr_bench.py [--dpi 150 300] [--engines rapidocr tesseract]``

Truth never comes from OCR. Born-digital PDFs are cut to a few pages (PDFium), each page is
rendered to an image at each scan resolution (PDFium) and the images saved as an image-only PDF
(Pillow), which docstrata then converts with OCR as ingest does (pages rendered at the default
``ocr.dpi`` 300, whatever the scan's own resolution). Documents (from ``../shared/data``):

* a statute: ``documents/pdf/us_constitution.pdf``, pages 1-4 (Article I, Sections 1-8);
* a contract: Common Paper's Mutual NDA (``documents/md/commonpaper_mutual_nda.md``) typeset
  here as a born-digital two-column PDF (Times 10 pt, numbered bold headings), pages 1-2, so
  column order is measured too;
* a NIST publication: ``real/pdf/nist-sp800-123-server-security.pdf``, pages 18-20 (Section 3).

Measures, per document, resolution and engine:

* **CER** — character error rate: Levenshtein distance between the page's text layer (pdfminer
  lines, in pdfminer's order) and the OCR'd lines (in docstrata's reading order), both NFKC with
  runs of white space as one space and pdfminer's ``(cid:N)`` placeholders dropped, divided by
  the text layer's length; pages pooled;
* **section recall** — sections of the structure built from the image-only PDF whose number and
  title (lower case, letters and digits) equal a section built from the born-digital subset (the
  title section named after the file left out); the
  born-digital structure is the reference, so its own recall is 1 (both lack the PDF outline);
  **page agreement** — of the found sections, the share starting on the same page;
* **exact top-1** — for every numbered section of the born-digital structure, its first alias
  (``Section 8``, ``2.1``) searched in exact mode over an in-memory index of each PDF: the share
  whose top hit lies in the section of that number and title; born-digital and OCR side by side;
* **pages/s** — OCR'd pages per second of conversion wall time (rendering, OCR, layout), with
  an empty cache, on this machine (2 cores, shared with other jobs: a lower bound).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"
if not DATA.exists():
    DATA = Path("/work/shared/data")


def levenshtein(a: str, b: str) -> int:
    """Edit distance, one numpy row per character of ``a`` (insertions by a running minimum)."""
    if not a or not b:
        return len(a) + len(b)
    bb = np.frombuffer(b.encode("utf-32-le"), dtype=np.uint32)
    ar = np.arange(len(b) + 1)
    row = ar.copy()
    for ch in a:
        sub = row[:-1] + (bb != ord(ch))
        new = np.empty_like(row)
        new[0] = row[0] + 1
        new[1:] = np.minimum(row[1:] + 1, sub)
        row = np.minimum.accumulate(new - ar) + ar
    return int(row[-1])


def norm(text: str) -> str:
    """NFKC, white space runs as one space, pdfminer's ``(cid:N)`` placeholders (glyphs without a
    Unicode mapping, such as NIST's bullets) removed from the text layer: they are no text."""
    return " ".join(re.sub(r"\(cid:\d+\)", " ", unicodedata.normalize("NFKC", text)).split())


def key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", text).lower())


def subset_pdf(path: Path, pages: list[int]) -> bytes:
    import pypdfium2 as pdfium

    src = pdfium.PdfDocument(str(path))
    out = pdfium.PdfDocument.new()
    out.import_pages(src, pages)
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def image_pdf(data: bytes, dpi: int) -> bytes:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    images = [pdf[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in range(len(pdf))]
    buf = io.BytesIO()
    images[0].save(buf, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return buf.getvalue()


def contract_pdf() -> bytes:
    """Common Paper's Mutual NDA typeset as a two-column PDF (Times 10 pt body, bold headings)."""
    from tests.pdf_writer import Run, pdf_bytes

    md = (DATA / "documents" / "md" / "commonpaper_mutual_nda.md").read_text(encoding="utf-8")
    md = re.sub(r"<[^>]+>", "", md)
    md = md.translate(str.maketrans({"“": '"', "”": '"', "’": "'", "‘": "'", "—": "-", "–": "-", "§": "S"}))
    blocks = []
    for para in md.split("\n\n"):
        para = para.strip()
        if para.startswith("#"):
            blocks.append(("h", para.lstrip("# ")))
        elif m := re.match(r"(\d+)\.\s+\*\*(.+?)\*\*\.?\s*(.*)", para, re.S):
            blocks.append(("h", f"{m.group(1)}. {m.group(2)}"))
            blocks.append(("p", m.group(3).replace("**", "")))
        elif para:
            blocks.append(("p", para.replace("**", "")))
    pages, runs = [], []
    col, y = 0, 740.0
    x_of = (54, 318)

    def advance(step: float) -> None:
        nonlocal col, y, runs
        y -= step
        if y < 60:
            col += 1
            y = 740.0
            if col == 2:
                pages.append(runs)
                runs, col = [], 0

    for kind, text in blocks:
        if kind == "h":
            advance(6)
            runs.append(Run(x_of[col], y, text, 11, "F4"))
            advance(14)
            continue
        words, line = text.split(), ""
        for w in words:
            if len(line) + len(w) + 1 > 52:
                runs.append(Run(x_of[col], y, line, 10, "F3"))
                advance(12)
                line = w
            else:
                line = f"{line} {w}".strip()
        if line:
            runs.append(Run(x_of[col], y, line, 10, "F3"))
            advance(16)
    if runs:
        pages.append(runs)
    return pdf_bytes(pages[:2])


def documents() -> list[tuple[str, bytes]]:
    out = []
    const = DATA / "documents" / "pdf" / "us_constitution.pdf"
    if const.exists():
        out.append(("statute: us_constitution.pdf p1-4", subset_pdf(const, [0, 1, 2, 3])))
    if (DATA / "documents" / "md" / "commonpaper_mutual_nda.md").exists():
        out.append(("contract: Common Paper MNDA, 2 columns, p1-2", contract_pdf()))
    nist = DATA / "real" / "pdf" / "nist-sp800-123-server-security.pdf"
    if nist.exists():
        out.append(("NIST SP 800-123 p18-20", subset_pdf(nist, [17, 18, 19])))
    return out


def convert(data: bytes, name: str, ocr):
    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_bytes(data)
        sf = SourceFile(name, str(path), FileState(len(data), 0, hashlib.sha256(data).hexdigest()))
        return convert_file(sf, ocr)


def page_texts(data: bytes, ocr=None) -> list[str]:
    """Each page's text: the text layer's lines, or (``ocr`` given) the OCR'd lines in reading order."""
    from docstrata.convert.pdf_layout import _pdf_layout
    from docstrata.convert.pdf_ocr import ocr_pdf

    lines, _, _, n_pages, _ = _pdf_layout(data, "bench")
    if ocr is not None:
        lines, _, _ = ocr_pdf(data, "bench", lines, n_pages, ocr, hashlib.sha256(data).hexdigest())
    pages = [[] for _ in range(n_pages)]
    for line in lines:
        pages[line.page].append(line.text)
    return [norm(" ".join(p)) for p in pages]


def sections(doc):
    from docstrata.pages import assign_pages
    from docstrata.structure import build_tree

    tree = build_tree(doc)
    assign_pages(doc, tree, [])
    return [s for s in tree.sections if s.title]


def exact_top1(data: bytes, name: str, queries: list[tuple[str, str]], ocr_cfg: dict, work: Path) -> float:
    """Share of ``queries`` (alias, section key) whose exact-mode top hit is in that section."""
    from docstrata.config import parse_config
    from docstrata.tools import build_tool

    folder = work / key(name + str(ocr_cfg))[:40]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "doc.pdf").write_bytes(data)
    cfg = parse_config({"tools": [{"name": "t", "type": "hierarchical_document", "source": str(folder),
                                   "database": "in-memory", "ocr": ocr_cfg}]}, base_dir=work)
    tool = build_tool(cfg.tools[0], work)
    tool.ingest()
    hits = 0
    for alias, want in queries:
        res = tool.search(alias, mode="exact", top_k=1)
        if res and res[0].parent_chain and key(res[0].parent_chain[-1]) == want:
            hits += 1
    tool.close()
    return hits / len(queries) if queries else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpi", type=int, nargs="+", default=[150, 300])
    ap.add_argument("--engines", nargs="+", default=["rapidocr", "tesseract"])
    args = ap.parse_args()
    from docstrata.convert import ocr as ocr_module
    from docstrata.convert.ocr import OcrSettings, OcrUnavailable, get_engine

    engines = []
    for e in args.engines:
        try:
            engines.append((e, get_engine(e, ("en",)).id))
        except OcrUnavailable as err:
            print(f"engine {e}: not measured: {err}")
    work = Path(tempfile.mkdtemp(prefix="ocr_bench_"))
    cache = ocr_module._PROCESS_CACHE  # the in-memory index of exact_top1 reads the same pages from it
    rows = []
    for name, digital in documents():
        truth_pages = page_texts(digital)
        base = convert(digital, "digital.pdf", OcrSettings(enabled=False))
        base_secs = [s for s in sections(base) if s.title != "digital"]  # the file-name title section
        base_keys = [key(f"{s.title}") for s in base_secs]
        queries = [(s.aliases[0], key(s.title)) for s in base_secs if s.number and s.aliases]
        base_top1 = exact_top1(digital, name + "digital", queries, {"enabled": False}, work)
        print(f"\n{name}: {len(truth_pages)} pages, {sum(map(len, truth_pages))} chars, {len(base_secs)} sections "
              f"(text layer), {len(queries)} reference queries, exact top-1 born-digital {base_top1:.3f}")
        for dpi in args.dpi:
            scanned = image_pdf(digital, dpi)
            for engine, engine_id in engines:
                ocr = OcrSettings(engine=engine)  # rendered at the default 300 dpi, as ingest does; process cache
                misses = cache.misses
                t0 = time.perf_counter()
                doc = convert(scanned, "scan.pdf", ocr)
                elapsed = time.perf_counter() - t0
                fresh = cache.misses - misses
                got = page_texts(scanned, ocr)
                dist = sum(levenshtein(t, g) for t, g in zip(truth_pages, got))
                cer = dist / max(1, sum(map(len, truth_pages)))
                secs = sections(doc)
                found = {key(s.title): s for s in secs}
                matched = [s for s, k in zip(base_secs, base_keys) if k in found]
                recall = len(matched) / max(1, len(base_secs))
                same_page = sum(found[key(s.title)].page_start == s.page_start for s in matched) / max(1, len(matched))
                top1 = exact_top1(scanned, name + engine + str(dpi), queries,
                                  {"engine": engine}, work)
                speed = f"{fresh / elapsed:.3f}" if fresh else "cached"
                rows.append((name, dpi, engine_id, cer, recall, same_page, base_top1, top1, speed))
                print(f"  {dpi} dpi {engine_id:18s} CER {cer:.4f}  section recall {recall:.3f} (born-digital 1.000)  "
                      f"same page {same_page:.3f}  exact top-1 {top1:.3f} (born-digital {base_top1:.3f})  "
                      f"pages/s {speed}", flush=True)
                missing = [s.title for s, k in zip(base_secs, base_keys) if k not in found]
                if missing:
                    print(f"    sections not found: {missing[:8]}")
    print("\n| document | dpi | engine | CER | section recall | same page | exact top-1 (digital → OCR) | pages/s |")
    print("|---|---|---|---|---|---|---|---|")
    for name, dpi, engine_id, cer, recall, same_page, base_top1, top1, speed in rows:
        print(f"| {name} | {dpi} | {engine_id} | {cer:.2%} | {recall:.3f} | {same_page:.3f} | "
              f"{base_top1:.3f} → {top1:.3f} | {speed} |")


if __name__ == "__main__":
    main()
