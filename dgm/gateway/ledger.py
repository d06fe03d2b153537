"""Tokens and dollars spent and held, for the run and for each job.

Admitting a call holds its counted prompt and its clamped completion against the job's and
the run's budgets at once, so the calls in flight together never promise more than is
left: a prompt that alone does not fit is refused before it is sent, and the completion is
cut to what remains (in tokens, and in dollars at the completion price). Settling replaces
the hold by the charge. So no budget is overshot unless an upstream reports more than it
was allowed (a prompt it counts higher than the gateway did, or a completion past the cap)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from .errors import BudgetRefused, GatewayError
from .policy import Budget
from .pricing import Price


@dataclass
class Account:
    spent: list = field(default_factory=lambda: [0, 0.0])  # tokens, dollars charged
    held: list = field(default_factory=lambda: [0, 0.0])  # tokens, dollars of calls in flight
    in_flight: int = 0


@dataclass(frozen=True)
class Hold:
    job_id: int | None
    prompt: int  # tokens counted before sending
    completion: int  # the clamp: the most completion tokens the call may use
    usd: float


class Ledger:
    def __init__(self, run_budget: Budget, run_spent: tuple[int, float], job_concurrency: int):
        self.run_budget, self.job_concurrency = run_budget, job_concurrency
        self.run = Account(spent=list(run_spent))
        self.jobs: dict[int | None, Account] = {}
        self.lock = threading.Lock()

    def add_job(self, job_id: int | None, spent: tuple[int, float]) -> None:
        with self.lock:
            self.jobs.setdefault(job_id, Account(spent=list(spent)))

    def spent(self, job_id: int | None = None, run: bool = True) -> tuple[int, float]:
        with self.lock:
            account = self.run if run else self.jobs.get(job_id, Account())
            return int(account.spent[0]), float(account.spent[1])

    def admit(self, job_id: int | None, job_budget: Budget, prompt: int, cap: int, price: Price) -> Hold:
        """Hold a call of `prompt` tokens and at most `cap` completion tokens, cut to what the
        budgets leave; raise BudgetRefused when they cannot pay for it, 429 past the concurrency cap."""
        with self.lock:
            job = self.jobs.setdefault(job_id, Account())
            if job.in_flight >= self.job_concurrency:
                raise GatewayError(
                    429,
                    "too_many_requests",
                    f"dgm gateway: this job already has {job.in_flight} model calls in flight, the most it may "
                    "have; wait for one to finish",
                )
            completion = cap
            for scope, budget, account in (("job", job_budget, job), ("run", self.run_budget, self.run)):
                completion = _fit(scope, budget, account, prompt, completion, cap, price)
            hold = Hold(job_id, prompt, completion, price.cost(prompt, completion))
            for account in (job, self.run):
                account.held[0] += prompt + completion
                account.held[1] += hold.usd
            job.in_flight += 1
            return hold

    def settle(self, hold: Hold, tokens: int, usd: float) -> None:
        """The call is over: drop its hold, charge what it cost."""
        with self.lock:
            job = self.jobs[hold.job_id]
            for account in (job, self.run):
                account.held[0] -= hold.prompt + hold.completion
                account.held[1] -= hold.usd
                account.spent[0] += tokens
                account.spent[1] += usd
            job.in_flight -= 1


def _fit(scope: str, budget: Budget, account: Account, prompt: int, completion: int, cap: int, price: Price) -> int:
    """The completion cut to what `budget` leaves after `account`'s spent and held use."""
    spent_limit = budget.exceeded(int(account.spent[0]), account.spent[1])
    if spent_limit is not None:
        raise BudgetRefused(
            scope,
            spent_limit,
            f"dgm gateway: the {scope}'s budget of {spent_limit} is spent "
            f"({int(account.spent[0])} tokens, ${account.spent[1]:.4f} used); no more model calls",
            final=True,
        )
    rooms = []  # (limit, what is left, completion tokens it pays for or None, whether it is used up)
    if budget.tokens is not None:
        left = budget.tokens - account.spent[0] - account.held[0]
        rooms.append((f"{budget.tokens} tokens", f"{max(left, 0)} tokens", left - prompt, left < 2 * cap))
    if budget.usd is not None:
        left_usd = budget.usd - account.spent[1] - account.held[1]
        after = left_usd - price.cost(prompt, 0)
        room = price.completion_tokens_for(after) if after > 0 else 0
        rooms.append((f"${budget.usd:g}", f"${max(left_usd, 0):.6f}", room, left_usd < price.cost(cap, cap)))
    for limit, left_text, room, used_up in rooms:
        if room is None:
            continue
        if room < 1:
            raise BudgetRefused(
                scope,
                limit,
                f"dgm gateway: this request's prompt ({prompt} tokens) does not fit what is left of the "
                f"{scope}'s budget of {limit}: {left_text} (counting calls in flight); no call made",
                final=used_up,
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
