"""Every input of the LLM client bounded: hostile servers on 127.0.0.1, hostile cache entries.

Each server answer here is bounded in bytes and seconds and ends by itself (see
llm_server.py); each test shows the client stopping near a bound that the old client
(the SDK's own httpx client, plain reads of cache files) went far past.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import time
import tracemalloc

import pytest

from crashpredict.llm import (
    ChatClient,
    LLMResponseError,
    LLMRetriesExhaustedError,
    LLMSettings,
    LLMTimeoutError,
    Usage,
)
from crashpredict.llm._cache import MAX_ENTRY_BYTES, ReplyCache
from crashpredict.llm._transport import (
    ACCEPT_ENCODING,
    MAX_REDIRECTS,
    MAX_REPLY_BYTES,
    BoundedTransport,
    deadline,
)

import crashpredict_tests_llm_server as fake  # registered by conftest.py

MESSAGES = ({"role": "user", "content": "Is 1 + 1 two? Answer in JSON."},)
CAP_MESSAGE = r"reply larger than 8 MiB"


def fast(url: str, **changes) -> LLMSettings:
    values = dict(model="fake-model", base_url=url, timeout=2.0, max_retries=3,
                  total_budget_s=5.0, backoff_base_s=0.01, backoff_max_s=0.02, cache_dir=None)
    values.update(changes)
    return LLMSettings(**values)


@pytest.fixture
def other():
    """A second server, on another port: another origin."""
    srv = fake.FakeChatServer().start()
    yield srv
    srv.stop()


def test_the_reply_cap_is_8_mib():
    assert MAX_REPLY_BYTES == 8 * 1024 * 1024 and MAX_ENTRY_BYTES >= MAX_REPLY_BYTES


# ---- body size --------------------------------------------------------------------------


@pytest.mark.parametrize("length", [None, 10 * 1024 ** 3], ids=["no-length", "huge-length"])
def test_endless_body_stops_near_the_cap(server, length):
    server.fallback = fake.endless(length=length)  # up to 64 MiB, unless the client hangs up
    with pytest.raises(LLMResponseError, match=CAP_MESSAGE) as info:
        ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert str(info.value).startswith(f"{server.url}/chat/completions: ")
    [sent] = server.wait_written()
    # what the client read, plus what the kernel buffers held when it hung up
    assert sent < 3 * MAX_REPLY_BYTES
    assert len(server.requests) == 1  # a bound is not retried


def test_gzip_bomb_stops_after_8_mib_of_output(server):
    server.fallback = fake.gzip_bomb()  # ~1.1 MB on the wire, 1.1 GiB once decompressed
    tracemalloc.start()
    try:
        with pytest.raises(LLMResponseError, match=CAP_MESSAGE + " once decompressed"):
            ChatClient(fast(server.url), env={}).complete(MESSAGES)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_REPLY_BYTES
    assert server.requests[0].headers["accept-encoding"] == ACCEPT_ENCODING


def test_the_gzip_bomb_of_these_tests_is_valid_gzip():
    assert gzip.decompress(b"".join(fake.gzip_stream(3))) == bytes(3 * fake.MIB)


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_compressed_replies_are_decoded(server, encoding):
    server.fallback = fake.gzipped(fake.chat('{"ok": true}', prompt_tokens=9), encoding=encoding)
    reply = ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert (reply.text, reply.usage.prompt_tokens) == ('{"ok": true}', 9)


def test_an_encoding_that_cannot_be_bounded_is_refused(server):
    server.fallback = fake.Stream(head=fake.head(Content_Encoding="br", Content_Length="4"),
                                  body=lambda: iter((b"\x0b\x00\x80\x03",)))
    with pytest.raises(LLMResponseError, match="content encoding 'br'"):
        ChatClient(fast(server.url), env={}).complete(MESSAGES)


def test_json_nested_too_deeply_is_a_malformed_body_not_a_crash(server):
    server.fallback = fake.Response(body="[" * 200_000 + "]" * 200_000)
    with pytest.raises(LLMRetriesExhaustedError, match="nested too deeply"):
        ChatClient(fast(server.url, max_retries=0), env={}).complete(MESSAGES)


def test_usage_that_is_not_a_count_is_zero(server):
    completion = fake.chat("{}").body | {"usage": {"prompt_tokens": "many",
                                                   "completion_tokens": 1e300}}
    server.fallback = fake.Response(body=completion)
    assert ChatClient(fast(server.url), env={}).complete(MESSAGES).usage == Usage()


# ---- time ---------------------------------------------------------------------------------


def test_trickling_server_is_dropped_at_the_deadline(server):
    server.fallback = fake.trickle(every=1.0)  # each read gets a byte within a second
    client = ChatClient(fast(server.url, timeout=1.5, total_budget_s=1.5), env={})
    start = time.monotonic()
    with pytest.raises(LLMTimeoutError, match="no answer within"):
        client.complete(MESSAGES)
    assert time.monotonic() - start < 1.5 + 1.0


def test_headers_then_stall_is_dropped_at_the_deadline(server):
    # Headers just before the deadline: a per-read timeout would wait a whole timeout more.
    server.fallback = fake.stall(after=1.4)
    client = ChatClient(fast(server.url, timeout=1.5, total_budget_s=1.5), env={})
    start = time.monotonic()
    with pytest.raises(LLMTimeoutError, match="no answer within"):
        client.complete(MESSAGES)
    assert time.monotonic() - start < 1.5 + 1.0


def test_per_request_timeout_is_a_wall_clock_and_retried_within_the_budget(server):
    server.push(fake.trickle(every=0.3, limit_s=3.0), fake.chat('{"second": 1}'))
    start = time.monotonic()
    reply = ChatClient(fast(server.url, timeout=0.8, total_budget_s=4.0), env={}).complete(MESSAGES)
    assert (reply.text, reply.attempts) == ('{"second": 1}', 2)
    assert time.monotonic() - start < 0.8 + 1.0


# ---- redirects ----------------------------------------------------------------------------


@pytest.mark.parametrize("status", [307, 308, 302])
def test_redirect_to_another_origin_sends_nothing_there(server, other, status):
    target = f"{other.url}/chat/completions"
    server.fallback = fake.Response(status=status, body={}, headers={"Location": target})
    client = ChatClient(fast(server.url), env={"OPENAI_API_KEY": "sk-test-secret-key"})
    with pytest.raises(LLMResponseError, match="another origin") as info:
        client.complete(MESSAGES)
    assert (other.connections, other.requests) == (0, [])
    assert len(server.requests) == 1
    assert f"redirected to {other.url.removesuffix('/v1')}, another origin" in str(info.value)


def test_same_origin_redirect_is_followed(server):
    server.push(fake.Response(status=307, body={}, headers={"Location": "/v1/chat/completions"}),
                fake.chat('{"moved": true}'))
    reply = ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert reply.text == '{"moved": true}'
    assert [r.body["messages"] for r in server.requests] == [[dict(m) for m in MESSAGES]] * 2


def test_redirect_loop_stops_after_max_redirects(server):
    server.fallback = fake.Response(status=307, body={},
                                    headers={"Location": "/v1/chat/completions"})
    with pytest.raises(LLMResponseError, match=f"more than {MAX_REDIRECTS} redirects"):
        ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert len(server.requests) == MAX_REDIRECTS + 1


def test_proxies_from_the_environment_are_still_used(server, monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("http_proxy", server.url.removesuffix("/v1"))
    target = fake.closed_port_url()  # nothing listens there: only the proxy can answer
    reply = ChatClient(fast(target), env={}).complete(MESSAGES)
    assert reply.text and server.requests[0].path == f"{target}/chat/completions"


# ---- the transport in both httpx flavours (the SDK's: httpx2 for openai 3, httpx before) ----


@pytest.fixture(params=[("httpx2", "httpcore2"), ("httpx", "httpcore")])
def flavour(request):
    return tuple(pytest.importorskip(name) for name in request.param)


def test_transport_bounds_hold_in_both_httpx_flavours(server, other, flavour):
    http, core = flavour
    payload = {"messages": list(MESSAGES)}

    def post(base: str = server.url, seconds: float = 5.0):
        with http.Client(transport=BoundedTransport(server.url, http=http, core=core),
                         follow_redirects=True, max_redirects=MAX_REDIRECTS) as client, \
                deadline(seconds):
            return client.post(f"{base}/chat/completions", json=payload, timeout=5.0)

    server.push(fake.gzipped(fake.chat("zipped")))
    assert post().json()["choices"][0]["message"]["content"] == "zipped"
    server.push(fake.endless())
    with pytest.raises(LLMResponseError, match=CAP_MESSAGE):
        post()
    with pytest.raises(LLMResponseError, match="another origin"):
        post(base=other.url)
    assert other.connections == 0
    server.push(fake.trickle(every=0.5, limit_s=4.0))
    start = time.monotonic()
    with pytest.raises(http.TimeoutException):
        post(seconds=1.0)
    assert time.monotonic() - start < 2.0


# ---- the reply cache --------------------------------------------------------------------


def entry_path(cache_dir, settings, server) -> str:
    """Fill the cache with one reply and return its file."""
    ChatClient(settings, env={}).complete(MESSAGES)
    [path] = cache_dir.glob("??/*.json")
    return str(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_fifo_cache_entry_is_a_miss_without_waiting(server, tmp_path):
    settings = fast(server.url, cache_dir=tmp_path)
    path = entry_path(tmp_path, settings, server)
    os.unlink(path)
    os.mkfifo(path)
    result: list[bool] = []
    worker = threading.Thread(target=lambda: result.append(
        ChatClient(settings, env={}).complete(MESSAGES).cached), daemon=True)
    worker.start()
    worker.join(3.0)
    if worker.is_alive():  # blocked opening the FIFO: let it go, then fail
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(3.0)
        pytest.fail("reading a FIFO cache entry blocked")
    assert result == [False]


def test_huge_cache_entry_is_a_miss_and_not_read(server, tmp_path):
    settings = fast(server.url, cache_dir=tmp_path)
    path = entry_path(tmp_path, settings, server)
    with open(path, "r+b") as handle:  # sparse: no disk space used
        handle.truncate(4 * MAX_ENTRY_BYTES)
    key = os.path.basename(path).removesuffix(".json")
    tracemalloc.start()
    try:
        assert ReplyCache(tmp_path).get(key) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_cache_entry_linked_to_dev_zero_is_a_miss(server, tmp_path):
    settings = fast(server.url, cache_dir=tmp_path)
    path = entry_path(tmp_path, settings, server)
    os.unlink(path)
    os.symlink("/dev/zero", path)
    key = os.path.basename(path).removesuffix(".json")
    # In a child with 1 GiB of address space, so that an unbounded read fails fast
    # (MemoryError) instead of eating the machine's memory.
    code = ("import resource, sys; from pathlib import Path\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from crashpredict.llm._cache import ReplyCache\n"
            f"print(ReplyCache(Path({str(tmp_path)!r})).get({key!r}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "None\n"), done.stderr[-500:]


@pytest.mark.parametrize("content", [
    b"\xff\xfe\x00garbage",
    b"[" * 100_000 + b"]" * 100_000,
    json.dumps({"format": "crashpredict.llm.cache/1", "text": ["not", "text"]}).encode(),
    json.dumps({"format": "crashpredict.llm.cache/1", "text": "x", "prompt_tokens": "many"}).encode(),
    json.dumps({"format": "crashpredict.llm.cache/1", "text": "x", "model": {"a": 1}}).encode(),
    json.dumps({"format": "crashpredict.llm.cache/1", "text": "x", "completion_tokens": -5}).encode(),
    json.dumps({"text": "no format"}).encode(),
], ids=["binary", "deep", "text-list", "tokens-text", "model-dict", "tokens-negative", "no-format"])
def test_garbage_cache_entry_is_a_miss_never_a_crash(server, tmp_path, content):
    settings = fast(server.url, cache_dir=tmp_path)
    path = entry_path(tmp_path, settings, server)
    with open(path, "wb") as handle:
        handle.write(content)
    reply = ChatClient(settings, env={}).complete(MESSAGES)
    assert not reply.cached and len(server.requests) == 2
    assert ChatClient(settings, env={}).complete(MESSAGES).cached  # rewritten, good again
