"""The extension as a user sees it: JupyterLab 4 in headless Chromium (issue 17 item 4).

A real ``jupyter lab`` on 127.0.0.1 (with a token) and a real Chromium driven through the
DevTools protocol over a websocket. The notebook loads the extension and runs a crashing
cell; the warning must be a visible rendered HTML block in the cell's output area, above
the traceback. In strict mode the refusal must be a short message: no injected code, no
frames of ours.

Skips only where no Chromium can be found (CI installs Debian's ``chromium``: see .ci/run).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.kernel, pytest.mark.timeout(300)]

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TOKEN = "crashpredict-test-token"


def _browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(what: str, check, timeout: float, interval: float = 0.25):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            last = check()
            if last:
                return last
        except Exception as exc:  # not up yet
            last = exc
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what} (last: {last!r})")


def _stop(proc: subprocess.Popen) -> None:
    """End a process we started, and its group, for sure."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(10)


def _notebook(path: Path, *cells: str) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A JupyterLab server on 127.0.0.1; yields (base URL, its root folder)."""
    root = tmp_path_factory.mktemp("lab")
    home = tmp_path_factory.mktemp("lab-home")
    port = _free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"))
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
           f"--port={port}", f"--ServerApp.token={TOKEN}", f"--ServerApp.root_dir={root}",
           "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
           f"--LabServerApp.workspaces_dir={home / 'workspaces'}",
           f"--LabServerApp.user_settings_dir={home / 'settings'}", "--allow-root"]
    if importlib.util.find_spec("jupyterlab") is None:
        pytest.fail("jupyterlab is missing: it is in requirements-dev.txt")
    log = open(home / "lab.log", "wb")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait("jupyter lab", lambda: proc.poll() is None and urllib.request.urlopen(
            f"{base}/api/status?token={TOKEN}", timeout=2).status == 200, 90)
        yield base, root
    finally:
        _stop(proc)
        log.close()


class DevTools:
    """A minimal Chrome DevTools protocol client over one page's websocket."""

    def __init__(self, ws_url: str) -> None:
        import websocket  # websocket-client
        self.ws = websocket.create_connection(ws_url, timeout=30, suppress_origin=True)
        self.next_id = 0

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def js(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("text", "js error"))
        return result["result"].get("value")

    def close(self) -> None:
        self.ws.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevTools]:
    exe = _browser()
    if exe is None:
        pytest.skip("no Chromium here (CI installs Debian's chromium: apt-get install chromium)")
    profile = tmp_path_factory.mktemp("chromium")
    proc = subprocess.Popen(
        [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--no-default-browser-check", "--remote-allow-origins=*",
         "--remote-debugging-port=0", f"--user-data-dir={profile}",
         "--window-size=1280,1600", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    tools = None
    try:
        port_file = profile / "DevToolsActivePort"
        port = _wait("chromium's DevTools port",
                     lambda: port_file.is_file() and port_file.read_text().split()[0], 60)
        pages = _wait("a page target", lambda: [t for t in json.load(urllib.request.urlopen(
            f"http://127.0.0.1:{port}/json/list", timeout=2)) if t["type"] == "page"], 30)
        tools = DevTools(pages[0]["webSocketDebuggerUrl"])
        yield tools
    finally:
        if tools is not None:
            tools.close()
        _stop(proc)


# The panel of one notebook (Lab may restore others from its workspace).
_PANEL = "[...window.jupyterapp.shell.widgets('main')].find(w => w.context && w.context.path === %s)"

# Run every cell of the notebook through Lab's own command, as a user's "Run All".
_RUN_ALL = """(async () => {
  const app = window.jupyterapp;
  const panel = %s;
  app.shell.activateById(panel.id);
  await panel.sessionContext.ready;
  await app.commands.execute('notebook:run-all-cells');
  return true;
})()"""

# The rendered output areas of the notebook's cells, in order: each one's outputs, top down.
_OUTPUTS = """(() => {
  const panel = %s;
  const cells = [...panel.node.querySelectorAll('.jp-CodeCell')];
  return cells.map(cell => [...cell.querySelectorAll('.jp-OutputArea-output')].map(o => {
    const r = o.getBoundingClientRect();
    const warning = o.querySelector('.crashpredict-warning');
    return {mime: o.getAttribute('data-mime-type') || '',
            warning: !!warning,
            visible: !!warning && warning.offsetParent !== null && r.height > 0 &&
                     getComputedStyle(warning).visibility !== 'hidden',
            text: o.innerText};
  }));
})()"""


def _last_cell_failed(outputs: list | None) -> list | None:
    if outputs and any("Error" in o["text"] or "CellRefused" in o["text"]
                       for o in outputs[-1] if not o["warning"]):
        return outputs
    return None


def _open_and_run(browser: DevTools, lab: tuple[str, Path], name: str, cells: int) -> list:
    base, _ = lab
    panel = _PANEL % json.dumps(name)
    browser.call("Page.navigate", url=f"{base}/lab/tree/{name}?token={TOKEN}")
    _wait(f"{name} to open in JupyterLab", lambda: browser.js(
        f"(() => {{ const p = window.jupyterapp && {panel}; "
        f"return !!p && p.node.querySelectorAll('.jp-CodeCell').length === {cells}; }})()"),
        120, 0.5)
    browser.js(_RUN_ALL % panel)
    return _wait(f"the last cell of {name} to fail",
                 lambda: _last_cell_failed(browser.js(_OUTPUTS % panel)), 150, 0.5)


def test_lab_shows_the_warning_as_visible_html_above_the_traceback(browser, lab) -> None:
    _notebook(lab[1] / "warn.ipynb", "%load_ext crashpredict",
              "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})", "df['b']")
    outputs = _open_and_run(browser, lab, "warn.ipynb", 3)[-1]
    first = outputs[0]
    assert first["warning"] and first["visible"], outputs
    assert first["mime"] == "text/html"
    assert "this cell will likely raise KeyError at line 1" in first["text"]
    assert "df has no column 'b'" in first["text"]
    traceback = [i for i, o in enumerate(outputs) if "KeyError" in o["text"] and not o["warning"]]
    assert traceback and traceback[0] > 0, outputs  # the warning comes first


def test_lab_strict_refusal_is_short_without_internal_frames(browser, lab) -> None:
    _notebook(lab[1] / "strict.ipynb", "%load_ext crashpredict\n%crashpredict strict",
              "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nran = []",
              "ran.append(1)\ndf['b']")
    outputs = _open_and_run(browser, lab, "strict.ipynb", 3)[-1]
    (refusal,) = [o for o in outputs if "CellRefused" in o["text"]]
    text = refusal["text"]
    assert "crashpredict (strict) refused to run this cell: KeyError predicted at line 2" in text
    for internal in ("__import__", "_extension", "Traceback", "File ", "refuse("):
        assert internal not in text, text
    assert len(text.strip().splitlines()) <= 4, text


# Whether the notebook's last cell is still running (its prompt shows [*]), and its outputs.
_LAST_CELL = """(() => {
  const panel = %s;
  const cells = [...panel.node.querySelectorAll('.jp-CodeCell')];
  const last = cells[cells.length - 1];
  const prompt = last.querySelector('.jp-InputArea-prompt');
  return {busy: !!prompt && prompt.innerText.includes('*'),
          outputs: [...last.querySelectorAll('.jp-OutputArea-output')].map(o => {
            const warning = o.querySelector('.crashpredict-warning');
            return {warning: !!warning, visible: !!warning && warning.offsetParent !== null,
                    text: o.innerText};
          })};
})()"""


def test_lab_shows_the_dry_runs_warning_while_the_cell_still_runs(browser, lab) -> None:
    _notebook(lab[1] / "beside.ipynb", "%load_ext crashpredict",
              "import json, time\ndef load_config():\n    return json.loads('{\"loss\": 0.1}')",
              "cfg = load_config()\nfor epoch in range(300):\n    time.sleep(0.05)\n"
              "cfg['val_accuracy']")
    base, _ = lab
    panel = _PANEL % json.dumps("beside.ipynb")
    browser.call("Page.navigate", url=f"{base}/lab/tree/beside.ipynb?token={TOKEN}")
    _wait("beside.ipynb to open in JupyterLab", lambda: browser.js(
        f"(() => {{ const p = window.jupyterapp && {panel}; "
        f"return !!p && p.node.querySelectorAll('.jp-CodeCell').length === 3; }})()"), 120, 0.5)
    browser.js(_RUN_ALL.replace("await app.commands.execute", "app.commands.execute") % panel)
    started = time.monotonic()  # Run All started; not awaited, so we watch while it runs
    state = _wait("the dry run's warning", lambda: (lambda s: s if any(
        o["visible"] for o in s["outputs"]) else None)(browser.js(_LAST_CELL % panel)), 60, 0.2)
    warned = time.monotonic() - started
    # the cell (15 s of epochs) is still running, and nothing else is in its output yet
    assert state["busy"], state
    assert [o["warning"] for o in state["outputs"]] == [True], state
    text = state["outputs"][0]["text"]
    assert "this cell will likely raise KeyError at line 4" in text
    assert "the cell is still running" in text
    done = _wait("the real KeyError", lambda: _last_cell_failed(browser.js(_OUTPUTS % panel)),
                 90, 0.5)
    failed = time.monotonic() - started
    assert warned < failed / 3, (warned, failed)
    assert done[-1][0]["warning"]  # the warning stays first, above the traceback
