"""What docs/jupyterlab.md tells a user to do, done for real: the environment's own
JupyterLab and kernel, a kernel registered for another Jupyter, and an IPython profile that
loads the extension in every kernel (a real kernel started through jupyter_client)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager

pytestmark = [pytest.mark.kernel, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DOC = ROOT / "docs" / "jupyterlab.md"
CONFIG_LINE = 'c.InteractiveShellApp.extensions = ["crashpredict"]'


def _run_cells(km: KernelManager, *cells: str) -> list[dict]:
    """Run ``cells`` in the kernel; the last cell's iopub messages."""
    client = km.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        messages: list[dict] = []
        for cell in cells:
            messages = []
            reply = client.execute_interactive(cell, timeout=120, output_hook=messages.append)
            assert reply["content"]["status"] in ("ok", "error"), reply
        return messages
    finally:
        client.stop_channels()


def _texts(messages: list[dict]) -> list[str]:
    out = []
    for m in messages:
        content = m["content"]
        if m["msg_type"] in ("display_data", "execute_result"):
            out.append(content["data"].get("text/plain", ""))
        elif m["msg_type"] == "stream":
            out.append(content["text"])
    return out


@pytest.mark.parametrize("config_file", ["ipython_kernel_config.py", "ipython_config.py"])
def test_a_profile_line_loads_the_extension_in_every_kernel(tmp_path, config_file):
    """The documented one line in a profile: a fresh kernel warns with no %load_ext."""
    ipython_dir = tmp_path / "ipython"
    profile = ipython_dir / "profile_default"
    profile.mkdir(parents=True)
    (profile / config_file).write_text(CONFIG_LINE + "\n")
    assert CONFIG_LINE in DOC.read_text()
    km = KernelManager(kernel_name="python3")
    km.start_kernel(env={**os.environ, "IPYTHONDIR": str(ipython_dir)}, cwd=str(tmp_path))
    try:
        loaded = _run_cells(km, "print(sorted(get_ipython().extension_manager.loaded))")
        assert "'crashpredict'" in "".join(_texts(loaded))
        shown = _run_cells(km, "import pandas as pd\ndf = pd.DataFrame({'a': [1]})", "df['b']")
        warning = next(t for t in _texts(shown) if t.startswith("crashpredict:"))
        assert warning.startswith("crashpredict: this cell will likely raise KeyError at line 1")
    finally:
        km.shutdown_kernel(now=True)


def test_a_profile_can_start_every_kernel_in_strict_mode(tmp_path):
    profile = tmp_path / "ipython" / "profile_default"
    profile.mkdir(parents=True)
    strict = 'c.InteractiveShellApp.exec_lines = ["%crashpredict strict"]'
    assert strict in DOC.read_text()
    (profile / "ipython_kernel_config.py").write_text(f"{CONFIG_LINE}\n{strict}\n")
    km = KernelManager(kernel_name="python3")
    km.start_kernel(env={**os.environ, "IPYTHONDIR": str(tmp_path / "ipython")}, cwd=str(tmp_path))
    try:
        shown = _run_cells(km, "import pandas as pd\ndf = pd.DataFrame({'a': [1]})",
                           "df['b']\nprint('the cell ran')")
        errors = [m["content"] for m in shown if m["msg_type"] == "error"]
        assert [e["ename"] for e in errors] == ["CellRefused"]
        assert "the cell ran" not in "".join(_texts(shown))
    finally:
        km.shutdown_kernel(now=True)


def test_without_the_profile_line_no_extension_is_loaded(tmp_path):
    (tmp_path / "ipython" / "profile_default").mkdir(parents=True)
    km = KernelManager(kernel_name="python3")
    km.start_kernel(env={**os.environ, "IPYTHONDIR": str(tmp_path / "ipython")}, cwd=str(tmp_path))
    try:
        loaded = _run_cells(km, "print(sorted(get_ipython().extension_manager.loaded))")
        assert "crashpredict" not in "".join(_texts(loaded))
    finally:
        km.shutdown_kernel(now=True)


def test_the_environment_registered_as_a_kernel_for_another_jupyter(tmp_path):
    """`python -m ipykernel install --name nbcrash` (here into a prefix, not ~/.local):
    another Jupyter that finds the spec starts this environment's Python, where
    `%load_ext crashpredict` works."""
    done = subprocess.run([sys.executable, "-m", "ipykernel", "install", "--prefix", str(tmp_path),
                           "--name", "nbcrash", "--display-name", "Python (nbcrash)"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "-m ipykernel install --user --name nbcrash" in DOC.read_text()
    kernels = tmp_path / "share" / "jupyter" / "kernels"
    spec = json.loads((kernels / "nbcrash" / "kernel.json").read_text())
    assert spec["display_name"] == "Python (nbcrash)"
    assert Path(spec["argv"][0]).parent == BIN  # this environment's Python, by its path
    specs = KernelSpecManager(kernel_dirs=[str(kernels)])
    km = KernelManager(kernel_name="nbcrash", kernel_spec_manager=specs)
    km.start_kernel(cwd=str(tmp_path))
    try:
        shown = _run_cells(km, "%load_ext crashpredict", "import sys\nprint(sys.prefix)")
        assert Path("".join(_texts(shown)).strip()) == Path(sys.prefix)
    finally:
        km.shutdown_kernel(now=True)


def test_the_environments_jupyterlab_uses_its_own_kernel():
    """`.venv/bin/jupyter lab` is there, and its default kernel is this environment's."""
    lab = subprocess.run([str(BIN / "jupyter"), "lab", "--version"], capture_output=True,
                         text=True, timeout=120)
    assert lab.returncode == 0 and lab.stdout.strip()[:1].isdigit(), lab.stderr
    listed = subprocess.run([str(BIN / "jupyter"), "kernelspec", "list", "--json"],
                            capture_output=True, text=True, timeout=120)
    spec = json.loads(listed.stdout)["kernelspecs"]["python3"]["spec"]
    argv0 = spec["argv"][0]
    assert argv0 in ("python", sys.executable) or Path(argv0).parent == BIN, spec
    assert ".venv/bin/jupyter lab" in DOC.read_text()
