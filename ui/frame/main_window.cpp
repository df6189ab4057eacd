#include "ui/frame/main_window.h"

#include <algorithm>
#include <utility>

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QUrl>

#include "gwb/earley/grammar_io.h"
#include "gwb/grounded/topic_transitions.h"
#include "ui/ccg/ccg_view.h"
#include "ui/ccg/fubl_view.h"
#include "ui/common/qt_conversions.h"
#include "ui/common/text_format.h"
#include "ui/ds/ds_learning_view.h"
#include "ui/ds/ds_stepper_view.h"
#include "ui/earley/grammar_document.h"
#include "ui/earley/grammar_editor.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/induction_panel.h"
#include "ui/earley/nonterminal_panel.h"
#include "ui/earley/stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/diagnostics_panel.h"
#include "ui/frame/document_tabs.h"
#include "ui/frame/help_window.h"
#include "ui/frame/pending_document_page.h"
#include "ui/frame/start_page.h"
#include "ui/grounded/corpus_document.h"
#include "ui/grounded/corpus_view.h"
#include "ui/grounded/discourse_view.h"
#include "ui/grounded/experiment_panel.h"
#include "ui/grounded/transition_view.h"

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
      "Grammars and corpora (*.grammar *.rules *.iogrammar *.uniform *.cfg *.pcfg *.nltk "
      "*.txt *.yld *.concat *.sents *.flex *.ccgmodel);;"
      "Grammars (*.grammar *.rules *.iogrammar *.uniform *.cfg *.pcfg *.nltk);;"
      "Corpora: sentences, social-cue utterances, gold topics (*.txt *.yld *.concat *.sents);;"
      "Earleyx grammars (*.grammar *.rules *.iogrammar *.uniform);;"
      "NLTK grammars (*.cfg *.pcfg *.nltk);;"
      "CCG lexicons and models (*.flex *.ccgmodel);;"
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
  tabs_ = new DocumentTabs(this);  // titles stay readable; many tabs scroll
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
          [this](const QString& path) { openFile(path); });
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
            if (GrammarView* view = currentGrammarView()) {
              view->showPage(GrammarView::Page::Grammar);
              view->showRulesWithLhs(symbol);
            }
          });
}

void MainWindow::createMenus() {
  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  QAction* openAction = fileMenu->addAction(tr("&Open\u2026"), this, &MainWindow::showOpenDialog);
  openAction->setShortcut(QKeySequence::Open);
  openAction->setStatusTip(tr("Open grammars, corpora or a workspace"));
  recentMenu_ = fileMenu->addMenu(tr("Open &Recent"));
  fileMenu->addSeparator();
  fileMenu->addAction(tr("Open &Workspace\u2026"), this, &MainWindow::showOpenWorkspaceDialog);
  QAction* saveWorkspaceAction = fileMenu->addAction(tr("Save Wor&kspace"), this, [this] {
    if (workspacePath_.isEmpty()) {
      showSaveWorkspaceDialog();
      return;
    }
    QString error;
    if (!saveWorkspace(workspacePath_, &error)) {
      QMessageBox::warning(this, tr("Save Workspace"),
                           tr("Could not save the workspace:\n%1").arg(error));
    }
  });
  saveWorkspaceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
  saveWorkspaceAction->setStatusTip(tr("Save the open documents and their views as a workspace"));
  fileMenu->addAction(tr("Save Workspace &As\u2026"), this, &MainWindow::showSaveWorkspaceDialog);
  fileMenu->addSeparator();
  saveAction_ = fileMenu->addAction(tr("&Save"), this, &MainWindow::saveCurrent);
  saveAction_->setShortcut(QKeySequence::Save);
  saveAction_->setStatusTip(tr("Save the current grammar"));
  saveAsAction_ = fileMenu->addAction(tr("Save &As\u2026"), this, &MainWindow::saveCurrentAs);
  saveAsAction_->setShortcut(QKeySequence::SaveAs);
  closeAction_ =
      fileMenu->addAction(tr("&Close"), this, [this] { closeDocument(tabs_->currentIndex()); });
  closeAction_->setShortcut(QKeySequence::Close);
  closeAction_->setStatusTip(tr("Close the current tab"));
  fileMenu->addSeparator();
  QAction* quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
  quitAction->setShortcut(QKeySequence::Quit);
  quitAction->setStatusTip(tr("Quit; the open tabs come back at the next start"));
  quitAction->setMenuRole(QAction::QuitRole);

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  viewMenu->addAction(nonterminalDock_->toggleViewAction());
  viewMenu->addAction(diagnosticsDock_->toggleViewAction());

  researchMenu_ = menuBar()->addMenu(tr("&Research"));
  researchMenu_->addAction(tr("&Discourse segmentation\u2026"), this,
                           [this] { showDiscourseView(); });
  researchMenu_->addAction(tr("&Topic transitions\u2026"), this, [this] { showTransitionView(); });
  researchMenu_->addAction(tr("&Grammar induction\u2026"), this, [this] { showInductionPanel(); });
  researchMenu_->addAction(tr("&Experiments\u2026"), this, [this] { showExperimentPanel(); });

  QMenu* dsMenu = menuBar()->addMenu(tr("&Dynamic Syntax"));
  dsMenu->addAction(tr("DS &stepper\u2026"), this, [this] { openDsStepper(); });
  QAction* learnAction =
      dsMenu->addAction(tr("DS &lexicon learning\u2026"), this, [this] { openDsLearning(); });
  learnAction->setStatusTip(
      tr("Learn a DS lexicon from sentences paired with record types, and inspect it"));

  QMenu* ccgMenu = menuBar()->addMenu(tr("&CCG"));
  ccgMenu->addAction(tr("CCG &parser (sample lexicon)"), this, [this] {
    openCcgView(samplesDirectory() % QStringLiteral("/ccg/geography.flex"));
  });
  ccgMenu->addAction(tr("&FUBL learner (sample pairs)"), this, [this] {
    FublTrainingSettings settings;
    settings.trainingPath = samplesDirectory() % QStringLiteral("/ccg/geography.ccg");
    // Not beside the sample (an installed, perhaps read-only folder).
    settings.modelPath = QDir::temp().filePath(QStringLiteral("geography.ccgmodel"));
    openFublView(&settings);
  });

  QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
  QAction* walkthroughAction = helpMenu->addAction(
      tr("&Walkthrough"), this, [this] { showHelp(QStringLiteral("docs/walkthrough.md")); });
  walkthroughAction->setShortcut(QKeySequence::HelpContents);
  walkthroughAction->setStatusTip(tr("A five-step lesson with the workbench"));
  helpMenu->addAction(tr("&Documentation\u2026"), this,
                      [this] { showHelp(QStringLiteral("README.md")); });
  QAction* shortcutsAction =
      helpMenu->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcuts(); });
  shortcutsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
  shortcutsAction->setStatusTip(tr("Every key, read from the program's own actions"));
  helpMenu->addSeparator();
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
  startSymbolLabel_ = addLabel("startSymbolLabel", tr("The symbol parses start from"));
  startSymbolLabel_->setContentsMargins(6, 0, 0, 0);
  startSymbolBox_ = new QComboBox(this);
  startSymbolBox_->setObjectName(QStringLiteral("startSymbolBox"));
  startSymbolBox_->setEditable(true);
  startSymbolBox_->setInsertPolicy(QComboBox::NoInsert);
  startSymbolBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  startSymbolBox_->setMinimumContentsLength(10);
  startSymbolBox_->lineEdit()->setPlaceholderText(tr("Choose\u2026"));
  startSymbolBox_->setToolTip(
      tr("The start symbol: parses start from it. The likely ones (used by no other rule) come "
         "first; type any nonterminal and press Enter."));
  startSymbolLabel_->setBuddy(startSymbolBox_);
  statusBar()->addPermanentWidget(startSymbolBox_);
  connect(startSymbolBox_, &QComboBox::activated, this,
          [this](int index) { chooseStartSymbol(startSymbolBox_->itemText(index)); });
  connect(startSymbolBox_->lineEdit(), &QLineEdit::returnPressed, this,
          [this] { chooseStartSymbol(startSymbolBox_->currentText()); });
}

