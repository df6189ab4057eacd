#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (one reader of the core each).
#
#   scripts/fuzz.sh TARGET|all SECONDS      e.g. scripts/fuzz.sh earleyx_grammar 600
#   scripts/fuzz.sh TARGET|all NUMBERruns   e.g. scripts/fuzz.sh ds_label 1000000runs
#   scripts/fuzz.sh list                    the targets
#   scripts/fuzz.sh build                   only configure and build build-fuzz/ (CI)
#   scripts/fuzz.sh long [N] [SLICE]        every target to N executions (default 10000000)
#
# `long` fuzzes the targets in rounds of SLICE seconds each (default 300), so that every target
# makes progress even when the run is stopped early; each round takes the targets with the fewest
# executions so far first, so that a campaign stopped mid-round goes on with those it reached
# least next time. Each target's corpus is kept between
# rounds (build-fuzz/long-corpus/TARGET/, or GWB_FUZZ_CORPUS) and its executions add up, also
# across invocations: a campaign can span several sittings. Each target's running totals
# (executions, seconds, rounds) are kept beside its corpus in long-corpus/TARGET.runs, updated
# after every round and when stopped; a target already at N is not fuzzed again (delete its
# .runs file, or the folder, to start over). After every round, and when stopped (Ctrl-C,
# kill), it prints a table: target, executions, seconds, result (running, done, or FOUND with
# the log). GWB_FUZZ_TARGETS="a b ..." limits `all` and `long` to those targets (e.g. the fast
# ones first). Run it at a low priority on a shared machine:
#   nice -n 19 bash scripts/fuzz.sh long 10000000
# With autogroup scheduling on (/proc/sys/kernel/sched_autogroup_enabled), nice only ranks the
# campaign within its own session. Start it in a session of its own and lower that session's
# autogroup instead, so that it only takes the CPU nothing else wants:
#   setsid bash -c 'echo 19 > /proc/$$/autogroup; exec nice -n 19 bash scripts/fuzz.sh long' &
# Do not pause it with kill -STOP: libFuzzer's timeout clock keeps running while the process is
# stopped, so the input being run is reported as a timeout that is none. Stop it with
# kill -INT (the executions so far are kept) and start it again later.
#
# Builds build-fuzz/ with Clang first if needed (GWB_BUILD_FUZZ: only the core and the fuzz
# targets); GWB_FUZZ_BUILD names another build folder with GWB_BUILD_FUZZ on (CI uses its
# ASan/UBSan stage's build-asan/, which holds the tests too). Seeds come from the repository
# (samples/, tests/data/, fuzz/regressions/TARGET/) and from the shared data ($GWB_SHARED_DIR/data,
# default ../shared/data), copied (large files cut to their first bytes) into a temporary folder
# at run time: shared data never enters the repository.
# New corpus inputs go to that folder too, removed at the end unless GWB_FUZZ_CORPUS names a
# folder to keep them in. A crash, leak, timeout or broken invariant is written to
# build-fuzz/findings/ and fails the run; once fixed, copy it into fuzz/regressions/TARGET/ so
# that CTest replays it in every build. Prints the executions per target. GWB_FUZZ_SEED fixes
# libFuzzer's random seed: with a number of runs as the budget, a run is then the same on any
# machine, however fast or loaded (CI uses that, with a GWB_FUZZ_TIMEOUT in seconds far above the
# default 10 s a slow input is reported after, so that no CI result hangs on the machine's speed).
# libFuzzer's timeout is wall-clock time: on a loaded machine, or at a low priority, a quick input
# can be starved past it. So a timeout is run again alone, limited to the timeout in CPU time: an
# input that then finishes is a timeout that is none (moved to findings/false-timeouts/, the run
# goes on); one that does not is a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build="${GWB_FUZZ_BUILD:-$root/build-fuzz}"
shared="${GWB_SHARED_DIR:-$(cd .. && pwd)/shared}/data"

# The targets are those fuzz/CMakeLists.txt builds (its GWB_FUZZ_TARGETS list), in its order.
# shellcheck disable=SC2207 # one name a line, no spaces
targets=($(sed -n '/^set(GWB_FUZZ_TARGETS/,/^)/p' fuzz/CMakeLists.txt | sed '1d;$d' | tr -d ' '))

usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
if [ "$1" = list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
# -O1 with line tables (fast to build, fast to run, readable stacks) and asserts on.
configureAndBuild() {
  if [ ! -f "$build/build.ninja" ]; then
    CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
      -DGWB_BUILD_FUZZ=ON -DGWB_BUILD_GUI=OFF -DGWB_BUILD_TESTS=OFF -DGWB_BUILD_BENCH=OFF \
      ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
  fi
  cmake --build "$build" --parallel "$(nproc)" --target "$@" >/dev/null
}
if [ "$1" = build ]; then configureAndBuild gwb_fuzz_all; exit 0; fi

if [ "$1" = long ]; then
  [ $# -le 3 ] || usage
  longRuns=${2:-10000000} slice=${3:-300}
  [[ "$longRuns" =~ ^[0-9]+$ && "$slice" =~ ^[0-9]+$ ]] || usage
  what=all budget=long
else
  [ $# -eq 2 ] || usage
  what=$1 budget=$2
  case "$budget" in
    *runs) budgetFlag="-runs=${budget%runs}" ;;
    *[!0-9]*|'') usage ;;
    *) budgetFlag="-max_total_time=$budget" ;;
  esac
fi
if [ "$what" = all ]; then
  # shellcheck disable=SC2206 # a space-separated list of target names
  run=(${GWB_FUZZ_TARGETS:-${targets[@]}})
else
  run=("$what")
fi
for t in "${run[@]}"; do
  [[ " ${targets[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t' (see: $0 list)" >&2; exit 2; }
done
configureAndBuild "${run[@]/#/fuzz_}"

# Inputs longer than this are not tried (GWB_FUZZ_MAX_LEN overrides it for every target). The DS
# type, label and formula readers recurse once per nesting level; their limit keeps deep nesting
# (a separate fix) from drowning other findings. The readers of 1,024 cost per byte read (every
# line, token, rule, term or action is parsed, allocated and checked under ASan, and libFuzzer
# books every counter it hits): at 4,096 they ran 300-1,500 executions per CPU-second, a few
# hundred per second on the shared machine, too few for ten million each; 1,024 bytes still hold
# 10-40 lines, several rules, terms or actions, so every path between lines (a grammar's checks,
# cue orders, macros, a corpus's items) stays reachable, and they run 3-4 times as fast.
maxLen() {
  if [ -n "${GWB_FUZZ_MAX_LEN:-}" ]; then echo "$GWB_FUZZ_MAX_LEN"; return; fi
  case "$1" in
    ds_record_type|ds_label|prior_override|ptb_tree) echo 512 ;;
    social_corpus|gold_annotation|semantic_corpus|earleyx_grammar|nltk_grammar|dylan_grammar|\
      dylan_learned_lexicon|ccg_term|ccg_lexicon|ccg_types|corpus_file) echo 1024 ;;
    *) echo 4096 ;;
  esac
}

# Copies seed files into $2 under a name that says where they came from, each split at line ends
# into pieces of at most the target's max_len bytes (a longer line is cut), its first
# GWB_FUZZ_SEED_PIECES pieces (default 4): a large file gives several seeds from its start, not
# only its first max_len bytes. Files that do not exist (no shared data) are skipped; an empty
# file is copied as it is.
copySeeds() {
  local into=$1; shift
  local limit pieces=${GWB_FUZZ_SEED_PIECES:-4} name
  limit=$(maxLen "$target")
  for f in "$@"; do
    [ -f "$f" ] || continue
    name=$(echo "${f#"$root"/}" | tr '/' '_')
    if [ -s "$f" ]; then
      head -c $((limit * pieces)) "$f" | split -C "$limit" -d -a 3 - "$into/$name."
    else
      : > "$into/$name"
    fi
  done
}

