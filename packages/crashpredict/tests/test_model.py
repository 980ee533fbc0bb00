"""The Verdict value, its JSON form, and the engine registry."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crashpredict
from crashpredict import UnknownEngineError, Verdict, predict, register_engine
from crashpredict._model import CRASH_TYPES, LIBRARIES

verdicts = st.builds(
    Verdict,
    crash=st.sampled_from([True, False, None]),
    confidence=st.floats(0, 1),
    exception=st.none() | st.sampled_from(["KeyError", "ValueError"]),
    line=st.none() | st.integers(1, 500),
    library=st.none() | st.sampled_from(LIBRARIES),
    crash_type=st.none() | st.sampled_from(CRASH_TYPES),
    explanation=st.text(max_size=40),
    evidence=st.lists(st.text(max_size=20), max_size=3).map(tuple),
    engine=st.just("rules"),
)


@settings(max_examples=50)
@given(verdicts)
def test_verdict_json_round_trip(verdict: Verdict) -> None:
    assert Verdict.from_dict(json.loads(verdict.to_json())) == verdict


def test_verdict_is_frozen() -> None:
    verdict = Verdict(crash=False, confidence=0.5)
    with pytest.raises(AttributeError):
        verdict.crash = True  # type: ignore[misc]


def test_unknown_engine_is_a_clear_error() -> None:
    with pytest.raises(UnknownEngineError, match="unknown engine 'magic'; known engines: dryrun, llm, rules"):
        predict("x = 1", {}, engines=("magic",))


def test_registered_engine_plugs_in() -> None:
    def always(source, namespace):
        return Verdict(crash=True, confidence=0.1, exception="E", engine="always")
    register_engine("always", always)
    try:
        assert predict("x = 1", {}, engines=("rules", "always")).engine == "always"
        assert predict("x = 1", {}, engines=("rules",)).crash is False
    finally:
        crashpredict.ENGINES.pop("always")


def test_a_failing_engine_gives_an_unknown_verdict() -> None:
    def broken(source, namespace):
        raise RuntimeError("boom")
    register_engine("broken", broken)
    try:
        verdict = predict("x = 1", {}, engines=("broken",))
    finally:
        crashpredict.ENGINES.pop("broken")
    assert verdict.crash is None and "boom" in verdict.explanation


def test_crash_types_and_libraries_use_junobench_terms() -> None:
    verdict = predict("y = undefined_thing + 1", {})
    assert verdict.crash_type in CRASH_TYPES and verdict.library in LIBRARIES


def test_importing_and_predicting_plain_code_imports_no_heavy_library() -> None:
    import subprocess
    import sys
    code = ("import sys, crashpredict\n"
            "v = crashpredict.predict('x = 1\\ny = x + undefined', {})\n"
            "assert v.exception == 'NameError', v\n"
            "print(sorted(m for m in ('numpy', 'pandas', 'torch', 'tensorflow', 'sklearn',"
            " 'matplotlib', 'jupyter_client') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "[]\n"
