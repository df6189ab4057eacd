#include "ui/frame/app_settings.h"

#include <QFileInfo>
#include <QSettings>

namespace gwb::ui {

namespace {
const QString kRecentFilesKey = QStringLiteral("recentFiles");
const QString kLastDirectoryKey = QStringLiteral("lastDirectory");
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kSessionRunningKey = QStringLiteral("session/running");

QString normalisedPath(const QString& path) { return QFileInfo(path).absoluteFilePath(); }
}  // namespace

AppSettings::AppSettings(QSettings& store) : store_(store) {}

QStringList AppSettings::recentFiles() const {
  QStringList files = store_.value(kRecentFilesKey).toStringList();
  files.removeDuplicates();
  if (files.size() > kMaxRecentFiles) files.resize(kMaxRecentFiles);
  return files;
}

void AppSettings::addRecentFile(const QString& path) {
  const QString absolute = normalisedPath(path);
  QStringList files = recentFiles();
  files.removeAll(absolute);
  files.prepend(absolute);
  setRecentFiles(files);
}

void AppSettings::removeRecentFile(const QString& path) {
  QStringList files = recentFiles();
  files.removeAll(normalisedPath(path));
  setRecentFiles(files);
}

void AppSettings::clearRecentFiles() { store_.remove(kRecentFilesKey); }

void AppSettings::setRecentFiles(const QStringList& files) {
  store_.setValue(kRecentFilesKey, files.mid(0, kMaxRecentFiles));
}

QString AppSettings::lastDirectory() const { return store_.value(kLastDirectoryKey).toString(); }

void AppSettings::setLastDirectory(const QString& directory) {
  store_.setValue(kLastDirectoryKey, directory);
}

QByteArray AppSettings::windowGeometry() const { return store_.value(kGeometryKey).toByteArray(); }

void AppSettings::setWindowGeometry(const QByteArray& geometry) {
  store_.setValue(kGeometryKey, geometry);
}

QByteArray AppSettings::windowState() const { return store_.value(kStateKey).toByteArray(); }

void AppSettings::setWindowState(const QByteArray& state) { store_.setValue(kStateKey, state); }

QString AppSettings::sessionWorkspacePath() const {
  const QString settingsFile = store_.fileName();
  if (settingsFile.isEmpty()) return {};
  return QFileInfo(settingsFile).absolutePath() % QStringLiteral("/session.gwb-workspace");
}

bool AppSettings::sessionRunning() const { return store_.value(kSessionRunningKey).toBool(); }

void AppSettings::setSessionRunning(bool running) {
  if (running) {
    store_.setValue(kSessionRunningKey, true);
  } else {
    store_.remove(kSessionRunningKey);
  }
  store_.sync();  // a crash must find it on disk
}

void AppSettings::sync() { store_.sync(); }

}  // namespace gwb::ui
