"""Sub-item spans inside chunks: does ``get_section("article-17(3)(b)")`` show that point's own lines?

Run: ``python bench/pinpoint_spans.py [FILE ...]`` (default: the legislation under
``bench/realdocs`` and ``../shared/data/real/legislation``, when present).

Each file is converted, parsed and chunked as ingest does (800 tokens, the bundled tokenizer; no
index). For every parenthesised sub-item a chunk holds besides its own section (``17(3)(b)``
inside the chunk of Article 17), the span :func:`docstrata.pinpoint.item_span` finds is compared
with the item's own text from the section tree (its heading and body, whitespace and Markdown
marks folded; the first 40 characters of one must be in the other). Prints per file, and in all:
**right** (the span is the item's text), **wrong** (a span of other text: an answer that cites
the wrong point), **unfound** (no span: ``get_section`` says so and shows the smallest unit that
is certain). Wrong is the figure that must stay 0.
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from structure_real import REALDOCS, SHARED_REAL, count_tokens


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[|*_`>\\#-]", " ", text).split())[:60]


def spans_of(path: Path) -> tuple[int, int, int]:
    """(right, wrong, unfound) sub-item spans of one file."""
    from docstrata.chunking import chunk_tree
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.structure import build_tree
    from docstrata.pinpoint import item_span

    tree = build_tree(convert_file(SourceFile(path.name, str(path), None)))
    chunks = chunk_tree(tree, count_tokens=count_tokens, max_tokens=800)
    sections = {s.section_id: s for s in tree.sections}
    right = wrong = unfound = 0
    for c in chunks:
        for sid in c.metadata.get("sections", ()):
            if sid == c.section_id or "(" not in sid or sid not in sections:
                continue
            span = item_span(c, sid)
            if span is None:
                unfound += 1
                continue
            want = _fold(f"{sections[sid].heading} {sections[sid].text}".strip())
            got = _fold(c.content[span[0]:span[1]])
            if want[:40] in got or got[:40] in want:
                right += 1
            else:
                wrong += 1
    return right, wrong, unfound


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv]
    if not files:
        for folder in (REALDOCS / "legislation-xml", SHARED_REAL / "legislation"):
            if folder.is_dir():
                files += sorted(p for p in folder.iterdir() if not p.name.endswith(".json"))
    totals = [0, 0, 0]
    warnings.simplefilter("ignore")
    for f in files:
        try:
            got = spans_of(f)
        except Exception as e:  # noqa: BLE001 - one unreadable file never stops the figures
            print(f"{f.name}: skipped ({e})")
            continue
        totals = [a + b for a, b in zip(totals, got)]
        print(f"{f.name:70s} right {got[0]:4d}  wrong {got[1]:3d}  unfound {got[2]:3d}")
    print(f"all {len(files)} files: right {totals[0]}, wrong {totals[1]}, unfound {totals[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
