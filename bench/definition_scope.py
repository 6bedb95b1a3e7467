"""Definition scopes on real legislation (run: ``python bench/definition_scope.py [--no-search] [-v]``).

Truth: ``bench/definition_scope_truth.json``, definitions of real acts (USLM public laws, bills,
US Code titles and compilations; a Scottish act; EU acts; Canadian acts and regulations) whose
scope a person read from the lead-in (``In this subtitle:``, ``For purposes of this section``,
``In subsection (4)``, ``The definitions in this subsection apply in this Part``); ``null`` where
it governs the whole document. The labels are matched to ``tree.definitions`` of the document
parsed as ingest parses it (``convert_file`` → ``build_tree``) by term and defining section.
Definitions in text an Act inserts into another law, and editorial notes, are labelled but not
counted (their scope lies in the other law).

Prints, per split (dev: tuned on; holdout: labelled before the code saw them, then gaps fixed;
holdout2: never tuned on):

* **stated**: labelled definitions whose lead-in states a scope narrower than the document;
  **parsed** = those we give a scope; **recall** = those whose scope is the labelled section;
* **precision** = right scopes / scopes we give (over every counted label);
* **document scope kept** = definitions labelled whole-document that we leave unscoped.

Then, unless ``--no-search``, the trial-9 queries over the two public laws (from ``--trial-docs``,
default ``/tmp/trial9/work/docs``; skipped when absent): each hit's defined terms as the previous
release attached them (one definition per term, the first in the document, everywhere) and as
they are attached now (the definition in scope at the hit, innermost first).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRUTH = ROOT / "bench" / "definition_scope_truth.json"
UNCOUNTED = ("inserted", "note")
TRIAL_QUERIES = ["refunds for delayed checked baggage",
                 "Who is the Administrator for purposes of tower marking regulations?"]


def _shared() -> Path:
    import os

    if os.environ.get("DOCSTRATA_SHARED_DATA"):
        return Path(os.environ["DOCSTRATA_SHARED_DATA"])
    for up in ROOT.parents:
        if (up / "shared" / "data").is_dir():
            return up / "shared" / "data"
    return ROOT.parent / "shared" / "data"


def _path(spec: str, trial_docs: Path) -> Path:
    kind, _, rel = spec.partition(":")
    base = {"realdocs": ROOT / "bench" / "realdocs", "shared": _shared(), "trial9": trial_docs}[kind]
    return base / rel


def _tree(path: Path):
    from docstrata.convert import convert_file
    from docstrata.sources import SourceFile
    from docstrata.structure import build_tree

    return build_tree(convert_file(SourceFile(path.name, str(path), None)))


def label_figures(trial_docs: Path, verbose: bool) -> dict:
    """Per split: counts of stated / parsed / right, precision and document scope kept."""
    labels = json.loads(TRUTH.read_text(encoding="utf-8"))["labels"]
    by_doc: dict[str, list[dict]] = {}
    for row in labels:
        by_doc.setdefault(row["document"], []).append(row)
    stats: dict[str, dict[str, int]] = {}
    for spec, rows in by_doc.items():
        path = _path(spec, trial_docs)
        if not path.exists():
            print(f"skipped (absent): {spec}")
            continue
        tree = _tree(path)
        ours: dict[tuple[str, str | None], list] = {}
        for d in tree.definitions:
            ours.setdefault((d.term.casefold(), d.section_id), []).append(d)
        for row in rows:
            s = stats.setdefault(row["split"], dict.fromkeys(
                ["labels", "uncounted", "uncounted_scoped", "missing", "stated", "parsed", "right", "doc",
                 "doc_kept", "scoped", "scoped_right"], 0))
            s["labels"] += 1
            found = ours.get((row["term"].casefold(), row["section_id"]))
            expected = row["expected"]
            if expected in UNCOUNTED:
                s["uncounted"] += 1
                s["uncounted_scoped"] += bool(found and found[0].scope is not None)
                continue
            if not found:
                s["missing"] += 1
                if verbose:
                    print(f"  not extracted: {spec} {row['term']!r} @{row['section_id']}")
                continue
            got = found[0].scope
            ok = got == expected
            if expected is None:
                s["doc"] += 1
                s["doc_kept"] += ok
            else:
                s["stated"] += 1
                s["parsed"] += got is not None
                s["right"] += ok
            s["scoped"] += got is not None
            s["scoped_right"] += got is not None and ok
            if verbose and not ok:
                print(f"  wrong: {row['split']} {spec.rsplit('/', 1)[-1]} {row['term']!r} @{row['section_id']}: "
                      f"ours {got!r}, labelled {expected!r}")
    return stats


def _ratio(a: int, b: int) -> str:
    return f"{a}/{b} = {a / b:.3f}" if b else f"{a}/0"


def print_figures(stats: dict) -> None:
    print("\nDefinition scopes against hand labels (bench/definition_scope_truth.json)")
    for split in ("dev", "holdout", "holdout2"):
        s = stats.get(split)
        if not s:
            continue
        print(f"{split:9s} labels {s['labels']:3d} (uncounted inserted/notes {s['uncounted']}, of which scoped "
              f"{s['uncounted_scoped']}; not extracted {s['missing']})")
        print(f"          stated-scope definitions {s['stated']}: parsed a scope {_ratio(s['parsed'], s['stated'])}; "
              f"recall (right unit) {_ratio(s['right'], s['stated'])}")
        print(f"          precision of given scopes {_ratio(s['scoped_right'], s['scoped'])}; "
              f"document scope kept {_ratio(s['doc_kept'], s['doc'])}")


def trial_queries(trial_docs: Path) -> None:
    """The trial's two queries: each hit's definitions before (first per term, no scope) and now."""
    names = ["114publ190-uslm.xml", "113publ67-uslm.xml"]
    if not all((trial_docs / n).exists() for n in names):
        print(f"\ntrial queries skipped: {trial_docs} lacks {names}")
        return
    import docstrata
    from docstrata.search import definitions_used

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "docs").mkdir()
        for n in names:
            shutil.copy(trial_docs / n, root / "docs" / n)
        (root / "agent.yaml").write_text(textwrap.dedent("""\
            tools:
              - name: uslm
                type: hierarchical_document
                source: docs/
                database: embedded
                top_k: 5
            """), encoding="utf-8")
        with docstrata.open(root / "agent.yaml") as ts:
            tool = ts["uslm"]
            tool.ingest()
            print("\nTrial-9 queries (top 5): each hit's defined terms, before (one definition per term, the "
                  "document's first, everywhere) → now (the one in scope at the hit)")
            for query in TRIAL_QUERIES:
                print(f"\nquery: {query!r}")
                for r in tool.search(query, top_k=5):
                    defs = tool.store.definitions(doc_key=r.source_path)
                    first: dict[str, object] = {}
                    for d in defs:
                        first.setdefault(d.term.casefold(), d)
                    before = definitions_used([query, r.content], list(first.values()), skip_chunk=r.chunk_id)
                    print(f"  {r.source_path} § {r.section_id} ({' > '.join(r.parent_chain[:2])[:70]})")
                    print(f"    before: {_short(before)}")
                    print(f"    now:    {_short(r.definitions_context)}")


def _short(defs: dict[str, str]) -> str:
    return "; ".join(f"{t} = {d[:60]}" for t, d in defs.items()) or "(none)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trial-docs", default="/tmp/trial9/work/docs", help="folder with the trial's two public laws")
    ap.add_argument("--no-search", action="store_true", help="labels only: no index, no embedding model")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every wrong or missing label")
    args = ap.parse_args(argv)
    trial_docs = Path(args.trial_docs)
    print_figures(label_figures(trial_docs, args.verbose))
    if not args.no_search:
        trial_queries(trial_docs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
