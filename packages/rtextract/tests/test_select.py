"""select(): table-driven cases of what a cell reads from its namespace."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtextract import Access, select


def texts(source: str) -> list[str]:
    return [a.text for a in select(source)]


CASES = [
    ("attribute and subscript chain", "model.layers[0].get_weights()", ["model.layers[0]"]),
    ("string subscript", "df['col'].mean()", ["df['col']"]),
    ("negative index", "xs[-1]", ["xs[-1]"]),
    ("method call drops the method", "df.head()", ["df"]),
    ("attribute read keeps the attribute", "print(df.shape)", ["df.shape"]),
    ("dynamic subscript stops the path", "df[cols].mean()", ["df", "cols"]),
    ("slice stops the path", "X[:, 0]", ["X"]),
    ("read before rebinding", "df = df.dropna()\ndf.shape", ["df"]),
    ("bound first is not read", "y = 1\nprint(y)", []),
    ("augmented assignment reads", "total += 1", ["total"]),
    ("function body read when called", "def f(a):\n    return a * scale\nf(X)", ["scale", "X"]),
    ("function body ignored when never used", "def f():\n    return hidden\n", []),
    ("function passed as callback counts", "def g(r):\n    return r + k\ndf.apply(g)", ["k", "df"]),
    ("function sees names bound before its call",
     "def f():\n    return w\nw = 2\nf()", []),
    ("lambda body", "df.apply(lambda r: r * k)", ["df", "k"]),
    ("comprehension", "[v * m for v in vals if v > thr]", ["m", "vals", "thr"]),
    ("comprehension variable is local", "[v for v in vals]\nprint(v)", ["vals", "v"]),
    ("imports bind", "import numpy as np\nnp.zeros(3)", []),
    ("store to subscript reads the base", "df['new'] = df.a * 2", ["df", "df.a"]),
    ("store to attribute reads the base", "model.trainable = False", ["model"]),
    ("for loop target is bound", "for i in range(n):\n    acc.append(i)", ["n", "acc"]),
    ("with target is bound", "with open(path) as fh:\n    fh.read()", ["path"]),
    ("except name is bound", "try:\n    run()\nexcept Err as e:\n    log(e)", ["run", "Err", "log"]),
    ("class body runs now", "class C(Base):\n    size = default_size", ["Base", "default_size"]),
    ("builtins are not reported", "len(x) + sum(y)", ["x", "y"]),
    ("magics are ignored", "%matplotlib inline\n!pip list\nplt.plot(x)", ["plt", "x"]),
    ("walrus binds", "if (n := len(items)) > 2:\n    print(n)", ["items"]),
    ("del reads", "del df['a']", ["df"]),
    ("fstring", "f'{name}: {score:.2f}'", ["name", "score"]),
    ("duplicates once, source order", "b + a + b.x + a", ["b", "a", "b.x"]),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_select_cases(source, expected):
    assert texts(source) == expected


def test_access_fields():
    (access,) = select("x = 1\nmodel.layers[0]['w']")
    assert access == Access("model", ("layers", 0, "['w']"), 2, "model.layers[0]['w']")


def test_unparsable_cell_is_read_line_by_line():
    assert texts("a = b +\nprint(c)\n") == ["c"]


def test_garbage_never_raises():
    assert select("def (:\n") == ()
    assert select("\x00\x01") == ()


@pytest.mark.xfail(strict=True, reason="bindings are flow-insensitive: a name bound only in "
                   "one branch counts as bound afterwards, though it may come from the namespace")
def test_conditional_binding_is_tracked():
    assert texts("if flag:\n    x = 1\nprint(x)") == ["flag", "x"]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abxy_=+()[].:'0 \n\tdefor", max_size=60))
def test_select_never_raises_on_arbitrary_text(source):
    result = select(source)
    assert all(isinstance(a, Access) for a in result)
