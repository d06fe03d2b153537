#!/usr/bin/env python3
"""Authoring check for one built-in task folder (runs on the host, not in a sandbox).

    .venv/bin/python scripts/check_task.py dgm/suites/builtin/TASK_ID [...]

For each task: the repo's own tests pass at base; with the hidden tests added, every
FAIL_TO_PASS fails and every PASS_TO_PASS passes at base; after `git apply reference.patch`
every FAIL_TO_PASS and PASS_TO_PASS passes; the reference patch touches no test file.
`dgm bench validate` does the same through real sandboxes; this is the quick loop for authors.
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

RESULT = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)", re.M)


def run_tests(repo: Path, timeout: int) -> dict[str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "-q", "-p", "no:cacheprovider"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return {test: status for status, test in RESULT.findall(proc.stdout)}


def check(task_dir: Path) -> list[str]:
    meta = json.loads((task_dir / "task.json").read_text())
    problems = []
    for key in ("id", "statement", "split", "FAIL_TO_PASS", "PASS_TO_PASS"):
        if key not in meta:
            problems.append(f"task.json lacks {key}")
    if meta.get("id") != task_dir.name:
        problems.append(f"id {meta.get('id')!r} differs from the folder name")
    patch = (task_dir / "reference.patch").read_text()
    touched = re.findall(r"^\+\+\+ b/(\S+)", patch, re.M)
    if any("test" in Path(p).name or "tests" in Path(p).parts for p in touched):
        problems.append(f"reference.patch touches test files: {touched}")
    timeout = meta.get("timeout", 60)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(task_dir / "repo", repo)
        own = run_tests(repo, timeout)
        if not own or any(s not in ("PASSED", "SKIPPED", "XFAIL") for s in own.values()):
            problems.append(f"the repo's own tests do not all pass at base: {own}")
        shutil.copytree(task_dir / "hidden", repo, dirs_exist_ok=True)
        base = run_tests(repo, timeout)
        for t in meta.get("FAIL_TO_PASS", []):
            if base.get(t) == "PASSED":
                problems.append(f"FAIL_TO_PASS {t} already passes at base")
        for t in meta.get("PASS_TO_PASS", []):
            if base.get(t) != "PASSED":
                problems.append(f"PASS_TO_PASS {t} does not pass at base ({base.get(t)})")
        applied = subprocess.run(["git", "apply", "-"], input=patch, text=True, cwd=repo, capture_output=True)
        if applied.returncode != 0:
            problems.append(f"reference.patch does not apply: {applied.stderr.strip()}")
            return problems
        after = run_tests(repo, timeout)
        for t in meta.get("FAIL_TO_PASS", []) + meta.get("PASS_TO_PASS", []):
            if after.get(t) != "PASSED":
                problems.append(f"{t} does not pass with the reference patch ({after.get(t)})")
    return problems


if __name__ == "__main__":
    bad = 0
    for arg in sys.argv[1:]:
        found = check(Path(arg))
        print(f"{'ok  ' if not found else 'BAD '} {arg}")
        for p in found:
            print(f"     - {p}")
        bad += bool(found)
    sys.exit(1 if bad else 0)
