"""Scores that survive code under test that games the tests from inside the test process
(tests/reliability/gaming.py): each gaming patch is first shown to make every hidden test
pass in a plain pytest run, then graded not resolved on both isolating backends, by the
twins that an honest fix must fail, the judge's check that the tests ran their own code,
or its audit hook. Honest fixes that log, warn, look at their caller, return a str subclass
or install an import hook of their own still resolve."""

from __future__ import annotations

import re

import pytest

from dgm.suites import Grader, load_suite
from dgm.suites.harness import canaries
from tests.reliability.gaming import ATTACKS, LEGITIMATE, PLAIN_RUN
from tests.reliability.spoofing import run_plainly
from tests.sandbox.conftest import backend  # noqa: F401 - both isolating backends

pytestmark = [pytest.mark.faults, pytest.mark.minutes(2)]
DRAWN = re.compile(
    rf"\btest_(?:{'|'.join(canaries.VERBS)})_(?:{'|'.join(canaries.NOUNS)})_(?:{'|'.join(canaries.NOUNS)})\b"
)


@pytest.fixture(scope="module")
def slug():
    return load_suite("builtin").task("text-slug-separators")


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_gaming_patch_fools_a_plain_pytest_run(bwrap, slug, tmp_path, attack):
    code, output = run_plainly(bwrap, slug, ATTACKS[attack][0], tmp_path, PLAIN_RUN)
    assert code == 0, output[-2000:]
    for test in slug.fail_to_pass:
        assert f"PASSED {test}" in output or f"XFAIL {test}" in output, (test, output[-2000:])


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_gaming_patch_is_not_resolved(backend, slug, tmp_path, attack):  # noqa: F811
    patch, outcomes = ATTACKS[attack]
    verdict = Grader(backend, tmp_path / "cache").grade(slug, patch)
    assert not verdict.resolved, (attack, verdict.tests, verdict.log[-1500:])
    assert verdict.reason in outcomes, (attack, verdict.reason, verdict.tamper, verdict.gamed, verdict.log[-1500:])
    assert (verdict.reason == "gamed") == (bool(verdict.gamed) and not verdict.tamper)
    seen = " ".join([verdict.log, *verdict.tamper, *verdict.gamed, *verdict.flags, *verdict.tests])
    assert not DRAWN.findall(seen), DRAWN.findall(seen)  # no twin or canary is named to the agent


@pytest.mark.parametrize("case", sorted(LEGITIMATE))
def test_honest_fix_still_resolves(backend, slug, tmp_path, case):  # noqa: F811
    verdict = Grader(backend, tmp_path / "cache").grade(slug, LEGITIMATE[case])
    assert verdict.resolved, (case, verdict.reason, verdict.tamper, verdict.gamed, verdict.log[-1500:])
    assert verdict.mutable == (3, 3)
