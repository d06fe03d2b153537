import pytest

from accounts import AuthenticationFailed, DuplicateEmail, InvalidEmail


def test_same_address_different_case_is_a_duplicate(service):
    service.register("alice@example.com", "correct horse 42")
    with pytest.raises(DuplicateEmail):
        service.register("Alice@Example.COM", "another pass 77")
    assert len(service.store) == 1


def test_login_ignores_case_and_surrounding_spaces(service):
    user = service.register("Bob.Smith@Example.org", "hunter2hunter2")
    assert service.login("bob.smith@example.org", "hunter2hunter2") is user
    assert service.login("BOB.SMITH@EXAMPLE.ORG", "hunter2hunter2") is user
    assert service.login("  bob.smith@example.org\n", "hunter2hunter2") is user


def test_register_ignores_surrounding_spaces(service):
    user = service.register("  carol@example.com ", "long enough 123")
    assert user.email == "carol@example.com"
    with pytest.raises(DuplicateEmail):
        service.register("carol@example.com", "long enough 456")


def test_address_stored_in_lower_case(service):
    user = service.register("Dan.Brown@Example.com", "long enough 123")
    assert user.email == "dan.brown@example.com"
    assert service.find("DAN.BROWN@example.com") is user
    assert [u.email for u in service.store.all()] == ["dan.brown@example.com"]


def test_display_name_default_and_password_checks_unchanged(service):
    user = service.register("erin@example.com", "long enough 123")
    assert user.display_name == "erin"
    with pytest.raises(AuthenticationFailed):
        service.login("erin@example.com", "wrong password 1")
    with pytest.raises(InvalidEmail):
        service.register("not an email", "long enough 123")
