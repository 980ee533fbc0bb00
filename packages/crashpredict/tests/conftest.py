"""Shared fixtures: a real kernel per test module."""

from __future__ import annotations

import pytest

from crashpredict import KernelSession


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory):
    """One real Jupyter kernel shared by the tests of a module (kernels are slow to start)."""
    with KernelSession(tmp_path_factory.mktemp("kernel"), timeout=300) as session:
        yield session


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "kernel: starts a real Jupyter kernel")
