"""Loading the role definitions from the portal's configuration (already parsed from JSON)."""

from .roles import Role, RoleRegistry, UnknownRole


def load_roles(config: dict) -> RoleRegistry:
    """`config` looks like {"roles": {"editor": {"permissions": [...], "inherits": ["viewer"]}}}.

    Raises UnknownRole when a role inherits a role that is not defined.
    """
    registry = RoleRegistry()
    definitions = config.get("roles", {})
    for name, spec in definitions.items():
        registry.add(Role(name, frozenset(spec.get("permissions", [])), tuple(spec.get("inherits", []))))
    for name, spec in definitions.items():
        for parent in spec.get("inherits", []):
            if parent not in definitions:
                raise UnknownRole(f"{name} inherits unknown role {parent}")
    return registry
