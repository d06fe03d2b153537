"""Each brace language's assertions of an expected value, and its bindings of a variable
to a literal: jest `expect(X).toEqual|toBe|toStrictEqual(LIT)` and `.toThrow(new
Error(LIT))`; Rust `assert_eq!(X, LIT)` (either side); JUnit `assertEquals(LIT, X)`;
AssertJ `assertThat(X).isEqualTo(LIT)`, `.containsExactly(LIT, ...)` and
`assertThatExceptionOfType(...).isThrownBy(...).withMessage(LIT)`; Catch `REQUIRE(X ==
LIT)` and `CHECK` (either side). Go's are in native_go_checks.py. Each takes a statement's token range [a, b) (its `;`
included) and gives the expected side (with its tolerance), or a binding's (name, value)."""

from __future__ import annotations

from .native_cpp import cpp_type
from .native_exprs import Expr, literal
from .native_tokens import Token, split

JEST = {"toEqual", "toBe", "toStrictEqual"}
THROWS = {"toThrow", "toThrowError"}  # with `new Error(LIT)`: the message must equal LIT
ASSERTJ = {"isEqualTo", "containsExactly"}
COMBINES = {"&&", "||", "?", "=", "&", "|", "^", "!=", ","}


def _end(tokens: list[Token], a: int, b: int) -> int:
    """b, less a closing `;`."""
    return b - 1 if b > a and tokens[b - 1].text == ";" else b


def _one_of(lhs: Expr | None, rhs: Expr | None) -> Expr | None:
    """The side that is a literal expression, when exactly one is."""
    return (lhs or rhs) if (lhs is None) != (rhs is None) else None


def jest_assertion(tokens, a, b, match, k, names):
    b = _end(tokens, a, b)
    if tokens[a].text != "expect" or a + 1 >= b or tokens[a + 1].text != "(":
        return None
    x = match[a + 1]
    if x + 3 >= b or tokens[x + 1].text != "." or tokens[x + 2].text not in JEST | THROWS or tokens[x + 3].text != "(":
        return None
    if match[x + 3] != b - 1:
        return None
    args = split(tokens, x + 4, b - 1, match)
    if len(args) != 1:
        return None
    if tokens[x + 2].text in THROWS:
        s, e = args[0]
        error = tokens[s].text == "new" and tokens[s + 1].text.endswith("Error") and tokens[s + 2].text == "("
        if not error or match[s + 2] != e - 1:
            return None
        message = literal(tokens[s + 3 : e - 1], "javascript", k)
        return (message, 0.0) if message is not None and len(message.leaves) == 1 else None
    lhs = literal(tokens[a + 2 : x], "javascript", k, names)
    rhs = literal(tokens[args[0][0] : args[0][1]], "javascript", k, names)
    return (rhs, 0.0) if lhs is None and rhs is not None else None


def rust_assertion(tokens, a, b, match, k, names):
    b = _end(tokens, a, b)
    if b - a < 4 or [t.text for t in tokens[a : a + 3]] != ["assert_eq", "!", "("] or match[a + 2] != b - 1:
        return None
    args = split(tokens, a + 3, b - 1, match)
    if len(args) < 2:
        return None
    sides = [literal(tokens[s:e], "rust", k, names) for s, e in args[:2]]
    side = _one_of(*sides)
    return (side, 0.0) if side is not None else None


def junit_assertion(tokens, a, b, match, k, names):
    b = _end(tokens, a, b)
    chain = _chain(tokens, a, b, match)
    if not chain:
        return None
    calls = [name for name, _ in chain]
    args = [[literal(tokens[s:e], "java", k, names) for s, e in split(tokens, lo, hi, match)] for _, (lo, hi) in chain]
    if calls == ["assertEquals"] and len(args[0]) in (2, 3):
        expected, actual = args[0][0], args[0][1]
        if expected is None or actual is not None:
            return None
        third = args[0][2] if len(args[0]) == 3 else Expr()
        delta = third.leaves[0].value if third and len(third.leaves) == 1 else None
        if isinstance(delta, (int, float)):
            return expected, float(delta)
        return (expected, 0.0) if len(args[0]) == 2 or isinstance(delta, str) else None
    if calls[0] == "assertThat" and len(calls) == 2 and calls[1] in ASSERTJ and len(args[0]) == 1:
        if args[0][0] is not None or not args[1] or any(e is None for e in args[1]):
            return None
        if calls[1] == "isEqualTo" and len(args[1]) != 1:
            return None
        return Expr([leaf for e in args[1] for leaf in e.leaves], [u for e in args[1] for u in e.uses]), 0.0
    thrown = calls[0].startswith("assertThat") and calls[0].endswith(("Exception", "ExceptionOfType", "Error"))
    if thrown and calls[1:] == ["isThrownBy", "withMessage"] and len(args[2]) == 1 and args[2][0] is not None:
        return args[2][0], 0.0
    return None


