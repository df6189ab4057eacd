#!/usr/bin/env bash
# `mpirun -np N gwb experiment social --resume`: discourse+init over two seeds, killed (SIGKILL on
# rank 0 right after its K-th checkpoint file: in the discourse stage of the first seed, and in
# the sentence stage of the second) on 2 ranks and resumed on 3, gives byte for byte the files
# and the table of the uninterrupted one-process run (wall times aside).
# Usage: social_resume.sh GWB MPIRUN TEST_DATA_DIR WORK_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
gwb=$(realpath "$1") mpirun=$2 data=$(realpath "$3")
work=$(realpath "$4")/mpi-social-resume
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$here/mpi_common.sh"
without_seconds() {
  awk -F'[,\t]' 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "seconds") skip = i }
                 { line = ""; for (i = 1; i <= NF; ++i) if (i != skip) line = line $i "|"; print line }' "$1"
}

grounded=$data/grounded
social=(--model discourse+init --corpus "$grounded/tiny.yld" --gold "$grounded/tiny.gold.yld"
        --recordings "$grounded/tiny.recordings.tsv" -n 3 --seeds 2 --chunk-tokens 1)
"$gwb" experiment social "${social[@]}" --out whole > whole.txt 2> whole.err ||
  fail "the one-process run failed: $(head -c 400 whole.err)"
# Five checkpoint files a seed: sentence stage after iterations 1 and 2, its final state,
# discourse stage after iterations 1 and 2.
for k in 4 7; do
  run=killed-$k
  GWB_TEST_KILL_AFTER_CHECKPOINT=$k ranks 2 "$gwb" experiment social "${social[@]}" -t 2 \
    --out $run > $run.txt 2> $run.err
  status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "$run: the killed job exited $status"
  [ -e $run/alpha0.001-seed2/manifest ] && fail "$run: the killed job finished"
  ranks 3 "$gwb" experiment social "${social[@]}" --out $run --resume > $run.resumed.txt \
    2> $run.resumed.err || fail "$run: the resumed job failed: $(head -c 400 $run.resumed.err)"
  grep -q "resuming after iteration" $run.resumed.err || fail "$run: did not resume"
  cmp -s <(without_seconds whole.txt) <(without_seconds $run.resumed.txt) ||
    fail "$run: the resumed table differs"
  for seed in 1 2; do
    for f in learned.iogrammar decoded.yld topics.txt transitions.csv run.txt; do
      same whole/alpha0.001-seed$seed/$f $run/alpha0.001-seed$seed/$f "$run seed $seed"
    done
    for f in metrics.tsv curve.csv; do
      cmp -s <(without_seconds whole/alpha0.001-seed$seed/$f) \
             <(without_seconds $run/alpha0.001-seed$seed/$f) || fail "$run: seed $seed: $f differs"
    done
  done
done
grep -q "resuming after iteration 1 of the discourse stage" killed-4.resumed.err ||
  fail "killed-4: not resumed in the discourse stage: $(head -c 400 killed-4.resumed.err)"
grep -q "finished before" killed-7.resumed.err || fail "killed-7: the finished seed ran again"
finish
