"""Benchmark: where the time of opening a kept index in a fresh process and answering its first
hybrid query goes (issue 18: ≤ 2 s at 1M chunks, imports included).

Usage::

    python bench/open_profile.py /tmp/s18m/idx1m                  # an index kept by bench/peers.py
    python bench/open_profile.py /tmp/s18m/idx1m --runs 3 --cache /tmp/docstrata-peers/synthetic_1000000

Each run is a fresh ``python`` process (so nothing is imported or mapped yet; the OS page cache is
left as it is) that times: importing numpy, importing ``docstrata.store.embedded`` and
``docstrata.search``, ``EmbeddedStore(root)``, the first ``run_search`` (hybrid, top 10, a precomputed
query vector from the peers cache: no model is loaded), the vector index load inside it, and a second
query. Prints wall and CPU seconds per run, peak RSS split into RssAnon (the process's own) and
RssFile (mapped file pages), and the machine load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import numpy as np
t1 = time.perf_counter()
from docstrata.store.embedded import EmbeddedStore
from docstrata.search import SearchSettings, run_search
t2 = time.perf_counter()
root, cache = sys.argv[1], sys.argv[2]
store = EmbeddedStore(root, dim=384)
t3 = time.perf_counter()
Q = np.load(cache + "/qvectors.npy")
texts = json.loads(open(cache + "/queries.json").read())
t4 = time.perf_counter()
run_search(store, lambda _q: Q[0], texts[0], mode="hybrid", top_k=10, settings=SearchSettings())
t5, c5 = time.perf_counter(), time.process_time()
t = time.perf_counter()
store._dense = None  # the vector index load alone, timed again (its files are mapped already)
store._dense_index()
t_load = time.perf_counter() - t
t = time.perf_counter()
run_search(store, lambda _q: Q[1], texts[1], mode="hybrid", top_k=10, settings=SearchSettings())
t_second = time.perf_counter() - t
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if ":" in l)
mb = lambda k: int(st[k].split()[0]) / 1024
print(json.dumps({"numpy_s": t1 - t0, "imports_s": t2 - t1, "open_s": t3 - t2, "first_answer_s": t5 - t4,
                  "total_s": (t5 - t0) - (t4 - t3), "total_cpu_s": c5 - c0, "vector_load_again_s": t_load,
                  "second_answer_s": t_second, "peak_rss_mb": mb("VmHWM"), "rss_anon_mb": mb("RssAnon"),
                  "rss_file_mb": mb("RssFile")}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("index", help="an EmbeddedStore folder (e.g. one kept by bench/peers.py --docstrata-index)")
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "docstrata-peers",
                                                    "synthetic_1000000"),
                    help="a peers cache folder with qvectors.npy and queries.json")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"load average before {'/'.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| run | numpy s | docstrata imports s | EmbeddedStore() s | first answer s | total s | total CPU s "
          "| vector load alone s | second answer s | peak RSS MB | RssAnon MB | RssFile MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for i in range(args.runs):
        p = subprocess.run([sys.executable, "-c", CHILD, args.index, args.cache], capture_output=True, text=True)
        if p.returncode:
            sys.exit(p.stderr[-2000:])
        r = json.loads(p.stdout.strip().splitlines()[-1])
        print(f"| {i + 1} | {r['numpy_s']:.3f} | {r['imports_s']:.3f} | {r['open_s']:.3f} | {r['first_answer_s']:.3f} "
              f"| **{r['total_s']:.3f}** | {r['total_cpu_s']:.3f} | {r['vector_load_again_s']:.3f} "
              f"| {r['second_answer_s']:.3f} | {r['peak_rss_mb']:.0f} | {r['rss_anon_mb']:.0f} | {r['rss_file_mb']:.0f} |")
    print(f"load average after {'/'.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
