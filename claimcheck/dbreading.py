"""Reading timestamps PostgreSQL holds but Python cannot (after the year 9999, or BC).

Such a value used to raise inside the database driver, so one bad row made every page and list
that touched it answer 500. It now reads as None and is logged; `manage.py repair_dates` clears it
for good. Everything else reads exactly as Django's own loader reads it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

logger = logging.getLogger(__name__)


def install_safe_timestamp_loader(*, sender: Any, connection: Any, **kwargs: Any) -> None:
    """connection_created receiver: on PostgreSQL, replace the timestamptz text loader."""
    if connection.vendor != "postgresql":
        return
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader, errors, is_psycopg3

    if not is_psycopg3:
        return

    class SafeTzLoader(BaseTzLoader):
        # Django compares this with the connection's time zone to decide whether to re-register.
        timezone = connection.timezone

        def load(self, data: Any) -> datetime | None:
            try:
                return super().load(data)
            except errors.DataError:
                logger.warning(
                    "a stored timestamp %r cannot be read; run manage.py repair_dates",
                    bytes(data)[:40],
                )
                return None

    connection.connection.adapters.register_loader("timestamptz", SafeTzLoader)
