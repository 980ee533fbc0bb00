"""ChatClient against a real chat-completions server on 127.0.0.1 (the real openai SDK)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from crashpredict.llm import (
    ChatClient,
    LLMConfigError,
    LLMConnectionError,
    LLMReply,
    LLMRequestError,
    LLMRetriesExhaustedError,
    LLMSDKMissingError,
    LLMSettings,
    LLMTimeoutError,
    PriceTable,
    Usage,
)


import crashpredict_tests_llm_server as fake  # registered by conftest.py
MESSAGES = ({"role": "user", "content": "Is 1 + 1 two? Answer in JSON."},)


def fast(url: str, **changes) -> LLMSettings:
    """Settings with tiny timeouts and backoff, no cache, for tests."""
    values = dict(model="fake-model", base_url=url, timeout=2.0, max_retries=3,
                  total_budget_s=5.0, backoff_base_s=0.01, backoff_max_s=0.02, cache_dir=None)
    values.update(changes)
    return LLMSettings(**values)


def test_normal_answer_returns_text_usage_and_model(server):
    server.push(fake.chat('{"ok": true}', model="fake-model-2024", prompt_tokens=12,
                          completion_tokens=3))
    reply = ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert (reply.text, reply.usage, reply.model, reply.cached, reply.attempts) == (
        '{"ok": true}', Usage(prompt_tokens=12, completion_tokens=3), "fake-model-2024", False, 1)
    assert reply.latency_s >= 0
    [request] = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == "fake-model"
    assert request.body["messages"] == [dict(m) for m in MESSAGES]
    assert request.body["response_format"] == {"type": "json_object"}
    assert request.body["temperature"] == 0.0


def test_api_key_comes_from_the_named_variable(server):
    ChatClient(fast(server.url, api_key_env="MY_LLM_KEY"), env={"MY_LLM_KEY": "k-123"}).complete(
        MESSAGES)
    assert server.requests[0].headers["authorization"] == "Bearer k-123"


def test_json_mode_off_sends_no_response_format(server):
    ChatClient(fast(server.url), env={}).complete(MESSAGES, json_mode=False)
    assert "response_format" not in server.requests[0].body


def test_server_rejecting_json_mode_is_asked_again_without_it(server):
    server.push(fake.error(400, "response_format is not supported"), fake.chat("plain text"))
    reply = ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert reply.text == "plain text"
    assert ["response_format" in r.body for r in server.requests] == [True, False]


def test_429_then_success_is_retried(server):
    server.push(fake.error(429, "slow down", headers={"Retry-After": "0"}), fake.chat("{}"))
    reply = ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert (reply.text, reply.attempts, len(server.requests)) == ("{}", 2, 2)


def test_5xx_until_the_retries_are_spent_names_the_url(server):
    server.fallback = fake.error(503, "overloaded")
    client = ChatClient(fast(server.url, max_retries=2), env={})
    with pytest.raises(LLMRetriesExhaustedError) as info:
        client.complete(MESSAGES)
    assert len(server.requests) == 3
    assert str(info.value) .startswith(f"{server.url}/chat/completions: no usable answer after 3 attempts")
    assert "HTTP 503" in str(info.value)


def test_5xx_until_the_time_budget_is_spent_stops_early(server):
    # A fake clock: every sleep advances time, so the budget runs out without waiting.
    now = [0.0]
    server.fallback = fake.error(500)
    client = ChatClient(fast(server.url, max_retries=100, total_budget_s=10.0,
                             backoff_base_s=1.0, backoff_max_s=4.0),
                        env={}, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    with pytest.raises(LLMRetriesExhaustedError, match="HTTP 500"):
        client.complete(MESSAGES)
    # backoff 1, 2, 4, 4 (+ jitter in [d/2, d]) exceeds 10 s after at most 6 requests
    assert 3 <= len(server.requests) <= 6
    assert now[0] < 10.0


def test_backoff_grows_exponentially_with_jitter_and_a_cap(server):
    sleeps: list[float] = []
    server.push(*(fake.error(502) for _ in range(4)), fake.chat("{}"))
    client = ChatClient(fast(server.url, max_retries=5, backoff_base_s=0.01, backoff_max_s=0.04),
                        env={}, sleep=sleeps.append)
    assert client.complete(MESSAGES).attempts == 5
    ceilings = (0.01, 0.02, 0.04, 0.04)
    assert len(sleeps) == 4
    assert all(c / 2 <= s <= c for s, c in zip(sleeps, ceilings))


def test_slow_server_past_the_timeout_raises_a_timeout_error(server):
    server.fallback = fake.chat("{}", delay=5.0)
    client = ChatClient(fast(server.url, timeout=0.2, max_retries=1, total_budget_s=2.0), env={})
    with pytest.raises(LLMTimeoutError, match="no answer within"):
        client.complete(MESSAGES)
    assert len(server.requests) == 2


def test_timeout_then_success_is_retried(server):
    server.push(fake.chat("{}", delay=5.0), fake.chat('{"a": 1}'))
    reply = ChatClient(fast(server.url, timeout=0.2), env={}).complete(MESSAGES)
    assert (reply.text, reply.attempts) == ('{"a": 1}', 2)


def test_connection_refused_is_one_line_naming_the_url():
    url = fake.closed_port_url()
    with pytest.raises(LLMConnectionError) as info:
        ChatClient(fast(url), env={}).complete(MESSAGES)
    assert str(info.value) == f"cannot reach the LLM server at {url}/chat/completions: connection refused"
    assert isinstance(info.value, ConnectionError)


def test_4xx_is_not_retried(server):
    server.fallback = fake.error(401, "bad key")
    with pytest.raises(LLMRequestError, match="HTTP 401"):
        ChatClient(fast(server.url), env={}).complete(MESSAGES, json_mode=False)
    assert len(server.requests) == 1


def test_no_api_key_for_the_openai_endpoint_is_a_config_error():
    client = ChatClient(LLMSettings(cache_dir=None), env={})
    with pytest.raises(LLMConfigError, match="set OPENAI_API_KEY"):
        client.complete(MESSAGES)


def test_cache_hit_makes_no_request(server, tmp_path):
    server.push(fake.chat('{"first": 1}', prompt_tokens=7, completion_tokens=2))
    settings = fast(server.url, cache_dir=tmp_path)
    first = ChatClient(settings, env={}).complete(MESSAGES)
    second = ChatClient(settings, env={}).complete(MESSAGES)
    assert len(server.requests) == 1
    assert (second.text, second.usage, second.cached, second.attempts) == (
        first.text, first.usage, True, 0)
    assert second.cost(PriceTable.default()) == 0.0


def test_cache_key_covers_sample_model_and_prompt(server, tmp_path):
    settings = fast(server.url, cache_dir=tmp_path)
    client = ChatClient(settings, env={})
    client.complete(MESSAGES, sample=0)
    client.complete(MESSAGES, sample=1)
    ChatClient(settings.replace(model="other"), env={}).complete(MESSAGES)
    client.complete(({"role": "user", "content": "something else"},))
    client.complete(MESSAGES, sample=1)
    assert len(server.requests) == 4


def test_cached_replies_need_no_api_key_and_no_server(server, tmp_path):
    settings = fast(server.url, cache_dir=tmp_path)
    ChatClient(settings, env={}).complete(MESSAGES)
    server.stop()
    assert ChatClient(settings, env={}).complete(MESSAGES).cached


def test_corrupt_cache_entry_is_a_miss(server, tmp_path):
    settings = fast(server.url, cache_dir=tmp_path)
    ChatClient(settings, env={}).complete(MESSAGES)
    for path in tmp_path.glob("??/*.json"):
        path.write_text("{not json")
    assert not ChatClient(settings, env={}).complete(MESSAGES).cached
    assert len(server.requests) == 2


def test_secrets_in_messages_never_reach_the_server(server):
    secret_env = {"MY_SERVICE_TOKEN": "tok_9f8e7d6c5b4a"}
    messages = ({"role": "user", "content":
                 'openai.api_key = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2"\n'
                 'headers = {"auth": "tok_9f8e7d6c5b4a"}\npassword = "hunter2!"'},)
    ChatClient(fast(server.url), env=secret_env).complete(messages)
    sent = server.requests[0].text
    for secret in ("sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2", "tok_9f8e7d6c5b4a", "hunter2!"):
        assert secret not in sent
    assert "[REDACTED]" in sent


def test_missing_sdk_names_the_pip_line(server, monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(LLMSDKMissingError, match=r"pip install 'crashpredict\[llm\]'"):
        ChatClient(fast(server.url), env={}).complete(MESSAGES)
    assert server.requests == []


def test_importing_the_llm_package_imports_neither_openai_nor_rtextract():
    code = ("import sys, crashpredict.llm; "
            "print(json.dumps([m in sys.modules for m in ('openai', 'rtextract', 'pandas')]))")
    out = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout) == [False, False, False]


def test_price_table_costs_usage_by_longest_prefix(tmp_path):
    table = PriceTable.default()
    usage = Usage(prompt_tokens=1_000_000, completion_tokens=100_000)
    assert table.cost("gpt-4o-mini-2024-07-18", usage) == pytest.approx(0.15 + 0.06)
    assert table.cost("gpt-4o-2024-08-06", usage) == pytest.approx(2.5 + 1.0)
    assert table.cost("llama3:8b", usage) is None
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"llama3:8b": [0, 0], "gpt-4o": [5, 15]}))
    custom = PriceTable.from_file(prices)
    assert (custom.cost("llama3:8b", usage), custom.cost("gpt-4o", usage)) == (0.0, 6.5)
    assert custom.cost("gpt-4o-mini", usage) == pytest.approx(0.21)


def test_bad_price_file_names_the_file(tmp_path):
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"m": "cheap"}))
    with pytest.raises(LLMConfigError, match=r"prices\.json: price of 'm'"):
        PriceTable.from_file(prices)


def test_reply_cost_is_none_for_an_unknown_model():
    reply = LLMReply(text="", usage=Usage(prompt_tokens=5), model="mystery")
    assert reply.cost(PriceTable.default()) is None


def test_malformed_http_body_is_retried_then_reported(server):
    server.fallback = fake.Response(body="<html>502 from a proxy</html>")
    with pytest.raises(LLMRetriesExhaustedError, match="malformed response body"):
        ChatClient(fast(server.url, max_retries=1), env={}).complete(MESSAGES)
    assert len(server.requests) == 2


def test_reply_without_choices_is_empty_text_and_not_cached(server, tmp_path):
    server.fallback = fake.Response(body={"object": "chat.completion", "choices": []})
    settings = fast(server.url, cache_dir=tmp_path)
    for _ in range(2):
        reply = ChatClient(settings, env={}).complete(MESSAGES)
        assert (reply.text, reply.usage, reply.cached) == ("", Usage(), False)
    assert len(server.requests) == 2
