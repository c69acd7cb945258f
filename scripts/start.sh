#!/usr/bin/env bash
# Installs what is needed, builds, and starts the main program. Until the
# server lands, that is the command-line game: you play seat 0 against three
# random players (`build/tools/sparts play --help` for presets and options).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target sparts_cli
exec build/tools/sparts play "$@"
