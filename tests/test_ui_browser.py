"""The playground in a real browser: the system's headless Chromium driven by Playwright.

Loads the page over examples/agent.yaml, runs the README's example search, reads why § 4.3
ranks where it does, opens § 4.2 from 4.3's cross-reference, follows it into the document view,
compares hybrid with keyword and evaluates both on a small query set, then narrows searches
(document + section; a record tool's field filters) and reads the confidence badge. Saves a screenshot of
each view to $DOCSTRATA_SCREENSHOTS when set (``DOCSTRATA_SCREENSHOTS=docs/screenshots`` refreshes the
README's images), else to a temporary folder, so a test run never changes the working tree.

Needs Chromium at /usr/bin/chromium (Debian: ``apt-get install chromium``; .ci/run installs it)
and the ``playwright`` package (the ``test`` extra). Playwright's own browser download
(``playwright install``) is never used. Skips, saying which is missing, otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

import docstrata
from docstrata.ui.server import serve_in_thread

from .conftest import EXAMPLES

CHROMIUM = os.environ.get("DOCSTRATA_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(os.environ.get("DOCSTRATA_SCREENSHOTS") or Path(tempfile.gettempdir()) / "docstrata-screenshots")
README_QUERY = "How much credit do we get if availability falls below 99.9%?"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set DOCSTRATA_CHROMIUM)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory, embedder):
    dest = tmp_path_factory.mktemp("browser") / "examples"
    shutil.copytree(EXAMPLES, dest, ignore=shutil.ignore_patterns(".docstrata", "holodeck"))
    tools = docstrata.open(dest / "agent.yaml")
    tools["policies"]._embedder = embedder
    tools["policies"].ingest()
    srv, _ = serve_in_thread(tools)
    yield srv, tools
    srv.shutdown()
    srv.server_close()
    tools.close()


@pytest.fixture(scope="module")
def page(served):
    srv, _ = served
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1360, "height": 1000}, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(srv.url)
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        page.errors = errors
        yield page
        browser.close()


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def test_search_shows_why_each_result_ranks(page, served):
    from docstrata.ui.api import search_view

    want = search_view(served[1]["policies"], README_QUERY)["results"]  # what the API says, to check the page
    page.fill("#q", README_QUERY)
    page.click("#search-form button[type=submit]")
    page.wait_for_selector(".result")
    cards = page.locator(".result")
    assert cards.count() == len(want) == 10
    assert [cards.nth(i).get_attribute("data-chunk") for i in range(10)] == [r["chunk_id"] for r in want]
    r43 = next(r for r in want if r["citation"]["section_id"] == "4.3")
    assert r43["rank"] <= 3
    credits = page.locator(".result[data-section='4.3']")
    sem, kw = r43["modalities"]["semantic"], r43["modalities"]["keyword"]
    why = credits.locator(".why").inner_text()
    assert why.startswith(f"Fused {r43['fused_score']:.4f} = semantic rank {sem['rank']} → {sem['contribution']:.4f}"
                          f" + keyword rank {kw['rank']} → {kw['contribution']:.4f}"), why
    if r43["rank"] > 1:
        above = want[r43["rank"] - 2]
        assert f"below #{above['rank']} (§ {above['citation']['section_id']})" in why
    table = credits.locator("table.scores").inner_text()
    assert f"cosine {sem['score']:.3f}" in table and f"BM25 {kw['score']:.2f}" in table
    assert ("not found" in table) == (r43["modalities"]["exact"]["rank"] is None)
    marks = credits.locator("mark.term").all_inner_texts()
    assert "credit" in [m.lower() for m in marks]
    assert "Service Level" in credits.locator(".defs").inner_text()
    assert "10 results" in page.inner_text("#search-status")
    conf = search_view(served[1]["policies"], README_QUERY)["confidence"]
    assert page.inner_text("#search-confidence .badge.conf") == f"confidence {conf['level']}"
    assert conf["reason"] in page.inner_text("#search-confidence")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "search")
    assert not page.errors, page.errors


def test_a_cross_reference_opens_its_section(page):
    page.locator(".result[data-section='4.3'] a.xref", has_text="Section 4.2").click()
    page.wait_for_selector("#drawer:not([hidden]) #section-text")
    assert page.inner_text("#drawer-title") == "§ 4.2 · 4.2 Availability"
    assert "available 99.9% of the time" in page.inner_text("#section-text")
    shot(page, "section")
    page.click("#drawer-doc")  # the same section in its document's tree
    page.wait_for_selector("#tree details.flash[data-section='4.2']")
    assert page.locator("#drawer").is_hidden()
    node = page.locator("#tree details[data-section='4.3'] > summary").inner_text()
    assert "Service Credits" in node and "level 3" in node and "1 chunk" in node
    parent = page.locator("#tree details[data-section='4'] > summary").inner_text()
    assert "Service Levels" in parent and "level 2" in parent
    assert "heading carried in #" in page.locator("#tree details[data-section='4'] > .chunks").inner_text()
    refs = page.inner_text("#xref-table")
    assert "Section 4.2" in refs and "→ § 4.2" in refs
    assert page.locator("tr.doc.active").get_attribute("data-doc") == "master_services_agreement.md"
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "documents")
    assert not page.errors, page.errors


def test_compare_and_evaluate_two_settings(page, served, tmp_path):
    _, tools = served
    first = {c.section_id: c.chunk_id for c in tools["policies"].store.document_chunks("master_services_agreement.md")}
    page.click(".tab[data-view='compare']")
    page.fill("#cq", README_QUERY)
    page.select_option("#set-b select[name=mode]", "semantic")
    page.click("#compare-form button[type=submit]")
    page.wait_for_selector("#compare-out [data-side='b'] .crow")
    assert page.locator("#compare-out [data-side='a'] .crow").count() == 10
    from docstrata.ui.api import Settings, compare_view

    v = compare_view(tools["policies"], README_QUERY, Settings(), Settings(mode="semantic"))

    def badge(ch):
        if not ch["rank_a"]:
            return "new"
        d = ch["rank_a"] - ch["rank_b"]
        return f"▲{d}" if d > 0 else f"▼{-d}" if d < 0 else "="

    want = [badge(v["changes"][r["chunk_id"]]) for r in v["b"]["results"]]
    assert page.locator("#compare-out [data-side='b'] .chg").all_inner_texts() == want
    assert any(b.startswith(("▲", "▼")) for b in want)
    gone = [r for r in v["a"]["results"] if v["changes"][r["chunk_id"]]["rank_b"] is None]
    assert page.locator("#compare-out [data-side='a'] .chg.gone").count() == len(gone)
    assert "passages change rank between A and B" in page.inner_text("#compare-status")
    queries = tmp_path / "queries.jsonl"
    queries.write_text("\n".join(json.dumps({"_id": q, "text": t}) for q, t in
                                 [("q1", README_QUERY), ("q2", "Section 4.3"), ("q3", "force majeure")]))
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text(f"q1\t{first['4.3']}\t1\nq2\t{first['4.3']}\t1\nq3\t{first['1.2']}\t1\n")
    page.set_input_files("#eval-queries", str(queries))
    page.set_input_files("#eval-qrels", str(qrels))
    page.click("#eval-form button[type=submit]")
    page.wait_for_selector("#eval-table")
    rows = page.locator("#eval-table tbody tr").all_inner_texts()
    assert [r.split("\t")[0] for r in rows] == ["A", "B"]
    assert page.locator("#eval-out svg.chart rect").count() >= 4
    assert "3 beir queries" in page.inner_text("#eval-status")
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header belongs at the top of a full-page shot
    shot(page, "compare", full_page=True)
    assert not page.errors, page.errors


def test_the_search_form_filters_by_document_and_section(page):
    page.click(".tab[data-view='search']")
    page.select_option("#search-settings select[name=document]", "master_services_agreement.md")
    page.fill("#search-settings input[name=section]", "4")
    page.fill("#q", "service")
    page.click("#search-form button[type=submit]")
    from playwright.sync_api import expect

    expect(page.locator("#search-status")).to_contain_text("only document", timeout=60_000)
    sections = [page.locator(".result").nth(i).get_attribute("data-section") for i in range(page.locator(".result").count())]
    assert sections and all(s.startswith("4.") for s in sections), sections
    assert "only document master_services_agreement.md, section 4" in page.inner_text("#search-status")
    page.fill("#search-settings input[name=section]", "")
    page.select_option("#search-settings select[name=document]", "")
    page.fill("#q", "the of and")  # no content words: no hits, and the page says why
    page.click("#search-form button[type=submit]")
    expect(page.locator("#search-status")).to_contain_text("0 results", timeout=60_000)
    assert page.inner_text("#search-confidence .badge.conf") == "confidence none"
    assert not page.errors, page.errors


def test_record_field_filters_in_the_search_form(page, tmp_path, embedder):
    """A record tool's search form has a field-filter box; what it returns is what the API returns."""
    from playwright.sync_api import expect

    from docstrata.ui.api import Settings, search_view

    (tmp_path / "hotels.csv").write_text("hotel_id,name,city,cap\nH1,Hotel Terreaux,Lyon,140\n"
                                         "H2,Part-Dieu Hotel,Lyon,120\nH3,Spree Hotel,Berlin,150\n")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: hotels\n    type: vectorstore\n    source: hotels.csv\n"
                                         "    description: hotels\n    id_field: hotel_id\n"
                                         "    vector_field: [name, city]\n    meta_fields: [city, cap]\n")
    tools = docstrata.open(tmp_path / "agent.yaml")
    tools["hotels"]._embedder = embedder
    tools["hotels"].ingest()
    srv, _ = serve_in_thread(tools)
    try:
        page.goto(srv.url)
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        assert page.locator("#search-settings input[name=section]").count() == 0  # records have no sections
        page.fill("#search-settings input[name=filters]", "cap<145; city=Lyon,Berlin")
        page.fill("#q", "hotel")
        page.click("#search-form button[type=submit]")
        expect(page.locator("#search-status")).to_contain_text("only fields", timeout=60_000)
        want = search_view(tools["hotels"], "hotel", Settings.from_dict({"filters": "cap<145; city=Lyon,Berlin"}))
        shown = [page.locator(".result").nth(i).get_attribute("data-chunk") for i in range(page.locator(".result").count())]
        assert shown == [r["chunk_id"] for r in want["results"]] and sorted(shown) == ["H1", "H2"]
        page.fill("#search-settings input[name=filters]", "cap<<1")
        page.click("#search-form button[type=submit]")
        expect(page.locator("#search-status.error")).to_contain_text("'cap<<1'", timeout=60_000)
        assert not [e for e in page.errors if "400" not in e], page.errors  # the refused search is a 400, shown
    finally:
        srv.shutdown()
        srv.server_close()
        tools.close()


