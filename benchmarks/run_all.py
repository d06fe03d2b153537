"""Run every benchmark and write its figures into BENCHMARKS.md.

    .venv/bin/python benchmarks/run_all.py [--only archive,gateway,...]   (as root, for the sandboxes)

Each benchmark's last line (its figures) goes into the generated table between the
`run_all` markers of BENCHMARKS.md, with the date and the exact command; everything a
benchmark prints on stderr goes under it. The hand-written sections around it stay."""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = {
    "archive": ["bench_archive.py"],
    "sandbox": ["bench_sandbox.py"],
    "gateway": ["bench_gateway.py"],
    "budgets": ["bench_budgets.py"],
    "selection": ["bench_selection.py"],
    "simulate": ["bench_simulate.py"],
    "executors": ["bench_executors.py"],
    "local_model": ["bench_local_model.py"],
    "serve": ["bench_serve.py"],
}
BEGIN, END = "<!-- run_all:begin -->", "<!-- run_all:end -->"


def run(name: str) -> tuple[str, str, str]:
    cmd = [sys.executable, str(HERE / BENCHMARKS[name][0])]
    print(f"run_all: {name} ...", file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark {name} failed:\n{proc.stderr[-3000:]}")
    figures = proc.stdout.strip().splitlines()[-1]
    shown = f".venv/bin/python benchmarks/{BENCHMARKS[name][0]}"
    return shown, figures, proc.stderr.strip()


def previous(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """The generated section's rows and detail blocks, by benchmark name."""
    match = re.search(re.escape(BEGIN) + "(.*?)" + re.escape(END), text, flags=re.S)
    if not match:
        return {}, {}
    body = match.group(1)
    rows = {
        m.group(1): m.group(0)
        for m in re.finditer(r"^\| (\w+)[^|]*\|.*$", body, flags=re.M)
        if m.group(1) in BENCHMARKS
    }
    parts = re.split(r"^### (\w+)\n", body, flags=re.M)
    details = {parts[i]: f"### {parts[i]}\n{parts[i + 1].rstrip()}\n" for i in range(1, len(parts) - 1, 2)}
    return rows, details


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated subset of: " + ", ".join(BENCHMARKS))
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        raise SystemExit(f"unknown benchmark(s) {unknown}; choose from {', '.join(BENCHMARKS)}")
    date = datetime.date.today().isoformat()
    path = HERE.parent / "BENCHMARKS.md"
    text = path.read_text()
    rows, details = previous(text)  # --only: the others keep their last figures, and say when
    for name in names:
        command, figures, stderr = run(name)
        rows[name] = f"| {name} ({date}) | `{command}` | `{figures}` |"
        details[name] = f"### {name}\n\n```\n{stderr}\n```\n"
    order = [n for n in BENCHMARKS if n in rows]
    section = (
        f"{BEGIN}\n## Latest runs of `benchmarks/run_all.py`\n\n| benchmark | command | figures |\n"
        f"|---|---|---|\n"
        + "\n".join(rows[n] for n in order)
        + "\n\n"
        + "\n".join(details[n] for n in order if n in details)
        + f"\n{END}"
    )
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    path.write_text(text)
    print(f"run_all: wrote {len(rows)} benchmark(s) into {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
