// FublView: the workbench's FUBL learner (Kwiatkowski et al. 2011; docs/ccg.md, "Workbench:
// learning a lexicon") — train a factored CCG semantic parser on sentence / logical-form pairs,
// watch it learn, and look at what it learned. Three pages:
//
//   - Training: the training file, a fixed entity lexicon, a test file, where the model goes,
//     the passes and the seed; Train runs core's FublLearner off the UI thread
//     (FublTrainingJob) with a progress bar and Cancel (JobProgressBar), a live curve of
//     training accuracy and lexicon size per pass (FublTrainingPlot) and a table of the passes.
//     The model is written after every finished pass (core's saveCcgModel, atomically).
//   - Lexicon: the learned lexicon (or a model file opened with Open model…, without training:
//     openModelFile) — its lexeme × template pairs as a sortable table
//     (FublLexiconModel through FublLexiconFilter) and as a heatmap of the pair weights
//     (FublPairHeatmap), filtered by a word or a constant; the templates of the selected
//     lexeme with their weights; and, for a chosen test sentence, every lexical entry of its
//     phrases (core's sentenceEntries), those in its best parse marked (the parse runs on a
//     worker thread).
//   - Evaluation: core's exact-match evaluation of the model on the test file (recall,
//     precision, F1), one row per sentence — ✓ or ✗, the predicted and the gold logical form
//     side by side, and for a wrong answer why (core's GoldDiagnosis: gold outscored, pruned
//     from the chart, or not derivable from the lexicon); wrong answers can be shown alone.
//     Double-clicking a row asks for the sentence in the CCG tab with the learned model
//     (openSentenceRequested; the main window opens it with CcgView::openModel, where the parses
//     are marked against the gold form).
//
// The view owns the shown model (lexicon, types, parser settings, test sentences and their
// evaluation) — taken from the job when a run ends (the last finished pass's model after a
// cancel, without an evaluation) — and hands shared pointers to whoever opens a sentence.
#pragma once

#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include <QJsonObject>
#include <QString>
#include <QWidget>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "ui/ccg/ccg_parse_job.h"
#include "ui/ccg/fubl_lexicon_model.h"
#include "ui/ccg/fubl_training_job.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace gwb::ui {

class FublPairHeatmap;
class FublTrainingPlot;
class JobProgressBar;

