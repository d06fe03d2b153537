"""`dgm bench pull` against a local stand-in for a registry (Debian's docker-registry on
loopback): the images a suite names are pulled with progress and sizes, present ones are
skipped, and an unreachable registry is a clear error that names the offline route."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import tarfile
import time

import pytest
from click.testing import CliRunner

from dgm.cli import main
from sandbox import foreign
from tests.conftest import require


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def registry(tmp_path_factory, availability):
    """host:port of a registry serving from a temporary folder."""
    require("docker", availability)
    folder = tmp_path_factory.mktemp("registry")
    port = _free_port()
    config = folder / "config.yml"
    config.write_text(
        f"version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: {folder / 'data'}\n"
        f"http:\n  addr: 127.0.0.1:{port}\n"
    )
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    proc = subprocess.Popen(["docker-registry", "serve", str(config)], **quiet)
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield f"127.0.0.1:{port}"
    proc.kill()
    proc.wait()


def _push_tiny_image(name: str) -> None:
    """An image of one file, pushed to the registry and then removed here."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        data = b"stand-in\n"
        info = tarfile.TarInfo("hello.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    engine = foreign.client()
    repository, _, tag = name.rpartition(":")
    engine.api.import_image_from_data(buf.getvalue(), repository=repository, tag=tag)
    for line in engine.api.push(repository, tag=tag, stream=True, decode=True):
        assert "error" not in line, line
    engine.images.remove(name, force=True)


def _suite(tmp_path, image: str) -> str:
    row = {
        "repo": "dgm-test/pull",
        "instance_id": "dgm-test__pull-1",
        "base_commit": "0" * 40,
        "patch": "",
        "test_patch": "",
        "problem_statement": "-",
        "version": "1.0",
        "FAIL_TO_PASS": "[]",
        "PASS_TO_PASS": "[]",
        "image": image,
        "eval_script": "true",
        "log_parser": "parse_log_pytest",
    }
    (tmp_path / "instances.jsonl").write_text(json.dumps(row) + "\n")
    return f"swebench:{tmp_path / 'instances.jsonl'}"


def test_pull_fetches_a_suites_images_and_skips_present_ones(registry, tmp_path):
    name = f"{registry}/swebench/sweb.eval.x86_64.dgm-test_1776_pull-1:latest"
    _push_tiny_image(name)
    suite = _suite(tmp_path, name)
    try:
        first = CliRunner().invoke(main, ["bench", "pull", suite])
        assert first.exit_code == 0, first.output
        assert "1 images;" in first.output
        assert "GiB free" in first.output
        assert ": pulled," in first.output
        assert foreign.present(name)
        again = CliRunner().invoke(main, ["bench", "pull", suite])
        assert again.exit_code == 0
        assert ": present," in again.output
    finally:
        foreign.client().images.remove(name, force=True)


def test_pull_without_a_reachable_registry_says_so_and_names_the_offline_route(availability, tmp_path):
    require("docker", availability)
    unreachable = f"127.0.0.1:{_free_port()}/swebench/sweb.eval.x86_64.nothing:latest"
    result = CliRunner().invoke(main, ["bench", "pull", _suite(tmp_path, unreachable)])
    assert result.exit_code == 1
    assert f"cannot pull {unreachable}" in result.output
    assert "dgm bench env build" in result.output


def test_pull_of_a_suite_without_images_is_refused():
    result = CliRunner().invoke(main, ["bench", "pull", "builtin"])
    assert result.exit_code == 1
    assert "names no environment images" in result.output
