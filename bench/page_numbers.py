"""Page numbers of PDF passages, checked against an independent PDF engine.

Run: ``python bench/page_numbers.py [--nist N] [--per-doc K] [--seed S] [FILE ...]``
(default: the PDFs of ``../shared/data/documents/pdf`` and ``../shared/data/real/pdf``, plus ``N``
= 20 PDFs under 1.5 MB drawn with seed ``S`` from the NIST mirror
``/work/.mirror/fractional-ciso+NIST-Cybersecurity-Documents/repo``, a bare git directory, when
present; ``K`` = 40 lines per document).

Truth comes from PDFium (pypdfium2), a different engine from the pdfminer.six that docstrata
converts with: each page's text as PDFium reads it. Sampled per document: ``K`` lines of PDFium's
text with at least 40 letters or digits whose *key* (NFKC, lowercased, letters and digits only)
and each half of it, occurs once in the whole document (pages joined) — so the line's page is
known without our code (a summary repeating a body sentence is not sampled).
Each document is converted, parsed and chunked as ingest does (800 tokens, the bundled
tokenizer) and given pages by :func:`docstrata.pages.assign_pages`. A line is **found** when its
key is inside the key of one or more chunks' content (lines of running headers and footers, which
conversion drops, are not found), and **right** when every chunk holding it has
``physical_page_start ≤ page ≤ physical_page_end``. Printed: per document and in all, found /
right / accuracy (right / found), the mean and maximum page span of the chunks holding the
lines, and two label checks: a chunk numbered ``physical`` has its physical numbers as labels, one
``printed`` by a PDF's own ``/PageLabels`` has PDFium's label (``FPDF_GetPageLabel``) of its
pages; a page number docstrata read from a page's header or footer (PDFs without labels) must
stand on one of the first or last five lines of PDFium's text of that page ("confirmed"; a
page given its number between two that print theirs cannot be, and is listed).
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent
SHARED = [ROOT.parent / "shared" / "data" / "documents" / "pdf", ROOT.parent / "shared" / "data" / "real" / "pdf"]
NIST = Path("/work/.mirror/fractional-ciso+NIST-Cybersecurity-Documents/repo")


def key(text: str) -> str:
    """Letters and digits only, NFKC-folded and lowercased (ligatures, hyphens, spacing differ by engine)."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).casefold())


