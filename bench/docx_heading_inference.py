"""Headings inferred from font size and bold in DOCX, scored against the documents' own heading styles.

Usage::

    python bench/docx_heading_inference.py [--data /work/shared/data]

Documents: every ``.docx`` under ``bench/realdocs`` and under ``--data`` (``real/docx``,
``documents/docx``; skipped when absent). Truth: the paragraphs (outside tables) whose style chain
is ``Heading N`` or carries an outline level, with that level (``Title`` is mapped by its style, not inferred).

Two figures per document:

* **styled mode** (what ingest does): :func:`inferred_headings` must return nothing for a document
  that uses heading styles — the styles are its evidence, so inference can never change it. The
  column ``changed`` counts documents where it returned headings (must be 0).
* **blind mode** (``honour_heading_styles=False``): the same rules read the document by typography
  alone, as if its author had formatted the headings by hand. Precision = inferred headings whose
  normalised text is a truth heading / inferred; recall = truth headings found / truth (multiset);
  level order = for consecutive matched headings, the share whose inferred levels go up, down or stay
  as the truth levels do.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from collections import Counter
from pathlib import Path

from lxml import etree

from docstrata.convert.docx_headings import _W, _body_paragraphs, _chain, _read_styles, inferred_headings
from docstrata.convert.text import normalize_heading

ROOT = Path(__file__).resolve().parents[1]


def truth_headings(data: bytes) -> list[tuple[str, int]]:
    """``(normalised text, level)`` of the style-marked headings (Heading N = N, outline level L = L + 1);
    the Title style is not counted: office.py maps it to a heading itself and inference leaves it alone."""
    import io
    import re

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = etree.fromstring(z.read("word/document.xml"))
        styles_xml = etree.fromstring(z.read("word/styles.xml")) if "word/styles.xml" in z.namelist() else None
    styles, default_para, _, _ = _read_styles(styles_xml)
    out = []
    for p in _body_paragraphs(root.find(f"{_W}body")):
        el = p.find(f"{_W}pPr/{_W}pStyle")
        sid = el.get(f"{_W}val") if el is not None else default_para
        level = None
        direct = p.find(f"{_W}pPr/{_W}outlineLvl")
        if direct is not None and (direct.get(f"{_W}val") or "9").isdigit() and int(direct.get(f"{_W}val")) < 9:
            level = int(direct.get(f"{_W}val")) + 1
        for st in _chain(styles, sid):
            if level is not None:
                break
            m = re.fullmatch(r"heading\s*(\d)", st.name.strip(), re.I)
            if m:
                level = int(m.group(1))
        text = normalize_heading("".join(t.text or "" if t.tag == f"{_W}t" else " "
                                         for t in p.iter(f"{_W}t", f"{_W}tab", f"{_W}br")))
        if level is not None and text:
            out.append((text, level))
    return out


def score(path: Path) -> dict:
    data = path.read_bytes()
    truth = truth_headings(data)
    styled = inferred_headings(data)
    blind = inferred_headings(data, honour_heading_styles=False)
    want = Counter(t for t, _ in truth)
    got = Counter(normalize_heading(h.text) for h in blind)
    hits = sum((want & got).values())
    truth_level = {t: lv for t, lv in reversed(truth)}
    matched = [(truth_level[normalize_heading(h.text)], h.level) for h in blind if normalize_heading(h.text) in truth_level]
    pairs = list(zip(matched, matched[1:]))
    agree = sum(1 for (t1, i1), (t2, i2) in pairs if (t2 > t1) - (t2 < t1) == (i2 > i1) - (i2 < i1))
    return {"file": path.name, "truth": len(truth), "inferred": len(blind), "hits": hits,
            "changed": len(styled) if truth else 0, "pairs": len(pairs), "agree": agree}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("/work/shared/data"))
    args = ap.parse_args()
    files = sorted((ROOT / "bench" / "realdocs").rglob("*.docx"))
    for sub in ("real/docx", "documents/docx"):
        if (args.data / sub).is_dir():
            files += sorted((args.data / sub).glob("*.docx"))
    rows = [score(f) for f in files]
    print(f"{'document':58} {'truth':>5} {'infer':>5} {'hits':>5} {'P':>6} {'R':>6} {'order':>6} {'changed':>7}")
    for r in rows:
        p = f"{r['hits'] / r['inferred']:.2f}" if r["inferred"] else "-"
        rec = f"{r['hits'] / r['truth']:.2f}" if r["truth"] else "-"
        order = f"{r['agree'] / r['pairs']:.2f}" if r["pairs"] else "-"
        print(f"{r['file'][:58]:58} {r['truth']:5d} {r['inferred']:5d} {r['hits']:5d} {p:>6} {rec:>6} {order:>6} {r['changed']:7d}")
    styled = [r for r in rows if r["truth"]]
    t, i, h = (sum(r[k] for r in styled) for k in ("truth", "inferred", "hits"))
    pairs, agree = sum(r["pairs"] for r in styled), sum(r["agree"] for r in styled)
    print(f"\n{len(styled)} styled documents of {len(rows)}: styled mode changed {sum(r['changed'] for r in styled)} "
          f"documents' headings (must be 0); blind mode precision {h}/{i} = {h / i if i else 0:.3f}, recall "
          f"{h}/{t} = {h / t if t else 0:.3f}, level order {agree}/{pairs} = {agree / pairs if pairs else 0:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
