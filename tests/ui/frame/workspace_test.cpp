// Workspaces: the JSON format round-trips, bad files are reported, and a window restores
// what another saved — documents, pages, the stepper's step and settings, tree and corpus
// views, DS stepper tabs with their sentence, strategy, step and node, CCG tabs with their
// lexicon, sentence file, options, step and selection — as well as the last session and, the
// first time, the teaching sample.
#include "ui/frame/workspace.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>
#include <QStringList>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "shared_data.h"
#include "ui/ccg/ccg_chart_view.h"
#include "ui/ccg/ccg_proof_view.h"
#include "ui/ccg/ccg_view.h"
#include "ui/ds/ds_dag_model.h"
#include "ui/ds/ds_dag_view.h"
#include "ui/ds/ds_learning_view.h"
#include "ui/ds/ds_stepper_view.h"
#include "ui/earley/earley_stepper.h"
#include "ui/earley/grammar_document.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/parse_tree_view.h"
#include "ui/earley/stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"
#include "ui/grounded/corpus_view.h"

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

TEST(WorkspaceTest, DsStepperDocumentsRoundTrip) {
  const QString base = QStringLiteral("/home/teacher/course");
  Workspace w = sampleWorkspace(base);
  const QJsonObject view{{QStringLiteral("sentence"), QStringLiteral("john likes mary")},
                         {QStringLiteral("strategy"), QStringLiteral("best-first")},
                         {QStringLiteral("beam"), 4},
                         {QStringLiteral("position"), 7},
                         {QStringLiteral("selected"), 5},
                         {QStringLiteral("zoom"), 1.25}};
  w.documents.insert(w.documents.begin() + 1,
                     {WorkspaceDocument::Kind::DsStepper,
                      base + QStringLiteral("/dylan/2013-english-ttr"), QString(), view});
  // No folder: the stepper's default one.
  w.documents.push_back({WorkspaceDocument::Kind::DsStepper, QString(), QString(), {}});
  w.current = 1;
  const QJsonObject json = w.toJson(base);
  const QJsonObject ds = json.value(QStringLiteral("documents")).toArray()[1].toObject();
  EXPECT_EQ(ds.value(QStringLiteral("kind")).toString(), QStringLiteral("ds-stepper"));
  EXPECT_EQ(ds.value(QStringLiteral("path")).toString(), QStringLiteral("dylan/2013-english-ttr"));
  EXPECT_EQ(ds.value(QStringLiteral("view")).toObject(), view);
  // Through the file's text, and read back from another folder.
  const QJsonObject text = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
  const auto back = Workspace::fromJson(text, base);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, w);
  const auto moved = Workspace::fromJson(text, QStringLiteral("/mnt/usb"));
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->documents[1].kind, WorkspaceDocument::Kind::DsStepper);
  EXPECT_EQ(moved->documents[1].path, QStringLiteral("/mnt/usb/dylan/2013-english-ttr"));
  EXPECT_EQ(moved->documents.back().path, QString());

  // A version-1 file written before DS stepper documents existed still reads as it did.
  const char* old = R"({"format": "grammar-workbench-workspace", "version": 1, "current": 1,
      "documents": [{"kind": "grammar", "path": "g/a.cfg", "root": "S", "view": {}},
                    {"kind": "corpus", "path": "c.txt", "view": {"filter": "x"}}]})";
  QString error;
  const auto older = Workspace::fromJson(QJsonDocument::fromJson(old).object(), base, &error);
  ASSERT_TRUE(older) << error.toStdString();
  ASSERT_EQ(older->documents.size(), 2u);
  EXPECT_EQ(older->documents[0].kind, WorkspaceDocument::Kind::Grammar);
  EXPECT_EQ(older->documents[0].path, base + QStringLiteral("/g/a.cfg"));
  EXPECT_EQ(older->documents[1].kind, WorkspaceDocument::Kind::Corpus);
  EXPECT_EQ(older->current, 1);
}

