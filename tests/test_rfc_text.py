"""Plain-text RFCs as the RFC Editor publishes them (task s21-rfc): appendix sections whose titles
open with a quoted name, the table of contents as a contents section without references, hanging
definition lists outside a Terminology section (not a registration template's fields), and the
RFC's own title.

Inputs: ``tests/fixtures/rfc`` (RFC 5234 whole, an excerpt of RFC 6749; see its NOTICE.md) and,
when ``$DOCSTRATA_RFC_DIR`` is set, whole RFCs in that folder (fetched from public repositories,
not kept here; ``bench/rfc_text.py`` reads the same folder); unset, those tests skip saying so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docstrata.convert import convert_file
from docstrata.models import SourceFile
from docstrata.structure import build_tree
from docstrata.structure.contents import is_contents_section

from .conftest import external_file

FIXTURES = Path(__file__).parent / "fixtures" / "rfc"


def tree_of(path: Path):
    return build_tree(convert_file(SourceFile(path.name, str(path), None)))


@pytest.fixture(scope="module")
def oauth():
    return tree_of(FIXTURES / "rfc6749-excerpt.txt")


@pytest.fixture(scope="module")
def abnf():
    return tree_of(FIXTURES / "rfc5234.txt")


def test_appendix_sections_with_quoted_titles_nest_under_their_appendix(oauth):
    by_number = {s.number: s for s in oauth.sections}
    for n, name in (("A.1", "client_id"), ("A.2", "client_secret"), ("A.3", "response_type")):
        s = by_number[n]
        assert s.title == f'{n} "{name}" Syntax'  # the underscore is part of the name, not emphasis
        assert s.parent_id == "appendix-a"
    assert by_number["Appendix B"].parent_id is None


def test_appendix_subsections_of_rfc5234(abnf):
    numbers = {s.number: s for s in abnf.sections}
    assert numbers["B.1"].parent_id == numbers["B.2"].parent_id == numbers["Appendix B"].section_id
    assert "Core Rules" in numbers["B.1"].title


@pytest.mark.parametrize("name", ["rfc6749-excerpt.txt", "rfc5234.txt"])
def test_table_of_contents_is_a_contents_section_without_references(name):
    tree = tree_of(FIXTURES / name)
    toc = [s for s in tree.sections if is_contents_section(s)]
    assert [s.title for s in toc] == ["Table of Contents"]
    assert toc[0].parent_id is None
    assert "Introduction" in toc[0].text  # its rows are its own text, not the preamble's
    assert not any(x.source_section_id == toc[0].section_id for x in tree.cross_references)
    assert "Introduction" not in tree.section("preamble").text
    # the first numbered section after it is top level, not nested under the contents
    first = next(s for s in tree.sections if s.number == "1")
    assert first.parent_id is None


def test_hanging_definition_list_after_a_lead_in(oauth):
    defs = {d.term: d for d in oauth.definitions}
    for term in ("resource owner", "resource server", "client", "authorization server"):
        assert defs[term].section_id == "1.1"
    assert defs["resource owner"].definition.startswith("An entity capable of granting access")


def test_registration_template_fields_and_examples_are_not_definitions(oauth):
    terms = [d.term for d in oauth.definitions]
    assert not any(t.startswith(("Parameter", "Change controller", "Request for", "Specification")) for t in terms)
    assert not any((d.section_id or "").startswith("11") for d in oauth.definitions)


def test_document_title_is_the_rfcs_centred_title(oauth, abnf):
    assert oauth.title == "The OAuth 2.0 Authorization Framework"
    assert abnf.title == "Augmented BNF for Syntax Specifications: ABNF"


WHOLE = ["rfc6749", "rfc3986", "rfc6265", "rfc6066", "rfc4492"]


@pytest.mark.parametrize("name", WHOLE)
def test_whole_rfcs_every_toc_entry_is_a_section(name):
    path = external_file("DOCSTRATA_RFC_DIR", f"{name}.txt", "a whole RFC as the RFC Editor publishes it")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import rfc_text

    r = rfc_text.run(path)
    assert r["entries"] >= 20
    assert r["matched"] == r["entries"] and r["parents"] == r["matched"]
    assert r["toc_refs"] == 0 and r["toc_contents"] == 1 and r["title"] == 1


def test_front_and_back_matter_headings_are_top_level_sections(abnf):
    titles = [s.title for s in abnf.sections if s.parent_id is None and not s.number]
    for t in ("Abstract", "Status of This Memo", "Table of Contents", "Authors' Addresses"):
        assert t in titles
    abstract = next(s for s in abnf.sections if s.title == "Abstract")
    assert "Internet technical specifications" in " ".join(abstract.text.split())
    assert not any(s.parent_id == abstract.section_id for s in abnf.sections)
