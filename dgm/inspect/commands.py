"""The inspection commands: tree, show, diff, best, export, eval, report."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import click

from archive import Archive, ArchiveError

from .. import agent_source
from ..cli_common import backend_option, open_archive, repos_option, run_option
from ..engine.final import RULES
from ..stopping import StopRequest, leave, two_stage
from . import export as export_mod
from . import pages, tree
from .data import InspectError, RunData, collect
from .flags import cheat_line, node_flags

out_option = click.option("--out", type=click.Path(path_type=Path), help="Write to this file instead of stdout.")


def _data(archive: Archive, rule: str | None = None) -> RunData:
    if not archive.nodes():
        raise click.ClickException(f"{archive.path.parent} holds no agents yet (run dgm evolve first)")
    return collect(archive, rule)


def _node(data: RunData, ref: str):
    try:
        return data.node(ref)
    except InspectError as exc:
        raise click.ClickException(str(exc)) from exc


def _emit(text: str, out: Path | None) -> None:
    if out is None:
        click.echo(text, nl=not text.endswith("\n"))
        return
    out.write_text(text)
    click.echo(f"wrote {out}", err=True)


@click.command("tree")
@run_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "dot", "svg", "html"]),
    default="text",
    show_default=True,
    help="text (terminal), Graphviz dot, SVG, or a self-contained interactive HTML page.",
)
@out_option
def tree_cmd(run_dir: Path, fmt: str, out: Path | None) -> None:
    """The archive tree: each agent with its score (resolved/n and interval) and status."""
    with open_archive(run_dir) as archive:
        data = _data(archive)
        text = {
            "text": lambda: tree.text(data),
            "dot": lambda: tree.dot(data),
            "svg": lambda: tree.svg(data),
            "html": lambda: pages.tree_page(archive, data),
        }[fmt]()
    _emit(text, out)


@click.command("show")
@run_option
@click.argument("node")
def show_cmd(run_dir: Path, node: str) -> None:
    """One agent (NODE: an id or `best`): status, lineage, scores per benchmark, notes."""
    with open_archive(run_dir) as archive:
        data = _data(archive)
        info = _node(data, node)
        flags = node_flags(archive, info.id)
        memory = [e for e in archive.manifest(info.snapshot) if e.path == "seed_agent/memory/notes.md"]
        notes = archive.blob(memory[0].blob).decode(errors="replace") if memory else ""
    click.echo(
        f"node {info.id}  ({info.status}{': ' + pages.printable(info.reason) if info.reason else ''})"
        f"{'  — best agent' if info.id == data.best else ''}"
    )
    click.echo(f"parent       {info.parent_id if info.parent_id is not None else '-'}")
    if info.second_parent_id is not None:
        click.echo(f"second parent {info.second_parent_id}  (recombined; CMP credits the clade of the parent above)")
    click.echo(f"children     {', '.join(map(str, info.children)) or '-'}")
    click.echo(f"snapshot     {info.snapshot}")
    click.echo(f"integrity    {cheat_line(data, info.id) or 'no gradings yet'}")
    if info.not_admitted:
        click.echo(f"admission    not a parent: {info.not_admitted}")
    for key in ("summary", "proposal", "focus"):
        if info.origin.get(key):  # agent-written: printable characters only
            click.echo(f"{key:12} {pages.printable(str(info.origin[key]))}")
    cited = pages.citation_lines(info.origin)
    if cited:
        click.echo("citations    (each checked against the archive)")
        for line in cited:
            click.echo(f"  {line}")
    click.echo("scores")
    for label, score in sorted(info.scores.items()):
        tag = "" if label == data.label else "  (transfer)"
        click.echo(f"  {label:40} {score.text()}{tag}")
    if not info.scores:
        click.echo("  (not evaluated)")
    if flags:
        click.echo("flags")
        for line in flags:
            click.echo(f"  {line}")
    if notes.strip():  # agent-written: printable characters only, line by line
        shown = "\n".join(pages.printable(line) for line in notes[-1500:].splitlines())
        click.echo("memory notes (last 1500 characters)\n" + shown)


@click.command("diff")
@run_option
@click.argument("a")
@click.argument("b")
def diff_cmd(run_dir: Path, a: str, b: str) -> None:
    """Unified diff of agent B against agent A (ids or `best`)."""
    with open_archive(run_dir) as archive:
        data = _data(archive)
        click.echo(archive.diff(_node(data, a).snapshot, _node(data, b).snapshot), nl=False)


@click.command("best")
@run_option
@click.option(
    "--rule",
    type=click.Choice(sorted(RULES)),
    help="mean, lcb (Wilson lower bound) or quantile (of the Beta posterior). [the run's final rule]",
)
def best_cmd(run_dir: Path, rule: str | None) -> None:
    """The final agent by a noise-aware rule, with its score."""
    with open_archive(run_dir) as archive:
        data = _data(archive, rule)
    if data.best is None:
        raise click.ClickException("no agent has been evaluated yet")
    score = data.nodes[data.best].scores[data.label]
    click.echo(
        f"node {data.best}: {score.text()} on {data.label} (rule {rule or data.config.get('final_rule', 'quantile')})"
    )


@click.command("export")
@run_option
@click.argument("node")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="New directory (or .tar.gz file).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(export_mod.FORMATS),
    default="dir",
    show_default=True,
    help="dir: a runnable agent directory; tar: the same as .tar.gz; patches: seed + numbered patches.",
)
def export_cmd(run_dir: Path, node: str, out: Path, fmt: str) -> None:
    """Export agent NODE (an id or `best`) with a README stating its provenance."""
    with open_archive(run_dir) as archive:
        data = _data(archive)
        try:
            path = export_mod.export(archive, data, _node(data, node), out, fmt)
        except (InspectError, ArchiveError) as exc:
            raise click.ClickException(str(exc)) from exc
    click.echo(str(path))


@click.command("eval")
@run_option
@click.argument("node", required=False)
@click.option(
    "--agent",
    metavar="PATH|RUN:NODE",
    help="Evaluate this agent instead of NODE: a folder (a `dgm export`, or one holding seed_agent/) or "
    "another run's node. It must pass its own check first; it is stored as a new root node in RUN.",
)
@click.option("--benchmark", "suite_spec", required=True, metavar="SUITE[:split]", help="Suite to evaluate on.")
@repos_option
@click.option("--fm", help="Model upstream (as for evolve; default: the run's).")
@click.option("--model", help="Model name; the evaluation is recorded as SUITE[:split]@MODEL.")
@click.option("--workers", type=int, default=2, show_default=True, help="Tasks evaluated at once.")
@backend_option(dest="backend")
@click.option(
    "--predictions",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the patches as SWE-bench predictions JSONL.",
)
def eval_cmd(
    run_dir: Path,
    node: str | None,
    agent: str | None,
    suite_spec: str,
    repos: Path | None,
    fm: str | None,
    model: str | None,
    workers: int,
    backend: str,
    predictions: Path | None,
) -> None:
    """Transfer evaluation: agent NODE (or --agent PATH) on another suite, split or model,
    recorded in RUN's archive under its own label."""
    from sandbox import get_backend

    from ..engine.config import auto_fm, env_model
    from ..gateway import UpstreamError, make_upstream
    from ..suites import BenchmarkError, load_suite
    from ..suites import predictions as preds
    from . import transfer

    if (node is None) == (agent is None):
        raise click.ClickException("give either NODE or --agent PATH")
    try:
        suite = load_suite(suite_spec, **({"repos": repos} if repos else {}))
    except BenchmarkError as exc:
        raise click.ClickException(str(exc)) from exc
    source = None
    if agent is not None:  # checked, and refused, before anything is written to RUN
        scratch = Path(tempfile.mkdtemp(prefix="dgm-agent-"))
        scratch.chmod(0o755)  # sandboxes run as another user
        click.get_current_context().call_on_close(lambda: shutil.rmtree(scratch, ignore_errors=True))
        try:
            source = agent_source.resolve(agent, scratch)
            click.echo(f"checking {agent} (its own check, in a sandbox)", err=True)
            agent_source.check(get_backend(backend), source, agent)
        except agent_source.AgentSourceError as exc:
            raise click.ClickException(str(exc)) from exc
    try:
        archive = Archive.for_run(run_dir, create=agent is not None)
    except ArchiveError as exc:
        raise click.ClickException(str(exc)) from exc
    with archive:
        stored = archive.run_config() or {}
        spec = fm or stored.get("fm") or "auto"
        spec = auto_fm(dict(os.environ)) if spec == "auto" else spec
        model = model or env_model(spec, os.environ)
        try:
            upstream = make_upstream(spec, workers=workers)
        except (UpstreamError, ValueError) as exc:
            raise click.ClickException(str(exc)) from exc
        if agent is not None:
            origin = {"imported": source.provenance}
            node_id = archive.add_child(None, source.tree, status="valid", origin=origin).id
            click.echo(f"stored {agent} as node {node_id}", err=True)
        else:
            node_id = _node(_data(archive), node).id
        work = Path(tempfile.mkdtemp(prefix="dgm-eval-", dir=run_dir))
        work.chmod(0o755)
        code = work / "code"
        agent_source.readable(archive.materialize(archive.node(node_id).snapshot, code))

        def show(task_id, evaluation) -> None:
            verdict = evaluation.verdict
            click.echo(f"{task_id:40} {'RESOLVED' if verdict.resolved else verdict.reason}", err=True)

        stop = StopRequest()
        with two_stage(stop.request, lambda message: click.echo(message, err=True)):
            result = transfer.run(
                archive,
                node_id,
                code,
                suite,
                suite_spec,
                upstream,
                model,
                get_backend(backend),
                work,
                workers=workers,
                on_result=show,
                stop=stop,
            )
        evals = archive.evaluations(node_id, result.label)
        if predictions:
            patches = [(task, ev.patch) for task, ev in sorted(result.results.items())]
            preds.write(predictions, f"dgm-node-{node_id}@{result.label.split('@')[1]}", patches)
    shutil.rmtree(work, ignore_errors=True)
    resolved = sum(e.resolved for e in evals)
    click.echo(
        f"node {node_id} on {result.label}: {resolved}/{len(evals)} resolved"
        f"{f' ({len(result.skipped)} tasks were recorded before)' if result.skipped else ''}"
    )
    if result.stopped:
        again = [f"dgm eval --run {run_dir} {node_id} --benchmark {suite_spec}"]
        again += [f"--{name} {value}" for name, value in (("repos", repos), ("fm", fm), ("model", model)) if value]
        click.echo(
            f"stopped ({result.stopped}) with {len(evals)} of {len(suite.tasks)} tasks recorded; "
            f"go on with: {' '.join(again)}",
            err=True,
        )
    leave(upstream)  # the embedded model still decoding a stopped task's call: exit without the C++ destructors


