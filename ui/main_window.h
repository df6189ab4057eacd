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
// Settings (geometry, dock layout, recent files, last folder) go through an AppSettings the
// caller owns, so tests can point the window at a throwaway INI file.
#pragma once

#include <QMainWindow>
#include <QString>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;

namespace gwb::ui {

class AppSettings;
class DiagnosticsPanel;
class GrammarView;
class NonterminalPanel;
class StartPage;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(AppSettings& settings, QWidget* parent = nullptr);

  // Opens the grammar at `path` in a new tab, or switches to its tab if it is already open.
  // `root` names the start symbol (empty: the format's default). Returns false, after
  // reporting why in the Diagnostics dock and the status bar, when no rule could be read.
  bool openGrammar(const QString& path, const QString& root = QString());
  // Opens every local file in `paths`; returns how many opened.
  int openGrammars(const QStringList& paths, const QString& root = QString());

  int documentCount() const;
  GrammarView* currentGrammarView() const;
  GrammarView* grammarViewAt(int index) const;
  QTabWidget* documentTabs() const { return tabs_; }
  DiagnosticsPanel* diagnosticsPanel() const { return diagnosticsPanel_; }
  NonterminalPanel* nonterminalPanel() const { return nonterminalPanel_; }
  QMenu* recentFilesMenu() const { return recentMenu_; }

  void closeDocument(int index);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createCentralArea();
  void createDocks();
  void createMenus();
  void createStatusBar();
  void restoreLayout();

  void showOpenDialog();
  void saveCurrentAs();
  void showAbout();

  void rememberRecentFile(const QString& path);
  void updateRecentFiles();
  void onCurrentTabChanged(int index);
  void updateStatusBar();
  void goToDiagnostic(const QString& filePath, int line, int column);
  int tabIndexForFile(const QString& absolutePath) const;

  AppSettings& settings_;

  QStackedWidget* central_ = nullptr;
  StartPage* startPage_ = nullptr;
  QTabWidget* tabs_ = nullptr;

  QDockWidget* diagnosticsDock_ = nullptr;
  DiagnosticsPanel* diagnosticsPanel_ = nullptr;
  QDockWidget* nonterminalDock_ = nullptr;
  NonterminalPanel* nonterminalPanel_ = nullptr;

  QMenu* recentMenu_ = nullptr;
  QAction* saveAsAction_ = nullptr;
  QAction* closeAction_ = nullptr;

  QLabel* ruleCountLabel_ = nullptr;
  QLabel* symbolCountLabel_ = nullptr;
  QLabel* formatLabel_ = nullptr;
  QLabel* startSymbolLabel_ = nullptr;
};

}  // namespace gwb::ui
