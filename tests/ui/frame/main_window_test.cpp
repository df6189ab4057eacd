// The main window end to end on the offscreen platform: opening real and broken grammars,
// drag-and-drop, diagnostics that select rules, the recent-files menu, and saved layout.
#include "ui/frame/main_window.h"

#include <memory>

#include <QApplication>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QProxyStyle>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "shared_data.h"
#include "ui/earley/grammar_document.h"
#include "ui/earley/grammar_table_model.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/nonterminal_panel.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/diagnostics_panel.h"

namespace gwb::ui {
namespace {

constexpr const char* kTestEngger = "data/earleyx/grammars/testengger.grammar";

class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    store_ = std::make_unique<QSettings>(dir_.filePath(QStringLiteral("settings.ini")),
                                         QSettings::IniFormat);
    settings_ = std::make_unique<AppSettings>(*store_);
    window_ = std::make_unique<MainWindow>(*settings_);
  }

  // Writes `text` to a file in the test's folder and returns its path.
  QString writeFile(const QString& name, const QByteArray& text) {
    QString path = dir_.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
    return path;
  }

  QString statusLabel(const char* objectName) const {
    const auto* label = window_->findChild<QLabel*>(QString::fromLatin1(objectName));
    return label ? label->text()
                 : QStringLiteral("<no label %1>").arg(QString::fromLatin1(objectName));
  }

  // The first entry of the Diagnostics dock at `line` with `severity`, or null.
  QListWidgetItem* findDiagnostic(int line, gwb::Severity severity) const {
    QListWidget* list = window_->diagnosticsPanel()->listWidget();
    for (int i = 0; i < list->count(); ++i) {
      QListWidgetItem* item = list->item(i);
      if (item->data(DiagnosticsPanel::LineRole).toInt() == line &&
          item->data(DiagnosticsPanel::SeverityRole).toInt() == static_cast<int>(severity)) {
        return item;
      }
    }
    return nullptr;
  }

  // Clicks `item` in the Diagnostics dock with the mouse, as a user would.
  void clickDiagnostic(QListWidgetItem* item) const {
    QListWidget* list = window_->diagnosticsPanel()->listWidget();
    list->scrollToItem(item);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier,
                      list->visualItemRect(item).center());
  }

  // Sends a drag-enter and a drop of `files` onto the window, as a file manager would.
  bool dropFiles(const QStringList& files) {
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& file : files) urls << QUrl::fromLocalFile(file);
    mime.setUrls(urls);
    const QPoint centre = window_->rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(centre), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &drop);
    return drop.isAccepted();
  }

  QTemporaryDir dir_;
  std::unique_ptr<QSettings> store_;
  std::unique_ptr<AppSettings> settings_;
  std::unique_ptr<MainWindow> window_;
};

TEST(MainWindowAboutTest, ClaimsOnlyWhatExists) {
  const QString about = MainWindow::aboutText();
  for (const char* exists : {"Earley", "induction", "Grounded word learning", "Dynamic Syntax",
                             "gwb ds learn", "CCG semantic parsing"})
    EXPECT_TRUE(about.contains(QString::fromLatin1(exists))) << exists;
  // Not built yet: CCG lexicon induction (it may be named only as missing).
  EXPECT_FALSE(about.contains(QStringLiteral("CCG grammar induction")));
  EXPECT_TRUE(about.contains(QStringLiteral("CCG lexicon induction is not built yet")));
}

TEST_F(MainWindowTest, StartsWithNoDocument) {
  EXPECT_EQ(window_->documentCount(), 0);
  EXPECT_EQ(window_->currentGrammarView(), nullptr);
  EXPECT_EQ(window_->diagnosticsPanel()->count(), 0);
}

