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
