#include "ui/earley/grammar_filter_proxy_model.h"

#include <QRegularExpression>

#include "ui/earley/grammar_table_model.h"

namespace gwb::ui {

GrammarFilterProxyModel::GrammarFilterProxyModel(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(GrammarTableModel::SortRole);
  setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void GrammarFilterProxyModel::setScope(Scope scope) {
  if (scope == scope_) return;
  scope_ = scope;
  invalidateFilter();
}

bool GrammarFilterProxyModel::setPattern(const QString& text, bool isRegex, QString* error) {
  const QRegularExpression expression(isRegex ? text : QRegularExpression::escape(text),
                                      QRegularExpression::CaseInsensitiveOption);
  if (!expression.isValid()) {
    if (error) *error = expression.errorString();
    return false;
  }
  setFilterRegularExpression(expression);
  return true;
}

bool GrammarFilterProxyModel::filterAcceptsRow(int sourceRow,
                                               const QModelIndex& sourceParent) const {
  const QRegularExpression& expression = filterRegularExpression();
  if (expression.pattern().isEmpty()) return true;
  const QAbstractItemModel* source = sourceModel();
  const auto text = [&](int column) {
    return source->index(sourceRow, column, sourceParent).data(Qt::DisplayRole).toString();
  };
  switch (scope_) {
    case Scope::Lhs: return expression.match(text(GrammarTableModel::Lhs)).hasMatch();
    case Scope::Rhs: return expression.match(text(GrammarTableModel::Rhs)).hasMatch();
    case Scope::LhsOrRhs: {
      const QString lhs = text(GrammarTableModel::Lhs);
      const QString rhs = text(GrammarTableModel::Rhs);
      return expression.match(lhs).hasMatch() || expression.match(rhs).hasMatch() ||
             expression.match(QString(lhs % QStringLiteral(" -> ") % rhs)).hasMatch();
    }
  }
  return true;
}

}  // namespace gwb::ui
