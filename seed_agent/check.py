"""`python -m seed_agent check`: both entry points import, and the agent's own tests pass."""

import importlib
import sys
import unittest
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def run() -> int:
    for module in ("seed_agent.solve", "seed_agent.improve"):
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001 - any import failure means the agent is broken
            print(f"check: cannot import {module}: {exc!r}", file=sys.stderr)
            return 1
    suite = unittest.TestLoader().discover(str(PACKAGE / "tests"), top_level_dir=str(PACKAGE.parent))
    if suite.countTestCases() == 0:
        print("check: the agent has no tests", file=sys.stderr)
        return 1
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=1).run(suite)
    return 0 if result.wasSuccessful() else 1
