// Workspaces: the JSON format round-trips, bad files are reported, and a window restores
// what another saved — documents, pages, the stepper's step and settings, tree and corpus
// views — as well as the last session and, the first time, the teaching sample.
#include "ui/workspace.h"

#include <memory>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "shared_data.h"
#include "ui/app_settings.h"
#include "ui/corpus_view.h"
#include "ui/earley_stepper.h"
#include "ui/grammar_document.h"
#include "ui/grammar_view.h"
#include "ui/main_window.h"
#include "ui/parse_session.h"
#include "ui/parse_tree_view.h"
#include "ui/stepper_view.h"

namespace gwb::ui {
namespace {

Workspace sampleWorkspace(const QString& base) {
  Workspace w;
  w.documents.push_back({WorkspaceDocument::Kind::Grammar, base + QStringLiteral("/g/a.cfg"),
                         QStringLiteral("S"),
                         QJsonObject{{QStringLiteral("page"), QStringLiteral("stepper")}}});
  w.documents.push_back({WorkspaceDocument::Kind::Corpus, base + QStringLiteral("/c.txt"),
                         QString(), QJsonObject{{QStringLiteral("filter"), QStringLiteral("x")}}});
  w.documents.push_back({WorkspaceDocument::Kind::Grammar,
                         QStringLiteral(":/samples/pp-attachment.cfg"),
                         QString(),
                         {}});
  w.current = 1;
  w.windowGeometry = QByteArray("\x01\x02geometry", 10);
  w.windowState = QByteArray("state");
  return w;
}

TEST(WorkspaceTest, JsonRoundTripsWithRelativePaths) {
  const QString base = QStringLiteral("/home/teacher/course");
  const Workspace w = sampleWorkspace(base);
  const QJsonObject json = w.toJson(base);
  const QJsonArray documents = json.value(QStringLiteral("documents")).toArray();
  EXPECT_EQ(documents[0].toObject().value(QStringLiteral("path")).toString(),
            QStringLiteral("g/a.cfg"));
  EXPECT_EQ(documents[2].toObject().value(QStringLiteral("path")).toString(),
            QStringLiteral(":/samples/pp-attachment.cfg"));
  const auto back = Workspace::fromJson(json, base);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, w);
  // Read from another folder, relative paths resolve against that folder.
  const auto moved = Workspace::fromJson(json, QStringLiteral("/mnt/usb"));
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->documents[0].path, QStringLiteral("/mnt/usb/g/a.cfg"));
  // Far-away files keep their absolute path.
  Workspace far;
  far.documents.push_back(
      {WorkspaceDocument::Kind::Grammar, QStringLiteral("/usr/share/x.cfg"), QString(), {}});
  EXPECT_EQ(far.toJson(base)
                .value(QStringLiteral("documents"))
                .toArray()[0]
                .toObject()
                .value(QStringLiteral("path"))
                .toString(),
            QStringLiteral("/usr/share/x.cfg"));
}

TEST(WorkspaceTest, MalformedWorkspacesAreReported) {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {R"({"documents": []})", "not a Grammar Workbench workspace"},
      {R"({"format": "grammar-workbench-workspace", "version": 7})", "version 7"},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "documents": [{"kind": "grammar"}]})",
       "document 1 has no path"},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "documents": [{"kind": "poem", "path": "x"}]})",
       "unknown kind"},
  };
  for (const Case& c : cases) {
    QString error;
    EXPECT_FALSE(Workspace::fromJson(QJsonDocument::fromJson(c.json).object(), {}, &error))
        << c.json;
    EXPECT_TRUE(error.contains(QString::fromLatin1(c.error))) << error.toStdString();
  }
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("broken.gwb-workspace"));
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("{ not json");
  file.close();
  QString error;
  EXPECT_FALSE(Workspace::load(path, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("not valid JSON")));
  EXPECT_FALSE(Workspace::load(dir.filePath(QStringLiteral("missing")), &error));
}

TEST(WorkspaceTest, SaveIsAtomicAndLoadsBack) {
  QTemporaryDir dir;
  const Workspace w = sampleWorkspace(dir.path());
  const QString path = dir.filePath(QStringLiteral("w.gwb-workspace"));
  QString error;
  ASSERT_TRUE(w.save(path, &error)) << error.toStdString();
  const auto back = Workspace::load(path, &error);
  ASSERT_TRUE(back) << error.toStdString();
  EXPECT_EQ(*back, w);
  EXPECT_FALSE(w.save(dir.filePath(QStringLiteral("no/such/dir/w.gwb-workspace")), &error));
}

class WorkspaceWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    // A private copy of the teaching grammar and its sentences.
    for (const char* name : {"pp-attachment.cfg", "pp-attachment.txt"}) {
      ASSERT_TRUE(QFile::copy(QString::fromStdString(gwb::testing::sourceDir()) +
                                  QStringLiteral("/samples/") + QLatin1String(name),
                              dir_.filePath(QLatin1String(name))));
    }
    window_ = makeWindow(QStringLiteral("first.ini"));
  }
  std::unique_ptr<MainWindow> makeWindow(const QString& settingsName) {
    stores_.push_back(
        std::make_unique<QSettings>(dir_.filePath(settingsName), QSettings::IniFormat));
    settings_.push_back(std::make_unique<AppSettings>(*stores_.back()));
    auto window = std::make_unique<MainWindow>(*settings_.back());
    window->setUnsavedChangesPrompt([](const QString&) { return QMessageBox::Discard; });
    return window;
  }
  static void waitForParses(MainWindow& window) {
    for (int i = 0; i < window.documentCount(); ++i) {
      if (GrammarView* view = window.grammarViewAt(i)) {
        ASSERT_TRUE(view->stepperView()->waitForParse());
      }
    }
  }
  QTemporaryDir dir_;
  std::vector<std::unique_ptr<QSettings>> stores_;
  std::vector<std::unique_ptr<AppSettings>> settings_;
  std::unique_ptr<MainWindow> window_;
};

TEST_F(WorkspaceWindowTest, AnotherWindowRestoresDocumentsAndViews) {
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.cfg"))));
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.txt"))));
  ASSERT_EQ(window_->documentCount(), 2);
  GrammarView* grammar = window_->grammarViewAt(0);
  ASSERT_NE(grammar, nullptr);
  CorpusView* corpus = window_->corpusViewAt(1);
  ASSERT_NE(corpus, nullptr);

  // The corpus sends a sentence to the grammar's stepper.
  corpus->selectRows({1});
  ASSERT_TRUE(window_->sendToStepper(corpus->selectedText()));
  StepperView* stepper = grammar->stepperView();
  ASSERT_TRUE(stepper->waitForParse());
  EXPECT_EQ(stepper->sentence(), QStringLiteral("john saw a man in the park with a telescope"));
  EXPECT_EQ(grammar->currentPage(), GrammarView::Page::Stepper);

  stepper->stepper()->runToPosition(5);
  stepper->stepper()->addBreakpoint({gwb::OperationKind::Scan, QStringLiteral("park"), true});
  stepper->setFilter({true, false, QString()});
  stepper->setNumberFormat(NumberFormat::LogProbability);
  stepper->selectItem({5, 0});
  grammar->treeView()->toggleCollapsed(
      grammar->treeView()->tree().node(grammar->treeView()->tree().root()).children[1]);
  grammar->setFilter(QStringLiteral("NP"), false);
  corpus->filterEdit();  // keep the corpus selection as it is

  const QString path = dir_.filePath(QStringLiteral("lesson.gwb-workspace"));
  QString error;
  ASSERT_TRUE(window_->saveWorkspace(path, &error)) << error.toStdString();
  const Workspace saved = window_->captureWorkspace();

  auto other = makeWindow(QStringLiteral("second.ini"));
  ASSERT_TRUE(other->loadWorkspace(path, &error)) << error.toStdString();
  waitForParses(*other);
  ASSERT_EQ(other->documentCount(), 2);
  const Workspace restored = other->captureWorkspace();
  ASSERT_EQ(restored.documents.size(), saved.documents.size());
  for (std::size_t i = 0; i < saved.documents.size(); ++i) {
    EXPECT_EQ(restored.documents[i].path, saved.documents[i].path);
    EXPECT_EQ(restored.documents[i].kind, saved.documents[i].kind);
    EXPECT_EQ(restored.documents[i].view, saved.documents[i].view)
        << QJsonDocument(restored.documents[i].view).toJson().toStdString() << "\nvs\n"
        << QJsonDocument(saved.documents[i].view).toJson().toStdString();
  }
  EXPECT_EQ(restored.current, saved.current);
  GrammarView* again = other->grammarViewAt(0);
  EXPECT_EQ(again->stepperView()->stepper()->applied(), stepper->stepper()->applied());
  EXPECT_TRUE(again->treeView()->isCollapsed(
      again->treeView()->tree().node(again->treeView()->tree().root()).children[1]));
  EXPECT_EQ(other->corpusViewAt(1)->selectedRows(), std::vector<int>{1});
}

