"""What a job needs on the node that runs it, wherever that is (a thread here, a Ray
worker elsewhere): a fresh folder, the agent's code materialized once, the evidence
written out, all readable by the sandbox's uids."""

from __future__ import annotations

import shutil
from pathlib import Path

from archive import Archive
from archive.manifest import SnapshotLimits
from archive.snapshots import ScannedTree, open_up, write

EVIDENCE_LIMITS = SnapshotLimits(max_files=100_000, max_total_bytes=2**30, max_file_bytes=2**28)


def job_dir(root: Path, name: str) -> Path:
    """A fresh, empty folder for one job's files, readable by sandbox uids."""
    path = root / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    path.chmod(0o755)
    return path


def code_cache(archive: Archive, root: Path, snapshot: str) -> Path:
    """A node's code, materialized once into `root` (read-only use)."""
    dest = root / snapshot
    if not dest.exists():
        root.mkdir(parents=True, exist_ok=True)
        partial = dest.with_name(snapshot + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        archive.materialize(snapshot, partial)
        open_up(partial)
        partial.rename(dest)
    return dest


def write_evidence(tree: ScannedTree, dest: Path) -> Path:
    write(dest, tree.entries, tree.contents, EVIDENCE_LIMITS)
    open_up(dest)
    return dest
