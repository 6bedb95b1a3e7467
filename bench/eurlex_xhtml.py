"""EUR-Lex XHTML acts (``oj-*`` classes): structure and references against the act's own markup.

Run: ``python bench/eurlex_xhtml.py [FILE.html ...]`` (default: tests/fixtures/eurlex/*.html, the
EUR-Lex acts of ``$DOCSTRATA_SHARED_DATA/real/legislation`` and any ``$DOCSTRATA_EURLEX_DIR/3*.html``).

Per act, from the markup (never from our output):

* **articles** = ``div#art_N`` whose section ``article-N`` exists and is titled
  "Article N <oj-sti-art title>";
* **paragraphs** = ``div#NNN.MMM`` opening "M." whose section ``article-N(M)`` exists under
  ``article-N``;
* **chapters** = ``div#cpt_X`` whose ``chapter-x`` is titled "CHAPTER X <oj-ti-section-2 title>";
* **relative** = our references "paragraph(s) N" written in an article that resolve inside that
  article (``article-N(…)``);
* **external** = references followed by "of Regulation/Directive/Decision …" (an instrument with
  a number other than the act's own) that name that document (``document`` set, no section);
  **as own** = those resolved to a section of this act instead.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from docstrata.convert import convert_file  # noqa: E402
from docstrata.models import SourceFile  # noqa: E402
from docstrata.structure import build_tree  # noqa: E402

_EXTERNAL = re.compile(r"(?:,? (?:first |second |third )?(?:sub)?paragraph,?| ?,? points? \(\w+\),?)*"
                       r" (?:of|in|under) (?:Commission |Council )?(?:Implementing |Delegated )?"
                       r"(?:Regulation|Directive|Decision) (?:\(E[UC]\) ?)?(?:No ?)?(\d{1,4}/\d{1,4})")


def _text(tag) -> str:
    return " ".join(tag.get_text(" ").split())


def _truth(path: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        soup = BeautifulSoup(path.read_bytes(), "lxml")
    arts, pars, chs = {}, {}, {}
    for div in soup.find_all("div", id=re.compile(r"^art_\d+[a-z]*$")):
        label, sub = div.find("p", class_="oj-ti-art"), div.find("p", class_="oj-sti-art")
        if label is not None:
            arts[f"article-{div['id'][4:]}"] = " ".join(filter(None, [_text(label), sub and _text(sub)]))
    for div in soup.find_all("div", id=re.compile(r"^\d{3}\.\d{3}$")):
        art, par = (int(x) for x in div["id"].split("."))
        first = div.find("p")
        if first is not None and re.match(rf"{par}\.\s", _text(first) + " "):
            pars[f"article-{art}({par})"] = f"article-{art}"
    for div in soup.find_all("div", id=re.compile(r"^cpt_[IVXLC0-9]+$")):
        label, sub = div.find("p", class_="oj-ti-section-1", recursive=False), div.find("p", class_="oj-ti-section-2")
        if label is not None:
            chs[f"chapter-{div['id'][4:].lower()}"] = " ".join(filter(None, [_text(label), sub and _text(sub)]))
    return arts, pars, chs


def measure(path: Path) -> dict[str, tuple[int, int]]:
    arts, pars, chs = _truth(path)
    doc = convert_file(SourceFile(path.name, str(path), None))
    tree = build_tree(doc)
    by = {s.section_id: s for s in tree.sections}
    title = lambda sid: " ".join(by[sid].title.split()) if sid in by else None  # noqa: E731
    own_no = re.search(r"\d{1,4}/\d{1,4}", doc.title or "")
    bodies = {s.section_id: " ".join(s.text.split()) for s in tree.sections}
    rel = ok_rel = ext = ok_ext = as_own = 0
    for x in tree.cross_references:
        art = re.match(r"article-\d+[a-z]*", x.source_section_id or "")
        if re.match(r"paragraphs?\s+\d", x.text) and not x.document and art:
            rel += 1
            ok_rel += bool(x.section_id and x.section_id.startswith(art.group(0) + "("))
        body = bodies.get(x.source_section_id, "")
        i = body.find(x.text)
        m = _EXTERNAL.match(body, i + len(x.text)) if i >= 0 else None
        if m and not (own_no and m.group(1) == own_no.group(0)):
            ext += 1
            ok_ext += bool(x.document and x.section_id is None)
            as_own += bool(x.section_id and not x.document)
    return {"articles": (sum(title(k) == v for k, v in arts.items()), len(arts)),
            "paragraphs": (sum(k in by and by[k].parent_id == v for k, v in pars.items()), len(pars)),
            "chapters": (sum(title(k) == v for k, v in chs.items()), len(chs)),
            "relative": (ok_rel, rel), "external": (ok_ext, ext), "as own": (as_own, ext)}


def _default_files() -> list[Path]:
    files = sorted((ROOT / "tests" / "fixtures" / "eurlex").glob("*.html"))
    shared = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or ROOT.parent / "shared" / "data") / "real" / "legislation"
    files += [p for p in sorted(shared.glob("eu-*.html")) if b"oj-ti-art" in p.read_bytes()[:400000]]
    return files + sorted(Path(os.environ.get("DOCSTRATA_EURLEX_DIR", "/tmp/s21-eu")).glob("3*.html"))


def main(argv: list[str]) -> None:
    files = [Path(a) for a in argv] or _default_files()
    totals: dict[str, list[int]] = {}
    for path in {p.name: p for p in files}.values():  # a fixture and its /tmp copy once
        row = measure(path)
        print(f"{path.name[:48]:48} " + "  ".join(f"{k} {a}/{b}" for k, (a, b) in row.items()))
        for k, (a, b) in row.items():
            t = totals.setdefault(k, [0, 0])
            t[0] += a
            t[1] += b
    print("all: " + ", ".join(f"{k} {a}/{b}" for k, (a, b) in totals.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
