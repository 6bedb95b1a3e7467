"""The playground's HTTP API over a real index of examples/ (plus one document with a broken
reference), served by the real server on 127.0.0.1 and read with a real HTTP client."""

from __future__ import annotations

import json
import math
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import docstrata
from docstrata.ui.server import serve_in_thread

from .conftest import EXAMPLES

README_QUERY = "How much credit do we get if availability falls below 99.9%?"
MSA = "master_services_agreement.md"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("ui") / "examples"
    shutil.copytree(EXAMPLES, dest, ignore=shutil.ignore_patterns(".docstrata", "holodeck"))
    (dest / "docs" / "scope.md").write_text("# Scope Note\n\n## 1. Scope\n\nThis note applies as set out in "
                                            "Section 2 and Section 9.9.\n\n## 2. Terms\n\nTerms apply.\n")
    return dest


@pytest.fixture(scope="module")
def toolset(project, embedder):
    tools = docstrata.open(project / "agent.yaml")
    tools["policies"]._embedder = embedder  # the session's model: loaded once for the whole suite
    tools["policies"].ingest()
    yield tools
    tools.close()


@pytest.fixture(scope="module")
def server(toolset):
    srv, _ = serve_in_thread(toolset)
    yield srv
    srv.shutdown()
    srv.server_close()


def call(server, path: str, body=None, headers=None, url=None):
    base = (url or server.url).split("#")[0].rstrip("/")
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(req, timeout=60) as r:
        ctype = r.headers["Content-Type"]
        raw = r.read()
    return json.loads(raw) if ctype.startswith("application/json") else (ctype, raw)


def status_of(server, path: str, body=None, headers=None) -> tuple[int, dict]:
    try:
        return 200, call(server, path, body, headers)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_page_and_its_assets_are_served_from_the_package(server):
    ctype, html = call(server, "/")
    assert ctype.startswith("text/html") and b'<script src="/static/app.js">' in html
    for name, kind in [("app.js", "text/javascript"), ("app.css", "text/css")]:
        ctype, body = call(server, f"/static/{name}")
        assert ctype.startswith(kind) and len(body) > 1000
    js, css = call(server, "/static/app.js")[1], call(server, "/static/app.css")[1]
    # nothing is fetched from anywhere but this server (the SVG namespace URI is a name, not a fetch)
    assert not re.search(rb"""(src|href)=["']?(https?:)?//""", html)
    assert not re.search(rb"""fetch\(\s*["'`]https?:""", js) and b"url(" not in css and b"@import" not in css
    assert status_of(server, "/static/../server.py")[0] == 404
    assert status_of(server, "/api/nothing")[0] == 404


def test_search_explains_each_rank(server):
    view = call(server, "/api/search", {"query": README_QUERY})
    results = view["results"]
    assert view["settings"]["mode"] == "hybrid" and len(results) == 10
    s = view["settings"]
    for r in results:
        # the fused score is the sum of the modalities' weighted RRF contributions
        total = sum(m["contribution"] for k, m in r["modalities"].items() if k != "rerank")
        assert math.isclose(total, r["fused_score"], rel_tol=1e-9)
        for k, m in r["modalities"].items():
            if m["rank"] is not None:
                assert math.isclose(m["contribution"], s[f"{k}_weight"] / (s["rrf_k"] + m["rank"]))
    assert [r["rank"] for r in results] == list(range(1, 11))
    by_section = {r["citation"]["section_id"]: r for r in results}
    credits = by_section["4.3"]
    assert credits["citation"]["parent_chain"] == ["Master Services Agreement", "4. Service Levels",
                                                   "4.3 Service Credits"]
    assert credits["citation"]["document"] == MSA
    marked = {credits["content"][a:b].lower(): kind for a, b, kind in credits["highlights"]}
    assert marked.get("credit") == "term" and "below" in marked
    assert {"Service Level", "Fees"} <= {d["term"] for d in credits["definitions"]}
    assert {"text": "Section 4.2", "target": "4.2", "document": MSA, "section_id": "4.2",
            "resolved": True} in credits["cross_references"]


def test_a_named_section_is_pinned_and_its_number_marked_exact(server):
    r = call(server, "/api/search", {"query": "Section 4.3"})["results"][0]
    assert r["pinned"] and r["citation"]["section_id"] == "4.3"
    assert r["modalities"]["exact"]["rank"] == 1
    assert any(r["content"][a:b] == "4.3" and kind == "exact" for a, b, kind in r["highlights"])
    assert r["pinpoint"] is None  # a whole section cited: no sub-item to pinpoint