void MainWindow::chooseStartSymbol(const QString& name) {
  GrammarView* view = currentGrammarView();
  if (!view || name.trimmed().isEmpty()) return;
  if (name.trimmed() == view->document().startSymbolName()) return;
  view->document().setRootOption(name);  // grammarChanged updates the views and this box
  const QString start = view->document().startSymbolName();
  statusBar()->showMessage(start.isEmpty()
                               ? tr("%1 cannot be the start symbol: it has no rules").arg(name)
                               : tr("Start symbol: %1").arg(start),
                           kStatusMessageMs);
}

void MainWindow::updateStartSymbolBox() {
  const GrammarView* view = currentGrammarView();
  if (!view) return;
  const std::shared_ptr<const gwb::Grammar> grammar = view->document().grammar();
  const QSignalBlocker block(startSymbolBox_);
  if (startSymbolBoxGrammar_.lock() != grammar) {
    startSymbolBoxGrammar_ = grammar;
    startSymbolBox_->clear();
    const gwb::SymbolTable& symbols = grammar->symbols();
    const std::vector<gwb::SymbolId> candidates = gwb::startSymbolCandidates(*grammar);
    std::vector<bool> listed(symbols.size(), false);
    for (const gwb::SymbolId s : candidates) {
      startSymbolBox_->addItem(toQString(symbols.name(s)));
      startSymbolBox_->setItemData(startSymbolBox_->count() - 1,
                                   tr("Used by no other rule: a likely start symbol"),
                                   Qt::ToolTipRole);
      listed[static_cast<std::size_t>(s)] = true;
    }
    QStringList others;
    for (const gwb::SymbolId s : grammar->lhsSymbols())
      if (!listed[static_cast<std::size_t>(s)]) others << toQString(symbols.name(s));
    others.sort(Qt::CaseInsensitive);
    if (!candidates.empty() && !others.isEmpty())
      startSymbolBox_->insertSeparator(startSymbolBox_->count());
    startSymbolBox_->addItems(others);
  }
  const QString start = view->document().startSymbolName();
  const int at = start.isEmpty() ? -1 : startSymbolBox_->findText(start);
  startSymbolBox_->setCurrentIndex(at);
  if (at < 0) startSymbolBox_->setEditText(start);
}

void MainWindow::restoreLayout() {
  const QByteArray geometry = settings_.windowGeometry();
  if (geometry.isEmpty() || !restoreGeometry(geometry)) resize(1280, 800);
  restoreState(settings_.windowState());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!settleRunningJobs()) {
    event->ignore();
    return;
  }
  for (int i = 0; i < tabs_->count(); ++i) {
    if (!settleUnsavedChanges(i)) {
      event->ignore();
      return;
    }
  }
  settings_.setWindowGeometry(saveGeometry());
  settings_.setWindowState(saveStateWithUserDocks());
  settings_.sync();
  // The session's workspace, so that the next start shows the same documents and views.
  if (const QString session = settings_.sessionWorkspacePath(); !session.isEmpty()) {
    Workspace workspace = captureWorkspace();
    workspace.windowGeometry.clear();  // the settings keep the window's own layout
    workspace.windowState.clear();
    workspace.save(session);
  }
  settings_.setSessionRunning(false);  // a clean exit
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
  for (const QString& path : paths) opened += openFile(path, root) ? 1 : 0;
  return opened;
}

bool MainWindow::isCorpusFile(const QString& path) {
  static const QStringList corpusSuffixes{QStringLiteral("txt"), QStringLiteral("yld"),
                                          QStringLiteral("concat"), QStringLiteral("sents")};
  return corpusSuffixes.contains(QFileInfo(path).suffix().toLower());
}

bool MainWindow::openFile(const QString& path, const QString& root) {
  if (QFileInfo(path).suffix() == QLatin1String("gwb-workspace")) {
    QString error;
    if (loadWorkspace(path, &error)) return true;
    statusBar()->showMessage(tr("Could not open %1: %2").arg(QFileInfo(path).fileName(), error),
                             kStatusMessageMs);
    return false;
  }
  if (CcgView::isCcgLexiconFile(path)) return openCcgView(path) != nullptr;
  return isCorpusFile(path) ? openCorpus(path) : openGrammar(path, root);
}

