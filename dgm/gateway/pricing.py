"""What a model call costs: dollars per million prompt and completion tokens.

A model's price is, first match wins: the user's override (`--price MODEL=IN,OUT`, the
`[prices]` table of dgm.toml); zero when the upstream is free (the embedded model, the
SCRIPTED test double, replay: a class property, `free = True`); the maintained table of
the `genai-prices` package. That table ships inside the package and is read as shipped:
dgm never starts its auto-update, so nothing is fetched at run time. Where the table has
tiers (a higher rate past some prompt size), the highest tier's rate is taken."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

MILLION = 1_000_000


@dataclass(frozen=True)
class Price:
    prompt: float  # dollars per million prompt tokens
    completion: float  # dollars per million completion tokens
    source: str  # where the figures come from, for messages

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt + completion_tokens * self.completion) / MILLION

    def completion_tokens_for(self, usd: float) -> int | None:
        """How many completion tokens `usd` pays for (None: any number, they are free)."""
        if self.completion <= 0:
            return None
        return max(int(usd * MILLION / self.completion), 0)


@functools.cache
def table_price(model: str) -> Price | None:
    """The genai-prices figure for `model` (provider found from the name), or None."""
    from genai_prices import Usage, calc_price

    try:
        # A million of each prices the whole call at the highest tier: never too cheap.
        calc = calc_price(Usage(input_tokens=MILLION, output_tokens=MILLION), model)
    except LookupError:
        return None
    return Price(float(calc.input_price), float(calc.output_price), f"genai-prices ({calc.provider.id})")


@dataclass(frozen=True)
class Prices:
    """The run's price list: `per_million` overrides (model -> (prompt, completion) dollars
    per million tokens), then free upstreams, then the maintained table (unless `table` is off)."""

    per_million: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    table: bool = True

    def price(self, model: str, free: bool = False) -> Price | None:
        """`model`'s price, or None when nobody knows it; `free`: the upstream costs nothing."""
        if model in self.per_million:
            prompt, completion = self.per_million[model]
            return Price(float(prompt), float(completion), "--price")
        if free:
            return Price(0.0, 0.0, "free upstream")
        return table_price(model) if self.table else None

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int, free: bool = False) -> float:
        """Dollars for a call; an unknown price counts 0 (a dollar budget refuses to start on one)."""
        price = self.price(model, free)
        return price.cost(prompt_tokens, completion_tokens) if price else 0.0
