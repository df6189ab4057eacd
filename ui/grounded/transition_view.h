// TransitionView: the topic-transition matrix of a discourse grammar as a heatmap — the
// Research ▸ Topic transitions window (Luong, Frank & Johnson 2013, section 7.1).
//
// A QCPColorMap with one cell per (from t, to t'): rows are the topic the discourse is on, columns
// the topic it moves to, so the matrix reads as printed (row 0 at the top: the y axis is
// reversed; both axes span [−0.5, n − 0.5] so every cell is whole, and carry the topic names).
// The values (transition_matrix.h) are the rule probabilities, the rows rescaled to sum to one,
// or expected counts over a corpus's recordings (computed on a worker thread once a corpus is
// given; Cancel stops it). The colour scale beside the map is sequential from near-white to dark
// red, so the largest cells stand out on the white page; with a second grammar loaded, the
// difference view shows first − second on a diverging blue–white–red scale centred on 0. Topics
// are in grammar order, by frequency or clustered. Hovering a cell shows the rule probability, the
// rescaled probability and the expected count where known (for both grammars in the difference
// view). A caption at the top of the plot names the grammar file(s) and the settings (values,
// order, the corpus counted over), so that every export says what it shows: PNG and PDF carry it
// as the plot's title, CSV as a first "# " comment line before the matrix (in the shown order).
//
// state()/restoreState() are what a workspace keeps (workspace.h, kind "transitions"): the
// grammar and comparison files, values, order, difference view, and the corpus and recordings
// counted over. A restore that can only partly succeed (a file gone) does what it can and says
// what it could not in the status line (restoreNotice()).
//
// For tests: matrix() and topics() are what the map shows (matrix(i, j) is the cell at column
// position j, row position i of `order()`), and cellValue reads the QCPColorMap back.
#pragma once

#include <memory>
#include <optional>

#include <QString>
#include <QWidget>

#include "gwb/earley/grammar.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_transitions.h"
#include "ui/common/job_progress_bar.h"
#include "ui/grounded/transition_count_job.h"
#include "ui/grounded/transition_matrix.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPTextElement;
class QJsonObject;
class QLabel;
class QMouseEvent;
class QPushButton;

namespace gwb::ui {

class TransitionView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(TransitionView)

 public:
  explicit TransitionView(QWidget* parent = nullptr);
  ~TransitionView() override;

  // The grammar to show (slot 0) and the one to compare with (slot 1). False and *error when
  // the grammar has no Discourse.t → Sentence.t Discourse.t' rule or cannot be read.
  bool setGrammar(std::shared_ptr<const gwb::Grammar> grammar, const QString& name,
                  QString* error = nullptr);
  bool setComparison(std::shared_ptr<const gwb::Grammar> grammar, const QString& name,
                     QString* error = nullptr);
  bool loadGrammarFile(const QString& path, QString* error = nullptr);
  // The file the shown grammar was read from (loadGrammarFile, or set by the caller of
  // setGrammar); empty when unknown. Kept in workspaces.
  void setGrammarPath(const QString& path) { first_.path = path; }
  const QString& grammarPath() const { return first_.path; }
  bool loadComparisonFile(const QString& path, QString* error = nullptr);
  void clearComparison();
  bool hasComparison() const { return static_cast<bool>(second_.transitions); }

  // Expected counts: reads the corpus and recordings and starts counting on a worker thread.
  bool setCorpus(const QString& corpusPath, const QString& recordingsPath,
                 QString* error = nullptr);
  bool isCounting() const { return worker_.isBusy(); }
  bool waitForCounts(int milliseconds);
  void cancelCounting();
  bool hasCounts() const { return static_cast<bool>(first_.counts); }

  void setValues(TransitionValues values);
  TransitionValues values() const { return values_; }
  void setOrder(TopicOrder order);
  TopicOrder order() const { return order_; }
  void setDifference(bool difference);
  bool difference() const { return difference_; }

  // What is shown: topics in grammar order (the union in the difference view), the matrix over
  // them, and the display order (a permutation: position → topic index).
  const std::vector<std::string>& topics() const { return topics_; }
  const Eigen::MatrixXd& matrix() const { return matrix_; }
  const std::vector<std::size_t>& displayOrder() const { return displayOrder_; }
  // The colour map's value at display position (row, column).
  double cellValue(int row, int column) const;
  // The hover text of a display cell.
  QString cellToolTip(int row, int column) const;
  // The display cell under a widget position of the plot (nullopt: outside the map).
  std::optional<std::pair<int, int>> cellAt(const QPointF& plotPosition) const;

  QString csvText() const;
  // The plot's caption: grammar file (and comparison), values, order, corpus counted over.
  QString captionText() const;

  QJsonObject state() const;
  void restoreState(const QJsonObject& state);
  const QString& restoreNotice() const { return notice_; }
  // By extension: .csv, .png, .pdf.
  bool exportFile(const QString& path, QString* error = nullptr);

  QCustomPlot* plot() const { return plot_; }
  QCPColorMap* colorMap() const { return map_; }
  QCPColorScale* colorScale() const { return scale_; }
  QComboBox* valuesBox() const { return valuesBox_; }
  QComboBox* orderBox() const { return orderBox_; }
  QCheckBox* differenceBox() const { return differenceBox_; }
  QString statusText() const;

 signals:
  void countsFinished();

 private:
  struct Source {
    std::shared_ptr<const gwb::Grammar> grammar;
    QString name;
    QString path;
    std::optional<gwb::TopicTransitions> transitions;
    std::shared_ptr<TransitionCounts> counts;
  };
  bool setSource(Source& source, std::shared_ptr<const gwb::Grammar> grammar, const QString& name,
                 QString* error);
  // Reads a grammar file; on failure says why in *error and in the status line.
  std::shared_ptr<const gwb::Grammar> readGrammar(const QString& path, QString* error);
  void startCounting();
  void onCountingDone();
  void rebuild();
  void onMouseMove(QMouseEvent* event);
  void chooseGrammar(bool comparison);
  void chooseCorpus();
  void chooseExport();
  // Value of a source's matrix for two topics (nullopt when the source lacks one of them).
  std::optional<double> sourceValue(const Source& source, TransitionValues values,
                                    const std::string& from, const std::string& to) const;

  Source first_;
  Source second_;
  TransitionValues values_ = TransitionValues::RuleProbabilities;
  TopicOrder order_ = TopicOrder::Grammar;
  bool difference_ = false;

  std::vector<std::string> topics_;
  Eigen::MatrixXd matrix_;
  std::vector<std::size_t> displayOrder_;

  gwb::SocialCorpus corpus_;
  std::vector<gwb::Recording> recordings_;
  bool haveCorpus_ = false;
  QString corpusPath_;
  QString recordingsPath_;
  QString notice_;
  QString frequencyNote_;  // why the frequency order uses the stationary distribution, if it does

  QCustomPlot* plot_ = nullptr;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  QComboBox* valuesBox_ = nullptr;
  QComboBox* orderBox_ = nullptr;
  QCheckBox* differenceBox_ = nullptr;
  QLabel* title_ = nullptr;
  QCPTextElement* caption_ = nullptr;
  QLabel* status_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;

  // Last: it reads corpus_ and recordings_, and is cancelled and joined first.
  TransitionCountJob worker_;
};

}  // namespace gwb::ui
