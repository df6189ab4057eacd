// DiagnosticsPanel: the errors, warnings and notes a grammar reader reported, as a list.
//
// Shows one gwb::Diagnostics list at a time — the current document's, or those of a file that
// could not be opened — each entry with its severity's icon and "line:col  message". Clicking
// or activating an entry emits diagnosticActivated with the file and line it points at, which
// the main window turns into a selection in the rule table.
#pragma once

#include <QWidget>

#include "gwb/common/diagnostic.h"

class QLabel;
class QListWidget;
class QListWidgetItem;

namespace gwb::ui {

class DiagnosticsPanel : public QWidget {
  Q_OBJECT

 public:
  // Item data roles carrying the diagnostic's location.
  enum Role : int { LineRole = Qt::UserRole, ColumnRole, SeverityRole };

  explicit DiagnosticsPanel(QWidget* parent = nullptr);

  // Replaces the list with `diagnostics`, read from `filePath`.
  void setDiagnostics(const gwb::Diagnostics& diagnostics, const QString& filePath);
  void clear();

  // The file whose diagnostics are shown (empty when none).
  const QString& filePath() const { return filePath_; }
  QListWidget* listWidget() const { return list_; }
  int count() const;

 signals:
  void diagnosticActivated(const QString& filePath, int line, int column);

 private:
  void activate(QListWidgetItem* item);

  QString filePath_;
  QLabel* summary_ = nullptr;
  QListWidget* list_ = nullptr;
};

}  // namespace gwb::ui
