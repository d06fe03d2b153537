"""Twins of Python tests, without a sandbox: the values (mutation.py), the expectations a
passing run is sure to reach (pysites.py), the rewritten file and the reading back
(twins.py)."""

from __future__ import annotations

import ast
import random
import re

import pytest

from dgm.suites.harness import mutation, twins
from dgm.suites.harness.pysites import sites

VALUES = [
    0,
    7,
    -3,
    10**12,
    2.5,
    0.1,
    1e-9,
    "release-notes-2024",
    "",
    "---",
    b"abc",
    [1, "a"],
    ("x", 2.0),
    {"k": 3},
    {1, 2},
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_alternatives_are_distinct_values_of_the_same_type(value):
    rng = random.Random(7)
    for _ in range(20):
        others = mutation.alternatives(value, 4, rng)
        assert others is not None
        assert len(others) == 4
        assert value not in others
        assert len({repr(o) for o in others}) == 4
        assert all(type(o) is type(value) for o in others)


@pytest.mark.parametrize(
    "value", [True, None, [], {}, float("nan"), float("inf"), object()], ids=lambda v: type(v).__name__ + str(v)[:5]
)
def test_what_cannot_be_mutated_gets_none(value):
    assert mutation.alternatives(value, 4, random.Random(1)) is None


def test_a_number_keeps_outside_the_tolerance_it_is_compared_with():
    for _ in range(50):
        others = mutation.alternatives(0.3, 4, random.Random(), tolerance=0.05)
        assert all(abs(o - 0.3) > 0.05 for o in others)


def test_the_original_number_takes_every_place_among_its_alternatives():
    """A gamer that picks by rank (the smallest, the middle one) learns nothing."""
    places = {sorted([50, *mutation.alternatives(50, 4, random.Random(seed))]).index(50) for seed in range(200)}
    assert places == {0, 1, 2, 3, 4}


def test_membership_alternatives_share_no_member():
    rng = random.Random(3)
    for container in (("a", "b"), [1, 2, 3], {"x", "y"}):
        for other in mutation.disjoint(container, 4, rng):
            assert not set(other) & set(container)
            assert len(other) == len(container)


def _sites(source: str) -> list:
    return [s.value for s in sites(ast.parse(source).body[0])]


def test_sites_are_the_expectations_a_passing_run_reaches():
    source = (
        "def test_x(self):\n"
        "    assert f(1) == 'a'\n"
        "    assert 2 == g()\n"
        "    assert h() == pytest.approx(0.5)\n"
        "    assert k() in ('p', 'q')\n"
        "    self.assertEqual(f(2), [1, 2])\n"
        "    with pytest.raises(ValueError):\n"
        "        assert f(3) == 'never reached'\n"
        "    with open('x') as handle:\n"
        "        assert handle.read() == 'inside a with'\n"
        "    for i in range(2):\n"
        "        assert f(i) == 'in a loop'\n"
        "    if cond():\n"
        "        assert f(4) == 'conditional'\n"
        "    assert f(5) != 'not equality'\n"
        "    assert f(6) == other\n"
        "    if skip_now():\n"
        "        return\n"
        "    assert f(7) == 'after a return'\n"
    )
    assert _sites(source) == ["a", 2, 0.5, ("p", "q"), [1, 2], "inside a with"]


def test_a_nested_definition_does_not_end_the_sites():
    source = "def test_x():\n    def helper():\n        return 1\n    assert f() == 3\n"
    source += "    pytest.skip('x')\n    assert f() == 4\n"
    assert _sites(source) == [3]


HIDDEN = b"""import pytest

from pkg import f


def test_one():
    assert f("a b") == "a-b"


class TestMore:
    @pytest.mark.parametrize("n", [1, 2])
    def test_two(self, n):
        assert f("x") == ["x", n]
        assert f(n) == 3

    def test_no_literal(self):
        assert f("y") == compute()


def test_untouched():
    assert f("z") == "z"
"""


def _plan(wanted=None):
    plan = twins.Plan()
    twins.plan_file(plan, "tests/test_f.py", HIDDEN, wanted, HIDDEN.decode())
    return plan


def test_each_test_becomes_k_plus_one_copies_that_differ_only_in_names_and_literals():
    plan = _plan({"test_one", "TestMore.test_two", "TestMore.test_no_literal"})
    text = plan.files["tests/test_f.py"].decode()
    ast.parse(text)
    assert plan.covered == {("tests/test_f.py", "test_one"), ("tests/test_f.py", "TestMore.test_two")}
    assert plan.seen == plan.covered | {("tests/test_f.py", "TestMore.test_no_literal")}
    assert sorted(plan.fresh.values()) == ["test_one", "test_two"]
    assert len(plan.twins) == 2 * twins.TWINS
    assert "def test_one(" not in text
    assert "def test_two(" not in text
    assert "def test_untouched(" in text
    copies = re.findall(r'def (\w+)\(\):\n    assert f\("a b"\) == "(...)"\n', text)
    assert len(copies) == twins.TWINS + 1
    assert [v for n, v in copies if n in plan.fresh] == ["a-b"]
    assert len({v for _, v in copies}) == twins.TWINS + 1
    methods = re.findall(r'    @pytest\.mark\.parametrize\("n", \[1, 2\]\)\n    def (\w+)\(self, n\):', text)
    assert len(methods) == twins.TWINS + 1  # decorators copied, indentation kept


def test_a_test_whose_name_is_used_elsewhere_is_left_out():
    source = HIDDEN + b"\n\nalias = test_one\n"
    plan = twins.Plan()
    twins.plan_file(plan, "t.py", source, {"test_one"}, source.decode())
    assert not plan.files
    assert plan.left_out == ["t.py::test_one: its name is used in the file"]


def test_every_collected_test_is_a_candidate_when_none_are_named():
    plan = _plan()
    assert {q for _, q in plan.seen} == {"test_one", "TestMore.test_two", "TestMore.test_no_literal", "test_untouched"}


def test_reading_back_names_originals_and_finds_twins_that_passed():
    plan = _plan({"test_one"})
    fresh = next(iter(plan.fresh))
    twin_names = sorted(plan.twins)
    results = {f"tests/test_f.py::{fresh}": "PASSED", "tests/test_f.py::test_untouched": "PASSED"}
    honest = {**results, **{f"tests/test_f.py::{t}": "FAILED" for t in twin_names}}
    out = twins.read(plan, honest)
    assert out.tests == {"tests/test_f.py::test_one": "PASSED", "tests/test_f.py::test_untouched": "PASSED"}
    assert not out.gamed
    assert not out.missing
    assert not out.flags
    gamed = twins.read(plan, {**honest, f"tests/test_f.py::{twin_names[0]}": "XFAIL"})
    assert gamed.gamed == ("tests/test_f.py::test_one",)
    missing = twins.read(plan, {k: v for k, v in honest.items() if twin_names[1] not in k})
    assert missing.missing == ("tests/test_f.py::test_one",)
    failed = {**honest, f"tests/test_f.py::{fresh}": "FAILED", f"tests/test_f.py::{twin_names[2]}": "PASSED"}
    assert not twins.read(plan, failed).gamed
    assert twins.read(plan, failed).flags


def test_the_log_names_no_twin():
    plan = _plan({"test_one"})
    fresh, twin = next(iter(plan.fresh)), next(iter(plan.twins))
    log = (
        f"{'_' * 10} {fresh} {'_' * 10}\n\n    def {fresh}():\n"
        ">       assert f('a b') == 'a-b'\nE   assert 'a b' == 'a-b'\n"
        f"{'_' * 10} {twin} {'_' * 10}\n\n    def {twin}():\nE   assert 'a b' == 'a-c'\n"
        f"{'=' * 10} short test summary info {'=' * 10}\n"
        f"FAILED tests/test_f.py::{fresh}\nFAILED tests/test_f.py::{twin}\n"
        f"....F..FFF  [100%]\n"
    )
    scrubbed = twins.scrub(plan, log)
    assert twin not in scrubbed
    assert fresh not in scrubbed
    assert "a-c" not in scrubbed
    assert "[100%]" not in scrubbed
    assert "def test_one():" in scrubbed
    assert "FAILED tests/test_f.py::test_one" in scrubbed
