"""One registry of upstreams: name -> class. `--fm NAME[:ARG]` picks one.

openai[:BASE_URL]   any OpenAI-compatible endpoint (key from OPENAI_API_KEY)
local[:GGUF_PATH]   the embedded model: offline and weak
scripted:FILE       the SCRIPTED test double: deterministic replies from a script
replay:RUN_DIR      the replies recorded in a run's archive
"""

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


def make_upstream(spec: str) -> Upstream:
    """Build an upstream from `NAME[:ARG]`."""
    name, _, arg = spec.partition(":")
    if name not in UPSTREAMS:
        raise UpstreamError(f"unknown model upstream {name!r}; choose one of {', '.join(UPSTREAMS)}", retryable=False)
    if name in NEEDS_ARGUMENT and not arg:
        raise UpstreamError(f"--fm {name} needs {NEEDS_ARGUMENT[name]}: --fm {name}:PATH", retryable=False)
    return UPSTREAMS[name](arg) if arg else UPSTREAMS[name]()
