"""The coding loop: one linear list of messages is the agent's whole state."""

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from .fm import BudgetExhausted, Model, ModelError
from .protocol import execute, refused


@dataclass
class Limits:
    max_steps: int = 30
    max_tokens: int = 300_000
    bash_timeout: float = 120.0
    max_repeats: int = 3  # the same reply this many times in a row: the model is stuck
    retry_temperature: float = 0.7  # after a refused action: greedy decoding would repeat it
    max_refused: int = 6  # this many refused replies in a row (left out of the context): stuck


@dataclass
class LoopResult:
    status: str  # done | step_limit | token_limit | budget | model_error | stuck
    steps: int
    messages: list[dict] = field(default_factory=list)
    detail: str = ""


class Trajectory:
    """Appends one JSON line per message, flushed at once, so a killed run keeps its trace."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(path, "a")  # noqa: SIM115 - held for the whole run, closed by close()

    def write(self, step: int, message: dict, **extra) -> None:
        self.fh.write(json.dumps({"step": step, "time": round(time.time(), 3), **message, **extra}) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def _repeats(messages: list[dict]) -> int:
    """How many times in a row the last assistant reply was given."""
    replies = [(m.get("content"), str(m.get("tool_calls"))) for m in messages if m["role"] == "assistant"]
    count = 0
    for reply in reversed(replies):
        if reply != replies[-1]:
            break
        count += 1
    return count


def _with_note(messages: list[dict], note: str) -> list[dict]:
    """What the model is sent: the messages, the note (if any) added to the last user turn."""
    if not note:
        return messages
    if messages[-1]["role"] == "user":
        return [*messages[:-1], {**messages[-1], "content": f"{messages[-1]['content']}\n\n{note}"}]
    return [*messages, {"role": "user", "content": note}]


def run(model: Model, protocol, system: str, task: str, root: Path, out_dir: Path, limits: Limits) -> LoopResult:
    messages = [{"role": "system", "content": system + protocol.instructions()}, {"role": "user", "content": task}]
    trajectory = Trajectory(out_dir / "trajectory.jsonl")
    for message in messages:
        trajectory.write(0, message, protocol=protocol.name)
    status, detail, step, temperature = "step_limit", "", 0, 0.0
    note = ""  # why the last reply was left out, for protocols that forget refused replies
    refusals = 0
    try:
        for step in range(1, limits.max_steps + 1):
            if model.usage.total >= limits.max_tokens:
                status = "token_limit"
                break
            try:
                reply = model.chat(_with_note(messages, note), protocol.tools(), temperature)
            except BudgetExhausted as exc:
                status, detail = "budget", str(exc)
                break
            except ModelError as exc:
                status, detail = "model_error", str(exc)
                break
            trajectory.write(step, reply, tokens=model.usage.total)
            if _repeats([*messages, reply]) >= limits.max_repeats:
                status, detail = "stuck", "the model repeated the same reply"
                break
            actions = protocol.actions(reply)
            if any(a.tool == "finish" for a in actions):
                messages.append(reply)
                status = "done"
                break
            outputs = [execute(action, root, limits.bash_timeout) for action in actions]
            observations = [protocol.observation(a, out) for a, out in zip(actions, outputs, strict=True)]
            for observation in observations:
                trajectory.write(step, observation)
            refusals = refusals + 1 if outputs and all(map(refused, outputs)) else 0
            if refusals and protocol.forgets_refused:
                shown = observations[-1]["content"].removeprefix("Result:\n")  # with what the protocol adds
                note = "Your last reply was not used: " + shown.removeprefix("error: ")
                if refusals >= limits.max_refused:
                    status, detail = "stuck", f"{refusals} replies in a row were refused"
                    break
            else:
                messages += [reply, *observations]
                note = ""
            temperature = min(1.0, limits.retry_temperature + 0.1 * (refusals - 1)) if refusals else 0.0
            if any(out.startswith("error:") for out in outputs) and not refusals:
                temperature = limits.retry_temperature
    finally:
        trajectory.write(step, {"role": "dgm", "content": f"loop ended: {status} {detail}".strip()})
        trajectory.close()
    return LoopResult(status, step, messages, detail)
