"""Peer race: docstrata against the hybrid retrieval stacks a user might pick instead (issue 18).

Every system gets the same corpus and the same precomputed all-MiniLM-L6-v2 vectors, and runs in
its own child process (so peak RSS is its own), in one invocation:

* ``docstrata``   EmbeddedStore (SQLite + tantivy + dense matrix) and ``run_search`` (hybrid, top 10)
* ``holodeck``    HoloDeck's in-memory fallback re-created: rank_bm25 BM25Okapi over ``[a-z0-9]+``
                  tokens, exact numpy cosine, weighted RRF 0.5 semantic / 0.3 keyword, k 60
* ``txtai``       txtai ``Embeddings(hybrid=True, content=True)``, external vectors, default (faiss) ANN
* ``txtai-exact`` the same with ``backend="numpy"`` (exact dense search)
* ``llamaindex``  ``QueryFusionRetriever(mode="reciprocal_rerank")`` over SimpleVectorStore + bm25s BM25Retriever
* ``fast``        lower bound: bm25s (PyStemmer English, stop words) + exact numpy cosine + RRF k 60

Data sets: ``--scale scifact`` (BEIR SciFact test: nDCG@10 and speed) or ``--scale N`` (N synthetic
~150-word documents drawn from SciFact's unigram distribution with random unit vectors: speed,
build time, peak RSS, and for docstrata the time to open the index from disk in a fresh process
and answer the first query). Query vectors are precomputed too, so no timed query embeds text.

    python bench/peers.py                                   # SciFact, every system
    python bench/peers.py --scale 100000 --systems docstrata,txtai,fast,holodeck
    python bench/peers.py --scale 1000000 --systems docstrata,fast --queries 50
    OPENBLAS_NUM_THREADS=1 python bench/peers.py --systems docstrata,fast
    python bench/peers.py --scale 100000 --systems docstrata,fast --build-repeats 5  # median build ratio

Prints per system build s, peak RSS MB, p50/p95 ms (wall), CPU p50 ms (process CPU time per query:
on a loaded machine wall time is mostly waiting for a core), nDCG@10, and the ratios peer /
docstrata (above 1: docstrata is faster), with the machine load before and after. Vectors and synthetic
corpora are cached in ``--cache`` (default ``$TMPDIR/docstrata-peers``). Peers come from the
``[bench]`` extra; a system that fails to import is reported with its error.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
# ../shared/data beside the repository; DOCSTRATA_DATA overrides it (a git worktree elsewhere).
SCIFACT = Path(os.environ.get("DOCSTRATA_DATA", ROOT.parent / "shared" / "data")) / "scifact"
SYSTEMS = ["docstrata", "holodeck", "txtai", "txtai-exact", "llamaindex", "fast"]
RRF_K = 60
DIM = 384
PER_DOC = 100  # synthetic chunks per stored docstrata document


# ------------------------------------------------------------------ data
def load_scifact() -> tuple[list[str], list[str], list[str], list[str], dict]:
    """(doc_ids, texts, query_ids, query_texts, qrels) of the SciFact test split."""
    ids, texts = [], []
    with open(SCIFACT / "corpus.jsonl") as f:
        for line in f:
            d = json.loads(line)
            ids.append(d["_id"])
            texts.append(f"{d.get('title', '')} {d['text']}".strip())
    qrels: dict[str, dict[str, int]] = {}
    with open(SCIFACT / "qrels" / "test.tsv") as f:
        next(f)
        for line in f:
            q, c, s = line.split("\t")
            qrels.setdefault(q, {})[c] = int(s)
    queries = {}
    with open(SCIFACT / "queries.jsonl") as f:
        for line in f:
            d = json.loads(line)
            queries[d["_id"]] = d["text"]
    qids = [q for q in queries if q in qrels]
    return ids, texts, qids, [queries[q] for q in qids], qrels


def scifact_vectors(cache: Path, texts: list[str], qtexts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """MiniLM vectors of the corpus and queries (normalised), computed once with docstrata's
    bundled model and cached as .npy files."""
    cpath, qpath = cache / "scifact_corpus.npy", cache / "scifact_queries.npy"
    if cpath.exists() and qpath.exists():
        return np.load(cpath), np.load(qpath)
    from docstrata.embed import Embedder

    emb = Embedder()
    t = time.perf_counter()
    X = emb.encode(texts)
    print(f"# embedded {len(texts)} SciFact documents in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    Q = emb.encode(qtexts)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(cpath, X)
    np.save(qpath, Q)
    return X, Q


def synthetic(cache: Path, n: int, n_queries: int, with_texts: bool = True
              ) -> tuple[list[str], list[str], np.ndarray, list[str], np.ndarray]:
    """n synthetic ~150-word documents sampled from SciFact's unigram distribution (seed 1234),
    random unit vectors; the SciFact test claims as queries, each with a random vector.
    ``with_texts=False`` (an existing cache only): no document texts (``[]``), for a process that
    only opens an index, so its peak RSS is not the harness's 1 GB of texts."""
    base = cache / f"synthetic_{n}"
    if (base / "texts.json").exists():
        texts = json.loads((base / "texts.json").read_text()) if with_texts else []
        X = np.load(base / "vectors.npy", mmap_mode="r")
        qtexts = json.loads((base / "queries.json").read_text())
        Q = np.load(base / "qvectors.npy")
        return [f"d{i}" for i in range(n)], texts, X, qtexts[:n_queries], Q[:n_queries]
    _, stexts, _, sq, _ = load_scifact()
    words = [w for t in stexts for w in t.split()]
    vocab, counts = np.unique(np.array(words), return_counts=True)
    p = counts / counts.sum()
    rng = np.random.default_rng(1234)
    base.mkdir(parents=True, exist_ok=True)
    texts = []
    for start in range(0, n, 10_000):
        m = min(10_000, n - start)
        lengths = rng.integers(100, 200, m)
        picks = rng.choice(len(vocab), size=int(lengths.sum()), p=p)
        pos = 0
        for ln in lengths:
            texts.append(" ".join(vocab[picks[pos:pos + ln]]))
            pos += ln
    X = np.lib.format.open_memmap(base / "vectors.npy", mode="w+", dtype=np.float32, shape=(n, DIM))
    for start in range(0, n, 100_000):
        v = rng.standard_normal((min(100_000, n - start), DIM)).astype(np.float32)
        X[start:start + len(v)] = v / np.linalg.norm(v, axis=1, keepdims=True)
    X.flush()
    Q = rng.standard_normal((len(sq), DIM)).astype(np.float32)
    Q /= np.linalg.norm(Q, axis=1, keepdims=True)
    np.save(base / "qvectors.npy", Q)
    (base / "queries.json").write_text(json.dumps(sq))
    (base / "texts.json").write_text(json.dumps(texts))
    del X
    return synthetic(cache, n, n_queries)


