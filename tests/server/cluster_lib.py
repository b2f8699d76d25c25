"""What the cluster tests share (ctest server_cluster_kill, server_cluster_restart):
real `boneyard serve --node-id` processes on one PostgreSQL (inside
pg_virtualenv: libpq's PG* variables are set), HAProxy in front with
deploy/haproxy.cfg, HTTP calls and a small WebSocket client (the standard
library only: Debian's python3 has no WebSocket module)."""
import base64
import json
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = os.environ.get("TMPDIR", "/tmp")


# Every process a test started (nodes, the front door): a failure ends them
# too, so no server outlives its test (os._exit skips the tests' finally).
CHILDREN = []


def fail(msg):
    print("FAIL:", msg, file=sys.stderr, flush=True)
    for p in CHILDREN:
        if p.poll() is None:
            p.send_signal(signal.SIGCONT)
            p.kill()
    os._exit(1)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def call(port, method, path, body=None, timeout=30):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"null")
        except ValueError:
            return e.code, None
    except (OSError, ValueError) as e:  # refused, reset, a proxy's HTML page
        return 0, str(e)


def call_retry(port, method, path, body=None, secs=20):
    """Retries what a takeover may answer for a moment: 421 (between
    servers), 502/503 (a node gone, a table being loaded), a reset."""
    end = time.time() + secs
    while True:
        status, out = call(port, method, path, body)
        if status not in (0, 421, 502, 503, 504) or time.time() > end:
            return status, out
        time.sleep(0.2)


def eventually(pred, secs, what):
    end = time.time() + secs
    while time.time() < end:
        if pred():
            return
        time.sleep(0.1)
    fail(what() if callable(what) else what)


class Node:
    def __init__(self, exe, db, name, lease, port=0, extra=()):
        self.name = name
        self.exe, self.db, self.lease, self.extra = exe, db, lease, list(extra)
        self.log = open(f"{TMP}/cluster-{os.getpid()}-{name}.log", "a+")
        self.start(port)

    def start(self, port=0):
        self.p = subprocess.Popen([self.exe, "serve", "--db", self.db, "--node-id", self.name, "--lease",
                                   str(self.lease), "--port", str(port), "--static", "none", "--sync", "normal",
                                   "--trusted-proxy", "127.0.0.1"] + self.extra,
                                  stdout=subprocess.PIPE, stderr=self.log, text=True)
        CHILDREN.append(self.p)
        line = self.p.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not m:
            fail(f"node {self.name} did not start: {line!r} {self.logs()[-3000:]}")
        self.port = int(m.group(1))

    def health(self):
        status, h = call(self.port, "GET", "/api/health", timeout=5)
        return h if status == 200 and isinstance(h, dict) else {}

    def owned(self):
        return set((self.health().get("cluster") or {}).get("owned", []))

    def logs(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def alive(self):
        return self.p.poll() is None

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGCONT)
            self.p.terminate()
            try:
                self.p.wait(30)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()

    def kill(self):
        self.p.kill()
        self.p.wait()


class Front:
    """HAProxy with deploy/haproxy.cfg in front of the nodes."""

    def __init__(self, nodes):
        self.port = free_port()
        d = f"{TMP}/cluster-front-{os.getpid()}"
        os.makedirs(d, exist_ok=True)
        pem = f"{d}/front.pem"
        if not os.path.exists(pem):
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                            "/CN=localhost", "-keyout", f"{d}/k.pem", "-out", f"{d}/c.pem"],
                           check=True, capture_output=True)
            with open(pem, "w") as f:
                f.write(open(f"{d}/c.pem").read() + open(f"{d}/k.pem").read())
        env = dict(os.environ, BONEYARD_FRONT_HTTP=f"127.0.0.1:{self.port}",
                   BONEYARD_FRONT_HTTPS=f"127.0.0.1:{free_port()}", BONEYARD_FRONT_CERT=pem)
        for i, n in enumerate(nodes):
            env[f"BONEYARD_NODE{i + 1}"] = f"127.0.0.1:{n.port}"
        self.log = open(f"{d}/haproxy.log", "w")
        self.p = subprocess.Popen(["haproxy", "-db", "-f", f"{ROOT}/deploy/haproxy.cfg"], env=env,
                                  stdout=self.log, stderr=self.log)
        CHILDREN.append(self.p)
        eventually(lambda: call(self.port, "GET", "/api/health", timeout=5)[0] == 200, 20,
                   "the front door answers /api/health")

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            self.p.wait(10)


# ------------------------------------------------------------- WebSockets


class WsClosed(Exception):
    pass


