"""Role-based access control for the document portal."""

from .config import load_roles
from .policy import Policy
from .roles import Role, RoleRegistry, UnknownRole
from .users import User

__all__ = ["Policy", "Role", "RoleRegistry", "UnknownRole", "User", "load_roles"]
