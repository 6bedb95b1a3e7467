"""Legislation XML read as a first-class input (issue 14, kind 9).

    python bench/legislation_xml_bench.py [--real DIR] [--documents DIR]

For every official XML twin in ``../shared/data/real/legislation`` (USLM, Akoma Ntoso /
LegalDocML.de, UK CLML) whose ``*.truth.json`` was read from that same XML by the corpus's own
extractor, converts the XML with ``docstrata.convert`` and parses it with ``build_tree``, then
prints per document:

* section recall: truth sections (number as printed, title) found among the parsed sections,
  matched in document order (numbers compared without ``§``/punctuation/case; a truth section
  without a number is matched by title);
* parent accuracy: matched sections whose parsed parent is the match of the truth parent;
* sections / definitions / cross-references extracted, and how many references resolved.

Also converts the USLM files in ``../shared/data/documents/xml`` (no truth: counts only) and
checks that other XML schemas fail with a reason.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# ../shared/data beside the repository (a git worktree one level deeper also finds it)
SHARED = next((p / "shared" / "data" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared" / "data").is_dir()),
              ROOT.parent / "shared" / "data")
REAL = SHARED / "real"
DOCUMENTS = SHARED / "documents"


def _norm_number(n: str | None) -> str:
    if not n:
        return ""
    n = n.lower().replace("§", " ").replace("sec.", " ").replace("section", " ")
    return re.sub(r"[\s.—–:\-]+", "", n).strip()


def _norm_title(t: str | None) -> str:
    return re.sub(r"\W+", " ", (t or "").lower()).strip()


def _truth_for(xml: Path) -> Path | None:
    """The truth.json that names ``xml`` as its twin (the XML the truth was read from)."""
    for p in sorted(xml.parent.glob("*.truth.json")):
        twins = json.loads(p.read_text(encoding="utf-8")).get("source", {}).get("twins") or []
        if any(Path(t.get("file", "")).name == xml.name for t in twins):
            return p
    return None


def _doc(xml: Path):
    from docstrata.convert import convert_file
    from docstrata.models import FileState, SourceFile

    st = xml.stat()
    return convert_file(SourceFile(xml.name, str(xml), FileState(st.st_size, st.st_mtime_ns, "")))


def score(tree, truth: dict) -> dict:
    """Section recall and parent accuracy of ``tree`` against a truth.json's sections."""
    parsed = tree.sections
    truth_secs = truth["sections"]
    match: dict[int, int] = {}
    j = 0
    for i, t in enumerate(truth_secs):
        tn, tt = _norm_number(t.get("number")), _norm_title(t.get("title"))
        for k in range(j, min(j + 400, len(parsed))):
            s = parsed[k]
            pn = _norm_number(s.number) or _norm_number(s.section_id.split("/")[-1])
            ptitle = _norm_title(s.title)
            tnum = _norm_title(t.get("number"))
            if tn and (pn == tn or ptitle == tnum or ptitle.startswith(tnum + " ")):
                if not tt or tt[:30] in ptitle:
                    match[i] = k
                    j = k + 1
                    break
            if not tn and tt and tt[:40] in ptitle:
                match[i] = k
                j = k + 1
                break
    bad: list[str] = []
    parent_ok = parent_n = 0
    idx = {s.section_id: n for n, s in enumerate(parsed)}
    for i, k in match.items():
        p = truth_secs[i].get("parent_index")
        if p is None or p not in match:
            continue
        parent_n += 1
        ok = idx.get(parsed[k].parent_id, -1) == match[p]
        parent_ok += ok
        if not ok and len(bad) < 5:
            bad.append(f"{parsed[k].section_id} under {parsed[k].parent_id}, truth parent {parsed[match[p]].section_id}")
    return {"truth": len(truth_secs), "found": len(match), "recall": len(match) / max(1, len(truth_secs)),
            "parent_accuracy": parent_ok / max(1, parent_n), "wrong_parents": bad}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=REAL)
    ap.add_argument("--documents", type=Path, default=DOCUMENTS)
    ap.add_argument("-v", "--verbose", action="store_true", help="list up to 5 wrong parents per document")
    args = ap.parse_args()
    from docstrata.errors import ConversionError
    from docstrata.structure import build_tree

    twins = sorted(p for p in (args.real / "legislation").glob("*.xml")
                   if any(x in p.name for x in (".uslm.", ".ldml.", ".clml.", ".akn.")))
    if not twins:
        print(f"no legislation XML under {args.real}", file=sys.stderr)
        return 1
    print(f"{'document':58} {'dialect':8} {'truth':>5} {'found':>5} {'recall':>6} {'parent':>6} "
          f"{'defs':>5} {'xrefs':>5} {'resolved':>8} {'ms':>6}")
    total_t = total_f = 0
    parents = []
    for xml in twins:
        t0 = time.perf_counter()
        doc = _doc(xml)
        tree = build_tree(doc)
        ms = (time.perf_counter() - t0) * 1000
        truth_path = _truth_for(xml)
        truth = json.loads(truth_path.read_text(encoding="utf-8")) if truth_path else {"sections": []}
        r = score(tree, truth)
        total_t += r["truth"]
        total_f += r["found"]
        parents.append(r["parent_accuracy"])
        resolved = sum(1 for x in tree.cross_references if x.section_id)
        dialect = xml.name.split(".")[-2]
        print(f"{xml.name:58} {dialect:8} {r['truth']:5} {r['found']:5} {r['recall']:6.3f} "
              f"{r['parent_accuracy']:6.3f} {len(tree.definitions):5} {len(tree.cross_references):5} "
              f"{resolved:8} {ms:6.0f}")
        for line in r["wrong_parents"] if args.verbose else []:
            print("    wrong parent:", line)
    print(f"overall section recall {total_f / max(1, total_t):.3f}, mean parent accuracy "
          f"{sum(parents) / max(1, len(parents)):.3f} over {len(twins)} XML twins")
    for xml in sorted((args.documents / "xml").glob("*.xml")):
        t0 = time.perf_counter()
        try:
            tree = build_tree(_doc(xml))
        except ConversionError as e:
            print(f"{xml.name:58} rejected: {e.reason[:90]}")
            continue
        ms = (time.perf_counter() - t0) * 1000
        resolved = sum(1 for x in tree.cross_references if x.section_id)
        print(f"{xml.name:58} sections {len(tree.sections):5} definitions {len(tree.definitions):4} "
              f"xrefs {len(tree.cross_references):5} resolved {resolved:5} {ms:6.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
