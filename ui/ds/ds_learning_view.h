// DsLearningView: the workbench's DS lexicon-induction panel (Eshghi, Hough & Purver 2013,
// sections 3–4) — learn a probabilistic lexicon from sentences paired with record types, and see
// what was learned and why.
//
// Top: the seed grammar folder and the training file (each with a chooser), Learn, the top-N of
// the saved and parsed lexicons, Save…, and the run's progress bar with Cancel (the run is a
// DsLearningJob, off the UI thread). Four tabs:
//   - Learning curve: after each training item, core's running figures (LearningObserver):
//     lexicon size (distinct word hypotheses, left axis) and mean hypotheses per item (right
//     axis) against items seen; below, the items' notes (budget hit, no tuple).
//   - Words: pick a word; a bar per hypothesis, most probable first, its height θ_w(h) as the
//     learner holds it; the selected hypothesis's IF/THEN/ELSE action and its training items.
//   - Test item: the test file's items (default: the training file); selecting one parses it
//     best-first with the seed grammar and the learned top-N lexicon and scores it (core's
//     evaluateItem), gold and parsed record types side by side, field by field, coloured by the
//     maxMapping alignment (alignFields: matched, partial, missing, extra). "Open in DS stepper"
//     sends the item and the learned grammar to a DS stepper tab (openInStepper()).
//   - Derivation: a hypothesis's action sequence in a training item it came from (its
//     provenance): core's HypothesisSearch::derivation replayed as DAG edges in the DS DAG view,
//     every tree and step drawn, and the steps listed with the hypothesis's own highlighted.
// Parsing a test item and tracing a derivation run on a second BackgroundJob; a request made
// while one runs waits for it and then runs (only the latest).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QColor>
#include <QJsonObject>
#include <QPointF>
#include <QString>
#include <QVector>
#include <QWidget>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/hypothesis_search.h"
#include "gwb/ds/lexicon_em.h"
#include "gwb/ds/lexicon_evaluation.h"
#include "gwb/ds/max_mapping.h"
#include "gwb/ds/semantic_corpus.h"
#include "ui/common/background_job.h"
#include "ui/ds/ds_learning_job.h"

