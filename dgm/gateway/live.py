"""What the gateway is doing now, to show while a run goes (its progress line and panel):
per job, the calls it has finished and what they cost, and its calls in flight (how long
each has run, the prompt tokens counted before it was sent); for the run, the tokens
charged and those its calls in flight have counted so far. Read from the ledger's accounts
(the holds admission keeps), never kept apart from them; reading changes nothing.

An upstream that can tell how far its calls in flight have got (the embedded model, which
decodes them here) may offer `decoded_tokens()`: the completion tokens decoded so far by
all the calls it is answering, None when it cannot tell. It is counted in the run's tokens
in flight, and given to a call when that call is the only one in flight."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass

from .ledger import Account, Hold, Ledger, Usage

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CallLive:
    """One call in flight."""

    age_s: float
    prompt: int  # tokens counted before it was sent
    cap: int  # the most completion tokens it may use
    decoded: int | None = None  # completion tokens decoded so far, where the upstream tells

    @property
    def tokens(self) -> int:
        return self.prompt + (self.decoded or 0)


@dataclass(frozen=True)
class JobLive:
    """One job's model use so far."""

    job_id: int | None
    calls: int  # finished calls
    spent: Usage  # what they were charged
    in_flight: tuple[CallLive, ...]
    waiting: int  # calls waiting to be admitted (for the holds of others to end)

    @property
    def tokens_in_flight(self) -> int:
        return sum(c.tokens for c in self.in_flight)


@dataclass(frozen=True)
class RunLive:
    """The run's model use so far, calls in flight included."""

    spent: Usage
    calls_in_flight: int
    tokens_in_flight: int  # counted prompts of the calls in flight, with what they decoded where told
    jobs: dict[int | None, JobLive]


def decoded_tokens(upstream: object) -> int | None:
    """What the upstream says its calls in flight have decoded so far (None: it cannot tell)."""
    ask = getattr(upstream, "decoded_tokens", None)
    if ask is None:
        return None
    try:
        value = ask()
    except (OSError, ValueError) as exc:  # a figure to show, not worth failing a run for
        log.debug("the upstream could not say how far its calls have got: %s", exc)
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _call(hold: Hold, now: float, decoded: int | None) -> CallLive:
    return CallLive(round(max(now - hold.since, 0.0), 1), hold.prompt, hold.completion, decoded)


def _job(job_id: int | None, account: Account, now: float, decoded: int | None) -> JobLive:
    calls = tuple(_call(h, now, decoded) for h in account.holds)
    return JobLive(job_id, account.calls, account.spent, calls, max(account.in_flight - len(calls), 0))


def read_live(ledger: Ledger, upstream: object, job_ids: Iterable[int | None]) -> RunLive:
    """The run's figures now, and those of the jobs `job_ids` (the ones the ledger knows)."""
    now, holds = time.monotonic(), ledger.holds()
    decoded = decoded_tokens(upstream) if holds else None
    alone = decoded if len(holds) == 1 else None  # a figure for all calls is one call's only when it is alone
    jobs = {j: _job(j, a, now, alone) for j, a in ledger.accounts(job_ids).items()}
    in_flight = sum(h.prompt for h in holds) + (decoded or 0)
    return RunLive(ledger.spent(), len(holds), in_flight, jobs)
