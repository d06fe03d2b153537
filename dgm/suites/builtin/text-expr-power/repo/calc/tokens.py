"""Splitting an expression into tokens."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CalcError

NUMBER, NAME, OP, LPAREN, RPAREN, COMMA, END = (
    "NUMBER", "NAME", "OP", "LPAREN", "RPAREN", "COMMA", "END",
)

# Operators, longest first so that "//" is not read as two "/".
OPERATORS = ("//", "+", "-", "*", "/", "%")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    pos: int


def _read_number(source: str, start: int) -> int:
    """End offset of the number starting at ``start`` (digits, one dot, exponent)."""
    i = start
    seen_dot = False
    while i < len(source) and (source[i].isdigit() or (source[i] == "." and not seen_dot)):
        seen_dot = seen_dot or source[i] == "."
        i += 1
    if i < len(source) and source[i] in "eE":
        j = i + 1
        if j < len(source) and source[j] in "+-":
            j += 1
        if j < len(source) and source[j].isdigit():
            while j < len(source) and source[j].isdigit():
                j += 1
            i = j
    return i


def tokenize(source: str) -> list[Token]:
    """The tokens of ``source``, ending with an ``END`` token."""
    tokens: list[Token] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char.isspace():
            i += 1
        elif char.isdigit() or (char == "." and source[i + 1 : i + 2].isdigit()):
            end = _read_number(source, i)
            tokens.append(Token(NUMBER, source[i:end], i))
            i = end
        elif char.isalpha() or char == "_":
            end = i
            while end < len(source) and (source[end].isalnum() or source[end] == "_"):
                end += 1
            tokens.append(Token(NAME, source[i:end], i))
            i = end
        elif char == "(":
            tokens.append(Token(LPAREN, char, i))
            i += 1
        elif char == ")":
            tokens.append(Token(RPAREN, char, i))
            i += 1
        elif char == ",":
            tokens.append(Token(COMMA, char, i))
            i += 1
        else:
            for op in OPERATORS:
                if source.startswith(op, i):
                    tokens.append(Token(OP, op, i))
                    i += len(op)
                    break
            else:
                raise CalcError(f"unexpected character {char!r}", i)
    tokens.append(Token(END, "", len(source)))
    return tokens
