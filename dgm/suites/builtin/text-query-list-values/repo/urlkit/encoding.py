"""Percent-encoding of URL components (RFC 3986)."""

import string

# Unreserved characters never need escaping.
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")


def quote_component(text: str, safe: str = "") -> str:
    """Percent-encode ``text`` for use inside a path segment or query value.

    Every byte of the UTF-8 encoding that is not unreserved (or listed in
    ``safe``) becomes ``%XX``; a space becomes ``%20``.

    >>> quote_component("a b&c")
    'a%20b%26c'
    """
    allowed = _UNRESERVED | frozenset(safe)
    out = []
    for char in text:
        if char in allowed:
            out.append(char)
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8"))
    return "".join(out)


def unquote_component(text: str, plus_is_space: bool = False) -> str:
    """Decode ``%XX`` escapes (and ``+`` as a space if ``plus_is_space``)."""
    if plus_is_space:
        text = text.replace("+", " ")
    data = bytearray()
    i = 0
    while i < len(text):
        char = text[i]
        digits = text[i + 1 : i + 3]
        if char == "%" and len(digits) == 2 and all(c in string.hexdigits for c in digits):
            data.append(int(digits, 16))
            i += 3
        else:
            data.extend(char.encode("utf-8"))
            i += 1
    return data.decode("utf-8", errors="replace")
