"""Benchmark: peak resident memory and time of whole ingests of the large inputs of issue 31.

Usage::

    python bench/reliability_memory.py                      # every case below
    python bench/reliability_memory.py --cases text50 --text-mb 50
    python bench/reliability_memory.py --cases laposte-auto --rows 5000

Cases (each a fresh ``docstrata ingest`` in a child process, embedded index in a temporary folder
under ``$TMPDIR``, never the repository; peak RSS from the child's own ``rusage``):

* ``laposte-auto`` — ``structured/nasty_csv/realworld_semicolon/laposte_hexasmal.csv`` (2.6 MB,
  39k rows, ``;``) in a vectorstore tool without fields: HoloDeck's unstructured mode, the file
  read as one document with a section per record; ``--rows N`` keeps the first N rows.
* ``laposte-fields`` — the same file with ``id_field`` / ``vector_field``: the records path,
  streamed in batches of ``batch_size``.
* ``text50`` — a generated single-line text file of ``--text-mb`` MB (default 50): over
  ``limits.max_text_mb`` (20), so skipped after reading — the bound is what is measured.
* ``text-small`` — the same text cut to ``--small-mb`` MB (default 2), indexed whole.

Prints one line per case (input MB, peak RSS MB, RSS / input, seconds, what the ingest said) and
one JSON line. The 1M-row CSV of the same issue is ``bench/records_memory.py``'s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or Path(__file__).resolve().parents[1].parent / "shared" / "data")
LAPOSTE = DATA / "structured" / "nasty_csv" / "realworld_semicolon" / "laposte_hexasmal.csv"
WORDS = ("refund policy the customer within thirty days shall notice payment contract party section "
         "agreement supplier liability term").split()


def _text(path: Path, mb: float) -> None:
    rng = random.Random(1)
    target = int(mb * 1_000_000)
    with open(path, "w", encoding="utf-8") as f:
        written = 0
        while written < target:
            chunk = " ".join(rng.choice(WORDS) for _ in range(20_000)) + " "
            chunk = chunk[:target - written]
            f.write(chunk)
            written += len(chunk)


def _case(work: Path, name: str, args) -> tuple[Path, float]:
    """The config of case ``name`` under ``work`` and the input's size in MB."""
    src = work / "src"
    src.mkdir(parents=True)
    tool = "    type: hierarchical_document\n"
    if name.startswith("laposte"):
        if not LAPOSTE.exists():
            raise SystemExit(f"{LAPOSTE} is absent: the shared evaluation data is not on this machine")
        dest = src / "laposte_hexasmal.csv"
        if args.rows:
            with open(LAPOSTE, encoding="utf-8") as f, open(dest, "w", encoding="utf-8") as out:
                for i, line in enumerate(f):
                    if i > args.rows:
                        break
                    out.write(line)
        else:
            shutil.copyfile(LAPOSTE, dest)
        tool = "    type: vectorstore\n" + ("    id_field: __line__\n    vector_field: [Nom_commune, Libellé_d_acheminement]\n"
                                           if name == "laposte-fields" else "")
        size = dest.stat().st_size
    else:
        dest = src / "one_line.txt"
        _text(dest, args.text_mb if name == "text50" else args.small_mb)
        size = dest.stat().st_size
    cfg = work / "agent.yaml"
    cfg.write_text(f"tools:\n  - name: t\n{tool}    source: src/\n    database: embedded\n", encoding="utf-8")
    return cfg, size / 1e6


def run(name: str, args) -> dict:
    work = Path(tempfile.mkdtemp(prefix=f"reliab-{name}-"))
    try:
        cfg, mb = _case(work, name, args)
        src = str(Path(__file__).resolve().parents[1] / "src")  # this checkout's code, not an installed copy
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
        t0 = time.perf_counter()
        proc = subprocess.Popen(["timeout", str(int(args.timeout)), sys.executable, "-m", "docstrata.cli", "ingest",
                                 "-c", str(cfg)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage (timeout waits for ingest)
        proc.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - t0
        peak = usage.ru_maxrss / 1024
        said = " | ".join(line.strip() for line in out.splitlines() if line.strip())[:300]
        return {"case": name, "input_mb": round(mb, 2), "peak_rss_mb": round(peak, 1),
                "rss_per_input": round(peak / mb, 1) if mb else None, "seconds": round(elapsed, 1),
                "exit": proc.returncode, "said": said}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default="laposte-auto,laposte-fields,text50,text-small")
    ap.add_argument("--rows", type=int, default=0, help="laposte: keep the first N rows (0 = all 39k)")
    ap.add_argument("--text-mb", type=float, default=50.0)
    ap.add_argument("--small-mb", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=3600.0)
    args = ap.parse_args()
    results = []
    for name in args.cases.split(","):
        r = run(name.strip(), args)
        results.append(r)
        print(f"{r['case']:15} {r['input_mb']:8.2f} MB in  {r['peak_rss_mb']:8.1f} MB peak  "
              f"x{r['rss_per_input'] or 0:<7} {r['seconds']:7.1f} s  exit {r['exit']}  {r['said'][:120]}", flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
