"""Roles and the registry that knows them.

A role grants a set of permissions ("documents:read", "reports:*", ...) and can inherit other
roles: it then also grants everything those roles grant.
"""

from dataclasses import dataclass


class UnknownRole(KeyError):
    pass


@dataclass(frozen=True)
class Role:
    name: str
    permissions: frozenset[str]
    inherits: tuple[str, ...] = ()


class RoleRegistry:
    def __init__(self):
        self._roles: dict[str, Role] = {}

    def add(self, role: Role) -> None:
        if role.name in self._roles:
            raise ValueError(f"role {role.name!r} defined twice")
        self._roles[role.name] = role

    def get(self, name: str) -> Role:
        try:
            return self._roles[name]
        except KeyError:
            raise UnknownRole(name) from None

    def names(self) -> list[str]:
        return sorted(self._roles)

    def permissions_of(self, name: str) -> frozenset[str]:
        """Everything role `name` grants, including what it gets from the roles it inherits."""
        role = self.get(name)
        granted = set(role.permissions)
        for parent in role.inherits:
            granted |= self.get(parent).permissions
        return frozenset(granted)
