"""Errors shown to the user by the sign-up and login forms."""


class RegistrationError(ValueError):
    pass


class InvalidEmail(RegistrationError):
    pass


class WeakPassword(RegistrationError):
    pass


class DuplicateEmail(RegistrationError):
    pass


class AuthenticationFailed(Exception):
    pass
