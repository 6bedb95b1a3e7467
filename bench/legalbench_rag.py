"""LegalBench-RAG (Pipitone & Houir Alami 2024, arXiv:2408.10343): character-level Precision@k and
Recall@k of docstrata's hits, per sub-corpus, beside the paper's published figures and a naive
500-character-chunk baseline embedded with the same model in the same process.

    DOCSTRATA_LEGALBENCH=/work/legalbench python bench/legalbench_rag.py \
        [--split dev|holdout|all] [--limit N] [--max-docs N | --max-docs privacy_qa=7,maud=3] \
        [--subsets privacy_qa,contractnli,cuad,maud] [--json OUT.json]

Data: ``$DOCSTRATA_LEGALBENCH`` holds ``corpus/{privacy_qa,contractnli,cuad,maud}/*.txt`` and
``benchmarks/{name}.json`` (``{"tests": [{"query", "snippets": [{"file_path", "span"}]}]}``, spans
into the file's text, end exclusive). It is never part of this repository (see docs/benchmarks.md,
"LegalBench-RAG"); without it the script says so and exits 0.

What is measured, per sub-corpus (each its own ``hierarchical_document`` tool, default config, the
bundled all-MiniLM-L6-v2, index cached in ``bench/.cache/legalbench/``):

* ``docstrata-chunk``: each hit's whole chunk, mapped to characters of the source file;
* ``docstrata-span``: each hit's passage as span mode shows it (the cited sub-item when the query
  names one, else the best-matching sentence, else the whole chunk), mapped the same way;
* ``naive-500``: the file cut into 500-character pieces (no overlap, the paper's "Naive" chunking),
  each embedded with the same model, cosine top-k over the sub-corpus.

Metrics (the paper's, as its ``legalbenchrag/run_benchmark.py`` computes them): for the first k hits, the
characters they cover (union of their spans, per file path) against the truth spans of the query:
precision = |retrieved ∩ truth| / |retrieved|, recall = |retrieved ∩ truth| / |truth|, averaged
over queries, k = 1, 2, 4, 8, 16, 32, 64. (The reference code sums per pair of spans; that equals
the union when the retrieved spans do not overlap, as the chunks of a document, the sentences of
different chunks and the naive pieces do not.) Also:
the characters returned per query at k, document hit@1 (the first hit is in a truth file), the
share of queries whose first hit holds truth characters, and the share whose first hit is its
document's first chunk (the preamble problem of issue 29).

docstrata's chunk text is the converted text of the file, which differs from the file: line breaks
and space runs are re-flowed into paragraphs, ligatures spelt out ("ﬁ" → "fi"); hits carry no
offsets into the source file. The script maps each chunk back by matching its text in the file with
whitespace runs and ligatures normalised on both sides, walking the document's chunks in order,
and reports how many chunks mapped exactly, after normalisation, or not at all (an unmapped hit
adds no characters: it is scored as retrieving nothing). It checks that the characters each mapped
passage lands on hold the passage's text.

Sampling: ``--split`` divides PrivacyQA and ContractNLI by a hash of the query text into ``dev``
(the half any tuning may look at) and ``holdout``; CUAD and MAUD are measured only (never tuned on:
in ``holdout`` and ``all``, not in ``dev``). ``--max-docs`` keeps the first N documents of a
sub-corpus in the order of a hash of their path and the queries whose truth lies in them; the
searched corpus is those documents (as the paper's own runs, which search only the documents their
194 sampled queries refer to). ``--limit`` then keeps the first N queries in the order of a hash of
the query. The run prints the sample it used.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import json
import os
import sys
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "bench" / ".cache" / "legalbench"
KS = (1, 2, 4, 8, 16, 32, 64)
SUBSETS = ("privacy_qa", "contractnli", "cuad", "maud")
TUNABLE = ("privacy_qa", "contractnli")  # dev/holdout halves; cuad and maud are measured only
NAIVE_CHARS = 500

# The paper's published figures, in percent. Source: Pipitone & Houir Alami 2024, "LegalBench-RAG",
# arXiv:2408.10343, Table 4 (per-dataset results), as quoted in Open-Source-Legal/OpenContracts
# docs/benchmarks/legalbench_rag_results.md (2026-04-26): the paper itself is not reachable from
# the machine this script was written on, so only its k = 32 figures quoted there are given; the
# other k print "n/a". Their embedder is OpenAI text-embedding-3-large, chunks of 500 characters,
# 194 queries per sub-corpus.
PUBLISHED_SOURCE = ("Pipitone & Houir Alami 2024 (arXiv:2408.10343) Table 4, k=32, as quoted by "
                    "OpenContracts docs/benchmarks/legalbench_rag_results.md")
# configuration -> sub-corpus -> "recall" / "precision" -> {k: percent}
PUBLISHED: dict[str, dict[str, dict[str, dict[int, float]]]] = {
    "Naive-500 (3-large, no rerank)": {
        "privacy_qa": {"recall": {32: 54.27}, "precision": {32: 2.41}},
        "contractnli": {"recall": {32: 69.88}, "precision": {32: 4.65}},
        "cuad": {"recall": {32: 64.38}, "precision": {32: 1.77}},
        "maud": {"recall": {32: 18.36}, "precision": {}},
    },
    "RCTS-500 + Cohere rerank": {
        "privacy_qa": {"recall": {32: 64.98}, "precision": {32: 4.68}},
        "contractnli": {"recall": {}, "precision": {}},
        "cuad": {"recall": {32: 55.66}, "precision": {32: 2.74}},
        "maud": {"recall": {32: 22.60}, "precision": {32: 1.55}},
    },
    "best of the paper's 4 configs": {
        "privacy_qa": {"recall": {32: 71.19}, "precision": {}},
        "contractnli": {"recall": {32: 69.88}, "precision": {}},
        "cuad": {"recall": {32: 64.38}, "precision": {}},
        "maud": {"recall": {32: 22.60}, "precision": {}},
    },
}


# ---------------------------------------------------------------------------------------- metric

Span = tuple[str, int, int]  # (file path, start, end), end exclusive


def merge_spans(spans: list[Span]) -> dict[str, list[tuple[int, int]]]:
    """Union of ``spans`` per file path: ``{path: [(start, end), ...]}`` sorted, disjoint, empty
    spans dropped."""
    by_file: dict[str, list[tuple[int, int]]] = {}
    for path, a, b in spans:
        if b > a:
            by_file.setdefault(path, []).append((a, b))
    out = {}
    for path, items in by_file.items():
        items.sort()
        merged = [items[0]]
        for a, b in items[1:]:
            if a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        out[path] = merged
    return out


def _length(merged: dict[str, list[tuple[int, int]]]) -> int:
    return sum(b - a for items in merged.values() for a, b in items)


def _overlap(x: dict[str, list[tuple[int, int]]], y: dict[str, list[tuple[int, int]]]) -> int:
    total = 0
    for path, xs in x.items():
        ys = y.get(path)
        if not ys:
            continue
        i = j = 0
        while i < len(xs) and j < len(ys):
            lo, hi = max(xs[i][0], ys[j][0]), min(xs[i][1], ys[j][1])
            if hi > lo:
                total += hi - lo
            if xs[i][1] < ys[j][1]:
                i += 1
            else:
                j += 1
    return total


def char_precision_recall(retrieved: list[Span], truth: list[Span]) -> tuple[float, float]:
    """LegalBench-RAG's character-level ``(precision, recall)`` of ``retrieved`` against ``truth``
    (both lists of ``(file_path, start, end)``, end exclusive): the characters both cover over the
    characters retrieved / over the truth characters, each side the union of its spans per file
    path (a character counts once however many spans hold it). Precision is 0.0 when nothing was
    retrieved, recall 0.0 when the truth is empty."""
    r, t = merge_spans(retrieved), merge_spans(truth)
    both = _overlap(r, t)
    r_len, t_len = _length(r), _length(t)
    return (both / r_len if r_len else 0.0), (both / t_len if t_len else 0.0)


# ----------------------------------------------------------------------- mapping chunks to files

def _is_presentation_form(ch: str) -> bool:
    """A ligature or presentation form, which conversion folds to its NFKC letters
    (:mod:`docstrata.convert.unicode_forms`: "ﬁ" → "fi")."""
    return "\uFB00" <= ch <= "\uFDFF" or "\uFE70" <= ch <= "\uFEFE"


def _squeeze(text: str) -> tuple[str, list[int]]:
    """``text`` with leading whitespace dropped, each whitespace run made one space and each
    ligature spelt out as conversion does, and for each character of that the index of the
    character of ``text`` it came from."""
    out, idx, space = [], [], True
    for i, ch in enumerate(text):
        if ch.isspace():
            if not space:
                out.append(" ")
                idx.append(i)
            space = True
        else:
            for letter in unicodedata.normalize("NFKC", ch) if _is_presentation_form(ch) else ch:
                out.append(letter)
                idx.append(i)
            space = False
    if out and out[-1] == " ":
        out.pop()
        idx.pop()
    return "".join(out), idx


@dataclass
class SourceMap:
    """Where each chunk of one document lies in the source file's text: ``place[ordinal] =
    (start, end, how)``, ``how`` one of ``exact`` / ``normalised`` (whitespace and ligatures) / ``none`` (not found)."""

    text: str
    place: dict[int, tuple[int, int, str]] = field(default_factory=dict)
    _norm: str = ""
    _idx: list[int] = field(default_factory=list)

    @classmethod
    def build(cls, text: str, chunks) -> "SourceMap":
        """Map ``chunks`` (one document's, any order) onto ``text``, walking them in ordinal order
        so a repeated passage is matched to its next occurrence."""
        sm = cls(text)
        sm._norm, sm._idx = _squeeze(text)
        cur_raw, cur_norm = 0, 0
        for c in sorted(chunks, key=lambda c: c.ordinal):
            body = c.content.strip()
            if not body:
                sm.place[c.ordinal] = (cur_raw, cur_raw, "none")
                continue
            p = text.find(body, cur_raw)
            if p < 0:
                p = text.find(body)
            if p >= 0:
                sm.place[c.ordinal] = (p, p + len(body), "exact")
                cur_raw = p + len(body)
                cur_norm = bisect.bisect_left(sm._idx, cur_raw)
                continue
            squeezed, _ = _squeeze(body)
            q = sm._norm.find(squeezed, cur_norm)
            if q < 0:
                q = sm._norm.find(squeezed)
            if q < 0:
                sm.place[c.ordinal] = (cur_raw, cur_raw, "none")
                continue
            start, end = sm._idx[q], sm._idx[q + len(squeezed) - 1] + 1
            sm.place[c.ordinal] = (start, end, "normalised")
            cur_raw, cur_norm = end, q + len(squeezed)
        return sm

    def span_of(self, chunk, start: int | None = None, end: int | None = None) -> tuple[int, int] | None:
        """Characters of the source file holding ``chunk.content.strip()[start:end]`` (the whole
        chunk by default); ``None`` when the chunk was not found in the file."""
        a, b, how = self.place.get(chunk.ordinal, (0, 0, "none"))
        if how == "none":
            return None
        body = chunk.content.strip()
        start = 0 if start is None else max(0, min(start, len(body)))
        end = len(body) if end is None else max(start, min(end, len(body)))
        if (start, end) == (0, len(body)):
            return a, b
        if how == "exact":
            return a + start, a + end
        # normalised: count the piece's characters in the squeezed form from the chunk's start
        squeezed, idx = _squeeze(body)
        n0 = bisect.bisect_left(idx, start)
        n1 = bisect.bisect_left(idx, end)
        q = bisect.bisect_left(self._idx, a)
        if n1 <= n0:
            return None
        return self._idx[q + n0], self._idx[q + n1 - 1] + 1


# ------------------------------------------------------------------------------------ the sample

def _h(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def split_of(subset: str, query: str) -> str:
    """``dev`` or ``holdout`` for a PrivacyQA / ContractNLI query (by a hash of its text, about half
    each); ``measure`` for CUAD and MAUD, which no tuning may look at."""
    if subset not in TUNABLE:
        return "measure"
    return "dev" if int(_h(query)[:8], 16) % 2 == 0 else "holdout"


@dataclass
class Sample:
    """The documents (paths relative to the corpus folder) and tests of one sub-corpus."""

    subset: str
    docs: list[str]
    tests: list[dict]
    total_tests: int
    total_docs: int


def load_sample(root: Path, subset: str, split: str, max_docs: int | None, limit: int | None) -> Sample:
    """The sample of ``subset`` the options select (see the module docstring). Raises
    ``FileNotFoundError`` naming the missing benchmark file or corpus document."""
    bench = root / "benchmarks" / f"{subset}.json"
    tests = json.loads(bench.read_text(encoding="utf-8"))["tests"]
    total = len(tests)
    docs = sorted({s["file_path"] for t in tests for s in t["snippets"]}, key=_h)
    n_docs = len(docs)
    for d in docs:
        if not (root / "corpus" / d).is_file():
            raise FileNotFoundError(f"{bench}: snippet file {d!r} is not in {root / 'corpus'}")
    if max_docs:
        docs = docs[:max_docs]
    kept = set(docs)
    tests = [t for t in tests if all(s["file_path"] in kept for s in t["snippets"])]
    if split == "dev":
        tests = [t for t in tests if split_of(subset, t["query"]) == "dev"]
    elif split == "holdout":
        tests = [t for t in tests if split_of(subset, t["query"]) in ("holdout", "measure")]
    tests.sort(key=lambda t: _h(t["query"]))
    if limit:
        tests = tests[:limit]
    return Sample(subset, docs, tests, total, n_docs)


# -------------------------------------------------------------------------------------- methods

@dataclass
class Scores:
    """Per-query sums for one method on one sub-corpus."""

    n: int = 0
    precision: dict[int, float] = field(default_factory=lambda: {k: 0.0 for k in KS})
    recall: dict[int, float] = field(default_factory=lambda: {k: 0.0 for k in KS})
    chars: dict[int, float] = field(default_factory=lambda: {k: 0.0 for k in KS})
    doc_hit1: int = 0
    truth_in_top1: int = 0
    first_chunk_top1: int = 0

    def add(self, ranked: list[Span], truth: list[Span], first_chunk_top1: bool = False) -> None:
        """Score one query's ranked spans (best first) against its truth spans."""
        self.n += 1
        for k in KS:
            p, r = char_precision_recall(ranked[:k], truth)
            self.precision[k] += p
            self.recall[k] += r
            self.chars[k] += _length(merge_spans(ranked[:k]))
        if ranked:
            files = {t[0] for t in truth}
            self.doc_hit1 += ranked[0][0] in files
            self.truth_in_top1 += char_precision_recall(ranked[:1], truth)[1] > 0
        self.first_chunk_top1 += first_chunk_top1

    def row(self) -> dict:
        """Means in percent (chars in characters)."""
        n = max(self.n, 1)
        return {"queries": self.n,
                "precision": {k: 100 * v / n for k, v in self.precision.items()},
                "recall": {k: 100 * v / n for k, v in self.recall.items()},
                "chars": {k: v / n for k, v in self.chars.items()},
                "doc_hit@1": 100 * self.doc_hit1 / n, "truth_in_top1": 100 * self.truth_in_top1 / n,
                "top1_is_first_chunk": 100 * self.first_chunk_top1 / n}


def _tool_for(sample: Sample, root: Path):
    """A ``hierarchical_document`` tool (default config) over the sample's documents, linked from
    ``root/corpus`` into a cache folder named after the document set (re-runs reuse its index)."""
    from docstrata.config import parse_config
    from docstrata.tools import build_tool

    work = CACHE / f"{sample.subset}-{_h(chr(10).join(sample.docs))[:10]}"
    src = work / "src"
    for d in sample.docs:
        link = src / d
        if not link.exists():
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(root / "corpus" / d)
    cfg = parse_config({"tools": [{"name": "legalbench", "type": "hierarchical_document", "source": str(src),
                                   "follow_symlinks": True}]}, base_dir=work)
    return build_tool(cfg.tools[0], work)


def run_subset(sample: Sample, root: Path) -> dict:
    """Ingest, search and score one sub-corpus; returns its figures."""
    import numpy as np

    tool = _tool_for(sample, root)
    t0 = time.perf_counter()
    report = tool.ingest()
    ingest_s = time.perf_counter() - t0
    store = tool.store
    texts = {}
    for d in sample.docs:  # newline="": the spans count a "\r\n" as two characters
        with open(root / "corpus" / d, encoding="utf-8", newline="") as f:
            texts[d] = f.read()
    maps, first, mapped = {}, {}, {"exact": 0, "normalised": 0, "none": 0}
    for d in sample.docs:
        chunks = store.document_chunks(d)
        if not chunks:
            continue
        maps[d] = SourceMap.build(texts[d], chunks)
        first[d] = min(c.ordinal for c in chunks)
        for _a, _b, how in maps[d].place.values():
            mapped[how] += 1
    missing_docs = [d for d in sample.docs if d not in maps]

    # the naive baseline: 500-character pieces of the file text, same model
    t1 = time.perf_counter()
    pieces: list[Span] = [(d, i, min(i + NAIVE_CHARS, len(texts[d])))
                          for d in sample.docs for i in range(0, len(texts[d]), NAIVE_CHARS)]
    vecs = tool.embedder.encode([texts[d][a:b] for d, a, b in pieces])
    naive_s = time.perf_counter() - t1

    chunk_sc, span_sc, naive_sc = Scores(), Scores(), Scores()
    unmapped_hits = 0
    span_check = {"same": 0, "different": 0}
    t2 = time.perf_counter()
    for t in sample.tests:
        truth = [(s["file_path"], s["span"][0], s["span"][1]) for s in t["snippets"]]
        hits = tool.search(t["query"], top_k=max(KS))
        by_id = {c.chunk_id: c for c in store.get_chunks([h.chunk_id for h in hits])}
        ranked_chunk, ranked_span = [], []
        for h in hits:
            c = by_id.get(h.chunk_id)
            sm = maps.get(c.doc_key) if c is not None else None
            whole = sm.span_of(c) if sm is not None else None
            if whole is None:
                unmapped_hits += 1
                ranked_chunk.append((c.doc_key if c else "?", 0, 0))
                ranked_span.append((c.doc_key if c else "?", 0, 0))
                continue
            ranked_chunk.append((c.doc_key, *whole))
            offsets = (h.pinpoint.offsets_in(c.content) if h.pinpoint is not None
                       else (h.passage["start"], h.passage["end"]) if h.passage else None)
            part = sm.span_of(c, *offsets) if offsets is not None else None
            ranked_span.append((c.doc_key, *(part or whole)))
            if part is not None:  # the mapped characters hold the passage's text, normalisation aside
                shown = c.content.strip()[offsets[0]:offsets[1]]
                same = _squeeze(shown)[0] == _squeeze(sm.text[part[0]:part[1]])[0]
                span_check["same" if same else "different"] += 1
        top = by_id.get(hits[0].chunk_id) if hits else None
        top_first = top is not None and top.ordinal == first.get(top.doc_key)
        chunk_sc.add(ranked_chunk, truth, top_first)
        span_sc.add(ranked_span, truth, top_first)
        q = tool.embedder.embed_query(t["query"])
        sims = vecs @ q
        best = np.argsort(-sims, kind="stable")[:max(KS)]
        naive_sc.add([pieces[i] for i in best], truth, bool(len(best)) and pieces[best[0]][1] == 0)
    search_s = time.perf_counter() - t2
    tool.close()
    return {"subset": sample.subset, "documents": len(sample.docs), "documents_in_benchmark": sample.total_docs,
            "queries": len(sample.tests), "queries_in_benchmark": sample.total_tests,
            "corpus_chars": sum(len(v) for v in texts.values()), "chunks": report.chunks_total,
            "naive_pieces": len(pieces), "chunks_mapped": mapped, "documents_not_indexed": missing_docs,
            "unmapped_hits": unmapped_hits, "span_check": span_check, "ingest_s": round(ingest_s, 1),
            "naive_embed_s": round(naive_s, 1), "search_s": round(search_s, 1),
            "methods": {"docstrata-chunk": chunk_sc.row(), "docstrata-span": span_sc.row(),
                        "naive-500": naive_sc.row()}}


# -------------------------------------------------------------------------------------- report

def _fmt(v: float | None, digits: int = 1) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def print_report(res: dict) -> None:
    """Print one sub-corpus's figures as Markdown tables."""
    s = res["subset"]
    m = res["chunks_mapped"]
    print(f"\n## {s}: {res['queries']} of {res['queries_in_benchmark']} queries, {res['documents']} of "
          f"{res['documents_in_benchmark']} documents ({res['corpus_chars']:,} characters); "
          f"{res['chunks']} chunks (mapped to the file: {m['exact']} exact, {m['normalised']} after "
          f"whitespace and ligature normalisation, {m['none']} not found), {res['naive_pieces']} naive pieces; "
          f"ingest {res['ingest_s']} s, "
          f"naive embedding {res['naive_embed_s']} s, queries {res['search_s']} s", flush=True)
    if res["documents_not_indexed"]:
        print(f"documents not indexed: {res['documents_not_indexed']}")
    sc = res["span_check"]
    print(f"passages mapped to the file: {sc['same']} hold the passage's text (normalisation aside), "
          f"{sc['different']} do not")
    if res["unmapped_hits"]:
        print(f"hits not found in their file (scored as hitting nothing): {res['unmapped_hits']}")
    head = "| method | " + " | ".join(f"@{k}" for k in KS) + " |"
    sep = "|---|" + "---:|" * len(KS)
    for metric in ("recall", "precision", "chars"):
        print(f"\n{metric}{' (%)' if metric != 'chars' else ' returned per query'}\n\n{head}\n{sep}")
        for name, row in res["methods"].items():
            digits = 0 if metric == "chars" else 2
            print(f"| {name} | " + " | ".join(_fmt(row[metric][k], digits) for k in KS) + " |")
        if metric != "chars":
            for pname, per in PUBLISHED.items():
                vals = per[s][metric]
                if vals:
                    print(f"| paper: {pname} | " + " | ".join(_fmt(vals.get(k), 2) for k in KS) + " |")
    print("\n| method | doc hit@1 | truth in top-1 | top-1 is the document's first chunk |\n|---|---:|---:|---:|")
    for name, row in res["methods"].items():
        print(f"| {name} | {row['doc_hit@1']:.1f} | {row['truth_in_top1']:.1f} | {row['top1_is_first_chunk']:.1f} |")


def macro(results: list[dict], subsets: tuple[str, ...]) -> dict[str, dict]:
    """Per method, the equal-weight mean over the sub-corpora of ``results`` named in ``subsets``
    (the paper's overall figure weights its four sub-corpora equally): the same keys as a method's
    row, plus ``subsets``. Empty when none of them was measured."""
    rows = [r for r in results if r["subset"] in subsets]
    if not rows:
        return {}
    out: dict[str, dict] = {}
    for name in rows[0]["methods"]:
        per = [r["methods"][name] for r in rows]
        mean = {m: {k: sum(p[m][k] for p in per) / len(per) for k in KS} for m in ("precision", "recall", "chars")}
        for key in ("doc_hit@1", "truth_in_top1", "top1_is_first_chunk"):
            mean[key] = sum(p[key] for p in per) / len(per)
        out[name] = {**mean, "subsets": [r["subset"] for r in rows]}
    return out


def print_macro(title: str, table: dict[str, dict]) -> None:
    """Print a :func:`macro` table."""
    if not table:
        return
    names = next(iter(table.values()))["subsets"]
    print(f"\n## {title} (equal-weight mean over {', '.join(names)})\n")
    print("| method | " + " | ".join(f"R@{k}" for k in KS) + " | " + " | ".join(f"P@{k}" for k in KS)
          + " | chars@4 | truth in top-1 | top-1 first chunk |")
    print("|---|" + "---:|" * (2 * len(KS) + 3))
    for name, row in table.items():
        print(f"| {name} | " + " | ".join(f"{row['recall'][k]:.1f}" for k in KS) + " | "
              + " | ".join(f"{row['precision'][k]:.2f}" for k in KS)
              + f" | {row['chars'][4]:.0f} | {row['truth_in_top1']:.1f} | {row['top1_is_first_chunk']:.1f} |")


def _max_docs(value: str | None) -> dict[str, int | None]:
    if not value:
        return dict.fromkeys(SUBSETS)
    if "=" not in value:
        return dict.fromkeys(SUBSETS, int(value))
    out: dict[str, int | None] = dict.fromkeys(SUBSETS)
    for part in value.split(","):
        name, _, n = part.partition("=")
        if name not in SUBSETS:
            raise SystemExit(f"--max-docs: unknown sub-corpus {name!r} (one of {', '.join(SUBSETS)})")
        out[name] = int(n)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=("dev", "holdout", "all"), default="all")
    ap.add_argument("--limit", type=int, default=None, help="queries per sub-corpus (after the split)")
    ap.add_argument("--max-docs", default=None, help="documents per sub-corpus: N, or name=N,name=N")
    ap.add_argument("--subsets", default=",".join(SUBSETS))
    ap.add_argument("--json", default=None, help="write the figures to this file")
    args = ap.parse_args()
    env = os.environ.get("DOCSTRATA_LEGALBENCH")
    root = Path(env) if env else None
    if root is None or not (root / "benchmarks").is_dir() or not (root / "corpus").is_dir():
        print("LegalBench-RAG skipped: set DOCSTRATA_LEGALBENCH to a folder holding corpus/ and benchmarks/ "
              f"(got {env!r}); see docs/benchmarks.md, 'LegalBench-RAG'")
        return
    max_docs = _max_docs(args.max_docs)
    subsets = [s for s in args.subsets.split(",") if s]
    print(f"# LegalBench-RAG, split {args.split}, limit {args.limit}, max docs {args.max_docs}; "
          f"published figures: {PUBLISHED_SOURCE}")
    out = []
    for s in subsets:
        if args.split == "dev" and s not in TUNABLE:
            print(f"\n## {s}: measured only, not in the dev split")
            continue
        sample = load_sample(root, s, args.split, max_docs[s], args.limit)
        if not sample.tests:
            print(f"\n## {s}: no query in this sample")
            continue
        res = run_subset(sample, root)
        print_report(res)
        out.append(res)
    tunable, overall = macro(out, TUNABLE), macro(out, SUBSETS)
    print_macro("PrivacyQA + ContractNLI", tunable)
    print_macro("All sub-corpora measured", overall)
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "results": out,
                                               "macro_tunable": tunable, "macro_all": overall}, indent=1),
                                   encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    main()
