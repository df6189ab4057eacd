#!/usr/bin/env bash
# Running out of memory is an error with a message, status 1 and no output files — never
# "terminate called ... std::bad_alloc" and status 134.
#  1. a chart over --max-memory stops with a message naming the line and the budget (parse and
#     induce);
#  2. a real allocation failure, in a child whose address space is capped with prlimit (never
#     the machine's memory), is caught the same way;
#  3. a malformed --max-memory is a usage error.
# Usage: out_of_memory.sh GWB WORK_DIR
set -u
gwb=$(realpath "$1") work=$(realpath "$2")/out-of-memory
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect STATUS REGEX -- command...: checks the exit status and that stderr matches.
expect() {
  local want=$1 regex=$2; shift 3
  "$@" > stdout.txt 2> stderr.txt
  local status=$?
  [ "$status" -eq "$want" ] || fail "$*: exit $status, expected $want; stderr: $(head -c 400 stderr.txt)"
  [ -z "$regex" ] || grep -Eq -- "$regex" stderr.txt || fail "$*: stderr does not match '$regex': $(head -c 400 stderr.txt)"
  grep -q 'terminate called' stderr.txt && fail "$*: aborted"
}
no_outputs() { [ -z "$(ls | grep -E "^$1")" ] || fail "output left behind: $(ls | grep -E "^$1" | tr '\n' ' ')"; }

# S -> S S | a over 300 words: Θ(n²) chart items, several MiB.
printf "S -> S S [0.4] | 'a' [0.6]\n" > binary.cfg
for i in $(seq 300); do printf 'a '; done > long.txt
echo >> long.txt

# 1. Over the budget.
expect 1 "^gwb: out of memory while parsing line 1 of long.txt, a sentence of 300 words: the Earley chart would need [0-9.]+ [KM]iB, over the memory budget of 1 MiB; raise the budget with --max-memory" -- \
  "$gwb" parse -g binary.cfg -i long.txt -q --surprisal -o parsed --max-memory 1M -t 2
no_outputs parsed
expect 1 "^gwb: out of memory while training on 1 sentence\(s\) of long.txt with 2 rules: the Earley chart would need .* over the memory budget of 1 MiB" -- \
  "$gwb" induce -g binary.cfg -i long.txt -m em -n 2 -q -o induced --max-memory 1M
no_outputs induced
# Within a larger budget the same parse succeeds (the budget, not the input, made it fail).
expect 0 "" -- "$gwb" parse -g binary.cfg -i long.txt -q --surprisal -o parsed --max-memory 1G
[ -e parsed.manifest ] || fail "the parse within budget wrote no manifest"
rm -f parsed.*

# 2. A real allocation failure: a 3-million-word line in a 256 MiB address space, no budget.
yes a | head -n 3000000 | tr '\n' ' ' > huge.txt
echo >> huge.txt
expect 1 "^gwb: out of memory while parsing line 1 of huge.txt" -- \
  prlimit --as=$((256 << 20)) "$gwb" parse -g binary.cfg -i huge.txt -q --surprisal -o huge-out --max-memory 0
no_outputs huge-out

# 3. A malformed size.
expect 2 "expected a size such as 512M" -- "$gwb" parse -g binary.cfg -i long.txt --max-memory 12Q

[ "$failures" -eq 0 ] && echo "out of memory: all checks passed"
[ "$failures" -eq 0 ]
