"""What a new user's trial (trial 16, item 13) found in answers, through the real tools on small
real inputs: plural uses of a defined term link to its definition (and only real plurals do), an
all-capitals first line titles a plain-text document, section labels print their number once,
every hit of a document carries its title, and a missing section lists the top-level ones."""

from __future__ import annotations

import re
import textwrap

import pytest

import docstrata
from docstrata.answers import render_search
from docstrata.convert.text import plain_text_title
from docstrata.index.exact import query_term_keys, singular_term_keys, term_pattern
from docstrata.models import section_label
from docstrata.search import QueryError

AGREEMENT = """\
# Supply Agreement

## Article I Definitions

**"Business Day"** means any day other than a Saturday, Sunday or public holiday in Ireland.

**"Party"** means the Supplier or the Buyer.

**"Tim"** means the Supplier's account manager, Tim Byrne.

## Article II Orders

### Section 2.1 Purchase Orders

Orders are placed in writing; each states the goods and the delivery date. Orders arrive several times a week.

### Section 2.2 Acceptance

The Supplier shall accept or reject an order within two Business Days. Both Parties keep a copy.
"""

MANUAL = """\
PUMP STATION FIELD MANUAL

1. Safety

1.1 Lockout procedure

Before servicing any pump, isolate the electrical supply and apply a lockout tag.

2. Maintenance

2.1 Impeller inspection

Inspect the impeller every 500 operating hours for cavitation damage.
"""


@pytest.fixture(scope="module")
def tools(tmp_path_factory):
    root = tmp_path_factory.mktemp("trial16")
    (root / "docs").mkdir()
    (root / "docs" / "agreement.md").write_text(AGREEMENT, encoding="utf-8")
    (root / "docs" / "field_manual.txt").write_text(MANUAL, encoding="utf-8")
    (root / "agent.yaml").write_text(textwrap.dedent("""\
        tools:
          - name: docs
            type: hierarchical_document
            source: docs/
            database: in-memory
            max_chunk_tokens: 100
            chunk_overlap: 0
        """), encoding="utf-8")
    ts = docstrata.open(root / "agent.yaml")
    ts["docs"].ingest()
    yield ts["docs"]
    ts.close()


# ------------------------------------------------------------------ plural defined terms
def test_a_plural_use_links_the_singular_definition(tools):
    hits = tools.search("Section 2.2", top_k=1)
    assert hits[0].section_id == "2.2"
    assert {"Business Day", "Party"} <= set(hits[0].definitions_context)  # "Business Days", "Parties"
    assert {d.term for d in hits.definitions} >= {"Business Day", "Party"}


def test_a_word_that_only_starts_like_a_term_is_not_linked(tools):
    hits = tools.search("Section 2.1", top_k=1)
    assert hits[0].section_id == "2.1"
    assert "Tim" not in hits[0].definitions_context  # "times" is not the plural of "Tim"


def test_get_definition_of_a_plural_finds_the_singular(tools):
    assert [d.term for d in tools.get_definition("Business Days")] == ["Business Day"]
    assert [d.term for d in tools.get_definition("parties")] == ["Party"]
    assert tools.get_definition("Businesses") == []  # no singular of it is defined


def test_a_definition_request_in_the_plural_ranks_the_definition():
    keys = query_term_keys("What are Business Days?")
    assert "term:business day" in keys


@pytest.mark.parametrize(("term", "text", "linked"), [
    ("Business Day", "within two business days", True), ("Business Day", "the business day's end", True),
    ("Party", "both parties agree", True), ("Box", "three boxes", True), ("Branch", "all branches", True),
    ("Key", "the keys", True), ("Tim", "several times", False), ("Day", "in daylight", False),
    ("Fee", "a data feed", False), ("Business Day", "business daysx", False)])
def test_term_pattern_matches_english_plurals_only(term, text, linked):
    assert bool(re.search(term_pattern(term), text.casefold())) is linked


def test_singular_term_keys_follow_the_plural_rule():
    assert singular_term_keys("Business Days") == ["term:business day"]
    assert "term:party" in singular_term_keys("Parties")
    assert "term:box" in singular_term_keys("Boxes")
    assert singular_term_keys("Times") == ["term:time"]  # -es only after s, x, z, ch, sh
    assert singular_term_keys("Business") == [] and singular_term_keys("IPs") == []
    assert singular_term_keys("Supplier's") == ["term:supplier"]


# ------------------------------------------------------------------ titles and labels
def test_an_all_capitals_first_line_titles_a_plain_text_document(tools):
    entry = next(d for d in tools.list_documents() if d.doc_key == "field_manual.txt")
    assert entry.title == "PUMP STATION FIELD MANUAL"
    hits = tools.search("impeller inspection", top_k=2, document="field_manual.txt")
    assert hits and all(h.document_title == "PUMP STATION FIELD MANUAL" for h in hits)


