import subprocess
import tempfile
import unittest
from pathlib import Path

from seed_agent import loop, probes, protocol, solve
from seed_agent.tests.test_loop import FakeModel
from seed_agent.tests.test_protocol import script_tests

ISSUE = (
    "`median([1, 2, 3, 4])` returns 3.0, not 2.5, and `scale([7, 7])` crashes. `median()` is used by "
    "`report(rows)`; with `Stats(...).mean()` and `a.merge(b)` too. `load('data.csv')` fails on my file.\n"
    ">>> median([1, 2])\n"
)
SOURCE = (
    "def median(xs):\n    xs = sorted(xs)\n    return float(xs[len(xs) // 2])\n\n\n"
    "def scale(xs):\n    return [x / (max(xs) - min(xs)) for x in xs]\n\n\n"
    "def load(path):\n    return open(path).read()\n\n\n"
    "def report(rows):\n    open('report.txt', 'w').write(str(rows))\n"
)


def repository(source: str = SOURCE) -> Path:
    root = Path(tempfile.mkdtemp())
    (root / "stats").mkdir()
    (root / "stats" / "__init__.py").write_text("from .core import median\n")
    (root / "stats" / "core.py").write_text(source)
    (root / "tests").mkdir()
    (root / "tests" / "test_core.py").write_text("def median(xs):\n    return 0\n")  # a test file defines nothing
    return root


def reproduced(issue: str, root: Path) -> list[tuple[str, str]]:
    quoted = probes.runnable(issue, root)
    return probes.reproducible(quoted, probes.run(quoted, root))


class QuotedCallsTest(unittest.TestCase):
    def test_calls_with_arguments_are_found_mentions_and_elisions_are_not(self):
        found = probes.quoted_calls(ISSUE)
        self.assertEqual(
            found,
            [
                "median([1, 2, 3, 4])",
                "scale([7, 7])",
                "report(rows)",
                "a.merge(b)",
                "load('data.csv')",
                "median([1, 2])",
            ],
        )
        self.assertNotIn("median()", found)  # named, not called
        self.assertNotIn("Stats(...).mean()", found)  # elided

    def test_only_calls_one_source_module_defines_are_run_and_shown_as_they_are_now(self):
        root = repository()
        calls = reproduced(ISSUE, root)
        # a.merge(b): no module defines `a`; report(rows): the user's own variable; load(...): their file
        self.assertEqual([e for _, e in calls], ["median([1, 2, 3, 4])", "scale([7, 7])", "median([1, 2])"])
        self.assertEqual({m for m, _ in calls}, {"stats.core"})
        before = probes.run(calls, root)
        shown = probes.report(before)
        self.assertIn("median([1, 2, 3, 4]) -> 3.0\n", shown)
        self.assertIn("scale([7, 7]) -> raises ZeroDivisionError: division by zero", shown)
        unchanged = probes.after_change(calls, root, before)
        self.assertIn("give what they gave before your changes, so what the issue reports is not fixed", unchanged)
        self.assertIn(f"median([1, 2, 3, 4]) -> 3.0{probes.SAME}\n", unchanged)
        (root / "stats" / "core.py").write_text(
            SOURCE.replace("float(xs[len(xs) // 2])", "(xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2")
        )
        changed = probes.after_change(calls, root, before)
        self.assertIn("median([1, 2, 3, 4]) -> 2.5\n", changed)  # no longer marked as before
        self.assertIn(f"scale([7, 7]) -> raises ZeroDivisionError: division by zero{probes.SAME}", changed)
        self.assertIn("If one still gives what the issue says is wrong, the issue is not fixed yet", changed)

    def test_a_call_that_writes_a_file_leaves_nothing_in_the_repository(self):
        root = repository()
        issue = "`report([1, 2])` writes the wrong thing"
        calls = reproduced(issue, root)
        self.assertEqual(probes.report(probes.run(calls, root)), "report([1, 2]) -> None")
        self.assertFalse((root / "report.txt").exists())

    def test_a_module_that_stops_importing_is_not_reported_as_a_result(self):
        root = repository()
        calls = reproduced(ISSUE, root)
        (root / "stats" / "core.py").write_text(SOURCE + "import no_such_module\n")
        self.assertEqual(probes.after_change(calls, root, {}), "")  # the tests' output says why


class ShownToTheModelTest(unittest.TestCase):
    def test_the_prompt_and_each_write_show_what_the_quoted_calls_give(self):
        root = repository()
        text = solve.prompt({"id": "t", "statement": ISSUE}, root, text_protocol=True, calls="median([1]) -> 1.0")
        self.assertLess(text.index("run on the code as it is now:\nmedian([1]) -> 1.0"), text.index("The issue again"))
        p = protocol.TextProtocol(root, after_write=lambda: "calls now")
        write, bash = protocol.Action("write", {"path": "m.py"}), protocol.Action("bash", {"command": "ls"})
        self.assertTrue(p.observation(write, "wrote m.py; the change:").get("content").endswith("\n\ncalls now"))
        self.assertNotIn("calls now", p.observation(write, "error: m.py was NOT written: ...")["content"])
        self.assertNotIn("calls now", p.observation(bash, "[exit code 0]")["content"])


