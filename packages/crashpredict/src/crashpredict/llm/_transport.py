"""HTTP for the chat client with every input bounded, in the transport the openai SDK uses.

The SDK sends its requests through an httpx client (``httpx2`` from openai 3 on, ``httpx``
before). `http_client` builds one whose transport enforces what the SDK leaves open:

- a wall-clock deadline per request (`deadline`): every socket operation (connect, TLS,
  each write, each read of the headers and of the body) is cut to the time left, so a
  server that trickles a byte a second, or sends its headers and stalls, is dropped at
  the deadline instead of whenever one read waits longer than a per-read timeout;
- at most `MAX_REPLY_BYTES` of body, counted on the wire and again after decompression;
  gzip and deflate are decompressed here in bounded steps, and only they are accepted, so
  a gzip bomb stops after 8 MiB of output;
- requests only to the base URL's origin (scheme, host, port): a redirect elsewhere is
  refused before any byte goes there, so neither the prompt nor the API key leaves;
  redirects within the origin are followed at most `MAX_REDIRECTS` times.

Proxies named by the environment (``https_proxy``, ``http_proxy``, ``all_proxy``, minus
``no_proxy``) are still used, as the SDK's own client would; the deadline covers them.
"""

from __future__ import annotations

import contextvars
import importlib
import time
import urllib.request
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any

from crashpredict.llm._errors import LLMConfigError, LLMResponseError, LLMSDKMissingError

__all__ = ["ACCEPT_ENCODING", "MAX_REDIRECTS", "MAX_REPLY_BYTES", "BoundedTransport",
           "deadline", "http_client", "http_libraries"]

MAX_REPLY_BYTES = 8 * 1024 * 1024  # body bytes, on the wire and once decompressed
MAX_REDIRECTS = 3  # same-origin redirects followed per request
ACCEPT_ENCODING = "gzip, deflate"  # the encodings decompressed here, within the bound
_PIECE = 64 * 1024  # bytes decompressed, or written, per step
_DEFAULT_PORTS = {"http": 80, "https": 443}
# httpcore's errors, most specific first, re-raised as httpx's errors of the same name
_ERRORS = ("ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout", "TimeoutException",
           "ConnectError", "ReadError", "WriteError", "NetworkError", "ProxyError",
           "UnsupportedProtocol", "RemoteProtocolError", "LocalProtocolError", "ProtocolError")

