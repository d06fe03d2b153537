"""Whole-file writes from models that send only part of a file. A Python write that keeps
every top-level definition of the file it replaces is taken as the whole file; one that
drops some is taken as the definitions it does send: each replaces the definition of the
same name (a method: the method in its class), new ones are added, and its imports join
the file's. Anything that does not parse is written as it is (the check then says so)."""

import ast
import textwrap

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
IMPORTS = (ast.Import, ast.ImportFrom)


def _start(node: ast.AST) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def _text(lines: list[str], node: ast.AST, indent: str = "") -> str:
    source = textwrap.indent(textwrap.dedent("".join(lines[_start(node) - 1 : node.end_lineno])), indent)
    return source if source.endswith("\n") else source + "\n"


def _parse(text: str) -> tuple[ast.Module, str] | None:
    """The module and the text it parsed from (dedented: a method sent on its own)."""
    for candidate in (text, textwrap.dedent(text)):
        try:
            return ast.parse(candidate), candidate
        except SyntaxError:
            continue
    return None


def _named(body: list[ast.stmt], name: str) -> ast.AST | None:
    return next((n for n in body if isinstance(n, DEFS) and n.name == name), None)


class _Splice:
    """Edits to the old file's lines: (first line, last line, text); first = last + 1 inserts."""

    def __init__(self, old: str):
        self.lines = old.splitlines(True)
        self.edits: list[tuple[int, int, str]] = []
        self.tail: list[str] = []

    def put(self, body: list[ast.stmt], node: ast.AST, new_lines: list[str], after: ast.AST | None, indent: str):
        """`node` over its namesake in `body`, else after `after` (else at the file's end)."""
        old = _named(body, node.name)
        if old is not None:
            self.edits.append((_start(old), old.end_lineno, _text(new_lines, node, indent)))
        elif after is not None:
            self.edits.append((after.end_lineno + 1, after.end_lineno, "\n" + _text(new_lines, node, indent)))
        else:
            self.tail.append(_text(new_lines, node))

    def result(self) -> str:
        lines = list(self.lines)
        for first, last, text in sorted(self.edits, key=lambda e: e[0], reverse=True):
            lines[first - 1 : last] = [text]
        merged = "".join(lines)
        return merged + "".join("\n\n" + t for t in self.tail) if self.tail else merged


def merge(old: str, new: str) -> str:
    """The file `old` becomes when a model sends `new` for it."""
    parsed_old, parsed_new = _parse(old), _parse(new)
    if parsed_old is None or parsed_new is None or parsed_old[1] != old:
        return new
    (old_tree, _), (new_tree, new_text) = parsed_old, parsed_new
    new_defs = [n for n in new_tree.body if isinstance(n, DEFS)]
    whole = new_text == new and {n.name for n in old_tree.body if isinstance(n, DEFS)} <= {n.name for n in new_defs}
    if whole or not new_defs:
        return new
    new_lines, splice = new_text.splitlines(True), _Splice(old)
    classes = {n.name: n for n in old_tree.body if isinstance(n, ast.ClassDef)}
    for node in new_defs:
        alone = not isinstance(node, ast.ClassDef) and _named(old_tree.body, node.name) is None
        owner = _owner(classes, node.name) if alone else None
        if owner is not None:  # a method sent on its own
            splice.put(owner.body, node, new_lines, owner.body[-1], " " * owner.body[0].col_offset)
        elif isinstance(node, ast.ClassDef) and node.name in classes:
            owner = classes[node.name]
            for member in (m for m in node.body if isinstance(m, DEFS)):
                splice.put(owner.body, member, new_lines, owner.body[-1], " " * owner.body[0].col_offset)
        else:
            splice.put(old_tree.body, node, new_lines, None, "")
    have = {ast.unparse(n) for n in old_tree.body if isinstance(n, IMPORTS)}
    missing = "".join(
        _text(new_lines, n) for n in new_tree.body if isinstance(n, IMPORTS) and ast.unparse(n) not in have
    )
    last_import = next((n for n in reversed(old_tree.body) if isinstance(n, IMPORTS)), None)
    if missing and last_import is not None:
        splice.edits.append((last_import.end_lineno + 1, last_import.end_lineno, missing))
    elif missing:
        splice.edits.append((1, 0, missing))
    return splice.result()


def _owner(classes: dict[str, ast.ClassDef], name: str) -> ast.ClassDef | None:
    """The one class that has a method named `name`, if exactly one does."""
    found = [c for c in classes.values() if _named(c.body, name) is not None]
    return found[0] if len(found) == 1 else None
