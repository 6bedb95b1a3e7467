"""The ``docstrata`` command line (typer + rich). Heavy modules are imported inside commands
so ``docstrata --help`` stays fast."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Structure-aware hybrid search over documents and records, for agents and people.")

ConfigOpt = typer.Option("agent.yaml", "-c", "--config", help="Path to agent.yaml")


@app.callback()
def _options(verbose: bool = typer.Option(False, "--verbose", "-v",
                                          help="Log details: each ignored config setting, provider calls")) -> None:
    """Options for every command."""
    if verbose:
        import logging
        import sys

        logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
        logging.getLogger("docstrata").setLevel(logging.DEBUG)


def _setup() -> None:
    from .runtime import quiet_offline_environment

    quiet_offline_environment()


def _console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def _load(config: str):
    from .config import load_config
    from .errors import ConfigError
    from .tools import Toolset

    try:
        toolset = Toolset(load_config(config))
    except ConfigError as e:
        _console(stderr=True).print(f"[red]Configuration error[/red] {e}")
        raise typer.Exit(2) from None
    if not len(toolset):
        _fail(f"{config} configures no hierarchical_document or vectorstore tool")
    return toolset


def _start_trace(exporter: Optional[str]) -> None:
    if exporter:
        from .errors import ConfigError
        from .telemetry import configure

        try:
            configure(exporter)
        except ConfigError as e:
            _fail(str(e))


def _fail(message: str, code: int = 2) -> None:
    _console(stderr=True).print(f"[red]Error[/red] {message}")
    raise typer.Exit(code)


@app.command()
def ingest(config: str = ConfigOpt,
           tool: list[str] = typer.Option(None, "--tool", "-t", help="Only these tools (repeatable)"),
           force: bool = typer.Option(False, "--force", help="Rebuild from scratch"),
           json_out: bool = typer.Option(False, "--json", help="Print the reports as JSON"),
           trace: Optional[str] = typer.Option(None, "--trace", help="Print OpenTelemetry spans to stderr: console")) -> None:
    """Index every configured tool's source (only what changed). Exit 1 if any file was skipped."""
    _setup()
    _start_trace(trace)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .errors import DocstrataError

    toolset = _load(config)
    names = tool or [t.name for t in toolset]
    reports = []
    err = _console(stderr=True)
    with toolset:
        for name in names:
            try:
                t = toolset[name]
            except KeyError as e:
                _fail(str(e.args[0]))
            with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=err, transient=True) as bar:
                task = bar.add_task(f"{name}: scanning", total=None)

                def progress(done: int, total: int, what: str, _task=task, _name=name) -> None:
                    bar.update(_task, completed=done, total=total, description=f"{_name}: {what}")

                try:
                    reports.append(t.ingest(force=force, progress=progress))
                except DocstrataError as e:
                    _fail(f"{name}: {e}")
    if json_out:
        print(json.dumps([r.to_dict() for r in reports], indent=2))
    else:
        _print_reports(reports)
    if any(r.failed for r in reports):
        raise typer.Exit(1)


