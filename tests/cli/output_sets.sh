#!/usr/bin/env bash
# Output sets (atomic_file.h): `gwb parse --out` writes PREFIX.* and, last, PREFIX.manifest.
#  - a writer killed mid-set (fault injection: GWB_TEST_KILL_AFTER_RENAMES) leaves no manifest,
#    so `gwb outputs verify` refuses the mix; the next run removes its temporary files;
#  - SIGTERM mid-set removes the temporary files;
#  - a symbolic link, a FIFO, a character device and "-" are written through, not replaced.
# Usage: output_sets.sh GWB SAMPLES_DIR WORK_DIR
set -u
gwb=$(realpath "$1") samples=$(realpath "$2") work=$(realpath "$3")/output-sets
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
no_temps() {
  local left
  left=$(find . -name '*.tmp-*' | tr '\n' ' ')
  [ -z "$left" ] || fail "$1: temporary files left: $left"
}
grammar=$samples/pp-attachment.cfg input=$samples/pp-attachment.txt
parse() { "$gwb" parse -g "$grammar" -i "$input" -q --surprisal --prefix --viterbi "$@" > /dev/null; }

# 1. A whole set verifies.
parse -o run || fail "first run exited $?"
"$gwb" outputs verify run.manifest > /dev/null || fail "a whole set does not verify"
old_prefix=$(cat run.prefix)

# 2. Killed (SIGKILL) after the first rename: run.surprisal is new (in bits), the rest old; no
#    manifest, so the set does not verify; temporary files of the dead writer remain.
GWB_TEST_KILL_AFTER_RENAMES=1 parse -o run --bits
status=$?
[ "$status" -eq 137 ] || fail "the killed run exited $status, expected 137 (SIGKILL)"
[ -e run.manifest ] && fail "a half-written set kept its manifest"
"$gwb" outputs verify run.manifest > /dev/null 2>&1 && fail "a half-written set verifies"
[ "$(cat run.prefix)" = "$old_prefix" ] || fail "run.prefix was replaced before run.surprisal"
[ -n "$(find . -name '*.tmp-*')" ] || fail "the killed writer left no temporary files (was the hook run?)"

# 3. The next run completes the set and removes the dead writer's temporary files.
parse -o run || fail "third run exited $?"
"$gwb" outputs verify run.manifest > /dev/null || fail "the set does not verify after a rerun"
no_temps "after a rerun"

# 4. SIGTERM mid-set: the process ends by the signal, its temporary files are gone.
GWB_TEST_KILL_AFTER_RENAMES=1:TERM parse -o term
status=$?
[ "$status" -eq 143 ] || fail "the terminated run exited $status, expected 143 (SIGTERM)"
[ -e term.manifest ] && fail "a terminated set has a manifest"
no_temps "after SIGTERM"

# 5. Targets that are not regular files.
cp "$grammar" real.cfg
ln -s real.cfg link.cfg
"$gwb" grammar convert "$grammar" link.cfg --to earleyx 2> /dev/null || fail "convert to a symlink exited $?"
[ -L link.cfg ] || fail "the symbolic link was replaced by a file"
grep -q -- '->\[' real.cfg || fail "the file behind the link was not written"
mkfifo pipe
cat pipe > from-pipe &
reader=$!
"$gwb" grammar convert "$grammar" pipe --to earleyx 2> /dev/null || fail "convert to a FIFO exited $?"
# Had gwb not opened the FIFO, the reader would wait for a writer for ever. A read-write open
# never blocks (Linux) and hands it one; closing it gives the reader its end of file. No clock:
# the reader waits as long as gwb takes, however loaded the machine.
exec 3<> pipe
exec 3>&-
wait "$reader"
[ -p pipe ] || fail "the FIFO was replaced by a file"
grep -q -- '->\[' from-pipe || fail "nothing came through the FIFO"
if mknod null c 1 3 2> /dev/null; then
  "$gwb" grammar convert "$grammar" null --to earleyx 2> /dev/null || fail "convert to a device exited $?"
  [ -c null ] || fail "the character device was replaced by a file"
else
  echo "note: mknod not permitted; the character device case is covered by atomic_file_test"
fi
"$gwb" grammar convert "$grammar" - --to earleyx 2> /dev/null > from-stdout || fail "convert to - exited $?"
grep -q -- '->\[' from-stdout || fail "nothing was written to standard output for -"
[ -e ./- ] && fail "a file named - was created"
# /dev/stdout into a pipe, and redirected to a regular file (written into, not replaced).
"$gwb" grammar convert "$grammar" /dev/stdout --to earleyx 2> /dev/null | cat > from-devstdout-pipe
grep -q -- '->\[' from-devstdout-pipe || fail "nothing came through /dev/stdout to a pipe"
"$gwb" grammar convert "$grammar" /dev/stdout --to earleyx 2> /dev/null > from-devstdout-file ||
  fail "convert to /dev/stdout redirected to a file exited $?"
grep -q -- '->\[' from-devstdout-file || fail "nothing came through /dev/stdout to a file"
no_temps "after the special targets"

[ "$failures" -eq 0 ] && echo "output sets: all checks passed"
[ "$failures" -eq 0 ]
