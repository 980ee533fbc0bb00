"""The LLM engine end to end: prompt -> real HTTP server -> votes -> Verdict; combine()."""

from __future__ import annotations

import json

import pytest

from crashpredict._model import Verdict
from crashpredict.llm import (
    ChatClient,
    LLMConfigError,
    LLMConnectionError,
    LLMRetriesExhaustedError,
    LLMSettings,
    combine,
    llm_engine,
    predict_with_llm,
    predict_with_llm_detailed,
)


import crashpredict_tests_llm_server as fake  # registered by conftest.py
rtextract = pytest.importorskip("rtextract")

EXECUTED = ("import json\nrecords = [{'a': 1}, {'a': 2}]",)
TARGET = "total = records[0]['b']\nprint(total)"
KEY_ERROR = dict(exception="KeyError", line=1, crash_type="key error", library="python",
                 explanation="records[0] has only key 'a'")


def fast(url: str, **changes) -> LLMSettings:
    values = dict(model="gpt-4o-mini", base_url=url, timeout=2.0, max_retries=2,
                  total_budget_s=5.0, backoff_base_s=0.01, backoff_max_s=0.02, cache_dir=None)
    values.update(changes)
    return LLMSettings(**values)


def snapshot(namespace, cell=TARGET) -> str:
    return rtextract.snapshot(namespace, cell).to_json()


def predict(server, *, snap=None, env=None, **changes):
    return predict_with_llm_detailed(TARGET, EXECUTED, snap, fast(server.url, **changes),
                                     env=env if env is not None else {})


def test_crash_answer_becomes_a_verdict(server):
    server.push(fake.answer(True, **KEY_ERROR))
    verdict = predict_with_llm(TARGET, EXECUTED, None, fast(server.url))
    assert (verdict.crash, verdict.confidence, verdict.exception, verdict.line,
            verdict.crash_type, verdict.library, verdict.explanation, verdict.engine) == (
        True, 1.0, "KeyError", 1, "key error", "python", "records[0] has only key 'a'", "llm")
    assert verdict.evidence[:2] == (
        f"llm: model fake-model at {server.url}, variant code+SRV",
        "votes: 1 crash, 0 no crash, 0 unusable")


def test_usage_and_cost_are_recorded(server):
    server.push(fake.Response(body={**fake.chat("{}").body, "model": "gpt-4o-mini"}))
    server.fallback = fake.chat(json.dumps({"detection": False}), model="gpt-4o-mini",
                                prompt_tokens=1000, completion_tokens=100)
    result = predict(server, votes=1)
    assert result.verdict.crash is None  # "{}" has no detection
    result = predict(server, votes=2)
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (2000, 200)
    assert result.cost == pytest.approx(2 * (1000 * 0.15 + 100 * 0.6) / 1e6)
    assert "tokens: 2000 prompt + 200 completion, cost $0.000420, 0/2 cached" in result.verdict.evidence


def test_fenced_json_answer_is_parsed(server):
    server.push(fake.chat("Sure!\n```json\n" + json.dumps({"detection": True, **KEY_ERROR})
                          + "\n```\nAnything else?"))
    assert predict(server).verdict.exception == "KeyError"


def test_garbage_reply_is_an_unknown_verdict_with_the_raw_text(server):
    server.push(fake.chat("I'm sorry, I cannot help with notebooks today."))
    verdict = predict(server).verdict
    assert (verdict.crash, verdict.crash_type, verdict.explanation) == (
        None, "unknown", "no reply could be parsed")
    assert "unparseable reply: I'm sorry, I cannot help with notebooks today." in verdict.evidence


def test_a_six_megabyte_answer_gives_a_small_verdict(server):
    huge = 1_500_000  # four such fields: 6 MB, under the client's 8 MiB reply cap
    server.push(fake.chat(json.dumps({**KEY_ERROR, "detection": True, "reasoning": "r" * huge,
                                      "explanation": "e" * huge, "exception": "E" * huge}),
                          model="m" * huge))
    verdict = predict(server).verdict
    assert (verdict.crash, verdict.line, verdict.crash_type) == (True, 1, "key error")
    assert len(verdict.explanation) < 1100 and verdict.explanation.endswith("more characters]")
    assert len(verdict.exception) == 100
    reasoning = next(e for e in verdict.evidence if e.startswith("reasoning: "))
    assert reasoning.endswith(f"[truncated: {huge - 4000:,} more characters]")
    # printed and stored (benchkit writes the verdict to results.jsonl): a few kilobytes
    assert len(verdict.to_json()) < 8000