_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "crashpredict_llm_deadline", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Make the requests sent inside end within ``seconds`` from now, all phases together.

    A socket operation that would outlast it times out (``ConnectTimeout``, ``ReadTimeout``
    or ``WriteTimeout``), which the SDK reports as ``APITimeoutError``.
    """
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _cut(timeout: float | None, error: type[Exception]) -> float | None:
    """``timeout`` for one socket operation, cut to the time left before the deadline."""
    at = _DEADLINE.get()
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise error("the request's deadline passed")
    return left if timeout is None else min(timeout, left)


def http_libraries(openai: ModuleType) -> tuple[ModuleType, ModuleType]:
    """The httpx flavour ``openai`` is built on and its httpcore: (httpx2, httpcore2) or
    (httpx, httpcore), read from the base classes of ``openai.DefaultHttpxClient``.

    Raises:
        LLMSDKMissingError: neither is importable (a broken installation).
    """
    cores = {"httpx2": "httpcore2", "httpx": "httpcore"}
    tops = [cls.__module__.partition(".")[0]
            for cls in getattr(openai, "DefaultHttpxClient", object).__mro__]
    for top in [t for t in tops if t in cores] + list(cores):
        try:
            return importlib.import_module(top), importlib.import_module(cores[top])
        except ImportError:
            continue
    raise LLMSDKMissingError("the openai SDK's HTTP library (httpx2 or httpx) is not installed")


def http_client(base_url: str, *, timeout: float, http: ModuleType, core: ModuleType) -> Any:
    """An ``http.Client`` for ``openai.OpenAI(http_client=...)`` with the bounds above.

    ``timeout`` is the per-operation default the SDK overrides per request; the
    wall-clock bound is `deadline`, set around each call.

    Raises:
        LLMConfigError: the environment names a proxy URL that cannot be used.
    """
    return http.Client(transport=BoundedTransport(base_url, http=http, core=core),
                       timeout=timeout, follow_redirects=True, max_redirects=MAX_REDIRECTS,
                       trust_env=False)  # the transport reads the proxy variables itself


class BoundedTransport:
    """An httpx transport over an httpcore pool whose sockets honour `deadline`, whose
    bodies are capped and decompressed here, and which talks only to one origin."""

    def __init__(self, base_url: str, *, http: ModuleType, core: ModuleType) -> None:
        self._http, self._core = http, core
        self._origin = _origin(http.URL(base_url))
        self._body = _body_class(http)
        self._pool = core.ConnectionPool(
            ssl_context=http.create_ssl_context(), proxy=_environment_proxy(base_url, http, core),
            max_connections=10, max_keepalive_connections=10, keepalive_expiry=5.0,
            network_backend=_DeadlineBackend(core),
        )

    def handle_request(self, request: Any) -> Any:
        """Send ``request`` (an ``http.Request``) and return its response, body unread."""
        if (origin := _origin(request.url)) != self._origin:
            raise LLMResponseError(
                f"the server redirected to {_show(origin)}, another origin: not followed, so "
                f"neither the prompt nor the API key was sent there (only to {_show(self._origin)})")
        request.headers["Accept-Encoding"] = ACCEPT_ENCODING
        core, url = self._core, request.url
        outgoing = core.Request(
            method=request.method, headers=request.headers.raw, content=request.stream,
            url=core.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port,
                         target=url.raw_path),
            extensions=request.extensions,
        )
        with _mapped(self._http, core):
            response = self._pool.handle_request(outgoing)
        try:
            body = self._body(response.stream, headers=response.headers, http=self._http, core=core)
        except BaseException:
            response.close()
            raise
        # the body is handed on decoded: its original length and encoding no longer apply
        headers = [(name, value) for name, value in response.headers
                   if name.lower() not in (b"content-encoding", b"content-length")]
        return self._http.Response(status_code=response.status, headers=headers, stream=body,
                                   extensions=response.extensions)

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> BoundedTransport:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class _Body:
    """A response body of at most `MAX_REPLY_BYTES`, on the wire and decoded.

    Checked before any byte of it is read: a ``Content-Length`` over the bound, and a
    ``Content-Encoding`` other than identity, gzip or deflate (zlib format).
    """

    def __init__(self, raw: Any, *, headers: list[tuple[bytes, bytes]], http: ModuleType,
                 core: ModuleType) -> None:
        self._raw, self._http, self._core = raw, http, core
        length = _header(headers, b"content-length").strip()
        if length.isdigit() and (len(length) > 15 or int(length) > MAX_REPLY_BYTES):
            raise LLMResponseError(f"reply larger than {_size(MAX_REPLY_BYTES)} "
                                   f"(Content-Length: {length[:20]}): not read")
        self._encoding = _header(headers, b"content-encoding").strip().lower()
        if self._encoding in ("", "identity"):
            self._inflater = None
        elif self._encoding in ("gzip", "x-gzip", "deflate"):
            self._inflater = zlib.decompressobj(
                zlib.MAX_WBITS | (16 if "gzip" in self._encoding else 0))
        else:
            raise LLMResponseError(
                f"reply in content encoding {self._encoding[:40]!r}, which cannot be decoded "
                f"within a bound (the client asks for {ACCEPT_ENCODING})")
        self._wire = self._decoded = 0

    def __iter__(self) -> Iterator[bytes]:
        with _mapped(self._http, self._core):
            for chunk in self._raw:
                self._wire += len(chunk)
                if self._wire > MAX_REPLY_BYTES:
                    raise LLMResponseError(
                        f"reply larger than {_size(MAX_REPLY_BYTES)}: not read further")
                yield from self._decode(chunk)
            if self._inflater is not None:
                yield from self._counted(self._inflater.flush())

    def _decode(self, data: bytes) -> Iterator[bytes]:
        inflater = self._inflater
        if inflater is None:
            yield from self._counted(data)
            return
        # max_length keeps every step's output to _PIECE, whatever the input expands to;
        # a full piece may leave output pending inside zlib, hence the loop on b"".
        while not inflater.eof:
            try:
                out = inflater.decompress(data, _PIECE)
            except zlib.error as exc:
                raise self._http.DecodingError(f"reply is not valid {self._encoding}: {exc}") from None
            data = inflater.unconsumed_tail
            yield from self._counted(out)
            if not data and len(out) < _PIECE:
                return

    def _counted(self, out: bytes) -> Iterator[bytes]:
        self._decoded += len(out)
        if self._decoded > MAX_REPLY_BYTES:
            raise LLMResponseError(f"reply larger than {_size(MAX_REPLY_BYTES)} once decompressed "
                                   f"({self._encoding}): not decompressed further")
        if out:
            yield out

    def close(self) -> None:
        if hasattr(self._raw, "close"):
            self._raw.close()


@cache
def _body_class(http: ModuleType) -> type[_Body]:
    """`_Body` as a subclass of this httpx flavour's ``SyncByteStream`` (httpx checks)."""
    return type("BoundedBody", (_Body, http.SyncByteStream), {})


