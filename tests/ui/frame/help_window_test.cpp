// Help inside the workbench: the docs are bundled into the program and render offline, with
// their pictures and the links between them; the Help menu reaches them; and the keyboard
// shortcut list is read from the actions themselves, so it cannot go stale.
#include "ui/frame/help_window.h"

#include <memory>

#include <QAction>
#include <QFile>
#include <QImage>
#include <QKeySequence>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "shared_data.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"

namespace gwb::ui {
namespace {

QString firstHeading(const QString& sourcePath) {
  QFile file(QString::fromStdString(gwb::testing::sourceDir()) + QLatin1Char('/') + sourcePath);
  if (!file.open(QIODevice::ReadOnly)) return {};
  const QString text = QString::fromUtf8(file.readAll());
  for (const QString& line : text.split(QLatin1Char('\n')))
    if (line.startsWith(QLatin1String("# ")))  // as rendered: no code or emphasis marks
      return line.mid(2).remove(QLatin1Char('`')).remove(QLatin1Char('*')).trimmed();
  return {};
}

TEST(HelpWindowTest, EveryTopicRendersFromTheResources) {
  HelpWindow help;
  for (const HelpTopic& topic : HelpWindow::topics()) {
    SCOPED_TRACE(topic.path.toStdString());
    ASSERT_TRUE(QFile::exists(QStringLiteral(":/help/") + topic.path));
    ASSERT_TRUE(help.showTopic(topic.path));
    EXPECT_EQ(help.currentTopic(), topic.path);
    const QString heading = firstHeading(topic.path);
    ASSERT_FALSE(heading.isEmpty());
    // Rendered, not shown as Markdown source: the heading's text without its "#".
    const QString shown = help.browser()->document()->toPlainText();
    EXPECT_TRUE(shown.startsWith(heading.left(20))) << shown.left(80).toStdString();
    EXPECT_FALSE(shown.startsWith(QLatin1String("# ")));
    EXPECT_EQ(help.topicList()->currentItem()->text(), topic.title);
  }
  EXPECT_FALSE(help.showTopic(QStringLiteral("docs/no-such-page.md")));
}

TEST(HelpWindowTest, PicturesAndLinksBetweenDocumentsWork) {
  HelpWindow help;
  ASSERT_TRUE(help.showTopic(QStringLiteral("docs/walkthrough.md")));
  // The walkthrough's screenshots come from the resources too.
  const QVariant image = help.browser()->document()->resource(
      QTextDocument::ImageResource, QUrl(QStringLiteral("screenshots/main-window.png")));
  const QVariant loaded =
      image.isValid()
          ? image
          : help.browser()->loadResource(QTextDocument::ImageResource,
                                         QUrl(QStringLiteral("screenshots/main-window.png")));
  ASSERT_TRUE(loaded.isValid());
  EXPECT_FALSE(loaded.value<QByteArray>().isEmpty() && loaded.value<QImage>().isNull());
  // README's relative link into docs/ leads to the page, and the list follows.
  ASSERT_TRUE(help.showTopic(QStringLiteral("README.md")));
  help.browser()->setSource(QUrl(QStringLiteral("docs/formats.md")));
  EXPECT_EQ(help.currentTopic(), QStringLiteral("docs/formats.md"));
  EXPECT_EQ(help.topicList()->currentItem()->data(Qt::UserRole).toString(),
            QStringLiteral("docs/formats.md"));
  EXPECT_FALSE(help.browser()->document()->toPlainText().startsWith(QLatin1String("# ")));
}

class HelpMenuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    store_ = std::make_unique<QSettings>(dir_.filePath(QStringLiteral("settings.ini")),
                                         QSettings::IniFormat);
    settings_ = std::make_unique<AppSettings>(*store_);
    window_ = std::make_unique<MainWindow>(*settings_);
  }
  QMenu* menu(const QString& title) const {
    for (QAction* action : window_->menuBar()->actions())
      if (action->menu() && action->text().remove(QLatin1Char('&')) == title) return action->menu();
    return nullptr;
  }
  QAction* action(QMenu* in, const QString& text) const {
    for (QAction* a : in->actions())
      if (a->text().remove(QLatin1Char('&')) == text) return a;
    return nullptr;
  }
  // Row of `text` in the shortcut table's Action column, or -1.
  static int rowOf(const QTableWidget* table, const QString& text, const QString& where) {
    for (int row = 0; row < table->rowCount(); ++row)
      if (table->item(row, 0)->text() == text && table->item(row, 2)->text() == where) return row;
    return -1;
  }
  QTemporaryDir dir_;
  std::unique_ptr<QSettings> store_;
  std::unique_ptr<AppSettings> settings_;
  std::unique_ptr<MainWindow> window_;
};

