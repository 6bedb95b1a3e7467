"""agent.yaml validation: defaults, limits, errors naming the YAML path, HoloDeck files."""

import json
import logging
import subprocess
import sys

import pytest
import yaml

from docstrata.config import HierarchicalDocumentToolConfig, load_config, parse_config
from docstrata.errors import ConfigError

from .conftest import EXAMPLES


def _doc_tool(**kw):
    return {"tools": [{"name": "docs", "type": "hierarchical_document", "source": "docs", **kw}]}


def test_defaults_follow_the_spec():
    t = parse_config(_doc_tool()).tools[0]
    assert isinstance(t, HierarchicalDocumentToolConfig)
    assert (t.max_chunk_tokens, t.chunk_overlap, t.top_k) == (800, 50, 10)
    # Fusion defaults chosen from evidence (docs/benchmarks.md), not the spec's 0.5/0.3/0.2 and k = 60.
    assert (t.semantic_weight, t.keyword_weight, t.exact_weight, t.rrf_k) == (0.375, 0.5, 0.125, 5)
    assert t.defer_loading and t.contextual_embeddings and t.database.provider == "embedded"


@pytest.mark.parametrize("field, value, path", [
    ("max_chunk_tokens", 99, "tools[0].max_chunk_tokens"),
    ("max_chunk_tokens", 2001, "tools[0].max_chunk_tokens"),
    ("top_k", 0, "tools[0].top_k"),
    ("top_k", 101, "tools[0].top_k"),
    ("search_mode", "fuzzy", "tools[0].search_mode"),
    ("top_kk", 5, "tools[0].top_kk"),  # a misspelling; another unknown field is skipped with a notice
])
def test_bad_values_name_the_yaml_path(field, value, path):
    with pytest.raises(ConfigError) as e:
        parse_config(_doc_tool(**{field: value}))
    assert e.value.path == path
    assert path in str(e.value)


def test_reranking_needs_a_model_and_a_model_alone_does_not_turn_it_on():
    with pytest.raises(ConfigError, match="required together"):
        parse_config(_doc_tool(enable_reranking=True))
    assert not parse_config(_doc_tool(reranker_model="some/model")).tools[0].enable_reranking  # as in HoloDeck


def test_weights_not_summing_to_one_warn():
    cfg = parse_config(_doc_tool(semantic_weight=0.5, keyword_weight=0.5, exact_weight=0.5))
    assert any("sum to 1.5" in n for n in cfg.notices)


def test_vectorstore_rules():
    base = {"name": "p", "type": "vectorstore", "source": "p.csv"}
    # HoloDeck's id_field is optional: without it the id field is detected at load time
    t = parse_config({"tools": [{**base, "vector_field": "title"}]}).tools[0]
    assert t.id_field is None and t.structured
    with pytest.raises(ConfigError, match="not both"):
        parse_config({"tools": [{**base, "id_field": "id", "vector_field": "a", "vector_fields": ["b"]}]})
    t = parse_config({"tools": [{**base, "id_field": "id", "vector_field": ["a", "b"]}]}).tools[0]
    assert t.resolved_vector_fields == ["a", "b"] and t.top_k == 5 and t.batch_size == 10_000


def test_holodeck_keys_and_other_tool_types_are_ignored_with_one_notice_each():
    cfg = parse_config({"name": "agent", "model": {"provider": "openai"}, "instructions": {"inline": "hi"},
                        "tools": [{"name": "web", "type": "mcp", "command": "x"}, _doc_tool()["tools"][0]]})
    assert [t.name for t in cfg.tools] == ["docs"]
    assert len(cfg.notices) == 4


def test_env_substitution_and_missing_variable(monkeypatch):
    monkeypatch.setenv("PG_DSN", "postgresql://u@127.0.0.1/db")
    t = parse_config(_doc_tool(database={"provider": "postgres", "dsn": "${PG_DSN}"})).tools[0]
    assert t.database.dsn == "postgresql://u@127.0.0.1/db"
    monkeypatch.delenv("PG_DSN")
    with pytest.raises(ConfigError, match="PG_DSN"):
        parse_config(_doc_tool(database={"provider": "postgres", "dsn": "${PG_DSN}"}))


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    p = tmp_path / "agent.yaml"
    p.write_text("tools:\n  - name: x\n    type: [unclosed\n")
    with pytest.raises(ConfigError, match=r"agent.yaml.*line \d"):
        load_config(p)


