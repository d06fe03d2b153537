"""Utilities: what one recorded evaluation is worth to the search, in [0, 1].

    tests          the hidden tests: 1 when the task was resolved, else 0 (DGM, HGM).
    judge          the judge's score of the patch (a code review against a fixed rubric).
    tests+judge:W  (1 - W) * tests + W * judge, W in [0, 1] (RQGM's complementary signal).

Selectors, CMP's clade statistics and the final rules read utility sums: a node's
"successes" are the sum of its evaluations' utilities and its "failures" the sum of the
rest, so Beta posteriors and Wilson bounds work unchanged (under `tests` they are the
resolved and unresolved counts, as before). `resolved` itself never changes: a judge's score
is its own kind of result. An evaluation with no judgement recorded (made before a judge
ran, or whose judge call failed) counts its tests outcome for the judge term.

Epochs (`--epochs N:U1,U2,...`): the run is cut into spans of N evaluations; epoch k uses
the k-th utility of the schedule (the last one from then on). The utility changes only at
a boundary, which the archive records (`epochs`); the statistics are then recomputed from
what is recorded, nothing is re-run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol


class UtilityError(Exception):
    """A utility or epoch schedule that cannot be used; the message says why."""


class Utility(Protocol):
    name: ClassVar[str]
    usage: ClassVar[str]
    summary: ClassVar[str]
    uses_judge: ClassVar[bool]

    @classmethod
    def from_arg(cls, arg: str) -> Utility:
        """The utility with its argument (the part of the spec after ':', or '')."""

    @property
    def spec(self) -> str:
        """The spec that makes this utility again."""

    def value(self, resolved: bool, judge: float | None) -> float:
        """One evaluation's worth, in [0, 1]."""


class _NoArgument:
    """A utility that takes no argument: its spec is its name."""

    name: ClassVar[str]

    @classmethod
    def from_arg(cls, arg: str):
        if arg:
            raise UtilityError(f"utility '{cls.name}:{arg}': '{cls.name}' takes no argument")
        return cls()

    @property
    def spec(self) -> str:
        return self.name


@dataclass(frozen=True)
class Tests(_NoArgument):
    name: ClassVar[str] = "tests"
    usage: ClassVar[str] = "tests"
    summary: ClassVar[str] = "1 when the hidden tests pass, else 0 (DGM, HGM)"
    uses_judge: ClassVar[bool] = False

    def value(self, resolved: bool, judge: float | None) -> float:
        return 1.0 if resolved else 0.0


@dataclass(frozen=True)
class Judge(_NoArgument):
    name: ClassVar[str] = "judge"
    usage: ClassVar[str] = "judge"
    summary: ClassVar[str] = "the judge's score of the patch, in [0, 1] (the tests outcome where none is recorded)"
    uses_judge: ClassVar[bool] = True

    def value(self, resolved: bool, judge: float | None) -> float:
        return (1.0 if resolved else 0.0) if judge is None else judge


@dataclass(frozen=True)
class TestsAndJudge:
    name: ClassVar[str] = "tests+judge"
    usage: ClassVar[str] = "tests+judge:W"
    summary: ClassVar[str] = "(1 - W) x tests + W x judge, W in [0, 1] (RQGM)"
    uses_judge: ClassVar[bool] = True
    weight: float = 0.5

    @classmethod
    def from_arg(cls, arg: str) -> TestsAndJudge:
        try:
            weight = float(arg) if arg else 0.5
        except ValueError:
            weight = -1.0
        if not 0.0 <= weight <= 1.0:
            raise UtilityError(f"utility 'tests+judge:{arg}': the judge's weight W must be a number in [0, 1]")
        return cls(weight)

    @property
    def spec(self) -> str:
        return f"{self.name}:{self.weight:g}"

    def value(self, resolved: bool, judge: float | None) -> float:
        tests = 1.0 if resolved else 0.0
        return (1 - self.weight) * tests + self.weight * (tests if judge is None else judge)


UTILITIES: dict[str, type[Utility]] = {cls.name: cls for cls in (Tests, Judge, TestsAndJudge)}
TESTS = Tests()


def make_utility(spec: str) -> Utility:
    name, _, arg = spec.strip().partition(":")
    if name not in UTILITIES:
        raise UtilityError(
            f"unknown utility {spec!r}; the utilities are {', '.join(c.usage for c in UTILITIES.values())}"
        )
    return UTILITIES[name].from_arg(arg)


@dataclass(frozen=True)
class Schedule:
    """Which utility holds after how many evaluations: epochs of `span` evaluations (None:
    one epoch for the whole run), the k-th under `utilities[k - 1]` (the last from then on)."""

    utilities: tuple[Utility, ...]
    span: int | None = None

    @classmethod
    def parse(cls, epochs: str | None, utility: str = "tests") -> Schedule:
        """`epochs` is N:U1,U2,... (or None: `utility` for the whole run)."""
        if not epochs:
            return cls((make_utility(utility),))
        span, _, utilities = epochs.partition(":")
        if not span.strip().isdigit() or int(span) < 1:
            raise UtilityError(f"epochs {epochs!r}: expected N:U1,U2,... with N, the evaluations per epoch, at least 1")
        specs = [u for u in utilities.split(",") if u.strip()] or [utility]
        return cls(tuple(make_utility(u) for u in specs), int(span))

    def epoch_at(self, evaluations: int) -> int:
        """The epoch (from 1) that the next evaluation belongs to, after `evaluations`."""
        return 1 if self.span is None else evaluations // self.span + 1

    def utility(self, epoch: int) -> Utility:
        return self.utilities[min(epoch, len(self.utilities)) - 1]

    def boundary(self, epoch: int) -> int:
        """Evaluations recorded before epoch `epoch` begins."""
        return 0 if self.span is None else (epoch - 1) * self.span

    @property
    def uses_judge(self) -> bool:
        return any(u.uses_judge for u in self.utilities)
