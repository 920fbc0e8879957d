#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`: clang, ASan + UBSan) and runs each for SECONDS.
#   scripts/fuzz.sh SECONDS [TARGET...]     (default: every target in fuzz/targets.txt)
#   scripts/fuzz.sh --until HOURS           (each target to HOURS CPU-hours in the ledger)
# Two targets run at a time (FUZZ_JOBS=1 for one; FUZZ_BUILD=0 skips the build). Each starts from its corpus under
# build/fuzz/corpus/<target> (kept between runs), the seeds in fuzz/seeds/<target>, the saved
# crashers in fuzz/regressions/<target> and the test data for its format, with the dictionary
# fuzz/dicts/<format>.dict. A crash, leak, timeout or out-of-memory input is written to
# build/fuzz/crashes/<target>/; keep it as fuzz/regressions/<target>/<name> once fixed (the
# core test suite replays that folder). Per-target figures (target, executions, crashed, wall
# seconds, CPU seconds) go to build/fuzz/stats.tsv and are appended, dated, to
# fuzz/ledger.tsv, which is kept in the repository so that the hours of every run survive a new
# machine or a clean clone (commit it after a run; `scripts/fuzz.sh --ledger` prints the
# CPU-hours per target; lines starting with # are comments). -max_total_time is wall time: on a busy machine a target
# gets less CPU than SECONDS, and the CPU seconds are what counts.
# Last line: "fuzz: <targets> targets, <executions> executions, <crashes> crashes"; the exit
# status is non-zero when anything crashed.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/fuzz
ledger=fuzz/ledger.tsv
if [ "${1:-}" = --ledger ]; then
  [ -f "$ledger" ] || { echo "fuzz: no ledger yet ($ledger)"; exit 0; }
  printf "%-18s %6s %14s %10s %8s\n" target runs executions CPU-hours crashes
  awk -F'\t' '/^#/ { next } { cpu[$2] += $6; ex[$2] += $3; runs[$2]++; found[$2] += $4 }
    END { for (t in cpu) printf "%-18s %6d %14d %10.2f %8d\n", t, runs[t], ex[t], cpu[t] / 3600, found[t] }' \
    "$ledger" | sort
  exit 0
fi

build_targets() {
  cmake --preset fuzz >/dev/null
  for t in "$@"; do
    cmake --build --preset fuzz --target "fuzz_$t" | grep -E "error|warning" || true
  done
}

if [ "${1:-}" = --until ]; then
  # Runs the targets, FUZZ_JOBS at a time, until each has HOURS CPU-hours in the ledger: the
  # target closest to its goal first, in chunks of at most 900 s, so that a run stopped at any
  # point keeps the hours it made. Stops at the first crash (exit status 1).
  goal=$(awk -v h="${2:-1}" 'BEGIN { printf "%d", h * 3600 }')
  mkdir -p "$build" && touch "$ledger"
  if [ "${FUZZ_BUILD:-1}" != 0 ]; then
    mapfile -t all < fuzz/targets.txt
    build_targets "${all[@]}"
  fi
  while :; do
    mapfile -t next < <(awk -F'\t' -v g="$goal" 'FNR == NR { cpu[$1] = 0; next }
        ($2 in cpu) { cpu[$2] += $6 }
        END { for (t in cpu) if (cpu[t] < g) printf "%d %s\n", g - cpu[t], t }' \
        fuzz/targets.txt "$ledger" | sort -n | head -"${FUZZ_JOBS:-2}")
    if [ ${#next[@]} -eq 0 ]; then
      echo "fuzz: every target has ${2:-1} CPU-hours (scripts/fuzz.sh --ledger)"
      exit 0
    fi
    chunk=$(( ${next[0]%% *} + 30 ))
    [ "$chunk" -gt 900 ] && chunk=900
    [ "$chunk" -lt 60 ] && chunk=60
    FUZZ_BUILD=0 bash "$0" "$chunk" $(printf '%s\n' "${next[@]}" | cut -d' ' -f2) || exit 1
  done
fi
seconds="${1:-20}"
shift || true
# libFuzzer reads -max_total_time=0 as "no limit"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: SECONDS must be a whole number >= 1" >&2; exit 2; }
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < fuzz/targets.txt; fi
jobs="${FUZZ_JOBS:-2}"

if [ "${FUZZ_BUILD:-1}" != 0 ]; then  # FUZZ_BUILD=0 runs the binaries already built
  build_targets "${targets[@]}"
fi
for t in "${targets[@]}"; do
  [ -x "$build/fuzz/fuzz_$t" ] || { echo "fuzz: fuzz_$t did not build" >&2; exit 2; }
done

dict_for() {
  case "$1" in
    estimate) echo config ;;
    *) echo "$1" ;;
  esac
}
seeds_for() {
  local t="$1"
  [ -d "fuzz/seeds/$t" ] && echo "fuzz/seeds/$t"
  [ -d "fuzz/regressions/$t" ] && echo "fuzz/regressions/$t"
  case "$t" in
    estimate) echo fuzz/seeds/config ;;
    preset) echo presets/models; echo presets/devices ;;
    log | timeline | snapshot | measurement) echo tests/data/compare ;;
    import_*) echo tests/data/import ;;
  esac
  return 0
}

