"""`docstrata serve` on an index never ingested (issue 27 item 3): the server ingests before it
accepts calls, printing progress lines on stderr, so the first call answers at once; driven by
the official ``mcp`` client over stdio, as an MCP client configured from the README starts it."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from .test_mcp import server_env, text_of, write_corpus

AGENT_YAML = """\
tools:
  - name: policies
    type: hierarchical_document
    description: Policies
    source: docs/
"""


def test_serve_ingests_an_unindexed_folder_before_the_first_call_with_progress_on_stderr(tmp_path):
    config = write_corpus(tmp_path, AGENT_YAML)  # embedded index (the default), not ingested
    elsewhere = tmp_path / "elsewhere"  # a client starts the server from its own folder: absolute -c
    elsewhere.mkdir()
    errlog_path = tmp_path / "server.stderr"
    events: list[tuple] = []

    async def progress(done, total, message):
        events.append((done, total, message))

    async def go():
        params = StdioServerParameters(command=sys.executable,
                                       args=["-m", "docstrata.cli", "serve", "-c", str(config)],
                                       env=server_env(DOCSTRATA_PROGRESS_S="0"), cwd=str(elsewhere))
        with open(errlog_path, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, read_timeout_seconds=120) as session:
                    await session.initialize()
                    before_call = errlog_path.read_text()
                    result = await session.call_tool("policies_search", {"query": "Section 2.1", "top_k": 1},
                                                     progress_callback=progress)
                    return before_call, result

    before_call, result = anyio.run(go)
    assert not result.is_error, text_of(result)
    assert result.structured_content["results"][0]["section_id"] == "2.1"
    assert events == []  # nothing left to index at the first call
    lines = before_call.splitlines()  # progress was on stderr before the server answered initialize
    assert any(re.fullmatch(r"policies: 0 of 3 files done · \S+\.md", x) for x in lines), before_call
    assert "policies: 3 of 3 files done" in lines, before_call
    assert any(x.startswith("policies: indexed 3 file(s), ") for x in lines), before_call
    assert (Path(config).parent / ".docstrata").is_dir()  # the index is kept for the next start
