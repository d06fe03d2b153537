"""Recursive-descent parser producing a small tree of tuples.

Grammar (lowest precedence first)::

    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "/" | "//" | "%") unary)*
    unary   := ("+" | "-") unary | primary
    primary := NUMBER | NAME | NAME "(" [expr ("," expr)*] ")" | "(" expr ")"

Tree nodes::

    ("num", value)  ("var", name)  ("neg", node)  ("call", name, [args])
    ("binop", op, left, right)
"""

from __future__ import annotations

from .errors import CalcError
from .tokens import COMMA, END, LPAREN, NAME, NUMBER, OP, RPAREN, Token, tokenize


class _Parser:
    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.index = 0

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def at_op(self, *ops: str) -> bool:
        return self.current.kind == OP and self.current.text in ops

    def expect(self, kind: str) -> Token:
        if self.current.kind != kind:
            raise CalcError(f"expected {kind.lower()}, got {self.current.text or 'end'!r}",
                            self.current.pos)
        return self.advance()

    def expr(self):
        node = self.term()
        while self.at_op("+", "-"):
            op = self.advance().text
            node = ("binop", op, node, self.term())
        return node

    def term(self):
        node = self.unary()
        while self.at_op("*", "/", "//", "%"):
            op = self.advance().text
            node = ("binop", op, node, self.unary())
        return node

    def unary(self):
        if self.at_op("-"):
            self.advance()
            return ("neg", self.unary())
        if self.at_op("+"):
            self.advance()
            return self.unary()
        return self.primary()

    def primary(self):
        token = self.current
        if token.kind == NUMBER:
            self.advance()
            text = token.text
            value = float(text) if any(c in text for c in ".eE") else int(text)
            return ("num", value)
        if token.kind == NAME:
            self.advance()
            if self.current.kind == LPAREN:
                self.advance()
                args = []
                if self.current.kind != RPAREN:
                    args.append(self.expr())
                    while self.current.kind == COMMA:
                        self.advance()
                        args.append(self.expr())
                self.expect(RPAREN)
                return ("call", token.text, args)
            return ("var", token.text)
        if token.kind == LPAREN:
            self.advance()
            node = self.expr()
            self.expect(RPAREN)
            return node
        raise CalcError(f"unexpected {token.text or 'end of expression'!r}", token.pos)


def parse(source: str):
    """Parse ``source`` into a tree (see the module docstring)."""
    parser = _Parser(tokenize(source))
    tree = parser.expr()
    if parser.current.kind != END:
        raise CalcError(f"unexpected {parser.current.text!r}", parser.current.pos)
    return tree