// A tab of `kind` (written as `kindName`) whose path is `path` below the workspace's folder and
// whose view holds, besides other settings, files at the `pathKeys`, inserted as the second
// document, and a tab of the same kind with no file at the end: the files are stored relative
// to the workspace's folder, resolved against the folder the workspace is read from, and the
// tab with no file is kept.
void expectTabRoundTripsWithItsPaths(WorkspaceDocument::Kind kind, const char* kindName,
                                     const QString& path, const QJsonObject& view,
                                     const QStringList& pathKeys) {
  const QString base = QStringLiteral("/home/teacher/course");
  const QString usb = QStringLiteral("/mnt/usb");
  auto below = [](const QString& folder, const QString& relative) -> QString {
    return folder + QLatin1Char('/') + relative;
  };
  QJsonObject absoluteView = view;
  for (const QString& key : pathKeys) absoluteView[key] = below(base, view.value(key).toString());
  Workspace w = sampleWorkspace(base);
  w.documents.insert(w.documents.begin() + 1, {kind, below(base, path), QString(), absoluteView});
  w.documents.push_back({kind, QString(), QString(), {}});
  const QJsonObject json = w.toJson(base);
  const QJsonObject tab = json.value(QStringLiteral("documents")).toArray()[1].toObject();
  EXPECT_EQ(tab.value(QStringLiteral("kind")).toString(), QString::fromLatin1(kindName));
  EXPECT_EQ(tab.value(QStringLiteral("path")).toString(), path);
  for (const QString& key : pathKeys)
    EXPECT_EQ(tab.value(QStringLiteral("view")).toObject().value(key), view.value(key))
        << key.toStdString();
  const QJsonObject text = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
  const auto back = Workspace::fromJson(text, base);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, w);
  const auto moved = Workspace::fromJson(text, usb);
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->documents[1].path, below(usb, path));
  for (const QString& key : pathKeys)
    EXPECT_EQ(moved->documents[1].view.value(key).toString(),
              below(usb, view.value(key).toString()));
  EXPECT_EQ(moved->documents.back().kind, kind);
  EXPECT_EQ(moved->documents.back().path, QString());
}

// A CCG tab: its path is the lexicon, its view's sentence file is stored like it.
TEST(WorkspaceTest, CcgDocumentsRoundTripWithTheirSentenceFile) {
  const QJsonObject view{{QStringLiteral("sentences"), QStringLiteral("ccg/geography.ccg")},
                         {QStringLiteral("sentence"), QStringLiteral("what states border texas")},
                         {QStringLiteral("kbest"), 5},
                         {QStringLiteral("parsed"), true},
                         {QStringLiteral("cell"), QJsonArray{0, 4}},
                         {QStringLiteral("entry"), QJsonArray{1, 3, 0}}};
  expectTabRoundTripsWithItsPaths(WorkspaceDocument::Kind::Ccg, "ccg",
                                  QStringLiteral("ccg/geography.flex"), view,
                                  {QStringLiteral("sentences")});
}

// A DS learning tab: its path is the training file, its view's seed folder and test file are
// stored like it.
TEST(WorkspaceTest, DsLearnDocumentsRoundTripWithTheirPaths) {
  const QJsonObject view{{QStringLiteral("seed"), QStringLiteral("dylan/seed")},
                         {QStringLiteral("test"), QStringLiteral("eve/test.txt")},
                         {QStringLiteral("top"), 3},
                         {QStringLiteral("tab"), QStringLiteral("test")},
                         {QStringLiteral("learned"), true},
                         {QStringLiteral("word"), QStringLiteral("Mommy")},
                         {QStringLiteral("testItem"), 2}};
  expectTabRoundTripsWithItsPaths(WorkspaceDocument::Kind::DsLearn, "ds-learn",
                                  QStringLiteral("eve/train.txt"), view,
                                  {QStringLiteral("seed"), QStringLiteral("test")});
}

// A FUBL learner tab: its path is the training file; its form's files and the model shown are
// stored like it.
TEST(WorkspaceTest, FublDocumentsRoundTripWithTheirPaths) {
  const QJsonObject view{{QStringLiteral("training"), QStringLiteral("geo/train.ccg")},
                         {QStringLiteral("fixed"), QStringLiteral("geo/np-fixedlex.geo")},
                         {QStringLiteral("test"), QStringLiteral("geo/test.ccg")},
                         {QStringLiteral("model"), QStringLiteral("runs/geo.ccgmodel")},
                         {QStringLiteral("shownModel"), QStringLiteral("runs/geo.ccgmodel")},
                         {QStringLiteral("passes"), 10},
                         {QStringLiteral("page"), QStringLiteral("lexicon")},
                         {QStringLiteral("filter"), QStringLiteral("texas")}};
  expectTabRoundTripsWithItsPaths(
      WorkspaceDocument::Kind::Fubl, "fubl", QStringLiteral("geo/train.ccg"), view,
      {QStringLiteral("training"), QStringLiteral("fixed"), QStringLiteral("test"),
       QStringLiteral("model"), QStringLiteral("shownModel")});
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
       "document 1 (grammar) has no path"},
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