def _print_reports(reports) -> None:
    out = _console()
    for r in reports:
        out.print(f"[bold]{r.tool}[/bold]: {r.files_total} files "
                  f"({r.added} added, {r.updated} updated, {r.removed} removed, {r.unchanged} unchanged), "
                  f"{r.chunks_total} {'records' if r.records else 'chunks'} in the index "
                  f"({r.chunks} written, {r.embedded} embedded), {r.definitions} definitions, {r.elapsed_s:.1f} s")
        if r.llm.get("llm_calls") or r.llm.get("cache_hits"):
            out.print("  LLM: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in r.llm.items()))
        for w in r.warnings[:20]:
            out.print(f"  [yellow]warning[/yellow] {w}")
        if len(r.warnings) > 20:
            out.print(f"  … {len(r.warnings) - 20} more warnings (use --json to see all)")
        for s in r.skipped:
            out.print(f"  [red]skipped[/red] {s.path}: {s.reason}")


@app.command()
def search(query: Optional[str] = typer.Argument(None, help="The query"),
           config: str = ConfigOpt,
           tool: Optional[str] = typer.Option(None, "--tool", "-t", help="Tool name (default: the only tool)"),
           top_k: Optional[int] = typer.Option(None, "--top-k", "-k", min=1, max=100),
           mode: Optional[str] = typer.Option(None, "--mode", "-m", help="hybrid | semantic | keyword | exact"),
           min_score: Optional[float] = typer.Option(None, "--min-score"),
           json_out: bool = typer.Option(False, "--json", help="Every SearchResult field as JSON"),
           batch: Optional[Path] = typer.Option(None, "--batch", help='JSONL of {"query_id", "query"}; '
                                                                       'prints {"query_id", "results"} per line'),
           trace: Optional[str] = typer.Option(None, "--trace", help="Print OpenTelemetry spans to stderr: console")) -> None:
    """Search one tool and print cited results."""
    _setup()
    _start_trace(trace)
    from .errors import DocstrataError
    from .search import QueryError

    toolset = _load(config)
    with toolset:
        if tool is None:
            if len(toolset) != 1:
                _fail(f"several tools are configured; choose one with --tool ({', '.join(t.name for t in toolset)})")
            t = next(iter(toolset))
        else:
            try:
                t = toolset[tool]
            except KeyError as e:
                _fail(str(e.args[0]))
        try:
            if batch is not None:
                _search_batch(t, batch, top_k, mode, min_score)
                return
            if not query:
                _fail("give a QUERY or --batch FILE")
            results = t.search(query, top_k=top_k, mode=mode, min_score=min_score)
        except (QueryError, DocstrataError) as e:
            _fail(str(e))
    if json_out:
        print(json.dumps([r.to_dict() for r in results], indent=2, ensure_ascii=False))
        return
    out = _console()
    if not results:
        out.print("No results.")
    for i, r in enumerate(results, 1):
        out.rule(f"[bold]{i}[/bold]")
        out.print(r.format(), markup=False)


def _search_batch(t, batch: Path, top_k, mode, min_score) -> None:
    from .search import QueryError

    for n, line in enumerate(batch.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            qid, q = item["query_id"], item["query"]
        except (json.JSONDecodeError, KeyError, TypeError):
            _fail(f'{batch}, line {n}: expected {{"query_id": ..., "query": ...}}')
        try:
            results = [r.to_dict() for r in t.search(q, top_k=top_k, mode=mode, min_score=min_score)]
            print(json.dumps({"query_id": qid, "results": results}, ensure_ascii=False))
        except QueryError as e:
            print(json.dumps({"query_id": qid, "error": str(e), "results": []}))


@app.command()
def inspect(file: Path = typer.Argument(..., exists=True, dir_okay=False, help="A document"),
            json_out: bool = typer.Option(False, "--json")) -> None:
    """Show a document's section tree, definitions and cross-references."""
    _setup()
    from .convert import convert_file
    from .errors import ConversionError
    from .models import FileState, SourceFile
    from .sources import file_sha256
    from .structure import build_tree

    st = file.stat()
    sf = SourceFile(file.name, str(file.resolve()), FileState(st.st_size, st.st_mtime_ns, file_sha256(file)))
    try:
        doc = convert_file(sf)
    except ConversionError as e:
        _fail(str(e), 1)
    tree = build_tree(doc)
    from .embed import Embedder

    count = Embedder().count_tokens
    sections = [{"section_id": s.section_id, "title": s.title, "level": s.level, "number": s.number,
                 "parent_id": s.parent_id, "tokens": count(s.text) if s.text else 0, "aliases": s.aliases}
                for s in tree.sections]
    if json_out:
        print(json.dumps({"document": doc.doc_key, "title": tree.title, "sections": sections,
                          "definitions": [{"term": d.term, "definition": d.definition, "section_id": d.section_id}
                                          for d in tree.definitions],
                          "cross_references": [x.__dict__ for x in tree.cross_references],
                          "warnings": tree.warnings + doc.warnings}, indent=2, ensure_ascii=False))
        return
    from rich.tree import Tree

    out = _console()
    root = Tree(f"[bold]{tree.title}[/bold] ({doc.doc_key}, {len(sections)} sections)")
    nodes = {None: root}
    for s in sections:
        parent = nodes.get(s["parent_id"], root)
        nodes[s["section_id"]] = parent.add(f"[cyan]{s['section_id']}[/cyan] {s['title']} "
                                            f"[dim](level {s['level']}, {s['tokens']} tokens)[/dim]")
    out.print(root)
    out.print(f"\n[bold]Definitions[/bold] ({len(tree.definitions)})")
    for d in tree.definitions:
        out.print(f"  [green]{d.term}[/green] [dim]§{d.section_id}[/dim]: {d.definition[:120]}", markup=True)
    resolved = sum(1 for x in tree.cross_references if x.section_id)
    out.print(f"\n[bold]Cross-references[/bold] ({len(tree.cross_references)}, {resolved} resolved)")
    for x in tree.cross_references[:200]:
        out.print(f"  {x.source_section_id} → {x.text!r} → {x.section_id or '[red]unresolved[/red]'}")


@app.command(name="eval")
def eval_(config: str = ConfigOpt,
          tool: str = typer.Option(..., "--tool", "-t", help="Tool to evaluate"),
          queries: Path = typer.Option(..., "--queries", "-q", exists=True,
                                       help="BEIR queries.jsonl (or dataset folder), Anthropic evaluation_set.jsonl, or ObliQA json"),
          qrels: Optional[Path] = typer.Option(None, "--qrels", exists=True, help="BEIR qrels .tsv"),
          k: int = typer.Option(10, "-k", min=1, max=100, help="Depth reported in the summary line"),
          modes: str = typer.Option("semantic,keyword,exact,hybrid", "--modes", help="Comma-separated search modes"),
          limit: Optional[int] = typer.Option(None, "--limit", help="Only the first N queries"),
          no_context: bool = typer.Option(False, "--no-context",
                                          help="Index without structural context (in memory) to measure its effect"),
          force: bool = typer.Option(False, "--force", help="Re-ingest from scratch first"),
          json_out: bool = typer.Option(False, "--json")) -> None:
    """Ingest once, then measure every search mode on a query set (nDCG@10, Recall, MAP@10, MRR@10, Pass@k)."""
    _setup()
    from .errors import DocstrataError
    from .eval import evaluate, format_table, load_query_set
    from .tools import build_tool

    toolset = _load(config)
    try:
        cfg = toolset.config.tool(tool)
        if no_context:
            cfg = cfg.model_copy(update={"contextual_embeddings": False, "database": cfg.database.model_copy(
                update={"provider": "in-memory"})})
        t = build_tool(cfg, toolset.config.base_dir)
        qs = load_query_set(queries, qrels, limit)
        report = t.ingest(force=force)
        err = _console(stderr=True)
        err.print(f"{tool}: {report.chunks} chunks/records indexed ({report.embedded} embedded) "
                  f"in {report.elapsed_s:.1f} s; {len(qs.queries)} {qs.name} queries")
        results = evaluate(t, qs, [m.strip() for m in modes.split(",") if m.strip()])
    except DocstrataError as e:
        _fail(str(e))
    if json_out:
        print(json.dumps({"query_set": qs.name, "queries": len(qs.queries), "no_context": no_context,
                          "results": [{"mode": r.mode, **r.metrics, "qps": r.qps, "embed_s_per_query": r.embed_s,
                                       "search_s_per_query": r.search_s} for r in results]}, indent=2))
        return
    print(format_table(results))
    best = max(results, key=lambda r: r.metrics.get(f"ndcg@{k}", r.metrics["ndcg@10"]))
    print(f"\nbest mode by nDCG@10: {best.mode}")


@app.command()
def schema() -> None:
    """Print the JSON Schema of agent.yaml."""
    from .config import json_schema

    print(json_schema())


@app.command()
def serve(config: str = ConfigOpt,
          transport: str = typer.Option("stdio", "--transport", help="stdio | http"),
          host: str = typer.Option("127.0.0.1", "--host"),
          port: int = typer.Option(8000, "--port"),
          token_env: Optional[str] = typer.Option(None, "--token-env",
                                                  help="Env var holding a bearer token required over HTTP")) -> None:
    """Run the MCP server over stdio (default) or streamable HTTP."""
    _setup()
    from .errors import ConfigError
    from .mcp_server import serve as _serve

    try:
        _serve(config, transport=transport, host=host, port=port, token_env=token_env)
    except ConfigError as e:
        _fail(f"configuration: {e}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
