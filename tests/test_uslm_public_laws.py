"""USLM public laws (trial 9: PL 113-67, PL 114-190): no statutory words lost around margin notes,
page markers, inline amending actions or tables; deep subdivisions get ids from their printed
numbers ((VI)(bb)(AA) is not §(bb)(ii)); 5-digit US Code section numbers are whole in references."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from legislation_text_coverage import check


def _convert(tmp_path, name: str, xml: str):
    path = tmp_path / name
    path.write_text(xml, encoding="utf-8")
    return convert_file(SourceFile(name, str(path), FileState(path.stat().st_size, 0, "")))


PUBLIC_LAW = """<?xml version="1.0" encoding="UTF-8"?>
<pLaw xmlns="http://schemas.gpo.gov/xml/uslm" xmlns:dc="http://purl.org/dc/elements/1.1/">
<meta><dc:title>Public Law 114–190: To amend title 49.</dc:title></meta>
<preface><page>130 STAT. 615</page><dc:type>Public Law</dc:type><docNumber>114–190</docNumber><congress value="114">114th Congress</congress></preface>
<main>
<longTitle><docTitle>An Act</docTitle><officialTitle>To amend title 49.</officialTitle></longTitle>
<title><num value="II">TITLE II—</num><heading>SAFETY</heading>
<section><num value="2101">SEC. 2101. </num><heading>AMENDMENTS.</heading>
<chapeau>The Act <amendingAction type="amend">is amended</amendingAction> as follows:</chapeau>
<paragraph><num value="1">(1) </num><content>In section 252(b)(2)(B),<sidenote><p class="centered"><ref href="/us/usc/t2/s902">2 USC 902</ref>.</p></sidenote> strike “applicable to budget year” and insert “applicable to the budget year”.<page>127 STAT. 1175</page> And so on.</content></paragraph>
<paragraph><num value="2">(2) </num><content>by <amendingAction type="add">adding</amendingAction> at the end the following:<quotedContent><subparagraph><num value="C">“(C) </num><content>The applicable percentage for a participant shall be as follows:<table xmlns="http://www.w3.org/1999/xhtml"><caption>Schedule of Rates</caption><tr><td>Year</td><td>Percent</td></tr><tr><td>2014</td><td>2.3</td></tr></table></content></subparagraph></quotedContent></content></paragraph>
<paragraph><num value="3">(3) </num><content>Section 1400Z–1 <amendingAction type="amend">is amended</amendingAction> by <amendingAction type="add">adding</amendingAction> at the end the following new subsection:<quotedContent><subsection><num value="g">“(g) </num><content>Special rule.”.</content></subsection></quotedContent></content></paragraph>
</section>
<section><num value="2110">SEC. 2110. </num><heading>TOWER MARKING.</heading>
<subsection><num value="d">(d) </num><heading>Definitions.—</heading>
<paragraph><num value="1">(1) </num><heading>In general.—</heading><chapeau>In this section:</chapeau>
<subparagraph><num value="A">(A) </num><heading>Covered tower.—</heading>
<clause><num value="i">(i) </num><heading>In general.—</heading><chapeau>The term <term>covered tower</term> means a structure that—</chapeau>
<subclause><num value="I">(I) </num><content>has property I;</content></subclause>
<subclause><num value="II">(II) </num><content>has property II;</content></subclause>
<subclause><num value="III">(III) </num><content>has property III;</content></subclause>
<subclause><num value="IV">(IV) </num><content>has property IV;</content></subclause>
<subclause><num value="V">(V) </num><content>has accessory facilities; and</content></subclause>
<subclause><num value="VI">(VI) </num><chapeau>is located—</chapeau>
<item><num value="aa">(aa) </num><content>outside the boundaries of an incorporated city; or</content></item>
<item><num value="bb">(bb) </num><chapeau>on land that is—</chapeau>
<subitem><num value="AA">(AA) </num><content>undeveloped; or</content></subitem>
<subitem><num value="BB">(BB) </num><content>used for agricultural purposes.</content></subitem>
</item></subclause></clause>
<clause><num value="ii">(ii) </num><heading>Exclusions.—</heading><chapeau>The term does not include a structure that—</chapeau>
<subclause><num value="I">(I) </num><content>is adjacent to a house; or</content></subclause>
<subclause><num value="II">(II) </num><content>is within the curtilage of a farmstead.</content></subclause>
</clause></subparagraph>
<subparagraph><num value="B">(B) </num><heading>Undeveloped.—</heading><content>The term <term>undeveloped</term> means a defined geographic area.</content></subparagraph>
</paragraph>
<paragraph><num value="2">(2) </num><heading>Other definitions.—</heading><content>Amounts are made available under section 48103(a) of title 49 and section 40117 of title 49.</content></paragraph>
</subsection>
</section>
</title>
</main>
<legislativeHistory><heading><inline class="underline">LEGISLATIVE HISTORY</inline>—<ref href="/us/bill/114/hr/636">H.R. 636</ref>:</heading>
<note><heading>CONGRESSIONAL RECORD:</heading><p>Feb. 13, considered and passed House.</p></note></legislativeHistory>
</pLaw>
"""


def test_no_words_of_a_public_law_are_lost(tmp_path):
    doc = _convert(tmp_path, "pl.xml", PUBLIC_LAW)
    text = " ".join(doc.markdown.split())
    for words in ("In section 252(b)(2)(B), strike “applicable to budget year” and insert “applicable to the budget year”.",
                  "And so on.", "The applicable percentage for a participant shall be as follows:", "Schedule of Rates",
                  "Section 1400Z–1 is amended by adding at the end the following new subsection:",
                  "LEGISLATIVE HISTORY—H.R. 636:"):
        assert words in text, words
    assert "*Margin note: 2 USC 902.*" in doc.markdown  # the margin note is a paragraph of its own
    assert "127 STAT. 1175" not in text  # page markers stay out
    assert doc.markdown.startswith("Public Law 114–190 114th Congress An Act To amend title 49.")
    path = tmp_path / "pl.xml"
    result = check(path)
    assert result["lost_words"] == 0, result


def test_deep_subdivisions_follow_their_printed_numbers(tmp_path):
    tree = build_tree(_convert(tmp_path, "pl.xml", PUBLIC_LAW))
    ids = {s.section_id: s for s in tree.sections}
    base = "title-ii/2110(d)(1)(A)" if "title-ii/2110(d)(1)(A)" in ids else "2110(d)(1)(A)"
    expected = [base + "(i)(VI)(aa)", base + "(i)(VI)(bb)", base + "(i)(VI)(bb)(AA)", base + "(i)(VI)(bb)(BB)",
                base + "(ii)", base + "(ii)(I)", base + "(ii)(II)", base[:-3] + "(B)", base[:-6] + "(2)"]
    assert all(e in ids for e in expected), sorted(ids)
    assert ids[base + "(ii)"].parent_id == base
    assert not any(re.search(r"2110\((aa|bb)\)", i) for i in ids)
    # "(g)" of the quoted amendment is text of § 2101, not a subsection of this law
    assert not any(re.fullmatch(r"(title-ii/)?2101\(g\)", i) for i in ids)


def test_doubled_letters_after_z_continue_the_list(tmp_path):
    items = "\n".join(f'<paragraph><num value="{c}">({c}) </num><content>Term {c} means thing {c}.</content></paragraph>'
                      for c in [chr(97 + i) for i in range(26)] + ["aa", "bb"])
    xml = PUBLIC_LAW.split("<main>")[0] + f"""<main><section><num value="2">SEC. 2. </num><heading>DEFINITIONS.</heading>
