import itertools

import pytest

from accounts import AccountService, UserStore
from accounts.hashing import PasswordHasher


@pytest.fixture
def service():
    counter = itertools.count()
    hasher = PasswordHasher(lambda: next(counter).to_bytes(16, "big"))
    return AccountService(UserStore(), hasher)
