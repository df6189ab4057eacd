// Session restore never takes the workbench down: tabs from the last session open only when
// first shown (a Dynamic Syntax grammar folder is not even read until then), a run that ended
// abnormally — simulated by leaving its "session running" marker behind — makes the next start
// ask whether to restore (every tab then waits for its Open button) or to start without the
// session, and --no-session (SessionStart::WithoutLastSession) skips it outright.
#include <memory>

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "shared_data.h"
#include "ui/ccg/ccg_view.h"
#include "ui/ds/ds_stepper_view.h"
#include "ui/earley/grammar_document.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"
#include "ui/frame/pending_document_page.h"
#include "ui/frame/workspace.h"

namespace gwb::ui {
namespace {

class SessionRestoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    const QString sample = QString::fromStdString(gwb::testing::sourceDir()) +
                           QStringLiteral("/samples/pp-attachment.cfg");
    ASSERT_TRUE(QFile::copy(sample, path("first.cfg")));
    ASSERT_TRUE(QFile::copy(sample, path("second.cfg")));
    ASSERT_TRUE(QDir(dir_.path()).mkpath(QStringLiteral("ds-folder")));
    store_ = std::make_unique<QSettings>(path("settings.ini"), QSettings::IniFormat);
    settings_ = std::make_unique<AppSettings>(*store_);
  }

  QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

  // The last session: two grammars and a DS stepper tab, the one at `current` in front.
  void writeSession(int current) const {
    Workspace session;
    session.documents.push_back({WorkspaceDocument::Kind::Grammar, path("first.cfg"), {}, {}});
    session.documents.push_back(
        {WorkspaceDocument::Kind::DsStepper,
         path("ds-folder"),
         {},
         QJsonObject{{QStringLiteral("sentence"), QStringLiteral("john likes mary")}}});
    session.documents.push_back({WorkspaceDocument::Kind::Grammar,
                                 path("second.cfg"),
                                 {},
                                 QJsonObject{{QStringLiteral("page"), QStringLiteral("tree")}}});
    session.current = current;
    ASSERT_TRUE(session.save(settings_->sessionWorkspacePath()));
  }

  std::unique_ptr<MainWindow> makeWindow() {
    auto window = std::make_unique<MainWindow>(*settings_);
    window->setUnsavedChangesPrompt([](const QString&) { return QMessageBox::Discard; });
    window->setCrashRecoveryPrompt([this](const Workspace& last) {
      ++prompts_;
      promptedDocuments_ = static_cast<int>(last.documents.size());
      return answer_;
    });
    return window;
  }

  static PendingDocumentPage* pendingAt(const MainWindow& window, int index) {
    return qobject_cast<PendingDocumentPage*>(window.documentTabs()->widget(index));
  }
  static int dsStepperCount(const MainWindow& window) {
    return static_cast<int>(window.findChildren<DsStepperView*>().size());
  }

  QTemporaryDir dir_;
  std::unique_ptr<QSettings> store_;
  std::unique_ptr<AppSettings> settings_;
  MainWindow::CrashRecovery answer_ = MainWindow::CrashRecovery::Restore;
  int prompts_ = 0;
  int promptedDocuments_ = 0;
};

TEST_F(SessionRestoreTest, OnlyTheCurrentTabOpensTheOthersWhenFirstShown) {
  writeSession(0);
  auto window = makeWindow();
  window->restoreSession();
  EXPECT_EQ(prompts_, 0);  // the last run ended cleanly (no marker)
  ASSERT_EQ(window->documentCount(), 3);
  ASSERT_NE(window->grammarViewAt(0), nullptr);
  ASSERT_TRUE(window->grammarViewAt(0)->stepperView()->waitForParse());
  // The DS grammar folder has not been touched, nor the second grammar read.
  EXPECT_EQ(dsStepperCount(*window), 0);
  ASSERT_NE(pendingAt(*window, 1), nullptr);
  ASSERT_NE(pendingAt(*window, 2), nullptr);
  EXPECT_EQ(window->documentTabs()->tabText(2), QStringLiteral("second.cfg"));
  EXPECT_EQ(window->documentTabs()->tabText(1), QStringLiteral("DS stepper"));

  // A session saved now keeps the unopened tabs as they were.
  const Workspace captured = window->captureWorkspace();
  const auto saved = Workspace::load(settings_->sessionWorkspacePath());
  ASSERT_TRUE(saved);
  ASSERT_EQ(captured.documents.size(), 3u);
  EXPECT_EQ(captured.documents[1], saved->documents[1]);
  EXPECT_EQ(captured.documents[2], saved->documents[2]);

  // Showing a tab opens it in place, with its view as saved.
  window->documentTabs()->setCurrentIndex(2);
  GrammarView* second = window->grammarViewAt(2);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->document().filePath(), path("second.cfg"));
  EXPECT_EQ(second->currentPage(), GrammarView::Page::Tree);
  EXPECT_EQ(window->documentTabs()->tabText(2), QStringLiteral("second.cfg"));
  ASSERT_TRUE(second->stepperView()->waitForParse());
  window->documentTabs()->setCurrentIndex(1);
  ASSERT_EQ(dsStepperCount(*window), 1);
  auto* ds = qobject_cast<DsStepperView*>(window->documentTabs()->widget(1));
  ASSERT_NE(ds, nullptr);
  ds->waitForParse();
  EXPECT_EQ(QDir::cleanPath(ds->grammarDirectory()), path("ds-folder"));
  EXPECT_EQ(ds->sentence(), QStringLiteral("john likes mary"));
}