def test_a_cited_sub_item_is_shown_as_its_pinpoint_with_the_whole_chunk_a_click_away(page, tmp_path, embedder):
    """The playground shows a pinpoint as the CLI, MCP and format() do: the Pinpoint line, the item
    under its lead-in with the rest left out ("…"), the item set apart; the whole chunk on request."""
    from docstrata.models import pinpoint_line
    from docstrata.ui.api import search_view

    from .test_pinpoints import ARTICLE_17

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "reg.md").write_text(ARTICLE_17, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: law\n    type: hierarchical_document\n"
                                         "    source: docs/\n    database: in-memory\n")
    tools = docstrata.open(tmp_path / "agent.yaml")
    tools["law"]._embedder = embedder
    tools["law"].ingest()
    srv, _ = serve_in_thread(tools)
    try:
        query = "Article 17(3)(b)"
        hit = tools["law"].search(query, top_k=1)[0]
        assert hit.pinpoint is not None and hit.pinpoint.section_id == "article-17(3)(b)"
        view = hit.pinpoint.view(hit.content)[0]
        assert view == search_view(tools["law"], query)["results"][0]["pinpoint"]["view"]
        page.errors.clear()  # the test before ends on a refused (400) search
        page.goto(srv.url)
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        page.fill("#q", query)
        page.click("#search-form button[type=submit]")
        card = page.locator(f".result[data-chunk='{hit.chunk_id}']")
        card.wait_for()
        assert card.locator(".badge.pinpoint").inner_text() == "pinpoint article-17(3)(b)"
        assert pinpoint_line(hit.pinpoint, hit.content) in card.locator(".pinpoint-line").inner_text()
        text = card.locator(".text").inner_text()
        assert text == view and "Paragraphs 1 and 2 shall not apply" in text  # the lead-in of paragraph 3
        assert "withdraws consent" not in text  # point (1)(b), left out
        assert card.locator(".pinitem").inner_text() == hit.pinpoint.text
        shot(page, "pinpoint")
        card.locator("button.pin-toggle").click()
        whole = card.locator(".text").inner_text()
        assert whole == hit.content and "withdraws consent" in whole
        assert card.locator(".pinitem").inner_text() == hit.content[hit.pinpoint.start:hit.pinpoint.end]
        card.locator("button.pin-toggle").click()
        assert card.locator(".text").inner_text() == view
        assert not page.errors, page.errors
    finally:
        srv.shutdown()
        srv.server_close()
        tools.close()


