"""Answer sizes over MCP (issue 15 "Done when"): search answers within their budget with the same
hits, definitions once, and get_section of whole documents in pages with a cursor to the end.

    HF_HUB_OFFLINE=1 /work/venv/bin/python bench/answer_size.py [--source ../shared/data/documents]
                                                               [--index /tmp/docstrata-answer-bench]

The tool indexes ``--source`` (default ../shared/data/documents) into an embedded index under
``--index`` (kept, so a second run skips the ingest), then a server is spawned with
``python -m docstrata.cli serve`` and driven with the mcp SDK's stdio client, as an agent would.
Printed per query: characters of the default answer (text and JSON) and of the same search with no
budget (``max_chars`` 10^6), whether the hits are the same, how many passages were cut (a
pinpointed hit, shown as its cited sub-item, counts as cut) and how many are pinpoints, and the
most times any definition's text occurs in the answer. Then, for the largest documents: the
first page of ``get_section`` on the document root, the number of pages to the end by cursor,
and whether the pages put together equal the whole document.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
SHARED_DOCS = REPO.parent / "shared" / "data" / "documents"

QUERIES = [
    "What is personal data?", "right to erasure", "Article 17", "data protection officer tasks",
    "notification of a personal data breach to the supervisory authority", "consent of the data subject",
    "powers of the President", "Section 8 of Article I", "impeachment", "limitation of liability",
    "confidential information exclusions", "subprocessor obligations", "governing law", "payment terms fees",
    "TLS 1.3 handshake key schedule", "Section 4.2.1", "what is a pre-shared key", "firearms dealer records",
    "the of and", "quantum chromodynamics of gluons",
    # pinpoints: the cited sub-item is shown with its lead-in, its offsets in the chunk in "pinpoint"
    "Art. 17(3)(b)", "Article 83(5)(a) administrative fines", "Article 9(2)(j) archiving",
]


def _size(data) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def _text(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def _max_repeat(text: str, definitions: list[dict]) -> int:
    """The most times any definition's text occurs in ``text`` (two documents may define a term
    with texts sharing a beginning: the whole text is counted)."""
    counts = [text.count(d["definition"]) for d in definitions if len(d["definition"]) >= 40
              and not d["definition"].startswith("(stated in passage")]
    return max(counts, default=0)


async def drive(config: Path, env: dict) -> dict:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "docstrata.cli", "serve", "-c", str(config)],
                                   env=env, cwd=str(config.parent))
    out: dict = {"search": [], "sections": []}
    with open(config.parent / "server.stderr", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=3600) as session:
                await session.initialize()
                for q in QUERIES:
                    t = time.perf_counter()
                    answer = await session.call_tool("docs_search", {"query": q})
                    ms = (time.perf_counter() - t) * 1000
                    full = await session.call_tool("docs_search", {"query": q, "max_chars": 200_000})
                    a, f = answer.structured_content, full.structured_content
                    # the unbudgeted answer as it was before budgets: each hit with its definitions pasted in
                    old = sum(len(h["content"]) + sum(len(d["definition"]) for d in f["definitions"]
                                                      if d["term"] in h.get("definitions", [])) for h in f["results"])
                    out["search"].append({
                        "query": q, "text": len(_text(answer)), "json": _size(a), "full_text": len(_text(full)),
                        "full_json": _size(f), "old_estimate": old,
                        "same_hits": [h["id"] for h in a["results"]] == [h["id"] for h in f["results"]],
                        "hits": len(a["results"]), "cut": sum(bool(h.get("truncated")) for h in a["results"]),
                        "pinpoints": sum("pinpoint" in h for h in a["results"]),
                        "max_def_repeat": _max_repeat(_text(answer), a["definitions"]),
                        "confidence": a["confidence"]["level"], "ms": ms})
                listed = (await session.call_tool("docs_list_documents", {"limit": 200})).structured_content
                biggest = sorted(listed["documents"], key=lambda d: -d["total_chunks"])[:4]
                for doc in biggest:
                    whole = (await session.call_tool("docs_get_section", {"document": doc["doc_key"],
                                                                          "max_chars": 1_000_000})).structured_content
                    first = await session.call_tool("docs_get_section", {"document": doc["doc_key"]})
                    pages, text, cursor = 1, first.structured_content["content"], first.structured_content["next_cursor"]
                    while cursor:
                        page = (await session.call_tool("docs_get_section", {"document": doc["doc_key"],
                                                                             "cursor": cursor})).structured_content
                        pages, text, cursor = pages + 1, text + page["content"], page["next_cursor"]
                    out["sections"].append({"document": doc["doc_key"], "total_chars": whole["total_chars"],
                                            "first_text": len(_text(first)),
                                            "first_json": _size(first.structured_content), "pages": pages,
                                            "complete": text == whole["content"]})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source", type=Path, default=SHARED_DOCS)
    p.add_argument("--index", type=Path, default=Path("/tmp/docstrata-answer-bench"))
    a = p.parse_args()
    if not a.source.is_dir():
        sys.exit(f"{a.source} is absent: this benchmark needs the shared documents")
    a.index.mkdir(parents=True, exist_ok=True)
    config = a.index / "agent.yaml"
    config.write_text(f"tools:\n  - name: docs\n    type: hierarchical_document\n    description: shared documents\n"
                      f"    source: {a.source.resolve()}\n    database: {{provider: embedded, path: {a.index / 'idx'}}}\n",
                      encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH", "TMPDIR")}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    os.environ.update(env)
    import docstrata

    t = time.perf_counter()
    with docstrata.open(config) as ts:
        report = ts["docs"].ingest()
    print(f"source {a.source}: {report.files_total} files, {report.chunks_total} chunks "
          f"(ingest {time.perf_counter() - t:.0f} s, {report.chunks} chunks written)")
    res = anyio.run(drive, config, env)
    print(f"\n{'query':<58} {'text':>6} {'json':>6} {'unbudgeted':>10} {'same':>5} {'cut':>4} {'pin':>4} {'defx':>4} conf")
    for r in res["search"]:
        print(f"{r['query'][:58]:<58} {r['text']:>6} {r['json']:>6} {r['full_text']:>10} {str(r['same_hits']):>5} "
              f"{r['cut']:>4} {r['pinpoints']:>4} {r['max_def_repeat']:>4} {r['confidence']}")
    s = res["search"]
    print(f"\ndefault search answer: text max {max(r['text'] for r in s)}, median {statistics.median(r['text'] for r in s):.0f}; "
          f"JSON max {max(r['json'] for r in s)}; unbudgeted text max {max(r['full_text'] for r in s)}, "
          f"median {statistics.median(r['full_text'] for r in s):.0f}; old form (definitions per hit) max "
          f"{max(r['old_estimate'] for r in s)}")
    print(f"same hits as unbudgeted: {sum(r['same_hits'] for r in s)}/{len(s)}; most repeats of one definition: "
          f"{max(r['max_def_repeat'] for r in s)}; call p50 {statistics.median(r['ms'] for r in s):.0f} ms")
    print(f"\n{'document root (get_section)':<50} {'chars':>8} {'page1 text':>10} {'json':>6} {'pages':>5} complete")
    for r in res["sections"]:
        print(f"{r['document'][:50]:<50} {r['total_chars']:>8} {r['first_text']:>10} {r['first_json']:>6} "
              f"{r['pages']:>5} {r['complete']}")


if __name__ == "__main__":
    main()
