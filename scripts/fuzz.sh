#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`: clang, ASan + UBSan) and runs each for SECONDS.
#   scripts/fuzz.sh SECONDS [TARGET...]     (default: every target in fuzz/targets.txt)
# Two targets run at a time (FUZZ_JOBS=1 for one; FUZZ_BUILD=0 skips the build). Each starts from its corpus under
# build/fuzz/corpus/<target> (kept between runs), the seeds in fuzz/seeds/<target>, the saved
# crashers in fuzz/regressions/<target> and the test data for its format, with the dictionary
# fuzz/dicts/<format>.dict. A crash, leak, timeout or out-of-memory input is written to
# build/fuzz/crashes/<target>/; keep it as fuzz/regressions/<target>/<name> once fixed (the
# core test suite replays that folder). Per-target figures go to build/fuzz/stats.tsv.
# Last line: "fuzz: <targets> targets, <executions> executions, <crashes> crashes"; the exit
# status is non-zero when anything crashed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-20}"
shift || true
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < fuzz/targets.txt; fi
jobs="${FUZZ_JOBS:-2}"
build=build/fuzz

if [ "${FUZZ_BUILD:-1}" != 0 ]; then  # FUZZ_BUILD=0 runs the binaries already built
  cmake --preset fuzz >/dev/null
  for t in "${targets[@]}"; do
    cmake --build --preset fuzz --target "fuzz_$t" | grep -E "error|warning" || true
  done
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
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/logs/$t.log" | tail -1)
  local crashed=0
  [ "$status" -ne 0 ] && crashed=1
  printf '%s\t%s\t%s\t%s\n' "$t" "${execs:-0}" "$crashed" "$seconds" >"$build/logs/$t.stat"
  printf 'fuzz: %-12s %10s executions  %s\n' "$t" "${execs:-0}" \
    "$([ $crashed -eq 1 ] && echo "CRASH (exit $status): see $build/logs/$t.log, $crashes" || echo "no crash")"
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
