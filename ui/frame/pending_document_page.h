// PendingDocumentPage: a tab restored from the last session that has not been opened yet.
//
// Restoring a session puts one of these in the tab bar for every document, under the
// document's own title, and opens the real view (reading the grammar, parsing the stepper's
// sentence, loading a Dynamic Syntax grammar folder) only when the tab is first shown. So a
// document that cannot be opened — or, worse, one whose parse takes the program down — costs
// nothing until the user asks for it, and never stands between the user and the other tabs.
//
// The page keeps the WorkspaceDocument it stands for, so a session saved while it is still
// pending loses nothing. With `autoOpen` off (after the last session ended abnormally) the page
// waits for its Open button instead of opening when shown. openRequested() asks the main
// window to replace the page by the real view; showFailure() says why that did not work.
#pragma once

#include <QWidget>

#include "ui/frame/workspace.h"

class QLabel;
class QPushButton;

namespace gwb::ui {

class PendingDocumentPage : public QWidget {
  Q_OBJECT

 public:
  PendingDocumentPage(WorkspaceDocument document, bool autoOpen, QWidget* parent = nullptr);

  const WorkspaceDocument& document() const { return document_; }
  // Whether showing the tab opens it (false: only the Open button does).
  bool opensWhenShown() const { return autoOpen_; }
  // The tab's title and tooltip: the file or folder name, and the full path.
  QString title() const;
  QString toolTip() const;
  // Shows why opening failed; the Open button stays to try again.
  void showFailure(const QString& message);
  QString message() const;
  QPushButton* openButton() const { return openButton_; }

 signals:
  void openRequested();

 private:
  WorkspaceDocument document_;
  bool autoOpen_ = true;
  QLabel* message_ = nullptr;
  QPushButton* openButton_ = nullptr;
};

}  // namespace gwb::ui
