"""The xml2rfc reader on the RFC sources of bench/realdocs (trial 7, finding 6).

Run: ``python bench/xml2rfc_twins.py [--split dev|holdout|holdout2|all] [-v]``.

Each RFC / Internet-Draft in ``bench/realdocs/specs`` is stored as its xml2rfc text rendering
(``<name>.txt``, the test input of ``structure_real.py``) with its v2 XML source beside it as a twin
(``<name>.v2-source.xml``); the truth file ``<name>.txt.truth.json`` was computed from that XML by
``_tools/ex_rfc_v2.py`` (sections numbered as xml2rfc prints them, internal ``<xref>``s). Here the
**XML twin itself** is the input: it is converted (``convert.convert_file`` → the xml2rfc reader),
parsed and chunked exactly as ingest does, and scored against the same truth with
``structure_real.run_case`` (section recall, parent accuracy, id collisions, xref resolution,
citation share; see that module's docstring), plus **xref targets resolved**: truth internal
xrefs (most are empty ``<xref/>``, which ``run_case`` cannot compare by text) whose target section
is the resolved target of one of our cross-references, each of ours used once (an ``<xref
format="none">`` prints no reference, only its words, and is not counted). The split is the ``.txt`` document's split in
``bench/realdocs/index.json`` (rfc6635 dev, rfc8446 holdout, the three HTTPbis drafts holdout2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import structure_real as sr  # noqa: E402


def cases(split: str) -> list[tuple[Path, Path, str, str]]:
    """(truth, XML twin, doc_key, split) for every RFC text whose xml2rfc source is stored beside it."""
    out = []
    for truth, inp, key, sp in sr.load_cases("all", None, "realdocs"):
        twin = inp.with_name(inp.name[: -len(".txt")] + ".v2-source.xml") if inp.suffix == ".txt" else None
        if twin is None or not twin.exists() or split != "all" and sp != split:
            continue
        out.append((truth, twin, twin.relative_to(sr.REALDOCS).as_posix(), sp))
    return out


def xref_targets(truth_path: Path, twin: Path, key: str) -> tuple[int, int]:
    """``(resolved, truth)``: truth internal xrefs (the sampled ones, most with empty text, so
    ``run_case`` skips them) whose target section is the target of one of our resolved
    cross-references, each of ours used once (multiset match by section id)."""
    import json
    from collections import Counter

    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.structure import build_tree

    truth = json.loads(truth_path.read_text())
    tree = build_tree(convert_file(SourceFile(key, str(twin), None)))
    m = sr.match_sections(truth["sections"], tree.sections)
    by_anchor = {t.get("anchor"): i for i, t in enumerate(truth["sections"]) if t.get("anchor")}
    need = Counter()
    total = 0
    for x in truth.get("xrefs", []):
        if not x.get("internal") or x.get("target") not in by_anchor or x.get("format") == "none":
            continue
        total += 1
        i = by_anchor[x["target"]]
        if i in m:
            need[tree.sections[m[i]].section_id] += 1
    have = Counter(x.section_id for x in tree.cross_references if x.section_id and not getattr(x, "document", None))
    return sum(min(n, have[k]) for k, n in need.items()), total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("dev", "holdout", "holdout2", "all"), default="all")
    ap.add_argument("-v", "--verbose", action="store_true", help="list misses, wrong parents and xrefs")
    args = ap.parse_args(argv)
    todo = cases(args.split)
    if not todo:
        print("no xml2rfc twins under bench/realdocs/specs", file=sys.stderr)
        return 2
    results = [sr.run_case(*c) for c in todo]
    targets = {c[2]: xref_targets(c[0], c[1], c[2]) for c in todo}
    print(f"{'xml2rfc source (input)':50} {'split':8} {'secs':>5} {'recall':>6} {'parent':>6} {'coll':>4} "
          f"{'xref':>6} {'target':>6} {'cite':>6}")
    for r in results:
        ok, total = targets[r.doc]
        print(f"{r.doc[-50:]:50} {r.split:8} {r.sections:5d} {sr._ratio(r.matched, r.sections):>6} "
              f"{sr._ratio(r.parent_ok, r.parent_scored):>6} {r.collisions:4d} {sr._ratio(r.xrefs_ok, r.xrefs):>6} "
              f"{sr._ratio(ok, total):>6} {sr._ratio(r.chunks_ok, r.chunks):>6}" + (f"  ERROR {r.error}" if r.error else ""))
        if args.verbose:
            for label, items in (("miss", r.misses), ("parent", r.wrong_parents), ("xref", r.wrong_xrefs),
                                 ("chunk", r.wrong_chunks)):
                for it in items:
                    print(f"      {label}: {it}")
    for name in ["all", *sorted({r.split for r in results})]:
        s = sr.summarise([r for r in results if name == "all" or r.split == name])
        c = s["counts"]
        fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        ok = sum(targets[r.doc][0] for r in results if name == "all" or r.split == name)
        total = sum(targets[r.doc][1] for r in results if name == "all" or r.split == name)
        print(f"\n{name}: {s['documents']} documents; section recall {fmt(s['section_recall'])} ({c['matched']}/"
              f"{c['sections']}), parent accuracy {fmt(s['parent_accuracy'])} ({c['parent_ok']}/{c['parent_scored']}), "
              f"id collisions {s['id_collisions']}, xref resolution {fmt(s['xref_resolution'])} ({c['xrefs_ok']}/"
              f"{c['xrefs']}; {c['xref_skipped']} without text or truth target), xref targets resolved "
              f"{fmt(ok / total if total else None)} ({ok}/{total}), citation share "
              f"{fmt(s['citation_share'])} ({c['chunks_ok']}/{c['chunks']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
