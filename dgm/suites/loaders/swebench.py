"""SWE-bench instance files (JSONL, JSON or parquet rows in SWE-bench's own fields), with
repositories from a local directory of clones (nothing is cloned from the internet).

Each row: instance_id, repo ("owner/name"), base_commit, patch (the reference),
test_patch (the hidden tests, as a diff), problem_statement, FAIL_TO_PASS, PASS_TO_PASS
(lists, or JSON strings of lists), version; optional: split, requirements (pinned packages
the tests need, installed offline from wheels the host downloads).

A row that names its environment (`image`, `eval_script`, `log_parser`: the current
SWE-bench datasets) is run the official way: in that image at /testbed, graded by its eval
script and the official parser. Its repository then comes from the image, so no clone is
needed (`dgm bench env build` needs one to build an equivalent image offline)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from ..suite import Suite
from ..task import BenchmarkError, Environment, ImageRepo, RepoSource, Task

COMMAND = "python3 -m pytest -rfEsxXp --show-capture=no -q -p no:cacheprovider {tests}"
OFFICIAL_TIMEOUT_S = 1800.0  # the official harness's default per instance


def read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise BenchmarkError(f"no SWE-bench instance file at {path}")
    if path.suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError as exc:
            raise BenchmarkError("reading parquet needs pyarrow: pip install pyarrow") from exc
        return pq.read_table(path).to_pylist()
    text = path.read_text()
    try:
        if path.suffix == ".jsonl":
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        data = json.loads(text)
    except ValueError as exc:
        raise BenchmarkError(f"{path}: not valid JSON ({exc})") from exc
    return data if isinstance(data, list) else [data]


def _list(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = json.loads(value) if value.strip().startswith("[") else [v for v in value.splitlines() if v]
    return tuple(value or ())


def find_clone(repos: Path, repo: str) -> Path:
    owner, _, name = repo.partition("/")
    for candidate in (repos / f"{owner}__{name}", repos / owner / name, repos / name):
        if (candidate / ".git").exists() or (candidate / "HEAD").exists():
            return candidate
    raise BenchmarkError(f"no local clone of {repo} under {repos} (looked for {owner}__{name}, {owner}/{name}, {name})")


def environment(row: dict[str, Any]) -> Environment | None:
    if not row.get("image"):
        return None
    if not row.get("eval_script") or not row.get("log_parser"):
        raise BenchmarkError(f"{row['instance_id']}: a row with an image needs its eval_script and log_parser")
    return Environment(
        row["image"], "/testbed", row["eval_script"], row["log_parser"], row.get("eval_type") or "pass_and_fail"
    )


def clone_at(repos: Path, row: dict[str, Any]) -> RepoSource:
    clone = find_clone(repos, row["repo"])
    known = subprocess.run(
        ["git", "-C", str(clone), "cat-file", "-e", f"{row['base_commit']}^{{commit}}"], capture_output=True
    )
    if known.returncode != 0:
        raise BenchmarkError(f"{row['instance_id']}: {clone} lacks base commit {row['base_commit']}")
    return RepoSource(clone, row["base_commit"])


def load(path: str | Path, repos: str | Path | None = None, split: str = "test", name: str | None = None) -> Suite:
    path = Path(path)
    repos = Path(repos) if repos else path.parent / "repos"
    tasks = []
    for row in read_rows(path):
        try:
            env = environment(row)
            requirements = row.get("requirements") or ()
            tasks.append(
                Task(
                    id=row["instance_id"],
                    suite=name or path.stem,
                    split=row.get("split") or split,
                    statement=row["problem_statement"],
                    repo=ImageRepo(env) if env else clone_at(repos, row),
                    test_command=row.get("test_command") or COMMAND,
                    fail_to_pass=_list(row["FAIL_TO_PASS"]),
                    pass_to_pass=_list(row.get("PASS_TO_PASS")),
                    reference_patch=row["patch"],
                    hidden_patch=row["test_patch"],
                    timeout=float(row.get("timeout") or (OFFICIAL_TIMEOUT_S if env else 300)),
                    requirements=_list(requirements) if isinstance(requirements, str) else tuple(requirements),
                    environment=env,
                )
            )
        except KeyError as exc:
            raise BenchmarkError(f"{path}: a row lacks the field {exc}") from exc
    return Suite(name or path.stem, tuple(tasks))