seedsFor() {
  local into=$1
  copySeeds "$into" "$root/fuzz/regressions/$target"/*
  case "$target" in
    earleyx_grammar) copySeeds "$into" "$root"/samples/*.grammar "$root"/tests/data/malformed/*.grammar \
                       "$root"/tests/data/grounded/*.grammar "$shared"/earleyx/grammars/* ;;
    nltk_grammar) copySeeds "$into" "$root"/samples/*.cfg "$root"/tests/data/malformed/*.cfg ;;
    social_corpus) copySeeds "$into" "$root"/tests/data/grounded/tiny.yld "$shared"/earleyx/data/*.yld \
                     "$shared"/earleyx/data/*.concat "$shared"/social-cues/recordings/A1*.concat ;;
    gold_annotation) copySeeds "$into" "$root"/tests/data/grounded/tiny.gold.yld \
                       "$shared"/earleyx/data/gold.topic.ortho.yld ;;
    recordings) copySeeds "$into" "$root"/tests/data/grounded/*recordings.tsv "$shared"/social-cues/recordings.tsv ;;
    topic_annotations) copySeeds "$into" "$root"/tests/data/grounded/hypothesis.txt \
                         "$root"/tests/data/grounded/reference.txt ;;
    grounded_lexicon) copySeeds "$into" "$shared"/fm-corpus/gold-lexicon.txt ;;
    sentences) copySeeds "$into" "$root"/samples/*.txt "$shared"/earleyx/data/text.* \
                 "$shared"/earleyx/data/testeng.yld ;;
    ptb_tree) copySeeds "$into" "$shared"/earleyx/data/treebank.5 ;;
    workspace) copySeeds "$into" "$root"/tests/data/bad-input/workspace/*.gwb-workspace ;;
    dylan_grammar)
      local d
      for d in "$root"/tests/data/ds/toy "$shared"/dylan/*/; do
        [ -f "$d/computational-actions.txt" ] || continue
        local name; name=$(basename "$d")
        # A quarter of max_len from each file, so that the lexicon is not cut away.
        { for f in computational-actions lexical-actions lexical-macros; do
            head -c $(( $(maxLen "$target") / 4 - 8 )) "$d/$f.txt" 2>/dev/null || true
            printf '\n%%%%%%%%\n'
          done
          head -c $(( $(maxLen "$target") / 4 - 8 )) "$d/lexicon.txt" 2>/dev/null || true; } > "$into/dylan-$name"
      done
      copySeeds "$into" "$root"/tests/data/ds/malformed/*actions.txt ;;
    dylan_learned_lexicon) copySeeds "$into" "$shared"/dylan/2013-ttr-learner-output/lexicon.lex-top-1.txt \
                             "$root"/tests/data/ds/malformed/*.lex-top.txt ;;
    semantic_corpus) copySeeds "$into" "$shared"/dylan/childes-eve/CHILDESconversion100TestFinal.txt ;;
    ccg_term) copySeeds "$into" "$shared"/geoquery/geosents880-typed.ccg "$shared"/geoquery/geo250/tr/fold-0/test ;;
    ccg_types)
      # geo-lambda's types and lang as one input ("%%" between them), as the target reads them.
      if [ -f "$shared/geoquery/geo-lambda.types" ]; then
        { cat "$shared/geoquery/geo-lambda.types"; printf '%%%%\n'; head -c 800 "$shared/geoquery/geo-lambda.lang"; } \
          > "$into/geo-lambda"
      fi ;;
    corpus_file) copySeeds "$into" "$root"/samples/*.txt "$root"/tests/data/grounded/*.yld \
                   "$shared"/earleyx/data/gold.topic.ortho.yld "$shared"/social-cues/recordings/A1*.concat ;;
    ccg_lexicon) copySeeds "$into" "$root"/samples/*.flex "$root"/tests/data/ccg/*.flex \
                   "$shared"/geoquery/np-fixedlex.geo "$shared"/geoquery/geo250/ja-np-fixedlex.geo ;;
    ds_record_type)
      local f="$shared/dylan/childes-eve/CHILDESconversion100TestFinal.txt" i=0
      [ -f "$f" ] && grep '^Sem' "$f" | head -40 | sed 's/^Sem *: *//' | while IFS= read -r line; do
        i=$((i + 1)); printf '%s' "$line" > "$into/childes-sem-$i"; done || true ;;
    ds_label)
      local f="$shared/dylan/2013-english-ttr/computational-actions.txt" i=0
      [ -f "$f" ] && grep -vE '^[[:space:]]*(//|$)' "$f" | sed -E 's/^[[:space:]]*((IF|THEN|ELSE)[[:space:]]+)?//' |
        sort -u | head -80 | while IFS= read -r line; do
          i=$((i + 1)); printf '%s' "$line" > "$into/dylan-label-$i"; done || true ;;
  esac
  return 0
}

