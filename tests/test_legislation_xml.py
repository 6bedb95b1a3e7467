"""Legislation XML (USLM, Akoma Ntoso, UK CLML) as a first-class input (issue 14, kind 9)."""

from __future__ import annotations

import json

import pytest

from docstrata.convert import convert_file
from docstrata.errors import ConversionError
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

from .conftest import shared_data


def _convert(tmp_path, name: str, xml: str):
    path = tmp_path / name
    path.write_text(xml, encoding="utf-8")
    return convert_file(SourceFile(name, str(path), FileState(path.stat().st_size, 0, "")))


USLM = """<?xml version="1.0" encoding="UTF-8"?>
<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0" identifier="/us/usc/t1">
<meta><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">Title 1</dc:title></meta>
<main>
<title identifier="/us/usc/t1"><num value="1">Title 1—</num><heading>GENERAL PROVISIONS</heading>
<toc><tocItem><column>1.</column><column>Rules of construction</column></tocItem></toc>
<chapter identifier="/us/usc/t1/ch1"><num value="1">CHAPTER 1—</num><heading>RULES OF CONSTRUCTION</heading>
<section identifier="/us/usc/t1/s3"><num value="3">§ 3.</num><heading>“Vessel” as including all means of water transportation</heading>
<content>The word <term>vessel</term> includes every description of watercraft used as a means of transportation on water.</content>
<notes><note><heading>Amendments</heading><p>(a) 1996—Subsec. (a) amended generally.</p></note></notes>
</section>
<section identifier="/us/usc/t1/s8"><num value="8">§ 8.</num><heading>“Person” as including born-alive infant</heading>
<subsection identifier="/us/usc/t1/s8/a"><num value="a">(a)</num><content>In determining the meaning of any Act of Congress, the words “person” and “child” shall include every infant born alive.</content></subsection>
<subsection identifier="/us/usc/t1/s8/b"><num value="b">(b)</num><chapeau>As used in this section, the term <term>“born alive”</term> means the complete expulsion of that member—</chapeau>
<paragraph identifier="/us/usc/t1/s8/b/1"><num value="1">(1)</num><content>breathes; or</content></paragraph>
<paragraph identifier="/us/usc/t1/s8/b/2"><num value="2">(2)</num><content>has a beating heart, see <ref href="/us/usc/t1/s3">section 3 of this title</ref>.</content></paragraph>
</subsection>
</section>
</chapter>
</title>
</main>
</uscDoc>
"""


def test_uslm_sections_subsections_terms_and_refs(tmp_path):
    doc = _convert(tmp_path, "usc01.xml", USLM)
    assert doc.title == "Title 1" and doc.format == "xml"
    assert "Rules of construction\n" not in doc.markdown  # the TOC is not body text
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert {"3", "8", "8(a)", "8(b)", "8(b)(1)", "8(b)(2)"} <= set(by_id)
    assert by_id["8(b)(2)"].parent_id == "8(b)" and by_id["8(b)"].parent_id == "8"
    assert by_id["3"].title.startswith("§ 3") and by_id["3"].parent_chain[:2] == [
        "Title 1 GENERAL PROVISIONS", "CHAPTER 1 RULES OF CONSTRUCTION"]
    terms = {d.term.lower(): d for d in tree.definitions}
    assert "born alive" in terms and terms["born alive"].section_id == "8(b)"
    assert "vessel" in terms and terms["vessel"].definition.startswith("includes every description")
    ref = next(x for x in tree.cross_references if x.source_section_id == "8(b)(2)")
    assert ref.section_id == "3"
    # a quoted amendment note line "(a) 1996—…" is body text of § 3, not a subsection of it
    assert "3(a)" not in by_id


AKN = """<?xml version="1.0" encoding="UTF-8"?>
<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0">
<act name="regulation">
<meta><identification source="#x"><FRBRWork><FRBRthis value="/akn/eu/act/2016/679"/></FRBRWork></identification></meta>
<preface><p><docTitle>Data Regulation</docTitle></p></preface>
<body>
<chapter eId="chp_I"><num>CHAPTER I</num><heading>General provisions</heading>
<article eId="art_1"><num>Article 1</num><heading>Subject-matter</heading>
<paragraph eId="art_1__para_1"><num>1.</num><content><p>This Regulation lays down rules, subject to <ref href="#art_2">Article 2</ref>.</p></content></paragraph>
</article>
<article eId="art_2"><num>Article 2</num><heading>Definitions</heading>
<paragraph eId="art_2__para_1"><content><p>For the purposes of this Regulation:</p></content></paragraph>
<point eId="art_2__point_1"><num>(1)</num><content><p>‘<def>controller</def>’ means the body which determines the purposes of processing;</p></content></point>
<point eId="art_2__point_2"><num>(2)</num><content><p><def>processor</def> means a body which processes data on behalf of the controller;</p></content></point>
</article>
</chapter>
</body>
</act>
</akomaNtoso>
"""


