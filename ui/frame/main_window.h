// MainWindow: the workbench's frame — menus, docks, status bar, and a tab per open grammar.
//
// The central area is a QTabWidget of open documents (each tab a GrammarView that owns its
// GrammarDocument), or a start page while none is open; later views (the Earley stepper,
// plots) become further tabs. Two docks follow the current tab: Diagnostics (what the reader
// and the grammar check reported; clicking one selects the rule on that line) and
// Nonterminals. Grammars open from File > Open, the recent-files menu, the command line and
// by dropping files onto the window; a file that cannot be read never opens a tab — its
// errors go to the Diagnostics dock and the status bar instead.
//
// A tab may declare which docks it uses: a QStringList of dock object names in its
// kWantedDocksProperty (a tab without it wants them all). While it is in front the other docks
// are hidden, and they come back when a tab that wants them is in front (the DS stepper wants
// none: the grammar docks have nothing to say about it). Saved window states keep the docks as
// the user left them, not as a tab hid them.
//
// Settings (geometry, dock layout, recent files, last folder) go through an AppSettings the
// caller owns, so tests can point the window at a throwaway INI file.
#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QList>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QString>

#include "ui/frame/workspace.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;

namespace gwb {
class Grammar;
}

namespace gwb::ui {

class AppSettings;
class CorpusView;
class DiagnosticsPanel;
class CcgView;
class DsLearningView;
class DsStepperView;
class DiscourseView;
class ExperimentPanel;
class FublView;
struct FublTrainingSettings;
class GrammarView;
class HelpWindow;
class ShortcutsWindow;
class InductionPanel;
class NonterminalPanel;
class StartPage;
class TransitionView;

inline constexpr char kWantedDocksProperty[] = "gwbWantedDocks";

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(AppSettings& settings, QWidget* parent = nullptr);

  // Opens the grammar at `path` in a new tab, or switches to its tab if it is already open.
  // `root` names the start symbol (empty: the format's default). Returns false, after
  // reporting why in the Diagnostics dock and the status bar, when no rule could be read.
  bool openGrammar(const QString& path, const QString& root = QString());
  // Opens every local file in `paths` (grammars and corpora); returns how many opened.
  int openGrammars(const QStringList& paths, const QString& root = QString());
  // Opens a grammar, a corpus or a workspace, by its extension (corpora: .txt .yld .concat
  // .sents; workspaces: .gwb-workspace).
  bool openFile(const QString& path, const QString& root = QString());
  // Opens a corpus (sentences, social-cue utterances, gold topics) in a new tab.
  bool openCorpus(const QString& path);
  static bool isCorpusFile(const QString& path);

  // Sends `text` to the Earley stepper of a grammar (-1: the grammar used last) and shows it.
  // False, with a status message, when no grammar is open.
  bool sendToStepper(const QString& text, int grammarTab = -1);
  CorpusView* corpusViewAt(int index) const;

  // Dynamic Syntax > DS stepper: a new tab with the DS stepper (ds_stepper_view.h), its grammar
  // folder and sentence set when given (an empty folder keeps the default); with both given,
  // the sentence is parsed at once.
  DsStepperView* openDsStepper(const QString& grammarDirectory = QString(),
                               const QString& sentence = QString());
  // Dynamic Syntax > DS lexicon learning: the learning tab (ds_learning_view.h), opened once and
  // brought to the front after; its "Open in DS stepper" opens a DS stepper tab with the item
  // and the learned lexicon.
  DsLearningView* openDsLearning();
  // CCG > CCG parser and File > Open of a CCG lexicon or model: a new CCG tab (ccg_view.h) with
  // `lexiconPath` opened (none when empty) and `sentence` set (and parsed, with a lexicon).
  // Null, with the reason in the status bar, when the lexicon cannot be read.
  CcgView* openCcgView(const QString& lexiconPath = QString(), const QString& sentence = QString());
  // CCG > FUBL learner: a new tab with the FUBL learner (fubl_view.h), its form filled from
  // `settings` when given. A test sentence it asks to open (double-click in its evaluation list)
  // opens in a CCG tab with the learned model — one CCG tab per learner, reused while it is open.
  FublView* openFublView(const FublTrainingSettings* settings = nullptr);
  // The CCG tab a learner opened its last sentence in (null if none or closed).
  CcgView* ccgViewOfLearner(const FublView* learner) const;

