#include "ui/frame/gui_options.h"

#include <utility>
#include <vector>

#include <QCommandLineOption>
#include <QCommandLineParser>

#include "gwb/earley/agenda_earley.h"

namespace gwb::ui {

const QStringList kGuiViews = {
    QStringLiteral("grammar"),     QStringLiteral("stepper"),     QStringLiteral("tree"),
    QStringLiteral("discourse"),   QStringLiteral("transitions"), QStringLiteral("induction"),
    QStringLiteral("experiments"), QStringLiteral("ds"),          QStringLiteral("ds-learn"),
    QStringLiteral("ccg"),         QStringLiteral("fubl"),        QStringLiteral("help"),
    QStringLiteral("shortcuts")};

namespace {

QCommandLineOption valueOption(const char* name, const char* help, const char* valueName) {
  return {QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(valueName)};
}

QCommandLineOption flagOption(const char* name, const char* help) {
  return {QString::fromLatin1(name), QString::fromLatin1(help)};
}

// Every option, in the order --help lists them.
std::vector<QCommandLineOption> allOptions() {
  return {
      valueOption("root", "Start symbol for the grammars given on the command line.", "SYMBOL"),
      valueOption("view",
                  "The page to show for the last grammar: grammar, stepper or tree; a research "
                  "window: discourse, transitions, induction or experiments; the DS stepper: ds; "
                  "DS lexicon learning: ds-learn; the CCG parser: ccg; the FUBL learner: fubl; "
                  "or help or shortcuts.",
                  "PAGE"),
      valueOption("sentence", "A sentence to parse in the last grammar's Earley stepper.", "TEXT"),
      valueOption("step", "Where the stepper stops: a number of operations, end, or word:K.", "N"),
      valueOption("select", "An item to select in the stepper's chart: SET:INDEX.", "SET:INDEX"),
      valueOption("agenda",
                  "Turns on the stepper's agenda mode and runs N tasks of --agenda-strategy (or "
                  "end).",
                  "N"),
      QCommandLineOption(QStringLiteral("agenda-strategy"),
                         QStringLiteral("Agenda mode's strategy: earley, predict-first, "
                                        "complete-first, scan-first, oldest, newest or random."),
                         QStringLiteral("NAME"), QStringLiteral("earley")),
      valueOption("corpus", "Discourse view: the social-cue corpus (.yld).", "FILE"),
      valueOption("gold", "Discourse view: its gold topics (.yld).", "FILE"),
      valueOption("recordings", "Discourse/transitions view: the recordings table (.tsv).", "FILE"),
      valueOption("annotations", "Discourse view: a topic annotation file to add (repeatable).",
                  "FILE"),
      valueOption("decode", "Discourse view: a grammar to decode the corpus with (repeatable).",
                  "GRAMMAR"),
      valueOption("recording", "Discourse view: the recording to show.", "ID"),
      valueOption("utterance", "Discourse view: the utterance to scroll to (1-based).", "N"),
      valueOption("window", "Discourse view: the Pk/WindowDiff window (default: segeval's).", "K"),
      valueOption("zoom", "Discourse view: pixels per utterance.", "PX"),
      valueOption("compare", "Transitions view: a second grammar to compare with.", "GRAMMAR"),
      flagOption("difference", "Transitions view: show first - second."),
      valueOption("counts-corpus", "Transitions view: a corpus for expected counts (.yld).",
                  "FILE"),
      valueOption("values", "Transitions view: prob, rescaled or counts.", "WHAT"),
      valueOption("order", "Transitions view: grammar, frequency or cluster.", "ORDER"),
      valueOption("induce-grammar", "Induction view: the grammar to train.", "FILE"),
      valueOption("induce-corpus", "Induction view: the training corpus.", "FILE"),
      valueOption("induce", "Induction view: one run's settings, key=value;... (repeatable).",
                  "SPEC"),
      valueOption("experiment", "Experiments view: one job, key=value;... (repeatable).", "SPEC"),
      flagOption("run", "Induction/experiments view: start the runs."),
      valueOption("help-topic", "Help window (--view help): the page, e.g. docs/formats.md.",
                  "PATH"),
      valueOption("ds-grammar", "DS stepper: a DyLan grammar folder.", "DIR"),
      valueOption("ds-sentence", "DS stepper: the sentence to parse.", "TEXT"),
      valueOption("ds-step", "DS stepper: where to stop, a number of actions, end, or word:K.",
                  "N"),
      valueOption("ds-select", "DS stepper: the DAG node to select.", "N"),
      flagOption("ds-best-first", "DS stepper: parse best-first."),
      valueOption("ds-seed", "DS learning (--view ds-learn): the seed grammar folder.", "DIR"),
      valueOption("ds-train", "DS learning: the training items; learns from them at once.", "FILE"),
      valueOption("ds-test", "DS learning: the test items (default: the training items).", "FILE"),
      valueOption("ds-learn-tab", "DS learning: the tab shown: curve, words, test or derivation.",
                  "TAB"),
      valueOption("ds-word", "DS learning: the word whose hypotheses (and derivation) are shown.",
                  "WORD"),
      valueOption("ds-test-item", "DS learning: the test item (1-based) to parse and score.", "N"),
      valueOption("ds-top", "DS learning: the top-N lexicon test items are parsed with (1-5).",
                  "N"),
      valueOption("ccg-lexicon",
                  "CCG parser (--view ccg): a factored lexicon or model (default: the sample "
                  "samples/ccg/geography.flex).",
                  "FILE"),
      valueOption("ccg-sentence", "CCG parser: the sentence to parse.", "TEXT"),
      valueOption("ccg-step",
                  "CCG parser: where the CKY replay stops: a number of steps, end, or cell:B-E.",
                  "N"),
      valueOption("ccg-cell", "CCG parser: the chart cell to select, B-E (words B..E-1).", "B-E"),
      valueOption("fubl-train",
                  "FUBL learner (--view fubl): the training pairs (default: the sample "
                  "samples/ccg/geography.ccg); --run trains.",
                  "FILE"),
      valueOption("fubl-fixed", "FUBL learner: a fixed entity lexicon (np-fixedlex.geo).", "FILE"),
      valueOption("fubl-test", "FUBL learner: the test pairs evaluated after training.", "FILE"),
      valueOption("fubl-model", "FUBL learner: where the model is written.", "FILE"),
      valueOption("fubl-passes", "FUBL learner: the number of passes.", "N"),
      valueOption("fubl-seed", "FUBL learner: the seed (0: file order).", "S"),
      valueOption("fubl-page", "FUBL learner: the page to show: training, lexicon or evaluation.",
                  "PAGE"),
      valueOption("fubl-filter", "FUBL learner: the lexicon filter, a word or a constant.", "TEXT"),
      valueOption("fubl-open-model",
                  "FUBL learner: show a model file (gwb ccg train --out) in the lexicon browser "
                  "without training.",
                  "FILE"),
      valueOption("fubl-open",
                  "FUBL learner: after the run, open test sentence N (1-based) in the CCG tab.",
                  "N"),
      valueOption("screenshot",
                  "Show the window at 1280x800 (or --screenshot-size), save it as an image to "
                  "OUT and exit.",
                  "OUT.png"),
      valueOption("screenshot-size", "The window's size for --screenshot (default 1280x800).",
                  "WxH"),
      flagOption("no-session",
                 "Start without restoring the last session's tabs (e.g. when restoring them "
                 "keeps failing)."),
  };
}

// Reads the options' values, collecting the first error.
class Reader {
 public:
  explicit Reader(const QCommandLineParser& parser) : parser_(parser) {}

