"""The vectorstore tool end to end: records upserted by id, exact ids first, incremental updates."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from docstrata.config import parse_config
from docstrata.search import QueryError
from docstrata.tools import build_tool

from .conftest import shared_data


def _tool(tmp_path: Path, **fields):
    cfg = parse_config({"tools": [{"name": "records", "type": "vectorstore", **fields}]}, base_dir=tmp_path)
    return build_tool(cfg.tools[0], tmp_path)


def _write_csv(path: Path, rows: list[tuple[str, str, str]]) -> None:
    path.write_text("sku,title,category\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows), encoding="utf-8")


def test_records_are_upserted_by_id_and_rows_gone_from_the_file_are_deleted(tmp_path):
    src = tmp_path / "products.csv"
    _write_csv(src, [("A-1", "Red running shoes", "shoes"), ("B-2", "Blue rain jacket", "coats"),
                     ("C-3", "Green wool scarf", "accessories")])
    tool = _tool(tmp_path, source="products.csv", id_field="sku", vector_field="title")
    first = tool.ingest()
    assert (first.records, first.chunks_total, first.embedded) == (3, 3, 3)
    assert tool.search("waterproof coat for rain", top_k=1)[0].id == "B-2"
    _write_csv(src, [("A-1", "Red running shoes", "shoes"), ("B-2", "Yellow sailing jacket", "coats")])
    second = tool.ingest()
    assert (second.updated, second.chunks_total) == (1, 2)
    assert second.embedded == 1  # the unchanged row came from the embedding cache
    assert tool.get_record("B-2").content == "Yellow sailing jacket"
    with pytest.raises(QueryError):
        tool.get_record("C-3")
    for mode in ("semantic", "keyword", "exact", "hybrid"):
        assert all(r.id != "C-3" for r in tool.search("Green wool scarf", mode=mode, top_k=5))
    assert tool.ingest().unchanged == 1


def test_metadata_is_kept_and_returned_when_meta_fields_is_omitted(tmp_path):
    _write_csv(tmp_path / "p.csv", [("A-1", "Red running shoes", "shoes")])
    tool = _tool(tmp_path, source="p.csv", id_field="sku", vector_field="title")
    tool.ingest()
    hit = tool.search("shoes", top_k=1)[0]
    assert hit.metadata == {"category": "shoes"}
    assert hit.source_file == "p.csv" and hit.score > 0


@pytest.fixture()
def catalogue(tmp_path):
    src = shared_data("structured", "product_catalog", "dummyjson_products.json")
    shutil.copy(src, tmp_path / "products.json")
    tool = _tool(tmp_path, source="products.json", id_field="sku", vector_field=["title", "description"],
                 meta_fields=["category", "brand", "price", "meta.barcode", "tags"])
    report = tool.ingest()
    return tool, report, json.loads(src.read_text())


def test_product_catalogue_loads_every_record_and_a_sku_comes_first(catalogue):
    tool, report, products = catalogue
    assert report.records == len(products) == 194 and not report.skipped
    for p in products[:40:7]:
        assert tool.search(p["sku"], top_k=3)[0].id == p["sku"]
        hit = tool.search(p["meta"]["barcode"], top_k=3)[0]
        assert hit.id == p["sku"] and hit.exact_match
    hit = tool.get_record("BEA-ESS-ESS-001")
    assert hit.metadata["category"] == "beauty" and json.loads(hit.metadata["tags"]) == ["beauty", "mascara"]


def test_covid_faq_with_quoted_newlines(tmp_path):
    src = shared_data("structured", "faq_covid", "faq_covidbert.csv")
    shutil.copy(src, tmp_path / "faq.csv")
    tool = _tool(tmp_path, source="faq.csv", id_field="__line__", vector_field=["question", "answer"],
                 meta_fields=["category", "link"])
    report = tool.ingest()
    assert report.records == 213
    top = tool.search("Can pets spread the virus to people?", top_k=5)
    assert any("animal" in r.content.lower() or "pet" in r.content.lower() for r in top[:2])


def test_vectorstore_without_vector_field_works_on_documents(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## Returns\n\nItems can be returned within 30 days.\n\n"
                                                "## Shipping\n\nOrders ship within two business days.\n")
    tool = _tool(tmp_path, source="docs")
    assert tool.ingest().chunks >= 1
    hit = tool.search("how long do I have to send an item back?", top_k=1)[0]
    assert "30 days" in hit.content and hit.source_file == "guide.md"
    best = max(r.semantic_score for r in tool.search("how long do I have to send an item back?"))
    strict = _tool(tmp_path, source="docs", min_similarity_score=best + 1e-6)  # a cosine, as in HoloDeck
    assert strict.search("how long do I have to send an item back?") == []  # the threshold applies here too


def test_metadata_values_reach_bm25_but_not_the_embedding(tmp_path):
    _write_csv(tmp_path / "p.csv", [("A-1", "Red running shoes", "footwear"), ("B-2", "Blue rain jacket", "outerwear")])
    tool = _tool(tmp_path, source="p.csv", id_field="sku", vector_field="title")
    tool.ingest()
    assert tool.search("outerwear", mode="keyword", top_k=1)[0].id == "B-2"
    assert tool.get_record("b-2").id == "B-2"  # ids match case-insensitively


def test_a_code_identifier_named_in_a_question_finds_the_chunk_that_holds_it(tmp_path):
    chunks = [
        {"id": "c1", "text": "public Target getTarget() {\n    return this.target;\n}"},
        {"id": "c2", "text": "// Targets are resolved lazily; see the resolver for how a target is chosen.\n"
                             "Target resolve(String name) { return registry.lookup(name); }"},
        {"id": "c3", "text": "@Test\npublic void issue92() throws Exception {\n    assertTrue(Password.check(p, h));\n}"},
        {"id": "c4", "text": "Issue tracker: every issue is triaged within a week; tests cover each reported issue."},
    ]
    (tmp_path / "code.jsonl").write_text("".join(json.dumps(c) + "\n" for c in chunks), encoding="utf-8")
    tool = _tool(tmp_path, source="code.jsonl", id_field="id", vector_field="text")
    tool.ingest()
    assert [r.id for r in tool.search("What is the purpose of the getTarget method?", mode="exact")] == ["c1"]
    assert [r.id for r in tool.search("What does the test method `issue92()` do?", mode="exact")] == ["c3"]
    assert tool.search("What does the test method `issue92()` do?", top_k=1)[0].id == "c3"
    assert tool.search("How is a target resolved?", mode="exact") == []  # no identifier, no exact match


def test_a_qualified_name_finds_code_not_the_english_words_it_is_made_of(tmp_path):
    chunks = [{"id": "english", "text": "The foo bar placeholder names appear in many tutorials."},
              {"id": "cpp", "text": "int Foo::bar(int x) { return x * 2; }"},
              {"id": "py", "text": "result = self.get_target()\nif result is None:\n    raise LookupError"}]
    (tmp_path / "code.jsonl").write_text("".join(json.dumps(c) + "\n" for c in chunks), encoding="utf-8")
    tool = _tool(tmp_path, source="code.jsonl", id_field="id", vector_field="text")
    tool.ingest()
    assert [r.id for r in tool.search("What does Foo::bar return?", mode="exact")] == ["cpp"]
    assert tool.search("What does Foo::bar return?", top_k=1)[0].id == "cpp"
    assert [r.id for r in tool.search("Where is get_target called?", mode="exact")] == ["py"]
