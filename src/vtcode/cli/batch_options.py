"""The `vtcode batch` argparse tree (kept apart from cli/parser.py, which only calls it)."""

from __future__ import annotations

import argparse

# `batch run` hands these flags on to each task's `vtcode exec`, so they take exec's values.
from vtcode.cli.parser import APPROVALS, PROFILES, SANDBOX_MODES

BATCH_DESCRIPTION = """\
Run many agent tasks headless, each one `vtcode exec --json` in its own workspace (a git checkout or a
copy), and collect the results in one resumable folder:

  OUT/run.json                 the tasks file's sha256, the pinned flags
  OUT/tasks/<id>/result.json   written last: with a terminal status, done
  OUT/tasks/<id>/              events.jsonl, trajectory.json (ATIF),
                               patch.diff, stderr.log, setup.log,
                               eval.log, instruction.txt
  OUT/preds.json, preds.jsonl  SWE-bench predictions (instance_id,
                               model_name_or_path, model_patch)
  OUT/summary.json             counts by status, tokens, cost, durations
  OUT/work/<id>/               workspaces of tasks that did not complete
                               (or all, --keep-workspaces)

A tasks file has one JSON object per line: {"id": "fix-1", "instruction": "...", "repo": {"path":
"src/app"} or {"git": "/mirrors/app.git", "commit": "abc123"}, "setup": ["..."], "eval": {"command":
"pytest -q", "timeout_s": 600}, "env": {...}, "metadata": {...}, "instance_id": "..."}. It is checked
whole before anything runs.

--filter, --slice and --shuffle choose which tasks of the file run now; the folder still holds the
whole file (status and predictions cover every task), so another slice adds to it.

Rerunning the same command resumes: completed, failed and timeout tasks are skipped; error and
interrupted ones run again (--retry-failed also reruns failed and timeout, --redo-existing all). A
task folder without a readable result.json is set aside as tasks/<id>.stale-<n> and the task redone.
Ctrl-C once stops starting tasks and interrupts the running ones; twice kills them."""

BATCH_EPILOG = """\
exit codes: 0 every task completed, 1 some task failed, timed out or errored, 2 usage or configuration
error (a bad tasks file, another file or other flags for an existing folder), 4 tasks ended on provider
errors, 130 interrupted.

--backend ray runs each task as a Ray task on a cluster (pip install 'vtcode[ray]' on the driver and
every node, vtcode at the same path everywhere, OUT/work on a filesystem the nodes share). Start one
with `ray start --head --node-ip-address=127.0.0.1 --port=6379` (nodes: `ray start
--address=HEAD:6379`), then pass --ray-address HEAD:6379 or set RAY_ADDRESS; a cluster with token
authentication also needs RAY_AUTH_MODE=token and its token (~/.ray/auth_token or RAY_AUTH_TOKEN).
--workers caps the tasks in flight; each takes one CPU of a node."""


