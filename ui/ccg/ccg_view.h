// CcgView: the workbench's CCG tab (Kwiatkowski et al. 2011; docs/ccg.md, "Workbench"). Open a
// factored lexicon or a model from `gwb ccg train`, type or pick a sentence, parse it with the
// log-linear CKY parser (gwb/ccg/cky_parser.h), and look at the result three ways:
//
//   - the chart as a triangle of cells (CcgChartView), each showing its entry count; clicking a
//     cell lists its entries (category, logical form, inside and Viterbi scores, derivations,
//     pruned or kept);
//   - the k best derivations of the whole sentence with their scores, probabilities and
//     logical forms (and, when the sentence came from a file with logical forms, whether each
//     matches the annotation exactly);
//   - the derivation of a selected entry or parse in the standard proof layout (CcgProofView),
//     exportable as PNG, SVG, PDF or a LaTeX tabular.
//
// A stepper replays the CKY fill (gwb/ccg/cky_replay.h) step by step (one combinator
// application, lexical entry or pruning at a time) or cell by cell, forward and back; the chart
// then shows the cells as they stood, the entry list the entries made so far, and the proof the
// step's own derivation.
//
// Types: a lexicon `NAME.flex` with `NAME.types` and `NAME.lang` beside it is type-checked with
// them (samples/ccg/geography.*); otherwise with GeoQuery's geo-lambda.types/.lang from the shared
// data folder when it can be found; otherwise every lexeme × template pair with matching slots
// is an entry (the status line says which). A `NAME.ccg` beside the lexicon fills the sentence
// list. Lexicons are read on the UI thread (they are small); sentences parse on a worker thread
// (CcgParseJob, ui/ccg/ccg_parse_job.h) that Cancel stops between two chart cells
// (CkyOptions::cancel).
//
// A parse shows the shared JobProgressBar (ui/common/job_progress_bar.h) with its Cancel
// button while it runs, as the other views' jobs do.
//
// state()/restoreState() capture what a workspace keeps of the tab (ui/frame/workspace.h, kind
// "ccg"; the lexicon is the document's path, not part of the state): the sentence file, the
// sentence, k, the beam, composition and word skipping, whether it was parsed, the replay step
// (when not at the end), the selected cell, the shading, and the entry or parse whose
// derivation the proof shows. restoreState() parses again on the worker thread and restores the
// place when the parse is done; what no longer fits (a sentence file that is gone, a step, cell,
// entry or parse the new chart does not have) is said in the status line after "Workspace:".
//
// The view owns the lexicon, the chart and its derivations; the chart view and proof view only
// point into them, and are reset before a new parse result replaces them.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QJsonObject>
#include <QString>
#include <QWidget>

#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/cky_replay.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "ui/ccg/ccg_parse_job.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QToolButton;

namespace gwb::ui {

class CcgChartView;
class CcgProofView;
class JobProgressBar;

class CcgView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(CcgView)

 public:
  explicit CcgView(QWidget* parent = nullptr);
  ~CcgView() override;

  // Whether `path` looks like a CCG lexicon or model: suffix .flex or .ccgmodel, or a text whose
  // first line is `# gwb-ccg-model` or whose first other line starts with `lexeme `,
  // `template ` or `feature `.
  static bool isCcgLexiconFile(const QString& path);

  // Reads a lexicon or model (also from a Qt resource); false and the reason (file:line:col)
  // in *error and the status line on bad input — the view keeps its previous lexicon.
  bool openLexicon(const QString& path, QString* error = nullptr);
  QString lexiconPath() const { return lexiconPath_; }
  // Shows a learned model instead of a file (the FUBL learner's, fubl_view.h): `lexicon` with its
  // entries built, parsed with `parser` (its types, when set, are those of `types`, which the view
  // keeps alive), named `title`; `examples` fill the sentence list with their logical forms as
  // the annotations that parses are marked against. Then `sentence` (an index into `examples`,
  // -1: none) is chosen and parsed.
  void openModel(std::shared_ptr<gwb::ccg::FactoredLexicon> lexicon,
                 std::shared_ptr<const gwb::ccg::TypeSystem> types,
                 const gwb::ccg::CkyOptions& parser, const QString& title,
                 const std::vector<gwb::ccg::SemanticExample>& examples, int sentence = -1);
  const gwb::ccg::FactoredLexicon* lexicon() const { return lexicon_.get(); }
  // Sentences to pick from: a GeoQuery-style file (sentence line, logical-form line, blank) or
  // plain sentences, one a line.
  bool loadSentences(const QString& path, QString* error = nullptr);
  QStringList sentences() const;
  // The file loadSentences() last read (also when it could not: the workspace keeps it).
  QString sentencesPath() const { return sentencesPath_; }

  void setSentence(const QString& sentence);
  QString sentence() const;
  void setKBest(int k);
  int kBest() const;
  // Entries kept per chart cell (the lexicon's model sets it; default 200, as UBL's experiments).
  void setBeam(int beam);
  int beam() const;
  void setComposition(bool on);
  bool composition() const;
  // The paper's test-time word skipping (each skipped word costs the `skip` weight); off by
  // default.
  void setSkipWords(bool on);
  bool skipWords() const;

  // What a workspace keeps of the tab (see above), and restoring it (parses when it was parsed).
  QJsonObject state() const;
  void restoreState(const QJsonObject& state);

