"""xml2rfc sources (IETF RFCs and drafts, v3 and v2) read with xml2rfc's numbering (trial 7, finding 6)."""

from __future__ import annotations

from pathlib import Path

from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.structure import build_tree

ROOT = Path(__file__).resolve().parents[1]


def _convert(tmp_path, name: str, xml: str):
    path = tmp_path / name
    path.write_text(xml, encoding="utf-8")
    return convert_file(SourceFile(name, str(path), FileState(path.stat().st_size, 0, "")))


V3 = """<?xml version="1.0" encoding="UTF-8"?>
<rfc version="3" number="9999" category="std" ipr="trust200902">
<front><title>The Example Protocol</title>
<abstract><t>This document specifies the Example protocol for moving widgets between peers.</t></abstract></front>
<middle>
<section anchor="intro"><name>Introduction</name>
<t>The protocol is described in <xref target="proto"/>; its states are in <xref target="states"/>.
The wire format follows <xref target="RFC8446" section="4.2" sectionFormat="of"/>.</t>
<section anchor="terms"><name>Terminology</name>
<t>The following terms are used:</t>
<dl><dt>widget:</dt><dd>A unit of data that a peer moves to another peer.</dd>
<dt>peer:</dt><dd><t>An endpoint of the protocol.</t><t>Either side of a connection.</t></dd></dl>
</section></section>
<section anchor="proto"><name>Protocol Overview</name>
<t>Steps, in order:</t>
<ol><li>The client sends a widget request to the server.</li><li>The server replies with the widget.</li></ol>
<figure anchor="fig-flow"><name>Widget Flow</name><artwork>client -> server</artwork></figure>
<t>See <xref target="fig-flow"/> and <xref target="intro" format="counter"/> and <xref target="terms">the terms</xref>.</t>
</section>
<section anchor="ack" numbered="false"><name>Acknowledgments</name><t>Thanks to the reviewers of this document.</t></section>
</middle>
<back>
<references><name>References</name>
<references><name>Normative References</name>
<reference anchor="RFC8446" target="https://www.rfc-editor.org/info/rfc8446"><front>
<title>The Transport Layer Security (TLS) Protocol Version 1.3</title><author initials="E." surname="Rescorla"/>
<date year="2018" month="August"/></front><seriesInfo name="RFC" value="8446"/></reference>
</references>
<references><name>Informative References</name>
<reference anchor="WIDGETS"><front><title>Widgets in Practice</title><author fullname="A. Author"/>
<date year="2020"/></front></reference>
</references></references>
<section anchor="states"><name>State Machine</name><t>The states of the protocol machine are listed here.</t>
<section anchor="client-states"><name>Client</name><t>The client starts in the START state and waits.</t></section>
</section>
</back></rfc>
"""

V2 = """<?xml version="1.0" encoding="US-ASCII"?>
<!DOCTYPE rfc SYSTEM "rfc2629.dtd" []>
<?rfc symrefs="no"?>
<rfc ipr="trust200902" docName="draft-example-00">
<front><title abbrev="Ex">An&nbsp;Example Draft</title></front>
<middle>
<section title="Introduction" anchor="intro">
<t>See <xref target="defs"/> and <xref target="ONE"/>.</t>
<section title="Definitions" anchor="defs">
<t><list style="hanging">
<t hangText="origin server:">A program that can originate authoritative responses for a given target resource.</t>
<t hangText="user agent:">Any of the client programs that initiate a request.</t>
</list></t>
</section></section>
<section title="Message&nbsp;Format" anchor="fmt"><t>Each message starts with a header, as <xref target="TWO"/> says.</t>
<texttable title="Fields"><ttcol>Name</ttcol><ttcol>Size</ttcol><c>type</c><c>1</c><c>length</c><c>2</c></texttable>
</section>
</middle>
<back>
<references title="Normative References">
<reference anchor="ONE"><front><title>First</title><author surname="Smith" initials="J."/><date year="2001"/></front></reference>
</references>
<references title="Informative References">
<reference anchor="TWO"><front><title>Second</title><author surname="Jones" initials="K."/><date year="2002"/></front></reference>
</references>
<section title="Examples" anchor="ex"><t>An example exchange between a client and a server.</t></section>
</back></rfc>
"""