def _folder(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", metavar="OUT", help="the output folder of a `vtcode batch run`")


def _add_described(
    actions: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str
) -> argparse.ArgumentParser:
    # `batch --help` and `batch run --help` both show the whole story: the folder layout, exit codes, Ray.
    return actions.add_parser(
        name,
        help=summary,
        description=BATCH_DESCRIPTION,
        epilog=BATCH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _add_run_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = _add_described(actions, "run", "run (or resume) every task of TASKS.jsonl into the folder OUT")
    run.add_argument("tasks", metavar="TASKS.jsonl", help="the tasks file (JSONL, or a JSON array)")
    run.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="the output folder (resumed if it exists)"
    )
    run.add_argument("--workers", type=int, metavar="N", help="tasks at once (default: cores - 1)")
    run.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where tasks run (default: local)"
    )
    run.add_argument(
        "--ray-address", metavar="HOST:PORT", help="the Ray cluster (--backend ray; default RAY_ADDRESS)"
    )
    run.add_argument(
        "--format",
        choices=("vtcode", "swebench"),
        default="vtcode",
        help="vtcode: task lines as above; swebench: dataset rows (instance_id, repo, base_commit, "
        "problem_statement) checked out of local mirrors in --repos-dir",
    )
    run.add_argument(
        "--repos-dir", metavar="DIR", help="local git mirrors for --format swebench (never fetched)"
    )
    run.add_argument(
        "--filter",
        metavar="REGEX",
        help="run only the tasks whose id matches REGEX from its start (Python re.match)",
    )
    run.add_argument(
        "--slice",
        metavar="A:B",
        help="run only these tasks of the file (after --shuffle and --filter), as a Python slice: "
        ":50 the first 50, 10:20; --slice=-5: the last five",
    )
    run.add_argument(
        "--shuffle",
        action="store_true",
        help="choose and run the tasks in a seeded random order (sorted by id, then shuffled: the "
        "order mini-swe-agent's --shuffle gives)",
    )
    run.add_argument("--seed", type=int, metavar="N", help="the seed of --shuffle (default 42)")
    rerun = run.add_mutually_exclusive_group()
    rerun.add_argument("--retry-failed", action="store_true", help="also rerun failed and timed-out tasks")
    rerun.add_argument("--redo-existing", action="store_true", help="rerun every task")
    run.add_argument(
        "--force", action="store_true", help="resume OUT even with another tasks file or other flags"
    )
    run.add_argument(
        "--timeout",
        "--task-timeout",
        dest="task_timeout",
        type=float,
        default=1800.0,
        metavar="S",
        help="wall-clock limit of one task's setup and agent run in seconds (default 1800): then "
        "SIGINT, a grace period, SIGKILL of its processes",
    )
    run.add_argument(
        "--grace",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds between SIGINT and SIGKILL (default 10)",
    )
    run.add_argument(
        "--network",
        choices=("off", "on"),
        default="off",
        help="whether the tasks' commands (setup, agent, eval) reach the network (default off; vtcode "
        "itself always reaches its provider)",
    )
    run.add_argument(
        "--keep-workspaces", action="store_true", help="keep every workspace, not only failed ones"
    )
    run.add_argument(
        "--pass-env",
        action="append",
        default=[],
        metavar="NAME",
        help="pass this environment variable to the tasks (besides PATH, HOME, locale, proxies and the "
        "provider variables); repeatable",
    )
    run.add_argument(
        "--starts-per-minute",
        type=float,
        metavar="N",
        help="start at most N tasks a minute per provider (new starts also wait out a provider's "
        "Retry-After)",
    )
    run.add_argument(
        "--provider", metavar="NAME", help="openai, anthropic, gemini, ollama, ...", default=argparse.SUPPRESS
    )
    run.add_argument(
        "-m", "--model", metavar="NAME", help="the model every task uses", default=argparse.SUPPRESS
    )
    run.add_argument(
        "--base-url", metavar="URL", help="send requests to this endpoint", default=argparse.SUPPRESS
    )
    run.add_argument(
        "--approval",
        choices=APPROVALS,
        help="what may run without asking (default for batch: full-auto)",
        default=argparse.SUPPRESS,
    )
    run.add_argument(
        "--max-turns", type=int, metavar="N", help="model requests per task", default=argparse.SUPPRESS
    )
    run.add_argument(
        "--profile",
        choices=PROFILES,
        help="system prompt profile",
        default=argparse.SUPPRESS,
    )
    run.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        help="the OS sandbox of the tasks' commands",
        default=argparse.SUPPRESS,
    )
    run.add_argument(
        "-c",
        "--config",
        dest="config",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a config override for every task (as for exec); repeatable",
    )


def add_batch_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`vtcode batch run|status|preds|atif`."""
    batch = _add_described(
        commands, "batch", "run many tasks headless into one resumable folder (SWE-bench predictions)"
    )
    actions = batch.add_subparsers(dest="batch_command", metavar="ACTION")
    _add_run_parser(actions)
    status = actions.add_parser(
        "status", help="counts by status, tokens, cost and the slowest tasks of a batch folder"
    )
    _folder(status)
    status.add_argument("--json", action="store_true", help="print JSON (the summary and every task)")
    preds = actions.add_parser(
        "preds", help="rebuild preds.json and preds.jsonl from the task results of a batch folder"
    )
    _folder(preds)
    atif = actions.add_parser(
        "atif",
        help="(re)write each task's trajectory.json (ATIF, Harbor's trajectory format) from its events.jsonl",
    )
    _folder(atif)