class Ws:
    def __init__(self, port, path, timeout=10):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.s.recv(4096)
            if not chunk:
                raise WsClosed("closed during the handshake")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise WsClosed(head.split(b"\r\n")[0].decode(errors="replace"))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise WsClosed("closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """The next text message (pings answered, a close raises WsClosed)."""
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            data = self._read(n)
            op = b0 & 0x0F
            if op == 8:
                code = struct.unpack(">H", data[:2])[0] if len(data) >= 2 else None
                raise WsClosed(f"close {code}")
            if op == 9:
                self._send(10, data)
                continue
            if op in (0, 1, 2):
                msg += data
                if b0 & 0x80:
                    return json.loads(msg)

    def _send(self, op, data):
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x80 | op])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def send(self, obj):
        self._send(1, json.dumps(obj).encode())

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


class Watcher(threading.Thread):
    """A table's WebSocket through the front door, as the app keeps it: on a
    close it reconnects (300 ms, then more) and asks again. Keeps every
    public log entry it saw (event index -> entry), the versions in order,
    the reconnections and how long the table was silent across each. With
    play=True it holds a human seat and plays its first legal move when to
    act, keeping each acknowledged move (version, text)."""

    def __init__(self, port, table, token, play=False):
        super().__init__(daemon=True)
        self.port, self.table, self.token, self.play = port, table, token, play
        self.log = {}
        self.version = -1
        self.status = None
        self.last = None
        self.acks = []
        self.reconnects = []  # (seconds from the close to the next new version, version then)
        self.backwards = []   # a version lower than one seen before (a lost acknowledged event)
        self.errors = []
        self.stop = False
        self.autopilot_after_reconnect = []
        self.last_change = time.time()
        self.stills = []  # (when it ended, seconds) of each stand-still over 0.5 s

    def run(self):
        closed_at = None
        wait = 0.3
        while not self.stop and self.status != "over":
            try:
                ws = Ws(self.port, f"/ws?table={self.table}&token={self.token}")
                ws.s.settimeout(30)
            except (OSError, WsClosed) as e:
                # As the app (web/src/api.ts, reconnectDelay): about every
                # second (0.5-1.5 s) for 6 s after a drop, then backing off.
                if closed_at is not None and time.time() - closed_at < 6:
                    time.sleep(0.5 + random.random())
                else:
                    time.sleep(wait)
                    wait = min(2.0, wait * 1.5)
                continue
            wait = 0.3
            first = True
            try:
                while not self.stop:
                    m = ws.recv()
                    if m.get("type") == "error":
                        self.errors.append(m.get("error"))
                        continue
                    if m.get("type") == "ack":
                        if "version" in m:
                            self.acks.append((m["version"], m.get("move")))
                        continue
                    if m.get("type") != "state":
                        continue
                    v = m.get("version", 0)
                    if v < self.version:
                        self.backwards.append((self.version, v))
                    if first and closed_at is not None and self.play:
                        me = [s for s in m.get("seats", []) if s.get("seat") == m.get("seat")]
                        self.autopilot_after_reconnect.append(bool(me and me[0].get("autopilot")))
                    if v > self.version:
                        if closed_at is not None:
                            self.reconnects.append((time.time() - closed_at, v))
                            closed_at = None
                        self.version = v
                        now = time.time()
                        if now - self.last_change > 0.5:  # a stand-still: when it ended, how long
                            self.stills.append((now, now - self.last_change))
                        self.last_change = now
                    first = False
                    self.status = m.get("status")
                    self.last = m
                    for e in m.get("log") or []:
                        if e.get("kind") == "move":
                            self.log[e["n"]] = e.get("move")
                    if self.play and m.get("to_act") and m.get("legal") and self.status == "playing":
                        ws.send({"type": "move", "move": m["legal"][0]})
                    if self.status == "over":
                        break
            except (OSError, WsClosed, ValueError):
                if closed_at is None:
                    closed_at = time.time()
            finally:
                ws.close()


def check_records(port, watchers, exe):
    """Every table's record against what its watcher saw: the same moves at
    the same event indices (nothing acknowledged lost, nothing played twice,
    no fork), every acknowledged human move at its version, and the record
    replays (`boneyard replay`). Returns the number of events checked."""
    checked = 0
    for w in watchers:
        status, rec = call_retry(port, "GET", f"/api/tables/{w.table}/record")
        if status != 200:
            fail(f"table {w.table}: record: {status} {rec}")
        events = rec["events"]
        if len(events) != w.version:
            fail(f"table {w.table}: the record has {len(events)} events, the watcher saw version {w.version}")
        for n, move in w.log.items():
            e = events[n]
            if e.get("move") != move:
                fail(f"table {w.table}: event {n}: the watcher saw {move!r}, the record says {e}")
            checked += 1
        for v, move in w.acks:
            # The version after the move and the chance outcomes it led to (a deal).
            i = v - 1
            while i > 0 and "chance" in events[i]:
                i -= 1
            if events[i].get("move") != move:
                fail(f"table {w.table}: acknowledged move {move!r} at version {v}, the record says {events[i]}")
        if w.backwards:
            fail(f"table {w.table}: versions went back (an acknowledged event lost): {w.backwards}")
        path = f"{TMP}/cluster-record-{os.getpid()}-{w.table}.json"
        with open(path, "w") as f:
            json.dump(rec, f)
        r = subprocess.run([exe, "replay", path], capture_output=True, text=True)
        os.unlink(path)
        if r.returncode != 0:
            fail(f"table {w.table}: the record does not replay: {r.stdout[-500:]} {r.stderr[-500:]}")
    return checked