class QComboBox;
class QCPBars;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace gwb::ui {

class DsDagModel;
class DsDagView;
class JobProgressBar;

class DsLearningView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsLearningView)

 public:
  enum Tab { CurveTab, WordsTab, TestTab, DerivationTab };

  explicit DsLearningView(QWidget* parent = nullptr);
  ~DsLearningView() override;

  // The DyLan 2013 induction seed in the shared data folder, if it can be found; empty otherwise.
  static QString defaultSeedDirectory();
  // The colour a field of the alignment is shown in.
  static QColor matchColor(gwb::ds::FieldMatch match);

  void setSeedDirectory(const QString& directory);
  QString seedDirectory() const;
  void setTrainPath(const QString& path);
  QString trainPath() const;
  void setTestPath(const QString& path);  // empty: the training file
  QString testPath() const;
  void setTop(int top);  // 1..5: the lexicons saved, and the one test items are parsed with
  int top() const;
  void showTab(Tab tab);

  // Learning. startLearning() is false (with the reason in the status line) when a run is busy
  // or an input is missing.
  bool startLearning();
  bool isLearning() const;
  bool waitForLearning(int milliseconds = 600000);
  DsLearningJob* job() const { return job_; }
  // The last finished run's lexicon (null before one).
  const gwb::ds::IncrementalEm* lexicon() const { return em_.get(); }
  // Writes lexicon.lex-top-1..N.txt and hypotheses.tsv into `directory` (created if needed).
  bool saveLexicons(const QString& directory, QString* error = nullptr) const;

  // The curve as plotted: (items seen, value) per point.
  QVector<QPointF> lexiconSizePoints() const;
  QVector<QPointF> meanHypothesesPoints() const;
  QString notesText() const;

  // Words.
  QStringList words() const;  // as listed
  bool selectWord(const QString& word);
  QString selectedWord() const;
  // The bars as drawn, left to right (probabilities), and the hypothesis id of each.
  QVector<double> barValues() const;
  std::vector<int> barHypotheses() const;
  void selectHypothesis(int rank);                        // 0-based among the word's bars
  int selectedHypothesis() const { return hypothesis_; }  // id, -1: none
  QString actionText() const;

  // Test items (of the test file, read when a lexicon is learned or the path changes).
  int testItemCount() const;
  bool selectTestItem(int index);
  // The selected item's evaluation (null until it is done) and its alignment, as shown.
  const gwb::ds::ItemEvaluation* evaluation() const;
  const gwb::ds::FieldAlignment& alignment() const { return alignment_; }
  QTableWidget* goldTable() const { return goldTable_; }
  QTableWidget* parsedTable() const { return parsedTable_; }
  QString scoreText() const;
  // The grammar test items are parsed with (the seed with the learned top-N lexicon); null
  // until the first item is parsed.
  std::shared_ptr<const gwb::ds::DsGrammar> learnedGrammar() const { return learnedGrammar_; }

  // Derivations: of hypothesis `id` in training item `item` (0-based; -1: its first).
  bool showDerivation(int id, int item = -1);
  const gwb::ds::HypothesisDerivation* derivation() const;
  DsDagModel* dagModel() const { return dagModel_; }
  DsDagView* dagView() const { return dagView_; }
  QTableWidget* stepsTable() const { return stepsTable_; }

  // The selected test item (-1: none) and the tab shown.
  int selectedTestItem() const;
  Tab currentTab() const;

  // Workspace (document kind "ds-learn"; the training file is the document's path): the seed
  // folder ("seed"), the test file ("test", when one is set), "top", the tab shown ("tab":
  // "curve", "words", "test" or "derivation"), whether a lexicon had been learned ("learned"),
  // the selected word ("word") and test item ("testItem", 0-based). restoreState() fills the
  // form; a training file, seed folder or test file that is gone is named in the status line
  // after "Workspace:" and nothing is learned; otherwise, when the saved tab had learned, it
  // learns again (off the UI thread) and then selects the saved word and test item, each only
  // if the new lexicon and test file still have it (the status line says when not).
  QJsonObject state() const;
  void restoreState(const QString& trainPath, const QJsonObject& state);

  // Parsing an item or tracing a derivation.
  bool isInspecting() const { return inspect_.isBusy() || pending_ != nullptr; }
  bool waitForInspection(int milliseconds = 600000);
  QString statusText() const;

 signals:
  void learningFinished();
  void inspectionFinished();
  // "Open in DS stepper": parse `sentence` with `grammar` (the seed folder `directory` with the
  // learned lexicon).
  void openInStepper(std::shared_ptr<const gwb::ds::DsGrammar> grammar, const QString& directory,
                     const QString& sentence);

 private:
  struct Request;
  void buildUi();
  QWidget* buildCurveTab();
  QWidget* buildWordsTab();
  QWidget* buildTestTab();
  QWidget* buildDerivationTab();
  void onLoaded(qint64 items);
  void onItemLearned(const LearningPoint& point);
  void onLearningFinished();
  void applyRestoredSelection(const QJsonObject& state);
  void fillWords();
  void fillHypothesis();
  void readTestItems();
  void submit(std::shared_ptr<Request> request);
  void onInspectionDone();
  void showEvaluation();
  void showDerivationResult();
  static void fillAlignmentTable(QTableWidget* table,
                                 const std::vector<gwb::ds::AlignedField>& fields);
  void setStatus(const QString& text);
  void chooseSeed();
  void chooseTrain();
  void chooseTest();
  void chooseSaveFolder();

  QLineEdit* seedEdit_ = nullptr;
  QLineEdit* trainEdit_ = nullptr;
  QLineEdit* testEdit_ = nullptr;
  QSpinBox* topBox_ = nullptr;
  QPushButton* learnButton_ = nullptr;
  QPushButton* saveButton_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QTabWidget* tabs_ = nullptr;

  QCustomPlot* curvePlot_ = nullptr;
  QCPGraph* sizeGraph_ = nullptr;
  QCPGraph* meanGraph_ = nullptr;
  QPlainTextEdit* notes_ = nullptr;

  QListWidget* wordList_ = nullptr;
  QCustomPlot* barPlot_ = nullptr;
  QCPBars* bars_ = nullptr;
  QTableWidget* hypothesisTable_ = nullptr;
  QPlainTextEdit* actionPane_ = nullptr;
  QPushButton* deriveButton_ = nullptr;
  std::vector<int> barIds_;
  int hypothesis_ = -1;

  QListWidget* testList_ = nullptr;
  QTableWidget* goldTable_ = nullptr;
  QTableWidget* parsedTable_ = nullptr;
  QLabel* scoreLabel_ = nullptr;
  QPushButton* stepperButton_ = nullptr;
  std::vector<gwb::ds::SemanticExample> testItems_;
  std::optional<gwb::ds::ItemEvaluation> evaluation_;
  gwb::ds::FieldAlignment alignment_;

  QLabel* derivationTitle_ = nullptr;
  QComboBox* derivationItems_ = nullptr;
  DsDagModel* dagModel_ = nullptr;
  DsDagView* dagView_ = nullptr;
  QTableWidget* stepsTable_ = nullptr;
  std::optional<gwb::ds::HypothesisDerivation> derivation_;

  // The last finished run's products, shared with the inspection job's work.
  std::shared_ptr<const gwb::ds::IncrementalEm> em_;
  std::shared_ptr<const gwb::ds::DsGrammar> seed_;
  std::shared_ptr<const std::vector<gwb::ds::SemanticExample>> corpus_;
  gwb::ds::HypothesisSearchOptions searchOptions_;
  QString learnedSeedDirectory_;
  std::shared_ptr<const gwb::ds::DsGrammar> learnedGrammar_;
  int learnedTop_ = 0;
  QString status_;
  std::optional<QJsonObject> restoring_;  // a workspace view to apply once learning finishes

  std::shared_ptr<Request> running_;
  std::shared_ptr<Request> pending_;
  DsLearningJob* job_ = nullptr;                             // child: deleted with the view
  BackgroundJob inspect_{QStringLiteral("gwb-ds-inspect")};  // last: joined first
};

}  // namespace gwb::ui