run_one() {
  local t="$1" corpus="$build/corpus/$1" crashes="$build/crashes/$1/"
  mkdir -p "$corpus" "$crashes"
  local -a seeds
  mapfile -t seeds < <(seeds_for "$t")
  local status=0
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
    "$build/fuzz/fuzz_$t" "$corpus" "${seeds[@]}" -max_total_time="$seconds" \
    -dict="fuzz/dicts/$(dict_for "$t").dict" -artifact_prefix="$crashes" -print_final_stats=1 \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 >"$build/logs/$t.log" 2>&1 || status=$?
  # CPU seconds of the fuzzer (user + system): the second line of `times` is this subshell's
  # children, and the fuzzer is its only child.
  local cpu
  times >"$build/logs/$t.times"  # not in $(...): a command substitution is a new subshell
  cpu=$(tail -1 "$build/logs/$t.times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }')
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/logs/$t.log" | tail -1)
  local crashed=0
  # libFuzzer exits 72 (-interrupted_exitcode) when stopped with SIGINT, after its final stats:
  # an interrupted run keeps its hours and is not a crash (`pkill -INT -f build/fuzz/fuzz/`
  # stops a run early).
  [ "$status" -ne 0 ] && [ "$status" -ne 72 ] && crashed=1
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" "${execs:-0}" "$crashed" "$seconds" "$cpu" >"$build/logs/$t.stat"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "${execs:-0}" "$crashed" "$seconds" "$cpu" \
    >>"$ledger"
  local verdict="no crash"
  [ "$status" -eq 72 ] && verdict="interrupted, no crash"
  [ $crashed -eq 1 ] && verdict="CRASH (exit $status): see $build/logs/$t.log, $crashes"
  printf 'fuzz: %-16s %10s executions %6s CPU s  %s\n' "$t" "${execs:-0}" "$cpu" "$verdict"
}

mkdir -p "$build/logs"
rm -f "$build"/logs/*.stat
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$t" &
  running=$((running + 1))
done
wait

total_execs=0
total_crashes=0
: >"$build/stats.tsv"
for t in "${targets[@]}"; do
  IFS=$'\t' read -r _ execs crashed _ <"$build/logs/$t.stat"
  cat "$build/logs/$t.stat" >>"$build/stats.tsv"
  total_execs=$((total_execs + execs))
  total_crashes=$((total_crashes + crashed))
done
echo "fuzz: ${#targets[@]} targets, $total_execs executions, $total_crashes crashes"
[ "$total_crashes" -eq 0 ]
