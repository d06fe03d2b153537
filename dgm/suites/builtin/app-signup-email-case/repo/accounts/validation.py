"""Form validation rules."""

import re

from .errors import InvalidEmail, WeakPassword

_EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
MIN_PASSWORD_LENGTH = 10


def validate_email(email: str) -> None:
    if not _EMAIL.match(email) or ".." in email:
        raise InvalidEmail(f"{email!r} is not a valid e-mail address")


def validate_password(password: str) -> None:
    """At least MIN_PASSWORD_LENGTH characters with at least one letter and one digit."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise WeakPassword(f"password must have at least {MIN_PASSWORD_LENGTH} characters")
    if not any(c.isalpha() for c in password) or not any(c.isdigit() for c in password):
        raise WeakPassword("password must contain letters and digits")
