"""In-memory user store (the production one wraps the same interface around the database)."""

from dataclasses import dataclass


@dataclass
class User:
    user_id: int
    email: str
    display_name: str
    password_hash: str


class UserStore:
    def __init__(self):
        self._by_email: dict[str, User] = {}

    def add(self, user: User) -> None:
        self._by_email[user.email] = user

    def get(self, email: str) -> User | None:
        return self._by_email.get(email)

    def __len__(self) -> int:
        return len(self._by_email)

    def all(self) -> list[User]:
        return sorted(self._by_email.values(), key=lambda u: u.user_id)