bool MainWindow::openCorpus(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (const int existing = tabIndexForFile(absolute); existing >= 0) {
    tabs_->setCurrentIndex(existing);
    openPendingDocument(existing);  // a tab from the session that was not opened yet
    return true;
  }
  QString error;
  QGuiApplication::setOverrideCursor(Qt::WaitCursor);
  std::unique_ptr<CorpusDocument> document = CorpusDocument::load(absolute, &error);
  QGuiApplication::restoreOverrideCursor();
  const QString name = QFileInfo(absolute).fileName();
  if (!document) {
    statusBar()->showMessage(tr("Could not open %1: %2").arg(name, error), kStatusMessageMs);
    return false;
  }
  const int count = static_cast<int>(document->utterances().size());
  auto* view = new CorpusView(std::move(document), tabs_);
  const int index = tabs_->addTab(view, name);
  tabs_->setTabToolTip(index, QDir::toNativeSeparators(absolute));
  connect(view, &CorpusView::parseRequested, this,
          [this](const QString& text) { sendToStepper(text); });
  central_->setCurrentWidget(tabs_);
  tabs_->setCurrentIndex(index);
  rememberRecentFile(absolute);
  statusBar()->showMessage(
      tr("Opened %1: %2").arg(name, countText(count, tr("utterance"), tr("utterances"))),
      kStatusMessageMs);
  return true;
}

DiscourseView* MainWindow::showDiscourseView() {
  if (!discourseView_) {
    discourseView_ = new DiscourseView(this);
    discourseView_->setWindowFlag(Qt::Window);
    discourseView_->resize(1280, 800);
    // "Open in Earley stepper" from a parse: the grammar in a tab, the utterance in its stepper.
    connect(discourseView_, &DiscourseView::parseRequested, this,
            [this](const QString& grammarPath, const QString& root, const QString& text) {
              if (!openGrammar(grammarPath, root)) return;
              sendToStepper(text, tabs_->currentIndex());
              raise();
              activateWindow();
            });
  }
  discourseView_->show();
  discourseView_->raise();
  return discourseView_;
}

TransitionView* MainWindow::showTransitionView() {
  if (!transitionView_) {
    transitionView_ = new TransitionView(this);
    transitionView_->setWindowFlag(Qt::Window);
    transitionView_->resize(1100, 900);
    if (GrammarView* view = currentGrammarView()) {
      if (gwb::topicTransitions(*view->document().grammar()))
        transitionView_->setGrammar(view->document().grammar(), view->document().displayName());
    }
  }
  transitionView_->show();
  transitionView_->raise();
  return transitionView_;
}

InductionPanel* MainWindow::showInductionPanel() {
  if (!inductionPanel_) {
    inductionPanel_ = new InductionPanel(this);
    inductionPanel_->setWindowFlag(Qt::Window);
    inductionPanel_->setWindowTitle(tr("Grammar Induction \u2014 Grammar Workbench"));
    inductionPanel_->resize(1280, 800);
    // Start from the grammar in front, if it is a file.
    if (GrammarView* view = currentGrammarView()) {
      const QString path = view->document().filePath();
      if (!path.startsWith(QLatin1Char(':'))) {
        InductionSettings settings = inductionPanel_->settings();
        settings.grammarPath = path;
        settings.root = view->document().startSymbolName();
        inductionPanel_->setSettings(settings);
      }
    }
  }
  inductionPanel_->show();
  inductionPanel_->raise();
  return inductionPanel_;
}

ExperimentPanel* MainWindow::showExperimentPanel() {
  if (!experimentPanel_) {
    experimentPanel_ = new ExperimentPanel(this);
    experimentPanel_->setWindowFlag(Qt::Window);
    experimentPanel_->setWindowTitle(tr("Experiments \u2014 Grammar Workbench"));
    experimentPanel_->resize(1280, 800);
  }
  experimentPanel_->show();
  experimentPanel_->raise();
  return experimentPanel_;
}

DsStepperView* MainWindow::openDsStepper(const QString& grammarDirectory, const QString& sentence) {
  auto* view = new DsStepperView(tabs_);
  if (!grammarDirectory.isEmpty()) view->setGrammarDirectory(grammarDirectory);
  if (!sentence.isEmpty()) view->setSentence(sentence);
  const int index = tabs_->addTab(view, tr("DS stepper"));
  tabs_->setTabToolTip(index, tr("Dynamic Syntax stepper: %1").arg(view->grammarDirectory()));
  central_->setCurrentWidget(tabs_);
  tabs_->setCurrentIndex(index);
  if (!sentence.isEmpty() && !view->grammarDirectory().isEmpty()) view->parse();
  return view;
}

DsLearningView* MainWindow::openDsLearning() {
  for (int i = 0; i < tabs_->count(); ++i) {
    if (auto* view = qobject_cast<DsLearningView*>(tabs_->widget(i))) {
      central_->setCurrentWidget(tabs_);
      tabs_->setCurrentIndex(i);
      return view;
    }
  }
  auto* view = new DsLearningView(tabs_);
  connect(view, &DsLearningView::openInStepper, this,
          [this](std::shared_ptr<const gwb::ds::DsGrammar> grammar, const QString& directory,
                 const QString& sentence) {
            DsStepperView* stepper = openDsStepper();
            stepper->useGrammar(std::move(grammar), directory);
            stepper->setBestFirst(true);
            stepper->setSentence(sentence);
            stepper->parse();
            tabs_->setTabText(tabs_->indexOf(stepper), tr("DS stepper (learned)"));
          });
  const int index = tabs_->addTab(view, tr("DS learning"));
  tabs_->setTabToolTip(index, tr("Dynamic Syntax lexicon induction"));
  central_->setCurrentWidget(tabs_);
  tabs_->setCurrentIndex(index);
  return view;
}

