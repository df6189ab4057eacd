#include "ui/earley/nonterminal_panel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/earley/nonterminal_table_model.h"

namespace gwb::ui {

NonterminalPanel::NonterminalPanel(QWidget* parent)
    : QWidget(parent),
      model_(new NonterminalTableModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      filterEdit_(new QLineEdit(this)),
      table_(new QTableView(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(NonterminalTableModel::SortRole);
  proxy_->setFilterKeyColumn(NonterminalTableModel::Symbol);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);

  filterEdit_->setPlaceholderText(tr("Filter nonterminals"));
  filterEdit_->setClearButtonEnabled(true);

  table_->setModel(proxy_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setAlternatingRowColors(true);
  table_->setShowGrid(false);
  table_->setWordWrap(false);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);

  QHeaderView* columns = table_->horizontalHeader();
  columns->setHighlightSections(false);
  columns->setSectionResizeMode(NonterminalTableModel::Symbol, QHeaderView::Stretch);
  const int numberWidth = table_->fontMetrics().horizontalAdvance(QStringLiteral("0.999999")) + 24;
  columns->setSectionResizeMode(NonterminalTableModel::Rules, QHeaderView::Fixed);
  columns->setSectionResizeMode(NonterminalTableModel::ProbabilitySum, QHeaderView::Fixed);
  columns->resizeSection(NonterminalTableModel::Rules,
                         table_->fontMetrics().horizontalAdvance(QStringLiteral("Rules")) + 28);
  columns->resizeSection(NonterminalTableModel::ProbabilitySum, numberWidth);
  columns->setSortIndicatorClearable(true);
  columns->setSortIndicator(-1, Qt::AscendingOrder);
  table_->setSortingEnabled(true);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addWidget(filterEdit_);
  layout->addWidget(table_, 1);

  connect(filterEdit_, &QLineEdit::textChanged, proxy_,
          &QSortFilterProxyModel::setFilterFixedString);
  connect(table_, &QTableView::clicked, this, &NonterminalPanel::activate);
  connect(table_, &QTableView::activated, this, &NonterminalPanel::activate);
}

void NonterminalPanel::setGrammar(std::shared_ptr<const gwb::Grammar> grammar) {
  model_->setGrammar(std::move(grammar));
}

void NonterminalPanel::activate(const QModelIndex& index) {
  if (!index.isValid()) return;
  emit symbolActivated(
      index.siblingAtColumn(NonterminalTableModel::Symbol).data(Qt::DisplayRole).toString());
}

}  // namespace gwb::ui
