// StartPage: what the central area shows while no grammar is open.
//
// The application's name and icon, an "Open Grammar…" button, the recently opened files (a
// click opens one) and a hint that files can be dropped onto the window.
#pragma once

#include <QStringList>
#include <QWidget>

class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace gwb::ui {

class StartPage : public QWidget {
  Q_OBJECT

 public:
  explicit StartPage(QWidget* parent = nullptr);

  void setRecentFiles(const QStringList& files);
  QListWidget* recentList() const { return recentList_; }

 signals:
  void openRequested();
  void recentFileActivated(const QString& path);

 private:
  void activate(QListWidgetItem* item);

  QListWidget* recentList_ = nullptr;
  QPushButton* openButton_ = nullptr;
};

}  // namespace gwb::ui