def test_a_huge_unparseable_reply_is_kept_short_with_a_marker(server):
    server.push(fake.chat("no json here " * 100_000))
    evidence = predict(server).verdict.evidence
    raw = next(e for e in evidence if e.startswith("unparseable reply: "))
    assert len(raw) < 2100 and raw.endswith("more characters]")


def test_majority_of_votes_decides_and_the_diagnosis_follows_the_majority(server):
    server.push(fake.answer(True, **KEY_ERROR), fake.answer(False),
                fake.answer(True, **{**KEY_ERROR, "line": 2}), fake.answer(True, **KEY_ERROR),
                fake.answer(True, exception="TypeError", crash_type="type error", line=2))
    result = predict(server, votes=5)
    assert len(server.requests) == 5
    assert (result.verdict.crash, result.verdict.confidence, result.verdict.exception,
            result.verdict.line) == (True, 0.8, "KeyError", 1)
    assert "votes: 4 crash, 1 no crash, 0 unusable" in result.verdict.evidence


def test_votes_majority_for_no_crash(server):
    server.push(fake.answer(False, explanation="fine"), fake.answer(True, **KEY_ERROR),
                fake.answer(False))
    verdict = predict(server, votes=3).verdict
    assert (verdict.crash, verdict.confidence, verdict.exception) == (False, pytest.approx(2 / 3), None)


def test_tied_votes_give_unknown(server):
    server.push(fake.answer(True, **KEY_ERROR), fake.answer(False))
    verdict = predict(server, votes=2).verdict
    assert (verdict.crash, verdict.explanation) == (None, "votes split evenly")


def test_unparseable_votes_abstain(server):
    server.push(fake.chat("garbage"), fake.answer(True, **KEY_ERROR), fake.chat("more garbage"))
    verdict = predict(server, votes=3).verdict
    assert (verdict.crash, verdict.confidence) == (True, pytest.approx(1 / 3))


def test_a_vote_whose_call_fails_abstains(server):
    server.push(fake.answer(True, **KEY_ERROR), *(fake.error(500) for _ in range(3)),
                fake.answer(True, **KEY_ERROR))
    verdict = predict(server, votes=3, max_retries=2).verdict
    assert verdict.crash is True
    assert any(e.startswith("call failed:") and "HTTP 500" in e for e in verdict.evidence)


def test_every_call_failing_raises(server):
    server.fallback = fake.error(500)
    with pytest.raises(LLMRetriesExhaustedError):
        predict(server, votes=2, max_retries=1)


def test_connection_refused_raises_naming_the_url():
    url = fake.closed_port_url()
    with pytest.raises(LLMConnectionError, match=f"at {url}/chat/completions"):
        predict_with_llm(TARGET, EXECUTED, None, fast(url, votes=3))


def test_second_run_is_served_from_the_cache(server, tmp_path):
    server.fallback = fake.answer(True, **KEY_ERROR)
    snap = snapshot({"records": [{"a": 1}]})
    first = predict(server, snap=snap, votes=3, cache_dir=tmp_path)
    second = predict(server, snap=snap, votes=3, cache_dir=tmp_path)
    assert len(server.requests) == 3
    assert second.cached and not first.cached
    assert (second.verdict.crash, second.cost, second.usage.prompt_tokens) == (True, 0.0, 0)
    assert "cost $0.000000, 3/3 cached" in second.verdict.evidence[2]


def test_runtime_facts_reach_the_prompt(server):
    predict(server, snap=snapshot({"records": [{"a": 1}, {"a": 2}]}))
    sent = server.requests[0].body["messages"][1]["content"]
    assert "### Runtime information" in sent and "records" in sent


def test_secrets_in_code_facts_and_environment_never_reach_the_server(server):
    env = {"DB_PASSWORD": "s3cr3t-pa55word", "HOME": "/home/me"}
    api_key = "sk-proj-Zx9Yw8Xv7Wu6Vt5Us4Tr3Sq2"
    executed = (f'client = Client(api_key="{api_key}")\npassword = "hunter2hunter2"\n'
                'conn = "postgres://admin:s3cr3t-pa55word@db/prod"',)
    namespace = {"password": "hunter2hunter2", "secret_value": "s3cr3t-pa55word",
                 "tokens": ["a", "b"], "keys": [api_key]}
    target = "print(password, secret_value, tokens, keys)"
    snap = rtextract.snapshot(namespace, target).to_json()
    assert "hunter2hunter2" in snap and api_key in snap  # the facts do hold the secrets
    predict_with_llm_detailed(target, executed, snap, fast(server.url), env=env)
    sent = server.requests[0].text
    for secret in (api_key, "hunter2hunter2", "s3cr3t-pa55word"):
        assert secret not in sent
    assert "[REDACTED]" in sent
    assert "tokens" in sent and "/home/me" not in sent  # ordinary names stay; HOME is unused


