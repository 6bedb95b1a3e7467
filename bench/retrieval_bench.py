"""Retrieval quality on the shared public benchmarks (issue 4), through `docstrata eval`'s code.

    python bench/retrieval_bench.py [scifact] [codebase] [obliqa] [obliqa-docs] [--limit N] [--json]
        [--weights S,K,E] [--rrf-k K] [--no-context] [--database embedded|chromadb|faiss|faiss-hnsw]
        [--corpus-limit N] [--embedding-backend auto|torch|openvino|onnx|onnx-int8]

``--database`` runs the same tool on another store (issue 16): its SQLite starts as a copy of the
embedded run's, so the vectors come from the embedding cache and only the store differs; the data
set is re-ingested into it (every chunk written through the store's own write path).

``--embedding-backend`` embeds with another inference backend (issue 18) into its own cache folder
``bench/.cache/<name>-<backend>/``, so the vectors are that backend's and never the embedding cache's
of another backend (all fp32 backends share one cache id).

Each data set is ingested once into bench/.cache/<name>/ (reused across runs: the embedding
cache makes a rerun cheap), then every search mode is evaluated. Data sets:

* scifact      BEIR SciFact test (5,183 abstracts as records: title + text), nDCG@10
* codebase     Anthropic contextual-retrieval codebase (737 chunks as records), Pass@5/10/20
* obliqa       ObliQA dev over its 13,732 numbered passages as records, Recall@10 / MAP@10
* obliqa-docs  ObliQA dev over the raw rulebooks ingested as hierarchical documents
                (a hit = a retrieved chunk that contains the gold passage's text)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or os.environ.get("DOCSTRATA_DATA") or ROOT.parent / "shared" / "data")
CACHE = ROOT / "bench" / ".cache"


def _prepare_codebase(target: Path) -> Path:
    """Flatten codebase_chunks.json (documents → chunks) into one JSONL of chunk records."""
    out = target / "codebase_chunks.jsonl"
    if not out.exists():
        docs = json.loads((DATA / "anthropic-codebase" / "codebase_chunks.json").read_text())
        with out.open("w") as f:
            for d in docs:
                for c in d["chunks"]:
                    f.write(json.dumps({"id": f"{d['original_uuid']}:{c['original_index']}",
                                        "doc_id": d["doc_id"], "content": c["content"]}) + "\n")
    return out


def _tool_config(name: str, work: Path) -> tuple[dict, Path, Path | None]:
    """(tool config dict, queries path, qrels path) for a data set."""
    if name == "scifact":
        d = DATA / "scifact"
        return ({"name": name, "type": "vectorstore", "source": str(d / "corpus.jsonl"), "id_field": "_id",
                 "vector_field": ["title", "text"], "meta_fields": [], "field_separator": ". "},
                d / "queries.jsonl", d / "qrels" / "test.tsv")
    if name == "codebase":
        src = _prepare_codebase(work)
        return ({"name": name, "type": "vectorstore", "source": str(src), "id_field": "id",
                 "vector_field": "content", "meta_fields": ["doc_id"], "document_field": "doc_id"},
                DATA / "anthropic-codebase" / "evaluation_set.jsonl", None)
    if name == "obliqa":
        d = DATA / "obliqa"
        return ({"name": name, "type": "vectorstore", "source": str(d / "StructuredRegulatoryDocuments"),
                 "id_field": "ID", "vector_field": "Passage", "meta_fields": ["DocumentID", "PassageID"]},
                d / "ObliQA_dev.json", None)
    if name == "obliqa-docs":
        d = DATA / "obliqa"
        return ({"name": "obliqa_docs", "type": "hierarchical_document",
                 "source": str(d / "StandardizedRegulatoryDocumentsTXT")}, d / "ObliQA_dev.json", None)
    raise SystemExit(f"unknown data set {name!r}")


def _scifact_subset(corpus: Path, qrels: Path, work: Path, n: int) -> tuple[str, Path]:
    """The first ``n`` abstracts of SciFact and the test judgements on them (queries with no judged
    abstract left drop out): a smaller set for comparing stores on a busy machine."""
    sub = work / f"subset-{n}"
    sub.mkdir(parents=True, exist_ok=True)
    lines = corpus.read_text(encoding="utf-8").splitlines()[:n]
    (sub / "corpus.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    ids = {json.loads(line)["_id"] for line in lines}
    kept = [line for line in qrels.read_text(encoding="utf-8").splitlines()[1:] if line.split("\t")[1] in ids]
    (sub / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\n" + "\n".join(kept) + "\n", encoding="utf-8")
    return str(sub / "corpus.jsonl"), sub / "qrels.tsv"


def run(name: str, args) -> dict:
    from docstrata.config import parse_config
    from docstrata.eval import evaluate, format_table, load_query_set
    from docstrata.tools import build_tool

    work = CACHE / (name if args.embedding_backend is None else f"{name}-{args.embedding_backend}")
    work.mkdir(parents=True, exist_ok=True)
    tool_cfg, queries, qrels = _tool_config(name, work)
    if args.corpus_limit and name == "scifact":
        tool_cfg["source"], qrels = _scifact_subset(Path(tool_cfg["source"]), qrels, work, args.corpus_limit)
    if args.embedding_backend is not None:
        tool_cfg["embedding_backend"] = args.embedding_backend
    if args.weights:
        s, k, e = (float(x) for x in args.weights.split(","))
        tool_cfg.update(semantic_weight=s, keyword_weight=k, exact_weight=e)
    if args.rrf_k:
        tool_cfg["rrf_k"] = args.rrf_k
    if args.no_context and tool_cfg["type"] == "hierarchical_document":
        tool_cfg["contextual_embeddings"] = False
        tool_cfg["database"] = {"provider": "embedded", "path": str(work / "no-context")}
    base, force = work, False
    if args.database != "embedded":
        import shutil

        provider, _, kind = args.database.partition("-")
        base = work / args.database
        tool_cfg["database"] = {"provider": provider, **({"index": kind} if kind else {})}
        seed = work / ".docstrata" / tool_cfg["name"] / "index.sqlite"
        target = base / ".docstrata" / tool_cfg["name"] / "index.sqlite"
        if seed.exists() and not target.exists():  # the embedding cache, so no vector is computed twice
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(seed, target)
            force = True
    cfg = parse_config({"tools": [tool_cfg]}, base_dir=base)
    tool = build_tool(cfg.tools[0], base)
    report = tool.ingest(force=force)
    qs = load_query_set(queries, qrels, args.limit)
    print(f"\n## {name} on {args.database} (embedding backend {getattr(tool.embedder, 'backend', '?')}): {report.chunks_total} indexed ({report.embedded} embedded this run, "
          f"{report.elapsed_s:.0f} s), {len(qs.queries)} queries; weights "
          f"{tool.cfg.semantic_weight}/{tool.cfg.keyword_weight}/{tool.cfg.exact_weight}, rrf_k {tool.cfg.rrf_k}",
          flush=True)
    results = evaluate(tool, qs, args.modes.split(","))
    print(format_table(results), flush=True)
    tool.close()
    return {"dataset": name, "database": args.database, "queries": len(qs.queries), "indexed": report.chunks_total,
            "weights": [tool.cfg.semantic_weight, tool.cfg.keyword_weight, tool.cfg.exact_weight],
            "rrf_k": tool.cfg.rrf_k, "results": {r.mode: {**r.metrics, "qps": r.qps} for r in results}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("datasets", nargs="*", default=["scifact", "codebase", "obliqa", "obliqa-docs"])
    ap.add_argument("--limit", type=int, default=None, help="first N queries only")
    ap.add_argument("--modes", default="semantic,keyword,exact,hybrid")
    ap.add_argument("--weights", default=None, help="semantic,keyword,exact weights, e.g. 0.5,0.3,0.2")
    ap.add_argument("--rrf-k", type=int, default=None)
    ap.add_argument("--no-context", action="store_true", help="documents indexed without structural context")
    ap.add_argument("--database", default="embedded", choices=["embedded", "chromadb", "faiss", "faiss-hnsw"],
                    help="store to run on (default embedded)")
    ap.add_argument("--corpus-limit", type=int, default=None,
                    help="scifact: only the first N abstracts and the judgements on them")
    ap.add_argument("--embedding-backend", default=None, choices=["auto", "torch", "openvino", "onnx", "onnx-int8"],
                    help="inference backend of the bundled model, in its own cache folder (default: the config's)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not DATA.exists():
        sys.exit(f"{DATA} is absent: the shared benchmark data is needed")
    out = [run(name, args) for name in args.datasets]
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
