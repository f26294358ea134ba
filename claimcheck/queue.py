"""The task brokers: django-q2's Redis and ORM brokers, with a lease on every task a cluster takes.

django-q2 hands a cluster more tasks than it runs at once: its pusher takes them from the broker
into the cluster's memory (up to `queue_limit`, workers² by default) for the workers to pick up.
Stock, a task taken that way is out of the broker for good on Redis, and out of reach for
`retry` seconds (12 minutes here) on the ORM broker: when the cluster is killed, the claims
behind those tasks stay queued with nothing left to run them.

Here a taken task stays in the broker, marked with a lease that the cluster holding it renews
every third of CLAIMCHECK_LEASE_SECONDS, from a thread in its pusher process, until a worker
has run it and the monitor acknowledges it. A task whose lease runs out has lost its cluster
(killed, or its machine gone) and is handed out again; so is one held past `retry`, as django-q2
does, since a worker may have died on it while the cluster lived. Every pusher hands out the
lapsed tasks when it starts and at every renewal, so several clusters on several machines keep
each other's work going, and no live cluster's task is ever handed out twice.

The claim a task runs has a lease of its own (claims.lease): a task handed out again finds
its claim still running under a live worker, or takes it over from a dead one.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone
from django_q.brokers import orm, redis_broker
from django_q.conf import Conf
from redis import RedisError

logger = logging.getLogger(__name__)

# Move the first task of the queue into the held set, its lease running out at score (server
# time, so that machines whose clocks differ agree on when a lease has lapsed).
_TAKE = """
local task = redis.call('LPOP', KEYS[1])
if task then
  local now = redis.call('TIME')
  redis.call('ZADD', KEYS[2], now[1] + ARGV[1], task)
end
return task
"""
# Renew the lease of each task still held; answer the positions of those acknowledged since.
_RENEW = """
local now = redis.call('TIME')
local gone = {}
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], now[1] + ARGV[1], ARGV[i])
  else
    table.insert(gone, i - 2)
  end
end
return gone
"""
# Put the tasks whose lease ran out back at the head of the queue, the longest held first.
_RECOVER = """
local now = redis.call('TIME')
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now[1], 'LIMIT', 0, ARGV[1])
for i = #due, 1, -1 do
  redis.call('ZREM', KEYS[2], due[i])
  redis.call('LPUSH', KEYS[1], due[i])
end
return #due
"""
_RECOVER_BATCH = 1000


def task_lease_seconds() -> float:
    """How long a taken task stays out of other clusters' reach without a renewal."""
    return float(getattr(settings, "CLAIMCHECK_LEASE_SECONDS", 20))


class _LeaseKeeper:
    """The tasks this process (a cluster's pusher) took and has not seen acknowledged, and the
    thread that renews their leases and hands out other clusters' lapsed ones."""

    def __init__(self, broker: Redis | ORM) -> None:
        self.broker = broker
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.held: dict[Any, float] = {}  # task key -> when it was taken (monotonic)
        self.thread = threading.Thread(target=self._run, name="task-leases", daemon=True)

    def start(self) -> None:
        self._beat(renew=False)  # at start-up: hand out what dead clusters left
        self.thread.start()

    def add(self, key: Any) -> None:
        with self.lock:
            self.held[key] = time.monotonic()

    def _run(self) -> None:
        while True:
            time.sleep(task_lease_seconds() / 3)
            try:
                self._beat(renew=True)
            finally:
                # This thread's own connection, for the ORM broker: not held between beats, so
                # the database never waits on a session that is only sleeping.
                connection.close()

    def _beat(self, *, renew: bool) -> None:
        try:
            if renew:
                self._renew()
            recovered = self.broker.leases_recover()
        except (RedisError, DatabaseError) as exc:
            # A missed beat is not fatal: leases outlast two of them.
            logger.warning("task lease renewal failed", extra={"error": str(exc)})
            return
        if recovered:
            logger.warning(
                "tasks whose cluster stopped renewing them are queued again",
                extra={"tasks": recovered, "queue": self.broker.list_key},
            )

    def _renew(self) -> None:
        cutoff = time.monotonic() - float(Conf.RETRY)
        with self.lock:
            # Held past `retry`: its worker may have died while the cluster lived. Let it lapse,
            # so that it is handed out again, as django-q2 does with any unacknowledged task.
            for key in [k for k, taken in self.held.items() if taken < cutoff]:
                del self.held[key]
            keys = list(self.held)
        if not keys:
            return
        gone = self.broker.leases_renew(keys)
        with self.lock:
            for key in gone:
                self.held.pop(key, None)


