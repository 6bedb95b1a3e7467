"""Clauses headed ``§ N`` (trial 10: a Word contract's bold ``§ N`` paragraph above its title) and
definitions in German, French and single low quotes."""

from docstrata.models import Document
from docstrata.structure import build_tree


def _tree(markdown: str, fmt: str = "md"):
    return build_tree(Document(doc_key=f"contract.{fmt}", title="Contract", markdown=markdown, format=fmt))


_CLAUSES = {
    # markitdown's rendering of the DOCX: bold "§ N" paragraph, then the inferred "## Title" heading
    "docx": "Intro.\n\n**§ 1**\n\n## Field of work\n\nThe Employee works.\n\n**§ 2**\n\n## Probation\n\n"
            "According to § 1 the Employee works.\n\n**§ 3**\n\n**Hours**\n\nSee § 2.\n",
    "bold_line": "Intro.\n\n**§ 1 Field of work**\n\nThe Employee works.\n\n**§ 2.** Probation\n\n"
                 "According to § 1 the Employee works.\n\n**§ 3 Hours**\n\nSee § 2.\n",
    "plain_blank": "Intro.\n\n§ 1\n\nField of work\n\nThe Employee works.\n\n§ 2.\n\nProbation\n\n"
                   "According to § 1 the Employee works.\n\n§ 3\n\nHours\n\nSee § 2.\n",
}


def test_paragraph_sign_lines_head_clauses_in_every_form():
    for name, markdown in _CLAUSES.items():
        for fmt in ("md", "txt"):
            tree = _tree(markdown, fmt)
            by_id = {s.section_id: s for s in tree.sections}
            assert [s.section_id for s in tree.sections] == ["preamble", "1", "2", "3"], (name, fmt)
            assert by_id["1"].title == "§ 1 Field of work" and by_id["2"].title == "§ 2 Probation", (name, fmt)
            assert by_id["3"].title == "§ 3 Hours", (name, fmt)
            assert "§ 2" not in by_id["1"].text and "§" not in by_id["preamble"].text  # not glued to the clause before
            refs = {x.text: x.section_id for x in tree.cross_references}
            assert refs == {"§ 1": "1", "§ 2": "2"}, (name, fmt)


def test_a_lone_paragraph_sign_line_is_not_a_clause():
    tree = _tree("Intro.\n\n**§ 613a**\n\nThe transfer of an undertaking is governed by the code.\n")
    assert [s.section_id for s in tree.sections] == ["preamble"]


def test_definitions_in_german_french_and_low_single_quotes():
    tree = _tree('Between [X] (hereinafter referred to as "Employer") and [Y] (hereinafter referred to as '
                 "„Employee“), Z (hereinafter «Agent») and W (hereinafter ‚Owner‘).\n\n"
                 "„Salary“ means the monthly pay.\n\n»Bonus« means the yearly pay.\n")
    assert {d.term for d in tree.definitions} == {"Employer", "Employee", "Agent", "Owner", "Salary", "Bonus"}