@pytest.mark.parametrize(("text", "title"), [
    ("PUMP STATION FIELD MANUAL\n\n1. Safety\n", "PUMP STATION FIELD MANUAL"),
    ("\nCIVIL CODE\n\nBook one\n", "CIVIL CODE"),
    ("1. SAFETY\n\nWear gloves.\n", None),  # a numbered heading
    ("IV. SCOPE\n\ntext\n", None),
    ("WARNING THE PUMP\nIS LIVE WHEN RUNNING\n", None),  # runs into the next line: a shouted sentence
    ("Pump station field manual\n\ntext\n", None),  # not in capitals: the file name stays the title
    ("FAQ\n\ntext\n", None),
    ("The OMS License\n\nVersion 2.2\n\n1. Definitions\n", "The OMS License"),  # title case
    ("Terms of Service\n\ntext\n", "Terms of Service"),
    ("This licence applies to you\n\ntext\n", None),  # a sentence in sentence case
    ("Effective Date March 1, 2024\n\ntext\n", None),  # a date line
    ("Dear Members,\n\ntext\n", None),
    ("*SECTION 1.*\n\n*This measure shall be known as …*\n", None),  # a unit's label (the CPRA redline)
    ("Copyright IBM Corp. 2014, 2025\n\nMozilla Public License, version 2.0\n", None)])  # a notice
def test_plain_text_title_rule(text, title):
    assert plain_text_title(text) == title


def test_a_markdown_file_without_a_heading_takes_its_title_line(tmp_path):
    """A licence written as Markdown with no ``#`` heading (karaka-license, a new user's trial):
    its first line is its title, so a question naming "the OMS License" scopes to it; a file that
    opens with a heading keeps the heading as its title."""
    from .conftest import convert_path

    plain = tmp_path / "karaka-license-v2.md"
    plain.write_text("The OMS License\n\nVersion 2.2\n\n1. Definitions\n\n\"License\" shall mean this.\n",
                     encoding="utf-8")
    headed = tmp_path / "headed.md"
    headed.write_text("# Data Policy\n\nThe Best Practices Apply\n\ntext\n", encoding="utf-8")
    setext = tmp_path / "automattic-privacy-policy.md"  # Automattic/legalmattic's opens with a setext heading
    setext.write_text("Privacy Policy\n--------------\n\nYour privacy matters.\n\n## Who We Are\n\ntext\n",
                      encoding="utf-8")
    assert convert_path(plain).title == "The OMS License"
    assert convert_path(headed).title == "Data Policy"
    assert convert_path(setext).title == "Privacy Policy"


def test_top_level_sections_print_their_number_once(tools):
    entry = next(d for d in tools.list_documents() if d.doc_key == "field_manual.txt")
    out = entry.format()
    assert "1 Safety" in out and "1 1 Safety" not in out and "2 2 Maintenance" not in out
    assert section_label("1", "1 Safety") == "1 Safety"
    assert section_label("1.1", "1.1. Lockout") == "1.1. Lockout"
    assert section_label("4", "Scope") == "4 Scope"
    assert section_label("2.1", "Section 2.1 Purchase Orders") == "2.1 Section 2.1 Purchase Orders"
    assert section_label("preamble", "") == "preamble"


def test_inspect_prints_each_number_once(tmp_path):
    from .test_cli import run

    (tmp_path / "field_manual.txt").write_text(MANUAL, encoding="utf-8")
    out = run("inspect", "field_manual.txt", cwd=tmp_path, check=True).stdout
    assert out.startswith("PUMP STATION FIELD MANUAL")
    assert "1 Safety" in out and "1.1 Lockout procedure" in out
    assert "1 1 Safety" not in out and "1.1 1.1" not in out


def test_every_hit_of_a_document_carries_its_title_in_json(tools):
    results = tools.search("orders supplier acceptance day", top_k=5, document="agreement.md")
    assert len(results) >= 3
    _, data = render_search(results, "orders supplier acceptance day", "docs", max_chars=100_000)
    assert [h["document_title"] for h in data["results"]] == ["Supply Agreement"] * len(data["results"])


# ------------------------------------------------------------------ a section that is not there
def test_a_missing_section_lists_the_top_level_ones(tools):
    with pytest.raises(QueryError) as e:
        tools.get_section("field_manual.txt", "9.9")
    msg = str(e.value)
    assert "no section '9.9'" in msg and "top-level: " in msg
    listed = msg.split("top-level: ")[1].split(", ")
    assert {"1", "2"} <= set(listed) and not any("." in s for s in listed)
