"""Follow-up commands the CLI prints, runnable as printed from any folder.

An answer that says "read on with ``docstrata get-section … --cursor …``" or "whole chunk:
``docstrata neighbours …``", or a warning that says "``docstrata ingest --force`` retries it",
is copied into a shell by a person or an agent, often in another folder than the one the first
command ran in. So every such command names the configuration by its absolute path (``-c
/abs/agent.yaml``; the default ``agent.yaml`` too, resolved against the folder the command ran
in) and every argument is quoted for a POSIX shell (:func:`shlex.quote`).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path


def config_option(config: str | Path) -> str:
    """`` -c '/abs/path/agent.yaml'``: the option naming ``config`` (as given on the command line,
    relative to the current folder) by its absolute path, quoted for a shell."""
    return f" -c {shlex.quote(str(Path(config).expanduser().resolve()))}"


def command(subcommand: str, *args: str, config: str | Path, tool: str | None = None, raw: str = "") -> str:
    """``docstrata <subcommand> -c <abs config> [-t tool] <args…> <raw>``: each of ``args``
    quoted, ``raw`` (options already quoted by the caller) appended as is."""
    parts = [f"docstrata {subcommand}{config_option(config)}"]
    if tool:
        parts.append(f"-t {shlex.quote(tool)}")
    parts += [shlex.quote(a) for a in args]
    if raw:
        parts.append(raw)
    return " ".join(parts)


# a command the library's messages name ("`docstrata ingest --force` retries it", "run 'docstrata
# ingest' to rebuild it"): the library does not know which configuration the user gave
_QUOTED_COMMAND_RE = re.compile(r"(?P<q>[`'])(?P<cmd>docstrata [a-z][a-z-]*(?:\s[^`'\n]*?)?)(?P=q)")


def with_config(message: str, config: str | Path) -> str:
    """``message`` with ``-c <abs config>`` appended to each ``docstrata <subcommand> …`` it
    quotes (in backticks or single quotes, given back in backticks) that names no configuration
    yet: "`docstrata ingest --force` retries it" → "`docstrata ingest --force -c /abs/agent.yaml`
    retries it"."""
    opt = config_option(config)

    def add(m: re.Match) -> str:
        cmd = m["cmd"]
        if re.search(r"\s(?:-c|--config)\b", cmd):
            return m.group(0)
        return f"`{cmd}{opt}`"  # backticks: a quoted path inside stays copyable

    return _QUOTED_COMMAND_RE.sub(add, message)
