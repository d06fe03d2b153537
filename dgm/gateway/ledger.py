"""Tokens and dollars spent and held, for the run and for each job.

Admitting a call holds its counted prompt and its clamped completion against the job's and
the run's budgets at once, so the calls in flight together never promise more than is
left: a prompt that alone does not fit is refused before it is sent, and the completion is
cut to what remains (in tokens, and in dollars at the completion price). Settling replaces
the hold by the charge. So no budget is overshot unless an upstream reports more than it
was allowed (a prompt it counts higher than the gateway did, or a completion past the cap).
A call that only the holds of calls in flight would refuse or cut waits for them to end
(they usually use far less than they hold), so near the end of a budget calls take turns."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .errors import BudgetRefused, GatewayError
from .policy import Budget
from .pricing import Price


@dataclass(frozen=True)
class Usage:
    """Tokens and dollars, spent or held."""

    tokens: int = 0
    usd: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.tokens + other.tokens, self.usd + other.usd)

    def __sub__(self, other: Usage) -> Usage:
        return Usage(self.tokens - other.tokens, self.usd - other.usd)


@dataclass
class Account:
    spent: Usage = Usage()  # charged
    held: Usage = Usage()  # promised to calls in flight
    in_flight: int = 0  # calls admitted or waiting to be
    calls: int = 0  # calls finished (charged)
    holds: list[Hold] = field(default_factory=list)  # the admitted calls in flight (a job's account only)


@dataclass(frozen=True)
class Hold:
    job_id: int | None
    prompt: int  # tokens counted before sending
    completion: int  # the clamp: the most completion tokens the call may use
    usd: float
    since: float = 0.0  # when it was admitted (monotonic seconds)

    @property
    def usage(self) -> Usage:
        """What the call holds while in flight."""
        return Usage(self.prompt + self.completion, self.usd)


class Ledger:
    def __init__(self, run_budget: Budget, run_spent: tuple[int, float], job_concurrency: int):
        self.run_budget, self.job_concurrency = run_budget, job_concurrency
        self.run = Account(spent=Usage(*run_spent))
        self.jobs: dict[int | None, Account] = {}
        self.settled = threading.Condition()  # guards everything here; notified when a hold ends

    def add_job(self, job_id: int | None, spent: tuple[int, float], calls: int = 0) -> None:
        """A job's account, opened with what its `calls` of earlier sessions cost (`spent`)."""
        with self.settled:
            self.jobs.setdefault(job_id, Account(spent=Usage(*spent), calls=calls))

    def spent(self, job_id: int | None = None, run: bool = True) -> Usage:
        with self.settled:
            account = self.run if run else self.jobs.get(job_id, Account())
            return Usage(int(account.spent.tokens), float(account.spent.usd))

    def admit(self, job_id: int | None, job_budget: Budget, prompt: int, cap: int, price: Price, wait_s: float) -> Hold:
        """Hold a call of `prompt` tokens and at most `cap` completion tokens, cut to what the
        budgets leave. A call that the holds of calls in flight would keep out or cut waits
        (up to `wait_s`) for them to end; one the budgets cannot pay for raises BudgetRefused;
        a job past its concurrency cap (waiting calls count) gets 429."""
        deadline = time.monotonic() + wait_s
        with self.settled:
            job = self.jobs.setdefault(job_id, Account())
            if job.in_flight >= self.job_concurrency:
                raise GatewayError(
                    429,
                    "too_many_requests",
                    f"dgm gateway: this job already has {job.in_flight} model calls in flight, the most it may "
                    "have; wait for one to finish",
                )
            job.in_flight += 1
            while True:
                left_s = deadline - time.monotonic()
                try:
                    completion = cap
                    for scope, budget, account in (("job", job_budget, job), ("run", self.run_budget, self.run)):
                        completion = _fit(scope, budget, account, prompt, completion, cap, price, left_s > 0)
                    break
                except BudgetRefused as exc:
                    if not exc.wait or left_s <= 0:
                        job.in_flight -= 1
                        raise
                    self.settled.wait(left_s)
            hold = Hold(job_id, prompt, completion, price.cost(prompt, completion), time.monotonic())
            for account in (job, self.run):
                account.held += hold.usage
            job.holds.append(hold)
            return hold

    def settle(self, hold: Hold, tokens: int, usd: float) -> None:
        """The call is over: drop its hold, charge what it cost."""
        with self.settled:
            job = self.jobs[hold.job_id]
            for account in (job, self.run):
                account.held -= hold.usage
                account.spent += Usage(tokens, usd)
            job.in_flight -= 1
            job.calls += 1
            job.holds = [h for h in job.holds if h is not hold]
            self.settled.notify_all()

    def accounts(self, job_ids: Iterable[int | None]) -> dict[int | None, Account]:
        """Copies of these jobs' accounts as they are now (those it has), to read."""
        with self.settled:
            return {j: replace(self.jobs[j], holds=list(self.jobs[j].holds)) for j in job_ids if j in self.jobs}

    def holds(self) -> list[Hold]:
        """Every call admitted and not yet settled, of every job."""
        with self.settled:
            return [hold for account in self.jobs.values() for hold in account.holds]


