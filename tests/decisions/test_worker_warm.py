"""A fresh worker process of a real `manage.py qcluster` loads the readers' models before it
takes its first task, instead of inside its first claim."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django_q.tasks import async_task, result

from claimcheck.queue import ORM
from tests.processes import database_url, qcluster, wait_until

QUEUE = f"claimcheck-warm-test-{os.getpid()}"


def readers_loaded() -> dict[str, Any]:
    """Run as the first task of a fresh worker: what that worker holds already."""
    from claimcheck.language import _Identifier
    from evidence.stance import model

    return {
        "stance models": sorted(
            path.name for path, loaded in model._loaded.items() if loaded is not None
        ),
        "language detector": _Identifier._model is not None,
    }


@pytest.mark.django_db(transaction=True)
def test_a_fresh_worker_has_its_models_loaded_before_its_first_task(tmp_path: Path) -> None:
    broker = ORM(list_key=QUEUE)
    broker.delete_queue()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": database_url(),
        "CLAIMCHECK_QUEUE": QUEUE,
        "CLAIMCHECK_WORKERS": "1",
    }
    env.pop("REDIS_URL", None)
    task_id = async_task(f"{__name__}.readers_loaded", broker=broker, sync=False)
    log = tmp_path / "qcluster.log"
    with qcluster(env, log):
        assert wait_until(lambda: result(task_id) is not None, timeout=120), log.read_text()[-3000:]
    broker.delete_queue()
    assert result(task_id) == {"stance models": ["model", "strong"], "language detector": True}
    assert "warm in" in log.read_text()
