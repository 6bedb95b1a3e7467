"""SciFact nDCG@10 through the embedded, ChromaDB and FAISS stores, one command (issue 16).

    python bench/store_parity.py [--databases embedded,chromadb,faiss] [--modes semantic,keyword,hybrid]
        [--corpus-limit N] [--limit N]

The same vectorstore tool as ``bench/retrieval_bench.py scifact`` (5,183 abstracts as records,
title + text, the bundled all-MiniLM-L6-v2, default fusion) is run on each store in turn. The
corpus is embedded once: the embedded run fills its SQLite embedding cache, and every other
store's SQLite starts as a copy of it, so its ingest writes every chunk through its own write path
with vectors from the cache (``embedded this run`` is 0). The figures printed at the end are each
store's nDCG@10 per mode and its difference from the embedded store's (issue 16 asks ≤ 0.01).

``/tmp/docstrata-peers/scifact_corpus.npy`` (``bench/peers.py``'s MiniLM vectors) is compared
with the product's stored vectors when present: peers embeds ``title + " " + text`` truncated at
the model's window, the product ``title + ". " + text`` as overlapping windows, so those vectors
are reported but never used in place of the product's.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import retrieval_bench  # noqa: E402

PEERS = Path("/tmp/docstrata-peers/scifact_corpus.npy")


def _peer_vector_check(sqlite_path: Path) -> str:
    """How close bench/peers.py's cached corpus vectors are to the product's single-window ones."""
    if not PEERS.exists() or not sqlite_path.exists():
        return "peers vectors: not present, not compared"
    X = np.load(PEERS)
    ids = [json.loads(line)["_id"] for line in (retrieval_bench.DATA / "scifact" / "corpus.jsonl").open()]
    row_of = {d: i for i, d in enumerate(ids)}
    db = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    rows = db.execute("SELECT c.chunk_id, c.doc_key, v.vec FROM chunks c JOIN vectors v ON v.chunk_id = c.chunk_id "
                      "WHERE c.chunk_id IN (SELECT chunk_id FROM vectors GROUP BY chunk_id HAVING COUNT(*) = 1)")
    cos = []
    for chunk_id, doc_key, blob in rows:
        v = np.frombuffer(blob, dtype=np.float32)
        keys = [k for s in (chunk_id, doc_key) for k in (s, re.split(r"[:/#]", s)[-1])]
        row = next((row_of[k] for k in keys if k in row_of), None)
        if row is not None and v.size == X.shape[1]:
            cos.append(float(v @ X[row]))
    if not cos:
        return "peers vectors: no single-window chunk matched a peers row, not compared"
    c = np.array(cos)
    return (f"peers vectors vs product (single-window abstracts, n={c.size}): cosine median {np.median(c):.4f}, "
            f"min {c.min():.4f}; {np.mean(c > 0.9999):.1%} identical to 4 places")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--databases", default="embedded,chromadb,faiss")
    ap.add_argument("--modes", default="semantic,keyword,hybrid")
    ap.add_argument("--corpus-limit", type=int, default=None)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    if not retrieval_bench.DATA.exists():
        sys.exit(f"{retrieval_bench.DATA} is absent: the shared benchmark data is needed")
    dbs = args.databases.split(",")
    if dbs[0] != "embedded":
        dbs = ["embedded", *[d for d in dbs if d != "embedded"]]  # the seed of every other store's cache
    out = {}
    for db in dbs:
        ns = argparse.Namespace(limit=args.limit, modes=args.modes, weights=None, rrf_k=None, no_context=False,
                                database=db, corpus_limit=args.corpus_limit)
        t = time.perf_counter()
        out[db] = retrieval_bench.run("scifact", ns)
        out[db]["wall_s"] = time.perf_counter() - t
    print("\n## SciFact nDCG@10 by store (difference from embedded)")
    modes = args.modes.split(",")
    print("| store | indexed | " + " | ".join(modes) + " | wall s |")
    print("|---|---|" + "---|" * len(modes) + "---|")
    base = out["embedded"]["results"]
    for db, r in out.items():
        cells = []
        for m in modes:
            v, d = r["results"][m]["ndcg@10"], r["results"][m]["ndcg@10"] - base[m]["ndcg@10"]
            cells.append(f"{v:.4f}" + ("" if db == "embedded" else f" ({d:+.4f})"))
        print(f"| {db} | {r['indexed']} | " + " | ".join(cells) + f" | {r['wall_s']:.0f} |")
    worst = max(abs(out[db]["results"][m]["ndcg@10"] - base[m]["ndcg@10"]) for db in out for m in modes)
    print(f"largest |difference| {worst:.4f} ({'within' if worst <= 0.01 else 'OUTSIDE'} 0.01)")
    sub = retrieval_bench.CACHE / "scifact" / ".docstrata" / "scifact" / "index.sqlite"
    if args.corpus_limit is None:
        print(_peer_vector_check(sub))


if __name__ == "__main__":
    main()
