"""References read backwards ("cited by"): ranges expand to their members, citations across
documents (also one made before the cited document arrived), paging, answers, and a query that
names a provision ranking the provisions citing it (GDPR: the fines of Article 83(5))."""

from __future__ import annotations

import textwrap

import pytest

import docstrata
from docstrata.search import QueryError

from .conftest import shared_data

REGULATION = textwrap.dedent("""\
    # Example Data Regulation (EDR)

    ## Article 1
    ### Subject matter
    This Regulation lays down rules on the keeping of customer records by traders.

    ## Article 2
    ### Records
    Traders shall keep a record of each customer's orders for six years.

    ## Article 3
    ### Erasure
    A customer may ask the trader to erase the records kept under Article 2.

    ## Article 4
    ### Notices
    A trader who refuses an erasure under Article 3 shall give written reasons.

    ## Article 5
    ### Penalties
    1. Infringements of Articles 1 to 3 shall be subject to administrative fines up to 10 000 EUR.
    2. Infringements of Article 4 shall be subject to administrative fines up to 2 000 EUR.
    """)

DPA = textwrap.dedent("""\
    # Processing Agreement

    ## 1. Records
    The processor keeps the records required by Article 2 EDR on behalf of the trader.

    ## 2. Assistance
    The processor helps the trader answer erasure requests.
    """)


def _tool(root, files: dict[str, str]):
    (root / "docs").mkdir(exist_ok=True)
    for name, text in files.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    cfg = root / "agent.yaml"
    cfg.write_text("tools:\n  - name: law\n    type: hierarchical_document\n    source: docs/\n"
                   "    database: embedded\n", encoding="utf-8")
    return docstrata.open(cfg)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.mktemp("citers")


@pytest.fixture(scope="module")
def law(root):
    ts = _tool(root, {"dpa.md": DPA})
    ts["law"].ingest()  # the agreement first: its "Article 2 EDR" names a document not yet held
    (root / "docs" / "edr.md").write_text(REGULATION, encoding="utf-8")
    ts["law"].ingest()
    yield ts["law"]
    ts.close()


def test_a_range_member_and_another_documents_citation_are_citers(law):
    page = law.cited_by("edr", "Article 2")
    got = {(c.document, c.section_id): c for c in page.citers}
    assert page.section_id == "article-2" and page.total == len(page.citers) == 3
    assert got[("edr.md", "article-5(1)")].references == ["Articles 1 to 3"]  # 2 is no word of the text
    assert ("edr.md", "article-3") in got
    assert got[("dpa.md", "1")].references == ["Article 2"]  # cited before edr.md was ingested
    assert [c.document for c in page.citers] == ["edr.md", "edr.md", "dpa.md"]  # own document first
    assert [c.section_id for c in law.cited_by("edr", "article-4").citers] == ["article-5(2)"]
    assert law.cited_by("edr", "Article 5").total == 0


def test_cited_by_pages_with_a_cursor(law):
    first = law.cited_by("edr", "article-2", limit=2)
    assert len(first.citers) == 2 and first.next_cursor
    rest = law.cited_by("edr", "article-2", limit=2, cursor=first.next_cursor)
    assert rest.offset == 2 and [c.document for c in rest.citers] == ["dpa.md"] and rest.next_cursor is None
    with pytest.raises(QueryError, match="belongs to"):
        law.cited_by("edr", "article-3", cursor=first.next_cursor)
    with pytest.raises(QueryError, match="no section"):
        law.cited_by("edr", "Article 99")


def test_search_hits_say_who_cites_them_and_a_named_provision_ranks_its_citers(law):
    hits = law.search("How much is the fine for infringing Article 2?", top_k=3)
    assert any(h.section_id.startswith("article-5") for h in hits)
    records = next(h for h in law.search("keeping records of customer orders for six years", top_k=5)
                   if h.section_id == "article-2")
    assert records.cited_by_total == 3
    assert [c["section_id"] for c in records.cited_by] == ["article-3", "article-5(1)", "1"]
    assert "Cited by (3): edr.md § article-3 (Article 2); edr.md § article-5(1) (Articles 1 to 3)" in records.format()


def test_cli_cited_by_pages(law, root):
    from typer.testing import CliRunner

    from docstrata.cli import app

    cfg = str(root / "agent.yaml")
    out = CliRunner().invoke(app, ["cited-by", "edr", "Article 2", "-n", "2", "-c", cfg])
    assert out.exit_code == 0, out.output
    assert "Cited by: edr.md § article-2 (1–2 of 3)" in out.output
    cursor = out.output.rsplit("--cursor ", 1)[1].split("]")[0].strip()
    more = CliRunner().invoke(app, ["cited-by", "edr", "Article 2", "-n", "2", "-c", cfg, "--cursor", cursor])
    assert "(3–3 of 3)" in more.output and "dpa.md § 1: Article 2" in more.output


# ------------------------------------------------------------------ GDPR (shared data)
@pytest.fixture(scope="module")
def gdpr(tmp_path_factory):
    src = shared_data("documents", "md", "gdpr_regulation_eu_2016_679.md")
    ts = _tool(tmp_path_factory.mktemp("gdpr"), {"gdpr.md": src.read_text(encoding="utf-8")})
    yield ts["law"]
    ts.close()


