#!/usr/bin/env bash
# Installs what is needed, builds, and starts sparts-server on
# http://127.0.0.1:8080 (WebSocket on /ws). Flags go to the server:
# `scripts/start.sh --port 9000`, `scripts/start.sh --help` for all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Warnings are errors in the tests' builds (scripts/test.sh, CI), not here: a compiler's
# new warning must not stop a host from starting the server.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPARTS_WERROR=OFF >/dev/null
cmake --build build -j "$(nproc)" --target sparts_server_main sparts_cli
exec build/server/sparts-server "$@"