mkdir -p "$build/findings"

# The timeout that ended the run logged in $1, run again alone with the timeout as its limit of
# CPU seconds (and twenty times that of wall time): if it finishes, the timeout was the machine's
# load, not the input; `code` becomes 0 and the input is kept in findings/false-timeouts/.
recheckTimeout() {
  local log=$1 unit limit="${GWB_FUZZ_TIMEOUT:-10}" status
  unit=$(grep -oE 'Test unit written to .*' "$log" | tail -n 1 | sed 's/^Test unit written to //')
  [ -n "$unit" ] && [ -f "$unit" ] || return 0
  set +e
  ( ulimit -t "$limit"; timeout $(( limit * 20 )) "$build/fuzz/fuzz_$target" "$unit" ) \
    > "$log.recheck" 2>&1
  status=$?
  set -e
  if [ $status -eq 0 ]; then
    mkdir -p "$build/findings/false-timeouts"
    mv -f "$unit" "$build/findings/false-timeouts/"
    echo "fuzz: $target: the timeout was the machine's load, not the input (alone it runs in" \
      "under $limit s of CPU; kept in findings/false-timeouts/); going on" | tee -a "$log"
    code=0
  fi
}

# Fuzzes $target once with seed $1 into the corpus folder $2, its log in $3, with the budget
# flags that follow (-runs=N, -max_total_time=S). Sets `code` (exit status), `execs` and `secs`.
fuzzOnce() {
  local seed=$1 corpusDir=$2 log=$3 work began
  shift 3
  work=$(mktemp -d)
  mkdir -p "$work/seeds" "$corpusDir"
  seedsFor "$work/seeds"
  echo "fuzz: $target ($*, $(ls "$work/seeds" | wc -l) seeds, -max_len=$(maxLen "$target"))"
  began=$(date +%s)
  set +e
  "$build/fuzz/fuzz_$target" "$corpusDir" "$work/seeds" "$@" -max_len="$(maxLen "$target")" \
    -seed="$seed" -timeout="${GWB_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$target-" > "$log" 2>&1
  code=$?
  set -e
  secs=$(( $(date +%s) - began ))
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  if [ $code -ne 0 ] && grep -q '^SUMMARY: libFuzzer: timeout' "$log"; then recheckTimeout "$log"; fi
  if [ $code -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
    echo "fuzz: $target interrupted after $execs executions"
  elif [ $code -ne 0 ]; then
    echo "fuzz: $target FOUND a problem (exit $code); see $log"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|fuzz invariant)' "$log" | head -n 8 || tail -n 20 "$log"
  fi
  rm -rf "$work"
}

