#!/usr/bin/env bash
# Builds and runs every test. SPARTS_SANITIZE=ON builds them with
# -fsanitize=address,undefined (in build-asan/ unless BUILD_DIR says otherwise).
#
# The plain build is Release (-O3, as the Dockerfile builds sparts-server and
# sparts): the tests run what ships, and GCC's -O3 warnings are seen. The
# sanitizer build is -O1 -g1 with precompiled headers: quicker to compile than
# -O2 -g, fast enough to run, and its reports still name the file and line.
# BUILD_TYPE chooses another CMake build type for the plain build (RelWithDebInfo
# for a debugger, say).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

sanitize=${SPARTS_SANITIZE:-OFF}
default_dir=build
[ "$sanitize" = "ON" ] && default_dir=build-asan
build=${BUILD_DIR:-$default_dir}
jobs=$(nproc)
# Most end-to-end tests wait on sockets and timers, not on a core: CTest runs
# twice as many tests at once as there are cores (tests/CMakeLists.txt gives
# the longest ones a COST so that they start first).
test_jobs=${TEST_JOBS:-$(( 2 * jobs ))}

if [ "$sanitize" = "ON" ]; then
  type_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DSPARTS_PCH=ON)
else
  type_flags=(-DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}")
fi

t0=$(date +%s)
cmake -S . -B "$build" -G Ninja "${type_flags[@]}" -DSPARTS_SANITIZE="$sanitize" >/dev/null
cmake --build "$build" -j "$jobs"
t1=$(date +%s)
echo "test.sh: $build built in $(( t1 - t0 )) s"
status=0
ctest --test-dir "$build" --output-on-failure -j "$test_jobs" || status=$?
echo "test.sh: $build tests ran in $(( $(date +%s) - t1 )) s"
exit "$status"
