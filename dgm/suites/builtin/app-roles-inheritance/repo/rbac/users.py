"""Portal users as seen by the access checks."""

from dataclasses import dataclass


@dataclass(frozen=True)
class User:
    name: str
    roles: tuple[str, ...] = ()
