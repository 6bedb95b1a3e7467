"""What HoloDeck itself resolves or accepts around the tools: its top-level keys, its
``config.yaml`` (named vectorstores, providers), its agent ``model`` as embedding provider, and the
one-line summary of everything docstrata ignores."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .env import _substitute_env
from .models import DatabaseConfig
from .yaml_text import load_yaml

# HoloDeck's own top-level keys: accepted and skipped (docstrata reads tools and embedding_provider).
HOLODECK_TOP_LEVEL = {
    "name": "Agent name (HoloDeck)",
    "description": "Agent description (HoloDeck)",
    "author": "Agent author (HoloDeck)",
    "model": "The agent's LLM (HoloDeck)",
    "instructions": "System prompt, inline or file (HoloDeck)",
    "response_format": "Structured output schema (HoloDeck)",
    "evaluations": "Evaluation metrics (HoloDeck)",
    "test_cases": "Test scenarios (HoloDeck)",
    "test_cases_file": "Test scenarios in a file (HoloDeck)",
    "tool_filtering": "Per-request tool filtering (HoloDeck)",
    "execution": "Execution settings (HoloDeck)",
    "observability": "Tracing and metrics (HoloDeck)",
    "deployment": "Deployment settings (HoloDeck)",
    "claude": "Claude Agent SDK settings (HoloDeck)",
    "openai": "OpenAI Agents settings (HoloDeck)",
}
KNOWN_TOP_LEVEL = ("tools", "embedding_provider", *HOLODECK_TOP_LEVEL)
"""Top-level keys accepted silently-by-name: ours and HoloDeck's (its ``Agent`` model, extra="forbid",
plus ``test_cases_file`` and ``tool_filtering`` of earlier releases). A key one edit from one of them
is refused with a "did you mean"; any other key is ignored with a notice (schema and loader alike)."""


def _model_as_embedding_provider(model: Any) -> dict | None:
    """HoloDeck embeds with the agent's ``model`` provider when it has embeddings (openai,
    azure_openai, ollama): its connection fields, as an embedding provider (never its chat model name)."""
    if not isinstance(model, dict) or model.get("provider") not in ("openai", "azure_openai", "ollama"):
        return None
    return {k: model[k] for k in ("provider", "endpoint", "api_key", "api_version") if model.get(k) is not None}


def summarize_notices(notices: list[str]) -> str | None:
    """One line for every notice of a config file: what was ignored, by name (details: ``-v``)."""
    if not notices:
        return None
    top = [re.search(r"'([^']+)'", n).group(1) for n in notices if n.startswith("ignoring top-level key")]
    tools = [
        re.sub(r"ignoring tool '([^']+)' of type '([^']+)'.*", r"\1 (\2)", n)
        for n in notices
        if n.startswith("ignoring tool ")
    ]
    fields = [n.split(":", 1)[0].split(".", 1)[-1] for n in notices if re.match(r"tools\[\d+\]\.", n)]
    kw_index = "keyword_index" in fields
    fields = [f for f in fields if f != "keyword_index"]
    other = [
        n
        for n in notices
        if not n.startswith(("ignoring top-level key", "ignoring tool ")) and not re.match(r"tools\[\d+\]\.", n)
    ]
    parts = []
    if top:
        parts.append(f"top-level {', '.join(top)}")
    if tools:
        parts.append(f"tools {', '.join(tools)}")
    if fields:
        parts.append(f"fields {', '.join(dict.fromkeys(fields))}")
    if kw_index:
        parts.append("keyword_index: docstrata's own BM25 is used")
    line = (
        f"ignored {len(notices) - len(other)} HoloDeck-only setting(s) docstrata does not use: {'; '.join(parts)}"
        if parts
        else ""
    )
    line = "; ".join(x for x in [line, *other] if x)
    return line + " (details: -v)"


def holodeck_global_config(agent_dir: str | Path) -> tuple[dict, list[str]]:
    """HoloDeck's shared settings for an agent: ``config.yaml`` (or ``.yml``) beside it over
    ``~/.holodeck/config.yaml``, merged as HoloDeck merges them (the project's keys win).
    Returns (the merged mapping, the files read). A file that cannot be read or parsed is skipped
    (it is HoloDeck's, not ours; HoloDeck reports it)."""
    import yaml

    merged: dict = {}
    files: list[str] = []
    for folder in (Path.home() / ".holodeck", Path(agent_dir)):
        for name in ("config.yaml", "config.yml"):
            f = folder / name
            if not f.is_file():
                continue
            try:
                data = load_yaml(f.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError):
                break
            if isinstance(data, dict):
                for key, value in data.items():
                    if isinstance(value, dict) and isinstance(merged.get(key), dict):
                        merged[key] = {**merged[key], **value}
                    else:
                        merged[key] = value
                files.append(str(f))
            break
    return merged, files


def apply_holodeck_config(data: Any, agent_dir: str | Path) -> list[str]:
    """Resolve what HoloDeck resolves from its ``config.yaml`` before validating ``data`` (in place):
    a vectorstore tool's ``database: <name>`` naming one of its ``vectorstores`` becomes that store
    (``provider``, ``connection_string``, ``options``; ``postgresql`` read as ``postgres``; a
    postgres store's libpq ``options`` such as ``sslmode`` join its DSN as URI parameters), and the
    agent's ``model`` takes the matching ``providers`` entry's keys it does not set itself (its
    endpoint and key, which a hosted ``embedding_model`` then uses). Returns what was resolved, one
    line each (logged at debug level: it is what HoloDeck itself does, nothing ignored)."""
    if not isinstance(data, dict):
        return []
    shared, files = holodeck_global_config(agent_dir)
    if not files:
        return []
    out: list[str] = []
    stores = shared.get("vectorstores")
    if not isinstance(stores, dict):
        stores = {}
    for i, tool in enumerate(data.get("tools") or []):
        if not isinstance(tool, dict) or tool.get("type") != "vectorstore" or not isinstance(tool.get("database"), str):
            continue
        named = stores.get(tool["database"])
        if not isinstance(named, dict) or not named.get("provider"):
            continue
        db = {"provider": {"postgresql": "postgres"}.get(str(named["provider"]).lower(), named["provider"])}
        conn = named.get("connection_string")
        options = dict(named.get("options") or {}) if isinstance(named.get("options"), dict) else {}
        if db["provider"] == "postgres" and conn and options:  # libpq settings (sslmode, …): URI parameters
            from urllib.parse import urlencode

            extra = {k: v for k, v in options.items() if k not in DatabaseConfig.model_fields}
            try:  # ${VAR} first: where the parameters go depends on the DSN it holds
                conn = _substitute_env(str(conn), f"tools[{i}].database.connection_string")
            except ConfigError:
                pass  # reported where the tool is validated
            conn = f"{conn}{'&' if '?' in str(conn) else '?'}{urlencode(extra)}" if extra else conn
            options = {k: v for k, v in options.items() if k in DatabaseConfig.model_fields}
        if conn:
            db["connection_string"] = conn
        db.update(options)
        out.append(f"tools[{i}].database: '{tool['database']}' is the vectorstore of that name in {files[-1]}")
        tool["database"] = db
    providers = shared.get("providers") if isinstance(shared.get("providers"), dict) else {}
    model = data.get("model")
    if isinstance(model, dict) and model.get("provider") and providers:
        entry = providers.get(model["provider"]) or next(
            (p for p in providers.values() if isinstance(p, dict) and p.get("provider") == model["provider"]), None
        )
        if isinstance(entry, dict):
            for key, value in entry.items():
                model.setdefault(key, value)
    return out
