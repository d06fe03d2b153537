from casing import to_camel, to_constant, to_kebab, to_pascal, to_snake, to_title


def test_to_snake():
    assert to_snake("userName") == "user_name"
    assert to_snake("UserNameField") == "user_name_field"
    assert to_snake("already_snake") == "already_snake"


def test_to_kebab():
    assert to_kebab("maxRetryCount") == "max-retry-count"


def test_to_constant():
    assert to_constant("maxRetryCount") == "MAX_RETRY_COUNT"
    assert to_constant("page-size") == "PAGE_SIZE"


def test_to_pascal_and_camel():
    assert to_pascal("user_name") == "UserName"
    assert to_camel("user_name") == "userName"
    assert to_camel("UserName") == "userName"
    assert to_camel("") == ""


def test_to_title():
    assert to_title("first_name") == "First Name"
