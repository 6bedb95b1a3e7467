"""US Congress bill XML (the House and Senate bill DTD: root ``<bill>``, ``<legis-body>``,
``<section>`` … ``<subclause>``, each with ``<enum>`` and ``<header>``) read as legislation XML.

Sections and their numbered provisions nest as the elements do (ids ``5``, ``9(1)``,
``2(c)(2)(A)(i)``); a ``<quoted-block>`` (the text an amendment inserts, "Sec. 5203. …") is text of
the provision quoting it, never this bill's own section 5203; a ``<toc>`` is no structure; the title
is the ``<dc:title>``; ``The term <term>X</term> means`` is a definition, and so is ``The term
<quote>X</quote> means`` (a ``<quote>`` stands for the quotation marks the bill prints); every
provision's own words are its section's text (inspect counts them, its chunk starts with them).

Real bills, excerpts with each kept element copied unchanged (tests/fixtures/us-bill/NOTICE.md):
H.R. 10 (113th Congress, engrossed), H.R. 3825 (113th Congress, introduced) and H.R. 1063 (113th
Congress, reported). The truth is read from each file's own XML."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import docstrata
from docstrata.convert import convert_file
from docstrata.convert.legislation_xml import US_BILL, detect_dialect, parse_xml
from docstrata.models import FileState, SourceFile
from docstrata.pipeline import PipelineSettings, parse_file
from docstrata.sources import source_file
from docstrata.structure import build_tree

BILLS = Path(__file__).parent / "fixtures" / "us-bill"
HR10 = BILLS / "hr10-113-excerpt.xml"
HR3825 = BILLS / "hr3825-113-excerpt.xml"
HR1063 = BILLS / "hr1063-113-excerpt.xml"
_PROVISIONS = ("section", "subsection", "paragraph", "subparagraph", "clause", "subclause")


def _tree(path: Path):
    doc = convert_file(SourceFile(path.name, str(path), FileState(0, 0, "")))
    return doc, build_tree(doc)


def _provision_tree(path: Path) -> dict[str, tuple[ET.Element, str | None]]:
    """Section id → (the bill's own ``<section>`` … ``<subclause>`` element, its parent's id),
    outside quoted blocks and tables of contents: a ``<section>``'s id is its ``<enum>`` without the
    full stop, a provision's its parent's id followed by its ``<enum>`` (``5(a)(1)``)."""
    out: dict[str, tuple[ET.Element, str | None]] = {}

    def walk(el, parent: str | None) -> None:
        for c in el:
            if c.tag in ("quoted-block", "toc"):
                continue
            if c.tag in _PROVISIONS and c.findtext("enum"):
                enum = c.findtext("enum").strip()
                sid = enum.rstrip(".") if c.tag == "section" else f"{parent}{enum}"
                out[sid] = (c, parent)
                walk(c, sid)
            else:
                walk(c, parent)

    walk(ET.parse(path).getroot().find("legis-body"), None)
    return out


def _stated(path: Path) -> dict[str, str | None]:
    """Section id → parent id, as the bill's elements state them (:func:`_provision_tree`)."""
    return {sid: parent for sid, (_el, parent) in _provision_tree(path).items()}


def _provisions(path: Path) -> dict[str, ET.Element]:
    """Section id → the bill's own element (:func:`_provision_tree`)."""
    return {sid: el for sid, (el, _parent) in _provision_tree(path).items()}


def _words(text: str) -> str:
    """``text`` without quotation marks, whitespace squashed: the printed words."""
    return " ".join(re.sub(r"[“”‘’\"]", "", text).split())


def _quoted_numbers(path: Path) -> set[str]:
    """The section numbers printed inside the bill's quoted blocks (``5203``, ``4286``)."""
    root = ET.parse(path).getroot()
    return {s.findtext("enum").strip().rstrip(".") for q in root.iter("quoted-block") for s in q.iter("section")}