  // Workspaces (see workspace.h). capture/apply work in memory; apply first settles unsaved
  // edits (false if the user cancels), closes every tab, then opens and restores each
  // document, reporting documents that could not be opened in *error.
  Workspace captureWorkspace() const;
  // How applyWorkspace opens documents: all at once (Open Workspace), each when its tab is
  // first shown (session restore), or each only when the user presses its tab's Open button
  // (restoring after an abnormal exit). Deferred tabs are PendingDocumentPages.
  enum class OpenDocuments { Now, WhenShown, OnRequest };
  bool applyWorkspace(const Workspace& workspace, QString* error = nullptr,
                      OpenDocuments when = OpenDocuments::Now);
  bool saveWorkspace(const QString& path, QString* error = nullptr);
  bool loadWorkspace(const QString& path, QString* error = nullptr);
  const QString& workspacePath() const { return workspacePath_; }
  // The first-run workspace: the PP-attachment teaching grammar in the Earley stepper, with
  // its ambiguous sentence parsed and two words read.
  static Workspace defaultWorkspace();
  // The samples/ folder (beside the program, or the source tree's), or the built-in copy.
  static QString samplesDirectory();
  // Help > About's text (rich text): what the workbench implements today, and the versions.
  static QString aboutText();
  // The last session's workspace if there is one, else the default workspace. Tabs are
  // restored lazily: only the current one opens at once, the others when first shown. The
  // session is marked running (AppSettings::sessionRunning) until a clean exit; when the last
  // one was still marked, the crash-recovery prompt asks whether to restore it (every tab then
  // waits for its Open button) or to start without it. WithoutLastSession (the command line's
  // --no-session) skips it outright.
  enum class SessionStart { RestoreLastSession, WithoutLastSession };
  void restoreSession(SessionStart start = SessionStart::RestoreLastSession);
  enum class CrashRecovery { Restore, StartWithout };
  // Asked at start when the last session ended abnormally. The default shows a message box;
  // tests install their own answer.
  using CrashRecoveryPrompt = std::function<CrashRecovery(const Workspace& lastSession)>;
  void setCrashRecoveryPrompt(CrashRecoveryPrompt prompt) {
    crashRecoveryPrompt_ = std::move(prompt);
  }
  // Replaces the pending tab at `index` (see pending_document_page.h) by its real view; false,
  // with the reason on the page, when the document cannot be opened.
  bool openPendingDocument(int index);

  int documentCount() const;
  GrammarView* currentGrammarView() const;
  GrammarView* grammarViewAt(int index) const;
  QTabWidget* documentTabs() const { return tabs_; }
  DiagnosticsPanel* diagnosticsPanel() const { return diagnosticsPanel_; }
  NonterminalPanel* nonterminalPanel() const { return nonterminalPanel_; }
  QMenu* recentFilesMenu() const { return recentMenu_; }
  // The status bar's start-symbol chooser for the current grammar: the likely start symbols
  // (nonterminals no other rule uses) first, then every other nonterminal with rules; a name
  // can also be typed. Choosing one re-reads the grammar with it (GrammarDocument::
  // setRootOption), and the stepper parses again.
  QComboBox* startSymbolBox() const { return startSymbolBox_; }
  // The Research menu (discourse segmentation, topic transitions, ...).
  QMenu* researchMenu() const { return researchMenu_; }
  // The research windows, created on first use and shown (each is one top-level window).
  // The transition view starts with the current grammar when it is a discourse grammar.
  DiscourseView* showDiscourseView();
  TransitionView* showTransitionView();
  // Research > Grammar induction / Experiments: the EM/VB panel with live free-energy curves
  // and the grounded-learning experiment runner, likewise one top-level window each.
  InductionPanel* showInductionPanel();
  ExperimentPanel* showExperimentPanel();
  // Help > Walkthrough / Documentation: the bundled docs (help_window.h), at `topic`
  // ("docs/walkthrough.md"; empty: where it was). Help > Keyboard Shortcuts: the list read from
  // the menus' and the steppers' actions.
  HelpWindow* showHelp(const QString& topic = QString());
  ShortcutsWindow* showShortcuts();

  // Quitting while an induction run or an experiment is going asks what to do (the default
  // asks with a message box; tests install their own answer): Wait (quit by itself once they
  // end), CancelAndQuit (stop them, keeping what they finished, and quit) or KeepRunning (do
  // not quit). `running` describes what is going.
  enum class BusyQuitChoice { Wait, CancelAndQuit, KeepRunning };
  using BusyQuitPrompt = std::function<BusyQuitChoice(const QString& running)>;
  void setBusyQuitPrompt(BusyQuitPrompt prompt) { busyQuitPrompt_ = std::move(prompt); }
  // True while a Wait answer holds the window open until the runs end.
  bool isQuitPending() const { return quitWhenIdle_; }

