"""LLM repairs against a real chat-completions server on 127.0.0.1, scripted per test."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import nbformat
import pytest

from benchkit.cli import main
from benchkit._modernize import ModernizeSettings, modernize
from benchkit._modernize._model import CellRun, Classification, NotebookRun
from benchkit._modernize._repair import llm_repair

llm = pytest.importorskip("crashpredict.llm")
pytest.importorskip("openai")

pytestmark = pytest.mark.kernel

PROMPT_TOKENS, COMPLETION_TOKENS = 100, 20


class ScriptedServer:
    """Answers each chat completion with the next scripted reply (the last one repeats)."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                k = min(len(server.requests), len(server.replies)) - 1
                answer = {"id": f"r{len(server.requests)}", "object": "chat.completion",
                          "created": 0, "model": body["model"],
                          "choices": [{"index": 0, "finish_reason": "stop",
                                       "message": {"role": "assistant",
                                                   "content": server.replies[k]}}],
                          "usage": {"prompt_tokens": PROMPT_TOKENS,
                                    "completion_tokens": COMPLETION_TOKENS,
                                    "total_tokens": PROMPT_TOKENS + COMPLETION_TOKENS}}
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def prompt(self, k: int) -> str:
        return "\n".join(m["content"] for m in self.requests[k]["messages"])

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    servers: list[ScriptedServer] = []

    def make(*replies: str) -> ScriptedServer:
        servers.append(ScriptedServer(list(replies)))
        return servers[-1]

    yield make
    for s in servers:
        s.close()


def llm_settings(url: str) -> "llm.LLMSettings":
    return llm.LLMSettings(model="gpt-4o-mini", base_url=url, cache_dir=None, max_retries=0,
                           timeout=20, total_budget_s=30)


def write_nb(path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells.append(nbformat.v4.new_markdown_cell("# A notebook\nkept as is"))
    nb.cells[0].id = "intro"
    for k, source in enumerate(sources):
        cell = nbformat.v4.new_code_cell(source)
        cell.id = f"code{k}"
        nb.cells.append(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def digest(root: Path, skip: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and skip not in p.parents}


def block(*cells: tuple[int, str]) -> str:
    body = "\n\n".join(f"## === cell {n}\n{code}" for n, code in cells)
    return f"Here is the fix.\n```python\n{body}\n```\n"


PRICE = llm.PriceTable.default().cost("gpt-4o-mini", llm.Usage(
    prompt_tokens=PROMPT_TOKENS, completion_tokens=COMPLETION_TOKENS))


def test_unusable_reply_is_retried_then_the_good_patch_fixes_the_error(tmp_path, server):
    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "import math  # the maths",
                        "# five factorial\nvalue = math.fact(5)")
    before = digest(tmp_path, tmp_path / "out")
    srv = server(block((9, "value = 1")),  # no code cell 9: nbpatch refuses it
                 block((2, "# five factorial\nvalue = math.factorial(5)")))
    result = modernize(notebook, tmp_path / "out", settings=ModernizeSettings(
        llm=llm_settings(srv.url), score="value", check_equivalence=False))
    assert digest(tmp_path, tmp_path / "out") == before
    assert result.reproduced and result.rounds[-1].run.score == 120.0
    first = result.rounds[0]
    assert (first.repair, first.prompt_kind, first.llm_attempts) == ("llm", "error", 2)
    assert (first.prompt_tokens, first.completion_tokens) == (2 * PROMPT_TOKENS, 2 * COMPLETION_TOKENS)
    assert first.cost_usd == pytest.approx(2 * PRICE)
    assert result.cost_usd == pytest.approx(2 * PRICE)
    assert "AttributeError" in srv.prompt(0) and "## === cell 2" in srv.prompt(0)
    assert "could not be applied" in srv.prompt(1) and "cell 9" in srv.prompt(1)
    final = nbformat.read(result.final_notebook, as_version=4)
    assert [c.id for c in final.cells] == ["intro", "code0", "code1"]
    assert final.cells[0].source == "# A notebook\nkept as is"
    transcript = json.loads((tmp_path / "out" / "rounds" / "round-01.llm.json").read_text())
    assert len(transcript) == 2 and "error" in transcript[0]


def test_a_patch_that_still_fails_leads_to_another_round(tmp_path, server):
    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "import math\nvalue = math.fact(5)")
    srv = server(block((1, "import math\nvalue = math.fact(6)")),
                 block((1, "import math\nvalue = math.factorial(5)")))
    result = modernize(notebook, tmp_path / "out", settings=ModernizeSettings(
        llm=llm_settings(srv.url), check_equivalence=False))
    assert result.reproduced
    assert [r.classification.kind for r in result.rounds] == ["error", "error", "reproduced"]
    assert [r.repair for r in result.rounds] == ["llm", "llm", None]
    assert "math.fact(6)" in srv.prompt(1)  # the second prompt shows the patched notebook
    assert result.prompt_tokens == 2 * PROMPT_TOKENS


def test_timeout_gets_the_runtime_reduction_prompt(tmp_path, server):
    notebook = write_nb(tmp_path / "in" / "nb.ipynb",
                        "import time\nfor step in range(200):\n    time.sleep(0.05)")
    srv = server(block((1, "import time\nfor step in range(3):\n    time.sleep(0.05)")))
    result = modernize(notebook, tmp_path / "out", settings=ModernizeSettings(
        llm=llm_settings(srv.url), timeout=3, check_equivalence=False))
    assert [r.classification.kind for r in result.rounds] == ["timeout", "reproduced"]
    assert result.rounds[0].prompt_kind == "timeout"
    assert "did not finish within 3 s" in srv.prompt(0) and "Reduce its runtime" in srv.prompt(0)