def test_a_cited_sub_item_comes_with_its_pinpoint_over_http(tmp_path, embedder):
    from docstrata.models import pinpoint_line

    from .test_pinpoints import ARTICLE_17

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "reg.md").write_text(ARTICLE_17, encoding="utf-8")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: law\n    type: hierarchical_document\n"
                                         "    source: docs/\n    database: in-memory\n")
    with docstrata.open(tmp_path / "agent.yaml") as tools:
        tools["law"]._embedder = embedder
        tools["law"].ingest()
        srv, _ = serve_in_thread(tools)
        try:
            got = call(srv, "/api/search", {"query": "Art. 17(3)(b)"})["results"][0]
        finally:
            srv.shutdown()
            srv.server_close()
        hit = tools["law"].search("Art. 17(3)(b)", top_k=1)[0]
    pin = got["pinpoint"]
    assert got["citation"]["section_id"] == pin["section_id"] == "article-17(3)(b)"
    assert got["content"][pin["start"]:pin["end"]].strip() == pin["text"] == hit.pinpoint.text
    assert "legal obligation" in pin["text"] and pin["lead"] == [
        "3.   Paragraphs 1 and 2 shall not apply to the extent that processing is necessary:"]
    assert pin["line"] == pinpoint_line(hit.pinpoint, hit.content) and pin["view"] == hit.pinpoint.view(hit.content)[0]
    assert all(pin["view"][a:b] for a, b, _ in pin["view_highlights"])


def test_weights_and_modes_change_the_search(server):
    keyword = call(server, "/api/search", {"query": README_QUERY, "settings": {"mode": "keyword"}})["results"]
    only_kw = call(server, "/api/search", {"query": README_QUERY, "settings": {
        "semantic_weight": 0, "exact_weight": 0, "keyword_weight": 1}})["results"]
    assert [r["chunk_id"] for r in only_kw] == [r["chunk_id"] for r in keyword]
    assert all(r["modalities"]["semantic"]["rank"] is None for r in keyword)
    code, err = status_of(server, "/api/search", {"query": "x", "settings": {"mode": "fuzzy"}})
    assert code == 400 and err["error"] == "bad mode: 'fuzzy'"
    code, err = status_of(server, "/api/search", {"query": "x", "settings": {
        "semantic_weight": 0, "exact_weight": 0, "keyword_weight": 0}})
    assert code == 400 and "all 0" in err["error"]


def test_document_filter_and_section_prefix(server):
    leave = call(server, "/api/search", {"query": "leave", "settings": {"document": "leave_policy"}})["results"]
    assert leave and {r["citation"]["document"] for r in leave} == {"leave_policy.html"}
    four = call(server, "/api/search", {"query": "service", "settings": {"document": MSA, "section": "4"}})["results"]
    assert four and all(r["citation"]["section_id"].startswith("4.") for r in four)


def test_the_answer_says_how_confident_it_is(server):
    good = call(server, "/api/search", {"query": "Section 4.3"})
    assert good["confidence"]["level"] == "high" and good["notices"] == []
    empty = call(server, "/api/search", {"query": "the of and"})
    assert empty["results"] == [] and empty["confidence"]["level"] == "none"
    assert empty["confidence"]["content_words"] is False
    # a cosine threshold above every hit but the pinned one: the search says it left hits out
    strict = call(server, "/api/search", {"query": "Section 4.3", "settings": {"min_score": 0.99}})
    assert [r["citation"]["section_id"] for r in strict["results"]] == ["4.3"] and strict["results"][0]["pinned"]
    assert strict["notices"] and "below min_similarity_score 0.99 (set by this call) were left out" in strict["notices"][0]
    code, err = status_of(server, "/api/search", {"query": "x", "settings": {"min_score": 3}})
    assert code == 400 and err["error"] == "bad min_score: 3"


