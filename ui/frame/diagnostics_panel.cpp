#include "ui/frame/diagnostics_panel.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

#include "ui/common/qt_conversions.h"
#include "ui/common/text_format.h"

namespace gwb::ui {

namespace {
QIcon iconFor(gwb::Severity severity, const QStyle& style) {
  switch (severity) {
    case gwb::Severity::Error: return style.standardIcon(QStyle::SP_MessageBoxCritical);
    case gwb::Severity::Warning: return style.standardIcon(QStyle::SP_MessageBoxWarning);
    case gwb::Severity::Note: return style.standardIcon(QStyle::SP_MessageBoxInformation);
  }
  return {};
}

// "12:5" / "12" / "" — the location part of an entry.
QString locationText(const gwb::Diagnostic& diagnostic) {
  if (diagnostic.line <= 0) return {};
  if (diagnostic.column <= 0) return QString::number(diagnostic.line);
  return QString::number(diagnostic.line) % QLatin1Char(':') % QString::number(diagnostic.column);
}
}  // namespace

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent)
    : QWidget(parent), summary_(new QLabel(this)), list_(new QListWidget(this)) {
  summary_->setTextFormat(Qt::PlainText);
  summary_->setContentsMargins(4, 2, 4, 2);
  list_->setUniformItemSizes(true);
  list_->setAlternatingRowColors(true);
  list_->setIconSize(QSize(16, 16));

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(summary_);
  layout->addWidget(list_, 1);

  connect(list_, &QListWidget::itemClicked, this, &DiagnosticsPanel::activate);
  connect(list_, &QListWidget::itemActivated, this, &DiagnosticsPanel::activate);
  clear();
}

void DiagnosticsPanel::clear() {
  filePath_.clear();
  list_->clear();
  summary_->setText(tr("No grammar open"));
}

int DiagnosticsPanel::count() const { return list_->count(); }

void DiagnosticsPanel::setDiagnostics(const gwb::Diagnostics& diagnostics,
                                      const QString& filePath) {
  list_->clear();
  filePath_ = filePath;
  const QStyle& style = *list_->style();
  for (const gwb::Diagnostic& diagnostic : diagnostics) {
    const QString location = locationText(diagnostic);
    const QString message = toQString(diagnostic.message);
    auto* item = new QListWidgetItem(
        iconFor(diagnostic.severity, style),
        location.isEmpty() ? message : QString(location % QStringLiteral("  ") % message), list_);
    item->setToolTip(toQString(gwb::toString(diagnostic)));
    item->setData(LineRole, diagnostic.line);
    item->setData(ColumnRole, diagnostic.column);
    item->setData(SeverityRole, static_cast<int>(diagnostic.severity));
  }

  const QString name = QFileInfo(filePath).fileName();
  if (diagnostics.empty()) {
    summary_->setText(tr("%1: no problems found").arg(name));
  } else {
    const int notes = static_cast<int>(diagnostics.size()) - diagnostics.errorCount() -
                      diagnostics.warningCount();
    summary_->setText(tr("%1: %2, %3, %4")
                          .arg(name, countText(diagnostics.errorCount(), tr("error"), tr("errors")),
                               countText(diagnostics.warningCount(), tr("warning"), tr("warnings")),
                               countText(notes, tr("note"), tr("notes"))));
  }
}

void DiagnosticsPanel::activate(QListWidgetItem* item) {
  if (!item) return;
  emit diagnosticActivated(filePath_, item->data(LineRole).toInt(), item->data(ColumnRole).toInt());
}

}  // namespace gwb::ui