TEST_F(SessionRestoreTest, RestoringCurrentTabFirstKeepsTheDsFolderUnreadUntilShown) {
  writeSession(2);
  auto window = makeWindow();
  window->restoreSession();
  EXPECT_EQ(window->documentTabs()->currentIndex(), 2);
  ASSERT_NE(window->grammarViewAt(2), nullptr);
  ASSERT_TRUE(window->grammarViewAt(2)->stepperView()->waitForParse());
  EXPECT_NE(pendingAt(*window, 0), nullptr);
  EXPECT_EQ(dsStepperCount(*window), 0);
}

TEST_F(SessionRestoreTest, ACleanExitClearsTheMarker) {
  writeSession(0);
  {
    auto window = makeWindow();
    window->restoreSession();
    EXPECT_TRUE(settings_->sessionRunning());
    ASSERT_TRUE(window->grammarViewAt(0)->stepperView()->waitForParse());
    ASSERT_TRUE(window->close());
    EXPECT_FALSE(settings_->sessionRunning());
  }
  auto next = makeWindow();
  next->restoreSession();
  EXPECT_EQ(prompts_, 0);
  EXPECT_NE(next->grammarViewAt(0), nullptr);
  ASSERT_TRUE(next->grammarViewAt(0)->stepperView()->waitForParse());
}

TEST_F(SessionRestoreTest, AfterACrashTheUserMayStartWithoutTheLastSession) {
  writeSession(1);                     // the DS tab was in front
  settings_->setSessionRunning(true);  // and the run never ended cleanly
  answer_ = MainWindow::CrashRecovery::StartWithout;
  auto window = makeWindow();
  window->restoreSession();
  EXPECT_EQ(prompts_, 1);
  EXPECT_EQ(promptedDocuments_, 3);
  EXPECT_EQ(dsStepperCount(*window), 0);
  // The teaching sample instead.
  ASSERT_EQ(window->documentCount(), 1);
  ASSERT_NE(window->grammarViewAt(0), nullptr);
  EXPECT_EQ(window->grammarViewAt(0)->document().displayName(),
            QStringLiteral("pp-attachment.cfg"));
  ASSERT_TRUE(window->grammarViewAt(0)->stepperView()->waitForParse());
  EXPECT_TRUE(settings_->sessionRunning());  // this run is marked in its turn
}

TEST_F(SessionRestoreTest, AfterACrashRestoredTabsWaitForTheirOpenButton) {
  writeSession(1);
  settings_->setSessionRunning(true);
  answer_ = MainWindow::CrashRecovery::Restore;
  auto window = makeWindow();
  window->restoreSession();
  EXPECT_EQ(prompts_, 1);
  ASSERT_EQ(window->documentCount(), 3);
  // Not even the current tab opened, and showing another does not open it either.
  EXPECT_EQ(window->documentTabs()->currentIndex(), 1);
  for (int i = 0; i < 3; ++i) EXPECT_NE(pendingAt(*window, i), nullptr) << i;
  window->documentTabs()->setCurrentIndex(0);
  EXPECT_NE(pendingAt(*window, 0), nullptr);
  EXPECT_EQ(dsStepperCount(*window), 0);
  // The Open button does.
  pendingAt(*window, 0)->openButton()->click();
  ASSERT_NE(window->grammarViewAt(0), nullptr);
  ASSERT_TRUE(window->grammarViewAt(0)->stepperView()->waitForParse());
  EXPECT_EQ(dsStepperCount(*window), 0);
  // Closing the suspect tab and quitting leaves a session without it.
  ASSERT_TRUE(window->closeDocument(1));
  ASSERT_TRUE(window->close());
  const auto saved = Workspace::load(settings_->sessionWorkspacePath());
  ASSERT_TRUE(saved);
  ASSERT_EQ(saved->documents.size(), 2u);
  for (const WorkspaceDocument& d : saved->documents)
    EXPECT_NE(d.kind, WorkspaceDocument::Kind::DsStepper);
}