// Core writes the file now; it must be what Qt's QJsonDocument wrote before, byte for byte, for
// the same workspace (numbers of every kind, Unicode, empty containers), and a file written by
// Qt must load as it did.
TEST(WorkspaceTest, CoreWritesWhatQtWrites) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  Workspace w = sampleWorkspace(dir.path());
  QJsonArray numbers;
  for (const double d : {0.0,
                         -0.0,
                         1.0,
                         1.25,
                         100000.0,
                         1e15,
                         1e16,
                         9007199254740994.0,
                         1e20,
                         1e21,
                         0.0001,
                         0.00001,
                         0.000123,
                         1.5e-7,
                         -2.5,
                         0.1,
                         1e100,
                         -1e-300,
                         123456789012345678.0,
                         5e-324,
                         1.7976931348623157e308})
    numbers.append(d);
  for (const qint64 n :
       {qint64{0}, qint64{-7}, qint64{1} << 60, std::numeric_limits<qint64>::min()})
    numbers.append(n);
  std::mt19937_64 random(13);
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t bits = random();
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    if (std::isfinite(d)) numbers.append(d);
    numbers.append(static_cast<double>(random() % 100000) /
                   std::pow(10.0, static_cast<double>(random() % 12)));
  }
  w.documents[0].view.insert(QStringLiteral("numbers"), numbers);
  w.documents[0].view.insert(QStringLiteral("text"),
                             QString::fromUtf8("\xc3\xa9 \xf0\x9f\x98\x80 \x01\x7f \" \\ / \t"));
  w.documents[1].view.insert(
      QStringLiteral("empty"),
      QJsonObject{{QStringLiteral("a"), QJsonArray{}}, {QStringLiteral("b"), QJsonObject{}}});
  w.documents[1].view.insert(QString::fromUtf8("\xef\xbf\xbd"), 1);
  w.documents[1].view.insert(QString::fromUtf8("\xf0\x9d\x84\x9e"), 2);

  const QString path = dir.filePath(QStringLiteral("w.gwb-workspace"));
  QString error;
  ASSERT_TRUE(w.save(path, &error)) << error.toStdString();
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray written = file.readAll();
  file.close();
  const QByteArray qt = QJsonDocument(w.toJson(dir.path())).toJson(QJsonDocument::Indented);
  EXPECT_EQ(written, qt);

  // A file Qt wrote (as the workbench did before core read workspaces) loads with the same
  // values (numbers compare as numbers: an integer above 2^53 that a double wrote reads back as
  // an integer, in Qt as in core) and is written back byte for byte.
  const QString old = dir.filePath(QStringLiteral("old.gwb-workspace"));
  QFile oldFile(old);
  ASSERT_TRUE(oldFile.open(QIODevice::WriteOnly));
  oldFile.write(QJsonDocument(w.toJson(dir.path())).toJson(QJsonDocument::Indented));
  oldFile.close();
  const auto back = Workspace::load(old, &error);
  ASSERT_TRUE(back) << error.toStdString();
  ASSERT_EQ(back->documents.size(), w.documents.size());
  for (std::size_t i = 0; i < w.documents.size(); ++i) {
    EXPECT_EQ(back->documents[i].path, w.documents[i].path);
    EXPECT_EQ(QJsonDocument(back->documents[i].view).toJson(),
              QJsonDocument(w.documents[i].view).toJson());
  }
  EXPECT_EQ(back->windowGeometry, w.windowGeometry);
  ASSERT_TRUE(back->save(path, &error));
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_EQ(file.readAll(), written);
}

// Errors name the line and column where the JSON breaks.
TEST(WorkspaceTest, JsonErrorsNameTheLineAndColumn) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("w.gwb-workspace"));
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("{\r\n    \"format\": \"grammar-workbench-workspace\",\r\n    \"version\": 1,,\r\n}");
  file.close();
  QString error;
  EXPECT_FALSE(Workspace::load(path, &error));
  EXPECT_TRUE(error.startsWith(QStringLiteral("line 3, column 18: not valid JSON")))
      << error.toStdString();
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
      if (DsStepperView* ds = dsViewAt(window, i)) {
        ASSERT_TRUE(ds->waitForParse());
      }
    }
  }
  static DsStepperView* dsViewAt(const MainWindow& window, int index) {
    return qobject_cast<DsStepperView*>(window.documentTabs()->widget(index));
  }
  // The shared DyLan grammar; empty (after skipping the test, or failing it under CI) if absent.
  static QString dylanGrammar() { return DsStepperView::defaultGrammarDirectory(); }
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

#define GWB_REQUIRE_DYLAN(var)                                                         \
  const QString var = dylanGrammar();                                                  \
  if (var.isEmpty()) {                                                                 \
    if (::gwb::testing::runningInCi()) FAIL() << "shared DyLan grammar missing in CI"; \
    GTEST_SKIP() << "shared DyLan grammar not found (set GWB_SHARED_DIR)";             \
  }

