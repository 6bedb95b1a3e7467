"""Citation-like queries ("Section 3.1 access control", "What does Article 17 say about the right
to erasure?") put the cited section's own body first, not a contents page or a passage citing it.

    python bench/citation_queries.py [--split dev|holdout|all] [--per-doc N] [--index DIR] [-v]

Documents: real documents with truth from their own markup (``../shared/data/real``, counted as
dev, and ``bench/realdocs`` with the split its ``index.json`` gives; listed in :data:`DOCS`),
indexed once into one embedded hierarchical_document tool under ``--index`` (kept: a second run
skips the ingest). Queries, per document, for up to ``--per-doc`` truth sections (seeded sample)
that have a number and a title: the number as cited (``1.1`` → ``Section 1.1``, ``SEC. 2`` →
``Section 2``, ``Article 4``, ``Chapter 3``, a titled subsection ``(a)`` of ``SEC. 3`` →
``Section 3(a)``) with its title in two forms: **cite+title** (``Section 3.1 access control``)
and **question** (``What does Section 3.1 say about access control?``). Each is searched over
the whole corpus (hybrid, top 10) and within its document (``document`` filter).

Truth: the section of our tree that the citation names (:func:`docstrata.section_lookup.cited_section`)
*and* whose title agrees with the truth title (at least 60 % of its words); a truth section
with no such section is counted as **unresolved** (a structure miss, not a ranking one) and not
searched. A hit is right when it lies in the target section of the right document (the section
or one of its ancestors is the target). Printed per split, form and scope: hit@1, MRR@10, and
the wrong first hits by kind: **contents** (a table-of-contents chunk: four or more lines ending
in a page number or dot leaders, or a "contents" heading), **citing** (a chunk whose text holds the
cited number: a passage that refers to the section), **same cite+title elsewhere** (another
document's section cited and titled the same: "Section 1 Introduction" of another RFC; over the
whole corpus such a query is ambiguous), **other doc** and **other**. Hit@1 counting the
ambiguous ones as right is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "real"
REALDOCS = ROOT / "bench" / "realdocs"

# (corpus, path): numbered documents of several kinds and formats; the split is read from the index
DOCS = [
    ("shared", "pdf/nist-sp800-123-server-security.pdf"),
    ("shared", "pdf/nist-sp800-162-abac.pdf"),
    ("shared", "specs/rfc7911.txt"),
    ("shared", "legislation/eu-reg-2024-903-interoperable-europe-act.html"),
    ("shared", "legislation/us-usc-title01-prelim-114-329.htm"),
    ("shared", "docx/openchain-security-assurance-spec-1.1.docx"),
    ("realdocs", "specs/rfc6635.txt"),
    ("realdocs", "pdf/nist-sp800-171r1-cui.pdf"),
    ("realdocs", "legislation-xml/us-bill-118-s1325-rs.uslm.xml"),
    ("realdocs", "pdf/nist-sp800-40r3-patch-management.pdf"),
    ("realdocs", "pdf/nist-sp800-184-cyber-event-recovery.pdf"),
    ("realdocs", "legislation-xml/us-bill-116-hr2157-ih.uslm.xml"),
    ("realdocs", "legislation-xml/eu-directive-proposal-vehicle-registration.akn.xml"),
    ("realdocs", "specs/draft-ietf-httpbis-p7-auth-26.txt"),
    ("realdocs", "pdf/nist-ir8114-lightweight-cryptography.pdf"),
]

_TOC_LINE = re.compile(r"(?:\.{3,}|…{2,}|\s)\s*\d{1,4}\s*$")


def citation(sections: list[dict], i: int) -> str | None:
    """The number of truth section ``i`` as a reader cites it, or ``None`` when it has none."""
    num = (sections[i].get("number") or "").strip().rstrip(".:—")
    if not num or not re.search(r"\d|^[A-Z]$|^\(?[a-z]{1,3}\)?$", num):
        return None
    if num.startswith("("):  # a subsection: its enclosing section's citation before it ("Section 3(a)")
        parent = sections[i].get("parent_index")
        head = citation(sections, parent) if parent is not None else None
        return head + num if head else None
    m = re.fullmatch(r"(?i)(sec(?:tion)?\.?|§+)\s*(\S+)", num)
    if m:
        return f"Section {m.group(2).rstrip('.')}"
    m = re.fullmatch(r"(?i)(article|chapter|part|title|appendix|annex|schedule|rule)\s+(\S+)", num)
    if m:
        return f"{m.group(1).capitalize()} {m.group(2)}"
    if re.fullmatch(r"\d+(?:\.\d+)*[a-z]?", num):
        return f"Section {num}"
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


def _title_agrees(ours: str, truth: str) -> bool:
    want = set(_words(truth))
    return bool(want) and len(want & set(_words(ours))) >= 0.6 * len(want)


def _kind_of_miss(chunk, cite: str) -> str:
    lines = [ln for ln in chunk.content.splitlines() if ln.strip()]
    toc = sum(bool(_TOC_LINE.search(ln)) for ln in lines)
    if toc >= 4 or any("contents" in t.casefold() for t in chunk.parent_chain):
        return "contents"
    number = cite.split(" ", 1)[-1]
    if re.search(rf"(?<![\w.]){re.escape(number)}(?![\w])", chunk.content):
        return "citing"
    return "other"


def _same_elsewhere(chunk, cite: str, title: str) -> bool:
    """Whether ``chunk`` (of another document) lies in a section cited as ``cite`` whose title
    agrees with ``title``: the query names no document, so that answer is as right as ours."""
    from docstrata.index.exact import alias_keys
    from docstrata.section_lookup import cited_keys
    from docstrata.store.base import chunk_section_path

    keys = set(alias_keys(cite))
    return any(keys & cited_keys(sid) for sid in chunk_section_path(chunk)) and \
        any(_title_agrees(t, title) for t in chunk.parent_chain)


def load_docs(split: str) -> list[tuple[str, Path, dict]]:
    index = {d["file"]: d for d in json.loads((REALDOCS / "index.json").read_text())["documents"]}
    out = []
    for corpus, rel in DOCS:
        base = SHARED if corpus == "shared" else REALDOCS
        doc_split = "dev" if corpus == "shared" else index.get(rel, {}).get("split", "dev")
        doc_split = "holdout" if doc_split.startswith("holdout") else doc_split
        path = base / rel
        if (split == "all" or doc_split == split) and path.exists():
            out.append((doc_split, path, json.loads(Path(str(path) + ".truth.json").read_text())))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="all", choices=["dev", "holdout", "all"])
    ap.add_argument("--per-doc", type=int, default=25)
    ap.add_argument("--index", type=Path, default=Path("/tmp/docstrata-citation-bench"))
    ap.add_argument("-v", action="store_true", help="print every miss")
    args = ap.parse_args()
    if not SHARED.exists():
        sys.exit(f"{SHARED} is absent: this benchmark needs the shared real documents")
    docs = load_docs(args.split)
    src = args.index / "docs"
    src.mkdir(parents=True, exist_ok=True)
    for _, path, _ in docs:  # symlinks: the documents stay where they are
        link = src / path.name
        if not link.exists():
            link.symlink_to(path)
    import docstrata
    from docstrata.section_lookup import cited_section
    from docstrata.store.base import chunk_section_path

    cfg = args.index / "agent.yaml"
    cfg.write_text("tools:\n  - name: docs\n    type: hierarchical_document\n    source: docs/\n"
                   "    follow_symlinks: true\n", encoding="utf-8")
    rng = random.Random(0)
    stats: dict[tuple[str, str, str], list] = defaultdict(list)  # (split, form, scope) → ranks (None = miss)
    misses: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
    unresolved = Counter()
    with docstrata.open(cfg) as ts:
        tool = ts["docs"]
        t0 = time.perf_counter()
        report = tool.ingest()
        print(f"{len(docs)} documents, {report.chunks_total} chunks (ingest {time.perf_counter() - t0:.0f} s)")
        for split, path, truth in docs:
            doc_key = path.name
            chunks = tool.store.document_chunks(doc_key)
            titles = {}
            for c in chunks:
                path_ids = [*reversed(c.metadata.get("ancestors", [])), c.section_id]
                for sid, title in zip(path_ids, c.parent_chain[-len(path_ids):] if c.parent_chain else []):
                    titles.setdefault(sid, title)
                titles.setdefault(c.section_id, c.section_title or "")
            secs = truth["sections"]
            cands = [(i, cite) for i in range(len(secs)) if secs[i].get("title") and (cite := citation(secs, i))]
            for i, cite in rng.sample(cands, min(args.per_doc, len(cands))):
                title = " ".join(secs[i]["title"].split())
                target = cited_section(chunks, cite)
                if not target or not _title_agrees(titles.get(target, ""), title):
                    unresolved[split] += 1
                    continue
                for form, q in (("cite+title", f"{cite} {title.lower()}"),
                                ("question", f"What does {cite} say about {title.lower()}?")):
                    for scope, flt in (("corpus", None), ("document", doc_key)):
                        hits = tool.search(q, top_k=10, document=flt)
                        rank = next((r for r, h in enumerate(hits, 1) if h.source_path == doc_key and target in
                                     chunk_section_path(tool.store.get_chunks([h.chunk_id])[0])), None)
                        stats[(split, form, scope)].append(rank)
                        if rank != 1 and hits:
                            top = tool.store.get_chunks([hits[0].chunk_id])[0]
                            kind = _kind_of_miss(top, cite) if top.doc_key == doc_key else (
                                "same cite+title elsewhere" if _same_elsewhere(top, cite, title) else "other doc")
                            misses[(split, form, scope)][kind] += 1
                            if args.v:
                                print(f"  MISS {doc_key} {q!r} → {top.chunk_id} § {hits[0].section_id} ({kind}); "
                                      f"target {target} at rank {rank}")
    print(f"\n{'split':<8} {'form':<11} {'scope':<9} {'queries':>7} {'hit@1':>6} {'+ambig':>6} {'MRR@10':>7}  "
          "wrong first hits")
    for key in sorted(stats):
        ranks = stats[key]
        hit1 = sum(r == 1 for r in ranks) / len(ranks)
        ambig = (sum(r == 1 for r in ranks) + misses[key]["same cite+title elsewhere"]) / len(ranks)
        mrr = sum(1 / r for r in ranks if r) / len(ranks)
        kinds = ", ".join(f"{k} {n}" for k, n in misses[key].most_common()) or "-"
        print(f"{key[0]:<8} {key[1]:<11} {key[2]:<9} {len(ranks):>7} {hit1:>6.3f} {ambig:>6.3f} {mrr:>7.3f}  {kinds}")
    print("unresolved truth sections (no section of ours cited so, with that title): "
          + ", ".join(f"{s} {n}" for s, n in sorted(unresolved.items())))


if __name__ == "__main__":
    main()
