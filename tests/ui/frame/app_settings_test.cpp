// AppSettings round trips through a real INI file: recent files (order, dedup, limit),
// last folder, and window geometry/state blobs.
#include "ui/frame/app_settings.h"

#include <memory>

#include <QDir>
#include <QSettings>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "qt_printers.h"

namespace gwb::ui {
namespace {

class AppSettingsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.isValid()); }

  QString iniPath() const { return dir_.filePath(QStringLiteral("settings.ini")); }
  std::unique_ptr<QSettings> openStore() const {
    return std::make_unique<QSettings>(iniPath(), QSettings::IniFormat);
  }
  QString file(const QString& name) const { return dir_.filePath(name); }

  QTemporaryDir dir_;
};

TEST_F(AppSettingsTest, StartsEmpty) {
  auto store = openStore();
  AppSettings settings(*store);
  EXPECT_TRUE(settings.recentFiles().isEmpty());
  EXPECT_TRUE(settings.lastDirectory().isEmpty());
  EXPECT_TRUE(settings.windowGeometry().isEmpty());
  EXPECT_TRUE(settings.windowState().isEmpty());
}

TEST_F(AppSettingsTest, RecentFilesAreMostRecentFirstWithoutDuplicates) {
  auto store = openStore();
  AppSettings settings(*store);
  settings.addRecentFile(file(QStringLiteral("a.grammar")));
  settings.addRecentFile(file(QStringLiteral("b.grammar")));
  settings.addRecentFile(file(QStringLiteral("a.grammar")));
  EXPECT_EQ(settings.recentFiles(),
            QStringList({file(QStringLiteral("a.grammar")), file(QStringLiteral("b.grammar"))}));
}

TEST_F(AppSettingsTest, RecentFilesAreMadeAbsolute) {
  auto store = openStore();
  AppSettings settings(*store);
  settings.addRecentFile(QStringLiteral("relative/x.cfg"));
  ASSERT_EQ(settings.recentFiles().size(), 1);
  EXPECT_EQ(settings.recentFiles().front(),
            QDir::current().absoluteFilePath(QStringLiteral("relative/x.cfg")));
  // The same file named another way is not a second entry.
  settings.addRecentFile(QDir::current().absoluteFilePath(QStringLiteral("relative/x.cfg")));
  EXPECT_EQ(settings.recentFiles().size(), 1);
}

TEST_F(AppSettingsTest, RecentFilesKeepAtMostTheLimit) {
  auto store = openStore();
  AppSettings settings(*store);
  const int added = AppSettings::kMaxRecentFiles + 3;
  for (int i = 0; i < added; ++i)
    settings.addRecentFile(file(QStringLiteral("g%1.grammar").arg(i)));
  const QStringList recent = settings.recentFiles();
  ASSERT_EQ(recent.size(), AppSettings::kMaxRecentFiles);
  EXPECT_EQ(recent.front(), file(QStringLiteral("g%1.grammar").arg(added - 1)));
  EXPECT_EQ(recent.back(),
            file(QStringLiteral("g%1.grammar").arg(added - AppSettings::kMaxRecentFiles)));
}

TEST_F(AppSettingsTest, RemoveAndClearRecentFiles) {
  auto store = openStore();
  AppSettings settings(*store);
  settings.addRecentFile(file(QStringLiteral("a.grammar")));
  settings.addRecentFile(file(QStringLiteral("b.grammar")));
  settings.removeRecentFile(file(QStringLiteral("a.grammar")));
  EXPECT_EQ(settings.recentFiles(), QStringList({file(QStringLiteral("b.grammar"))}));
  settings.clearRecentFiles();
  EXPECT_TRUE(settings.recentFiles().isEmpty());
}

TEST_F(AppSettingsTest, EverythingSurvivesAReopenOfTheFile) {
  const QByteArray geometry(
      "\x01\x02"
      "geometry"
      "\x00"
      "blob",
      15);  // binary, with a NUL
  const QByteArray state("state-blob");
  {
    auto store = openStore();
    AppSettings settings(*store);
    settings.addRecentFile(file(QStringLiteral("old.grammar")));
    settings.addRecentFile(file(QStringLiteral("new.cfg")));
    settings.setLastDirectory(dir_.path());
    settings.setWindowGeometry(geometry);
    settings.setWindowState(state);
    settings.sync();
  }
  auto store = openStore();
  AppSettings reread(*store);
  EXPECT_EQ(reread.recentFiles(),
            QStringList({file(QStringLiteral("new.cfg")), file(QStringLiteral("old.grammar"))}));
  EXPECT_EQ(reread.lastDirectory(), dir_.path());
  EXPECT_EQ(reread.windowGeometry(), geometry);
  EXPECT_EQ(reread.windowState(), state);
}

}  // namespace
}  // namespace gwb::ui
