#!/usr/bin/env bash
# Builds and runs every test. SPARTS_SANITIZE=ON builds them with
# -fsanitize=address,undefined (in build-asan/ unless BUILD_DIR says otherwise);
# that is what CI runs (.ci/run).
#
# The plain build is Release (-O3, as the Dockerfile builds sparts-server and
# sparts) with GCC: the tests run what ships, and GCC's -O3 warnings are seen.
# BUILD_TYPE chooses another CMake build type for it (RelWithDebInfo for a
# debugger, say).
#
# The sanitizer build is made to compile fast, since CI builds it from nothing
# each time: clang 15 (CXX_SANITIZE, default clang++-15; GCC works too, about
# three times slower to compile), -O0 but for the code every game runs
# through (SPARTS_HOT_OPTIONS=-O1: the engine and the protocol's JSON, and the
# tests that play thousands of games), line tables only for the reports' file
# and line, precompiled headers, and no benchmarks or load generator.
# ASAN_OPTIONS and UBSAN_OPTIONS default to stopping at the first report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

sanitize=${SPARTS_SANITIZE:-OFF}
default_dir=build
[ "$sanitize" = "ON" ] && default_dir=build-asan
build=${BUILD_DIR:-$default_dir}
jobs=$(nproc)
# CTest runs -j four times the cores: a test that keeps a core busy counts two
# slots and a browser test, which mostly waits on Chromium and the server, one
# (PROCESSORS in tests/CMakeLists.txt), so two busy tests a core, with the
# browser tests beside them. The longest tests start first (their COST).
test_jobs=${TEST_JOBS:-$(( 4 * jobs ))}

if [ "$sanitize" = "ON" ]; then
  cxx=${CXX_SANITIZE:-clang++-15}
  debug=-g1  # GCC: line tables and little else
  case "$cxx" in *clang*) debug=-gline-tables-only ;; esac
  type_flags=(-DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 $debug -DNDEBUG" -DSPARTS_HOT_OPTIONS=-O1
              -DSPARTS_PCH=ON -DSPARTS_UNITY=ON -DSPARTS_BUILD_BENCH=OFF)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
else
  source scripts/build-config.sh  # the one scripts/start.sh builds build/ with
  type_flags=("${release_flags[@]}")
  [ -n "${BUILD_TYPE:-}" ] && type_flags+=(-DCMAKE_BUILD_TYPE="$BUILD_TYPE")
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
