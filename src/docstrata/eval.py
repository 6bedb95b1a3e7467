"""Retrieval evaluation: one ingest, every search mode, standard IR metrics.

Query-set formats (detected from the file):

* **BEIR**: ``queries.jsonl`` (``{"_id", "text"}``) with ``--qrels qrels/test.tsv``
  (``query-id corpus-id score``); a hit is relevant when its record id is a judged corpus id.
* **Anthropic** ``evaluation_set.jsonl`` (``{"query", "golden_chunk_uuids", "golden_chunks"}``):
  a golden chunk is found when a hit's content equals it (whitespace-normalised). Pass@k is the
  share of a query's golden chunks in the top k, averaged over queries — Recall@k.
* **ObliQA** (``[{"QuestionID", "Question", "Passages": [{"DocumentID", "PassageID", "Passage"}]}]``):
  for record tools a hit is relevant when its metadata ``DocumentID``/``PassageID`` match a gold
  passage; for document tools when the hit's content contains the gold passage's text.

Metrics (nDCG@10, Recall@10/@100, MAP@10, MRR@10, Pass@5/10/20) are computed by ``ranx``
(Bassani, ECIR 2022), which matches trec_eval.
"""

from __future__ import annotations

import json
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import ConfigError

METRICS = ["ndcg@10", "recall@10", "recall@100", "map@10", "mrr@10", "recall@5", "recall@20"]
DISPLAY = {
    "ndcg@10": "nDCG@10",
    "recall@10": "Recall@10",
    "recall@100": "Recall@100",
    "map@10": "MAP@10",
    "mrr@10": "MRR@10",
    "recall@5": "Pass@5",
    "recall@20": "Pass@20",
}


@dataclass
class EvalQuery:
    """One query and how to judge a hit: ``judge(hit) -> list of gold ids the hit satisfies``."""

    qid: str
    text: str
    gold: set[str]


@dataclass
class QuerySet:
    """Queries plus a function mapping a result (SearchResult or RecordResult) to gold ids for a query."""

    name: str
    queries: list[EvalQuery]
    judge: Callable[[EvalQuery, object], list[str]]


@dataclass
class ModeResult:
    """Metrics of one search mode; ``qps`` queries per second; times in seconds per query."""

    mode: str
    metrics: dict[str, float]
    qps: float
    embed_s: float
    search_s: float
    queries: int
    per_query: dict[str, dict[str, float]] = field(default_factory=dict)


def _norm(text: str) -> str:
    return " ".join(text.split())


def _read_jsonl(path: Path) -> list[dict]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ConfigError(f"line {n}: invalid JSON ({e.msg})", file=str(path)) from None
    return out


def _result_id(hit) -> str:
    return getattr(hit, "id", None) or hit.chunk_id


def load_query_set(queries: Path, qrels: Path | None = None, limit: int | None = None) -> QuerySet:
    """Read a BEIR, Anthropic or ObliQA query set. Raises :class:`ConfigError` for an unknown format."""
    queries = Path(queries)
    if queries.is_dir():  # a BEIR dataset folder
        qrels = qrels or next(iter(sorted((queries / "qrels").glob("test.tsv"))), None)
        queries = queries / "queries.jsonl"
    text = queries.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        qs = _obliqa(json.loads(text))
    else:
        rows = _read_jsonl(queries)
        if rows and "golden_chunks" in rows[0]:
            qs = _anthropic(rows)
        elif rows and "_id" in rows[0]:
            if qrels is None:
                raise ConfigError("a BEIR queries.jsonl needs --qrels", file=str(queries))
            qs = _beir(rows, Path(qrels))
        else:
            raise ConfigError(
                "unknown query-set format (expected BEIR, Anthropic evaluation_set or ObliQA)", file=str(queries)
            )
    if limit:
        qs.queries = qs.queries[:limit]
    return qs


