"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from archive import Archive


@pytest.fixture
def archive(tmp_path: Path):
    with Archive.for_run(tmp_path / "run", create=True) as ar:
        yield ar
