"""One registry of upstreams: name -> class. `--fm NAME[:ARG]` picks one; each class says
how it is named (`usage`) and what it is (`summary`), which is what --help shows."""

from __future__ import annotations

from .local_model import LocalUpstream
from .openai_upstream import OpenAIUpstream
from .replay import ReplayUpstream
from .scripted import ScriptedUpstream
from .upstream import Upstream, UpstreamError

UPSTREAMS: dict[str, type] = {
    OpenAIUpstream.name: OpenAIUpstream,
    LocalUpstream.name: LocalUpstream,
    ScriptedUpstream.name: ScriptedUpstream,
    ReplayUpstream.name: ReplayUpstream,
}
NEEDS_ARGUMENT = {"scripted": "a script file", "replay": "a run directory"}
ALIASES = {"local": "embedded"}  # names an upstream was known by before; still accepted


def upstream_name(spec: str) -> str:
    """The registry name `NAME[:ARG]` picks (an old name -> the current one)."""
    name = spec.partition(":")[0]
    return ALIASES.get(name, name)


def make_upstream(spec: str, workers: int = 1) -> Upstream:
    """Build an upstream from `NAME[:ARG]`; one that runs the model here (`sized_by_workers`)
    gets a decoding slot for each of the run's `workers`."""
    arg = spec.partition(":")[2]
    name = upstream_name(spec)
    if name not in UPSTREAMS:
        raise UpstreamError(f"unknown model upstream {name!r}; choose one of {', '.join(UPSTREAMS)}", retryable=False)
    if name in NEEDS_ARGUMENT and not arg:
        raise UpstreamError(f"--fm {name} needs {NEEDS_ARGUMENT[name]}: --fm {name}:PATH", retryable=False)
    cls = UPSTREAMS[name]
    sized = {"slots": workers} if getattr(cls, "sized_by_workers", False) else {}
    return cls(arg, **sized) if arg else cls(**sized)
