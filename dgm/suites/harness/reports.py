"""Readers of the other languages' test reports: `go test -json` events, libtest's lines
(cargo test), JUnit XML (JUnit's console launcher, Catch's junit reporter) and jest's
JSON. Each gives per-test statuses (PASSED, FAILED, SKIPPED), canaries included, and a log to
keep, from which the tests named in `hide` (the canaries) are left out. Everything read here was written inside the
sandbox: a report that does not parse reads as no results."""

from __future__ import annotations

import json
import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)
LIBTEST_STATUS = {"ok": "PASSED", "FAILED": "FAILED", "ignored": "SKIPPED"}
JEST_STATUS = {"passed": "PASSED", "failed": "FAILED"}  # pending, todo, skipped, disabled: SKIPPED


@dataclass(frozen=True)
class Parsed:
    tests: dict[str, str]
    log: str


def _hidden(hide: tuple[str, ...]) -> Callable[[str], bool]:
    return lambda text: any(name in text for name in hide)


def _detail(text: str, limit: int = 12) -> str:
    """A failure's message, indented, without its stack frames."""
    lines = [x for x in text.strip().splitlines() if not re.match(r"\s+at ", x)]
    return "".join(f"    {x}\n" for x in lines[:limit])


def go_json(output: str, hide: tuple[str, ...] = ()) -> Parsed:
    """`go test -json`: one event per line; a test's key is its name (subtests `Test/case`).
    The log is the events' output, less the hidden tests' events; other lines (build
    errors) are kept as they are."""
    tests, lines, hidden = {}, [], _hidden(hide)
    for line in output.splitlines(keepends=True):
        try:
            event = json.loads(line) if line.startswith("{") else None
        except ValueError:
            event = None
        if not isinstance(event, dict) or not isinstance(event.get("Action"), str):
            lines.append(line)
            continue
        test = str(event.get("Test") or "")
        if event["Action"] == "output" and not (test and hidden(test.split("/")[0])):
            lines.append(str(event.get("Output", "")))
        elif test and event["Action"] in ("pass", "fail", "skip"):
            tests[test] = {"pass": "PASSED", "fail": "FAILED", "skip": "SKIPPED"}[event["Action"]]
    return Parsed(tests, "".join(lines))


def libtest(output: str, hide: tuple[str, ...] = ()) -> Parsed:
    """cargo test: `test NAME ... ok|FAILED|ignored` under `Running TARGET (...)` or
    `Doc-tests CRATE`; a test's key is `TARGET::NAME`. The hidden tests' lines and their
    `---- NAME stdout ----` sections are left out of the log, and each `test result:` line
    and `running N tests` line are recounted without them."""
    tests, unit, kept, hidden = {}, "", [], _hidden(hide)
    counts = {"PASSED": 0, "FAILED": 0, "SKIPPED": 0}
    skipping, announced = False, None  # where the unit's `running N tests` line is kept
    for line in output.splitlines(keepends=True):
        if re.match(r"running \d+ tests?$", line.strip()):
            announced = len(kept)
        running = re.match(r"\s*Running (?:unittests )?(\S+)", line)
        doc = re.match(r"\s*Doc-tests (\S+)", line)
        result = re.match(r"test (.+?) \.\.\. (ok|FAILED|ignored)\b", line)
        section = re.match(r"---- (.+?) stdout ----", line)
        if section or line.startswith(("failures:", "test result:")):
            skipping = bool(section) and hidden(section.group(1))
        if running or doc:
            announced = _recount(kept, announced, counts)  # a unit that ended without its result line
            unit, counts = (running.group(1) if running else f"doc:{doc.group(1)}"), dict.fromkeys(counts, 0)
        elif result:
            tests[f"{unit}::{result.group(1)}"] = LIBTEST_STATUS[result.group(2)]
            counts[LIBTEST_STATUS[result.group(2)]] += not hidden(result.group(1))
        elif line.startswith("test result:"):
            word = "ok" if not counts["FAILED"] else "FAILED"
            passed, failed, ignored = counts["PASSED"], counts["FAILED"], counts["SKIPPED"]
            line = f"test result: {word}. {passed} passed; {failed} failed; {ignored} ignored\n"
            announced = _recount(kept, announced, counts)
        if not skipping and not hidden(line):
            kept.append(line)
    _recount(kept, announced, counts)
    return Parsed(tests, "".join(kept))


def _recount(kept: list[str], announced: int | None, counts: dict[str, int]) -> None:
    """The kept `running N tests` line at `announced`, counting only the tests reported."""
    if announced is not None:
        total = sum(counts.values())
        kept[announced] = f"running {total} test{'' if total == 1 else 's'}\n"


def junit_xml(report: str, hide: tuple[str, ...] = (), plain_class: str = "") -> Parsed:
    """JUnit's XML: a test's key is `CLASSNAME::NAME`, or NAME alone where the class name
    ends with `plain_class` (Catch's `BINARY.global` for free test cases)."""
    try:
        root = ET.fromstring(report.strip())
    except ET.ParseError as exc:
        return Parsed({}, f"(the test report did not parse: {exc})\n")
    tests, lines, hidden = {}, [], _hidden(hide)
    for case in root.iter("testcase"):
        name, klass = case.get("name", ""), case.get("classname", "")
        key = name if plain_class and klass.endswith(plain_class) else f"{klass.rpartition('.')[2]}::{name}"
        failed = case.find("failure") if case.find("failure") is not None else case.find("error")
        status = "FAILED" if failed is not None else "SKIPPED" if case.find("skipped") is not None else "PASSED"
        tests[key] = status
        if hidden(name):
            continue
        lines.append(f"{status} {key}\n")
        if failed is not None:
            lines.append(_detail((failed.text or "").strip() or failed.get("message", "")))
    return Parsed(tests, "".join(lines))


def jest_json(report: str, hide: tuple[str, ...] = (), root: str = "/repo/") -> Parsed:
    """jest --json: a test's key is `FILE::FULL NAME` (FILE relative to the repository); a
    test file that failed to run is `FILE::(file)`, failed, with jest's message."""
    try:
        data = json.loads(report)
        files = list(data["testResults"])
    except (ValueError, KeyError, TypeError) as exc:
        return Parsed({}, f"(the test report did not parse: {exc!r})\n")
    tests, lines, hidden = {}, [], _hidden(hide)
    for entry in files:
        path = str(entry.get("name", "")).removeprefix(root)
        results = entry.get("assertionResults") or []
        if not results and entry.get("status") == "failed":
            tests[f"{path}::(file)"] = "FAILED"
            lines.append(f"FAILED {path}\n{entry.get('message', '')}\n")
        for result in results:
            name = str(result.get("fullName", ""))
            status = JEST_STATUS.get(result.get("status"), "SKIPPED")
            tests[f"{path}::{name}"] = status
            if hidden(name):
                continue
            lines.append(f"{status} {path}::{name}\n")
            lines += [_detail(m) for m in (result.get("failureMessages") or [])[:2] if isinstance(m, str)]
    return Parsed(tests, "".join(lines))
