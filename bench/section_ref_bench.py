"""Section-reference queries put the named section first (issue 3).

    python bench/section_ref_bench.py [--source DIR] [--per-style N]

Ingests ../shared/data/documents (cached in bench/.cache/documents), then, for every numbered
section the parser found, asks for it in each citation style its numbering allows —
`Section 4.2.1`, `§ 4.2.1`, `Sec. 4.2.1`, bare `4.2.1` (dotted numbers only), `Article 17`,
`Art. 17`, `Rule 3.3.31`, `Section 203(a)(1)`, `Schedule 1`, `Part 2` — and checks that the
first hybrid result holds that section in *some* document that has it (a query that names
no document cannot prefer one RFC's 4.2 over another's). Prints the share per style.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
# ../shared/data/documents beside the repository, or under $DOCSTRATA_SHARED_DATA (a git worktree elsewhere)
DEFAULT_SOURCE = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or ROOT.parent / "shared" / "data") / "documents"


def styles_for(alias: str) -> list[tuple[str, str]]:
    """(style, query) pairs for one raw alias such as 'Section 4.2.1' or 'Article 17'."""
    m = re.fullmatch(r"(Section|Article|Rule|Schedule|Part|Chapter|Clause)\s+(\S+)", alias)
    if not m:
        return []
    kind, num = m.groups()
    out = [(kind.lower(), f"{kind} {num}")]
    if kind == "Section":
        out += [("§", f"§ {num}"), ("sec.", f"Sec. {num}")]
        if "." in num or "(" in num:
            out.append(("bare", num))
    if kind == "Article":
        out.append(("art.", f"Art. {num}"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--per-style", type=int, default=150, help="queries sampled per style")
    args = ap.parse_args()
    if not args.source.exists():
        sys.exit(f"{args.source} is absent")
    from docstrata.config import parse_config
    from docstrata.index.exact import alias_keys
    from docstrata.tools import build_tool

    work = ROOT / "bench" / ".cache" / "documents"
    work.mkdir(parents=True, exist_ok=True)
    cfg = parse_config({"tools": [{"name": "docs", "type": "hierarchical_document", "source": str(args.source)}]},
                       base_dir=work).tools[0]
    tool = build_tool(cfg, work)
    tool.ingest()
    store = tool.store
    holders: dict[str, set[str]] = defaultdict(set)  # exact key → chunk ids starting that section
    queries: dict[str, list[tuple[str, str]]] = defaultdict(list)  # style → (query, alias it came from)
    for doc in store.documents():
        for c in store.document_chunks(doc):
            for alias in c.aliases:
                for key in alias_keys(alias):
                    holders[key].add(c.chunk_id)
                for style, q in styles_for(alias):
                    queries[style].append((q, alias))
    rng = random.Random(0)
    total_ok = total = 0
    for style, qs in sorted(queries.items()):
        sample = rng.sample(sorted(set(qs)), min(args.per_style, len(set(qs))))
        ok = 0
        for q, alias in sample:
            wanted = set().union(*(holders.get(k, set()) for k in alias_keys(alias)))
            top = tool.search(q, top_k=1)
            ok += bool(top) and top[0].chunk_id in wanted
        total_ok += ok
        total += len(sample)
        print(f"{style:9s} {ok}/{len(sample)} = {100 * ok / max(len(sample), 1):.1f}% first")
    print(f"all styles: {total_ok}/{total} = {100 * total_ok / max(total, 1):.1f}% first")
    tool.close()


if __name__ == "__main__":
    main()