@pytest.mark.parametrize("no_values", [False, True])
def test_secret_column_values_never_reach_the_server(server, no_values):
    pd = pytest.importorskip("pandas")
    staff = pd.DataFrame([["cy", "rowwise-pa55"], ["di", "kw-pa55"]], columns=["user", "password"])
    executed = ('staff = pd.DataFrame([["cy", "rowwise-pa55"], ["di", "kw-pa55"]], '
                'columns=["user", "password"])',)
    target = "staff.password.str.len()"
    snap = rtextract.snapshot({"staff": staff}, target).to_json()
    predict_with_llm_detailed(target, executed, snap, fast(server.url, no_values=no_values), env={})
    sent = server.requests[0].text
    assert "rowwise-pa55" not in sent and "kw-pa55" not in sent
    prompt = server.requests[0].body["messages"][1]["content"]
    assert '["cy", "[REDACTED]"]' in prompt and "staff.password" in prompt


def test_no_values_sends_no_v_facts(server):
    snap = snapshot({"labels": ["VALUE-MARKER-42", "b"]}, "x = labels[5]")
    predict(server, snap=snap)
    predict(server, snap=snap, no_values=True)
    with_values, without = (r.body["messages"][1]["content"] for r in server.requests)
    assert "VALUE-MARKER-42" in with_values and "\n  V " in with_values
    assert "VALUE-MARKER-42" not in without and "\n  V " not in without
    assert "labels" in without and "length = 2" in without


@pytest.mark.parametrize(("categories", "include_rules", "expect"), [
    ("code", False, ("### Runtime information", "### Findings")),
    ("SR", True, ()),
])
def test_ablation_variants_shape_the_prompt(server, categories, include_rules, expect):
    predict_with_llm_detailed(TARGET, EXECUTED, snapshot({"records": [{"a": 1}]}),
                              fast(server.url, categories=categories, include_rules=include_rules),
                              rule_findings=("KeyError: 'b' is not a key of records[0]",), env={})
    sent = server.requests[0].body["messages"][1]["content"]
    for absent in expect:
        assert absent not in sent
    if include_rules:
        assert "- KeyError: 'b' is not a key of records[0]" in sent


def test_bad_snapshot_json_is_a_config_error(server):
    with pytest.raises(LLMConfigError, match="runtime facts"):
        predict(server, snap='{"format": "something else"}')


def test_shared_client_is_reused(server):
    settings = fast(server.url)
    client = ChatClient(settings, env={})
    for _ in range(2):
        predict_with_llm_detailed(TARGET, EXECUTED, None, settings, client=client)
    assert len(server.requests) == 2


# ---- settings and flags -------------------------------------------------------------------

def _llm_settings(*flags, env):
    """The LLM settings `crashpredict check` builds from these command-line flags."""
    from crashpredict import engine_options
    from crashpredict.cli import _parser

    args = _parser().parse_args(["check", "nb.ipynb", *flags])
    return engine_options(("rules", "llm"), vars(args), env=env)["llm"]["settings"]


def test_flags_become_settings(tmp_path):
    settings = _llm_settings(
        "--llm-model", "llama3", "--llm-base-url", "http://localhost:8080/v1/",
        "--llm-votes", "5", "--llm-temperature", "0.7", "--llm-timeout", "30",
        "--llm-facts", "sr", "--llm-rules", "--no-values", "--llm-cache-dir", str(tmp_path),
        "--llm-api-key-env", "LOCAL_KEY", "--llm-budget", "60", env={})
    assert (settings.model, settings.base_url, settings.votes, settings.temperature,
            settings.timeout, settings.categories, settings.include_rules, settings.no_values,
            settings.cache_dir, settings.api_key_env, settings.total_budget_s) == (
        "llama3", "http://localhost:8080/v1", 5, 0.7, 30.0, "SR", True, True, tmp_path,
        "LOCAL_KEY", 60.0)
    assert settings.variant == "code+SR+rules"


def test_environment_fills_what_flags_leave_out(tmp_path):
    env = {"CRASHPREDICT_LLM_MODEL": "qwen2.5-coder", "OPENAI_BASE_URL": "http://h:1/v1",
           "CRASHPREDICT_LLM_CACHE": str(tmp_path)}
    settings = _llm_settings(env=env)
    assert (settings.model, settings.base_url, settings.cache_dir, settings.votes) == (
        "qwen2.5-coder", "http://h:1/v1", tmp_path, 1)
    assert _llm_settings("--llm-no-cache", env=env).cache_dir is None