// A DS stepper tab between a grammar and a corpus: another window reopens it in its place,
// parses, and comes back to the same step and node with the same settings.
TEST_F(WorkspaceWindowTest, DsStepperTabsAreRestored) {
  GWB_REQUIRE_DYLAN(dylan);
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.cfg"))));
  DsStepperView* ds = window_->openDsStepper(dylan);
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.txt"))));
  // A second DS tab, best-first, left at its end with the default selection.
  DsStepperView* best = window_->openDsStepper(dylan);
  best->setBestFirst(true);
  best->setSentence(QStringLiteral("a man likes mary"));
  ASSERT_TRUE(best->parse());
  ASSERT_TRUE(best->waitForParse());
  best->goToStep(QStringLiteral("end"));

  ds->setSentence(QStringLiteral("john likes mary"));
  ds->setBeam(6);
  ASSERT_TRUE(ds->parse());
  ASSERT_TRUE(ds->waitForParse());
  DsDagModel* model = ds->dagModel();
  ASSERT_NE(model->result(), nullptr) << ds->statusText().toStdString();
  model->toEnd();
  const int middle = model->edgeCount() / 2;
  ASSERT_GT(middle, 2);
  while (model->visibleEdges() > middle) ASSERT_TRUE(model->stepBack());
  // A node that stepping alone would not select.
  const int node = 1;
  ASSERT_NE(ds->selectedNode(), node);
  ds->selectNode(node);
  ASSERT_EQ(ds->selectedNode(), node);
  ds->dagView()->setZoom(1.25);
  window_->documentTabs()->setCurrentIndex(1);

  const QString path = dir_.filePath(QStringLiteral("ds.gwb-workspace"));
  QString error;
  ASSERT_TRUE(window_->saveWorkspace(path, &error)) << error.toStdString();
  const Workspace saved = window_->captureWorkspace();
  ASSERT_EQ(saved.documents.size(), 4u);
  EXPECT_EQ(saved.documents[1].kind, WorkspaceDocument::Kind::DsStepper);
  EXPECT_EQ(saved.documents[1].path, dylan);
  EXPECT_EQ(saved.current, 1);

  auto other = makeWindow(QStringLiteral("second.ini"));
  ASSERT_TRUE(other->loadWorkspace(path, &error)) << error.toStdString();
  EXPECT_TRUE(error.isEmpty()) << error.toStdString();
  ASSERT_EQ(other->documentCount(), 4);
  EXPECT_NE(other->grammarViewAt(0), nullptr);
  EXPECT_NE(other->corpusViewAt(2), nullptr);
  EXPECT_EQ(other->documentTabs()->currentIndex(), 1);
  DsStepperView* again = dsViewAt(*other, 1);
  DsStepperView* bestAgain = dsViewAt(*other, 3);
  ASSERT_NE(again, nullptr);
  ASSERT_NE(bestAgain, nullptr);
  waitForParses(*other);
  ASSERT_NE(again->dagModel()->result(), nullptr) << again->statusText().toStdString();
  EXPECT_EQ(again->grammarDirectory(), dylan);
  EXPECT_EQ(again->sentence(), QStringLiteral("john likes mary"));
  EXPECT_FALSE(again->bestFirst());
  EXPECT_EQ(again->beam(), 6);
  EXPECT_EQ(again->dagModel()->edgeCount(), model->edgeCount());
  EXPECT_EQ(again->dagModel()->visibleEdges(), middle);
  EXPECT_EQ(again->selectedNode(), node);
  EXPECT_EQ(again->dagView()->selectedNode(), node);
  EXPECT_EQ(again->recordText(), ds->recordText());
  EXPECT_DOUBLE_EQ(again->dagView()->zoom(), 1.25);
  EXPECT_FALSE(again->dagView()->autoFit());
  EXPECT_FALSE(again->statusText().contains(QStringLiteral("Workspace")))
      << again->statusText().toStdString();
  EXPECT_TRUE(bestAgain->bestFirst());
  EXPECT_EQ(bestAgain->sentence(), QStringLiteral("a man likes mary"));
  EXPECT_EQ(bestAgain->dagModel()->visibleEdges(), bestAgain->dagModel()->edgeCount());
  EXPECT_EQ(bestAgain->selectedNode(), best->selectedNode());
  EXPECT_TRUE(bestAgain->dagView()->autoFit());
  const Workspace restored = other->captureWorkspace();
  ASSERT_EQ(restored.documents.size(), saved.documents.size());
  for (std::size_t i = 0; i < saved.documents.size(); ++i) {
    EXPECT_EQ(restored.documents[i].kind, saved.documents[i].kind);
    EXPECT_EQ(restored.documents[i].path, saved.documents[i].path);
  }
  EXPECT_EQ(restored.documents[1].view, saved.documents[1].view);
  EXPECT_EQ(restored.documents[3].view, saved.documents[3].view);
}

