#include "ui/frame/help_window.h"

#include <algorithm>

#include <QAction>
#include <QDesktopServices>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace gwb::ui {

namespace {
const QString kHelpRoot = QStringLiteral("qrc:/help/");

// The docs' screenshots are 1280 pixels wide: shrink them to the page so that reading needs no
// sideways scrolling.
class HelpBrowser : public QTextBrowser {
 public:
  using QTextBrowser::QTextBrowser;
  QVariant loadResource(int type, const QUrl& name) override {
    const QVariant resource = QTextBrowser::loadResource(type, name);
    if (type != QTextDocument::ImageResource) return resource;
    QImage image = resource.typeId() == QMetaType::QImage
                       ? resource.value<QImage>()
                       : QImage::fromData(resource.toByteArray());
    const int room = std::max(760, viewport()->width() - 40);
    if (image.isNull() || image.width() <= room) return resource;
    return image.scaledToWidth(room, Qt::SmoothTransformation);
  }
};

// "qrc:/help/docs/formats.md#section" → "docs/formats.md".
QString topicOf(const QUrl& source) {
  const QString url = source.toString(QUrl::RemoveFragment);
  return url.startsWith(kHelpRoot) ? url.mid(kHelpRoot.size()) : url;
}

// "&Open…" → "Open…"; "&&" stays one "&".
QString withoutAccelerators(const QString& text) {
  QString plain;
  plain.reserve(text.size());
  for (qsizetype i = 0; i < text.size(); ++i) {
    if (text[i] == QLatin1Char('&')) {
      if (i + 1 < text.size() && text[i + 1] == QLatin1Char('&')) plain += QLatin1Char('&');
      ++i;
      if (i < text.size() && text[i] != QLatin1Char('&')) plain += text[i];
      continue;
    }
    plain += text[i];
  }
  return plain;
}

void collectShortcuts(const QList<QAction*>& actions, const QString& where,
                      std::vector<ShortcutEntry>& entries) {
  for (QAction* action : actions) {
    if (action->isSeparator()) continue;
    if (QMenu* menu = action->menu()) {
      const QString title = withoutAccelerators(action->text());
      collectShortcuts(menu->actions(),
                       where.isEmpty() ? HelpWindow::tr("%1 menu").arg(title)
                                       : where % QStringLiteral(" \u203a ") % title,
                       entries);
      continue;
    }
    const QList<QKeySequence> keys = action->shortcuts();
    if (keys.isEmpty()) continue;
    QStringList names;
    for (const QKeySequence& key : keys) names << key.toString(QKeySequence::NativeText);
    QString toolTip = action->toolTip();
    if (toolTip == withoutAccelerators(action->text())) toolTip = action->statusTip();
    // Tooltips often end with the key in brackets; the table has a column for it.
    for (const QString& name : names) {
      const QString suffix = QStringLiteral(" (") + name + QLatin1Char(')');
      if (toolTip.endsWith(suffix)) toolTip.chop(suffix.size());
    }
    entries.push_back(
        {where, withoutAccelerators(action->text()), names.join(QStringLiteral(", ")), toolTip});
  }
}
}  // namespace

const std::vector<HelpTopic>& HelpWindow::topics() {
  static const std::vector<HelpTopic> list{
      {tr("Overview"), QStringLiteral("README.md")},
      {tr("Walkthrough"), QStringLiteral("docs/walkthrough.md")},
      {tr("Earley parsing"), QStringLiteral("docs/earley.md")},
      {tr("Dynamic Syntax"), QStringLiteral("docs/dynamic-syntax.md")},
      {tr("Grammar induction"), QStringLiteral("docs/induction.md")},
      {tr("Grounded word learning"), QStringLiteral("docs/grounded-learning.md")},
      {tr("Research views"), QStringLiteral("docs/research-views.md")},
      {tr("File formats"), QStringLiteral("docs/formats.md")},
  };
  return list;
}