class ResentWriteTest(unittest.TestCase):
    def setUp(self):
        script_tests(self)
        self.root = Path(tempfile.mkdtemp())
        (self.root / "m.py").write_text("def f():\n    return 1\n")
        (self.root / "test_m.py").write_text("from m import f\n\nassert f() == 3, f()\n")
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(self.root)]
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run([*git, *args], check=True, capture_output=True)

    def test_the_models_own_write_sent_again_is_refused_with_the_tests_verdict(self):
        protocol.write_whole_file(self.root, "m.py", "def f():\n    return 2\n")
        out = protocol.write_whole_file(self.root, "m.py", "def f():\n    # the fix\n    return 2\n")
        self.assertTrue(protocol.refused(out), out)
        self.assertIn(f"error: m.py was NOT written: {protocol.RESENT} since your last write", out)
        self.assertIn("still fail", out)
        self.assertIn("AssertionError: 2", out)
        self.assertNotIn("nothing is fixed yet", out)
        protocol.write_whole_file(self.root, "m.py", "def f():\n    return 3\n")
        out = protocol.write_whole_file(self.root, "m.py", "def f():\n    return 3\n")
        self.assertIn("tests pass, as they may have before your change", out)

    def test_what_the_protocol_adds_after_a_resent_write_reaches_the_model_in_the_note(self):
        protocol.write_whole_file(self.root, "m.py", "def f():\n    return 2\n")
        resend = "FILE: m.py\n```python\ndef f():\n    return 2\n```"
        replies = [{"role": "assistant", "content": r} for r in (resend, "DONE")]
        model = FakeModel(replies, tool_calling=False)
        text = protocol.TextProtocol(self.root, after_write=lambda: "f() -> 2, the issue wants 3")
        loop.run(model, text, "sys", "task", self.root, self.root / "out", loop.Limits())
        note = model.seen[1][-1]["content"]
        self.assertIn(f"Your last reply was not used: m.py was NOT written: {protocol.RESENT}", note)
        self.assertTrue(note.endswith("\n\nf() -> 2, the issue wants 3"), note)

    def test_the_base_file_sent_back_unchanged_is_still_nothing_fixed(self):
        out = protocol.write_whole_file(self.root, "m.py", "def f():\n    'Doc.'\n    return 1\n")
        self.assertIn("it changes no code, only comments or docstrings, so nothing is fixed yet", out)


class RetargetTest(unittest.TestCase):
    def test_functions_sent_to_a_file_that_lacks_them_go_to_the_one_file_defining_them(self):
        root = repository()
        (root / "stats" / "describe.py").write_text("def mean(xs):\n    return sum(xs) / len(xs)\n")
        p = protocol.TextProtocol(root)
        fix = "```python\ndef median(xs):\n    return 2.5\n```"
        (action,) = p.actions({"content": f"FILE: stats/describe.py\n{fix}"})
        self.assertEqual(action.args["path"], "stats/core.py")
        (action,) = p.actions({"content": f"In `stats/describe.py`:\n\n{fix}"})
        self.assertEqual(action.args["path"], "stats/core.py")
        # a file that defines one of them, a new helper no file defines, or a new file: as named
        both = "```python\ndef mean(xs):\n    return 0\n\n\ndef median(xs):\n    return 0\n```"
        self.assertEqual(
            p.actions({"content": f"FILE: stats/describe.py\n{both}"})[0].args["path"], "stats/describe.py"
        )
        helper = "```python\ndef helper():\n    return 0\n```"
        self.assertEqual(
            p.actions({"content": f"FILE: stats/describe.py\n{helper}"})[0].args["path"], "stats/describe.py"
        )
        self.assertEqual(p.actions({"content": f"FILE: stats/new.py\n{helper}"})[0].args["path"], "stats/new.py")

    def test_a_file_named_without_its_directory_is_the_source_file_it_names(self):
        root = repository()
        p = protocol.TextProtocol(root)
        helper = "```python\ndef helper():\n    return 0\n```"
        self.assertEqual(p.actions({"content": f"FILE: core.py\n{helper}"})[0].args["path"], "stats/core.py")
        # functions one file defines, sent to a new file: that file
        fix = "```python\ndef median(xs):\n    return 2.5\n```"
        self.assertEqual(p.actions({"content": f"FILE: median.py\n{fix}"})[0].args["path"], "stats/core.py")
        (root / "other").mkdir()
        (root / "other" / "core.py").write_text("x = 1\n")  # two files end so: as named
        self.assertEqual(p.actions({"content": f"FILE: core.py\n{helper}"})[0].args["path"], "core.py")
        self.assertEqual(p.actions({"content": f"FILE: tests/core.py\n{fix}"})[0].args["path"], "tests/core.py")


if __name__ == "__main__":
    unittest.main()
