"""Tolerant parsing of model replies: JSON, fences, prose around it, garbage."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crashpredict._model import CRASH_TYPES
from crashpredict.llm import Answer, parse_reply
from crashpredict.llm._reply import FIELD_LIMITS, MAX_LINE, TRUNCATED

CRASH = {"reasoning": "df has no column b", "detection": True, "exception": "KeyError",
         "line": 2, "crash_type": "key error", "library": "pandas",
         "explanation": "df has columns ['a'] only"}
CRASH_ANSWER = Answer(detection=True, exception="KeyError", line=2, crash_type="key error",
                      library="pandas", explanation="df has columns ['a'] only",
                      reasoning="df has no column b")


@pytest.mark.parametrize("text", [
    json.dumps(CRASH),
    "```json\n" + json.dumps(CRASH, indent=2) + "\n```",
    "```\n" + json.dumps(CRASH) + "\n```\nHope this helps!",
    "Here is my analysis.\n" + json.dumps(CRASH) + "\nLet me know if you need more.",
    json.dumps(CRASH) + " trailing {garbage",
    "<think>the frame {is} small</think>\n" + json.dumps(CRASH),
    "Answer: {\"note\": 1} then " + json.dumps(CRASH),
])
def test_crash_answer_is_found_wherever_it_is(text):
    assert parse_reply(text) == CRASH_ANSWER


@pytest.mark.parametrize("text", [
    "", "I think it will crash.", "{not json}", "```json\n{\"detection\": \n```",
    json.dumps({"reasoning": "no detection key"}), json.dumps({"detection": "maybe"}),
    json.dumps([1, 2, 3]), "null",
])
def test_garbage_gives_none(text):
    assert parse_reply(text) is None


def test_no_crash_answer_drops_the_diagnosis():
    text = json.dumps({"reasoning": "fine", "detection": False, "exception": "KeyError",
                       "line": 3, "explanation": "nothing wrong"})
    assert parse_reply(text) == Answer(detection=False, explanation="nothing wrong",
                                       reasoning="fine")


@pytest.mark.parametrize(("fields", "expected"), [
    ({"detection": "yes", "exception": "pandas.errors.KeyError: 'b'"},
     {"exception": "KeyError", "crash_type": "key error"}),
    ({"detection": "true", "exception": "NameError"}, {"crash_type": "variable not found"}),
    ({"detection": 1, "exception": "ValueError", "crash_type": "Tensor Shape Mismatch"},
     {"crash_type": "tensor shape mismatch"}),
    ({"detection": True, "exception": "RuntimeError", "crash_type": "gremlins"},
     {"crash_type": "unknown"}),
    ({"detection": True, "line": "line 7"}, {"line": 7}),
    ({"detection": True, "line": 0}, {"line": None}),
    ({"detection": True, "line": True}, {"line": None}),
    ({"detection": True, "exception": "null"}, {"exception": None}),
    ({"Detection": True, "Library": "Pandas"}, {"library": "pandas"}),
    ({"crash": True, "library": "cobol"}, {"library": None}),
])
def test_fields_are_normalised(fields, expected):
    answer = parse_reply(json.dumps(fields))
    assert answer is not None and answer.detection
    for key, value in expected.items():
        assert getattr(answer, key) == value


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_parse_never_raises_on_any_text(text):
    answer = parse_reply(text)
    assert answer is None or isinstance(answer, Answer)


@settings(max_examples=50, deadline=None)
@given(st.fixed_dictionaries({
    "detection": st.booleans(),
    "exception": st.none() | st.text(max_size=30),
    "line": st.none() | st.integers(-5, 500) | st.text(max_size=5),
    "crash_type": st.none() | st.sampled_from(CRASH_TYPES) | st.text(max_size=20),
    "explanation": st.text(max_size=50),
}), st.text(max_size=30), st.text(max_size=30))
def test_any_answer_with_prose_around_it_parses(fields, before, after):
    text = before.replace("{", "(") + json.dumps(fields) + after
    answer = parse_reply(text)
    assert answer is not None and answer.detection == fields["detection"]
    if answer.detection:
        assert answer.crash_type in CRASH_TYPES
        assert answer.line is None or answer.line >= 1


HUGE = 10_000_000


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("exception", "KeyError" + "x" * HUGE, "KeyError" + "x" * 91 + "…"),
    ("line", "9" * 6000, None),  # int() of 6,000 digits would raise
    ("line", 10**40, None),
    ("line", float(MAX_LINE + 1), None),
    ("crash_type", "key error" * 100_000, "unknown"),
    ("library", "pandas" * 100_000, None),
])
def test_oversized_fields_are_bounded_or_dropped(field, value, expected):
    answer = parse_reply(json.dumps({"detection": True, field: value}))
    assert answer is not None and getattr(answer, field) == expected


@pytest.mark.parametrize("detection", [True, False])
def test_long_reasoning_and_explanation_are_cut_with_a_marker(detection):
    reply = json.dumps({"detection": detection, "reasoning": "r" * HUGE, "explanation": "e" * HUGE})
    answer = parse_reply(reply)
    limit = FIELD_LIMITS["reasoning"]
    assert answer.reasoning == "r" * limit + TRUNCATED.format(HUGE - limit)
    limit = FIELD_LIMITS["explanation"]
    assert answer.explanation == "e" * limit + TRUNCATED.format(HUGE - limit)


def test_fields_within_the_limits_are_kept_whole():
    text = "why " * (FIELD_LIMITS["reasoning"] // 4)
    answer = parse_reply(json.dumps({**CRASH, "reasoning": text}))
    assert answer.reasoning == text.strip()


def test_prose_with_many_braces_parses_in_bounded_time():
    # each "{" is a decode attempt: a megabyte of them must not take quadratic time
    assert parse_reply("{\"a\": \"" + "{" * 1_000_000) is None
