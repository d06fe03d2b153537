"""How Go tests check a value: `if [INIT;] X != LIT { t.Fatalf(...) }` (either side) or
`!reflect.DeepEqual(X, LIT)`, with the failure first in the block, and the variables a test
binds to literals (`NAME := LIT`, `var NAME = LIT`); and the loops of table-driven tests,
`for _, tc := range TABLE {...}` whose body (or the body of the one `t.Run(..., func(t
*testing.T) {...})` it holds) checks `tc.F` that way before anything could end an
iteration early, and uses `tc.F` nowhere else but in failure messages."""

from __future__ import annotations

from dataclasses import dataclass

from .native_asserts import COMBINES, _declared, _end, _one_of, _top
from .native_blocks import leaves_early, statements
from .native_exprs import literal
from .native_tokens import Token, split

FAILS = {"Fatal", "Fatalf", "Error", "Errorf"}
REPORTS = FAILS | {"Log", "Logf"}


def go_assertion(tokens, a, b, match, k, names):
    """`if [INIT;] X != LIT { t.Fatalf(...) ... }` (either side), or `!reflect.DeepEqual(X, LIT)`."""
    found = _if_fails(tokens, match, a, b)
    sides = _sides(tokens, match, *found) if found else None
    side = _one_of(*(literal(tokens[s:e], "go", k, names) for s, e in sides)) if sides else None
    return (side, 0.0) if side is not None else None


def _if_fails(tokens, match, a: int, b: int) -> tuple[int, int] | None:
    """The condition's range of `if [INIT;] COND { t.Fatalf(...) ... }` (the failure first)."""
    end = b - (tokens[b - 1].text == ";")
    if tokens[a].text != "if":
        return None
    i = a + 1
    while i < end and tokens[i].text != "{":  # the block's brace, past the condition's brackets
        i = match[i] + 1 if tokens[i].kind == "p" and tokens[i].text in "([" else i + 1
    if i + 4 >= end or match[i] != end - 1 or tokens[i + 2].text != "." or tokens[i + 3].text not in FAILS:
        return None
    return (split(tokens, a + 1, i, match, sep=";") or [(a + 1, i)])[-1][0], i


def _sides(tokens, match, lo: int, hi: int) -> list[tuple[int, int]] | None:
    """The two sides of `X != Y` or `!reflect.DeepEqual(X, Y)`, and nothing else."""
    texts = [t.text for t in tokens[lo:hi]]
    if texts[:5] == ["!", "reflect", ".", "DeepEqual", "("] and match[lo + 4] == hi - 1:
        sides = split(tokens, lo + 5, hi - 1, match)
    elif texts.count("!=") == 1 and not any(t in COMBINES - {"!="} | {"=="} for t in _top(tokens, lo, hi, match)):
        sides = split(tokens, lo, hi, match, sep="!=")
    else:
        return None
    return sides if len(sides) == 2 else None


def go_declaration(tokens, a, b, match, k):
    """`NAME := LIT` or `var NAME [TYPE] = LIT`."""
    b = _end(tokens, a, b)
    if b - a > 3 and tokens[a + 1].text == ":" and tokens[a + 2].text == "=":
        return _declared(tokens[a], literal(tokens[a + 3 : b], "go", k))
    parts = split(tokens, a, b, match, sep="=")
    if tokens[a].text != "var" or len(parts) != 2 or parts[0][1] - a < 2:
        return None
    return _declared(tokens[a + 1], literal(tokens[parts[1][0] : parts[1][1]], "go", k))


@dataclass
class Loop:
    test: tuple[int, int]  # the test function, as token indices
    name: Token
    table: str
    at: int  # the token of the table's name in `range NAME`
    field: str


