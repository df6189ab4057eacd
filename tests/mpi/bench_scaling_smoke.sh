#!/usr/bin/env bash
# scripts/bench-scaling.sh on a tiny synthetic corpus (1 and 2 ranks, one measured iteration), so
# that the scaling driver keeps working: a table of four rows (strong and weak on 1 and 2 ranks)
# with every figure present, bytes at rank 0 only with 2 ranks, and the 2-rank grammar identical
# to the 1-rank one.
# Usage: bench_scaling_smoke.sh GWB MPIRUN SCRIPTS_DIR WORK_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
gwb=$(realpath "$1") mpirun=$2 scripts=$(realpath "$3")
work=$(realpath "$4")/mpi-bench-scaling
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$here/mpi_common.sh"
export OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo \
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout -k 10 120 bash "$scripts/bench-scaling.sh" --gwb "$gwb" --mpirun "$mpirun" \
  --mpirun-options "--bind-to none" --ranks "1 2" --strong 200 --weak 100 --iterations 1 \
  --chunk-tokens 100 --work "$work/runs" > table.md 2> table.err ||
  fail "bench-scaling.sh failed (exit $?): $(head -c 600 table.err)"
cat table.md
rows=$(grep -cE '^\| (strong|weak) ' table.md)
[ "$rows" -eq 4 ] || fail "expected 4 rows, got $rows"
# | run | ranks | utterances | tokens | wall | CPU | bytes | RSS | same |
awk -F' *\\| *' '/^\| (strong|weak) / {
  # times are differences of two runs: on a loaded machine they may come out negative
  for (i = 3; i <= 8; ++i) if ($i !~ /^-?[0-9.]+$/) { print "FAIL: row " NR ": column " i - 1 " is \"" $i "\""; bad = 1 }
  if ($9 !~ /^[0-9]+\/[0-9]+$/) { print "FAIL: row " NR ": RSS is \"" $9 "\""; bad = 1 }
  if ($3 == 1 && $8 != 0) { print "FAIL: row " NR ": bytes on one rank"; bad = 1 }
  if ($3 == 2 && !($8 > 0)) { print "FAIL: row " NR ": no bytes on two ranks"; bad = 1 }
  if ($3 == 2 && $2 == "strong" && $10 != "yes") { print "FAIL: row " NR ": the 2-rank grammar differs"; bad = 1 }
} END { exit bad }' table.md || failures=$((failures + 1))
grep -q '^load average' table.md || fail "no load average under the table"
finish
