#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for the tests: `postgres.sh start DIR` makes a
# cluster in DIR (once), starts it listening on a unix socket in DIR only (no
# TCP port), and prints its URL; `postgres.sh stop DIR` stops it. PostgreSQL
# refuses to run as root: as root, the cluster belongs to the `postgres` user
# Debian's package creates, and runs as it.
#
# fsync is off: these clusters hold test data only, and a test that kills
# sparts-server kills no PostgreSQL (commits are still synchronous: a commit
# PostgreSQL acknowledged is in its log). SPARTS_PG_DURABLE=1 keeps
# PostgreSQL's defaults (the benchmarks, tools/load/cluster_figures.py).
set -euo pipefail
cmd="${1:?usage: postgres.sh start|stop|url DIR}"
dir="$(realpath -m "${2:?usage: postgres.sh start|stop|url DIR}")"
bin="${SPARTS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)}"
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: no PostgreSQL server found (apt-get install postgresql-15)" >&2; exit 1; }

as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  as_owner=(runuser -u postgres --)
fi
url="postgresql://sparts@/postgres?host=$dir"

case "$cmd" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U sparts --locale=C.UTF-8 -E UTF8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    speed="-c fsync=off -c full_page_writes=off"
    [ "${SPARTS_PG_DURABLE:-0}" = "1" ] && speed=""
    if ! "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -c listen_addresses= $speed -c max_connections=300 -c shared_buffers=128MB" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    fi
    echo "$url"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    ;;
  url)
    echo "$url"
    ;;
  *)
    echo "usage: postgres.sh start|stop|url DIR" >&2
    exit 2
    ;;
esac
