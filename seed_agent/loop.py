"""The coding loop: one linear list of messages is the agent's whole state."""

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from .fm import BudgetExhausted, Model, ModelError
from .protocol import execute


@dataclass
class Limits:
    max_steps: int = 30
    max_tokens: int = 300_000
    bash_timeout: float = 120.0
    max_repeats: int = 3  # the same reply this many times in a row: the model is stuck
    retry_temperature: float = 0.7  # after a refused action: greedy decoding would repeat it


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


def run(model: Model, protocol, system: str, task: str, root: Path, out_dir: Path, limits: Limits) -> LoopResult:
    messages = [{"role": "system", "content": system + protocol.instructions()}, {"role": "user", "content": task}]
    trajectory = Trajectory(out_dir / "trajectory.jsonl")
    for message in messages:
        trajectory.write(0, message, protocol=protocol.name)
    status, detail, step, temperature = "step_limit", "", 0, 0.0
    try:
        for step in range(1, limits.max_steps + 1):
            if model.usage.total >= limits.max_tokens:
                status = "token_limit"
                break
            try:
                reply = model.chat(messages, protocol.tools(), temperature)
            except BudgetExhausted as exc:
                status, detail = "budget", str(exc)
                break
            except ModelError as exc:
                status, detail = "model_error", str(exc)
                break
            messages.append(reply)
            trajectory.write(step, reply, tokens=model.usage.total)
            if _repeats(messages) >= limits.max_repeats:
                status, detail = "stuck", "the model repeated the same reply"
                break
            actions = protocol.actions(reply)
            if any(a.tool == "finish" for a in actions):
                status = "done"
                break
            temperature = 0.0
            for action in actions:
                output = execute(action, root, limits.bash_timeout)
                if output.startswith(("error:", "No action found")):
                    temperature = limits.retry_temperature
                observation = protocol.observation(action, output)
                messages.append(observation)
                trajectory.write(step, observation)
    finally:
        trajectory.write(step, {"role": "dgm", "content": f"loop ended: {status} {detail}".strip()})
        trajectory.close()
    return LoopResult(status, step, messages, detail)