if [ "$budget" = long ]; then
  declare -A total=() seconds=() rounds=() result=()
  longCorpus="${GWB_FUZZ_CORPUS:-$build/long-corpus}"
  mkdir -p "$longCorpus"
  # The running totals of $1, from earlier invocations: "EXECUTIONS SECONDS ROUNDS".
  readTotals() {
    local file="$longCorpus/$1.runs" e=0 s=0 r=0
    [ -f "$file" ] && read -r e s r < "$file" || true
    e=${e:-0} s=${s:-0} r=${r:-0}
    [[ "$e" =~ ^[0-9]+$ && "$s" =~ ^[0-9]+$ && "$r" =~ ^[0-9]+$ ]] || {
      echo "fuzz: $file is not 'EXECUTIONS SECONDS ROUNDS'; delete it to start over" >&2; exit 2; }
    total[$1]=$e seconds[$1]=$s rounds[$1]=$r
  }
  saveTotals() {
    local file="$longCorpus/$1.runs"
    printf '%s %s %s\n' "${total[$1]}" "${seconds[$1]}" "${rounds[$1]}" > "$file.tmp"
    mv -f "$file.tmp" "$file"
  }
  for target in "${run[@]}"; do
    readTotals "$target"
    result[$target]=running
    [ "${total[$target]}" -lt "$longRuns" ] || result[$target]=done
  done
  echo "fuzz: long run to $longRuns executions a target; totals so far (kept in $longCorpus/TARGET.runs):"
  table() {
    printf '\n| target | executions | seconds | result |\n| --- | ---: | ---: | --- |\n'
    for target in "${run[@]}"; do
      printf '| %s | %s | %s | %s |\n' "$target" "${total[$target]}" "${seconds[$target]}" "${result[$target]}"
    done
  }
  # Stopped: libFuzzer prints its final statistics on SIGINT/SIGTERM, so the round under way
  # counts too.
  stopped() {
    local n
    [ "${inRound:-0}" = 1 ] || { table; exit 130; }
    n=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" 2>/dev/null | grep -oE '[0-9]+$' || echo 0)
    total[$target]=$(( total[$target] + n )) rounds[$target]=$(( rounds[$target] + 1 ))
    seconds[$target]=$(( seconds[$target] + $(date +%s) - roundBegan ))
    saveTotals "$target"
    for target in "${run[@]}"; do
      [ "${result[$target]}" != running ] || result[$target]="stopped, no finding"
    done
    table
    exit 130
  }
  table
  trap stopped INT TERM
  # The running targets, fewest executions first (ties in list order): a campaign stopped in a
  # round, as one spanning several sittings is, goes on with the targets it reached least, so
  # that the last targets of the list are not left at 0 executions by every sitting.
  roundOrder() {
    local i=0 t
    for t in "${run[@]}"; do
      if [ "${result[$t]}" = running ]; then printf '%s %s %s\n' "${total[$t]}" "$i" "$t"; fi
      i=$((i + 1))
    done | sort -n -k1,1 -k2,2 | cut -d' ' -f3
  }
  round=0
  while :; do
    round=$((round + 1)) left=0
    for target in $(roundOrder); do
      remaining=$(( longRuns - total[$target] ))
      # A round is SLICE seconds or the executions still to do, whichever ends first. Its seed
      # goes on from the target's earlier rounds, also those of earlier invocations.
      log="$build/findings/$target-long-$round.log" roundBegan=$(date +%s) inRound=1
      fuzzOnce "$(( ${GWB_FUZZ_SEED:-0} + rounds[$target] + 1 ))" "$longCorpus/$target" "$log" \
        -max_total_time="$slice" -runs="$remaining"
      total[$target]=$(( total[$target] + execs )) seconds[$target]=$(( seconds[$target] + secs ))
      rounds[$target]=$(( rounds[$target] + 1 ))
      saveTotals "$target"
      inRound=0
      # libFuzzer exits with 72 when interrupted (Ctrl-C reaches it first): the round counts,
      # and the campaign stops as on a signal to this script.
      if [ $code -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
        rm -f "$log"
        for target in "${run[@]}"; do
          [ "${result[$target]}" != running ] || result[$target]="stopped, no finding"
        done
        table
        exit 130
      fi
      if [ $code -ne 0 ]; then result[$target]="FOUND (exit $code, $log)"
      elif [ "${total[$target]}" -ge "$longRuns" ]; then result[$target]=done
      else left=$((left + 1)); rm -f "$log"; fi
    done
    echo "fuzz: round $round done"
    table
    [ $left -gt 0 ] || break
  done
  for target in "${run[@]}"; do [ "${result[$target]}" = done ] || exit 1; done
  exit 0
fi

status=0
summary=()
for target in "${run[@]}"; do
  corpus="${GWB_FUZZ_CORPUS:+$GWB_FUZZ_CORPUS/$target}"
  corpus="${corpus:-$(mktemp -d)}"
  fuzzOnce "${GWB_FUZZ_SEED:-0}" "$corpus" "$build/findings/$target.log" "$budgetFlag"
  [ -n "${GWB_FUZZ_CORPUS:-}" ] || rm -rf "$corpus"
  found=""
  [ $code -eq 0 ] || { status=1; found=" (FOUND a problem)"; }
  summary+=("$target: $execs executions in $secs s$found")
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
