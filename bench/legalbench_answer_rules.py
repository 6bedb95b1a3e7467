"""A dev-only look at answer rules other than ``docstrata-passage+cut`` on LegalBench-RAG (issue 29):
could one rule beat all twelve published places? Reads the hits ``bench/legalbench_rag.py`` saved
(``DOCSTRATA_LEGALBENCH_SAVE=dev.pkl python bench/legalbench_rag.py --split dev --subsets
privacy_qa,contractnli --max-docs contractnli=40``), never searches:

    PYTHONPATH=src python bench/legalbench_answer_rules.py dev.pkl

Rules, over the hits the relevance cut-off keeps (``cut``; with ``same-doc cut``, a hit of the
first hit's document is kept down to that lower share too): ``chunk`` (whole chunks), ``passage``
(the fitted minimal passages), ``lead-passage`` (the first hit's passage, then the kept hits' whole
chunks), ``passages-then-chunks`` (the kept hits' passages, then their whole chunks). Prints the
best 25 by places won (then answer-in-first) with the places each loses.
"""
import pickle
import sys
sys.path[:0] = ["bench", "src"]
import __main__  # noqa: E402

import legalbench_rag as lb  # noqa: E402
from docstrata.search import relative_keep  # noqa: E402

for _n in ("Collected", "Hit", "Sample", "SourceMap"):  # the pickle was written by legalbench_rag as __main__
    setattr(__main__, _n, getattr(lb, _n))

cols = pickle.loads(open(sys.argv[1], "rb").read())
fit = lb.fitted_params()
print("fitted", fit)

def places(rows_by_subset, m):
    out = []
    for s, rows in rows_by_subset.items():
        r = rows[m]
        for metric in ("recall", "precision"):
            for k in lb.KS:
                b = lb.best_published(s, metric, k)
                if b is not None and not r[metric][k] > b:
                    out.append(f"{s[:7]} {metric[0].upper()}@{k} {r[metric][k]:.2f}<={b}")
    return out

def top1(rows, m):
    return sum(r[m]["truth_in_top1"] for r in rows.values()) / len(rows)

def score_rule(col, rule, cut, cut_doc, passages):
    """rule: ranked spans per query built from kept hits."""
    sc = lb.Scores()
    for qi, (_q, truth, hits) in enumerate(col.queries):
        keep = relative_keep([h.fused for h in hits], [h.pinned for h in hits], cut)
        if cut_doc is not None and hits:
            doc = hits[0].chunk.doc_key
            keep2 = relative_keep([h.fused for h in hits], [h.pinned for h in hits], cut_doc)
            keep = [a or (b and h.chunk.doc_key == doc) for a, b, h in zip(keep, keep2, hits)]
        kept = [(hi, h) for hi, (h, k) in enumerate(zip(hits, keep)) if k]
        chunk_spans, pas = [], []
        for hi, h in kept:
            c = h.chunk
            sm = col.maps.get(c.doc_key)
            whole = sm.span_of(c) if sm is not None else None
            cs = (c.doc_key, *whole) if whole is not None else (c.doc_key, 0, 0)
            chunk_spans.append(cs)
            pas.append(passages[qi][hi] or cs)
        if rule == "chunk":
            ranked = chunk_spans
        elif rule == "passage":
            ranked = pas
        elif rule == "lead-passage":  # first hit's passage, then the whole chunks (the first's too)
            ranked = pas[:1] + chunk_spans
        elif rule == "passages-then-chunks":
            ranked = pas + chunk_spans
        sc.add(ranked, truth)
    return sc.row()

# share of kept hits in the first hit's document
for col in cols:
    same = tot = 0
    for _q, _t, hits in col.queries:
        if not hits:
            continue
        d = hits[0].chunk.doc_key
        same += sum(h.chunk.doc_key == d for h in hits[:16])
        tot += min(16, len(hits))
    print(col.sample.subset, "share of the first 16 hits in the first hit's document", round(100 * same / tot, 1))

pspans = {col.sample.subset: lb.passage_spans(col, fit.keep, fit.section_chars, fit.weight, fit.hits, fit.bridge)
          for col in cols}
results = []
for rule in ("chunk", "passage", "lead-passage", "passages-then-chunks"):
    for cut in (1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.3, 0.0001):
        for cut_doc in (None, 0.6, 0.5, 0.4, 0.3):
            if cut_doc is not None and cut_doc >= cut:
                continue
            rows = {col.sample.subset: {rule: score_rule(col, rule, cut, cut_doc, pspans[col.sample.subset])} for col in cols}
            miss = places(rows, rule)
            wins, f1 = lb.objective(rows, rule)
            results.append((12 - len(miss), top1(rows, rule), rule, cut, cut_doc, miss, f1))
results.sort(key=lambda x: (x[0], x[1]), reverse=True)
for r in results[:25]:
    print(f"{r[2]:22s} cut {r[3]:<6} same-doc cut {str(r[4]):5s} places {r[0]:2d}/12 top1 {r[1]:.1f} F1 {r[6]:.1f} lost: {'; '.join(r[5])}")
print()
for rule in ("chunk", "passage", "lead-passage", "passages-then-chunks"):
    best = max((x for x in results if x[2] == rule), key=lambda x: (x[0], x[1]))
    print(f"best {rule}: cut {best[3]} same-doc {best[4]} places {best[0]}/12 top1 {best[1]:.1f} lost: {'; '.join(best[5])}")
print()
for rule in ("chunk", "passage", "lead-passage", "passages-then-chunks"):
    plain = max((x for x in results if x[2] == rule and x[4] is None), key=lambda x: (x[0], x[1]))
    print(f"best {rule} without a same-document cut: cut {plain[3]} places {plain[0]}/12 top1 {plain[1]:.1f} "
          f"lost: {'; '.join(plain[5])}")
