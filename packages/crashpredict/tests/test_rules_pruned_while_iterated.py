"""A dict (or set) that loses a key while its own iterator runs over it: pruning rare
tokens from a vocabulary, dropping low-importance features from a dict of scores. The
iterator's next step raises ``RuntimeError``, even after the last item, so the rules warn
where the removal certainly runs: unconditionally, or under a test that one of the live
items passes. Truth is decided by running each cell on a copy of the namespace."""

from __future__ import annotations

import copy
import random
from collections import Counter, OrderedDict, defaultdict

import pytest

from crashpredict._rules import rules_engine
from crashpredict_tests_cells import raised  # registered by conftest.py


def ns() -> dict:
    rng = random.Random(29)
    corpus = [" ".join("".join(rng.choices("abcdefgh", k=rng.randint(2, 4)))
                       for _ in range(12)) for _ in range(500)]
    vocab = Counter(tok for doc in corpus for tok in doc.split())
    scores = {f"f{i}": round(rng.random(), 3) for i in range(40)}
    return {"vocab": vocab, "MIN_COUNT": 3, "scores": scores,
            "importances": OrderedDict(sorted(scores.items())),
            "by_user": defaultdict(list, {"u1": [1], "u2": [], "u3": [2, 3]}),
            "seen": {"a", "b", "c"}, "keep": {"f1", "f2"}, "THRESHOLD": 0.05,
            # the first item passes no test below; the later ones would, as they are now
            "ordered": {"a": 10, "b": 1, "c": 1}, "cut": 5}


def _truth(source: str) -> BaseException | None:
    return raised(source, copy.deepcopy(ns()))


CRASHES = {
    "counter_items_if": "for tok, cnt in vocab.items():\n"
                        "    if cnt < MIN_COUNT:\n"
                        "        del vocab[tok]\n"
                        "token_to_id = {t: i for i, t in enumerate(sorted(vocab))}\n",
    "dict_keys_pop": "total = 0\n"
                     "for name in scores:\n"
                     "    total += scores[name]\n"
                     "    if scores[name] < THRESHOLD and name not in keep:\n"
                     "        scores.pop(name)\n",
    "ordered_items_not": "for name, value in importances.items():\n"
                         "    if not value >= 0.1:\n"
                         "        del importances[name]\n",
    "defaultdict_values_clear": "for events in by_user.values():\n"
                                "    by_user.clear()\n",
    "set_discard": "for tag in seen:\n"
                   "    seen.discard(tag)\n",
}

FIXED = {
    "counter_items_if": CRASHES["counter_items_if"].replace("vocab.items()",
                                                            "list(vocab.items())"),
    "dict_keys_pop": CRASHES["dict_keys_pop"].replace("in scores:", "in list(scores):"),
    "ordered_items_not": CRASHES["ordered_items_not"].replace(
        "importances.items()", "list(importances.items())"),
    "defaultdict_values_clear": "for events in list(by_user.values()):\n"
                                "    by_user.clear()\n",
    "set_discard": "for tag in sorted(seen):\n"
                   "    seen.discard(tag)\n",
}

#: Near misses: the loop leaves before its next step, no live item passes the test, the
#: removal is of another container, or what the test reads is not known.
CLEAN = {
    "break_after_removal": "for tok, cnt in vocab.items():\n"
                           "    if cnt < MIN_COUNT:\n"
                           "        del vocab[tok]\n"
                           "        break\n",
    "no_item_passes": "for tok, cnt in vocab.items():\n"
                      "    if cnt < 0:\n"
                      "        del vocab[tok]\n",
    "another_dict": "kept = dict(vocab)\n"
                    "for tok, cnt in vocab.items():\n"
                    "    if cnt < MIN_COUNT:\n"
                    "        del kept[tok]\n",
    "value_rebound_first": "for tok, cnt in vocab.items():\n"
                           "    cnt = 10\n"
                           "    if cnt < MIN_COUNT:\n"
                           "        del vocab[tok]\n",
    # the test's threshold or the container's values change in the iterations before the
    # first item that passed it before the loop
    "threshold_changed_after": "for k, v in ordered.items():\n"
                               "    if v < cut:\n"
                               "        del ordered[k]\n"
                               "    cut = 0\n",
    "values_raised_first": "for k in ordered:\n"
                           "    if ordered[k] < cut:\n"
                           "        del ordered[k]\n"
                           "    for other in list(ordered):\n"
                           "        ordered[other] = 10\n",
}


@pytest.mark.parametrize("case", sorted(CRASHES))
@pytest.mark.parametrize("trials", [0.0, None])
def test_a_container_pruned_while_iterated_is_warned(case: str, trials) -> None:
    source = CRASHES[case]
    exc = _truth(source)
    assert type(exc) is RuntimeError and "during iteration" in str(exc)
    verdict = rules_engine(source, ns(), trial_budget_s=trials)
    assert (verdict.crash, verdict.exception) == (True, "RuntimeError"), verdict.explanation
    assert verdict.explanation.startswith(str(exc)), (verdict.explanation, str(exc))
    assert verdict.line == 1 + source.count("\n", 0, source.index("for "))


@pytest.mark.parametrize("case", sorted(FIXED))
def test_the_fix_iterates_over_a_copy(case: str) -> None:
    source = FIXED[case]
    assert _truth(source) is None
    assert rules_engine(source, ns()).crash is not True


@pytest.mark.parametrize("case", sorted(CLEAN))
def test_near_misses_are_not_warned(case: str) -> None:
    source = CLEAN[case]
    assert _truth(source) is None
    assert rules_engine(source, ns()).crash is not True


def test_the_test_is_read_on_the_live_items_not_guessed() -> None:
    """The warning names the first item that passes; the live dict is left as it was."""
    space = ns()
    before = dict(space["vocab"])
    verdict = rules_engine(CRASHES["counter_items_if"], space)
    assert verdict.crash is True
    first = next(item for item in before.items() if item[1] < 3)
    assert repr(first[0]) in verdict.explanation
    assert dict(space["vocab"]) == before
