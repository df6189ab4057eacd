#include "ui/frame/document_tabs.h"

#include <algorithm>

namespace gwb::ui {

DocumentTabBar::DocumentTabBar(QWidget* parent) : QTabBar(parent) {
  setElideMode(Qt::ElideMiddle);
  setUsesScrollButtons(true);
}

QSize DocumentTabBar::minimumTabSizeHint(int index) const {
  QSize minimum = QTabBar::minimumTabSizeHint(index);
  const QSize full = tabSizeHint(index);
  const QFontMetrics metrics = fontMetrics();
  // Whatever the tab needs besides its text: padding, icon, close button.
  const int chrome = std::max(0, full.width() - metrics.horizontalAdvance(tabText(index)));
  const int readable =
      chrome + metrics.horizontalAdvance(QString(kReadableTitleChars, QLatin1Char('n')));
  minimum.setWidth(std::max(minimum.width(), std::min(full.width(), readable)));
  return minimum;
}

DocumentTabs::DocumentTabs(QWidget* parent) : QTabWidget(parent) {
  setTabBar(new DocumentTabBar(this));
  setElideMode(Qt::ElideMiddle);
  setUsesScrollButtons(true);
}

}  // namespace gwb::ui
