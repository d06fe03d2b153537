"""The `dgm` command line: a thin click layer over the Python API.

Domain errors become `click.ClickException` here, and only here."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from archive import Archive, ArchiveError

from . import __version__

run_option = click.option(
    "--run",
    "run_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Run directory (holds archive.db).",
)


@contextmanager
def open_archive(run_dir: Path) -> Iterator[Archive]:
    """Open an existing run's archive; archive errors become clean CLI errors."""
    try:
        with Archive.for_run(run_dir, create=False) as archive:
            yield archive
    except ArchiveError as exc:
        raise click.ClickException(str(exc)) from exc


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


if __name__ == "__main__":
    main()
