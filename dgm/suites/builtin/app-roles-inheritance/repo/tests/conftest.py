import pytest

from rbac import Policy, load_roles

CONFIG = {
    "roles": {
        "viewer": {"permissions": ["documents:read", "comments:read"]},
        "commenter": {"permissions": ["comments:write"], "inherits": ["viewer"]},
        "auditor": {"permissions": ["reports:*"]},
        "root": {"permissions": ["*"]},
    }
}


@pytest.fixture
def policy():
    return Policy(load_roles(CONFIG))
