#!/usr/bin/env bash
# Strong and weak scaling of `gwb induce` (VB) under mpirun over the synthetic social-cue corpora
# of `gwb experiment synthesize` (docs/scale-out.md, "Scale: measured here, and projected").
#
#   scripts/bench-scaling.sh [--gwb PATH] [--mpirun PATH] [--ranks "1 2 4"] [--strong N]
#                            [--weak N] [--iterations I] [--threads T] [--chunk-tokens C]
#                            [--work DIR] [--mpirun-options "..."]
#
#   --gwb PATH         the gwb to measure (default: build/app/cli/gwb at the repo root)
#   --mpirun PATH      OpenMPI's launcher (default: mpirun); every rank count above 1 runs under
#                      it with --oversubscribe (more ranks than cores is allowed)
#   --ranks LIST       rank counts (default "1 2 4"); 1 is the plain process, no mpirun
#   --strong N         strong scaling: one corpus of N utterances on every rank count (16000)
#   --weak N           weak scaling: N utterances per rank, N x ranks in all (4000); 0: none
#   --iterations I     iterations measured (default 2; see below)
#   --threads T        threads per rank (default 1)
#   --chunk-tokens C   the E-step's unit (default 1024, gwb's)
#   --work DIR         where corpora, grammar and runs go (default: a temporary folder, removed)
#   --mpirun-options   more options for mpirun (a host file, --bind-to none, ...)
#
# The corpus is `gwb experiment synthesize -n MAX --per-recording 200 --seed 1` (MAX the largest
# size needed); smaller corpora are its first lines. The grammar is the unigram social grammar
# of the whole corpus (`gwb grammar generate unigram`, the sparse Word prior 0.001); training is
# `gwb induce -m vb --init uniform --seed 1`.
#
# Per-iteration figures are differences: every cell runs twice, 1 and 1+I iterations, and the
# table gives (run 2 − run 1) / I, so start-up (reading, building the grammar, MPI start) and the
# first compile cancel out:
#   wall s/it   the job's elapsed time (of mpirun, or the process)
#   CPU s/it    user + system time summed over all ranks
#   bytes/it    what rank 0 sent and received (gwb's own count of MPI payload bytes)
#   peak RSS    the largest and smallest maximum resident set of one rank (run 2), MB
#   same        the learned grammar is byte-identical to that of the 1-rank run on the same
#               corpus (for rank counts that have one)
# Wall times are only meaningful on an idle machine: the load average at the start and the end
# is printed with the table. Nothing here is a CI test (tests/mpi/bench_scaling_smoke.sh runs it
# on a tiny corpus so that it keeps working).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gwb="$root/build/app/cli/gwb"
mpirun=mpirun
ranks_list="1 2 4"
strong=16000
weak=4000
iterations=2
threads=1
chunk=1024
work=""
mpirun_options=""
while [ $# -gt 0 ]; do
  case "$1" in
    --gwb) gwb="$2"; shift ;;
    --mpirun) mpirun="$2"; shift ;;
    --ranks) ranks_list="$2"; shift ;;
    --strong) strong="$2"; shift ;;
    --weak) weak="$2"; shift ;;
    --iterations) iterations="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --chunk-tokens) chunk="$2"; shift ;;
    --work) work="$2"; shift ;;
    --mpirun-options) mpirun_options="$2"; shift ;;
    -h|--help) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-scaling.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$gwb" ] || { echo "bench-scaling.sh: no gwb at $gwb (--gwb PATH)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-scaling.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ "$iterations" -ge 1 ] || { echo "bench-scaling.sh: --iterations must be at least 1" >&2; exit 2; }
gwb=$(realpath "$gwb")
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(realpath "$work")

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
max=$strong
for n in $ranks_list; do
  [ "$weak" -gt 0 ] && [ $((weak * n)) -gt "$max" ] && max=$((weak * n))
done
"$gwb" experiment synthesize -n "$max" --per-recording 200 --seed 1 --out "$work/corpus" > /dev/null
"$gwb" grammar generate unigram --corpus "$work/corpus.yld" --out "$work/unigram.grammar" \
  > /dev/null 2> "$work/generate.err" || { cat "$work/generate.err" >&2; exit 1; }
rules=$(grep -c . "$work/unigram.grammar" || true)

# corpus N: the first N utterances (cached).
corpus() {
  local file="$work/u$1.yld"
  [ -e "$file" ] || head -n "$1" "$work/corpus.yld" > "$file"
  echo "$file"
}

