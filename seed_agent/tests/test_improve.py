import tempfile
import unittest
from pathlib import Path

from seed_agent import improve


class ImproveTest(unittest.TestCase):
    def test_focus_prefers_empty_patches_then_timeouts(self):
        tasks = [
            {"task_id": "a", "resolved": False, "patch": "x", "exit": "error"},
            {"task_id": "b", "resolved": False, "patch": "x", "exit": "timeout"},
            {"task_id": "c", "resolved": True, "patch": ""},
        ]
        self.assertEqual(improve.choose_focus({"tasks": tasks})["task_id"], "b")
        tasks.append({"task_id": "d", "resolved": False, "patch": ""})
        self.assertEqual(improve.choose_focus({"tasks": tasks})["task_id"], "d")
        self.assertIsNone(improve.choose_focus({"tasks": tasks[2:3]}))

    def test_diagnosis_is_parsed_from_json_or_taken_as_text(self):
        text = 'Sure: {"summary": "s", "proposal": "p", "implementation_plan": "i"} ok'
        self.assertEqual(improve.parse_diagnosis(text)["implementation_plan"], "i")
        self.assertEqual(improve.parse_diagnosis("just words")["proposal"], "just words")

    def test_memory_note_is_appended(self):
        agent = Path(tempfile.mkdtemp())
        improve.remember(agent, 7, {"task_id": "t1"}, {"summary": "s", "proposal": "p"}, True)
        note = (agent / "seed_agent/memory/notes.md").read_text()
        self.assertIn("from node 7: s", note)
        self.assertIn("focus: t1", note)
        self.assertIn("passed", note)


if __name__ == "__main__":
    unittest.main()