  // Starts parsing the sentence; false if there is no lexicon or sentence or a parse runs.
  bool parse();
  void cancelParse();
  bool isParsing() const { return parseJob_.isBusy(); }
  bool waitForParse(int milliseconds = 60000);
  // Tests: called on the worker thread before the chart is built (to cancel deterministically).
  void setParseHookForTesting(std::function<void()> hook) {
    parseJob_.setParseHookForTesting(std::move(hook));
  }

  const gwb::ccg::CkyChart* chart() const { return chart_.get(); }
  const std::vector<gwb::ccg::Derivation>& derivations() const { return derivations_; }
  const std::vector<gwb::ccg::CkyReplayStep>& steps() const { return steps_; }
  bool lastParseCancelled() const { return cancelled_; }

  CcgChartView* chartView() const { return chartView_; }
  CcgProofView* proofView() const { return proofView_; }
  QTableWidget* entryTable() const { return entryTable_; }
  QTableWidget* derivationTable() const { return derivationTable_; }
  QString statusText() const;
  QString stepText() const;

  // Selection: a cell of the chart, an entry of the selected cell (its row), a parse (rank 0..).
  void selectCell(int begin, int end);
  void selectEntry(int row);
  void selectDerivation(int rank);
  // What the proof shows: an entry of the selected cell (its row), a parse (its rank), or -1.
  int shownEntry() const { return shown_ == Shown::Entry ? shownIndex_ : -1; }
  int shownDerivation() const { return shown_ == Shown::Derivation ? shownIndex_ : -1; }
  std::pair<int, int> selectedCell() const { return cell_; }
  JobProgressBar* progressBar() const { return jobBar_; }

  // The stepper: position p shows the chart after steps 0..p-1; p == stepCount() (the default
  // after a parse) is the finished chart.
  int stepCount() const { return static_cast<int>(steps_.size()); }
  int stepPosition() const { return position_; }
  void goToStep(int position);
  void stepForward();
  void stepBack();
  void nextCell();
  void previousCell();
  // "end", a number of steps, or "cell:B-E" (the end of that cell's fill), as --ccg-step gives.
  bool goToStep(const QString& step);

  // The proof shown, by suffix: .png, .svg, .pdf, .tex.
  bool exportDerivation(const QString& path, QString* error = nullptr) const;

 signals:
  void parseFinished();

 private:
  void buildUi();
  void onParseDone();
  void clearResult();
  void showStep();
  void fillEntryTable();
  void fillDerivationTable();
  void updateActions();
  void setStatus(const QString& text);
  void chooseLexicon();
  void chooseSentences();
  void showExportDialog();
  void applyPendingState();
  void showNotice();

  CcgChartView* chartView_ = nullptr;
  CcgProofView* proofView_ = nullptr;
  QTableWidget* entryTable_ = nullptr;
  QTableWidget* derivationTable_ = nullptr;
  QLineEdit* lexiconEdit_ = nullptr;
  QComboBox* sentenceBox_ = nullptr;
  QSpinBox* kBox_ = nullptr;
  QSpinBox* beamBox_ = nullptr;
  QCheckBox* compositionBox_ = nullptr;
  QCheckBox* skipBox_ = nullptr;
  QComboBox* shadingBox_ = nullptr;
  QPushButton* parseButton_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QLabel* goldLabel_ = nullptr;
  QLabel* entriesTitle_ = nullptr;
  QLabel* proofTitle_ = nullptr;
  QLabel* stepLabel_ = nullptr;
  QLabel* stepCounter_ = nullptr;
  QToolButton* exportButton_ = nullptr;
  QToolButton* startButton_ = nullptr;
  QToolButton* previousCellButton_ = nullptr;
  QToolButton* backButton_ = nullptr;
  QToolButton* forwardButton_ = nullptr;
  QToolButton* nextCellButton_ = nullptr;
  QToolButton* endButton_ = nullptr;

  QString lexiconPath_;
  QString sentencesPath_;
  std::shared_ptr<gwb::ccg::FactoredLexicon> lexicon_;
  gwb::ccg::CkyOptions parserOptions_;
  std::shared_ptr<const gwb::ccg::TypeSystem> modelTypes_;  // openModel's, for parserOptions_
  QString typesNote_;
  QString status_;      // what the status line shows: baseStatus_, then the notice if any
  QString baseStatus_;  // the last setStatus() text
  int usedBeam_ = 0;    // the beam of the parse shown

  // The shown parse: the lexicon it was parsed with (the chart points into it), the chart, its
  // k best derivations and its replay.
  std::shared_ptr<const gwb::ccg::FactoredLexicon> parsedLexicon_;
  std::shared_ptr<const gwb::ccg::CkyChart> chart_;
  std::vector<gwb::ccg::Derivation> derivations_;
  std::vector<gwb::ccg::CkyReplayStep> steps_;
  bool cancelled_ = false;
  int position_ = 0;
  std::pair<int, int> cell_{-1, -1};
  // What the proof shows (kept in a workspace): an entry of cell_, a parse, or a replay step.
  enum class Shown { Nothing, Entry, Derivation, Step };
  Shown shown_ = Shown::Nothing;
  int shownIndex_ = -1;
  std::pair<int, int> shownCell_{-1, -1};    // Shown::Entry: the entry's cell
  std::optional<QJsonObject> pendingState_;  // restoreState(): applied after its parse
  QString notice_;        // what restoreState() could not restore; shown after the status
  CcgParseJob parseJob_;  // last: cancelled and joined first
};

}  // namespace gwb::ui