  // Closes a tab; a grammar with unsaved edits asks first (see setUnsavedChangesPrompt).
  // Returns false when the user chose to keep it open.
  bool closeDocument(int index);
  // Saves the current grammar's text (Save As for one that has no file yet).
  bool saveCurrent();

  // What to do about a document with unsaved edits: Save, Discard or Cancel. The default asks
  // with a message box; tests install their own answer.
  using UnsavedChangesPrompt = std::function<QMessageBox::StandardButton(const QString& name)>;
  void setUnsavedChangesPrompt(UnsavedChangesPrompt prompt) {
    unsavedChangesPrompt_ = std::move(prompt);
  }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createCentralArea();
  void createDocks();
  void applyTabDocks(const QWidget* tab);  // see kWantedDocksProperty
  QByteArray saveStateWithUserDocks() const;
  void createMenus();
  void createStatusBar();
  void restoreLayout();

  void showOpenDialog();
  void showOpenWorkspaceDialog();
  bool showSaveWorkspaceDialog();
  bool saveCurrentAs();
  // Asks about unsaved edits in tab `index` and saves if told to; false: cancel.
  bool settleUnsavedChanges(int index);
  void updateTabTitle(QWidget* page);
  void showAbout();
  // Research windows in workspaces (main_window_research.cpp): appends the open ones to
  // `workspace`; opens and restores those `workspace` lists, closing idle ones it does not
  // (problems: what could not be restored).
  void captureResearchWindows(Workspace& workspace) const;
  void applyResearchWindows(const Workspace& workspace, QStringList* problems);
  // closeEvent's question about running induction and experiment jobs; false: do not close now.
  bool settleRunningJobs();
  CrashRecovery askAboutCrashedSession(const Workspace& lastSession);

  void rememberRecentFile(const QString& path);
  void updateRecentFiles();
  void onCurrentTabChanged(int index);
  void updateStatusBar();
  void updateStartSymbolBox();
  void chooseStartSymbol(const QString& name);
  void goToDiagnostic(const QString& filePath, int line, int column);
  int tabIndexForFile(const QString& absolutePath) const;
  // Opens one workspace document in a new last tab and restores its view; false (with the
  // reason in *error) when it cannot be opened.
  bool openWorkspaceDocument(const WorkspaceDocument& document, QString* error);

  AppSettings& settings_;

  QStackedWidget* central_ = nullptr;
  StartPage* startPage_ = nullptr;
  QTabWidget* tabs_ = nullptr;

  QDockWidget* diagnosticsDock_ = nullptr;
  DiagnosticsPanel* diagnosticsPanel_ = nullptr;
  QDockWidget* nonterminalDock_ = nullptr;
  NonterminalPanel* nonterminalPanel_ = nullptr;
  QList<QDockWidget*> docksHiddenForTab_;

  QMenu* recentMenu_ = nullptr;
  QMenu* researchMenu_ = nullptr;
  QPointer<DiscourseView> discourseView_;
  QPointer<TransitionView> transitionView_;
  QPointer<InductionPanel> inductionPanel_;
  QPointer<ExperimentPanel> experimentPanel_;
  QList<QPair<QPointer<FublView>, QPointer<CcgView>>> learnerCcgViews_;
  QPointer<HelpWindow> helpWindow_;
  QPointer<ShortcutsWindow> shortcutsWindow_;
  QAction* saveAction_ = nullptr;
  QAction* saveAsAction_ = nullptr;
  QAction* closeAction_ = nullptr;

  QLabel* ruleCountLabel_ = nullptr;
  QLabel* symbolCountLabel_ = nullptr;
  QLabel* formatLabel_ = nullptr;
  QLabel* startSymbolLabel_ = nullptr;
  QComboBox* startSymbolBox_ = nullptr;
  std::weak_ptr<const gwb::Grammar> startSymbolBoxGrammar_;  // what the box lists
  UnsavedChangesPrompt unsavedChangesPrompt_;
  BusyQuitPrompt busyQuitPrompt_;
  bool quitWhenIdle_ = false;
  CrashRecoveryPrompt crashRecoveryPrompt_;
  bool openingPending_ = false;
  QPointer<GrammarView> lastGrammarView_;
  QString workspacePath_;
};

}  // namespace gwb::ui
