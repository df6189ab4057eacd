#include "ui/main_window.h"

#include <algorithm>

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScopeGuard>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>

#include "gwb/grammar_io.h"
#include "ui/app_settings.h"
#include "ui/diagnostics_panel.h"
#include "ui/grammar_document.h"
#include "ui/grammar_view.h"
#include "ui/nonterminal_panel.h"
#include "ui/qt_conversions.h"
#include "ui/start_page.h"
#include "ui/text_format.h"

// The icon and other resources are compiled into the static gwb_ui library, whose resource
// object the linker would drop unless something refers to it; registering must happen
// outside any namespace.
static void registerGwbResources() {
  static const bool registered = [] {
    Q_INIT_RESOURCE(grammar_workbench);
    return true;
  }();
  Q_UNUSED(registered);
}

namespace gwb::ui {

namespace {
constexpr int kStatusMessageMs = 8000;

const QString& grammarFileFilters() {
  static const QString filters = QObject::tr(
      "Grammars (*.grammar *.rules *.iogrammar *.uniform *.cfg *.pcfg *.nltk);;"
      "Earleyx grammars (*.grammar *.rules *.iogrammar *.uniform);;"
      "NLTK grammars (*.cfg *.pcfg *.nltk);;"
      "All files (*)");
  return filters;
}

QString formatDisplayName(gwb::GrammarFormat format) {
  switch (format) {
    case gwb::GrammarFormat::Earleyx: return QObject::tr("Earleyx format");
    case gwb::GrammarFormat::Nltk: return QObject::tr("NLTK format");
    case gwb::GrammarFormat::Auto: break;
  }
  return QObject::tr("Unknown format");
}

QStringList localFilesIn(const QMimeData* mime) {
  QStringList files;
  if (!mime || !mime->hasUrls()) return files;
  for (const QUrl& url : mime->urls())
    if (url.isLocalFile()) files << url.toLocalFile();
  return files;
}
}  // namespace

MainWindow::MainWindow(AppSettings& settings, QWidget* parent)
    : QMainWindow(parent), settings_(settings) {
  registerGwbResources();
  setWindowIcon(QIcon(QStringLiteral(":/icons/grammar-workbench.svg")));
  setWindowTitle(tr("Grammar Workbench"));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

  createCentralArea();
  createDocks();
  createMenus();
  createStatusBar();
  updateRecentFiles();
  onCurrentTabChanged(-1);
  restoreLayout();
}

void MainWindow::createCentralArea() {
  startPage_ = new StartPage(this);
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->setTabsClosable(true);
  tabs_->setMovable(true);
  tabs_->setElideMode(Qt::ElideMiddle);

  central_ = new QStackedWidget(this);
  central_->addWidget(startPage_);
  central_->addWidget(tabs_);
  setCentralWidget(central_);

  connect(startPage_, &StartPage::openRequested, this, &MainWindow::showOpenDialog);
  connect(startPage_, &StartPage::recentFileActivated, this,
          [this](const QString& path) { openGrammar(path); });
  connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);
  connect(tabs_, &QTabWidget::tabCloseRequested, this, &MainWindow::closeDocument);
}

void MainWindow::createDocks() {
  diagnosticsPanel_ = new DiagnosticsPanel(this);
  diagnosticsDock_ = new QDockWidget(tr("Diagnostics"), this);
  diagnosticsDock_->setObjectName(QStringLiteral("diagnosticsDock"));
  diagnosticsDock_->setWidget(diagnosticsPanel_);
  addDockWidget(Qt::BottomDockWidgetArea, diagnosticsDock_);

  nonterminalPanel_ = new NonterminalPanel(this);
  nonterminalDock_ = new QDockWidget(tr("Nonterminals"), this);
  nonterminalDock_->setObjectName(QStringLiteral("nonterminalDock"));
  nonterminalDock_->setWidget(nonterminalPanel_);
  addDockWidget(Qt::LeftDockWidgetArea, nonterminalDock_);
  // Give the table most of the room: a modest dock on the left, a short one at the bottom.
  resizeDocks({nonterminalDock_}, {300}, Qt::Horizontal);
  resizeDocks({diagnosticsDock_}, {130}, Qt::Vertical);

  connect(diagnosticsPanel_, &DiagnosticsPanel::diagnosticActivated, this,
          &MainWindow::goToDiagnostic);
  connect(nonterminalPanel_, &NonterminalPanel::symbolActivated, this,
          [this](const QString& symbol) {
            if (GrammarView* view = currentGrammarView()) view->showRulesWithLhs(symbol);
          });
}