TEST_F(MainWindowTest, LoadsASharedGrammarIntoTheRuleTable) {
  GWB_REQUIRE_SHARED(path, kTestEngger);
  ASSERT_TRUE(window_->openGrammar(QString::fromStdString(path), QStringLiteral("S")));
  ASSERT_EQ(window_->documentCount(), 1);
  GrammarView* view = window_->currentGrammarView();
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->model()->rowCount(), 29);
  EXPECT_EQ(view->tableView()->model()->rowCount(), 29);
  EXPECT_EQ(window_->documentTabs()->tabText(0), QStringLiteral("testengger.grammar"));

  // The first line is S->[NP VP] : 1.000000e+00.
  const QModelIndex first = view->model()->index(0, GrammarTableModel::Lhs);
  EXPECT_EQ(first.data().toString(), QStringLiteral("S"));
  EXPECT_EQ(first.siblingAtColumn(GrammarTableModel::Rhs).data().toString(),
            QStringLiteral("NP VP"));
  EXPECT_EQ(first.siblingAtColumn(GrammarTableModel::Line).data().toString(), QStringLiteral("1"));

  EXPECT_EQ(statusLabel("ruleCountLabel"), QStringLiteral("29 rules"));
  EXPECT_EQ(statusLabel("startSymbolLabel"), QStringLiteral("Start:"));
  EXPECT_EQ(window_->startSymbolBox()->currentText(), QStringLiteral("S"));
  EXPECT_EQ(statusLabel("formatLabel"), QStringLiteral("Earleyx format"));
  EXPECT_TRUE(statusLabel("symbolCountLabel").contains(QStringLiteral("6 nonterminals")))
      << statusLabel("symbolCountLabel").toStdString();
  EXPECT_EQ(window_->nonterminalPanel()->tableView()->model()->rowCount(), 6);

  EXPECT_EQ(settings_->recentFiles().value(0),
            QFileInfo(QString::fromStdString(path)).absoluteFilePath());
}

TEST_F(MainWindowTest, LargeGrammarSortsNumericallyAndFilters) {
  GWB_REQUIRE_SHARED(path, "data/earleyx/grammars/socialDiscourse.grammar");
  QElapsedTimer clock;
  clock.start();
  ASSERT_TRUE(window_->openGrammar(QString::fromStdString(path), QStringLiteral("Discourse")));
  RecordProperty("open_ms", static_cast<int>(clock.restart()));
  GrammarView* view = window_->currentGrammarView();
  ASSERT_NE(view, nullptr);
  const QAbstractItemModel* shown = view->tableView()->model();
  ASSERT_EQ(shown->rowCount(), 35764);

  view->tableView()->sortByColumn(GrammarTableModel::Probability, Qt::AscendingOrder);
  RecordProperty("sort_ms", static_cast<int>(clock.restart()));
  const gwb::Grammar& grammar = *view->document().grammar();
  double previous = -1.0;
  for (int row = 0; row < shown->rowCount(); ++row) {
    const int rule = shown->index(row, 0).data(GrammarTableModel::RuleIdRole).toInt();
    const double p = grammar.rule(rule).probability;
    ASSERT_LE(previous, p) << "row " << row;
    previous = p;
  }

  clock.restart();
  ASSERT_TRUE(view->setFilter(QStringLiteral("Topic\\.ball\\b"), true));
  RecordProperty("filter_ms", static_cast<int>(clock.restart()));
  ASSERT_GT(shown->rowCount(), 0);
  for (int row = 0; row < shown->rowCount(); ++row) {
    const QString lhs = shown->index(row, GrammarTableModel::Lhs).data().toString();
    const QString rhs = shown->index(row, GrammarTableModel::Rhs).data().toString();
    EXPECT_TRUE(lhs == QStringLiteral("Topic.ball") || rhs.contains(QStringLiteral("Topic.ball")))
        << lhs.toStdString() << " -> " << rhs.toStdString();
  }
}

