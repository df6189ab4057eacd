#!/usr/bin/env bash
# `gwb experiment social --resume`: a run killed (SIGKILL, right after its K-th checkpoint file:
# in the sentence stage, just after discourse+init's sentence stage ended, in the discourse
# stage, in the second seed's run) and resumed gives byte for byte the files and table of the
# uninterrupted run (wall times aside); finished runs are not run again; the checkpoints of
# another run (other seed, other cues, other model) are refused with a message naming both runs.
# Usage: social_resume.sh GWB TEST_DATA_DIR WORK_DIR
set -u
gwb=$(realpath "$1") data=$(realpath "$2")
work=$(realpath "$3")/social-resume
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A TSV or CSV without the column named seconds.
without_seconds() {
  awk -F'[,\t]' 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "seconds") skip = i }
                 { line = ""; for (i = 1; i <= NF; ++i) if (i != skip) line = line $i "|"; print line }' "$1"
}
# same_run A B WHAT: every output of two experiment folders identical (wall times aside).
same_run() {
  for seed in 1 2; do
    local a=$1/alpha0.001-seed$seed b=$2/alpha0.001-seed$seed
    for f in learned.iogrammar decoded.yld topics.txt transitions.csv run.txt; do
      cmp -s "$a/$f" "$b/$f" || fail "$3: seed $seed: $f differs"
    done
    for f in metrics.tsv curve.csv; do
      cmp -s <(without_seconds "$a/$f") <(without_seconds "$b/$f") || fail "$3: seed $seed: $f differs"
    done
    [ -e "$b/checkpoint" ] || [ -e "$b/sentence-stage.checkpoint" ] &&
      fail "$3: seed $seed: a finished run kept its checkpoints"
  done
}

grounded=$data/grounded
social=(--model discourse+init --corpus "$grounded/tiny.yld" --gold "$grounded/tiny.gold.yld"
        --recordings "$grounded/tiny.recordings.tsv" -n 3 --seeds 2 --chunk-tokens 1)
"$gwb" experiment social "${social[@]}" --out whole > whole.txt 2> whole.err ||
  fail "the uninterrupted run failed: $(head -c 400 whole.err)"

# Per seed: checkpoints after sentence-stage iterations 1 and 2 (files 1, 2), the sentence
# stage's final state (3), discourse-stage iterations 1 and 2 (4, 5); the second seed 6..10.
for k in 1 3 4 7; do
  run=killed-$k
  GWB_TEST_KILL_AFTER_CHECKPOINT=$k "$gwb" experiment social "${social[@]}" --out $run \
    > $run.txt 2> $run.err
  status=$?
  [ "$status" -eq 137 ] || fail "$run: the killed run exited $status"
  "$gwb" experiment social "${social[@]}" --out $run --resume > $run.resumed.txt 2> $run.resumed.err ||
    fail "$run: the resumed run failed: $(head -c 400 $run.resumed.err)"
  cmp -s <(without_seconds whole.txt) <(without_seconds $run.resumed.txt) ||
    fail "$run: the resumed table differs"
  same_run whole $run "$run"
done
grep -q "resuming after iteration 1 of the sentence stage" killed-1.resumed.err ||
  fail "killed-1: did not resume in the sentence stage: $(head -c 400 killed-1.resumed.err)"
grep -q "the sentence stage finished before" killed-3.resumed.err ||
  fail "killed-3: ran the finished sentence stage again"
grep -q "resuming after iteration 1 of the discourse stage" killed-4.resumed.err ||
  fail "killed-4: did not resume in the discourse stage"
grep -q "finished before" killed-7.resumed.err || fail "killed-7: ran the finished seed again"
grep -q "resuming after iteration 2 of the sentence stage" killed-7.resumed.err ||
  fail "killed-7: the second seed did not resume"

# Resuming a finished experiment runs nothing and prints the same table.
"$gwb" experiment social "${social[@]}" --out whole --resume > again.txt 2> again.err ||
  fail "resuming a finished run failed: $(head -c 400 again.err)"
cmp -s whole.txt again.txt || fail "the finished experiment's table read back differs"

# The checkpoints of another run are refused, naming both runs.
one=(--corpus "$grounded/tiny.yld" --gold "$grounded/tiny.gold.yld"
     --recordings "$grounded/tiny.recordings.tsv" -n 3 --chunk-tokens 1 -q)
GWB_TEST_KILL_AFTER_CHECKPOINT=1 "$gwb" experiment social "${one[@]}" --model vb --seed 4 \
  --out other > /dev/null 2>&1
[ -e other/checkpoint ] || fail "no checkpoint to refuse"
for change in "--model vb --seed 5" "--model vb --seed 4 --cues drop:kid.eyes" \
              "--model discourse --seed 4" "--model vb --seed 4 --alpha 0.01"; do
  # shellcheck disable=SC2086
  "$gwb" experiment social "${one[@]}" $change --out other --resume > refused.txt 2> refused.err &&
    fail "$change: another run's checkpoint was accepted"
  grep -q "is the checkpoint of another run" refused.err ||
    fail "$change: no message for another run's checkpoint: $(head -c 400 refused.err)"
done
"$gwb" experiment social "${one[@]}" --model vb --seed 4 --resume > /dev/null 2> no-out.err &&
  fail "--resume without --out was accepted"
grep -q -- "--resume needs --out" no-out.err || fail "no message for --resume without --out"

if [ "$failures" -eq 0 ]; then echo "social resume: all checks passed"; exit 0; fi
echo "$failures check(s) failed"; exit 1
