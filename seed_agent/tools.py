"""The task agent's two tools: `bash` (a fresh process per call) and `edit` (view, create,
str_replace). Both work relative to a root directory and never raise on bad input: they
return a message the model can act on."""

import os
import signal
import subprocess
from pathlib import Path

OUTPUT_LIMIT = 10_000
TIMED_OUT = "[command timed out after"
CLIP = "\n[... output clipped: {n} more characters not shown ...]\n"


def clip(text: str, limit: int = OUTPUT_LIMIT) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + CLIP.format(n=len(text) - limit) + text[-half:]


def bash(command: str, root: Path, timeout: float = 120) -> str:
    """Run `command` with bash in `root`; the whole process group dies at the timeout."""
    proc = subprocess.Popen(
        ["bash", "-c", command],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        text=True,
        errors="replace",
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return clip(out) + f"\n{TIMED_OUT} {timeout:g}s and was killed]"
    return f"[exit code {proc.returncode}]\n" + clip(out)


def _resolve(root: Path, path: str) -> Path:
    p = Path(path)
    return p if p.is_absolute() else root / p


def view(root: Path, path: str, view_range: list[int] | None = None) -> str:
    target = _resolve(root, path)
    if target.is_dir():
        entries = sorted(str(p.relative_to(target)) for p in target.rglob("*") if ".git" not in p.parts)
        return clip("\n".join(entries[:500]))
    try:
        lines = target.read_text(errors="replace").splitlines()
    except OSError as exc:
        return f"error: cannot read {path}: {exc.strerror}"
    start, end = (view_range or [1, len(lines)])[:2]
    end = len(lines) if end in (-1, None) else end
    shown = lines[max(start, 1) - 1 : end]
    return clip("\n".join(f"{n:6}\t{line}" for n, line in enumerate(shown, start=max(start, 1))))


def create(root: Path, path: str, file_text: str) -> str:
    target = _resolve(root, path)
    target.parent.mkdir(parents=True, exist_ok=True)
    existed = target.exists()
    target.write_text(file_text)
    return f"{'overwrote' if existed else 'created'} {path} ({len(file_text.splitlines())} lines)"


def str_replace(root: Path, path: str, old_str: str, new_str: str) -> str:
    target = _resolve(root, path)
    try:
        text = target.read_text()
    except OSError as exc:
        return f"error: cannot read {path}: {exc.strerror}"
    count = text.count(old_str)
    if count == 0:
        return f"error: old_str was not found in {path}; view the file and copy the text exactly"
    if count > 1:
        lines, at = [], 0
        for _ in range(count):
            at = text.index(old_str, at)
            lines.append(text.count("\n", 0, at) + 1)
            at += 1
        return f"error: old_str matches {count} times in {path} (lines {', '.join(map(str, lines))}); make it unique"
    target.write_text(text.replace(old_str, new_str, 1))
    line = text[: text.index(old_str)].count("\n") + 1
    return f"replaced 1 occurrence in {path} at line {line}"


def edit(root: Path, command: str, path: str, **kw) -> str:
    if command == "view":
        return view(root, path, kw.get("view_range"))
    if command == "create":
        return create(root, path, kw.get("file_text", ""))
    if command == "str_replace":
        return str_replace(root, path, kw.get("old_str", ""), kw.get("new_str", ""))
    return f"error: unknown edit command {command!r}; use view, create or str_replace"


SCHEMAS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a bash command in the working directory (a fresh process each call).",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "edit",
            "description": "View a file or directory (view_range [start, end]), create a file, or replace text "
            "that occurs exactly once (str_replace with old_str and new_str).",
            "parameters": {
                "type": "object",
                "properties": {
                    "command": {"type": "string", "enum": ["view", "create", "str_replace"]},
                    "path": {"type": "string"},
                    "view_range": {"type": "array", "items": {"type": "integer"}},
                    "file_text": {"type": "string"},
                    "old_str": {"type": "string"},
                    "new_str": {"type": "string"},
                },
                "required": ["command", "path"],
            },
        },
    },
]
