#!/usr/bin/env python3
"""Restarts of a cluster (ctest server_cluster_restart, issue 33 items 9 and
10): three real `boneyard serve --node-id` nodes on one PostgreSQL behind
HAProxy (deploy/haproxy.cfg), bots playing, each table watched through the
front door.

1. A rolling restart under load: each node in turn is stopped (SIGTERM: it
   stores what it has and gives its leases back) and started again on its
   address. The others take its shards at once; no table stands still for
   longer than the takeover bound (the lease and a renewal round, plus the
   watcher's reconnection), measured as each table's longest gap between
   two new versions seen by its watcher.
2. Everything stopped (every node, then PostgreSQL) and started again:
   every unfinished table resumes where it was stored (its watcher sees it
   go on from the same version) and plays to its end.
Then each table's record is checked against what its watcher saw (nothing
lost, nothing twice) and replays.

usage: cluster_restart.py BONEYARD_EXE
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_lib import (Front, Node, Watcher, call_retry, check_records, eventually, fail,  # noqa: E402
                         free_port)

EXE = sys.argv[1]
LEASE = 2
TABLES = int(os.environ.get("CLUSTER_RESTART_TABLES", "12"))
DB = "postgresql:///boneyard_restart"


def pg(action):
    # pg_virtualenv's cluster: PGVERSION and PG_CLUSTER_CONF_ROOT are set.
    subprocess.run(["pg_ctlcluster", os.environ["PGVERSION"], "regress", action], check=True)


def main():
    subprocess.run(["createdb", "boneyard_restart"], check=True)
    ports = [free_port() for _ in range(3)]
    nodes, front, watchers = [], None, []
    try:
        for name, port in zip(("n1", "n2", "n3"), ports):
            nodes.append(Node(EXE, DB, name, LEASE, port=port))
        eventually(lambda: sum(len(n.owned()) for n in nodes) == 64 and all(n.owned() for n in nodes), 20,
                   lambda: f"three nodes share the 64 shards: {[sorted(n.owned()) for n in nodes]}")
        front = Front(nodes)
        door = front.port
        for i in range(TABLES):
            status, t = call_retry(door, "POST", "/api/tables",
                                   {"game": "latin", "options": {"target": "150"}, "seats": ["bot:casual"] * 4,
                                    "bot_delay_ms": 150})
            if status != 201:
                fail(f"create: {status} {t}")
            watchers.append(Watcher(door, t["id"], t["spectate"]))
        for w in watchers:
            w.start()
        eventually(lambda: all(w.version >= 5 for w in watchers), 60, "every table plays")

        # 1. Rolling restart, under load.
        takeovers = []
        rolling = time.time()

        def watch_gaps(until):
            time.sleep(max(0, until - time.time()))

        for n in nodes:
            others = [m for m in nodes if m is not n]
            n.stop()
            stopped = time.time()
            end = time.time() + 10
            while time.time() < end and sum(len(m.owned()) for m in others) != 64:
                watch_gaps(time.time() + 0.1)
            if sum(len(m.owned()) for m in others) != 64:
                fail(f"{n.name} stopped: the others do not hold the 64 shards: {[sorted(m.owned()) for m in others]}")
            takeovers.append(time.time() - stopped)
            n.start(n.port)
            end = time.time() + 15
            while time.time() < end and not n.owned():
                watch_gaps(time.time() + 0.1)
            if not n.owned():
                fail(f"{n.name} restarted holds no shard")
            watch_gaps(time.time() + 2)
        # Each table's longest stand-still during the rolling restart (ended
        # by a new version; one still going on counts up to now).
        now = time.time()
        gaps = {w.table: max([g for t, g in w.stills if t >= rolling] +
                             [now - w.last_change if w.status != "over" else 0]) for w in watchers}
        worst = max(gaps.values())
        # The bound: a lease and a renewal round (a node that lost its lease
        # without giving it back), plus a watcher's reconnection (backoff to 2 s).
        bound = LEASE * 4 / 3 + 4
        if worst > bound:
            fail(f"rolling restart: a table stood still {worst:.1f} s (bound {bound:.1f} s): {gaps}")

        # 2. Everything down (nodes, then PostgreSQL), then up again.
        live = [w for w in watchers if w.status != "over"]
        if not live:
            fail("every game ended before the full stop: make them longer")
        for n in nodes:
            n.stop()
        pg("stop")
        at_stop = {w.table: w.version for w in live}
        time.sleep(1)
        pg("start")
        for n in nodes:
            n.start(n.port)
        eventually(lambda: all(w.version > at_stop[w.table] or w.status == "over" for w in live), 30,
                   lambda: f"every unfinished table resumes: {[(w.table, at_stop[w.table], w.version) for w in live]}")
        eventually(lambda: all(w.status == "over" for w in watchers), 400,
                   lambda: f"every game ends: {[(w.table, w.version) for w in watchers if w.status != 'over']}")
        checked = check_records(door, watchers, EXE)
        print(f"ok: rolling restart of 3 nodes under {TABLES} tables: takeovers {', '.join(f'{t:.1f}' for t in takeovers)} s, "
              f"longest stand-still of a table {worst:.1f} s; after a full stop (nodes, PostgreSQL) "
              f"{len(live)} unfinished tables resumed; {checked} watched moves found in the records, every record replays")
    finally:
        for w in watchers:
            w.stop = True
        if front:
            front.stop()
        for n in nodes:
            try:
                n.stop()
            except Exception:
                n.p.kill()


main()
