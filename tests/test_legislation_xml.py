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


def test_unknown_and_malformed_xml_fail_with_a_reason(tmp_path):
    with pytest.raises(ConversionError, match=r"root <rfc>, no namespace.*USLM, Akoma Ntoso and UK CLML"):
        _convert(tmp_path, "rfc.xml", "<rfc><front/></rfc>")
    with pytest.raises(ConversionError, match="malformed XML at line 2"):
        _convert(tmp_path, "bad.xml", "<uscDoc>\n<section></uscDoc>")


def test_external_entities_are_never_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    xml = (f'<?xml version="1.0"?>\n<!DOCTYPE uscDoc [<!ENTITY x SYSTEM "file://{secret}">]>\n'
           '<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0"><main><section><num>§ 1.</num>'
           '<heading>Leak</heading><content>before &x; after</content></section></main></uscDoc>')
    try:
        doc = _convert(tmp_path, "xxe.xml", xml)
    except ConversionError:
        return  # refusing the file is also safe
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
