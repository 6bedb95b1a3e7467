"""How many defined-term links the English plural rule adds, and what they are (trial 16 item 13).

Run: ``python bench/term_links.py [--sample N]``.

Inputs: every document under ``../shared/data/real`` and ``../shared/data/documents`` that
converts without error (PDF left out for speed), converted and parsed as ingest does
(``convert.convert_file`` → ``structure.build_tree``; no index, no model). For each section with
text and each definition of its document (not in the section that states it), a link is counted
when the term occurs as a whole word (the rule before) or also as its plural / possessive
(``index.exact.term_pattern``, the rule now). Prints per rule the number of (section, term)
links, the links gained, and a sample of gained links with the matching words around them so
over-linking can be judged by eye (``--sample``, default 25, seeded).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from docstrata.convert import convert_file  # noqa: E402
from docstrata.index.exact import term_pattern  # noqa: E402
from docstrata.models import SourceFile  # noqa: E402
from docstrata.structure import build_tree  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
EXTS = {".md", ".txt", ".html", ".htm", ".docx", ".xml"}


def _files() -> list[Path]:
    out = []
    for sub in ("real", "documents"):
        base = DATA / sub
        if base.is_dir():
            out += [p for p in sorted(base.rglob("*")) if p.suffix.lower() in EXTS and p.is_file()
                    and not p.name.endswith(".truth.json") and "groundtruth" not in p.parts]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=25)
    args = ap.parse_args()
    if not DATA.is_dir():
        sys.exit(f"needs {DATA} (the shared data set)")
    old_links = new_links = docs = defs_total = 0
    gained: list[tuple[str, str, str]] = []
    for path in _files():
        try:
            doc = convert_file(SourceFile(path.name, str(path), None))
            tree = build_tree(doc)
        except Exception:  # noqa: BLE001 - a file the pipeline rejects is not part of this count
            continue
        if not tree.definitions:
            continue
        docs += 1
        defs_total += len(tree.definitions)
        for s in tree.sections:
            low = (s.text or "").casefold()
            if not low:
                continue
            for d in tree.definitions:
                if d.section_id == s.section_id or len(d.term) < 2:
                    continue
                t = d.term.casefold()
                old = re.search(rf"(?<!\w){re.escape(t)}(?!\w)", low) is not None
                m = re.search(term_pattern(d.term), low)
                old_links += old
                new_links += m is not None
                if m and not old:
                    gained.append((path.name, d.term, low[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")))
    print(f"documents with definitions: {docs}, definitions: {defs_total}")
    print(f"(section, term) links, whole word only: {old_links}")
    print(f"(section, term) links, with plurals/possessives: {new_links} (+{new_links - old_links})")
    rng = random.Random(16)
    for name, term, ctx in rng.sample(gained, min(args.sample, len(gained))):
        print(f"  {name}: {term!r}: …{ctx}…")


if __name__ == "__main__":
    main()
