"""Justice Canada consolidation XML (laws-lois.justice.gc.ca) and the Commonwealth drafting forms it
brought out: flat headings nested by level, inserted provisions "(c.1)", roman "(i)" after "(h)",
"“term”, with respect to …, means", subheadings under a titled Division (session 14, trial 9)."""

from __future__ import annotations

import re

from docstrata.convert import convert_file
from docstrata.models import Document, FileState, SourceFile
from docstrata.structure import build_tree

ACT = """<?xml version="1.0" encoding="utf-8"?>
<Statute xmlns:lims="http://justice.gc.ca/lims" lims:id="1" xml:lang="en">
<Identification><LongTitle>An Act to protect personal information</LongTitle>
<ShortTitle status="official">Example Protection Act</ShortTitle><RunningHead>Example</RunningHead></Identification>
<Body>
<Heading level="1"><Label>PART 1</Label><TitleText>Protection of Personal Information</TitleText></Heading>
<Heading level="2"><TitleText>Interpretation</TitleText></Heading>
<Section><MarginalNote>Definitions</MarginalNote><Label>2</Label>
<Subsection><Label>(1)</Label><Text>The definitions in this subsection apply in this Part.</Text>
<Definition><Text><DefinedTermEn>alternative format</DefinedTermEn>, with respect to personal information, means a format that a person with a sensory disability can read. (<DefinedTermFr>support de substitution</DefinedTermFr>)</Text></Definition>
<Definition><Text><DefinedTermEn>business transaction</DefinedTermEn> includes</Text>
<Paragraph><Label>(a)</Label><Text>the purchase of an organization; and</Text></Paragraph>
<Paragraph><Label>(b)</Label><Text>the merger of two organizations.</Text></Paragraph></Definition>
<Definition><Text><DefinedTermEn>computer program</DefinedTermEn> has the same meaning as in subsection 342.1(2) of the <XRefExternal reference-type="act" link="C-46">Criminal Code</XRefExternal>. (<DefinedTermFr>programme d’ordinateur</DefinedTermFr>)</Text></Definition>
<Definition><Text><DefinedTermEn>organization</DefinedTermEn> includes an association and a trade union. (<DefinedTermFr>organisation</DefinedTermFr>)</Text></Definition>
</Subsection></Section>
<Heading level="2"><Label>DIVISION 2</Label><TitleText>Remedies</TitleText></Heading>
<Heading level="3"><TitleText>Filing of Complaints</TitleText></Heading>
<Section><MarginalNote>Disclosure without consent</MarginalNote><Label>7</Label>
<Subsection><Label>(3)</Label><Text>An organization may disclose personal information only if the disclosure is</Text>
<Paragraph><Label>(a)</Label><Text>made to a lawyer;</Text></Paragraph>
<Paragraph><Label>(b)</Label><Text>for the purpose of collecting a debt;</Text></Paragraph>
<Paragraph><Label>(c)</Label><Text>required to comply with a subpoena;</Text></Paragraph>
<Paragraph><Label>(c.1)</Label><Text>made to a government institution that has made a request;</Text></Paragraph>
<Paragraph><Label>(d)</Label><Text>made on the initiative of the organization;</Text></Paragraph>
<Paragraph><Label>(e)</Label><Text>made to a person who needs it in an emergency;</Text></Paragraph>
<Paragraph><Label>(f)</Label><Text>for statistical study;</Text></Paragraph>
<Paragraph><Label>(g)</Label><Text>made to an archive;</Text></Paragraph>
<Paragraph><Label>(h)</Label><Text>made after the earlier of</Text>
<Subparagraph><Label>(i)</Label><Text>one hundred years after the record was created, and</Text></Subparagraph>
<Subparagraph><Label>(ii)</Label><Text>twenty years after the death of the individual.</Text></Subparagraph></Paragraph>
<Paragraph><Label>(i)</Label><Text>required by law.</Text></Paragraph>
</Subsection>
<HistoricalNote><HistoricalNoteSubItem>2000, c. 5, s. 7</HistoricalNoteSubItem></HistoricalNote></Section>
</Body>
<Schedule><ScheduleFormHeading><Label>SCHEDULE 1</Label><OriginatingRef>(Section 5)</OriginatingRef><TitleText>Principles</TitleText></ScheduleFormHeading>
<DocumentInternal><GroupHeading format-ref="group1-part"><TitleText>Principle 1 — Accountability</TitleText></GroupHeading>
<Provision><Text>An organization is responsible for personal information under its control.</Text></Provision>
<TableGroup><table><tgroup cols="2"><tbody><row><entry>Item</entry><entry>Organization</entry></row>
<row><entry>1</entry><entry>World Anti-Doping Agency</entry></row></tbody></tgroup></table></TableGroup>
</DocumentInternal></Schedule>
<RecentAmendments><Amendment><AmendmentCitation>2024, c. 17</AmendmentCitation><AmendmentDate>2025-03-04</AmendmentDate></Amendment></RecentAmendments>
</Statute>
"""


