// The workbench's persistent settings: window layout, recently opened files, last folder.
//
// A thin typed layer over a QSettings store that the caller owns: the application passes its
// default (organisation/application) store, tests pass an INI file in a temporary folder.
// Recent files are kept most-recent-first, as absolute paths, without duplicates, and at most
// kMaxRecentFiles of them.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

class QSettings;

namespace gwb::ui {

class AppSettings {
 public:
  static constexpr int kMaxRecentFiles = 10;

  explicit AppSettings(QSettings& store);

  QStringList recentFiles() const;
  // Moves `path` (made absolute) to the front of the list, dropping the oldest beyond the max.
  void addRecentFile(const QString& path);
  void removeRecentFile(const QString& path);
  void clearRecentFiles();

  // The folder the last file dialog was in; empty when none was recorded.
  QString lastDirectory() const;
  void setLastDirectory(const QString& directory);

  // Opaque blobs from QMainWindow::saveGeometry() and saveState().
  QByteArray windowGeometry() const;
  void setWindowGeometry(const QByteArray& geometry);
  QByteArray windowState() const;
  void setWindowState(const QByteArray& state);

  // Where the workbench keeps the workspace of the last session: beside the settings file.
  QString sessionWorkspacePath() const;
  // The "session running" marker: set (and written to disk at once) when a session starts,
  // cleared on a clean exit. Found set at the next start, it means the last run ended
  // abnormally — possibly while restoring its session — so that session is not trusted blindly.
  bool sessionRunning() const;
  void setSessionRunning(bool running);

  // Writes pending changes to permanent storage.
  void sync();

 private:
  void setRecentFiles(const QStringList& files);

  QSettings& store_;
};

}  // namespace gwb::ui
