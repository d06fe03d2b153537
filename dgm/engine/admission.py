"""Admission rules: which valid agents may become parents (`--admission`).

    any                         every valid agent (DGM, HGM).
    preserve_extend[:TOLERANCE] DarwinX's preserve-and-extend contract: on the tasks both a
                                child and its parent were evaluated on, the child resolves
                                everything the parent resolved (up to TOLERANCE regressions,
                                default 0) and at least one task more.

A rule only reads the view (each node's evaluated and resolved tasks), so its verdict
follows the evidence: a child that has not yet shown an extension is not admitted yet, and
one more evaluation can admit it or refuse it. The root (the seed) has no parent to match
and is always admitted. Children that are not admitted stay in the archive; `dgm show`
says why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

if TYPE_CHECKING:
    from .view import NodeStats


class Admission(Protocol):
    name: ClassVar[str]
    summary: ClassVar[str]  # one line for --help

    @classmethod
    def from_arg(cls, arg: str) -> Admission:
        """The rule with its argument (the part of the spec after ':', or '')."""

    def refusal(self, node: NodeStats, parent: NodeStats | None) -> str | None:
        """Why `node` may not be a parent (None: it may)."""


@dataclass(frozen=True)
class AdmitAny:
    name: ClassVar[str] = "any"
    summary: ClassVar[str] = "every valid agent may be a parent (DGM, HGM)"

    @classmethod
    def from_arg(cls, arg: str) -> AdmitAny:
        if arg:
            raise AdmissionError(f"admission 'any:{arg}': 'any' takes no argument")
        return cls()

    def refusal(self, node: NodeStats, parent: NodeStats | None) -> str | None:
        return None


@dataclass(frozen=True)
class PreserveExtend:
    name: ClassVar[str] = "preserve_extend"
    summary: ClassVar[str] = (
        "a child is a parent only once it keeps what its parent resolved (up to :TOLERANCE regressions) "
        "and resolves one task more, on the tasks both were evaluated on (DarwinX)"
    )
    tolerance: int = 0

    @classmethod
    def from_arg(cls, arg: str) -> PreserveExtend:
        tolerance = int(arg) if arg.isdigit() else 0 if not arg else -1
        if tolerance < 0:
            raise AdmissionError(f"admission 'preserve_extend:{arg}': the tolerance must be a whole number, 0 or more")
        return cls(tolerance)

    def refusal(self, node: NodeStats, parent: NodeStats | None) -> str | None:
        if parent is None:
            return None
        shared = node.evaluated & parent.evaluated
        lost = sorted((parent.resolved & shared) - node.resolved)
        gained = (node.resolved & shared) - parent.resolved
        if len(lost) > self.tolerance:
            return (
                f"preserve_extend: it fails {len(lost)} task(s) its parent {parent.id} resolved "
                f"({', '.join(lost[:5])}{', ...' if len(lost) > 5 else ''}); tolerance {self.tolerance}"
            )
        if not gained:
            return (
                f"preserve_extend: on the {len(shared)} task(s) both were evaluated on it resolves nothing "
                f"its parent {parent.id} did not (yet)"
            )
        return None


ADMISSIONS: dict[str, type] = {cls.name: cls for cls in (AdmitAny, PreserveExtend)}
ANY = AdmitAny()  # the default rule


class AdmissionError(ValueError):
    """An --admission value that names no rule, or a bad tolerance."""


def make_admission(spec: str) -> Admission:
    """`any`, `preserve_extend` or `preserve_extend:TOLERANCE`."""
    name, _, arg = spec.partition(":")
    if name not in ADMISSIONS:
        raise AdmissionError(f"admission {spec!r}: no such rule; the rules are {', '.join(ADMISSIONS)}")
    return ADMISSIONS[name].from_arg(arg)
