#!/usr/bin/env bash
# Reproduces Tables 2-5 of Luong, Frank & Johnson (2013) with `gwb experiment social` and prints
# a Markdown table of ours (mean ± sd over the seeds) beside the paper's figures.
#
#   scripts/reproduce-tables.sh RESULTS_DIR [--tables 2,3,4,5] [--seeds N] [--cue-seeds N]
#                               [--threads T] [--gwb PATH] [--report-only] [-- EXTRA GWB OPTIONS]
#
#   RESULTS_DIR     where every row's runs go (outside the repository): RESULTS_DIR/<row>/ holds
#                   metrics.tsv (one line per seed, then mean and sd), cells/ (the finished
#                   seeds), and per seed under runs/ the learned grammar, decoded corpus, topics,
#                   curve and, for discourse models, transitions.csv; RESULTS_DIR/sweep.tsv all
#                   rows, time.txt (wall, user and system seconds, peak RSS) and log.txt
#   --tables LIST   which tables (default 2,3): 2 all cues, 3 no cues, 4 ablation (drop one cue),
#                   5 add-one (one cue only)
#   --seeds N       seeds 1..N for Tables 2 and 3 (default 5)
#   --cue-seeds N   seeds 1..N for Tables 4 and 5 (default 1)
#   --threads T     strings parsed at once (default 2; the results do not depend on it)
#   --ranks N       run the sweep's cells on N MPI ranks (mpirun -np N; default 1, no MPI)
#   --mpirun-options "OPTS"  extra mpirun options, e.g. "--hostfile hosts" or "--oversubscribe"
#   --only REGEX    run (and report) only the rows whose name matches, e.g. 't4-vb|kid.eyes'
#   --gwb PATH      the CLI (default $GWB_BUILD_DIR/app/cli/gwb, GWB_BUILD_DIR default build-repro)
#   --report-only   run nothing, print the table of what RESULTS_DIR holds
#   -- OPTIONS      passed to every `gwb experiment social` (e.g. -- --iterations 20)
#
# Every row's seeds are cells of one `gwb experiment sweep` (RESULTS_DIR/grid.txt); a finished
# cell is not run again, so an interrupted run resumes. The table
# (also written to RESULTS_DIR/tables.md) is made by scripts/reproduce_tables.py (python3, stdlib).
# Environment: GWB_SHARED_DIR (default ../shared beside the repository), GWB_BUILD_DIR.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GWB_SHARED_DIR="${GWB_SHARED_DIR:-$(cd "$root/.." && pwd)/shared}"
build_dir="${GWB_BUILD_DIR:-$root/build-repro}"
gwb="$build_dir/app/cli/gwb"
tables="2,3"
seeds=5
cue_seeds=1
threads=2
report_only=0
ranks=1
mpirun_options=()
only="."
extra=()

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

if [ $# -lt 1 ]; then
  usage >&2
  exit 2
fi
case "$1" in -h | --help) usage; exit 0 ;; esac
results="$1"
shift
while [ $# -gt 0 ]; do
  case "$1" in
    --tables) tables="$2"; shift ;;
    --seeds) seeds="$2"; shift ;;
    --cue-seeds) cue_seeds="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --ranks) ranks="$2"; shift ;;
    --mpirun-options) read -r -a mpirun_options <<<"$2"; shift ;;
    --only) only="$2"; shift ;;
    --gwb) gwb="$2"; shift ;;
    --report-only) report_only=1 ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) usage; exit 0 ;;
    *) echo "reproduce-tables.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

case "$(cd "$(dirname "$results")" 2>/dev/null && pwd)/" in
  "$root"/*) echo "reproduce-tables.sh: put RESULTS_DIR outside the repository" >&2; exit 2 ;;
esac
mkdir -p "$results"
results="$(cd "$results" && pwd)"

if [ "$report_only" -eq 0 ]; then
  if [ ! -x "$gwb" ]; then
    echo "reproduce-tables.sh: no gwb at $gwb (build the gwb target or pass --gwb)" >&2
    exit 1
  fi
  if [ ! -f "$GWB_SHARED_DIR/data/earleyx/data/socialall.ortho.yld" ]; then
    echo "reproduce-tables.sh: no corpus under GWB_SHARED_DIR=$GWB_SHARED_DIR" >&2
    exit 1
  fi
fi

cues=(kid.eyes kid.hands mom.eyes mom.hands mom.point)
rows=()  # "name model cues seeds"
for table in ${tables//,/ }; do
  case "$table" in
    3) for model in em vb discourse; do rows+=("t3-$model-none $model none $seeds"); done ;;
    2) for model in vb discourse discourse+init; do
         rows+=("t2-${model/+/-}-all $model all $seeds")
       done ;;
    4) for model in vb discourse+init; do
         for cue in "${cues[@]}"; do rows+=("t4-${model/+/-}-drop-$cue $model drop:$cue $cue_seeds"); done
       done ;;
    5) for model in vb discourse; do
         for cue in "${cues[@]}"; do rows+=("t5-$model-only-$cue $model only:$cue $cue_seeds"); done
       done ;;
    *) echo "reproduce-tables.sh: no table $table (2, 3, 4 or 5)" >&2; exit 2 ;;
  esac
done
selected=()
for row in "${rows[@]}"; do
  if [[ "${row%% *}" =~ $only ]]; then selected+=("$row"); fi
done
if [ ${#selected[@]} -eq 0 ]; then
  echo "reproduce-tables.sh: no row matches --only '$only'" >&2
  exit 2
fi
rows=("${selected[@]}")

if [ "$report_only" -eq 0 ]; then
  # One sweep (gwb experiment sweep) over every row: a work queue of its cells, over MPI ranks
  # with --ranks N; a cell finished before (RESULTS_DIR/<row>/cells/) is not run again.
  grid="$results/grid.txt"
  {
    echo "# written by scripts/reproduce-tables.sh: one row per line, NAME MODEL CUES SEEDS"
    for row in "${rows[@]}"; do
      read -r name model cue_selection n <<<"$row"
      echo "row $name $model $cue_selection 1-$n"
    done
  } >"$grid"
  launcher=()
  if [ "$ranks" -gt 1 ]; then launcher=(mpirun -np "$ranks" ${mpirun_options[@]+"${mpirun_options[@]}"}); fi
  echo "== gwb experiment sweep --grid $grid (${#rows[@]} rows, $ranks rank(s))" >&2
  # /usr/bin/time gives CPU time too; the machine may be shared, so wall time alone misleads.
  timer=()
  if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -f '%e %U %S %M' -o "$results/time.txt"); fi
  ${timer[@]+"${timer[@]}"} ${launcher[@]+"${launcher[@]}"} "$gwb" experiment sweep --grid "$grid" \
    --out "$results" --threads "$threads" ${extra[@]+"${extra[@]}"} \
    >"$results/sweep.stdout" 2>"$results/log.txt"
  [ -f "$results/time.txt" ] && echo "   $(cat "$results/time.txt") (wall s, user s, system s, peak KiB)" >&2
fi

names=()
for row in "${rows[@]}"; do names+=("${row%% *}"); done
python3 "$root/scripts/reproduce_tables.py" "$results" "${names[@]}" | tee "$results/tables.md"
