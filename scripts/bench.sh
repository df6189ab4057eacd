#!/usr/bin/env bash
# Builds gwb_bench (Release) if needed, runs it and prints a Markdown table of the results.
#
#   scripts/bench.sh [--no-build] [--filter REGEX] [--repetitions N] [--out FILE] [--single]
#
#   --no-build       use the gwb_bench that is there (the CMake `bench` target passes this)
#   --filter REGEX   only the benchmarks whose name matches (Google Benchmark's --benchmark_filter)
#   --repetitions N  run each benchmark N times and report medians
#   --out FILE       merged JSON results (default: $GWB_BUILD_DIR/bench/gwb_bench.json)
#   --single         run everything in one process (faster; peak RSS is then cumulative)
#
# Environment: GWB_BUILD_DIR (default build-release/ at the repo root), GWB_BENCH_EXE (default
# $GWB_BUILD_DIR/bench/gwb_bench), GWB_SHARED_DIR (../shared), GWB_JOBS (parallel build jobs).
#
# Each benchmark runs in its own process under /usr/bin/time, so "peak RSS" is that benchmark's
# own high-water mark (file, grammar, indices, writer buffers) plus the program's baseline. The
# table is printed by scripts/bench_report.py (python3) or, failing that, by jq. The "Earleyx"
# column comes from bench/earleyx_figures.tsv (figures from ../shared/reference/earleyx/BENCHMARKS.md).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${GWB_BUILD_DIR:-$root/build-release}"
build=1
filter="."
repetitions=1
out=""
single=0

while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --filter) filter="$2"; shift ;;
    --filter=*) filter="${1#*=}" ;;
    --repetitions) repetitions="$2"; shift ;;
    --repetitions=*) repetitions="${1#*=}" ;;
    --out) out="$2"; shift ;;
    --out=*) out="${1#*=}" ;;
    --single) single=1 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ "$build" -eq 1 ]; then
  if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    echo "bench.sh: configuring a Release build in $build_dir" >&2
    cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
      -DGWB_BUILD_BENCH=ON -DGWB_BUILD_GUI=OFF -DGWB_BUILD_TESTS=OFF >&2
  else
    type="$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")"
    if [ "$type" != "Release" ]; then
      echo "bench.sh: warning: $build_dir is a '${type:-default}' build, not Release" >&2
    fi
  fi
  cmake --build "$build_dir" --target gwb_bench -j "${GWB_JOBS:-$(nproc)}" >&2
fi

exe="${GWB_BENCH_EXE:-$build_dir/bench/gwb_bench}"
if [ ! -x "$exe" ]; then
  echo "bench.sh: no gwb_bench at $exe (build it, or drop --no-build)" >&2
  exit 1
fi
[ -n "$out" ] || out="$(dirname "$exe")/gwb_bench.json"
mkdir -p "$(dirname "$out")"

work="$(mktemp -d "${TMPDIR:-/tmp}/gwb-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

common=(--benchmark_out_format=json)
if [ "$repetitions" -gt 1 ]; then
  common+=(--benchmark_repetitions="$repetitions" --benchmark_display_aggregates_only=true)
fi

have_time=0
if [ -x /usr/bin/time ] && /usr/bin/time -f '%M' -o /dev/null true 2>/dev/null; then have_time=1; fi

runs=()
rss_args=()
if [ "$single" -eq 1 ]; then
  echo "bench.sh: running $exe (one process)" >&2
  "$exe" --benchmark_filter="$filter" --benchmark_out="$work/all.json" "${common[@]}" >&2
  runs+=("$work/all.json")
else
  mapfile -t names < <("$exe" --benchmark_list_tests --benchmark_filter="$filter")
  if [ ${#names[@]} -eq 0 ]; then
    echo "bench.sh: no benchmark matches '$filter'" >&2
    exit 1
  fi
  i=0
  for name in "${names[@]}"; do
    i=$((i + 1))
    # Anchor the exact name; escape the regex characters benchmark names may hold.
    pattern="^$(printf '%s' "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
    json="$work/run-$i.json"
    echo "bench.sh: [$i/${#names[@]}] $name" >&2
    timer=()
    if [ "$have_time" -eq 1 ]; then timer=(/usr/bin/time -f '%M' -o "$work/rss-$i"); fi
    # gwb_bench repeats its context header on stderr for every process: keep it unless it fails.
    if ! "${timer[@]}" "$exe" --benchmark_filter="$pattern" --benchmark_out="$json" \
        "${common[@]}" >/dev/null 2>"$work/log-$i"; then
      cat "$work/log-$i" >&2
      echo "bench.sh: gwb_bench failed on $name" >&2
      exit 1
    fi
    if [ "$have_time" -eq 1 ]; then rss_args+=(--rss "$name=$(tail -n 1 "$work/rss-$i")"); fi
    runs+=("$json")
  done
fi

figures="$root/bench/earleyx_figures.tsv"
if command -v python3 >/dev/null 2>&1; then
  python3 "$root/scripts/bench_report.py" --out "$out" --figures "$figures" \
    "${rss_args[@]}" "${runs[@]}"
elif command -v jq >/dev/null 2>&1; then
  # Fallback without python3: no Earleyx figures, in-process RSS counter only.
  jq -s '{context: .[0].context, benchmarks: (map(.benchmarks) | add)}' "${runs[@]}" >"$out"
  echo "| benchmark | iterations | time/iter (ms, wall) | CPU/iter (ms) | rules/s | peak RSS (MiB) | Earleyx |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
  jq -r '
    def ms($t): $t * ({"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1000}[.time_unit // "ns"])
                | . * 1000 | round / 1000;
    (any(.benchmarks[]; .run_type == "aggregate")) as $agg
    | .benchmarks[]
    | select(if $agg then .aggregate_name == "median" or .error_occurred
             else .run_type != "aggregate" end)
    | ((.run_name // .name) | sub("/real_time$"; "")) as $name
    | if .error_occurred then "| \($name) | skipped: \(.error_message) | | | | | |"
      else "| \($name) | \(.iterations) | \(ms(.real_time)) | \(ms(.cpu_time)) | \(
             if ."rules/s" then (."rules/s" | round) else "" end) | \(
             if .peak_rss_MiB then (.peak_rss_MiB * 10 | round / 10) else "" end) | |" end' "$out"
  echo
  echo "JSON: $out"
else
  echo "bench.sh: need python3 or jq to print the table; raw results: ${runs[*]}" >&2
  cp "${runs[0]}" "$out"
  exit 1
fi
