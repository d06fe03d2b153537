"""How the model asks for actions: native tool calls, or a plain-text protocol for models
that cannot drive tool calls (whole-file writes, bash blocks, DONE)."""

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import tools

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


def write_whole_file(root: Path, path: str, content: str) -> str:
    """Replace a file with new content and show the model the diff it amounts to."""
    target = root / path if not Path(path).is_absolute() else Path(path)
    old = target.read_text(errors="replace") if target.exists() else ""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content)
    diff = "".join(difflib.unified_diff(old.splitlines(True), content.splitlines(True), f"a/{path}", f"b/{path}"))
    return tools.clip(f"wrote {path}; the change:\n{diff or '(no change)'}")


class ToolProtocol:
    name = "tools"

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


class TextProtocol:
    name = "text"

    def instructions(self) -> str:
        return "\n\n" + (PROMPTS / "text_protocol.md").read_text()

    def tools(self) -> list[dict] | None:
        return None

    def actions(self, message: dict) -> list[Action]:
        text = message.get("content") or ""
        found = FILE_BLOCK.search(text)
        if found:
            content = found.group(2)
            return [Action("write", {"path": found.group(1), "content": content})]
        found = BASH_BLOCK.search(text)
        if found:
            return [Action("bash", {"command": found.group(1).strip()})]
        if text.strip().splitlines() and text.strip().splitlines()[-1].strip().upper() == "DONE":
            return [Action("finish")]
        return [Action("none", {"error": "No action found. Reply with one FILE block, one ```bash block, or DONE."})]

    def observation(self, action: Action, output: str) -> dict:
        return {"role": "user", "content": f"Result:\n{output}"}


def choose(tool_calling: bool) -> ToolProtocol | TextProtocol:
    return ToolProtocol() if tool_calling else TextProtocol()