def test_record_field_filters_apply_in_the_store(tmp_path, embedder):
    (tmp_path / "hotels.csv").write_text("hotel_id,name,city,cap\nH1,Hotel Terreaux,Lyon,140\n"
                                         "H2,Part-Dieu Hotel,Lyon,120\nH3,Spree Hotel,Berlin,150\n"
                                         "H4,Retiro Hotel,Madrid,90\n")
    (tmp_path / "agent.yaml").write_text("tools:\n  - name: hotels\n    type: vectorstore\n    source: hotels.csv\n"
                                         "    description: hotels\n    id_field: hotel_id\n"
                                         "    vector_field: [name, city]\n    meta_fields: [city, cap]\n")
    tools = docstrata.open(tmp_path / "agent.yaml")
    tools["hotels"]._embedder = embedder
    tools["hotels"].ingest()
    srv, _ = serve_in_thread(tools)
    try:
        assert call(srv, "/api/tools")[0]["meta_fields"] == ["city", "cap"]
        view = call(srv, "/api/search", {"query": "hotel", "settings": {"filters": "cap<145; city=Lyon,Berlin"}})
        assert sorted(r["chunk_id"] for r in view["results"]) == ["H1", "H2"]
        assert view["settings"]["filters"] == {"cap": {"lt": 145}, "city": ["Lyon", "Berlin"]}
        assert all(r["metadata"]["city"] == "Lyon" for r in view["results"])
        # the same top hits as an unfiltered search restricted to that subset
        everything = call(srv, "/api/search", {"query": "hotel"})["results"]
        assert [r["chunk_id"] for r in view["results"]] == [r["chunk_id"] for r in everything
                                                           if r["chunk_id"] in ("H1", "H2")]
        code, err = status_of(srv, "/api/search", {"query": "hotel", "settings": {"filters": "cap<<3"}})
        assert code == 400 and "'cap<<3'" in err["error"]
        code, err = status_of(srv, "/api/search", {"query": "hotel", "settings": {"filters": "stars>3"}})
        assert code == 400 and "stars" in err["error"]
        files = call(srv, "/api/documents")
        assert [(f["doc_key"], f["total_chunks"]) for f in files] == [("hotels.csv", 4)]
    finally:
        srv.shutdown()
        srv.server_close()
        tools.close()


def test_documents_list(server, toolset):
    docs = {d["doc_key"]: d for d in call(server, "/api/documents")}
    assert set(docs) == {"data_protection_policy.txt", "leave_policy.html", MSA, "scope.md"}
    store = toolset["policies"].store
    entries = {e.doc_key: e.to_dict() for e in toolset["policies"].list_documents()}
    for key, d in docs.items():
        assert d["total_chunks"] == len(store.document_chunks(key))
        assert {k: v for k, v in d.items() if k != "definitions"} == entries[key]  # the API's own entry
    assert docs[MSA]["summary"].startswith("This Master Services Agreement")
    assert docs["leave_policy.html"]["file_type"] == "html" and docs[MSA]["definitions"] == 7
    assert docs[MSA]["language"] == "en" and docs[MSA]["section_count"] >= 10 and docs[MSA]["ingested_at"]


def test_document_view_tree_definitions_and_references(server, toolset):
    d = call(server, f"/api/document?document={MSA}")
    sections = {s["section_id"]: s for s in d["sections"]}
    assert [s["section_id"] for s in d["sections"] if s["parent_id"] == "4"] == ["4.1", "4.2", "4.3"]
    assert sections["4"]["level"] == 2 and sections["4.3"]["level"] == 3
    assert all(s["parent_id"] is None or s["parent_id"] in sections for s in d["sections"])
    chunks = toolset["policies"].store.document_chunks(MSA)
    assert sorted(c["chunk_id"] for s in d["sections"] for c in s["chunks"]) == sorted(c.chunk_id for c in chunks)
    assert sum(s["tokens"] for s in d["sections"]) == d["tokens"] == sum(c.token_count for c in chunks)
    assert {x["term"] for x in d["definitions"]} == {"Confidential Information", "Force Majeure Event",
                                                     "Service Level", "Fees",
                                                     "Agreement", "Provider", "Customer"}  # (the "Agreement")
    assert {"from_section": "4.3", "text": "Section 4.2", "section_id": "4.2", "resolved": True}.items() <= next(
        x for x in d["cross_references"] if x["from_section"] == "4.3").items()
    scope = call(server, "/api/document?document=scope")
    refs = {x["text"]: x for x in scope["cross_references"]}
    assert refs["Section 2"]["resolved"] and refs["Section 2"]["section_id"] == "2"
    assert refs["Section 9.9"]["resolved"] is False and refs["Section 9.9"]["section_id"] is None


def test_section_view_by_cited_name(server):
    s = call(server, f"/api/section?document={MSA}&section_id=Section%204")
    assert s["section_id"] == "4" and s["parent_chain"] == ["Master Services Agreement", "4. Service Levels"]
    assert "4.1" in s["content"] and "4.3 Service Credits" in s["content"]
    code, err = status_of(server, f"/api/section?document={MSA}&section_id=9.9")
    assert code == 400 and "no section '9.9'" in err["error"]
    whole = call(server, "/api/section?document=scope")  # no section: the whole document
    assert whole["section_id"] == "" and whole["content"].startswith("# Scope Note")
    assert "## 2. Terms" in whole["content"] and len(whole["chunk_ids"]) >= 2


