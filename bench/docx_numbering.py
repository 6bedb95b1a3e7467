"""Word numbering recovered as section numbers, scored against the document's own citations.

A Word contract numbers its clauses automatically (``numbering.xml``); the displayed numbers are not
in the text. The same contract cites its clauses with the number *typed* next to the clause title:
"Section 1.5 (Feedback and Usage Data)", "Sections 5.1 (General Liability Cap) and 5.2 (Damages
Waiver)". Those typed pairs are a truth that does not come from ``numbering.xml``: they are read
here from the raw paragraph text of ``word/document.xml`` (zipfile + lxml, no docstrata code).

A pair is recovered when the document's section tree (``convert_file`` + ``build_tree``) has a
section whose id or alias is the cited number and whose title opens with the cited title (letters
and digits compared, case-folded; for a pinpoint ``4.6(b) (Survival)`` the title of ``4.6`` counts). Also reported: sections per document, id collisions (``-2``
suffixes) and the share of documents where conversion fails.

Usage::

    python bench/docx_numbering.py FOLDER [--show]

Every ``*.docx`` of FOLDER is scored (keep the dev and holdout documents in two folders; the
holdout is scored once, at the end). Run it with ``PYTHONPATH=<tree>/src`` to score a given tree
(main vs a branch).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import sys
import zipfile
from pathlib import Path

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# "Section 1.5 (Feedback and Usage Data)", "Sections 5.1 (General Liability Cap) and 5.2 (Damages Waiver)"
_CITE = re.compile(r"(?:Sections?|and|,)\s+(?P<num>\d{1,2}(?:\.\d{1,2}){0,2}(?:\([a-z0-9]{1,4}\)){0,2})"
                   r"\s+\((?P<title>[A-Z][^()]{2,60})\)")


def _key(text: str) -> str:
    return re.sub(r"[^\w]+", "", re.sub(r"</?u>|[*_]", "", text).lower())


def cited_pairs(data: bytes) -> set[tuple[str, str]]:
    """``{(number, title)}`` the document cites with the number typed (see module docstring)."""
    from lxml import etree

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = etree.fromstring(z.read("word/document.xml"),
                                etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
    pairs = set()
    for p in root.iter(f"{_W}p"):
        text = " ".join("".join(t.text or "" for t in p.iter(f"{_W}t")).split())
        for m in _CITE.finditer(text):
            pairs.add((m.group("num"), m.group("title").strip()))
    return pairs


def score(path: Path) -> dict:
    """Per-document figures: cited pairs, recovered pairs, sections, collisions; ``error`` on failure."""
    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile
    from docstrata.structure import build_tree

    data = path.read_bytes()
    pairs = cited_pairs(data)
    try:
        doc = convert_file(SourceFile(path.name, str(path), FileState(len(data), 0, hashlib.sha256(data).hexdigest())))
        tree = build_tree(doc)
    except Exception as e:  # noqa: BLE001 - a failed conversion is a figure here
        return {"file": path.name, "pairs": len(pairs), "found": 0, "sections": 0, "collisions": 0,
                "missed": sorted(pairs), "error": f"{type(e).__name__}: {e}"}
    by_number: dict[str, list[str]] = {}
    for s in tree.sections:
        for name in {s.section_id, *(s.aliases or [])}:
            title = re.sub(r"^\s*#*\s*(?:\d{1,3}(?:\.\d{1,3})*\.?|\(?[0-9A-Za-z]{1,4}[.)])?\s*", "", s.title or "")
            by_number.setdefault(name, []).append(_key(title))  # the title without its displayed number
    found, missed = 0, []
    for number, title in sorted(pairs):
        want = _key(title)
        titles = by_number.get(number, [])
        if titles and (pin := re.match(r"(.+?)\([a-z0-9]+\)$", number)):
            titles = titles + by_number.get(pin.group(1), [])  # "Section 4.6(b) (Survival)": the title of 4.6
        if any(want and t.startswith(want) for t in titles):
            found += 1
        else:
            missed.append((number, title))
    collisions = sum(1 for s in tree.sections if re.search(r"-\d+$", s.section_id)
                     and s.section_id.rsplit("-", 1)[0] in {x.section_id for x in tree.sections})
    return {"file": path.name, "pairs": len(pairs), "found": found, "sections": len(tree.sections),
            "collisions": collisions, "missed": missed, "error": None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--show", action="store_true", help="list the missed pairs of each document")
    args = ap.parse_args(argv)
    files = sorted(args.folder.glob("*.docx"))
    rows = [score(f) for f in files]
    pairs = sum(r["pairs"] for r in rows)
    found = sum(r["found"] for r in rows)
    for r in rows:
        if r["pairs"] or r["error"]:
            print(f"{r['file']:<70} {r['found']:>3}/{r['pairs']:<3} sections {r['sections']:>3} "
                  f"collisions {r['collisions']}" + (f"  ERROR {r['error']}" if r["error"] else ""))
            if args.show and r["missed"]:
                print("    missed:", r["missed"][:12])
    print(f"folder={args.folder.name} files={len(rows)} with_citations={sum(1 for r in rows if r['pairs'])} "
          f"cited_pairs={pairs} recall={found / pairs if pairs else 0:.3f} "
          f"collisions={sum(r['collisions'] for r in rows)} errors={sum(1 for r in rows if r['error'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
