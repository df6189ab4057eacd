// DocumentTabs: the main window's tab widget, whose titles stay readable with many tabs open.
//
// Qt shrinks eliding tabs to their minimum before it shows scroll buttons, and that minimum is
// a letter, an ellipsis and a letter: with eight grammars open every title read "p…g". Here a
// tab never shrinks below about kReadableTitleChars characters of its title (elided in the
// middle, so the file extension stays visible); past that the tab bar scrolls instead. The
// full name and path stay in each tab's tooltip, which the main window sets.
#pragma once

#include <QTabBar>
#include <QTabWidget>

namespace gwb::ui {

class DocumentTabBar : public QTabBar {
  Q_OBJECT

 public:
  static constexpr int kReadableTitleChars = 14;
  explicit DocumentTabBar(QWidget* parent = nullptr);

 protected:
  QSize minimumTabSizeHint(int index) const override;
};

class DocumentTabs : public QTabWidget {
  Q_OBJECT

 public:
  explicit DocumentTabs(QWidget* parent = nullptr);
};

}  // namespace gwb::ui