void MainWindow::createMenus() {
  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  QAction* openAction =
      fileMenu->addAction(tr("&Open Grammar\u2026"), this, &MainWindow::showOpenDialog);
  openAction->setShortcut(QKeySequence::Open);
  recentMenu_ = fileMenu->addMenu(tr("Open &Recent"));
  fileMenu->addSeparator();
  saveAsAction_ = fileMenu->addAction(tr("Save &As\u2026"), this, &MainWindow::saveCurrentAs);
  saveAsAction_->setShortcut(QKeySequence::SaveAs);
  closeAction_ =
      fileMenu->addAction(tr("&Close"), this, [this] { closeDocument(tabs_->currentIndex()); });
  closeAction_->setShortcut(QKeySequence::Close);
  fileMenu->addSeparator();
  QAction* quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
  quitAction->setShortcut(QKeySequence::Quit);
  quitAction->setMenuRole(QAction::QuitRole);

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  viewMenu->addAction(nonterminalDock_->toggleViewAction());
  viewMenu->addAction(diagnosticsDock_->toggleViewAction());

  QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
  QAction* aboutAction =
      helpMenu->addAction(tr("&About Grammar Workbench"), this, &MainWindow::showAbout);
  aboutAction->setMenuRole(QAction::AboutRole);
  QAction* aboutQtAction = helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  aboutQtAction->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::createStatusBar() {
  const auto addLabel = [this](const char* objectName, const QString& toolTip) {
    auto* label = new QLabel(this);
    label->setObjectName(QString::fromLatin1(objectName));
    label->setToolTip(toolTip);
    label->setContentsMargins(6, 0, 6, 0);
    statusBar()->addPermanentWidget(label);
    return label;
  };
  ruleCountLabel_ = addLabel("ruleCountLabel", tr("Rules in the grammar"));
  symbolCountLabel_ = addLabel("symbolCountLabel", tr("Distinct nonterminals and terminals"));
  formatLabel_ = addLabel("formatLabel", tr("The format the file was read as"));
  startSymbolLabel_ = addLabel("startSymbolLabel", tr("The start symbol"));
}

void MainWindow::restoreLayout() {
  const QByteArray geometry = settings_.windowGeometry();
  if (geometry.isEmpty() || !restoreGeometry(geometry)) resize(1280, 800);
  restoreState(settings_.windowState());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  settings_.setWindowGeometry(saveGeometry());
  settings_.setWindowState(saveState());
  settings_.sync();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!localFilesIn(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QStringList files = localFilesIn(event->mimeData());
  if (files.isEmpty()) return;
  event->acceptProposedAction();
  openGrammars(files);
}

int MainWindow::openGrammars(const QStringList& paths, const QString& root) {
  int opened = 0;
  for (const QString& path : paths) opened += openGrammar(path, root) ? 1 : 0;
  return opened;
}

bool MainWindow::openGrammar(const QString& path, const QString& root) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (const int existing = tabIndexForFile(absolute); existing >= 0) {
    tabs_->setCurrentIndex(existing);
    return true;
  }

  gwb::GrammarReadOptions options;
  options.root = root.toStdString();
  QElapsedTimer clock;
  clock.start();
  QGuiApplication::setOverrideCursor(Qt::WaitCursor);
  const auto restoreCursor = qScopeGuard([] { QGuiApplication::restoreOverrideCursor(); });
  std::unique_ptr<GrammarDocument> document = GrammarDocument::load(absolute, options);

  const QString name = document->displayName();
  if (!document->hasRules()) {
    diagnosticsPanel_->setDiagnostics(document->diagnostics(), absolute);
    diagnosticsDock_->show();
    diagnosticsDock_->raise();
    const gwb::Diagnostics& diagnostics = document->diagnostics();
    const auto firstError =
        std::find_if(diagnostics.begin(), diagnostics.end(),
                     [](const gwb::Diagnostic& d) { return d.severity == gwb::Severity::Error; });
    statusBar()->showMessage(
        firstError != diagnostics.end()
            ? tr("Could not open %1: %2").arg(name, toQString(firstError->message))
            : tr("%1 contains no rules").arg(name),
        kStatusMessageMs);
    return false;
  }

  const bool hasErrors = document->diagnostics().hasErrors();
  const int ruleCount = static_cast<int>(document->grammar()->ruleCount());
  auto* view = new GrammarView(std::move(document), tabs_);
  GrammarDocument* viewDocument = &view->document();
  const int index = tabs_->addTab(view, viewDocument->displayName());
  tabs_->setTabToolTip(index, QDir::toNativeSeparators(viewDocument->filePath()));
  connect(viewDocument, &GrammarDocument::filePathChanged, this, [this, view] {
    const int at = tabs_->indexOf(view);
    if (at < 0) return;
    tabs_->setTabText(at, view->document().displayName());
    tabs_->setTabToolTip(at, QDir::toNativeSeparators(view->document().filePath()));
    onCurrentTabChanged(tabs_->currentIndex());
  });
  central_->setCurrentWidget(tabs_);
  tabs_->setCurrentIndex(index);
  rememberRecentFile(absolute);

  if (hasErrors) {
    diagnosticsDock_->show();
    diagnosticsDock_->raise();
  }
  const qint64 elapsedMs = clock.elapsed();
  const QString elapsed = elapsedMs < 1000
                              ? tr("%1 ms").arg(elapsedMs)
                              : tr("%1 s").arg(static_cast<double>(elapsedMs) / 1000.0, 0, 'f', 1);
  statusBar()->showMessage(
      tr("Opened %1: %2 in %3").arg(name, countText(ruleCount, tr("rule"), tr("rules")), elapsed),
      kStatusMessageMs);
  return true;
}

void MainWindow::closeDocument(int index) {
  QWidget* page = tabs_->widget(index);
  if (!page) return;
  tabs_->removeTab(index);
  delete page;
  if (tabs_->count() == 0) onCurrentTabChanged(-1);
}

int MainWindow::documentCount() const { return tabs_->count(); }

GrammarView* MainWindow::currentGrammarView() const {
  return qobject_cast<GrammarView*>(tabs_->currentWidget());
}

GrammarView* MainWindow::grammarViewAt(int index) const {
  return qobject_cast<GrammarView*>(tabs_->widget(index));
}

int MainWindow::tabIndexForFile(const QString& absolutePath) const {
  for (int i = 0; i < tabs_->count(); ++i) {
    const GrammarView* view = grammarViewAt(i);
    if (view && view->document().filePath() == absolutePath) return i;
  }
  return -1;
}

void MainWindow::onCurrentTabChanged(int index) {
  const GrammarView* view = grammarViewAt(index);
  central_->setCurrentWidget(tabs_->count() > 0 ? static_cast<QWidget*>(tabs_) : startPage_);
  saveAsAction_->setEnabled(view != nullptr);
  closeAction_->setEnabled(view != nullptr);
  if (view) {
    const GrammarDocument& document = view->document();
    diagnosticsPanel_->setDiagnostics(document.diagnostics(), document.filePath());
    nonterminalPanel_->setGrammar(document.grammar());
    setWindowTitle(tr("%1 \u2014 Grammar Workbench").arg(document.displayName()));
  } else {
    diagnosticsPanel_->clear();
    nonterminalPanel_->setGrammar(nullptr);
    setWindowTitle(tr("Grammar Workbench"));
  }
  updateStatusBar();
}

void MainWindow::updateStatusBar() {
  const GrammarView* view = currentGrammarView();
  for (QLabel* label : {ruleCountLabel_, symbolCountLabel_, formatLabel_, startSymbolLabel_})
    label->setVisible(view != nullptr);
  if (!view) return;

  const GrammarDocument& document = view->document();
  const gwb::Grammar& grammar = *document.grammar();
  const auto count = [](std::size_t n, const QString& singular, const QString& plural) {
    return countText(static_cast<qint64>(n), singular, plural);
  };
  const gwb::SymbolTable& symbols = grammar.symbols();
  ruleCountLabel_->setText(count(grammar.ruleCount(), tr("rule"), tr("rules")));
  symbolCountLabel_->setText(
      tr("%1 (%2, %3)")
          .arg(count(symbols.size(), tr("symbol"), tr("symbols")),
               count(symbols.nonterminalCount(), tr("nonterminal"), tr("nonterminals")),
               count(symbols.terminalCount(), tr("terminal"), tr("terminals"))));
  formatLabel_->setText(formatDisplayName(document.format()));
  const QString start = document.startSymbolName();
  startSymbolLabel_->setText(start.isEmpty() ? tr("No start symbol") : tr("Start: %1").arg(start));
}

void MainWindow::goToDiagnostic(const QString& filePath, int line, int /*column*/) {
  if (line <= 0) return;
  const int index = tabIndexForFile(filePath);
  GrammarView* view = grammarViewAt(index);
  if (!view) {
    statusBar()->showMessage(tr("%1 is not open").arg(QFileInfo(filePath).fileName()),
                             kStatusMessageMs);
    return;
  }
  tabs_->setCurrentIndex(index);
  const int selected = view->selectRulesAtLine(line);
  const QString message =
      selected == 0 ? tr("No rule was read from line %1").arg(line)
                    : tr("Line %1: %2 selected")
                          .arg(QString::number(line), countText(selected, tr("rule"), tr("rules")));
  statusBar()->showMessage(message, kStatusMessageMs);
}

void MainWindow::showOpenDialog() {
  const QStringList files = QFileDialog::getOpenFileNames(
      this, tr("Open Grammar"), settings_.lastDirectory(), grammarFileFilters());
  if (files.isEmpty()) return;
  settings_.setLastDirectory(QFileInfo(files.front()).absolutePath());
  openGrammars(files);
}

void MainWindow::saveCurrentAs() {
  GrammarView* view = currentGrammarView();
  if (!view) return;
  GrammarDocument& document = view->document();

  const QString earleyxFilter = tr("Earleyx grammar (*.grammar)");
  const QString nltkFilter = tr("NLTK grammar (*.cfg)");
  QString selectedFilter =
      document.format() == gwb::GrammarFormat::Nltk ? nltkFilter : earleyxFilter;
  const QString suggested =
      QDir(settings_.lastDirectory().isEmpty() ? QFileInfo(document.filePath()).absolutePath()
                                               : settings_.lastDirectory())
          .filePath(document.displayName());
  QString path = QFileDialog::getSaveFileName(this, tr("Save Grammar As"), suggested,
                                              earleyxFilter % QStringLiteral(";;") % nltkFilter,
                                              &selectedFilter);
  if (path.isEmpty()) return;

  const bool asNltk = selectedFilter == nltkFilter;
  if (QFileInfo(path).suffix().isEmpty())
    path += asNltk ? QStringLiteral(".cfg") : QStringLiteral(".grammar");
  settings_.setLastDirectory(QFileInfo(path).absolutePath());

  QString error;
  if (!document.saveAs(path, asNltk ? gwb::GrammarFormat::Nltk : gwb::GrammarFormat::Earleyx,
                       &error)) {
    QMessageBox::warning(this, tr("Save Grammar As"),
                         tr("Could not save %1:\n%2").arg(QDir::toNativeSeparators(path), error));
    return;
  }
  rememberRecentFile(document.filePath());
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document.filePath())),
                           kStatusMessageMs);
}