def _rooms(budget: Budget, spent: Usage, held: Usage, prompt: int, price: Price) -> list[tuple[str, str, int | None]]:
    """For each limit of `budget`: its name, what is left, and how many completion tokens that
    pays for after the prompt (None: any number; below 1: the prompt does not fit)."""
    rooms = []
    if budget.tokens is not None:
        left = budget.tokens - spent.tokens - held.tokens
        rooms.append((f"{budget.tokens} tokens", f"{max(left, 0)} tokens", left - prompt))
    if budget.usd is not None:
        left_usd = budget.usd - spent.usd - held.usd
        after = left_usd - price.cost(prompt, 0)
        rooms.append(
            (f"${budget.usd:g}", f"${max(left_usd, 0):.6f}", price.completion_tokens_for(after) if after > 0 else 0)
        )
    return rooms


def _fit(
    scope: str, budget: Budget, account: Account, prompt: int, completion: int, cap: int, price: Price, patient: bool
) -> int:
    """The completion cut to what `budget` leaves after `account`'s spent and held use;
    `patient`: rather than cut it because of calls in flight, raise (wait=True) to wait for them."""
    spent_limit = budget.exceeded(int(account.spent.tokens), account.spent.usd)
    if spent_limit is not None:
        raise BudgetRefused(
            scope,
            spent_limit,
            f"dgm gateway: the {scope}'s budget of {spent_limit} is spent "
            f"({int(account.spent.tokens)} tokens, ${account.spent.usd:.4f} used); no more model calls",
            final=True,
        )
    now = _rooms(budget, account.spent, account.held, prompt, price)
    alone = _rooms(budget, account.spent, Usage(), prompt, price)  # were no calls in flight
    for (limit, left, room), (_, _, room_alone) in zip(now, alone, strict=True):
        if room is None:
            continue
        held_back = room_alone is None or room_alone > room  # calls in flight are what cut this one
        if room < 1 or (patient and held_back and room < completion):
            used_up = (budget.tokens is not None and budget.tokens - account.spent.tokens < 2 * cap) or (
                budget.usd is not None and budget.usd - account.spent.usd < price.cost(cap, cap)
            )
            raise BudgetRefused(
                scope,
                limit,
                f"dgm gateway: this request's prompt ({prompt} tokens) does not fit what is left of the "
                f"{scope}'s budget of {limit}: {left} (counting calls in flight); no call made",
                final=used_up and not held_back,
                wait=held_back,
            )
        completion = min(completion, room)
    return completion


def charge(usage: dict, hold: Hold, exact: bool) -> tuple[int, int]:
    """The (prompt, completion) tokens a finished call is charged. The upstream's report,
    except: a figure it leaves out or reports as 0 is the gateway's own (the counted
    prompt, the clamp: the most the call could have used), and where the model has a
    tokenizer the prompt is never charged below its count. (The conservative estimate is an
    upper bound, not a count, so it only stands in for a missing figure.)"""
    prompt, completion = _reported(usage.get("prompt_tokens")), _reported(usage.get("completion_tokens"))
    return (max(prompt, hold.prompt) if exact else prompt or hold.prompt), completion or hold.completion


def _reported(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0 or value == float("inf"):
        return 0
    return int(value)
