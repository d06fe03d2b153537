import unittest

from seed_agent.merge import merge

OLD = """import re


def slugify(title, sep="-"):
    return sep.join(title.split(" "))


class Cache:
    def __init__(self):
        self.d = {}

    def get(self, key):
        return self.d[key]
"""


class MergeTest(unittest.TestCase):
    def test_a_whole_file_replaces_the_file(self):
        new = OLD.replace('split(" ")', "split()")
        self.assertEqual(merge(OLD, new), new)

    def test_one_function_replaces_its_namesake_only(self):
        merged = merge(OLD, 'def slugify(title, sep="-"):\n    return sep.join(title.split())\n')
        self.assertIn("title.split())", merged)
        self.assertIn("class Cache:", merged)

    def test_a_method_alone_indented_or_not_goes_into_its_class(self):
        for sent in (
            "    def get(self, key):\n        return self.d.get(key)\n",
            "def get(self, key):\n    return self.d.get(key)\n",
        ):
            merged = merge(OLD, sent)
            self.assertIn("    def get(self, key):\n        return self.d.get(key)\n", merged)
            self.assertIn("def __init__", merged)

    def test_a_partial_class_keeps_the_other_methods_and_adds_new_ones(self):
        merged = merge(OLD, "class Cache:\n    def size(self):\n        return len(self.d)\n")
        self.assertIn("def get(self, key)", merged)
        self.assertIn("    def size(self):\n        return len(self.d)", merged)

    def test_a_whole_file_that_starts_late_keeps_the_docstring_and_imports(self):
        old = '"""Slugs."""\n\nimport functools\n' + OLD
        sent = OLD.replace("import re\n", "").replace('split(" ")', "split()")
        merged = merge(old, sent)
        self.assertTrue(merged.startswith('"""Slugs."""\n\nimport functools\nimport re\n'), merged)
        self.assertIn("title.split())", merged)
        compile(merged, "m.py", "exec")

    def test_a_whole_file_that_leaves_out_methods_keeps_them(self):
        sent = OLD.replace("    def get(self, key):\n        return self.d[key]\n", "").replace(
            "self.d = {}", "self.d = dict()"
        )
        merged = merge(OLD, sent)
        self.assertIn("self.d = dict()", merged)
        self.assertIn("    def get(self, key):\n        return self.d[key]\n", merged)

    def test_a_top_level_assignment_alone_replaces_its_namesake(self):
        old = "import operator\n\nOPS = {\n    '+': operator.add,\n}\n\nLIMIT = 3\n\n\n"
        old += "def apply(op, a, b):\n    return OPS[op](a, b)\n"
        merged = merge(old, "OPS = {\n    '+': operator.add,\n    '**': operator.pow,\n}\n")
        self.assertIn("'**': operator.pow", merged)
        self.assertEqual(merged.count("OPS = {"), 1)
        for kept in ("import operator", "LIMIT = 3", "def apply(op, a, b):"):
            self.assertIn(kept, merged)
        namespace = {}
        exec(compile(merged, "m.py", "exec"), namespace)
        self.assertEqual(namespace["apply"]("**", 2, 3), 8)

    def test_a_new_assignment_goes_after_the_imports(self):
        merged = merge(OLD, "SEP = '-'\n\n\ndef slugify(title, sep=SEP):\n    return sep.join(title.split())\n")
        self.assertLess(merged.index("import re"), merged.index("SEP = '-'"))
        self.assertLess(merged.index("SEP = '-'"), merged.index("def slugify"))
        compile(merged, "m.py", "exec")

    def test_a_changed_class_attribute_is_kept(self):
        old = "class Limits:\n    size = 3\n\n    def grow(self):\n        return self.size * 2\n"
        merged = merge(old, "class Limits:\n    size = 4\n")
        self.assertIn("    size = 4\n", merged)
        self.assertIn("def grow(self)", merged)

    def test_text_that_does_not_parse_is_left_as_sent(self):
        self.assertEqual(merge(OLD, "def broken(:\n"), "def broken(:\n")


if __name__ == "__main__":
    unittest.main()
