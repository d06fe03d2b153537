"""An image's docker layers used in place: a new layer committed from an overlay's upper
folder keeps what it removes removed (a whited-out file, a folder made opaque), and bwrap,
which mounts docker's layer folders itself, sees the same filesystem docker does."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

from sandbox import SandboxSpec, foreign, get_backend, image
from sandbox.layers import Layers, commit, of_image, removed
from tests.conftest import require

LOOK = "test -e /etc/debian_version && echo kept || echo gone; ls /usr/share/doc; cat /opt/dgm-layer-test/new"


@pytest.fixture
def layered(availability, tmp_path):
    """dgm's sandbox image plus one committed layer: /etc/debian_version whited out,
    /usr/share/doc opaque with one file, /opt/dgm-layer-test/new added."""
    require("docker", availability)
    require("bwrap", availability)
    upper = tmp_path / "upper"
    (upper / "etc").mkdir(parents=True)
    os.mknod(upper / "etc/debian_version", 0o600 | 0o020000, os.makedev(0, 0))  # a whiteout
    (upper / "usr/share/doc").mkdir(parents=True)
    os.setxattr(upper / "usr/share/doc", "trusted.overlay.opaque", b"y")
    (upper / "usr/share/doc/only").write_text("")
    (upper / "opt/dgm-layer-test").mkdir(parents=True)
    (upper / "opt/dgm-layer-test/new").write_text("added\n")
    os.chown(upper / "opt/dgm-layer-test/new", 1234, 1234)  # owners are kept
    name = f"dgm-layer-test:{secrets.token_hex(4)}"
    engine = foreign.client()
    commit(engine, image.image_tag(), upper, name, {"dgm.test": "1"}, tmp_path)
    yield name
    engine.images.remove(name, force=True)


def test_an_upper_folder_lists_its_whiteouts_and_opaque_folders(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("whiteouts (character devices) and trusted xattrs need root")
    (tmp_path / "a/b").mkdir(parents=True)
    os.mknod(tmp_path / "a/gone", 0o600 | 0o020000, os.makedev(0, 0))
    os.setxattr(tmp_path / "a/b", "trusted.overlay.opaque", b"y")
    assert sorted(removed(tmp_path)) == ["a/b", "a/gone"]


@pytest.mark.parametrize("backend_name", ["docker", "bwrap"])
def test_a_committed_layer_removes_what_its_upper_folder_removed_on_both_backends(layered, backend_name):
    with get_backend(backend_name).start(SandboxSpec(image=layered)) as session:
        result = session.exec(["/bin/sh", "-c", LOOK], timeout=60)
    assert result.stdout.split() == ["gone", "only", "added"], result.stderr


def test_bwrap_mounts_the_images_own_layer_folders(layered):
    """No unpacked copy: the image's folders are docker's, its parent's below its own."""
    engine = foreign.client()
    mine, parent = of_image(engine.images.get(layered).attrs), of_image(engine.images.get(image.image_tag()).attrs)
    assert isinstance(mine, Layers)
    assert mine.dirs[-len(parent.dirs) :] == parent.dirs
    assert foreign.rootfs(layered) == mine
    assert (mine.dirs[0] / "opt/dgm-layer-test/new").stat().st_uid == 1234  # the owner the upper folder had
    assert not foreign.cached_rootfs(foreign.image_id(engine, layered)).exists()
    cwd, options = mine.mount_options()
    assert options.startswith("lowerdir=l/")
    assert Path(cwd, options.split(",")[0][9:].split(":")[0]).is_dir()


def test_layers_too_many_for_one_mount_are_not_mounted(tmp_path):
    """The kernel takes a page of mount options: docker's short links keep many layers under
    it; past it the image is unpacked instead (`foreign.rootfs`)."""

    def layer(i: int, link: bool) -> Path:
        folder = tmp_path / f"{i:064d}"
        (folder / "diff").mkdir(parents=True)
        if link:
            (folder / "link").write_text(f"L{i:025d}\n")
        return folder / "diff"

    linked = Layers(tuple(layer(i, True) for i in range(100)))
    cwd, options = linked.mount_options()
    assert linked.mountable()
    assert (cwd, options[:12]) == (str(tmp_path), "lowerdir=l/L")
    assert not Layers(tuple(layer(i, False) for i in range(100, 160))).mountable()