  bool isSet(const char* name) const { return parser_.isSet(QString::fromLatin1(name)); }
  QString value(const char* name) const { return parser_.value(QString::fromLatin1(name)); }
  QStringList values(const char* name) const { return parser_.values(QString::fromLatin1(name)); }
  std::optional<QString> optional(const char* name) const {
    if (!isSet(name)) return std::nullopt;
    return value(name);
  }

  std::optional<int> integer(const char* name, int least) {
    if (!isSet(name)) return std::nullopt;
    bool ok = false;
    const int number = value(name).toInt(&ok);
    if (ok && number >= least) return number;
    fail(name, least == 0 ? QStringLiteral("a whole number, 0 or more")
                          : QStringLiteral("a whole number, %1 or more").arg(least));
    return std::nullopt;
  }

  std::optional<double> positive(const char* name) {
    if (!isSet(name)) return std::nullopt;
    bool ok = false;
    const double number = value(name).toDouble(&ok);
    if (ok && number > 0.0) return number;
    fail(name, QStringLiteral("a number greater than 0"));
    return std::nullopt;
  }

  // One of `choices` (or unset: empty).
  QString choice(const char* name, const QStringList& choices) {
    const QString text = value(name);
    if (!isSet(name) || choices.contains(text)) return text;
    fail(name, QStringLiteral("one of %1").arg(choices.join(QStringLiteral(", "))));
    return {};
  }

