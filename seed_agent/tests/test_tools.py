import tempfile
import unittest
from pathlib import Path

from seed_agent import tools


class ToolsTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp())
        (self.root / "a.py").write_text("x = 1\ny = 2\nx = 1\n")

    def test_bash_runs_in_root_and_reports_exit_code(self):
        self.assertEqual(tools.bash("ls; exit 3", self.root), "[exit code 3]\na.py\n")

    def test_bash_timeout_kills(self):
        out = tools.bash("sleep 5 & sleep 5", self.root, timeout=0.2)
        self.assertIn("timed out", out)

    def test_output_is_clipped_with_a_marker(self):
        out = tools.bash("head -c 50000 /dev/zero | tr '\\0' a", self.root)
        self.assertIn("output clipped", out)
        self.assertLess(len(out), tools.OUTPUT_LIMIT + 200)

    def test_str_replace_must_match_once(self):
        self.assertIn("matches 2 times", tools.str_replace(self.root, "a.py", "x = 1", "x = 3"))
        self.assertIn("lines 1, 3", tools.str_replace(self.root, "a.py", "x = 1", "x = 3"))
        self.assertIn("not found", tools.str_replace(self.root, "a.py", "z = 9", ""))
        self.assertIn("replaced 1", tools.str_replace(self.root, "a.py", "y = 2", "y = 5"))
        self.assertEqual((self.root / "a.py").read_text(), "x = 1\ny = 5\nx = 1\n")

    def test_view_with_range_and_create(self):
        self.assertEqual(tools.view(self.root, "a.py", [2, 2]), "     2\ty = 2")
        tools.create(self.root, "pkg/new.py", "print(1)\n")
        self.assertEqual((self.root / "pkg/new.py").read_text(), "print(1)\n")
        self.assertIn("unknown edit command", tools.edit(self.root, "delete", "a.py"))


if __name__ == "__main__":
    unittest.main()
