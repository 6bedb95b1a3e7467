"""PDF table rows filed in the section they are printed in, checked against an independent PDF engine.

Run: ``python bench/pdf_table_sections.py [--nist N] [--seed S] [--per-doc K] [FILE ...]``
(default: split **tuned** = the PDFs of ``../shared/data/documents/pdf`` and ``bench/realdocs/pdf``,
the ones looked at while fixing; split **holdout** = ``../shared/data/real/pdf`` plus ``N`` = 6 PDFs
under 1.5 MB drawn with seed ``S`` from the NIST mirror, a bare git directory, when present).

Each document is converted and parsed into sections as ingest does (``convert_file``,
``build_tree``). Sampled: up to ``K`` = 60 table cells per document — cells of the Markdown table
rows in a section's text with at least 20 letters or digits, whose *key* (NFKC, lowercased,
letters and digits only) prefix of 24 characters occurs once in PDFium's text of the whole
document (pypdfium2, another engine than the pdfminer.six docstrata converts with) and once in
docstrata's text. Positions come from PDFium: a cell's is the (page, top y) of its first
character; a section's heading is located the same way at its first occurrence that starts a
line of PDFium's text and is on no contents page (three or more dot-leader lines) nor a dot-leader
line (the n-th such occurrence for the n-th section with that heading), sections whose heading is
not found that way are left out. The **truth** section of a cell is the located section whose heading
comes last before the cell in (page, descending y) order — the nearest heading above it on its page,
or the last heading of an earlier page; docstrata's is the section holding the cell (or, when that
heading was not located, the located section before it in document order). Printed per document
and per split: cells sampled, right, share right, and a few wrong ones.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import unicodedata
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
TUNED = [SHARED / "documents" / "pdf", ROOT / "bench" / "realdocs" / "pdf"]
HOLDOUT = [SHARED / "real" / "pdf"]
PREFIX = 24


def key(text: str) -> str:
    """Letters and digits only, NFKC-folded and lowercased (ligatures, hyphens, spacing differ by engine)."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).casefold())


class PdfiumText:
    """PDFium's text of a PDF as one key string, with the (page, top y) of each key character and
    the key offsets where a text line starts, but for lines with a dot leader and lines of a
    contents page (three or more lines ending in a dot leader and a page number)."""

    def __init__(self, path: Path):
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(path))
        parts: list[str] = []
        self.where: list[tuple[int, float]] = []
        self.line_starts: set[int] = set()
        try:
            for p in range(len(pdf)):
                textpage = pdf[p].get_textpage()
                n = textpage.count_chars()
                text = textpage.get_text_range(0, n) if n else ""
                if len(text) != n:  # characters outside the BMP: offsets would not match, skip the page
                    continue
                line_start, leader = True, False
                contents = len(re.findall(r"(\.\s?){4,}\s*\S{0,6}\s*$", text, re.MULTILINE)) >= 3
                for i, ch in enumerate(text):
                    if ch in "\r\n":
                        line_start = True
                        continue
                    if line_start:
                        end = text.find("\n", i)
                        leader = bool(re.search(r"(\.\s?){4,}", text[i:end if end >= 0 else None]))
                    k = key(ch)
                    if not k:
                        continue
                    if line_start and not leader and not contents:
                        self.line_starts.add(len(self.where))
                    line_start = False
                    top = textpage.get_charbox(i)[3]
                    for c in k:
                        parts.append(c)
                        self.where.append((p, top))
        finally:
            pdf.close()
        self.text = "".join(parts)

    def position(self, k: str, *, line_start: bool = False, nth: int = 0) -> tuple[int, float] | None:
        """(page, -top) of ``k``: its only occurrence, or (``line_start``) the ``nth`` one starting a
        non-contents line (the last one when there are fewer); None when there is none (or more
        than one, without ``line_start``)."""
        at = self.text.find(k)
        if not line_start:
            return None if at < 0 or self.text.find(k, at + 1) >= 0 else self._pos(at)
        found = []
        while at >= 0 and len(found) <= nth:
            if at in self.line_starts:
                found.append(at)
            at = self.text.find(k, at + 1)
        return self._pos(found[min(nth, len(found) - 1)]) if found else None

    def _pos(self, at: int) -> tuple[int, float]:
        page, top = self.where[at]
        return page, -top