# ------------------------------------------------------------------ metrics
def ndcg10(ranked: list[str], rels: dict[str, int]) -> float:
    dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:10]))
    ideal = sorted(rels.values(), reverse=True)[:10]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def rss_parts_mb() -> dict[str, float]:
    """Current VmRSS, RssAnon (heap: the process's own) and RssFile (mapped file pages, shared with
    the page cache) in MB, from /proc/self/status."""
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key = line.split(":", 1)[0]
            if key in ("VmRSS", "RssAnon", "RssFile"):
                out[key] = int(line.split()[1]) / 1024
    return out


def peak_rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def rrf(lists: list[list[str]], weights: list[float], k: int = RRF_K, top: int = 10) -> list[str]:
    score: dict[str, float] = {}
    for lst, w in zip(lists, weights):
        for r, d in enumerate(lst):
            score[d] = score.get(d, 0.0) + w / (k + r + 1)
    return sorted(score, key=lambda d: -score[d])[:top]


def top_rows(scores: np.ndarray, k: int) -> np.ndarray:
    k = min(k, len(scores))
    idx = np.argpartition(-scores, k - 1)[:k]
    return idx[np.argsort(-scores[idx])]


# ------------------------------------------------------------------ systems
class Docstrata:
    """docstrata's EmbeddedStore and its hybrid ``run_search`` (exact + BM25 + dense, weighted RRF)."""

    def __init__(self, root: Path):
        self.root = root

    def build(self, ids, texts, X):
        from docstrata.models import Chunk, FileState
        from docstrata.store.base import StoredChunk
        from docstrata.store.embedded import EmbeddedStore

        self.ids = ids
        store = EmbeddedStore(self.root, dim=DIM)
        for start in range(0, len(texts), PER_DOC):
            doc_key = f"doc{start // PER_DOC:06d}"
            # one read of the document's rows from the memory map: a memmap slice a row was ~1 s of
            # harness time at 100k, charged to docstrata's build
            block = np.asarray(X[start:start + PER_DOC], dtype=np.float32)
            chunks = [StoredChunk(Chunk(chunk_id=f"{doc_key}#{j - start}", doc_key=doc_key, ordinal=j - start,
                                        content=texts[j], section_id=str(j - start), parent_chain=[], heading_level=1),
                                  block[j - start:j - start + 1])
                      for j in range(start, min(start + PER_DOC, len(texts)))]
            store.replace_document(doc_key, FileState(0, 0, doc_key), chunks, [])
        store.flush()
        self.store = store

    def open(self):
        from docstrata.store.embedded import EmbeddedStore

        self.store = EmbeddedStore(self.root, dim=DIM)

    def doc_id(self, chunk_id: str) -> str:
        doc, _, o = chunk_id.rpartition("#")
        return self.ids[int(doc[3:]) * PER_DOC + int(o)]

    def search(self, qtext, qvec, k=10):
        from docstrata.search import SearchSettings, run_search

        hits = run_search(self.store, lambda _q: qvec, qtext, mode="hybrid", top_k=k, settings=SearchSettings())
        return [self.doc_id(h.chunk.chunk_id) for h in hits]

    def dense(self, qvec, k=10):
        return [self.doc_id(c) for c, _ in self.store.dense_search(qvec, k)]


