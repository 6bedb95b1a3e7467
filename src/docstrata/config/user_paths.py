"""Errors raised by a provider with its own field names, re-raised at the YAML path the user wrote."""

from __future__ import annotations

from ..errors import ConfigError

_KEY_HINT = (
    "set it (in the environment or in a .env file beside the config), or drop embedding_model to "
    "embed with the bundled local model"
)


def at_user_path(e: ConfigError, cfg, path: str | None = None) -> ConfigError:
    """``e`` (raised by an embedder or reranker with its own field names, such as
    ``embedding_provider.api_key_env``) re-raised at the YAML path the user wrote: ``path``, or
    where the tool's embedding provider came from (its own, the top-level one, the agent's
    ``model``, or ``embedding_model`` for an OpenAI model), with what to do for a missing key.
    ``cfg`` is the tool's config (``provider_path()``, ``yaml_path``)."""
    msg = str(e)
    if e.path and msg.startswith(e.path + ": "):
        msg = msg[len(e.path) + 2 :]
    if path is None:
        path = (
            cfg.provider_path()
            if e.path.startswith("embedding_provider") or "API key" in msg
            else f"{cfg.yaml_path}.{e.path or 'embedding_model'}"
        )
        if "API key is not set" in msg:
            msg += f"; {_KEY_HINT}"
    elif "API key is not set" in msg:
        msg += "; set it (in the environment or in a .env file beside the config), or turn enable_reranking off"
    return ConfigError(msg, path=path, file=e.file)
