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

Access: the API answers only requests whose ``Host`` is a loopback IP literal (127.0.0.0/8,
``::1``), ``localhost``, the bound address or one of ``allowed_hosts`` (each with any port), so a
web page elsewhere cannot reach it through DNS rebinding; a request carrying an ``Origin`` (or
``Sec-Fetch-Site: cross-site``) must come from the page's own origin or an allowed host (403
otherwise: a cross-site POST is refused). With ``token_env`` — the HTTP MCP server's rule — every
``/api/`` request must carry ``Authorization: Bearer <token>`` (scheme case-insensitive); the
printed address carries the token in its fragment (``#token=…``), which the browser keeps to
itself and the page sends as that header. Bound off loopback without a token, the server refuses
to start unless ``insecure_no_token`` (:func:`docstrata.mcp_server.check_http_exposure`, the MCP
server's rule). Request bodies over 8 MB get 413, checked before they are read. Bad input is a
400 with ``{"error": message}``; an unknown route a 404.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, quote, urlsplit

from ..arg_limits import MAX_NAME_CHARS, MAX_QUERY_CHARS, check_length
from ..errors import ConfigError, DocstrataError
from ..ports import listen_error
from . import api

log = logging.getLogger("docstrata.ui")

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
_MAX_BODY = 8 * 1024 * 1024  # an uploaded query set and its qrels


def _hostname(value: str) -> str:
    """The host part of a ``Host`` header or an origin's authority (port and IPv6 brackets dropped), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value[1:]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def is_loopback_name(host: str) -> bool:
    """True for ``localhost`` and loopback IP literals (127.0.0.0/8, ``::1``); ``127.attacker.example`` is not one."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _static(name: str) -> bytes | None:
    """A file shipped in ``docstrata/ui/static`` (no sub-folders), or ``None``."""
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    f = resources.files("docstrata.ui").joinpath("static", name)
    return f.read_bytes() if f.is_file() else None


class PlaygroundServer(ThreadingHTTPServer):
    """A threading HTTP server holding the toolset, the token and the loopback flag."""

    daemon_threads = True

    def __init__(self, toolset, host: str, port: int, token: str | None, allowed_hosts: list[str] | None = None):
        self.toolset, self.token = toolset, token
        self.loopback = is_loopback_name(_hostname(host) if host.startswith("[") else host.lower())
        extra = [h for h in (allowed_hosts or []) if h]
        self.any_host = extra == ["*"]
        names = {_hostname(h) for h in extra if h != "*"}
        if host not in ("0.0.0.0", "::", ""):
            names.add(host.strip("[]").lower())
        self.allowed_names = names
        super().__init__((host, port), _Handler)

    def host_allowed(self, host_header: str) -> bool:
        """Whether a ``Host`` header (or an origin's authority) names this server: loopback, bound or allowed."""
        if self.any_host:
            return True
        name = _hostname(host_header)
        return bool(name) and (is_loopback_name(name) or name in self.allowed_names)

    @property
    def url(self) -> str:
        """The page's address, with the access token in its fragment (never sent to the server in a
        request line or a log)."""
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
        self.send_header(
            "Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"
        )
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, obj) -> None:
        self._send(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"))

    def _allowed(self) -> bool:
        host = self.headers.get("Host") or ""
        if not self.server.host_allowed(host):
            self._json(
                403,
                {
                    "error": f"host {_hostname(host)[:80]!r} refused: the playground answers loopback "
                    "names, its bound address and --allowed-host names only"
                },
            )
            return False
        origin = self.headers.get("Origin")
        if origin is not None and not self.server.any_host:
            parts = urlsplit(origin)
            same = parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()
            if not same and not (parts.scheme in ("http", "https") and self.server.host_allowed(parts.netloc)):
                self._json(403, {"error": f"origin {origin[:80]!r} refused: cross-site requests are not served"})
                return False
        elif (self.headers.get("Sec-Fetch-Site") or "").lower() == "cross-site" and not self.server.any_host:
            self._json(403, {"error": "cross-site request refused"})
            return False
        if self.server.token:
            scheme, _, given = (self.headers.get("Authorization") or "").strip().partition(" ")
            ok = scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.server.token.encode())
            if not ok:
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
        if not self._allowed():  # before reading a byte of the body
            self.close_connection = True
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > _MAX_BODY:
            self.close_connection = True
            return self._json(
                413 if length > 0 else 400,
                {"error": f"request body over {_MAX_BODY // 2**20} MB" if length > 0 else "bad Content-Length"},
            )
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(body, dict):
                raise ValueError("expected a JSON object")
        except ValueError as e:
            return self._json(400, {"error": f"bad JSON body: {e}"})
        self._api(url.path, body, checked=True)

    def _api(self, path: str, q: dict, checked: bool = False) -> None:
        if not checked and not self._allowed():
            return
        routes = {
            "/api/tools": self._tools,
            "/api/documents": self._documents,
            "/api/document": self._document,
            "/api/section": self._section,
            "/api/search": self._search,
            "/api/compare": self._compare,
            "/api/eval": self._eval,
        }
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
        check_length("section_id", q.get("section_id"), MAX_NAME_CHARS)
        return api.section_view(self._tool(q), _required(q, "document"), q.get("section_id") or None)

    def _search(self, q):
        return api.search_view(self._tool(q), _required(q, "query"), _settings(q.get("settings")))

    def _compare(self, q):
        return api.compare_view(self._tool(q), _required(q, "query"), _settings(q.get("a")), _settings(q.get("b")))

    def _eval(self, q):
        k = int(q.get("k") or 10)
        return api.eval_view(
            self._tool(q),
            _required(q, "queries"),
            q.get("qrels") or None,
            [("A", api.Settings.from_dict(q.get("a"))), ("B", api.Settings.from_dict(q.get("b")))],
            k=k,
        )


_LIMITS = {
    "query": MAX_QUERY_CHARS,
    "document": MAX_NAME_CHARS,
    "section": MAX_NAME_CHARS,
    "section_id": MAX_NAME_CHARS,
}


def _required(q: dict, name: str) -> str:
    """The non-empty string argument ``name``, within the MCP server's limit for it
    (:mod:`docstrata.arg_limits`); raises ``ValueError`` (a 400 answer) otherwise."""
    v = q.get(name)
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"{name} is required")
    if name in _LIMITS:
        check_length(name, v, _LIMITS[name])
    return v