class Holodeck:
    def build(self, ids, texts, X):
        from rank_bm25 import BM25Okapi

        self.ids, self.X = ids, np.asarray(X)
        self.bm25 = BM25Okapi([self.tok(t) for t in texts], k1=1.5, b=0.75)

    @staticmethod
    def tok(s):
        return re.findall(r"[a-z0-9]+", s.lower())

    def search(self, qtext, qvec, k=10):
        dense = [self.ids[i] for i in top_rows(self.X @ qvec, k)]
        kw = [self.ids[i] for i in top_rows(self.bm25.get_scores(self.tok(qtext)), k)]
        return rrf([dense, kw], [0.5, 0.3], top=k)


class Fast:
    def build(self, ids, texts, X):
        import bm25s
        import Stemmer

        self.ids, self.X = ids, np.asarray(X)
        self.stem = Stemmer.Stemmer("english")
        self.bm25 = bm25s.BM25()
        self.bm25.index(bm25s.tokenize(texts, stopwords="en", stemmer=self.stem, show_progress=False),
                        show_progress=False)

    def search(self, qtext, qvec, k=10):
        import bm25s

        dense = [self.ids[i] for i in top_rows(self.X @ qvec, k)]
        qt = bm25s.tokenize([qtext], stopwords="en", stemmer=self.stem, show_progress=False)
        docs, _ = self.bm25.retrieve(qt, k=k, show_progress=False, n_threads=1)
        return rrf([dense, [self.ids[i] for i in docs[0]]], [1.0, 1.0], top=k)


class Txtai:
    def __init__(self, exact: bool):
        self.exact = exact

    def build(self, ids, texts, X):
        from txtai import Embeddings

        table = {t: np.asarray(X[i]) for i, t in enumerate(texts)}
        table.update(self.qtable)

        def transform(data):
            return np.stack([table[d] for d in data])

        cfg = dict(method="external", transform=transform, hybrid=True, content=True)
        if self.exact:
            cfg["backend"] = "numpy"
        self.emb = Embeddings(**cfg)
        self.emb.index((ids[i], t, None) for i, t in enumerate(texts))

    def search(self, qtext, qvec, k=10):
        return [r["id"] for r in self.emb.search(qtext, k)]


