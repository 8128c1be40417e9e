#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: loopback only, trust auth, no fsync, everything in one temp dir.
#
#   eval "$(.ci/postgres.sh start)"   # prints: export TEST_POSTGRES_URL=…; export AGENTCTX_PG_DIR=…
#   npx vitest run test/stores/postgres.test.ts
#   .ci/postgres.sh stop              # stops the cluster named by $AGENTCTX_PG_DIR (or the dir given) and removes it
#
# `start` uses the newest /usr/lib/postgresql/*/bin; when there is none it runs `apt-get install -y postgresql`
# as root, and otherwise exits 3 saying so (the PostgreSQL tests then skip). As root the server runs as the
# `postgres` OS user (it refuses root); as anyone else, as that user. Progress goes to stderr; stdout carries
# only the export lines. The cluster's superuser is `postgres`, its database `agentctx`.
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

# Runs a server binary as the user that may run it: `postgres` when we are root, ourselves otherwise.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  local bin
  bin=$(find_bin)
  if [ -z "$bin" ]; then
    if [ "$(id -u)" -ne 0 ]; then
      log "PostgreSQL is not installed and this is not root, so it cannot be installed: the PostgreSQL tests will skip."
      exit 3
    fi
    log "installing PostgreSQL (apt-get install -y postgresql)"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; then
      DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
    fi
    bin=$(find_bin)
    [ -n "$bin" ] || { log "apt-get installed no server binaries under /usr/lib/postgresql"; exit 1; }
  fi
  # Debian's package starts its own cluster on 5432; ours does not need it, and leaves it alone.

  local dir
  dir=$(mktemp -d -t agentctx-pg.XXXXXX)
  chmod 755 "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
  as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 || {
    log "initdb failed:"; cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1
  }

  local port attempt started=''
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    port_in_use "$port" && continue
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o \
      "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null 2>&1; then
      started=yes
      break
    fi
    log "start on port $port failed (attempt $attempt), trying another port"
  done
  if [ -z "$started" ]; then
    log "the server did not start; its log:"; tail -20 "$dir/server.log" >&2 || true
    rm -rf "$dir"
    exit 1
  fi
  echo "$bin" >"$dir/bin"
  "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c 'CREATE DATABASE agentctx' >&2
  log "cluster running on 127.0.0.1:$port (data in $dir)"
  echo "export TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/agentctx"
  echo "export AGENTCTX_PG_DIR=$dir"
}

stop() {
  local dir=${1:-${AGENTCTX_PG_DIR:-}}
  if [ -z "$dir" ]; then log "stop: name the cluster's dir, or set AGENTCTX_PG_DIR (start prints it)"; exit 2; fi
  case "$dir" in */agentctx-pg.*) ;; *) log "stop: $dir is not a dir this script made"; exit 2 ;; esac
  [ -d "$dir" ] || return 0
  local bin
  bin=$(cat "$dir/bin" 2>/dev/null || find_bin)
  if [ -f "$dir/data/postmaster.pid" ] && [ -n "$bin" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 || log "pg_ctl stop failed; removing the dir anyway"
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: $0 start | stop [dir]" >&2; exit 2 ;;
esac