// An Earleyx grammar with no ROOT and two symbols no other rule uses has no start symbol; the
// status bar's chooser offers both (and says so in the diagnostic), and choosing one parses.
TEST_F(MainWindowTest, TheStartSymbolIsChosenInTheStatusBar) {
  const QString path = writeFile(QStringLiteral("two-starts.grammar"),
                                 "S->[NP VP] : 1.0\n"
                                 "Q->[VP NP] : 1.0\n"
                                 "NP->[_john] : 1.0\n"
                                 "VP->[_runs] : 1.0\n");
  ASSERT_TRUE(window_->openGrammar(path));
  GrammarView* view = window_->currentGrammarView();
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->document().startSymbolName().isEmpty());
  const gwb::Diagnostics& diagnostics = view->document().diagnostics();
  ASSERT_TRUE(diagnostics.hasErrors());
  std::string message;
  for (const gwb::Diagnostic& d : diagnostics)
    if (d.severity == gwb::Severity::Error) message = d.message;
  EXPECT_NE(message.find("start-symbol box"), std::string::npos) << message;
  EXPECT_EQ(message.find("--root"), std::string::npos) << message;

  QComboBox* box = window_->startSymbolBox();
  ASSERT_TRUE(box->isVisibleTo(window_.get()));
  EXPECT_EQ(box->currentIndex(), -1);
  ASSERT_GE(box->count(), 2);
  EXPECT_EQ(box->itemText(0), QStringLiteral("S"));  // the two candidates first
  EXPECT_EQ(box->itemText(1), QStringLiteral("Q"));
  EXPECT_EQ(statusLabel("startSymbolLabel"), QStringLiteral("No start symbol:"));

  box->lineEdit()->selectAll();
  QTest::keyClicks(box->lineEdit(), QStringLiteral("Q"));
  QTest::keyClick(box->lineEdit(), Qt::Key_Return);
  EXPECT_EQ(view->document().startSymbolName(), QStringLiteral("Q"));
  EXPECT_FALSE(view->document().diagnostics().hasErrors());
  EXPECT_FALSE(view->document().isModified());  // the text is unchanged
  EXPECT_EQ(box->currentText(), QStringLiteral("Q"));
  EXPECT_EQ(statusLabel("startSymbolLabel"), QStringLiteral("Start:"));
  StepperView* stepper = view->stepperView();
  stepper->setSentence(QStringLiteral("runs john"));
  ASSERT_TRUE(stepper->waitForParse());
  ASSERT_TRUE(stepper->session());
  EXPECT_TRUE(stepper->session()->result().success);
  // Workspaces remember the choice.
  EXPECT_EQ(window_->captureWorkspace().documents.at(0).root, QStringLiteral("Q"));
}

// A style that, like several desktop themes, prefers squeezing tabs to scroll arrows.
class NoScrollArrowsStyle : public QProxyStyle {
 public:
  int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                QStyleHintReturn* returnData) const override {
    if (hint == QStyle::SH_TabBar_PreferNoArrows) return 1;
    return QProxyStyle::styleHint(hint, option, widget, returnData);
  }
};

// With many files open the tab titles stay readable (they used to shrink to "p…g" under themes
// that prefer no scroll arrows): the tab bar scrolls instead, and each tab's tooltip has the
// full path.
TEST_F(MainWindowTest, ManyTabsKeepReadableTitles) {
  auto* style = new NoScrollArrowsStyle;
  style->setParent(window_->documentTabs()->tabBar());  // lives as long as the tab bar
  window_->documentTabs()->tabBar()->setStyle(style);
  window_->resize(900, 600);
  window_->show();
  constexpr int kTabs = 16;
  for (int i = 0; i < kTabs; ++i) {
    const QString name = QStringLiteral("teaching-grammar-%1.cfg").arg(i);
    ASSERT_TRUE(window_->openGrammar(writeFile(name, "S -> 'a' [1.0]\n")));
  }
  QApplication::processEvents();
  QTabBar* bar = window_->documentTabs()->tabBar();
  ASSERT_EQ(bar->count(), kTabs);
  EXPECT_TRUE(bar->usesScrollButtons());
  // Room for the text alone of about fourteen characters, besides the close button.
  const int readable = bar->fontMetrics().horizontalAdvance(QString(14, QLatin1Char('n')));
  for (int i = 0; i < bar->count(); ++i) {
    EXPECT_GE(bar->tabRect(i).width(), readable) << i;
    EXPECT_TRUE(bar->tabToolTip(i).endsWith(QStringLiteral("teaching-grammar-%1.cfg").arg(i)));
  }
}

TEST_F(MainWindowTest, OpeningAnOpenFileAgainSwitchesToItsTab) {
  GWB_REQUIRE_SHARED(path, kTestEngger);
  const QString other = writeFile(QStringLiteral("tiny.grammar"), "S->[_a] : 1.0\n");
  ASSERT_TRUE(window_->openGrammar(QString::fromStdString(path)));
  ASSERT_TRUE(window_->openGrammar(other));
  ASSERT_EQ(window_->documentTabs()->currentIndex(), 1);
  EXPECT_TRUE(window_->openGrammar(QString::fromStdString(path)));
  EXPECT_EQ(window_->documentCount(), 2);
  EXPECT_EQ(window_->documentTabs()->currentIndex(), 0);
}

TEST_F(MainWindowTest, NonterminalFilterShowsOnlyThatSymbolsRules) {
  GWB_REQUIRE_SHARED(path, kTestEngger);
  ASSERT_TRUE(window_->openGrammar(QString::fromStdString(path)));
  GrammarView* view = window_->currentGrammarView();
  view->showRulesWithLhs(QStringLiteral("VP"));
  EXPECT_EQ(view->proxyModel()->rowCount(), 5);
  view->clearFilter();
  EXPECT_EQ(view->proxyModel()->rowCount(), 29);
}