def test_every_engine_flag_is_read_by_its_engine(tmp_path):
    """A flag in ENGINE_FLAGS that no engine reads would be silently ignored."""
    from crashpredict import ENGINE_FLAGS, engine_options

    prices = tmp_path / "prices.json"
    prices.write_text('{"m": [1, 2]}')
    given = {"dryrun_budget": 7.0, "shrink": 10, "llm_model": "m", "llm_base_url": "http://h:1/v1",
             "llm_api_key_env": "K", "llm_temperature": 0.5, "llm_timeout": 9.0, "llm_votes": 3,
             "llm_max_retries": 2, "llm_budget": 50.0, "llm_max_tokens": 100, "llm_facts": "S",
             "llm_rules": True, "llm_fact_tokens": 300, "llm_cache_dir": tmp_path,
             "llm_no_cache": None, "llm_no_json_mode": True, "llm_prices": prices,
             "no_values": True}
    assert set(given) == {flag.dest for flag in ENGINE_FLAGS}
    options = engine_options(("dryrun", "llm"), given, env={})
    assert options["dryrun"] == {"budget_s": 7.0, "shrink": 10}
    settings = options["llm"]["settings"]
    defaults = engine_options(("llm",), {}, env={})["llm"]["settings"]
    changed = {f for f in settings.__dataclass_fields__
               if getattr(settings, f) != getattr(defaults, f)}
    assert changed >= {"model", "base_url", "api_key_env", "temperature", "timeout", "votes",
                       "max_retries", "total_budget_s", "max_tokens", "categories",
                       "include_rules", "fact_tokens", "cache_dir", "json_mode", "prices",
                       "no_values"}


@pytest.mark.parametrize(("values", "message"), [
    ({"dryrun_budget": 0}, "--dryrun-budget must be positive"),
    ({"shrink": 0}, "--shrink must be at least 1"),
])
def test_bad_dryrun_options_are_option_errors(values, message):
    from crashpredict import EngineOptionError, engine_options

    with pytest.raises(EngineOptionError, match=message):
        engine_options(("dryrun",), values)


@pytest.mark.parametrize(("changes", "message"), [
    ({"votes": 0}, "votes must be at least 1"),
    ({"temperature": 3.0}, "temperature"),
    ({"categories": "SXV"}, "unknown fact categories 'X'"),
    ({"base_url": "localhost:8080"}, "must start with http"),
    ({"timeout": 0}, "timeout must be positive"),
])
def test_invalid_settings_are_config_errors(changes, message):
    with pytest.raises(LLMConfigError, match=message):
        LLMSettings(**changes)


# ---- combine -------------------------------------------------------------------------------

RULE_CRASH = Verdict(crash=True, confidence=0.97, exception="KeyError", engine="rules")
RULE_SILENT = Verdict(crash=False, confidence=0.6, engine="rules")
DRY_FINE = Verdict(crash=False, confidence=0.95, engine="dryrun")
DRY_UNKNOWN = Verdict(crash=None, confidence=0.0, engine="dryrun")
LLM_CRASH = Verdict(crash=True, confidence=0.8, exception="ValueError", engine="llm")
LLM_FINE = Verdict(crash=False, confidence=1.0, engine="llm")
LLM_UNKNOWN = Verdict(crash=None, confidence=0.0, engine="llm")


@pytest.mark.parametrize(("verdicts", "decider", "why"), [
    ((RULE_CRASH, LLM_FINE), RULE_CRASH, "certain"),
    ((RULE_SILENT, LLM_CRASH), LLM_CRASH, "other engines silent or unsure"),
    ((RULE_SILENT, DRY_FINE, LLM_CRASH), DRY_FINE, "certain"),
    ((RULE_SILENT, DRY_UNKNOWN, LLM_CRASH), LLM_CRASH, "other engines silent or unsure"),
    ((RULE_SILENT, LLM_UNKNOWN), RULE_SILENT, "most confident"),
    ((DRY_UNKNOWN, LLM_UNKNOWN), DRY_UNKNOWN, "no engine could decide"),
    ((RULE_CRASH, DRY_FINE.__class__(crash=False, confidence=0.97, engine="dryrun")),
     RULE_CRASH, "certain"),
])
def test_combine_keeps_certain_verdicts_and_lets_the_llm_decide_the_rest(verdicts, decider, why):
    result = combine(verdicts)
    assert (result.crash, result.exception, result.engine, result.confidence) == (
        decider.crash, decider.exception, decider.engine, decider.confidence)
    assert result.evidence[0] == f"decided by {decider.engine} ({why})"
    assert len(result.evidence) == 1 + len(decider.evidence) + len(verdicts) - 1


