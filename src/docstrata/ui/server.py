"""The playground's HTTP server: the static page and a small JSON API over one open :class:`Toolset`.

Standard library only (``http.server``, one thread per request), so the page needs no extra
install and adds nothing to a search but JSON encoding. Routes (all answers JSON unless static):

=========================  ===================================================================
``GET /``                  the page (``static/index.html``); ``/static/*`` its CSS and JavaScript
``GET /api/tools``         ``[tool_info]`` (:func:`docstrata.ui.api.tool_info`)
``GET /api/documents``     ``?tool=`` → :func:`~docstrata.ui.api.documents`
``GET /api/document``      ``?tool=&document=`` → :func:`~docstrata.ui.api.document_view`
``GET /api/section``       ``?tool=&document=&section_id=`` (no section_id: the whole document) → :func:`~docstrata.ui.api.section_view`
``POST /api/search``       ``{tool, query, settings}`` → :func:`~docstrata.ui.api.search_view`
``POST /api/compare``      ``{tool, query, a, b}`` → :func:`~docstrata.ui.api.compare_view`
``POST /api/eval``         ``{tool, queries, qrels?, a, b, k?}`` → :func:`~docstrata.ui.api.eval_view`
=========================  ===================================================================

Access: bound to a loopback address (the default), the API answers only requests whose
``Host`` is a loopback name (a web page elsewhere cannot reach it through DNS rebinding).
With ``token_env`` — the HTTP MCP server's rule — every ``/api/`` request must carry
``Authorization: Bearer <token>``; the printed address carries the token in its fragment
(``#token=…``), which the browser keeps to itself and the page sends as that header. Bound off
loopback without a token, a warning is logged, as for the MCP server. Bad input is a 400 with
``{"error": message}``; an unknown route a 404.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, quote, urlsplit

from ..errors import ConfigError, DocstrataError
from . import api

log = logging.getLogger("docstrata.ui")

_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
_MAX_BODY = 32 * 1024 * 1024  # an uploaded query set and its qrels


def _static(name: str) -> bytes | None:
    """A file shipped in ``docstrata/ui/static`` (no sub-folders), or ``None``."""
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    f = resources.files("docstrata.ui").joinpath("static", name)
    return f.read_bytes() if f.is_file() else None


class PlaygroundServer(ThreadingHTTPServer):
    """A threading HTTP server holding the toolset, the token and the loopback flag."""

    daemon_threads = True

    def __init__(self, toolset, host: str, port: int, token: str | None):
        self.toolset, self.token = toolset, token
        self.loopback = host in _LOOPBACK or host.startswith("127.")
        super().__init__((host, port), _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}/" + (f"#token={quote(self.token)}" if self.token else "")


class _Handler(BaseHTTPRequestHandler):
    server: PlaygroundServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave at once: no 40 ms delayed-ACK stall

    def log_message(self, fmt, *args):  # requests go to the debug log, not to stderr
        log.debug("%s " + fmt, self.address_string(), *args)

    # ---- responses
    def _send(self, status: int, body: bytes, ctype: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, obj) -> None:
        self._send(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"))

    def _allowed(self) -> bool:
        if self.server.loopback:
            host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]")
            if host not in _LOOPBACK and not host.startswith("127."):
                self._json(403, {"error": f"host {host!r} refused: the playground answers loopback names only"})
                return False
        if self.server.token:
            given = (self.headers.get("Authorization") or "").encode()
            if not hmac.compare_digest(given, f"Bearer {self.server.token}".encode()):
                self._json(401, {"error": "missing or wrong bearer token (open the address printed at start)"})
                return False
        return True

    # ---- routing
    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        url = urlsplit(self.path)
        if not url.path.startswith("/api/"):
            name = "index.html" if url.path in ("/", "/index.html") else url.path.removeprefix("/static/")
            body = _static(name) if url.path in ("/", "/index.html") or url.path.startswith("/static/") else None
            if body is None:
                return self._json(404, {"error": f"no page {url.path}"})
            return self._send(200, body, _TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))
        q = {k: v[-1] for k, v in parse_qs(url.query).items()}
        self._api(url.path, q)

    def do_POST(self) -> None:  # noqa: N802
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        if length > _MAX_BODY:
            return self._json(413, {"error": f"request body over {_MAX_BODY // 2**20} MB"})
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(body, dict):
                raise ValueError("expected a JSON object")
        except ValueError as e:
            return self._json(400, {"error": f"bad JSON body: {e}"})
        self._api(url.path, body)

    def _api(self, path: str, q: dict) -> None:
        if not self._allowed():
            return
        routes = {"/api/tools": self._tools, "/api/documents": self._documents, "/api/document": self._document,
                  "/api/section": self._section, "/api/search": self._search, "/api/compare": self._compare,
                  "/api/eval": self._eval}
        handler = routes.get(path)
        if handler is None:
            return self._json(404, {"error": f"no API route {path}"})
        try:
            self._json(200, handler(q))
        except (DocstrataError, ValueError, KeyError) as e:  # QueryError is a ValueError
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            self._json(400, {"error": str(msg)})
        except Exception as e:  # noqa: BLE001 - the page shows it; the server keeps running
            log.exception("playground request %s failed", path)
            self._json(500, {"error": f"{type(e).__name__}: {e}"})

    def _tool(self, q: dict):
        name = q.get("tool")
        if not name:
            tools = list(self.server.toolset)
            if len(tools) == 1:
                return tools[0]
            raise KeyError("give a tool")
        return self.server.toolset[name]

    def _tools(self, q):
        return [api.tool_info(t) for t in self.server.toolset]

    def _documents(self, q):
        return api.documents(self._tool(q))

    def _document(self, q):
        return api.document_view(self._tool(q), _required(q, "document"))

    def _section(self, q):
        return api.section_view(self._tool(q), _required(q, "document"), q.get("section_id") or None)

    def _search(self, q):
        return api.search_view(self._tool(q), _required(q, "query"), api.Settings.from_dict(q.get("settings")))

    def _compare(self, q):
        return api.compare_view(self._tool(q), _required(q, "query"), api.Settings.from_dict(q.get("a")),
                                api.Settings.from_dict(q.get("b")))

    def _eval(self, q):
        k = int(q.get("k") or 10)
        return api.eval_view(self._tool(q), _required(q, "queries"), q.get("qrels") or None,
                             [("A", api.Settings.from_dict(q.get("a"))), ("B", api.Settings.from_dict(q.get("b")))],
                             k=k)


def _required(q: dict, name: str) -> str:
    v = q.get(name)
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"{name} is required")
    return v


def make_server(toolset, host: str = "127.0.0.1", port: int = 8000,
                token_env: str | None = None) -> PlaygroundServer:
    """A bound (not yet serving) playground server; ``port=0`` picks a free port (see ``.url``).

    Raises :class:`ConfigError` when ``token_env`` names an unset variable or the port is taken."""
    token = None
    if token_env:
        token = os.environ.get(token_env, "")
        if not token:
            raise ConfigError(f"--token-env names the environment variable {token_env}, but it is not set or empty")
    try:
        server = PlaygroundServer(toolset, host, port, token)
    except OSError as e:
        raise ConfigError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    if not server.loopback and not token:
        log.warning("serving the playground on %s without a bearer token: anyone who can reach this port can "
                    "query the tools (set one with --token-env)", host)
    return server


def serve_ui(toolset, host: str = "127.0.0.1", port: int = 8000, token_env: str | None = None,
             announce=print) -> None:
    """Serve the playground over ``toolset`` until interrupted; ``announce(url)`` is called once listening."""
    server = make_server(toolset, host, port, token_env)
    for t in toolset:  # load the embedding model while the user opens the page, not on the first search
        if t.cfg.semantic_weight > 0:
            threading.Thread(target=_warm, args=(t,), name=f"docstrata-warm-{t.name}", daemon=True).start()
    announce(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def _warm(tool) -> None:
    try:
        tool.embedder  # noqa: B018 - the property loads the model
    except Exception as e:  # noqa: BLE001 - the first search reports it properly
        log.warning("could not preload the embedding model of '%s': %s", tool.name, e)


def serve_in_thread(toolset, host: str = "127.0.0.1", port: int = 0,
                    token_env: str | None = None) -> tuple[PlaygroundServer, threading.Thread]:
    """Start a playground server in a daemon thread (tests, notebooks); stop it with ``server.shutdown()``."""
    server = make_server(toolset, host, port, token_env)
    thread = threading.Thread(target=server.serve_forever, name="docstrata-ui", daemon=True)
    thread.start()
    return server, thread


__all__ = ["make_server", "serve_ui", "serve_in_thread", "PlaygroundServer"]
