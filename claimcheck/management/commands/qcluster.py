"""`manage.py qcluster`: a django-q2 worker cluster that stops cleanly on SIGTERM or SIGINT,
sent to its main process or to its whole process group (claimcheck.cluster)."""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from claimcheck.cluster import cluster_run


class Command(BaseCommand):
    help = "Start a worker cluster; SIGTERM or Ctrl-C stops it, handing running claims back."

    def handle(self, *args: Any, **options: Any) -> None:
        settings.SECRET_KEY  # noqa: B018 (tasks are signed with it: fail now if it is unset)
        status = cluster_run()
        if status:
            sys.exit(status)
