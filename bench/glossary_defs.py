"""Glossary and acronym appendices of NIST PDFs → definitions: precision and recall of terms.

Run: ``python bench/glossary_defs.py [--split tuned|holdout|all] [--doc SUBSTR] [--mirror GITDIR] [-v]``.

Inputs: NIST publications (US Government works, public domain) from
fractional-ciso/NIST-Cybersecurity-Documents@60a85fcc60, read from ``bench/realdocs/pdf`` where a
copy is stored there, else from a bare clone of that repository (``--mirror``, default
``/work/.mirror/fractional-ciso+NIST-Cybersecurity-Documents/repo``; documents found in neither are
skipped and said so). ``tuned`` holds the documents whose glossaries were looked at while writing
the glossary rules (SP 800-150, 800-88, 800-115, 800-171r1); ``holdout`` the others, run only to
measure.

Truth comes from the PDF itself through another extractor (PDFium, via pypdfium2), never from
docstrata's converter: the pages of each bookmark titled Glossary / Acronyms / Abbreviations /
Terms and Definitions (from its page to the page before the next bookmark of its level or above)
are read character by character (upright characters only, in their font boxes); characters are grouped into lines (same baseline ±2 pt) and
lines into segments at gaps over 10 pt. The definition column starts at the most common start of
a line's second segment; the term column at the most common start of the first segment on lines
that have one there. A term is a first segment in the term column that ends before the definition
column; a term-column line directly under a term continues that term (a wrapped term) when nothing
stands beside it or the text beside it goes on in lower case (the definition's sentence carried
on); a term-column line in brackets is the term's source (``[CNSSI No. 4009]``), skipped, and so
is the appendix heading. The first line of its definition (the segment beside it) is kept to check pairs.
A glossary without a definition column is read as ``Term: definition`` lines whose term is set in
bold (font weight ≥ 600 up to the colon). Page headers and footers (the top and bottom 7% of the
page) and text set larger than the page's body (the appendix heading) are not read; a glossary
in neither layout has no truth (reported).

Ours: :func:`docstrata.convert.convert_file` → :func:`docstrata.structure.build_tree` exactly as
ingest does; the definitions whose section is titled like a bookmark the truth could read (or
lies inside it).
Terms compare case-folded with punctuation and a trailing parenthesised abbreviation removed; an
abbreviation we take from a term cell ("… (TTPs)") is right when the truth term carries it.

* **recall** = truth terms we define / truth terms;
* **precision** = our glossary terms that are truth terms / our glossary terms;
* **pairs** = matched terms whose definition starts with the first four words of the truth
  definition's first line / matched terms that have one.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent
MIRROR = Path("/work/.mirror/fractional-ciso+NIST-Cybersecurity-Documents/repo")
SOURCE = "fractional-ciso/NIST-Cybersecurity-Documents@60a85fcc60 (US Government work, public domain)"
# (split, file in the source repository, copy in bench/realdocs or None)
DOCUMENTS = [
    ("tuned", "NIST SP 800-150 Guide to Cyber Threat Information Sharing, 2016-10-04 (Final).pdf",
     "realdocs/pdf/nist-sp800-150-cyber-threat-information-sharing.pdf"),
    ("tuned", "NIST SP 800-88_Guidelines for Media Sanitization.pdf", None),
    ("tuned", "SP800-115.pdf", None),
    ("tuned", "SP800-171r1.pdf", "realdocs/pdf/nist-sp800-171r1-cui.pdf"),
    ("holdout", "SP800-40r3.pdf", "realdocs/pdf/nist-sp800-40r3-patch-management.pdf"),
    ("holdout", "SP800-124r1.pdf", "realdocs/pdf/nist-sp800-124r1-mobile-device-security.pdf"),
    ("holdout", "SP800-123.pdf", None),
    ("holdout", "SP800-46r2.pdf", None),
    ("holdout", "SP800-83r1.pdf", None),
    ("holdout", "SP800-94.pdf", None),
    ("holdout", "NIST SP 800-190 Application Container Security Guide, 2017-09-25 (Final).pdf", None),
    ("holdout", "SP800-34-rev1_errata-Nov11-2010.pdf", None),
    ("holdout", "SP800-30r1.pdf", None),
    ("holdout", "SP800-37r1.pdf", None),
]
GLOSSARY_TITLE = re.compile(r"glossary|acronyms|abbreviations|terms and definitions|definitions", re.I)


def _pdf_bytes(name: str, copy: str | None, mirror: Path) -> bytes | None:
    if copy and (ROOT / copy).exists():
        return (ROOT / copy).read_bytes()
    if not mirror.exists():
        return None
    out = subprocess.run(["git", f"--git-dir={mirror}", "show", f"HEAD:{name}"], capture_output=True, check=False)
    return out.stdout if out.returncode == 0 and out.stdout[:4] == b"%PDF" else None


def _norm(term: str) -> str:
    term = re.sub(r"\s*\([^()]*\)[\s:.]*$", "", term.strip())
    return " ".join(re.findall(r"[^\W_]+", term.casefold()))


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


def _segments(textpage, height: float) -> list[list[tuple[float, float, str, float]]]:
    """Lines (top to bottom) of ``(x0, x1, text, char height)`` segments of one page."""
    import pypdfium2.raw as pdfium_c

    chars = []
    for i in range(textpage.count_chars()):
        ch = textpage.get_text_range(i, 1)
        if not ch.strip() or abs(pdfium_c.FPDFText_GetCharAngle(textpage.raw, i)) > 0.01:
            continue  # text set at an angle: a margin note printed up the page
        left, bottom, right, top = textpage.get_charbox(i, loose=True)  # font box: one bottom per line
        if not 0.07 * height < bottom < 0.93 * height:
            continue
        chars.append((round(bottom), left, right, ch, top - bottom))
    lines: dict[int, list] = {}
    for bottom, left, right, ch, h in chars:
        key = next((k for k in lines if abs(k - bottom) <= 2), bottom)
        lines.setdefault(key, []).append((left, right, ch, h))
    out = []
    for key in sorted(lines, reverse=True):
        row = sorted(lines[key])
        segs: list[list] = []
        for left, right, ch, h in row:
            if segs and left - segs[-1][1] <= 10:
                gap = left - segs[-1][1]
                segs[-1][2] += (" " if gap > 1.2 else "") + ch
                segs[-1][1] = max(segs[-1][1], right)
                segs[-1][3] = max(segs[-1][3], h)
            else:
                segs.append([left, right, ch, h])
        out.append([(s[0], s[1], " ".join(s[2].split()), s[3]) for s in segs])
    return out


def _bold_terms(textpage, height: float) -> list[tuple[str, str]]:
    """``(term, rest of its line)`` of a one-column glossary: a line opening with a run of bold
    characters (font weight ≥ 600) that a colon ends (``**Banner Grabbing**: The process …``)."""
    import pypdfium2.raw as pdfium_c

    text = textpage.get_text_range()
    n = min(len(text), textpage.count_chars())
    out, i = [], 0
    while i < n:
        j = i
        while j < n and text[j] in " \t":
            j += 1
        k = j
        while k < n and text[k] not in "\r\n" and pdfium_c.FPDFText_GetFontWeight(textpage.raw, k) >= 600:
            k += 1
        end = text.find("\n", k)
        end = n if end < 0 else end
        bottom = textpage.get_charbox(j)[1] if j < n else 0
        term, rest = text[j:k].strip(), text[k:end].strip()
        if term.endswith(":"):
            term = term[:-1].strip()
        elif rest.startswith(":"):
            rest = rest[1:].strip()
        else:
            term = ""
        if term and 0.07 * height < bottom < 0.93 * height and len(term.split()) <= 8:
            out.append((" ".join(term.split()), " ".join(rest.split())))
        i = end + 1
    return out


def glossary_truth(data: bytes) -> list[dict]:
    """Per glossary bookmark: ``{"title", "pages", "terms": [(term, first definition line)],
    "note"}`` read with PDFium (see the module docstring)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    toc = [(b.level, b.get_title(), b.get_dest().get_index() if b.get_dest() else None) for b in pdf.get_toc()]
    out = []
    for n, (level, title, page) in enumerate(toc):
        if page is None or not GLOSSARY_TITLE.search(title) or len(title.split()) > 8:
            continue
        end = next((p for lv, _, p in toc[n + 1:] if lv <= level and p is not None), len(pdf))
        pages = range(page, max(end, page + 1))
        lines = []
        for p in pages:
            pg = pdf[p]
            lines += _segments(pg.get_textpage(), pg.get_size()[1])
        heights = Counter(round(s[3]) for line in lines for s in line)
        body_h = heights.most_common(1)[0][0] if heights else 0
        lines = [line for line in lines if line and max(s[3] for s in line) <= body_h * 1.3 + 0.5]
        second = Counter(round(line[1][0] / 4) * 4 for line in lines if len(line) >= 2)
        if not second:  # one column: "Term: definition" lines whose term is set in bold
            terms = [t for p in pages for t in _bold_terms(pdf[p].get_textpage(), pdf[p].get_size()[1])]
            terms = [t for t in terms if not GLOSSARY_TITLE.search(t[0])]
            out.append({"title": title, "pages": [pages.start + 1, pages.stop], "terms": terms,
                        "note": "" if terms else "neither two columns nor bold terms"})
            continue
        d_col = second.most_common(1)[0][0]
        first = Counter(round(line[0][0] / 4) * 4 for line in lines if len(line) >= 2 and abs(line[1][0] - d_col) <= 6)
        t_col = first.most_common(1)[0][0]
        terms: list[list] = []
        prev_term_line = False
        for line in lines:
            head = line[0]
            in_term_col = abs(head[0] - t_col) <= 6 and head[1] < d_col - 2
            beside = next((s for s in line[1:] if abs(s[0] - d_col) <= 8), None)
            if in_term_col and head[2].startswith("["):
                continue  # the term's source under it ("[CNSSI No. 4009]"), not a term
            if in_term_col and GLOSSARY_TITLE.search(head[2]) and beside is None and len(head[2].split()) <= 6:
                continue  # the appendix heading itself ("APPENDIX B COMMON TERMS AND DEFINITIONS")
            carried = beside is not None and beside[2][:1].islower()  # the definition's sentence goes on beside it
            if in_term_col and terms and prev_term_line and (beside is None and len(line) == 1 or carried):
                terms[-1][0] += " " + head[2]  # a term wrapped over two lines
            elif in_term_col and beside is not None:
                terms.append([head[2], beside[2]])
                prev_term_line = True
            elif in_term_col and len(line) == 1:
                terms.append([head[2], ""])
                prev_term_line = True
            else:
                prev_term_line = False
        out.append({"title": title, "pages": [pages.start + 1, pages.stop], "terms": [tuple(t) for t in terms],
                    "note": ""})
    return out


