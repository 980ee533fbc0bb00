"""Redaction of secrets before a prompt leaves the machine.

Three kinds of secret are removed: well-known credential shapes (OpenAI/GitHub/AWS/Slack/
Google/Hugging Face keys, JWTs, bearer tokens, private key blocks, passwords in URLs),
string values assigned to secret-sounding names (``password = "..."``, ``"api_key": "..."``),
and the values of environment variables that could be secrets. Redaction is deliberately
eager: a false positive costs the model a literal, a false negative leaks a credential.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["MIN_LEARNED", "REDACTED", "Redactor"]

#: What a secret is replaced with.
REDACTED = "[REDACTED]"
#: Shortest value learned as a literal to hide everywhere: a shorter one ("1", "ab") would
#: also hide line numbers and ordinary words. Shorter secrets are still hidden where they
#: are assigned (``name = "..."``) and in the runtime facts.
MIN_LEARNED = 4

_PRIVATE_KEY = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.DOTALL)
_SHAPES = (_PRIVATE_KEY, re.compile("|".join(f"(?:{p})" for p in (
    r"\bsk-(?:proj-|ant-|live_|test_)?[A-Za-z0-9_\-]{16,}",
    r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}",
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    r"\bxox[abprs]-[A-Za-z0-9\-]{10,}",
    r"\bAIza[0-9A-Za-z_\-]{30,}",
    r"\bhf_[A-Za-z0-9]{30,}",
    r"\b(?:rk|pk|sk)_(?:live|test)_[A-Za-z0-9]{16,}",
    r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
))))
_BEARER = re.compile(r"(?i)\b(bearer|token|basic)(\s+)([A-Za-z0-9_\-.=+/]{16,})")
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s:/@'\"]+:)([^\s@/'\"]+)(@)")
# "token" and "pwd" only as whole words: tokens, tokenizer, max_tokens are ordinary ML names.
_SECRET_NAME = (r"[A-Za-z_]*(?:api[_\-]?key|apikey|secret|token(?![a-z])|passw(?:or)?d|passwd|"
                r"pwd(?![a-z])|credential|auth[_\-]?key|access[_\-]?key|private[_\-]?key)"
                r"[A-Za-z0-9_]*")
# name = "value", name: "value", "name": "value", name=value (env files, URLs' query strings)
_ASSIGNED = re.compile(
    r"(?i)(\b" + _SECRET_NAME + r"['\"]?\s*(?:=|:)\s*[rbuf]?)(['\"])((?:(?!\2).){1,500}?)(\2)"
)
# Every _SECRET_NAME alternative contains one of these (lower case).
_NAME_WORDS = ("key", "secret", "token", "passw", "pwd", "credential")
_SECRET_NAME_RE = re.compile(r"(?i)" + _SECRET_NAME)
_SECRET_ENV_NAME = re.compile(r"(?i)(key|token|secret|passw|pwd$|credential|auth|session|cookie)")
_NOT_SECRET_ENV = frozenset({"PWD", "OLDPWD", "XAUTHORITY", "SSH_AUTH_SOCK"})
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-+/=.:]{16,}")


def _env_secrets(env: Mapping[str, str]) -> tuple[str, ...]:
    """Return the environment values worth hiding, longest first.

    Every value of a variable whose name sounds secret (``*_KEY``, ``*TOKEN*``...) counts,
    and any other value shaped like a token (16+ characters of letters and digits, no path
    or spaces): short or path-like values (``/usr/bin``, ``en_US.UTF-8``) would only
    mangle ordinary code.
    """
    found: set[str] = set()
    for name, value in env.items():
        value = value.strip()
        if len(value) < 6 or name in _NOT_SECRET_ENV:
            continue
        if _SECRET_ENV_NAME.search(name):
            found.add(value)
        elif (_TOKEN_LIKE.fullmatch(value) and "/" not in value
              and re.search(r"\d", value) and re.search(r"[A-Za-z]", value)):
            found.add(value)
    return tuple(sorted(found, key=lambda v: (-len(v), v)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Redactor:
    """Replaces secrets in text (and in JSON-like values) with ``[REDACTED]``.

    Example:
        >>> Redactor.from_env({}).redact('key = "sk-abcdefghijklmnopqrstuv"')
        'key = "[REDACTED]"'
    """

    literals: tuple[str, ...] = ()
    #: Words never learned as secrets (names in the code, words of the prompt's own
    #: text): a ``token`` column full of ordinary words must not erase ``model`` from the
    #: code or "line" from the instructions.
    keep: frozenset[str] = frozenset()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None,
                 extra: Iterable[str] = ()) -> Redactor:
        """A redactor for the given environment (default ``os.environ``) plus ``extra`` literals."""
        env = os.environ if env is None else env
        literals = set(_env_secrets(env)) | {s for s in extra if s}
        return cls(literals=tuple(sorted(literals, key=lambda v: (-len(v), v))))

    def learn(self, texts: Iterable[str]) -> Redactor:
        """Return a redactor that also hides the secrets assigned in ``texts`` (code cells).

        ``password = "hunter2"`` in a cell makes ``hunter2`` a literal to hide everywhere,
        e.g. in a runtime fact that shows the variable's value. (The engine adds the
        strings bound to secret names inside containers, calls and defaults, found with
        the AST: `crashpredict.llm._secrets.secret_values_in_code`.)
        """
        found = {m.group(3) for text in texts for m in _ASSIGNED.finditer(text)
                 if m.group(3).strip() not in {"", "None", "xxx", "...", REDACTED}}
        return self.with_literals(found)

    def with_literals(self, values: Iterable[str]) -> Redactor:
        """Return a redactor that also hides each of ``values`` wherever it appears.

        Values shorter than `MIN_LEARNED` (4) characters, and the words in ``keep``, are
        ignored: hiding every "1" or "ab" would garble line numbers and ordinary words.
        """
        found = {v for v in values if isinstance(v, str) and len(v.strip()) >= MIN_LEARNED
                 and v != REDACTED and v not in self.keep} - set(self.literals)
        if not found:
            return self
        literals = set(self.literals) | found
        return Redactor(literals=tuple(sorted(literals, key=lambda v: (-len(v), v))),
                        keep=self.keep)

    def keeping(self, words: Iterable[str]) -> Redactor:
        """Return a redactor that never learns any of ``words`` as a secret.

        Secrets matched by shape, by their assignment or in the environment are still
        hidden; only the hiding of learned values *everywhere* spares these words.
        """
        return Redactor(literals=self.literals, keep=self.keep | frozenset(words))

    @staticmethod
    def is_secret_name(name: str) -> bool:
        """True when a variable or key called ``name`` probably holds a secret."""
        return _SECRET_NAME_RE.search(name) is not None

    def redact(self, text: str) -> str:
        """Return ``text`` with every secret replaced by ``[REDACTED]``."""
        for pattern in _SHAPES:
            text = pattern.sub(REDACTED, text)
        lower = text.lower()  # cheap prefilters: most code holds no secret-ish word at all
        for literal in self.literals:
            if literal in text:
                # Whole tokens only: a short secret must not eat parts of longer words.
                text = re.sub(r"(?<![A-Za-z0-9])" + re.escape(literal) + r"(?![A-Za-z0-9])",
                              REDACTED, text)
        if "bearer" in lower or "token" in lower or "basic" in lower:
            text = _BEARER.sub(lambda m: m.group(1) + m.group(2) + REDACTED, text)
        if "://" in text:
            text = _URL_PASSWORD.sub(lambda m: m.group(1) + REDACTED + m.group(3), text)
        if any(word in lower for word in _NAME_WORDS):
            text = _ASSIGNED.sub(self._assigned, text)
        return text

    @staticmethod
    def _assigned(match: re.Match[str]) -> str:
        value = match.group(3)
        # Keep empty-ish and obviously non-secret placeholders readable for the model.
        if value == REDACTED or value.strip() in {"", "None", "xxx", "..."}:
            return match.group(0)
        return match.group(1) + match.group(2) + REDACTED + match.group(4)

    def redact_value(self, value: Any) -> Any:
        """Redact every string inside a JSON-like value (dict keys included)."""
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, dict):
            return {self.redact_value(k): self.redact_value(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.redact_value(v) for v in value]
        return value
