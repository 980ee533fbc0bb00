"""A chat-completions server on 127.0.0.1 for the LLM tests: scripted answers, recorded requests.

Not a test module: the LLM test modules load it by path (pytest runs in importlib mode).
The real ``openai`` client talks to it over HTTP, so the tests exercise the SDK, the
retries and the timeouts for real, without any network beyond the loopback interface.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Response:
    """One scripted HTTP answer: status, JSON body (or raw text), headers, delay in seconds."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def chat(content: str, *, model: str = "fake-model", prompt_tokens: int = 100,
         completion_tokens: int = 20, delay: float = 0.0) -> Response:
    """A successful chat completion whose message is ``content``."""
    return Response(body={
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }, delay=delay)


def answer(detection: bool, **fields: Any) -> Response:
    """A chat completion whose content is the JSON answer the prompt asks for."""
    data = {"reasoning": "step by step", "detection": detection, "exception": None,
            "line": None, "crash_type": None, "library": None, "explanation": ""}
    data.update(fields)
    return chat(json.dumps(data))


def error(status: int, message: str = "scripted error", *, headers: dict[str, str] | None = None,
          delay: float = 0.0) -> Response:
    """An OpenAI-style error answer."""
    return Response(status=status, body={"error": {"message": message, "type": "test"}},
                    headers=headers or {}, delay=delay)


@dataclass
class Request:
    """What the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def text(self) -> str:
        """The whole JSON body as text, for 'never reaches the server' assertions."""
        return json.dumps(self.body, ensure_ascii=False)


class FakeChatServer:
    """Answers POST /v1/chat/completions from a script; records every request.

    ``script`` is consumed in order; when empty, ``fallback`` (a Response, or a function of
    the request body returning one) answers.
    """

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.script: deque[Response] = deque()
        self.fallback: Response | Callable[[dict[str, Any]], Response] = answer(False)
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,),
                                        daemon=True)

    @property
    def url(self) -> str:
        """The base URL to give the client (``.../v1``)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def push(self, *responses: Response) -> FakeChatServer:
        """Queue answers for the next requests."""
        self.script.extend(responses)
        return self

    def next_response(self, body: dict[str, Any]) -> Response:
        with self._lock:
            if self.script:
                return self.script.popleft()
        return self.fallback(body) if callable(self.fallback) else self.fallback

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def start(self) -> FakeChatServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self.stopping.is_set():
            return
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()


def _handler(server: FakeChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except ValueError:
                body = {"_raw": raw.decode("utf-8", "replace")}
            server.record(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            if not self.path.endswith("/chat/completions"):
                self._send(error(404, f"no route {self.path}"))
                return
            response = server.next_response(body)
            if response.delay and server.stopping.wait(response.delay):
                return
            self._send(response)

        def _send(self, response: Response) -> None:
            payload = (response.body if isinstance(response.body, str)
                       else json.dumps(response.body)).encode("utf-8")
            try:
                self.send_response(response.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in response.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test): nothing to answer

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    return Handler


def closed_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (the port was just freed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