  // N (a whole number), end, or (when `words`) word:K.
  std::optional<QString> position(const char* name, bool words) {
    const std::optional<QString> text = optional(name);
    if (!text || *text == QLatin1String("end")) return text;
    bool ok = false;
    if (words && text->startsWith(QLatin1String("word:"))) {
      const int k = text->mid(5).toInt(&ok);
      if (ok && k >= 0) return text;
    } else {
      text->toULongLong(&ok);
      if (ok) return text;
    }
    fail(name, words ? QStringLiteral("a number, end, or word:K") : QStringLiteral("N or end"));
    return std::nullopt;
  }

  void fail(const char* name, const QString& expected) {
    if (!error_.isEmpty()) return;
    error_ = QStringLiteral("--%1: expected %2, got \u201c%3\u201d")
                 .arg(QString::fromLatin1(name), expected, value(name));
  }
  const QString& error() const { return error_; }

 private:
  const QCommandLineParser& parser_;
  QString error_;
};

}  // namespace

GuiCommandLine parseGuiOptions(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Workbench for probabilistic grammars: Earley parsing, grammar induction, "
                     "grounded word learning and Dynamic Syntax."));
  const QCommandLineOption help = parser.addHelpOption();
  const QCommandLineOption version = parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("files"),
                               QStringLiteral("Grammar or corpus files to open, each in a tab."),
                               QStringLiteral("[FILE...]"));
  for (const QCommandLineOption& option : allOptions()) parser.addOption(option);

  GuiCommandLine result;
  if (!parser.parse(arguments)) {
    result.action = GuiCommandLine::Action::Error;
    result.text = parser.errorText();
    return result;
  }
  if (parser.isSet(help) || parser.isSet(QStringLiteral("help-all"))) {
    result.action = GuiCommandLine::Action::ShowHelp;
    result.text = parser.helpText();
    return result;
  }
  if (parser.isSet(version)) {
    result.action = GuiCommandLine::Action::ShowVersion;
    return result;
  }

  Reader read(parser);
  GuiOptions& o = result.options;
  o.files = parser.positionalArguments();
  o.root = read.value("root");
  o.noSession = read.isSet("no-session");
  o.screenshotPath = read.optional("screenshot");
  if (read.isSet("screenshot-size")) {
    const QStringList wh = read.value("screenshot-size").split(QLatin1Char('x'));
    bool okWidth = false;
    bool okHeight = false;
    const int width = wh.value(0).toInt(&okWidth);
    const int height = wh.value(1).toInt(&okHeight);
    if (wh.size() == 2 && okWidth && okHeight && width > 0 && height > 0) {
      o.screenshotSize = QSize(width, height);
    } else {
      read.fail("screenshot-size", QStringLiteral("WIDTHxHEIGHT in pixels, e.g. 1280x800"));
    }
  }
  o.view = read.choice("view", kGuiViews);

  o.sentence = read.optional("sentence");
  o.step = read.position("step", true);
  if (read.isSet("select")) {
    const QStringList at = read.value("select").split(QLatin1Char(':'));
    bool okSet = false;
    bool okIndex = false;
    const int set = at.value(0).toInt(&okSet);
    const int index = at.value(1).toInt(&okIndex);
    if (at.size() == 2 && okSet && okIndex && set >= 0 && index >= 0) {
      o.select = std::make_pair(set, index);
    } else {
      read.fail("select", QStringLiteral("SET:INDEX, two whole numbers"));
    }
  }
  o.agenda = read.position("agenda", false);
  o.agendaStrategy = read.value("agenda-strategy");
  if (!gwb::parseAgendaStrategy(o.agendaStrategy.toStdString()))
    read.fail("agenda-strategy", QStringLiteral("earley, predict-first, complete-first, "
                                                "scan-first, oldest, newest or random"));

  o.corpus = read.optional("corpus");
  o.gold = read.value("gold");
  o.recordings = read.value("recordings");
  o.annotations = read.values("annotations");
  o.decode = read.values("decode");
  o.recording = read.optional("recording");
  o.utterance = read.integer("utterance", 1);
  o.window = read.integer("window", 1);
  o.zoom = read.positive("zoom");
  o.compare = read.optional("compare");
  o.difference = read.isSet("difference");
  o.countsCorpus = read.optional("counts-corpus");
  o.values = read.choice(
      "values", {QStringLiteral("prob"), QStringLiteral("rescaled"), QStringLiteral("counts")});
  o.order = read.choice(
      "order", {QStringLiteral("grammar"), QStringLiteral("frequency"), QStringLiteral("cluster")});

  o.induceGrammar = read.optional("induce-grammar");
  o.induceCorpus = read.optional("induce-corpus");
  o.induce = read.values("induce");
  o.experiments = read.values("experiment");
  o.run = read.isSet("run");
  o.helpTopic = read.optional("help-topic");

  o.dsGrammar = read.value("ds-grammar");
  o.dsSentence = read.optional("ds-sentence");
  o.dsStep = read.position("ds-step", true);
  o.dsSelect = read.integer("ds-select", 0);
  o.dsBestFirst = read.isSet("ds-best-first");
  o.dsSeed = read.value("ds-seed");
  o.dsTrain = read.optional("ds-train");
  o.dsTest = read.optional("ds-test");
  o.dsLearnTab =
      read.choice("ds-learn-tab", {QStringLiteral("curve"), QStringLiteral("words"),
                                   QStringLiteral("test"), QStringLiteral("derivation")});
  o.dsWord = read.optional("ds-word");
  o.dsTestItem = read.integer("ds-test-item", 1);
  o.dsTop = read.integer("ds-top", 1);

  o.ccgLexicon = read.value("ccg-lexicon");
  o.ccgSentence = read.optional("ccg-sentence");
  o.ccgStep = read.optional("ccg-step");
  o.ccgCell = read.optional("ccg-cell");

  o.fublTrain = read.value("fubl-train");
  o.fublFixed = read.value("fubl-fixed");
  o.fublTest = read.value("fubl-test");
  o.fublModel = read.value("fubl-model");
  o.fublPasses = read.integer("fubl-passes", 1);
  o.fublSeed = read.integer("fubl-seed", 0);
  o.fublPage = read.choice("fubl-page", {QStringLiteral("training"), QStringLiteral("lexicon"),
                                         QStringLiteral("evaluation")});
  o.fublFilter = read.value("fubl-filter");
  o.fublOpen = read.integer("fubl-open", 1);
  o.fublOpenModel = read.value("fubl-open-model");

  if (!read.error().isEmpty()) {
    result.action = GuiCommandLine::Action::Error;
    result.text = read.error();
    result.options = GuiOptions();
  }
  return result;
}

}  // namespace gwb::ui
