// Segmentation agreement between every two rows of the discourse view: a=b, Pk and WindowDiff
// (core's segmentation.h) per recording, pooled and averaged — the numbers `gwb segment-eval`
// prints for the same two label files.
//
// scorePair follows the CLI exactly: in each recording, utterances that either side left out
// (nullopt) are dropped; compareLabelings scores the rest with window k (or segeval's default
// from the reference's segments when k is nullopt); a recording that cannot be scored (too
// short for the window) is left out with a note; the pooled scores sum equal units, window
// errors and windows over the scored recordings (poolComparisons); the mean is the plain
// average of the recordings' agreements. For rows i < j, row i is the reference (it decides the
// default window; with a fixed k every score is symmetric).
//
// SegmentationMetricsModel shows the pairs as a table: for a chosen recording, one line per pair
// for that recording and one pooled line; for "all recordings", the CLI's whole output per pair
// (each recording, pooled, mean). Agreements are 100 × (1 − error) with one decimal, error rates
// four decimals, as the CLI prints them. A table shows one convention at a time (Convention:
// the agreements a=b, Pk and WindowDiff in %, higher is better; or the error rates a≠b, Pk and
// WindowDiff in [0, 1], lower is better), each header naming its unit; isColumnShown() says
// which columns belong to the convention, and the CSV export writes the same columns.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "gwb/grounded/segmentation.h"
#include "gwb/grounded/social_corpus.h"
#include "ui/grounded/discourse_data.h"

namespace gwb::ui {

struct RecordingScore {
  std::size_t recording = 0;                         // index into the recordings
  std::optional<SegmentationComparison> comparison;  // nullopt: not scored (see note)
  std::string note;
};

struct PairScores {
  std::size_t reference = 0;  // row indices
  std::size_t hypothesis = 0;
  std::vector<RecordingScore> recordings;        // one per recording, in order
  std::optional<SegmentationComparison> pooled;  // nullopt when no recording was scored
  std::size_t scored = 0;                        // recordings scored
  double meanEqual = 0.0;  // plain means of the scored recordings' agreements (×100)
  double meanPk = 0.0;
  double meanWindowDiff = 0.0;
  std::size_t skippedUnits = 0;  // utterances without a label on one side
};

PairScores scorePair(const TopicLabels& reference, const TopicLabels& hypothesis,
                     const std::vector<Recording>& recordings, std::optional<int> window);
// Every pair i < j of rows.
std::vector<PairScores> scoreAllPairs(const std::vector<DiscourseRow>& rows,
                                      const std::vector<Recording>& recordings,
                                      std::optional<int> window);

class SegmentationMetricsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int {
    Reference,
    Hypothesis,
    RecordingColumn,
    Units,
    Window,
    AEqualsB,
    Pk,
    WindowDiff,
    Mismatch,  // 1 − a=b / 100: the share of utterances labelled differently
    PkError,
    WindowDiffError,
    ColumnCount
  };
  enum class Convention { Agreement, Error };
  static constexpr int kAllRecordings = -1;

  explicit SegmentationMetricsModel(QObject* parent = nullptr);

  // Recomputes every pair; `window` nullopt: segeval's default per recording.
  void setData(const std::vector<DiscourseRow>& rows, const std::vector<Recording>& recordings,
               std::optional<int> window);
  // A recording index, or kAllRecordings.
  void setRecording(int recording);
  int recording() const { return recording_; }
  void setConvention(Convention convention);
  Convention convention() const { return convention_; }
  // Whether a column belongs to the table under `convention` (the first five always do).
  static bool isColumnShown(int column, Convention convention);
  const std::vector<PairScores>& pairs() const { return pairs_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // A line's cells as the CLI prints them, tab-separated: recording units k a=b Pk WindowDiff
  // Pk_error WindowDiff_error (for tests and the CSV export).
  QString cliLine(int row) const;
  // The table as CSV (header and every line shown, the convention's columns only).
  QString csvText() const;

 private:
  enum class LineKind { Recording, Pooled, Mean };
  struct Line {
    std::size_t pair = 0;
    LineKind kind = LineKind::Recording;
    std::size_t recording = 0;
  };
  void rebuildLines();
  QString cell(const Line& line, int column) const;

  std::vector<std::string> rowNames_;
  std::vector<Recording> recordings_;
  std::vector<PairScores> pairs_;
  std::vector<Line> lines_;
  int recording_ = 0;
  Convention convention_ = Convention::Agreement;
};

}  // namespace gwb::ui
