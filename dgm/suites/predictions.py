"""SWE-bench predictions JSONL (instance_id, model_name_or_path, model_patch), the input of
the official harness."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path


def write(path: Path, model: str, patches: Iterable[tuple[str, str]]) -> int:
    """Write one line per (instance_id, patch); returns how many."""
    count = 0
    with open(path, "w") as fh:
        for instance_id, patch in patches:
            fh.write(json.dumps({"instance_id": instance_id, "model_name_or_path": model, "model_patch": patch}) + "\n")
            count += 1
    return count
