"""Taking an agent out of the archive: a standalone directory (runs on its own with
`python3 -m seed_agent ...`), a tarball of it, or its lineage as a numbered patch series
from the seed. Each comes with a README stating its provenance."""

from __future__ import annotations

import itertools
import json
import tarfile
import tempfile
from pathlib import Path

from archive import Archive

from .data import InspectError, NodeInfo, RunData

FORMATS = ("dir", "tar", "patches")


def provenance(archive: Archive, data: RunData, node: NodeInfo) -> str:
    lineage = [data.nodes[i] for i in _lineage(data, node.id)]
    scores = (
        "\n".join(
            f"- {label}: {s.resolved}/{s.n} resolved (95% interval {s.interval[0]:.2f}-{s.interval[1]:.2f})"
            for label, s in sorted(node.scores.items())
        )
        or "- not evaluated"
    )
    steps = "\n".join(
        f"- node {n.id}" + (f": {n.origin.get('summary')}" if n.origin.get("summary") else " (seed)") for n in lineage
    )
    config = json.dumps(
        {k: data.config.get(k) for k in ("fm", "model", "benchmark", "mode", "selector", "seed")}, indent=2
    )
    return (
        f"# dgm agent: node {node.id}\n\nExported from the run at `{archive.path.parent.resolve()}` (archive "
        f"`{archive.path.name}`), snapshot `{node.snapshot}`.\n\n## Run it\n\n```sh\n"
        "python3 -m seed_agent check\npython3 -m seed_agent solve --task TASK.json --repo REPO --out OUT\n```\n\n"
        "It needs Python >= 3.11 and the `openai` package, and reaches its model through a dgm gateway\n"
        "(`DGM_FM_SOCKET`, with its token as `OPENAI_API_KEY`), or any OpenAI-compatible endpoint when\n"
        "`DGM_FM_SOCKET` is unset (`DGM_FM_BASE_URL`, `OPENAI_API_KEY`).\n\n"
        f"## Scores\n\n{scores}\n\n## Lineage (from the seed)\n\n{steps}\n\n## Run configuration\n\n"
        f"```json\n{config}\n```\n"
    )


def _lineage(data: RunData, node_id: int) -> list[int]:
    chain = [node_id]
    while data.nodes[chain[-1]].parent_id is not None:
        chain.append(data.nodes[chain[-1]].parent_id)
    return chain[::-1]


def export(archive: Archive, data: RunData, node: NodeInfo, out: Path, fmt: str) -> Path:
    if fmt not in FORMATS:
        raise InspectError(f"unknown export format {fmt!r}; one of {', '.join(FORMATS)}")
    if out.exists():
        raise InspectError(f"{out} already exists; export into a new path")
    readme = provenance(archive, data, node)
    if fmt == "patches":
        chain = _lineage(data, node.id)
        out.mkdir(parents=True)
        archive.materialize(data.nodes[chain[0]].snapshot, out / "seed")
        for number, (parent, child) in enumerate(itertools.pairwise(chain), start=1):
            patch = archive.diff(data.nodes[parent].snapshot, data.nodes[child].snapshot)
            (out / f"{number:04d}-node-{child}.patch").write_text(patch)
        (out / "README.md").write_text(
            readme + "\n## Patch series\n\n`seed/` is the seed agent; apply the numbered "
            "patches in order (`git apply` or `patch -p1` inside `seed/`) to rebuild it.\n"
        )
        return out
    if fmt == "dir":
        archive.materialize(node.snapshot, out)
        name = "README.md" if not (out / "README.md").exists() else "README.dgm.md"
        (out / name).write_text(readme)
        return out
    with tempfile.TemporaryDirectory() as tmp:
        folder = export(archive, data, node, Path(tmp) / f"dgm-node-{node.id}", "dir")
        with tarfile.open(out, "w:gz") as tar:
            tar.add(folder, arcname=folder.name)
    return out
