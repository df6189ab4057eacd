// Help: the documentation and the keyboard shortcuts, inside the workbench and offline.
//
// HelpWindow shows the project's Markdown documents — README, the walkthrough, the guides to
// each part, the file formats — from the program's Qt resources (":/help/README.md",
// ":/help/docs/*.md" and the screenshots they show, bundled at build time from the source
// tree), rendered by QTextBrowser; links between them and to their sections work, web links
// open in the browser. A topic is named by its path in the source tree ("docs/walkthrough.md").
//
// The shortcut list is not written down anywhere: shortcutEntries() reads it from the QActions
// themselves — the main window's menus and the views' own actions — so a shortcut that changes
// in the code changes in the list. ShortcutsWindow shows it as a filterable table.
#pragma once

#include <vector>

#include <QList>
#include <QString>
#include <QWidget>

class QAction;
class QLineEdit;
class QListWidget;
class QTableWidget;
class QTextBrowser;

namespace gwb::ui {

struct HelpTopic {
  QString title;
  QString path;  // in the source tree, and under :/help in the resources
};

class HelpWindow : public QWidget {
  Q_OBJECT

 public:
  explicit HelpWindow(QWidget* parent = nullptr);

  static const std::vector<HelpTopic>& topics();
  // Shows a topic by its path ("docs/walkthrough.md", optionally with "#section"); false if
  // the resources do not hold it.
  bool showTopic(const QString& path);
  // The topic shown, as a path under :/help (e.g. "docs/walkthrough.md").
  QString currentTopic() const;
  QTextBrowser* browser() const { return browser_; }
  QListWidget* topicList() const { return topicList_; }

 private:
  QListWidget* topicList_ = nullptr;
  QTextBrowser* browser_ = nullptr;
};

struct ShortcutEntry {
  QString where;   // "File menu", "Earley stepper", ...
  QString action;  // the action's text without accelerator marks
  QString keys;    // every shortcut of the action, in the platform's notation
  QString toolTip;
};

// Every action among `actions` (and, recursively, in their menus) that has a shortcut, as
// "where" says; actions without one are left out. Menus are walked as the user sees them.
std::vector<ShortcutEntry> shortcutEntries(const QList<QAction*>& actions, const QString& where);

class ShortcutsWindow : public QWidget {
  Q_OBJECT

 public:
  explicit ShortcutsWindow(std::vector<ShortcutEntry> entries, QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }
  // Hides the rows whose action, keys or place do not contain `text`.
  void setFilter(const QString& text);

 private:
  QLineEdit* filterEdit_ = nullptr;
  QTableWidget* table_ = nullptr;
};

}  // namespace gwb::ui
