"""A real HTTP server on 127.0.0.1 that speaks the Anthropic Messages API (``POST /v1/messages``),
the OpenAI Chat Completions API (``POST /v1/chat/completions``), the OpenAI embeddings API
(``POST /v1/embeddings``, also Azure's ``/openai/deployments/<d>/embeddings``) and Ollama's native
``POST /api/embed``, for driving the real SDK clients in tests.

Embeddings are a hashed bag of words (:func:`bag_of_words`, ``embedding_dim`` components, or the
request's ``dimensions``), so texts sharing words are near and search behaves like search. An input
longer than ``max_input_chars`` is refused with HTTP 400, as a server with a context limit would
(Ollama with ``truncate: false``; OpenAI's "maximum context length").

Answers are derived from the request: the context for a chunk is ``"Situated: <first words of
the chunk>"``, capped at the request's ``max_tokens`` words. Anthropic prompt caching is modelled:
a text block marked ``cache_control`` is "written" the first time it is seen and "read"
afterwards (``cache_creation_input_tokens`` / ``cache_read_input_tokens``; a token is a word
here). OpenAI reports a repeated document prefix as ``prompt_tokens_details.cached_tokens``.

A prompt in RankGPT's listwise form gets a permutation (:func:`rank_by_overlap`).

Misbehaviour is scripted with :meth:`FakeLLMServer.script`: a list of :class:`Reply` consumed one
per request in arrival order (then ``default``), or a ``rule(request) -> Reply | None`` consulted
first. Every request is logged with its arrival and answer times and the number of requests in
flight when it arrived, so tests can check timing and concurrency from the server's side.

Concurrency is measured deterministically with a barrier: a reply with ``hold_until=N`` keeps its
request open until ``N`` requests are in flight (or ``hold_timeout`` passes), so the peak the server
sees is the concurrency the client allows, not how fast threads happened to start on a busy machine.
A request stops counting as in flight, and gets its ``finished`` time, just *before* its answer is
written: the client cannot have the answer earlier, so a request the client sends in reaction to an
answer always starts after that answer's ``finished`` and never overlaps it in the counts.
"""

from __future__ import annotations

import json
import re
import threading
import time
import zlib
from urllib.parse import urlsplit
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


@dataclass
class Reply:
    """How to answer one request: ``status`` (200 = a normal answer), ``delay`` seconds before
    answering, ``retry_after`` header value, ``malformed`` = a 200 whose body is not JSON.

    ``hold_until=N`` (a barrier): first wait until at least ``N`` requests are in flight, at most
    ``hold_timeout`` seconds, then wait ``delay`` and answer."""

    status: int = 200
    delay: float = 0.0
    retry_after: str | None = None
    malformed: bool = False
    hold_until: int = 0
    hold_timeout: float = 5.0


@dataclass
class LoggedRequest:
    path: str
    body: dict
    headers: dict
    started: float  # monotonic seconds, when the body was read
    in_flight_at_start: int  # this request included
    finished: float = 0.0  # monotonic seconds, just before the answer was written
    status: int = 0

    @property
    def chunk(self) -> str:
        """The text between ``<chunk>`` tags of the prompt."""
        m = re.search(r"<chunk>\n(.*?)\n</chunk>", _prompt_text(self.body), re.S)
        return m.group(1) if m else ""

    @property
    def document(self) -> str:
        m = re.search(r"<document>\n(.*?)\n</document>", _prompt_text(self.body), re.S)
        return m.group(1) if m else ""


def _prompt_text(body: dict) -> str:
    parts = []
    for msg in body.get("messages", []):
        content = msg.get("content")
        if isinstance(content, str):
            parts.append(content)
        else:
            parts += [b.get("text", "") for b in content or []]
    return "".join(parts)


def _words(text: str) -> int:
    return len(text.split())


def rank_by_overlap(prompt: str) -> str:
    """A listwise reranker's answer (``"[2] > [1] > [3]"``) to a RankGPT prompt: passages ordered by
    how many distinct query words they contain (ties: the earlier passage first)."""
    query = re.search(r"Search Query: (.*?)\.\n", prompt, re.S).group(1)
    q = set(re.findall(r"\w+", query.lower()))
    passages = re.findall(r"^\[(\d+)\] (.*)$", prompt, re.M)
    ranked = sorted(passages, key=lambda p: (-len(q & set(re.findall(r"\w+", p[1].lower()))), int(p[0])))
    return " > ".join(f"[{i}]" for i, _ in ranked)


