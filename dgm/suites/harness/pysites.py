"""Where a Python test states a literal expected value that an honest fix must produce, and
which of those a passing run is sure to reach: `assert X == LIT` (either side),
`assert X == pytest.approx(LIT)`, `assert X in (LIT, ...)`, and unittest's
`self.assertEqual(X, LIT)` family, `assertAlmostEqual` and `assertIn`. Only statements at
the top of the test's body (or inside a `with` that cannot swallow an exception) before any
statement that could leave the test early count, so a passing run of the test reaches
every one of them."""

from __future__ import annotations

import ast
from dataclasses import dataclass

EQUAL = {
    "assertEqual", "assertEquals", "assertListEqual", "assertTupleEqual", "assertDictEqual",
    "assertSetEqual", "assertSequenceEqual", "assertMultiLineEqual", "assertCountEqual",
}  # fmt: skip
ALMOST = {"assertAlmostEqual", "assertAlmostEquals"}
LEAVES = {"skip", "skipTest", "xfail", "exit", "_exit", "importorskip", "fail"}  # calls that end a test early
SWALLOW = ("raises", "Raises", "suppress", "ExitStack", "catch", "Catch")  # a with that may stop its body early


@dataclass(frozen=True)
class Site:
    """One literal expectation: where its source is (1-based line, UTF-8 column), its value,
    `member` for `x in LITERAL`, and how close a number must be to count as equal."""

    start: tuple[int, int]
    end: tuple[int, int]
    value: object
    member: bool = False
    tolerance: float = 0.0


def literal(node: ast.AST) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _site(node: ast.AST, value, member: bool = False, tolerance: float = 0.0) -> Site:
    return Site((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset), value, member, tolerance)


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _number(node: ast.AST | None, default: float) -> float:
    ok, value = literal(node) if node is not None else (False, None)
    return float(value) if ok and isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _approx(node: ast.AST) -> Site | None:
    """`pytest.approx(LIT, rel=..., abs=...)`: the literal, with the tolerance it allows."""
    if not (isinstance(node, ast.Call) and _name(node.func) == "approx" and node.args):
        return None
    ok, value = literal(node.args[0])
    if not ok:
        return None
    kw = {k.arg: k.value for k in node.keywords}
    numbers = [abs(v) for v in _flat(value) if isinstance(v, (int, float)) and not isinstance(v, bool)]
    rel, absolute = _number(kw.get("rel"), 1e-6), _number(kw.get("abs"), 1e-12)
    return _site(node.args[0], value, tolerance=max([rel * n for n in numbers] + [absolute]))


def _flat(value):
    if isinstance(value, dict):
        value = value.values()
    if isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _flat(item)
    else:
        yield value


def _compare(test: ast.AST) -> Site | None:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right, op = test.left, test.comparators[0], test.ops[0]
    lit_left, lit_right = literal(left), literal(right)
    if isinstance(op, ast.In):
        ok, value = lit_right
        return _site(right, value, member=True) if ok and not lit_left[0] else None
    if not isinstance(op, ast.Eq):
        return None
    for side, other in ((right, left), (left, right)):
        approx = _approx(side)
        if approx is not None and not literal(other)[0]:
            return approx
    if lit_right[0] != lit_left[0]:
        node, value = (right, lit_right[1]) if lit_right[0] else (left, lit_left[1])
        return _site(node, value)
    return None


def _unittest(call: ast.AST) -> Site | None:
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return None
    method, args = call.func.attr, call.args
    if method == "assertIn" and len(args) >= 2:
        ok, value = literal(args[1])
        return _site(args[1], value, member=True) if ok and not literal(args[0])[0] else None
    if method not in EQUAL | ALMOST or len(args) < 2:
        return None
    (ok0, v0), (ok1, v1) = literal(args[0]), literal(args[1])
    if ok0 == ok1:
        return None
    tolerance = 0.0
    if method in ALMOST:
        kw = {k.arg: k.value for k in call.keywords}
        places = kw.get("places", args[2] if len(args) > 2 else None)
        tolerance = _number(kw.get("delta"), 0.5 * 10 ** -_number(places, 7))
    node, value = (args[1], v1) if ok1 else (args[0], v0)
    return _site(node, value, tolerance=tolerance)


def _leaves_early(statement: ast.AST) -> bool:
    """Could this statement end the test without failing it (a return, a skip, an xfail)?"""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False  # a definition runs none of its body
    for node in _walk_own(statement):
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, ast.Call) and _name(node.func) in LEAVES:
            return True
    return False


def _walk_own(node: ast.AST):
    """ast.walk, not entering nested functions, classes or lambdas."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.append(child)


def _swallows(statement: ast.With | ast.AsyncWith) -> bool:
    return any(word in ast.dump(item.context_expr) for item in statement.items for word in SWALLOW)


def sites(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Site]:
    """The literal expectations a passing run of `function` is sure to check, in order."""
    found: list[Site] = []

    def scan(body) -> bool:  # False once a statement may leave the test early
        for statement in body:
            if isinstance(statement, (ast.With, ast.AsyncWith)) and not _swallows(statement):
                if not scan(statement.body):
                    return False
                continue
            if _leaves_early(statement):
                return False
            site = None
            if isinstance(statement, ast.Assert):
                site = _compare(statement.test)
            elif isinstance(statement, ast.Expr):
                site = _unittest(statement.value)
            if site is not None:
                found.append(site)
        return True

    scan(function.body)
    return found