TEST_F(MainWindowTest, ClickingADiagnosticSelectsTheRuleOnItsLine) {
  // NP's probabilities sum to 0.8, so the grammar check warns at NP's first rule (line 3);
  // line 5 is not a rule at all, so the reader reports an error there.
  const QString path = writeFile(QStringLiteral("sums.grammar"),
                                 "S->[NP VP] : 1.0\n"
                                 "VP->[_runs] : 1.0\n"
                                 "NP->[_john] : 0.5\n"
                                 "NP->[_mary] : 0.3\n"
                                 "this is not a rule\n");
  ASSERT_TRUE(window_->openGrammar(path));
  window_->show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get(), 600000));

  GrammarView* view = window_->currentGrammarView();
  ASSERT_NE(view, nullptr);
  DiagnosticsPanel* panel = window_->diagnosticsPanel();
  QListWidget* list = panel->listWidget();
  ASSERT_GT(list->count(), 0);

  // Start from a selection elsewhere (the last rule), so a click has something to change.
  view->selectRules({static_cast<gwb::RuleId>(view->model()->rowCount() - 1)});

  QListWidgetItem* sumWarning = findDiagnostic(3, gwb::Severity::Warning);
  QListWidgetItem* badLine = findDiagnostic(5, gwb::Severity::Error);
  ASSERT_NE(sumWarning, nullptr) << "no warning points at line 3";
  ASSERT_NE(badLine, nullptr) << "no error points at line 5";

  clickDiagnostic(sumWarning);
  const std::vector<gwb::RuleId> selected = view->selectedRules();
  ASSERT_EQ(selected.size(), 1U);
  const gwb::Grammar& grammar = *view->document().grammar();
  EXPECT_EQ(grammar.rule(selected[0]).sourceLine, 3);
  EXPECT_EQ(grammar.ruleText(selected[0]), "NP -> 'john'");
  const QModelIndex current = view->tableView()->currentIndex();
  ASSERT_TRUE(current.isValid());
  EXPECT_EQ(current.data(GrammarTableModel::RuleIdRole).toInt(), selected[0]);

  // A line no rule came from leaves the selection alone and says so.
  clickDiagnostic(badLine);
  EXPECT_EQ(view->selectedRules(), selected);
  EXPECT_TRUE(window_->statusBar()->currentMessage().contains(QStringLiteral("line 5")))
      << window_->statusBar()->currentMessage().toStdString();
}

TEST_F(MainWindowTest, SelectingAFilteredOutRuleClearsTheFilter) {
  GWB_REQUIRE_SHARED(path, kTestEngger);
  ASSERT_TRUE(window_->openGrammar(QString::fromStdString(path)));
  GrammarView* view = window_->currentGrammarView();
  view->setFilter(QStringLiteral("Det"), false, GrammarFilterProxyModel::Scope::Lhs);
  ASSERT_LT(view->proxyModel()->rowCount(), 29);
  EXPECT_EQ(view->selectRulesAtLine(1), 1);  // S -> NP VP, hidden by the filter
  EXPECT_EQ(view->proxyModel()->rowCount(), 29);
  EXPECT_EQ(view->selectedRules(), std::vector<gwb::RuleId>({0}));
}

TEST_F(MainWindowTest, MissingFileReportsAnErrorInsteadOfOpening) {
  const QString missing = dir_.filePath(QStringLiteral("no-such.grammar"));
  EXPECT_FALSE(window_->openGrammar(missing));
  EXPECT_EQ(window_->documentCount(), 0);
  DiagnosticsPanel* panel = window_->diagnosticsPanel();
  ASSERT_GE(panel->count(), 1);
  EXPECT_EQ(panel->listWidget()->item(0)->data(DiagnosticsPanel::SeverityRole).toInt(),
            static_cast<int>(gwb::Severity::Error));
  EXPECT_EQ(panel->filePath(), missing);
  EXPECT_TRUE(window_->statusBar()->currentMessage().startsWith(QStringLiteral("Could not open")))
      << window_->statusBar()->currentMessage().toStdString();
  EXPECT_TRUE(settings_->recentFiles().isEmpty());
}

