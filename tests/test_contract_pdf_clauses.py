"""Numbered clauses of contract PDFs: the section tree of real contracts (fixtures in
``tests/fixtures/contract-pdfs``, see its NOTICE.md), read through ``convert_file`` and
``build_tree`` as ingest reads them.

* Bonterms Mutual NDA: the typography makes clauses 5 and 9 headings (each set on a line of its
  own) and leaves the other ten as paragraphs opening with their number, which Markdown reads as
  an ordered list. The list items that continue the headings' numbering are clauses, siblings of
  the headings (``6`` closes ``5``; ``10`` is no ``9.10``).
* Basecamp DPA, pages 2–4: clause numbers stand in a hanging column beside their paragraphs
  (read before the headings beside them, ``4.1`` before ``# 4.``), and sub-clauses open in lower
  case (``2.2.2 have sole responsibility …``) or with a figure-led name (``2.3.4 37signals shall
  …``); both are clauses that continue the numbering above them.
* GitHub's Balanced Employee IP Agreement (LaTeX): clauses ``1.`` … ``8.`` open with their number
  in the body face and a bold title run into the text (``1.`` **What the Company owns.** ``The
  Company owns …``), under no numbered heading; its Exhibit A quotes statutes numbered ``Sec. 1``
  … ``Sec. 3`` and ``§ 66-57.1``, which must not take the clauses' numbers from them.
"""

from __future__ import annotations

from pathlib import Path

from docstrata.convert import convert_file
from docstrata.sources import source_file
from docstrata.structure import build_tree

FIXTURES = Path(__file__).parent / "fixtures" / "contract-pdfs"


def _tree(name: str) -> list[tuple[str, str | None]]:
    doc = convert_file(source_file(FIXTURES / name))
    return [(s.section_id, s.parent_id) for s in build_tree(doc).sections]


def test_bonterms_nda_clauses_are_siblings_whether_heading_or_paragraph() -> None:
    tree = _tree("bonterms-mutual-nda-v1.pdf")
    numbered = [(sid, parent) for sid, parent in tree if sid[:1].isdigit()]
    assert numbered == [
        ("1", None),
        ("2", None),
        ("3", None),
        ("4", None),
        ("5", None),
        ("5(a)", "5"),
        ("5(b)", "5"),
        ("6", None),
        ("7", None),
        ("8", None),
        ("9", None),
        ("10", None),
        ("11", None),
        ("12", None),
    ]


def test_bonterms_nda_clause_text_is_its_own() -> None:
    doc = convert_file(source_file(FIXTURES / "bonterms-mutual-nda-v1.pdf"))
    by_id = {s.section_id: s for s in build_tree(doc).sections}
    assert "Term and Termination" in by_id["6"].title
    assert "Term and Termination" not in by_id["5(b)"].text  # clause 6 no longer runs on inside 5(b)
    assert "destroy all Confidential Information" in by_id["7"].text
    assert "Governing Law" in by_id["10"].title


def test_basecamp_dpa_sub_clauses_and_hanging_numbers() -> None:
    tree = dict(_tree("basecamp-dpa-pages-2-4.pdf"))
    expected = {
        "2": None,
        "2.1": "2",
        "2.2": "2",
        "2.2.1": "2.2",
        "2.2.2": "2.2",  # "have sole responsibility …": lower case after the lead-in "Customer shall …:"
        "2.2.3": "2.2",
        "2.2.4": "2.2",
        "2.3": "2",  # "2.3 37signals's Processing of Personal Data."
        "2.3.1": "2.3",
        "2.3.2": "2.3",
        "2.3.3": "2.3",
        "2.3.3(iv)": "2.3.3",  # "iv." set apart from its text
        "2.3.3(v)": "2.3.3",
        "2.3.4": "2.3",  # after 2.3.3(v): a sibling of 2.3.3, not more text of its last item
        "2.3.5": "2.3",
        "2.3.6": "2.3",
        "2.3.7": "2.3",
        "3": None,
        "4": None,  # "# 4. 37SIGNALS PERSONNEL"
        "4.1": "4",  # the hanging number column is read before "# 4.": each number goes to its paragraph
        "4.2": "4",
        "4.3": "4",
        "4.4": "4",
        "5": None,
        "5.1": "5",
        "5.2": "5",
    }
    assert {sid: tree.get(sid, "missing") for sid in expected} == expected
    order = [sid for sid in tree if sid in expected]
    assert order == list(expected)  # document order: no clause before the heading that holds it


def test_basecamp_dpa_clause_paragraph_is_whole() -> None:
    doc = convert_file(source_file(FIXTURES / "basecamp-dpa-pages-2-4.pdf"))
    by_id = {s.section_id: s for s in build_tree(doc).sections}
    text = " ".join((by_id["2.3.4"].heading + " " + by_id["2.3.4"].text).split())
    # the first line, joined to its number, stays in its paragraph
    assert "government requests for access to or information about 37signals’s Processing" in text
    assert "government request" not in by_id["2.3.3(v)"].text