class _LeasedBroker:
    """What both brokers add: a lease keeper started in the process that takes tasks."""

    _keeper: _LeaseKeeper | None = None

    def _keeper_for_this_process(self) -> _LeaseKeeper:
        # The pusher is forked from the sentinel, which made this broker: state from another
        # process (there is none before the first dequeue) is not this pusher's.
        if self._keeper is None or self._keeper.pid != os.getpid():
            self._keeper = _LeaseKeeper(self)  # type: ignore[arg-type]
            self._keeper.start()
        return self._keeper


class Redis(_LeasedBroker, redis_broker.Redis):
    """The queue is the usual Redis list; taken tasks wait in a sorted set beside it, scored by
    when their lease runs out, until they are acknowledged."""

    @property
    def held_key(self) -> str:
        return f"{self.list_key}:held"

    def _script(self, source: str, *, keys: list[str], args: list[Any]) -> Any:
        # Runs by its hash, and sends the script first when the server does not know it yet.
        return self.connection.register_script(source)(keys=keys, args=args)

    def dequeue(self) -> list[tuple[Any, Any]] | None:
        keeper = self._keeper_for_this_process()
        task = self._script(_TAKE, keys=[self.list_key, self.held_key], args=[task_lease_seconds()])
        if task is None:
            time.sleep(Conf.POLL)  # an empty queue: spare Redis and the CPU
            return None
        keeper.add(task)
        # The task itself is its acknowledgement id: it is the member of the held set.
        return [(task, task)]

    def acknowledge(self, task_id: Any) -> None:
        self.connection.zrem(self.held_key, task_id)

    def fail(self, task_id: Any) -> None:
        self.acknowledge(task_id)

    def lock_size(self) -> int:
        return int(self.connection.zcard(self.held_key))

    def delete_queue(self) -> Any:
        return self.connection.delete(self.list_key, self.held_key)

    def purge_queue(self) -> Any:
        self.connection.delete(self.held_key)
        return super().purge_queue()

    def leases_renew(self, keys: list[Any]) -> list[Any]:
        """Renew the held tasks' leases; answer those acknowledged meanwhile."""
        gone = self._script(_RENEW, keys=[self.held_key], args=[task_lease_seconds(), *keys])
        return [keys[int(i)] for i in gone]

    def leases_recover(self) -> int:
        """Queue again the tasks whose lease ran out; answer how many."""
        return int(
            self._script(_RECOVER, keys=[self.list_key, self.held_key], args=[_RECOVER_BATCH])
        )


class ORM(_LeasedBroker, orm.ORM):
    """django-q2's ORM broker already keeps a taken task's row until it is acknowledged, locked
    for `retry` seconds; here the lock is a lease, renewed while the task is held."""

    def timeout(self, task: Any = None) -> Any:
        return timezone.now() + timedelta(seconds=task_lease_seconds())

    def dequeue(self) -> list[tuple[Any, Any]] | None:
        keeper = self._keeper_for_this_process()
        tasks = super().dequeue()
        for task_id, _payload in tasks or []:
            keeper.add(task_id)
        return tasks

    def leases_renew(self, keys: list[Any]) -> list[Any]:
        rows = self.get_connection().filter(pk__in=keys)
        rows.update(lock=self.timeout())
        present = set(rows.values_list("pk", flat=True))
        return [key for key in keys if key not in present]

    def leases_recover(self) -> int:
        # A row whose lock has passed is handed out by the next dequeue anywhere: nothing to move.
        return 0
