#!/usr/bin/env bash
# ThreadSanitizer run: builds the server, storage and end-to-end tests with
# -fsanitize=thread (SPARTS_TSAN=ON, in build-tsan/ unless BUILD_DIR says
# otherwise) and runs the server/ and storage/ suites. The end-to-end tests
# start this build's sparts-server (and sparts, sparts-bot), so those run
# under TSan too.
#
#   scripts/tsan.sh [extra ctest arguments, e.g. -R '^server/e2e: a flood']
#
# Fails if a test fails or if any TSan report was written, by the test
# programs or by a server child: every report goes to a file
# $BUILD_DIR/tsan-report/report.<pid> (log_path), because a server that a test
# only stops in its destructor (SIGTERM, exit status not looked at) would
# otherwise report into a log nobody reads.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build-tsan}
jobs=${JOBS:-2}
targets=(server_tests storage_tests sparts_server_main sparts_cli sparts_bot)

# clang 15 (CXX_TSAN) compiles this about three times faster than GCC 12 (CXX_TSAN=g++ works).
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="${CXX_TSAN:-clang++-15}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-DNDEBUG" -DSPARTS_TSAN=ON -DSPARTS_SANITIZE=OFF -DSPARTS_BUILD_BENCH=OFF \
      "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

reports=$(realpath "$build")/tsan-report
rm -rf "$reports"
mkdir -p "$reports"

# halt_on_error: the first report ends the process (exit status 66), so a server
#   child that races dies and its test fails on the lost connection or the status.
# second_deadlock_stack: both stacks of a lock-order inversion.
# log_path: reports go to files (report.<pid>), checked below.
# suppressions: only races inside third-party libraries, each explained there.
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:log_path=$reports/report:suppressions=$(realpath tests/tsan.supp)${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

# TSan sees a race only between accesses that no lock orders, and every Asio handler is
# taken from the io_context's queue under one mutex: two handlers are ordered unless they
# really run at once. More I/O threads than cores make that happen more often; a test
# that sets --threads itself keeps its own (flags win over the environment).
export SPARTS_THREADS=${SPARTS_THREADS:-4}

start=$(date +%s)
status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" -R '^(server|storage)/' "$@" || status=$?
echo "tsan: ctest took $(( $(date +%s) - start ))s (status $status)"

shopt -s nullglob
found=("$reports"/report.*)
if [ ${#found[@]} -gt 0 ]; then
  echo "tsan: ${#found[@]} ThreadSanitizer report(s) in $reports:" >&2
  for f in "${found[@]}"; do
    echo "=== $f" >&2
    cat "$f" >&2
  done
  exit 1
fi
echo "tsan: no ThreadSanitizer report"
exit "$status"
