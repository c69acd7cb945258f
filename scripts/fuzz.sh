#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, see fuzz/README.md) in build-fuzz/ with
# clang-15, replays every saved crash input (fuzz/regressions/<target>/, each
# file once), then fuzzes each target on its corpus for the given time.
# Fails if a regression input still crashes or if fuzzing finds a crash; a new
# crash input is written to fuzz/regressions/<target>/ (commit it with the fix).
#
#   scripts/fuzz.sh [SECONDS | hour | build] [TARGET...]
#
# build: only build the targets (CI builds them while its tests run).
# SECONDS: fuzzing time per target (default 60); "hour": an hour of wall-clock
# time shared by the targets (3600 s x FUZZ_PARALLEL / the number of targets:
# 800 s each for the nine on two cores), fuzzing on after a crash (fork mode)
# so that one bug does not hide the next. TARGETs:
# parse_request, parse_game_record, archive_api, game_apply, proxy_header, login, admin_request,
# settings_file, display_text (default: all).
# Environment: BUILD_DIR (build-fuzz), CXX_FUZZ (clang++-15), FUZZ_JOBS (build
# jobs, nproc), FUZZ_PARALLEL (targets fuzzed at once, nproc), FUZZ_KEEP_GOING=1
# (fork mode for any time).
#
# One crash input is kept per bug: a new crash whose signature (the sanitizer's
# summary, the first frame in our code, the oracle's message) is that of a saved
# regression or of another new crash goes to build-fuzz/crashes/<target>/ instead.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
[ $# -gt 0 ] && shift
keep_going=${FUZZ_KEEP_GOING:-0}
hour=0
if [ "$seconds" = hour ]; then
  hour=1
  keep_going=1
fi
build_only=0
if [ "$seconds" = build ]; then
  build_only=1
  seconds=0
fi
case "$seconds" in hour) ;; '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS | hour | build] [TARGET...]" >&2; exit 2 ;; esac
all_targets=(parse_request parse_game_record archive_api game_apply proxy_header login admin_request settings_file
             display_text)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