TEST_F(HelpMenuTest, TheHelpMenuOpensTheWalkthroughAndTheDocs) {
  QMenu* help = menu(QStringLiteral("Help"));
  ASSERT_NE(help, nullptr);
  QAction* walkthrough = action(help, QStringLiteral("Walkthrough"));
  ASSERT_NE(walkthrough, nullptr);
  EXPECT_EQ(walkthrough->shortcut(), QKeySequence(QKeySequence::HelpContents));
  walkthrough->trigger();
  auto* helpWindow = window_->findChild<HelpWindow*>();
  ASSERT_NE(helpWindow, nullptr);
  EXPECT_TRUE(helpWindow->isVisible());
  EXPECT_EQ(helpWindow->currentTopic(), QStringLiteral("docs/walkthrough.md"));
  QAction* docs = action(help, QStringLiteral("Documentation\u2026"));
  ASSERT_NE(docs, nullptr);
  docs->trigger();
  EXPECT_EQ(helpWindow->currentTopic(), QStringLiteral("README.md"));
}

TEST_F(HelpMenuTest, TheShortcutListIsReadFromTheActions) {
  QMenu* help = menu(QStringLiteral("Help"));
  ASSERT_NE(help, nullptr);
  QAction* list = action(help, QStringLiteral("Keyboard Shortcuts"));
  ASSERT_NE(list, nullptr);
  list->trigger();
  auto* shortcuts = window_->findChild<ShortcutsWindow*>();
  ASSERT_NE(shortcuts, nullptr);
  const QTableWidget* table = shortcuts->table();
  const int open = rowOf(table, QStringLiteral("Open\u2026"), QStringLiteral("File menu"));
  ASSERT_GE(open, 0);
  EXPECT_EQ(table->item(open, 1)->text(),
            QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText));
  const int step = rowOf(table, QStringLiteral("Step"), QStringLiteral("Earley stepper"));
  ASSERT_GE(step, 0);
  EXPECT_EQ(table->item(step, 1)->text(), QStringLiteral("F10"));
  EXPECT_GE(rowOf(table, QStringLiteral("Keyboard Shortcuts"), QStringLiteral("Help menu")), 0);

  // An action added later, or a changed key, shows up the next time: nothing is hard-coded.
  QMenu* file = menu(QStringLiteral("File"));
  QAction* added = file->addAction(QStringLiteral("&Frobnicate"));
  added->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_F));
  window_->showShortcuts();
  shortcuts = window_->findChild<ShortcutsWindow*>();
  ASSERT_NE(shortcuts, nullptr);
  const int frob =
      rowOf(shortcuts->table(), QStringLiteral("Frobnicate"), QStringLiteral("File menu"));
  ASSERT_GE(frob, 0);
  EXPECT_EQ(shortcuts->table()->item(frob, 1)->text(),
            QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_F).toString(QKeySequence::NativeText));
  // Every row has keys; the filter narrows the list.
  for (int row = 0; row < shortcuts->table()->rowCount(); ++row)
    EXPECT_FALSE(shortcuts->table()->item(row, 1)->text().isEmpty()) << row;
  shortcuts->setFilter(QStringLiteral("F10"));
  int shown = 0;
  for (int row = 0; row < shortcuts->table()->rowCount(); ++row)
    shown += shortcuts->table()->isRowHidden(row) ? 0 : 1;
  EXPECT_GE(shown, 1);
  EXPECT_LT(shown, shortcuts->table()->rowCount());
}

}  // namespace
}  // namespace gwb::ui
