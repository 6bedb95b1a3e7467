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


# --------------------------------------------------------------------------- trial 14 (session 6)

UK_AKN = """<?xml version="1.0" encoding="UTF-8"?>
<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0">
<act name="act"><meta/>
<preface><p><docTitle>Retention Act 2014</docTitle></p></preface>
<body>
<section eId="sec_1"><num>1</num><heading>Powers for retention</heading>
<subsection eId="sec_1__subsec_1"><num>1</num><content><p>The Secretary of State may give a retention notice.</p></content></subsection>
<subsection eId="sec_1__subsec_2"><num>2</num><intro><p>A retention notice may—</p></intro>
<paragraph eId="sec_1__subsec_2__para_a"><num>a</num><content><p>relate to a particular operator,</p></content></paragraph>
<paragraph eId="sec_1__subsec_2__para_b"><num>b</num><content><p>require the retention of all data.</p></content></paragraph>
</subsection>
<subsection eId="sec_1__subsec_3"><num>3</num><intro><p>An operator must not disclose the data except—</p></intro>
<paragraph eId="sec_1__subsec_3__para_a"><num>a</num><intro><p>in accordance with—</p></intro>
<subparagraph eId="sec_1__subsec_3__para_a__subpara_i"><num>i</num><content><p>Chapter 2 of Part 1, or</p></content></subparagraph>
<subparagraph eId="sec_1__subsec_3__para_a__subpara_ii"><num>ii</num><content><p>a court order, or</p></content></subparagraph>
</paragraph>
<paragraph eId="sec_1__subsec_3__para_b"><num>b</num><content><p>as provided by regulations.</p></content></paragraph>
</subsection>
</section>
<section eId="sec_2"><num>2</num><heading>Section 1: supplementary</heading>
<subsection eId="sec_2__subsec_1"><num>1</num><content>
<blockList eId="sec_2__subsec_1__list_1"><listIntroduction>In this section and section 1—</listIntroduction>
<item eId="sec_2__subsec_1__list_1__item_1"><p><def>“notice”</def> means notice in writing;</p></item>
<item eId="sec_2__subsec_1__list_1__item_2"><blockList eId="sec_2__subsec_1__list_1__item_2__list_1">
<listIntroduction><def>“public telecommunications operator”</def> means a person who—</listIntroduction>
<item eId="sec_2__subsec_1__list_1__item_2__list_1__item_a"><num title="(a)">a</num><p>controls a public telecommunication system, or</p></item>
<item eId="sec_2__subsec_1__list_1__item_2__list_1__item_b"><num title="(b)">b</num><p>provides a public telecommunications service;</p></item>
</blockList></item>
<item eId="sec_2__subsec_1__list_1__item_3"><p><def>“specify”</def> means specify or describe.</p></item>
</blockList></content></subsection>
<subsection eId="sec_2__subsec_2"><num>2</num><content><p>See <ref href="#sec_1__subsec_2">section 1(2)</ref>.</p></content></subsection>
</section>
</body></act></akomaNtoso>
"""


def test_akn_subsections_get_ids_from_the_markup_nesting(tmp_path):
    """UK Akoma Ntoso: ``<subsection eId="sec_1__subsec_2"><num>2</num>`` is subsection (2) of
    section 1 (id ``1(2)``), never a second "section 2"; its lettered and roman limbs nest under it."""
    tree = build_tree(_convert(tmp_path, "dripa.xml", UK_AKN))
    by_id = {s.section_id: s for s in tree.sections}
    assert {"1", "1(1)", "1(2)", "1(2)(a)", "1(2)(b)", "2", "2(1)", "2(2)"} <= set(by_id)
    assert by_id["2"].title == "2 Section 1: supplementary" and by_id["2"].parent_id is None
    assert by_id["1(2)"].parent_id == "1" and by_id["1(2)(b)"].parent_id == "1(2)"
    # "(i)" after "(3)(a)" is roman i under (a), not a letter continuing 1(2)'s "(a)", "(b)"
    assert by_id["1(3)(a)(i)"].parent_id == "1(3)(a)" and "1(3)(a)(ii)" in by_id
    ref = next(x for x in tree.cross_references if x.text.startswith("section 1(2)"))
    assert ref.section_id == "1(2)"
    assert "](#" not in "\n".join(s.text for s in tree.sections)  # the reference keeps its words only


