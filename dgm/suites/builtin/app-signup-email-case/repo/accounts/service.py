"""Registration and login."""

from .errors import AuthenticationFailed, DuplicateEmail
from .hashing import PasswordHasher
from .store import User, UserStore
from .validation import validate_email, validate_password


class AccountService:
    def __init__(self, store: UserStore, hasher: PasswordHasher):
        self.store = store
        self.hasher = hasher

    def register(self, email: str, password: str, display_name: str = "") -> User:
        """Create an account. Raises InvalidEmail, WeakPassword or DuplicateEmail."""
        validate_email(email)
        validate_password(password)
        if self.store.get(email) is not None:
            raise DuplicateEmail(f"an account already exists for {email}")
        user = User(
            user_id=len(self.store) + 1,
            email=email,
            display_name=display_name.strip() or email.split("@")[0],
            password_hash=self.hasher.hash(password),
        )
        self.store.add(user)
        return user

    def login(self, email: str, password: str) -> User:
        user = self.store.get(email)
        if user is None or not self.hasher.verify(password, user.password_hash):
            raise AuthenticationFailed("wrong e-mail or password")
        return user

    def find(self, email: str) -> User | None:
        return self.store.get(email)
