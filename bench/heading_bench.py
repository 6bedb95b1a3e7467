"""Heading recovery and conversion speed of ``docstrata.convert`` on ../shared/data/documents.

Usage::

    HF_HUB_OFFLINE=1 python bench/heading_bench.py [--data ../shared/data/documents] [--speed]

Heading recall: for each reference Markdown file, the share of its headings that also appear as
headings in our conversion of the original (PDF / DOCX / HTML).

* references: docling's expected Markdown (``groundtruth_md/docling_X.md`` ↔ ``pdf/docling_X.pdf``,
  ``groundtruth_md/docling_X.docx.md`` ↔ ``docx/docling_X.docx``, ``…html.md`` ↔ ``html/…html``),
  and the Markdown twins ``md/us_constitution.md``, ``md/uslm_user_guide.md`` ↔ ``pdf/`` and
  ``md/uslm_2_0_review_guide_v2_0_12.md`` ↔ ``docx/``.
* headings: ATX lines (``#`` … ``######``) outside fenced code, in both files.
* matching rule: text normalised by :func:`docstrata.convert.normalize_heading` (links reduced to
  their text, entities and backslash escapes removed, punctuation except dots inside numbers
  dropped, whitespace collapsed, case folded); **level-agnostic**; multiset — a reference heading
  that occurs n times needs n recovered occurrences. ``strict`` requires equal normalised text;
  ``lenient`` also accepts texts equal once a leading numbering label (``1.2``, ``Chapter 1``) is
  dropped from either (references made by tools that omit Word's auto-numbers), or one text being a
  whole-word prefix of the other under the same number (``1 USLM`` ↔ ``1 USLM Schema``). Precision = matched / our headings.

``--speed`` also converts every supported file under the folder and prints seconds per MB per format.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from docstrata.convert import SUPPORTED_EXTENSIONS, convert_file, normalize_heading
from docstrata.models import FileState, SourceFile

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "documents"
TWINS = [  # (reference markdown, original) relative to the documents folder, beyond groundtruth_md
    ("md/us_constitution.md", "pdf/us_constitution.pdf"),
    ("md/uslm_user_guide.md", "pdf/uslm_user_guide.pdf"),
    ("md/uslm_2_0_review_guide_v2_0_12.md", "docx/uslm_2_0_review_guide_v2_0_12.docx"),
]


def source_for(path: Path, root: Path) -> SourceFile:
    st = path.stat()
    return SourceFile(doc_key=path.relative_to(root).as_posix(), path=str(path), state=FileState(st.st_size, st.st_mtime_ns, ""))


def headings(markdown: str) -> list[str]:
    out, fence = [], None
    for line in markdown.splitlines():
        marker = re.match(r"\s*(`{3,}|~{3,})", line)
        if marker:
            fence = None if fence and marker.group(1).startswith(fence) else (fence or marker.group(1)[:3])
            continue
        if fence is None and (m := re.match(r" {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)):
            key = normalize_heading(m.group(1))
            if key:
                out.append(key)
    return out


def pairs(root: Path) -> list[tuple[Path, Path]]:
    found = []
    for ref in sorted((root / "groundtruth_md").glob("*.md")):
        stem = ref.name[: -len(".md")]
        if "." in stem:  # "x.docx.md" / "x.html.md"
            original = root / stem.rsplit(".", 1)[1] / stem
        else:
            original = root / "pdf" / f"{stem}.pdf"
        if original.exists():
            found.append((ref, original))
    found += [(root / a, root / b) for a, b in TWINS if (root / a).exists() and (root / b).exists()]
    return found


_LABEL = re.compile(r"^((chapter|section|article|part|appendix)\s+)?\d+(\.\d+)*\s+")


def _unlabelled(key: str) -> str:
    return _LABEL.sub("", key + " ").strip()


def _lenient_equal(a: str, b: str) -> bool:
    """Equal once a leading numbering label is dropped, or one is a whole-word prefix of the
    other under the same number."""
    ua, ub = _unlabelled(a), _unlabelled(b)
    if ua and ua == ub:
        return True
    short, long = sorted((a, b), key=len)
    return ua != a and ub != b and a.split()[0] == b.split()[0] and long.startswith(short + " ")


def match(reference: list[str], ours: list[str], relaxed: bool) -> int:
    """Multiset matches of reference headings in ours (each of ours used once)."""
    pool = Counter(ours)
    matched = 0
    leftovers = []
    for key in reference:
        if pool[key] > 0:
            pool[key] -= 1
            matched += 1
        else:
            leftovers.append(key)
    if relaxed:
        for key in leftovers:
            for cand in pool:
                if pool[cand] > 0 and _lenient_equal(key, cand):
                    pool[cand] -= 1
                    matched += 1
                    break
    return matched


def heading_report(root: Path, verbose: bool) -> dict[str, tuple[int, int, int]]:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # ref, strict, prefix, ours
    print(f"{'original':58} {'ref':>4} {'ours':>4} {'strict':>7} {'lenient':>7} {'precision':>9}")
    for ref, original in pairs(root):
        reference = headings(ref.read_text(encoding="utf-8"))
        ours = headings(convert_file(source_for(original, root)).markdown)
        strict, prefix = match(reference, ours, False), match(reference, ours, True)
        group = "twins" if ref.parent.name == "md" else "docling"
        group += "-" + original.suffix.lstrip(".")
        for i, v in enumerate((len(reference), strict, prefix, len(ours))):
            totals[group][i] += v
        print(f"{original.relative_to(root).as_posix():58} {len(reference):4} {len(ours):4} "
              f"{strict / len(reference):7.1%} {prefix / len(reference):7.1%} {prefix / max(len(ours), 1):9.1%}")
        if verbose:
            missing = Counter(reference) - Counter(ours)
            print("    missing:", sorted(missing.elements())[:40])
    print()
    for group, (n, strict, prefix, ours) in sorted(totals.items()):
        print(f"TOTAL {group:16} headings {n:4}  strict {strict / n:6.1%}  lenient {prefix / n:6.1%}  "
              f"precision {prefix / max(ours, 1):6.1%}")
    docling = [totals[g] for g in ("docling-pdf", "docling-docx") if g in totals]
    if docling:
        n, strict, prefix = (sum(t[i] for t in docling) for i in range(3))
        print(f"TOTAL {'docling pdf+docx':16} headings {n:4}  strict {strict / n:6.1%}  lenient {prefix / n:6.1%}")
    return {g: tuple(v[:3]) for g, v in totals.items()}


def speed_report(root: Path) -> None:
    per_format: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for path in sorted(root.rglob("*")):
        ext = path.suffix.lower().lstrip(".")
        if not path.is_file() or ext not in SUPPORTED_EXTENSIONS or path.parent.name == "groundtruth_md":
            continue
        start = time.perf_counter()
        convert_file(source_for(path, root))
        per_format[ext][0] += time.perf_counter() - start
        per_format[ext][1] += path.stat().st_size / 1e6
        per_format[ext][2] += 1
    print(f"\n{'format':6} {'files':>5} {'MB':>7} {'seconds':>8} {'s/MB':>7}")
    for ext, (seconds, mb, n) in sorted(per_format.items()):
        print(f"{ext:6} {n:5} {mb:7.2f} {seconds:8.2f} {seconds / mb:7.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the documents folder")
    parser.add_argument("--speed", action="store_true", help="also time conversion per format")
    parser.add_argument("-v", "--verbose", action="store_true", help="list missing headings")
    args = parser.parse_args()
    if not (args.data / "groundtruth_md").is_dir():
        print(f"no test data at {args.data}", file=sys.stderr)
        return 2
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    heading_report(args.data, args.verbose)
    if args.speed:
        speed_report(args.data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