@pytest.fixture(scope="module", params=[HR10, HR3825], ids=["hr10", "hr3825"])
def bill(request):
    doc, tree = _tree(request.param)
    return request.param, doc, tree


def test_bill_dtd_is_recognised_as_legislation_xml(bill):
    path, doc, _ = bill
    assert detect_dialect(parse_xml(path.read_bytes(), path.name)) is US_BILL
    assert not any("generic XML" in w for w in doc.warnings)
    root = ET.parse(path).getroot()
    dc_title = next(e.text for e in root.iter() if e.tag.endswith("}title"))
    assert doc.title == dc_title


def test_sections_and_provisions_nest_as_the_elements_do(bill):
    path, _, tree = bill
    stated = _stated(path)
    got = {s.section_id: s.parent_id for s in tree.sections if s.section_id != "preamble"}
    assert got == stated
    headers = {
        s.findtext("enum").rstrip("."): " ".join(s.findtext("header").split())
        for s in ET.parse(path).getroot().find("legis-body").findall("section")
    }
    titles = {s.section_id: s.title for s in tree.sections}
    for number, header in headers.items():  # "Sec. 5. Grants to support high-quality charter schools"
        assert titles[number] == f"Sec. {number}. {header}"


def test_quoted_blocks_are_text_of_the_quoting_provision(bill):
    path, doc, tree = bill
    ids = {s.section_id for s in tree.sections}
    quoted = _quoted_numbers(path)
    assert quoted and not quoted & ids  # "Sec. 5203." inserted into the Act amended is no section of the bill
    root = ET.parse(path).getroot()
    for q in root.iter("quoted-block"):
        sec = q.find("section")
        if sec is None:
            continue
        line = f"Sec. {sec.findtext('enum').strip()} {' '.join(sec.findtext('header').split())}."
        assert line in doc.markdown  # still searchable
        holder = next(s for s in tree.sections if line in s.text)
        assert holder.section_id in _stated(path)  # cited as the bill's provision that quotes it


def test_hr10_quoted_definitions_and_toc():
    doc, tree = _tree(HR10)
    terms = {d.term: d.section_id for d in tree.definitions}
    # "(i) State entity defined.— … the term “State entity” means—" inside the quoted section 5203
    assert terms["State entity"] == "5"
    assert terms["charter school"] == "9(1)" and terms["high-quality charter school"] == "9(5)"
    # the table-of-contents lines section 11(b) inserts ("Sec. 5203. Grants to support …") are neither
    # sections nor text of the provisions inserting them
    toc_lines = [" ".join(e.text.split()) for e in ET.parse(HR10).getroot().iter("toc-entry")]
    inserting = [s for s in tree.sections if s.section_id.startswith("11(b)")]
    assert toc_lines and len(inserting) > 1
    assert not any(line in s.text for s in inserting for line in toc_lines)


def test_hr3825_deep_provisions_and_definitions():
    _, tree = _tree(HR3825)
    ids = {s.section_id for s in tree.sections}
    assert {"2(c)(2)(A)(i)", "2(c)(2)(E)(i)(I)", "2(n)(4)"} <= ids
    terms = {d.term: d.section_id for d in tree.definitions}
    assert terms["designated entity"] == "2(n)(1)" and terms["State"] == "2(n)(4)"
    assert terms["taxable ground transportation"] == "3(a)"  # in the quoted new section 4286


def _quote_terms(path: Path) -> dict[str, str]:
    """Term → provision id of each ``The term <quote>X</quote> means`` in a provision's own ``<text>``."""
    out = {}
    for sid, el in _provisions(path).items():
        text = el.find("text")
        if text is None:
            continue
        children = list(text)
        for i, q in enumerate(children):
            before = text.text if i == 0 else children[i - 1].tail
            if q.tag == "quote" and re.search(r"\bterm\s*$", before or ""):
                out["".join(q.itertext())] = sid
    return out


