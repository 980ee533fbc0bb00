"""Prompt assembly: a pure function, snapshot-tested against golden text files.

Set CRASHPREDICT_UPDATE_GOLDEN=1 to rewrite the files in golden_llm/ after an intended
change, then review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from crashpredict._model import CRASH_TYPES
from crashpredict.llm import LLMSettings, build_messages, runtime_block, strip_comments

GOLDEN = Path(__file__).with_name("golden_llm")
UPDATE = os.environ.get("CRASHPREDICT_UPDATE_GOLDEN") == "1"

EXECUTED = (
    "# load the data\nimport pandas as pd\ndf = pd.read_csv('train.csv')  # 1000 rows\n",
    "\n\nX = df.drop(columns=['target'])\ny = df['target']\n",
    "# only a comment\n",
    "from sklearn.linear_model import LogisticRegression\nmodel = LogisticRegression().fit(X, y)",
)
TARGET = "# predict\nX_test = df_test[cols]\n\npred = model.predict(X_test)  # crashes?\n"
RUNTIME = ("# Runtime facts (S=structure, R=representation, V=values)\n"
           "model: sklearn estimator\n  S n_features_in_ = 4\n"
           "X_test: pandas.DataFrame\n  S shape = [200, 3]\n  V examples = {\"a\": [1, 2]}")


def _render(messages) -> str:
    return "".join(f"===== {m['role']} =====\n{m['content']}\n" for m in messages)


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if UPDATE or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"golden file {path.name} was missing and has been written: review it")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "runtime", "rules"), [
    ("code_only", None, None),
    ("code_runtime", RUNTIME, None),
    ("code_runtime_rules", RUNTIME, ("no rule fired on 'model.predict'",
                                     "X_test is unknown after line 2")),
    ("code_rules_none_fired", None, ()),
    ("code_runtime_empty", "", None),
])
def test_prompt_matches_golden(name, runtime, rules):
    messages = build_messages(TARGET, EXECUTED, runtime=runtime, rule_findings=rules)
    _check_golden(name, _render(messages))


def test_first_cell_prompt_matches_golden():
    _check_golden("first_cell", _render(build_messages("import numpy as np\n", ())))


def test_prompt_is_deterministic_and_pure():
    args = (TARGET, list(EXECUTED))
    first = build_messages(*args, runtime=RUNTIME, rule_findings=["x"])
    assert first == build_messages(*args, runtime=RUNTIME, rule_findings=["x"])
    assert args[1] == list(EXECUTED)


def test_target_keeps_its_line_numbers_without_comments():
    user = build_messages("# c\nx = 1\n\ny = x  # two\n", ())[1]["content"]
    assert "2 | x = 1\n4 | y = x\n" in user
    assert "# c" not in user and "two" not in user


def test_instruction_asks_for_every_field_and_the_crash_vocabulary():
    user = build_messages("x", ())[1]["content"]
    for key in ("reasoning", "detection", "exception", "line", "crash_type", "explanation"):
        assert f'"{key}"' in user
    assert all(f'"{t}"' in user for t in CRASH_TYPES)


@pytest.mark.parametrize(("source", "expected"), [
    ("x = 1  # set x\n# whole line\n\ny = '# not a comment'", "x = 1\ny = '# not a comment'"),
    ('s = """\n# inside a string\n"""', 's = """\n# inside a string\n"""'),
    ("%matplotlib inline\n# c\nplt.plot(x)  # draw", "%matplotlib inline\nplt.plot(x)"),
    ("!pip install foo\n# c\nx = (", "!pip install foo\nx = ("),
    ("", ""),
])
def test_strip_comments(source, expected):
    assert strip_comments(source) == expected


def _snapshot_json(namespace, cell):
    rtextract = pytest.importorskip("rtextract")
    return rtextract.snapshot(namespace, cell).to_json()


def test_runtime_block_variants_filter_categories():
    snap = _snapshot_json({"words": ["alpha", "beta"], "n": 3}, "words[n]")
    full = runtime_block(snap, LLMSettings(categories="SRV"))
    structure = runtime_block(snap, LLMSettings(categories="S"))
    assert runtime_block(snap, LLMSettings(categories="code")) is None
    assert "alpha" in full and "alpha" not in structure
    assert "\n  V " not in structure and "\n  R " not in structure
    assert "\n  V " not in runtime_block(snap, LLMSettings(no_values=True))


def test_runtime_block_respects_the_token_budget():
    snap = _snapshot_json({f"v{i}": list(range(50)) for i in range(30)},
                          " + ".join(f"v{i}" for i in range(30)))
    assert len(runtime_block(snap, LLMSettings(fact_tokens=100))) <= 400