TEST_F(WorkspaceWindowTest, FirstStartShowsTheTeachingSampleInTheStepper) {
  window_->restoreSession();
  ASSERT_EQ(window_->documentCount(), 1);
  GrammarView* view = window_->grammarViewAt(0);
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->document().displayName(), QStringLiteral("pp-attachment.cfg"));
  EXPECT_EQ(view->currentPage(), GrammarView::Page::Stepper);
  StepperView* stepper = view->stepperView();
  ASSERT_TRUE(stepper->waitForParse());
  EXPECT_EQ(stepper->sentence(), QStringLiteral("i saw the man with the telescope"));
  ASSERT_TRUE(stepper->session());
  EXPECT_TRUE(stepper->session()->result().success);
  // Two words read: a chart one can step from straight away.
  EXPECT_EQ(stepper->stepper()->applied(), stepper->session()->stepsBeforeSet(3));
  EXPECT_FALSE(stepper->stepper()->atEnd());
  // The sample's other sentences are offered too.
  EXPECT_GE(stepper->sentences().size(), 4);
}

TEST_F(WorkspaceWindowTest, TheNextStartRestoresTheLastSession) {
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.cfg"))));
  GrammarView* view = window_->grammarViewAt(0);
  ASSERT_TRUE(view->stepperView()->waitForParse());
  view->showPage(GrammarView::Page::Tree);
  ASSERT_TRUE(window_->close());
  const QString session = settings_.front()->sessionWorkspacePath();
  ASSERT_TRUE(QFile::exists(session)) << session.toStdString();

  // Same settings file: same session.
  settings_.push_back(std::make_unique<AppSettings>(*stores_.front()));
  MainWindow next(*settings_.back());
  next.restoreSession();
  ASSERT_EQ(next.documentCount(), 1);
  EXPECT_EQ(next.grammarViewAt(0)->document().filePath(),
            dir_.filePath(QStringLiteral("pp-attachment.cfg")));
  EXPECT_EQ(next.grammarViewAt(0)->currentPage(), GrammarView::Page::Tree);
  ASSERT_TRUE(next.grammarViewAt(0)->stepperView()->waitForParse());
}

// Dropped or command-line files open by kind: grammars, corpora and workspaces.
TEST_F(WorkspaceWindowTest, FilesOpenByTheirKind) {
  const QStringList files{dir_.filePath(QStringLiteral("pp-attachment.cfg")),
                          dir_.filePath(QStringLiteral("pp-attachment.txt"))};
  EXPECT_EQ(window_->openGrammars(files), 2);
  EXPECT_NE(window_->grammarViewAt(0), nullptr);
  ASSERT_NE(window_->corpusViewAt(1), nullptr);
  EXPECT_EQ(window_->corpusViewAt(1)->document().utterances().size(), 4u);
  waitForParses(*window_);
  const QString lesson = dir_.filePath(QStringLiteral("lesson.gwb-workspace"));
  ASSERT_TRUE(window_->saveWorkspace(lesson));

  auto other = makeWindow(QStringLiteral("other.ini"));
  EXPECT_EQ(other->openGrammars({lesson}), 1);
  EXPECT_EQ(other->documentCount(), 2);
  EXPECT_EQ(other->workspacePath(), lesson);
  waitForParses(*other);
}

TEST_F(WorkspaceWindowTest, MissingDocumentsAreReportedAndTheRestOpens) {
  Workspace w;
  w.documents.push_back(
      {WorkspaceDocument::Kind::Grammar, dir_.filePath(QStringLiteral("gone.cfg")), QString(), {}});
  w.documents.push_back({WorkspaceDocument::Kind::Grammar,
                         dir_.filePath(QStringLiteral("pp-attachment.cfg")),
                         QString(),
                         {}});
  QString error;
  EXPECT_TRUE(window_->applyWorkspace(w, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("gone.cfg"))) << error.toStdString();
  EXPECT_EQ(window_->documentCount(), 1);
  waitForParses(*window_);
}

}  // namespace
}  // namespace gwb::ui