def _beir(rows: list[dict], qrels_path: Path) -> QuerySet:
    gold: dict[str, set[str]] = {}
    for n, line in enumerate(qrels_path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split("\t") if "\t" in line else line.split()
        if n == 1 and not parts[-1].strip().lstrip("-").isdigit():
            continue  # header
        if len(parts) < 3:
            continue
        qid, cid, score = parts[0], parts[1], parts[2]
        if int(score) > 0:
            gold.setdefault(qid, set()).add(cid)
    queries = [EvalQuery(str(r["_id"]), r["text"], gold[str(r["_id"])]) for r in rows if str(r["_id"]) in gold]
    return QuerySet("beir", queries, lambda q, hit: [_result_id(hit)] if _result_id(hit) in q.gold else [])


def _anthropic(rows: list[dict]) -> QuerySet:
    queries = []
    contents: dict[str, dict[str, str]] = {}
    for i, r in enumerate(rows):
        golden = {}
        for g in r["golden_chunks"]:
            gid = f"{g.get('doc_uuid', '')}:{g.get('index', g.get('chunk_index', ''))}"
            golden[_norm(g["content"])] = gid
        qid = str(i)
        contents[qid] = golden
        queries.append(EvalQuery(qid, r["query"], set(golden.values())))

    def judge(q: EvalQuery, hit) -> list[str]:
        gid = contents[q.qid].get(_norm(hit.content))
        return [gid] if gid else []

    return QuerySet("anthropic", queries, judge)


def _obliqa(rows: list[dict]) -> QuerySet:
    queries = []
    passages: dict[str, dict[str, str]] = {}
    for r in rows:
        golds = {f"{p['DocumentID']}|{p['PassageID']}": _norm(p.get("Passage", "")) for p in r["Passages"]}
        passages[r["QuestionID"]] = golds
        queries.append(EvalQuery(r["QuestionID"], r["Question"], set(golds)))

    def judge(q: EvalQuery, hit) -> list[str]:
        meta = getattr(hit, "metadata", None)
        if meta and "DocumentID" in meta and getattr(hit, "id", None) is not None:
            key = f"{meta['DocumentID']}|{meta.get('PassageID', '')}"
            return [key] if key in q.gold else []
        content = _norm(hit.content)
        return [g for g, text in passages[q.qid].items() if text and text in content]

    return QuerySet("obliqa", queries, judge)


def evaluate(
    tool, qs: QuerySet, modes: list[str], depth: int = 100, progress: Callable[[str, int, int], None] | None = None
) -> list[ModeResult]:
    """Run every query of ``qs`` in each of ``modes`` against ``tool`` (already ingested)."""
    from ranx import Qrels, Run, evaluate as ranx_evaluate

    from .search import SearchTiming

    qrels = Qrels({q.qid: {g: 1 for g in q.gold} for q in qs.queries if q.gold})
    results = []
    for mode in modes:
        run: dict[str, dict[str, float]] = {}
        timing = SearchTiming()
        t0 = time.perf_counter()
        for i, q in enumerate(qs.queries):
            if progress:
                progress(mode, i, len(qs.queries))
            hits = tool.search(q.text, top_k=min(depth, 100), mode=mode, timing=timing)
            ranked: dict[str, float] = {}
            for rank, hit in enumerate(hits):
                score = float(len(hits) - rank)
                for gid in qs.judge(q, hit) or [f"~{_result_id(hit)}"]:
                    ranked.setdefault(gid, score)
            run[q.qid] = ranked or {"~none": 0.0}
        elapsed = time.perf_counter() - t0
        with warnings.catch_warnings():  # ranx's numba kernels warn about an internal int cast
            warnings.simplefilter("ignore")
            scores = ranx_evaluate(qrels, Run(run), METRICS, make_comparable=True)
        n = max(len(qs.queries), 1)
        results.append(
            ModeResult(
                mode,
                {m: float(scores[m]) for m in METRICS},
                n / elapsed if elapsed else 0.0,
                timing.embed_s / n,
                timing.search_s / n,
                len(qs.queries),
            )
        )
    return results


def format_table(results: list[ModeResult]) -> str:
    """A Markdown table: one row per mode."""
    head = "| mode | " + " | ".join(DISPLAY[m] for m in METRICS) + " | q/s | embed ms | search ms |"
    sep = "|" + "---|" * (len(METRICS) + 4)
    rows = [
        f"| {r.mode} | "
        + " | ".join(f"{r.metrics[m]:.4f}" for m in METRICS)
        + f" | {r.qps:.1f} | {r.embed_s * 1000:.1f} | {r.search_s * 1000:.1f} |"
        for r in results
    ]
    return "\n".join([head, sep, *rows])
