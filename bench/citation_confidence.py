"""Does a citation query say what it names? Unique, ambiguous and non-existent citations on real
documents, with the truth taken from each document's own markup.

    python bench/citation_confidence.py [--index DIR] [--per-doc N] [-v]

Documents (:data:`DOCS`): real acts, bills and specs from ``../shared/data`` and ``bench/realdocs``
(split from its ``index.json``; the shared ones are dev), among them documents whose numbers
repeat in several containers: GDPR (Section 1-5 in Chapters III, IV, VI, VII; truth = its own
Markdown headings, read here), the Tribunals (Scotland) Act (Chapter 1, 2 in several Parts:
CLML truth), the Australian amending act (Part 1, 2 in several Schedules: PDF outline truth).

Citations come from the truth sections whose printed number carries its keyword (``Section 3``,
``SEC. 2``, ``Article 17``, ``CHAPTER 1``, ``Part 2``) or is dotted (``2.1`` → ``Section 2.1``),
grouped by kind and number (roman = arabic):

* **unique** — one truth section of the document is cited so (searched with the ``document``
  filter): right pinning = the first hit is the only pinned one and its parent chain or the
  start of its text holds the truth title (≥ 60 % of its words); right confidence = ``high``;
* **ambiguous** — 2-8 truth sections of the document are cited so (``document`` filter): right
  pinning = one pinned hit per truth section, first, each truth title in some pinned hit's
  chain or text start; right confidence = ``medium`` with one ``Confidence.ambiguous`` entry per
  truth section;
* **ambiguous (corpus)** — a citation 2-8 documents have once each, searched over the corpus:
  as above, except that our tree may hold more sections cited so than the truth lists (numbered
  amendment items; the truth's bare numbers count only at the top level), so at least as many
  pinned hits (up to the 10 shown) and ``ambiguous`` entries as truth sections;
* **none** — a number the document does not have (its largest of that kind + 37): right pinning
  = nothing pinned; right confidence = not ``high``.

Printed per split and class: citations, share with right pinning, with right confidence, with
both. Run it once with the code before a change (``PYTHONPATH=old/src``, another ``--index``)
and once after to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
REALDOCS = ROOT / "bench" / "realdocs"

DOCS = [
    ("shared", "documents/md/gdpr_regulation_eu_2016_679.md"),
    ("shared", "real/legislation/uk-asp-2014-10-tribunals-scotland-act-body.html"),
    ("shared", "real/legislation/eu-reg-2024-903-interoperable-europe-act.html"),
    ("shared", "real/legislation/us-usc-title01-prelim-114-329.htm"),
    ("shared", "real/specs/rfc7911.txt"),
    ("realdocs", "legislation-xml/us-bill-118-s1325-rs.uslm.xml"),
    ("realdocs", "statute-pdf/au-electoral-amendment-assurance-of-senate-counting-act-2021-c2021a00135.pdf"),
    ("realdocs", "specs/rfc6635.txt"),
    ("realdocs", "legislation-xml/us-usc-title09-arbitration-113-31.uslm1.xml"),
    ("realdocs", "legislation-xml/us-bill-116-hr2157-ih.uslm.xml"),
]

_NUMBER = re.compile(r"(?i)(§+|sec\.?|section|article|chapter|part|title|schedule)\s*([0-9]+[A-Z]?|[IVXLC]+)\.?")


def _roman(s: str) -> int | None:
    vals = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    s = s.lower()
    if not s or any(ch not in vals for ch in s):
        return None
    return sum(-vals[a] if i + 1 < len(s) and vals[s[i + 1]] > vals[a] else vals[a] for i, a in enumerate(s))


def cite_of(number: str, top: bool = False) -> tuple[str, str, str] | None:
    """(kind, number as written, number as compared) of a printed number (of a top-level section
    when ``top``), or ``None``."""
    num = (number or "").strip().rstrip(".:—")
    m = _NUMBER.fullmatch(num)
    if m:
        word = m.group(1).lower()
        kind = "Section" if word.startswith(("§", "sec")) else word.capitalize()
        n = m.group(2)
        value = str(_roman(n)) if kind != "Section" and _roman(n) else n.lower()
        return kind, n.upper() if _roman(n) else n, value
    if re.fullmatch(r"\d+(?:\.\d+)+", num) or top and re.fullmatch(r"\d+", num):
        return "Section", num, num  # "2.1", and a top-level "3" (an RFC's Section 3)
    return None


def markdown_truth(path: Path) -> list[dict]:
    """Sections of a Markdown act from its own headings: ``## Section 3`` with the title on the
    heading line or, as GDPR prints it, on the next line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"#+\s+((?:CHAPTER|Chapter|Section|Article)\s+[0-9IVXLC]+)\s*(.*)", line)
        if not m:
            continue
        title = m.group(2).strip()
        if not title:
            title = next((ln.strip() for ln in lines[i + 1:i + 4] if ln.strip() and not ln.startswith("#")), "")
        out.append({"number": m.group(1), "title": title or None})
    return out


def load_docs() -> list[tuple[str, Path, list[dict]]]:
    index = {d["file"]: d for d in json.loads((REALDOCS / "index.json").read_text())["documents"]}
    out = []
    for corpus, rel in DOCS:
        path = (SHARED if corpus == "shared" else REALDOCS) / rel
        if not path.exists():
            continue
        split = "dev" if corpus == "shared" else index.get(rel, {}).get("split", "dev")
        split = "holdout" if split.startswith("holdout") else split
        truth = Path(str(path) + ".truth.json")
        secs = json.loads(truth.read_text())["sections"] if truth.exists() else markdown_truth(path)
        out.append((split, path, secs))
    return out


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", (text or "").casefold()))