def test_the_documents_table_fits_its_panel_with_long_names(page, tmp_path, embedder):
    """Issue 27 item 8: a file name without spaces and a long title stay inside the Documents panel."""
    name = "master_services_agreement_between_northwind_traders_and_contoso_pharmaceuticals_final_v12.md"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / name).write_text("# Master_Services_Agreement_Between_Northwind_Traders_And_Contoso_Ltd\n\n"
                                          "## 1 Scope\n\nThe supplier delivers the services described here.\n")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: docs\n    type: hierarchical_document\n    source: docs/\n")
    tools = docstrata.open(tmp_path / "agent.yaml")
    tools["docs"]._embedder = embedder
    tools["docs"].ingest()
    srv, _ = serve_in_thread(tools)
    try:
        page.goto(srv.url)
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        page.click(".tab[data-view='documents']")
        page.wait_for_selector(f"#doc-list tr.doc[data-doc='{name}']")
        fit = page.evaluate("""() => { const p = document.getElementById('doc-list');
            const t = p.querySelector('table'); const pr = p.getBoundingClientRect(), tr = t.getBoundingClientRect();
            return {panel: [pr.left, pr.right], table: [tr.left, tr.right], scroll: p.scrollWidth, client: p.clientWidth}; }""")
        assert fit["table"][1] <= fit["panel"][1] and fit["scroll"] <= fit["client"], fit
    finally:
        srv.shutdown()
        srv.server_close()
        tools.close()