def test_schema_command_prints_json_schema():
    out = subprocess.run([sys.executable, "-m", "docstrata.cli", "schema"], capture_output=True, text=True, check=True)
    schema = json.loads(out.stdout)
    assert "tools" in schema["properties"]
    assert "HierarchicalDocumentToolConfig" in json.dumps(schema)


def test_holodeck_tool_fields_and_database_spelling_are_accepted():
    cfg = parse_config({"tools": [
        {"name": "kb", "type": "vectorstore", "source": "kb/", "record_prefix": "r_", "meta_prefix": "m_",
         "database": {"provider": "postgres", "connection_string": "postgresql://u@127.0.0.1/db"}},
        {"name": "law", "type": "hierarchical_document", "source": "law/", "document_domain": "us_legislative",
         "keyword_index": {"provider": "in-memory"}, "database": {"provider": "in-memory"}}]})
    assert cfg.tools[0].database.dsn == "postgresql://u@127.0.0.1/db"
    assert cfg.tools[1].database.provider == "in-memory"
    assert sum("ignored" in n for n in cfg.notices) == 4


def test_unsupported_database_provider_is_an_error_naming_the_choices():
    with pytest.raises(ConfigError, match="mongo.*embedded, in-memory, postgres, qdrant, chromadb, faiss") as e:
        parse_config(_doc_tool(database={"provider": "mongo", "path": "x"}))
    assert e.value.path == "tools[0].database"


@pytest.mark.parametrize("provider", ["azure-ai-search", "weaviate", "pinecone", "azure-cosmos-mongo",
                                      "azure-cosmos-nosql", "sql-server", "redis-json"])
def test_cloud_only_databases_are_a_clear_error_naming_what_to_use(provider):
    with pytest.raises(ConfigError, match=f"'{provider}'.*hosted service.*'postgres'.*'qdrant'.*'chromadb'"):
        parse_config(_doc_tool(database={"provider": provider, "connection_string": "https://x.example"}))


def test_holodeck_database_forms_for_chromadb_and_faiss():
    forms = [("chromadb", ("chromadb", None)), ({"provider": "chromadb", "connection_string": "./chroma"},
                                                 ("chromadb", "./chroma")),
             ({"provider": "faiss", "path": "idx", "index": "hnsw"}, ("faiss", "idx"))]
    for form, (provider, path) in forms:
        db = parse_config(_doc_tool(database=form)).tools[0].database
        assert (db.provider, db.path) == (provider, path)
    db = parse_config(_doc_tool(database={"provider": "chromadb", "host": "localhost", "port": 8000})).tools[0].database
    assert db.chroma_server == "http://localhost:8000"  # a Chroma server (HttpClient)
    db = parse_config(_doc_tool(database={"provider": "chromadb", "connection_string": "https://c.example:9000"})
                      ).tools[0].database
    assert (db.chroma_server, db.path) == ("https://c.example:9000", None)
    with pytest.raises(ConfigError, match="not both"):
        parse_config(_doc_tool(database={"provider": "chromadb", "url": "http://h:1", "path": "./c"}))
    cfg = parse_config(_doc_tool(keyword_index={"provider": "opensearch", "endpoint": "https://o", "index_name": "i",
                                                "password": "${OPENSEARCH_PASSWORD_UNSET}"}))
    assert any("keyword_index" in n for n in cfg.notices)  # HoloDeck's BM25 fallback: ours always runs
    from docstrata.config import summarize_notices

    assert "keyword_index: docstrata's own BM25 is used" in summarize_notices(cfg.notices)


