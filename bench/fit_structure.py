"""Fit the section-start scorer's weights on the dev split of the truth corpora (issue 28, deliverable 3).

Run: ``python bench/fit_structure.py [--split dev] [--cache DIR] [--prior-scale S] [--dry-run] [--report]``.

What it does:

1. For every document of the split (``bench/structure_real.py``'s ``load_cases``: the truth files
   under ``../shared/data/real`` and ``bench/realdocs``), convert it as ingest does and parse it
   with the resolver switched off (``ParseContext(resolve=False)``), collecting every candidate
   section start with its features (:mod:`docstrata.structure.parse.resolve`).
2. Label each candidate: true when the section it starts is matched to a truth section by
   ``structure_real.match_sections`` (numbers, then titles, in document order), false otherwise.
   Its pair features are read against the previous *true* candidate of its numbering series
   (the chain the resolver should find), so unary and pair weights are fitted together.
3. Fit a logistic regression by Newton's method (numpy), maximum a posteriori under a Gaussian
   prior centred on the hand-set ``prior`` weights of ``resolver_weights.json`` (standard deviation
   ``--prior-scale``, default 2 log-odds): a feature the dev documents never show keeps its prior,
   one they show moves as far as the evidence carries it.
4. Write the fitted weights into ``src/docstrata/structure/parse/resolver_weights.json``
   (``weights``; ``prior`` is kept) unless ``--dry-run``, and print the dev log-loss and
   accuracy before (prior) and after (fit). ``--report`` then runs
   ``bench/structure_real.py --split holdout`` and ``--split holdout2`` with the new weights.

Converted documents are cached under ``--cache`` (default ``/tmp/docstrata-fit-cache``), keyed by
path, size and modification time, so a second fit takes seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "src"))

import structure_real as sr  # noqa: E402

from docstrata.structure.parse import parse_sections  # noqa: E402
from docstrata.structure.parse.resolve import (  # noqa: E402
    FEATURES,
    WEIGHTS_FILE,
    Candidate,
    ParseContext,
    pair_features,
)


def _convert(inp: Path, key: str, cache: Path):
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile

    st = inp.stat()
    tag = hashlib.sha1(f"{inp.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:16]
    path = cache / f"{tag}.pickle"
    if path.exists():
        return pickle.loads(path.read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        doc = convert_file(SourceFile(key, str(inp), None))
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(doc))
    return doc


def examples_of(doc, truth: dict, by_title_only: bool) -> list[tuple[dict[str, float], int]]:
    """(features, label) for every candidate of one document (see the module docstring)."""
    ctx = ParseContext([], resolve=False, trace=[])
    tree = parse_sections(doc.markdown, doc.doc_key, doc.title, list_items=doc.list_items,
                          heading_levels=doc.heading_levels, context=ctx)
    m = sr.match_sections(truth["sections"], tree.sections, by_title_only=by_title_only)
    matched = {m_j for m_j in m.values()}
    at_line = {s.start_line: j for j, s in enumerate(tree.sections)}
    out = []
    last_true: dict[tuple, Candidate] = {}
    for c in ctx.trace:
        j = at_line.get(c.marker.line + 1)
        label = int(j is not None and j in matched)
        prev = last_true.get(c.series)
        x = dict(c.unary)
        x.update(pair_features(prev, c, prev is not None and prev.region != c.region))
        if c.sibling:
            x["continues_parent"] = 1.0
        out.append((x, label))
        if label:
            last_true[c.series] = c
    return out


def _matrix(rows: list[tuple[dict[str, float], int]]) -> tuple[np.ndarray, np.ndarray]:
    X = np.array([[x.get(f, 0.0) for f in FEATURES] for x, _ in rows], dtype=float)
    y = np.array([lab for _, lab in rows], dtype=float)
    return X, y


def fit(X: np.ndarray, y: np.ndarray, prior: np.ndarray, scale: float, iters: int = 50) -> np.ndarray:
    """MAP logistic regression: minimise ``-Σ log p(y|x,w) + ||w - prior||² / (2 scale²)`` by Newton."""
    w = prior.copy()
    lam = 1.0 / (scale * scale)
    for _ in range(iters):
        z = np.clip(X @ w, -50, 50)
        p = 1 / (1 + np.exp(-z))
        g = X.T @ (p - y) + lam * (w - prior)
        H = (X * (p * (1 - p))[:, None]).T @ X + lam * np.eye(len(w))
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def _loss(X, y, w) -> tuple[float, float]:
    z = np.clip(X @ w, -50, 50)
    p = 1 / (1 + np.exp(-z))
    eps = 1e-12
    ll = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
    acc = float(np.mean((p > 0.5) == (y > 0.5)))
    return float(ll), acc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", default="dev", help="split to fit on (default dev)")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/docstrata-fit-cache"))
    ap.add_argument("--prior-scale", type=float, default=2.0, help="prior standard deviation, log-odds")
    ap.add_argument("--weights", type=Path, default=WEIGHTS_FILE)
    ap.add_argument("--dry-run", action="store_true", help="do not write the weights file")
    ap.add_argument("--report", action="store_true", help="then run structure_real.py on holdout and holdout2")
    args = ap.parse_args(argv)
    data = json.loads(args.weights.read_text(encoding="utf-8"))
    prior = np.array([float(data["prior"].get(f, 0.0)) for f in FEATURES])
    rows: list[tuple[dict[str, float], int]] = []
    t0 = time.perf_counter()
    for truth_path, inp, key, split in sr.load_cases(args.split, None):
        truth = json.loads(truth_path.read_text())
        entry = sr._split_of(key, sr.REALDOCS_ENTRIES, {}) if truth_path.is_relative_to(sr.REALDOCS) else {}
        try:
            doc = _convert(inp, key, args.cache)
        except Exception as e:  # one broken file never stops the fit
            print(f"{key}: not converted ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        ex = examples_of(doc, truth, entry.get("kind") in ("pptx", "xlsx"))
        pos = sum(lab for _, lab in ex)
        print(f"{key:70} {len(ex):5d} candidates, {pos:5d} true", file=sys.stderr)
        rows += ex
    X, y = _matrix(rows)
    w = fit(X, y, prior, args.prior_scale)
    before, after = _loss(X, y, prior), _loss(X, y, w)
    print(f"{len(rows)} candidates ({int(y.sum())} true) from split {args.split} in {time.perf_counter() - t0:.0f} s")
    print(f"prior: log-loss {before[0]:.4f}, accuracy {before[1]:.4f}; fit: log-loss {after[0]:.4f}, "
          f"accuracy {after[1]:.4f}")
    support = X.astype(bool).sum(axis=0)
    for f, p0, w1, n in zip(FEATURES, prior, w, support):
        print(f"  {f:24} prior {p0:+6.2f}  fit {w1:+6.2f}  (non-zero on {n} candidates)")
    if not args.dry_run:
        data["weights"] = {f: round(float(v), 3) for f, v in zip(FEATURES, w)}
        data["fit"] = {"command": "python bench/fit_structure.py " + " ".join(argv if argv is not None else sys.argv[1:]),
                       "split": args.split, "candidates": len(rows), "true": int(y.sum()),
                       "prior_scale": args.prior_scale, "log_loss_prior": round(before[0], 4),
                       "log_loss_fit": round(after[0], 4), "accuracy_fit": round(after[1], 4)}
        args.weights.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.weights}")
    if args.report:
        for split in ("holdout", "holdout2"):
            subprocess.run([sys.executable, str(ROOT / "bench" / "structure_real.py"), "--split", split], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
