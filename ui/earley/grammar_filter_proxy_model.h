// GrammarFilterProxyModel: sorts and filters a GrammarTableModel for the rule table.
//
// Sorting uses GrammarTableModel::SortRole, so numeric columns sort as numbers and a missing
// prior sorts after every present one. Filtering matches the proxy's filterRegularExpression()
// against a rule's LHS, its RHS, or (in LhsOrRhs scope) also the whole "LHS -> RHS" text, so
// that typing `NP -> Det` finds exactly those rules. An empty pattern accepts every row.
#pragma once

#include <QSortFilterProxyModel>

namespace gwb::ui {

class GrammarFilterProxyModel : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  enum class Scope { LhsOrRhs, Lhs, Rhs };

  explicit GrammarFilterProxyModel(QObject* parent = nullptr);

  Scope scope() const { return scope_; }
  void setScope(Scope scope);

  // Sets the case-insensitive pattern: `text` is matched literally unless `isRegex`.
  // Returns false (and leaves the filter unchanged) when `text` is not a valid expression;
  // *error then says why.
  bool setPattern(const QString& text, bool isRegex, QString* error = nullptr);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  Scope scope_ = Scope::LhsOrRhs;
};

}  // namespace gwb::ui