def table_cells(text: str) -> list[str]:
    """The cells of the Markdown table rows of a section's text."""
    cells = []
    for line in text.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()):
            cells += [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
    return cells


def check(path: Path, per_doc: int, seed: int) -> dict:
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.structure import build_tree

    doc = convert_file(SourceFile(path.name, str(path), None))
    sections = build_tree(doc).sections
    pdfium = PdfiumText(path)
    whole = key(doc.markdown)
    located: list[tuple[int, tuple[int, float]]] = []  # (section index, heading position)
    seen: dict[str, int] = {}  # a heading printed twice ("Chapter 3 …" over two sections): the n-th time
    for n, section in enumerate(sections):
        hk = key(section.heading.lstrip("#") if section.heading else section.title)
        seen[hk] = seen.get(hk, -1) + 1
        pos = pdfium.position(hk, line_start=True, nth=seen[hk]) if len(hk) >= 3 else None
        if pos is not None:
            located.append((n, pos))
    located_ids = {n for n, _ in located}
    samples = []
    for n, section in enumerate(sections):
        for cell in table_cells(section.text):
            ck = key(cell)[:PREFIX]
            if len(key(cell)) >= 20 and whole.count(ck) == 1:
                pos = pdfium.position(ck)
                if pos is not None:
                    samples.append((n, cell, pos))
    random.Random(f"{seed}:{path.name}").shuffle(samples)
    right, wrong = 0, []
    for n, cell, pos in samples[:per_doc]:
        before = [m for m, hpos in located if hpos < pos]
        truth = max(before, key=lambda m: dict(located)[m]) if before else None
        ours = max((m for m in located_ids if m <= n), default=None)
        if truth == ours:
            right += 1
        else:
            def name(m):
                return "(before any heading)" if m is None else sections[m].title[:50]
            wrong.append(f"{path.name} p.{pos[0] + 1}: {cell[:50]!r} in {name(ours)!r}, printed under {name(truth)!r}")
    return {"sampled": min(per_doc, len(samples)), "right": right, "wrong": wrong}


def nist_files(n: int, seed: int, into: Path) -> list[Path]:
    from page_numbers import nist_files as draw

    return draw(n, seed, into)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nist", type=int, default=6, help="PDFs drawn from the NIST mirror for the holdout (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-doc", type=int, default=60)
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    if not args.files and not SHARED.exists():
        sys.exit(f"skipped: {SHARED} is absent (the shared documents); give PDF files instead")
    with tempfile.TemporaryDirectory() as tmp:
        if args.files:
            splits = {"given": args.files}
        else:
            splits = {
                "tuned": sorted(p for d in TUNED if d.exists() for p in d.glob("*.pdf")),
                "holdout": sorted(p for d in HOLDOUT if d.exists() for p in d.glob("*.pdf"))
                + nist_files(args.nist, args.seed, Path(tmp)),
            }
        for split, files in splits.items():
            sampled = right = 0
            wrong: list[str] = []
            for path in files:
                r = check(path, args.per_doc, args.seed)
                sampled, right = sampled + r["sampled"], right + r["right"]
                wrong += r["wrong"]
                share = f"{r['right'] / r['sampled']:.3f}" if r["sampled"] else "-"
                print(f"  {split:8} {path.name[:60]:60} cells {r['sampled']:4}  right {r['right']:4}  {share}")
            share = f"{right / sampled:.3f}" if sampled else "-"
            print(f"{split}: {len(files)} PDFs, table cells {sampled}, in the printed section {right} ({share})")
            for line in wrong[:8]:
                print("    wrong:", line)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
