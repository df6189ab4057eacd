// ChartModel: a recorded Earley chart as a Qt table, "as of" a step of the parse.
//
// Column r is Stolcke's state set r (the items ending after r words); row k of a column is
// the k-th item of that set that exists after `applied` operations and passes the filter, in
// the order the parser made them. Columns are ragged: cells below a set's last item are empty
// and not selectable. The view therefore never holds more than what is on screen: a
// 2,000-word discourse gives 2,001 columns and a few hundred rows, and QTableView asks only
// for the visible cells.
//
// Every cell answers Qt::DisplayRole (the item, "[0, 2] NP → Det N ."), ValuesTextRole (α, γ
// and Viterbi in the chosen NumberFormat) and the roles below, which the tests compare with
// ParseTrace::stateAt. setApplied() moves the step; items touched by operations in
// [highlightFrom, applied) are "new" (highlighted by the operation that touched them last).
// setSelectedItem() marks the item's antecedents: for a completion the advanced item and the
// finished items summed into the constituent, for a scan the advanced item, for a prediction
// the items waiting on a symbol whose left-corner closure reaches the predicted one.
#pragma once

#include <memory>
#include <unordered_set>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "gwb/earley/earley_parser.h"
#include "gwb/earley/parse_trace.h"
#include "ui/common/value_format.h"

namespace gwb::ui {

class ParseSession;

class ChartModel : public QAbstractTableModel {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(ChartModel)

 public:
  enum Role : int {
    SetRole = Qt::UserRole,  // int: the item's state set (its column)
    IndexRole,               // int: the item's index in its set
    ForwardRole,             // double: α as stored after `applied` operations
    InnerRole,               // double: γ as stored
    ViterbiRole,             // double: Viterbi log probability
    LogForwardRole,          // double: log α (true probability)
    LogInnerRole,            // double: log γ
    ValuesTextRole,          // QString: "α 0.042  γ 0.35  v 0.35"
    OperationRole,           // int (gwb::OperationKind): the last operation that touched it
    CreatedByRole,           // int (gwb::OperationKind): the operation that created it
    IsNewRole,               // bool: touched in [highlightFrom, applied)
    IsCurrentRole,           // bool: the item of the last applied operation
    RelationRole,            // int (Relation)
    PredictedRole,           // bool: made by prediction (dot at the start)
  };
  enum class Relation : int { None, Selected, Antecedent };

  struct Filter {
    bool hidePredicted = false;  // items made by prediction (the dot still at the start)
    bool hideZero = false;       // items whose forward probability is zero
    QString symbol;              // only items with this left-hand side (empty: all)
    bool operator==(const Filter& o) const {
      return hidePredicted == o.hidePredicted && hideZero == o.hideZero && symbol == o.symbol;
    }
  };

  explicit ChartModel(QObject* parent = nullptr);
  ~ChartModel() override;

  // Shows `session` (null: nothing) after `applied` operations; resets the model.
  void setSession(std::shared_ptr<const ParseSession> session, std::size_t applied = 0);
  const ParseSession* session() const { return session_.get(); }

  std::size_t applied() const { return applied_; }
  std::size_t highlightFrom() const { return highlightFrom_; }
  // Moves to `applied` operations; items touched in [highlightFrom, applied) are new.
  void setApplied(std::size_t applied, std::size_t highlightFrom);

  const Filter& filter() const { return filter_; }
  void setFilter(const Filter& filter);
  NumberFormat numberFormat() const { return format_; }
  void setNumberFormat(NumberFormat format);

  // Selects an item (invalid: none) and marks its antecedents.
  void setSelectedItem(gwb::ItemRef item);
  gwb::ItemRef selectedItem() const { return selected_; }
  // The antecedents of `item` after `applied` operations (see the header comment).
  std::vector<gwb::ItemRef> antecedents(gwb::ItemRef item) const;

  gwb::ItemRef itemAt(const QModelIndex& index) const;
  // The cell showing `item`, or an invalid index when it is hidden or does not exist yet.
  QModelIndex indexOfItem(gwb::ItemRef item) const;
  // How many rows set `set` shows.
  int shownInSet(int set) const;

  // "α 0.042  γ 0.35  v 0.35" for the item's state after `applied` operations (three
  // significant digits).
  QString valuesText(gwb::ItemRef item) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

 private:
  void resolveFilterSymbol();
  bool passes(gwb::ItemRef item, const gwb::ParseTrace::ItemState& state) const;
  void rebuildSets(std::size_t first, std::size_t last);
  void updateRowCount();
  void notifyAll();
  static std::uint64_t key(gwb::ItemRef item) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(item.set)) << 32) |
           static_cast<std::uint32_t>(item.index);
  }

  std::shared_ptr<const ParseSession> session_;
  std::size_t applied_ = 0;
  std::size_t highlightFrom_ = 0;
  Filter filter_;
  gwb::SymbolId filterSymbol_ = -1;  // resolved filter_.symbol; -2 when it names nothing
  NumberFormat format_ = NumberFormat::Probability;
  std::vector<std::vector<std::int32_t>> rows_;  // per set: item indices shown
  int rowCount_ = 0;
  gwb::ItemRef selected_;
  std::unordered_set<std::uint64_t> antecedents_;
};

}  // namespace gwb::ui
