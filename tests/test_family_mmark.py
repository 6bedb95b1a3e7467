"""mmark Markdown as a document family (issue 28; docs/fresh-real-diagnosis.md, mechanism 7): a
profile (:mod:`docstrata.profiles.mmark`) recognising the ``%%%`` TOML title block with a
``{mainmatter}`` / ``{backmatter}`` / ``.# Abstract`` line, and a converter
(:mod:`docstrata.convert.mmark`) stating the numbers xml2rfc implies: 1, 1.1 … in the main matter,
Appendix A, A.1 … in the back matter, ``.#`` special sections and ``{numbered="false"}`` headings
unnumbered.

Real documents (tests/fixtures/mmark/NOTICE.md): RFC 9773 (ACME ARI) as its author keeps it in
mmark, whole, and an excerpt of draft-ietf-oauth-rar-23 (RFC 9396). Expected numbers are those
the published RFCs print in their tables of contents.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import docstrata
from docstrata.convert import convert_file
from docstrata.models import FileState, SourceFile
from docstrata.profiles import converter_for_markdown
from docstrata.structure import build_tree

from .helpers import doc_project, sections_by_id

FIXTURES = Path(__file__).parent / "fixtures"
ARI = FIXTURES / "mmark" / "rfc9773.md"
RAR = FIXTURES / "mmark" / "draft-ietf-oauth-rar-23-excerpt.md"
KRAMDOWN = FIXTURES / "kramdown-rfc" / "draft-ietf-httpbis-incremental.md"


def _convert(path: Path):
    return convert_file(SourceFile(path.name, str(path), FileState(0, 0, "")))


@pytest.fixture(scope="module")
def ari():
    doc = _convert(ARI)
    return doc, build_tree(doc)


@pytest.fixture(scope="module")
def rar():
    doc = _convert(RAR)
    return doc, build_tree(doc)


def _family(text: str) -> str | None:
    convert = converter_for_markdown(text)
    return convert(text, "x.md", []).profile if convert else None


# -- recognition --------------------------------------------------------------------------------


def test_each_markdown_family_is_told_by_its_own_markers(tmp_path):
    assert _family(ARI.read_text(encoding="utf-8")) == "mmark"
    assert _family(RAR.read_text(encoding="utf-8")) == "mmark"
    assert _family(KRAMDOWN.read_text(encoding="utf-8")) == "kramdown-rfc"
    # a TOML block alone, or the division switches without a title block, are not mmark's markers
    assert _family('%%%\ntitle = "Notes"\n%%%\n\n# Introduction\n\nText.\n') is None
    assert _family("# Introduction\n\n{mainmatter}\n\n# Scope\n\nText.\n") is None
    assert _family('---\ntitle = "Notes"\n---\n\n.# Abstract\n\nText.\n') is None  # "---" is not mmark's parsed block


@pytest.mark.parametrize("path", [ARI, RAR])
def test_blocks_cover_the_text_they_name(path):
    doc = _convert(path)
    assert doc.blocks and all(doc.markdown[b.start : b.end] == b.text for b in doc.blocks)
    starts = [b.start for b in doc.blocks]
    assert starts == sorted(starts) and all(a.end <= b.start for a, b in zip(doc.blocks, doc.blocks[1:]))


# -- numbers, appendices, unnumbered sections ---------------------------------------------------


def test_main_matter_numbers_follow_heading_levels_and_order(ari):
    doc, tree = ari
    by_id = sections_by_id(tree)
    # RFC 9773's table of contents: 1 … 7 (References are generated), Appendix A, Acknowledgments
    assert [s.section_id for s in tree.sections if s.level == 1] == [
        "abstract", "1", "2", "3", "4", "5", "6", "7", "appendix-a", "acknowledgments"]
    assert [s.section_id for s in tree.sections if s.parent_id == "4"] == ["4.1", "4.2", "4.3"]
    assert [s.section_id for s in tree.sections if s.parent_id == "4.3"] == ["4.3.1", "4.3.2", "4.3.3"]
    assert by_id["4.2"].title.endswith("RenewalInfo Objects") and by_id["4.2"].number == "4.2"
    assert by_id["7.4"].title.endswith("ACME Error Types") and by_id["7.4"].parent_id == "7"
    stated = [b for b in doc.blocks if b.kind == "heading" and b.number]
    assert all(b.provenance == "markup" for b in stated) and len(stated) == 18


def test_special_and_numbered_false_sections_take_no_number(ari, rar):
    _, tree = ari
    by_id = sections_by_id(tree)
    assert by_id["abstract"].number is None and by_id["abstract"].level == 1  # ".# Abstract"
    assert "suggestions to ACME clients" in by_id["abstract"].text
    assert by_id["acknowledgments"].number is None  # {numbered="false"} in the back matter
    # {numbered="false"} "# Appendix A. Example Certificate": unnumbered, printing its own label
    assert by_id["appendix-a"].number == "Appendix A" and by_id["appendix-a"].title.endswith("Example Certificate")
    assert "BEGIN CERTIFICATE" in by_id["appendix-a"].text
    _, rar_tree = rar
    assert sections_by_id(rar_tree)["abstract"].number is None


def test_back_matter_headings_are_appendices(rar):
    _, tree = rar
    by_id = sections_by_id(tree)
    assert [s.section_id for s in tree.sections if s.level == 1] == [
        "abstract", "1", "2", "3", "4", "5", "6", "appendix-a"]
    assert by_id["appendix-a"].number == "Appendix A" and by_id["appendix-a"].title.endswith("Additional Examples")
    assert by_id["A.1"].parent_id == "appendix-a" and by_id["A.1"].title.endswith("OpenID Connect")
    assert by_id["A.2"].parent_id == "appendix-a" and by_id["A.2"].title.endswith("Remote Electronic Signing")


def test_title_block_is_the_title_never_a_section(ari, rar):
    doc, tree = ari
    assert doc.title == "ACME Renewal Information (ARI) Extension"
    assert not any("seriesInfo" in s.text or "ipr =" in s.text or "%%%" in s.text for s in tree.sections)
    assert _convert(RAR).title == "OAuth 2.0 Rich Authorization Requests"


def test_anchors_cross_references_and_citations_read_as_xml2rfc_prints_them(rar):
    doc, tree = rar
    by_id = sections_by_id(tree)
    assert by_id["2"].title.endswith('Request parameter "authorization_details"')  # {#authz_details} stripped
    assert "{#" not in doc.markdown and "{mainmatter}" not in doc.markdown and "[@" not in doc.markdown
    assert doc.anchors["authz_details"].startswith("2.") and doc.anchors["openid"].startswith("A.1.")
    # "(#authz_request)" is "Section 3", and resolves to it
    assert "The example authorization request in Section 3," in by_id["6.1"].text
    assert any(r.section_id == "3" and r.text == "Section 3" for r in tree.cross_references if r.source_section_id == "6.1")
    # "[@!RFC6749]" is "[RFC6749]"; an anchor of a section outside the excerpt stays as written
    assert "defined by The OAuth 2.0 Authorization Framework [RFC6749]." in by_id["1.1"].text
    assert "(#resource_servers)" in by_id["2"].text


def test_running_text_citations_resolve_to_the_stated_sections(ari):
    doc, tree = ari
    refs = {(r.text, r.section_id) for r in tree.cross_references if r.section_id}
    assert ("Section 4.1", "4.1") in refs and ("Appendix A", "appendix-a") in refs
    assert "BCP 14 [RFC2119] [RFC8174] when" in doc.markdown


# -- the tool: exact search and get-section read the stated numbers ------------------------------


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("mmark")
    docs = {"rfc9773.md": ARI.read_text(encoding="utf-8"), "oauth-rar.md": RAR.read_text(encoding="utf-8")}
    ts = docstrata.open(doc_project(root, docs, max_chunk_tokens=800, chunk_overlap=0))
    t = ts["docs"]
    t.ingest()
    yield t
    ts.close()


@pytest.mark.parametrize(
    "form,doc,expected", [("Section 4.2", "rfc9773", "4.2"), ("Section 4.3.1", "rfc9773", "4.3.1"),
                          ("Section 2.2", "oauth-rar", "2.2"), ("Appendix A.2", "oauth-rar", "A.2")])
def test_exact_search_pins_the_numbered_section(tool, form, doc, expected):
    top = tool.search(form, top_k=3)[0]
    assert top.exact_match and top.pinned and top.source_path.startswith(doc), (form, top.section_id)
    assert top.section_id == expected
    assert tool.get_section(doc, form, max_chars=None).section_id == expected


def test_cross_reference_in_running_text_resolves_at_ingest(tool):
    refs = [x for c in tool.store.document_chunks("oauth-rar.md") for x in c.cross_references if x.text == "Section 3"]
    assert refs and {x.section_id for x in refs} == {"3"}
