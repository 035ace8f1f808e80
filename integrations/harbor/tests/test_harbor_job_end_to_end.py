"""`harbor run` of a local task with VTCodeAgent, offline: inside a network namespace this test creates
(only `lo`), the scripted model on 127.0.0.1, LocalNsEnvironment as the task environment, the real
release archive uploaded as the agent. Then `harbor job resume` of the finished job.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harbor.utils.trajectory_validator import TrajectoryValidator

from conftest import network_namespace_problem

HERE = Path(__file__).resolve().parent
TRIALS = 4
# Per trial (netns_driver.respond): a tool call, then the answer.
REQUESTS_PER_TRIAL = 2


@pytest.fixture(scope="module")
def job(release_archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Run the job once for every test here; its folder, the summary, the environments' exec logs."""
    if problem := network_namespace_problem():
        pytest.skip(problem)
    base = tmp_path_factory.mktemp("harbor")
    summary = base / "summary.json"
    run_args = [
        *("-p", str(HERE / "task" / "hello")),
        *("-a", "vtcode_harbor.agent:VTCodeAgent"),
        *("-e", "local_ns_env:LocalNsEnvironment"),
        *("--ek", f"root_base={base / 'roots'}"),
        *("--ak", f"artifact={release_archive}"),
        *("-m", "openai/gpt-4.1"),
        *("-n", "2", "-k", str(TRIALS)),
        *("-o", str(base / "jobs"), "--job-name", "hello-job"),
        *("--no-delete", "-y", "-q"),
    ]
    driver = [sys.executable, str(HERE / "netns_driver.py"), str(summary), "--", *run_args]
    # `lo` up, then the driver: the scripted model and Harbor share this namespace and nothing else.
    proc = subprocess.run(
        ["unshare", "-n", "bash", "-c", 'ip link set lo up && exec "$@"', "netns", *driver],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
        cwd=base,
        env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(base), "PYTHONPATH": str(HERE)},
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    result = json.loads(summary.read_text())
    assert result["run"]["code"] == 0, result["run"]
    yield {"dir": base / "jobs" / "hello-job", "summary": result, "roots": base / "roots"}
    # The roots hold a copy of the executable each (tens of MB): not kept with pytest's old temp dirs.
    shutil.rmtree(base / "roots", ignore_errors=True)


def _trials(job_dir: Path) -> list[Path]:
    return sorted(p for p in job_dir.iterdir() if (p / "result.json").is_file())


def _result(trial: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((trial / "result.json").read_text())
    return data


def test_every_trial_is_scored_by_the_verifier_with_no_error(job: dict[str, Any]) -> None:
    trials = _trials(job["dir"])
    assert len(trials) == TRIALS
    for trial in trials:
        result = _result(trial)
        assert result.get("exception_info") is None, result["exception_info"]
        assert result["verifier_result"]["rewards"] == {"reward": 1.0}
        assert result["agent_info"]["name"] == "vtcode"
        assert result["agent_info"]["version"] == "0.1.0"  # from the uploaded executable's --version


def test_token_counts_come_from_the_run_events(job: dict[str, Any]) -> None:
    for trial in _trials(job["dir"]):
        agent = _result(trial)["agent_result"]
        # The scripted model's two replies: 20 + 30 prompt tokens (10 cached), 4 + 6 completion tokens.
        assert (agent["n_input_tokens"], agent["n_cache_tokens"], agent["n_output_tokens"]) == (50, 10, 10)
        assert agent["metadata"]["vtcode_exit_code"] == "0"


def test_every_trial_leaves_a_trajectory_that_harbors_validator_accepts(job: dict[str, Any]) -> None:
    for trial in _trials(job["dir"]):
        path = trial / "agent" / "trajectory.json"
        validator = TrajectoryValidator()
        assert validator.validate(path), validator.get_errors()
        cli = subprocess.run(
            [sys.executable, "-m", "harbor.utils.trajectory_validator", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert cli.returncode == 0, cli.stderr
        steps = json.loads(path.read_text())["steps"]
        assert steps[0]["source"] == "user"
        assert "hello.txt" in steps[0]["message"]
        call = steps[1]["tool_calls"][0]
        assert (call["function_name"], call["arguments"]) == (
            "exec_command",
            {"command": "echo hello > hello.txt"},
        )
        assert steps[-1]["message"] == "Wrote hello.txt."


def _agent_runs(job: dict[str, Any]) -> list[dict[str, Any]]:
    """Every `vtcode exec` the environments ran, by the run and by the resume."""
    logs = sorted(Path(job["roots"]).glob("*.exec.jsonl"))
    return [
        json.loads(line)
        for log in logs
        for line in log.read_text().splitlines()
        if "/installed-agent/vtcode exec" in line
    ]


def test_the_agent_runs_with_only_the_allowlisted_host_variables(job: dict[str, Any]) -> None:
    runs = _agent_runs(job)
    assert len(runs) == TRIALS
    for run in runs:
        assert {"OPENAI_API_KEY", "OPENAI_BASE_URL", "VTCODE_HOME"} <= set(run["env"])
        assert "VTCODE_HARBOR_CANARY" not in run["env"]
        assert "PYTHONPATH" not in run["env"]


def test_the_installed_agent_stays_inside_the_task_environment(job: dict[str, Any]) -> None:
    roots = [p for p in Path(job["roots"]).iterdir() if p.is_dir()]
    assert len(roots) == TRIALS
    for root in roots:
        assert (root / "installed-agent" / "vtcode").stat().st_mode & 0o111
    assert not Path("/installed-agent/vtcode").exists()


def test_resuming_the_finished_job_runs_nothing(job: dict[str, Any]) -> None:
    summary = job["summary"]
    assert summary["run"]["requests"] == TRIALS * REQUESTS_PER_TRIAL
    assert summary["resume"]["code"] == 0, summary["resume"]
    # No model request, no new trial folder, no agent run in any environment.
    assert summary["resume"]["requests"] == summary["run"]["requests"]
    assert len(_trials(job["dir"])) == TRIALS
    assert len(_agent_runs(job)) == TRIALS
