"""Every HoloDeck sample agent.yaml of a holodeck-samples checkout, with its own data (issue 16).

    python bench/holodeck_samples.py CHECKOUT [--glob '*/*/agent.yaml']

CHECKOUT is a copy of github.com/justinbarias/holodeck-samples (its data files included; the large
convfinqa files may be absent). Each sample folder is copied to a temporary directory and, as it
is, validated against ``docstrata schema``, loaded (with its ``config.yaml``), every docstrata tool
ingested, and each of the file's own ``test_cases`` inputs searched on the tools it expects. The
hosted embedders the files name (OpenAI, Azure OpenAI, Ollama on localhost:11434) are
``tests/fake_llm_server.py`` on port 11434 serving the bundled all-MiniLM-L6-v2's vectors; the
Chroma server the samples' ``config.yaml`` names (localhost:8000) is started with ``chroma run``.
Prints one row per file: schema, tools, chunks, queries with a hit (the files' own
``min_similarity_score`` applies, calibrated for OpenAI's models, so a miss is not an error), and
the number of warning lines logged.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


class _Count(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def main() -> None:
    import jsonschema
    import yaml

    import docstrata
    from docstrata.config import json_schema
    from docstrata.embed import Embedder
    from tests.chroma_server import running_chroma_server
    from tests.fake_llm_server import FakeLLMServer

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--glob", default="*/*/agent.yaml")
    args = ap.parse_args()
    schema = json.loads(json_schema())
    model = Embedder()
    tmp = Path(tempfile.mkdtemp(prefix="holodeck-samples-"))
    counter = _Count()
    logging.getLogger("docstrata").addHandler(counter)
    rows = []
    with FakeLLMServer(port=11434, embed=lambda texts, dim: model.encode(texts).tolist()) as server, \
            running_chroma_server(tmp, 8000):
        os.environ.update(OPENAI_API_KEY="sk-bench", OPENAI_BASE_URL=f"{server.url}/v1",
                          AZURE_OPENAI_ENDPOINT=server.url, AZURE_OPENAI_API_KEY="az-bench",
                          AZURE_OPENAI_DEPLOYMENT_NAME="gpt-4o",
                          AZURE_OPENAI_EMBEDDING_DEPLOYMENT_NAME="text-embedding-3-small",
                          QDRANT_URL=str(tmp / "qdrant"), OPENSEARCH_PASSWORD="unused", HOME=str(tmp / "home"))
        for path in sorted(args.checkout.glob(args.glob)):
            rel = path.relative_to(args.checkout).as_posix()
            work = tmp / rel.replace("/", "_")
            shutil.copytree(path.parent, work)
            data = yaml.safe_load(path.read_text())
            try:
                jsonschema.validate(data, schema)
                valid = "valid"
            except jsonschema.ValidationError as e:
                valid = f"INVALID ({e.message[:80]})"
            cases = data.get("test_cases") or []
            counter.lines.clear()
            chunks, hit, asked, result = 0, 0, 0, "ok"
            try:
                with docstrata.open(work / path.name) as tools:
                    names = list(tools.tools)
                    for name, tool in tools.tools.items():
                        report = tool.ingest()
                        chunks += report.chunks_total
                        if report.skipped:
                            result = f"skipped {report.skipped}"
                        for c in cases:
                            if name in (c.get("expected_tools") or []):
                                asked += 1
                                hit += bool(tool.search(c["input"]))
            except Exception as e:  # noqa: BLE001 - a bench row, not a crash
                names, result = [], f"{type(e).__name__}: {str(e)[:160]}"
            rows.append((rel, valid, len(names), chunks, f"{hit}/{asked}", len(counter.lines), result))
            print(f"{rel}: {rows[-1][1:]}", flush=True)
    print("\n| file | schema | tools | chunks | test-case queries with a hit | warning lines | result |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