QString ccgSample(const char* name) {
  return QString::fromStdString(gwb::testing::sourceDir() + "/samples/ccg/") +
         QString::fromLatin1(name);
}

// A CCG tab between a grammar and a DS-less corpus: another window reopens it in its place with
// its lexicon, sentence file, sentence, options, parse and the parse its proof showed; a second
// CCG tab, left mid-replay on another sentence, comes back at that step.
TEST_F(WorkspaceWindowTest, CcgTabsAreRestored) {
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.cfg"))));
  CcgView* ccg = window_->openCcgView(ccgSample("geography.flex"));
  ASSERT_NE(ccg, nullptr);
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.txt"))));
  CcgView* replay = window_->openCcgView(ccgSample("geography.flex"));
  ASSERT_NE(replay, nullptr);

  ccg->setSentence(QStringLiteral("what are the major cities in ohio"));
  ccg->setKBest(4);
  ccg->setBeam(30);
  ASSERT_TRUE(ccg->parse());
  ASSERT_TRUE(ccg->waitForParse());
  ASSERT_NE(ccg->chart(), nullptr) << ccg->statusText().toStdString();
  ASSERT_GE(ccg->derivations().size(), 2u);
  ccg->selectDerivation(1);
  replay->setSentence(QStringLiteral("what states border texas"));
  ASSERT_TRUE(replay->parse());
  ASSERT_TRUE(replay->waitForParse());
  replay->goToStep(QStringLiteral("cell:1-3"));
  const int step = replay->stepPosition();
  ASSERT_LT(step, replay->stepCount());
  window_->documentTabs()->setCurrentIndex(1);

  const QString path = dir_.filePath(QStringLiteral("ccg.gwb-workspace"));
  QString error;
  ASSERT_TRUE(window_->saveWorkspace(path, &error)) << error.toStdString();
  const Workspace saved = window_->captureWorkspace();
  ASSERT_EQ(saved.documents.size(), 4u);
  EXPECT_EQ(saved.documents[1].kind, WorkspaceDocument::Kind::Ccg);
  EXPECT_EQ(saved.documents[1].path, ccgSample("geography.flex"));
  EXPECT_EQ(saved.documents[1].view.value(QStringLiteral("sentences")).toString(),
            ccgSample("geography.ccg"));
  EXPECT_EQ(saved.documents[3].kind, WorkspaceDocument::Kind::Ccg);
  // In the file: kind "ccg".
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QJsonArray documents =
      QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("documents")).toArray();
  EXPECT_EQ(documents[1].toObject().value(QStringLiteral("kind")).toString(),
            QStringLiteral("ccg"));

  auto other = makeWindow(QStringLiteral("second.ini"));
  ASSERT_TRUE(other->loadWorkspace(path, &error)) << error.toStdString();
  EXPECT_TRUE(error.isEmpty()) << error.toStdString();
  ASSERT_EQ(other->documentCount(), 4);
  EXPECT_NE(other->grammarViewAt(0), nullptr);
  EXPECT_NE(other->corpusViewAt(2), nullptr);
  EXPECT_EQ(other->documentTabs()->currentIndex(), 1);
  EXPECT_EQ(other->documentTabs()->tabText(1), QStringLiteral("CCG: geography.flex"));
  auto* again = qobject_cast<CcgView*>(other->documentTabs()->widget(1));
  auto* replayAgain = qobject_cast<CcgView*>(other->documentTabs()->widget(3));
  ASSERT_NE(again, nullptr);
  ASSERT_NE(replayAgain, nullptr);
  ASSERT_TRUE(again->waitForParse());
  ASSERT_TRUE(replayAgain->waitForParse());
  waitForParses(*other);
  ASSERT_NE(again->chart(), nullptr) << again->statusText().toStdString();
  EXPECT_EQ(again->lexiconPath(), ccgSample("geography.flex"));
  EXPECT_EQ(again->sentencesPath(), ccgSample("geography.ccg"));
  EXPECT_EQ(again->sentence(), QStringLiteral("what are the major cities in ohio"));
  EXPECT_EQ(again->kBest(), 4);
  EXPECT_EQ(again->beam(), 30);
  EXPECT_EQ(again->shownDerivation(), 1);
  EXPECT_EQ(again->derivationTable()->currentRow(), 1);
  EXPECT_EQ(again->chart()->entryCount(), ccg->chart()->entryCount());
  EXPECT_EQ(again->proofView()->layout().lines.back().logicalForm,
            ccg->proofView()->layout().lines.back().logicalForm);
  ASSERT_NE(replayAgain->chart(), nullptr) << replayAgain->statusText().toStdString();
  EXPECT_EQ(replayAgain->stepPosition(), step);
  EXPECT_EQ(replayAgain->chartView()->selectedCell(), std::make_pair(1, 3));
  const Workspace restored = other->captureWorkspace();
  ASSERT_EQ(restored.documents.size(), saved.documents.size());
  for (std::size_t i = 0; i < saved.documents.size(); ++i) {
    EXPECT_EQ(restored.documents[i].kind, saved.documents[i].kind);
    EXPECT_EQ(restored.documents[i].path, saved.documents[i].path);
  }
  EXPECT_EQ(restored.documents[1].view, saved.documents[1].view);
  EXPECT_EQ(restored.documents[3].view, saved.documents[3].view);
}

