"""Redaction of secrets: what is hidden, and ordinary code that must stay readable."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crashpredict.llm import Redactor

ENV = {
    "HOME": "/home/analyst", "PATH": "/usr/local/bin:/usr/bin", "LANG": "en_US.UTF-8",
    "PWD": "/home/analyst/project", "SHELL": "/bin/bash", "TERM": "xterm-256color",
    "WANDB_API_KEY": "w4ndbk3y", "DATABASE_PASSWORD": "correct-horse",
    "SESSION_ID": "s1", "BUILD_ID": "a1b2c3d4e5f6a7b8c9d0",
}


@pytest.mark.parametrize(("text", "expected"), [
    ('openai.api_key = "sk-proj-AbCdEfGhIjKlMnOpQrSt1234"', 'openai.api_key = "[REDACTED]"'),
    ("gh = 'ghp_0123456789abcdefghijABCDEFGHIJ012345'", "gh = '[REDACTED]'"),
    ("aws AKIAIOSFODNN7EXAMPLE here", "aws [REDACTED] here"),
    ("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789", "HF_TOKEN=[REDACTED]"),
    ("Authorization: Bearer abcdef0123456789ABCDEF", "Authorization: Bearer [REDACTED]"),
    ("engine = create_engine('postgresql://bob:pa55@db:5432/x')",
     "engine = create_engine('postgresql://bob:[REDACTED]@db:5432/x')"),
    ('password = "letmein"', 'password = "[REDACTED]"'),
    ("config = {'db_password': 'x1', \"secret\": \"y2\"}",
     "config = {'db_password': '[REDACTED]', \"secret\": \"[REDACTED]\"}"),
    ("login(user, pwd='abc')", "login(user, pwd='[REDACTED]')"),
    ("wandb.login(key='w4ndbk3y')", "wandb.login(key='[REDACTED]')"),
    ("conn.auth('correct-horse')", "conn.auth('[REDACTED]')"),
    ("run_id = 'a1b2c3d4e5f6a7b8c9d0'", "run_id = '[REDACTED]'"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "[REDACTED]"),
])
def test_secrets_are_redacted(text, expected):
    assert Redactor.from_env(ENV).redact(text) == expected


@pytest.mark.parametrize("text", [
    "tokens = tokenizer(text, max_tokens=512)",
    "df = pd.read_csv('/home/analyst/data.csv')",  # HOME is not a secret
    "export LANG=en_US.UTF-8; echo $SHELL /bin/bash",
    "key = 'target'\ndf[key]",
    "s1 = session_id_1",  # a 2-character secret-named value is ignored
    "model.fit(X_train, y_train, epochs=10, batch_size=32)",
    "password = None\nsecret = ''",
    "url = 'https://example.com/data.csv'",
])
def test_ordinary_code_is_left_alone(text):
    assert Redactor.from_env(ENV).redact(text) == text


def test_learned_secrets_are_hidden_everywhere():
    redactor = Redactor.from_env({}).learn(['db_password = "Tr0ub4dor&3"'])
    assert redactor.redact('value = "Tr0ub4dor&3"') == 'value = "[REDACTED]"'


def test_redact_value_walks_json_like_values():
    redactor = Redactor.from_env({})
    value = {"k": ["sk-AbCdEfGhIjKlMnOpQrSt", 3, None], "sk-AbCdEfGhIjKlMnOpQrSt": 1.5}
    assert redactor.redact_value(value) == {"k": ["[REDACTED]", 3, None], "[REDACTED]": 1.5}


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_redaction_is_idempotent_and_never_raises(text):
    redactor = Redactor.from_env(ENV)
    once = redactor.redact(text)
    assert redactor.redact(once) == once


# --- secrets bound to names, end to end: a real prompt from a real frame -----------------

pd = pytest.importorskip("pandas")
rtextract = pytest.importorskip("rtextract")

SECRETS = ("hunter2", "letmein!", "sk-proj-Q1w2E3r4T5y6U7i8O9p0", "tok-abcdef-0042",
           "s3cr3t-default", "rowwise-pa55")
EXECUTED = (
    'import pandas as pd\n'
    'users = pd.DataFrame({"user": ["ann", "bob"], "password": ["hunter2", "letmein!"]})',
    'api_key = "sk-proj-Q1w2E3r4T5y6U7i8O9p0"\n'
    'headers = {"token": "tok-abcdef-0042", "accept": "json"}',
    'def connect(host, api_key="s3cr3t-default"):\n    return host\n'
    'session = connect("db", password="hunter2")',
    # row-wise: nothing in the code ties this value to the column; the data does
    'staff = pd.DataFrame([["cy", "rowwise-pa55"]], columns=["user", "password"])',
)
TARGET = "print(users.password, staff.shape, headers)\nusers.password.str.len().max()"


def _prompt(**settings_changes):
    from crashpredict.llm import LLMSettings
    from crashpredict.llm._engine import prompt_redactor, runtime_block

    namespace = {"pd": pd, "users": pd.DataFrame({"user": ["ann", "bob"],
                                                  "password": ["hunter2", "letmein!"]}),
                 "staff": pd.DataFrame([["cy", "rowwise-pa55"]], columns=["user", "password"]),
                 "headers": {"token": "tok-abcdef-0042", "accept": "json"}}
    snap = rtextract.snapshot(namespace, TARGET + "\nstaff").to_json()
    for secret in ("hunter2", "rowwise-pa55"):
        assert secret in snap  # the facts do carry the values: redaction must remove them
    settings = LLMSettings(cache_dir=None, **settings_changes)
    redactor = prompt_redactor(TARGET, EXECUTED, snap, env={})
    from crashpredict.llm import build_messages

    messages = build_messages(TARGET, EXECUTED, runtime=runtime_block(snap, settings, redactor))
    return "\n".join(redactor.redact(m["content"]) for m in messages)


@pytest.mark.parametrize("no_values", [False, True])
def test_secret_columns_keys_and_arguments_never_reach_the_prompt(no_values):
    prompt = _prompt(no_values=no_values)
    for secret in SECRETS:
        assert secret not in prompt, secret
    # what the model needs stays: names, columns, other values, structure
    for kept in ("users.password", '"user"', "ann", "accept", "json", "connect(", "[REDACTED]"):
        assert kept in prompt, kept
    assert ("examples" in prompt) is not no_values


def test_secret_values_in_code_cover_containers_calls_and_defaults():
    from crashpredict.llm._secrets import secret_values_in_code

    code = ('creds = {"api_key": ["k-one", "k-two"], "region": "eu"}\n'
            'user, password = "ann", "pw-ann"\n'
            'os.environ["HF_TOKEN"] = "hf-env-value"\n'
            'client = Client(token=f"tok-{n}", timeout=3)\n'
            'if password == "fallback-pw": pass\n'
            'def f(x, *, secret="kw-default"): pass\n'
            '%time tokens = ["not", "secret"]\n')
    assert secret_values_in_code(code) == {"k-one", "k-two", "pw-ann", "hf-env-value", "tok-",
                                           "fallback-pw", "kw-default"}


def test_a_token_column_of_ordinary_words_does_not_erase_code_or_instructions():
    from crashpredict.llm import LLMSettings, build_messages
    from crashpredict.llm._engine import prompt_redactor, runtime_block

    words = pd.DataFrame({"token": ["model", "line", "exception", "zebra-42"], "pos": list("NNNX")})
    executed = ("words = load()", "model = fit(words)")
    target = "model.predict(words['token'])"
    snap = rtextract.snapshot({"words": words}, target).to_json()
    redactor = prompt_redactor(target, executed, snap, env={})
    runtime = runtime_block(snap, LLMSettings(cache_dir=None), redactor)
    prompt = "\n".join(redactor.redact(m["content"])
                       for m in build_messages(target, executed, runtime=runtime))
    assert "model = fit(words)" in prompt and "model.predict(words['token'])" in prompt
    assert '"line": integer' in prompt and '"exception": string' in prompt
    assert "zebra-42" not in prompt  # a value that is no word of the code is still hidden


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(["password", "token", "a", "keys"]) | st.text(max_size=8),
                                       inner, max_size=4), max_leaves=20)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300), _json)
def test_secret_finders_never_raise(text, value):
    from crashpredict.llm._secrets import (
        scrub_facts, secret_values_in_code, secret_values_in_snapshot,
    )

    assert isinstance(secret_values_in_code(text), set)
    found: set[str] = set()
    facts = {"items": [{"key": "examples", "value": value, "category": "V"}], "children": []}
    scrub_facts(facts, found)
    assert all(isinstance(v, str) for v in found)
    assert isinstance(secret_values_in_snapshot(text), set)