class _DeadlineStream:
    """A network stream whose every operation ends by the current `deadline`."""

    def __init__(self, inner: Any, core: ModuleType) -> None:
        self._inner, self._core = inner, core

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _cut(timeout, self._core.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        # in pieces, so that a server reading slowly cannot stretch one write past the deadline
        for start in range(0, len(buffer), _PIECE):
            self._inner.write(bytes(buffer[start:start + _PIECE]),
                              _cut(timeout, self._core.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> _DeadlineStream:
        inner = self._inner.start_tls(ssl_context, server_hostname,
                                      _cut(timeout, self._core.ConnectTimeout))
        return _DeadlineStream(inner, self._core)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend:
    """httpcore's synchronous network backend, its streams wrapped in `_DeadlineStream`."""

    def __init__(self, core: ModuleType) -> None:
        self._inner, self._core = core.SyncBackend(), core

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None, socket_options: Any = None) -> _DeadlineStream:
        stream = self._inner.connect_tcp(host, port, _cut(timeout, self._core.ConnectTimeout),
                                         local_address, socket_options)
        return _DeadlineStream(stream, self._core)

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Any = None) -> _DeadlineStream:
        stream = self._inner.connect_unix_socket(path, _cut(timeout, self._core.ConnectTimeout),
                                                 socket_options)
        return _DeadlineStream(stream, self._core)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


@contextmanager
def _mapped(http: ModuleType, core: ModuleType) -> Iterator[None]:
    """Re-raise httpcore's errors as httpx's errors of the same name, which the SDK handles."""
    try:
        yield
    except Exception as exc:
        for name in _ERRORS:
            if isinstance(exc, getattr(core, name)):
                raise getattr(http, name)(str(exc)) from exc
        raise


def _environment_proxy(base_url: str, http: ModuleType, core: ModuleType) -> Any:
    """The proxy the environment names for ``base_url``, as an httpcore ``Proxy``, or None."""
    url = http.URL(base_url)
    proxies = urllib.request.getproxies_environment()
    if not proxies or urllib.request.proxy_bypass_environment(url.host, proxies):
        return None
    name = url.scheme if proxies.get(url.scheme) else "all"
    value = proxies.get(name)
    if not value:
        return None
    try:
        proxy = http.Proxy(value if "://" in value else f"http://{value}")
    except (ValueError, http.InvalidURL):
        # the URL may hold a password: name the variable, not its value
        raise LLMConfigError(f"the proxy URL in {name}_proxy is not usable for "
                             f"{url.scheme}:// (http, https, socks5 proxies are)") from None
    return core.Proxy(
        url=core.URL(scheme=proxy.url.raw_scheme, host=proxy.url.raw_host, port=proxy.url.port,
                     target=proxy.url.raw_path),
        auth=proxy.raw_auth, headers=proxy.headers.raw, ssl_context=proxy.ssl_context,
    )


def _origin(url: Any) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port or _DEFAULT_PORTS.get(url.scheme)


def _show(origin: tuple[str, str, int | None]) -> str:
    scheme, host, port = origin
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> str:
    """The values of header ``name`` joined with commas ("" when absent)."""
    return ", ".join(value.decode("latin-1") for key, value in headers if key.lower() == name)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"
