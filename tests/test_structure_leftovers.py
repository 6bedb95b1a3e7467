"""Structure-recovery leftovers reported on real documents: the EUPL's ``1.Definitions`` headings
written without a space, the Apache License's indented ``(a)`` limbs, a glossary line that wraps
into a "words:" (FIPS 200), and a contents line naming a section by number and title in a
document with two series of that number (FIPS 200's notice items and body sections).

Inputs are built here from the documents' own wording: the EUPL v1.2 (© European Union, reuse
authorised, Commission Decision 2011/833/EU), the Apache License 2.0 (its text may be reproduced
verbatim) and FIPS 200 (a US government work)."""

from __future__ import annotations

from docstrata.structure.definitions import extract_definitions
from docstrata.structure.parse import parse_sections
from docstrata.structure.xrefs import extract_cross_references


def _sections(text: str) -> list[tuple[str, str | None, str]]:
    return [(s.section_id, s.parent_id, s.title) for s in parse_sections(text, "d.txt", "D").sections]


EUPL = """EUROPEAN UNION PUBLIC LICENCE v. 1.2
EUPL © the European Union 2007, 2016

This European Union Public Licence (the 'EUPL') applies to the Work (as defined below).

1.Definitions
In this Licence, the following terms have the following meaning:
— 'The Licence':this Licence.

2.Scope of the rights granted by the Licence
The Licensor hereby grants You a worldwide, royalty-free, non-exclusive, sublicensable licence.

3.Communication of the Source Code
The Licensor may provide the Work either in its Source Code form, or as Executable Code.

4.Limitations on copyright
Nothing in this Licence is intended to deprive the Licensee of the benefits from any exception.
"""


def test_headings_written_without_a_space_after_the_number_are_sections_when_they_form_a_series():
    got = _sections(EUPL)
    assert [(i, t) for i, _, t in got] == [
        ("preamble", "D"), ("1", "1 Definitions"), ("2", "2 Scope of the rights granted by the Licence"),
        ("3", "3 Communication of the Source Code"), ("4", "4 Limitations on copyright")]
    tree = parse_sections(EUPL, "d.txt", "D")
    assert tree.sections[1].heading == "1.Definitions"
    assert "the following terms" in tree.sections[1].text


def test_decimals_abbreviations_lone_and_sentence_lines_stay_body_text():
    # a decimal, an abbreviation, a single "N.Word" line, and a series whose lines are sentences
    text = ("Intro.\n\n3.14 metres is the width.\ne.g.This is prose.\n\n1.Note the gap.\n\n"
            "1.The Licensor shall provide the Work to every person who asks.\n"
            "2.The Licensee must keep intact all notices that refer to the Licence.\n"
            "3.The Work is provided on an as is basis and without warranties of any kind.\n")
    assert [i for i, _, _ in _sections(text)] == ["preamble"]
    two = "Intro.\n\n1.Definitions\nText.\n\n2.Scope\nText.\n"  # two lines make no series
    assert [i for i, _, _ in _sections(two)] == ["preamble"]


APACHE = """                                 Apache License
                           Version 2.0, January 2004

   3. Grant of Patent License. Subject to the terms and conditions of
      this License, each Contributor hereby grants to You a patent license.

   4. Redistribution. You may reproduce and distribute copies of the
      Work or Derivative Works thereof in any medium, with or without
      modifications, provided that You meet the following conditions:

      (a) You must give any other recipients of the Work or
          Derivative Works a copy of this License; and

      (b) You must cause any modified files to carry prominent notices
          stating that You changed the files; and

      (c) You must retain, in the Source form of any Derivative Works
          that You distribute, all copyright notices; and

      You may add Your own copyright statement to Your modifications.

   5. Submission of Contributions. Unless You explicitly state otherwise,
      any Contribution shall be under the terms of this License.
"""


def test_indented_limbs_under_a_numbered_clause_are_items_of_it():
    got = _sections(APACHE)
    assert [(i, p) for i, p, _ in got] == [
        ("preamble", None), ("3", None), ("4", None), ("4(a)", "4"), ("4(b)", "4"), ("4(c)", "4"),
        ("4-flush", "4"), ("5", None)]
    tree = parse_sections(APACHE, "d.txt", "D")
    by_id = {s.section_id: s for s in tree.sections}
    assert "stating that You changed the files" in by_id["4(b)"].text
    assert "Your own copyright statement" in by_id["4-flush"].text


def test_a_lone_or_mid_sentence_indented_item_stays_body_text():
    lone = APACHE.replace("      (b) You must cause", "      You must cause").replace("      (c) You", "      You")
    assert "4(a)" not in [i for i, _, _ in _sections(lone)]
    wrapped = ("   1. Scope. This applies to the cases listed in\n      (a) above, to the cases in\n"
               "      (b) below and to no other.\n\n   2. Terms. The terms apply.\n")
    assert [i for i, _, _ in _sections(wrapped)] == ["1", "2"]


FIPS_GLOSSARY = """# APPENDIX A TERMS AND DEFINITIONS

AGENCY:  Any executive department, military department, government corporation, or other
establishment in the executive branch.  [44 U.S.C., SEC. 3502]

INFORMATION TECHNOLOGY:  Any equipment or interconnected system or subsystem of equipment
that is used in the automatic acquisition of data or information by the executive
agency. For purposes of the preceding sentence, equipment is used by an executive agency if the
equipment is used by the executive agency directly or is used by a contractor under a contract with the
executive agency which: (i) requires the use of such equipment; or (ii) requires the use, to a significant
extent, of such equipment in the performance of a service.  [40 U.S.C., SEC. 1401]

INFORMATION TYPE:  A specific category of information, defined by an organization.
"""


def test_a_wrapped_line_whose_words_end_in_a_colon_is_no_glossary_term():
    tree = parse_sections(FIPS_GLOSSARY, "fips200.pdf", "FIPS 200")
    got = {d.term: d.definition for d in extract_definitions(tree)}
    assert set(got) == {"AGENCY", "INFORMATION TECHNOLOGY", "INFORMATION TYPE"}
    assert "executive agency which: (i) requires" in got["INFORMATION TECHNOLOGY"]


FIPS_NOTICE = """# 1. Name of Standard.

FIPS Publication 200.

# 2. Category of Standard.

Information Security.

# 3. Where to Obtain Copies.

This publication is available from the NIST web site.

TABLE OF CONTENTS

SECTION 1     PURPOSE .... 1
SECTION 2     MINIMUM SECURITY REQUIREMENTS .... 2

# 1 PURPOSE

The E-Government Act of 2002 recognized the importance of information security.

# 2 MINIMUM SECURITY REQUIREMENTS

See Section 1 for the purpose, and Section 2, Category of Standard, for the category.
"""


def test_a_reference_followed_by_a_title_resolves_to_the_section_of_that_title_among_two_numbered_alike():
    tree = parse_sections(FIPS_NOTICE, "fips200.pdf", "FIPS 200")
    titles = {s.section_id: s.title for s in tree.sections}
    assert titles["1"] == "1. Name of Standard." and titles["1-2"] == "1 PURPOSE"
    refs = [(r.source_section_id, r.text, r.section_id) for r in extract_cross_references(tree)]
    assert ("3", "SECTION 1", "1-2") in refs and ("3", "SECTION 2", "2-2") in refs
    # no title after it: the first section so numbered, as before; a title: the one titled so
    assert ("2-2", "Section 1", "1") in refs and ("2-2", "Section 2", "2") in refs
