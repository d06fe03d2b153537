"""Access decisions for the portal."""

from .matching import matches
from .roles import RoleRegistry
from .users import User


class Policy:
    def __init__(self, registry: RoleRegistry):
        self.registry = registry

    def permissions(self, user: User) -> frozenset[str]:
        """All permission grants the user holds through any of their roles."""
        granted: set[str] = set()
        for role in user.roles:
            granted |= self.registry.permissions_of(role)
        return frozenset(granted)

    def allowed(self, user: User, permission: str) -> bool:
        return any(matches(grant, permission) for grant in self.permissions(user))

    def explain(self, user: User, permission: str) -> str | None:
        """For the audit log: the first of the user's roles that grants `permission`, or None."""
        for role_name in user.roles:
            role = self.registry.get(role_name)
            if any(matches(grant, permission) for grant in role.permissions):
                return role_name
        return None