<chapeau>In this Act:</chapeau>{items}</section></main></pLaw>"""
    ids = {s.section_id: s for s in build_tree(_convert(tmp_path, "defs.xml", xml)).sections}
    assert ids["2(aa)"].parent_id == "2" and ids["2(bb)"].parent_id == "2", sorted(ids)


def test_five_digit_us_code_sections_are_whole_in_references(tmp_path):
    tree = build_tree(_convert(tmp_path, "pl.xml", PUBLIC_LAW))
    texts = [x.text for x in tree.cross_references]
    assert "section 48103(a) of title 49" in texts and "section 40117 of title 49" in texts, texts
    assert not any(re.fullmatch(r"[Ss]ection 4810", t) for t in texts)


def test_five_digit_us_code_sections_are_sections(tmp_path):
    xml = """<?xml version="1.0"?><uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0"><main>
<chapter><num>CHAPTER 481—</num><heading>AIRPORT DEVELOPMENT</heading>
<section><num value="48103">§ 48103.</num><heading>Airport improvement program</heading><subsection><num>(a)</num>
<content>In general. Funds are available, see section 48104(b).</content></subsection></section>
<section><num value="48104">§ 48104.</num><heading>Other</heading><subsection><num>(b)</num><content>Rules.</content>
</subsection></section></chapter></main></uscDoc>"""
    tree = build_tree(_convert(tmp_path, "t49.xml", xml))
    ids = {s.section_id: s for s in tree.sections}
    assert {"48103", "48103(a)", "48104", "48104(b)"} <= set(ids), sorted(ids)
    ref = next(x for x in tree.cross_references if x.text == "section 48104(b)")
    assert ref.section_id == "48104(b)"


def test_subtitles_are_containers_of_their_title(tmp_path):
    xml = PUBLIC_LAW.split("<main>")[0] + """<main><title><num value="I">TITLE I—</num><heading>AIRPORTS</heading>
<subtitle><num value="A">Subtitle A—</num><heading>Airport and Airway Programs</heading>
<section><num value="1101">SEC. 1101. </num><heading>AUTHORIZATION.</heading><content>Amounts are authorized.</content></section>
</subtitle><subtitle><num value="B">Subtitle B—</num><heading>Revenue Provisions</heading>
<section><num value="1201">SEC. 1201. </num><heading>EXPENDITURE AUTHORITY.</heading><content>Funds are available.</content></section>
</subtitle></title></main></pLaw>"""
    ids = {s.section_id: s for s in build_tree(_convert(tmp_path, "t1.xml", xml)).sections}
    assert ids["subtitle-a"].parent_id == "title-i" and ids["subtitle-b"].parent_id == "title-i", sorted(ids)
    assert ids["1101"].parent_id == "subtitle-a" and ids["1201"].parent_id == "subtitle-b"


def test_headings_inside_text_are_kept(tmp_path):
    # Federal Register USLM writes its subheads as <heading>s inside <content>, not as provisions' own
    xml = PUBLIC_LAW.split("<main>")[0] + """<main><section><num value="1">SEC. 1. </num><heading>RULE.</heading>
<content><heading>SUPPLEMENTARY INFORMATION:</heading><heading>Need for Correction</heading>
<p>As published, the final rule contains an error.</p></content></section></main></pLaw>"""
    doc = _convert(tmp_path, "fr.xml", xml)
    assert "**Need for Correction**" in doc.markdown and "**SUPPLEMENTARY INFORMATION:**" in doc.markdown
    assert check(tmp_path / "fr.xml")["lost_words"] == 0