def test_combine_of_one_verdict_is_that_verdict():
    assert combine([LLM_CRASH]) is LLM_CRASH
    with pytest.raises(ValueError):
        combine([])


# ---- in-process engine for the registry ---------------------------------------------------

def test_llm_engine_reads_history_and_facts_from_the_namespace(server):
    server.push(fake.answer(True, **KEY_ERROR))
    engine = llm_engine(fast(server.url), client=ChatClient(fast(server.url), env={}))
    namespace = {"_ih": ["", "records = [{'a': 1}]", "n = len(records)", TARGET],
                 "records": [{"a": 1}], "n": 1}
    verdict = engine(TARGET, namespace)
    assert (verdict.crash, verdict.exception, verdict.engine) == (True, "KeyError", "llm")
    sent = server.requests[0].body["messages"][1]["content"]
    assert "# [executed cell 1]\nrecords = [{'a': 1}]\n\n# [executed cell 2]\nn = len(records)" in sent
    assert "records[0]['b']: KeyError: 'b'" in sent  # rtextract's note on the failed lookup


def test_settings_are_hashable_values():
    assert hash(LLMSettings(votes=3)) == hash(LLMSettings(votes=3))
    assert LLMSettings(votes=3) != LLMSettings(votes=5)
    assert {LLMSettings(): 1}[LLMSettings()] == 1


def test_settings_pickle_round_trip_for_worker_processes():
    import pickle

    from crashpredict.llm import LLMSettings, PriceTable

    settings = LLMSettings(model="local-model", prices=PriceTable.from_mapping({"local-model": [1, 2]}))
    again = pickle.loads(pickle.dumps(settings))
    assert again == settings and hash(again) == hash(settings)
    assert again.prices.price("local-model").output_per_mtok == 2


# ---- hostile live objects (issue 16.5) -----------------------------------------------------

USER_CODE: list[str] = []


class Untouchable:
    """Every attribute read (``__class__`` too, which isinstance() asks for) is refused."""

    def __getattribute__(self, name):
        USER_CODE.append(f"Untouchable.{name}")
        raise RuntimeError(f"hostile __getattribute__({name})")


def _hostile_frame():
    pd = pytest.importorskip("pandas")

    class RecordingFrame(pd.DataFrame):
        @property
        def shape(self):
            USER_CODE.append("RecordingFrame.shape")
            raise RuntimeError("hostile shape")

        def __len__(self):
            USER_CODE.append("RecordingFrame.__len__")
            raise RuntimeError("hostile __len__")

    return RecordingFrame({"age": [31, 45], "income": [1.5, 2.5]})


HOSTILE_CELL = "model.fit(frame)\npredictions = model.predict(frame)"


def test_predict_on_hostile_objects_does_not_raise_and_the_llm_answers(server):
    from crashpredict import predict as crashpredict_predict

    server.push(fake.answer(True, exception="AttributeError", line=1,
                            crash_type="attribute error", library="python",
                            explanation="model has no fit"))
    namespace = {"model": Untouchable(), "frame": _hostile_frame()}
    USER_CODE.clear()
    verdict = crashpredict_predict(HOSTILE_CELL, namespace, engines=("rules", "llm"),
                                   options={"llm": {"settings": fast(server.url)}})
    assert (verdict.crash, verdict.exception, verdict.engine) == (True, "AttributeError", "llm")
    prompt = server.requests[0].body["messages"][1]["content"]
    assert "shape = [2, 2]" in prompt  # the frame's true facts, read without its overrides
    assert not any(call.startswith("RecordingFrame") for call in USER_CODE)


def test_rules_abstain_quietly_on_an_object_whose_getattribute_raises():
    from crashpredict import predict as crashpredict_predict

    USER_CODE.clear()
    verdict = crashpredict_predict(HOSTILE_CELL, {"model": Untouchable(),
                                                  "frame": _hostile_frame()})
    assert USER_CODE == []
    assert verdict.crash is not True and "failed" not in verdict.explanation


def test_rules_run_none_of_a_frame_subclass_overrides():
    from crashpredict import predict as crashpredict_predict

    pd = pytest.importorskip("pandas")

    class ColumnsFrame(pd.DataFrame):
        @property
        def columns(self):
            USER_CODE.append("ColumnsFrame.columns")
            return pd.DataFrame.columns.fget(self)

    frame = ColumnsFrame({"a": [1, 2]})
    USER_CODE.clear()
    verdict = crashpredict_predict("frame['zzz']", {"frame": frame})
    assert USER_CODE == []
    assert verdict.crash is not False or verdict.confidence < 0.9
