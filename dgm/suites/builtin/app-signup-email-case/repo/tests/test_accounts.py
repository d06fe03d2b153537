import pytest

from accounts import AuthenticationFailed, DuplicateEmail, InvalidEmail, WeakPassword


def test_register_and_login(service):
    user = service.register("alice@example.com", "correct horse 42", "Alice")
    assert user.user_id == 1
    assert service.login("alice@example.com", "correct horse 42") is user


def test_display_name_defaults_to_local_part(service):
    assert service.register("bob@example.org", "hunter2hunter2").display_name == "bob"


def test_wrong_password(service):
    service.register("alice@example.com", "correct horse 42")
    with pytest.raises(AuthenticationFailed):
        service.login("alice@example.com", "wrong horse 42")


def test_unknown_user(service):
    with pytest.raises(AuthenticationFailed):
        service.login("nobody@example.com", "whatever123")


@pytest.mark.parametrize("email", ["plainaddress", "a@b", "a..b@example.com", "a b@example.com", "@example.com"],
                         ids=["no-at", "no-tld", "double-dot", "space", "no-local-part"])
def test_invalid_emails(service, email):
    with pytest.raises(InvalidEmail):
        service.register(email, "long enough 123")


@pytest.mark.parametrize("password", ["short1", "onlyletters here", "1234567890"],
                         ids=["too-short", "no-digit", "no-letter"])
def test_weak_passwords(service, password):
    with pytest.raises(WeakPassword):
        service.register("carol@example.com", password)


def test_duplicate_email(service):
    service.register("dan@example.com", "first password 1")
    with pytest.raises(DuplicateEmail):
        service.register("dan@example.com", "second password 2")
    assert len(service.store) == 1


def test_password_is_not_stored_in_clear(service):
    user = service.register("erin@example.com", "secret value 99")
    assert "secret" not in user.password_hash