def test_quote_terms_are_definitions():
    """H.R. 1063 Sec. 7: ``(1) Inventory.— The term <quote>inventory</quote> means …`` ×4. The converter
    dropped the quotation marks a ``<quote>`` stands for, so no term read as defined (Definitions (0),
    get-definition failed); they are printed as the bill prints them, so each paragraph defines its term."""
    doc, tree = _tree(HR1063)
    expected = _quote_terms(HR1063)
    assert len(expected) == 4 and "quantitative assessment" in expected  # Sec. 7's four terms
    got = {d.term: d.section_id for d in tree.definitions}
    assert {t: got.get(t) for t in expected} == expected  # each in its own paragraph, 7(1) … 7(4)
    assert "The term “quantitative assessment” means a probabilistic estimate" in doc.markdown
    short = ET.parse(HR1063).getroot().find(".//short-title").text
    assert f"cited as the “{short}”." in doc.markdown


def test_quotes_inside_a_quotation_are_single():
    """billres.xsl prints a ``<quote>`` inside a ``<quoted-block>`` in single marks (the quoted Act's own
    quotation), one outside it in double marks."""
    doc, _ = _tree(HR3825)
    root = ET.parse(HR3825).getroot()
    inner = ["".join(q.itertext()) for b in root.iter("quoted-block") for q in b.iter("quote")]
    outer = [e.text for e in root.iter("short-title")]
    assert inner and outer
    assert all(f"‘{w}’" in doc.markdown for w in inner)
    assert all(f"“{w}”" in doc.markdown for w in outer)


def test_every_provision_holds_its_own_words(bill):
    """A provision's ``<text>`` is its section's own text (not a heading line over an empty body)."""
    path, _, tree = bill
    sections = {s.section_id: s for s in tree.sections}
    for sid, el in _provisions(path).items():
        text = el.find("text")
        if text is not None and "".join(text.itertext()).strip():
            assert _words("".join(text.itertext())) in _words(sections[sid].text), sid


def test_inspect_counts_each_provisions_own_tokens():
    """``docstrata inspect`` printed ``0 tokens`` for every provision of an XML bill: the provision's
    line was stored as its heading. Now a provision with words of its own counts them, and one that is
    only a header over its subsections (Sec. 3, Sec. 4, 4(a) has words) counts none of theirs."""
    src = Path(docstrata.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(src) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run(
        [sys.executable, "-m", "docstrata.cli", "inspect", "--json", str(HR1063)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    shown = {s["section_id"]: s["tokens"] for s in json.loads(proc.stdout)["sections"]}
    provisions = _provisions(HR1063)
    own = {sid for sid, el in provisions.items() if el.find("text") is not None}
    assert own and set(provisions) - own  # provisions with words, and header-only ones (Sec. 3, Sec. 4)
    assert all(shown[sid] > 0 for sid in own), {sid: shown[sid] for sid in own if not shown[sid]}
    assert all(shown[sid] == 0 for sid in set(provisions) - own)


def test_a_provision_too_long_for_one_chunk_heads_its_own():
    """Sec. 4(a) ("… shall prepare … a report that includes—") with its eight paragraphs is over a
    200-word budget. Its words were the 'heading' of its first paragraph's chunk (cited as 4(a)(1), typed
    header); now every provision's words start a chunk cited as that provision or an enclosing one."""
    parsed = parse_file(
        source_file(HR1063), PipelineSettings(count_tokens=lambda t: len(t.split()), max_chunk_tokens=200)
    )
    parents = {s.section_id: s.parent_id for s in parsed.tree.sections}

    def encloses(a: str, b: str | None) -> bool:
        while b is not None:
            if a == b:
                return True
            b = parents.get(b)
        return False

    for sid, el in _provisions(HR1063).items():
        text = el.find("text")
        if text is None:
            continue
        words = _words("".join(text.itertext()))[:60]
        holder = next(c for c in parsed.chunks if words in _words(c.content))
        assert encloses(holder.section_id, sid), (sid, holder.section_id)
        assert holder.chunk_type != "header", sid
