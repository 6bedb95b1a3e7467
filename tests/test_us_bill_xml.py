"""US Congress bill XML (the House and Senate bill DTD: root ``<bill>``, ``<legis-body>``,
``<section>`` … ``<subclause>``, each with ``<enum>`` and ``<header>``) read as legislation XML.

Sections and their numbered provisions nest as the elements do (ids ``5``, ``9(1)``,
``2(c)(2)(A)(i)``); a ``<quoted-block>`` (the text an amendment inserts, "Sec. 5203. …") is text of
the provision quoting it, never this bill's own section 5203; a ``<toc>`` is no structure; the title
is the ``<dc:title>``; ``The term <term>X</term> means`` is a definition.

Real bills, excerpts with each kept element copied unchanged (tests/fixtures/us-bill/NOTICE.md):
H.R. 10 (113th Congress, engrossed) and H.R. 3825 (113th Congress, introduced). The truth is read
from each file's own XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.convert.legislation_xml import US_BILL, detect_dialect, parse_xml
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

BILLS = Path(__file__).parent / "fixtures" / "us-bill"
HR10 = BILLS / "hr10-113-excerpt.xml"
HR3825 = BILLS / "hr3825-113-excerpt.xml"
_PROVISIONS = ("section", "subsection", "paragraph", "subparagraph", "clause", "subclause")


def _tree(path: Path):
    doc = convert_file(SourceFile(path.name, str(path), FileState(0, 0, "")))
    return doc, build_tree(doc)


def _stated(path: Path) -> dict[str, str | None]:
    """Section id → parent id, from the bill's own elements outside quoted blocks and tables of
    contents: a ``<section>``'s id is its ``<enum>`` without the full stop, a provision's its
    parent's id followed by its ``<enum>`` (``5(a)(1)``)."""
    out: dict[str, str | None] = {}

    def walk(el, parent: str | None) -> None:
        for c in el:
            if c.tag in ("quoted-block", "toc"):
                continue
            if c.tag in _PROVISIONS and c.findtext("enum"):
                enum = c.findtext("enum").strip()
                sid = enum.rstrip(".") if c.tag == "section" else f"{parent}{enum}"
                out[sid] = parent
                walk(c, sid)
            else:
                walk(c, parent)

    walk(ET.parse(path).getroot().find("legis-body"), None)
    return out


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
