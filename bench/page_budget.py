"""What an MCP page of a section carries (s20): section text per page against ``max_chars``, and
the size of the whole tool result, read through the official ``mcp`` client as an agent reads it.

    HF_HUB_OFFLINE=1 /work/venv/bin/python bench/page_budget.py [--data ../shared/data/documents]
                                                                [--index /tmp/docstrata-page-bench]

Indexes three real documents of ``--data`` (GDPR as Markdown, RFC 8446 as text, the US
Constitution as PDF) into an embedded index under ``--index`` (kept: a second run skips the
ingest), spawns ``python -m docstrata.cli serve`` and reads long sections of them page by page
with ``*_get_section`` (``max_chars`` 1,500 and the default), following ``next_cursor`` to the
end. Printed per section and budget: pages; section text per page (``content``, every page but
the last: mean and least, and the mean as a share of ``max_chars``); the text form and the JSON
form (``structuredContent``, compact) per page, most, and what each adds to the page's text
(the envelope: citation, cursor, chunk ids), most; the whole result per page as the client
received it (``CallToolResult`` as JSON, UTF-8 bytes), most; and whether the pages joined give
the section whole. Then the same for ``*_get_neighbours`` and, for comparison, ``*_search``
(passage characters against the answer's size, which ``max_chars`` budgets there).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
SHARED_DOCS = REPO.parent / "shared" / "data" / "documents"
FILES = ("md/gdpr_regulation_eu_2016_679.md", "txt/rfc8446_tls13.txt", "pdf/us_constitution.pdf")
SECTIONS = (("gdpr_regulation_eu_2016_679", "Article 4"), ("gdpr_regulation_eu_2016_679", "Chapter III"),
            ("rfc8446_tls13", "4.2"), ("us_constitution", "Article I"))
BUDGETS = (1500, None)  # None: the tool's default
QUERIES = ("right to erasure", "What is personal data?", "TLS 1.3 key schedule", "powers of Congress")


def _text(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def _json_size(data) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def _wire_bytes(result) -> int:
    """The tool result as the client received it, re-serialised: content blocks + structuredContent."""
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode("utf-8"))


async def drive(config: Path, env: dict) -> dict:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "docstrata.cli", "serve", "-c", str(config)],
                                   env=env, cwd=str(config.parent))
    out: dict = {"sections": [], "neighbours": [], "search": []}
    with open(config.parent / "server.stderr", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=3600) as session:
                await session.initialize()
                for doc, section in SECTIONS:
                    whole = await session.call_tool("docs_get_section", {"document": doc, "section_id": section,
                                                                         "max_chars": 1_000_000})
                    if whole.is_error:
                        print(f"{doc} {section}: {_text(whole)}", file=sys.stderr)
                        continue
                    for budget in BUDGETS:
                        base = {"document": doc, "section_id": section} | ({"max_chars": budget} if budget else {})
                        pages, cursor, joined = [], None, ""
                        while True:
                            r = await session.call_tool("docs_get_section", base | ({"cursor": cursor} if cursor else {}))
                            assert not r.is_error, _text(r)
                            d = r.structured_content
                            joined += d["content"]
                            pages.append((len(d["content"]), len(_text(r)), _json_size(d), _wire_bytes(r)))
                            cursor = d["next_cursor"]
                            if not cursor:
                                break
                        out["sections"].append({"what": f"{doc} § {section}", "budget": budget, "pages": pages,
                                                "total": whole.structured_content["total_chars"],
                                                "complete": joined == whole.structured_content["content"]})
                for q in QUERIES:
                    for budget in (4000, None):
                        r = await session.call_tool("docs_search", {"query": q, "top_k": 5}
                                                    | ({"max_chars": budget} if budget else {}))
                        d = r.structured_content
                        out["search"].append({"query": q, "budget": budget,
                                              "content": sum(len(h["content"]) for h in d["results"]),
                                              "hits": len(d["results"]), "text": len(_text(r)), "json": _json_size(d),
                                              "wire": _wire_bytes(r)})
                        if budget is None and d["results"]:
                            for mc in (1500, None):
                                n = await session.call_tool("docs_get_neighbours", {"chunk_id": d["results"][0]["id"]}
                                                            | ({"max_chars": mc} if mc else {}))
                                nd = n.structured_content
                                out["neighbours"].append({"query": q, "budget": mc,
                                                          "content": sum(len(c["content"]) for c in nd["chunks"]),
                                                          "text": len(_text(n)), "json": _json_size(nd),
                                                          "wire": _wire_bytes(n)})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, default=SHARED_DOCS)
    p.add_argument("--index", type=Path, default=Path("/tmp/docstrata-page-bench"))
    a = p.parse_args()
    missing = [f for f in FILES if not (a.data / f).is_file()]
    if missing:
        sys.exit(f"{', '.join(missing)} absent under {a.data}: this benchmark needs the shared documents")
    docs = a.index / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for f in FILES:
        copy = docs / Path(f).name  # a copy: the ingest does not follow symbolic links
        if copy.is_symlink():
            copy.unlink()
        if not copy.exists():
            shutil.copyfile(a.data / f, copy)
    config = a.index / "agent.yaml"
    config.write_text(f"tools:\n  - name: docs\n    type: hierarchical_document\n    description: real documents\n"
                      f"    source: {docs}\n    database: {{provider: embedded, path: {a.index / 'idx'}}}\n",
                      encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH", "TMPDIR")}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    os.environ.update(env)
    import docstrata

    with docstrata.open(config) as ts:
        report = ts["docs"].ingest()
    print(f"{report.files_total} files, {report.chunks_total} chunks")
    res = anyio.run(drive, config, env)
    print(f"\n{'get_section':<42} {'max_chars':>9} {'pages':>5} {'content/page':>12} {'least':>6} {'share':>6} "
          f"{'text max':>8} {'json max':>8} {'+text':>5} {'+json':>5} {'bytes max':>9} whole")
    for r in res["sections"]:
        body = [p[0] for p in r["pages"][:-1]] or [r["pages"][0][0]]
        budget = r["budget"] or 8000
        print(f"{r['what'][:42]:<42} {str(r['budget'] or 'default'):>9} {len(r['pages']):>5} "
              f"{statistics.mean(body):>12.0f} {min(body):>6} {statistics.mean(body) / budget:>6.2f} "
              f"{max(p[1] for p in r['pages']):>8} {max(p[2] for p in r['pages']):>8} "
              f"{max(p[1] - p[0] for p in r['pages']):>5} {max(p[2] - p[0] for p in r['pages']):>5} "
              f"{max(p[3] for p in r['pages']):>9} {r['complete']}")
    print(f"\n{'get_neighbours of the first hit for':<42} {'max_chars':>9} {'content':>8} {'text':>6} {'json':>6} {'bytes':>6}")
    for r in res["neighbours"]:
        print(f"{r['query'][:42]:<42} {str(r['budget'] or 'default'):>9} {r['content']:>8} {r['text']:>6} "
              f"{r['json']:>6} {r['wire']:>6}")
    print(f"\n{'search (top_k 5)':<42} {'max_chars':>9} {'hits':>4} {'passages':>8} {'text':>6} {'json':>6} {'bytes':>6}")
    for r in res["search"]:
        print(f"{r['query'][:42]:<42} {str(r['budget'] or 'default'):>9} {r['hits']:>4} {r['content']:>8} "
              f"{r['text']:>6} {r['json']:>6} {r['wire']:>6}")


if __name__ == "__main__":
    main()
