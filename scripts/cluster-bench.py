#!/usr/bin/env python3
"""Load through the front door of a local cluster (docs/server.md, "Beyond one
machine", the figures): tables of full-speed bots and spectator WebSockets,
then moves/s, each node's arrival->broadcast p50/p99 (serve --measure), RSS
and CPU of each node and of PostgreSQL; with --kill-after S, one node is
killed (SIGKILL) S seconds in, and the takeover (each of its watched tables'
time from the kill to its next version), moves lost and games finished are
reported. Every table's record is checked against what its watcher saw.

  BONEYARD_NODE_ARGS="--measure --create-rate 100000 --create-burst 100000 \\
    --max-connections-per-address 100000" scripts/cluster.sh up
  scripts/cluster-bench.py --tables 300 --watchers 150 [--kill-after 20]
  scripts/cluster.sh down && rm -rf .cluster   # a fresh database for the next run
"""
import argparse
import glob
import json
import os
import signal
import sys
import threading
import time
import multiprocessing as mp
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "server"))
from cluster_lib import Watcher, call, call_retry  # noqa: E402

DIR = os.path.join(ROOT, ".cluster")
TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / TICK
    except OSError:
        return None


def rss_mib(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def pss_mib(pid):
    # Proportional: PostgreSQL's shared buffers counted once over its processes.
    try:
        for line in open(f"/proc/{pid}/smaps_rollup"):
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def postgres_pids():
    try:
        master = int(open(os.path.join(DIR, "pg", "postmaster.pid")).readline())
    except OSError:
        return []
    out = [master]
    for p in glob.glob("/proc/[0-9]*/stat"):
        try:
            f = open(p).read().rsplit(")", 1)[1].split()
            if int(f[1]) == master:
                out.append(int(p.split("/")[2]))
        except (OSError, ValueError):
            pass
    return out


class Sampler(threading.Thread):
    """CPU (cores used) and peak RSS of each node and of PostgreSQL (its
    processes summed), once a second."""

    def __init__(self, nodes):
        super().__init__(daemon=True)
        self.nodes = nodes  # name -> pid
        self.stop = False
        self.peak = {}
        self.cpu0, self.cpu1 = {}, {}
        self.t0 = time.time()

    def sample(self):
        now = {}
        for name, pid in self.nodes.items():
            c, r = cpu_s(pid), rss_mib(pid)
            if c is not None:
                now[name] = (c, r)
        pg = [(cpu_s(p), pss_mib(p)) for p in postgres_pids()]
        pg = [x for x in pg if x[0] is not None]
        # PostgreSQL: CPU and PSS summed over its processes.
        now["postgresql"] = (sum(c for c, _ in pg), sum(r or 0 for _, r in pg))
        for k, (c, r) in now.items():
            self.cpu0.setdefault(k, (c, time.time()))
            self.cpu1[k] = (c, time.time())
            self.peak[k] = max(self.peak.get(k, 0), r or 0)

    def run(self):
        while not self.stop:
            self.sample()
            time.sleep(1)

    def report(self):
        out = {}
        for k in self.cpu1:
            (c0, t0), (c1, t1) = self.cpu0[k], self.cpu1[k]
            out[k] = {"cores": round((c1 - c0) / max(1e-9, t1 - t0), 2), "cpu_s": round(c1 - c0, 1),
                      "peak_rss_mib": round(self.peak[k], 1)}
        return out


def watch_part(door, items, over, slot, timeout, results):
    """A share of the watchers, in a process of its own; `over[slot]` counts
    its tables seen over; at the end, what each watcher saw."""
    ws = [Watcher(door, tid, tok) for tid, tok in items]
    for w in ws:
        w.start()
    end = time.time() + timeout
    while time.time() < end:
        over[slot] = sum(1 for w in ws if w.status == "over")
        if over[slot] == len(ws):
            break
        time.sleep(0.5)
    for w in ws:
        w.stop = True
    results.put([{"table": w.table, "log": w.log, "version": w.version, "backwards": w.backwards,
                  "reconnects": w.reconnects, "last_change": w.last_change, "status": w.status} for w in ws])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=int(os.environ.get("BONEYARD_CLUSTER_PORT", "8080")))
    ap.add_argument("--tables", type=int, default=300)
    ap.add_argument("--watchers", type=int, default=150)
    ap.add_argument("--game", default="latin")
    ap.add_argument("--target", default="100", help="the game's target score (its length)")
    ap.add_argument("--kill-after", type=float, default=0, help="seconds after the start: SIGKILL one node")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--procs", type=int, default=max(2, (os.cpu_count() or 2) * 2),
                    help="processes the watchers run in")
    a = ap.parse_args()
    door = a.port
    nodes = {}
    for f in sorted(glob.glob(os.path.join(DIR, "n*.pid"))):
        nodes[os.path.basename(f)[:-4]] = int(open(f).read())
    if not nodes:
        sys.exit("cluster-bench: no nodes in .cluster/: start them with scripts/cluster.sh up")
    sampler = Sampler(nodes)
    sampler.start()
    t0 = time.time()
    def create(_):
        status, t = call_retry(door, "POST", "/api/tables",
                               {"game": a.game, "options": {"target": a.target}, "seats": ["bot:casual"] * 4,
                                "bot_delay_ms": 0})
        if status != 201:
            sys.exit(f"cluster-bench: create: {status} {t}")
        return t

    with ThreadPoolExecutor(16) as pool:  # as many clients at once
        tables = list(pool.map(create, range(a.tables)))
    created = time.time() - t0
    # The watchers run in --procs processes of their own: one Python
    # process's lock cannot carry thousands of busy sockets (measured: a
    # kill due at 45 s came at 135-445 s, and the watchers' reconnections
    # waited on it too).
    watched = [(t["id"], t["spectate"]) for t in tables[:a.watchers]]
    parts = max(1, min(a.procs, len(watched)))
    ctx = mp.get_context("fork")
    over = ctx.Array("i", parts, lock=False)  # per process: its tables seen over
    results = ctx.Queue()
    procs = [ctx.Process(target=watch_part, args=(door, watched[i::parts], over, i, a.timeout, results), daemon=True)
             for i in range(parts)]
    for pr in procs:
        pr.start()
    kill = {"at": None, "victim": None, "owned": set()}

    def kill_one():
        # The node whose shards hold the most watched tables.
        owned = {}
        for name in nodes:
            port = a.port + int(name[1:])
            status, h = call(port, "GET", "/api/health", timeout=5)
            owned[name] = set((h.get("cluster") or {}).get("owned", [])) if status == 200 else set()
        victim = max(nodes, key=lambda n: sum(1 for tid, _ in watched if int(tid[:2], 16) % 64 in owned[n]))
        os.kill(nodes[victim], signal.SIGKILL)
        kill["at"], kill["victim"], kill["owned"] = time.time(), victim, owned[victim]
        print(f"killed {victim} at {kill['at'] - t0:.1f} s", flush=True)

    timer = threading.Timer(max(0.0, t0 + a.kill_after - time.time()), kill_one)
    if a.kill_after:
        timer.start()
    deadline = t0 + a.timeout
    done = set()
    shown = 0
    while time.time() < deadline:
        if time.time() - shown >= 10:  # progress, on stderr
            shown = time.time()
            alive = sum(pr.is_alive() for pr in procs)
            print(f"{shown - t0:.0f} s: {sum(over)} of {len(watched)} watched games over, {len(done)} of "
                  f"{len(tables) - len(watched)} others; {alive} of {parts} watcher processes", file=sys.stderr,
                  flush=True)
        if sum(over) >= len(watched):  # the unwatched ones, once the watched ones are over
            for t in tables[len(watched):]:
                if t["id"] in done:
                    continue
                status, st = call(door, "GET", f"/api/tables/{t['id']}?token={t['spectate']}")
                if status == 200 and st.get("status") == "over":
                    done.add(t["id"])
            if len(done) == len(tables) - len(watched):
                break
        time.sleep(0.5)
    elapsed = time.time() - t0
    timer.cancel()  # a run over before its kill has none
    watchers = []
    for _ in procs:
        watchers += [SimpleNamespace(**w) for w in results.get()]
    watcher_of = {w.table: w for w in watchers}
    sampler.stop = True
    sampler.sample()
    health = {}
    for name in nodes:
        status, h = call(a.port + int(name[1:]), "GET", "/api/health", timeout=5)
        if status == 200:
            health[name] = {"moves": h.get("moves"), "latency_ms": h.get("latency_ms")}
    # Every table's record: its events (the moves/s), and what its watcher saw in it.
    events, mismatched, finished = 0, 0, 0
    for t in tables:
        status, rec = call_retry(door, "GET", f"/api/tables/{t['id']}/record")
        if status != 200:
            continue
        finished += bool(rec.get("result", {}).get("over"))
        events += len(rec["events"])
        w = watcher_of.get(t["id"])
        if w and (any(rec["events"][n].get("move") != m for n, m in w.log.items() if n < len(rec["events"]))
                  or w.version > len(rec["events"]) or w.backwards):
            mismatched += 1
    out = {
        "tables": a.tables, "watchers": a.watchers, "seconds": round(elapsed, 1),
        "created_in_s": round(created, 1), "events": events, "events_per_s": round(events / elapsed),
        "games_finished": finished, "tables_whose_record_differs_from_what_was_watched": mismatched,
        "nodes": health, "processes": sampler.report(),
        "watcher_messages_missing_versions": sum(1 for w in watchers if w.backwards),
    }
    killed, victim = kill["at"], kill["victim"]
    # Its watched tables live at the kill: those whose last version came after it.
    lost = [(w, w.version) for w in watchers
            if killed and int(w.table[:2], 16) % 64 in kill["owned"] and w.last_change > killed]
    if killed:
        gaps = sorted(next((g for g, v in w.reconnects), None) or
                      (w.last_change - killed if w.last_change > killed else float("nan")) for w, _ in lost)
        gaps = [g for g in gaps if g == g]
        out["killed"] = {"node": victim, "at_s": round(killed - t0, 1), "watched_live_tables": len(lost),
                         "takeover_p50_s": round(gaps[len(gaps) // 2], 2) if gaps else None,
                         "takeover_max_s": round(gaps[-1], 2) if gaps else None}
    print(json.dumps(out, indent=1))


main()
