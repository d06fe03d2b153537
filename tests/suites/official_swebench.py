"""The official `swebench` package (5.0.2), imported for parity tests only: dgm never imports it.

`swebench.harness/__init__.py` imports the whole harness (docker, `datasets`, `modal`), so the
package is installed without its dependencies (scripts/bootstrap.sh) and its pure modules are
imported here under a `swebench.harness` package object whose `__init__` is never run. The
grading chain then needs only `unidiff`. The predictions loader's module also imports `datasets`
(Hugging Face loading) and `dotenv` (reads a `.env` into the environment at import): neither is
touched when it reads a JSONL file, so both are stubbed for that one import.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
import types
from unittest import mock

import pytest

VERSION = "5.0.2"


def _unavailable(*args, **kwargs):
    raise AssertionError("the offline predictions loader must not reach Hugging Face datasets")


@functools.cache
def _harness() -> types.SimpleNamespace:
    import swebench

    if swebench.__version__ != VERSION:
        raise ImportError(f"swebench {swebench.__version__} installed, the parity tests pin {VERSION}")
    if "swebench.harness" not in sys.modules:
        spec = importlib.util.find_spec("swebench.harness")
        sys.modules["swebench.harness"] = importlib.util.module_from_spec(spec)  # __init__ not run
    return types.SimpleNamespace(
        grading=importlib.import_module("swebench.harness.grading"),
        constants=importlib.import_module("swebench.harness.constants"),
        registry=importlib.import_module("swebench.harness.log_parsers").PARSER_REGISTRY,
        python_parsers=importlib.import_module("swebench.harness.log_parsers.python"),
        TestSpec=importlib.import_module("swebench.types").TestSpec,
    )


def harness() -> types.SimpleNamespace:
    """swebench's grading modules; fails under CI (CI set) when they cannot be imported, else skips."""
    try:
        return _harness()
    except ImportError as exc:
        reason = f"swebench=={VERSION} (installed --no-deps, with unidiff) is not importable: {exc}"
        if os.environ.get("CI"):
            pytest.fail(reason + "; scripts/bootstrap.sh installs it", pytrace=False)
        pytest.skip(reason)


@functools.cache
def _utils() -> types.ModuleType:
    _harness()
    spec = importlib.util.find_spec("swebench.harness.utils")
    stubs = {
        "datasets": types.SimpleNamespace(Dataset=object, load_dataset=_unavailable, load_from_disk=_unavailable),
        "dotenv": types.SimpleNamespace(load_dotenv=lambda *args, **kwargs: False),
    }
    module = importlib.util.module_from_spec(spec)
    with mock.patch.dict(sys.modules, {**stubs, spec.name: module}):
        spec.loader.exec_module(module)
    return module


def predictions_loader():
    """swebench's `get_predictions_from_file(predictions_path, dataset_name, split, ...)`."""
    harness()
    try:
        return _utils().get_predictions_from_file
    except ImportError as exc:
        reason = f"swebench.harness.utils is not importable: {exc}"
        if os.environ.get("CI"):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
