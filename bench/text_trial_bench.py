"""Plain-text structure figures on a folder of documents (issue 14, session-6 trial).

Run: ``python bench/text_trial_bench.py --docs /tmp/trial14/me/docs`` (any folder; the trial's
plain-text files are MPL-2.0.txt and rfc8446.txt, which are not kept in this repository).

Per plain-text / Markdown file (converted and parsed as ingest does: ``convert_file`` →
``build_tree``), prints:

* sections; ``boxed`` = sections whose heading line came from inside an ASCII box (``*  6. …  *``);
  ``flush`` = ``<parent>-flush`` sections (a paragraph after the last limb of a list);
* definitions, and ``limbs`` = definitions that introduce limbs (``means any of the following:``)
  and hold them (``(a)`` follows the verb) / all that introduce limbs;
* cross-references, ``lettered`` = references to lettered appendix sections (``Appendix D.4``)
  resolved / found, ``external`` = references naming another document, and ``parent-fallbacks`` =
  references to a dotted number that is no section of the document but resolved to another
  section anyway (``4.3.7`` → ``4.3``: must be 0);
* ``expected`` = the sections the trial report says were missing, found / listed (only for the
  trial's two files: MPL 2.0 sections 6 and 7 and the flush text of 2.3; RFC 8446 D.3 and E.1.3),
  and the RFC 8446 §1.1 terminology terms found / 8.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree

EXPECTED = {"MPL-2.0.txt": ["6", "7", "2.3-flush"], "rfc8446.txt": ["D.3", "E.1.3"]}
TERMINOLOGY = {"rfc8446.txt": ["client", "connection", "endpoint", "handshake", "peer", "receiver", "sender", "server"]}


def figures(path: Path) -> dict[str, object]:
    doc = convert_file(SourceFile(path.name, str(path), None))
    tree = build_tree(doc)
    ids = {s.section_id for s in tree.sections}
    boxed_lines = {i + 1 for i, ln in enumerate(doc.markdown.split("\n")) if re.match(r"^\s*\*\s+\S.*\*\s*$", ln)}
    boxed = sum(1 for s in tree.sections if s.heading and s.start_line in boxed_lines)
    introducing = [d for d in tree.definitions if re.match(r"^means(?: any of the following)?:?\s*(?:\(|$)", d.definition)
                   or re.match(r"^means(?: any of the following)?:?$", d.definition.strip())]
    holding = [d for d in introducing if re.search(r"^means(?: any of the following)?:?\s*\(a\)", d.definition)]
    refs = tree.cross_references
    lettered = [r for r in refs if re.match(r"^(?:Appendix|Annex)\s+[A-Z]\.\d", r.text)]
    fallbacks = [r for r in refs if r.section_id and not r.document and re.fullmatch(r"[A-Z]?\d+(?:\.\d+)+", r.target)
                 and r.target not in ids and not r.section_id.startswith(r.target)]
    exp = EXPECTED.get(path.name, [])
    terms = {d.term.lower(): d for d in tree.definitions if d.section_id == "1.1"}
    term_list = TERMINOLOGY.get(path.name, [])
    return {
        "sections": len(tree.sections), "boxed": boxed, "flush": sum(1 for i in ids if i.endswith("-flush")),
        "definitions": len(tree.definitions), "limbs": f"{len(holding)}/{len(introducing)}",
        "xrefs": len(refs), "lettered": f"{sum(1 for r in lettered if r.section_id)}/{len(lettered)}",
        "external": sum(1 for r in refs if r.document), "parent-fallbacks": len(fallbacks),
        "expected": f"{sum(1 for e in exp if e in ids)}/{len(exp)}" if exp else "-",
        "terminology": f"{sum(1 for t in term_list if t in terms)}/{len(term_list)}" if term_list else "-",
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--docs", required=True, help="folder of documents (.txt and .md files are read)")
    args = ap.parse_args()
    files = sorted(p for p in Path(args.docs).iterdir() if p.suffix.lower() in (".txt", ".md"))
    if not files:
        print(f"no .txt or .md files in {args.docs}", file=sys.stderr)
        return 1
    for p in files:
        f = figures(p)
        print(f"{p.name}: " + ", ".join(f"{k} {v}" for k, v in f.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