TEST_F(SessionRestoreTest, NoSessionStartsWithTheDefaultWorkspace) {
  writeSession(1);
  settings_->setSessionRunning(true);
  auto window = makeWindow();
  window->restoreSession(MainWindow::SessionStart::WithoutLastSession);
  EXPECT_EQ(prompts_, 0);
  EXPECT_EQ(dsStepperCount(*window), 0);
  ASSERT_EQ(window->documentCount(), 1);
  ASSERT_NE(window->grammarViewAt(0), nullptr);
  ASSERT_TRUE(window->grammarViewAt(0)->stepperView()->waitForParse());
}

TEST_F(SessionRestoreTest, AFileThatVanishedSaysSoOnItsTab) {
  writeSession(2);
  ASSERT_TRUE(QFile::remove(path("second.cfg")));
  auto window = makeWindow();
  window->restoreSession();
  ASSERT_EQ(window->documentCount(), 3);
  PendingDocumentPage* page = pendingAt(*window, 2);
  ASSERT_NE(page, nullptr);
  EXPECT_TRUE(page->message().contains(QStringLiteral("second.cfg")))
      << page->message().toStdString();
  EXPECT_FALSE(page->opensWhenShown());
}

// CCG tabs wait until shown like the others, then open with their lexicon and parse; one whose
// lexicon no longer reads says where on its tab (file:line:column) and offers to try again.
TEST_F(SessionRestoreTest, CcgTabsOpenWhenShownAndABadLexiconSaysWhere) {
  const QString lexicon = QString::fromStdString(gwb::testing::sourceDir()) +
                          QStringLiteral("/samples/ccg/geography.flex");
  QFile bad(path("bad.flex"));
  ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
  bad.write("lexeme 0.5 texas :- texas:s\nlexeme x states :- state:t\n");
  bad.close();
  const QJsonObject view{{QStringLiteral("sentence"), QStringLiteral("what states border texas")},
                         {QStringLiteral("parsed"), true}};
  Workspace session;
  session.documents.push_back({WorkspaceDocument::Kind::Grammar, path("first.cfg"), {}, {}});
  session.documents.push_back({WorkspaceDocument::Kind::Ccg, lexicon, {}, view});
  session.documents.push_back({WorkspaceDocument::Kind::Ccg, path("bad.flex"), {}, view});
  session.current = 0;
  ASSERT_TRUE(session.save(settings_->sessionWorkspacePath()));
  auto window = makeWindow();
  window->restoreSession();
  ASSERT_EQ(window->documentCount(), 3);
  ASSERT_TRUE(window->grammarViewAt(0)->stepperView()->waitForParse());
  EXPECT_TRUE(window->findChildren<CcgView*>().empty());
  ASSERT_NE(pendingAt(*window, 1), nullptr);
  EXPECT_EQ(window->documentTabs()->tabText(1), QStringLiteral("CCG: geography.flex"));

  window->documentTabs()->setCurrentIndex(1);
  auto* ccg = qobject_cast<CcgView*>(window->documentTabs()->widget(1));
  ASSERT_NE(ccg, nullptr);
  ASSERT_TRUE(ccg->waitForParse());
  ASSERT_NE(ccg->chart(), nullptr) << ccg->statusText().toStdString();
  EXPECT_EQ(ccg->sentence(), QStringLiteral("what states border texas"));

  window->documentTabs()->setCurrentIndex(2);
  PendingDocumentPage* page = pendingAt(*window, 2);
  ASSERT_NE(page, nullptr);
  EXPECT_TRUE(page->message().contains(QStringLiteral("bad.flex:2:8: error:")))
      << page->message().toStdString();
  EXPECT_FALSE(page->opensWhenShown());
}

}  // namespace
}  // namespace gwb::ui
