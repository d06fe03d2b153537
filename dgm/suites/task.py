"""A task: a repository state, a problem statement, hidden tests, and how to judge a fix."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


class BenchmarkError(Exception):
    """A suite or task that cannot be loaded or graded; the message says why."""


@dataclass(frozen=True)
class RepoSource:
    """Where a task's repository comes from: a directory (inline files), or a git
    repository at a base commit (exported without its history)."""

    path: Path
    base_commit: str | None = None
    exclude: tuple[str, ...] = ()  # repo-relative paths left out (e.g. an exercise's tests)

    def export(self, dest: Path) -> Path:
        """Write the base state to `dest` (which must not exist), with no VCS history."""
        if self.base_commit is None:
            excluded = {str((self.path / e).resolve()) for e in self.exclude}

            def ignore(folder: str, names: list[str]) -> set[str]:
                skip = set(shutil.ignore_patterns(".git", "__pycache__", "*.pyc")(folder, names))
                return skip | {n for n in names if str((Path(folder) / n).resolve()) in excluded}

            shutil.copytree(self.path, dest, ignore=ignore)
        else:
            dest.mkdir(parents=True)
            with tempfile.TemporaryFile() as fh:
                proc = subprocess.run(
                    ["git", "-C", str(self.path), "archive", "--format=tar", self.base_commit],
                    stdout=fh,
                    stderr=subprocess.PIPE,
                )
                if proc.returncode != 0:
                    raise BenchmarkError(
                        f"cannot export {self.path} at {self.base_commit}: {proc.stderr.decode().strip()}"
                    )
                fh.seek(0)
                with tarfile.open(fileobj=fh) as tar:
                    tar.extractall(dest, filter="data")
        for path in [dest, *dest.rglob("*")]:  # readable by the sandbox user
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | (0o755 if path.is_dir() else 0o644))
        return dest


@dataclass(frozen=True)
class Task:
    id: str
    suite: str
    split: str
    statement: str
    repo: RepoSource
    test_command: str  # run from the repo root; {tests} is replaced by the hidden test files
    fail_to_pass: tuple[str, ...]
    pass_to_pass: tuple[str, ...]
    reference_patch: str  # never shown to agents
    hidden_files: dict[str, bytes] = field(default_factory=dict)  # repo-relative path -> content
    hidden_patch: str = ""  # or the hidden tests as a diff (SWE-bench's test_patch)
    timeout: float = 120.0
    log_parser: str = "pytest"
    difficulty: str = ""
    requirements: tuple[str, ...] = ()  # pinned packages the tests need (installed offline)
    all_must_pass: bool = False  # judge by "every collected test passes" (no test ids known)

    def agent_view(self) -> dict:
        """What the agent phase may see: the id and the statement, nothing more."""
        return {"id": self.id, "statement": self.statement}

    def hidden_paths(self) -> set[str]:
        from .patches import files_in_patch

        return set(self.hidden_files) | set(files_in_patch(self.hidden_patch))

    def command(self) -> str:
        """The test command; {tests} becomes the hidden test files and every file that a
        FAIL_TO_PASS or PASS_TO_PASS test lives in."""
        files = self.hidden_paths() | {t.split("::")[0] for t in (*self.fail_to_pass, *self.pass_to_pass)}
        return self.test_command.replace("{tests}", " ".join(sorted(files)))