void MainWindow::rememberRecentFile(const QString& path) {
  settings_.addRecentFile(path);
  updateRecentFiles();
}

void MainWindow::updateRecentFiles() {
  const QStringList files = settings_.recentFiles();
  recentMenu_->clear();
  for (int i = 0; i < files.size(); ++i) {
    const QString& path = files[i];
    // Accelerators 1..9, then 0 for the tenth entry.
    const QString name = QFileInfo(path).fileName();
    const QString text = i < 9 ? QStringLiteral("&%1 %2").arg(QString::number(i + 1), name)
                               : QStringLiteral("1&0 %1").arg(name);
    QAction* action = recentMenu_->addAction(text, this, [this, path] { openGrammar(path); });
    action->setStatusTip(QDir::toNativeSeparators(path));
    action->setToolTip(QDir::toNativeSeparators(path));
  }
  if (files.isEmpty()) recentMenu_->addAction(tr("No Recent Files"))->setEnabled(false);
  recentMenu_->addSeparator();
  QAction* clear = recentMenu_->addAction(tr("&Clear Menu"), this, [this] {
    settings_.clearRecentFiles();
    updateRecentFiles();
  });
  clear->setEnabled(!files.isEmpty());
  startPage_->setRecentFiles(files);
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About Grammar Workbench"),
      tr("<h3>Grammar Workbench %1</h3>"
         "<p>A workbench and command-line tool for probabilistic grammars. It reads, checks "
         "and writes PCFGs in the Earleyx and NLTK formats, and implements:</p>"
         "<ul>"
         "<li><b>Probabilistic Earley parsing and grammar induction</b> after Luong, Frank "
         "&amp; Johnson (2013), <i>Parsing entire discourses as very long strings: capturing "
         "topic continuity in grounded language learning</i> &mdash; prefix and string "
         "probabilities, surprisal, and EM / Variational Bayes training.</li>"
         "<li><b>Dynamic Syntax</b> after Eshghi, Hough &amp; Purver (2013), <i>Incremental "
         "grammar induction from child-directed dialogue utterances</i> &mdash; incremental "
         "parsing and probabilistic induction of lexical actions.</li>"
         "<li><b>CCG grammar induction</b> after Kwiatkowski, Zettlemoyer, Goldwater &amp; "
         "Steedman (2011), <i>Lexical generalization in CCG grammar induction for semantic "
         "parsing</i> &mdash; factored lexicons.</li>"
         "</ul>"
         "<p>Built with Qt %2 and QCustomPlot.</p>")
          .arg(QStringLiteral(GWB_VERSION), QString::fromLatin1(qVersion())));
}

}  // namespace gwb::ui
