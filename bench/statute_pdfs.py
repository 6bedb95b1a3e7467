"""Section figures on statute PDFs in the Commonwealth reprint layout (Malaysian, Indian Acts):
truth read from each PDF's own printed "Arrangement of Sections".

Run: ``python bench/statute_pdfs.py [DIR] [--split dev|holdout|all] [--json] [-v]``

``DIR`` (default ``$DOCSTRATA_STATUTE_PDFS``, else ``<shared data>/statute-pdfs``) holds the PDFs and
an ``index.json`` mapping file name → ``{"split": "dev"|"holdout", "source": …}``; its README.txt
names each file's repository, commit and licence. Nothing of it is committed here.

Truth (independent of docstrata's parser): the PDF's text is read with pdfminer (``extract_text``);
from the first "ARRANGEMENT OF SECTIONS" to the enacting words (``An Act …``, ``ENACTED …``, ``BE IT
ENACTED``), each line ``N. Title`` (``N`` = ``12``, ``12A``) is a truth section, under the last
``PART <roman>`` / ``CHAPTER <roman>`` line above it; entries after a ``SCHEDULE`` line are left out.

Metrics (pooled over documents):

* **section recall**: truth sections for which the tree has a section of that number (``number``
  normalised: trailing ``.`` dropped, case folded) that holds body text (10 words or more, its own
  and its subsections' ``6(1)``, ``6(2)``: the section itself, not its contents line).
* **parent accuracy**: of those, the share whose nearest Part / Chapter ancestor has the truth
  container's number (``part-iii`` for ``PART III``), or none when the truth has none.
* **slug ids**: truth sections whose title (first four words) heads a section with a slug id (no
  number) instead: the marginal-note fault.
* **contents sections**: sections of a truth number without body text that come before the body
  section of the same number (a contents line taken for a section: ``part-vii(75)``).
* **furniture sections**: sections whose heading is a line printed at a page edge (first or last
  two lines) of a quarter of the pages, and at least two (running heads: "Laws of Malaysia", "ACT 136").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

_ENTRY = re.compile(r"^(\d{1,3}[A-Z]{0,3})\.\s+(\S.*)$")
_CONTAINER = re.compile(r"^(PART|CHAPTER)\s+([IVXLC]+[A-Z]?|\d+[A-Z]?)\b\.?\s*$", re.IGNORECASE)
_ENACTING = re.compile(r"^(An Act\b|ENACTED\b|BE IT ENACTED|WHEREAS\b)")


def default_dir() -> Path:
    env = os.environ.get("DOCSTRATA_STATUTE_PDFS")
    if env:
        return Path(env)
    shared = os.environ.get("DOCSTRATA_SHARED_DATA") or str(ROOT.parent / "shared" / "data")
    return Path(shared) / "statute-pdfs"


def page_texts(path: Path) -> list[str]:
    """The text of each page (pdfminer ``extract_pages``, default layout parameters), in one pass."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTTextContainer

    return ["".join(el.get_text() for el in page if isinstance(el, LTTextContainer))
            for page in extract_pages(str(path))]


def truth_sections(pages: list[str]) -> list[dict]:
    """``[{"number", "title", "container"}]`` from the printed Arrangement of Sections."""
    lines = [" ".join(ln.split()) for p in pages for ln in p.split("\n")]
    try:
        start = next(k for k, ln in enumerate(lines) if re.search(r"arrangement of sections", ln, re.I))
    except StopIteration:
        return []
    out: list[dict] = []
    container = None
    seen: set[str] = set()
    for ln in lines[start + 1:]:
        if _ENACTING.match(ln):
            break
        if re.search(r"\bSCHEDULE\b", ln) and not _ENTRY.match(ln):
            break
        c = _CONTAINER.match(ln)
        if c:
            container = f"{c.group(1).lower()}-{c.group(2).lower()}"
            continue
        e = _ENTRY.match(ln)
        if e and e.group(1) not in seen:
            seen.add(e.group(1))
            out.append({"number": e.group(1), "title": e.group(2), "container": container})
    return out


def truth_document(path: Path) -> dict:
    """The printed Arrangement of Sections of ``path`` as a truth document in the format of
    ``../shared/data/real`` (``{"sections": [{"number", "title", "level", "parent_index"}]}``): a
    ``PART III`` / ``CHAPTER II`` container at level 1 holds its sections at level 2. Read by
    ``bench/fit_structure.py --extra`` to fit the resolver on the dev statute PDFs."""
    sections: list[dict] = []
    index_of: dict[str, int] = {}
    for t in truth_sections(page_texts(path)):
        parent = None
        if t["container"]:
            if t["container"] not in index_of:
                word, num = t["container"].split("-", 1)
                index_of[t["container"]] = len(sections)
                sections.append({"number": f"{word.upper()} {num.upper()}", "title": "", "level": 1,
                                 "parent_index": None})
            parent = index_of[t["container"]]
        sections.append({"number": t["number"], "title": t["title"], "level": 2 if parent is not None else 1,
                         "parent_index": parent})
    return {"sections": sections, "definitions": [], "xrefs": []}


