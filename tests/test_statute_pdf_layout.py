"""Statute PDFs in the Commonwealth reprint layout (Laws of Malaysia): marginal-note headings, the
printed Arrangement of Sections, running heads, typography as a resolver feature.

The PDFs are government works without an open licence, so they are not in the repository: the tests
read them from ``$DOCSTRATA_STATUTE_PDFS`` (or ``<shared data>/statute-pdfs``) and skip otherwise.
``bench/statute_pdfs.py`` documents the folder (source repositories, commits) and measures the
whole set; ``docs/benchmarks.md`` ("Statute PDFs in the reprint layout") has the figures.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import SHARED_DATA, convert_path, external_file
from docstrata.structure import build_tree
from docstrata.structure.parse import parse_sections
from docstrata.structure.parse.resolve import ParseContext, load_weights

CONTRACTS_ACT = "my-Act_136.pdf"  # Contracts Act 1950 (Act 136), reprint as at 1 January 2006, 91 pages


def _statute_pdf(name: str) -> Path:
    shared = SHARED_DATA / "statute-pdfs" / name
    if shared.exists():
        return shared
    return external_file("DOCSTRATA_STATUTE_PDFS", name, "a Laws of Malaysia reprint; see bench/statute_pdfs.py")


def _pages(src: Path, pages: list[int], out: Path) -> Path:
    """A PDF of some pages of ``src`` (0-based), text layer kept (pypdfium2)."""
    import pypdfium2 as pdfium

    dst = pdfium.PdfDocument.new()
    dst.import_pages(pdfium.PdfDocument(str(src)), pages)
    dst.save(str(out))
    return out


@pytest.fixture(scope="module")
def contracts_act():
    """The Contracts Act 1950 reprint (91 pages) converted once: cover, Arrangement of Sections, body."""
    return convert_path(_statute_pdf(CONTRACTS_ACT))


@pytest.fixture(scope="module")
def contracts_tree(contracts_act):
    return build_tree(contracts_act, extract_definitions=False, extract_cross_references=False)


def test_marginal_note_sections_take_the_number_of_their_body_line(contracts_tree):
    """"#### What agreements are contracts" above "10. (1) All agreements …": one section 10 titled
    by the marginal note, inside Part III — not a slug section plus a list item."""
    tree = contracts_tree
    by_id = {s.section_id: s for s in tree.sections}

    def words(s) -> int:  # a section's text with its subsections': "10. (1) All agreements …" opens 10(1)
        return len(s.text.split()) + sum(len(x.text.split()) for x in tree.sections
                                         if x.section_id.startswith(s.section_id + "("))

    for number, title in (("10", "What agreements are contracts"), ("11", "Who are competent to contract"),
                          ("19", "Voidability of agreements without free consent")):
        s = by_id.get(number)
        assert s is not None, f"no section {number}: {sorted(by_id)[:40]}"
        assert title in s.title, (number, s.title)
        assert words(s) >= 20, (number, s.text[:200])  # the provision's body, not a contents line
        assert by_id[s.parent_id].number and by_id[s.parent_id].number.upper().startswith("PART III"), \
            (number, s.parent_id)
    slugs = {s.section_id for s in tree.sections if re.fullmatch(r"what-agreements-are-contracts(-\d+)?", s.section_id)}
    assert not slugs


def test_arrangement_of_sections_lines_are_not_sections(contracts_tree):
    """The printed contents ("75. Compensation for breach …" under "PART VII") gave ids like
    ``part-vii(75)`` with no text; the resolver now reads them as contents entries of the body
    sections that follow (their numbers and titles come back with text)."""
    tree = contracts_tree
    contents_ids = [s.section_id for s in tree.sections if re.fullmatch(r"part-[ivx]+\(\d+[a-z]*\)", s.section_id)
                    and re.match(r"\d+[A-Z]*\.\s", s.title)]  # "75. Compensation …", not a "(2) …" item
    assert "part-vii(75)" not in contents_ids
    numbers = [s.section_id for s in tree.sections if re.fullmatch(r"\d+[A-Z]*", s.section_id)]
    # one wrapped entry ("35. When event … deemed impossible, if / it is the future conduct …") whose
    # body prints its note differently has no evidence against it: contents lines are the exception
    assert len(contents_ids) * 20 < len(numbers), contents_ids
    numbers = [s.section_id for s in tree.sections if re.fullmatch(r"\d+[A-Z]*", s.section_id)]
    assert len(numbers) == len(set(numbers))
    assert {"3", "4", "10", "12", "13", "14", "75", "191"} <= set(numbers), numbers


def test_running_head_repeated_at_the_same_place_is_page_furniture(tmp_path):
    """Three pages (16–18) of the Act: "Laws of Malaysia / ACT 136" heads pages 16 and 18 at the same
    place (page 17 has "Contracts"). Two of three pages at one height is a running head, not a
    section ``act-136`` holding sections 6–9."""
    pdf = _pages(_statute_pdf(CONTRACTS_ACT), [15, 16, 17], tmp_path / "act136-p16-18.pdf")
    doc = convert_path(pdf)
    assert not re.search(r"(?im)^\W*(act\s+136|laws of malaysia)\W*$", doc.markdown), doc.markdown[:400]
    tree = build_tree(doc, extract_definitions=False, extract_cross_references=False)
    ids = [s.section_id for s in tree.sections]
    assert not any("act-136" in i or "laws-of-malaysia" in i for i in ids), ids
    assert {"6", "7", "8", "9"} <= set(ids), ids
    assert all(s.parent_id is None for s in tree.sections if s.section_id in ("6", "7", "8", "9"))


def test_typography_is_a_resolver_feature_with_a_fitted_weight(contracts_act):
    """A heading the converter read from the PDF's fonts is a candidate with the ``typography``
    feature, scored with the weight ``bench/fit_structure.py`` fitted (not a rule): the marginal-note
    candidates carry it and are accepted. The contents line of the same number ("10. What agreements
    are contracts" under ARRANGEMENT OF SECTIONS) starts no section: since the contents entries under a
    contents title are read as entries before the resolver (``filtering._contents_entries``), it is
    no candidate at all, or a rejected one."""
    weights = load_weights()
    assert "typography" in weights and weights["typography"] > 0, weights.get("typography")
    doc = contracts_act
    ctx = ParseContext(doc.markdown.split("\n"), trace=[])
    parse_sections(doc.markdown, doc.doc_key, doc.title, list_items=doc.list_items,
                   heading_levels=doc.heading_levels, blocks=doc.blocks, context=ctx)
    lines = doc.markdown.split("\n")
    note = [c for c in ctx.trace if c.path == ["10"] and lines[c.marker.line].startswith("#")]
    entry = [c for c in ctx.trace if c.path == ["10"] and not lines[c.marker.line].startswith("#")]
    assert note, [(c.path, lines[c.marker.line]) for c in ctx.trace][:30]
    assert note[0].unary["typography"] == 1.0 and note[0].accepted
    assert not any(c.accepted for c in entry), [(lines[c.marker.line], c.score) for c in entry]
    contents_line = next(n for n, line in enumerate(lines) if line.startswith("10. What agreements are contracts"))
    assert contents_line < note[0].marker.line