// The DS learning tab between a grammar and a corpus: another window reopens it with its
// training file, seed folder, test file and top-N, learns again, and comes back to the same
// word, test item and tab. With the training file gone, the tab still opens, says which file
// is missing, learns nothing, and the rest of the workspace opens.
TEST_F(WorkspaceWindowTest, DsLearningTabsAreRestored) {
  const QString seed = DsLearningView::defaultSeedDirectory();
  if (seed.isEmpty()) {
    if (::gwb::testing::runningInCi()) FAIL() << "shared DyLan induction seed missing in CI";
    GTEST_SKIP() << "shared DyLan induction seed not found (set GWB_SHARED_DIR)";
  }
  const QString eval =
      QString::fromStdString(gwb::testing::sourceDir()) + QStringLiteral("/tests/data/ds/eval/");
  const QString train = dir_.filePath(QStringLiteral("tiny-train.txt"));
  const QString test = dir_.filePath(QStringLiteral("tiny-test.txt"));
  ASSERT_TRUE(QFile::copy(eval + QStringLiteral("tiny-train.txt"), train));
  ASSERT_TRUE(QFile::copy(eval + QStringLiteral("tiny-test.txt"), test));
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.cfg"))));
  DsLearningView* view = window_->openDsLearning();
  ASSERT_TRUE(window_->openFile(dir_.filePath(QStringLiteral("pp-attachment.txt"))));
  view->setSeedDirectory(seed);
  view->setTrainPath(train);
  view->setTestPath(test);
  view->setTop(2);
  ASSERT_TRUE(view->startLearning()) << view->statusText().toStdString();
  ASSERT_TRUE(view->waitForLearning());
  ASSERT_NE(view->lexicon(), nullptr) << view->statusText().toStdString();
  ASSERT_TRUE(view->selectWord(QStringLiteral("Mommy")));
  ASSERT_GE(view->testItemCount(), 2);
  ASSERT_TRUE(view->selectTestItem(1));
  ASSERT_TRUE(view->waitForInspection());
  ASSERT_NE(view->evaluation(), nullptr);
  view->showTab(DsLearningView::TestTab);
  window_->documentTabs()->setCurrentIndex(1);

  const QString path = dir_.filePath(QStringLiteral("learn.gwb-workspace"));
  QString error;
  ASSERT_TRUE(window_->saveWorkspace(path, &error)) << error.toStdString();
  const Workspace saved = window_->captureWorkspace();
  ASSERT_EQ(saved.documents.size(), 3u);
  EXPECT_EQ(saved.documents[1].kind, WorkspaceDocument::Kind::DsLearn);
  EXPECT_EQ(saved.documents[1].path, train);
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QJsonObject written = QJsonDocument::fromJson(file.readAll())
                                  .object()
                                  .value(QStringLiteral("documents"))
                                  .toArray()[1]
                                  .toObject();
  file.close();
  EXPECT_EQ(written.value(QStringLiteral("kind")).toString(), QStringLiteral("ds-learn"));
  EXPECT_EQ(written.value(QStringLiteral("path")).toString(), QStringLiteral("tiny-train.txt"));
  EXPECT_EQ(written.value(QStringLiteral("view")).toObject().value(QStringLiteral("test")),
            QStringLiteral("tiny-test.txt"));

  auto other = makeWindow(QStringLiteral("second.ini"));
  ASSERT_TRUE(other->loadWorkspace(path, &error)) << error.toStdString();
  EXPECT_TRUE(error.isEmpty()) << error.toStdString();
  ASSERT_EQ(other->documentCount(), 3);
  EXPECT_NE(other->grammarViewAt(0), nullptr);
  EXPECT_NE(other->corpusViewAt(2), nullptr);
  EXPECT_EQ(other->documentTabs()->currentIndex(), 1);
  auto* again = qobject_cast<DsLearningView*>(other->documentTabs()->widget(1));
  ASSERT_NE(again, nullptr);
  ASSERT_TRUE(again->waitForLearning());
  ASSERT_TRUE(again->waitForInspection());
  waitForParses(*other);
  ASSERT_NE(again->lexicon(), nullptr) << again->statusText().toStdString();
  EXPECT_EQ(again->seedDirectory(), QDir::cleanPath(seed));
  EXPECT_EQ(again->trainPath(), train);
  EXPECT_EQ(again->testPath(), test);
  EXPECT_EQ(again->top(), 2);
  EXPECT_EQ(again->selectedWord(), QStringLiteral("Mommy"));
  EXPECT_EQ(again->selectedTestItem(), 1);
  EXPECT_EQ(again->currentTab(), DsLearningView::TestTab);
  ASSERT_NE(again->evaluation(), nullptr);
  EXPECT_EQ(again->evaluation()->mapping.f(), view->evaluation()->mapping.f());
  EXPECT_EQ(again->evaluation()->sentence, view->evaluation()->sentence);
  EXPECT_EQ(again->barValues(), view->barValues());
  EXPECT_EQ(other->captureWorkspace().documents[1].view, saved.documents[1].view);

  // The training file gone: the tab opens, names it, learns nothing; the others open.
  ASSERT_TRUE(QFile::remove(train));
  auto third = makeWindow(QStringLiteral("third.ini"));
  ASSERT_TRUE(third->loadWorkspace(path, &error)) << error.toStdString();
  ASSERT_EQ(third->documentCount(), 3);
  EXPECT_NE(third->grammarViewAt(0), nullptr);
  EXPECT_NE(third->corpusViewAt(2), nullptr);
  auto* missing = qobject_cast<DsLearningView*>(third->documentTabs()->widget(1));
  ASSERT_NE(missing, nullptr);
  EXPECT_FALSE(missing->isLearning());
  EXPECT_EQ(missing->lexicon(), nullptr);
  EXPECT_TRUE(missing->statusText().startsWith(QStringLiteral("Workspace:")))
      << missing->statusText().toStdString();
  EXPECT_TRUE(missing->statusText().contains(QStringLiteral("tiny-train.txt")))
      << missing->statusText().toStdString();
  EXPECT_EQ(missing->trainPath(), train);
  EXPECT_EQ(missing->top(), 2);
  waitForParses(*third);
}

