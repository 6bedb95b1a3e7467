"""A port another program holds, said with what to do about it.

The default port 8000 is a common one (HoloDeck's Chroma server, Django, many dev servers); a
``docstrata serve --transport http`` or ``docstrata ui`` that cannot bind says so and names the
``--port`` option, before anything is loaded.
"""

from __future__ import annotations

import socket

from .errors import ConfigError


def listen_error(host: str, port: int, e: OSError) -> ConfigError:
    """The :class:`ConfigError` for a failed bind of ``host:port``: the reason, then the option."""
    return ConfigError(
        f"cannot listen on {host}:{port}: {e.strerror or e}; another program may hold the port "
        f"(HoloDeck's Chroma server uses 8000): pick another with --port, e.g. --port {port + 1}"
    )


def check_port_free(host: str, port: int) -> None:
    """Raise :func:`listen_error`'s error when ``host:port`` cannot be bound now (port 0 always can)."""
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a TIME_WAIT port is free
        try:
            s.bind((host, port))
        except OSError as e:
            raise listen_error(host, port, e) from None
