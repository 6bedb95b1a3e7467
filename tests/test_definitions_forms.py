"""Definition forms read by one term-line reader (structure/definitions.py): emphasised terms
(``**_term_**``, ``***term***``, ``__term__``, ``*term*``, ```term```) whose markers never stay in
the term, a separator (``* **Action**: …``) or a definition verb after them (``**_company_**
means:`` and its limbs, ``X, in relation to Y, has the meaning given by section N``), kramdown
definition lists whose term line ends in a colon, and RFC hanging lists in a definitions section.

Real inputs in tests/fixtures/definition-forms/ (NOTICE.md there): an IETF draft in kramdown-rfc
(DAP), an OASIS OpenC2 actuator profile, the Australian Acts Interpretation Act 1901 as Markdown,
RFC 4271 as published, and Common Paper's Mutual NDA (bold clause headings that define nothing).
Truth is read from each fixture's own markup, not from our output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.models import Document, FileState, SourceFile
from docstrata.structure import build_tree
from docstrata.structure.definitions import acronym_long_form

FIXTURES = Path(__file__).parent / "fixtures" / "definition-forms"


def _tree(name: str):
    path = FIXTURES / name
    sf = SourceFile(doc_key=path.name, path=str(path), state=FileState(path.stat().st_size, 0, ""))
    return build_tree(convert_file(sf))


def _block(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


def _definitions(markdown: str) -> dict[str, str]:
    tree = build_tree(Document(doc_key="d.md", title="D", markdown=markdown, format="md"))
    return {d.term: d.definition for d in tree.definitions}


def test_kramdown_rfc_glossary_terms_ending_in_a_colon():
    text = (FIXTURES / "draft-ietf-ppm-dap-excerpt.md").read_text(encoding="utf-8")
    glossary = _block(text, "### Glossary of Terms", "{:br}")
    truth = re.findall(r"(?m)^([^\s:][^\n]*?):\n: ", glossary)
    assert len(truth) >= 20
    defs = {d.term: d for d in _tree("draft-ietf-ppm-dap-excerpt.md").definitions}
    assert [t for t in truth if t not in defs] == []
    # the term without its colon, the definition with the lines indented under it
    assert defs["Aggregate share"].definition == (
        "A secret share of the aggregate result computed by each Aggregator and transmitted to the "
        "Collector. As defined in [VDAF]."
    )
    # a line inside a definition that reads "X includes …" is the definition's, not a term
    assert not any(t.startswith("The report share") for t in defs)
    # the media type registration template (IANA Considerations) lists form fields, not terms
    assert not {"Type name", "Subtype name", "Required parameters", "Change controller"} & set(defs)


def test_oasis_terminology_items_with_a_bold_term_and_a_colon():
    text = (FIXTURES / "oc2-ap-er-excerpt.md").read_text(encoding="utf-8")
    terminology = _block(text, "## 1.2 Terminology", "### 1.3.2")
    truth = re.findall(r"(?m)^\* \*\*([^*]+)\*\*: ", terminology)
    assert len(truth) == 12
    defs = {d.term: d for d in _tree("oc2-ap-er-excerpt.md").definitions}
    assert [t for t in truth if t not in defs] == []
    # each item is its own definition: it stops at the next item
    assert defs["Action"].definition == "The task or activity to be performed (e.g., 'deny')."
    assert defs["Endpoint"].definition.endswith("has an Agent present and operational on it.")
    # the same bold lead-ins outside a terminology section ("1.6 Goal", "1.5 Overview") define nothing
    goal = _block(text, "## 1.6 Goal", "\n\n# ") if "\n\n# " in text[text.index("## 1.6 Goal") :] else ""
    lead_ins = re.findall(r"(?m)^\* \*\*([^*]+?):?\*\*", goal) + ["OpenC2 Actuator Profiles", "Table 1-1"]
    assert len(lead_ins) >= 4
    assert not {t.rstrip(":") for t in lead_ins} & set(defs)


def test_australian_act_dictionary_entries():
    text = (FIXTURES / "acts-interpretation-act-1901-excerpt.md").read_text(encoding="utf-8")
    truth = []
    for line in _block(text, "#### 2B Definitions", "#### 2C").splitlines():
        m = re.match(r"^- ((?:`[^`]+`(?:, | or )?)+)", line)  # the Act marks its terms as code
        if m:
            truth += re.findall(r"`([^`]+)`", m.group(1))
    assert len(truth) >= 80
    defs = {d.term: d.definition for d in _tree("acts-interpretation-act-1901-excerpt.md").definitions}
    assert [t for t in truth if t not in defs] == []
    # an entry ends where the next one starts
    assert defs["affidavit"] == "includes affirmation, declaration and promise."
    # several terms of one entry
    assert defs["Minister"] == defs["Minister of State"] and defs["Minister"].startswith("means one of")
    assert defs["Territory"] == defs["Territory of Australia"]
    # a qualifier between the term and its verb stays in the definition
    assert defs["commencement"].startswith("in relation to an Act or a provision of an Act, means the time")
    # a definition by reference keeps its target
    assert defs["appoint"] == "see section 33AA."
    assert defs["judge"] == "has a meaning affected by section 16BA."
    # ... and gives way to the definition it points at when the document holds it
    assert defs["month"].startswith("means a period")
    # "Term:" alone, then its limbs
    aao = defs["Administrative Arrangements Order"]
    assert "(a) means an instrument (a `primary AAO`)" in aao and "(b) includes an instrument" in aao
    assert "affidavit" not in aao


def test_rfc_text_hanging_terms_in_a_definitions_section():
    text = (FIXTURES / "rfc4271-excerpt.txt").read_text(encoding="utf-8")
    section = _block(text, "1.1.  Definition of Commonly Used Terms", "1.2.  ")
    truth = re.findall(r"(?m)^   (\S[^\n]*)\n      \S", section)
    assert len(truth) == 16
    defs = {d.term: d for d in _tree("rfc4271-excerpt.txt").definitions}
    assert [t for t in truth if t not in defs] == []
    assert defs["BGP speaker"].definition == "A router that implements BGP."
    # nothing from the prose of §1 or §3 but the abbreviations it spells out ("Border Gateway Protocol
    # (BGP)"), whose definition is their long form
    read = {d.section_id for d in defs.values() if acronym_long_form(d.term, d.definition) != d.definition}
    assert read == {"1.1"}
    assert defs["BGP"].definition == "Border Gateway Protocol"
    assert "peers by" not in defs  # "… to specific / peers by means of …" continues a definition


def test_bold_clause_headings_of_a_contract_define_nothing():
    text = (FIXTURES / "common-paper-mutual-nda.md").read_text(encoding="utf-8")
    headings = re.findall(r"(?m)^\d+\. \*\*([^*]+)\*\*\.", text)
    assert len(headings) == 11
    defs = {d.term for d in _tree("common-paper-mutual-nda.md").definitions}
    assert not set(headings) & defs
    assert {"MNDA", "Disclosing Party", "Receiving Party", "Confidential Information"} <= defs


@pytest.mark.parametrize(
    "line, term",
    [
        ("**_ABN (Australian Business Number)_** for an * entity means the entity's ABN.", "ABN (Australian Business Number)"),
        ("***approved form*** has the meaning given by section 388-50.", "approved form"),
        ("__business day__ means a day that is not a Saturday or a Sunday.", "business day"),
        ("*entity* means any of the persons listed in section 184-1.", "entity"),
        ("_**supply**_ includes a supply of goods or services.", "supply"),
        ("* **Actuator:** The function performed by the Consumer.", "Actuator"),
        ("- **Producer** — A manager application that sends Commands.", "Producer"),
    ],
)
def test_emphasis_never_stays_in_a_term(line, term):
    got = _definitions(f"## 41 Dictionary\n\nIn this Act:\n\n{line}\n\n**_other term_** means something else.\n")
    assert term in got, got
    assert not any(ch in t for t in got for ch in "*_`")


def test_lead_in_with_limbs_and_definition_by_reference():
    got = _definitions(
        "## 41 Dictionary\n\n"
        "**_company_** means:\n\n(a) a body corporate; or\n\n(b) any other unincorporated association;\n\n"
        "but does not include a partnership.\n\n"
        "**_connected with Australia_**, in relation to a * supply, has the meaning given by section 9-25.\n"
    )
    assert got["company"].startswith("means") and "(a) a body corporate" in got["company"]
    assert "(b) any other unincorporated association" in got["company"]
    assert "connected with Australia" not in got["company"]
    assert got["connected with Australia"] == "in relation to a * supply, has the meaning given by section 9-25."


def test_bold_lead_ins_that_are_no_terms():
    body = (
        "**Note**: the terms below apply to the whole agreement and its schedules.\n\n"
        "**Access and Use.** Customer may access and use the Product during the term.\n\n"
        "**Fees**: The amounts payable under an Order Form.\n"
    )
    in_definitions = _definitions(f"## 1. Definitions\n\n{body}")
    assert "Fees" in in_definitions
    assert not {"Note", "Access and Use", "Access and Use."} & set(in_definitions)
    assert _definitions(f"## 2. Services\n\n{body}") == {}  # outside a definitions section: none


def test_a_quoted_term_in_bold_is_read_once_without_its_quotes():
    got = _definitions('## Article I Definitions\n\n**"Business Day"** means any day other than a Saturday.\n')
    assert list(got) == ["Business Day"] and got["Business Day"] == "means any day other than a Saturday."


def test_front_page_fields_and_values_are_no_terms():
    """xml2rfc's front page (``Stream:`` / ``: IETF``) and a test vector (``client in:`` /
    ``: 00200f…``) are definition lists of fields and values, not of terms."""
    got = _definitions(
        "Stream:\n: Internet Engineering Task Force (IETF)\n\nPublished:\n: May 2021\n\n"
        "# 1. Introduction\n\nText.\n\n# A. Sample Packet Protection\n\n"
        "client in:\n: 00200f746c73313320636c69656e7420696e00\n\n"
        "kGranularity:\n: Timer granularity. This is a system-dependent value.\n"
    )
    # the value "Internet Engineering Task Force (IETF)" spells out an abbreviation: that is defined
    assert list(got) == ["IETF", "kGranularity"]
    assert got["IETF"] == "Internet Engineering Task Force"


def test_a_naming_parenthesis_opened_by_a_relative_clause():
    """Series Seed Preferred Stock Investment Agreement 1.2.1 (seriesseed/equity, CC0): "(which date is
    referred to herein as the "Initial Closing")" names the Initial Closing; a relative clause that
    names nothing ("(which is "fair")") defines no term."""
    text = (
        "1.2.1 The initial purchase and sale of the shares hereunder shall take place remotely on the Agreement "
        'Date (which date is referred to herein as the "Initial Closing").\n\n'
        'The Term runs two years (such period being hereinafter called the "Renewal Period"). '
        'The price (which is "fair") is paid in cash.\n'
    )
    tree = build_tree(Document(doc_key="psia.md", title="PSIA", markdown=text, format="md"))
    terms = {d.term for d in tree.definitions}
    assert {"Initial Closing", "Renewal Period"} <= terms and "fair" not in terms


def test_two_quoted_spellings_joined_by_or_are_one_definition():
    """Infosys's CLA (a new user's trial): '“You” or “Your” shall mean …' gave only "Your"; both
    spellings are the term, as in the parenthesised '"You" (or "Your") shall mean'."""
    for text in (
        "“You” or “Your” shall mean the copyright owner or legal entity authorized by the copyright owner.\n",
        '"You" (or "Your") shall mean the copyright owner or legal entity authorized by the copyright owner.\n',
    ):
        tree = build_tree(Document(doc_key="cla.md", title="CLA", markdown="1. Definitions.\n\n" + text, format="md"))
        terms = [d for d in tree.definitions if d.term in ("You", "Your")]
        assert sorted(d.term for d in terms) == ["You", "Your"]
        assert all(d.definition.startswith(("“You” or", '"You" (or')) or "copyright owner" in d.definition for d in terms)


MOZILLA = Path(__file__).parent / "fixtures" / "mozilla-privacy" / "firefox-data-definitions-excerpt.md"


def test_a_tables_column_header_row_is_no_definition():
    # Mozilla's "Data definitions" table: the header row names columns; each row below defines a data type
    text = MOZILLA.read_text(encoding="utf-8")
    defs = _definitions(text)
    rows = [r.split("|")[1].strip() for r in text.splitlines() if r.startswith("| ") and "-----" not in r]
    header, terms = rows[0], rows[1:]
    assert header == "Data Type" and header not in defs, sorted(defs)
    assert set(terms) <= set(defs), sorted(set(terms) - set(defs))
    assert defs["Precise location"].startswith("Your precise location")


def test_a_header_row_of_the_same_form_as_its_rows_stays_an_entry():
    # a converter writes a table's first row as its header whatever it holds: an acronym list
    text = "# Glossary\n\n## Definitions\n\n| ACL | Access Control List |\n| --- | --- |\n" \
           "| CVE | Common Vulnerabilities and Exposures |\n| TLS | Transport Layer Security |\n"
    assert {"ACL", "CVE", "TLS"} <= set(_definitions(text))