def test_akn_definition_with_limbs_keeps_them_and_the_entries_after_it(tmp_path):
    """A definition list entry with lettered limbs ("means a person who— (a) … (b) …") is one
    paragraph: the definition holds its limbs, and the entries after it stay in subsection (1)."""
    tree = build_tree(_convert(tmp_path, "dripa.xml", UK_AKN))
    defs = {d.term: d for d in tree.definitions}
    op = defs["public telecommunications operator"]
    assert "(a) controls a public telecommunication system" in op.definition
    assert "(b) provides a public telecommunications service" in op.definition
    assert defs["specify"].section_id == "2(1)" == op.section_id


EU_AKN = """<?xml version="1.0" encoding="UTF-8"?>
<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0">
<documentCollection name="proposal"><meta/>
<collectionBody><component eId="cmp_2"><documentRef href="/bill" showAs="Proposal"/></component></collectionBody>
</documentCollection>
<components>
<component eId="cmp_2"><bill name="regulation"><meta/>
<preface><longTitle><p>Proposal for a REGULATION on new psychoactive substances</p></longTitle></preface>
<body>
<chapter eId="chp_I"><num>CHAPTER I</num><heading>Definitions</heading>
<article eId="art_2"><num>Article 2</num><heading>Definitions</heading>
<list eId="art_2__list_1"><intro><p>For the purpose of this Regulation:</p></intro>
<point eId="art_2__list_1__point_a"><num>(a)</num><content><p>‘<term refersTo="#nps">new psychoactive substance</term>’ means <def refersTo="#nps">a natural or synthetic substance<authorialNote marker="1"><p>OJ L 194.</p></authorialNote> that alters mood;</def></p></content></point>
<point eId="art_2__list_1__point_b"><num>(b)</num><content><p>‘<term refersTo="#mixture">mixture</term>’ means <def refersTo="#mixture">a mixture containing one</def>;</p></content></point>
</list></article>
<article eId="art_9"><num>Article 9</num><heading>Immediate risks</heading>
<paragraph eId="art_9__para_1"><num>1.</num><subparagraph eId="art_9__para_1__subpara_1"><content><p>The Commission shall prohibit the substance.</p></content></subparagraph></paragraph>
<paragraph eId="art_9__para_2"><num>2.</num><content><p>The Decision referred to in <ref href="#art_9__para_1">paragraph 1</ref> shall be adopted.</p></content></paragraph>
<paragraph eId="art_9__para_3"><num>3.</num><content><p>It shall apply for twelve months.</p></content></paragraph>
</article>
</chapter>
</body>
<conclusions eId="conclusions"><p>Done at Brussels,</p><container name="signature"><p>For the Council</p><p>The President</p></container></conclusions>
</bill></component>
<component eId="cmp_3"><doc name="financialStatement"><meta/>
<preface><longTitle><p>LEGISLATIVE FINANCIAL STATEMENT</p></longTitle></preface>
<mainBody><tblock eId="tblock_1"><num>1.</num><heading>FRAMEWORK OF THE PROPOSAL</heading>
<p>The budget line is 18.0501.</p></tblock></mainBody>
</doc></component>
</components>
</akomaNtoso>
"""


