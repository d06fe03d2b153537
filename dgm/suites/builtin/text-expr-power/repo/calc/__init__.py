"""calc: a safe arithmetic expression evaluator for user-supplied formulas.

    >>> from calc import evaluate
    >>> evaluate("price * (1 + vat / 100)", {"price": 80, "vat": 25})
    100.0

Supports numbers, variables, ``+ - * / // %``, unary signs, parentheses and a
few functions (``abs``, ``min``, ``max``, ``round``, ``sqrt``). No attribute
access, no calls to arbitrary Python.
"""

from .errors import CalcError
from .evaluator import FUNCTIONS, evaluate, evaluate_tree
from .parser import parse
from .tokens import Token, tokenize

__all__ = ["FUNCTIONS", "CalcError", "Token", "evaluate", "evaluate_tree", "parse", "tokenize"]
