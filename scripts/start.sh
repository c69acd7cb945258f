#!/usr/bin/env bash
# Installs what building and running the server need, builds it, and starts
# sparts-server on http://127.0.0.1:8080 (WebSocket on /ws). Flags go to the
# server: `scripts/start.sh --port 9000`, `scripts/start.sh --help` for all of
# them. The games are kept in data/sparts.db unless --database (or
# SPARTS_DATABASE) names another place.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --server
source scripts/build-config.sh
cmake -S . -B build -G Ninja "${release_flags[@]}" >/dev/null
cmake --build build -j "$(nproc)" --target sparts_server_main sparts_cli
args=("$@")
if [[ " $* " != *" --database"* && -z "${SPARTS_DATABASE:-}" ]]; then
  mkdir -p data
  args=(--database data/sparts.db "${args[@]}")
fi
exec build/server/sparts-server "${args[@]}"