FublView* MainWindow::openFublView(const FublTrainingSettings* settings) {
  auto* view = new FublView(tabs_);
  view->setProperty(kWantedDocksProperty, QStringList());  // the grammar docks say nothing here
  if (settings) view->setSettings(*settings);
  connect(view, &FublView::openSentenceRequested, this, [this, view](int index) {
    CcgView* ccg = ccgViewOfLearner(view);
    if (!ccg) {
      ccg = new CcgView(tabs_);
      ccg->setProperty(kWantedDocksProperty, QStringList());
      tabs_->addTab(ccg, tr("CCG: learned model"));
      learnerCcgViews_.append({QPointer<FublView>(view), QPointer<CcgView>(ccg)});
    }
    const QString name =
        tr("model learned from %1").arg(QFileInfo(view->job().settings().trainingPath).fileName());
    const int at = tabs_->indexOf(ccg);
    tabs_->setTabToolTip(at, tr("CCG parser: %1").arg(name));
    central_->setCurrentWidget(tabs_);
    tabs_->setCurrentIndex(at);
    ccg->openModel(view->model(), view->types(), view->parserOptions(), name, view->testExamples(),
                   index);
  });
  const int index = tabs_->addTab(view, tr("FUBL learner"));
  tabs_->setTabToolTip(index, tr("FUBL: learning a factored CCG lexicon"));
  central_->setCurrentWidget(tabs_);
  tabs_->setCurrentIndex(index);
  return view;
}

CcgView* MainWindow::ccgViewOfLearner(const FublView* learner) const {
  for (const auto& [fubl, ccg] : learnerCcgViews_) {
    if (fubl.data() == learner && ccg) return ccg.data();
  }
  return nullptr;
}

CcgView* MainWindow::openCcgView(const QString& lexiconPath, const QString& sentence) {
  auto* view = new CcgView(tabs_);
  view->setProperty(kWantedDocksProperty, QStringList());  // the grammar docks say nothing here
  QString title = tr("CCG parser");
  if (!lexiconPath.isEmpty()) {
    QString error;
    if (!view->openLexicon(lexiconPath, &error)) {
      delete view;
      statusBar()->showMessage(
          tr("Could not open %1: %2").arg(QFileInfo(lexiconPath).fileName(), error),
          kStatusMessageMs);
      return nullptr;
    }
    title = tr("CCG: %1").arg(QFileInfo(lexiconPath).fileName());
    if (!lexiconPath.startsWith(QLatin1Char(':'))) {
      rememberRecentFile(QFileInfo(lexiconPath).absoluteFilePath());
    }
  }
  if (!sentence.isEmpty()) view->setSentence(sentence);
  const int index = tabs_->addTab(view, title);
  tabs_->setTabToolTip(index, tr("CCG parser: %1").arg(QDir::toNativeSeparators(lexiconPath)));
  central_->setCurrentWidget(tabs_);
  tabs_->setCurrentIndex(index);
  if (!sentence.isEmpty() && !lexiconPath.isEmpty()) view->parse();
  return view;
}

CorpusView* MainWindow::corpusViewAt(int index) const {
  return qobject_cast<CorpusView*>(tabs_->widget(index));
}

bool MainWindow::sendToStepper(const QString& text, int grammarTab) {
  GrammarView* view = grammarTab >= 0 ? grammarViewAt(grammarTab) : lastGrammarView_.data();
  if (!view) {
    for (int i = 0; i < tabs_->count() && !view; ++i) view = grammarViewAt(i);
  }
  if (!view) {
    statusBar()->showMessage(tr("Open a grammar to parse with first."), kStatusMessageMs);
    return false;
  }
  tabs_->setCurrentWidget(view);
  view->showPage(GrammarView::Page::Stepper);
  view->stepperView()->setSentence(text);
  return true;
}

