"""How much of an MCP answer's budget the first hit keeps before the others are cut (``LEAD_SHARE``).

    HF_HUB_OFFLINE=1 DOCSTRATA_LEGALBENCH=/work/legalbench python bench/answer_lead.py \
        [--shares 0,0.1,0.15,0.2,0.3,0.4,0.5] [--trial DIR:TOOL ...] [--json]

A search answer over MCP must fit ``max_chars`` (12,000 by default) as text and as JSON. When ten
hits do not fit whole, every passage used to be cut to one common length, the first hit's too: a
new user's trial saw the first hit cut to 230–740 characters, its answer left out, in 7 of 49
questions while the CLI showed it. ``docstrata.answers.render_search`` now cuts the first hit's
passage no shorter than a share of the budget; this picks that share on data.

**Data.** LegalBench-RAG's PrivacyQA (7 policies) and ContractNLI (the first 40 NDAs, as
``bench/legalbench_rag.py --max-docs contractnli=40``), split by a hash of the query as there: dev
(fit) and holdout (report). Each query is searched once with the product's defaults (the index
``bench/legalbench_rag.py`` caches is reused), and its answer rendered as the MCP server renders
it (``docstrata.mcp_server._search_text``) at each share. A hit *shows the answer* when its shown
text holds :data:`WINDOW` consecutive words of a truth snippet (case and spacing aside).
``--trial DIR:TOOL`` adds a new-user trial's folder (``agent.yaml``, ``questions.json`` with
``needle``/``needles``; unanswerable questions skipped): a hit shows the answer when it holds a needle.

**Fit.** The smallest share at which the most dev queries show the answer in the first hit
(ties to the smaller share: the budget left goes to the other hits). Printed per share and split:
answer in the first hit, in any shown hit, hits shown (mean).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import legalbench_rag as lb  # noqa: E402

WINDOW = 8
SHARES = (0.0, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.replace("’", "'").lower())


def _windows(text: str) -> set[tuple[str, ...]]:
    w = _words(text)
    return {tuple(w[i : i + WINDOW]) for i in range(max(len(w) - WINDOW + 1, 0))}


def shows(shown: str, truth: list[set[tuple[str, ...]]]) -> bool:
    """Whether ``shown`` holds :data:`WINDOW` consecutive words of one of the ``truth`` snippets."""
    have = _windows(shown)
    return any(t & have for t in truth)


def _rendered(results, query: str, name: str, share: float) -> list[str]:
    from docstrata import answers

    _, data = answers.render_search(
        results, query, name, answers.DEFAULT_SEARCH_CHARS, shape=_shape(), lead_share=share
    )
    return [h["content"] for h in data["results"]]


def _shape():
    from docstrata import mcp_server

    def shape(data):  # as the MCP server sends it (mcp_server._search_text)
        structured = mcp_server.SearchOutput.model_validate(data).model_dump(mode="json")
        from docstrata import answers

        structured["results"] = [answers.compact(h) for h in structured["results"]]
        return structured

    return shape


def legalbench_queries(root: Path) -> list[tuple[str, str, object, list[set]]]:
    """(split, query, tool, truth windows) for PrivacyQA and ContractNLI's dev and holdout halves."""
    out = []
    for subset, max_docs in (("privacy_qa", None), ("contractnli", 40)):
        for split in ("dev", "holdout"):
            sample = lb.load_sample(root, subset, split, max_docs, None)
            tool = lb._tool_for(sample, root)
            tool.ensure_ready()
            for t in sample.tests:
                out.append((f"{split}", t["query"], tool, [_windows(s["answer"]) for s in t["snippets"]]))
    return out


def trial_queries(spec: str) -> list[tuple[str, str, object, list]]:
    """(split "trial:<folder>", query, tool, needles) for a trial folder's answerable questions."""
    import docstrata

    folder, _, name = spec.partition(":")
    tool = docstrata.open(Path(folder) / "agent.yaml")[name or "docs"]
    out = []
    for q in json.loads((Path(folder) / "questions.json").read_text(encoding="utf-8")):
        if q.get("kind") == "unanswerable":
            continue
        needles = q.get("needles") or [q["needle"]]
        out.append((f"trial:{Path(folder).name}", q.get("query") or q["question"], tool, needles))
    return out


def _holds(shown: str, truth) -> bool:
    if truth and isinstance(truth[0], str):
        norm = lambda s: re.sub(r"\s+", " ", s.replace("’", "'")).lower()  # noqa: E731
        return any(norm(n) in norm(shown) for n in truth)
    return shows(shown, truth)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shares", default=",".join(map(str, SHARES)))
    ap.add_argument("--trial", action="append", default=[], help="DIR:TOOL of a new-user trial")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    shares = [float(x) for x in args.shares.split(",")]
    root = Path(os.environ.get("DOCSTRATA_LEGALBENCH", ROOT.parent / "legalbench"))
    if not (root / "benchmarks").is_dir():
        sys.exit(f"no LegalBench-RAG under {root}: set DOCSTRATA_LEGALBENCH")
    queries = legalbench_queries(root)
    for spec in args.trial:
        queries += trial_queries(spec)
    table: dict[str, dict[float, list[int]]] = {}
    for split, query, tool, truth in queries:
        results = tool.search(query)
        row = table.setdefault(split, {s: [0, 0, 0, 0] for s in shares})
        for share in shares:
            shown = _rendered(results, query, tool.name, share)
            counts = row[share]
            counts[0] += 1
            counts[1] += bool(shown) and _holds(shown[0], truth)
            counts[2] += any(_holds(s, truth) for s in shown)
            counts[3] += len(shown)
    dev = table.get("dev", {})
    best = max(shares, key=lambda s: (dev[s][1], -s)) if dev else None
    if args.json:
        print(json.dumps({"fitted_share": best, "table": {k: {str(s): v for s, v in r.items()} for k, r in table.items()}}, indent=2))
        return
    for split, row in table.items():
        print(f"{split}:")
        for share, (n, first, anyhit, hits) in row.items():
            mark = "  ← fitted" if share == best else ""
            print(f"  share {share:4.2f}: answer in the first hit {first}/{n} ({first / n:.1%}), in any shown hit {anyhit}/{n}, hits shown {hits / n:.2f}{mark}")
    print(f"fitted share (dev): {best}")


if __name__ == "__main__":
    main()
