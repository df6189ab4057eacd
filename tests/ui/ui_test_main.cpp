// The UI tests' main: a QApplication on the offscreen platform, then GoogleTest.
#include <QApplication>
#include <QStandardPaths>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  // Before QApplication exists: no display is needed, in CI or over ssh.
  qputenv("QT_QPA_PLATFORM", "offscreen");
  // Keep any QSettings/QStandardPaths use away from the developer's real configuration.
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("GrammarWorkbenchTests"));
  QApplication::setApplicationName(QStringLiteral("gwb_ui_tests"));
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
