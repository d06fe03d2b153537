"""Suite loaders behind one registry: `NAME[:ARG][:split]`.

builtin[:split]             the suite shipped with dgm
taskdir:PATH[:split]        a folder of task folders
swebench:FILE[:split]       SWE-bench instance rows (clones from --repos DIR)
polyglot:DIR[:split]        Aider polyglot-benchmark exercise folders
"""

from __future__ import annotations

from collections.abc import Callable

from ..suite import SPLITS, Suite
from ..task import BenchmarkError
from . import polyglot, swebench, taskdir

LOADERS: dict[str, Callable[..., Suite]] = {
    "builtin": taskdir.load_builtin,
    "taskdir": taskdir.load,
    "swebench": swebench.load,
    "polyglot": polyglot.load,
}


def parse_spec(spec: str) -> tuple[str, str | None, str | None]:
    """'NAME[:ARG][:split]' -> (name, arg, split)."""
    name, _, rest = spec.partition(":")
    split = None
    if rest in SPLITS:
        rest, split = "", rest
    elif rest.rpartition(":")[2] in SPLITS and ":" in rest:
        rest, _, split = rest.rpartition(":")
    return name, rest or None, split


def load_suite(spec: str, **options) -> Suite:
    name, arg, split = parse_spec(spec)
    if name not in LOADERS:
        raise BenchmarkError(f"unknown suite source {name!r}; one of {', '.join(LOADERS)}")
    if name != "builtin" and not arg:
        raise BenchmarkError(f"{name} needs a path: {name}:PATH")
    if name == "builtin" and arg:
        raise BenchmarkError(f"builtin has no part {arg!r}: use builtin, builtin:dev or builtin:test")
    loader = LOADERS[name]
    suite = loader(arg, **options) if name in ("swebench",) else loader(arg)
    return suite.split(split)
