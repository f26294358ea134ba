"""`manage.py qcluster`: django-q2's cluster, stopped the same way whichever of its processes
the signal reaches.

django-q2's own command stops cleanly on a SIGTERM or SIGINT to its main process only. Sent to
the whole process group (systemd, `kill -TERM -- -PGID`), SIGTERM also ends its sentinel at
once, and the main process then waits forever on an event that the dead sentinel was waiting
on, beside it as a zombie, until it is killed.

Here the main process alone acts on SIGTERM and SIGINT: it raises the cluster's stopping flag
(claimcheck.workers), which hands running claims back at their next step, and asks django-q2's
sentinel to stop, from a thread, so that a sentinel that died waiting cannot hold it. The
sentinel and its pusher and monitor ignore both signals; a worker waits for the flag. A cluster
stops in a few seconds this way; one that has not stopped after STOP_WAIT_S is killed.

Before it forks the sentinel, the main process sends `before_fork`: what its receivers load
(the readers' models) is inherited by every worker, shared in memory, and by every worker the
sentinel starts again later, which therefore takes its first task at once.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
import uuid
from multiprocessing.synchronize import Event
from pathlib import Path
from types import FrameType

from django.db import connections
from django.dispatch import Signal
from django_q.cluster import Sentinel
from django_q.humanhash import humanize

from claimcheck import workers

logger = logging.getLogger(__name__)

STOP_WAIT_S = 20.0

# Sent in the cluster's main process before anything is forked; receivers load what every worker
# needs and must leave no thread running (a forked child has none of its parent's threads).
before_fork = Signal()


def _sentinel(stop_event: Event, start_event: Event, cluster_id: uuid.UUID) -> None:
    sentinel = Sentinel(stop_event, start_event, cluster_id, start=False)
    # Set after django-q2's own set-up (which lets SIGTERM end the sentinel) and before the
    # pusher, monitor and workers are forked, which inherit it.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sentinel.start()


def _descendants(pid: int) -> list[int]:
    """The processes below `pid`, read from /proc (empty where there is none)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name, in parentheses, may hold spaces: fields after its ")".
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended while we looked
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found.extend(children)
        frontier = children
    return found


def cluster_run() -> int:
    """Run a cluster until SIGTERM or SIGINT; answer the exit status."""
    requested: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        workers.stopping_flag_raise()  # at once: workers that got the signal too look for it
        requested.append(signum)

    context = multiprocessing.get_context("fork")
    before_fork.send(sender=cluster_run)
    connections.close_all()  # a child must open its own, never share its parent's
    workers.stopping_flag_create()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    stop_event, start_event = context.Event(), context.Event()
    cluster_id = uuid.uuid4()
    name = humanize(cluster_id.hex)
    sentinel = context.Process(
        target=_sentinel,
        args=(stop_event, start_event, cluster_id),
        name=f"Process-{uuid.uuid4().hex}",
    )
    sentinel.start()
    logger.info(f"Q Cluster {name} starting.")
    while not requested and sentinel.is_alive():
        time.sleep(0.2)
    if not requested:
        logger.error(f"Q Cluster {name} stopped: its sentinel exited ({sentinel.exitcode})")
        return 1
    started = time.monotonic()
    logger.info(f"Q Cluster {name} stopping.")
    # Setting the event waits until every process waiting on it has woken; one killed while
    # waiting never does. A thread waits for that, this process only for the sentinel.
    threading.Thread(target=stop_event.set, name="stop", daemon=True).start()
    sentinel.join(STOP_WAIT_S)
    if sentinel.is_alive():
        logger.error(f"Q Cluster {name} did not stop within {STOP_WAIT_S:g} s; killing it")
        assert sentinel.pid is not None  # it was started
        for pid in [*_descendants(sentinel.pid), sentinel.pid]:
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                os.kill(pid, signal.SIGKILL)
        sentinel.join(5)
        return 1
    logger.info(
        f"Q Cluster {name} has stopped.",
        extra={"seconds": round(time.monotonic() - started, 2)},
    )
    return 0