def our_definitions(data: bytes, name: str, titles: list[str]):
    import tempfile

    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.structure import build_tree

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(data)
        doc = convert_file(SourceFile("doc.pdf", str(path), None))
    tree = build_tree(doc)
    wanted = {_norm(t) for t in titles}
    inside: set[str] = set()
    for s in tree.sections:
        title = re.sub(r"^(?:appendix|annex)\s+[a-z0-9]+\s*[—–:.-]?\s*", "", s.title, flags=re.I)
        if _norm(title) in wanted or _norm(s.title) in wanted or (s.parent_id in inside):
            inside.add(s.section_id)
    return [d for d in tree.definitions if d.section_id in inside], len(tree.definitions)


def score(truth: list[dict], ours) -> dict:
    truth_terms = {}
    abbreviations = set()
    for block in truth:
        for term, first in block["terms"]:
            truth_terms.setdefault(_norm(term), first)
            m = re.search(r"\(([^()]+)\)\s*$", term)
            if m:
                abbreviations.add(_norm(m.group(1)))
    our_terms = {}
    for d in ours:
        our_terms.setdefault(_norm(d.term), d.definition)
    found = [t for t in truth_terms if t in our_terms]
    right = [t for t in our_terms if t in truth_terms or t in abbreviations]
    with_first = [t for t in found if len(_words(truth_terms[t])) >= 2]
    pairs = [t for t in with_first if _words(our_terms[t])[:4] == _words(truth_terms[t])[:4]]
    return {"truth": len(truth_terms), "ours": len(our_terms), "found": len(found), "right": len(right),
            "pairs": len(pairs), "pair_total": len(with_first),
            "missed": sorted(set(truth_terms) - set(found)), "extra": sorted(set(our_terms) - set(right)),
            "bad_pairs": [(t, our_terms[t][:60], truth_terms[t][:60]) for t in with_first if t not in pairs]}


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f} ({a}/{b})" if b else f"- ({a}/{b})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=["tuned", "holdout", "all"], default="all")
    ap.add_argument("--doc", default="")
    ap.add_argument("--mirror", type=Path, default=MIRROR)
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args(argv)
    totals: dict[str, Counter] = {}
    for split, name, copy in DOCUMENTS:
        if args.split not in ("all", split) or args.doc.lower() not in name.lower():
            continue
        data = _pdf_bytes(name, copy, args.mirror)
        if data is None:
            print(f"skip {name}: not in bench/realdocs and no mirror at {args.mirror}")
            continue
        truth = glossary_truth(data)
        if not any(block["terms"] for block in truth):
            print(f"skip {name}: no two-column glossary under its bookmarks {[b['title'] for b in truth]}")
            continue
        # only the appendices the truth could read count (a one-column glossary has no truth here)
        ours, _ = our_definitions(data, name, [b["title"] for b in truth if b["terms"]])
        s = score(truth, ours)
        t = totals.setdefault(split, Counter())
        t.update({k: s[k] for k in ("truth", "ours", "found", "right", "pairs", "pair_total")})
        t["docs"] += 1
        blocks = ", ".join(f"{b['title']} p{b['pages'][0]}-{b['pages'][1]}: {len(b['terms'])}" for b in truth)
        print(f"{split:7s} {name[:60]:60s} recall {_ratio(s['found'], s['truth'])} precision "
              f"{_ratio(s['right'], s['ours'])} pairs {_ratio(s['pairs'], s['pair_total'])} [{blocks}]")
        if args.v:
            print("   missed:", s["missed"][:40])
            print("   extra:", s["extra"][:40])
            for bad in s["bad_pairs"][:10]:
                print("   pair:", bad)
    for split, t in totals.items():
        print(f"{split}: {t['docs']} documents; recall {_ratio(t['found'], t['truth'])}, precision "
              f"{_ratio(t['right'], t['ours'])}, definition pairs {_ratio(t['pairs'], t['pair_total'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
