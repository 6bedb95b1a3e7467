"""How fusion weights and rrf_k move quality, from one set of per-modality rankings (issue 4).

    python bench/fusion_grid.py [scifact] [codebase] [obliqa] [obliqa-docs] [faq] [--limit N]
        [--weights "s,k,e;..."] [--ks "10,20,..."]

For each data set (ingested as in bench/retrieval_bench.py, reusing its cache) every query's
semantic, keyword and exact rankings (top 100) are computed once; then each
(semantic, keyword, exact, k) setting is fused with docstrata's own weighted RRF and scored
(nDCG@10, Recall@10, MAP@10 through ranx). The section pin of search.py is not applied here, so
figures can differ from retrieval_bench.py's where a query is essentially a section reference
(none of the SciFact, codebase or ObliQA questions is). Also prints, for the spec's k = 60, how far apart
ranks 1 and 20 are in 1/(k + rank) — the reason a weight ratio far from 1 lets one modality
dictate the order. With more than one data set, a last table gives each setting's nDCG@10 minus
the better single mode's (semantic or keyword alone) on every set, and their minimum and mean:
the criterion the defaults were chosen by (docs/benchmarks.md, "Fusion defaults").
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from faq_bench import faq_tool_and_queries  # noqa: E402
from retrieval_bench import CACHE, DATA, _tool_config  # noqa: E402

WEIGHTS = [(0.5, 0.3, 0.2), (0.4, 0.4, 0.2), (0.45, 0.45, 0.1), (0.5, 0.5, 0.0), (0.35, 0.45, 0.2),
           (0.3, 0.5, 0.2), (0.6, 0.2, 0.2), (0.8, 0.2, 0.0), (0.2, 0.8, 0.0)]
KS = [10, 30, 60, 100]


def collect(name: str, limit: int | None):
    from docstrata.config import parse_config
    from docstrata.eval import load_query_set
    from docstrata.search import analyze_query, exact_ranking
    from docstrata.tools import build_tool

    if name == "faq":
        tool, qs = faq_tool_and_queries()
        qs.queries = qs.queries[:limit]
    else:
        work = CACHE / name
        work.mkdir(parents=True, exist_ok=True)
        tool_cfg, queries, qrels = _tool_config(name, work)
        cfg = parse_config({"tools": [tool_cfg]}, base_dir=work).tools[0]
        tool = build_tool(cfg, work)
        tool.ingest()
        qs = load_query_set(queries, qrels, limit)
    store = tool.store
    per_query = []
    for q in qs.queries:
        rankings = {
            "semantic": store.dense_search(tool.embedder.embed_query(q.text), 100),
            "keyword": store.keyword_search(q.text, 100),
            "exact": exact_ranking(store, analyze_query(q.text), 100)[0],
        }
        per_query.append((q, rankings))
    return tool, qs, per_query


def score(tool, qs, per_query, weights: dict[str, float], k: int) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    from docstrata.fusion import weighted_rrf

    qrels = Qrels({q.qid: {g: 1 for g in q.gold} for q in qs.queries if q.gold})
    run = {}
    for q, rankings in per_query:
        fused = weighted_rrf(rankings, weights, k=k)[:100]
        hits = {c.chunk_id: c for c in tool.store.get_chunks([h.chunk_id for h in fused[:10]])}
        ranked: dict[str, float] = {}
        for rank, h in enumerate(fused):
            hit = hits.get(h.chunk_id)
            gids = qs.judge(q, _as_result(tool, hit)) if hit is not None else []
            if not gids and h.chunk_id in q.gold:
                gids = [h.chunk_id]
            for gid in gids or [f"~{h.chunk_id}"]:
                ranked.setdefault(gid, float(len(fused) - rank))
        run[q.qid] = ranked or {"~none": 0.0}
    m = evaluate(qrels, Run(run), ["ndcg@10", "recall@10", "map@10"], make_comparable=True)
    return {k_: float(v) for k_, v in m.items()}


def _as_result(tool, chunk):
    from docstrata.models import RecordResult

    if hasattr(tool, "get_record"):
        return RecordResult(id=chunk.chunk_id, content=chunk.content, score=0.0, source_file=chunk.doc_key,
                            metadata=dict(chunk.metadata.get("fields", {})))
    return chunk


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("datasets", nargs="*", default=["scifact", "codebase", "obliqa", "obliqa-docs", "faq"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--weights", default=None, help='semicolon-separated "s,k,e" triples (default: a fixed grid)')
    ap.add_argument("--ks", default=None, help="comma-separated rrf_k values (default: 10,30,60,100)")
    args = ap.parse_args()
    weights = [tuple(float(x) for x in w.split(",")) for w in args.weights.split(";")] if args.weights else WEIGHTS
    ks = [int(k) for k in args.ks.split(",")] if args.ks else KS
    if not DATA.exists():
        sys.exit(f"{DATA} is absent")
    print("1/(60+1) vs 1/(60+20): ratio %.2f — a weight ratio above that overrides any rank difference "
          "in the top 20" % ((1 / 61) / (1 / 80)))
    gaps: dict[tuple, list[float]] = {}
    for name in args.datasets:
        tool, qs, per_query = collect(name, args.limit)
        best_single = max(score(tool, qs, per_query, {mode: 1.0}, 60)["ndcg@10"] for mode in ("semantic", "keyword"))
        print(f"\n## {name} ({len(qs.queries)} queries; better single mode nDCG@10 {best_single:.4f})\n")
        print("| semantic | keyword | exact | k | nDCG@10 | Recall@10 | MAP@10 |\n|---|---|---|---|---|---|---|")
        for (s, kw, e), k in itertools.product(weights, ks):
            m = score(tool, qs, per_query, {"semantic": s, "keyword": kw, "exact": e}, k)
            gaps.setdefault((s, kw, e, k), []).append(m["ndcg@10"] - best_single)
            print(f"| {s} | {kw} | {e} | {k} | {m['ndcg@10']:.4f} | {m['recall@10']:.4f} | {m['map@10']:.4f} |",
                  flush=True)
        tool.close()
    if len(args.datasets) > 1:
        print(f"\n## nDCG@10 minus the better single mode\n\n| semantic | keyword | exact | k | "
              f"{' | '.join(args.datasets)} | min | mean |\n|{'---|' * (len(args.datasets) + 6)}")
        for (s, kw, e, k), g in gaps.items():
            print(f"| {s} | {kw} | {e} | {k} | {' | '.join(f'{x:+.4f}' for x in g)} | {min(g):+.4f} | "
                  f"{sum(g) / len(g):+.4f} |")


if __name__ == "__main__":
    main()
