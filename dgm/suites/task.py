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


OFFLINE_REPOSITORY = "dgm-env"  # where `dgm bench env build` puts its equivalents of official images


@dataclass(frozen=True)
class Environment:
    """A task's own environment image (SWE-bench's per-instance images): the agent works in
    it at `workdir`, and grading runs `eval_script` there unchanged and reads its output
    with the official parser named `log_parser`."""

    image: str
    workdir: str = "/testbed"
    eval_script: str = ""
    log_parser: str = "parse_log_pytest"
    eval_type: str = "pass_and_fail"
    # the agent's tools find the task's environment first (as after `conda activate testbed`)
    path: str = "/opt/miniconda3/envs/testbed/bin:/opt/miniconda3/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    @property
    def offline_image(self) -> str:
        """The name `dgm bench env build` gives its equivalent of `image`."""
        return f"{OFFLINE_REPOSITORY}/{self.image.rsplit('/', 1)[-1]}"

    def resolved_image(self) -> str:
        """The official image where present, else the offline equivalent; never a stand-in
        that is neither (a task is not graded in the wrong environment)."""
        from sandbox import foreign

        for name in (self.image, self.offline_image):
            if foreign.present(name):
                return name
        raise BenchmarkError(
            f"neither {self.image} nor {self.offline_image} is present: `dgm bench pull SUITE` fetches the official "
            "images (with network); `dgm bench env build SUITE` builds equivalents offline"
        )


@dataclass(frozen=True)
class ImageRepo:
    """A task repository that lives in its environment image (at the environment's workdir,
    with its git history and its installed build)."""

    environment: Environment

    def export(self, dest: Path) -> Path:
        from sandbox import foreign

        foreign.copy_dir(self.environment.resolved_image(), self.environment.workdir, dest)
        for path in [dest, *dest.rglob("*")]:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | (0o755 if path.is_dir() else 0o644))
        return dest


@dataclass(frozen=True)
class Task:
    id: str
    suite: str
    split: str
    statement: str
    repo: RepoSource | ImageRepo
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
    environment: Environment | None = None  # the task's own image (SWE-bench's official route)
    image: str | None = None  # the sandbox image it needs (a variant's tag); None: dgm's base image
    language: str = ""

    def sandbox_image(self) -> str | None:
        """The image the agent phase and grading run in."""
        return self.environment.resolved_image() if self.environment else self.image

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
