"""Cross-references: detection, normalisation, ranges, resolution, external references."""

from __future__ import annotations

import csv
import json
import re

import pytest

from docstrata.structure.parse import parse_sections
from docstrata.structure.xrefs import extract_cross_references, find_cross_references

from .conftest import shared_data

DOC = """### Article 5
#### Principles
1.   Personal data shall be processed lawfully.
2.   The controller shall comply with paragraph 1.

### Article 6
#### Lawfulness of processing
1.   Processing is lawful where Article 5(1) is met; see also Article 99.

8.1\tFirst rule.
8.2\tSecond rule, subject to Sections 8.1 and 8.2 and Rules 8.1 to 8.3.
8.3\tThird rule under § 8.2(a) and section 196 of the FSMR.
"""


@pytest.fixture(scope="module")
def tree():
    return parse_sections(DOC, "doc.md", "Doc")


def refs(tree, text, source=None):
    return [(r.target, r.section_id) for r in find_cross_references(text, tree, source)]


def test_styles_are_normalised_and_resolved(tree):
    assert refs(tree, "see Article 6(1)") == [("article-6(1)", "article-6(1)")]
    assert refs(tree, "as defined in Art. 5") == [("article-5", "article-5")]
    assert refs(tree, "pursuant to Rule 8.2") == [("8.2", "8.2")]
    assert refs(tree, "under § 8.2(a)") == [("8.2(a)", "8.2")]  # nearest enclosing section
    assert refs(tree, "Article 99") == [("article-99", None)]  # no such section


def test_lists_and_ranges_expand(tree):
    assert refs(tree, "Sections 8.1 and 8.2") == [("8.1", "8.1"), ("8.2", "8.2")]
    assert [t for t, _ in refs(tree, "Rules 8.1 to 8.3")] == ["8.1", "8.2", "8.3"]


def test_paragraph_is_relative_to_the_source_article(tree):
    assert refs(tree, "comply with paragraph 1", "article-5(2)") == [("article-5(1)", "article-5(1)")]


def test_other_instrument_is_not_resolved(tree):
    got = refs(tree, "section 196 of the FSMR")
    assert got == [("196", None)]


def test_rulebook_qualified_reference_resolves_only_in_its_own_rulebook():
    t = parse_sections("3.3.31\tA rule.\n3.3.32\tAnother, see GEN 3.3.31.\n", "GEN_VER08.txt", "GEN rulebook")
    assert refs(t, "see GEN 3.3.31") == [("3.3.31", "3.3.31")]
    assert refs(t, "see COBS 3.3.31") == [("3.3.31", None)]


def test_extract_sets_source_and_skips_own_label(tree):
    out = extract_cross_references(tree)
    assert all(r.source_section_id for r in out)
    assert not any(r.section_id == r.source_section_id for r in out)
    assert ("8.2(a)", "8.3") in [(r.target, r.source_section_id) for r in out]


@pytest.mark.shared_data
def test_adgm_internal_cross_references_resolve():
    base = shared_data("obliqa")
    doc_map = json.loads((base / "document_map.json").read_text())
    rows = [r for r in csv.DictReader(open(base / "xref" / "ADGM_CrossReferenceData.csv", encoding="utf-8"))
            if r["ReferenceType"] == "Internal" and r["SourceDocumentID"] == "7"]
    text = (base / "StandardizedRegulatoryDocumentsTXT" / doc_map["7"]["file"]).read_text(encoding="utf-8")
    t = parse_sections(text, doc_map["7"]["file"], "GEN")
    ok = 0
    for r in rows:
        want = re.sub(r"\.\(", "(", r["TargetPassageID"].rstrip("."))
        found = find_cross_references(r["SourcePassage"], t, None)
        ok += any(x.section_id and (x.section_id == want or x.section_id.startswith(want + "(")) for x in found)
    assert rows and ok / len(rows) >= 0.9
