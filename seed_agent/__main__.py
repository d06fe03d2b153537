"""python -m seed_agent solve|improve|check — the agent contract (see README.md)."""

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m seed_agent", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    solve = sub.add_parser("solve", help="edit a repository in place to resolve a task")
    solve.add_argument("--task", type=Path, required=True, help="task JSON (id, statement)")
    solve.add_argument("--repo", type=Path, required=True, help="the repository to edit")
    solve.add_argument("--out", type=Path, required=True, help="where trajectory.jsonl and notes go")
    improve = sub.add_parser("improve", help="edit this agent's own copy, guided by evidence")
    improve.add_argument("--self", dest="self_dir", type=Path, required=True, help="the agent copy to edit")
    improve.add_argument("--evidence", type=Path, required=True, help="the parent's results (read-only)")
    improve.add_argument("--out", type=Path, required=True, help="where trajectory.jsonl and improve.json go")
    sub.add_parser("check", help="exit 0 if the agent imports and its own tests pass")
    args = parser.parse_args(argv)

    if args.command == "check":
        from . import check

        return check.run()
    from . import improve as improve_mod
    from . import solve as solve_mod  # both imported before any self-edit can touch them

    if args.command == "solve":
        return solve_mod.run(args.task, args.repo, args.out)
    return improve_mod.run(args.self_dir, args.evidence, args.out)


if __name__ == "__main__":
    sys.exit(main())