def test_eu_article_paragraphs_conclusions_and_financial_statement(tmp_path):
    """EU Akoma Ntoso: paragraph ``1.`` of Article 9 is ``article-9(1)`` (its first subparagraph's
    words on its line); "Done at Brussels" and the Legislative Financial Statement after it are
    sections of their own, not the tail of the last article."""
    tree = build_tree(_convert(tmp_path, "com.xml", EU_AKN))
    by_id = {s.section_id: s for s in tree.sections}
    assert {"article-9(1)", "article-9(2)", "article-9(3)"} <= set(by_id)
    assert "The Commission shall prohibit" in by_id["article-9(1)"].text
    assert by_id["article-9(2)"].parent_id == "article-9"
    assert "](#" not in by_id["article-9(2)"].text and "paragraph 1 shall" in by_id["article-9(2)"].text
    assert "Done at Brussels" not in by_id["article-9(3)"].text
    assert "Done at Brussels" in by_id["conclusions"].text
    lfs = next(s for s in tree.sections if s.title == "LEGISLATIVE FINANCIAL STATEMENT")
    assert lfs.parent_id is None and "18.0501" not in by_id["conclusions"].text
    assert any(s.parent_id == lfs.section_id and "FRAMEWORK" in s.title for s in tree.sections)


def test_eu_term_and_def_markup_is_a_definition_without_added_quotes(tmp_path):
    """``‘<term>x</term>’ means <def>…</def>``: the ``<term>`` is the term, the ``<def>`` its
    definition; "’ means" is kept (a note inside the definition no longer splits the sentence) and
    no quotes are added around the definition."""
    doc = _convert(tmp_path, "com.xml", EU_AKN)
    assert "(a) ‘new psychoactive substance’ means a natural or synthetic substance that alters mood;" in doc.markdown
    assert "‘mixture’ means a mixture containing one;" in doc.markdown
    defs = {d.term: d for d in build_tree(doc).definitions}
    assert defs["new psychoactive substance"].definition.startswith("means a natural or synthetic substance")
    assert defs["new psychoactive substance"].section_id == "article-2(a)"


USLM_PUBLIC_LAW = """<?xml version="1.0" encoding="UTF-8"?>
<pLaw xmlns="http://schemas.gpo.gov/xml/uslm" xmlns:dc="http://purl.org/dc/elements/1.1/">
<meta><dc:title>Public Law 113-67</dc:title></meta>
<preface><page>127 STAT. 1165</page></preface>
<main>
<division><num value="A">DIVISION A—</num><sidenote><p>Bipartisan Budget Act of 2013.</p></sidenote><heading>BUDGET AGREEMENT</heading>
<section><num value="1">SECTION 1. </num><heading>SHORT TITLE.</heading>
<subsection><num value="a">(a) </num><heading><inline>Short </inline><sidenote><p><ref href="/us/usc/t2/s900">2 USC 900 note</ref>.</p></sidenote><inline>Title</inline>.—</heading><content>This division may be cited as the Budget Act.</content></subsection>
</section>
<title><num value="I">TITLE I—</num><heading>BUDGET ENFORCEMENT</heading>
<section><num value="101">SEC. 101. </num><heading>AMENDMENTS.</heading>
<content>The levels for fiscal <page>127 STAT. 1170</page>years 2014 through 2018 apply.</content></section>
</title>
<title><num value="II">TITLE II—</num><heading>WASTE</heading>
<section><num value="201">SEC. 201. </num><heading>OVERPAYMENTS.</heading><content>Overpayments are collected.</content></section>
</title>
</division>
<division><num value="B">DIVISION B—</num><heading>MEDICARE</heading>
<title><num value="I">TITLE I—</num><heading>MEDICARE EXTENSIONS</heading>
<section><num value="1101">SEC. 1101. </num><heading>PHYSICIAN PAYMENT UPDATE.</heading><content>The update is 0.5 percent.</content></section>
</title>
</division>
</main>
</pLaw>
"""


