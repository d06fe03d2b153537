"""Permission strings are 'resource:action'. A grant may use '*' for the action or for everything."""


def matches(granted: str, wanted: str) -> bool:
    if granted == "*" or granted == wanted:
        return True
    resource, _, action = granted.partition(":")
    wanted_resource, _, _ = wanted.partition(":")
    return action == "*" and resource == wanted_resource