def pdfium_pages(path: Path) -> tuple[list[str], list[str]]:
    """(text, label) of each page as PDFium reads it (label "" when the PDF defines none)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        texts, labels = [], []
        for i in range(len(pdf)):
            page = pdf[i]
            texts.append(page.get_textpage().get_text_bounded())
            labels.append(pdf.get_page_label(i) or "")
        return texts, labels
    finally:
        pdf.close()


def sample_lines(texts: list[str], k: int, rng: random.Random) -> list[tuple[str, int]]:
    """``k`` (line key, 0-based page) pairs: lines of ≥ 40 letters/digits whose key, and each half
    of it, occurs once in the whole document (pages joined, so a repeat across a page break is
    seen; halves, so is a sentence repeated elsewhere with another line break or interleaving)."""
    whole = "".join(key(t) for t in texts)  # a repeat straddling a page break counts too
    candidates = []
    for p, text in enumerate(texts):
        for line in re.split(r"[\r\n]+", text):
            lk = key(line)
            if len(lk) >= 40 and "...." not in line:
                candidates.append((lk, p))
    rng.shuffle(candidates)
    out, seen = [], set()
    for lk, p in candidates:
        if lk in seen:
            continue
        seen.add(lk)
        half = len(lk) // 2  # each half once too: a sentence repeated elsewhere, laid out otherwise, is out
        if all(whole.count(part) == 1 for part in (lk, lk[:half], lk[half:])):
            out.append((lk, p))
        if len(out) == k:
            break
    return out


def chunks_of(path: Path):
    from structure_real import count_tokens

    from docstrata.chunking import chunk_tree
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.pages import assign_pages
    from docstrata.structure import build_tree

    doc = convert_file(SourceFile(path.name, str(path), None))
    tree = build_tree(doc)
    chunks = chunk_tree(tree, count_tokens=count_tokens, max_tokens=800)
    fallbacks = assign_pages(doc, tree, chunks)
    return chunks, fallbacks


def check(path: Path, per_doc: int, seed: int) -> dict:
    texts, labels = pdfium_pages(path)
    lines = sample_lines(texts, per_doc, random.Random(f"{seed}:{path.name}"))
    chunks, fallbacks = chunks_of(path)
    keyed = [(key(c.content), c) for c in chunks]
    found = right = 0
    spans = []
    wrong: list[str] = []
    for lk, p in lines:
        holders = [c for ck, c in keyed if lk in ck]
        if not holders:
            continue
        found += 1
        ok = all(c.physical_page_start is not None and c.physical_page_start <= p + 1 <= c.physical_page_end
                 for c in holders)
        right += ok
        spans += [c.physical_page_end - c.physical_page_start + 1 for c in holders if c.physical_page_start]
        if not ok:
            wrong.append(f"{path.name}: line on page {p + 1} in " + ", ".join(
                f"{c.chunk_id} pp. {c.physical_page_start}-{c.physical_page_end}" for c in holders))
    defined = any(lab and lab != str(i + 1) for i, lab in enumerate(labels))  # the PDF's own /PageLabels
    label_ok = 0
    shown: dict[int, str] = {}  # physical page (1-based) → the printed label chunks give it
    for c in chunks:
        if c.physical_page_start is None:
            continue
        ends = [c.physical_page_start, c.physical_page_end]
        if c.page_numbering == "physical":
            label_ok += [c.page_start, c.page_end] == [str(p) for p in ends]
        elif defined:
            label_ok += [c.page_start, c.page_end] == [labels[p - 1] for p in ends]
        else:  # a folio read from the page: checked on PDFium's text of that page below
            label_ok += 1
            shown.update(zip(ends, [c.page_start, c.page_end]))
    confirmed = [p for p, lab in shown.items() if prints_folio(texts[p - 1], lab)]
    unconfirmed = [f"{path.name}: physical page {p} labelled {lab!r}" for p, lab in sorted(shown.items())
                   if p not in confirmed]
    return {"doc": path.name, "pages": len(texts), "sampled": len(lines), "found": found, "right": right,
            "spans": spans, "wrong": wrong, "chunks": len(chunks),
            "paged": sum(c.page_start is not None for c in chunks),
            "label_ok": label_ok, "fallbacks": fallbacks, "folio_pages": len(shown), "folio_confirmed": len(confirmed),
            "unconfirmed": unconfirmed, "printed_chunks": sum(c.page_numbering == "printed" for c in chunks)}


def prints_folio(text: str, label: str) -> bool:
    """Whether PDFium's text of a page shows ``label`` as its page number: alone on one of its
    first or last five lines (a margin note and a two-line running header may come first), or
    ending / starting one ("SP 800-30 Page ii", "12 of 40")."""
    rows = [r.strip() for r in re.split(r"[\r\n]+", text) if r.strip()]
    lab = re.escape(label)
    # \x02: PDFium's end-of-line hyphen, after which it runs a folio into the last text line
    pattern = re.compile(rf"(?:^|[\s\x02])(?:page\s+)?{lab}(?:\s+of\s+\d+)?$|^(?:page\s+)?{lab}(?:\s|$)", re.I)
    return any(pattern.search(r) for r in rows[:5] + rows[-5:])


def nist_files(n: int, seed: int, into: Path) -> list[Path]:
    """``n`` PDFs under 1.5 MB from the NIST mirror (a bare git directory), written to ``into``."""
    if not NIST.exists() or n <= 0:
        return []
    listing = subprocess.run(["git", f"--git-dir={NIST}", "ls-tree", "-r", "-l", "HEAD"], capture_output=True,
                             text=True, check=True).stdout
    names = []
    for row in listing.splitlines():
        meta, name = row.split("\t", 1)
        size = meta.split()[3]
        if name.lower().endswith(".pdf") and size.isdigit() and int(size) < 1_500_000:
            names.append(name)
    shared = {p.name.lower() for d in SHARED if d.exists() for p in d.glob("*.pdf")}
    names = [nm for nm in sorted(names) if not any(nm.lower().replace(".pdf", "") in s for s in shared)]
    out = []
    for name in random.Random(seed).sample(names, min(n, len(names))):
        target = into / re.sub(r"[^\w.-]+", "_", name)
        target.write_bytes(subprocess.run(["git", f"--git-dir={NIST}", "show", f"HEAD:{name}"], capture_output=True,
                                          check=True).stdout)
        out.append(target)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--nist", type=int, default=20, help="PDFs drawn from the NIST mirror (0: none)")
    ap.add_argument("--per-doc", type=int, default=40)
    ap.add_argument("--seed", type=int, default=14)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        files = list(args.files) or [p for d in SHARED if d.exists() for p in sorted(d.glob("*.pdf"))]
        if not args.files:
            files += nist_files(args.nist, args.seed, Path(tmp))
        total = {"sampled": 0, "found": 0, "right": 0, "chunks": 0, "paged": 0, "label_ok": 0, "fallbacks": 0,
                 "folio_pages": 0, "folio_confirmed": 0, "printed_chunks": 0}
        spans: list[int] = []
        wrong: list[str] = []
        unconfirmed: list[str] = []
        t0 = time.perf_counter()
        print(f"{'document':58} {'pages':>5} {'lines':>5} {'found':>5} {'right':>5} {'acc':>6} {'span':>5}")
        for path in files:
            try:
                r = check(path, args.per_doc, args.seed)
            except Exception as e:  # noqa: BLE001 - a PDF either engine cannot read is reported, not fatal
                print(f"{path.name[:58]:58} skipped: {type(e).__name__}: {str(e)[:60]}")
                continue
            for k in total:
                total[k] += r[k]
            spans += r["spans"]
            wrong += r["wrong"]
            unconfirmed += r["unconfirmed"]
            acc = r["right"] / r["found"] if r["found"] else float("nan")
            mean = sum(r["spans"]) / len(r["spans"]) if r["spans"] else float("nan")
            print(f"{r['doc'][:58]:58} {r['pages']:5d} {r['sampled']:5d} {r['found']:5d} {r['right']:5d} "
                  f"{acc:6.3f} {mean:5.2f}")
        print()
        print(f"documents {len(files)}, sampled lines {total['sampled']}, found in a chunk {total['found']} "
              f"({total['found'] / max(1, total['sampled']):.3f})")
        print(f"page accuracy (right / found): {total['right'] / max(1, total['found']):.4f} "
              f"({total['right']}/{total['found']})")
        if spans:
            within2 = sum(s <= 2 for s in spans) / len(spans)
            print(f"page span of the chunks holding them: mean {sum(spans) / len(spans):.2f}, max {max(spans)}, "
                  f"≤ 2 pages {within2:.3f}")
        print(f"chunks with pages {total['paged']}/{total['chunks']}; placed by their section (text not found) "
              f"{total['fallbacks']}; numbered by printed labels {total['printed_chunks']}")
        print(f"labels agreeing with PDFium (its /PageLabels, or physical positions): "
              f"{total['label_ok']}/{total['paged']}")
        print(f"printed page numbers read from headers/footers: {total['folio_pages']} pages cited, shown as that "
              f"page's number by PDFium's text {total['folio_confirmed']} "
              f"({total['folio_confirmed'] / max(1, total['folio_pages']):.4f})")
        print(f"elapsed {time.perf_counter() - t0:.1f} s")
        for w in wrong[:20]:
            print("WRONG", w)
        for u in unconfirmed[:40]:
            print("UNCONFIRMED", u)


if __name__ == "__main__":
    main()
