"""Send one task through the configured broker and wait for a worker to answer it."""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django_q.tasks import async_task, fetch


class Command(BaseCommand):
    help = "Check that a worker (manage.py qcluster) is processing tasks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--wait", type=float, default=30.0, help="seconds to wait")

    def handle(self, *args: Any, **options: Any) -> None:
        token = secrets.token_hex(8)
        task_id = async_task("claimcheck.tasks.worker_ping", token)
        deadline = time.monotonic() + options["wait"]
        while time.monotonic() < deadline:
            task = fetch(task_id)
            if task is not None:
                if not task.success or task.result.get("token") != token:
                    raise CommandError(f"the worker failed the task: {task.result}")
                self.stdout.write(f"Worker {task.result['host']}:{task.result['pid']} answered.")
                return
            time.sleep(0.25)
        raise CommandError(
            f"no worker answered within {options['wait']:.0f}s; is qcluster running?"
        )
