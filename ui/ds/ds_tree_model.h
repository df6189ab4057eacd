// DsTreeModel: one partial tree of Dynamic Syntax (core's DsTree) as a Qt item tree, for the DS
// stepper's tree pane and for tests.
//
// Items are the tree's nodes; an item's parent is the node at the longest proper prefix of its
// address that is in the tree (so "01" hangs below "0", a LINKed root "01L" below "01", an
// unfixed node "0*" below "0"). Children are in address order: `*` (unfixed) before 0 before 1
// before L; a depth-first walk meets the nodes in DsTree's own (string) order. Columns: the
// address, the type (ty or ?ty), the formula, the other labels. Roles tell what the view draws
// differently: the pointer, LINKed and unfixed nodes, outstanding requirements.
//
// dump() walks the model — rows and the AllLabelsRole, not the tree — and writes one line per
// node, `address[ ◆] {label, ...}`: it equals DsTree::toString() when the model is right.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QAbstractItemModel>

#include "gwb/ds/ds_tree.h"

namespace gwb::ui {

class DsTreeModel : public QAbstractItemModel {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsTreeModel)

 public:
  enum Column { AddressColumn, TypeColumn, FormulaColumn, OtherLabelsColumn, ColumnCount };
  enum Role {
    NodeIndexRole = Qt::UserRole + 1,  // index into the DsTree's nodes
    AllLabelsRole,                     // QStringList of every label's text, in tree order
    PointerRole,                       // bool: the pointer is here
    LinkedRole,                        // bool: the node is in a LINKed tree
    UnfixedRole,                       // bool: the node's address is not yet fixed
    RequirementsRole,                  // QStringList of the node's requirements
  };

  explicit DsTreeModel(QObject* parent = nullptr);
  ~DsTreeModel() override;

  void setTree(std::shared_ptr<const gwb::ds::DsTree> tree);  // null clears
  const gwb::ds::DsTree* tree() const { return tree_.get(); }

  // Parent and children by node index (-1: the item is a root); children in address order.
  int parentOf(int node) const { return parent_[static_cast<std::size_t>(node)]; }
  const std::vector<int>& childrenOf(int node) const {
    return children_[static_cast<std::size_t>(node)];
  }
  const std::vector<int>& roots() const { return roots_; }

  std::string dump() const;

  QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const std::vector<int>& siblings(int parent) const;

  std::shared_ptr<const gwb::ds::DsTree> tree_;
  std::vector<int> parent_;
  std::vector<std::vector<int>> children_;
  std::vector<int> roots_;
  std::vector<int> row_;  // a node's row among its siblings
};

}  // namespace gwb::ui
