"""How the model asks for actions: native tool calls, or a plain-text protocol for models
that cannot drive tool calls (whole-file writes, bash blocks, DONE). Weak models write a
file in many ways: a FILE: block, a code block right after naming the file, or a block of
the functions they changed; all of them are writes, and a partial Python file is merged
into the one it names (merge.py)."""

import ast
import difflib
import json
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import tools
from .merge import merge

PROMPTS = Path(__file__).parent / "prompts"


@dataclass
class Action:
    tool: str  # bash | edit | write | finish | none
    args: dict = field(default_factory=dict)
    call_id: str | None = None


def execute(action: Action, root: Path, bash_timeout: float) -> str:
    if action.tool == "bash":
        return tools.bash(action.args.get("command", ""), root, bash_timeout)
    if action.tool == "edit":
        args = dict(action.args)
        return tools.edit(root, args.pop("command", ""), args.pop("path", ""), **args)
    if action.tool == "write":
        return write_whole_file(root, action.args["path"], action.args["content"])
    if action.tool == "none":
        return action.args.get("error", "No action found.")
    return f"error: unknown tool {action.tool!r}"


TEST_FILE = re.compile(r"(^|/)(tests?/|test_[^/]*$|[^/]*_test\.\w+$|[^/]*\.(test|spec)\.\w+$|[^/]*Tests?\.java$)")


def top_level_names(source: str) -> set[str]:
    """What a module defines, imports or assigns at its top level."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def code_of(source: str) -> str:
    """A module's code without its docstrings and comments (comments never reach the AST)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


RESENT = "it is the code the file already holds"


def refusal(path: str, old: str, content: str, changed: bool = False) -> str | None:
    """Why a write is refused: a test file (hidden tests judge the work, and weak models
    "fix" tests), Python that does not parse, Python that keeps none of the names the file
    had (a placeholder or a fragment where the whole file was meant), or Python whose code
    is unchanged (only comments or docstrings differ). `changed`: the file already differs
    from the repository's base, so an unchanged write is the model's own last write sent
    again, not a sign that nothing was fixed."""
    if TEST_FILE.search(path):
        return f"error: {path} was NOT written: it is a test file. Change the source code, not the tests."
    if not path.endswith(".py"):
        return None
    try:
        kept = top_level_names(content)
    except SyntaxError as exc:
        return f"error: {path} was NOT written: line {exc.lineno}: {exc.msg}. Send the corrected code again."
    try:
        had = top_level_names(old)
    except SyntaxError:
        return None
    if had and not had & kept:
        return (
            f"error: {path} was NOT written: your content keeps none of what the file defines "
            f"({', '.join(sorted(had)[:8])}). Send the complete new file: every line, with your change made."
        )
    if old and code_of(old) == code_of(content) and changed:
        return f"error: {path} was NOT written: {RESENT} since your last write of it, so it changes nothing."
    if old and code_of(old) == code_of(content):
        return (
            f"error: {path} was NOT written: it changes no code, only comments or docstrings, so nothing "
            "is fixed yet. Find the code that causes the problem and change it."
        )
    return None


def write_whole_file(root: Path, path: str, content: str) -> str:
    """Replace a file with new content (a partial Python file: merged into it), refusing test
    files, Python that does not parse and Python that keeps nothing of the file; show the
    model the diff, and the visible tests' verdict. A write after which the tests cannot
    even be collected, while without it they can, is undone and refused: a weak model that
    breaks an import (a module importing itself, a name it removed) otherwise works on a
    repository where nothing runs, and that broken state is what gets graded. So is a write
    after which the tests fail while without it they pass: the repository's own tests are
    graded again with the hidden ones, and a weak model left with its breaking write in
    view sends it again and again instead of another change. (The price: a fix over several
    files whose every single-file step fails the tests cannot be made on this protocol; of
    the 45 built-in tasks' reference fixes, one, a hard one, is like that.)"""
    target = root / path if not Path(path).is_absolute() else Path(path)
    before = target.read_bytes() if target.exists() else None  # put back as it was if the write is undone
    old = before.decode(errors="replace") if before is not None else ""
    if path.endswith(".py") and old:
        content = merge(old, content)
    base = _base(root, path)
    refused = refusal(path, old, content, changed=base is not None and base != before)
    if refused and RESENT in refused:
        tests = tools.bash(TESTS, root, TEST_TIMEOUT)
        if tests.startswith("[exit code 0]"):
            return f"{refused} The repository's tests pass, as they may have before your change."
        return tools.clip(f"{refused} With it the repository's tests still fail:\n{tests}\nChange the code further.")
    if refused:
        return refused
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content)
    diff = "".join(difflib.unified_diff(old.splitlines(True), content.splitlines(True), f"a/{path}", f"b/{path}"))
    report = f"wrote {path}; the change:\n{diff or '(no change)'}"
    if path.endswith(".py") and any(root.rglob("test_*.py")):
        tests = tools.bash(TESTS, root, TEST_TIMEOUT)
        verdict = tests.split("\n", 1)[0]
        if verdict in NOT_RUN:
            if _passes_without(root, target, before, COLLECT):
                return tools.clip(
                    f"error: {path} was NOT written: with it the tests cannot even import the code (without it "
                    f"they can):\n{tests}\nSend {path} again with that fixed."
                )
            target.write_text(content)  # they could not before it either: the write stays
        elif broken(tests) and _passes_without(root, target, before, TESTS):
            return tools.clip(
                f"error: {path} was NOT written: with it the repository's tests fail (or do not finish), and "
                f"without it they pass:"
                f"\n{tests}\n{path} is as it was. They are checked again after the issue is fixed, so they must "
                "keep passing: fix the issue with a change that breaks none of them (a fix over several files: "
                "first the file that keeps them passing)."
            )
        elif broken(tests):
            target.write_text(content)  # they failed before it too: the write stays
        report += f"\nThe repository's tests now:\n{tests}"
    return tools.clip(report)