IP_AGREEMENT = "balanced-employee-ip-agreement.pdf"


def test_pdf_bold_run_in_titles_are_marked_after_the_clause_number() -> None:
    doc = convert_file(source_file(FIXTURES / IP_AGREEMENT))
    assert "1. **What the Company owns.** The Company owns" in doc.markdown
    # a title longer than its text on the line (the line's face is bold) is still a run-in title
    assert "3. **Contribution of your IP to Company projects.** If you" in doc.markdown
    assert "**What is this?**" not in doc.markdown  # a bold lead-in without a clause number stays text


def test_ip_agreement_titled_clauses_are_sections_despite_exhibit_numbers() -> None:
    doc = convert_file(source_file(FIXTURES / IP_AGREEMENT))
    tree = build_tree(doc)
    root = tree.sections[0].section_id
    by_id = {s.section_id: s for s in tree.sections}
    assert [(sid, by_id[sid].parent_id) for sid in "12345678"] == [(sid, root) for sid in "12345678"]
    assert "Contribution of your IP to Company projects" in by_id["3"].title
    assert "Confidentiality" in by_id["8"].title
    assert "Defend Trade Secrets Act" in by_id["8"].text
    assert "Defend Trade Secrets Act" not in by_id["7"].text
    # the exhibit's statute sections stay sections, under qualified ids
    sec3 = next(s for s in tree.sections if s.title.startswith("Sec. 3"))
    assert sec3.section_id != "3" and sec3.section_id.endswith("3")


def test_ip_agreement_state_headings_left_out_of_the_outline_head_their_statutes() -> None:
    # the outline names "United States" (bold, body size) but none of the states set in its face
    # below it: each state is a heading under it, over its own statutes
    tree = build_tree(convert_file(source_file(FIXTURES / IP_AGREEMENT)))
    by_id = {s.section_id: s for s in tree.sections}
    states = [s.title for s in tree.sections if s.parent_id is not None and by_id[s.parent_id].title == "United States"]
    assert states == [
        "California",
        "Delaware",
        "Illinois",
        "Kansas",
        "Minnesota",
        "Nevada",
        "North Carolina",
        "Utah",
        "Washington",
    ]

    def state_of(section) -> str:
        while by_id[section.parent_id].title != "United States":
            section = by_id[section.parent_id]
        return section.title

    sec3 = next(s for s in tree.sections if s.title.startswith("Sec. 3"))
    assert state_of(sec3) == "Illinois"
    kansas_item = next(s for s in tree.sections if s.title.startswith("(1) The invention relates to the business"))
    assert state_of(kansas_item) == "Kansas"  # 44-130(a)'s items, no longer under Illinois "Sec. 3"
    nc = next(s for s in tree.sections if s.title.startswith("§ 66-57.1"))
    assert state_of(nc) == "North Carolina"


DPA_2020 = "basecamp-dpa-2020-07-pages-3-4-10-11.pdf"


def test_schedule_numbering_restarts_and_keeps_the_body_clauses() -> None:
    # the body's 2.1, 2.2, 2.4 (paragraphs opening with their number) and Schedule 1's own 2.1-2.4
    # (2.1, 2.3, 2.4 set as headings): the schedule's headings repeat no number of the body's
    tree = build_tree(convert_file(source_file(FIXTURES / DPA_2020)))
    by_id = {s.section_id: s for s in tree.sections}
    body = {sid: by_id[sid].parent_id if sid in by_id else "missing" for sid in ("2.1", "2.2", "2.3", "2.4")}
    assert body == {"2.1": "2", "2.2": "2", "2.3": "2", "2.4": "2"}
    assert by_id["2.1"].title.endswith("Roles of the Parties.")
    assert by_id["2.4"].title.endswith("Details of the Processing.")
    schedule = [s for s in tree.sections if s.parent_id == "schedule-1/2"]
    assert [s.number for s in schedule[:4]] == ["2.1", "2.2", "2.3", "2.4"]
    assert all(s.section_id.startswith("schedule-1/") for s in schedule[:4])  # qualified: the body holds 2.1-2.4
    assert "Customers covered by the Standard Contractual Clauses" in schedule[0].title
    assert "Standard Contractual Clauses" not in by_id["2.1"].text  # the body clause holds its own text only


CNCF_AGREEMENT = "cncf-sample-contribution-agreement-page-1.pdf"


def test_pdf_bracket_numbered_clauses_with_bold_titles() -> None:
    # "1)" in the body face, "Background" in bold, its full stop in the body face, then the text
    doc = convert_file(source_file(FIXTURES / CNCF_AGREEMENT))
    assert "1) **Background.** Assignor is the owner" in doc.markdown
    assert "4) **Assistance.** Assignor will assist" in doc.markdown
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    clauses = [by_id.get(sid) for sid in "1234"]
    assert all(c is not None for c in clauses)
    assert len({c.parent_id for c in clauses}) == 1  # siblings, one clause sequence
    assert "Assignment of Trademarks" in by_id["2"].title
    assert "Domain Names" in by_id["3"].text  # the set-in sub-clauses a) and b) stay in clause 3
    assert "attorney-in-fact" in by_id["4"].text