def _agrees(texts: list[str], title: str) -> bool:
    """Whether one of ``texts`` (a hit's parent chain and the start of its text) holds at least
    60 % of the words of the truth ``title``."""
    want = _words(title)
    return bool(want) and any(len(want & _words(t)) >= 0.6 * len(want) for t in texts)


def _texts(hit) -> list[str]:
    return [*hit.parent_chain, hit.content[:300]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=Path("/tmp/docstrata-citation-confidence"))
    ap.add_argument("--per-doc", type=int, default=8, help="unique citations sampled per document")
    ap.add_argument("-v", action="store_true", help="print every wrong answer")
    args = ap.parse_args()
    if not SHARED.exists():
        sys.exit(f"{SHARED} is absent: this benchmark needs the shared real documents")
    docs = load_docs()
    src = args.index / "docs"
    src.mkdir(parents=True, exist_ok=True)
    for _, path, _ in docs:
        link = src / path.name
        if not link.exists():
            link.symlink_to(path)
    (args.index / "agent.yaml").write_text("tools:\n  - name: docs\n    type: hierarchical_document\n"
                                           "    source: docs/\n    follow_symlinks: true\n", encoding="utf-8")
    import docstrata

    rng = random.Random(0)
    cases = []  # (split, class, query, document filter, [truth titles])
    corpus_groups: dict[tuple[str, str], list[tuple[str, str, str]]] = defaultdict(list)
    for split, path, secs in docs:
        groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
        written: dict[tuple[str, str], str] = {}
        for s in secs:
            c = cite_of(s.get("number") or "", s.get("parent_index") is None and s.get("level", 1) == 1)
            if c:
                groups[(c[0], c[2])].append(s)
                written.setdefault((c[0], c[2]), f"{c[0]} {c[1]}")
        uniq = [k for k, v in groups.items() if len(v) == 1 and v[0].get("title")]
        for k in rng.sample(uniq, min(args.per_doc, len(uniq))):
            cases.append((split, "unique", written[k], path.name, [groups[k][0]["title"]]))
        for k, v in groups.items():
            if 2 <= len(v) <= 8 and all(s.get("title") for s in v):
                cases.append((split, "ambiguous", written[k], path.name, [s["title"] for s in v]))
            if len(v) == 1 and v[0].get("title"):
                corpus_groups[k].append((split, path.name, v[0]["title"]))
        for kind in sorted({k[0] for k in groups}):
            nums = [int(k[1]) for k in groups if k[0] == kind and k[1].isdigit()]
            if nums:
                cases.append((split, "none", f"{kind} {max(nums) + 37}", path.name, []))
    across = [(k, v) for k, v in corpus_groups.items() if 2 <= len({d for _, d, _ in v}) <= 8]
    for k, v in rng.sample(across, min(12, len(across))):
        split = "holdout" if any(s == "holdout" for s, _, _ in v) else "dev"
        cases.append((split, "ambiguous (corpus)", f"{k[0]} {k[1]}",
                      None, [t for _, _, t in v]))

    stats: dict[tuple[str, str], list[tuple[bool, bool]]] = defaultdict(list)
    with docstrata.open(args.index / "agent.yaml") as ts:
        tool = ts["docs"]
        report = tool.ingest()
        print(f"{len(docs)} documents, {report.chunks_total} chunks; {len(cases)} citations")
        for split, cls, query, doc, titles in cases:
            hits = tool.search(query, top_k=10, document=doc)
            chains = [_texts(h) for h in hits if h.pinned]
            lead = all(h.pinned for h in hits[:len(chains)])
            conf = hits.confidence
            listed = getattr(conf, "ambiguous", None) or []
            if cls == "unique":
                pin = len(chains) == 1 and hits[0].pinned and _agrees(_texts(hits[0]), titles[0])
                right = conf.level == "high"
            elif cls == "ambiguous":
                pin = len(chains) == len(titles) and lead and all(any(_agrees(ch, t) for ch in chains) for t in titles)
                right = conf.level == "medium" and len(listed) == len(titles)
            elif cls == "ambiguous (corpus)":  # our tree may hold more sections cited so than the truth lists
                pin = len(chains) >= min(len(titles), 10) and lead and all(
                    any(_agrees(ch, t) for ch in chains) or any(_agrees([a["title"]], t) for a in listed)
                    for t in titles)
                right = conf.level == "medium" and len(listed) >= len(titles)
            else:
                pin, right = not chains, conf.level != "high"
            stats[(split, cls)].append((pin, right))
            if args.v and not (pin and right):
                print(f"  WRONG [{cls}] {query!r} in {doc or 'corpus'}: {len(chains)} pinned "
                      f"(truth {len(titles)}), confidence {conf.level}: {conf.reason[:160]}")
    print(f"\n{'split':<8} {'class':<19} {'citations':>9} {'pinning':>8} {'confidence':>10} {'both':>6}")
    for key in sorted(stats):
        rows = stats[key]
        n = len(rows)
        print(f"{key[0]:<8} {key[1]:<19} {n:>9} {sum(p for p, _ in rows) / n:>8.2f} "
              f"{sum(r for _, r in rows) / n:>10.2f} {sum(p and r for p, r in rows) / n:>6.2f}")


if __name__ == "__main__":
    main()
