// GuiOptions: the command line of `grammar-workbench`, read into plain values without a window,
// so that the options can be tested on their own and `main` stays a few lines.
//
//   grammar-workbench [FILE...] [--root SYMBOL] [--view PAGE] [--sentence TEXT] [--step N|end]
//                     [--select SET:INDEX] [--no-session] [--screenshot OUT.png] ...
//
// FILE... are grammars or corpora to open, each in its own tab; with none the last session's
// workspace is restored (or, with --no-session, the default one). --view names what to show:
// a page of the last grammar (grammar, stepper, tree), a research window (discourse,
// transitions, induction, experiments), the DS stepper (ds), DS lexicon learning (ds-learn), the
// CCG parser (ccg), the FUBL learner (fubl), or help/shortcuts. The other
// options fill that view; `grammar-workbench --help` lists them all, and
// ui/frame/workbench_startup.h applies them.
//
// parseGuiOptions never exits and never prints: it returns what to do (run, print the help or
// the version) or, for an option it does not know or a value it cannot read, an error that
// names the option and says what was expected. Values whose meaning belongs to a view (the
// --step of the stepper, an --induce spec) are checked by that view when applied.
#pragma once

#include <optional>

#include <QSize>
#include <QString>
#include <QStringList>

namespace gwb::ui {

struct GuiOptions {
  QStringList files;  // positional arguments
  QString root;       // --root: start symbol for FILE... (and the induction view)
  bool noSession = false;
  // --screenshot OUT.png: show the window at screenshotSize, grab it, exit.
  std::optional<QString> screenshotPath;
  QSize screenshotSize{1280, 800};
  QString view;  // --view: empty, or one of kGuiViews

  // The Earley stepper of the last grammar.
  std::optional<QString> sentence;
  std::optional<QString> step;                // N, end or word:K
  std::optional<std::pair<int, int>> select;  // SET:INDEX
  std::optional<QString> agenda;              // N or end
  QString agendaStrategy = QStringLiteral("earley");

  // Research > Discourse segmentation / Topic transitions.
  std::optional<QString> corpus;
  QString gold;
  QString recordings;
  QStringList annotations;
  QStringList decode;
  std::optional<QString> recording;
  std::optional<int> utterance;  // 1-based
  std::optional<int> window;
  std::optional<double> zoom;
  std::optional<QString> compare;
  bool difference = false;
  std::optional<QString> countsCorpus;
  QString values;  // "", prob, rescaled, counts
  QString order;   // "", grammar, frequency, cluster

  // Research > Grammar induction / Experiments.
  std::optional<QString> induceGrammar;
  std::optional<QString> induceCorpus;
  QStringList induce;       // key=value;... per run
  QStringList experiments;  // key=value;... per job
  bool run = false;

  // Help window.
  std::optional<QString> helpTopic;

  // Dynamic Syntax stepper.
  QString dsGrammar;
  std::optional<QString> dsSentence;
  std::optional<QString> dsStep;
  std::optional<int> dsSelect;
  bool dsBestFirst = false;

  // DS lexicon learning (--view ds-learn).
  QString dsSeed;                  // the seed grammar folder (default: the shared one)
  std::optional<QString> dsTrain;  // training items; given: learn at once
  std::optional<QString> dsTest;   // test items (default: the training items)
  QString dsLearnTab;              // "", curve, words, test, derivation
  std::optional<QString> dsWord;   // the word shown (Words, Derivation)
  std::optional<int> dsTestItem;   // 1-based test item to parse and score
  std::optional<int> dsTop;        // 1..5

  // CCG parser (--view ccg).
  QString ccgLexicon;
  std::optional<QString> ccgSentence;
  std::optional<QString> ccgStep;  // N, end or cell:B-E (checked by the view)
  std::optional<QString> ccgCell;  // B-E

  // FUBL learner (--view fubl); --run starts the training.
  QString fublTrain;  // default: samples/ccg/geography.ccg
  QString fublFixed;
  QString fublTest;
  QString fublModel;
  std::optional<int> fublPasses;
  std::optional<int> fublSeed;
  QString fublPage;             // "", training, lexicon, evaluation
  QString fublFilter;           // the lexicon page's filter (a word or a constant)
  std::optional<int> fublOpen;  // 1-based test sentence to open in the CCG tab after the run
  QString fublOpenModel;        // a model file shown in the lexicon browser without training

  bool takeScreenshot() const { return screenshotPath.has_value(); }
};

// The pages --view accepts, in the order --help lists them.
extern const QStringList kGuiViews;

struct GuiCommandLine {
  enum class Action { Run, ShowHelp, ShowVersion, Error };
  Action action = Action::Run;
  GuiOptions options;  // Action::Run
  QString text;        // the help text, or the error ("--utterance: expected ...")
};

// `arguments` as QCoreApplication::arguments() gives them: the program's name first.
GuiCommandLine parseGuiOptions(const QStringList& arguments);

}  // namespace gwb::ui
