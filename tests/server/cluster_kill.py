#!/usr/bin/env python3
"""A lost node (ctest server_cluster_kill, issue 33 item 8): three real
`boneyard serve --node-id` nodes on one PostgreSQL, HAProxy in front
(deploy/haproxy.cfg), everything through its one address.

Tables of bots and one table with a human seat (played by this script over a
WebSocket, as the app does) run, each watched by a spectator WebSocket.
The node that plays the human's table is killed (SIGKILL). Then: its
shards are held by the two others within 5 s (its leases are 10 s: the
others see its store session end); each of its tables goes on
(a new version seen through the front door); the WebSockets it served
reconnect through the front door and see the same game at a version no
lower than before; the human seat is not handed to a bot (its grace
period starts afresh). Once every game is over, each table's record is
checked against what its watcher saw and what the human's moves were
acknowledged as (nothing lost, nothing twice), and replays.

usage: cluster_kill.py BONEYARD_EXE
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_lib import (Front, Node, Watcher, call, call_retry, check_records, eventually,  # noqa: E402
                         fail)

EXE = sys.argv[1]
# Longer than the 5 s the takeover must fit in: the survivors must see the
# killed node's session end (its presence, store.h), not wait out its leases.
LEASE = 10
TABLES = int(os.environ.get("CLUSTER_KILL_TABLES", "24"))
DB = "postgresql:///boneyard_kill"


def shard_of(tid, count=64):
    return int(tid[:2], 16) % count


def main():
    subprocess.run(["createdb", "boneyard_kill"], check=True)
    nodes, front, watchers = [], None, []
    try:
        started = time.time()
        for name in ("n1", "n2", "n3"):
            nodes.append(Node(EXE, DB, name, LEASE))
        eventually(lambda: sum(len(n.owned()) for n in nodes) == 64 and all(n.owned() for n in nodes), 20,
                   lambda: f"three nodes share the 64 shards: {[sorted(n.owned()) for n in nodes]}")
        front = Front(nodes)
        door = front.port

        # Through the one address: tables land on every node (the front door
        # spreads the creations; each node makes ids of its own shards).
        tables = []
        for i in range(TABLES):
            status, t = call_retry(door, "POST", "/api/tables",
                                   {"game": "latin", "options": {"target": "100"}, "seats": ["bot:casual"] * 4,
                                    "bot_delay_ms": 120})
            if status != 201:
                fail(f"create: {status} {t}")
            tables.append(t)
        # The human's game is longer (300 points): it must still be in play
        # when its node is killed, a lease and more after the start, even on
        # a loaded machine (at 100 it sometimes ended first under ASan).
        status, human = call_retry(door, "POST", "/api/tables",
                                   {"game": "latin", "options": {"target": "300"},
                                    "seats": ["human", "bot:casual", "bot:casual", "bot:casual"],
                                    "bot_delay_ms": 120, "drop_delay_ms": 60000})
        if status != 201:
            fail(f"create (a human seat): {status} {human}")
        for t in tables:
            watchers.append(Watcher(door, t["id"], t["spectate"]))
        player = Watcher(door, human["id"], human["tokens"]["0"], play=True)
        watchers.append(player)
        for w in watchers:
            w.start()
        eventually(lambda: all(w.version >= 10 for w in watchers), 60,
                   lambda: f"every table plays: {[(w.table, w.version) for w in watchers]}")
        eventually(lambda: len(player.acks) >= 2, 60, "the human's moves are acknowledged")

        # A node trusts another's absence once its own presence is a lease
        # old (a store that just came back shows nobody present).
        time.sleep(max(0.0, started + LEASE + 1 - time.time()))
        by_node = {}
        for n in nodes:
            owned = n.owned()
            by_node[n.name] = [w for w in watchers if shard_of(w.table) in owned]
        victim = next(n for n in nodes if shard_of(human["id"]) in n.owned())
        lost = by_node[victim.name]
        others = [n for n in nodes if n is not victim]
        if len(lost) < 2:
            fail(f"node {victim.name} plays too few tables to lose: {[(k, len(v)) for k, v in by_node.items()]}")
        before = {w.table: w.version for w in lost}

        if player.status == "over":
            fail("the human's game ended before its node could be killed: nothing to reconnect to (a longer game)")
        victim.kill()
        killed = time.time()
        # The human's moves acknowledged from here on were played through the
        # next node (an ack already on its way from the dead one lands first).
        time.sleep(0.2)
        acked = len(player.acks)
        # Its shards are taken by the others within 5 s.
        eventually(lambda: sum(len(n.owned()) for n in others) == 64, 5,
                   lambda: f"the others hold the 64 shards 5 s after the kill: {[sorted(n.owned()) for n in others]}")
        shards_at = time.time() - killed
        # Each of its tables goes on: a version past the one before the kill.
        resumed = {}

        def all_resumed():
            for w in lost:
                if w.table not in resumed and (w.version > before[w.table] or w.status == "over"):
                    resumed[w.table] = time.time() - killed
            return len(resumed) == len(lost)

        eventually(all_resumed, 20, lambda: f"the lost node's tables go on: {len(resumed)} of {len(lost)}: "
                                           f"{[(w.table, before[w.table], w.version) for w in lost]}")
        eventually(lambda: len(player.acks) > acked or player.status == "over", 20,
                   "the human plays on through the front door after the kill")
        if any(player.autopilot_after_reconnect):
            fail("the human seat was handed to a bot at the takeover (its grace period should start afresh)")
        # (A reconnection counts at the first new version after it, which
        # may come a moment after the ack of the human's move.)
        eventually(lambda: player.reconnects or player.status == "over", 10,
                   "the human's WebSocket reconnects after its node died")
        if not player.reconnects:
            fail("the human's WebSocket did not reconnect after its node died")

        # Every game to its end, then every record.
        eventually(lambda: all(w.status == "over" for w in watchers), 400,
                   lambda: f"every game ends: {[(w.table, w.version, w.status) for w in watchers if w.status != 'over']}")
        checked = check_records(door, watchers, EXE)
        gaps = sorted(resumed.values())
        print(f"ok: {len(watchers)} tables, node {victim.name} killed with {len(lost)} of them; its shards held by "
              f"the others {shards_at:.1f} s later; its tables went on after {gaps[len(gaps) // 2]:.1f} s (p50), "
              f"{gaps[-1]:.1f} s (max); {sum(len(w.reconnects) for w in watchers)} WebSockets reconnected; "
              f"{checked} watched moves and {len(player.acks)} acknowledged human moves found in the records; "
              f"every record replays")
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