// A CCG tab whose lexicon is gone, or does not read, is reported with the file (and the line
// and column) and not opened; the rest of the workspace opens. A tab with no lexicon opens empty.
TEST_F(WorkspaceWindowTest, CcgTabsWithABadLexiconAreReportedAndTheRestOpens) {
  const QString bad = dir_.filePath(QStringLiteral("bad.flex"));
  QFile file(bad);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("lexeme 0.5 texas :- texas:s\nlexeme x states :- state:t\n");
  file.close();
  const QJsonObject view{{QStringLiteral("sentence"), QStringLiteral("what states border texas")},
                         {QStringLiteral("parsed"), true}};
  Workspace w;
  w.documents.push_back(
      {WorkspaceDocument::Kind::Ccg, dir_.filePath(QStringLiteral("gone.flex")), QString(), view});
  w.documents.push_back({WorkspaceDocument::Kind::Grammar,
                         dir_.filePath(QStringLiteral("pp-attachment.cfg")),
                         QString(),
                         {}});
  w.documents.push_back({WorkspaceDocument::Kind::Ccg, bad, QString(), view});
  w.documents.push_back({WorkspaceDocument::Kind::Ccg, QString(), QString(), view});
  QString error;
  EXPECT_TRUE(window_->applyWorkspace(w, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("gone.flex"))) << error.toStdString();
  EXPECT_TRUE(error.contains(QStringLiteral("bad.flex:2:8: error:"))) << error.toStdString();
  ASSERT_EQ(window_->documentCount(), 2);
  EXPECT_NE(window_->grammarViewAt(0), nullptr);
  auto* empty = qobject_cast<CcgView*>(window_->documentTabs()->widget(1));
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->lexicon(), nullptr);
  EXPECT_EQ(empty->sentence(), QStringLiteral("what states border texas"));
  EXPECT_TRUE(empty->statusText().contains(QStringLiteral("the saved parse was not restored")))
      << empty->statusText().toStdString();
  waitForParses(*window_);
  // Saved again, the empty tab stays a CCG tab with no path.
  const Workspace again = window_->captureWorkspace();
  ASSERT_EQ(again.documents.size(), 2u);
  EXPECT_EQ(again.documents[1].kind, WorkspaceDocument::Kind::Ccg);
  EXPECT_EQ(again.documents[1].path, QString());
}