# No .pyc files: a file put back within the same second and at the same size as the
# write it undoes would otherwise be run from the write's cached bytecode.
NO_BYTECODE = "PYTHONDONTWRITEBYTECODE=1"
TESTS = f"{NO_BYTECODE} python3 -m pytest -q -x -p no:cacheprovider 2>&1 | tail -n 15; exit ${{PIPESTATUS[0]}}"
TEST_TIMEOUT = 120.0  # seconds the repository's tests may take after a write
COLLECT = f"{NO_BYTECODE} python3 -m pytest -q --collect-only -p no:cacheprovider"
# pytest's exit status when the tests could not be run at all: collection failed (an import
# broke), an internal error, or a conftest.py that does not load.
NOT_RUN = {f"[exit code {code}]" for code in (2, 3, 4)}
FAILED = "[exit code 1]"  # the tests ran, and one failed


def broken(tests: str) -> bool:
    """Whether the tests' output says one failed, or that they did not finish (a write that
    makes a loop endless: the tests hang to the timeout, and so would the hidden ones)."""
    return tests.startswith(FAILED) or tools.TIMED_OUT in tests


def _base(root: Path, path: str) -> bytes | None:
    """The file as the repository's base commit has it (None: no git repository, or the file
    is not in it)."""
    try:
        shown = subprocess.run(
            ["git", "-c", "safe.directory=*", "-C", str(root), "show", f"HEAD:./{path}"],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return shown.stdout if shown.returncode == 0 else None


def _passes_without(root: Path, target: Path, before: bytes | None, command: str) -> bool:
    """Whether the tests' `command` succeeds with `target` as it was (`before`; None: it did
    not exist). The file is left as it was; the caller writes the new content back otherwise."""
    if before is None:
        target.unlink()
    else:
        target.write_bytes(before)
    return tools.bash(command, root, TEST_TIMEOUT).startswith("[exit code 0]")


def refused(output: str) -> bool:
    """Whether an action's output says it was not carried out (a refused write, no action)."""
    return output.startswith("No action found") or (output.startswith("error:") and " was NOT written" in output)


class ToolProtocol:
    name = "tools"
    forgets_refused = False  # a model that drives tools learns from its errors in context

    def instructions(self) -> str:
        return ""

    def tools(self) -> list[dict] | None:
        return tools.SCHEMAS

    def actions(self, message: dict) -> list[Action]:
        calls = message.get("tool_calls") or []
        if not calls:
            return [Action("finish")]
        out = []
        for call in calls:
            fn = call.get("function", {})
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except ValueError:
                args = None
            if not isinstance(args, dict):
                out.append(
                    Action("none", {"error": "error: the tool arguments were not a JSON object"}, call.get("id"))
                )
                continue
            name = fn.get("name")
            out.append(
                Action(
                    name if name in ("bash", "edit") else "none",
                    args if name in ("bash", "edit") else {"error": f"error: no tool named {name!r}"},
                    call.get("id"),
                )
            )
        return out

    def observation(self, action: Action, output: str) -> dict:
        return {"role": "tool", "tool_call_id": action.call_id, "content": output}


FILE_BLOCK = re.compile(r"^FILE:\s*(\S+)\s*\n```[^\n]*\n(.*?)^```", re.M | re.S)
BASH_BLOCK = re.compile(r"^```(?:bash|sh|shell)\s*\n(.*?)^```", re.M | re.S)
CODE_BLOCK = re.compile(r"^```([\w+-]*)[^\n]*\n(.*?)^```", re.M | re.S)
SHELLS = {"bash", "sh", "shell", "console", "text", "diff"}
PATH = re.compile(r"([\w.-]+(?:/[\w.-]+)*\.(?:py|js|ts|go|rs|java|c|cc|cpp|h|hpp|rb|toml|cfg|json|ya?ml|txt|md))\b")


def named_file(text: str, block: re.Match, root: Path | None) -> str | None:
    """The file a code block is for: named in its first line's comment, else on the two
    lines before it, else (Python) the one source file that defines what it defines."""
    body, before = block.group(2), text[: block.start()].rstrip().splitlines()[-2:]
    first = body.splitlines()[0] if body.strip() else ""
    found = PATH.findall(first) if first.lstrip().startswith(("#", "//")) else []
    found = found or PATH.findall("\n".join(before))
    if found:
        return found[-1].removeprefix("./")
    return owner(body, root) if root is not None else None


def defined(source: str) -> set[str]:
    """The functions and classes a piece of Python defines at its top level (none if it does
    not parse)."""
    try:
        return {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    except SyntaxError:
        return set()


def owner(body: str, root: Path) -> str | None:
    """The one source file that defines something `body` defines."""
    names = defined(body)
    if not names:
        return None
    pattern = re.compile(rf"^\s*(?:def|class) (?:{'|'.join(map(re.escape, names))})\b", re.M)
    owners = [rel for rel in sources(root) if pattern.search((root / rel).read_text(errors="replace"))]
    return owners[0] if len(owners) == 1 else None


def sources(root: Path) -> list[str]:
    """The repository's Python files that are not tests, relative to it."""
    found = (str(p.relative_to(root)) for p in sorted(root.rglob("*.py")))
    return [rel for rel in found if ".git" not in Path(rel).parts and not TEST_FILE.search(rel)]


def retarget(path: str, body: str, root: Path | None) -> str:
    """Where a Python write goes. A weak model names the file it last looked at, or a source
    file without its directory: its new `median` in descriptive.py, or its new top-level
    scalers.py beside the package's, would change nothing the code calls. So a path that is
    no file, but the tail of one source file's path, is that file; and a block of functions
    sent to a file that defines none of them, while one source file defines them all at its
    top level, goes to that file."""
    if root is None or not path.endswith(".py") or TEST_FILE.search(path) or Path(path).is_absolute():
        return path
    found, target, names = sources(root), root / path, defined(body)
    if not target.is_file():
        tails = [rel for rel in found if rel.endswith("/" + path.removeprefix("./"))]
        if len(tails) == 1:
            return tails[0]
    elif not names or names & defined(target.read_text(errors="replace")):
        return path
    owners = [rel for rel in found if names and names <= defined((root / rel).read_text(errors="replace"))]
    return owners[0] if len(owners) == 1 else path


class TextProtocol:
    name = "text"
    # A small model shown its own refused reply sends it again (an unchanged copy of the
    # file, a test file): the reply is left out of what it sees next, and a note says why.
    forgets_refused = True

    def __init__(self, root: Path | None = None, after_write: Callable[[], str] | None = None):
        self.root = root  # where a code block's definitions are looked up
        self.after_write = after_write  # what the model is shown after each write, besides the tests

    def instructions(self) -> str:
        return "\n\n" + (PROMPTS / "text_protocol.md").read_text()

    def tools(self) -> list[dict] | None:
        return None

    def actions(self, message: dict) -> list[Action]:
        text = message.get("content") or ""
        found = FILE_BLOCK.search(text)
        if found:
            content = found.group(2)
            return [Action("write", {"path": retarget(found.group(1), content, self.root), "content": content})]
        for block in CODE_BLOCK.finditer(text):
            path = None if block.group(1).lower() in SHELLS else named_file(text, block, self.root)
            if path:
                return [Action("write", {"path": retarget(path, block.group(2), self.root), "content": block.group(2)})]
        found = BASH_BLOCK.search(text)
        if found:
            return [Action("bash", {"command": found.group(1).strip()})]
        if text.strip().splitlines() and text.strip().splitlines()[-1].strip().upper() == "DONE":
            return [Action("finish")]
        return [Action("none", {"error": "No action found. Reply with one FILE block, one ```bash block, or DONE."})]

    def observation(self, action: Action, output: str) -> dict:
        written = action.tool == "write" and (output.startswith("wrote ") or RESENT in output)
        shown = self.after_write() if self.after_write and written else ""
        return {"role": "user", "content": f"Result:\n{output}" + (f"\n\n{shown}" if shown else "")}


def choose(
    tool_calling: bool, root: Path | None = None, after_write: Callable[[], str] | None = None
) -> ToolProtocol | TextProtocol:
    return ToolProtocol() if tool_calling else TextProtocol(root, after_write)