def edge_lines(pages: list[str]) -> set[str]:
    """Lines at a page edge (first or last two non-blank lines) on a quarter of the pages (and two)."""
    count: Counter[str] = Counter()
    for p in pages:
        ls = [" ".join(ln.split()) for ln in p.split("\n") if ln.strip()]
        count.update(set(ls[:2] + ls[-2:]))
    least = max(2, -(-len(pages) // 4))
    return {ln.lower() for ln, n in count.items() if n >= least and re.search(r"[^\W\d_]{3}", ln)}


def _norm(number: str | None) -> str:
    return (number or "").strip().rstrip(".").lower()


def evaluate(path: Path) -> dict:
    """Figures for one PDF (see the module docstring)."""
    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile
    from docstrata.structure import build_tree

    pages = page_texts(path)
    truth = truth_sections(pages)
    data = path.read_bytes()
    state = FileState(size=len(data), mtime_ns=0, sha256=hashlib.sha256(data).hexdigest())
    doc = convert_file(SourceFile(doc_key=path.name, path=str(path), state=state))
    tree = build_tree(doc, extract_definitions=False, extract_cross_references=False)
    secs = tree.sections
    by_id = {s.section_id: s for s in secs}

    below: dict[str, list] = {}
    for s in secs:
        if s.parent_id:
            below.setdefault(s.parent_id, []).append(s)

    def words(s) -> int:  # a section's text with its subsections' (6 holds 6(1), 6(2) and their paragraphs)
        return len(s.text.split()) + sum(words(c) for c in below.get(s.section_id, ()) if c.section_id.startswith(s.section_id + "("))

    def body(s) -> bool:
        return words(s) >= 10

    def container_of(s) -> str | None:
        p = by_id.get(s.parent_id) if s.parent_id else None
        while p is not None:
            m = re.match(r"(part|chapter)\s+([ivxlc]+[a-z]?|\d+[a-z]?)\b", (p.number or p.title or "").strip(), re.I)
            if m:
                return f"{m.group(1).lower()}-{m.group(2).lower()}"
            p = by_id.get(p.parent_id) if p.parent_id else None
        return None

    numbered: dict[str, list] = {}
    for s in secs:
        if s.number:
            numbered.setdefault(_norm(re.sub(r"^(section|sec\.?|s\.?)\s+", "", s.number, flags=re.I)), []).append(s)
    found = right = slugs = 0
    misses: list[str] = []
    wrong: list[str] = []
    slug_titles = {" ".join(s.title.lower().split()[:4]) for s in secs if not s.number and s.section_id != "preamble"}
    for t in truth:
        cands = [s for s in numbered.get(_norm(t["number"]), []) if body(s)]
        if not cands:
            misses.append(t["number"])
            if " ".join(t["title"].lower().split()[:4]) in slug_titles:
                slugs += 1
            continue
        found += 1
        got = container_of(cands[0])
        if got == t["container"]:
            right += 1
        else:
            wrong.append(f"{t['number']}: {got} != {t['container']}")
    contents = 0
    for n, group in numbered.items():
        if any(body(s) for s in group):
            first_body = next(k for k, s in enumerate(group) if body(s))
            contents += sum(1 for s in group[:first_body] if not body(s))
    edges = edge_lines(pages)
    furniture = sum(1 for s in secs if s.heading and " ".join(s.heading.lstrip("# ").split()).lower() in edges)
    return {"doc": path.name, "pages": len(pages), "truth": len(truth), "found": found, "parents_right": right,
            "slug_ids": slugs, "contents_sections": contents, "furniture_sections": furniture,
            "sections": len(secs), "misses": misses, "wrong_parents": wrong}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", type=Path, default=None)
    ap.add_argument("--split", default="all")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", action="store_true", help="list misses and wrong parents")
    args = ap.parse_args()
    folder = args.dir or default_dir()
    index_file = folder / "index.json"
    if not index_file.exists():
        print(f"{index_file}: not found (see the module docstring)", file=sys.stderr)
        return 2
    index = json.loads(index_file.read_text(encoding="utf-8"))
    rows = []
    for name, meta in sorted(index.items()):
        if args.split != "all" and meta.get("split") != args.split:
            continue
        rows.append({**evaluate(folder / name), "split": meta.get("split")})
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for split in sorted({r["split"] for r in rows}):
        part = [r for r in rows if r["split"] == split]
        print(f"== {split}")
        for r in part:
            print(f"{r['doc'][:60]:60} truth {r['truth']:4} recall {r['found'] / max(1, r['truth']):.3f} "
                  f"parents {r['parents_right'] / max(1, r['found']):.3f} slug {r['slug_ids']:3} "
                  f"contents {r['contents_sections']:3} furniture {r['furniture_sections']:3}")
            if args.v:
                print("   misses:", " ".join(r["misses"][:60]))
                print("   wrong parents:", "; ".join(r["wrong_parents"][:15]))
        t = sum(r["truth"] for r in part)
        f = sum(r["found"] for r in part)
        print(f"{split}: section recall {f / max(1, t):.3f} ({f}/{t}), parent accuracy "
              f"{sum(r['parents_right'] for r in part) / max(1, f):.3f}, slug ids {sum(r['slug_ids'] for r in part)}, "
              f"contents sections {sum(r['contents_sections'] for r in part)}, "
              f"furniture sections {sum(r['furniture_sections'] for r in part)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
