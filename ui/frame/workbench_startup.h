// What `grammar-workbench` does with its command line (GuiOptions, gui_options.h): opens the
// main window on the files given (or the last session), fills the view --view names from the
// other options, and either runs the event loop or, with --screenshot, grabs the window to a
// PNG and returns.
//
// With --screenshot the window uses throwaway settings (so neither the user's layout nor recent
// files affect it or are touched) and the jobs the options start (parses, decodings, counts,
// induction runs, experiments) are waited for before the grab; without it the options are
// applied once the window is shown, and the jobs run on as usual. A value a view cannot use
// (a file that does not load, an --induce spec it does not read) is reported on stderr and the
// rest still applies.
//
// The Earley views: --view shows a page of the last grammar (grammar, stepper, tree),
// --sentence parses a sentence in its stepper and --step moves the stepper there (a number of
// operations, `end`, or `word:K` for the end of word K's scans); --select SET:INDEX selects a
// chart item; --agenda N turns on the stepper's agenda mode and runs N tasks (or end) of
// --agenda-strategy.
//
// Research views: --view discourse opens Research > Discourse segmentation with --corpus (and
// --gold, --recordings), adds each --annotations file, decodes with each --decode grammar, then
// shows --recording ID at --utterance N (1-based) with window --window K; --view transitions
// opens Research > Topic transitions with the FILE given (or --decode's grammar), --compare a
// second grammar (--difference shows first - second), --counts-corpus/--recordings for expected
// counts, --values prob|rescaled|counts and --order grammar|frequency|cluster. With --screenshot
// the research window is grabbed instead of the main window.
//
// --view induction opens Research > Grammar induction with --induce-grammar, --induce-corpus
// (and --root) in its form; each --induce "key=value;..." (label, method, prior, iterations,
// init, ... see induction_panel.h) is one run on top of those; --run starts them (one after
// the other) and, with --screenshot, waits for them. --view experiments opens Research >
// Experiments; each --experiment "model=vb;cues=all;iterations=20;seeds=1-2" is one job, run
// with --run.
//
// Help: --view help shows Help > Walkthrough (or --help-topic docs/formats.md, ...); --view
// shortcuts shows Help > Keyboard Shortcuts. With --screenshot that window is grabbed.
//
// Dynamic Syntax: --view ds opens Dynamic Syntax > DS stepper with --ds-grammar DIR (default: the
// shared DyLan 2013 English TTR grammar), parses --ds-sentence TEXT (breadth-first, or
// --ds-best-first), steps to --ds-step (a number of actions, end, or word:K) and selects DAG node
// --ds-select N.
//
// CCG: --view ccg opens CCG > CCG parser with --ccg-lexicon FILE (default: samples/ccg/
// geography.flex), parses --ccg-sentence TEXT, replays the CKY fill to --ccg-step (a number of
// steps, end, or cell:B-E) and selects chart cell --ccg-cell B-E.
#pragma once

class QWidget;

namespace gwb::ui {

class MainWindow;
struct GuiOptions;

// Runs the workbench as `options` say; returns the process's exit status.
int runWorkbench(const GuiOptions& options);

// The three groups of options, applied to an open window (runWorkbench calls them in order).
// The last grammar's pages: --view grammar|stepper|tree, --sentence, --step, --select, --agenda.
void applyGrammarOptions(MainWindow& window, const GuiOptions& options);
// The research and help windows (--view discourse|transitions|induction|experiments|help|
// shortcuts); returns the window shown, or null for another --view.
QWidget* applyResearchOptions(MainWindow& window, const GuiOptions& options);
// The DS stepper (--view ds), and DS lexicon learning (--view ds-learn: --ds-seed, --ds-train
// learned from at once, --ds-test, --ds-top, --ds-word, --ds-test-item, --ds-learn-tab).
void applyDsOptions(MainWindow& window, const GuiOptions& options);
// The CCG parser (--view ccg): opens --ccg-lexicon (default: the sample), parses --ccg-sentence,
// replays to --ccg-step and selects chart cell --ccg-cell.
void applyCcgOptions(MainWindow& window, const GuiOptions& options);
// The FUBL learner (--view fubl): fills its form from --fubl-train (default: the sample pairs),
// --fubl-fixed, --fubl-test, --fubl-model, --fubl-passes and --fubl-seed; with --run trains (a
// screenshot waits for the run), then applies --fubl-filter and --fubl-page and opens test
// sentence --fubl-open in the CCG tab.
void applyFublOptions(MainWindow& window, const GuiOptions& options);

}  // namespace gwb::ui
