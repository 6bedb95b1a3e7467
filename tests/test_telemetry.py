"""OpenTelemetry spans of ingest and search, captured with the SDK's in-memory exporter; the
CLI's ``--trace console``; no cost and no error without OpenTelemetry (issue 8, item 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the OpenTelemetry SDK (docstrata[otel]) is not installed")

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

import docstrata  # noqa: E402
from docstrata import telemetry  # noqa: E402

from .fake_llm_server import FakeLLMServer  # noqa: E402
from .test_context import LEAVE_POLICY  # noqa: E402


@pytest.fixture()
def spans():
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    telemetry.use_tracer_provider(provider)
    yield exporter
    telemetry.use_tracer_provider(None)
    provider.shutdown()


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.md").write_text(LEAVE_POLICY, encoding="utf-8")
    (tmp_path / "docs" / "scope.md").write_text("# Scope\n\nThis handbook covers Example Corp staff.\n",
                                                encoding="utf-8")
    return tmp_path


def write_config(project: Path, extra: str = "") -> Path:
    path = project / "agent.yaml"
    path.write_text(f"tools:\n  - name: policies\n    type: hierarchical_document\n    source: docs/\n{extra}",
                    encoding="utf-8")
    return path


def children(finished, parent) -> list:
    return [s for s in finished if s.parent is not None and s.parent.span_id == parent.context.span_id]


def test_span_tree_and_attributes_of_one_ingest_and_one_search(spans, project):
    with FakeLLMServer() as server:
        config = write_config(project, "    context_model: {provider: openai, name: gpt-4o-mini, "
                                       f"base_url: '{server.url}/v1'}}\n")
        with docstrata.open(config) as tools:
            tool = tools["policies"]
            report = tool.ingest()
            ingest_spans = spans.get_finished_spans()
            spans.clear()
            results = tool.search("carry over unused leave days", top_k=3)
            search_spans = spans.get_finished_spans()

    (root,) = [s for s in ingest_spans if s.name == "hierarchical_document.ingest"]
    assert root.parent is None
    assert root.attributes["tool.name"] == "policies"
    assert root.attributes["ingest.chunk_count"] == report.chunks
    assert root.attributes["ingest.context_model"] == "openai:gpt-4o-mini"
    kids = children(ingest_spans, root)
    names = [s.name for s in kids]
    for stage in ("parse", "contextualize_batch", "embed_batch", "store"):
        assert stage in names, names
    assert names.count("parse") == names.count("contextualize_batch") == 2  # one per document
    batches = [s for s in kids if s.name == "contextualize_batch"]
    assert sum(s.attributes["ingest.chunk_count"] for s in batches) == report.chunks
    assert sum(s.attributes["context.llm_calls"] for s in batches) == report.llm["llm_calls"]
    llm_spans = [s for b in batches for s in children(ingest_spans, b)]
    assert len(llm_spans) == report.llm["llm_calls"] and {s.name for s in llm_spans} == {"llm.situate"}
    assert all(s.attributes["gen_ai.request.model"] == "gpt-4o-mini" for s in llm_spans)

    (sroot,) = [s for s in search_spans if s.name == "hierarchical_document.search"]
    assert sroot.attributes["search.mode"] == "hybrid" and sroot.attributes["search.top_k"] == 3
    assert sroot.attributes["search.result_count"] == len(results)
    # the query quotes nothing and names no section, term or identifier: the exact leg finds nothing
    assert sroot.attributes["search.exact_match_count"] == 0 and not any(r.exact_match for r in results)
    assert sroot.attributes["search.query_length"] == len("carry over unused leave days")
    assert "search.query" not in sroot.attributes  # raw query text only with DOCSTRATA_TRACE_QUERY=1
    by_name = {s.name: s for s in children(search_spans, sroot)}
    assert set(by_name) == {"exact_match", "keyword", "semantic", "rrf_fusion"}
    assert by_name["keyword"].attributes["bm25.index_size"] == report.chunks
    assert by_name["exact_match"].attributes["search.exact_match_count"] == 0


def test_query_text_is_recorded_only_when_the_user_opts_in(spans, project, monkeypatch):
    with docstrata.open(write_config(project)) as tools:
        tool = tools["policies"]
        tool.ingest()
        monkeypatch.setenv("DOCSTRATA_TRACE_QUERY", "1")
        spans.clear()
        tool.search("Section 2.1", top_k=2)
    (root,) = [s for s in spans.get_finished_spans() if s.name == "hierarchical_document.search"]
    assert root.attributes["search.query"] == "Section 2.1"
    assert root.attributes["search.exact_match_count"] >= 1


def test_without_opentelemetry_spans_cost_nothing_and_raise_nothing():
    """Without OpenTelemetry a span is ``None`` and the failed import is tried once, not per span
    (the cost per span, once asserted here, is ``bench/speed_claims.py``'s)."""
    code = """
import builtins, sys
sys.modules["opentelemetry"] = None  # as if the package were not installed
from docstrata import telemetry
with telemetry.span("x", a=1) as s:
    telemetry.set_attributes(b=2)
assert s is None
tries, real_import = [], builtins.__import__
def counting_import(name, *args, **kwargs):
    if name.startswith("opentelemetry"):
        tries.append(name)
    return real_import(name, *args, **kwargs)
builtins.__import__ = counting_import
for _ in range(1_000):
    with telemetry.span("hierarchical_document.search", **{"search.mode": "hybrid"}) as s:
        telemetry.set_attributes(b=2)
    assert s is None
print(len(tries))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0", out.stdout


def test_cli_trace_console_prints_the_spans_to_stderr(project):
    from typer.testing import CliRunner

    from docstrata.cli import app

    config = write_config(project)
    runner = CliRunner()
    try:
        ingest = runner.invoke(app, ["ingest", "-c", str(config), "--trace", "console"])
        assert ingest.exit_code == 0, ingest.output
        assert '"name": "hierarchical_document.ingest"' in ingest.stderr
        for stage in ("parse", "contextualize_batch", "embed_batch", "store"):
            assert f'"name": "{stage}"' in ingest.stderr
        search = runner.invoke(app, ["search", "-c", str(config), "--trace", "console", "--json",
                                     "annual leave entitlement"])
        assert search.exit_code == 0, search.output
    finally:
        telemetry.use_tracer_provider(None)
    results = json.loads(search.stdout)["results"]  # spans go to stderr: --json output stays clean
    assert results and results[0]["source_path"] == "leave.md"
    assert '"name": "hierarchical_document.search"' in search.stderr and '"search.mode": "hybrid"' in search.stderr


def test_cli_rejects_an_unknown_trace_exporter(project):
    from typer.testing import CliRunner

    from docstrata.cli import app

    result = CliRunner().invoke(app, ["ingest", "-c", str(write_config(project)), "--trace", "jaeger"])
    assert result.exit_code == 2 and "unknown trace exporter 'jaeger'" in result.stderr