bool MainWindow::openGrammar(const QString& path, const QString& root) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (const int existing = tabIndexForFile(absolute); existing >= 0) {
    tabs_->setCurrentIndex(existing);
    openPendingDocument(existing);  // a tab from the session that was not opened yet
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
    updateTabTitle(view);
    onCurrentTabChanged(tabs_->currentIndex());
  });
  connect(viewDocument, &GrammarDocument::modifiedChanged, this,
          [this, view] { updateTabTitle(view); });
  connect(viewDocument, &GrammarDocument::grammarChanged, this, [this, view] {
    if (tabs_->currentWidget() != view) return;
    onCurrentTabChanged(tabs_->currentIndex());
    if (view->document().diagnostics().hasErrors()) diagnosticsDock_->show();
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

bool MainWindow::closeDocument(int index) {
  QWidget* page = tabs_->widget(index);
  if (!page) return true;
  if (!settleUnsavedChanges(index)) return false;
  tabs_->removeTab(index);
  delete page;
  if (tabs_->count() == 0) onCurrentTabChanged(-1);
  return true;
}

bool MainWindow::settleUnsavedChanges(int index) {
  GrammarView* view = grammarViewAt(index);
  if (!view || !view->document().isModified()) return true;
  view->applyEdits();
  const QString name = view->document().displayName();
  QMessageBox::StandardButton answer = QMessageBox::Cancel;
  if (unsavedChangesPrompt_) {
    answer = unsavedChangesPrompt_(name);
  } else {
    tabs_->setCurrentIndex(index);
    answer = QMessageBox::warning(
        this, tr("Unsaved Changes"),
        tr("%1 has changes that are not saved.\nSave them before closing?").arg(name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  }
  if (answer == QMessageBox::Discard) return true;
  if (answer != QMessageBox::Save) return false;
  tabs_->setCurrentIndex(index);
  return saveCurrent();
}

void MainWindow::updateTabTitle(QWidget* page) {
  const int at = tabs_->indexOf(page);
  auto* view = qobject_cast<GrammarView*>(page);
  if (at < 0 || !view) return;
  const GrammarDocument& document = view->document();
  tabs_->setTabText(
      at, document.displayName() % (document.isModified() ? QStringLiteral(" \u25cf") : QString()));
  tabs_->setTabToolTip(at, QDir::toNativeSeparators(document.filePath()));
  if (tabs_->currentWidget() == page) {
    setWindowTitle(tr("%1%2 \u2014 Grammar Workbench")
                       .arg(document.displayName(),
                            document.isModified() ? QStringLiteral(" \u25cf") : QString()));
  }
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
    const CorpusView* corpus = corpusViewAt(i);
    if (corpus && corpus->document().filePath() == absolutePath) return i;
    const auto* pending = qobject_cast<const PendingDocumentPage*>(tabs_->widget(i));
    if (pending && pending->document().kind != WorkspaceDocument::Kind::DsStepper &&
        pending->document().kind != WorkspaceDocument::Kind::DsLearn &&
        pending->document().kind != WorkspaceDocument::Kind::Ccg &&
        pending->document().kind != WorkspaceDocument::Kind::Fubl &&
        pending->document().path == absolutePath)
      return i;
  }
  return -1;
}

void MainWindow::applyTabDocks(const QWidget* tab) {
  const QVariant wanted = tab != nullptr ? tab->property(kWantedDocksProperty) : QVariant();
  for (QDockWidget* dock : {diagnosticsDock_, nonterminalDock_}) {
    if (wanted.isValid() && !wanted.toStringList().contains(dock->objectName())) {
      if (!dock->isHidden() && !docksHiddenForTab_.contains(dock)) {
        dock->hide();
        docksHiddenForTab_.append(dock);
      }
    } else if (docksHiddenForTab_.removeOne(dock)) {
      dock->show();
    }
  }
}

QByteArray MainWindow::saveStateWithUserDocks() const {
  for (QDockWidget* dock : docksHiddenForTab_) dock->setVisible(true);
  const QByteArray state = saveState();
  for (QDockWidget* dock : docksHiddenForTab_) dock->setVisible(false);
  return state;
}

void MainWindow::onCurrentTabChanged(int index) {
  // A tab restored from the session opens when first shown.
  if (const auto* pending = qobject_cast<PendingDocumentPage*>(tabs_->widget(index));
      pending && pending->opensWhenShown() && !openingPending_) {
    openPendingDocument(index);  // calls back here with the real view
    return;
  }
  applyTabDocks(index >= 0 ? tabs_->widget(index) : nullptr);
  const GrammarView* view = grammarViewAt(index);
  central_->setCurrentWidget(tabs_->count() > 0 ? static_cast<QWidget*>(tabs_) : startPage_);
  saveAction_->setEnabled(view != nullptr);
  saveAsAction_->setEnabled(view != nullptr);
  closeAction_->setEnabled(view != nullptr);
  if (view != nullptr) lastGrammarView_ = grammarViewAt(index);
  const CorpusView* corpus = corpusViewAt(index);
  if (corpus) {
    diagnosticsPanel_->clear();
    nonterminalPanel_->setGrammar(nullptr);
    setWindowTitle(tr("%1 \u2014 Grammar Workbench").arg(corpus->document().displayName()));
  } else if (view) {
    const GrammarDocument& document = view->document();
    diagnosticsPanel_->setDiagnostics(document.diagnostics(), document.filePath());
    nonterminalPanel_->setGrammar(document.grammar());
    setWindowTitle(tr("%1%2 \u2014 Grammar Workbench")
                       .arg(document.displayName(),
                            document.isModified() ? QStringLiteral(" \u25cf") : QString()));
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
  startSymbolBox_->setVisible(view != nullptr);
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
  startSymbolLabel_->setText(document.startSymbolName().isEmpty() ? tr("No start symbol:")
                                                                  : tr("Start:"));
  updateStartSymbolBox();
}

void MainWindow::goToDiagnostic(const QString& filePath, int line, int column) {
  if (line <= 0) return;
  const int index = tabIndexForFile(filePath);
  GrammarView* view = grammarViewAt(index);
  if (!view) {
    statusBar()->showMessage(tr("%1 is not open").arg(QFileInfo(filePath).fileName()),
                             kStatusMessageMs);
    return;
  }
  tabs_->setCurrentIndex(index);
  view->showPage(GrammarView::Page::Grammar);
  view->editor()->goToLine(line, column);
  const int selected = view->selectRulesAtLine(line);
  const QString message =
      selected == 0 ? tr("No rule was read from line %1").arg(line)
                    : tr("Line %1: %2 selected")
                          .arg(QString::number(line), countText(selected, tr("rule"), tr("rules")));
  statusBar()->showMessage(message, kStatusMessageMs);
}

void MainWindow::showOpenDialog() {
  const QStringList files = QFileDialog::getOpenFileNames(
      this, tr("Open Grammars or Corpora"), settings_.lastDirectory(), grammarFileFilters());
  if (files.isEmpty()) return;
  settings_.setLastDirectory(QFileInfo(files.front()).absolutePath());
  openGrammars(files);
}

bool MainWindow::saveCurrent() {
  GrammarView* view = currentGrammarView();
  if (!view) return false;
  view->applyEdits();
  GrammarDocument& document = view->document();
  // A built-in sample has no file of its own to write to.
  if (document.filePath().startsWith(QLatin1Char(':'))) return saveCurrentAs();
  QString error;
  if (!document.save(&error)) {
    QMessageBox::warning(
        this, tr("Save Grammar"),
        tr("Could not save %1:\n%2").arg(QDir::toNativeSeparators(document.filePath()), error));
    return false;
  }
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document.filePath())),
                           kStatusMessageMs);
  return true;
}

bool MainWindow::saveCurrentAs() {
  GrammarView* view = currentGrammarView();
  if (!view) return false;
  view->applyEdits();
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
  if (path.isEmpty()) return false;

  const bool asNltk = selectedFilter == nltkFilter;
  if (QFileInfo(path).suffix().isEmpty())
    path += asNltk ? QStringLiteral(".cfg") : QStringLiteral(".grammar");
  settings_.setLastDirectory(QFileInfo(path).absolutePath());

  QString error;
  if (!document.saveAs(path, asNltk ? gwb::GrammarFormat::Nltk : gwb::GrammarFormat::Earleyx,
                       &error)) {
    QMessageBox::warning(this, tr("Save Grammar As"),
                         tr("Could not save %1:\n%2").arg(QDir::toNativeSeparators(path), error));
    return false;
  }
  rememberRecentFile(document.filePath());
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document.filePath())),
                           kStatusMessageMs);
  return true;
}

