#!/usr/bin/env bash
# The soak test (tools/soak/README.md): a real sparts-server for an hour under
# ordinary play and abuse, with a line of figures a minute and a verdict.
#
#   scripts/soak.sh [--minutes N] [--build-dir DIR] [other tools/soak/soak.py flags]
#
# Exit status: 0 pass, 1 fail (a leak, a dead server, a handler exception),
# 2 a usage or setup error.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build_dir=${2:?--build-dir needs a folder}; shift 2 ;;
        --build-dir=*) build_dir=${1#--build-dir=}; shift ;;
        -h|--help)
            echo "usage: scripts/soak.sh [--minutes N] [--build-dir DIR] [soak.py flags...]"
            echo "  --build-dir DIR  the CMake build with sparts-server and sparts-load (default: build)"
            echo
            python3 tools/soak/soak.py --help
            exit 0 ;;
        *) args+=("$1"); shift ;;
    esac
done

server=$build_dir/server/sparts-server
load=$build_dir/tools/load/sparts-load
missing=0
for binary in "$server" "$load"; do
    if [ ! -x "$binary" ]; then
        echo "soak: $binary is missing" >&2
        missing=1
    fi
done
if [ "$missing" = 1 ]; then
    cat >&2 <<EOF
Build them first:
    cmake --build $build_dir --target sparts_server_main sparts_load
For figures worth comparing, use a Release build:
    cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
    cmake --build build-release -j2 --target sparts_server_main sparts_load
    scripts/soak.sh --build-dir build-release
EOF
    exit 2
fi

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
if [ "$build_type" != "Release" ]; then
    echo "soak: note: $build_dir is a '${build_type:-unknown}' build; for latency figures use a Release one" \
         "(cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release, then --build-dir build-release)" >&2
fi

exec python3 tools/soak/soak.py --server "$server" --load "$load" ${args[@]+"${args[@]}"}
