"""Whole-file writes from models that send only part of a file. A Python write that keeps
everything the file it replaces names (its top-level definitions, assignments and imports,
and the methods of each class it keeps) is taken as the whole file. One that leaves any of
it out is taken as the parts it does send: each definition or top-level assignment
replaces the one of the same name (a method: the method in its class), new ones are
added, and its imports join the file's. Small models often start a "whole" file late (no
docstring, no imports) or leave out the methods they did not change; what they leave out
is kept, not deleted. Anything that does not parse is written as it is (the check then
says so)."""

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


def _name(node: ast.AST) -> str | None:
    """The name a definition, or an assignment to one plain name, binds."""
    if isinstance(node, DEFS):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def _named(body: list[ast.stmt], name: str) -> ast.AST | None:
    return next((n for n in body if _name(n) == name), None)


def _names(body: list[ast.stmt]) -> set[str]:
    """What a body binds by definition, assignment or import."""
    names = {_name(n) for n in body} - {None}
    for node in body:
        if isinstance(node, IMPORTS):
            names.update(a.asname or a.name.split(".")[0] for a in node.names)
    return names


def _leaves_out(old: ast.Module, new: ast.Module) -> bool:
    """Whether `new` leaves out a name `old` binds at its top level, or a method of a class
    both have."""
    if _names(old.body) - _names(new.body):
        return True
    kept = {n.name: {m.name for m in n.body if isinstance(m, DEFS)} for n in new.body if isinstance(n, ast.ClassDef)}
    return any(
        {m.name for m in c.body if isinstance(m, DEFS)} - kept[c.name]
        for c in old.body
        if isinstance(c, ast.ClassDef) and c.name in kept
    )


class _Splice:
    """Edits to the old file's lines: (first line, last line, text); first = last + 1 inserts."""

    def __init__(self, old: str):
        self.lines = old.splitlines(True)
        self.edits: list[tuple[int, int, str]] = []
        self.tail: list[str] = []

    def put(self, body: list[ast.stmt], node: ast.AST, new_lines: list[str], after: ast.AST | None, indent: str):
        """`node` over its namesake in `body`, else after `after` (else at the file's end)."""
        old = _named(body, _name(node))
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
    new_defs = [n for n in new_tree.body if _name(n) is not None]
    if (new_text == new and not _leaves_out(old_tree, new_tree)) or not new_defs:
        return new
    new_lines, splice = new_text.splitlines(True), _Splice(old)
    classes = {n.name: n for n in old_tree.body if isinstance(n, ast.ClassDef)}
    last_import = next((n for n in reversed(old_tree.body) if isinstance(n, IMPORTS)), None)
    for node in new_defs:
        if not isinstance(node, DEFS):  # a top-level assignment: over its namesake, else after the imports
            splice.put(old_tree.body, node, new_lines, last_import, "")
            continue
        alone = not isinstance(node, ast.ClassDef) and _named(old_tree.body, node.name) is None
        owner = _owner(classes, node.name) if alone else None
        if owner is not None:  # a method sent on its own
            splice.put(owner.body, node, new_lines, owner.body[-1], " " * owner.body[0].col_offset)
        elif isinstance(node, ast.ClassDef) and node.name in classes:
            owner = classes[node.name]
            for member in (m for m in node.body if _name(m) is not None):
                splice.put(owner.body, member, new_lines, owner.body[-1], " " * owner.body[0].col_offset)
        else:
            splice.put(old_tree.body, node, new_lines, None, "")
    have = {ast.unparse(n) for n in old_tree.body if isinstance(n, IMPORTS)}
    missing = "".join(
        _text(new_lines, n) for n in new_tree.body if isinstance(n, IMPORTS) and ast.unparse(n) not in have
    )
    if missing and last_import is not None:
        splice.edits.append((last_import.end_lineno + 1, last_import.end_lineno, missing))
    elif missing:
        splice.edits.append((1, 0, missing))
    return splice.result()


def _owner(classes: dict[str, ast.ClassDef], name: str) -> ast.ClassDef | None:
    """The one class that has a method named `name`, if exactly one does."""
    found = [c for c in classes.values() if _named(c.body, name) is not None]
    return found[0] if len(found) == 1 else None