@pytest.mark.slow
@pytest.mark.shared_data
def test_gdpr_article_17_is_cited_by_the_fines_of_article_83_5(gdpr):
    citers = {c.section_id: c for c in gdpr.cited_by("gdpr", "Article 17", limit=200).citers}
    assert citers["article-83(5)(b)"].references == ["Articles 12 to 22"]
    assert {"article-19", "article-20(3)", "article-23(1)", "article-58(2)(g)", "article-70(1)(d)"} <= set(citers)


@pytest.mark.slow
@pytest.mark.shared_data
def test_gdpr_fines_question_finds_article_83_5(gdpr):
    hits = gdpr.search("How much can a controller be fined for infringing Article 17?", top_k=3)
    assert "article-83(5)" in [h.section_id for h in hits]


# ------------------------------------------------------------------ precise citations
def test_a_hit_cites_the_deepest_section_holding_its_best_sentence(law):
    """Article 5's chunk holds paragraphs 1 and 2: a question about the fine for Article 4 is cited
    to 5(2), with the characters of the sentence that answers it, not to the chunk's 5(1)."""
    hit = next(h for h in law.search("How large is the fine for infringing Article 4?", top_k=5)
               if h.section_id.startswith("article-5"))
    assert hit.section_id == "article-5(2)"
    text = hit.content.strip()
    assert text[hit.passage["start"]:hit.passage["end"]].startswith("2. Infringements of Article 4")


@pytest.mark.shared_data
def test_contract_suspension_question_cites_2_2_not_2(tmp_path):
    src = shared_data("documents", "md", "commonpaper_cloud_service_agreement_v1.md")
    with _tool(tmp_path, {"csa.md": src.read_text(encoding="utf-8")}) as ts:
        hits = ts["law"].search("Can the provider suspend the customer's access for non-payment?", top_k=3)
        assert hits[0].section_id == "2.2"
        p = hits[0].passage
        assert "suspend" in hits[0].content.strip()[p["start"]:p["end"]]


def test_span_answers_give_the_minimal_passage_within_the_budget(law):
    from docstrata.answers import render_search

    results = law.search("How large is the fine for infringing Article 4?", top_k=3)
    text, data = render_search(results, "How large is the fine for infringing Article 4?", "law", 2000, span=True)
    hit = next(h for h in data["results"] if h["section_id"] == "article-5(2)")
    assert hit["content"] == "2. Infringements of Article 4 shall be subject to administrative fines up to 2 000 EUR."
    assert hit["truncated"] and len(text) <= 2000
    whole, _ = render_search(results, "How large is the fine for infringing Article 4?", "law", 2000)
    assert len(text) < len(whole)


def test_playground_views_group_a_range_and_list_citers(law):
    from docstrata.ui import api

    section = api.section_view(law, "edr", "article-2")
    assert section["cited_by"]["total"] == 3
    assert [c["section_id"] for c in section["cited_by"]["citers"]] == ["article-3", "article-5(1)", "1"]
    rows = [x for x in api.document_view(law, "edr")["cross_references"] if x["text"] == "Articles 1 to 3"]
    assert len(rows) == 1  # the range once, its members under it
    assert [m["section_id"] for m in rows[0]["members"]] == ["article-1", "article-2", "article-3"]


def test_two_paragraphs_of_one_chunk_citing_the_same_article_are_two_citers():
    """Grundgesetz Art. 46 (official text, § 5 UrhG): paragraphs (3) and (4) both cite "Artikel 18"
    and share a chunk; each is a citer of Artikel 18 (a second mention was once found at the first
    one's place, so (4) was lost)."""
    from docstrata.chunking import chunk_tree
    from docstrata.citers import citers_of_chunks
    from docstrata.structure.parse import parse_sections

    md = textwrap.dedent("""\
        ## Artikel 18

        Wer die Freiheit der Meinungsäußerung zum Kampfe gegen die freiheitliche demokratische Grundordnung mißbraucht, verwirkt diese Grundrechte.

        ## Artikel 46

        (1) Ein Abgeordneter darf zu keiner Zeit wegen seiner Abstimmung gerichtlich verfolgt werden.

        (2) Wegen einer mit Strafe bedrohten Handlung darf ein Abgeordneter nur mit Genehmigung des Bundestages zur Verantwortung gezogen werden.

        (3) Ein Abgeordneter darf ferner nur mit Genehmigung des Bundestages zur Verantwortung gezogen werden, es sei denn, daß er bei Begehung der Tat festgenommen wird, oder ein Verfahren gegen einen Abgeordneten gemäß Artikel 18 eingeleitet wird.

        (4) Jedes Strafverfahren und jedes Verfahren gemäß Artikel 18 gegen einen Abgeordneten sind auf Verlangen des Bundestages auszusetzen.
        """)
    tree = parse_sections(md, "gg.md", "Grundgesetz")
    chunks = chunk_tree(tree, count_tokens=lambda t: len(t.split()))
    assert len({c.chunk_id for c in chunks if "(4) Jedes" in c.content and "(3) Ein" in c.content}) == 1
    citers = citers_of_chunks(chunks, "gg.md", "artikel-18", [])
    assert [c.section_id for c in citers] == ["artikel-46(3)", "artikel-46(4)"]
