import tempfile
import unittest
from pathlib import Path

from seed_agent import protocol


class TextProtocolTest(unittest.TestCase):
    def setUp(self):
        self.p = protocol.TextProtocol()

    def test_file_block_is_a_whole_file_write(self):
        (action,) = self.p.actions({"content": "Here:\nFILE: pkg/mod.py\n```python\ndef f():\n    return 1\n```\n"})
        self.assertEqual((action.tool, action.args["path"]), ("write", "pkg/mod.py"))
        self.assertEqual(action.args["content"], "def f():\n    return 1\n")

    def test_bash_block_and_done(self):
        (action,) = self.p.actions({"content": "```bash\npython -m pytest -q\n```"})
        self.assertEqual((action.tool, action.args["command"]), ("bash", "python -m pytest -q"))
        self.assertEqual(self.p.actions({"content": "All good.\nDONE"})[0].tool, "finish")
        self.assertEqual(self.p.actions({"content": "I think it works"})[0].tool, "none")

    def test_write_reports_the_diff(self):
        root = Path(tempfile.mkdtemp())
        (root / "m.py").write_text("a = 1\n")
        out = protocol.write_whole_file(root, "m.py", "a = 2\n")
        self.assertIn("-a = 1\n+a = 2", out)


class RepoContextTest(unittest.TestCase):
    def test_sources_first_then_tests_within_budget(self):
        from seed_agent import solve

        root = Path(tempfile.mkdtemp())
        (root / "pkg").mkdir()
        (root / "pkg" / "mod.py").write_text("x = 1\n")
        (root / "tests").mkdir()
        (root / "tests" / "test_mod.py").write_text("assert True\n")
        text = solve.repo_context(root, with_sources=True)
        self.assertLess(text.index("pkg/mod.py:"), text.index("tests/test_mod.py:"))
        self.assertNotIn("```python", solve.repo_context(root, with_sources=False))


class ToolProtocolTest(unittest.TestCase):
    def test_tool_calls_become_actions(self):
        p = protocol.ToolProtocol()
        message = {
            "tool_calls": [
                {"id": "c1", "function": {"name": "bash", "arguments": '{"command": "ls"}'}},
                {"id": "c2", "function": {"name": "nope", "arguments": "{}"}},
                {"id": "c3", "function": {"name": "edit", "arguments": "not json"}},
            ]
        }
        actions = p.actions(message)
        self.assertEqual([a.tool for a in actions], ["bash", "none", "none"])
        self.assertEqual(p.observation(actions[0], "out"), {"role": "tool", "tool_call_id": "c1", "content": "out"})
        self.assertEqual(p.actions({"content": "finished"})[0].tool, "finish")


if __name__ == "__main__":
    unittest.main()
