"""End measurement of issue 28: structure and exact references on fresh real documents.

Run (once, at the end, after all changes)::

    DOCSTRATA_FRESH_DOCS=/work/fresh-docs python bench/fresh_real.py [--kind K] [--doc SUBSTR] [--json]
    DOCSTRATA_FRESH_DOCS=/work/fresh-docs python bench/fresh_real.py --counts-only --one-per-kind   # smoke test
    DOCSTRATA_FRESH_DOCS=/work/fresh3-docs python bench/fresh_real.py --manifest bench/fresh_real_manifest_2.json

``--manifest PATH`` picks the document set (default ``bench/fresh_real_manifest.json``, the first set,
now SEEN: developers diagnosed it; ``bench/fresh_real_manifest_2.json`` is the second, unseen set).
``--truth-only`` prints the truth counts per document and kind (``-v``: every truth section,
definition and query, for spot-checks against the document's display) without running docstrata,
so checking the corpus does not unseal it; ``--counts-only`` runs docstrata end to end and prints
only sizes. ``--extract-from DIR`` first writes the manifest's files into ``$DOCSTRATA_FRESH_DOCS``
from git snapshots under ``DIR`` (``DIR/<owner>+<name>/repo``, as the search tool's ``fetch``
leaves them, or clones), ``git show <commit>:<path>``, and checks every sha256 -- the way to
refetch: ``fetch`` each repository of the manifest, then run with ``--extract-from /work/.mirror
--truth-only``. Files marked ``via`` read_file came through the search index (no snapshot of that
repository could be had) and are kept when present with the listed sha256.

**Second set** (``fresh_real_manifest_2.json``, fetched 2026-12-05 from repositories used nowhere
else in the project; 30 documents in 10 kinds): ``markdown-rfc`` (kramdown-rfc Internet-Drafts),
``rfc-text`` (xml2rfc text of Internet-Drafts from the i-d-template ``gh-pages`` branch, truth from
the Markdown of the commit it was built from), ``html-spec`` (xml2rfc v3 HTML of a draft; OASIS
specifications rendered from Markdown), ``pdf-standard`` (OASIS PDFs without outline, truth from
their Markdown), ``german-gii-xml`` (canonicalised gesetze-im-internet XML), ``uk-clml-xml``
(legislation.gov.uk CLML: a Scottish Act cited ``s 5``, a UK SI cited ``article 2``),
``belgian-law-markdown`` (Belgian laws in French, worded divisions and bold ``**Art. 3bis.**``
labels), ``word-document`` (a pandoc-built Word agreement), ``markdown-tree`` (a mkdocs tree). Not
covered there, for want of an unused public source: Word contracts with automatically numbered
clauses, Archeo-Lex French codes, Australian/NZ statutes, statute PDFs without outline that have a
marked-up twin.

**Third set** (``fresh_real_manifest_3.json``, fetched 2026-12-05 from 14 repositories used nowhere
else in the project, for the one end measurement of session 14; 24 documents in 7 kinds):
``markdown-rfc`` (kramdown-rfc drafts: WIMSE, JSONPath, GNAP, UUID), ``rfc-text`` (xml2rfc text of
drafts, truth from the Markdown of the commit it was built from: SCITT, the mmark DMARCbis,
RateLimit headers), ``html-spec`` (xml2rfc v3 HTML of SCITT and DMARCbis held to their Markdown; a
Bikeshed and a ReSpec rendering of WICG drafts, truth from their own numbered headings),
``german-gii-xml`` (the whole BGB), ``lux-akn-xml`` (Luxembourg acts as Legilux Akoma Ntoso: the
Constitution, the communal law, two recent laws; cited ``article 5bis``), ``word-contract`` (two
Word agreements whose clauses are list paragraphs numbered by ``numbering.xml``), ``markdown-tree``
(the mkdocstrings docs). Run with ``DOCSTRATA_FRESH_DOCS=/work/fresh4-docs python bench/fresh_real.py
--manifest bench/fresh_real_manifest_3.json``. Not covered there, for want of an unused public source:
Word contracts numbered by a list style, statute PDFs without outline that have a marked-up twin,
Australian/NZ statutes, UK CLML; gesetze-im-internet has one document (the BGB, whose Buch 1 a
Markdown fixture of the project holds in another form).

The documents are NOT in the repository: ``bench/fresh_real_manifest.json`` lists every file with
its source repository, commit, path, licence, sha256 and kind, so anyone can refetch them into
``$DOCSTRATA_FRESH_DOCS`` (default ``../fresh-docs`` beside the repository). Each was fetched from a
public GitHub repository that no benchmark, test or document of the project had used, after the
structure redesign, and must stay unseen: nobody tunes on it. A file whose sha256 differs from
the manifest is an error (the figures would not be comparable).

**Kinds** (47 documents, 23 manifest entries; see the manifest for sources): ``markdown-rfc``
(kramdown-rfc and mmark sources), ``rfc-text`` (RFC Editor text, truth from its mmark twin),
``html-spec`` and ``pdf-standard`` (OASIS OpenC2 specifications rendered from Markdown; the PDFs
have no outline), ``german-statute-text`` (plain text, truth from the pandoc Markdown of the same
day), ``german-gii-xml`` (gesetze-im-internet XML), ``word-document`` (an OASIS standard authored
in Word), ``markdown-tree`` (a mkdocs tree), ``au-statute-markdown`` (two ComLaw compilations of
one Australian Act as Markdown: Parts, Divisions, sections ``5A``, cited ``s 5A`` / ``section
5A``), ``french-code-markdown`` (a French code as Archeo-Lex Markdown, cited ``Article L. 313-3``
/ ``article L313-3``), ``word-contract`` (a Word contract whose clauses are numbered by a
list-numbered style, cited ``Section 1(b)``). Not covered, for want of an unused public source
found in time: UK/NZ statutes (CLML / NZ PCO XML), statute PDFs without outlines; the
Australian, French and contract kinds have fewer documents than the others.

**Truth** is never docstrata's output. It is read by the small readers in this file from each
document's own markup — where the repository holds the same document in two forms, from the
marked-up twin (``<input>.truth-source.md``), and docstrata runs on the other form:

* ``gii`` (gesetze-im-internet XML), ``clml`` (UK CLML), ``akn`` (Akoma Ntoso), ``html`` (a rendered
  Bikeshed/ReSpec specification) and ``docx`` (Word; ``"clauses": true`` for a list-styled clause,
  ``"clauses": "list"`` for clauses that are list paragraphs) read the input's own markup: see each
  ``read_*`` function.
* ``markdown`` reader (Markdown sources: kramdown-rfc, mmark, OASIS Markdown specs, pandoc laws,
  a mkdocs tree): ATX headings outside code fences, ``{#anchor}``/``{: …}`` attributes dropped;
  YAML front matter and ``%`` title lines skipped. ``numbering``:

  - ``rfc``: numbers are implied by the heading levels (kramdown-rfc ``--- middle``/``--- back``,
    mmark ``{mainmatter}``/``{backmatter}``): middle headings get ``1``, ``1.1``…; back headings
    ``Appendix A``, ``A.1``… (the form xml2rfc prints); ``.#`` (mmark), ``{:numbered="false"}`` and
    headings before the middle are unnumbered (matched by title); kramdown-rfc's ``--- abstract``
    is an unnumbered ``Abstract`` section (the heading xml2rfc prints, as mmark's ``.# Abstract``).
    References sections that the tool generates from YAML/bibliography are not headings in the
    source and not truth.
  - ``printed``: the number is printed at the start of the heading (``1.2.3 Title``,
    ``Annex A Title``, ``§ 26a – Title``); only numbered headings are truth sections (the
    front-matter labels of OASIS specs such as ``#### This version:`` and bibliography keys
    ``###### [RFC2119]`` are headings but not sections; they count as markup labels below).
  - ``none``: every heading is a truth section, matched by title.
  - ``statute``: statutes and codes, see ``read_statute_markdown`` (divisions and provisions,
    endnotes as labels, provisions hang under the last division of the same or a lower level).

  Parent = the nearest previous truth heading of a lower Markdown level. Definitions: kramdown/mmark
  definition lists (``Term`` line followed by a ``: definition`` line) and bold list terms
  (``* **Term**: …``) inside a section titled Terminology/Definitions/Glossary; with
  ``"definitions": "defined-terms"`` (the third set) only definition lists whose term is words, in
  such a section or one the manifest names (``"definition_sections"``), not protocol field lists or
  IANA templates (see ``read_markdown``). A heading's Markdown link counts as its text.

**Metrics** (pooled counts per kind and in total; matching, parent rule, collision count and
definition matching are those of ``bench/structure_real.py``, imported, so the figures sit beside
the tuned ones):

* section recall, parent accuracy, id collisions, definition recall — as ``structure_real.py``.
* **sections from running text**: our sections (not the preamble) that match no truth section and
  whose key (normalised number, else normalised title) is not one more heading of the markup
  (every heading of the source counts, with multiplicity, including unnumbered and non-section
  labels). Parenthesised enumerators under another section (``(1)``, ``(a)``, ``b)``), and
  sections numbered by a list-item label the markup states (gesetze-im-internet ``<DT>1.</DT>``,
  a Nummer cited ``§ 5 Abs. 5 Nr. 1``), items whose id is their provision's plus a bracketed
  number (``article-8(1)``: a Belgian limb ``1.``) and an article's ``§ N`` paragraph qualified by
  it (``article-8/2``), are counted apart as ``subitems`` (not a failure): they are provisions' own
  items, not text made a heading.
* **exact references top-1**: per document, up to ``--queries`` numbered truth sections sampled
  with a fixed seed (the document's name), each asked for in the document's own citation style
  from the manifest (``Section 4.2``, ``4.2``, ``§ 7``, ``s 59A``, ``Article
  L. 111-4``…, styles taken in turn; ``{fr}`` writes a French code number as ``L. 111-4``; an
  annex as the document names it, ``Appendix A``, ``Annex A``, ``Anlage 1``),
  against a tool holding only that document (a query naming no document cannot prefer one
  document's 4.2 over another's). Right when the first hit's ``section_id`` is our match of that
  truth section, or that section has no text of its own (a heading-only Part) and the hit is
  inside it. A truth section we did not find makes its queries wrong.

Thresholds (issue 28, "Done when"), checked on the totals: section recall >= 0.95, parent
accuracy >= 0.95, 0 id collisions, 0 sections from running text, definition recall >= 0.90,
exact references top-1 >= 0.95. Exit status 0 when all pass, 1 when one fails, 2 on a setup
error (missing folder, checksum mismatch).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import structure_real as sr  # noqa: E402  (same matching as the tuned benchmark)

MANIFEST = ROOT / "bench" / "fresh_real_manifest.json"
THRESHOLDS = {"section_recall": 0.95, "parent_accuracy": 0.95, "id_collisions": 0,
              "running_text_sections": 0, "definition_recall": 0.90, "exact_top1": 0.95}


def fresh_root() -> Path:
    """``$DOCSTRATA_FRESH_DOCS``, else ``fresh-docs`` beside the repository (or beside a parent
    folder, for a git worktree)."""
    if os.environ.get("DOCSTRATA_FRESH_DOCS"):
        return Path(os.environ["DOCSTRATA_FRESH_DOCS"])
    for up in ROOT.parents:
        if (up / "fresh-docs").is_dir():
            return up / "fresh-docs"
    return ROOT.parent / "fresh-docs"


# ---------------------------------------------------------------- truth from Markdown markup

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^(\.?)(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_ATTR = re.compile(r"\s*\{[#:.][^}]*\}\s*$")
_PRINTED_NUM = re.compile(
    r"^(§§\s*\d+[a-z]?\s*(?:bis|und|,|-|–)\s*\d+[a-z]?|(?:§§?\s*)\d+[a-z]?|(?:Annex|Appendix|Anhang|Anlage)\s+[A-Z0-9]+(?:\.\d+)*|[A-Z](?:\.\d+)+|\d+(?:\.\d+)*)"
    r"(?:\.(?=\s)|\s*[–—:-](?=\s))?\s+(.*)$")
_DATE_REST = re.compile(r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
                        r"|Januar|Februar|März|Juni|Juli|Oktober|Dezember)\b", re.I)  # "24 November 2019" is a date
_MD_LINK = re.compile(r"\[([^\]]*)\]\((?:<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\)")  # [text](url), [text](<url>)
_REGISTRATION = re.compile(r"\bIANA\b|registration|registry|media type", re.I)
_DEF_SECTION = re.compile(r"terminolog|definition|glossar|begriffsbestimmung", re.I)
_BOLD_TERM = re.compile(r"^\s*[*+-]\s+\*\*([^*]{1,80}?)\*\*\s*[:–—-]")


@dataclass
class Truth:
    """Truth read from markup: ``sections`` as in ``structure_real`` (number, title, level,
    parent_index), ``definitions`` [{term}], ``labels`` every heading key of the source (a
    Counter of normalised numbers/titles, for the running-text count), ``items`` the labels of list
    items the markup states as such (gesetze-im-internet ``<DT>1.</DT>``, normalised numbers): a
    section made of one is a provision's item (a ``subitem``), not running text."""

    sections: list[dict] = field(default_factory=list)
    definitions: list[dict] = field(default_factory=list)
    labels: Counter = field(default_factory=Counter)
    items: Counter = field(default_factory=Counter)  # list-item labels the markup states (gii <DT>)