def _chain(tokens, a, b, match) -> list[tuple[str, tuple[int, int]]]:
    """`[Q.]name(args).name(args)...` spanning tokens[a:b]: each call's name and argument range."""
    while a + 2 < b and tokens[a].kind == "id" and tokens[a + 1].text == ".":
        a += 2  # a qualifier (Assertions.assertThat)
    out, i = [], a
    while i + 1 < b and tokens[i].kind == "id" and tokens[i + 1].text == "(":
        close = match[i + 1]
        out.append((tokens[i].text, (i + 2, close)))
        if close == b - 1:
            return out
        if tokens[close + 1].text != ".":
            return []
        i = close + 2
    return []


def catch_assertion(tokens, a, b, match, k, names):
    b = _end(tokens, a, b)
    if b - a < 4 or tokens[a].text not in ("REQUIRE", "CHECK") or tokens[a + 1].text != "(" or match[a + 1] != b - 1:
        return None
    inner = split(tokens, a + 2, b - 1, match, sep="==")
    flat = [t.text for t in tokens[a + 2 : b - 1]]
    if len(inner) != 2 or flat.count("==") != 1 or any(t in COMBINES for t in _top(tokens, a + 2, b - 1, match)):
        return None
    side = _one_of(*(literal(tokens[s:e], "cpp", k, names) for s, e in inner))
    return (side, 0.0) if side is not None else None


def _top(tokens, lo, hi, match):
    i = lo
    while i < hi:
        yield tokens[i].text if tokens[i].kind == "p" else ""
        i = match[i] + 1 if tokens[i].kind == "p" and tokens[i].text in "([{" else i + 1


def _declared(name: Token, value: Expr | None):
    return (name.text, value) if value is not None and name.kind == "id" else None


def jest_declaration(tokens, a, b, match, k):
    b = _end(tokens, a, b)
    if b - a < 4 or tokens[a].text not in ("const", "let", "var") or tokens[a + 2].text != "=":
        return None
    return _declared(tokens[a + 1], literal(tokens[a + 3 : b], "javascript", k))


def rust_declaration(tokens, a, b, match, k):
    b = _end(tokens, a, b)
    parts = split(tokens, a, b, match, sep="=")
    if tokens[a].text != "let" or len(parts) != 2 or parts[0][1] - a < 2 or tokens[a + 1].text == "mut":
        return None
    if parts[0][1] - a > 2 and tokens[a + 2].text != ":":
        return None
    return _declared(tokens[a + 1], literal(tokens[parts[1][0] : parts[1][1]], "rust", k))


def junit_declaration(tokens, a, b, match, k):
    b = _end(tokens, a, b)
    parts = split(tokens, a, b, match, sep="=")
    if len(parts) != 2 or parts[0][1] - parts[0][0] < 2:
        return None
    lhs = tokens[parts[0][0] : parts[0][1]]
    if any(t.kind not in ("id", "p") or (t.kind == "p" and t.text not in "<>,[].?") for t in lhs[:-1]):
        return None
    braces = lhs[-2].text == "]"
    return _declared(lhs[-1], literal(tokens[parts[1][0] : parts[1][1]], "java", k, braces=braces))


def catch_declaration(tokens, a, b, match, k):
    b = _end(tokens, a, b)
    while a < b and tokens[a].text in ("const", "constexpr", "static"):
        a += 1
    kind = cpp_type(tokens, a) if a < b else None
    if kind is None or kind[0] + 2 > b or tokens[kind[0]].kind != "id":
        return None
    name, opener, base = tokens[kind[0]], kind[0] + 1, kind[1]
    if tokens[opener].text == "=":
        value = literal(tokens[opener + 1 : b], "cpp", k, braces=base != "auto")
    elif tokens[opener].text in "({" and match[opener] == b - 1:
        inner = tokens[opener + 1 : b - 1] if tokens[opener].text == "(" else tokens[opener:b]
        value = literal(inner, "cpp", k, braces=True)
    else:
        return None
    if value is not None and base in ("set", "unordered_set"):
        values = [leaf.value for leaf in value.leaves]
        literals = sum(t.kind in ("num", "str", "chr") for t in tokens[opener:b])
        value = value if len(set(values)) == len(values) == literals else None
    return _declared(name, value)
