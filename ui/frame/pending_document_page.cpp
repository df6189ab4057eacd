#include "ui/frame/pending_document_page.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gwb::ui {

namespace {
QString kindText(WorkspaceDocument::Kind kind) {
  switch (kind) {
    case WorkspaceDocument::Kind::Corpus: return PendingDocumentPage::tr("corpus");
    case WorkspaceDocument::Kind::DsStepper:
      return PendingDocumentPage::tr("Dynamic Syntax stepper");
    case WorkspaceDocument::Kind::DsLearn: return PendingDocumentPage::tr("DS lexicon learning");
    case WorkspaceDocument::Kind::Ccg: return PendingDocumentPage::tr("CCG parser");
    case WorkspaceDocument::Kind::Fubl: return PendingDocumentPage::tr("FUBL learner");
    case WorkspaceDocument::Kind::Grammar:
    // Research windows are never pending tabs (they open as windows of their own).
    case WorkspaceDocument::Kind::Induction:
    case WorkspaceDocument::Kind::Discourse:
    case WorkspaceDocument::Kind::Transitions:
    case WorkspaceDocument::Kind::Experiments: break;
  }
  return PendingDocumentPage::tr("grammar");
}
}  // namespace

PendingDocumentPage::PendingDocumentPage(WorkspaceDocument document, bool autoOpen, QWidget* parent)
    : QWidget(parent), document_(std::move(document)), autoOpen_(autoOpen) {
  setObjectName(QStringLiteral("pendingDocumentPage"));
  auto* layout = new QVBoxLayout(this);
  layout->addStretch(1);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("pendingMessage"));
  message_->setAlignment(Qt::AlignCenter);
  message_->setWordWrap(true);
  message_->setTextFormat(Qt::PlainText);
  const QString what = kindText(document_.kind);
  const QString where =
      document_.path.isEmpty()
          ? (document_.kind == WorkspaceDocument::Kind::Ccg       ? tr("(no lexicon)")
             : document_.kind == WorkspaceDocument::Kind::DsLearn ? tr("(no training file)")
             : document_.kind == WorkspaceDocument::Kind::Fubl    ? tr("(no training file)")
                                                                  : tr("(the default folder)"))
          : QDir::toNativeSeparators(document_.path);
  message_->setText(autoOpen_ ? tr("Opening the %1 %2 from the last session\u2026").arg(what, where)
                              : tr("The last session did not end normally, so this %1 was not "
                                   "opened:\n%2\n\nOpen it when you are ready, or close the tab.")
                                    .arg(what, where));
  openButton_ = new QPushButton(tr("&Open"), this);
  openButton_->setObjectName(QStringLiteral("pendingOpenButton"));
  openButton_->setToolTip(tr("Open this %1 as it was in the last session").arg(what));
  layout->addWidget(message_);
  layout->addWidget(openButton_, 0, Qt::AlignHCenter);
  layout->addStretch(2);
  connect(openButton_, &QPushButton::clicked, this, &PendingDocumentPage::openRequested);
}

QString PendingDocumentPage::title() const {
  if (document_.kind == WorkspaceDocument::Kind::DsStepper) return tr("DS stepper");
  if (document_.kind == WorkspaceDocument::Kind::Fubl) return tr("FUBL learner");
  if (document_.kind == WorkspaceDocument::Kind::Ccg) {
    return document_.path.isEmpty() ? tr("CCG parser")
                                    : tr("CCG: %1").arg(QFileInfo(document_.path).fileName());
  }
  return QFileInfo(document_.path).fileName();
}

QString PendingDocumentPage::toolTip() const {
  const QString path = QDir::toNativeSeparators(document_.path);
  if (document_.kind == WorkspaceDocument::Kind::DsStepper)
    return tr("Dynamic Syntax stepper: %1").arg(path);
  if (document_.kind == WorkspaceDocument::Kind::Ccg) return tr("CCG parser: %1").arg(path);
  if (document_.kind == WorkspaceDocument::Kind::Fubl) return tr("FUBL learner: %1").arg(path);
  return path;
}

void PendingDocumentPage::showFailure(const QString& message) {
  autoOpen_ = false;  // showing the tab again should not retry behind the user's back
  message_->setText(message);
  openButton_->setText(tr("Try &again"));
}

QString PendingDocumentPage::message() const { return message_->text(); }

}  // namespace gwb::ui