QJsonObject dsView(const QString& sentence, int position, int selected) {
  return QJsonObject{{QStringLiteral("sentence"), sentence},
                     {QStringLiteral("strategy"), QStringLiteral("breadth-first")},
                     {QStringLiteral("beam"), 0},
                     {QStringLiteral("position"), position},
                     {QStringLiteral("selected"), selected}};
}

// A DS stepper whose grammar folder is gone: the tab opens with the reason in its status line,
// keeps its settings, and the rest of the workspace opens as usual.
TEST_F(WorkspaceWindowTest, DsStepperTabWithAMissingFolderExplainsWhy) {
  Workspace w;
  w.documents.push_back({WorkspaceDocument::Kind::Grammar,
                         dir_.filePath(QStringLiteral("pp-attachment.cfg")),
                         QString(),
                         {}});
  w.documents.push_back({WorkspaceDocument::Kind::DsStepper,
                         dir_.filePath(QStringLiteral("no-such-grammar")), QString(),
                         dsView(QStringLiteral("john likes mary"), 4, 2)});
  w.documents.push_back({WorkspaceDocument::Kind::Corpus,
                         dir_.filePath(QStringLiteral("pp-attachment.txt")),
                         QString(),
                         {}});
  w.current = 2;
  QString error;
  EXPECT_TRUE(window_->applyWorkspace(w, &error)) << error.toStdString();
  ASSERT_EQ(window_->documentCount(), 3);
  EXPECT_NE(window_->grammarViewAt(0), nullptr);
  EXPECT_NE(window_->corpusViewAt(2), nullptr);
  EXPECT_EQ(window_->documentTabs()->currentIndex(), 2);
  DsStepperView* missing = dsViewAt(*window_, 1);
  ASSERT_NE(missing, nullptr);
  waitForParses(*window_);
  EXPECT_EQ(missing->sentence(), QStringLiteral("john likes mary"));
  EXPECT_EQ(missing->dagModel()->result(), nullptr);
  EXPECT_TRUE(missing->statusText().contains(QStringLiteral("no-such-grammar")))
      << missing->statusText().toStdString();
  EXPECT_TRUE(missing->statusText().contains(QStringLiteral("not a DyLan grammar folder")))
      << missing->statusText().toStdString();
  EXPECT_TRUE(missing->statusText().contains(QStringLiteral("not restored")))
      << missing->statusText().toStdString();
  // Saved again, the tab keeps its folder and sentence.
  const Workspace again = window_->captureWorkspace();
  ASSERT_EQ(again.documents.size(), 3u);
  EXPECT_EQ(again.documents[1].kind, WorkspaceDocument::Kind::DsStepper);
  EXPECT_EQ(again.documents[1].path, dir_.filePath(QStringLiteral("no-such-grammar")));
  EXPECT_EQ(again.documents[1].view.value(QStringLiteral("sentence")).toString(),
            QStringLiteral("john likes mary"));
}

// With the grammar: a step beyond the end, a node the parse does not have, a sentence that no
// longer parses. The tab shows what it can and says what it could not restore.
TEST_F(WorkspaceWindowTest, DsStepperTabsRestoreWhatStillFits) {
  GWB_REQUIRE_DYLAN(dylan);
  struct Case {
    const char* sentence;
    int position;
    int selected;
    const char* status;  // expected in the status line
    bool atEnd;
  };
  const Case cases[] = {
      {"john likes mary", 100000, 2, "beyond the end", true},
      {"john likes mary", 3, 99999, "node #99999 is not in this parse", false},
      {"john likes zzzz", 100000, 3, "FAILED", true},
  };
  QString error;
  for (const Case& c : cases) {
    Workspace one;
    one.documents.push_back({WorkspaceDocument::Kind::DsStepper, dylan, QString(),
                             dsView(QString::fromLatin1(c.sentence), c.position, c.selected)});
    ASSERT_TRUE(window_->applyWorkspace(one, &error)) << c.sentence;
    ASSERT_EQ(window_->documentCount(), 1);
    DsStepperView* view = dsViewAt(*window_, 0);
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(view->waitForParse());
    const DsDagModel* model = view->dagModel();
    ASSERT_NE(model->result(), nullptr) << view->statusText().toStdString();
    EXPECT_TRUE(view->statusText().contains(QLatin1String(c.status)))
        << c.sentence << ": " << view->statusText().toStdString();
    EXPECT_EQ(model->visibleEdges(), c.atEnd ? model->edgeCount() : c.position) << c.sentence;
    EXPECT_TRUE(model->isNodeVisible(view->selectedNode())) << c.sentence;
  }
}

}  // namespace
}  // namespace gwb::ui
