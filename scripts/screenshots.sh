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
# The chart as arcs over the words, below the column view, at the end of the parse.
shot arcs.png "$here/samples/pp-attachment.cfg" --view stepper \
  --sentence "i saw the man with the telescope" --step end --select 7:0
# Agenda mode, completing earliest origin first: the last step corrects [0, 7] S's goal item.
shot agenda.png "$here/samples/pp-attachment.cfg" --view stepper \
  --sentence "i saw the man with the telescope" --agenda 30 --agenda-strategy complete-first
# The grammar editor with a student's mistakes underlined (a copy, edited).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed -e "s/^P -> 'with' \[0.6\] | 'in' \[0.4\]/P -> 'with' [0.6] | 'in'/" \
    -e "s/'walked' \[0.3\]/'walked' [0.2]/" \
    "$here/samples/pp-attachment.cfg" > "$scratch/pp-attachment-edited.cfg"
shot grammar.png "$scratch/pp-attachment-edited.cfg"
# CCG > CCG parser on the sample lexicon: the chart replayed to the end of cell 3-7, with that
# cell's best derivation; then the finished chart with the best parse's proof.
shot ccg-stepper.png --view ccg --ccg-sentence "what are the major cities in ohio" \
  --ccg-step cell:3-7
shot ccg-parser.png --view ccg --ccg-sentence "what are the major cities in ohio"
# CCG > FUBL learner on the sample pairs (geography.ccg): the curve after six passes, the learned
# lexicon, the evaluation, the first sentence in the CCG tab; the model goes to the scratch folder.
fubl=(--view fubl --fubl-passes 6 --fubl-model "$scratch/geography.ccgmodel" --run)
shot fubl-training.png "${fubl[@]}" --fubl-page training
shot fubl-lexicon.png "${fubl[@]}" --fubl-page lexicon
shot fubl-evaluation.png "${fubl[@]}" --fubl-page evaluation
shot fubl-ccg-tab.png "${fubl[@]}" --fubl-open 1

if [[ -d "$shared/data" ]]; then
  grammar="$shared/data/earleyx/grammars/socialDiscourse.grammar"
  shot corpus.png "$grammar" "$shared/data/earleyx/data/socialall.ortho.yld" --root Discourse
  shot discourse.png "$grammar" --root Discourse --view stepper \
    --sentence "$(cat "$shared/data/social-cues/recordings/A12.concat")" --step word:30
  # Research > Discourse segmentation: recording A12, gold against the authors' learned
  # discourse grammar and the unlearned one, with the agreement table.
  data="$shared/data/earleyx/data"
  grammars="$shared/data/earleyx/grammars"
  shot discourse-segmentation.png --view discourse --corpus "$data/socialall.ortho.yld" \
    --gold "$data/gold.topic.ortho.yld" --recordings "$shared/data/social-cues/recordings.tsv" \
    --decode "$grammars/unigram.discourse1.vb.iogrammar" \
    --decode "$grammars/socialDiscourse.grammar" --recording A12 --utterance 40 --zoom 12
  # Research > Topic transitions: the learned discourse grammar's matrix, clustered.
  shot transitions.png --view transitions "$grammars/unigram.discourse1.vb.iogrammar" \
    --counts-corpus "$data/socialall.ortho.yld" \
    --recordings "$shared/data/social-cues/recordings.tsv" --order cluster
  # Research > Grammar induction: two VB runs of the authors' unigram grammar on the corpus,
  # from uniform + noise, with and without the sparse Word.t prior, curves overlaid.
  shot induction.png --view induction --induce-grammar "$grammars/unigram.grammar" \
    --induce-corpus "$data/socialall.ortho.yld" \
    --induce "label=sparse Word.t prior 0.001;prior=Word.* -> _* except Word.None=0.001;iterations=15;init=uniform;threads=2" \
    --induce "label=flat prior 1;iterations=15;init=uniform;threads=2" --run
  # Research > Experiments: a few rows of Tables 2-4 (20 iterations), the paper's beside ours.
  GWB_SHARED_DIR="$shared" shot experiments.png --view experiments \
    --experiment "model=vb;cues=all;iterations=20;seeds=1-2;threads=2" \
    --experiment "model=discourse;cues=all;iterations=20;seeds=1;threads=2" \
    --experiment "model=discourse+init;cues=all;iterations=20;seeds=1;threads=2" \
    --experiment "model=vb;cues=none;iterations=20;seeds=1-2;threads=2" \
    --experiment "model=vb;cues=drop:kid.eyes;iterations=20;seeds=1;threads=2" --run
  # Dynamic Syntax > DS stepper: "john likes mary" after two words, tree #8 (an unfixed node
  # with a LINKed tree) selected; then "a man likes mary" parsed, its success path in red.
  dylan="$shared/data/dylan/2013-english-ttr"
  shot ds-stepper.png --view ds --ds-grammar "$dylan" --ds-sentence "john likes mary" \
    --ds-step word:2 --ds-select 8
  shot ds-stepper-complete.png --view ds --ds-grammar "$dylan" --ds-sentence "a man likes mary" \
    --ds-step end
  # Dynamic Syntax > DS lexicon learning on the project's four-item sample with the induction
  # seed: the curve, "Mommy"'s hypotheses, a test item's alignment (tiny-test.txt: a parse with
  # a field the gold lacks), and a hypothesis's derivation.
  seed="$shared/data/dylan/2013-english-ttr-induction-seed"
  tiny="$here/tests/data/ds/eval/tiny-train.txt"
  shot ds-learning-curve.png --view ds-learn --ds-seed "$seed" --ds-train "$tiny"
  shot ds-learning-words.png --view ds-learn --ds-seed "$seed" --ds-train "$tiny" \
    --ds-word Mommy --ds-learn-tab words
  shot ds-learning-test.png --view ds-learn --ds-seed "$seed" --ds-train "$tiny" \
    --ds-test "$here/tests/data/ds/eval/tiny-test.txt" --ds-test-item 3 --ds-learn-tab test
  shot ds-learning-derivation.png --view ds-learn --ds-seed "$seed" --ds-train "$tiny" \
    --ds-word read --ds-learn-tab derivation
else
  echo "$0: $shared/data not found; skipping the corpus and discourse screenshots" >&2
fi