def test_a_misspelled_field_gets_a_did_you_mean():
    with pytest.raises(ConfigError, match="unknown field 'semantic_wieght'; did you mean 'semantic_weight'") as e:
        parse_config(_doc_tool(semantic_wieght=0.5))
    assert e.value.path == "tools[0].semantic_wieght"
    with pytest.raises(ConfigError, match="did you mean 'provider'"):
        parse_config(_doc_tool(embedding_provider={"provder": "openai"}))
    # any other unknown tool field is skipped with a notice, as an unknown top-level key is (README,
    # "HoloDeck files"); the schema (docstrata check, schema --check) agrees: tests/test_input_failures.py
    cfg = parse_config(_doc_tool(zzz=1, retry_policy={"max": 3}))
    assert "tools[0].zzz: ignored (not a setting of a hierarchical_document tool)" in cfg.notices
    assert any(n.startswith("tools[0].retry_policy: ignored") for n in cfg.notices)


def test_holodeck_llm_provider_objects_are_accepted_for_context_and_reranker_models():
    cfg = parse_config(_doc_tool(
        context_model={"provider": "ollama", "name": "llama3.2", "endpoint": "http://127.0.0.1:11434",
                       "temperature": 0.0, "max_tokens": 200},
        enable_reranking=True,
        reranker_model={"provider": "azure_openai", "name": "gpt-4o", "endpoint": "https://r.openai.azure.com",
                        "api_version": "2024-10-21"}))
    t = cfg.tools[0]
    assert t.context_model.base_url == "http://127.0.0.1:11434" and t.reranker_model.provider == "azure_openai"
    off = parse_config(_doc_tool(reranker_model={"provider": "openai", "name": "gpt-4o-mini"})).tools[0]
    assert not off.enable_reranking  # HoloDeck allows a model with reranking off


def test_load_config_logs_one_summary_line_and_details_at_debug(tmp_path, caplog):
    p = tmp_path / "agent.yaml"
    p.write_text("name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: hi}\n"
                 "tools:\n  - {name: web, type: mcp, command: npx}\n"
                 "  - {name: docs, type: hierarchical_document, source: docs, document_domain: us_legislative}\n")
    with caplog.at_level(logging.DEBUG, logger="docstrata"):
        load_config(p)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert all(w in warnings[0] for w in ("name", "model", "instructions", "web (mcp)", "document_domain", "-v"))
    assert sum(r.levelno == logging.DEBUG for r in caplog.records) == 5


def test_schema_describes_every_field_and_accepts_what_the_loader_accepts():
    import jsonschema

    from docstrata.config import json_schema

    schema = json.loads(json_schema())
    for name, model in schema["$defs"].items():
        for key, prop in model.get("properties", {}).items():
            assert prop.get("description"), (name, key)
    files = [
        yaml.safe_load((EXAMPLES / "holodeck" / "agent.yaml").read_text()),
        {"name": "x", "embedding_provider": {"provider": "openai", "name": "text-embedding-3-small"},
         "tools": [{"name": "f", "type": "function", "file": "t.py", "function": "go"},
                   {"name": "kb", "type": "vectorstore", "source": "kb/", "record_prefix": "r",
                    "database": {"provider": "postgres", "connection_string": "postgresql://u@h/db"}},
                   {"name": "law", "type": "hierarchical_document", "source": "law/", "database": "chromadb",
                    "keyword_index": {"provider": "in-memory"}, "reranker_model": {"provider": "openai", "name": "m"}}]},
    ]
    for data in files:
        parse_config(data)
        jsonschema.validate(data, schema)
    bogus = {"tools": [{"name": "d", "type": "hierarchical_document", "source": "d", "bogus": 1}]}
    jsonschema.validate(bogus, schema)  # an unknown tool field: accepted by both, the loader with a notice
    assert "tools[0].bogus: ignored (not a setting of a hierarchical_document tool)" in parse_config(bogus).notices
    with pytest.raises(jsonschema.ValidationError):  # one edit from "source": a misspelling, refused by both
        jsonschema.validate({"tools": [{"name": "d", "type": "hierarchical_document", "source": "d", "sourc": 1}]},
                            schema)


@pytest.mark.parametrize("tool, field", [
    ({"name": "docs", "type": "hierarchical_document", "source": "docs"}, "min_fused_score"),
    ({"name": "p", "type": "vectorstore", "source": "p.csv", "id_field": "id", "vector_field": "t"},
     "min_fused_score"),
])
def test_a_score_threshold_no_fused_score_can_reach_is_an_error(tool, field):
    with pytest.raises(ConfigError, match=f"{field} 0.5 can never be met.*at most 0.1667"):  # 1 / (5 + 1)
        parse_config({"tools": [{**tool, field: 0.5}]})
    with pytest.raises(ConfigError, match="at most 0.0909"):  # 1 / (10 + 1)
        parse_config({"tools": [{**tool, field: 0.1, "rrf_k": 10}]})
    parse_config({"tools": [{**tool, field: 0.02}]})  # on the RRF scale: accepted