def test_v3_numbers_xrefs_references_and_definitions(tmp_path):
    doc = _convert(tmp_path, "draft.xml", V3)
    assert doc.title == "RFC 9999: The Example Protocol" and not doc.warnings
    md = doc.markdown
    assert "# 1.  Introduction" in md and "## 1.1.  Terminology" in md and "# Appendix A.  State Machine" in md
    assert "described in Section 2; its states are in Appendix A." in md
    assert "follows Section 4.2 of [RFC8446]." in md  # a section of another document
    assert "See Figure 1 and 1 and the terms (Section 1.1)." in md  # default, counter, text + cite
    assert "[RFC8446] Rescorla, E., \"The Transport Layer Security (TLS) Protocol Version 1.3\", RFC 8446" in md
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert {"1", "1.1", "2", "3", "3.1", "3.2", "A.1"} <= set(by_id), sorted(by_id)
    assert by_id["1.1"].parent_id == "1" and by_id["3.2"].parent_id == "3" and by_id["A.1"].parent_id == "appendix-a"
    assert not any(s.number in ("1", "2") and s.parent_id == "2" for s in tree.sections)  # <ol> steps are no sections
    assert "Acknowledgments" in {s.title for s in tree.sections}
    targets = {(x.text, x.section_id) for x in tree.cross_references}
    assert ("Section 2", "2") in targets and ("Appendix A", "appendix-a") in targets
    defs = {d.term: d for d in tree.definitions}
    assert defs["widget"].definition.startswith("A unit of data") and defs["widget"].section_id == "1.1"
    assert "Either side of a connection" in defs["peer"].definition


def test_v2_synthesised_references_numeric_labels_entities_and_hanging_lists(tmp_path):
    doc = _convert(tmp_path, "draft-v2.xml", V2)
    md = doc.markdown
    assert doc.title == "An Example Draft"  # &nbsp; in an element's text
    assert "# 2.  Message Format" in md  # ... and in an attribute
    assert "# 3.  References" in md and "## 3.1.  Normative References" in md and "## 3.2.  Informative References" in md
    assert "See Section 1.1 and [1]." in md and "as [2] says" in md and "[1] Smith, J., \"First\", 2001." in md
    assert "| type | 1 |" in md and "*Table 1: Fields*" in md
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert {"1", "1.1", "2", "3", "3.1", "3.2", "appendix-a"} <= set(by_id), sorted(by_id)
    assert by_id["3.1"].parent_id == "3"
    assert {d.term for d in tree.definitions} >= {"origin server", "user agent"}


def test_rfc8446_source_sections_anchors_and_terminology():
    """The trial's file (tlswg/tls13-rfc rfc8446.xml, stored as the twin of bench/realdocs/specs/rfc8446.txt):
    numbered sections and appendices, <xref target="supported-versions"/> as "Section 4.2.1", and all
    eight terms of the 1.1 Terminology list."""
    xml = ROOT / "bench" / "realdocs" / "specs" / "rfc8446.v2-source.xml"
    doc = convert_file(SourceFile("rfc8446.xml", str(xml), FileState(xml.stat().st_size, 0, "")))
    assert "[supported-versions]" not in doc.markdown and "Section 4.2.1" in doc.markdown
    tree = build_tree(doc)
    by_id = {s.section_id: s for s in tree.sections}
    assert by_id["4.2.1"].title.endswith("Supported Versions") and by_id["4.2.1"].parent_id == "4.2"
    assert by_id["D.3"].title.endswith("0-RTT Backward Compatibility") and by_id["B.4"].parent_id == "appendix-b"
    assert any(x.section_id == "4.2.1" for x in tree.cross_references)
    terms = {d.term for d in tree.definitions if d.section_id == "1.1"}
    assert terms >= {"client", "connection", "endpoint", "handshake", "peer", "receiver", "sender", "server"}, terms
