import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from seed_agent import protocol

# The repository's tests as a plain script (`python3 test_m.py`: exit 1 when an assert fails)
# for the tests of what a write does with their verdict. A write runs the tests once or
# twice, and `check`, run for every child (twice per expansion), took 11 s on this file's and
# test_probes' pytest runs; pytest itself is run where its own exit statuses (2: the tests
# could not be collected) are what is tested.
SCRIPT_TESTS = f"{protocol.NO_BYTECODE} python3 test_m.py 2>&1; exit $?"


def script_tests(test: unittest.TestCase) -> None:
    """Run `test` with the repository's tests as the plain script test_m.py."""
    patch = mock.patch.object(protocol, "TESTS", SCRIPT_TESTS)
    patch.start()
    test.addCleanup(patch.stop)


class TextProtocolTest(unittest.TestCase):
    def setUp(self):
        self.p = protocol.TextProtocol()
        # The tiny repositories here need no pytest plugin, and loading the installed ones
        # doubled each pytest run's start.
        environ = mock.patch.dict(os.environ, {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
        environ.start()
        self.addCleanup(environ.stop)

    def test_file_block_is_a_whole_file_write(self):
        (action,) = self.p.actions({"content": "Here:\nFILE: pkg/mod.py\n```python\ndef f():\n    return 1\n```\n"})
        self.assertEqual((action.tool, action.args["path"]), ("write", "pkg/mod.py"))
        self.assertEqual(action.args["content"], "def f():\n    return 1\n")

    def test_bash_block_and_done(self):
        (action,) = self.p.actions({"content": "```bash\npython -m pytest -q\n```"})
        self.assertEqual((action.tool, action.args["command"]), ("bash", "python -m pytest -q"))
        self.assertEqual(self.p.actions({"content": "All good.\nDONE"})[0].tool, "finish")
        self.assertEqual(self.p.actions({"content": "I think it works"})[0].tool, "none")

    def test_a_code_block_after_naming_a_file_is_a_write_of_it(self):
        text = "The fix is in `textkit/slug.py`:\n\n```python\ndef slugify(t):\n    return t\n```\nDONE"
        (action,) = self.p.actions({"content": text})
        self.assertEqual((action.tool, action.args["path"]), ("write", "textkit/slug.py"))
        (action,) = self.p.actions({"content": "```python\n# pkg/mod.py\nx = 2\n```"})
        self.assertEqual(action.args["path"], "pkg/mod.py")
        (action,) = self.p.actions({"content": "Run:\n```bash\nls\n```"})  # a shell block stays a command
        self.assertEqual(action.tool, "bash")

    def test_an_unnamed_block_goes_to_the_one_file_defining_what_it_defines(self):
        root = Path(tempfile.mkdtemp())
        (root / "pkg").mkdir()
        (root / "pkg" / "slug.py").write_text("def slugify(t):\n    return t\n")
        (root / "pkg" / "words.py").write_text("def words(t):\n    return t.split()\n")
        (action,) = protocol.TextProtocol(root).actions({"content": "```python\ndef slugify(t):\n    return 1\n```"})
        self.assertEqual((action.tool, action.args["path"]), ("write", "pkg/slug.py"))
        (action,) = protocol.TextProtocol(root).actions({"content": "```python\ndef other():\n    pass\n```"})
        self.assertEqual(action.tool, "none")  # no file defines it: not a write

    def test_a_partial_python_write_is_merged_and_broken_python_refused(self):
        root = Path(tempfile.mkdtemp())
        (root / "m.py").write_text("import os\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n")
        protocol.write_whole_file(root, "m.py", "import re\n\ndef b():\n    return 3\n")
        merged = (root / "m.py").read_text()
        self.assertIn("def a():\n    return 1", merged)
        self.assertIn("def b():\n    return 3", merged)
        self.assertIn("import os\nimport re\n", merged)
        out = protocol.write_whole_file(root, "m.py", "def a(:\n")
        self.assertIn("was NOT written", out)
        self.assertEqual((root / "m.py").read_text(), merged)

    def test_a_write_that_keeps_nothing_of_the_file_or_touches_a_test_is_refused(self):
        root = Path(tempfile.mkdtemp())
        (root / "pkg").mkdir()
        (root / "pkg" / "__init__.py").write_text("from .lru import Cache\n\n__all__ = ['Cache']\n")
        for path in ("pkg/__init__.py", "tests/test_lru.py", "pkg/test_lru.py", "web/cart.spec.js"):
            out = protocol.write_whole_file(root, path, "obj['new_content']\n")
            self.assertIn(f"error: {path} was NOT written", out)
        refused = protocol.write_whole_file(root, "pkg/__init__.py", "obj['new_content']\n")
        self.assertIn("keeps none of what the file defines (Cache, __all__)", refused)
        self.assertEqual((root / "pkg" / "__init__.py").read_text(), "from .lru import Cache\n\n__all__ = ['Cache']\n")
        self.assertFalse((root / "tests").exists() or (root / "pkg" / "test_lru.py").exists())
        out = protocol.write_whole_file(root, "pkg/__init__.py", "from .lru import Cache, evict\n")
        self.assertTrue(out.startswith("wrote pkg/__init__.py"), out)  # keeps Cache: a real edit

    def test_a_write_that_changes_only_comments_or_docstrings_is_refused(self):
        root = Path(tempfile.mkdtemp())
        source = '"""Doc."""\n\n\ndef f(x):\n    """Double x."""\n    return x * 2  # twice\n'
        (root / "m.py").write_text(source)
        out = protocol.write_whole_file(root, "m.py", "def f(x):\n    'Twice x.'\n    return x * 2\n")
        self.assertIn("error: m.py was NOT written: it changes no code", out)
        self.assertEqual((root / "m.py").read_text(), source)
        out = protocol.write_whole_file(root, "m.py", "def f(x):\n    return x * 3\n")
        self.assertTrue(out.startswith("wrote m.py"), out)

    def test_the_tests_shown_after_a_write_carry_their_exit_status(self):
        script_tests(self)
        root = Path(tempfile.mkdtemp())
        (root / "m.py").write_text("def f():\n    return 1\n")
        (root / "test_m.py").write_text("from m import f\n\nassert f() == 2\n")
        out = protocol.write_whole_file(root, "m.py", "def f():\n    return 3\n")
        self.assertIn("The repository's tests now:\n[exit code 1]", out)
        # a write after which the tests fail, as they did without it, stays
        self.assertEqual((root / "m.py").read_text(), "def f():\n    return 3\n")

    def test_a_write_after_which_the_tests_cannot_import_the_code_is_undone(self):
        root = Path(tempfile.mkdtemp())
        (root / "pkg").mkdir()
        (root / "pkg" / "__init__.py").write_text("from .core import f\n")
        core = "def f():\n    return 1\n"
        (root / "pkg" / "core.py").write_text(core)
        (root / "test_pkg.py").write_text("from pkg import f\n\n\ndef test_f():\n    assert f() == 1\n")
        # what a small model does: the package's re-exports written into a module of it
        out = protocol.write_whole_file(root, "pkg/core.py", "from .core import f\n\n\ndef f():\n    return 2\n")
        self.assertTrue(protocol.refused(out), out)
        self.assertIn("cannot even import", out)
        self.assertIn("ImportError", out)  # the model is shown why
        self.assertEqual((root / "pkg" / "core.py").read_text(), core)
        # a new file that breaks the import is removed again
        out = protocol.write_whole_file(root, "conftest.py", "import no_such_module\n")
        self.assertTrue(protocol.refused(out), out)
        self.assertFalse((root / "conftest.py").exists())

    def test_a_write_after_which_tests_that_passed_fail_is_undone(self):
        script_tests(self)
        root = Path(tempfile.mkdtemp())
        source = "def f(x):\n    return x\n\n\ndef g(x):\n    return x\n"
        (root / "m.py").write_text(source)
        (root / "test_m.py").write_text("from m import f\n\nassert f(2) == 2, f(2)\n")
        out = protocol.write_whole_file(root, "m.py", "def f(x):\n    return x + 1\n\n\ndef g(x):\n    return x\n")
        self.assertTrue(protocol.refused(out), out)
        self.assertIn("AssertionError: 3", out)  # the model is shown which test broke, and how
        self.assertEqual((root / "m.py").read_text(), source)
        # a write that keeps them passing stays
        fixed = "def f(x):\n    return x\n\n\ndef g(x):\n    return 2 * x\n"
        out = protocol.write_whole_file(root, "m.py", fixed)
        self.assertTrue(out.startswith("wrote m.py"), out)
        self.assertIn("[exit code 0]", out)
        self.assertEqual((root / "m.py").read_text(), fixed)
        # and so is a write after which they never finish (an endless loop); the run without
        # it takes a python start, well inside the timeout
        endless = "import time\n\n\ndef f(x):\n    while True:\n        time.sleep(0.05)\n"
        with mock.patch.object(protocol, "TEST_TIMEOUT", 1):
            out = protocol.write_whole_file(root, "m.py", endless)
        self.assertTrue(protocol.refused(out), out)
        self.assertIn("do not finish", out)
        self.assertEqual((root / "m.py").read_text(), fixed)

    def test_a_write_to_a_repository_whose_tests_did_not_import_before_stays(self):
        root = Path(tempfile.mkdtemp())
        (root / "m.py").write_text("import no_such_module\n\n\ndef f():\n    return 1\n")
        (root / "test_m.py").write_text("from m import f\n\n\ndef test_f():\n    assert f() == 2\n")
        new = "import no_such_module\n\n\ndef f():\n    return 2\n"
        out = protocol.write_whole_file(root, "m.py", new)
        self.assertTrue(out.startswith("wrote m.py"), out)
        self.assertIn("[exit code 2]", out)
        self.assertEqual((root / "m.py").read_text(), new)

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

    def test_a_text_protocol_prompt_ends_with_the_issue_again(self):
        from seed_agent import solve

        root = Path(tempfile.mkdtemp())
        (root / "mod.py").write_text("x = 1\n")
        task = {"id": "t1", "statement": "x should be 2."}
        text = solve.prompt(task, root, text_protocol=True)
        self.assertTrue(text.startswith("Issue t1:\n\nx should be 2."))
        self.assertLess(text.index("mod.py:\n```python"), text.index("The issue again, t1:"))
        self.assertTrue(text.endswith("The issue again, t1:\n\nx should be 2.\n"))
        self.assertNotIn("again", solve.prompt(task, root, text_protocol=False))


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