# Inputs longer than this are cut: a request frame, a short game record, a
# request target, a game's seed and steps (one step can play 256 actions).
max_len() {
  case "$1" in
    parse_request) echo 4096 ;;
    parse_game_record) echo 16384 ;;
    archive_api) echo 512 ;;
    game_apply) echo 2048 ;;
    proxy_header) echo 600 ;;
    login) echo 6000 ;;
    admin_request) echo 5000 ;;
    settings_file) echo 4096 ;;
    display_text) echo 1400 ;;
    *) echo "unknown fuzz target: $1 (expected one of: ${all_targets[*]})" >&2; return 1 ;;
  esac
}
for t in "${targets[@]}"; do max_len "$t" >/dev/null; done
# The hour-long run: an hour of the machine's wall-clock time shared by the targets, FUZZ_PARALLEL at a time.
if [ "$hour" = 1 ]; then
  seconds=$(( 3600 * ${FUZZ_PARALLEL:-$(nproc)} / ${#targets[@]} ))
fi

build=${BUILD_DIR:-build-fuzz}
cxx=${CXX_FUZZ:-clang++-15}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 with line tables, as OSS-Fuzz builds: quick to compile, and a crash still names file and line.
# FUZZ_OPT: the optimisation level (-O1, as OSS-Fuzz builds; CI, which fuzzes each target for
# seconds and builds from nothing, takes -O0: about half the compiling, and the regressions replay the same).
opt=${FUZZ_OPT:--O1}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt -gline-tables-only -DNDEBUG" \
      -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
      -DSPARTS_FUZZ=ON -DSPARTS_UNITY=ON -DSPARTS_PCH=ON -DSPARTS_BUILD_TESTS=OFF -DSPARTS_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "${FUZZ_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"
[ "$build_only" = 1 ] && exit 0

inputs() { find "$1" -maxdepth 1 -type f ! -name 'README*' ! -name '.*' -print0 | sort -z; }

# Runs target $1 on input $2 once, its output in $3; prints the crash's signature
# (nothing when it does not crash).
signature() {
  "$build/fuzz/fuzz_$1" -runs=1 "$2" >"$3" 2>&1 && return 0
  {
    grep -m1 -oE 'fuzz target: [^:]*' "$3" || true                          # the oracle's message
    grep -m1 -oE "what\(\): *\[[a-z._0-9]*\]" "$3" | sed 's/what(): */exception /' || true  # an exception's kind
    grep -m1 -E '^SUMMARY: ' "$3" | sed -E 's/^SUMMARY: //; s/ [^ ]*:[0-9]+(:[0-9]+)? .*$//; s/ \(.*$//' || true
    grep -m1 -E '#[0-9]+ 0x[0-9a-f]+ in sparts::' "$3" | sed -E 's/\(anonymous namespace\):://g; s/^.* in //; s/\(.*$//' || true
  } | paste -sd '|' -
}

failed=()
log="$build/fuzz-log.tsv"
[ -f "$log" ] || printf 'date\ttarget\tseconds\texecs\texecs_per_s\tcorpus\tnew_crashes\n' >"$log"
declare -A known  # "target signature" -> the regression input that has it

# 1. Every saved crash input, once each: a fixed bug stays fixed.
for t in "${targets[@]}"; do
  [ -d "fuzz/regressions/$t" ] || continue
  while IFS= read -r -d '' f; do
    sig=$(signature "$t" "$f" "$build/regression-$t.log")
    [ -z "$sig" ] && continue
    echo "REGRESSION: fuzz_$t crashes on $f: $sig" >&2
    known["$t $sig"]=$f
    failed+=("$t: $f still crashes")
  done < <(inputs "fuzz/regressions/$t")
done

# 2. Fuzzing, FUZZ_PARALLEL targets at a time (default: one a core). New corpus entries go to
# $build/corpus/<target> (the seeds in fuzz/corpus/<target> are read, never written); crash
# inputs to $build/artifacts/<target>/, then one a bug to fuzz/regressions/<target>/.
fuzz_target() {
  local t=$1 status=0
  local dict=() mode=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  [ "$keep_going" = 1 ] && mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  "$build/fuzz/fuzz_$t" "$build/corpus/$t" "fuzz/corpus/$t" "${dict[@]}" "${mode[@]}" -max_len="$(max_len "$t")" \
    -max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$build/artifacts/$t/" \
    >"$build/fuzz-$t.log" 2>&1 || status=$?
  echo "$status" >"$build/fuzz-$t.status"
}
parallel=${FUZZ_PARALLEL:-$(nproc)}
for t in "${targets[@]}"; do
  rm -rf "$build/artifacts/$t"
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/crashes/$t"
  echo "== fuzz_$t: ${seconds}s, max_len $(max_len "$t")$([ "$keep_going" = 1 ] && echo ", fork mode")"
  fuzz_target "$t" &
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
done
wait

for t in "${targets[@]}"; do
  work=$build/corpus/$t
  artifacts=$build/artifacts/$t
  status=$(cat "$build/fuzz-$t.status")
  echo "== fuzz_$t:"
  new=0 dups=0 examined=0 unexamined=0
  while IFS= read -r -d '' f; do
    # A symbolized crash report takes a second: past 100 (a fork-mode run that keeps
    # hitting one bug), the rest are kept unexamined.
    if [ "$examined" -ge 100 ]; then
      mv "$f" "$build/crashes/$t/"
      unexamined=$((unexamined + 1))
      continue
    fi
    examined=$((examined + 1))
    sig=$(signature "$t" "$f" "$build/crash-$t.log")
    [ -z "$sig" ] && sig="does not crash when run alone ($(basename "$f"))"
    if [ -n "${known["$t $sig"]:-}" ]; then
      mv "$f" "$build/crashes/$t/"
      dups=$((dups + 1))
      echo "   a crash like ${known["$t $sig"]}: $sig (input in $build/crashes/$t/)"
      continue
    fi
    kept=fuzz/regressions/$t/$(basename "$f")
    mkdir -p "fuzz/regressions/$t"
    mv "$f" "$kept"
    known["$t $sig"]=$kept
    new=$((new + 1))
    echo "   NEW CRASH: $kept: $sig" >&2
    failed+=("$t: fuzzing found $kept ($sig)")
  done < <(inputs "$artifacts")
  if [ "$unexamined" -gt 0 ]; then
    echo "   $((examined + unexamined)) crash inputs: $examined examined, $unexamined more in $build/crashes/$t/ unexamined"
    dups=$((dups + unexamined))
  fi
  if [ "$status" -ne 0 ] && [ "$new" -eq 0 ] && [ "$dups" -eq 0 ]; then
    failed+=("$t: the fuzzer exited with $status and no crash input (see $build/fuzz-$t.log)")
  fi

  # The final stats of a plain run, or the last status line of a fork-mode run ("#N: cov: ... exec/s: R").
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$build/fuzz-$t.log" | tail -1 | grep -oE '[0-9]+$' || true)
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$build/fuzz-$t.log" | tail -1 | grep -oE '[0-9]+$' || true)
  if [ -z "$execs" ]; then
    last=$(grep -E '^#[0-9]+: cov:' "$build/fuzz-$t.log" | tail -1 || true)
    execs=$(echo "$last" | grep -oE '^#[0-9]+' | tr -d '#' || true)
    rate=$(echo "$last" | grep -oE 'exec/s:? *[0-9]+' | grep -oE '[0-9]+$' || true)
  fi
  corpus=$(find "$work" -type f | wc -l)
  echo "   ${execs:-?} executions, ${rate:-?}/s, corpus $corpus, $new new crash input(s)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$seconds" "${execs:-?}" "${rate:-?}" "$corpus" "$new" >>"$log"
done

if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "fuzz: no crash"