def test_score_deviation_gets_the_calibration_prompt_and_is_compared(tmp_path, server):
    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "base = 0.5", "acc = base")
    srv = server(block((1, "base = 0.91")))
    result = modernize(notebook, tmp_path / "out", settings=ModernizeSettings(
        llm=llm_settings(srv.url), target_score=0.9, score="acc", tolerance=0.05))
    assert [r.classification.kind for r in result.rounds] == ["score", "reproduced"]
    assert result.rounds[0].prompt_kind == "score"
    assert "score is 0.5" in srv.prompt(0) and "0.9" in srv.prompt(0)
    # the original ran through, so both versions are compared, score included
    assert result.equivalence == "different"
    assert any(d.startswith("score:") for d in result.differences)


def test_round_limit_is_reached_when_the_llm_never_fixes_it(tmp_path, server):
    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "raise RuntimeError('old')")
    srv = server(block((1, "raise RuntimeError('still 1')")),
                 block((1, "raise RuntimeError('still 2')")))
    result = modernize(notebook, tmp_path / "out", settings=ModernizeSettings(
        llm=llm_settings(srv.url), max_iter=3, check_equivalence=False))
    assert not result.reproduced and len(result.rounds) == 3
    assert result.stop_reason == "round limit (3) reached"
    assert [r.repair for r in result.rounds] == ["llm", "llm", None]
    assert len(srv.requests) == 2


def test_unreachable_server_ends_the_loop_with_the_reason(tmp_path):
    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "raise RuntimeError('old')")
    result = modernize(notebook, tmp_path / "out", settings=ModernizeSettings(
        llm=llm_settings("http://127.0.0.1:9/v1"), check_equivalence=False))
    assert len(result.rounds) == 1 and result.rounds[0].llm_error
    assert result.stop_reason.startswith("no repair left: LLMConnectionError")


BASE = ("import math", "x = math.fact(3)", "y = x + 1")
FIXED = ["import math", "x = math.factorial(3)", "y = x + 1"]
PERCENT = "```python\n# %%\nimport math\n\n# %%\nx = math.factorial(3)\n\n# %%\ny = x + 1\n```"
SINGLE = "The cell should read:\n```python\nx = math.factorial(3)\n```"
NUMBERED = block((2, "x = math.factorial(3)"))


def _notebook_json() -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A notebook\nkept as is")] + [
        nbformat.v4.new_code_cell(s) for s in FIXED]
    return "```json\n" + nbformat.writes(nb) + "\n```"


@pytest.mark.parametrize("reply", [NUMBERED, PERCENT, SINGLE, _notebook_json()],
                         ids=["numbered-cells", "percent-script", "single-cell", "notebook-json"])
def test_each_reply_format_becomes_a_patch(tmp_path, server, reply):
    nb = nbformat.read(write_nb(tmp_path / "nb.ipynb", *BASE), as_version=4)
    srv = server(reply)
    client = llm.ChatClient(llm_settings(srv.url))
    cls = Classification(kind="error", cell=2, ename="AttributeError",
                         evalue="module 'math' has no attribute 'fact'", lines=(1,), message="")
    run = NotebookRun(cells=(CellRun(index=1, status="ok"), CellRun(index=2, status="error")),
                      timed_out=False, elapsed_s=0.1)
    out = llm_repair(nb, cls, run, client, client.settings.prices, timeout=60, tolerance=0.1,
                     retries=0)
    assert out.error is None and out.attempts == 1
    assert [c.source for c in out.notebook.cells if c.cell_type == "code"] == FIXED
    assert out.notebook.cells[0].source == "# A notebook\nkept as is"
    assert [c.get("id") for c in out.notebook.cells] == [c.get("id") for c in nb.cells]


def test_cli_with_an_llm_keeps_its_cache_inside_the_output_folder(tmp_path, server, capsys,
                                                                   monkeypatch):
    monkeypatch.delenv("CRASHPREDICT_LLM_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "import math\nvalue = math.fact(4)")
    srv = server(block((1, "import math\nvalue = math.factorial(4)")))
    code = main(["modernize", str(notebook), "-o", str(tmp_path / "out"), "--llm-model",
                 "gpt-4o-mini", "--llm-base-url", srv.url, "--llm-max-retries", "0",
                 "--no-equivalence"])
    assert code == 0, capsys.readouterr().err
    assert "runs now after 2 round(s)" in capsys.readouterr().out
    assert list((tmp_path / "out" / "llm-cache").rglob("*"))
    assert not (tmp_path / "xdg").exists()


def test_settings_with_an_llm_travel_to_workers_as_plain_data():
    import pickle

    from benchkit._modernize._folder import _decode, _encode

    prices = llm.PriceTable.from_mapping({"my-model": [1.0, 2.0]}, base=llm.PriceTable.default())
    settings = ModernizeSettings(target_score=0.5, score="acc", llm=llm_settings(
        "http://127.0.0.1:1/v1").replace(model="my-model", prices=prices))
    back = _decode(pickle.loads(pickle.dumps(_encode(settings))))
    assert back.llm.model == "my-model" and back.llm.base_url == "http://127.0.0.1:1/v1"
    assert back.llm.prices.cost("my-model", llm.Usage(prompt_tokens=10**6)) == 1.0
    assert dataclasses.replace(back, llm=None) == dataclasses.replace(settings, llm=None)


def test_cli_refuses_openai_without_a_key(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("CRASHPREDICT_LLM_BASE_URL", raising=False)
    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "x = 1")
    assert main(["modernize", str(notebook), "-o", str(tmp_path / "out"), "--llm"]) == 2
    assert "no API key" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
