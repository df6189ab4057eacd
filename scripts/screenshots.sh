#!/usr/bin/env bash
# Renders the documentation's screenshots of the workbench, each view populated, at 1280x800
# on a virtual X server (through scripts/screenshot.sh).
#
#   scripts/screenshots.sh [OUT_DIR]        (default: docs/screenshots)
#
# The GUI is taken from $GWB_BUILD_DIR (default ./build). Views that read the real corpora
# (../shared, or $GWB_SHARED_DIR) are skipped with a note when it is missing.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/docs/screenshots}
shared=${GWB_SHARED_DIR:-$here/../shared}
mkdir -p "$out"
shot() { "$here/scripts/screenshot.sh" "$out/$1" "${@:2}"; }

# The first start: the PP-attachment sample in the Earley stepper, an item selected.
shot main-window.png --select 2:1
# The ambiguity resolved: S completes over both VP analyses (PP on the verb or on the noun).
shot stepper.png "$here/samples/pp-attachment.cfg" --view stepper \
  --sentence "i saw the man with the telescope" --step 33 --select 7:6
# The Viterbi tree.
shot tree.png "$here/samples/pp-attachment.cfg" --view tree
# The grammar editor with a student's mistakes underlined (a copy, edited).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed -e "s/^P -> 'with' \[0.6\] | 'in' \[0.4\]/P -> 'with' [0.6] | 'in'/" \
    -e "s/'walked' \[0.3\]/'walked' [0.2]/" \
    "$here/samples/pp-attachment.cfg" > "$scratch/pp-attachment-edited.cfg"
shot grammar.png "$scratch/pp-attachment-edited.cfg"

if [[ -d "$shared/data" ]]; then
  grammar="$shared/data/earleyx/grammars/socialDiscourse.grammar"
  shot corpus.png "$grammar" "$shared/data/earleyx/data/socialall.ortho.yld" --root Discourse
  shot discourse.png "$grammar" --root Discourse --view stepper \
    --sentence "$(cat "$shared/data/social-cues/recordings/A12.concat")" --step word:30
else
  echo "$0: $shared/data not found; skipping the corpus and discourse screenshots" >&2
fi
