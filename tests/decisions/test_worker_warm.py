"""A worker of a real `manage.py qcluster` holds the readers' models before it takes its first
task: they load once in the cluster's main process, before it forks, and every worker (also
one started again after its predecessor died) inherits them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django_q.tasks import async_task, result

from claimcheck.queue import ORM
from integrations.llm.local_server import write_config
from tests.processes import database_url, free_port, qcluster, wait_until

QUEUE = f"claimcheck-warm-test-{os.getpid()}"


def readers_loaded() -> dict[str, Any]:
    """Run as a task: which worker ran it, and what it held already."""
    from claimcheck.language import _Identifier
    from evidence.stance import model

    loaded = {path.name: m for path, m in model._loaded.items() if m is not None}
    return {
        "worker": os.getpid(),
        "stance models": sorted(loaded),
        "loaded in": sorted({m.loaded_in for m in loaded.values()}),
        "language detector": _Identifier._model is not None,
    }


def die() -> None:
    """Run as a task: the worker dies mid-task, as one killed by the kernel does."""
    os._exit(1)


def _run(broker: ORM, log: Path) -> dict[str, Any]:
    task_id = async_task(f"{__name__}.readers_loaded", broker=broker, sync=False)
    assert wait_until(lambda: result(task_id) is not None, timeout=120), log.read_text()[-3000:]
    answer = result(task_id)
    assert isinstance(answer, dict)
    return answer


def _cluster_env(**extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": database_url(),
        "CLAIMCHECK_QUEUE": QUEUE,
        "CLAIMCHECK_WORKERS": "1",
        **extra,
    }
    env.pop("REDIS_URL", None)
    return env


@pytest.mark.django_db(transaction=True)
def test_workers_inherit_the_models_the_cluster_loaded_before_it_forked(tmp_path: Path) -> None:
    broker = ORM(list_key=QUEUE)
    broker.delete_queue()
    env = _cluster_env()
    log = tmp_path / "qcluster.log"
    try:
        with qcluster(env, log) as cluster:
            first = _run(broker, log)
            # A worker that dies mid-task: the cluster starts another in its place.
            async_task(f"{__name__}.die", broker=broker, sync=False)
            assert wait_until(lambda: "reincarnated worker" in log.read_text(), timeout=60)
            second = _run(broker, log)
    finally:
        broker.delete_queue()
    readers = sorted(
        Path(d).name for d in (settings.STANCE_MODEL_DIR, settings.STANCE_STRONG_MODEL_DIR)
    )
    held = {"stance models": readers, "loaded in": [cluster.pid]}
    for answer in (first, second):
        assert {k: answer[k] for k in held} == held
        assert answer["language detector"] is True
        assert answer["worker"] != cluster.pid
    assert second["worker"] != first["worker"]
    text = log.read_text()
    assert "cluster warm in" in text
    assert "warm in" in text.replace("cluster warm in", "")  # each worker checked too


@pytest.mark.django_db(transaction=True)
def test_a_worker_starts_warm_while_its_configured_model_server_is_down(tmp_path: Path) -> None:
    """Every LLM step pointed at a port nothing listens on: the cluster still starts, loads
    this machine's readers and runs tasks; the model server is tried when a claim needs it."""
    config = tmp_path / "pipeline-llm.yaml"
    write_config(
        base=Path(settings.BASE_DIR) / "claimcheck/default.yaml", out=config, port=free_port()
    )
    broker = ORM(list_key=QUEUE)
    broker.delete_queue()
    log = tmp_path / "qcluster.log"
    try:
        with qcluster(_cluster_env(CLAIMCHECK_CONFIG=str(config)), log) as cluster:
            answer = _run(broker, log)
    finally:
        broker.delete_queue()
    assert answer["loaded in"] == [cluster.pid]
    assert answer["language detector"] is True
    text = log.read_text()
    assert "cluster warm in" in text
    assert "LLMError" not in text and "Traceback" not in text
