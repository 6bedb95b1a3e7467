"""Definitions: inline patterns, definitions sections, real GDPR / CSA / Apache / GPL."""

from __future__ import annotations


import pytest

from docstrata.structure.definitions import extract_definitions
from docstrata.structure.parse import parse_sections

from .conftest import shared_data


def terms(text: str) -> dict[str, str]:
    tree = parse_sections(text, "d.md", "D")
    return {d.term: d.definition for d in extract_definitions(tree)}


@pytest.mark.parametrize("text, term", [
    ('"Service" means the hosted product.', "Service"),
    ("‘Controller’ means the person who decides.", "Controller"),
    ('**"Fees"** means the amounts payable.', "Fees"),
    ('"Licensor" shall mean the copyright owner.', "Licensor"),
    ("“Affiliate” means an entity under common control.", "Affiliate"),
    ("Business Day: means a day other than a weekend.", "Business Day"),
    ("Working Capital is defined as current assets less current liabilities.", "Working Capital"),
])
def test_inline_definition_patterns(text, term):
    got = terms(f"# Terms of use\n\nSome text.\n\n{text}\n")
    assert term in got
    assert got[term].split()[0] in ("means", "shall", "is", "mean")


def test_definition_text_runs_to_paragraph_end_and_section_is_set():
    md = '## 1. Definitions\n\n"Term" means the first\nline and the second.\n\nOther paragraph.\n'
    tree = parse_sections(md, "d.md", "D")
    (entry,) = extract_definitions(tree)
    assert entry.definition == "means the first line and the second."
    assert entry.section_id == "1" and entry.doc_key == "d.md"


def test_loose_forms_only_inside_definitions_sections():
    body = 'To "modify" a work means to copy from it.\n'
    assert "modify" in terms(f"## Definitions\n\n{body}")
    assert "modify" not in terms(f"## Scope\n\n{body}")


def test_one_namespace_first_definition_wins():
    got = terms('"Fee" means A.\n\n"fee" means B.\n')
    assert list(got) == ["Fee"] and got["Fee"] == "means A."


def test_quoted_words_in_prose_are_not_definitions():
    assert terms("He said 'hello' and left. The `show w' command means nothing here.\n") == {}


@pytest.mark.shared_data
def test_gdpr_article_4_has_26_definitions():
    text = shared_data("documents", "md", "gdpr_regulation_eu_2016_679.md").read_text(encoding="utf-8")
    tree = parse_sections(text, "gdpr.md", "GDPR")
    defs = [d for d in extract_definitions(tree) if d.section_id.startswith("article-4(")]
    assert len(defs) == 26
    assert defs[0].term == "personal data" and defs[0].section_id == "article-4(1)"
    assert defs[-1].term == "international organisation"


@pytest.mark.shared_data
def test_csa_apache_gpl_definitions():
    csa = shared_data("documents", "md", "commonpaper_cloud_service_agreement_v1.md").read_text(encoding="utf-8")
    got = {d.term: d for d in extract_definitions(parse_sections(csa, "csa.md", "CSA"))}
    assert got["Force Majeure Event"].section_id == "13.17"
    assert got["Personal Data"].section_id == "13.25"
    apache = shared_data("documents", "txt", "license_apache-2.0.txt").read_text(encoding="utf-8")
    a = {d.term for d in extract_definitions(parse_sections(apache, "apache.txt", "Apache"))}
    assert {"License", "Licensor", "Legal Entity", "You", "Source", "Object", "Work", "Derivative Works",
            "Contribution", "Contributor"} <= a
    gpl = shared_data("documents", "txt", "license_gpl-3.0.txt").read_text(encoding="utf-8")
    g = {d.term for d in extract_definitions(parse_sections(gpl, "gpl.txt", "GPL"))}
    assert {"This License", "Copyright", "The Program", "modify", "covered work", "propagate", "convey"} <= g
