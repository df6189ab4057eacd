// DiscourseView: discourse segmentations of a social-cue corpus side by side (Luong, Frank &
// Johnson 2013, section 7.4) — the Research ▸ Discourse segmentation window.
//
// It holds a DiscourseData (corpus, gold, recordings and label rows) and shows one recording at
// a time (the combo box) as a DiscourseTimeline: gold first, then annotation files (one row per
// annotator), then one row per grammar decoded (topics read off its Viterbi parses: a discourse
// grammar parses each recording as one string, a sentence grammar each utterance). Decoding runs
// on a worker thread with a progress bar and Cancel; the rows and metrics update when it ends.
// Under the timeline: a legend of the recording's topics (the TopicPalette's colours), the
// hovered or clicked utterance described (words, objects and cues, every row's label), and the
// metrics table (SegmentationMetricsModel) for every pair of rows — this recording and pooled,
// or with "All recordings" the CLI's whole output — with the window k editable ("default":
// segeval's, per recording) and a CSV export. Clicking an utterance opens its parse under a model
// row (the clicked row, else the first model) in a dialog with the tree view; the dialog's "Open
// in stepper" asks the main window (parseRequested) to parse it in an Earley stepper. Right-click
// a row's name to remove the row.
//
// state()/restoreState() are what a workspace keeps (workspace.h, kind "discourse"): the corpus,
// gold and recordings files, the rows in order (annotation rows by file and annotator; model
// rows by grammar file and start symbol, decoded again on restore one after another on the
// worker thread), the recording shown, the window k, "All recordings", the table's convention
// and the zoom. A restore that can only partly succeed (a file gone, a grammar that no longer
// reads) keeps what it could and says what it could not in the status line (restoreNotice()).
#pragma once

#include <deque>
#include <memory>
#include <optional>

#include <QJsonObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "ui/common/job_progress_bar.h"
#include "ui/grounded/discourse_data.h"
#include "ui/grounded/discourse_decoding_job.h"
#include "ui/grounded/segmentation_table.h"
#include "ui/grounded/topic_palette.h"

class QCheckBox;
class QComboBox;
class QDialog;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableView;

namespace gwb::ui {

class DiscourseTimeline;
class ParseTreeView;

class DiscourseView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DiscourseView)

 public:
  explicit DiscourseView(QWidget* parent = nullptr);
  ~DiscourseView() override;

  // Loads a corpus with its gold annotation and recordings table (either may be empty). False
  // and *error (file:line: message lines) when it cannot be used; the view is unchanged then.
  bool loadCorpus(const QString& corpusPath, const QString& goldPath, const QString& recordingsPath,
                  QString* error = nullptr);
  // Replaces the data (tests).
  void setData(DiscourseData data);
  const DiscourseData& data() const { return data_; }
  // Adds a row per annotator of a topic annotation file.
  bool addAnnotationFile(const QString& path, QString* error = nullptr);
  // Starts decoding the corpus with a grammar file on a worker thread (root: empty for the
  // file's default). False when a decoding is already running or nothing is loaded.
  bool decodeGrammar(const QString& grammarPath, const QString& root = QString());
  bool isDecoding() const;
  void cancelDecoding();
  // Blocks until the decoding ends (tests, screenshots); true if it ended in time.
  bool waitForDecoding(int milliseconds);
  void removeRow(int row);

  void setRecording(int recording);
  int recording() const;
  bool setRecording(const QString& id);
  // nullopt: segeval's default window per recording.
  void setWindow(std::optional<int> k);
  std::optional<int> window() const;
  void setAllRecordings(bool all);
  // The agreement table's convention (agreement % or error rates; one per table).
  void setConvention(SegmentationMetricsModel::Convention convention);
  SegmentationMetricsModel::Convention convention() const;
  void showUtterance(int utterance);  // within the current recording, 0-based

  DiscourseTimeline* timeline() const { return timeline_; }
  SegmentationMetricsModel* metricsModel() const { return metrics_; }
  QTableView* metricsTable() const { return table_; }
  const TopicPalette& palette() const { return palette_; }
  QComboBox* recordingBox() const { return recordingBox_; }
  QSpinBox* windowBox() const { return windowBox_; }
  QLabel* detailsLabel() const { return details_; }
  QLabel* legendLabel() const { return legend_; }
  // The parse dialog of the last click (null before the first).
  QDialog* parseDialog() const { return parseDialog_; }
  ParseTreeView* parseTreeView() const { return parseTree_; }
  // Opens the parse of the recording's utterance under row `row` (-1: the first model row).
  // False, with a message in the details, when no model row has a parse for it.
  bool openParse(int row, int utterance);

  bool exportMetricsCsv(const QString& path, QString* error = nullptr) const;
  QString statusText() const;

  QJsonObject state() const;
  void restoreState(const QJsonObject& state);
  // Rows still to be restored (decodings waiting for their turn).
  bool isRestoring() const { return !restoreQueue_.empty() || restoring_; }
  const QString& restoreNotice() const { return notice_; }

 signals:
  // Parse `text` with the grammar at `grammarPath` (start symbol `root`) in an Earley stepper.
  void parseRequested(const QString& grammarPath, const QString& root, const QString& text);
  void decodingFinished();

 private:
  void chooseCorpusFiles();
  void chooseAnnotationFiles();
  void chooseGrammar();
  void chooseMetricsExport();
  void dataChanged();
  void updateLegend();
  void updateMetrics();
  void updateDetails(int utterance);
  void onDecodingDone();
  void showMessage(const QString& text);
  void continueRestore();
  void finishRestore();

  DiscourseData data_;
  TopicPalette palette_;
  QString corpusPath_;
  QString goldPath_;
  QString recordingsPath_;

  QComboBox* recordingBox_ = nullptr;
  QSlider* zoomSlider_ = nullptr;
  QSpinBox* gotoBox_ = nullptr;
  JobProgressBar* jobBar_ = nullptr;
  QPushButton* decodeButton_ = nullptr;
  DiscourseTimeline* timeline_ = nullptr;
  QLabel* legend_ = nullptr;
  QLabel* details_ = nullptr;
  QLabel* status_ = nullptr;
  QSpinBox* windowBox_ = nullptr;
  QCheckBox* allRecordingsBox_ = nullptr;
  QComboBox* conventionBox_ = nullptr;
  QLabel* metricsTitle_ = nullptr;
  SegmentationMetricsModel* metrics_ = nullptr;
  QTableView* table_ = nullptr;
  QPointer<QDialog> parseDialog_;
  ParseTreeView* parseTree_ = nullptr;

  // The last decoding's error (worker_ is the last member: it reads data_ and is joined first).
  QString decodeError_;

  // restoreState(): the saved rows not yet restored, and what could not be.
  std::deque<QJsonObject> restoreQueue_;
  std::optional<QJsonObject> restoringRow_;  // the saved model row being decoded
  bool restoring_ = false;
  QStringList restoreProblems_;
  QString notice_;
  DiscourseDecodingJob worker_;  // last: cancelled and joined first
};

}  // namespace gwb::ui
