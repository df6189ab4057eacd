#include "ui/grounded/segmentation_table.h"

#include <vector>

#include <QFont>
#include <QStringList>

namespace gwb::ui {

namespace {

QString fixed(double value, int digits = 1) { return QString::number(value, 'f', digits); }

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"'))) return text;
  QString quoted = text;
  quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

}  // namespace

PairScores scorePair(const TopicLabels& reference, const TopicLabels& hypothesis,
                     const std::vector<Recording>& recordings, std::optional<int> window) {
  PairScores scores;
  std::vector<SegmentationComparison> parts;
  for (std::size_t r = 0; r < recordings.size(); ++r) {
    const Recording& recording = recordings[r];
    RecordingScore score;
    score.recording = r;
    std::vector<std::string> ref;
    std::vector<std::string> hyp;
    for (int i = recording.firstUtterance; i < recording.firstUtterance + recording.utterances;
         ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (u >= reference.size() || u >= hypothesis.size() || !reference[u] || !hypothesis[u]) {
        ++scores.skippedUnits;  // not annotated by one side: left out
        continue;
      }
      ref.push_back(*reference[u]);
      hyp.push_back(*hypothesis[u]);
    }
    std::string error;
    score.comparison = compareLabelings(ref, hyp, window, &error);
    if (score.comparison) {
      parts.push_back(*score.comparison);
      scores.meanEqual += score.comparison->aEqualsB();
      scores.meanPk += score.comparison->pk.agreement();
      scores.meanWindowDiff += score.comparison->windowDiff.agreement();
    } else {
      score.note = error;
    }
    scores.recordings.push_back(std::move(score));
  }
  scores.scored = parts.size();
  if (!parts.empty()) {
    scores.pooled = poolComparisons(parts);
    const auto n = static_cast<double>(parts.size());
    scores.meanEqual /= n;
    scores.meanPk /= n;
    scores.meanWindowDiff /= n;
  }
  return scores;
}

std::vector<PairScores> scoreAllPairs(const std::vector<DiscourseRow>& rows,
                                      const std::vector<Recording>& recordings,
                                      std::optional<int> window) {
  std::vector<PairScores> pairs;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = i + 1; j < rows.size(); ++j) {
      PairScores p = scorePair(rows[i].labels, rows[j].labels, recordings, window);
      p.reference = i;
      p.hypothesis = j;
      pairs.push_back(std::move(p));
    }
  }
  return pairs;
}

SegmentationMetricsModel::SegmentationMetricsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SegmentationMetricsModel::setData(const std::vector<DiscourseRow>& rows,
                                       const std::vector<Recording>& recordings,
                                       std::optional<int> window) {
  beginResetModel();
  rowNames_.clear();
  for (const DiscourseRow& row : rows) rowNames_.push_back(row.name);
  recordings_ = recordings;
  pairs_ = scoreAllPairs(rows, recordings, window);
  if (recording_ >= static_cast<int>(recordings_.size())) recording_ = 0;
  rebuildLines();
  endResetModel();
}

void SegmentationMetricsModel::setRecording(int recording) {
  if (recording == recording_) return;
  beginResetModel();
  recording_ = recording;
  rebuildLines();
  endResetModel();
}

void SegmentationMetricsModel::rebuildLines() {
  lines_.clear();
  for (std::size_t p = 0; p < pairs_.size(); ++p) {
    const PairScores& pair = pairs_[p];
    if (recording_ == kAllRecordings) {
      // The CLI's output: the scored recordings, then pooled and mean when there are several.
      for (const RecordingScore& r : pair.recordings)
        if (r.comparison) lines_.push_back({p, LineKind::Recording, r.recording});
      if (pair.scored > 1) {
        lines_.push_back({p, LineKind::Pooled, 0});
        lines_.push_back({p, LineKind::Mean, 0});
      }
    } else {
      if (recording_ >= 0 && static_cast<std::size_t>(recording_) < pair.recordings.size())
        lines_.push_back({p, LineKind::Recording, static_cast<std::size_t>(recording_)});
      if (recordings_.size() > 1) lines_.push_back({p, LineKind::Pooled, 0});
    }
  }
}

int SegmentationMetricsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(lines_.size());
}

int SegmentationMetricsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString SegmentationMetricsModel::cell(const Line& line, int column) const {
  const PairScores& pair = pairs_[line.pair];
  if (column == Reference) return QString::fromStdString(rowNames_[pair.reference]);
  if (column == Hypothesis) return QString::fromStdString(rowNames_[pair.hypothesis]);
  const SegmentationComparison* c = nullptr;
  switch (line.kind) {
    case LineKind::Recording: {
      if (column == RecordingColumn) return QString::fromStdString(recordings_[line.recording].id);
      const auto& comparison = pair.recordings[line.recording].comparison;
      if (!comparison) return QStringLiteral("\u2013");
      c = &*comparison;
      break;
    }
    case LineKind::Pooled:
      if (column == RecordingColumn) return tr("pooled");
      if (!pair.pooled) return QStringLiteral("\u2013");
      c = &*pair.pooled;
      break;
    case LineKind::Mean: {
      const double n = static_cast<double>(pair.pooled ? pair.pooled->units : 0);
      switch (column) {
        case RecordingColumn: return tr("mean");
        case Units: return QString::number(n, 'f', 0);
        case Window: return QStringLiteral("-");
        case AEqualsB: return fixed(pair.meanEqual);
        case Pk: return fixed(pair.meanPk);
        case WindowDiff: return fixed(pair.meanWindowDiff);
        case Mismatch: return fixed(1.0 - pair.meanEqual / 100.0, 4);
        case PkError: return fixed(1.0 - pair.meanPk / 100.0, 4);
        case WindowDiffError: return fixed(1.0 - pair.meanWindowDiff / 100.0, 4);
        default: return {};
      }
    }
  }
  switch (column) {
    case Units: return QString::number(c->units);
    case Window: return c->pk.window != 0 ? QString::number(c->pk.window) : QStringLiteral("-");
    case AEqualsB: return fixed(c->aEqualsB());
    case Pk: return fixed(c->pk.agreement());
    case WindowDiff: return fixed(c->windowDiff.agreement());
    case Mismatch: return fixed(1.0 - c->aEqualsB() / 100.0, 4);
    case PkError: return fixed(c->pk.error(), 4);
    case WindowDiffError: return fixed(c->windowDiff.error(), 4);
    default: return {};
  }
}

QVariant SegmentationMetricsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Line& line = lines_[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole) return cell(line, index.column());
  if (role == Qt::TextAlignmentRole && index.column() >= Units)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    const PairScores& pair = pairs_[line.pair];
    if (line.kind == LineKind::Recording && !pair.recordings[line.recording].comparison)
      return tr("Not scored: %1").arg(QString::fromStdString(pair.recordings[line.recording].note));
    switch (index.column()) {
      case AEqualsB: return tr("Utterances with the same label (%)");
      case Pk: return tr("Pk agreement: 100 \u00d7 (1 \u2212 Pk error)");
      case WindowDiff: return tr("WindowDiff agreement: 100 \u00d7 (1 \u2212 WindowDiff error)");
      case Mismatch: return tr("Share of utterances with different labels: 1 \u2212 a=b / 100");
      case PkError: return tr("Pk error rate (0 = same boundaries)");
      case WindowDiffError: return tr("WindowDiff error rate (0 = same boundaries)");
      case Window: return tr("Window k (segeval's default: half the mean reference segment)");
      default: break;
    }
    if (pair.skippedUnits > 0)
      return tr("%n utterance(s) without a label on one side are left out", nullptr,
                static_cast<int>(pair.skippedUnits));
  }
  if (role == Qt::FontRole && line.kind != LineKind::Recording) {
    QFont font;
    font.setBold(line.kind == LineKind::Pooled);
    font.setItalic(line.kind == LineKind::Mean);
    return font;
  }
  return {};
}

QVariant SegmentationMetricsModel::headerData(int section, Qt::Orientation orientation,
                                              int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case AEqualsB:
      case Pk:
      case WindowDiff: return tr("Agreement in %: 100 \u00d7 (1 \u2212 error); higher is better");
      case Mismatch:
      case PkError:
      case WindowDiffError: return tr("Error rate in [0, 1]; lower is better");
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Reference: return tr("Reference");
    case Hypothesis: return tr("Hypothesis");
    case RecordingColumn: return tr("Recording");
    case Units: return tr("Units");
    case Window: return tr("k");
    case AEqualsB: return tr("a=b %");
    case Pk: return tr("Pk agreement %");
    case WindowDiff: return tr("WindowDiff agreement %");
    case Mismatch: return tr("a\u2260b rate");
    case PkError: return tr("Pk error rate");
    case WindowDiffError: return tr("WindowDiff error rate");
    default: return {};
  }
}

void SegmentationMetricsModel::setConvention(Convention convention) {
  if (convention == convention_) return;
  beginResetModel();
  convention_ = convention;
  endResetModel();
}

bool SegmentationMetricsModel::isColumnShown(int column, Convention convention) {
  switch (column) {
    case AEqualsB:
    case Pk:
    case WindowDiff: return convention == Convention::Agreement;
    case Mismatch:
    case PkError:
    case WindowDiffError: return convention == Convention::Error;
    default: return column >= 0 && column < ColumnCount;
  }
}

QString SegmentationMetricsModel::cliLine(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  const Line& line = lines_[static_cast<std::size_t>(row)];
  QStringList cells;
  for (const int column :
       {RecordingColumn, Units, Window, AEqualsB, Pk, WindowDiff, PkError, WindowDiffError})
    cells << cell(line, column);
  return cells.join(QLatin1Char('\t'));
}

QString SegmentationMetricsModel::csvText() const {
  QStringList header;
  std::vector<int> columns;
  for (int column = 0; column < ColumnCount; ++column)
    if (isColumnShown(column, convention_)) columns.push_back(column);
  for (const int column : columns)
    header << csvField(headerData(column, Qt::Horizontal).toString());
  QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (const Line& line : lines_) {
    QStringList cells;
    for (const int column : columns) cells << csvField(cell(line, column));
    text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return text;
}

}  // namespace gwb::ui