def _tree(tmp_path):
    path = tmp_path / "act.xml"
    path.write_text(ACT, encoding="utf-8")
    doc = convert_file(SourceFile("act.xml", str(path), FileState(path.stat().st_size, 0, "")))
    return doc, build_tree(doc)


def test_justice_canada_xml_is_legislation_with_nested_headings(tmp_path):
    doc, tree = _tree(tmp_path)
    assert doc.title == "Example Protection Act"
    assert not any("generic XML" in w for w in doc.warnings)
    by_id = {s.section_id: s for s in tree.sections}
    part = next(s for s in tree.sections if s.number == "PART 1")
    interp = next(s for s in tree.sections if s.title == "Interpretation")
    assert interp.parent_id == part.section_id
    sec2 = next(s for s in tree.sections if s.number == "2")
    assert sec2.parent_id == interp.section_id and sec2.title == "2 Definitions"
    division = next(s for s in tree.sections if s.number == "DIVISION 2")
    filing = next(s for s in tree.sections if s.title == "Filing of Complaints")
    assert division.title == "DIVISION 2 Remedies" and filing.parent_id == division.section_id
    assert by_id["7"].parent_id == filing.section_id
    schedule = next(s for s in tree.sections if s.number == "SCHEDULE 1")
    assert schedule.title == "SCHEDULE 1 Principles" and schedule.level == 1
    principle = next(s for s in tree.sections if s.title == "Principle 1 — Accountability")
    assert principle.parent_id == schedule.section_id
    assert "| 1 | World Anti-Doping Agency |" in doc.markdown  # a CALS table (row/entry)


def test_justice_canada_inserted_and_roman_items(tmp_path):
    doc, tree = _tree(tmp_path)
    assert "2000, c. 5, s. 7" in doc.markdown  # the historical note is kept, as text
    by_id = {s.section_id: s for s in tree.sections}
    for sid in ("7(3)(c)", "7(3)(c.1)", "7(3)(d)", "7(3)(h)", "7(3)(h)(i)", "7(3)(h)(ii)", "7(3)(i)"):
        assert sid in by_id, (sid, sorted(by_id))
    assert by_id["7(3)(c.1)"].parent_id == "7(3)"
    assert by_id["7(3)(h)(i)"].parent_id == "7(3)(h)" and by_id["7(3)(i)"].parent_id == "7(3)"


def test_justice_canada_definitions_and_limbs(tmp_path):
    _, tree = _tree(tmp_path)
    terms = {d.term: d for d in tree.definitions}
    assert {"alternative format", "business transaction", "computer program", "organization"} <= set(terms)
    assert "(a) the purchase of an organization" in terms["business transaction"].definition
    # the limbs of a definition stay in it: "organization" is not filed under (b) of the one before
    assert not any(s.section_id.startswith("2(1)(") for s in tree.sections)


def _parse(markdown: str, heading_levels: bool = False):
    """``heading_levels``: the headings are stated as legislation XML's converter states them
    (``markup`` heading blocks with their level and printed number)."""
    blocks = []
    if heading_levels:
        from dataclasses import replace

        from docstrata.convert.document import markdown_blocks

        label = re.compile(r"^((?:PART|DIVISION|SCHEDULE|Article)\s+[\d.]+|\d+(?:\.\d+)*)\b")
        blocks = [replace(b, provenance="markup", number=(m.group(1) if (m := label.match(b.title or "")) else None))
                  if b.kind == "heading" else b for b in markdown_blocks(markdown)]
    return build_tree(Document("t.md", "t", markdown, "md", blocks=blocks))