def bag_of_words(text: str, dim: int) -> list[float]:
    """A deterministic embedding: word counts hashed (crc32) into ``dim`` buckets, plus a small
    constant so no text (not even an empty one) maps to the zero vector."""
    vec = [0.0] * dim
    vec[0] = 0.05
    for word in re.findall(r"\w+", text.lower()):
        vec[zlib.crc32(word.encode()) % dim] += 1.0
    return vec


@dataclass
class FakeLLMServer:
    """Start with :meth:`start` (or as a context manager); ``url`` is ``http://127.0.0.1:<port>``."""

    default: Reply = field(default_factory=Reply)
    requests: list[LoggedRequest] = field(default_factory=list)
    embedding_dim: int = 64
    max_input_chars: int = 100_000
    port: int = 0  # 0 = any free port; a fixed one (Ollama's 11434) for files that name their server
    # (texts, dim) -> vectors; default bag_of_words. A real model here makes the server a TEI-like one.
    embed: Callable[[list[str], int], list[list[float]]] | None = None

    def __post_init__(self):
        self._lock = threading.Lock()
        self._in_flight_changed = threading.Condition(self._lock)
        self._queue: list[Reply] = []
        self._rule: Callable[[LoggedRequest], Reply | None] | None = None
        self._in_flight = 0
        self._cache_blocks: set[str] = set()
        self._httpd: ThreadingHTTPServer | None = None

    # ---- control
    def script(self, replies: list[Reply] | None = None,
               rule: Callable[[LoggedRequest], Reply | None] | None = None) -> None:
        with self._lock:
            self._queue = list(replies or [])
            self._rule = rule

    def embedding_inputs(self) -> list[str]:
        """Every text sent for embedding so far, in arrival order."""
        out: list[str] = []
        for r in self.requests:
            if urlsplit(r.path).path.endswith(("/embeddings", "/api/embed")):
                texts = r.body.get("input")
                out += [texts] if isinstance(texts, str) else list(texts or [])
        return out

    def reset(self, drain_timeout: float = 5.0) -> None:
        """Forget requests, script and prompt cache, after requests still being answered end."""
        deadline = time.monotonic() + drain_timeout
        while self._in_flight and time.monotonic() < deadline:
            time.sleep(0.02)
        with self._lock:
            self.requests.clear()
            self._queue.clear()
            self._rule = None
            self._cache_blocks.clear()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def start(self) -> "FakeLLMServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes; with Nagle on, the body waits for the client's
            # delayed ACK (~40 ms per request on Linux).
            disable_nagle_algorithm = True

            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                server._handle(self)

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):  # a client that timed out and hung up
                pass

        self._httpd = Server(("127.0.0.1", self.port), Handler)
        self._httpd.daemon_threads = True
        # serve_forever looks for shutdown() between selects: its default 0.5 s select made every stop()
        # wait up to half a second
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # ---- request handling
    def _next_reply(self, req: LoggedRequest) -> Reply:
        with self._lock:
            if self._rule is not None:
                r = self._rule(req)
                if r is not None:
                    return r
            return self._queue.pop(0) if self._queue else self.default

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("content-length", 0))
        raw = h.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = {}
        with self._lock:
            self._in_flight += 1
            req = LoggedRequest(h.path, body, {k.lower(): v for k, v in h.headers.items()},
                                time.monotonic(), self._in_flight)
            self.requests.append(req)
            self._in_flight_changed.notify_all()
        answered = False
        try:
            reply = self._next_reply(req)
            if reply.hold_until:
                self._hold(req, reply)
            if reply.delay:
                time.sleep(reply.delay)
            self._mark_answered(req)
            answered = True
            self._respond(h, req, reply)
        finally:
            if not answered:
                self._mark_answered(req)

    def _hold(self, req: LoggedRequest, reply: Reply) -> None:
        """Wait until ``reply.hold_until`` requests were in flight at once at some moment since
        ``req`` arrived (an event, not a level: the request that completes the group may be
        answered before the others wake up), or ``reply.hold_timeout`` seconds."""
        with self._in_flight_changed:
            mine = next(i for i in range(len(self.requests) - 1, -1, -1) if self.requests[i] is req)
            self._in_flight_changed.wait_for(
                lambda: any(r.in_flight_at_start >= reply.hold_until for r in self.requests[mine:]),
                reply.hold_timeout)

    def _mark_answered(self, req: LoggedRequest) -> None:
        with self._lock:
            self._in_flight -= 1
            req.finished = time.monotonic()

    def _respond(self, h: BaseHTTPRequestHandler, req: LoggedRequest, reply: Reply) -> None:
        req.status = reply.status
        if reply.malformed:
            return self._send(h, 200, b'{"id": "broken", "choices": [', {})
        if reply.status != 200:
            kind = "rate_limit_error" if reply.status == 429 else "api_error"
            payload = {"type": "error", "error": {"type": kind, "message": f"scripted {reply.status}"}}
            headers = {"retry-after": reply.retry_after} if reply.retry_after is not None else {}
            return self._send(h, reply.status, json.dumps(payload).encode(), headers)
        path = urlsplit(req.path).path
        if path.endswith(("/embeddings", "/api/embed")):
            texts = req.body.get("input")
            texts = [texts] if isinstance(texts, str) else list(texts or [])
            if any(len(t) > self.max_input_chars for t in texts):
                msg = f"input is longer than the model's {self.max_input_chars}-character context"
                return self._send(h, 400, json.dumps({"error": {"message": msg}} if path.endswith("/embeddings")
                                                     else {"error": msg}).encode(), {})
            dim = int(req.body.get("dimensions") or self.embedding_dim)
            vectors = self.embed(texts, dim) if self.embed else [bag_of_words(t, dim) for t in texts]
            if path.endswith("/api/embed"):
                payload = {"model": req.body.get("model"), "embeddings": vectors}
            else:
                payload = {"object": "list", "model": req.body.get("model"),
                           "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
                           "usage": {"prompt_tokens": sum(map(_words, texts)), "total_tokens": sum(map(_words, texts))}}
        elif path.endswith("/messages"):
            payload = self._anthropic_answer(req)
        elif path.endswith("/chat/completions"):
            payload = self._openai_answer(req)
        else:
            return self._send(h, 404, b'{"error": {"message": "no such route"}}', {})
        self._send(h, 200, json.dumps(payload).encode(), {})

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, data: bytes, headers: dict) -> None:
        h.send_response(status)
        h.send_header("content-type", "application/json")
        h.send_header("content-length", str(len(data)))
        for k, v in headers.items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(data)

    @staticmethod
    def _answer_text(req: LoggedRequest) -> str:
        prompt = _prompt_text(req.body)
        if "RankGPT" in prompt:
            return rank_by_overlap(prompt)
        words = ["Situated:"] + req.chunk.split()[:8]
        return " ".join(words[: max(1, int(req.body.get("max_tokens", 100)))])

    def _anthropic_answer(self, req: LoggedRequest) -> dict:
        text = self._answer_text(req)
        blocks = req.body["messages"][0]["content"]
        cache_read = cache_write = uncached = 0
        with self._lock:
            for b in blocks:
                n = _words(b["text"])
                if b.get("cache_control"):
                    if b["text"] in self._cache_blocks:
                        cache_read += n
                    else:
                        self._cache_blocks.add(b["text"])
                        cache_write += n
                else:
                    uncached += n
        return {"id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant",
                "model": req.body["model"], "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": uncached, "output_tokens": _words(text),
                          "cache_creation_input_tokens": cache_write, "cache_read_input_tokens": cache_read}}

    def _openai_answer(self, req: LoggedRequest) -> dict:
        text = self._answer_text(req)
        prompt = _prompt_text(req.body)
        document_part = prompt.split("</document>")[0]
        with self._lock:
            cached = _words(document_part) if document_part in self._cache_blocks else 0
            self._cache_blocks.add(document_part)
        return {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
                "model": req.body["model"],
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": _words(prompt), "completion_tokens": _words(text),
                          "total_tokens": _words(prompt) + _words(text),
                          "prompt_tokens_details": {"cached_tokens": cached}}}
