"""The copy-on-write overlay behaves like the real file system, seen from inside the cell.

Random sequences of file operations run twice: for real in one copy of a folder, and in a
dry run over another copy. The state the cell sees at the end (every path, its kind and
content, and the error each operation raised) must be the same, and the dry run's copy of
the folder must be untouched.
"""

from __future__ import annotations

import json
import os
import shutil

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crashpredict._dryrun import dry_run

NAMES = st.sampled_from(["a", "b", "d", "d/x", "d/y", "e", "e/z"])
OPS = st.one_of(
    st.tuples(st.just("write"), NAMES, st.text("xyz", max_size=5)),
    st.tuples(st.just("append"), NAMES, st.text("xyz", max_size=5)),
    st.tuples(st.just("remove"), NAMES),
    st.tuples(st.just("mkdir"), NAMES),
    st.tuples(st.just("makedirs"), NAMES),
    st.tuples(st.just("rmdir"), NAMES),
    st.tuples(st.just("rmtree"), NAMES),
    st.tuples(st.just("rename"), NAMES, NAMES),
    st.tuples(st.just("copy"), NAMES, NAMES),
    st.tuples(st.just("chmod"), NAMES),
)

RUNNER = '''
import os, shutil, json, stat
def _apply(op):
    kind, *args = op
    if kind == "write":
        with open(args[0], "w") as fh: fh.write(args[1])
    elif kind == "append":
        with open(args[0], "a") as fh: fh.write(args[1])
    elif kind == "remove": os.remove(args[0])
    elif kind == "mkdir": os.mkdir(args[0])
    elif kind == "makedirs": os.makedirs(args[0], exist_ok=True)
    elif kind == "rmdir": os.rmdir(args[0])
    elif kind == "rmtree": shutil.rmtree(args[0])
    elif kind == "rename": os.rename(args[0], args[1])
    elif kind == "copy": shutil.copy(args[0], args[1])
    elif kind == "chmod": os.chmod(args[0], 0o700)
def _state(root):
    seen = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            seen[os.path.relpath(os.path.join(folder, name), root)] = "dir"
        for name in files:
            path = os.path.join(folder, name)
            with open(path) as fh:
                seen[os.path.relpath(path, root)] = [fh.read(), stat.S_IMODE(os.stat(path).st_mode) == 0o700]
    return seen
def _run(root, ops):
    os.chdir(root)
    errors = []
    for op in ops:
        try:
            _apply(op)
            errors.append(None)
        except OSError as exc:
            errors.append(type(exc).__name__)
    return json.dumps({"errors": errors, "state": _state(root)}, sort_keys=True)
'''


def _seed(root) -> None:
    os.makedirs(root / "d")
    (root / "a").write_text("A")
    (root / "d" / "x").write_text("X")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, min_size=1, max_size=8))
def test_overlay_matches_the_real_file_system(tmp_path_factory, ops):
    real, dry = tmp_path_factory.mktemp("real"), tmp_path_factory.mktemp("dry")
    _seed(real)
    _seed(dry)
    namespace: dict = {}
    exec(RUNNER, namespace)
    cwd = os.getcwd()
    try:
        expected = namespace["_run"](str(real), [list(op) for op in ops])
    finally:
        os.chdir(cwd)
    cell = RUNNER + f"raise AssertionError(_run({str(dry)!r}, {[list(op) for op in ops]!r}))"
    result = dry_run(cell, {}, budget_s=20)
    assert (result.outcome, result.exception) == ("crashed", "AssertionError"), result
    assert json.loads(result.message) == json.loads(expected)
    untouched = {p: (dry / p).read_text() for p in ("a", "d/x")}
    assert untouched == {"a": "A", "d/x": "X"}
    assert sorted(str(p.relative_to(dry)) for p in dry.rglob("*")) == ["a", "d", "d/x"]
    shutil.rmtree(real)