# run N ITERATIONS CORPUS OUT: one job; leaves OUT.time.R (elapsed user system maxrss-KB per
# rank), OUT.wall (the job's elapsed seconds) and OUT.err.
run() {
  local n=$1 its=$2 input=$3 out=$4
  local args=(induce -g "$work/unigram.grammar" -i "$input" -m vb --init uniform --seed 1
              -n "$its" -t "$threads" --chunk-tokens "$chunk" -o "$out")
  local start end
  start=$(date +%s.%N)
  if [ "$n" -eq 1 ]; then
    /usr/bin/time -f "%e %U %S %M" -o "$out.time.0" "$gwb" "${args[@]}" > "$out.txt" 2> "$out.err"
  else
    # shellcheck disable=SC2086
    "$mpirun" --oversubscribe $mpirun_options -np "$n" \
      bash -c 'exec /usr/bin/time -f "%e %U %S %M" -o "$0.time.${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}" "$@"' \
      "$out" "$gwb" "${args[@]}" > "$out.txt" 2> "$out.err"
  fi
  end=$(date +%s.%N)
  echo "$start $end" | awk '{ printf "%.3f\n", $2 - $1 }' > "$out.wall"
}

# Sums of a run's per-rank figures: CPU seconds, max and min RSS in MB.
cpu_of() { cat "$1".time.* | awk '{ s += $2 + $3 } END { printf "%.3f", s }'; }
rss_of() { cat "$1".time.* | awk 'NR == 1 || $4 > hi { hi = $4 } NR == 1 || $4 < lo { lo = $4 }
                                  END { printf "%.0f/%.0f", hi / 1024, lo / 1024 }'; }
bytes_of() { sed -n 's/.*rank 0 sent and received \([0-9]*\) bytes.*/\1/p' "$1.err" | tail -n 1; }

printf '| run | ranks | utterances | tokens | wall s/it | CPU s/it (all ranks) | bytes/it at rank 0 | peak RSS/rank MB (max/min) | same |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
measure() {
  local kind=$1 n=$2 size=$3
  local input tokens base=$work/$kind-np$n-u$size
  input=$(corpus "$size")
  tokens=$(wc -w < "$input")
  run "$n" 1 "$input" "$base-a" || { echo "bench-scaling.sh: $kind on $n rank(s) failed: $(tail -n 3 "$base-a.err")" >&2; exit 1; }
  run "$n" $((1 + iterations)) "$input" "$base-b" || { echo "bench-scaling.sh: $kind on $n rank(s) failed: $(tail -n 3 "$base-b.err")" >&2; exit 1; }
  local wall cpu bytes same="-"
  wall=$(paste "$base-a.wall" "$base-b.wall" | awk -v i="$iterations" '{ printf "%.3f", ($2 - $1) / i }')
  cpu=$(printf '%s %s\n' "$(cpu_of "$base-a")" "$(cpu_of "$base-b")" | awk -v i="$iterations" '{ printf "%.3f", ($2 - $1) / i }')
  if [ "$n" -eq 1 ]; then
    bytes=0
  else
    bytes=$(printf '%s %s\n' "$(bytes_of "$base-a")" "$(bytes_of "$base-b")" | awk -v i="$iterations" '{ printf "%.0f", ($2 - $1) / i }')
  fi
  local one=$work/$kind-np1-u$size-b.iogrammar
  [ "$kind" = weak ] && one=$work/strong-np1-u$size-b.iogrammar
  if [ "$n" -gt 1 ] && [ -e "$one" ]; then
    if cmp -s "$one" "$base-b.iogrammar"; then same=yes; else same=NO; fi
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$kind" "$n" "$size" "$tokens" "$wall" \
    "$cpu" "$bytes" "$(rss_of "$base-b")" "$same"
}
for n in $ranks_list; do measure strong "$n" "$strong"; done
if [ "$weak" -gt 0 ]; then
  for n in $ranks_list; do measure weak "$n" $((weak * n)); done
fi
printf '\n%s rules; %s iteration(s) measured (runs of 1 and %s); %s thread(s) a rank; --chunk-tokens %s\n' \
  "$rules" "$iterations" $((1 + iterations)) "$threads" "$chunk"
printf 'load average (1, 5, 15 min) at the start: %s; at the end: %s; %s core(s)\n' \
  "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"
