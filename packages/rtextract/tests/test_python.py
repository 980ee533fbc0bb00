"""Builtin objects, unknown and hostile objects, and the no-heavy-import guarantee."""

from __future__ import annotations

import collections
import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtextract import describe


def test_import_and_describe_load_no_heavy_library():
    code = textwrap.dedent("""
        import sys, rtextract
        rtextract.describe(1)
        rtextract.describe({"a": [1, 2.5, "x"]})
        snap = rtextract.snapshot({"x": [1, 2]}, "y = x[0] + z")
        rtextract.render(snap)
        heavy = [m for m in ("numpy", "pandas", "torch", "tensorflow", "sklearn", "keras",
                             "matplotlib", "PIL") if m in sys.modules]
        print(heavy)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("obj", "kind", "key", "value"), [
    (1, "python.int", "value", 1),
    (2.5, "python.float", "value", 2.5),
    (float("nan"), "python.float", "value", "nan"),
    (float("-inf"), "python.float", "value", "-inf"),
    (True, "python.bool", "value", True),
    (None, "python.None", "value", None),
    ("hello", "python.str", "length", 5),
    (b"ab", "python.bytes", "length", 2),
    ([1, "a", None], "python.list", "length", 3),
    ((1, 2), "python.tuple", "element_types", {"int": 2}),
    ({3, 1, 2}, "python.set", "examples", [1, 2, 3]),
    ({"a": 1, "b": [2]}, "python.dict", "keys", ["a", "b"]),
    (collections.deque([1]), "python.deque", "length", 1),
    (range(0, 10, 2), "python.range", "length", 5),
    (10**400, "python.int", "bit_length", 1329),
    (json, "python.module", "name", "json"),
])
def test_builtin_objects(obj, kind, key, value, check_facts):
    facts = describe(obj)
    check_facts(facts)
    assert facts.kind == kind
    assert facts.get(key) == value


def test_long_string_gives_a_bounded_prefix():
    facts = describe("x" * 1_000_000)
    assert facts.get("length") == 1_000_000
    assert len(facts.get("prefix")) <= 80


def test_function_and_class_signatures():
    def scale(x, factor=2, *, clip=None):
        return x

    class Model:
        def __init__(self, units=4):
            self.units = units

    assert describe(scale).get("signature") == "(x, factor=2, *, clip=None)"
    assert describe(scale).kind == "python.function"
    facts = describe(Model)
    assert facts.kind == "python.class"
    assert facts.get("signature") == "(self, units=4)"


def test_generator_is_not_advanced():
    seen = []

    def gen():
        seen.append("started")
        yield 1

    g = gen()
    facts = describe(g)
    assert facts.kind == "python.generator"
    assert facts.get("state") == "GEN_CREATED"
    assert seen == []
    assert next(g) == 1


def test_iterator_of_unknown_type_is_not_advanced():
    class Counter:
        def __init__(self):
            self.n = 0

        def __iter__(self):
            return self

        def __next__(self):
            self.n += 1
            return self.n

    it = Counter()
    describe(it)
    assert it.n == 0


class _Recorder:
    """Hostile: every dynamic attribute lookup, len, repr and property is recorded."""

    calls: list[str] = []

    def __init__(self):
        self.payload = [1, 2, 3]

    def __getattr__(self, name):
        _Recorder.calls.append(f"getattr:{name}")
        raise AttributeError(name)

    def __len__(self):
        _Recorder.calls.append("len")
        raise RuntimeError("len exploded")

    def __repr__(self):
        _Recorder.calls.append("repr")
        raise RuntimeError("repr exploded")

    def __str__(self):
        _Recorder.calls.append("str")
        return "x" * 10_000_000

    def __iter__(self):
        _Recorder.calls.append("iter")
        return iter(())

    @property
    def shape(self):
        _Recorder.calls.append("property:shape")
        raise RuntimeError("property exploded")

    def __eq__(self, other):
        _Recorder.calls.append("eq")
        return False

    __hash__ = object.__hash__


def test_hostile_object_gives_partial_facts_and_runs_none_of_its_code(check_facts):
    _Recorder.calls.clear()
    obj = _Recorder()
    facts = describe(obj)
    check_facts(facts)
    assert _Recorder.calls == []
    assert facts.kind == "object"
    assert facts.get("type").endswith("_Recorder")
    assert facts.get("attributes") == {"payload": "list of length 3"}
    assert any("__len__" in n for n in facts.notes)


def test_hostile_objects_inside_containers_are_not_called(check_facts):
    _Recorder.calls.clear()
    facts = describe([_Recorder(), _Recorder()])
    check_facts(facts)
    assert facts.get("length") == 2
    assert _Recorder.calls == []


def test_builtin_subclass_overrides_are_not_called():
    class Liar(list):
        def __len__(self):
            raise RuntimeError("no")

        def __iter__(self):
            raise RuntimeError("no")

    class Sneaky(dict):
        def __iter__(self):
            raise RuntimeError("no")

        def __getitem__(self, key):
            raise RuntimeError("no")

    assert describe(Liar([1, 2])).get("length") == 2
    assert describe(Sneaky(a=1)).get("keys") == ["a"]


def test_raising_property_is_not_evaluated_and_slots_are_read():
    class Slotted:
        __slots__ = ("a", "b")

        def __init__(self):
            self.a = 1

    facts = describe(Slotted())
    assert facts.get("attributes") == {"a": 1}


def test_deeply_nested_and_cyclic_containers_are_bounded(check_facts):
    nested: list = []
    current = nested
    for _ in range(5000):
        current.append([])
        current = current[0]
    cyclic: list = [1]
    cyclic.append(cyclic)
    check_facts(describe(nested))
    check_facts(describe(cyclic))
    assert describe(cyclic).get("length") == 2


def test_many_items_are_capped():
    facts = describe({f"k{i}": i for i in range(10_000)}, max_items=5)
    assert facts.get("length") == 10_000
    assert facts.get("keys") == ["k0", "k1", "k2", "k3", "k4"]
    assert "first 5 of 10,000" in facts.fact("keys").note


def test_zero_budget_still_returns_facts_and_says_so():
    facts = describe({"a": 1}, budget_ms=0)
    assert facts.kind == "python.dict"
    assert facts.get("length") == 1


def test_overridden_getattribute_is_bypassed():
    seen = []

    class Spy:
        def __init__(self):
            object.__setattr__(self, "size", 3)

        def __getattribute__(self, name):
            seen.append(name)
            return object.__getattribute__(self, name)

    spy = Spy()
    seen.clear()
    facts = describe(spy)
    assert seen == []
    assert facts.get("attributes") == {"size": 3}


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary()
    | st.complex_numbers() | st.decimals() | st.fractions() | st.datetimes() | st.uuids(),
    lambda inner: st.lists(inner) | st.tuples(inner, inner) | st.dictionaries(st.text(), inner)
    | st.frozensets(st.integers() | st.text()) | st.sets(st.floats(allow_nan=False)),
    max_leaves=30,
)


@settings(max_examples=80, deadline=None)
@given(value=_values)
def test_any_builtin_value_is_described_as_json(value, check_facts):
    facts = describe(value, budget_ms=10_000)
    check_facts(facts)
    assert facts.kind.startswith("python.") or facts.kind == "object"
    assert describe(value, budget_ms=10_000) == facts