def test_akoma_ntoso_chapters_articles_points_and_defs(tmp_path):
    doc = _convert(tmp_path, "reg.xml", AKN)
    assert doc.title == "Data Regulation"
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert {"article-1", "article-2"} <= set(by_id)
    assert by_id["article-2"].parent_chain[0] == "CHAPTER I General provisions"
    assert [d.term for d in tree.definitions] == ["controller", "processor"]
    assert all(d.section_id.startswith("article-2") for d in tree.definitions)
    ref = next(x for x in tree.cross_references if x.text == "Article 2")
    assert ref.section_id == "article-2"


CLML = """<?xml version="1.0" encoding="UTF-8"?>
<Legislation xmlns="http://www.legislation.gov.uk/namespaces/legislation"
  xmlns:ukm="http://www.legislation.gov.uk/namespaces/metadata">
<ukm:Metadata><ukm:PrimaryMetadata/></ukm:Metadata>
<Primary>
<PrimaryPrelims><Title>Tribunals Act 2014</Title><LongTitle>An Act to establish tribunals.</LongTitle></PrimaryPrelims>
<Body>
<Part><Number>PART 1</Number><Title>The Tribunals</Title>
<P1group><Title>Establishment of the Tribunals</Title>
<P1 id="section-1"><Pnumber>1</Pnumber><P1para>
<P2><Pnumber>1</Pnumber><P2para><Text>There are established two tribunals—</Text>
<P3><Pnumber>a</Pnumber><P3para><Text>the First-tier Tribunal,</Text></P3para></P3>
<P3><Pnumber>b</Pnumber><P3para><Text>the Upper Tribunal.</Text></P3para></P3>
</P2para></P2>
<P2><Pnumber>2</Pnumber><P2para><Text>The Tribunals mentioned in subsection (1) are independent, see <Citation URI="http://www.legislation.gov.uk/id/ssi/2009/183">S.S.I. 2009/183</Citation>.</Text></P2para></P2>
</P1para></P1>
</P1group>
<P1group><Title>Interpretation</Title>
<P1 id="section-2"><Pnumber>2</Pnumber><P1para><Text>In this Act—</Text>
<Text>“<Term id="term-tribunal">tribunal</Term>” means the First-tier Tribunal or the Upper Tribunal,</Text>
<Text>“<Term id="term-member">member</Term>” includes a judge.</Text>
</P1para></P1>
</P1group>
</Part>
</Body>
</Primary>
</Legislation>
"""


def test_clml_p1group_sections_subsections_and_terms(tmp_path):
    doc = _convert(tmp_path, "asp.xml", CLML)
    assert doc.title == "Tribunals Act 2014"
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert {"1", "1(1)", "1(1)(a)", "1(1)(b)", "1(2)", "2"} <= set(by_id)
    assert by_id["1"].title == "1 Establishment of the Tribunals"
    assert by_id["1(1)(b)"].parent_id == "1(1)" and by_id["1"].parent_chain[0] == "PART 1 The Tribunals"
    assert {d.term for d in tree.definitions} >= {"tribunal", "member"}
    ref = next(x for x in tree.cross_references if x.source_section_id == "1(2)" and "(1)" in x.text)
    assert ref.section_id == "1(1)"


def test_malformed_xml_fails_with_a_reason(tmp_path):
    with pytest.raises(ConversionError, match="malformed XML at line 2"):
        _convert(tmp_path, "bad.xml", "<uscDoc>\n<section></uscDoc>")


USLM_NOTES = """<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0"><main>
<chapter><num value="2">CHAPTER 2—</num><heading>ACTS</heading>
<section identifier="/us/usc/t1/s112a"><num value="112a">§ 112a.</num><heading>Treaties</heading>
<subsection><num value="a">(a)</num><content>The Secretary shall publish treaties.</content></subsection>
<subsection><num value="b">(b)</num><chapeau>The Secretary may omit an agreement if—</chapeau>
<paragraph><num value="1">(1)</num><content>it is not a treaty; and</content></paragraph>
<paragraph><num value="2">(2)</num><content>the public interest is small.</content></paragraph></subsection>
<sourceCredit>(Added Pub. L. 89–497, July 8, 1966, 80 Stat. 271.)</sourceCredit>
<notes type="uscNote"><note topic="amendments"><heading>Amendments</heading><p>1994—Subsec. (b) amended generally.</p></note></notes>
</section>
<section identifier="/us/usc/t1/s113"><num value="113">§ 113.</num><heading>Editions</heading>
<content>The editions are evidence.</content>
<sourceCredit>(July 30, 1947, ch. 388, 61 Stat. 636.)</sourceCredit>
</section>
</chapter></main></uscDoc>
"""


