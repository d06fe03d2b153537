import json
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

from seed_agent import loop, protocol
from seed_agent.fm import TEXT_REPLY_TOKENS, BudgetExhausted, Model, Usage


class FakeModel:
    """Replies from a list, in order: the agent's own test stand-in for a model."""

    def __init__(self, replies, tool_calling=True):
        self.replies = list(replies)
        self.tool_calling = tool_calling
        self.usage = Usage()
        self.seen = []
        self.temperatures = []

    def chat(self, messages, tools=None, temperature=0.0):
        self.seen.append(list(messages))
        self.temperatures.append(temperature)
        self.usage.calls += 1
        self.usage.completion_tokens += 10
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


class LoopTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp())
        self.out = Path(tempfile.mkdtemp())

    def test_tool_loop_runs_actions_and_writes_the_trajectory(self):
        call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "echo hi > f"}'}}
        model = FakeModel(
            [{"role": "assistant", "content": "", "tool_calls": [call]}, {"role": "assistant", "content": "done"}]
        )
        result = loop.run(model, protocol.ToolProtocol(), "sys", "task", self.root, self.out, loop.Limits())
        self.assertEqual((result.status, result.steps), ("done", 2))
        self.assertEqual((self.root / "f").read_text(), "hi\n")
        self.assertEqual(model.seen[1][-1]["role"], "tool")
        lines = [json.loads(x) for x in (self.out / "trajectory.jsonl").read_text().splitlines()]
        self.assertEqual([x["role"] for x in lines], ["system", "user", "assistant", "tool", "assistant", "dgm"])

    def test_text_loop_and_limits(self):
        model = FakeModel([{"role": "assistant", "content": "FILE: a.txt\n```\nnew\n```"}] * 3, tool_calling=False)
        result = loop.run(model, protocol.TextProtocol(), "sys", "task", self.root, self.out, loop.Limits(max_steps=2))
        self.assertEqual((result.status, (self.root / "a.txt").read_text()), ("step_limit", "new\n"))

    def test_a_repeating_model_is_stopped(self):
        same = {"role": "assistant", "content": "```bash\nls\n```"}
        model = FakeModel([same] * 10, tool_calling=False)
        result = loop.run(model, protocol.TextProtocol(), "sys", "task", self.root, self.out, loop.Limits())
        self.assertEqual((result.status, model.usage.calls), ("stuck", 3))

    def test_budget_stops_the_loop(self):
        model = FakeModel([BudgetExhausted("spent")])
        result = loop.run(model, protocol.ToolProtocol(), "sys", "task", self.root, self.out, loop.Limits())
        self.assertEqual((result.status, result.detail), ("budget", "spent"))

    def test_after_a_refused_action_the_model_is_sampled_instead_of_greedy(self):
        replies = ["no action here", "```bash\necho ok\n```", "DONE"]
        model = FakeModel([{"role": "assistant", "content": r} for r in replies], tool_calling=False)
        result = loop.run(model, protocol.TextProtocol(), "sys", "task", self.root, self.out, loop.Limits())
        self.assertEqual(result.status, "done")
        self.assertEqual(model.temperatures, [0.0, loop.Limits().retry_temperature, 0.0])

    def test_a_refused_reply_is_left_out_of_what_the_model_sees_next(self):
        (self.root / "m.py").write_text("def f():\n    return 1\n")
        replies = [
            "FILE: m.py\n```python\ndef f():\n    return 1  # unchanged\n```",
            "FILE: m.py\n```python\ndef f():\n    return 2\n```",
            "DONE",
        ]
        model = FakeModel([{"role": "assistant", "content": r} for r in replies], tool_calling=False)
        result = loop.run(model, protocol.TextProtocol(), "sys", "task", self.root, self.out, loop.Limits())
        self.assertEqual((result.status, (self.root / "m.py").read_text()), ("done", "def f():\n    return 2\n"))
        retry = model.seen[1]
        self.assertEqual([m["role"] for m in retry], ["system", "user"])
        self.assertNotIn("# unchanged", json.dumps(retry))
        self.assertIn("Your last reply was not used: m.py was NOT written", retry[-1]["content"])
        self.assertTrue(retry[-1]["content"].startswith("task"))
        self.assertEqual(model.temperatures, [0.0, loop.Limits().retry_temperature, 0.0])
        self.assertNotIn("was not used", json.dumps(model.seen[2]))  # the note goes once a reply is used
        lines = [json.loads(x) for x in (self.out / "trajectory.jsonl").read_text().splitlines()]
        self.assertIn("# unchanged", json.dumps(lines))  # the trajectory keeps everything

    def test_replies_refused_again_and_again_are_sampled_hotter_then_stopped(self):
        replies = [f"no action, take {i}" for i in range(10)]
        model = FakeModel([{"role": "assistant", "content": r} for r in replies], tool_calling=False)
        limits = loop.Limits()
        result = loop.run(model, protocol.TextProtocol(), "sys", "task", self.root, self.out, limits)
        self.assertEqual((result.status, model.usage.calls), ("stuck", limits.max_refused))
        self.assertEqual(model.temperatures[:3], [0.0, limits.retry_temperature, limits.retry_temperature + 0.1])
        self.assertEqual(max(model.temperatures), 1.0)
        self.assertTrue(all(len(seen) == 2 for seen in model.seen))

    def test_a_tool_driving_model_sees_its_refused_calls(self):
        call = {"id": "c1", "type": "function", "function": {"name": "nope", "arguments": "{}"}}
        model = FakeModel(
            [{"role": "assistant", "content": "", "tool_calls": [call]}, {"role": "assistant", "content": "done"}]
        )
        loop.run(model, protocol.ToolProtocol(), "sys", "task", self.root, self.out, loop.Limits())
        self.assertEqual([m["role"] for m in model.seen[1]], ["system", "user", "assistant", "tool"])


class ReplyLengthTest(unittest.TestCase):
    def test_replies_on_the_text_protocol_are_capped_and_tool_calling_ones_are_not(self):
        sent = []

        def create(**kwargs):
            sent.append(kwargs)
            message = SimpleNamespace(content="DONE", tool_calls=None)
            return SimpleNamespace(usage=None, choices=[SimpleNamespace(message=message)])

        client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
        Model(client, tool_calling=False).chat([{"role": "user", "content": "hi"}])
        Model(client, tool_calling=True).chat([{"role": "user", "content": "hi"}])
        self.assertEqual(sent[0]["max_tokens"], TEXT_REPLY_TOKENS)
        self.assertNotIn("max_tokens", sent[1])  # a capable model's reply is the gateway's to clamp


if __name__ == "__main__":
    unittest.main()
