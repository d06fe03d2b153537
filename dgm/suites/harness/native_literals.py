"""Literal values in the brace languages' tests: what a number, string or character token
means (each language's escapes and suffixes), whether a twin may change it, and one
printer that writes it back, so the original's literal looks exactly like its twins'.
A token this cannot read exactly (an escape it does not know, a hexadecimal number, a
prefixed C++ string) is no literal: it stays as it is and gets no twin."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from .native_tokens import Token

SUFFIXES = {
    "rust": (r"(?:[ui](?:8|16|32|64|128|size))?", r"f32|f64"),
    "java": (r"[lL]?", r"[fFdD]"),
    "cpp": (r"(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?", r"[fFlL]"),
    "javascript": (r"n?", r"(?!)"),
    "go": (r"", r"(?!)"),
}
SEPARATOR = {"rust": "_", "java": "_", "javascript": "_", "cpp": "'", "go": "_"}
SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0"}
EXTRA = {"javascript": "bfv`$", "java": "bfs", "cpp": "abfv?", "rust": "", "go": "abfv"}
LIMITS = [2**b - 1 for b in (7, 8, 15, 16, 31, 32, 63, 64, 127, 128)]  # the integer types' largest values


@dataclass(frozen=True)
class Leaf:
    """One literal a twin may change: where it is (character offsets), what it means, and
    how to write another value in its place (quote, raw-string hashes, numeric suffix)."""

    start: int
    end: int
    value: object
    lang: str
    kind: str  # num, str, chr
    quote: str = ""
    hashes: str | None = None  # a Rust raw string's #s
    suffix: str = ""

    def render(self, value) -> str:
        if self.kind == "num":
            text = repr(value) if isinstance(value, float) else str(value)
            return text + self.suffix
        if self.quote == "`" and self.lang == "go":
            return f"`{value}`"
        if self.hashes is not None:
            return f'r{self.hashes}"{value}"{self.hashes}'
        return self.quote + "".join(_escape(c, self.quote, self.lang) for c in value) + self.quote


def _escape(c: str, quote: str, lang: str) -> str:
    if c == "\\" or c == quote or (c == "$" and quote == "`"):
        return "\\" + c
    if c in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[c]
    if lang == "javascript" and c in "\u2028\u2029":
        return f"\\u{ord(c):04x}"
    if ord(c) >= 0x20 and c != "\x7f":
        return c
    if lang == "rust":
        return f"\\u{{{ord(c):x}}}"
    if lang == "go":
        return f"\\x{ord(c):02x}"
    return f"\\{ord(c):03o}" if lang in ("java", "cpp") else f"\\u{ord(c):04x}"


def number(tokens: list[Token], lang: str, k: int) -> Leaf | None:
    """`-`? NUMBER as a leaf a twin may change, or None."""
    sign = tokens[0].text == "-" and tokens[0].kind == "p"
    if len(tokens) != 1 + sign or tokens[-1].kind != "num":
        return None
    ints, floats = SUFFIXES[lang]
    text = tokens[-1].text.replace(SEPARATOR[lang], "")
    m = re.fullmatch(rf"(\d+)(\.\d*)?([eE][+-]?\d+)?({ints}|{floats})?", text)
    if not m or (len(m.group(1)) > 1 and m.group(1).startswith("0")):
        return None  # an octal, hexadecimal or binary number, or a suffix of another kind
    suffix = m.group(4) or ""
    real = bool(m.group(2) or m.group(3) or re.fullmatch(floats, suffix))
    if (real and suffix and not re.fullmatch(floats, suffix)) or (sign and not real and int(m.group(1)) == 0):
        return None  # an integer suffix on a real number, or -0
    if lang == "cpp" and real and not (m.group(2) or m.group(3)):
        return None
    body = text[: len(text) - len(suffix)] if suffix else text
    value = float(body) if real else int(body)
    value = -value if sign else value
    if not _changeable(value, lang, k, suffix == "n"):
        return None
    return Leaf(tokens[0].start, tokens[-1].end, value, lang, "num", suffix=suffix)


def _changeable(value, lang: str, k: int, big: bool) -> bool:
    if isinstance(value, float):
        if value == 0 and str(value).startswith("-"):
            return False
        digits = len(Decimal(repr(abs(value))).normalize().as_tuple().digits)
        return lang == "javascript" or digits <= 6  # a float type (f32) tells six digits apart
    if lang == "javascript":
        return big or abs(value) + k < 2**53
    if lang == "java" and value == -(2**31):
        return False
    return not any(value <= b < value + k or -value <= b + 1 < -value + k for b in LIMITS)


def string(tokens: list[Token], lang: str) -> Leaf | None:
    """A string literal (C++: adjacent ones, joined) or a character literal, or None."""
    if not tokens or any(t.kind not in ("str", "chr") for t in tokens) or (len(tokens) > 1 and lang != "cpp"):
        return None
    if len(tokens) > 1 and any(t.kind != "str" for t in tokens):
        return None
    first, parts = tokens[0].text, []
    raw = re.fullmatch(r'r(#*)"(.*)"\1', first, re.S) if lang == "rust" else None
    if raw:
        return Leaf(tokens[0].start, tokens[0].end, raw.group(2), lang, "str", '"', raw.group(1))
    if lang == "go" and first.startswith("`"):
        return None if "\r" in first else Leaf(tokens[0].start, tokens[0].end, first[1:-1], lang, "str", "`")
    for token in tokens:
        text = token.text
        if text[0] not in "\"'`" or text.startswith('"""'):
            return None  # prefixed (C++ u8"", Rust b""), raw or a text block
        value = _unescape(text[1:-1], lang)
        if value is None:
            return None
        parts.append(value)
    value, kind = "".join(parts), "chr" if tokens[0].kind == "chr" else "str"
    if kind == "chr" and len(value) != 1:
        return None
    return Leaf(tokens[0].start, tokens[-1].end, value, lang, kind, first[0])