def test_the_threshold_check_uses_the_weights_of_the_default_mode():
    light = {"semantic_weight": 0.2, "keyword_weight": 0.2, "exact_weight": 0.1, "rrf_k": 10}
    with pytest.raises(ConfigError, match="at most 0.0455"):
        parse_config(_doc_tool(min_fused_score=0.06, **light))
    parse_config(_doc_tool(min_fused_score=0.06, search_mode="keyword", **light))  # one modality, weight 1: up to 0.091


@pytest.mark.parametrize("tool, field", [
    ({"name": "docs", "type": "hierarchical_document", "source": "docs"}, "min_score"),
    ({"name": "p", "type": "vectorstore", "source": "p.csv", "id_field": "id", "vector_field": "t"},
     "min_similarity_score"),
])
def test_holodeck_similarity_thresholds_are_cosines_from_0_to_1(tool, field):
    cfg = parse_config({"tools": [{**tool, field: 0.7}]})  # HoloDeck's sample value: a similarity, not RRF
    assert getattr(cfg.tools[0], field) == 0.7
    with pytest.raises(ConfigError, match=field):
        parse_config({"tools": [{**tool, field: 1.5}]})


def test_a_hosted_embedding_model_uses_the_agents_model_provider_as_holodeck_does(monkeypatch):
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "k")
    tools = [{"name": "a", "type": "vectorstore", "source": "a.csv", "id_field": "id", "vector_field": "t",
              "embedding_model": "text-embedding-ada-002"},
             {"name": "b", "type": "hierarchical_document", "source": "d"},  # no model named: the bundled one
             {"name": "c", "type": "hierarchical_document", "source": "d",
              "embedding_model": "sentence-transformers/all-mpnet-base-v2"}]  # a Hugging Face id: local
    cfg = parse_config({"model": {"provider": "azure_openai", "name": "gpt-4o", "endpoint": "https://r.openai.azure.com",
                                  "api_key": "${AZURE_OPENAI_API_KEY}", "temperature": 0.1}, "tools": tools})
    a, b, c = cfg.tools
    assert (a.embedding_provider.provider, a.embedding_provider.base_url) == ("azure_openai", "https://r.openai.azure.com")
    assert a.embedding_model == "text-embedding-ada-002" and a.embedding_provider.name is None
    assert b.embedding_provider is None and b.embedding_model == "all-MiniLM-L6-v2"
    assert c.embedding_provider is None
    anthropic = parse_config({"model": {"provider": "anthropic", "name": "claude"}, "tools": tools[:1]}).tools[0]
    assert anthropic.embedding_provider is None  # OpenAI's name alone: OpenAI (embed.make_embedder)


# ---- issue 16 follow-ups: top-level typos, threshold spellings, every error at once
def test_a_misspelled_top_level_key_gets_a_did_you_mean_not_a_notice():
    data = {"embeding_provider": {"provider": "openai"}, "tools": []}
    with pytest.raises(ConfigError) as err:
        parse_config(data)
    assert err.value.path == "embeding_provider"
    assert "did you mean 'embedding_provider'?" in str(err.value)
    cfg = parse_config({"observability": {"enabled": True}, "my_own_key": 1, "tools": []})  # far from any: a notice
    assert any("my_own_key" in n for n in cfg.notices)
    with pytest.raises(ConfigError, match="did you mean 'instructions'"):
        parse_config({"instructons": "x", "tools": []})


def test_threshold_spellings_follow_holodeck():
    tool = {"name": "a", "source": "d"}
    with pytest.raises(ConfigError) as err:
        parse_config({"tools": [{**tool, "type": "vectorstore", "min_score": 0.5}]})
    assert "did you mean 'min_similarity_score'" in str(err.value) and err.value.path == "tools[0].min_score"
    doc = parse_config({"tools": [{**tool, "type": "hierarchical_document", "min_similarity_score": 0.7}]}).tools[0]
    assert doc.min_score == 0.7  # the same cosine threshold under the vectorstore spelling
    with pytest.raises(ConfigError, match="same setting as min_score"):
        parse_config({"tools": [{**tool, "type": "hierarchical_document", "min_similarity_score": 0.7,
                                 "min_score": 0.5}]})


