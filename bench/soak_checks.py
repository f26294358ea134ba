"""What the soak bench checks and prints at the end of a run.

The checks are the promises an operator relies on through a week of faults: every claim is
decided exactly once (one verdict, one verdict event, no evidence written twice), a 5xx is only
ever the database-down answer (503 with Retry-After) and only while the database was down, a
claim caught running by a database restart is moving again within one lease of the database's
return, and every request got an answer. The figures (answers by kind, memory of each process
at the start and the end) are printed whether or not the checks pass."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

import psycopg

from bench.private_pg import Outage
from bench.soak_traffic import EXPECTED, KINDS, OVERRIDE, Answer
from bench.soak_watch import ProcessMemory


@dataclass
class Check:
    name: str
    ok: bool
    details: list[str] = field(default_factory=list)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _in_outage(answer: Answer, outages: list[Outage]) -> bool:
    """Whether the request was in flight at any moment the database was down."""
    return any(answer.started <= o.up_at and answer.ended >= o.down_at for o in outages)


def answers_table(answers: list[Answer]) -> list[str]:
    lines = []
    for kind in KINDS:
        mine = [a for a in answers if a.kind == kind]
        if not mine:
            continue
        statuses = Counter(str(a.status) if a.status else a.error for a in mine)
        good = [a.ms for a in mine if a.status in EXPECTED[kind]]
        shown = ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items()))
        lines.append(
            f"  {kind:<32} {len(mine):>6}  p50 {_pct(good, 0.5):6.0f} ms"
            f"  p95 {_pct(good, 0.95):6.0f} ms  ({shown})"
        )
    return lines


def check_answers(answers: list[Answer], outages: list[Outage]) -> list[Check]:
    """5xx only while the database was down, and then only 503 with Retry-After; every
    request answered; nothing else unexpected."""
    outside, wrong_inside, unanswered, unexpected = [], [], [], []
    refused_inside = 0
    for a in answers:
        if a.status is None:
            unanswered.append(a)
        elif a.status >= 500:
            if not _in_outage(a, outages):
                outside.append(a)
            elif a.status == 503 and a.retry_after:
                refused_inside += 1
            else:
                wrong_inside.append(a)
        elif a.status not in EXPECTED[a.kind]:
            unexpected.append(a)

    def show(found: list[Answer]) -> list[str]:
        counts = Counter(f"{a.kind} -> {a.status or a.error}" for a in found)
        return [f"{n} x {what}" for what, n in counts.most_common(8)]

    return [
        Check("no 5xx outside the seconds the database was down", not outside, show(outside)),
        Check(
            f"while it was down, every 5xx a 503 with Retry-After ({refused_inside} were)",
            not wrong_inside,
            show(wrong_inside),
        ),
        Check("every request answered", not unanswered, show(unanswered)),
        Check("no other unexpected answer", not unexpected, show(unexpected)),
    ]


def check_decided_once(
    conn: psycopg.Connection, *, ids: list[int], overrides_made: int
) -> list[Check]:
    """Every claim the clients posted decided, each run with exactly one verdict and one
    verdict event, no evidence row written twice, one override row per override answered."""
    statuses: dict[str, int] = dict(
        conn.execute(
            "SELECT status, count(*) FROM claimcheck_claim WHERE id = ANY(%s) GROUP BY status",
            [ids],
        ).fetchall()
    )
    undecided = {str(s): int(n) for s, n in statuses.items() if s != "decided"}
    verdicts = conn.execute(
        "SELECT c.id, c.run_number, count(v.id) FROM claimcheck_claim c"
        " LEFT JOIN decisions_verdict v ON v.claim_id = c.id AND v.run_number = c.run_number"
        " WHERE c.id = ANY(%s) AND c.status = 'decided'"
        " GROUP BY c.id, c.run_number HAVING count(v.id) <> 1",
        [ids],
    ).fetchall()
    events = conn.execute(
        "SELECT claim_id, payload->>'run', count(*) FROM claimcheck_pipelineevent"
        " WHERE claim_id = ANY(%s) AND kind = 'verdict'"
        " GROUP BY claim_id, payload->>'run' HAVING count(*) > 1",
        [ids],
    ).fetchall()
    evidence = conn.execute(
        "SELECT claim_id, attempt, url, count(*) FROM evidence_evidence"
        " WHERE claim_id = ANY(%s)"
        " GROUP BY claim_id, attempt, url, method, md5(source_quote), stance"
        " HAVING count(*) > 1",
        [ids],
    ).fetchall()
    runs = conn.execute(
        "SELECT claim_id, attempt, count(*) FROM search_runs WHERE claim_id = ANY(%s)"
        " GROUP BY claim_id, attempt HAVING count(*) > 1",
        [ids],
    ).fetchall()
    override_rows = conn.execute(
        "SELECT count(*) FROM decisions_override o JOIN decisions_verdict v"
        " ON v.id = o.verdict_id WHERE v.claim_id = ANY(%s)",
        [ids],
    ).fetchone()
    overrides = int(override_rows[0]) if override_rows else 0
    return [
        Check(
            f"every claim posted decided ({len(ids)} claims)",
            bool(ids) and not undecided,
            [f"not decided: {undecided}"] if undecided else [],
        ),
        Check(
            "one verdict for each claim's run",
            not verdicts,
            [f"claim {c} run {r}: {n} verdicts" for c, r, n in verdicts[:10]],
        ),
        Check(
            "one verdict event for each claim's run",
            not events,
            [f"claim {c} run {r}: {n} verdict events" for c, r, n in events[:10]],
        ),
        Check(
            "no evidence row written twice",
            not evidence,
            [f"claim {c} attempt {a} {u}: {n} rows" for c, a, u, n in evidence[:10]],
        ),
        Check(
            "no search run written twice",
            not runs,
            [f"claim {c} attempt {a}: {n} runs" for c, a, n in runs[:10]],
        ),
        Check(
            f"one override row for each override answered 201 ({overrides} rows)",
            overrides == overrides_made,
            [] if overrides == overrides_made else [f"{overrides_made} answered 201"],
        ),
    ]


def in_flight_after_restarts(
    samples: list[tuple[float, dict[int, float]]],
    outages: list[Outage],
    *,
    lease: float,
    left: list[tuple[float, dict[int, float]]] | None = None,
) -> tuple[Check, list[str]]:
    """A take of a claim (its started_at) that began before the database came back must not
    be seen left running (`left`: with no live lease; all of `samples` when not given) more
    than one lease after it did: by then it is decided, handed back and taken again (a new
    started_at), or still moving with its lease renewed (a slow model server's reply). Also
    says, for each restart, how long the takes it caught stayed so."""
    stuck: dict[tuple[int, float], float] = {}
    lines = []
    for number, outage in enumerate(outages, 1):
        before = [s for t, s in samples if t < outage.down_at]
        caught = set(before[-1].items()) if before else set()
        last_seen: dict[tuple[int, float], float] = defaultdict(float)
        for asked, running in samples if left is None else left:
            if asked <= outage.up_at:
                continue
            for take in running.items():
                if take[1] < outage.up_at:
                    last_seen[take] = max(last_seen[take], asked - outage.up_at)
                    if asked > outage.up_at + lease:
                        stuck[take] = max(stuck.get(take, 0.0), asked - outage.up_at)
        longest = max(last_seen.values(), default=0.0)
        lines.append(
            f"  restart {number}: down {outage.seconds:4.1f} s, {len(caught)} claims running"
            f" at the stop; the last take begun before it seen left running"
            f" {longest:4.1f} s after the database answered"
        )
    details = [
        f"claim {claim} (take started {started:.0f}) still running {after:.1f} s after"
        for (claim, started), after in sorted(stuck.items())[:10]
    ]
    return (
        Check(
            f"no claim left running more than one lease ({lease:g} s) after the database "
            "answered again",
            not stuck,
            details,
        ),
        lines,
    )


def _backend(process: ProcessMemory) -> bool:
    """A PostgreSQL session's process: one line for them all, since they come and go."""
    return "127.0.0.1(" in process.name


def memory_table(
    start: dict[str, list[ProcessMemory]], end: dict[str, list[ProcessMemory]]
) -> list[str]:
    lines = []
    for role in start:
        before, after = start[role], end.get(role, [])
        total_before = sum(p.rss_mb for p in before)
        total_after = sum(p.rss_mb for p in after)
        lines.append(
            f"  {role:<14} start {len(before):>2} processes {total_before:8.1f} MB"
            f"   end {len(after):>2} processes {total_after:8.1f} MB"
            f"   ({total_after - total_before:+.1f} MB)"
        )
        end_by_pid = {p.pid: p for p in after if not _backend(p)}
        for p in before:
            if _backend(p):
                continue
            now = end_by_pid.pop(p.pid, None)
            shown = f"{now.rss_mb:8.1f} MB" if now else "    (gone)"
            lines.append(f"      {p.pid:>7} {p.name:<48} {p.rss_mb:8.1f} MB -> {shown}")
        for p in end_by_pid.values():
            lines.append(f"      {p.pid:>7} {p.name:<48}    (new) -> {p.rss_mb:8.1f} MB")
        sessions = [[p.rss_mb for p in side if _backend(p)] for side in (before, after)]
        if any(sessions):
            b, a = sessions
            lines.append(
                f"      {'':>7} {'client sessions: how many, the largest':<48}"
                f" {len(b):>3} x {max(b, default=0):5.1f} MB -> {len(a):>3} x"
                f" {max(a, default=0):5.1f} MB"
            )
    return lines


def override_answers(answers: list[Answer]) -> int:
    return sum(1 for a in answers if a.kind == OVERRIDE and a.status == 201)