def test_inserted_item_numbers_in_plain_text():
    tree = _parse("# 5 Disclosure\n\n(1) An organization may disclose if\n\n(a) first;\n\n(a.1) inserted;\n\n"
                  "(b) second.\n\n(1.1) Inserted subsection applies.\n\n(2) Second subsection applies.\n")
    ids = [s.section_id for s in tree.sections]
    assert ids[-6:] == ["5(1)", "5(1)(a)", "5(1)(a.1)", "5(1)(b)", "5(1.1)", "5(2)"]
    refs = _parse("# 1 Scope\n\nSee paragraph 7(3)(c.1) of the Act.\n").cross_references
    assert any("7(3)(c.1)" in r.text for r in refs)


def test_roman_one_after_h_when_ii_follows():
    tree = _parse("# 9 Access\n\n(a) first;\n\n(b) second;\n\n(c) third;\n\n(d) fourth;\n\n(e) fifth;\n\n"
                  "(f) sixth;\n\n(g) seventh;\n\n(h) made after the earlier of\n\n(i) one hundred years, and\n\n"
                  "(ii) twenty years after death.\n")
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["9(h)(i)"].parent_id == "9(h)" and by_id["9(h)(ii)"].parent_id == "9(h)"


def test_titled_division_keeps_its_subheading():
    """Where heading levels are the markup's nesting (legislation XML; PDF outlines keep the merge)."""
    tree = _parse("# PART 1 General\n\n## DIVISION 2 Remedies\n\n### Filing of Complaints\n\n#### 11 Contravention\n\n"
                  "Text.\n\n# PART 2 Other\n\n## Article 4\n\n### Definitions\n\nText.\n", heading_levels=True)
    titles = [s.title for s in tree.sections]
    assert "DIVISION 2 Remedies" in titles and "Filing of Complaints" in titles
    assert "Article 4 Definitions" in titles  # a bare label heading is still titled by the heading below


def test_inserted_division_and_body_section_beside_a_schedule_clause():
    """Legislation XML output (heading levels from the markup): its "DIVISION 1.1" is one label; in
    text and PDF, "PART 5.12.3.1" stays Part 5's rule 12.3.1 (ADGM rulebooks)."""
    tree = _parse("# PART 1 General\n\n## DIVISION 1 Protection\n\n### 4.1 Certificate\n\nText.\n\n"
                  "## DIVISION 1.1 Breaches\n\n### 10.1 Report\n\nText.\n\n"
                  "# SCHEDULE 1 Principles\n\n## 4.1 Principle 1 — Accountability\n\nText.\n", heading_levels=True)
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["division-1.1"].number == "DIVISION 1.1" and by_id["10.1"].parent_id == "division-1.1"
    assert "Division 1.1" in by_id["division-1.1"].aliases
    # the Act's own section 4.1 keeps the bare id and "Section 4.1"; the schedule's clause is qualified
    assert by_id["4.1"].title == "4.1 Certificate" and "Section 4.1" in by_id["4.1"].aliases
    assert by_id["schedule-1/4.1"].parent_id == "schedule-1"
    assert not any(a in ("Section 4.1", "4.1") for a in by_id["schedule-1/4.1"].aliases)
    text = _parse("# PART 5 Funds\n\n## PART 5.12 MANAGEMENT OF A FUND\n\n### PART 5.12.3.1 Fund Manager\n\nText.\n")
    assert "12.3.1" in {s.section_id for s in text.sections}


def test_citation_keys_of_inserted_provisions_divisions_and_regulations():
    from docstrata.index.exact import alias_keys, query_section_keys

    # the item's own keys first, then its enclosing provisions as fallbacks (citation grammar: a
    # query naming an item that is no section of its own finds the section holding it)
    assert query_section_keys("section 7(3)(c.1)") == [["section 7(3)(c.1)", "7(3)(c.1)", "section 7(3)", "7(3)",
                                                        "section 7", "7"]]
    assert "7(3)(c.1)" in alias_keys("Section 7(3)(c.1)")
    assert query_section_keys("Division 1.1") == [["division 1.1"]] and alias_keys("DIVISION 1.1") == ["division 1.1"]
    assert query_section_keys("reg. 5(1)(a)") == [["regulation 5(1)(a)", "5(1)(a)", "regulation 5(1)", "5(1)",
                                                   "regulation 5", "5"]]
