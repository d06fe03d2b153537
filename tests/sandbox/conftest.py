"""Sandbox fixtures: the isolating backends, each required in CI and skipped (with the
reason shown) only outside CI when this machine cannot run it."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from sandbox import BACKENDS, SandboxSpec, get_backend, isolating
from tests.conftest import require

ISOLATING = list(isolating())  # every isolating backend registered: each must contain every attack
ATTACKS = Path(__file__).parent / "attacks"


@pytest.fixture(params=ISOLATING)
def backend(request, availability):
    require(request.param, availability)
    return get_backend(request.param)


@pytest.fixture(params=list(BACKENDS))
def any_backend(request, availability):
    require(request.param, availability)
    return get_backend(request.param)


@pytest.fixture
def planted_secret():
    """A world-readable 'API key file' on the host, outside every mount: only the sandbox's
    view of the filesystem can keep it out of reach."""
    token = "sk-dgm-test-" + secrets.token_hex(16)
    folder = Path("/var/tmp") / f"dgm-attack-{secrets.token_hex(4)}"
    folder.mkdir(mode=0o755)
    path = folder / "api_key"
    path.write_text(token)
    path.chmod(0o644)
    yield path, token
    path.unlink()
    folder.rmdir()


def attack_spec(**kw) -> SandboxSpec:
    from sandbox import Mount

    mounts = (Mount("/attacks", ATTACKS), *kw.pop("mounts", ()))
    return SandboxSpec(mounts=mounts, **kw)