def test_uslm_division_holds_its_titles_and_margin_notes_stay_out_of_text(tmp_path):
    """USLM public law: the Titles inside ``<division>`` A are its children and Division B is not
    nested under the last Title (the markup's nesting, not container ranks, decides); margin notes
    ("2 USC 900 note") are not spliced into headings and ``127 STAT. 1170`` page markers are dropped."""
    doc = _convert(tmp_path, "publ67.xml", USLM_PUBLIC_LAW)
    assert doc.heading_levels
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    div_a, div_b = by_id["division-a"], by_id["division-b"]
    titles = [s for s in tree.sections if s.title.startswith("TITLE")]
    assert [by_id[t.parent_id].section_id for t in titles] == ["division-a", "division-a", "division-b"]
    assert div_b.parent_id is None and div_a.parent_id is None
    assert by_id["201"].parent_chain[:2] == ["DIVISION A BUDGET AGREEMENT", "TITLE II WASTE"]
    assert "(a) Short Title.— This division may be cited" in doc.markdown
    assert "2 USC 900 note" in doc.markdown and "Short 2 USC" not in doc.markdown
    assert "STAT." not in doc.markdown and "fiscal years 2014" in by_id["101"].text


def test_uslm_same_title_in_two_divisions_is_reported_as_ambiguous(tmp_path):
    """"Title I" of Division A and of Division B: get_section names both ids instead of silently
    answering the first; each id answers its own title; "section 1(2)" answers subsection 1(2)."""
    import textwrap

    import docstrata
    from docstrata.search import QueryError

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "publ67.xml").write_text(USLM_PUBLIC_LAW, encoding="utf-8")
    (tmp_path / "docs" / "dripa.xml").write_text(UK_AKN, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: laws
            type: hierarchical_document
            description: public laws
            source: docs/
            database: in-memory
        """), encoding="utf-8")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        laws = tools["laws"]
        laws.ingest()
        with pytest.raises(QueryError, match="division-a/title-i, division-b/title-i"):
            laws.get_section("publ67.xml", "Title I")
        assert "0.5 percent" in laws.get_section("publ67.xml", "division-b/title-i")[0].content
        assert "Overpayments" in laws.get_section("publ67.xml", "Title II")[0].content
        # a cited sub-item answers its own id, not the section that holds it
        page = laws.get_section("dripa.xml", "section 1(2)")
        assert page.section_id == "1(2)" and "A retention notice may" in page.content
        assert "give a retention notice" not in page.content
        assert laws.get_section("dripa.xml", "section 2").title == "2 Section 1: supplementary"


USLM_COMPILATION = """<?xml version="1.0" encoding="UTF-8"?>
<statuteCompilation xmlns="http://schemas.gpo.gov/xml/uslm"><main>
<section identifier="/us/sComp/91/596/s(2)"><heading>congressional findings and purpose </heading>
<num value="(2)">Sec. (2)<ref class="footnoteRef" idref="F1">1</ref> </num>
<subsection role="undesignated-level"><content>The Congress finds that injuries burden commerce.</content>
<footnote id="F1"><sup>1</sup><p>So in original. Probably should strike “<quotedText>(2)</quotedText>”.</p></footnote></subsection>
<subsection identifier="/us/sComp/91/596/s(2)/b"><num value="b">(b) </num><chapeau>The Congress declares its purpose—</chapeau>
<paragraph><num value="1">(1) </num><content>by encouraging employers;</content></paragraph>
<paragraph><num value="2">(2) </num><content>by providing that employers have duties;</content></paragraph>
<paragraph><num value="3">(3) </num><content>by authorizing the Secretary of Labor to set standards.</content></paragraph>
</subsection><editorialNote role="uscRef"><b>[</b><ref href="/us/usc/t29/s651">29 U.S.C. 651</ref><b>]</b> </editorialNote>
<sourceCredit>Enacted December 29, 1970, P.L. 91–596, sec. 2, 84 Stat. 1590.</sourceCredit></section>
<section identifier="/us/sComp/91/596/s26"><heading>annual report </heading><num value="26">Sec. 26. </num>
<content>The Secretary shall each year submit a report upon the subject matter of this Act.</content>
<editorialNote role="uscRef"><b>[</b><ref href="/us/usc/t29/s675">29 U.S.C. 675</ref><b>]</b> </editorialNote>
<sourceCredit>Enacted December 29, 1970, P.L. 91–596, sec. 26, 84 Stat. 1615.</sourceCredit></section>
<section identifier="/us/sComp/91/596/s28"><heading>economic assistance </heading><num value="28">Sec. 28. </num>
<subsection><num value="a">(a) </num><content>Section 7(b) of the Small Business Act is amended by striking
“<quotedText>or (5)</quotedText>” and inserting “<quotedText>(5) or (6)</quotedText>”.</content></subsection>
<editorialNote role="uscRef"><b>[</b><ref href="/us/usc/t15/s1636">15 U.S.C. 1636</ref><b>]</b> </editorialNote>
<subsection><num value="b">(b) </num><content>Loans may also be made for these purposes.</content></subsection>
<editorialNote role="uscRef"><b>[</b><ref href="/us/usc/t42/s3142">42 U.S.C. 3142</ref><b>]</b> </editorialNote>
<sourceCredit>Enacted December 29, 1970, sec. 28.</sourceCredit></section>
<section identifier="/us/sComp/91/596/s29"><heading>additional assistant secretary </heading><num value="29">Sec. 29. </num>
<content>One of such Assistant Secretaries shall be for Occupational Safety and Health.</content></section>
</main></statuteCompilation>
"""


def test_uslm_section_number_from_num_and_notes_never_sections(tmp_path):
    """Trial 7, finding 3 (OSH Act compilation): "Sec. (2)" with a footnote marker is section 2 (its
    (b)(3) is 2(b)(3) although the first subsection is undesignated); an editorial "[29 U.S.C. 675]"
    is one line of its section's text, never a section 29 beside the real Sec. 29; a USC cite between
    subsections stays with the one before it; inline quotations keep the words around them."""
    doc = _convert(tmp_path, "osh.xml", USLM_COMPILATION)
    assert "# Sec. 2 congressional findings and purpose" in doc.markdown
    assert "[^1]: So in original." in doc.markdown and "[29 U.S.C. 675]" in doc.markdown
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert {"2", "2(b)", "2(b)(3)", "26", "28", "28(a)", "28(b)", "29"} <= set(by_id), sorted(by_id)
    assert by_id["2(b)(3)"].parent_id == "2(b)" and by_id["2(b)"].parent_id == "2"
    assert not any(sid.startswith(("29-", "sec-2")) for sid in by_id), sorted(by_id)
    assert "29 U.S.C. 675" in by_id["26"].text and "Occupational Safety" in by_id["29"].text
    assert by_id["28(b)"].parent_id == "28" and "15 U.S.C. 1636" in by_id["28(a)"].text
    assert "striking “or (5)” and inserting “(5) or (6)”" in by_id["28(a)"].text


def test_cfr_printed_number_wins_and_definition_limbs_stay_text(tmp_path):
    """CFR writes ``§ 478.40a`` with ``value="478.40"``: the printed number is the section's; a "(b)"
    paragraph continuing "Defense services. (a) The furnishing …" is a limb of that definition, not a
    provision (whereas Sec. 2's "(b)" after an undesignated subsection is one)."""
    cfr = """<?xml version="1.0" encoding="UTF-8"?>
<cfrDoc xmlns="http://schemas.gpo.gov/xml/uslm"><main>
<section><num value="447.11">§ 447.11</num><heading>Meaning of terms.</heading>
<p>When used in this part, terms shall have the meanings ascribed in this section.</p>
<p>Defense services. (a) The furnishing of assistance, including training, to foreign persons.</p>
<p>(b) The furnishing to foreign persons of any technical data.</p>
<p>Director. The Director, Bureau of Alcohol, Tobacco, Firearms, and Explosives.</p></section>
<section><num value="478.40">§ 478.40a</num><heading>Transfer of ammunition feeding devices.</heading>
<subsection><num value="a">(a)</num><heading>Prohibition.</heading><content>No person shall transfer such a device.</content></subsection>
</section></main></cfrDoc>"""
    tree = build_tree(_convert(tmp_path, "cfr.xml", cfr))
    by_id = {s.section_id: s for s in tree.sections}
    assert {"447.11", "478.40a", "478.40a(a)"} <= set(by_id), sorted(by_id)
    assert "447.11(b)" not in by_id and "Director. The Director" in by_id["447.11"].text
