"""dgm's grading judge: runs pytest inside the grading sandbox under configuration the
grader owns, and reports every outcome on a channel the code under test does not share.

It is grader-owned code shipped with dgm and copied read-only to /grade; dgm never imports
it. It runs as `python3 -I /grade/judge.py --config FILE --rootdir DIR [--deps DIR]
[--tests FILE ...] -- ARGS`:
isolated mode, so no PYTHON* variable, user site, .pth or customize hook from the repository
applies, and the repository is not on sys.path until pytest and its plugins are loaded from
the image (a `pytest.py` or `_pytest/` in the repository shadows nothing). Entry-point
plugins load only from the image and the task's own requirements, never from the
repository; no PYTEST_* variable applies. The secret nonce arrives on stdin; the report is
written, framed by it, to a private copy of stdout, and the process ends with os._exit, so
no atexit hook of the code under test runs after it. Internals that decide and report
outcomes are fingerprinted before and after the run: a replaced one is reported. The test
files named by --tests are compiled before the repository can run, and an audit hook
watches the run (guard.py, beside this file): what it finds goes into the report, and a
verdict-level finding is also written at once, framed by the nonce.
"""

import argparse
import importlib
import importlib.util
import json
import os
import pkgutil
import sys
import types

_WRITE, _EXIT, _DUP = os.write, os._exit, os.dup
WATCHED = (
    "_pytest.runner",
    "_pytest.reports",
    "_pytest.terminal",
    "_pytest.main",
    "_pytest.python",
    "_pytest.nodes",
    "_pytest.outcomes",
    "_pytest.skipping",
    "_pytest.unittest",
    "_pytest.capture",
    "pluggy._hooks",
    "pluggy._callers",
    "pluggy._manager",
    "pluggy._result",
    "__main__",
)
_KINDS = (types.FunctionType, types.BuiltinFunctionType, property, classmethod, staticmethod, type)


def fingerprint() -> dict:
    """id() of every function and class a watched module defines, and of their methods."""
    seen = {}
    for name in WATCHED:
        module = sys.modules.get(name)
        if module is None:
            continue
        seen[name] = id(module)
        for attr, value in list(vars(module).items()):
            if not isinstance(value, _KINDS) or getattr(value, "__module__", name) != name:
                continue
            seen[f"{name}.{attr}"] = id(value)
            if isinstance(value, type):
                for key, member in list(vars(value).items()):
                    if isinstance(member, _KINDS):
                        seen[f"{name}.{attr}.{key}"] = id(member)
    return seen


def preload(package) -> None:
    """Import every submodule now, from the image, before the repository is on sys.path."""
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(info.name)
        except ImportError:
            continue  # optional parts whose own dependencies are absent


def trusted_plugins() -> list:
    """The entry-point plugins installed in the image or the task's requirements."""
    try:
        import importlib.metadata as metadata
    except ImportError:  # Python 3.7: pytest brings importlib_metadata
        import importlib_metadata as metadata
    loaded, points = [], metadata.entry_points()
    entries = points.select(group="pytest11") if hasattr(points, "select") else points.get("pytest11", [])
    for entry in entries:
        try:
            loaded.append(entry.load())
        except ImportError:
            continue
    return loaded


def status_of(report) -> str:
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            return "XPASS" if xfail else "PASSED"
        if report.skipped:
            return "XFAIL" if xfail else "SKIPPED"
        return "FAILED"
    if report.failed:
        return "ERROR"
    return "XFAIL" if xfail else "SKIPPED"


