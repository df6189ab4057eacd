// MainWindow's research windows (induction, discourse, transitions, experiments) in workspaces,
// and the question closeEvent asks while induction or experiment jobs are going. Kept apart from
// main_window.cpp: these windows are top-level windows of their own, not tabs.
#include <QCloseEvent>
#include <QDir>
#include <QJsonObject>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "ui/earley/induction_panel.h"
#include "ui/frame/main_window.h"
#include "ui/grounded/discourse_view.h"
#include "ui/grounded/experiment_panel.h"
#include "ui/grounded/transition_view.h"

namespace gwb::ui {

namespace {
const QString kGeometryKey = QStringLiteral("geometry");

QJsonObject withGeometry(QJsonObject state, const QWidget* window) {
  state.insert(kGeometryKey, QString::fromLatin1(window->saveGeometry().toBase64()));
  return state;
}

void restoreGeometryOf(QWidget* window, const QJsonObject& state) {
  const QByteArray geometry =
      QByteArray::fromBase64(state.value(kGeometryKey).toString().toLatin1());
  if (!geometry.isEmpty()) window->restoreGeometry(geometry);
}
}  // namespace

void MainWindow::captureResearchWindows(Workspace& workspace) const {
  const auto add = [&workspace](WorkspaceDocument::Kind kind, const QWidget* window,
                                const QJsonObject& state) {
    WorkspaceDocument d;
    d.kind = kind;
    d.view = withGeometry(state, window);
    workspace.documents.push_back(std::move(d));
  };
  using Kind = WorkspaceDocument::Kind;
  if (inductionPanel_ && inductionPanel_->isVisible())
    add(Kind::Induction, inductionPanel_, inductionPanel_->state());
  if (discourseView_ && discourseView_->isVisible())
    add(Kind::Discourse, discourseView_, discourseView_->state());
  if (transitionView_ && transitionView_->isVisible())
    add(Kind::Transitions, transitionView_, transitionView_->state());
  if (experimentPanel_ && experimentPanel_->isVisible())
    add(Kind::Experiments, experimentPanel_, experimentPanel_->state());
}

void MainWindow::applyResearchWindows(const Workspace& workspace, QStringList* problems) {
  using Kind = WorkspaceDocument::Kind;
  const auto find = [&workspace](Kind kind) -> const WorkspaceDocument* {
    for (const WorkspaceDocument& d : workspace.documents)
      if (d.kind == kind) return &d;
    return nullptr;
  };
  // Windows the workspace does not list close, unless a job is going in them.
  const auto closeIdle = [](QWidget* window, bool busy) {
    if (window && !busy) window->deleteLater();
  };
  if (const WorkspaceDocument* d = find(Kind::Induction)) {
    InductionPanel* panel = showInductionPanel();
    restoreGeometryOf(panel, d->view);
    if (!panel->restoreState(d->view))
      *problems << tr("the induction runs (a run is going: cancel it first)");
  } else if (inductionPanel_) {
    closeIdle(inductionPanel_, inductionPanel_->isBusy());
  }
  if (const WorkspaceDocument* d = find(Kind::Discourse)) {
    // A new view: the old one's rows and decodings give way to the workspace's.
    if (discourseView_) delete discourseView_.data();
    DiscourseView* view = showDiscourseView();
    restoreGeometryOf(view, d->view);
    view->restoreState(d->view);
  } else if (discourseView_) {
    closeIdle(discourseView_, false);
  }
  if (const WorkspaceDocument* d = find(Kind::Transitions)) {
    if (transitionView_) delete transitionView_.data();
    TransitionView* view = showTransitionView();
    // showTransitionView starts with the current grammar; the workspace's state decides.
    restoreGeometryOf(view, d->view);
    view->restoreState(d->view);
  } else if (transitionView_) {
    closeIdle(transitionView_, false);
  }
  if (const WorkspaceDocument* d = find(Kind::Experiments)) {
    ExperimentPanel* panel = showExperimentPanel();
    restoreGeometryOf(panel, d->view);
    if (!panel->restoreState(d->view))
      *problems << tr("the experiment results (an experiment is going: cancel it first)");
  } else if (experimentPanel_) {
    closeIdle(experimentPanel_, experimentPanel_->isBusy());
  }
}

bool MainWindow::settleRunningJobs() {
  const bool induction = !inductionPanel_.isNull() && inductionPanel_->isBusy();
  const bool experiment = !experimentPanel_.isNull() && experimentPanel_->isBusy();
  if (!induction && !experiment) {
    quitWhenIdle_ = false;
    return true;
  }
  // Quitting again while waiting asks again (to cancel now, or to stay after all).
  const bool alreadyWaiting = quitWhenIdle_;
  QStringList running;
  if (induction) running << tr("a grammar induction run");
  if (experiment) running << tr("an experiment");
  const QString description = running.join(tr(" and "));
  BusyQuitChoice choice = BusyQuitChoice::KeepRunning;
  if (busyQuitPrompt_) {
    choice = busyQuitPrompt_(description);
  } else {
    QMessageBox box(
        QMessageBox::Question, tr("Quit Grammar Workbench"),
        tr("%1 is still going.").arg(description.left(1).toUpper() + description.mid(1)),
        QMessageBox::NoButton, this);
    box.setInformativeText(
        tr("Wait: quit by itself when it ends. Cancel and quit: stop it now, keeping the "
           "iterations and seeds already finished. Keep running: do not quit."));
    QPushButton* wait = box.addButton(tr("&Wait, Then Quit"), QMessageBox::AcceptRole);
    QPushButton* cancel = box.addButton(tr("&Cancel Run and Quit"), QMessageBox::DestructiveRole);
    QPushButton* keep = box.addButton(tr("&Keep Running"), QMessageBox::RejectRole);
    box.setDefaultButton(keep);
    box.setEscapeButton(keep);
    box.exec();
    choice = box.clickedButton() == wait     ? BusyQuitChoice::Wait
             : box.clickedButton() == cancel ? BusyQuitChoice::CancelAndQuit
                                             : BusyQuitChoice::KeepRunning;
  }
  switch (choice) {
    case BusyQuitChoice::KeepRunning:
      quitWhenIdle_ = false;
      statusBar()->clearMessage();
      return false;
    case BusyQuitChoice::Wait: {
      quitWhenIdle_ = true;
      statusBar()->showMessage(tr("Quitting when %1 ends\u2026").arg(description));
      if (alreadyWaiting) return false;  // connected the first time
      const auto closeWhenIdle = [this] {
        const bool busy = (!inductionPanel_.isNull() && inductionPanel_->isBusy()) ||
                          (!experimentPanel_.isNull() && experimentPanel_->isBusy());
        if (quitWhenIdle_ && !busy) close();
      };
      if (!inductionPanel_.isNull()) {
        connect(inductionPanel_, &InductionPanel::idle, this, closeWhenIdle, Qt::QueuedConnection);
      }
      if (!experimentPanel_.isNull()) {
        connect(experimentPanel_, &ExperimentPanel::idle, this, closeWhenIdle,
                Qt::QueuedConnection);
      }
      return false;
    }
    case BusyQuitChoice::CancelAndQuit:
      // Cancelled at the next sentence; waiting lets the finished iterations and seeds settle
      // into the run list and table, so that the session keeps them.
      if (!inductionPanel_.isNull()) {
        inductionPanel_->cancelRun();
        inductionPanel_->waitUntilIdle(30000);
      }
      if (!experimentPanel_.isNull()) {
        experimentPanel_->cancelRun();
        experimentPanel_->waitUntilIdle(30000);
      }
      quitWhenIdle_ = false;
      return true;
  }
  return false;
}

}  // namespace gwb::ui
