"""Plain-text RFCs as the RFC Editor publishes them: section recall against each RFC's own table
of contents, and what becomes of that table (task s21-rfc).

Run: ``python bench/rfc_text.py [--dir DIR] [-v]``.

Inputs: ``rfcNNNN.txt`` files in ``--dir`` (default ``$DOCSTRATA_RFC_DIR`` or
``/tmp/docstrata-rfcs``), fetched from public repositories that vendor them (the files are not
kept in this repository: only the small ``tests/fixtures/rfc/rfc5234.txt`` is). The split is fixed
here: :data:`TUNED` were looked at while writing the fixes, :data:`HELD_OUT` were not, and are
reported apart.

Truth comes from the document itself: its ``Table of Contents`` lists every section number and
title (``   1.1.  Roles ....... 6``, ``   Appendix A.  Collected ABNF``, with or without dot
leaders, a long title wrapped onto an indented line). Each is matched to our sections with
``structure_real.match_sections`` (number, then parent). Figures per document:

* **recall**: ToC entries matched / ToC entries; **parent**: matched entries whose parent is the
  match of the ToC parent (the entry's number without its last component);
* **toc refs**: cross-references whose source is the section holding the ToC text (they are its
  lines, not references); **toc contents**: 1 when the ToC text is in a section that
  ``contents.is_contents_section`` marks (chunk_type ``contents``);
* **title**: 1 when the document title is the RFC's own centred title line (the line after the
  header block, compared as words).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import structure_real as sr  # noqa: E402

TUNED = ("rfc6749", "rfc3986", "rfc5234", "rfc6265")
HELD_OUT = ("rfc6066", "rfc4492")
DEFAULT_DIR = os.environ.get("DOCSTRATA_RFC_DIR", "/tmp/docstrata-rfcs")

_TOC_HEAD_RE = re.compile(r"^\s*Table of Contents\s*$", re.I)
_ENTRY_RE = re.compile(r"^\s+(?P<num>(?:Appendix\s+)?(?:[A-Z]|\d{1,2})(?:\.\d{1,2})*)\.?\s+(?P<title>\S.*?)"
                       r"(?:\s*(?:\.\s?){2,}\s*\d+|\s{2,}\d+)?\s*$")
_FOOTER_RE = re.compile(r"^(?:\S.*\[Page \d+\]|RFC \d+ .*\d{4})\s*$")


def toc_truth(text: str) -> tuple[list[dict], int, int]:
    """The ToC entries (``number``, ``title``, ``parent_index``) and the ToC's first and last line
    (0-based); ``([], -1, -1)`` when the RFC has no ``Table of Contents``."""
    lines = text.replace("\f", "\n").split("\n")
    start = next((i for i, ln in enumerate(lines) if _TOC_HEAD_RE.match(ln)), -1)
    if start < 0:
        return [], -1, -1
    out: list[dict] = []
    end = start
    for i in range(start + 1, len(lines)):
        ln = lines[i]
        if not ln.strip() or _FOOTER_RE.match(ln):
            continue
        if not ln.startswith(" "):  # the first heading after the ToC
            break
        m = _ENTRY_RE.match(ln)
        if m and not (out and ln.startswith(" " * 8) and not re.match(r"\s*(?:Appendix|[A-Z0-9]{1,2}\.)", ln)):
            num = m.group("num")  # "A." in RFC 3986's ToC is "Appendix A." in its body
            out.append({"number": f"Appendix {num}" if re.fullmatch(r"[A-Z]", num) else num,
                        "title": m.group("title").rstrip(". ")})
        elif out:  # a wrapped title
            out[-1]["title"] += " " + re.sub(r"\s*(?:\.\s?){2,}\s*\d+\s*$", "", ln.strip())
        end = i
    def key(number: str) -> str:  # "Appendix A" and "A.1" share the letter
        return re.sub(r"^appendix\s*", "", number, flags=re.I).lower()

    index = {key(t["number"]): k for k, t in enumerate(out)}
    for t in out:
        n = key(t["number"])
        t["parent_index"] = index.get(n.rsplit(".", 1)[0]) if "." in n else None
    return out, start, end


def rfc_title(text: str) -> str:
    """The RFC's own title: the first block of lines after the header block (one line, or a
    title wrapped onto two or three)."""
    lines = text.lstrip("\n\f").split("\n")
    i = next((k for k, ln in enumerate(lines) if not ln.strip()), 0)
    while i < len(lines) and not lines[i].strip():
        i += 1
    block = []
    while i < len(lines) and lines[i].strip():
        block.append(lines[i].strip())
        i += 1
    return " ".join(block)


def run(path: Path, verbose: bool = False) -> dict:
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.structure import build_tree
    from docstrata.structure.contents import is_contents_section

    text = path.read_text(encoding="utf-8", errors="replace")
    truth, toc_start, toc_end = toc_truth(text)
    doc = convert_file(SourceFile(path.name, str(path), None))
    tree = build_tree(doc)
    m = sr.match_sections(truth, tree.sections)
    parents = sum(1 for i in m if sr.parent_right(i, truth, tree.sections, m))
    # the section whose text holds the ToC: the one in force at the ToC's first entry line
    md_lines = doc.markdown.split("\n")
    first_entry = next((ln for ln in text.split("\n")[toc_start + 1:] if ln.strip()), "")
    at = next((k for k, ln in enumerate(md_lines) if ln.strip() == first_entry.strip()), -1) + 1
    holder = None
    for s in tree.sections:
        if s.start_line and s.start_line <= at:
            holder = s
    toc_refs = sum(1 for x in tree.cross_references if holder and x.source_section_id == holder.section_id)
    toc_contents = int(bool(holder and is_contents_section(holder)))
    want = " ".join(re.findall(r"\w+", rfc_title(text).lower()))
    title_ok = int(" ".join(re.findall(r"\w+", tree.title.lower())) == want)
    if verbose:
        for i, t in enumerate(truth):
            if i not in m:
                print(f"  miss {path.stem} {t['number']} {t['title']}")
        print(f"  {path.stem}: title={tree.title!r} toc holder={holder.section_id if holder else None}")
    return {"doc": path.stem, "entries": len(truth), "matched": len(m), "parents": parents,
            "toc_refs": toc_refs, "toc_contents": toc_contents, "title": title_ok}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=DEFAULT_DIR)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    base = Path(args.dir)
    print(f"{'document':10} {'split':8} {'toc':>4} {'recall':>7} {'parent':>7} {'toc refs':>8} {'contents':>8} {'title':>5}")
    for split, names in (("tuned", TUNED), ("held-out", HELD_OUT)):
        rows = [run(base / f"{n}.txt", args.verbose) for n in names if (base / f"{n}.txt").exists()]
        for r in rows:
            print(f"{r['doc']:10} {split:8} {r['entries']:4} {sr._ratio(r['matched'], r['entries']):>7} "
                  f"{sr._ratio(r['parents'], r['matched']):>7} {r['toc_refs']:8} {r['toc_contents']:8} {r['title']:5}")
        if rows:
            e, mt, p = (sum(r[k] for r in rows) for k in ("entries", "matched", "parents"))
            print(f"{'overall':10} {split:8} {e:4} {sr._ratio(mt, e):>7} {sr._ratio(p, mt):>7} "
                  f"{sum(r['toc_refs'] for r in rows):8} {sum(r['toc_contents'] for r in rows):8} "
                  f"{sum(r['title'] for r in rows):5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
