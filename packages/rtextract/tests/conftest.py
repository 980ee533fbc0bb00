"""Shared helpers for rtextract tests (importlib mode: helpers live here, as fixtures)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rtextract


def _check(facts: rtextract.Facts) -> dict[str, Any]:
    """Facts must be JSON-serialisable without NaN and survive a round trip."""
    data = facts.to_dict()
    text = json.dumps(data, allow_nan=False, sort_keys=True)
    assert rtextract.Facts.from_dict(json.loads(text)) == facts
    for fact in facts.items:
        assert fact.category in ("S", "R", "V"), fact
    return data


@pytest.fixture(scope="session")
def check_facts():
    """check_facts(facts) -> facts.to_dict(), asserting JSON-safety and round trip."""
    return _check


@pytest.fixture(scope="session")
def rng_states():
    """Call it before and after: returns a comparable tuple of every RNG state in play."""

    def capture() -> tuple[Any, ...]:
        import sys

        states: list[Any] = [random.getstate()]
        np = sys.modules.get("numpy")
        if np is not None:
            kind, keys, pos, has_gauss, gauss = np.random.get_state()
            states.append((kind, keys.tobytes(), pos, has_gauss, gauss))
        torch = sys.modules.get("torch")
        if torch is not None:
            states.append(bytes(torch.get_rng_state().numpy().tobytes()))
        return tuple(states)

    return capture


@pytest.fixture(scope="session")
def attribute_ids():
    """attribute_ids(obj) -> {name: id(value)} of the instance dict, to prove nothing is set."""

    def capture(obj: Any) -> dict[str, int]:
        return {k: id(v) for k, v in vars(obj).items()}

    return capture
