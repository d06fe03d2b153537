"""Evaluating parsed expression trees."""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping

from .errors import CalcError
from .parser import parse

BINARY_OPS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
}

FUNCTIONS = {
    "abs": abs,
    "min": min,
    "max": max,
    "round": round,
    "sqrt": math.sqrt,
}


def evaluate_tree(node, variables: Mapping[str, float] | None = None):
    """Value of a tree produced by :func:`calc.parse`."""
    variables = variables or {}
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "var":
        try:
            return variables[node[1]]
        except KeyError:
            raise CalcError(f"unknown variable {node[1]!r}") from None
    if kind == "neg":
        return -evaluate_tree(node[1], variables)
    if kind == "call":
        func = FUNCTIONS.get(node[1])
        if func is None:
            raise CalcError(f"unknown function {node[1]!r}")
        args = [evaluate_tree(arg, variables) for arg in node[2]]
        try:
            return func(*args)
        except (TypeError, ValueError) as exc:
            raise CalcError(f"{node[1]}(): {exc}") from None
    if kind == "binop":
        left = evaluate_tree(node[2], variables)
        right = evaluate_tree(node[3], variables)
        try:
            return BINARY_OPS[node[1]](left, right)
        except ZeroDivisionError:
            raise CalcError("division by zero") from None
    raise CalcError(f"bad tree node {kind!r}")


def evaluate(source: str, variables: Mapping[str, float] | None = None):
    """Parse and evaluate ``source`` with the given variable values."""
    return evaluate_tree(parse(source), variables)
