"""The engines together: rules, dryrun and llm, in-process, through a kernel, from the CLI."""

from __future__ import annotations

import json

import nbformat
import pytest

from crashpredict import KernelSession, Verdict, predict
from crashpredict.cli import main
from crashpredict.llm import LLMSettings


import crashpredict_tests_llm_server as fake  # registered by conftest.py


def _settings(url: str) -> LLMSettings:
    return LLMSettings(model="gpt-4o-mini", base_url=url, timeout=5.0, max_retries=1,
                       total_budget_s=10.0, backoff_base_s=0.01, backoff_max_s=0.02, cache_dir=None)


def _lookup(d):
    return d["missing"]


def test_dryrun_catches_what_rules_cannot_see():
    # the rules never call user functions; the dry run does, on a fork
    namespace = {"lookup": _lookup, "d": {"present": 1}}
    rules = predict("value = lookup(d)", namespace)
    assert rules.crash is False and rules.engine == "rules"
    both = predict("value = lookup(d)", namespace, engines=("dryrun", "rules"))
    assert (both.crash, both.exception, both.engine) == (True, "KeyError", "dryrun")
    assert "value" not in namespace  # the cell never ran here


def _prices(d):
    return d[["price"]]


def test_a_nan_crash_the_dry_run_sees_names_the_column_that_holds_it():
    import pandas as pd
    from sklearn.linear_model import LinearRegression

    df = pd.DataFrame({"price": [1.0, None, 3.0], "qty": [1, 2, 3], "age": [4.0, 5.0, 6.0]})
    namespace = {"df": df, "LinearRegression": LinearRegression, "prices": _prices}
    # the rules never call the notebook's function; the dry run raises scikit-learn's own
    # message, which names no column
    both = predict("LinearRegression().fit(prices(df), df['qty'])", namespace,
                   engines=("rules", "dryrun"))
    assert (both.crash, both.engine) == (True, "dryrun")
    assert both.explanation.startswith(
        "Input X contains NaN (df: NaN in column 'price' (1 of 3 rows)).\nLinearRegression")


def test_dryrun_options_reach_the_engine():
    verdict = predict("while True:\n    pass", {}, engines=("dryrun",), options={"dryrun": {"budget_s": 0.3}})
    assert verdict.crash is None and "0.3" in verdict.explanation


def test_certain_rule_verdict_is_not_put_to_the_llm(server):
    verdict = predict("d['b']", {"d": {"a": 1}}, engines=("rules", "llm"),
                      options={"llm": {"settings": _settings(server.url)}})
    assert verdict.crash is True and verdict.engine == "rules"
    assert any("llm not asked" in line for line in verdict.evidence)
    assert server.requests == []


@pytest.mark.kernel
def test_kernel_session_asks_the_llm_from_the_client_with_history_and_facts(tmp_path, server):
    server.push(fake.answer(True, exception="ValueError", line=1, crash_type="value error",
                            explanation="the model thinks so"))
    with KernelSession(tmp_path, timeout=60) as kernel:
        assert kernel.run("import json\nrecords = [{'a': 1}]").ok
        verdict = kernel.predict("total = json.dumps(records)", ("rules", "llm"),
                                 options={"llm": {"settings": _settings(server.url)}})
    assert verdict.engine == "llm" and verdict.crash is True and verdict.exception == "ValueError"
    (request,) = server.requests
    prompt = request.text
    assert "records = [{'a': 1}]" in prompt  # the executed cell
    assert "records: python.list" in prompt or "records" in prompt.split("total =")[0]


@pytest.mark.kernel
def test_kernel_run_reports_death_and_timeout(tmp_path):
    with KernelSession(tmp_path, timeout=2) as kernel:
        hung = kernel.run("import time\ntime.sleep(30)")
        assert (hung.ok, hung.status) == (False, "timeout")
        assert kernel.run("x = 1").ok  # the interrupt left the kernel usable
        died = kernel.run("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")
        assert (died.ok, died.status, died.ename) == (False, "died", "KernelDied")


@pytest.mark.kernel
def test_kernel_run_keeps_a_bounded_share_of_flooding_output(tmp_path):
    from crashpredict._kernel import MAX_OUTPUT

    with KernelSession(tmp_path, timeout=60) as kernel:
        run = kernel.run("for i in range(60):\n    print('x' * 100_000)")
    assert run.ok and len(run.stdout) == MAX_OUTPUT


@pytest.mark.kernel
def test_cli_check_with_rules_dryrun_and_llm(tmp_path, server, capsys):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("def lookup(d):\n    return d['missing']", execution_count=1),
        nbformat.v4.new_code_cell("d = {'present': 1}", execution_count=2),
        nbformat.v4.new_code_cell("value = lookup(d)"),
    ])
    nbformat.write(nb, tmp_path / "nb.ipynb")
    # the dry run sees the KeyError: certain, so the LLM is not asked
    code = main(["check", str(tmp_path / "nb.ipynb"), "--quiet", "--format", "json",
                 "--engine", "rules,dryrun,llm", "--llm-base-url", server.url,
                 "--llm-model", "gpt-4o-mini", "--llm-no-cache"])
    verdict = Verdict.from_dict(json.loads(capsys.readouterr().out)["verdict"])
    assert code == 1 and verdict.exception == "KeyError" and verdict.engine == "dryrun"
    assert server.requests == []
