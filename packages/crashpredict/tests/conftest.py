"""Shared fixtures: a real kernel per test module."""

from __future__ import annotations

import glob
import importlib.util
import os
import sys
from pathlib import Path

import pytest

from crashpredict import KernelSession


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory):
    """One real Jupyter kernel shared by the tests of a module (kernels are slow to start)."""
    with KernelSession(tmp_path_factory.mktemp("kernel"), timeout=300) as session:
        yield session


def _children() -> set[int]:
    """The pids of this process's live (or zombie) children, from /proc."""
    pids: set[int] = set()
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/children"):
        try:
            with open(path) as fh:
                pids.update(int(p) for p in fh.read().split())
        except FileNotFoundError:  # that thread ended after the listing: its children, if
            continue               # any, are another thread's now (listed there)
    return pids


@pytest.fixture
def no_new_children():
    """Fail when a test leaves a child process (running or zombie) behind."""
    before = _children()
    yield
    assert _children() - before == set()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "kernel: starts a real Jupyter kernel")


def _register(name: str, filename: str) -> None:
    """Make a helper file of the tests importable as ``name`` (llm_server.py: the fake
    chat-completions server; cells.py: the truth of a cell, the dry run beside it).

    Tests use pytest's importlib mode, where sibling test helpers are not on sys.path;
    conftest runs before the test modules, so they can simply import it.
    """
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(filename))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


_register("crashpredict_tests_llm_server", "llm_server.py")
_register("crashpredict_tests_cells", "cells.py")


@pytest.fixture
def server():
    """A chat-completions server on 127.0.0.1 that answers what the test pushes."""
    srv = sys.modules["crashpredict_tests_llm_server"].FakeChatServer().start()
    yield srv
    srv.stop()