def loops(tokens: list[Token], match) -> list[tuple[Token, tuple[int, int], Loop | None]]:
    """Each `func TestX(t *testing.T)`: its name, its span, and its table loop if it has one
    of the shape this module twins."""
    out = []
    for i, tok in enumerate(tokens):
        if tok.text != "func" or i + 10 >= len(tokens) or not tokens[i + 1].text.startswith("Test"):
            continue
        texts = [t.text for t in tokens[i + 2 : i + 9]]
        if (
            (i and tokens[i - 1].text not in (";", "}"))
            or texts[0] != "("
            or texts[2:] != ["*", "testing", ".", "T", ")"]
        ):
            continue
        body = i + 9
        if body >= len(tokens) or tokens[body].text != "{":
            continue
        out.append((tokens[i + 1], (i, match[body]), _loop(tokens, match, body, (i, match[body]), tokens[i + 1])))
    return out


def _loop(tokens, match, body: int, test, name) -> Loop | None:
    for a, b in statements(tokens, body + 1, match[body], match, "go"):
        texts = [t.text for t in tokens[a : a + 9]]
        if texts[:2] == ["for", "_"] and texts[2:3] == [","] and texts[4:7] == [":", "=", "range"] and texts[8] == "{":
            var, at = tokens[a + 3].text, a + 7
            inner = _inner(tokens, match, a + 8)
            field = _checked(tokens, match, inner, var, (a + 8, match[a + 8])) if inner else None
            return Loop(test, name, tokens[at].text, at, field) if field else None
        if leaves_early(tokens, a, b, "go"):
            return None
    return None


def _inner(tokens, match, block: int) -> tuple[int, int] | None:
    """The loop's body, or the body of the one `t.Run(..., func(t *testing.T) {...})` it holds."""
    parts = [(a, b) for a, b in statements(tokens, block + 1, match[block], match, "go") if tokens[a].text != ";"]
    if len(parts) == 1 and [t.text for t in tokens[parts[0][0] + 1 : parts[0][0] + 4]] == [".", "Run", "("]:
        args = split(tokens, parts[0][0] + 4, match[parts[0][0] + 3], match)
        if len(args) == 2 and tokens[args[1][0]].text == "func" and tokens[args[1][1] - 1].text == "}":
            close = args[1][1] - 1
            return match[close] + 1, close
        return None
    return block + 1, match[block]


def _checked(tokens, match, inner: tuple[int, int], var: str, loop: tuple[int, int]) -> str | None:
    """The field the first statement of the body that checks one compares, if it does so
    before anything could end the iteration early, and `var` is used nowhere else but in
    failure messages and reads of other fields."""
    for a, b in statements(tokens, inner[0], inner[1], match, "go"):
        if leaves_early(tokens, a, b, "go"):
            return None
        field = _comparison(tokens, match, a, b, var)
        if field:
            allowed = [_if_fails(tokens, match, a, b), *_reports(tokens, match, loop)]
            for i in range(loop[0], loop[1]):
                if tokens[i].text != var or tokens[i - 1].text == ".":
                    continue
                if tokens[i + 1].text != "." or tokens[i + 2].kind != "id":
                    return None  # the entry is used whole
                if tokens[i + 2].text == field and not any(lo <= i < hi for lo, hi in allowed):
                    return None
            return field
    return None


def _comparison(tokens, match, a: int, b: int, var: str) -> str | None:
    """F when tokens[a:b] is `if [INIT;] X != var.F { t.Fatalf(...) ... }` or DeepEqual's."""
    found = _if_fails(tokens, match, a, b)
    sides = _sides(tokens, match, *found) if found else None
    own = [s for s, e in sides or () if e - s == 3 and tokens[s].text == var and tokens[s + 1].text == "."]
    if len(own) != 1:
        return None
    other = next((s, e) for s, e in sides if s != own[0])
    return None if any(tokens[i].text == var for i in range(*other)) else tokens[own[0] + 2].text


def _reports(tokens, match, loop: tuple[int, int]) -> list[tuple[int, int]]:
    """The argument ranges of `t.Fatalf(...)` and kin in the loop."""
    return [
        (i + 3, match[i + 3])
        for i in range(loop[0], loop[1] - 3)
        if tokens[i + 1].text == "." and tokens[i + 2].text in REPORTS and tokens[i + 3].text == "("
    ]
