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

    def test_text_that_does_not_parse_is_left_as_sent(self):
        self.assertEqual(merge(OLD, "def broken(:\n"), "def broken(:\n")


if __name__ == "__main__":
    unittest.main()
