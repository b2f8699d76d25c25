#!/usr/bin/env python3
"""What players see is the same whichever node answers (ctest
server_cluster_shared, issue 33 item 6): three real `boneyard serve
--node-id` nodes on one PostgreSQL, asked directly (each one a door).

- The lobby: a public table made on n1 is listed by n2 and n3 (GET
  /api/lobby) and reaches n3's live feed (/ws/lobby); once its seats are
  taken through n2 it leaves n3's feed.
- Quick match: two players asking through n1 and n2 meet at one table (the
  queue lives on the node holding the matchmaker's shard; the others
  forward to it); each one's status is read through n3.
- A player page, the leaderboard and a table's chat read the same through
  every node.
- The queue outlives its node: a player waiting when the node holding it is
  killed is seated by the node that takes its shard next.

usage: cluster_shared.py BONEYARD_EXE
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_lib import Node, Ws, WsClosed, call, call_retry, eventually, fail  # noqa: E402

EXE = sys.argv[1]
DB = "postgresql:///boneyard_shared"


def main():
    subprocess.run(["createdb", "boneyard_shared"], check=True)
    nodes = []
    try:
        for name in ("n1", "n2", "n3"):
            nodes.append(Node(EXE, DB, name, 2, extra=["--quickmatch-wait", "2"]))
        n1, n2, n3 = nodes
        eventually(lambda: sum(len(n.owned()) for n in nodes) == 64 and all(n.owned() for n in nodes), 20,
                   lambda: f"three nodes share the 64 shards: {[sorted(n.owned()) for n in nodes]}")

        # The lobby, live on another node.
        feed = Ws(n3.port, "/ws/lobby")
        feed.s.settimeout(15)
        first = feed.recv()
        if first.get("type") != "lobby":
            fail(f"n3's lobby feed starts with the list: {first}")
        status, t = call(n1.port, "POST", "/api/tables",
                         {"game": "latin", "public": True, "seats": ["human", "open", "bot:casual", "bot:casual"]})
        if status != 201:
            fail(f"create on n1: {status} {t}")
        tid = t["id"]
        if not (set(range(64)) - n1.owned()) or (int(tid[:2], 16) % 64) not in n1.owned():
            fail(f"n1 made the table on a shard of its own: {tid} {sorted(n1.owned())}")
        seen = None
        end = time.time() + 10
        while time.time() < end:
            m = feed.recv()
            if m.get("type") == "lobby_change" and (m.get("table") or {}).get("table") == tid:
                seen = m
                break
        if not seen:
            fail("n3's lobby feed does not list n1's new table")
        for n in (n2, n3):
            eventually(lambda: any(e["table"] == tid for e in call(n.port, "GET", "/api/lobby")[1]["tables"]), 5,
                       f"{n.name}'s GET /api/lobby lists n1's table")
        status, sat = call_retry(n2.port, "POST", f"/api/tables/{tid}/sit", {"name": "Bea"})
        if status != 201:
            fail(f"sit through n2: {status} {sat}")
        removed = False
        end = time.time() + 10
        while time.time() < end and not removed:
            m = feed.recv()
            removed = m.get("removed") == tid
        if not removed:
            fail("n3's lobby feed does not drop the full table")
        feed.close()

        # Chat through n3 (forwarded to n1), read through n2.
        status, line = call_retry(n3.port, "POST", f"/api/tables/{tid}/chat",
                                  {"token": t["tokens"]["0"], "text": "hola a todos"})
        if status != 200:
            fail(f"chat through n3: {status} {line}")
        status, st = call_retry(n2.port, "GET", f"/api/tables/{tid}?token={sat['token']}")
        if status != 200 or not any(c.get("text") == "hola a todos" for c in st.get("chat", [])):
            fail(f"the chat line read through n2: {status} {st.get('chat') if isinstance(st, dict) else st}")

        # Quick match: one queue for every node.
        players = []
        for n, name in ((n1, "Ana"), (n2, "Ben")):
            status, p = call(n.port, "POST", "/api/players", {"name": name})
            if status != 201:
                fail(f"player on {n.name}: {status} {p}")
            players.append(p)
        for n, p in ((n1, players[0]), (n2, players[1])):
            status, q = call_retry(n.port, "POST", "/api/quickmatch", {"key": p["key"], "game": "latin"})
            if status != 200 or q.get("status") not in ("waiting", "seated"):
                fail(f"quick match through {n.name}: {status} {q}")
        seated = {}

        def both_seated():
            for p in players:
                status, q = call_retry(n3.port, "GET", f"/api/quickmatch?key={p['key']}")
                if status == 200 and q.get("status") == "seated":
                    seated[p["id"]] = q
            return len(seated) == 2

        eventually(both_seated, 20, lambda: f"both players seated: {seated}")
        tables = {q["table"] for q in seated.values()}
        if len(tables) != 1:
            fail(f"the two players were seated at different tables: {seated}")

        # A player page and the leaderboard: the same through every node.
        for path in (f"/api/players/{players[0]['id']}", "/api/leaderboard?game=latin"):
            answers = [call_retry(n.port, "GET", path) for n in nodes]
            if any(a[0] != 200 for a in answers) or any(a[1] != answers[0][1] for a in answers):
                fail(f"{path} differs between the nodes: {answers}")
        # The queue outlives its node: a player waiting when the matchmaker's
        # node dies keeps their place; the next holder of shard 0 loads the
        # queue and (the wait of 2 s being over) seats them with bots.
        keeper = next(n for n in nodes if 0 in n.owned())
        others = [n for n in nodes if n is not keeper]
        status, cai = call(others[0].port, "POST", "/api/players", {"name": "Cai"})
        if status != 201:
            fail(f"player Cai: {status} {cai}")
        status, q = call_retry(keeper.port, "POST", "/api/quickmatch", {"key": cai["key"], "game": "texas-42"})
        if status != 200 or q.get("status") != "waiting":
            fail(f"Cai waits on {keeper.name}: {status} {q}")
        keeper.p.kill()
        keeper.p.wait()
        killed = time.time()
        final = {}

        def cai_seated():
            status, q = call(others[1].port, "GET", f"/api/quickmatch?key={cai['key']}")
            final["q"] = (status, q)
            return status == 200 and q.get("status") == "seated"

        eventually(cai_seated, 20, lambda: f"Cai, waiting when {keeper.name} died, is seated: {final}")
        print(f"ok: n1's table in n3's lobby feed and n2's list; seated through n2, dropped from n3's feed; "
              f"chat through n3 read through n2; quick match through n1 and n2 met at {tables.pop()}; "
              f"player page and leaderboard alike on the three nodes; a player waiting on {keeper.name} when it "
              f"was killed was seated {time.time() - killed:.1f} s later by the next holder of the queue")
    except WsClosed as e:
        fail(f"a WebSocket closed: {e}")
    finally:
        for n in nodes:
            try:
                n.stop()
            except Exception:
                n.p.kill()


main()
