"""A chat-completions server on 127.0.0.1 for the LLM tests: scripted answers, recorded requests.

Not a test module: the LLM test modules load it by path (pytest runs in importlib mode).
The real ``openai`` client talks to it over HTTP, so the tests exercise the SDK, the
retries and the timeouts for real, without any network beyond the loopback interface.

Hostile answers (`Stream`: `endless`, `trickle`, `stall`, `gzip_bomb`) are written piece by
piece; each is bounded in bytes and seconds and ends by itself, or when the server stops.
"""

from __future__ import annotations

import gzip
import json
import socket
import struct
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MIB = 1024 * 1024


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


@dataclass(frozen=True)
class Stream:
    """An answer written by hand: ``head`` (status line and headers) after ``head_delay``
    seconds, then the pieces ``body()`` yields with ``gap`` seconds between them, then the
    connection is held open ``hold`` seconds and closed. The whole answer ends after
    ``limit_s`` seconds at the latest; the bytes written are counted in `FakeChatServer.sent`.
    """

    head: bytes
    body: Callable[[], Iterator[bytes]] = lambda: iter(())
    head_delay: float = 0.0
    gap: float = 0.0
    hold: float = 0.0
    limit_s: float = 10.0


def head(status: int = 200, **headers: str) -> bytes:
    """A status line and headers (``Content_Length="5"`` -> ``Content-Length: 5``), with
    ``Connection: close``: without a length the body runs until the connection closes."""
    lines = [f"HTTP/1.1 {status} Scripted", "Content-Type: application/json", "Connection: close"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def endless(*, length: int | None = None, piece: int = 64 * 1024, limit_bytes: int = 64 * MIB,
            limit_s: float = 5.0) -> Stream:
    """A JSON-looking body that goes on (up to ``limit_bytes``), announced with
    ``Content-Length: length`` or with no length at all."""
    headers = {} if length is None else {"Content_Length": str(length)}

    def body() -> Iterator[bytes]:
        yield b'{"id": "chatcmpl-endless", "padding": "'
        for _ in range(limit_bytes // piece):
            yield b"a" * piece

    return Stream(head=head(**headers), body=body, limit_s=limit_s)


def trickle(*, every: float = 1.0, length: int = 1000, limit_s: float = 8.0) -> Stream:
    """Headers at once, then one byte of a ``length``-byte body every ``every`` seconds."""
    def body() -> Iterator[bytes]:
        yield b"{"
        for _ in range(length - 1):
            yield b" "

    return Stream(head=head(Content_Length=str(length)), body=body, gap=every, limit_s=limit_s)


def stall(*, after: float, limit_s: float = 10.0) -> Stream:
    """Nothing for ``after`` seconds, then the headers of a 100-byte body, then nothing."""
    return Stream(head=head(Content_Length="100"), head_delay=after, hold=limit_s,
                  limit_s=limit_s)


def gzip_stream(expanded_mib: int) -> Iterator[bytes]:
    """A valid gzip member of ``expanded_mib`` MiB of zeros, made piece by piece (about
    1 KiB per MiB): each MiB is deflated once and its bytes repeated, which a full flush
    makes exact. The CRC at the end is computed only if a reader gets that far."""
    zeros = bytes(MIB)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = deflate.compress(zeros) + deflate.flush(zlib.Z_FULL_FLUSH)
    yield b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # magic, deflate, no flags, no mtime
    for _ in range(expanded_mib):
        yield block
    yield deflate.flush(zlib.Z_FINISH)
    crc = 0
    for _ in range(expanded_mib):
        crc = zlib.crc32(zeros, crc)
    yield struct.pack("<II", crc, (expanded_mib * MIB) & 0xFFFFFFFF)


def gzip_bomb(*, expanded_mib: int = 1100, limit_s: float = 5.0) -> Stream:
    """A ``Content-Encoding: gzip`` answer of about 1 MB that expands to 1.1 GiB."""
    return Stream(head=head(Content_Encoding="gzip"), body=lambda: gzip_stream(expanded_mib),
                  limit_s=limit_s)


def gzipped(response: Response, *, encoding: str = "gzip") -> Stream:
    """``response`` (a JSON body) compressed with gzip or deflate (zlib format)."""
    payload = json.dumps(response.body).encode("utf-8")
    data = gzip.compress(payload) if encoding == "gzip" else zlib.compress(payload)
    return Stream(head=head(Content_Encoding=encoding, Content_Length=str(len(data))),
                  body=lambda: iter((data,)))


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
    the request body returning one) answers. Requests with other methods are recorded too
    and answered 405; ``connections`` counts the TCP connections accepted, ``sent`` the
    bytes each `Stream` answer managed to write.
    """

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.script: deque[Response | Stream] = deque()
        self.fallback: Response | Stream | Callable[[dict[str, Any]], Response | Stream] = answer(False)
        self.stopping = threading.Event()
        self.connections = 0
        self.sent: list[int] = []
        self._writing = 0
        self._lock = threading.Condition()
        self._httpd = _CountingServer(("127.0.0.1", 0), _handler(self), owner=self)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,),
                                        daemon=True)

    @property
    def url(self) -> str:
        """The base URL to give the client (``.../v1``)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def push(self, *responses: Response | Stream) -> FakeChatServer:
        """Queue answers for the next requests."""
        self.script.extend(responses)
        return self

    def next_response(self, body: dict[str, Any]) -> Response | Stream:
        with self._lock:
            if self.script:
                return self.script.popleft()
        return self.fallback(body) if callable(self.fallback) else self.fallback

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def wait_written(self, timeout: float = 5.0) -> list[int]:
        """Wait until no `Stream` answer is being written (at most ``timeout`` s); return `sent`."""
        end = time.monotonic() + timeout
        with self._lock:
            while self._writing and (left := end - time.monotonic()) > 0:
                self._lock.wait(left)
            return list(self.sent)

    def write_stream(self, stream: Stream, wfile: Any) -> None:
        """Write ``stream`` to ``wfile`` within its limits, counting what was written."""
        with self._lock:
            index, self._writing = len(self.sent), self._writing + 1
            self.sent.append(0)
        end = time.monotonic() + stream.limit_s

        def wait(seconds: float) -> bool:  # False once the time is up or the server stops
            seconds = min(seconds, end - time.monotonic())
            return seconds >= 0 and not self.stopping.wait(seconds)

        def write(data: bytes) -> bool:
            try:
                wfile.write(data)
            except OSError:  # the client hung up: exactly what the bounded tests expect
                return False
            with self._lock:
                self.sent[index] += len(data)
            return True

        try:
            if not (wait(stream.head_delay) and write(stream.head)):
                return
            for number, piece in enumerate(stream.body()):
                if (number and stream.gap and not wait(stream.gap)) or not write(piece):
                    return
                if time.monotonic() > end or self.stopping.is_set():
                    return
            wait(stream.hold)
        finally:
            with self._lock:
                self._writing -= 1
                self._lock.notify_all()

    def start(self) -> FakeChatServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self.stopping.is_set():
            return
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()


class _CountingServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type, *, owner: FakeChatServer) -> None:
        self.owner = owner
        super().__init__(address, handler)

    def verify_request(self, request: Any, client_address: Any) -> bool:
        with self.owner._lock:
            self.owner.connections += 1
        return True


def _handler(server: FakeChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _other(self) -> None:
            server.record(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, {}))
            self._send(error(405, f"no {self.command} here"))

        do_GET = do_PUT = do_DELETE = do_HEAD = do_PATCH = _other  # noqa: N815
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
            if isinstance(response, Stream):
                self.close_connection = True
                server.write_stream(response, self.wfile)
                return
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
