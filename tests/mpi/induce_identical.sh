#!/usr/bin/env bash
# `mpirun -np N gwb induce` and `gwb experiment social`: the E-step spread over 2 and 3 ranks
# (and 2 threads a rank) gives bitwise the one-process result — the learned grammars, every
# objective printed to 17 digits — and a run killed after its third checkpoint and resumed (on
# another number of ranks) ends exactly as the uninterrupted run.
# Usage: induce_identical.sh GWB MPIRUN SAMPLES_DIR TEST_DATA_DIR WORK_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
gwb=$(realpath "$1") mpirun=$2 samples=$(realpath "$3") data=$(realpath "$4")
work=$(realpath "$5")/mpi-induce
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$here/mpi_common.sh"
# The iteration lines without their wall times.
untimed() { sed -E 's/seconds=[^,]*//' "$1"; }
# A CSV or TSV without the column named seconds.
without_seconds() {
  awk -F'[,\t]' 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "seconds") skip = i }
                 { line = ""; for (i = 1; i <= NF; ++i) if (i != skip) line = line $i "|"; print line }' "$1"
}

# 15 copies of the PP-attachment sentences in chunks of 12 tokens: 15 chunks to spread.
for i in $(seq 15); do cat "$samples/pp-attachment.txt"; done > train.txt
for method in vb em-earleyx; do
  case $method in
    vb) args=(-m vb --init uniform --seed 7 --default-prior 0.5) ;;
    em-earleyx) args=(-m em --earleyx --init uniform --seed 3) ;;
  esac
  args+=(-g "$samples/pp-attachment.cfg" -i train.txt -n 6 -q --chunk-tokens 12)
  "$gwb" induce "${args[@]}" -o $method-one > $method-one.txt 2>&1 || fail "$method: one process failed"
  for n in 2 3; do
    run=$method-np$n
    ranks "$n" "$gwb" induce "${args[@]}" -t 2 -o $run > $run.txt 2>&1 ||
      fail "$run: exit status $?: $(head -c 400 $run.txt)"
    for f in iogrammar pcfg; do same $method-one.$f $run.$f "$run"; done
    cmp -s <(untimed $method-one.txt) <(untimed $run.txt) || fail "$run: the iteration lines differ"
    cmp -s <(without_seconds $method-one.curve.csv) <(without_seconds $run.curve.csv) ||
      fail "$run: the learning curves differ"
  done
  # Killed (SIGKILL) right after the third checkpoint on 2 ranks, resumed on 3.
  killed=$method-killed
  GWB_TEST_KILL_AFTER_CHECKPOINT=3 ranks 2 "$gwb" induce "${args[@]}" -o $killed > $killed.txt 2>&1
  status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "$killed: the killed run exited $status"
  [ -e $killed.manifest ] && fail "$killed: the killed run wrote its outputs"
  grep -q '^iteration 3$' $killed.checkpoint || fail "$killed: no checkpoint of iteration 3"
  ranks 3 "$gwb" induce "${args[@]}" -o $killed --resume > $killed.resumed.txt 2>&1 ||
    fail "$killed: the resumed run failed: $(head -c 400 $killed.resumed.txt)"
  grep -q "resuming after iteration 3" $killed.resumed.txt || fail "$killed: did not resume"
  for f in iogrammar pcfg; do same $method-one.$f $killed.$f "$killed resumed"; done
  cmp -s <(without_seconds $method-one.curve.csv) <(without_seconds $killed.curve.csv) ||
    fail "$killed: the resumed learning curve differs"
done
# A checkpoint of another run is refused, by name.
ranks 2 "$gwb" induce -g "$samples/pp-attachment.cfg" -i train.txt -m vb --seed 8 -n 2 -q \
  --chunk-tokens 12 -o vb-killed --resume > other.txt 2>&1 && fail "another run's checkpoint was accepted"
grep -q "is the checkpoint of another run" other.txt || fail "no message for another run's checkpoint: $(head -c 400 other.txt)"
# Every rank refuses it together: they end by themselves, no rank stops the job (an abort could
# kill rank 0 before its message is out).
grep -q "stopping all ranks" other.txt && fail "a refusal every rank met aborted the job: $(head -c 400 other.txt)"

# A rank out of memory in the E-step (only the last rank holds the 300-word line) stops the
# whole job with its message: no hang, no outputs.
printf "S -> S S [0.4] | 'a' [0.6]\n" > binary.cfg
(for i in $(seq 20); do echo "a a a"; done; for i in $(seq 300); do printf 'a '; done; echo) > mixed.txt
aborting_ranks 3 "$gwb" induce -g binary.cfg -i mixed.txt -m em -n 2 -q --chunk-tokens 3 --max-memory 1M \
  -o failed > failed.txt 2> failed.err
status=$?
[ "$status" -ne 0 ] || fail "induce, a rank out of memory: exit status 0"
[ "$status" -ne 124 ] && [ "$status" -ne 137 ] || fail "induce, a rank out of memory: the job hung"
grep -q "out of memory" failed.err || fail "induce: the failing rank's message is missing: $(head -c 600 failed.err)"
grep -q "stopping all ranks" failed.err || fail "induce: the job was not stopped by the failing rank"
[ -e failed.manifest ] && fail "induce: a failed job wrote its outputs"

# gwb experiment social: discourse+init (a sentence-level VB run, then the discourse grammar)
# over the tiny corpus, one string a chunk.
grounded=$data/grounded
social=(--model discourse+init --corpus "$grounded/tiny.yld" --gold "$grounded/tiny.gold.yld"
        --recordings "$grounded/tiny.recordings.tsv" -n 3 --seeds 2 -q --chunk-tokens 1)
"$gwb" experiment social "${social[@]}" --out social-one > social-one.txt 2> /dev/null ||
  fail "social: one process failed"
for n in 2 3; do
  run=social-np$n
  ranks "$n" "$gwb" experiment social "${social[@]}" -t 2 --out $run > $run.txt 2> $run.err ||
    fail "$run: exit status $?: $(head -c 400 $run.err)"
  cmp -s <(without_seconds social-one.txt) <(without_seconds $run.txt) || fail "$run: the table differs"
  for seed in 1 2; do
    for f in learned.iogrammar decoded.yld; do
      same social-one/alpha0.001-seed$seed/$f $run/alpha0.001-seed$seed/$f "$run"
    done
    cmp -s <(without_seconds social-one/alpha0.001-seed$seed/curve.csv) \
           <(without_seconds $run/alpha0.001-seed$seed/curve.csv) || fail "$run: seed $seed's curve differs"
  done
done
finish
