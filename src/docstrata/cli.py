"""The ``docstrata`` command line (typer + rich). Heavy modules are imported inside commands
so ``docstrata --help`` stays fast."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from . import followup
from .escaping import escape_json_output, escape_terminal, one_line
from .followup import with_config
from .ingest_support import UNCHANGED_FAILURE

if TYPE_CHECKING:
    from .progress import ProgressLines

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    help="Structure-aware hybrid search over documents and records, for agents and people.",
)

ConfigOpt = typer.Option("agent.yaml", "-c", "--config", help="Path to agent.yaml")
ToolOpt = typer.Option(None, "--tool", "-t", help="Tool name (default: the only tool)")


def _version(value: bool) -> None:
    if value:
        from . import __version__

        print(f"docstrata {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit"
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Log details: each ignored config setting, provider calls"
    ),
) -> None:
    """Structure-aware hybrid search over documents and records, for agents and people.

    Shell completion: `docstrata --install-completion` (bash, zsh, fish, PowerShell), or
    `docstrata --show-completion` to print the script (both for the shell you run them from).
    """
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


_CONFIG = "agent.yaml"
"""The configuration this command loaded, as given on its command line."""


def _load(config: str):
    from .config import load_config
    from .errors import ConfigError
    from .tools import Toolset

    global _CONFIG
    _CONFIG = config  # follow-up commands printed later name it (followup.with_config)
    try:
        toolset = Toolset(load_config(config))
    except ConfigError as e:
        # the message lists every problem, one per line (the lines are the loader's own); each line
        # is made safe on its own
        lines = "\n".join(_safe(line) for line in str(e).split("\n"))
        _console(stderr=True).print(f"[red]Configuration error[/red] {lines}", soft_wrap=True)
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


def _safe(text: str) -> str:
    """Text from documents or file names as one line, safe for a rich console: line breaks and
    terminal controls escaped (:func:`~docstrata.escaping.one_line`), markup escaped."""
    from rich.markup import escape

    from .escaping import one_line

    return escape(one_line(text))


def _fail(message: str, code: int = 2) -> None:
    message = with_config(message, _CONFIG)  # a command it names runs from any folder
    _console(stderr=True).print(f"[red]Error[/red] {_safe(message)}", soft_wrap=True)  # one line, never wrapped
    raise typer.Exit(code)


def _pick_tool(toolset, name: Optional[str], kind: Optional[type] = None):
    """The tool called ``name``, or the only tool (of ``kind``, when given); exits 2 otherwise."""
    tools = [t for t in toolset if kind is None or isinstance(t, kind)]
    if name is None:
        if len(tools) != 1:
            what = "tools are" if kind is None else f"{kind.__name__}s are"
            _fail(f"{len(tools)} {what} configured; choose one with --tool ({', '.join(t.name for t in tools)})")
        return tools[0]
    try:
        t = toolset[name]
    except KeyError as e:
        _fail(str(e.args[0]))
    if kind is not None and not isinstance(t, kind):
        _fail(f"tool '{name}' is a {t.cfg.type} tool; this command needs a {kind.__name__}")
    return t


def _read(config: str, tool: Optional[str], kind: type, read):
    """Open the one ``kind`` tool of ``config`` (or ``--tool``), make its index ready and return
    ``(tool, read(tool))``; a query or docstrata error exits 1 with its message."""
    from .errors import DocstrataError
    from .search import QueryError

    toolset = _load(config)
    with toolset:
        t = _pick_tool(toolset, tool, kind)
        try:
            _ready(t, _console(stderr=True))
            return t, read(t)
        except (QueryError, DocstrataError) as e:
            _fail(str(e), 1)


def _check_search_args(
    t,
    mode: Optional[str],
    min_score: Optional[float] = None,
    min_fused_score: Optional[float] = None,
    section: Optional[str] = None,
    filters: Optional[dict] = None,
) -> None:
    """Exit 2 on a bad mode, threshold, filter or reranker before any index is opened or model loaded.

    ``min_score`` is the cosine similarity of query and hit (0-1, HoloDeck's meaning);
    ``min_fused_score`` is on the weighted-RRF scale, whose ceiling this tool's weights fix."""
    import math

    from .errors import ConfigError
    from .fusion import max_fused_score
    from .search import MODES

    if mode is not None and mode not in MODES:
        _fail(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")
    c = t.cfg
    if min_score is not None and not (math.isfinite(min_score) and 0 <= min_score <= 1):
        _fail(
            f"--min-score is a cosine similarity between 0 and 1, got {min_score:g} "
            "(the fused RRF threshold is --min-fused-score)"
        )
    if min_fused_score is not None:
        if not (math.isfinite(min_fused_score) and min_fused_score >= 0):
            _fail(f"--min-fused-score must be a number >= 0, got {min_fused_score:g}")
        single = (mode or getattr(c, "search_mode", "hybrid")) != "hybrid"
        best = max_fused_score(1.0 if single else c.semantic_weight + c.keyword_weight + c.exact_weight, c.rrf_k)
        if min_fused_score > best:
            _fail(
                f"--min-fused-score {min_fused_score:g} can never be met: fused RRF scores are at most "
                f"{best:.4f} here (for a cosine threshold use --min-score)"
            )
    records = c.type == "vectorstore"
    if section and records and getattr(c, "structured", True):
        _fail(f"--section applies to documents; tool '{t.name}' holds records (filter fields with --filter)")
    if filters:
        kept = getattr(c, "meta_fields", None) if records else None
        if not records:
            _fail(
                f"--filter applies to record fields; tool '{t.name}' holds documents "
                "(narrow with --document and --section)"
            )
        unknown = [f for f in filters if kept is not None and f not in kept]
        if unknown:
            _fail(
                f"--filter {unknown[0]}: not a metadata field of tool '{t.name}' "
                f"(meta_fields: {', '.join(kept) or 'none'})"
            )
    try:
        getattr(t, "reranker", None)  # builds the Reranker: a hub name or missing directory fails here
    except ConfigError as e:
        _fail(f"{t.name}: {e}")


def _filters(exprs: Optional[list[str]]) -> Optional[dict]:
    """``--filter`` expressions as the API's ``filters`` mapping; exit 2 naming a bad one."""
    if not exprs:
        return None
    from .filter_syntax import parse_filter_expressions
    from .search import QueryError

    try:
        return parse_filter_expressions(exprs)
    except QueryError as e:
        _fail(str(e))


def _ready(t, err, force: bool = False) -> None:
    """Open ``t``'s index, indexing first what changed, with a message and a progress bar on
    stderr when there is anything to index. Exits 1 when the tool ends with no indexed file."""
    state: dict = {}

    def progress(done: int, total: int, what: str) -> None:
        if "bar" not in state:
            if total == 0:
                return
            if t.cfg.database.provider != "in-memory":  # an in-memory index is built by every command: no advice
                err.print(
                    with_config(
                        f"{t.name}: indexing {total} file(s) first (`docstrata ingest` does this ahead of time)",
                        _CONFIG,
                    ),
                    soft_wrap=True,
                )
            bar = _bar(err)
            bar.start()
            state["bar"], state["task"] = bar, bar.add_task("loading model", total=total)
            what = f"loading model, then {what}" if done == 0 else what
        state["bar"].update(state["task"], completed=done, total=total, description=_safe(f"{t.name}: {what}"))

    try:
        report = t.ingest(force=True, progress=progress) if force else t.ensure_ready(progress=progress)
    finally:
        if "bar" in state:
            state["bar"].stop()
    # a file that failed before and has not changed is told once, by the run that failed on it (and by
    # every `docstrata ingest`), not again by each search, get-section or list that checks the index
    news = [sk for sk in (report.skipped if report is not None else []) if not sk.reason.startswith(UNCHANGED_FAILURE)]
    if report is not None and (state or report.removed or news):
        memory = " (in-memory index, rebuilt by every command)" if t.cfg.database.provider == "in-memory" else ""
        err.print(
            f"{t.name}: indexed {report.files_total} file(s), {report.chunks_total} {_unit(t)} in "
            f"{report.elapsed_s:.1f} s ({report.added} added, {report.updated} updated, {report.removed} removed)"
            f"{memory}",
            soft_wrap=True,
        )
        for sk in report.skipped if state else news:
            err.print(
                f"  [red]skipped[/red] {_safe(sk.path)}: {_safe(with_config(sk.reason, _CONFIG))}", soft_wrap=True
            )
    if t.store.count() == 0:
        _fail(f"{t.name}: no indexed files: nothing under source {t.cfg.source!r} could be indexed", 1)


class _NoBar:
    """Stands in for a rich progress bar when stderr is not a terminal: rich's live display
    would leave a blank line there (one per bar). Each update is offered to a
    :class:`~docstrata.progress.ProgressLines`, which prints a plain line every few seconds."""

    def __init__(self) -> None:
        self._lines: dict[int, ProgressLines] = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def start(self) -> None:
        return None

    stop = start

    def add_task(self, *a, **kw) -> int:
        from .progress import ProgressLines

        self._lines[len(self._lines)] = ProgressLines("")
        return len(self._lines) - 1

    def update(self, task: int = 0, *, completed=None, total=None, description: str = "", **kw) -> None:
        """An ingest's update (``description`` "tool: what", ``completed`` of ``total`` files) as a line."""
        lines = self._lines.get(task)
        name, sep, what = description.partition(": ")
        if lines is not None and sep and completed is not None and total:
            lines.name = name
            lines(completed, total, what)


def _bar(err):
    """A transient rich progress bar on ``err`` when it is a terminal, else :class:`_NoBar`
    (whose tasks print plain progress lines: :class:`~docstrata.progress.ProgressLines`)."""
    if not err.is_terminal:
        return _NoBar()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )


def _load_model_if_needed(t, mode: Optional[str], err) -> None:
    """Load the embedding model now, with a status line on a terminal, when the dense leg will run."""
    c = t.cfg
    mode = mode or getattr(c, "search_mode", "hybrid")
    dense = mode == "semantic" or (mode == "hybrid" and c.semantic_weight > 0)
    if dense and getattr(t, "_embedder", None) is None:
        with err.status(f"loading embedding model {c.embedding_model}"):
            t.embedder  # noqa: B018 - the property loads the model


@app.command()
def ingest(
    config: str = ConfigOpt,
    tool: list[str] = typer.Option(None, "--tool", "-t", help="Only these tools (repeatable)"),
    force: bool = typer.Option(False, "--force", help="Rebuild from scratch"),
    verify: bool = typer.Option(False, "--verify", help="Re-hash every file, whatever its size and times say"),
    rebuild: bool = typer.Option(
        False,
        "--rebuild",
        help="Rebuild the keyword and vector indexes from the stored chunks first (repairs a damaged index)",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the reports as JSON"),
    trace: Optional[str] = typer.Option(None, "--trace", help="Print OpenTelemetry spans to stderr: console"),
) -> None:
    """Index every configured tool's source (only what changed). Exit 1 if any file was skipped."""
    _setup()
    _start_trace(trace)
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
            with _bar(err) as bar:
                task = bar.add_task(f"{name}: scanning", total=None)

                def progress(done: int, total: int, what: str, _task=task, _name=name) -> None:
                    bar.update(_task, completed=done, total=total, description=f"{_name}: {what}")

                try:
                    reports.append(t.ingest(force=force, progress=progress, verify=verify, rebuild=rebuild))
                except DocstrataError as e:
                    _fail(f"{name}: {e}")
    if json_out:
        print(json.dumps([r.to_dict() for r in reports], indent=2))
    else:
        _print_reports(reports, {r.tool: _unit(toolset[r.tool]) for r in reports})
    empty = [r.tool for r in reports if r.chunks_total == 0]
    for name in empty:
        err.print(
            f"[red]Error[/red] {name}: no indexed files: nothing under source "
            f"{toolset[name].cfg.source!r} could be indexed"
        )
    if empty or any(r.failed for r in reports):
        raise typer.Exit(1)


_LLM_LABELS = {
    "cache_read_tokens": "provider prompt-cache read tokens",
    "cache_write_tokens": "provider prompt-cache write tokens",
    "cache_hits": "contexts reused from docstrata's cache",
    "estimated_cost_usd": "estimated cost USD",
}
"""Names for the context-generation counters of an ingest report: the provider's prompt cache
(tokens) and docstrata's own context cache (whole contexts) are different caches."""


def _unit(t) -> str:
    """What a tool's index holds: "records" (a vectorstore tool over records) or "chunks"."""
    from .tools import VectorstoreTool

    return "records" if isinstance(t, VectorstoreTool) and t.records_mode else "chunks"


def _print_reports(reports, units: Optional[dict] = None) -> None:
    """One line per ingest report: files seen, what the index holds, what this run wrote."""
    out = _console()
    for r in reports:
        unit = (units or {}).get(r.tool) or ("records" if r.records else "chunks")
        run = f"{r.chunks} written, {r.embedded} embedded" + (
            f", {r.definitions} definitions" if unit == "chunks" else ""
        )
        out.print(
            f"[bold]{r.tool}[/bold]: {r.files_total} files "
            f"({r.added} added, {r.updated} updated, {r.removed} removed, {r.unchanged} unchanged), "
            f"{r.chunks_total} {unit} in the index (this run: {run}), {r.elapsed_s:.1f} s",
            soft_wrap=True,
        )
        if r.llm.get("llm_calls") or r.llm.get("cache_hits"):
            out.print(
                "  LLM: " + ", ".join(f"{_LLM_LABELS.get(k, k.replace('_', ' '))} {v}" for k, v in r.llm.items()),
                soft_wrap=True,
            )
        for w in r.warnings[:20]:
            out.print(f"  [yellow]warning[/yellow] {_safe(with_config(w, _CONFIG))}", soft_wrap=True)  # one line each
        if len(r.warnings) > 20:
            out.print(f"  … {len(r.warnings) - 20} more warnings (use --json to see all)")
        for s in r.skipped:
            out.print(f"  [red]skipped[/red] {_safe(s.path)}: {_safe(with_config(s.reason, _CONFIG))}", soft_wrap=True)


_SEARCH_HELP = """Search one tool and print cited results.

The text answer starts with a confidence line (and any notices: hits a threshold left out,
...), lists each hit with its citation and resolved cross-references, then each definition the
hits use, once. --json prints the same answer as JSON: {query, results, definitions,
confidence, notices, truncated}, the shape of the MCP `<tool>_search` tool's output (one result
schema for documents and records).

Filters apply inside the index before ranking: --document (file name, stem or path; repeat for
any of several), --section (a section-id prefix such as 4.2 or article-17, or as cited:
'Section 4.2'), --filter on record fields (repeatable, AND): FIELD=VALUE, FIELD=A,B (any of),
FIELD<N, FIELD<=N, FIELD>N, FIELD>=N.

Arguments are checked before anything is loaded; the embedding model is loaded only when the
dense leg runs (not for --mode keyword or exact)."""


@app.command(help=_SEARCH_HELP)
def search(
    query: Optional[str] = typer.Argument(None, help="The query"),
    config: str = ConfigOpt,
    tool: Optional[str] = ToolOpt,
    top_k: Optional[int] = typer.Option(None, "--top-k", "-k", min=1, max=100),
    mode: Optional[str] = typer.Option(None, "--mode", "-m", help="hybrid | semantic | keyword | exact"),
    document: list[str] = typer.Option(
        None, "--document", "-d", help="Only this document (file name, stem or path); repeatable"
    ),
    section: Optional[str] = typer.Option(
        None, "--section", "-s", help="Only this section and its subsections: 4.2, article-17, 'Section 4.2'"
    ),
    filter_: list[str] = typer.Option(
        None,
        "--filter",
        "-f",
        help="Record field condition: FIELD=VALUE, FIELD=A,B, FIELD<N, <=, >, >= (repeatable; all must hold)",
    ),
    min_score: Optional[float] = typer.Option(
        None,
        "--min-score",
        help="Drop hits whose cosine similarity to the query is below this (0-1; HoloDeck's min_similarity_score)",
    ),
    min_fused_score: Optional[float] = typer.Option(
        None, "--min-fused-score", help="Drop hits whose fused RRF score is below this"
    ),
    json_out: bool = typer.Option(
        False, "--json", help="The answer as JSON (results, definitions, confidence, notices)"
    ),
    span: bool = typer.Option(
        False, "--span", help="Each hit's best-matching sentence alone, cited to the deepest section holding it"
    ),
    passage: bool = typer.Option(
        False,
        "--passage",
        help="The best passages instead of chunks (--top-k of them): each confident hit's minimal passage (from its "
        "first to its last sentence that matches nearly as well as the best, or the section a matching heading opens), "
        "then the best further sentences of the candidate chunks, each widened to a readable passage and cited to "
        "its own section (wins over --span)",
    ),
    min_relative_score: Optional[float] = typer.Option(
        None,
        "--min-relative-score",
        help="Leave out hits whose fused score is below this share (0-1] of the best hit's (a relevance cut-off)",
    ),
    batch: Optional[Path] = typer.Option(
        None,
        "--batch",
        help='JSONL of {"query_id", "query"} ("-" = stdin); '
        'prints {"query_id", "query", "results", "definitions", '
        '"confidence", "notices"} per line',
    ),
    trace: Optional[str] = typer.Option(None, "--trace", help="Print OpenTelemetry spans to stderr: console"),
) -> None:
    """The ``search`` command (its help text is ``_SEARCH_HELP``)."""
    _setup()
    _start_trace(trace)
    from .errors import DocstrataError
    from .redact import escape_terminal
    from .search import QueryError

    if batch is None and not (query and query.strip()):
        _fail("give a QUERY or --batch FILE")
    filters = _filters(filter_)
    toolset = _load(config)
    with toolset:
        t = _pick_tool(toolset, tool)
        _check_search_args(t, mode, min_score, min_fused_score, section, filters)
        kw = {
            "top_k": top_k,
            "mode": mode,
            "document": list(document or []) or None,
            "section": section,
            "filters": filters,
            "min_similarity_score": min_score,
            "min_fused_score": min_fused_score,
        }
        if min_relative_score is not None:
            import math

            if not (math.isfinite(min_relative_score) and 0 < min_relative_score <= 1):
                _fail(
                    f"--min-relative-score is a share of the best hit's fused score in (0, 1], got {min_relative_score:g}"
                )
            if t.cfg.type != "hierarchical_document":
                _fail("--min-relative-score applies to a hierarchical_document tool")
            kw["min_relative_score"] = min_relative_score
        if passage and t.cfg.type == "hierarchical_document":
            kw["passages"] = True
        err = _console(stderr=True)
        try:
            _ready(t, err)
            if kw["document"]:
                t._document_keys(kw["document"])  # an unknown document fails before the model loads
            if batch is not None:
                _search_batch(t, batch, kw)
                return
            _load_model_if_needed(t, mode, err)
            results = t.search(query, **kw)
        except (QueryError, DocstrataError) as e:
            _fail(str(e))
    text, data = _answer(results, query, t.name, config, span=span, passage=passage)
    if json_out:
        print(escape_json_output(json.dumps({"query": query, **data}, indent=2, ensure_ascii=False)))
    else:
        print(escape_terminal(text))


def _answer(
    results, query: str, tool_name: str, config: str = "agent.yaml", span: bool = False, passage: bool = False
) -> tuple[str, dict]:
    """The search answer as the MCP server renders it (answers.render_search), with no size
    budget: whole passages (a pinpointed hit: the cited item, with the command that prints the
    whole chunk), each definition once, the confidence line and notices first; the JSON hits carry
    the whole chunk as ``content`` (a ``pinpoint``'s offsets are into it) and each modality's
    1-based rank (``semantic_rank``, ``keyword_rank``, ``exact_rank``; left out when that modality
    did not retrieve the hit)."""
    from .answers import render_search

    results.notices = [with_config(n, config) for n in results.notices]  # commands they name run from any folder
    text, data = render_search(
        results,
        query,
        tool_name,
        max_chars=10**12,
        read_more=lambda r: followup.command(
            "neighbours", r.chunk_id, config=config, tool=tool_name, raw="--before 0 --after 0"
        ),
        span=span,
        passage=passage,
    )
    for r, hit in zip(results, data["results"]):  # each modality's rank too, for people tuning the fusion
        hit.update(
            {
                k: getattr(r, k)
                for k in ("semantic_rank", "keyword_rank", "exact_rank")
                if getattr(r, k, None) is not None
            }
        )
        if hit.get("pinpoint"):  # the whole chunk for scripts; the text shows the pinpoint
            hit["content"], hit["truncated"] = r.content.strip(), False
    return text, data


def _search_batch(t, batch: Path, kw: dict) -> None:
    from .search import QueryError

    import sys

    text = sys.stdin.read() if str(batch) == "-" else batch.read_text(encoding="utf-8")
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            qid, q = item["query_id"], item["query"]
        except (json.JSONDecodeError, KeyError, TypeError):
            _fail(f'{batch}, line {n}: expected {{"query_id": ..., "query": ...}}')
        try:
            _, data = _answer(t.search(q, **kw), q, t.name)
            print(escape_json_output(json.dumps({"query_id": qid, "query": q, **data}, ensure_ascii=False)))
        except QueryError as e:
            print(
                escape_json_output(
                    json.dumps({"query_id": qid, "query": q, "error": str(e), "results": []}, ensure_ascii=False)
                )
            )


@app.command()
def inspect(
    file: Path = typer.Argument(..., help="A document (with -c: also a path under the tool's source)"),
    config: Optional[str] = typer.Option(
        None, "-c", "--config", help="Parse as this config's tool ingests (its chunking, limits and OCR settings)"
    ),
    tool: Optional[str] = ToolOpt,
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Show a document's section tree, definitions and cross-references: as the default settings
    read it, or with -c as that config's hierarchical_document tool ingests it."""
    _setup()
    from .errors import ConversionError
    from .models import page_citation
    from .pipeline import parse_file
    from .sources import source_file

    file, settings = _inspect_settings(file, config, tool)
    count = settings.count_tokens
    try:  # the pipeline ingest runs, so the ids shown are the ids the index holds
        parsed = parse_file(source_file(file), settings)
    except ConversionError as e:
        _fail(str(e), 1)
    doc, tree = parsed.document, parsed.tree
    sections = [
        {
            "section_id": s.section_id,
            "title": s.title,
            "level": s.level,
            "number": s.number,
            "parent_id": s.parent_id,
            "tokens": count(s.text) if s.text else 0,
            "aliases": s.aliases,
            **(
                {"page_start": s.page_start, "page_end": s.page_end, "page_numbering": s.page_numbering}
                if s.page_start
                else {}
            ),
        }
        for s in tree.sections
    ]
    if json_out:
        print(
            escape_json_output(
                json.dumps(
                    {
                        "document": doc.doc_key,
                        "title": tree.title,
                        "sections": sections,
                        "definitions": [
                            {"term": d.term, "definition": d.definition, "section_id": d.section_id}
                            for d in tree.definitions
                        ],
                        "cross_references": [x.__dict__ for x in tree.cross_references],
                        "warnings": tree.warnings + doc.warnings,
                    },
                    indent=2,
                    ensure_ascii=False,
                )
            )
        )
        return
    from rich.tree import Tree

    out = _console()
    root = Tree(f"[bold]{_safe(tree.title)}[/bold] ({_safe(doc.doc_key)}, {len(sections)} sections)")
    nodes = {None: root}
    for s in sections:
        parent = nodes.get(s["parent_id"], root)
        pages = page_citation(s.get("page_start"), s.get("page_end"), s.get("page_numbering"))
        nodes[s["section_id"]] = parent.add(
            f"{_section_label(s)} "
            f"[dim](level {s['level']}, {s['tokens']} tokens"
            f"{', ' + _safe(pages) if pages else ''})[/dim]"
        )
    out.print(root)
    out.print(f"\n[bold]Definitions[/bold] ({len(tree.definitions)})")
    for d in tree.definitions:
        out.print(f"  [green]{_safe(d.term)}[/green] [dim]§{_safe(d.section_id)}[/dim]: {_safe(d.definition[:120])}")
    # contents lines list sections, they cite none (CrossReference.listing): counted apart, never shown as citations
    citing = [x for x in tree.cross_references if not x.listing]
    listed = len(tree.cross_references) - len(citing)
    resolved = sum(1 for x in citing if x.section_id)
    out.print(
        f"\n[bold]Cross-references[/bold] ({len(citing)}, {resolved} resolved"
        + (f"; {listed} contents lines listing sections not counted" if listed else "")
        + ")"
    )
    from .index.exact import pinpoint_enclosed

    for x in citing[:200]:
        if x.section_id:
            where = _safe(x.section_id) + (
                f" [dim](holds {_safe(x.target)}, no section of its own)[/dim]"
                if pinpoint_enclosed(x.target, x.section_id)
                else ""
            )
        else:
            where = f"[yellow]in {_safe(x.document)}[/yellow]" if x.document else "[red]unresolved[/red]"
        out.print(f"  {_safe(x.source_section_id)} → {_safe(repr(x.text))} → {where}")


def _inspect_settings(file: Path, config: Optional[str], tool: Optional[str]):
    """(the file to read, the :class:`~docstrata.pipeline.PipelineSettings` to read it with):
    the defaults without ``config``; else the settings of ``config``'s ``hierarchical_document``
    tool (``tool``, or the only one), ``file`` found as given or under the tool's source folder."""
    from .pipeline import PipelineSettings

    if config is None:
        if not file.is_file():
            _fail(f"no file {file} (give -c CONFIG to name a document under a tool's source)")
        from .embed import Embedder

        return file, PipelineSettings(count_tokens=Embedder().count_tokens)
    from .tools import HierarchicalDocumentTool

    t = _pick_tool(_load(config), tool, HierarchicalDocumentTool)
    if not file.is_file():
        source = t.base_dir / re.split(r"[*?\[]", t.cfg.source, maxsplit=1)[0]  # a glob's fixed folder
        folder = source if source.is_dir() else source.parent
        if not (folder / file).is_file():
            _fail(f"no file {file}, nor {file} under {folder}, the source of tool '{t.name}'")
        file = folder / file
    return file, t.pipeline_settings()


def _section_label(s: dict) -> str:
    """The tree line of a section: its id in cyan, then the title without repeating the id."""
    from .models import section_label

    label = section_label(s["section_id"], s["title"])
    rest = label[len(s["section_id"]) :] if label.startswith(s["section_id"]) else " " + label
    return f"[cyan]{_safe(s['section_id'])}[/cyan]{_safe(rest)}"


# --------------------------------------------------------------------------- reading the index
# These call the tools API directly (get_section, get_record, neighbours, get_definition,
# list_documents); pages of a section or record follow the API's max_chars + cursor.

MaxCharsOpt = typer.Option(
    None,
    "--max-chars",
    min=200,
    max=1_000_000,
    help="Print at most this many characters (default: all), with a --cursor to read on",
)
CursorOpt = typer.Option(None, "--cursor", help="Continue where a cut page stopped (the cursor it printed)")


def _read_on(command: str, max_chars: Optional[int], cursor: str, config: str, tool: Optional[str]) -> str:
    """The command that prints the next page (with the same -c, as an absolute path, and --tool as this one)."""
    sub, _, args = command.partition(" ")
    return "continue with: " + followup.command(
        sub, config=config, tool=tool, raw=f"{args} --max-chars {max_chars} --cursor {shlex.quote(cursor)}"
    )


@app.command(name="get-section")
def get_section(
    document: str = typer.Argument(..., help="Document path as shown in results (Source:), its file name or stem"),
    section_id: Optional[str] = typer.Argument(
        None, help="Section id as shown in results (Section:), or as cited: 'Section 4.2'; none = the whole document"
    ),
    max_chars: Optional[int] = MaxCharsOpt,
    cursor: Optional[str] = CursorOpt,
    config: str = ConfigOpt,
    tool: Optional[str] = ToolOpt,
    json_out: bool = typer.Option(
        False,
        "--json",
        help="The page as JSON (document, section_id, title, "
        "location, content, chunk_ids, offset, total_chars, "
        "next_cursor, truncated)",
    ),
) -> None:
    """Print one section of a document with all its subsections, or the whole document.

    With --max-chars the text comes in pages: a cut page ends with the command that prints the next."""
    _setup()
    from .tools import HierarchicalDocumentTool

    _, page = _read(
        config,
        tool,
        HierarchicalDocumentTool,
        lambda t: t.get_section(document, section_id or None, max_chars=max_chars, cursor=cursor),
    )
    if json_out:
        print(escape_json_output(json.dumps(page.to_dict(), indent=2, ensure_ascii=False)))
        return
    import shlex

    text = page.format()  # its own read-on line names the API's cursor=; the CLI's names --cursor
    if page.next_cursor:
        where = " ".join(shlex.quote(a) for a in [document, *([section_id] if section_id else [])])
        more = page.total_chars - page.offset - len(page.content)
        text = (
            text[: text.rindex("\n\n[cut: ")]
            + f"\n\n[cut: {more} more characters; "
            + _read_on(f"get-section {where}", max_chars, page.next_cursor, config, tool)
            + "]"
        )
    print(escape_terminal(text))


@app.command(name="cited-by")
def cited_by(
    document: str = typer.Argument(..., help="Document path as shown in results (Source:), its file name or stem"),
    section_id: str = typer.Argument(..., help="Section id as shown in results (Section:), or as cited: 'Article 17'"),
    limit: int = typer.Option(20, "--limit", "-n", min=1, max=200, help="Citing sections per page"),
    cursor: Optional[str] = CursorOpt,
    config: str = ConfigOpt,
    tool: Optional[str] = ToolOpt,
    json_out: bool = typer.Option(
        False, "--json", help="The page as JSON (document, section_id, total, offset, citers, next_cursor)"
    ),
) -> None:
    """Print the sections that cite a section (or a part of it), in its document and in the tool's
    other documents, a page at a time: a page with more after it ends with the command that prints the next."""
    _setup()
    import shlex

    from .tools import HierarchicalDocumentTool

    _, page = _read(
        config, tool, HierarchicalDocumentTool, lambda t: t.cited_by(document, section_id, limit=limit, cursor=cursor)
    )
    if json_out:
        print(escape_json_output(json.dumps(page.to_dict(), indent=2, ensure_ascii=False)))
        return
    text = page.format()
    if page.next_cursor:  # the API's read-on line names cursor=; the CLI's names --cursor
        opts = (f" -c {shlex.quote(config)}" if config != "agent.yaml" else "") + (
            f" -t {shlex.quote(tool)}" if tool else ""
        )
        text = text[: text.rindex("\n\n[more: ")] + (
            f"\n\n[more: continue with: docstrata cited-by {shlex.quote(document)} {shlex.quote(section_id)}{opts} "
            f"--limit {limit} --cursor {page.next_cursor}]"
        )
    print(escape_terminal(text))


@app.command(name="get-record")
def get_record(
    record_id: str = typer.Argument(..., help="The record's id, as search results show it (Id:)"),
    max_chars: Optional[int] = MaxCharsOpt,
    cursor: Optional[str] = CursorOpt,
    config: str = ConfigOpt,
    tool: Optional[str] = ToolOpt,
    json_out: bool = typer.Option(
        False, "--json", help="The record as JSON (id, content, metadata, source_path, next_cursor, truncated, ...)"
    ),
) -> None:
    """Print one record of a vectorstore tool by its id (case-insensitive). Exit 1 when there is none."""
    _setup()
    from .tools import VectorstoreTool

    _, r = _read(config, tool, VectorstoreTool, lambda t: t.get_record(record_id, max_chars=max_chars, cursor=cursor))
    if json_out:
        print(escape_json_output(json.dumps(r.to_dict(), indent=2, ensure_ascii=False)))
        return
    import shlex
    from dataclasses import replace

    print(escape_terminal(replace(r, next_cursor=None).format()))
    if r.next_cursor:
        print(
            escape_terminal(
                f"\n[cut: {r.content_chars} characters in all; "
                + _read_on(f"get-record {shlex.quote(record_id)}", max_chars, r.next_cursor, config, tool)
                + "]"
            )
        )


@app.command()
def neighbours(
    chunk_id: str = typer.Argument(..., help="A chunk id, as search results show it (Chunk:)"),
    before: int = typer.Option(1, "--before", "-b", min=0, max=20, help="Chunks before it"),
    after: int = typer.Option(1, "--after", "-a", min=0, max=20, help="Chunks after it"),
    config: str = ConfigOpt,
    tool: Optional[str] = ToolOpt,
    json_out: bool = typer.Option(
        False, "--json", help="{document, chunks: [{chunk_id, section_id, location, content}]}"
    ),
) -> None:
    """Print a chunk with the chunks around it in its document, in document order."""
    _setup()
    from .answers import render_neighbours
    from .tools import HierarchicalDocumentTool

    _, chunks = _read(
        config, tool, HierarchicalDocumentTool, lambda t: t.neighbours(chunk_id, before=before, after=after)
    )
    text, data = render_neighbours(chunks, max_chars=10**12, requested=chunk_id)
    print(escape_json_output(json.dumps(data, indent=2, ensure_ascii=False)) if json_out else escape_terminal(text))


@app.command(name="get-definition")
def get_definition(
    term: str = typer.Argument(..., help="The defined term, any case"),
    document: Optional[str] = typer.Option(None, "--document", "-d", help="Only this document"),
    config: str = ConfigOpt,
    tool: Optional[str] = ToolOpt,
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Print how the documents define a term (one entry per document and scope, each with where it
    applies). Exit 1 when none does."""
    _setup()
    from .models import page_fields
    from .tools import HierarchicalDocumentTool

    t, (found, near) = _read(
        config,
        tool,
        HierarchicalDocumentTool,
        lambda t: ((hits := t.get_definition(term, document)), [] if hits else t.similar_terms(term, document)),
    )
    hits = [
        {
            "term": d.term,
            "definition": d.definition,
            "document": d.doc_key,
            "section_id": d.section_id,
            "scope": d.scope,
            "scope_label": d.scope_label,
            "applies_in": d.applies_in,
            **{k: v for k, v in page_fields(d).items() if v is not None},
        }
        for d in found
    ]
    if json_out:
        print(escape_json_output(json.dumps({"term": term, "definitions": hits}, indent=2, ensure_ascii=False)))
    else:
        print(
            escape_terminal(
                "\n\n---\n\n".join(
                    f"Term: {one_line(h['term'])}\nSource: {one_line(h['document'])}"
                    + (f", {d.pages}" if d.pages else "")
                    + (f"\nSection: {one_line(h['section_id'])}" if h["section_id"] else "")
                    + f"\nApplies in: {one_line(h['applies_in'])}"
                    + f"\n\n{h['definition'].strip()}"
                    for h, d in zip(hits, found)
                )
            )
        )
    if not hits:
        where = f" in {document!r}" if document else ""
        _fail(
            f"no definition of {term!r}{where} in tool '{t.name}'" + (f"; similar: {', '.join(near)}" if near else ""),
            1,
        )


@app.command(name="list")
def list_(
    config: str = ConfigOpt,
    tool: list[str] = typer.Option(None, "--tool", "-t", help="Only these tools (repeatable)"),
    json_out: bool = typer.Option(
        False,
        "--json",
        help="[{tool, type, documents: [{doc_key, title, summary, "
        "language, file_type, section_count, top_sections, "
        "total_chunks, ingested_at, warnings}]}]",
    ),
) -> None:
    """List each tool's indexed documents (title, type, language, sections, chunks, ingested at,
    summary) or record files (records)."""
    _setup()
    from .errors import DocstrataError

    toolset = _load(config)
    out, err = _console(), _console(stderr=True)
    listing = []
    with toolset:
        for name in tool or [t.name for t in toolset]:
            t = _pick_tool(toolset, name)
            try:
                _ready(t, err)
                listing.append(
                    {"tool": t.name, "type": t.cfg.type, "documents": [e.to_dict() for e in t.list_documents()]}
                )
            except DocstrataError as e:
                _fail(f"{name}: {e}")
    if json_out:
        print(escape_json_output(json.dumps(listing, indent=2, ensure_ascii=False)))
        return
    if not out.is_terminal or out.width < 100:  # piped, or too narrow for seven columns: plain lines
        from .listing import plain_listing

        print(plain_listing(listing, out.width if out.is_terminal else 100))
        return
    from rich.table import Table
    from rich.text import Text

    for entry in listing:
        records = entry["type"] == "vectorstore"
        table = Table(title=Text(f"{entry['tool']} ({entry['type']})"), title_justify="left", show_lines=not records)
        cols = (
            ["file", "type", "records", "ingested at", "summary"]
            if records
            else ["document", "title / summary", "type", "lang", "sections", "chunks", "ingested at"]
        )
        for col in cols:
            table.add_column(
                col,
                justify="right" if col in ("sections", "chunks", "records") else "left",
                ratio=3 if col in ("summary", "title / summary") else None,
                overflow="fold",
            )
        for d in entry["documents"]:
            when = d["ingested_at"].replace("T", " ")[:16]
            summary = d["summary"] if len(d["summary"]) <= 160 else d["summary"][:159].rsplit(" ", 1)[0] + " …"
            title = Text(one_line(d["title"]), style="bold")  # Text(): no markup is parsed
            if summary:
                title.append("\n" + one_line(summary), style="dim")
            key, ftype = Text(one_line(d["doc_key"])), Text(one_line(d["file_type"]))
            table.add_row(
                *(
                    [key, ftype, str(d["total_chunks"]), when, Text(one_line(summary))]
                    if records
                    else [
                        key,
                        title,
                        ftype,
                        Text(one_line(d["language"] or "–")),
                        str(d["section_count"]),
                        str(d["total_chunks"]),
                        when,
                    ]
                )
            )
        out.print(table)


@app.command(name="eval")
def eval_(
    config: str = ConfigOpt,
    tool: str = typer.Option(..., "--tool", "-t", help="Tool to evaluate"),
    queries: Path = typer.Option(
        ...,
        "--queries",
        "-q",
        exists=True,
        help="BEIR queries.jsonl (or dataset folder), Anthropic evaluation_set.jsonl, or ObliQA json",
    ),
    qrels: Optional[Path] = typer.Option(None, "--qrels", exists=True, help="BEIR qrels .tsv"),
    k: int = typer.Option(10, "-k", min=1, max=100, help="Depth reported in the summary line"),
    modes: str = typer.Option("semantic,keyword,exact,hybrid", "--modes", help="Comma-separated search modes"),
    limit: Optional[int] = typer.Option(None, "--limit", help="Only the first N queries"),
    no_context: bool = typer.Option(
        False, "--no-context", help="Index without structural context (in memory) to measure its effect"
    ),
    force: bool = typer.Option(False, "--force", help="Re-ingest from scratch first"),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Ingest once, then measure every search mode on a query set (nDCG@10, Recall, MAP@10, MRR@10, Pass@k)."""
    _setup()
    from .errors import DocstrataError
    from .eval import evaluate, format_table, load_query_set
    from .tools import build_tool

    toolset = _load(config)
    try:
        cfg = toolset.config.tool(tool)
        if no_context:
            cfg = cfg.model_copy(
                update={
                    "contextual_embeddings": False,
                    "database": cfg.database.model_copy(update={"provider": "in-memory"}),
                }
            )
        t = build_tool(cfg, toolset.config.base_dir)
        mode_list = [m.strip() for m in modes.split(",") if m.strip()]
        for m in mode_list:
            _check_search_args(t, m, None)
        qs = load_query_set(queries, qrels, limit)
        err = _console(stderr=True)
        _ready(t, err, force=force)
        err.print(f"{tool}: {t.store.count()} chunks/records in the index; {len(qs.queries)} {qs.name} queries")
        if any(m != "keyword" and m != "exact" for m in mode_list):
            _load_model_if_needed(t, "semantic", err)
        results = _evaluate_with_progress(t, qs, mode_list, err, evaluate)
    except DocstrataError as e:
        _fail(str(e))
    if json_out:
        print(
            json.dumps(
                {
                    "query_set": qs.name,
                    "queries": len(qs.queries),
                    "no_context": no_context,
                    "results": [
                        {
                            "mode": r.mode,
                            **r.metrics,
                            "qps": r.qps,
                            "embed_s_per_query": r.embed_s,
                            "search_s_per_query": r.search_s,
                        }
                        for r in results
                    ],
                },
                indent=2,
            )
        )
        return
    print(format_table(results))
    best = max(results, key=lambda r: r.metrics.get(f"ndcg@{k}", r.metrics["ndcg@10"]))
    print(f"\nbest mode by nDCG@10: {best.mode}")


def _evaluate_with_progress(t, qs, modes: list[str], err, evaluate):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("evaluating", total=len(qs.queries))

        def progress(mode: str, i: int, n: int) -> None:
            bar.update(task, completed=i, total=n, description=f"evaluating {mode}")

        return evaluate(t, qs, modes, progress=progress)


@app.command()
def schema(
    check_file: Optional[Path] = typer.Option(
        None, "--check", metavar="FILE", help=("Validate FILE instead (same as `docstrata check -c FILE`)")
    ),
) -> None:
    """Print the JSON Schema of agent.yaml (with --check FILE: validate FILE)."""
    if check_file is not None:
        return check(str(check_file))
    from .config import json_schema

    print(json_schema())


@app.command()
def check(
    config: str = ConfigOpt,
    suggest: bool = typer.Option(
        False,
        "--suggest-thresholds",
        help=(
            "Also measure a min_similarity_score on each tool's index and embedding model (the 10th percentile "
            "of the top-1 cosines of section-title queries); loads the model"
        ),
    ),
) -> None:
    """Validate a config file with the loader's own checks: each error as FILE:LINE: YAML path:
    message. Exit 0 when valid (printing its tools), 2 otherwise. Reads nothing but the file
    (and HoloDeck's config.yaml and the .env beside it), unless --suggest-thresholds."""
    from .config import check_file

    cfg, problems = check_file(config)
    err = _console(stderr=True)
    for line, where, msg in problems:
        place = f"{config}:{line}" if line else config
        err.print(f"{_safe(place)}: {_safe(where) + ': ' if where else ''}{_safe(msg)}", soft_wrap=True)
    if problems:
        err.print(f"[red]{len(problems)} error(s)[/red]")
        raise typer.Exit(2)
    tools = ", ".join(f"{t.name} ({t.type})" for t in cfg.tools) or "none of docstrata's types"
    _console().print(f"{_safe(config)}: valid; tools: {_safe(tools)}", soft_wrap=True)
    if suggest:
        _suggest_thresholds(config)


def _suggest_thresholds(config: str) -> None:
    """Print per tool the min_similarity_score :func:`~docstrata.thresholds.suggest_similarity_threshold`
    measures on its index (a tool not indexed yet: the command that indexes it)."""
    from .thresholds import suggest_similarity_threshold

    out = _console()
    with _load(config) as toolset:
        for t in toolset:
            if not t._has_data():
                out.print(
                    with_config(f"{t.name}: not indexed yet; run `docstrata ingest` first", config), soft_wrap=True
                )
                continue
            s = suggest_similarity_threshold(t)
            sim = getattr(t.cfg, "min_score", None) if hasattr(t.cfg, "min_score") else t.cfg.min_similarity_score
            now = f"; configured: {sim:g}" if sim is not None else ""
            if s is None:
                out.print(f"{t.name}: too few sections to measure a min_similarity_score{now}", soft_wrap=True)
                continue
            out.print(
                f"{t.name}: suggested min_similarity_score {s.value:.2f} for {_safe(t.cfg.embedding_model)} "
                f"(the {s.percentile}th percentile of the top-1 cosines of {s.queries} section-title queries "
                f"on this index){now}",
                soft_wrap=True,
            )


@app.command()
def serve(
    config: str = ConfigOpt,
    transport: str = typer.Option("stdio", "--transport", help="stdio | http"),
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(8000, "--port"),
    token_env: Optional[str] = typer.Option(
        None, "--token-env", help="Env var holding a bearer token required over HTTP"
    ),
    allowed_host: list[str] = typer.Option(
        None, "--allowed-host", help="Extra Host name accepted over HTTP (repeatable; '*' = any)"
    ),
    insecure_no_token: bool = typer.Option(
        False, "--insecure-no-token", help="Serve HTTP off loopback WITHOUT a bearer token"
    ),
    ui: bool = typer.Option(False, "--ui", help="Serve the search playground page instead (see `docstrata ui`)"),
) -> None:
    """Run the MCP server over stdio (default) or streamable HTTP; with --ui, the playground page."""
    _setup()
    if ui:
        return _serve_ui(config, host, port, token_env, allowed_host or None, insecure_no_token)
    from .errors import ConfigError

    try:
        from .mcp_server import serve as _serve
    except ImportError as e:  # a trimmed install (--no-deps, an old environment)
        _fail(f"the MCP server needs the `mcp` package ({e}): pip install 'docstrata[mcp]'")
    try:
        _serve(
            config,
            transport=transport,
            host=host,
            port=port,
            token_env=token_env,
            allowed_hosts=allowed_host or None,
            insecure_no_token=insecure_no_token,
        )
    except ConfigError as e:
        _fail(f"configuration: {e}")


@app.command(name="ui")
def ui_(
    config: str = ConfigOpt,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (loopback by default)"),
    port: int = typer.Option(8000, "--port", help="0 picks a free port"),
    token_env: Optional[str] = typer.Option(
        None, "--token-env", help="Env var holding a bearer token the page's API requires"
    ),
    allowed_host: list[str] = typer.Option(
        None, "--allowed-host", help="Extra Host name accepted (repeatable; '*' = any)"
    ),
    insecure_no_token: bool = typer.Option(
        False, "--insecure-no-token", help="Serve off loopback WITHOUT a bearer token"
    ),
) -> None:
    """Serve the search playground: search, document structure and compare views, on the same index."""
    _setup()
    _serve_ui(config, host, port, token_env, allowed_host or None, insecure_no_token)


def _serve_ui(
    config: str,
    host: str,
    port: int,
    token_env: Optional[str],
    allowed_hosts: Optional[list[str]] = None,
    insecure_no_token: bool = False,
) -> None:
    import os

    from .errors import ConfigError
    from .ports import check_port_free
    from .ui.server import check_exposure, serve_ui

    try:  # refused before anything is loaded or ingested (the model takes seconds; the bind check none)
        check_exposure(host, (os.environ.get(token_env) or None) if token_env else None, insecure_no_token)
        check_port_free(host, port)
    except ConfigError as e:
        _fail(f"configuration: {e}")
    toolset = _load(config)
    err = _console(stderr=True)
    try:
        with toolset:
            for t in toolset:  # the page searches at once: index what changed first, with progress
                _ready(t, err)
            serve_ui(
                toolset,
                host=host,
                port=port,
                token_env=token_env,
                allowed_hosts=allowed_hosts,
                insecure_no_token=insecure_no_token,
                announce=lambda url: _console(stderr=True).print(
                    f"docstrata playground: [bold]{url}[/bold] (Ctrl+C to stop)"
                ),
            )
    except ConfigError as e:
        _fail(f"configuration: {e}")


_DISK_FULL = (
    "database or disk is full",
    "disk i/o error",
    "cannot rollback - no transaction is active",
    "no space left on device",
    "disk quota exceeded",
)


def _disk_full(e: BaseException) -> bool:
    """Whether ``e`` or an error it came from says the disk is full: SQLite's own words for
    ENOSPC, or the rollback failure that follows an I/O error; or an OSError ENOSPC/EDQUOT."""
    import errno

    seen = 0
    while e is not None and seen < 10:
        if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if any(s in str(e).lower() for s in _DISK_FULL):
            return True
        e, seen = e.__cause__ or e.__context__, seen + 1
    return False


def fault_message(e: BaseException) -> str:
    """One line naming what failed and what to do, for an error no command handled."""
    import errno
    import sqlite3

    from .redact import redact

    first = (redact(e).strip().splitlines() or [type(e).__name__])[0][:300]
    if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return (
            f"no space left writing {redact(e.filename or 'the index')}: free some space and run the command "
            "again (what was committed is kept)"
        )
    if isinstance(e, sqlite3.DatabaseError) and _disk_full(e):  # the index is healthy: the disk is not
        return (
            f"the disk is full or refused a write ({first}): free some space (or check the disk) and run the "
            "command again; the index is not damaged and what was committed is kept"
        )
    if isinstance(e, OSError) and e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"permission denied: {first}; run as a user who may write there, or point database.path elsewhere"
    if isinstance(e, sqlite3.DatabaseError):
        return (
            f"the index database failed: {first}; if it is damaged, move the tool's .docstrata folder aside "
            "and run 'docstrata ingest' to rebuild it"
        )
    if type(e).__module__.startswith("psycopg"):
        return f"PostgreSQL failed: {first}; check that the server is up and run the command again"
    return f"{type(e).__name__}: {first} (set DOCSTRATA_DEBUG=1 for the traceback)"


def main() -> None:
    """Entry point: any error no command handled is one line on stderr and exit code 1."""
    import os
    import sys

    try:
        app(prog_name="docstrata")  # also under `python -m docstrata.cli`, so completion scripts name `docstrata`
    except KeyboardInterrupt:
        print("interrupted (what was committed is kept)", file=sys.stderr)
        raise SystemExit(130) from None
    except Exception as e:  # noqa: BLE001 - the last line of defence against a traceback
        if os.environ.get("DOCSTRATA_DEBUG"):
            raise
        from .redact import escape_terminal

        print(f"Error: {escape_terminal(with_config(fault_message(e), _CONFIG))}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
