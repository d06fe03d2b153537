"""Which status changes are allowed. Anything not listed here is refused."""

from .models import OrderStatus as S

ALLOWED: dict[S, frozenset[S]] = {
    S.PENDING: frozenset({S.PAID, S.CANCELLED}),
    S.PAID: frozenset({S.SHIPPED, S.CANCELLED}),
    S.SHIPPED: frozenset({S.DELIVERED}),
    S.DELIVERED: frozenset({S.REFUNDED}),
    S.CANCELLED: frozenset(),
    S.REFUNDED: frozenset(),
}


class IllegalTransition(Exception):
    def __init__(self, current: S, target: S):
        super().__init__(f"cannot go from {current.value} to {target.value}")
        self.current = current
        self.target = target


def check(current: S, target: S) -> None:
    """Raise IllegalTransition unless `current` -> `target` is allowed."""
    if target not in ALLOWED[current]:
        raise IllegalTransition(current, target)