void MainWindow::rememberRecentFile(const QString& path) {
  if (path.startsWith(QLatin1Char(':'))) return;  // built into the program
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
    QAction* action = recentMenu_->addAction(text, this, [this, path] { openFile(path); });
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

Workspace MainWindow::captureWorkspace() const {
  Workspace workspace;
  for (int i = 0; i < tabs_->count(); ++i) {
    WorkspaceDocument d;
    if (const GrammarView* view = grammarViewAt(i)) {
      d.kind = WorkspaceDocument::Kind::Grammar;
      d.path = view->document().filePath();
      d.root = view->document().rootOption();
      d.view = view->state();
    } else if (const CorpusView* corpus = corpusViewAt(i)) {
      d.kind = WorkspaceDocument::Kind::Corpus;
      d.path = corpus->document().filePath();
      d.view = corpus->state();
    } else if (const auto* ds = qobject_cast<const DsStepperView*>(tabs_->widget(i))) {
      d.kind = WorkspaceDocument::Kind::DsStepper;
      const QString folder = ds->grammarDirectory();
      d.path = folder.isEmpty() ? folder : QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
      d.view = ds->state();
    } else if (const auto* learning = qobject_cast<const DsLearningView*>(tabs_->widget(i))) {
      d.kind = WorkspaceDocument::Kind::DsLearn;
      const QString train = learning->trainPath();
      d.path = train.isEmpty() ? train : QDir::cleanPath(QFileInfo(train).absoluteFilePath());
      d.view = learning->state();
    } else if (const auto* ccg = qobject_cast<const CcgView*>(tabs_->widget(i))) {
      d.kind = WorkspaceDocument::Kind::Ccg;
      const QString lexicon = ccg->lexiconPath();
      d.path = lexicon.isEmpty() || lexicon.startsWith(QLatin1Char(':'))
                   ? lexicon
                   : QDir::cleanPath(QFileInfo(lexicon).absoluteFilePath());
      d.view = ccg->state();
    } else if (const auto* fubl = qobject_cast<const FublView*>(tabs_->widget(i))) {
      d.kind = WorkspaceDocument::Kind::Fubl;
      d.view = fubl->state();
      d.path = d.view.value(QStringLiteral("training")).toString();
    } else if (const auto* pending = qobject_cast<const PendingDocumentPage*>(tabs_->widget(i))) {
      d = pending->document();  // not opened yet: kept as it was saved
    } else {
      continue;
    }
    // The current tab, counted among the documents kept.
    if (i == tabs_->currentIndex())
      workspace.current = static_cast<int>(workspace.documents.size());
    workspace.documents.push_back(std::move(d));
  }
  captureResearchWindows(workspace);
  workspace.windowGeometry = saveGeometry();
  workspace.windowState = saveStateWithUserDocks();
  return workspace;
}

bool MainWindow::openWorkspaceDocument(const WorkspaceDocument& d, QString* error) {
  // Reading a file or a grammar folder reports its problems as values; this guard only keeps
  // an unexpected exception in one document from taking the whole workbench down.
  try {
    if (d.kind == WorkspaceDocument::Kind::DsStepper) {
      // Always opens: a folder that is not a grammar, or a sentence that no longer parses, is
      // explained in the tab's status line. The parse runs on the view's worker thread.
      openDsStepper(d.path)->restoreState(d.view);
      return true;
    }
    if (d.kind == WorkspaceDocument::Kind::DsLearn) {
      // Always opens: a file or folder that is gone is named in the tab's status line; a tab
      // that had learned learns again on its worker thread.
      openDsLearning()->restoreState(d.path, d.view);
      return true;
    }
    if (d.kind == WorkspaceDocument::Kind::Fubl) {
      // Always opens: files that are gone, or a model that no longer reads, are named in the
      // tab's status line; the form, the other files and the model that reads are restored.
      QJsonObject view = d.view;
      if (!view.contains(QStringLiteral("training")))
        view.insert(QStringLiteral("training"), d.path);
      openFublView(nullptr)->restoreState(view);
      return true;
    }
    if (d.kind == WorkspaceDocument::Kind::Ccg) {
      // A lexicon that is gone or does not read is reported like a missing grammar (the status
      // bar names the file, line and column); the rest (sentence file, step, selection) is
      // restored as far as it still fits, the reasons in the tab's status line.
      CcgView* view = openCcgView(d.path);
      if (view == nullptr) {
        if (error) *error = statusBar()->currentMessage();
        return false;
      }
      view->restoreState(d.view);
      return true;
    }
    const bool opened = d.kind == WorkspaceDocument::Kind::Corpus ? openCorpus(d.path)
                                                                  : openGrammar(d.path, d.root);
    if (!opened) {
      if (error) *error = statusBar()->currentMessage();
      return false;
    }
    const int index = tabs_->currentIndex();
    if (GrammarView* view = grammarViewAt(index)) view->restoreState(d.view);
    if (CorpusView* corpus = corpusViewAt(index)) corpus->restoreState(d.view);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = tr("internal error: %1").arg(QString::fromLocal8Bit(e.what()));
    return false;
  }
}

bool MainWindow::openPendingDocument(int index) {
  auto* page = qobject_cast<PendingDocumentPage*>(tabs_->widget(index));
  if (!page || openingPending_) return false;
  openingPending_ = true;
  const QString title = tabs_->tabText(index);
  const QString toolTip = tabs_->tabToolTip(index);
  tabs_->removeTab(index);  // the page stays alive until the real view has taken its place
  const int before = tabs_->count();
  QString error;
  const bool opened = openWorkspaceDocument(page->document(), &error);
  if (opened && tabs_->count() == before + 1) {
    tabs_->tabBar()->moveTab(before, index);
    tabs_->setCurrentIndex(index);
    page->deleteLater();
  } else if (opened) {
    page->deleteLater();  // it was open already: openWorkspaceDocument showed that tab
  } else {
    tabs_->insertTab(index, page, title);
    tabs_->setTabToolTip(index, toolTip);
    tabs_->setCurrentIndex(index);
    page->showFailure(
        tr("Could not open %1:\n%2").arg(QDir::toNativeSeparators(page->document().path), error));
  }
  openingPending_ = false;
  onCurrentTabChanged(tabs_->currentIndex());
  return opened;
}

bool MainWindow::applyWorkspace(const Workspace& workspace, QString* error, OpenDocuments when) {
  for (int i = 0; i < tabs_->count(); ++i)
    if (!settleUnsavedChanges(i)) return false;
  while (tabs_->count() > 0) {
    QWidget* page = tabs_->widget(0);
    tabs_->removeTab(0);
    delete page;
  }
  QStringList missing;
  for (const WorkspaceDocument& d : workspace.documents) {
    if (WorkspaceDocument::isResearchWindow(d.kind)) continue;  // applyResearchWindows
    if (when == OpenDocuments::Now) {
      QString why;
      if (!openWorkspaceDocument(d, &why)) {
        // The reason (a file that is gone, a line and column that do not read) with the path.
        const QString path = QDir::toNativeSeparators(d.path);
        missing << (why.isEmpty() ? path : tr("%1 (%2)").arg(path, why));
      }
      continue;
    }
    auto* page = new PendingDocumentPage(d, when == OpenDocuments::WhenShown, tabs_);
    connect(page, &PendingDocumentPage::openRequested, this,
            [this, page] { openPendingDocument(tabs_->indexOf(page)); });
    openingPending_ = true;  // adding the first tab makes it current: open it below instead
    const int index = tabs_->addTab(page, page->title());
    openingPending_ = false;
    tabs_->setTabToolTip(index, page->toolTip());
  }
  if (!workspace.windowGeometry.isEmpty()) restoreGeometry(workspace.windowGeometry);
  if (!workspace.windowState.isEmpty()) restoreState(workspace.windowState);
  applyResearchWindows(workspace, &missing);
  // Documents that failed to open shift the tabs: keep the current one if it exists.
  if (workspace.current >= 0 && workspace.current < tabs_->count())
    tabs_->setCurrentIndex(workspace.current);
  onCurrentTabChanged(tabs_->count() > 0 ? tabs_->currentIndex() : -1);
  if (!missing.isEmpty()) {
    const QString message = tr("Could not open: %1").arg(missing.join(QStringLiteral(", ")));
    if (error) *error = message;
    statusBar()->showMessage(message, kStatusMessageMs);
  }
  return true;
}

bool MainWindow::saveWorkspace(const QString& path, QString* error) {
  if (!captureWorkspace().save(path, error)) return false;
  workspacePath_ = QFileInfo(path).absoluteFilePath();
  statusBar()->showMessage(tr("Saved workspace %1").arg(QDir::toNativeSeparators(path)),
                           kStatusMessageMs);
  return true;
}

bool MainWindow::loadWorkspace(const QString& path, QString* error) {
  const std::optional<Workspace> workspace = Workspace::load(path, error);
  if (!workspace) return false;
  if (!applyWorkspace(*workspace, error) && error && error->isEmpty()) *error = tr("cancelled");
  workspacePath_ = QFileInfo(path).absoluteFilePath();
  return true;
}

void MainWindow::showOpenWorkspaceDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Workspace"), settings_.lastDirectory(),
                                   tr("Workspaces (*.gwb-workspace *.json);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!loadWorkspace(path, &error)) {
    QMessageBox::warning(this, tr("Open Workspace"),
                         tr("Could not open %1:\n%2").arg(QDir::toNativeSeparators(path), error));
  }
}

