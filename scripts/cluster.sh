#!/usr/bin/env bash
# A local cluster on this machine (docs/server.md, "Beyond one machine"): a
# real PostgreSQL, three `boneyard serve --node-id` nodes on it, and HAProxy
# in front (deploy/haproxy.cfg), everything kept in .cluster/ (gitignored).
#   scripts/cluster.sh up       build if needed, start everything, print the address to open
#   scripts/cluster.sh status   one line per node (address, pid, shards), PostgreSQL, the front door
#   scripts/cluster.sh down     stop everything it started
# Ports: BONEYARD_CLUSTER_PORT (default 8080) is the front door's HTTP; HTTPS
# is +363 (8443), the nodes +1..+3 (8081-8083), PostgreSQL +12 (8092).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
DIR="$ROOT/.cluster"
PORT="${BONEYARD_CLUSTER_PORT:-8080}"
HTTPS_PORT=$((PORT + 363))
PG_PORT=$((PORT + 12))
NODES=(n1 n2 n3)
node_port() { echo $((PORT + ${1#n})); }
DB_URL="postgresql://boneyard@127.0.0.1:$PG_PORT/boneyard"

# PostgreSQL refuses to run as root: as root, its server runs as postgres.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pg_bin() {
  local b
  for b in "$(pg_config --bindir 2>/dev/null || true)" /usr/lib/postgresql/*/bin; do
    [ -x "$b/pg_ctl" ] && { echo "$b"; return; }
  done
  echo "cluster.sh: PostgreSQL's pg_ctl not found: install postgresql (scripts/setup.sh does)" >&2
  exit 1
}
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

up() {
  BONEYARD_QUIET=1 NINJA_TARGETS=boneyard ./scripts/setup.sh >&2
  command -v haproxy >/dev/null || { echo "cluster.sh: haproxy not found: install it (scripts/setup.sh does)" >&2; exit 1; }
  mkdir -p "$DIR"
  local bin
  bin="$(pg_bin)"
  if [ ! -f "$DIR/pg/PG_VERSION" ]; then
    mkdir -p "$DIR/pg"
    [ "$(id -u)" -eq 0 ] && chown postgres "$DIR" "$DIR/pg"
    as_pg "$bin/initdb" -D "$DIR/pg" -U boneyard --auth=trust >"$DIR/initdb.log" 2>&1 ||
      { cat "$DIR/initdb.log" >&2; exit 1; }
  fi
  if ! as_pg "$bin/pg_ctl" -D "$DIR/pg" status >/dev/null 2>&1; then
    as_pg "$bin/pg_ctl" -D "$DIR/pg" -w -l "$DIR/pg/server.log" \
      -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $DIR/pg" start >/dev/null
    as_pg "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U boneyard boneyard 2>/dev/null || true
  fi
  for n in "${NODES[@]}"; do
    alive "$DIR/$n.pid" && continue
    # The nodes trust the front door (loopback) for the clients' addresses.
    # The default 10 s leases: a node whose process dies is seen at once (its store session
    # ends: its presence, src/server/store.h) and its shards are taken on the others' next
    # round (at most 1 s); only a node paused or cut off waits out its lease.
    # BONEYARD_NODE_ARGS: more `serve` options for every node (scripts/cluster-bench.py's).
    # shellcheck disable=SC2086
    nohup ./build/boneyard serve --db "$DB_URL" --node-id "$n" --port "$(node_port "$n")" \
      --trusted-proxy 127.0.0.1 ${BONEYARD_NODE_ARGS:-} >"$DIR/$n.log" 2>&1 &
    echo $! >"$DIR/$n.pid"
  done
  if [ ! -f "$DIR/front.pem" ]; then
    # TLS ends at the front door: a self-signed certificate for the local cluster.
    openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj /CN=localhost \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -keyout "$DIR/front.key" -out "$DIR/front.crt" 2>/dev/null
    cat "$DIR/front.crt" "$DIR/front.key" >"$DIR/front.pem"
  fi
  if ! alive "$DIR/haproxy.pid"; then
    BONEYARD_FRONT_HTTP="127.0.0.1:$PORT" BONEYARD_FRONT_HTTPS="127.0.0.1:$HTTPS_PORT" \
      BONEYARD_FRONT_CERT="$DIR/front.pem" BONEYARD_NODE1="127.0.0.1:$(node_port n1)" \
      BONEYARD_NODE2="127.0.0.1:$(node_port n2)" BONEYARD_NODE3="127.0.0.1:$(node_port n3)" \
      haproxy -D -f deploy/haproxy.cfg -p "$DIR/haproxy.pid" 2>"$DIR/haproxy.log" ||
      { cat "$DIR/haproxy.log" >&2; exit 1; }
  fi
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break
    sleep 0.2
  done
  status
  echo "open http://127.0.0.1:$PORT (or https://127.0.0.1:$HTTPS_PORT, a self-signed certificate)"
}

status() {
  local bin health
  bin="$(pg_bin)"
  for n in "${NODES[@]}"; do
    local addr="http://127.0.0.1:$(node_port "$n")"
    if alive "$DIR/$n.pid"; then
      health="$(curl -s -m 2 "$addr/api/health" 2>/dev/null || true)"
      echo "$n $addr pid $(cat "$DIR/$n.pid") $(echo "$health" | python3 -c \
        'import json,sys
try:
  h=json.load(sys.stdin); c=h.get("cluster") or {}
  print("shards %d tables %d%s" % (len(c.get("owned", [])), h.get("tables", 0), "" if h.get("ok") else " storage failing"))
except Exception: print("not answering")' 2>/dev/null)"
    else
      echo "$n $addr down"
    fi
  done
  if as_pg "$bin/pg_ctl" -D "$DIR/pg" status >/dev/null 2>&1; then
    echo "postgresql 127.0.0.1:$PG_PORT pid $(head -1 "$DIR/pg/postmaster.pid")"
  else
    echo "postgresql 127.0.0.1:$PG_PORT down"
  fi
  if alive "$DIR/haproxy.pid"; then
    echo "front door http://127.0.0.1:$PORT https://127.0.0.1:$HTTPS_PORT pid $(cat "$DIR/haproxy.pid")"
  else
    echo "front door http://127.0.0.1:$PORT down"
  fi
}

down() {
  local f pid
  for f in "$DIR/haproxy.pid" "${NODES[@]/#/$DIR/}"; do
    [[ "$f" == *.pid ]] || f="$f.pid"
    if alive "$f"; then
      pid="$(cat "$f")"
      kill "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    fi
    rm -f "$f"
  done
  if [ -d "$DIR/pg" ]; then
    as_pg "$(pg_bin)/pg_ctl" -D "$DIR/pg" -w stop -m fast >/dev/null 2>&1 || true
  fi
  echo "cluster stopped (its data stays in .cluster/; remove the folder to start afresh)"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *)
    echo "usage: scripts/cluster.sh up|down|status" >&2
    exit 2
    ;;
esac