HelpWindow::HelpWindow(QWidget* parent) : QWidget(parent) {
  setWindowTitle(tr("Grammar Workbench Help"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* splitter = new QSplitter(this);
  topicList_ = new QListWidget(splitter);
  topicList_->setObjectName(QStringLiteral("helpTopics"));
  for (const HelpTopic& topic : topics()) {
    auto* item = new QListWidgetItem(topic.title, topicList_);
    item->setData(Qt::UserRole, topic.path);
  }
  browser_ = new HelpBrowser(splitter);
  browser_->setObjectName(QStringLiteral("helpBrowser"));
  browser_->setOpenExternalLinks(true);  // web links go to the browser; ours stay here
  browser_->setSearchPaths({QStringLiteral(":/help"), QStringLiteral(":/help/docs")});
  splitter->addWidget(topicList_);
  splitter->addWidget(browser_);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({200, 900});
  layout->addWidget(splitter);

  connect(topicList_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (item && currentTopic() != item->data(Qt::UserRole).toString())
      showTopic(item->data(Qt::UserRole).toString());
  });
  // Keep the list on the document shown when a link leads to another one.
  connect(browser_, &QTextBrowser::sourceChanged, this, [this](const QUrl& source) {
    const QString topic = topicOf(source);
    for (int i = 0; i < topicList_->count(); ++i) {
      if (topicList_->item(i)->data(Qt::UserRole).toString() == topic) {
        const QSignalBlocker block(topicList_);
        topicList_->setCurrentRow(i);
      }
    }
  });
  showTopic(topics().at(1).path);
}

bool HelpWindow::showTopic(const QString& path) {
  const QString file = path.section(QLatin1Char('#'), 0, 0);
  if (!QFile::exists(QStringLiteral(":/help/") + file)) return false;
  QUrl url(kHelpRoot + path);
  browser_->setSource(url, QTextDocument::MarkdownResource);
  return true;
}

QString HelpWindow::currentTopic() const { return topicOf(browser_->source()); }

std::vector<ShortcutEntry> shortcutEntries(const QList<QAction*>& actions, const QString& where) {
  std::vector<ShortcutEntry> entries;
  collectShortcuts(actions, where, entries);
  return entries;
}

ShortcutsWindow::ShortcutsWindow(std::vector<ShortcutEntry> entries, QWidget* parent)
    : QWidget(parent) {
  setWindowTitle(tr("Keyboard Shortcuts \u2014 Grammar Workbench"));
  auto* layout = new QVBoxLayout(this);
  filterEdit_ = new QLineEdit(this);
  filterEdit_->setPlaceholderText(tr("Filter: an action, a key or a place"));
  filterEdit_->setClearButtonEnabled(true);
  table_ = new QTableWidget(static_cast<int>(entries.size()), 4, this);
  table_->setObjectName(QStringLiteral("shortcutTable"));
  table_->setHorizontalHeaderLabels({tr("Action"), tr("Keys"), tr("Where"), tr("What it does")});
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  for (int row = 0; row < static_cast<int>(entries.size()); ++row) {
    const ShortcutEntry& e = entries[static_cast<std::size_t>(row)];
    auto* action = new QTableWidgetItem(e.action);
    action->setToolTip(e.toolTip);
    auto* keys = new QTableWidgetItem(e.keys);
    QFont bold = keys->font();
    bold.setBold(true);
    keys->setFont(bold);
    table_->setItem(row, 0, action);
    table_->setItem(row, 1, keys);
    table_->setItem(row, 2, new QTableWidgetItem(e.where));
    table_->setItem(row, 3, new QTableWidgetItem(e.toolTip));
  }
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
  auto* note = new QLabel(
      tr("Read from the program's own actions. The stepper's keys work while focus is anywhere "
         "in its tab."),
      this);
  note->setWordWrap(true);
  layout->addWidget(filterEdit_);
  layout->addWidget(table_, 1);
  layout->addWidget(note);
  connect(filterEdit_, &QLineEdit::textChanged, this, &ShortcutsWindow::setFilter);
  resize(720, 640);
}

void ShortcutsWindow::setFilter(const QString& text) {
  const QString needle = text.trimmed();
  for (int row = 0; row < table_->rowCount(); ++row) {
    bool match = needle.isEmpty();
    for (int column = 0; column < table_->columnCount() && !match; ++column)
      match = table_->item(row, column)->text().contains(needle, Qt::CaseInsensitive);
    table_->setRowHidden(row, !match);
  }
}

}  // namespace gwb::ui
