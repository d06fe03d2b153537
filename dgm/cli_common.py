"""What the command modules share: the --run, --backend and --repos options, and opening a
run's archive."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from archive import Archive, ArchiveError
from sandbox import ALIASES, BACKENDS

run_option = click.option(
    "--run",
    "run_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Run directory (holds archive.db).",
)
repos_option = click.option(
    "--repos", type=click.Path(file_okay=False, path_type=Path), help="Directory of local git clones (swebench suites)."
)


def backend_option(help_text: str = "Sandbox backend.", dest: str = "backend_name"):
    """--backend, one of the sandbox registry's names (bwrap by default)."""
    choices = click.Choice(sorted([*BACKENDS, *ALIASES]))
    return click.option("--backend", dest, type=choices, default="bwrap", show_default=True, help=help_text)


@contextmanager
def open_archive(run_dir: Path) -> Iterator[Archive]:
    """Open an existing run's archive; archive errors become clean CLI errors."""
    try:
        with Archive.for_run(run_dir, create=False) as archive:
            yield archive
    except ArchiveError as exc:
        raise click.ClickException(str(exc)) from exc