class LlamaIndex:
    def build(self, ids, texts, X):
        import Stemmer
        from llama_index.core import Settings, VectorStoreIndex
        from llama_index.core.embeddings import BaseEmbedding
        from llama_index.core.retrievers import QueryFusionRetriever
        from llama_index.core.schema import TextNode
        from llama_index.retrievers.bm25 import BM25Retriever

        qtable = self.qtable

        class Lookup(BaseEmbedding):
            def _get_query_embedding(self, query):
                return qtable[query].tolist()

            async def _aget_query_embedding(self, query):
                return qtable[query].tolist()

            def _get_text_embedding(self, text):
                raise RuntimeError("corpus vectors are precomputed")

        Settings.llm = None
        Settings.embed_model = Lookup()
        nodes = [TextNode(text=t, id_=ids[i], embedding=np.asarray(X[i]).tolist()) for i, t in enumerate(texts)]
        index = VectorStoreIndex(nodes, embed_model=Settings.embed_model)
        bm25 = BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=10, stemmer=Stemmer.Stemmer("english"),
                                           language="english")
        self.retriever = QueryFusionRetriever([index.as_retriever(similarity_top_k=10), bm25], similarity_top_k=10,
                                              num_queries=1, mode="reciprocal_rerank", use_async=False, llm=None)

    def search(self, qtext, qvec, k=10):
        return [n.node.node_id for n in self.retriever.retrieve(qtext)]


def make(name: str, workdir: Path):
    return {"docstrata": lambda: Docstrata(workdir / "docstrata"), "holodeck": Holodeck, "fast": Fast,
            "txtai": lambda: Txtai(False), "txtai-exact": lambda: Txtai(True), "llamaindex": LlamaIndex}[name]()


# ------------------------------------------------------------------ child
def child(args) -> dict:
    """Build one system, time its queries, return its figures (runs in its own process)."""
    cache = Path(args.cache)
    if args.scale == "scifact":
        ids, texts, qids, qtexts, qrels = load_scifact()
        X, Q = scifact_vectors(cache, texts, qtexts)
    else:
        ids, texts, X, qtexts, Q = synthetic(cache, int(args.scale), args.queries, with_texts=not args.open_only)
        qids, qrels = None, None
    workdir = Path(args.workdir)
    sysobj = make(args.child, workdir)
    kept = Path(args.docstrata_index) if args.docstrata_index and args.child == "docstrata" else None
    if kept is not None:
        sysobj.root = kept
    sysobj.qtable = {t: Q[i] for i, t in enumerate(qtexts)}
    out: dict = {"system": args.child}
    if args.open_only:
        t, c = time.perf_counter(), time.process_time()
        sysobj.ids = ids
        sysobj.open()
        sysobj.search(qtexts[0], Q[0])
        out["open_first_s"] = time.perf_counter() - t
        out["open_first_cpu_s"] = time.process_time() - c
        out["peak_rss_mb"] = peak_rss_mb()
        out["open_rss_parts_mb"] = rss_parts_mb()
        return out
    if kept is not None and (kept / "build.json").exists():  # an index kept by an earlier run: not rebuilt
        sysobj.ids = ids
        sysobj.open()
        saved = json.loads((kept / "build.json").read_text())
        out["build_s"] = saved["build_s"]
        out.update({k: saved[k] for k in ("build_cpu_s", "harness_rss_mb") if k in saved})
        if "peak_rss_mb" in saved:
            out["build_peak_rss_mb"] = saved["peak_rss_mb"]
        out["build_reused"] = True
    else:
        # The harness's own memory before the build (the corpus texts; the vector file's pages join
        # it as the build reads them), so a build's peak RSS can be told from the system's own.
        out["harness_rss_mb"] = rss_parts_mb()["VmRSS"]
        t, c = time.perf_counter(), time.process_time()
        sysobj.build(ids, texts, X)
        out["build_s"] = time.perf_counter() - t
        out["build_cpu_s"] = time.process_time() - c
        out["build_peak_rss_mb"] = peak_rss_mb()
        out["build_rss_end_mb"] = rss_parts_mb()
        if kept is not None:
            (kept / "build.json").write_text(json.dumps({
                "build_s": out["build_s"], "build_cpu_s": out["build_cpu_s"], "peak_rss_mb": peak_rss_mb(),
                "harness_rss_mb": out["harness_rss_mb"], "rss_end_mb": out["build_rss_end_mb"],
                "load": os.getloadavg()}))
    if args.build_only:
        return out
    for i in range(min(10, len(qtexts))):  # warm-up
        sysobj.search(qtexts[i], Q[i])
    lat, cpu, runs = [], [], []
    for i, qt in enumerate(qtexts):
        t, c = time.perf_counter(), time.process_time()
        r = sysobj.search(qt, Q[i])
        lat.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        runs.append(r)
    out["p50_ms"] = float(np.percentile(lat, 50) * 1000)
    out["p95_ms"] = float(np.percentile(lat, 95) * 1000)
    # CPU seconds of the whole process (every thread) per query: on a loaded machine wall time is
    # mostly waiting for a core, CPU time is the work a query costs.
    out["cpu_p50_ms"] = float(np.percentile(cpu, 50) * 1000)
    out["peak_rss_mb"] = peak_rss_mb()
    if qrels is not None:
        out["ndcg10"] = float(np.mean([ndcg10(r, qrels[q]) for r, q in zip(runs, qids)]))
    if args.child == "docstrata":
        # Dense leg against an exact float32 scan: 1.0 unless an approximate index is in use.
        Xa = np.asarray(X) if len(ids) <= 200_000 else X
        rec = []
        for i in range(min(100, len(qtexts))):
            exact = {ids[j] for j in top_rows(np.asarray(Xa @ Q[i]), 10)}
            rec.append(len(exact & set(sysobj.dense(Q[i], 10))) / 10)
        out["dense_recall10"] = float(np.mean(rec))
        out["disk_mb"] = sum(f.stat().st_size for f in sysobj.root.rglob("*") if f.is_file()) / 2**20
        out["raw_mb"] = (np.asarray(X[:1]).nbytes * len(ids) + sum(len(t.encode()) for t in texts)) / 2**20
    return out