def test_compare_marks_rank_changes(server):
    v = call(server, "/api/compare", {"query": README_QUERY, "a": {}, "b": {"mode": "semantic"}})
    ra = {r["chunk_id"]: r["rank"] for r in v["a"]["results"]}
    rb = {r["chunk_id"]: r["rank"] for r in v["b"]["results"]}
    assert v["changes"] == {cid: {"rank_a": ra.get(cid), "rank_b": rb.get(cid)} for cid in {*ra, *rb}}
    assert any(c["rank_a"] != c["rank_b"] for c in v["changes"].values())


def test_eval_of_two_settings_on_a_beir_query_set(server, toolset):
    store = toolset["policies"].store
    first = {c.section_id: c.chunk_id for c in store.document_chunks(MSA)}
    queries = "\n".join(json.dumps({"_id": q, "text": t}) for q, t in
                        [("q1", "Section 4.3"), ("q2", README_QUERY), ("q3", "force majeure")])
    qrels = f"query-id\tcorpus-id\tscore\nq1\t{first['4.3']}\t1\nq2\t{first['4.3']}\t1\nq3\t{first['1.2']}\t1\n"
    v = call(server, "/api/eval", {"queries": queries, "qrels": qrels, "a": {}, "b": {"mode": "exact"}, "k": 5})
    assert v["queries"] == 3 and v["query_set"] == "beir" and [s["label"] for s in v["settings"]] == ["A", "B"]
    a, b = (s["metrics"] for s in v["settings"])
    assert 0 < a["ndcg@10"] <= 1 and 0 <= b["ndcg@10"] <= 1 and set(a) == {"ndcg@10", "recall@5"}
    assert a["recall@5"] == 1.0  # hybrid finds all three within 5
    assert b["recall@5"] < 1.0  # exact alone cannot answer the question in q2
    code, err = status_of(server, "/api/eval", {"queries": "not json\n", "a": {}, "b": {}})
    assert code == 400 and "line 1" in err["error"]


def test_token_and_host_rules(toolset, monkeypatch):
    monkeypatch.setenv("DOCSTRATA_UI_TOKEN", "s3cret")
    srv, _ = serve_in_thread(toolset, token_env="DOCSTRATA_UI_TOKEN")
    try:
        assert srv.url.endswith("/#token=s3cret")
        assert status_of(srv, "/api/tools")[0] == 401
        assert status_of(srv, "/api/tools", headers={"Authorization": "Bearer wrong"})[0] == 401
        code, tools = status_of(srv, "/api/tools", headers={"Authorization": "Bearer s3cret"})
        assert code == 200 and tools[0]["name"] == "policies"
        assert call(srv, "/")[0].startswith("text/html")  # the page itself holds no data
        code, err = status_of(srv, "/api/tools", headers={"Authorization": "Bearer s3cret", "Host": "evil.example"})
        assert code == 403 and "loopback" in err["error"]
    finally:
        srv.shutdown()
        srv.server_close()
    monkeypatch.delenv("DOCSTRATA_UI_TOKEN")
    with pytest.raises(docstrata.ConfigError, match="DOCSTRATA_UI_TOKEN"):
        serve_in_thread(toolset, token_env="DOCSTRATA_UI_TOKEN")


@pytest.mark.slow  # ranx compiles its kernels on first use (a minute or more on a loaded machine)
def test_ranking_metrics_match_ranx():
    from ranx import Qrels, Run, evaluate

    from docstrata.ui.api import ranking_metrics

    cases = {"a": (["g1", "", "g2", "", ""], {"g1", "g2", "g3"}), "b": (["", "", "", "", "", "", "g1"], {"g1"}),
             "c": (["", ""], {"g1", "g2"}), "d": (["g2", "g1"], {"g1", "g2"})}
    run = {q: {(g or f"x{i}"): float(100 - i) for i, g in enumerate(judged)} or {"none": 0.0}
           for q, (judged, _) in cases.items()}
    want = evaluate(Qrels({q: {g: 1 for g in gold} for q, (_, gold) in cases.items()}), Run(run),
                    ["ndcg@10", "recall@5"], return_mean=False, make_comparable=True)
    for i, (q, (judged, gold)) in enumerate(cases.items()):
        got = ranking_metrics(judged, gold, 5)
        assert math.isclose(got["ndcg@10"], want["ndcg@10"][i], abs_tol=1e-9)
        assert math.isclose(got["recall@5"], want["recall@5"][i], abs_tol=1e-9)


@pytest.mark.slow  # builds a 100,000-chunk index (about 3 minutes on a loaded 2-core machine)
def test_the_page_adds_little_to_a_search_at_100k_chunks():
    """bench/ui_latency.py: the page's request (JSON over HTTP, explanations) against tool.search."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from ui_latency import measure

    r = measure(100_000, 50)
    added = r["http"][0] - r["api"][0]
    assert added < max(10.0, 0.25 * r["api"][0]), r
