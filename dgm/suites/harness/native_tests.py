"""Each brace language's tests as its runner knows them: jest's `test('name', () => {...})`
and `it(...)`, Rust's `#[test] fn name()`, JUnit's `@Test void name()`, Catch's
`TEST_CASE("name", ...) {...}`; for each, its name as the report shows it, where that name
is written and how another is, where the test is, and where its body is (or why it gets no
twins: a callback that takes arguments, `#[should_panic]`, a name the file uses elsewhere,
Catch sections or generators that run the body more than once)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .native_literals import Leaf, string
from .native_tokens import Token, split

JAVA_MODIFIERS = {"public", "protected", "private", "static", "final", "synchronized"}
NOT_PLAIN = {"should_panic"}  # Rust attributes that change what passing means
CPP_RUNS_AGAIN = {"SECTION", "DYNAMIC_SECTION", "GENERATE"}


@dataclass(frozen=True)
class Site:
    leaves: tuple[Leaf, ...]
    tolerance: float = 0.0


@dataclass
class Case:
    """One test: its name as its runner reports it, where that name is written and how a new
    one is, where the test is (character offsets), and its sites (or why it has none)."""

    name: str
    name_span: tuple[int, int]
    rename: Callable[[str], str]
    span: tuple[int, int]
    why: str | None = None
    sites: list[Site] = field(default_factory=list)


def jest_tests(tokens: list[Token], match):
    for i, tok in enumerate(tokens):
        if tok.kind != "id" or tok.text not in ("test", "it") or (i and tokens[i - 1].text == "."):
            continue
        if i + 3 >= len(tokens) or tokens[i + 1].text != "(" or tokens[i + 2].kind not in ("str", "tpl"):
            continue
        close = match[i + 1]
        end = close + 1 + (close + 1 < len(tokens) and tokens[close + 1].text == ";")
        label = string([tokens[i + 2]], "javascript") if tokens[i + 2].kind == "str" else None
        span, at = (tok.start, tokens[end - 1].end), tokens[i + 2]
        if label is None:
            yield Case(at.text, (at.start, at.end), str, span, "its name is not a plain string"), None
            continue
        body = _callback(tokens, match, i + 4)
        why = None if tokens[i + 3].text == "," and body is not None else "its function takes arguments or has no block"
        case = Case(label.value, (label.start, label.end), label.render, span, why)
        yield case, (body + 1, match[body]) if body is not None else None


def _callback(tokens: list[Token], match, j: int) -> int | None:
    """The `{` of the callback `[async] () => {` or `[async] function [name]() {` at j."""

    def at(n: int) -> str:
        return tokens[n].text if n < len(tokens) else ""

    j += at(j) == "async"
    if at(j) == "function":
        j += 1 + (j + 1 < len(tokens) and tokens[j + 1].kind == "id")
        return j + 2 if at(j) == "(" and match.get(j) == j + 1 and at(j + 2) == "{" else None
    return j + 3 if at(j) == "(" and match.get(j) == j + 1 and at(j + 2) == "=>" and at(j + 3) == "{" else None


def rust_tests(tokens: list[Token], match):
    for i, tok in enumerate(tokens):
        if tok.kind != "id" or tok.text != "fn" or i + 2 >= len(tokens):
            continue
        j, attributes = i - 1, []
        while j >= 0 and tokens[j].text in ("pub", "async", "unsafe"):
            j -= 1
        while j >= 1 and tokens[j].text == "]" and tokens[match[j] - 1].text == "#":
            attributes.append(" ".join(t.text for t in tokens[match[j] + 1 : j]))
            j = match[j] - 2
        if "test" not in attributes:
            continue
        name = tokens[i + 1]
        uses = sum(t.text == name.text and tokens[n - 1].text not in ("fn", ".") for n, t in enumerate(tokens) if n)
        body = next((n for n in range(i + 2, len(tokens)) if tokens[n].text == "{"), None)
        if body is None:
            continue
        why = "should_panic" if any(a.split(" ")[0] in NOT_PLAIN for a in attributes) else None
        why = why or (
            "it takes arguments or is generic" if tokens[i + 2].text != "(" or match[i + 2] != i + 3 else None
        )
        why = why or ("its name is used in the file" if uses else None)
        span = (tokens[j + 1].start, tokens[match[body]].end)
        yield Case(name.text, (name.start, name.end), str, span, why), (body + 1, match[body])


def junit_tests(tokens: list[Token], match):
    for i, tok in enumerate(tokens):
        if tok.text != "void" or i + 3 >= len(tokens) or tokens[i + 1].kind != "id" or tokens[i + 2].text != "(":
            continue
        j, annotations = i - 1, []
        while j >= 0:
            if tokens[j].text in JAVA_MODIFIERS:
                j -= 1
                continue
            args = tokens[j].text == ")"
            last = match[j] - 1 if args else j
            first = last
            while first >= 2 and tokens[first - 1].text == "." and tokens[first - 2].kind == "id":
                first -= 2
            if last < 1 or tokens[last].kind != "id" or tokens[first - 1].text != "@":
                break
            annotations.append((tokens[last].text, args))
            j = first - 2
        if ("Test", False) not in annotations:
            continue
        name = tokens[i + 1]
        body = next((n for n in range(i + 3, len(tokens)) if tokens[n].text in ("{", ";")), None)
        if body is None:
            continue
        uses = sum(t.text == name.text and tokens[n - 1].text != "." for n, t in enumerate(tokens) if n)
        why = None if match[i + 2] == i + 3 and tokens[body].text == "{" else "it takes arguments"
        why = why or ("its name is used in the file" if uses > 1 else None)
        span = (tokens[j + 1].start, tokens[match[body]].end if tokens[body].text == "{" else tokens[body].end)
        yield Case(name.text, (name.start, name.end), str, span, why), (body + 1, match.get(body, body))


def catch_tests(tokens: list[Token], match):
    for i, tok in enumerate(tokens):
        if tok.text != "TEST_CASE" or i + 2 >= len(tokens) or tokens[i + 1].text != "(":
            continue
        close = match[i + 1]
        args = split(tokens, i + 2, close, match)
        label = string(tokens[args[0][0] : args[0][1]], "cpp") if args else None
        body = close + 1 if close + 1 < len(tokens) and tokens[close + 1].text == "{" else None
        if label is None or body is None:
            at = tokens[i + 2]
            yield Case(at.text, (at.start, at.end), str, (tok.start, at.end), "its name is not a plain string"), None
            continue
        again = any(t.text in CPP_RUNS_AGAIN for t in tokens[body : match[body]])
        why = "its sections or generators run it more than once" if again else None
        yield (
            Case(label.value, (label.start, label.end), label.render, (tok.start, tokens[match[body]].end), why),
            (body + 1, match[body]),
        )


def go_tests(tokens: list[Token], match):
    """`func TestX(t *testing.T) {...}` at the top of the file."""
    for i, tok in enumerate(tokens):
        if tok.text != "func" or i + 8 >= len(tokens) or not tokens[i + 1].text.startswith("Test"):
            continue
        if (tokens[i - 1].text not in (";", "}") and i > 0) or not _go_test_params(tokens, i + 2):
            continue  # a method, a closure, or no test's parameters
        close = match[i + 2]
        if close + 1 >= len(tokens) or tokens[close + 1].text != "{":
            continue
        name, body = tokens[i + 1], close + 1
        uses = sum(t.text == name.text for t in tokens) > 1
        why = "its name is used in the file" if uses else None
        yield (
            Case(name.text, (name.start, name.end), str, (tok.start, tokens[match[body]].end), why),
            (body + 1, match[body]),
        )


def _go_test_params(tokens: list[Token], at: int) -> bool:
    """`(NAME *testing.T)`"""
    texts = [t.text for t in tokens[at : at + 7]]
    return texts[0] == "(" and tokens[at + 1].kind == "id" and texts[2:] == ["*", "testing", ".", "T", ")"]


TESTS = {"javascript": jest_tests, "rust": rust_tests, "java": junit_tests, "cpp": catch_tests, "go": go_tests}