def test_every_config_error_is_reported_at_once_with_its_yaml_path():
    data = {"tools": [
        {"name": "a", "type": "vectorstore", "sorce": "d", "tok_k": 3},
        {"name": "b", "type": "hierarchical_documnet", "source": "d"},
        {"name": "c", "type": "hierarchical_document", "source": "d", "max_chunk_tokens": 5},
    ]}
    with pytest.raises(ConfigError) as err:
        parse_config(data, file="agent.yaml")
    text = str(err.value)
    paths = [p for p, _ in err.value.problems]
    assert paths == ["tools[0].sorce", "tools[0].tok_k", "tools[1].type", "tools[2].max_chunk_tokens"]
    for p in paths:
        assert p in text
    assert "did you mean 'source'" in text and "did you mean 'top_k'" in text and "4 errors" in text
    assert "tools[0].source" not in paths  # the typo explains the missing field
    many = {"tools": [{"name": f"t{i}", "type": "vectorstore", "source": "d", "top_k": 0} for i in range(14)]}
    with pytest.raises(ConfigError) as err:
        parse_config(many)
    assert len(err.value.problems) == 14 and "… and 4 more" in str(err.value)
    assert len(str(err.value).splitlines()) <= 12


def test_a_bare_chromadb_database_says_it_is_embedded_under_docstrata():
    from docstrata.config import summarize_notices

    cfg = parse_config({"tools": [{"name": "kb", "type": "vectorstore", "source": "d", "database": "chromadb"},
                                  {"name": "srv", "type": "vectorstore", "source": "d",
                                   "database": {"provider": "chromadb", "connection_string": "http://127.0.0.1:8000"}}]})
    line = summarize_notices(cfg.notices)
    assert "Chroma embedded under .docstrata/kb/chroma" in line and "srv" not in line


def test_the_ignored_settings_notice_warns_once_per_agent_not_on_every_command(tmp_path, caplog):
    p = tmp_path / "agent.yaml"
    p.write_text("name: a\ntools:\n  - {name: docs, type: hierarchical_document, source: docs}\n")
    (tmp_path / ".docstrata").mkdir()  # made by the first ingest

    def warnings_of_one_load() -> list[str]:
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="docstrata"):
            load_config(p)
        return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]

    first = warnings_of_one_load()
    assert len(first) == 1 and "name" in first[0]
    assert warnings_of_one_load() == []  # the next command: remembered, at debug only
    assert any("HoloDeck-only" in r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG)
    p.write_text("name: a\nmodel: {provider: openai, name: gpt-4o}\n"
                 "tools:\n  - {name: docs, type: hierarchical_document, source: docs}\n")
    again = warnings_of_one_load()  # a new cause warns again
    assert len(again) == 1 and "model" in again[0]


def test_every_error_of_a_holodeck_file_comes_in_one_round_each_with_what_to_do(tmp_path):
    """Issue 27 item 8: an Azure provider without endpoint and a context model without name are
    both reported by one check, each saying what to add."""
    from docstrata.config import check_file

    (tmp_path / "agent.yaml").write_text(
        "name: x\nmodel:\n  provider: anthropic\n  name: claude\ntools:\n  - name: docs\n"
        "    type: hierarchical_document\n    source: docs/\n    embedding_provider:\n      provider: azure_openai\n"
        "      name: emb\n    context_model:\n      provider: openai\n    contextual_embeddings: true\n",
        encoding="utf-8")
    cfg, problems = check_file(tmp_path / "agent.yaml")
    assert cfg is None
    assert [(line, where) for line, where, _ in problems] == [(9, "tools[0].embedding_provider"),
                                                              (12, "tools[0].context_model.name")]
    assert "add endpoint: https://<resource>.openai.azure.com" in problems[0][2]
    assert problems[1][2] == "missing: add 'name: …' under tools[0].context_model (Model name)"
