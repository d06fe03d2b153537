"""Literal expressions in the brace languages: what a test may state as the value it
expects, built only of literals and of wrappers that keep values apart (two different
literals inside one stay two different values): JS arrays, objects and `.join(SEP)`; Rust
`vec![]`, arrays, tuples, `&`, `Some`/`Ok`/`Err`, `String::from` and `.to_string()` and
kin; Java's `List.of`, `Arrays.asList`, array initialisers; C++ standard containers of
literals and brace lists where a declaration names their type; Go slices and arrays. An expression may also be
one of the test's own variables (`names`), for a variable the test binds to a literal."""

from __future__ import annotations

from dataclasses import dataclass, field

from .native_cpp import cpp_type
from .native_literals import Leaf, number, string
from .native_tokens import Token

KEYWORDS = {
    "javascript": {"true", "false", "null", "undefined"},
    "rust": {"true", "false", "None"},
    "java": {"true", "false", "null"},
    "cpp": {"true", "false", "nullptr"},
    "go": {"true", "false", "nil"},
}
GO_NOT_VALUES = {"map", "struct", "func", "chan", "interface"}
RUST_WRAPPERS = {"Some", "Ok", "Err"}
RUST_METHODS = {"to_string", "to_owned", "into", "to_vec", "as_str", "as_slice", "as_bytes"}
JAVA_CALLS = {("List", "of"), ("Arrays", "asList"), ("Collections", "singletonList"), ("Optional", "of")}


class NotLiteral(ValueError):
    pass


@dataclass
class Expr:
    leaves: list[Leaf] = field(default_factory=list)  # the literals a twin may change, in order
    uses: list[Token] = field(default_factory=list)  # the variables (of `names`) it is made of


def literal(tokens: list[Token], lang: str, k: int, names=frozenset(), braces: bool = False) -> Expr | None:
    """`tokens` as a literal expression, or None. `braces`: a bare `{...}` list is one (the
    type a declaration names makes it a value)."""
    if not tokens:
        return None
    parser = _Parser(tokens, lang, k, names)
    try:
        parser.expr(braces)
    except (NotLiteral, IndexError):
        return None
    return parser.out if parser.i == len(tokens) else None


class _Parser:
    def __init__(self, tokens: list[Token], lang: str, k: int, names):
        self.t, self.lang, self.k, self.names, self.i, self.out = tokens, lang, k, names, 0, Expr()

    def at(self, *texts: str) -> bool:
        return all(self.i + n < len(self.t) and self.t[self.i + n].text == s for n, s in enumerate(texts))

    def eat(self, *texts: str) -> None:
        if not self.at(*texts):
            raise NotLiteral(texts)
        self.i += len(texts)

    def items(self, close: str, braces: bool = False) -> int:
        count = 0
        while not self.at(close):
            self.expr(braces)
            count += 1
            if not self.at(close):
                self.eat(",")
        self.eat(close)
        return count

    def expr(self, braces: bool = False) -> None:
        text = self.t[self.i].kind == "str"
        self.primary(braces)
        while self.lang == "rust" and self.at(".") and self.t[self.i + 1].text in RUST_METHODS:
            self.eat(".", self.t[self.i + 1].text, "(", ")")
        while text and self.lang != "cpp" and self.at("+") and self.t[self.i + 1].kind == "str":
            self.i += 1  # strings joined with +: one piece changed changes the whole
            self.primary(False)
        if self.lang == "javascript" and self.at(".", "join", "("):
            self.eat(".", "join", "(")
            if self.t[self.i].kind != "str":
                raise NotLiteral("join")
            self.i += 1
            self.eat(")")

    def primary(self, braces: bool) -> None:
        tok, lang = self.t[self.i], self.lang
        if tok.kind == "num" or (tok.text == "-" and tok.kind == "p" and self.t[self.i + 1].kind == "num"):
            n = 2 if tok.text == "-" else 1
            leaf = number(self.t[self.i : self.i + n], lang, self.k)
            self.out.leaves += [leaf] if leaf else []
            self.i += n
        elif tok.kind in ("str", "chr"):
            n = 1
            while lang == "cpp" and self.i + n < len(self.t) and self.t[self.i + n].kind == "str":
                n += 1
            leaf = string(self.t[self.i : self.i + n], lang)
            self.out.leaves += [leaf] if leaf else []
            self.i += n
        elif tok.kind == "id" and tok.text in KEYWORDS[lang]:
            self.i += 1
        elif tok.kind == "id" and tok.text in self.names:
            self.out.uses.append(tok)
            self.i += 1
        else:
            getattr(self, lang)(tok, braces)

    def javascript(self, tok: Token, braces: bool) -> None:
        if self.at("["):
            self.eat("[")
            self.items("]")
            return
        self.eat("{")
        keys = set()
        while not self.at("}"):
            key = self.t[self.i]
            value = string([key], "javascript") if key.kind == "str" else None
            name = value.value if value else key.text if key.kind == "id" or key.text.isdigit() else None
            if name is None or name in keys:
                raise NotLiteral("an object key")
            keys.add(name)
            self.i += 1
            self.eat(":")
            self.expr()
            if not self.at("}"):
                self.eat(",")
        self.eat("}")

    def rust(self, tok: Token, braces: bool) -> None:
        if self.at("&"):
            self.eat("&")
            self.expr()
        elif self.at("vec", "!", "[") or self.at("["):
            self.i += 2 if self.at("vec") else 0
            self.eat("[")
            self.items("]")
        elif self.at("("):
            self.eat("(")
            self.items(")")
        elif tok.text in RUST_WRAPPERS or self.at("String", "::", "from"):
            self.i += 1 if tok.text in RUST_WRAPPERS else 3
            self.eat("(")
            self.expr()
            self.eat(")")
        else:
            raise NotLiteral(tok.text)

    def java(self, tok: Token, braces: bool) -> None:
        if braces and self.at("{"):
            self.eat("{")
            self.items("}", braces=True)
        elif self.at("new") and self.t[self.i + 1].kind == "id" and self.at("new", self.t[self.i + 1].text, "[", "]"):
            self.i += 4
            self.eat("{")
            self.items("}", braces=True)
        elif any(self.at(a, ".", b, "(") for a, b in JAVA_CALLS):
            self.i += 4
            self.items(")")
        else:
            raise NotLiteral(tok.text)

    def go(self, tok: Token, braces: bool) -> None:
        if braces and self.at("{"):
            self.eat("{")
            self.items("}", braces=True)
            return
        self.eat("[")
        self.i += self.t[self.i].kind == "num"
        self.eat("]")
        while not self.at("{"):  # the element type: []string, [][]int, pkg.Type
            if self.t[self.i].text in GO_NOT_VALUES or (
                self.t[self.i].text not in "[]." and self.t[self.i].kind != "id"
            ):
                raise NotLiteral("a map, or no slice of values")
            self.i += 1
        self.eat("{")
        self.items("}", braces=True)

    def cpp(self, tok: Token, braces: bool) -> None:
        if braces and self.at("{"):
            self.eat("{")
            self.items("}", braces=True)
            return
        kind = cpp_type(self.t, self.i)
        if kind is None:
            raise NotLiteral(tok.text)
        self.i, base = kind
        close = {"{": "}", "(": ")"}.get(self.t[self.i].text)
        if close is None or base in ("set", "unordered_set"):
            raise NotLiteral("a set, or no initialiser")
        self.i += 1
        if self.items(close, braces=True) != 1 and (close == ")" or base in ("string", "string_view")):
            raise NotLiteral("a constructor of several arguments")