class FublView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(FublView)

 public:
  explicit FublView(QWidget* parent = nullptr);
  ~FublView() override;

  // The form.
  void setSettings(const FublTrainingSettings& settings);
  FublTrainingSettings settings() const;

  // Starts a run with the form's settings; false (with the reason in the status line) when one
  // runs or no training file is given.
  bool startTraining();
  void cancelTraining();
  bool isTraining() const;
  // Tests: waits until the run has ended and its reports are delivered.
  bool waitForTraining(int milliseconds = 600000);
  FublTrainingJob& job() { return job_; }

  // Opens a model file (`gwb ccg train --out`, or one a run saved) in the lexicon browser without
  // training: its lexicon, weights and parser settings; types found as training finds them
  // (beside the model, else beside the form's training file: findCcgTypeFiles), else none; the
  // sentences of the form's test file (else training file) when they read. Not evaluated. False,
  // with the reader's file:line:col error in *error and the status line, on a bad or missing
  // file (the view keeps what it showed) or while training runs.
  bool openModelFile(const QString& path, QString* error = nullptr);
  // The file of the model shown: the one opened, or the one the last run saved (empty: none).
  QString shownModelPath() const { return shownModelPath_; }

  // What a workspace keeps of the tab (ui/frame/workspace.h, kind "fubl"): the form's files
  // ("training" — also the document's path —, "fixed", "test", "model"; absolute here, relative
  // in the file), passes and seed, the page shown, the lexicon filter and its mode, and
  // "shownModel", the model file shown when one was saved or opened. restoreState() fills the
  // form and opens that model in the browser; a file that is gone (or a model that no longer
  // reads) is named in the status line after "Workspace:", and the rest opens.
  QJsonObject state() const;
  void restoreState(const QJsonObject& state);

  // The model shown (null before a run has finished a pass).
  std::shared_ptr<gwb::ccg::FactoredLexicon> model() const { return model_; }
  std::shared_ptr<const gwb::ccg::TypeSystem> types() const { return types_; }
  const gwb::ccg::CkyOptions& parserOptions() const { return parser_; }
  const std::vector<gwb::ccg::SemanticExample>& testExamples() const { return test_; }
  const gwb::ccg::EvaluationResult& evaluation() const { return evaluation_; }
  bool hasEvaluation() const { return evaluated_; }

  // Lexicon page.
  void setFilter(const QString& text, FublLexiconFilter::Mode mode);
  // Shows the templates of `lexeme` (an index into the model) with their weights.
  void selectLexeme(int lexeme);
  int selectedLexeme() const { return selectedLexeme_; }
  // Lists the entries of test sentence `index` and parses it on a worker thread to mark those of
  // its best parse; waitForSentenceParse delivers that (tests).
  void selectTestSentence(int index);
  bool waitForSentenceParse(int milliseconds = 60000);

  // Evaluation page: only the wrong answers, or all.
  void setShowOnlyWrong(bool wrong);
  // The test sentence of evaluation row `row` (-1 when none).
  int testIndexOfEvaluationRow(int row) const;
  // Emits openSentenceRequested for test sentence `index`; false without a model.
  bool openTestSentence(int index);

  QTabWidget* pages() const { return pages_; }
  FublTrainingPlot* trainingPlot() const { return plot_; }
  JobProgressBar* progressBar() const { return progress_; }
  QTableWidget* passTable() const { return passTable_; }
  QTableView* lexiconTable() const { return lexiconTable_; }
  FublLexiconModel* lexiconModel() const { return lexiconModel_; }
  FublLexiconFilter* lexiconFilter() const { return lexiconFilter_; }
  FublPairHeatmap* heatmap() const { return heatmap_; }
  QTableWidget* lexemeTemplateTable() const { return lexemeTemplates_; }
  QTableWidget* sentenceEntryTable() const { return sentenceEntries_; }
  QTableWidget* evaluationTable() const { return evaluationTable_; }
  QString statusText() const;
  QLabel* lexiconStatusLabel() const { return lexiconStatus_; }
  QString scoresText() const;

 signals:
  // The user asked to see test sentence `index` in the CCG tab with the model.
  void openSentenceRequested(int index);
  void trainingFinished();

 private:
  void buildUi();
  QWidget* buildTrainingPage();
  QWidget* buildLexiconPage();
  QWidget* buildEvaluationPage();
  void onLoaded(int examples, int lexemes, int templates);
  void onPassFinished(const gwb::ccg::PassSummary& summary);
  void onTrainingFinished();
  void showModel();
  void fillEvaluationTable();
  void fillSentenceEntries();
  void onSentenceParsed();
  void applyFilter();
  void setStatus(const QString& text);
  void choosePath(QLineEdit* edit, const QString& title, const QString& filter, bool save);
  void chooseModelFile();

  QTabWidget* pages_ = nullptr;
  QLineEdit* trainingEdit_ = nullptr;
  QLineEdit* fixedEdit_ = nullptr;
  QLineEdit* testEdit_ = nullptr;
  QLineEdit* modelEdit_ = nullptr;
  QSpinBox* passesBox_ = nullptr;
  QSpinBox* seedBox_ = nullptr;
  QDoubleSpinBox* coolingBox_ = nullptr;
  QCheckBox* keepLexiconBox_ = nullptr;
  QCheckBox* averageWeightsBox_ = nullptr;
  QDoubleSpinBox* keepPosteriorBox_ = nullptr;
  QPushButton* trainButton_ = nullptr;
  JobProgressBar* progress_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  FublTrainingPlot* plot_ = nullptr;
  QTableWidget* passTable_ = nullptr;

  QLineEdit* filterEdit_ = nullptr;
  QComboBox* filterMode_ = nullptr;
  QLabel* lexiconCount_ = nullptr;
  QLabel* lexiconStatus_ = nullptr;  // the status line, repeated on the lexicon page
  QTableView* lexiconTable_ = nullptr;
  FublLexiconModel* lexiconModel_ = nullptr;
  FublLexiconFilter* lexiconFilter_ = nullptr;
  FublPairHeatmap* heatmap_ = nullptr;
  QLabel* lexemeTitle_ = nullptr;
  QTableWidget* lexemeTemplates_ = nullptr;
  QComboBox* sentenceBox_ = nullptr;
  QTableWidget* sentenceEntries_ = nullptr;

  QLabel* scoresLabel_ = nullptr;
  QCheckBox* onlyWrongBox_ = nullptr;
  QTableWidget* evaluationTable_ = nullptr;

  QString status_;
  QString shownModelPath_;
  std::shared_ptr<gwb::ccg::FactoredLexicon> model_;
  std::shared_ptr<const gwb::ccg::TypeSystem> types_;
  gwb::ccg::CkyOptions parser_;
  std::vector<gwb::ccg::SemanticExample> test_;
  gwb::ccg::EvaluationResult evaluation_;
  bool evaluated_ = false;
  int selectedLexeme_ = -1;
  int selectedSentence_ = -1;
  std::vector<gwb::ccg::SpanEntry> spanEntries_;  // of the selected sentence, into model_
  // The selected test sentence's best parse (CcgParseJob, as the CCG tab parses): the sentence
  // the job runs for, the one whose best derivation's lexical steps — (begin, end, lexeme,
  // template) — are in bestLeaves_ (-1: none yet; empty when it has no parse).
  int parsingSentence_ = -1;
  int parsedSentence_ = -1;
  std::set<std::tuple<int, int, int, int>> bestLeaves_;
  FublTrainingJob job_;
  CcgParseJob sentenceJob_;  // last: cancelled and joined first
};

}  // namespace gwb::ui
