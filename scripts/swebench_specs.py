"""Write dgm/suites/swebench/specs.json: SWE-bench's per-repository, per-version environment
specs for Python repositories and where each repository keeps its requirements files, as
the `swebench` package (4.x, the last to ship them) has them in
swebench/harness/constants/python.py. `dgm bench env build` reads that file.

Usage: python scripts/swebench_specs.py PATH/TO/swebench-4.1.0-py3-none-any.whl
(get it with: pip download --no-deps swebench==4.1.0). The module is pure data; it is run
on its own, never imported as part of the package."""

from __future__ import annotations

import json
import runpy
import sys
import tempfile
import zipfile
from pathlib import Path

MEMBER = "swebench/harness/constants/python.py"
OUT = Path(__file__).resolve().parent.parent / "dgm" / "suites" / "swebench" / "specs.json"


def main(wheel: str) -> None:
    with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory() as tmp:
        zf.extract(MEMBER, tmp)
        module = runpy.run_path(str(Path(tmp) / MEMBER))
    specs = module["MAP_REPO_VERSION_TO_SPECS_PY"]
    source = Path(wheel).name
    data = {"source": source, "specs": specs, "requirements_paths": module["MAP_REPO_TO_REQS_PATHS"]}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    count = sum(len(v) for v in specs.values())
    sys.stderr.write(f"wrote {OUT}: {len(specs)} repositories, {count} versions, from {source}\n")


if __name__ == "__main__":
    main(sys.argv[1])