# ------------------------------------------------------------------ parent
def run_child(args, name: str, workdir: Path, open_only: bool = False, build_only: bool = False) -> dict:
    cmd = [sys.executable, __file__, "--child", name, "--scale", str(args.scale), "--cache", args.cache,
           "--workdir", str(workdir), "--queries", str(args.queries)] + (["--open-only"] if open_only else []) \
        + (["--build-only"] if build_only else []) \
        + (["--docstrata-index", args.docstrata_index] if args.docstrata_index and not build_only else [])
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"system": name, "error": f"timed out after {args.timeout} s"}
    if p.returncode != 0:
        return {"system": name, "error": (p.stderr.strip().splitlines() or ["?"])[-1][:200]}
    res = json.loads(p.stdout.strip().splitlines()[-1])
    res["wall_s"] = time.perf_counter() - t
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", default="scifact", help="'scifact' or a synthetic chunk count (100000, 1000000)")
    ap.add_argument("--systems", default=",".join(SYSTEMS), help=f"comma list of {', '.join(SYSTEMS)}")
    ap.add_argument("--queries", type=int, default=200, help="synthetic queries timed (SciFact: all 300)")
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "docstrata-peers"))
    ap.add_argument("--timeout", type=int, default=3600, help="per-system seconds")
    ap.add_argument("--json", action="store_true", help="print the JSON report instead of a table")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--workdir", help=argparse.SUPPRESS)
    ap.add_argument("--open-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--build-repeats", type=int, default=1,
                    help="build docstrata and fast this many times in all, one after the other in pairs, and "
                         "print every pair's build ratio and their median (a shared VM's speed drifts by "
                         "tens of per cent between minutes)")
    ap.add_argument("--docstrata-index", help="keep docstrata's index in this folder; a later run with the same "
                                             "folder reuses it (no rebuild) and reports the first run's build s")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if args.child:
        print(json.dumps(child(args)))
        return
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = set(systems) - set(SYSTEMS)
    if unknown:
        ap.error(f"unknown systems: {', '.join(sorted(unknown))}")
    cache = Path(args.cache)
    if args.scale == "scifact":  # embed once in the parent, before any timing
        _, texts, _, qtexts, _ = load_scifact()
        scifact_vectors(cache, texts, qtexts)
    else:
        synthetic(cache, int(args.scale), args.queries)
    load0 = os.getloadavg()
    workdir = Path(tempfile.mkdtemp(prefix="peers-"))
    results = []
    build_pairs: list[tuple[float, float]] = []
    try:
        for name in systems:
            res = run_child(args, name, workdir)
            if name == "docstrata" and "error" not in res:
                opened = run_child(args, name, workdir, open_only=True)
                res.update({k: v for k, v in opened.items()
                            if k in ("open_first_s", "open_first_cpu_s", "open_rss_parts_mb", "error")})
                if "peak_rss_mb" in opened:
                    res["open_rss_mb"] = opened["peak_rss_mb"]
            results.append(res)
            print(f"# {name}: {res}", file=sys.stderr)
            shutil.rmtree(workdir / "docstrata", ignore_errors=True)
        by_name = {r["system"]: r for r in results if "error" not in r}
        if args.build_repeats > 1 and "docstrata" in by_name and "fast" in by_name:
            pairs = [(by_name["docstrata"]["build_s"], by_name["fast"]["build_s"])]
            for _ in range(args.build_repeats - 1):
                d = run_child(args, "docstrata", workdir, build_only=True)
                shutil.rmtree(workdir / "docstrata", ignore_errors=True)
                f = run_child(args, "fast", workdir, build_only=True)
                if "error" in d or "error" in f:
                    print(f"# build repeat failed: {d.get('error') or f.get('error')}", file=sys.stderr)
                    break
                pairs.append((d["build_s"], f["build_s"]))
            build_pairs = pairs
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report = {"scale": args.scale, "load_before": load0, "load_after": os.getloadavg(),
              "threads": {k: os.environ.get(k) for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")},
              "results": results, "build_pairs": build_pairs}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    base = next((r.get("p50_ms") for r in results if r["system"] == "docstrata"), None)
    print(f"scale {args.scale}; load avg before {'/'.join(f'{x:.2f}' for x in load0)}, after "
          f"{'/'.join(f'{x:.2f}' for x in report['load_after'])}; threads {report['threads']}")
    cbase = next((r.get("cpu_p50_ms") for r in results if r["system"] == "docstrata"), None)
    print("| system | build s | peak RSS MB | p50 ms | p95 ms | CPU p50 ms | nDCG@10 | peer p50 / docstrata p50 "
          "| peer CPU / docstrata CPU | notes |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if "error" in r:
            print(f"| {r['system']} | | | | | | | | | error: {r['error']} |")
            continue
        ratio = f"{r['p50_ms'] / base:.2f}" if base else ""
        notes = [f"{k} {r[k]:.3f}" for k in ("dense_recall10", "open_first_s", "open_first_cpu_s") if k in r]
        notes += [f"{k} {r[k]:.0f}" for k in ("open_rss_mb", "build_peak_rss_mb", "harness_rss_mb", "disk_mb", "raw_mb")
                  if k in r]
        notes += ["build reused from --docstrata-index"] if r.get("build_reused") else []
        nd = f"{r['ndcg10']:.4f}" if "ndcg10" in r else ""
        cratio = f"{r['cpu_p50_ms'] / cbase:.2f}" if cbase else ""
        print(f"| {r['system']} | {r['build_s']:.1f} | {r['peak_rss_mb']:.0f} | {r['p50_ms']:.2f} | {r['p95_ms']:.2f} "
              f"| {r['cpu_p50_ms']:.2f} | {nd} | {ratio} | {cratio} | {'; '.join(notes)} |")
    by = {r["system"]: r for r in results if "error" not in r}
    if "docstrata" in by and "fast" in by:  # issue 18: build within 2x of bm25s + numpy, disk within 2x of raw
        d = by["docstrata"]
        cpu = (f" (build CPU {d['build_cpu_s']:.1f} s vs {by['fast']['build_cpu_s']:.1f} s)"
               if "build_cpu_s" in d and "build_cpu_s" in by["fast"] else "")
        print(f"docstrata build / fast build = {d['build_s'] / by['fast']['build_s']:.2f}x{cpu}; "
              f"disk / raw vectors + text = {d['disk_mb'] / d['raw_mb']:.2f}x")
    if len(build_pairs) > 1:
        ratios = [a / b for a, b in build_pairs]
        print("build pairs (docstrata s / fast s = ratio): "
              + "; ".join(f"{a:.1f} / {b:.1f} = {a / b:.2f}" for a, b in build_pairs)
              + f"; median ratio {float(np.median(ratios)):.2f}x")


if __name__ == "__main__":
    main()
