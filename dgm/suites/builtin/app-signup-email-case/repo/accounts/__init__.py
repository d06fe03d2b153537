"""User sign-up and login for the members area."""

from .errors import AuthenticationFailed, DuplicateEmail, InvalidEmail, WeakPassword
from .service import AccountService
from .store import UserStore

__all__ = ["AccountService", "AuthenticationFailed", "DuplicateEmail", "InvalidEmail", "UserStore", "WeakPassword"]