@click.command("report")
@run_option
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="The HTML file to write.")
def report_cmd(run_dir: Path, out: Path) -> None:
    """One self-contained HTML page: progress curve, tree, node x task results, cost and
    tokens over time, transfer results."""
    from ..engine.config import RunConfig

    with open_archive(run_dir) as archive:
        data = _data(archive)
        out.write_text(pages.report_page(archive, data, RunConfig.for_archive(archive)))
    click.echo(f"wrote {out}")


@click.command("serve")
@run_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (others need --token).")
@click.option("--port", type=int, default=8765, show_default=True, help="Port to listen on (0: any free one).")
@click.option("--token", envvar="DGM_SERVE_TOKEN", help="Secret every request must carry (required off loopback).")
@click.option(
    "--nice",
    type=click.IntRange(0, 19),
    default=10,
    show_default=True,
    help="Lower the server's CPU priority by this much, so the run it watches keeps its speed (0: leave it).",
)
def serve_cmd(run_dir: Path, host: str, port: int, token: str | None, nice: int) -> None:
    """A live web view of a run, read-only: overview, tree, nodes with their diffs,
    trajectories and grading logs, comparisons. Safe to run beside `dgm evolve`: it never
    writes to the archive nor takes the run's lock. Ctrl-C stops it."""
    from archive import ArchiveError

    from .serve import ServeError, is_loopback, serve

    if not is_loopback(host):
        click.echo(f"warning: --host {host} serves agent code and trajectories beyond this machine", err=True)

    def ready(url: str) -> None:
        click.echo(f"serving {run_dir} at {url}  (read-only; Ctrl-C stops)")

    try:
        serve(run_dir, host, port, token, ready, nice)
    except (ServeError, ArchiveError) as exc:
        raise click.ClickException(str(exc)) from exc


COMMANDS = (tree_cmd, show_cmd, diff_cmd, best_cmd, export_cmd, eval_cmd, report_cmd, serve_cmd)
