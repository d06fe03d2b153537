"""The calls an issue quotes (`median([1, 2, 3, 4])` returns 3.0 ...), run on the repository's
code as it is now. A weak model whose write leaves the repository's own tests passing (they
passed before the fix too: they do not cover the issue) says DONE; shown what the issue's own
calls give after its write, it can see that what the issue calls wrong still is.

A call is run only when what it starts from (a function or class) is defined at the top
level of exactly one source file, and every other name in it is defined there too: a call on
the user's own variables (`a.merge(b)`) cannot be reproduced. Calls run in a scratch
directory, with the repository first on the import path, so a call that writes files leaves
nothing in the repository; one that needs a file of the user's (an OSError) is not shown."""

import ast
import json
import re
import shlex
import tempfile
from pathlib import Path

from . import tools
from .protocol import sources

CODE_SPAN = re.compile(r"`([^`\n]+)`")
PROMPT_LINE = re.compile(r"^\s*>>>\s*(.+)$", re.M)
MAX_CALLS = 6
TIMEOUT = 20.0

# One JSON line per call: [expression, what it gave]; the value is None when the call's
# module does not import (a broken write: the tests say so) and the call is left out when it
# cannot be reproduced (a name the user defined; a file of theirs).
RUNNER = r"""
import ast, builtins, importlib, json, sys
sys.path.insert(0, sys.argv[2])
for module, expr in json.loads(sys.argv[1]):
    try:
        names = vars(importlib.import_module(module))
    except BaseException:
        print(json.dumps([expr, None]), flush=True)
        continue
    used = {n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)}
    if used - set(names) - set(dir(builtins)):
        continue
    try:
        value = repr(eval(expr, dict(names)))
    except OSError:
        continue
    except BaseException as exc:
        value = f"raises {type(exc).__name__}: {exc}"
    print(json.dumps([expr, value[:300]]), flush=True)
"""


def _start(expr: ast.expr) -> str | None:
    """The name a call chain starts from: `Series` in `Series([1]).rolling(2).mean()`."""
    while isinstance(expr, ast.Call | ast.Attribute | ast.Subscript):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def quoted_calls(statement: str) -> list[str]:
    """Expressions in code spans or `>>>` lines that call something with arguments (none
    of them elided with `...`)."""
    found = []
    for text in CODE_SPAN.findall(statement) + PROMPT_LINE.findall(statement):
        text = text.strip()
        try:
            expr = ast.parse(text, mode="eval").body
        except SyntaxError:
            continue
        nodes = list(ast.walk(expr))
        with_args = any(isinstance(n, ast.Call) and (n.args or n.keywords) for n in nodes)
        elided = any(isinstance(n, ast.Constant) and n.value is Ellipsis for n in nodes)  # `Polygon(...)`
        if with_args and not elided and _start(expr) and text not in found:
            found.append(text)
    return found[:MAX_CALLS]


def _definitions(root: Path) -> dict[str, list[str]]:
    """Each top-level function or class name of the repository's source files: the modules
    defining it (dotted, importable from the root)."""
    where: dict[str, list[str]] = {}
    for rel in map(Path, sources(root)):
        if not all(part.isidentifier() for part in rel.with_suffix("").parts):
            continue  # not importable by that name
        try:
            body = ast.parse((root / rel).read_text(errors="replace")).body
        except (SyntaxError, ValueError):
            continue
        module = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                where.setdefault(node.name, []).append(module)
    return where


def runnable(statement: str, root: Path) -> list[tuple[str, str]]:
    """(module, expression) for each quoted call whose start one source module defines."""
    calls = quoted_calls(statement)
    if not calls:
        return []
    where = _definitions(root)
    out = []
    for text in calls:
        modules = where.get(_start(ast.parse(text, mode="eval").body) or "", [])
        if len(set(modules)) == 1:
            out.append((modules[0], text))
    return out


def run(calls: list[tuple[str, str]], root: Path) -> dict[str, str | None]:
    """What each call gives on the code as it is now (None: its module does not import)."""
    if not calls:
        return {}
    args = " ".join(shlex.quote(a) for a in (RUNNER, json.dumps(calls), str(root.resolve())))
    with tempfile.TemporaryDirectory(prefix="probe-") as scratch:
        out = tools.bash(f"PYTHONDONTWRITEBYTECODE=1 python3 -c {args}", Path(scratch), TIMEOUT)
    results = {}
    for line in out.splitlines()[1:]:
        try:
            expr, value = json.loads(line)
        except ValueError:
            continue  # what the code printed itself, or a clipped line
        if isinstance(expr, str) and (value is None or isinstance(value, str)):
            results[expr] = value
    return results


def reproducible(calls: list[tuple[str, str]], given: dict[str, str | None]) -> list[tuple[str, str]]:
    """The calls that ran on the repository as it is given (`given`: their `run`)."""
    return [(module, expr) for module, expr in calls if given.get(expr) is not None]


def report(results: dict[str, str | None]) -> str:
    """Results as the model is shown them, one `expr -> value` per line ("" when none)."""
    return "\n".join(f"{expr} -> {value}" for expr, value in results.items() if value is not None)


SAME = "   (the same as before any change)"


def after_change(calls: list[tuple[str, str]], root: Path, before: dict[str, str | None]) -> str:
    """What the calls give now, each result the code gave before any change marked so: a
    write that changes none of them has not fixed what the issue reports."""
    now = {expr: value for expr, value in run(calls, root).items() if value is not None}
    if not now:
        return ""
    lines = "\n".join(f"{expr} -> {value}{SAME if before.get(expr) == value else ''}" for expr, value in now.items())
    if all(before.get(expr) == value for expr, value in now.items()):
        return (
            "The calls the issue quotes give what they gave before your changes, so what the issue reports is "
            f"not fixed yet:\n{lines}\nChange the code that these calls run."
        )
    return (
        f"The calls the issue quotes, run on the code now:\n{lines}\n"
        "If one still gives what the issue says is wrong, the issue is not fixed yet: change the code further."
    )
