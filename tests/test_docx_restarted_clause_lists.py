"""A Word contract whose clauses run on through several lists, each numbering instance starting
where the last stopped (tests/fixtures/juniper-eula/NOTICE.md: ``numId`` 1 numbers 1–10, the next
starts at 11, the last at 15), with an untitled clause (``8. Any duty that …``) among the titled
ones and lettered sub-clause lists at the same level in between: every clause is a top-level
section, the lettered items are its sub-clauses, and a restarted list opens a sibling of clause 10,
not a child of 10's last sub-item."""

from __future__ import annotations

from pathlib import Path

from .test_docx_style_numbering import _tree

EULA = Path(__file__).parent / "fixtures" / "juniper-eula" / "juniper-script-eula.docx"


def test_clauses_continued_by_restarted_lists_are_top_level_siblings(tmp_path):
    _, tree = _tree(tmp_path, "juniper-eula.docx", EULA.read_bytes())
    by_id = {s.section_id: s for s in tree.sections}
    clauses = [str(n) for n in range(1, 18)]
    assert all(n in by_id for n in clauses), sorted(by_id)
    assert {by_id[n].level for n in clauses} == {1}
    assert {by_id[n].parent_id for n in clauses} == {None}
    assert by_id["11"].title.startswith("11. Ownership")
    assert by_id["15"].title.startswith("15. General")
    assert "Santa Clara County" in by_id["15"].heading + by_id["15"].text  # its one paragraph
    assert "Any duty that Juniper" in by_id["8"].heading


def test_lettered_lists_between_clauses_are_the_clause_s_sub_clauses(tmp_path):
    _, tree = _tree(tmp_path, "juniper-eula.docx", EULA.read_bytes())
    by_id = {s.section_id: s for s in tree.sections}
    assert [by_id[f"10({c})"].parent_id for c in "abcdefg"] == ["10"] * 7
    assert by_id["14(a)"].parent_id == "14" and by_id["14(b)"].parent_id == "14"
    assert "Ownership" not in by_id["10(g)"].heading + by_id["10(g)"].text  # clause 11 is not inside 10(g)


def test_citations_of_restarted_clauses_resolve(tmp_path):
    from docstrata.structure.xrefs import extract_cross_references

    _, tree = _tree(tmp_path, "juniper-eula.docx", EULA.read_bytes())
    refs = {r.text: r.section_id for r in extract_cross_references(tree)}
    assert refs.get("Section 13") == "13" and refs.get("Section 17") == "17"
