import pytest

from rbac import Policy, UnknownRole, User, load_roles
from rbac.matching import matches


def test_direct_permission(policy):
    assert policy.allowed(User("vi", ("viewer",)), "documents:read")
    assert not policy.allowed(User("vi", ("viewer",)), "documents:write")


def test_inherited_permission(policy):
    user = User("cam", ("commenter",))
    assert policy.allowed(user, "comments:write")
    assert policy.allowed(user, "documents:read")


def test_wildcards(policy):
    assert policy.allowed(User("aud", ("auditor",)), "reports:export")
    assert not policy.allowed(User("aud", ("auditor",)), "documents:read")
    assert policy.allowed(User("boss", ("root",)), "anything:at-all")


def test_matching_rules():
    assert matches("documents:*", "documents:delete")
    assert not matches("documents:*", "doc:read")
    assert not matches("documents:read", "documents:write")


def test_user_without_roles(policy):
    assert not policy.allowed(User("guest"), "documents:read")


def test_explain_direct_grant(policy):
    user = User("mix", ("viewer", "auditor"))
    assert policy.explain(user, "reports:view") == "auditor"
    assert policy.explain(user, "documents:read") == "viewer"
    assert policy.explain(user, "documents:write") is None


def test_permissions_of_user(policy):
    assert policy.permissions(User("cam", ("commenter",))) == {"comments:write", "documents:read", "comments:read"}


def test_unknown_parent_rejected():
    with pytest.raises(UnknownRole):
        load_roles({"roles": {"editor": {"permissions": [], "inherits": ["ghost"]}}})


def test_unknown_role_of_user(policy):
    with pytest.raises(UnknownRole):
        policy.allowed(User("x", ("nope",)), "documents:read")
