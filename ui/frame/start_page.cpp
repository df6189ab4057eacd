#include "ui/frame/start_page.h"

#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace gwb::ui {

namespace {
// Item data role holding a recent file's full path.
constexpr int kPathRole = Qt::UserRole;
}  // namespace

StartPage::StartPage(QWidget* parent)
    : QWidget(parent),
      recentList_(new QListWidget(this)),
      openButton_(new QPushButton(tr("Open\u2026"), this)) {
  auto* icon = new QLabel(this);
  icon->setPixmap(QIcon(QStringLiteral(":/icons/grammar-workbench.svg")).pixmap(96, 96));
  icon->setAlignment(Qt::AlignCenter);

  auto* title = new QLabel(tr("Grammar Workbench"), this);
  QFont titleFont = title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.8);
  titleFont.setBold(true);
  title->setFont(titleFont);
  title->setAlignment(Qt::AlignCenter);

  auto* subtitle = new QLabel(
      tr("Probabilistic grammars: Earley parsing, grammar induction, Dynamic Syntax"), this);
  subtitle->setAlignment(Qt::AlignCenter);
  subtitle->setWordWrap(true);

  openButton_->setDefault(true);

  auto* recentTitle = new QLabel(tr("Recent files"), this);
  QFont recentFont = recentTitle->font();
  recentFont.setBold(true);
  recentTitle->setFont(recentFont);

  recentList_->setUniformItemSizes(true);
  recentList_->setMinimumHeight(120);

  auto* hint = new QLabel(tr("You can also drop grammar files (.grammar, .rules, .cfg, .pcfg) "
                             "anywhere on this window."),
                          this);
  hint->setAlignment(Qt::AlignCenter);
  hint->setWordWrap(true);
  hint->setEnabled(false);  // drawn in the palette's dimmer, disabled text colour

  auto* column = new QVBoxLayout;
  column->addStretch(1);
  column->addWidget(icon);
  column->addWidget(title);
  column->addWidget(subtitle);
  column->addSpacing(16);
  column->addWidget(openButton_, 0, Qt::AlignHCenter);
  column->addSpacing(16);
  column->addWidget(recentTitle);
  column->addWidget(recentList_, 2);
  column->addWidget(hint);
  column->addStretch(1);

  // Keep the column a readable width, centred, however wide the window is.
  auto* columnHolder = new QWidget(this);
  columnHolder->setLayout(column);
  columnHolder->setMaximumWidth(560);
  auto* centring = new QHBoxLayout(this);
  centring->addStretch(1);
  centring->addWidget(columnHolder, 4);
  centring->addStretch(1);

  connect(openButton_, &QPushButton::clicked, this, &StartPage::openRequested);
  connect(recentList_, &QListWidget::itemClicked, this, &StartPage::activate);
  connect(recentList_, &QListWidget::itemActivated, this, &StartPage::activate);
  setRecentFiles({});
}

void StartPage::setRecentFiles(const QStringList& files) {
  recentList_->clear();
  for (const QString& path : files) {
    const QFileInfo info(path);
    auto* item = new QListWidgetItem(
        info.fileName() % QStringLiteral("  \u2014  ") % QDir::toNativeSeparators(info.path()),
        recentList_);
    item->setData(kPathRole, path);
    item->setToolTip(QDir::toNativeSeparators(path));
  }
  if (files.isEmpty()) {
    auto* item = new QListWidgetItem(tr("No recent files"), recentList_);
    item->setFlags(Qt::NoItemFlags);
  }
}

void StartPage::activate(QListWidgetItem* item) {
  const QString path = item ? item->data(kPathRole).toString() : QString();
  if (!path.isEmpty()) emit recentFileActivated(path);
}

}  // namespace gwb::ui
