"""How close in meaning a query word and the index's spelling of it must be, fitted per embedding model.

    DOCSTRATA_SHARED_DATA=/work/shared/data python bench/respell_fit.py \
        [--models all-MiniLM-L6-v2] [--write] [--json]

A query word no indexed chunk holds ("licence" over documents that write "license", "recieve") is
searched as the word one edit away that the index does hold (:mod:`docstrata.respell`), but only
when the embedding model places the two words close: "licence"/"license" are one word, while
"price"/"prime" or "marital"/"martial" are two. This fits that cosine per model, and ``--write``
stores it in ``src/docstrata/respell_cosines.json``, which the search reads; a model without an
entry is never respelled.

**Data** (nothing here is tuned on a document the product is judged on):

* *same word* pairs, one edit apart (Damerau: a letter deleted, inserted, replaced, or two
  neighbours swapped): British → American spellings (codespell's ``dictionary_en-GB_to_en-US.txt``)
  and common misspellings → their correction (codespell's ``dictionary.txt``, the first
  correction, a seeded sample). Install with ``pip install codespell`` (its dictionaries are
  derivative works of English Wikipedia, CC BY-SA 3.0; read here, never copied into the repository).
* *different word* pairs: two words one edit apart that both occur at least
  :data:`MIN_COUNT` times in real legal English (the 40 ObliQA regulatory documents of
  ``$DOCSTRATA_SHARED_DATA``, one dialect: British), whose stems differ, that codespell does not
  list as spellings of each other, and that are not one word's forms (:func:`_inflection`):
  "formal"/"normal", "affects"/"effects". (BEIR SciFact was tried too and left out: its abstracts
  mix British and American medical spellings, "anaemia"/"anemia", which would count as different.)

Only words of at least :data:`docstrata.respell.MIN_LETTERS` letters take part, as in the search.

**Fit.** Pairs are split by a hash of the pair: even = dev, odd = holdout. A wrong respelling
costs more than a missed one (the question's word is replaced by another word, and an
unanswerable question loses the absent word that shows it), so the threshold is the lowest cosine
at which no dev different-word pair passes (:data:`MAX_FALSE`); the figures to report are
the holdout's (same-word pairs accepted, different-word pairs accepted).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import zlib
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

from docstrata.index.keyword import analyze  # noqa: E402
from docstrata.respell import COSINES, MIN_LETTERS, edits1  # noqa: E402

MIN_COUNT = 3
MAX_FALSE = 0.0
SAMPLE = 1500  # pairs of each kind at most (seeded), to keep the embedding pass to a minute
_WORD = re.compile(rf"[a-z]{{{MIN_LETTERS},}}")


def _codespell_data() -> Path:
    try:
        import codespell_lib
    except ImportError:
        sys.exit("respell_fit needs codespell's dictionaries: pip install codespell")
    return Path(codespell_lib.__file__).parent / "data"


def _pairs_file(path: Path) -> list[tuple[str, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        wrong, _, right = line.partition("->")
        right = right.split(",")[0].strip()
        if wrong and right and " " not in right and right.isalpha() and wrong.isalpha():
            out.append((wrong.strip().lower(), right.lower()))
    return out


def _text_vocabulary(shared: Path) -> Counter:
    counts: Counter = Counter()
    for txt in sorted((shared / "obliqa" / "StandardizedRegulatoryDocumentsTXT").glob("*.txt")):
        counts.update(_WORD.findall(txt.read_text(encoding="utf-8", errors="replace").lower()))
    return counts


def _stem(word: str) -> tuple[str, ...]:
    return tuple(analyze(word))


def _spelled_alike(a: str, b: str, variants: list[tuple[str, str]]) -> bool:
    """Whether a British → American spelling of codespell's list, applied inside one word, makes
    the other ("neighbourhood"/"neighborhood" from "neighbour"/"neighbor", "fibres"/"fibers")."""
    return any(
        (gb in a and a.replace(gb, us) == b) or (gb in b and b.replace(gb, us) == a) for gb, us in variants
    )


def _inflection(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ only in their last two letters ("microglia"/"microglial",
    "aneuploid"/"aneuploidy": one word's forms, which the stemmer happens to keep apart) or by an
    s/z spelling ("randomisation"/"randomization", which codespell's list does not hold): such
    pairs are no *different* words, so they stay out of that set."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    if n >= min(len(a), len(b)) - 2:
        return True
    return len(a) == len(b) and {a[n], b[n]} == {"s", "z"} and a[n + 1 :] == b[n + 1 :]


def pairs(shared: Path, seed: int = 20) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(same-word pairs, different-word pairs), each one edit apart, both words ≥ MIN_LETTERS letters."""
    data = _codespell_data()
    variants = _pairs_file(data / "dictionary_en-GB_to_en-US.txt")
    typos = _pairs_file(data / "dictionary.txt")
    known = {frozenset(p) for p in variants + typos}

    def near(a: str, b: str) -> bool:
        return len(a) >= MIN_LETTERS and len(b) >= MIN_LETTERS and b in edits1(a) and _stem(a) != _stem(b)

    rng = random.Random(seed)
    same = [p for p in variants if near(*p)]
    typo_pairs = [p for p in typos if near(*p)]
    rng.shuffle(typo_pairs)
    same = sorted(set(same + typo_pairs[: max(0, SAMPLE - len(same))]))
    counts = _text_vocabulary(shared)
    vocab = {w for w, n in counts.items() if n >= MIN_COUNT}
    different: set[tuple[str, str]] = set()
    for w in sorted(vocab):
        for other in edits1(w):
            if (
                other in vocab
                and other > w
                and frozenset((w, other)) not in known
                and not _spelled_alike(w, other, variants)
                and _stem(w) != _stem(other)
                and not _inflection(w, other)
            ):
                different.add((w, other))
    different_list = sorted(different)
    rng.shuffle(different_list)
    return same, sorted(different_list[:SAMPLE])


