"""Does every word of a legislation XML reach its Markdown? (text-loss check of ``convert.legislation_xml``)

    python bench/legislation_text_coverage.py [PATH ...] [--show N] [--max-files N] [--json]

PATH: XML files or folders (searched recursively for ``*.xml``/``*.XML``); by default
``bench/realdocs/legislation-xml`` and, when present, ``../shared/data/real/legislation`` and
``../shared/data/documents/xml``. Files that are no legislation XML dialect docstrata reads
(legacy bill DTDs, Formex, xml2rfc) are counted as skipped.

For each document, every text node of the XML (an element's ``text`` and every child's ``tail``)
outside the elements the converter drops on purpose is normalised (case folded, every run of
characters other than letters and digits one space) and looked up in the normalised Markdown.
A text node is one run of printed words that no element interrupts, so the converter must write
it contiguously (margin notes, footnote markers and quotes go *between* text nodes, never inside
one); a node that is not found is text the conversion lost. Reported per document and overall:
words in the XML's text, words in lost nodes, lost nodes, and (``--show``) the first lost nodes
with the element they belong to.

Deliberately dropped, not counted: the dialect's ``skip`` elements (metadata, tables of contents,
running heads, ``<page>`` markers, images; Akoma Ntoso ``<marker>``/``<authorialNote>``/``<noteRef>``;
CLML commentaries, footnotes and margin notes; Justice Canada running heads, bill history, chapter
and registration numbers, short-title blocks), a footnote marker inside a provision's number
(``Sec. (2)¹`` is section 2), and whitespace-only nodes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from docstrata.convert import legislation_ca
from docstrata.convert.legislation_xml import (
    JUSTICE_CA,
    _is_footnote_ref,
    _local,
    convert_legislation_xml,
    detect_dialect,
    parse_xml,
)
from docstrata.errors import ConversionError

SHARED = next((p / "shared" / "data" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared" / "data").is_dir()),
              ROOT.parent / "shared" / "data")
DEFAULT_PATHS = [ROOT / "bench" / "realdocs" / "legislation-xml", SHARED / "real" / "legislation",
                 SHARED / "documents" / "xml"]
_NON_WORD = re.compile(r"[^0-9a-z]+")


def _norm(text: str) -> str:
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def text_nodes(root, dialect) -> list[tuple[str, str]]:
    """``(element name, text)`` for every text node outside the dialect's dropped elements, in
    document order (an element's ``text``, then each child's subtree, then the child's ``tail``)."""
    out: list[tuple[str, str]] = []

    def visit(el, in_num: bool) -> None:
        name = _local(el.tag)
        if el.text and el.text.strip() and not (in_num and _is_footnote_ref(el)):
            out.append((name, el.text))
        for c in el:
            cname = _local(c.tag)
            if cname and cname not in dialect.skip:
                visit(c, in_num or cname in dialect.num)
            if c.tail and c.tail.strip():
                out.append((name, c.tail))

    if _local(root.tag) not in dialect.skip:
        visit(root, False)
    return out


def check(path: Path, show: int = 0) -> dict | None:
    """Text-loss figures of one XML file, or ``None`` when it is no dialect docstrata reads."""
    data = path.read_bytes()
    try:
        root = parse_xml(data, path.name)
    except ConversionError as e:
        return {"file": str(path), "error": str(e)}
    dialect = detect_dialect(root)
    if dialect is None:
        return None
    if dialect is JUSTICE_CA:
        legislation_ca.nest_headings(root)  # as the converter reads it (moves elements, drops none)
    nodes = text_nodes(root, dialect)
    try:
        markdown = convert_legislation_xml(data, path.suffix, path.name).text
    except ConversionError as e:
        return {"file": str(path), "error": str(e)}
    md = _norm(markdown)
    words = lost_words = lost_nodes = 0
    samples = []
    for name, text in nodes:
        norm = _norm(text)
        if not norm:
            continue
        n = len(norm.split())
        words += n
        if norm not in md:  # word edges may join the next node ("1<sup>er</sup>" is "1er")
            lost_words += n
            lost_nodes += 1
            if len(samples) < show:
                samples.append(f"<{name}> {' '.join(text.split())[:140]}")
    return {"file": str(path), "dialect": dialect.name, "words": words, "lost_words": lost_words,
            "lost_nodes": lost_nodes, "samples": samples}


def _files(paths: list[Path]) -> list[Path]:
    out = []
    for p in paths:
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.suffix.lower() == ".xml" and f.is_file())
        elif p.is_file():
            out.append(p)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--show", type=int, default=3, help="lost text nodes shown per document")
    ap.add_argument("--max-files", type=int, default=0, help="read at most N files (0: all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    files = _files(args.paths or [p for p in DEFAULT_PATHS if p.exists()])
    if args.max_files:
        files = files[:args.max_files]
    results, skipped = [], 0
    for f in files:
        r = check(f, args.show)
        if r is None:
            skipped += 1
            continue
        results.append(r)
        if args.json:
            continue
        if "error" in r:
            print(f"{f.name[-60:]:60} ERROR {r['error'][:100]}")
            continue
        print(f"{f.name[-60:]:60} {r['dialect']:14} words {r['words']:7}  lost {r['lost_words']:5} "
              f"in {r['lost_nodes']:4} nodes")
        for s in r["samples"]:
            print("      lost:", s)
    ok = [r for r in results if "error" not in r]
    summary = {}
    for dialect in sorted({r["dialect"] for r in ok}):
        rs = [r for r in ok if r["dialect"] == dialect]
        summary[dialect] = {"documents": len(rs), "documents_losing_text": sum(1 for r in rs if r["lost_words"]),
                            "words": sum(r["words"] for r in rs), "lost_words": sum(r["lost_words"] for r in rs),
                            "lost_nodes": sum(r["lost_nodes"] for r in rs)}
    if args.json:
        print(json.dumps({"documents": results, "summary": summary, "skipped": skipped}, indent=1))
        return
    print(f"\n{len(ok)} documents read ({len(results) - len(ok)} errors, {skipped} not a legislation XML dialect)")
    for dialect, s in summary.items():
        print(f"{dialect:14}: {s['documents']} documents, {s['documents_losing_text']} losing text; "
              f"words lost {s['lost_words']}/{s['words']} in {s['lost_nodes']} text nodes")


if __name__ == "__main__":
    main()
