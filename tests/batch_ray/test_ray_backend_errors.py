"""`--backend ray` without Ray installed, or without a cluster, says what to do and touches nothing."""

from __future__ import annotations

from pathlib import Path

from tests.batch.scripted_tasks import MODEL_ARGS, tasks_file
from tests.batch_ray.conftest import ray_installed, run_batch
from tests.conftest import VtcodeRunner
from vtcode.testing.loopback_netns import LoopbackNamespace

START = "ray start --head --node-ip-address=127.0.0.1"


def test_without_ray_installed_the_error_says_how_to_install_it(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    env: dict[str, str] = {}
    if ray_installed():
        # Ray is in this venv (the CI step that tests it): hide it behind a package that fails to import
        # exactly as a missing one does.
        shadow = tmp_path / "shadow" / "ray"
        shadow.mkdir(parents=True)
        (shadow / "__init__.py").write_text(
            "raise ModuleNotFoundError(\"No module named 'ray'\", name='ray')\n"
        )
        env["PYTHONPATH"] = str(shadow.parent)
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["t1"])
    out = tmp_path / "out"
    result = vtcode.run("batch", "run", str(tasks), "-o", str(out), "--backend", "ray", *MODEL_ARGS, env=env)
    assert result.code == 2, result.stderr
    assert "pip install 'vtcode[ray]'" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (out / "run.json").exists()


def test_without_a_cluster_the_error_says_how_to_start_one(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, tmp_path: Path
) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["t1"])
    out = tmp_path / "out"
    # Nothing listens in a fresh namespace: the driver must fail fast, not retry for minutes.
    args = [str(tasks), "-o", str(out), "--backend", "ray", "--ray-address", "127.0.0.1:6379", *MODEL_ARGS]
    result = run_batch(vtcode, namespace, args, {}, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "no Ray cluster at 127.0.0.1:6379" in result.stderr
    assert START in result.stderr
    assert "Traceback" not in result.stderr
    assert not (out / "run.json").exists()
    # The same through RAY_ADDRESS.
    plain = [str(tasks), "-o", str(out), "--backend", "ray", *MODEL_ARGS]
    by_env = run_batch(vtcode, namespace, plain, {"RAY_ADDRESS": "127.0.0.1:6380"}, timeout=60)
    assert by_env.returncode == 2, by_env.stderr
    assert "no Ray cluster at 127.0.0.1:6380" in by_env.stderr


def test_the_batch_help_says_how_to_start_a_cluster(vtcode: VtcodeRunner) -> None:
    result = vtcode.run("batch", "run", "--help")
    assert result.code == 0
    assert START in " ".join(result.stdout.split())
    assert "pip install 'vtcode[ray]'" in result.stdout
