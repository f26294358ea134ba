"""How a worker process of a cluster stops: the claim it is running is handed back, not dropped.

`manage.py qcluster` (claimcheck.cluster) raises one flag, shared by every process of the
cluster, when it is told to stop. A worker then stops the task it runs at the pipeline's next
step (`checkpoint`, between steps, so that an answer already paid for is stored first), or,
if no step ends within STOP_GRACE_S, wherever the task is: `WorkerStopping` is raised in it. The
claim task catches it and hands its claim back to the queue (decisions.tasks).

A worker receives the stop's SIGTERM itself when it goes to the whole process group (as from
systemd); it waits for the flag instead of dying mid-claim. A SIGTERM to the worker alone
(django-q2's guard ending a worker past its timeout) still ends it at once.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from ctypes import c_byte
from types import FrameType
from typing import Any

logger = logging.getLogger(__name__)

# How long a running claim may take to reach its next step once its cluster is stopping.
STOP_GRACE_S = 3.0
# How long a worker that got SIGTERM waits to see whether its cluster is stopping.
_SIGNAL_WAIT_S = 1.0


class WorkerStopping(BaseException):
    """Raised in a task when its cluster is stopping. A BaseException, so that handlers of
    `Exception` in the pipeline (which fail a claim) let it through to the task."""


# Set in the cluster's main process before it starts the others, which inherit it: a flag in
# shared memory with no lock, so that raising it never waits on a process that died.
_stopping: c_byte | None = None
_interruptible = False


def stopping_flag_create() -> None:
    global _stopping
    _stopping = multiprocessing.get_context("fork").RawValue("b", 0)


def stopping_flag_raise() -> None:
    if _stopping is not None:
        _stopping.value = 1


def worker_stopping() -> bool:
    """Is this process's cluster stopping? (Never, outside a cluster.)"""
    return _stopping is not None and bool(_stopping.value)


def checkpoint() -> None:
    """A point between steps of a task where it may stop: raises WorkerStopping if it should."""
    if _interruptible and worker_stopping():
        raise WorkerStopping()


@contextmanager
def stoppable() -> Iterator[None]:
    """Run the block as a task that a stop interrupts (at once, if the cluster is stopping)."""
    global _interruptible
    _interruptible = True
    try:
        checkpoint()
        yield
    finally:
        _interruptible = False


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    if _interruptible:
        raise WorkerStopping()


def _on_terminate(signum: int, frame: FrameType | None) -> None:
    deadline = time.monotonic() + _SIGNAL_WAIT_S
    while time.monotonic() < deadline:
        if worker_stopping():
            return  # the cluster's stop: the watcher ends the task, the cluster this process
        time.sleep(0.05)
    # Meant for this process alone: end it as SIGTERM always has.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _watch() -> None:
    while not worker_stopping():
        time.sleep(0.2)
    deadline = time.monotonic() + STOP_GRACE_S
    while _interruptible and time.monotonic() < deadline:
        time.sleep(0.05)
    if _interruptible:
        logger.warning("stopping a task between steps took too long; interrupting it")
        main = threading.main_thread().ident
        if main is not None:
            signal.pthread_kill(main, signal.SIGUSR1)


def worker_stop_install(**kwargs: Any) -> None:
    """django-q2 post_spawn receiver: make this worker stop as described above."""
    if _stopping is None:
        # Not started by claimcheck.cluster (tasks run inline, or django-q2's own command):
        # no flag to watch, and SIGTERM keeps its usual meaning.
        return
    signal.signal(signal.SIGUSR1, _on_interrupt)
    signal.signal(signal.SIGTERM, _on_terminate)
    threading.Thread(target=_watch, name="stop-watch", daemon=True).start()