def _split(pairs_: list[tuple[str, str]]) -> tuple[list, list]:
    dev = [p for p in pairs_ if zlib.crc32(f"{p[0]}|{p[1]}".encode()) % 2 == 0]
    hold = [p for p in pairs_ if zlib.crc32(f"{p[0]}|{p[1]}".encode()) % 2 == 1]
    return dev, hold


def cosines(model: str, pairs_: list[tuple[str, str]]) -> np.ndarray:
    """The model's cosine of each pair's two words, (n,)."""
    from docstrata.embed import make_embedder

    embedder = make_embedder(model)
    words = sorted({w for p in pairs_ for w in p})
    vecs = embedder.encode(words)
    ix = {w: i for i, w in enumerate(words)}
    return np.array([float(vecs[ix[a]] @ vecs[ix[b]]) for a, b in pairs_], dtype=np.float64)


def fit_threshold(same: np.ndarray, different: np.ndarray, max_false: float = MAX_FALSE) -> float:
    """The lowest cosine at which at most ``max_false`` of the ``different`` pairs reach it: midway
    between the first different pair that must fail and the one above it (just above the highest
    when none may pass). ``same`` is not read: the fit spends no false respelling to gain true ones."""
    ranked = np.sort(different)[::-1]
    allowed = int(np.floor(max_false * len(ranked)))
    if allowed >= len(ranked):
        return round(float(ranked[-1]), 4)
    first_out = float(ranked[allowed])
    return round(first_out + 1e-4 if allowed == 0 else (first_out + float(ranked[allowed - 1])) / 2, 4)


def _rates(threshold: float, same: np.ndarray, different: np.ndarray) -> tuple[float, float]:
    return float((same >= threshold).mean()), float((different >= threshold).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="all-MiniLM-L6-v2")
    ap.add_argument("--write", action="store_true", help=f"store the fitted cosines in {COSINES.name}")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    shared = Path(os.environ.get("DOCSTRATA_SHARED_DATA", ROOT.parent / "shared" / "data"))
    if not (shared / "obliqa" / "StandardizedRegulatoryDocumentsTXT").is_dir():
        sys.exit(f"no ObliQA documents under {shared}: set DOCSTRATA_SHARED_DATA")
    same, different = pairs(shared)
    report = {"pairs": {"same": len(same), "different": len(different)}, "models": {}}
    fitted = json.loads(COSINES.read_text()) if COSINES.exists() else {}
    for model in args.models.split(","):
        sims_same = dict(zip(same, cosines(model, same)))
        sims_diff = dict(zip(different, cosines(model, different)))
        (dev_s, hold_s), (dev_d, hold_d) = _split(same), _split(different)
        arr = lambda sims, ps: np.array([sims[p] for p in ps])  # noqa: E731
        t = fit_threshold(arr(sims_same, dev_s), arr(sims_diff, dev_d))
        tpr, fpr = _rates(t, arr(sims_same, hold_s), arr(sims_diff, hold_d))
        dtpr, dfpr = _rates(t, arr(sims_same, dev_s), arr(sims_diff, dev_d))
        british = set(_pairs_file(_codespell_data() / "dictionary_en-GB_to_en-US.txt"))
        hold_v = [p for p in hold_s if p in british]
        variant_rate = float(np.mean([sims_same[p] >= t for p in hold_v])) if hold_v else 0.0
        passed = sorted((sims_diff[p], p) for p in hold_d if sims_diff[p] >= t)[::-1][:8]
        missed = sorted((sims_same[p], p) for p in hold_s if sims_same[p] < t)[:8]
        report["models"][model] = {
            "threshold": t,
            "dev": {"same": len(dev_s), "different": len(dev_d), "same_accepted": dtpr, "different_accepted": dfpr},
            "holdout": {"same": len(hold_s), "different": len(hold_d), "same_accepted": tpr, "different_accepted": fpr},
            "holdout_british_american": {"pairs": len(hold_v), "accepted": variant_rate},
            "holdout_different_accepted": [f"{a}/{b} {c:.3f}" for c, (a, b) in passed],
            "holdout_same_missed": [f"{a}/{b} {c:.3f}" for c, (a, b) in missed],
        }
        fitted[model] = t
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"pairs one edit apart: same word {len(same)}, different words {len(different)}")
        for model, r in report["models"].items():
            h, d = r["holdout"], r["dev"]
            print(f"{model}: cosine ≥ {r['threshold']}")
            print(f"  dev     same accepted {d['same_accepted']:.1%} of {d['same']}, different {d['different_accepted']:.1%} of {d['different']}")
            print(f"  holdout same accepted {h['same_accepted']:.1%} of {h['same']}, different {h['different_accepted']:.1%} of {h['different']}")
            b = r["holdout_british_american"]
            print(f"  holdout British → American spellings accepted {b['accepted']:.1%} of {b['pairs']}; misspellings are the rest")
            print("  holdout different words accepted:", ", ".join(r["holdout_different_accepted"]) or "none")
            print("  holdout same words missed:", ", ".join(r["holdout_same_missed"]) or "none")
    if args.write:
        COSINES.write_text(json.dumps(fitted, indent=2, sort_keys=True) + "\n")
        print(f"wrote {COSINES}")


if __name__ == "__main__":
    main()
