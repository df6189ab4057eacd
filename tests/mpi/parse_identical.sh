#!/usr/bin/env bash
# `mpirun -np N gwb parse`: on 2 and 3 ranks (and 2 threads a rank) every output — the summary on
# stdout, the messages on stderr, the Earleyx files, the Viterbi and k-best trees — is byte for
# byte that of one process; a rank that runs out of memory stops the whole job with its message.
# Usage: parse_identical.sh GWB MPIRUN SAMPLES_DIR TEST_DATA_DIR WORK_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
gwb=$(realpath "$1") mpirun=$2 samples=$(realpath "$3") data=$(realpath "$4")
work=$(realpath "$5")/mpi-parse
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$here/mpi_common.sh"

# 28 lines of varied length, four of which do not parse.
for i in 1 2 3 4; do cat "$samples/pp-attachment.txt" "$data/pp-with-bad-line.txt"; done > input.txt
measures=(-g "$samples/pp-attachment.cfg" -i input.txt -q --surprisal --prefix --stringprob --viterbi --kbest 3)
mkdir one && (cd one && "$gwb" parse "${measures[@]/input.txt/../input.txt}" -o out > stdout.txt 2> stderr.txt) ||
  fail "the one-process parse failed"
for n in 2 3; do
  for threads in 1 2; do
    dir=np$n-t$threads
    mkdir "$dir"
    (cd "$dir" && ranks "$n" "$gwb" parse "${measures[@]/input.txt/../input.txt}" -t "$threads" -o out \
      > stdout.txt 2> stderr.txt) || fail "$dir: exit status $?: $(head -c 400 "$dir/stderr.txt")"
    for f in stdout.txt stderr.txt out.surprisal out.prefix out.stringprob out.viterbi out.kbest out.manifest; do
      same "one/$f" "$dir/$f" "$dir"
    done
  done
done
# TSV output to stdout (no --out) as well.
"$gwb" parse "${measures[@]}" > one.tsv 2> /dev/null
ranks 3 "$gwb" parse "${measures[@]}" > three.tsv 2> /dev/null || fail "np3 to stdout: exit $?"
same one.tsv three.tsv "TSV on stdout"

# The long last line needs more chart than --max-memory allows: only the rank that has it fails,
# and the whole job stops (no hang, no output files) with that rank's message.
printf "S -> S S [0.4] | 'a' [0.6]\n" > binary.cfg
(for i in $(seq 20); do echo "a a a"; done; for i in $(seq 300); do printf 'a '; done; echo) > mixed.txt
aborting_ranks 3 "$gwb" parse -g binary.cfg -i mixed.txt -q --surprisal -o failed --max-memory 1M \
  > stdout.txt 2> stderr.txt
status=$?
[ "$status" -ne 0 ] || fail "a rank out of memory: exit status 0"
[ "$status" -ne 124 ] && [ "$status" -ne 137 ] || fail "a rank out of memory: the job hung"
grep -q "out of memory while parsing line 21 of mixed.txt" stderr.txt ||
  fail "the failing rank's message is missing: $(head -c 600 stderr.txt)"
[ -z "$(ls | grep '^failed')" ] || fail "a failed job left output files"
finish
