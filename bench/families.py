"""The two document families added as profiles (issue 28) on documents never used in development.

    python bench/families.py --kramdown DIR [--gii DIR --sample 40 --seed 0]

``--kramdown DIR``: kramdown-rfc sources ``<name>.md`` beside the working group's own xml2rfc
rendering ``<name>.txt`` (e.g. httpwg/http-extensions: the ``draft-*.md`` of ``main`` and the
``draft-*.txt`` of branch ``gh-pages``). Truth is the rendered table of contents: every numbered
entry except the References kramdown-rfc generates from front matter must be a section with that
number and title; parents follow the numbers (``2.1`` in ``2``, ``A.1`` in ``appendix-a``);
numbered sections the rendering does not list are reported (deeper than its ToC depth, or made
from running text).

``--gii DIR``: gesetze-im-internet XML acts (``<dokumente>``; e.g. jurGesetze/Deutsche-Gesetze-Parser
``laws/*/*.xml`` flattened into one folder); a seeded sample of ``--sample`` acts of 5–250 KB.
Truth is read from each act's own metadata: every ``<enbez>§ N</enbez>`` / ``Art N`` norm is a
section numbered so, whose parent is the outline unit (``<gliederungsbez> <gliederungstitel>``)
before it. Also counts ids made unique by a suffix (``-2``).
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import re
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

_TOC = re.compile(r"^\s+(Appendix [A-Z]{1,2}|[A-Z](?:\.\d+)+|\d+(?:\.\d+)*)\.\s+(.+?)\s*$")


def _tree(path: str):
    return build_tree(convert_file(SourceFile(Path(path).name, path, FileState(0, 0, ""))))


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def kramdown(folder: str) -> None:
    total = found = parents = extra = 0
    for md in sorted(glob.glob(os.path.join(folder, "*.md"))):
        txt = Path(md[:-3] + ".txt")
        if not txt.exists():
            continue
        lines = txt.read_text(encoding="utf-8").split("\n")
        start = next(i for i, line in enumerate(lines) if line.strip() == "Table of Contents")
        toc = []
        for line in lines[start + 2:]:
            if not line.strip():
                break
            if (m := _TOC.match(line)) and "References" not in m.group(2):
                toc.append((m.group(1), m.group(2)))
        tree = _tree(md)
        by_number = {s.number: s for s in tree.sections if s.number}
        hits = [(n, t) for n, t in toc if n in by_number and _norm(t) in _norm(by_number[n].title)]
        ok_parent = 0
        for n, _ in hits:
            head = n.rsplit(".", 1)[0] if "." in n else None
            want = None if head is None else ("appendix-" + head.lower() if re.fullmatch(r"[A-Z]{1,2}", head) else head)
            ok_parent += by_number[n].parent_id == want
        numbers = {n for n, _ in toc} | {m.group(1) for line in lines if (m := _TOC.match(line))}
        more = [s for s in tree.sections if s.number and s.number not in numbers]
        total, found, parents, extra = total + len(toc), found + len(hits), parents + ok_parent, extra + len(more)
        print(f"{Path(md).name:48} toc {len(toc):3}  found {len(hits):3}  parent {ok_parent:3}  "
              f"numbered sections not in the ToC {len(more)} (deepest level {max((s.level for s in more), default=0)})")
    print(f"kramdown-rfc: section recall {found / max(total, 1):.3f} ({found}/{total}), "
          f"parent accuracy {parents / max(found, 1):.3f}, numbered sections beyond the rendered ToC {extra}")


def gii(folder: str, sample: int, seed: int) -> None:
    from lxml import etree

    files = [f for f in sorted(glob.glob(os.path.join(folder, "*.xml"))) if 5000 < os.path.getsize(f) < 250000]
    random.Random(seed).shuffle(files)
    total = found = parents = collisions = 0
    for f in files[:sample]:
        truth, unit = [], None
        for norm in etree.parse(f).getroot().iter("norm"):
            meta = norm.find("metadaten")
            if meta is None:
                continue
            g = meta.find("gliederungseinheit")
            if g is not None:
                unit = " ".join(" ".join(" ".join(e.itertext()) for e in (g.find("gliederungsbez"), g.find("gliederungstitel"))
                                         if e is not None).split())
                continue
            m = re.fullmatch(r"(§|Art)\s*(\d+[a-z]?)", " ".join((meta.findtext("enbez") or "").split()))
            if m:
                truth.append((("§ " if m.group(1) == "§" else "Artikel ") + m.group(2), unit))
        tree = _tree(f)
        by_id = {s.section_id: s for s in tree.sections}
        ids = [s.section_id for s in tree.sections]
        hit = par = 0
        for number, unit_heading in truth:
            s = next((s for s in tree.sections if s.number and " ".join(s.number.split()) == number
                      and s.heading.startswith("#")), None)
            if s is None:
                continue
            hit += 1
            parent = by_id.get(s.parent_id)
            par += (parent is None) if unit_heading is None else (
                parent is not None and " ".join(parent.heading.lstrip("#").split()) == unit_heading)
        coll = sum(1 for i in ids if re.search(r"-\d+$", i) and i.rsplit("-", 1)[0] in ids)
        total, found, parents, collisions = total + len(truth), found + hit, parents + par, collisions + coll
        print(f"{Path(f).name:34} units {len(truth):4}  found {hit:4}  parent {par:4}  suffixed ids {coll}")
    print(f"gesetze-im-internet: section recall {found / max(total, 1):.3f} ({found}/{total}), "
          f"parent accuracy {parents / max(found, 1):.3f}, ids made unique by a suffix {collisions}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kramdown", help="folder of kramdown-rfc .md sources beside their rendered .txt")
    ap.add_argument("--gii", help="folder of gesetze-im-internet .xml acts")
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if not args.kramdown and not args.gii:
        ap.error("give --kramdown DIR and/or --gii DIR")
    if args.kramdown:
        kramdown(args.kramdown)
    if args.gii:
        gii(args.gii, args.sample, args.seed)


if __name__ == "__main__":
    main()
