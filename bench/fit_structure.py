"""Fit the section-start scorer's weights on the dev split of the truth corpora (issue 28, deliverable 3).

Run: ``python bench/fit_structure.py [--split dev] [--cache DIR] [--prior-scale S] [--free F1,F2] [--extra DIR] [--dry-run] [--report]``.

``--free F1,F2`` fits only those features, every other weight held at its value in the weights file:
a new feature is fitted against the model the others already make, without refitting them all.

``--extra DIR`` adds the statute PDFs of ``bench/statute_pdfs.py``'s folder that its ``index.json``
puts in the split (truth from each PDF's printed Arrangement of Sections).

What it does:

1. For every document of the split (``bench/structure_real.py``'s ``load_cases``: the truth files
   under ``../shared/data/real`` and ``bench/realdocs``), convert it as ingest does and parse it
   with the resolver switched off (``ParseContext(resolve=False)``), collecting every candidate
   section start with its features (:mod:`docstrata.structure.parse.resolve`).
2. Label each candidate: true when its line is where ``structure_real._locate_truth`` finds a truth
   section's heading, or when ``structure_real.match_sections`` matches its section to a truth
   section whose located heading does not start another of our sections (the matcher takes a
   contents entry printed before the body first; the locator may land on a contents line); false when it is neither but a truth section
   has its number (a contents line, a running header, a mention of a real section); left out when
   no truth section has its number (the truth is silent there: an amending Act's items, a
   requirement ``3.1.1`` under an outline's ``3.1``).
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

import structure_real as sr

from docstrata.structure.parse import parse_sections
from docstrata.structure.parse.resolve import (
    FEATURES,
    WEIGHTS_FILE,
    Candidate,
    ParseContext,
    pair_features,
)


def _converter_version() -> str:
    """A digest of the converters' and models' source: a cached conversion from other code is stale."""
    import docstrata

    root = Path(docstrata.__file__).parent
    files = sorted((root / "convert").glob("*.py")) + [root / "models.py"]
    return hashlib.sha1(b"".join(f.read_bytes() for f in files)).hexdigest()[:12]


def _convert(inp: Path, key: str, cache: Path):
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile

    st = inp.stat()
    tag = hashlib.sha1(f"{inp.resolve()}|{st.st_size}|{st.st_mtime_ns}|{_converter_version()}".encode()).hexdigest()[:16]
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
                          heading_levels=doc.heading_levels, blocks=doc.blocks, context=ctx)
    m = sr.match_sections(truth["sections"], tree.sections, by_title_only=by_title_only)
    # the truth speaks only of the numbers it has: a candidate whose number no truth section
    # carries (an amending Act's items, a requirement "3.1.1" under an outline's "3.1") is left out
    known = {sr.norm_number(t.get("number")) for t in truth["sections"] if t.get("number")}
    # where each truth section's heading stands in the text (contents lines with leaders never): a
    # match to a contents entry printed before the body is the matcher's first-come choice, not truth
    lines = doc.markdown.replace("\r\n", "\n").split("\n")
    located = {i: line for line, i in sr._locate_truth(truth["sections"], lines)}
    located_lines = set(located.values())
    truth_of = {j: i for i, j in m.items()}
    at_line = {s.start_line: j for j, s in enumerate(tree.sections)}
    out = []
    last_true: dict[tuple, Candidate] = {}
    for c in ctx.trace:
        j = at_line.get(c.marker.line + 1)
        i = truth_of.get(j) if j is not None else None
        if c.marker.line in located_lines:
            label = 1
        elif i is not None:  # matched; false only when the truth's heading starts another section of ours
            other = at_line.get(located[i] + 1) if i in located else None
            label = int(other is None or other == j or abs(located[i] - c.marker.line) <= 1)
        elif j is not None and sr.norm_number(tree.sections[j].number) in known:
            label = 0
        else:
            continue
        prev = last_true.get(c.series)
        x = dict(c.unary)
        x.update(pair_features(prev, c, prev is not None and prev.region != c.region))
        if c.sibling:
            x["continues_parent"] = 1.0
        out.append((x, label))
        if label:
            last_true[c.series] = c
    return out


def _extra_cases(folder: Path | None, split: str) -> list[tuple[dict, Path, str, str]]:
    """(truth document, input, doc_key, split) for the statute PDFs of ``folder`` in ``split``
    (``bench/statute_pdfs.py``: ``index.json`` names each file's split; truth from the PDF's own
    Arrangement of Sections)."""
    if folder is None:
        return []
    import statute_pdfs

    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    return [(statute_pdfs.truth_document(folder / name), folder / name, name, meta.get("split", "dev"))
            for name, meta in sorted(index.items()) if meta.get("split", "dev") == split]


def _matrix(rows: list[tuple[dict[str, float], int]]) -> tuple[np.ndarray, np.ndarray]:
    X = np.array([[x.get(f, 0.0) for f in FEATURES] for x, _ in rows], dtype=float)
    y = np.array([lab for _, lab in rows], dtype=float)
    return X, y


def _objective(X: np.ndarray, y: np.ndarray, w: np.ndarray, prior: np.ndarray, lam: float, s: np.ndarray) -> float:
    z = X @ w
    # weighted -log-likelihood, stably: log(1 + e^z) - y z
    return float(np.sum(s * (np.logaddexp(0, z) - y * z)) + 0.5 * np.sum(lam * (w - prior) ** 2))


def fit(X: np.ndarray, y: np.ndarray, prior: np.ndarray, scale, s: np.ndarray | None = None,
        iters: int = 100) -> np.ndarray:
    """MAP logistic regression: minimise ``-Σ s_i log p(y_i|x_i,w) + Σ_k (w_k - prior_k)² / (2 scale_k²)``
    by Newton's method with a backtracking line search (convex; the prior makes it strictly so).
    ``scale``: one standard deviation for every weight, or one per weight (a tiny one holds a weight
    at its prior). ``s``: example weights (default 1)."""
    s = np.ones(len(y)) if s is None else s
    w = prior.copy()
    lam = 1.0 / (np.broadcast_to(np.asarray(scale, dtype=float), w.shape) ** 2)
    f = _objective(X, y, w, prior, lam, s)
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(X @ w, -50, 50)))
        g = X.T @ (s * (p - y)) + lam * (w - prior)
        H = (X * (s * p * (1 - p))[:, None]).T @ X + np.diag(lam)
        step = np.linalg.solve(H, g)
        t = 1.0
        while t > 1e-8:
            cand = w - t * step
            fc = _objective(X, y, cand, prior, lam, s)
            if fc <= f - 1e-4 * t * float(g @ step):
                break
            t /= 2
        if t <= 1e-8:
            break
        w, f_old, f = cand, f, fc
        if f_old - f < 1e-9:
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
    ap.add_argument("--per-doc", type=float, default=40.0,
                    help="a document's candidates weigh together at most this many examples")
    ap.add_argument("--dry-run", action="store_true", help="do not write the weights file")
    ap.add_argument("--report", action="store_true", help="then run structure_real.py on holdout and holdout2")
    ap.add_argument("--free", default="",
                    help="comma-separated features to fit; every other weight is held at its value in the "
                         "weights file (a new feature is fitted against the model the others already make)")
    ap.add_argument("--extra", type=Path, default=None,
                    help="also fit on the statute PDFs of this folder whose index.json puts them in --split "
                         "(truth: each PDF's printed Arrangement of Sections, bench/statute_pdfs.py)")
    args = ap.parse_args(argv)
    data = json.loads(args.weights.read_text(encoding="utf-8"))
    prior = np.array([float(data["prior"].get(f, 0.0)) for f in FEATURES])
    rows: list[tuple[dict[str, float], int]] = []
    sample: list[float] = []
    t0 = time.perf_counter()
    for truth_path, inp, key, split in sr.load_cases(args.split, None) + _extra_cases(args.extra, args.split):
        truth = json.loads(truth_path.read_text()) if isinstance(truth_path, Path) else truth_path
        entry = sr._split_of(key, sr.REALDOCS_ENTRIES, {}) \
            if isinstance(truth_path, Path) and truth_path.is_relative_to(sr.REALDOCS) else {}
        try:
            doc = _convert(inp, key, args.cache)
        except Exception as e:
            print(f"{key}: not converted ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        ex = examples_of(doc, truth, entry.get("kind") in ("pptx", "xlsx"))
        pos = sum(lab for _, lab in ex)
        print(f"{key:70} {len(ex):5d} candidates, {pos:5d} true", file=sys.stderr)
        rows += ex
        # each document counts at most as much as --per-doc candidates: one long statute's running
        # headers must not outweigh every other document's evidence
        sample += [min(1.0, args.per_doc / len(ex))] * len(ex) if ex else []
    (args.cache / "examples.json").write_text(json.dumps(rows))
    X, y = _matrix(rows)
    scale = np.full(len(FEATURES), args.prior_scale)
    if args.free:
        free = {f.strip() for f in args.free.split(",") if f.strip()}
        unknown = free - set(FEATURES)
        if unknown:
            ap.error(f"--free: unknown feature(s) {sorted(unknown)}")
        held = np.array([float(data["weights"].get(f, data["prior"].get(f, 0.0))) for f in FEATURES])
        prior = np.where([f in free for f in FEATURES], prior, held)
        scale = np.where([f in free for f in FEATURES], scale, 1e-4)
    w = fit(X, y, prior, scale, np.array(sample))
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
                       "prior_scale": args.prior_scale, "per_doc": args.per_doc, "log_loss_prior": round(before[0], 4),
                       "log_loss_fit": round(after[0], 4), "accuracy_fit": round(after[1], 4)}
        args.weights.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.weights}")
    if args.report:
        for split in ("holdout", "holdout2"):
            subprocess.run([sys.executable, str(ROOT / "bench" / "structure_real.py"), "--split", split], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