bool MainWindow::showSaveWorkspaceDialog() {
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save Workspace As"),
      workspacePath_.isEmpty()
          ? QDir(settings_.lastDirectory()).filePath(QStringLiteral("workbench.gwb-workspace"))
          : workspacePath_,
      tr("Workspaces (*.gwb-workspace)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".gwb-workspace");
  QString error;
  if (!saveWorkspace(path, &error)) {
    QMessageBox::warning(this, tr("Save Workspace"),
                         tr("Could not save %1:\n%2").arg(QDir::toNativeSeparators(path), error));
    return false;
  }
  return true;
}

QString MainWindow::samplesDirectory() {
  QStringList candidates;
  if (const QByteArray env = qgetenv("GWB_SAMPLES_DIR"); !env.isEmpty())
    candidates << QString::fromLocal8Bit(env);
  const QString appDir = QCoreApplication::applicationDirPath();
  candidates << appDir % QStringLiteral("/../share/grammar-workbench/samples")
             << appDir % QStringLiteral("/../../samples") << QStringLiteral(GWB_SAMPLES_DIR);
  for (const QString& dir : candidates) {
    if (QFileInfo::exists(dir % QStringLiteral("/pp-attachment.cfg")))
      return QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
  }
  return QStringLiteral(":/samples");
}

Workspace MainWindow::defaultWorkspace() {
  WorkspaceDocument grammar;
  grammar.kind = WorkspaceDocument::Kind::Grammar;
  grammar.path = samplesDirectory() % QStringLiteral("/pp-attachment.cfg");
  grammar.view = QJsonObject{
      {QStringLiteral("page"), QStringLiteral("stepper")},
      {QStringLiteral("stepper"),
       QJsonObject{{QStringLiteral("sentence"), QStringLiteral("i saw the man with the telescope")},
                   {QStringLiteral("position"), 2}}}};
  Workspace workspace;
  workspace.documents.push_back(grammar);
  workspace.current = 0;
  return workspace;
}

void MainWindow::restoreSession(SessionStart start) {
  const bool lastRunCrashed = settings_.sessionRunning();
  settings_.setSessionRunning(true);  // cleared by a clean exit (closeEvent)
  std::optional<Workspace> last;
  const QString session = settings_.sessionWorkspacePath();
  if (start == SessionStart::RestoreLastSession && !session.isEmpty() &&
      QFileInfo::exists(session)) {
    last = Workspace::load(session);
    if (last && last->documents.empty()) last.reset();
  }
  OpenDocuments when = OpenDocuments::WhenShown;
  if (last && lastRunCrashed) {
    const CrashRecovery answer =
        crashRecoveryPrompt_ ? crashRecoveryPrompt_(*last) : askAboutCrashedSession(*last);
    if (answer == CrashRecovery::StartWithout) {
      last.reset();
    } else {
      when = OpenDocuments::OnRequest;
    }
  }
  if (last) {
    // Research windows alone: the first-run grammar goes with them, so the window is not empty.
    if (std::all_of(last->documents.begin(), last->documents.end(), [](const WorkspaceDocument& d) {
          return WorkspaceDocument::isResearchWindow(d.kind);
        })) {
      last->documents.insert(last->documents.begin(), defaultWorkspace().documents.front());
      last->current = 0;
    }
    applyWorkspace(*last, nullptr, when);
    if (tabs_->count() > 0) return;
  }
  applyWorkspace(defaultWorkspace());
  // A first look at the stepper needs the room more than an empty list of problems; the dock
  // comes back with the first error (or from the View menu).
  if (const GrammarView* view = currentGrammarView();
      view && view->document().diagnostics().empty())
    diagnosticsDock_->hide();
}

MainWindow::CrashRecovery MainWindow::askAboutCrashedSession(const Workspace& lastSession) {
  QStringList documents;
  for (const WorkspaceDocument& d : lastSession.documents) {
    documents << (d.kind == WorkspaceDocument::Kind::DsStepper
                      ? tr("DS stepper: %1").arg(QDir::toNativeSeparators(d.path))
                  : d.kind == WorkspaceDocument::Kind::DsLearn
                      ? tr("DS learning: %1").arg(QDir::toNativeSeparators(d.path))
                  : d.kind == WorkspaceDocument::Kind::Ccg
                      ? tr("CCG parser: %1").arg(QDir::toNativeSeparators(d.path))
                  : d.kind == WorkspaceDocument::Kind::Fubl
                      ? tr("FUBL learner: %1").arg(QDir::toNativeSeparators(d.path))
                      : QDir::toNativeSeparators(d.path));
  }
  QMessageBox box(QMessageBox::Warning, tr("Restore the Last Session?"),
                  tr("Grammar Workbench did not close normally last time; it may have crashed "
                     "while opening one of the last session's documents."),
                  QMessageBox::NoButton, this);
  box.setInformativeText(
      tr("Restore its %n tab(s)? Each waits for its Open button, so you can leave out the one "
         "that caused the trouble.",
         nullptr, static_cast<int>(documents.size())));
  box.setDetailedText(documents.join(QLatin1Char('\n')));
  QPushButton* restore = box.addButton(tr("&Restore Tabs"), QMessageBox::AcceptRole);
  QPushButton* without = box.addButton(tr("&Start Without Them"), QMessageBox::RejectRole);
  box.setDefaultButton(without);
  box.exec();
  return box.clickedButton() == restore ? CrashRecovery::Restore : CrashRecovery::StartWithout;
}

HelpWindow* MainWindow::showHelp(const QString& topic) {
  if (!helpWindow_) {
    helpWindow_ = new HelpWindow(this);
    helpWindow_->setWindowFlag(Qt::Window);
    helpWindow_->resize(1100, 800);
  }
  if (!topic.isEmpty()) helpWindow_->showTopic(topic);
  helpWindow_->show();
  helpWindow_->raise();
  return helpWindow_;
}

ShortcutsWindow* MainWindow::showShortcuts() {
  // Read from the actions themselves: the menus, and the steppers' own keys (from a stepper
  // made for the purpose, so the list is complete whichever tabs are open).
  std::vector<ShortcutEntry> entries = shortcutEntries(menuBar()->actions(), QString());
  const auto addViewActions = [&entries](const QWidget& view, const QString& where) {
    QList<QAction*> actions;
    for (QAction* action : view.findChildren<QAction*>())
      if (!action->text().isEmpty()) actions << action;
    const std::vector<ShortcutEntry> more = shortcutEntries(actions, where);
    entries.insert(entries.end(), more.begin(), more.end());
  };
  {
    const StepperView earley;
    addViewActions(earley, tr("Earley stepper"));
    const DsStepperView ds;
    addViewActions(ds, tr("DS stepper"));
  }
  delete shortcutsWindow_.data();  // rebuilt each time: the actions are the source of truth
  shortcutsWindow_ = new ShortcutsWindow(std::move(entries), this);
  shortcutsWindow_->setWindowFlag(Qt::Window);
  shortcutsWindow_->show();
  shortcutsWindow_->raise();
  return shortcutsWindow_;
}

QString MainWindow::aboutText() {
  return tr("<h3>Grammar Workbench %1</h3>"
            "<p>A workbench and command-line tool for probabilistic grammars. It reads, checks "
            "and writes PCFGs in the Earleyx and NLTK formats, and implements:</p>"
            "<ul>"
            "<li><b>Probabilistic Earley parsing and grammar induction</b> after Stolcke (1995) "
            "and Luong, Frank &amp; Johnson (2013) &mdash; prefix and string probabilities, "
            "surprisal, Viterbi parses, and EM / Variational Bayes training, watched step by "
            "step in the stepper.</li>"
            "<li><b>Grounded word learning</b> after Luong, Frank &amp; Johnson (2013), "
            "<i>Parsing entire discourses as very long strings: capturing topic continuity in "
            "grounded language learning</i> &mdash; social-cue corpora, the paper's word-learning "
            "experiments, discourse segmentation and topic transitions.</li>"
            "<li><b>Dynamic Syntax</b> after Eshghi, Hough &amp; Purver (2013) &mdash; "
            "incremental parsing with DyLan grammars, shown as a parse DAG with its partial trees "
            "and record types; learning a probabilistic lexicon from sentences paired with "
            "record types (<tt>gwb ds learn</tt>, and the DS learning tab, which shows what "
            "was learned and why).</li>"
            "<li><b>CCG semantic parsing</b> with factored lexicons after Kwiatkowski et al. "
            "(2011) &mdash; <tt>gwb ccg parse</tt> and <tt>check</tt>, command line; CCG "
            "lexicon induction is not built yet.</li>"
            "</ul>"
            "<p>Built with Qt %2 and QCustomPlot.</p>")
      .arg(QStringLiteral(GWB_VERSION), QString::fromLatin1(qVersion()));
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Grammar Workbench"), aboutText());
}

}  // namespace gwb::ui
