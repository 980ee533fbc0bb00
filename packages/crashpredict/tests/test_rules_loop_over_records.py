"""A loop over a list of records (plain dicts, as ``json.loads`` of each line gives them):
the walk runs its body on the first record, then on the records likeliest to break it
(`_walk._witness.record_witnesses`): the first without a key the body reads, the first
with a value of another type there, the first whose value is no key of a dict the body
looks it up in, and the last. Truth is decided by running each cell."""

from __future__ import annotations

import random
import statistics

import pytest

from crashpredict._rules import rules_engine
from crashpredict_tests_cells import raised_type as _truth  # registered by conftest.py

AIRPORTS = ["ATL", "ORD", "DFW", "DEN", "LAX", "JFK", "SEA", "MIA", "BOS", "PHX"]
REGION = {"ATL": "Southeast", "MIA": "Southeast", "ORD": "Midwest", "DFW": "South",
          "DEN": "Mountain", "PHX": "Mountain", "LAX": "West", "SEA": "West",
          "JFK": "Northeast", "BOS": "Northeast"}


def ns(odd_at: int = 3721, odd: dict | None = None, n: int = 5000) -> dict:
    """Flights from ten hubs; the record at ``odd_at`` gets ``odd`` (a regional airport
    no hub table knows, by default)."""
    rng = random.Random(115)
    flights = [{"origin": rng.choice(AIRPORTS), "delay": max(-10, int(rng.gauss(12, 25))),
                "carrier": "DL"} for _ in range(n)]
    if odd_at is not None:
        flights[odd_at].update({"origin": "SAV"} if odd is None else odd)
    return {"flights": flights, "hub_region": dict(REGION), "statistics": statistics}


BY_REGION = """
delays = {{}}
for fl in flights:
    region = {lookup}
    delays.setdefault(region, []).append(fl['delay'])
summary = {{r: round(statistics.mean(d), 1) for r, d in delays.items()}}
"""


@pytest.mark.parametrize("trials", [0.005, 0.05, None])
def test_a_record_met_late_whose_key_no_table_knows_is_seen(trials) -> None:
    cell = BY_REGION.format(lookup="hub_region[fl['origin']]")
    assert _truth(cell, ns()) == "KeyError"
    verdict = rules_engine(cell, ns(), trial_budget_s=trials)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 4), verdict
    assert "'SAV'" in verdict.explanation and "record 3721" in verdict.explanation


@pytest.mark.parametrize("lookup", [
    "hub_region.get(fl['origin'], 'Other')",
    "hub_region[fl['origin']] if fl['origin'] in hub_region else 'Other'",
])
def test_the_fixes_are_not_flagged(lookup: str) -> None:
    cell = BY_REGION.format(lookup=lookup)
    assert _truth(cell, ns()) is None
    assert rules_engine(cell, ns(), trial_budget_s=0.05).crash is False


@pytest.mark.parametrize("cell", [
    # skipped before the lookup
    "n = 0\nfor fl in flights:\n    if fl['origin'] not in hub_region:\n        continue\n"
    "    n += len(hub_region[fl['origin']])\n",
    # the table learns each new airport first
    "for fl in flights:\n    hub_region.setdefault(fl['origin'], 'Other')\n"
    "    r = hub_region[fl['origin']]\n",
    # the loop stops before the odd record
    "for i, fl in enumerate(flights):\n    pass\nfor fl in flights:\n"
    "    if fl['delay'] > 10_000:\n        break\n    r = hub_region.get(fl['origin'])\n",
    # caught
    "bad = 0\nfor fl in flights:\n    try:\n        r = hub_region[fl['origin']]\n"
    "    except KeyError:\n        bad += 1\n",
])
def test_near_misses_that_run_clean_are_not_flagged(cell: str) -> None:
    assert _truth(cell, ns()) is None
    assert rules_engine(cell, ns(), trial_budget_s=0.05).crash is not True


def test_a_record_without_a_key_and_one_with_a_none_are_seen() -> None:
    cell = "hours = []\nfor fl in flights:\n    hours.append(fl['delay'] / 60)\n"
    odd = ns(odd={"delay": None})
    assert _truth(cell, odd) == "TypeError"
    verdict = rules_engine(cell, odd, trial_budget_s=0.05)
    assert (verdict.crash, verdict.exception) == (True, "TypeError"), verdict
    assert "record 3721" in verdict.explanation
    missing = ns(odd_at=None)
    del missing["flights"][4100]["delay"]
    assert _truth(cell, missing) == "KeyError"
    verdict = rules_engine(cell, missing, trial_budget_s=0.05)
    assert (verdict.crash, verdict.exception) == (True, "KeyError"), verdict
    assert "record 4100" in verdict.explanation
    # ints and floats mixed: the sum runs
    mixed = ns(odd={"delay": 12.5})
    assert _truth(cell, mixed) is None
    assert rules_engine(cell, mixed, trial_budget_s=0.05).crash is False


def test_records_of_user_objects_are_read_without_running_their_code() -> None:
    seen: list[str] = []

    class Code(str):
        def __hash__(self):
            seen.append("hash")
            return super().__hash__()

        def __eq__(self, other):
            seen.append("eq")
            return super().__eq__(other)

    odd = ns(odd={"origin": Code("SAV")})
    cell = BY_REGION.format(lookup="hub_region[fl['origin']]")
    rules_engine(cell, odd, trial_budget_s=0.05)
    assert seen == []