def test_uslm_notes_and_source_credit_belong_to_the_section_not_its_last_item(tmp_path):
    """Finding 4: a section's <sourceCredit>/<notes> after its (b)(2) are the section's own notes
    block (a child of § 112a), not the tail of (b)(2); a section without items keeps them as text."""
    tree = build_tree(_convert(tmp_path, "usc.xml", USLM_NOTES))
    by_id = {s.section_id: s for s in tree.sections}
    assert "1994" not in by_id["112a(b)(2)"].text and "80 Stat" not in by_id["112a(b)(2)"].text
    notes = next(s for s in tree.sections if s.title == "Notes")
    assert notes.parent_id == "112a" and "80 Stat. 271" in notes.text and "Subsec. (b) amended" in notes.text
    assert notes.parent_chain[-2:] == ["§ 112a Treaties", "Notes"]
    assert "61 Stat. 636" in by_id["113"].text  # no items: the credit is already the section's text
    assert not any(s.parent_id == "113" for s in tree.sections)


def test_other_xml_is_read_as_text_with_a_notice(tmp_path):
    """Finding 6: XML of no legislation schema is converted, not refused: titled elements become
    headings, element text paragraphs, leaf records name: value lines; a warning names the root."""
    docbook = ("<article><info><title>Install Guide</title></info>"
               "<section><title>Installing</title><para>Run the installer as an administrator and "
               "follow the prompts <xref linkend='linux'/>.</para>"
               "<section id='linux'><title>Linux</title><para>Use the package manager of your "
               "distribution to install it.</para><programlisting>apt install tool\ntool --version"
               "</programlisting></section></section>"
               "<figure title='Layout'><artwork>[box]</artwork></figure></article>")
    doc = _convert(tmp_path, "guide.xml", docbook)
    assert doc.title == "Install Guide"
    assert any("generic XML" in w and "root <article>" in w for w in doc.warnings)
    tree = build_tree(doc)
    by_title = {s.title: s for s in tree.sections}
    assert by_title["Linux"].parent_id == by_title["Installing"].section_id
    assert "follow the prompts [linux]" in by_title["Installing"].text
    assert "```\napt install tool\ntool --version\n```" in by_title["Linux"].text
    assert "Layout" not in by_title  # a figure of artwork is not a section
    pom = _convert(tmp_path, "pom.xml", "<project><dependency><groupId>org.acme</groupId>"
                                        "<artifactId>core</artifactId><version>1.2</version></dependency></project>")
    assert "groupId: org.acme" in pom.markdown and "version: 1.2" in pom.markdown
    with pytest.raises(ConversionError, match="no text content"):
        _convert(tmp_path, "empty.xml", "<root><a/><b/></root>")


def test_external_entities_are_never_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    xml = (f'<?xml version="1.0"?>\n<!DOCTYPE uscDoc [<!ENTITY x SYSTEM "file://{secret}">]>\n'
           '<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0"><main><section><num>§ 1.</num>'
           '<heading>Leak</heading><content>before &x; after</content></section></main></uscDoc>')
    generic = (f'<?xml version="1.0"?>\n<!DOCTYPE note [<!ENTITY x SYSTEM "file://{secret}">]>\n'
               '<note><body>before &x; after</body></note>')
    for name, text in (("xxe.xml", xml), ("xxe-generic.xml", generic)):
        try:
            doc = _convert(tmp_path, name, text)
        except ConversionError:
            continue  # refusing the file is also safe
        assert "TOP-SECRET-CONTENT" not in doc.markdown


@pytest.mark.parametrize("twin", ["us-usc-title01-prelim-114-329.uslm.xml", "uk-asp-2014-10-tribunals-scotland-act.clml.xml",
                                  "de-auslzuschlv-bgbl-2025-i-145.ldml.xml"])
def test_official_xml_twins_give_the_truth_sections(twin):
    """Each real twin's sections (truth read from that XML by the corpus's own extractor) are found."""
    import importlib.util
    from pathlib import Path

    folder = shared_data("real", "legislation")
    bench = Path(__file__).resolve().parents[1] / "bench" / "legislation_xml_bench.py"
    spec = importlib.util.spec_from_file_location("legislation_xml_bench", bench)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    xml = folder / twin
    truth = json.loads(mod._truth_for(xml).read_text(encoding="utf-8"))
    r = mod.score(build_tree(mod._doc(xml)), truth)
    assert r["recall"] >= 0.99 and r["parent_accuracy"] >= 0.85, r


def test_an_ingest_with_generic_xml_skips_nothing(tmp_path):
    """Finding 6: `docstrata ingest` exits 1 only when a file is skipped; a generic XML file is
    indexed (with its notice in the report), so a folder holding one ingests cleanly."""
    import textwrap

    import docstrata

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "settings.xml").write_text(
        "<config><server><host>db.internal</host><port>5432</port></server>"
        "<note>Rotate the replication password every ninety days.</note></config>", encoding="utf-8")
    (tmp_path / "docs" / "usc.xml").write_text(USLM_NOTES, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: docs
            type: hierarchical_document
            description: xml files
            source: docs/
            database: in-memory
        """), encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        report = tools["docs"].ingest()
        assert report.skipped == [] and not report.failed and report.files_total == 2
        assert any("settings.xml" in w and "generic XML" in w for w in report.warnings)
        hits = tools["docs"].search("replication password", top_k=3, mode="keyword")
        assert hits and hits[0].source_path == "settings.xml"
