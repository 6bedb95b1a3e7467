"""The cosine below which a hit is only a nearest neighbour, fitted per embedding model.

    DOCSTRATA_SHARED_DATA=/work/shared/data python bench/similarity_floor.py \
        [--models all-MiniLM-L6-v2,multilingual-e5-small] [--write] [--json]

An answer's ``confidence`` (docstrata.search.assess_confidence) calls a hit with no keyword or
exact match "close" when its cosine similarity reaches the model's floor. all-MiniLM-L6-v2 spreads
cosines over 0..0.8; multilingual-e5-small packs them into 0.7..0.95 (a new user's trial saw every
hit at 0.82-0.90, so every answer read "medium"): one fixed 0.30 cannot serve both. This fits the
floor on data, per model, and ``--write`` stores it in ``src/docstrata/similarity_floors.json``,
which the embedders read (``low_similarity``).

**Data.** The questions of ``bench/multilingual.py`` (German BGB, French Code civil, the first 100
BEIR SciFact test queries), each asked twice with dense-only search:

* *answerable*: over its own corpus; the score is the best cosine among the judged-relevant hits
  in the top 20 (a question whose relevant passage is not in the top 20 is left out and counted);
* *unanswerable*: over a corpus of the same language that does not hold the answer (German: the
  Mindestlohngesetz excerpt of tests/fixtures/gesetze-im-internet; French: the French PIPEDA
  excerpt of tests/fixtures/justice-canada-fr; English: the EU regulation of tests/fixtures/eurlex
  and the Common Paper pilot agreement); the score is the best cosine of the top hit.

**Fit.** Questions are split by position: even = dev, odd = holdout. The floor is the threshold
that maximises balanced accuracy ((TPR + TNR) / 2, answerable above, unanswerable below) on the
dev questions of all three languages pooled (midpoint between the two scores it falls between);
the figures printed for the holdout questions are the ones to report, beside the fixed 0.30.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from datetime import date
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import multilingual as ml  # noqa: E402  (bench/multilingual.py: the questions and their corpora)

FLOORS = ROOT / "src" / "docstrata" / "similarity_floors.json"
FIX = ROOT / "tests" / "fixtures"
UNANSWERING = {
    "de": [FIX / "gesetze-im-internet" / "milog-excerpt.xml"],
    "fr": [FIX / "justice-canada-fr" / "P-8.6-fra_extrait.xml"],
    "en": [FIX / "eurlex" / "32024R2979.html", FIX / "common-paper" / "pilot-agreement.docx"],
}
FIXED = 0.30
TOP = 20


class _Args:
    en_queries, en_corpus = 100, 400


def _tool(name: str, tool_cfg: dict, model: str):
    from docstrata.config import parse_config
    from docstrata.tools import build_tool

    work = ml.CACHE.parent / "similarity_floor" / f"{name}-{ml._slug(model)}"
    work.mkdir(parents=True, exist_ok=True)
    cfg = parse_config({"tools": [{"name": name, **tool_cfg, "embedding_model": model}]}, base_dir=work)
    tool = build_tool(cfg.tools[0], work)
    tool.ingest()
    return tool


def _unanswering_tool(lang: str, model: str):
    src = ml.CACHE.parent / "similarity_floor" / f"neg-{lang}-source"
    src.mkdir(parents=True, exist_ok=True)
    for f in UNANSWERING[lang]:
        if not (src / f.name).exists():
            shutil.copy(f, src / f.name)
    return _tool(f"neg-{lang}", {"type": "hierarchical_document", "source": str(src)}, model)


def scores(model: str) -> list[dict]:
    """One row per question: language, split, answerable score (or None), unanswerable score."""
    rows: list[dict] = []
    for lang in ("de", "fr", "en"):
        spec = ml._dataset(lang, _Args)
        if spec is None:
            print(f"{lang}: skipped (no data)", flush=True)
            continue
        tool_cfg, qs = spec
        own, other = _tool(lang, tool_cfg, model), _unanswering_tool(lang, model)
        for i, q in enumerate(qs.queries):
            hits = own.search(q.text, top_k=TOP, mode="semantic")
            rel = [h.semantic_score for h in hits if qs.judge(q, h) and h.semantic_score is not None]
            neg = other.search(q.text, top_k=1, mode="semantic")
            rows.append(
                {
                    "lang": lang,
                    "split": "dev" if i % 2 == 0 else "holdout",
                    "pos": max(rel) if rel else None,
                    "neg": neg[0].semantic_score if neg else None,
                }
            )
        own.close()
        other.close()
    return rows


def _pairs(rows: list[dict], split: str) -> tuple[list[float], list[float]]:
    pos = [r["pos"] for r in rows if r["split"] == split and r["pos"] is not None]
    neg = [r["neg"] for r in rows if r["split"] == split and r["neg"] is not None]
    return pos, neg


def rates(pos: list[float], neg: list[float], t: float) -> tuple[float, float, float]:
    """(TPR, TNR, balanced accuracy) of floor ``t``: answerable at or above, unanswerable below."""
    tpr = sum(p >= t for p in pos) / len(pos) if pos else 0.0
    tnr = sum(n < t for n in neg) / len(neg) if neg else 0.0
    return tpr, tnr, (tpr + tnr) / 2


def fit(pos: list[float], neg: list[float]) -> float:
    """The floor maximising balanced accuracy on ``pos``/``neg``: a midpoint between neighbouring
    scores (ties: the lowest such floor, so answerable hits are not cut)."""
    values = sorted(set(pos) | set(neg))
    cands = [(a + b) / 2 for a, b in zip(values, values[1:])] or values
    return max(cands, key=lambda t: (rates(pos, neg, t)[2], -t))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="all-MiniLM-L6-v2,multilingual-e5-small")
    ap.add_argument("--write", action="store_true", help=f"store the fitted floors in {FLOORS.relative_to(ROOT)}")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    fitted: dict[str, float] = {}
    report = []
    print("| model | split | answerable (n, median) | unanswerable (n, median) | floor | TPR | TNR | bal. acc. | "
          "fixed 0.30: TPR / TNR / bal. acc. |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model in args.models.split(","):
        rows = scores(model)
        dev_pos, dev_neg = _pairs(rows, "dev")
        floor = round(fit(dev_pos, dev_neg), 3)
        fitted[model] = floor
        missed = sum(r["pos"] is None for r in rows)
        for split in ("dev", "holdout"):
            pos, neg = _pairs(rows, split)
            tpr, tnr, bal = rates(pos, neg, floor)
            ftpr, ftnr, fbal = rates(pos, neg, FIXED)
            med = lambda xs: sorted(xs)[len(xs) // 2] if xs else float("nan")  # noqa: E731
            print(f"| {model} | {split} | {len(pos)}, {med(pos):.3f} | {len(neg)}, {med(neg):.3f} | {floor:.3f} | "
                  f"{tpr:.3f} | {tnr:.3f} | {bal:.3f} | {ftpr:.3f} / {ftnr:.3f} / {fbal:.3f} |", flush=True)
            report.append({"model": model, "split": split, "floor": floor, "tpr": tpr, "tnr": tnr, "balanced": bal,
                           "fixed": {"tpr": ftpr, "tnr": ftnr, "balanced": fbal}, "answerable": len(pos),
                           "unanswerable": len(neg)})
        print(f"({model}: {missed} questions had no relevant passage in the top {TOP} and give no answerable score)")
    if args.write:
        data = json.loads(FLOORS.read_text(encoding="utf-8")) if FLOORS.exists() else {}
        data.setdefault("floors", {}).update(fitted)
        data["fitted_by"] = "python bench/similarity_floor.py --write"
        data["fitted_on"] = str(date.today())
        FLOORS.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {FLOORS.relative_to(ROOT)}: {fitted}")
    if args.json:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
