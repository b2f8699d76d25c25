#!/usr/bin/env python3
"""Two real `boneyard serve --node-id` processes on one PostgreSQL (ctest
server_cluster_sigstop, inside pg_virtualenv: libpq's PG* variables are set).

Node a plays a table of bots; a is paused with SIGSTOP past its lease; node b
takes the shards and plays the table on; a is resumed (SIGCONT): whatever it
tries for that table is refused (its bot's late write by the fence, or its
renewal finds the lease gone first), it drops the table (and forwards the
table's requests to b from then on), and the table's
stored events are one history: a third node, started on the database after
both are stopped, replays them to b's last state.

usage: cluster_sigstop.py BONEYARD_EXE
"""
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

EXE = sys.argv[1]
LEASE = 2
DB = "postgresql:///boneyard_sigstop"


def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def call(port, method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


class Node:
    def __init__(self, name):
        self.name = name
        self.log = open(f"{os.environ.get('TMPDIR', '/tmp')}/sigstop-{os.getpid()}-{name}.log", "w+")
        self.p = subprocess.Popen([EXE, "serve", "--db", DB, "--node-id", name, "--lease", str(LEASE), "--port", "0",
                                   "--static", "none", "--sync", "normal"],
                                  stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.p.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not m:
            fail(f"node {name} did not start: {line!r} {self.logs()}")
        self.port = int(m.group(1))

    def health(self):
        return call(self.port, "GET", "/api/health")[1]

    def owned(self):
        return len((self.health().get("cluster") or {}).get("owned", []))

    def logs(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGCONT)
            self.p.terminate()
            self.p.wait(30)


def eventually(pred, secs, what):
    end = time.time() + secs
    while time.time() < end:
        if pred():
            return
        time.sleep(0.1)
    fail(what)


def main():
    subprocess.run(["createdb", "boneyard_sigstop"], check=True)
    nodes = []
    try:
        a = Node("a")
        nodes.append(a)
        if a.owned() != 64:
            fail(f"alone, a holds every shard: {a.health()}")
        status, t = call(a.port, "POST", "/api/tables",
                         {"game": "latin", "seats": ["bot:casual"] * 4, "bot_delay_ms": 300})
        if status != 201:
            fail(f"create: {status} {t}")
        tid, spectate = t["id"], t["spectate"]
        view = f"/api/tables/{tid}?token={spectate}"
        eventually(lambda: call(a.port, "GET", view)[1]["version"] >= 4, 20, "a's bots play")

        os.kill(a.p.pid, signal.SIGSTOP)
        b = Node("b")
        nodes.append(b)
        # b takes the shards once a's leases lapse, and plays the table on.
        eventually(lambda: b.owned() == 64, 15, f"b takes the shards: {b.health()}")
        eventually(lambda: call(b.port, "GET", view)[0] == 200, 10, "b loads the table")
        at_b = call(b.port, "GET", view)[1]["version"]
        eventually(lambda: call(b.port, "GET", view)[1]["version"] >= at_b + 3, 20, "b's bots play on")

        os.kill(a.p.pid, signal.SIGCONT)
        # a finds out (a refused write, or its renewal) and drops the table.
        eventually(lambda: (a.health().get("cluster") or {}).get("lost"), 10, f"a says it lost: {a.health()}")
        eventually(lambda: a.health()["tables"] == 0, 10, f"a drops the table: {a.health()}")
        # Asked of a, the table is b's: a forwards the request (a state a
        # never had: b's moves after the takeover).
        status, body = call(a.port, "GET", view)
        if status != 200 or body["version"] < at_b + 3:
            fail(f"a does not answer with b's table: {status} {body}")
        logs = a.logs()
        if "write refused" not in logs and "another node took the shard" not in logs:
            fail(f"a's log says nothing of the loss:\n{logs}")
        refused = "write refused" in logs

        # b goes on (its writes are accepted: nothing was written behind it).
        v = call(b.port, "GET", view)[1]["version"]
        eventually(lambda: call(b.port, "GET", view)[1]["version"] >= v + 2 or call(b.port, "GET", view)[1].get("status") == "over",
                   20, "b's bots go on after a is back")
        if not b.health()["ok"]:
            fail(f"b's storage fails: {b.health()}")
        a.stop()
        last = call(b.port, "GET", view)[1]
        b.stop()
        # One history: a fresh node replays the stored events to b's state.
        c = Node("c")
        nodes.append(c)
        eventually(lambda: call(c.port, "GET", view)[0] == 200, 10, "c loads the table")
        again = call(c.port, "GET", view)[1]
        for k in ("version", "view", "scores"):
            if again.get(k) != last.get(k):
                fail(f"{k}: b had {last.get(k)}, the store replays to {again.get(k)}")
        print(f"ok: a paused at version >= 4, b went on from {at_b} to {last['version']}; "
              f"a's late write {'refused by the fence' if refused else 'never made (its renewal found the lease gone)'}")
    finally:
        for n in nodes:
            try:
                n.stop()
            except Exception:
                n.p.kill()


main()
