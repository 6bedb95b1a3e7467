"""Who waits for whom in a docstrata index build (issue 18): ``peers.Docstrata.build`` over N synthetic
chunks while a sampler reads every thread's state (R running or runnable, S sleeping, D disk) and CPU
ticks from /proc every 50 ms, split into the adding phase (``replace_document`` calls) and the final
``flush`` (tantivy's commit, the vector file). Linux only. Uses bench/peers.py's cached corpus.

    python bench/build_threads.py 100000                 # the shipped settings (writer_threads() decides)
    THREADS=2 HEAP=384000000 python bench/build_threads.py 100000   # two tantivy indexing threads, 384 MB
    THREADS=1 HEAP=256000000 python bench/build_threads.py 100000   # one, 256 MB
"""
import collections
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers

n = int(sys.argv[1])
ids, texts, X, _, _ = peers.synthetic(Path(os.path.join(os.environ.get("TMPDIR", "/tmp"), "docstrata-peers")), n, 10)
texts = texts[:n]
root = Path(tempfile.mkdtemp(prefix="build-threads-")) / "idx"
samples = []  # (t, {tid: (name, state, cpu_ticks)})
stop = False
me = threading.get_native_id()  # this (main) thread is sampled too; the sampler skips itself
sampler_tid = [0]


def sampler():
    sampler_tid[0] = threading.get_native_id()
    while not stop:
        snap = {}
        for tid in os.listdir("/proc/self/task"):
            if int(tid) == sampler_tid[0]:
                continue
            try:
                st = Path(f"/proc/self/task/{tid}/stat").read_text()
                name = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
            except OSError:
                continue
            rest = st[st.rindex(")") + 2:].split()
            snap[tid] = (name, rest[0], int(rest[11]) + int(rest[12]))
        samples.append((time.perf_counter(), snap))
        time.sleep(0.05)
th = threading.Thread(target=sampler, daemon=True); th.start()
time.sleep(0.1)
d = peers.Docstrata(root)
marks = {}
from docstrata.index import keyword as KW
from docstrata.store import embedded as E

if "THREADS" in os.environ:  # force tantivy's indexing threads and writer budget (else writer_threads() decides)
    KW.writer_threads = lambda: (int(os.environ["THREADS"]), int(os.environ.get("HEAP", KW.WRITER_HEAP_BYTES)))
real_flush = E.EmbeddedStore.flush
def flush(self):
    marks["flush"] = time.perf_counter(); real_flush(self); marks["end"] = time.perf_counter()
E.EmbeddedStore.flush = flush
t0 = time.perf_counter(); c0 = time.process_time()
d.build(ids[:n], texts, X[:n])
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
stop = True; th.join()
print(f"n {n} wall {wall:.1f} s cpu {cpu:.1f} s; flush starts at {marks['flush']-t0:.1f} s; load {os.getloadavg()[0]:.1f}")
def phase(a, b, label):
    cnt = collections.defaultdict(collections.Counter); ticks = {}
    first = {}
    for t, snap in samples:
        if not (a <= t < b): continue
        for tid, (name, s, cp) in snap.items():
            cnt[(tid, name)][s] += 1
            first.setdefault(tid, cp); ticks[tid] = cp - first[tid]
    print(f"-- {label} ({b-a:.1f} s)")
    for (tid, name), c in sorted(cnt.items(), key=lambda kv: -ticks.get(kv[0][0], 0)):
        tot = sum(c.values())
        if ticks.get(tid, 0) < 10: continue
        print(f"   {name:16s} tid {tid}: cpu {ticks[tid]/100:6.1f} s  R {c['R']/tot:5.0%}  S {c['S']/tot:5.0%}  D {c['D']/tot:5.0%}")
phase(t0, marks["flush"], "adding (replace_document loop)")
phase(marks["flush"], marks["end"], "flush")
d.store.close(); shutil.rmtree(root.parent)
