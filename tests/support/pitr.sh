#!/usr/bin/env bash
# Point-in-time recovery of a PostgreSQL 15 as docs/OPERATING.md ("PostgreSQL backups") says it,
# for tests/server/e2e_backup_test.cpp: a primary with WAL archiving, a base backup of it taken
# while it runs, and a new cluster restored from that backup and the archived WAL up to a moment.
#
#   pitr.sh primary DIR          a cluster in DIR/primary archiving each WAL segment to DIR/wal;
#                                started (a unix socket in DIR/primary only); prints its URL
#   pitr.sh base-backup DIR      pg_basebackup -Ft -z -Xs of the primary into DIR/base
#   pitr.sh switch-wal DIR       ends the primary's WAL segment, so that it is archived, and waits
#                                until it is
#   pitr.sh restore DIR TIME     DIR/restored: the base backup unpacked, restore_command reading
#                                DIR/wal, recovery_target_time TIME; started (it replays the WAL up
#                                to TIME and is promoted); prints its URL
#   pitr.sh stop DIR             stops both
#
# As root, the clusters belong to the `postgres` user and run as it (PostgreSQL refuses root).
set -euo pipefail
cmd="${1:?usage: pitr.sh primary|base-backup|switch-wal|restore|stop DIR [TIME]}"
dir="$(realpath -m "${2:?usage: pitr.sh COMMAND DIR}")"
bin="${SPARTS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)}"
[ -x "$bin/pg_ctl" ] || { echo "pitr.sh: no PostgreSQL server found (apt-get install postgresql-15)" >&2; exit 1; }
as_owner=()
[ "$(id -u)" -eq 0 ] && as_owner=(runuser -u postgres --)
url() { echo "postgresql://sparts@/postgres?host=$1"; }
start() {  # DATA SOCKET_DIR
  "${as_owner[@]}" "$bin/pg_ctl" -D "$1" -l "$2/server.log" -w -t 120 \
    -o "-k $2 -c listen_addresses= -c max_connections=100" start >/dev/null || { cat "$2/server.log" >&2; exit 1; }
}

case "$cmd" in
  primary)
    mkdir -p "$dir/primary" "$dir/wal"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir" "$dir/primary" "$dir/wal"
    "${as_owner[@]}" "$bin/initdb" -D "$dir/primary/data" -A trust -U sparts --locale=C.UTF-8 -E UTF8 \
      >"$dir/primary/initdb.log" 2>&1 || { cat "$dir/primary/initdb.log" >&2; exit 1; }
    # The recipe: WAL fit for a base backup, and each finished segment copied off (here to DIR/wal).
    cat >>"$dir/primary/data/postgresql.conf" <<EOF
wal_level = replica
archive_mode = on
archive_command = 'test ! -f $dir/wal/%f && cp %p $dir/wal/%f'
EOF
    start "$dir/primary/data" "$dir/primary"
    url "$dir/primary"
    ;;
  base-backup)
    "${as_owner[@]}" "$bin/pg_basebackup" -d "$(url "$dir/primary")" -D "$dir/base" -Ft -z -Xs >/dev/null
    ;;
  switch-wal)
    segment="$("$bin/psql" -X -A -t -q -d "$(url "$dir/primary")" -c "SELECT pg_walfile_name(pg_switch_wal())")"
    for _ in $(seq 1 600); do
      [ -f "$dir/wal/$segment" ] && exit 0
      sleep 0.1
    done
    echo "pitr.sh: the WAL segment $segment was not archived" >&2
    exit 1
    ;;
  restore)
    time="${3:?usage: pitr.sh restore DIR TIME}"
    mkdir -p "$dir/restored/data"
    tar -xzf "$dir/base/base.tar.gz" -C "$dir/restored/data"
    tar -xzf "$dir/base/pg_wal.tar.gz" -C "$dir/restored/data/pg_wal"
    # The reverse of the archive command, the moment to stop at, and no archiving of its own.
    cat >>"$dir/restored/data/postgresql.conf" <<EOF
archive_mode = off
restore_command = 'cp $dir/wal/%f %p'
recovery_target_time = '$time'
recovery_target_action = 'promote'
EOF
    touch "$dir/restored/data/recovery.signal"
    chmod 700 "$dir/restored/data"
    [ "$(id -u)" -eq 0 ] && chown -R postgres: "$dir/restored"
    start "$dir/restored/data" "$dir/restored"
    # pg_ctl may return once the replay lets read-only connections in: wait for the promotion.
    for _ in $(seq 1 1200); do
      [ "$("$bin/psql" -X -A -t -q -d "$(url "$dir/restored")" -c "SELECT pg_is_in_recovery()" 2>/dev/null)" = "f" ] &&
        { url "$dir/restored"; exit 0; }
      sleep 0.1
    done
    echo "pitr.sh: the restored cluster was not promoted (see $dir/restored/server.log)" >&2
    exit 1
    ;;
  stop)
    for cluster in primary restored; do
      if [ -f "$dir/$cluster/data/postmaster.pid" ]; then
        "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/$cluster/data" -m fast -w stop >/dev/null 2>&1 || true
      fi
    done
    ;;
  *)
    echo "usage: pitr.sh primary|base-backup|switch-wal|restore|stop DIR [TIME]" >&2
    exit 2
    ;;
esac
