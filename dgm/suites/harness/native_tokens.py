"""A small tokenizer for the brace languages whose tests get twins (JavaScript, Rust, Java,
C++, Go): identifiers, numbers, string and character literals (each language's quoting: JS
templates and regular expressions, Rust raw strings and lifetimes, Java text blocks, C++
raw strings and digit separators, Go raw strings), punctuation, and the semicolons Go's
lexer inserts at line ends; comments are skipped. Offsets are
character offsets into the source. Anything it cannot read raises Unreadable, and the file
keeps no twins."""

from __future__ import annotations

import re
from dataclasses import dataclass


class Unreadable(ValueError):
    pass


@dataclass(frozen=True)
class Token:
    kind: str  # id, num, str, chr, tpl (a JS template with ${}), re (a JS regex), p (punctuation)
    text: str
    start: int
    end: int


IDENT = re.compile(r"(?:[^\W\d]|\$)[\w$]*")
NUMBER = {
    "cpp": re.compile(r"\d(?:'?[\w.])*(?:[eEpP][+-]\d+[\w]*)?"),
    "other": re.compile(r"\d[\w]*(?:\.(?!\.)[\w]*)?(?:(?<=[eE])[+-]\d[\w]*)?"),
}
PUNCT = re.compile(r"\.\.\.|\.\.=|===|!==|\.\.|==|!=|<=|>=|&&|\|\||=>|::|->|\+\+|--|[^\s\w]")
OPEN, CLOSE = "([{", ")]}"
PREFIX = {"cpp": r"(?:u8|[uUL])?R\"|(?:u8|[uUL])?[\"']", "rust": r"b?r#*\"|b?[\"']"}
GO_ENDS = {"break", "continue", "fallthrough", "return", "++", "--", ")", "]", "}"}  # Go puts a `;` after these
REGEX_AFTER = {"return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "else", "yield", "await"}


def tokenize(src: str, lang: str) -> list[Token]:
    return _scan(src, 0, lang)[0]


def _scan(src: str, i: int, lang: str, closing: bool = False) -> tuple[list[Token], int]:
    """Tokens from i to the end, or (closing) to the `}` that closes an open `${`."""
    tokens: list[Token] = []
    n, depth = len(src), 0
    number = NUMBER["cpp" if lang == "cpp" else "other"]
    while i < n:
        c = src[i]
        if closing and c in "{}":
            depth += 1 if c == "{" else -1
            if depth < 0:
                return tokens, i + 1
        if c == "\n" and lang == "go" and tokens and (tokens[-1].kind != "p" or tokens[-1].text in GO_ENDS):
            tokens.append(Token("p", ";", i, i))  # Go's automatic semicolon
        if c.isspace():
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            i = _block_comment(src, i, nested=lang == "rust")
        elif c.isdigit():
            m = number.match(src, i)
            tokens.append(Token("num", m.group(), i, m.end()))
            i = m.end()
        elif (quoted := _literal(src, i, lang, tokens)) is not None:
            kind, j = quoted
            tokens.append(Token(kind, src[i:j], i, j))
            i = j
        elif IDENT.match(src, i):
            m = IDENT.match(src, i)
            tokens.append(Token("id", m.group(), i, m.end()))
            i = m.end()
        else:
            m = PUNCT.match(src, i)
            tokens.append(Token("p", m.group(), i, m.end()))
            i = m.end()
    if closing:
        raise Unreadable("an unterminated template expression")
    return tokens, i


def _block_comment(src: str, i: int, nested: bool) -> int:
    depth, j = 0, i
    while j < len(src):
        if src.startswith("/*", j):
            depth, j = depth + 1, j + 2
        elif src.startswith("*/", j):
            depth, j = depth - 1, j + 2
            if depth == 0 or not nested:
                return j
        else:
            j += 1
    raise Unreadable("an unterminated comment")


def _literal(src: str, i: int, lang: str, tokens: list[Token]) -> tuple[str, int] | None:
    """(kind, end) of a string, character, template or regex literal starting at i, if one does."""
    prefix = re.match(PREFIX.get(lang, "[\"']"), src[i : i + 4])
    if lang == "rust" and prefix and prefix.group().startswith(("r", "br")):
        hashes = prefix.group().count("#")
        end = src.find('"' + "#" * hashes, i + len(prefix.group()))
        return ("str", end + 1 + hashes) if end >= 0 else _fail("an unterminated raw string")
    if lang == "cpp" and prefix and prefix.group().endswith('R"'):
        m = re.compile(r'R"([^()\\\s]{0,16})\(').match(src, i + len(prefix.group()) - 2)
        end = src.find(")" + m.group(1) + '"', m.end()) if m else -1
        return ("str", end + len(m.group(1)) + 2) if end >= 0 else _fail("an unreadable raw string")
    if lang == "java" and src.startswith('"""', i):
        end = src.find('"""', i + 3)
        while end >= 0 and src[end - 1] == "\\":
            end = src.find('"""', end + 1)
        return ("str", end + 3) if end >= 0 else _fail("an unterminated text block")
    if lang == "go" and src[i] == "`":
        end = src.find("`", i + 1)
        return ("str", end + 1) if end > 0 else _fail("an unterminated raw string")
    if lang == "javascript" and src[i] == "`":
        return _template(src, i)
    if lang == "javascript" and src[i] == "/" and _regex_may_start(tokens):
        return "re", _regex(src, i)
    if not prefix or (lang == "javascript" and prefix.group() not in ("'", '"')):
        return None
    quote, j = prefix.group()[-1], i + len(prefix.group())
    if quote == "'" and lang == "rust" and not re.match(r"\\|.'", src[j : j + 2], re.S):
        return None  # a lifetime
    while j < len(src) and src[j] != quote:
        if src[j] == "\n" and lang != "rust":
            raise Unreadable("a line break in a string")
        j += 2 if src[j] == "\\" else 1
    if j >= len(src):
        raise Unreadable("an unterminated string")
    return ("chr" if quote == "'" and lang != "javascript" else "str"), j + 1


def _fail(why: str):
    raise Unreadable(why)


def _regex_may_start(tokens: list[Token]) -> bool:
    if not tokens:
        return True
    last = tokens[-1]
    if last.kind == "id":
        return last.text in REGEX_AFTER
    return last.kind == "p" and last.text not in (")", "]", "}")


def _regex(src: str, i: int) -> int:
    j, klass = i + 1, False
    while j < len(src) and src[j] != "\n":
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == "/" and not klass:
            return IDENT.match(src, j + 1).end() if IDENT.match(src, j + 1) else j + 1
        klass = (klass or c == "[") and c != "]"
        j += 1
    raise Unreadable("an unterminated regular expression")


def _template(src: str, i: int) -> tuple[str, int]:
    j, kind = i + 1, "str"
    while j < len(src):
        if src[j] == "\\":
            j += 2
        elif src[j] == "`":
            return kind, j + 1
        elif src.startswith("${", j):
            kind, j = "tpl", _scan(src, j + 2, "javascript", closing=True)[1]
        else:
            j += 1
    raise Unreadable("an unterminated template")


def pairs(tokens: list[Token]) -> dict[int, int]:
    """Each bracket's index -> its partner's, both ways."""
    out, stack = {}, []
    for i, token in enumerate(tokens):
        if token.kind != "p":
            continue
        if token.text in OPEN:
            stack.append(i)
        elif token.text in CLOSE:
            if not stack or OPEN.index(tokens[stack[-1]].text) != CLOSE.index(token.text):
                raise Unreadable(f"an unbalanced {token.text!r}")
            out[stack[-1]], out[i] = i, stack[-1]
            stack.pop()
    if stack:
        raise Unreadable("an unclosed bracket")
    return out


def split(tokens: list[Token], lo: int, hi: int, match: dict[int, int], sep: str = ",") -> list[tuple[int, int]]:
    """The ranges of tokens[lo:hi] between `sep`s outside brackets (a trailing one ends nothing)."""
    parts, start, i = [], lo, lo
    while i < hi:
        if tokens[i].kind == "p" and tokens[i].text in OPEN:
            i = match[i] + 1
            continue
        if tokens[i].kind == "p" and tokens[i].text == sep:
            parts.append((start, i))
            start = i + 1
        i += 1
    if start < hi:
        parts.append((start, hi))
    return parts
