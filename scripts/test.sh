#!/usr/bin/env bash
# Builds and runs every test. SPARTS_SANITIZE=ON builds them with
# -fsanitize=address,undefined (in build-asan/ unless BUILD_DIR says otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

sanitize=${SPARTS_SANITIZE:-OFF}
default_dir=build
[ "$sanitize" = "ON" ] && default_dir=build-asan
build=${BUILD_DIR:-$default_dir}
jobs=$(nproc)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPARTS_SANITIZE="$sanitize" >/dev/null
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