def _key(number: str | None, title: str | None) -> str:
    return sr.norm_number(number) if number else sr.norm_title(title)


def _appendix_label(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def _in_html_comment(line: str, inside: bool) -> bool | None:
    """Whether ``line`` lies in an HTML comment (``<!--`` … ``-->``, which Markdown renderers do not
    display): True inside one, None on the line that closes it (skipped too), False outside. A
    comment opened and closed on one line that holds nothing else is skipped as well."""
    st = line.strip()
    if inside:
        return None if "-->" in st else True
    if st.startswith("<!--"):
        return None if "-->" in st[4:] else True
    return False


def read_markdown(text: str, numbering: str, defined_terms: bool = False,
                  definition_sections: tuple[str, ...] = ()) -> Truth:
    """Truth from a Markdown source (see the module docstring for ``numbering``). With
    ``defined_terms`` (manifest ``"definitions": "defined-terms"``), a definition-list entry is a
    definition only inside a section (or a subsection of one) titled Terminology / Definitions /
    Glossary or named in ``definition_sections`` (manifest ``"definition_sections"``: titles of the
    sections where the document says it defines its terms, e.g. GNAP's ``Roles`` and
    ``Elements``), never inside an IANA/registration section, and only when its term is words,
    not a literal (a code span or a quoted string): kramdown drafts also write protocol field lists
    (``"redirect" (string)``, ``adkim``) and media-type templates (``Type name:``) as definition
    lists, and those define no terms.

    Raises ``ValueError`` for an unknown ``numbering``."""
    if numbering not in ("rfc", "printed", "none", "statute", "bold-articles"):
        raise ValueError(f"unknown numbering {numbering!r}")
    if numbering == "statute":
        return read_statute_markdown(text)
    if numbering == "bold-articles":
        return read_bold_article_markdown(text)
    lines = text.splitlines()
    i = 0
    if lines and lines[0].strip() == "---":  # YAML front matter (kramdown-rfc: up to '--- abstract')
        i = 1
        while i < len(lines) and not lines[i].startswith("---"):
            i += 1
    truth = Truth()
    part = "front" if numbering == "rfc" else "middle"
    counters: list[int] = []
    appendix = -1
    stack: list[tuple[int, int]] = []  # (markdown level, truth index)
    fence = None
    in_defs = under_defs = False
    prev_nonblank = ""
    comment = False
    for j in range(i, len(lines)):
        line = lines[j]
        m = _FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        comment = _in_html_comment(line, comment)
        if comment is None or comment:  # inside (or closing) an HTML comment: not displayed
            comment = bool(comment)
            continue
        s = line.strip()
        if s.startswith("%"):  # mmark / pandoc title block
            continue
        low = s.lower()
        if low in ("--- middle", "{mainmatter}"):
            part = "middle"
            continue
        if low in ("--- back", "{backmatter}"):
            part = "back"
            continue
        if low.startswith("--- ") or low in ("{frontmatter}",):
            part = "front" if "abstract" in low or "note" in low else part
            if low == "--- abstract":  # xml2rfc prints an "Abstract" heading, as mmark's ".# Abstract"
                truth.labels[_key(None, "Abstract")] += 1
                stack = []
                truth.sections.append({"number": None, "title": "Abstract", "level": 1, "parent_index": None,
                                       "line": j + 1})
                stack.append((1, len(truth.sections) - 1))
                in_defs = under_defs = False
            continue
        h = _ATX.match(line)
        if h:
            dot, hashes, raw = h.groups()
            level = len(hashes)
            unnumbered = bool(dot) or "numbered=\"false\"" in raw or "{-}" in raw or (
                j + 1 < len(lines) and re.match(r'^\{:\s*numbered="false"', lines[j + 1].strip()))
            title = _MD_LINK.sub(r"\1", _ATTR.sub("", raw)).strip()  # a link shows its text
            title = re.sub(r"\s*\{-\}\s*$", "", title)
            number = None
            if numbering == "printed":
                pm = _PRINTED_NUM.match(title)
                if pm and pm.group(2).strip() and not _DATE_REST.match(pm.group(2)):
                    number, title = pm.group(1).strip(), pm.group(2).strip()
            if numbering == "printed" and number is None:  # a label, not a section
                truth.labels[_key(None, title)] += 1
                in_defs = False
                continue
            if numbering == "rfc" and not unnumbered and part in ("middle", "back"):
                if part == "middle":
                    counters = (counters + [0] * level)[:level]
                    counters[level - 1] += 1
                    counters = [c or 1 for c in counters]
                    number = ".".join(str(c) for c in counters)
                else:
                    if level == 1:
                        appendix += 1
                        counters = [appendix + 1]  # 1-based like the middle counters: A is 1
                        number = f"Appendix {_appendix_label(appendix)}"
                    else:
                        counters = (counters + [0] * level)[:level]
                        counters[level - 1] += 1
                        counters = [c or 1 for c in counters]
                        number = ".".join([_appendix_label(counters[0] - 1)] + [str(c) for c in counters[1:]])
            truth.labels[_key(number, title)] += 1
            while stack and stack[-1][0] >= level:
                stack.pop()
            parent = stack[-1][1] if stack else None
            truth.sections.append({"number": number, "title": title, "level": len(stack) + 1,
                                   "parent_index": parent, "line": j + 1})
            stack.append((level, len(truth.sections) - 1))
            in_defs = bool(_DEF_SECTION.search(title))
            anc = [truth.sections[k]["title"] or "" for _, k in stack]
            under_defs = (any(_DEF_SECTION.search(a) or a in definition_sections for a in anc)
                          and not any(_REGISTRATION.search(a) for a in anc))
            prev_nonblank = ""
            continue
        if s.startswith(": ") and prev_nonblank and not prev_nonblank.startswith((":", "#", "*", "-", "|", "{")) \
                and not (defined_terms and (not under_defs or re.match(r"[`\"“']", prev_nonblank))):
            term = prev_nonblank.rstrip(":").strip().replace("`", "").strip("*_")  # code spans show no backticks
            if 0 < len(term) <= 80:
                truth.definitions.append({"term": term, "line": j + 1})
        elif in_defs:
            b = _BOLD_TERM.match(line)
            if b:
                truth.definitions.append({"term": b.group(1).strip(), "line": j + 1})
        if s:
            prev_nonblank = s
    truth.labels = Counter({k: v for k, v in truth.labels.items() if v > 0 and k})
    return truth


_TAG = re.compile(r"<[^>]+>")
_DIVISION = re.compile(
    r"^(Part|Division|Subdivision|Chapter|Schedule|Partie|Livre|Titre|Sous-titre|Chapitre|Section|Sous-section"
    r"|Paragraphe|Sous-paragraphe)\s+([0-9]+[A-Z]{0,3}(?:-[A-Z0-9]+)?|[IVXLCDM]+(?:er|re)?|[A-Z])\b\.?"
    r"(?:\s*[:—–-]\s*|\s+)?(.*)$", re.I)
_DIVISION_WORD = re.compile(r"^(Part|Division|Subdivision|Chapter|Schedule|Partie|Livre|Titre|Sous-titre|Chapitre"
                            r"|Section|Sous-section|Paragraphe|Sous-paragraphe)\b", re.I)
_ARTICLE = re.compile(r"^(Article)\s+((?:[LRDA]\*{0,2}\.?\s?)?\d+[A-Za-z]*(?:-\d+[A-Za-z]*)*"
                      r"(?:\s+(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|decies))?)\b\.?\s*(?:[:—–-]\s*)?(.*)$")
_SECTION_NO = re.compile(r"^(\d+[A-Z]{0,3}(?:-\d+[A-Z]?)?)\.?\s+(\S.*)$")
_ENDNOTES = re.compile(r"^(?:Notes to the\b|Endnotes\b|Notes\s*$)", re.I)
_STATUTE_DEF_SECTION = re.compile(r"dictionary|definition|interpretation|définition", re.I)
_STATUTE_TERM = re.compile(r"^\s*(?:<a\b[^>]*>\s*</a>\s*)?(?:\*\*_|_\*\*|\*\*\*)([^*_]{1,80}?)(?:_\*\*|\*\*_|\*\*\*)")


def read_statute_markdown(text: str) -> Truth:
    """Truth from the Markdown of a statute or code (``numbering: statute``): ATX headings outside
    code fences, HTML tags (``<a id="5A"></a>``) and ``{...}`` attributes dropped. A heading is

    * a **division** when it starts with a division word (Part, Division, Subdivision, Chapter,
      Schedule; Partie, Livre, Titre, Chapitre, Section, Sous-section, Paragraphe…): number
      ``Part 2`` / ``Chapitre Ier`` and the rest as title; without a number (``Partie
      législative``, ``Chapitre unique``) a section matched by title;
    * a **provision** when it is ``Article L111-4`` (number ``Article L111-4``, any rest as title)
      or starts with a section number (``5A  Application to …``: number ``5A``);
    * otherwise a label (the Act's title, ``Contents``, the long title), as is every heading from
      the endnotes (``Notes to the …``, ``Endnotes``) on: the compilation's history, not the law.

    Parent: a division hangs under the nearest previous division of a lower Markdown level; a
    provision under the nearest previous division of the same or a lower level (Archeo-Lex writes
    ``#### Chapitre`` then ``#### Article``; ComLaw ``### Division`` then ``##### 5A``), so
    provisions are never parents. Definitions: in a provision or division titled Dictionary /
    Definitions / Interpretation, a line starting with a bold-italic term (``**_term_**``, after
    an optional ``<a name>`` anchor)."""
    lines = text.splitlines()
    i = 0
    if lines and lines[0].strip() == "---":
        i = 1
        while i < len(lines) and not lines[i].startswith("---"):
            i += 1
        i += 1
    truth = Truth()
    stack: list[tuple[int, int]] = []  # divisions only: (markdown level, truth index)
    fence = None
    in_defs = False
    endnotes = False
    comment = False
    for j in range(i, len(lines)):
        line = lines[j]
        m = _FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        comment = _in_html_comment(line, comment)
        if comment is None or comment:
            comment = bool(comment)
            continue
        h = _ATX.match(line)
        if not h:
            if in_defs:
                d = _STATUTE_TERM.match(line)
                if d:
                    truth.definitions.append({"term": d.group(1).strip(), "line": j + 1})
            continue
        _, hashes, raw = h.groups()
        level = len(hashes)
        title = " ".join(_ATTR.sub("", _TAG.sub("", raw)).split())
        endnotes = endnotes or bool(_ENDNOTES.match(title))
        div = _DIVISION.match(title)
        art = _ARTICLE.match(title)
        sec = _SECTION_NO.match(title)
        number, rest, provision = None, title, False
        if endnotes:
            pass
        elif art:
            number, rest, provision = f"Article {art.group(2).strip()}", art.group(3).strip(), True
        elif div:
            number, rest = f"{div.group(1)} {div.group(2)}", div.group(3).strip()
        elif sec and not _DATE_REST.match(sec.group(2)):
            number, rest, provision = sec.group(1), sec.group(2).strip(), True
        if number is None and (endnotes or not _DIVISION_WORD.match(title)):
            truth.labels[_key(None, title)] += 1
            in_defs = False
            continue
        if provision:
            while stack and stack[-1][0] > level:
                stack.pop()
        else:
            while stack and stack[-1][0] >= level:
                stack.pop()
        parent = stack[-1][1] if stack else None
        truth.labels[_key(number, rest or title)] += 1
        truth.sections.append({"number": number, "title": (rest or title) if number is None else (rest or None),
                               "level": len(stack) + 1, "parent_index": parent, "line": j + 1})
        if not provision:
            stack.append((level, len(truth.sections) - 1))
        in_defs = bool(_STATUTE_DEF_SECTION.search(rest or title))
    truth.labels = Counter({k: v for k, v in truth.labels.items() if v > 0 and k})
    return truth


_FR_RANK = {"livre": 1, "titre": 2, "chapitre": 3, "section": 4, "sous-section": 5, "paragraphe": 6}
_FR_DIVISION = re.compile(
    r"^(Livre|Titre|Chapitre|Sous-section|Section|Paragraphe)\s+"
    r"((?:[IVXLCDM]+|\d+)(?:er|ère|re|bis|ter|quater|quinquies)?|unique|premier|préliminaire)(?![\w])\.?\s*(.*)$", re.I)
# a division the export prints as a plain line, not an ATX heading ("CHAPITRE IIIbis. _ `CONST …` PREVENTIONS
# ET REGLEMENT DE CONFLITS."): its word in capitals, its numeral, a dot and be_law_tools' "_" separator
_PLAIN_DIVISION = re.compile(
    r"^(?:LIVRE|TITRE|CHAPITRE|SOUS-SECTION|SECTION|PARAGRAPHE)\s+(?:[IVXLCDM]+|\d+)[a-zèé]*\.\s+_\s")
_BOLD_ARTICLE = re.compile(r"^\*\*Art\.\s*([0-9]+[a-z]*(?:[/.-][0-9]+[a-z]*)*)\.?\s*\*\*")


def read_bold_article_markdown(text: str) -> Truth:
    """Truth from a statute's Markdown whose divisions are ATX headings named by their word and
    whose articles are bold labels opening a paragraph (``numbering: bold-articles``; Belgian laws
    as openjusticebe's be_law_tools writes them: ``## Titre II _ DES BELGES…``, ``#### Section Ière
    _ DU ROI.``, ``**Art. 3bis.** La Belgique…``). A division's number is its word and numeral
    (``Titre Ibis``, ``Section Ière``; also a division the export prints as a plain line, ``CHAPITRE
    IIIbis. _ …``), its title the rest without the ``_`` separator and the
    inline amendment notes in backticks; its rank is its word's (Livre > Titre > Chapitre >
    Section > Sous-section > Paragraphe) -- the document's headings use inconsistent ``#`` depths
    (``# TITRE I.`` then ``## Titre II``), its words do not -- and it hangs under the nearest
    previous division of a higher rank. An article (number ``Article 3bis``, no title) hangs under
    the last division. Headings that are no division, the YAML ``title`` and every article label
    are markup labels. No terms are marked, so no definitions."""
    lines = text.splitlines()
    truth = Truth()
    i = 0
    if lines and lines[0].strip() == "---":
        i = 1
        while i < len(lines) and lines[i].strip() != "---":
            if lines[i].startswith("title:"):
                truth.labels[_key(None, lines[i][6:].strip())] += 1
            i += 1
        i += 1
    stack: list[tuple[int, int]] = []  # (rank, truth index)
    fence = None
    for j in range(i, len(lines)):
        line = lines[j]
        m = _FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        a = _BOLD_ARTICLE.match(line)
        if a:
            number = f"Article {a.group(1)}"
            parent = stack[-1][1] if stack else None
            truth.sections.append({"number": number, "title": None, "level": len(stack) + 1,
                                   "parent_index": parent, "line": j + 1})
            truth.labels[_key(number, None)] += 1
            continue
        h = _ATX.match(line)
        if not h and not _PLAIN_DIVISION.match(line):
            continue
        raw = " ".join(re.sub(r"`[^`]*`", " ", _TAG.sub("", h.group(3) if h else line)).split())
        d = _FR_DIVISION.match(raw)
        if not d:
            truth.labels[_key(None, raw)] += 1
            continue
        rank = _FR_RANK[d.group(1).lower()]
        number = f"{d.group(1).capitalize()} {d.group(2)}"
        title = re.sub(r"^[_\s.:–—-]+", "", d.group(3)).strip() or None
        while stack and stack[-1][0] >= rank:
            stack.pop()
        parent = stack[-1][1] if stack else None
        truth.sections.append({"number": number, "title": title, "level": len(stack) + 1,
                               "parent_index": parent, "line": j + 1})
        truth.labels[_key(number, title)] += 1
        stack.append((rank, len(truth.sections) - 1))
    truth.labels = Counter({k: v for k, v in truth.labels.items() if v > 0 and k})
    return truth


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _roman(n: int) -> str:
    out = ""
    for v, r in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
                 (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out, n = out + r, n - v
    return out


def _fmt_num(n: int, fmt: str) -> str:
    if fmt in ("upperLetter", "lowerLetter"):
        s = _appendix_label(n - 1)
        return s if fmt == "upperLetter" else s.lower()
    if fmt in ("upperRoman", "lowerRoman"):
        return _roman(n).upper() if fmt == "upperRoman" else _roman(n)
    return str(n)


def read_docx(path: Path, clauses: bool = False) -> Truth:
    """Truth from a Word file's own markup: a paragraph is a heading when its style (or the
    paragraph) has an outline level (``w:outlineLvl`` < 9; level = outline level + 1, following
    ``w:basedOn``); its number is what Word's list numbering prints for it (``w:numPr`` of the
    paragraph or its style, ``numbering.xml`` level text and format, counters per abstract list,
    deeper levels reset), trailing ``.`` dropped; its title the paragraph text. Definitions: the
    text of paragraphs (or runs) in a style named like "Definition term". Raises ``KeyError``
    when the package lacks ``word/document.xml``.

    ``clauses`` (Word contracts): a paragraph without an outline level is also a section when its
    *style* carries list numbering (a numbered clause style such as "Def2 Heading 2"; a paragraph
    numbered directly, a ``List Paragraph``, stays a list item): level = list level + 1, title
    its text (at most 200 characters), number the label Word prints in front of it (``(b)``: the
    clause is identified by that label under its parent, as the document shows it) and ``cite``
    the printed labels of its list levels joined as a contract cites them (``1.`` then ``(b)``
    then ``(i)`` → ``1(b)(i)``; a level whose text already prints its parents' counters,
    ``%1.%2``, stands alone), the form the exact-reference queries ask for."""
    import zipfile
    from xml.etree import ElementTree as ET

    z = zipfile.ZipFile(path)
    doc = ET.fromstring(z.read("word/document.xml"))
    styles = ET.fromstring(z.read("word/styles.xml")) if "word/styles.xml" in z.namelist() else None
    numbering = ET.fromstring(z.read("word/numbering.xml")) if "word/numbering.xml" in z.namelist() else None
    sty: dict[str, dict] = {}
    for st in (styles.iter(_W + "style") if styles is not None else []):
        sid = st.get(_W + "styleId")
        name = st.find(_W + "name")
        based = st.find(_W + "basedOn")
        ppr = st.find(_W + "pPr")
        ol = ppr.find(_W + "outlineLvl") if ppr is not None else None
        npr = ppr.find(_W + "numPr") if ppr is not None else None
        sty[sid] = {"name": (name.get(_W + "val") if name is not None else sid) or "",
                    "based": based.get(_W + "val") if based is not None else None,
                    "outline": int(ol.get(_W + "val")) if ol is not None else None,
                    "num": ((npr.find(_W + "numId").get(_W + "val") if npr.find(_W + "numId") is not None else None),
                            int(npr.find(_W + "ilvl").get(_W + "val")) if npr.find(_W + "ilvl") is not None else None)
                    if npr is not None else None}

    def style_attr(sid, attr):
        seen = set()
        while sid and sid in sty and sid not in seen:
            seen.add(sid)
            if sty[sid][attr] is not None:
                return sty[sid][attr]
            sid = sty[sid]["based"]
        return None

    abstract_of: dict[str, str] = {}
    levels: dict[tuple[str, int], tuple[str, str, int]] = {}
    if numbering is not None:
        for an in numbering.iter(_W + "abstractNum"):
            aid = an.get(_W + "abstractNumId")
            for lvl in an.iter(_W + "lvl"):
                il = int(lvl.get(_W + "ilvl"))
                fmt = lvl.find(_W + "numFmt")
                txt = lvl.find(_W + "lvlText")
                start = lvl.find(_W + "start")
                levels[(aid, il)] = (fmt.get(_W + "val") if fmt is not None else "decimal",
                                     txt.get(_W + "val") if txt is not None else "",
                                     int(start.get(_W + "val")) if start is not None else 1)
        for num in numbering.iter(_W + "num"):
            a = num.find(_W + "abstractNumId")
            if a is not None:
                abstract_of[num.get(_W + "numId")] = a.get(_W + "val")
    counters: dict[str, list[int]] = {}
    truth = Truth()
    stack: list[tuple[int, int]] = []
    body = doc.find(_W + "body")
    for p in body.iter(_W + "p"):
        ppr = p.find(_W + "pPr")
        ps = ppr.find(_W + "pStyle") if ppr is not None else None
        sid = ps.get(_W + "val") if ps is not None else None
        text = "".join(t.text or "" for t in p.iter(_W + "t")).strip()
        sname = (sty.get(sid, {}).get("name") or sid or "").lower()
        if re.search(r"definition ?term", sname) and text:
            truth.definitions.append({"term": text.rstrip(":").strip()})
        ol = ppr.find(_W + "outlineLvl") if ppr is not None else None
        outline = int(ol.get(_W + "val")) if ol is not None else style_attr(sid, "outline")
        npr = ppr.find(_W + "numPr") if ppr is not None else None
        num = None
        style_numbered = False
        if npr is not None:
            ni, il = npr.find(_W + "numId"), npr.find(_W + "ilvl")
            num = (ni.get(_W + "val") if ni is not None else None, int(il.get(_W + "val")) if il is not None else 0)
        if num is None or num[0] is None or num[1] is None:  # numId and ilvl may come from the style chain
            chain, seen, k = [], set(), sid
            while k and k in sty and k not in seen:
                seen.add(k)
                chain.append(sty[k]["num"] or (None, None))
                k = sty[k]["based"]
            nid = (num or (None, None))[0] or next((x[0] for x in chain if x[0] is not None), None)
            lvl_ = (num or (None, None))[1]
            lvl_ = lvl_ if lvl_ is not None else next((x[1] for x in chain if x[1] is not None), 0)
            num = (nid, lvl_) if nid else None
            style_numbered = num is not None
        if clauses and (outline is None or outline >= 9) and style_numbered and text:
            outline = num[1] if num[1] is not None else 0
        number = cite = None
        if num and num[0] and num[0] != "0" and num[0] in abstract_of:
            aid = abstract_of[num[0]]
            il = num[1] if num[1] is not None else 0
            c = counters.setdefault(aid, [0] * 9)
            for k in range(9):  # a level not yet used starts at its start value - 1
                if c[k] == 0 and k < il:
                    c[k] = levels.get((aid, k), ("decimal", "", 1))[2]
            c[il] = c[il] + 1 if c[il] else levels.get((aid, il), ("decimal", "", 1))[2]
            for k in range(il + 1, 9):
                c[k] = 0
            if outline is not None and outline < 9 and text:
                fmt, lvl_text, _ = levels.get((aid, il), ("decimal", f"%{il + 1}.", 1))
                def level_value(mm, c=c, aid=aid):
                    k = int(mm.group(1)) - 1
                    return _fmt_num(c[k] or 1, levels.get((aid, k), ("decimal",))[0])

                number = re.sub(r"%(\d)", level_value, lvl_text).strip().rstrip(".").strip() or None
                cite = number
                if clauses and number and il > 0 and not re.search(f"%[1-{il}]", lvl_text):
                    parents = [re.sub(r"%(\d)", level_value, levels.get((aid, k), ("decimal", f"%{k + 1}.", 1))[1])
                               .strip().rstrip(".").strip() for k in range(il)]
                    cite = "".join(parents) + number
        if outline is None or outline >= 9 or not text:
            continue
        level = outline + 1
        truth.labels[_key(number, text)] += 1
        while stack and stack[-1][0] >= level:
            stack.pop()
        truth.sections.append({"number": number, "title": text[:200] if clauses else text, "level": len(stack) + 1,
                               "parent_index": stack[-1][1] if stack else None, "style": sid, "cite": cite})
        stack.append((level, len(truth.sections) - 1))
    return truth


def read_docx_list_clauses(path: Path) -> Truth:
    """Truth from a Word contract whose clauses are list paragraphs (manifest ``"clauses": "list"``):
    every non-empty paragraph that Word numbers (``w:numPr`` of the paragraph or its style, a
    ``numbering.xml`` level that is not a bullet) is a clause; its number is the label Word prints
    for it (``lvlText`` with the counters of its abstract list, which start at the level's
    ``w:start`` -- contracts converted from other formats often give every clause a list of its
    own, ``3.`` then ``a.`` with start values) without the trailing ``.``; its title the paragraph
    text (at most 200 characters). Rank: the clause's (list level, number format) in the order
    the document first uses them (``decimal`` ``1.`` before ``lowerLetter`` ``a.`` at the same
    level: the letter clauses are the number clauses' sub-clauses); a clause hangs under the
    nearest previous clause of a lower rank, and is cited by its parents' labels and its own in
    parentheses (``3(a)``), the form contracts use. No definitions. Raises ``KeyError`` when the
    package lacks ``word/document.xml``."""
    import zipfile
    from xml.etree import ElementTree as ET

    z = zipfile.ZipFile(path)
    doc = ET.fromstring(z.read("word/document.xml"))
    names = z.namelist()
    numbering = ET.fromstring(z.read("word/numbering.xml")) if "word/numbering.xml" in names else None
    styles = ET.fromstring(z.read("word/styles.xml")) if "word/styles.xml" in names else None
    style_num: dict[str, tuple[str | None, int]] = {}
    for st in (styles.iter(_W + "style") if styles is not None else []):
        npr = st.find(f"{_W}pPr/{_W}numPr")
        if npr is not None and npr.find(_W + "numId") is not None:
            il = npr.find(_W + "ilvl")
            style_num[st.get(_W + "styleId")] = (npr.find(_W + "numId").get(_W + "val"),
                                                 int(il.get(_W + "val")) if il is not None else 0)
    levels: dict[tuple[str, int], tuple[str, str, int]] = {}
    abstract_of: dict[str, str] = {}
    for an in (numbering.iter(_W + "abstractNum") if numbering is not None else []):
        for lvl in an.iter(_W + "lvl"):
            def val(tag, default, lvl=lvl):
                el = lvl.find(_W + tag)
                return el.get(_W + "val") if el is not None else default
            levels[(an.get(_W + "abstractNumId"), int(lvl.get(_W + "ilvl")))] = (
                val("numFmt", "decimal"), val("lvlText", ""), int(val("start", "1")))
    for num in (numbering.iter(_W + "num") if numbering is not None else []):
        a = num.find(_W + "abstractNumId")
        if a is not None:
            abstract_of[num.get(_W + "numId")] = a.get(_W + "val")
    truth = Truth()
    counters: dict[str, list[int]] = {}
    ranks: list[tuple[int, str]] = []  # (list level, format) in order of first use
    stack: list[tuple[tuple[int, int], int]] = []  # ((list level, first use), truth index)
    for p in doc.find(_W + "body").iter(_W + "p"):
        text = " ".join("".join(t.text or "" for t in p.iter(_W + "t")).split())
        npr = p.find(f"{_W}pPr/{_W}numPr")
        ps = p.find(f"{_W}pPr/{_W}pStyle")
        if npr is not None and npr.find(_W + "numId") is not None:
            il = npr.find(_W + "ilvl")
            num = (npr.find(_W + "numId").get(_W + "val"), int(il.get(_W + "val")) if il is not None else 0)
        else:
            num = style_num.get(ps.get(_W + "val") if ps is not None else "")
        if not num or num[0] not in abstract_of:
            continue
        aid, il = abstract_of[num[0]], num[1]
        fmt, lvl_text, start = levels.get((aid, il), ("decimal", f"%{il + 1}.", 1))
        if fmt in ("bullet", "none"):
            continue
        c = counters.setdefault(aid, [0] * 9)
        for k in range(il):
            c[k] = c[k] or levels.get((aid, k), ("decimal", "", 1))[2]
        c[il] = c[il] + 1 if c[il] else start
        for k in range(il + 1, 9):
            c[k] = 0
        if not text:
            continue
        label = re.sub(r"%(\d)", lambda m, c=c, aid=aid: _fmt_num(
            c[int(m.group(1)) - 1] or 1, levels.get((aid, int(m.group(1)) - 1), ("decimal",))[0]),
            lvl_text).strip().rstrip(".").strip()
        if (il, fmt) not in ranks:
            ranks.append((il, fmt))
        rank = (il, ranks.index((il, fmt)))
        while stack and stack[-1][0] >= rank:
            stack.pop()
        parent = stack[-1][1] if stack else None
        cite = label if parent is None else f"{truth.sections[parent]['cite']}({label})"
        truth.sections.append({"number": label or None, "title": text[:200], "level": len(stack) + 1,
                               "parent_index": parent, "cite": cite})
        truth.labels[_key(label, text[:200])] += 1
        stack.append((rank, len(truth.sections) - 1))
    return truth


def read_gii(path: Path) -> Truth:
    """Truth from a gesetze-im-internet XML file (``<dokumente>/<norm>``, gii-norm.dtd 1.01): a norm
    with ``<gliederungseinheit>`` is a structural unit (number ``gliederungsbez`` such as
    ``Abschnitt 2``, title ``gliederungstitel``, depth = length of ``gliederungskennzahl`` / 3); a
    norm with ``<enbez>`` (``§ 5``, ``Art 3``, ``Anlage 1``; not ``Inhaltsübersicht``, ``Eingangsformel``,
    ``Schlussformel``, which are printed headings and count as labels) is a provision
    with title ``titel``, under the last structural unit before it (``Anlage`` at the top). The
    law's first norm (its metadata) is not a section. A leading ``(XXXX)`` (juris's placeholder before
    a range of repealed norms, ``(XXXX) §§ 3 bis 6``) is not part of the number. No terms are marked, so no definitions.
    Raises ``xml.etree.ElementTree.ParseError`` on malformed XML."""
    from xml.etree import ElementTree as ET

    root = ET.fromstring(path.read_bytes())
    truth = Truth()
    for dt in root.iter("DT"):  # a Nummer's label, "1." / "2.6.1" / "a)": a list item of the norm
        label = " ".join("".join(dt.itertext()).split())
        if label:
            truth.items[sr.norm_number(label)] += 1
    units: list[tuple[int, int]] = []  # (depth, truth index)
    for norm in root.iter("norm"):
        md = norm.find("metadaten")
        if md is None:
            continue
        ge = md.find("gliederungseinheit")
        enbez = (md.findtext("enbez") or "").strip()
        if ge is not None:
            kz = (ge.findtext("gliederungskennzahl") or "").strip()
            depth = max(1, len(kz) // 3)
            number = " ".join((ge.findtext("gliederungsbez") or "").split()) or None
            title = " ".join("".join(ge.find("gliederungstitel").itertext()).split()) if ge.find("gliederungstitel") is not None else ""
            while units and units[-1][0] >= depth:
                units.pop()
            parent = units[-1][1] if units else None
            truth.sections.append({"number": number, "title": title, "level": len(units) + 1,
                                   "parent_index": parent, "kennzahl": kz})
            truth.labels[_key(number, title)] += 1
            units.append((depth, len(truth.sections) - 1))
            continue
        if not enbez:
            continue
        if enbez.lower().startswith(("inhalt", "eingangsformel", "schlussformel")):
            truth.labels[_key(None, " ".join(enbez.split()))] += 1  # printed as a heading, not a provision
            continue
        number = re.sub(r"^\(X+\)\s*", "", " ".join(enbez.split()))  # juris's "(XXXX)" before a repealed range
        title_el = md.find("titel")
        title = " ".join("".join(title_el.itertext()).split()) if title_el is not None else ""
        if not number and re.match(r"§§?\s*\d", title):  # "(XXXX)" + titel "§§ 2354 bis 2359": the range is the number
            number, title = title, ""
        top = number.lower().startswith(("anlage", "anhang"))
        parent = None if top or not units else units[-1][1]
        level = 1 if parent is None else truth.sections[parent]["level"] + 1
        truth.sections.append({"number": number, "title": title or None, "level": level, "parent_index": parent})
        truth.labels[_key(number, title)] += 1
    return truth


_RFC_TEXT_HEADING = re.compile(r"^(?:(Appendix\s+[A-Z]|[A-Z](?:\.\d+)*|\d+(?:\.\d+)*)\.?\s+)?(\S.*?)\s*$")


def displayed_rfc_headings(text: str) -> list[tuple[str | None, str]]:
    """(number, title) of every heading an RFC Editor text file displays: a line at the margin
    (RFC text indents body lines), after a blank line (or a page break) and at most 72
    characters, that is not a page header (``RFC 7511 … April 2015``), footer (``… [Page 3]``)
    or the two-column front page header (``Independent Submission     M. Wilhelm``)."""
    out = []
    prev = ""
    for line in text.splitlines():
        line = line.rstrip("\f").rstrip()
        if (not prev.strip() and line[:1].isalnum() and len(line) <= 72 and not re.search(r"\S\s{3,}\S", line)
                and not re.search(r"\[Page \d+\]$", line) and not re.match(r"^RFC \d+\s", line)):
            m = _RFC_TEXT_HEADING.match(line)
            if m:
                out.append((m.group(1), m.group(2)))
        prev = line if not re.search(r"\[Page \d+\]$", line) else ""
    return out


def as_displayed_rfc_text(truth: Truth, text: str) -> Truth:
    """Truth from an RFC's Markdown twin held to what its RFC Editor text displays: a truth
    number the text does not print for that title is dropped (RFC 7511's back-matter
    ``Acknowledgements`` is printed unnumbered, not ``Appendix A``), and every heading the text
    prints (``Status of This Memo``, ``Table of Contents``, ``7.  References``, ``Author's
    Address``, which the RFC tools generate and the Markdown does not hold) is a markup label, so
    a section made of it is not running text."""
    return _held_to_display(truth, displayed_rfc_headings(text))


_HTML_HEADING = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1\s*>", re.I | re.S)
_HTML_NUMBER = re.compile(r"^((?:Appendix|Annex)\s+[A-Z0-9]+(?:\.\d+)*|[A-Z](?:\.\d+)+|\d+(?:\.\d+)*)\.?\s+(\S.*)$")


def displayed_html_headings(html_text: str) -> list[tuple[str | None, str]]:
    """(number, title) of every ``<h1>``-``<h6>`` an HTML page displays, tags and entities
    removed; a leading printed number (``1.2.``, ``A.1``, ``Appendix A.``, ``Annex B``) is split off."""
    import html as _html

    out = []
    for m in _HTML_HEADING.finditer(html_text):
        text = " ".join(_html.unescape(_TAG.sub(" ", m.group(2))).replace("\u00b6", " ").split())
        if not text:
            continue
        nm = _HTML_NUMBER.match(text)
        if nm and _DATE_REST.match(nm.group(2)):  # "17 August 2021" is a date, not section 17
            nm = None
        out.append((nm.group(1), nm.group(2).strip()) if nm else (None, text))
    return out


def as_displayed_html(truth: Truth, html_text: str) -> Truth:
    """Truth from a Markdown twin held to what its HTML rendering displays, as
    :func:`as_displayed_rfc_text` does for RFC text: a number the page does not print for that title
    is dropped, and every heading the page displays (``Table of Contents``, ``References``,
    ``Authors' Addresses``, which the rendering tools generate) is a markup label."""
    return _held_to_display(truth, displayed_html_headings(html_text))


def _held_to_display(truth: Truth, shown: list[tuple[str | None, str]]) -> Truth:
    numbers = {sr.norm_number(n) for n, _ in shown if n}
    titles = {sr.norm_title(t) for _, t in shown}
    for t in truth.sections:
        n = t.get("number")
        if n and sr.norm_number(n) not in numbers and sr.norm_number(re.sub(r"^(?:Appendix|Annex)\s+", "", n)) not in numbers \
                and sr.norm_title(t.get("title")) in titles:
            truth.labels[_key(n, t.get("title"))] -= 1
            t["number"] = None
            truth.labels[_key(None, t.get("title"))] += 1
    for n, t in shown:
        truth.labels[_key(n, t)] += 1
    truth.labels = Counter({k: v for k, v in truth.labels.items() if v > 0 and k})
    return truth


_CLML_CONTAINERS = ("Part", "Chapter", "Pblock", "PsubBlock", "Schedule")


def read_clml(path: Path) -> Truth:
    """Truth from a UK CLML file (legislation.gov.uk ``<Legislation>``): every ``Part``,
    ``Chapter``, ``Pblock``/``PsubBlock`` (a cross-heading: title only) and ``Schedule`` is a
    division (number its ``<Number>`` -- ``Part 1``, ``Schedule 2`` -- title its ``<Title>``, a
    schedule's in its ``TitleBlock``); every ``P1`` is a provision (number its ``<Pnumber>``, title
    the ``<Title>`` of the ``P1group`` holding it, if any), the unit cited ``s 5`` / ``section 5``
    (a schedule's ``P1`` is its paragraph). Parent = the nearest enclosing division in the XML tree.
    ``P2``-``P6`` are the provisions' own numbered items, and a ``BlockAmendment`` quotes another
    law's text: neither is a truth section. Definitions: the
    ``<Term>`` elements the markup states. Labels: the truth sections' headings and every
    ``<Title>``/``<Number>`` printed outside the body (the Act's title, ``Explanatory Note``). Raises ``xml.etree.ElementTree.ParseError`` on malformed XML."""
    from xml.etree import ElementTree as ET

    root = ET.fromstring(path.read_bytes())

    def local(el) -> str:
        return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""

    def text_of(el) -> str:
        return " ".join("".join(el.itertext()).split()) if el is not None else ""

    def child(el, name):
        return next((c for c in el if local(c) == name), None)

    truth = Truth()
    skipped = ("Metadata", "PrimaryPrelims", "SecondaryPrelims", "ExplanatoryNotes", "EarlierOrders", "Footnotes",
               "Commentaries", "Contents")
    for el in root.iter():
        if local(el) == "Term" and text_of(el):
            truth.definitions.append({"term": text_of(el)})
        elif local(el) in skipped[1:]:  # printed titles outside the body: the Act's title, "Explanatory Note"
            for t in el.iter():
                if local(t) in ("Title", "Number") and text_of(t):
                    truth.labels[_key(None, text_of(t))] += 1

    def walk(el, parent: int | None, level: int, group_title: str | None) -> None:
        for c in el:
            name = local(c)
            if name in skipped or name == "BlockAmendment":  # quoted amending text is not this law's structure
                continue
            if name in _CLML_CONTAINERS:
                number = text_of(child(c, "Number")) or None
                title_el = child(c, "Title")
                if title_el is None and child(c, "TitleBlock") is not None:
                    title_el = child(child(c, "TitleBlock"), "Title")
                title = text_of(title_el) or None
                truth.sections.append({"number": number, "title": title, "level": level, "parent_index": parent})
                truth.labels[_key(number, title)] += 1
                walk(c, len(truth.sections) - 1, level + 1, None)
            elif name == "P1group":
                walk(c, parent, level, text_of(child(c, "Title")) or None)
            elif name == "P1":
                number = text_of(child(c, "Pnumber")) or None
                truth.sections.append({"number": number, "title": group_title, "level": level, "parent_index": parent})
                truth.labels[_key(number, group_title)] += 1
            else:
                walk(c, parent, level, group_title)

    walk(root, None, 1, None)
    return truth


def read_html_spec(path: Path) -> Truth:
    """Truth from a rendered HTML specification (Bikeshed or ReSpec output, as published on a
    ``gh-pages`` branch): the numbers are in the markup, ``<span class="secno">2.1. </span>`` /
    ``<bdi class="secno">2.1 </bdi>`` inside an ``<h2>``-``<h6>``. A heading with a section number
    is a truth section (number without the trailing ``.``, title the heading's other text, level
    and parent from the heading levels: the nearest previous numbered heading of a lower level);
    a heading without one (``Abstract``, ``Status of this document``, ``Index``, ``References``,
    the ``<h1>`` title) is a markup label. Definitions: every ``<dfn>`` outside ``<pre>`` blocks
    (its visible text), as the ReSpec truth of ``bench/realdocs`` counts them."""
    import html as _html

    text = path.read_text(encoding="utf-8", errors="replace")
    truth = Truth()
    stack: list[tuple[int, int]] = []
    for m in re.finditer(r"<h([1-6])\b[^>]*>(.*?)</h\1\s*>", text, re.I | re.S):
        level, inner = int(m.group(1)), m.group(2)
        sec = re.search(r"<(span|bdi)\b[^>]*class=\"[^\"]*\bsecno\b[^\"]*\"[^>]*>(.*?)</\1>", inner, re.S)
        number = " ".join(_html.unescape(_TAG.sub("", sec.group(2))).split()).rstrip(".") if sec else None
        rest = inner[:sec.start()] + inner[sec.end():] if sec else inner
        title = " ".join(_html.unescape(_TAG.sub(" ", rest)).replace("\u00b6", " ").replace("§", " ").split())
        if not number or level == 1:
            truth.labels[_key(None, title)] += 1
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        truth.sections.append({"number": number, "title": title or None, "level": len(stack) + 1,
                               "parent_index": stack[-1][1] if stack else None})
        truth.labels[_key(number, title)] += 1
        stack.append((level, len(truth.sections) - 1))
    outside_pre = re.sub(r"<pre\b.*?</pre\s*>", " ", text, flags=re.I | re.S)
    for m in re.finditer(r"<dfn\b[^>]*>(.*?)</dfn\s*>", outside_pre, re.I | re.S):
        term = " ".join(_html.unescape(_TAG.sub("", m.group(1))).split())
        if term:
            truth.definitions.append({"term": term})
    truth.labels = Counter({k: v for k, v in truth.labels.items() if v > 0 and k})
    return truth


_AKN_CONTAINERS = ("book", "tome", "part", "title", "subtitle", "chapter", "subchapter", "section", "subsection",
                   "division", "subdivision")


def read_akn(path: Path) -> Truth:
    """Truth from an Akoma Ntoso act (any AKN namespace; Legilux, Luxembourg's consolidated acts):
    inside ``<body>``, every container (``book``, ``part``, ``title``, ``chapter``, ``section``,
    ``subsection``, ``division``…) is a division -- number its ``<num>`` as printed (``Chapitre
    Ier``, ``TITRE 1er``, ``Section 2``; a trailing ``.`` / ``.-`` separator dropped), title its
    ``<heading>`` -- and every ``<article>`` a provision (number its ``<num>``, ``Art. 11bis``,
    title its ``<heading>`` if it has one, cited by the number after ``Art.``: ``article
    11bis``). Parent = the nearest enclosing container. Numbered ``<paragraph>`` / ``<point>``
    are the articles' own items, and ``<quotedStructure>`` / ``<embeddedStructure>`` quote another
    act's text: neither is a truth section. Definitions: ``<def>`` elements, if the markup has
    any. Labels: the division headings and the preface's lines (the act's title). Raises
    ``xml.etree.ElementTree.ParseError`` on malformed XML."""
    from xml.etree import ElementTree as ET

    root = ET.fromstring(path.read_bytes())

    def local(el) -> str:
        return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""

    def text_of(el) -> str:  # what is displayed: editors' comments and note markers are not
        def parts(e):
            if local(e) in ("comment", "noteRef", "authorialNote"):
                return [e.tail or ""]
            return [e.text or ""] + [x for c in e for x in parts(c)] + [e.tail or ""]
        return " ".join("".join(parts(el)[:-1]).split()) if el is not None else ""

    def child(el, name):
        return next((c for c in el if local(c) == name), None)

    def num_of(el) -> str:
        return re.sub(r"[\s.:–—-]+$", "", text_of(child(el, "num"))).strip()

    truth = Truth()
    for el in root.iter():
        if local(el) == "preface":
            for p in el.iter():
                if local(p) == "p" and text_of(p):
                    truth.labels[_key(None, text_of(p))] += 1
        elif local(el) == "def" and text_of(el):
            truth.definitions.append({"term": text_of(el).strip("«»“”\"' ")})
    body = next((el for el in root.iter() if local(el) == "body"), None)

    def walk(el, parent: int | None, level: int) -> None:
        for c in el:
            name = local(c)
            if name in ("quotedStructure", "embeddedStructure", "meta", "num", "heading"):
                continue
            if name in _AKN_CONTAINERS or name == "article":
                number = num_of(c) or None
                title = text_of(child(c, "heading")) or None
                entry = {"number": number, "title": title, "level": level, "parent_index": parent}
                if name == "article" and number:
                    entry["cite"] = re.sub(r"^(?:Art\.?|Article)\s*", "", number)
                truth.sections.append(entry)
                truth.labels[_key(number, title)] += 1
                if name != "article":
                    walk(c, len(truth.sections) - 1, level + 1)
            else:
                walk(c, parent, level)

    if body is not None:
        walk(body, None, 1)
    return truth


READERS = {"markdown": read_markdown, "docx": read_docx, "gii": read_gii, "clml": read_clml, "akn": read_akn,
           "html": read_html_spec}


# ---------------------------------------------------------------- measuring one document


@dataclass
class Result:
    """Figures for one document (counts; ratios are formed when pooling)."""

    doc: str
    kind: str
    sections: int = 0
    matched: int = 0
    parent_scored: int = 0
    parent_ok: int = 0
    collisions: int = 0
    running_text: int = 0
    subitems: int = 0
    definitions: int = 0
    definitions_found: int = 0
    queries: int = 0
    queries_ok: int = 0
    seconds: float = 0.0
    error: str = ""
    details: dict = field(default_factory=dict)


def _tree_of(path: Path, key: str):
    from docstrata.convert import convert_file
    from docstrata.models import SourceFile
    from docstrata.structure import build_tree

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_tree(convert_file(SourceFile(key, str(path), None)))


def running_text_sections(truth: Truth, ours: list, m: dict[int, int]) -> tuple[list[str], list[str]]:
    """(sections from running text, sub-items) among our unmatched sections: a sub-item is nested under
    its provision and numbered ``(1)`` / ``a)``, or has its provision's id plus a bracketed number
    (``article-8(1)``), or is an article's ``§ N`` paragraph qualified by it (``article-8/2``)."""
    left = Counter(truth.labels)
    matched = set(m.values())
    for j in matched:
        s = ours[j]
        left[_key(s.number, s.title)] -= 1
    running, sub = [], []
    items = Counter(truth.items)
    for j, s in enumerate(ours):
        if j in matched or s.section_id == "preamble":
            continue
        k = _key(s.number, s.title)
        kt = sr.norm_title(s.title)
        if left.get(k, 0) > 0:
            left[k] -= 1
            continue
        if kt and left.get(kt, 0) > 0:
            left[kt] -= 1
            continue
        num = sr.norm_number(s.number)
        if num and items.get(num, 0) > 0:  # a list item the markup states (a German Nummer "1.")
            items[num] -= 1
            sub.append(s.section_id)
            continue
        if s.parent_id and re.fullmatch(r"\(?[0-9a-zA-Z]{1,4}\)", (s.number or "").strip()):
            sub.append(s.section_id)
            continue
        if s.parent_id and (
            s.section_id.startswith(s.parent_id + "(")
            or s.section_id.startswith(s.parent_id + "/") and re.fullmatch(r"§\s?\w{1,8}", (s.number or "").strip())
        ):
            # an item whose id is its provision's plus its bracketed number (article-8(1), a Belgian limb
            # "1." or "A."), or an article's "§ 2" paragraph qualified by it (article-8/2): a provision's
            # sub-item, as a "(1)" is, which a reader of headings does not count
            sub.append(s.section_id)
            continue
        running.append(f"{s.section_id} {s.title[:50]!r}")
    return running, sub


def citation_queries(doc: dict, truth: Truth, n: int) -> list[tuple[str, int]]:
    """(query, truth index) pairs: numbered truth sections sampled with the document's name as
    seed, each written in the manifest's citation styles taken in turn."""
    styles = doc.get("citation") or []
    numbered = [i for i, t in enumerate(truth.sections)  # ranges ("§§ 17 bis 19") cite no one section
                if t.get("number") and " " not in re.sub(r"^(?:§§?|Appendix|Annex|Anhang|Anlage|Article)\s*", "",
                                                         t.get("cite") or t["number"])]
    if not styles or not numbered:
        return []
    rng = random.Random(doc["input"])
    pick = sorted(rng.sample(numbered, min(n, len(numbered))))
    out = []
    for q, i in enumerate(pick):
        num = truth.sections[i].get("cite") or truth.sections[i]["number"]
        bare = re.sub(r"^(?:§§?|Appendix|Annex|Anhang|Anlage|Article)\s*", "", num).strip()
        if num.lower().startswith(("appendix", "annex", "anhang", "anlage")) or re.match(r"^[A-Z]\.\d", num):
            # in the document's own word: an OASIS "Annex A", a German "Anlage 1" is not cited "Appendix"
            word = num.split()[0] if num.lower().startswith(("appendix", "annex", "anhang", "anlage")) else "Appendix"
            qs = f"{word} {bare}"
        else:
            style = styles[q % len(styles)]
            if style == "{n}" and "." not in bare:  # a bare "3" names nothing; a bare "4.2" does
                style = styles[0]
            # {fr}: the French printed form of a code article number, "L111-4" -> "L. 111-4"
            qs = style.format(n=bare, fr=re.sub(r"^([LRDA])\*{0,2}\.?\s?(?=\d)", r"\1. ", bare))
        out.append((qs, i))
    return out


def exact_top1(files: list[Path], queries: list[tuple[str, int]], want: dict[int, object], parents: dict[str, str | None],
               work: Path) -> tuple[int, list[str]]:
    """How many queries put the wanted section first, with a tool holding only ``files``;
    ``parents`` maps our section ids to their parent ids (to tell a hit inside a heading-only
    section)."""
    from docstrata.config import parse_config
    from docstrata.tools import build_tool

    src = work / "source"
    src.mkdir(parents=True, exist_ok=True)
    for f in files:
        shutil.copy2(f, src / f.name)
    cfg = parse_config({"tools": [{"name": "fresh", "type": "hierarchical_document", "source": str(src)}]},
                       base_dir=work).tools[0]
    tool = build_tool(cfg, work)
    ok, wrong = 0, []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tool.ingest()
        for q, i in queries:
            target = want.get(i)
            hits = tool.search(q, top_k=1)
            sid = hits[0].section_id if hits else None
            inside, k, seen = False, sid, set()
            while k and k not in seen and target is not None:
                seen.add(k)
                k = parents.get(k)
                inside = inside or k == target.section_id
            right = target is not None and sid is not None and (
                sid == target.section_id or (not (target.text or "").strip() and inside))
            ok += right
            if not right:
                wrong.append(f"{q!r} -> {sid!r} (want {getattr(target, 'section_id', None)!r})")
    finally:
        tool.close()
    return ok, wrong


def document_pairs(doc: dict, root: Path) -> list[tuple[Path, Path]]:
    """(input docstrata reads, file truth is read from) for one manifest entry: one pair per file of a
    Markdown tree, else the input and its ``truth.source``."""
    inp = root / doc["input"]
    if inp.is_dir():
        return [(p, p) for p in sorted(inp.rglob("*.md"))]
    return [(inp, root / doc["truth"]["source"])]


def truth_of(doc: dict, path: Path, src: Path) -> Truth:
    """Truth for one document, read only from markup (``src``, and for the display labels of an RFC
    text, or of an HTML rendering whose manifest entry says ``"display": "html"``, the input's own
    headings) -- never from docstrata."""
    t = doc["truth"]
    reader = READERS[t["reader"]]
    truth = (read_markdown(src.read_text(encoding="utf-8"), t.get("numbering", "none"),
                           defined_terms=t.get("definitions") == "defined-terms",
                           definition_sections=tuple(t.get("definition_sections", ()))) if t["reader"] == "markdown"
             else read_docx_list_clauses(src) if t["reader"] == "docx" and t.get("clauses") == "list"
             else read_docx(src, clauses=bool(t.get("clauses"))) if t["reader"] == "docx" else reader(src))
    if doc["kind"] == "rfc-text":  # truth from the Markdown twin, held to what the text displays
        truth = as_displayed_rfc_text(truth, path.read_text(encoding="utf-8", errors="replace"))
    elif t.get("display") == "html":  # an HTML rendering of a Markdown twin: held to its <h1>-<h6>
        truth = as_displayed_html(truth, path.read_text(encoding="utf-8", errors="replace"))
    return truth


def run_document(doc: dict, root: Path, n_queries: int, counts_only: bool) -> list[Result]:
    """Results for one manifest entry (a Markdown tree gives one result per file)."""
    pairs = document_pairs(doc, root)
    inp = root / doc["input"]
    out = []
    for path, src in pairs:
        # keyed as the tool keys it (path inside its source folder), so both see the same document
        key = path.relative_to(inp).as_posix() if inp.is_dir() else path.name
        r = Result(path.relative_to(root).as_posix(), doc["kind"])
        t0 = time.perf_counter()
        truth = truth_of(doc, path, src)
        r.sections, r.definitions = len(truth.sections), len(truth.definitions)
        queries = citation_queries(doc, truth, n_queries)
        r.queries = len(queries)
        try:
            tree = _tree_of(path, key)
            m = sr.match_sections(truth.sections, tree.sections)
            r.matched = len(m)
            for i in m:
                r.parent_scored += 1
                r.parent_ok += sr.parent_right(i, truth.sections, tree.sections, m)
            coll = sr.collisions(tree)
            r.collisions = len(coll)
            running, sub = running_text_sections(truth, tree.sections, m)
            r.running_text, r.subitems = len(running), len(sub)
            ours = {sr._norm_term(d.term) for d in tree.definitions}
            r.definitions_found = sum(1 for d in truth.definitions if sr._norm_term(d["term"]) in ours)
            if queries:
                with tempfile.TemporaryDirectory(prefix="fresh-real-") as tmp:
                    want = {i: tree.sections[m[i]] for i in m}
                    parents = {x.section_id: x.parent_id for x in tree.sections}
                    r.queries_ok, wrong_q = exact_top1([path], queries, want, parents, Path(tmp))
            else:
                wrong_q = []
            if not counts_only:
                r.details = {"misses": [f"{x.get('number') or ''} {x.get('title') or ''}".strip()
                                        for i, x in enumerate(truth.sections) if i not in m][:15],
                             "collisions": coll[:10], "running_text": running[:15], "wrong_queries": wrong_q[:15],
                             "definitions_missed": [d["term"] for d in truth.definitions
                                                    if sr._norm_term(d["term"]) not in ours][:15]}
        except Exception as e:  # a failure is a figure: every truth section and query missed
            r.error = f"{type(e).__name__}: {e}"[:300]
        r.seconds = time.perf_counter() - t0
        out.append(r)
    return out


# ---------------------------------------------------------------- pooling and report

_FIELDS = ("sections", "matched", "parent_scored", "parent_ok", "collisions", "running_text", "subitems",
           "definitions", "definitions_found", "queries", "queries_ok")


def pool(results: list[Result], name: str) -> dict:
    """Pooled counts and ratios (None where nothing was measured)."""
    c = {k: sum(getattr(r, k) for r in results) for k in _FIELDS}
    ratio = lambda a, b: (c[a] / c[b]) if c[b] else None  # noqa: E731
    return {"name": name, "documents": len(results), "errors": sum(bool(r.error) for r in results), **c,
            "section_recall": ratio("matched", "sections"), "parent_accuracy": ratio("parent_ok", "parent_scored"),
            "id_collisions": c["collisions"], "running_text_sections": c["running_text"],
            "definition_recall": ratio("definitions_found", "definitions"), "exact_top1": ratio("queries_ok", "queries")}


def verdict(total: dict) -> dict[str, bool]:
    """Pass/fail per threshold of issue 28 (a ratio with nothing measured fails)."""
    out = {}
    for k, lim in THRESHOLDS.items():
        v = total[k]
        out[k] = (v is not None and v >= lim) if isinstance(lim, float) else v <= lim
    out["no_errors"] = total["errors"] == 0
    return out


def load_manifest(root: Path, check: bool = True, manifest: Path = MANIFEST) -> list[dict]:
    """Entries of ``manifest``; with ``check``, every listed file must exist under ``root`` with the
    listed sha256. Raises ``SystemExit`` (status 2) naming the first bad file."""
    data = json.loads(manifest.read_text())
    if check:
        for doc in data["documents"]:
            for f in doc["files"]:
                p = root / f["file"]
                if not p.is_file():
                    raise SystemExit(f"{p}: missing (refetch {f['repo']}@{f['commit']}:{f['path']})")
                h = hashlib.sha256(p.read_bytes()).hexdigest()
                if h != f["sha256"]:
                    raise SystemExit(f"{p}: sha256 {h} differs from the manifest's {f['sha256']}")
    return data["documents"]


def extract_from(mirrors: Path, root: Path, manifest: Path) -> int:
    """Refetch: write every file of ``manifest`` under ``root`` from local git snapshots of its
    repositories (``mirrors/<owner>+<name>/repo`` or ``mirrors/<owner>+<name>``, a git directory
    as the search tool's ``fetch`` leaves it, or a clone), ``git show <commit>:<path>``, and check
    its sha256; a file already present with the listed sha256 is kept (those marked ``via``
    read_file came through the search index, not a snapshot: write them from its ``read_file``
    text). Returns how many files are missing or differ (0 = all written and verified)."""
    import subprocess

    bad = 0
    for doc in json.loads(manifest.read_text())["documents"]:
        for f in doc["files"]:
            have = root / f["file"]
            if have.is_file() and hashlib.sha256(have.read_bytes()).hexdigest() == f["sha256"]:
                continue  # already there (a file read through the search index has no snapshot to come from)
            name = f["repo"].replace("/", "+")
            gits = [d for d in (mirrors / name / "repo", mirrors / name, mirrors / f["repo"]) if d.exists()]
            if not gits:
                print(f"no snapshot of {f['repo']} under {mirrors}", file=sys.stderr)
                bad += 1
                continue
            res = subprocess.run(["git", "--git-dir" if (gits[0] / "HEAD").is_file() else "-C", str(gits[0]),
                                  "show", f"{f['commit']}:{f['path']}"], capture_output=True)
            if res.returncode:
                print(f"{f['repo']}@{f['commit']}:{f['path']}: {res.stderr.decode(errors='replace').strip()}",
                      file=sys.stderr)
                bad += 1
                continue
            out = root / f["file"]
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(res.stdout)
            if hashlib.sha256(res.stdout).hexdigest() != f["sha256"]:
                print(f"{out}: sha256 differs from the manifest", file=sys.stderr)
                bad += 1
    return bad


def truth_report(docs: list[dict], root: Path, n_queries: int, verbose: bool) -> int:
    """Print truth counts per document and per kind -- read from markup only, docstrata is never
    run (so the corpus stays unseen). With ``verbose``, every truth section (level, number,
    title, parent), definition and exact-reference query, for spot-checks against the document's
    display. Returns 2 when a truth reader fails, else 0."""
    rows, failed = [], 0
    for doc in docs:
        for path, src in document_pairs(doc, root):
            name = path.relative_to(root).as_posix()
            try:
                truth = truth_of(doc, path, src)
            except Exception as e:  # a truth reader failing is a setup error
                print(f"ERROR {name}: {type(e).__name__}: {e}")
                failed += 1
                continue
            qs = citation_queries(doc, truth, n_queries)
            numbered = sum(1 for t in truth.sections if t.get("number"))
            rows.append((doc["kind"], name, len(truth.sections), numbered, len(truth.definitions), len(qs),
                         sum(truth.labels.values())))
            if verbose:
                print(f"== {name}: {len(truth.sections)} sections ({numbered} numbered), "
                      f"{len(truth.definitions)} definitions, {len(qs)} queries")
                for i, t in enumerate(truth.sections):
                    par = t.get("parent_index")
                    pt = truth.sections[par] if par is not None else None
                    print(f"  {i:4d} L{t['level']} {t.get('number') or '-':>16}  {(t.get('title') or '')[:70]}"
                          + (f"   <- {pt.get('number') or pt.get('title', '')[:30]}" if pt else ""))
                for d in truth.definitions:
                    print(f"  def: {d['term']}")
                for q, i in qs:
                    print(f"  query: {q!r} -> {truth.sections[i].get('number')}")
    print(f"{'kind':22} {'document':58} {'secs':>5} {'numbd':>5} {'defs':>5} {'qs':>4} {'labels':>6}")
    for r in rows:
        print(f"{r[0]:22} {r[1][-58:]:58} {r[2]:5d} {r[3]:5d} {r[4]:5d} {r[5]:4d} {r[6]:6d}")
    print()
    print(f"{'kind':22} {'docs':>4} {'secs':>6} {'numbd':>6} {'defs':>5} {'qs':>5}")
    kinds = sorted({r[0] for r in rows})
    for k in kinds + ["TOTAL"]:
        rs = [r for r in rows if k in (r[0], "TOTAL")]
        print(f"{k:22} {len(rs):4d} {sum(r[2] for r in rs):6d} {sum(r[3] for r in rs):6d} "
              f"{sum(r[4] for r in rs):5d} {sum(r[5] for r in rs):5d}")
    return 2 if failed else 0


def _fmt(v) -> str:
    return "  -  " if v is None else f"{v:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kind", help="only this kind")
    ap.add_argument("--doc", help="only documents whose input path contains this")
    ap.add_argument("--one-per-kind", action="store_true", help="first document of each kind (smoke test)")
    ap.add_argument("--counts-only", action="store_true",
                    help="run end to end but print only corpus sizes and errors, no scores (keeps the corpus unseen)")
    ap.add_argument("--truth-only", action="store_true",
                    help="print truth counts per document without running docstrata (-v: every truth section)")
    ap.add_argument("--manifest", type=Path, default=MANIFEST, help="manifest of documents (default %(default)s)")
    ap.add_argument("--extract-from", type=Path, metavar="DIR",
                    help="first write the manifest's files into $DOCSTRATA_FRESH_DOCS from git snapshots under DIR")
    ap.add_argument("--queries", type=int, default=12, help="exact-reference queries per document")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="list misses, collisions, running-text sections, wrong queries")
    args = ap.parse_args(argv)
    root = fresh_root()
    if args.extract_from:
        root.mkdir(parents=True, exist_ok=True)
        if extract_from(args.extract_from, root, args.manifest):
            return 2
    if not root.is_dir():
        print(f"{root} is absent: set DOCSTRATA_FRESH_DOCS (files listed in {args.manifest})", file=sys.stderr)
        return 2
    try:
        docs = load_manifest(root, manifest=args.manifest)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    docs = [d for d in docs if (not args.kind or d["kind"] == args.kind) and (not args.doc or args.doc in d["input"])]
    if args.one_per_kind:
        seen: set[str] = set()
        docs = [d for d in docs if not (d["kind"] in seen or seen.add(d["kind"]))]
    if args.truth_only:
        return truth_report(docs, root, args.queries, args.verbose)
    t0 = time.perf_counter()
    results: list[Result] = []
    for d in docs:
        results += run_document(d, root, args.queries, args.counts_only)
    kinds = sorted({r.kind for r in results})
    per_kind = [pool([r for r in results if r.kind == k], k) for k in kinds]
    total = pool(results, "TOTAL")
    if args.counts_only:
        print(f"{'kind':24} {'docs':>4} {'errors':>6} {'sections':>8} {'definitions':>11} {'queries':>7}")
        for p in per_kind + [total]:
            print(f"{p['name']:24} {p['documents']:4d} {p['errors']:6d} {p['sections']:8d} {p['definitions']:11d} {p['queries']:7d}")
        for r in results:
            if r.error:
                print(f"ERROR {r.doc}: {r.error}")
        print(f"{time.perf_counter() - t0:.0f} s")
        return 2 if total["errors"] else 0
    ok = verdict(total)
    if args.json:
        print(json.dumps({"per_kind": per_kind, "total": total, "pass": ok,
                          "documents": [r.__dict__ for r in results]}, indent=1))
        return 0 if all(ok.values()) else 1
    head = (f"{'':24} {'docs':>4} {'secs':>5} {'recall':>6} {'parent':>6} {'coll':>4} {'runtxt':>6} {'subit':>5} "
            f"{'defs':>5} {'defrec':>6} {'qs':>4} {'exact1':>6}")
    if args.verbose:
        for r in results:
            print(f"{r.doc}: recall {r.matched}/{r.sections} parent {r.parent_ok}/{r.parent_scored} coll {r.collisions} "
                  f"running {r.running_text} defs {r.definitions_found}/{r.definitions} exact {r.queries_ok}/{r.queries}"
                  + (f" ERROR {r.error}" if r.error else ""))
            for k, v in r.details.items():
                for x in v:
                    print(f"    {k}: {x}")
    print(head)
    for p in per_kind + [total]:
        print(f"{p['name']:24} {p['documents']:4d} {p['sections']:5d} {_fmt(p['section_recall']):>6} "
              f"{_fmt(p['parent_accuracy']):>6} {p['id_collisions']:4d} {p['running_text_sections']:6d} {p['subitems']:5d} "
              f"{p['definitions']:5d} {_fmt(p['definition_recall']):>6} {p['queries']:4d} {_fmt(p['exact_top1']):>6}"
              + (f"  ({p['errors']} failed)" if p["errors"] else ""))
    print()
    for k, lim in THRESHOLDS.items():
        v = total[k]
        print(f"{k:24} {(_fmt(v) if isinstance(v, float) or v is None else str(v)):>6}  "
              f"{'>=' if isinstance(lim, float) else '<='} {lim}  {'PASS' if ok[k] else 'FAIL'}")
    print(f"{'documents converted':24} {total['documents'] - total['errors']}/{total['documents']}  "
          f"{'PASS' if ok['no_errors'] else 'FAIL'}")
    print(f"\n{'ALL PASS' if all(ok.values()) else 'NOT ALL PASS'}  ({time.perf_counter() - t0:.0f} s)")
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
