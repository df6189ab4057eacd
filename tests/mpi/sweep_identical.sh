#!/usr/bin/env bash
# `gwb experiment sweep`: a grid of 8 small cells (2 models x 2 cue selections x 2 seeds) run as
# a work queue on 3 ranks, and in one process, gives the table of running each group one by one
# with `gwb experiment social --seeds 2` (wall times aside), the same learned grammars, and
# resumes: cells whose files are there are not run again, and the table is the same.
# Usage: sweep_identical.sh GWB MPIRUN TEST_DATA_DIR WORK_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
gwb=$(realpath "$1") mpirun=$2 data=$(realpath "$3")
work=$(realpath "$4")/mpi-sweep
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$here/mpi_common.sh"
without_seconds() { cut -f1-17,19- "$1"; }

grounded=$data/grounded
common=(--corpus "$grounded/tiny.yld" --gold "$grounded/tiny.gold.yld"
        --recordings "$grounded/tiny.recordings.tsv" -n 2 -q --chunk-tokens 1)
cat > grid.txt <<'GRID'
# 8 cells: 2 models x 2 cue selections x 2 seeds
models vb discourse
cues all none
seeds 1-2
GRID
# One by one.
head -n 1 /dev/null > one-by-one.tsv
first=1
for model in vb discourse; do
  for cues in all none; do
    "$gwb" experiment social "${common[@]}" --model $model --cues $cues --seeds 2 \
      --out single/$model-$cues > single-$model-$cues.tsv 2> /dev/null || fail "social $model $cues failed"
    if [ $first -eq 1 ]; then cat single-$model-$cues.tsv; else tail -n +2 single-$model-$cues.tsv; fi >> one-by-one.tsv
    first=0
  done
done
[ "$(wc -l < one-by-one.tsv)" -eq 17 ] || fail "one by one: expected 17 lines, got $(wc -l < one-by-one.tsv)"

"$gwb" experiment sweep --grid grid.txt --out sweep-one "${common[@]}" > sweep-one.txt 2> /dev/null ||
  fail "the one-process sweep failed"
ranks 3 "$gwb" experiment sweep --grid grid.txt --out sweep-np3 "${common[@]}" -t 2 > sweep-np3.txt 2> np3.err ||
  fail "the sweep on 3 ranks failed: $(head -c 400 np3.err)"
for run in sweep-one sweep-np3; do
  cmp -s <(without_seconds one-by-one.tsv) <(without_seconds $run.txt) || fail "$run: stdout differs from one by one"
  cmp -s <(without_seconds one-by-one.tsv) <(without_seconds $run/sweep.tsv) || fail "$run: sweep.tsv differs"
  for group in vb-all vb-none discourse-all discourse-none; do
    cmp -s <(without_seconds single-$group.tsv) <(without_seconds $run/$group/metrics.tsv) ||
      fail "$run: $group/metrics.tsv differs"
    for seed in 1 2; do
      same single/$group/alpha0.001-seed$seed/learned.iogrammar \
           $run/$group/runs/alpha0.001-seed$seed/learned.iogrammar "$run $group seed $seed"
    done
  done
done

# Resume: three cells lost (as if killed before they finished) run again on 2 ranks; the other
# five are not (their files keep their times), and the table is the same.
rm sweep-np3/vb-none/cells/alpha0.001-seed2.row sweep-np3/discourse-all/cells/*.row
touch -d '2001-01-01' sweep-np3/vb-all/cells/alpha0.001-seed1.row
ranks 2 "$gwb" experiment sweep --grid grid.txt --out sweep-np3 "${common[@]}" > resumed.txt 2> resumed.err ||
  fail "the resumed sweep failed: $(head -c 400 resumed.err)"
grep -q "8 cell(s), 5 finished before, 3 to run on 2 rank(s)" resumed.err ||
  fail "the resumed sweep did not skip the finished cells: $(head -c 400 resumed.err)"
[ "$(stat -c %Y sweep-np3/vb-all/cells/alpha0.001-seed1.row)" = "$(date -d 2001-01-01 +%s)" ] ||
  fail "a finished cell was run again"
cmp -s <(without_seconds one-by-one.tsv) <(without_seconds resumed.txt) || fail "the resumed table differs"

# A worker that fails (out of memory in its cell) stops the whole job with its message, while
# rank 0 waits for results: no hang, no table.
aborting_ranks 3 "$gwb" experiment sweep --grid grid.txt --out failing "${common[@]}" --max-memory 1K \
  > failing.txt 2> failing.err
status=$?
[ "$status" -ne 0 ] || fail "a failing worker: exit status 0"
[ "$status" -ne 124 ] && [ "$status" -ne 137 ] || fail "a failing worker: the job hung"
grep -q "out of memory" failing.err || fail "the failing worker's message is missing: $(head -c 600 failing.err)"
[ -e failing/sweep.tsv ] && fail "a failed sweep wrote its table"

# A bad grid is an error naming the file and line.
printf 'models vb\nseeds 1-x\n' > bad-grid.txt
"$gwb" experiment sweep --grid bad-grid.txt --out bad "${common[@]}" > /dev/null 2> bad.err &&
  fail "a bad grid was accepted"
grep -q "bad-grid.txt:2: expected seeds as numbers or ranges like 1-5, not '1-x'" bad.err ||
  fail "the bad grid's message: $(cat bad.err)"
finish