def load_guard():
    """guard.py from beside this file (the judge runs in isolated mode: its folder is not on sys.path)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "guard.py")
    spec = importlib.util.spec_from_file_location("_dgm_guard", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_recorder(pytest, guard):
    class Recorder:
        def __init__(self):
            self.results, self.collect_errors, self.items = {}, {}, None
            self.failed_reports, self.counted_failed, self.exitstatus = 0, None, None

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_logreport(self, report):
            if report.failed and not hasattr(report, "wasxfail"):
                self.failed_reports += 1
            if report.when == "call" or report.failed or report.skipped:
                previous = self.results.get(report.nodeid)
                if previous != "ERROR":
                    self.results[report.nodeid] = status_of(report)

        @pytest.hookimpl(tryfirst=True)
        def pytest_collectreport(self, report):
            if report.failed:
                self.failed_reports += 1
                self.collect_errors[report.nodeid] = "ERROR"

        def pytest_collection_finish(self, session):
            self.items = [item.nodeid for item in session.items]
            guard.check_loaders(session.items)

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_call(self, item):
            guard.check_item(item)

        @pytest.hookimpl(trylast=True)
        def pytest_sessionfinish(self, session, exitstatus):
            self.counted_failed, self.exitstatus = session.testsfailed, int(exitstatus)

    return Recorder()


def summary(recorder, code: int, changed: list, guard) -> dict:
    items = recorder.items or []
    return {
        "exit": code,
        "results": recorder.results,
        "collect_errors": recorder.collect_errors,
        "collected": items,
        "unaccounted": sorted(set(recorder.results) - set(items)),
        "unreported": sorted(set(items) - set(recorder.results)) if recorder.exitstatus in (0, 1) else [],
        "failed_reports": recorder.failed_reports,
        "counted_failed": recorder.counted_failed,
        "finished": recorder.exitstatus is not None,
        "changed": changed,
        "guard": guard.summary(),
    }


def main(argv: list) -> None:
    parser = argparse.ArgumentParser(prog="judge")
    parser.add_argument("--config", required=True)
    parser.add_argument("--rootdir", required=True)
    parser.add_argument("--deps")
    parser.add_argument("--tests", action="append", default=[])
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args(argv)
    nonce = sys.stdin.readline().strip()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    out = _DUP(1)  # the report's channel: a private descriptor, not fd 1
    for key in [k for k in os.environ if k.startswith("PYTEST_")]:
        del os.environ[key]
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"

    def send(kind: str, text: str) -> None:
        data = f"\n@@dgm-judge {nonce} {kind}@@ {json.dumps(text)}\n".encode()
        while data:
            data = data[_WRITE(out, data) :]

    if opts.deps and os.path.isdir(opts.deps):
        sys.path.insert(0, opts.deps)
    here = os.path.join(os.getcwd(), "")
    paths, sys.path[:] = list(sys.path), [p for p in sys.path if p and not os.path.join(p, "").startswith(here)]
    try:  # pytest from the image, even where the repository is installed in place (its .pth)
        import _pytest
        import pluggy
        import pytest
        from _pytest.assertion.rewrite import rewrite_asserts

        preload(_pytest)
        preload(pluggy)
        plugins = trusted_plugins()
    except ImportError as exc:
        send("unavailable", f"the image has no pytest the judge can load: {exc!r}")
        _EXIT(3)
    inside = [m.__name__ for m in (_pytest, pluggy, pytest) if os.path.abspath(m.__file__ or "").startswith(here)]
    if inside:  # an import hook of the repository's (an editable install's) served them
        send("unavailable", f"{', '.join(inside)} load from the repository under test")
        _EXIT(3)
    trusted = list(sys.path)
    sys.path[:] = paths
    guard = load_guard().Guard(
        opts.tests, [*trusted, opts.deps, os.path.dirname(os.path.abspath(__file__))], lambda why: send("event", why)
    )
    guard.compile_tests(rewrite_asserts)
    if hasattr(sys, "addaudithook"):
        sys.addaudithook(guard.hook)
    recorder = make_recorder(pytest, guard)
    before = fingerprint()
    sys.path.insert(0, os.getcwd())  # as `python -m pytest` does, now that pytest is loaded
    args = [a for a in opts.args if a != "--"]
    args += ["-c", opts.config, "--rootdir", opts.rootdir, "--confcutdir", os.getcwd(), "-p", "no:cacheprovider"]
    try:
        code = int(pytest.main(args, plugins=[recorder, *plugins]))
    except BaseException as exc:  # noqa: BLE001 - whatever the code under test raised is recorded
        code, recorder.collect_errors["(session)"] = 3, "ERROR"
        print(f"judge: pytest ended with {exc!r}", file=sys.stderr)
    after = fingerprint()
    changed = sorted(k for k, v in before.items() if after.get(k) != v)
    block = json.dumps(summary(recorder, code, changed, guard))
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # streams the code under test broke; the report does not use them
    data = f"\n@@dgm-judge {nonce} begin@@\n{block}\n@@dgm-judge {nonce} end@@\n".encode()
    while data:
        data = data[_WRITE(out, data) :]
    _EXIT(code if 0 <= code < 256 else 3)


if __name__ == "__main__":
    main(sys.argv[1:])
