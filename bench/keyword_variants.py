"""tantivy build variants for the adjacent-term pairs (issue 18, build time): N synthetic chunks analysed
and indexed straight into tantivy, one variant after another in one process; prints wall, process CPU
(every thread), main-thread CPU (analysis + document building), the other threads' CPU (tantivy's
indexing threads), segments and disk. Variants: ``base`` (tokens + ``a→b`` pairs in one positional
field, as shipped), ``tokens`` (no pairs), ``sep1`` (a one-byte pair separator), ``hash`` (pairs as
10-character base-64 codes of a 60-bit hash), ``field-str`` / ``field-hash`` (pairs in a field of their
own indexed with frequencies only, both fields padded with a filler term so every field length stays
2L − 1), ``field-hash-nopad``. THREADS / HEAP set tantivy's indexing threads and writer budget.

    python bench/keyword_variants.py 20000 base,hash,field-str
    THREADS=2 HEAP=384000000 python bench/keyword_variants.py 100000 base
"""
import hashlib
import itertools
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import numpy as np
import peers
import tantivy

from docstrata.index import keyword as kw

n = int(sys.argv[1]); which = sys.argv[2].split(",")
_, texts, _, _, _ = peers.synthetic(Path(os.path.join(os.environ.get("TMPDIR", "/tmp"), "docstrata-peers")), n, 10)
texts = texts[:n]
TH = {}
ALPH = np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", dtype=np.uint8)
SH = np.arange(54, -1, -6, dtype=np.uint64)  # 10 digits of 6 bits = 60 bits
def th(t):
    h = TH.get(t)
    if h is None:
        h = TH[t] = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little")
    return h
M1, M2 = np.uint64(0xbf58476d1ce4e5b9), np.uint64(0x94d049bb133111eb)
C = np.uint64(0x9E3779B97F4A7C15)
def hpairs(tokens):
    if len(tokens) < 2: return ""
    h = np.fromiter(map(th, tokens), dtype=np.uint64, count=len(tokens))
    with np.errstate(over="ignore"):
        x = h[:-1] * C + h[1:]
        x ^= x >> np.uint64(30); x *= M1; x ^= x >> np.uint64(27); x *= M2; x ^= x >> np.uint64(31)
    d = ((x[:, None] >> SH) & np.uint64(63)).astype(np.uint8)
    out = np.empty((len(x), 11), dtype=np.uint8); out[:, :10] = ALPH[d]; out[:, 10] = 32
    return out.tobytes()[:-1].decode("ascii")
def variant(name):
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
    sb.add_text_field("doc_key", stored=False, tokenizer_name="raw")
    sb.add_text_field("body", stored=False, tokenizer_name="whitespace", index_option="position")
    two = name.startswith("field")
    if two:
        sb.add_text_field("pairs", stored=False, tokenizer_name="whitespace", index_option="freq")
    schema = sb.build()
    d = tempfile.mkdtemp(prefix="kwvariant-")
    idx = tantivy.Index(schema, path=d)
    w = idx.writer(heap_size=int(os.environ.get("HEAP", "256000000")), num_threads=int(os.environ.get("THREADS", "1")))
    t, c, m = time.perf_counter(), time.process_time(), time.thread_time()
    ana = 0.0
    for i, text in enumerate(texts):
        a0 = time.thread_time()
        toks = kw.analyze(text)
        L = len(toks)
        if name == "base":
            body = " ".join(toks + kw.term_pairs(toks)); extra = {}
        elif name == "sep1":
            body = " ".join(toks + list(map("|".join, itertools.pairwise(toks)))); extra = {}
        elif name == "tokens":
            body = " ".join(toks); extra = {}
        elif name == "hash":
            body = " ".join(toks) + " " + hpairs(toks); extra = {}
        elif name == "field-str":
            body = " ".join(toks) + " ~" * (L - 1); extra = {"pairs": " ".join(kw.term_pairs(toks)) + " ~" * L}
        elif name == "field-hash":
            body = " ".join(toks) + " ~" * (L - 1); extra = {"pairs": hpairs(toks) + " ~" * L}
        elif name == "field-hash-nopad":
            body = " ".join(toks); extra = {"pairs": hpairs(toks)}
        ana += time.thread_time() - a0
        w.add_document(tantivy.Document(chunk_id=f"c{i}", doc_key=f"d{i//100}", body=body, **extra))
    m_add = time.thread_time() - m
    t1 = time.perf_counter()
    w.commit(); w.wait_merging_threads()
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    size = sum(f.stat().st_size for f in Path(d).rglob("*") if f.is_file()) / 2**20
    segs = len(list(Path(d).glob("*.idx")))
    shutil.rmtree(d)
    print(f"{name:16s} segs {segs}  wall {wall:6.2f} s (commit {time.perf_counter()-t1:5.2f}) cpu {cpu:6.2f} s  main-thread {m_add:6.2f} s "
          f"(analysis+join {ana:5.2f})  other threads {cpu - (time.thread_time()-m):6.2f} s  disk {size:6.1f} MB", flush=True)
kw.analyze(" ".join(texts[:2000]))  # warm the word cache a little (the same for every variant)
for name in which:
    variant(name)