def test_schedule_label_with_a_no_break_space_is_a_container() -> None:
    # "Schedule\xa0A": the keyword and its letter joined by a no-break space (the whole tree failed
    # with an AttributeError on it)
    tree = build_tree(convert_file(source_file(FIXTURES / "cncf-corporate-cla.pdf")))
    ids = [s.section_id for s in tree.sections]
    assert "schedule-a" in ids and "schedule-b" in ids
    assert [sid for sid in ids if sid.isdigit()] == [str(n) for n in range(1, 9)]
    assert "Grant of Copyright License" in next(s.title for s in tree.sections if s.section_id == "2")


def test_bonterms_cloud_terms_items_in_a_label_column_keep_their_own_text() -> None:
    """Bonterms Cloud Terms, pages 1-3: 8.1's items ``(a)`` and ``(b)`` are set in a hanging column,
    which pdfminer reads as one box of two labels before the box of the two items' lines. Each
    label joins the line beside it, so each item holds its own text (8.1(a) was "(a)" alone and
    8.1(b) both items' text)."""
    doc = convert_file(source_file(FIXTURES / "bonterms-cloud-terms-v1-pages-1-3.pdf"))
    by_id = {s.section_id: s for s in build_tree(doc).sections}
    assert by_id["8.1(a)"].parent_id == by_id["8.1(b)"].parent_id == "8.1"
    assert by_id["8.1(a)"].text.startswith("(a) it has the legal power and authority")
    assert by_id["8.1(b)"].text.startswith("(b) it will use industry-standard measures")
    assert "legal power" not in by_id["8.1(b)"].text


def test_bonterms_cloud_terms_footer_sentence_is_page_furniture() -> None:
    """Bonterms Cloud Terms, pages 1-3: every page ends with a four-row footer block; its inner row
    "© 2022 Bonterms, Inc. Free to use under CC BY 4.0." is a sentence (it ends with a full stop),
    which the peeling of a header/footer block took for body text. Set at the same place on every
    page, it is page furniture and leaves the text, like the block's other rows."""
    doc = convert_file(source_file(FIXTURES / "bonterms-cloud-terms-v1-pages-1-3.pdf"))
    sections = build_tree(doc).sections
    assert not [s.section_id for s in sections if "Free to use under CC BY" in s.text]
    assert not [s.section_id for s in sections if "Learn more: Bonterms" in s.text]
    assert any("Payment Disputes" in s.title for s in sections)  # the body around the footers stays


def test_apache_style_icla_clauses_under_a_title_heading_are_sections() -> None:
    """An Apache-style ICLA (``spring-cloud-huawei-icla.pdf``): the PDF's title is a heading by its
    type, so the text reads as Markdown, and its clauses ``1.`` … ``8.`` are paragraphs at the margin
    (``1. Definitions.`` alone on its line, ``2. Grant of Copyright License. Subject to …``, then
    untitled ``4. You represent that …``) that Markdown would read as an ordered list: they are the
    agreement's clauses, every one a section under the title, and "section 7" cites clause 7."""
    from docstrata.structure.xrefs import extract_cross_references

    tree = build_tree(convert_file(source_file(FIXTURES / "spring-cloud-huawei-icla.pdf")))
    by_id = {s.section_id: s for s in tree.sections}
    clauses = [str(n) for n in range(1, 9)]
    assert all(n in by_id for n in clauses), sorted(by_id)
    assert len({by_id[n].parent_id for n in clauses}) == 1  # siblings, under the title
    assert "Grant of Copyright License" in by_id["2"].title
    assert "Should You wish to submit work" in by_id["7"].heading + by_id["7"].text
    assert "Should You wish" not in by_id["6"].text
    refs = [r for r in extract_cross_references(tree) if r.text.lower() == "section 7"]
    assert refs and all(r.section_id == "7" for r in refs)


def test_numbered_list_under_a_title_without_clause_titles_stays_a_list() -> None:
    """The same rule does not make clauses of an ordered list whose items carry no titles: the
    Bonterms NDA's and the IP agreement's trees (above) are unchanged, and a Markdown list of
    steps wrapped at the margin under a heading stays one section."""
    from docstrata.structure.parse import parse_sections

    text = "# Setting up\n\n1. Download the archive from the site and\nunpack it.\n2. Run the installer and\nanswer its questions.\n3. Start the service.\n"
    tree = parse_sections(text, "steps.md", "Setting up")
    assert [s.section_id for s in tree.sections if s.section_id.isdigit()] == []
