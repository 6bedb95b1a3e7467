"""Fit the answer's confidence on data: questions whose answer is in the searched documents, and the
same questions asked of documents of another field, which cannot answer them.

    DOCSTRATA_SHARED_DATA=/work/shared/data DOCSTRATA_LEGALBENCH=/work/legalbench \\
        python bench/confidence_fit.py [--limit 150] [--write] [--json OUT.json]

An answer's ``confidence`` used to be a rule: "high" for a keyword hit and a best cosine above the
model's floor. Some word of almost any question is in some chunk, so a question the documents cannot
answer ("What is the refund policy?" over an NDA) read "high". This fits the level on data instead
(:mod:`docstrata.confidence`) and ``--write`` stores the model in
``src/docstrata/confidence_fit.json``, which the search reads.

**Data.** Document sets of four fields, each with questions whose answer is known to be in it:

* ``nda``: ContractNLI (LegalBench-RAG): the first 40 NDAs in the order of a hash of their path (as
  ``bench/legalbench_rag.py --max-docs contractnli=40``), its 17 distinct questions;
* ``privacy``: PrivacyQA (LegalBench-RAG): the 7 privacy policies, their questions;
* ``science``: BEIR SciFact: the first 100 test claims over their gold abstracts and the first 400
  abstracts (as ``bench/similarity_floor.py``), a ``vectorstore`` tool; ``science-no-gold``: the
  same abstracts less every gold one (no question of its own: a claim asked there is unanswerable
  in its own field, the hard case);
* ``regulation``: ObliQA dev: the ADGM AML rulebook and the spot-commodities guidance, the
  questions whose gold passages all lie in them;
* with ``--same-field``, ``nda-no-gold``, ``privacy-no-gold`` and ``regulation-no-gold``: each set
  less every passage its truth gives as an answer (LegalBench-RAG's character spans, ObliQA's gold
  passages found in the rulebook text). A question asked there is unanswerable in its own documents
  (as far as the truth knows: PrivacyQA's spans are known to miss some answers). The figures then
  add a table for these pairs alone. Measured in session 19 (``docs/benchmarks-log.md``, "Same-field
  unanswerable questions"): the six signals tell them from answerable pairs with an AUC of 0.65–0.68
  each, so the default fit leaves them out.

LegalBench-RAG questions start by naming their document ("Consider the Non-Disclosure Agreement
between A and B; …"); that part is left out, so that a question asked of another set is not told
apart by the names alone. Each question is asked (hybrid search, top 10, default settings, the
bundled all-MiniLM-L6-v2, then multilingual-e5-small) of its own set (*answerable*) and of every
other (*unanswerable*).
``--limit`` keeps that many questions per set, in the order of a hash of the question.

**Split.** By a hash of the question text (as ``bench/legalbench_rag.py``): even = dev, odd =
holdout. The model and its cut-offs are fitted on dev; the figures to report are the holdout's.

**Fit.** Logistic regression (numpy, Newton steps, a small L2 penalty, standardised inputs) of
answerable vs unanswerable over the signals of :mod:`docstrata.confidence`. The cut-offs: ``high``
from the lowest probability at which at most :data:`FALSE_HIGH` of dev's unanswerable questions
reach it, ``medium`` from the highest at which at most :data:`MISSED_LOW` of dev's answerable
questions fall below it. Printed: per split, the share of unanswerable and of answerable questions
at each level and the precision of "high", before (the rule) and after (the fitted model, through
the product's own search on a second pass over the holdout).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from datetime import date
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

FIT_FILE = ROOT / "src" / "docstrata" / "confidence_fit.json"
CACHE = ROOT / "bench" / ".cache" / "confidence"
DATA = Path(os.environ.get("DOCSTRATA_SHARED_DATA", ROOT.parent / "shared" / "data"))
LEGALBENCH = Path(os.environ.get("DOCSTRATA_LEGALBENCH", "/work/legalbench"))
MODELS = ("all-MiniLM-L6-v2", "multilingual-e5-small")
TOP = 10
NDA_DOCS = 40
OBLIQA_DOCS = (1, 34)  # AML rulebook; guidance on spot commodities
SCIFACT_QUERIES, SCIFACT_CORPUS = 100, 400
FALSE_HIGH = 0.02  # at most this share of dev's unanswerable questions is called "high"
MISSED_LOW = 0.10  # at most this share of dev's answerable questions is called "low"
L2 = 1e-2
LEVELS = ("high", "medium", "low", "none")


def _h(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def split_of(question: str) -> str:
    """``dev`` or ``holdout`` by a hash of the question (about half each)."""
    return "dev" if int(_h(question)[:8], 16) % 2 == 0 else "holdout"


def _question(text: str) -> str:
    """A LegalBench-RAG query without its first part naming the document ("Consider …; ")."""
    return re.sub(r"^Consider\b[^;]*;\s*", "", text).strip()


def _build(name: str, tool_cfg: dict, model: str):
    from docstrata.config import parse_config
    from docstrata.tools import build_tool

    work = CACHE / (name if model == MODELS[0] else f"{name}-{re.sub(r'[^a-z0-9]+', '-', model.lower())}")
    work.mkdir(parents=True, exist_ok=True)
    cfg = parse_config({"tools": [{"name": name, **tool_cfg, "embedding_model": model}]}, base_dir=work)
    tool = build_tool(cfg.tools[0], work)
    report = tool.ingest()
    print(f"{name} ({model}): {report.chunks_total} chunks ({report.embedded} embedded this run)", flush=True)
    return tool


def _linked(name: str, files: list[Path], base: Path | None = None) -> Path:
    """A folder of links to ``files`` (at their paths under ``base``, else by name): the tool's source."""
    src = CACHE / name / "src"
    for f in files:
        link = src / (f.relative_to(base) if base else Path(f.name))
        if not link.exists():
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(f)
    return src


