"""Pinpoints (trial 7): a cited sub-item is found inside the right paragraph, search cites and
excerpts it, references into other instruments stay external, neighbours keep the asked-for
chunk, a section label as the whole query is pinned, honest scores, no repeated warnings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import docstrata
from docstrata.answers import render_neighbours, render_search
from docstrata.models import Chunk
from docstrata.pinpoint import item_span, item_starts
from docstrata.structure.parse import parse_sections
from docstrata.structure.xrefs import find_cross_references

from .helpers import doc_project

# GDPR Markdown as pienebbink/gdpr writes it: paragraphs "1.", points "\ta. |"; both paragraphs have a (b)
ARTICLE_17 = (
    "# Regulation\n\n## Article 17 Right to erasure\n\n"
    "1.   The data subject shall have the right to obtain erasure where one of the following applies:\n\n"
    "\ta. | the data are no longer necessary;\n\n\tb. | the data subject withdraws consent;\n\n"
    "\tc. | the data subject objects to the processing pursuant to Article 6(9);\n\n"
    "2.   Where the controller has made the data public, it shall inform other controllers.\n\n"
    "3.   Paragraphs 1 and 2 shall not apply to the extent that processing is necessary:\n\n"
    "\ta. | for exercising the right of freedom of expression;\n\n"
    "\tb. | for compliance with a legal obligation which requires processing by Union law;\n\n"
    "\tc. | for the establishment, exercise or defence of legal claims.\n\n"
    "## Article 6 Lawfulness\n\n1.   Processing shall be lawful only if the data subject has given consent.\n"
)


def _chunk(content: str, section_id: str, sections: list[str], i: int = 0) -> Chunk:
    return Chunk(chunk_id=f"d.md#{i}", doc_key="d.md", ordinal=i, content=content, section_id=section_id,
                 parent_chain=[section_id], heading_level=2, metadata={"sections": sections})


def test_a_sub_item_is_found_inside_its_own_paragraph_not_at_the_first_label_of_the_chunk():
    body = ARTICLE_17.split("## Article 17 Right to erasure\n\n")[1].split("## Article 6")[0]
    held = ["article-17", "article-17(1)", "article-17(1)(a)", "article-17(1)(b)", "article-17(1)(c)",
            "article-17(2)", "article-17(3)", "article-17(3)(a)", "article-17(3)(b)", "article-17(3)(c)"]
    c = _chunk("## Article 17 Right to erasure\n\n" + body, "article-17", held)
    span = item_span(c, "article-17(3)(b)")
    assert c.content[span[0]:span[1]].strip() == \
        "b. | for compliance with a legal obligation which requires processing by Union law;"
    a, e = item_span(c, "article-17(1)(b)")
    assert "withdraws consent" in c.content[a:e] and "legal obligation" not in c.content[a:e]
    three = item_span(c, "article-17(3)")
    assert c.content[three[0]:three[1]].startswith("3.   Paragraphs") and "legal claims" in c.content[three[0]:three[1]]
    # paragraph 3's label line missing: its points cannot be told apart from paragraph 1's, so none is claimed
    broken = _chunk(c.content.replace("3.   Paragraphs", "Paragraphs"), "article-17", held)
    assert "article-17(3)" not in item_starts(broken) and item_span(broken, "article-17(3)(b)") is None


def _project(root: Path, docs: dict[str, str]) -> Path:
    return doc_project(root, docs, max_chunk_tokens=800, chunk_overlap=0)


ASVS_LIKE = ("# V6 Authentication\n\n## V6.1 Authentication Documentation\n\nDocument the controls used.\n\n"
             "## V6.2 Password Security\n\nPasswords of at least 8 characters are accepted; V6.1 lists the rest.\n\n"
             "## V6.3 General Authentication Security\n\nRate limiting applies to password attempts.\n")


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    root = tmp_path_factory.mktemp("pinpoints")
    ts = docstrata.open(_project(root, {"reg.md": ARTICLE_17, "asvs.md": ASVS_LIKE}))
    tool = ts["docs"]
    tool.ingest()
    yield tool
    ts.close()


def test_get_section_follows_the_whole_pinpoint_chain(docs):
    page = docs.get_section("reg", "Art. 17(3)(b)", max_chars=None)
    assert page.section_id == "article-17(3)(b)" and not page.notice
    assert page.content.startswith("b. | for compliance with a legal obligation")
    assert "withdraws consent" not in page.content and "legal claims" not in page.content
    a = docs.get_section("reg", "Article 17(3)(a)", max_chars=None)
    assert "freedom of expression" in a.content and "no longer necessary" not in a.content


LEAD_3 = "3.   Paragraphs 1 and 2 shall not apply to the extent that processing is necessary:"
ITEM_3B = "b. | for compliance with a legal obligation which requires processing by Union law;"


def test_search_cites_the_pinpoint_with_its_span_in_the_whole_chunk(docs):
    hits = docs.search("Art. 17(3)(b)", top_k=3)
    top = hits[0]
    assert top.pinned and top.section_id == "article-17(3)(b)"
    pin = top.pinpoint
    assert pin.section_id == "article-17(3)(b)" and pin.text == ITEM_3B
    assert top.content[pin.start:pin.end].strip() == ITEM_3B and top.pinpoint_start == pin.start
    assert pin.lead == [LEAD_3]  # the lead-in of paragraph 3, which governs point (b)
    assert "withdraws consent" in top.content  # the API keeps the whole chunk
    one = docs.search("Article 17(1)(a)", top_k=3)
    assert one[0].section_id == "article-17(1)(a)" and one[0].pinpoint.text == "a. | the data are no longer necessary;"
    plain = docs.search("Article 17", top_k=3)
    assert plain[0].section_id == "article-17" and plain[0].pinpoint is None and plain[0].pinpoint_start is None


def test_a_pinpointed_hit_shows_its_item_under_the_lead_in_and_leaves_the_rest_out(docs):
    hits = docs.search("Art. 17(3)(b)", top_k=3)
    view = hits[0].format().split("\n\n")[1]  # the passage: its lines are joined by single line breaks
    # paragraphs 1-2 left out, paragraph 3's lead-in, its point (a) left out, point (b), point (c) left out
    assert view == f"…\n{LEAD_3}\n…\n{ITEM_3B}\n…"
    pin = hits[0].pinpoint
    start, end = pin.offsets_in(hits[0].content)  # counted in the chunk text as answers show it (stripped)
    assert hits[0].content.strip()[start:end].strip() == ITEM_3B
    assert f"Pinpoint: article-17(3)(b), characters {start}-{end} of the chunk's {len(hits[0].content.strip())}" \
        in hits[0].format()
    text, data = render_search(hits, "Art. 17(3)(b)", "docs")
    first = data["results"][0]
    assert first["pinpoint"] == {"section_id": "article-17(3)(b)", "start": start, "end": end, "text": ITEM_3B}
    assert first["content"] == view and first["truncated"] and first["content_chars"] == len(hits[0].content.strip())
    assert "withdraws consent" not in first["content"] and "legal claims" not in first["content"]
    block = text.split("\n\n---\n\n")[0]
    assert f"{ITEM_3B}\n…\n[whole chunk: docs_get_neighbours(chunk_id='{hits[0].chunk_id}', before=0, after=0)]" in block
    assert "withdraws consent" not in block
    assert all("pinpoint" not in h for h in data["results"][1:] if h["section_id"] == "article-6")
    # a tight budget keeps the item's beginning, its lead-in and the offsets, and fits
    text, data = render_search(hits, "Art. 17(3)(b)", "docs", 2000)
    first = data["results"][0]
    assert first["content"].startswith(f"…\n{LEAD_3[:40]}") and "b. | for compliance" in first["content"]
    assert first["pinpoint"]["start"] == start and first["pinpoint"]["text"].startswith("b. | for compliance")
    assert max(len(text), len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))) <= 2000


def test_a_reference_to_a_missing_pinpoint_says_it_shows_the_enclosing_section(docs):
    hits = docs.search("objects to the processing pursuant to Article 6(9)", top_k=5)
    refs = [x for h in hits for x in h.cross_references if x["target"] == "article-6(9)"]
    assert refs and refs[0]["target_section_id"] == "article-6" and refs[0]["enclosing"] is True
    assert "the section holding article-6(9), no section of its own" in \
        next(h for h in hits if refs[0] in h.cross_references).format()


def test_a_whole_query_that_is_a_section_label_is_pinned(docs):
    hits = docs.search("V6.2", top_k=3)
    assert hits[0].section_id.lower() == "v6.2" and hits[0].pinned
    assert not any(h.pinned for h in hits[1:])
    if hits[0].fused_score < hits[1].score:  # placed first above a better fused score: said so, not hidden
        assert hits[0].format().startswith("Score: pinned first (own fused score")


REGULATION = ("### Article 1\n\n#### Scope\n\n1.   This Regulation applies to processing.\n\n"
              "### Article 2\n\n#### Matters\n\n1.   See paragraph 1 of that Article and Article 1.\n\n"
              "### Article 12\n\n#### Transparency\n\n1.   Information shall be given.\n\n"
              "### Article 25\n\n#### Design\n\n1.   Measures shall be taken.\n")


@pytest.mark.parametrize("text, kept_internal", [
    ("as referred to in Article 2 of the Annex to Commission Recommendation 2003/361/EC.", False),
    ("the provisions of Articles 12 to 15 of that Directive.", False),
    ("adopted on the basis of Article 25(6) or Article 26(4) of Directive 95/46/EC.", False),
    ("Without regard to chapter 5 of title 5, United States Code, the Secretary may act.", False),
    ("under chapter 5, title 5, United States Code, for an emergency temporary standard.", False),
    ("as laid down in Article 2 of the Annex to this Regulation.", True),
    ("the conditions of Article 12 of this Regulation apply.", True),
    ("Article 25 or Article 12 of this Regulation apply.", True),
])
def test_a_reference_naming_another_instrument_is_not_resolved_into_this_one(text, kept_internal):
    tree = parse_sections(REGULATION, "reg.md", "Regulation (EU) 2016/679")
    found = find_cross_references(text, tree, "article-1")
    assert found
    for r in found:
        if kept_internal:
            assert r.document is None and r.section_id is not None, (r.text, r.document)
        else:
            assert r.section_id is None and r.document, (r.text, r.section_id)


def test_paragraph_of_that_article_stays_a_reference_into_this_document():
    tree = parse_sections(REGULATION, "reg.md", "Regulation (EU) 2016/679")
    found = find_cross_references("See Article 12 of that Directive and Article 25 thereof.", tree, "article-2")
    assert [(r.target, r.document) for r in found] == [("article-12", "that Directive"), ("article-25", None)]
    assert found[1].section_id == "article-25"


def test_neighbours_under_a_budget_keep_the_asked_for_chunk_and_cut_the_neighbours_first():
    long_before = "Earlier provision text. " * 120
    asked = "The asked-for passage begins here. " + "It goes on with its own words. " * 20
    after = "Later provision text. " * 120
    chunks = [Chunk(chunk_id=f"d.md#{i}", doc_key="d.md", ordinal=i, content=t, section_id=str(i),
                    parent_chain=[str(i)], heading_level=1) for i, t in enumerate([long_before, asked, after])]
    _text, data = render_neighbours(chunks, 1000, "d.md#1")
    got = {c["chunk_id"]: c["content"] for c in data["chunks"]}
    assert got["d.md#1"] == asked.strip()  # whole: 660 characters of a 1,000 budget
    assert sum(len(v) for v in got.values()) <= 1000 + 8 and data["truncated"]
    assert got["d.md#0"].startswith("… ") and got["d.md#2"].endswith(" …")  # the parts next to the asked one
    tight = render_neighbours(chunks, 400, "d.md#1")[1]
    asked_shown = next(c["content"] for c in tight["chunks"] if c.get("requested"))
    assert asked_shown.startswith("The asked-for passage begins here.") and len(asked_shown) >= 200


def test_definition_conflicts_are_warned_once_not_on_every_no_op_ingest(tmp_path):
    cfg = _project(tmp_path, {
        "a.md": '# A\n\n## 1 Definitions\n\n"Recipient" means the person receiving the goods.\n',
        "b.md": '# B\n\n## 1 Definitions\n\n"Recipient" means a natural or legal person to whom data are disclosed.\n',
    })
    with docstrata.open(cfg) as ts:
        first = ts["docs"].ingest()
        assert any("recipient" in w and "defined differently" in w for w in first.warnings), first.warnings
        again = ts["docs"].ingest()
        assert again.added == again.updated == 0
        assert not any("defined differently" in w for w in again.warnings), again.warnings


def test_cli_search_prints_the_pinpoint_and_its_json_keeps_the_whole_chunk(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "reg.md").write_text(ARTICLE_17, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: docs\n    type: hierarchical_document\n    source: docs/\n"
                                         "    max_chunk_tokens: 800\n    chunk_overlap: 0\n", encoding="utf-8")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "200"}

    def cli(*args: str) -> str:
        proc = subprocess.run([sys.executable, "-m", "docstrata.cli", *args], cwd=tmp_path, capture_output=True,
                              text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    first = cli("search", "--mode", "exact", "Art. 17(3)(b)").split("\n\n---\n\n")[0]
    assert "Section: article-17(3)(b)" in first and "Pinpoint: article-17(3)(b), characters" in first
    assert f"…\n{LEAD_3}\n…\n{ITEM_3B}\n…" in first and "withdraws consent" not in first
    assert f"[whole chunk: docstrata neighbours -c {tmp_path / 'agent.yaml'} -t docs 'reg.md#" in first
    assert "--before 0 --after 0]" in first
    hit = json.loads(cli("search", "--mode", "exact", "--json", "Art. 17(3)(b)"))["results"][0]
    pin = hit["pinpoint"]
    assert hit["content"][pin["start"]:pin["end"]].strip() == pin["text"] == ITEM_3B
    assert "withdraws consent" in hit["content"] and hit["truncated"] is False


def test_a_pinpoint_view_under_a_cap_keeps_the_inner_lead_in_and_the_item_beginning():
    from docstrata.pinpoint import locate_pinpoint

    content = ("## Sec. 5 Duties\n\nEach employer has the following duties—\n\n(a) General.—" + "An employer shall act. " * 4
               + "\n\n(b) Records.—An employer shall keep records as follows:\n\n(1) " + "Each record is kept for five "
               "years and shown on request. " * 6 + "\n\n(2) Records are destroyed after that.\n")
    held = ["5", "5(a)", "5(b)", "5(b)(1)", "5(b)(2)"]
    c = Chunk(chunk_id="d.md#0", doc_key="d.md", ordinal=0, content=content, section_id="5", parent_chain=["Sec. 5"],
              heading_level=2, metadata={"sections": held})
    pin = locate_pinpoint(c, [["section 5(b)(1)", "5(b)(1)"]])
    assert pin.section_id == "5(b)(1)" and content[pin.start:pin.end].strip() == pin.text
    assert pin.lead == ["Each employer has the following duties—", "(b) Records.—An employer shall keep records as follows:"]
    whole, _ = pin.view(content)
    assert whole.split("\n") == [pin.lead[0], "…", pin.lead[1], pin.text, "…"]  # (a) and (2) left out, marked
    assert len(pin.view(content, 160)[0]) <= 160  # both lead-ins, cut
    short, text = pin.view(content, 120)
    assert len(short) <= 120 and short.startswith("…\n(b) Records.") and text.endswith(" …")  # the outer one went first
    assert text.startswith("(1) Each record is kept") and short.endswith(text + "\n…")
    padded = "\n\t" + content  # a chunk text with leading white space: answers count in its stripped text
    moved = locate_pinpoint(Chunk(chunk_id="d.md#0", doc_key="d.md", ordinal=0, content=padded, section_id="5",
                                  parent_chain=["Sec. 5"], heading_level=2, metadata={"sections": held}),
                            [["section 5(b)(1)", "5(b)(1)"]])
    a, b = moved.offsets_in(padded)
    assert (a, b) == (pin.start, pin.end) and padded.strip()[a:b].strip() == pin.text


GUIDE = ("# Operations Guide\n\n## 3 Controls\n\n### 3.1 Password Rotation\n\nPasswords are changed every ninety days "
         "and never reused.\n\n### 3.2 Logging\n\nEvery login is logged and kept for a year.\n")
POLICY = ("# Security Policy\n\n## 3 Requirements\n\n### 3.1 Least Privilege\n\nAccounts get only the rights they need; "
          "password rotation and password rules are in the guide.\n\n### 3.2 Reviews\n\nRights are reviewed yearly.\n")
DIRECTIVE = ("# Directive\n\n## Article 10 Fees\n\nAdministrative cooperation between Member States on fees: Member "
             "States share fee schedules and cooperate administratively between themselves.\n\n"
             "## Article 11 Administrative cooperation between Member States\n\nEach Member State names a contact "
             "point.\n")


@pytest.fixture(scope="module")
def titled(tmp_path_factory):
    root = tmp_path_factory.mktemp("titled")
    with docstrata.open(_project(root, {"guide.md": GUIDE, "policy.md": POLICY, "directive.md": DIRECTIVE})) as ts:
        ts["docs"].ingest()
        yield ts["docs"]


def test_a_citation_with_its_sections_title_picks_that_section_among_same_numbered_ones(titled):
    hits = titled.search("Section 3.1 password rotation", top_k=3)
    assert (hits[0].source_path, hits[0].section_id, hits[0].pinned) == ("guide.md", "3.1", True)
    assert not any(h.pinned for h in hits[1:])  # policy.md's 3.1 (Least Privilege) is no longer pinned with it
    both = titled.search("Section 3.1", top_k=3)  # no title words: every document's 3.1 is named
    assert {h.source_path for h in both if h.pinned} == {"guide.md", "policy.md"}


def test_a_citation_followed_by_the_whole_title_is_pinned_however_long_the_title(titled):
    query = "Article 11 administrative cooperation between member states"  # five words besides the reference
    hits = titled.search(query, top_k=3)
    assert (hits[0].section_id, hits[0].pinned) == ("article-11", True)
    loose = titled.search("Article 11 fee schedules shared between member states", top_k=3)
    assert not any(h.pinned for h in loose)  # words that are not its title: a question mentioning it, no pin


def test_every_conflicting_term_is_warned_not_only_the_first(tmp_path):
    cfg = _project(tmp_path, {
        "a.md": '# A\n\n## 1 Definitions\n\n"Recipient" means the person receiving the goods.\n\n'
                '"Supplier" means the company that ships the goods.\n\n"Goods" means the items in the order.\n',
        "b.md": '# B\n\n## 1 Definitions\n\n"Recipient" means a natural or legal person to whom data are disclosed.\n\n'
                '"Supplier" means a processor engaged by another processor.\n\n"Goods" means the items in the order.\n',
    })
    with docstrata.open(cfg) as ts:
        warned = [w for w in ts["docs"].ingest().warnings if "defined differently" in w]
    assert sorted(w.split("'")[1] for w in warned) == ["recipient", "supplier"], warned  # "goods" agrees
    assert all("a.md, b.md" in w for w in warned)