TEST_F(MainWindowTest, DroppingAMissingFileReportsAnError) {
  const QString missing = dir_.filePath(QStringLiteral("dropped-but-gone.cfg"));
  EXPECT_TRUE(dropFiles({missing}));
  EXPECT_EQ(window_->documentCount(), 0);
  ASSERT_GE(window_->diagnosticsPanel()->count(), 1);
  EXPECT_EQ(window_->diagnosticsPanel()
                ->listWidget()
                ->item(0)
                ->data(DiagnosticsPanel::SeverityRole)
                .toInt(),
            static_cast<int>(gwb::Severity::Error));
}

TEST_F(MainWindowTest, DroppingGrammarFilesOpensEach) {
  const QString a = writeFile(QStringLiteral("a.grammar"), "S->[_a] : 1.0\n");
  const QString b = writeFile(QStringLiteral("b.grammar"), "S->[A] : 1.0\nA->[_b] : 1.0\n");
  EXPECT_TRUE(dropFiles({a, b}));
  ASSERT_EQ(window_->documentCount(), 2);
  EXPECT_EQ(window_->grammarViewAt(0)->model()->rowCount(), 1);
  EXPECT_EQ(window_->grammarViewAt(1)->model()->rowCount(), 2);
}

TEST_F(MainWindowTest, DragsWithoutFilesAreRefused) {
  QMimeData mime;
  mime.setText(QStringLiteral("just some text"));
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &enter);
  EXPECT_FALSE(enter.isAccepted());
}

TEST_F(MainWindowTest, RecentFilesMenuListsOpenedFilesAndClears) {
  const QString a = writeFile(QStringLiteral("first.grammar"), "S->[_a] : 1.0\n");
  const QString b = writeFile(QStringLiteral("second.grammar"), "S->[_b] : 1.0\n");
  ASSERT_TRUE(window_->openGrammar(a));
  ASSERT_TRUE(window_->openGrammar(b));

  QStringList entries;
  QAction* clear = nullptr;
  for (QAction* action : window_->recentFilesMenu()->actions()) {
    if (action->isSeparator()) continue;
    if (action->text().contains(QStringLiteral("Clear"))) {
      clear = action;
    } else {
      entries << action->text();
    }
  }
  ASSERT_EQ(entries.size(), 2);
  EXPECT_TRUE(entries[0].contains(QStringLiteral("second.grammar"))) << entries[0].toStdString();
  EXPECT_TRUE(entries[1].contains(QStringLiteral("first.grammar"))) << entries[1].toStdString();
  ASSERT_NE(clear, nullptr);
  clear->trigger();
  EXPECT_TRUE(settings_->recentFiles().isEmpty());
}

TEST_F(MainWindowTest, ClosingTheLastDocumentClearsThePanels) {
  const QString a = writeFile(QStringLiteral("only.grammar"), "S->[_a] : 0.5\n");
  ASSERT_TRUE(window_->openGrammar(a));
  ASSERT_EQ(window_->documentCount(), 1);
  window_->closeDocument(0);
  EXPECT_EQ(window_->documentCount(), 0);
  EXPECT_EQ(window_->currentGrammarView(), nullptr);
  EXPECT_EQ(window_->diagnosticsPanel()->count(), 0);
  EXPECT_EQ(window_->nonterminalPanel()->tableView()->model()->rowCount(), 0);
}

TEST_F(MainWindowTest, SaveAsWritesAGrammarThatReadsBack) {
  GWB_REQUIRE_SHARED(path, kTestEngger);
  ASSERT_TRUE(window_->openGrammar(QString::fromStdString(path)));
  GrammarDocument& document = window_->currentGrammarView()->document();
  const QString copy = dir_.filePath(QStringLiteral("copy.cfg"));
  QString error;
  ASSERT_TRUE(document.saveAs(copy, gwb::GrammarFormat::Nltk, &error)) << error.toStdString();
  EXPECT_EQ(document.filePath(), copy);
  EXPECT_EQ(window_->documentTabs()->tabText(0), QStringLiteral("copy.cfg"));

  MainWindow second(*settings_);
  ASSERT_TRUE(second.openGrammar(copy));
  EXPECT_EQ(second.currentGrammarView()->model()->rowCount(), 29);
}

TEST_F(MainWindowTest, WindowGeometryIsRestoredFromSettings) {
  window_->resize(900, 600);
  window_->show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get(), 600000));
  window_->close();
  EXPECT_FALSE(settings_->windowGeometry().isEmpty());
  EXPECT_FALSE(settings_->windowState().isEmpty());

  MainWindow restored(*settings_);
  EXPECT_EQ(restored.size(), QSize(900, 600));
}

}  // namespace
}  // namespace gwb::ui
