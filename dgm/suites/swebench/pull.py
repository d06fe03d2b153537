"""`dgm bench pull`: fetch the environment images a suite names, through the docker SDK.

Images already present are skipped. Sizes come from the registry as each layer starts:
the bytes to download (compressed) are summed as they are announced, and what the image
takes on disk once unpacked is reported after each pull, with the space left."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sandbox import foreign
from sandbox.errors import SandboxError

from ..suite import Suite


class PullError(SandboxError):
    """An image could not be pulled; the message says why (often: no network)."""


@dataclass(frozen=True)
class Pulled:
    name: str
    already: bool  # present before: nothing fetched
    disk_bytes: int


def images(suite: Suite) -> list[str]:
    """The environment images the suite's tasks run in, each once."""
    return sorted({t.environment.image for t in suite.tasks if t.environment is not None})


def _layers(events: Iterable[dict], on_bytes: Callable[[int, int], None]) -> None:
    """Follow docker's pull events; on_bytes(done, total) over all layers seen so far."""
    done: dict[str, int] = {}
    total: dict[str, int] = {}
    for event in events:
        if "error" in event:
            raise PullError(str(event["error"]))
        detail, layer = event.get("progressDetail") or {}, event.get("id")
        if layer and detail.get("total"):
            total[layer] = detail["total"]
            if event.get("status") == "Downloading":
                done[layer] = detail.get("current", 0)
        if layer and event.get("status") in ("Download complete", "Already exists", "Pull complete"):
            done[layer] = total.get(layer, done.get(layer, 0))
        on_bytes(sum(done.values()), sum(total.values()))


def pull(name: str, on_bytes: Callable[[int, int], None]) -> Pulled:
    import docker.errors
    import requests

    engine = foreign.client()
    if foreign.present(name):
        return Pulled(name, True, engine.images.get(name).attrs.get("Size", 0))
    repository, _, tag = name.rpartition(":") if ":" in name.rsplit("/", 1)[-1] else (name, "", "latest")
    try:
        _layers(engine.api.pull(repository, tag=tag or "latest", stream=True, decode=True), on_bytes)
        size = engine.images.get(name).attrs.get("Size", 0)
    except (docker.errors.APIError, docker.errors.ImageNotFound, requests.exceptions.RequestException) as exc:
        raise PullError(
            f"cannot pull {name}: {exc}. Pulling needs network access to the image's registry; offline, "
            "`dgm bench env build SUITE --repos DIR` builds equivalents from Debian's and PyPI's packages"
        ) from exc
    return Pulled(name, False, size)


def free_bytes() -> int:
    """Free space where docker keeps images (the root's, if docker's folder is not there)."""
    for path in ("/var/lib/docker", "/"):
        try:
            return shutil.disk_usage(path).free
        except FileNotFoundError:
            continue
    return 0
