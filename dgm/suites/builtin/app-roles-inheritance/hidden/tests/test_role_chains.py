import pytest

from rbac import Policy, UnknownRole, User, load_roles

CONFIG = {
    "roles": {
        "viewer": {"permissions": ["documents:read", "comments:read"]},
        "editor": {"permissions": ["documents:write"], "inherits": ["viewer"]},
        "admin": {"permissions": ["users:manage"], "inherits": ["editor"]},
        "owner": {"permissions": ["billing:*"], "inherits": ["admin"]},
        "auditor": {"permissions": ["reports:*"]},
        "support": {"permissions": ["tickets:read"], "inherits": ["ops"]},
        "ops": {"permissions": ["servers:restart"], "inherits": ["support", "auditor"]},
        "lead": {"permissions": [], "inherits": ["editor", "auditor"]},
    }
}


@pytest.fixture
def policy():
    return Policy(load_roles(CONFIG))


def test_permissions_flow_through_a_chain(policy):
    admin = User("ada", ("admin",))
    assert policy.allowed(admin, "users:manage")
    assert policy.allowed(admin, "documents:write")
    assert policy.allowed(admin, "documents:read")
    assert policy.allowed(admin, "comments:read")
    assert not policy.allowed(admin, "billing:pay")


def test_long_chain_and_wildcards(policy):
    owner = User("olga", ("owner",))
    assert policy.allowed(owner, "billing:refund")
    assert policy.allowed(owner, "comments:read")
    assert policy.permissions(owner) == {
        "billing:*", "users:manage", "documents:write", "documents:read", "comments:read"}


def test_roles_inheriting_each_other(policy):
    sup = User("sam", ("support",))
    assert policy.allowed(sup, "servers:restart")
    assert policy.allowed(sup, "reports:export")       # support -> ops -> auditor
    assert policy.allowed(User("oli", ("ops",)), "tickets:read")
    assert policy.permissions(sup) == {"tickets:read", "servers:restart", "reports:*"}
    assert not policy.allowed(sup, "documents:read")


def test_explain_names_the_users_role_for_inherited_grants(policy):
    assert policy.explain(User("ada", ("admin",)), "documents:read") == "admin"
    assert policy.explain(User("sam", ("support",)), "reports:view") == "support"
    assert policy.explain(User("lee", ("auditor", "owner")), "comments:read") == "owner"
    assert policy.explain(User("lee", ("auditor", "owner")), "servers:restart") is None


def test_explain_and_direct_grants_unchanged(policy):
    user = User("mix", ("viewer", "auditor"))
    assert policy.explain(user, "reports:view") == "auditor"
    assert policy.explain(user, "documents:read") == "viewer"
    assert policy.explain(User("vi", ("viewer",)), "documents:write") is None
    assert policy.allowed(User("lead", ("lead",)), "documents:write")
    assert not policy.allowed(User("vi", ("viewer",)), "documents:write")


def test_unknown_parent_still_rejected():
    with pytest.raises(UnknownRole):
        load_roles({"roles": {"a": {"inherits": ["b"]}, "b": {"inherits": ["ghost"]}}})
