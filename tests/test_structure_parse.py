"""Section parsing: headings, numbering, ids, aliases, false positives; real documents."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from docstrata.structure.parse import parse_sections

from .conftest import shared_data


def ids(markdown: str) -> list[str]:
    return [s.section_id for s in parse_sections(markdown, "d.md", "Doc").sections]


def test_atx_setext_trailing_hashes_and_preamble_kept():
    tree = parse_sections("Intro text.\n\n# One ##\nbody\n\nTwo\n---\nmore\n\nThree\n=====\n", "d.md", "Doc")
    assert [s.section_id for s in tree.sections] == ["preamble", "one", "two", "three"]
    assert tree.sections[0].text.strip() == "Intro text."
    assert tree.sections[1].title == "One" and tree.sections[1].heading == "# One ##"
    assert tree.sections[2].level == 2 and tree.sections[2].parent_id == "one"
    assert tree.sections[3].level == 1


def test_hash_lines_inside_backtick_and_tilde_fences_are_not_headings():
    md = "# Real\n```python\n# not a heading\n```\n~~~\n## nor this\n~~~\n## Sub\n"
    tree = parse_sections(md, "d.md", "Doc")
    assert [s.section_id for s in tree.sections] == ["real", "sub"]
    assert "# not a heading" in tree.sections[0].text and "## nor this" in tree.sections[0].text


def test_skipped_heading_level_nests_under_nearest_shallower_heading():
    tree = parse_sections("# A\n#### Deep\n## B\n", "d.md", "Doc")
    deep = tree.section("deep")
    assert deep.parent_id == "a" and deep.level == 2
    assert tree.section("b").parent_id == "a"


def test_rfc_style_numbered_plain_text_with_parent_chain_and_aliases():
    txt = ("1.  Introduction\n\n   Text of the intro.\n\n4.  Handshake Protocol\n\n   Body.\n\n"
           "4.2.  Extensions\n\n   Ext body.\n\n4.2.1.  Supported Versions\n\n   Versions body.\n")
    tree = parse_sections(txt, "rfc.txt", "RFC")
    s = tree.section("4.2.1")
    assert s is not None and s.parent_id == "4.2" and s.level == 3
    assert s.parent_chain == ["4 Handshake Protocol", "4.2 Extensions", "4.2.1 Supported Versions"]
    assert "4.2.1" in s.aliases and "Section 4.2.1" in s.aliases


def test_statute_sec_and_nested_paragraphs_give_203_a_1():
    txt = "SEC. 203. SMALL GOVERNMENT AGENCY PLAN.\n\n(a) Development.—Before establishing\n(1) provide notice\n(2) enable officials\n(b) Authorization.—There are authorized\n"
    tree = parse_sections(txt, "act.txt", "Act")
    assert [s.section_id for s in tree.sections] == ["203", "203(a)", "203(a)(1)", "203(a)(2)", "203(b)"]
    s203 = tree.section("203")
    assert {"Section 203", "Sec. 203", "§ 203", "203"} <= set(s203.aliases)
    assert "Section 203(a)(1)" in tree.section("203(a)(1)").aliases
    assert tree.section("203(b)").parent_id == "203"


def test_roman_vs_letter_items_decided_by_sequence():
    txt = "1.1\tRule\n(a)\tfirst\n(h)\teighth\n(i)\tninth letter\n(j)\ttenth\n1.2\tOther\n(a)\tx\n(i)\troman one\n(ii)\troman two\n"
    got = ids(txt)
    assert "1.1(i)" in got and "1.1(j)" in got  # (i) after (h) is a letter
    assert "1.2(a)(i)" in got and "1.2(a)(ii)" in got  # (i) after (a) opens a roman list


def test_keyword_labels_article_part_schedule_and_section_sign():
    txt = "PART 2\n\nArticle 17\nRight to erasure\n\n§ 4.2 Scope\n\nScope text.\n\nSchedule 1\n\nARTICLE IV\n"
    got = ids(txt)
    for want in ("part-2", "article-17", "4.2", "schedule-1", "article-iv"):
        assert want in got, (want, got)
    tree = parse_sections(txt, "d.txt", "D")
    assert tree.section("article-17").aliases[:2] == ["Article 17", "Art. 17"]


def test_ordered_list_under_clause_12_gives_12_12():
    items = "\n".join(f"    {n}. Item {n} title.  Body of item {n}." for n in range(1, 13))
    md = f"# Agreement\n\n12. General Terms\n{items}\n"
    got = ids(md)
    assert "12" in got and "12.12" in got and "12.1" in got


def test_prose_dates_figures_tables_and_toc_are_not_sections():
    txt = ("1.  Scope\n\nThe plan starts\n2015 was the first year of the plan.\n"
           "12.03.2020 is a date.\n1.5 2.3 4.4\n| 1.1 | cell |\n"
           "3.2  Contents . . . . . . . . . . 12\n\n2.  Next\n")
    assert ids(txt) == ["1", "2"]


def test_numbered_subtitle_heading_merges_into_article():
    tree = parse_sections("### Article 4\n\n#### Definitions\n\nFor the purposes:\n", "g.md", "GDPR")
    assert [s.section_id for s in tree.sections] == ["article-4"]
    assert tree.sections[0].title == "Article 4 Definitions"


def test_ids_unique_and_restarting_sections_qualified_by_container():
    md = "## Article I\n### Section 1\nA\n### Section 2\nB\n## Article II\n### Section 1\nC\n"
    tree = parse_sections(md, "c.md", "C")
    got = [s.section_id for s in tree.sections]
    assert len(got) == len(set(got))
    assert "article-i/1" in got and "article-ii/1" in got
    assert "Article II, Section 1" in tree.section("article-ii/1").aliases


def test_every_line_is_in_exactly_one_section():
    txt = "pre\n# A\na1\n1.1\tx\n(a)\ty\n## B\nb\n"
    tree = parse_sections(txt, "d.md", "D")
    rebuilt = "\n".join((s.heading + "\n" if s.heading else "") + s.text for s in tree.sections)
    assert re.sub(r"\s", "", rebuilt) == re.sub(r"\s", "", txt)


@pytest.mark.shared_data
def test_real_rfc_gdpr_constitution_sections():
    rfc = shared_data("documents", "txt", "rfc8446_tls13.txt").read_text(encoding="utf-8")
    tree = parse_sections(rfc, "rfc8446.txt", "RFC 8446")
    for sid in ("4.2.1", "4.2.11.1", "B.3.1.4", "appendix-b"):
        assert tree.section(sid) is not None, sid
    assert not any(s.title.endswith(tuple("0123456789")) and ". ." in s.heading for s in tree.sections)
    gdpr = shared_data("documents", "md", "gdpr_regulation_eu_2016_679.md").read_text(encoding="utf-8")
    g = parse_sections(gdpr, "gdpr.md", "GDPR")
    assert g.section("article-17") is not None and g.section("article-6(1)(f)") is not None
    assert g.section("article-4").title == "Article 4 Definitions"
    con = shared_data("documents", "md", "us_constitution.md").read_text(encoding="utf-8")
    c = parse_sections(con, "con.md", "Constitution")
    assert c.section("article-i/8") is not None


@pytest.mark.shared_data
def test_obliqa_gen_passage_ids_are_section_ids():
    base = shared_data("obliqa")
    doc_map = json.loads((base / "document_map.json").read_text())
    text = (base / "StandardizedRegulatoryDocumentsTXT" / doc_map["7"]["file"]).read_text(encoding="utf-8")
    tree = parse_sections(text, doc_map["7"]["file"], "GEN")
    got = {s.section_id for s in tree.sections}
    passages = json.loads((base / "StructuredRegulatoryDocuments" / "7.json").read_text())
    numbered = {re.sub(r"\.\(", "(", p["PassageID"].rstrip(".")) for p in passages
                if re.fullmatch(r"\d+[A-Z]?(\.\d+[A-Z]?)*\.?(\.\(\w+\))*", p["PassageID"])}
    assert len(numbered) > 300
    assert len(numbered & got) / len(numbered) >= 0.95


MSA = Path(__file__).resolve().parents[1] / "examples" / "docs" / "master_services_agreement.md"


def test_numbered_definition_paragraph_is_body_titled_by_its_term():
    md = ('## 1. Definitions\n\n1.3 "Service Level" means the availability commitment set out in Section 4.2.\n\n'
          '1.4 “Fees” means the amounts payable.\n')
    tree = parse_sections(md, "c.md", "C")
    s13, s14 = tree.section("1.3"), tree.section("1.4")
    assert (s13.title, s13.heading) == ('1.3 "Service Level"', "")
    assert "means the availability commitment" in s13.text
    assert s14.title == '1.4 "Fees"' and "amounts payable" in s14.text
    assert s13.parent_chain == ["1. Definitions", '1.3 "Service Level"']


@pytest.mark.parametrize("line, number, title", [
    ("5.2 The obligations in Section 5.1 survive termination for five (5) years.", "5.2",
     "5.2 The obligations in Section 5.1 survive termination …"),
    ("2.2 Customer must not resell the Services.", "2.2", "2.2 Customer must not resell the Services."),
    ("3.3.31\tAn Authorised Person must notify the Regulator.", "3.3.31",
     "3.3.31 An Authorised Person must notify the Regulator."),
    ("7.1 Confidentiality. Each party shall protect the other party's information.", "7.1", "7.1 Confidentiality."),
    ("9.4\tAn Authorised Person which is a Subsidiary of", "9.4", "9.4 An Authorised Person which is a Subsidiary of"),
])
def test_numbered_sentence_is_body_text_with_a_short_title(line, number, title):
    tree = parse_sections(f"Intro.\n\n{line}\n\nNext paragraph.\n", "d.txt", "D")
    s = tree.section(number)
    assert s.heading == "" and line.split(None, 1)[1].strip() in s.text
    assert s.title == title
    assert len(s.parent_chain[-1].split()) <= 11


def test_statute_item_sentence_gets_a_short_title_and_lead_phrase():
    txt = ("SEC. 5. GRANTS.\n\n(a) In general.—The Secretary shall establish a program to award grants to "
           "eligible entities.\n(b) The Secretary shall report to Congress on the program every year after "
           "the date of enactment.\n")
    tree = parse_sections(txt, "act.txt", "Act")
    assert tree.section("5(a)").title == "(a) In general."
    b = tree.section("5(b)")
    assert b.title.endswith("…") and len(b.title.split()) <= 10 and "report to Congress" in b.text


@pytest.mark.parametrize("line, number, title", [
    ("4.2.1.  Supported Versions", "4.2.1", "4.2.1 Supported Versions"),  # RFC
    ("1.2\tApplication", "1.2", "1.2 Application"),  # rulebook
    ("10.3.2\tRegulator may issue collateral notice", "10.3.2", "10.3.2 Regulator may issue collateral notice"),
    ("9.2\tWho can exercise our powers?", "9.2", "9.2 Who can exercise our powers?"),
    ("§ 9.11 Petition for establishment of an American viticultural area.", "9.11",
     "§ 9.11 Petition for establishment of an American viticultural area."),  # CFR heading, full stop
    ("SEC. 203. WHAT IS COVERED.", "203", "SEC. 203 WHAT IS COVERED."),
])
def test_heading_phrases_stay_headings(line, number, title):
    tree = parse_sections(f"{line}\n\nBody text of the section.\n", "d.txt", "D")
    s = tree.section(number)
    assert s.heading.strip() == line and s.title == title
    assert s.text.strip() == "Body text of the section."


def test_long_heading_is_cut_in_the_parent_chain_only():
    title = "Article 89 Safeguards and derogations relating to processing for archiving purposes in the public interest"
    tree = parse_sections(f"# Regulation\n\n## {title}\n\nText.\n", "g.md", "G")
    s = tree.section("article-89")
    assert s.title == title
    assert s.parent_chain[-1].endswith(" …") and len(s.parent_chain[-1].split()) <= 11
    assert title.startswith(s.parent_chain[-1][:-2])


def test_master_services_agreement_numbered_paragraphs_have_bodies():
    tree = parse_sections(MSA.read_text(encoding="utf-8"), "msa.md", "MSA")
    paragraphs = [s for s in tree.sections if re.fullmatch(r"\d+\.\d+", s.section_id) and not s.heading]
    assert {s.section_id for s in paragraphs} >= {"1.1", "1.2", "1.3", "1.4", "2.1", "2.2", "5.1", "5.2", "8.2"}
    for s in paragraphs:
        assert s.text.strip().startswith(s.section_id + " ")
        assert len(s.title.split()) <= 10
    assert tree.section("4.2").heading == "### 4.2 Availability"  # Markdown headings unchanged


TIGHT_CLAUSES = ("Policy\n\n1. Warranty Period\n1.1 The warranty period is 24 months from purchase.\n"
                 "1.2 Batteries are covered for 12 months only.\n2. Exclusions\n2.1 Water damage is excluded.\n"
                 "2.2 Scratches are excluded.\n")


@pytest.mark.parametrize("doc_key, text", [
    ("tight.txt", TIGHT_CLAUSES),
    ("tight.md", TIGHT_CLAUSES),
    ("tight.md", "# Policy\n\n" + TIGHT_CLAUSES.split("\n\n", 1)[1]),  # Markdown flavour: `1.` is not a list item here
    ("tight.txt", TIGHT_CLAUSES.replace("\n\n", "\n", 1)),  # first clause directly under the title line
    ("tight.md", "# Policy\n" + TIGHT_CLAUSES.split("\n\n", 1)[1]),
])
def test_numbered_clauses_on_consecutive_lines_are_sections(doc_key, text):
    tree = parse_sections(text, doc_key, "Policy")
    got = [s.section_id for s in tree.sections]
    assert got[1:] == ["1", "1.1", "1.2", "2", "2.1", "2.2"]
    parents = {s.section_id: s.parent_id for s in tree.sections}
    assert parents["1.2"] == parents["1.1"] == "1" and parents["2.2"] == parents["2.1"] == "2"
    assert parents["2"] == parents["1"]
    assert tree.section("1").title == "1 Warranty Period" and tree.section("2").title == "2 Exclusions"
    assert "Batteries" in tree.section("1.2").text and "Batteries" not in tree.section("1.1").text
    assert "Scratches" in tree.section("2.2").text and "Water" not in tree.section("2.2").text
    rebuilt = "\n".join((s.heading + "\n" if s.heading else "") + s.text for s in tree.sections)
    assert re.sub(r"\s", "", rebuilt) == re.sub(r"\s", "", text)


def test_consecutive_line_clauses_with_wrapped_body_and_paren_items():
    txt = ("Terms\n\n3.1 The Supplier shall deliver the goods\nwithin thirty days of the order.\n"
           "(a) by road;\n(b) by rail.\n3.2 Delivery costs are borne by the Customer.\n3.2A Insurance is optional.\n"
           "4. Payment\n4.1 Invoices are due on receipt.\n")
    got = ids(txt)
    assert got[1:] == ["3.1", "3.1(a)", "3.1(b)", "3.2", "3.2A", "4", "4.1"]


@pytest.mark.parametrize("text, expected", [
    # a wrapped sentence whose next line starts with the next number
    ("Intro\n\n1.1 The term may be extended by\n1.2 Years after the end of the term.\n", ["preamble", "1.1"]),
    ("Intro\n\n1.1 The term is as set out in Section\n1.2 Of the Schedule.\n", ["preamble", "1.1"]),
    # dates, figures and numbers that do not continue the numbering above
    ("Intro\n\n1.1 Payment.\n2015 Was a good year.\n12.03.2020 Is a date.\n1.5 2.3 4.4\n7.2 Mentioned later.\n"
     "1.2 Next.\n", ["preamble", "1.1", "1.2"]),
    # a plain-text list introduced by a colon, directly under its sentence
    ("Payment is due:\n1. Deposit\n2. Balance\n", ["preamble"]),
    ("The fee is due in\n1. The first year\n1.1 Foo\n", ["preamble"]),
    # a plain-text list under a clause: "3." continues the list, not clause 2
    ("Intro\n\n2.1 Steps:\n1. Unpack\n2. Charge\n3. Switch on\n", ["preamble", "2.1"]),
    # table rows and table-of-contents lines directly under a clause
    ("Intro\n\n1.1 Rates.\n| 1.2 | ten |\n1.2 Contents . . . . . . . . 4\n", ["preamble", "1.1"]),
    # a lower-case continuation is never a label
    ("Intro\n\n1.1 Payment terms.\n1.2 percent of the fee is retained.\n", ["preamble", "1.1"]),
])
def test_consecutive_line_guards_keep_prose_dates_lists_and_tables_out(text, expected):
    assert ids(text) == expected


def test_markdown_lists_stay_lists_and_dotted_labels_are_clauses():
    assert ids("# Steps\n\n1. Open the box.\n2. Remove the battery.\n3. Charge it.\n") == ["steps"]
    md = ("# Setup\n\n1.1 Steps to follow:\n1. Open the box\n2. Remove the battery\n3. Charge it\n"
          "1.2 Next clause.\n2. Other\n2.1 Foo.\n")
    tree = parse_sections(md, "s.md", "S")
    got = [s.section_id for s in tree.sections]
    assert got == ["setup", "1.1", "1.1.1", "1.1.2", "1.1.3", "1.2", "2", "2.1"]
    assert tree.section("2.1").parent_id == "2" and "Other" in tree.section("2").title


def test_a_repeated_number_does_not_answer_the_citation_of_the_first():
    """The "-2" that keeps a repeated section's id unique is not how anyone cites it, and the
    bare citation "Section 3.3.3" names one section only (issue 14: no alias collisions)."""
    tree = parse_sections("3.3.3 Foo\n\ntext\n\n3.3.4 Bar\n\nx\n\n3.3.3 Foo again\n\nmore\n", "d", "D")
    repeat = [s for s in tree.sections if s.section_id == "3.3.3-2"][0]
    assert "Section 3.3.3" in tree.section("3.3.3").aliases
    assert not any("-2" in a for a in repeat.aliases) and "Section 3.3.3" not in repeat.aliases
