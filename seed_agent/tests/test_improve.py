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

    def test_group_experience_shows_the_member_that_resolved_the_focus_task_first(self):
        tried = {"task_id": "t1", "resolved": False, "patch": "- a"}
        fixed = {"task_id": "t1", "resolved": True, "patch": "+ fixed it"}
        evidence = {
            "group": [
                {"node_id": 4, "summary": "gave up", "tasks_this_agent_failed": [tried]},
                {"node_id": 5, "summary": "read the file first", "tasks_this_agent_failed": [fixed]},
            ]
        }
        text = improve.group_experience(evidence, {"task_id": "t1"})
        self.assertLess(text.index("Agent 5"), text.index("Agent 4"))
        self.assertIn("RESOLVED this task. Its own diagnosis when it was made: read the file first", text)
        self.assertIn("+ fixed it", text)
        self.assertEqual(improve.group_experience(evidence, {"task_id": "t2"}), "")
        self.assertEqual(improve.group_experience({"tasks": []}, {"task_id": "t1"}), "")

    def test_a_recombined_child_is_told_where_its_second_parent_is(self):
        evidence = {
            "recombine": {
                "second_parent": 6,
                "resolves_that_this_agent_does_not": ["t3"],
                "agent": "recombine/agent",
                "second_parent_diff": "recombine/second_parent.diff",
                "this_agent_diff": "recombine/this_agent.diff",
            }
        }
        text = improve.recombination(evidence)
        self.assertIn("agent 6", text)
        self.assertIn("/evidence/recombine/second_parent.diff", text)
        self.assertIn("t3", text)
        self.assertEqual(improve.recombination({"tasks": []}), "")

    def test_the_teachers_task_is_the_focus_and_its_patch_is_shown(self):
        tasks = [
            {"task_id": "a", "resolved": False, "patch": ""},
            {"task_id": "b", "resolved": False, "patch": "x", "exit": "error"},
        ]
        teacher = {"task_id": "b", "model": "big-m", "resolved": True, "patch": "+ the fix"}
        evidence = {"tasks": tasks, "teacher": teacher}
        focus = improve.choose_focus(evidence)
        self.assertEqual(focus["task_id"], "b")
        text = improve.teacher_attempt(evidence, focus)
        self.assertIn("big-m", text)
        self.assertIn("RESOLVED it", text)
        self.assertIn("+ the fix", text)
        self.assertEqual(improve.teacher_attempt({"tasks": tasks}, focus), "")
        self.assertEqual(improve.choose_focus({"tasks": tasks})["task_id"], "a")


if __name__ == "__main__":
    unittest.main()
