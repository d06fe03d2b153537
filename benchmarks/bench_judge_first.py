"""Judge-first staging: model tokens with and without `--judge-first` on a scripted run.

Two `dgm evolve` runs on bwrap through the real gateway and the SCRIPTED upstream (the test
double: the engine tests' tasks and script, plus a judge that scores an empty patch 0.1 and
any other 0.9), the same seed, one worker, the same number of children, each run until
nothing is left to evaluate. The second gates every new agent on the judge's review of its
first patch. Tokens are the gateway's metering (the scripted upstream counts about four
characters a token), all roles together, the judge's included.

    .venv/bin/python benchmarks/bench_judge_first.py [--children N] [--gate T]

The last line is: tokens_without=N tokens_with=M saving=X evaluations_without=A evaluations_with=B
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from archive import Archive
from dgm.cli import main
from tests.engine.conftest import SCRIPT, make_engine_env

JUDGE = [
    {"when": {"contains": "strict code reviewer", "last_contains": r"\(empty\)"}, "reply": {"content": "SCORE: 0.1"}},
    {"when": {"contains": "strict code reviewer"}, "reply": {"content": "SCORE: 0.9"}},
]


def one_run(root: Path, tasks: Path, script: Path, children: int, extra: list[str]) -> dict:
    run = root / ("run-gated" if extra else "run-plain")
    args = ["evolve", "--run", str(run), "--fm", f"scripted:{script}", "--benchmark", f"taskdir:{tasks}"]
    args += ["--workers", "1", "--max-expansions", str(children), "--max-evals", "10000", "--utility", "judge", *extra]
    result = CliRunner().invoke(main, args)
    if result.exit_code != 0:
        raise SystemExit(result.output)
    with Archive.for_run(run) as ar:
        roles: dict[str, int] = {}
        for call in ar.fm_calls():
            roles[call.role or "-"] = roles.get(call.role or "-", 0) + call.prompt_tokens + call.completion_tokens
        return {"tokens": sum(roles.values()), "by_role": roles, "evaluations": len(ar.evaluations())}


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--children", type=int, default=8, help="children per run [8]")
    parser.add_argument("--gate", type=float, default=0.5, help="the judge-first gate T [0.5]")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-judge-first-"))
    root.chmod(0o755)
    tasks, _ = make_engine_env(root)
    script = root / "judged.json"
    script.write_text(json.dumps({**SCRIPT, "rules": [*JUDGE, *SCRIPT["rules"]]}))
    plain = one_run(root, tasks, script, args.children, [])
    gated = one_run(root, tasks, script, args.children, ["--judge-first", str(args.gate)])
    print(json.dumps({"without": plain, "with": gated}, indent=2))
    saving = 1 - gated["tokens"] / plain["tokens"]
    print(
        f"tokens_without={plain['tokens']} tokens_with={gated['tokens']} saving={saving:.3f} "
        f"evaluations_without={plain['evaluations']} evaluations_with={gated['evaluations']}"
    )


if __name__ == "__main__":
    main_()