def _legalbench(subset: str, max_docs: int | None) -> tuple[list[Path], list[str]]:
    tests = json.loads((LEGALBENCH / "benchmarks" / f"{subset}.json").read_text(encoding="utf-8"))["tests"]
    docs = sorted({s["file_path"] for t in tests for s in t["snippets"]}, key=_h)[:max_docs]
    kept = set(docs)
    questions = [_question(t["query"]) for t in tests if all(s["file_path"] in kept for s in t["snippets"])]
    return [LEGALBENCH / "corpus" / d for d in docs], list(dict.fromkeys(questions))


def _written(name: str, texts: dict[str, str]) -> Path:
    """A folder holding ``texts`` (relative path → text), rewritten only where a text changed: a
    tool's source."""
    src = CACHE / name / "src"
    for rel, text in texts.items():
        f = src / rel
        if not f.exists() or f.read_text(encoding="utf-8") != text:
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(text, encoding="utf-8")
    return src


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` less the characters of ``spans`` (overlapping spans merged; each cut leaves a line
    break, so the text either side does not run together)."""
    out, pos = [], 0
    for a, b in sorted(spans):
        if b <= pos:
            continue
        out.append(text[pos : max(a, pos)])
        out.append("\n")
        pos = b
    out.append(text[pos:])
    return "".join(out)


def _legalbench_no_gold(subset: str, files: list[Path]) -> dict[str, str]:
    """The texts of ``files`` less every span any LegalBench-RAG question of ``subset`` gives as its
    answer: the same documents, which then answer none of those questions (as far as the truth
    knows)."""
    tests = json.loads((LEGALBENCH / "benchmarks" / f"{subset}.json").read_text(encoding="utf-8"))["tests"]
    spans: dict[str, list[tuple[int, int]]] = {}
    for t in tests:
        for s in t["snippets"]:
            spans.setdefault(s["file_path"], []).append((s["span"][0], s["span"][1]))
    out = {}
    for f in files:
        rel = str(f.relative_to(LEGALBENCH / "corpus"))
        out[rel] = _cut(f.read_text(encoding="utf-8"), spans.get(rel, []))
    return out


def _obliqa_no_gold(files: list[Path], passages: list[str]) -> tuple[dict[str, str], int]:
    """The rulebook texts of ``files`` less each gold passage of ``passages`` found in them (words
    matched with any whitespace between them): (texts by file name, passages removed)."""
    texts = {f.name: f.read_text(encoding="utf-8") for f in files}
    spans: dict[str, list[tuple[int, int]]] = {n: [] for n in texts}
    found = 0
    for passage in dict.fromkeys(passages):
        words = passage.split()
        if not words:
            continue
        pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
        for name, text in texts.items():
            hits = [(m.start(), m.end()) for m in pattern.finditer(text)]
            spans[name] += hits
            found += bool(hits)
    return {n: _cut(t, spans[n]) for n, t in texts.items()}, found


def datasets(same_field: bool = False) -> dict[str, tuple[dict, list[str]]]:
    """Name → (tool config, questions answerable over it), for the sets whose data is present.
    ``science-no-gold`` always, and with ``same_field`` every other set's ``…-no-gold`` twin too: the
    set less the passages that answer its questions, where a question is unanswerable in its own
    documents and field (the hard case)."""
    out: dict[str, tuple[dict, list[str]]] = {}
    if (LEGALBENCH / "benchmarks").is_dir():
        for name, subset, n in (("nda", "contractnli", NDA_DOCS), ("privacy", "privacy_qa", None)):
            files, qs = _legalbench(subset, n)
            src = _linked(name, files, LEGALBENCH / "corpus")
            out[name] = ({"type": "hierarchical_document", "source": str(src), "follow_symlinks": True}, qs)
            if same_field:
                removed = _written(f"{name}-no-gold", _legalbench_no_gold(subset, files))
                out[f"{name}-no-gold"] = ({"type": "hierarchical_document", "source": str(removed)}, [])
    else:
        print(f"LegalBench-RAG skipped: {LEGALBENCH} has no benchmarks/ (set DOCSTRATA_LEGALBENCH)")
    sci = DATA / "scifact"
    if sci.is_dir():
        qrels = [ln.split("\t") for ln in (sci / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]]
        first = list(dict.fromkeys(q for q, _, _ in qrels))[:SCIFACT_QUERIES]
        gold = {c for q, c, _ in qrels if q in first}
        lines = (sci / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
        kept = [ln for i, ln in enumerate(lines) if i < SCIFACT_CORPUS or json.loads(ln)["_id"] in gold]
        corpus = CACHE / "science-source" / "corpus.jsonl"
        corpus.parent.mkdir(parents=True, exist_ok=True)
        if not corpus.exists() or corpus.read_text(encoding="utf-8") != "\n".join(kept) + "\n":
            corpus.write_text("\n".join(kept) + "\n", encoding="utf-8")
        claims = {
            (r := json.loads(ln))["_id"]: r["text"]
            for ln in (sci / "queries.jsonl").read_text(encoding="utf-8").splitlines()
        }
        cfg = {"type": "vectorstore", "source": str(corpus), "id_field": "_id", "vector_field": ["title", "text"],
               "meta_fields": [], "field_separator": ". "}
        out["science"] = (cfg, [claims[q] for q in first])
        # the same abstracts less every gold one: a claim asked here is unanswerable in its own field
        rest = [ln for ln in kept if json.loads(ln)["_id"] not in gold]
        removed = CACHE / "science-no-gold-source" / "corpus.jsonl"
        removed.parent.mkdir(parents=True, exist_ok=True)
        if not removed.exists() or removed.read_text(encoding="utf-8") != "\n".join(rest) + "\n":
            removed.write_text("\n".join(rest) + "\n", encoding="utf-8")
        out["science-no-gold"] = ({**cfg, "source": str(removed)}, [])
    ob = DATA / "obliqa"
    if ob.is_dir():
        dmap = json.loads((ob / "document_map.json").read_text(encoding="utf-8"))
        files = [ob / "StandardizedRegulatoryDocumentsTXT" / dmap[str(d)]["file"] for d in OBLIQA_DOCS]
        qs = [
            q["Question"]
            for q in json.loads((ob / "ObliQA_dev.json").read_text(encoding="utf-8"))
            if {p["DocumentID"] for p in q["Passages"]} <= set(OBLIQA_DOCS)
        ]
        out["regulation"] = ({"type": "hierarchical_document", "source": str(_linked("regulation", files)),
                              "follow_symlinks": True}, list(dict.fromkeys(qs)))
        if not same_field:
            return out
        gold = [
            p["Passage"]
            for q in json.loads((ob / "ObliQA_dev.json").read_text(encoding="utf-8"))
            for p in q["Passages"]
            if p["DocumentID"] in OBLIQA_DOCS
        ]
        texts, found = _obliqa_no_gold(files, gold)
        print(f"regulation-no-gold: {found} of {len(set(gold))} gold passages found and removed")
        out["regulation-no-gold"] = ({"type": "hierarchical_document", "source": str(_written("regulation-no-gold", texts))}, [])
    return out


def ask(tools: dict, questions: dict[str, list[str]], splits=("dev", "holdout")) -> list[dict]:
    """One row per (question, document set): its label, split, the answer's confidence level and signals."""
    rows = []
    for own, qs in questions.items():
        for q in qs:
            split = split_of(q)
            if split not in splits:
                continue
            for name, tool in tools.items():
                res = tool.search(q, top_k=TOP)
                c = res.confidence
                rows.append({"set": own, "corpus": name, "question": q, "split": split,
                             "answerable": name == own, "level": c.level, "signals": c.signals,
                             "probability": c.probability})
        print(f"asked {len(qs)} {own} questions of {len(tools)} sets", flush=True)
    return rows


def _x(rows: list[dict]) -> np.ndarray:
    from docstrata.confidence import Signals, feature_vector

    return np.array([feature_vector(Signals(**r["signals"])) for r in rows], dtype=float)


def logistic(x: np.ndarray, y: np.ndarray, l2: float = L2) -> dict:
    """Standardised logistic regression by Newton steps: ``mean``, ``scale``, ``weights``, ``bias``.
    The two classes weigh alike (the probability is read at even odds, whatever the mix of the data)."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    sw = np.where(y == 1, len(y) / (2 * max(y.sum(), 1)), len(y) / (2 * max(len(y) - y.sum(), 1)))
    penalty = np.diag([0.0] + [l2 * len(x)] * (z.shape[1] - 1))
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (sw * (p - y)) + penalty @ w
        hess = (z * (sw * p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return {"mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(),
            "weights": w[1:].round(6).tolist(), "bias": round(float(w[0]), 6)}


def cutoffs(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(high, medium): the lowest cut-off at which at most FALSE_HIGH of the unanswerable reach it,
    the highest at which at most MISSED_LOW of the answerable fall below it (never above high)."""
    neg, pos = np.sort(p[y == 0]), np.sort(p[y == 1])
    allowed = int(np.floor(FALSE_HIGH * len(neg)))  # this many unanswerable may be high
    high = float(neg[len(neg) - allowed - 1]) + 1e-6 if allowed < len(neg) else 0.0
    missed = int(np.floor(MISSED_LOW * len(pos)))  # this many answerable may be low
    medium = float(pos[missed]) if missed < len(pos) else 1.0
    return round(min(high, 1.0), 6), round(min(medium, high), 6)


def table(rows: list[dict], key: str) -> dict:
    """Shares of levels among unanswerable and answerable rows, and the precision of "high"."""
    out: dict = {}
    for label, name in ((False, "unanswerable"), (True, "answerable")):
        sel = [r for r in rows if r["answerable"] == label]
        out[name] = {"n": len(sel), **{lv: sum(r[key] == lv for r in sel) / max(len(sel), 1) for lv in LEVELS}}
    highs = [r for r in rows if r[key] == "high"]
    out["precision_high"] = sum(r["answerable"] for r in highs) / len(highs) if highs else None
    out["high_n"] = len(highs)
    return out


def print_table(title: str, t: dict) -> None:
    """One markdown row per label of :func:`table`'s figures."""
    ph = t["precision_high"]
    print(f"\n{title}: precision of high {ph:.3f} ({t['high_n']} high)" if ph is not None else f"\n{title}: no high")
    print("| questions | n | high | medium | low | none |\n|---|---:|---:|---:|---:|---:|")
    for name in ("unanswerable", "answerable"):
        r = t[name]
        print(f"| {name} | {r['n']} | " + " | ".join(f"{100 * r[lv]:.1f} %" for lv in LEVELS) + " |")


def auc(p: np.ndarray, y: np.ndarray) -> float:
    """The chance that an answerable pair scores above an unanswerable one (ties half)."""
    pos, neg = p[y == 1], p[y == 0]
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def fit_model(model: str, sets: dict, questions: dict[str, list[str]]) -> tuple[dict, dict, list[dict]]:
    """Ask every question of every set with ``model``, fit on dev, and ask the holdout again through
    the product's search with the fit: (fit, figures, rows)."""
    import docstrata.confidence as conf
    import docstrata.tool_base as tool_base
    from docstrata.embed import similarity_floor

    print(f"\n## {model}\n")
    tools = {name: _build(name, cfg, model) for name, (cfg, _) in sets.items()}
    # the first pass: the rule's level ("before") and the signals, the fitted model off
    real, prop = conf.fitted_model, tool_base.BaseTool.confidence_fit
    tool_base.BaseTool.confidence_fit = property(lambda self: None)  # type: ignore[assignment]
    rows = ask(tools, questions)
    tool_base.BaseTool.confidence_fit = prop  # type: ignore[assignment]
    usable = [r for r in rows if r["signals"]]  # a level "none" (no hits) has no signals: left as it is
    dev = [r for r in usable if r["split"] == "dev"]
    y = np.array([r["answerable"] for r in dev], dtype=float)
    fit = {**logistic(_x(dev), y), "features": list(conf.FEATURES), "floor": similarity_floor(model)}
    p_dev = np.array([conf.probability(conf.Signals(**r["signals"]), fit) for r in dev])
    fit["high"], fit["medium"] = cutoffs(p_dev, y)
    for r in rows:
        r["p"] = conf.probability(conf.Signals(**r["signals"]), fit) if r["signals"] else 0.0
        r["fitted"] = conf.level_of(r["p"], fit) if r["signals"] else r["level"]
    hold = [r for r in rows if r["split"] == "holdout"]
    y_hold = np.array([r["answerable"] for r in hold], dtype=float)
    sim_hold = np.array([(r["signals"] or {}).get("similarity") or -1.0 for r in hold])
    print(f"\nfit on {len(dev)} dev pairs ({int(y.sum())} answerable): "
          + ", ".join(f"{f} {w:+.3f}" for f, w in zip(conf.FEATURES, fit["weights"]))
          + f", bias {fit['bias']:+.3f}; cut-offs high {fit['high']:.3f}, medium {fit['medium']:.3f}; "
          f"holdout AUC {auc(np.array([r['p'] for r in hold]), y_hold):.3f} "
          f"(best cosine alone {auc(sim_hold, y_hold):.3f})")
    # the second pass: the holdout through the product's own search with the fitted model
    key = conf.model_key(model)
    conf.fitted_model = lambda name: fit if name and conf.model_key(name) == key else real(name)  # type: ignore[assignment]
    after = {(r["question"], r["corpus"]): r for r in ask(tools, questions, ("holdout",))}
    conf.fitted_model = real  # type: ignore[assignment]
    for r in hold:
        r["after"] = after[(r["question"], r["corpus"])]["level"]
    figures = {
        "dev": {"before": table(dev, "level"), "after": table(dev, "fitted")},
        "holdout": {"before": table(hold, "level"), "after": table(hold, "after")},
    }
    print_table(f"{model}, dev, before (the rule)", figures["dev"]["before"])
    print_table(f"{model}, dev, after (the fitted model's level, before citation rules)", figures["dev"]["after"])
    print_table(f"{model}, holdout, before (the rule)", figures["holdout"]["before"])
    print_table(f"{model}, holdout, after (the product's search with the fit)", figures["holdout"]["after"])
    print(f"\n{model}, holdout, after, by document set asked: share high / medium / low")
    for name in tools:
        for label in (False, True):
            sel = [r for r in hold if r["corpus"] == name and r["answerable"] == label]
            if sel:
                shares = " / ".join(f"{100 * sum(r['after'] == lv for r in sel) / len(sel):.0f} %" for lv in LEVELS[:3])
                print(f"  {name:<10} {'answerable' if label else 'unanswerable':<13} n={len(sel):<4} {shares}")
    same = [r for r in hold if r["answerable"] or r["corpus"] == f"{r['set']}-no-gold"]
    if any(not r["answerable"] for r in same):
        figures["holdout_same_field"] = table(same, "after")
        print_table(f"{model}, holdout, after: unanswerable in its own documents less the answer only",
                    figures["holdout_same_field"])
    for tool in tools.values():
        tool.close()
    return fit, figures, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--limit", type=int, default=150, help="questions per document set")
    ap.add_argument("--same-field", action="store_true",
                    help="add each set less its answering passages (unanswerable in its own field) to the data")
    ap.add_argument("--write", action="store_true", help=f"store the fit in {FIT_FILE.relative_to(ROOT)}")
    ap.add_argument("--json", default=None, help="write the rows and figures to this file")
    args = ap.parse_args()
    sets = datasets(args.same_field)
    if len(sets) < 2:
        print("confidence fit skipped: fewer than two document sets have data")
        return
    questions = {name: sorted(qs, key=_h)[: args.limit] for name, (_, qs) in sets.items()}
    for name, qs in questions.items():
        print(f"{name}: {len(qs)} questions ({sum(split_of(q) == 'dev' for q in qs)} dev)")
    out = {}
    for model in args.models.split(","):
        fit, figures, rows = fit_model(model, sets, questions)
        out[model] = {"fit": fit, "figures": figures, "rows": rows}
    if args.write:
        data = json.loads(FIT_FILE.read_text(encoding="utf-8")) if FIT_FILE.exists() else {}
        for model, o in out.items():
            data.setdefault("models", {})[model] = {**o["fit"], "holdout": o["figures"]["holdout"]}
        data["fitted_by"] = f"python bench/confidence_fit.py --write --limit {args.limit}" + (
            " --same-field" if args.same_field else "")
        data["fitted_on"] = str(date.today())
        FIT_FILE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {FIT_FILE.relative_to(ROOT)}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
