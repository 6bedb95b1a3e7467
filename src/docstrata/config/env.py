"""The environment a config reads: ``${VAR}`` / ``${VAR:-default}`` in string values, and the
``.env`` file beside the config (loaded as HoloDeck loads a project's)."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any

from ..errors import ConfigError

log = logging.getLogger("docstrata")

_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def _substitute_env(value: Any, path: str, used: dict[str, str] | None = None) -> Any:
    """``value`` with ``${VAR}`` / ``${VAR:-default}`` replaced from the environment. ``used``
    collects YAML path → variable name, so errors can name the variable instead of echoing its value;
    values of secret-looking variables (and of DSN / URL fields) are registered with the redactor."""
    from ..redact import register_secret, secret_env_name

    if isinstance(value, str):
        leaf = path.rsplit(".", 1)[-1]

        def repl(m: re.Match) -> str:
            name, default = m.group(1), m.group(2)
            if used is not None:
                used[path] = name
            if name in os.environ:
                if secret_env_name(name) or leaf in ("dsn", "url", "connection_string"):
                    register_secret(os.environ[name])
                return os.environ[name]
            if default is not None:
                return default
            raise ConfigError(f"environment variable {name} is not set", path=path)

        return _ENV.sub(repl, value)
    if isinstance(value, list):
        return [_substitute_env(v, f"{path}[{i}]", used) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: _substitute_env(v, f"{path}.{k}" if path else str(k), used) for k, v in value.items()}
    return value


def load_dotenv_beside(config_path: str | Path) -> list[str]:
    """Read the ``.env`` file in the config file's folder into the environment, as HoloDeck loads
    a project's ``.env``: variables already set win (it never overrides), ``${VAR}`` in the YAML
    and ``api_key_env`` then see its values. Returns the names it set (logged at debug level, never
    their values; secret-looking ones are registered with the redactor)."""
    env_file = Path(config_path).resolve().parent / ".env"
    if not env_file.is_file():
        return []
    from dotenv import dotenv_values

    from ..redact import register_secret, secret_env_name

    try:
        values = dotenv_values(env_file)
    except (OSError, UnicodeDecodeError) as e:
        log.warning("%s: not read (%s)", env_file, type(e).__name__)
        return []
    added = []
    for name, value in values.items():
        if value is None or name in os.environ:
            continue
        os.environ[name] = value
        if secret_env_name(name):
            register_secret(value)
        added.append(name)
    if added:
        log.debug("%s: set %s", env_file, ", ".join(added))
    return added
