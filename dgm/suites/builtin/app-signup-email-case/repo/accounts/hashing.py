"""Password hashing (PBKDF2). The salt source is injected so tests stay deterministic."""

import hashlib
import hmac
from typing import Callable

ITERATIONS = 1_000


class PasswordHasher:
    def __init__(self, salt_factory: Callable[[], bytes]):
        self._salt_factory = salt_factory

    def hash(self, password: str) -> str:
        salt = self._salt_factory()
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, ITERATIONS)
        return f"{salt.hex()}${digest.hex()}"

    def verify(self, password: str, stored: str) -> bool:
        salt_hex, digest_hex = stored.split("$")
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt_hex), ITERATIONS)
        return hmac.compare_digest(digest.hex(), digest_hex)