def _settings(d) -> "api.Settings":
    """The page's search settings, their document and section names within the MCP limits."""
    for name in ("document", "section"):
        check_length(f"settings.{name}", (d or {}).get(name) if isinstance(d, dict) else None, _LIMITS[name])
    return api.Settings.from_dict(d)


def check_exposure(host: str, token: str | None, insecure_no_token: bool = False) -> None:
    """The MCP HTTP server's rule (:func:`docstrata.mcp_server.check_http_exposure`) for the
    playground: off loopback (any 127.0.0.0/8 or ``::1`` literal, or ``localhost``, counts as
    loopback) a bearer token is required unless ``insecure_no_token``. Raises :class:`ConfigError`."""
    from ..mcp_server import check_http_exposure

    loopback = is_loopback_name(_hostname(host) if host.startswith("[") else host.lower())
    check_http_exposure("127.0.0.1" if loopback else host, token, insecure_no_token)


def make_server(
    toolset,
    host: str = "127.0.0.1",
    port: int = 8000,
    token_env: str | None = None,
    allowed_hosts: list[str] | None = None,
    insecure_no_token: bool = False,
) -> PlaygroundServer:
    """A bound (not yet serving) playground server; ``port=0`` picks a free port (see ``.url``).

    ``allowed_hosts``: extra ``Host`` names accepted (``["*"]``: any, the operator's explicit
    choice). Raises :class:`ConfigError` when ``token_env`` names an unset variable, the port is
    taken, or ``host`` is off loopback without a token and without ``insecure_no_token``."""
    token = None
    if token_env:
        token = os.environ.get(token_env, "")
        if not token:
            raise ConfigError(f"--token-env names the environment variable {token_env}, but it is not set or empty")
    check_exposure(host, token, insecure_no_token)
    try:
        server = PlaygroundServer(toolset, host, port, token, allowed_hosts)
    except OSError as e:
        raise listen_error(host, port, e) from None
    return server


def serve_ui(
    toolset,
    host: str = "127.0.0.1",
    port: int = 8000,
    token_env: str | None = None,
    announce=print,
    allowed_hosts: list[str] | None = None,
    insecure_no_token: bool = False,
) -> None:
    """Serve the playground over ``toolset`` until interrupted; ``announce(url)`` is called once
    listening. Arguments as :func:`make_server`."""
    server = make_server(toolset, host, port, token_env, allowed_hosts, insecure_no_token)
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


def serve_in_thread(
    toolset,
    host: str = "127.0.0.1",
    port: int = 0,
    token_env: str | None = None,
    allowed_hosts: list[str] | None = None,
    insecure_no_token: bool = False,
) -> tuple[PlaygroundServer, threading.Thread]:
    """Start a playground server in a daemon thread (tests, notebooks); stop it with ``server.shutdown()``
    (which returns within 50 ms: the serving loop looks for it that often, not at the default 0.5 s)."""
    server = make_server(toolset, host, port, token_env, allowed_hosts, insecure_no_token)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="docstrata-ui", daemon=True
    )
    thread.start()
    return server, thread


__all__ = ["check_exposure", "is_loopback_name", "make_server", "serve_ui", "serve_in_thread", "PlaygroundServer"]