ESCAPE = re.compile(
    r"\\(u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[0-7]{1,3}|\n\s*|.)", re.S
)


def _unescape(body: str, lang: str) -> str | None:
    units: list[str] = []
    pieces = re.split(ESCAPE, body)  # text and escapes, alternately
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            units.append(piece)
            continue
        char = _one(piece, lang)
        if char is None:
            return None
        units.append(char)
    try:
        return "".join(units).encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeError:
        return None  # a lone surrogate


def _one(escape: str, lang: str) -> str | None:
    head = escape[0]
    if escape in SIMPLE and (escape != "0" or lang not in ("java", "go")):
        return SIMPLE[escape]
    if len(escape) == 1 and head in EXTRA[lang]:
        return {"b": "\b", "f": "\f", "v": "\v", "a": "\a", "s": " "}.get(head, head)
    if head == "\n":  # a line continuation (Rust's skips the next line's indentation)
        return "" if lang == "rust" else escape[1:] if lang in ("javascript", "cpp") else None
    if head == "x" and lang in ("javascript", "rust", "go") and (lang == "javascript" or int(escape[1:], 16) < 0x80):
        return chr(int(escape[1:], 16))
    if head == "u" and escape[1:2] == "{" and lang in ("javascript", "rust"):
        code = int(escape[2:-1], 16)
        return chr(code) if code <= 0x10FFFF else None
    if head == "u" and len(escape) == 5 and lang in ("javascript", "java", "cpp", "go"):
        return chr(int(escape[1:], 16))
    if head == "U" and len(escape) == 9 and lang in ("cpp", "go"):
        code = int(escape[1:], 16)
        return chr(code) if code <= 0x10FFFF else None
    if len(escape) == 1 and lang == "javascript" and not escape.isdigit() and escape not in "xu":
        return escape  # an identity escape
    if head.isdigit() and lang in ("java", "cpp", "go") and escape.isdigit() and not set(escape) & set("89"):
        if lang == "go" and len(escape) != 3:
            return None
        code = int(escape, 8)
        return chr(code) if code < 0x80 else None  # octal bytes above 0x7f are not characters
    return None
