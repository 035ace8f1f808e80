"""`vtcode sandbox -- CMD ARGS...`: run one command under the configured OS sandbox, to test the rules."""

from __future__ import annotations

import argparse
import sys

from vtcode.cli.inputs import workspace_dir
from vtcode.config.environment import os_environ, sandbox_missing_features
from vtcode.config.loader import load_settings
from vtcode.config.sandbox import sandbox_policy
from vtcode.exec.sandbox import SandboxUnavailable
from vtcode.exec.sandbox_run import run_confined
from vtcode.protocol.errors import ConfigError, UsageError


def _notify(message: str) -> None:
    sys.stderr.write(f"vtcode: {message}\n")


def run_sandbox(args: argparse.Namespace, overrides: list[str]) -> int:
    """Run the command and return its exit status."""
    argv = list(args.argv)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        raise UsageError(
            "sandbox needs a command", hint="vtcode sandbox -- sh -c 'touch /tmp/ok && touch ~/nope'"
        )
    workspace = workspace_dir(args.workspace)
    env = os_environ()
    flags = {"sandbox.mode": args.sandbox} if args.sandbox else {}
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides, flags=flags)
    policy = sandbox_policy(loaded.settings, env)
    sys.stderr.write(f"vtcode: running in {workspace} with {policy.describe()}\n")
    sys.stderr.flush()
    try:
        return run_confined(
            argv,
            workspace=workspace,
            env=env,
            policy=policy,
            missing=sandbox_missing_features(env),
            notify=_notify,
        )
    except SandboxUnavailable as exc:
        raise ConfigError(str(exc)) from None
    except OSError as exc:
        sys.stderr.write(f"vtcode: could not run {argv[0]}: {exc.strerror or exc}\n")
        return 127 if isinstance(exc, FileNotFoundError) else 126
    finally:
        sys.stderr.flush()
